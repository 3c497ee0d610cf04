// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 3: a grid-stride loop (scaled ReLU, out = max(in, 0) * scale).
// Instead of one thread per element, a fixed grid walks the whole array:
// each thread starts at its global index and steps by the number of threads
// in the grid (blockDim.x * gridDim.x).  The same kernel then works for any
// n, with a grid sized for the GPU (a few blocks per SM) rather than for the
// data, and every access of every pass is still coalesced.
//
// What to look at:
// - The loop: 8 blocks of 128 threads are 1024 threads for n = 10000, so
//   each thread makes 9 or 10 passes.  The heat gutter shows the loop body
//   run about ten times more often than the lines before it.
// - The last pass: only 10000 - 9 * 1024 = 784 threads still have work
//   (blocks 0 to 5, and half of the first warp of block 6, which diverges);
//   the other warps leave the loop after nine passes.
// - fmaxf becomes max.f32 in the PTX: no branch for the ReLU.

__global__ void scale_relu(int n, float scale, const float *in, float *out)
{
  int stride = blockDim.x * gridDim.x;

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fmaxf(in[i], 0.0f) * scale;
}
