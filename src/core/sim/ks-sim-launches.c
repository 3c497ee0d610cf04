/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-launches.c: a spec's "launches" run in turn over the same memory,
 * for kernelscope-cli run and the analysis alike, and what each did. */

#include "ks-sim-private.h"

#include <string.h>

KsSim *
ks_sim_run_launches (const KsPtxModule *module,
                     const KsLaunch    *launch,
                     uint32_t           first,
                     uint32_t           end,
                     const KsSim       *prev,
                     KsSimLaunchFunc    setup,
                     KsSimLaunchFunc    done,
                     gpointer           user_data,
                     GCancellable      *cancellable,
                     GError           **error)
{
  KsSim *sim = NULL;

  g_return_val_if_fail (module != NULL && launch != NULL, NULL);
  g_return_val_if_fail (first < end && end <= MAX (launch->n_steps, 1), NULL);
  g_return_val_if_fail ((first == 0) == (prev == NULL), NULL);

  for (uint32_t k = first; k < end; k++)
    {
      /* the last one, which is this loop's, gives its memory to the next */
      KsSim *next = sim != NULL ? ks_sim_new_step_taking (module, launch, k, sim, error)
                                : ks_sim_new_step (module, launch, k, prev, error);
      KsSimStatus status;

      /* the memory now lives in the next one */
      g_clear_pointer (&sim, ks_sim_free);
      if (next == NULL)
        return NULL;
      sim = next;
      if (setup != NULL)
        setup (sim, k, user_data);
      status = ks_sim_run (sim, 0, cancellable);
      if (done != NULL)
        done (sim, k, user_data);
      if (status != KS_SIM_DONE)
        break;
    }
  return sim;
}

static void
set_threads (KsSim    *sim,
             uint32_t  step,
             gpointer  user_data)
{
  ks_sim_set_trace (sim, FALSE, 0);
  ks_sim_set_threads (sim, GPOINTER_TO_UINT (user_data));
}

KsSim *
ks_sim_new_selected (const KsPtxModule *module,
                     const KsLaunch    *launch,
                     uint32_t           threads,
                     GCancellable      *cancellable,
                     GError           **error)
{
  g_autoptr(KsSim) before = NULL;
  const KsSimFault *fault;

  g_return_val_if_fail (module != NULL && launch != NULL, NULL);
  g_return_val_if_fail (launch->step < MAX (launch->n_steps, 1), NULL);

  if (launch->n_steps <= 1)
    return ks_sim_new (module, launch, error);
  if (launch->step == 0)
    return ks_sim_new_step (module, launch, 0, NULL, error);

  before = ks_sim_run_launches (module, launch, 0, launch->step, NULL, set_threads, NULL,
                                GUINT_TO_POINTER (threads), cancellable, error);
  if (before == NULL)
    return NULL;
  switch (ks_sim_get_status (before))
    {
    case KS_SIM_DONE:
      return ks_sim_new_step (module, launch, launch->step, before, error);

    case KS_SIM_FAULTED:
      fault = ks_sim_get_fault (before);
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "%skernel faulted in block (%u, %u, %u), thread (%u, %u, %u): %s",
                   before->where, fault->block[0], fault->block[1], fault->block[2],
                   fault->thread[0], fault->thread[1], fault->thread[2], fault->message);
      return NULL;

    case KS_SIM_CANCELLED:
    case KS_SIM_READY:
    default:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return NULL;
    }
}

void
ks_sim_launch_report_fill (KsSimLaunchReport *report,
                           const KsPtxModule *module,
                           const KsLaunch    *launch,
                           uint32_t           step,
                           const KsSim       *sim)
{
  const char *kernel = launch->n_steps > 0 ? launch->steps[step].kernel : launch->kernel;

  g_return_if_fail (report != NULL && module != NULL && launch != NULL);
  g_return_if_fail (step < MAX (launch->n_steps, 1));

  ks_sim_launch_report_clear (report);
  if (launch->n_steps > 0)
    {
      const KsLaunchStep *st = &launch->steps[step];

      memcpy (report->grid, st->grid, sizeof report->grid);
      memcpy (report->block, st->block, sizeof report->block);
      report->dynamic_shared_bytes = st->dynamic_shared_bytes;
    }
  else
    {
      memcpy (report->grid, launch->grid, sizeof report->grid);
      memcpy (report->block, launch->block, sizeof report->block);
      report->dynamic_shared_bytes = launch->dynamic_shared_bytes;
    }

  if (sim != NULL)
    report->kernel = ks_ptx_span_dup (module, module->functions[sim->entry].name);
  else if (kernel != NULL)
    report->kernel = g_strdup (kernel);
  else
    {
      /* the module's one kernel */
      for (uint32_t i = 0; i < module->n_functions && report->kernel == NULL; i++)
        if (module->functions[i].kind == KS_PTX_FUNCTION_ENTRY
            && (module->functions[i].flags & KS_PTX_FUNCTION_HAS_BODY))
          report->kernel = ks_ptx_span_dup (module, module->functions[i].name);
      if (report->kernel == NULL)
        report->kernel = g_strdup ("(none)");
    }

  if (sim == NULL)
    return;
  report->run = TRUE;
  report->status = ks_sim_get_status (sim);
  report->stats = *ks_sim_get_stats (sim);
  if (report->status == KS_SIM_FAULTED)
    {
      report->fault = *ks_sim_get_fault (sim);
      report->fault.message = g_strdup (report->fault.message);
      report->fault.cuda_file = g_strdup (report->fault.cuda_file);
    }
}

void
ks_sim_launch_report_clear (KsSimLaunchReport *report)
{
  g_free (report->kernel);
  g_free (report->fault.message);
  g_free (report->fault.cuda_file);
  memset (report, 0, sizeof *report);
}
