/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-sim-compare.h: two runs of the same launch give the same results,
 * everything the simulator records included (test-sim.c, test-samples.c
 * compare runs on one thread and on several). */
#pragma once

#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

static inline void
assert_same_insn_stats (const KsSimInsnStats *a,
                        const KsSimInsnStats *b)
{
  g_assert_cmpuint (a->warp_executions, ==, b->warp_executions);
  g_assert_cmpuint (a->thread_executions, ==, b->thread_executions);
  g_assert_cmpuint (a->active_lanes, ==, b->active_lanes);
  g_assert_cmpuint (a->divergent, ==, b->divergent);
  g_assert_cmpuint (a->smem_requests, ==, b->smem_requests);
  g_assert_cmpuint (a->smem_wavefronts, ==, b->smem_wavefronts);
  g_assert_cmpuint (a->smem_ideal_wavefronts, ==, b->smem_ideal_wavefronts);
  g_assert_cmpuint (a->smem_worst_degree, ==, b->smem_worst_degree);
  g_assert_cmpuint (a->split_taken_min, ==, b->split_taken_min);
  g_assert_cmpuint (a->split_taken_max, ==, b->split_taken_max);
  g_assert_cmpuint (a->split_other_min, ==, b->split_other_min);
  g_assert_cmpuint (a->split_other_max, ==, b->split_other_max);
  g_assert_cmpuint (a->gmem_requests, ==, b->gmem_requests);
  g_assert_cmpuint (a->gmem_sectors, ==, b->gmem_sectors);
  g_assert_cmpuint (a->gmem_ideal_sectors, ==, b->gmem_ideal_sectors);
  g_assert_cmpuint (a->gmem_lines, ==, b->gmem_lines);
  g_assert_cmpuint (a->gmem_requested_bytes, ==, b->gmem_requested_bytes);
  g_assert_cmpuint (a->gmem_used_bytes, ==, b->gmem_used_bytes);
  g_assert_cmpuint (a->l1_hits, ==, b->l1_hits);
  g_assert_cmpuint (a->l1_misses, ==, b->l1_misses);
  g_assert_cmpuint (a->l2_hits, ==, b->l2_hits);
  g_assert_cmpuint (a->l2_misses, ==, b->l2_misses);
  g_assert_cmpuint (a->tex_requests, ==, b->tex_requests);
  g_assert_cmpuint (a->tex_fetches, ==, b->tex_fetches);
  g_assert_cmpuint (a->surf_requests, ==, b->surf_requests);
  g_assert_cmpuint (a->tex_sectors, ==, b->tex_sectors);
  g_assert_cmpuint (a->tex_l1_hits, ==, b->tex_l1_hits);
  g_assert_cmpuint (a->tex_l1_misses, ==, b->tex_l1_misses);
}

static inline void
assert_same_lines (GArray *a,
                   GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const KsSimLineStats *x = &g_array_index (a, KsSimLineStats, i);
      const KsSimLineStats *y = &g_array_index (b, KsSimLineStats, i);

      g_assert_cmpuint (x->file, ==, y->file);
      g_assert_cmpuint (x->line, ==, y->line);
      assert_same_insn_stats (&x->stats, &y->stats);
    }
  g_array_unref (a);
  g_array_unref (b);
}

/* Everything a and b (two runs of launch l on module m) recorded is the
 * same.  Buffers are compared unless the runs faulted: blocks after the
 * fault may have run on other threads, as documented. */
static inline void
assert_same_results (const KsPtxModule *m,
                     const KsLaunch    *l,
                     KsSim             *a,
                     KsSim             *b)
{
  const KsSimStats *sa = ks_sim_get_stats (a), *sb = ks_sim_get_stats (b);
  const KsTraceEvent *ta, *tb;
  const KsTraceMemory *ma, *mb;
  const KsSimHazard *ha, *hb;
  uint64_t na, nb;
  uint32_t nha, nhb;

  g_assert_cmpint (ks_sim_get_status (a), ==, ks_sim_get_status (b));
  g_assert_cmpstr (ks_sim_get_printf (a), ==, ks_sim_get_printf (b));
  g_assert_cmpuint (sa->warp_instructions, ==, sb->warp_instructions);
  g_assert_cmpuint (sa->thread_instructions, ==, sb->thread_instructions);
  g_assert_cmpuint (sa->divergent_branches, ==, sb->divergent_branches);
  g_assert_cmpuint (sa->barriers, ==, sb->barriers);
  g_assert_cmpuint (sa->trace_events, ==, sb->trace_events);
  g_assert_cmpuint (sa->trace_dropped, ==, sb->trace_dropped);
  g_assert_cmpuint (sa->trace_stride, ==, sb->trace_stride);
  g_assert_cmpuint (sa->trace_blocks, ==, sb->trace_blocks);

  if (ks_sim_get_status (a) == KS_SIM_DONE)
    for (uint32_t i = 0; i < l->n_buffers; i++)
      {
        size_t n1, n2;
        const uint8_t *d1 = ks_sim_get_buffer (a, i, &n1);
        const uint8_t *d2 = ks_sim_get_buffer (b, i, &n2);

        g_assert_cmpmem (d1, n1, d2, n2);
      }

  /* the trace, event by event in the order of the run, and its memory
   * records (the cache levels of each global request among them) */
  ta = ks_sim_get_trace (a, &na);
  tb = ks_sim_get_trace (b, &nb);
  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpuint (na, ==, sa->trace_events);
  if (na > 0)
    g_assert_cmpmem (ta, na * sizeof *ta, tb, nb * sizeof *tb);
  ma = ks_sim_get_trace_memory (a, &na);
  mb = ks_sim_get_trace_memory (b, &nb);
  g_assert_cmpuint (na, ==, nb);
  if (na > 0)
    g_assert_cmpmem (ma, na * sizeof *ma, mb, nb * sizeof *mb);

  /* per instruction and per line: executions, bank conflicts, sectors,
   * L1 and L2 hits */
  for (uint32_t i = 0; i < m->n_insns; i++)
    assert_same_insn_stats (&ks_sim_get_insn_stats (a)[i], &ks_sim_get_insn_stats (b)[i]);
  assert_same_lines (ks_sim_ptx_line_stats (a), ks_sim_ptx_line_stats (b));
  assert_same_lines (ks_sim_cuda_line_stats (a), ks_sim_cuda_line_stats (b));

  /* the sampled accesses with their lanes' addresses and cache levels */
  for (uint32_t i = 0; i < m->n_insns; i++)
    {
      uint32_t n1, n2;
      const KsMemAccess *x = ks_sim_get_accesses (a, i, &n1);
      const KsMemAccess *y = ks_sim_get_accesses (b, i, &n2);

      g_assert_cmpuint (n1, ==, n2);
      if (n1 > 0)
        g_assert_cmpmem (x, n1 * sizeof *x, y, n2 * sizeof *y);
    }
  /* and the texture fetches' footprints */
  for (uint32_t i = 0; i < m->n_insns; i++)
    {
      uint32_t n1, n2;
      const KsTexAccess *x = ks_sim_get_tex_accesses (a, i, &n1);
      const KsTexAccess *y = ks_sim_get_tex_accesses (b, i, &n2);

      g_assert_cmpuint (n1, ==, n2);
      if (n1 > 0)
        g_assert_cmpmem (x, n1 * sizeof *x, y, n2 * sizeof *y);
    }

  ha = ks_sim_get_hazards (a, &nha);
  hb = ks_sim_get_hazards (b, &nhb);
  g_assert_cmpuint (nha, ==, nhb);
  for (uint32_t i = 0; i < nha; i++)
    {
      g_assert_cmpint (ha[i].kind, ==, hb[i].kind);
      g_assert_cmpuint (ha[i].first_insn, ==, hb[i].first_insn);
      g_assert_cmpuint (ha[i].second_insn, ==, hb[i].second_insn);
      g_assert_cmpuint (ha[i].address, ==, hb[i].address);
      g_assert_cmpmem (ha[i].block, sizeof ha[i].block, hb[i].block, sizeof hb[i].block);
      g_assert_cmpuint (ha[i].first_thread, ==, hb[i].first_thread);
      g_assert_cmpuint (ha[i].second_thread, ==, hb[i].second_thread);
      g_assert_cmpuint (ha[i].count, ==, hb[i].count);
    }

  if (ks_sim_get_status (a) == KS_SIM_FAULTED)
    {
      const KsSimFault *f1 = ks_sim_get_fault (a), *f2 = ks_sim_get_fault (b);

      g_assert_cmpint (f1->kind, ==, f2->kind);
      g_assert_cmpstr (f1->message, ==, f2->message);
      g_assert_cmpuint (f1->ptx_line, ==, f2->ptx_line);
      g_assert_cmpstr (f1->cuda_file, ==, f2->cuda_file);
      g_assert_cmpuint (f1->cuda_line, ==, f2->cuda_line);
      g_assert_cmpmem (f1->block, sizeof f1->block, f2->block, sizeof f2->block);
      g_assert_cmpmem (f1->thread, sizeof f1->thread, f2->thread, sizeof f2->thread);
      g_assert_cmpuint (f1->address, ==, f2->address);
      g_assert_cmpint (f1->has_address, ==, f2->has_address);
    }
}
