/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-compare.c: two analyses, figure by figure (ks-compare.h). */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-compare.h"
#include "ks-file.h"
#include "ks-format.h"

/* ---- The line diff ------------------------------------------------------ */

typedef struct
{
  const char *start;
  uint32_t len;                 /* without trailing white space */
  guint hash;
} Line;

static GArray *
split_lines (const char *text)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  const char *p = text ? text : "";

  while (*p != '\0')
    {
      const char *end = strchr (p, '\n');
      Line l = { p, 0, 5381 };
      size_t n = end ? (size_t) (end - p) : strlen (p);

      while (n > 0 && g_ascii_isspace (p[n - 1]))
        n--;
      l.len = (uint32_t) n;
      for (size_t i = 0; i < n; i++)
        l.hash = l.hash * 33u + (guchar) p[i];
      g_array_append_val (lines, l);
      if (end == NULL)
        break;
      p = end + 1;
    }
  return lines;
}

static gboolean
line_equal (const Line *x,
            const Line *y)
{
  return x->hash == y->hash && x->len == y->len && memcmp (x->start, y->start, x->len) == 0;
}

static void
emit (GArray   *out,
      KsDiffOp  op,
      uint32_t  a_line,
      uint32_t  b_line)
{
  KsDiffLine d = { op, op == KS_DIFF_ADDED ? 0 : a_line, op == KS_DIFF_GONE ? 0 : b_line };

  g_array_append_val (out, d);
}

/* The most edits the diff looks for before it calls the rest replaced: its
 * trace takes about MAX_D^2 integers */
#define MAX_D 2000

/* Myers' greedy diff of a[0..n) and b[0..m) (line numbers from a0 + 1 and
 * b0 + 1), appended to out in order.  Returns FALSE (out untouched) when
 * the texts differ by more than MAX_D edits. */
static gboolean
myers (const Line *a,
       uint32_t    n,
       const Line *b,
       uint32_t    m,
       uint32_t    a0,
       uint32_t    b0,
       GArray     *out)
{
  int32_t max = (int32_t) MIN ((uint64_t) n + m, (uint64_t) MAX_D);
  g_autofree int32_t *v = g_new0 (int32_t, 2 * (size_t) max + 3);
  g_autoptr(GPtrArray) trace = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) rev = g_array_new (FALSE, FALSE, sizeof (KsDiffLine));
  int32_t off = max + 1, x, y, d, found = -1;

  for (d = 0; d <= max && found < 0; d++)
    {
      int32_t *snap = g_new (int32_t, 2 * (size_t) d + 3);

      memcpy (snap, v + off - d - 1, sizeof (int32_t) * (2 * (size_t) d + 3));
      g_ptr_array_add (trace, snap);
      for (int32_t k = -d; k <= d; k += 2)
        {
          if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
            x = v[off + k + 1];
          else
            x = v[off + k - 1] + 1;
          y = x - k;
          while (x < (int32_t) n && y < (int32_t) m && line_equal (&a[x], &b[y]))
            x++, y++;
          v[off + k] = x;
          if (x >= (int32_t) n && y >= (int32_t) m)
            {
              found = d;
              break;
            }
        }
    }
  if (found < 0)
    return FALSE;

  x = (int32_t) n;
  y = (int32_t) m;
  for (d = found; d >= 0; d--)
    {
      const int32_t *s = trace->pdata[d];       /* v[k] is s[k + d + 1] */
      int32_t k = x - y, prev_k, prev_x, prev_y;

      if (d == 0)
        {
          while (x > 0 && y > 0)
            emit (rev, KS_DIFF_SAME, a0 + (uint32_t) x--, b0 + (uint32_t) y--);
          break;
        }
      if (k == -d || (k != d && s[k - 1 + d + 1] < s[k + 1 + d + 1]))
        prev_k = k + 1;
      else
        prev_k = k - 1;
      prev_x = s[prev_k + d + 1];
      prev_y = prev_x - prev_k;
      while (x > prev_x && y > prev_y)
        emit (rev, KS_DIFF_SAME, a0 + (uint32_t) x--, b0 + (uint32_t) y--);
      if (x == prev_x)
        emit (rev, KS_DIFF_ADDED, 0, b0 + (uint32_t) y);
      else
        emit (rev, KS_DIFF_GONE, a0 + (uint32_t) x, 0);
      x = prev_x;
      y = prev_y;
    }
  /* reversed, and within a run of changes the lines of a first */
  for (guint i = rev->len; i > 0; )
    {
      guint j = i;

      while (j > 0 && g_array_index (rev, KsDiffLine, j - 1).op != KS_DIFF_SAME)
        j--;
      if (j == i)
        {
          g_array_append_val (out, g_array_index (rev, KsDiffLine, i - 1));
          i--;
          continue;
        }
      for (guint pass = 0; pass < 2; pass++)
        for (guint t = i; t > j; t--)
          {
            const KsDiffLine *e = &g_array_index (rev, KsDiffLine, t - 1);

            if ((pass == 0) == (e->op == KS_DIFF_GONE))
              g_array_append_val (out, *e);
          }
      i = j;
    }
  return TRUE;
}

GArray *
ks_line_diff (const char *a,
              const char *b)
{
  g_autoptr(GArray) la = split_lines (a);
  g_autoptr(GArray) lb = split_lines (b);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (KsDiffLine));
  const Line *pa = (const Line *) (void *) la->data, *pb = (const Line *) (void *) lb->data;
  uint32_t n = la->len, m = lb->len, pre = 0, suf = 0;

  while (pre < n && pre < m && line_equal (&pa[pre], &pb[pre]))
    pre++;
  while (suf < n - pre && suf < m - pre && line_equal (&pa[n - 1 - suf], &pb[m - 1 - suf]))
    suf++;
  for (uint32_t i = 0; i < pre; i++)
    emit (out, KS_DIFF_SAME, i + 1, i + 1);
  if (!myers (pa + pre, n - pre - suf, pb + pre, m - pre - suf, pre, pre, out))
    {
      /* too different to say how: all of a's middle went, b's came */
      for (uint32_t i = pre; i < n - suf; i++)
        emit (out, KS_DIFF_GONE, i + 1, 0);
      for (uint32_t i = pre; i < m - suf; i++)
        emit (out, KS_DIFF_ADDED, 0, i + 1);
    }
  for (uint32_t i = 0; i < suf; i++)
    emit (out, KS_DIFF_SAME, n - suf + i + 1, m - suf + i + 1);
  return out;
}

uint32_t
ks_line_diff_b_line (const GArray *diff,
                     uint32_t      a_line)
{
  for (guint i = 0; diff != NULL && a_line != 0 && i < diff->len; i++)
    {
      const KsDiffLine *d = &g_array_index (diff, KsDiffLine, i);

      if (d->a_line == a_line)
        return d->op == KS_DIFF_SAME ? d->b_line : 0;
    }
  return 0;
}

uint32_t
ks_line_diff_a_line (const GArray *diff,
                     uint32_t      b_line)
{
  for (guint i = 0; diff != NULL && b_line != 0 && i < diff->len; i++)
    {
      const KsDiffLine *d = &g_array_index (diff, KsDiffLine, i);

      if (d->b_line == b_line)
        return d->op == KS_DIFF_SAME ? d->a_line : 0;
    }
  return 0;
}

/* ---- The figures ---------------------------------------------------------- */

static const char *
bound_label (KsBound bound)
{
  switch (bound)
    {
    case KS_BOUND_MEMORY: return _("memory");
    case KS_BOUND_COMPUTE: return _("compute");
    case KS_BOUND_LATENCY:
    default:
      return _("latency");
    }
}

/* What one analysis shows, summed from its simulation and model */
typedef struct
{
  gboolean timing, occupancy, sim, whole;       /* which parts there are; whole: every block ran */
  double duration_us, sm_cycles, waves, dram_bytes;
  const char *bound, *bound_id;
  double occ;
  const char *limiter, *limiter_id;
  double registers, shared_bytes, spill_bytes;
  int resources_source;         /* KsResourcesSource, -1 without resources */
  double gmem_requests, gmem_sectors, smem_requests, smem_wavefronts, smem_ideal;
  double warp_insns, active_lanes, warp_executions, divergent;
  double issued, stall_cycles[KS_N_STALLS];
} Figures;

static void
read_figures (const KsAnalysis *an,
              Figures          *f)
{
  memset (f, 0, sizeof *f);
  f->resources_source = -1;
  if (an->timing != NULL)
    {
      const KsTiming *t = an->timing;

      f->timing = TRUE;
      f->duration_us = t->estimated_duration_us;
      f->sm_cycles = t->sm_cycles;
      f->waves = t->waves_per_sm;
      f->dram_bytes = t->dram_bytes;
      f->bound = bound_label (t->bound);
      f->bound_id = ks_bound_name (t->bound);
      f->issued = (double) t->issued;
      for (guint i = 0; i < KS_N_STALLS; i++)
        f->stall_cycles[i] = (double) t->stall_cycles[i];
    }
  if (an->have_occupancy)
    {
      f->occupancy = TRUE;
      f->occ = an->occupancy.occupancy;
      f->limiter = ks_occupancy_limiter_label (an->occupancy.limiter);
      f->limiter_id = ks_occupancy_limiter_name (an->occupancy.limiter);
    }
  if (an->resources != NULL)
    {
      f->registers = an->resources->registers;
      f->shared_bytes = an->resources->shared_static_bytes;
      f->spill_bytes = (double) an->resources->spill_store_bytes + an->resources->spill_load_bytes;
      f->resources_source = (int) an->resources->source;
    }
  /* A faulted run's counts stop at the fault: they are not the kernel's */
  if (an->sim != NULL && an->module != NULL && ks_sim_get_fault (an->sim) == NULL)
    {
      const KsSimStats *st = ks_sim_get_stats (an->sim);
      const KsSimInsnStats *is = ks_sim_get_insn_stats (an->sim);

      f->sim = TRUE;
      f->whole = st->sampled_blocks == 0;
      f->warp_insns = (double) st->warp_instructions;
      f->divergent = (double) st->divergent_branches;
      for (uint32_t i = 0; is != NULL && i < an->module->n_insns; i++)
        {
          f->gmem_requests += (double) is[i].gmem_requests;
          f->gmem_sectors += (double) is[i].gmem_sectors;
          f->smem_requests += (double) is[i].smem_requests;
          f->smem_wavefronts += (double) is[i].smem_wavefronts;
          f->smem_ideal += (double) is[i].smem_ideal_wavefronts;
          f->active_lanes += (double) is[i].active_lanes;
          f->warp_executions += (double) is[i].warp_executions;
        }
    }
}

static void
add_change (GArray        *changes,
            const char    *id,
            const char    *label,
            const char    *unit,
            KsFigureGroup  group,
            KsFigureSense  sense,
            gboolean       from_model,
            gboolean       has_a,
            double         a,
            gboolean       has_b,
            double         b)
{
  KsFigureChange c = { id, label, unit, group, sense, from_model, has_a, has_b,
                       has_a ? a : NAN, has_b ? b : NAN, NULL, NULL, KS_CHANGE_NONE, NULL, NULL,
                       NULL };

  if (!has_a && !has_b)
    return;
  if (has_a && has_b && fabs (b - a) > 1e-9 * MAX (fabs (a), fabs (b)))
    {
      if (sense == KS_FIGURE_NEITHER)
        c.verdict = KS_CHANGE_DIFFERENT;
      else
        c.verdict = (sense == KS_FIGURE_LOWER) == (b < a) ? KS_CHANGE_BETTER : KS_CHANGE_WORSE;
    }
  g_array_append_val (changes, c);
}

/* A figure in words: a and b as a reader reads them, their stable ids
 * (for JSON) in word_id_a and word_id_b */
static void
add_words (GArray        *changes,
           const char    *id,
           const char    *label,
           KsFigureGroup  group,
           gboolean       from_model,
           const char    *a,
           const char    *a_id,
           const char    *b,
           const char    *b_id)
{
  KsFigureChange c = { id, label, "", group, KS_FIGURE_NEITHER, from_model, a != NULL, b != NULL,
                       NAN, NAN, a, b, KS_CHANGE_NONE, NULL, a_id, b_id };

  if (a == NULL && b == NULL)
    return;
  if (a_id != NULL && b_id != NULL && !g_str_equal (a_id, b_id))
    c.verdict = KS_CHANGE_DIFFERENT;
  g_array_append_val (changes, c);
}

static const char *
stall_label (KsStallReason r)
{
  switch (r)
    {
    case KS_STALL_LONG_SCOREBOARD: return _("Stall: long scoreboard (global memory)");
    case KS_STALL_SHORT_SCOREBOARD: return _("Stall: short scoreboard (shared memory, MUFU)");
    case KS_STALL_WAIT: return _("Stall: wait (fixed latency)");
    case KS_STALL_MATH_PIPE_THROTTLE: return _("Stall: math pipe throttle");
    case KS_STALL_MIO_THROTTLE: return _("Stall: MIO throttle");
    case KS_STALL_LG_THROTTLE: return _("Stall: LG throttle");
    case KS_STALL_BARRIER: return _("Stall: barrier");
    case KS_STALL_BRANCH_RESOLVING: return _("Stall: branch resolving");
    case KS_STALL_NOT_SELECTED: return _("Stall: not selected");
    default:
      /* (selected and no-instruction are not stalls a change cures:
       * compute_changes leaves them out) */
      return ks_stall_reason_name (r);
    }
}

/* The stall breakdown's ids: "stall_long_scoreboard" (interned: any
 * thread may compare) */
static const char *
stall_id (KsStallReason r)
{
  char id[64];

  g_snprintf (id, sizeof id, "stall_%s", ks_stall_reason_name (r));
  return g_intern_string (id);
}

static void
compute_changes (GArray        *c,
                 const Figures *a,
                 const Figures *b)
{
  add_change (c, "estimated_duration_us", _("Time"), "us", KS_FIGURE_GROUP_TIME, KS_FIGURE_LOWER,
              TRUE, a->timing, a->duration_us, b->timing, b->duration_us);
  add_change (c, "sm_cycles", _("Cycles per SM"), "", KS_FIGURE_GROUP_TIME, KS_FIGURE_LOWER, TRUE,
              a->timing, a->sm_cycles, b->timing, b->sm_cycles);
  add_change (c, "waves_per_sm", _("Waves"), "", KS_FIGURE_GROUP_TIME, KS_FIGURE_NEITHER, TRUE,
              a->timing, a->waves, b->timing, b->waves);
  add_words (c, "bound", _("Bound by"), KS_FIGURE_GROUP_TIME, TRUE, a->bound, a->bound_id,
             b->bound, b->bound_id);

  add_change (c, "occupancy", _("Occupancy (theoretical)"), "%", KS_FIGURE_GROUP_OCCUPANCY,
              KS_FIGURE_HIGHER, FALSE, a->occupancy, a->occ, b->occupancy, b->occ);
  add_words (c, "limiter", _("Occupancy limited by"), KS_FIGURE_GROUP_OCCUPANCY, FALSE,
             a->limiter, a->limiter_id, b->limiter, b->limiter_id);
  add_change (c, "registers", _("Registers per thread"), "", KS_FIGURE_GROUP_OCCUPANCY,
              KS_FIGURE_NEITHER, FALSE, a->registers > 0, a->registers, b->registers > 0,
              b->registers);
  add_change (c, "shared_bytes", _("Static shared memory per block"), "bytes",
              KS_FIGURE_GROUP_OCCUPANCY, KS_FIGURE_NEITHER, FALSE, a->registers > 0,
              a->shared_bytes, b->registers > 0, b->shared_bytes);
  add_change (c, "spill_bytes", _("Spilled bytes (stores + loads)"), "bytes",
              KS_FIGURE_GROUP_OCCUPANCY, KS_FIGURE_LOWER, FALSE, a->registers > 0, a->spill_bytes,
              b->registers > 0, b->spill_bytes);

  /* Registers from ptxas on one side and estimated on the other are two
   * measures, not a change: said, and neither better nor worse */
  if (a->resources_source >= 0 && b->resources_source >= 0
      && a->resources_source != b->resources_source)
    for (guint i = 0; i < c->len; i++)
      {
        KsFigureChange *f = &g_array_index (c, KsFigureChange, i);

        if (f->group != KS_FIGURE_GROUP_OCCUPANCY || f->word_a != NULL)
          continue;
        f->note = g_strdup_printf (_("A's resources are from %s, B's from %s: not the same "
                                     "measure"),
                                   ks_resources_source_name ((KsResourcesSource) a->resources_source),
                                   ks_resources_source_name ((KsResourcesSource) b->resources_source));
        if (f->verdict != KS_CHANGE_NONE)
          f->verdict = KS_CHANGE_DIFFERENT;
      }

  add_change (c, "sectors_per_request", _("Global sectors per request"), "",
              KS_FIGURE_GROUP_MEMORY, KS_FIGURE_LOWER, FALSE, a->gmem_requests > 0,
              a->gmem_sectors / MAX (a->gmem_requests, 1), b->gmem_requests > 0,
              b->gmem_sectors / MAX (b->gmem_requests, 1));
  add_change (c, "gmem_sectors", _("Global sectors"), "", KS_FIGURE_GROUP_MEMORY, KS_FIGURE_LOWER,
              FALSE, a->sim && a->whole, a->gmem_sectors, b->sim && b->whole, b->gmem_sectors);
  add_change (c, "shared_wavefronts_per_request", _("Shared wavefronts per request"), "",
              KS_FIGURE_GROUP_MEMORY, KS_FIGURE_LOWER, FALSE, a->smem_requests > 0,
              a->smem_wavefronts / MAX (a->smem_requests, 1), b->smem_requests > 0,
              b->smem_wavefronts / MAX (b->smem_requests, 1));
  add_change (c, "shared_wavefronts_excess", _("Shared wavefronts beyond the ideal (bank conflicts)"),
              "", KS_FIGURE_GROUP_MEMORY, KS_FIGURE_LOWER, FALSE, a->sim && a->whole,
              a->smem_wavefronts - a->smem_ideal, b->sim && b->whole,
              b->smem_wavefronts - b->smem_ideal);
  add_change (c, "dram_bytes", _("DRAM bytes"), "bytes", KS_FIGURE_GROUP_MEMORY,
              KS_FIGURE_LOWER, TRUE, a->timing, a->dram_bytes, b->timing, b->dram_bytes);

  add_change (c, "warp_instructions", _("Warp-instructions"), "", KS_FIGURE_GROUP_EXECUTION,
              KS_FIGURE_LOWER, FALSE, a->sim && a->whole, a->warp_insns, b->sim && b->whole,
              b->warp_insns);
  add_change (c, "simt_efficiency", _("Active lanes per warp-instruction"), "%",
              KS_FIGURE_GROUP_EXECUTION, KS_FIGURE_HIGHER, FALSE, a->warp_executions > 0,
              a->active_lanes / (32.0 * MAX (a->warp_executions, 1)), b->warp_executions > 0,
              b->active_lanes / (32.0 * MAX (b->warp_executions, 1)));
  add_change (c, "divergent_branches", _("Divergent branches"), "", KS_FIGURE_GROUP_EXECUTION,
              KS_FIGURE_LOWER, FALSE, a->sim && a->whole, a->divergent, b->sim && b->whole,
              b->divergent);

  /* The stall breakdown as Nsight Compute's warp state statistics: warp
   * cycles in each state per issued instruction, which (unlike shares of
   * the total) go down when a stall is cured */
  for (guint r = 0; r < KS_N_STALLS; r++)
    {
      if (r == KS_STALL_SELECTED || r == KS_STALL_NO_INSTRUCTION)
        continue;
      if (a->stall_cycles[r] == 0 && b->stall_cycles[r] == 0)
        continue;
      add_change (c, stall_id ((KsStallReason) r), stall_label ((KsStallReason) r),
                  "cycles/insn", KS_FIGURE_GROUP_STALLS, KS_FIGURE_LOWER, TRUE,
                  a->timing && a->issued > 0, a->stall_cycles[r] / MAX (a->issued, 1),
                  b->timing && b->issued > 0, b->stall_cycles[r] / MAX (b->issued, 1));
    }
}

/* ---- Hints ------------------------------------------------------------------ */

typedef struct
{
  KsComparison *c;
  uint32_t focus_a, focus_b;
} Matcher;

/* Where a's hint would be in b: its CUDA line through the focus lines or
 * the CUDA diff, else its PTX line through the PTX diff; *is_cuda says
 * which */
static uint32_t
map_hint_line (Matcher      *m,
               const KsHint *h,
               gboolean     *is_cuda)
{
  *is_cuda = h->cuda_line != 0 && (m->c->cuda_diff != NULL || h->cuda_line == m->focus_a);
  if (*is_cuda)
    {
      if (m->focus_a != 0 && h->cuda_line == m->focus_a)
        return m->focus_b;
      return ks_line_diff_b_line (m->c->cuda_diff, h->cuda_line);
    }
  if (h->ptx_line == 0)
    return 0;
  return ks_line_diff_b_line (ks_comparison_get_ptx_diff (m->c), h->ptx_line);
}

/* A hint on a line is the same hint when its words are ("32-way" and
 * "2-way" bank conflicts are two hints: one gone, one added); one about
 * the whole kernel when its category and severity are, whatever figures
 * its words quote ("DRAM traffic alone takes 3.12 of the ~4.99 µs") */
static gboolean
hint_matches (const KsHint *x,
              const KsHint *y,
              gboolean      placed)
{
  if (g_strcmp0 (x->category, y->category) != 0)
    return FALSE;
  return placed ? g_strcmp0 (x->message, y->message) == 0 : x->severity == y->severity;
}

static void
match_hints (KsComparison *c,
             uint32_t      focus_a,
             uint32_t      focus_b)
{
  Matcher m = { c, focus_a, focus_b };
  GPtrArray *ha = c->a->hints, *hb = c->b->hints;
  guint nb = hb ? hb->len : 0;
  g_autofree gboolean *taken = g_new0 (gboolean, nb + 1);

  for (guint i = 0; ha != NULL && i < ha->len; i++)
    {
      const KsHint *h = ha->pdata[i];
      gboolean is_cuda, found = FALSE;
      uint32_t line = map_hint_line (&m, h, &is_cuda);
      gboolean placed = h->cuda_line != 0 || h->ptx_line != 0;

      for (guint j = 0; j < nb && !found; j++)
        {
          const KsHint *o = hb->pdata[j];
          uint32_t oline = is_cuda ? o->cuda_line : o->ptx_line;

          if (taken[j] || !hint_matches (h, o, placed))
            continue;
          /* a hint about the whole kernel is the same hint; one on a line
           * only where that line went */
          if (!placed ? (o->cuda_line == 0 && o->ptx_line == 0) : (line != 0 && oline == line))
            found = taken[j] = TRUE;
        }
      if (!found)
        g_ptr_array_add (c->hints_gone, (gpointer) h);
    }
  for (guint j = 0; j < nb; j++)
    if (!taken[j])
      g_ptr_array_add (c->hints_added, hb->pdata[j]);
}

/* ---- The comparison ----------------------------------------------------------- */

/* The CUDA an analysis comes from: its own text (a .cu), else the file its
 * hints (or most of its instructions) name in the PTX's .file, beside the
 * PTX or where the entry says (ks_file_find_source); NULL when it cannot
 * be read */
static char *
cuda_text_of (const KsAnalysis *a)
{
  const KsPtxModule *m = a->module;
  const KsPtxFile *entry;
  uint32_t file = 0;
  g_autofree char *path = NULL, *found = NULL;
  char *text = NULL;

  if (a->cuda_text != NULL)
    return g_strdup (a->cuda_text);
  if (m == NULL || m->n_files == 0)
    return NULL;
  for (guint i = 0; a->hints != NULL && i < a->hints->len && file == 0; i++)
    file = ((const KsHint *) a->hints->pdata[i])->cuda_file;
  if (file == 0)
    file = ks_ptx_module_main_file (m);
  entry = ks_ptx_module_find_file (m, file);
  if (entry == NULL)
    return NULL;
  path = ks_ptx_span_dup (m, entry->path);
  found = ks_file_find_source (a->path ? a->path : m->filename ? m->filename : ".", path);
  if (found == NULL || !g_file_get_contents (found, &text, NULL, NULL))
    return NULL;
  return text;
}

KsComparison *
ks_comparison_new (KsAnalysis *a,
                   KsAnalysis *b,
                   uint32_t    focus_a,
                   uint32_t    focus_b)
{
  KsComparison *c;
  Figures fa, fb;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  c = g_new0 (KsComparison, 1);
  c->a = ks_analysis_ref (a);
  c->b = ks_analysis_ref (b);
  c->changes = g_array_new (FALSE, FALSE, sizeof (KsFigureChange));
  c->hints_added = g_ptr_array_new ();
  c->hints_gone = g_ptr_array_new ();
  c->cuda_a = cuda_text_of (a);
  c->cuda_b = cuda_text_of (b);
  if (c->cuda_a != NULL && c->cuda_b != NULL)
    c->cuda_diff = ks_line_diff (c->cuda_a, c->cuda_b);
  read_figures (a, &fa);
  read_figures (b, &fb);
  compute_changes (c->changes, &fa, &fb);
  match_hints (c, focus_a, focus_b);
  return c;
}

void
ks_comparison_free (KsComparison *c)
{
  if (c == NULL)
    return;
  ks_analysis_unref (c->a);
  ks_analysis_unref (c->b);
  for (guint i = 0; i < c->changes->len; i++)
    g_free (g_array_index (c->changes, KsFigureChange, i).note);
  g_array_unref (c->changes);
  g_ptr_array_unref (c->hints_added);
  g_ptr_array_unref (c->hints_gone);
  if (c->cuda_diff != NULL)
    g_array_unref (c->cuda_diff);
  if (c->ptx_diff != NULL)
    g_array_unref (c->ptx_diff);
  g_free (c->cuda_a);
  g_free (c->cuda_b);
  g_free (c);
}

const GArray *
ks_comparison_get_ptx_diff (KsComparison *c)
{
  g_return_val_if_fail (c != NULL, NULL);
  if (c->ptx_diff == NULL)
    c->ptx_diff = ks_line_diff (c->a->ptx_text, c->b->ptx_text);
  return c->ptx_diff;
}

const KsFigureChange *
ks_comparison_get (const KsComparison *c,
                   const char         *id)
{
  for (guint i = 0; i < c->changes->len; i++)
    {
      const KsFigureChange *f = &g_array_index (c->changes, KsFigureChange, i);

      if (g_str_equal (f->id, id))
        return f;
    }
  return NULL;
}

double
ks_figure_change_ratio (const KsFigureChange *f)
{
  if (!f->has_a || !f->has_b || f->word_a != NULL || f->a == 0)
    return NAN;
  return f->b / f->a;
}

const char *
ks_change_verdict_name (KsChangeVerdict verdict)
{
  switch (verdict)
    {
    case KS_CHANGE_BETTER: return "better";
    case KS_CHANGE_WORSE: return "worse";
    case KS_CHANGE_DIFFERENT: return "different";
    case KS_CHANGE_NONE:
    default:
      return "same";
    }
}

static char *
format_number (double      v,
               const char *unit)
{
  double m = fabs (v);

  if (g_str_equal (unit, "%"))
    {
      g_autofree char *f = ks_format_figure (v * 100);

      return g_strdup_printf ("%s %%", f);
    }
  if (g_str_equal (unit, "bytes") && m >= 10000)
    return g_format_size ((guint64) m);
  if (g_str_equal (unit, "bytes"))
    return g_strdup_printf (_("%.0f bytes"), v);
  if (g_str_equal (unit, "us"))
    return g_strdup_printf (m >= 100 ? "%.0f µs" : m >= 10 ? "%.1f µs" : "%.2f µs", v);
  if (g_str_equal (unit, "cycles/insn"))
    return g_strdup_printf ("%.2f", v);
  if (v == floor (v) && m < 1e15)
    return g_strdup_printf ("%.0f", v);
  return ks_format_figure (v);
}

char *
ks_figure_change_format (const KsFigureChange *f,
                         gboolean              side_b)
{
  if (!(side_b ? f->has_b : f->has_a))
    return g_strdup ("-");
  if (f->word_a != NULL || f->word_b != NULL)
    return g_strdup (side_b ? f->word_b : f->word_a);
  return format_number (side_b ? f->b : f->a, f->unit);
}

char *
ks_figure_change_format_delta (const KsFigureChange *f)
{
  double ratio = ks_figure_change_ratio (f);

  if (!f->has_a || !f->has_b)
    return g_strdup ("");
  if (f->verdict == KS_CHANGE_NONE)
    return g_strdup ("=");
  if (f->word_a != NULL)
    return g_strdup ("≠");
  if (isfinite (ratio))
    {
      double pct = (ratio - 1) * 100;
      g_autofree char *n = ks_format_figure (fabs (pct));

      /* (a change that rounds to 0 % is still a change: say so) */
      if (g_str_equal (n, "0"))
        return g_strdup (pct < 0 ? "−<0.1 %" : "+<0.1 %");
      return g_strdup_printf ("%s%s %%", pct < 0 ? "−" : "+", n);
    }
  {
    g_autofree char *n = format_number (fabs (f->b - f->a), f->unit);

    return g_strdup_printf ("%s%s", f->b < f->a ? "−" : "+", n);
  }
}

static void
add_value (JsonBuilder          *b,
           const char           *member,
           gboolean              has,
           double                v,
           const char           *word)
{
  json_builder_set_member_name (b, member);
  if (!has)
    json_builder_add_null_value (b);
  else if (word != NULL)
    json_builder_add_string_value (b, word);
  else
    json_builder_add_double_value (b, v);
}

JsonNode *
ks_comparison_to_json (const KsComparison *c)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "a");
  json_builder_add_value (b, ks_analysis_to_json (c->a));
  json_builder_set_member_name (b, "b");
  json_builder_add_value (b, ks_analysis_to_json (c->b));
  json_builder_set_member_name (b, "changes");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->changes->len; i++)
    {
      const KsFigureChange *f = &g_array_index (c->changes, KsFigureChange, i);
      gboolean both = f->has_a && f->has_b;
      double ratio = ks_figure_change_ratio (f);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "figure");
      json_builder_add_string_value (b, f->id);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, f->label);
      add_value (b, "a", f->has_a, f->a, f->word_id_a);
      add_value (b, "b", f->has_b, f->b, f->word_id_b);
      /* b - a for numbers; for words, whether they differ */
      json_builder_set_member_name (b, "change");
      if (!both)
        json_builder_add_null_value (b);
      else if (f->word_a != NULL)
        json_builder_add_boolean_value (b, f->verdict != KS_CHANGE_NONE);
      else
        json_builder_add_double_value (b, f->b - f->a);
      add_value (b, "ratio", isfinite (ratio), ratio, NULL);
      json_builder_set_member_name (b, "better");
      if (f->verdict == KS_CHANGE_BETTER || f->verdict == KS_CHANGE_WORSE)
        json_builder_add_boolean_value (b, f->verdict == KS_CHANGE_BETTER);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, g_str_equal (f->unit, "%") ? "fraction" : f->unit);
      json_builder_set_member_name (b, "model");
      json_builder_add_boolean_value (b, f->from_model);
      if (f->note != NULL)
        {
          json_builder_set_member_name (b, "note");
          json_builder_add_string_value (b, f->note);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  ks_hints_add_json (b, "hints_added", c->hints_added);
  ks_hints_add_json (b, "hints_gone", c->hints_gone);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
