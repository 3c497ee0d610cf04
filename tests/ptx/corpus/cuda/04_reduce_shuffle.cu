// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: warp-shuffle reduction (shfl.sync.down/xor) followed by a block-level combine.
#include <climits>
__inline__ __device__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__inline__ __device__ int warp_max(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

__global__ void reduce_sum_shuffle(const float *in, float *out, int n)
{
    __shared__ float warp_part[32];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    v = warp_sum(v);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) warp_part[wid] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / 32) ? warp_part[lane] : 0.0f;
    if (wid == 0) v = warp_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
}

__global__ void reduce_max_shuffle(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : INT_MIN;
    v = warp_max(v);
    if ((threadIdx.x & 31) == 0) atomicMax(out, v);
}
