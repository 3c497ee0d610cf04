/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-gutter.h: the heat gutter of a source pane and its legend.
 *
 * KsHeatGutter is a GtkSourceGutterRenderer that paints each line in the
 * colour of its bin (ks-heat.h); it asks its owner for a line's bin and for
 * its tooltip when it draws or is hovered, so it never holds a copy of
 * statistics that a new run or another SASS listing would make stale.  Its
 * width follows the pane's code font, so presentation mode widens it.
 * KsHeatLegend shows a scale: the metric's name, the smallest value, the
 * ramp's bins and the largest value. */
#pragma once

#include <gtksourceview/gtksource.h>

#include "ks-heat.h"

G_BEGIN_DECLS

/* Whether line (1-based) has a colour, and which bin */
typedef gboolean (*KsHeatGutterBinFunc)     (guint     line,
                                             uint32_t *bin,
                                             gpointer  user_data);
/* The line's figures in words, or NULL for no tooltip */
typedef char    *(*KsHeatGutterTooltipFunc) (guint     line,
                                             gpointer  user_data);

#define KS_TYPE_HEAT_GUTTER (ks_heat_gutter_get_type ())
G_DECLARE_FINAL_TYPE (KsHeatGutter, ks_heat_gutter, KS, HEAT_GUTTER, GtkSourceGutterRenderer)

GtkSourceGutterRenderer *ks_heat_gutter_new            (KsHeatGutterBinFunc      bin_func,
                                                        KsHeatGutterTooltipFunc  tooltip_func,
                                                        gpointer                 user_data);
/* Stale results (the last run failed) are drawn faint, not hidden */
void                     ks_heat_gutter_set_dimmed     (KsHeatGutter            *self,
                                                        gboolean                 dimmed);
gboolean                 ks_heat_gutter_get_dimmed     (KsHeatGutter            *self);
/* The colour line is painted in (alpha included); FALSE for a blank line */
gboolean                 ks_heat_gutter_get_colour     (KsHeatGutter            *self,
                                                        guint                    line,
                                                        GdkRGBA                 *rgba);

#define KS_TYPE_HEAT_LEGEND (ks_heat_legend_get_type ())
G_DECLARE_FINAL_TYPE (KsHeatLegend, ks_heat_legend, KS, HEAT_LEGEND, GtkWidget)

GtkWidget               *ks_heat_legend_new            (gboolean                 show_name);
/* name: the metric's name; unit: what its values count ("thread-instructions
 * per line"), for the tooltip; NULL scale or one with no values: empty */
void                     ks_heat_legend_set_scale      (KsHeatLegend            *self,
                                                        const char              *name,
                                                        const char              *unit,
                                                        const KsHeatScale       *scale);
void                     ks_heat_legend_set_dimmed     (KsHeatLegend            *self,
                                                        gboolean                 dimmed);
/* What it reads, "Executions 1.0k – 1.0k" (for tests and the accessible
 * description) */
const char              *ks_heat_legend_get_text       (KsHeatLegend            *self);

G_END_DECLS
