// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: asynchronous global->shared copies (cp.async) via cuda_pipeline primitives and cuda::memcpy_async (sm_80 paths).
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void pipeline_copy(const float4 *in, float4 *out, int tiles)
{
    __shared__ float4 buf[2][128];
    int stage = 0;
    __pipeline_memcpy_async(&buf[0][threadIdx.x], &in[threadIdx.x], sizeof(float4));
    __pipeline_commit();
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            __pipeline_memcpy_async(&buf[stage ^ 1][threadIdx.x], &in[(t + 1) * 128 + threadIdx.x], sizeof(float4));
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[stage][(threadIdx.x + 1) & 127];
        out[t * 128 + threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
        __syncthreads();
        stage ^= 1;
    }
}

__global__ void memcpy_async_barrier(const int *in, int *out, int n)
{
    __shared__ int smem[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, smem, in + blockIdx.x * 256, sizeof(int) * 256, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = smem[255 - threadIdx.x] * 2;
}
