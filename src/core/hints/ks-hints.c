/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hints.c: rules that turn measurements into advice.
 *
 * Each rule reads the per-line statistics of a finished run (or the
 * occupancy and resources of the kernel), decides whether something costs
 * enough to mention, and says what, with the figures and a concrete
 * change.  Thresholds are stated where they are applied. */

#include <math.h>

#include "ks-hints.h"

const char *
ks_hint_severity_name (KsHintSeverity severity)
{
  switch (severity)
    {
    case KS_HINT_CRITICAL: return "critical";
    case KS_HINT_WARNING: return "warning";
    default: return "info";
    }
}

static void
hint_free (gpointer data)
{
  KsHint *h = data;

  g_free (h->message);
  g_free (h->detail);
  g_free (h->suggestion);
  g_free (h);
}

static KsHint *
add_hint (GPtrArray         *hints,
          const KsPtxModule *m,
          KsHintSeverity     severity,
          const char        *category,
          uint32_t           ptx_line,
          char              *message,
          char              *detail,
          char              *suggestion)
{
  KsHint *h = g_new0 (KsHint, 1);

  h->severity = severity;
  h->category = category;
  h->message = message;
  h->detail = detail;
  h->suggestion = suggestion;
  h->ptx_line = ptx_line;
  /* the CUDA line of the first instruction on that PTX line */
  for (uint32_t i = 0; ptx_line != 0 && i < m->n_insns; i++)
    if (m->insns[i].line == ptx_line)
      {
        ks_ptx_insn_source (m, &m->insns[i], &h->cuda_file, &h->cuda_line);
        break;
      }
  g_ptr_array_add (hints, h);
  return h;
}

static gboolean
is_power_of_two (uint32_t x)
{
  return x != 0 && (x & (x - 1)) == 0;
}

/* Shared-memory bank conflicts: any request that took more passes than it
 * needed.  Critical at 4 passes or more on average (a quarter of the
 * bandwidth or less), a warning below. */
static void
rule_bank_conflicts (const KsHintInput *in,
                     const KsSimLineStats *ls,
                     GPtrArray         *hints)
{
  const KsSimInsnStats *s = &ls->stats;
  double per_request, ideal;

  if (s->smem_requests == 0 || s->smem_wavefronts <= s->smem_ideal_wavefronts)
    return;
  per_request = (double) s->smem_wavefronts / s->smem_requests;
  ideal = (double) s->smem_ideal_wavefronts / s->smem_requests;
  add_hint (hints, in->module, per_request / ideal >= 4 ? KS_HINT_CRITICAL : KS_HINT_WARNING,
            "shared-memory", ls->line,
            g_strdup_printf ("%u-way shared-memory bank conflict", s->smem_worst_degree),
            g_strdup_printf ("%.1f wavefronts per request where %.1f would do; %" G_GUINT64_FORMAT
                             " extra wavefronts over %" G_GUINT64_FORMAT " requests",
                             per_request, ideal, s->smem_wavefronts - s->smem_ideal_wavefronts,
                             s->smem_requests),
            is_power_of_two (s->smem_worst_degree)
            ? g_strdup ("Lanes hit one bank with a stride that is a multiple of 32 words: pad each "
                        "row of the shared array by one element (for example [32][33] instead of "
                        "[32][32]) or swizzle the index")
            : g_strdup ("Arrange the shared array so that the 32 lanes of a warp touch 32 "
                        "different banks (4-byte words whose index differs modulo 32)"));
}

/* Uncoalesced global access: more sectors than the bytes need.  A warning
 * at 1.5 times the ideal or more, critical at 4 times. */
static void
rule_coalescing (const KsHintInput    *in,
                 const KsSimLineStats *ls,
                 GPtrArray            *hints)
{
  const KsSimInsnStats *s = &ls->stats;
  double ratio, efficiency;

  if (s->gmem_requests == 0 || s->gmem_ideal_sectors == 0)
    return;
  ratio = (double) s->gmem_sectors / s->gmem_ideal_sectors;
  if (ratio < 1.5)
    return;
  efficiency = (double) s->gmem_requested_bytes / (32.0 * s->gmem_sectors);
  add_hint (hints, in->module, ratio >= 4 ? KS_HINT_CRITICAL : KS_HINT_WARNING, "coalescing",
            ls->line,
            g_strdup_printf ("Uncoalesced global memory access: %.1f sectors per request, %.1f needed",
                             (double) s->gmem_sectors / s->gmem_requests,
                             (double) s->gmem_ideal_sectors / s->gmem_requests),
            g_strdup_printf ("%" G_GUINT64_FORMAT " sectors moved for %" G_GUINT64_FORMAT
                             " requested bytes: %.0f %% of the bytes moved are used",
                             s->gmem_sectors, s->gmem_requested_bytes, efficiency * 100),
            g_strdup ("Make consecutive threads read consecutive addresses (index with threadIdx.x "
                      "in the fastest-moving dimension), or stage the data through shared memory"));
}

/* Divergence: a branch that splits warps in more than a tenth of its
 * executions. */
static void
rule_divergence (const KsHintInput    *in,
                 const KsSimLineStats *ls,
                 GPtrArray            *hints)
{
  const KsSimInsnStats *s = &ls->stats;
  double fraction;

  if (s->divergent == 0 || s->warp_executions == 0)
    return;
  fraction = (double) s->divergent / s->warp_executions;
  if (fraction < 0.1)
    return;
  add_hint (hints, in->module, fraction >= 0.5 ? KS_HINT_WARNING : KS_HINT_INFO, "divergence",
            ls->line,
            g_strdup_printf ("Divergent branch: warps split here in %.0f %% of its executions",
                             fraction * 100),
            g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " executions diverged; "
                             "%.1f lanes were on the path on average",
                             s->divergent, s->warp_executions,
                             (double) s->active_lanes / s->warp_executions),
            g_strdup ("Make the condition the same for the 32 threads of a warp (branch on "
                      "warp-sized groups, sort the work, or compute both sides and select)"));
}

static void
rule_occupancy (const KsHintInput *in,
                GPtrArray         *hints)
{
  const KsOccupancyResult *o = in->occupancy;
  const char *limiter;
  const char *advice;

  if (o == NULL || o->occupancy >= 0.5)
    return;
  limiter = ks_occupancy_limiter_name (o->limiter);
  switch (o->limiter)
    {
    case KS_OCCUPANCY_LIMIT_REGISTERS:
      advice = "Use fewer registers per thread: __launch_bounds__, -maxrregcount, or less live "
               "state across loops";
      break;
    case KS_OCCUPANCY_LIMIT_SHARED_MEMORY:
      advice = "Use less shared memory per block, or fewer threads share a larger block";
      break;
    case KS_OCCUPANCY_LIMIT_BLOCKS:
      advice = "Use larger blocks: the SM runs out of block slots before warp slots";
      break;
    default:
      advice = "Use larger blocks, or more of them";
      break;
    }
  add_hint (hints, in->module, o->occupancy < 0.25 ? KS_HINT_WARNING : KS_HINT_INFO, "occupancy", 0,
            g_strdup_printf ("Low occupancy: %.0f %%, limited by %s", o->occupancy * 100, limiter),
            g_strdup_printf ("%u blocks and %u warps per SM of %u", o->active_blocks_per_sm,
                             o->active_warps_per_sm, o->max_warps_per_sm),
            g_strdup (advice));
}

static void
rule_spills (const KsHintInput *in,
             GPtrArray         *hints)
{
  const KsKernelResources *r = in->resources;

  if (r == NULL || (r->spill_store_bytes == 0 && r->spill_load_bytes == 0))
    return;
  add_hint (hints, in->module, KS_HINT_WARNING, "spills", 0,
            g_strdup_printf ("Registers spill to local memory (%u bytes stored, %u loaded)",
                             r->spill_store_bytes, r->spill_load_bytes),
            g_strdup_printf ("%u registers per thread (%s)", r->registers,
                             ks_resources_source_name (r->source)),
            g_strdup ("Reduce the values live at once, or allow more registers per thread "
                      "(__launch_bounds__ with fewer threads)"));
}

static void
rule_races (const KsHintInput *in,
            GPtrArray         *hints)
{
  uint32_t n = 0;
  const KsSimHazard *hz = ks_sim_get_hazards (in->sim, &n);

  for (uint32_t i = 0; i < n; i++)
    {
      const KsPtxInsn *first = &in->module->insns[hz[i].first_insn];
      const KsPtxInsn *second = &in->module->insns[hz[i].second_insn];

      add_hint (hints, in->module, KS_HINT_CRITICAL, "race", second->line,
                g_strdup_printf ("Shared-memory race (%s) with line %u",
                                 ks_sim_hazard_kind_name (hz[i].kind), first->line),
                g_strdup_printf ("threads %u and %u of block [%u,%u,%u] touch offset %u with no "
                                 "barrier between them (%" G_GUINT64_FORMAT " times)",
                                 hz[i].first_thread, hz[i].second_thread, hz[i].block[0],
                                 hz[i].block[1], hz[i].block[2], hz[i].address, hz[i].count),
                g_strdup ("Put __syncthreads() between the two accesses, or __syncwarp() when both "
                          "threads are in one warp"));
    }
}

/* The last wave: when blocks / (blocks per SM x SMs) leaves a last wave
 * less than half full, a tenth or more of the run is spent on it. */
static void
rule_tail (const KsHintInput *in,
           GPtrArray         *hints)
{
  const KsOccupancyResult *o = in->occupancy;
  double waves, frac;

  if (o == NULL || in->sm_count == 0 || o->active_blocks_per_sm == 0 || in->n_blocks == 0)
    return;
  waves = (double) in->n_blocks / ((double) o->active_blocks_per_sm * in->sm_count);
  frac = waves - floor (waves);
  if (waves < 1.0 || frac == 0.0 || frac >= 0.5 || waves > 10.0)
    return;
  add_hint (hints, in->module, KS_HINT_INFO, "tail", 0,
            g_strdup_printf ("Partial last wave: %.2f waves of blocks per SM", waves),
            g_strdup_printf ("%" G_GUINT64_FORMAT " blocks, %u per SM on %u SMs: the last wave "
                             "keeps the GPU %.0f %% busy",
                             in->n_blocks, o->active_blocks_per_sm, in->sm_count, frac * 100),
            g_strdup ("Change the grid so that it fills whole waves, or give each block more work"));
}

/* The timing model's stalls: the PTX line where warps spent the most
 * cycles held by `reason`, and those cycles.  For a barrier, the line of
 * the barrier (the warp's instruction before the wait). */
static uint32_t
worst_line (const KsHintInput *in,
            KsStallReason      reason,
            uint64_t          *cycles)
{
  const KsTiming *t = in->timing;
  g_autofree uint64_t *per = g_new0 (uint64_t, MAX (in->module->n_insns, 1));
  uint32_t best = G_MAXUINT32;

  for (uint32_t w = 0; w < t->n_warps; w++)
    for (uint64_t i = 0; i < t->warps[w].n_events; i++)
      {
        const KsTimingEvent *e = &t->events[t->warps[w].first_event + i];
        uint32_t insn = e->insn;

        if (e->stall != reason || e->ready <= e->stall_start)
          continue;
        if (reason == KS_STALL_BARRIER && i > 0)
          insn = t->events[t->warps[w].first_event + i - 1].insn;
        if (insn < in->module->n_insns)
          {
            per[insn] += e->ready - e->stall_start;
            if (best == G_MAXUINT32 || per[insn] > per[best])
              best = insn;
          }
      }
  *cycles = best != G_MAXUINT32 ? per[best] : 0;
  return best != G_MAXUINT32 ? in->module->insns[best].line : 0;
}

static double
stall_fraction (const KsTiming *t,
                KsStallReason   reason)
{
  uint64_t total = 0;

  for (guint r = 0; r < KS_N_STALLS; r++)
    total += t->stall_cycles[r];
  return total ? (double) t->stall_cycles[reason] / (double) total : 0;
}

/* What bounds the kernel, from the timing model and the roofline floors */
static void
rule_bound (const KsHintInput *in,
            GPtrArray         *hints)
{
  const KsTiming *t = in->timing;

  if (t->estimated_duration_us <= 0)
    return;
  if (t->bound == KS_BOUND_MEMORY)
    add_hint (hints, in->module, KS_HINT_INFO, "bound", 0,
              g_strdup_printf ("Memory-bound: DRAM traffic alone takes %.2f of the ~%.2f us "
                               "(model)", t->memory_floor_us, t->estimated_duration_us),
              g_strdup_printf ("%.1f MB from and to DRAM, %.2f flops per byte",
                               t->dram_bytes / 1e6, t->arithmetic_intensity),
              g_strdup ("Move fewer bytes: coalesce accesses, reuse data through shared memory "
                        "or registers, use narrower types"));
  else if (t->bound == KS_BOUND_COMPUTE)
    {
      guint busiest = 0;
      const char *advice;

      for (guint p = 1; p < KS_N_PIPES; p++)
        if (p != KS_PIPE_CTRL && t->pipe_busy[p] > t->pipe_busy[busiest])
          busiest = p;
      switch (busiest)
        {
        case KS_PIPE_MEM:
        case KS_PIPE_SHFL:
          advice = "Move fewer values through the load/store pipe: load wider (float2/float4), "
                   "and reuse each loaded value for more arithmetic (register tiling)";
          break;
        case KS_PIPE_FP64:
          advice = "Use FP32 where the accuracy allows: this GPU does far fewer FP64 operations";
          break;
        case KS_PIPE_SFU:
          advice = "Call fewer transcendental functions (sin, exp, division): hoist them out of "
                   "loops, or use algebra that needs fewer";
          break;
        case KS_PIPE_INT:
          advice = "Do less index arithmetic: hoist it out of loops, use 32-bit indices, let "
                   "the loop step a pointer instead of recomputing it";
          break;
        default:
          advice = "Do fewer instructions per result: FMA, intrinsics such as __expf where "
                   "accuracy allows, half precision or tensor cores";
          break;
        }
      add_hint (hints, in->module, KS_HINT_INFO, "bound", 0,
                g_strdup_printf ("Compute-bound: the %s pipe is busy %.0f %% of the time (model)",
                                 ks_pipe_name ((KsPipe) busiest),
                                 100.0 * t->pipe_busy[busiest]
                                 / MAX ((double) t->cycles * t->sub_partitions, 1.0)),
                g_strdup_printf ("compute floor %.2f us, memory floor %.2f us, model %.2f us",
                                 t->compute_floor_us, t->memory_floor_us, t->model_us),
                g_strdup (advice));
    }
}

/* Barrier waits over a quarter of the warps' time: the work before the
 * barrier is uneven, or there are too few warps to overlap it */
static void
rule_barrier_stalls (const KsHintInput *in,
                     GPtrArray         *hints)
{
  double f = stall_fraction (in->timing, KS_STALL_BARRIER);
  uint64_t cycles;
  uint32_t line;

  if (f < 0.25)
    return;
  line = worst_line (in, KS_STALL_BARRIER, &cycles);
  add_hint (hints, in->module, f >= 0.5 ? KS_HINT_WARNING : KS_HINT_INFO, "barrier", line,
            g_strdup_printf ("Warps spend %.0f %% of their time waiting at barriers (model)",
                             f * 100),
            g_strdup_printf ("%" G_GUINT64_FORMAT " warp-cycles at this barrier", cycles),
            g_strdup ("Balance the work before the barrier across warps, or run more blocks per "
                      "SM so other blocks fill the wait"));
}

/* Global-memory waits with too few warps to hide them */
static void
rule_latency (const KsHintInput *in,
              GPtrArray         *hints)
{
  const KsTiming *t = in->timing;
  double f = stall_fraction (t, KS_STALL_LONG_SCOREBOARD);
  uint64_t cycles;
  uint32_t line, warps, max = in->occupancy ? in->occupancy->max_warps_per_sm : 0;
  const char *advice;

  if (f < 0.4 || t->bound == KS_BOUND_MEMORY || t->ctas_modelled == 0)
    return;
  /* the warps really resident: a small grid gives an SM fewer blocks than
   * fit */
  warps = (uint32_t) (MIN ((uint64_t) t->blocks_per_sm, t->ctas_per_sm)
                      * (t->n_warps / t->ctas_modelled));
  if (t->ctas_per_sm < t->blocks_per_sm)
    advice = "Launch more blocks: the grid gives each SM fewer blocks than fit, so nothing "
             "else runs while warps wait";
  else if (warps < max / 2)
    advice = "Raise occupancy (see the occupancy hint), or start independent loads earlier "
             "so several are in flight per thread";
  else
    advice = "Start independent loads earlier (unroll, prefetch into registers), so several "
             "are in flight per warp";
  line = worst_line (in, KS_STALL_LONG_SCOREBOARD, &cycles);
  add_hint (hints, in->module, KS_HINT_WARNING, "latency", line,
            g_strdup_printf ("Warps wait on global memory %.0f %% of the time, and the SM has too "
                             "little other work to hide it (model)", f * 100),
            g_strdup_printf ("%u of %u warps resident per SM; %" G_GUINT64_FORMAT " warp-cycles "
                             "waiting here; IPC %.2f", warps, max, cycles, t->ipc),
            g_strdup (advice));
}

static int
compare_hints (gconstpointer a,
               gconstpointer b)
{
  const KsHint *x = *(const KsHint * const *) a, *y = *(const KsHint * const *) b;

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  return x->ptx_line < y->ptx_line ? -1 : x->ptx_line > y->ptx_line;
}

/* One hint per category and CUDA line: an unrolled loop puts one CUDA
 * line on many PTX lines, and a reader wants the line once, with the PTX
 * lines it covers.  The kept hint is the most severe (the array is sorted). */
static void
merge_by_cuda_line (GPtrArray *hints)
{
  for (guint i = 0; i < hints->len; i++)
    {
      KsHint *h = hints->pdata[i];
      g_autoptr(GString) also = NULL;
      guint n = 0;

      if (h->cuda_line == 0)
        continue;
      for (guint j = i + 1; j < hints->len;)
        {
          KsHint *o = hints->pdata[j];

          if (o->cuda_line == h->cuda_line && o->cuda_file == h->cuda_file
              && g_str_equal (o->category, h->category))
            {
              if (also == NULL)
                also = g_string_new (NULL);
              if (n < 8)
                g_string_append_printf (also, "%s%u", n ? ", " : "", o->ptx_line);
              n++;
              g_ptr_array_remove_index (hints, j);
            }
          else
            j++;
        }
      if (n > 0)
        {
          char *detail = g_strdup_printf ("%s; the same on %u more PTX line%s of this CUDA line "
                                          "(%s%s)", h->detail, n, n == 1 ? "" : "s", also->str,
                                          n > 8 ? ", ..." : "");

          g_free (h->detail);
          h->detail = detail;
        }
    }
}

GPtrArray *
ks_hints_compute (const KsHintInput *in)
{
  GPtrArray *hints = g_ptr_array_new_with_free_func (hint_free);
  g_autoptr(GArray) lines = NULL;

  g_return_val_if_fail (in != NULL && in->module != NULL, hints);

  /* Without a run, only what the kernel's resources and occupancy say */
  if (in->sim != NULL)
    {
      lines = ks_sim_ptx_line_stats (in->sim);
      for (guint i = 0; i < lines->len; i++)
        {
          const KsSimLineStats *ls = &g_array_index (lines, KsSimLineStats, i);

          rule_bank_conflicts (in, ls, hints);
          rule_coalescing (in, ls, hints);
          rule_divergence (in, ls, hints);
        }
      rule_races (in, hints);
    }
  if (in->timing != NULL)
    {
      rule_bound (in, hints);
      rule_barrier_stalls (in, hints);
      rule_latency (in, hints);
    }
  rule_occupancy (in, hints);
  rule_spills (in, hints);
  rule_tail (in, hints);
  g_ptr_array_sort (hints, compare_hints);
  merge_by_cuda_line (hints);
  return hints;
}
