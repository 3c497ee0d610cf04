// SPDX-License-Identifier: GPL-3.0-or-later
// wmma through the CUDA API at every shape and type nvcc lowers it to: D = A x B + C, one warp
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

template <typename T, typename CT, int M, int N, int K, typename LA, typename LB, bool DROW>
__device__ void run(const T *a, const T *b, const CT *c, CT *d)
{
  wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, CT> fc;
  // row-major A and B are read with a stride of K + 8 and N + 8, column-major with M + 8 and K + 8
  wmma::load_matrix_sync(fa, a, (int) (std::is_same<LA, wmma::row_major>::value ? K : M) + 8);
  wmma::load_matrix_sync(fb, b, (int) (std::is_same<LB, wmma::row_major>::value ? N : K) + 8);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, DROW ? N : M, DROW ? wmma::mem_row_major : wmma::mem_col_major);
}

using R = wmma::row_major;
using C = wmma::col_major;

__global__ void h_32x8(const half *a, const half *b, const half *c, half *d) { run<half, half, 32, 8, 16, R, C, true>(a, b, c, d); }
__global__ void h_8x32(const half *a, const half *b, const float *c, float *d) { run<half, float, 8, 32, 16, C, R, false>(a, b, c, d); }
__global__ void bf_32x8(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d) { run<__nv_bfloat16, float, 32, 8, 16, R, C, true>(a, b, c, d); }
__global__ void bf_8x32(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d) { run<__nv_bfloat16, float, 8, 32, 16, R, R, false>(a, b, c, d); }
__global__ void s8_16x16(const signed char *a, const signed char *b, const int *c, int *d) { run<signed char, int, 16, 16, 16, R, C, true>(a, b, c, d); }
__global__ void u8_32x8(const unsigned char *a, const unsigned char *b, const int *c, int *d) { run<unsigned char, int, 32, 8, 16, C, C, true>(a, b, c, d); }
__global__ void s8_8x32(const signed char *a, const signed char *b, const int *c, int *d) { run<signed char, int, 8, 32, 16, R, R, false>(a, b, c, d); }
__global__ void f64_8x8(const double *a, const double *b, const double *c, double *d) { run<double, double, 8, 8, 4, R, C, true>(a, b, c, d); }

// tf32: the fragments are loaded from f32 and rounded to tf32 element by element, as the API asks
__global__ void tf32_16x16(const float *a, const float *b, const float *c, float *d)
{
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  for (int i = 0; i < fa.num_elements; i++)
    fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; i++)
    fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
