/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sim-isa.c: the simulator one instruction form at a time.
 *
 * Each case is generated from a row of the table built in build_rows(): a
 * tiny kernel that loads up to four operands per thread from buffers, runs
 * the one instruction under test and stores its result, and a C reference
 * written here from the PTX ISA's semantics (never with the engine's own
 * numeric library).  Every one of the N_LANES lanes is compared bit for
 * bit, with the exceptions documented where they are made:
 *
 *   - a NaN result is compared as "is a NaN", not by payload, except where
 *     the ISA defines the canonical NaN (f32 0x7fffffff, f16 and bf16
 *     0x7fff): min and max when both operands are NaN, and min.NaN/max.NaN;
 *   - min and max of two zeros of different signs may give either zero
 *     (the ISA's pseudo-code does not say which), and so may .sat of -0.0;
 *   - integer division by zero gives an unspecified value: those lanes are
 *     not checked (INT_MIN / -1 is expected to wrap to INT_MIN, rem 0);
 *   - the .approx functions are checked against the C function in double
 *     within the error bound the ISA states, on inputs in the ranges where
 *     it states them, plus a few special values.
 *
 * Inputs: lanes 0-255 cross the first special values of each operand's
 * kind, lanes 256-511 walk the whole special list, lanes 512-767 mix
 * special and random values and lanes 768-1023 are random.  A form the
 * engine reports as unsupported is skipped with a message naming it, and
 * one the parser rejects likewise, so that both show up in the TAP log. */

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

#define N_LANES 1024
#define N_SLOTS 4               /* atomics: the addresses the lanes share */
#define MAX_REPORT 6

/* ---- types -------------------------------------------------------------------------- */

typedef enum
{
  T_NONE, T_PRED, T_B16, T_B32, T_B64, T_S8, T_S16, T_S32, T_S64,
  T_U8, T_U16, T_U32, T_U64, T_F16, T_BF16, T_F16X2, T_BF16X2, T_F32, T_F64,
} Ty;

static const struct
{
  const char *name;
  int bits;
  gboolean is_signed;
  gboolean is_float;
  const char *reg;              /* register declaration type */
  const char *ld;               /* ld.global type */
  const char *st;               /* st.global type */
} ty_info[] = {
  [T_NONE] = { "", 0, FALSE, FALSE, NULL, NULL, NULL },
  [T_PRED] = { "pred", 32, FALSE, FALSE, ".pred", ".u32", ".u32" },
  [T_B16] = { "b16", 16, FALSE, FALSE, ".b16", ".b16", ".b16" },
  [T_B32] = { "b32", 32, FALSE, FALSE, ".b32", ".b32", ".b32" },
  [T_B64] = { "b64", 64, FALSE, FALSE, ".b64", ".b64", ".b64" },
  [T_S8] = { "s8", 8, TRUE, FALSE, ".b16", ".s8", ".b8" },
  [T_S16] = { "s16", 16, TRUE, FALSE, ".s16", ".s16", ".b16" },
  [T_S32] = { "s32", 32, TRUE, FALSE, ".s32", ".s32", ".b32" },
  [T_S64] = { "s64", 64, TRUE, FALSE, ".s64", ".s64", ".b64" },
  [T_U8] = { "u8", 8, FALSE, FALSE, ".b16", ".u8", ".b8" },
  [T_U16] = { "u16", 16, FALSE, FALSE, ".u16", ".u16", ".b16" },
  [T_U32] = { "u32", 32, FALSE, FALSE, ".u32", ".u32", ".b32" },
  [T_U64] = { "u64", 64, FALSE, FALSE, ".u64", ".u64", ".b64" },
  [T_F16] = { "f16", 16, TRUE, TRUE, ".b16", ".b16", ".b16" },
  [T_BF16] = { "bf16", 16, TRUE, TRUE, ".b16", ".b16", ".b16" },
  [T_F16X2] = { "f16x2", 32, TRUE, TRUE, ".b32", ".b32", ".b32" },
  [T_BF16X2] = { "bf16x2", 32, TRUE, TRUE, ".b32", ".b32", ".b32" },
  [T_F32] = { "f32", 32, TRUE, TRUE, ".f32", ".f32", ".f32" },
  [T_F64] = { "f64", 64, TRUE, TRUE, ".f64", ".f64", ".f64" },
};

#define TN(t) (ty_info[t].name)

static gboolean
is_x2 (Ty t)
{
  return t == T_F16X2 || t == T_BF16X2;
}

/* The binary format of a float type: stored mantissa and exponent bits */
static void
fmt_of (Ty   t,
        int *mb,
        int *eb)
{
  switch (t)
    {
    case T_F16: case T_F16X2: *mb = 10; *eb = 5; break;
    case T_BF16: case T_BF16X2: *mb = 7; *eb = 8; break;
    case T_F32: *mb = 23; *eb = 8; break;
    default: *mb = 52; *eb = 11; break;
    }
}

/* ---- bits and numbers --------------------------------------------------------------- */

enum { RN, RZ, RM, RP };

static const char *const frnd[] = { "rn", "rz", "rm", "rp" };
static const char *const irnd[] = { "rni", "rzi", "rmi", "rpi" };

static inline uint64_t
mask_of (int w)
{
  return w >= 64 ? ~(uint64_t) 0 : w <= 0 ? 0 : ((uint64_t) 1 << w) - 1;
}

static inline int64_t
sext (uint64_t v,
      int      w)
{
  if (w >= 64)
    return (int64_t) v;
  v &= mask_of (w);
  return (v >> (w - 1)) & 1 ? (int64_t) (v | ~mask_of (w)) : (int64_t) v;
}

static inline float
f32_of (uint64_t b)
{
  uint32_t u = (uint32_t) b;
  float f;

  memcpy (&f, &u, 4);
  return f;
}

static inline uint64_t
bits_f32 (float f)
{
  uint32_t u;

  memcpy (&u, &f, 4);
  return u;
}

static inline double
f64_of (uint64_t b)
{
  double d;

  memcpy (&d, &b, 8);
  return d;
}

static inline uint64_t
bits_f64 (double d)
{
  uint64_t u;

  memcpy (&u, &d, 8);
  return u;
}

static int
fe_of (int rnd)
{
  switch (rnd)
    {
    case RZ: return FE_TOWARDZERO;
    case RM: return FE_DOWNWARD;
    case RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Rounds sign * mag * 2^exp to the binary format with `mb` stored mantissa
 * bits and `eb` exponent bits (IEEE layout, subnormals, overflow to
 * infinity or the largest finite value as the mode says).  Exact for any
 * 64-bit magnitude, so integers and doubles round once, never twice. */
static uint64_t
round_fmt (int      sign,
           uint64_t mag,
           int      exp,
           int      mb,
           int      eb,
           int      rnd)
{
  int bias = (1 << (eb - 1)) - 1;
  int emin = 1 - bias;
  uint64_t sbit = (uint64_t) sign << (mb + eb);
  uint64_t inf = mask_of (eb) << mb;
  uint64_t kept;
  gboolean half = FALSE, sticky = FALSE, up;
  int msb, e, q, drop;

  if (mag == 0)
    return sbit;
  msb = 63 - __builtin_clzll (mag);
  e = msb + exp;
  q = (e < emin ? emin : e) - mb;
  drop = q - exp;
  if (drop <= 0)
    kept = mag << -drop;
  else if (drop > 64)
    {
      kept = 0;
      sticky = TRUE;
    }
  else if (drop == 64)
    {
      kept = 0;
      half = mag >> 63;
      sticky = (mag << 1) != 0;
    }
  else
    {
      kept = mag >> drop;
      half = (mag >> (drop - 1)) & 1;
      sticky = (mag & mask_of (drop - 1)) != 0;
    }
  switch (rnd)
    {
    case RZ: up = FALSE; break;
    case RM: up = sign && (half || sticky); break;
    case RP: up = !sign && (half || sticky); break;
    default: up = half && (sticky || (kept & 1)); break;
    }
  kept += up;
  if (kept >> (mb + 1))
    {
      kept >>= 1;
      q++;
    }
  if (kept >> mb)
    {
      int ue = q + mb;

      if (ue > bias)
        {
          gboolean to_inf = rnd == RN || (rnd == RM && sign) || (rnd == RP && !sign);

          return sbit | (to_inf ? inf : inf - 1);
        }
      return sbit | ((uint64_t) (ue + bias) << mb) | (kept & mask_of (mb));
    }
  return sbit | kept;
}

/* A double rounded to a format; a NaN gives the canonical NaN */
static uint64_t
fmt_of_double (double v,
               int    mb,
               int    eb,
               int    rnd)
{
  uint64_t b = bits_f64 (v);
  int sign = (int) (b >> 63);
  int ef = (int) ((b >> 52) & 0x7ff);
  uint64_t m = b & mask_of (52);

  if (ef == 0x7ff)
    return m ? mask_of (eb + mb) : ((uint64_t) sign << (mb + eb)) | (mask_of (eb) << mb);
  if (ef == 0)
    return round_fmt (sign, m, -1074, mb, eb, rnd);
  return round_fmt (sign, m | ((uint64_t) 1 << 52), ef - 1075, mb, eb, rnd);
}

static double
double_of_fmt (uint64_t h,
               int      mb,
               int      eb)
{
  int bias = (1 << (eb - 1)) - 1;
  int sign = (int) ((h >> (mb + eb)) & 1);
  int e = (int) ((h >> mb) & mask_of (eb));
  uint64_t m = h & mask_of (mb);
  double v;

  if ((uint64_t) e == mask_of (eb))
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = ldexp ((double) m, 1 - bias - mb);
  else
    v = ldexp ((double) (m | ((uint64_t) 1 << mb)), e - bias - mb);
  return sign ? -v : v;
}

/* The value of a float operand of type t (one half for x2 types) */
static double
fval (Ty       t,
      uint64_t b)
{
  int mb, eb;

  if (t == T_F32)
    return f32_of (b);
  if (t == T_F64)
    return f64_of (b);
  fmt_of (t, &mb, &eb);
  return double_of_fmt (b & mask_of (mb + eb + 1), mb, eb);
}

static gboolean
bits_is_nan (uint64_t b,
             int      mb,
             int      eb)
{
  return ((b >> mb) & mask_of (eb)) == mask_of (eb) && (b & mask_of (mb)) != 0;
}

static gboolean
bits_is_zero (uint64_t b,
              int      mb,
              int      eb)
{
  return (b & mask_of (mb + eb)) == 0;
}

static uint64_t
ftz_bits (uint64_t b,
          int      mb,
          int      eb)
{
  if (((b >> mb) & mask_of (eb)) == 0 && (b & mask_of (mb)) != 0)
    return b & ((uint64_t) 1 << (mb + eb));
  return b;
}

static float
ftz32 (float v)
{
  return fpclassify (v) == FP_SUBNORMAL ? copysignf (0.0f, v) : v;
}

/* ---- rows ---------------------------------------------------------------------------- */

typedef enum
{
  G_AUTO,
  G_INT,                        /* integers: full range, small, boundaries */
  G_SHIFT,                      /* u32 shift amounts */
  G_POSLEN,                     /* u32 bit positions and lengths (bfe, bfi) */
  G_PRED,                       /* 0 or 1 */
  G_FLT,                        /* floats of the operand's type */
  G_RANGE,                      /* floats uniform in [lo, hi) */
  G_LOG,                        /* floats 2^u with u uniform in [lo, hi), random sign if neg */
  G_SMALL,                      /* 0..3 */
  G_SMALL20,                    /* 0..20 */
  G_LANE,                       /* shfl lane operand */
  G_SHFLC,                      /* shfl clamp/segment operand, warp-uniform */
  G_WPRED,                      /* per-warp predicate patterns */
  G_WSMALL,                     /* per-warp few-valued data (match) */
} Gen;

typedef enum
{
  CMP_EXACT,
  CMP_FLOAT,                    /* NaN as "is NaN" (or canonical), zero signs per row */
  CMP_APPROX,                   /* expected is a double; tol_abs + tol_rel * |expected| */
} CmpKind;

typedef struct _Row Row;
/* Computes lane results; returns FALSE for a lane whose result the ISA leaves unspecified */
typedef gboolean (*RefFn) (const Row *r, const uint64_t *x, uint64_t *d);
/* Computes every lane at once (atomics, warp-wide operations) */
typedef void (*RefAllFn) (const Row *r, uint64_t *const *in, uint64_t *out, uint64_t *mem);

struct _Row
{
  char *name;
  char *body;
  Ty dt;
  Ty st[4];
  Gen gen[4];
  RefFn ref;
  RefAllFn all;
  int op, arg, arg2;
  int rnd;
  gboolean ftz, sat, relu;
  CmpKind cmp;
  gboolean canon_nan;           /* a NaN result must be the canonical NaN */
  gboolean zero_either;         /* +0 and -0 both accepted for a zero result */
  double lo, hi;                /* G_RANGE, G_LOG */
  gboolean neg;                 /* G_LOG: random sign */
  gboolean range_specials;      /* G_RANGE, G_LOG: lanes 0-7 get special values */
  double tol_rel, tol_abs;
  gboolean uses_mem;
  Gen mem_gen;
  Ty mem_ty;
};

static GPtrArray *rows;
static GHashTable *row_names;

static const char *const op_letters[] = { "%a", "%b", "%c", "%e" };

static Row *
row_add (const char *name,
         const char *body,
         Ty          dt,
         Ty          s0,
         Ty          s1,
         Ty          s2,
         Ty          s3)
{
  Row *r = g_new0 (Row, 1);

  g_assert (!g_hash_table_contains (row_names, name));
  r->name = g_strdup (name);
  g_hash_table_add (row_names, r->name);
  r->dt = dt;
  r->st[0] = s0;
  r->st[1] = s1;
  r->st[2] = s2;
  r->st[3] = s3;
  if (body != NULL)
    r->body = g_strdup (body);
  else
    {
      GString *s = g_string_new (name);

      g_string_append (s, " %d");
      for (int k = 0; k < 4 && r->st[k] != T_NONE; k++)
        {
          g_string_append (s, ", ");
          g_string_append (s, op_letters[k]);
        }
      g_string_append (s, ";");
      r->body = g_string_free (s, FALSE);
    }
  r->cmp = ty_info[dt].is_float ? CMP_FLOAT : CMP_EXACT;
  g_ptr_array_add (rows, r);
  return r;
}

/* ---- input values -------------------------------------------------------------------- */

static uint64_t
rand64 (GRand *rand)
{
  return ((uint64_t) g_rand_int (rand) << 32) | g_rand_int (rand);
}

/* Special values of an operand kind; the first 16 are crossed in lanes 0-255 */
static int
specials (Gen       g,
          Ty        t,
          uint64_t *sp)
{
  int n = 0;
  int w = ty_info[t].bits;

#define ADD(v) (sp[n++] = (uint64_t) (v))
  switch (g)
    {
    case G_INT:
      {
        uint64_t mn = (uint64_t) 1 << (w - 1), mx = mn - 1;
        static const uint64_t more[] = {
          0x80000000u, 0x7fffffffu, 0x8000, 0x7fff, 0x80, 0xff, 100,
          0xffffffffu, 0x100000000u, 0x5555555555555555u, 0xaaaaaaaaaaaaaaaau, 0xffff,
          0x7f, (uint64_t) -100, 7, 0x123456789abcdef0u, 0x10000, 0x8000000000000000u,
        };

        ADD (0); ADD (1); ADD (-1); ADD (2); ADD (mn); ADD (mx); ADD (mn + 1); ADD (-2);
        ADD (3); ADD (mx - 1);
        for (guint i = 0; i < G_N_ELEMENTS (more); i++)
          ADD (more[i]);
        for (int i = 0; i < n; i++)
          sp[i] &= mask_of (w);
      }
      break;
    case G_SHIFT:
      {
        static const uint32_t v[] = { 0, 1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256,
                                      0x80000000u, 0xffffffffu, 0x101, 30 };

        for (guint i = 0; i < G_N_ELEMENTS (v); i++)
          ADD (v[i]);
      }
      break;
    case G_POSLEN:
      {
        static const uint32_t v[] = { 0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256, 0x1ff,
                                      0x120, 0xffffffffu, 3, 24 };

        for (guint i = 0; i < G_N_ELEMENTS (v); i++)
          ADD (v[i]);
      }
      break;
    case G_PRED: ADD (0); ADD (1); break;
    case G_SMALL: ADD (0); ADD (1); ADD (2); ADD (3); break;
    case G_SMALL20: ADD (0); ADD (1); ADD (2); ADD (19); ADD (20); break;
    case G_FLT:
      if (t == T_F32 || t == T_F64)
        {
          static const double v[] = {
            0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 0 /* min subnormal */,
            0 /* -max subnormal */, 0 /* min normal */, 0 /* max */, 0.5, 1.5, -2.5, 3.0, -0.5,
            2.5, -1.5, 0.49999997, 1.0000001, 127.5, 128.0, -128.5, -129.0, 255.5, 256.0,
            32767.5, 32768.0, -32769.0, 65535.5, 65536.0, 2147483520.0, 2147483647.5,
            2147483648.0, -2147483648.0, -2147483904.0, 4294967295.5, 4294967296.0,
            9223372036854775808.0, -9223372036854775808.0, 18446744073709551616.0, 1e30, -1e30,
            65504.0, 65520.0, 1.0 / 3.0, 5.960464477539063e-08, 2.9802322387695312e-08,
            9223372036854774784.0, 18446744073709549568.0,
          };

          for (guint i = 0; i < G_N_ELEMENTS (v); i++)
            {
              if (t == T_F32)
                ADD (bits_f32 ((float) v[i]));
              else
                ADD (bits_f64 (v[i]));
            }
          if (t == T_F32)
            {
              sp[6] = 0x7fc00000u;
              sp[7] = 1;
              sp[8] = 0x807fffffu;
              sp[9] = 0x00800000u;
              sp[10] = 0x7f7fffffu;
              ADD (0xffc00001u);  /* a negative NaN with a payload */
              ADD (0x7f800001u);  /* a signalling NaN */
              ADD (0x3eaaaaabu);
              ADD (0x00400000u);
              ADD (0x80000001u);
            }
          else
            {
              sp[6] = 0x7ff8000000000000u;
              sp[7] = 1;
              sp[8] = 0x800fffffffffffffu;
              sp[9] = 0x0010000000000000u;
              sp[10] = 0x7fefffffffffffffu;
              ADD (0xfff8000000000001u);
              ADD (0x7ff0000000000001u);
              ADD (bits_f64 (1e39));      /* beyond f32 */
              ADD (bits_f64 (1e-39));     /* an f32 subnormal */
              ADD (bits_f64 (1e-46));     /* below f32 */
              ADD (bits_f64 (3.4028235677973366e38)); /* f32 max + half an ulp */
              ADD (bits_f64 (2147483647.0));
              ADD (bits_f64 (-2147483648.5));
            }
        }
      else
        {
          gboolean bf = t == T_BF16 || t == T_BF16X2;
          static const uint16_t h[] = {
            0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff, 0x0400,
            0x7bff, 0x3800, 0x3e00, 0xc100, 0x4200, 0xfbff, 0x7c01, 0xfe01, 0x3555, 0x3bff,
            0x3c01, 0x5bff, 0x7800, 0x0200, 0x4100, 0xb800, 0x0401, 0x57ff,
          };
          static const uint16_t bh[] = {
            0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x807f, 0x0080,
            0x7f7f, 0x3f00, 0x3fc0, 0xc020, 0x4040, 0xff7f, 0x7f81, 0xffc1, 0x3eab, 0x4f00,
            0x5f00, 0xcf00, 0x3f81, 0x477f, 0x4780, 0x0040, 0x4020, 0x3eff,
          };
          const uint16_t *v = bf ? bh : h;
          int nv = (int) (bf ? G_N_ELEMENTS (bh) : G_N_ELEMENTS (h));

          for (int i = 0; i < nv; i++)
            {
              if (is_x2 (t))
                ADD ((uint64_t) v[i] | ((uint64_t) v[(i * 3 + 1) % nv] << 16));
              else
                ADD (v[i]);
            }
        }
      break;
    default:
      break;
    }
#undef ADD
  return n;
}

static uint64_t
enc_float (Ty     t,
           double v)
{
  int mb, eb;

  if (t == T_F32)
    return bits_f32 ((float) v);
  if (t == T_F64)
    return bits_f64 (v);
  fmt_of (t, &mb, &eb);
  return fmt_of_double (v, mb, eb, RN);
}

static uint64_t
random_float (Ty     t,
              GRand *rand)
{
  double sign = g_rand_boolean (rand) ? -1.0 : 1.0;
  double u = g_rand_double (rand);

  if (is_x2 (t))
    {
      Ty h = t == T_F16X2 ? T_F16 : T_BF16;

      return random_float (h, rand) | (random_float (h, rand) << 16);
    }
  switch (g_rand_int_range (rand, 0, 5))
    {
    case 0:                     /* any bits: every exponent, NaNs, subnormals */
      return rand64 (rand) & mask_of (ty_info[t].bits);
    case 1:
      return enc_float (t, sign * (1.0 + u) * ldexp (1.0, g_rand_int_range (rand, -30, 71)));
    case 2:                     /* halves: rounding ties */
      return enc_float (t, g_rand_int_range (rand, -600, 601) / 2.0);
    case 3:
      return enc_float (t, sign * (1.0 + u) * ldexp (1.0, g_rand_int_range (rand, -10, 11)));
    default:                    /* near the integer types' bounds */
      {
        static const int b[] = { 7, 8, 15, 16, 31, 32, 63, 64 };
        int e = b[g_rand_int_range (rand, 0, G_N_ELEMENTS (b))];

        return enc_float (t, sign * (ldexp (1.0, e) + g_rand_int_range (rand, -4, 5) * ldexp (1.0, e - 24)));
      }
    }
}

static uint64_t
random_value (const Row *r,
              Gen        g,
              Ty         t,
              GRand     *rand)
{
  int w = ty_info[t].bits;

  switch (g)
    {
    case G_INT:
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0: case 1: return rand64 (rand) & mask_of (w);
        case 2: return (uint64_t) g_rand_int_range (rand, -300, 301) & mask_of (w);
        default: return (rand64 (rand) >> g_rand_int_range (rand, 0, 64)) & mask_of (w);
        }
    case G_SHIFT:
      return g_rand_int_range (rand, 0, 10) ? (uint64_t) g_rand_int_range (rand, 0, 71) : g_rand_int (rand);
    case G_POSLEN:
      switch (g_rand_int_range (rand, 0, 10))
        {
        case 0: return g_rand_int (rand);
        case 1: case 2: return g_rand_int_range (rand, 0, 0x200);
        default: return g_rand_int_range (rand, 0, 71);
        }
    case G_PRED: return g_rand_int_range (rand, 0, 2);
    case G_SMALL: return g_rand_int_range (rand, 0, 4);
    case G_SMALL20: return g_rand_int_range (rand, 0, 21);
    case G_FLT: return random_float (t, rand);
    case G_RANGE:
      return enc_float (t, r->lo + (r->hi - r->lo) * g_rand_double (rand));
    case G_LOG:
      {
        double v = exp2 (r->lo + (r->hi - r->lo) * g_rand_double (rand));

        return enc_float (t, r->neg && g_rand_boolean (rand) ? -v : v);
      }
    default:
      return rand64 (rand) & mask_of (w);
    }
}

static Gen
gen_of (const Row *r,
        int        k)
{
  Ty t = r->st[k];

  if (r->gen[k] != G_AUTO)
    return r->gen[k];
  if (t == T_PRED)
    return G_PRED;
  return ty_info[t].is_float ? G_FLT : G_INT;
}

/* Fills the operand buffers; warp-wide kinds are made per warp */
static void
make_inputs (const Row *r,
             uint64_t **in,
             GRand     *rand)
{
  static const uint32_t shflc[] = { 0x1f, 0x0, 0x181f, 0x1c1f, 0x101f, 0x1800, 0x1c00, 0x1000,
                                    0x0f, 0x1807, 0x1e1f, 0x1f1f, 0x0810, 0x1803 };

  for (int k = 0; k < 4; k++)
    {
      Ty t = r->st[k];
      Gen g = gen_of (r, k);
      uint64_t sp[64];
      int ns, nc;

      if (t == T_NONE)
        continue;
      ns = specials (g, t, sp);
      nc = MIN (ns, 16);
      for (int lane = 0; lane < N_LANES; lane++)
        {
          int i = lane % 256, region = lane / 256, warp = lane / 32;
          uint64_t v;

          switch (g)
            {
            case G_LANE:
              v = lane < 256 ? (uint64_t) ((lane / 32) * 5 % 34) : (uint64_t) g_rand_int_range (rand, 0, 40);
              break;
            case G_SHFLC:
              v = shflc[warp % G_N_ELEMENTS (shflc)];
              break;
            case G_WPRED:
              switch (warp % 4)
                {
                case 0: v = 1; break;
                case 1: v = 0; break;
                case 2: v = g_rand_int_range (rand, 0, 2); break;
                default: v = (lane % 32) != (warp % 32); break;
                }
              break;
            case G_WSMALL:
              {
                static uint64_t pool[4];

                if (lane % 32 == 0)
                  for (int j = 0; j < 4; j++)
                    pool[j] = rand64 (rand) & mask_of (ty_info[t].bits);
                v = warp % 3 == 0 ? pool[0] : pool[g_rand_int_range (rand, 0, warp % 3 == 1 ? 2 : 4)];
              }
              break;
            case G_RANGE:
            case G_LOG:
              {
                static const double s[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5 };

                if (r->range_specials && lane < 8)
                  v = enc_float (t, s[(lane * (2 * k + 1) + k) % 8]);
                else
                  v = random_value (r, g, t, rand);
              }
              break;
            default:
              if (ns > 0 && region == 0)
                {
                  int idx = i;

                  for (int j = 0; j < k; j++)
                    idx /= nc;
                  v = sp[idx % nc];
                }
              else if (ns > 0 && region == 1)
                v = sp[(i * (2 * k + 1) + (i / ns) * k + k) % ns];
              else if (ns > 0 && region == 2 && g_rand_boolean (rand))
                v = sp[g_rand_int_range (rand, 0, ns)];
              else
                v = random_value (r, g, t, rand);
              break;
            }
          in[k][lane] = v;
        }
    }
}

/* ---- kernels ------------------------------------------------------------------------- */

static char *
make_kernel (const Row *r)
{
  static const char *const names[] = { "a", "b", "c", "e" };
  GString *s = g_string_new (NULL);

  g_string_append (s,
                   ".version 8.0\n.target sm_80\n.address_size 64\n\n"
                   ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc,"
                   " .param .u64 pe, .param .u64 pd, .param .u64 pm)\n{\n"
                   "  .reg .b32 %t, %u, %v, %w, %y, %z, %s;\n"
                   "  .reg .b64 %o, %pa, %pb, %pc, %pe, %pd, %m;\n"
                   "  .reg .pred %p, %q;\n");
  g_string_append_printf (s, "  .reg %s %%d;\n", ty_info[r->dt].reg);
  for (int k = 0; k < 4; k++)
    if (r->st[k] != T_NONE)
      {
        g_string_append_printf (s, "  .reg %s %%%s;\n", ty_info[r->st[k]].reg, names[k]);
        if (r->st[k] == T_PRED)
          g_string_append_printf (s, "  .reg .b32 %%t%s;\n", names[k]);
      }
  g_string_append (s,
                   "  ld.param.u64 %pa, [pa];\n  ld.param.u64 %pb, [pb];\n"
                   "  ld.param.u64 %pc, [pc];\n  ld.param.u64 %pe, [pe];\n"
                   "  ld.param.u64 %pd, [pd];\n  ld.param.u64 %m, [pm];\n"
                   "  mov.u32 %t, %tid.x;\n  mul.wide.u32 %o, %t, 8;\n"
                   "  add.s64 %pa, %pa, %o;\n  add.s64 %pb, %pb, %o;\n"
                   "  add.s64 %pc, %pc, %o;\n  add.s64 %pe, %pe, %o;\n"
                   "  add.s64 %pd, %pd, %o;\n");
  g_string_append_printf (s, "  and.b32 %%u, %%t, %d;\n  mul.wide.u32 %%o, %%u, 8;\n"
                          "  add.s64 %%m, %%m, %%o;\n", N_SLOTS - 1);
  for (int k = 0; k < 4; k++)
    {
      if (r->st[k] == T_NONE)
        continue;
      if (r->st[k] == T_PRED)
        g_string_append_printf (s, "  ld.global.u32 %%t%s, [%%p%s];\n  setp.ne.u32 %%%s, %%t%s, 0;\n",
                                names[k], names[k], names[k], names[k]);
      else
        g_string_append_printf (s, "  ld.global%s %%%s, [%%p%s];\n", ty_info[r->st[k]].ld,
                                names[k], names[k]);
    }
  g_string_append_printf (s, "  %s\n", r->body);
  g_string_append_printf (s, "  st.global%s [%%pd], %%d;\n  ret;\n}\n", ty_info[r->dt].st);
  return g_string_free (s, FALSE);
}

/* ---- running and comparing ------------------------------------------------------------ */

static char *
hex_of (const void *data,
        size_t      size)
{
  GString *s = g_string_sized_new (size * 2);
  const uint8_t *p = data;

  for (size_t i = 0; i < size; i++)
    g_string_append_printf (s, "%02x", p[i]);
  return g_string_free (s, FALSE);
}

static gboolean
scalar_ok (const Row *r,
           Ty         t,
           uint64_t   exp,
           uint64_t   act)
{
  int mb, eb;

  fmt_of (t, &mb, &eb);
  if (bits_is_nan (exp, mb, eb))
    return r->canon_nan ? act == exp : bits_is_nan (act, mb, eb);
  if (r->zero_either && bits_is_zero (exp, mb, eb) && bits_is_zero (act, mb, eb))
    return TRUE;
  return exp == act;
}

static gboolean
lane_ok (const Row *r,
         uint64_t   exp,
         uint64_t   act)
{
  int w = ty_info[r->dt].bits;

  act &= mask_of (w);
  switch (r->cmp)
    {
    case CMP_FLOAT:
      exp &= mask_of (w);
      if (is_x2 (r->dt))
        {
          Ty h = r->dt == T_F16X2 ? T_F16 : T_BF16;

          return scalar_ok (r, h, exp & 0xffff, act & 0xffff)
                 && scalar_ok (r, h, exp >> 16, act >> 16);
        }
      return scalar_ok (r, r->dt, exp, act);
    case CMP_APPROX:
      {
        double e = f64_of (exp), a = fval (r->dt, act);

        if (isnan (e))
          return isnan (a);
        if (isinf (e))
          return a == e;
        if (isnan (a) || isinf (a))
          return FALSE;
        return fabs (a - e) <= r->tol_abs + r->tol_rel * fabs (e);
      }
    default:
      return (exp & mask_of (w)) == act;
    }
}

static void
test_row (gconstpointer data)
{
  const Row *r = data;
  GRand *rand = g_rand_new_with_seed (g_str_hash (r->name));
  uint64_t *in[4], *exp = g_new0 (uint64_t, N_LANES);
  gboolean *care = g_new0 (gboolean, N_LANES);
  uint64_t mem_init[N_SLOTS] = { 0 }, mem_ref[N_SLOTS];
  g_autofree char *ptx = NULL, *spec = NULL, *hm = NULL;
  char *hx[4] = { NULL };  /* g_autofree would free only the first */
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  KsPtxModule *module = NULL;
  KsLaunch *launch = NULL;
  KsSim *sim = NULL;
  const KsSimFault *fault;
  const uint8_t *out, *mem;
  guint bad = 0;

  for (int k = 0; k < 4; k++)
    in[k] = g_new0 (uint64_t, N_LANES);
  make_inputs (r, in, rand);
  if (r->uses_mem)
    for (int i = 0; i < N_SLOTS; i++)
      mem_init[i] = random_value (r, r->mem_gen, r->mem_ty, rand);

  ptx = make_kernel (r);
  bytes = g_bytes_new (ptx, strlen (ptx));
  module = ks_ptx_module_parse (bytes, "isa.ptx");
  if (module->n_errors > 0)
    {
      GString *msg = g_string_new (NULL);

      g_string_printf (msg, "%s: the parser rejects this form:", r->name);
      for (uint32_t i = 0; i < module->n_diagnostics; i++)
        g_string_append_printf (msg, " [%u:%u %s]", module->diagnostics[i].line,
                                module->diagnostics[i].column, module->diagnostics[i].message);
      g_test_message ("%s\n%s", msg->str, ptx);
      g_test_skip (msg->str);
      g_string_free (msg, TRUE);
      goto out;
    }

  for (int k = 0; k < 4; k++)
    hx[k] = hex_of (in[k], N_LANES * sizeof (uint64_t));
  hm = hex_of (mem_init, sizeof mem_init);
  spec = g_strdup_printf ("{\"ptx\": \"isa.ptx\", \"kernel\": \"k\", \"grid\": [1], \"block\": [%d],"
                          " \"buffers\": {\"a\": {\"bytes_hex\": \"%s\"}, \"b\": {\"bytes_hex\": \"%s\"},"
                          " \"c\": {\"bytes_hex\": \"%s\"}, \"e\": {\"bytes_hex\": \"%s\"},"
                          " \"d\": {\"type\": \"u64\", \"count\": %d}, \"m\": {\"bytes_hex\": \"%s\"}},"
                          " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                          " {\"buffer\": \"e\"}, {\"buffer\": \"d\"}, {\"buffer\": \"m\"}]}",
                          N_LANES, hx[0], hx[1], hx[2], hx[3], N_LANES, hm);
  launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (module, launch, &error);
  g_assert_no_error (error);
  ks_sim_run (sim, 0, NULL);
  fault = ks_sim_get_fault (sim);
  if (fault != NULL && fault->kind == KS_SIM_FAULT_UNSUPPORTED)
    {
      g_autofree char *msg = g_strdup_printf ("%s: unsupported by the engine: %s", r->name,
                                              fault->message);

      g_test_skip (msg);
      goto out;
    }
  if (fault != NULL)
    {
      g_test_fail_printf ("%s: fault %s: %s at PTX line %u\n%s", r->name,
                          ks_sim_fault_kind_name (fault->kind), fault->message, fault->ptx_line, ptx);
      goto out;
    }
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);

  memcpy (mem_ref, mem_init, sizeof mem_ref);
  if (r->all != NULL)
    {
      r->all (r, in, exp, mem_ref);
      for (int lane = 0; lane < N_LANES; lane++)
        care[lane] = TRUE;
    }
  else
    for (int lane = 0; lane < N_LANES; lane++)
      {
        uint64_t x[4] = { in[0][lane], in[1][lane], in[2][lane], in[3][lane] };

        care[lane] = r->ref (r, x, &exp[lane]);
      }

  out = ks_sim_get_buffer (sim, (uint32_t) ks_launch_find_buffer (launch, "d"), NULL);
  for (int lane = 0; lane < N_LANES; lane++)
    {
      uint64_t act;

      memcpy (&act, out + lane * 8, 8);
      if (!care[lane] || lane_ok (r, exp[lane], act))
        continue;
      if (bad++ < MAX_REPORT)
        g_test_message ("%s: lane %d: a=0x%" G_GINT64_MODIFIER "x b=0x%" G_GINT64_MODIFIER "x"
                        " c=0x%" G_GINT64_MODIFIER "x e=0x%" G_GINT64_MODIFIER "x:"
                        " expected 0x%" G_GINT64_MODIFIER "x%s, got 0x%" G_GINT64_MODIFIER "x",
                        r->name, lane, in[0][lane], in[1][lane], in[2][lane], in[3][lane],
                        exp[lane] & (r->cmp == CMP_APPROX ? ~(uint64_t) 0 : mask_of (ty_info[r->dt].bits)),
                        r->cmp == CMP_APPROX ? " (f64 bits)" : "",
                        act & mask_of (ty_info[r->dt].bits));
    }
  if (r->uses_mem)
    {
      mem = ks_sim_get_buffer (sim, (uint32_t) ks_launch_find_buffer (launch, "m"), NULL);
      for (int i = 0; i < N_SLOTS; i++)
        {
          uint64_t act, w = mask_of (ty_info[r->mem_ty].bits);

          memcpy (&act, mem + i * 8, 8);
          if ((act & w) != (mem_ref[i] & w))
            {
              bad++;
              g_test_message ("%s: memory slot %d: initially 0x%" G_GINT64_MODIFIER "x,"
                              " expected 0x%" G_GINT64_MODIFIER "x, got 0x%" G_GINT64_MODIFIER "x",
                              r->name, i, mem_init[i], mem_ref[i] & w, act & w);
            }
        }
    }
  if (bad > 0)
    g_test_fail_printf ("%s: %u of %d lanes differ from the reference", r->name, bad, N_LANES);

out:
  for (int k = 0; k < 4; k++)
    g_free (hx[k]);
  g_clear_pointer (&sim, ks_sim_free);
  g_clear_pointer (&launch, ks_launch_free);
  g_clear_pointer (&module, ks_ptx_module_free);
  for (int k = 0; k < 4; k++)
    g_free (in[k]);
  g_free (exp);
  g_free (care);
  g_rand_free (rand);
}

/* ---- integer references ----------------------------------------------------------------- */

enum
{
  OP_ADD, OP_SUB, OP_MUL_LO, OP_MUL_HI, OP_MUL_WIDE, OP_MAD_LO, OP_MAD_HI, OP_MAD_WIDE,
  OP_MAD_HI_SAT, OP_DIV, OP_REM, OP_ABS, OP_NEG, OP_MIN, OP_MAX, OP_ADD_SAT, OP_SUB_SAT,
  OP_MUL24_LO, OP_MUL24_HI, OP_MAD24_LO, OP_MAD24_HI, OP_SAD, OP_AND, OP_OR, OP_XOR, OP_NOT,
  OP_CNOT, OP_SHL, OP_SHR, OP_POPC, OP_CLZ, OP_BREV, OP_BFIND, OP_BFE, OP_BFI, OP_PRMT,
  OP_LOP3, OP_SHF, OP_DP4A, OP_DP2A, OP_ADDC64, OP_SUBC64, OP_ADDC128, OP_SUBC128, OP_MADC,
};

static uint64_t
mul_hi (uint64_t a,
        uint64_t b,
        int      w,
        gboolean s)
{
  if (w == 64)
    return s ? (uint64_t) (((__int128) (int64_t) a * (int64_t) b) >> 64)
             : (uint64_t) (((unsigned __int128) a * b) >> 64);
  if (s)
    return (uint64_t) ((sext (a, w) * sext (b, w)) >> w);
  return (a * b) >> w;
}

static uint64_t
clamp128 (__int128 v,
          __int128 lo,
          __int128 hi)
{
  return (uint64_t) (v < lo ? lo : v > hi ? hi : v);
}

static gboolean
ref_int (const Row *r,
         const uint64_t *x,
         uint64_t  *d)
{
  Ty t = r->st[0];
  int w = ty_info[t].bits;
  gboolean s = ty_info[t].is_signed;
  uint64_t m = mask_of (w);
  uint64_t a = x[0] & m;
  uint64_t b = x[1] & mask_of (ty_info[r->st[1]].bits);
  uint64_t c = x[2] & mask_of (ty_info[r->st[2]].bits);
  uint64_t e = x[3] & mask_of (ty_info[r->st[3]].bits);
  int64_t sa = sext (a, w), sb = sext (b, w);
  __int128 lo = -((__int128) 1 << (w - 1)), hi = ((__int128) 1 << (w - 1)) - 1;

  switch (r->op)
    {
    case OP_ADD: *d = a + b; break;
    case OP_SUB: *d = a - b; break;
    case OP_MUL_LO: *d = a * b; break;
    case OP_MUL_HI: *d = mul_hi (a, b, w, s); break;
    case OP_MUL_WIDE: *d = s ? (uint64_t) (sa * sb) : a * b; break;
    case OP_MAD_LO: *d = a * b + c; break;
    case OP_MAD_HI: *d = mul_hi (a, b, w, s) + c; break;
    case OP_MAD_WIDE: *d = (s ? (uint64_t) (sa * sb) : a * b) + c; break;
    case OP_MAD_HI_SAT:
      /* mad.hi.sat.s32: the high half of the product plus c, clamped */
      *d = clamp128 ((__int128) sext (mul_hi (a, b, 32, TRUE), 32) + sext (c, 32), lo, hi);
      break;
    case OP_DIV:
      if (b == 0)
        return FALSE;           /* unspecified by the ISA */
      if (s)
        *d = sb == -1 ? (uint64_t) 0 - a : (uint64_t) (sa / sb);
      else
        *d = a / b;
      break;
    case OP_REM:
      if (b == 0)
        return FALSE;
      if (s)
        *d = sb == -1 ? 0 : (uint64_t) (sa % sb);
      else
        *d = a % b;
      break;
    case OP_ABS: *d = sa < 0 ? (uint64_t) 0 - a : a; break;
    case OP_NEG: *d = (uint64_t) 0 - a; break;
    case OP_MIN: *d = s ? (sa < sb ? a : b) : MIN (a, b); break;
    case OP_MAX: *d = s ? (sa > sb ? a : b) : MAX (a, b); break;
    case OP_ADD_SAT: *d = clamp128 ((__int128) sa + sb, lo, hi); break;
    case OP_SUB_SAT: *d = clamp128 ((__int128) sa - sb, lo, hi); break;
    case OP_MUL24_LO: case OP_MUL24_HI: case OP_MAD24_LO: case OP_MAD24_HI:
      {
        /* the low 24 bits of each operand, as signed or unsigned 24-bit
         * numbers; .lo takes bits 31..0 and .hi bits 47..16 of the product */
        int64_t p = s ? sext (a, 24) * sext (b, 24) : (int64_t) ((a & 0xffffff) * (b & 0xffffff));
        uint64_t v = (r->op == OP_MUL24_HI || r->op == OP_MAD24_HI) ? (uint64_t) p >> 16 : (uint64_t) p;

        if (r->op == OP_MAD24_LO || r->op == OP_MAD24_HI)
          v += c;
        *d = v;
      }
      break;
    case OP_SAD:
      *d = c + (s ? (sa < sb ? (uint64_t) sb - (uint64_t) sa : (uint64_t) sa - (uint64_t) sb)
                  : (a < b ? b - a : a - b));
      break;
    case OP_AND: *d = a & b; break;
    case OP_OR: *d = a | b; break;
    case OP_XOR: *d = a ^ b; break;
    case OP_NOT: *d = ~a; break;
    case OP_CNOT: *d = a == 0; break;
    case OP_SHL: *d = b >= (uint64_t) w ? 0 : a << b; break;
    case OP_SHR:
      if (s)
        *d = b >= (uint64_t) w ? (sa < 0 ? ~(uint64_t) 0 : 0) : (uint64_t) (sa >> b);
      else
        *d = b >= (uint64_t) w ? 0 : a >> b;
      break;
    case OP_POPC: *d = (uint64_t) __builtin_popcountll (a); break;
    case OP_CLZ: *d = a == 0 ? (uint64_t) w : (uint64_t) (__builtin_clzll (a) - (64 - w)); break;
    case OP_BREV:
      {
        uint64_t v = 0;

        for (int i = 0; i < w; i++)
          v |= ((a >> i) & 1) << (w - 1 - i);
        *d = v;
      }
      break;
    case OP_BFIND:
      {
        /* signed: the most significant bit that differs from the sign */
        uint64_t v = s && sa < 0 ? ~a & m : a;

        if (v == 0)
          *d = 0xffffffffu;
        else
          {
            int pos = 63 - __builtin_clzll (v);

            *d = r->arg ? (uint64_t) (w - 1 - pos) : (uint64_t) pos;  /* .shiftamt */
          }
      }
      break;
    case OP_BFE:
      {
        int msb = w - 1;
        uint32_t pos = (uint32_t) b & 0xff, len = (uint32_t) c & 0xff;
        uint64_t sbit = 0, v = 0;

        if (s && len > 0)
          sbit = (a >> MIN ((int) (pos + len - 1), msb)) & 1;
        for (int i = 0; i <= msb; i++)
          {
            uint64_t bit = (i < (int) len && pos + (uint32_t) i <= (uint32_t) msb)
                           ? (a >> (pos + i)) & 1 : sbit;

            v |= bit << i;
          }
        *d = v;
      }
      break;
    case OP_BFI:
      {
        /* bfi d, a, b, c, e: a's low bits into b at position c, length e */
        int msb = w - 1;
        uint32_t pos = (uint32_t) c & 0xff, len = (uint32_t) e & 0xff;
        uint64_t f = x[1] & m;

        for (uint32_t i = 0; i < len && pos + i <= (uint32_t) msb; i++)
          f = (f & ~((uint64_t) 1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        *d = f;
      }
      break;
    case OP_PRMT:
      {
        uint64_t tmp = (b << 32) | a;
        uint32_t res = 0;
        int s2 = (int) (c & 3);

        for (int i = 0; i < 4; i++)
          {
            uint32_t byte;
            int idx;

            if (r->arg == 0)
              {
                uint32_t s4 = (uint32_t) (c >> (4 * i)) & 0xf;

                byte = (uint32_t) (tmp >> (8 * (s4 & 7))) & 0xff;
                if (s4 & 8)
                  byte = byte & 0x80 ? 0xff : 0;
              }
            else
              {
                switch (r->arg)
                  {
                  case 1: idx = (s2 + i) & 7; break;           /* f4e */
                  case 2: idx = (s2 - i) & 7; break;           /* b4e */
                  case 3: idx = s2; break;                     /* rc8 */
                  case 4: idx = MAX (i, s2); break;            /* ecl */
                  case 5: idx = MIN (i, s2); break;            /* ecr */
                  default: idx = (s2 & 1) * 2 + (i & 1); break; /* rc16 */
                  }
                byte = (uint32_t) (tmp >> (8 * idx)) & 0xff;
              }
            res |= byte << (8 * i);
          }
        *d = res;
      }
      break;
    case OP_LOP3:
      {
        uint32_t v = 0;

        for (int i = 0; i < 32; i++)
          {
            int idx = (int) ((((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1));

            v |= (uint32_t) ((r->arg >> idx) & 1) << i;
          }
        *d = v;
      }
      break;
    case OP_SHF:
      {
        /* arg bit 0: .l, bit 1: .clamp (else .wrap) */
        uint32_t n = (r->arg & 2) ? MIN ((uint32_t) c, 32u) : (uint32_t) c & 31;
        uint64_t v = (b << 32) | a;

        *d = (r->arg & 1) ? (v << n) >> 32 : (v >> n) & 0xffffffffu;
      }
      break;
    case OP_DP4A:
    case OP_DP2A:
      {
        gboolean as = ty_info[r->st[0]].is_signed, bs = ty_info[r->st[1]].is_signed;
        uint32_t acc = (uint32_t) c;

        for (int i = 0; i < (r->op == OP_DP4A ? 4 : 2); i++)
          {
            int64_t ai, bi;
            int bbyte = r->op == OP_DP4A ? i : i + (r->arg ? 2 : 0);

            if (r->op == OP_DP4A)
              ai = as ? sext (a >> (8 * i), 8) : (int64_t) ((a >> (8 * i)) & 0xff);
            else
              ai = as ? sext (a >> (16 * i), 16) : (int64_t) ((a >> (16 * i)) & 0xffff);
            bi = bs ? sext (b >> (8 * bbyte), 8) : (int64_t) ((b >> (8 * bbyte)) & 0xff);
            acc += (uint32_t) (ai * bi);
          }
        *d = acc;
      }
      break;
    case OP_ADDC64: *d = x[0] + x[1]; break;
    case OP_SUBC64: *d = x[0] - x[1]; break;
    case OP_ADDC128:
    case OP_SUBC128:
      {
        unsigned __int128 p = ((unsigned __int128) x[2] << 64) | x[0];
        unsigned __int128 q = ((unsigned __int128) x[3] << 64) | x[1];

        *d = (uint64_t) ((r->op == OP_ADDC128 ? p + q : p - q) >> 64);
      }
      break;
    case OP_MADC:
      *d = (x[0] & 0xffffffffu) * (x[1] & 0xffffffffu) + x[2];
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* ---- comparisons ---------------------------------------------------------------------- */

enum
{
  C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS,
  C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN, N_CMP,
};

static const char *const cmp_names[] = {
  "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

enum { B_NONE, B_AND, B_OR, B_XOR };

static const char *const bool_names[] = { "", "and", "or", "xor" };

static gboolean
cmp_eval (int      cmp,
          Ty       t,
          uint64_t a,
          uint64_t b)
{
  if (ty_info[t].is_float)
    {
      double x = fval (t, a), y = fval (t, b);
      gboolean un = isnan (x) || isnan (y);

      switch (cmp)
        {
        case C_EQ: return !un && x == y;
        case C_NE: return !un && x != y;
        case C_LT: return !un && x < y;
        case C_LE: return !un && x <= y;
        case C_GT: return !un && x > y;
        case C_GE: return !un && x >= y;
        case C_EQU: return un || x == y;
        case C_NEU: return un || x != y;
        case C_LTU: return un || x < y;
        case C_LEU: return un || x <= y;
        case C_GTU: return un || x > y;
        case C_GEU: return un || x >= y;
        case C_NUM: return !un;
        case C_NAN: return un;
        default: g_assert_not_reached ();
        }
    }
  else
    {
      int w = ty_info[t].bits;
      uint64_t ua = a & mask_of (w), ub = b & mask_of (w);
      int64_t sa = sext (a, w), sb = sext (b, w);
      gboolean s = ty_info[t].is_signed;

      switch (cmp)
        {
        case C_EQ: return ua == ub;
        case C_NE: return ua != ub;
        case C_LT: return s ? sa < sb : ua < ub;
        case C_LE: return s ? sa <= sb : ua <= ub;
        case C_GT: return s ? sa > sb : ua > ub;
        case C_GE: return s ? sa >= sb : ua >= ub;
        case C_LO: return ua < ub;
        case C_LS: return ua <= ub;
        case C_HI: return ua > ub;
        case C_HS: return ua >= ub;
        default: g_assert_not_reached ();
        }
    }
}

static gboolean
bool_op (int      op,
         gboolean a,
         gboolean b)
{
  switch (op)
    {
    case B_AND: return a && b;
    case B_OR: return a || b;
    case B_XOR: return a != b;
    default: return a;
    }
}

/* setp: bit 0 = p; with a boolean op, p = t BOP c and bit 1 = q = !t BOP c */
static gboolean
ref_setp (const Row      *r,
          const uint64_t *x,
          uint64_t       *d)
{
  gboolean t = cmp_eval (r->arg, r->st[0], x[0], x[1]);

  if (r->arg2 == B_NONE)
    *d = t;
  else
    {
      gboolean c = (x[2] & 0xffffffffu) != 0;

      *d = (uint64_t) bool_op (r->arg2, t, c) | ((uint64_t) bool_op (r->arg2, !t, c) << 1);
    }
  return TRUE;
}

/* set: all ones (or 1.0f for an f32 destination) when true */
static gboolean
ref_set (const Row      *r,
         const uint64_t *x,
         uint64_t       *d)
{
  gboolean t = cmp_eval (r->arg, r->st[0], x[0], x[1]);

  if (r->dt == T_F32)
    *d = t ? bits_f32 (1.0f) : 0;
  else
    *d = t ? 0xffffffffu : 0;
  return TRUE;
}

static gboolean
ref_selp (const Row      *r,
          const uint64_t *x,
          uint64_t       *d)
{
  *d = (x[2] & 0xffffffffu) ? x[0] : x[1];
  return TRUE;
}

enum { TP_FINITE, TP_INFINITE, TP_NUMBER, TP_NOTANUMBER, TP_NORMAL, TP_SUBNORMAL };

static const char *const testp_names[] = {
  "finite", "infinite", "number", "notanumber", "normal", "subnormal",
};

static gboolean
ref_testp (const Row      *r,
           const uint64_t *x,
           uint64_t       *d)
{
  int mb, eb;
  uint64_t e, m;

  fmt_of (r->st[0], &mb, &eb);
  e = (x[0] >> mb) & mask_of (eb);
  m = x[0] & mask_of (mb);
  switch (r->arg)
    {
    case TP_FINITE: *d = e != mask_of (eb); break;
    case TP_INFINITE: *d = e == mask_of (eb) && m == 0; break;
    case TP_NUMBER: *d = !(e == mask_of (eb) && m != 0); break;
    case TP_NOTANUMBER: *d = e == mask_of (eb) && m != 0; break;
    case TP_NORMAL:
      /* the ISA counts +0 and -0 as normal numbers */
      *d = e != mask_of (eb) && !(e == 0 && m != 0);
      break;
    default: *d = e == 0 && m != 0; break;
    }
  return TRUE;
}

/* ---- floating point references ---------------------------------------------------------- */

enum
{
  F_ADD, F_SUB, F_MUL, F_FMA, F_DIV, F_SQRT, F_RCP, F_MIN, F_MAX, F_ABS, F_NEG, F_COPYSIGN,
  F_SIN, F_COS, F_EX2, F_LG2, F_RSQRT, F_SQRT_APPROX, F_RCP_APPROX, F_DIV_APPROX, F_TANH,
};

/* One IEEE operation in the given rounding mode, by the host's FPU */
static float
f32_arith (int   op,
           float a,
           float b,
           float c,
           int   rnd)
{
  volatile float x = a, y = b, z = c;
  volatile float v = 0.0f;

  fesetround (fe_of (rnd));
  switch (op)
    {
    case F_ADD: v = x + y; break;
    case F_SUB: v = x - y; break;
    case F_MUL: v = x * y; break;
    case F_FMA: v = fmaf (x, y, z); break;
    case F_DIV: v = x / y; break;
    case F_SQRT: v = sqrtf (x); break;
    case F_RCP: v = 1.0f / x; break;
    default: g_assert_not_reached ();
    }
  fesetround (FE_TONEAREST);
  return v;
}

static double
f64_arith (int    op,
           double a,
           double b,
           double c,
           int    rnd)
{
  volatile double x = a, y = b, z = c;
  volatile double v = 0.0;

  fesetround (fe_of (rnd));
  switch (op)
    {
    case F_ADD: v = x + y; break;
    case F_SUB: v = x - y; break;
    case F_MUL: v = x * y; break;
    case F_FMA: v = fma (x, y, z); break;
    case F_DIV: v = x / y; break;
    case F_SQRT: v = sqrt (x); break;
    case F_RCP: v = 1.0 / x; break;
    default: g_assert_not_reached ();
    }
  fesetround (FE_TONEAREST);
  return v;
}

/* min/max: one NaN operand gives the other, two give the canonical NaN,
 * and with .NaN any NaN operand gives the canonical NaN */
static uint64_t
minmax_bits (int      op,
             gboolean nan_mode,
             uint64_t ha,
             uint64_t hb,
             double   a,
             double   b,
             uint64_t canon)
{
  if ((isnan (a) && isnan (b)) || (nan_mode && (isnan (a) || isnan (b))))
    return canon;
  if (isnan (a))
    return hb;
  if (isnan (b))
    return ha;
  if (op == F_MIN)
    return a < b ? ha : hb;
  return a > b ? ha : hb;
}

static gboolean
ref_f32 (const Row      *r,
         const uint64_t *x,
         uint64_t       *d)
{
  float a = f32_of (x[0]), b = f32_of (x[1]), c = f32_of (x[2]), v;
  uint64_t bits;

  if (r->ftz)
    {
      a = ftz32 (a);
      b = ftz32 (b);
      c = ftz32 (c);
    }
  switch (r->op)
    {
    case F_MIN:
    case F_MAX:
      bits = minmax_bits (r->op, r->arg, bits_f32 (a), bits_f32 (b), a, b, 0x7fffffffu);
      break;
    case F_ABS: bits = bits_f32 (a) & 0x7fffffffu; break;
    case F_NEG: bits = bits_f32 (a) ^ 0x80000000u; break;
    case F_COPYSIGN:
      /* copysign d, a, b: b's magnitude with a's sign */
      bits = (x[1] & 0x7fffffffu) | (x[0] & 0x80000000u);
      break;
    default:
      bits = bits_f32 (f32_arith (r->op, a, b, c, r->rnd));
      break;
    }
  v = f32_of (bits);
  if (r->ftz)
    v = ftz32 (v);
  if (r->sat)
    v = isnan (v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  *d = (r->ftz || r->sat) ? bits_f32 (v) : bits;
  return TRUE;
}

static gboolean
ref_f64 (const Row      *r,
         const uint64_t *x,
         uint64_t       *d)
{
  double a = f64_of (x[0]), b = f64_of (x[1]), c = f64_of (x[2]);

  switch (r->op)
    {
    case F_MIN:
    case F_MAX:
      *d = minmax_bits (r->op, FALSE, x[0], x[1], a, b, 0x7fffffffffffffffu);
      break;
    case F_ABS: *d = x[0] & 0x7fffffffffffffffu; break;
    case F_NEG: *d = x[0] ^ 0x8000000000000000u; break;
    case F_COPYSIGN: *d = (x[1] & 0x7fffffffffffffffu) | (x[0] & 0x8000000000000000u); break;
    default: *d = bits_f64 (f64_arith (r->op, a, b, c, r->rnd)); break;
    }
  return TRUE;
}

/* The approximate functions: the exact value in double, compared within
 * the row's tolerance */
static gboolean
ref_approx (const Row      *r,
            const uint64_t *x,
            uint64_t       *d)
{
  double a = fval (r->st[0], x[0]), b = r->st[1] != T_NONE ? fval (r->st[1], x[1]) : 0.0, v;

  if (r->ftz)
    {
      a = fpclassify ((float) a) == FP_SUBNORMAL ? copysign (0.0, a) : a;
      b = fpclassify ((float) b) == FP_SUBNORMAL ? copysign (0.0, b) : b;
    }
  switch (r->op)
    {
    case F_SIN: v = sin (a); break;
    case F_COS: v = cos (a); break;
    case F_EX2: v = exp2 (a); break;
    case F_LG2: v = log2 (a); break;
    case F_RSQRT: v = 1.0 / sqrt (a); break;
    case F_SQRT_APPROX: v = sqrt (a); break;
    case F_RCP_APPROX: v = 1.0 / a; break;
    case F_DIV_APPROX: v = a / b; break;
    case F_TANH: v = tanh (a); break;
    default: g_assert_not_reached ();
    }
  if (!isnan (v) && !isinf (v) && fabs (v) > (r->dt == T_F32 ? 3.4028234663852886e38 : 65504.0))
    v = copysign (INFINITY, v);
  *d = bits_f64 (v);
  return TRUE;
}

/* a OP b (OP c) in double, rounded toward zero with the inexact flag
 * folded into the last bit (round to odd): correct to round once more to
 * any format of at most 51 bits */
static double
rto_op (int    op,
        double a,
        double b,
        double c)
{
  volatile double x = a, y = b, z = c;
  volatile double v = 0.0;
  int inexact;

  feclearexcept (FE_INEXACT);
  fesetround (FE_TOWARDZERO);
  switch (op)
    {
    case F_ADD: v = x + y; break;
    case F_SUB: v = x - y; break;
    case F_MUL: v = x * y; break;
    case F_FMA: v = fma (x, y, z); break;
    default: g_assert_not_reached ();
    }
  inexact = fetestexcept (FE_INEXACT);
  fesetround (FE_TONEAREST);
  if (inexact && isfinite (v))
    return f64_of (bits_f64 (v) | 1);
  return v;
}

static uint64_t
half_op (const Row *r,
         uint64_t   ha,
         uint64_t   hb,
         uint64_t   hc,
         int        mb,
         int        eb)
{
  uint64_t sign = (uint64_t) 1 << (mb + eb), canon = mask_of (mb + eb), res;
  double a, b, c;

  if (r->ftz)
    {
      ha = ftz_bits (ha, mb, eb);
      hb = ftz_bits (hb, mb, eb);
      hc = ftz_bits (hc, mb, eb);
    }
  a = double_of_fmt (ha, mb, eb);
  b = double_of_fmt (hb, mb, eb);
  c = double_of_fmt (hc, mb, eb);
  switch (r->op)
    {
    case F_NEG: return ha ^ sign;
    case F_ABS: return ha & ~sign;
    case F_MIN:
    case F_MAX:
      return minmax_bits (r->op, r->arg, ha, hb, a, b, canon);
    default:
      {
        double v = rto_op (r->op, a, b, c);

        res = isnan (v) ? canon : fmt_of_double (v, mb, eb, RN);
      }
      break;
    }
  if (r->ftz)
    res = ftz_bits (res, mb, eb);
  if (r->sat)
    {
      double v = double_of_fmt (res, mb, eb);

      if (isnan (v) || v < 0.0)
        res = 0;
      else if (v > 1.0)
        res = fmt_of_double (1.0, mb, eb, RN);
    }
  if (r->relu)
    {
      /* .relu: negative results become +0; a NaN stays the canonical NaN */
      if (!bits_is_nan (res, mb, eb) && (res & sign))
        res = 0;
    }
  return res;
}

static gboolean
ref_half (const Row      *r,
          const uint64_t *x,
          uint64_t       *d)
{
  int mb, eb;

  fmt_of (r->dt, &mb, &eb);
  *d = half_op (r, x[0] & 0xffff, x[1] & 0xffff, x[2] & 0xffff, mb, eb);
  if (is_x2 (r->dt))
    *d |= half_op (r, (x[0] >> 16) & 0xffff, (x[1] >> 16) & 0xffff, (x[2] >> 16) & 0xffff, mb, eb) << 16;
  return TRUE;
}

/* ---- conversions ------------------------------------------------------------------------ */

static double
round_integral (double v,
                int    rnd)
{
  switch (rnd)
    {
    case RZ: return trunc (v);
    case RM: return floor (v);
    case RP: return ceil (v);
    default: return nearbyint (v);  /* ties to even in the default mode */
    }
}

static gboolean
ref_cvt (const Row      *r,
         const uint64_t *x,
         uint64_t       *d)
{
  Ty dt = r->dt, st = r->st[0];
  int sw = ty_info[st].bits, dw = ty_info[dt].bits;
  gboolean ss = ty_info[st].is_signed, ds = ty_info[dt].is_signed;
  uint64_t a = x[0] & mask_of (sw);

  if (!ty_info[st].is_float && !ty_info[dt].is_float)
    {
      /* integers: extend by the source's signedness, then truncate, or
       * with .sat clamp to the destination's range */
      __int128 v = ss ? (__int128) sext (a, sw) : (__int128) a;

      if (!r->sat)
        *d = (uint64_t) v & mask_of (dw);
      else if (ds)
        *d = clamp128 (v, -((__int128) 1 << (dw - 1)), ((__int128) 1 << (dw - 1)) - 1);
      else
        *d = clamp128 (v, 0, ((__int128) 1 << dw) - 1);
    }
  else if (ty_info[st].is_float && !ty_info[dt].is_float)
    {
      /* float to integer: round to an integral value in the mode, then
       * saturate to the destination's range.  NaN gives 0, except from an
       * f64 source or into a 64-bit destination, where it gives
       * 1 << (width - 1) as the current ISA says. */
      double v = fval (st, a), ri;

      if (isnan (v))
        {
          *d = (st == T_F64 || dw == 64) ? (uint64_t) 1 << (dw - 1) : 0;
          return TRUE;
        }
      ri = round_integral (v, r->rnd);
      if (ds)
        {
          double lo = -ldexp (1.0, dw - 1), hi = ldexp (1.0, dw - 1);

          if (ri <= lo)
            *d = (uint64_t) 1 << (dw - 1);
          else if (ri >= hi)
            *d = mask_of (dw - 1);
          else
            *d = (uint64_t) (int64_t) ri;
        }
      else
        {
          if (ri <= 0.0)
            *d = 0;
          else if (ri >= ldexp (1.0, dw))
            *d = mask_of (dw);
          else
            *d = (uint64_t) ri;
        }
    }
  else if (!ty_info[st].is_float)
    {
      /* integer to float: the host's conversion in the mode for f32 and
       * f64, one rounding of the exact integer for f16 and bf16 */
      int64_t sv = sext (a, sw);
      gboolean neg = ss && sv < 0;
      uint64_t mag = neg ? (uint64_t) 0 - (uint64_t) sv : a;
      int mb, eb;

      if (dt == T_F32 || dt == T_F64)
        {
          volatile int64_t vs = sv;
          volatile uint64_t vu = a;
          volatile float f = 0.0f;
          volatile double g = 0.0;

          fesetround (fe_of (r->rnd));
          if (dt == T_F32)
            f = ss ? (float) vs : (float) vu;
          else
            g = ss ? (double) vs : (double) vu;
          fesetround (FE_TONEAREST);
          *d = dt == T_F32 ? bits_f32 (f) : bits_f64 (g);
        }
      else
        {
          fmt_of (dt, &mb, &eb);
          *d = round_fmt (neg, mag, 0, mb, eb, r->rnd);
        }
    }
  else
    {
      double v = fval (st, a);
      int mb, eb;

      if (st == dt)
        {
          /* cvt.rni.f32.f32 and friends: round to an integral value */
          double ri = isnan (v) ? v : round_integral (v, r->rnd);

          *d = dt == T_F32 ? bits_f32 ((float) ri) : enc_float (dt, ri);
        }
      else if (dt == T_F32)
        {
          volatile double vv = v;
          volatile float f;

          fesetround (fe_of (r->rnd));
          f = (float) vv;
          fesetround (FE_TONEAREST);
          *d = bits_f32 (f);
        }
      else
        {
          fmt_of (dt, &mb, &eb);
          *d = fmt_of_double (v, mb, eb, r->rnd);
        }
      if (r->sat)
        {
          double w = fval (dt, *d);

          if (isnan (w) || w < 0.0)
            *d = 0;
          else if (w > 1.0)
            *d = enc_float (dt, 1.0);
        }
    }
  return TRUE;
}

/* cvt.rn.f16x2.f32 d, a, b: a converted into the upper half, b the lower */
static gboolean
ref_cvt_x2 (const Row      *r,
            const uint64_t *x,
            uint64_t       *d)
{
  int mb, eb;
  uint64_t hi, lo;

  fmt_of (r->dt, &mb, &eb);
  hi = fmt_of_double (f32_of (x[0]), mb, eb, r->rnd);
  lo = fmt_of_double (f32_of (x[1]), mb, eb, r->rnd);
  if (r->relu)
    {
      if (!bits_is_nan (hi, mb, eb) && (hi >> 15))
        hi = 0;
      if (!bits_is_nan (lo, mb, eb) && (lo >> 15))
        lo = 0;
    }
  *d = (hi << 16) | lo;
  return TRUE;
}

/* ---- atomics --------------------------------------------------------------------------- */

enum
{
  A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_CAS, A_EXCH, A_AND, A_OR, A_XOR,
};

/* Lanes replayed in thread order: the engine runs a warp's lanes in order
 * and the warps in order.  Slot = tid % N_SLOTS. */
static void
all_atom (const Row      *r,
          uint64_t *const *in,
          uint64_t       *out,
          uint64_t       *mem)
{
  Ty t = r->mem_ty;
  int w = ty_info[t].bits;
  uint64_t m = mask_of (w);

  for (int lane = 0; lane < N_LANES; lane++)
    {
      int slot = lane % N_SLOTS;
      uint64_t old = mem[slot] & m, a = in[0][lane] & m, b = in[1][lane] & m, nv;

      switch (r->op)
        {
        case A_ADD:
          if (t == T_F32)
            {
              /* atom.add.f32 rounds to nearest even and flushes subnormal
               * inputs and results to sign-preserving zero */
              nv = bits_f32 (ftz32 (ftz32 (f32_of (old)) + ftz32 (f32_of (a))));
            }
          else if (t == T_F64)
            nv = bits_f64 (f64_of (old) + f64_of (a));
          else
            nv = old + a;
          break;
        case A_MIN:
          nv = ty_info[t].is_signed ? (sext (a, w) < sext (old, w) ? a : old) : MIN (a, old);
          break;
        case A_MAX:
          nv = ty_info[t].is_signed ? (sext (a, w) > sext (old, w) ? a : old) : MAX (a, old);
          break;
        case A_INC: nv = old >= a ? 0 : old + 1; break;
        case A_DEC: nv = (old == 0 || old > a) ? a : old - 1; break;
        case A_CAS: nv = old == a ? b : old; break;
        case A_EXCH: nv = a; break;
        case A_AND: nv = old & a; break;
        case A_OR: nv = old | a; break;
        default: nv = old ^ a; break;
        }
      out[lane] = r->arg ? 0 : old;   /* arg: red, no result */
      mem[slot] = nv & m;
    }
}

/* ---- warp-wide operations ----------------------------------------------------------------- */

enum { S_UP, S_DOWN, S_BFLY, S_IDX };

static const char *const shfl_names[] = { "up", "down", "bfly", "idx" };

/* shfl.sync: d in the low word, the predicate in bit 32 */
static void
all_shfl (const Row      *r,
          uint64_t *const *in,
          uint64_t       *out,
          uint64_t       *mem)
{
  for (int lane_id = 0; lane_id < N_LANES; lane_id++)
    {
      int base = lane_id & ~31, lane = lane_id & 31;
      int bval = (int) (in[1][lane_id] & 31);
      uint32_t cval = (uint32_t) in[2][lane_id];
      int clamp = (int) (cval & 31), segmask = (int) ((cval >> 8) & 31);
      int max_lane = (lane & segmask) | (clamp & ~segmask);
      int min_lane = lane & segmask;
      int j;
      gboolean p;

      switch (r->op)
        {
        case S_UP: j = lane - bval; p = j >= max_lane; break;
        case S_DOWN: j = lane + bval; p = j <= max_lane; break;
        case S_BFLY: j = lane ^ bval; p = j <= max_lane; break;
        default: j = min_lane | (bval & ~segmask); p = j <= max_lane; break;
        }
      if (!p)
        j = lane;
      out[lane_id] = (in[0][base + j] & 0xffffffffu) | ((uint64_t) p << 32);
    }
}

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };

static void
all_vote (const Row      *r,
          uint64_t *const *in,
          uint64_t       *out,
          uint64_t       *mem)
{
  for (int base = 0; base < N_LANES; base += 32)
    {
      uint32_t bal = 0;

      for (int l = 0; l < 32; l++)
        if (((in[0][base + l] & 0xffffffffu) != 0) != (r->arg != 0))  /* arg: negated */
          bal |= 1u << l;
      for (int l = 0; l < 32; l++)
        switch (r->op)
          {
          case V_ALL: out[base + l] = bal == 0xffffffffu; break;
          case V_ANY: out[base + l] = bal != 0; break;
          case V_UNI: out[base + l] = bal == 0 || bal == 0xffffffffu; break;
          default: out[base + l] = bal; break;
          }
    }
}

/* match.any: the lanes with the same value; match.all: all ones and the
 * predicate (bit 32) when every lane has the same value, else 0 */
static void
all_match (const Row      *r,
           uint64_t *const *in,
           uint64_t       *out,
           uint64_t       *mem)
{
  uint64_t m = mask_of (ty_info[r->st[0]].bits);

  for (int base = 0; base < N_LANES; base += 32)
    {
      gboolean same = TRUE;

      for (int l = 0; l < 32; l++)
        same = same && (in[0][base + l] & m) == (in[0][base] & m);
      for (int l = 0; l < 32; l++)
        {
          uint32_t mm = 0;

          for (int j = 0; j < 32; j++)
            if ((in[0][base + j] & m) == (in[0][base + l] & m))
              mm |= 1u << j;
          if (r->op == 0)
            out[base + l] = mm;
          else
            out[base + l] = same ? 0x1ffffffffu : 0;
        }
    }
}

enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

static void
all_redux (const Row      *r,
           uint64_t *const *in,
           uint64_t       *out,
           uint64_t       *mem)
{
  gboolean s = ty_info[r->st[0]].is_signed;

  for (int base = 0; base < N_LANES; base += 32)
    {
      uint32_t acc = (uint32_t) in[0][base];

      for (int l = 1; l < 32; l++)
        {
          uint32_t v = (uint32_t) in[0][base + l];

          switch (r->op)
            {
            case R_ADD: acc += v; break;
            case R_MIN: acc = s ? ((int32_t) v < (int32_t) acc ? v : acc) : MIN (acc, v); break;
            case R_MAX: acc = s ? ((int32_t) v > (int32_t) acc ? v : acc) : MAX (acc, v); break;
            case R_AND: acc &= v; break;
            case R_OR: acc |= v; break;
            default: acc ^= v; break;
            }
        }
      for (int l = 0; l < 32; l++)
        out[base + l] = acc;
    }
}

/* activemask: all lanes; under a branch on a (op 1), the lanes of the warp
 * with a != 0 in those lanes, 0 in the others */
static void
all_activemask (const Row      *r,
                uint64_t *const *in,
                uint64_t       *out,
                uint64_t       *mem)
{
  for (int base = 0; base < N_LANES; base += 32)
    {
      uint32_t taken = 0;

      for (int l = 0; l < 32; l++)
        if (r->op == 0 || (in[0][base + l] & 0xffffffffu) != 0)
          taken |= 1u << l;
      for (int l = 0; l < 32; l++)
        out[base + l] = (taken >> l) & 1 ? taken : 0;
    }
}

/* ---- the table ------------------------------------------------------------------------ */

static Row *
int_row (const char *opc,
         Ty          t,
         int         op,
         Ty          dt,
         Ty          s1,
         Ty          s2,
         Ty          s3)
{
  g_autofree char *name = g_strdup_printf ("%s.%s", opc, TN (t));
  Row *r = row_add (name, NULL, dt, t, s1, s2, s3);

  r->ref = ref_int;
  r->op = op;
  return r;
}

static Ty
wide_of (Ty t)
{
  switch (t)
    {
    case T_S16: return T_S32;
    case T_S32: return T_S64;
    case T_U16: return T_U32;
    case T_U32: return T_U64;
    default: g_assert_not_reached ();
    }
}

static void
build_int_rows (void)
{
  static const Ty ints[] = { T_S16, T_S32, T_S64, T_U16, T_U32, T_U64 };
  static const Ty bits[] = { T_B16, T_B32, T_B64 };

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    {
      Ty t = ints[i];

      int_row ("add", t, OP_ADD, t, t, T_NONE, T_NONE);
      int_row ("sub", t, OP_SUB, t, t, T_NONE, T_NONE);
      int_row ("mul.lo", t, OP_MUL_LO, t, t, T_NONE, T_NONE);
      int_row ("mul.hi", t, OP_MUL_HI, t, t, T_NONE, T_NONE);
      int_row ("mad.lo", t, OP_MAD_LO, t, t, t, T_NONE);
      int_row ("mad.hi", t, OP_MAD_HI, t, t, t, T_NONE);
      int_row ("div", t, OP_DIV, t, t, T_NONE, T_NONE);
      int_row ("rem", t, OP_REM, t, t, T_NONE, T_NONE);
      int_row ("min", t, OP_MIN, t, t, T_NONE, T_NONE);
      int_row ("max", t, OP_MAX, t, t, T_NONE, T_NONE);
      int_row ("sad", t, OP_SAD, t, t, t, T_NONE);
      if (ty_info[t].bits < 64)
        {
          int_row ("mul.wide", t, OP_MUL_WIDE, wide_of (t), t, T_NONE, T_NONE);
          int_row ("mad.wide", t, OP_MAD_WIDE, wide_of (t), t, wide_of (t), T_NONE);
        }
      if (ty_info[t].is_signed)
        {
          int_row ("abs", t, OP_ABS, t, T_NONE, T_NONE, T_NONE);
          int_row ("neg", t, OP_NEG, t, T_NONE, T_NONE, T_NONE);
        }
      /* shr at every signedness; shift amounts are always u32 */
      int_row ("shr", t, OP_SHR, t, T_U32, T_NONE, T_NONE)->gen[1] = G_SHIFT;
    }
  int_row ("add.sat", T_S32, OP_ADD_SAT, T_S32, T_S32, T_NONE, T_NONE);
  int_row ("sub.sat", T_S32, OP_SUB_SAT, T_S32, T_S32, T_NONE, T_NONE);
  int_row ("mad.hi.sat", T_S32, OP_MAD_HI_SAT, T_S32, T_S32, T_S32, T_NONE);
  for (int s = 0; s < 2; s++)
    {
      Ty t = s ? T_S32 : T_U32;

      int_row ("mul24.lo", t, OP_MUL24_LO, t, t, T_NONE, T_NONE);
      int_row ("mul24.hi", t, OP_MUL24_HI, t, t, T_NONE, T_NONE);
      int_row ("mad24.lo", t, OP_MAD24_LO, t, t, t, T_NONE);
      int_row ("mad24.hi", t, OP_MAD24_HI, t, t, t, T_NONE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bits); i++)
    {
      Ty t = bits[i];

      int_row ("and", t, OP_AND, t, t, T_NONE, T_NONE);
      int_row ("or", t, OP_OR, t, t, T_NONE, T_NONE);
      int_row ("xor", t, OP_XOR, t, t, T_NONE, T_NONE);
      int_row ("not", t, OP_NOT, t, T_NONE, T_NONE, T_NONE);
      int_row ("cnot", t, OP_CNOT, t, T_NONE, T_NONE, T_NONE);
      int_row ("shl", t, OP_SHL, t, T_U32, T_NONE, T_NONE)->gen[1] = G_SHIFT;
      int_row ("shr", t, OP_SHR, t, T_U32, T_NONE, T_NONE)->gen[1] = G_SHIFT;
    }
  for (int i = 0; i < 2; i++)
    {
      Ty t = i ? T_B64 : T_B32;
      Row *r;

      int_row ("popc", t, OP_POPC, T_U32, T_NONE, T_NONE, T_NONE);
      int_row ("clz", t, OP_CLZ, T_U32, T_NONE, T_NONE, T_NONE);
      int_row ("brev", t, OP_BREV, t, T_NONE, T_NONE, T_NONE);
      r = int_row ("bfi", t, OP_BFI, t, t, T_U32, T_U32);
      r->gen[2] = r->gen[3] = G_POSLEN;
    }
  {
    static const Ty bt[] = { T_U32, T_S32, T_U64, T_S64 };

    for (guint i = 0; i < G_N_ELEMENTS (bt); i++)
      {
        Row *r;

        int_row ("bfind", bt[i], OP_BFIND, T_U32, T_NONE, T_NONE, T_NONE);
        r = int_row ("bfind.shiftamt", bt[i], OP_BFIND, T_U32, T_NONE, T_NONE, T_NONE);
        r->arg = 1;
        r = int_row ("bfe", bt[i], OP_BFE, bt[i], T_U32, T_U32, T_NONE);
        r->gen[1] = r->gen[2] = G_POSLEN;
      }
  }
  {
    static const char *const modes[] = { "", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16" };

    for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
      {
        g_autofree char *name = g_strdup_printf ("prmt.b32%s", modes[i]);
        Row *r = row_add (name, NULL, T_B32, T_B32, T_B32, T_B32, T_NONE);

        r->ref = ref_int;
        r->op = OP_PRMT;
        r->arg = (int) i;
      }
  }
  {
    static const int luts[] = { 0x00, 0xff, 0x96, 0xe8, 0xca, 0x80, 0xfe, 0x3c, 0x5a, 0x1e, 0x6a, 0xf0 };

    for (guint i = 0; i < G_N_ELEMENTS (luts); i++)
      {
        g_autofree char *name = g_strdup_printf ("lop3.b32.0x%02x", luts[i]);
        g_autofree char *body = g_strdup_printf ("lop3.b32 %%d, %%a, %%b, %%c, 0x%02x;", luts[i]);
        Row *r = row_add (name, body, T_B32, T_B32, T_B32, T_B32, T_NONE);

        r->ref = ref_int;
        r->op = OP_LOP3;
        r->arg = luts[i];
      }
  }
  for (int i = 0; i < 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("shf.%s.%s.b32", i & 1 ? "l" : "r", i & 2 ? "clamp" : "wrap");
      Row *r = row_add (name, NULL, T_B32, T_B32, T_B32, T_U32, T_NONE);

      r->ref = ref_int;
      r->op = OP_SHF;
      r->arg = i;
      r->gen[2] = G_SHIFT;
    }
  for (int i = 0; i < 4; i++)
    {
      Ty at = i & 1 ? T_S32 : T_U32, bt = i & 2 ? T_S32 : T_U32;
      Ty ct = (at == T_S32 || bt == T_S32) ? T_S32 : T_U32;
      g_autofree char *n4 = g_strdup_printf ("dp4a.%s.%s", TN (at), TN (bt));
      Row *r = row_add (n4, NULL, ct, at, bt, ct, T_NONE);

      r->ref = ref_int;
      r->op = OP_DP4A;
      for (int h = 0; h < 2; h++)
        {
          g_autofree char *n2 = g_strdup_printf ("dp2a.%s.%s.%s", h ? "hi" : "lo", TN (at), TN (bt));

          r = row_add (n2, NULL, ct, at, bt, ct, T_NONE);
          r->ref = ref_int;
          r->op = OP_DP2A;
          r->arg = h;
        }
    }

  /* carry chains: 64-bit and 128-bit sums from 32-bit pieces */
  {
    Row *r;

    r = row_add ("add.cc.u32+addc.u32",
                 "mov.b64 {%u, %v}, %a;\n  mov.b64 {%w, %y}, %b;\n"
                 "  add.cc.u32 %u, %u, %w;\n  addc.u32 %v, %v, %y;\n  mov.b64 %d, {%u, %v};",
                 T_U64, T_U64, T_U64, T_NONE, T_NONE);
    r->ref = ref_int;
    r->op = OP_ADDC64;
    r = row_add ("sub.cc.u32+subc.u32",
                 "mov.b64 {%u, %v}, %a;\n  mov.b64 {%w, %y}, %b;\n"
                 "  sub.cc.u32 %u, %u, %w;\n  subc.u32 %v, %v, %y;\n  mov.b64 %d, {%u, %v};",
                 T_U64, T_U64, T_U64, T_NONE, T_NONE);
    r->ref = ref_int;
    r->op = OP_SUBC64;
    r = row_add ("addc.cc.u32",
                 "mov.b64 {%u, %v}, %a;\n  mov.b64 {%w, %y}, %b;\n"
                 "  add.cc.u32 %u, %u, %w;\n  addc.cc.u32 %v, %v, %y;\n"
                 "  mov.b64 {%w, %y}, %c;\n  mov.b64 {%z, %s}, %e;\n"
                 "  addc.cc.u32 %w, %w, %z;\n  addc.u32 %y, %y, %s;\n  mov.b64 %d, {%w, %y};",
                 T_U64, T_U64, T_U64, T_U64, T_U64);
    r->ref = ref_int;
    r->op = OP_ADDC128;
    r = row_add ("subc.cc.u32",
                 "mov.b64 {%u, %v}, %a;\n  mov.b64 {%w, %y}, %b;\n"
                 "  sub.cc.u32 %u, %u, %w;\n  subc.cc.u32 %v, %v, %y;\n"
                 "  mov.b64 {%w, %y}, %c;\n  mov.b64 {%z, %s}, %e;\n"
                 "  subc.cc.u32 %w, %w, %z;\n  subc.u32 %y, %y, %s;\n  mov.b64 %d, {%w, %y};",
                 T_U64, T_U64, T_U64, T_U64, T_U64);
    r->ref = ref_int;
    r->op = OP_SUBC128;
    r = row_add ("mad.lo.cc.u32+madc.hi.u32",
                 "mov.b64 {%u, %v}, %c;\n  mad.lo.cc.u32 %w, %a, %b, %u;\n"
                 "  madc.hi.u32 %y, %a, %b, %v;\n  mov.b64 %d, {%w, %y};",
                 T_U64, T_U32, T_U32, T_U64, T_NONE);
    r->ref = ref_int;
    r->op = OP_MADC;
  }
}

static void
build_compare_rows (void)
{
  static const Ty ints[] = { T_S16, T_S32, T_S64, T_U16, T_U32, T_U64, T_B32, T_B64 };
  static const struct { int cmp; int bop; Ty t; } combos[] = {
    { C_LT, B_AND, T_S32 }, { C_NE, B_OR, T_U64 }, { C_HI, B_XOR, T_U32 }, { C_GE, B_AND, T_S16 },
    { C_LTU, B_AND, T_F32 }, { C_NAN, B_OR, T_F32 }, { C_GT, B_XOR, T_F64 }, { C_NEU, B_AND, T_F64 },
    { C_EQ, B_XOR, T_F32 }, { C_LS, B_OR, T_U16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    {
      Ty t = ints[i];
      gboolean b = t == T_B32 || t == T_B64;

      for (int c = 0; c < C_EQU; c++)
        {
          g_autofree char *name = NULL, *body = NULL;
          Row *r;

          if (b && c > C_NE)
            break;
          if (ty_info[t].is_signed && c >= C_LO)
            break;
          name = g_strdup_printf ("setp.%s.%s", cmp_names[c], TN (t));
          body = g_strdup_printf ("%s %%p, %%a, %%b;\n  selp.u32 %%d, 1, 0, %%p;", name);
          r = row_add (name, body, T_U32, t, t, T_NONE, T_NONE);
          r->ref = ref_setp;
          r->arg = c;
        }
    }
  for (int f = 0; f < 2; f++)
    {
      Ty t = f ? T_F64 : T_F32;

      for (int c = 0; c < N_CMP; c++)
        {
          g_autofree char *name = NULL, *body = NULL;
          Row *r;

          if (c >= C_LO && c <= C_HS)
            continue;
          name = g_strdup_printf ("setp.%s.%s", cmp_names[c], TN (t));
          body = g_strdup_printf ("%s %%p, %%a, %%b;\n  selp.u32 %%d, 1, 0, %%p;", name);
          r = row_add (name, body, T_U32, t, t, T_NONE, T_NONE);
          r->ref = ref_setp;
          r->arg = c;
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (combos); i++)
    {
      g_autofree char *name = g_strdup_printf ("setp.%s.%s.%s", cmp_names[combos[i].cmp],
                                               bool_names[combos[i].bop], TN (combos[i].t));
      g_autofree char *body = g_strdup_printf ("%s %%p|%%q, %%a, %%b, %%c;\n"
                                               "  selp.u32 %%u, 1, 0, %%p;\n  selp.u32 %%v, 2, 0, %%q;\n"
                                               "  or.b32 %%d, %%u, %%v;", name);
      Row *r = row_add (name, body, T_U32, combos[i].t, combos[i].t, T_PRED, T_NONE);

      r->ref = ref_setp;
      r->arg = combos[i].cmp;
      r->arg2 = combos[i].bop;
    }
  {
    static const Ty st[] = { T_B16, T_B32, T_B64, T_S32, T_U64, T_F32, T_F64 };

    for (guint i = 0; i < G_N_ELEMENTS (st); i++)
      {
        g_autofree char *name = g_strdup_printf ("selp.%s", TN (st[i]));
        Row *r = row_add (name, NULL, st[i], st[i], st[i], T_PRED, T_NONE);

        r->ref = ref_selp;
        r->cmp = CMP_EXACT;       /* a move: NaN payloads too */
      }
  }
  {
    static const struct { const char *name; int cmp; Ty dt, st; } sets[] = {
      { "set.lt.u32.s32", C_LT, T_U32, T_S32 }, { "set.eq.f32.f32", C_EQ, T_F32, T_F32 },
      { "set.gtu.u32.f64", C_GTU, T_U32, T_F64 }, { "set.hi.u32.u64", C_HI, T_U32, T_U64 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
      {
        Row *r = row_add (sets[i].name, NULL, sets[i].dt, sets[i].st, sets[i].st, T_NONE, T_NONE);

        r->ref = ref_set;
        r->arg = sets[i].cmp;
        r->cmp = CMP_EXACT;
      }
  }
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < 6; k++)
      {
        Ty t = f ? T_F64 : T_F32;
        g_autofree char *name = g_strdup_printf ("testp.%s.%s", testp_names[k], TN (t));
        g_autofree char *body = g_strdup_printf ("%s %%p, %%a;\n  selp.u32 %%d, 1, 0, %%p;", name);
        Row *r = row_add (name, body, T_U32, t, T_NONE, T_NONE, T_NONE);

        r->ref = ref_testp;
        r->arg = k;
      }
}

static Row *
float_row (const char *name,
           Ty          t,
           int         op,
           int         n_src)
{
  Row *r = row_add (name, NULL, t, t, n_src > 1 ? t : T_NONE, n_src > 2 ? t : T_NONE, T_NONE);

  r->op = op;
  r->ref = t == T_F32 ? ref_f32 : t == T_F64 ? ref_f64 : ref_half;
  return r;
}

static void
build_float_rows (void)
{
  static const struct { const char *n; int op; int n_src; } arith[] = {
    { "add", F_ADD, 2 }, { "sub", F_SUB, 2 }, { "mul", F_MUL, 2 }, { "fma", F_FMA, 3 },
    { "div", F_DIV, 2 }, { "sqrt", F_SQRT, 1 }, { "rcp", F_RCP, 1 },
  };

  for (int f = 0; f < 2; f++)
    {
      Ty t = f ? T_F64 : T_F32;
      Row *r;

      for (guint i = 0; i < G_N_ELEMENTS (arith); i++)
        for (int m = RN; m <= RP; m++)
          {
            g_autofree char *name = g_strdup_printf ("%s.%s.%s", arith[i].n, frnd[m], TN (t));

            r = float_row (name, t, arith[i].op, arith[i].n_src);
            r->rnd = m;
          }
      for (int i = 0; i < 3; i++)
        {
          g_autofree char *name = g_strdup_printf ("%s.%s", arith[i].n, TN (t));

          float_row (name, t, arith[i].op, 2);
        }
      for (int i = 0; i < 2; i++)
        {
          g_autofree char *name = g_strdup_printf ("%s.%s", i ? "max" : "min", TN (t));

          r = float_row (name, t, i ? F_MAX : F_MIN, 2);
          r->zero_either = TRUE;
          r->canon_nan = t == T_F32;
        }
      r = float_row (f ? "abs.f64" : "abs.f32", t, F_ABS, 1);
      r = float_row (f ? "neg.f64" : "neg.f32", t, F_NEG, 1);
      r = row_add (f ? "copysign.f64" : "copysign.f32", NULL, t, t, t, T_NONE, T_NONE);
      r->ref = f ? ref_f64 : ref_f32;
      r->op = F_COPYSIGN;
    }

  /* f32 .ftz, .sat and .NaN */
  {
    static const struct { const char *name; int op; int n; int rnd; gboolean ftz, sat; } v[] = {
      { "add.ftz.f32", F_ADD, 2, RN, TRUE, FALSE }, { "mul.rz.ftz.f32", F_MUL, 2, RZ, TRUE, FALSE },
      { "sub.rm.ftz.f32", F_SUB, 2, RM, TRUE, FALSE }, { "fma.rn.ftz.f32", F_FMA, 3, RN, TRUE, FALSE },
      { "fma.rp.ftz.f32", F_FMA, 3, RP, TRUE, FALSE }, { "div.rn.ftz.f32", F_DIV, 2, RN, TRUE, FALSE },
      { "sqrt.rn.ftz.f32", F_SQRT, 1, RN, TRUE, FALSE }, { "rcp.rn.ftz.f32", F_RCP, 1, RN, TRUE, FALSE },
      { "add.sat.f32", F_ADD, 2, RN, FALSE, TRUE }, { "mul.sat.f32", F_MUL, 2, RN, FALSE, TRUE },
      { "fma.rn.sat.f32", F_FMA, 3, RN, FALSE, TRUE }, { "sub.ftz.sat.f32", F_SUB, 2, RN, TRUE, TRUE },
      { "add.rp.sat.f32", F_ADD, 2, RP, FALSE, TRUE }, { "fma.rz.ftz.sat.f32", F_FMA, 3, RZ, TRUE, TRUE },
      { "min.ftz.f32", F_MIN, 2, RN, TRUE, FALSE }, { "max.ftz.f32", F_MAX, 2, RN, TRUE, FALSE },
      { "abs.ftz.f32", F_ABS, 1, RN, TRUE, FALSE }, { "neg.ftz.f32", F_NEG, 1, RN, TRUE, FALSE },
      { "min.NaN.f32", F_MIN, 2, RN, FALSE, FALSE }, { "max.NaN.f32", F_MAX, 2, RN, FALSE, FALSE },
      { "max.ftz.NaN.f32", F_MAX, 2, RN, TRUE, FALSE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (v); i++)
      {
        Row *r = float_row (v[i].name, T_F32, v[i].op, v[i].n);

        r->rnd = v[i].rnd;
        r->ftz = v[i].ftz;
        r->sat = v[i].sat;
        r->zero_either = v[i].sat || v[i].op == F_MIN || v[i].op == F_MAX;
        if (v[i].op == F_MIN || v[i].op == F_MAX)
          {
            r->canon_nan = TRUE;
            r->arg = strstr (v[i].name, ".NaN") != NULL;
          }
      }
  }

  /* approximate functions: ISA bounds on their ranges */
  {
    static const struct
    {
      const char *name; int op; Ty t; Gen g; double lo, hi; gboolean neg, ftz; double rel, abs;
    } ap[] = {
      /* sin/cos: max absolute error 2^-20.9 in -100pi..100pi (taken as 2^-20.5) */
      { "sin.approx.f32", F_SIN, T_F32, G_RANGE, -314.159, 314.159, FALSE, FALSE, 0, 6.743495761743046e-07 },
      { "cos.approx.f32", F_COS, T_F32, G_RANGE, -314.159, 314.159, FALSE, FALSE, 0, 6.743495761743046e-07 },
      { "sin.approx.ftz.f32", F_SIN, T_F32, G_RANGE, -3.2, 3.2, FALSE, TRUE, 0, 6.743495761743046e-07 },
      /* ex2: max relative error 2^-22 (2 ulp) over the full range */
      { "ex2.approx.f32", F_EX2, T_F32, G_RANGE, -125.0, 127.0, FALSE, FALSE, 0x1p-21, 0 },
      { "ex2.approx.ftz.f32", F_EX2, T_F32, G_RANGE, -125.0, 127.0, FALSE, TRUE, 0x1p-21, 0 },
      /* lg2: max absolute error 2^-22 (with 2^-22 relative slack) */
      { "lg2.approx.f32", F_LG2, T_F32, G_LOG, -100.0, 100.0, FALSE, FALSE, 0x1p-22, 0x1p-21 },
      { "lg2.approx.ftz.f32", F_LG2, T_F32, G_LOG, -100.0, 100.0, FALSE, TRUE, 0x1p-22, 0x1p-21 },
      /* rsqrt: max relative error 2^-22.9 */
      { "rsqrt.approx.f32", F_RSQRT, T_F32, G_LOG, -120.0, 120.0, FALSE, FALSE, 0x1p-22, 0 },
      { "rsqrt.approx.ftz.f32", F_RSQRT, T_F32, G_LOG, -120.0, 120.0, FALSE, TRUE, 0x1p-22, 0 },
      /* sqrt.approx: max relative error 2^-23 */
      { "sqrt.approx.f32", F_SQRT_APPROX, T_F32, G_LOG, -120.0, 120.0, FALSE, FALSE, 0x1p-22, 0 },
      { "sqrt.approx.ftz.f32", F_SQRT_APPROX, T_F32, G_LOG, -120.0, 120.0, FALSE, TRUE, 0x1p-22, 0 },
      /* rcp.approx: max 1 ulp */
      { "rcp.approx.f32", F_RCP_APPROX, T_F32, G_LOG, -120.0, 120.0, TRUE, FALSE, 0x1p-22, 0 },
      { "rcp.approx.ftz.f32", F_RCP_APPROX, T_F32, G_LOG, -120.0, 120.0, TRUE, TRUE, 0x1p-22, 0 },
      /* tanh.approx: max relative error 2^-10.987 */
      { "tanh.approx.f32", F_TANH, T_F32, G_RANGE, -20.0, 20.0, FALSE, FALSE, 5.233268860040493e-04, 0x1p-30 },
      /* ex2.approx.f16: max relative error 2^-9.9 */
      { "ex2.approx.f16", F_EX2, T_F16, G_RANGE, -14.0, 15.0, FALSE, FALSE, 1.3810679320049757e-03, 0 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (ap); i++)
      {
        Row *r = row_add (ap[i].name, NULL, ap[i].t, ap[i].t, T_NONE, T_NONE, T_NONE);

        r->ref = ref_approx;
        r->op = ap[i].op;
        r->cmp = CMP_APPROX;
        r->gen[0] = ap[i].g;
        r->lo = ap[i].lo;
        r->hi = ap[i].hi;
        r->neg = ap[i].neg;
        r->ftz = ap[i].ftz;
        r->tol_rel = ap[i].rel;
        r->tol_abs = ap[i].abs;
        r->range_specials = TRUE;
      }
    /* div.approx and div.full: max 2 ulp for |b| in [2^-126, 2^126] */
    for (int i = 0; i < 4; i++)
      {
        static const char *const n[] = { "div.approx.f32", "div.full.f32", "div.approx.ftz.f32",
                                         "div.full.ftz.f32" };
        Row *r = row_add (n[i], NULL, T_F32, T_F32, T_F32, T_NONE, T_NONE);

        r->ref = ref_approx;
        r->op = F_DIV_APPROX;
        r->cmp = CMP_APPROX;
        r->gen[0] = r->gen[1] = G_LOG;
        r->lo = -60.0;
        r->hi = 60.0;
        r->neg = TRUE;
        r->ftz = i >= 2;
        r->tol_rel = 0x1p-21;
        r->range_specials = TRUE;
      }
  }

  /* f16, bf16 and their pairs */
  {
    static const Ty ht[] = { T_F16, T_F16X2, T_BF16, T_BF16X2 };
    static const struct { const char *prefix; int op; int n; gboolean ftz, sat, relu, nan; } hv[] = {
      { "add.", F_ADD, 2 }, { "sub.", F_SUB, 2 }, { "mul.", F_MUL, 2 },
      { "add.rn.", F_ADD, 2 }, { "fma.rn.", F_FMA, 3 },
      { "add.ftz.", F_ADD, 2, TRUE }, { "mul.sat.", F_MUL, 2, FALSE, TRUE },
      { "fma.rn.ftz.", F_FMA, 3, TRUE }, { "fma.rn.sat.", F_FMA, 3, FALSE, TRUE },
      { "fma.rn.relu.", F_FMA, 3, FALSE, FALSE, TRUE },
      { "min.", F_MIN, 2 }, { "max.", F_MAX, 2 }, { "min.NaN.", F_MIN, 2, FALSE, FALSE, FALSE, TRUE },
      { "max.NaN.", F_MAX, 2, FALSE, FALSE, FALSE, TRUE },
      { "neg.", F_NEG, 1 }, { "abs.", F_ABS, 1 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (ht); i++)
      for (guint j = 0; j < G_N_ELEMENTS (hv); j++)
        {
          gboolean bf = ht[i] == T_BF16 || ht[i] == T_BF16X2;
          g_autofree char *name = g_strconcat (hv[j].prefix, TN (ht[i]), NULL);
          Row *r;

          /* bf16 has no .ftz or .sat forms */
          if (bf && (hv[j].ftz || hv[j].sat))
            continue;
          r = float_row (name, ht[i], hv[j].op, hv[j].n);
          r->ftz = hv[j].ftz;
          r->sat = hv[j].sat;
          r->relu = hv[j].relu;
          r->arg = hv[j].nan;
          r->zero_either = hv[j].sat || hv[j].op == F_MIN || hv[j].op == F_MAX;
          r->canon_nan = hv[j].op == F_MIN || hv[j].op == F_MAX || hv[j].relu;
        }
  }
}

static void
build_cvt_rows (void)
{
  static const Ty all[] = { T_S8, T_S16, T_S32, T_S64, T_U8, T_U16, T_U32, T_U64,
                            T_F16, T_BF16, T_F32, T_F64 };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    for (guint j = 0; j < G_N_ELEMENTS (all); j++)
      {
        Ty dt = all[i], st = all[j];
        gboolean df = ty_info[dt].is_float, sf = ty_info[st].is_float;
        Row *r;

        if (!df && !sf)
          {
            g_autofree char *name = NULL, *sname = NULL;

            if (dt == st)
              continue;
            name = g_strdup_printf ("cvt.%s.%s", TN (dt), TN (st));
            r = row_add (name, NULL, dt, st, T_NONE, T_NONE, T_NONE);
            r->ref = ref_cvt;
            sname = g_strdup_printf ("cvt.sat.%s.%s", TN (dt), TN (st));
            r = row_add (sname, NULL, dt, st, T_NONE, T_NONE, T_NONE);
            r->ref = ref_cvt;
            r->sat = TRUE;
          }
        else if (sf && !df)
          for (int m = RN; m <= RP; m++)
            {
              g_autofree char *name = g_strdup_printf ("cvt.%s.%s.%s", irnd[m], TN (dt), TN (st));

              r = row_add (name, NULL, dt, st, T_NONE, T_NONE, T_NONE);
              r->ref = ref_cvt;
              r->rnd = m;
            }
        else if (!sf && df)
          for (int m = RN; m <= RP; m++)
            {
              g_autofree char *name = g_strdup_printf ("cvt.%s.%s.%s", frnd[m], TN (dt), TN (st));

              r = row_add (name, NULL, dt, st, T_NONE, T_NONE, T_NONE);
              r->ref = ref_cvt;
              r->rnd = m;
            }
        else if (dt == st)
          for (int m = RN; m <= RP; m++)
            {
              g_autofree char *name = g_strdup_printf ("cvt.%s.%s.%s", irnd[m], TN (dt), TN (st));

              r = row_add (name, NULL, dt, st, T_NONE, T_NONE, T_NONE);
              r->ref = ref_cvt;
              r->rnd = m;
            }
        else
          {
            int dm, de, sm, se;

            fmt_of (dt, &dm, &de);
            fmt_of (st, &sm, &se);
            if (dm >= sm && de >= se)
              {
                /* widening: exact, no rounding modifier allowed */
                g_autofree char *name = g_strdup_printf ("cvt.%s.%s", TN (dt), TN (st));

                r = row_add (name, NULL, dt, st, T_NONE, T_NONE, T_NONE);
                r->ref = ref_cvt;
              }
            else
              for (int m = RN; m <= RP; m++)
                {
                  g_autofree char *name = g_strdup_printf ("cvt.%s.%s.%s", frnd[m], TN (dt), TN (st));

                  r = row_add (name, NULL, dt, st, T_NONE, T_NONE, T_NONE);
                  r->ref = ref_cvt;
                  r->rnd = m;
                }
          }
      }
  {
    Row *r;

    r = row_add ("cvt.rn.sat.f32.f64", NULL, T_F32, T_F64, T_NONE, T_NONE, T_NONE);
    r->ref = ref_cvt;
    r->sat = TRUE;
    r->zero_either = TRUE;
    r = row_add ("cvt.rzi.sat.f32.f32", NULL, T_F32, T_F32, T_NONE, T_NONE, T_NONE);
    r->ref = ref_cvt;
    r->rnd = RZ;
    r->sat = TRUE;
    r->zero_either = TRUE;
  }
  {
    static const struct { const char *name; Ty dt; int rnd; gboolean relu; } x2[] = {
      { "cvt.rn.f16x2.f32", T_F16X2, RN }, { "cvt.rz.f16x2.f32", T_F16X2, RZ },
      { "cvt.rn.relu.f16x2.f32", T_F16X2, RN, TRUE }, { "cvt.rn.bf16x2.f32", T_BF16X2, RN },
      { "cvt.rz.bf16x2.f32", T_BF16X2, RZ }, { "cvt.rn.relu.bf16x2.f32", T_BF16X2, RN, TRUE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (x2); i++)
      {
        Row *r = row_add (x2[i].name, NULL, x2[i].dt, T_F32, T_F32, T_NONE, T_NONE);

        r->ref = ref_cvt_x2;
        r->rnd = x2[i].rnd;
        r->relu = x2[i].relu;
        r->canon_nan = x2[i].relu;
      }
  }
}

static Row *
atom_row (const char *name,
          const char *body,
          int         op,
          Ty          t,
          gboolean    red)
{
  Row *r = row_add (name, body, red ? T_U32 : t, t, op == A_CAS ? t : T_NONE, T_NONE, T_NONE);

  r->all = all_atom;
  r->op = op;
  r->arg = red;
  r->uses_mem = TRUE;
  r->mem_ty = t;
  r->mem_gen = G_INT;
  r->cmp = CMP_EXACT;
  switch (op)
    {
    case A_CAS:
      r->gen[0] = r->gen[1] = r->mem_gen = G_SMALL;
      break;
    case A_INC:
    case A_DEC:
      r->gen[0] = r->mem_gen = G_SMALL20;
      break;
    case A_ADD:
      if (ty_info[t].is_float)
        {
          /* fractions make the sum depend on the order */
          r->gen[0] = r->mem_gen = G_RANGE;
          r->lo = -1000.0;
          r->hi = 1000.0;
        }
      break;
    default:
      break;
    }
  return r;
}

static void
build_atom_rows (void)
{
  static const struct { const char *opn; int op; Ty t; } at[] = {
    { "add", A_ADD, T_U32 }, { "add", A_ADD, T_S32 }, { "add", A_ADD, T_U64 },
    { "add", A_ADD, T_F32 }, { "add", A_ADD, T_F64 },
    { "min", A_MIN, T_U32 }, { "min", A_MIN, T_S32 }, { "min", A_MIN, T_U64 }, { "min", A_MIN, T_S64 },
    { "max", A_MAX, T_U32 }, { "max", A_MAX, T_S32 }, { "max", A_MAX, T_U64 }, { "max", A_MAX, T_S64 },
    { "inc", A_INC, T_U32 }, { "dec", A_DEC, T_U32 },
    { "cas", A_CAS, T_B32 }, { "cas", A_CAS, T_B64 }, { "exch", A_EXCH, T_B32 }, { "exch", A_EXCH, T_B64 },
    { "and", A_AND, T_B32 }, { "or", A_OR, T_B32 }, { "xor", A_XOR, T_B32 },
    { "and", A_AND, T_B64 }, { "or", A_OR, T_B64 }, { "xor", A_XOR, T_B64 },
  };
  static const struct { const char *opn; int op; Ty t; } rd[] = {
    { "add", A_ADD, T_U32 }, { "add", A_ADD, T_U64 }, { "add", A_ADD, T_F32 }, { "add", A_ADD, T_F64 },
    { "min", A_MIN, T_S32 }, { "max", A_MAX, T_U64 }, { "inc", A_INC, T_U32 }, { "dec", A_DEC, T_U32 },
    { "and", A_AND, T_B32 }, { "or", A_OR, T_B64 }, { "xor", A_XOR, T_B32 },
  };
  Row *r;

  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    {
      g_autofree char *name = g_strdup_printf ("atom.global.%s.%s", at[i].opn, TN (at[i].t));
      g_autofree char *body = g_strdup_printf ("%s %%d, [%%m], %%a%s;", name, at[i].op == A_CAS ? ", %b" : "");

      atom_row (name, body, at[i].op, at[i].t, FALSE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (rd); i++)
    {
      g_autofree char *name = g_strdup_printf ("red.global.%s.%s", rd[i].opn, TN (rd[i].t));
      g_autofree char *body = g_strdup_printf ("%s [%%m], %%a;\n  mov.u32 %%d, 0;", name);

      atom_row (name, body, rd[i].op, rd[i].t, TRUE);
    }
  /* f32 atomics flush subnormals: inputs and sums in the subnormal range */
  r = atom_row ("atom.global.add.f32/subnormal", "atom.global.add.f32 %d, [%m], %a;", A_ADD, T_F32, FALSE);
  r->gen[0] = r->mem_gen = G_LOG;
  r->lo = -149.0;
  r->hi = -120.0;
  r->neg = TRUE;
}

static void
build_warp_rows (void)
{
  Row *r;

  for (int m = 0; m < 4; m++)
    {
      g_autofree char *name = g_strdup_printf ("shfl.sync.%s.b32", shfl_names[m]);
      g_autofree char *body = g_strdup_printf ("%s %%u|%%p, %%a, %%b, %%c, 0xffffffff;\n"
                                               "  selp.u32 %%v, 1, 0, %%p;\n  mov.b64 %%d, {%%u, %%v};", name);

      r = row_add (name, body, T_B64, T_B32, T_U32, T_U32, T_NONE);
      r->all = all_shfl;
      r->op = m;
      r->gen[1] = G_LANE;
      r->gen[2] = G_SHFLC;
    }
  {
    static const struct { const char *name; const char *body; int op; int neg; } v[] = {
      { "vote.sync.all.pred", "vote.sync.all.pred %p, %a, 0xffffffff;\n  selp.u32 %d, 1, 0, %p;", V_ALL, 0 },
      { "vote.sync.any.pred", "vote.sync.any.pred %p, %a, 0xffffffff;\n  selp.u32 %d, 1, 0, %p;", V_ANY, 0 },
      { "vote.sync.uni.pred", "vote.sync.uni.pred %p, %a, 0xffffffff;\n  selp.u32 %d, 1, 0, %p;", V_UNI, 0 },
      { "vote.sync.ballot.b32", "vote.sync.ballot.b32 %d, %a, 0xffffffff;", V_BALLOT, 0 },
      { "vote.sync.all.pred/not", "vote.sync.all.pred %p, !%a, 0xffffffff;\n  selp.u32 %d, 1, 0, %p;", V_ALL, 1 },
      { "vote.sync.ballot.b32/not", "vote.sync.ballot.b32 %d, !%a, 0xffffffff;", V_BALLOT, 1 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (v); i++)
      {
        r = row_add (v[i].name, v[i].body, T_U32, T_PRED, T_NONE, T_NONE, T_NONE);
        r->all = all_vote;
        r->op = v[i].op;
        r->arg = v[i].neg;
        r->gen[0] = G_WPRED;
      }
  }
  r = row_add ("match.any.sync.b32", "match.any.sync.b32 %d, %a, 0xffffffff;", T_U32, T_B32, T_NONE, T_NONE, T_NONE);
  r->all = all_match;
  r->gen[0] = G_WSMALL;
  r = row_add ("match.any.sync.b64", "match.any.sync.b64 %d, %a, 0xffffffff;", T_U32, T_B64, T_NONE, T_NONE, T_NONE);
  r->all = all_match;
  r->gen[0] = G_WSMALL;
  r = row_add ("match.all.sync.b32",
               "match.all.sync.b32 %u|%p, %a, 0xffffffff;\n  selp.u32 %v, 1, 0, %p;\n  mov.b64 %d, {%u, %v};",
               T_B64, T_B32, T_NONE, T_NONE, T_NONE);
  r->all = all_match;
  r->op = 1;
  r->gen[0] = G_WSMALL;
  r = row_add ("match.all.sync.b64",
               "match.all.sync.b64 %u|%p, %a, 0xffffffff;\n  selp.u32 %v, 1, 0, %p;\n  mov.b64 %d, {%u, %v};",
               T_B64, T_B64, T_NONE, T_NONE, T_NONE);
  r->all = all_match;
  r->op = 1;
  r->gen[0] = G_WSMALL;
  {
    static const struct { const char *name; int op; Ty t; } rx[] = {
      { "redux.sync.add.s32", R_ADD, T_S32 }, { "redux.sync.add.u32", R_ADD, T_U32 },
      { "redux.sync.min.s32", R_MIN, T_S32 }, { "redux.sync.min.u32", R_MIN, T_U32 },
      { "redux.sync.max.s32", R_MAX, T_S32 }, { "redux.sync.max.u32", R_MAX, T_U32 },
      { "redux.sync.and.b32", R_AND, T_B32 }, { "redux.sync.or.b32", R_OR, T_B32 },
      { "redux.sync.xor.b32", R_XOR, T_B32 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (rx); i++)
      {
        g_autofree char *body = g_strdup_printf ("%s %%d, %%a, 0xffffffff;", rx[i].name);

        r = row_add (rx[i].name, body, rx[i].t, rx[i].t, T_NONE, T_NONE, T_NONE);
        r->all = all_redux;
        r->op = rx[i].op;
      }
  }
  r = row_add ("activemask.b32", "activemask.b32 %d;", T_B32, T_NONE, T_NONE, T_NONE, T_NONE);
  r->all = all_activemask;
  r = row_add ("activemask.b32/diverged",
               "setp.ne.u32 %p, %a, 0;\n  mov.u32 %d, 0;\n  @!%p bra $L_skip;\n"
               "  activemask.b32 %d;\n$L_skip:", T_B32, T_U32, T_NONE, T_NONE, T_NONE);
  r->all = all_activemask;
  r->op = 1;
  r->gen[0] = G_WPRED;
}

static void
build_rows (void)
{
  rows = g_ptr_array_new ();
  row_names = g_hash_table_new (g_str_hash, g_str_equal);
  build_int_rows ();
  build_compare_rows ();
  build_float_rows ();
  build_cvt_rows ();
  build_atom_rows ();
  build_warp_rows ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  build_rows ();
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = rows->pdata[i];
      g_autofree char *path = g_strdup_printf ("/sim/isa/%s", r->name);

      g_test_add_data_func (path, r, test_row);
    }
  return g_test_run ();
}
