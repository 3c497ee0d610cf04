/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-spin.c: finding a loop that nothing can end, so that a kernel that
 * spins forever gets a deadlock fault that names the loop instead of
 * running to the step limit.
 *
 * The simulator is deterministic: what a block does next depends only on
 * its warps' state (paths, registers, predicates, frames), the barriers'
 * counts, its place in the round-robin and memory.  If that state at the
 * start of a round-robin pass is the same as at an earlier pass, and no
 * thread wrote memory in between (in a parallel run, no thread of any
 * worker), then the block will go round the same passes forever: no warp
 * can see anything new.  The typical case is the intra-warp spin lock,
 * where the lane holding the lock waits to reconverge with lanes that spin
 * on it: it ends only with Volta's independent thread scheduling, which
 * the simulator does not model (docs/SIMULATOR.md).
 *
 * Only a block that has run for a long time is looked at (SPIN_AFTER
 * warp-instructions), and then only at every SPIN_EVERY-th pass, whose
 * state is hashed; Brent's algorithm finds the cycle within about twice its
 * length of looks.  A hash collision could only make a false report with a
 * probability of 2^-64 a look.  What does not count as a write: loads, a
 * compare-and-swap that fails, an exchange of the value already there;
 * reading %clock makes the registers differ, so a timed wait is never a
 * cycle.  A block waiting for another block runs forever here too (blocks
 * run one after another); in a parallel run only the lowest block that has
 * not finished is looked at, so that one waiting for a block before it is
 * not reported while that block still runs.  The blocks of a cooperative
 * launch take turns and may wait for one another (grid.sync()): one whose
 * state repeats is only a suspect, and the launch faults when every block
 * repeats with no write since. */

#include <string.h>

#include "ks-sim-exec.h"
#include "ks-sim-private.h"

#define SPIN_AFTER (G_GUINT64_CONSTANT (1) << 22)
#define SPIN_EVERY 16u

static inline uint64_t
mix (uint64_t h,
     uint64_t v)
{
  h = (h ^ v) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return h ^ (h >> 29);
}

static uint64_t
mix_words (uint64_t        h,
           const uint64_t *v,
           size_t          n)
{
  for (size_t i = 0; i < n; i++)
    h = mix (h, v[i]);
  return h;
}

static uint64_t
mix_bytes (uint64_t       h,
           const uint8_t *p,
           size_t         n)
{
  size_t i = 0;

  for (; i + 8 <= n; i += 8)
    {
      uint64_t v;

      memcpy (&v, p + i, 8);
      h = mix (h, v);
    }
  for (; i < n; i++)
    h = mix (h, p[i]);
  return h;
}

static uint64_t
warp_hash (const KsSim     *sim,
           const KsSimWarp *w,
           uint64_t         h)
{
  h = mix (h, ((uint64_t) w->state << 32) | w->live);
  if (w->state == KS_WARP_DONE)
    return h;
  h = mix (h, ((uint64_t) w->barrier << 32) | w->barrier_count);
  h = mix (h, ((uint64_t) w->local_top << 32) | w->n_simt);
  h = mix (h, ((uint64_t) w->n_frames << 32) | w->red_value);
  h = mix (h, w->mbar_seen);
  for (uint32_t i = 0; i < w->n_simt; i++)
    h = mix (h, ((uint64_t) w->simt[i].pc << 32 | w->simt[i].rpc) ^ ((uint64_t) w->simt[i].mask << 13));
  for (uint32_t i = 0; i < w->n_frames; i++)
    {
      const KsSimFrame *fr = &w->frames[i];
      const KsPtxFunction *fn = &sim->module->functions[fr->fn];

      h = mix (h, ((uint64_t) fr->fn << 32) | fr->local_base);
      h = mix (h, ((uint64_t) fr->simt_base << 32) | fr->call_pc);
      h = mix (h, ((uint64_t) fr->call_mask << 32) | fr->carry);
      h = mix_words (h, fr->regs, (size_t) fn->n_reg_slots * KS_WARP_SIZE);
      for (uint32_t p = 0; p < fn->n_pred_slots; p++)
        h = mix (h, fr->preds[p]);
      if (fr->params != NULL)
        h = mix_bytes (h, fr->params, (size_t) sim->layouts[fr->fn].param_size * KS_WARP_SIZE);
    }
  return h;
}

static uint64_t
block_hash (const KsSim *sim)
{
  const KsSimCta *c = &sim->cta;
  uint64_t h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  h = mix (h, ((uint64_t) sim->current_warp << 32) | c->n_done);
  h = mix (h, c->mbar_version);
  for (uint32_t b = 0; b < KS_SIM_N_BARRIERS; b++)
    h = mix (h, c->arrived[b]);
  for (uint32_t i = 0; i < c->n_warps; i++)
    h = warp_hash (sim, &c->warps[i], h);
  return h;
}

/* Every write any thread of the run has made so far */
static uint64_t
all_writes (const KsSim *sim)
{
  uint64_t n = 0;

  if (sim->shared == NULL)
    return sim->mem_writes;
  for (uint32_t k = 0; k < sim->shared->n_workers; k++)
    n += __atomic_load_n (&sim->shared->workers[k]->mem_writes, __ATOMIC_RELAXED);
  return n;
}

void
ks_sim_spin_reset (KsSim *sim)
{
  sim->spin_start = sim->stats.warp_instructions;
  sim->spin_power = 0;
  sim->spin_pass = 0;
}

static void
spin_fault (KsSim *sim)
{
  const KsSimCta *c = &sim->cta;
  KsSimWarp *blame = NULL;
  uint32_t parked = 0, running = 0;

  /* The warp to name: one whose lanes wait to reconverge with the lanes
   * that loop, else the first that runs */
  for (uint32_t i = 0; i < c->n_warps && parked == 0; i++)
    {
      KsSimWarp *w = &c->warps[i];
      uint32_t mask;

      if (w->state != KS_WARP_RUNNING || w->n_simt == 0)
        continue;
      running++;
      if (blame == NULL)
        blame = w;
      mask = ks_sim_warp_parked (w);
      if (mask != 0)
        {
          blame = w;
          parked = mask;
        }
    }
  if (blame == NULL)
    return;
  {
    const KsSimtEntry *top = &blame->simt[blame->n_simt - 1];
    const KsPtxInsn *insn = ks_sim_warp_insn (sim, blame);
    int lane = __builtin_ctz (top->mask ? top->mask : 1);

    if (sim->coop != NULL)
      {
        g_autofree char *others = running > 1
          ? g_strdup_printf (" (and %u other warp%s of the block)", running - 1,
                             running == 2 ? "" : "s")
          : g_strdup ("");

        ks_sim_fault (sim, blame, lane, insn, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                      "livelock: warp %u%s loops forever, and so does every other block of the "
                      "cooperative launch; their states repeat and no thread writes memory, so "
                      "nothing can end the wait (a grid.sync() that some block never reaches?)",
                      blame->index, others);
      }
    else if (parked != 0)
      ks_sim_fault (sim, blame, lane, insn, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                    "livelock: lanes 0x%08x of warp %u loop forever while lanes 0x%08x of the "
                    "same warp wait to reconverge; the block's state repeats and no thread "
                    "writes memory, so nothing can end the loop. If the loop waits for those "
                    "lanes (an intra-warp spin lock), it can only finish with Volta's "
                    "independent thread scheduling, which this simulator does not model",
                    top->mask, blame->index, parked);
    else
      ks_sim_fault (sim, blame, lane, insn, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                    "livelock: warp %u (and %u other warp%s of the block) loops forever; the "
                    "block's state repeats and no thread writes memory, so nothing can end the "
                    "loop (a wait for another block never ends here: blocks run one after "
                    "another, unless the launch is cooperative: cudaLaunchCooperativeKernel, "
                    "\"cooperative\": true in a launch spec)", blame->index, running - 1,
                    running == 2 ? "" : "s");
  }
}

void
ks_sim_spin_check (KsSim *sim)
{
  uint64_t h, writes;

  if (G_LIKELY (sim->stats.warp_instructions - sim->spin_start < SPIN_AFTER)
      || ++sim->spin_pass % SPIN_EVERY != 0)
    return;
  /* a worker: only when every block before this one has finished */
  if (sim->shared != NULL && sim->block != NULL
      && __atomic_load_n (&sim->shared->committed, __ATOMIC_RELAXED) != sim->block->cta)
    {
      sim->spin_power = 0;
      return;
    }
  writes = all_writes (sim);
  h = block_hash (sim);
  if (sim->spin_power != 0 && h == sim->spin_hash && writes == sim->spin_writes)
    {
      if (sim->coop != NULL)
        {
          sim->spin_suspect = writes + 1;
          if (!ks_sim_coop_all_repeat (sim, writes))
            return;
        }
      spin_fault (sim);
      return;
    }
  /* Brent: a new reference at every power of two looks */
  if (sim->spin_power == 0 || sim->spin_lambda == sim->spin_power || writes != sim->spin_writes)
    {
      sim->spin_power = sim->spin_power == 0 || writes != sim->spin_writes ? 1 : sim->spin_power * 2;
      sim->spin_lambda = 0;
      sim->spin_hash = h;
      sim->spin_writes = writes;
    }
  sim->spin_lambda++;
}
