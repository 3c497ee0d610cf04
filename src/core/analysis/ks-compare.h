/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-compare.h: two analyses, figure by figure (issue 20).
 *
 * ks_comparison_new() reads the figures both analyses have (the model's
 * time, waves, occupancy and its limiter, registers, spills, global-memory
 * sectors per request, shared-memory wavefronts beyond the ideal, SIMT
 * efficiency and divergent branches, the stall breakdown) and says for
 * each how it changed from a to b and whether that is better, worse, or
 * neither (a change of registers, say, is neither by itself).  The hints
 * of both are matched through a diff of the CUDA text (a hint on a line
 * that only moved is the same hint), and two files that share no text can
 * name the lines that correspond (a sample's "focus" line).
 *
 * The line diff is also what the window's diff tab shows: ks_line_diff()
 * is Myers' O((N+M)D) diff of two texts' lines. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ks-analysis.h"

G_BEGIN_DECLS

/* Which way a figure is better */
typedef enum
{
  KS_FIGURE_NEITHER = 0,        /* a change is neither better nor worse by itself */
  KS_FIGURE_LOWER,              /* lower is better: time, sectors per request, ... */
  KS_FIGURE_HIGHER,             /* higher is better: occupancy, SIMT efficiency */
} KsFigureSense;

typedef enum
{
  KS_CHANGE_NONE = 0,           /* the same, or not comparable (one side lacks it) */
  KS_CHANGE_BETTER,
  KS_CHANGE_WORSE,
  KS_CHANGE_DIFFERENT,          /* changed, neither better nor worse (KS_FIGURE_NEITHER, words) */
} KsChangeVerdict;

typedef enum
{
  KS_FIGURE_GROUP_TIME = 0,     /* the model's time and what bounds it */
  KS_FIGURE_GROUP_OCCUPANCY,    /* resources and occupancy */
  KS_FIGURE_GROUP_MEMORY,       /* sectors, wavefronts, DRAM bytes */
  KS_FIGURE_GROUP_EXECUTION,    /* instructions, divergence */
  KS_FIGURE_GROUP_STALLS,       /* the stall breakdown */
} KsFigureGroup;

typedef struct
{
  const char *id;               /* stable, for JSON: "estimated_duration_us" */
  const char *label;            /* translated: "Time (model)" */
  const char *unit;             /* "us", "%" (a and b are fractions), "bytes", "cycles/insn",
                                 * "": a count */
  KsFigureGroup group;
  KsFigureSense sense;
  gboolean from_model;          /* from the timing model, not counted by the simulator */
  gboolean has_a, has_b;
  double a, b;                  /* numbers (a percentage as a fraction when unit is "%") */
  const char *word_a, *word_b;  /* a figure in words (limiter, bound): these, not a and b */
  KsChangeVerdict verdict;
  char *note;                   /* why a change is not what it seems (registers from ptxas
                                 * against an estimate), or NULL */
  const char *word_id_a, *word_id_b;    /* the words' stable ids, for JSON ("shared_memory") */
} KsFigureChange;

typedef struct
{
  KsAnalysis *a, *b;            /* owned references */
  GArray *changes;              /* KsFigureChange */
  GPtrArray *hints_added;       /* const KsHint *, of b, that a has not */
  GPtrArray *hints_gone;        /* const KsHint *, of a, that b has not */
  char *cuda_a, *cuda_b;        /* the CUDA each comes from (a .cu's text, else the file its
                                 * PTX names, where it is or beside the PTX); NULL: none */
  GArray *cuda_diff;            /* KsDiffLine, of cuda_a and cuda_b; NULL when one is NULL */
  GArray *ptx_diff;             /* of the two PTX texts, made when first asked for:
                                 * ks_comparison_get_ptx_diff */
} KsComparison;

typedef enum
{
  KS_DIFF_SAME = 0,             /* in both */
  KS_DIFF_GONE,                 /* only in a */
  KS_DIFF_ADDED,                /* only in b */
} KsDiffOp;

typedef struct
{
  uint32_t op;                  /* KsDiffOp */
  uint32_t a_line, b_line;      /* 1-based; 0 where the line is not on that side */
} KsDiffLine;

/* The lines of a and b in order, each once (a's line before b's where one
 * replaces the other).  Lines are compared without trailing white space
 * ("\r" included).  NULL text is empty. */
GArray          *ks_line_diff           (const char         *a,
                                         const char         *b);
/* The line of b that line a_line of a is (KS_DIFF_SAME), or 0 */
uint32_t         ks_line_diff_b_line    (const GArray       *diff,
                                         uint32_t            a_line);
uint32_t         ks_line_diff_a_line    (const GArray       *diff,
                                         uint32_t            b_line);

/* focus_a and focus_b (0: none) are two lines that correspond although
 * their text may differ: hints on them are matched as on one line. */
KsComparison    *ks_comparison_new      (KsAnalysis         *a,
                                         KsAnalysis         *b,
                                         uint32_t            focus_a,
                                         uint32_t            focus_b);
void             ks_comparison_free     (KsComparison       *comparison);
/* The diff of the two PTX texts (KsDiffLine), made once.
 * Returns: (transfer none) */
const GArray    *ks_comparison_get_ptx_diff (KsComparison *comparison);
/* A change by its id, or NULL */
const KsFigureChange *ks_comparison_get (const KsComparison *comparison,
                                         const char         *id);
/* b - a, and b / a (NAN when a is 0 or either is missing) */
double           ks_figure_change_ratio (const KsFigureChange *change);
const char      *ks_change_verdict_name (KsChangeVerdict     verdict);
/* A side's value as the CLI and the window print it: "4.99 µs", "75 %",
 * "1015808", "3.1 MB", a word; "-" when it has none.  (transfer full) */
char            *ks_figure_change_format (const KsFigureChange *change,
                                          gboolean              side_b);
/* The change as a reader takes it in: "-59 %", "+2" (from 0), "=" (the
 * same), "≠" (words that differ), "" when not comparable.  (transfer full) */
char            *ks_figure_change_format_delta (const KsFigureChange *change);
/* The JSON of `kernelscope-cli compare --json`: {"a": ANALYSIS, "b": ANALYSIS,
 * "changes": [...], "hints_added": [...], "hints_gone": [...]} */
JsonNode        *ks_comparison_to_json  (const KsComparison *comparison);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsComparison, ks_comparison_free)

G_END_DECLS
