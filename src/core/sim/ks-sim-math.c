/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-math.c: PTX numeric semantics, bit for bit where NVIDIA defines them.
 *
 * The f32 round-to-nearest paths use the host's SSE arithmetic, which is
 * IEEE binary32 with correct rounding and subnormals (x86-64 never uses x87
 * for float).  Directed rounding switches the host rounding mode for one
 * operation; volatile operands pin the operation between the two fesetround
 * calls, since GCC ignores FENV_ACCESS and would otherwise be free to move or
 * fold it.  Conversions go through one exact "round a binary value to a
 * format" routine so that every pair of types and every mode shares the same
 * tested code.
 */

#include <fenv.h>
#include <math.h>

#include "ks-sim-math.h"

typedef unsigned __int128 u128;

/* ---- the generic rounder ----------------------------------------------- */

typedef struct
{
  uint8_t mant;                 /* stored fraction bits */
  uint8_t ebits;
  uint8_t shift;                /* lsb of the fraction in the encoding */
  uint8_t sign_bit;
  int16_t bias;
  int16_t emax;                 /* largest unbiased exponent of a finite value */
  bool has_inf;
  uint64_t max_finite;          /* magnitude encoding, before shift */
  uint64_t nan;                 /* full encoding of the NaN we produce */
} Fmt;

enum { R_RN, R_RZ, R_RM, R_RP, R_RNA };

#define IEEE_FMT(m, e, sh, sb, nanv) \
  { (m), (e), (sh), (sb), (1 << ((e) - 1)) - 1, (1 << ((e) - 1)) - 1, true, \
    ((((uint64_t) 1 << (e)) - 2) << (m)) | (((uint64_t) 1 << (m)) - 1), (nanv) }

static const Fmt fmt_f16 = IEEE_FMT (10, 5, 0, 15, KS_F16_NAN);
static const Fmt fmt_bf16 = IEEE_FMT (7, 8, 0, 15, KS_BF16_NAN);
static const Fmt fmt_f32 = IEEE_FMT (23, 8, 0, 31, KS_F32_NAN);
static const Fmt fmt_f64 = IEEE_FMT (52, 11, 0, 63, KS_F64_NAN);
/* tf32 lives in an f32 register with the 13 low fraction bits zero. */
static const Fmt fmt_tf32 = IEEE_FMT (10, 8, 13, 31, KS_F32_NAN);
static const Fmt fmt_e5m2 = IEEE_FMT (2, 5, 0, 7, KS_E5M2_NAN);
/* OCP E4M3 (the "FN" flavour NVIDIA uses): no infinities, S.1111.111 is NaN,
 * so the largest finite value is 1.110 * 2^8 = 448. */
static const Fmt fmt_e4m3 = { 3, 4, 0, 7, 7, 8, false, 0x7e, KS_E4M3_NAN };

static int
clz128 (u128 m)
{
  uint64_t hi = (uint64_t) (m >> 64);

  return hi ? __builtin_clzll (hi) : 64 + __builtin_clzll ((uint64_t) m);
}

static uint64_t
overflow_result (const Fmt *f, bool sign, int rm, bool satfinite)
{
  uint64_t s = sign ? (uint64_t) 1 << f->sign_bit : 0;
  bool to_inf;

  if (satfinite)
    return s | (f->max_finite << f->shift);
  to_inf = rm == R_RN || rm == R_RNA || (rm == R_RP && !sign) || (rm == R_RM && sign);
  if (!to_inf)
    return s | (f->max_finite << f->shift);
  if (!f->has_inf)
    return f->nan;
  return s | ((((uint64_t) 1 << f->ebits) - 1) << (f->mant + f->shift));
}

/* Round sign * m * 2^e (exact, m may be 0) to format f. */
static uint64_t
round_pack (const Fmt *f, bool sign, u128 m, int e, int rm, bool satfinite)
{
  uint64_t s = sign ? (uint64_t) 1 << f->sign_bit : 0;
  int msb, E, q, emin = 1 - f->bias;
  u128 n;
  bool guard = false, sticky = false, up = false;
  uint64_t enc;

  if (m == 0)
    return s;
  msb = 127 - clz128 (m);
  E = msb + e;
  if (E > f->emax)
    return overflow_result (f, sign, rm, satfinite);
  q = (E < emin ? emin : E) - f->mant;
  if (e >= q)
    n = m << (e - q);
  else
    {
      int sh = q - e;

      if (sh > 128)
        {
          n = 0;
          sticky = true;
        }
      else if (sh == 128)
        {
          n = 0;
          guard = (m >> 127) & 1;
          sticky = (m << 1) != 0;
        }
      else
        {
          n = m >> sh;
          guard = (m >> (sh - 1)) & 1;
          sticky = (m & (((u128) 1 << (sh - 1)) - 1)) != 0;
        }
    }

  switch (rm)
    {
    case R_RN: up = guard && (sticky || (n & 1)); break;
    case R_RNA: up = guard; break;
    case R_RZ: up = false; break;
    case R_RM: up = sign && (guard || sticky); break;
    case R_RP: up = !sign && (guard || sticky); break;
    default: break;
    }
  n += up;

  /* n carries the implicit bit, so adding it to the biased exponent minus one
   * also handles a rounding carry into the next binade, and a subnormal that
   * rounds up to the smallest normal. */
  if (E < emin)
    enc = (uint64_t) n;
  else
    enc = ((uint64_t) (E + f->bias - 1) << f->mant) + (uint64_t) n;
  if (enc > f->max_finite)
    return overflow_result (f, sign, rm, satfinite);
  return s | (enc << f->shift);
}

typedef enum { C_ZERO, C_FINITE, C_INF, C_NAN } FClass;

static FClass
decode (const Fmt *f, uint64_t bits, bool *sign, uint64_t *m, int *e)
{
  uint64_t mag, frac;
  unsigned exp;

  *sign = (bits >> f->sign_bit) & 1;
  mag = (bits >> f->shift) & (((uint64_t) 1 << (f->ebits + f->mant)) - 1);
  exp = (unsigned) (mag >> f->mant);
  frac = mag & (((uint64_t) 1 << f->mant) - 1);
  if (f->has_inf && exp == (1u << f->ebits) - 1)
    return frac ? C_NAN : C_INF;
  if (!f->has_inf && mag == (((uint64_t) 1 << (f->ebits + f->mant)) - 1))
    return C_NAN;
  if (exp == 0)
    {
      *m = frac;
      *e = 1 - f->bias - f->mant;
      return frac ? C_FINITE : C_ZERO;
    }
  *m = frac | ((uint64_t) 1 << f->mant);
  *e = (int) exp - f->bias - f->mant;
  return C_FINITE;
}

/* ---- f32 arithmetic ----------------------------------------------------- */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FMA, OP_SQRT };

static const int fe_modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static float
f32_op (int op, float a, float b, float c, KsRound rnd)
{
  volatile float va, vb, vc, vr;
  int old;

  if (rnd == KS_RN)
    {
      switch (op)
        {
        case OP_ADD: return a + b;
        case OP_SUB: return a - b;
        case OP_MUL: return a * b;
        case OP_DIV: return a / b;
        case OP_FMA: return fmaf (a, b, c);
        default: return sqrtf (a);
        }
    }

  va = a;
  vb = b;
  vc = c;
  old = fegetround ();
  fesetround (fe_modes[rnd & 3]);
  switch (op)
    {
    case OP_ADD: vr = va + vb; break;
    case OP_SUB: vr = va - vb; break;
    case OP_MUL: vr = va * vb; break;
    case OP_DIV: vr = va / vb; break;
    case OP_FMA: vr = fmaf (va, vb, vc); break;
    default: vr = sqrtf (va); break;
    }
  fesetround (old);
  return vr;
}

static double
f64_op (int op, double a, double b, double c, KsRound rnd)
{
  volatile double va, vb, vc, vr;
  int old;

  if (rnd == KS_RN)
    {
      switch (op)
        {
        case OP_ADD: return a + b;
        case OP_SUB: return a - b;
        case OP_MUL: return a * b;
        case OP_DIV: return a / b;
        case OP_FMA: return fma (a, b, c);
        default: return sqrt (a);
        }
    }

  va = a;
  vb = b;
  vc = c;
  old = fegetround ();
  fesetround (fe_modes[rnd & 3]);
  switch (op)
    {
    case OP_ADD: vr = va + vb; break;
    case OP_SUB: vr = va - vb; break;
    case OP_MUL: vr = va * vb; break;
    case OP_DIV: vr = va / vb; break;
    case OP_FMA: vr = fma (va, vb, vc); break;
    default: vr = sqrt (va); break;
    }
  fesetround (old);
  return vr;
}

/* .sat: "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f".
 * -0.0 also becomes +0.0 (estimate: the clamp is max (x, +0.0) with
 * +0.0 > -0.0, as in min/max). */
static uint32_t
f32_sat (uint32_t r)
{
  if (ks_f32_is_nan (r) || (r & 0x80000000u))
    return 0;
  return r > 0x3f800000u ? 0x3f800000u : r;
}

/* ftz flushes the result after rounding: a value that rounds up to the
 * smallest normal survives (estimate: the ISA only says "subnormal results"). */
static uint32_t
f32_finish (uint32_t r, unsigned flags)
{
  if (ks_f32_is_nan (r))
    r = KS_F32_NAN;
  else if (flags & KS_MATH_FTZ)
    r = ks_f32_flush (r);
  if (flags & KS_MATH_SAT)
    r = f32_sat (r);
  return r;
}

static uint32_t
f32_arith (int op, uint32_t a, uint32_t b, uint32_t c, KsRound rnd, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    {
      a = ks_f32_flush (a);
      b = ks_f32_flush (b);
      c = ks_f32_flush (c);
    }
  return f32_finish (ks_f32_to_bits (f32_op (op, ks_f32_from_bits (a), ks_f32_from_bits (b),
                                             ks_f32_from_bits (c), rnd)),
                     flags);
}

uint32_t
ks_f32_add (uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_ADD, a, b, 0, rnd, flags);
}

uint32_t
ks_f32_sub (uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_SUB, a, b, 0, rnd, flags);
}

uint32_t
ks_f32_mul (uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_MUL, a, b, 0, rnd, flags);
}

uint32_t
ks_f32_fma (uint32_t a, uint32_t b, uint32_t c, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_FMA, a, b, c, rnd, flags);
}

/* div, sqrt and rcp have no .sat in PTX. */
uint32_t
ks_f32_div (uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_DIV, a, b, 0, rnd, flags & ~KS_MATH_SAT);
}

uint32_t
ks_f32_sqrt (uint32_t a, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_SQRT, a, 0, 0, rnd, flags & ~KS_MATH_SAT);
}

uint32_t
ks_f32_rcp (uint32_t a, KsRound rnd, unsigned flags)
{
  return f32_arith (OP_DIV, 0x3f800000u, a, 0, rnd, flags & ~KS_MATH_SAT);
}

/* ---- f64 arithmetic ----------------------------------------------------- */

static uint64_t
f64_nan_fix (uint64_t r, uint64_t a, uint64_t b, uint64_t c, int n)
{
  if (!ks_f64_is_nan (r))
    return r;
  if (ks_f64_is_nan (a))
    return a | 0x0008000000000000ull;
  if (n > 1 && ks_f64_is_nan (b))
    return b | 0x0008000000000000ull;
  if (n > 2 && ks_f64_is_nan (c))
    return c | 0x0008000000000000ull;
  return KS_F64_NAN;
}

static uint64_t
f64_arith (int op, uint64_t a, uint64_t b, uint64_t c, int n, KsRound rnd)
{
  double r = f64_op (op, ks_f64_from_bits (a), ks_f64_from_bits (b), ks_f64_from_bits (c), rnd);

  return f64_nan_fix (ks_f64_to_bits (r), a, b, c, n);
}

uint64_t
ks_f64_add (uint64_t a, uint64_t b, KsRound rnd)
{
  return f64_arith (OP_ADD, a, b, 0, 2, rnd);
}

uint64_t
ks_f64_sub (uint64_t a, uint64_t b, KsRound rnd)
{
  return f64_arith (OP_SUB, a, b, 0, 2, rnd);
}

uint64_t
ks_f64_mul (uint64_t a, uint64_t b, KsRound rnd)
{
  return f64_arith (OP_MUL, a, b, 0, 2, rnd);
}

uint64_t
ks_f64_fma (uint64_t a, uint64_t b, uint64_t c, KsRound rnd)
{
  return f64_arith (OP_FMA, a, b, c, 3, rnd);
}

uint64_t
ks_f64_div (uint64_t a, uint64_t b, KsRound rnd)
{
  return f64_arith (OP_DIV, a, b, 0, 2, rnd);
}

uint64_t
ks_f64_sqrt (uint64_t a, KsRound rnd)
{
  return f64_arith (OP_SQRT, a, 0, 0, 1, rnd);
}

uint64_t
ks_f64_rcp (uint64_t a, KsRound rnd)
{
  double r = f64_op (OP_DIV, 1.0, ks_f64_from_bits (a), 0, rnd);

  return f64_nan_fix (ks_f64_to_bits (r), a, 0, 0, 1);
}

/* ---- min / max ---------------------------------------------------------- */

/* Total order key for non-NaN values with -0.0 < +0.0. */
static int64_t
fkey (uint64_t x, unsigned w)
{
  uint64_t sb = (uint64_t) 1 << (w - 1);
  int64_t mag = (int64_t) (x & (sb - 1));

  return (x & sb) ? -mag - 1 : mag;
}

/* The ISA's min_num/min_nan pseudo-code, with .xorsign.abs: the xor of the
 * original signs replaces the sign of a non-NaN result. */
static uint64_t
minmax_bits (uint64_t a, uint64_t b, unsigned w, uint64_t inf, uint64_t cnan, unsigned flags,
             bool is_max)
{
  uint64_t sb = (uint64_t) 1 << (w - 1);
  bool an = (a & (sb - 1)) > inf, bn = (b & (sb - 1)) > inf;
  uint64_t xs = (a ^ b) & sb, r;

  if (flags & KS_MATH_XORSIGN_ABS)
    {
      a &= sb - 1;
      b &= sb - 1;
    }
  if (an || bn)
    {
      if ((flags & KS_MATH_NAN) || (an && bn))
        return cnan;
      r = an ? b : a;
    }
  else if (is_max)
    r = fkey (a, w) >= fkey (b, w) ? a : b;
  else
    r = fkey (a, w) <= fkey (b, w) ? a : b;
  if (flags & KS_MATH_XORSIGN_ABS)
    r = (r & (sb - 1)) | xs;
  return r;
}

uint32_t
ks_f32_min (uint32_t a, uint32_t b, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    {
      a = ks_f32_flush (a);
      b = ks_f32_flush (b);
    }
  return (uint32_t) minmax_bits (a, b, 32, 0x7f800000u, KS_F32_NAN, flags, false);
}

uint32_t
ks_f32_max (uint32_t a, uint32_t b, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    {
      a = ks_f32_flush (a);
      b = ks_f32_flush (b);
    }
  return (uint32_t) minmax_bits (a, b, 32, 0x7f800000u, KS_F32_NAN, flags, true);
}

/* Both-NaN gives KS_F64_NAN (estimate: the ISA says "NaN"). */
uint64_t
ks_f64_min (uint64_t a, uint64_t b)
{
  return minmax_bits (a, b, 64, 0x7ff0000000000000ull, KS_F64_NAN, 0, false);
}

uint64_t
ks_f64_max (uint64_t a, uint64_t b)
{
  return minmax_bits (a, b, 64, 0x7ff0000000000000ull, KS_F64_NAN, 0, true);
}

/* ---- testp -------------------------------------------------------------- */

static bool
testp (uint64_t exp, uint64_t exp_max, uint64_t frac, KsTestp op)
{
  bool nan = exp == exp_max && frac, inf = exp == exp_max && !frac;

  switch (op)
    {
    case KS_TESTP_FINITE: return exp != exp_max;
    case KS_TESTP_INFINITE: return inf;
    case KS_TESTP_NUMBER: return !nan;
    case KS_TESTP_NOTANUMBER: return nan;
    case KS_TESTP_NORMAL: return exp != exp_max && (exp != 0 || frac == 0);
    case KS_TESTP_SUBNORMAL: return exp == 0 && frac != 0;
    default: return false;
    }
}

bool
ks_f32_testp (uint32_t a, KsTestp op)
{
  return testp ((a >> 23) & 0xff, 0xff, a & 0x7fffff, op);
}

bool
ks_f64_testp (uint64_t a, KsTestp op)
{
  return testp ((a >> 52) & 0x7ff, 0x7ff, a & 0xfffffffffffffull, op);
}

/* ---- approximations ------------------------------------------------------
 * Bounds stated by the PTX ISA (9.7.3), all of which the correctly rounded or
 * libm double-precision result rounded once to f32 satisfies:
 *   rcp.approx.f32    max 1 ulp over the full range
 *   sqrt.approx.f32   max relative error 2^-23 over the positive finite range
 *   rsqrt.approx.f32  max relative error 2^-22.9 over the positive finite range
 *   sin/cos.approx    max absolute error 2^-20.5 in [-2pi, 2pi],
 *                     2^-14.7 in [-100pi, 100pi], best effort outside
 *   lg2.approx.f32    max absolute error 2^-22 in (0.5, 2), relative 2^-22
 *                     elsewhere
 *   ex2.approx.f32    max 2 ulp from the correctly rounded result
 *   tanh.approx.f32   max relative error 2^-11; subnormals pass through
 *   div.approx.f32    max 2 ulp for |b| in [2^-126, 2^126]
 *   div.full.f32      max 2 ulp over the full range
 * Real hardware differs from us inside these bounds. */

static uint32_t
approx_unary (double (*fn) (double), uint32_t a, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    a = ks_f32_flush (a);
  return f32_finish (ks_f32_to_bits ((float) fn ((double) ks_f32_from_bits (a))),
                     flags & KS_MATH_FTZ);
}

static double
rsqrt_d (double x)
{
  return 1.0 / sqrt (x);
}

uint32_t
ks_f32_rcp_approx (uint32_t a, unsigned flags)
{
  return ks_f32_rcp (a, KS_RN, flags & KS_MATH_FTZ);
}

uint32_t
ks_f32_sqrt_approx (uint32_t a, unsigned flags)
{
  return ks_f32_sqrt (a, KS_RN, flags & KS_MATH_FTZ);
}

uint32_t
ks_f32_rsqrt_approx (uint32_t a, unsigned flags)
{
  return approx_unary (rsqrt_d, a, flags);
}

uint32_t
ks_f32_sin_approx (uint32_t a, unsigned flags)
{
  return approx_unary (sin, a, flags);
}

uint32_t
ks_f32_cos_approx (uint32_t a, unsigned flags)
{
  return approx_unary (cos, a, flags);
}

uint32_t
ks_f32_ex2_approx (uint32_t a, unsigned flags)
{
  return approx_unary (exp2, a, flags);
}

uint32_t
ks_f32_lg2_approx (uint32_t a, unsigned flags)
{
  return approx_unary (log2, a, flags);
}

uint32_t
ks_f32_tanh_approx (uint32_t a)
{
  return approx_unary (tanh, a, 0);
}

/* div.approx computes a * (1/b); for 2^126 < |b| < 2^128 the reciprocal is
 * below the normal range and the ISA says the quotient is 0 (NaN when a is
 * infinite). */
uint32_t
ks_f32_div_approx (uint32_t a, uint32_t b, unsigned flags)
{
  uint32_t mb = b & 0x7fffffffu;

  if (flags & KS_MATH_FTZ)
    {
      a = ks_f32_flush (a);
      b = ks_f32_flush (b);
    }
  if (mb > 0x7e800000u && mb < 0x7f800000u && !ks_f32_is_nan (a))
    {
      if ((a & 0x7fffffffu) == 0x7f800000u)
        return KS_F32_NAN;
      return (a ^ b) & 0x80000000u;
    }
  return ks_f32_div (a, b, KS_RN, flags & KS_MATH_FTZ);
}

uint32_t
ks_f32_div_full (uint32_t a, uint32_t b, unsigned flags)
{
  return ks_f32_div (a, b, KS_RN, flags & KS_MATH_FTZ);
}

/* rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: only a[63:32] is used, the low
 * word of the result is zero, NaNs map to 0x7fffffff00000000 (all ISA text).
 * We truncate the double result to its high word. */
uint64_t
ks_f64_rcp_approx_ftz (uint64_t a)
{
  uint64_t hi = a & 0xffffffff00000000ull, sign = a & 0x8000000000000000ull;
  uint64_t r;

  if (ks_f64_is_nan (hi))
    return 0x7fffffff00000000ull;
  if ((hi & 0x7ff0000000000000ull) == 0)
    return sign | 0x7ff0000000000000ull;
  r = ks_f64_to_bits (1.0 / ks_f64_from_bits (hi));
  if ((r & 0x7ff0000000000000ull) == 0)
    r &= 0x8000000000000000ull;
  return r & 0xffffffff00000000ull;
}

uint64_t
ks_f64_rsqrt_approx_ftz (uint64_t a)
{
  uint64_t hi = a & 0xffffffff00000000ull, sign = a & 0x8000000000000000ull;
  uint64_t r;

  if (ks_f64_is_nan (hi))
    return 0x7fffffff00000000ull;
  /* The ISA's table: -subnormal and -0.0 give -Inf, +subnormal +Inf. */
  if ((hi & 0x7ff0000000000000ull) == 0)
    return sign | 0x7ff0000000000000ull;
  if (sign)
    return 0x7fffffff00000000ull;
  r = ks_f64_to_bits (1.0 / sqrt (ks_f64_from_bits (hi)));
  return r & 0xffffffff00000000ull;
}

uint64_t
ks_f64_rsqrt_approx (uint64_t a)
{
  double x = ks_f64_from_bits (a);

  if (ks_f64_is_nan (a))
    return a | 0x0008000000000000ull;
  if (x == 0)
    return (a & 0x8000000000000000ull) | 0x7ff0000000000000ull;
  return f64_nan_fix (ks_f64_to_bits (1.0 / sqrt (x)), a, 0, 0, 1);
}

/* ---- conversions -------------------------------------------------------- */

static const Fmt *
float_fmt (KsPtxType t)
{
  switch (t)
    {
    case KS_PTX_TYPE_F16: return &fmt_f16;
    case KS_PTX_TYPE_BF16: return &fmt_bf16;
    case KS_PTX_TYPE_F32: return &fmt_f32;
    case KS_PTX_TYPE_F64: return &fmt_f64;
    case KS_PTX_TYPE_TF32: return &fmt_tf32;
    case KS_PTX_TYPE_E4M3: return &fmt_e4m3;
    case KS_PTX_TYPE_E5M2: return &fmt_e5m2;
    default: return NULL;
    }
}

static unsigned
int_width (KsPtxType t, bool *is_signed)
{
  *is_signed = false;
  switch (t)
    {
    case KS_PTX_TYPE_S8: *is_signed = true; return 8;
    case KS_PTX_TYPE_S16: *is_signed = true; return 16;
    case KS_PTX_TYPE_S32: *is_signed = true; return 32;
    case KS_PTX_TYPE_S64: *is_signed = true; return 64;
    case KS_PTX_TYPE_U8: case KS_PTX_TYPE_B8: return 8;
    case KS_PTX_TYPE_U16: case KS_PTX_TYPE_B16: return 16;
    case KS_PTX_TYPE_U32: case KS_PTX_TYPE_B32: return 32;
    case KS_PTX_TYPE_U64: case KS_PTX_TYPE_B64: return 64;
    default: return 0;
    }
}

static int
float_rmode (KsPtxRound r)
{
  switch (r)
    {
    case KS_PTX_ROUND_RZ: case KS_PTX_ROUND_RZI: return R_RZ;
    case KS_PTX_ROUND_RM: case KS_PTX_ROUND_RMI: return R_RM;
    case KS_PTX_ROUND_RP: case KS_PTX_ROUND_RPI: return R_RP;
    case KS_PTX_ROUND_RNA: return R_RNA;
    default: return R_RN;
    }
}

static bool
is_int_round (KsPtxRound r)
{
  return r >= KS_PTX_ROUND_RNI && r <= KS_PTX_ROUND_RPI;
}

static double
round_int (double v, KsPtxRound r)
{
  double t;

  switch (r)
    {
    case KS_PTX_ROUND_RMI: case KS_PTX_ROUND_RM: return floor (v);
    case KS_PTX_ROUND_RPI: case KS_PTX_ROUND_RP: return ceil (v);
    case KS_PTX_ROUND_RNI: case KS_PTX_ROUND_RN: case KS_PTX_ROUND_RNA:
      /* Ties to even without relying on the current rounding mode; v - t is
       * exact. */
      t = trunc (v);
      if (fabs (v - t) > 0.5 || (fabs (v - t) == 0.5 && fmod (t, 2.0) != 0.0))
        t += copysign (1.0, v);
      return t;
    default:
      /* .rzi, and NONE: PTX requires a rounding modifier on float-to-int, C
       * truncation is the least surprising default. */
      return trunc (v);
    }
}

static uint64_t
sat_float_bits (const Fmt *f, uint64_t r)
{
  bool sign;
  uint64_t m;
  int e;
  FClass c = decode (f, r, &sign, &m, &e);

  if (c == C_NAN || sign)
    return 0;
  /* r > 1.0: compare magnitudes through the encodings, which are ordered. */
  {
    uint64_t one = round_pack (f, false, 1, 0, R_RN, false);

    return r > one ? one : r;
  }
}

static uint64_t
canonical_nan_for (const Fmt *f, uint64_t src_bits, const Fmt *sf)
{
  /* Only f64 keeps payloads ("NaN payloads are supported for double-precision
   * instructions"); every narrower destination gets its canonical NaN. */
  if (f == &fmt_f64)
    {
      if (sf == &fmt_f64)
        return src_bits | 0x0008000000000000ull;
      if (sf == &fmt_f32)
        return ks_cvt_f64_f32 ((uint32_t) src_bits, 0);
    }
  return f->nan;
}

static uint64_t
cvt_float_to_int (unsigned dw, bool ds, KsPtxType src, FClass c, bool sign, uint64_t m, int e,
                  KsPtxRound rnd)
{
  double v, hi, lo;

  if (c == C_NAN)
    {
      /* "Zero if source is not .f64 and destination is not .s64, .u64.
       * Otherwise 1 << (BitWidth(dst) - 1)". */
      if (src != KS_PTX_TYPE_F64 && dw != 64)
        return 0;
      return (uint64_t) 1 << (dw - 1);
    }
  if (c == C_ZERO)
    return 0;
  v = c == C_INF ? (sign ? -INFINITY : INFINITY) : ldexp ((double) m, e) * (sign ? -1 : 1);
  v = round_int (v, rnd);
  /* "For float-to-integer conversions, the result is clamped to the
   * destination range by default". */
  hi = ldexp (1.0, (int) dw - (ds ? 1 : 0));        /* first value too large */
  lo = ds ? -hi : 0.0;
  if (v >= hi)
    return ks_mask (dw - (ds ? 1 : 0));
  if (v <= lo)
    return ds ? ((uint64_t) 1 << (dw - 1)) : 0;
  if (ds)
    return (uint64_t) (int64_t) v & ks_mask (dw);
  return (uint64_t) v;
}

uint64_t
ks_cvt (KsPtxType dst, KsPtxType src, uint64_t bits, KsPtxRound rnd, unsigned flags)
{
  bool ss, ds;
  unsigned sw = int_width (src, &ss), dw = int_width (dst, &ds);
  const Fmt *sf = float_fmt (src), *df = float_fmt (dst);
  bool sat = flags & KS_MATH_SAT, satfinite = flags & KS_MATH_SATFINITE;
  uint64_t r;

  if (sw && dw)
    {
      __int128 v = ss ? (__int128) (int64_t) ks_sext (bits, sw) : (__int128) (bits & ks_mask (sw));

      if (sat)
        {
          __int128 hi = ((__int128) 1 << (dw - (ds ? 1 : 0))) - 1;
          __int128 lo = ds ? -hi - 1 : 0;

          v = v > hi ? hi : v < lo ? lo : v;
        }
      return (uint64_t) v & ks_mask (dw);
    }

  if (sw && df)
    {
      __int128 v = ss ? (__int128) (int64_t) ks_sext (bits, sw) : (__int128) (bits & ks_mask (sw));
      bool neg = v < 0;

      r = round_pack (df, neg, (u128) (neg ? -v : v), 0, float_rmode (rnd), satfinite);
      if ((flags & KS_MATH_RELU) && neg)
        r = 0;
      if (sat && (df == &fmt_f16 || df == &fmt_f32 || df == &fmt_f64))
        r = sat_float_bits (df, r);
      return r;
    }

  if (sf)
    {
      bool sign;
      uint64_t m = 0;
      int e = 0;
      FClass c;

      bits &= sf == &fmt_f64 ? ~(uint64_t) 0
               : ks_mask (sf == &fmt_f32 || sf == &fmt_tf32 ? 32
                          : (sf == &fmt_e4m3 || sf == &fmt_e5m2) ? 8 : 16);
      /* .ftz applies only to single-precision inputs and results. */
      if ((flags & KS_MATH_FTZ) && sf == &fmt_f32)
        bits = ks_f32_flush ((uint32_t) bits);
      c = decode (sf, bits, &sign, &m, &e);

      if (dw)
        return cvt_float_to_int (dw, ds, src, c, sign, m, e, rnd);
      if (!df)
        return 0;

      switch (c)
        {
        case C_NAN:
          r = canonical_nan_for (df, bits, sf);
          break;
        case C_INF:
          if (satfinite)
            r = overflow_result (df, sign, R_RZ, true);
          else
            r = overflow_result (df, sign, R_RN, false);
          break;
        case C_ZERO:
          r = round_pack (df, sign, 0, 0, R_RN, false);
          break;
        default:
          if (is_int_round (rnd))
            {
              /* cvt.rni.f32.f32 and friends: every source value is exact in
               * a double, and so is the integer it rounds to. */
              double v = fabs (round_int (ldexp (sign ? -(double) m : (double) m, e), rnd));
              int ex;
              double fr = frexp (v, &ex);

              if (v == 0)
                r = round_pack (df, sign, 0, 0, R_RN, false);
              else
                r = round_pack (df, sign, (u128) ldexp (fr, 53), ex - 53, R_RN, satfinite);
            }
          else
            r = round_pack (df, sign, m, e, float_rmode (rnd), satfinite);
          break;
        }

      if ((flags & KS_MATH_RELU) && c != C_NAN && sign)
        r = 0;
      if ((flags & KS_MATH_FTZ) && df == &fmt_f32)
        r = ks_f32_flush ((uint32_t) r);
      if (sat && (df == &fmt_f16 || df == &fmt_f32 || df == &fmt_f64))
        r = sat_float_bits (df, r);
      return r;
    }

  return 0;
}

uint16_t
ks_cvt_f16_f32 (uint32_t a, KsPtxRound rnd, unsigned flags)
{
  return (uint16_t) ks_cvt (KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, a, rnd, flags);
}

uint16_t
ks_cvt_bf16_f32 (uint32_t a, KsPtxRound rnd, unsigned flags)
{
  return (uint16_t) ks_cvt (KS_PTX_TYPE_BF16, KS_PTX_TYPE_F32, a, rnd, flags);
}

uint32_t
ks_cvt_f32_f16 (uint16_t a, unsigned flags)
{
  return (uint32_t) ks_cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F16, a, KS_PTX_ROUND_NONE, flags);
}

uint32_t
ks_cvt_f16x2_f32 (uint32_t a, uint32_t b, KsPtxRound rnd, unsigned flags)
{
  return ((uint32_t) ks_cvt_f16_f32 (a, rnd, flags) << 16) | ks_cvt_f16_f32 (b, rnd, flags);
}

uint32_t
ks_cvt_bf16x2_f32 (uint32_t a, uint32_t b, KsPtxRound rnd, unsigned flags)
{
  return ((uint32_t) ks_cvt_bf16_f32 (a, rnd, flags) << 16) | ks_cvt_bf16_f32 (b, rnd, flags);
}

/* .satfinite is mandatory for the f8 destinations; NaN stays NaN (0x7f). */
static uint8_t
to_f8 (KsPtxType dst, KsPtxType src, uint32_t v, unsigned flags)
{
  return (uint8_t) ks_cvt (dst, src, v, KS_PTX_ROUND_RN,
                           (flags & KS_MATH_RELU) | KS_MATH_SATFINITE);
}

uint16_t
ks_cvt_e4m3x2_f32 (uint32_t a, uint32_t b, unsigned flags)
{
  return (uint16_t) ((to_f8 (KS_PTX_TYPE_E4M3, KS_PTX_TYPE_F32, a, flags) << 8)
                     | to_f8 (KS_PTX_TYPE_E4M3, KS_PTX_TYPE_F32, b, flags));
}

uint16_t
ks_cvt_e5m2x2_f32 (uint32_t a, uint32_t b, unsigned flags)
{
  return (uint16_t) ((to_f8 (KS_PTX_TYPE_E5M2, KS_PTX_TYPE_F32, a, flags) << 8)
                     | to_f8 (KS_PTX_TYPE_E5M2, KS_PTX_TYPE_F32, b, flags));
}

uint16_t
ks_cvt_e4m3x2_f16x2 (uint32_t a, unsigned flags)
{
  return (uint16_t) ((to_f8 (KS_PTX_TYPE_E4M3, KS_PTX_TYPE_F16, a >> 16, flags) << 8)
                     | to_f8 (KS_PTX_TYPE_E4M3, KS_PTX_TYPE_F16, a & 0xffff, flags));
}

uint16_t
ks_cvt_e5m2x2_f16x2 (uint32_t a, unsigned flags)
{
  return (uint16_t) ((to_f8 (KS_PTX_TYPE_E5M2, KS_PTX_TYPE_F16, a >> 16, flags) << 8)
                     | to_f8 (KS_PTX_TYPE_E5M2, KS_PTX_TYPE_F16, a & 0xffff, flags));
}

static uint32_t
f16x2_from_f8 (KsPtxType src, uint16_t a, unsigned flags)
{
  uint32_t hi = (uint32_t) ks_cvt (KS_PTX_TYPE_F16, src, a >> 8, KS_PTX_ROUND_RN,
                                   flags & KS_MATH_RELU);
  uint32_t lo = (uint32_t) ks_cvt (KS_PTX_TYPE_F16, src, a & 0xff, KS_PTX_ROUND_RN,
                                   flags & KS_MATH_RELU);

  return (hi << 16) | lo;
}

uint32_t
ks_cvt_f16x2_e4m3x2 (uint16_t a, unsigned flags)
{
  return f16x2_from_f8 (KS_PTX_TYPE_E4M3, a, flags);
}

uint32_t
ks_cvt_f16x2_e5m2x2 (uint16_t a, unsigned flags)
{
  return f16x2_from_f8 (KS_PTX_TYPE_E5M2, a, flags);
}

int32_t
ks_cvt_s32_f32 (uint32_t a, KsPtxRound irnd, unsigned flags)
{
  return (int32_t) (uint32_t) ks_cvt (KS_PTX_TYPE_S32, KS_PTX_TYPE_F32, a, irnd, flags);
}

uint32_t
ks_cvt_u32_f32 (uint32_t a, KsPtxRound irnd, unsigned flags)
{
  return (uint32_t) ks_cvt (KS_PTX_TYPE_U32, KS_PTX_TYPE_F32, a, irnd, flags);
}

uint32_t
ks_cvt_f32_s32 (int32_t a, KsPtxRound rnd)
{
  if (rnd == KS_PTX_ROUND_RN || rnd == KS_PTX_ROUND_NONE)
    return ks_f32_to_bits ((float) a);
  return (uint32_t) ks_cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_S32, (uint32_t) a, rnd, 0);
}

uint32_t
ks_cvt_f32_u32 (uint32_t a, KsPtxRound rnd)
{
  if (rnd == KS_PTX_ROUND_RN || rnd == KS_PTX_ROUND_NONE)
    return ks_f32_to_bits ((float) a);
  return (uint32_t) ks_cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_U32, a, rnd, 0);
}

uint32_t
ks_cvt_f32_f64 (uint64_t a, KsPtxRound rnd, unsigned flags)
{
  if ((rnd == KS_PTX_ROUND_RN || rnd == KS_PTX_ROUND_NONE) && !(flags & ~KS_MATH_FTZ))
    {
      uint32_t r = ks_f32_to_bits ((float) ks_f64_from_bits (a));

      if (ks_f32_is_nan (r))
        return KS_F32_NAN;
      return (flags & KS_MATH_FTZ) ? ks_f32_flush (r) : r;
    }
  return (uint32_t) ks_cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F64, a, rnd, flags);
}

/* ---- half precision arithmetic ------------------------------------------ */

static const Fmt *
half_fmt (KsHalfKind k)
{
  return k == KS_HALF_BF16 ? &fmt_bf16 : &fmt_f16;
}

static double
half_to_double (KsHalfKind k, uint16_t a)
{
  if (k == KS_HALF_BF16)
    return (double) ks_f32_from_bits ((uint32_t) a << 16);
  return ks_f64_from_bits (ks_cvt (KS_PTX_TYPE_F64, KS_PTX_TYPE_F16, a, KS_PTX_ROUND_NONE, 0));
}

static bool
half_is_nan (KsHalfKind k, uint16_t a)
{
  return (a & 0x7fffu) > (k == KS_HALF_BF16 ? 0x7f80u : 0x7c00u);
}

static uint16_t
half_flush (KsHalfKind k, uint16_t a, unsigned flags)
{
  /* Only f16 has .ftz; bf16 arithmetic keeps subnormals. */
  return (k == KS_HALF_F16 && (flags & KS_MATH_FTZ)) ? ks_f16_flush (a) : a;
}

/* Round s + t (an exact unevaluated sum, |t| below half an ulp of s) to odd
 * in double: 53 bits is more than 2 + the 11 of f16, so the one final rounding
 * to the half format is then correct in every mode. */
static double
round_to_odd (double s, double t)
{
  uint64_t b;

  if (t == 0 || !isfinite (s))
    return s;
  b = ks_f64_to_bits (s);
  if (!(b & 1))
    b += ((t > 0) == (s > 0)) ? 1 : (uint64_t) -1;
  return ks_f64_from_bits (b);
}

static double
two_sum_odd (double a, double b)
{
  double s = a + b, bb = s - a, t = (a - (s - bb)) + (b - bb);

  return round_to_odd (s, t);
}

static uint16_t
half_finish (KsHalfKind k, double v, KsRound rnd, unsigned flags)
{
  const Fmt *f = half_fmt (k);
  uint64_t r;
  bool sign;
  uint64_t m;
  int e;
  FClass c = decode (&fmt_f64, ks_f64_to_bits (v), &sign, &m, &e);
  static const int modes[] = { R_RN, R_RZ, R_RM, R_RP };

  /* .sat: "NaN results are flushed to +0.0" */
  if (c == C_NAN)
    return ((flags & KS_MATH_SAT) && k == KS_HALF_F16) ? 0 : f->nan;
  if (c == C_INF)
    r = overflow_result (f, sign, R_RN, false);
  else if (c == C_ZERO)
    r = sign ? (uint64_t) 1 << 15 : 0;
  else
    r = round_pack (f, sign, m, e, modes[rnd & 3], false);
  if ((flags & KS_MATH_RELU) && (r & 0x8000u))
    r = 0;
  r = half_flush (k, (uint16_t) r, flags);
  if ((flags & KS_MATH_SAT) && k == KS_HALF_F16)
    r = sat_float_bits (f, r);
  return (uint16_t) r;
}

static uint16_t
half_arith (int op, KsHalfKind k, uint16_t a, uint16_t b, uint16_t c, KsRound rnd,
            unsigned flags)
{
  double x, y, z, v;

  a = half_flush (k, a, flags);
  b = half_flush (k, b, flags);
  c = half_flush (k, c, flags);
  x = half_to_double (k, a);
  y = half_to_double (k, b);
  z = half_to_double (k, c);
  switch (op)
    {
    case OP_ADD: v = two_sum_odd (x, y); break;
    case OP_SUB: v = two_sum_odd (x, -y); break;
    case OP_MUL: v = x * y; break;      /* 22-bit product: exact in a double */
    default: v = two_sum_odd (x * y, z); break;
    }
  return half_finish (k, v, rnd, flags);
}

uint16_t
ks_half_add (KsHalfKind k, uint16_t a, uint16_t b, KsRound rnd, unsigned flags)
{
  return half_arith (OP_ADD, k, a, b, 0, rnd, flags);
}

uint16_t
ks_half_sub (KsHalfKind k, uint16_t a, uint16_t b, KsRound rnd, unsigned flags)
{
  return half_arith (OP_SUB, k, a, b, 0, rnd, flags);
}

uint16_t
ks_half_mul (KsHalfKind k, uint16_t a, uint16_t b, KsRound rnd, unsigned flags)
{
  return half_arith (OP_MUL, k, a, b, 0, rnd, flags);
}

uint16_t
ks_half_fma (KsHalfKind k, uint16_t a, uint16_t b, uint16_t c, KsRound rnd, unsigned flags)
{
  return half_arith (OP_FMA, k, a, b, c, rnd, flags);
}

uint16_t
ks_half_min (KsHalfKind k, uint16_t a, uint16_t b, unsigned flags)
{
  a = half_flush (k, a, flags);
  b = half_flush (k, b, flags);
  return (uint16_t) minmax_bits (a, b, 16, k == KS_HALF_BF16 ? 0x7f80u : 0x7c00u,
                                 half_fmt (k)->nan, flags, false);
}

uint16_t
ks_half_max (KsHalfKind k, uint16_t a, uint16_t b, unsigned flags)
{
  a = half_flush (k, a, flags);
  b = half_flush (k, b, flags);
  return (uint16_t) minmax_bits (a, b, 16, k == KS_HALF_BF16 ? 0x7f80u : 0x7c00u,
                                 half_fmt (k)->nan, flags, true);
}

uint16_t
ks_half_neg (KsHalfKind k, uint16_t a, unsigned flags)
{
  return half_flush (k, a, flags) ^ 0x8000u;
}

uint16_t
ks_half_abs (KsHalfKind k, uint16_t a, unsigned flags)
{
  return half_flush (k, a, flags) & 0x7fffu;
}

/* An approximate function of a half-precision number: computed in double
 * and rounded once, which is within the ISA's bounds (ex2.approx.f16:
 * maximum relative error 2^-9.9; tanh.approx: 2^-10.987 for f16, 2^-7 for
 * bf16).  .ftz flushes subnormal inputs and results of either format. */
static uint16_t
half_unary_approx (KsHalfKind k, double (*fn) (double), uint16_t a, unsigned flags)
{
  uint16_t smallest_normal = k == KS_HALF_BF16 ? 0x0080u : 0x0400u;
  uint16_t r;

  if ((flags & KS_MATH_FTZ) && (a & 0x7fffu) < smallest_normal)
    a &= 0x8000u;
  if (half_is_nan (k, a))
    return half_fmt (k)->nan;
  r = half_finish (k, fn (half_to_double (k, a)), KS_RN, 0);
  if ((flags & KS_MATH_FTZ) && (r & 0x7fffu) < smallest_normal)
    r &= 0x8000u;
  return r;
}

uint16_t
ks_half_ex2_approx (KsHalfKind k, uint16_t a, unsigned flags)
{
  return half_unary_approx (k, exp2, a, flags);
}

uint16_t
ks_half_tanh_approx (KsHalfKind k, uint16_t a, unsigned flags)
{
  return half_unary_approx (k, tanh, a, flags);
}

uint16_t
ks_f16_ex2_approx (uint16_t a, unsigned flags)
{
  return ks_half_ex2_approx (KS_HALF_F16, a, flags);
}

double
ks_half_value (KsHalfKind k, uint16_t a, unsigned flags)
{
  if ((flags & KS_MATH_FTZ) && (a & 0x7fffu) < (k == KS_HALF_BF16 ? 0x0080u : 0x0400u))
    a &= 0x8000u;
  return half_to_double (k, a);
}

#define HALF2(expr_lo, expr_hi) (((uint32_t) (expr_hi) << 16) | (uint32_t) (expr_lo))
#define LO(x) ((uint16_t) ((x) & 0xffff))
#define HI(x) ((uint16_t) ((x) >> 16))

uint32_t
ks_half2_add (KsHalfKind k, uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return HALF2 (ks_half_add (k, LO (a), LO (b), rnd, flags),
                ks_half_add (k, HI (a), HI (b), rnd, flags));
}

uint32_t
ks_half2_sub (KsHalfKind k, uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return HALF2 (ks_half_sub (k, LO (a), LO (b), rnd, flags),
                ks_half_sub (k, HI (a), HI (b), rnd, flags));
}

uint32_t
ks_half2_mul (KsHalfKind k, uint32_t a, uint32_t b, KsRound rnd, unsigned flags)
{
  return HALF2 (ks_half_mul (k, LO (a), LO (b), rnd, flags),
                ks_half_mul (k, HI (a), HI (b), rnd, flags));
}

uint32_t
ks_half2_fma (KsHalfKind k, uint32_t a, uint32_t b, uint32_t c, KsRound rnd, unsigned flags)
{
  return HALF2 (ks_half_fma (k, LO (a), LO (b), LO (c), rnd, flags),
                ks_half_fma (k, HI (a), HI (b), HI (c), rnd, flags));
}

uint32_t
ks_half2_min (KsHalfKind k, uint32_t a, uint32_t b, unsigned flags)
{
  return HALF2 (ks_half_min (k, LO (a), LO (b), flags), ks_half_min (k, HI (a), HI (b), flags));
}

uint32_t
ks_half2_max (KsHalfKind k, uint32_t a, uint32_t b, unsigned flags)
{
  return HALF2 (ks_half_max (k, LO (a), LO (b), flags), ks_half_max (k, HI (a), HI (b), flags));
}

uint32_t
ks_half2_neg (KsHalfKind k, uint32_t a, unsigned flags)
{
  return HALF2 (ks_half_neg (k, LO (a), flags), ks_half_neg (k, HI (a), flags));
}

uint32_t
ks_half2_abs (KsHalfKind k, uint32_t a, unsigned flags)
{
  return HALF2 (ks_half_abs (k, LO (a), flags), ks_half_abs (k, HI (a), flags));
}

/* ---- integers ----------------------------------------------------------- */

static __int128
sval (uint64_t a, unsigned width)
{
  return (__int128) (int64_t) ks_sext (a, width);
}

static unsigned __int128
uval (uint64_t a, unsigned width)
{
  return (unsigned __int128) (a & ks_mask (width));
}

uint64_t
ks_mul_lo (uint64_t a, uint64_t b, unsigned width)
{
  return (a * b) & ks_mask (width);
}

uint64_t
ks_mul_hi_u (uint64_t a, uint64_t b, unsigned width)
{
  return (uint64_t) ((uval (a, width) * uval (b, width)) >> width) & ks_mask (width);
}

uint64_t
ks_mul_hi_s (uint64_t a, uint64_t b, unsigned width)
{
  /* The product of two 64-bit signed values fits in 127 bits plus sign. */
  return (uint64_t) ((sval (a, width) * sval (b, width)) >> width) & ks_mask (width);
}

uint64_t
ks_mul_wide_u (uint64_t a, uint64_t b, unsigned width)
{
  return (uint64_t) (uval (a, width) * uval (b, width)) & ks_mask (2 * width);
}

uint64_t
ks_mul_wide_s (uint64_t a, uint64_t b, unsigned width)
{
  return (uint64_t) (sval (a, width) * sval (b, width)) & ks_mask (2 * width);
}

uint64_t
ks_mad_hi_s (uint64_t a, uint64_t b, uint64_t c, unsigned width, unsigned flags)
{
  uint64_t hi = ks_mul_hi_s (a, b, width);

  if ((flags & KS_MATH_SAT) && width == 32)
    {
      int64_t v = (int64_t) ks_sext (hi, 32) + (int64_t) ks_sext (c, 32);

      v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
      return (uint64_t) v & 0xffffffffu;
    }
  return (hi + c) & ks_mask (width);
}

uint64_t
ks_mad_hi_u (uint64_t a, uint64_t b, uint64_t c, unsigned width)
{
  return (ks_mul_hi_u (a, b, width) + c) & ks_mask (width);
}

static int64_t
mul24 (uint32_t a, uint32_t b, bool is_signed)
{
  if (is_signed)
    return (int64_t) ks_sext (a, 24) * (int64_t) ks_sext (b, 24);
  return (int64_t) ((uint64_t) (a & 0xffffff) * (b & 0xffffff));
}

uint32_t
ks_mul24_lo (uint32_t a, uint32_t b, bool is_signed)
{
  return (uint32_t) mul24 (a, b, is_signed);
}

uint32_t
ks_mul24_hi (uint32_t a, uint32_t b, bool is_signed)
{
  return (uint32_t) ((uint64_t) mul24 (a, b, is_signed) >> 16);
}

uint32_t
ks_mad24_hi_sat_s (uint32_t a, uint32_t b, uint32_t c)
{
  int64_t v = (int64_t) (int32_t) ks_mul24_hi (a, b, true) + (int32_t) c;

  v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
  return (uint32_t) v;
}

uint64_t
ks_sad (uint64_t a, uint64_t b, uint64_t c, unsigned width, bool is_signed)
{
  uint64_t d;

  if (is_signed)
    {
      __int128 x = sval (a, width), y = sval (b, width);

      d = (uint64_t) (x < y ? y - x : x - y);
    }
  else
    {
      uint64_t x = a & ks_mask (width), y = b & ks_mask (width);

      d = x < y ? y - x : x - y;
    }
  return (c + d) & ks_mask (width);
}

uint64_t
ks_div_u (uint64_t a, uint64_t b, unsigned width)
{
  a &= ks_mask (width);
  b &= ks_mask (width);
  return b ? a / b : ks_mask (width);
}

uint64_t
ks_rem_u (uint64_t a, uint64_t b, unsigned width)
{
  a &= ks_mask (width);
  b &= ks_mask (width);
  return b ? a % b : a;
}

uint64_t
ks_div_s (uint64_t a, uint64_t b, unsigned width)
{
  __int128 x = sval (a, width), y = sval (b, width);

  if (y == 0)
    return ks_mask (width);
  /* In 128 bits INT_MIN / -1 is just a large positive number; the mask
   * wraps it back to INT_MIN. */
  return (uint64_t) (x / y) & ks_mask (width);
}

uint64_t
ks_rem_s (uint64_t a, uint64_t b, unsigned width)
{
  __int128 x = sval (a, width), y = sval (b, width);

  if (y == 0)
    return a & ks_mask (width);
  return (uint64_t) (x % y) & ks_mask (width);
}

uint64_t
ks_bfe (uint64_t a, uint32_t pos, uint32_t len, unsigned width, bool is_signed)
{
  unsigned msb = width - 1, n;
  uint64_t d;
  bool sbit = false;

  pos &= 0xff;
  len &= 0xff;
  if (is_signed && len)
    sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
  n = pos > msb ? 0 : (len < width - pos ? len : width - pos);
  d = n ? (a >> pos) & ks_mask (n) : 0;
  if (sbit)
    d |= ~ks_mask (n);
  return d & ks_mask (width);
}

uint64_t
ks_bfi (uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned width)
{
  unsigned msb = width - 1, n;
  uint64_t m;

  pos &= 0xff;
  len &= 0xff;
  n = pos > msb ? 0 : (len < width - pos ? len : width - pos);
  if (n == 0)
    return b & ks_mask (width);
  m = ks_mask (n) << pos;
  return ((b & ~m) | ((a << pos) & m)) & ks_mask (width);
}

uint32_t
ks_bfind (uint64_t a, unsigned width, bool is_signed, bool shiftamt)
{
  unsigned msb = width - 1;
  uint32_t d;

  a &= ks_mask (width);
  if (is_signed && ((a >> msb) & 1))
    a = ~a & ks_mask (width);
  if (a == 0)
    return 0xffffffffu;
  d = 63 - (uint32_t) __builtin_clzll (a);
  return shiftamt ? msb - d : d;
}

uint64_t
ks_brev (uint64_t a, unsigned width)
{
  uint64_t r = 0;

  for (unsigned i = 0; i < width; i++)
    r |= ((a >> i) & 1) << (width - 1 - i);
  return r;
}

uint32_t
ks_clz (uint64_t a, unsigned width)
{
  a &= ks_mask (width);
  return a ? (uint32_t) __builtin_clzll (a) - (64 - width) : width;
}

uint32_t
ks_popc (uint64_t a, unsigned width)
{
  return (uint32_t) __builtin_popcountll (a & ks_mask (width));
}

/* fns: the ISA leaves base > 31 undefined; we report "not found". */
uint32_t
ks_fns (uint32_t mask, uint32_t base, int32_t offset)
{
  int pos, inc;
  int64_t count;

  if (base > 31)
    return 0xffffffffu;
  if (offset == 0)
    return ((mask >> base) & 1) ? base : 0xffffffffu;
  inc = offset > 0 ? 1 : -1;
  count = (offset > 0 ? (int64_t) offset : -(int64_t) offset) - 1;
  for (pos = (int) base; pos >= 0 && pos < 32; pos += inc)
    if ((mask >> pos) & 1)
      {
        if (count == 0)
          return (uint32_t) pos;
        count--;
      }
  return 0xffffffffu;
}

uint32_t
ks_prmt (uint32_t a, uint32_t b, uint32_t c, KsPrmtMode mode)
{
  /* Source byte for d.b0..d.b3, per c[1:0], from the ISA's mode table. */
  static const uint8_t sel[7][4][4] = {
    [KS_PRMT_F4E] = { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
    [KS_PRMT_B4E] = { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
    [KS_PRMT_RC8] = { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
    [KS_PRMT_ECL] = { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
    [KS_PRMT_ECR] = { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
    [KS_PRMT_RC16] = { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
  };
  uint64_t src = ((uint64_t) b << 32) | a;
  uint32_t d = 0;

  for (unsigned i = 0; i < 4; i++)
    {
      uint32_t byte;

      if (mode == KS_PRMT_DEFAULT)
        {
          unsigned ctl = (c >> (4 * i)) & 0xf;

          byte = (uint32_t) (src >> (8 * (ctl & 7))) & 0xff;
          if (ctl & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        }
      else
        byte = (uint32_t) (src >> (8 * sel[mode][c & 3][i])) & 0xff;
      d |= byte << (8 * i);
    }
  return d;
}

uint32_t
ks_shf_l (uint32_t a, uint32_t b, uint32_t c, bool clamp)
{
  unsigned n = clamp ? (c > 32 ? 32 : c) : (c & 31);

  return (uint32_t) (((((uint64_t) b << 32) | a) << n) >> 32);
}

uint32_t
ks_shf_r (uint32_t a, uint32_t b, uint32_t c, bool clamp)
{
  unsigned n = clamp ? (c > 32 ? 32 : c) : (c & 31);

  return (uint32_t) ((((uint64_t) b << 32) | a) >> n);
}

static int32_t
lane (uint32_t v, unsigned i, unsigned bits, bool is_signed)
{
  uint32_t x = (v >> (i * bits)) & ((1u << bits) - 1);

  return is_signed ? (int32_t) ks_sext (x, bits) : (int32_t) x;
}

uint32_t
ks_dp4a (uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed)
{
  uint32_t d = c;

  for (unsigned i = 0; i < 4; i++)
    d += (uint32_t) (lane (a, i, 8, a_signed) * lane (b, i, 8, b_signed));
  return d;
}

uint32_t
ks_dp2a (uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool hi)
{
  uint32_t d = c;

  for (unsigned i = 0; i < 2; i++)
    d += (uint32_t) ((int64_t) lane (a, i, 16, a_signed)
                     * lane (b, (hi ? 2 : 0) + i, 8, b_signed));
  return d;
}

int32_t
ks_add_sat_s32 (int32_t a, int32_t b)
{
  int64_t v = (int64_t) a + b;

  return (int32_t) (v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

int32_t
ks_sub_sat_s32 (int32_t a, int32_t b)
{
  int64_t v = (int64_t) a - b;

  return (int32_t) (v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

uint64_t
ks_addc (uint64_t a, uint64_t b, unsigned carry_in, unsigned *carry_out, unsigned width)
{
  unsigned __int128 s = uval (a, width) + uval (b, width) + (carry_in & 1);

  if (carry_out)
    *carry_out = (unsigned) (s >> width) & 1;
  return (uint64_t) s & ks_mask (width);
}

uint64_t
ks_subc (uint64_t a, uint64_t b, unsigned borrow_in, unsigned *borrow_out, unsigned width)
{
  unsigned __int128 x = uval (a, width), y = uval (b, width) + (borrow_in & 1);

  if (borrow_out)
    *borrow_out = x < y;
  return (uint64_t) (x - y) & ks_mask (width);
}

uint64_t
ks_madc (uint64_t a, uint64_t b, uint64_t c, bool hi, bool is_signed, unsigned carry_in,
         unsigned *carry_out, unsigned width)
{
  uint64_t t;

  if (hi)
    t = is_signed ? ks_mul_hi_s (a, b, width) : ks_mul_hi_u (a, b, width);
  else
    t = ks_mul_lo (a, b, width);
  return ks_addc (t, c, carry_in, carry_out, width);
}

uint64_t
ks_abs_s (uint64_t a, unsigned width)
{
  __int128 x = sval (a, width);

  return (uint64_t) (x < 0 ? -x : x) & ks_mask (width);
}

uint64_t
ks_neg_s (uint64_t a, unsigned width)
{
  return (0 - a) & ks_mask (width);
}

uint64_t
ks_min_int (uint64_t a, uint64_t b, unsigned width, bool is_signed)
{
  if (is_signed)
    return (sval (a, width) < sval (b, width) ? a : b) & ks_mask (width);
  return (uval (a, width) < uval (b, width) ? a : b) & ks_mask (width);
}

uint64_t
ks_max_int (uint64_t a, uint64_t b, unsigned width, bool is_signed)
{
  if (is_signed)
    return (sval (a, width) > sval (b, width) ? a : b) & ks_mask (width);
  return (uval (a, width) > uval (b, width) ? a : b) & ks_mask (width);
}

uint32_t
ks_szext (uint32_t a, uint32_t b, bool clamp, bool is_signed)
{
  uint32_t b1 = b & 0x1f, mask;
  bool too_large = b >= 32 && clamp, sign_bit;

  mask = too_large ? 0 : ~0u << b1;
  if (b1 == 0 || too_large || !is_signed)
    sign_bit = false;
  else
    sign_bit = (a >> ((b1 - 1) & 0x1f)) & 1;
  return (a & ~mask) | (sign_bit ? mask : 0);
}

uint32_t
ks_bmsk (uint32_t a, uint32_t b, bool clamp)
{
  uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool overflow = sum >= 32;

  if (clamp)
    {
      if (a >= 32)
        {
          overflow = true;
          mask0 = 0;
        }
      if (b >= 32)
        overflow = true;
    }
  if (overflow)
    mask1 = 0;
  else if (b1 == 0)
    mask1 = ~0u;
  return mask0 & ~mask1;
}
