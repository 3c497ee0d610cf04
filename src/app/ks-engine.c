/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine.c: the window's side of the engine thread.  It holds no
 * analysis: it picks the input and hands it to ks_analysis_run(). */

#include "ks-engine.h"

#include <glib/gi18n.h>
#include <string.h>

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
  g_clear_pointer (&request->launch, ks_launch_free);
  g_clear_pointer (&request->gpu, g_free);
  g_clear_pointer (&request->toolkit_dir, g_free);
}

/* Looked for once per process: finding the toolkit runs ptxas --version */
static gboolean
nvcc_available (const char *toolkit_dir)
{
  static gsize checked;
  static gboolean found;

  if (ks_toolkit_disabled ())
    return FALSE;
  /* A folder from the settings may change: looked at each time */
  if (toolkit_dir != NULL)
    {
      g_autoptr(KsToolchain) tc = ks_toolchain_find (toolkit_dir);

      return ks_toolchain_get_path (tc, KS_TOOL_NVCC) != NULL;
    }
  if (g_once_init_enter (&checked))
    {
      g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);

      found = ks_toolchain_get_path (tc, KS_TOOL_NVCC) != NULL;
      g_once_init_leave (&checked, 1);
    }
  return found;
}

/* Whether the PTX pane holds exactly its file's bytes */
static gboolean
pane_is_file (const KsEngineRequest *request)
{
  g_autofree char *disk = NULL;
  gsize len = 0;

  if (request->ptx_path == NULL || request->ptx_text == NULL
      || !g_file_get_contents (request->ptx_path, &disk, &len, NULL))
    return FALSE;
  return len == strlen (request->ptx_text) && memcmp (disk, request->ptx_text, len) == 0;
}

KsAnalysis *
ks_engine_run (const KsEngineRequest  *request,
               GCancellable           *cancellable,
               KsAnalysisProgressFunc  progress,
               gpointer                user_data)
{
  KsAnalysisRequest r;
  gboolean compile;

  g_return_val_if_fail (request != NULL, NULL);

  ks_analysis_request_init (&r);
  compile = request->cuda_path != NULL
            && (request->ptx_text == NULL || (request->cuda_modified && nvcc_available (request->toolkit_dir)));
  if (compile)
    {
      r.kind = KS_ANALYSIS_INPUT_CUDA;
      r.path = request->cuda_path;
      r.text = request->cuda_text;
    }
  else
    {
      r.kind = KS_ANALYSIS_INPUT_PTX;
      r.path = request->ptx_path ? request->ptx_path : "kernel.ptx";
      r.text = request->ptx_text;
      /* The PTX as it is on disk is read from there, so the analysis may
       * take the ptxas -v report kept beside it (a sample's NAME.ptxas.txt)
       * instead of an estimate; an edited PTX is the pane's, estimated */
      if (pane_is_file (request))
        r.text = NULL;
    }
  r.use_toolkit = !ks_toolkit_disabled ();
  r.toolkit_dir = request->toolkit_dir;
  r.launch = request->launch;
  /* The spec's kernel, for a module with several (of a sequence, that of
   * the launch the window shows, launch->step) */
  r.kernel = request->launch ? request->launch->kernel : NULL;
  r.launch_step = request->launch ? request->launch->step : 0;
  r.gpu = request->gpu;
  /* Blocks on every processor: the results, trace and statistics are those
   * of one thread (ks_sim_set_threads), and a large launch comes back sooner */
  r.sim_threads = g_get_num_processors ();
  /* A kernel that does not end stops in seconds rather than at the step
   * limit a minute or more later; the window shows its progress meanwhile,
   * and Stop cancels sooner */
  r.max_seconds = KS_ENGINE_MAX_SECONDS;
  r.max_seconds_note = _("the window's budget; kernelscope-cli run --max-seconds N allows more");
  return ks_analysis_run (&r, cancellable, progress, user_data);
}

gboolean
ks_engine_compiled (const KsAnalysis *analysis)
{
  g_return_val_if_fail (analysis != NULL, FALSE);
  return analysis->cuda_text != NULL && analysis->ptx_text != NULL;
}

gboolean
ks_engine_have_nvcc (const KsAnalysis *analysis)
{
  g_return_val_if_fail (analysis != NULL, FALSE);
  return analysis->toolchain != NULL
         && ks_toolchain_get_path (analysis->toolchain, KS_TOOL_NVCC) != NULL;
}

gboolean
ks_engine_have_disassembler (const KsAnalysis *analysis)
{
  g_return_val_if_fail (analysis != NULL, FALSE);
  return analysis->toolchain != NULL && ks_toolchain_sass_tool (analysis->toolchain) != KS_N_TOOLS;
}

const char *
ks_engine_stage_label (KsAnalysisStage stage)
{
  switch (stage)
    {
    case KS_ANALYSIS_STAGE_COMPILE:
      return _("Compiling");
    case KS_ANALYSIS_STAGE_PARSE:
      return _("Parsing the PTX");
    case KS_ANALYSIS_STAGE_RESOURCES:
      return _("Resources and occupancy");
    case KS_ANALYSIS_STAGE_SASS:
      return _("Disassembling");
    case KS_ANALYSIS_STAGE_SIMULATE:
      return _("Simulating");
    case KS_ANALYSIS_STAGE_TIMING:
      return _("Timing model");
    case KS_ANALYSIS_STAGE_HINTS:
      return _("Hints");
    case KS_ANALYSIS_N_STAGES:
    default:
      return "";
    }
}
