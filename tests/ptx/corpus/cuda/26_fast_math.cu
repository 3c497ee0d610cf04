// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: single-precision fast-math intrinsics (__sinf, __cosf, __expf, __logf, __powf, __fdividef, rsqrtf, __saturatef, rounding-mode ops).
__global__ void fastmath(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float a = __sinf(v) + __cosf(v) + __tanf(v);
    float b = __expf(v) * __logf(fabsf(v) + 1.f) + __powf(fabsf(v), 0.5f) + __exp10f(v) + __log2f(v + 3.f);
    float c = __fdividef(a, b) + rsqrtf(fabsf(v) + 1e-6f) + __frsqrt_rn(v * v + 1.f);
    float d = __fadd_rz(a, b) + __fmul_rd(a, c) + __fmaf_ru(a, b, c) + __fdiv_rn(a, c) + __fsqrt_rd(fabsf(b));
    y[i] = __saturatef(d) + c + __frcp_rn(v) + sinf(v) / cosf(v);
}

__global__ void sincos_kernel(const float *x, float2 *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s, c;
    __sincosf(x[i], &s, &c);
    float s2, c2;
    sincosf(x[i] * 2.f, &s2, &c2);
    y[i] = make_float2(s + s2, c + c2);
}
