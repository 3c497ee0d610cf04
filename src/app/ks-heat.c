/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat.c: the heat gutter's numbers and colours. */

#include "ks-heat.h"

#include <math.h>
#include <string.h>

static const char *const metric_ids[KS_HEAT_N_METRICS] = {
  "executions", "divergence", "bank-conflicts", "excess-sectors", "active-lanes",
};

const char *
ks_heat_metric_id (KsHeatMetric metric)
{
  g_return_val_if_fail (metric < KS_HEAT_N_METRICS, NULL);
  return metric_ids[metric];
}

int
ks_heat_metric_from_id (const char *id)
{
  for (int i = 0; i < KS_HEAT_N_METRICS; i++)
    if (g_strcmp0 (id, metric_ids[i]) == 0)
      return i;
  return -1;
}

gboolean
ks_heat_value (KsHeatMetric          metric,
               const KsSimInsnStats *st,
               double               *value)
{
  if (st == NULL || st->warp_executions == 0)
    return FALSE;
  switch (metric)
    {
    case KS_HEAT_EXECUTIONS:
      *value = (double) st->thread_executions;
      return TRUE;
    case KS_HEAT_DIVERGENCE:
      *value = (double) st->divergent;
      return TRUE;
    case KS_HEAT_BANK_CONFLICTS:
      if (st->smem_requests == 0)
        return FALSE;
      *value = st->smem_wavefronts > st->smem_ideal_wavefronts
               ? (double) (st->smem_wavefronts - st->smem_ideal_wavefronts) : 0;
      return TRUE;
    case KS_HEAT_EXCESS_SECTORS:
      if (st->gmem_requests == 0)
        return FALSE;
      *value = st->gmem_sectors > st->gmem_ideal_sectors
               ? (double) (st->gmem_sectors - st->gmem_ideal_sectors) : 0;
      return TRUE;
    case KS_HEAT_ACTIVE_LANES:
      *value = (double) st->active_lanes / (double) st->warp_executions;
      return TRUE;
    case KS_HEAT_N_METRICS:
    default:
      return FALSE;
    }
}

void
ks_heat_scale_init (KsHeatScale  *scale,
                    KsHeatMetric  metric)
{
  memset (scale, 0, sizeof *scale);
  scale->metric = metric;
}

void
ks_heat_scale_add (KsHeatScale *scale,
                   double       value)
{
  if (scale->n_values == 0 || value < scale->min)
    scale->min = value;
  if (scale->n_values == 0 || value > scale->max)
    scale->max = value;
  scale->n_values++;
}

void
ks_heat_scale_finish (KsHeatScale *scale)
{
  if (scale->metric == KS_HEAT_ACTIVE_LANES)
    {
      scale->min = 0;
      scale->max = 32;
      scale->log = FALSE;
      return;
    }
  scale->log = scale->n_values > 0 && scale->max + 1 >= 10 * (scale->min + 1);
}

double
ks_heat_position (const KsHeatScale *scale,
                  double             value)
{
  double lo = scale->min, hi = scale->max, t;

  if (!(hi > lo))
    return value > 0 ? 1.0 : 0.0;
  if (scale->log)
    t = (log10 (1 + MAX (value, 0)) - log10 (1 + lo)) / (log10 (1 + hi) - log10 (1 + lo));
  else
    t = (value - lo) / (hi - lo);
  return CLAMP (t, 0.0, 1.0);
}

uint32_t
ks_heat_bin (const KsHeatScale *scale,
             double             value)
{
  double t = ks_heat_position (scale, value);

  return MIN ((uint32_t) (t * KS_HEAT_N_BINS), KS_HEAT_N_BINS - 1);
}

double
ks_heat_bin_start (const KsHeatScale *scale,
                   uint32_t           bin)
{
  double t = (double) MIN (bin, KS_HEAT_N_BINS) / KS_HEAT_N_BINS;
  double lo = scale->min, hi = scale->max;

  if (!(hi > lo))
    return lo;
  if (scale->log)
    return pow (10, log10 (1 + lo) + t * (log10 (1 + hi) - log10 (1 + lo))) - 1;
  return lo + t * (hi - lo);
}

/* viridisLite::viridis(9): #440154 #472D7B #3B528B #2C728E #21908C #27AD81
 * #5DC863 #AADC32 #FDE725 */
static const uint8_t viridis9[9][3] = {
  { 0x44, 0x01, 0x54 }, { 0x47, 0x2d, 0x7b }, { 0x3b, 0x52, 0x8b },
  { 0x2c, 0x72, 0x8e }, { 0x21, 0x90, 0x8c }, { 0x27, 0xad, 0x81 },
  { 0x5d, 0xc8, 0x63 }, { 0xaa, 0xdc, 0x32 }, { 0xfd, 0xe7, 0x25 },
};

void
ks_heat_ramp (double  t,
              double  rgb[3])
{
  double x, f;
  uint32_t i;

  if (!(t >= 0))
    t = 0;
  t = MIN (t, 1.0);
  x = t * 8;
  i = MIN ((uint32_t) x, 7);
  f = x - i;
  for (uint32_t k = 0; k < 3; k++)
    rgb[k] = (viridis9[i][k] * (1 - f) + viridis9[i + 1][k] * f) / 255.0;
}

void
ks_heat_bin_colour (uint32_t bin,
                    double   rgb[3])
{
  ks_heat_ramp ((double) MIN (bin, KS_HEAT_N_BINS - 1) / (KS_HEAT_N_BINS - 1), rgb);
}

char *
ks_heat_format_count (uint64_t value)
{
  char digits[24];
  GString *s = g_string_new (NULL);
  size_t n;

  g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, value);
  n = strlen (digits);
  for (size_t i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (s, "\u202f");
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

char *
ks_heat_format_short (double   value,
                      gboolean integer)
{
  static const char *const units[] = { "", "k", "M", "G", "T" };
  double v = value;
  guint u = 0;

  if (!integer)
    return g_strdup_printf (fabs (value) < 10 ? "%.2g" : "%.1f", value);
  while (fabs (v) >= 999.5 && u + 1 < G_N_ELEMENTS (units))
    {
      v /= 1000;
      u++;
    }
  if (u == 0)
    return g_strdup_printf ("%.0f", v);
  /* two significant figures below 10, whole numbers above */
  return g_strdup_printf (fabs (v) < 9.95 ? "%.1f%s" : "%.0f%s", v, units[u]);
}
