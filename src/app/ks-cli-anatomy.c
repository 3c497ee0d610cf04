/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-anatomy.c: `kernelscope-cli anatomy SPEC|FILE [--gpu ID]`: the
 * launch's stages (seeds/004) with the analysed kernel's figures
 * (src/core/anatomy, docs/ANATOMY.md).  Exit status: 0 success, 1 bad
 * input or a kernel that cannot be analysed, 2 usage. */

#include "ks-cli-anatomy.h"
#include "ks-cli.h"

#include <stdio.h>

#include "ks-anatomy.h"
#include "ks-analysis.h"

static int
anatomy_fail (gboolean    json,
              int         status,
              const char *message)
{
  return ks_cli_fail ("anatomy", json, status, message);
}

static void
print_text (const KsAnatomy *an)
{
  g_autoptr(JsonNode) root = ks_anatomy_to_json (an);
  JsonArray *stages = json_object_get_array_member (json_node_get_object (root), "stages");

  printf ("%s on the %s (%s)\n\n", an->kernel, an->gpu_name ? an->gpu_name : an->gpu,
          an->arch);
  for (guint i = 0; i < json_array_get_length (stages); i++)
    {
      JsonObject *s = json_array_get_object_element (stages, i);

      printf ("%" G_GINT64_FORMAT ". %s: %s\n", json_object_get_int_member (s, "stage"),
              json_object_get_string_member (s, "name"),
              json_object_get_string_member (s, "summary"));
      if (json_object_get_int_member (s, "stage") == 1 && an->artifacts != NULL)
        {
          const KsArtifacts *k = an->artifacts;

          printf ("     %s (%s, %s%s):\n", k->command, k->toolkit ? k->toolkit : "CUDA",
                  k->arch, k->recorded ? ", the sample's record" : "");
          for (uint32_t f = 0; f < k->n_items; f++)
            printf ("     %-32s %10" G_GUINT64_FORMAT " bytes  %s\n", k->items[f].name,
                    k->items[f].size, k->items[f].tool ? k->items[f].tool : "");
        }
      if (json_object_get_int_member (s, "stage") == 2)
        for (uint32_t k = 0; k < an->n_params; k++)
          {
            const KsAnatomyParam *p = &an->params[k];

            printf ("     %-20s offset %3u, %2u bytes, align %2u", p->name, p->offset, p->size,
                    p->align);
            if (p->cbank_offset != KS_ANATOMY_NONE)
              printf (", c[0x0][0x%x]%s", p->cbank_offset,
                      p->in_sass == 1 ? " (read in the SASS)"
                      : p->in_sass == 0 ? " (not read in the SASS)" : "");
            if (p->stub_offset != KS_ANATOMY_NONE)
              printf (", the stub notes %u", p->stub_offset);
            printf ("\n");
          }
    }
  if (an->have_timing)
    printf ("\nThe figures of stages 6 to 8 are KernelScope's timing model's, not a "
            "measurement.\n");
}

int
ks_cli_anatomy (int    argc,
                char **argv)
{
  gboolean json = FALSE, no_toolkit = FALSE, keep = FALSE;
  g_autofree char *arch_opt = NULL, *gpu_opt = NULL, *kernel_opt = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object (docs/ANATOMY.md)", NULL },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_opt, "For this architecture", "sm_XX" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_opt, "For this GPU (see data/gpus.json)", "ID" },
    { "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_opt, "The kernel of a file with several",
      "NAME" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep,
      "Compile the CUDA with nvcc --keep and list the files it leaves (stage 1)", NULL },
    { "no-toolkit", 0, 0, G_OPTION_ARG_NONE, &no_toolkit,
      "Never run nvcc or ptxas (resources are estimated)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("SPEC.json|FILE.ptx|FILE.cu - what happens between "
                          "kernel<<<grid, block>>> and the result, with this kernel's figures");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(KsAnatomy) an = NULL;
  KsAnalysisRequest req;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return anatomy_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 2)
    return anatomy_fail (json, KS_CLI_EXIT_USAGE, "expected one launch spec, PTX or CUDA file");
  if (arch_opt && gpu_opt)
    return anatomy_fail (json, KS_CLI_EXIT_USAGE, "give --arch or --gpu, not both");
  if (keep && no_toolkit)
    return anatomy_fail (json, KS_CLI_EXIT_USAGE, "--keep runs nvcc: not with --no-toolkit");
  ks_analysis_request_init (&req);
  req.path = argv[1];
  req.arch = arch_opt;
  req.gpu = gpu_opt;
  req.kernel = kernel_opt;
  req.use_toolkit = !no_toolkit;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  if (a->status == KS_ANALYSIS_FAILED)
    return anatomy_fail (json, (gpu_opt || arch_opt) && a->arch == NULL && a->module != NULL
                               ? KS_CLI_EXIT_USAGE : KS_CLI_EXIT_BAD_INPUT, a->error);
  an = ks_anatomy_new (a, &error);
  if (an == NULL)
    return anatomy_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (keep)
    {
      KsArtifacts *made;

      if (a->cuda_text == NULL)
        return anatomy_fail (json, KS_CLI_EXIT_USAGE, "--keep compiles CUDA: give a .cu file, "
                             "or a spec that names one");
      made = ks_artifacts_make (a->toolchain, a->path, a->cuda_text, an->arch, NULL, &error);
      if (made == NULL)
        return anatomy_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
      ks_anatomy_set_artifacts (an, made);
    }
  if (json)
    {
      g_autoptr(JsonNode) root = ks_anatomy_to_json (an);

      ks_cli_print_json (root);
    }
  else
    print_text (an);
  return KS_CLI_EXIT_OK;
}
