// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __ldg (ld.global.nc), cache-hinted loads/stores (__ldcs/__ldcg/__stcs/__stwt), volatile accesses, float4/int2/double2 vector loads.
__global__ void ldg_vec(const float4 *__restrict__ a, const int2 *__restrict__ b, float4 *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 x = __ldg(&a[i]);
    int2 y = __ldg(&b[i]);
    float s = __ldg(reinterpret_cast<const float *>(a) + i);
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z * s, x.w);
}

__global__ void cache_hints(const float *a, float *b, const double2 *d2, double2 *o2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = __ldcs(&a[i]) + __ldcg(&a[i + 1]) + __ldca(&a[i + 2]) + __ldlu(&a[i + 3]) + __ldcv(&a[i + 4]);
    __stcs(&b[i], v);
    __stwt(&b[i + n], v * 2.f);
    __stcg(&b[i + 2 * n], v);
    double2 d = d2[i];
    o2[i] = make_double2(d.y, d.x);
}

__global__ void volatile_access(volatile int *flags, volatile float *vals, int n)
{
    int i = threadIdx.x;
    vals[i] = vals[i] + 1.0f;
    flags[i] = 1;
    while (flags[(i + 1) % n] == 0) { }
    vals[i] += vals[(i + 1) % n];
}
