/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-parallel.c: a launch's blocks on several threads, with the results
 * of one.
 *
 * Workers take blocks in order from a shared counter, a few consecutive
 * ones at a time, and run them on their own copy of the engine's state
 * (the block's shared memory, warps, counters), on the launch's shared
 * global memory.  What a block records
 * that does not depend on the blocks before it is computed by the worker:
 * statistics, trace events, the bank and coalescing analysis, the race
 * check (whose state is per block), samples of accesses.  The rest is
 * decided when the blocks are put back in order, one after another, as a
 * run on one thread meets them:
 *
 * - the caches are one model for the whole launch, so each block's global
 *   requests are replayed through it in block order, filling in the hit
 *   counts of the statistics, of the trace's memory records and of the
 *   samples;
 * - the trace samples whole blocks as a run on one thread does: each
 *   block's events join it, or leave it when it fills up (workers sample
 *   the blocks they run the same way, so that they keep no more than the
 *   trace's limit), and the samples keep the first N executions of each
 *   instruction;
 * - hazards are merged by pair of instructions up to the limit;
 * - printf output is appended in block order;
 * - the lowest block that faults is the run's fault, and nothing of the
 *   blocks after it is kept.
 *
 * The worker that hands in the blocks everyone waits for puts them, and the
 * blocks after them that are done, in order, while the others go on
 * running.  A worker waits before it takes new blocks when too much is
 * waiting to be put in order (a block far slower than the others). */

#include <string.h>

#include "ks-sim-exec.h"
#include "ks-sim-memory.h"
#include "ks-sim-private.h"

/* At most this many bytes of done blocks wait for an earlier one */
#define PENDING_BYTES_MAX (256u << 20)

static KsSim *
worker_new (KsSim         *run,
            KsSimParallel *p)
{
  KsSim *w = g_new (KsSim, 1);

  *w = *run;
  memset (&w->cta, 0, sizeof w->cta);
  w->cta_active = FALSE;
  w->current_warp = 0;
  memset (&w->stats, 0, sizeof w->stats);
  w->stats.trace_stride = run->stats.trace_stride;
  memset (&w->fault, 0, sizeof w->fault);
  w->status = KS_SIM_READY;
  w->insn_stats = g_new0 (KsSimInsnStats, MAX (run->module->n_insns, 1));
  w->trace = NULL;
  w->n_trace = w->cap_trace = 0;
  w->trace_mem = NULL;
  w->n_trace_mem = w->cap_trace_mem = 0;
  w->last_event = G_MAXUINT64;
  w->smem_access = NULL;
  w->read_log = NULL;
  w->n_read_log = 0;
  w->async_copies = NULL;
  w->async_commits = NULL;
  w->hazards = NULL;
  w->n_hazards = 0;
  w->l1 = w->l2 = NULL;
  w->accesses = NULL;           /* samples go to the block; access_full is the run's */
  w->tex_accesses = NULL;
  w->printf_out = g_string_new (NULL);
  w->progress = NULL;
  w->clock_read_at = 0;         /* (its counts start from 0; the deadline is the run's) */
  w->cta_stride = 1;
  w->shared = p;
  w->block = NULL;
  w->mem_writes = 0;
  w->touched = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  w->block_samples = NULL;
  return w;
}

static void
worker_free (KsSim *w)
{
  if (w->cta.warps != NULL)
    {
      for (uint32_t i = 0; i < w->warps_per_cta; i++)
        ks_sim_warp_free (w, &w->cta.warps[i]);
      g_free (w->cta.warps);
    }
  g_free (w->cta.shared);
  g_free (w->cta.mbar_valid);
  g_free (w->insn_stats);
  g_free (w->smem_access);
  g_free (w->read_log);
  g_clear_pointer (&w->async_copies, g_array_unref);
  g_free (w->async_commits);
  g_free (w->trace);
  g_free (w->trace_mem);
  g_free (w->fault.message);
  g_free (w->fault.cuda_file);
  g_string_free (w->printf_out, TRUE);
  g_array_unref (w->touched);
  g_free (w->block_samples);
  g_free (w);
}

static void
block_free (KsSimBlock *b)
{
  g_free (b->fault.message);
  g_free (b->fault.cuda_file);
  g_clear_pointer (&b->insn_stats, g_array_unref);
  g_clear_pointer (&b->insn_counts, g_array_unref);
  g_free (b->trace);
  g_free (b->trace_mem);
  g_free (b->cta_steps);
  g_clear_pointer (&b->requests, g_array_unref);
  g_clear_pointer (&b->sectors, g_array_unref);
  g_clear_pointer (&b->samples, g_array_unref);
  g_clear_pointer (&b->tex_samples, g_array_unref);
  g_clear_pointer (&b->hazards, g_array_unref);
  g_free (b->printf_text);
  g_free (b);
}

static uint64_t
block_bytes (const KsSimBlock *b)
{
  return sizeof *b + b->n_trace * sizeof (KsTraceEvent) + b->n_trace_mem * sizeof (KsTraceMemory)
         + (b->insn_stats ? b->insn_stats->len * sizeof (KsSimBlockStats) : 0)
         + (b->insn_counts ? b->insn_counts->len * sizeof (KsSimBlockCounts) : 0)
         + (b->requests ? b->requests->len * sizeof (KsSimCacheRequest) : 0)
         + (b->sectors ? b->sectors->len * sizeof (uint64_t) : 0)
         + (b->samples ? b->samples->len * sizeof (KsSimBlockSample) : 0)
         + (b->tex_samples ? b->tex_samples->len * sizeof (KsTexAccess) : 0);
}

/* Whether an instruction's statistics are its three counts and nothing
 * else (KsSimBlockCounts) */
static gboolean
counts_only (const KsSimInsnStats *st)
{
  KsSimInsnStats counts;

  memset (&counts, 0, sizeof counts);
  counts.warp_executions = st->warp_executions;
  counts.thread_executions = st->thread_executions;
  counts.active_lanes = st->active_lanes;
  return memcmp (&counts, st, sizeof counts) == 0;
}

/* Runs blocks first to end - 1 on worker w and returns what they recorded */
static KsSimBlock *
run_block (KsSim    *w,
           uint64_t  first,
           uint64_t  end)
{
  KsSimParallel *p = w->shared;
  KsSimBlock *b = g_new0 (KsSimBlock, 1);
  uint64_t stride = w->stats.trace_stride;

  b->cta = first;
  b->end = end;
  b->cta_steps = g_new (uint64_t, end - first + 1);
  for (uint64_t k = 0; k <= end - first; k++)
    b->cta_steps[k] = G_MAXUINT64;
  w->block = b;
  w->status = KS_SIM_READY;
  /* the worker's stride stays: the run's is never less */
  memset (&w->stats, 0, sizeof w->stats);
  w->stats.trace_stride = stride;
  w->n_trace = 0;
  w->n_trace_mem = 0;
  w->last_event = G_MAXUINT64;
  w->steps_before = __atomic_load_n (&p->committed_steps, __ATOMIC_ACQUIRE);
  w->next_cta = first;
  w->n_ctas = end;

  ks_sim_run (w, 0, p->cancellable);

  b->status = w->status;
  b->stop = w->status == KS_SIM_FAULTED ? w->cta_linear : first;
  if (w->status == KS_SIM_FAULTED)
    {
      b->fault = w->fault;
      memset (&w->fault, 0, sizeof w->fault);
    }
  b->stats = w->stats;
  /* The trace's buffers go with the blocks; the worker starts new ones of
   * the size these reached, which the next blocks likely need too */
  b->trace = g_steal_pointer (&w->trace);
  b->n_trace = w->n_trace;
  b->trace_mem = g_steal_pointer (&w->trace_mem);
  b->n_trace_mem = w->n_trace_mem;
  b->trace_cut = w->trace_cut;
  /* blocks past a fault did not run */
  for (uint64_t k = 0; k <= end - first; k++)
    if (b->cta_steps[k] == G_MAXUINT64)
      b->cta_steps[k] = w->stats.warp_instructions;
  b->unfinished = w->cta_active ? w->cta_linear : G_MAXUINT64;
  if (w->cap_trace > 0)
    w->trace = g_new (KsTraceEvent, w->cap_trace);
  if (w->cap_trace_mem > 0)
    w->trace_mem = g_new (KsTraceMemory, w->cap_trace_mem);
  w->n_trace = 0;
  w->n_trace_mem = 0;

  b->insn_stats = g_array_new (FALSE, FALSE, sizeof (KsSimBlockStats));
  b->insn_counts = g_array_sized_new (FALSE, FALSE, sizeof (KsSimBlockCounts), w->touched->len);
  for (guint i = 0; i < w->touched->len; i++)
    {
      uint32_t gi = g_array_index (w->touched, uint32_t, i);
      const KsSimInsnStats *st = &w->insn_stats[gi];

      if (counts_only (st))
        {
          KsSimBlockCounts c = { gi, 0, st->warp_executions, st->thread_executions,
                                 st->active_lanes };

          g_array_append_val (b->insn_counts, c);
        }
      else
        {
          KsSimBlockStats e = { gi, 0, *st };

          g_array_append_val (b->insn_stats, e);
        }
      memset (&w->insn_stats[gi], 0, sizeof w->insn_stats[gi]);
    }
  g_array_set_size (w->touched, 0);
  if (b->samples != NULL)
    for (guint i = 0; i < b->samples->len; i++)
      w->block_samples[g_array_index (b->samples, KsSimBlockSample, i).insn] = 0;
  if (w->printf_out->len > 0)
    {
      b->printf_text = g_strndup (w->printf_out->str, w->printf_out->len);
      g_string_truncate (w->printf_out, 0);
    }
  /* a block that stopped part-way leaves its warps to the next one */
  w->cta_active = FALSE;
  w->block = NULL;
  return b;
}

/* The run's array of samples of insn */
static GArray *
run_samples (KsSim    *run,
             uint32_t  insn)
{
  GArray *a = g_hash_table_lookup (run->accesses, GUINT_TO_POINTER (insn));

  if (a == NULL)
    {
      a = g_array_new (FALSE, TRUE, sizeof (KsMemAccess));
      g_hash_table_insert (run->accesses, GUINT_TO_POINTER (insn), a);
    }
  return a;
}

static void
add_hazard (KsSim             *run,
            const KsSimHazard *h)
{
  for (uint32_t i = 0; i < run->n_hazards; i++)
    {
      KsSimHazard *x = &run->hazards[i];

      if (x->kind == h->kind && x->first_insn == h->first_insn && x->second_insn == h->second_insn)
        {
          x->count += h->count;
          return;
        }
    }
  if (run->n_hazards >= KS_SIM_MAX_HAZARDS)
    return;
  if (run->hazards == NULL)
    run->hazards = g_new0 (KsSimHazard, KS_SIM_MAX_HAZARDS);
  run->hazards[run->n_hazards++] = *h;
}

/* A block of b on its way into the run's trace: its warp-instructions */
typedef struct
{
  uint64_t cta;
  uint64_t n;
} Joining;

/* The blocks of b join the run's trace as they would on one thread: each
 * block in the sample joins it, and while it does not fit, the sample
 * halves, which drops blocks of the trace and maybe those that joined
 * before it, or the block itself.  This takes each block's number of
 * warp-instructions (b->cta_steps), not its events: the worker sampled its
 * blocks on its own, from a stride that may have grown past the one the
 * run has at a block, and then dropped the events of blocks that the run
 * has yet to drop.  Those are dropped by the end of b, so the blocks that
 * stay have their events in b, which join the trace at the end. */
static void
commit_trace (KsSim            *run,
              const KsSimBlock *b)
{
  uint32_t wpc = MAX (run->warps_per_cta, 1);
  g_autofree Joining *joining = g_new (Joining, b->end - b->cta);
  uint64_t n_joining = 0, joining_events = 0, appended = 0, i = 0, mi = 0, kept = 0;

  for (uint64_t k = b->cta; k < b->end; k++)
    {
      uint64_t n = b->cta_steps[k - b->cta + 1] - b->cta_steps[k - b->cta];

      if (n == 0 || run->trace_cut || k >= run->trace_ctas
          || (k & (run->stats.trace_stride - 1)) != 0)
        continue;
      while (run->n_trace + joining_events + n > run->max_trace && (k & (run->stats.trace_stride - 1)) == 0)
        {
          uint64_t out = 0;

          if (k == 0)
            {
              /* block 0 alone filled the trace: its worker kept the first
               * events, and no block joins it */
              g_assert (b->trace_cut);
              n = run->max_trace;
              __atomic_store_n (&run->trace_cut, TRUE, __ATOMIC_RELAXED);
              break;
            }
          ks_sim_trace_halve (run, G_MAXUINT64);
          for (uint64_t j = 0; j < n_joining; j++)
            if ((joining[j].cta & (run->stats.trace_stride - 1)) == 0)
              joining[out++] = joining[j];
            else
              joining_events -= joining[j].n;
          n_joining = out;
        }
      if ((k & (run->stats.trace_stride - 1)) != 0)
        continue;
      joining[n_joining++] = (Joining) { k, n };
      joining_events += n;
    }

  /* the events of the blocks that stay, in block order */
  while (i < b->n_trace && kept < n_joining)
    {
      uint64_t cta = b->trace[i].warp / wpc, j = i, mj = mi;

      for (; j < b->n_trace && b->trace[j].warp / wpc == cta; j++)
        mj += (b->trace[j].flags & KS_TRACE_MEMORY) != 0;
      if (cta == joining[kept].cta)
        {
          g_assert (j - i == joining[kept].n);
          if (run->n_trace + (j - i) > run->cap_trace)
            {
              while (run->cap_trace < run->n_trace + (j - i))
                run->cap_trace = MIN (MAX (run->cap_trace * 2, 4096), run->max_trace);
              run->trace = g_renew (KsTraceEvent, run->trace, run->cap_trace);
            }
          memcpy (run->trace + run->n_trace, b->trace + i, (j - i) * sizeof *b->trace);
          run->n_trace += j - i;
          if (run->n_trace_mem + (mj - mi) > run->cap_trace_mem)
            {
              while (run->cap_trace_mem < run->n_trace_mem + (mj - mi))
                run->cap_trace_mem = MAX (run->cap_trace_mem * 2, 1024);
              run->trace_mem = g_renew (KsTraceMemory, run->trace_mem, run->cap_trace_mem);
            }
          if (mj > mi)
            memcpy (run->trace_mem + run->n_trace_mem, b->trace_mem + mi, (mj - mi) * sizeof *b->trace_mem);
          run->n_trace_mem += mj - mi;
          appended += j - i;
          /* a block a fault stopped part-way, or block 0 cut, is not whole */
          if (cta != b->unfinished && !(cta == 0 && b->trace_cut))
            run->stats.trace_blocks++;
          kept++;
        }
      i = j;
      mi = mj;
    }
  g_assert (kept == n_joining);
  run->stats.trace_events += appended;
  run->stats.trace_dropped += b->stats.warp_instructions - appended;
}

/* Puts block b after the ones before it in the run's results, as a run on
 * one thread would have recorded them.  Only the committing worker calls
 * this, one block at a time. */
static void
commit_block (KsSimParallel *p,
              KsSimBlock    *b)
{
  KsSim *run = p->run;
  g_autofree GArray **sample_array = NULL;
  g_autofree uint32_t *sample_index = NULL;

  if (p->stopped)
    return;

  run->stats.warp_instructions += b->stats.warp_instructions;
  run->stats.thread_instructions += b->stats.thread_instructions;
  run->stats.divergent_branches += b->stats.divergent_branches;
  run->stats.barriers += b->stats.barriers;
  for (guint i = 0; i < b->insn_stats->len; i++)
    {
      const KsSimBlockStats *e = &g_array_index (b->insn_stats, KsSimBlockStats, i);

      ks_sim_insn_stats_add (&run->insn_stats[e->insn], &e->stats);
    }
  for (guint i = 0; i < b->insn_counts->len; i++)
    {
      const KsSimBlockCounts *c = &g_array_index (b->insn_counts, KsSimBlockCounts, i);
      KsSimInsnStats *to = &run->insn_stats[c->insn];

      to->warp_executions += c->warp_executions;
      to->thread_executions += c->thread_executions;
      to->active_lanes += c->active_lanes;
    }

  /* samples: the first of each instruction's executions */
  if (b->samples != NULL)
    {
      sample_array = g_new0 (GArray *, b->samples->len);
      sample_index = g_new0 (uint32_t, b->samples->len);
      for (guint i = 0; i < b->samples->len; i++)
        {
          const KsSimBlockSample *bs = &g_array_index (b->samples, KsSimBlockSample, i);
          GArray *a = run_samples (run, bs->insn);

          if (a->len >= run->access_samples)
            continue;
          g_array_append_val (a, bs->access);
          if (bs->tex != 0)
            g_array_append_vals (ks_sim_tex_samples (run, bs->insn),
                                 &g_array_index (b->tex_samples, KsTexAccess, bs->tex - 1), 1);
          sample_array[i] = a;
          sample_index[i] = a->len - 1;
          if (a->len >= run->access_samples)
            __atomic_store_n (&run->access_full[bs->insn], 1, __ATOMIC_RELAXED);
        }
    }

  /* the caches, in the order the block met them; the hits go to the
   * block's trace records before they join the run's */
  if (b->requests != NULL)
    for (guint i = 0; i < b->requests->len; i++)
      {
        const KsSimCacheRequest *r = &g_array_index (b->requests, KsSimCacheRequest, i);
        KsTraceMemory *tm = r->trace_mem != G_MAXUINT64 ? &b->trace_mem[r->trace_mem] : NULL;
        KsMemAccess *sample = NULL;

        if (r->sample != G_MAXUINT32 && sample_array[r->sample] != NULL)
          sample = &g_array_index (sample_array[r->sample], KsMemAccess, sample_index[r->sample]);
        ks_sim_cache_sectors (run, r->insn, &g_array_index (b->sectors, uint64_t, r->first_sector),
                              r->n_sectors, r->store, r->texture, tm, sample);
      }

  if (run->trace_enabled)
    commit_trace (run, b);

  if (b->hazards != NULL)
    for (guint i = 0; i < b->hazards->len; i++)
      add_hazard (run, &g_array_index (b->hazards, KsSimHazard, i));

  if (b->printf_text != NULL)
    g_string_append (run->printf_out, b->printf_text);

  __atomic_add_fetch (&p->committed_steps, b->stats.warp_instructions, __ATOMIC_RELEASE);

  if (b->status == KS_SIM_FAULTED)
    {
      run->fault = b->fault;
      memset (&b->fault, 0, sizeof b->fault);
      run->status = KS_SIM_FAULTED;
      p->stopped = TRUE;
    }
  else if (b->status == KS_SIM_CANCELLED)
    {
      p->cancelled = TRUE;
      p->stopped = TRUE;
    }
}

/* Hands in a done block; the worker that hands in the one everyone waits
 * for puts it and the done ones after it in order. */
static void
submit_block (KsSimParallel *p,
              KsSimBlock    *b)
{
  g_mutex_lock (&p->lock);
  if (b->status == KS_SIM_FAULTED || b->status == KS_SIM_CANCELLED)
    __atomic_store_n (&p->stop_cta, MIN (__atomic_load_n (&p->stop_cta, __ATOMIC_RELAXED), b->stop),
                      __ATOMIC_RELAXED);
  g_hash_table_insert (p->pending, &b->cta, b);
  p->pending_bytes += block_bytes (b);
  if (!p->committing)
    {
      KsSimBlock *next;

      p->committing = TRUE;
      while ((next = g_hash_table_lookup (p->pending, &p->committed)) != NULL)
        {
          uint64_t end = next->end;

          g_hash_table_steal (p->pending, &p->committed);
          p->pending_bytes -= block_bytes (next);
          g_mutex_unlock (&p->lock);
          commit_block (p, next);
          block_free (next);
          g_mutex_lock (&p->lock);
          p->committed = end;
          g_cond_broadcast (&p->changed);
        }
      p->committing = FALSE;
    }
  g_cond_broadcast (&p->changed);
  g_mutex_unlock (&p->lock);
}

static gpointer
worker_main (gpointer data)
{
  KsSim *w = data;
  KsSimParallel *p = w->shared;

  for (;;)
    {
      uint64_t cta;

      /* The block everyone waits for is running on another worker: this
       * one holds none */
      g_mutex_lock (&p->lock);
      while (!p->stopped && (p->pending_bytes > PENDING_BYTES_MAX
                             || g_hash_table_size (p->pending) > 16 * p->n_workers))
        g_cond_wait (&p->changed, &p->lock);
      g_mutex_unlock (&p->lock);

      cta = __atomic_fetch_add (&p->next_cta, p->chunk, __ATOMIC_RELAXED);
      if (cta >= p->run->n_ctas || cta > __atomic_load_n (&p->stop_cta, __ATOMIC_RELAXED))
        break;
      submit_block (p, run_block (w, cta, MIN (cta + p->chunk, p->run->n_ctas)));
    }

  g_mutex_lock (&p->lock);
  p->running--;
  g_cond_broadcast (&p->changed);
  g_mutex_unlock (&p->lock);
  return NULL;
}

static void
free_pending (gpointer data)
{
  block_free (data);
}

void
ks_sim_run_parallel (KsSim        *sim,
                     GCancellable *cancellable)
{
  uint32_t n = (uint32_t) MIN ((uint64_t) sim->n_threads, sim->n_ctas);
  KsSimParallel p;
  g_autofree KsSim **workers = g_new0 (KsSim *, n);
  g_autofree GThread **threads = g_new0 (GThread *, n);
  uint64_t reported = 0;

  memset (&p, 0, sizeof p);
  g_mutex_init (&p.atomics);
  g_mutex_init (&p.lock);
  g_cond_init (&p.changed);
  p.run = sim;
  p.cancellable = cancellable;
  p.n_workers = p.running = n;
  p.stop_cta = G_MAXUINT64;
  /* A few blocks at a time, so that what a worker hands in is not mostly
   * bookkeeping for a small block, with enough of them to keep the
   * workers busy to the end */
  p.chunk = CLAMP (sim->n_ctas / ((uint64_t) n * 32), 1, 32);
  p.pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, free_pending);

  /* the samples' arrays are the run's; workers read which are full */
  if (sim->trace_enabled && sim->access_samples > 0 && sim->accesses == NULL)
    {
      sim->accesses = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
      sim->access_full = g_new0 (uint8_t, MAX (sim->module->n_insns, 1));
    }

  for (uint32_t k = 0; k < n; k++)
    workers[k] = worker_new (sim, &p);
  p.workers = workers;
  for (uint32_t k = 0; k < n; k++)
    threads[k] = g_thread_new ("ks-sim", worker_main, workers[k]);

  /* This thread reports progress as blocks are put in order */
  g_mutex_lock (&p.lock);
  while (p.running > 0)
    {
      gint64 until = g_get_monotonic_time () + G_TIME_SPAN_MILLISECOND * 100;

      g_cond_wait_until (&p.changed, &p.lock, until);
      if (sim->progress != NULL && p.committed != reported)
        {
          double fraction = (double) p.committed / (double) sim->n_ctas;

          reported = p.committed;
          g_mutex_unlock (&p.lock);
          sim->progress (fraction, sim->progress_data);
          g_mutex_lock (&p.lock);
        }
    }
  g_mutex_unlock (&p.lock);
  for (uint32_t k = 0; k < n; k++)
    g_thread_join (threads[k]);

  /* blocks past a fault, or cancelled ones, that were never put in order */
  g_hash_table_destroy (p.pending);
  if (sim->status != KS_SIM_FAULTED)
    sim->status = p.cancelled || (cancellable && g_cancellable_is_cancelled (cancellable)
                                  && p.committed < sim->n_ctas)
                  ? KS_SIM_CANCELLED : KS_SIM_DONE;
  sim->next_cta = sim->n_ctas;
  sim->cta_active = FALSE;

  for (uint32_t k = 0; k < n; k++)
    worker_free (workers[k]);
  g_cond_clear (&p.changed);
  g_mutex_clear (&p.lock);
  g_mutex_clear (&p.atomics);
}
