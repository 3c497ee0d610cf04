/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lane-view.h: the lane view widget.
 *
 * Shows a warp's recorded steps (KsLaneTrace, which the app records with
 * ks_lane_trace_record in a worker) with ks-lanes-render.h; Left/Right step
 * back and forward through the warp's instructions, Home/End go to the
 * first and last, and "step-changed" gives the instruction for the source
 * panes to follow. */
#pragma once

#include <gtk/gtk.h>

#include "ks-analysis.h"
#include "ks-sim-lanes.h"

G_BEGIN_DECLS

#define KS_TYPE_LANE_VIEW (ks_lane_view_get_type ())
G_DECLARE_FINAL_TYPE (KsLaneView, ks_lane_view, KS, LANE_VIEW, GtkWidget)

GtkWidget  *ks_lane_view_new              (void);
/* Shows `trace` (transfer full; NULL for none) of a warp of `analysis` */
void        ks_lane_view_set_trace        (KsLaneView  *self,
                                           KsAnalysis  *analysis,
                                           KsLaneTrace *trace);
void        ks_lane_view_set_step         (KsLaneView  *self,
                                           uint32_t     step);
uint32_t    ks_lane_view_get_step         (KsLaneView  *self);
void        ks_lane_view_set_presentation (KsLaneView  *self,
                                           gboolean     presentation);
gboolean    ks_lane_view_export           (KsLaneView  *self,
                                           const char  *path,
                                           int          width,
                                           int          height,
                                           GError     **error);

G_END_DECLS
