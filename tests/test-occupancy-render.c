/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The occupancy chart's picture: the current configuration's point where
 * NVIDIA's Occupancy Calculator puts it, and the inverse mapping used to
 * drag it. */

#include <math.h>
#include <string.h>

#include "ks-test-pixels.h"

#include "ks-gpu-db.h"
#include "ks-occupancy-render.h"

/* The current point of each curve, for two configurations whose occupancy
 * the CUDA Occupancy Calculator gives: 256 threads, 32 registers on
 * sm_80 is 64 of 64 warps (100 %); 256 threads, 64 registers on sm_86 is
 * 4 blocks of 8 warps = 32 of 48 (registers: 64 x 256 = 16 K of 64 K). */
static void
test_current_point (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  const struct { const char *arch; uint32_t regs; double warps, max; } cases[] = {
    { "sm_80", 32, 64, 64 },
    { "sm_86", 64, 32, 48 },
  };

  g_assert_no_error (error);
  for (guint i = 0; i < 2 * G_N_ELEMENTS (cases); i++)
    {
      /* each case at two sizes */
      const guint n = i % G_N_ELEMENTS (cases);
      const int width = i < G_N_ELEMENTS (cases) ? 1200 : 760;
      const int height = i < G_N_ELEMENTS (cases) ? 420 : 300;
      const KsArchInfo *arch;
      g_autoptr(KsOccupancyCurves) curves = NULL;
      KsOccupancyResult res;
      KsOccupancyChart c;
      KsOccupancyChartLayout l;
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
      cairo_t *cr = cairo_create (s);
      double r, g, b, x, y;
      KsOccupancyCurve k;
      uint32_t v;

      arch = ks_gpu_db_get_arch (db, cases[n].arch);
      ks_occupancy_chart_init (&c);
      c.arch = arch;
      c.input.block_size = 256;
      c.input.registers_per_thread = cases[n].regs;
      g_assert_true (ks_occupancy_compute (arch, &c.input, &res, &error));
      g_assert_cmpuint (res.active_warps_per_sm, ==, (guint) cases[n].warps);
      curves = ks_occupancy_curves_new (arch, &c.input);
      c.result = &res;
      c.curves = curves;
      ks_occupancy_chart_layout (&c, width, height, &l);
      ks_occupancy_chart_render (cr, &c, width, height);
      ks_occupancy_chart_marker_rgb (&r, &g, &b);

      /* block size: x from 32 to 1024 threads; y the share of the maximum */
      x = l.plots[0].x + (256.0 - 32) / (1024 - 32) * l.plots[0].width;
      y = l.plots[0].y + l.plots[0].height * (1 - cases[n].warps / cases[n].max);
      g_assert_true (ks_test_pixel_is (s, x, y, r, g, b));
      /* registers: x from 1 to 255 */
      x = l.plots[1].x + (cases[n].regs - 1.0) / (255 - 1) * l.plots[1].width;
      g_assert_true (ks_test_pixel_is (s, x, y, r, g, b));
      /* and nowhere near the top-left of the plot */
      g_assert_false (ks_test_pixel_is (s, l.plots[0].x + 2, l.plots[0].y + l.plots[0].height - 2, r, g, b));

      /* dragging: a pointer over 512 threads picks 512 */
      x = l.plots[0].x + (512.0 - 32) / (1024 - 32) * l.plots[0].width;
      g_assert_true (ks_occupancy_chart_value_at (&c, &l, x, l.plots[0].y + 5, &k, &v));
      g_assert_cmpint (k, ==, KS_OCCUPANCY_CURVE_BLOCK_SIZE);
      g_assert_cmpuint (v, ==, 512);
      g_assert_false (ks_occupancy_chart_value_at (&c, &l, 1, 1, &k, &v));

      if (g_getenv ("KS_SCREENSHOT_DIR"))
        {
          g_autofree char *name = g_strdup_printf ("occupancy-%s.png", cases[n].arch);
          g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"), name, NULL);

          cairo_surface_write_to_png (s, path);
        }
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

/* Whether a pixel of (r, g, b) lies within half a side of (x, y) */
static gboolean
colour_near (cairo_surface_t *s,
             double           x,
             double           y,
             double           half,
             double           r,
             double           g,
             double           b)
{
  for (double dy = -half; dy <= half; dy += 1)
    for (double dx = -half; dx <= half; dx += 1)
      if (ks_test_pixel_is (s, x + dx, y + dy, r, g, b))
        return TRUE;
  return FALSE;
}

/* Compare: another kernel on the same axes.  256 threads with 32 registers
 * on sm_80 are 64 of 64 warps; with 64 registers 16 K registers a block
 * leave 4 blocks of 8 warps, 32 (the CUDA Occupancy Calculator's figures):
 * B's ring is on the registers plot at 64 registers and half height, in
 * the other kernel's colour (Okabe-Ito reddish purple, #cc79a7) */
static void
test_compare_point (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  g_autoptr(KsOccupancyCurves) ca = NULL;
  g_autoptr(KsOccupancyCurves) cb = NULL;
  const KsArchInfo *arch;
  KsOccupancyResult ra, rb;
  KsOccupancyChart a, b;
  KsOccupancyChartLayout l;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 420);
  cairo_t *cr = cairo_create (s);
  const double pr = 0xcc / 255.0, pg = 0x79 / 255.0, pb = 0xa7 / 255.0;
  double x, y, px;

  g_assert_no_error (error);
  arch = ks_gpu_db_get_arch (db, "sm_80");
  ks_occupancy_chart_init (&a);
  ks_occupancy_chart_init (&b);
  a.arch = b.arch = arch;
  a.input.block_size = b.input.block_size = 256;
  a.input.registers_per_thread = 32;
  b.input.registers_per_thread = 64;
  g_assert_true (ks_occupancy_compute (arch, &a.input, &ra, &error));
  g_assert_true (ks_occupancy_compute (arch, &b.input, &rb, &error));
  g_assert_cmpuint (rb.active_warps_per_sm, ==, 32);
  ca = ks_occupancy_curves_new (arch, &a.input);
  cb = ks_occupancy_curves_new (arch, &b.input);
  a.result = &ra;
  a.curves = ca;
  b.result = &rb;
  b.curves = cb;
  a.other = &b;
  a.label = "A";
  a.other_label = "B";
  ks_occupancy_chart_layout (&a, 1200, 420, &l);
  ks_occupancy_chart_render (cr, &a, 1200, 420);
  px = a.font_size * 96.0 / 72.0;

  x = l.plots[1].x + (64 - 1.0) / (255 - 1) * l.plots[1].width;
  y = l.plots[1].y + l.plots[1].height * (1 - 32.0 / 64);
  g_assert_true (colour_near (s, x, y, px, pr, pg, pb));
  /* and not where neither kernel is: 200 registers, the top */
  x = l.plots[1].x + (200 - 1.0) / (255 - 1) * l.plots[1].width;
  g_assert_false (colour_near (s, x, l.plots[1].y + 4, px * 0.5, pr, pg, pb));
  /* without the other, none of its colour at its point */
  a.other = NULL;
  ks_occupancy_chart_render (cr, &a, 1200, 420);
  x = l.plots[1].x + (64 - 1.0) / (255 - 1) * l.plots[1].width;
  g_assert_false (colour_near (s, x, y, px, pr, pg, pb));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* A configuration that cannot launch still draws, with the reason */
static void
test_cannot_launch (void)
{
  KsOccupancyChart c;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 300);
  cairo_t *cr = cairo_create (s);

  ks_occupancy_chart_init (&c);
  c.error = "300 registers per thread: the most is 255";
  ks_occupancy_chart_render (cr, &c, 600, 300);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/occupancy/current-point", test_current_point);
  g_test_add_func ("/widgets/occupancy/cannot-launch", test_cannot_launch);
  g_test_add_func ("/widgets/occupancy/compare-point", test_compare_point);
  return g_test_run ();
}
