/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-pixels.h: reading a rendered picture in the view tests. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Whether the pixel at (x, y) of an RGB24/ARGB32 image is (r, g, b), each
 * within 2 % */
static inline gboolean
ks_test_pixel_is (cairo_surface_t *s,
                  double           x,
                  double           y,
                  double           r,
                  double           g,
                  double           b)
{
  const unsigned char *data;
  uint32_t v;

  cairo_surface_flush (s);
  data = cairo_image_surface_get_data (s);
  memcpy (&v, data + (size_t) (int) y * cairo_image_surface_get_stride (s) + 4 * (int) x, 4);
  return fabs (((v >> 16) & 0xff) / 255.0 - r) < 0.02 && fabs (((v >> 8) & 0xff) / 255.0 - g) < 0.02
         && fabs ((v & 0xff) / 255.0 - b) < 0.02;
}

/* The height of the run of pixels of colour (r, g, b) down column x that
 * contains row y (which must be of that colour) */
static inline int
ks_test_run_height (cairo_surface_t *s,
                    double           x,
                    double           y,
                    double           r,
                    double           g,
                    double           b)
{
  int top = (int) y, bottom = (int) y, h = cairo_image_surface_get_height (s);

  g_assert_true (ks_test_pixel_is (s, x, y, r, g, b));
  while (top > 0 && ks_test_pixel_is (s, x, top - 1, r, g, b))
    top--;
  while (bottom + 1 < h && ks_test_pixel_is (s, x, bottom + 1, r, g, b))
    bottom++;
  return bottom - top + 1;
}
