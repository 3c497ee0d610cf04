// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: loops with break/continue, early return, nested divergent branches, while/do-while.
__global__ void find_first(const int *data, int n, int key, int *pos)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) return;
    if (*pos >= 0 && *pos < tid) return;
    for (int i = tid; i < n; i += gridDim.x * blockDim.x) {
        if (data[i] < 0) continue;
        if (data[i] == key) {
            atomicMin(pos, i);
            break;
        }
    }
}

__global__ void nested_divergence(const int *a, int *out)
{
    int t = threadIdx.x;
    int v = a[t];
    if (t & 1) {
        if (v > 10) {
            while (v > 10) v -= 3;
        } else if (v < -10) {
            do { v += 5; } while (v < 0);
        } else {
            for (int k = 0; k < (t & 7); ++k) {
                if (k == 3) continue;
                v *= 2;
                if (v > 1000) break;
            }
        }
    } else {
        if (t & 2)
            v = -v;
        else if (t & 4)
            return;
    }
    __syncwarp();
    out[t] = v;
}

__global__ void collatz(const unsigned *start, unsigned *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = start[i], s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        if (++s > 10000) goto out;
    }
out:
    steps[i] = s;
}
