// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 20: a histogram with atomics in shared memory (privatisation).
// The same histogram as sample 19, in three phases: each block zeroes a
// private 256-bin histogram in shared memory, counts its pixels into it
// with shared-memory atomics (fast, on the SM), and finally adds its 256
// counters to the global histogram: at most 256 global atomics per block
// instead of one per pixel.
//
// What to look at:
// - atom.shared.add.u32 in the counting loop: same instruction count as
//   sample 19's, but the contention stays inside the SM.
// - The two __syncthreads(): the bins must be zero before anyone counts,
//   and complete before anyone publishes them.
// - The global atomics in the last loop: 16 blocks x 256 bins, under
//   `if (local[b] > 0)`: empty bins (the image has 32 grey levels) cost
//   nothing, so only 16 x 32 updates reach global memory.

#define BINS 256

__global__ void histogram_shared(const unsigned char *pixels, int n, unsigned *hist)
{
  __shared__ unsigned local[BINS];
  int stride = blockDim.x * gridDim.x;

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[pixels[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] > 0)
      atomicAdd(&hist[b], local[b]);
}
