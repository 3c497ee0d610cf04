// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 15: parallel reduction, sequential addressing.
// The same tree sum as sample 14, turned around: at each step the first
// half of the remaining threads adds the second half's elements,
// s[t] += s[t + stride] for t < stride, with stride = 128, 64, ..., 1.
// The threads that work are contiguous, so whole warps either work or
// skip, and the shared-memory accesses are consecutive words.
//
// What to look at:
// - The `if (t < stride)` line: not divergent while stride >= 32 (at 128,
//   warps 0-3 work and warps 4-7 skip, each as a whole); only the last five
//   steps, inside warp 0, split a warp.  Compare the Lanes view with 14's.
// - The bank diagram of the additions: conflict-free (lane k reads word
//   t + stride, consecutive across the warp).
// - The sum of the block is the same as sample 14's up to rounding: the
//   additions pair up differently, and float addition is not associative.

#define BLOCK 256

__global__ void reduce_sequential(const float *in, float *block_sums, int n)
{
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + t;

  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2)
    {
      if (t < stride)
        s[t] += s[t + stride];
      __syncthreads();
    }

  if (t == 0)
    block_sums[blockIdx.x] = s[0];
}
