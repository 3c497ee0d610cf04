/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the occupancy calculator against figures worked out by hand with
 * the CUDA Occupancy Calculator's rules (cuda_occupancy.h semantics, as
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor), on the built-in data.
 *
 * Figures used (data/gpus.json):
 *   all:   warp 32, 65536 registers per SM and per block, 4 sub-partitions
 *          (16384 registers each), register unit 256, max 255 per thread
 *   sm_70: 64 warps, 32 blocks, 96 KiB shared (steps 0/8/16/32/64/96),
 *          unit 256, no reservation
 *   sm_75: 32 warps, 16 blocks, 64 KiB shared (steps 32/64), unit 256
 *   sm_80: 64 warps, 32 blocks, 164 KiB = 167936 (steps ../100/132/164),
 *          opt-in 163 KiB, unit 128, 1 KiB reserved per block
 *   sm_86: 48 warps, 16 blocks, 100 KiB = 102400, opt-in 99 KiB, unit 128,
 *          1 KiB reserved
 *   sm_89: 48 warps, 24 blocks, as sm_86 for shared memory
 *   sm_90: 64 warps, 32 blocks, 228 KiB = 233472 (steps ../196/228),
 *          opt-in 227 KiB, unit 128, 1 KiB reserved, 64 barriers per SM
 *   sm_120: 48 warps, 24 blocks (cuda_occupancy.h), 24 barriers per SM
 *
 * Shared memory per block (cuda_occupancy.h, cudaOccSMemPerBlock): without
 * cudaFuncAttributeMaxDynamicSharedMemorySize the allocation (static +
 * dynamic + reserved, rounded up to the unit) may be at most 48 KiB + the
 * reservation; with it, the opt-in limit + the reservation.
 */

#include <string.h>

#include "ks-gpu-db.h"
#include "ks-occupancy.h"

static KsGpuDb *db;

typedef struct
{
  const char *path;
  const char *arch;
  uint32_t block_size;
  uint32_t regs;
  uint32_t static_shared;
  uint32_t dynamic_shared;
  int32_t carveout;
  uint32_t blocks;
  uint32_t warps;
  KsOccupancyLimiter limiter;
  gboolean opt_in;              /* cudaFuncAttributeMaxDynamicSharedMemorySize set */
  uint32_t barriers;
} Case;

#define DEF KS_OCCUPANCY_CARVEOUT_DEFAULT

static const Case cases[] = {
  /* sm_86, 256 threads, 32 regs: 8 warps per block; 32 * 32 = 1024 registers
   * per warp; 16384 / 1024 = 16 warps per sub-partition, 64 per SM -> 8
   * blocks by registers; 48 / 8 = 6 by warps; 16 by blocks.  6 blocks, 48
   * warps, 100%, limited by warps. */
  { "/arch/occupancy/sm86-256t-32r-warps", "sm_86", 256, 32, 0, 0, DEF, 6, 48, KS_OCCUPANCY_LIMIT_WARPS },

  /* sm_80, 256 threads, 64 regs: 2048 per warp; 16384 / 2048 = 8 per
   * sub-partition, 32 warps -> 4 blocks; by warps 64 / 8 = 8.  4 blocks,
   * 32 warps, 50%, registers. */
  { "/arch/occupancy/sm80-256t-64r-registers", "sm_80", 256, 64, 0, 0, DEF, 4, 32, KS_OCCUPANCY_LIMIT_REGISTERS },

  /* sm_70, 128 threads, 40 regs: 1280 per warp (a multiple of 256);
   * 16384 / 1280 = 12 per sub-partition, 48 warps -> 12 blocks of 4 warps;
   * by warps 16.  12 blocks, 48 warps, 75%, registers. */
  { "/arch/occupancy/sm70-128t-40r-registers", "sm_70", 128, 40, 0, 0, DEF, 12, 48, KS_OCCUPANCY_LIMIT_REGISTERS },

  /* sm_75, 256 threads, 32 regs: by registers 8 blocks, by warps 32 / 8 = 4.
   * 4 blocks, 32 warps, 100%, warps. */
  { "/arch/occupancy/sm75-256t-32r-warps", "sm_75", 256, 32, 0, 0, DEF, 4, 32, KS_OCCUPANCY_LIMIT_WARPS },

  /* sm_75, 96 threads (3 warps), 33 regs: 1056 rounds up to 1280 per warp;
   * 12 per sub-partition, 48 warps -> 16 blocks; by warps 32 / 3 = 10;
   * 16 blocks.  10 blocks, 30 warps, 93.75%, warps. */
  { "/arch/occupancy/sm75-96t-33r-partial-warps", "sm_75", 96, 33, 0, 0, DEF, 10, 30, KS_OCCUPANCY_LIMIT_WARPS },

  /* sm_89, 128 threads, 41 regs: 1312 rounds up to 1536 per warp;
   * 16384 / 1536 = 10 per sub-partition, 40 warps -> 10 blocks of 4;
   * by warps 12.  10 blocks, 40 warps, 83.3%, registers. */
  { "/arch/occupancy/sm89-128t-41r-register-rounding", "sm_89", 128, 41, 0, 0, DEF, 10, 40, KS_OCCUPANCY_LIMIT_REGISTERS },

  /* sm_89, 64 threads, 48 regs: 1536 per warp.  Per sub-partition 10 warps,
   * 40 per SM -> 20 blocks of 2 warps.  (Dividing the whole register file,
   * 65536 / 1536 = 42 warps, would wrongly give 21.)  By warps 24, by blocks
   * 24.  20 blocks, 40 warps, 83.3%, registers. */
  { "/arch/occupancy/sm89-64t-48r-sub-partitions", "sm_89", 64, 48, 0, 0, DEF, 20, 40, KS_OCCUPANCY_LIMIT_REGISTERS },

  /* sm_86, 256 threads, 16 regs, 20 KiB static: 20480 + 1024 reserved =
   * 21504 (a multiple of 128); 102400 / 21504 = 4 (without the reservation
   * it would be 5); by warps 6.  4 blocks, 32 warps, 66.7%, shared. */
  { "/arch/occupancy/sm86-shared-reservation", "sm_86", 256, 16, 20480, 0, DEF, 4, 32, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_80, 256 threads, 16 regs, 48 KiB static: 49152 + 1024 = 50176;
   * 167936 / 50176 = 3; by registers 512 per warp, 32 per sub-partition ->
   * 16 blocks; by warps 8.  3 blocks, 24 warps, 37.5%, shared. */
  { "/arch/occupancy/sm80-48k-static", "sm_80", 256, 16, 49152, 0, DEF, 3, 24, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_90, 128 threads, 32 regs, 100 KiB dynamic (needs the opt-in):
   * 102400 + 1024 = 103424; 233472 / 103424 = 2; by warps 16, registers 16.
   * 2 blocks, 8 warps, 12.5%, shared. */
  { "/arch/occupancy/sm90-100k-dynamic", "sm_90", 128, 32, 0, 102400, DEF, 2, 8, KS_OCCUPANCY_LIMIT_SHARED_MEMORY, TRUE },

  /* sm_80, 32 threads, 16 regs, 1 byte of shared memory: 1 + 1024 rounds up
   * to 1152; 167936 / 1152 = 145; by warps 64; by blocks 32.  32 blocks, 32
   * warps, 50%, blocks. */
  { "/arch/occupancy/sm80-tiny-blocks", "sm_80", 32, 16, 1, 0, DEF, 32, 32, KS_OCCUPANCY_LIMIT_BLOCKS },

  /* sm_70, 256 threads, 32 regs, 12300 bytes static: rounds up to 12544
   * (49 * 256), no reservation; 98304 / 12544 = 7; by warps 8, by registers
   * 8.  7 blocks, 56 warps, 87.5%, shared. */
  { "/arch/occupancy/sm70-shared-unit", "sm_70", 256, 32, 12300, 0, DEF, 7, 56, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_86, 128 threads, 32 regs, 8 KiB static, carveout 25%: 25% of 102400
   * = 25600 -> next step 32 KiB = 32768; 8192 + 1024 = 9216; 32768 / 9216 =
   * 3.  3 blocks, 12 warps, 25%, shared. */
  { "/arch/occupancy/sm86-carveout-25", "sm_86", 128, 32, 8192, 0, 25, 3, 12, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* The same with the driver's default: 102400 / 9216 = 11; by warps 12,
   * by registers 16 (1024 per warp, 64 warps / 4).  11 blocks, 44 warps,
   * 91.7%, shared. */
  { "/arch/occupancy/sm86-carveout-default", "sm_86", 128, 32, 8192, 0, DEF, 11, 44, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_80, carveout 0% with 8 KiB static: the preference (0) cannot hold one
   * block of 9216, so the smallest step that does, 16 KiB, is used: 1 block.
   * 256 threads: 8 warps, 12.5%, shared. */
  { "/arch/occupancy/sm80-carveout-0", "sm_80", 256, 32, 8192, 0, 0, 1, 8, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_75, 256 threads, 32 regs, 12 KiB static, carveout 50%: 32 KiB;
   * 32768 / 12288 = 2.  2 blocks, 16 warps, 50%, shared. */
  { "/arch/occupancy/sm75-carveout-50", "sm_75", 256, 32, 12288, 0, 50, 2, 16, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* ... and by default, 65536 / 12288 = 5, by warps 4: 4 blocks, 100%, warps. */
  { "/arch/occupancy/sm75-carveout-default", "sm_75", 256, 32, 12288, 0, DEF, 4, 32, KS_OCCUPANCY_LIMIT_WARPS },

  /* sm_86, 100 threads (4 warps, the last partial), 24 regs: 768 per warp;
   * 16384 / 768 = 21 per sub-partition, 84 warps -> 21 blocks; by warps 12.
   * 12 blocks, 48 warps, 100%, warps. */
  { "/arch/occupancy/sm86-100-threads", "sm_86", 100, 24, 0, 0, DEF, 12, 48, KS_OCCUPANCY_LIMIT_WARPS },

  /* sm_90, 1024 threads, 64 regs: 2048 per warp, 8 per sub-partition, 32
   * warps -> 1 block; by warps 2.  1 block, 32 warps, 50%, registers. */
  { "/arch/occupancy/sm90-1024t-64r", "sm_90", 1024, 64, 0, 0, DEF, 1, 32, KS_OCCUPANCY_LIMIT_REGISTERS },

  /* sm_70, 32 threads, 255 regs: 8160 rounds up to 8192 per warp; 2 per
   * sub-partition, 8 warps -> 8 blocks.  8 blocks, 8 warps, 12.5%, registers. */
  { "/arch/occupancy/sm70-255-registers", "sm_70", 32, 255, 0, 0, DEF, 8, 8, KS_OCCUPANCY_LIMIT_REGISTERS },

  /* sm_89, 32 threads, no registers: by warps 48, by blocks 24.  24 blocks,
   * 24 warps, 50%, blocks. */
  { "/arch/occupancy/sm89-no-registers", "sm_89", 32, 0, 0, 0, DEF, 24, 24, KS_OCCUPANCY_LIMIT_BLOCKS },

  /* sm_86, 1024 threads, 32 regs, 99 KiB dynamic (the opt-in maximum):
   * 101376 + 1024 = 102400, exactly the SM's shared memory: 1 block; by
   * warps 48 / 32 = 1 as well, and warps come first.  32 warps, 66.7%. */
  { "/arch/occupancy/sm86-optin-maximum", "sm_86", 1024, 32, 0, 101376, DEF, 1, 32, KS_OCCUPANCY_LIMIT_WARPS, TRUE },

  /* The block, sm_80, 128 threads, 32 regs, 48196 static + 4096
   * dynamic, with the opt-in: 48196 + 4096 + 1024 = 53316 rounds up to
   * 53376 (417 * 128); 167936 / 53376 = 3; by warps 16, by registers 16.
   * 3 blocks, 12 warps, 18.75%, shared. */
  { "/arch/occupancy/sm80-48196-4096-opt-in", "sm_80", 128, 32, 48196, 4096, DEF, 3, 12,
    KS_OCCUPANCY_LIMIT_SHARED_MEMORY, TRUE },

  /* sm_80, 48 KiB dynamic exactly, no opt-in: 49152 + 1024 = 50176, which
   * is the default limit 49152 + the 1024 reserved: it launches.  167936 /
   * 50176 = 3; 256 threads, 16 regs: by warps 8.  3 blocks, 24 warps. */
  { "/arch/occupancy/sm80-48k-dynamic-no-opt-in", "sm_80", 256, 16, 0, 49152, DEF, 3, 24,
    KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_70 (no reservation, unit 256): 49152 dynamic is 49152, the limit */
  { "/arch/occupancy/sm70-48k-dynamic-no-opt-in", "sm_70", 256, 16, 0, 49152, DEF, 2, 16,
    KS_OCCUPANCY_LIMIT_SHARED_MEMORY },

  /* sm_120, 32 threads, 16 regs: by warps 48, by blocks 24 (12.x in
   * cuda_occupancy.h's cudaOccMaxBlocksPerMultiprocessor).  24 blocks, 24
   * warps, 50%, blocks. */
  { "/arch/occupancy/sm120-24-blocks", "sm_120", 32, 16, 0, 0, DEF, 24, 24, KS_OCCUPANCY_LIMIT_BLOCKS },

  /* sm_120, 2 barriers a block: cudaOccMaxBlocksPerSMBlockBarrierLimit
   * gives 12.x 1 x 24 barriers, 24 / 2 = 12 blocks; 32 threads: 12 warps,
   * 25%, barriers. */
  { "/arch/occupancy/sm120-2-barriers", "sm_120", 32, 16, 0, 0, DEF, 12, 12,
    KS_OCCUPANCY_LIMIT_BARRIERS, FALSE, 2 },

  /* sm_90, 4 barriers: 2 x 32 = 64, 64 / 4 = 16 blocks of 1 warp (by
   * blocks 32, by warps 64).  16 warps, 25%, barriers. */
  { "/arch/occupancy/sm90-4-barriers", "sm_90", 32, 16, 0, 0, DEF, 16, 16,
    KS_OCCUPANCY_LIMIT_BARRIERS, FALSE, 4 },

  /* sm_90, 64 threads, 32 regs: by warps 32, by blocks 32, 100%: warps and
   * blocks both limit; warps is named. */
  { "/arch/occupancy/sm90-tie-warps-blocks", "sm_90", 64, 32, 0, 0, DEF, 32, 64, KS_OCCUPANCY_LIMIT_WARPS },
};

static const KsArchInfo *
arch (const char *id)
{
  const KsArchInfo *a = ks_gpu_db_get_arch (db, id);

  g_assert_nonnull (a);
  return a;
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  const KsArchInfo *a = arch (c->arch);
  g_autoptr(GError) error = NULL;
  KsOccupancyInput in;
  KsOccupancyResult r;

  ks_occupancy_input_init (&in);
  in.block_size = c->block_size;
  in.registers_per_thread = c->regs;
  in.static_shared_bytes = c->static_shared;
  in.dynamic_shared_bytes = c->dynamic_shared;
  in.carveout_percent = c->carveout;
  in.shared_opt_in_set = c->opt_in;
  in.barriers = c->barriers;

  g_assert_true (ks_occupancy_compute (a, &in, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r.active_blocks_per_sm, ==, c->blocks);
  g_assert_cmpuint (r.active_warps_per_sm, ==, c->warps);
  g_assert_cmpuint (r.max_warps_per_sm, ==, a->max_warps_per_sm);
  g_assert_cmpfloat_with_epsilon (r.occupancy, (double) c->warps / a->max_warps_per_sm, 1e-12);
  g_assert_cmpstr (ks_occupancy_limiter_name (r.limiter), ==, ks_occupancy_limiter_name (c->limiter));
  g_assert_true (r.limiters & c->limiter);
}

static void
test_details (void)
{
  KsOccupancyInput in;
  KsOccupancyResult r;

  /* sm_86, 256 threads, 32 regs: the per-limit figures behind the result. */
  ks_occupancy_input_init (&in);
  in.block_size = 256;
  in.registers_per_thread = 32;
  g_assert_true (ks_occupancy_compute (arch ("sm_86"), &in, &r, NULL));
  g_assert_cmpuint (r.warps_per_block, ==, 8);
  g_assert_cmpuint (r.registers_per_warp, ==, 1024);
  g_assert_cmpuint (r.registers_per_block, ==, 8192);
  g_assert_cmpuint (r.blocks_by_warps, ==, 6);
  g_assert_cmpuint (r.blocks_by_registers, ==, 8);
  /* 1 KiB reserved even with no shared memory: 102400 / 1024 = 100 */
  g_assert_cmpuint (r.shared_allocated_per_block, ==, 1024);
  g_assert_cmpuint (r.blocks_by_shared_memory, ==, 100);
  g_assert_cmpuint (r.blocks_by_blocks, ==, 16);
  g_assert_cmpuint (r.blocks_by_barriers, ==, KS_OCCUPANCY_UNLIMITED);
  /* 6 blocks * 1 KiB = 6 KiB: the 8 KiB step */
  g_assert_cmpuint (r.carveout_kib, ==, 8);
  g_assert_false (r.shared_opt_in);

  /* sm_70 has no reservation: no shared memory, no limit */
  g_assert_true (ks_occupancy_compute (arch ("sm_70"), &in, &r, NULL));
  g_assert_cmpuint (r.shared_allocated_per_block, ==, 0);
  g_assert_cmpuint (r.blocks_by_shared_memory, ==, KS_OCCUPANCY_UNLIMITED);
  g_assert_cmpuint (r.carveout_kib, ==, 0);

  /* sm_90, 100 KiB dynamic: 2 blocks of 103424 = 206848 bytes need the
   * 228 KiB step (196 KiB = 200704 is too small), and the opt-in. */
  in.block_size = 128;
  in.dynamic_shared_bytes = 102400;
  in.shared_opt_in_set = TRUE;
  g_assert_true (ks_occupancy_compute (arch ("sm_90"), &in, &r, NULL));
  g_assert_cmpuint (r.shared_allocated_per_block, ==, 103424);
  g_assert_cmpuint (r.carveout_kib, ==, 228);
  g_assert_true (r.shared_opt_in);

  /* sm_75, 25%: 16384 rounds up to Turing's smallest step, 32 KiB */
  ks_occupancy_input_init (&in);
  in.block_size = 256;
  in.registers_per_thread = 32;
  in.carveout_percent = 25;
  g_assert_true (ks_occupancy_compute (arch ("sm_75"), &in, &r, NULL));
  g_assert_cmpuint (r.shared_pool_bytes, ==, 32768);
  g_assert_cmpuint (r.carveout_kib, ==, 32);
}

/* A block above 48 KiB without cudaFuncAttributeMaxDynamicSharedMemorySize:
 * cuda_occupancy.h gives 0 blocks (its FUNC_SHMEM_LIMIT_DEFAULT limit is
 * 49152 + 1024 against an allocation of 53376); KernelScope refuses the
 * launch, names the attribute and gives the figures with it. */
static void
test_opt_in (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  KsOccupancyInput in;
  KsOccupancyResult r;

  ks_occupancy_input_init (&in);
  in.block_size = 128;
  in.registers_per_thread = 32;
  in.static_shared_bytes = 48196;
  in.dynamic_shared_bytes = 4096;
  memset (&r, 0, sizeof r);
  g_assert_false (ks_occupancy_compute (arch ("sm_80"), &in, &r, &error));
  g_assert_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_OPT_IN);
  g_assert_nonnull (strstr (error->message, "cudaFuncAttributeMaxDynamicSharedMemorySize"));
  g_assert_nonnull (strstr (error->message, "cudaFuncSetAttribute"));
  g_assert_nonnull (strstr (error->message, "52292 bytes"));
  g_assert_nonnull (strstr (error->message, "3 blocks"));
  /* the result is the one with the opt-in (worked out in the cases above) */
  g_assert_true (r.shared_opt_in);
  g_assert_cmpuint (r.shared_bytes_per_block, ==, 52292);
  g_assert_cmpuint (r.shared_allocated_per_block, ==, 53376);
  g_assert_cmpuint (r.active_blocks_per_sm, ==, 3);
  g_assert_cmpuint (r.active_warps_per_sm, ==, 12);
  summary = ks_occupancy_summary (&r);
  g_assert_nonnull (strstr (summary, "needs cudaFuncAttributeMaxDynamicSharedMemorySize"));
  g_clear_error (&error);

  /* one byte over the default limit on sm_80: 49153 + 1024 rounds up to
   * 50304 > 50176 */
  in.static_shared_bytes = 0;
  in.dynamic_shared_bytes = 49153;
  g_assert_false (ks_occupancy_compute (arch ("sm_80"), &in, &r, &error));
  g_assert_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_OPT_IN);
  g_clear_error (&error);
  /* and on sm_70: 49153 rounds up to 49408 > 49152 */
  g_assert_false (ks_occupancy_compute (arch ("sm_70"), &in, &r, &error));
  g_assert_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_OPT_IN);
  g_clear_error (&error);

  /* 48 KiB exactly needs no opt-in, and says none */
  in.dynamic_shared_bytes = 49152;
  g_assert_true (ks_occupancy_compute (arch ("sm_80"), &in, &r, &error));
  g_assert_false (r.shared_opt_in);
  g_clear_pointer (&summary, g_free);
  summary = ks_occupancy_summary (&r);
  g_assert_null (strstr (summary, "cudaFuncAttribute"));

  /* a real error still comes first: above the opt-in maximum */
  in.dynamic_shared_bytes = 166913;
  g_assert_false (ks_occupancy_compute (arch ("sm_80"), &in, &r, &error));
  g_assert_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_MEMORY);
}

static void
test_barriers (void)
{
  KsArchInfo custom = *arch ("sm_80");
  g_autoptr(GError) error = NULL;
  KsOccupancyInput in;
  KsOccupancyResult r;

  /* The built-in data has no per-SM barrier figure that binds, so use a
   * copy with 16 barriers per SM (a user override could do the same):
   * 4 barriers per block -> 4 blocks of 1 warp, 6.25%, barriers. */
  custom.barriers_per_sm = 16;
  ks_occupancy_input_init (&in);
  in.block_size = 32;
  in.registers_per_thread = 16;
  in.barriers = 4;
  g_assert_true (ks_occupancy_compute (&custom, &in, &r, NULL));
  g_assert_cmpuint (r.blocks_by_barriers, ==, 4);
  g_assert_cmpuint (r.active_blocks_per_sm, ==, 4);
  g_assert_cmpuint (r.active_warps_per_sm, ==, 4);
  g_assert_cmpstr (ks_occupancy_limiter_name (r.limiter), ==, "barriers");

  /* On the built-in sm_80 (512 per SM) the same kernel is limited by blocks. */
  g_assert_true (ks_occupancy_compute (arch ("sm_80"), &in, &r, NULL));
  g_assert_cmpuint (r.blocks_by_barriers, ==, 128);
  g_assert_cmpstr (ks_occupancy_limiter_name (r.limiter), ==, "blocks");

  in.barriers = 17;
  g_assert_false (ks_occupancy_compute (arch ("sm_80"), &in, &r, &error));
  g_assert_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_BARRIERS);
  g_assert_nonnull (strstr (error->message, "barriers_per_block"));
}

typedef struct
{
  const char *path;
  const char *arch;
  uint32_t block_size;
  uint32_t regs;
  uint32_t static_shared;
  uint32_t dynamic_shared;
  int32_t carveout;
  KsOccupancyError code;
  const char *names;            /* the limit the message must name */
} ErrorCase;

static const ErrorCase error_cases[] = {
  /* the three: 300 registers, 2048 threads, too much shared memory */
  { "/arch/occupancy/error/300-registers", "sm_86", 256, 300, 0, 0, DEF,
    KS_OCCUPANCY_ERROR_REGISTERS, "max_registers_per_thread" },
  { "/arch/occupancy/error/256-registers", "sm_90", 32, 256, 0, 0, DEF,
    KS_OCCUPANCY_ERROR_REGISTERS, "max_registers_per_thread" },
  { "/arch/occupancy/error/2048-threads", "sm_80", 2048, 32, 0, 0, DEF,
    KS_OCCUPANCY_ERROR_BLOCK_SIZE, "max_threads_per_block" },
  { "/arch/occupancy/error/0-threads", "sm_80", 0, 32, 0, 0, DEF,
    KS_OCCUPANCY_ERROR_BLOCK_SIZE, "max_threads_per_block" },
  /* 163 KiB + 1 byte on sm_80 */
  { "/arch/occupancy/error/shared-above-optin", "sm_80", 128, 32, 0, 166913, DEF,
    KS_OCCUPANCY_ERROR_SHARED_MEMORY, "shared_per_block_optin_bytes" },
  /* 64 KiB + 1 byte on sm_75 (its opt-in is the whole 64 KiB) */
  { "/arch/occupancy/error/shared-above-optin-sm75", "sm_75", 128, 32, 16384, 49153, DEF,
    KS_OCCUPANCY_ERROR_SHARED_MEMORY, "shared_per_block_optin_bytes" },
  /* static shared memory is limited to 48 KiB whatever the opt-in */
  { "/arch/occupancy/error/static-above-48k", "sm_70", 128, 32, 49153, 0, DEF,
    KS_OCCUPANCY_ERROR_SHARED_MEMORY, "shared_per_block_bytes" },
  /* 1024 threads of 65 registers: 2080 -> 2304 per warp, 32 warps: 73728 >
   * 65536 (cudaErrorLaunchOutOfResources) */
  { "/arch/occupancy/error/registers-per-block", "sm_86", 1024, 65, 0, 0, DEF,
    KS_OCCUPANCY_ERROR_REGISTERS_PER_BLOCK, "max_registers_per_block" },
  /* 480 threads = 15 warps of 130 registers: 4160 -> 4352 per warp, 15 *
   * 4352 = 65280 fits the block limit, but the hardware checks the warps
   * rounded up to the 4 sub-partitions, 16 * 4352 = 69632 > 65536
   * (cuda_occupancy.h, "regsAssumedPerCTA") */
  { "/arch/occupancy/error/registers-per-block-sub-partitions", "sm_80", 480, 130, 0, 0, DEF,
    KS_OCCUPANCY_ERROR_REGISTERS_PER_BLOCK, "max_registers_per_block" },
  /* a carveout is a percentage */
  { "/arch/occupancy/error/carveout", "sm_80", 128, 32, 0, 0, 101,
    KS_OCCUPANCY_ERROR_CARVEOUT, "0 to 100" },
};

static void
test_error (gconstpointer data)
{
  const ErrorCase *c = data;
  g_autoptr(GError) error = NULL;
  KsOccupancyInput in;
  KsOccupancyResult r;

  ks_occupancy_input_init (&in);
  in.block_size = c->block_size;
  in.registers_per_thread = c->regs;
  in.static_shared_bytes = c->static_shared;
  in.dynamic_shared_bytes = c->dynamic_shared;
  in.carveout_percent = c->carveout;
  g_assert_false (ks_occupancy_compute (arch (c->arch), &in, &r, &error));
  g_assert_error (error, KS_OCCUPANCY_ERROR, (int) c->code);
  g_assert_nonnull (strstr (error->message, c->names));
}

static void
test_curves (void)
{
  g_autoptr(KsOccupancyCurves) c = NULL;
  KsOccupancyInput in;

  ks_occupancy_input_init (&in);
  in.block_size = 256;
  in.registers_per_thread = 32;
  c = ks_occupancy_curves_new (arch ("sm_86"), &in);

  /* block size 32..1024 step 32 */
  g_assert_cmpuint (c->n_block_size, ==, 32);
  g_assert_cmpuint (c->block_size[0].x, ==, 32);
  g_assert_cmpuint (c->block_size[31].x, ==, 1024);
  /* 32 threads: 16 blocks (max blocks) of 1 warp = 16 warps */
  g_assert_cmpuint (c->block_size[0].active_warps_per_sm, ==, 16);
  /* 256 threads: the case above, 48 warps */
  g_assert_cmpuint (c->block_size[7].active_warps_per_sm, ==, 48);
  g_assert_cmpfloat (c->block_size[7].occupancy, ==, 1.0);
  /* 1024 threads: 1 block of 32 warps (48 / 32 = 1) */
  g_assert_cmpuint (c->block_size[31].active_blocks_per_sm, ==, 1);
  g_assert_cmpuint (c->block_size[31].active_warps_per_sm, ==, 32);

  /* registers 1..255 */
  g_assert_cmpuint (c->n_registers, ==, 255);
  g_assert_cmpuint (c->registers[0].x, ==, 1);
  /* 64 regs: 2048 per warp, 32 warps -> 4 blocks = 32 warps */
  g_assert_cmpuint (c->registers[63].active_warps_per_sm, ==, 32);
  /* 255 regs: 8192 per warp, 8 warps -> 1 block of 8 */
  g_assert_cmpuint (c->registers[254].active_warps_per_sm, ==, 8);

  /* shared 0..99 KiB step 128: 793 points */
  g_assert_cmpuint (c->n_shared_memory, ==, 101376 / 128 + 1);
  g_assert_cmpuint (c->shared_memory[0].x, ==, 0);
  g_assert_cmpuint (c->shared_memory[c->n_shared_memory - 1].x, ==, 101376);
  /* 20 KiB: 4 blocks (the reservation case) */
  g_assert_cmpuint (c->shared_memory[160].x, ==, 20480);
  g_assert_cmpuint (c->shared_memory[160].active_blocks_per_sm, ==, 4);
  /* without the opt-in a block of more than 48 KiB cannot launch: 48 KiB
   * (point 384) is 2 blocks of 50176, the next point 0 */
  g_assert_cmpuint (c->shared_memory[384].x, ==, 49152);
  g_assert_cmpuint (c->shared_memory[384].active_blocks_per_sm, ==, 2);
  g_assert_cmpuint (c->shared_memory[385].active_blocks_per_sm, ==, 0);
  g_assert_cmpuint (c->shared_memory[c->n_shared_memory - 1].active_blocks_per_sm, ==, 0);
  /* with it, 49280 + 1024 = 50304: 102400 / 50304 = 2 blocks; 99 KiB: 1 */
  ks_occupancy_curves_free (g_steal_pointer (&c));
  in.shared_opt_in_set = TRUE;
  c = ks_occupancy_curves_new (arch ("sm_86"), &in);
  g_assert_cmpuint (c->shared_memory[385].active_blocks_per_sm, ==, 2);
  g_assert_cmpuint (c->shared_memory[c->n_shared_memory - 1].active_blocks_per_sm, ==, 1);

  /* a block that cannot launch at some register counts: 1024 threads on
   * sm_80 runs up to 64 registers and is 0 beyond */
  ks_occupancy_curves_free (g_steal_pointer (&c));
  in.block_size = 1024;
  c = ks_occupancy_curves_new (arch ("sm_80"), &in);
  g_assert_cmpuint (c->registers[63].active_blocks_per_sm, ==, 1);
  g_assert_cmpuint (c->registers[64].active_blocks_per_sm, ==, 0);
  g_assert_cmpfloat (c->registers[64].occupancy, ==, 0.0);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *builtin = NULL;
  const char *paths[2] = { NULL, NULL };
  int ret;

  g_test_init (&argc, &argv, NULL);

  /* The built-in file alone: a user's override must not change the figures. */
  builtin = ks_gpu_db_find_builtin ();
  g_assert_nonnull (builtin);
  paths[0] = builtin;
  db = ks_gpu_db_load_files (paths, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_test_add_data_func (cases[i].path, &cases[i], test_case);
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    g_test_add_data_func (error_cases[i].path, &error_cases[i], test_error);
  g_test_add_func ("/arch/occupancy/details", test_details);
  g_test_add_func ("/arch/occupancy/barriers", test_barriers);
  g_test_add_func ("/arch/occupancy/opt-in", test_opt_in);
  g_test_add_func ("/arch/occupancy/curves", test_curves);

  ret = g_test_run ();
  ks_gpu_db_free (db);
  return ret;
}
