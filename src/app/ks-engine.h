/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine.h: what the window asks of the engine thread, and what comes
 * back.  Blocking; called in a GTask thread. */
#pragma once

#include <gio/gio.h>
#include <stdint.h>

#include "ks-gpu-db.h"
#include "ks-hints.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-ptx.h"
#include "ks-resources.h"
#include "ks-sim.h"

G_BEGIN_DECLS

typedef struct
{
  char *cuda_path;              /* the CUDA file shown, or NULL */
  char *cuda_text;              /* its editor text */
  gboolean cuda_modified;       /* edited since it was opened or saved */
  char *ptx_path;               /* the PTX file shown, or NULL */
  char *ptx_text;
  char *spec_path;              /* the launch spec, or NULL: analyse without running */
  char *gpu;                    /* "rtx-3090", or NULL: the PTX target's representative */
} KsEngineRequest;

typedef enum
{
  KS_ENGINE_OK = 0,
  KS_ENGINE_FAILED,             /* stopped early: error says why */
  KS_ENGINE_FAULTED,            /* the kernel faulted; sim says where */
} KsEngineStatus;

typedef struct
{
  char *file;
  uint32_t line, column;
  KsPtxSeverity severity;
  char *message;
} KsEngineDiagnostic;

typedef struct
{
  KsEngineStatus status;
  char *error;
  GArray *diagnostics;          /* KsEngineDiagnostic */
  KsPtxModule *module;          /* NULL when nothing parsed */
  int32_t kernel_index;
  KsLaunch *launch;             /* NULL without a spec */
  KsGpuDb *db;
  const KsArchInfo *arch;
  const KsGpuInfo *gpu;
  KsKernelResources *resources;
  gboolean have_occupancy;
  KsOccupancyResult occupancy;
  char *occupancy_error;
  KsSim *sim;
  GPtrArray *hints;             /* KsHint */
  int have_nvcc;                /* 1, 0, or -1 when not looked for */
} KsEngineResult;

typedef void (*KsEngineProgressFunc) (const char *stage,
                                      double      fraction,
                                      gpointer    user_data);

void             ks_engine_request_init   (KsEngineRequest      *request);
void             ks_engine_request_clear  (KsEngineRequest      *request);
/* Returns: (transfer full): NULL only when cancelled */
KsEngineResult  *ks_engine_run            (const KsEngineRequest *request,
                                           GCancellable          *cancellable,
                                           KsEngineProgressFunc   progress,
                                           gpointer               user_data);
KsEngineResult  *ks_engine_result_ref     (KsEngineResult       *result);
void             ks_engine_result_unref   (KsEngineResult       *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsEngineResult, ks_engine_result_unref)

G_END_DECLS
