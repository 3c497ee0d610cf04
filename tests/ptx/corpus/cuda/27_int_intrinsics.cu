// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: integer intrinsics (__popc, __clz, __ffs, __brev, __byte_perm, __funnelshift_l/r, __mulhi, __umul64hi, __sad, __dp4a, __dp2a, __vadd4).
__global__ void intrin(const unsigned *a, const unsigned *b, unsigned *out, unsigned long long *out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned r = __popc(x) + __clz((int)y) + __ffs((int)x) + __brev(x);
    r ^= __byte_perm(x, y, 0x5140);
    r += __funnelshift_l(x, y, i & 31) + __funnelshift_r(x, y, 7) + __funnelshift_lc(x, y, i);
    r += (unsigned)__mulhi((int)x, (int)y) + __umulhi(x, y) + (unsigned)__mul24((int)x, (int)y);
    r += __sad((int)x, (int)y, 3u) + __usad(x, y, 1u);
    r += (unsigned)__dp4a((int)x, (int)y, 5) + __dp4a(x, y, 9u) + (unsigned)__dp2a_lo((int)x, (int)y, 1);
    r += __vadd4(x, y) + __vabsdiffu4(x, y) + __vcmpgtu2(x, y);
    r += __hadd((int)x, (int)y) + __urhadd(x, y);
    out[i] = r;
    unsigned long long w = ((unsigned long long)x << 32) | y;
    out64[i] = __umul64hi(w, 0x9e3779b97f4a7c15ull) + __popcll(w) + __clzll((long long)w) + __brevll(w) + __ffsll((long long)w);
}
