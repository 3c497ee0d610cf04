/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-probe.c: `kernelscope-cli probe list` and `probe run NAME`: the
 * Probe Lab's templates, and one template's sweep on the model with its
 * verification, fit and conclusion, written as an experiment folder
 * (docs/PROBES.md).  Exit status: 0 success, 1 a probe that could not run,
 * 2 usage. */

#include "ks-cli-probe.h"
#include "ks-cli.h"

#include <stdio.h>

#include "ks-probe.h"

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

      printf ("%14g %14" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %10.3f %10.3f\n", p->x,
              p->instructions, p->total_cycles, p->cycles_per_instruction, p->corrected);
    }
  if (r->have_fit)
    printf ("\nFit: cycles = %.4f x instructions + %.1f (R^2 %.6f)\n", r->slope, r->intercept,
            r->r2);
  printf ("\nControls (model): empty loop %" G_GUINT64_FORMAT " cycles, timer alone %"
          G_GUINT64_FORMAT " cycles\n", r->empty_loop_cycles, r->timer_cycles);
  printf ("\nConclusion (evidence: %s): %s\n", r->evidence, r->conclusion);
}

int
ks_cli_probe (int    argc,
              char **argv)
{
  gboolean json = FALSE, no_toolkit = FALSE;
  g_autofree char *gpu = NULL, *out = NULL, *instruction = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object (docs/PROBES.md)", NULL },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, "Run the probe on the model of this GPU (default "
      "rtx-3090)", "ID" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "Write the experiment folder here", "DIR" },
    { "instruction", 0, 0, G_OPTION_ARG_STRING, &instruction, "The instruction a chain template "
      "times: ffma (default), fadd, iadd3, imad, mufu, dfma, hfma2 or shfl", "OP" },
    { "no-toolkit", 0, 0, G_OPTION_ARG_NONE, &no_toolkit,
      "Never run ptxas (registers are then an estimate, spills unchecked)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("list | run TEMPLATE - the Probe Lab: a hardware hypothesis, its "
                          "probe, verification, sweep, fit and conclusion (seeds/002)");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProbeResult) r = NULL;
  const KsProbeTemplate *tmpl;
  KsProbeOptions opt;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return probe_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc >= 2 && g_strcmp0 (argv[1], "list") == 0 && argc == 2)
    return probe_list (json);
  if (argc != 3 || g_strcmp0 (argv[1], "run") != 0)
    return probe_fail (json, KS_CLI_EXIT_USAGE, "expected 'list' or 'run TEMPLATE'");
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
  ks_probe_options_init (&opt);
  opt.gpu = gpu;
  opt.instruction = instruction;
  opt.use_toolkit = !no_toolkit;
  r = ks_probe_run (tmpl, &opt, &error);
  if (r == NULL)
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (out != NULL && !ks_probe_write_folder (r, out, &error))
    return probe_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (json)
    {
      g_autoptr(JsonNode) root = ks_probe_result_to_json (r);

      ks_cli_print_json (root);
    }
  else
    print_result (r);
  return KS_CLI_EXIT_OK;
}
