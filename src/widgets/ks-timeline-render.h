/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-timeline-render.h: the warp timeline drawn with Cairo.
 *
 * The timing model's result (KsTiming) as a picture: a row per warp,
 * grouped by block, x in cycles; each issued instruction a block coloured
 * by its pipe, the stall before it a lighter band coloured by its reason,
 * markers for divergence, reconvergence and barriers, a cycle ruler on top,
 * an overview strip and a legend at the bottom.  Plain Cairo, so the same
 * code draws the widget (through gtk_snapshot_append_cairo), exports PNG,
 * SVG and PDF, and renders in tests without a display.
 *
 * Level of detail: within a row, events that fall in the same pixel column
 * are drawn once, in the colour of the pipe that issued most of them, so a
 * frame costs at most rows x width rectangles whatever the zoom.
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"
#include "ks-timing.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b;
} KsRgb;

/* What is shown and how; the widget keeps one and changes it */
typedef struct
{
  double first_cycle;           /* the left edge, in cycles */
  double cycles_per_pixel;      /* zoom */
  double axis_cycles;           /* the time axis spans at least this many cycles (two runs on
                                 * one axis); 0: the run's own */
  double row_height;            /* pixels */
  uint32_t first_row;           /* vertical scroll, in rows */
  gboolean dark;
  double font_size;             /* points; presentation mode uses a larger one */
  gboolean projector;           /* presentation mode: stronger stall bands for a projector */
  int64_t hover_warp;           /* -1 for none */
  int64_t hover_event;          /* index into KsTiming.events, -1 for none */
  int64_t selected_event;
  gboolean vector;              /* draw every event as a vector shape (SVG/PDF export);
                                 * otherwise rows are an image of whole pixels */
  /* the overview strip's issue counts per pixel column, kept by a caller
   * that draws many frames (ks_timeline_overview_density); NULL: counted
   * for each frame */
  const uint32_t *overview;
  uint32_t n_overview;
} KsTimelineView;

/* The regions of the picture, from its size */
typedef struct
{
  double label_width;           /* row labels on the left */
  double ruler_height;          /* the cycle ruler on top */
  double rows_top, rows_height;
  double overview_top, overview_height;
  double legend_top, legend_height;
  double plot_left, plot_width;
} KsTimelineLayout;

void          ks_timeline_view_init      (KsTimelineView         *view);
void          ks_timeline_layout         (const KsTimelineView   *view,
                                          double                  width,
                                          double                  height,
                                          KsTimelineLayout       *layout);
/* Zoom so the whole run fits the plot */
void          ks_timeline_view_fit       (KsTimelineView         *view,
                                          const KsTiming         *timing,
                                          double                  width,
                                          double                  height);

/* Draws everything; `module` names the instructions (may be NULL) */
void          ks_timeline_render         (cairo_t                *cr,
                                          const KsTiming         *timing,
                                          const KsPtxModule      *module,
                                          const KsTimelineView   *view,
                                          double                  width,
                                          double                  height);

/* Only the hovered and selected events' outlines (drawn over a cached
 * picture of the rest, which ks_timeline_render draws with them) */
void          ks_timeline_render_highlight (cairo_t              *cr,
                                            const KsTiming       *timing,
                                            const uint32_t       *row_order,
                                            const KsTimelineView *view,
                                            double                width,
                                            double                height);

/* The outline of event `event` (an index into timing->events) in view;
 * FALSE when it is not */
gboolean      ks_timeline_event_rect       (const KsTiming       *timing,
                                            const uint32_t       *row_order,
                                            const KsTimelineView *view,
                                            double                width,
                                            double                height,
                                            int64_t               event,
                                            double               *x,
                                            double               *y,
                                            double               *w,
                                            double               *h);

/* Issue counts of the whole run in `n_columns` equal slices of its cycles:
 * what the overview strip draws.  (transfer full) */
uint32_t     *ks_timeline_overview_density (const KsTiming       *timing,
                                            uint32_t              n_columns);

/* The rows in drawing order (by block, then sub-partition, then warp):
 * row i shows warp order[i].  (transfer full) */
uint32_t     *ks_timeline_row_order      (const KsTiming         *timing);

/* The event under (x, y): its warp and index into timing->events; FALSE
 * when there is none.  Binary search in the row's events. */
gboolean      ks_timeline_hit            (const KsTiming         *timing,
                                          const uint32_t         *row_order,
                                          const KsTimelineView   *view,
                                          double                  width,
                                          double                  height,
                                          double                  x,
                                          double                  y,
                                          uint32_t               *warp,
                                          uint64_t               *event);

/* Colours: the pipes' (Okabe-Ito, colour-blind safe) and the stall
 * reasons' */
KsRgb         ks_timeline_pipe_color     (KsPipe                  pipe);
KsRgb         ks_timeline_stall_color    (KsStallReason           reason);
/* A stall reason in the legend's words ("memory" for long_scoreboard),
 * translated; Nsight Compute's name for those the legend does not show */
const char   *ks_timeline_stall_label    (KsStallReason           reason);

/* Exports to a file; the format comes from the extension (.png, .svg,
 * .pdf). */
gboolean      ks_timeline_render_export  (const KsTiming         *timing,
                                          const KsPtxModule      *module,
                                          const KsTimelineView   *view,
                                          double                  width,
                                          double                  height,
                                          const char             *path,
                                          GError                **error);

G_END_DECLS
