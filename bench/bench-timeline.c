/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-timeline: drawing the warp timeline.  A synthetic timing of about
 * a million events over 64 warps, drawn at 1920 x 1080 by the Cairo
 * renderer into an image, whole and zoomed; prints ms per frame for
 * docs/PERFORMANCE.md.  Not a test.
 *
 *   bench-timeline [EVENTS] [OUT.png]   OUT.png: also save the whole view
 *
 * With a display (xvfb-run), also a frame as the widget makes it: cold (the
 * picture drawn into a render node and rendered) and warm (the cached node
 * and the hover outline rendered), by GTK's renderer for the display. */

#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

#include "ks-timeline-render.h"

static double
now (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

int
main (int    argc,
      char **argv)
{
  uint64_t n = argc > 1 ? strtoull (argv[1], NULL, 10) : 1000000;
  const uint32_t warps = 64;
  g_autoptr(KsTiming) t = g_new0 (KsTiming, 1);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1920, 1080);
  cairo_t *cr = cairo_create (surf);
  KsTimelineView v;
  GRand *rand = g_rand_new_with_seed (1);
  uint64_t per = n / warps;
  double t0, whole, zoomed;
  const int frames = 10;

  /* warps issue every few cycles, with stalls between, like a real run */
  t->n_warps = warps;
  t->sub_partitions = 4;
  t->warps = g_new0 (KsTimingWarp, warps);
  t->n_events = per * warps;
  t->events = g_new0 (KsTimingEvent, t->n_events);
  for (uint32_t w = 0; w < warps; w++)
    {
      uint32_t cycle = w;

      t->warps[w] = (KsTimingWarp) { w, w / 8, w % 8, w % 4, w, 0, 0, (uint64_t) w * per, per };
      for (uint64_t i = 0; i < per; i++)
        {
          KsTimingEvent *e = &t->events[w * per + i];
          uint32_t gap = (uint32_t) g_rand_int_range (rand, 1, 12);

          e->stall_start = cycle + 1;
          cycle += gap;
          e->ready = cycle;
          e->cycle = cycle;
          e->pipe = (uint8_t) g_rand_int_range (rand, 0, KS_N_PIPES);
          e->stall = gap > 1 ? (uint8_t) g_rand_int_range (rand, 1, KS_STALL_NOT_SELECTED) : 0;
          e->active_lanes = 32;
        }
      t->warps[w].end_cycle = cycle + 1;
      t->cycles = MAX (t->cycles, cycle + 1);
    }

  ks_timeline_view_init (&v);
  v.row_height = 14;
  ks_timeline_view_fit (&v, t, 1920, 1080);
  t0 = now ();
  for (int f = 0; f < frames; f++)
    ks_timeline_render (cr, t, NULL, &v, 1920, 1080);
  whole = (now () - t0) / frames * 1000;
  v.cycles_per_pixel = 0.5;
  v.first_cycle = t->cycles / 2.0;
  t0 = now ();
  for (int f = 0; f < frames; f++)
    ks_timeline_render (cr, t, NULL, &v, 1920, 1080);
  zoomed = (now () - t0) / frames * 1000;
  printf ("bench-timeline: %" G_GUINT64_FORMAT " events, %u warps, %u cycles, 1920 x 1080\n",
          t->n_events, warps, t->cycles);
  printf ("  whole run in view: %.1f ms a frame (drawn from the model, no cache)\n", whole);
  printf ("  zoomed to 2 pixels a cycle: %.1f ms a frame\n", zoomed);
  /* as the widget redraws after a zoom or pan: the overview counted once */
  {
    KsTimelineLayout l;
    g_autofree uint32_t *density = NULL;
    double cached;

    ks_timeline_view_fit (&v, t, 1920, 1080);
    ks_timeline_layout (&v, 1920, 1080, &l);
    density = ks_timeline_overview_density (t, (uint32_t) l.plot_width);
    v.overview = density;
    v.n_overview = (uint32_t) l.plot_width;
    t0 = now ();
    for (int f = 0; f < frames; f++)
      ks_timeline_render (cr, t, NULL, &v, 1920, 1080);
    cached = (now () - t0) / frames * 1000;
    v.overview = NULL;
    printf ("  whole run, overview kept (a redraw after zoom or pan): %.1f ms a frame\n", cached);
  }
  if (gtk_init_check ())
    {
      GtkWidget *win = gtk_window_new ();
      GskRenderer *r;
      GskRenderNode *cached = NULL;
      double cold = 0, warm = 0;
      g_autofree uint32_t *order = ks_timeline_row_order (t);

      gtk_window_set_default_size (GTK_WINDOW (win), 200, 200);
      gtk_window_present (GTK_WINDOW (win));
      for (int i = 0; i < 50 && !gtk_widget_get_mapped (win); i++)
        g_main_context_iteration (NULL, TRUE);
      r = gtk_native_get_renderer (GTK_NATIVE (win));
      ks_timeline_view_fit (&v, t, 1920, 1080);
      for (int f = 0; f < frames; f++)
        {
          /* as the widget does: the picture into an image, the image as a
           * texture node */
          cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1080);
          cairo_t *c = cairo_create (img);
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(GdkTexture) picture = NULL;
          GdkTexture *tex;

          t0 = now ();
          ks_timeline_render (c, t, NULL, &v, 1920, 1080);
          cairo_destroy (c);
          cairo_surface_flush (img);
          bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (img),
                                              (gsize) cairo_image_surface_get_stride (img) * 1080,
                                              (GDestroyNotify) cairo_surface_destroy, img);
          picture = gdk_memory_texture_new (1920, 1080, GDK_MEMORY_DEFAULT, bytes,
                                            (gsize) cairo_image_surface_get_stride (img));
          g_clear_pointer (&cached, gsk_render_node_unref);
          cached = gsk_texture_node_new (picture, &GRAPHENE_RECT_INIT (0, 0, 1920, 1080));
          tex = gsk_renderer_render_texture (r, cached, &GRAPHENE_RECT_INIT (0, 0, 1920, 1080));
          cold += now () - t0;
          g_object_unref (tex);
        }
      /* a warm frame: the main thread's work is appending the cached
       * picture and the hover's border; the renderer composites them */
      v.hover_event = (int64_t) t->n_events / 2;
      for (int f = 0; f < frames; f++)
        {
          GtkSnapshot *s = gtk_snapshot_new ();
          GskRenderNode *node;
          double x, y, bw, bh;

          t0 = now ();
          gtk_snapshot_append_node (s, cached);
          if (ks_timeline_event_rect (t, order, &v, 1920, 1080, v.hover_event, &x, &y, &bw, &bh))
            {
              GskRoundedRect rr;
              GdkRGBA black = { 0, 0, 0, 1 };

              gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (x, y, bw, bh), 0);
              gtk_snapshot_append_border (s, &rr, (const float[4]) { 1, 1, 1, 1 },
                                          (const GdkRGBA[4]) { black, black, black, black });
            }
          node = gtk_snapshot_free_to_node (s);
          warm += now () - t0;
          gsk_render_node_unref (node);
        }
      printf ("  widget frame: cold %.1f ms (picture drawn, made a texture, rendered by %s with "
              "a read-back); warm %.3f ms on the main thread (cached picture + hover border)\n",
              cold / frames * 1000, G_OBJECT_TYPE_NAME (r), warm / frames * 1000);
      gsk_render_node_unref (cached);
      gtk_window_destroy (GTK_WINDOW (win));
    }
  else
    printf ("  (no display: run under xvfb-run for the widget's warm and cold frames)\n");
  if (argc > 2)
    {
      g_autoptr(GError) error = NULL;

      ks_timeline_view_fit (&v, t, 1920, 1080);
      if (!ks_timeline_render_export (t, NULL, &v, 1920, 1080, argv[2], &error))
        g_printerr ("%s\n", error->message);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
  g_rand_free (rand);
  return 0;
}
