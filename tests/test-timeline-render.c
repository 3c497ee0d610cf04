/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The warp timeline's picture, checked against the model it draws: a
 * hand-made timing whose events are at known cycles, rendered offscreen at
 * several sizes; the colour at known places, the legend, hit-testing, and
 * export to PNG, SVG and PDF. */

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-lower.h"
#include "ks-timeline-render.h"

/* Two warps of block 0: warp 0 issues an FFMA at cycle 10 (all 32 lanes)
 * after waiting on memory from cycle 0, then a load at cycle 11; warp 1 (on
 * sub-partition 1) issues an integer add at cycle 40 with 16 lanes, after
 * a barrier wait from cycle 20.  Plus 64 more events of warp 1 to give the
 * overview strip something. */
static KsTiming *
make_timing (void)
{
  KsTiming *t = g_new0 (KsTiming, 1);
  KsTimingEvent *e;

  t->cycles = 200;
  t->sub_partitions = 4;
  t->n_warps = 2;
  t->warps = g_new0 (KsTimingWarp, 2);
  t->n_events = 2 + 1 + 64;
  t->events = g_new0 (KsTimingEvent, t->n_events);
  t->warps[0] = (KsTimingWarp) { 0, 0, 0, 0, 0, 0, 12, 0, 2 };
  t->warps[1] = (KsTimingWarp) { 1, 0, 1, 1, 1, 0, 200, 2, 65 };
  e = t->events;
  e[0] = (KsTimingEvent) { .cycle = 10, .ready = 10, .stall_start = 0, .pipe = KS_PIPE_FP32,
                           .stall = KS_STALL_LONG_SCOREBOARD, .active_lanes = 32 };
  e[1] = (KsTimingEvent) { .cycle = 11, .ready = 11, .stall_start = 11, .pipe = KS_PIPE_MEM,
                           .stall = KS_STALL_SELECTED, .active_lanes = 32 };
  e[2] = (KsTimingEvent) { .cycle = 40, .ready = 40, .stall_start = 20, .pipe = KS_PIPE_INT,
                           .stall = KS_STALL_BARRIER, .active_lanes = 16 };
  for (guint i = 0; i < 64; i++)
    e[3 + i] = (KsTimingEvent) { .cycle = 100 + i, .ready = 100 + i, .stall_start = 100 + i,
                                 .pipe = KS_PIPE_SFU, .active_lanes = 32 };
  return t;
}

static void
pixel (cairo_surface_t *s,
       int              x,
       int              y,
       double          *r,
       double          *g,
       double          *b)
{
  const unsigned char *data = cairo_image_surface_get_data (s);
  uint32_t v;

  cairo_surface_flush (s);
  memcpy (&v, data + (size_t) y * cairo_image_surface_get_stride (s) + 4 * x, 4);
  *r = ((v >> 16) & 0xff) / 255.0;
  *g = ((v >> 8) & 0xff) / 255.0;
  *b = (v & 0xff) / 255.0;
}

static void
assert_color (cairo_surface_t *s,
              double           x,
              double           y,
              KsRgb            want,
              double           tol)
{
  double r, g, b;

  pixel (s, (int) x, (int) y, &r, &g, &b);
  if (fabs (r - want.r) > tol || fabs (g - want.g) > tol || fabs (b - want.b) > tol)
    g_error ("pixel (%d, %d) is %.3f %.3f %.3f, expected %.3f %.3f %.3f", (int) x, (int) y, r, g,
             b, want.r, want.g, want.b);
}

/* alpha over a grey background: the light theme's rows are 0.99 and,
 * every other one, 0.955 */
static KsRgb
over (KsRgb  c,
      double alpha,
      double bg)
{
  return (KsRgb) { c.r * alpha + bg * (1 - alpha), c.g * alpha + bg * (1 - alpha),
                   c.b * alpha + bg * (1 - alpha) };
}

static void
test_known_places (void)
{
  const int sizes[][2] = { { 640, 240 }, { 1600, 600 }, { 1920, 1080 } };
  g_autoptr(KsTiming) t = make_timing ();

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      int w = sizes[s][0], h = sizes[s][1];
      cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
      cairo_t *cr = cairo_create (surf);
      KsTimelineView v;
      KsTimelineLayout l;
      double row0, row1, cpp;
      KsRgb c;

      ks_timeline_view_init (&v);
      v.row_height = 20;
      v.first_cycle = 0;
      v.cycles_per_pixel = cpp = 0.25;     /* 4 pixels a cycle */
      ks_timeline_layout (&v, w, h, &l);
      ks_timeline_render (cr, t, NULL, &v, w, h);
      row0 = l.rows_top;                  /* warp 0 (block 0, sub-partition 0) */
      row1 = l.rows_top + 20;             /* warp 1 (sub-partition 1) */

      /* warp 0's FFMA at cycle 10: the FP32 colour, all lanes active */
      assert_color (surf, l.plot_left + 10 / cpp + 1, row0 + 10,
                    ks_timeline_pipe_color (KS_PIPE_FP32), 0.01);
      /* its load at cycle 11: the MEM colour */
      assert_color (surf, l.plot_left + 11 / cpp + 1, row0 + 10,
                    ks_timeline_pipe_color (KS_PIPE_MEM), 0.01);
      /* the memory wait before it (cycle 5): a band tinted like memory */
      c = over (ks_timeline_stall_color (KS_STALL_LONG_SCOREBOARD), 0.35, 0.99);
      assert_color (surf, l.plot_left + 5 / cpp, row0 + 10, c, 0.02);
      /* warp 1's add at cycle 40 has 16 of 32 lanes: the INT colour in the
       * lower half of the block, a lighter INT above */
      assert_color (surf, l.plot_left + 40 / cpp + 1, row1 + 16,
                    ks_timeline_pipe_color (KS_PIPE_INT), 0.01);
      c = over (ks_timeline_pipe_color (KS_PIPE_INT), 0.45, 0.955);
      assert_color (surf, l.plot_left + 40 / cpp + 1, row1 + 4, c, 0.02);
      /* the barrier wait from cycle 20: tinted like a barrier */
      c = over (ks_timeline_stall_color (KS_STALL_BARRIER), 0.35, 0.955);
      assert_color (surf, l.plot_left + 30 / cpp, row1 + 10, c, 0.02);
      /* nothing at cycle 25 of warp 0: background */
      assert_color (surf, l.plot_left + 25 / cpp, row0 + 10, (KsRgb) { 0.99, 0.99, 0.99 }, 0.01);
      /* the legend: the INT swatch first, at its left, on its first line */
      {
        KsRgb want = ks_timeline_pipe_color (KS_PIPE_INT);
        gboolean found = FALSE;

        for (int y = (int) l.legend_top; y < (int) (l.legend_top + l.legend_height) && !found; y++)
          {
            double r, g, b;

            pixel (surf, 6 + 3, y, &r, &g, &b);
            found = fabs (r - want.r) < 0.01 && fabs (g - want.g) < 0.01 && fabs (b - want.b) < 0.01;
          }
        g_assert_true (found);
      }

      cairo_destroy (cr);
      cairo_surface_destroy (surf);
    }
}

/* Zoomed out so that the 64 SFU events of warp 1 share pixel columns: the
 * columns are still SFU-coloured, and the picture is not blank */
static void
test_level_of_detail (void)
{
  g_autoptr(KsTiming) t = make_timing ();
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 400, 200);
  cairo_t *cr = cairo_create (surf);
  KsTimelineView v;
  KsTimelineLayout l;
  guint coloured = 0;
  KsRgb sfu = ks_timeline_pipe_color (KS_PIPE_SFU);

  ks_timeline_view_init (&v);
  v.row_height = 20;
  ks_timeline_view_fit (&v, t, 400, 200);
  ks_timeline_layout (&v, 400, 200, &l);
  g_assert_cmpfloat (v.cycles_per_pixel, >, 0.5);
  ks_timeline_render (cr, t, NULL, &v, 400, 200);
  for (int x = (int) l.plot_left; x < (int) (l.plot_left + l.plot_width); x++)
    {
      double r, g, b;

      pixel (surf, x, (int) (l.rows_top + 20 + 15), &r, &g, &b);
      if (fabs (r - sfu.r) < 0.01 && fabs (g - sfu.g) < 0.01 && fabs (b - sfu.b) < 0.01)
        coloured++;
    }
  /* 64 cycles of the 200 over the plot's width */
  g_assert_cmpuint (coloured, >=, (guint) floor (64 / v.cycles_per_pixel) - 2);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
}

static void
test_hit (void)
{
  g_autoptr(KsTiming) t = make_timing ();
  g_autofree uint32_t *order = ks_timeline_row_order (t);
  KsTimelineView v;
  KsTimelineLayout l;
  uint32_t warp;
  uint64_t ev;

  ks_timeline_view_init (&v);
  v.row_height = 20;
  v.cycles_per_pixel = 0.25;
  ks_timeline_layout (&v, 800, 300, &l);
  g_assert_true (ks_timeline_hit (t, order, &v, 800, 300, l.plot_left + 40 / 0.25 + 2,
                                  l.rows_top + 30, &warp, &ev));
  g_assert_cmpuint (warp, ==, 1);
  g_assert_cmpuint (ev, ==, 2);
  g_assert_true (ks_timeline_hit (t, order, &v, 800, 300, l.plot_left + 11 / 0.25 + 1,
                                  l.rows_top + 5, &warp, &ev));
  g_assert_cmpuint (warp, ==, 0);
  g_assert_cmpuint (ev, ==, 1);
  /* empty space and the labels hit nothing */
  g_assert_false (ks_timeline_hit (t, order, &v, 800, 300, l.plot_left + 25 / 0.25,
                                   l.rows_top + 5, &warp, &ev));
  g_assert_false (ks_timeline_hit (t, order, &v, 800, 300, 3, l.rows_top + 5, &warp, &ev));

  /* an instruction ptxas folds is not drawn, so the pointer does not find
   * it: where it alone was, nothing is hit */
  t->events[1].lowered = KS_LOWER_FOLDED;
  g_assert_false (ks_timeline_hit (t, order, &v, 800, 300, l.plot_left + 11 / 0.25 + 1,
                                   l.rows_top + 5, &warp, &ev));
  t->events[1].lowered = KS_LOWER_ISSUE;
  g_assert_true (ks_timeline_hit (t, order, &v, 800, 300, l.plot_left + 11 / 0.25 + 1,
                                  l.rows_top + 5, &warp, &ev));
}

static void
test_export (void)
{
  g_autoptr(KsTiming) t = make_timing ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-timeline-XXXXXX", &error);
  const char *names[] = { "t.png", "t.svg", "t.pdf" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };
  KsTimelineView v;

  g_assert_no_error (error);
  ks_timeline_view_init (&v);
  ks_timeline_view_fit (&v, t, 1200, 400);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autofree char *data = NULL;
      gsize len;

      g_assert_true (ks_timeline_render_export (t, NULL, &v, 1200, 400, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      g_assert_cmpuint (len, >, 100);
      g_assert_true (memcmp (data, magic[i], strlen (magic[i])) == 0);
      g_unlink (path);
    }
  g_assert_false (ks_timeline_render_export (t, NULL, &v, 100, 100, "x.bmp", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/timeline/known-places", test_known_places);
  g_test_add_func ("/widgets/timeline/level-of-detail", test_level_of_detail);
  g_test_add_func ("/widgets/timeline/hit", test_hit);
  g_test_add_func ("/widgets/timeline/export", test_export);
  return g_test_run ();
}
