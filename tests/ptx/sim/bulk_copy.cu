// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: a 1D bulk copy (TMA without a tensor map) into shared memory completing on a cuda::barrier, and back with cp.async.bulk and a bulk group (sm_90).
#include <cuda/barrier>
#include <cuda/ptx>
using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace ptx = cuda::ptx;

__global__ void add_one_kernel(int *data)
{
    __shared__ alignas(16) int smem_data[1024];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cuda::memcpy_async(smem_data, data + blockIdx.x * 1024, cuda::aligned_size_t<16>(sizeof(smem_data)), bar);
    }
    token = bar.arrive();
    bar.wait(std::move(token));
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        smem_data[i] += 1;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, data + blockIdx.x * 1024, smem_data, sizeof(smem_data));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
