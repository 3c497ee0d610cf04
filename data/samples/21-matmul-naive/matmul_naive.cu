// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 21: matrix multiply C = A x B, the naive way (n x n, row-major).
// One thread per element of C: thread (row, col) walks row `row` of A and
// column `col` of B, n multiply-adds.  Every element of A and B is loaded
// from global memory n times over (by the n threads that need it).
//
// What to look at:
// - The loop body: two global loads per fma.  The load of B[k * n + col] is
//   coalesced (neighbouring lanes, neighbouring columns); the load of
//   A[row * n + k] is the SAME address for the 16 lanes of a row (a warp
//   holds two rows of the 16 x 16 block): a broadcast, one sector each.
// - The caches: the Memory view counts how many of those loads hit L1 (the
//   data is reused, but from far away in time).
// - The arithmetic intensity: 2 flops per 8 bytes loaded.  Sample 22 keeps
//   16 x 16 tiles in shared memory and loads each element n / 16 times.

__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;

  if (row < n && col < n)
    {
      float sum = 0.0f;
      for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
      C[row * n + col] = sum;
    }
}
