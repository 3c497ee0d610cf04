/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-timeline: drawing the warp timeline.  A synthetic timing of about
 * a million events over 64 warps, drawn at 1920 x 1080 by the Cairo
 * renderer into an image, whole and zoomed; prints ms per frame for
 * docs/PERFORMANCE.md.  Not a test.
 *
 *   bench-timeline [EVENTS] [OUT.png]   OUT.png: also save the whole view */

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
