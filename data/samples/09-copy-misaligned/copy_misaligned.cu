// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 9: a misaligned copy.
// Thread i copies element i + offset.  With offset 1 each warp's 128 bytes
// start 4 bytes into a sector, so they straddle five sectors and two cache
// lines instead of four and one.  The cost is modest (5 sectors for 4) on
// GPUs with L1 and L2 caching, which is the lesson: alignment matters much
// less than it did on the first CUDA GPUs, striding (sample 8) much more.
//
// What to look at:
// - The Memory view: 5 sectors per request where sample 7 needs 4, and
//   2 cache lines instead of 1.
// - The timing estimate: the same as sample 7's.  The extra sector of each
//   request is one the neighbouring warp reads anyway, so it comes from the
//   caches and the DRAM traffic hardly grows.
// - Change `offset` in the launch configuration: 8 (32 bytes) is aligned to
//   a sector again and costs 4 sectors, though it still spans two lines.

__global__ void copy_misaligned(const float *in, float *out, int n, int offset)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
  if (i < n)
    out[i] = in[i];
}
