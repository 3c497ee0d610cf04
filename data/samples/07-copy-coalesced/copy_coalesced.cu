// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 7: a coalesced copy, the baseline of the three copy samples.
// Thread i copies element i: the 32 lanes of a warp touch 32 consecutive
// floats, 128 bytes, which is exactly four 32-byte sectors and one 128-byte
// cache line.  The memory system moves nothing it does not use.
//
// What to look at:
// - The Memory view of the load and the store: 4 sectors per request, the
//   ideal; 100% of the bytes moved are bytes the kernel asked for.
// - The timing estimate: 2 MB in and 2 MB out over 2048 blocks (a few waves
//   of a large GPU) is memory-bound: its time is that of the DRAM traffic.
// - Compare with sample 8 (a stride between threads) and sample 9 (the same
//   pattern moved by one element): the same instructions, other numbers of
//   sectors, and for sample 8 about eight times the time.

__global__ void copy_coalesced(const float *in, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
