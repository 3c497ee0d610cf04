/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The widgets in a window (under Xvfb in `meson test`).  The timeline shows
 * the tiled-matmul sample's timing, its zoom actions change the visible
 * range as they say, it exports at any size, and the picture it renders has
 * the pipes' colours; the occupancy chart shows the current point and asks
 * for a what-if from the keyboard.  Skips when no display can be opened.  KS_SCREENSHOT_DIR=DIR saves what it rendered. */

#include <glib/gstdio.h>

#include "ks-test-pixels.h"
#include <gtk/gtk.h>
#include <math.h>

#include "ks-timeline-render.h"
#include "ks-cfg-render.h"
#include "ks-cfg-view.h"
#include "ks-lane-view.h"
#include "ks-memory-view.h"
#include "ks-occupancy-view.h"
#include "ks-memory-render.h"
#include "ks-render-export.h"
#include "ks-timeline.h"

static KsAnalysis *
analyse (const char *folder,
         const char *file)
{
  g_autofree char *spec = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 folder, file, NULL);
  KsAnalysisRequest req;
  KsAnalysis *a;

  ks_analysis_request_init (&req);
  req.path = spec;
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_nonnull (a);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_nonnull (a->timing);
  return a;
}

static KsAnalysis *
analyse_sample (void)
{
  return analyse ("22-matmul-tiled", "matmul_tiled.json");
}

static void
wait_for_draw (GtkWidget *w)
{
  for (int i = 0; i < 50 && !gtk_widget_get_mapped (w); i++)
    g_main_context_iteration (NULL, TRUE);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* The widget's picture as pixels */
static GdkTexture *
render (GtkWidget *w)
{
  GtkSnapshot *s = gtk_snapshot_new ();
  GskRenderNode *node;
  GskRenderer *r = gtk_native_get_renderer (gtk_widget_get_native (w));
  GdkTexture *tex;

  GTK_WIDGET_GET_CLASS (w)->snapshot (w, s);
  node = gtk_snapshot_free_to_node (s);
  g_assert_nonnull (node);
  tex = gsk_renderer_render_texture (r, node,
                                     &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (w),
                                                          gtk_widget_get_height (w)));
  gsk_render_node_unref (node);
  return tex;
}

static gboolean
has_color (GdkTexture *tex,
           KsRgb       c)
{
  int w = gdk_texture_get_width (tex), h = gdk_texture_get_height (tex);
  g_autofree guchar *px = g_malloc ((gsize) w * h * 4);

  gdk_texture_download (tex, px, (gsize) w * 4);
  for (int i = 0; i < w * h; i++)
    {
      /* GDK_MEMORY_DEFAULT: B G R A */
      double b = px[4 * i] / 255.0, g = px[4 * i + 1] / 255.0, r = px[4 * i + 2] / 255.0;

      if (fabs (r - c.r) < 0.01 && fabs (g - c.g) < 0.01 && fabs (b - c.b) < 0.01)
        return TRUE;
    }
  return FALSE;
}

static void
save (GdkTexture *tex,
      const char *name)
{
  const char *dir = g_getenv ("KS_SCREENSHOT_DIR");

  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      gdk_texture_save_to_png (tex, path);
    }
}

static void
on_selected (KsTimeline *t,
             guint       insn,
             guint64     event,
             guint      *out)
{
  *out = insn;
}

static void
test_widget (void)
{
  g_autoptr(KsAnalysis) a = analyse_sample ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *tl = ks_timeline_new ();
  g_autoptr(GdkTexture) tex = NULL;
  double first, last, first2, last2;
  guint selected = G_MAXUINT;

  gtk_window_set_default_size (GTK_WINDOW (win), 1200, 500);
  gtk_window_set_child (GTK_WINDOW (win), tl);
  ks_timeline_set_analysis (KS_TIMELINE (tl), a);
  g_signal_connect (tl, "instruction-selected", G_CALLBACK (on_selected), &selected);
  gtk_window_present (GTK_WINDOW (win));
  wait_for_draw (tl);

  /* fitted: the whole run is in view */
  ks_timeline_get_range (KS_TIMELINE (tl), &first, &last);
  g_assert_cmpfloat (first, ==, 0);
  g_assert_cmpfloat (fabs (last - a->timing->cycles), <, 1.0);

  tex = render (tl);
  save (tex, "timeline.png");
  g_assert_true (has_color (tex, ks_timeline_pipe_color (KS_PIPE_FP32)));
  g_assert_true (has_color (tex, ks_timeline_pipe_color (KS_PIPE_MEM)));
  g_assert_true (has_color (tex, ks_timeline_pipe_color (KS_PIPE_INT)));
  g_clear_object (&tex);

  /* zoom in: half the cycles in view, around the middle */
  gtk_widget_activate_action (tl, "timeline.zoom-in", NULL);
  ks_timeline_get_range (KS_TIMELINE (tl), &first2, &last2);
  g_assert_cmpfloat (fabs ((last2 - first2) - (last - first) / 2), <, 1.0);
  gtk_widget_activate_action (tl, "timeline.pan-right", NULL);
  ks_timeline_get_range (KS_TIMELINE (tl), &first, &last);
  g_assert_cmpfloat (first, >, first2);
  gtk_widget_activate_action (tl, "timeline.zoom-fit", NULL);
  ks_timeline_get_range (KS_TIMELINE (tl), &first, &last);
  g_assert_cmpfloat (first, ==, 0);

  /* presentation mode: larger rows, still the whole run */
  ks_timeline_set_presentation (KS_TIMELINE (tl), TRUE);
  wait_for_draw (tl);
  tex = render (tl);
  save (tex, "timeline-presentation.png");
  g_assert_true (has_color (tex, ks_timeline_pipe_color (KS_PIPE_FP32)));

  /* export at another size */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp ("ks-tl-XXXXXX", &error);
    g_autofree char *png = g_build_filename (dir, "t.png", NULL);
    g_autoptr(GdkTexture) out = NULL;

    g_assert_true (ks_timeline_export (KS_TIMELINE (tl), png, 3000, 800, TRUE, &error));
    g_assert_no_error (error);
    out = gdk_texture_new_from_filename (png, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (out), ==, 3000);
    g_assert_cmpint (gdk_texture_get_height (out), ==, 800);
    g_clear_object (&out);
    /* too short for the rows: it grows to hold every warp's row, 24 px
     * each in presentation mode (14 px times 1.7) */
    g_assert_true (ks_timeline_export (KS_TIMELINE (tl), png, 1200, 150, FALSE, &error));
    g_assert_no_error (error);
    out = gdk_texture_new_from_filename (png, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_height (out), >, 24 * (int) a->timing->n_warps);
    g_unlink (png);
    g_rmdir (dir);
  }
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
on_what_if (KsOccupancyView *view,
            int              curve,
            guint            value,
            guint           *out)
{
  g_assert_cmpint (curve, ==, KS_OCCUPANCY_CURVE_BLOCK_SIZE);
  *out = value;
}

/* The occupancy chart of the sample (256 threads a block): the Right key
 * asks for a warp more, and the picture has the current point */
static void
test_occupancy_widget (void)
{
  g_autoptr(KsAnalysis) a = analyse_sample ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *view = ks_occupancy_view_new ();
  g_autoptr(GdkTexture) tex = NULL;
  guint asked = 0;
  gboolean handled = FALSE;
  KsRgb mark;

  gtk_window_set_default_size (GTK_WINDOW (win), 1100, 360);
  gtk_window_set_child (GTK_WINDOW (win), view);
  ks_occupancy_view_set_analysis (KS_OCCUPANCY_VIEW (view), a);
  g_signal_connect (view, "what-if", G_CALLBACK (on_what_if), &asked);
  gtk_window_present (GTK_WINDOW (win));
  wait_for_draw (view);
  tex = render (view);
  save (tex, "occupancy.png");
  ks_occupancy_chart_marker_rgb (&mark.r, &mark.g, &mark.b);
  g_assert_true (has_color (tex, mark));
  {
    GtkEventController *key = NULL;
    GListModel *controllers = gtk_widget_observe_controllers (view);

    for (guint i = 0; i < g_list_model_get_n_items (controllers) && key == NULL; i++)
      {
        g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

        if (GTK_IS_EVENT_CONTROLLER_KEY (c))
          key = GTK_EVENT_CONTROLLER (c);
      }
    g_object_unref (controllers);
    g_assert_nonnull (key);
    g_signal_emit_by_name (key, "key-pressed", GDK_KEY_Right, 0, 0, &handled);
    g_assert_true (handled);
  }
  g_assert_cmpuint (asked, ==, 256 + 32);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* The control-flow graph of the sample: the busiest block (the tile loop)
 * in the darkest blue, and an export of the whole graph */
static void
test_cfg_widget (void)
{
  g_autoptr(KsAnalysis) a = analyse_sample ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *view = ks_cfg_view_new ();
  g_autoptr(GdkTexture) tex = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-cfg-XXXXXX", &error);
  g_autofree char *svg = g_build_filename (dir, "cfg.svg", NULL);
  KsRgb dark;

  gtk_window_set_default_size (GTK_WINDOW (win), 900, 900);
  gtk_window_set_child (GTK_WINDOW (win), view);
  ks_cfg_view_set_analysis (KS_CFG_VIEW (view), a);
  gtk_window_present (GTK_WINDOW (win));
  wait_for_draw (view);
  tex = render (view);
  save (tex, "cfg.png");
  ks_cfg_heat_rgb (1, 1, &dark.r, &dark.g, &dark.b);
  g_assert_true (has_color (tex, dark));
  g_assert_true (ks_cfg_view_export (KS_CFG_VIEW (view), svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_unlink (svg);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* The memory view on the sample's first shared-memory load: it has sampled
 * executions, steps through them, draws the first pass, and exports */
static void
test_memory_widget (void)
{
  g_autoptr(KsAnalysis) a = analyse_sample ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *view = ks_memory_view_new ();
  g_autoptr(GdkTexture) tex = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-mem-XXXXXX", &error);
  g_autofree char *pdf = g_build_filename (dir, "mem.pdf", NULL);
  uint32_t insn = G_MAXUINT32;

  for (uint32_t i = 0; i < a->module->n_insns && insn == G_MAXUINT32; i++)
    if (a->module->insns[i].opcode == KS_PTX_OPC_LD && a->module->insns[i].space == KS_PTX_SPACE_SHARED)
      insn = i;
  g_assert_cmpuint (insn, !=, G_MAXUINT32);
  gtk_window_set_default_size (GTK_WINDOW (win), 1100, 380);
  gtk_window_set_child (GTK_WINDOW (win), view);
  ks_memory_view_set_analysis (KS_MEMORY_VIEW (view), a);
  g_assert_false (ks_memory_view_set_instruction (KS_MEMORY_VIEW (view), 0));
  g_assert_true (ks_memory_view_set_instruction (KS_MEMORY_VIEW (view), insn));
  ks_memory_view_step (KS_MEMORY_VIEW (view), 1);
  gtk_window_present (GTK_WINDOW (win));
  wait_for_draw (view);
  tex = render (view);
  save (tex, "memory.png");
  /* the first pass's colour (Okabe-Ito blue) */
  g_assert_true (has_color (tex, (KsRgb) { 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 }));
  g_assert_true (ks_memory_view_export (KS_MEMORY_VIEW (view), pdf, 1100, 380, &error));
  g_assert_no_error (error);
  g_unlink (pdf);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
on_step (KsLaneView *view,
         guint       insn,
         guint      *out)
{
  *out = insn;
}

/* The lane view on warp 1 of the sample's block 0: it steps, tells which
 * instruction it shows, and draws the path row */
static void
test_lane_widget (void)
{
  g_autoptr(KsAnalysis) a = analyse_sample ();
  g_autoptr(GError) error = NULL;
  KsLaneTrace *trace = ks_lane_trace_record (a->module, a->launch, 0, 1, 200, NULL, &error);
  GtkWidget *win = gtk_window_new ();
  GtkWidget *view = ks_lane_view_new ();
  g_autoptr(GdkTexture) tex = NULL;
  guint insn = G_MAXUINT;

  g_assert_no_error (error);
  g_assert_cmpuint (trace->n_steps, ==, 200);
  gtk_window_set_default_size (GTK_WINDOW (win), 1200, 320);
  gtk_window_set_child (GTK_WINDOW (win), view);
  ks_lane_view_set_trace (KS_LANE_VIEW (view), a, trace);
  g_signal_connect (view, "step-changed", G_CALLBACK (on_step), &insn);
  ks_lane_view_set_step (KS_LANE_VIEW (view), 5);
  g_assert_cmpuint (insn, ==, trace->steps[5].insn);
  gtk_window_present (GTK_WINDOW (win));
  wait_for_draw (view);
  tex = render (view);
  save (tex, "lane-view.png");
  g_assert_true (has_color (tex, (KsRgb) { 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 }));
  gtk_window_destroy (GTK_WINDOW (win));
}

/* Sample 11's transposed read of its tile, tile[threadIdx.x][threadIdx.y + j]
 * with 32 floats a row: lane x reads word 32 * x + c, all in one bank, 32
 * different words: 32 passes.  Exported at the window's 1600 x 520 (where
 * the picture stopped at pass 16), the PNG is as tall as it needs and has
 * all 32 pass rows, each in its pass's colour (the eight Okabe-Ito colours
 * in turn); and the view's description says so. */
static void
test_memory_export_all_passes (void)
{
  g_autoptr(KsAnalysis) a = analyse ("11-transpose-tiled", "transpose_tiled.json");
  GtkWidget *win = gtk_window_new ();
  GtkWidget *view = ks_memory_view_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-mem-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "memory.png", NULL);
  const double colors[8][3] = { { 0x00, 0x72, 0xb2 }, { 0xe6, 0x9f, 0x00 }, { 0x00, 0x9e, 0x73 },
                                { 0xcc, 0x79, 0xa7 }, { 0x56, 0xb4, 0xe9 }, { 0xd5, 0x5e, 0x00 },
                                { 0xf0, 0xe4, 0x42 }, { 0x7f, 0x7f, 0x7f } };
  uint32_t insn = G_MAXUINT32;
  cairo_surface_t *s;
  KsMemoryStyle st;
  int w, h;
  guint rows = 0;

  for (uint32_t i = 0; i < a->module->n_insns && insn == G_MAXUINT32; i++)
    if (a->module->insns[i].opcode == KS_PTX_OPC_LD && a->module->insns[i].space == KS_PTX_SPACE_SHARED)
      insn = i;
  g_assert_cmpuint (insn, !=, G_MAXUINT32);
  gtk_window_set_child (GTK_WINDOW (win), view);
  ks_memory_view_set_analysis (KS_MEMORY_VIEW (view), a);
  g_assert_true (ks_memory_view_set_instruction (KS_MEMORY_VIEW (view), insn));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "4-byte load by 32 lanes: 32 passes (1 without conflicts), "
                                       "worst bank 32-way");
  g_assert_true (ks_memory_view_export (KS_MEMORY_VIEW (view), png, 1600, 520, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  w = cairo_image_surface_get_width (s);
  h = cairo_image_surface_get_height (s);
  g_assert_cmpint (w, ==, 1600);
  g_assert_cmpint (h, >, 520);
  /* the view is at a desk's size here */
  ks_memory_style_init (&st);
  for (guint p = 0; p < 32; p++)
    {
      double x, y;
      const double *c = colors[p % 8];

      ks_memory_cell_center (w, h, &st, p, 0, &x, &y);
      if (y < h && ks_test_pixel_is (s, x, y, c[0] / 255, c[1] / 255, c[2] / 255))
        rows++;
    }
  g_assert_cmpuint (rows, ==, 32);
  cairo_surface_destroy (s);
  g_unlink (png);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* The timeline's legend in presentation mode: its first swatch (INT, the
 * legend's first entry at x 6) is at least 1.6 times as tall as at a desk,
 * measured on the rendered widget */
static int
legend_swatch_height (GdkTexture *tex)
{
  int w = gdk_texture_get_width (tex), h = gdk_texture_get_height (tex), run = 0;
  g_autofree guchar *px = g_malloc ((gsize) w * h * 4);
  KsRgb c = ks_timeline_pipe_color (KS_PIPE_INT);

  gdk_texture_download (tex, px, (gsize) w * 4);
  /* up column 9 from the bottom: the first run of INT's colour */
  for (int y = h - 1; y >= 0; y--)
    {
      const guchar *p = px + ((gsize) y * w + 9) * 4;
      gboolean is = fabs (p[2] / 255.0 - c.r) < 0.02 && fabs (p[1] / 255.0 - c.g) < 0.02
                    && fabs (p[0] / 255.0 - c.b) < 0.02;

      if (is)
        run++;
      else if (run > 0)
        break;
    }
  return run;
}

static void
test_timeline_presentation (void)
{
  g_autoptr(KsAnalysis) a = analyse_sample ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *tl = ks_timeline_new ();
  int desk, big;

  gtk_window_set_default_size (GTK_WINDOW (win), 1600, 600);
  gtk_window_set_child (GTK_WINDOW (win), tl);
  ks_timeline_set_analysis (KS_TIMELINE (tl), a);
  gtk_window_present (GTK_WINDOW (win));
  wait_for_draw (tl);
  {
    g_autoptr(GdkTexture) tex = render (tl);

    desk = legend_swatch_height (tex);
  }
  ks_timeline_set_presentation (KS_TIMELINE (tl), TRUE);
  wait_for_draw (tl);
  {
    g_autoptr(GdkTexture) tex = render (tl);

    save (tex, "timeline-presentation.png");
    big = legend_swatch_height (tex);
  }
  g_assert_cmpint (desk, >=, 8);
  g_assert_cmpfloat ((double) big / desk, >=, 1.6);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* Each view has a name and, once it has a model, a description of what it
 * shows (test_memory_export_all_passes checks one's words) */
static void
test_descriptions (void)
{
  g_autoptr(KsAnalysis) a = analyse ("05-divergence", "divergence.json");
  GtkWidget *views[] = { ks_timeline_new (), ks_occupancy_view_new (), ks_cfg_view_new (),
                         ks_memory_view_new (), ks_lane_view_new () };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_object_ref_sink (views[i]);
  ks_timeline_set_analysis (KS_TIMELINE (views[0]), a);
  ks_occupancy_view_set_analysis (KS_OCCUPANCY_VIEW (views[1]), a);
  ks_cfg_view_set_analysis (KS_CFG_VIEW (views[2]), a);
  ks_memory_view_set_analysis (KS_MEMORY_VIEW (views[3]), a);
  ks_lane_view_set_trace (KS_LANE_VIEW (views[4]), a, NULL);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (views[0]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Warp timeline");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (views[1]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Occupancy chart");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (views[2]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Control-flow graph");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (views[3]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Memory access diagram");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (views[4]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Lane view");
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_test_message ("view %u", i);
      g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (views[i]),
                                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
    }
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_object_unref (views[i]);
}

static void
skip_no_display (void)
{
  g_test_skip ("no display: the widget tests need one (run them under xvfb-run)");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* GTK's test accessibility backend, so that the views' names and
   * descriptions can be read back whether or not an AT-SPI bus runs */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (!gtk_init_check ())
    {
      g_test_add_func ("/widgets/timeline/widget", skip_no_display);
      return g_test_run ();
    }
  g_test_add_func ("/widgets/timeline/widget", test_widget);
  g_test_add_func ("/widgets/occupancy/widget", test_occupancy_widget);
  g_test_add_func ("/widgets/cfg/widget", test_cfg_widget);
  g_test_add_func ("/widgets/memory/widget", test_memory_widget);
  g_test_add_func ("/widgets/lanes/widget", test_lane_widget);
  g_test_add_func ("/widgets/memory/export-all-passes", test_memory_export_all_passes);
  g_test_add_func ("/widgets/timeline/presentation-scale", test_timeline_presentation);
  g_test_add_func ("/widgets/a11y/descriptions", test_descriptions);
  return g_test_run ();
}
