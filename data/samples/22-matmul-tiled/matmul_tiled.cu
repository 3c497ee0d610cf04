// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 22: matrix multiply C = A x B with 16 x 16 shared-memory tiles.
// Each block loads one tile of A and one of B into shared memory, waits at a
// barrier, multiplies them, and moves along the shared dimension.  The
// barrier after the multiply keeps a fast warp from overwriting a tile that
// a slow warp is still reading.
//
// What to look at:
// - Global loads: each element of A and B is now loaded n / 16 times instead
//   of n times (sample 21), two coalesced loads per tile step per thread.
// - The inner loop reads shared memory only, unrolled 16 times: As[ty][k] is
//   one word for the 16 lanes of a row (a broadcast), Bs[k][tx] 16
//   consecutive words: no bank conflicts.
// - The two __syncthreads() per tile step: the barrier count in the run's
//   statistics is 2 x (n / 16) per block.
// - The Occupancy view: 2 KiB of shared memory a block is far from a limit.

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];

  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;

  for (int t = 0; t < n; t += TILE)
    {
      As[threadIdx.y][threadIdx.x] = (row < n && t + threadIdx.x < n) ? A[row * n + t + threadIdx.x] : 0.0f;
      Bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < n) ? B[(t + threadIdx.y) * n + col] : 0.0f;
      __syncthreads();
      for (int k = 0; k < TILE; k++)
        sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
      __syncthreads();
    }
  if (row < n && col < n)
    C[row * n + col] = sum;
}
