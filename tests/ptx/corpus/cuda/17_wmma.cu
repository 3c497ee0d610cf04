// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: warp matrix multiply-accumulate (wmma) 16x16x16 half -> float load/mma/store.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void wmma_gemm(const half *a, const half *b, float *c, int M, int N, int K)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        int ar = warpM * 16, bc = warpN * 16;
        if (ar < M && bc < N) {
            wmma::load_matrix_sync(fa, a + ar * K + k, K);
            wmma::load_matrix_sync(fb, b + bc * K + k, K);
            wmma::mma_sync(acc, fa, fb, acc);
        }
    }
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= 0.5f;
    if (warpM * 16 < M && warpN * 16 < N)
        wmma::store_matrix_sync(c + warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
}
