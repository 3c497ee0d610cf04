/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-render-export.h: every view's export to PNG, SVG or PDF. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* The views' text size in points at a desk, and the factor presentation
 * mode multiplies it by.  Every view draws its text, marks, rows and cells
 * from this one size, so a projector gets all of them 1.7 times larger
 * (issue 13 asks for at least 1.6: lane numbers read from the back of a
 * room). */
#define KS_RENDER_FONT_SIZE 9.0
#define KS_RENDER_PRESENTATION_SCALE 1.7
#define KS_RENDER_FONT_SIZE_FOR(presentation) \
  ((presentation) ? KS_RENDER_FONT_SIZE * KS_RENDER_PRESENTATION_SCALE : KS_RENDER_FONT_SIZE)


typedef void (*KsRenderFunc) (cairo_t  *cr,
                              double    width,
                              double    height,
                              gpointer  user_data);

/* Draws with `draw` into a PNG, SVG or PDF file (by the extension) of the
 * given size; `vector` tells the draw function which kind it is drawing.
 * A G_IO_ERROR_INVALID_ARGUMENT names any other extension. */
gboolean  ks_render_export  (const char   *path,
                             double        width,
                             double        height,
                             KsRenderFunc  draw,
                             gpointer      user_data,
                             GError      **error);
/* Whether `path` names a vector format (SVG or PDF) */
gboolean  ks_render_path_is_vector (const char *path);

G_END_DECLS
