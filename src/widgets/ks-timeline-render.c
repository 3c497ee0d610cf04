/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-timeline-render.c: the warp timeline drawn with Cairo. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-render-export.h"
#include "ks-timeline-render.h"

/* Okabe & Ito's colour-blind-safe palette, one colour per pipe */
static const KsRgb pipe_colors[KS_N_PIPES] = {
  [KS_PIPE_INT] = { 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 },    /* blue */
  [KS_PIPE_FP32] = { 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0 },   /* bluish green */
  [KS_PIPE_FP64] = { 0xcc / 255.0, 0x79 / 255.0, 0xa7 / 255.0 },   /* reddish purple */
  [KS_PIPE_SFU] = { 0xe6 / 255.0, 0x9f / 255.0, 0x00 / 255.0 },    /* orange */
  [KS_PIPE_MEM] = { 0xd5 / 255.0, 0x5e / 255.0, 0x00 / 255.0 },    /* vermillion */
  [KS_PIPE_CTRL] = { 0x7f / 255.0, 0x7f / 255.0, 0x7f / 255.0 },   /* grey */
  [KS_PIPE_SHFL] = { 0x56 / 255.0, 0xb4 / 255.0, 0xe9 / 255.0 },   /* sky blue */
  [KS_PIPE_TENSOR] = { 0xf0 / 255.0, 0xe4 / 255.0, 0x42 / 255.0 }, /* yellow */
};

/* Stalls are drawn as a lighter band; the reasons that matter most get the
 * colour of the unit they wait for */
KsRgb
ks_timeline_stall_color (KsStallReason reason)
{
  switch (reason)
    {
    case KS_STALL_LONG_SCOREBOARD:
    case KS_STALL_LG_THROTTLE:
      return pipe_colors[KS_PIPE_MEM];
    case KS_STALL_SHORT_SCOREBOARD:
    case KS_STALL_MIO_THROTTLE:
      return pipe_colors[KS_PIPE_SHFL];
    case KS_STALL_MATH_PIPE_THROTTLE:
    case KS_STALL_WAIT:
      return pipe_colors[KS_PIPE_FP32];
    case KS_STALL_BARRIER:
      return pipe_colors[KS_PIPE_FP64];
    case KS_STALL_BRANCH_RESOLVING:
      return pipe_colors[KS_PIPE_SFU];
    case KS_STALL_NOT_SELECTED:
    case KS_STALL_NO_INSTRUCTION:
    case KS_STALL_SELECTED:
    default:
      return pipe_colors[KS_PIPE_CTRL];
    }
}

KsRgb
ks_timeline_pipe_color (KsPipe pipe)
{
  return pipe < KS_N_PIPES ? pipe_colors[pipe] : pipe_colors[KS_PIPE_CTRL];
}

/* How strongly a stall band is drawn: light at a desk, where the issue
 * blocks should stand out; twice as strong on a projector, which washes
 * pale tints out to white */
static double
stall_alpha (const KsTimelineView *v,
             KsStallReason         reason)
{
  if (reason == KS_STALL_NOT_SELECTED)
    return v->projector ? 0.40 : 0.18;
  return v->projector ? 0.6 : 0.35;
}

static const KsStallReason legend_stalls[] = {
  KS_STALL_LONG_SCOREBOARD, KS_STALL_SHORT_SCOREBOARD, KS_STALL_WAIT, KS_STALL_BARRIER,
  KS_STALL_BRANCH_RESOLVING, KS_STALL_NOT_SELECTED,
};
static const char *const legend_stall_labels[] = {
  N_("memory"), N_("shared/MUFU"), N_("dependency"), N_("barrier"), N_("branch"),
  N_("not selected"),
};

const char *
ks_timeline_stall_label (KsStallReason reason)
{
  for (guint k = 0; k < G_N_ELEMENTS (legend_stalls); k++)
    if (legend_stalls[k] == reason)
      return _(legend_stall_labels[k]);
  return ks_stall_reason_name (reason);
}

/* The legend is a row of entries that wraps at the picture's width: every
 * colour and mark the rows draw, and what a row's name means */
typedef enum
{
  ITEM_PIPE,                    /* a full box */
  ITEM_STALL,                   /* a band */
  ITEM_SPLIT,                   /* a triangle pointing down */
  ITEM_REJOIN,                  /* a triangle pointing up */
  ITEM_BARRIER,                 /* a bar */
  ITEM_LABEL,                   /* dim text that heads a group */
} ItemKind;

typedef struct
{
  ItemKind kind;
  guint index;                  /* the pipe or the stall */
  const char *text;             /* translated */
} LegendItem;

#define N_LEGEND_ITEMS (KS_N_PIPES + 1 + G_N_ELEMENTS (legend_stalls) + 4 + 1)

static guint
legend_items (LegendItem *items)
{
  guint n = 0;

  for (guint p = 0; p < KS_N_PIPES; p++)
    items[n++] = (LegendItem) { ITEM_PIPE, p, ks_pipe_name ((KsPipe) p) };
  items[n++] = (LegendItem) { ITEM_LABEL, 0, _("stall:") };
  for (guint k = 0; k < G_N_ELEMENTS (legend_stalls); k++)
    items[n++] = (LegendItem) { ITEM_STALL, legend_stalls[k],
                                ks_timeline_stall_label (legend_stalls[k]) };
  items[n++] = (LegendItem) { ITEM_SPLIT, 0, _("warp splits") };
  items[n++] = (LegendItem) { ITEM_REJOIN, 0, _("rejoins") };
  items[n++] = (LegendItem) { ITEM_BARRIER, 0, _("barrier") };
  /* Translators: how to read a timeline row's name such as "b0 w4·1" */
  items[n++] = (LegendItem) { ITEM_LABEL, 0, _("row b0 w4·1: block 0, warp 4, sub-partition 1") };
  g_assert (n <= N_LEGEND_ITEMS);
  return n;
}

/* The columns of text as a terminal counts them: a wide character
 * (Hangul, CJK) takes two, about two average Latin glyphs' width */
static glong
text_columns (const char *text)
{
  glong n = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    n += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  return n;
}

/* An entry's width, from an average glyph of 0.62 em, two for a wide
 * character (the layout has no font to measure with) */
static double
legend_item_width (const LegendItem *it,
                   double            px)
{
  double text = text_columns (it->text) * px * 0.62;

  return it->kind == ITEM_LABEL ? text + px * 1.0 : px * 1.5 + text + px * 1.0;
}

static guint
legend_lines (double px,
              double width)
{
  LegendItem items[N_LEGEND_ITEMS];
  guint n = legend_items (items), lines = 1;
  double x = 6;

  for (guint i = 0; i < n; i++)
    {
      double w = legend_item_width (&items[i], px);

      if (x > 6 && x + w > width)
        {
          lines++;
          x = 6;
        }
      x += w;
    }
  return lines;
}

void
ks_timeline_view_init (KsTimelineView *v)
{
  g_return_if_fail (v != NULL);
  memset (v, 0, sizeof *v);
  v->cycles_per_pixel = 1;
  v->row_height = 14;
  v->font_size = KS_RENDER_FONT_SIZE;
  v->hover_warp = -1;
  v->hover_event = -1;
  v->selected_event = -1;
}

void
ks_timeline_layout (const KsTimelineView *v,
                    double                width,
                    double                height,
                    KsTimelineLayout     *l)
{
  double px = v->font_size * 96.0 / 72.0;

  l->label_width = ceil (px * 6.5);
  l->ruler_height = ceil (px * 1.9);
  /* the legend takes as many lines as its entries need at this width */
  l->legend_height = ceil (px * (0.4 + 1.6 * legend_lines (px, width)));
  l->overview_height = ceil (px * 2.2);
  l->legend_top = MAX (height - l->legend_height, 0);
  l->overview_top = MAX (l->legend_top - l->overview_height, 0);
  l->rows_top = l->ruler_height;
  l->rows_height = MAX (l->overview_top - l->rows_top - 2, 0);
  l->plot_left = l->label_width;
  l->plot_width = MAX (width - l->label_width - 4, 1);
}

void
ks_timeline_view_fit (KsTimelineView *v,
                      const KsTiming *t,
                      double          width,
                      double          height)
{
  KsTimelineLayout l;

  ks_timeline_layout (v, width, height, &l);
  v->first_cycle = 0;
  v->cycles_per_pixel = MAX (MAX ((double) MAX (t->cycles, 1), v->axis_cycles) / l.plot_width,
                             1e-3);
  v->first_row = 0;
}

static int
compare_rows (const void *a,
              const void *b,
              void       *data)
{
  const KsTiming *t = data;
  const KsTimingWarp *x = &t->warps[*(const uint32_t *) a], *y = &t->warps[*(const uint32_t *) b];

  if (x->cta != y->cta)
    return x->cta < y->cta ? -1 : 1;
  if (x->sub_partition != y->sub_partition)
    return x->sub_partition < y->sub_partition ? -1 : 1;
  return x->warp_in_cta < y->warp_in_cta ? -1 : x->warp_in_cta > y->warp_in_cta;
}

uint32_t *
ks_timeline_row_order (const KsTiming *t)
{
  uint32_t *order = g_new (uint32_t, MAX (t->n_warps, 1));

  for (uint32_t i = 0; i < t->n_warps; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) t->n_warps, sizeof (uint32_t), compare_rows, (gpointer) t);
  return order;
}

/* The first event of warp w issued at or after `cycle` */
static uint64_t
first_at (const KsTiming     *t,
          const KsTimingWarp *w,
          double              cycle)
{
  uint64_t lo = 0, hi = w->n_events;

  while (lo < hi)
    {
      uint64_t mid = lo + (hi - lo) / 2;

      if ((double) t->events[w->first_event + mid].cycle < cycle)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
set_rgb (cairo_t *cr,
         KsRgb    c,
         double   alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, alpha);
}

typedef struct
{
  KsRgb bg, fg, dim, grid, row_alt;
} Theme;

static void
theme_of (const KsTimelineView *v,
          Theme                *th)
{
  if (v->dark)
    {
      th->bg = (KsRgb) { 0.12, 0.12, 0.13 };
      th->fg = (KsRgb) { 0.93, 0.93, 0.93 };
      th->dim = (KsRgb) { 0.62, 0.62, 0.65 };
      th->grid = (KsRgb) { 0.26, 0.26, 0.28 };
      th->row_alt = (KsRgb) { 0.15, 0.15, 0.16 };
    }
  else
    {
      th->bg = (KsRgb) { 0.99, 0.99, 0.99 };
      th->fg = (KsRgb) { 0.10, 0.10, 0.12 };
      th->dim = (KsRgb) { 0.40, 0.40, 0.43 };
      th->grid = (KsRgb) { 0.85, 0.85, 0.87 };
      th->row_alt = (KsRgb) { 0.955, 0.955, 0.96 };
    }
}

/* A round step of the ruler: 1, 2 or 5 times a power of ten */
static double
nice_step (double at_least)
{
  double p = pow (10, floor (log10 (MAX (at_least, 1e-9))));

  if (p >= at_least)
    return p;
  if (2 * p >= at_least)
    return 2 * p;
  if (5 * p >= at_least)
    return 5 * p;
  return 10 * p;
}

static void
draw_ruler (cairo_t                *cr,
            const KsTimelineView   *v,
            const KsTimelineLayout *l,
            const Theme            *th,
            double                  height)
{
  double step = nice_step (v->cycles_per_pixel * 90);
  double first = ceil (v->first_cycle / step) * step;
  double px = v->font_size * 96.0 / 72.0;

  cairo_set_font_size (cr, px);
  for (double c = first;; c += step)
    {
      double x = l->plot_left + (c - v->first_cycle) / v->cycles_per_pixel;
      char label[32];

      if (x > l->plot_left + l->plot_width)
        break;
      set_rgb (cr, th->grid, 1);
      cairo_rectangle (cr, floor (x), l->rows_top, 1, l->rows_height);
      cairo_fill (cr);
      set_rgb (cr, th->dim, 1);
      cairo_rectangle (cr, floor (x), l->ruler_height - px * 0.5, 1, px * 0.5);
      cairo_fill (cr);
      g_snprintf (label, sizeof label, "%.0f", c);
      cairo_move_to (cr, floor (x) + 3, l->ruler_height - px * 0.7);
      cairo_show_text (cr, label);
    }
  set_rgb (cr, th->dim, 1);
  cairo_move_to (cr, 4, l->ruler_height - px * 0.7);
  /* Translators: the timeline ruler's unit */
  cairo_show_text (cr, _("cycle"));
  (void) height;
}

/* Zoomed out (a cycle or more per pixel), rows are drawn into an image,
 * one pixel column at a time: the pipe that issued most in the column, the
 * share of active lanes, and, where nothing issued, the stall whose band
 * covers the column's middle.  Costs one pass over the visible events and
 * one write per pixel, whatever their number. */
typedef struct
{
  uint32_t *pixels;             /* premultiplied ARGB, plot_width x rows_height */
  int width, height, stride;    /* stride in uint32_t */
  uint8_t *pipe;                /* per column: KsPipe, or 0xff */
  float *frac;                  /* per column: active lanes / 32 */
  uint8_t *stall;               /* per column: KsStallReason, or 0xff */
} Raster;

static uint32_t
premultiplied (KsRgb  c,
               double alpha)
{
  uint32_t a = (uint32_t) lround (alpha * 255);

  return a << 24 | (uint32_t) lround (c.r * alpha * 255) << 16
         | (uint32_t) lround (c.g * alpha * 255) << 8 | (uint32_t) lround (c.b * alpha * 255);
}

/* The pixel column of cycle c (may be negative or past the end) */
static inline int64_t
column_of (double c,
           double first,
           double inv_cpp)
{
  double x = (c - first) * inv_cpp;

  return x >= 0 ? (int64_t) x : -(int64_t) (-x) - 1;
}

static void
raster_flush (Raster         *ra,
              const uint32_t *counts,
              double          lanes,
              uint32_t        n,
              int64_t         col,
              int64_t         col_end)
{
  guint best = 0;

  if (n == 0)
    return;
  for (guint p = 1; p < KS_N_PIPES; p++)
    if (counts[p] > counts[best])
      best = p;
  for (int64_t c = MAX (col, 0); c < MIN (MAX (col_end, col + 1), ra->width); c++)
    {
      ra->pipe[c] = (uint8_t) best;
      ra->frac[c] = (float) (lanes / (32.0 * n));
    }
}

static void
raster_row (Raster                 *ra,
            const KsTiming         *t,
            const KsTimelineView   *v,
            uint32_t                warp,
            int                     y0)
{
  const KsTimingWarp *w = &t->warps[warp];
  const KsTimingEvent *ev = t->events + w->first_event;
  double cpp = v->cycles_per_pixel, inv = 1.0 / cpp, first = v->first_cycle;
  double last_cycle = first + ra->width * cpp;
  int h = (int) v->row_height, block_top = 1, block_h = MAX (h - 3, 2);
  int band_top = (int) lround (h * 0.3), band_h = MAX ((int) lround (h * 0.4), 1);
  uint64_t i = first_at (t, w, first);
  uint32_t counts[KS_N_PIPES];
  double lanes = 0;
  uint32_t n_col = 0;
  int64_t col = G_MININT64, col_end = G_MININT64;

  memset (ra->pipe, 0xff, (size_t) ra->width);
  memset (ra->stall, 0xff, (size_t) ra->width);
  memset (counts, 0, sizeof counts);

  /* back up to the event whose stall band reaches into view */
  if (i > 0)
    i--;
  for (; i < w->n_events; i++)
    {
      const KsTimingEvent *e = &ev[i];
      int64_t c, ce;

      if ((double) e->stall_start > last_cycle)
        break;
      /* what ptxas folds or merges issues nothing: no block, no band */
      if (e->lowered != 0)
        continue;
      if (e->stall != KS_STALL_SELECTED)
        {
          /* the columns whose middle the band covers: held by its reason
           * until ready, then not selected until it issued */
          int64_t c0 = column_of (e->stall_start + 0.5 * cpp, first, inv);
          int64_t c1 = column_of (e->ready + 0.5 * cpp, first, inv);
          int64_t c2 = column_of (e->cycle + 0.5 * cpp, first, inv);

          for (int64_t x = MAX (c0, 0); x < MIN (c1, ra->width); x++)
            ra->stall[x] = e->stall;
          for (int64_t x = MAX (c1, 0); x < MIN (c2, ra->width); x++)
            ra->stall[x] = KS_STALL_NOT_SELECTED;
        }
      if ((double) e->cycle + 1 <= first)
        continue;
      if ((double) e->cycle >= last_cycle)
        break;
      c = column_of (e->cycle, first, inv);
      ce = column_of (e->cycle + 1.0, first, inv);
      if (c != col)
        {
          raster_flush (ra, counts, lanes, n_col, col, col_end);
          memset (counts, 0, sizeof counts);
          lanes = 0;
          n_col = 0;
          col = c;
        }
      col_end = ce;
      counts[e->pipe < KS_N_PIPES ? e->pipe : KS_PIPE_CTRL]++;
      lanes += e->active_lanes;
      n_col++;
    }
  raster_flush (ra, counts, lanes, n_col, col, col_end);

  /* the pixels */
  {
    uint32_t light[KS_N_PIPES], full[KS_N_PIPES], tint[KS_N_STALLS];

    for (guint p = 0; p < KS_N_PIPES; p++)
      {
        light[p] = premultiplied (pipe_colors[p], 0.45);
        full[p] = premultiplied (pipe_colors[p], 1);
      }
    for (guint r = 0; r < KS_N_STALLS; r++)
      tint[r] = premultiplied (ks_timeline_stall_color ((KsStallReason) r),
                               stall_alpha (v, (KsStallReason) r));
    for (int c = 0; c < ra->width; c++)
      {
        if (ra->pipe[c] != 0xff)
          {
            int dark_from = block_top + (int) lround (block_h * (1 - ra->frac[c]));

            for (int y = block_top; y < block_top + block_h && y0 + y < ra->height; y++)
              ra->pixels[(size_t) (y0 + y) * ra->stride + c] = y < dark_from ? light[ra->pipe[c]]
                                                               : full[ra->pipe[c]];
          }
        else if (ra->stall[c] != 0xff)
          for (int y = band_top; y < band_top + band_h && y0 + y < ra->height; y++)
            ra->pixels[(size_t) (y0 + y) * ra->stride + c] = tint[ra->stall[c]];
      }
  }
}

/* Divergence, reconvergence and barrier markers, when zoomed in enough to
 * see them (two cycles a pixel or closer) */
static void
draw_markers (cairo_t              *cr,
              const KsTiming       *t,
              const KsTimelineView *v,
              double                plot_left,
              double                plot_width,
              const Theme          *th,
              uint32_t              warp,
              double                y)
{
  const KsTimingWarp *w = &t->warps[warp];
  double cpp = v->cycles_per_pixel, h = v->row_height;
  double last_cycle = v->first_cycle + plot_width * cpp, block_w = MAX (1.0 / cpp, 1.0);
  /* a marker's half width: 3 px at a desk, larger with the text */
  double mark = 3 * v->font_size / KS_RENDER_FONT_SIZE;

  if (cpp > 2)
    return;
  set_rgb (cr, th->fg, 1);
  for (uint64_t i = first_at (t, w, v->first_cycle); i < w->n_events; i++)
    {
      const KsTimingEvent *e = &t->events[w->first_event + i];
      double x;

      if ((double) e->cycle > last_cycle)
        break;
      if (!(e->flags & (KS_TRACE_DIVERGE | KS_TRACE_RECONVERGE | KS_TRACE_BARRIER)))
        continue;
      x = plot_left + ((double) e->cycle - v->first_cycle) / cpp + block_w / 2;
      if (e->flags & KS_TRACE_BARRIER)
        cairo_rectangle (cr, x - mark / 4, y, mark / 2, h);
      if (e->flags & KS_TRACE_DIVERGE)
        {
          /* a fork: a triangle pointing down */
          cairo_move_to (cr, x - mark, y);
          cairo_line_to (cr, x + mark, y);
          cairo_line_to (cr, x, y + mark * 4 / 3);
          cairo_close_path (cr);
        }
      if (e->flags & KS_TRACE_RECONVERGE)
        {
          /* a join: a triangle pointing up */
          cairo_move_to (cr, x - mark, y + h);
          cairo_line_to (cr, x + mark, y + h);
          cairo_line_to (cr, x, y + h - mark * 4 / 3);
          cairo_close_path (cr);
        }
    }
  cairo_fill (cr);
}

/* One warp's row: stall bands, then issue blocks merged per pixel column */
static void
draw_row (cairo_t                *cr,
          const KsTiming         *t,
          const KsTimelineView   *v,
          const KsTimelineLayout *l,
          const Theme            *th,
          uint32_t                warp,
          double                  y)
{
  const KsTimingWarp *w = &t->warps[warp];
  double last_cycle = v->first_cycle + l->plot_width * v->cycles_per_pixel;
  double h = v->row_height, block_h = MAX (h - 3, 2);
  uint64_t i = first_at (t, w, v->first_cycle);
  uint32_t counts[KS_N_PIPES];
  double lanes = 0;
  uint32_t n_col = 0;
  int64_t col = -1, col_end = -1;
  double band_x0 = -1, band_x1 = -1;
  int band_reason = -1;
  double cpp = v->cycles_per_pixel;

  memset (counts, 0, sizeof counts);

#define FLUSH_BAND()                                                            \
  G_STMT_START {                                                                \
    if (band_reason >= 0 && band_x1 > band_x0)                                  \
      {                                                                         \
        set_rgb (cr, ks_timeline_stall_color ((KsStallReason) band_reason),     \
                 stall_alpha (v, (KsStallReason) band_reason));                 \
        cairo_rectangle (cr, band_x0, y + h * 0.3, band_x1 - band_x0, h * 0.4); \
        cairo_fill (cr);                                                        \
      }                                                                         \
    band_reason = -1;                                                           \
  } G_STMT_END

#define FLUSH_COLUMN()                                                          \
  G_STMT_START {                                                                \
    if (n_col > 0)                                                              \
      {                                                                         \
        guint best = 0;                                                         \
        double x = l->plot_left + col, frac = lanes / (32.0 * n_col);           \
        double bw = (double) MAX (col_end - col, 1);                            \
        for (guint p = 1; p < KS_N_PIPES; p++)                                  \
          if (counts[p] > counts[best])                                         \
            best = p;                                                           \
        set_rgb (cr, pipe_colors[best], 0.45);                                  \
        cairo_rectangle (cr, x, y + 1, bw, block_h);                            \
        cairo_fill (cr);                                                        \
        set_rgb (cr, pipe_colors[best], 1);                                     \
        cairo_rectangle (cr, x, y + 1 + block_h * (1 - frac), bw,               \
                         block_h * frac);                                       \
        cairo_fill (cr);                                                        \
      }                                                                         \
    memset (counts, 0, sizeof counts);                                          \
    lanes = 0;                                                                  \
    n_col = 0;                                                                  \
  } G_STMT_END

  /* the stall band of the first visible event may begin left of the view */
  for (; i < w->n_events; i++)
    {
      const KsTimingEvent *e = &t->events[w->first_event + i];
      int64_t c;

      if ((double) e->stall_start > last_cycle)
        break;
      if (e->lowered != 0)
        continue;

      /* stall bands: [stall_start, ready) held by e->stall, then
       * [ready, cycle) not selected */
      if (e->stall != KS_STALL_SELECTED)
        {
          const struct { double from, to; int reason; } parts[2] = {
            { e->stall_start, e->ready, e->stall },
            { e->ready, e->cycle, KS_STALL_NOT_SELECTED },
          };

          for (guint p = 0; p < 2; p++)
            {
              double x0 = l->plot_left + (MAX (parts[p].from, v->first_cycle) - v->first_cycle) / cpp;
              double x1 = l->plot_left + (MIN (parts[p].to, last_cycle) - v->first_cycle) / cpp;

              if (parts[p].to <= parts[p].from || x1 <= x0)
                continue;
              if (band_reason == parts[p].reason && x0 - band_x1 <= 1.0)
                band_x1 = MAX (band_x1, x1);
              else
                {
                  FLUSH_BAND ();
                  band_reason = parts[p].reason;
                  band_x0 = x0;
                  band_x1 = MAX (x1, x0 + 1);
                }
            }
        }

      if ((double) e->cycle < v->first_cycle)
        continue;
      if ((double) e->cycle > last_cycle)
        break;
      c = (int64_t) floor (((double) e->cycle - v->first_cycle) / cpp);
      if (c != col)
        {
          FLUSH_COLUMN ();
          col = c;
        }
      /* the column ends where the instruction's cycle ends, on a whole
       * pixel, so neighbours neither overlap nor leave gaps */
      col_end = (int64_t) floor (((double) e->cycle + 1 - v->first_cycle) / cpp);
      counts[e->pipe < KS_N_PIPES ? e->pipe : KS_PIPE_CTRL]++;
      lanes += e->active_lanes;
      n_col++;
    }
  FLUSH_COLUMN ();
  FLUSH_BAND ();
#undef FLUSH_BAND
#undef FLUSH_COLUMN
}

gboolean
ks_timeline_event_rect (const KsTiming       *t,
                        const uint32_t       *order,
                        const KsTimelineView *v,
                        double                width,
                        double                height,
                        int64_t               event,
                        double               *rx,
                        double               *ry,
                        double               *rw,
                        double               *rh)
{
  KsTimelineLayout l;
  uint32_t row = G_MAXUINT32;
  const KsTimingEvent *e;
  double x, y;

  if (event < 0 || (uint64_t) event >= t->n_events)
    return FALSE;
  for (uint32_t i = 0; i < t->n_warps; i++)
    {
      const KsTimingWarp *w = &t->warps[order[i]];

      if ((uint64_t) event >= w->first_event && (uint64_t) event < w->first_event + w->n_events)
        {
          row = i;
          break;
        }
    }
  if (row == G_MAXUINT32 || row < v->first_row)
    return FALSE;
  ks_timeline_layout (v, width, height, &l);
  e = &t->events[event];
  x = l.plot_left + ((double) e->cycle - v->first_cycle) / v->cycles_per_pixel;
  y = l.rows_top + (row - v->first_row) * v->row_height;
  if (x < l.plot_left - 2 || x > l.plot_left + l.plot_width
      || y + v->row_height > l.rows_top + l.rows_height)
    return FALSE;
  *rx = x - 2;
  *ry = y - 1;
  *rw = MAX (1.0 / v->cycles_per_pixel, 1.0) + 4;
  *rh = v->row_height + 1;
  return TRUE;
}

static void
outline_event (cairo_t              *cr,
               const KsTiming       *t,
               const KsTimelineView *v,
               const uint32_t       *order,
               double                width,
               double                height,
               int64_t               event,
               KsRgb                 color,
               double                line)
{
  double x, y, w, h;

  if (!ks_timeline_event_rect (t, order, v, width, height, event, &x, &y, &w, &h))
    return;
  set_rgb (cr, color, 1);
  cairo_set_line_width (cr, line);
  cairo_rectangle (cr, x + line / 2, y + line / 2, w - line, h - line);
  cairo_stroke (cr);
}

uint32_t *
ks_timeline_overview_density (const KsTiming *t,
                              uint32_t        n)
{
  uint32_t *density = g_new0 (uint32_t, MAX (n, 1));
  double scale = (double) MAX (n, 1) / MAX ((double) t->cycles, 1);

  for (uint64_t i = 0; i < t->n_events; i++)
    {
      uint32_t c = (uint32_t) MIN ((double) t->events[i].cycle * scale, (double) (MAX (n, 1) - 1));

      density[c]++;
    }
  return density;
}

static void
draw_overview (cairo_t                *cr,
               const KsTiming         *t,
               const KsTimelineView   *v,
               const KsTimelineLayout *l,
               const Theme            *th)
{
  uint32_t n = (uint32_t) MAX (l->plot_width, 1);
  g_autofree uint32_t *counted = NULL;
  const uint32_t *density;
  uint32_t peak = 1;
  double scale = (double) n / MAX ((double) t->cycles, 1);
  double top = l->overview_top + 3, h = l->overview_height - 6;
  double x0, x1;

  if (v->overview != NULL && v->n_overview == n)
    density = v->overview;
  else
    density = counted = ks_timeline_overview_density (t, n);
  for (uint32_t c = 0; c < n; c++)
    peak = MAX (peak, density[c]);
  set_rgb (cr, th->row_alt, 1);
  cairo_rectangle (cr, l->plot_left, top, l->plot_width, h);
  cairo_fill (cr);
  set_rgb (cr, th->dim, 0.8);
  for (uint32_t c = 0; c < n; c++)
    if (density[c] > 0)
      {
        double bh = h * density[c] / peak;

        cairo_rectangle (cr, l->plot_left + c, top + h - bh, 1, bh);
      }
  cairo_fill (cr);
  /* the part in view */
  x0 = l->plot_left + v->first_cycle * scale;
  x1 = l->plot_left + (v->first_cycle + l->plot_width * v->cycles_per_pixel) * scale;
  x0 = CLAMP (x0, l->plot_left, l->plot_left + l->plot_width);
  x1 = CLAMP (x1, x0 + 2, l->plot_left + l->plot_width);
  set_rgb (cr, pipe_colors[KS_PIPE_INT], 0.18);
  cairo_rectangle (cr, x0, top - 2, x1 - x0, h + 4);
  cairo_fill (cr);
  set_rgb (cr, pipe_colors[KS_PIPE_INT], 1);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, floor (x0) + 0.5, top - 1.5, MAX (floor (x1 - x0) - 1, 1), h + 3);
  cairo_stroke (cr);
  set_rgb (cr, th->dim, 1);
  cairo_move_to (cr, 4, top + h * 0.75);
  /* Translators: the overview strip, which shows every warp at once */
  cairo_show_text (cr, _("all"));
}

static void
draw_legend (cairo_t                *cr,
             const KsTimelineLayout *l,
             const KsTimelineView   *v,
             const Theme            *th,
             double                  width)
{
  double px = v->font_size * 96.0 / 72.0;
  double x = 6, y = l->legend_top + px * 1.0;
  LegendItem items[N_LEGEND_ITEMS];
  guint n = legend_items (items);

  cairo_set_font_size (cr, px);
  for (guint i = 0; i < n; i++)
    {
      const LegendItem *it = &items[i];
      double w = legend_item_width (it, px), sx = x;

      if (x > 6 && x + w > width)
        {
          x = sx = 6;
          y += px * 1.6;
        }
      switch (it->kind)
        {
        case ITEM_PIPE:
          set_rgb (cr, pipe_colors[it->index], 1);
          cairo_rectangle (cr, x, y - px * 0.45, px * 1.2, px * 0.9);
          cairo_fill (cr);
          break;
        case ITEM_STALL:
          set_rgb (cr, ks_timeline_stall_color ((KsStallReason) it->index),
                   stall_alpha (v, (KsStallReason) it->index));
          cairo_rectangle (cr, x, y - px * 0.2, px * 1.2, px * 0.4);
          cairo_fill (cr);
          break;
        case ITEM_SPLIT:
        case ITEM_REJOIN:
          {
            double d = it->kind == ITEM_SPLIT ? 1 : -1, y0 = y - d * px * 0.4;

            set_rgb (cr, th->fg, 1);
            cairo_move_to (cr, x + px * 0.3, y0);
            cairo_line_to (cr, x + px * 0.9, y0);
            cairo_line_to (cr, x + px * 0.6, y0 + d * px * 0.6);
            cairo_close_path (cr);
            cairo_fill (cr);
          }
          break;
        case ITEM_BARRIER:
          set_rgb (cr, th->fg, 1);
          cairo_rectangle (cr, x + px * 0.5, y - px * 0.5, MAX (1.5, px / 8), px);
          cairo_fill (cr);
          break;
        case ITEM_LABEL:
        default:
          break;
        }
      if (it->kind != ITEM_LABEL)
        x += px * 1.5;
      set_rgb (cr, it->kind == ITEM_LABEL ? th->dim : th->fg, 1);
      cairo_move_to (cr, x, y + px * 0.35);
      cairo_show_text (cr, it->text);
      x = sx + w;
    }
}

void
ks_timeline_render (cairo_t              *cr,
                    const KsTiming       *t,
                    const KsPtxModule    *module,
                    const KsTimelineView *v,
                    double                width,
                    double                height)
{
  g_autofree uint32_t *order = NULL;
  KsTimelineLayout l;
  Theme th;
  double px = v->font_size * 96.0 / 72.0;
  uint32_t prev_cta = G_MAXUINT32;
  gboolean raster;
  Raster ra = { 0 };
  cairo_surface_t *image = NULL;
  g_autoptr(GArray) marker_rows = g_array_new (FALSE, FALSE, sizeof (uint32_t));

  g_return_if_fail (cr != NULL && t != NULL && v != NULL);

  theme_of (v, &th);
  ks_timeline_layout (v, width, height, &l);
  order = ks_timeline_row_order (t);

  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, px);
  set_rgb (cr, th.bg, 1);
  cairo_paint (cr);

  draw_ruler (cr, v, &l, &th, height);

  /* rows: their backgrounds and labels, and their events as vectors when
   * zoomed in or as an image when a pixel holds a cycle or more */
  raster = !v->vector && l.plot_width >= 1 && l.rows_height >= 1;
  if (raster)
    {
      ra.width = (int) l.plot_width;
      ra.height = (int) l.rows_height;
      image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, ra.width, ra.height);
      ra.pixels = (uint32_t *) (void *) cairo_image_surface_get_data (image);
      ra.stride = cairo_image_surface_get_stride (image) / 4;
      memset (ra.pixels, 0, (size_t) ra.stride * 4 * ra.height);
      ra.pipe = g_new (uint8_t, ra.width);
      ra.stall = g_new (uint8_t, ra.width);
      ra.frac = g_new (float, ra.width);
    }
  cairo_save (cr);
  cairo_rectangle (cr, 0, l.rows_top, width, l.rows_height);
  cairo_clip (cr);
  for (uint32_t r = v->first_row; r < t->n_warps; r++)
    {
      const KsTimingWarp *w = &t->warps[order[r]];
      double y = l.rows_top + (r - v->first_row) * v->row_height;
      char label[48];

      if (y >= l.rows_top + l.rows_height)
        break;
      if (r % 2)
        {
          set_rgb (cr, th.row_alt, 1);
          cairo_rectangle (cr, 0, y, width, v->row_height);
          cairo_fill (cr);
        }
      if (w->cta != prev_cta && r > v->first_row)
        {
          /* blocks are groups of rows */
          set_rgb (cr, th.dim, 1);
          cairo_rectangle (cr, 0, y, width, 1);
          cairo_fill (cr);
        }
      prev_cta = w->cta;
      if (raster)
        {
          raster_row (&ra, t, v, order[r], (int) (y - l.rows_top));
          g_array_append_val (marker_rows, r);
        }
      else
        {
          cairo_save (cr);
          cairo_rectangle (cr, l.plot_left, y, l.plot_width, v->row_height);
          cairo_clip (cr);
          draw_row (cr, t, v, &l, &th, order[r], y);
          draw_markers (cr, t, v, l.plot_left, l.plot_width, &th, order[r], y);
          cairo_restore (cr);
        }
      if (v->row_height >= px * 0.9)
        {
          g_snprintf (label, sizeof label, "b%u w%u·%u", w->cta, w->warp_in_cta, w->sub_partition);
          set_rgb (cr, th.fg, 1);
          cairo_move_to (cr, 4, y + v->row_height * 0.5 + px * 0.35);
          cairo_show_text (cr, label);
        }
    }
  if (raster)
    {
      cairo_surface_mark_dirty (image);
      cairo_set_source_surface (cr, image, l.plot_left, l.rows_top);
      cairo_paint (cr);
      cairo_surface_destroy (image);
      for (guint k = 0; k < marker_rows->len; k++)
        {
          uint32_t r = g_array_index (marker_rows, uint32_t, k);

          draw_markers (cr, t, v, l.plot_left, l.plot_width, &th, order[r],
                        l.rows_top + (r - v->first_row) * v->row_height);
        }
      g_free (ra.pipe);
      g_free (ra.stall);
      g_free (ra.frac);
    }
  cairo_restore (cr);

  ks_timeline_render_highlight (cr, t, order, v, width, height);

  draw_overview (cr, t, v, &l, &th);
  draw_legend (cr, &l, v, &th, width);
  cairo_restore (cr);
  (void) module;
}

void
ks_timeline_render_highlight (cairo_t              *cr,
                              const KsTiming       *t,
                              const uint32_t       *order,
                              const KsTimelineView *v,
                              double                width,
                              double                height)
{
  Theme th;

  theme_of (v, &th);
  cairo_save (cr);
  outline_event (cr, t, v, order, width, height, v->hover_event, th.dim, 1);
  outline_event (cr, t, v, order, width, height, v->selected_event, th.fg, 2);
  cairo_restore (cr);
}

gboolean
ks_timeline_hit (const KsTiming       *t,
                 const uint32_t       *order,
                 const KsTimelineView *v,
                 double                width,
                 double                height,
                 double                x,
                 double                y,
                 uint32_t             *warp,
                 uint64_t             *event)
{
  KsTimelineLayout l;
  const KsTimingWarp *w;
  double cycle, slack;
  uint64_t i, best = G_MAXUINT64;
  double best_d = G_MAXDOUBLE;
  uint32_t row;

  ks_timeline_layout (v, width, height, &l);
  if (x < l.plot_left || y < l.rows_top || y >= l.rows_top + l.rows_height || v->row_height <= 0)
    return FALSE;
  row = v->first_row + (uint32_t) ((y - l.rows_top) / v->row_height);
  if (row >= t->n_warps)
    return FALSE;
  w = &t->warps[order[row]];
  cycle = v->first_cycle + (x - l.plot_left) * v->cycles_per_pixel;
  slack = MAX (3 * v->cycles_per_pixel, 0.5);
  i = first_at (t, w, cycle - slack);
  for (; i < w->n_events; i++)
    {
      double c = t->events[w->first_event + i].cycle, d = fabs (c + 0.5 - cycle);

      if (c > cycle + slack)
        break;
      /* what ptxas folds or merges is not drawn, so it cannot be picked */
      if (t->events[w->first_event + i].lowered != 0)
        continue;
      if (d < best_d)
        {
          best_d = d;
          best = w->first_event + i;
        }
    }
  if (best == G_MAXUINT64)
    return FALSE;
  *warp = order[row];
  *event = best;
  return TRUE;
}

typedef struct
{
  const KsTiming *t;
  const KsPtxModule *module;
  KsTimelineView view;
} ExportData;

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ExportData *d = user_data;

  ks_timeline_render (cr, d->t, d->module, &d->view, width, height);
}

gboolean
ks_timeline_render_export (const KsTiming       *t,
                           const KsPtxModule    *module,
                           const KsTimelineView *v,
                           double                width,
                           double                height,
                           const char           *path,
                           GError              **error)
{
  ExportData d = { t, module, *v };
  KsTimelineLayout l;
  uint64_t visible = 0;

  g_return_val_if_fail (t != NULL && v != NULL && path != NULL, FALSE);

  /* SVG and PDF get shapes while the view holds few enough events to stay
   * a reasonable file; beyond that, the rows are an image in them */
  ks_timeline_layout (v, width, height, &l);
  for (uint32_t w = 0; w < t->n_warps; w++)
    visible += first_at (t, &t->warps[w], v->first_cycle + l.plot_width * v->cycles_per_pixel)
               - first_at (t, &t->warps[w], v->first_cycle);
  d.view.vector = ks_render_path_is_vector (path) && visible <= 20000;
  return ks_render_export (path, width, height, export_draw, &d, error);
}
