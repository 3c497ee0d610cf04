/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lanes-render.h: the lane view drawn with Cairo.
 *
 * One step of one warp (KsLaneTrace): the 32 lanes as columns; rows for
 * the lanes on the warp's path, the lanes whose guard predicate held, then
 * each register the instruction reads (its value before) and writes (after),
 * formatted by the register's type.  Lanes off the path are dimmed. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-sim-lanes.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean dark;
  double font_size;
} KsLanesStyle;

void   ks_lanes_style_init  (KsLanesStyle        *style);
void   ks_lanes_render      (cairo_t             *cr,
                             const KsPtxModule   *module,
                             const KsLaneTrace   *trace,
                             uint32_t             step,
                             const KsLanesStyle  *style,
                             double               width,
                             double               height);
/* The text of lane `lane` of a value, as the view shows it ("3.5", "-2",
 * "0x7f0000001000", "1") */
char  *ks_lanes_format      (const KsPtxModule   *module,
                             const KsLaneValue   *value,
                             uint32_t             lane);
/* The centre of the cell of row `row` (0: path, 1: guard, 2..: the step's
 * values in order) and lane `lane` */
void   ks_lanes_cell_center (const KsLanesStyle  *style,
                             double               width,
                             uint32_t             row,
                             uint32_t             lane,
                             double              *x,
                             double              *y);

G_END_DECLS
