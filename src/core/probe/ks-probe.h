/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe.h: the Probe Lab (seeds/002): from one hypothesis about the
 * hardware to a controlled probe, its verification, a sweep of one
 * variable, a fit and a conclusion worded by its evidence.
 *
 * A template makes, for each value of its variable, a probe kernel: the
 * CUDA a user would compile for a GPU (the target instruction as inline PTX,
 * clock64() around the timed loop only, the results stored to global memory
 * after it) and the PTX of the same structure, which the model runs.  Each
 * probe, and its controls (the same loop without the target, and the timer
 * alone), go through ks_analysis_run() exactly as a sample kernel does: the
 * simulator computes its results (the checksum) and the timing model times
 * it; the cycles between the two clock reads of warp 0 over the target
 * instructions timed are the probe's cycles per instruction.  Every figure
 * is the model's ("ran_on": "model") until a GPU has run the probe.
 *
 * Verification (seed sections 6-10) walks the PTX analysed: the target
 * present with its type and count per loop body, the dependency chain as
 * intended, no other memory access and no conversion in the timed loop, the
 * timer around the loop and the result stored after it; ptxas -v's spills
 * when ptxas ran; the SASS opcodes when a disassembler named them.  A
 * failed item blocks the conclusion, not the run.
 *
 * Plain C over the analysis; the experiment folder is seed section 20's. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct _KsProbeTemplate KsProbeTemplate;

/* Seed section 11's summary of repeated runs */
typedef struct
{
  guint count;                  /* 0: none ran */
  double min, median, mean, max;
  double std;                   /* the sample's (n - 1) */
  double p5, p95;               /* linear between the closest ranks */
} KsProbeSummary;

typedef struct
{
  double x;                     /* the variable's value */
  uint64_t instructions;        /* target warp-instructions timed (warp 0) */
  uint64_t total_cycles;        /* between the clock reads of warp 0 */
  double cycles_per_instruction;
  double corrected;             /* (cycles - the empty loop's) per instruction; NAN without */
  double ways;                  /* shared-memory wavefronts per request (shared-stride); else NAN */
  int registers;                /* ptxas -v, or the estimate; -1 unknown */
  int spill_loads, spill_stores;        /* bytes, ptxas -v; -1 unknown */
  int resident_warps;           /* register-pressure: the warps an SM holds at once with these
                                 * registers (the occupancy calculator); -1 for the others */
  int limiter;                  /* register-pressure: what limits them (a KsOccupancyLimiter:
                                 * ks_occupancy_limiter_name(), _label()); 0 for the others */
  double checksum;              /* the kernel's stored result, as computed by the simulator */
  /* On a GPU (ks_probe_run_on_gpu()): the measured runs' cycles per
   * instruction, the median's less the empty loop's (NAN without), and the
   * stored result of the first measured run */
  KsProbeSummary gpu;
  double gpu_corrected;
  double gpu_checksum;
} KsProbePoint;

/* One measured run on a GPU: a row of runtime/runtime_raw.csv */
typedef struct
{
  guint point;                  /* index into points */
  guint run;
  uint64_t total_instructions;
  uint64_t total_cycles;
  double cycles_per_instruction;
  double checksum;
} KsProbeGpuRun;

typedef struct
{
  char *item;
  gboolean pass;
  gboolean checked;             /* FALSE: could not be checked here (detail says why) */
  char *detail;
  GArray *lines;                /* guint32: the probe PTX's lines it is about, 1-based */
  GArray *sass_lines;           /* guint32: the SASS listing's lines it is about; empty without */
} KsProbeCheck;

typedef struct
{
  const KsProbeTemplate *tmpl;
  char *gpu;                    /* "rtx-3090" */
  char *arch;                   /* "sm_86" */
  char *instruction;            /* the chain's instruction ("ffma"); NULL for the other templates */
  char *ran_on;                 /* "model" */
  char *evidence;               /* "model" on the model; seed section 18's levels on a GPU */
  GArray *points;               /* KsProbePoint */
  GPtrArray *checks;            /* KsProbeCheck *, of the first point's probe */
  gboolean verified;            /* every check that ran passed */
  uint64_t empty_loop_cycles;   /* the control without the target, first point; 0 without */
  uint64_t timer_cycles;        /* two clock reads back to back */
  gboolean have_fit;
  double slope, intercept, r2;  /* total cycles = slope * instructions + intercept */
  char *conclusion;
  double shown_x;               /* the point whose probe is verified and shown (the first;
                                 * register-pressure: the last) */
  char *ptx;                    /* the verified probe (that point's): its PTX, */
  char *cuda;                   /* its CUDA (NULL for a hand-written PTX probe) */
  char *sass;                   /* and its SASS listing as the tool printed it, or NULL */
  GPtrArray *files;             /* char *: path in the folder, content, path, content, ... */
  gboolean edited;              /* one probe edited or written by hand (ks_probe_run_ptx()) */
  char *saved_date;             /* a folder's (ks_probe_result_load()): when it was written */
  /* ks_probe_run_on_gpu(): the GPU that ran the probes ("NVIDIA H200,
   * sm_90, 132 SMs, 1980 MHz, driver 13.0"), NULL until one has; its runs */
  char *device;
  char *device_arch;
  int device_ordinal;
  guint warmup_runs, measured_runs;
  GArray *gpu_runs;             /* KsProbeGpuRun; NULL before */
  double gpu_empty_loop_cycles; /* the controls' medians on the GPU; NAN without */
  double gpu_timer_cycles;
  gboolean have_gpu_fit;        /* the count sweep's line through the GPU's medians */
  gboolean gpu_view;            /* ks_probe_result_measured()'s: the points are the GPU's;
                                 * else they are always the model's */
  double gpu_slope, gpu_intercept, gpu_r2;
} KsProbeResult;

typedef struct
{
  const char *gpu;              /* data/gpus.json id; NULL: rtx-3090 */
  gboolean use_toolkit;         /* let the analysis run ptxas (registers, spills, SASS) */
  const char *instruction;      /* the chain templates' instruction (ks_probe_instructions());
                                 * NULL: ffma.  An error for the other templates. */
} KsProbeOptions;

/* The templates, in the order the lab lists them */
const KsProbeTemplate *const *ks_probe_templates       (guint                  *n);
const KsProbeTemplate *ks_probe_find                   (const char             *name);
const char          *ks_probe_template_name            (const KsProbeTemplate  *tmpl);
const char          *ks_probe_template_title           (const KsProbeTemplate  *tmpl);
const char          *ks_probe_template_variable        (const KsProbeTemplate  *tmpl);
const char          *ks_probe_template_hypothesis      (const KsProbeTemplate  *tmpl);
/* The variable as a plot's axis names it (untranslated, N_()) */
const char          *ks_probe_template_axis            (const KsProbeTemplate  *tmpl);
/* Whether the variable is a size in bytes */
gboolean             ks_probe_template_x_is_bytes      (const KsProbeTemplate  *tmpl);

/* The value whose probe a run verifies and shows (the first; for the
 * register-pressure sweep the last) */
double               ks_probe_template_shown_x         (const KsProbeTemplate  *tmpl);

/* Whether the template times a chain of a chosen instruction */
gboolean             ks_probe_template_takes_instruction (const KsProbeTemplate *tmpl);
/* The instructions a chain can time ("ffma", "fadd", ...), in the lab's order */
const char *const   *ks_probe_instructions             (guint                  *n);
/* The SASS opcode ptxas makes of one ("FFMA", "MUFU.RSQ"); NULL if unknown */
const char          *ks_probe_instruction_sass         (const char             *instruction);
/* The experiment's title in the user's language, with the chain's
 * instruction named ("DFMA latency and throughput") */
char                *ks_probe_title                    (const KsProbeTemplate  *tmpl,
                                                        const char             *instruction);

void                 ks_probe_options_init             (KsProbeOptions         *options);

/* Runs the template's sweep on the model; NULL with error when a probe
 * cannot run at all (an unknown GPU, a probe the simulator refuses) */
KsProbeResult       *ks_probe_run                      (const KsProbeTemplate  *tmpl,
                                                        const KsProbeOptions   *options,
                                                        GError                **error);
void                 ks_probe_result_free              (KsProbeResult          *result);

/* Verifies a probe's PTX as the template would have made it for value x
 * (a hand-edited or hand-written probe; instruction: the chain's, NULL for
 * ffma): the checks and the conclusion
 * they allow, nothing run.  NULL with error when it has no kernel "probe". */
KsProbeResult       *ks_probe_verify_ptx               (const KsProbeTemplate  *tmpl,
                                                        const char             *instruction,
                                                        double                  x,
                                                        const char             *ptx,
                                                        GError                **error);

/* Runs a probe's PTX, edited or written by hand, as the template's probe
 * for value x (one of the template's; options->instruction: a chain's):
 * verified as ks_probe_verify_ptx() does, then simulated and timed once on
 * the model.  One point, edited set, no controls: the template's time the
 * template's loop, not the edit's.  NULL with error when it does not
 * parse, faults, or issues no target between its clock reads. */
KsProbeResult       *ks_probe_run_ptx                  (const KsProbeTemplate  *tmpl,
                                                        const KsProbeOptions   *options,
                                                        double                  x,
                                                        const char             *ptx,
                                                        GError                **error);

/* Runs a result's probes (every point's, after ks_probe_run() or
 * ks_probe_run_ptx()) on a real GPU through the CUDA driver (ks-cuda.h):
 * each made for the device's architecture, @warmup launches then @runs
 * measured, its clock64 deltas and stored result read back; the controls
 * likewise.  Fills the points' gpu figures, gpu_runs, the folder's
 * runtime/runtime_raw.csv (the model's becomes runtime/model_raw.csv),
 * runtime/runtime_summary.txt and environment/gpu_environment.txt, a check
 * that the GPU's results are the simulator's, and the conclusion, worded
 * by what ran (seed section 18).  FALSE with error when a probe cannot
 * run there; the result is then as it was. */
struct _KsCuda;
gboolean             ks_probe_run_on_gpu               (KsProbeResult          *result,
                                                        struct _KsCuda         *cuda,
                                                        int                     device,
                                                        guint                   warmup,
                                                        guint                   runs,
                                                        GError                **error);
/* The GPU's figures of a result that ran on one, as a result of their own
 * (ks_probe_result_free()): each point's median cycles per instruction
 * (and its total cycles, corrected figure and stored result) in the
 * model's places, the GPU's fit as the fit; no checks, files or
 * conclusion.  For a plot's second series.  Points no GPU ran are left
 * out. */
KsProbeResult       *ks_probe_result_measured          (const KsProbeResult    *result);

/* The GPU database's entry the model should time a device as: the one of
 * its name, else of its architecture and SMs, else its architecture's
 * representative; NULL when the database knows none of its architecture */
char                *ks_probe_model_gpu_for            (const char             *device_name,
                                                        const char             *device_arch,
                                                        int                     sms);
/* What a result measured on a GPU says of one latency of the GPU
 * database (issue 17's calibration override): the dependent-chain latency
 * of ffma, iadd3, imad, dfma or mufu, as the chain-length sweep's slope
 * through the GPU's medians, or the accumulators sweep's one-accumulator
 * point less its empty loop; rounded to whole cycles, for the device's
 * architecture.  FALSE with error for a result the model alone ran, one
 * that failed verification, an edited probe, another template or
 * instruction, or a figure under one cycle. */
gboolean             ks_probe_calibration              (const KsProbeResult    *result,
                                                        char                  **arch,
                                                        int                    *latency_class,
                                                        guint                  *latency,
                                                        double                 *measured,
                                                        GError                **error);

/* Seed section 11's summary of @n values (sorted in place) */
void                 ks_probe_summarise                (double                 *values,
                                                        guint                   n,
                                                        KsProbeSummary         *summary);

/* Reads a saved experiment folder's metadata.json back (what
 * ks_probe_write_folder() wrote, any version since): its template,
 * instruction, GPU, checks, points, fit, conclusion and date; no files.
 * NULL with error "DIR/metadata.json:LINE:COL: message" when it is not
 * one. */
KsProbeResult       *ks_probe_result_load              (const char             *dir,
                                                        GError                **error);

/* The command line's JSON (docs/PROBES.md) */
JsonNode            *ks_probe_result_to_json           (const KsProbeResult    *result);

/* Writes the experiment folder (seed section 20): metadata.json,
 * build_command.txt, run_command.txt, environment/, binary/, runtime/,
 * conclusion.md */
gboolean             ks_probe_write_folder             (const KsProbeResult    *result,
                                                        const char             *dir,
                                                        GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsProbeResult, ks_probe_result_free)

G_END_DECLS
