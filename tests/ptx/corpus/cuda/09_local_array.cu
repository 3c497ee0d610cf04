// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: per-thread arrays indexed with runtime values, forcing .local memory (stack frame, st.local/ld.local).
__global__ void histogram_local(const unsigned char *data, int n, unsigned *bins, int stride)
{
    unsigned local_hist[64];
    for (int i = 0; i < 64; ++i) local_hist[i] = 0;
    for (int i = threadIdx.x; i < n; i += stride)
        local_hist[data[i] & 63]++;
    for (int i = 0; i < 64; ++i)
        if (local_hist[i]) atomicAdd(&bins[i], local_hist[i]);
}

__global__ void permute(const float *in, float *out, const int *perm, int k)
{
    float buf[32];
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
    for (int i = 0; i < 32; ++i) buf[i] = in[base + i];
    for (int i = 0; i < 32; ++i) out[base + i] = buf[(perm[i] + k) & 31];
}
