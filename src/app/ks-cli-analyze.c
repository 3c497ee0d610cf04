/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-analyze.c: `kernelscope-cli analyze`, the pipeline in one command.
 *
 * The work is ks_analysis_run() (src/core/analysis): compile a .cu with
 * nvcc when it is there, parse, resources (ptxas -v, else the estimate from
 * the PTX), occupancy on the chosen GPU, simulation (the spec's launch, or
 * the default launch of ks_launch_default_json() for a file alone), the
 * timing model, and hints.  This file reads the options and prints. */

#include "ks-cli-analyze.h"
#include "ks-cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks-analysis.h"
#include "ks-format.h"

static int
fail (gboolean    json,
      int         status,
      const char *message)
{
  return ks_cli_fail ("analyze", json, status, message);
}

void
ks_cli_print_diagnostics (const KsAnalysis *a)
{
  /* Messages with their places, as compilers print them */
  for (guint i = 0; i < a->diagnostics->len; i++)
    {
      const KsDiagnostic *d = &g_array_index (a->diagnostics, KsDiagnostic, i);
      const char *sev = d->severity == KS_DIAGNOSTIC_ERROR ? "error"
                        : d->severity == KS_DIAGNOSTIC_WARNING ? "warning" : "note";

      if (d->line && d->column)
        g_printerr ("%s:%u:%u: %s: %s\n", d->file, d->line, d->column, sev, d->message);
      else if (d->line)
        g_printerr ("%s:%u: %s: %s\n", d->file, d->line, sev, d->message);
      else
        g_printerr ("%s: %s: %s\n", d->file, sev, d->message);
    }
}

static void
print_text (const KsAnalysis *a)
{
  const KsKernelResources *res = a->resources;
  g_autofree char *name = ks_format_name (a->kernel_name, -1);

  g_print ("%s on %s (%s)\n", name, a->gpu ? a->gpu->name : a->arch->id, a->arch->id);
  g_print ("  launch: <<<(%u, %u, %u), (%u, %u, %u)>>>%s\n", a->launch->grid[0],
           a->launch->grid[1], a->launch->grid[2], a->launch->block[0], a->launch->block[1],
           a->launch->block[2], a->launch_is_default ? " (the default launch: no spec given)" : "");
  /* a sequence: each launch, the one analysed marked */
  for (uint32_t k = 0; k < a->n_launches; k++)
    {
      const KsSimLaunchReport *l = &a->launches[k];

      g_print ("  %s launch %u: %s <<<(%u, %u, %u), (%u, %u, %u)>>>: ",
               k == a->launch->step ? "*" : " ", k, l->kernel, l->grid[0], l->grid[1], l->grid[2],
               l->block[0], l->block[1], l->block[2]);
      if (!l->run)
        g_print ("not run\n");
      else if (l->status == KS_SIM_FAULTED)
        g_print ("fault in block [%u,%u,%u], thread [%u,%u,%u]: %s\n", l->fault.block[0],
                 l->fault.block[1], l->fault.block[2], l->fault.thread[0], l->fault.thread[1],
                 l->fault.thread[2], l->fault.message);
      else
        g_print ("%" G_GUINT64_FORMAT " warp-instructions%s\n", l->stats.warp_instructions,
                 l->status == KS_SIM_DONE ? "" : ", stopped");
    }
  g_print ("  resources (%s): %u registers, %u bytes of shared memory, %u spilled\n",
           ks_resources_source_name (res->source), res->registers, res->shared_static_bytes,
           res->spill_store_bytes);
  if (a->have_occupancy)
    {
      g_autofree char *pct = ks_format_figure (a->occupancy.occupancy * 100);

      g_print ("  occupancy: %u blocks and %u of %u warps per SM (%s %%), limited by %s%s\n",
               a->occupancy.active_blocks_per_sm, a->occupancy.active_warps_per_sm,
               a->occupancy.max_warps_per_sm, pct,
               ks_occupancy_limiter_label (a->occupancy.limiter),
               a->occupancy.shared_opt_in
                 ? " (with cudaFuncAttributeMaxDynamicSharedMemorySize)"
                 : "");
    }
  if (a->occupancy_error != NULL)
    g_print ("  occupancy: %s\n", a->occupancy_error);
  if (a->sim != NULL)
    {
      const KsSimStats *st = ks_sim_get_stats (a->sim);

      g_print ("  simulation: %s, %" G_GUINT64_FORMAT " warp-instructions\n",
               ks_sim_get_fault (a->sim) ? ks_sim_get_fault (a->sim)->message : "done",
               st->warp_instructions);
      if (st->sampled_blocks > 0)
        g_print ("  simulation: only %" G_GUINT64_FORMAT " blocks ran (--sample-blocks): "
                 "the buffers are not the kernel's output\n", st->sampled_blocks);
    }
  if (a->timing != NULL)
    {
      const KsTiming *t = a->timing;

      g_print ("  timing (a model, not a measurement): %.0f cycles per SM, %.3g waves, "
               "~%.2f us, %s-bound (memory floor %.2f us, floating-point floor %.2f us)\n",
               t->sm_cycles, t->waves_per_sm, t->estimated_duration_us, ks_bound_name (t->bound),
               t->memory_floor_us, t->compute_floor_us);
    }
  else if (a->timing_error != NULL)
    g_print ("  timing: %s\n", a->timing_error);
  for (guint i = 0; i < a->hints->len; i++)
    {
      const KsHint *h = a->hints->pdata[i];

      if (h->ptx_line)
        g_print ("  %s: PTX line %u: %s\n    %s\n", ks_hint_severity_name (h->severity),
                 h->ptx_line, h->message, h->suggestion);
      else
        g_print ("  %s: %s\n    %s\n", ks_hint_severity_name (h->severity), h->message,
                 h->suggestion);
    }
}

int
ks_cli_analyze (int    argc,
                char **argv)
{
  gboolean json = FALSE, no_toolkit = FALSE, lrr = FALSE, as_written = FALSE, in_order = FALSE;
  gboolean no_sass_timing = FALSE;
  gint64 sample_blocks = 0, launch_step = 0;
  double max_seconds_opt = NAN;
  g_autofree char *max_seconds_note = NULL;
  g_autofree char *arch_opt = NULL, *gpu_opt = NULL, *kernel_opt = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the analysis as one JSON object", NULL },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_opt, "Analyse for this architecture", "sm_XX" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_opt, "Analyse for this GPU (see data/gpus.json)", "ID" },
    { "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_opt, "The kernel of a file with several", "NAME" },
    { "launch", 0, 0, G_OPTION_ARG_INT64, &launch_step,
      "Of a spec of several \"launches\", the one to analyse (from 0; the others run untraced, "
      "each from the memory the one before left)", "N" },
    { "no-toolkit", 0, 0, G_OPTION_ARG_NONE, &no_toolkit,
      "Never run nvcc or ptxas (resources are estimated)", NULL },
    { "lrr", 0, 0, G_OPTION_ARG_NONE, &lrr,
      "Schedule warps loose round-robin (default: greedy-then-oldest)", NULL },
    { "ptx-as-written", 0, 0, G_OPTION_ARG_NONE, &as_written,
      "Time every PTX instruction, not what ptxas makes of them (for comparison)", NULL },
    { "in-order", 0, 0, G_OPTION_ARG_NONE, &in_order,
      "Issue in the PTX's order: no loads issued ahead as ptxas schedules a loop (for "
      "comparison)", NULL },
    { "no-sass-timing", 0, 0, G_OPTION_ARG_NONE, &no_sass_timing,
      "Time the loops from the PTX even where the kernel's SASS runs them (for comparison)",
      NULL },
    { "sample-blocks", 0, 0, G_OPTION_ARG_INT64, &sample_blocks,
      "Run only the busiest SM's first N blocks (0, S, 2S, ...; S the GPU's SMs): the timing of "
      "a launch too large to run whole; the kernel's results are not computed", "N" },
    { "max-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &max_seconds_opt,
      "Stop the simulation with a time_limit fault after N seconds (default 10, 0: no limit)",
      "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("SPEC.json|FILE.ptx|FILE.cu - resources, occupancy, simulation, "
                          "timing and hints");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 2)
    return fail (json, KS_CLI_EXIT_USAGE, "expected one launch spec, PTX or CUDA file");
  if (arch_opt && gpu_opt)
    return fail (json, KS_CLI_EXIT_USAGE, "give --arch or --gpu, not both");

  ks_analysis_request_init (&req);
  req.path = argv[1];
  req.arch = arch_opt;
  req.gpu = gpu_opt;
  req.kernel = kernel_opt;
  req.use_toolkit = !no_toolkit;
  req.scheduler = lrr ? KS_SCHEDULER_LRR : KS_SCHEDULER_GTO;
  req.ptx_as_written = as_written;
  req.in_order = in_order;
  req.sass_timing = !no_sass_timing;
  if (sample_blocks < 0)
    return fail (json, KS_CLI_EXIT_USAGE, "--sample-blocks: expected a number of blocks >= 0");
  req.sample_blocks = (uint64_t) sample_blocks;
  if (launch_step < 0 || launch_step > G_MAXUINT32)
    return fail (json, KS_CLI_EXIT_USAGE, "--launch: expected a launch's index, from 0");
  req.launch_step = (uint32_t) launch_step;
  if (!ks_cli_max_seconds (max_seconds_opt, &req.max_seconds, &max_seconds_note))
    return fail (json, KS_CLI_EXIT_USAGE, "--max-seconds must be a number of seconds >= 0");
  req.max_seconds_note = max_seconds_note;
  a = ks_analysis_run (&req, NULL, NULL, NULL);

  ks_cli_print_diagnostics (a);

  if (a->status == KS_ANALYSIS_FAILED)
    {
      /* usage mistakes (an unknown GPU, a module with several kernels) and
       * bad input are told apart by what the request asked */
      int status = KS_CLI_EXIT_BAD_INPUT;

      /* (PTX with errors, or without a kernel, is bad input: only a
       * choice the command line must make is usage) */
      if (a->module != NULL && a->module->n_errors == 0 && a->kernel_index == -2
          && kernel_opt == NULL)
        status = KS_CLI_EXIT_USAGE;
      if ((gpu_opt || arch_opt) && a->arch == NULL && a->module != NULL && a->kernel_index >= 0)
        status = KS_CLI_EXIT_USAGE;
      return fail (json, status, a->error);
    }

  /* A fault is an error of the kernel's, placed as the others are */
  if (a->status == KS_ANALYSIS_FAULTED && a->sim != NULL && ks_sim_get_fault (a->sim) != NULL)
    ks_cli_print_fault (a->module->filename, a->module->text, ks_sim_get_fault (a->sim), NULL);

  if (json)
    {
      g_autoptr(JsonNode) root = ks_analysis_to_json (a);

      ks_cli_print_json (root);
    }
  else
    print_text (a);
  return a->status == KS_ANALYSIS_FAULTED ? KS_CLI_EXIT_FAULT : KS_CLI_EXIT_OK;
}
