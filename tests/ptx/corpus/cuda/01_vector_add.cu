// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: simple element-wise vector add and saxpy with a grid-stride loop.
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void saxpy(int n, float alpha, const float *__restrict__ x, float *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = alpha * x[i] + y[i];
}
