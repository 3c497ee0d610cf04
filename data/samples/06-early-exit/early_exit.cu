// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 6: a loop with an early exit (linear search).
// Each thread searches one row of a table for the first entry equal to
// `key` and stops as soon as it finds it (`break`), or reports -1.  On a
// CPU the break saves work; on a GPU a warp stays in the loop until its
// LAST lane is done, so the lanes that found their key early sit idle.
//
// What to look at:
// - The Lanes view and the heat gutter of the loop: the active lanes of each
//   warp drop as lanes find their key; the warp's trip count is that of its
//   slowest lane (often all 64 columns, since a row without the key is
//   searched to the end).
// - The branch of `break`: divergent in most warps; the lanes that leave wait
//   at the loop's exit (the reconvergence point) for the others.
// - The table is stored column by column (entry j of row r at
//   table[j * n_rows + r]), so at each step the 32 lanes of a warp read 32
//   neighbouring words: coalesced, even though each thread walks its own row.

__global__ void find_first(const int *table, int n_rows, int row_len, int key, int *pos)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n_rows)
    return;

  int found = -1;
  for (int j = 0; j < row_len; j++)
    if (table[j * n_rows + row] == key)
      {
        found = j;
        break;
      }
  pos[row] = found;
}
