/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-compare.c: `kernelscope-cli compare A B`, two analyses figure by
 * figure (ks-compare.h).
 *
 * A and B are what `analyze` takes (a spec, PTX or CUDA file), or a
 * sample's folder (its spec; its "focus" line is the line matched with the
 * other's).  Both run on one GPU: --gpu, --arch, else the one A's analysis
 * chose, so that no figure changes only because the GPU did. */

#include "ks-cli-analyze.h"
#include "ks-cli-compare.h"
#include "ks-cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks-compare.h"
#include "ks-format.h"
#include "ks-samples.h"

static int
fail (gboolean    json,
      int         status,
      const char *message)
{
  return ks_cli_fail ("compare", json, status, message);
}

/* A side: a file, or a sample's folder read as its spec (else its PTX or
 * CUDA) and its focus line */
typedef struct
{
  char *path;
  guint focus_line;
} Side;

static gboolean
resolve_side (const char *arg,
              Side       *side,
              char      **error)
{
  g_autoptr(KsSample) sample = NULL;

  if (!g_file_test (arg, G_FILE_TEST_IS_DIR))
    {
      side->path = g_strdup (arg);
      return TRUE;
    }
  sample = ks_sample_open (arg);
  if (sample == NULL)
    {
      *error = g_strdup_printf ("%s: a folder without a launch spec, PTX or CUDA file", arg);
      return FALSE;
    }
  side->path = g_strdup (ks_sample_analysis_path (sample));
  side->focus_line = sample->focus_line;
  return TRUE;
}

/* For a module of several kernels and none chosen: ": NAME, NAME" to pick
 * from (--kernel-a, --kernel-b); else "" */
static char *
kernel_names (const KsAnalysis *a)
{
  g_autoptr(GString) s = g_string_new (NULL);
  const KsPtxModule *m = a->module;

  if (m == NULL || m->n_errors > 0 || a->kernel_index != -2)
    return g_strdup ("");
  for (uint32_t i = 0; i < m->n_functions; i++)
    if (m->functions[i].kind == KS_PTX_FUNCTION_ENTRY)
      {
        g_autofree char *name = ks_ptx_span_dup (m, m->functions[i].name);

        g_string_append_printf (s, "%s%s", s->len ? ", " : "; its kernels: ", name);
      }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
print_diagnostics (const KsAnalysis *a)
{
  ks_cli_print_diagnostics (a);
  if (a->status == KS_ANALYSIS_FAULTED && a->sim != NULL && ks_sim_get_fault (a->sim) != NULL)
    ks_cli_print_fault (a->module->filename, a->module->text, ks_sim_get_fault (a->sim), NULL);
}

static void
print_hints (const char *title,
             GPtrArray  *hints)
{
  if (hints->len == 0)
    return;
  g_print ("%s\n", title);
  for (guint i = 0; i < hints->len; i++)
    {
      const KsHint *h = hints->pdata[i];

      if (h->cuda_line)
        g_print ("  %s: CUDA line %u: %s\n", ks_hint_severity_name (h->severity), h->cuda_line,
                 h->message);
      else if (h->ptx_line)
        g_print ("  %s: PTX line %u: %s\n", ks_hint_severity_name (h->severity), h->ptx_line,
                 h->message);
      else
        g_print ("  %s: %s\n", ks_hint_severity_name (h->severity), h->message);
    }
}

static void
print_text (const KsComparison *c,
            const Side         *sa,
            const Side         *sb)
{
  const KsAnalysis *a = c->a, *b = c->b;
  g_autofree char *na = ks_format_name (a->kernel_name, -1);
  g_autofree char *nb = ks_format_name (b->kernel_name, -1);
  gboolean model = FALSE;

  g_print ("A: %s (%s)\nB: %s (%s)\non %s (%s)\n\n", na, sa->path, nb, sb->path,
           a->gpu ? a->gpu->name : a->arch->id, a->arch->id);
  g_print ("%-52s %14s %14s %10s\n", "", "A", "B", "change");
  for (guint i = 0; i < c->changes->len; i++)
    {
      const KsFigureChange *f = &g_array_index (c->changes, KsFigureChange, i);
      g_autofree char *va = ks_figure_change_format (f, FALSE);
      g_autofree char *vb = ks_figure_change_format (f, TRUE);
      g_autofree char *d = ks_figure_change_format_delta (f);
      g_autofree char *label = g_strdup_printf ("%s%s", f->label, f->from_model ? " *" : "");

      model |= f->from_model;
      /* (the widths count bytes: "µ" and "−" are two and three) */
      g_print ("%-52s %*s %*s %*s%s\n", label,
               14 + (int) (strlen (va) - g_utf8_strlen (va, -1)), va,
               14 + (int) (strlen (vb) - g_utf8_strlen (vb, -1)), vb,
               10 + (int) (strlen (d) - g_utf8_strlen (d, -1)), d,
               f->verdict == KS_CHANGE_BETTER ? "  better"
               : f->verdict == KS_CHANGE_WORSE ? "  worse" : "");
      if (f->note != NULL)
        g_print ("    (%s)\n", f->note);
    }
  if (model)
    g_print ("* from the timing model, not a measurement (docs/TIMING.md)\n");
  print_hints ("\nHints gone (in A, not in B):", c->hints_gone);
  print_hints ("\nHints added (in B, not in A):", c->hints_added);
}

int
ks_cli_compare (int    argc,
                char **argv)
{
  gboolean json = FALSE, no_toolkit = FALSE;
  double max_seconds_opt = NAN;
  g_autofree char *max_seconds_note = NULL;
  g_autofree char *arch_opt = NULL, *gpu_opt = NULL;
  g_autofree char *kernel_opt = NULL, *kernel_a = NULL, *kernel_b = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print {\"a\": ANALYSIS, \"b\": ANALYSIS, \"changes\": [...], \"hints_added\": [...], "
      "\"hints_gone\": [...]}", NULL },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_opt, "Analyse both for this architecture", "sm_XX" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_opt,
      "Analyse both for this GPU (default: the one A's analysis chooses)", "ID" },
    { "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_opt,
      "The kernel of a file with several, in A and B", "NAME" },
    { "kernel-a", 0, 0, G_OPTION_ARG_STRING, &kernel_a, "A's kernel (for example of one PTX "
      "file compared with itself: --kernel-a K1 --kernel-b K2 F.ptx F.ptx)", "NAME" },
    { "kernel-b", 0, 0, G_OPTION_ARG_STRING, &kernel_b, "B's kernel", "NAME" },
    { "no-toolkit", 0, 0, G_OPTION_ARG_NONE, &no_toolkit,
      "Never run nvcc or ptxas (resources are estimated)", NULL },
    { "max-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &max_seconds_opt,
      "Stop each simulation with a time_limit fault after N seconds (default 10, 0: no limit)",
      "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("A B - two kernels (spec, PTX, CUDA or a sample's folder), each "
                          "figure with its change from A to B");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(KsAnalysis) b = NULL;
  g_autoptr(KsComparison) c = NULL;
  Side sa = { NULL, 0 }, sb = { NULL, 0 };
  KsAnalysisRequest req;
  g_autofree char *why = NULL;
  int status = KS_CLI_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 3)
    return fail (json, KS_CLI_EXIT_USAGE, "expected two kernels, A and B");
  if (arch_opt && gpu_opt)
    return fail (json, KS_CLI_EXIT_USAGE, "give --arch or --gpu, not both");
  if (!resolve_side (argv[1], &sa, &why) || !resolve_side (argv[2], &sb, &why))
    {
      g_free (sa.path);
      g_free (sb.path);
      return fail (json, KS_CLI_EXIT_BAD_INPUT, why);
    }

  ks_analysis_request_init (&req);
  req.arch = arch_opt;
  req.gpu = gpu_opt;
  req.use_toolkit = !no_toolkit;
  if (!ks_cli_max_seconds (max_seconds_opt, &req.max_seconds, &max_seconds_note))
    status = fail (json, KS_CLI_EXIT_USAGE, "--max-seconds must be a number of seconds >= 0");
  req.max_seconds_note = max_seconds_note;
  if (status == KS_CLI_EXIT_OK)
    {
      req.path = sa.path;
      req.kernel = kernel_a ? kernel_a : kernel_opt;
      a = ks_analysis_run (&req, NULL, NULL, NULL);
      print_diagnostics (a);
    }
  if (a != NULL && a->status == KS_ANALYSIS_FAILED)
    {
      g_autofree char *names = kernel_names (a);
      g_autofree char *msg = g_strdup_printf ("A: %s%s", a->error, names);

      /* a choice the command line must make is usage, as for analyze */
      status = fail (json, names[0] ? KS_CLI_EXIT_USAGE : KS_CLI_EXIT_BAD_INPUT, msg);
    }
  if (status == KS_CLI_EXIT_OK)
    {
      /* B on A's GPU */
      req.path = sb.path;
      req.kernel = kernel_b ? kernel_b : kernel_opt;
      if (gpu_opt == NULL && a->gpu != NULL)
        {
          req.gpu = a->gpu->id;
          req.arch = NULL;
        }
      b = ks_analysis_run (&req, NULL, NULL, NULL);
      print_diagnostics (b);
      if (b->status == KS_ANALYSIS_FAILED)
        {
          g_autofree char *names = kernel_names (b);
          g_autofree char *msg = g_strdup_printf ("B: %s%s", b->error, names);

          status = fail (json, names[0] ? KS_CLI_EXIT_USAGE : KS_CLI_EXIT_BAD_INPUT, msg);
        }
    }
  if (status == KS_CLI_EXIT_OK)
    {
      c = ks_comparison_new (a, b, sa.focus_line, sb.focus_line);
      if (json)
        {
          g_autoptr(JsonNode) root = ks_comparison_to_json (c);

          ks_cli_print_json (root);
        }
      else
        print_text (c, &sa, &sb);
      /* a fault's figures are left out (null): the exit status says why */
      if (a->status == KS_ANALYSIS_FAULTED || b->status == KS_ANALYSIS_FAULTED)
        status = KS_CLI_EXIT_FAULT;
    }
  g_free (sa.path);
  g_free (sb.path);
  return status;
}
