/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hints.c: rules that turn measurements into advice.
 *
 * Each rule reads the per-line statistics of a finished run (or the
 * occupancy and resources of the kernel), decides whether something costs
 * enough to mention, and says what, with the figures and a concrete
 * change.  Thresholds are stated where they are applied. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

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

static void
line_source (const KsPtxModule *m,
             uint32_t           ptx_line,
             uint32_t          *file,
             uint32_t          *line)
{
  int64_t i = ks_ptx_module_insn_at_line (m, ptx_line);

  *file = *line = 0;
  /* the CUDA line of the first instruction on that PTX line */
  if (i >= 0)
    ks_ptx_insn_source (m, &m->insns[i], file, line);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

  return x < y ? -1 : x > y;
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
  line_source (m, ptx_line, &h->cuda_file, &h->cuda_line);
  g_ptr_array_add (hints, h);
  return h;
}

static gboolean
is_power_of_two (uint32_t x)
{
  return x != 0 && (x & (x - 1)) == 0;
}

/* The rules that read a PTX line's statistics.  Each says whether the line
 * has the problem and how badly; a CUDA line that the compiler spread over
 * several PTX lines (an unrolled loop) gets one hint, as severe as its
 * worst PTX line, with the CUDA line's figures: the worst case and the
 * average are the line's, not those of its first PTX line. */
typedef enum
{
  LINE_RULE_BANKS = 0,
  LINE_RULE_COALESCING,
  LINE_RULE_DIVERGENCE,
  N_LINE_RULES
} LineRule;

static const char *const line_rule_category[N_LINE_RULES] = {
  [LINE_RULE_BANKS] = "shared-memory",
  [LINE_RULE_COALESCING] = "coalescing",
  [LINE_RULE_DIVERGENCE] = "divergence",
};

/* -1 when the line does not have the problem, else the severity.
 *
 * Bank conflicts: any request that took more passes than it needed;
 * critical at 4 times the passes or more (a quarter of the bandwidth or
 * less), a warning below.  Uncoalesced global access: more sectors than the
 * bytes need, a warning at 1.5 times the ideal or more, critical at 4 times.
 * Divergence: a branch that splits warps in more than a tenth of its
 * executions, a warning from half of them. */
static int
line_rule_severity (LineRule              rule,
                    const KsSimInsnStats *s)
{
  double ratio;

  switch (rule)
    {
    case LINE_RULE_BANKS:
      if (s->smem_requests == 0 || s->smem_wavefronts <= s->smem_ideal_wavefronts)
        return -1;
      ratio = (double) s->smem_wavefronts / MAX (s->smem_ideal_wavefronts, 1);
      return ratio >= 4 ? KS_HINT_CRITICAL : KS_HINT_WARNING;
    case LINE_RULE_COALESCING:
      if (s->gmem_requests == 0 || s->gmem_ideal_sectors == 0)
        return -1;
      ratio = (double) s->gmem_sectors / s->gmem_ideal_sectors;
      if (ratio < 1.5)
        return -1;
      return ratio >= 4 ? KS_HINT_CRITICAL : KS_HINT_WARNING;
    case LINE_RULE_DIVERGENCE:
      if (s->divergent == 0 || s->warp_executions == 0)
        return -1;
      ratio = (double) s->divergent / s->warp_executions;
      if (ratio < 0.1)
        return -1;
      return ratio >= 0.5 ? KS_HINT_WARNING : KS_HINT_INFO;
    default:
      g_assert_not_reached ();
    }
}

/* One rule's finding on one CUDA line (or one PTX line, without .loc) */
typedef struct
{
  LineRule rule;
  uint32_t cuda_file, cuda_line;
  uint32_t ptx_line;            /* the most severe of its PTX lines, then the first */
  KsHintSeverity severity;
  KsSimInsnStats stats;         /* summed over the PTX lines that have the problem */
  GArray *more;                 /* uint32_t: the other PTX lines */
} Finding;

static void
finding_free (gpointer data)
{
  Finding *f = data;

  g_array_unref (f->more);
  g_free (f);
}

/* The figures the line rules print, summed the way a CUDA line sums its
 * PTX lines: counts add up, the worst degree and the split range widen */
static void
add_stats (KsSimInsnStats       *to,
           const KsSimInsnStats *from)
{
  if (from->divergent > 0 && from->split_taken_max > 0)
    {
      if (to->split_taken_max == 0)
        {
          to->split_taken_min = from->split_taken_min;
          to->split_taken_max = from->split_taken_max;
          to->split_other_min = from->split_other_min;
          to->split_other_max = from->split_other_max;
        }
      else
        {
          to->split_taken_min = MIN (to->split_taken_min, from->split_taken_min);
          to->split_taken_max = MAX (to->split_taken_max, from->split_taken_max);
          to->split_other_min = MIN (to->split_other_min, from->split_other_min);
          to->split_other_max = MAX (to->split_other_max, from->split_other_max);
        }
    }
  to->warp_executions += from->warp_executions;
  to->divergent += from->divergent;
  to->smem_requests += from->smem_requests;
  to->smem_wavefronts += from->smem_wavefronts;
  to->smem_ideal_wavefronts += from->smem_ideal_wavefronts;
  to->smem_worst_degree = MAX (to->smem_worst_degree, from->smem_worst_degree);
  to->gmem_requests += from->gmem_requests;
  to->gmem_sectors += from->gmem_sectors;
  to->gmem_ideal_sectors += from->gmem_ideal_sectors;
  to->gmem_requested_bytes += from->gmem_requested_bytes;
  to->gmem_used_bytes += from->gmem_used_bytes;
}

/* A key of a CUDA line, and of a rule's finding on it */
static guint64
cuda_key (uint32_t file,
          uint32_t line)
{
  return (guint64) file << 32 | line;
}

static void
find_line_problems (const KsHintInput *in,
                    GArray            *lines,
                    GPtrArray         *findings)
{
  g_autofree uint32_t *files = g_new0 (uint32_t, MAX (lines->len, 1));
  g_autofree uint32_t *cuda = g_new0 (uint32_t, MAX (lines->len, 1));
  /* (rule, CUDA line) -> its finding; CUDA line -> its figures: hash
   * tables, so that a kernel of a million lines costs a million steps */
  GHashTable *by_line[N_LINE_RULES] = { NULL };
  g_autoptr(GHashTable) line_stats = NULL;

  for (guint rule = 0; rule < N_LINE_RULES; rule++)
    by_line[rule] = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < lines->len; i++)
    line_source (in->module, g_array_index (lines, KsSimLineStats, i).line, &files[i], &cuda[i]);
  for (guint i = 0; i < lines->len; i++)
    {
      const KsSimLineStats *ls = &g_array_index (lines, KsSimLineStats, i);
      uint32_t file = files[i], line = cuda[i];
      gint64 key = (gint64) cuda_key (file, line);

      for (guint rule = 0; rule < N_LINE_RULES; rule++)
        {
          int severity = line_rule_severity (rule, &ls->stats);
          Finding *f = NULL;

          if (severity < 0)
            continue;
          if (line != 0)
            f = g_hash_table_lookup (by_line[rule], &key);
          if (f == NULL)
            {
              f = g_new0 (Finding, 1);
              f->rule = rule;
              f->cuda_file = file;
              f->cuda_line = line;
              f->ptx_line = ls->line;
              f->severity = severity;
              f->more = g_array_new (FALSE, FALSE, sizeof (uint32_t));
              g_ptr_array_add (findings, f);
              if (line != 0)
                g_hash_table_insert (by_line[rule], g_memdup2 (&key, sizeof key), f);
            }
          else if ((KsHintSeverity) severity > f->severity)
            {
              g_array_append_val (f->more, f->ptx_line);
              f->ptx_line = ls->line;
              f->severity = severity;
            }
          else
            g_array_append_val (f->more, ls->line);
          add_stats (&f->stats, &ls->stats);
        }
    }

  /* A memory hint's figures are its CUDA line's, as the heat gutter shows
   * them: every shared (or global) request of the line, those of PTX lines
   * without the problem too, so that the average does not depend on how
   * the compiler unrolled a loop.  A divergence hint's stay those of the
   * branches that split: the line's other instructions are no branches. */
  line_stats = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  for (guint j = 0; j < findings->len; j++)
    {
      Finding *f = findings->pdata[j];
      gint64 key = (gint64) cuda_key (f->cuda_file, f->cuda_line);

      if (f->cuda_line != 0 && f->rule != LINE_RULE_DIVERGENCE
          && !g_hash_table_contains (line_stats, &key))
        g_hash_table_insert (line_stats, g_memdup2 (&key, sizeof key), g_new0 (KsSimInsnStats, 1));
    }
  for (guint i = 0; i < lines->len && g_hash_table_size (line_stats) > 0; i++)
    {
      gint64 key = (gint64) cuda_key (files[i], cuda[i]);
      KsSimInsnStats *sum = cuda[i] != 0 ? g_hash_table_lookup (line_stats, &key) : NULL;

      if (sum != NULL)
        add_stats (sum, &g_array_index (lines, KsSimLineStats, i).stats);
    }
  for (guint j = 0; j < findings->len; j++)
    {
      Finding *f = findings->pdata[j];
      gint64 key = (gint64) cuda_key (f->cuda_file, f->cuda_line);

      if (f->cuda_line == 0 || f->rule == LINE_RULE_DIVERGENCE)
        continue;
      f->stats = *(const KsSimInsnStats *) g_hash_table_lookup (line_stats, &key);
    }
  for (guint rule = 0; rule < N_LINE_RULES; rule++)
    g_hash_table_unref (by_line[rule]);
}

static KsHint *
finding_hint (const Finding     *f,
              char              *message,
              char              *detail,
              char              *suggestion)
{
  KsHint *h = g_new0 (KsHint, 1);

  h->severity = f->severity;
  h->category = line_rule_category[f->rule];
  h->message = message;
  h->detail = detail;
  h->suggestion = suggestion;
  h->ptx_line = f->ptx_line;
  h->cuda_file = f->cuda_file;
  h->cuda_line = f->cuda_line;
  return h;
}

static KsHint *
bank_conflict_hint (const Finding *f)
{
  const KsSimInsnStats *s = &f->stats;
  /* a request of degree n takes n times the passes it needs: the average
   * degree is the passes over the passes needed */
  double average = (double) s->smem_wavefronts / MAX (s->smem_ideal_wavefronts, 1);
  g_autofree char *avg = ks_format_figure (average);
  g_autofree char *per = ks_format_figure ((double) s->smem_wavefronts / s->smem_requests);
  g_autofree char *ideal = ks_format_figure ((double) s->smem_ideal_wavefronts / s->smem_requests);
  g_autofree char *extra = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                            s->smem_wavefronts - s->smem_ideal_wavefronts);
  g_autofree char *requests = g_strdup_printf ("%" G_GUINT64_FORMAT, s->smem_requests);
  g_autofree char *worst = ks_format_figure (s->smem_worst_degree);
  char *message;

  /* "32-way, 32-way on average" says it twice */
  if (g_str_equal (avg, worst))
    /* TRANSLATORS: %u is the number of lanes' words one bank serves in turn */
    message = g_strdup_printf (_("%u-way shared-memory bank conflict"), s->smem_worst_degree);
  else
    /* TRANSLATORS: "up to 16-way, 4-way on average" */
    message = g_strdup_printf (_("Shared-memory bank conflicts up to %u-way, %s-way on average"),
                               s->smem_worst_degree, avg);
  return finding_hint (f, message,
                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                     "%s wavefronts per request where %s would do; "
                                                     "%s extra wavefronts over %s request",
                                                     "%s wavefronts per request where %s would do; "
                                                     "%s extra wavefronts over %s requests",
                                                     s->smem_requests),
                                        per, ideal, extra, requests),
                       is_power_of_two (s->smem_worst_degree)
                       ? g_strdup (_("Lanes hit one bank with a stride that is a multiple of 32 "
                                     "words: pad each row of the shared array by one element "
                                     "(for example [32][33] instead of [32][32]) or swizzle the "
                                     "index"))
                       : g_strdup (_("Arrange the shared array so that the 32 lanes of a warp "
                                     "touch 32 different banks (4-byte words whose index differs "
                                     "modulo 32)")));
}

static KsHint *
coalescing_hint (const Finding *f)
{
  const KsSimInsnStats *s = &f->stats;
  g_autofree char *per = ks_format_figure ((double) s->gmem_sectors / s->gmem_requests);
  g_autofree char *ideal = ks_format_figure ((double) s->gmem_ideal_sectors / s->gmem_requests);
  g_autofree char *sectors = g_strdup_printf ("%" G_GUINT64_FORMAT, s->gmem_sectors);
  g_autofree char *used = g_strdup_printf ("%" G_GUINT64_FORMAT, s->gmem_used_bytes);
  /* the distinct bytes the lanes asked for, of the bytes the sectors moved:
   * a broadcast's lanes share their bytes and count them once */
  g_autofree char *pct = ks_format_figure (100.0 * s->gmem_used_bytes / (32.0 * s->gmem_sectors));

  return finding_hint (f,
                       g_strdup_printf (_("Uncoalesced global memory access: %s sectors per "
                                          "request, %s needed"), per, ideal),
                       /* TRANSLATORS: "32 sectors moved for 128 bytes used: 12.5 % of ..." */
                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                     "%s sector moved for %s bytes used: %s %% of "
                                                     "the bytes moved are used",
                                                     "%s sectors moved for %s bytes used: %s %% of "
                                                     "the bytes moved are used",
                                                     s->gmem_sectors),
                                        sectors, used, pct),
                       g_strdup (_("Make consecutive threads read consecutive addresses (index "
                                   "with threadIdx.x in the fastest-moving dimension), or stage "
                                   "the data through shared memory")));
}

static KsHint *
divergence_hint (const Finding *f)
{
  const KsSimInsnStats *s = &f->stats;
  g_autofree char *pct = ks_format_figure (100.0 * s->divergent / s->warp_executions);
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, s->divergent);
  g_autofree char *of = g_strdup_printf ("%" G_GUINT64_FORMAT, s->warp_executions);
  g_autofree char *executions = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%s of %s execution diverged",
                                                              "%s of %s executions diverged",
                                                              s->warp_executions), n, of);
  char *detail;

  if (s->split_taken_max == 0)
    detail = g_steal_pointer (&executions);
  else if (s->split_taken_min == s->split_taken_max && s->split_other_min == s->split_other_max)
    /* TRANSLATORS: "…: the warp split into 16 and 16 lanes (branch taken, not taken)" */
    detail = g_strdup_printf (_("%s: the warp split into %u and %u lanes (branch taken, not "
                                "taken)"), executions, s->split_taken_min, s->split_other_min);
  else
    detail = g_strdup_printf (_("%s: %u to %u lanes took the branch, %u to %u did not"),
                              executions, s->split_taken_min, s->split_taken_max,
                              s->split_other_min, s->split_other_max);
  return finding_hint (f,
                       g_strdup_printf (_("Divergent branch: warps split here in %s %% of its "
                                          "executions"), pct),
                       detail,
                       g_strdup (_("Make the condition the same for the 32 threads of a warp "
                                   "(branch on warp-sized groups, sort the work, or compute both "
                                   "sides and select)")));
}

/* Adds "; the same on N more PTX lines of this CUDA line (a, b, ...)" */
static void
name_more_lines (KsHint *h,
                 GArray *more)
{
  g_autoptr(GString) also = g_string_new (NULL);
  char *detail;

  if (more->len == 0)
    return;
  g_array_sort (more, (GCompareFunc) compare_u32);
  for (guint i = 0; i < MIN (more->len, 8); i++)
    g_string_append_printf (also, "%s%u", i ? ", " : "", g_array_index (more, uint32_t, i));
  if (more->len > 8)
    g_string_append (also, ", ...");
  detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%s; the same on %u more PTX line of this CUDA line (%s)",
                                         "%s; the same on %u more PTX lines of this CUDA line (%s)",
                                         more->len),
                            h->detail, more->len, also->str);
  g_free (h->detail);
  h->detail = detail;
}

static void
rule_lines (const KsHintInput *in,
            GArray            *lines,
            GPtrArray         *hints)
{
  g_autoptr(GPtrArray) findings = g_ptr_array_new_with_free_func (finding_free);

  find_line_problems (in, lines, findings);
  for (guint i = 0; i < findings->len; i++)
    {
      const Finding *f = findings->pdata[i];
      KsHint *h;

      switch (f->rule)
        {
        case LINE_RULE_BANKS: h = bank_conflict_hint (f); break;
        case LINE_RULE_COALESCING: h = coalescing_hint (f); break;
        default: h = divergence_hint (f); break;
        }
      name_more_lines (h, f->more);
      g_ptr_array_add (hints, h);
    }
}

static void
rule_occupancy (const KsHintInput *in,
                GPtrArray         *hints)
{
  const KsOccupancyResult *o = in->occupancy;
  g_autofree char *pct = NULL;
  const char *advice;

  if (o == NULL || o->occupancy >= 0.5)
    return;
  switch (o->limiter)
    {
    case KS_OCCUPANCY_LIMIT_REGISTERS:
      advice = _("Use fewer registers per thread: __launch_bounds__, -maxrregcount, or less live "
                 "state across loops");
      break;
    case KS_OCCUPANCY_LIMIT_SHARED_MEMORY:
      advice = _("Use less shared memory per block, or fewer threads share a larger block");
      break;
    case KS_OCCUPANCY_LIMIT_BLOCKS:
      advice = _("Use larger blocks: the SM runs out of block slots before warp slots");
      break;
    default:
      advice = _("Use larger blocks, or more of them");
      break;
    }
  pct = ks_format_figure (o->occupancy * 100);
  add_hint (hints, in->module, o->occupancy < 0.25 ? KS_HINT_WARNING : KS_HINT_INFO, "occupancy", 0,
            /* TRANSLATORS: "Low occupancy: 37.5 %, limited by shared memory" */
            g_strdup_printf (_("Low occupancy: %s %%, limited by %s"), pct,
                             ks_occupancy_limiter_label (o->limiter)),
            /* TRANSLATORS: "3 blocks and 24 of 64 warps per SM" */
            g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u block and %u of %u warps per SM",
                                          "%u blocks and %u of %u warps per SM",
                                          o->active_blocks_per_sm),
                             o->active_blocks_per_sm, o->active_warps_per_sm, o->max_warps_per_sm),
            g_strdup (advice));
}

static const char *
resources_source_label (KsResourcesSource source)
{
  switch (source)
    {
    case KS_RESOURCES_SOURCE_PTXAS: return _("from ptxas");
    case KS_RESOURCES_SOURCE_RESOURCE_USAGE: return _("from the resource usage listing");
    case KS_RESOURCES_SOURCE_ESTIMATE: return _("estimated");
    default: return _("source unknown");
    }
}

static void
rule_spills (const KsHintInput *in,
             GPtrArray         *hints)
{
  const KsKernelResources *r = in->resources;

  if (r == NULL || (r->spill_store_bytes == 0 && r->spill_load_bytes == 0))
    return;
  add_hint (hints, in->module, KS_HINT_WARNING, "spills", 0,
            g_strdup_printf (_("Registers spill to local memory (%u bytes stored, %u loaded)"),
                             r->spill_store_bytes, r->spill_load_bytes),
            g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u register per thread (%s)",
                                          "%u registers per thread (%s)", r->registers),
                             r->registers, resources_source_label (r->source)),
            g_strdup (_("Reduce the values live at once, or allow more registers per thread "
                        "(__launch_bounds__ with fewer threads)")));
}

static const char *
hazard_label (KsHazardKind kind)
{
  switch (kind)
    {
    case KS_HAZARD_RAW: return _("read after write");
    case KS_HAZARD_WAR: return _("write after read");
    case KS_HAZARD_WAW: return _("write after write");
    default: return _("hazard");
    }
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
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, hz[i].count);

      /* the first access is a cp.async not yet waited for (or waited for
       * with no barrier after the wait) */
      if (first->opcode == KS_PTX_OPC_CP && (first->flags & KS_PTX_FLAG_ASYNC))
        {
          add_hint (hints, in->module, KS_HINT_CRITICAL, "race", second->line,
                    g_strdup_printf (_("Shared-memory race (%s) with the cp.async at line %u"),
                                     hazard_label (hz[i].kind), first->line),
                    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                  "threads %u and %u of block [%u,%u,%u] touch "
                                                  "offset %u while the copy may still be in flight "
                                                  "(%s time)",
                                                  "threads %u and %u of block [%u,%u,%u] touch "
                                                  "offset %u while the copy may still be in flight "
                                                  "(%s times)",
                                                  hz[i].count),
                                     hz[i].first_thread, hz[i].second_thread, hz[i].block[0],
                                     hz[i].block[1], hz[i].block[2], hz[i].address, count),
                    g_strdup (_("Wait for the copy's group (cp.async.wait_group, "
                                "cuda::pipeline::consumer_wait) and then __syncthreads() before "
                                "other threads use its bytes, and start no copy into a buffer "
                                "that a copy in flight or a reader still uses")));
          continue;
        }
      add_hint (hints, in->module, KS_HINT_CRITICAL, "race", second->line,
                g_strdup_printf (_("Shared-memory race (%s) with line %u"),
                                 hazard_label (hz[i].kind), first->line),
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "threads %u and %u of block [%u,%u,%u] touch offset "
                                              "%u with no barrier between them (%s time)",
                                              "threads %u and %u of block [%u,%u,%u] touch offset "
                                              "%u with no barrier between them (%s times)",
                                              hz[i].count),
                                 hz[i].first_thread, hz[i].second_thread, hz[i].block[0],
                                 hz[i].block[1], hz[i].block[2], hz[i].address, count),
                g_strdup (_("Put __syncthreads() between the two accesses, or __syncwarp() when "
                            "both threads are in one warp")));
    }
}

/* The last wave: when blocks / (blocks per SM x SMs) leaves a last wave
 * less than half full, a tenth or more of the run is spent on it. */
static void
rule_tail (const KsHintInput *in,
           GPtrArray         *hints)
{
  const KsOccupancyResult *o = in->occupancy;
  g_autofree char *blocks = NULL;
  g_autofree char *pct = NULL;
  double waves, frac;

  if (o == NULL || in->sm_count == 0 || o->active_blocks_per_sm == 0 || in->n_blocks == 0)
    return;
  waves = (double) in->n_blocks / ((double) o->active_blocks_per_sm * in->sm_count);
  frac = waves - floor (waves);
  if (waves < 1.0 || frac == 0.0 || frac >= 0.5 || waves > 10.0)
    return;
  blocks = g_strdup_printf ("%" G_GUINT64_FORMAT, in->n_blocks);
  pct = ks_format_figure (frac * 100);
  add_hint (hints, in->module, KS_HINT_INFO, "tail", 0,
            g_strdup_printf (_("Partial last wave: %.2f waves of blocks per SM"), waves),
            /* TRANSLATORS: "300 blocks, 2 per SM on 108 SMs: the last wave keeps the GPU 38.9 %
             * busy" */
            g_strdup_printf (_("%s blocks, %u per SM on %u SMs: the last wave keeps the GPU %s %% "
                               "busy"), blocks, o->active_blocks_per_sm, in->sm_count, pct),
            g_strdup (_("Change the grid so that it fills whole waves, or give each block more "
                        "work")));
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

/* The pipes in words, for "the ... pipe" */
static const char *
pipe_label (KsPipe pipe)
{
  switch (pipe)
    {
    case KS_PIPE_INT: return _("integer");
    case KS_PIPE_FP32: return _("FP32");
    case KS_PIPE_FP64: return _("FP64");
    case KS_PIPE_SFU: return _("special-function");
    case KS_PIPE_MEM: return _("load/store");
    case KS_PIPE_SHFL: return _("shuffle");
    case KS_PIPE_TENSOR: return _("tensor-core");
    default: return _("control");
    }
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
              g_strdup_printf (_("Memory-bound: DRAM traffic alone takes %.2f of the ~%.2f µs "
                                 "(model)"), t->memory_floor_us, t->estimated_duration_us),
              g_strdup_printf (_("%.1f MB from and to DRAM, %.2f flops per byte"),
                               t->dram_bytes / 1e6, t->arithmetic_intensity),
              g_strdup (_("Move fewer bytes: coalesce accesses, reuse data through shared memory "
                          "or registers, use narrower types")));
  else if (t->bound == KS_BOUND_COMPUTE)
    {
      g_autofree char *pct = NULL;
      guint busiest = 0;
      const char *advice;

      for (guint p = 1; p < KS_N_PIPES; p++)
        if (p != KS_PIPE_CTRL && t->pipe_busy[p] > t->pipe_busy[busiest])
          busiest = p;
      switch (busiest)
        {
        case KS_PIPE_MEM:
        case KS_PIPE_SHFL:
          advice = _("Move fewer values through the load/store pipe: load wider (float2/float4), "
                     "and reuse each loaded value for more arithmetic (register tiling)");
          break;
        case KS_PIPE_FP64:
          advice = _("Use FP32 where the accuracy allows: this GPU does far fewer FP64 "
                     "operations");
          break;
        case KS_PIPE_SFU:
          advice = _("Call fewer transcendental functions (sin, exp, division): hoist them out "
                     "of loops, or use algebra that needs fewer");
          break;
        case KS_PIPE_INT:
          advice = _("Do less index arithmetic: hoist it out of loops, use 32-bit indices, let "
                     "the loop step a pointer instead of recomputing it");
          break;
        default:
          advice = _("Do fewer instructions per result: FMA, intrinsics such as __expf where "
                     "accuracy allows, half precision or tensor cores");
          break;
        }
      pct = ks_format_figure (100.0 * t->pipe_busy[busiest]
                              / MAX ((double) t->cycles * t->sub_partitions, 1.0));
      add_hint (hints, in->module, KS_HINT_INFO, "bound", 0,
                /* TRANSLATORS: "Compute-bound: the FP32 pipe is busy 87.5 % of the time" */
                g_strdup_printf (_("Compute-bound: the %s pipe is busy %s %% of the time (model)"),
                                 pipe_label ((KsPipe) busiest), pct),
                /* (the floor of the grid's floating-point operations at the
                 * GPU's peak: 0 for a kernel of integer work) */
                g_strdup_printf (_("floating-point floor %.2f µs, memory floor %.2f µs, model "
                                   "%.2f µs"),
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
  g_autofree char *pct = NULL;
  g_autofree char *n = NULL;
  uint64_t cycles;
  uint32_t line;

  if (f < 0.25)
    return;
  line = worst_line (in, KS_STALL_BARRIER, &cycles);
  pct = ks_format_figure (f * 100);
  n = g_strdup_printf ("%" G_GUINT64_FORMAT, cycles);
  add_hint (hints, in->module, f >= 0.5 ? KS_HINT_WARNING : KS_HINT_INFO, "barrier", line,
            g_strdup_printf (_("Warps spend %s %% of their time waiting at barriers (model)"),
                             pct),
            g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s warp-cycle at this barrier",
                                          "%s warp-cycles at this barrier", cycles), n),
            g_strdup (_("Balance the work before the barrier across warps, or run more blocks "
                        "per SM so other blocks fill the wait")));
}

/* Global-memory waits with too few warps to hide them */
static void
rule_latency (const KsHintInput *in,
              GPtrArray         *hints)
{
  const KsTiming *t = in->timing;
  double f = stall_fraction (t, KS_STALL_LONG_SCOREBOARD);
  g_autofree char *pct = NULL;
  g_autofree char *n = NULL;
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
    advice = _("Launch more blocks: the grid gives each SM fewer blocks than fit, so nothing "
               "else runs while warps wait");
  else if (warps < max / 2)
    advice = _("Raise occupancy (see the occupancy hint), or start independent loads earlier "
               "so several are in flight per thread");
  else
    advice = _("Start independent loads earlier (unroll, prefetch into registers), so several "
               "are in flight per warp");
  line = worst_line (in, KS_STALL_LONG_SCOREBOARD, &cycles);
  pct = ks_format_figure (f * 100);
  n = g_strdup_printf ("%" G_GUINT64_FORMAT, cycles);
  add_hint (hints, in->module, KS_HINT_WARNING, "latency", line,
            g_strdup_printf (_("Warps wait on global memory %s %% of the time, and the SM has too "
                               "little other work to hide it (model)"), pct),
            /* TRANSLATORS: "24 of 64 warps resident per SM; 1200 warp-cycles waiting here;
             * IPC 0.35" (instructions per cycle) */
            g_strdup_printf (_("%u of %u warps resident per SM; %s warp-cycles waiting here; "
                               "IPC %.2f"), warps, max, n, t->ipc),
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
 * lines it covers.  The line rules sum their figures per CUDA line already
 * (rule_lines); this is for the others (races, stalls), where the kept hint
 * is the most severe (the array is sorted). */
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
          char *detail;

          if (n > 8)
            g_string_append (also, ", ...");
          detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%s; the same on %u more PTX line of this CUDA "
                                                 "line (%s)",
                                                 "%s; the same on %u more PTX lines of this CUDA "
                                                 "line (%s)", n),
                                    h->detail, n, also->str);

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
      rule_lines (in, lines, hints);
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
