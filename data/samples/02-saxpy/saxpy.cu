// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 2: SAXPY, y = a * x + y ("single-precision a times x plus y").
// The BLAS level-1 routine that every GPU course meets second: the same
// one-thread-per-element shape as vector addition, with a scalar parameter
// and a buffer that is both read and written.
//
// What to look at:
// - The PTX of the assignment to y[i]: the multiply and the add become ONE
//   instruction, fma.rn.f32 (fused multiply-add, rounded once).  nvcc
//   contracts a * x + y by default; -fmad=false keeps mul and add apart.
// - `a` is passed by value: ld.param.f32 reads it from the parameter bank,
//   the same for every thread.
// - 5000 elements in blocks of 256 is 19.53 blocks: the launch rounds up to
//   20, and the last block's warps diverge at the `if` (lanes past n idle).

__global__ void saxpy(int n, float a, const float *x, float *y)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
