/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-tex.c: what the texture unit computes (see ks-sim-tex.h).
 *
 * The model, from the CUDA Programming Guide ("Texture Fetching", "Texture
 * Memory", "Cubemap Textures", "Texture Gather") and the PTX ISA:
 *
 * - Float coordinates of a normalized texture are multiplied by the size
 *   of their dimension; texel offsets (operand e) are added after that.
 *   Integer (.s32) coordinates are texel indices, never filtered.
 * - Point filtering reads texel floor (x).  Linear filtering reads texels
 *   i = floor (xB) and i + 1, xB = x - 0.5, and blends them with
 *   alpha = frac (xB) in 9-bit fixed point with 8 fractional bits (the
 *   Guide's words); the fraction is rounded to the nearest 1/256, and the
 *   weighted sum of the texels is computed exactly and rounded once to f32.
 * - The address modes apply to each texel index a fetch reads, as OpenGL
 *   and Direct3D define them: clamp to [0, N - 1], wrap modulo N, mirror
 *   with period 2N, border gives the border colour for an index outside
 *   the array.
 * - Read modes: integer formats give 32-bit integers (sign- or
 *   zero-extended), float formats f32; normalized_float maps u8 and u16 to
 *   v / (2^n - 1) and s8 and s16 to max (v / (2^(n-1) - 1), -1), rounded to
 *   f32.  Channels a format does not have read as 0, and as 1 for the
 *   fourth (alpha).
 * - An instruction of fewer dimensions than the array reads index 0 of the
 *   others (tex.2d on a 3D texture reads slice 0, on a layered one layer
 *   0), and one of more dimensions sees the sizes the array does not have
 *   as 1 (tex.3d on a 2D texture reads it as one slice, tex.a2d as one
 *   layer).  Array indices are clamped to the layers there are.
 */

#include <float.h>
#include <math.h>
#include <string.h>

#include "ks-sim-math.h"
#include "ks-sim-tex.h"

/* ---- handles ----------------------------------------------------------------------------- */

#define HANDLE_TAG G_GUINT64_CONSTANT (0x7e5c)

/* A bijection of the 16-bit index: a handle plus a small offset has the
 * check word of another index, so it cannot decode. */
static uint32_t
check_word (KsTexKind kind,
            uint32_t  index)
{
  return (index * 0x9e37u + (uint32_t) kind * 0x6b2fu + 0x3c1du) & 0xffffu;
}

uint64_t
ks_tex_handle (KsTexKind kind,
               uint32_t  index)
{
  g_return_val_if_fail (index <= 0xffffu, 0);

  return HANDLE_TAG << 48 | (uint64_t) kind << 32 | (uint64_t) check_word (kind, index) << 16
         | index;
}

gboolean
ks_tex_handle_decode (uint64_t   handle,
                      KsTexKind *kind,
                      uint32_t  *index)
{
  uint32_t k = (uint32_t) (handle >> 32) & 0xffffu;
  uint32_t i = (uint32_t) handle & 0xffffu;

  if (handle >> 48 != HANDLE_TAG || (k != KS_TEX_TEXTURE && k != KS_TEX_SURFACE)
      || ((handle >> 16) & 0xffffu) != check_word ((KsTexKind) k, i))
    return FALSE;
  *kind = (KsTexKind) k;
  *index = i;
  return TRUE;
}

/* ---- instruction forms ------------------------------------------------------------------- */

static const struct
{
  const char *word;
  KsTexGeom geom;
} geoms[] = {
  { "1d", KS_TEX_GEOM_1D }, { "2d", KS_TEX_GEOM_2D }, { "3d", KS_TEX_GEOM_3D },
  { "a1d", KS_TEX_GEOM_A1D }, { "a2d", KS_TEX_GEOM_A2D }, { "cube", KS_TEX_GEOM_CUBE },
  { "acube", KS_TEX_GEOM_ACUBE }, { "2dms", KS_TEX_GEOM_2DMS }, { "a2dms", KS_TEX_GEOM_A2DMS },
};

static const struct
{
  const char *word;
  KsTexQuery query;
} queries[] = {
  { "width", KS_TEX_QUERY_WIDTH }, { "height", KS_TEX_QUERY_HEIGHT },
  { "depth", KS_TEX_QUERY_DEPTH }, { "channel_data_type", KS_TEX_QUERY_CHANNEL_DATA_TYPE },
  { "channel_order", KS_TEX_QUERY_CHANNEL_ORDER },
  { "normalized_coords", KS_TEX_QUERY_NORMALIZED_COORDS },
  { "array_size", KS_TEX_QUERY_ARRAY_SIZE }, { "num_mipmap_levels", KS_TEX_QUERY_NUM_MIPMAP_LEVELS },
  { "num_samples", KS_TEX_QUERY_NUM_SAMPLES },
  { "force_unnormalized_coords", KS_TEX_QUERY_FORCE_UNNORMALIZED_COORDS },
  { "filter_mode", KS_TEX_QUERY_FILTER_MODE }, { "addr_mode_0", KS_TEX_QUERY_ADDR_MODE_0 },
  { "addr_mode_1", KS_TEX_QUERY_ADDR_MODE_1 }, { "addr_mode_2", KS_TEX_QUERY_ADDR_MODE_2 },
  { "memory_layout", KS_TEX_QUERY_MEMORY_LAYOUT },
};

const char *
ks_tex_geom_name (KsTexGeom geom)
{
  for (guint i = 0; i < G_N_ELEMENTS (geoms); i++)
    if (geoms[i].geom == geom)
      return geoms[i].word;
  return "?";
}

void
ks_tex_form_decode (const KsPtxModule *m,
                    const KsPtxInsn   *in,
                    KsTexForm         *form)
{
  const KsPtxExtra *x = in->extra ? &m->extras[in->extra] : NULL;
  gboolean surface = in->opcode == KS_PTX_OPC_SULD || in->opcode == KS_PTX_OPC_SUST
                     || in->opcode == KS_PTX_OPC_SURED;

  memset (form, 0, sizeof *form);
  form->clamp = (in->flags & KS_PTX_FLAG_CLAMP) ? KS_SURF_CLAMP : KS_SURF_TRAP;
  /* tld4.r: "r" is an operation word to the parser (shf.r) */
  if (in->opcode == KS_PTX_OPC_TLD4 && in->op == KS_PTX_OP_R)
    form->comp = 0;

  for (uint32_t i = 0; x != NULL && i < x->n_words; i++)
    {
      KsPtxSpan span = m->words[x->first_word + i];
      const char *w = m->text + span.offset;
      gboolean known = FALSE;

#define IS(s) (span.len == strlen (s) && memcmp (w, s, span.len) == 0)
      for (guint k = 0; k < G_N_ELEMENTS (geoms) && !known; k++)
        if (IS (geoms[k].word))
          {
            form->geom = (uint8_t) geoms[k].geom;
            known = TRUE;
          }
      for (guint k = 0; k < G_N_ELEMENTS (queries) && !known; k++)
        if (IS (queries[k].word))
          {
            form->query = (uint8_t) queries[k].query;
            known = TRUE;
          }
      if (known)
        continue;
      if (IS ("trap"))
        form->clamp = KS_SURF_TRAP;
      else if (IS ("zero"))
        form->clamp = KS_SURF_ZERO;
      else if (IS ("level"))
        form->lod = KS_TEX_LOD_LEVEL;
      else if (IS ("grad"))
        form->lod = KS_TEX_LOD_GRAD;
      else if (IS ("base"))
        form->lod = KS_TEX_LOD_BASE;
      else if (IS ("p") && surface)
        form->formatted = 1;
      else if (IS ("b") && surface)
        form->formatted = 0;
      else if (IS ("g") && in->opcode == KS_PTX_OPC_TLD4)
        form->comp = 1;
      else if (IS ("b") && in->opcode == KS_PTX_OPC_TLD4)
        form->comp = 2;
      else if (IS ("a") && in->opcode == KS_PTX_OPC_TLD4)
        form->comp = 3;
      else if (form->bad_word == 0)
        form->bad_word = (uint16_t) (i + 1);
#undef IS
    }
}

/* ---- texels ------------------------------------------------------------------------------ */

gboolean
ks_tex_returns_float (const KsLaunchTexture *d)
{
  return d->format == KS_PTX_TYPE_F32 || d->format == KS_PTX_TYPE_F16 || d->normalized_float;
}

static uint64_t
texel_offset (const KsLaunchTexture *d,
              uint32_t               x,
              uint32_t               y,
              uint32_t               z,
              uint32_t               layer)
{
  return (((uint64_t) layer * d->depth + z) * d->height + y) * ks_tex_row_pitch (d)
         + (uint64_t) x * d->texel_size;
}

uint64_t
ks_tex_row_pitch (const KsLaunchTexture *d)
{
  return d->pitch != 0 ? d->pitch : (uint64_t) d->width * d->texel_size;
}

uint64_t
ks_tex_array_bytes (const KsLaunchTexture *d)
{
  uint64_t rows = (uint64_t) d->height * d->depth * d->layers;

  return (rows - 1) * ks_tex_row_pitch (d) + (uint64_t) d->width * d->texel_size;
}

/* Channel @k of the texel at @p, as the read mode gives it: floats are the
 * f32 values returned, integers their 32-bit value */
static double
channel_value (const KsLaunchTexture *d,
               const uint8_t         *p)
{
  switch (d->format)
    {
    case KS_PTX_TYPE_U8:
      return d->normalized_float ? (double) (float) (p[0] / 255.0) : p[0];
    case KS_PTX_TYPE_S8:
      {
        int8_t v = (int8_t) p[0];

        return d->normalized_float ? (double) (float) MAX (v / 127.0, -1.0) : v;
      }
    case KS_PTX_TYPE_U16:
      {
        uint16_t v;

        memcpy (&v, p, 2);
        return d->normalized_float ? (double) (float) (v / 65535.0) : v;
      }
    case KS_PTX_TYPE_S16:
      {
        int16_t v;

        memcpy (&v, p, 2);
        return d->normalized_float ? (double) (float) MAX (v / 32767.0, -1.0) : v;
      }
    case KS_PTX_TYPE_U32:
      {
        uint32_t v;

        memcpy (&v, p, 4);
        return v;
      }
    case KS_PTX_TYPE_S32:
      {
        int32_t v;

        memcpy (&v, p, 4);
        return v;
      }
    case KS_PTX_TYPE_F16:
      {
        uint16_t v;

        memcpy (&v, p, 2);
        return ks_launch_f16_to_double (v);
      }
    case KS_PTX_TYPE_F32:
    default:
      {
        float v;

        memcpy (&v, p, 4);
        return v;
      }
    }
}

/* The four results of one texel; a texel outside the array (border mode)
 * is the border colour */
static void
texel_values (const KsTexObject *t,
              gboolean           border,
              uint32_t           x,
              uint32_t           y,
              uint32_t           z,
              uint32_t           layer,
              double             v[4],
              KsTexFetch        *out)
{
  const KsLaunchTexture *d = t->desc;
  uint32_t esize = ks_ptx_type_size (d->format);
  uint64_t off;

  if (border)
    {
      memcpy (v, d->border, 4 * sizeof (double));
      return;
    }
  off = texel_offset (d, x, y, z, layer);
  for (uint32_t k = 0; k < 4; k++)
    v[k] = k < d->channels ? channel_value (d, t->data + off + k * esize) : k == 3 ? 1.0 : 0.0;
  if (out != NULL && out->n_texels < KS_TEX_MAX_TEXELS)
    out->texels[out->n_texels++] = off;
}

static uint32_t
result_bits (const KsLaunchTexture *d,
             double                 v)
{
  if (ks_tex_returns_float (d))
    {
      /* a blend of texels near FLT_MAX can pass it: round as IEEE does,
       * which a C conversion out of range does not promise */
      if (isfinite (v) && fabs (v) > FLT_MAX)
        v = copysign (fabs (v) >= 0x1.ffffffp+127 ? INFINITY : FLT_MAX, v);
      return ks_f32_to_bits ((float) v);
    }
  /* integers: the value fits in 32 bits, signed or not */
  return (uint32_t) (int64_t) v;
}

/* An index after the address mode; -1 outside the array in border mode */
static int64_t
address (KsLaunchTexAddress mode,
         int64_t            i,
         uint32_t           n)
{
  int64_t nn = n;

  switch (mode)
    {
    case KS_LAUNCH_TEX_WRAP:
      return ((i % nn) + nn) % nn;
    case KS_LAUNCH_TEX_MIRROR:
      {
        int64_t m = ((i % (2 * nn)) + 2 * nn) % (2 * nn);

        return m < nn ? m : 2 * nn - 1 - m;
      }
    case KS_LAUNCH_TEX_BORDER:
      return i < 0 || i >= nn ? -1 : i;
    case KS_LAUNCH_TEX_CLAMP:
    default:
      return i < 0 ? 0 : i >= nn ? nn - 1 : i;
    }
}

/* ---- sampling ---------------------------------------------------------------------------- */

/* How a geometry addresses the array */
typedef struct
{
  uint32_t n;                   /* coordinates: 1, 2 or 3 */
  uint32_t size[3];             /* texels along each */
  uint32_t layer;               /* the layer read */
  gboolean normalized;
  KsLaunchTexAddress address[3];
  double u[3];                  /* float coordinates in texels */
  int64_t i[3];                 /* integer coordinates */
} Frame;

static gboolean
is_layered_geom (KsTexGeom g)
{
  return g == KS_TEX_GEOM_A1D || g == KS_TEX_GEOM_A2D || g == KS_TEX_GEOM_ACUBE;
}

static uint32_t
geom_coords (KsTexGeom g)
{
  switch (g)
    {
    case KS_TEX_GEOM_1D: case KS_TEX_GEOM_A1D: return 1;
    case KS_TEX_GEOM_3D: return 3;
    default: return 2;
    }
}

static uint32_t
clamp_layer (uint32_t layer,
             uint32_t n)
{
  return layer < n ? layer : n - 1;
}

static double
coord_value (uint32_t bits)
{
  float f = ks_f32_from_bits (bits);

  /* NaN reads texel 0; infinities go far out and are then addressed */
  if (isnan (f))
    return 0.0;
  return CLAMP ((double) f, -1073741824.0, 1073741824.0);
}

/* A cubemap direction (s, t, r) to a face and normalized (u, v), with the
 * Programming Guide's table; ties go to x, then y. */
static void
cube_face (const uint32_t c[3],
           uint32_t      *face,
           double        *u,
           double        *v)
{
  double s = coord_value (c[0]), t = coord_value (c[1]), r = coord_value (c[2]);
  double as = fabs (s), at = fabs (t), ar = fabs (r), m, sc, tc;

  if (as >= at && as >= ar)
    {
      *face = s >= 0 ? 0 : 1;
      m = as;
      sc = s >= 0 ? -r : r;
      tc = -t;
    }
  else if (at >= ar)
    {
      *face = t >= 0 ? 2 : 3;
      m = at;
      sc = s;
      tc = t >= 0 ? r : -r;
    }
  else
    {
      *face = r >= 0 ? 4 : 5;
      m = ar;
      sc = r >= 0 ? s : -s;
      tc = -t;
    }
  if (m == 0)
    m = 1;                      /* the zero direction: the face's centre */
  *u = (sc / m + 1) / 2;
  *v = (tc / m + 1) / 2;
}

/* Sets up @f for @coords on @t; FALSE for a geometry the array cannot be
 * read with */
static gboolean
frame_init (const KsTexObject *t,
            const KsTexCoords *coords,
            Frame             *f)
{
  const KsLaunchTexture *d = t->desc;
  KsTexGeom g = coords->geom;

  memset (f, 0, sizeof *f);
  if (g == KS_TEX_GEOM_NONE || g == KS_TEX_GEOM_2DMS || g == KS_TEX_GEOM_A2DMS)
    return FALSE;
  f->size[0] = d->width;
  f->size[1] = d->height;
  f->size[2] = d->depth;
  f->normalized = d->normalized_coords;
  memcpy (f->address, d->address, sizeof f->address);

  if (g == KS_TEX_GEOM_CUBE || g == KS_TEX_GEOM_ACUBE)
    {
      uint32_t face, cube = 0;
      double u, v;

      if (!d->cubemap)
        return FALSE;
      if (g == KS_TEX_GEOM_ACUBE)
        cube = clamp_layer (coords->layer, d->layers / 6);
      cube_face (coords->c, &face, &u, &v);
      f->n = 2;
      f->layer = cube * 6 + face;
      f->normalized = TRUE;
      /* faces are clamped at their edges (no filtering across faces) */
      f->address[0] = f->address[1] = KS_LAUNCH_TEX_CLAMP;
      f->u[0] = u * d->width;
      f->u[1] = v * d->height;
      return TRUE;
    }

  f->n = geom_coords (g);
  f->layer = is_layered_geom (g) ? clamp_layer (coords->layer, d->layers) : 0;
  for (uint32_t k = 0; k < f->n; k++)
    {
      if (coords->int_coords)
        f->i[k] = (int64_t) (int32_t) coords->c[k] + coords->offset[k];
      else
        {
          double u = coord_value (coords->c[k]);

          if (f->normalized)
            u *= f->size[k];
          f->u[k] = u + coords->offset[k];
        }
    }
  return TRUE;
}

/* Reads texel (i[0], i[1], i[2]) of the frame after the address modes */
static void
frame_texel (const KsTexObject *t,
             const Frame       *f,
             const int64_t      i[3],
             double             v[4],
             KsTexFetch        *out)
{
  uint32_t at[3] = { 0, 0, 0 };
  gboolean border = FALSE;

  int64_t *corner = out != NULL && out->n_corners < KS_TEX_MAX_TEXELS
                    ? out->corner[out->n_corners] : NULL;

  for (uint32_t k = 0; k < f->n; k++)
    {
      int64_t a = address (f->address[k], i[k], f->size[k]);

      if (a < 0)
        border = TRUE;
      else
        at[k] = (uint32_t) a;
      if (corner != NULL)
        corner[k] = a < 0 ? i[k] : a;
    }
  if (corner != NULL)
    {
      out->border |= (uint32_t) border << out->n_corners;
      out->n_corners++;
    }
  texel_values (t, border, at[0], at[1], at[2], f->layer, v, out);
}

/* What the frame says of the footprint */
static void
frame_footprint (const Frame *f,
                 KsTexFetch  *out)
{
  out->dims = f->n;
  out->layer = f->layer;
  memcpy (out->u, f->u, sizeof out->u);
}

/* The 9-bit weight of the upper texel: frac (x) to the nearest 1/256 */
static double
weight9 (double frac)
{
  return rint (frac * 256.0) / 256.0;
}

gboolean
ks_tex_sample (const KsTexObject *t,
               const KsTexCoords *coords,
               KsTexFetch        *out)
{
  const KsLaunchTexture *d = t->desc;
  Frame f;
  double v[4];

  memset (out, 0, sizeof *out);
  if (!frame_init (t, coords, &f))
    return FALSE;
  frame_footprint (&f, out);

  if (coords->int_coords && coords->geom != KS_TEX_GEOM_CUBE && coords->geom != KS_TEX_GEOM_ACUBE)
    {
      for (uint32_t k = 0; k < f.n; k++)
        {
          out->u[k] = (double) f.i[k];
          out->base[k] = f.i[k];
        }
      frame_texel (t, &f, f.i, v, out);
      for (uint32_t k = 0; k < 4; k++)
        out->v[k] = result_bits (d, v[k]);
      return TRUE;
    }

  if (d->filter == KS_LAUNCH_TEX_POINT)
    {
      int64_t i[3] = { 0, 0, 0 };

      for (uint32_t k = 0; k < f.n; k++)
        i[k] = out->base[k] = (int64_t) floor (f.u[k]);
      frame_texel (t, &f, i, v, out);
      for (uint32_t k = 0; k < 4; k++)
        out->v[k] = result_bits (d, v[k]);
      return TRUE;
    }

  {
    int64_t i0[3] = { 0, 0, 0 };
    double a[3] = { 0, 0, 0 }, sum[4] = { 0, 0, 0, 0 };

    for (uint32_t k = 0; k < f.n; k++)
      {
        double xb = f.u[k] - 0.5;
        double fl = floor (xb);

        i0[k] = out->base[k] = (int64_t) fl;
        a[k] = weight9 (xb - fl);
        out->alpha[k] = (uint32_t) (a[k] * 256);
      }
    out->linear = TRUE;
    /* the 2^n texels of the footprint, x fastest */
    for (uint32_t corner = 0; corner < (1u << f.n); corner++)
      {
        int64_t i[3] = { 0, 0, 0 };
        double w = 1.0;

        for (uint32_t k = 0; k < f.n; k++)
          {
            gboolean up = (corner >> k) & 1;

            i[k] = i0[k] + up;
            w *= up ? a[k] : 1.0 - a[k];
          }
        frame_texel (t, &f, i, v, out);
        if (w == 0)
          continue;             /* an unused texel adds nothing, not even a NaN */
        for (uint32_t k = 0; k < 4; k++)
          sum[k] += w * v[k];
      }
    for (uint32_t k = 0; k < 4; k++)
      out->v[k] = result_bits (d, sum[k]);
  }
  return TRUE;
}

gboolean
ks_tex_gather (const KsTexObject *t,
               const KsTexCoords *coords,
               uint32_t           comp,
               KsTexFetch        *out)
{
  static const int order[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
  const KsLaunchTexture *d = t->desc;
  KsTexCoords fc = *coords;
  int64_t i0[2];
  Frame f;

  memset (out, 0, sizeof *out);
  if (geom_coords (coords->geom) != 2)
    return FALSE;
  /* tld4's coordinates are always floats */
  fc.int_coords = FALSE;
  if (!frame_init (t, &fc, &f))
    return FALSE;
  frame_footprint (&f, out);
  for (uint32_t k = 0; k < 2; k++)
    i0[k] = out->base[k] = (int64_t) floor (f.u[k] - 0.5);
  for (uint32_t n = 0; n < 4; n++)
    {
      int64_t i[3] = { i0[0] + order[n][0], i0[1] + order[n][1], 0 };
      double v[4];

      frame_texel (t, &f, i, v, out);
      out->v[n] = result_bits (d, v[comp & 3]);
    }
  return TRUE;
}

/* ---- queries ----------------------------------------------------------------------------- */

/* channel_data_type and channel_order: the PTX ISA returns the source
 * language's enumeration; CUDA has none for the hardware's formats, so these
 * are OpenCL's (cl.h), the language the queries come from. */
static uint32_t
channel_data_type (const KsLaunchTexture *d)
{
  switch (d->format)
    {
    case KS_PTX_TYPE_S8: return d->normalized_float ? 0x10D0 : 0x10D7;        /* CL_SNORM_INT8, CL_SIGNED_INT8 */
    case KS_PTX_TYPE_S16: return d->normalized_float ? 0x10D1 : 0x10D8;       /* CL_SNORM_INT16, CL_SIGNED_INT16 */
    case KS_PTX_TYPE_U8: return d->normalized_float ? 0x10D2 : 0x10DA;        /* CL_UNORM_INT8, CL_UNSIGNED_INT8 */
    case KS_PTX_TYPE_U16: return d->normalized_float ? 0x10D3 : 0x10DB;       /* CL_UNORM_INT16, CL_UNSIGNED_INT16 */
    case KS_PTX_TYPE_S32: return 0x10D9;                                      /* CL_SIGNED_INT32 */
    case KS_PTX_TYPE_U32: return 0x10DC;                                      /* CL_UNSIGNED_INT32 */
    case KS_PTX_TYPE_F16: return 0x10DD;                                      /* CL_HALF_FLOAT */
    case KS_PTX_TYPE_F32: default: return 0x10DE;                             /* CL_FLOAT */
    }
}

uint32_t
ks_tex_query (const KsLaunchTexture *d,
              KsTexQuery             q)
{
  /* txq's addr_mode enumeration: wrap, mirror, clamp_ogl, clamp_to_edge,
   * clamp_to_border */
  static const uint32_t addr_modes[] = {
    [KS_LAUNCH_TEX_CLAMP] = 3, [KS_LAUNCH_TEX_WRAP] = 0, [KS_LAUNCH_TEX_MIRROR] = 1,
    [KS_LAUNCH_TEX_BORDER] = 4,
  };

  switch (q)
    {
    case KS_TEX_QUERY_WIDTH: return d->width;
    /* dimensions the array does not have are 0, as in a cudaExtent */
    case KS_TEX_QUERY_HEIGHT: return d->dims >= 2 ? d->height : 0;
    case KS_TEX_QUERY_DEPTH: return d->dims >= 3 ? d->depth : 0;
    case KS_TEX_QUERY_CHANNEL_DATA_TYPE: return channel_data_type (d);
    case KS_TEX_QUERY_CHANNEL_ORDER:
      /* CL_R, CL_RG, CL_RGBA */
      return d->channels == 1 ? 0x10B0 : d->channels == 2 ? 0x10B2 : 0x10B5;
    case KS_TEX_QUERY_NORMALIZED_COORDS: return d->normalized_coords ? 1 : 0;
    case KS_TEX_QUERY_FORCE_UNNORMALIZED_COORDS: return d->normalized_coords ? 0 : 1;
    case KS_TEX_QUERY_ARRAY_SIZE:
      if (!d->layered)
        return 0;
      return d->cubemap ? d->layers / 6 : d->layers;
    case KS_TEX_QUERY_FILTER_MODE: return d->filter == KS_LAUNCH_TEX_LINEAR ? 1 : 0;
    case KS_TEX_QUERY_ADDR_MODE_0: return addr_modes[d->address[0]];
    case KS_TEX_QUERY_ADDR_MODE_1: return addr_modes[d->address[1]];
    case KS_TEX_QUERY_ADDR_MODE_2: return addr_modes[d->address[2]];
    case KS_TEX_QUERY_NUM_MIPMAP_LEVELS:
    case KS_TEX_QUERY_NUM_SAMPLES:
    case KS_TEX_QUERY_MEMORY_LAYOUT:        /* CUDA arrays are not linear */
    case KS_TEX_QUERY_NONE:
    default:
      return 0;
    }
}

/* ---- surfaces ---------------------------------------------------------------------------- */

KsSurfResult
ks_surf_address (const KsLaunchTexture *d,
                 KsTexGeom              geom,
                 const int32_t          xyz[3],
                 uint32_t               layer,
                 uint32_t               size,
                 KsSurfClamp            clamp,
                 uint64_t               *offset)
{
  uint32_t n = geom_coords (geom);
  int64_t limit[3] = { (int64_t) d->width * d->texel_size - size, d->height - 1, d->depth - 1 };
  int64_t at[3] = { 0, 0, 0 };
  int64_t l = 0;
  gboolean out = FALSE;

  if (size == 0 || xyz[0] % (int32_t) size != 0)
    return KS_SURF_MISALIGNED;
  for (uint32_t k = 0; k < n; k++)
    {
      at[k] = xyz[k];
      if (at[k] < 0 || at[k] > limit[k])
        {
          out = TRUE;
          at[k] = at[k] < 0 ? 0 : limit[k];
        }
    }
  if (is_layered_geom (geom))
    {
      l = layer;
      if (layer >= d->layers)
        {
          out = TRUE;
          l = d->layers - 1;
        }
    }
  if (out && clamp != KS_SURF_CLAMP)
    return KS_SURF_OUT_OF_RANGE;
  *offset = texel_offset (d, (uint32_t) (at[0] / d->texel_size), (uint32_t) at[1],
                          (uint32_t) at[2], (uint32_t) l);
  return KS_SURF_OK;
}
