/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-texture-render.c: a texture fetch's footprints drawn with Cairo. */

#ifndef GETTEXT_PACKAGE
#define GETTEXT_PACKAGE "kernelscope"
#endif

#include <glib/gi18n-lib.h>

#include "ks-render-export.h"
#include <math.h>
#include <string.h>

#include "ks-sim-tex.h"
#include "ks-texture-render.h"

/* A texture of at most this many texels a side is shown whole */
#define WHOLE_MAX 16
#define MAX_PANELS 2

typedef struct
{
  double px;                    /* the font's pixel size: every length is a multiple */
  double grid_x, grid_y;        /* the first panel's top-left texel corner */
  double cell;                  /* a texel's side */
  double panel_w;               /* a panel's width, with the gap after it */
  int32_t x0, y0, nx, ny;       /* the texels shown: [x0, x0 + nx) x [y0, y0 + ny) */
  int n_panels;
  int32_t z[MAX_PANELS];        /* the slice of each panel */
  int focus;
  uint16_t texture;             /* the focus lane's texture: the one drawn */
  double list_x, list_y, row_h, col_w;
  uint32_t list_rows;
  uint32_t list_first, list_shown; /* the lanes listed: list_shown of them from the
                                    * list_first-th active lane (all when they fit) */
  double legend_y;
} Layout;

static const double light[4][3] = {
  { 0.99, 0.99, 0.99 }, { 0.10, 0.10, 0.12 }, { 0.40, 0.40, 0.43 }, { 0.93, 0.93, 0.94 },
};
static const double dark[4][3] = {
  { 0.12, 0.12, 0.13 }, { 0.93, 0.93, 0.93 }, { 0.62, 0.62, 0.65 }, { 0.19, 0.19, 0.21 },
};

void
ks_texture_lane_rgb (uint32_t  lane,
                     double   *r,
                     double   *g,
                     double   *b)
{
  /* hues round the wheel, neighbouring lanes far apart (11/32 of a turn) */
  double h = ((lane * 11u) % 32u) / 32.0 * 6.0, s = 0.85, v = 0.82;
  int i = (int) floor (h);
  double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));

  switch (i % 6)
    {
    case 0: *r = v; *g = t; *b = p; break;
    case 1: *r = q; *g = v; *b = p; break;
    case 2: *r = p; *g = v; *b = t; break;
    case 3: *r = p; *g = q; *b = v; break;
    case 4: *r = t; *g = p; *b = v; break;
    default: *r = v; *g = p; *b = q; break;
    }
}

static void
set_lane (cairo_t  *cr,
          uint32_t  lane,
          double    alpha)
{
  double r, g, b;

  ks_texture_lane_rgb (lane, &r, &g, &b);
  cairo_set_source_rgba (cr, r, g, b, alpha);
}

static gboolean
lane_on (const KsTextureScene *sc,
         uint32_t              l)
{
  return sc->access != NULL && sc->tex != NULL && ((sc->access->mask >> l) & 1);
}

/* The texels of a lane's footprint inside the array that differ (a clamp
 * can send all four corners to one) and weigh something */
static uint32_t
distinct_texels (const KsTexLane *tl,
                 uint32_t         dims,
                 gboolean         linear)
{
  uint32_t n = 0;

  for (uint32_t k = 0; k < tl->n_texels && k < 8; k++)
    {
      gboolean seen = (tl->border >> k) & 1;

      for (uint32_t d = 0; d < dims && linear; d++)
        seen |= ((k >> d) & 1) ? tl->alpha[d] == 0 : tl->alpha[d] == 256;

      for (uint32_t q = 0; q < k && !seen; q++)
        seen = ((tl->border >> q) & 1) == ((tl->border >> k) & 1)
               && memcmp (tl->texel[q], tl->texel[k], sizeof tl->texel[k]) == 0;
      n += !seen;
    }
  return n;
}

int
ks_texture_focus_lane (const KsTextureScene *sc)
{
  int best = -1;
  uint32_t most = 0;

  if (sc->access == NULL || sc->tex == NULL || sc->access->mask == 0)
    return -1;
  if (sc->focus >= 0 && sc->focus < 32 && lane_on (sc, (uint32_t) sc->focus))
    return sc->focus;
  /* the first lane that shows the most: its texels all differ and lie in
   * the array */
  for (uint32_t l = 0; l < 32; l++)
    if (lane_on (sc, l))
      {
        uint32_t n = distinct_texels (&sc->tex->lane[l], CLAMP (sc->tex->dims, 1, 3),
                                      sc->tex->linear && !sc->tex->gather);

        if (best < 0 || n > most)
          {
            best = (int) l;
            most = n;
          }
      }
  return best;
}

/* Whether lane l is drawn on the grid: it read the focus lane's texture */
static gboolean
lane_drawn (const KsTextureScene *sc,
            const Layout         *lo,
            uint32_t              l)
{
  return lane_on (sc, l) && sc->tex->lane[l].texture == lo->texture;
}

static uint32_t
dims_of (const KsTextureScene *sc)
{
  return sc->tex != NULL ? CLAMP (sc->tex->dims, 1, 3) : 1;
}

/* The unaddressed corner k of a lane's footprint */
static void
corner_at (const KsTexLane *tl,
           uint32_t         k,
           uint32_t         dims,
           int64_t          out[3])
{
  /* x fastest (tld4 reads the same four in another order: this gives
   * their box, not which is which) */
  for (uint32_t d = 0; d < 3; d++)
    out[d] = d < dims ? tl->base[d] : 0;
  if (tl->n_texels == 1)
    return;
  for (uint32_t d = 0; d < dims; d++)
    out[d] += (k >> d) & 1;
}

static void
layout (const KsTextureScene *sc,
        const KsMemoryStyle  *st,
        double                width,
        double                height,
        Layout               *lo)
{
  uint32_t dims = dims_of (sc), n_lanes, cols;
  int64_t lo_[2] = { G_MAXINT64, G_MAXINT64 }, hi[2] = { G_MININT64, G_MININT64 };
  double area_w, area_h, top;

  memset (lo, 0, sizeof *lo);
  lo->px = st->font_size * 96.0 / 72.0;
  lo->focus = ks_texture_focus_lane (sc);
  lo->n_panels = 1;
  if (lo->focus < 0)
    return;
  lo->texture = sc->tex->lane[lo->focus].texture;

  /* the lanes' list on the right, in as many columns as its height needs */
  n_lanes = (uint32_t) __builtin_popcount (sc->access->mask);
  top = ceil (lo->px * 4.2);
  lo->row_h = ceil (lo->px * 1.3);
  lo->legend_y = height - lo->px * 0.8;
  lo->list_rows = (uint32_t) MAX (1, floor ((lo->legend_y - lo->px * 1.6 - top) / lo->row_h));
  lo->col_w = ceil (lo->px * (dims == 1 ? 13 : dims == 2 ? 16 : 19));
  /* at most 45 % of the width: past that, the lanes round the focus lane
   * and a last row that says how many more there are */
  cols = MIN ((n_lanes + lo->list_rows - 1) / lo->list_rows,
              (uint32_t) MAX (1, floor (width * 0.45 / lo->col_w)));
  lo->list_shown = n_lanes;
  lo->list_first = 0;
  if (n_lanes > cols * lo->list_rows)
    {
      uint32_t at = (uint32_t) __builtin_popcount (sc->access->mask & ((1u << lo->focus) - 1));

      lo->list_shown = cols * lo->list_rows - 1;
      lo->list_first = at >= lo->list_shown / 2 ? at - lo->list_shown / 2 : 0;
      lo->list_first = MIN (lo->list_first, n_lanes - lo->list_shown);
    }
  lo->list_x = width - cols * lo->col_w - lo->px * 0.5;
  lo->list_y = top;

  /* the texels: every footprint of the drawn texture, before and after
   * the address modes, and the whole of a small texture */
  /* the texels read, with a margin of one inside the texture, and where
   * the footprints lie (outside it too: what the address mode did) */
  for (uint32_t l = 0; l < 32; l++)
    {
      const KsTexLane *tl = &sc->tex->lane[l];

      if (!lane_drawn (sc, lo, l))
        continue;
      for (uint32_t k = 0; k < tl->n_texels && k < 8; k++)
        {
          int64_t c[3];

          corner_at (tl, k, dims, c);
          for (uint32_t d = 0; d < 2; d++)
            {
              int64_t a = d < dims ? tl->texel[k][d] : 0, u = d < dims ? c[d] : 0;
              int64_t n = sc->desc == NULL ? G_MAXINT32 : d == 0 ? sc->desc->width : sc->desc->height;
              int64_t a0 = d < dims ? MAX (a - 1, MIN (a, 0)) : 0;
              int64_t a1 = d < dims ? MIN (a + 1, MAX (a, n - 1)) : 0;

              lo_[d] = MIN (lo_[d], MIN (a0, u));
              hi[d] = MAX (hi[d], MAX (a1, u));
            }
        }
    }
  if (lo_[0] > hi[0])
    lo_[0] = hi[0] = lo_[1] = hi[1] = 0;
  if (sc->desc != NULL && sc->desc->width <= WHOLE_MAX && sc->desc->height <= WHOLE_MAX)
    {
      lo_[0] = MIN (lo_[0], 0);
      hi[0] = MAX (hi[0], (int64_t) sc->desc->width - 1);
      if (dims >= 2)
        {
          lo_[1] = MIN (lo_[1], 0);
          hi[1] = MAX (hi[1], (int64_t) sc->desc->height - 1);
        }
    }
  lo->x0 = (int32_t) CLAMP (lo_[0], G_MININT32 / 2, G_MAXINT32 / 2);
  lo->nx = (int32_t) CLAMP (hi[0] - lo_[0] + 1, 1, 4096);
  if (dims >= 2)
    {
      lo->y0 = (int32_t) CLAMP (lo_[1], G_MININT32 / 2, G_MAXINT32 / 2);
      lo->ny = (int32_t) CLAMP (hi[1] - lo_[1] + 1, 1, 4096);
    }
  else
    {
      lo->y0 = 0;
      lo->ny = 1;
    }

  /* 3D: the slices of the focus lane's footprint, side by side */
  lo->z[0] = sc->tex->lane[lo->focus].texel[0][2];
  if (dims == 3)
    {
      const KsTexLane *tl = &sc->tex->lane[lo->focus];

      for (uint32_t k = 1; k < tl->n_texels && k < 8 && lo->n_panels < MAX_PANELS; k++)
        if (tl->texel[k][2] != lo->z[0])
          {
            lo->z[lo->n_panels++] = tl->texel[k][2];
            break;
          }
    }

  area_w = lo->list_x - lo->px * 3.5;
  area_h = lo->legend_y - lo->px * 1.4 - top - lo->px * 1.4;
  lo->cell = MIN ((area_w - (lo->n_panels - 1) * lo->px * 2) / (lo->nx * lo->n_panels),
                  area_h / lo->ny);
  lo->cell = floor (CLAMP (lo->cell, 2, lo->px * 6));
  lo->panel_w = lo->nx * lo->cell + lo->px * 2;
  lo->grid_x = ceil (lo->px * 2.8);
  lo->grid_y = top + lo->px * 1.2 + (dims == 3 ? lo->px * 1.2 : 0);
}

static gboolean
in_array (const KsTextureScene *sc,
          int64_t               x,
          int64_t               y)
{
  uint32_t dims = dims_of (sc);

  if (sc->desc == NULL)
    return TRUE;
  return x >= 0 && x < sc->desc->width && (dims < 2 || (y >= 0 && y < sc->desc->height));
}

/* A texel's box in panel p */
static gboolean
box (const Layout *lo,
     int           p,
     int64_t       x,
     int64_t       y,
     double       *bx,
     double       *by)
{
  if (x < lo->x0 || x >= lo->x0 + lo->nx || y < lo->y0 || y >= lo->y0 + lo->ny)
    return FALSE;
  *bx = lo->grid_x + p * lo->panel_w + (x - lo->x0) * lo->cell;
  *by = lo->grid_y + (y - lo->y0) * lo->cell;
  return TRUE;
}

static int
panel_of (const Layout *lo,
          uint32_t      dims,
          int64_t       z)
{
  if (dims < 3)
    return 0;
  for (int p = 0; p < lo->n_panels; p++)
    if (lo->z[p] == z)
      return p;
  return -1;
}

gboolean
ks_texture_texel_box (const KsTextureScene *sc,
                      const KsMemoryStyle  *st,
                      double                width,
                      double                height,
                      int32_t               x,
                      int32_t               y,
                      int32_t               z,
                      double               *bx,
                      double               *by,
                      double               *bw,
                      double               *bh)
{
  Layout lo;
  int p;

  layout (sc, st, width, height, &lo);
  if (lo.focus < 0 || (p = panel_of (&lo, dims_of (sc), z)) < 0 || !box (&lo, p, x, y, bx, by))
    return FALSE;
  *bw = *bh = lo.cell;
  return TRUE;
}

/* The lanes that read texel (x, y, z) of the drawn texture, as a mask */
static uint32_t
readers (const KsTextureScene *sc,
         const Layout         *lo,
         int64_t               x,
         int64_t               y,
         int64_t               z)
{
  uint32_t dims = dims_of (sc), mask = 0;

  for (uint32_t l = 0; l < 32; l++)
    {
      const KsTexLane *tl = &sc->tex->lane[l];

      if (!lane_drawn (sc, lo, l))
        continue;
      for (uint32_t k = 0; k < tl->n_texels && k < 8; k++)
        if (!((tl->border >> k) & 1) && tl->texel[k][0] == x
            && (dims < 2 || tl->texel[k][1] == y) && (dims < 3 || tl->texel[k][2] == z))
          mask |= 1u << l;
    }
  return mask;
}

/* Lane l's weight on texel (x, y, z) of the array (border: where it lies):
 * the sum over its corners there of the product of the 9-bit weights, in
 * 256ths per coordinate; -1 when it does not read it */
static double
lane_weight (const KsTextureScene *sc,
             uint32_t              l,
             int64_t               x,
             int64_t               y,
             int64_t               z,
             gboolean              border)
{
  const KsTexLane *tl = &sc->tex->lane[l];
  uint32_t dims = dims_of (sc);
  double sum = 0;
  gboolean found = FALSE;

  for (uint32_t k = 0; k < tl->n_texels && k < 8; k++)
    {
      double w = 1;

      if (((tl->border >> k) & 1) != (uint32_t) border || tl->texel[k][0] != x
          || (dims >= 2 && tl->texel[k][1] != y) || (dims >= 3 && tl->texel[k][2] != z))
        continue;
      found = TRUE;
      if (!sc->tex->linear || sc->tex->gather)
        continue;
      for (uint32_t d = 0; d < dims; d++)
        w *= ((k >> d) & 1) ? tl->alpha[d] / 256.0 : (256 - tl->alpha[d]) / 256.0;
      sum += w;
    }
  return found ? (sc->tex->linear && !sc->tex->gather ? sum : 1) : -1;
}

gboolean
ks_texture_lane_mark (const KsTextureScene *sc,
                      const KsMemoryStyle  *st,
                      double                width,
                      double                height,
                      uint32_t              lane,
                      int32_t               x,
                      int32_t               y,
                      int32_t               z,
                      double               *cx,
                      double               *cy)
{
  Layout lo;
  uint32_t mask, before;
  double bx, by, seg;
  int p;

  layout (sc, st, width, height, &lo);
  if (lo.focus < 0 || lane >= 32 || (p = panel_of (&lo, dims_of (sc), z)) < 0
      || !box (&lo, p, x, y, &bx, &by))
    return FALSE;
  mask = readers (sc, &lo, x, y, z);
  if (!((mask >> lane) & 1))
    return FALSE;
  before = (uint32_t) __builtin_popcount (mask & ((1u << lane) - 1));
  seg = (lo.cell - 2) / __builtin_popcount (mask);
  *cx = bx + 1 + (before + 0.5) * seg;
  *cy = by + 1 + lo.cell * 0.11;
  return TRUE;
}

/* @s centred at (x, y) in type of @size, smaller where it would be wider
 * than @max_w */
static void
centered_fit (cairo_t    *cr,
              double      x,
              double      y,
              double      size,
              double      max_w,
              const char *s)
{
  cairo_text_extents_t e;

  cairo_set_font_size (cr, size);
  cairo_text_extents (cr, s, &e);
  if (e.x_advance > max_w && e.x_advance > 0)
    cairo_set_font_size (cr, size * max_w / e.x_advance);
  ks_render_text_centred (cr, x, y, s);
}

/* Channel 0 of texel (x, y, z) as the read mode gives it, through the
 * simulator's own texture unit */
static gboolean
texel_value (const KsTextureScene *sc,
             int64_t               x,
             int64_t               y,
             int64_t               z,
             uint32_t              layer,
             uint32_t             *bits)
{
  const KsLaunchTexture *d = sc->desc;
  KsTexObject obj;
  KsTexCoords c;
  KsTexFetch f;

  if (d == NULL || sc->data == NULL || d->cubemap || d->destroyed
      || sc->size < d->offset || sc->size - d->offset < ks_tex_array_bytes (d))
    return FALSE;
  obj.desc = d;
  obj.data = sc->data + d->offset;
  memset (&c, 0, sizeof c);
  c.int_coords = TRUE;
  c.geom = d->dims == 1 ? (d->layered ? KS_TEX_GEOM_A1D : KS_TEX_GEOM_1D)
           : d->dims == 2 ? (d->layered ? KS_TEX_GEOM_A2D : KS_TEX_GEOM_2D) : KS_TEX_GEOM_3D;
  c.c[0] = (uint32_t) x;
  c.c[1] = (uint32_t) y;
  c.c[2] = (uint32_t) z;
  c.layer = layer;
  if (!ks_tex_sample (&obj, &c, &f))
    return FALSE;
  *bits = f.v[0];
  return TRUE;
}

static void
format_value (const KsLaunchTexture *d,
              uint32_t               bits,
              char                  *buf,
              gsize                  size)
{
  if (d == NULL || ks_tex_returns_float (d))
    {
      float f;

      memcpy (&f, &bits, 4);
      g_snprintf (buf, size, "%.3g", f);
    }
  else if (d->format == KS_PTX_TYPE_S8 || d->format == KS_PTX_TYPE_S16
           || d->format == KS_PTX_TYPE_S32)
    g_snprintf (buf, size, "%d", (int32_t) bits);
  else
    g_snprintf (buf, size, "%u", bits);
}

static void
format_coords (const KsTexLane *tl,
               uint32_t         dims,
               char            *buf,
               gsize            size)
{
  if (dims == 1)
    g_snprintf (buf, size, "(%.2f)", tl->u[0]);
  else if (dims == 2)
    g_snprintf (buf, size, "(%.2f, %.2f)", tl->u[0], tl->u[1]);
  else
    g_snprintf (buf, size, "(%.2f, %.2f, %.2f)", tl->u[0], tl->u[1], tl->u[2]);
}

static void
hatch (cairo_t      *cr,
       double        x,
       double        y,
       double        s,
       const double *c)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, s, s);
  cairo_clip (cr);
  ks_render_set_rgb (cr, c, 0.35);
  cairo_set_line_width (cr, 1);
  for (double t = -s; t < s; t += MAX (s / 5, 4))
    {
      cairo_move_to (cr, x + t, y + s);
      cairo_line_to (cr, x + t + s, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_panel (cairo_t              *cr,
            const KsTextureScene *sc,
            const Layout         *lo,
            int                   p,
            const double        (*c)[3])
{
  uint32_t dims = dims_of (sc), layer = sc->tex->lane[lo->focus].layer;
  const KsTexLane *fl = &sc->tex->lane[lo->focus];
  int64_t z = lo->z[p];
  char buf[48];

  /* the cells: inside the array with their values, outside hatched */
  for (int32_t j = 0; j < lo->ny; j++)
    for (int32_t i = 0; i < lo->nx; i++)
      {
        int64_t x = lo->x0 + i, y = lo->y0 + j;
        double bx, by;
        uint32_t mask, bits, n, k = 0;

        box (lo, p, x, y, &bx, &by);
        if (!in_array (sc, x, y))
          {
            hatch (cr, bx, by, lo->cell, c[2]);
            continue;
          }
        ks_render_set_rgb (cr, c[3], 1);
        cairo_rectangle (cr, bx, by, lo->cell, lo->cell);
        cairo_fill (cr);
        ks_render_set_rgb (cr, c[2], 0.6);
        cairo_set_line_width (cr, 1);
        cairo_rectangle (cr, bx + 0.5, by + 0.5, lo->cell - 1, lo->cell - 1);
        cairo_stroke (cr);
        /* a bar across the top: a piece in the colour of each lane that
         * read the texel */
        mask = readers (sc, lo, x, y, z);
        n = (uint32_t) __builtin_popcount (mask);
        for (uint32_t l = 0; l < 32 && n > 0; l++)
          if ((mask >> l) & 1)
            {
              double seg = (lo->cell - 2) / n;

              set_lane (cr, l, 1);
              cairo_rectangle (cr, bx + 1 + k * seg, by + 1, seg, lo->cell * 0.22);
              cairo_fill (cr);
              k++;
            }
        if (lo->cell >= lo->px * 2.2 && texel_value (sc, x, y, z, layer, &bits))
          {
            format_value (sc->desc, bits, buf, sizeof buf);
            ks_render_set_rgb (cr, c[2], 1);
            centered_fit (cr, bx + lo->cell / 2, by + lo->cell - lo->cell * 0.1,
                          MIN (lo->px * 0.75, lo->cell * 0.24), lo->cell * 0.9, buf);
          }
      }

  /* the column and row numbers */
  cairo_set_font_size (cr, lo->px * 0.7);
  ks_render_set_rgb (cr, c[2], 1);
  for (int32_t i = 0; i < lo->nx; i++)
    if (lo->cell >= lo->px * 1.6 || (lo->x0 + i) % 5 == 0)
      {
        g_snprintf (buf, sizeof buf, "%d", lo->x0 + i);
        ks_render_text_centred (cr, lo->grid_x + p * lo->panel_w + (i + 0.5) * lo->cell,
                  lo->grid_y - lo->px * 0.35, buf);
      }
  if (p == 0 && dims >= 2)
    for (int32_t j = 0; j < lo->ny; j++)
      if (lo->cell >= lo->px * 1.2 || (lo->y0 + j) % 5 == 0)
        {
          cairo_text_extents_t e;

          g_snprintf (buf, sizeof buf, "%d", lo->y0 + j);
          cairo_text_extents (cr, buf, &e);
          cairo_move_to (cr, lo->grid_x - e.x_advance - lo->px * 0.3,
                         lo->grid_y + (j + 0.5) * lo->cell + lo->px * 0.25);
          cairo_show_text (cr, buf);
        }
  if (dims == 3)
    {
      cairo_set_font_size (cr, lo->px * 0.8);
      ks_render_set_rgb (cr, c[1], 1);
      g_snprintf (buf, sizeof buf, _("slice z = %d"), (int) z);
      cairo_move_to (cr, lo->grid_x + p * lo->panel_w, lo->grid_y - lo->px * 1.3);
      cairo_show_text (cr, buf);
    }

  /* the focus lane: its footprint where it lies (outside the array too),
   * the square between its texels' centres, and its weights */
  {
    int64_t c0[3];
    double bx, by, x1, y1, span = fl->n_texels > 1 ? 2 : 1;

    corner_at (fl, 0, dims, c0);
    bx = lo->grid_x + p * lo->panel_w + (c0[0] - lo->x0) * lo->cell;
    by = lo->grid_y + ((dims >= 2 ? c0[1] : 0) - lo->y0) * lo->cell;
    x1 = bx + span * lo->cell;
    y1 = by + (dims >= 2 ? span : 1) * lo->cell;
    cairo_save (cr);
    cairo_rectangle (cr, lo->grid_x + p * lo->panel_w, lo->grid_y, lo->nx * lo->cell,
                     lo->ny * lo->cell);
    cairo_clip (cr);
    set_lane (cr, (uint32_t) lo->focus, 1);
    cairo_set_line_width (cr, MAX (2.5, lo->px * 0.25));
    cairo_rectangle (cr, bx + 1.5, by + 1.5, x1 - bx - 3, y1 - by - 3);
    cairo_stroke (cr);
    if (fl->n_texels > 1)
      {
        double dash[] = { 4, 3 };

        cairo_set_dash (cr, dash, 2, 0);
        cairo_set_line_width (cr, 1.2);
        cairo_rectangle (cr, bx + lo->cell / 2, by + lo->cell / 2, x1 - bx - lo->cell,
                         MAX (y1 - by - lo->cell, 0));
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);
      }
    cairo_restore (cr);

    /* the weights, in the texels read (where a clamp sends two corners to
     * one texel, their sum) */
    if (sc->tex->linear && !sc->tex->gather && lo->cell >= lo->px * 2.2)
      {
        cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);

        for (uint32_t k = 0; k < fl->n_texels && k < 8; k++)
          {
            gboolean border = (fl->border >> k) & 1, dup = FALSE;
            int64_t tz = dims >= 3 ? fl->texel[k][2] : z;
            double tx, ty, w;

            if (tz != z)
              continue;
            for (uint32_t q = 0; q < k; q++)
              dup |= ((fl->border >> q) & 1) == (uint32_t) border && fl->texel[q][0] == fl->texel[k][0]
                     && (dims < 2 || fl->texel[q][1] == fl->texel[k][1])
                     && (dims < 3 || fl->texel[q][2] == fl->texel[k][2]);
            if (dup || !box (lo, p, fl->texel[k][0], dims >= 2 ? fl->texel[k][1] : 0, &tx, &ty))
              continue;
            w = lane_weight (sc, (uint32_t) lo->focus, fl->texel[k][0],
                             dims >= 2 ? fl->texel[k][1] : 0, tz, border);
            g_snprintf (buf, sizeof buf, "%.4g", w);
            ks_render_set_rgb (cr, c[1], 1);
            centered_fit (cr, tx + lo->cell / 2, ty + lo->cell * 0.58,
                          MIN (lo->px * 0.85, lo->cell * 0.3), lo->cell * 0.9, buf);
          }
        cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      }
  }

  /* the sample points: every lane's, the focus lane's last and largest */
  cairo_save (cr);
  cairo_rectangle (cr, lo->grid_x + p * lo->panel_w - lo->px, lo->grid_y - lo->px,
                   lo->nx * lo->cell + 2 * lo->px, lo->ny * lo->cell + 2 * lo->px);
  cairo_clip (cr);
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t l = 0; l < 32; l++)
      {
        const KsTexLane *tl = &sc->tex->lane[l];
        gboolean focus = (int) l == lo->focus;
        double x, y, r = focus ? lo->px * 0.42 : MAX (lo->px * 0.26, 2.5);

        if (!lane_drawn (sc, lo, l) || focus != (pass == 1))
          continue;
        x = lo->grid_x + p * lo->panel_w + (tl->u[0] - lo->x0) * lo->cell;
        y = lo->grid_y + ((dims >= 2 ? tl->u[1] : 0.5) - lo->y0) * lo->cell;
        cairo_arc (cr, x, y, r + 1.2, 0, 2 * G_PI);
        ks_render_set_rgb (cr, c[1], 1);
        cairo_fill (cr);
        cairo_arc (cr, x, y, r, 0, 2 * G_PI);
        set_lane (cr, l, 1);
        cairo_fill (cr);
        if (lo->cell >= lo->px * 5 || focus)
          {
            g_snprintf (buf, sizeof buf, "%u", l);
            cairo_set_font_size (cr, lo->px * (focus ? 0.85 : 0.65));
            ks_render_set_rgb (cr, c[1], 1);
            cairo_move_to (cr, x + r + 1.5, y - r);
            cairo_show_text (cr, buf);
          }
      }
  cairo_restore (cr);
}

static void
draw_list (cairo_t              *cr,
           const KsTextureScene *sc,
           const Layout         *lo,
           const double        (*c)[3])
{
  uint32_t dims = dims_of (sc), row = 0, index = 0, n_lanes = (uint32_t) __builtin_popcount (sc->access->mask);
  char coords[64], value[32];

  cairo_set_font_size (cr, lo->px * 0.8);
  ks_render_set_rgb (cr, c[2], 1);
  cairo_move_to (cr, lo->list_x, lo->list_y - lo->px * 0.35);
  cairo_show_text (cr, _("lane, coordinates (texels) and value"));
  for (uint32_t l = 0; l < 32; l++)
    {
      const KsTexLane *tl = &sc->tex->lane[l];
      double x, y;
      g_autofree char *text = NULL;

      if (!lane_on (sc, l) || index++ < lo->list_first || row >= lo->list_shown)
        continue;
      x = lo->list_x + (row / lo->list_rows) * lo->col_w;
      y = lo->list_y + (row % lo->list_rows) * lo->row_h;
      row++;
      if ((int) l == lo->focus)
        {
          set_lane (cr, l, 0.18);
          cairo_rectangle (cr, x - 2, y + 1, lo->col_w - lo->px * 0.4, lo->row_h - 1);
          cairo_fill (cr);
        }
      set_lane (cr, l, 1);
      cairo_rectangle (cr, x, y + lo->row_h * 0.2, lo->px * 0.8, lo->row_h * 0.6);
      cairo_fill (cr);
      format_coords (tl, dims, coords, sizeof coords);
      format_value (sc->desc, tl->value[0], value, sizeof value);
      text = g_strdup_printf ("%2u  %s = %s", l, coords, value);
      ks_render_set_rgb (cr, tl->texture == lo->texture ? c[1] : c[2], 1);
      cairo_move_to (cr, x + lo->px * 1.1, y + lo->row_h * 0.75);
      cairo_show_text (cr, text);
    }
  if (lo->list_shown < n_lanes)
    {
      uint32_t more = n_lanes - lo->list_shown;
      g_autofree char *text = g_strdup_printf (ngettext ("and %u more lane (Left, Right)",
                                                         "and %u more lanes (Left, Right)", more),
                                               more);

      ks_render_set_rgb (cr, c[2], 1);
      cairo_move_to (cr, lo->list_x + (row / lo->list_rows) * lo->col_w + lo->px * 1.1,
                     lo->list_y + (row % lo->list_rows) * lo->row_h + lo->row_h * 0.75);
      cairo_show_text (cr, text);
    }
}

static void
draw_legend (cairo_t              *cr,
             const KsTextureScene *sc,
             const Layout         *lo,
             const double        (*c)[3])
{
  static const char *const modes[] = { N_("clamp"), N_("wrap"), N_("mirror"), N_("border") };
  double x = lo->px * 0.5, y = lo->legend_y, s = lo->px * 0.8;
  g_autofree char *fp = NULL, *outside = NULL;
  cairo_text_extents_t e;
  const char *items[4];

  if (sc->tex->linear && !sc->tex->gather)
    fp = g_strdup_printf (_("lane %d's footprint, its filter weights in bold"), lo->focus);
  else
    fp = g_strdup_printf (_("lane %d's texels"), lo->focus);
  outside = g_strdup_printf (_("outside the texture (address mode: %s)"),
                             sc->desc ? _(modes[CLAMP (sc->desc->address[0], 0, 3)]) : "?");
  items[0] = _("sample point");
  items[1] = fp;
  items[2] = _("read by the lane of that colour");
  items[3] = outside;
  cairo_set_font_size (cr, lo->px * 0.8);
  for (int i = 0; i < 4; i++)
    {
      switch (i)
        {
        case 0:
          ks_render_set_rgb (cr, c[1], 1);
          cairo_arc (cr, x + s / 2, y - s / 2 + 1, s * 0.45, 0, 2 * G_PI);
          cairo_fill (cr);
          set_lane (cr, (uint32_t) lo->focus, 1);
          cairo_arc (cr, x + s / 2, y - s / 2 + 1, s * 0.32, 0, 2 * G_PI);
          cairo_fill (cr);
          break;
        case 1:
          set_lane (cr, (uint32_t) lo->focus, 1);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, x + 1, y - s + 1, s, s - 1);
          cairo_stroke (cr);
          break;
        case 2:
          set_lane (cr, (uint32_t) lo->focus, 1);
          cairo_rectangle (cr, x, y - s + 1, s * 1.2, s * 0.35);
          cairo_fill (cr);
          break;
        default:
          hatch (cr, x, y - s + 1, s, c[2]);
          break;
        }
      ks_render_set_rgb (cr, c[1], 1);
      cairo_move_to (cr, x + s * 1.6, y);
      cairo_show_text (cr, items[i]);
      cairo_text_extents (cr, items[i], &e);
      x += s * 1.6 + e.x_advance + lo->px * 1.4;
    }
}

/* The line under the title */
static char *
summary_line (const KsTextureScene *sc)
{
  const KsLaunchTexture *d = sc->desc;
  uint32_t n = (uint32_t) __builtin_popcount (sc->access->mask), dims = dims_of (sc);
  int f = ks_texture_focus_lane (sc);
  uint32_t per_lane = f >= 0 ? sc->tex->lane[f].n_texels : 0;
  const char *filter = sc->tex->gather ? _("gather (tld4)")
                       : sc->tex->linear ? _("linear filtering") : _("point sampling");
  g_autofree char *lanes = g_strdup_printf (ngettext ("%u lane", "%u lanes", n), n);
  g_autofree char *texels = g_strdup_printf (ngettext ("%u texel a lane", "%u texels a lane",
                                                       per_lane), per_lane);
  g_autofree char *size = NULL;

  if (d == NULL)
    size = g_strdup ("?");
  else if (d->dims == 1)
    size = g_strdup_printf ("%u", d->width);
  else if (d->dims == 2)
    size = g_strdup_printf ("%u x %u", d->width, d->height);
  else
    size = g_strdup_printf ("%u x %u x %u", d->width, d->height, d->depth);
  /* TRANSLATORS: e.g. "2D texture 'image' (32 x 32), linear filtering: 32 lanes, 4 texels a lane" */
  return g_strdup_printf (_("%uD texture '%s' (%s), %s: %s, %s"), dims, d ? d->name : "?", size,
                          filter, lanes, texels);
}

void
ks_texture_render (cairo_t              *cr,
                   const KsTextureScene *sc,
                   const char           *title,
                   const KsMemoryStyle  *st,
                   double                width,
                   double                height)
{
  const double (*c)[3] = st->dark ? dark : light;
  g_autofree char *summary = NULL;
  Layout lo;

  layout (sc, st, width, height, &lo);
  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  ks_render_set_rgb (cr, c[0], 1);
  cairo_paint (cr);
  if (lo.focus >= 0)
    {
      for (int p = 0; p < lo.n_panels; p++)
        draw_panel (cr, sc, &lo, p, c);
      draw_list (cr, sc, &lo, c);
      draw_legend (cr, sc, &lo, c);
      summary = summary_line (sc);
    }
  cairo_set_font_size (cr, lo.px * 1.1);
  ks_render_set_rgb (cr, c[1], 1);
  cairo_move_to (cr, 4, lo.px * 1.4);
  cairo_show_text (cr, title ? title : "");
  cairo_set_font_size (cr, lo.px * 0.95);
  ks_render_set_rgb (cr, c[2], 1);
  cairo_move_to (cr, 4, lo.px * 2.7);
  cairo_show_text (cr, summary ? summary : _("No lane fetched"));
  cairo_restore (cr);
}

int
ks_texture_lane_at (const KsTextureScene *sc,
                    const KsMemoryStyle  *st,
                    double                width,
                    double                height,
                    double                x,
                    double                y)
{
  uint32_t dims = dims_of (sc), row = 0, index = 0;
  int best = -1;
  double best_d = 0;
  Layout lo;

  layout (sc, st, width, height, &lo);
  if (lo.focus < 0)
    return -1;
  for (uint32_t l = 0; l < 32; l++)
    {
      const KsTexLane *tl = &sc->tex->lane[l];
      double rx, ry;

      if (!lane_on (sc, l))
        continue;
      if (index++ >= lo.list_first && row < lo.list_shown)
        {
          rx = lo.list_x + (row / lo.list_rows) * lo.col_w;
          ry = lo.list_y + (row % lo.list_rows) * lo.row_h;
          row++;
          if (x >= rx && x < rx + lo.col_w && y >= ry && y < ry + lo.row_h)
            return (int) l;
        }
      if (!lane_drawn (sc, &lo, l))
        continue;
      for (int p = 0; p < lo.n_panels; p++)
        {
          double px = lo.grid_x + p * lo.panel_w + (tl->u[0] - lo.x0) * lo.cell;
          double py = lo.grid_y + ((dims >= 2 ? tl->u[1] : 0.5) - lo.y0) * lo.cell;
          double d = hypot (px - x, py - y);

          if (d <= MAX (lo.px * 0.6, 5) && (best < 0 || d < best_d))
            {
              best = (int) l;
              best_d = d;
            }
        }
    }
  return best;
}

/* A lane in words: coordinates, texels with weights, value */
static char *
describe_lane (const KsTextureScene *sc,
               uint32_t              l)
{
  const KsTexLane *tl = &sc->tex->lane[l];
  uint32_t dims = dims_of (sc);
  GString *s = g_string_new (NULL);
  char coords[64], value[32];

  format_coords (tl, dims, coords, sizeof coords);
  format_value (sc->desc, tl->value[0], value, sizeof value);
  g_string_append_printf (s, _("Lane %u: coordinates %s in texels, returned %s; texels read:"),
                          l, coords, value);
  for (uint32_t k = 0; k < tl->n_texels && k < 8; k++)
    {
      gboolean border = (tl->border >> k) & 1;

      g_string_append_printf (s, " (%d", tl->texel[k][0]);
      for (uint32_t d = 1; d < dims; d++)
        g_string_append_printf (s, ", %d", tl->texel[k][d]);
      g_string_append (s, ")");
      if (sc->tex->linear && !sc->tex->gather)
        {
          double w = 1;

          for (uint32_t d = 0; d < dims; d++)
            w *= ((k >> d) & 1) ? tl->alpha[d] / 256.0 : (256 - tl->alpha[d]) / 256.0;
          g_string_append_printf (s, _(" weight %.4g"), w);
        }
      if (border)
        g_string_append (s, _(" (border colour)"));
    }
  if (sc->tex->linear && !sc->tex->gather)
    {
      g_string_append_printf (s, _("; 9-bit weights of the upper texel: %u/256"), tl->alpha[0]);
      for (uint32_t d = 1; d < dims; d++)
        g_string_append_printf (s, ", %u/256", tl->alpha[d]);
    }
  return g_string_free (s, FALSE);
}

char *
ks_texture_describe_at (const KsTextureScene *sc,
                        const KsMemoryStyle  *st,
                        double                width,
                        double                height,
                        double                x,
                        double                y)
{
  uint32_t dims = dims_of (sc);
  int lane = ks_texture_lane_at (sc, st, width, height, x, y);
  Layout lo;

  if (lane >= 0)
    return describe_lane (sc, (uint32_t) lane);
  layout (sc, st, width, height, &lo);
  if (lo.focus < 0 || lo.cell <= 0)
    return NULL;
  for (int p = 0; p < lo.n_panels; p++)
    {
      double gx = lo.grid_x + p * lo.panel_w;
      int64_t tx, ty, tz = lo.z[p];
      uint32_t mask, bits;
      GString *s;
      char value[32];

      if (x < gx || x >= gx + lo.nx * lo.cell || y < lo.grid_y || y >= lo.grid_y + lo.ny * lo.cell)
        continue;
      tx = lo.x0 + (int64_t) floor ((x - gx) / lo.cell);
      ty = lo.y0 + (int64_t) floor ((y - lo.grid_y) / lo.cell);
      s = g_string_new (NULL);
      if (dims == 1)
        g_string_append_printf (s, _("Texel %d"), (int) tx);
      else if (dims == 2)
        g_string_append_printf (s, _("Texel (%d, %d)"), (int) tx, (int) ty);
      else
        g_string_append_printf (s, _("Texel (%d, %d, %d)"), (int) tx, (int) ty, (int) tz);
      if (!in_array (sc, tx, ty))
        {
          g_string_append (s, _(": outside the texture"));
          return g_string_free (s, FALSE);
        }
      if (texel_value (sc, tx, ty, tz, sc->tex->lane[lo.focus].layer, &bits))
        {
          format_value (sc->desc, bits, value, sizeof value);
          g_string_append_printf (s, _(", value %s"), value);
        }
      mask = readers (sc, &lo, tx, ty, tz);
      if (mask == 0)
        g_string_append (s, _("; no lane read it"));
      else
        {
          g_string_append (s, _("; read by lane"));
          for (uint32_t l = 0; l < 32; l++)
            if ((mask >> l) & 1)
              {
                double w = lane_weight (sc, l, tx, ty, tz, FALSE);

                if (sc->tex->linear && !sc->tex->gather)
                  g_string_append_printf (s, _(" %u (weight %.4g)"), l, w);
                else
                  g_string_append_printf (s, " %u", l);
              }
        }
      return g_string_free (s, FALSE);
    }
  return NULL;
}

char *
ks_texture_summary (const KsTextureScene *sc)
{
  g_autofree char *line = NULL, *focus = NULL;
  int f = ks_texture_focus_lane (sc);

  if (f < 0)
    return g_strdup (_("No lane fetched"));
  line = summary_line (sc);
  focus = describe_lane (sc, (uint32_t) f);
  return g_strdup_printf ("%s. %s", line, focus);
}
