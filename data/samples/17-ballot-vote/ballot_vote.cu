// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 17: warp votes (ballot, any, all) and a warp-level stream compaction.
// Each lane asks "is my value positive?".  __ballot_sync collects the 32
// answers into one 32-bit mask, bit k for lane k, in every lane at once;
// __any_sync and __all_sync reduce them to one flag.  With the mask, each
// lane that keeps its value can work out WHERE to write it without any
// memory traffic: its slot is the number of keeping lanes below it,
// __popc(mask & ((1u << lane) - 1)).  That is stream compaction within a
// warp, the building block of filtering, partitioning and radix sort.
//
// What to look at:
// - vote.sync.ballot.b32, vote.sync.any.pred, vote.sync.all.pred and popc in
//   the PTX: no shared memory, no barrier.
// - The input is arranged so the warps differ: warp 0 is all positive
//   (all = any = 1), warp 1 all negative (any = 0), the others mixed.
// - `packed`: each warp's kept values, in order, at the start of its 32
//   slots; the rest stays 0.  `counts` says how many there are.
// - The store under `if (keep)` diverges; the votes never do (every lane
//   takes part, as the _sync mask says).

#define FULL_MASK 0xffffffffu

__global__ void ballot_vote(const int *in, int *packed, unsigned *ballots, int *counts,
                            int *any_all)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;        // the launch has whole warps
  int lane = threadIdx.x % 32;
  int warp = i / 32;
  int x = in[i];
  bool keep = x > 0;

  unsigned mask = __ballot_sync(FULL_MASK, keep);
  int any = __any_sync(FULL_MASK, keep);
  int all = __all_sync(FULL_MASK, keep);

  if (keep)
    {
      int slot = __popc(mask & ((1u << lane) - 1));      // keeping lanes below this one
      packed[warp * 32 + slot] = x;
    }
  if (lane == 0)
    {
      ballots[warp] = mask;
      counts[warp] = __popc(mask);
      any_all[warp] = (any ? 1 : 0) | (all ? 2 : 0);
    }
}
