// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: dynamic parallelism (device-side kernel launch via cudaLaunchDevice / cudaGetParameterBuffer), requires -rdc=true.
__global__ void child(int *data, int base)
{
    data[base + threadIdx.x] += 1;
}

__global__ void parent(int *data, int chunks)
{
    if (threadIdx.x < chunks)
        child<<<1, 32>>>(data, threadIdx.x * 32);
}
