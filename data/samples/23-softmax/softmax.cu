// SPDX-License-Identifier: GPL-3.0-or-later
// Sample 23: row softmax, one warp per row.
// out[r][c] = exp(in[r][c] - m) / sum over c' of exp(in[r][c'] - m), where m
// is the row's maximum: subtracting it changes nothing mathematically but
// keeps expf from overflowing on large logits.  The softmax of attention
// layers and classifiers.  A warp owns a row; each lane handles every 32nd
// column, and the two row-wide reductions (the max, then the sum) are
// butterflies of __shfl_xor_sync, after which EVERY lane holds the result.
//
// What to look at:
// - Three passes over the row: max, exp-and-sum, divide.  The loads of each
//   pass are coalesced (lane c reads column c, c + 32, ...).
// - shfl.sync.bfly.b32 in the PTX: 5 steps for the max, 5 for the sum.
// - expf: nvcc expands it into a few fma instructions around ex2.approx.ftz
//   (the hardware's 2^x), accurate to about 2 ulp; the per-row sum adds in
//   a different order than a CPU loop would, so the results match a CPU
//   reference to a relative 1e-5 but not bit for bit.
// - The row loop bound `cols` is a parameter: change the launch's cols and
//   rows (cols a multiple of 32) to see the cost scale.

#define FULL_MASK 0xffffffffu

__global__ void softmax_rows(const float *in, float *out, int rows, int cols)
{
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;                     // whole warps: every lane of a warp has the same row
  const float *x = in + row * cols;
  float *y = out + row * cols;

  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[c]);
  for (int offset = 16; offset > 0; offset /= 2)
    m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, offset));

  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32)
    {
      float e = expf(x[c] - m);
      y[c] = e;
      sum += e;
    }
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(FULL_MASK, sum, offset);

  for (int c = lane; c < cols; c += 32)
    y[c] = y[c] / sum;
}
