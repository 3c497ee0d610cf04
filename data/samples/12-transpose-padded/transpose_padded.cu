// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 12: matrix transpose through a PADDED shared-memory tile.
// The same kernel as sample 11 with one change: the tile is 32 x 33 floats.
// Shared memory has 32 banks of 4 bytes; word w lives in bank w % 32.  In a
// 32 x 32 tile a column's elements are 32 words apart, all in one bank.
// With rows of 33 words they are 33 apart, and 33 * k % 32 = k: the 32
// lanes hit 32 different banks.  One unused column (4 KiB -> 4.125 KiB)
// buys a conflict-free read.
//
// What to look at:
// - The bank diagram of `tile[threadIdx.x][threadIdx.y + j]`: 1 wavefront per
//   request where sample 11 needed 32; the writes stay conflict-free.
// - The global loads and stores are the same as sample 11's: 4 sectors each.
//
// The sizes must be multiples of TILE (the launch uses 1024 x 768).

#define TILE 32
#define ROWS 8

__global__ void transpose_padded(const float *in, float *out, int width, int height)
{
  __shared__ float tile[TILE][TILE + 1];        // + 1: the padding column

  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

  __syncthreads();

  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
