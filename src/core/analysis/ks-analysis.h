/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-analysis.h: the whole pipeline (DESIGN.md, "How data flows").
 *
 * A request names the input (CUDA, PTX or a launch spec, from its file or
 * from an editor's text), the GPU and the launch; ks_analysis_run() does
 * everything the window and `kernelscope-cli analyze` show: compile the
 * CUDA with nvcc when it is there, parse the PTX, read the resources
 * (ptxas, or an estimate), compute the occupancy, run the simulator, replay
 * the trace through the timing model, and collect the hints.  It blocks:
 * the app calls it in a GTask thread.  The result is immutable and
 * reference counted; any thread may read it.
 *
 * Nothing the user wrote makes it fail: compile errors, PTX errors, a bad
 * spec and kernel faults come back in the result (status, error,
 * diagnostics), with whatever the stages before them produced.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ks-gpu-db.h"
#include "ks-hints.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-ptx.h"
#include "ks-resources.h"
#include "ks-sass.h"
#include "ks-sim.h"
#include "ks-timing.h"
#include "ks-toolchain.h"

G_BEGIN_DECLS

typedef enum
{
  KS_ANALYSIS_INPUT_AUTO = 0,   /* from the path's extension: .cu, .ptx, .json */
  KS_ANALYSIS_INPUT_CUDA,
  KS_ANALYSIS_INPUT_PTX,
  KS_ANALYSIS_INPUT_SPEC,
} KsAnalysisInputKind;

typedef enum
{
  KS_ANALYSIS_STAGE_COMPILE = 0,
  KS_ANALYSIS_STAGE_PARSE,
  KS_ANALYSIS_STAGE_RESOURCES,
  KS_ANALYSIS_STAGE_SASS,
  KS_ANALYSIS_STAGE_SIMULATE,
  KS_ANALYSIS_STAGE_TIMING,
  KS_ANALYSIS_STAGE_HINTS,
  KS_ANALYSIS_N_STAGES
} KsAnalysisStage;

typedef enum
{
  KS_ANALYSIS_OK = 0,
  KS_ANALYSIS_FAILED,           /* it stopped early: error says why (compile or PTX errors, a bad spec) */
  KS_ANALYSIS_FAULTED,          /* the kernel faulted: sim says where; results up to the fault */
} KsAnalysisStatus;

typedef enum
{
  KS_SASS_ORIGIN_NONE = 0,      /* no listing */
  KS_SASS_ORIGIN_TOOLKIT,       /* made for this run by the CUDA toolkit */
  KS_SASS_ORIGIN_SHIPPED,       /* the listing that ships beside the kernel */
} KsSassOrigin;

typedef struct
{
  KsAnalysisInputKind kind;
  const char *path;             /* the file; names it in messages; spec-relative paths start from it */
  const char *text;             /* the editor's text (CUDA or PTX); NULL: read path */
  const KsLaunch *launch;       /* overrides the spec's or the default launch; NULL: none */
  const char *gpu;              /* "rtx-3090"; wins over arch; NULL: the arch's representative */
  const char *arch;             /* "sm_86"; NULL: the PTX's .target (sm_80 for CUDA) */
  const char *kernel;           /* NULL: the spec's, or the module's only entry */
  const char *toolkit_dir;      /* a preferred CUDA toolkit directory, or NULL */
  gboolean simulate;            /* default TRUE */
  gboolean use_toolkit;         /* default TRUE: FALSE never runs nvcc/ptxas (tests, no-toolkit mode) */
  gboolean make_sass;           /* default TRUE: disassemble when nvdisasm or cuobjdump is there */
  KsSchedulerPolicy scheduler;
  gboolean ptx_as_written;      /* default FALSE: time what ptxas makes (ks-lower.h), not each PTX
                                 * instruction */
  gboolean in_order;            /* default FALSE: issue loads ahead as ptxas schedules a loop */
  gboolean sass_timing;         /* default TRUE: time the loops the SASS runs from it */
  uint64_t max_trace_events;    /* 0: the simulator's default */
  uint32_t sim_threads;         /* threads for the simulation's blocks; 0: one */
  uint64_t sample_blocks;       /* 0: run the whole grid; else only the busiest SM's first
                                 * sample_blocks blocks (ks_sim_set_block_sample), for the
                                 * timing of launches too large to run whole */
  uint32_t launch_step;         /* for a spec of several launches: the one to analyse (traced,
                                 * after the ones before it, untraced); the last when too
                                 * large */
  double max_seconds;           /* the simulation's wall-clock budget (ks_sim_set_time_limit);
                                 * 0: none, the default */
  const char *max_seconds_note; /* where the budget comes from, for the fault's message */
} KsAnalysisRequest;

typedef void (*KsAnalysisProgressFunc) (KsAnalysisStage stage,
                                        double          fraction,
                                        gpointer        user_data);

typedef struct
{
  KsAnalysisStatus status;
  char *error;                  /* FAILED: what stopped it, with its place; else NULL */
  GArray *diagnostics;          /* KsDiagnostic (ks-toolchain.h): nvcc's and the parser's messages */

  char *path;                   /* the request's path */
  char *cuda_text;              /* the CUDA, for a .cu input (NULL otherwise) */
  char *ptx_text;               /* the PTX analysed (owned by module when it parsed) */
  KsToolchain *toolchain;

  KsPtxModule *module;          /* NULL when it did not parse */
  int32_t kernel_index;         /* into module->functions, -1 when none */
  char *kernel_name;
  KsLaunch *launch;             /* NULL when there is no module; for a spec of several
                                 * launches its top level holds the one analysed
                                 * (launch->step, ks_launch_select_step) */
  gboolean launch_is_default;   /* made up by ks_launch_new_default() */

  KsGpuDb *db;
  const KsArchInfo *arch;       /* borrowed from db */
  const KsGpuInfo *gpu;

  KsKernelResources *resources;
  gboolean have_occupancy;
  KsOccupancyResult occupancy;
  char *occupancy_error;        /* why the configuration cannot launch */

  KsSim *sim;                   /* the finished run, or NULL */
  /* A spec of several launches: what each did (n_launches = launch->n_steps;
   * 0 and NULL for a spec of one).  The ones before the launch analysed ran
   * without the trace, and so did the ones after it, once it finished; a
   * fault stops the sequence, and when an earlier launch faults that is
   * the one analysed (launch->step), so that sim says where. */
  KsSimLaunchReport *launches;
  uint32_t n_launches;
  KsTiming *timing;             /* NULL without a trace */
  char *timing_error;
  GPtrArray *hints;             /* KsHint */

  /* SASS of the analysed code, for the GPU's architecture: made now
   * (ks_toolchain_make_sass: the CUDA through nvcc -cubin when it was
   * compiled, else the PTX through ptxas), else the listing that ships
   * beside the kernel for that architecture (ks-shipped-sass.h), when the
   * text analysed is the one it was made from.  Never a reason for the
   * analysis to fail. */
  KsSassOrigin sass_origin;
  const char *sass_tool;        /* "nvdisasm" or "cuobjdump"; NULL: no listing and no tool */
  char *sass_arch;              /* "sm_89" */
  char *sass_text;              /* the listing as the tool printed it */
  KsSassListing *sass;          /* it, read; NULL when there is none or it could not be read */
  char *sass_error;             /* why there is no listing although a tool is there */
  char *sass_how;               /* how the listing was made, a sentence; NULL without one */
  /* No listing for this architecture, but shipped ones for these (oldest
   * first); NULL otherwise */
  GStrv sass_shipped_archs;
  char *sass_note;              /* how the listing was made (which toolkit, a lowered
                                 * PTX .version), to show beside it; NULL without one */
} KsAnalysis;

void          ks_analysis_request_init (KsAnalysisRequest      *request);

/* Returns NULL only when cancelled. */
KsAnalysis   *ks_analysis_run          (const KsAnalysisRequest *request,
                                        GCancellable           *cancellable,
                                        KsAnalysisProgressFunc  progress,
                                        gpointer                user_data);
KsAnalysis   *ks_analysis_ref          (KsAnalysis             *analysis);
void          ks_analysis_unref        (KsAnalysis             *analysis);

/* The JSON of `kernelscope-cli analyze --json` (README.md) */
JsonNode     *ks_analysis_to_json      (const KsAnalysis       *analysis);
const char   *ks_analysis_stage_name   (KsAnalysisStage         stage);
/* Adds "member": [hints...] to an object being built */
void          ks_hints_add_json        (JsonBuilder            *builder,
                                        const char             *member,
                                        GPtrArray              *hints);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsAnalysis, ks_analysis_unref)

G_END_DECLS
