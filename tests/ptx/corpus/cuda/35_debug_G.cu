// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: full device debug info (-G): .target ..., debug, DWARF .section blocks, .loc inlined_at, __noinline__ and inlined calls.
struct Pair { int a; float b; };

__device__ __noinline__ Pair make_pair(int a, float b) { return Pair{a * 2, b + 1.0f}; }
__device__ __forceinline__ int square(int x) { return x * x; }

__global__ void debug_kernel(const int *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int local[4];
    for (int k = 0; k < 4; ++k) local[k] = in[(i + k) % n];
    Pair p = make_pair(square(local[i & 3]), (float)i);
    out[i] = p.a + p.b;
}
