// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 19: a histogram with atomics in global memory.
// Each thread walks the pixels of an 8-bit image with a grid-stride loop and
// adds one to the bin of each pixel value with atomicAdd.  Simple and
// correct, but every increment is a read-modify-write in L2, and the pixels
// of a dark, low-contrast image crowd into a few bins, so many lanes of a
// warp hit the same counter and their updates are serialised.
//
// What to look at:
// - atom.global.add.u32 in the PTX: one global atomic per pixel, 32768 in
//   all.
// - The Memory view of the atomic: the 32 lanes of a warp land on only a
//   handful of distinct addresses (the image has 32 grey levels).
// - Sample 20 builds a private histogram per block in shared memory first,
//   and sends at most 256 atomics per block (one per bin) to global memory.

#define BINS 256

__global__ void histogram_global(const unsigned char *pixels, int n, unsigned *hist)
{
  int stride = blockDim.x * gridDim.x;

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&hist[pixels[i]], 1u);
}
