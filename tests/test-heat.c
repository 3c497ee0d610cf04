/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The heat gutter's arithmetic (src/app/ks-heat.c): the figure each metric
 * takes from a line's statistics, linear and logarithmic scales, the bin of
 * a value, and viridis at known points, against values computed by hand
 * here and R's viridisLite::viridis(9) and viridis(8). */

#include <math.h>

#include "ks-heat.h"

static void
assert_rgb (const double rgb[3],
            double       r,
            double       g,
            double       b,
            double       tolerance)
{
  if (fabs (rgb[0] - r / 255) > tolerance || fabs (rgb[1] - g / 255) > tolerance
      || fabs (rgb[2] - b / 255) > tolerance)
    g_error ("colour (%.1f, %.1f, %.1f), expected (%.1f, %.1f, %.1f)", rgb[0] * 255, rgb[1] * 255,
             rgb[2] * 255, r, g, b);
}

static void
test_ramp (void)
{
  /* viridis(9): #440154 #472D7B #3B528B #2C728E #21908C #27AD81 #5DC863
   * #AADC32 #FDE725, at 0, 1/8, ..., 1 */
  static const double v9[9][3] = {
    { 0x44, 0x01, 0x54 }, { 0x47, 0x2d, 0x7b }, { 0x3b, 0x52, 0x8b }, { 0x2c, 0x72, 0x8e },
    { 0x21, 0x90, 0x8c }, { 0x27, 0xad, 0x81 }, { 0x5d, 0xc8, 0x63 }, { 0xaa, 0xdc, 0x32 },
    { 0xfd, 0xe7, 0x25 },
  };
  /* viridis(8): #440154 #46337E #365C8D #277F8E #1FA187 #4AC16D #9FDA3A
   * #FDE725, which the bins' colours (the ramp at bin / 7) approach; linear
   * steps between nine anchors stay within 6/255 of the curve */
  static const double v8[8][3] = {
    { 0x44, 0x01, 0x54 }, { 0x46, 0x33, 0x7e }, { 0x36, 0x5c, 0x8d }, { 0x27, 0x7f, 0x8e },
    { 0x1f, 0xa1, 0x87 }, { 0x4a, 0xc1, 0x6d }, { 0x9f, 0xda, 0x3a }, { 0xfd, 0xe7, 0x25 },
  };
  double rgb[3];

  for (guint i = 0; i < 9; i++)
    {
      ks_heat_ramp (i / 8.0, rgb);
      assert_rgb (rgb, v9[i][0], v9[i][1], v9[i][2], 1e-9);
    }
  /* half way from the first anchor to the second */
  ks_heat_ramp (1 / 16.0, rgb);
  assert_rgb (rgb, 69.5, 23, 103.5, 1e-9);
  /* out of range clamps */
  ks_heat_ramp (-1, rgb);
  assert_rgb (rgb, 0x44, 0x01, 0x54, 1e-9);
  ks_heat_ramp (2, rgb);
  assert_rgb (rgb, 0xfd, 0xe7, 0x25, 1e-9);
  ks_heat_ramp (NAN, rgb);
  assert_rgb (rgb, 0x44, 0x01, 0x54, 1e-9);
  for (guint b = 0; b < KS_HEAT_N_BINS; b++)
    {
      ks_heat_bin_colour (b, rgb);
      assert_rgb (rgb, v8[b][0], v8[b][1], v8[b][2], 6.0 / 255);
    }
  /* lightness rises bin by bin (a sequential map reads in grey too):
   * Rec. 709 luma */
  {
    double last = -1;

    for (guint b = 0; b < KS_HEAT_N_BINS; b++)
      {
        double y;

        ks_heat_bin_colour (b, rgb);
        y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
        g_assert_cmpfloat (y, >, last);
        last = y;
      }
  }
}

static void
test_linear_scale (void)
{
  KsHeatScale s;

  /* vector add: lines run by all 1024 threads or by the 1000 in range */
  ks_heat_scale_init (&s, KS_HEAT_EXECUTIONS);
  ks_heat_scale_add (&s, 1024);
  ks_heat_scale_add (&s, 1000);
  ks_heat_scale_add (&s, 1024);
  ks_heat_scale_finish (&s);
  g_assert_cmpuint (s.n_values, ==, 3);
  g_assert_cmpfloat (s.min, ==, 1000);
  g_assert_cmpfloat (s.max, ==, 1024);
  g_assert_false (s.log);
  g_assert_cmpuint (ks_heat_bin (&s, 1000), ==, 0);
  g_assert_cmpuint (ks_heat_bin (&s, 1024), ==, 7);
  /* (1012 - 1000) / 24 = 0.5: bin 4 */
  g_assert_cmpfloat_with_epsilon (ks_heat_position (&s, 1012), 0.5, 1e-12);
  g_assert_cmpuint (ks_heat_bin (&s, 1012), ==, 4);
  /* the edges: 1000 + 24 k / 8 starts bin k */
  g_assert_cmpuint (ks_heat_bin (&s, 1003), ==, 1);
  g_assert_cmpuint (ks_heat_bin (&s, 1002.99), ==, 0);
  g_assert_cmpfloat_with_epsilon (ks_heat_bin_start (&s, 3), 1009, 1e-9);

  /* 0 to 8 is linear ((8 + 1) < 10 (0 + 1)); with 9 the counts span a
   * decade ((9 + 1) >= 10 (0 + 1)) and the scale turns logarithmic */
  ks_heat_scale_init (&s, KS_HEAT_DIVERGENCE);
  ks_heat_scale_add (&s, 0);
  ks_heat_scale_add (&s, 8);
  ks_heat_scale_finish (&s);
  g_assert_false (s.log);
  g_assert_cmpuint (ks_heat_bin (&s, 4), ==, 4);
  ks_heat_scale_add (&s, 9);
  ks_heat_scale_finish (&s);
  g_assert_true (s.log);
}

static void
test_log_scale (void)
{
  KsHeatScale s;

  ks_heat_scale_init (&s, KS_HEAT_EXECUTIONS);
  ks_heat_scale_add (&s, 0);
  ks_heat_scale_add (&s, 999);
  ks_heat_scale_add (&s, 9);
  ks_heat_scale_finish (&s);
  g_assert_true (s.log);
  /* log10 (1 + v) / log10 (1000): 9 -> 1/3, 99 -> 2/3 */
  g_assert_cmpfloat_with_epsilon (ks_heat_position (&s, 9), 1.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (ks_heat_position (&s, 99), 2.0 / 3, 1e-12);
  g_assert_cmpuint (ks_heat_bin (&s, 0), ==, 0);
  g_assert_cmpuint (ks_heat_bin (&s, 9), ==, 2);   /* floor (8/3) */
  g_assert_cmpuint (ks_heat_bin (&s, 99), ==, 5);  /* floor (16/3) */
  g_assert_cmpuint (ks_heat_bin (&s, 999), ==, 7);
  /* bin 4 starts half way in log: 10^1.5 - 1 */
  g_assert_cmpfloat_with_epsilon (ks_heat_bin_start (&s, 4), pow (10, 1.5) - 1, 1e-9);
  /* outside the range clamps */
  g_assert_cmpuint (ks_heat_bin (&s, 5000), ==, 7);

  /* 1024 and 16384 (a loop of 16): a decade and more, logarithmic */
  ks_heat_scale_init (&s, KS_HEAT_EXECUTIONS);
  ks_heat_scale_add (&s, 1024);
  ks_heat_scale_add (&s, 16384);
  ks_heat_scale_finish (&s);
  g_assert_true (s.log);
  /* 3000: log10 (3001 / 1025) / log10 (16385 / 1025) = 0.4665 / 1.2037
   * = 0.3876: bin 3 (3.10) */
  g_assert_cmpfloat_with_epsilon (ks_heat_position (&s, 3000),
                                  log10 (3001.0 / 1025) / log10 (16385.0 / 1025), 1e-12);
  g_assert_cmpuint (ks_heat_bin (&s, 3000), ==, 3);
  /* and 2048, twice the smallest, just below a quarter (0.2499): bin 1 */
  g_assert_cmpuint (ks_heat_bin (&s, 2048), ==, 1);

  /* a single value: the top colour, unless it is zero */
  ks_heat_scale_init (&s, KS_HEAT_BANK_CONFLICTS);
  ks_heat_scale_add (&s, 5);
  ks_heat_scale_finish (&s);
  g_assert_cmpuint (ks_heat_bin (&s, 5), ==, 7);
  ks_heat_scale_init (&s, KS_HEAT_BANK_CONFLICTS);
  ks_heat_scale_add (&s, 0);
  ks_heat_scale_finish (&s);
  g_assert_cmpuint (ks_heat_bin (&s, 0), ==, 0);

  /* average lanes: always 0 to 32, linear */
  ks_heat_scale_init (&s, KS_HEAT_ACTIVE_LANES);
  ks_heat_scale_add (&s, 31.25);
  ks_heat_scale_add (&s, 32);
  ks_heat_scale_finish (&s);
  g_assert_false (s.log);
  g_assert_cmpfloat (s.min, ==, 0);
  g_assert_cmpfloat (s.max, ==, 32);
  g_assert_cmpuint (ks_heat_bin (&s, 16), ==, 4);
  g_assert_cmpuint (ks_heat_bin (&s, 24), ==, 6);
  g_assert_cmpuint (ks_heat_bin (&s, 31.25), ==, 7);
}

static void
test_values (void)
{
  KsSimInsnStats st = { 0 };
  double v = -1;

  /* a line that never ran has no value in any metric */
  for (int m = 0; m < KS_HEAT_N_METRICS; m++)
    g_assert_false (ks_heat_value (m, &st, &v));

  st.warp_executions = 4;
  st.thread_executions = 100;
  st.active_lanes = 112;
  st.divergent = 3;
  g_assert_true (ks_heat_value (KS_HEAT_EXECUTIONS, &st, &v));
  g_assert_cmpfloat (v, ==, 100);
  g_assert_true (ks_heat_value (KS_HEAT_DIVERGENCE, &st, &v));
  g_assert_cmpfloat (v, ==, 3);
  g_assert_true (ks_heat_value (KS_HEAT_ACTIVE_LANES, &st, &v));
  g_assert_cmpfloat (v, ==, 28);
  /* no shared or global accesses: the memory metrics do not apply */
  g_assert_false (ks_heat_value (KS_HEAT_BANK_CONFLICTS, &st, &v));
  g_assert_false (ks_heat_value (KS_HEAT_EXCESS_SECTORS, &st, &v));

  /* 4 requests in 12 passes where 4 would do: 8 extra */
  st.smem_requests = 4;
  st.smem_wavefronts = 12;
  st.smem_ideal_wavefronts = 4;
  g_assert_true (ks_heat_value (KS_HEAT_BANK_CONFLICTS, &st, &v));
  g_assert_cmpfloat (v, ==, 8);
  /* a strided load: 4 requests moving 128 sectors where 16 would do */
  st.gmem_requests = 4;
  st.gmem_sectors = 128;
  st.gmem_ideal_sectors = 16;
  g_assert_true (ks_heat_value (KS_HEAT_EXCESS_SECTORS, &st, &v));
  g_assert_cmpfloat (v, ==, 112);
  /* conflict-free and coalesced: zero, not blank */
  st.smem_wavefronts = 4;
  st.gmem_sectors = 16;
  g_assert_true (ks_heat_value (KS_HEAT_BANK_CONFLICTS, &st, &v));
  g_assert_cmpfloat (v, ==, 0);
  g_assert_true (ks_heat_value (KS_HEAT_EXCESS_SECTORS, &st, &v));
  g_assert_cmpfloat (v, ==, 0);

  for (int m = 0; m < KS_HEAT_N_METRICS; m++)
    g_assert_cmpint (ks_heat_metric_from_id (ks_heat_metric_id (m)), ==, m);
  g_assert_cmpint (ks_heat_metric_from_id ("heat"), ==, -1);
}

static void
test_format (void)
{
  static const struct { double v; gboolean integer; const char *text; } shorts[] = {
    { 0, TRUE, "0" }, { 950, TRUE, "950" }, { 1000, TRUE, "1.0k" }, { 1234, TRUE, "1.2k" },
    { 16384, TRUE, "16k" }, { 3400000, TRUE, "3.4M" }, { 999999, TRUE, "1.0M" },
    { 27.5, FALSE, "27.5" }, { 7.5, FALSE, "7.5" },
  };
  static const struct { uint64_t v; const char *text; } counts[] = {
    { 0, "0" }, { 999, "999" }, { 1000, "1\u202f000" }, { 1234567, "1\u202f234\u202f567" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shorts); i++)
    {
      g_autofree char *s = ks_heat_format_short (shorts[i].v, shorts[i].integer);

      g_assert_cmpstr (s, ==, shorts[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autofree char *s = ks_heat_format_count (counts[i].v);

      g_assert_cmpstr (s, ==, counts[i].text);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/heat/ramp", test_ramp);
  g_test_add_func ("/app/heat/linear-scale", test_linear_scale);
  g_test_add_func ("/app/heat/log-scale", test_log_scale);
  g_test_add_func ("/app/heat/values", test_values);
  g_test_add_func ("/app/heat/format", test_format);
  return g_test_run ();
}
