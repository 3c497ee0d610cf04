/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lane view's picture for a guarded add that only odd lanes run: the
 * path row lit for every lane, the guard row for odd lanes only, and the
 * values as the kernel computes them. */

#include <math.h>
#include <string.h>

#include "ks-test-pixels.h"

#include "ks-lanes-render.h"

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/lanes/guarded-step", test_guarded_step);
  return g_test_run ();
}
