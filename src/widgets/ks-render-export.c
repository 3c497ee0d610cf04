/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-render-export.c: every view's export to PNG, SVG or PDF. */

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <math.h>

#include "ks-render-export.h"

gboolean
ks_render_path_is_vector (const char *path)
{
  return g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".pdf");
}

gboolean
ks_render_export (const char   *path,
                  double        width,
                  double        height,
                  KsRenderFunc  draw,
                  gpointer      user_data,
                  GError      **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (path != NULL && draw != NULL, FALSE);

  if (g_str_has_suffix (path, ".svg"))
    surface = cairo_svg_surface_create (path, width, height);
  else if (g_str_has_suffix (path, ".pdf"))
    surface = cairo_pdf_surface_create (path, width, height);
  else if (g_str_has_suffix (path, ".png"))
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width),
                                          (int) ceil (height));
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: export as .png, .svg or .pdf", path);
      return FALSE;
    }
  cr = cairo_create (surface);
  draw (cr, width, height, user_data);
  cairo_destroy (cr);
  if (g_str_has_suffix (path, ".png"))
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static double presentation_scale = KS_RENDER_PRESENTATION_SCALE;

double
ks_render_presentation_scale (void)
{
  return presentation_scale;
}

void
ks_render_set_presentation_scale (double scale)
{
  presentation_scale = CLAMP (MAX (scale, KS_RENDER_PRESENTATION_SCALE), 1.0, 3.0);
}

void
ks_render_set_rgb (cairo_t      *cr,
                   const double *rgb,
                   double        alpha)
{
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
}

void
ks_render_text_centred (cairo_t    *cr,
                        double      x,
                        double      y,
                        const char *text)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, text, &e);
  cairo_move_to (cr, x - e.x_advance / 2, y);
  cairo_show_text (cr, text);
}
