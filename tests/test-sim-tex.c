/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Textures and surfaces in the simulator: tex, tld4, txq, suld, sust, sured
 * and suq run as kernels on random coordinates, each result checked against
 * a reference written here from the CUDA Programming Guide's "Texture
 * Fetching" appendix (point sampling, linear filtering with 9-bit weights,
 * the address modes on coordinates and texels, the read modes, cubemap
 * faces, texture gather) and the PTX ISA (surface boundary modes), for every
 * filter, address mode, normalization and read mode; the nvcc-compiled
 * texture kernels of the corpus against C references; handles that were not
 * made by the launch, and misuses, against the faults they must give. */

#include <math.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"
#include "ks-sim-tex.h"
#include "ks-test-sim.h"

/* ---- a texture, as the reference sees it ------------------------------------------------ */

enum { CLAMP, WRAP, MIRROR, BORDER };
static const char *const mode_names[] = { "clamp", "wrap", "mirror", "border" };

typedef struct
{
  const char *type;             /* u8 s8 u16 s16 u32 s32 f16 f32 */
  int channels;
  int w, h, d, layers;          /* 0 = not given (layers: not layered) */
  gboolean cube;
  gboolean linear;
  int mode[3];
  gboolean norm;                /* normalized coordinates */
  gboolean nf;                  /* read mode normalized_float */
  double border[4];
  uint8_t *data;
  size_t size;
} Tex;

static int
esize_of (const char *type)
{
  if (strcmp (type, "u8") == 0 || strcmp (type, "s8") == 0)
    return 1;
  if (strcmp (type, "u16") == 0 || strcmp (type, "s16") == 0 || strcmp (type, "f16") == 0)
    return 2;
  return 4;
}

static int
dim (int v)
{
  return v ? v : 1;
}

static size_t
texel_bytes (const Tex *t)
{
  return (size_t) esize_of (t->type) * t->channels;
}

/* Random texels: floats in [-1, 1) (f16 as exact halves of that range),
 * integers over their whole range */
static void
tex_fill (Tex *t)
{
  size_t n = (size_t) dim (t->w) * dim (t->h) * dim (t->d) * dim (t->layers) * t->channels;
  int es = esize_of (t->type);

  t->size = n * es;
  t->data = g_malloc (t->size);
  for (size_t i = 0; i < n; i++)
    {
      uint8_t *p = t->data + i * es;

      if (strcmp (t->type, "f32") == 0)
        {
          float f = (float) g_random_double_range (-1, 1);
          memcpy (p, &f, 4);
        }
      else if (strcmp (t->type, "f16") == 0)
        {
          /* sign, an exponent for [2^-6, 1), a random mantissa */
          uint16_t h = (uint16_t) ((g_random_int () & 0x8000u) | ((9 + g_random_int_range (0, 6)) << 10)
                                   | (g_random_int () & 0x3ffu));
          memcpy (p, &h, 2);
        }
      else
        {
          uint32_t v = g_random_int ();
          memcpy (p, &v, es);
        }
    }
}

static double
half_value (uint16_t h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp (m, -24) : ldexp (1024 + m, e - 25);

  return (h & 0x8000) ? -v : v;
}

/* One channel as the read mode returns it (the Guide: "unsigned 8-bit
 * 0xff reads as 1"; unsigned to [0, 1], signed to [-1, 1]), as a double
 * holding the f32 or integer result */
static double
ref_channel (const Tex     *t,
             const uint8_t *p)
{
  const char *ty = t->type;

  if (strcmp (ty, "f32") == 0)
    {
      float f;
      memcpy (&f, p, 4);
      return f;
    }
  if (strcmp (ty, "f16") == 0)
    {
      uint16_t h;
      memcpy (&h, p, 2);
      return half_value (h);
    }
  if (strcmp (ty, "u8") == 0)
    return t->nf ? (float) (p[0] / 255.0) : p[0];
  if (strcmp (ty, "s8") == 0)
    return t->nf ? (float) fmax ((int8_t) p[0] / 127.0, -1.0) : (int8_t) p[0];
  if (strcmp (ty, "u16") == 0)
    {
      uint16_t v;
      memcpy (&v, p, 2);
      return t->nf ? (float) (v / 65535.0) : v;
    }
  if (strcmp (ty, "s16") == 0)
    {
      int16_t v;
      memcpy (&v, p, 2);
      return t->nf ? (float) fmax (v / 32767.0, -1.0) : v;
    }
  if (strcmp (ty, "u32") == 0)
    {
      uint32_t v;
      memcpy (&v, p, 4);
      return v;
    }
  {
    int32_t v;
    memcpy (&v, p, 4);
    return v;
  }
}

static gboolean
float_results (const Tex *t)
{
  return strcmp (t->type, "f32") == 0 || strcmp (t->type, "f16") == 0 || t->nf;
}

/* Texel (x, y, z) of layer l, inside the array: channels missing from the
 * format read as 0, and the fourth as 1 */
static void
ref_texel (const Tex *t,
           long       x,
           long       y,
           long       z,
           long       l,
           double     v[4])
{
  size_t at = ((((size_t) l * dim (t->d) + z) * dim (t->h) + y) * dim (t->w) + x) * texel_bytes (t);

  for (int k = 0; k < 4; k++)
    v[k] = k < t->channels ? ref_channel (t, t->data + at + k * esize_of (t->type)) : k == 3;
}

/* Point sampling, as the Guide defines the address modes on the
 * coordinate: with normalized coordinates wrap takes frac (x), mirror frac
 * (x) or 1 - frac (x) by the parity of floor (x), clamp clamps to [0, 1);
 * then x is scaled by N and the texel is floor (x).  FALSE: border. */
static gboolean
ref_point_index (int     mode,
                 gboolean norm,
                 double  x,
                 int     n,
                 long   *i)
{
  if (norm)
    {
      double fl = floor (x), f = x - fl;

      if (mode == WRAP)
        x = f;
      else if (mode == MIRROR)
        x = fmod (fl, 2.0) == 0 ? f : 1 - f;
      else if (mode == BORDER && (x < 0 || x >= 1))
        return FALSE;
      x *= n;
    }
  else if (mode == BORDER && (x < 0 || x >= n))
    return FALSE;
  *i = (long) floor (x);
  *i = *i < 0 ? 0 : *i >= n ? n - 1 : *i;
  return TRUE;
}

/* Linear filtering reads texels i and i + 1 whatever the coordinate; the
 * address mode applies to each index (clamp to the edge, wrap modulo N,
 * mirror with period 2N, border outside).  FALSE: border. */
static gboolean
ref_linear_index (int   mode,
                  long  i,
                  int   n,
                  long *out)
{
  switch (mode)
    {
    case WRAP:
      *out = ((i % n) + n) % n;
      return TRUE;
    case MIRROR:
      {
        long m = ((i % (2 * n)) + 2 * n) % (2 * n);
        *out = m < n ? m : 2 * n - 1 - m;
      }
      return TRUE;
    case BORDER:
      *out = i;
      return i >= 0 && i < n;
    default:
      *out = i < 0 ? 0 : i >= n ? n - 1 : i;
      return TRUE;
    }
}

/* The Guide's tex(x, y, z) for @nd coordinates on layer @l: point or
 * linear, f32 results as doubles (integers as they are) */
static void
ref_sample (const Tex    *t,
            int           nd,
            const double  x[3],
            long          l,
            double        out[4])
{
  int size[3] = { dim (t->w), dim (t->h), dim (t->d) };

  if (!t->linear)
    {
      long i[3] = { 0, 0, 0 };

      for (int k = 0; k < nd; k++)
        if (!ref_point_index (t->mode[k], t->norm, x[k], size[k], &i[k]))
          {
            memcpy (out, t->border, sizeof t->border);
            return;
          }
      ref_texel (t, i[0], i[1], i[2], l, out);
      return;
    }

  /* xB = x - 0.5, i = floor (xB), alpha = frac (xB) "stored in 9-bit fixed
   * point format with 8 bits of fractional value" */
  {
    long i0[3] = { 0, 0, 0 };
    double a[3] = { 0, 0, 0 };

    for (int k = 0; k < nd; k++)
      {
        double xb = (t->norm ? x[k] * size[k] : x[k]) - 0.5;

        i0[k] = (long) floor (xb);
        a[k] = rint ((xb - floor (xb)) * 256) / 256;
      }
    for (int c = 0; c < 4; c++)
      out[c] = 0;
    for (int corner = 0; corner < (1 << nd); corner++)
      {
        double w = 1, v[4];
        long at[3] = { 0, 0, 0 };
        gboolean inside = TRUE;

        for (int k = 0; k < nd; k++)
          {
            int up = (corner >> k) & 1;

            w *= up ? a[k] : 1 - a[k];
            inside &= ref_linear_index (t->mode[k], i0[k] + up, size[k], &at[k]);
          }
        if (w == 0)
          continue;
        if (inside)
          ref_texel (t, at[0], at[1], at[2], l, v);
        else
          memcpy (v, t->border, sizeof v);
        for (int c = 0; c < 4; c++)
          out[c] += w * v[c];
      }
  }
}

/* ---- running a texture kernel ------------------------------------------------------------ */

static char *
tex_json (const Tex  *t,
          const char *name,
          const char *buffer)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "\"%s\": {\"buffer\": \"%s\", \"format\": {\"type\": \"%s\", "
                          "\"channels\": %d}, \"width\": %d", name, buffer, t->type, t->channels, t->w);
  if (t->h)
    g_string_append_printf (s, ", \"height\": %d", t->h);
  if (t->d)
    g_string_append_printf (s, ", \"depth\": %d", t->d);
  if (t->layers && !(t->cube && t->layers == 6))
    g_string_append_printf (s, ", \"layers\": %d", t->layers);
  if (t->cube)
    g_string_append (s, ", \"cubemap\": true");
  g_string_append_printf (s, ", \"filter\": \"%s\", \"address\": [\"%s\", \"%s\", \"%s\"], "
                          "\"normalized_coords\": %s, \"read_mode\": \"%s\", "
                          "\"border\": [%.17g, %.17g, %.17g, %.17g]}",
                          t->linear ? "linear" : "point", mode_names[t->mode[0]],
                          mode_names[t->mode[1]], mode_names[t->mode[2]],
                          t->norm ? "true" : "false", t->nf ? "normalized_float" : "element",
                          t->border[0], t->border[1], t->border[2], t->border[3]);
  return g_string_free (s, FALSE);
}

/* A kernel: thread i loads four 32-bit words from in[4 i] into %c1..%c4,
 * runs INSN with the coordinate operand COORDS, and stores the four
 * results to out[4 i]. */
static char *
tex_kernel (const char *insn,
            const char *coords,
            const char *extra)
{
  return g_strdup_printf (".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p_tex, .param .u64 p_in, .param .u64 p_out)\n"
                          "{\n"
                          "  .reg .b32 %%c<5>;\n"
                          "  .reg .b32 %%v<5>;\n"
                          "  .reg .b32 %%r<6>;\n"
                          "  .reg .b64 %%rd<8>;\n"
                          "  ld.param.u64 %%rd1, [p_tex];\n"
                          "  ld.param.u64 %%rd2, [p_in];\n"
                          "  ld.param.u64 %%rd3, [p_out];\n"
                          "  mov.u32 %%r1, %%tid.x;\n"
                          "  mov.u32 %%r2, %%ctaid.x;\n"
                          "  mov.u32 %%r3, %%ntid.x;\n"
                          "  mad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n"
                          "  mul.wide.u32 %%rd4, %%r4, 16;\n"
                          "  add.s64 %%rd5, %%rd2, %%rd4;\n"
                          "  ld.global.v4.b32 {%%c1, %%c2, %%c3, %%c4}, [%%rd5];\n"
                          "  %s {%%v1, %%v2, %%v3, %%v4}, [%%rd1, %s]%s;\n"
                          "  add.s64 %%rd6, %%rd3, %%rd4;\n"
                          "  st.global.v4.b32 [%%rd6], {%%v1, %%v2, %%v3, %%v4};\n"
                          "  ret;\n"
                          "}\n", insn, coords, extra ? extra : "");
}

/* Runs @insn on @t for @n threads (a multiple of 64) with the coordinate
 * words @in (4 a thread), to the end or a fault. */
static void
start_tex (const Tex      *t,
           const char     *insn,
           const char     *coords,
           const char     *extra,
           const uint32_t *in,
           guint           n,
           Run            *r)
{
  g_autofree char *ptx = tex_kernel (insn, coords, extra);
  g_autofree char *hdata = hex_of (t->data, t->size);
  g_autofree char *hin = hex_of (in, (size_t) n * 16);
  g_autofree char *tj = tex_json (t, "t", "arr");
  g_autofree char *spec = g_strdup_printf (
    "{\"ptx\": \"x.ptx\", \"grid\": [%u], \"block\": [64],"
    " \"buffers\": {\"arr\": {\"bytes_hex\": \"%s\"}, \"in\": {\"bytes_hex\": \"%s\"},"
    " \"out\": {\"type\": \"u32\", \"count\": %u}},"
    " \"textures\": {%s},"
    " \"params\": [{\"texture\": \"t\"}, {\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}",
    n / 64, hdata, hin, n * 4, tj);
  g_autoptr(GError) error = NULL;

  r->module = text_module (ptx);
  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r->sim, 0, NULL);
}

/* start_tex() to the end: the results (4 a thread) */
static uint32_t *
run_tex (const Tex      *t,
         const char     *insn,
         const char     *coords,
         const char     *extra,
         const uint32_t *in,
         guint           n,
         Run            *r)
{
  start_tex (t, insn, coords, extra, in, n, r);
  assert_done (r);
  return g_memdup2 (buffer (r, "out"), (size_t) n * 16);
}

/* Coordinate groups ptxas takes but the PTX ISA does not give (one
 * register for .2d, a group of 2 for .1d, 4 for .2d): what the hardware
 * reads then is not known here, so the simulator refuses them by name
 * rather than read zeros for the missing ones (the parser refuses those
 * ptxas refuses: /ptx/parser/tex-coordinates) */
static void
test_coordinate_groups (void)
{
  static const struct { const char *insn, *coords, *fragment; } cases[] = {
    { "tex.2d.v4.u32.s32", "%c1", "with one register for the coordinates of a .2d texture "
      "(the PTX ISA's are a group of 2)" },
    { "tex.3d.v4.u32.s32", "%c1", "of a .3d texture (the PTX ISA's are a group of 4)" },
    { "tex.1d.v4.u32.s32", "{%c1, %c2}", "with a group of 2 coordinates for a .1d texture "
      "(the PTX ISA's is a group of 1)" },
    { "tex.2d.v4.u32.s32", "{%c1, %c2, %c3, %c4}", "a group of 4 coordinates for a .2d" },
    { "tld4.r.2d.v4.u32.f32", "%c1", "one register for the coordinates of a .2d texture" },
  };
  Tex t = { .type = "u32", .channels = 1, .w = 4, .h = 4, .d = 0 };
  uint32_t in[4 * 64] = { 0 };

  tex_fill (&t);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      Run r = { 0 };
      const KsSimFault *ft;

      start_tex (&t, cases[k].insn, cases[k].coords, NULL, in, 64, &r);
      ft = ks_sim_get_fault (r.sim);
      g_assert_nonnull (ft);
      g_test_message ("%s", ft->message);
      g_assert_cmpstr (ks_sim_fault_kind_name (ft->kind), ==, "unsupported");
      g_assert_nonnull (strstr (ft->message, cases[k].fragment));
      run_clear (&r);
    }
  /* the ISA's own groups run */
  {
    Run r = { 0 };

    start_tex (&t, "tex.1d.v4.u32.s32", "{%c1}", NULL, in, 64, &r);
    assert_done (&r);
    run_clear (&r);
  }
  g_free (t.data);
}

static float
f32_of (uint32_t u)
{
  float f;

  memcpy (&f, &u, 4);
  return f;
}

static uint32_t
bits_of (float f)
{
  uint32_t u;

  memcpy (&u, &f, 4);
  return u;
}

/* One result against the reference: integers and point-sampled floats
 * exactly; filtered floats within 2^-22 of the texels' scale (the Guide
 * does not say in which precision the weighted sum is formed; a weight off
 * by one step of 1/256 is off by far more) */
static void
check_result (const Tex  *t,
              uint32_t    got,
              double      want,
              const char *what,
              guint       thread,
              int         comp)
{
  if (!float_results (t))
    {
      if (got != (uint32_t) (int64_t) want)
        g_error ("%s: thread %u, component %d: got %u (%d), want %.0f", what, thread, comp,
                 got, (int32_t) got, want);
      return;
    }
  if (!t->linear)
    {
      if (got != bits_of ((float) want))
        g_error ("%s: thread %u, component %d: got %.9g, want %.9g", what, thread, comp,
                 f32_of (got), want);
      return;
    }
  if (!(fabs (f32_of (got) - want) <= 0x1p-22 * fmax (1.0, fabs (want))))
    g_error ("%s: thread %u, component %d: got %.9g, want %.9g (off by %.3g)", what, thread,
             comp, f32_of (got), want, f32_of (got) - want);
}

/* A coordinate that is not on a texel boundary, where the Guide's
 * coordinate form of point sampling and the texel form meet */
static double
random_coord (const Tex *t,
              int        n)
{
  for (;;)
    {
      double x = t->norm ? g_random_double_range (-1.25, 2.25)
                         : g_random_double_range (-3, n + 3);
      float f = (float) x;
      double scaled = t->norm ? (double) f * n : f;

      if (fabs (scaled - rint (scaled)) > 1e-3)
        return f;
    }
}

static const char *const geom_names[] = { "1d", "2d", "3d" };

/* tex.{1d,2d,3d}.v4.DT.f32 for one texture configuration */
static void
check_sample (Tex        *t,
              int         nd,
              const char *label)
{
  const char *dtype = float_results (t) ? "f32" : (t->type[0] == 's' ? "s32" : "u32");
  static const char *const coords[] = { "{%c1}", "{%c1, %c2}", "{%c1, %c2, %c3, %c4}" };
  g_autofree char *insn = g_strdup_printf ("tex.%s.v4.%s.f32", geom_names[nd - 1], dtype);
  int size[3] = { dim (t->w), dim (t->h), dim (t->d) };
  guint n = 128;
  g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
  g_autofree uint32_t *out = NULL;
  Run r = { 0 };

  tex_fill (t);
  for (guint i = 0; i < n; i++)
    for (int k = 0; k < nd; k++)
      in[4 * i + k] = bits_of ((float) random_coord (t, size[k]));
  out = run_tex (t, insn, coords[nd - 1], NULL, in, n, &r);
  for (guint i = 0; i < n; i++)
    {
      double x[3] = { f32_of (in[4 * i]), f32_of (in[4 * i + 1]), f32_of (in[4 * i + 2]) };
      double want[4];

      ref_sample (t, nd, x, 0, want);
      for (int c = 0; c < 4; c++)
        check_result (t, out[4 * i + c], want[c], label, i, c);
    }
  run_clear (&r);
  g_clear_pointer (&t->data, g_free);
}

static void
random_border (Tex *t)
{
  for (int c = 0; c < 4; c++)
    t->border[c] = float_results (t) ? (float) g_random_double_range (-2, 2)
                                     : (double) g_random_int_range (-1000, 1000);
  if (!float_results (t) && t->type[0] == 'u')
    for (int c = 0; c < 4; c++)
      t->border[c] = fabs (t->border[c]);
}

/* Every filter x address mode x normalization for 1D, 2D and 3D f32
 * textures of 1, 2 and 4 channels */
static void
test_sample_float (void)
{
  for (int nd = 1; nd <= 3; nd++)
    for (int linear = 0; linear < 2; linear++)
      for (int norm = 0; norm < 2; norm++)
        for (int mode = 0; mode < 4; mode++)
          {
            Tex t = { .type = "f32", .channels = 1 << g_random_int_range (0, 3),
                      .w = g_random_int_range (2, 13), .linear = linear, .norm = norm };
            g_autofree char *label = NULL;

            if (!norm && (mode == WRAP || mode == MIRROR))
              continue;
            if (nd >= 2)
              t.h = g_random_int_range (2, 9);
            if (nd >= 3)
              t.d = g_random_int_range (2, 6);
            /* a different mode in each dimension */
            for (int k = 0; k < 3; k++)
              t.mode[k] = k == 0 || !norm ? mode : (mode + k) % 4;
            if (!norm)
              for (int k = 0; k < 3; k++)
                t.mode[k] = (t.mode[k] == WRAP || t.mode[k] == MIRROR) ? CLAMP : t.mode[k];
            random_border (&t);
            label = g_strdup_printf ("%dD %s %s %s/%s/%s f32x%d", nd, linear ? "linear" : "point",
                                     norm ? "normalized" : "unnormalized", mode_names[t.mode[0]],
                                     mode_names[t.mode[1]], mode_names[t.mode[2]], t.channels);
            g_test_message ("%s", label);
            check_sample (&t, nd, label);
          }
}

/* Read modes: f16, the normalized 8- and 16-bit integers (point and
 * linear), and integers read as elements (point) */
static void
test_sample_read_modes (void)
{
  static const char *const nf_types[] = { "u8", "s8", "u16", "s16" };
  static const char *const int_types[] = { "u8", "s8", "u16", "s16", "u32", "s32" };

  for (int linear = 0; linear < 2; linear++)
    for (int mode = 0; mode < 4; mode++)
      {
        for (guint k = 0; k < G_N_ELEMENTS (nf_types) + 1; k++)
          {
            Tex t = { .type = k < G_N_ELEMENTS (nf_types) ? nf_types[k] : "f16",
                      .channels = 1 << g_random_int_range (0, 3), .w = g_random_int_range (2, 11),
                      .h = g_random_int_range (2, 7), .linear = linear, .norm = TRUE,
                      .nf = k < G_N_ELEMENTS (nf_types), .mode = { mode, mode, mode } };
            g_autofree char *label = g_strdup_printf ("2D %s %s %s%s x%d", linear ? "linear" : "point",
                                                      mode_names[mode], t.type,
                                                      t.nf ? " normalized_float" : "", t.channels);

            random_border (&t);
            check_sample (&t, 2, label);
          }
        if (linear)
          continue;
        for (guint k = 0; k < G_N_ELEMENTS (int_types); k++)
          {
            Tex t = { .type = int_types[k], .channels = 1 << g_random_int_range (0, 3),
                      .w = g_random_int_range (2, 11), .h = g_random_int_range (2, 7),
                      .norm = mode == WRAP || mode == MIRROR, .mode = { mode, mode, mode } };
            g_autofree char *label = g_strdup_printf ("2D point %s %s x%d (element)",
                                                      mode_names[mode], t.type, t.channels);

            random_border (&t);
            check_sample (&t, 2, label);
          }
      }
}

/* The weights are 9-bit: between two texels 0 and 1, x = 0.5 + k/512 for
 * odd k lies halfway between two steps of 1/256 and must round to one of
 * them, never give k/512 itself */
static void
test_linear_weights (void)
{
  Tex t = { .type = "f32", .channels = 1, .w = 2, .linear = TRUE };
  guint n = 512;
  g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
  g_autofree uint32_t *out = NULL;
  float texels[2] = { 0.0f, 1.0f };
  Run r = { 0 };

  t.data = g_memdup2 (texels, sizeof texels);
  t.size = sizeof texels;
  for (guint i = 0; i < n; i++)
    in[4 * i] = bits_of (0.5f + (float) i / (float) n);
  out = run_tex (&t, "tex.1d.v4.f32.f32", "{%c1}", NULL, in, n, &r);
  for (guint i = 0; i < n; i++)
    {
      double got = f32_of (out[4 * i]);

      /* a multiple of 1/256: the result of 1 - a and a on 0 and 1 */
      g_assert_cmpfloat (got * 256, ==, rint (got * 256));
      g_assert_cmpfloat (fabs (got - (double) i / n), <=, 1.0 / 512);
      if (i % 2 == 0)
        g_assert_cmpfloat (got, ==, (double) i / n);
    }
  run_clear (&r);
  g_free (t.data);
}

/* .s32 coordinates are texel indices, never filtered nor normalized */
static void
test_int_coords (void)
{
  for (int mode = 0; mode < 4; mode += 3)
    {
      Tex t = { .type = "f32", .channels = 2, .w = 9, .h = 5, .linear = TRUE,
                .mode = { mode, mode, mode }, .border = { 7, 8, 9, 10 } };
      guint n = 128;
      g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
      g_autofree uint32_t *out = NULL;
      Run r = { 0 };

      tex_fill (&t);
      for (guint i = 0; i < n; i++)
        {
          in[4 * i] = (uint32_t) g_random_int_range (-3, 12);
          in[4 * i + 1] = (uint32_t) g_random_int_range (-3, 8);
        }
      out = run_tex (&t, "tex.2d.v4.f32.s32", "{%c1, %c2}", NULL, in, n, &r);
      for (guint i = 0; i < n; i++)
        {
          long x = (int32_t) in[4 * i], y = (int32_t) in[4 * i + 1], ix, iy;
          double want[4];

          if (ref_linear_index (mode, x, 9, &ix) && ref_linear_index (mode, y, 5, &iy))
            ref_texel (&t, ix, iy, 0, 0, want);
          else
            memcpy (want, t.border, sizeof want);
          for (int c = 0; c < 4; c++)
            g_assert_cmphex (out[4 * i + c], ==, bits_of ((float) want[c]));
        }
      run_clear (&r);
      g_free (t.data);
    }
}

/* Layered textures: the array index selects the layer (clamped to the
 * layers there are), the rest filters within it */
static void
test_layered (void)
{
  for (int nd = 1; nd <= 2; nd++)
    for (int linear = 0; linear < 2; linear++)
      {
        Tex t = { .type = "f32", .channels = 4, .w = g_random_int_range (2, 9),
                  .h = nd == 2 ? g_random_int_range (2, 6) : 0, .layers = 5, .linear = linear,
                  .norm = TRUE, .mode = { WRAP, MIRROR, CLAMP } };
        guint n = 128;
        g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
        g_autofree uint32_t *out = NULL;
        Run r = { 0 };

        tex_fill (&t);
        for (guint i = 0; i < n; i++)
          {
            in[4 * i] = bits_of ((float) random_coord (&t, t.w));
            in[4 * i + 1] = bits_of ((float) random_coord (&t, dim (t.h)));
            in[4 * i + 3] = (uint32_t) g_random_int_range (0, 8);
          }
        out = run_tex (&t, nd == 1 ? "tex.a1d.v4.f32.f32" : "tex.a2d.v4.f32.f32",
                       nd == 1 ? "{%c4, %c1}" : "{%c4, %c1, %c2, %c2}", NULL, in, n, &r);
        for (guint i = 0; i < n; i++)
          {
            double x[3] = { f32_of (in[4 * i]), f32_of (in[4 * i + 1]), 0 }, want[4];

            ref_sample (&t, nd, x, MIN (in[4 * i + 3], 4u), want);
            for (int c = 0; c < 4; c++)
              check_result (&t, out[4 * i + c], want[c], "layered", i, c);
          }
        run_clear (&r);
        g_free (t.data);
      }
}

/* The Guide's "Cubemap Textures" table: the major axis picks the face, the
 * other two divided by its magnitude give (s, t) in [-1, 1] */
static void
ref_cube (const double dir[3],
          int         *face,
          double      *u,
          double      *v)
{
  double x = dir[0], y = dir[1], z = dir[2], m, s, t;

  if (fabs (x) >= fabs (y) && fabs (x) >= fabs (z))
    {
      *face = x >= 0 ? 0 : 1;
      m = fabs (x);
      s = x >= 0 ? -z : z;
      t = -y;
    }
  else if (fabs (y) >= fabs (z))
    {
      *face = y >= 0 ? 2 : 3;
      m = fabs (y);
      s = x;
      t = y >= 0 ? z : -z;
    }
  else
    {
      *face = z >= 0 ? 4 : 5;
      m = fabs (z);
      s = z >= 0 ? x : -x;
      t = -y;
    }
  *u = (s / m + 1) / 2;
  *v = (t / m + 1) / 2;
}

static void
test_cubemap (void)
{
  for (int array = 0; array < 2; array++)
    for (int linear = 0; linear < 2; linear++)
      {
        Tex t = { .type = "f32", .channels = 1, .w = 6, .h = 6, .layers = array ? 12 : 6,
                  .cube = TRUE, .linear = linear, .norm = TRUE };
        guint n = 256;
        g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
        g_autofree uint32_t *out = NULL;
        Run r = { 0 };

        tex_fill (&t);
        for (guint i = 0; i < n; i++)
          {
            for (int k = 0; k < 3; k++)
              in[4 * i + k] = bits_of ((float) g_random_double_range (-1, 1));
            in[4 * i + 3] = (uint32_t) g_random_int_range (0, 3);
          }
        out = run_tex (&t, array ? "tex.acube.v4.f32.f32" : "tex.cube.v4.f32.f32",
                       array ? "{%c4, %c1, %c2, %c3}" : "{%c1, %c2, %c3, %c4}", NULL, in, n, &r);
        for (guint i = 0; i < n; i++)
          {
            double dir[3] = { f32_of (in[4 * i]), f32_of (in[4 * i + 1]), f32_of (in[4 * i + 2]) };
            double x[3] = { 0, 0, 0 }, want[4];
            int face;
            long layer;

            ref_cube (dir, &face, &x[0], &x[1]);
            layer = face + (array ? 6 * MIN (in[4 * i + 3], 1u) : 0);
            /* faces clamp at their edges */
            ref_sample (&t, 2, x, layer, want);
            for (int c = 0; c < 4; c++)
              check_result (&t, out[4 * i + c], want[c], "cube", i, c);
          }
        run_clear (&r);
        g_free (t.data);
      }
}

/* tld4: one component of the four texels linear filtering would blend,
 * (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
static void
test_gather (void)
{
  static const char comps[] = "rgba";

  for (int mode = 0; mode < 4; mode++)
    for (int comp = 0; comp < 4; comp++)
      {
        Tex t = { .type = comp % 2 ? "f32" : "u16", .channels = 4, .w = g_random_int_range (2, 9),
                  .h = g_random_int_range (2, 9), .norm = TRUE, .nf = comp % 2 == 0,
                  .mode = { mode, mode, mode } };
        g_autofree char *insn = g_strdup_printf ("tld4.%c.2d.v4.f32.f32", comps[comp]);
        guint n = 128;
        g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
        g_autofree uint32_t *out = NULL;
        Run r = { 0 };

        random_border (&t);
        tex_fill (&t);
        for (guint i = 0; i < n; i++)
          {
            in[4 * i] = bits_of ((float) random_coord (&t, t.w));
            in[4 * i + 1] = bits_of ((float) random_coord (&t, t.h));
          }
        out = run_tex (&t, insn, "{%c1, %c2}", NULL, in, n, &r);
        for (guint i = 0; i < n; i++)
          {
            double xb = f32_of (in[4 * i]) * t.w - 0.5, yb = f32_of (in[4 * i + 1]) * t.h - 0.5;
            long i0 = (long) floor (xb), j0 = (long) floor (yb);
            long at[4][2] = { { i0, j0 + 1 }, { i0 + 1, j0 + 1 }, { i0 + 1, j0 }, { i0, j0 } };

            for (int k = 0; k < 4; k++)
              {
                long x, y;
                double v[4];

                if (ref_linear_index (mode, at[k][0], t.w, &x) && ref_linear_index (mode, at[k][1], t.h, &y))
                  ref_texel (&t, x, y, 0, 0, v);
                else
                  memcpy (v, t.border, sizeof v);
                g_assert_cmphex (out[4 * i + k], ==, bits_of ((float) v[comp]));
              }
          }
        run_clear (&r);
        g_free (t.data);
      }
}

/* Texel offsets (operand e) move the footprint by whole texels */
static void
test_offsets (void)
{
  Tex t = { .type = "f32", .channels = 1, .w = 16, .h = 8, .linear = TRUE };
  guint n = 64;
  g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
  g_autofree uint32_t *out = NULL;
  Run r = { 0 };

  tex_fill (&t);
  for (guint i = 0; i < n; i++)
    {
      in[4 * i] = bits_of ((float) g_random_double_range (0, 16));
      in[4 * i + 1] = bits_of ((float) g_random_double_range (0, 8));
    }
  out = run_tex (&t, "tex.2d.v4.f32.f32", "{%c1, %c2}", ", {-3, 2}", in, n, &r);
  for (guint i = 0; i < n; i++)
    {
      /* in double: the offset moves whole texels, and in float the sum
       * would round the coordinate's fraction (f32 1.2345678 - 3) */
      double x[3] = { (double) f32_of (in[4 * i]) - 3, (double) f32_of (in[4 * i + 1]) + 2, 0 };
      double want[4];

      ref_sample (&t, 2, x, 0, want);
      check_result (&t, out[4 * i], want[0], "offset", i, 0);
    }
  run_clear (&r);
  g_free (t.data);
}

/* d|p: the results and a predicate that says the texels were resident in
 * memory, which they always are here */
static void
test_resident_predicate (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p_tex, .param .u64 p_out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p_tex];\n"
    "  ld.param.u64 %rd2, [p_out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 99;\n"          /* false everywhere until tex sets it */
    "  tex.2d.v4.u32.s32 {%r2, %r3, %r4, %r5}|%p1, [%rd1, {%r1, %r1}];\n"
    "  selp.u32 %r6, 7, 3, %p1;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.v2.u32 [%rd4], {%r2, %r6};\n"
    "  ret;\n"
    "}\n";
  static const char spec[] =
    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1024, \"init\": {\"range\": {\"start\": 5, \"step\": 1}}},"
    "   \"out\": {\"type\": \"u32\", \"count\": 64}},"
    " \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"u32\"}, \"width\": 32, \"height\": 32}},"
    " \"params\": [{\"texture\": \"t\"}, {\"buffer\": \"out\"}]}";
  g_autoptr(GError) error = NULL;
  const uint32_t *out;
  Run r = { 0 };

  r.module = text_module (ptx);
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  out = buffer (&r, "out");
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (out[2 * i], ==, 5 + 33 * i);
      g_assert_cmpuint (out[2 * i + 1], ==, 7);
    }
  run_clear (&r);
}

/* ---- queries ------------------------------------------------------------------------------- */

static void
test_queries (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p_tex, .param .u64 p_surf, .param .u64 p_out)\n"
    "{\n"
    "  .reg .b32 %r<20>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_tex];\n"
    "  ld.param.u64 %rd2, [p_surf];\n"
    "  ld.param.u64 %rd3, [p_out];\n"
    "  txq.width.b32 %r1, [%rd1];\n"
    "  txq.height.b32 %r2, [%rd1];\n"
    "  txq.depth.b32 %r3, [%rd1];\n"
    "  txq.array_size.b32 %r4, [%rd1];\n"
    "  txq.normalized_coords.b32 %r5, [%rd1];\n"
    "  txq.filter_mode.b32 %r6, [%rd1];\n"
    "  txq.addr_mode_0.b32 %r7, [%rd1];\n"
    "  txq.addr_mode_1.b32 %r8, [%rd1];\n"
    "  txq.channel_data_type.b32 %r9, [%rd1];\n"
    "  txq.channel_order.b32 %r10, [%rd1];\n"
    "  txq.num_mipmap_levels.b32 %r11, [%rd1];\n"
    "  suq.width.b32 %r12, [%rd2];\n"
    "  suq.height.b32 %r13, [%rd2];\n"
    "  suq.depth.b32 %r14, [%rd2];\n"
    "  suq.array_size.b32 %r15, [%rd2];\n"
    "  suq.channel_data_type.b32 %r16, [%rd2];\n"
    "  st.global.v4.b32 [%rd3], {%r1, %r2, %r3, %r4};\n"
    "  st.global.v4.b32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
    "  st.global.v4.b32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
    "  st.global.v4.b32 [%rd3+48], {%r13, %r14, %r15, %r16};\n"
    "  ret;\n"
    "}\n";
  static const char spec[] =
    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 4096}, \"out\": {\"type\": \"u32\", \"count\": 16}},"
    " \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"s16\", \"channels\": 2},"
    "   \"width\": 12, \"height\": 7, \"layers\": 3, \"filter\": \"linear\", \"normalized_coords\": true,"
    "   \"address\": [\"mirror\", \"border\"], \"read_mode\": \"normalized_float\"}},"
    " \"surfaces\": {\"s\": {\"buffer\": \"a\", \"format\": {\"type\": \"u32\"}, \"width\": 20, \"height\": 3, \"depth\": 4}},"
    " \"params\": [{\"texture\": \"t\"}, {\"surface\": \"s\"}, {\"buffer\": \"out\"}]}";
  /* width, height, depth (0: the array has none), array_size; normalized,
   * linear, mirror (1) and clamp_to_border (4) in txq's enumeration;
   * CL_SNORM_INT16 and CL_RG (the OpenCL values the PTX ISA refers to), no
   * mipmap levels; the surface's sizes, no layers, CL_UNSIGNED_INT32 */
  static const uint32_t want[16] = {
    12, 7, 0, 3, 1, 1, 1, 4, 0x10D1, 0x10B2, 0, 20, 3, 4, 0, 0x10DC,
  };
  g_autoptr(GError) error = NULL;
  Run r = { 0 };

  r.module = text_module (ptx);
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  g_assert_cmpmem (buffer (&r, "out"), sizeof want, want, sizeof want);
  run_clear (&r);
}

/* ---- surfaces ---------------------------------------------------------------------------- */

/* A surface kernel: thread i loads coordinates in[4 i .. 4 i + 3] (x in
 * bytes, y, z or the layer first) and a value, then runs BODY. */
static char *
surf_kernel (const char *body)
{
  return g_strdup_printf (".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p_surf, .param .u64 p_in, .param .u64 p_out)\n"
                          "{\n"
                          "  .reg .b32 %%c<5>;\n"
                          "  .reg .b32 %%v<5>;\n"
                          "  .reg .b16 %%h<5>;\n"
                          "  .reg .b32 %%r<6>;\n"
                          "  .reg .b64 %%rd<8>;\n"
                          "  .reg .b64 %%q<3>;\n"
                          "  ld.param.u64 %%rd1, [p_surf];\n"
                          "  ld.param.u64 %%rd2, [p_in];\n"
                          "  ld.param.u64 %%rd3, [p_out];\n"
                          "  mov.u32 %%r1, %%tid.x;\n"
                          "  mov.u32 %%r2, %%ctaid.x;\n"
                          "  mov.u32 %%r3, %%ntid.x;\n"
                          "  mad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n"
                          "  mul.wide.u32 %%rd4, %%r4, 16;\n"
                          "  add.s64 %%rd5, %%rd2, %%rd4;\n"
                          "  ld.global.v4.b32 {%%c1, %%c2, %%c3, %%c4}, [%%rd5];\n"
                          "  add.s64 %%rd6, %%rd3, %%rd4;\n"
                          "  mov.b32 %%v1, 0; mov.b32 %%v2, 0; mov.b32 %%v3, 0; mov.b32 %%v4, 0;\n"
                          "%s"
                          "  st.global.v4.b32 [%%rd6], {%%v1, %%v2, %%v3, %%v4};\n"
                          "  ret;\n"
                          "}\n", body);
}

typedef struct
{
  const char *type;
  int channels;
  int w, h, d, layers;
} Surf;

static size_t
surf_bytes (const Surf *s)
{
  return (size_t) esize_of (s->type) * s->channels * dim (s->w) * dim (s->h) * dim (s->d)
         * dim (s->layers);
}

static KsSimStatus
run_surf (const Surf     *s,
          const uint8_t  *data,
          const char     *body,
          const uint32_t *in,
          guint           n,
          Run            *r)
{
  g_autofree char *ptx = surf_kernel (body);
  g_autofree char *hdata = hex_of (data, surf_bytes (s));
  g_autofree char *hin = hex_of (in, (size_t) n * 16);
  GString *sj = g_string_new (NULL);
  g_autofree char *spec = NULL;
  g_autoptr(GError) error = NULL;

  g_string_append_printf (sj, "\"s\": {\"buffer\": \"arr\", \"format\": {\"type\": \"%s\", "
                          "\"channels\": %d}, \"width\": %d", s->type, s->channels, s->w);
  if (s->h)
    g_string_append_printf (sj, ", \"height\": %d", s->h);
  if (s->d)
    g_string_append_printf (sj, ", \"depth\": %d", s->d);
  if (s->layers)
    g_string_append_printf (sj, ", \"layers\": %d", s->layers);
  g_string_append (sj, "}");
  spec = g_strdup_printf (
    "{\"ptx\": \"x.ptx\", \"grid\": [%u], \"block\": [%u],"
    " \"buffers\": {\"arr\": {\"bytes_hex\": \"%s\"}, \"in\": {\"bytes_hex\": \"%s\"},"
    " \"out\": {\"type\": \"u32\", \"count\": %u}},"
    " \"surfaces\": {%s},"
    " \"params\": [{\"surface\": \"s\"}, {\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}",
    (n + 31) / 32, MIN (n, 32u), hdata, hin, n * 4, sj->str);
  g_string_free (sj, TRUE);
  r->module = text_module (ptx);
  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  ks_sim_set_step_limit (r->sim, 1000000);
  return ks_sim_run (r->sim, 0, NULL);
}

/* Where element (x in bytes, y, z, layer) is in the array, -1 outside */
static long
surf_offset (const Surf *s,
             long        xb,
             long        y,
             long        z,
             long        layer)
{
  long tb = esize_of (s->type) * s->channels;

  if (xb < 0 || xb >= dim (s->w) * tb || y < 0 || y >= dim (s->h) || z < 0 || z >= dim (s->d)
      || layer < 0 || layer >= dim (s->layers))
    return -1;
  return (((layer * dim (s->d) + z) * dim (s->h) + y) * dim (s->w)) * tb + xb;
}

static long
clampl (long v,
        long lo,
        long hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

typedef struct
{
  const char *geom;
  int nd;                       /* coordinates after the layer */
  gboolean layered;
  const char *coords;
} SurfGeom;

static const SurfGeom surf_geoms[] = {
  { "1d", 1, FALSE, "{%c1}" },
  { "2d", 2, FALSE, "{%c1, %c2}" },
  { "3d", 3, FALSE, "{%c1, %c2, %c3, %c3}" },
  { "a1d", 1, TRUE, "{%c4, %c1}" },
  { "a2d", 2, TRUE, "{%c4, %c1, %c2, %c2}" },
};

/* suld.b with each boundary mode: in range the element's bytes; .clamp the
 * nearest element; .zero zeros; .trap faults at the first lane out of
 * range, naming the instruction's line and the thread */
static void
test_surface_load (void)
{
  static const char *const clamps[] = { "trap", "clamp", "zero" };
  static const struct { const char *type; int channels; const char *vec; const char *dst; } forms[] = {
    { "u8", 4, "v4.b8", "{%h1, %h2, %h3, %h4}" },
    { "f32", 1, "b32", "%v1" },
    { "s16", 2, "v2.b16", "{%h1, %h2}" },
    { "f32", 4, "v4.b32", "{%v1, %v2, %v3, %v4}" },
    { "u32", 2, "v2.b32", "{%v1, %v2}" },
    { "u16", 4, "b64", "%q1" },
  };

  for (guint g = 0; g < G_N_ELEMENTS (surf_geoms); g++)
    for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
      for (guint cl = 0; cl < 3; cl++)
        {
          const SurfGeom *sg = &surf_geoms[g];
          Surf s = { forms[f].type, forms[f].channels, g_random_int_range (2, 7),
                     sg->nd >= 2 ? g_random_int_range (2, 5) : 0, sg->nd >= 3 ? g_random_int_range (2, 4) : 0,
                     sg->layered ? 3 : 0 };
          long tb = esize_of (s.type) * s.channels;
          guint n = 64;
          g_autofree uint8_t *data = g_malloc (surf_bytes (&s));
          g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
          g_autofree char *body = NULL;
          const uint32_t *out;
          gboolean in_range_only = cl == 0;
          Run r = { 0 };
          int first_bad = -1;
          GString *b = g_string_new (NULL);

          for (size_t i = 0; i < surf_bytes (&s); i++)
            data[i] = (uint8_t) g_random_int ();
          g_string_append_printf (b, "  suld.b.%s.%s.%s %s, [%%rd1, %s];\n", sg->geom, forms[f].vec,
                                  clamps[cl], forms[f].dst, sg->coords);
          /* the result's bytes, in order, into %v1..%v4 */
          if (strcmp (forms[f].vec, "v4.b8") == 0)
            g_string_append (b, "  cvt.u32.u16 %v1, %h1;\n  cvt.u32.u16 %v2, %h2;\n"
                                "  cvt.u32.u16 %v3, %h3;\n  cvt.u32.u16 %v4, %h4;\n");
          else if (strcmp (forms[f].vec, "v2.b16") == 0)
            g_string_append (b, "  cvt.u32.u16 %v1, %h1;\n  cvt.u32.u16 %v2, %h2;\n");
          else if (strcmp (forms[f].vec, "b64") == 0)
            g_string_append (b, "  mov.b64 {%v1, %v2}, %q1;\n");
          body = g_string_free (b, FALSE);

          for (guint i = 0; i < n; i++)
            {
              gboolean inside = in_range_only || g_random_int_range (0, 3) > 0;
              long x = inside ? g_random_int_range (0, s.w) : g_random_int_range (-3, s.w + 3);
              long y = inside ? g_random_int_range (0, dim (s.h)) : g_random_int_range (-2, dim (s.h) + 2);
              long z = inside ? g_random_int_range (0, dim (s.d)) : g_random_int_range (-2, dim (s.d) + 2);
              long layer = inside ? g_random_int_range (0, dim (s.layers)) : g_random_int_range (0, dim (s.layers) + 2);

              in[4 * i] = (uint32_t) (x * tb);
              in[4 * i + 1] = (uint32_t) y;
              in[4 * i + 2] = (uint32_t) z;
              in[4 * i + 3] = (uint32_t) layer;
            }
          /* .trap: one lane out of range */
          if (cl == 0)
            {
              first_bad = g_random_int_range (0, n);
              in[4 * first_bad] = (uint32_t) (s.w * tb);
            }
          run_surf (&s, data, body, in, n, &r);
          if (cl == 0)
            {
              const KsSimFault *ft = ks_sim_get_fault (r.sim);

              g_assert_nonnull (ft);
              g_assert_cmpstr (ks_sim_fault_kind_name (ft->kind), ==, "out_of_bounds");
              g_assert_cmpuint (ft->ptx_line, ==, 24);
              g_assert_cmpuint (ft->block[0] * 32 + ft->thread[0], ==, (guint) first_bad);
              g_assert_nonnull (strstr (ft->message, "outside surface 's'"));
              g_assert_nonnull (strstr (ft->message, ".trap"));
              run_clear (&r);
              continue;
            }
          assert_done (&r);
          out = buffer (&r, "out");
          for (guint i = 0; i < n; i++)
            {
              long x = (int32_t) in[4 * i] / tb, y = (int32_t) in[4 * i + 1], z = (int32_t) in[4 * i + 2];
              long layer = in[4 * i + 3];
              long at;
              uint8_t want[16] = { 0 };
              uint32_t got[4];

              if (sg->nd < 2)
                y = 0;
              if (sg->nd < 3)
                z = 0;
              if (!sg->layered)
                layer = 0;
              at = surf_offset (&s, x * tb, y, z, layer);
              if (at < 0 && cl == 1)
                at = surf_offset (&s, clampl (x, 0, s.w - 1) * tb, clampl (y, 0, dim (s.h) - 1),
                                  clampl (z, 0, dim (s.d) - 1), clampl (layer, 0, dim (s.layers) - 1));
              if (at >= 0)
                memcpy (want, data + at, tb);
              memcpy (got, out + 4 * i, 16);
              if (strcmp (forms[f].vec, "v4.b8") == 0)
                for (int k = 0; k < 4; k++)
                  g_assert_cmphex (got[k], ==, want[k]);
              else if (strcmp (forms[f].vec, "v2.b16") == 0)
                for (int k = 0; k < 2; k++)
                  g_assert_cmphex (got[k], ==, want[2 * k] | (want[2 * k + 1] << 8));
              else
                g_assert_cmpmem (got, tb, want, tb);
            }
          run_clear (&r);
        }
}

/* sust.b and then suld.b of every element: stores in range land at their
 * element; .zero drops stores out of range; .clamp moves them to the edge;
 * everything else keeps its bytes */
static void
test_surface_store (void)
{
  static const char *const clamps[] = { "clamp", "zero" };

  for (guint g = 0; g < G_N_ELEMENTS (surf_geoms); g++)
    for (guint cl = 0; cl < 2; cl++)
      {
        const SurfGeom *sg = &surf_geoms[g];
        /* one lane a distinct element in range, so the stores do not race */
        Surf s = { "u32", 1, 32, sg->nd >= 2 ? 4 : 0, sg->nd >= 3 ? 2 : 0, sg->layered ? 2 : 0 };
        guint n = 32;
        g_autofree uint8_t *data = g_malloc (surf_bytes (&s));
        g_autofree uint8_t *want = NULL;
        g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
        g_autofree char *body = g_strdup_printf ("  add.u32 %%r5, %%r4, 1000;\n"
                                                 "  sust.b.%s.b32.%s [%%rd1, %s], %%r5;\n",
                                                 sg->geom, clamps[cl], sg->coords);
        Run r = { 0 };

        for (size_t i = 0; i < surf_bytes (&s); i++)
          data[i] = (uint8_t) g_random_int ();
        want = g_memdup2 (data, surf_bytes (&s));
        for (guint i = 0; i < n; i++)
          {
            /* lanes 0-23 in range at x = lane (distinct), the rest outside
             * in x only (beyond the right edge, which .clamp moves to
             * x = 31, which no lane in range writes) */
            long x = i < 24 ? (long) i : 32 + (long) i;
            long y = dim (s.h) - 1, z = dim (s.d) - 1, layer = dim (s.layers) - 1;

            in[4 * i] = (uint32_t) (x * 4);
            in[4 * i + 1] = (uint32_t) y;
            in[4 * i + 2] = (uint32_t) z;
            in[4 * i + 3] = (uint32_t) layer;
          }
        run_surf (&s, data, body, in, n, &r);
        assert_done (&r);
        for (guint i = 0; i < n; i++)
          {
            long x = i < 24 ? (long) i : cl == 0 ? 31 : -1;
            uint32_t v = 1000 + i;

            if (x < 0)
              continue;
            memcpy (want + surf_offset (&s, x * 4, dim (s.h) - 1, dim (s.d) - 1, dim (s.layers) - 1),
                    &v, 4);
          }
        g_assert_cmpmem (buffer (&r, "arr"), surf_bytes (&s), want, surf_bytes (&s));
        run_clear (&r);
      }
}

/* sured.b: each operation on u32, s32, b32 and u64 elements, lanes in
 * order on shared elements */
static void
test_surface_reduce (void)
{
  static const struct { const char *op; const char *type; } forms[] = {
    { "add", "u32" }, { "min", "u32" }, { "max", "u32" }, { "min", "s32" }, { "max", "s32" },
    { "add", "s32" }, { "and", "b32" }, { "or", "b32" }, { "add", "u64" }, { "max", "s64" },
  };

  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      gboolean wide = forms[f].type[1] == '6';
      Surf s = { wide ? "u32" : "u32", wide ? 2 : 1, 8, 2, 0, 0 };
      guint n = 64;
      g_autofree uint8_t *data = g_malloc (surf_bytes (&s));
      g_autofree uint8_t *want = NULL;
      g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
      g_autofree char *body = g_strdup_printf ("  %s"
                                               "  sured.b.%s.2d.%s.trap [%%rd1, {%%c1, %%c2}], %s;\n",
                                               wide ? "mov.b64 %q1, {%c3, %c4};\n" : "",
                                               forms[f].op, forms[f].type, wide ? "%q1" : "%c3");
      int es = wide ? 8 : 4;
      Run r = { 0 };

      for (size_t i = 0; i < surf_bytes (&s); i++)
        data[i] = (uint8_t) g_random_int ();
      want = g_memdup2 (data, surf_bytes (&s));
      for (guint i = 0; i < n; i++)
        {
          in[4 * i] = (uint32_t) (g_random_int_range (0, 8) * es);
          in[4 * i + 1] = (uint32_t) g_random_int_range (0, 2);
          in[4 * i + 2] = g_random_int ();
          in[4 * i + 3] = g_random_int ();
        }
      run_surf (&s, data, body, in, n, &r);
      assert_done (&r);
      for (guint i = 0; i < n; i++)
        {
          uint8_t *p = want + in[4 * i + 1] * 8 * es + in[4 * i];
          uint64_t old = 0, v = wide ? (in[4 * i + 2] | (uint64_t) in[4 * i + 3] << 32) : in[4 * i + 2], nv;
          const char *op = forms[f].op;
          gboolean sgn = forms[f].type[0] == 's';

          memcpy (&old, p, es);
          if (strcmp (op, "add") == 0)
            nv = old + v;
          else if (strcmp (op, "and") == 0)
            nv = old & v;
          else if (strcmp (op, "or") == 0)
            nv = old | v;
          else
            {
              gboolean less = wide ? (sgn ? (int64_t) old < (int64_t) v : old < v)
                                   : (sgn ? (int32_t) old < (int32_t) v : (uint32_t) old < (uint32_t) v);

              nv = (strcmp (op, "min") == 0) == less ? old : v;
            }
          memcpy (p, &nv, es);
        }
      g_assert_cmpmem (buffer (&r, "arr"), surf_bytes (&s), want, surf_bytes (&s));
      run_clear (&r);
    }
}

/* What the instruction cannot do on its surface: faults naming it, its
 * line and the thread */
static void
test_surface_faults (void)
{
  static const struct { const char *body; const char *kind; const char *fragment; } cases[] = {
    /* 16 bytes a lane on 4-byte elements */
    { "  suld.b.1d.v4.b32.trap {%v1, %v2, %v3, %v4}, [%rd1, {%c1}];\n", "texture",
      "moves 16 bytes a lane, but surface 's' has 4-byte elements (f32)" },
    { "  sust.b.1d.b16.trap [%rd1, {%c1}], %h1;\n", "texture", "moves 2 bytes a lane" },
    /* x is in bytes: 6 is not a multiple of 4 */
    { "  add.u32 %c1, %c1, 2;\n  suld.b.1d.b32.clamp %v1, [%rd1, {%c1}];\n", "misaligned",
      "x = 6 bytes is not a multiple of the 4-byte access" },
    { "  sust.b.2d.b32.trap [%rd1, {%c1, %c4}], %c1;\n", "out_of_bounds", "outside surface 's'" },
    { "  sust.p.1d.b32.trap [%rd1, {%c1}], {%c1};\n", "unsupported", "formatted form (.p)" },
  };
  Surf s = { "f32", 1, 8, 2, 0, 0 };
  uint8_t data[64] = { 0 };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      uint32_t in[4 * 8] = { 0 };
      Run r = { 0 };
      const KsSimFault *ft;

      for (guint i = 0; i < 8; i++)
        {
          in[4 * i] = 4;
          in[4 * i + 3] = i == 5 ? 2 : 1;       /* lane 5: y = 2, past the 2 rows */
        }
      run_surf (&s, data, cases[k].body, in, 8, &r);
      ft = ks_sim_get_fault (r.sim);
      g_assert_nonnull (ft);
      g_test_message ("%s", ft->message);
      g_assert_cmpstr (ks_sim_fault_kind_name (ft->kind), ==, cases[k].kind);
      g_assert_nonnull (strstr (ft->message, cases[k].fragment));
      g_assert_cmpuint (ft->ptx_line, ==, 24 + (cases[k].body[2] == 'a'));
      if (strcmp (cases[k].kind, "out_of_bounds") == 0)
        g_assert_cmpuint (ft->thread[0], ==, 5);
      run_clear (&r);
    }
}

/* ---- handles -------------------------------------------------------------------------------- */

static void
test_handle_codec (void)
{
  for (uint32_t i = 0; i < KS_LAUNCH_MAX_TEXTURES; i += 7)
    for (int kind = KS_TEX_TEXTURE; kind <= KS_TEX_SURFACE; kind++)
      {
        uint64_t h = ks_tex_handle ((KsTexKind) kind, i);
        KsTexKind k;
        uint32_t index;

        g_assert_true (ks_tex_handle_decode (h, &k, &index));
        g_assert_cmpint (k, ==, kind);
        g_assert_cmpuint (index, ==, i);
        /* a handle moved by a small offset names nothing */
        for (int64_t d = -300; d <= 300; d++)
          if (d != 0)
            g_assert_false (ks_tex_handle_decode (h + (uint64_t) d, &k, &index));
        /* nor the other kind's handle with the same bits elsewhere */
        g_assert_false (ks_tex_handle_decode (h ^ ((uint64_t) 3 << 32), &k, &index));
      }
  g_assert_false (ks_tex_handle_decode (0, NULL, NULL));
  g_assert_false (ks_tex_handle_decode (G_GUINT64_CONSTANT (0x00007f0000000000), NULL, NULL));
}

/* Forged and wrong handles, unbound references: a "texture" fault naming
 * the instruction, its line, the block and the thread, never a read of
 * anything */
static void
test_forged_handles (void)
{
  static const struct { const char *setup; const char *insn; const char *fragment; } cases[] = {
    /* the handle plus one: another index with the wrong check word */
    { "  add.s64 %rd1, %rd1, %rd7;\n", "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];",
      "is not a texture handle" },
    /* a pointer passed as a handle */
    { "  mov.u64 %rd1, %rd2;\n", "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];",
      "is not a texture handle" },
    /* a surface handle to tex, a texture handle to suld */
    { "  mov.u64 %rd1, %rd3;\n", "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];",
      "the handle is surface 'o', not a texture" },
    { "", "suld.b.1d.b32.trap %r2, [%rd1, {%r1}];", "the handle is texture 't', not a surface" },
    { "", "tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f1, %f1, %f1}];",
      "texture 't' is not a cubemap" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *ptx = g_strdup_printf (
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 p_tex, .param .u64 p_buf, .param .u64 p_surf)\n"
        "{\n"
        "  .reg .b32 %%r<4>;\n"
        "  .reg .f32 %%f<5>;\n"
        "  .reg .pred %%p<2>;\n"
        "  .reg .b64 %%rd<8>;\n"
        "  ld.param.u64 %%rd1, [p_tex];\n"
        "  ld.param.u64 %%rd2, [p_buf];\n"
        "  ld.param.u64 %%rd3, [p_surf];\n"
        "  mov.u32 %%r1, %%tid.x;\n"
        "  cvt.rn.f32.u32 %%f1, %%r1;\n"
        "  setp.eq.u32 %%p1, %%r1, 37;\n"
        "  selp.b64 %%rd7, 1, 0, %%p1;\n"
        "%s"
        "  @%%p1 %s\n"
        "  ret;\n"
        "}\n", cases[k].setup, cases[k].insn);
      static const char spec[] =
        "{\"ptx\": \"x.ptx\", \"grid\": [2], \"block\": [64],"
        " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 64}},"
        " \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 64}},"
        " \"surfaces\": {\"o\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 64}},"
        " \"params\": [{\"texture\": \"t\"}, {\"buffer\": \"a\"}, {\"surface\": \"o\"}]}";
      g_autoptr(GError) error = NULL;
      const KsSimFault *ft;
      Run r = { 0 };

      r.module = text_module (ptx);
      r.launch = ks_launch_parse (spec, -1, NULL, &error);
      g_assert_no_error (error);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
      ft = ks_sim_get_fault (r.sim);
      g_test_message ("%s", ft->message);
      g_assert_cmpstr (ks_sim_fault_kind_name (ft->kind), ==, "texture");
      g_assert_nonnull (strstr (ft->message, cases[k].fragment));
      g_assert_cmpuint (ft->ptx_line, ==, 17 + (cases[k].setup[0] != '\0'));
      g_assert_cmpuint (ft->block[0], ==, 0);
      g_assert_cmpuint (ft->thread[0], ==, 37);
      run_clear (&r);
    }
}

/* A texture over pitched memory (cudaResourceTypePitch2D): its rows
 * "pitch" bytes apart, from "offset" bytes into the buffer, read with
 * clamped integer coordinates, against a C reference over the same bytes;
 * then the same handle after the object was destroyed faults */
static void
test_pitched (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p_tex, .param .u64 p_out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p_tex];\n"
    "  ld.param.u64 %rd2, [p_out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 9;\n"
    "  sub.s32 %r2, %r2, 2;\n"
    "  div.u32 %r3, %r1, 9;\n"
    "  sub.s32 %r3, %r3, 1;\n"
    "  tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r2, %r3}];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.f32 [%rd4], %f1;\n"
    "  ret;\n"
    "}\n";
  /* 5 x 3 texels, rows of 8 floats, starting at float 4 */
  enum { W = 5, H = 3, PITCH = 8, OFF = 4, N = 9 * 6 };
  g_autoptr(GString) spec = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  float mem[OFF + PITCH * H];
  const float *out;
  Run r = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (mem); i++)
    mem[i] = (float) (i * 3 + 1);
  g_string_append (spec, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [54],"
                   " \"buffers\": {\"m\": {\"type\": \"f32\", \"data\": [");
  for (guint i = 0; i < G_N_ELEMENTS (mem); i++)
    g_string_append_printf (spec, "%s%g", i ? ", " : "", mem[i]);
  g_string_append_printf (spec, "]}, \"out\": {\"type\": \"f32\", \"count\": %d}},"
                          " \"textures\": {\"t\": {\"buffer\": \"m\", \"format\": {\"type\": \"f32\"},"
                          " \"width\": %d, \"height\": %d, \"offset\": %d, \"pitch\": %d}},"
                          " \"params\": [{\"texture\": \"t\"}, {\"buffer\": \"out\"}]}",
                          N, W, H, OFF * 4, PITCH * 4);
  r.module = text_module (ptx);
  r.launch = ks_launch_parse (spec->str, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_DONE);
  out = (const float *) buffer (&r, "out");
  for (int t = 0; t < N; t++)
    {
      int x = CLAMP (t % 9 - 2, 0, W - 1), y = CLAMP (t / 9 - 1, 0, H - 1);

      g_assert_cmpfloat (out[t], ==, mem[OFF + y * PITCH + x]);
    }
  run_clear (&r);

  /* the rows need 16 + 2 x 32 + 5 x 4 = 100 bytes: one float short */
  {
    g_autofree char *bad = g_strdup_printf (
      "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1],"
      " \"buffers\": {\"m\": {\"type\": \"f32\", \"count\": %d}},"
      " \"textures\": {\"t\": {\"buffer\": \"m\", \"format\": {\"type\": \"f32\"},"
      " \"width\": %d, \"height\": %d, \"offset\": %d, \"pitch\": %d}}}",
      OFF + PITCH * (H - 1) + W - 1, W, H, OFF * 4, PITCH * 4);

    g_assert_null (ks_launch_parse (bad, -1, NULL, &error));
    g_assert_nonnull (strstr (error->message, "the array needs 100 (3 rows of 5 texels of 4 "
                                              "bytes, at offset 16, pitch 32)"));
    g_clear_error (&error);
  }

  /* destroyed before the launch: its handle faults where it is used */
  g_string_truncate (spec, 0);
  g_string_append (spec, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [54],"
                   " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 54}},"
                   " \"textures\": {\"gone\": {\"destroyed\": true}},"
                   " \"params\": [{\"texture\": \"gone\"}, {\"buffer\": \"out\"}]}");
  r.module = text_module (ptx);
  r.launch = ks_launch_parse (spec->str, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
  g_assert_nonnull (strstr (ks_sim_get_fault (r.sim)->message,
                            "texture 'gone' was destroyed, or its memory freed, before the "
                            "launch"));
  run_clear (&r);
  g_assert_null (ks_launch_parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1],"
                                  " \"textures\": {\"t\": {\"destroyed\": true, \"width\": 4}}}",
                                  -1, NULL, &error));
  g_assert_nonnull (strstr (error->message, "textures.t.width: unknown key"));
}

/* Module .texref and .surfref variables: bound by the launch spec's
 * "bindings" they read and write like handles; unbound they fault; a
 * binding to a variable of the wrong kind is refused when the simulation
 * is made */
static void
test_bindings (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .texref tex_a;\n"
    ".global .surfref surf_a;\n"
    ".global .texref tex_b;\n"
    ".visible .entry k(.param .u32 p_which)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r3, [p_which];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r3, 0;\n"
    "  @%p1 tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex_b, {%r1}];\n"
    "  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex_a, {%r1}];\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  sust.b.1d.b32.trap [surf_a, {%r2}], %f1;\n"
    "  ret;\n"
    "}\n";
  static const char spec_fmt[] =
    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [16],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"init\": {\"range\": {\"start\": 0.5, \"step\": 1}}, \"count\": 16},"
    "              \"b\": {\"type\": \"f32\", \"count\": 16}},"
    " \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 16}},"
    " \"surfaces\": {\"o\": {\"buffer\": \"b\", \"format\": {\"type\": \"f32\"}, \"width\": 16}},"
    " \"bindings\": {%s}, \"params\": [%s]}";
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf (spec_fmt, "\"tex_a\": {\"texture\": \"t\"}, "
                                           "\"surf_a\": {\"surface\": \"o\"}",
                                           "{\"type\": \"u32\", \"value\": 0}");
  const float *b;
  Run r = { 0 };

  r.module = text_module (ptx);
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  b = buffer (&r, "b");
  for (int i = 0; i < 16; i++)
    g_assert_cmpfloat (b[i], ==, i + 0.5f);
  g_clear_pointer (&r.sim, ks_sim_free);
  g_clear_pointer (&r.launch, ks_launch_free);

  /* tex_b is not bound */
  g_free (spec);
  spec = g_strdup_printf (spec_fmt, "\"tex_a\": {\"texture\": \"t\"}, \"surf_a\": {\"surface\": \"o\"}",
                          "{\"type\": \"u32\", \"value\": 1}");
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
  g_assert_cmpstr (ks_sim_fault_kind_name (ks_sim_get_fault (r.sim)->kind), ==, "texture");
  g_assert_cmpuint (ks_sim_get_fault (r.sim)->ptx_line, ==, 15);
  g_assert_nonnull (strstr (ks_sim_get_fault (r.sim)->message,
                            "tex_b is not bound to a texture: add \"bindings\": {\"tex_b\": {\"texture\": NAME}}"));
  g_clear_pointer (&r.sim, ks_sim_free);
  g_clear_pointer (&r.launch, ks_launch_free);

  /* bindings the module cannot take */
  {
    static const struct { const char *bindings; const char *message; } bad[] = {
      { "\"surf_a\": {\"texture\": \"t\"}", "bindings.surf_a: surf_a (line 5) is not a .texref variable (a surface" },
      { "\"tex_a\": {\"surface\": \"o\"}", "bindings.tex_a: tex_a (line 4) is not a .surfref variable (a texture" },
      { "\"tex_c\": {\"texture\": \"t\"}", "bindings.tex_c: the module has no .texref variable named tex_c" },
    };

    for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
      {
        g_free (spec);
        spec = g_strdup_printf (spec_fmt, bad[k].bindings, "{\"type\": \"u32\", \"value\": 0}");
        r.launch = ks_launch_parse (spec, -1, NULL, &error);
        g_assert_no_error (error);
        r.sim = ks_sim_new (r.module, r.launch, &error);
        g_assert_null (r.sim);
        g_assert_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH);
        g_assert_nonnull (strstr (error->message, bad[k].message));
        g_clear_error (&error);
        g_clear_pointer (&r.launch, ks_launch_free);
      }
  }
  /* a handle passed to a 32-bit parameter */
  g_free (spec);
  spec = g_strdup_printf (spec_fmt, "", "{\"texture\": \"t\"}");
  {
    r.launch = ks_launch_parse (spec, -1, NULL, &error);
    g_assert_no_error (error);
    r.sim = ks_sim_new (r.module, r.launch, &error);
    g_assert_null (r.sim);
    g_assert_nonnull (strstr (error->message, "params[0]: a texture handle (8 bytes) is passed to "
                                              "parameter p_which of 4 bytes"));
    g_clear_error (&error);
  }
  run_clear (&r);
}

/* ---- the memory analysis ------------------------------------------------------------------ */

/* Texture fetches are counted apart from loads: a 2D linear fetch reads
 * four texels a lane; the sectors they span go through L1, where a second
 * fetch of the same texels hits */
static void
test_memory_stats (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p_tex, .param .u64 p_surf)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<12>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_tex];\n"
    "  ld.param.u64 %rd2, [p_surf];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n"
    "  add.f32 %f1, %f1, 0f3F000000;\n"      /* x = lane + 0.5: texel centres */
    "  mov.f32 %f2, 0f3FC00000;\n"           /* y = 1.5 */
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  add.f32 %f1, %f1, 0f42000000;\n"      /* x = lane + 32.5: 32 texels on */
    "  tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f1, %f2}];\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  sust.b.2d.b32.trap [%rd2, {%r2, %r1}], %f3;\n"
    "  ret;\n"
    "}\n";
  static const char spec[] =
    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 2048}, \"b\": {\"type\": \"f32\", \"count\": 1024}},"
    " \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 64, \"height\": 32,"
    "   \"filter\": \"linear\"}},"
    " \"surfaces\": {\"o\": {\"buffer\": \"b\", \"format\": {\"type\": \"f32\"}, \"width\": 32, \"height\": 32}},"
    " \"params\": [{\"texture\": \"t\"}, {\"surface\": \"o\"}]}";
  g_autoptr(GError) error = NULL;
  const KsSimInsnStats *st;
  Run r = { 0 };

  r.module = text_module (ptx);
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  st = ks_sim_get_insn_stats (r.sim);
  /* instruction 6: x = lane + 0.5, y = 1.5: xB = lane, yB = 1, so the
   * footprint is texels lane and lane + 1 of rows 1 and 2 (the second
   * with weight 0, read all the same): x 0 to 32, 132 bytes of each row,
   * 5 sectors a row */
  g_assert_cmpuint (st[6].tex_requests, ==, 1);
  g_assert_cmpuint (st[6].tex_fetches, ==, 32 * 4);
  g_assert_cmpuint (st[6].tex_sectors, ==, 10);
  g_assert_cmpuint (st[6].tex_l1_hits, ==, 0);
  g_assert_cmpuint (st[6].tex_l1_misses, ==, 10);
  g_assert_cmpuint (st[6].gmem_requests, ==, 0);
  g_assert_cmpuint (st[6].l1_hits + st[6].l1_misses, ==, 0);
  /* instruction 8: texels 32 to 63 (64 clamped to 63), bytes 128 to 255
   * of each row: 4 sectors a row, the first of them read before */
  g_assert_cmpuint (st[8].tex_fetches, ==, 32 * 4);
  g_assert_cmpuint (st[8].tex_sectors, ==, 8);
  g_assert_cmpuint (st[8].tex_l1_hits, ==, 2);
  g_assert_cmpuint (st[8].tex_l1_misses, ==, 6);
  /* the store: one element a lane down a column, one sector each */
  g_assert_cmpuint (st[10].surf_requests, ==, 1);
  g_assert_cmpuint (st[10].tex_requests, ==, 0);
  g_assert_cmpuint (st[10].tex_sectors, ==, 32);
  run_clear (&r);
}

/* ---- the corpus's nvcc-compiled texture kernels -------------------------------------------- */

static KsPtxModule *
corpus_module (void)
{
  return test_ptx_file ("corpus", "sm_80", "24_textures.ptx");
}

static void
run_corpus (Run        *r,
            const char *spec)
{
  g_autoptr(GError) error = NULL;

  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r->sim, 0, NULL);
  assert_done (r);
}

/* tex_fetch1d: out[i] = tex1Dfetch<float> (tex, i) + (float) tex1Dfetch<int> (tex, i + 1)
 * on one f32 texture: the int fetch returns the texel's 32 bits as the
 * texture unit produces them (the float's bits), which nvcc converts */
static void
test_corpus_fetch1d (void)
{
  const int n = 200;
  float data[201];
  g_autofree char *hex = NULL, *spec = NULL;
  const float *out;
  Run r = { 0 };

  for (int i = 0; i <= n; i++)
    data[i] = (float) g_random_double_range (-4, 4);
  hex = hex_of (data, sizeof data);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z11tex_fetch1dyPfi\", \"grid\": [4], \"block\": [64],"
                          " \"buffers\": {\"arr\": {\"type\": \"f32\", \"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"f32\", \"count\": 256}},"
                          " \"textures\": {\"t\": {\"buffer\": \"arr\", \"format\": {\"type\": \"f32\"}, \"width\": %d}},"
                          " \"params\": [{\"texture\": \"t\"}, {\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": %d}]}",
                          hex, n + 1, n);
  r.module = corpus_module ();
  run_corpus (&r, spec);
  out = buffer (&r, "out");
  for (int i = 0; i < 256; i++)
    {
      float want = 0;

      if (i < n)
        {
          int32_t bits;

          memcpy (&bits, &data[i + 1], 4);
          want = data[i] + (float) bits;
        }
      g_assert_cmphex (bits_of (out[i]), ==, bits_of (want));
    }
  run_clear (&r);
}

/* tex_sample2d on a 2D texture of 3 layers, linear and normalized:
 * a = tex2D (u, v) and tex2DLod (.., 1.5) read layer 0 (an array has one
 * level of detail), tex3D reads it as one slice of depth 1,
 * tex2DLayered (.., 2) layer 2; out = (a.x + b.x, a.y + b.y, a.z + c, a.w + d) */
static void
test_corpus_sample2d (void)
{
  Tex t = { .type = "f32", .channels = 4, .w = 13, .h = 7, .layers = 3, .linear = TRUE,
            .norm = TRUE, .mode = { WRAP, MIRROR, CLAMP } };
  const int w = 19, h = 11;
  g_autofree char *hex = NULL, *spec = NULL, *tj = NULL;
  const float *out;
  Run r = { 0 };

  tex_fill (&t);
  hex = hex_of (t.data, t.size);
  tj = tex_json (&t, "t", "arr");
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z12tex_sample2dyP6float4ii\", \"grid\": [2, 3], \"block\": [16, 4],"
                          " \"buffers\": {\"arr\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"f32\", \"count\": %d}},"
                          " \"textures\": {%s},"
                          " \"params\": [{\"texture\": \"t\"}, {\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": %d},"
                          " {\"type\": \"s32\", \"value\": %d}]}",
                          hex, 4 * w * h, tj, w, h);
  r.module = corpus_module ();
  run_corpus (&r, spec);
  out = buffer (&r, "out");
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        /* the kernel's u, v: (x + 0.5f) / w in f32 */
        double uv[3] = { (float) ((float) x + 0.5f) / (float) w, (float) ((float) y + 0.5f) / (float) h, 0 };
        double a[4], d[4];
        float want[4];

        ref_sample (&t, 2, uv, 0, a);
        ref_sample (&t, 2, uv, 2, d);
        want[0] = (float) a[0] + (float) a[0];
        want[1] = (float) a[1] + (float) a[1];
        want[2] = (float) a[2] + (float) a[0];
        want[3] = (float) a[3] + (float) d[0];
        for (int c = 0; c < 4; c++)
          g_assert_cmpfloat (fabs (out[4 * (y * w + x) + c] - want[c]), <=,
                             0x1p-21 * fmax (1.0, fabs (want[c])));
      }
  run_clear (&r);
  g_free (t.data);
}

/* surf_blur on uchar4 surfaces: dst (x, y) = ((s + t) / 2 per channel, 255)
 * with s = src (x, y) and t = src (x + 1, y) clamped to the edge; then
 * surf1Dwrite (1.0f, dst, 4 x, zero) writes the bits of 1.0f to element x
 * of row 0 (the 1D view of the 2D surface) */
static void
test_corpus_surf_blur (void)
{
  const int w = 23, h = 9;
  uint8_t src[23 * 9 * 4], want[23 * 9 * 4];
  g_autofree char *hex = NULL, *spec = NULL;
  Run r = { 0 };

  for (guint i = 0; i < sizeof src; i++)
    src[i] = (uint8_t) g_random_int ();
  hex = hex_of (src, sizeof src);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z9surf_bluryyii\", \"grid\": [2, 3], \"block\": [16, 4],"
                          " \"buffers\": {\"a\": {\"bytes_hex\": \"%s\"}, \"b\": {\"type\": \"u8\", \"count\": %d}},"
                          " \"surfaces\": {\"src\": {\"buffer\": \"a\", \"format\": {\"type\": \"u8\", \"channels\": 4}, \"width\": %d, \"height\": %d},"
                          "              \"dst\": {\"buffer\": \"b\", \"format\": {\"type\": \"u8\", \"channels\": 4}, \"width\": %d, \"height\": %d}},"
                          " \"params\": [{\"surface\": \"src\"}, {\"surface\": \"dst\"}, {\"type\": \"s32\", \"value\": %d},"
                          " {\"type\": \"s32\", \"value\": %d}]}",
                          hex, w * h * 4, w, h, w, h, w, h);
  memset (want, 0, sizeof want);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const uint8_t *s = &src[4 * (y * w + x)], *t = &src[4 * (y * w + MIN (x + 1, w - 1))];

        for (int c = 0; c < 3; c++)
          want[4 * (y * w + x) + c] = (uint8_t) ((s[c] + t[c]) / 2);
        want[4 * (y * w + x) + 3] = 255;
      }
  /* every thread's 1D write goes to row 0 after the 2D write of row 0
   * (the warp that holds row 0 makes its 2D writes first, and no later
   * 2D write touches row 0): row 0 ends as the bits of 1.0f */
  for (int x = 0; x < w; x++)
    {
      float one = 1.0f;

      memcpy (&want[4 * x], &one, 4);
    }
  r.module = corpus_module ();
  run_corpus (&r, spec);
  g_assert_cmpmem (buffer (&r, "b"), sizeof want, want, sizeof want);
  run_clear (&r);
}

/* ---- the samples the memory view draws ------------------------------------------------- */

/* The instruction of @r's module with @opcode */
static uint32_t
insn_of (const Run *r,
         KsPtxOpcode opcode)
{
  for (uint32_t i = 0; i < r->module->n_insns; i++)
    if (r->module->insns[i].opcode == opcode)
      return i;
  g_assert_not_reached ();
}

/* The footprint the Guide's formulas give for coordinates @x: linear
 * filtering reads i = floor (xB) and i + 1 along each coordinate,
 * xB = x - 0.5 (times N when normalized), with the weight of i + 1
 * alpha = frac (xB) in 9-bit fixed point (8 fractional bits: 256ths);
 * point sampling reads floor (x).  Each index through the address mode;
 * a border texel keeps its index. */
typedef struct
{
  int n;
  long texel[8][3];
  gboolean border[8];
  int alpha[3];
} RefFootprint;

static void
ref_footprint (const Tex    *t,
               int           nd,
               const double  x[3],
               RefFootprint *fp)
{
  int size[3] = { dim (t->w), dim (t->h), dim (t->d) };
  long i0[3] = { 0, 0, 0 };

  memset (fp, 0, sizeof *fp);
  if (!t->linear)
    {
      fp->n = 1;
      for (int k = 0; k < nd; k++)
        if (!ref_point_index (t->mode[k], t->norm, x[k], size[k], &fp->texel[0][k]))
          {
            fp->border[0] = TRUE;
            fp->texel[0][k] = (long) floor (t->norm ? x[k] * size[k] : x[k]);
          }
      return;
    }
  for (int k = 0; k < nd; k++)
    {
      double xb = (t->norm ? x[k] * size[k] : x[k]) - 0.5;

      i0[k] = (long) floor (xb);
      fp->alpha[k] = (int) rint ((xb - floor (xb)) * 256);
    }
  fp->n = 1 << nd;
  for (int corner = 0; corner < fp->n; corner++)
    for (int k = 0; k < nd; k++)
      if (!ref_linear_index (t->mode[k], i0[k] + ((corner >> k) & 1), size[k],
                             &fp->texel[corner][k]))
        fp->border[corner] = TRUE;
}

/* Every tex execution of a small launch is sampled (2 warps, under the 16
 * kept), and each lane's record holds the texels, the 9-bit weights and
 * the value the Guide's formulas give for its coordinates, for point and
 * linear filtering under clamp, wrap and border, in 1, 2 and 3 dimensions */
static void
test_samples_footprint (void)
{
  static const struct
  {
    int nd;
    gboolean linear, norm;
    int mode;
  } cases[] = {
    { 1, TRUE, FALSE, CLAMP }, { 1, FALSE, FALSE, CLAMP }, { 1, TRUE, TRUE, WRAP },
    { 2, TRUE, FALSE, CLAMP }, { 2, FALSE, TRUE, WRAP }, { 2, TRUE, TRUE, WRAP },
    { 2, TRUE, FALSE, BORDER }, { 3, TRUE, TRUE, CLAMP },
  };
  static const char *const coords[] = { "{%c1}", "{%c1, %c2}", "{%c1, %c2, %c3, %c4}" };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Tex t = { .type = "f32", .channels = 1, .w = 7, .h = cases[c].nd >= 2 ? 5 : 0,
                .d = cases[c].nd >= 3 ? 3 : 0, .linear = cases[c].linear, .norm = cases[c].norm,
                .mode = { cases[c].mode, cases[c].mode, cases[c].mode }, .border = { 0.25 } };
      int nd = cases[c].nd, size[3] = { 7, dim (t.h), dim (t.d) };
      g_autofree char *insn = g_strdup_printf ("tex.%s.v4.f32.f32", geom_names[nd - 1]);
      guint n = 64;
      g_autofree uint32_t *in = g_new0 (uint32_t, n * 4);
      g_autofree uint32_t *out = NULL;
      const KsMemAccess *m;
      const KsTexAccess *ta;
      uint32_t n_m, n_ta, tex;
      uint64_t base = 0;
      Run r = { 0 };

      tex_fill (&t);
      for (guint i = 0; i < n; i++)
        for (int k = 0; k < nd; k++)
          in[4 * i + k] = bits_of ((float) random_coord (&t, size[k]));
      out = run_tex (&t, insn, coords[nd - 1], NULL, in, n, &r);
      tex = insn_of (&r, KS_PTX_OPC_TEX);
      m = ks_sim_get_accesses (r.sim, tex, &n_m);
      ta = ks_sim_get_tex_accesses (r.sim, tex, &n_ta);
      /* one block of 64 threads: warps 0 and 1, in that order */
      g_assert_cmpuint (n_m, ==, 2);
      g_assert_cmpuint (n_ta, ==, 2);
      for (uint32_t s = 0; s < 2; s++)
        {
          g_assert_cmpuint (m[s].warp, ==, s);
          g_assert_cmpuint (m[s].mask, ==, 0xffffffffu);
          g_assert_cmpuint (m[s].space, ==, KS_PTX_SPACE_TEX);
          g_assert_cmpuint (ta[s].dims, ==, nd);
          g_assert_cmpuint (ta[s].linear, ==, cases[c].linear);
          for (uint32_t l = 0; l < 32; l++)
            {
              guint i = s * 32 + l;
              const KsTexLane *tl = &ta[s].lane[l];
              double x[3] = { f32_of (in[4 * i]), f32_of (in[4 * i + 1]), f32_of (in[4 * i + 2]) };
              double want[4];
              RefFootprint fp;

              ref_footprint (&t, nd, x, &fp);
              g_assert_cmpuint (tl->n_texels, ==, fp.n);
              g_assert_cmpuint (tl->texture, ==, 0);
              for (int k = 0; k < nd; k++)
                {
                  g_assert_cmpfloat_with_epsilon (tl->u[k], t.norm ? x[k] * size[k] : x[k], 1e-4);
                  if (cases[c].linear)
                    g_assert_cmpint (tl->alpha[k], ==, fp.alpha[k]);
                }
              for (int q = 0; q < fp.n; q++)
                {
                  g_assert_cmpint ((tl->border >> q) & 1, ==, fp.border[q]);
                  for (int k = 0; k < nd; k++)
                    g_assert_cmpint (tl->texel[q][k], ==, fp.texel[q][k]);
                }
              /* the first texel read from memory is the access's address:
               * the array's base plus its offset */
              if (!fp.border[0])
                {
                  uint64_t first = (((uint64_t) fp.texel[0][2] * dim (t.h) + fp.texel[0][1]) * 7
                                    + fp.texel[0][0]) * 4;

                  if (base == 0)
                    base = m[s].addr[l] - first;
                  g_assert_cmphex (m[s].addr[l], ==, base + first);
                }
              ref_sample (&t, nd, x, 0, want);
              for (int q = 0; q < 4; q++)
                {
                  check_result (&t, tl->value[q], want[q], "sampled value", i, q);
                  g_assert_cmphex (tl->value[q], ==, out[4 * i + q]);
                }
            }
        }
      run_clear (&r);
      g_free (t.data);
    }
}

/* A hand count on one 1D linear fetch: x = 2.25 on 4 texels
 * {10, 20, 30, 40}, clamp: xB = 1.75, i = 1, alpha = 0.75 = 192/256, so
 * texels 1 and 2 with weights 64 and 192: 0.25 * 20 + 0.75 * 30 = 27.5.
 * x = 0.2: xB = -0.3, i = -1, alpha = 0.7 -> 179/256 (0.69921875); both
 * texels clamp to 0: 10.  Wrap (normalized, x = 0.05 of 4 texels = 0.2):
 * texels 3 and 0, 0.30078125 * 40 + 0.69921875 * 10 = 19.0234375. */
static void
test_samples_hand_count (void)
{
  static const struct
  {
    float x;
    gboolean norm;
    int mode;
    long t0, t1;
    int alpha;
    float value;
  } cases[] = {
    { 2.25f, FALSE, CLAMP, 1, 2, 192, 27.5f },
    { 0.2f, FALSE, CLAMP, 0, 0, 179, 10.0f },
    { 0.05f, TRUE, WRAP, 3, 0, 179, 19.0234375f },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      float texels[4] = { 10, 20, 30, 40 };
      Tex t = { .type = "f32", .channels = 1, .w = 4, .linear = TRUE, .norm = cases[c].norm,
                .mode = { cases[c].mode, cases[c].mode, cases[c].mode } };
      g_autofree uint32_t *in = g_new0 (uint32_t, 64 * 4);
      g_autofree uint32_t *out = NULL;
      const KsTexAccess *ta;
      uint32_t n_ta;
      Run r = { 0 };

      t.data = g_memdup2 (texels, sizeof texels);
      t.size = sizeof texels;
      for (guint i = 0; i < 64; i++)
        in[4 * i] = bits_of (cases[c].x);
      out = run_tex (&t, "tex.1d.v4.f32.f32", "{%c1}", NULL, in, 64, &r);
      ta = ks_sim_get_tex_accesses (r.sim, insn_of (&r, KS_PTX_OPC_TEX), &n_ta);
      g_assert_cmpuint (n_ta, ==, 2);
      g_assert_cmpuint (ta[0].lane[5].n_texels, ==, 2);
      g_assert_cmpint (ta[0].lane[5].texel[0][0], ==, cases[c].t0);
      g_assert_cmpint (ta[0].lane[5].texel[1][0], ==, cases[c].t1);
      g_assert_cmpint (ta[0].lane[5].alpha[0], ==, cases[c].alpha);
      g_assert_cmphex (ta[0].lane[5].value[0], ==, bits_of (cases[c].value));
      g_assert_cmphex (out[4 * 5], ==, bits_of (cases[c].value));
      run_clear (&r);
      g_free (t.data);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sim/tex/handles/codec", test_handle_codec);
  g_test_add_func ("/sim/tex/handles/forged", test_forged_handles);
  g_test_add_func ("/sim/tex/handles/bindings", test_bindings);
  g_test_add_func ("/sim/tex/pitched-and-destroyed", test_pitched);
  g_test_add_func ("/sim/tex/sample/float-filter-address-normalized", test_sample_float);
  g_test_add_func ("/sim/tex/sample/read-modes", test_sample_read_modes);
  g_test_add_func ("/sim/tex/sample/9-bit-weights", test_linear_weights);
  g_test_add_func ("/sim/tex/sample/int-coordinates", test_int_coords);
  g_test_add_func ("/sim/tex/sample/layered", test_layered);
  g_test_add_func ("/sim/tex/sample/cubemap", test_cubemap);
  g_test_add_func ("/sim/tex/sample/offsets", test_offsets);
  g_test_add_func ("/sim/tex/sample/resident-predicate", test_resident_predicate);
  g_test_add_func ("/sim/tex/tld4", test_gather);
  g_test_add_func ("/sim/tex/coordinate-groups", test_coordinate_groups);
  g_test_add_func ("/sim/tex/queries", test_queries);
  g_test_add_func ("/sim/tex/surface/load-boundary-modes", test_surface_load);
  g_test_add_func ("/sim/tex/surface/store-boundary-modes", test_surface_store);
  g_test_add_func ("/sim/tex/surface/reduce", test_surface_reduce);
  g_test_add_func ("/sim/tex/surface/faults", test_surface_faults);
  g_test_add_func ("/sim/tex/memory-analysis", test_memory_stats);
  g_test_add_func ("/sim/tex/samples/footprint-weights", test_samples_footprint);
  g_test_add_func ("/sim/tex/samples/hand-count", test_samples_hand_count);
  g_test_add_func ("/sim/tex/corpus/tex-fetch1d", test_corpus_fetch1d);
  g_test_add_func ("/sim/tex/corpus/tex-sample2d", test_corpus_sample2d);
  g_test_add_func ("/sim/tex/corpus/surf-blur", test_corpus_surf_blur);
  return g_test_run ();
}
