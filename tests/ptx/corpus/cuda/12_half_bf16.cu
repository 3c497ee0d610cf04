// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __half / __half2 / __nv_bfloat16 / __nv_bfloat162 arithmetic, fma and conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void half_math(const __half *a, const __half *b, __half *c, const __half2 *a2, const __half2 *b2, __half2 *c2, float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i];
    __half z = __hfma(x, y, __float2half(1.0f));
    z = __hmul(z, __hadd(x, y));
    if (__hgt(z, __float2half(100.f))) z = __hsub(z, y);
    c[i] = hsqrt(__habs(z));
    __half2 p = a2[i], q = b2[i];
    __half2 r = __hfma2(p, q, __half2half2(__ushort_as_half(0x3c00)));
    r = __hmul2(r, h2exp(q));
    c2[i] = r;
    f[i] = __half2float(z) + __low2float(r) + __high2float(r) + (float)__half2int_rn(x);
}

__global__ void bf16_math(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *c, const __nv_bfloat162 *a2, __nv_bfloat162 *c2, float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i], y = b[i];
    __nv_bfloat16 z = __hadd(__hmul(x, y), __float2bfloat16(0.5f));
    z = __hadd(z, __hmul(x, x));
    c[i] = __hmax(z, __float2bfloat16_rn(-1.0f));
    __nv_bfloat162 p = a2[i];
    __nv_bfloat162 r = __hadd2(__hmul2(p, p), __bfloat162bfloat162(y));
    c2[i] = __hneg2(r);
    f[i] = __bfloat162float(z) + __low2float(r) + __bfloat162float(__float2bfloat16((float)i));
}

__global__ void conversions(const float *in, __half *h, __nv_bfloat16 *bf, int *iv, double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    h[i] = __float2half_rz(v);
    bf[i] = __float2bfloat16_rd(v);
    iv[i] = __half2int_rd(__float2half(v)) + __bfloat162int_rn(__float2bfloat16(v));
    d[i] = (double)__half2float(__double2half((double)v * 3.0));
}
