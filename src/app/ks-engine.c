/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine.c: the engine thread's work, until the core's analysis
 * pipeline (src/core/analysis) takes it over: parse the PTX of the pane,
 * estimate the resources, compute the occupancy, run the launch spec in
 * the simulator and collect the hints. */

#include "ks-engine.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-toolchain.h"

void
ks_engine_request_init (KsEngineRequest *request)
{
  memset (request, 0, sizeof *request);
}

void
ks_engine_request_clear (KsEngineRequest *request)
{
  g_clear_pointer (&request->cuda_path, g_free);
  g_clear_pointer (&request->cuda_text, g_free);
  g_clear_pointer (&request->ptx_path, g_free);
  g_clear_pointer (&request->ptx_text, g_free);
  g_clear_pointer (&request->spec_path, g_free);
  g_clear_pointer (&request->gpu, g_free);
}

static void
result_free (KsEngineResult *r)
{
  if (r->diagnostics != NULL)
    for (guint i = 0; i < r->diagnostics->len; i++)
      {
        KsEngineDiagnostic *d = &g_array_index (r->diagnostics, KsEngineDiagnostic, i);

        g_free (d->file);
        g_free (d->message);
      }
  g_clear_pointer (&r->diagnostics, g_array_unref);
  g_clear_pointer (&r->error, g_free);
  g_clear_pointer (&r->hints, g_ptr_array_unref);
  g_clear_pointer (&r->sim, ks_sim_free);
  g_clear_pointer (&r->module, ks_ptx_module_free);
  g_clear_pointer (&r->launch, ks_launch_free);
  g_clear_pointer (&r->resources, ks_kernel_resources_free);
  g_clear_pointer (&r->occupancy_error, g_free);
  g_clear_pointer (&r->db, ks_gpu_db_free);
}

KsEngineResult *
ks_engine_result_ref (KsEngineResult *result)
{
  return g_atomic_rc_box_acquire (result);
}

void
ks_engine_result_unref (KsEngineResult *result)
{
  g_atomic_rc_box_release_full (result, (GDestroyNotify) result_free);
}

static int32_t
find_kernel (const KsPtxModule *m,
             const char        *name)
{
  for (uint32_t i = 0; i < m->n_functions; i++)
    {
      const KsPtxFunction *f = &m->functions[i];

      if (f->kind != KS_PTX_FUNCTION_ENTRY || !(f->flags & KS_PTX_FUNCTION_HAS_BODY))
        continue;
      if (name == NULL || ks_ptx_span_equal (m, f->name, name))
        return (int32_t) i;
    }
  return -1;
}

typedef struct
{
  KsEngineProgressFunc func;
  gpointer user_data;
} SimProgress;

/* The simulation is most of the time: 20 % to 95 % of the bar */
static void
sim_progress_cb (double   fraction,
                 gpointer user_data)
{
  SimProgress *sp = user_data;

  sp->func (_("Simulating"), 0.2 + 0.75 * fraction, sp->user_data);
}

static KsEngineResult *
fail (KsEngineResult *r,
      char           *message)
{
  r->status = KS_ENGINE_FAILED;
  r->error = message;
  return r;
}

KsEngineResult *
ks_engine_run (const KsEngineRequest *request,
               GCancellable          *cancellable,
               KsEngineProgressFunc   progress,
               gpointer               user_data)
{
  static gsize nvcc_checked;
  static int have_nvcc;
  KsEngineResult *r = g_atomic_rc_box_new0 (KsEngineResult);
  g_autoptr(GError) error = NULL;
  const char *ptx_name = request->ptx_path ? request->ptx_path : "kernel.ptx";
  uint32_t block_size = 256;
  uint64_t n_blocks = 0;

  if (g_once_init_enter (&nvcc_checked))
    {
      g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);

      have_nvcc = ks_toolchain_get_path (tc, KS_TOOL_NVCC) != NULL;
      g_once_init_leave (&nvcc_checked, 1);
    }
  r->have_nvcc = have_nvcc;
  r->kernel_index = -1;
  r->diagnostics = g_array_new (FALSE, TRUE, sizeof (KsEngineDiagnostic));

  if (request->ptx_text == NULL)
    return fail (r, g_strdup (_("There is no PTX to analyse: this version compiles CUDA only "
                                "through the PTX file beside it")));

  if (progress)
    progress (_("Parsing the PTX"), 0.05, user_data);
  {
    gsize len = strlen (request->ptx_text);
    g_autoptr(GBytes) bytes = g_bytes_new (request->ptx_text, len);

    r->module = ks_ptx_module_parse (bytes, ptx_name);
  }
  for (uint32_t i = 0; i < r->module->n_diagnostics; i++)
    {
      const KsPtxDiagnostic *pd = &r->module->diagnostics[i];
      KsEngineDiagnostic d = { g_path_get_basename (ptx_name), pd->line, pd->column, pd->severity,
                               g_strdup (pd->message) };

      g_array_append_val (r->diagnostics, d);
    }
  if (r->module->n_errors > 0)
    return fail (r, g_strdup_printf (ngettext ("The PTX has %u error", "The PTX has %u errors",
                                               r->module->n_errors), r->module->n_errors));
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  if (request->spec_path != NULL)
    {
      r->launch = ks_launch_load (request->spec_path, &error);
      if (r->launch == NULL)
        return fail (r, g_strdup (error->message));
    }
  r->kernel_index = find_kernel (r->module, r->launch ? r->launch->kernel : NULL);
  if (r->kernel_index < 0)
    return fail (r, g_strdup (_("The PTX has no kernel (.entry) to analyse")));

  r->db = ks_gpu_db_load_default (&error);
  if (r->db == NULL)
    return fail (r, g_strdup (error->message));
  if (request->gpu != NULL)
    r->gpu = ks_gpu_db_get_gpu (r->db, request->gpu);
  if (r->gpu != NULL)
    r->arch = ks_gpu_db_get_arch (r->db, r->gpu->arch);
  if (r->arch == NULL)
    {
      g_autofree char *target = r->module->n_targets
                                ? ks_ptx_span_dup (r->module, r->module->words[r->module->first_target])
                                : g_strdup ("sm_80");

      r->arch = ks_gpu_db_get_arch (r->db, target);
      if (r->arch == NULL)
        r->arch = ks_gpu_db_get_arch (r->db, "sm_80");
      if (r->arch != NULL)
        r->gpu = ks_gpu_db_representative_gpu (r->db, r->arch);
    }
  if (r->arch == NULL)
    return fail (r, g_strdup (_("The GPU database has no architecture for this kernel")));

  if (progress)
    progress (_("Resources and occupancy"), 0.1, user_data);
  r->resources = ks_resources_estimate (r->module, (uint32_t) r->kernel_index);
  if (r->launch != NULL)
    {
      block_size = r->launch->block[0] * r->launch->block[1] * r->launch->block[2];
      n_blocks = (uint64_t) r->launch->grid[0] * r->launch->grid[1] * r->launch->grid[2];
    }
  if (r->resources != NULL)
    {
      KsOccupancyInput in;

      ks_occupancy_input_init (&in);
      in.block_size = block_size;
      in.registers_per_thread = r->resources->registers;
      in.static_shared_bytes = r->resources->shared_static_bytes;
      in.dynamic_shared_bytes = r->launch ? r->launch->dynamic_shared_bytes : 0;
      in.barriers = r->resources->barriers;
      r->have_occupancy = ks_occupancy_compute (r->arch, &in, &r->occupancy, &error);
      if (!r->have_occupancy)
        {
          r->occupancy_error = g_strdup (error->message);
          g_clear_error (&error);
        }
    }

  if (r->launch != NULL)
    {
      SimProgress sp = { progress, user_data };

      r->sim = ks_sim_new (r->module, r->launch, &error);
      if (r->sim == NULL)
        return fail (r, g_strdup (error->message));
      if (progress)
        {
          ks_sim_set_progress_func (r->sim, sim_progress_cb, &sp);
          progress (_("Simulating"), 0.2, user_data);
        }
      if (ks_sim_run (r->sim, 0, cancellable) == KS_SIM_CANCELLED)
        goto cancelled;
      if (ks_sim_get_fault (r->sim) != NULL)
        r->status = KS_ENGINE_FAULTED;
    }

  if (progress)
    progress (_("Hints"), 0.95, user_data);
  {
    KsHintInput hin = { r->module, r->sim, r->have_occupancy ? &r->occupancy : NULL, r->resources,
                        n_blocks, r->gpu ? r->gpu->sm_count : 0 };

    r->hints = ks_hints_compute (&hin);
  }
  return r;

cancelled:
  ks_engine_result_unref (r);
  return NULL;
}
