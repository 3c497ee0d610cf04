/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-lanes.c: one warp's instructions, lane by lane. */

#include <string.h>

#include "ks-sim-lanes.h"
#include "ks-sim-private.h"

typedef struct
{
  uint32_t cta, warp, max_steps;
  GArray *steps, *values;
  KsLaneStep pending;           /* filled before the instruction */
  gboolean have_pending;
  gboolean truncated;
  GCancellable *stop;
} Recorder;

static void
read_value (const KsSimFrame *frame,
            const KsPtxFunction *fn,
            uint32_t          ref,
            KsLaneValue      *v)
{
  if (ref & KS_PTX_REF_PRED)
    {
      uint32_t p = ref & ~KS_PTX_REF_PRED;
      uint32_t mask = p < fn->n_pred_slots ? frame->preds[p] : 0;

      for (uint32_t l = 0; l < 32; l++)
        v->lanes[l] = (mask >> l) & 1;
    }
  else if (ref < fn->n_reg_slots)
    memcpy (v->lanes, &frame->regs[(size_t) ref * KS_WARP_SIZE], sizeof v->lanes);
}

static void
hook (KsSim     *sim,
      KsSimWarp *w,
      gboolean   after,
      gpointer   data)
{
  Recorder *r = data;
  const KsSimFrame *frame;
  const KsPtxFunction *fn;
  const KsPtxInsn *in;
  KsPtxRegRefs refs;

  if (sim->cta_linear != r->cta || w->index != r->warp)
    return;
  if (w->n_frames == 0 || w->n_simt == 0)
    {
      /* it has just exited: nothing more to read */
      if (after && r->have_pending)
        {
          g_array_append_val (r->steps, r->pending);
          r->have_pending = FALSE;
        }
      return;
    }
  frame = &w->frames[w->n_frames - 1];
  fn = &sim->module->functions[frame->fn];

  if (!after)
    {
      const KsSimtEntry *top = &w->simt[w->n_simt - 1];
      uint32_t insn = fn->first_insn + top->pc;

      r->have_pending = FALSE;
      if (r->steps->len >= r->max_steps)
        {
          r->truncated = TRUE;
          g_cancellable_cancel (r->stop);
          return;
        }
      if (top->pc >= fn->n_insns)
        return;
      in = &sim->module->insns[insn];
      r->pending.insn = insn;
      r->pending.active = top->mask & w->live;
      r->pending.executed = r->pending.active;
      if (in->pred != KS_PTX_NONE && in->pred < fn->n_pred_slots)
        r->pending.executed &= in->pred_not ? ~frame->preds[in->pred] : frame->preds[in->pred];
      r->pending.first_value = r->values->len;
      r->pending.n_values = 0;
      ks_ptx_insn_reg_refs (sim->module, in, &refs);
      for (uint32_t i = 0; i < refs.n_uses; i++)
        {
          KsLaneValue v = { refs.uses[i], frame->fn, FALSE, { 0 } };

          read_value (frame, fn, refs.uses[i], &v);
          g_array_append_val (r->values, v);
          r->pending.n_values++;
        }
      r->have_pending = TRUE;
      return;
    }

  if (!r->have_pending)
    return;
  /* after: what it wrote, in the frame it wrote to (a ret returns to the
   * caller's, where its results are not the callee's registers) */
  in = &sim->module->insns[r->pending.insn];
  if (in->opcode != KS_PTX_OPC_CALL && in->opcode != KS_PTX_OPC_RET)
    {
      ks_ptx_insn_reg_refs (sim->module, in, &refs);
      for (uint32_t i = 0; i < refs.n_defs; i++)
        {
          KsLaneValue v = { refs.defs[i], frame->fn, TRUE, { 0 } };

          read_value (frame, fn, refs.defs[i], &v);
          g_array_append_val (r->values, v);
          r->pending.n_values++;
        }
    }
  g_array_append_val (r->steps, r->pending);
  r->have_pending = FALSE;
}

KsLaneTrace *
ks_lane_trace_record (const KsPtxModule *module,
                      const KsLaunch    *launch,
                      uint32_t           cta,
                      uint32_t           warp,
                      uint32_t           max_steps,
                      GCancellable      *cancellable,
                      GError           **error)
{
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  Recorder r = { cta, warp, max_steps ? max_steps : 4096, NULL, NULL, { 0 }, FALSE, FALSE, stop };
  KsLaneTrace *t;
  uint64_t n_ctas;
  gulong link = 0;
  KsSimStatus st;

  g_return_val_if_fail (module != NULL && launch != NULL, NULL);

  n_ctas = (uint64_t) launch->grid[0] * launch->grid[1] * launch->grid[2];
  if (cta >= n_ctas)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "block %u: the launch has %" G_GUINT64_FORMAT " blocks", cta, n_ctas);
      return NULL;
    }
  /* (of a sequence, the launch its top level holds, after the others) */
  sim = ks_sim_new_selected (module, launch, 1, cancellable, error);
  if (sim == NULL)
    return NULL;
  if (warp >= sim->warps_per_cta)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "warp %u: a block has %u warps", warp, sim->warps_per_cta);
      return NULL;
    }
  ks_sim_set_trace (sim, FALSE, 0);
  r.steps = g_array_new (FALSE, FALSE, sizeof (KsLaneStep));
  r.values = g_array_new (FALSE, FALSE, sizeof (KsLaneValue));
  sim->step_hook = hook;
  sim->step_hook_data = &r;
  if (cancellable != NULL)
    link = g_cancellable_connect (cancellable, G_CALLBACK (g_cancellable_cancel), stop, NULL);
  st = ks_sim_run (sim, 0, stop);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, link);
  if ((st == KS_SIM_CANCELLED && !r.truncated) || (st == KS_SIM_FAULTED && r.steps->len == 0))
    {
      if (st == KS_SIM_CANCELLED)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the kernel faulted before block %u "
                     "warp %u ran: %s", cta, warp, ks_sim_get_fault (sim)->message);
      g_array_unref (r.steps);
      g_array_unref (r.values);
      return NULL;
    }
  t = g_new0 (KsLaneTrace, 1);
  t->cta = cta;
  t->warp = warp;
  t->truncated = r.truncated;
  t->n_steps = r.steps->len;
  t->steps = (KsLaneStep *) (void *) g_array_free (r.steps, FALSE);
  t->n_values = r.values->len;
  t->values = (KsLaneValue *) (void *) g_array_free (r.values, FALSE);
  return t;
}

void
ks_lane_trace_free (KsLaneTrace *t)
{
  if (t == NULL)
    return;
  g_free (t->steps);
  g_free (t->values);
  g_free (t);
}

char *
ks_lane_value_name (const KsPtxModule *m,
                    const KsLaneValue *v)
{
  const KsPtxFunction *fn;
  gboolean pred = (v->ref & KS_PTX_REF_PRED) != 0;
  uint32_t slot = v->ref & ~KS_PTX_REF_PRED;

  if (v->function >= m->n_functions)
    return g_strdup ("?");
  fn = &m->functions[v->function];
  for (uint32_t d = 0; d < fn->n_reg_decls && fn->first_reg_decl + d < m->n_reg_decls; d++)
    {
      const KsPtxRegDecl *rd = &m->reg_decls[fn->first_reg_decl + d];
      gboolean is_pred = rd->type == KS_PTX_TYPE_PRED;
      g_autofree char *name = NULL;

      if (is_pred != pred || slot < rd->first_slot || slot >= rd->first_slot + rd->count)
        continue;
      name = ks_ptx_span_dup (m, rd->name);
      /* %r<10> declares %r0..%r9; a plain declaration names one register */
      if (rd->count > 1 || strchr (name, '<') != NULL)
        return g_strdup_printf ("%s%u", name, slot - rd->first_slot);
      return g_steal_pointer (&name);
    }
  return g_strdup_printf (pred ? "%%p?%u" : "%%r?%u", slot);
}
