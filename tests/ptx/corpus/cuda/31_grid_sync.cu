// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: cooperative-groups grid-wide sync (this_grid().sync()) which requires relocatable device code (-rdc=true).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(float *data, float *partial, int n)
{
    cg::grid_group grid = cg::this_grid();
    float s = 0.f;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) s += data[i];
    if (threadIdx.x == 0) partial[blockIdx.x] = 0.f;
    grid.sync();
    atomicAdd(&partial[blockIdx.x], s);
    grid.sync();
    if (grid.thread_rank() == 0) {
        float total = 0.f;
        for (int b = 0; b < gridDim.x; ++b) total += partial[b];
        partial[0] = total;
    }
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] /= partial[0];
}
