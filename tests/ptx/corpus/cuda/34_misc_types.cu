// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: 8/16/64-bit integer types, unsigned division/modulo, 128-bit int, bool, selects, min/max/abs, saturating conversions.
__global__ void mixed_types(const signed char *a, const short *b, const long long *c, unsigned char *o8, unsigned short *o16, long long *o64, bool *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    signed char x = a[i];
    short y = b[i];
    long long z = c[i];
    o8[i] = (unsigned char)(x * 3 + y);
    o16[i] = (unsigned short)(y / (x | 1)) + (unsigned short)(z % 7);
    unsigned long long uz = (unsigned long long)z;
    o64[i] = (long long)(uz / 1000003ull) + llabs(z) + llmin(z, -5ll) + (long long)umax((unsigned)x, 9u);
    flags[i] = (x > 0) != (y < 0);
#if defined(__CUDACC__) && defined(__SIZEOF_INT128__)
    __int128 w = (__int128)z * (__int128)z;
    o64[i] ^= (long long)(w >> 64);
#endif
}

__global__ void float_int_conv(const float *f, int *iv, unsigned *uv, signed char *sc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = f[i];
    iv[i] = __float2int_rn(v) + __float2int_rz(v) + __float2int_rd(v) + __float2int_ru(v);
    uv[i] = __float2uint_rn(v) + (unsigned)__float_as_int(v) + (unsigned)(v * 1000.f);
    sc[i] = (signed char)max(-128, min(127, (int)v));
}
