// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 11: matrix transpose through a shared-memory tile.
// out (width x height) = transpose of in (height x width), both row-major.
// A block reads a 32 x 32 tile of `in` row by row (coalesced) into shared
// memory, waits at a barrier, and writes it out row by row to the
// transposed place (coalesced too): the transpose itself happens in shared
// memory, where reading a column is cheap... almost.
//
// What to look at:
// - The Memory view: both the global load and the global store now move
//   4 sectors per request (sample 10's store moved 32).
// - The bank diagram of the read `tile[threadIdx.x][threadIdx.y + j]`: the
//   32 lanes read a column of the tile, 32 floats 32 words apart, all in the
//   SAME bank: a 32-way bank conflict, 32 wavefronts instead of 1.  Sample
//   12 pads the tile by one column to spread them over the banks.
// - The __syncthreads() between the two loops: without it a warp could read
//   a tile element another warp has not written yet (the race checker would
//   report it).
//
// The sizes must be multiples of TILE (the launch uses 1024 x 768).

#define TILE 32
#define ROWS 8

__global__ void transpose_tiled(const float *in, float *out, int width, int height)
{
  __shared__ float tile[TILE][TILE];

  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

  __syncthreads();

  // The transposed tile: block (bx, by) of in becomes block (by, bx) of out.
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
