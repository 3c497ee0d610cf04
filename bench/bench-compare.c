/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-compare: what Compare (src/core/analysis/ks-compare.c) costs beside
 * the two analyses it reads, as docs/PERFORMANCE.md records it.
 *
 *   meson compile -C _build bench-compare && _build/bench/bench-compare
 *
 * Prints the line diff's time for texts of PTX's size (the test corpus's
 * largest module, 1000s of lines) with a few edits, with every line
 * changed (past the diff's edit budget: the rest called replaced), and for
 * a 50000-line text with 10 edits; then the whole comparison of two
 * analysed samples (11 and 12, the analyses made once, not counted). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "ks-compare.h"

static double
now (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

static char *
numbered (guint n,
          guint every,
          const char *word)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (every != 0 && i % every == every / 2)
        g_string_append_printf (s, "\t%s %u;\n", word, i);
      else
        g_string_append_printf (s, "\tadd.s32 %%r%u, %%r%u, %u;\n", i % 64, (i + 1) % 64, i);
    }
  return g_string_free (s, FALSE);
}

static void
time_diff (const char *what,
           const char *a,
           const char *b)
{
  const int runs = 5;
  double t0 = now ();
  guint len = 0, same = 0;

  for (int r = 0; r < runs; r++)
    {
      g_autoptr(GArray) d = ks_line_diff (a, b);

      len = d->len;
      same = 0;
      for (guint i = 0; i < d->len; i++)
        same += g_array_index (d, KsDiffLine, i).op == KS_DIFF_SAME;
    }
  printf ("%-44s %8.2f ms  (%u lines in the diff, %u the same)\n", what,
          (now () - t0) / runs * 1e3, len, same);
}

static KsAnalysis *
analyse (const char *spec)
{
  KsAnalysisRequest req;

  ks_analysis_request_init (&req);
  req.path = spec;
  req.gpu = "rtx-4090";
  req.use_toolkit = FALSE;
  return ks_analysis_run (&req, NULL, NULL, NULL);
}

int
main (void)
{
  g_autofree char *a5k = numbered (5000, 0, NULL);
  g_autofree char *b5k = numbered (5000, 1000, "mul.lo.s32");
  g_autofree char *c5k = numbered (5000, 1, "sub.s32");
  g_autofree char *a50k = numbered (50000, 0, NULL);
  g_autofree char *b50k = numbered (50000, 5000, "mul.lo.s32");
  g_autoptr(KsAnalysis) x = analyse (KS_SOURCE_ROOT "/data/samples/11-transpose-tiled/transpose_tiled.json");
  g_autoptr(KsAnalysis) y = analyse (KS_SOURCE_ROOT "/data/samples/12-transpose-padded/transpose_padded.json");
  const int runs = 20;
  double t0;

  time_diff ("5000 lines, 5 changed", a5k, b5k);
  time_diff ("5000 lines, all changed", a5k, c5k);
  time_diff ("50000 lines, 10 changed", a50k, b50k);
  if (x->status != KS_ANALYSIS_OK || y->status != KS_ANALYSIS_OK)
    {
      fprintf (stderr, "bench-compare: the samples did not analyse\n");
      return 1;
    }
  t0 = now ();
  for (int r = 0; r < runs; r++)
    {
      KsComparison *c = ks_comparison_new (x, y, 40, 34);

      ks_comparison_free (c);
    }
  printf ("%-44s %8.2f ms\n", "samples 11 and 12 compared (analyses made)",
          (now () - t0) / runs * 1e3);
  return 0;
}
