// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __device__ function-pointer tables and indirect calls (call with .callprototype).
typedef float (*unary_fn)(float);
typedef int (*binop_fn)(int, int);

__device__ float op_square(float x) { return x * x; }
__device__ float op_neg(float x) { return -x; }
__device__ float op_half(float x) { return x * 0.5f; }
__device__ float op_exp(float x) { return expf(x); }

__device__ int bop_add(int a, int b) { return a + b; }
__device__ int bop_mul(int a, int b) { return a * b; }
__device__ int bop_min(int a, int b) { return a < b ? a : b; }

__device__ unary_fn unary_table[4] = {op_square, op_neg, op_half, op_exp};
__device__ binop_fn binop_table[] = {bop_add, bop_mul, bop_min};

__global__ void apply_unary(const int *sel, float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = unary_table[sel[i] & 3](data[i]);
}

__global__ void fold(const int *in, int n, int which, int *out)
{
    binop_fn f = binop_table[which % 3];
    int acc = in[0];
    for (int i = 1; i < n; ++i) acc = f(acc, in[i]);
    *out = acc;
}
