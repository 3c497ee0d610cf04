/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-render-export.h: every view's export to PNG, SVG or PDF. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* The views' text size in points at a desk, and the factor presentation
 * mode multiplies it by.  Every view draws its text, marks, rows and cells
 * from this one size, so a projector gets all of them 1.7 times larger by
 * default (lane numbers read from the back of a room), or the larger
 * text scale the presentation-scale setting asks for; never less than
 * KS_RENDER_PRESENTATION_SCALE_MIN. */
#define KS_RENDER_FONT_SIZE 9.0
#define KS_RENDER_PRESENTATION_SCALE 1.7
#define KS_RENDER_PRESENTATION_SCALE_MIN 1.6
#define KS_RENDER_FONT_SIZE_FOR(presentation) \
  ((presentation) ? KS_RENDER_FONT_SIZE * ks_render_presentation_scale () : KS_RENDER_FONT_SIZE)

/* The views' shared drawing steps: a colour of three components (r, g,
 * b) at an alpha, and text centred on x with its baseline at y */
void      ks_render_set_rgb      (cairo_t      *cr,
                                  const double *rgb,
                                  double        alpha);
void      ks_render_text_centred (cairo_t      *cr,
                                  double        x,
                                  double        y,
                                  const char   *text);

/* The factor presentation mode draws the views at: 1.7, or the scale
 * set, when it is larger, up to 3 (process-wide: one setting for every
 * window; set from the main thread, before the views are told) */
double    ks_render_presentation_scale     (void);
void      ks_render_set_presentation_scale (double scale);


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
