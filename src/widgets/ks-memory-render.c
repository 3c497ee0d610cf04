/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-memory-render.c: bank and cache-line diagrams drawn with Cairo. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-format.h"
#include "ks-memory-render.h"
#include "ks-render-export.h"
#include "ks-sim-memory.h"

/* Okabe-Ito, for wavefronts in order */
static const double wave_colors[8][3] = {
  { 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 },
  { 0xe6 / 255.0, 0x9f / 255.0, 0x00 / 255.0 },
  { 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0 },
  { 0xcc / 255.0, 0x79 / 255.0, 0xa7 / 255.0 },
  { 0x56 / 255.0, 0xb4 / 255.0, 0xe9 / 255.0 },
  { 0xd5 / 255.0, 0x5e / 255.0, 0x00 / 255.0 },
  { 0xf0 / 255.0, 0xe4 / 255.0, 0x42 / 255.0 },
  { 0x7f / 255.0, 0x7f / 255.0, 0x7f / 255.0 },
};

void
ks_memory_conflict_rgb (double *r,
                        double *g,
                        double *b)
{
  *r = 0xd5 / 255.0;
  *g = 0x5e / 255.0;
  *b = 0;
}

void
ks_memory_level_rgb (uint8_t  level,
                     double  *r,
                     double  *g,
                     double  *b)
{
  switch (level)
    {
    case KS_MEM_LEVEL_L1:       /* bluish green */
      *r = 0x00 / 255.0; *g = 0x9e / 255.0; *b = 0x73 / 255.0;
      break;
    case KS_MEM_LEVEL_L2:       /* sky blue */
      *r = 0x56 / 255.0; *g = 0xb4 / 255.0; *b = 0xe9 / 255.0;
      break;
    case KS_MEM_LEVEL_DRAM:     /* vermillion */
      *r = 0xd5 / 255.0; *g = 0x5e / 255.0; *b = 0x00 / 255.0;
      break;
    default:                    /* a store: reddish purple */
      *r = 0xcc / 255.0; *g = 0x79 / 255.0; *b = 0xa7 / 255.0;
      break;
    }
}

void
ks_memory_style_init (KsMemoryStyle *s)
{
  memset (s, 0, sizeof *s);
  s->font_size = KS_RENDER_FONT_SIZE;
  s->wavefronts_shown = -1;
}

typedef struct
{
  double px, left, col_w, lane_y, lane_h, bank_y, bank_h, grid_y, row_h;
} Geometry;

static void
geometry (double               width,
          double               height,
          const KsMemoryStyle *s,
          Geometry            *g)
{
  g->px = s->font_size * 96.0 / 72.0;
  g->left = ceil (g->px * 5);
  g->col_w = MAX ((width - g->left - g->px) / 32.0, 4);
  g->lane_y = ceil (g->px * 3.6);
  g->lane_h = ceil (g->px * 1.7);
  g->bank_y = g->lane_y + g->lane_h + ceil (g->px * 6);
  g->bank_h = ceil (g->px * 2.4);
  g->grid_y = g->bank_y + g->bank_h + ceil (g->px * 2.2);
  g->row_h = ceil (g->px * 1.7);
  (void) height;
}

void
ks_memory_lane_center (double               width,
                       double               height,
                       const KsMemoryStyle *s,
                       uint32_t             lane,
                       double              *x,
                       double              *y)
{
  Geometry g;

  geometry (width, height, s, &g);
  *x = g.left + (lane + 0.5) * g.col_w;
  *y = g.lane_y + g.lane_h / 2;
}

void
ks_memory_bank_center (double               width,
                       double               height,
                       const KsMemoryStyle *s,
                       uint32_t             bank,
                       double              *x,
                       double              *y)
{
  Geometry g;

  geometry (width, height, s, &g);
  *x = g.left + (bank + 0.5) * g.col_w;
  *y = g.bank_y + g.bank_h / 2;
}

void
ks_memory_cell_center (double               width,
                       double               height,
                       const KsMemoryStyle *s,
                       uint32_t             wavefront,
                       uint32_t             bank,
                       double              *x,
                       double              *y)
{
  Geometry g;

  geometry (width, height, s, &g);
  *x = g.left + (bank + 0.5) * g.col_w;
  *y = g.grid_y + (wavefront + 0.5) * g.row_h;
}

/* Global: lines side by side, 4 sectors each, wrapping into rows */
static void
sector_box (const KsGmemAnalysis *r,
            const Geometry       *g,
            double                width,
            uint32_t              sector,
            double               *x,
            double               *y,
            double               *w,
            double               *h)
{
  uint32_t line = 0, per_row;
  double sw = MIN (g->px * 4.5, (width - g->left - g->px) / 8.5), line_w = sw * 4 + g->px * 1.2;

  for (uint32_t i = 0; i < r->n_lines; i++)
    if (r->lines[i] == (r->sectors[sector] & ~(uint64_t) 127))
      line = i;
  per_row = (uint32_t) MAX (1, floor ((width - g->left - g->px) / line_w));
  *w = sw;
  *h = g->px * 2.2;
  *x = g->left + (line % per_row) * line_w + ((r->sectors[sector] & 127) / 32) * sw;
  *y = g->bank_y + (line / per_row) * (*h + g->px * 2.4);
}

void
ks_memory_sector_center (const KsMemAccess   *m,
                         double               width,
                         double               height,
                         const KsMemoryStyle *s,
                         uint32_t             sector,
                         double              *x,
                         double              *y)
{
  KsGmemAnalysis r = ks_gmem_analyze (m->addr, m->size, m->mask);
  Geometry g;
  double bx, by, bw, bh;

  geometry (width, height, s, &g);
  sector_box (&r, &g, width, sector, &bx, &by, &bw, &bh);
  *x = bx + bw / 2;
  *y = by + bh / 2;
}

/* The legend: entries flowing left to right, wrapping at the width.  Text
 * widths are estimated from an average glyph (0.55 em) rather than
 * measured, so the height a widget asks for before it draws is the height
 * it draws. */
typedef enum
{
  SWATCH_FILL,                  /* a filled box */
  SWATCH_OUTLINE,               /* an empty box */
  SWATCH_DOT,                   /* a dot */
  SWATCH_BAR,                   /* a filled box with the "bytes used" bar */
} SwatchKind;

typedef struct
{
  SwatchKind kind;
  double rgb[3];
  double alpha;                 /* as the picture draws it; 0 means 1 */
  char *text;
} LegendItem;

#define LEGEND_GLYPH 0.55
#define LEGEND_LINE 1.5             /* a legend line's height, in px */

static double
legend_item_width (const LegendItem *it,
                   double            px)
{
  return px * 1.6 + strlen (it->text) * px * 0.85 * LEGEND_GLYPH + px * 1.4;
}

static guint
legend_lines (const LegendItem *items,
              guint             n,
              double            px,
              double            width)
{
  double x = 4;
  guint lines = n > 0 ? 1 : 0;

  for (guint i = 0; i < n; i++)
    {
      double w = legend_item_width (&items[i], px);

      if (x > 4 && x + w > width)
        {
          lines++;
          x = 4;
        }
      x += w;
    }
  return lines;
}

static void
legend_draw (cairo_t          *cr,
             const LegendItem *items,
             guint             n,
             double            px,
             double            width,
             double            top,
             const double     *fg)
{
  double x = 4, y = top + px * 1.0;

  cairo_set_font_size (cr, px * 0.85);
  for (guint i = 0; i < n; i++)
    {
      const LegendItem *it = &items[i];
      double w = legend_item_width (it, px);

      if (x > 4 && x + w > width)
        {
          x = 4;
          y += px * LEGEND_LINE;
        }
      cairo_set_source_rgba (cr, it->rgb[0], it->rgb[1], it->rgb[2],
                             it->alpha > 0 ? it->alpha : 1);
      switch (it->kind)
        {
        case SWATCH_FILL:
        case SWATCH_BAR:
          cairo_rectangle (cr, x, y - px * 0.75, px * 1.1, px * 0.9);
          cairo_fill (cr);
          if (it->kind == SWATCH_BAR)
            {
              cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
              cairo_rectangle (cr, x + px * 0.15, y - px * 0.15, px * 0.8, MAX (2, px * 0.12));
              cairo_fill (cr);
            }
          break;
        case SWATCH_OUTLINE:
          cairo_set_line_width (cr, 1);
          cairo_rectangle (cr, x + 0.5, y - px * 0.75 + 0.5, px * 1.1 - 1, px * 0.9 - 1);
          cairo_stroke (cr);
          break;
        case SWATCH_DOT:
        default:
          cairo_arc (cr, x + px * 0.55, y - px * 0.3, px * 0.22, 0, 2 * G_PI);
          cairo_fill (cr);
          break;
        }
      cairo_set_source_rgb (cr, fg[0], fg[1], fg[2]);
      cairo_move_to (cr, x + px * 1.6, y);
      cairo_show_text (cr, it->text);
      x += w;
    }
}

static void
legend_clear (LegendItem *items,
              guint       n)
{
  for (guint i = 0; i < n; i++)
    g_free (items[i].text);
}

#define MAX_LEGEND 16

/* The entries of an access's legend: every colour the picture draws */
static guint
legend_items (const KsMemAccess   *m,
              const KsMemoryStyle *s,
              const double        *fg,
              LegendItem          *items)
{
  guint n = 0;

  if (m->space == KS_PTX_SPACE_SHARED)
    {
      KsSmemAnalysis r = ks_smem_analyze (m->addr, m->size, m->mask, m->store);
      double c[3];

      /* a pass's colour; they repeat every eight passes */
      for (uint32_t w = 0; w < MIN (r.wavefronts, 8u); w++)
        {
          items[n].kind = SWATCH_FILL;
          memcpy (items[n].rgb, wave_colors[w], sizeof items[n].rgb);
          items[n++].text = r.wavefronts > 8 ? g_strdup_printf (_("pass %u, %u, ..."), w + 1, w + 9)
                            : g_strdup_printf (_("pass %u"), w + 1);
        }
      ks_memory_conflict_rgb (&c[0], &c[1], &c[2]);
      items[n].kind = SWATCH_FILL;
      memcpy (items[n].rgb, c, sizeof c);
      items[n++].text = g_strdup (_("xN: a bank with N different words to deliver, one a pass "
                                    "(an N-way conflict)"));
      items[n].kind = SWATCH_FILL;
      memcpy (items[n].rgb, wave_colors[0], sizeof items[n].rgb);
      items[n].alpha = s->projector ? 0.5 : 0.25;
      items[n++].text = g_strdup (_("a bank with one word"));
      items[n].kind = SWATCH_DOT;
      memcpy (items[n].rgb, fg, sizeof items[n].rgb);
      items[n++].text = g_strdup (_("lanes reading one word (a broadcast: no extra pass)"));
    }
  else
    {
      const char *names[] = { N_("L1 hit"), N_("L2 hit"), N_("DRAM"), N_("store") };

      for (guint k = 0; k < 4; k++)
        {
          items[n].kind = SWATCH_FILL;
          ks_memory_level_rgb ((uint8_t) (k + 1), &items[n].rgb[0], &items[n].rgb[1],
                               &items[n].rgb[2]);
          items[n++].text = g_strdup (_(names[k]));
        }
      items[n].kind = SWATCH_BAR;
      ks_memory_level_rgb (KS_MEM_LEVEL_L2, &items[n].rgb[0], &items[n].rgb[1], &items[n].rgb[2]);
      items[n++].text = g_strdup (_("white bar: the bytes of the sector the warp asked for"));
      items[n].kind = SWATCH_OUTLINE;
      memcpy (items[n].rgb, fg, sizeof items[n].rgb);
      items[n].alpha = 0.35;
      items[n++].text = g_strdup (_("a 32-byte sector not moved"));
    }
  g_assert (n <= MAX_LEGEND);
  return n;
}

/* Where the legend starts: under the last pass, or under the last row of
 * lines */
static double
legend_top (const KsMemAccess *m,
            const Geometry    *g,
            double             width)
{
  if (m->space == KS_PTX_SPACE_SHARED)
    {
      KsSmemAnalysis r = ks_smem_analyze (m->addr, m->size, m->mask, m->store);

      return g->grid_y + r.wavefronts * g->row_h + g->px * 0.4;
    }
  else
    {
      KsGmemAnalysis r = ks_gmem_analyze (m->addr, m->size, m->mask);
      double bottom = g->bank_y + g->px * 2.2 + g->px * 1.4;

      /* the last sector's box is in the last row of lines */
      for (uint32_t i = 0; i < r.n_sectors; i++)
        {
          double x, y, w, h;

          sector_box (&r, g, width, i, &x, &y, &w, &h);
          bottom = MAX (bottom, y + h + g->px * 1.4);
        }
      return bottom;
    }
}

double
ks_memory_legend_top (const KsMemAccess   *m,
                      const KsMemoryStyle *s,
                      double               width)
{
  Geometry g;

  g_return_val_if_fail (m != NULL && s != NULL, 0);
  geometry (width, 0, s, &g);
  return legend_top (m, &g, width);
}

double
ks_memory_content_height (const KsMemAccess   *m,
                          const KsMemoryStyle *s,
                          double               width)
{
  const double fg[3] = { 0, 0, 0 };
  LegendItem items[MAX_LEGEND] = { 0 };
  Geometry g;
  guint n, lines;

  g_return_val_if_fail (s != NULL, 0);
  geometry (width, 0, s, &g);
  if (m == NULL)
    return ceil (g.px * 4);
  n = legend_items (m, s, fg, items);
  lines = legend_lines (items, n, g.px, width);
  legend_clear (items, n);
  return ceil (legend_top (m, &g, width) + lines * g.px * LEGEND_LINE + g.px * 0.6);
}

char *
ks_memory_describe (const KsMemAccess *m)
{
  /* the line under the title says it all, in words a screen reader reads */
  return ks_memory_summary (m);
}

static void
draw_lanes (cairo_t           *cr,
            const KsMemAccess *m,
            const Geometry    *g,
            const double      *fg,
            const double      *dim)
{
  char buf[16];

  cairo_set_font_size (cr, g->px * 0.8);
  ks_render_set_rgb (cr, dim, 1);
  cairo_move_to (cr, 2, g->lane_y + g->lane_h * 0.7);
  /* Translators: the row of a warp's 32 lanes in the memory diagram */
  cairo_show_text (cr, C_("memory", "lane"));
  for (uint32_t l = 0; l < 32; l++)
    {
      double x = g->left + l * g->col_w;
      gboolean on = (m->mask >> l) & 1;

      ks_render_set_rgb (cr, fg, on ? 0.85 : 0.2);
      cairo_set_line_width (cr, MAX (1, g->px / 12));
      cairo_rectangle (cr, x + 1.5, g->lane_y + 0.5, g->col_w - 3, g->lane_h);
      cairo_stroke (cr);
      g_snprintf (buf, sizeof buf, "%u", l);
      ks_render_text_centred (cr, x + g->col_w / 2, g->lane_y + g->lane_h * 0.7, buf);
    }
}

static void
draw_shared (cairo_t             *cr,
             const KsMemAccess   *m,
             const KsMemoryStyle *s,
             const Geometry      *g,
             const double        *fg,
             const double        *dim)
{
  KsSmemAnalysis r = ks_smem_analyze (m->addr, m->size, m->mask, m->store);
  uint32_t shown = s->wavefronts_shown < 0 ? r.wavefronts : (uint32_t) MIN ((uint32_t) s->wavefronts_shown, r.wavefronts);
  uint32_t lanes_on_word[32] = { 0 };
  double cr_r, cr_g, cr_b;
  char buf[32];

  ks_memory_conflict_rgb (&cr_r, &cr_g, &cr_b);

  /* lane -> bank lines, one per word the lane touches */
  cairo_set_line_width (cr, MAX (1.2, g->px / 8));
  for (uint32_t l = 0; l < 32; l++)
    {
      uint32_t wf = r.lane_wavefront[l];

      if (!((m->mask >> l) & 1) || wf == KS_MEM_LANE_NONE || wf >= shown)
        continue;
      for (uint32_t b = 0; b < 32; b++)
        if ((r.lane_banks[l] >> b) & 1)
          {
            double x0 = g->left + (l + 0.5) * g->col_w, y0 = g->lane_y + g->lane_h;
            double x1 = g->left + (b + 0.5) * g->col_w, y1 = g->bank_y;

            ks_render_set_rgb (cr, wave_colors[wf % 8], 0.9);
            cairo_move_to (cr, x0, y0);
            cairo_curve_to (cr, x0, (y0 + y1) / 2, x1, (y0 + y1) / 2, x1, y1);
            cairo_stroke (cr);
          }
    }

  /* broadcasts: lanes reading the same word share it for free */
  for (uint32_t l = 0; l < 32; l++)
    if ((m->mask >> l) & 1)
      for (uint32_t k = 0; k < 32; k++)
        if (k != l && ((m->mask >> k) & 1) && m->addr[k] / 4 == m->addr[l] / 4)
          lanes_on_word[l]++;

  /* the banks, with the words each must deliver */
  cairo_set_font_size (cr, g->px * 0.8);
  ks_render_set_rgb (cr, dim, 1);
  cairo_move_to (cr, 2, g->bank_y + g->bank_h * 0.45);
  /* Translators: the row of the 32 shared-memory banks */
  cairo_show_text (cr, C_("memory", "bank"));
  for (uint32_t b = 0; b < 32; b++)
    {
      double x = g->left + b * g->col_w;
      uint32_t words = r.bank_words[b];

      if (words > 1)
        cairo_set_source_rgb (cr, cr_r, cr_g, cr_b);
      else if (words == 1)
        ks_render_set_rgb (cr, wave_colors[0], s->projector ? 0.5 : 0.25);
      else
        ks_render_set_rgb (cr, fg, 0.06);
      cairo_rectangle (cr, x + 1, g->bank_y, g->col_w - 2, g->bank_h);
      cairo_fill (cr);
      ks_render_set_rgb (cr, words > 1 ? (const double[3]) { 1, 1, 1 } : fg, 1);
      g_snprintf (buf, sizeof buf, "%u", b);
      ks_render_text_centred (cr, x + g->col_w / 2, g->bank_y + g->bank_h * 0.42, buf);
      if (words > 1)
        {
          g_snprintf (buf, sizeof buf, "x%u", words);
          ks_render_text_centred (cr, x + g->col_w / 2, g->bank_y + g->bank_h * 0.85, buf);
        }
    }
  for (uint32_t l = 0; l < 32; l++)
    if (lanes_on_word[l] > 0)
      {
        /* a dot under the lane: its word goes to several lanes at once */
        ks_render_set_rgb (cr, fg, 0.8);
        cairo_arc (cr, g->left + (l + 0.5) * g->col_w, g->lane_y + g->lane_h + g->px * 0.45,
                   g->px * 0.22, 0, 2 * G_PI);
        cairo_fill (cr);
      }

  /* the wavefronts: which word each bank delivers in each pass */
  for (uint32_t w = 0; w < r.wavefronts; w++)
    {
      double y = g->grid_y + w * g->row_h;

      cairo_set_font_size (cr, g->px * 0.8);
      ks_render_set_rgb (cr, w < shown ? fg : dim, w < shown ? 1 : 0.5);
      g_snprintf (buf, sizeof buf, _("pass %u"), w + 1);
      cairo_move_to (cr, 2, y + g->row_h * 0.7);
      cairo_show_text (cr, buf);
      if (w >= shown)
        continue;
      for (uint32_t l = 0; l < 32; l++)
        {
          if (!((m->mask >> l) & 1) || r.lane_wavefront[l] != w)
            continue;
          for (uint32_t b = 0; b < 32; b++)
            if ((r.lane_banks[l] >> b) & 1)
              {
                double x = g->left + b * g->col_w;

                ks_render_set_rgb (cr, wave_colors[w % 8], 1);
                cairo_rectangle (cr, x + 1, y + 1, g->col_w - 2, g->row_h - 2);
                cairo_fill (cr);
              }
        }
    }
}

static void
draw_global (cairo_t           *cr,
             const KsMemAccess *m,
             const Geometry    *g,
             const double      *fg,
             const double      *dim,
             double             width)
{
  KsGmemAnalysis r = ks_gmem_analyze (m->addr, m->size, m->mask);
  char buf[48];

  /* lanes -> the sectors their bytes are in */
  cairo_set_line_width (cr, 1);
  for (uint32_t l = 0; l < 32; l++)
    {
      double x0 = g->left + (l + 0.5) * g->col_w, y0 = g->lane_y + g->lane_h, x, y, w, h;

      if (!((m->mask >> l) & 1) || r.lane_sector[l] == KS_MEM_LANE_NONE)
        continue;
      sector_box (&r, g, width, r.lane_sector[l], &x, &y, &w, &h);
      ks_render_set_rgb (cr, fg, 0.35);
      cairo_move_to (cr, x0, y0);
      cairo_curve_to (cr, x0, (y0 + y) / 2, x + w / 2, (y0 + y) / 2, x + w / 2, y);
      cairo_stroke (cr);
    }

  /* the lines, each with its four sectors */
  for (uint32_t i = 0; i < r.n_lines; i++)
    {
      double x, y, w, h;
      uint32_t first = 0;

      for (uint32_t s = 0; s < r.n_sectors; s++)
        if ((r.sectors[s] & ~(uint64_t) 127) == r.lines[i])
          {
            first = s;
            break;
          }
      sector_box (&r, g, width, first, &x, &y, &w, &h);
      x -= ((r.sectors[first] & 127) / 32) * w;
      /* untouched sectors: an outline */
      ks_render_set_rgb (cr, fg, 0.35);
      for (uint32_t q = 0; q < 4; q++)
        {
          cairo_rectangle (cr, x + q * w + 0.5, y + 0.5, w - 1, h - 1);
          cairo_stroke (cr);
        }
      cairo_set_font_size (cr, g->px * 0.75);
      ks_render_set_rgb (cr, dim, 1);
      g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", r.lines[i]);
      cairo_move_to (cr, x, y + h + g->px * 1.0);
      cairo_show_text (cr, buf);
    }
  for (uint32_t s = 0; s < r.n_sectors; s++)
    {
      double x, y, w, h, cr_, cg, cb;

      sector_box (&r, g, width, s, &x, &y, &w, &h);
      ks_memory_level_rgb (s < m->n_levels ? m->level[s] : KS_MEM_LEVEL_L2, &cr_, &cg, &cb);
      cairo_set_source_rgb (cr, cr_, cg, cb);
      cairo_rectangle (cr, x + 1, y + 1, w - 2, h - 2);
      cairo_fill (cr);
      /* the bytes of the sector the warp asked for, as a bar inside */
      cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
      cairo_rectangle (cr, x + 3, y + h - 3 - MAX (2, g->px * 0.12),
                       (w - 6) * __builtin_popcount (r.sector_bytes[s]) / 32.0,
                       MAX (2, g->px * 0.12));
      cairo_fill (cr);
    }
}

char *
ks_memory_summary (const KsMemAccess *m)
{
  unsigned lanes;

  g_return_val_if_fail (m != NULL, NULL);
  lanes = (unsigned) __builtin_popcount (m->mask);
  if (m->space == KS_PTX_SPACE_SHARED)
    {
      KsSmemAnalysis r = ks_smem_analyze (m->addr, m->size, m->mask, m->store);
      g_autofree char *passes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%u pass (%u without conflicts)",
                                                              "%u passes (%u without conflicts)",
                                                              r.wavefronts),
                                                 r.wavefronts, r.ideal_wavefronts);

      /* TRANSLATORS: "4-byte load by 32 lanes: 16 passes (1 without conflicts), worst bank
       * 16-way" */
      return g_strdup_printf (m->store
                              ? g_dngettext (GETTEXT_PACKAGE,
                                             "%u-byte store by %u lane: %s, worst bank %u-way",
                                             "%u-byte store by %u lanes: %s, worst bank %u-way",
                                             lanes)
                              : g_dngettext (GETTEXT_PACKAGE,
                                             "%u-byte load by %u lane: %s, worst bank %u-way",
                                             "%u-byte load by %u lanes: %s, worst bank %u-way",
                                             lanes),
                              m->size, lanes, passes, r.conflict_degree);
    }
  else
    {
      KsGmemAnalysis r = ks_gmem_analyze (m->addr, m->size, m->mask);
      /* the distinct bytes the lanes asked for (a broadcast's lanes share
       * theirs) of the bytes the sectors moved */
      g_autofree char *pct = ks_format_figure (r.transferred_bytes
                                               ? 100.0 * r.unique_bytes / r.transferred_bytes : 0);
      g_autofree char *sectors = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "%u sector (ideal %u)",
                                                               "%u sectors (ideal %u)",
                                                               r.n_sectors),
                                                  r.n_sectors, r.ideal_sectors);
      g_autofree char *lines = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u line",
                                                             "%u lines", r.n_lines), r.n_lines);

      /* TRANSLATORS: "4-byte load by 32 lanes: 8 of 64 bytes used (12.5 %), 2 sectors
       * (ideal 2) in 2 lines" */
      return g_strdup_printf (m->store
                              ? g_dngettext (GETTEXT_PACKAGE,
                                             "%u-byte store by %u lane: %u of %u bytes used "
                                             "(%s %%), %s in %s",
                                             "%u-byte store by %u lanes: %u of %u bytes used "
                                             "(%s %%), %s in %s", lanes)
                              : g_dngettext (GETTEXT_PACKAGE,
                                             "%u-byte load by %u lane: %u of %u bytes used "
                                             "(%s %%), %s in %s",
                                             "%u-byte load by %u lanes: %u of %u bytes used "
                                             "(%s %%), %s in %s", lanes),
                              m->size, lanes, r.unique_bytes, r.transferred_bytes, pct, sectors,
                              lines);
    }
}

void
ks_memory_render (cairo_t             *cr,
                  const KsMemAccess   *m,
                  const char          *title,
                  const KsMemoryStyle *s,
                  double               width,
                  double               height)
{
  const double light[3][3] = { { 0.99, 0.99, 0.99 }, { 0.10, 0.10, 0.12 }, { 0.40, 0.40, 0.43 } };
  const double dark[3][3] = { { 0.12, 0.12, 0.13 }, { 0.93, 0.93, 0.93 }, { 0.62, 0.62, 0.65 } };
  const double (*c)[3] = s->dark ? dark : light;
  g_autofree char *summary = m != NULL ? ks_memory_summary (m) : NULL;
  Geometry g;

  geometry (width, height, s, &g);
  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  ks_render_set_rgb (cr, c[0], 1);
  cairo_paint (cr);
  if (m != NULL)
    {
      draw_lanes (cr, m, &g, c[1], c[2]);
      if (m->space == KS_PTX_SPACE_SHARED)
        draw_shared (cr, m, s, &g, c[1], c[2]);
      else
        draw_global (cr, m, &g, c[1], c[2], width);
      {
        LegendItem items[MAX_LEGEND] = { 0 };
        guint n = legend_items (m, s, c[1], items);

        legend_draw (cr, items, n, g.px, width, legend_top (m, &g, width), c[1]);
        legend_clear (items, n);
      }
    }
  cairo_set_font_size (cr, g.px * 1.1);
  ks_render_set_rgb (cr, c[1], 1);
  cairo_move_to (cr, 4, g.px * 1.4);
  cairo_show_text (cr, title ? title : m ? "" : _("Select a load or store to see its lanes"));
  cairo_set_font_size (cr, g.px * 0.95);
  ks_render_set_rgb (cr, c[2], 1);
  cairo_move_to (cr, 4, g.px * 2.7);
  cairo_show_text (cr, summary ? summary : "");
  cairo_restore (cr);
}
