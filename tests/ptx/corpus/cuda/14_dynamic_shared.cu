// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: extern __shared__ dynamic shared memory split into several typed arrays.
__global__ void dyn_shared_scan(const int *in, int *out, int n)
{
    extern __shared__ int temp[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    temp[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int t = tid >= off ? temp[tid - off] : 0;
        __syncthreads();
        temp[tid] += t;
        __syncthreads();
    }
    if (i < n) out[i] = temp[tid];
}

__global__ void dyn_shared_mixed(const float *in, float *out, int nf)
{
    extern __shared__ __align__(16) unsigned char smem[];
    float *fbuf = reinterpret_cast<float *>(smem);
    double *dbuf = reinterpret_cast<double *>(smem + ((nf * sizeof(float) + 7) & ~7));
    fbuf[threadIdx.x] = in[threadIdx.x];
    dbuf[threadIdx.x] = (double)in[threadIdx.x] * 2.0;
    __syncthreads();
    out[threadIdx.x] = fbuf[blockDim.x - 1 - threadIdx.x] + (float)dbuf[(threadIdx.x + 1) % blockDim.x];
}
