// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 25: occupancy limited by shared memory.
// Each block reverses a chunk of 12288 floats: it loads the chunk into
// shared memory, waits, and writes it back in reverse order (thread k writes
// what another thread loaded, hence the shared buffer and the barrier).
// The chunk is 48 KiB, the most a block can declare statically.  An A100
// SM has 164 KiB of shared memory for its blocks, and each block needs
// 48 KiB + 1 KiB reserved by the system: only 3 blocks fit, 24 warps of the
// 64 the SM could hold.  Registers (32 a thread) and warps (8 a block)
// would allow 8 blocks; shared memory is the limiter.
//
// What to look at:
// - The Occupancy view: 3 blocks per SM, 37.5% occupancy, "limited by shared
//   memory"; the shared-memory curve shows what a smaller chunk would give
//   (CHUNK 6144: 25 KiB a block with the reserve, 6 blocks, 75%).
// - The loops: 48 coalesced loads and 48 stores per thread, conflict-free
//   shared accesses (consecutive words, in reverse order for the reads).
// - Whether the low occupancy hurts depends on the kernel: this one is a
//   copy, memory-bound, and fewer warps means less memory in flight.

#define CHUNK 12288             // floats: 48 KiB of shared memory a block
#define BLOCK 256

__global__ void reverse_chunks(const float *in, float *out)
{
  __shared__ float chunk[CHUNK];
  const float *src = in + blockIdx.x * CHUNK;
  float *dst = out + blockIdx.x * CHUNK;

  for (int k = threadIdx.x; k < CHUNK; k += BLOCK)
    chunk[k] = src[k];
  __syncthreads();

  for (int k = threadIdx.x; k < CHUNK; k += BLOCK)
    dst[k] = chunk[CHUNK - 1 - k];
}
