// SPDX-License-Identifier: GPL-3.0-or-later
// A two-pass sum reduction, two kernels over the same buffers (a launch
// spec's "launches"), and a struct passed by value.
struct Span
{
  unsigned first;
  unsigned n;
  const float *in;
};

// Pass 1: each block sums its part of in into partial[blockIdx.x].
__global__ void partial_sums (const float *in, float *partial, unsigned n)
{
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;

  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads ();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1)
    {
      if (t < k)
        s[t] += s[t + k];
      __syncthreads ();
    }
  if (t == 0)
    partial[blockIdx.x] = s[0];
}

// Pass 2: one block sums span.n partial sums from span.first.
__global__ void final_sum (Span span, float *out)
{
  extern __shared__ float s[];
  unsigned t = threadIdx.x;
  float acc = 0.0f;

  for (unsigned i = t; i < span.n; i += blockDim.x)
    acc += span.in[span.first + i];
  s[t] = acc;
  __syncthreads ();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1)
    {
      if (t < k)
        s[t] += s[t + k];
      __syncthreads ();
    }
  if (t == 0)
    *out = s[0];
}
