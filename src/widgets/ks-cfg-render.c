/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cfg-render.c: a function's control-flow graph drawn with Cairo. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-cfg-render.h"

#define GLYPH 0.62              /* an average glyph, in em, for sizing boxes */

static void
heat_rgb (uint64_t  count,
          uint64_t  max,
          gboolean  projector,
          double   *r,
          double   *g,
          double   *b)
{
  /* ColorBrewer "Blues": #deebf7, #6baed6, #08519c at a desk; on a
   * projector, which washes the palest out to white, #9ecae1, #4292c6,
   * #08306b (its 300, 600 and 900 steps) */
  const double desk[3][3] = { { 0xde / 255.0, 0xeb / 255.0, 0xf7 / 255.0 },
                              { 0x6b / 255.0, 0xae / 255.0, 0xd6 / 255.0 },
                              { 0x08 / 255.0, 0x51 / 255.0, 0x9c / 255.0 } };
  const double strong[3][3] = { { 0x9e / 255.0, 0xca / 255.0, 0xe1 / 255.0 },
                                { 0x42 / 255.0, 0x92 / 255.0, 0xc6 / 255.0 },
                                { 0x08 / 255.0, 0x30 / 255.0, 0x6b / 255.0 } };
  const double (*stops)[3] = projector ? strong : desk;
  double t = max > 0 && count > 0 ? log1p ((double) count) / log1p ((double) max) : 0;
  int i = t < 0.5 ? 0 : 1;
  double f = t < 0.5 ? t * 2 : (t - 0.5) * 2;

  *r = stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f;
  *g = stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f;
  *b = stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f;
}

void
ks_cfg_heat_rgb (uint64_t  count,
                 uint64_t  max,
                 double   *r,
                 double   *g,
                 double   *b)
{
  heat_rgb (count, max, FALSE, r, g, b);
}

void
ks_cfg_heat_rgb_projector (uint64_t  count,
                           uint64_t  max,
                           double   *r,
                           double   *g,
                           double   *b)
{
  heat_rgb (count, max, TRUE, r, g, b);
}

/* The legend under the graph, in the widget's pixels (it does not zoom):
 * the fill scale, the split outline, the dashed rejoin line, loops and
 * edges that skip blocks.  Entry widths from an average glyph of 0.6 em
 * (two for a wide character). */
typedef enum
{
  ENTRY_HEAT,
  ENTRY_SPLIT,
  ENTRY_REJOIN,
  ENTRY_LOOP,
  ENTRY_SKIP,
  N_ENTRIES
} Entry;

static char *
entry_text (Entry    e,
            uint64_t max)
{
  switch (e)
    {
    case ENTRY_HEAT:
      {
        g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, MAX (max, 1));

        return g_strdup_printf (ngettext ("fill: how often warps ran the block, from once to %s "
                                          "time (log scale)",
                                          "fill: how often warps ran the block, from once to %s "
                                          "times (log scale)", (gulong) MAX (max, 1)), n);
      }
    case ENTRY_SPLIT:
      return g_strdup (_("orange outline: its branch split warps"));
    case ENTRY_REJOIN:
      return g_strdup (_("dashed: where the split warps rejoin"));
    case ENTRY_LOOP:
      return g_strdup (_("left: a loop back"));
    case ENTRY_SKIP:
    default:
      return g_strdup (_("right: a branch that skips blocks"));
    }
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

static double
entry_width (Entry       e,
             const char *text,
             double      px)
{
  return px * (e == ENTRY_HEAT ? 4.2 : 2.4) + text_columns (text) * px * 0.6 + px * 1.2;
}

static guint
legend_lines (double   px,
              double   width,
              uint64_t max)
{
  double x = 4;
  guint lines = 1;

  for (Entry e = 0; e < N_ENTRIES; e++)
    {
      g_autofree char *text = entry_text (e, max);
      double w = entry_width (e, text, px);

      if (x > 4 && x + w > width)
        {
          lines++;
          x = 4;
        }
      x += w;
    }
  return lines;
}

double
ks_cfg_legend_height (double font_size,
                      double width)
{
  double px = font_size * 96.0 / 72.0;

  /* the count in the first entry changes its width a little: leave room
   * for the longest (20 digits) */
  return ceil (px * (0.6 + 1.6 * legend_lines (px, width, G_MAXUINT64)));
}

static void
draw_legend (cairo_t              *cr,
             double                px,
             double                width,
             double                height,
             uint64_t              max,
             const KsCfgViewState *v,
             const double         *fg)
{
  const double orange[3] = { 0xd5 / 255.0, 0x5e / 255.0, 0 };
  double top = height - ks_cfg_legend_height (px * 72.0 / 96.0, width);
  double x = 4, y = top + px * 1.1;
  const double dash[] = { 4, 3 };

  cairo_save (cr);
  cairo_rectangle (cr, 0, top, width, height - top);
  cairo_set_source_rgb (cr, v->dark ? 0.12 : 0.99, v->dark ? 0.12 : 0.99, v->dark ? 0.13 : 0.99);
  cairo_fill (cr);
  cairo_set_font_size (cr, px * 0.9);
  cairo_set_line_width (cr, MAX (1.2, px / 9));
  for (Entry e = 0; e < N_ENTRIES; e++)
    {
      g_autofree char *text = entry_text (e, max);
      double w = entry_width (e, text, px), sx;

      if (x > 4 && x + w > width)
        {
          x = 4;
          y += px * 1.6;
        }
      sx = x;
      switch (e)
        {
        case ENTRY_HEAT:
          /* three steps of the scale: once, the middle, the most */
          for (guint k = 0; k < 3; k++)
            {
              uint64_t most = MAX (max, 1);
              uint64_t count = k == 0 ? 1 : k == 1 ? (uint64_t) sqrt ((double) most) : most;
              double r, g, b;

              heat_rgb (count, MAX (max, 1), v->projector, &r, &g, &b);
              cairo_set_source_rgb (cr, r, g, b);
              cairo_rectangle (cr, x + k * px * 1.2, y - px * 0.8, px * 1.2, px * 1.0);
              cairo_fill (cr);
            }
          x += px * 4.2;
          break;
        case ENTRY_SPLIT:
          cairo_set_source_rgb (cr, orange[0], orange[1], orange[2]);
          cairo_set_line_width (cr, MAX (2.5, px / 5));
          cairo_rectangle (cr, x + 1, y - px * 0.75, px * 1.6, px * 0.9);
          cairo_stroke (cr);
          cairo_set_line_width (cr, MAX (1.2, px / 9));
          x += px * 2.4;
          break;
        case ENTRY_REJOIN:
          cairo_set_source_rgb (cr, orange[0], orange[1], orange[2]);
          cairo_set_dash (cr, dash, 2, 0);
          cairo_move_to (cr, x, y - px * 0.3);
          cairo_line_to (cr, x + px * 1.8, y - px * 0.3);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          x += px * 2.4;
          break;
        case ENTRY_LOOP:
        case ENTRY_SKIP:
        default:
          {
            /* a curve round the side, as the graph draws them */
            double d = e == ENTRY_LOOP ? -1 : 1, cx = x + (e == ENTRY_LOOP ? px * 1.6 : px * 0.4);

            cairo_set_source_rgba (cr, fg[0], fg[1], fg[2], 0.55);
            cairo_move_to (cr, cx, y - px * 0.8);
            cairo_curve_to (cr, cx + d * px * 1.2, y - px * 0.8, cx + d * px * 1.2, y + px * 0.1,
                            cx, y + px * 0.1);
            cairo_stroke (cr);
            x += px * 2.4;
          }
          break;
        }
      cairo_set_source_rgb (cr, fg[0], fg[1], fg[2]);
      cairo_move_to (cr, x, y);
      cairo_show_text (cr, text);
      x = sx + w;
    }
  cairo_restore (cr);
}

void
ks_cfg_view_state_init (KsCfgViewState *v)
{
  memset (v, 0, sizeof *v);
  v->scale = 1;
  v->selected = -1;
}

void
ks_cfg_layout_free (KsCfgLayout *l)
{
  if (l == NULL)
    return;
  g_free (l->nodes);
  g_free (l);
}

KsCfgLayout *
ks_cfg_layout_new (const KsPtxModule *m,
                   uint32_t           function,
                   double             font_size)
{
  const KsPtxFunction *fn;
  const KsPtxBlock *blocks;
  KsCfgLayout *l;
  double px = font_size * 96.0 / 72.0, w, h, gap_x, gap_y;
  g_autofree double *layer_width = NULL;
  g_autofree double *layer_x = NULL;

  g_return_val_if_fail (m != NULL && function < m->n_functions, NULL);

  fn = &m->functions[function];
  blocks = m->blocks + fn->first_block;
  l = g_new0 (KsCfgLayout, 1);
  l->function = function;
  l->font_size = font_size;
  l->n_nodes = fn->first_block + fn->n_blocks <= m->n_blocks ? fn->n_blocks : 0;
  l->nodes = g_new0 (KsCfgNode, MAX (l->n_nodes, 1));

  /* layers: the longest path from the entry over forward edges; blocks
   * are in program order, so one pass does it */
  for (uint32_t b = 0; b < l->n_nodes; b++)
    {
      const KsPtxBlock *pb = &blocks[b];

      l->nodes[b].first_line = pb->first_line;
      l->nodes[b].last_line = pb->last_line;
      l->nodes[b].n_insns = pb->n_insns;
      for (uint32_t e = 0; e < pb->n_succs && pb->first_succ + e < m->n_edges; e++)
        {
          uint32_t s = m->edges[pb->first_succ + e];

          if (s > b && s < l->n_nodes)
            l->nodes[s].layer = MAX (l->nodes[s].layer, l->nodes[b].layer + 1);
        }
      l->n_layers = MAX (l->n_layers, l->nodes[b].layer + 1);
    }

  /* boxes of two lines of text: "B3  lines 40-52" and the counts */
  w = ceil (px * GLYPH * 26);
  h = ceil (px * 3.0);
  gap_x = ceil (px * 2.5);
  gap_y = ceil (px * 2.6);
  layer_width = g_new0 (double, MAX (l->n_layers, 1));
  layer_x = g_new0 (double, MAX (l->n_layers, 1));
  for (uint32_t b = 0; b < l->n_nodes; b++)
    layer_width[l->nodes[b].layer] += (layer_width[l->nodes[b].layer] > 0 ? gap_x : 0) + w;
  for (uint32_t i = 0; i < l->n_layers; i++)
    l->width = MAX (l->width, layer_width[i]);
  /* room on the left for loops and on the right for reconvergence lines
   * and their labels */
  l->width += px * 3 + px * GLYPH * 14;
  for (uint32_t i = 0; i < l->n_layers; i++)
    layer_x[i] = px * 3 + (l->width - px * 3 - px * GLYPH * 14 - layer_width[i]) / 2;
  for (uint32_t b = 0; b < l->n_nodes; b++)
    {
      KsCfgNode *n = &l->nodes[b];

      n->x = layer_x[n->layer];
      n->y = px + n->layer * (h + gap_y);
      n->width = w;
      n->height = h;
      layer_x[n->layer] += w + gap_x;
    }
  l->height = px * 2 + l->n_layers * (h + gap_y);
  return l;
}

static void
arrow_head (cairo_t *cr,
            double   x,
            double   y,
            double   dx,
            double   dy,
            double   size)
{
  double len = hypot (dx, dy), ux, uy;

  if (len <= 0)
    return;
  ux = dx / len;
  uy = dy / len;
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - ux * size - uy * size * 0.5, y - uy * size + ux * size * 0.5);
  cairo_line_to (cr, x - ux * size + uy * size * 0.5, y - uy * size - ux * size * 0.5);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static const KsSimInsnStats *
insn_stats (const KsPtxModule    *m,
            const KsSimInsnStats *stats,
            uint32_t              function,
            uint32_t              insn_in_function)
{
  uint32_t i = m->functions[function].first_insn + insn_in_function;

  return stats != NULL && i < m->n_insns ? &stats[i] : NULL;
}

void
ks_cfg_render (cairo_t              *cr,
               const KsPtxModule    *m,
               const KsCfgLayout    *l,
               const KsSimInsnStats *stats,
               const KsCfgViewState *v,
               double                width,
               double                height)
{
  const KsPtxFunction *fn = &m->functions[l->function];
  const KsPtxBlock *blocks = m->blocks + fn->first_block;
  double px = l->font_size * 96.0 / 72.0;
  const double fg_light[3] = { 0.10, 0.10, 0.12 }, fg_dark[3] = { 0.93, 0.93, 0.93 };
  const double *fg = v->dark ? fg_dark : fg_light;
  uint64_t max = 0;

  cairo_save (cr);
  if (v->dark)
    cairo_set_source_rgb (cr, 0.12, 0.12, 0.13);
  else
    cairo_set_source_rgb (cr, 0.99, 0.99, 0.99);
  cairo_paint (cr);
  cairo_scale (cr, v->scale, v->scale);
  cairo_translate (cr, -v->offset_x, -v->offset_y);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, px);

  for (uint32_t b = 0; b < l->n_nodes; b++)
    if (blocks[b].n_insns > 0)
      {
        const KsSimInsnStats *s = insn_stats (m, stats, l->function, blocks[b].first_insn);

        if (s != NULL)
          max = MAX (max, s->warp_executions);
      }

  /* edges first, under the boxes */
  cairo_set_line_width (cr, MAX (1.2, px / 9));
  for (uint32_t b = 0; b < l->n_nodes; b++)
    {
      const KsPtxBlock *pb = &blocks[b];
      const KsCfgNode *n = &l->nodes[b];

      for (uint32_t e = 0; e < pb->n_succs && pb->first_succ + e < m->n_edges; e++)
        {
          uint32_t s = m->edges[pb->first_succ + e];
          const KsCfgNode *t;
          double x0, y0, x1, y1;

          if (s >= l->n_nodes)
            continue;
          t = &l->nodes[s];
          cairo_set_source_rgba (cr, fg[0], fg[1], fg[2], 0.55);
          if (s > b && t->layer > n->layer + 1)
            {
              /* past other layers: round the right side, so it crosses no
               * block */
              double rx = MAX (n->x + n->width, t->x + t->width) + px * (0.8 + 0.3 * (t->layer - n->layer));

              x0 = n->x + n->width;
              y0 = n->y + n->height * 0.8;
              x1 = t->x + t->width;
              y1 = t->y + t->height * 0.2;
              cairo_move_to (cr, x0, y0);
              cairo_curve_to (cr, rx, y0, rx, y1, x1 + 1, y1);
              cairo_stroke (cr);
              arrow_head (cr, x1, y1, -1, 0, px * 0.6);
            }
          else if (s > b)
            {
              /* forward: bottom to top, spread over the box's width */
              x0 = n->x + n->width * (e + 1) / (pb->n_succs + 1);
              y0 = n->y + n->height;
              x1 = t->x + t->width / 2;
              y1 = t->y;
              cairo_move_to (cr, x0, y0);
              cairo_curve_to (cr, x0, (y0 + y1) / 2, x1, (y0 + y1) / 2, x1, y1 - 1);
              cairo_stroke (cr);
              arrow_head (cr, x1, y1, 0, 1, px * 0.6);
            }
          else
            {
              /* a loop: out of the left side, round and into the target's
               * left side */
              double lx = MIN (n->x, t->x) - px * 2.2;

              x0 = n->x;
              y0 = n->y + n->height * 0.7;
              x1 = t->x;
              y1 = t->y + t->height * 0.3;
              cairo_move_to (cr, x0, y0);
              cairo_curve_to (cr, lx, y0, lx, y1, x1 - 1, y1);
              cairo_stroke (cr);
              arrow_head (cr, x1, y1, 1, 0, px * 0.6);
            }
        }
    }

  /* reconvergence: from a block whose branch split warps to where they join */
  for (uint32_t b = 0; b < l->n_nodes; b++)
    {
      const KsPtxBlock *pb = &blocks[b];
      const KsSimInsnStats *s = pb->n_insns ? insn_stats (m, stats, l->function,
                                                          pb->first_insn + pb->n_insns - 1) : NULL;
      const KsCfgNode *n = &l->nodes[b], *t;
      double rx;
      const double dash[] = { 4, 3 };

      if (s == NULL || s->divergent == 0 || pb->ipdom >= l->n_nodes)
        continue;
      t = &l->nodes[pb->ipdom];
      rx = MAX (n->x + n->width, t->x + t->width) + px * 2.2;
      cairo_set_source_rgb (cr, 0xd5 / 255.0, 0x5e / 255.0, 0);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, n->x + n->width, n->y + n->height * 0.5);
      cairo_curve_to (cr, rx, n->y + n->height * 0.5, rx, t->y + t->height * 0.5,
                      t->x + t->width + 1, t->y + t->height * 0.5);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      arrow_head (cr, t->x + t->width, t->y + t->height * 0.5, -1, 0, px * 0.6);
      {
        char label[32];

        g_snprintf (label, sizeof label, _("rejoin at B%u"), pb->ipdom);
        cairo_move_to (cr, n->x + n->width + px * 0.4, n->y + n->height * 0.5 - px * 0.4);
        cairo_show_text (cr, label);
      }
    }

  /* the blocks */
  for (uint32_t b = 0; b < l->n_nodes; b++)
    {
      const KsPtxBlock *pb = &blocks[b];
      const KsCfgNode *n = &l->nodes[b];
      const KsSimInsnStats *first = pb->n_insns ? insn_stats (m, stats, l->function, pb->first_insn) : NULL;
      const KsSimInsnStats *last = pb->n_insns ? insn_stats (m, stats, l->function,
                                                             pb->first_insn + pb->n_insns - 1) : NULL;
      uint64_t count = first ? first->warp_executions : 0;
      double r, g, bl, lum;
      char line1[96], line2[128];

      heat_rgb (count, max, v->projector, &r, &g, &bl);
      if (stats == NULL)
        r = g = bl = v->dark ? 0.25 : 0.93;
      cairo_set_source_rgb (cr, r, g, bl);
      cairo_rectangle (cr, n->x, n->y, n->width, n->height);
      cairo_fill (cr);
      if (last != NULL && last->divergent > 0)
        {
          cairo_set_source_rgb (cr, 0xd5 / 255.0, 0x5e / 255.0, 0);
          cairo_set_line_width (cr, MAX (2.5, px / 5));
        }
      else
        {
          cairo_set_source_rgba (cr, fg[0], fg[1], fg[2], (int64_t) b == v->selected ? 1 : 0.45);
          cairo_set_line_width (cr, (int64_t) b == v->selected ? MAX (2.5, px / 5) : 1);
        }
      cairo_rectangle (cr, n->x + 0.5, n->y + 0.5, n->width - 1, n->height - 1);
      cairo_stroke (cr);

      lum = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
      if (lum < 0.5)
        cairo_set_source_rgb (cr, 1, 1, 1);
      else
        cairo_set_source_rgb (cr, 0.08, 0.08, 0.1);
      if (pb->first_line == pb->last_line)
        g_snprintf (line1, sizeof line1, _("B%u  line %u  (%u instr.)"), b, pb->first_line,
                    pb->n_insns);
      else
        g_snprintf (line1, sizeof line1, _("B%u  lines %u-%u  (%u instr.)"), b, pb->first_line,
                    pb->last_line, pb->n_insns);
      if (stats == NULL)
        g_snprintf (line2, sizeof line2, "%s", _("not run"));
      else
        {
          /* how often, how full the warps were, and whether it split them */
          double lanes = first && first->warp_executions
                         ? 100.0 * first->active_lanes / (32.0 * first->warp_executions) : 100;
          /* Translators: how many times warps ran a block */
          g_autofree char *ran = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
          g_autofree char *splits = last ? g_strdup_printf ("%" G_GUINT64_FORMAT, last->divergent)
                                    : NULL;
          int len = g_snprintf (line2, sizeof line2, _("ran %s x"), ran);

          if (count > 0 && lanes < 99.5 && len > 0 && (gsize) len < sizeof line2)
            len += g_snprintf (line2 + len, sizeof line2 - (gsize) len, _(", %.0f %% of lanes"),
                               lanes);
          if (last != NULL && last->divergent > 0 && len > 0 && (gsize) len < sizeof line2)
            g_snprintf (line2 + len, sizeof line2 - (gsize) len, _(", splits %s x"),
                        splits);
        }
      cairo_move_to (cr, n->x + px * 0.5, n->y + px * 1.25);
      cairo_show_text (cr, line1);
      cairo_move_to (cr, n->x + px * 0.5, n->y + px * 2.5);
      cairo_show_text (cr, line2);
    }
  cairo_restore (cr);
  if (v->legend)
    draw_legend (cr, px, width, height, max, v, fg);
}

int64_t
ks_cfg_hit (const KsCfgLayout *l,
            const KsCfgViewState *v,
            double             x,
            double             y)
{
  double gx = x / v->scale + v->offset_x, gy = y / v->scale + v->offset_y;

  for (uint32_t b = 0; b < l->n_nodes; b++)
    {
      const KsCfgNode *n = &l->nodes[b];

      if (gx >= n->x && gx < n->x + n->width && gy >= n->y && gy < n->y + n->height)
        return b;
    }
  return -1;
}
