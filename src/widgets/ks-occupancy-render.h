/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-occupancy-render.h: the occupancy chart drawn with Cairo.
 *
 * What the CUDA Occupancy Calculator shows: active warps per SM against
 * the maximum, the limiting resource with the blocks each resource allows,
 * and the three "impact of varying" curves (block size, registers per
 * thread, shared memory per block) with the current configuration marked.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-occupancy.h"

G_BEGIN_DECLS

typedef enum
{
  KS_OCCUPANCY_CURVE_BLOCK_SIZE = 0,
  KS_OCCUPANCY_CURVE_REGISTERS,
  KS_OCCUPANCY_CURVE_SHARED_MEMORY,
  KS_OCCUPANCY_N_CURVES
} KsOccupancyCurve;

typedef struct _KsOccupancyChart KsOccupancyChart;

struct _KsOccupancyChart
{
  const KsArchInfo *arch;
  KsOccupancyInput input;               /* the current configuration */
  const KsOccupancyResult *result;      /* NULL when it cannot launch */
  const char *error;                    /* why not, then */
  const KsOccupancyCurves *curves;
  gboolean dark;
  double font_size;                     /* points */
  int hover_curve;                      /* -1, or the curve a what-if point is shown on */
  uint32_t hover_value;
  /* Compare: another kernel's chart on the same axes (the same
   * architecture), its curves dashed and its point hollow, each point
   * named by its label ("A", "B"); NULL: none */
  const KsOccupancyChart *other;
  const char *label, *other_label;
};

typedef struct
{
  double x, y, width, height;
} KsChartRect;

typedef struct
{
  KsChartRect summary;
  KsChartRect plots[KS_OCCUPANCY_N_CURVES];     /* the plotting areas, inside their axes */
} KsOccupancyChartLayout;

void      ks_occupancy_chart_init     (KsOccupancyChart             *chart);
void      ks_occupancy_chart_layout   (const KsOccupancyChart       *chart,
                                       double                        width,
                                       double                        height,
                                       KsOccupancyChartLayout       *layout);
void      ks_occupancy_chart_render   (cairo_t                      *cr,
                                       const KsOccupancyChart       *chart,
                                       double                        width,
                                       double                        height);
/* The current configuration's value on a curve (threads, registers or
 * shared bytes) */
uint32_t  ks_occupancy_chart_current  (const KsOccupancyChart       *chart,
                                       KsOccupancyCurve              curve);
/* Where the point of `curve` at `value` is drawn; FALSE off the curve */
gboolean  ks_occupancy_chart_point    (const KsOccupancyChart       *chart,
                                       const KsOccupancyChartLayout *layout,
                                       KsOccupancyCurve              curve,
                                       uint32_t                      value,
                                       double                       *x,
                                       double                       *y);
/* The curve and its nearest value under (x, y), for dragging the point */
gboolean  ks_occupancy_chart_value_at (const KsOccupancyChart       *chart,
                                       const KsOccupancyChartLayout *layout,
                                       double                        x,
                                       double                        y,
                                       KsOccupancyCurve             *curve,
                                       uint32_t                     *value);
/* The marker's colour (the current point) */
void      ks_occupancy_chart_marker_rgb (double                     *r,
                                         double                     *g,
                                         double                     *b);

G_END_DECLS
