// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 1: vector addition, one thread per element.
// The first kernel of the course: each thread computes its global index from
// blockIdx, blockDim and threadIdx, checks it against n, and adds one pair.

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
