// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 18: exclusive prefix sum (scan), Blelloch's work-efficient algorithm.
// out[k] = in[0] + ... + in[k - 1] within each block's segment of 512
// values (256 threads, two values each), as in GPU Gems 3, chapter 39.
// Up-sweep: a reduction tree built in place, partial sums climbing to the
// last element.  Then the total is saved and replaced by 0, and the
// down-sweep walks the tree back, each node passing its left child's sum to
// the right.  2n additions in all, against n log n for the naive scan.
// block_sums[b] gets segment b's total: scanning those and adding them back
// is how segments become a scan of the whole array.
//
// What to look at:
// - The two loops' `if (t < d)`: the number of working threads halves at
//   each up-sweep step and doubles on the way down; from d < 32 on, warp 0
//   diverges.  The Lanes view shows the two triangles.
// - The bank diagram: neighbouring lanes' ai (and bi) are 2 * offset words
//   apart, so the conflicts grow with offset (2-way, 4-way, ... 16-way).
//   GPU Gems 3 pads the indices (CONFLICT_FREE_OFFSET) to avoid them: a good
//   exercise.
// - A __syncthreads() before every step of both sweeps.

#define BLOCK 256                // threads; each block scans 2 * BLOCK values

__global__ void scan_blelloch(const int *in, int *out, int *block_sums)
{
  __shared__ int temp[2 * BLOCK];
  int t = threadIdx.x;
  int base = blockIdx.x * 2 * BLOCK;

  temp[2 * t] = in[base + 2 * t];
  temp[2 * t + 1] = in[base + 2 * t + 1];

  // Up-sweep (reduce)
  int offset = 1;
  for (int d = BLOCK; d > 0; d /= 2)
    {
      __syncthreads();
      if (t < d)
        {
          int ai = offset * (2 * t + 1) - 1;
          int bi = offset * (2 * t + 2) - 1;
          temp[bi] += temp[ai];
        }
      offset *= 2;
    }

  // The root holds the segment's total; an exclusive scan starts from 0.
  if (t == 0)
    {
      block_sums[blockIdx.x] = temp[2 * BLOCK - 1];
      temp[2 * BLOCK - 1] = 0;
    }

  // Down-sweep
  for (int d = 1; d < 2 * BLOCK; d *= 2)
    {
      offset /= 2;
      __syncthreads();
      if (t < d)
        {
          int ai = offset * (2 * t + 1) - 1;
          int bi = offset * (2 * t + 2) - 1;
          int left = temp[ai];
          temp[ai] = temp[bi];
          temp[bi] += left;
        }
    }
  __syncthreads();

  out[base + 2 * t] = temp[2 * t];
  out[base + 2 * t + 1] = temp[2 * t + 1];
}
