/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-occupancy-view.h: the occupancy chart widget.
 *
 * Shows an analysis's occupancy (its GPU, launch and resources) with the
 * picture of ks-occupancy-render.h.  Hovering a curve shows the occupancy
 * at that value; dragging the current point and letting go emits
 * "what-if" with the curve and the value, which the window turns into a
 * new run with that block size, register count or shared memory. */
#pragma once

#include <gtk/gtk.h>

#include "ks-analysis.h"
#include "ks-occupancy-render.h"

G_BEGIN_DECLS

#define KS_TYPE_OCCUPANCY_VIEW (ks_occupancy_view_get_type ())
G_DECLARE_FINAL_TYPE (KsOccupancyView, ks_occupancy_view, KS, OCCUPANCY_VIEW, GtkWidget)

GtkWidget  *ks_occupancy_view_new              (void);
void        ks_occupancy_view_set_analysis     (KsOccupancyView *self,
                                                KsAnalysis      *analysis);
/* Compare: another analysis's curves (dashed) and point (a ring) on the
 * same axes, the points named label and other_label; drawn only for the
 * same architecture.  NULL: none.  Set after set_analysis. */
void        ks_occupancy_view_set_other        (KsOccupancyView *self,
                                                KsAnalysis      *other,
                                                const char      *label,
                                                const char      *other_label);
void        ks_occupancy_view_set_presentation (KsOccupancyView *self,
                                                gboolean         presentation);
gboolean    ks_occupancy_view_export           (KsOccupancyView *self,
                                                const char      *path,
                                                int              width,
                                                int              height,
                                                GError         **error);

G_END_DECLS
