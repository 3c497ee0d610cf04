// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 13: a 1-D stencil with a halo in shared memory.
// out[i] is the sum of the 7 inputs around it (radius 3): a moving sum, the
// shape of every blur, finite difference and convolution.  Each input is
// needed by 7 threads, so a block loads its 128 inputs once into shared
// memory, plus RADIUS "halo" elements on each side that belong to its
// neighbours, and every thread then reads its 7 values from there.
//
// What to look at:
// - The halo load under `if (threadIdx.x < RADIUS)`: only 3 lanes of the
//   first warp are active (divergent, but short).
// - The __syncthreads(): the halo written by warp 0 is read by warp 3.
// - The loop over the stencil: 7 shared loads per thread, all conflict-free
//   (neighbouring lanes, neighbouring words), against 7 global loads per
//   thread without the tile.
//
// The grid covers out exactly (n = gridDim.x * BLOCK outputs), and `in`
// holds n + 2 * RADIUS elements: out[i] is centred on in[i + RADIUS].

#define RADIUS 3
#define BLOCK 128

__global__ void stencil_1d(const float *in, float *out)
{
  __shared__ float temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;        // this thread's output
  int l = threadIdx.x + RADIUS;                         // its centre in temp

  temp[l] = in[g + RADIUS];
  if (threadIdx.x < RADIUS)
    {
      temp[l - RADIUS] = in[g];                         // left halo
      temp[l + BLOCK] = in[g + RADIUS + BLOCK];         // right halo
    }
  __syncthreads();

  float sum = 0.0f;
  for (int offset = -RADIUS; offset <= RADIUS; offset++)
    sum += temp[l + offset];
  out[g] = sum;
}
