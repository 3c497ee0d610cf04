// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: shfl.sync up/down/xor/idx, vote all/any/ballot, __activemask, match.any/all, redux.sync (sm_80).
__global__ void shuffles(const int *in, int *out, float *fout)
{
    int v = in[threadIdx.x];
    float f = (float)v;
    int a = __shfl_up_sync(0xffffffffu, v, 1);
    int b = __shfl_down_sync(0xffffffffu, v, 2);
    int c = __shfl_xor_sync(0xffffffffu, v, 4);
    int d = __shfl_sync(0xffffffffu, v, 0);
    int e = __shfl_sync(0x0000ffffu, v, threadIdx.x & 7, 16);
    float g = __shfl_down_sync(0xffffffffu, f, 1);
    double h = __shfl_xor_sync(0xffffffffu, (double)f, 8);
    long long l = __shfl_up_sync(0xffffffffu, (long long)v << 20, 3);
    out[threadIdx.x] = a + b + c + d + e + (int)l;
    fout[threadIdx.x] = g + (float)h;
}

__global__ void votes(const int *in, unsigned *out)
{
    int v = in[threadIdx.x];
    unsigned act = __activemask();
    int all = __all_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 10);
    unsigned bal = __ballot_sync(0xffffffffu, v & 1);
    unsigned cnt = __popc(bal);
    if (v > 5) {
        unsigned inner = __activemask();
        out[32 + threadIdx.x] = inner;
    }
    out[threadIdx.x] = act ^ (unsigned)all ^ ((unsigned)any << 1) ^ bal ^ cnt;
}

__global__ void matches(const int *in, const long long *in64, unsigned *out)
{
    int v = in[threadIdx.x];
    int pred = 0;
    unsigned any = __match_any_sync(0xffffffffu, v);
    unsigned all = __match_all_sync(0xffffffffu, v, &pred);
    unsigned any64 = __match_any_sync(0xffffffffu, in64[threadIdx.x]);
    out[threadIdx.x] = any + all + (unsigned)pred + any64;
}

__global__ void warp_reduce_ops(const unsigned *in, unsigned *out)
{
#if __CUDA_ARCH__ >= 800
    unsigned v = in[threadIdx.x];
    int s = (int)v - 100;
    out[0 * 32 + threadIdx.x] = __reduce_add_sync(0xffffffffu, v);
    out[1 * 32 + threadIdx.x] = __reduce_min_sync(0xffffffffu, v);
    out[2 * 32 + threadIdx.x] = __reduce_max_sync(0xffffffffu, v);
    out[3 * 32 + threadIdx.x] = (unsigned)__reduce_min_sync(0xffffffffu, s);
    out[4 * 32 + threadIdx.x] = (unsigned)__reduce_max_sync(0xffffffffu, s);
    out[5 * 32 + threadIdx.x] = __reduce_and_sync(0xffffffffu, v);
    out[6 * 32 + threadIdx.x] = __reduce_or_sync(0xffffffffu, v);
    out[7 * 32 + threadIdx.x] = __reduce_xor_sync(0xffffffffu, v);
#else
    out[threadIdx.x] = in[threadIdx.x];
#endif
}
