/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The texture-fetch diagram against a fetch worked out by hand: three lanes
 * of a 2D linear fetch on a 4 x 4 texture with clamp addressing.  With the
 * CUDA Programming Guide's "Texture Fetching" formulas (xB = x - 0.5,
 * i = floor (xB), alpha = frac (xB) in 256ths):
 *
 * - lane 0 at (1.25, 1.75): xB = 0.75, i = 0, alpha 192; yB = 1.25, j = 1,
 *   alpha 64: texels (0,1) (1,1) (0,2) (1,2); the weight of (1,1) is
 *   0.75 * 0.75 = 0.5625;
 * - lane 1 at (3.5, 0.5): xB = 3, i = 3, alpha 0; x + 1 = 4 clamps to 3;
 *   yB = 0, j = 0, alpha 0: texels (3,0) (3,0) (3,1) (3,1);
 * - lane 2 at (1.6, 1.9): xB = 1.1, i = 1, alpha 26 (25.6 rounded);
 *   yB = 1.4, j = 1, alpha 102: texels (1,1) (2,1) (1,2) (2,2); the weight
 *   of (1,1) is (230 / 256) (154 / 256) = 0.54047.
 *
 * Texel (1,1) is read by lanes 0 and 2, (0,1) by lane 0 alone, (3,3) by
 * none. */

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-render-export.h"
#include "ks-test-pixels.h"
#include "ks-texture-render.h"

typedef struct
{
  KsMemAccess access;
  KsTexAccess tex;
  KsLaunchTexture desc;
  float texels[16];
  KsTextureScene scene;
} Fixture;

static void
set_lane (KsTexLane *tl,
          float      u,
          float      v,
          int        bx,
          int        by,
          int        ax,
          int        ay,
          const int  texels[4][2])
{
  tl->u[0] = u;
  tl->u[1] = v;
  tl->base[0] = bx;
  tl->base[1] = by;
  tl->alpha[0] = (uint16_t) ax;
  tl->alpha[1] = (uint16_t) ay;
  tl->n_texels = 4;
  for (int k = 0; k < 4; k++)
    {
      tl->texel[k][0] = texels[k][0];
      tl->texel[k][1] = texels[k][1];
    }
}

static void
fixture_init (Fixture *f)
{
  static const int lane0[4][2] = { { 0, 1 }, { 1, 1 }, { 0, 2 }, { 1, 2 } };
  static const int lane1[4][2] = { { 3, 0 }, { 3, 0 }, { 3, 1 }, { 3, 1 } };
  static const int lane2[4][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 2, 2 } };

  memset (f, 0, sizeof *f);
  f->access.mask = 0x7;
  f->access.space = KS_PTX_SPACE_TEX;
  f->access.size = 4;
  f->tex.dims = 2;
  f->tex.linear = 1;
  set_lane (&f->tex.lane[0], 1.25f, 1.75f, 0, 1, 192, 64, lane0);
  set_lane (&f->tex.lane[1], 3.5f, 0.5f, 3, 0, 0, 0, lane1);
  set_lane (&f->tex.lane[2], 1.6f, 1.9f, 1, 1, 26, 102, lane2);
  for (int i = 0; i < 16; i++)
    f->texels[i] = i / 16.0f;
  f->desc.name = (char *) "t";
  f->desc.format = KS_PTX_TYPE_F32;
  f->desc.channels = 1;
  f->desc.texel_size = 4;
  f->desc.dims = 2;
  f->desc.width = f->desc.height = 4;
  f->desc.depth = f->desc.layers = 1;
  f->desc.filter = KS_LAUNCH_TEX_LINEAR;
  f->scene.access = &f->access;
  f->scene.tex = &f->tex;
  f->scene.desc = &f->desc;
  f->scene.data = (const uint8_t *) f->texels;
  f->scene.size = sizeof f->texels;
  f->scene.focus = -1;
}

static cairo_surface_t *
draw (const Fixture       *f,
      const KsMemoryStyle *st,
      int                  w,
      int                  h,
      const char          *shot)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (s);

  ks_texture_render (cr, &f->scene, "test", st, w, h);
  cairo_destroy (cr);
  if (g_getenv ("KS_SCREENSHOT_DIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"), shot, NULL);

      cairo_surface_write_to_png (s, path);
    }
  return s;
}

static gboolean
pixel_is_lane (cairo_surface_t *s,
               double           x,
               double           y,
               uint32_t         lane)
{
  double r, g, b;

  ks_texture_lane_rgb (lane, &r, &g, &b);
  return ks_test_pixel_is (s, x, y, r, g, b);
}

static void
check_at (double font_size,
          int    w,
          int    h)
{
  Fixture f;
  KsMemoryStyle st;
  cairo_surface_t *s;
  double x0, y0, x1, y1, bx, by, bw, bh, bx2, by2, bw2, bh2;
  g_autofree char *shot = g_strdup_printf ("texture-%dx%d-%g.png", w, h, font_size);

  fixture_init (&f);
  ks_memory_style_init (&st);
  st.font_size = font_size;
  s = draw (&f, &st, w, h, shot);

  /* the grid is the texture's: texel (1,1) one cell right of (0,1), and
   * (0,2) one cell below it */
  g_assert_true (ks_texture_texel_box (&f.scene, &st, w, h, 0, 1, 0, &bx, &by, &bw, &bh));
  g_assert_true (ks_texture_texel_box (&f.scene, &st, w, h, 1, 1, 0, &bx2, &by2, &bw2, &bh2));
  g_assert_cmpfloat (bw, >=, 8);
  g_assert_cmpfloat (fabs (bx2 - bx - bw), <, 0.01);
  g_assert_cmpfloat (by2, ==, by);
  g_assert_true (ks_texture_texel_box (&f.scene, &st, w, h, 0, 2, 0, &bx2, &by2, &bw2, &bh2));
  g_assert_cmpfloat (fabs (by2 - by - bh), <, 0.01);
  g_assert_cmpfloat (bx2, ==, bx);
  /* a small texture is shown whole, and a margin of hatched cells round it */
  g_assert_true (ks_texture_texel_box (&f.scene, &st, w, h, 3, 3, 0, &bx2, &by2, &bw2, &bh2));
  g_assert_false (ks_texture_texel_box (&f.scene, &st, w, h, 9, 9, 0, &bx2, &by2, &bw2, &bh2));

  /* (0,1): lane 0's colour alone, across the top of the texel */
  g_assert_true (ks_texture_lane_mark (&f.scene, &st, w, h, 0, 0, 1, 0, &x0, &y0));
  g_assert_cmpfloat (x0, >, bx);
  g_assert_cmpfloat (x0, <, bx + bw);
  g_assert_cmpfloat (y0, >, by);
  g_assert_cmpfloat (y0, <, by + bh / 3);
  g_assert_true (pixel_is_lane (s, x0, y0, 0));
  g_assert_true (pixel_is_lane (s, bx + 3, y0, 0));
  g_assert_true (pixel_is_lane (s, bx + bw - 3, y0, 0));
  g_assert_false (ks_texture_lane_mark (&f.scene, &st, w, h, 1, 0, 1, 0, &x1, &y1));
  g_assert_false (ks_texture_lane_mark (&f.scene, &st, w, h, 2, 0, 1, 0, &x1, &y1));

  /* (1,1): lanes 0 and 2, each in its colour, lane 0 on the left */
  g_assert_true (ks_texture_lane_mark (&f.scene, &st, w, h, 0, 1, 1, 0, &x0, &y0));
  g_assert_true (ks_texture_lane_mark (&f.scene, &st, w, h, 2, 1, 1, 0, &x1, &y1));
  g_assert_cmpfloat (x0, <, x1);
  g_assert_true (pixel_is_lane (s, x0, y0, 0));
  g_assert_true (pixel_is_lane (s, x1, y1, 2));

  /* lane 1's two texels are (3,0) and (3,1): the clamp folded x = 4 */
  g_assert_true (ks_texture_lane_mark (&f.scene, &st, w, h, 1, 3, 0, 0, &x0, &y0));
  g_assert_true (pixel_is_lane (s, x0, y0, 1));
  g_assert_true (ks_texture_lane_mark (&f.scene, &st, w, h, 1, 3, 1, 0, &x0, &y0));
  g_assert_true (pixel_is_lane (s, x0, y0, 1));

  /* (3,3) was read by no lane: its top is the cell's grey, in no lane's
   * colour */
  g_assert_true (ks_texture_texel_box (&f.scene, &st, w, h, 3, 3, 0, &bx, &by, &bw, &bh));
  g_assert_false (ks_texture_lane_mark (&f.scene, &st, w, h, 0, 3, 3, 0, &x0, &y0));
  g_assert_true (ks_test_pixel_is (s, bx + bw / 2, by + bh * 0.1, 0.93, 0.93, 0.94));
  cairo_surface_destroy (s);
}

static void
test_footprints (void)
{
  check_at (9, 1100, 400);
  /* presentation mode's type */
  check_at (14, 1600, 520);
  check_at (9, 640, 300);
}

static void
test_words (void)
{
  Fixture f;
  KsMemoryStyle st;
  double bx, by, bw, bh;
  g_autofree char *texel = NULL, *summary = NULL;

  fixture_init (&f);
  ks_memory_style_init (&st);
  /* lane 0 has four texels that weigh something, lane 1 one: lane 0 is
   * outlined */
  g_assert_cmpint (ks_texture_focus_lane (&f.scene), ==, 0);
  f.scene.focus = 2;
  g_assert_cmpint (ks_texture_focus_lane (&f.scene), ==, 2);
  f.scene.focus = 5;            /* not in the mask */
  g_assert_cmpint (ks_texture_focus_lane (&f.scene), ==, 0);

  g_assert_true (ks_texture_texel_box (&f.scene, &st, 1100, 400, 1, 1, 0, &bx, &by, &bw, &bh));
  texel = ks_texture_describe_at (&f.scene, &st, 1100, 400, bx + bw / 2, by + bh / 2);
  g_assert_nonnull (texel);
  /* value 5/16 = 0.3125, and both lanes' weights from the hand count */
  g_assert_nonnull (strstr (texel, "(1, 1)"));
  g_assert_nonnull (strstr (texel, "0.312"));
  g_assert_nonnull (strstr (texel, " 0 (weight 0.5625)"));
  g_assert_nonnull (strstr (texel, " 2 (weight 0.5405)"));

  summary = ks_texture_summary (&f.scene);
  g_assert_nonnull (strstr (summary, "(4 x 4)"));
  g_assert_nonnull (strstr (summary, "3 lanes"));
  g_assert_nonnull (strstr (summary, "192/256, 64/256"));
}

/* The same picture through the export path of every view */
static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  const Fixture *f = user_data;
  KsMemoryStyle st;

  ks_memory_style_init (&st);
  ks_texture_render (cr, &f->scene, "export", &st, width, height);
}

static void
test_export (void)
{
  static const char *const names[] = { "t.png", "t.svg", "t.pdf" };
  g_autofree char *dir = g_dir_make_tmp ("ks-texture-XXXXXX", NULL);
  Fixture f;

  g_assert_nonnull (dir);
  fixture_init (&f);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autoptr(GError) error = NULL;
      GStatBuf st;

      g_assert_true (ks_render_export (path, 1600, 520, export_draw, &f, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_size, >, 1000);
      g_unlink (path);
    }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/texture/footprints-in-lane-colours", test_footprints);
  g_test_add_func ("/widgets/texture/tooltip-and-summary", test_words);
  g_test_add_func ("/widgets/texture/export", test_export);
  return g_test_run ();
}
