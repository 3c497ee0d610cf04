// SPDX-License-Identifier: GPL-3.0-or-later
// cooperative groups' grid.sync(): each phase reads what other blocks wrote in the one before.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Three phases over n = gridDim.x * blockDim.x threads:
//   a[i] = i * i + 1
//   b[i] = a[(i + blockDim.x) % n] - a[i]        (the next block's element)
//   out[blockIdx.x] = sum of b over the block's elements, by the block's
//   first thread; then total[0] = sum of out over every block, by thread 0
//   of block 0, after a third grid.sync().
__global__ void grid_phases (unsigned *a, int *b, int *out, long long *total)
{
  cg::grid_group grid = cg::this_grid ();
  unsigned n = gridDim.x * blockDim.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

  a[i] = i * i + 1;
  grid.sync ();
  b[i] = (int) (a[(i + blockDim.x) % n] - a[i]);
  grid.sync ();
  if (threadIdx.x == 0)
    {
      int s = 0;
      for (unsigned k = 0; k < blockDim.x; k++)
        s += b[blockIdx.x * blockDim.x + k];
      out[blockIdx.x] = s;
    }
  grid.sync ();
  if (grid.thread_rank () == 0)
    {
      long long t = 0;
      for (unsigned k = 0; k < gridDim.x; k++)
        t += out[k];
      total[0] = t;
    }
}

// A grid.sync() that block 0 never reaches: every other block waits forever (a deadlock on the GPU).
__global__ void grid_sync_skipped (int *out)
{
  cg::grid_group grid = cg::this_grid ();

  if (blockIdx.x == 0)
    return;
  grid.sync ();
  out[blockIdx.x] = 1;
}
