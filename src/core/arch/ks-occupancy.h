/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-occupancy.h: how many blocks of a kernel fit on one SM, by the rules of
 * NVIDIA's CUDA Occupancy Calculator and cuda_occupancy.h (the header the
 * runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor agrees with).
 *
 *   warps per block      = ceil (block size / warp size)
 *   registers per warp   = ceil (registers per thread * warp size / unit) * unit
 *   by warps             = max warps per SM / warps per block
 *   by registers         = (registers per SM / sub-partitions / registers per warp)
 *                          * sub-partitions / warps per block
 *                          (registers are allocated per sub-partition; the
 *                          calculator's "floor to the warp allocation
 *                          granularity" of 4 is the same rule)
 *   shared per block     = ceil ((static + dynamic + reserved) / unit) * unit
 *                          (reserved: 1 KiB from sm_80)
 *   per-block limit      = shared per block <= shared_per_block_bytes + reserved,
 *                          or shared_per_block_optin_bytes + reserved once the
 *                          kernel has set cudaFuncAttributeMaxDynamicSharedMemorySize
 *                          (cuda_occupancy.h's cudaOccSMemPerBlock: the
 *                          reservation is added to the limit and counted in the
 *                          allocation, so the user's bytes get the whole 48 KiB)
 *   by shared memory     = carveout / shared per block, where the carveout is
 *                          the whole shared memory of the SM by default (the
 *                          driver picks a configuration that does not limit
 *                          occupancy) or the requested percentage of it
 *                          rounded up to the next carveout step, but never
 *                          less than the smallest step that holds one block
 *   by blocks            = max blocks per SM
 *   by barriers          = barriers per SM / named barriers per block
 *
 * The result is the smallest of these.  A launch that cannot run at all
 * (too many threads, registers per thread or per block, or shared memory per
 * block) is an error that names the limit; cuda_occupancy.h counts such a
 * launch as 0 blocks.  One that runs only with the opt-in attribute, when the
 * input does not set it, is the error KS_OCCUPANCY_ERROR_SHARED_OPT_IN, and
 * then the result holds what the launch gives with the opt-in.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-gpu-db.h"

G_BEGIN_DECLS

#define KS_OCCUPANCY_ERROR (ks_occupancy_error_quark ())

typedef enum
{
  KS_OCCUPANCY_ERROR_BLOCK_SIZE,          /* 0, or above max_threads_per_block */
  KS_OCCUPANCY_ERROR_REGISTERS,           /* above max_registers_per_thread */
  KS_OCCUPANCY_ERROR_REGISTERS_PER_BLOCK, /* the block's registers do not fit max_registers_per_block */
  KS_OCCUPANCY_ERROR_SHARED_MEMORY,       /* static above 48 KiB, or the total above the opt-in limit */
  KS_OCCUPANCY_ERROR_BARRIERS,            /* above barriers_per_block */
  KS_OCCUPANCY_ERROR_CARVEOUT,            /* not -1 or 0..100 */
  KS_OCCUPANCY_ERROR_SHARED_OPT_IN,       /* above shared_per_block_bytes without shared_opt_in_set */
} KsOccupancyError;

typedef enum
{
  KS_OCCUPANCY_LIMIT_WARPS = 1 << 0,
  KS_OCCUPANCY_LIMIT_REGISTERS = 1 << 1,
  KS_OCCUPANCY_LIMIT_SHARED_MEMORY = 1 << 2,
  KS_OCCUPANCY_LIMIT_BLOCKS = 1 << 3,
  KS_OCCUPANCY_LIMIT_BARRIERS = 1 << 4,
} KsOccupancyLimiter;

#define KS_OCCUPANCY_CARVEOUT_DEFAULT (-1)
#define KS_OCCUPANCY_UNLIMITED G_MAXUINT32

typedef struct
{
  uint32_t block_size;                /* threads per block */
  uint32_t registers_per_thread;
  uint32_t static_shared_bytes;
  uint32_t dynamic_shared_bytes;
  int32_t carveout_percent;           /* KS_OCCUPANCY_CARVEOUT_DEFAULT or 0..100 */
  uint32_t barriers;                  /* named barriers per block (ptxas "Used N barriers"); 0: none */
  /* The kernel has called cudaFuncSetAttribute (kernel,
   * cudaFuncAttributeMaxDynamicSharedMemorySize, N) with N >= dynamic_shared_bytes,
   * which a block of more than shared_per_block_bytes needs to launch at all */
  gboolean shared_opt_in_set;
} KsOccupancyInput;

typedef struct
{
  uint32_t warps_per_block;
  uint32_t registers_per_warp;        /* allocated */
  uint32_t registers_per_block;       /* allocated */
  uint32_t shared_bytes_per_block;    /* static + dynamic as asked */
  uint32_t shared_allocated_per_block;/* rounded, with the reservation */
  gboolean shared_opt_in;             /* needs cudaFuncAttributeMaxDynamicSharedMemorySize: the
                                       * figures below are those with it */

  /* blocks per SM allowed by each resource; KS_OCCUPANCY_UNLIMITED when it does not limit */
  uint32_t blocks_by_warps;
  uint32_t blocks_by_registers;
  uint32_t blocks_by_shared_memory;
  uint32_t blocks_by_blocks;
  uint32_t blocks_by_barriers;

  uint32_t active_blocks_per_sm;
  uint32_t active_warps_per_sm;
  uint32_t max_warps_per_sm;
  double occupancy;                   /* active / max warps, 0..1 */
  KsOccupancyLimiter limiter;         /* the first of warps, registers, shared, blocks, barriers at the minimum */
  KsOccupancyLimiter limiters;        /* every resource at the minimum */

  uint32_t shared_pool_bytes;         /* the shared memory the SM's blocks are counted against */
  uint32_t carveout_kib;              /* the smallest step that holds the active blocks */
} KsOccupancyResult;

typedef struct
{
  uint32_t x;                         /* block size, registers per thread or shared bytes per block */
  uint32_t active_blocks_per_sm;      /* 0 where the configuration cannot launch */
  uint32_t active_warps_per_sm;
  double occupancy;
} KsOccupancyPoint;

typedef struct
{
  KsOccupancyPoint *block_size;       /* warp_size .. max_threads_per_block, step warp_size */
  uint32_t n_block_size;
  KsOccupancyPoint *registers;        /* 1 .. max_registers_per_thread */
  uint32_t n_registers;
  KsOccupancyPoint *shared_memory;    /* 0 .. opt-in max per block, step allocation unit; static + dynamic */
  uint32_t n_shared_memory;
} KsOccupancyCurves;

GQuark              ks_occupancy_error_quark   (void);

void                ks_occupancy_input_init    (KsOccupancyInput        *input);
/* FALSE with @error set when the configuration cannot launch.  For
 * KS_OCCUPANCY_ERROR_SHARED_OPT_IN @result is filled with the occupancy the
 * launch has with the opt-in (its shared_opt_in TRUE); for the other errors
 * it is left as it was. */
gboolean            ks_occupancy_compute       (const KsArchInfo        *arch,
                                                const KsOccupancyInput  *input,
                                                KsOccupancyResult       *result,
                                                GError                 **error);
KsOccupancyCurves  *ks_occupancy_curves_new    (const KsArchInfo        *arch,
                                                const KsOccupancyInput  *input);
void                ks_occupancy_curves_free   (KsOccupancyCurves       *curves);
/* The limiter's stable identifier, for JSON: "shared_memory" */
const char         *ks_occupancy_limiter_name  (KsOccupancyLimiter       limiter);
/* The limiter in plain words, translated, for what a user reads after
 * "limited by": "shared memory" */
const char         *ks_occupancy_limiter_label (KsOccupancyLimiter       limiter);
/* One line for a reader: "24 of 64 warps per SM (37.5 %), 3 blocks: limited
 * by shared memory", translated, with "; needs
 * cudaFuncAttributeMaxDynamicSharedMemorySize" after it when the result needs
 * the opt-in.  (transfer full) */
char               *ks_occupancy_summary       (const KsOccupancyResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsOccupancyCurves, ks_occupancy_curves_free)

G_END_DECLS
