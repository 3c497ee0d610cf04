// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: every atomic flavour (add int/unsigned/ull/float/double/half2, sub, exch, min, max, inc, dec, CAS 32/64, and/or/xor, block/system scopes).
#include <cuda_fp16.h>

__global__ void atomics_int(int *i32, unsigned *u32, unsigned long long *u64, long long *s64, int v)
{
    atomicAdd(&i32[0], v);
    atomicAdd(&u32[0], (unsigned)v);
    atomicAdd(&u64[0], (unsigned long long)v);
    atomicSub(&i32[1], v);
    atomicSub(&u32[1], 3u);
    atomicExch(&i32[2], v);
    atomicExch(&u64[1], 42ull);
    atomicMin(&i32[3], v);
    atomicMin(&u32[3], (unsigned)v);
    atomicMin(&s64[0], (long long)v);
    atomicMax(&i32[4], v);
    atomicMax(&u64[2], (unsigned long long)v);
    atomicInc(&u32[4], 255u);
    atomicDec(&u32[5], 255u);
    int old = atomicCAS(&i32[5], 0, v);
    unsigned long long old64 = atomicCAS(&u64[3], 0ull, (unsigned long long)old);
    atomicAnd(&i32[6], v);
    atomicOr(&u32[6], 0xf0u);
    atomicXor(&i32[7], v);
    atomicAnd(&u64[4], old64);
    atomicOr(&u64[5], 1ull);
    atomicXor(&u64[6], 0x5555ull);
}

__global__ void atomics_float(float *f, double *d, __half2 *h2, __half *h, float v)
{
    atomicAdd(&f[0], v);
    atomicExch(&f[1], v);
    atomicAdd(&d[0], (double)v);
    atomicAdd(&h2[0], __floats2half2_rn(v, -v));
    atomicAdd(&h[0], __float2half(v));
}

__global__ void atomics_scoped(int *p, float *f, unsigned long long *q, int v)
{
    atomicAdd_block(&p[0], v);
    atomicAdd_system(&p[1], v);
    atomicAdd_block(&f[0], 1.0f);
    atomicAdd_system(&f[1], 1.0f);
    atomicCAS_block(&p[2], 0, v);
    atomicCAS_system(&q[0], 0ull, 1ull);
    atomicExch_system(&p[3], v);
    atomicMax_block(&p[4], v);
    atomicOr_system(&p[5], v);
}

__global__ void atomic_float_max_cas(float *addr, float val)
{
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        old = atomicCAS(ia, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
}

__global__ void atomic_shared(unsigned *out)
{
    __shared__ unsigned counter;
    __shared__ float fsum;
    if (threadIdx.x == 0) { counter = 0; fsum = 0.f; }
    __syncthreads();
    atomicAdd(&counter, 1u);
    atomicAdd(&fsum, 0.5f);
    atomicMax(&counter, threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) { out[blockIdx.x] = counter + (unsigned)fsum; }
}
