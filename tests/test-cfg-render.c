/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The control-flow graph's layout and picture, for a kernel with an
 * if/else on lane parity (a divergent diamond) and a loop. */

#include <math.h>
#include <string.h>

#include "ks-test-pixels.h"

#include "ks-cfg-render.h"
#include "ks-launch.h"
#include "ks-render-export.h"

/* Blocks: B0 (lines 9-11) branches on odd lanes to B2 (ELSE); B1 (12-13)
 * jumps to B3 (JOIN); B2 (14-15); B3 (16-20) loops to itself 4 times;
 * B4 (21) returns */
static const char ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"               /* 1-3 */
  ".visible .entry k()\n{\n"                                       /* 4-5 */
  "  .reg .b32 %r<6>;\n  .reg .pred %p<3>;\n"                      /* 6-7 */
  "  mov.u32 %r5, 0;\n"                                            /* 8 */
  "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 1;\n"               /* 9, 10 */
  "  setp.eq.u32 %p1, %r2, 1;\n  @%p1 bra ELSE;\n"                 /* 11, 12 */
  "  add.u32 %r3, %r1, 1;\n  bra JOIN;\n"                          /* 13, 14 */
  "ELSE:\n  sub.u32 %r3, %r1, 1;\n"                                /* 15, 16 */
  "JOIN:\n  add.u32 %r5, %r5, 1;\n"                                /* 17, 18 */
  "  setp.lt.u32 %p2, %r5, 4;\n  @%p2 bra JOIN;\n"                 /* 19, 20 */
  "  ret;\n}\n";                                                   /* 21 */

/* How many pixels of (r, g, b) run up column x from row y: a block's fill
 * from near its bottom to its top outline */
static int
run_down (cairo_surface_t *s,
          double           x,
          double           y,
          double           r,
          double           g,
          double           b)
{
  int n = 0;

  while (y - n >= 0 && ks_test_pixel_is (s, x, y - n, r, g, b))
    n++;
  return n;
}

static void
test_diamond_and_loop (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, sizeof ptx - 1);
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse (bytes, "cfg.ptx");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_parse ("{\"ptx\": \"cfg.ptx\", \"grid\": [1], \"block\": [64], "
                                           "\"params\": []}", -1, NULL, &error);
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(KsCfgLayout) lay = NULL;
  const KsSimInsnStats *st;
  cairo_surface_t *s;
  cairo_t *cr;
  KsCfgViewState v;
  double r, g, b;
  int desk_h;

  g_assert_cmpuint (m->n_errors, ==, 0);
  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
  st = ks_sim_get_insn_stats (sim);

  lay = ks_cfg_layout_new (m, 0, 9);
  g_assert_cmpuint (lay->n_nodes, ==, 5);
  /* the diamond: B1 and B2 side by side under B0; the join under them; the
   * loop does not push anything down; the exit below */
  g_assert_cmpuint (lay->nodes[0].layer, ==, 0);
  g_assert_cmpuint (lay->nodes[1].layer, ==, 1);
  g_assert_cmpuint (lay->nodes[2].layer, ==, 1);
  g_assert_cmpuint (lay->nodes[3].layer, ==, 2);
  g_assert_cmpuint (lay->nodes[4].layer, ==, 3);
  g_assert_cmpfloat (lay->nodes[1].y, ==, lay->nodes[2].y);
  g_assert_cmpfloat (lay->nodes[1].x + lay->nodes[1].width, <, lay->nodes[2].x);
  g_assert_cmpfloat (lay->nodes[3].y, >, lay->nodes[1].y + lay->nodes[1].height);
  g_assert_cmpuint (lay->nodes[0].first_line, ==, 8);
  g_assert_cmpuint (lay->nodes[3].first_line, ==, 18);

  s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) lay->width, (int) lay->height);
  cr = cairo_create (s);
  ks_cfg_view_state_init (&v);
  ks_cfg_render (cr, m, lay, st, &v, lay->width, lay->height);

  /* B3 ran 2 warps x 4 iterations = 8 times, the most: the darkest blue */
  ks_cfg_heat_rgb (8, 8, &r, &g, &b);
  g_assert_true (ks_test_pixel_is (s, lay->nodes[3].x + lay->nodes[3].width - 4,
                           lay->nodes[3].y + lay->nodes[3].height - 4, r, g, b));
  /* B1 ran twice (both warps, the even lanes): a lighter blue */
  ks_cfg_heat_rgb (2, 8, &r, &g, &b);
  g_assert_true (ks_test_pixel_is (s, lay->nodes[1].x + lay->nodes[1].width - 4,
                           lay->nodes[1].y + lay->nodes[1].height - 4, r, g, b));
  /* B0's branch split both warps: outlined in vermillion */
  if (g_getenv ("KS_SCREENSHOT_DIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"), "cfg.png", NULL);

      cairo_surface_write_to_png (s, path);
    }
  g_assert_cmpuint (st[m->functions[0].first_insn + 4].divergent, ==, 2);
  g_assert_true (ks_test_pixel_is (s, lay->nodes[0].x + lay->nodes[0].width / 2, floor (lay->nodes[0].y),
                           0xd5 / 255.0, 0x5e / 255.0, 0));
  /* hit-testing, with a zoom */
  v.scale = 2;
  g_assert_cmpint (ks_cfg_hit (lay, &v, (lay->nodes[2].x + 5) * 2, (lay->nodes[2].y + 5) * 2), ==, 2);
  g_assert_cmpint (ks_cfg_hit (lay, &v, 1, 1), ==, -1);

  if (g_getenv ("KS_SCREENSHOT_DIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"), "cfg.png", NULL);

      cairo_surface_write_to_png (s, path);
    }
  /* B3's fill, down its right edge */
  ks_cfg_heat_rgb (8, 8, &r, &g, &b);
  desk_h = run_down (s, lay->nodes[3].x + lay->nodes[3].width - 4,
                     lay->nodes[3].y + lay->nodes[3].height - 4, r, g, b);
  cairo_destroy (cr);
  cairo_surface_destroy (s);

  /* Presentation mode: a block 1.6 times as tall or more, measured on the
   * picture (B3's fill, down its right edge), the projector's scale for
   * it, and the legend along the bottom with the scale's darkest step */
  {
    g_autoptr(KsCfgLayout) big = ks_cfg_layout_new (m, 0, KS_RENDER_FONT_SIZE_FOR (TRUE));
    double legend = ks_cfg_legend_height (KS_RENDER_FONT_SIZE_FOR (TRUE), big->width);
    double px = KS_RENDER_FONT_SIZE_FOR (TRUE) * 96.0 / 72.0;
    int big_h;

    ks_cfg_heat_rgb_projector (8, 8, &r, &g, &b);
    s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) big->width,
                                    (int) (big->height + legend));
    cr = cairo_create (s);
    ks_cfg_view_state_init (&v);
    v.projector = TRUE;
    v.legend = TRUE;
    ks_cfg_render (cr, m, big, st, &v, big->width, big->height + legend);
    big_h = run_down (s, big->nodes[3].x + big->nodes[3].width - 4,
                      big->nodes[3].y + big->nodes[3].height - 4, r, g, b);
    g_assert_cmpint (desk_h, >=, 20);
    g_assert_cmpfloat ((double) big_h / desk_h, >=, 1.6);
    /* the darkest legend step: the third box of the first entry */
    g_assert_true (ks_test_pixel_is (s, 4 + px * 3.0, big->height + px * 0.8,
                                     r, g, b));
    if (g_getenv ("KS_SCREENSHOT_DIR"))
      {
        g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"),
                                                  "cfg-presentation.png", NULL);

        cairo_surface_write_to_png (s, path);
      }
    cairo_destroy (cr);
    cairo_surface_destroy (s);
    /* the projector's palest step is darker than the desk's */
    ks_cfg_heat_rgb (1, 8, &r, &g, &b);
    {
      double r3, g3, b3;

      ks_cfg_heat_rgb_projector (1, 8, &r3, &g3, &b3);
      g_assert_cmpfloat (0.2126 * r3 + 0.7152 * g3 + 0.0722 * b3, <,
                         0.2126 * r + 0.7152 * g + 0.0722 * b - 0.1);
    }
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/cfg/diamond-and-loop", test_diamond_and_loop);
  return g_test_run ();
}
