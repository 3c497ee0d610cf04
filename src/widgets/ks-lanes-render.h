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
  gboolean projector;           /* presentation mode: dimmed lanes stay visible */
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
/* How a value's text is laid out in a cell w wide and h high, for the
 * view's text size px: on one line, shrunk a little; else, where the cell
 * has room for two, broken in two ("0x8201" over "2345"; "-1.234" over
 * "e+05"), rather than cut; cut with "~" only when neither fits.  Fills
 * lines (transfer full, NULL after the last) and size, the font size
 * (which, when above 0 on entry, is the largest it may be).
 * Returns: the number of lines, 1 or 2 */
guint  ks_lanes_fit_text    (cairo_t             *cr,
                             const char          *text,
                             double               w,
                             double               h,
                             double               px,
                             char                *lines[3],
                             double              *size);
/* For a row of values too long for their cells: how many leading
 * characters (with the "0x") every text shares when all are hex words of
 * one length ("0x7f0000000000" and "0x7f000000007c" share 12), always
 * leaving at least one digit to each lane; 0 when they are not all such,
 * or share only the "0x".  The view writes the shared part once. */
guint  ks_lanes_shared_prefix (const char *const *texts,
                               guint              n);
/* The height that shows every row of step `step` of `trace` (NULL: the
 * message), for the widget's scrolled window to scroll to */
double ks_lanes_content_height (const KsLanesStyle *style,
                                const KsLaneTrace  *trace,
                                uint32_t            step);
/* The row (0: path, 1: guard, 2..: values) and lane of the cell under
 * (x, y); FALSE outside the cells' columns */
gboolean ks_lanes_hit         (const KsLanesStyle  *style,
                               double               width,
                               double               x,
                               double               y,
                               uint32_t            *row,
                               uint32_t            *lane);
/* The centre of the cell of row `row` (0: path, 1: guard, 2..: the step's
 * values in order) and lane `lane` */
void   ks_lanes_cell_center (const KsLanesStyle  *style,
                             double               width,
                             uint32_t             row,
                             uint32_t             lane,
                             double              *x,
                             double              *y);

G_END_DECLS
