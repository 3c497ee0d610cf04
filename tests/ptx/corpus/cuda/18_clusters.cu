// SPDX-License-Identifier: GPL-3.0-or-later
// Exercises: thread block clusters (__cluster_dims__, this_cluster, cluster.sync, map_shared_rank / DSMEM), guarded for sm_90+.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// __cluster_dims__ is rejected below sm_90, so only attach it there.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_2X1X1
#else
#define CLUSTER_2X1X1 __cluster_dims__(2, 1, 1)
#endif

__global__ void CLUSTER_2X1X1 cluster_exchange(int *out)
{
    __shared__ int smem[128];
    smem[threadIdx.x] = blockIdx.x * 1000 + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    cluster.sync();
    int *peer = cluster.map_shared_rank(smem, (rank + 1) % cluster.num_blocks());
    int v = peer[threadIdx.x];
    cluster.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + (int)cluster.dim_blocks().x;
#else
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = smem[threadIdx.x];
#endif
}

__global__ void cluster_histogram(const int *in, int *bins, int nbins, int n)
{
    extern __shared__ int sh[];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    for (int i = threadIdx.x; i < nbins; i += blockDim.x) sh[i] = 0;
    cluster.sync();
    int per = (nbins + cluster.num_blocks() - 1) / cluster.num_blocks();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = in[i] % nbins;
        int *dst = cluster.map_shared_rank(sh, b / per);
        atomicAdd(dst + b % per, 1);
    }
    cluster.sync();
    for (int i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&bins[cluster.block_rank() * per + i], sh[i]);
#else
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&bins[in[i] % nbins], 1);
#endif
}

// Third __launch_bounds__ argument (max blocks per cluster) -> .maxclusterrank on sm_90.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define LB_CLUSTER __launch_bounds__(256, 2)
#else
#define LB_CLUSTER __launch_bounds__(256, 2, 4)
#endif
__global__ void LB_CLUSTER cluster_bounded(float *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}
