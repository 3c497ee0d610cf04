/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lane view's picture for a guarded add that only odd lanes run: the
 * path row lit for every lane, the guard row for odd lanes only, and the
 * values as the kernel computes them. */

#include <math.h>
#include <string.h>

#include "ks-test-pixels.h"

#include "ks-lanes-render.h"
#include "ks-render-export.h"

static const char ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k()\n{\n"
  "  .reg .b32 %r<5>;\n  .reg .f32 %f<3>;\n  .reg .pred %p<2>;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  and.b32 %r2, %r1, 1;\n"
  "  setp.eq.u32 %p1, %r2, 1;\n"
  "  cvt.rn.f32.u32 %f1, %r1;\n"
  "  @%p1 mul.f32 %f2, %f1, 0f3F000000;\n"   /* step 4: odd lanes, f2 = tid / 2 */
  "  ret;\n}\n";

static void
test_guarded_step (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, sizeof ptx - 1);
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse (bytes, "lanes.ptx");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_parse ("{\"ptx\": \"lanes.ptx\", \"grid\": [1], \"block\": [32],"
                                           " \"params\": []}", -1, NULL, &error);
  g_autoptr(KsLaneTrace) t = NULL;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 300);
  cairo_t *cr = cairo_create (s);
  KsLanesStyle st;
  const KsLaneStep *step;
  double x, y;

  g_assert_cmpuint (m->n_errors, ==, 0);
  t = ks_lane_trace_record (m, l, 0, 0, 0, NULL, &error);
  g_assert_no_error (error);
  step = &t->steps[4];
  g_assert_cmpuint (step->executed, ==, 0xaaaaaaaau);
  ks_lanes_style_init (&st);
  ks_lanes_render (cr, m, t, 4, &st, 1200, 300);
  if (g_getenv ("KS_SCREENSHOT_DIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"), "lanes.png", NULL);

      cairo_surface_write_to_png (s, path);
    }
  /* the path: every lane, in blue */
  ks_lanes_cell_center (&st, 1200, 0, 0, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x, y, 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0));
  /* the guard: lane 1 ran it (green), lane 0 did not */
  ks_lanes_cell_center (&st, 1200, 1, 1, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x, y, 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0));
  ks_lanes_cell_center (&st, 1200, 1, 0, &x, &y);
  g_assert_false (ks_test_pixel_is (s, x, y, 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0));
  /* the values: %f1 before is the lane's number, %f2 after half of it */
  for (uint32_t i = 0; i < step->n_values; i++)
    {
      const KsLaneValue *v = &t->values[step->first_value + i];
      g_autofree char *name = ks_lane_value_name (m, v);
      g_autofree char *f7 = ks_lanes_format (m, v, 7);

      if (g_str_equal (name, "%f1"))
        g_assert_cmpstr (f7, ==, "7");
      else if (g_str_equal (name, "%f2"))
        g_assert_cmpstr (f7, ==, "3.5");
      else if (g_str_equal (name, "%p1"))
        g_assert_cmpstr (f7, ==, "1");
    }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* A long value in a narrow cell: a lane of the view in presentation mode
 * (14 pt) at 1600 pixels is 1600 - 141 - 9 = 1450 / 32 = 45 pixels wide
 * and 34 high.  Its text breaks in two rather than being cut, at a size
 * still near the view's; a short one stays on one line; only a cell with
 * room for neither cuts. */
static void
test_fit_text (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 64, 64);
  cairo_t *cr = cairo_create (s);
  double px = 14 * 96.0 / 72.0, size = 0, w = (1600 - ceil (px * 7.5) - px * 0.5) / 32.0;
  double h = ceil (px * 1.8);
  char *lines[3];

  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  g_assert_cmpfloat (w, >, 44);
  g_assert_cmpfloat (w, <, 46);

  /* the u32 0x82012345 as the view prints it */
  size = 0;
  g_assert_cmpuint (ks_lanes_fit_text (cr, "0x82012345", w, h, px, lines, &size), ==, 2);
  g_assert_cmpstr (lines[0], ==, "0x8201");
  g_assert_cmpstr (lines[1], ==, "2345");
  g_assert_null (lines[2]);
  g_assert_cmpfloat (size, >=, px * 0.5);
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);

  /* the low digits of a pointer, as the view shows them under a shared
   * prefix, on one line */
  size = 0;
  g_assert_cmpuint (ks_lanes_fit_text (cr, "…7c", w, h, px, lines, &size), ==, 1);
  g_assert_cmpstr (lines[0], ==, "…7c");
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);

  /* a float in exponent form breaks before its exponent */
  size = 0;
  g_assert_cmpuint (ks_lanes_fit_text (cr, "-1.234e+05", w, h, px, lines, &size), ==, 2);
  g_assert_cmpstr (lines[0], ==, "-1.234");
  g_assert_cmpstr (lines[1], ==, "e+05");
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);

  /* short: one line at the view's value size */
  size = 0;
  g_assert_cmpuint (ks_lanes_fit_text (cr, "3.5", w, h, px, lines, &size), ==, 1);
  g_assert_cmpstr (lines[0], ==, "3.5");
  g_assert_null (lines[1]);
  g_assert_cmpfloat (size, ==, px * 0.8);
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);

  /* a row's size caps each of its cells' */
  size = px * 0.6;
  g_assert_cmpuint (ks_lanes_fit_text (cr, "3.5", w, h, px, lines, &size), ==, 1);
  g_assert_cmpfloat (size, ==, px * 0.6);
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);

  /* no room for two lines: cut, and marked */
  size = 0;
  g_assert_cmpuint (ks_lanes_fit_text (cr, "0x82012345", 20, 0, px, lines, &size), ==, 1);
  g_assert_true (g_str_has_suffix (lines[0], "~"));
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);

  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* 32 lanes' addresses, 4 bytes apart from 0x7f0000000000: they differ in
 * their last two digits (0x00 to 0x7c), which is all the lanes show */
static void
test_shared_prefix (void)
{
  char *texts[32];
  const char *mixed[] = { "0x7f0000000000", "12" };
  const char *lengths[] = { "0x7f0000000000", "0x7f00000000" };
  const char *apart[] = { "0x82012345", "0x12345678" };
  const char *same_but_one[] = { "0x7f0000000004", "0x7f0000000005" };

  for (guint i = 0; i < 32; i++)
    texts[i] = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", (guint64) 0x7f0000000000 + 4 * i);
  g_assert_cmpuint (ks_lanes_shared_prefix ((const char *const *) texts, 32), ==, 12);
  /* lanes 0 and 1 only: 0x...00 and 0x...04 still share the digit before */
  g_assert_cmpuint (ks_lanes_shared_prefix ((const char *const *) texts, 2), ==, 13);
  for (guint i = 0; i < 32; i++)
    g_free (texts[i]);
  g_assert_cmpuint (ks_lanes_shared_prefix (same_but_one, 2), ==, 13);
  g_assert_cmpuint (ks_lanes_shared_prefix (mixed, 2), ==, 0);
  g_assert_cmpuint (ks_lanes_shared_prefix (lengths, 2), ==, 0);
  g_assert_cmpuint (ks_lanes_shared_prefix (apart, 2), ==, 0);
}

/* Presentation mode at 1920 px (a 1080p projector): the path row's cells
 * are at least 1.6 times as tall as at a desk, measured on the pictures;
 * the picture asks for the height of all the step's rows (path, guard, and
 * the three registers of the guarded mul) and finds the cell under a
 * cell's centre */
static void
test_presentation_scale (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, sizeof ptx - 1);
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse (bytes, "lanes.ptx");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_parse ("{\"ptx\": \"lanes.ptx\", \"grid\": [1], \"block\": [32],"
                                           " \"params\": []}", -1, NULL, &error);
  g_autoptr(KsLaneTrace) t = NULL;
  KsLanesStyle desk, big;
  const double blue[3] = { 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 };
  int heights[2];

  t = ks_lane_trace_record (m, l, 0, 0, 0, NULL, &error);
  g_assert_no_error (error);
  ks_lanes_style_init (&desk);
  ks_lanes_style_init (&big);
  big.font_size = KS_RENDER_FONT_SIZE_FOR (TRUE);
  big.projector = TRUE;
  for (guint k = 0; k < 2; k++)
    {
      const KsLanesStyle *st = k ? &big : &desk;
      double need = ks_lanes_content_height (st, t, 4), x, y;
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1920, (int) need);
      cairo_t *cr = cairo_create (s);
      uint32_t row, lane;

      ks_lanes_render (cr, m, t, 4, st, 1920, need);
      /* the last row (the third value) is inside the picture */
      g_assert_cmpuint (t->steps[4].n_values, ==, 3);
      ks_lanes_cell_center (st, 1920, 2 + 2, 31, &x, &y);
      g_assert_cmpfloat (y, <, need);
      g_assert_true (ks_lanes_hit (st, 1920, x, y, &row, &lane));
      g_assert_cmpuint (row, ==, 4);
      g_assert_cmpuint (lane, ==, 31);
      ks_lanes_cell_center (st, 1920, 0, 0, &x, &y);
      heights[k] = ks_test_run_height (s, x, y, blue[0], blue[1], blue[2]);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
  g_assert_cmpint (heights[0], >=, 10);
  g_assert_cmpfloat ((double) heights[1] / heights[0], >=, 1.6);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/lanes/guarded-step", test_guarded_step);
  g_test_add_func ("/widgets/lanes/fit-text", test_fit_text);
  g_test_add_func ("/widgets/lanes/shared-prefix", test_shared_prefix);
  g_test_add_func ("/widgets/lanes/presentation-scale", test_presentation_scale);
  return g_test_run ();
}
