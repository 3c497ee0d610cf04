/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-timeline.h: the warp timeline widget.
 *
 * Shows an analysis's timing model (KsAnalysis.timing) with the picture of
 * ks-timeline-render.h: zoom with Ctrl+scroll, a pinch, or the keys + - 0;
 * pan by dragging or scrolling; a tooltip names the instruction under the
 * pointer; a click selects it and emits "instruction-selected", which the
 * window turns into a selection in the source panes. */
#pragma once

#include <gtk/gtk.h>

#include "ks-analysis.h"

G_BEGIN_DECLS

#define KS_TYPE_TIMELINE (ks_timeline_get_type ())
G_DECLARE_FINAL_TYPE (KsTimeline, ks_timeline, KS, TIMELINE, GtkWidget)

GtkWidget    *ks_timeline_new               (void);
/* Shows `analysis` (its timing; none when NULL or without one).  The
 * widget keeps a reference. */
void          ks_timeline_set_analysis      (KsTimeline  *self,
                                             KsAnalysis  *analysis);
KsAnalysis   *ks_timeline_get_analysis      (KsTimeline  *self);
void          ks_timeline_set_presentation  (KsTimeline  *self,
                                             gboolean     presentation);
gboolean      ks_timeline_get_presentation  (KsTimeline  *self);
/* The visible cycles */
void          ks_timeline_get_range         (KsTimeline  *self,
                                             double      *first_cycle,
                                             double      *last_cycle);
void          ks_timeline_zoom_fit          (KsTimeline  *self);
/* The time axis spans at least `cycles` (0: the run's own), so that two
 * runs drawn one above the other share one scale */
void          ks_timeline_set_axis_cycles   (KsTimeline  *self,
                                             double       cycles);
/* The left edge and the zoom, as "range-changed" tells them: another
 * timeline's, to follow it */
void          ks_timeline_set_view          (KsTimeline  *self,
                                             double       first_cycle,
                                             double       cycles_per_pixel);
void          ks_timeline_get_view          (KsTimeline  *self,
                                             double      *first_cycle,
                                             double      *cycles_per_pixel);
/* Zooms by `factor` (> 1 zooms in) keeping the cycle under x in place */
void          ks_timeline_zoom_at           (KsTimeline  *self,
                                             double       factor,
                                             double       x);
/* Writes the whole run (or the visible cycles) as PNG, SVG or PDF, at any
 * size, with every warp's row: taller than `height` when the rows need it */
gboolean      ks_timeline_export            (KsTimeline  *self,
                                             const char  *path,
                                             int          width,
                                             int          height,
                                             gboolean     whole_run,
                                             GError     **error);

G_END_DECLS
