// cooperative groups' multi-warp tiles (64 and 128 threads): on sm_80 and later they keep their barriers and their exchange slots in the shared memory reserved for system software (%reserved_smem_offset_1).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// Each 64-thread tile sums its inputs and each 128-thread tile takes their maximum, with cg::reduce; the first thread of each tile writes its tile's result.
__global__ void tiles(const int *in, int *sums, int *maxes)
{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
  cg::thread_block_tile<128> t128 = cg::tiled_partition<128>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = cg::reduce(t64, v, cg::plus<int>());
  int m = cg::reduce(t128, v, cg::greater<int>());
  t64.sync();
  if (t64.thread_rank() == 0)
    sums[blockIdx.x * (blockDim.x / 64) + t64.meta_group_rank()] = s;
  if (t128.thread_rank() == 0)
    maxes[blockIdx.x * (blockDim.x / 128) + t128.meta_group_rank()] = m;
}
