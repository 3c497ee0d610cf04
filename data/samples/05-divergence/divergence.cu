// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 5: branch divergence, on lane parity against a warp-uniform branch.
// The kernel makes the same choice twice between the same two pieces of
// work.  The first `if` asks "is my thread index even?": in every warp, 16
// lanes go one way and 16 the other, so the warp runs BOTH paths one after
// the other, each with half its lanes idle.  The second `if` asks "is my
// WARP index even?": all 32 lanes of a warp agree, so each warp runs only
// one path at full width.  Both branches compute exactly the same results.
//
// What to look at:
// - The heat gutter and the Lanes view: the first branch is marked divergent
//   and its paths run with 16 active lanes; the second is never divergent.
// - The per-line counts: in the first branch both work lines run in every
//   warp; in the second, each runs in half of the warps.
// - The warp timeline: the divergent part takes twice the issue slots for
//   the same work.
// - What the work is does not matter (two integer hash functions, in loops
//   the compiler keeps as loops); what matters is which threads do it.

#define ROUNDS 16

// Two different pieces of work: a linear congruential step...
__device__ unsigned work_a(unsigned x)
{
#pragma unroll 1
  for (int k = 0; k < ROUNDS; k++)
    x = x * 1664525u + 1013904223u;
  return x;
}

// ...and a xorshift step.
__device__ unsigned work_b(unsigned x)
{
#pragma unroll 1
  for (int k = 0; k < ROUNDS; k++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
    }
  return x;
}

__global__ void divergence(const unsigned *in, unsigned *by_lane, unsigned *by_warp, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = in[i];

  // Divergent: neighbouring lanes disagree, every warp splits in two.
  if (threadIdx.x % 2 == 0)
    by_lane[i] = work_a(x);
  else
    by_lane[i] = work_b(x);

  // Warp-uniform: the condition is the same for the 32 lanes of a warp
  // (threadIdx.x / 32 is the warp's index in the block), so no warp splits.
  if ((threadIdx.x / 32) % 2 == 0)
    by_warp[i] = work_a(x);
  else
    by_warp[i] = work_b(x);
}
