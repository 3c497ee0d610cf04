/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Probe Lab's sweep plot: where its points go (a doubling variable
 * evenly spaced on its log axis, cycles proportional up the linear one,
 * the count sweep's points on one straight line as T = L N + C puts
 * them), that a point is drawn in the points' colour where the layout
 * says, that the pointer finds it, and the sweep in words. */

#include <math.h>
#include <string.h>

#include "ks-test-pixels.h"

#include "ks-probe-render.h"

/* A result as ks_probe_run makes one: the template, its points, a model's */
static KsProbeResult *
fake_result (const char   *name,
             const double *x,
             const double *cycles,
             guint         n)
{
  KsProbeResult *r = g_new0 (KsProbeResult, 1);

  r->tmpl = ks_probe_find (name);
  g_assert_nonnull (r->tmpl);
  r->points = g_array_new (FALSE, TRUE, sizeof (KsProbePoint));
  r->checks = g_ptr_array_new ();
  r->ran_on = g_strdup ("model");
  r->evidence = g_strdup ("model");
  for (guint i = 0; i < n; i++)
    {
      KsProbePoint p = { .x = x[i], .instructions = (uint64_t) x[i], .corrected = NAN,
                         .ways = NAN, .registers = -1, .spill_loads = -1, .spill_stores = -1 };

      p.total_cycles = (uint64_t) cycles[i];
      p.cycles_per_instruction = cycles[i] / x[i];
      g_array_append_val (r->points, p);
    }
  return r;
}

static void
test_log_axis (void)
{
  /* the shared stride sweep: gcd(s, 32) passes a load for s = 1 .. 32 */
  const double x[] = { 1, 2, 4, 8, 16, 32 };
  double cycles[G_N_ELEMENTS (x)];
  g_autoptr(KsProbeResult) r = NULL;
  double px[G_N_ELEMENTS (x)], py[G_N_ELEMENTS (x)];
  const int widths[] = { 900, 420 };

  /* cycles per instruction = x: the total is x * x */
  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    cycles[i] = x[i] * x[i];
  r = fake_result ("shared-stride", x, cycles, G_N_ELEMENTS (x));
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, widths[w], 360);
      cairo_t *cr = cairo_create (s);
      KsProbeChart c;
      g_autofree char *words = NULL;

      ks_probe_chart_init (&c);
      c.result = r;
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      ks_probe_chart_render (cr, &c, widths[w], 360);
      for (guint i = 0; i < G_N_ELEMENTS (x); i++)
        {
          g_assert_true (ks_probe_chart_point (&c, widths[w], 360, i, &px[i], &py[i]));
          /* inside the picture, in the points' colour (Okabe-Ito blue) */
          g_assert_cmpfloat (px[i], >, 0);
          g_assert_cmpfloat (px[i], <, widths[w]);
          g_assert_true (ks_test_pixel_is (s, px[i], py[i], 0, 0x72 / 255.0, 0xb2 / 255.0));
          g_assert_cmpint (ks_probe_chart_point_at (&c, widths[w], 360, px[i] + 1, py[i] - 1), ==,
                           (int) i);
        }
      for (guint i = 1; i + 1 < G_N_ELEMENTS (x); i++)
        {
          /* each doubling the same step along x */
          g_assert_cmpfloat (fabs ((px[i + 1] - px[i]) - (px[i] - px[i - 1])), <, 0.01);
          /* up y in proportion: (y(2s) - y(s)) = 2 (y(s) - y(s/2)) */
          g_assert_cmpfloat (fabs ((py[i] - py[i + 1]) - 2 * (py[i - 1] - py[i])), <, 0.01);
        }
      g_assert_cmpint (ks_probe_chart_point_at (&c, widths[w], 360, 2, 2), ==, -1);
      g_assert_false (ks_probe_chart_point (&c, widths[w], 360, G_N_ELEMENTS (x), &px[0], &py[0]));

      words = ks_probe_chart_describe (r);
      g_assert_nonnull (strstr (words, "model"));
      g_assert_nonnull (strstr (words, "32: 32.00"));
      g_assert_nonnull (strstr (words, "1: 1.00"));
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

/* A second series (an edited probe's point, a saved run): the axes grow to
 * hold it, its diamond's outline is drawn in reddish purple where the
 * sweep's scale puts it, and another template's series is not drawn */
static void
test_other_series (void)
{
  const double x[] = { 1, 2, 4, 8, 16 };
  const double cycles[] = { 4, 4, 4, 8, 16 };   /* 4, 2, 1, 1, 1 a instruction */
  const double ex[] = { 1 }, ecycles[] = { 8 };  /* the edit: 8 cycles a instruction */
  g_autoptr(KsProbeResult) r = fake_result ("accumulators", x, cycles, G_N_ELEMENTS (x));
  g_autoptr(KsProbeResult) e = fake_result ("accumulators", ex, ecycles, 1);
  g_autoptr(KsProbeResult) other = fake_result ("shared-stride", ex, ecycles, 1);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 900, 400);
  cairo_t *cr = cairo_create (s);
  KsProbeChart c;
  double x0, y0, x4, y4, alone_y0, px, top_y, dy;
  gboolean found = FALSE;

  ks_probe_chart_init (&c);
  c.result = r;
  g_assert_true (ks_probe_chart_point (&c, 900, 400, 0, &x0, &alone_y0));
  c.other = other;
  c.other_label = "saved";
  g_assert_true (ks_probe_chart_point (&c, 900, 400, 0, &x0, &y0));
  /* another template's: no effect on the scale */
  g_assert_cmpfloat (y0, ==, alone_y0);
  c.other = e;
  c.other_label = "your edit";
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  ks_probe_chart_render (cr, &c, 900, 400);
  g_assert_true (ks_probe_chart_point (&c, 900, 400, 0, &x0, &y0));
  g_assert_true (ks_probe_chart_point (&c, 900, 400, 4, &x4, &y4));
  /* the scale grew for the edit's 8: the 4 sits lower than alone */
  g_assert_cmpfloat (y0, >, alone_y0);
  /* the edit at (1, 8): twice as far above the axis (at y4's 1, then 0)
   * as the 4 ... found by its outline: reddish purple on the column of
   * x = 1, above the sweep's point */
  dy = (y4 - y0) / 3;           /* one cycle a instruction, in pixels */
  top_y = y0 - 4 * dy;
  for (double yy = top_y - 12; yy <= top_y + 12 && !found; yy += 1)
    for (px = x0 - 12; px <= x0 + 12 && !found; px += 1)
      found = ks_test_pixel_is (s, px, yy, 0xcc / 255.0, 0x79 / 255.0, 0xa7 / 255.0);
  g_assert_true (found);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The register-pressure sweep: a linear axis of the values held, the
 * warps an SM under them, and in words */
static void
test_warps (void)
{
  const double x[] = { 0, 32, 64, 96, 128, 160, 192, 224 };
  const int warps[] = { 48, 40, 24, 16, 12, 8, 8, 8 };
  double cycles[G_N_ELEMENTS (x)], px[G_N_ELEMENTS (x)], py[G_N_ELEMENTS (x)];
  g_autoptr(KsProbeResult) r = NULL;
  g_autofree char *words = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    cycles[i] = 0;
  r = fake_result ("register-pressure", x, cycles, G_N_ELEMENTS (x));
  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    {
      KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

      p->resident_warps = warps[i];
      p->cycles_per_instruction = MAX (4.0 / warps[i], 0.25);
    }
  for (int w = 420; w <= 900; w += 480)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, 360);
      cairo_t *cr = cairo_create (s);
      KsProbeChart c;

      ks_probe_chart_init (&c);
      c.result = r;
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      ks_probe_chart_render (cr, &c, w, 360);
      for (guint i = 0; i < G_N_ELEMENTS (x); i++)
        {
          g_assert_true (ks_probe_chart_point (&c, w, 360, i, &px[i], &py[i]));
          g_assert_true (ks_test_pixel_is (s, px[i], py[i], 0, 0x72 / 255.0, 0xb2 / 255.0));
        }
      /* equal steps of 32 values, equal steps along x; the row of warps
       * under the axis leaves the frame above it */
      for (guint i = 1; i + 1 < G_N_ELEMENTS (x); i++)
        g_assert_cmpfloat (fabs ((px[i + 1] - px[i]) - (px[i] - px[i - 1])), <, 0.01);
      g_assert_cmpfloat (py[0], <, 360 - 4 * c.font_size * 96.0 / 72.0);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
  words = ks_probe_chart_describe (r);
  g_assert_nonnull (strstr (words, "0: 0.25 (48 warps an SM)"));
  g_assert_nonnull (strstr (words, "128: 0.33 (12 warps an SM)"));
}

static void
test_fit_line (void)
{
  /* T(N) = 4 N + 2054 for the count sweep's N */
  const double n[] = { 1024, 4096, 16384, 65536, 131072 };
  double cycles[G_N_ELEMENTS (n)], px[G_N_ELEMENTS (n)], py[G_N_ELEMENTS (n)];
  g_autoptr(KsProbeResult) r = NULL;
  KsProbeChart c;

  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    cycles[i] = 4 * n[i] + 2054;
  r = fake_result ("chain-length", n, cycles, G_N_ELEMENTS (n));
  r->have_fit = TRUE;
  r->slope = 4;
  r->intercept = 2054;
  r->r2 = 1;
  ks_probe_chart_init (&c);
  c.result = r;
  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    g_assert_true (ks_probe_chart_point (&c, 800, 400, i, &px[i], &py[i]));
  /* linear axes: the points of a line are on one line, spaced as N is */
  for (guint i = 1; i + 1 < G_N_ELEMENTS (n); i++)
    {
      double cross = (px[i] - px[0]) * (py[4] - py[0]) - (py[i] - py[0]) * (px[4] - px[0]);

      g_assert_cmpfloat (fabs (cross) / hypot (px[4] - px[0], py[4] - py[0]), <, 0.01);
    }
  g_assert_cmpfloat (fabs ((px[2] - px[1]) / (px[4] - px[3]) - (16384.0 - 4096) / (131072 - 65536)),
                     <, 1e-6);
  /* and the picture draws at a projector's size and at a narrow one */
  {
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 300, 200);
    cairo_t *cr = cairo_create (s);

    c.font_size = 9.0 * 1.7;
    ks_probe_chart_render (cr, &c, 300, 200);
    ks_probe_chart_render (cr, &c, 10, 10);
    cairo_destroy (cr);
    cairo_surface_destroy (s);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/probe-render/log-axis", test_log_axis);
  g_test_add_func ("/probe-render/fit-line", test_fit_line);
  g_test_add_func ("/probe-render/warps", test_warps);
  g_test_add_func ("/probe-render/other-series", test_other_series);
  return g_test_run ();
}
