/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-render.h: a Probe Lab sweep drawn with Cairo.
 *
 * The variable along x and the probe's cycles per target instruction up
 * y, one point per probe; for the instruction-count sweep, the cycles
 * between the clock reads against the instructions timed, with the fitted
 * line T = L N + C over them.  A sweep the timing model ran says so in
 * its title: its figures are the model's.  A second series (an edited
 * probe's one point, a saved experiment's sweep) is drawn hollow over it,
 * named in a legend. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-probe.h"

G_BEGIN_DECLS

typedef struct
{
  const KsProbeResult *result;  /* NULL: nothing drawn */
  const KsProbeResult *other;   /* NULL, or a second series of the same template drawn
                                 * hollow beside it: a probe edited by hand, a saved run */
  const char *other_label;      /* the legend's name for it ("your edit", "saved 4 Dec") */
  gboolean dark;
  double font_size;             /* points */
  int hover;                    /* the point under the pointer, or -1 */
} KsProbeChart;

void      ks_probe_chart_init      (KsProbeChart        *chart);
void      ks_probe_chart_render    (cairo_t             *cr,
                                    const KsProbeChart  *chart,
                                    double               width,
                                    double               height);
/* Where point i is drawn in a picture of width x height; FALSE when
 * there is no such point */
gboolean  ks_probe_chart_point     (const KsProbeChart  *chart,
                                    double               width,
                                    double               height,
                                    guint                i,
                                    double              *x,
                                    double              *y);
/* The point drawn nearest (x, y) within a few pixels, or -1 */
int       ks_probe_chart_point_at  (const KsProbeChart  *chart,
                                    double               width,
                                    double               height,
                                    double               x,
                                    double               y);
/* The x value of a point as the axis labels it ("16 KiB", "4") */
char     *ks_probe_chart_format_x  (const KsProbeResult *result,
                                    double               x);
/* The sweep in words, for a screen reader and a tooltip: the axes and
 * every point's figure.  (transfer full) */
char     *ks_probe_chart_describe  (const KsProbeResult *result);

G_END_DECLS
