/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-render.c: a Probe Lab sweep drawn with Cairo. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-probe-render.h"
#include "ks-render-export.h"

/* Okabe-Ito: the points blue, the fitted line vermillion */
static const double point_rgb[3] = { 0.0, 0x72 / 255.0, 0xb2 / 255.0 };
static const double fit_rgb[3] = { 0xd5 / 255.0, 0x5e / 255.0, 0.0 };
/* the second series: reddish purple */
static const double other_rgb[3] = { 0xcc / 255.0, 0x79 / 255.0, 0xa7 / 255.0 };

typedef struct
{
  double left, top, width, height;      /* the plotting area */
  gboolean log_x;
  double x0, x1, y0, y1;                /* the axes' ranges (log2 x when log_x) */
  double px;                            /* the text size in pixels */
  gboolean note_row;                    /* "model" under the title: no room beside it */
} Frame;

void
ks_probe_chart_init (KsProbeChart *c)
{
  g_return_if_fail (c != NULL);
  memset (c, 0, sizeof *c);
  c->font_size = KS_RENDER_FONT_SIZE;
  c->hover = -1;
}

static const KsProbePoint *
point_of (const KsProbeResult *r,
          guint                i)
{
  return &g_array_index (r->points, KsProbePoint, i);
}

/* What the plot puts along x and up y for point i: for the count sweep
 * (fit: the plot's main series has a fitted line), the instructions timed
 * and the cycles (the fit's own terms), else the variable and the cycles
 * per instruction */
static void
values_of (const KsProbeResult *r,
           gboolean             fit,
           guint                i,
           double              *x,
           double              *y)
{
  const KsProbePoint *p = point_of (r, i);

  if (fit)
    {
      *x = (double) p->instructions;
      *y = (double) p->total_cycles;
    }
  else
    {
      *x = p->x;
      *y = p->cycles_per_instruction;
    }
}

/* A round step giving about n ticks over span: 1, 2 or 5 times a power of 10 */
static double
nice_step (double span,
           int    n)
{
  double raw = span / MAX (n, 1), mag, f;

  if (!(raw > 0))
    return 1;
  mag = pow (10, floor (log10 (raw)));
  f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static char *y_label (const KsProbeResult *r, double v);

/* The width of text in the title's font (bold) or the labels' */
static double
text_width (double      px,
            gboolean    bold,
            const char *text)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  cairo_text_extents_t e;

  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, bold ? px * 1.1 : px);
  cairo_text_extents (cr, text, &e);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return e.x_advance;
}

static const char *
model_note (const KsProbeResult *r)
{
  /* a run on a GPU too: the legend tells the model's dots from the
   * measured diamonds */
  return g_strcmp0 (r->ran_on, "model") == 0 ? _("Model, not a measurement") : NULL;
}

/* Whether the sweep's points carry the warps an SM holds (register
 * pressure), written under the x values */
static gboolean
has_warps (const KsProbeResult *r)
{
  return r->points->len > 0 && point_of (r, 0)->resident_warps >= 0;
}

/* The second series, when it is one the plot can draw: the same
 * template's, with points */
static const KsProbeResult *
other_of (const KsProbeChart *c)
{
  const KsProbeResult *o = c->other;

  return o != NULL && c->result != NULL && o->tmpl == c->result->tmpl && o->points != NULL
         && o->points->len > 0 ? o : NULL;
}

static gboolean
frame_of (const KsProbeChart *c,
          double              width,
          double              height,
          Frame              *f)
{
  const KsProbeResult *r = c->result;
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0;

  if (r == NULL || r->points == NULL || r->points->len == 0)
    return FALSE;
  f->px = c->font_size * 96.0 / 72.0;
  for (guint k = 0; k < 2; k++)
    {
      const KsProbeResult *s = k == 0 ? r : other_of (c);

      for (guint i = 0; s != NULL && i < s->points->len; i++)
        {
          double x, y;

          values_of (s, r->have_fit, i, &x, &y);
          xmin = MIN (xmin, x);
          xmax = MAX (xmax, x);
          if (isfinite (y))
            ymax = MAX (ymax, y);
        }
    }
  /* a sweep over powers (1, 2, 4 ... or 8 KiB ... 32 MiB) spaces its
   * points evenly on a log axis; the fit's terms are linear */
  f->log_x = !r->have_fit && xmin > 0 && xmax / xmin >= 8;
  if (f->log_x)
    {
      f->x0 = log2 (xmin) - 0.5;
      f->x1 = log2 (xmax) + 0.5;
    }
  else if (r->have_fit)
    {
      /* from 0, where the fitted line meets the axis at its intercept */
      f->x0 = 0;
      f->x1 = xmax > 0 ? xmax * 1.05 : 1;
    }
  else
    {
      /* a linear sweep (shares in percent): its ends off the frame */
      double span = xmax > xmin ? xmax - xmin : 1;

      f->x0 = xmin - span * 0.08;
      f->x1 = xmax + span * 0.08;
    }
  {
    g_autofree char *title = ks_probe_title (r->tmpl, r->instruction);

    f->note_row = model_note (r) != NULL
                  && text_width (f->px, TRUE, title)
                     + text_width (f->px, FALSE, model_note (r)) + f->px * 2 > width - f->px;
  }
  f->top = f->px * (f->note_row ? 4.8 : 3.4);
  /* room below for the x values, the warps under them (register
   * pressure) and the axis's name */
  f->height = height - f->top - f->px * (has_warps (r) ? 4.8 : 3.6);
  if (f->height <= f->px * 4)
    return FALSE;
  /* room above the highest point for its figure */
  f->y0 = 0;
  f->y1 = ymax > 0 ? ymax * f->height / (f->height - f->px * 2) : 1;
  /* room at the left for the widest label of the y axis */
  {
    double step = nice_step (f->y1 - f->y0, 5), widest = 0;

    for (double v = 0; v <= f->y1 + step * 1e-9; v += step)
      {
        g_autofree char *label = y_label (r, v);

        widest = MAX (widest, text_width (f->px, FALSE, label));
      }
    f->left = widest + f->px * 1.2;
  }
  f->width = width - f->left - f->px * 1.5;
  return f->width > f->px * 4;
}

static double
to_x (const Frame *f,
      double       x)
{
  double v = f->log_x ? log2 (x) : x;

  return f->left + (v - f->x0) / (f->x1 - f->x0) * f->width;
}

static double
to_y (const Frame *f,
      double       y)
{
  return f->top + f->height - (y - f->y0) / (f->y1 - f->y0) * f->height;
}

gboolean
ks_probe_chart_point (const KsProbeChart *c,
                      double              width,
                      double              height,
                      guint               i,
                      double             *x,
                      double             *y)
{
  Frame f;
  double vx, vy;

  g_return_val_if_fail (c != NULL, FALSE);
  if (!frame_of (c, width, height, &f) || i >= c->result->points->len)
    return FALSE;
  values_of (c->result, c->result->have_fit, i, &vx, &vy);
  if (!isfinite (vy))
    return FALSE;
  *x = to_x (&f, vx);
  *y = to_y (&f, vy);
  return TRUE;
}

int
ks_probe_chart_point_at (const KsProbeChart *c,
                         double              width,
                         double              height,
                         double              x,
                         double              y)
{
  double best = INFINITY, reach = c->font_size * 96.0 / 72.0 * 1.2;
  int found = -1;

  g_return_val_if_fail (c != NULL, -1);
  for (guint i = 0; c->result != NULL && i < c->result->points->len; i++)
    {
      double px, py, d;

      if (!ks_probe_chart_point (c, width, height, i, &px, &py))
        continue;
      d = hypot (px - x, py - y);
      if (d <= reach && d < best)
        {
          best = d;
          found = (int) i;
        }
    }
  return found;
}

/* 1.5 K, 32 K, 1.3 M: a count in a tick label's room */
static char *
format_count (double v)
{
  if (v >= 1e6)
    return g_strdup_printf ("%gM", round (v / 1e5) / 10);
  if (v >= 1e4)
    return g_strdup_printf ("%gK", round (v / 1e2) / 10);
  return g_strdup_printf ("%g", v);
}

char *
ks_probe_chart_format_x (const KsProbeResult *r,
                         double               x)
{
  g_return_val_if_fail (r != NULL, NULL);
  if (ks_probe_template_x_is_bytes (r->tmpl))
    {
      if (x >= 1024 * 1024)
        return g_strdup_printf (_("%g MiB"), x / (1024 * 1024));
      if (x >= 1024)
        return g_strdup_printf (_("%g KiB"), x / 1024);
      return g_strdup_printf (_("%g B"), x);
    }
  return g_strdup_printf ("%g", x);
}

static char *
y_label (const KsProbeResult *r,
         double               v)
{
  return r->have_fit ? format_count (v) : g_strdup_printf ("%g", v);
}

static void
text_right (cairo_t    *cr,
            double      x,
            double      y,
            const char *text)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, text, &e);
  cairo_move_to (cr, x - e.x_advance, y);
  cairo_show_text (cr, text);
}

static char *fit_text (cairo_t *cr, const char *text, double width);

static void
draw_axes (cairo_t            *cr,
           const KsProbeChart *c,
           const Frame        *f,
           const double       *fg)
{
  const KsProbeResult *r = c->result;
  double step = nice_step (f->y1 - f->y0, 5);

  cairo_set_line_width (cr, 1);
  /* y: round ticks, with a faint grid */
  for (double v = 0; v <= f->y1 + step * 1e-9; v += step)
    {
      double y = round (to_y (f, v)) + 0.5;
      g_autofree char *label = y_label (r, v);

      ks_render_set_rgb (cr, fg, 0.12);
      cairo_move_to (cr, f->left, y);
      cairo_line_to (cr, f->left + f->width, y);
      cairo_stroke (cr);
      ks_render_set_rgb (cr, fg, 0.85);
      text_right (cr, f->left - f->px * 0.4, y + f->px * 0.35, label);
    }
  /* x: the sweep's own values, but round ticks along a fitted line */
  if (!r->have_fit)
    for (guint i = 0; i < r->points->len; i++)
      {
        g_autofree char *label = ks_probe_chart_format_x (r, point_of (r, i)->x);

        ks_render_set_rgb (cr, fg, 0.85);
        ks_render_text_centred (cr, to_x (f, point_of (r, i)->x), f->top + f->height + f->px * 1.2,
                                label);
        /* the warps an SM holds, under the value (register pressure) */
        if (has_warps (r))
          {
            g_autofree char *w = g_strdup_printf ("%d", point_of (r, i)->resident_warps);

            ks_render_set_rgb (cr, fg, 0.65);
            ks_render_text_centred (cr, to_x (f, point_of (r, i)->x),
                                    f->top + f->height + f->px * 2.4, w);
          }
      }
  else
    {
      double xs = nice_step (f->x1 - f->x0, 5);

      for (double v = 0; v <= f->x1; v += xs)
        {
          g_autofree char *label = format_count (v);

          ks_render_set_rgb (cr, fg, 0.85);
          ks_render_text_centred (cr, to_x (f, v), f->top + f->height + f->px * 1.2, label);
        }
    }
  ks_render_set_rgb (cr, fg, 0.6);
  cairo_rectangle (cr, round (f->left) + 0.5, round (f->top) + 0.5, round (f->width),
                   round (f->height));
  cairo_stroke (cr);

  /* the axes' names */
  ks_render_set_rgb (cr, fg, 0.85);
  if (has_warps (r))
    {
      /* TRANSLATORS: the register-pressure plot's x axis: a row of the
       * values each thread holds in registers, and under each the warps an
       * SM holds with them; keep it short */
      g_autofree char *name = fit_text (cr, _("values held / warps an SM"),
                                        f->width);

      ks_render_text_centred (cr, f->left + f->width / 2, f->top + f->height + f->px * 3.8,
                              name);
    }
  else
    ks_render_text_centred (cr, f->left + f->width / 2, f->top + f->height + f->px * 2.6,
                            _(ks_probe_template_axis (r->tmpl)));
  cairo_move_to (cr, f->left, f->top - f->px * 0.5);
  cairo_show_text (cr, r->have_fit ? _("cycles between the clock reads")
                   : _("cycles per target instruction"));
}

/* A point's figure, as the plot writes it above the point */
static char *
point_figure (const KsProbeResult *r,
              guint                i)
{
  return r->have_fit ? g_strdup_printf ("%" G_GUINT64_FORMAT, point_of (r, i)->total_cycles)
                     : g_strdup_printf ("%.2f", point_of (r, i)->cycles_per_instruction);
}

/* Every how many points a figure has room: 1 when each point's (figures,
 * as point_figure() writes them) fits between it and the next */
static guint
label_step (const Frame         *f,
            const KsProbeResult *r,
            char *const         *figures)
{
  double widest = 0, gap = G_MAXDOUBLE;
  guint n = r->points->len;

  for (guint i = 0; i < n; i++)
    {
      widest = MAX (widest, text_width (f->px, FALSE, figures[i]));
      if (i > 0)
        gap = MIN (gap, fabs (to_x (f, point_of (r, i)->x) - to_x (f, point_of (r, i - 1)->x)));
    }
  if (n < 2 || gap <= 0 || widest + f->px * 0.5 <= gap)
    return 1;
  return (guint) MIN (ceil ((widest + f->px * 0.5) / gap), (double) n);
}

/* text, cut short with an ellipsis to fit in width with cr's font */
static char *
fit_text (cairo_t    *cr,
          const char *text,
          double      width)
{
  cairo_text_extents_t e;
  glong n = g_utf8_strlen (text, -1);

  cairo_text_extents (cr, text, &e);
  if (e.x_advance <= width)
    return g_strdup (text);
  while (n-- > 1)
    {
      g_autofree char *head = g_utf8_substring (text, 0, n);
      char *candidate = g_strconcat (head, "…", NULL);

      cairo_text_extents (cr, candidate, &e);
      if (e.x_advance <= width)
        return candidate;
      g_free (candidate);
    }
  return g_strdup ("…");
}

/* The second series' marker: a hollow diamond of half-width r at (x, y) */
static void
stroke_diamond (cairo_t *cr,
                double   x,
                double   y,
                double   r)
{
  cairo_move_to (cr, x, y - r);
  cairo_line_to (cr, x + r, y);
  cairo_line_to (cr, x, y + r);
  cairo_line_to (cr, x - r, y);
  cairo_close_path (cr);
  cairo_stroke (cr);
}

/* The second series: hollow diamonds joined by a dashed line, and an
 * edited probe's one figure beside its point */
static void
draw_other (cairo_t            *cr,
            const KsProbeChart *c,
            const Frame        *f)
{
  const KsProbeResult *o = other_of (c);
  double rad = f->px * 0.5;
  guint n = 0;

  ks_render_set_rgb (cr, other_rgb, 1);
  cairo_set_line_width (cr, MAX (1.5, f->px * 0.15));
  cairo_set_dash (cr, (double[]) { f->px * 0.5, f->px * 0.35 }, 2, 0);
  for (guint i = 0; i < o->points->len; i++)
    {
      double x, y;

      values_of (o, c->result->have_fit, i, &x, &y);
      if (!isfinite (y))
        continue;
      if (n++ == 0)
        cairo_move_to (cr, to_x (f, x), to_y (f, y));
      else
        cairo_line_to (cr, to_x (f, x), to_y (f, y));
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < o->points->len; i++)
    {
      double x, y, px, py;

      values_of (o, c->result->have_fit, i, &x, &y);
      if (!isfinite (y))
        continue;
      px = to_x (f, x);
      py = to_y (f, y);
      stroke_diamond (cr, px, py, rad);
      if (o->points->len == 1)
        {
          g_autofree char *figure = c->result->have_fit
            ? g_strdup_printf ("%" G_GUINT64_FORMAT, point_of (o, i)->total_cycles)
            : g_strdup_printf ("%.2f", point_of (o, i)->cycles_per_instruction);

          cairo_move_to (cr, px + rad + f->px * 0.4, py + f->px * 1.2);
          cairo_show_text (cr, figure);
        }
    }
}

/* The legend: the run's dot and the second series' diamond, named, at the
 * plot's top right */
static void
draw_legend (cairo_t            *cr,
             const KsProbeChart *c,
             const Frame        *f,
             const double       *fg)
{
  /* TRANSLATORS: the plot's legend for the experiment's own sweep, beside
   * a second series (an edited probe, a saved run) */
  const char *mine = c->result->device != NULL && !c->result->gpu_view
                     /* TRANSLATORS: the plot's legend for the model's figures, beside a
                      * GPU's measured ones */
                     ? _("model") : _("this run");
  const char *theirs = c->other_label ? c->other_label : _("other");
  /* under the fitted line's equation, which takes the top row */
  double rad = f->px * 0.38, y = f->top + f->px * (c->result->have_fit ? 2.9 : 1.4);
  double gap = f->px * 1.2;
  g_autofree char *shown = fit_text (cr, theirs, f->width / 2);
  double w1 = text_width (f->px, FALSE, mine), w2 = text_width (f->px, FALSE, shown);
  double right = f->left + f->width - f->px * 0.6;
  double x2 = right - w2, x1 = x2 - gap - rad * 2 - f->px * 0.4 - w1;

  ks_render_set_rgb (cr, point_rgb, 1);
  cairo_arc (cr, x1 - f->px * 0.4 - rad, y - f->px * 0.35, rad, 0, 2 * G_PI);
  cairo_fill (cr);
  ks_render_set_rgb (cr, fg, 0.9);
  cairo_move_to (cr, x1, y);
  cairo_show_text (cr, mine);
  ks_render_set_rgb (cr, other_rgb, 1);
  cairo_set_line_width (cr, MAX (1.5, f->px * 0.15));
  stroke_diamond (cr, x2 - f->px * 0.4 - rad, y - f->px * 0.35, f->px * 0.5);
  ks_render_set_rgb (cr, fg, 0.9);
  cairo_move_to (cr, x2, y);
  cairo_show_text (cr, shown);
}

void
ks_probe_chart_render (cairo_t            *cr,
                       const KsProbeChart *c,
                       double              width,
                       double              height)
{
  const KsProbeResult *r;
  double fg[3];
  Frame f;

  g_return_if_fail (cr != NULL && c != NULL);
  fg[0] = fg[1] = fg[2] = c->dark ? 0.93 : 0.1;
  r = c->result;
  if (!frame_of (c, width, height, &f))
    return;
  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, f.px * 1.1);
  ks_render_set_rgb (cr, fg, 1);
  {
    g_autofree char *full = ks_probe_title (r->tmpl, r->instruction);
    g_autofree char *title = fit_text (cr, full, width - f.px * 1.0);

    cairo_move_to (cr, f.px * 0.5, f.px * 1.4);
    cairo_show_text (cr, title);
  }
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, f.px);
  /* whose figures these are, where the eye lands first */
  if (model_note (r) != NULL)
    {
      ks_render_set_rgb (cr, fit_rgb, 1);
      if (f.note_row)
        {
          cairo_move_to (cr, f.px * 0.5, f.px * 2.8);
          cairo_show_text (cr, model_note (r));
        }
      else
        text_right (cr, f.left + f.width, f.px * 1.4, model_note (r));
    }
  draw_axes (cr, c, &f, fg);

  cairo_save (cr);
  cairo_rectangle (cr, f.left, f.top, f.width, f.height);
  cairo_clip (cr);
  if (r->have_fit)
    {
      double xa = f.x0, xb = f.x1;

      ks_render_set_rgb (cr, fit_rgb, 0.9);
      cairo_set_line_width (cr, MAX (1.5, f.px * 0.15));
      cairo_set_dash (cr, (double[]) { f.px * 0.6, f.px * 0.4 }, 2, 0);
      cairo_move_to (cr, to_x (&f, xa), to_y (&f, r->slope * xa + r->intercept));
      cairo_line_to (cr, to_x (&f, xb), to_y (&f, r->slope * xb + r->intercept));
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  /* the sweep: a line through its points, each a dot */
  ks_render_set_rgb (cr, point_rgb, 1);
  cairo_set_line_width (cr, MAX (1.5, f.px * 0.15));
  for (guint i = 0, n = 0; i < r->points->len; i++)
    {
      double x, y;

      if (!ks_probe_chart_point (c, width, height, i, &x, &y))
        continue;
      if (n++ == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
  {
    guint n = r->points->len, step;
    g_auto(GStrv) figures = g_new0 (char *, n + 1);

    for (guint i = 0; i < n; i++)
      figures[i] = point_figure (r, i);
    step = label_step (&f, r, figures);
    for (guint i = 0; i < n; i++)
      {
        double x, y, rad = f.px * ((int) i == c->hover ? 0.55 : 0.38);
        gboolean named = i % step == 0 || (int) i == c->hover;

        if (!ks_probe_chart_point (c, width, height, i, &x, &y))
          continue;
        ks_render_set_rgb (cr, point_rgb, 1);
        cairo_arc (cr, x, y, rad, 0, 2 * G_PI);
        cairo_fill (cr);
        /* each point's figure above it, as many as have room; the count
         * sweep's are crowded at the left, so it names the hovered one
         * only */
        if ((!r->have_fit && named) || (int) i == c->hover)
          {
            ks_render_set_rgb (cr, fg, 1);
            ks_render_text_centred (cr, x, y - f.px * 0.8, figures[i]);
          }
      }
  }
  if (other_of (c) != NULL)
    draw_other (cr, c, &f);
  cairo_restore (cr);

  if (other_of (c) != NULL)
    draw_legend (cr, c, &f, fg);
  if (r->have_fit)
    {
      g_autofree char *fit = g_strdup_printf (_("fit: T = %.3f N + %.0f, R² = %.6f"),
                                              r->slope, r->intercept, r->r2);

      g_autofree char *shown = fit_text (cr, fit, f.width - f.px * 1.2);

      ks_render_set_rgb (cr, fit_rgb, 1);
      cairo_move_to (cr, f.left + f.px * 0.6, f.top + f.px * 1.4);
      cairo_show_text (cr, shown);
    }
  cairo_restore (cr);
}

char *
ks_probe_chart_describe (const KsProbeResult *r)
{
  GString *s;
  g_autofree char *title = NULL;

  g_return_val_if_fail (r != NULL, NULL);
  s = g_string_new (NULL);
  title = ks_probe_title (r->tmpl, r->instruction);
  g_string_append_printf (s, _("%s: cycles per target instruction against %s"), title,
                          _(ks_probe_template_axis (r->tmpl)));
  /* the points are the model's unless they are a GPU's (ks_probe_result_measured()) */
  if (!r->gpu_view)
    g_string_append_printf (s, " (%s)", _("model, not a measurement"));
  else
    g_string_append_printf (s, " (%s)", _("measured on a GPU, medians"));
  g_string_append (s, ": ");
  for (guint i = 0; i < r->points->len; i++)
    {
      g_autofree char *x = ks_probe_chart_format_x (r, point_of (r, i)->x);

      g_string_append_printf (s, i ? "; %s: %.2f" : "%s: %.2f", x,
                              point_of (r, i)->cycles_per_instruction);
      if (point_of (r, i)->resident_warps >= 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " (%d warp an SM)",
                                                " (%d warps an SM)",
                                                (gulong) point_of (r, i)->resident_warps),
                                point_of (r, i)->resident_warps);
    }
  g_string_append_c (s, '.');
  if (r->have_fit)
    g_string_append_printf (s, _(" Fitted line: %.3f cycles per instruction plus %.0f, R² %.6f."),
                            r->slope, r->intercept, r->r2);
  return g_string_free (s, FALSE);
}
