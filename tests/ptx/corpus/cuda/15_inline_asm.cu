// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: inline PTX asm: lop3, prmt, bfe, mov %laneid/%clock64/%smid, add.cc/addc carry chains, predicates in asm.
__device__ __forceinline__ unsigned lop3_xor3(unsigned a, unsigned b, unsigned c)
{
    unsigned r;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

__device__ __forceinline__ unsigned lane_id()
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

__device__ __forceinline__ void add_u128(unsigned long long &lo, unsigned long long &hi, unsigned long long blo, unsigned long long bhi)
{
    asm("add.cc.u64 %0, %0, %2;\n\t"
        "addc.u64 %1, %1, %3;"
        : "+l"(lo), "+l"(hi) : "l"(blo), "l"(bhi));
}

__global__ void asm_kernel(unsigned *out, unsigned long long *wide, long long *timing)
{
    long long t0;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
    unsigned x = threadIdx.x * 0x9e3779b9u;
    unsigned r = lop3_xor3(x, x >> 7, x << 3);
    unsigned p;
    asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(p) : "r"(r), "r"(x));
    unsigned f;
    asm("bfe.u32 %0, %1, 4, 8;" : "=r"(f) : "r"(p));
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    unsigned sel;
    asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(sel) : "r"(f));
    out[threadIdx.x] = r ^ p ^ f ^ lane_id() ^ smid ^ sel;
    unsigned long long lo = wide[2 * threadIdx.x], hi = wide[2 * threadIdx.x + 1];
    add_u128(lo, hi, 0xffffffffffffffffull, 1ull);
    wide[2 * threadIdx.x] = lo;
    wide[2 * threadIdx.x + 1] = hi;
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
    timing[threadIdx.x] = t1 - t0;
}
