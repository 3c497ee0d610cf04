// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 16: parallel reduction with warp shuffles.
// Inside a warp the 32 lanes can read each other's registers directly:
// __shfl_down_sync(mask, v, k) gives lane l the value of lane l + k.  Five
// shuffle-and-add steps (k = 16, 8, 4, 2, 1) leave the warp's sum in lane 0,
// with no shared memory and no barrier.  The block then needs shared memory
// only to pass its 8 warp sums to warp 0, which reduces them the same way.
//
// What to look at:
// - shfl.sync.down.b32 in the PTX, five times in each warp_sum (unrolled):
//   all 32 lanes active, no divergence, no memory traffic.
// - One __syncthreads() per block instead of sample 15's nine.
// - The shared-memory traffic: 8 stores and one 8-lane load per block.
// - Lanes whose partner would be past lane 31 get their own value back; the
//   sums they make are never used, only lane 0's is.

#define BLOCK 256
#define FULL_MASK 0xffffffffu

__device__ float warp_sum(float v)
{
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void reduce_shuffle(const float *in, float *block_sums, int n)
{
  __shared__ float warp_sums[BLOCK / 32];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + t;
  unsigned lane = t % 32, warp = t / 32;

  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();

  if (warp == 0)
    {
      v = lane < BLOCK / 32 ? warp_sums[lane] : 0.0f;
      v = warp_sum(v);
      if (lane == 0)
        block_sums[blockIdx.x] = v;
    }
}
