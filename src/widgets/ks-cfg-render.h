/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cfg-render.h: a function's control-flow graph drawn with Cairo.
 *
 * Basic blocks laid out top to bottom in layers (the longest path from the
 * entry over forward edges), edges as curves, back edges (loops) on the
 * left, and for each divergent branch a dashed line to its reconvergence
 * point (the immediate post-dominator).  Blocks are coloured by how often
 * they ran, on a colour-blind-safe sequential scale, and outlined when
 * their branch split warps, with the share of active lanes. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-ptx.h"
#include "ks-sim.h"

G_BEGIN_DECLS

typedef struct
{
  double x, y, width, height;
  uint32_t layer;
  uint32_t first_line, last_line;
  uint32_t n_insns;
} KsCfgNode;

typedef struct
{
  uint32_t function;
  KsCfgNode *nodes;             /* one per basic block of the function */
  uint32_t n_nodes;
  uint32_t n_layers;
  double width, height;         /* of the whole graph, in pixels at scale 1 */
  double font_size;
} KsCfgLayout;

/* Lays out `function`'s blocks for text of `font_size` points */
KsCfgLayout  *ks_cfg_layout_new    (const KsPtxModule    *module,
                                    uint32_t              function,
                                    double                font_size);
void          ks_cfg_layout_free   (KsCfgLayout          *layout);

typedef struct
{
  double scale;                 /* 1: the layout's pixels */
  double offset_x, offset_y;    /* the graph point at the widget's top left */
  gboolean dark;
  int64_t selected;             /* a block, or -1 */
  gboolean projector;           /* presentation mode: a stronger fill scale */
  gboolean legend;              /* draw the legend along the bottom (ks_cfg_legend_height) */
} KsCfgViewState;

void          ks_cfg_view_state_init (KsCfgViewState     *view);
/* Draws the graph; `stats` (module->n_insns of them, may be NULL) gives the
 * counts and divergence */
void          ks_cfg_render        (cairo_t              *cr,
                                    const KsPtxModule    *module,
                                    const KsCfgLayout    *layout,
                                    const KsSimInsnStats *stats,
                                    const KsCfgViewState *view,
                                    double                width,
                                    double                height);
/* The block at widget point (x, y), or -1 */
int64_t       ks_cfg_hit           (const KsCfgLayout    *layout,
                                    const KsCfgViewState *view,
                                    double                x,
                                    double                y);
/* The fill of a block that ran `count` times when the busiest ran `max`:
 * a sequential scale from pale to dark blue (readable with every kind of
 * colour blindness) */
void          ks_cfg_heat_rgb      (uint64_t              count,
                                    uint64_t              max,
                                    double               *r,
                                    double               *g,
                                    double               *b);

/* The same scale's projector steps (Blues 300 to 900): the palest fill
 * stays visible on a washed-out projector */
void          ks_cfg_heat_rgb_projector (uint64_t         count,
                                         uint64_t         max,
                                         double          *r,
                                         double          *g,
                                         double          *b);
/* The height of the legend (what the fill, the orange outline, the dashed
 * line and the side curves mean) at `width`, for text of `font_size`
 * points; drawn at the bottom of the picture, unzoomed, when the view
 * state's `legend` is set */
double        ks_cfg_legend_height (double                font_size,
                                    double                width);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCfgLayout, ks_cfg_layout_free)

G_END_DECLS
