// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 24: a kernel whose registers spill to local memory.
// Each thread normalises one 64-element vector to unit length: it must
// hold all 64 values while it computes their norm, then scale them.  That
// needs 64 registers or more; but __launch_bounds__(128, 16) promises 16
// resident blocks of 128 threads per SM, and 65536 registers / 2048
// threads leaves 32 registers a thread.  ptxas keeps the promise by
// SPILLING: it stores values it cannot keep to local memory (STL) and loads
// them back later (LDL).  Local memory is per-thread but lives in DRAM,
// cached in L1 and L2: every spill is memory traffic.
//
// What to look at:
// - register_spill.ptxas.txt beside this file (from `ptxas -v`): "32
//   registers" and non-zero "bytes spill stores" / "bytes spill loads".
//   The Occupancy view shows the 32 registers, and the resources line the
//   spills.
// - The PTX cannot show it: PTX has unlimited virtual registers (%f1 ...
//   %f64 and more); the spills appear only in the SASS (STL / LDL).
// - Remove the __launch_bounds__ and ptxas takes 80 registers and spills
//   nothing, but only 6 blocks fit an SM (37.5%) instead of 16 (100%).
//   Occupancy against spills is a trade-off to measure, not a rule.
// - The vectors are stored column by column (element k of vector v at
//   in[k * n_vectors + v]) so every load and store is coalesced.

#define LEN 64

__global__ void __launch_bounds__(128, 16)
normalize_vectors(const float *in, float *out, int n_vectors)
{
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n_vectors)
    return;

  float x[LEN];                 // fully unrolled below: meant to live in registers
#pragma unroll
  for (int k = 0; k < LEN; k++)
    x[k] = in[k * n_vectors + v];

  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < LEN; k++)
    sum += x[k] * x[k];
  float inv_norm = 1.0f / sqrtf(sum);

#pragma unroll
  for (int k = 0; k < LEN; k++)
    out[k * n_vectors + v] = x[k] * inv_norm;
}
