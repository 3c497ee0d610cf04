// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: __constant__ arrays with initializers, __device__ globals with initializers incl. pointers to other globals.
struct Params { int n; float scale; const float *table; };

__constant__ float c_coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, -0.5f, 3.14159f, 2.71828f};
__constant__ int c_lut[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
__constant__ double c_dbl = 1.0e-12;
__constant__ unsigned char c_bytes[5] = {0xde, 0xad, 0xbe, 0xef, 0x00};

__device__ float g_table[4] = {10.f, 20.f, 30.f, 40.f};
__device__ int g_counter = 7;
__device__ int *g_counter_ptr = &g_counter;
__device__ float *g_table_elem = &g_table[2];
__device__ Params g_params = {4, 2.0f, g_table};
__device__ const char *g_names[] = {"alpha", "beta", "gamma"};
__device__ long long g_big = -1234567890123ll;
__device__ unsigned short g_shorts[3] = {1, 0xffff, 300};

__global__ void use_constants(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = 0.f;
    for (int k = 0; k < 8; ++k) v = v * in[i] + c_coeffs[k];
    out[i] = v + (float)c_lut[i & 1][i & 3] + (float)c_dbl + (float)c_bytes[i % 5];
}

__global__ void use_globals(float *out)
{
    int i = threadIdx.x;
    float s = g_params.scale * g_params.table[i % g_params.n] + *g_table_elem;
    atomicAdd(g_counter_ptr, 1);
    out[i] = s + (float)g_names[i % 3][0] + (float)g_big + (float)g_shorts[i % 3];
}
