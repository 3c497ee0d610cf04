/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-sass.c: `kernelscope-cli sass`, a cuobjdump or nvdisasm listing
 * read back: functions (demangled), instructions with their operands,
 * decoded control codes, pipes and source lines, and the resources of
 * `cuobjdump --dump-resource-usage` or `ptxas -v` given with --resources.
 * A cubin (told by its ELF magic, not its name) is read by hand and named
 * by the toolkit's disassembler when there is one (not with --no-toolkit
 * or KS_NO_TOOLKIT=1).  Exit status: 0 success, 1 a listing or cubin it
 * cannot read (the message names the line or the place), 2 usage. */

#include "ks-cli-sass.h"
#include "ks-cli.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ks-analysis.h"
#include "ks-cubin-open.h"
#include "ks-file.h"
#include "ks-resources.h"
#include "ks-sass.h"
#include "ks-sass-json.h"
#include "ks-timing.h"

static int
sass_fail (gboolean    json,
           int         status,
           const char *message)
{
  return ks_cli_fail ("sass", json, status, message);
}

/* ptxas -v output has "ptxas" lines; anything else is taken for
 * cuobjdump --dump-resource-usage. */
static GPtrArray *
read_resources (const char  *path,
                GError     **error)
{
  g_autofree char *text = NULL;
  gsize len;

  if (!ks_file_get_text (path, &text, &len, error))
    return NULL;
  if (strstr (text, "ptxas") != NULL)
    return ks_resources_parse_ptxas (text, len, error);
  return ks_resources_parse_resource_usage (text, len, error);
}

static void
print_text (const KsSassListing *l)
{
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      g_autofree char *demangled = ks_sass_demangle (fn->name);
      uint32_t last_source = KS_SASS_NONE;

      g_print ("%s%s%s (%s): %u instructions\n", fn->name, demangled ? " = " : "",
               demangled ? demangled : "", fn->arch ? fn->arch : "arch unknown", fn->n_insns);
      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        {
          const KsSassInsn *in = &l->insns[i];
          g_autoptr(GString) text = g_string_new (NULL);
          char ctl[KS_SASS_CONTROL_TEXT_SIZE] = "";

          if (in->source != last_source && in->source != KS_SASS_NONE)
            g_print ("  // %s:%u\n", l->sources[in->source].file, l->sources[in->source].line);
          last_source = in->source;
          ks_sass_insn_append_text (text, l, in, "(not disassembled)");
          if (in->flags & KS_SASS_HAS_CONTROL)
            ks_sass_control_to_string (&in->control, ctl);
          g_print ("  %04" G_GINT64_MODIFIER "x %-21s %-6s %s\n", in->offset, ctl,
                   in->opcode != NULL ? ks_pipe_name (in->pipe) : "-", text->str);
        }
    }
}

/* KS_NO_TOOLKIT=1 runs as on a machine without the CUDA toolkit, as the
 * app does */
/* A kernel (.cu, .ptx or launch spec): the SASS the analysis gets for it,
 * made by the toolkit or shipped beside it, as the window shows it */
static int
kernel_sass (const char *path,
             const char *arch,
             const char *gpu,
             gboolean    no_toolkit,
             gboolean    json)
{
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  ks_analysis_request_init (&req);
  req.path = path;
  req.arch = arch;
  req.gpu = gpu;
  req.simulate = FALSE;
  req.use_toolkit = !no_toolkit && !ks_toolkit_disabled ();
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  if (a->status == KS_ANALYSIS_FAILED)
    return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, a->error);
  if (a->sass == NULL)
    {
      g_autofree char *archs = a->sass_shipped_archs ? g_strjoinv (", ", a->sass_shipped_archs) : NULL;
      g_autofree char *msg = NULL;

      if (a->sass_error != NULL)
        msg = g_strdup_printf ("%s: no SASS for %s: %s", path, a->sass_arch, a->sass_error);
      else if (archs != NULL)
        msg = g_strdup_printf ("%s: no SASS for %s: its shipped SASS is for %s", path,
                               a->arch->id, archs);
      else
        msg = g_strdup_printf ("%s: no SASS: no CUDA toolkit with nvdisasm or cuobjdump, and "
                               "none ships with this kernel", path);
      return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, msg);
    }
  if (!json)
    {
      g_print ("# %s\n", a->sass_how);
      if (a->sass->format == KS_SASS_FORMAT_CUBIN)
        g_print ("%s", ks_sass_cubin_text (a->sass));
      else
        print_text (a->sass);
      return KS_CLI_EXIT_OK;
    }
  {
    g_autoptr(JsonBuilder) b = json_builder_new ();
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(GPtrArray) resources = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_kernel_resources_free);

    if (a->resources != NULL)
      g_ptr_array_add (resources, ks_kernel_resources_copy (a->resources));
    json_builder_begin_object (b);
    ks_sass_listing_add_json (b, a->sass, resources);
    /* where it came from: "toolkit" (made now) or "shipped" */
    json_builder_set_member_name (b, "sass_origin");
    json_builder_add_string_value (b, a->sass_origin == KS_SASS_ORIGIN_SHIPPED ? "shipped" : "toolkit");
    json_builder_set_member_name (b, "sass_arch");
    json_builder_add_string_value (b, a->sass_arch);
    json_builder_set_member_name (b, "sass_how");
    json_builder_add_string_value (b, a->sass_how);
    json_builder_end_object (b);
    root = json_builder_get_root (b);
    ks_cli_print_json (root);
  }
  return KS_CLI_EXIT_OK;
}

int
ks_cli_sass (int    argc,
             char **argv)
{
  gboolean json = FALSE, no_toolkit = FALSE;
  g_autofree char *resources_path = NULL, *arch = NULL, *gpu = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the listing as one JSON object", NULL },
    { "resources", 0, 0, G_OPTION_ARG_FILENAME, &resources_path,
      "cuobjdump --dump-resource-usage or ptxas -v output to add", "FILE" },
    { "no-toolkit", 0, 0, G_OPTION_ARG_NONE, &no_toolkit,
      "Run no toolkit program (a cubin is read by hand; a kernel gets its shipped SASS)", NULL },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch, "For a kernel: this architecture", "sm_XX" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, "For a kernel: this GPU (see data/gpus.json)", "ID" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("FILE - a cuobjdump -sass or nvdisasm listing, a cubin, or a "
                          "kernel (.cu, .ptx, launch spec .json) whose SASS is made or shipped: "
                          "instructions, control codes, pipes, source lines");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = NULL;
  g_autoptr(GPtrArray) resources = NULL;
  g_autofree char *text = NULL;
  gsize len;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sass_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 2)
    return sass_fail (json, KS_CLI_EXIT_USAGE, "give one listing FILE");
  if (g_str_has_suffix (argv[1], ".cu") || g_str_has_suffix (argv[1], ".ptx")
      || g_str_has_suffix (argv[1], ".json"))
    {
      if (resources_path != NULL)
        return sass_fail (json, KS_CLI_EXIT_USAGE,
                          "--resources is for a listing; a kernel's come with its SASS");
      return kernel_sass (argv[1], arch, gpu, no_toolkit, json);
    }
  if (arch != NULL || gpu != NULL)
    return sass_fail (json, KS_CLI_EXIT_USAGE, "--arch and --gpu are for a kernel (.cu, .ptx, .json)");

  if (!ks_file_get_text (argv[1], &text, &len, &error))
    return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (ks_sass_is_elf ((const guint8 *) text, len))
    {
      g_autoptr(KsToolchain) tc = no_toolkit || ks_toolkit_disabled () ? NULL : ks_toolchain_find (NULL);

      l = ks_cubin_open_bytes ((const guint8 *) text, len, argv[1], tc, NULL, &error);
    }
  else
    l = ks_sass_parse (text, len, argv[1], &error);
  if (l == NULL)
    return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (resources_path != NULL)
    {
      resources = read_resources (resources_path, &error);
      if (resources == NULL)
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", resources_path, error->message);

          return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, msg);
        }
    }

  if (!json && l->cubin != NULL)
    {
      /* the same text the SASS pane shows: header, parameters, words */
      g_print ("%s", ks_sass_cubin_text (l));
      return KS_CLI_EXIT_OK;
    }
  if (!json)
    {
      print_text (l);
      return KS_CLI_EXIT_OK;
    }

  {
    g_autoptr(JsonBuilder) b = json_builder_new ();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object (b);
    ks_sass_listing_add_json (b, l, resources);
    json_builder_end_object (b);
    root = json_builder_get_root (b);
    ks_cli_print_json (root);
  }
  return KS_CLI_EXIT_OK;
}
