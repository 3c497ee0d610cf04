/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lanes-render.c: the lane view drawn with Cairo. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-lanes-render.h"
#include "ks-render-export.h"

void
ks_lanes_style_init (KsLanesStyle *s)
{
  memset (s, 0, sizeof *s);
  s->font_size = KS_RENDER_FONT_SIZE;
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

double
ks_lanes_content_height (const KsLanesStyle *s,
                         const KsLaneTrace  *t,
                         uint32_t            step)
{
  Grid g;
  uint32_t rows = 2;

  grid (s, 1000, &g);
  if (t != NULL && t->n_steps > 0)
    rows += t->steps[MIN (step, t->n_steps - 1)].n_values;
  return ceil (g.top + rows * g.row_h + g.px * 0.5);
}

gboolean
ks_lanes_hit (const KsLanesStyle *s,
              double              width,
              double              x,
              double              y,
              uint32_t           *row,
              uint32_t           *lane)
{
  Grid g;

  grid (s, width, &g);
  if (x < g.left || x >= g.left + 32 * g.col_w || y < g.top)
    return FALSE;
  *lane = (uint32_t) ((x - g.left) / g.col_w);
  *row = (uint32_t) ((y - g.top) / g.row_h);
  return *lane < 32;
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

/* Where a value's text breaks in two: a hex word after its "0x" and
 * half of its digits, a number in exponent form before its "e", anything
 * else in the middle */
static size_t
break_at (const char *t)
{
  size_t n = strlen (t);
  const char *e = strchr (t, 'e');

  if (g_str_has_prefix (t, "0x") && n > 3)
    return 2 + (n - 2 + 1) / 2;
  if (e != NULL && e != t && e[1] != '\0')
    return (size_t) (e - t);
  return (n + 1) / 2;
}

/* Shrinks size (from its value down to min) until every line fits w */
static gboolean
shrink_to_fit (cairo_t    *cr,
               char      **lines,
               double      w,
               double      min,
               double     *size)
{
  for (;;)
    {
      gboolean fits = TRUE;

      cairo_set_font_size (cr, *size);
      for (guint i = 0; lines[i] != NULL && fits; i++)
        {
          cairo_text_extents_t e;

          cairo_text_extents (cr, lines[i], &e);
          fits = e.x_advance <= w - 2;
        }
      if (fits)
        return TRUE;
      if (*size * 0.9 < min)
        return FALSE;
      *size *= 0.9;
    }
}

guint
ks_lanes_fit_text (cairo_t    *cr,
                   const char *text,
                   double      w,
                   double      h,
                   double      px,
                   char       *lines[3],
                   double     *size)
{
  size_t n = strlen (text);
  double cap = *size > 0 ? *size : G_MAXDOUBLE;

  lines[0] = g_strdup (text);
  lines[1] = lines[2] = NULL;
  /* one line, hardly smaller than the rest of the view's text (so that
   * the long values of a row all break) */
  *size = MIN (px * 0.8, cap);
  if (shrink_to_fit (cr, lines, w, MIN (px * 0.72, cap), size))
    return 1;
  /* two lines, where the cell is tall enough for them */
  if (h >= px * 1.5 && n >= 2)
    {
      size_t at = break_at (text);

      lines[0][at] = '\0';
      lines[1] = g_strdup (text + at);
      *size = MIN (MIN (px * 0.8, h / 2.3), cap);
      if (shrink_to_fit (cr, lines, w, px * 0.5, size))
        return 2;
      g_clear_pointer (&lines[1], g_free);
      strcpy (lines[0], text);
    }
  /* cut, with a mark that says so */
  *size = px * 0.55;
  cairo_set_font_size (cr, *size);
  for (;;)
    {
      cairo_text_extents_t e;

      cairo_text_extents (cr, lines[0], &e);
      n = strlen (lines[0]);
      if (e.x_advance <= w - 2 || n <= 2)
        break;
      lines[0][n - 2] = '~';
      lines[0][n - 1] = '\0';
    }
  return 1;
}

guint
ks_lanes_shared_prefix (const char *const *texts,
                        guint              n)
{
  size_t len, shared;

  if (n < 2 || texts[0] == NULL || !g_str_has_prefix (texts[0], "0x"))
    return 0;
  len = strlen (texts[0]);
  if (len < 2 + 4)
    return 0;
  shared = len - 1;
  for (guint i = 1; i < n; i++)
    {
      size_t k = 0;

      if (texts[i] == NULL || strlen (texts[i]) != len || !g_str_has_prefix (texts[i], "0x"))
        return 0;
      while (k < shared && texts[i][k] == texts[0][k])
        k++;
      shared = k;
    }
  return shared > 2 ? (guint) shared : 0;
}

/* A cell's text centred on (cx, cy), as ks_lanes_fit_text() lays it out,
 * at most max_size (0: no limit) */
static void
cell_text (cairo_t    *cr,
           const char *s,
           double      cx,
           double      cy,
           double      w,
           double      h,
           double      px,
           double      max_size)
{
  char *lines[3];
  double size = max_size;
  guint n = ks_lanes_fit_text (cr, s, w, h, px, lines, &size);

  cairo_set_font_size (cr, size);
  for (guint i = 0; i < n; i++)
    {
      cairo_text_extents_t e;
      /* two lines sit either side of the centre */
      double baseline = n == 1 ? cy + size * 0.35 : cy + (i == 0 ? -0.12 : 0.88) * size;

      cairo_text_extents (cr, lines[i], &e);
      cairo_move_to (cr, cx - e.x_advance / 2, baseline);
      cairo_show_text (cr, lines[i]);
    }
  for (guint i = 0; i < 3; i++)
    g_free (lines[i]);
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
  char buf[160], prefix_text[64];
  guint shared;
  double row_size;

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
      cairo_show_text (cr, _("Pick a warp (a row of the timeline) to follow its lanes"));
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
    g_snprintf (buf, sizeof buf, _("block %u, warp %u: step %u of %u%s, PTX line %u, %u lanes on "
                                   "the path, %u ran it"), t->cta, t->warp, step + 1, t->n_steps,
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
      cell_text (cr, buf, g.left + (l + 0.5) * g.col_w, g.top - g.px * 0.6, g.col_w, 0, g.px, 0);
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
      /* Hex words too long for their cells (addresses, mostly) that begin
       * alike: the shared digits go once beside the row's name, the lanes
       * show the rest */
      shared = 0;
      if (v != NULL)
        {
          g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
          gboolean fits = TRUE;

          for (uint32_t l = 0; l < 32; l++)
            if (!v->written || ((st->executed >> l) & 1))
              {
                char *txt = ks_lanes_format (m, v, l);

                g_ptr_array_add (texts, txt);
                /* cut on one line: too long */
                if (fits)
                  {
                    char *lines[3];
                    double size = 0;

                    ks_lanes_fit_text (cr, txt, g.col_w, 0, g.px, lines, &size);
                    fits = g_strcmp0 (lines[0], txt) == 0;
                    for (guint i = 0; i < 3; i++)
                      g_free (lines[i]);
                  }
              }
          if (!fits)
            shared = ks_lanes_shared_prefix ((const char *const *) texts->pdata, texts->len);
          if (shared > 0)
            {
              g_autofree char *prefix = g_strndup (texts->pdata[0], shared);

              g_snprintf (prefix_text, sizeof prefix_text, "%s…", prefix);
            }
        }
      /* one size for the row's values, the smallest any of them needs */
      row_size = 0;
      for (uint32_t l = 0; v != NULL && l < 32; l++)
        if (!v->written || ((st->executed >> l) & 1))
          {
            g_autofree char *txt = ks_lanes_format (m, v, l);
            char *lines[3];
            double size = 0;

            ks_lanes_fit_text (cr, shared > 0 && strlen (txt) > shared ? txt + shared - 1 : txt,
                               g.col_w, g.row_h, g.px, lines, &size);
            row_size = row_size > 0 ? MIN (row_size, size) : size;
            for (guint i = 0; i < 3; i++)
              g_free (lines[i]);
          }
      set3 (cr, c[1], 1);
      cairo_set_font_size (cr, g.px * 0.85);
      cairo_move_to (cr, 6, y + (shared ? g.row_h * 0.45 : g.row_h * 0.65));
      if (row == 0)
        cairo_show_text (cr, _("on path"));
      else if (row == 1)
        cairo_show_text (cr, _("guard"));
      else
        {
          g_snprintf (buf, sizeof buf, v->written ? _("%s <- after") : _("%s before"), name);
          cairo_show_text (cr, buf);
        }
      if (shared > 0)
        {
          set3 (cr, c[2], 1);
          cairo_set_font_size (cr, g.px * 0.7);
          cairo_move_to (cr, 6, y + g.row_h * 0.88);
          cairo_show_text (cr, prefix_text);
        }
      for (uint32_t l = 0; l < 32; l++)
        {
          double x = g.left + l * g.col_w;
          gboolean on = (st->active >> l) & 1, ran = (st->executed >> l) & 1;

          if (row == 0 || row == 1)
            {
              gboolean lit = row == 0 ? on : ran;

              set3 (cr, row == 0 ? blue : green, lit ? 1 : s->projector ? 0.25 : 0.12);
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
            if (shared > 0 && strlen (txt) > shared)
              {
                g_autofree char *rest = g_strconcat ("…", txt + shared, NULL);

                cell_text (cr, rest, x + g.col_w / 2, y + g.row_h / 2, g.col_w, g.row_h, g.px,
                           row_size);
              }
            else
              cell_text (cr, txt, x + g.col_w / 2, y + g.row_h / 2, g.col_w, g.row_h, g.px,
                         row_size);
          }
        }
    }
  cairo_restore (cr);
}
