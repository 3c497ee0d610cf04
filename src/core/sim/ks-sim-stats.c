/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-stats.c: the per-instruction statistics summed by PTX line and by
 * CUDA line, for the heat gutters and the hints. */

#include "ks-sim-private.h"

void
ks_sim_insn_stats_add (KsSimInsnStats       *to,
                       const KsSimInsnStats *from)
{
  to->warp_executions += from->warp_executions;
  to->thread_executions += from->thread_executions;
  to->active_lanes += from->active_lanes;
  if (from->divergent > 0 && to->divergent == 0)
    {
      to->split_taken_min = from->split_taken_min;
      to->split_taken_max = from->split_taken_max;
      to->split_other_min = from->split_other_min;
      to->split_other_max = from->split_other_max;
    }
  else if (from->divergent > 0)
    {
      to->split_taken_min = MIN (to->split_taken_min, from->split_taken_min);
      to->split_taken_max = MAX (to->split_taken_max, from->split_taken_max);
      to->split_other_min = MIN (to->split_other_min, from->split_other_min);
      to->split_other_max = MAX (to->split_other_max, from->split_other_max);
    }
  to->divergent += from->divergent;
  to->smem_requests += from->smem_requests;
  to->smem_wavefronts += from->smem_wavefronts;
  to->smem_ideal_wavefronts += from->smem_ideal_wavefronts;
  to->smem_worst_degree = MAX (to->smem_worst_degree, from->smem_worst_degree);
  to->gmem_requests += from->gmem_requests;
  to->gmem_sectors += from->gmem_sectors;
  to->gmem_ideal_sectors += from->gmem_ideal_sectors;
  to->gmem_lines += from->gmem_lines;
  to->gmem_requested_bytes += from->gmem_requested_bytes;
  to->gmem_used_bytes += from->gmem_used_bytes;
  to->l1_hits += from->l1_hits;
  to->l1_misses += from->l1_misses;
  to->l2_hits += from->l2_hits;
  to->l2_misses += from->l2_misses;
  to->tex_requests += from->tex_requests;
  to->tex_fetches += from->tex_fetches;
  to->surf_requests += from->surf_requests;
  to->tex_sectors += from->tex_sectors;
  to->tex_l1_hits += from->tex_l1_hits;
  to->tex_l1_misses += from->tex_l1_misses;
}

typedef struct
{
  uint64_t key;                 /* file << 32 | line */
  uint32_t insn;
} Item;

static int
compare_items (gconstpointer a,
               gconstpointer b)
{
  const Item *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->insn < y->insn ? -1 : x->insn > y->insn;
}

/* Sums instructions into lines keyed by (file, line): the instructions that
 * ran, sorted by their line, then each run of one line summed. */
static GArray *
line_stats (const KsSim *sim,
            gboolean     cuda)
{
  const KsPtxModule *m = sim->module;
  GArray *out;
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));
  guint n_lines = 0;

  for (uint32_t i = 0; i < m->n_insns; i++)
    {
      uint32_t file = 0, line = m->insns[i].line;
      Item it;

      if (sim->insn_stats[i].warp_executions == 0)
        continue;
      if (cuda && !ks_ptx_insn_source (m, &m->insns[i], &file, &line))
        continue;
      it.key = ((uint64_t) file << 32) | line;
      it.insn = i;
      g_array_append_val (items, it);
    }
  g_array_sort (items, compare_items);

  /* sized once: a kernel of millions of lines would leave a doubled
   * array up to twice the size it needs */
  for (uint32_t i = 0; i < items->len; i++)
    n_lines += i == 0 || g_array_index (items, Item, i).key != g_array_index (items, Item, i - 1).key;
  out = g_array_sized_new (FALSE, FALSE, sizeof (KsSimLineStats), n_lines);
  for (uint32_t i = 0; i < items->len; i++)
    {
      const Item *it = &g_array_index (items, Item, i);
      KsSimLineStats *ls;

      if (i == 0 || it->key != g_array_index (items, Item, i - 1).key)
        {
          KsSimLineStats fresh = { (uint32_t) (it->key >> 32), (uint32_t) it->key, { 0 } };

          g_array_append_val (out, fresh);
        }
      ls = &g_array_index (out, KsSimLineStats, out->len - 1);
      ks_sim_insn_stats_add (&ls->stats, &sim->insn_stats[it->insn]);
    }
  return out;
}

GArray *
ks_sim_ptx_line_stats (const KsSim *sim)
{
  return line_stats (sim, FALSE);
}

GArray *
ks_sim_cuda_line_stats (const KsSim *sim)
{
  return line_stats (sim, TRUE);
}
