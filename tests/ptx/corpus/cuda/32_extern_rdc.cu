// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: separate compilation (-rdc=true): extern device function declarations, extern __device__ variables, .weak/.visible linkage.
extern __device__ float external_scale(float x);
extern __device__ int external_counter;

__device__ float local_helper(float x) { return external_scale(x) + 1.0f; }

__device__ __noinline__ int visible_helper(int a, int b) { return a * b + external_counter; }

__global__ void uses_externs(float *p, int *q)
{
    int i = threadIdx.x;
    p[i] = local_helper(p[i]);
    q[i] = visible_helper(q[i], i);
}

// Templated / inline device functions become .weak in relocatable mode.
template <typename T> __device__ __noinline__ T twice(T v) { return v + v; }
inline __device__ __noinline__ int inline_noinline(int v) { return v * 13; }

__global__ void uses_weak(int *a, double *b)
{
    a[threadIdx.x] = twice(a[threadIdx.x]) + inline_noinline(threadIdx.x);
    b[threadIdx.x] = twice(b[threadIdx.x]);
}
