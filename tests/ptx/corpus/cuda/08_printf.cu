// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: device printf (vprintf extern call, string constants in .global, local arg buffers).
#include <cstdio>

__global__ void hello(int n, float f, const char *tag)
{
    printf("hello from block %d thread %d\n", blockIdx.x, threadIdx.x);
    if (threadIdx.x == 0)
        printf("n=%d f=%f d=%e tag=%s ptr=%p ll=%lld\n", n, f, (double)f * 2.0, tag, tag, (long long)n << 40);
}

__global__ void assert_like(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] < 0)
        printf("negative value %d at %d\n", v[i], i);
}
