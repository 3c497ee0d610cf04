// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: templated kernels and device functions with several instantiations (mangled names).
template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };

template <typename T, typename Op, int BLOCK>
__global__ void block_reduce(const T *in, T *out, int n, T init)
{
    __shared__ T s[BLOCK];
    Op op;
    T v = init;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
        v = op(v, in[i]);
    s[threadIdx.x] = v;
    __syncthreads();
#pragma unroll
    for (int st = BLOCK / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + st]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T>
__global__ void fill(T *p, T v, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

template __global__ void block_reduce<float, Plus<float>, 128>(const float *, float *, int, float);
template __global__ void block_reduce<int, Max<int>, 256>(const int *, int *, int, int);
template __global__ void block_reduce<double, Plus<double>, 64>(const double *, double *, int, double);
template __global__ void fill<float>(float *, float, size_t);
template __global__ void fill<unsigned char>(unsigned char *, unsigned char, size_t);
template __global__ void fill<long long>(long long *, long long, size_t);
