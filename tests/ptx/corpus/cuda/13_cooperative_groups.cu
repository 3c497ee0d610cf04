// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: cooperative groups: thread_block, tiled_partition (static and dynamic), cg::reduce, coalesced_threads.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_reduce(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(warp, v, cg::plus<int>());
    int m = cg::reduce(warp, v, cg::greater<int>());
    if (warp.thread_rank() == 0) {
        atomicAdd(&out[0], s);
        atomicMax(&out[1], m);
    }
    block.sync();
}

__global__ void cg_tiles(const float *in, float *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    float v = in[block.thread_rank()];
    for (int off = t8.size() / 2; off > 0; off /= 2)
        v += t8.shfl_down(v, off);
    cg::thread_group dyn = cg::tiled_partition(block, 16);
    dyn.sync();
    if (v > 0.f) {
        cg::coalesced_group active = cg::coalesced_threads();
        v += (float)active.size();
        active.sync();
    }
    if (t8.any(v > 100.f)) v = 100.f;
    out[block.thread_rank()] = v + (float)t8.meta_group_rank();
}
