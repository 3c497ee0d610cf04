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
} KsProbePoint;

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
