/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bank and cache-line diagrams against the accesses they draw: a
 * stride-2 shared load is a 2-way conflict in two passes (CUDA C++
 * Programming Guide, "Shared Memory": 32 banks of 32 bits, a request split
 * into as many conflict-free requests as necessary), a broadcast is one
 * pass, and a coalesced global load is four sectors of one line. */

#include <math.h>
#include <string.h>

#include "ks-test-pixels.h"

#include "ks-memory-render.h"
#include "ks-render-export.h"

/* The size the tests draw at; test_bank_conflict draws at two */
static int W = 1100, H = 400;

static cairo_surface_t *
draw (const KsMemAccess   *m,
      const KsMemoryStyle *st,
      const char          *shot)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cairo_t *cr = cairo_create (s);

  ks_memory_render (cr, m, "test", st, W, H);
  cairo_destroy (cr);
  if (g_getenv ("KS_SCREENSHOT_DIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("KS_SCREENSHOT_DIR"), shot, NULL);

      cairo_surface_write_to_png (s, path);
    }
  return s;
}

static void
test_bank_conflict_at (int w,
                       int h);

static void
test_bank_conflict (void)
{
  test_bank_conflict_at (1100, 400);
  test_bank_conflict_at (1920, 700);
  test_bank_conflict_at (640, 300);
  /* the other tests draw at the first size */
  W = 1100;
  H = 400;
}

static void
test_bank_conflict_at (int w,
                       int h)
{
  KsMemAccess m = { 0 };
  KsMemoryStyle st;
  cairo_surface_t *s;
  double x, y, r, g, b;

  W = w;
  H = h;
  m.mask = 0xffffffffu;
  m.space = KS_PTX_SPACE_SHARED;
  m.size = 4;
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 8 * l;          /* words 0, 2, 4, ...: lanes l and l + 16 share a bank */
  ks_memory_style_init (&st);
  s = draw (&m, &st, "banks-stride2.png");
  ks_memory_conflict_rgb (&r, &g, &b);
  /* even banks deliver two words: conflict-coloured; odd banks none */
  ks_memory_bank_center (W, H, &st, 0, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x + 5, y - 2, r, g, b) || ks_test_pixel_is (s, x - 5, y + 6, r, g, b));
  ks_memory_bank_center (W, H, &st, 1, &x, &y);
  g_assert_false (ks_test_pixel_is (s, x + 5, y - 2, r, g, b));
  /* two passes: bank 0 delivers in the first and in the second */
  ks_memory_cell_center (W, H, &st, 0, 0, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x, y, 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0));
  ks_memory_cell_center (W, H, &st, 1, 0, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x, y, 0xe6 / 255.0, 0x9f / 255.0, 0x00 / 255.0));
  /* no third pass: nothing in the third pass's colour where its row
   * would be, and the legend begins there */
  ks_memory_cell_center (W, H, &st, 2, 0, &x, &y);
  g_assert_false (ks_test_pixel_is (s, x, y, 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0));
  g_assert_cmpfloat (ks_memory_legend_top (&m, &st, W), <, y);
  cairo_surface_destroy (s);

  /* a classroom step: only the first pass shown */
  st.wavefronts_shown = 1;
  s = draw (&m, &st, "banks-stride2-step1.png");
  ks_memory_cell_center (W, H, &st, 1, 0, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x, y, 0.99, 0.99, 0.99));
  cairo_surface_destroy (s);
}

static void
test_broadcast (void)
{
  KsMemAccess m = { 0 };
  KsMemoryStyle st;
  cairo_surface_t *s;
  double x, y, r, g, b;

  m.mask = 0xffffffffu;
  m.space = KS_PTX_SPACE_SHARED;
  m.size = 4;                   /* every lane reads word 0 */
  ks_memory_style_init (&st);
  s = draw (&m, &st, "banks-broadcast.png");
  ks_memory_conflict_rgb (&r, &g, &b);
  ks_memory_bank_center (W, H, &st, 0, &x, &y);
  g_assert_false (ks_test_pixel_is (s, x + 5, y - 2, r, g, b));
  /* one pass: no second one in its colour, the legend under the first */
  ks_memory_cell_center (W, H, &st, 1, 0, &x, &y);
  g_assert_false (ks_test_pixel_is (s, x, y, 0xe6 / 255.0, 0x9f / 255.0, 0x00 / 255.0));
  g_assert_cmpfloat (ks_memory_legend_top (&m, &st, W), <, y);
  cairo_surface_destroy (s);
}

static void
test_global (void)
{
  KsMemAccess m = { 0 };
  KsMemoryStyle st;
  cairo_surface_t *s;
  double x, y, r, g, b;

  m.mask = 0xffffffffu;
  m.space = KS_PTX_SPACE_GLOBAL;
  m.size = 4;
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 0x10000 + 4 * l;
  m.n_levels = 4;
  m.level[0] = m.level[1] = KS_MEM_LEVEL_DRAM;
  m.level[2] = KS_MEM_LEVEL_L2;
  m.level[3] = KS_MEM_LEVEL_L1;
  ks_memory_style_init (&st);
  s = draw (&m, &st, "global-coalesced.png");
  for (guint k = 0; k < 4; k++)
    {
      ks_memory_level_rgb (m.level[k], &r, &g, &b);
      ks_memory_sector_center (&m, W, H, &st, k, &x, &y);
      g_assert_true (ks_test_pixel_is (s, x, y - 4, r, g, b));
    }
  cairo_surface_destroy (s);
}

/* A 32-way conflict: lane l reads byte 128 * l, word 32 * l, which is in
 * bank (32 * l) mod 32 = 0 for every lane, 32 different words of one bank:
 * 32 passes (CUDA C++ Programming Guide, "Shared Memory") */
static void
conflict32 (KsMemAccess *m)
{
  memset (m, 0, sizeof *m);
  m->mask = 0xffffffffu;
  m->space = KS_PTX_SPACE_SHARED;
  m->size = 4;
  for (guint l = 0; l < 32; l++)
    m->addr[l] = 128 * l;
}

/* Presentation mode: a pass's cell and a lane's box are at least 1.6
 * times as tall as at a desk, measured on the pictures */
static void
test_presentation_scale (void)
{
  KsMemAccess m;
  KsMemoryStyle desk, big;
  cairo_surface_t *s1, *s2;
  double x, y;
  int h1, h2;

  conflict32 (&m);
  ks_memory_style_init (&desk);
  ks_memory_style_init (&big);
  big.font_size = KS_RENDER_FONT_SIZE_FOR (TRUE);
  big.projector = TRUE;
  W = 1920;
  H = (int) ks_memory_content_height (&m, &big, W);
  s1 = draw (&m, &desk, "banks-desk.png");
  s2 = draw (&m, &big, "banks-presentation.png");
  /* pass 1's cell in bank 0: Okabe-Ito blue */
  ks_memory_cell_center (W, H, &desk, 0, 0, &x, &y);
  h1 = ks_test_run_height (s1, x, y, 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0);
  ks_memory_cell_center (W, H, &big, 0, 0, &x, &y);
  h2 = ks_test_run_height (s2, x, y, 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0);
  g_assert_cmpint (h1, >=, 8);
  g_assert_cmpfloat ((double) h2 / h1, >=, 1.6);
  cairo_surface_destroy (s1);
  cairo_surface_destroy (s2);
  W = 1100;
  H = 400;
}

/* The 32-way conflict in presentation mode at 1024 px across: the
 * picture asks for the height of all 32 passes and the legend, more than
 * a 300 px area has (so the view scrolls rather than cuts), and drawn at
 * that height, pass 32's cell is on the surface in its colour (pass 32 is
 * the eighth colour again, grey, as 32 = 8 * 4) and the legend's line
 * is inside it */
static void
test_all_passes (void)
{
  KsMemAccess m;
  KsMemoryStyle st;
  cairo_surface_t *s;
  double x, y, need, px;

  conflict32 (&m);
  ks_memory_style_init (&st);
  st.font_size = KS_RENDER_FONT_SIZE_FOR (TRUE);
  st.projector = TRUE;
  px = st.font_size * 96.0 / 72.0;
  need = ks_memory_content_height (&m, &st, 1024);
  g_assert_cmpfloat (need, >, 300);
  W = 1024;
  H = (int) need;
  s = draw (&m, &st, "banks-32way-1024.png");
  for (guint w = 0; w < 32; w++)
    {
      ks_memory_cell_center (W, H, &st, w, 0, &x, &y);
      g_assert_cmpfloat (y, <, H);
    }
  ks_memory_cell_center (W, H, &st, 31, 0, &x, &y);
  g_assert_true (ks_test_pixel_is (s, x, y, 0x7f / 255.0, 0x7f / 255.0, 0x7f / 255.0));
  /* below the last pass, and its first line (the pass colours) inside */
  g_assert_cmpfloat (ks_memory_legend_top (&m, &st, W), >, y);
  g_assert_cmpfloat (ks_memory_legend_top (&m, &st, W) + px * 1.5, <=, H);
  /* the legend's first swatch (pass 1, blue) is drawn there */
  g_assert_true (ks_test_pixel_is (s, 4 + px * 0.5, ks_memory_legend_top (&m, &st, W) + px * 0.6,
                                   0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0));
  cairo_surface_destroy (s);
  W = 1100;
  H = 400;
}

/* The words a screen reader gets, against the hand count above */
static void
test_describe (void)
{
  KsMemAccess m;
  g_autofree char *text = NULL;

  conflict32 (&m);
  text = ks_memory_describe (&m);
  g_assert_cmpstr (text, ==,
                   "4-byte load by 32 lanes: 32 passes (1 without conflicts), worst bank 32-way");
}

/* The figures under the title, against hand counts: what a warp's lanes
 * ask for, the sectors that move it and the fewest that could */
static void
test_summary_figures (void)
{
  KsMemAccess m = { 0 };
  char *text;

  m.space = KS_PTX_SPACE_GLOBAL;
  m.size = 4;
  m.mask = 0xffffffffu;

  /* 32 consecutive floats from a line boundary: 128 bytes, 4 sectors of
   * one line, all used */
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 0x10000 + 4 * l;
  text = ks_memory_summary (&m);
  g_assert_cmpstr (text, ==, "4-byte load by 32 lanes: 128 of 128 bytes used (100 %), 4 sectors "
                   "(ideal 4) in 1 line");
  g_free (text);

  /* one float to all 32 lanes: its 4 bytes of the 32 its sector moves,
   * 12.5 %; one sector and no fewer */
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 0x10000;
  text = ks_memory_summary (&m);
  g_assert_cmpstr (text, ==, "4-byte load by 32 lanes: 4 of 32 bytes used (12.5 %), 1 sector "
                   "(ideal 1) in 1 line");
  g_free (text);

  /* sample 21's load of A[row * n + k], n = 64: lanes 0-15 on one row,
   * 16-31 on the next, two floats 256 bytes apart: 8 of 64 bytes, 2
   * sectors in 2 lines, and two values that far apart need both */
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 0x10000 + (l < 16 ? 0 : 64 * 4);
  text = ks_memory_summary (&m);
  g_assert_cmpstr (text, ==, "4-byte load by 32 lanes: 8 of 64 bytes used (12.5 %), 2 sectors "
                   "(ideal 2) in 2 lines");
  g_free (text);

  /* its load of B[k * n + col]: both rows read the same 16 columns, 64
   * bytes from a 64-byte boundary, 2 sectors, all used */
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 0x20000 + 4 * (l % 16);
  text = ks_memory_summary (&m);
  g_assert_cmpstr (text, ==, "4-byte load by 32 lanes: 64 of 64 bytes used (100 %), 2 sectors "
                   "(ideal 2) in 1 line");
  g_free (text);

  /* one lane stores a float: "1 lane" */
  m.store = 1;
  m.mask = 1;
  text = ks_memory_summary (&m);
  g_assert_cmpstr (text, ==, "4-byte store by 1 lane: 4 of 32 bytes used (12.5 %), 1 sector "
                   "(ideal 1) in 1 line");
  g_free (text);

  /* shared: thread t at word 32 t, all in bank 0, 32 passes where 1
   * would do */
  m.space = KS_PTX_SPACE_SHARED;
  m.store = 0;
  m.mask = 0xffffffffu;
  for (guint l = 0; l < 32; l++)
    m.addr[l] = 128 * l;
  text = ks_memory_summary (&m);
  g_assert_cmpstr (text, ==, "4-byte load by 32 lanes: 32 passes (1 without conflicts), worst "
                   "bank 32-way");
  g_free (text);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/widgets/memory/bank-conflict", test_bank_conflict);
  g_test_add_func ("/widgets/memory/broadcast", test_broadcast);
  g_test_add_func ("/widgets/memory/global", test_global);
  g_test_add_func ("/widgets/memory/presentation-scale", test_presentation_scale);
  g_test_add_func ("/widgets/memory/all-passes", test_all_passes);
  g_test_add_func ("/widgets/memory/describe", test_describe);
  g_test_add_func ("/widgets/memory/summary-figures", test_summary_figures);
  return g_test_run ();
}
