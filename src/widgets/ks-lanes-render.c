/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lanes-render.c: the lane view drawn with Cairo. */

#include <math.h>
#include <string.h>

#include "ks-lanes-render.h"

void
ks_lanes_style_init (KsLanesStyle *s)
{
  memset (s, 0, sizeof *s);
  s->font_size = 9;
}

typedef struct
{
  double px, left, col_w, top, row_h;
} Grid;

static void
grid (const KsLanesStyle *s,
      double              width,
      Grid               *g)
{
  g->px = s->font_size * 96.0 / 72.0;
  g->left = ceil (g->px * 7.5);
  g->col_w = MAX ((width - g->left - g->px * 0.5) / 32.0, 6);
  g->top = ceil (g->px * 4.6);
  g->row_h = ceil (g->px * 1.8);
}

void
ks_lanes_cell_center (const KsLanesStyle *s,
                      double              width,
                      uint32_t            row,
                      uint32_t            lane,
                      double             *x,
                      double             *y)
{
  Grid g;

  grid (s, width, &g);
  *x = g.left + (lane + 0.5) * g.col_w;
  *y = g.top + (row + 0.5) * g.row_h;
}

static KsPtxType
type_of (const KsPtxModule *m,
         const KsLaneValue *v)
{
  const KsPtxFunction *fn;

  if (v->ref & KS_PTX_REF_PRED)
    return KS_PTX_TYPE_PRED;
  if (v->function >= m->n_functions)
    return KS_PTX_TYPE_B64;
  fn = &m->functions[v->function];
  if (v->ref >= fn->n_reg_slots || fn->first_slot_type + v->ref >= m->n_slot_types)
    return KS_PTX_TYPE_B64;
  return (KsPtxType) m->slot_types[fn->first_slot_type + v->ref];
}

char *
ks_lanes_format (const KsPtxModule *m,
                 const KsLaneValue *v,
                 uint32_t           lane)
{
  uint64_t x = v->lanes[lane];

  switch (type_of (m, v))
    {
    case KS_PTX_TYPE_PRED:
      return g_strdup (x ? "1" : "0");
    case KS_PTX_TYPE_F32:
      {
        uint32_t b = (uint32_t) x;
        float f;

        memcpy (&f, &b, 4);
        return g_strdup_printf ("%.4g", f);
      }
    case KS_PTX_TYPE_F64:
      {
        double d;

        memcpy (&d, &x, 8);
        return g_strdup_printf ("%.4g", d);
      }
    case KS_PTX_TYPE_S8:
    case KS_PTX_TYPE_S16:
    case KS_PTX_TYPE_S32:
      return g_strdup_printf ("%d", (int32_t) (uint32_t) x);
    case KS_PTX_TYPE_S64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) x);
    case KS_PTX_TYPE_U8:
    case KS_PTX_TYPE_U16:
    case KS_PTX_TYPE_U32:
    case KS_PTX_TYPE_B8:
    case KS_PTX_TYPE_B16:
    case KS_PTX_TYPE_B32:
      x &= 0xffffffffu;
      return x < 100000 ? g_strdup_printf ("%u", (uint32_t) x) : g_strdup_printf ("0x%x", (uint32_t) x);
    default:
      return x < 100000 ? g_strdup_printf ("%" G_GUINT64_FORMAT, x)
             : g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", x);
    }
}

static void
set3 (cairo_t      *cr,
      const double *c,
      double        a)
{
  cairo_set_source_rgba (cr, c[0], c[1], c[2], a);
}

/* Text that fits its cell: shrunk, then cut with an ellipsis */
static void
cell_text (cairo_t    *cr,
           const char *s,
           double      cx,
           double      cy,
           double      w,
           double      px)
{
  cairo_text_extents_t e;
  double size = px * 0.8;
  g_autofree char *t = g_strdup (s);

  cairo_set_font_size (cr, size);
  cairo_text_extents (cr, t, &e);
  while (e.x_advance > w - 2 && size > px * 0.55)
    {
      size *= 0.9;
      cairo_set_font_size (cr, size);
      cairo_text_extents (cr, t, &e);
    }
  while (e.x_advance > w - 2 && strlen (t) > 2)
    {
      size_t n = strlen (t);

      t[n - 2] = '~';
      t[n - 1] = '\0';
      cairo_text_extents (cr, t, &e);
    }
  cairo_move_to (cr, cx - e.x_advance / 2, cy + size * 0.35);
  cairo_show_text (cr, t);
}

void
ks_lanes_render (cairo_t            *cr,
                 const KsPtxModule  *m,
                 const KsLaneTrace  *t,
                 uint32_t            step,
                 const KsLanesStyle *s,
                 double              width,
                 double              height)
{
  const double light[4][3] = { { 0.99, 0.99, 0.99 }, { 0.10, 0.10, 0.12 }, { 0.45, 0.45, 0.48 },
                               { 0.93, 0.93, 0.94 } };
  const double dark[4][3] = { { 0.12, 0.12, 0.13 }, { 0.93, 0.93, 0.93 }, { 0.60, 0.60, 0.63 },
                              { 0.18, 0.18, 0.19 } };
  const double (*c)[3] = s->dark ? dark : light;
  const double blue[3] = { 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 };
  const double green[3] = { 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0 };
  const KsLaneStep *st;
  Grid g;
  char buf[160];

  grid (s, width, &g);
  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  set3 (cr, c[0], 1);
  cairo_paint (cr);
  if (t == NULL || t->n_steps == 0)
    {
      cairo_set_font_size (cr, g.px);
      set3 (cr, c[2], 1);
      cairo_move_to (cr, 6, g.px * 1.6);
      cairo_show_text (cr, "Pick a warp (a row of the timeline) to follow its lanes");
      cairo_restore (cr);
      return;
    }
  step = MIN (step, t->n_steps - 1);
  st = &t->steps[step];

  /* what it is */
  {
    g_autofree char *text = ks_ptx_module_line_text (m, m->insns[st->insn].line);

    cairo_set_font_size (cr, g.px * 1.1);
    set3 (cr, c[1], 1);
    g_snprintf (buf, sizeof buf, "%s", text);
    cairo_move_to (cr, 6, g.px * 1.5);
    cairo_show_text (cr, buf);
    cairo_set_font_size (cr, g.px * 0.9);
    set3 (cr, c[2], 1);
    g_snprintf (buf, sizeof buf, "block %u, warp %u: step %u of %u%s, PTX line %u, %u lanes on "
                "the path, %u ran it", t->cta, t->warp, step + 1, t->n_steps,
                t->truncated ? "+" : "", m->insns[st->insn].line,
                (unsigned) __builtin_popcount (st->active), (unsigned) __builtin_popcount (st->executed));
    cairo_move_to (cr, 6, g.px * 2.9);
    cairo_show_text (cr, buf);
  }

  /* lane numbers */
  cairo_set_font_size (cr, g.px * 0.75);
  set3 (cr, c[2], 1);
  for (uint32_t l = 0; l < 32; l++)
    {
      g_snprintf (buf, sizeof buf, "%u", l);
      cell_text (cr, buf, g.left + (l + 0.5) * g.col_w, g.top - g.px * 0.6, g.col_w, g.px * 0.9);
    }

  /* rows: path, guard, values */
  for (uint32_t row = 0; row < 2 + st->n_values; row++)
    {
      double y = g.top + row * g.row_h;
      const KsLaneValue *v = row >= 2 ? &t->values[st->first_value + row - 2] : NULL;
      g_autofree char *name = v ? ks_lane_value_name (m, v) : NULL;

      if (y + g.row_h > height)
        break;
      if (row % 2 == 0)
        {
          set3 (cr, c[3], 1);
          cairo_rectangle (cr, 0, y, width, g.row_h);
          cairo_fill (cr);
        }
      set3 (cr, c[1], 1);
      cairo_set_font_size (cr, g.px * 0.85);
      cairo_move_to (cr, 6, y + g.row_h * 0.65);
      if (row == 0)
        cairo_show_text (cr, "on path");
      else if (row == 1)
        cairo_show_text (cr, "guard");
      else
        {
          g_snprintf (buf, sizeof buf, "%s %s", name, v->written ? "<- after" : "before");
          cairo_show_text (cr, buf);
        }
      for (uint32_t l = 0; l < 32; l++)
        {
          double x = g.left + l * g.col_w;
          gboolean on = (st->active >> l) & 1, ran = (st->executed >> l) & 1;

          if (row == 0 || row == 1)
            {
              gboolean lit = row == 0 ? on : ran;

              set3 (cr, row == 0 ? blue : green, lit ? 1 : 0.12);
              cairo_rectangle (cr, x + 1, y + 2, g.col_w - 2, g.row_h - 4);
              cairo_fill (cr);
              continue;
            }
          {
            g_autofree char *txt = ks_lanes_format (m, v, l);

            /* a write shows only where it happened */
            if (v->written && !ran)
              continue;
            set3 (cr, on ? c[1] : c[2], on ? 1 : 0.5);
            cell_text (cr, txt, x + g.col_w / 2, y + g.row_h / 2, g.col_w, g.px);
          }
        }
    }
  cairo_restore (cr);
}
