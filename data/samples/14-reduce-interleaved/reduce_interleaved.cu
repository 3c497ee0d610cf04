// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 14: parallel reduction, interleaved addressing (with divergence).
// Each block sums its 256 inputs in shared memory as a tree: at step s,
// thread t adds element t + s into element t when t is a multiple of 2s.
// block_sums[b] receives block b's total; a second launch, or the host,
// adds those up.  This is the first kernel of Mark Harris's "Optimizing
// Parallel Reduction in CUDA", and the slowest: see samples 15 and 16.
//
// What to look at:
// - The `if (t % (2 * stride) == 0)` line: the working threads are spread
//   over ALL warps (threads 0, 2, 4, ... then 0, 4, 8, ...), so from the
//   first step every warp diverges, and the warps keep issuing with fewer
//   and fewer active lanes: 1 in 32 by the fifth step.  The Lanes view shows
//   the thinning combs; the heat gutter marks the branch divergent.
// - The PTX: nvcc unrolls the loop (BLOCK is known), so each step has its
//   own branch, and t % (2 * stride) becomes an and.b32 with a constant.
// - Nine __syncthreads() a block: after the load and after each step.

#define BLOCK 256

__global__ void reduce_interleaved(const float *in, float *block_sums, int n)
{
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + t;

  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned stride = 1; stride < BLOCK; stride *= 2)
    {
      if (t % (2 * stride) == 0)
        s[t] += s[t + stride];
      __syncthreads();
    }

  if (t == 0)
    block_sums[blockIdx.x] = s[0];
}
