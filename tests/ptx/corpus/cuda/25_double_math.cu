// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: double-precision math library calls (sin, cos, exp, log, pow, sqrt, division, fma, rint) -> large inlined sequences.
__global__ void dmath(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    double a = sin(v) * cos(v);
    double b = exp(v) / (1.0 + v * v);
    double c = sqrt(fabs(v)) + log1p(fabs(v));
    double d = pow(fabs(v) + 1.0, 0.3333);
    double e = fma(a, b, c) + rint(v) + atan2(v, 2.0);
    y[i] = a + b + c + d + e + 1.0 / v;
}

__global__ void dconv(const double *x, float *f, long long *l, unsigned *u, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    f[i] = (float)v;
    l[i] = __double2ll_rz(v) + llrint(v);
    u[i] = __double2uint_ru(v) + (unsigned)__double_as_longlong(v) + __double2hiint(v);
}
