/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine.h: what a window asks of the engine thread, turned into a
 * request of the core's pipeline (ks-analysis.h).  Blocking; called in a
 * GTask thread. */
#pragma once

#include <gio/gio.h>

#include "ks-analysis.h"

G_BEGIN_DECLS

/* The window's simulation budget in seconds (a time_limit fault past it) */
#define KS_ENGINE_MAX_SECONDS 10.0

typedef struct
{
  char *cuda_path;              /* the CUDA file shown, or NULL */
  char *cuda_text;              /* its editor text */
  gboolean cuda_modified;       /* edited since it was opened or saved */
  char *ptx_path;               /* the PTX file shown, or NULL */
  char *ptx_text;
  KsLaunch *launch;             /* a copy of the window's launch spec, or NULL: a default one */
  char *gpu;                    /* "rtx-3090", or NULL: the PTX target's representative */
  char *toolkit_dir;            /* a CUDA toolkit folder to prefer, or NULL */
} KsEngineRequest;

void          ks_engine_request_init   (KsEngineRequest       *request);
void          ks_engine_request_clear  (KsEngineRequest       *request);

/* Which text is analysed: the CUDA, compiled with nvcc, when it was edited
 * or there is no PTX and nvcc is there; else the PTX of the pane.
 * Returns: (transfer full): NULL only when cancelled */
KsAnalysis   *ks_engine_run            (const KsEngineRequest  *request,
                                        GCancellable           *cancellable,
                                        KsAnalysisProgressFunc  progress,
                                        gpointer                user_data);
/* Whether the analysis compiled the CUDA (its PTX is nvcc's, not the pane's) */
gboolean      ks_engine_compiled       (const KsAnalysis       *analysis);
gboolean      ks_engine_have_nvcc      (const KsAnalysis       *analysis);
/* Whether the toolkit the analysis found has nvdisasm or cuobjdump */
gboolean      ks_engine_have_disassembler (const KsAnalysis    *analysis);
/* "Compiling", "Simulating", ...: for the progress bar */
const char   *ks_engine_stage_label    (KsAnalysisStage         stage);

G_END_DECLS
