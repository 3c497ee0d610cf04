// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __syncwarp with masks, __threadfence/_block/_system, __nanosleep spin loop, __syncthreads_count/and/or.
__device__ volatile int g_flag;
__device__ int g_data;

__global__ void producer_consumer(int *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        g_data = 42;
        __threadfence();
        g_flag = 1;
    } else if (threadIdx.x == 0) {
        unsigned ns = 8;
        while (g_flag == 0) {
            __nanosleep(ns);
            if (ns < 256) ns *= 2;
        }
        __threadfence_block();
        out[blockIdx.x] = g_data;
        __threadfence_system();
    }
}

__global__ void warp_sync_ops(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (threadIdx.x < 16) {
        v += 1;
        __syncwarp(0x0000ffffu);
    }
    __syncwarp();
    int cnt = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v < 0);
    out[threadIdx.x] = v + cnt + all + any;
}
