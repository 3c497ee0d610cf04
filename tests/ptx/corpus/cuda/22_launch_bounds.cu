// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __launch_bounds__ (maxThreads, minBlocks, maxBlocksPerCluster) -> .maxntid/.minnctapersm/.maxclusterrank, __maxnreg__.
__global__ void __launch_bounds__(256) lb_max_only(float *p)
{
    p[blockIdx.x * 256 + threadIdx.x] *= 2.0f;
}

__global__ void __launch_bounds__(128, 4) lb_max_min(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i] * a[i] + 1.0f;
}

__global__ void __launch_bounds__(1024, 1) lb_big(double *p)
{
    double v = p[threadIdx.x];
    for (int k = 0; k < 8; ++k) v = v * 1.0001 + 0.5;
    p[threadIdx.x] = v;
}

__global__ void __maxnreg__(32) maxnreg_kernel(float *p)
{
    p[threadIdx.x] = p[threadIdx.x] * 3.0f + 1.0f;
}
