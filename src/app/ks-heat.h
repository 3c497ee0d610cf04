/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat.h: the heat gutter's numbers and colours.
 *
 * Plain C, no GTK, so the tests check it without a display: which figure
 * of a line's statistics (KsSimInsnStats) a metric colours by, the scale
 * over the lines of a pane (linear, or logarithmic where counts span a
 * decade or more), the bin of a value, and the colour of a bin on viridis,
 * a sequential ramp that stays ordered in lightness for colour-blind readers
 * and in grey. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-sim.h"

G_BEGIN_DECLS

typedef enum
{
  KS_HEAT_EXECUTIONS = 0,       /* thread-instructions: lanes that executed the line */
  KS_HEAT_DIVERGENCE,           /* branches that split a warp */
  KS_HEAT_BANK_CONFLICTS,       /* shared-memory wavefronts beyond the conflict-free ones */
  KS_HEAT_EXCESS_SECTORS,       /* global-memory sectors beyond the ideal */
  KS_HEAT_ACTIVE_LANES,         /* lanes on the warp's path, on average */
  KS_HEAT_N_METRICS
} KsHeatMetric;

/* The gutter's colours: this many steps of the ramp */
#define KS_HEAT_N_BINS 8

/* "executions", "divergence", ...: for settings and tests */
const char   *ks_heat_metric_id       (KsHeatMetric           metric);
/* The metric named by id, or -1 */
int           ks_heat_metric_from_id  (const char            *id);

/* The metric's figure for a line; FALSE where it does not apply: a line
 * that never ran, and for the memory metrics a line without such
 * accesses (blank in the gutter, not zero) */
gboolean      ks_heat_value           (KsHeatMetric           metric,
                                       const KsSimInsnStats  *stats,
                                       double                *value);

typedef struct
{
  KsHeatMetric metric;
  double min, max;              /* over the lines it applies to */
  uint32_t n_values;            /* 0: nothing to colour */
  gboolean log;                 /* positions by log10 (1 + value) */
} KsHeatScale;

void          ks_heat_scale_init      (KsHeatScale           *scale,
                                       KsHeatMetric           metric);
void          ks_heat_scale_add       (KsHeatScale           *scale,
                                       double                 value);
/* After the values: the average active lanes are on the fixed range 0-32,
 * so that a full warp always has the same colour; counts are on their
 * range, logarithmic when (max + 1) >= 10 (min + 1) */
void          ks_heat_scale_finish    (KsHeatScale           *scale);
/* Where value lies on the scale, 0 (min) to 1 (max); a scale of one value
 * puts it at 1, or at 0 when that value is 0 */
double        ks_heat_position        (const KsHeatScale     *scale,
                                       double                 value);
/* floor (position x KS_HEAT_N_BINS), the top bin included in the last */
uint32_t      ks_heat_bin             (const KsHeatScale     *scale,
                                       double                 value);
/* The smallest value of a bin (its left edge on the scale) */
double        ks_heat_bin_start       (const KsHeatScale     *scale,
                                       uint32_t               bin);

/* Viridis (matplotlib's default map) at t in [0, 1]: linear between nine
 * anchors, viridisLite::viridis(9) in R; red, green and blue in [0, 1] */
void          ks_heat_ramp            (double                 t,
                                       double                 rgb[3]);
/* The colour of a bin: the ramp at bin / (KS_HEAT_N_BINS - 1), so the
 * bins run from the ramp's darkest to its lightest */
void          ks_heat_bin_colour      (uint32_t               bin,
                                       double                 rgb[3]);

/* 1234567 -> "1 234 567" (narrow no-break spaces between groups) */
char         *ks_heat_format_count    (uint64_t               value);
/* A legend's short form: "950", "1.2k", "16k", "3.4M", "27.5" (averages) */
char         *ks_heat_format_short    (double                 value,
                                       gboolean               integer);

G_END_DECLS
