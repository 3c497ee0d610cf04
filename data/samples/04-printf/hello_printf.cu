// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 4: printf from the GPU.
// Every thread prints who it is and the value it read; thread 0 of each
// block prints a line about its block.  printf in a kernel is the first
// debugging tool everyone reaches for, and it also shows how threads are
// grouped: a warp executes the printf once, for all its active lanes.
//
// What to look at:
// - The Output page: the lines of one block come out in lane order, all of
//   the first printf before the second (a warp runs each instruction for
//   all its lanes at once).  The order of the BLOCKS is up to the GPU: on
//   real hardware it changes from run to run, so never rely on it.
// - The PTX: each printf becomes a call to vprintf with the format string in
//   global memory and the arguments packed into a local buffer (st.local);
//   the float is widened to double (cvt.f64.f32), as C's varargs require.
// - The `if (threadIdx.x == 0)` branch: only lane 0 of each warp is active
//   for the second printf.

#include <cstdio>

__global__ void hello(const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  printf("block %d, thread %d (global %d): x = %.3f\n", blockIdx.x, threadIdx.x, i, x[i]);
  if (threadIdx.x == 0)
    printf("block %d has %d threads\n", blockIdx.x, blockDim.x);
}
