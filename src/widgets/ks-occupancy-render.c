/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-occupancy-render.c: the occupancy chart drawn with Cairo. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-occupancy-render.h"
#include "ks-render-export.h"

/* Okabe-Ito: the curve blue, the current point vermillion, the what-if
 * point orange */
#define CURVE_R 0.0
#define CURVE_G (0x72 / 255.0)
#define CURVE_B (0xb2 / 255.0)
#define MARK_R (0xd5 / 255.0)
#define MARK_G (0x5e / 255.0)
#define MARK_B 0.0
#define HOVER_R (0xe6 / 255.0)
#define HOVER_G (0x9f / 255.0)
#define HOVER_B 0.0
/* Compare's other kernel: Okabe-Ito reddish purple, apart from the blue
 * curve, the vermilion point and the orange what-if */
#define OTHER_R (0xcc / 255.0)
#define OTHER_G (0x79 / 255.0)
#define OTHER_B (0xa7 / 255.0)

static const char *const curve_titles[KS_OCCUPANCY_N_CURVES] = {
  N_("threads per block"),
  N_("registers per thread"),
  N_("shared memory per block (bytes)"),
};

void
ks_occupancy_chart_marker_rgb (double *r,
                               double *g,
                               double *b)
{
  *r = MARK_R;
  *g = MARK_G;
  *b = MARK_B;
}

void
ks_occupancy_chart_init (KsOccupancyChart *c)
{
  g_return_if_fail (c != NULL);
  memset (c, 0, sizeof *c);
  ks_occupancy_input_init (&c->input);
  c->font_size = KS_RENDER_FONT_SIZE;
  c->hover_curve = -1;
}

static void
curve_points (const KsOccupancyChart  *c,
              KsOccupancyCurve         k,
              const KsOccupancyPoint **pts,
              uint32_t                *n)
{
  *pts = NULL;
  *n = 0;
  if (c->curves == NULL)
    return;
  switch (k)
    {
    case KS_OCCUPANCY_CURVE_BLOCK_SIZE:
      *pts = c->curves->block_size;
      *n = c->curves->n_block_size;
      break;
    case KS_OCCUPANCY_CURVE_REGISTERS:
      *pts = c->curves->registers;
      *n = c->curves->n_registers;
      break;
    case KS_OCCUPANCY_CURVE_SHARED_MEMORY:
    default:
      *pts = c->curves->shared_memory;
      *n = c->curves->n_shared_memory;
      break;
    }
}

uint32_t
ks_occupancy_chart_current (const KsOccupancyChart *c,
                            KsOccupancyCurve        k)
{
  switch (k)
    {
    case KS_OCCUPANCY_CURVE_BLOCK_SIZE:
      return c->input.block_size;
    case KS_OCCUPANCY_CURVE_REGISTERS:
      return c->input.registers_per_thread;
    case KS_OCCUPANCY_CURVE_SHARED_MEMORY:
    default:
      return c->input.static_shared_bytes + c->input.dynamic_shared_bytes;
    }
}

void
ks_occupancy_chart_layout (const KsOccupancyChart *c,
                           double                  width,
                           double                  height,
                           KsOccupancyChartLayout *l)
{
  double px = c->font_size * 96.0 / 72.0;
  double top = ceil (px * 5.2), gap = ceil (px * 3), left = ceil (px * 3.2);
  double bottom = ceil (px * 3.2), each;

  l->summary = (KsChartRect) { 0, 0, width, top };
  each = MAX ((width - left - gap * (KS_OCCUPANCY_N_CURVES - 1) - px) / KS_OCCUPANCY_N_CURVES, 10);
  for (guint k = 0; k < KS_OCCUPANCY_N_CURVES; k++)
    l->plots[k] = (KsChartRect) { left + k * (each + gap), top + px * 1.6, each,
                                  MAX (height - top - px * 1.6 - bottom, 10) };
}

static double
max_warps (const KsOccupancyChart *c)
{
  return c->arch ? c->arch->max_warps_per_sm : 64;
}

gboolean
ks_occupancy_chart_point (const KsOccupancyChart       *c,
                          const KsOccupancyChartLayout *l,
                          KsOccupancyCurve              k,
                          uint32_t                      value,
                          double                       *x,
                          double                       *y)
{
  const KsOccupancyPoint *pts;
  uint32_t n, best = 0;
  const KsChartRect *r = &l->plots[k];
  double x0, x1;

  curve_points (c, k, &pts, &n);
  if (n < 2)
    return FALSE;
  x0 = pts[0].x;
  x1 = pts[n - 1].x;
  if (value < x0 || value > x1)
    return FALSE;
  /* the step of the curve that holds value */
  for (uint32_t i = 0; i < n; i++)
    if (pts[i].x <= value)
      best = i;
  *x = r->x + (value - x0) / (x1 - x0) * r->width;
  *y = r->y + r->height * (1 - pts[best].active_warps_per_sm / max_warps (c));
  return TRUE;
}

gboolean
ks_occupancy_chart_value_at (const KsOccupancyChart       *c,
                             const KsOccupancyChartLayout *l,
                             double                        x,
                             double                        y,
                             KsOccupancyCurve             *curve,
                             uint32_t                     *value)
{
  for (guint k = 0; k < KS_OCCUPANCY_N_CURVES; k++)
    {
      const KsChartRect *r = &l->plots[k];
      const KsOccupancyPoint *pts;
      uint32_t n, best = 0;
      double v, best_d = G_MAXDOUBLE;

      if (x < r->x - 8 || x > r->x + r->width + 8 || y < r->y - 8 || y > r->y + r->height + 8)
        continue;
      curve_points (c, k, &pts, &n);
      if (n < 2)
        return FALSE;
      v = pts[0].x + CLAMP ((x - r->x) / r->width, 0, 1) * (pts[n - 1].x - pts[0].x);
      for (uint32_t i = 0; i < n; i++)
        if (fabs (pts[i].x - v) < best_d)
          {
            best_d = fabs (pts[i].x - v);
            best = i;
          }
      *curve = (KsOccupancyCurve) k;
      *value = pts[best].x;
      return TRUE;
    }
  return FALSE;
}

typedef struct
{
  double bg[3], fg[3], dim[3], grid[3];
} Colors;

static void
colors_of (const KsOccupancyChart *c,
           Colors                 *co)
{
  const double light[4][3] = { { 0.99, 0.99, 0.99 }, { 0.10, 0.10, 0.12 }, { 0.40, 0.40, 0.43 },
                               { 0.87, 0.87, 0.89 } };
  const double dark[4][3] = { { 0.12, 0.12, 0.13 }, { 0.93, 0.93, 0.93 }, { 0.62, 0.62, 0.65 },
                              { 0.28, 0.28, 0.30 } };
  const double (*p)[3] = c->dark ? dark : light;

  memcpy (co->bg, p[0], sizeof co->bg);
  memcpy (co->fg, p[1], sizeof co->fg);
  memcpy (co->dim, p[2], sizeof co->dim);
  memcpy (co->grid, p[3], sizeof co->grid);
}

static void
text (cairo_t      *cr,
      const double *rgb,
      double        x,
      double        y,
      const char   *s)
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, s);
}

static double
text_width (cairo_t    *cr,
            const char *s)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, s, &e);
  return e.x_advance;
}

static void
format_value (char     *buf,
              gsize     size,
              uint32_t  v,
              KsOccupancyCurve k)
{
  if (k == KS_OCCUPANCY_CURVE_SHARED_MEMORY && v >= 1024 && v % 1024 == 0)
    g_snprintf (buf, size, "%u K", v / 1024);
  else if (k == KS_OCCUPANCY_CURVE_SHARED_MEMORY && v >= 1024)
    g_snprintf (buf, size, "%.1f K", v / 1024.0);
  else
    g_snprintf (buf, size, "%u", v);
}

static void
draw_summary (cairo_t                *cr,
              const KsOccupancyChart *c,
              const Colors           *co,
              double                  px,
              double                  width)
{
  const KsOccupancyResult *r = c->result;
  char buf[256];
  double x = px, y = px * 1.5, bar_w = MIN (width - 2 * px, px * 40), bar_h = px * 0.9;

  cairo_set_font_size (cr, px * 1.15);
  if (r == NULL)
    {
      g_snprintf (buf, sizeof buf, _("Cannot launch: %s"),
                  c->error ? c->error : _("no configuration"));
      text (cr, co->fg, x, y, buf);
      return;
    }
  {
    g_autofree char *summary = ks_occupancy_summary (r);

    text (cr, co->fg, x, y, summary);
  }

  /* the bar of active warps */
  y += px * 0.7;
  cairo_set_source_rgb (cr, co->grid[0], co->grid[1], co->grid[2]);
  cairo_rectangle (cr, x, y, bar_w, bar_h);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, CURVE_R, CURVE_G, CURVE_B);
  cairo_rectangle (cr, x, y, bar_w * r->occupancy, bar_h);
  cairo_fill (cr);

  /* the blocks each resource allows; the binding ones in the marker's colour */
  {
    const struct { const char *name; uint32_t blocks; KsOccupancyLimiter bit; } lim[] = {
      { C_("limiter", "warps"), r->blocks_by_warps, KS_OCCUPANCY_LIMIT_WARPS },
      { C_("limiter", "registers"), r->blocks_by_registers, KS_OCCUPANCY_LIMIT_REGISTERS },
      { C_("limiter", "shared memory"), r->blocks_by_shared_memory,
        KS_OCCUPANCY_LIMIT_SHARED_MEMORY },
      /* TRANSLATORS: what limits the blocks an SM holds: its slots for blocks */
      { _("block slots"), r->blocks_by_blocks, KS_OCCUPANCY_LIMIT_BLOCKS },
      { C_("limiter", "barriers"), r->blocks_by_barriers, KS_OCCUPANCY_LIMIT_BARRIERS },
    };

    y += bar_h + px * 1.5;
    cairo_set_font_size (cr, px);
    text (cr, co->dim, x, y, _("blocks per SM allowed by"));
    x += text_width (cr, _("blocks per SM allowed by")) + px * 0.8;
    for (guint i = 0; i < G_N_ELEMENTS (lim); i++)
      {
        const double mark[3] = { MARK_R, MARK_G, MARK_B };

        if (lim[i].blocks == KS_OCCUPANCY_UNLIMITED)
          g_snprintf (buf, sizeof buf, "%s: -", lim[i].name);
        else
          g_snprintf (buf, sizeof buf, "%s: %u", lim[i].name, lim[i].blocks);
        text (cr, (r->limiters & lim[i].bit) ? mark : co->fg, x, y, buf);
        x += text_width (cr, buf) + px * 1.2;
      }
  }
}

/* A step curve's path over pts in plot r */
static void
step_curve (cairo_t                *cr,
            const KsChartRect      *r,
            const KsOccupancyPoint *pts,
            uint32_t                n,
            double                  mw)
{
  for (uint32_t i = 0; i < n; i++)
    {
      double xi = r->x + (pts[i].x - pts[0].x) / (double) (pts[n - 1].x - pts[0].x) * r->width;
      double yi = r->y + r->height * (1 - pts[i].active_warps_per_sm / mw);

      if (i == 0)
        cairo_move_to (cr, xi, yi);
      else
        {
          double prev = r->y + r->height * (1 - pts[i - 1].active_warps_per_sm / mw);

          cairo_line_to (cr, xi, prev);
          cairo_line_to (cr, xi, yi);
        }
    }
}

static void
draw_plot (cairo_t                      *cr,
           const KsOccupancyChart       *c,
           const KsOccupancyChartLayout *l,
           const Colors                 *co,
           double                        px,
           KsOccupancyCurve              k)
{
  const KsChartRect *r = &l->plots[k];
  const KsOccupancyPoint *pts;
  uint32_t n;
  double mw = max_warps (c), x, y;
  char buf[64];

  cairo_set_font_size (cr, px);
  text (cr, co->fg, r->x + (r->width - text_width (cr, _(curve_titles[k]))) / 2, r->y - px * 0.6,
        _(curve_titles[k]));

  /* the grid: quarters of the maximum */
  cairo_set_line_width (cr, 1);
  for (guint q = 0; q <= 4; q++)
    {
      double gy = floor (r->y + r->height * (1 - q / 4.0)) + 0.5;

      cairo_set_source_rgb (cr, co->grid[0], co->grid[1], co->grid[2]);
      cairo_move_to (cr, r->x, gy);
      cairo_line_to (cr, r->x + r->width, gy);
      cairo_stroke (cr);
      if (k == 0)
        {
          g_snprintf (buf, sizeof buf, "%.0f", mw * q / 4);
          text (cr, co->dim, r->x - text_width (cr, buf) - px * 0.4, gy + px * 0.35, buf);
        }
    }

  curve_points (c, k, &pts, &n);
  if (n < 2)
    return;

  /* the x axis: its ends and middle */
  for (guint t = 0; t <= 2; t++)
    {
      uint32_t v = pts[0].x + (uint32_t) ((pts[n - 1].x - pts[0].x) * t / 2.0);
      double tx = r->x + r->width * t / 2.0;

      format_value (buf, sizeof buf, v, k);
      text (cr, co->dim, tx - (t == 0 ? 0 : t == 1 ? text_width (cr, buf) / 2 : text_width (cr, buf)),
            r->y + r->height + px * 1.3, buf);
    }

  /* the step curve; another kernel's dashed over it */
  cairo_set_source_rgb (cr, CURVE_R, CURVE_G, CURVE_B);
  cairo_set_line_width (cr, c->font_size > 12 ? 3 : 2);
  step_curve (cr, r, pts, n, mw);
  cairo_stroke (cr);
  if (c->other != NULL)
    {
      const KsOccupancyPoint *opts;
      uint32_t on;
      const double dash[2] = { px * 0.5, px * 0.35 };

      curve_points (c->other, k, &opts, &on);
      if (on >= 2)
        {
          cairo_set_source_rgb (cr, OTHER_R, OTHER_G, OTHER_B);
          cairo_set_dash (cr, dash, 2, 0);
          step_curve (cr, r, opts, on, mw);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
    }

  /* a what-if point, then the current one */
  if (c->hover_curve == (int) k
      && ks_occupancy_chart_point (c, l, k, c->hover_value, &x, &y))
    {
      cairo_set_source_rgb (cr, HOVER_R, HOVER_G, HOVER_B);
      cairo_arc (cr, x, y, px * 0.45, 0, 2 * G_PI);
      cairo_fill (cr);
      format_value (buf, sizeof buf, c->hover_value, k);
      text (cr, co->fg, MIN (x + px * 0.6, r->x + r->width - text_width (cr, buf)), y - px * 0.6, buf);
    }
  if (c->other != NULL && c->other->result != NULL
      && ks_occupancy_chart_point (c->other, l, k, ks_occupancy_chart_current (c->other, k), &x,
                                   &y))
    {
      /* hollow, so that a point under it still shows */
      cairo_set_source_rgb (cr, OTHER_R, OTHER_G, OTHER_B);
      cairo_set_line_width (cr, c->font_size > 12 ? 3 : 2);
      cairo_arc (cr, x, y, px * 0.7, 0, 2 * G_PI);
      cairo_stroke (cr);
      if (c->other_label != NULL)
        text (cr, co->fg, MIN (x + px * 0.8, r->x + r->width - text_width (cr, c->other_label)),
              y + px * 1.3, c->other_label);
    }
  if (c->result != NULL && ks_occupancy_chart_point (c, l, k, ks_occupancy_chart_current (c, k), &x, &y))
    {
      cairo_set_source_rgb (cr, MARK_R, MARK_G, MARK_B);
      cairo_arc (cr, x, y, px * 0.55, 0, 2 * G_PI);
      cairo_fill (cr);
      if (c->other != NULL && c->label != NULL)
        text (cr, co->fg, MIN (x + px * 0.8, r->x + r->width - text_width (cr, c->label)),
              y - px * 0.6, c->label);
    }
}

void
ks_occupancy_chart_render (cairo_t                *cr,
                           const KsOccupancyChart *c,
                           double                  width,
                           double                  height)
{
  KsOccupancyChartLayout l;
  Colors co;
  double px = c->font_size * 96.0 / 72.0;

  g_return_if_fail (cr != NULL && c != NULL);

  colors_of (c, &co);
  ks_occupancy_chart_layout (c, width, height, &l);
  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb (cr, co.bg[0], co.bg[1], co.bg[2]);
  cairo_paint (cr);
  draw_summary (cr, c, &co, px, width);
  for (guint k = 0; k < KS_OCCUPANCY_N_CURVES; k++)
    draw_plot (cr, c, &l, &co, px, (KsOccupancyCurve) k);
  cairo_set_font_size (cr, px);
  /* Translators: the unit of the charts' vertical axis */
  text (cr, co.dim, px * 0.2, l.plots[0].y - px * 0.6, _("warps/SM"));
  if (c->other != NULL && c->label != NULL && c->other_label != NULL)
    {
      /* Translators: the legend of two kernels' occupancy on one chart */
      g_autofree char *legend = g_strdup_printf (_("%s: solid curve, filled point · %s: dashed "
                                                   "curve, ring"), c->label, c->other_label);

      text (cr, co.dim, width - text_width (cr, legend) - px * 0.5, height - px * 0.4, legend);
    }
  cairo_restore (cr);
}
