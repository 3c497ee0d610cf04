/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-occupancy.c: the CUDA Occupancy Calculator's rules (see ks-occupancy.h). */

#include <glib/gi18n-lib.h>

#include "ks-format.h"
#include "ks-occupancy.h"

G_DEFINE_QUARK (ks-occupancy-error-quark, ks_occupancy_error)

static uint64_t
round_up (uint64_t x,
          uint64_t unit)
{
  return unit == 0 ? x : (x + unit - 1) / unit * unit;
}

/* The smallest carveout step of at least size bytes; the largest when none
 * is (which validated data and valid input never ask for). */
static uint32_t
carveout_step_bytes (const KsArchInfo *arch,
                     uint64_t          size)
{
  for (uint32_t i = 0; i < arch->n_shared_carveouts; i++)
    if ((uint64_t) arch->shared_carveout_kib[i] * 1024 >= size)
      return arch->shared_carveout_kib[i] * 1024;
  return arch->shared_carveout_kib[arch->n_shared_carveouts - 1] * 1024;
}

void
ks_occupancy_input_init (KsOccupancyInput *input)
{
  g_return_if_fail (input != NULL);

  *input = (KsOccupancyInput) {
    .block_size = 0,
    .carveout_percent = KS_OCCUPANCY_CARVEOUT_DEFAULT,
  };
}

const char *
ks_occupancy_limiter_name (KsOccupancyLimiter limiter)
{
  switch (limiter)
    {
    case KS_OCCUPANCY_LIMIT_WARPS: return "warps";
    case KS_OCCUPANCY_LIMIT_REGISTERS: return "registers";
    case KS_OCCUPANCY_LIMIT_SHARED_MEMORY: return "shared_memory";
    case KS_OCCUPANCY_LIMIT_BLOCKS: return "blocks";
    case KS_OCCUPANCY_LIMIT_BARRIERS: return "barriers";
    default: return NULL;
    }
}

const char *
ks_occupancy_limiter_label (KsOccupancyLimiter limiter)
{
  switch (limiter)
    {
    /* TRANSLATORS: what limits occupancy, after "limited by" */
    case KS_OCCUPANCY_LIMIT_WARPS: return C_("limiter", "warps");
    case KS_OCCUPANCY_LIMIT_REGISTERS: return C_("limiter", "registers");
    case KS_OCCUPANCY_LIMIT_SHARED_MEMORY: return C_("limiter", "shared memory");
    case KS_OCCUPANCY_LIMIT_BLOCKS: return C_("limiter", "blocks");
    case KS_OCCUPANCY_LIMIT_BARRIERS: return C_("limiter", "barriers");
    default: return NULL;
    }
}

char *
ks_occupancy_summary (const KsOccupancyResult *r)
{
  g_autofree char *pct = NULL;
  g_autofree char *line = NULL;

  g_return_val_if_fail (r != NULL, NULL);
  pct = ks_format_figure (r->occupancy * 100);
  /* TRANSLATORS: "24 of 64 warps per SM (37.5 %), 3 blocks: limited by shared memory" */
  line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u of %u warps per SM (%s %%), %u block: limited by %s",
                                       "%u of %u warps per SM (%s %%), %u blocks: limited by %s",
                                       r->active_blocks_per_sm),
                          r->active_warps_per_sm, r->max_warps_per_sm, pct,
                          r->active_blocks_per_sm, ks_occupancy_limiter_label (r->limiter));
  if (!r->shared_opt_in)
    return g_steal_pointer (&line);
  /* TRANSLATORS: after the summary of a block whose shared memory is above
   * the 48 KiB a block gets by default; the attribute is a CUDA name */
  return g_strdup_printf (_("%s; needs cudaFuncAttributeMaxDynamicSharedMemorySize"), line);
}

static gboolean
check_launch (const KsArchInfo        *arch,
              const KsOccupancyInput  *in,
              GError                 **error)
{
  uint64_t shared = (uint64_t) in->static_shared_bytes + in->dynamic_shared_bytes;
  uint64_t reserved = arch->shared_reserved_per_block_bytes;
  uint64_t allocated = round_up (shared + reserved, arch->shared_allocation_unit_bytes);

  if (in->block_size == 0 || in->block_size > arch->max_threads_per_block)
    {
      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_BLOCK_SIZE,
                   "%u threads per block: %s allows 1 to %u threads per block (max_threads_per_block)",
                   in->block_size, arch->id, arch->max_threads_per_block);
      return FALSE;
    }
  if (in->registers_per_thread > arch->max_registers_per_thread)
    {
      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_REGISTERS,
                   "%u registers per thread: %s allows at most %u registers per thread "
                   "(max_registers_per_thread)",
                   in->registers_per_thread, arch->id, arch->max_registers_per_thread);
      return FALSE;
    }
  if (in->static_shared_bytes > arch->shared_per_block_bytes)
    {
      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_MEMORY,
                   "%u bytes of static shared memory: a block may declare at most %u bytes "
                   "statically (shared_per_block_bytes); larger allocations must be dynamic",
                   in->static_shared_bytes, arch->shared_per_block_bytes);
      return FALSE;
    }
  /* cuda_occupancy.h (cudaOccMaxBlocksPerSMSmemLimit, cudaOccSMemPerBlock):
   * the allocation, rounded and with the reservation, against the opt-in
   * limit plus the reservation */
  if (allocated > arch->shared_per_block_optin_bytes + reserved)
    {
      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_MEMORY,
                   "%" G_GUINT64_FORMAT " bytes of shared memory per block: %s allows at most %u "
                   "bytes per block (shared_per_block_optin_bytes)",
                   shared, arch->id, arch->shared_per_block_optin_bytes);
      return FALSE;
    }
  if (in->barriers > arch->barriers_per_block)
    {
      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_BARRIERS,
                   "%u named barriers per block: %s allows at most %u (barriers_per_block)",
                   in->barriers, arch->id, arch->barriers_per_block);
      return FALSE;
    }
  if (in->carveout_percent != KS_OCCUPANCY_CARVEOUT_DEFAULT
      && (in->carveout_percent < 0 || in->carveout_percent > 100))
    {
      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_CARVEOUT,
                   "a shared memory carveout of %d%%: expected 0 to 100", in->carveout_percent);
      return FALSE;
    }
  return TRUE;
}

static gboolean
registers_limit (const KsArchInfo        *arch,
                 const KsOccupancyInput  *in,
                 KsOccupancyResult       *r,
                 GError                 **error)
{
  uint64_t per_warp = round_up ((uint64_t) in->registers_per_thread * arch->warp_size,
                                arch->register_allocation_unit);
  uint64_t assumed;

  if (arch->register_allocation_granularity == KS_REG_GRANULARITY_BLOCK)
    {
      /* Compute capability 1.x: one allocation per block of whole warp pairs. */
      uint64_t warps = round_up (r->warps_per_block, arch->warp_allocation_granularity);
      uint64_t per_block = round_up ((uint64_t) in->registers_per_thread * arch->warp_size * warps,
                                     arch->register_allocation_unit);

      r->registers_per_warp = (uint32_t) (per_block / warps);
      r->registers_per_block = (uint32_t) MIN (per_block, G_MAXUINT32);
      if (per_block > arch->max_registers_per_block)
        goto too_many;
      r->blocks_by_registers = per_block ? (uint32_t) (arch->registers_per_sm / per_block)
                                         : KS_OCCUPANCY_UNLIMITED;
      return TRUE;
    }

  r->registers_per_warp = (uint32_t) per_warp;
  r->registers_per_block = (uint32_t) MIN (per_warp * r->warps_per_block, G_MAXUINT32);

  /* The hardware checks the per-block limit as if every sub-partition got
   * the same number of warps (cuda_occupancy.h: "regsAssumedPerCTA"), so
   * 31 warps of 64 registers are checked as 32. */
  assumed = per_warp * round_up (r->warps_per_block, arch->sub_partitions);
  if (assumed > arch->max_registers_per_block)
    goto too_many;

  if (per_warp == 0)
    r->blocks_by_registers = KS_OCCUPANCY_UNLIMITED;
  else
    {
      /* Each sub-partition has its own quarter of the register file, and a
       * warp's registers live in one of them. */
      uint64_t per_sub_partition = arch->registers_per_sm / arch->sub_partitions / per_warp;
      uint64_t warps = per_sub_partition * arch->sub_partitions;

      r->blocks_by_registers = (uint32_t) (warps / r->warps_per_block);
    }
  return TRUE;

too_many:
  g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_REGISTERS_PER_BLOCK,
               "%u threads of %u registers need %" G_GUINT64_FORMAT " registers per block "
               "(allocated per warp in units of %u, %u sub-partitions): %s allows at most %u "
               "(max_registers_per_block)",
               in->block_size, in->registers_per_thread,
               arch->register_allocation_granularity == KS_REG_GRANULARITY_BLOCK
                 ? (uint64_t) r->registers_per_block : assumed,
               arch->register_allocation_unit, arch->sub_partitions, arch->id,
               arch->max_registers_per_block);
  return FALSE;
}

static void
shared_limit (const KsArchInfo       *arch,
              const KsOccupancyInput *in,
              KsOccupancyResult      *r)
{
  uint64_t asked = (uint64_t) in->static_shared_bytes + in->dynamic_shared_bytes;
  uint64_t allocated = round_up (asked + arch->shared_reserved_per_block_bytes,
                                 arch->shared_allocation_unit_bytes);
  uint64_t pool;

  r->shared_bytes_per_block = (uint32_t) asked;
  r->shared_allocated_per_block = (uint32_t) allocated;
  /* Without the attribute the limit is the default one plus the
   * reservation, which the allocation includes (cudaOccSMemPerBlock with
   * FUNC_SHMEM_LIMIT_DEFAULT): 48 KiB of the kernel's own */
  r->shared_opt_in = allocated > (uint64_t) arch->shared_per_block_bytes
                                 + arch->shared_reserved_per_block_bytes;

  if (in->carveout_percent == KS_OCCUPANCY_CARVEOUT_DEFAULT)
    pool = arch->shared_per_sm_bytes;
  else
    pool = carveout_step_bytes (arch, (uint64_t) in->carveout_percent * arch->shared_per_sm_bytes / 100);

  /* A preference too small for even one block is overridden by the driver
   * with the smallest configuration that fits one. */
  if (pool < allocated)
    pool = carveout_step_bytes (arch, allocated);

  r->shared_pool_bytes = (uint32_t) pool;
  r->blocks_by_shared_memory = allocated ? (uint32_t) (pool / allocated) : KS_OCCUPANCY_UNLIMITED;
}

/**
 * ks_occupancy_compute:
 *
 * Returns: %FALSE with @error set when the configuration cannot launch;
 * for %KS_OCCUPANCY_ERROR_SHARED_OPT_IN @result holds the figures with the
 * opt-in
 */
gboolean
ks_occupancy_compute (const KsArchInfo        *arch,
                      const KsOccupancyInput  *input,
                      KsOccupancyResult       *result,
                      GError                 **error)
{
  KsOccupancyResult r = { 0 };
  const KsOccupancyLimiter order[] = {
    KS_OCCUPANCY_LIMIT_WARPS, KS_OCCUPANCY_LIMIT_REGISTERS, KS_OCCUPANCY_LIMIT_SHARED_MEMORY,
    KS_OCCUPANCY_LIMIT_BLOCKS, KS_OCCUPANCY_LIMIT_BARRIERS,
  };
  uint32_t limits[G_N_ELEMENTS (order)];
  uint32_t active = KS_OCCUPANCY_UNLIMITED;

  g_return_val_if_fail (arch != NULL, FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_launch (arch, input, error))
    return FALSE;

  r.warps_per_block = (input->block_size + arch->warp_size - 1) / arch->warp_size;
  r.max_warps_per_sm = arch->max_warps_per_sm;
  r.blocks_by_warps = arch->max_warps_per_sm / r.warps_per_block;
  if (!registers_limit (arch, input, &r, error))
    return FALSE;
  shared_limit (arch, input, &r);
  r.blocks_by_blocks = arch->max_blocks_per_sm;
  r.blocks_by_barriers = input->barriers ? arch->barriers_per_sm / input->barriers
                                         : KS_OCCUPANCY_UNLIMITED;

  limits[0] = r.blocks_by_warps;
  limits[1] = r.blocks_by_registers;
  limits[2] = r.blocks_by_shared_memory;
  limits[3] = r.blocks_by_blocks;
  limits[4] = r.blocks_by_barriers;
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    active = MIN (active, limits[i]);
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    if (limits[i] == active)
      {
        if (r.limiters == 0)
          r.limiter = order[i];
        r.limiters |= order[i];
      }

  r.active_blocks_per_sm = active;
  r.active_warps_per_sm = active * r.warps_per_block;
  r.occupancy = (double) r.active_warps_per_sm / arch->max_warps_per_sm;

  /* With no preference the driver may pick any configuration that does not
   * lower occupancy; the smallest such step leaves the most L1. */
  if (input->carveout_percent == KS_OCCUPANCY_CARVEOUT_DEFAULT)
    r.carveout_kib = carveout_step_bytes (arch, (uint64_t) active * r.shared_allocated_per_block) / 1024;
  else
    r.carveout_kib = r.shared_pool_bytes / 1024;

  *result = r;

  /* cuda_occupancy.h gives 0 blocks: the launch fails without the opt-in.
   * What it gives with it is in the result and the message. */
  if (r.shared_opt_in && !input->shared_opt_in_set)
    {
      KsOccupancyResult plain = r;
      g_autofree char *with = NULL;

      plain.shared_opt_in = FALSE;      /* the message names the attribute already */
      with = ks_occupancy_summary (&plain);

      g_set_error (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_OPT_IN,
                   "%u bytes of shared memory per block (%u static + %u dynamic) are more than "
                   "the %u bytes a block may use by default (shared_per_block_bytes): the "
                   "launch fails unless the kernel first calls cudaFuncSetAttribute (kernel, "
                   "cudaFuncAttributeMaxDynamicSharedMemorySize, %u); with it: %s",
                   r.shared_bytes_per_block, input->static_shared_bytes,
                   input->dynamic_shared_bytes, arch->shared_per_block_bytes,
                   input->dynamic_shared_bytes, with);
      return FALSE;
    }
  return TRUE;
}

static void
fill_point (const KsArchInfo       *arch,
            const KsOccupancyInput *in,
            uint32_t                x,
            KsOccupancyPoint       *point)
{
  KsOccupancyResult r;

  point->x = x;
  if (ks_occupancy_compute (arch, in, &r, NULL))
    {
      point->active_blocks_per_sm = r.active_blocks_per_sm;
      point->active_warps_per_sm = r.active_warps_per_sm;
      point->occupancy = r.occupancy;
    }
  else
    {
      point->active_blocks_per_sm = 0;
      point->active_warps_per_sm = 0;
      point->occupancy = 0;
    }
}

/**
 * ks_occupancy_curves_new:
 *
 * Occupancy as one input varies and the others stay as given: what the
 * occupancy chart draws.  Points where the kernel cannot launch are 0.
 *
 * Returns: (transfer full): the curves
 */
KsOccupancyCurves *
ks_occupancy_curves_new (const KsArchInfo       *arch,
                         const KsOccupancyInput *input)
{
  KsOccupancyCurves *c;
  KsOccupancyInput in;
  uint32_t unit;

  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (input != NULL, NULL);

  c = g_new0 (KsOccupancyCurves, 1);

  c->n_block_size = arch->max_threads_per_block / arch->warp_size;
  c->block_size = g_new0 (KsOccupancyPoint, c->n_block_size);
  for (uint32_t i = 0; i < c->n_block_size; i++)
    {
      in = *input;
      in.block_size = (i + 1) * arch->warp_size;
      fill_point (arch, &in, in.block_size, &c->block_size[i]);
    }

  c->n_registers = arch->max_registers_per_thread;
  c->registers = g_new0 (KsOccupancyPoint, c->n_registers);
  for (uint32_t i = 0; i < c->n_registers; i++)
    {
      in = *input;
      in.registers_per_thread = i + 1;
      fill_point (arch, &in, i + 1, &c->registers[i]);
    }

  /* The total per block, all of it dynamic so the static limit does not cut the curve short. */
  unit = arch->shared_allocation_unit_bytes;
  c->n_shared_memory = arch->shared_per_block_optin_bytes / unit + 1;
  c->shared_memory = g_new0 (KsOccupancyPoint, c->n_shared_memory);
  for (uint32_t i = 0; i < c->n_shared_memory; i++)
    {
      in = *input;
      in.static_shared_bytes = 0;
      in.dynamic_shared_bytes = i * unit;
      fill_point (arch, &in, i * unit, &c->shared_memory[i]);
    }

  return c;
}

void
ks_occupancy_curves_free (KsOccupancyCurves *curves)
{
  if (curves == NULL)
    return;
  g_free (curves->block_size);
  g_free (curves->registers);
  g_free (curves->shared_memory);
  g_free (curves);
}
