/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy-render.c: the Launch Anatomy's pictures (ks-anatomy-render.h). */
#include "ks-anatomy-render.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-render-export.h"
#include "ks-timeline-render.h"

typedef struct
{
  double bg[3], fg[3], dim[3], grid[3], accent[3];
} Colors;

static void
colors_of (gboolean dark,
           Colors  *co)
{
  const double light[5][3] = { { 0.99, 0.99, 0.99 }, { 0.10, 0.10, 0.12 }, { 0.40, 0.40, 0.43 },
                               { 0.85, 0.85, 0.87 }, { 0.11, 0.44, 0.85 } };
  const double dusk[5][3] = { { 0.12, 0.12, 0.13 }, { 0.93, 0.93, 0.93 }, { 0.62, 0.62, 0.65 },
                              { 0.30, 0.30, 0.32 }, { 0.38, 0.63, 0.98 } };
  const double (*p)[3] = dark ? dusk : light;

  memcpy (co->bg, p[0], sizeof co->bg);
  memcpy (co->fg, p[1], sizeof co->fg);
  memcpy (co->dim, p[2], sizeof co->dim);
  memcpy (co->grid, p[3], sizeof co->grid);
  memcpy (co->accent, p[4], sizeof co->accent);
}

static void
clear (cairo_t      *cr,
       const Colors *co)
{
  ks_render_set_rgb (cr, co->bg, 1);
  cairo_paint (cr);
}

/* ---------------------------------------------------------------------- */
/* The launch record */

KsQmdKind
ks_anatomy_qmd_kind (const KsAnatomyQmdField *f)
{
  const char *n = f->name;

  if (g_str_has_prefix (n, "CTA_RASTER"))
    return KS_QMD_KIND_GRID;
  if (g_str_has_prefix (n, "CTA_THREAD"))
    return KS_QMD_KIND_BLOCK;
  if (g_str_has_prefix (n, "CONSTANT_BUFFER"))
    return KS_QMD_KIND_CONSTANTS;
  if (g_str_has_prefix (n, "PROGRAM") || g_str_has_prefix (n, "SASS"))
    return KS_QMD_KIND_PROGRAM;
  if (g_str_has_prefix (n, "RELEASE") || g_str_has_prefix (n, "SEMAPHORE_RELEASE"))
    return KS_QMD_KIND_COMPLETION;
  if (g_str_has_prefix (n, "QMD_"))
    return KS_QMD_KIND_VERSION;
  return KS_QMD_KIND_RESOURCES;
}

void
ks_anatomy_qmd_kind_rgb (KsQmdKind kind,
                         gboolean  dark,
                         double   *rgb)
{
  /* distinct hues, told apart also by a colour-blind reader by lightness */
  static const double light[KS_QMD_N_KINDS][3] = {
    { 0.16, 0.47, 0.85 }, { 0.20, 0.63, 0.33 }, { 0.93, 0.56, 0.13 }, { 0.56, 0.35, 0.78 },
    { 0.07, 0.62, 0.66 }, { 0.84, 0.25, 0.27 }, { 0.55, 0.55, 0.58 },
  };
  static const double dusk[KS_QMD_N_KINDS][3] = {
    { 0.38, 0.63, 0.98 }, { 0.40, 0.80, 0.48 }, { 1.00, 0.70, 0.30 }, { 0.74, 0.56, 0.96 },
    { 0.30, 0.82, 0.84 }, { 0.98, 0.45, 0.45 }, { 0.62, 0.62, 0.66 },
  };

  memcpy (rgb, (dark ? dusk : light)[MIN (kind, KS_QMD_N_KINDS - 1)], 3 * sizeof (double));
}

#define QMD_COLUMNS 8

double
ks_anatomy_qmd_height (double font_px)
{
  return (KS_ANATOMY_QMD_WORDS / QMD_COLUMNS) * font_px * 3.6 + font_px * 0.6;
}

static void
hatch (cairo_t      *cr,
       double        x,
       double        y,
       double        w,
       double        h,
       const double *rgb)
{
  double step = MAX (h / 2.5, 3);

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  ks_render_set_rgb (cr, rgb, 0.25);
  cairo_paint (cr);
  ks_render_set_rgb (cr, rgb, 0.9);
  cairo_set_line_width (cr, 1);
  for (double d = -h; d < w; d += step)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
ks_anatomy_render_qmd (cairo_t         *cr,
                       const KsAnatomy *an,
                       gboolean         dark,
                       double           font_px,
                       double           width,
                       double           height)
{
  Colors co;
  guint cols = QMD_COLUMNS;
  double pad = font_px * 0.3;
  double cell_w = (width - pad) / cols, cell_h = font_px * 3.6;
  double strip_h = font_px * 1.1;

  colors_of (dark, &co);
  cairo_save (cr);
  clear (cr, &co);
  if (an->qmd_version == NULL)
    {
      cairo_restore (cr);
      return;
    }
  for (guint w = 0; w < KS_ANATOMY_QMD_WORDS; w++)
    {
      double x = pad + (w % cols) * cell_w, y = pad + (w / cols) * cell_h;
      double sx = x, sw = cell_w - 2 * pad, bw = sw / 32, sy = y + font_px * 1.05;
      gboolean known = FALSE, driver = FALSE;
      char buf[32];

      /* the bits no field of this launch uses */
      ks_render_set_rgb (cr, co.grid, 0.45);
      cairo_rectangle (cr, sx, sy, sw, strip_h);
      cairo_fill (cr);
      for (uint32_t i = 0; i < an->n_qmd_fields; i++)
        {
          const KsAnatomyQmdField *f = &an->qmd_fields[i];
          uint32_t lo = MAX (f->lo, w * 32), hi = MIN (f->hi, w * 32 + 31);
          double rgb[3], fx, fw;

          if (lo > hi)
            continue;
          ks_anatomy_qmd_kind_rgb (ks_anatomy_qmd_kind (f), dark, rgb);
          fx = sx + (31 - (hi - w * 32)) * bw;
          fw = (hi - lo + 1) * bw;
          if (f->known)
            {
              ks_render_set_rgb (cr, rgb, 1);
              cairo_rectangle (cr, fx, sy, fw, strip_h);
              cairo_fill (cr);
              known = TRUE;
            }
          else
            {
              hatch (cr, fx, sy, fw, strip_h, rgb);
              driver = TRUE;
            }
        }
      ks_render_set_rgb (cr, co.dim, 0.8);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, sx + 0.5, sy + 0.5, sw - 1, strip_h - 1);
      cairo_stroke (cr);

      cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size (cr, font_px * 0.8);
      ks_render_set_rgb (cr, co.dim, 1);
      g_snprintf (buf, sizeof buf, "%u", w);
      cairo_move_to (cr, sx, y + font_px * 0.85);
      cairo_show_text (cr, buf);

      cairo_select_font_face (cr, "Monospace", CAIRO_FONT_SLANT_NORMAL,
                              known ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      /* eight hex digits in the strip's width */
      cairo_set_font_size (cr, MIN (font_px * 0.95, sw / 8 / 0.62));
      if (known || !driver)
        g_snprintf (buf, sizeof buf, "%08X", an->qmd_words[w]);
      else
        g_strlcpy (buf, "????????", sizeof buf);
      ks_render_set_rgb (cr, known ? co.fg : co.dim, known ? 1 : 0.7);
      cairo_move_to (cr, sx, sy + strip_h + font_px * 1.05);
      cairo_show_text (cr, buf);
    }
  cairo_restore (cr);
}

/* ---------------------------------------------------------------------- */
/* Distribution */

void
ks_anatomy_render_waves (cairo_t         *cr,
                         const KsAnatomy *an,
                         uint32_t         wave,
                         gboolean         dark,
                         double           font_px,
                         double           width,
                         double           height)
{
  Colors co;
  uint32_t n = an->sms, b = an->blocks_per_sm, spr, srows, best_cols = 1;
  double best_slot = 0, gap;

  colors_of (dark, &co);
  cairo_save (cr);
  clear (cr, &co);
  if (n == 0 || b == 0)
    {
      cairo_restore (cr);
      return;
    }
  spr = MIN (b, 8);
  srows = (b + spr - 1) / spr;
  gap = MAX (font_px * 0.35, 2);
  /* the most SMs a row that gives the largest slots in the space */
  for (uint32_t cols = 1; cols <= n; cols++)
    {
      uint32_t rows = (n + cols - 1) / cols;
      double slot_w = (width / cols - gap - 4) / spr;
      double slot_h = (height / rows - gap - 4) / srows;
      double slot = MIN (slot_w, slot_h);

      if (slot > best_slot)
        {
          best_slot = slot;
          best_cols = cols;
        }
    }
  best_slot = MIN (best_slot, font_px * 2.5);
  {
    double cw = spr * best_slot + 4 + gap, ch = srows * best_slot + 4 + gap;
    double x0 = MAX ((width - best_cols * cw) / 2, 0);

    for (uint32_t s = 0; s < n; s++)
      {
        double x = x0 + (s % best_cols) * cw, y = (s / best_cols) * ch;
        uint32_t filled = ks_anatomy_wave_blocks (an, wave, s);

        ks_render_set_rgb (cr, co.dim, 0.9);
        cairo_set_line_width (cr, 1);
        cairo_rectangle (cr, x + 0.5, y + 0.5, cw - gap - 1, ch - gap - 1);
        cairo_stroke (cr);
        for (uint32_t k = 0; k < b; k++)
          {
            double sx = x + 2 + (k % spr) * best_slot, sy = y + 2 + (k / spr) * best_slot;
            double inset = MAX (best_slot * 0.12, 0.5);

            cairo_rectangle (cr, sx + inset, sy + inset, best_slot - 2 * inset,
                             best_slot - 2 * inset);
            if (k < filled)
              {
                ks_render_set_rgb (cr, co.accent, 1);
                cairo_fill (cr);
              }
            else
              {
                ks_render_set_rgb (cr, co.grid, 1);
                cairo_fill (cr);
              }
          }
      }
  }
  cairo_restore (cr);
}

/* ---------------------------------------------------------------------- */
/* The roofline */

static void
fraction_label (char  *buf,
                gsize  size,
                double v)
{
  if (v < 1)
    g_snprintf (buf, size, "1/%.0f", 1 / v);
  else
    g_snprintf (buf, size, "%.0f", v);
}

void
ks_anatomy_render_roofline (cairo_t         *cr,
                            const KsAnatomy *an,
                            gboolean         dark,
                            double           font_px,
                            double           width,
                            double           height)
{
  Colors co;
  double left = font_px * 5.5, right = font_px * 1.2, top = font_px * 2.2;
  double bottom = font_px * 3.2;
  double pw = width - left - right, ph = height - top - bottom;
  double x_lo = log2 (1.0 / 64), x_hi = log2 (256), y_lo, y_hi;
  double peak = an->peak_gflops, bw = an->bandwidth_gbs, ridge;
  char buf[64];

  colors_of (dark, &co);
  cairo_save (cr);
  clear (cr, &co);
  if (peak <= 0 || bw <= 0 || pw < 40 || ph < 40)
    {
      cairo_restore (cr);
      return;
    }
  ridge = peak / bw;
  y_hi = ceil (log10 (peak * 2));
  y_lo = floor (log10 (MIN (bw / 64, an->achieved_gflops > 0 ? an->achieved_gflops / 2 : bw)));
#define PX(v) (left + (log2 (v) - x_lo) / (x_hi - x_lo) * pw)
#define PY(v) (top + ph - (log10 (v) - y_lo) / (y_hi - y_lo) * ph)
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, font_px * 0.9);
  cairo_set_line_width (cr, 1);
  /* the grid: powers of 4 across, of 10 up */
  for (double e = x_lo; e <= x_hi + 1e-9; e += 2)
    {
      double v = exp2 (e), x = PX (v);

      ks_render_set_rgb (cr, co.grid, 1);
      cairo_move_to (cr, floor (x) + 0.5, top);
      cairo_line_to (cr, floor (x) + 0.5, top + ph);
      cairo_stroke (cr);
      fraction_label (buf, sizeof buf, v);
      ks_render_set_rgb (cr, co.dim, 1);
      ks_render_text_centred (cr, x, top + ph + font_px * 1.2, buf);
    }
  for (double e = y_lo; e <= y_hi + 1e-9; e += 1)
    {
      double y = PY (pow (10, e));
      cairo_text_extents_t ext;

      ks_render_set_rgb (cr, co.grid, 1);
      cairo_move_to (cr, left, floor (y) + 0.5);
      cairo_line_to (cr, left + pw, floor (y) + 0.5);
      cairo_stroke (cr);
      g_snprintf (buf, sizeof buf, e >= 0 ? "%.0f" : "%g", pow (10, e));
      cairo_text_extents (cr, buf, &ext);
      ks_render_set_rgb (cr, co.dim, 1);
      cairo_move_to (cr, left - ext.x_advance - font_px * 0.4, y + font_px * 0.35);
      cairo_show_text (cr, buf);
    }
  /* the axes' units */
  ks_render_set_rgb (cr, co.dim, 1);
  ks_render_text_centred (cr, left + pw / 2, top + ph + font_px * 2.6, "FLOP/byte");
  cairo_move_to (cr, font_px * 0.2, top - font_px * 1.1);
  cairo_show_text (cr, "GFLOP/s");

  /* the roofs */
  cairo_save (cr);
  cairo_rectangle (cr, left, top, pw, ph);
  cairo_clip (cr);
  ks_render_set_rgb (cr, co.fg, 1);
  cairo_set_line_width (cr, MAX (font_px * 0.18, 2));
  cairo_move_to (cr, PX (exp2 (x_lo)), PY (bw * exp2 (x_lo)));
  cairo_line_to (cr, PX (ridge), PY (peak));
  cairo_line_to (cr, PX (exp2 (x_hi)), PY (peak));
  cairo_stroke (cr);
  cairo_restore (cr);
  cairo_set_font_size (cr, font_px);
  ks_render_set_rgb (cr, co.fg, 1);
  g_snprintf (buf, sizeof buf, "%.0f GB/s", bw);
  {
    double x = PX (ridge / 64), y = PY (bw * ridge / 64);
    double angle = atan2 (PY (peak) - y, PX (ridge) - x);

    cairo_save (cr);
    cairo_move_to (cr, x, y - font_px * 0.5);
    cairo_rotate (cr, angle);
    cairo_show_text (cr, buf);
    cairo_restore (cr);
  }
  g_snprintf (buf, sizeof buf, "FP32 %.1f TFLOP/s", peak / 1e3);
  cairo_move_to (cr, MIN (PX (ridge) + font_px, left + pw - font_px * 12), PY (peak) - font_px * 0.5);
  cairo_show_text (cr, buf);

  /* the launch */
  if (an->global_intensity > 0 && an->achieved_gflops > 0)
    {
      double x = PX (CLAMP (an->global_intensity, exp2 (x_lo), exp2 (x_hi)));
      double y = PY (an->achieved_gflops);

      ks_render_set_rgb (cr, co.accent, 1);
      cairo_arc (cr, x, y, font_px * 0.5, 0, 2 * G_PI);
      cairo_fill (cr);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
      cairo_move_to (cr, x, y + font_px * 0.5);
      cairo_line_to (cr, x, top + ph);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      fraction_label (buf, sizeof buf, an->global_intensity);
      if (an->global_intensity >= 1)
        g_snprintf (buf, sizeof buf, "%.3g", an->global_intensity);
      {
        g_autofree char *label = g_strdup_printf ("%s, %.0f GFLOP/s", buf, an->achieved_gflops);

        cairo_move_to (cr, x + font_px * 0.8, y + font_px * 1.4);
        cairo_show_text (cr, label);
      }
    }
#undef PX
#undef PY
  cairo_restore (cr);
}

/* ---------------------------------------------------------------------- */
/* One scheduler's warps */

double
ks_anatomy_scheduler_height (const KsAnatomy *an,
                             double           font_px)
{
  /* the ruler, the rows, two rows of legend */
  return font_px * (2.4 + 1.6 * MAX (an->n_sched_warps, 1) + 4.4);
}

/* A step of 1, 2 or 5 times a power of ten that puts about n ticks over
 * `span` */
static double
nice_step (double span,
           double n)
{
  double raw = span / MAX (n, 1), p = pow (10, floor (log10 (MAX (raw, 1e-9))));

  return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

void
ks_anatomy_render_scheduler (cairo_t         *cr,
                             const KsAnatomy *an,
                             gboolean         dark,
                             gboolean         projector,
                             double           font_px,
                             double           width,
                             double           height)
{
  Colors co;
  double left, top = font_px * 2.4, row_h = font_px * 1.6, pw, cycles = MAX (an->sched_cycles, 1);
  double x = 0, y;
  gboolean pipes[KS_N_PIPES] = { FALSE }, stalls[KS_N_STALLS] = { FALSE };
  char buf[64];

  colors_of (dark, &co);
  cairo_save (cr);
  clear (cr, &co);
  if (an->n_sched_warps == 0)
    {
      cairo_restore (cr);
      return;
    }
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, font_px * 0.9);
  {
    cairo_text_extents_t ext;

    /* the timeline's row names: b0 w4 (block 0, warp 4) */
    cairo_text_extents (cr, "b000 w00", &ext);
    left = ext.x_advance + font_px;
  }
  pw = width - left - font_px;
  if (pw < 40)
    {
      cairo_restore (cr);
      return;
    }
#define CX(c) (left + (c) / cycles * pw)
  /* the cycle ruler */
  {
    double step = nice_step (cycles, pw / (font_px * 7));

    cairo_set_line_width (cr, 1);
    for (double c = 0; c <= cycles; c += step)
      {
        ks_render_set_rgb (cr, co.grid, 1);
        cairo_move_to (cr, floor (CX (c)) + 0.5, top - font_px * 0.3);
        cairo_line_to (cr, floor (CX (c)) + 0.5, top + row_h * an->n_sched_warps);
        cairo_stroke (cr);
        g_snprintf (buf, sizeof buf, "%.0f", c);
        ks_render_set_rgb (cr, co.dim, 1);
        ks_render_text_centred (cr, CX (c), top - font_px * 0.6, buf);
      }
    ks_render_set_rgb (cr, co.dim, 1);
    cairo_move_to (cr, font_px * 0.3, top - font_px * 0.6);
    cairo_show_text (cr, _("cycle"));
  }
  for (uint32_t w = 0; w < an->n_sched_warps; w++)
    {
      const KsAnatomySchedWarp *sw = &an->sched_warps[w];
      double ry = top + w * row_h, bh = row_h * 0.7, by = ry + (row_h - bh) / 2;

      g_snprintf (buf, sizeof buf, "b%u w%u", sw->cta, sw->warp_in_cta);
      ks_render_set_rgb (cr, co.fg, 1);
      cairo_move_to (cr, font_px * 0.3, ry + row_h * 0.5 + font_px * 0.33);
      cairo_show_text (cr, buf);
      for (uint32_t e = sw->first_event; e < sw->first_event + sw->n_events; e++)
        {
          const KsTimingEvent *ev = &an->sched_events[e];
          KsRgb c;

          if (ev->ready > ev->stall_start && ev->stall < KS_N_STALLS)
            {
              c = ks_timeline_stall_color ((KsStallReason) ev->stall);
              cairo_set_source_rgba (cr, c.r, c.g, c.b, projector ? 0.6 : 0.35);
              cairo_rectangle (cr, CX (ev->stall_start), by, CX (ev->ready) - CX (ev->stall_start),
                               bh);
              cairo_fill (cr);
              stalls[ev->stall] = TRUE;
            }
          if (ev->cycle > ev->ready)
            {
              c = ks_timeline_stall_color (KS_STALL_NOT_SELECTED);
              cairo_set_source_rgba (cr, c.r, c.g, c.b, projector ? 0.4 : 0.18);
              cairo_rectangle (cr, CX (ev->ready), by, CX (ev->cycle) - CX (ev->ready), bh);
              cairo_fill (cr);
              stalls[KS_STALL_NOT_SELECTED] = TRUE;
            }
          if (ev->pipe < KS_N_PIPES)
            {
              c = ks_timeline_pipe_color ((KsPipe) ev->pipe);
              cairo_set_source_rgb (cr, c.r, c.g, c.b);
              cairo_rectangle (cr, CX (ev->cycle), ry + 1, MAX (CX (ev->cycle + 1) - CX (ev->cycle),
                                                                2), row_h - 2);
              cairo_fill (cr);
              pipes[ev->pipe] = TRUE;
            }
        }
    }
#undef CX
  /* the legend: the pipes issued to and the reasons waited for */
  y = top + row_h * an->n_sched_warps + font_px * 1.8;
  for (guint k = 0; k < KS_N_PIPES + KS_N_STALLS; k++)
    {
      gboolean pipe = k < KS_N_PIPES;
      guint i = pipe ? k : k - KS_N_PIPES;
      const char *name;
      KsRgb c;
      cairo_text_extents_t ext;

      if (pipe ? !pipes[i] : !stalls[i] || i == KS_STALL_SELECTED)
        continue;
      name = pipe ? ks_pipe_name ((KsPipe) i) : ks_timeline_stall_label ((KsStallReason) i);
      c = pipe ? ks_timeline_pipe_color ((KsPipe) i) : ks_timeline_stall_color ((KsStallReason) i);
      cairo_text_extents (cr, name, &ext);
      /* wrap at the picture's width */
      if (x > 0 && x + font_px * 1.5 + ext.x_advance > width)
        {
          x = 0;
          y += font_px * 1.6;
        }
      cairo_set_source_rgba (cr, c.r, c.g, c.b, pipe ? 1 : projector ? 0.6 : 0.35);
      cairo_rectangle (cr, x + font_px * 0.3, y - font_px * 0.75, font_px * 0.9, font_px * 0.9);
      cairo_fill (cr);
      ks_render_set_rgb (cr, co.fg, 1);
      cairo_move_to (cr, x + font_px * 1.5, y);
      cairo_show_text (cr, name);
      x += font_px * 2.6 + ext.x_advance;
    }
  cairo_restore (cr);
}
