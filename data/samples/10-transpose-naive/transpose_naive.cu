// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 10: matrix transpose, the naive way.
// out (width x height) = transpose of in (height x width), both row-major.
// Each block handles a 32 x 32 tile with 32 x 8 threads, four rows per
// thread.  Reading a row of `in` is coalesced; but the same warp writes a
// COLUMN of `out`: 32 lanes, `height` floats apart, 32 different sectors.
//
// What to look at:
// - The Memory view: the load moves 4 sectors per request, the store 32,
//   eight times the bytes it writes.  The hints flag the store.
// - Sample 11 fixes it with a shared-memory tile, sample 12 removes the bank
//   conflicts that fix brings.
//
// The sizes must be multiples of TILE (the launch uses 1024 x 768).

#define TILE 32
#define ROWS 8      // threads per block in y: each thread copies TILE / ROWS elements

__global__ void transpose_naive(const float *in, float *out, int width, int height)
{
  int x = blockIdx.x * TILE + threadIdx.x;      // column of in
  int y = blockIdx.y * TILE + threadIdx.y;      // row of in

  for (int j = 0; j < TILE; j += ROWS)
    out[x * height + (y + j)] = in[(y + j) * width + x];
}
