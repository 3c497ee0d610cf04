// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 8: a strided copy.
// Thread i copies element i * stride.  With stride 8 the 32 lanes of a warp
// are 32 bytes apart, so each lane's 4 bytes fall in a different 32-byte
// sector: the warp moves 32 sectors (1024 bytes) to use 128.  This is the
// pattern of reading one field of an array of structures, or one column of
// a row-major matrix.
//
// What to look at:
// - The Memory view of the load and the store: 32 sectors per request
//   against an ideal of 4, so 1/8 of the bandwidth does useful work.  The
//   hint on the access line says so.
// - The timing estimate: about eight times sample 7's for the same 2 MB of
//   useful data, since DRAM moves every sector whole.
// - The elements between the copied ones stay zero in `out`: only every
//   eighth one is touched.
// - Compare with sample 7 (stride 1) and sample 9 (offset 1).  The fix is in
//   the data layout: a structure of arrays instead of an array of structures.

__global__ void copy_strided(const float *in, float *out, int n, int stride)
{
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  if (i < n)
    out[i] = in[i];
}
