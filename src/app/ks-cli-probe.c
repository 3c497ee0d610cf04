/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-probe.c: `kernelscope-cli probe list`, `probe run NAME` and
 * `probe rerun DIR`: the Probe Lab's templates, one template's sweep on
 * the model with its verification, fit and conclusion, written as an
 * experiment folder (docs/PROBES.md), and a saved experiment run again and
 * compared with what it saved.  Exit status: 0 success, 1 a probe that
 * could not run or a folder that could not be read, 2 usage. */

#include "ks-cli-probe.h"
#include "ks-cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks-cuda.h"
#include "ks-gpu-db.h"
#include "ks-json.h"
#include "ks-occupancy.h"
#include "ks-probe.h"

/* A change of more than this fraction is a change (the model is
 * deterministic: the same build gives the same figures) */
#define RERUN_TOLERANCE 0.005

static int
probe_fail (gboolean    json,
            int         status,
            const char *message)
{
  return ks_cli_fail ("probe", json, status, message);
}

static int
probe_list (gboolean json)
{
  guint n;
  const KsProbeTemplate *const *t = ks_probe_templates (&n);

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "templates");
      json_builder_begin_array (b);
      for (guint i = 0; i < n; i++)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, ks_probe_template_name (t[i]));
          json_builder_set_member_name (b, "title");
          json_builder_add_string_value (b, ks_probe_template_title (t[i]));
          json_builder_set_member_name (b, "variable");
          json_builder_add_string_value (b, ks_probe_template_variable (t[i]));
          json_builder_set_member_name (b, "hypothesis");
          json_builder_add_string_value (b, ks_probe_template_hypothesis (t[i]));
          if (ks_probe_template_takes_instruction (t[i]))
            {
              guint n_ops;
              const char *const *ops = ks_probe_instructions (&n_ops);

              json_builder_set_member_name (b, "instructions");
              json_builder_begin_array (b);
              for (guint k = 0; k < n_ops; k++)
                json_builder_add_string_value (b, ops[k]);
              json_builder_end_array (b);
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      ks_cli_print_json (root);
      return KS_CLI_EXIT_OK;
    }
  for (guint i = 0; i < n; i++)
    printf ("%-18s %s (sweeps %s)\n", ks_probe_template_name (t[i]),
            ks_probe_template_title (t[i]), ks_probe_template_variable (t[i]));
  {
    guint n_ops;
    g_autofree char *ops = g_strjoinv (", ", (char **) ks_probe_instructions (&n_ops));

    printf ("\nThe chains (accumulators, chain-length, warp-count) time one instruction, "
            "--instruction:\n  %s (default ffma)\n", ops);
  }
  return KS_CLI_EXIT_OK;
}

static void
print_result (const KsProbeResult *r)
{
  g_autofree char *title = ks_probe_title (r->tmpl, r->instruction);

  printf ("%s on %s (%s), ran on: %s\n\n", title, r->gpu, r->arch, r->ran_on);
  printf ("Hypothesis: %s\n\nVerification:\n", ks_probe_template_hypothesis (r->tmpl));
  for (guint i = 0; i < r->checks->len; i++)
    {
      const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      printf ("  %-13s %s: %s\n", !c->checked ? "not checked" : c->pass ? "pass" : "FAIL",
              c->item, c->detail);
    }
  printf ("\n%14s %14s %12s %10s %10s\n", ks_probe_template_variable (r->tmpl), "instructions",
          "cycles", "cycles/insn", "corrected");
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

      printf ("%14g %14" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %10.3f %10.3f", p->x,
              p->instructions, p->total_cycles, p->cycles_per_instruction, p->corrected);
      if (p->resident_warps >= 0)
        printf ("   %d registers, %d warps an SM (%s)", p->registers, p->resident_warps,
                ks_occupancy_limiter_name (p->limiter));
      printf ("\n");
    }
  if (r->have_fit)
    printf ("\nFit%s: cycles = %.4f x instructions + %.1f (R^2 %.6f)\n",
            r->device ? " (model)" : "", r->slope, r->intercept, r->r2);
  if (r->device != NULL)
    {
      printf ("\nOn the GPU, %s: cycles per instruction over %u runs after %u warm-up runs\n"
              "%14s %10s %10s %10s %10s %10s %10s %10s\n", r->device, r->measured_runs,
              r->warmup_runs, ks_probe_template_variable (r->tmpl), "min", "median", "mean",
              "max", "std", "corrected", "model");
      for (guint i = 0; i < r->points->len; i++)
        {
          const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

          printf ("%14g %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", p->x, p->gpu.min,
                  p->gpu.median, p->gpu.mean, p->gpu.max, p->gpu.std, p->gpu_corrected,
                  p->cycles_per_instruction);
        }
      if (r->have_gpu_fit)
        printf ("Fit (GPU): cycles = %.4f x instructions + %.1f (R^2 %.6f)\n", r->gpu_slope,
                r->gpu_intercept, r->gpu_r2);
      if (!r->edited)
        printf ("Controls (GPU, medians): empty loop %.0f cycles, timer alone %.0f cycles\n",
                r->gpu_empty_loop_cycles, r->gpu_timer_cycles);
    }
  if (r->edited)
    printf ("\nControls: not run (the template's time its own loop, not the edit's)\n");
  else
    printf ("\nControls (model): empty loop %" G_GUINT64_FORMAT " cycles, timer alone %"
            G_GUINT64_FORMAT " cycles\n", r->empty_loop_cycles, r->timer_cycles);
  printf ("\nConclusion (evidence: %s): %s\n", r->evidence, r->conclusion);
}

/* `probe rerun DIR`: the saved experiment's template, instruction and GPU
 * run again, each point's cycles per instruction against the saved one */
static int
probe_rerun (const char *dir,
             gboolean    json,
             gboolean    no_toolkit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProbeResult) saved = ks_probe_result_load (dir, &error);
  g_autoptr(KsProbeResult) r = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  KsProbeOptions opt;
  guint changed = 0;

  if (saved == NULL)
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  ks_probe_options_init (&opt);
  opt.gpu = saved->gpu;
  opt.instruction = saved->instruction;
  opt.use_toolkit = !no_toolkit;
  if (saved->edited)
    {
      /* a probe edited by hand: its PTX, kept in the folder, run again */
      g_autofree char *file = g_strdup_printf ("probe_%g.ptx", saved->shown_x);
      g_autofree char *ptx_path = g_build_filename (dir, "binary", file, NULL);
      g_autofree char *ptx = NULL;

      if (!g_file_get_contents (ptx_path, &ptx, NULL, &error))
        return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
      r = ks_probe_run_ptx (saved->tmpl, &opt, saved->shown_x, ptx, &error);
    }
  else
    r = ks_probe_run (saved->tmpl, &opt, &error);
  if (r == NULL)
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "folder");
  json_builder_add_string_value (b, dir);
  json_builder_set_member_name (b, "saved_date");
  if (saved->saved_date)
    json_builder_add_string_value (b, saved->saved_date);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  if (!json)
    {
      g_autofree char *title = ks_probe_title (saved->tmpl, r->instruction);

      printf ("%s%s on %s (%s), saved %s, run again on the model:\n\n%14s %10s %10s %8s\n",
              title, saved->edited ? " (a probe edited by hand)" : "", r->gpu, r->arch,
              saved->saved_date ? saved->saved_date : "(no date)",
              ks_probe_template_variable (saved->tmpl), "saved", "now", "change");
    }
  for (guint i = 0; i < saved->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (saved->points, KsProbePoint, i);
      double x = p->x, was = p->cycles_per_instruction, now = NAN, change = NAN;

      for (guint k = 0; k < r->points->len; k++)
        if (g_array_index (r->points, KsProbePoint, k).x == x)
          now = g_array_index (r->points, KsProbePoint, k).cycles_per_instruction;
      if (isfinite (now) && was > 0)
        change = now / was - 1;
      if (!(fabs (change) <= RERUN_TOLERANCE))
        changed++;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "x");
      json_builder_add_double_value (b, x);
      json_builder_set_member_name (b, "saved");
      json_builder_add_double_value (b, was);
      json_builder_set_member_name (b, "now");
      if (isfinite (now))
        json_builder_add_double_value (b, now);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "change");
      if (isfinite (change))
        json_builder_add_double_value (b, change);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
      if (!json)
        {
          g_autofree char *c = isfinite (change) ? g_strdup_printf ("%+.1f %%", 100 * change)
                                                 : g_strdup (isfinite (now) ? "?" : "no point");

          printf ("%14g %10.3f %10.3f %8s\n", x, was, now, c);
        }
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "same");
  json_builder_add_boolean_value (b, changed == 0);
  json_builder_set_member_name (b, "now");
  json_builder_add_value (b, ks_probe_result_to_json (r));
  json_builder_end_object (b);
  if (json)
    {
      g_autoptr(JsonNode) out = json_builder_get_root (b);

      ks_cli_print_json (out);
    }
  else if (changed == 0)
    printf ("\nEvery point within %.1f %% of the saved figure.\n", 100 * RERUN_TOLERANCE);
  else
    printf ("\n%u point%s moved by more than %.1f %% from the saved figure%s.\n", changed,
            changed == 1 ? "" : "s", 100 * RERUN_TOLERANCE, changed == 1 ? "" : "s");
  return KS_CLI_EXIT_OK;
}

/* `probe calibrate DIR`: a GPU's measured latency into the user's GPU
 * database, which the timing model then uses */
static int
probe_calibrate (const char *dir,
                 gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProbeResult) r = ks_probe_result_load (dir, &error);
  g_autoptr(KsGpuDb) db = NULL;
  g_autofree char *arch = NULL, *source = NULL, *file = NULL;
  const KsArchInfo *ai;
  int klass = 0;
  guint latency = 0, was = 0;
  double measured = 0;

  if (r == NULL || !ks_probe_calibration (r, &arch, &klass, &latency, &measured, &error))
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  db = ks_gpu_db_load_default (&error);
  if (db == NULL)
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  ai = ks_gpu_db_get_arch (db, arch);
  if (ai == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("the GPU database has no %s for the measured "
                                              "GPU (%s)", arch, r->device);

      return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, msg);
    }
  was = ai->latencies[klass].latency;
  source = g_strdup_printf ("measured: %.3f cycles, KernelScope's Probe Lab (%s, %s) on the "
                            "%s, median of %u runs, saved %s", measured,
                            ks_probe_template_name (r->tmpl),
                            r->instruction ? r->instruction : "ffma", r->device,
                            r->measured_runs, r->saved_date ? r->saved_date : "?");
  file = ks_gpu_db_set_user_latency (arch, (KsLatencyClass) klass, latency, source, &error);
  if (file == NULL)
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "folder");
      json_builder_add_string_value (b, dir);
      json_builder_set_member_name (b, "arch");
      json_builder_add_string_value (b, arch);
      json_builder_set_member_name (b, "class");
      json_builder_add_string_value (b, ks_latency_class_name ((KsLatencyClass) klass));
      json_builder_set_member_name (b, "measured");
      json_builder_add_double_value (b, measured);
      json_builder_set_member_name (b, "latency");
      json_builder_add_int_value (b, latency);
      json_builder_set_member_name (b, "was");
      json_builder_add_int_value (b, was);
      json_builder_set_member_name (b, "file");
      json_builder_add_string_value (b, file);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      ks_cli_print_json (root);
    }
  else
    printf ("%s's %s latency: %u cycles (measured %.3f on the %s; it was %u). Written to %s: "
            "the timing model uses it for every %s GPU from now on.\n", arch,
            ks_latency_class_name ((KsLatencyClass) klass), latency, measured, r->device, was,
            file, arch);
  return KS_CLI_EXIT_OK;
}

int
ks_cli_probe (int    argc,
              char **argv)
{
  gboolean json = FALSE, no_toolkit = FALSE;
  g_autofree char *gpu = NULL, *out = NULL, *instruction = NULL, *ptx_path = NULL;
  g_autofree char *on = NULL;
  int device = 0, warmup = 10, runs = 100;
  g_autoptr(KsCuda) cuda = NULL;
  g_autofree char *model_gpu = NULL, *gpu_note = NULL;
  double x = NAN;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object (docs/PROBES.md)", NULL },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, "Run the probe on the model of this GPU (default "
      "rtx-3090)", "ID" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "Write the experiment folder here", "DIR" },
    { "instruction", 0, 0, G_OPTION_ARG_STRING, &instruction, "The instruction a chain template "
      "times: ffma (default), fadd, iadd3, imad, mufu, dfma, hfma2 or shfl", "OP" },
    { "ptx", 0, 0, G_OPTION_ARG_FILENAME, &ptx_path, "Run this PTX, edited or written by hand, "
      "as the template's probe (one point, verified, no controls)", "FILE" },
    { "x", 0, 0, G_OPTION_ARG_DOUBLE, &x, "With --ptx: the value of the template's variable the "
      "probe stands for (default: the value the lab shows)", "X" },
    { "no-toolkit", 0, 0, G_OPTION_ARG_NONE, &no_toolkit,
      "Never run ptxas (registers are then an estimate, spills unchecked)", NULL },
    { "on", 0, 0, G_OPTION_ARG_STRING, &on, "Where the probes run besides the model: auto (a "
      "GPU when the CUDA driver sees one; the default), gpu (fail without one) or model",
      "WHERE" },
    { "device", 0, 0, G_OPTION_ARG_INT, &device, "The GPU to run on (default 0)", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Warm-up launches on the GPU, not kept "
      "(default 10)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Measured launches on the GPU (default 100)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("list | run TEMPLATE | rerun DIR | calibrate DIR - the Probe Lab: a hardware "
                          "hypothesis, its probe, verification, sweep, fit and conclusion "
                          "(seeds/002)");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProbeResult) r = NULL;
  const KsProbeTemplate *tmpl;
  KsProbeOptions opt;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return probe_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc >= 2 && g_strcmp0 (argv[1], "list") == 0 && argc == 2)
    return probe_list (json);
  if (argc == 3 && g_strcmp0 (argv[1], "rerun") == 0)
    {
      if (gpu != NULL || instruction != NULL || out != NULL || ptx_path != NULL || !isnan (x))
        return probe_fail (json, KS_CLI_EXIT_USAGE, "'rerun DIR' runs the saved experiment as "
                           "it was: its GPU, instruction and probe (no --gpu, --instruction, "
                           "--out, --ptx or --x)");
      return probe_rerun (argv[2], json, no_toolkit);
    }
  if (argc == 3 && g_strcmp0 (argv[1], "calibrate") == 0)
    return probe_calibrate (argv[2], json);
  if (argc != 3 || g_strcmp0 (argv[1], "run") != 0)
    return probe_fail (json, KS_CLI_EXIT_USAGE,
                       "expected 'list', 'run TEMPLATE', 'rerun DIR' or 'calibrate DIR'");
  tmpl = ks_probe_find (argv[2]);
  if (tmpl == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("no template '%s' ('kernelscope-cli probe list' "
                                              "lists them)", argv[2]);

      return probe_fail (json, KS_CLI_EXIT_USAGE, msg);
    }
  if (instruction != NULL && !ks_probe_template_takes_instruction (tmpl))
    {
      g_autofree char *msg = g_strdup_printf ("the template '%s' takes no --instruction (only "
                                              "the chains: accumulators, chain-length, "
                                              "warp-count)", argv[2]);

      return probe_fail (json, KS_CLI_EXIT_USAGE, msg);
    }
  if (instruction != NULL && ks_probe_instruction_sass (instruction) == NULL)
    {
      guint n_ops;
      g_autofree char *ops = g_strjoinv (", ", (char **) ks_probe_instructions (&n_ops));
      g_autofree char *msg = g_strdup_printf ("unknown instruction '%s' (known: %s)",
                                              instruction, ops);

      return probe_fail (json, KS_CLI_EXIT_USAGE, msg);
    }
  if (!isnan (x) && ptx_path == NULL)
    return probe_fail (json, KS_CLI_EXIT_USAGE, "--x goes with --ptx: a template's own run "
                       "sweeps every value");
  if (on != NULL && g_strcmp0 (on, "auto") != 0 && g_strcmp0 (on, "gpu") != 0
      && g_strcmp0 (on, "model") != 0)
    return probe_fail (json, KS_CLI_EXIT_USAGE, "--on takes auto, gpu or model");
  if (device < 0 || warmup < 0 || runs < 1 || runs > 100000 || warmup > 100000)
    return probe_fail (json, KS_CLI_EXIT_USAGE, "--device and --warmup take 0 or more, --runs "
                       "1 to 100000");
  /* the GPU first: the model then times the same GPU unless --gpu says */
  if (g_strcmp0 (on, "model") != 0)
    {
      g_autoptr(GError) why = NULL;

      cuda = ks_cuda_open (&why);
      if (cuda == NULL && g_strcmp0 (on, "gpu") == 0)
        return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, why->message);
      if (cuda == NULL)
        gpu_note = g_strdup_printf ("%s; the figures are the model's", why->message);
      if (cuda != NULL && gpu == NULL)
        {
          KsCudaDevice d;
          g_autofree char *arch = NULL;

          if (!ks_cuda_device (cuda, device, &d, &why))
            return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, why->message);
          arch = ks_cuda_device_arch (&d);
          model_gpu = ks_probe_model_gpu_for (d.name, arch, d.sms);
          if (model_gpu == NULL && !json)
            fprintf (stderr, "kernelscope-cli probe: the GPU database has no %s GPU; the model "
                     "times the default one (--gpu chooses)\n", arch);
        }
    }
  ks_probe_options_init (&opt);
  opt.gpu = gpu ? gpu : model_gpu;
  opt.instruction = instruction;
  opt.use_toolkit = !no_toolkit;
  if (ptx_path != NULL)
    {
      g_autofree char *ptx = NULL;

      if (!g_file_get_contents (ptx_path, &ptx, NULL, &error))
        return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
      r = ks_probe_run_ptx (tmpl, &opt, isnan (x) ? ks_probe_template_shown_x (tmpl) : x, ptx,
                            &error);
      /* a parse error is placed in the probe as the lab names it: name the
       * user's file instead */
      if (r == NULL && g_str_has_prefix (error->message, "probe_")
          && strstr (error->message, ".ptx:") != NULL)
        {
          char *rest = strstr (error->message, ".ptx:") + 4;
          char *msg = g_strconcat (ptx_path, rest, NULL);

          g_free (error->message);
          error->message = msg;
        }
    }
  else
    r = ks_probe_run (tmpl, &opt, &error);
  if (r == NULL)
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (cuda != NULL && !ks_probe_run_on_gpu (r, cuda, device, (guint) warmup, (guint) runs,
                                            &error))
    {
      if (g_strcmp0 (on, "gpu") == 0)
        return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
      gpu_note = g_strdup_printf ("the GPU did not run the probes: %s; the figures are the "
                                  "model's", error->message);
      g_clear_error (&error);
    }
  if (out != NULL && !ks_probe_write_folder (r, out, &error))
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (json)
    {
      g_autoptr(JsonNode) root = ks_probe_result_to_json (r);

      /* why no GPU ran it, when --on auto found none or it failed */
      if (gpu_note != NULL)
        json_object_set_string_member (json_node_get_object (root), "gpu_note", gpu_note);
      ks_cli_print_json (root);
    }
  else
    {
      if (gpu_note != NULL)
        fprintf (stderr, "kernelscope-cli probe: %s\n", gpu_note);
      print_result (r);
    }
  return KS_CLI_EXIT_OK;
}
