/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the PTX numeric semantics in ks-sim-math.
 *
 * Fixed cases are IEEE bit patterns worked out by hand (the working is in the
 * comments) or quoted from the PTX ISA.  Random cases compare with references
 * written here independently: __float128 arithmetic with an exact error term
 * for the f32/f64 operations, the host's own conversions under fesetround for
 * conversions, and transcriptions of the ISA pseudo-code for the bit
 * manipulation instructions.
 */

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <quadmath.h>

#include <glib.h>

#include "ks-sim-math.h"

#define N_RANDOM 100000

static const KsRound all_modes[] = { KS_RN, KS_RZ, KS_RM, KS_RP };
static const int fe_of[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

/* ---- random inputs -------------------------------------------------------- */

static uint32_t
rand_f32 (GRand *r)
{
  static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff,
    0xff7fffff, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x4b000000, 0x34000000,
  };
  guint32 k = g_rand_int_range (r, 0, 10);

  if (k == 0)
    return specials[g_rand_int_range (r, 0, G_N_ELEMENTS (specials))];
  if (k < 3)
    /* Near 1.0, so that sums cancel and products land near ties. */
    return (g_rand_int (r) & 0x80ffffffu) | (guint32) g_rand_int_range (r, 0x3e, 0x41) << 23;
  if (k < 4)
    /* Tiny values: subnormal inputs and results. */
    return (g_rand_int (r) & 0x80ffffffu) | (guint32) g_rand_int_range (r, 0, 0x0c) << 23;
  return g_rand_int (r);
}

static uint64_t
rand_f64 (GRand *r)
{
  static const uint64_t specials[] = {
    0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x0000000000000001ull,
    0x000fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
    0x3ff0000000000000ull, 0xbff0000000000001ull,
  };
  guint32 k = g_rand_int_range (r, 0, 10);
  uint64_t v = ((uint64_t) g_rand_int (r) << 32) | g_rand_int (r);

  if (k == 0)
    return specials[g_rand_int_range (r, 0, G_N_ELEMENTS (specials))];
  if (k < 3)
    return (v & 0x800fffffffffffffull) | (uint64_t) g_rand_int_range (r, 0x3fc, 0x402) << 52;
  if (k < 4)
    return (v & 0x800fffffffffffffull) | (uint64_t) g_rand_int_range (r, 0, 0x40) << 52;
  return v;
}

/* ---- the __float128 reference ----------------------------------------------
 * The exact result is s + err with |err| tiny against s; only the sign of err
 * matters.  We take the host's round-to-nearest conversion of s (libgcc soft
 * float, not our code), bracket the exact value with nextafter, and pick. */

static double
ref_round (__float128 s, int err_sign, KsRound m, bool is_f64)
{
  double f, lo, hi;
  __float128 fq, mid;
  int cmp;

  if (isnanq (s))
    return NAN;
  f = is_f64 ? (double) s : (double) (float) s;
  if (isinfq (s))
    return f;
  fq = is_f64 ? (__float128) f : (__float128) (float) f;
  cmp = fq > s ? 1 : fq < s ? -1 : -err_sign;
  if (cmp == 0)
    return f;
  if (cmp > 0)
    {
      hi = f;
      lo = is_f64 ? nextafter (f, -INFINITY) : nextafterf ((float) f, -INFINITY);
    }
  else
    {
      lo = f;
      hi = is_f64 ? nextafter (f, INFINITY) : nextafterf ((float) f, INFINITY);
    }
  switch (m)
    {
    case KS_RZ:
      if (isinf (hi) && isinf (lo))
        return f;
      return (s > 0 || (s == 0 && err_sign > 0)) ? lo : hi;
    case KS_RM: return lo;
    case KS_RP: return hi;
    default:
      /* s may sit exactly on a midpoint that err pushes off it. */
      if (isfinite (lo) && isfinite (hi))
        {
          mid = ((__float128) lo + (__float128) hi) / 2;
          if (mid == s && err_sign != 0)
            return err_sign > 0 ? hi : lo;
        }
      return f;
    }
}

static void
two_sum (__float128 a, __float128 b, __float128 *s, int *err_sign)
{
  __float128 ss = a + b, bb = ss - a, e = (a - (ss - bb)) + (b - bb);

  *s = ss;
  *err_sign = (isinfq (ss) || isnanq (ss)) ? 0 : (e > 0) - (e < 0);
}

typedef enum { T_ADD, T_SUB, T_MUL, T_DIV, T_FMA, T_SQRT } TOp;

static double
ref_op (TOp op, __float128 a, __float128 b, __float128 c, KsRound m, bool is_f64)
{
  __float128 s, rem;
  int es = 0;

  switch (op)
    {
    case T_ADD: two_sum (a, b, &s, &es); break;
    case T_SUB: two_sum (a, -b, &s, &es); break;
    case T_MUL: s = a * b; break;                     /* at most 106 bits: exact */
    case T_FMA: two_sum (a * b, c, &s, &es); break;
    case T_DIV:
      s = a / b;
      if (finiteq (s) && s != 0 && finiteq (a) && finiteq (b))
        {
          rem = fmaq (-s, b, a);                      /* exact remainder */
          es = ((rem > 0) - (rem < 0)) * (b > 0 ? 1 : -1);
        }
      break;
    default:
      s = sqrtq (a);
      if (finiteq (s) && s > 0)
        {
          rem = fmaq (-s, s, a);
          es = (rem > 0) - (rem < 0);
        }
      break;
    }
  if (s == 0 && es == 0 && op != T_MUL && op != T_DIV && op != T_SQRT)
    {
      /* An exact zero sum: IEEE gives +0 except -0 in round down. */
      double z = (op == T_FMA) ? (double) (a * b) : (double) a;
      double w = (op == T_SUB) ? -(double) b : (op == T_FMA) ? (double) c : (double) b;

      if (signbit (z) && signbit (w))
        return -0.0;
      if (signbit (z) == signbit (w))
        return 0.0;
      return m == KS_RM ? -0.0 : 0.0;
    }
  if (s == 0 && es == 0)
    return (double) s;
  return ref_round (s, es, m, is_f64);
}

static void
check_f32_op (TOp op, GRand *r)
{
  for (guint i = 0; i < N_RANDOM; i++)
    {
      uint32_t a = rand_f32 (r), b = rand_f32 (r), c = rand_f32 (r);
      KsRound m = all_modes[i & 3];
      uint32_t got = 0, want;
      double w;

      if (op == T_SQRT)
        a &= 0x7fffffffu | (g_rand_int (r) & 0x80000000u & (i << 28));
      switch (op)
        {
        case T_ADD: got = ks_f32_add (a, b, m, 0); break;
        case T_SUB: got = ks_f32_sub (a, b, m, 0); break;
        case T_MUL: got = ks_f32_mul (a, b, m, 0); break;
        case T_DIV: got = ks_f32_div (a, b, m, 0); break;
        case T_FMA: got = ks_f32_fma (a, b, c, m, 0); break;
        case T_SQRT: got = ks_f32_sqrt (a, m, 0); break;
        }
      w = ref_op (op, ks_f32_from_bits (a), ks_f32_from_bits (b), ks_f32_from_bits (c), m, false);
      want = isnan (w) ? KS_F32_NAN : ks_f32_to_bits ((float) w);
      if (got != want)
        g_error ("op %d mode %d: %08x %08x %08x -> %08x, want %08x", op, m, a, b, c, got, want);
    }
}

static void
check_f64_op (TOp op, GRand *r)
{
  for (guint i = 0; i < N_RANDOM; i++)
    {
      uint64_t a = rand_f64 (r), b = rand_f64 (r), c = rand_f64 (r);
      KsRound m = all_modes[i & 3];
      uint64_t got = 0, want;
      double w;

      switch (op)
        {
        case T_ADD: got = ks_f64_add (a, b, m); break;
        case T_SUB: got = ks_f64_sub (a, b, m); break;
        case T_MUL: got = ks_f64_mul (a, b, m); break;
        case T_DIV: got = ks_f64_div (a, b, m); break;
        case T_FMA: got = ks_f64_fma (a, b, c, m); break;
        case T_SQRT: got = ks_f64_sqrt (a, m); break;
        }
      w = ref_op (op, ks_f64_from_bits (a), ks_f64_from_bits (b), ks_f64_from_bits (c), m, true);
      if (isnan (w))
        {
          if (!ks_f64_is_nan (got))
            g_error ("f64 op %d: %016" G_GINT64_MODIFIER "x want NaN", op, got);
          continue;
        }
      want = ks_f64_to_bits (w);
      if (got != want)
        g_error ("f64 op %d mode %d: %016" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x %016"
                 G_GINT64_MODIFIER "x -> %016" G_GINT64_MODIFIER "x, want %016"
                 G_GINT64_MODIFIER "x", op, m, a, b, c, got, want);
    }
}

#define RANDOM_OP_TEST(name, fn, op) \
  static void name (void) \
  { \
    g_autoptr (GRand) r = g_rand_new_with_seed (0x5eed + op); \
    fn (op, r); \
  }

RANDOM_OP_TEST (test_f32_add_random, check_f32_op, T_ADD)
RANDOM_OP_TEST (test_f32_sub_random, check_f32_op, T_SUB)
RANDOM_OP_TEST (test_f32_mul_random, check_f32_op, T_MUL)
RANDOM_OP_TEST (test_f32_div_random, check_f32_op, T_DIV)
RANDOM_OP_TEST (test_f32_fma_random, check_f32_op, T_FMA)
RANDOM_OP_TEST (test_f32_sqrt_random, check_f32_op, T_SQRT)
RANDOM_OP_TEST (test_f64_add_random, check_f64_op, T_ADD)
RANDOM_OP_TEST (test_f64_mul_random, check_f64_op, T_MUL)
RANDOM_OP_TEST (test_f64_div_random, check_f64_op, T_DIV)
RANDOM_OP_TEST (test_f64_fma_random, check_f64_op, T_FMA)
RANDOM_OP_TEST (test_f64_sqrt_random, check_f64_op, T_SQRT)

/* ---- fixed f32 cases -------------------------------------------------------- */

static void
test_f32_add_modes (void)
{
  /* 1 + 2^-24 is exactly halfway between 1.0 (0x3f800000, even) and
   * 1 + 2^-23 (0x3f800001): rn and rz and rm give 1.0, rp the next one up. */
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x33800000, KS_RN, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x33800000, KS_RZ, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x33800000, KS_RM, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x33800000, KS_RP, 0), ==, 0x3f800001);
  /* Negated: rm now moves away from zero. */
  g_assert_cmphex (ks_f32_add (0xbf800000, 0xb3800000, KS_RM, 0), ==, 0xbf800001);
  g_assert_cmphex (ks_f32_add (0xbf800000, 0xb3800000, KS_RP, 0), ==, 0xbf800000);
  /* 1 + 1.5 * 2^-24 is three quarters of an ulp above 1: rn rounds up. */
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x33c00000, KS_RN, 0), ==, 0x3f800001);
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x33c00000, KS_RZ, 0), ==, 0x3f800000);
  /* x + (-x) is +0 except in rm. */
  g_assert_cmphex (ks_f32_add (0x3f800000, 0xbf800000, KS_RN, 0), ==, 0x00000000);
  g_assert_cmphex (ks_f32_add (0x3f800000, 0xbf800000, KS_RM, 0), ==, 0x80000000);
  /* FLT_MAX + FLT_MAX overflows to inf, except rz which stays at FLT_MAX. */
  g_assert_cmphex (ks_f32_add (0x7f7fffff, 0x7f7fffff, KS_RN, 0), ==, 0x7f800000);
  g_assert_cmphex (ks_f32_add (0x7f7fffff, 0x7f7fffff, KS_RZ, 0), ==, 0x7f7fffff);
  /* inf - inf and NaN operands give the canonical NaN. */
  g_assert_cmphex (ks_f32_add (0x7f800000, 0xff800000, KS_RN, 0), ==, KS_F32_NAN);
  g_assert_cmphex (ks_f32_mul (0x7fc12345, 0x3f800000, KS_RZ, 0), ==, KS_F32_NAN);
}

static void
test_f32_div_sqrt_modes (void)
{
  /* 1/3 = 1.0101...b * 2^-2; the bits after the 24th are 1010..., more than
   * half: rn and rp give ...ab, rz and rm ...aa. */
  g_assert_cmphex (ks_f32_div (0x3f800000, 0x40400000, KS_RN, 0), ==, 0x3eaaaaab);
  g_assert_cmphex (ks_f32_div (0x3f800000, 0x40400000, KS_RZ, 0), ==, 0x3eaaaaaa);
  g_assert_cmphex (ks_f32_div (0x3f800000, 0x40400000, KS_RM, 0), ==, 0x3eaaaaaa);
  g_assert_cmphex (ks_f32_div (0x3f800000, 0x40400000, KS_RP, 0), ==, 0x3eaaaaab);
  g_assert_cmphex (ks_f32_rcp (0x40400000, KS_RZ, 0), ==, 0x3eaaaaaa);
  /* sqrt 2 = 1.41421356...; 0x3fb504f3 = 1.41421353 is below and nearer than
   * 0x3fb504f4 = 1.41421366. */
  g_assert_cmphex (ks_f32_sqrt (0x40000000, KS_RN, 0), ==, 0x3fb504f3);
  g_assert_cmphex (ks_f32_sqrt (0x40000000, KS_RZ, 0), ==, 0x3fb504f3);
  g_assert_cmphex (ks_f32_sqrt (0x40000000, KS_RP, 0), ==, 0x3fb504f4);
  g_assert_cmphex (ks_f32_sqrt (0x80000000, KS_RN, 0), ==, 0x80000000);
  g_assert_cmphex (ks_f32_sqrt (0xbf800000, KS_RN, 0), ==, KS_F32_NAN);
}

static void
test_f32_ftz_sat (void)
{
  /* Smallest subnormal times 1: kept by default, flushed with .ftz, sign
   * kept. */
  g_assert_cmphex (ks_f32_mul (0x80000001, 0x3f800000, KS_RN, 0), ==, 0x80000001);
  g_assert_cmphex (ks_f32_mul (0x80000001, 0x3f800000, KS_RN, KS_MATH_FTZ), ==, 0x80000000);
  /* 2^-126 * 0.5 is subnormal: flushed as a result. */
  g_assert_cmphex (ks_f32_mul (0x00800000, 0x3f000000, KS_RN, KS_MATH_FTZ), ==, 0);
  /* Subnormal input flushed before the add: 1 + tiny is exactly 1. */
  g_assert_cmphex (ks_f32_add (0x007fffff, 0x00000001, KS_RN, KS_MATH_FTZ), ==, 0);
  /* .sat: 2 -> 1, -3 -> +0, NaN -> +0, 0.5 stays. */
  g_assert_cmphex (ks_f32_add (0x3f800000, 0x3f800000, KS_RN, KS_MATH_SAT), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_add (0xc0400000, 0, KS_RN, KS_MATH_SAT), ==, 0);
  g_assert_cmphex (ks_f32_mul (0x7f800000, 0, KS_RN, KS_MATH_SAT), ==, 0);
  g_assert_cmphex (ks_f32_fma (0x3f000000, 0x3f800000, 0, KS_RN, KS_MATH_SAT), ==, 0x3f000000);
}

static void
test_f32_minmax (void)
{
  g_assert_cmphex (ks_f32_min (0x80000000, 0x00000000, 0), ==, 0x80000000);
  g_assert_cmphex (ks_f32_min (0x00000000, 0x80000000, 0), ==, 0x80000000);
  g_assert_cmphex (ks_f32_max (0x80000000, 0x00000000, 0), ==, 0x00000000);
  g_assert_cmphex (ks_f32_min (0x7fc00000, 0x3f800000, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_max (0x3f800000, 0xffc00000, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_min (0x7fc00000, 0xffc00001, 0), ==, KS_F32_NAN);
  g_assert_cmphex (ks_f32_min (0x7fc00000, 0x3f800000, KS_MATH_NAN), ==, KS_F32_NAN);
  /* min.xorsign.abs (-2, 3): |min| = 2, sign 1 ^ 0 -> -2.0. */
  g_assert_cmphex (ks_f32_min (0xc0000000, 0x40400000, KS_MATH_XORSIGN_ABS), ==, 0xc0000000);
  /* max.xorsign.abs (-2, -3): 3 with sign 1 ^ 1 -> +3.0. */
  g_assert_cmphex (ks_f32_max (0xc0000000, 0xc0400000, KS_MATH_XORSIGN_ABS), ==, 0x40400000);
  /* A NaN result ignores .xorsign.abs. */
  g_assert_cmphex (ks_f32_max (0xffc00000, 0xffc00000, KS_MATH_XORSIGN_ABS), ==, KS_F32_NAN);
  /* .ftz: a subnormal compares as zero. */
  g_assert_cmphex (ks_f32_min (0x00000005, 0x00000000, KS_MATH_FTZ), ==, 0);
  g_assert_cmphex (ks_f64_min (0x8000000000000000ull, 0), ==, 0x8000000000000000ull);
  g_assert_cmphex (ks_f64_max (0x7ff8000000000000ull, 0x3ff0000000000000ull), ==,
                   0x3ff0000000000000ull);
}

static void
test_f32_bits (void)
{
  g_assert_cmphex (ks_f32_abs (0xffc00001, 0), ==, 0x7fc00001);
  g_assert_cmphex (ks_f32_neg (0x7fc00001, 0), ==, 0xffc00001);
  g_assert_cmphex (ks_f32_neg (0x00000001, KS_MATH_FTZ), ==, 0x80000000);
  /* copysign d, a, b: sign of a, magnitude of b. */
  g_assert_cmphex (ks_f32_copysign (0x80000000, 0x3f800000), ==, 0xbf800000);
  g_assert_cmphex (ks_f32_copysign (0x00000000, 0xc0000000), ==, 0x40000000);
  g_assert_true (ks_f32_testp (0x00000000, KS_TESTP_NORMAL));
  g_assert_false (ks_f32_testp (0x00000001, KS_TESTP_NORMAL));
  g_assert_true (ks_f32_testp (0x80000001, KS_TESTP_SUBNORMAL));
  g_assert_false (ks_f32_testp (0x7f800000, KS_TESTP_FINITE));
  g_assert_true (ks_f32_testp (0xff800000, KS_TESTP_INFINITE));
  g_assert_true (ks_f32_testp (0x7f800001, KS_TESTP_NOTANUMBER));
  g_assert_false (ks_f32_testp (0x7f800001, KS_TESTP_NUMBER));
  g_assert_false (ks_f32_testp (0x7f800000, KS_TESTP_NORMAL));
  g_assert_true (ks_f64_testp (0x000fffffffffffffull, KS_TESTP_SUBNORMAL));
}

static void
test_f32_approx (void)
{
  /* Corner cases from the ISA tables. */
  g_assert_cmphex (ks_f32_rcp_approx (0x80000000, 0), ==, 0xff800000);
  g_assert_cmphex (ks_f32_rcp_approx (0xff800000, 0), ==, 0x80000000);
  g_assert_cmphex (ks_f32_rsqrt_approx (0x80000000, 0), ==, 0xff800000);
  g_assert_cmphex (ks_f32_rsqrt_approx (0x7f800000, 0), ==, 0);
  g_assert_cmphex (ks_f32_rsqrt_approx (0xbf800000, 0), ==, KS_F32_NAN);
  g_assert_cmphex (ks_f32_sin_approx (0x80000000, 0), ==, 0x80000000);
  g_assert_cmphex (ks_f32_sin_approx (0x7f800000, 0), ==, KS_F32_NAN);
  g_assert_cmphex (ks_f32_cos_approx (0x80000000, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_lg2_approx (0x80000000, 0), ==, 0xff800000);
  g_assert_cmphex (ks_f32_lg2_approx (0xbf800000, 0), ==, KS_F32_NAN);
  g_assert_cmphex (ks_f32_ex2_approx (0xff800000, 0), ==, 0);
  g_assert_cmphex (ks_f32_ex2_approx (0x80000000, 0), ==, 0x3f800000);
  g_assert_cmphex (ks_f32_ex2_approx (0x41200000, 0), ==, 0x44800000);     /* 2^10 */
  g_assert_cmphex (ks_f32_tanh_approx (0xff800000), ==, 0xbf800000);
  g_assert_cmphex (ks_f32_tanh_approx (0x00000001), ==, 0x00000001);
  /* div.approx: for 2^126 < |b| < 2^128 the quotient is 0, NaN for inf. */
  g_assert_cmphex (ks_f32_div_approx (0x3f800000, 0x7f000000, 0), ==, 0);
  g_assert_cmphex (ks_f32_div_approx (0x7f800000, 0x7f000000, 0), ==, KS_F32_NAN);
  g_assert_cmphex (ks_f32_div_full (0x3f800000, 0x7f000000, 0), ==, 0x00400000); /* 2^-127 */
  /* rcp.approx.ftz.f64 of 2.0 uses the high word only: 0.5. */
  g_assert_cmphex (ks_f64_rcp_approx_ftz (0x4000000012345678ull), ==, 0x3fe0000000000000ull);
  g_assert_cmphex (ks_f64_rcp_approx_ftz (0x7ff8000000000001ull), ==, 0x7fffffff00000000ull);
  g_assert_cmphex (ks_f64_rcp_approx_ftz (0x8000000000000001ull), ==, 0xfff0000000000000ull);

  /* Every ulp error bound, on a sweep of inputs. */
  for (uint32_t i = 0; i < 20000; i++)
    {
      float x = -10.0f + i * (20.0f / 20000), ref;
      float got = ks_f32_from_bits (ks_f32_sin_approx (ks_f32_to_bits (x), 0));

      g_assert_cmpfloat (fabs (got - sin ((double) x)), <=, exp2 (-20.5));
      got = ks_f32_from_bits (ks_f32_ex2_approx (ks_f32_to_bits (x), 0));
      ref = (float) exp2 ((double) x);
      g_assert_cmpfloat (fabsf (got - ref), <=, 2 * (nextafterf (ref, INFINITY) - ref));
    }
}

/* ---- conversions -------------------------------------------------------- */

static uint64_t
cvt (KsPtxType d, KsPtxType s, uint64_t v, KsPtxRound r, unsigned flags)
{
  return ks_cvt (d, s, v, r, flags);
}

static void
test_cvt_f32_to_f16 (void)
{
  /* 0.1f = 0x3dcccccd; in f16 0x2e66 = 0.0999755859375, the nearest. */
  g_assert_cmphex (ks_cvt_f16_f32 (0x3dcccccd, KS_PTX_ROUND_RN, 0), ==, 0x2e66);
  /* 65520 is halfway between 65504 (0x7bff) and 65536, which is past the
   * range: ties to even goes up, to inf.  rz stays at 65504. */
  g_assert_cmphex (ks_cvt_f16_f32 (0x477ff000, KS_PTX_ROUND_RN, 0), ==, 0x7c00);
  g_assert_cmphex (ks_cvt_f16_f32 (0x477ff000, KS_PTX_ROUND_RZ, 0), ==, 0x7bff);
  g_assert_cmphex (ks_cvt_f16_f32 (0x477ff000, KS_PTX_ROUND_RN, KS_MATH_SATFINITE), ==, 0x7bff);
  g_assert_cmphex (ks_cvt_f16_f32 (0xff800000, KS_PTX_ROUND_RN, KS_MATH_SATFINITE), ==, 0xfbff);
  /* 2^-24 = 5.9604645e-8 is the smallest f16 subnormal. */
  g_assert_cmphex (ks_cvt_f16_f32 (0x33800000, KS_PTX_ROUND_RN, 0), ==, 0x0001);
  /* 2^-25 is halfway between 0 and 2^-24: even is 0; rp gives 0x0001. */
  g_assert_cmphex (ks_cvt_f16_f32 (0x33000000, KS_PTX_ROUND_RN, 0), ==, 0x0000);
  g_assert_cmphex (ks_cvt_f16_f32 (0x33000000, KS_PTX_ROUND_RP, 0), ==, 0x0001);
  g_assert_cmphex (ks_cvt_f16_f32 (0xb3000000, KS_PTX_ROUND_RM, 0), ==, 0x8001);
  g_assert_cmphex (ks_cvt_f16_f32 (0x7fc12345, KS_PTX_ROUND_RN, 0), ==, 0x7fff);
  /* .relu: negative -> 0, NaN stays the canonical NaN. */
  g_assert_cmphex (ks_cvt_f16_f32 (0xbf800000, KS_PTX_ROUND_RN, KS_MATH_RELU), ==, 0);
  g_assert_cmphex (ks_cvt_f16_f32 (0xffc00000, KS_PTX_ROUND_RN, KS_MATH_RELU), ==, 0x7fff);
  /* f16 -> f32 is exact, subnormals included: 0x0001 = 2^-24. */
  g_assert_cmphex (ks_cvt_f32_f16 (0x0001, 0), ==, 0x33800000);
  g_assert_cmphex (ks_cvt_f32_f16 (0xfbff, 0), ==, 0xc77fe000);
  g_assert_cmphex (ks_cvt_f16x2_f32 (0x3f800000, 0xc0000000, KS_PTX_ROUND_RN, 0), ==,
                   0x3c00c000);
}

static void
test_cvt_f32_to_f16_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (16);

  for (guint i = 0; i < N_RANDOM; i++)
    {
      uint32_t a = rand_f32 (r);
      float x = ks_f32_from_bits (a);
      _Float16 h = (_Float16) x, lo, hi;
      uint16_t hb, want;
      KsPtxRound m = (KsPtxRound) (KS_PTX_ROUND_RN + (i & 3));

      memcpy (&hb, &h, 2);
      if (isnan (x))
        want = 0x7fff;
      else if (m == KS_PTX_ROUND_RN || (float) h == x)
        want = hb;
      else
        {
          /* Bracket x between adjacent f16 values by stepping the encoding. */
          uint16_t nb = (float) h > x ? (uint16_t) (hb + ((hb & 0x8000) ? 1 : -1))
                                      : (uint16_t) (hb + ((hb & 0x8000) ? -1 : 1));
          _Float16 n;

          if ((hb & 0x7fff) == 0 && (float) h > x)
            nb = 0x8001;
          else if ((hb & 0x7fff) == 0)
            nb = 0x0001;
          memcpy (&n, &nb, 2);
          lo = (float) h < x ? h : n;
          hi = (float) h < x ? n : h;
          if (isinf ((float) h) && isinf ((float) n))
            lo = hi = h;
          {
            _Float16 pick = m == KS_PTX_ROUND_RM ? lo : m == KS_PTX_ROUND_RP ? hi
                            : (x > 0 ? lo : hi);
            memcpy (&want, &pick, 2);
          }
        }
      g_assert_cmphex (ks_cvt_f16_f32 (a, m, 0), ==, want);
    }
}

static void
test_cvt_f32_to_bf16 (void)
{
  /* 1.00390625 = 0x3f808000: exactly between 0x3f80 and 0x3f81, even 0x3f80.
   * 1.01171875 = 0x3f818000: between 0x3f81 and 0x3f82, even 0x3f82. */
  g_assert_cmphex (ks_cvt_bf16_f32 (0x3f808000, KS_PTX_ROUND_RN, 0), ==, 0x3f80);
  g_assert_cmphex (ks_cvt_bf16_f32 (0x3f818000, KS_PTX_ROUND_RN, 0), ==, 0x3f82);
  g_assert_cmphex (ks_cvt_bf16_f32 (0x3f818000, KS_PTX_ROUND_RZ, 0), ==, 0x3f81);
  g_assert_cmphex (ks_cvt_bf16_f32 (0x7f7fffff, KS_PTX_ROUND_RN, 0), ==, 0x7f80);
  g_assert_cmphex (ks_cvt_bf16_f32 (0x7f7fffff, KS_PTX_ROUND_RN, KS_MATH_SATFINITE), ==, 0x7f7f);
  g_assert_cmphex (ks_cvt_bf16_f32 (0xffc00000, KS_PTX_ROUND_RN, 0), ==, 0x7fff);
  g_assert_cmphex (ks_cvt_f32_bf16 (0x8001), ==, 0x80010000);

  {
    g_autoptr (GRand) r = g_rand_new_with_seed (17);

    /* The well-known integer form of bf16 rounding (add 0x7fff plus the lsb
     * of the kept part, truncate) as the reference. */
    for (guint i = 0; i < N_RANDOM; i++)
      {
        uint32_t a = rand_f32 (r);
        uint16_t want = ks_f32_is_nan (a) ? 0x7fff
                        : (uint16_t) ((a + 0x7fffu + ((a >> 16) & 1)) >> 16);

        g_assert_cmphex (ks_cvt_bf16_f32 (a, KS_PTX_ROUND_RN, 0), ==, want);
        g_assert_cmphex (ks_cvt_bf16_f32 (a, KS_PTX_ROUND_RZ, 0), ==,
                         ks_f32_is_nan (a) ? 0x7fff : a >> 16);
      }
  }
}

static void
test_cvt_f32_to_int (void)
{
  g_assert_cmphex (ks_cvt_s32_f32 (0x7fc00000, KS_PTX_ROUND_RZI, 0), ==, 0);
  g_assert_cmphex ((uint32_t) ks_cvt_s32_f32 (0x4f32d05e, KS_PTX_ROUND_RZI, 0), ==, 0x7fffffff);
  g_assert_cmphex ((uint32_t) ks_cvt_s32_f32 (0xcf32d05e, KS_PTX_ROUND_RZI, 0), ==, 0x80000000);
  g_assert_cmphex (ks_cvt_u32_f32 (0xbfc00000, KS_PTX_ROUND_RZI, 0), ==, 0);     /* -1.5 */
  g_assert_cmphex (ks_cvt_u32_f32 (0x7f800000, KS_PTX_ROUND_RZI, 0), ==, 0xffffffff);
  /* 2.5 -> 2 (even), 3.5 -> 4, -2.5 rmi -> -3, rpi -> -2. */
  g_assert_cmpint (ks_cvt_s32_f32 (0x40200000, KS_PTX_ROUND_RNI, 0), ==, 2);
  g_assert_cmpint (ks_cvt_s32_f32 (0x40600000, KS_PTX_ROUND_RNI, 0), ==, 4);
  g_assert_cmpint (ks_cvt_s32_f32 (0xc0200000, KS_PTX_ROUND_RMI, 0), ==, -3);
  g_assert_cmpint (ks_cvt_s32_f32 (0xc0200000, KS_PTX_ROUND_RPI, 0), ==, -2);
  /* -subnormal rounds down to -1, unless .ftz made it -0 first. */
  g_assert_cmpint (ks_cvt_s32_f32 (0x80000001, KS_PTX_ROUND_RMI, 0), ==, -1);
  g_assert_cmpint (ks_cvt_s32_f32 (0x80000001, KS_PTX_ROUND_RMI, KS_MATH_FTZ), ==, 0);
  /* NaN: "Zero if source is not .f64 and destination is not .s64, .u64.
   * Otherwise 1 << (BitWidth(dst) - 1)". */
  g_assert_cmphex (cvt (KS_PTX_TYPE_S32, KS_PTX_TYPE_F64, 0x7ff8000000000000ull,
                        KS_PTX_ROUND_RZI, 0), ==, 0x80000000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_U16, KS_PTX_TYPE_F64, 0x7ff8000000000000ull,
                        KS_PTX_ROUND_RZI, 0), ==, 0x8000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_S64, KS_PTX_TYPE_F32, 0x7fc00000, KS_PTX_ROUND_RZI, 0), ==,
                   0x8000000000000000ull);
  g_assert_cmphex (cvt (KS_PTX_TYPE_U8, KS_PTX_TYPE_F16, 0x7e00, KS_PTX_ROUND_RZI, 0), ==, 0);
  /* Clamping to small and 64-bit destinations. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_S8, KS_PTX_TYPE_F32, 0x43480000, KS_PTX_ROUND_RZI, 0), ==,
                   0x7f);                                               /* 200 */
  g_assert_cmphex (cvt (KS_PTX_TYPE_S8, KS_PTX_TYPE_F32, 0xc3480000, KS_PTX_ROUND_RZI, 0), ==,
                   0x80);
  g_assert_cmphex (cvt (KS_PTX_TYPE_U64, KS_PTX_TYPE_F32, 0x5f800000, KS_PTX_ROUND_RZI, 0), ==,
                   G_MAXUINT64);                                        /* 2^64 */
  g_assert_cmphex (cvt (KS_PTX_TYPE_S64, KS_PTX_TYPE_F64, 0xc3e0000000000000ull,
                        KS_PTX_ROUND_RZI, 0), ==, 0x8000000000000000ull); /* -2^63 */
  g_assert_cmphex (cvt (KS_PTX_TYPE_U64, KS_PTX_TYPE_F64, 0x43efffffffffffffull,
                        KS_PTX_ROUND_RZI, 0), ==, 0xfffffffffffff800ull);

  {
    g_autoptr (GRand) r = g_rand_new_with_seed (32);
    static const KsPtxRound irnd[] = { KS_PTX_ROUND_RNI, KS_PTX_ROUND_RZI, KS_PTX_ROUND_RMI,
                                       KS_PTX_ROUND_RPI };

    /* Reference: the host's nearbyint under the matching rounding mode. */
    for (guint i = 0; i < N_RANDOM; i++)
      {
        uint32_t a = rand_f32 (r);
        float x = ks_f32_from_bits (a);
        double v;
        int32_t want;
        int old = fegetround ();

        fesetround (fe_of[i & 3]);
        v = nearbyint ((double) x);
        fesetround (old);
        want = isnan (x) ? 0 : v >= 2147483647.0 ? G_MAXINT32 : v <= -2147483648.0 ? G_MININT32
               : (int32_t) v;
        g_assert_cmpint (ks_cvt_s32_f32 (a, irnd[i & 3], 0), ==, want);
      }
  }
}

static void
test_cvt_to_float_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (33);

  /* Reference: the host's conversion instructions under fesetround. */
  for (guint i = 0; i < N_RANDOM; i++)
    {
      KsPtxRound m = (KsPtxRound) (KS_PTX_ROUND_RN + (i & 3));
      uint64_t d = rand_f64 (r), v = ((uint64_t) g_rand_int (r) << 32) | g_rand_int (r);
      volatile double vd = ks_f64_from_bits (d);
      volatile int64_t vs = (int64_t) v >> g_rand_int_range (r, 0, 63);
      volatile uint64_t vu = v >> g_rand_int_range (r, 0, 63);
      volatile float f1, f2, f3;
      volatile double d2;
      int old = fegetround ();
      uint32_t want1;

      fesetround (fe_of[i & 3]);
      f1 = (float) vd;
      f2 = (float) vs;
      f3 = (float) vu;
      d2 = (double) vs;
      fesetround (old);
      want1 = isnan (f1) ? KS_F32_NAN : ks_f32_to_bits (f1);
      g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F64, d, m, 0), ==, want1);
      g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_S64, (uint64_t) vs, m, 0), ==,
                       ks_f32_to_bits (f2));
      g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_U64, vu, m, 0), ==, ks_f32_to_bits (f3));
      g_assert_cmphex (cvt (KS_PTX_TYPE_F64, KS_PTX_TYPE_S64, (uint64_t) vs, m, 0), ==,
                       ks_f64_to_bits (d2));
      if (m == KS_PTX_ROUND_RN && !isnan (f1))
        g_assert_cmphex (ks_cvt_f32_f64 (d, KS_PTX_ROUND_RN, 0), ==, want1);
    }
}

static void
test_cvt_float_misc (void)
{
  /* cvt.rni.f32.f32: 2.5 -> 2.0, -0.5 -> -0.0; rmi -0.5 -> -1.0. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, 0x40200000, KS_PTX_ROUND_RNI, 0), ==,
                   0x40000000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, 0xbf000000, KS_PTX_ROUND_RNI, 0), ==,
                   0x80000000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, 0xbf000000, KS_PTX_ROUND_RMI, 0), ==,
                   0xbf800000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_F64, KS_PTX_TYPE_F64, 0x4330000000000001ull,
                        KS_PTX_ROUND_RZI, 0), ==, 0x4330000000000001ull);     /* 2^52+1 */
  /* .sat on a float destination. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F64, 0x4000000000000000ull,
                        KS_PTX_ROUND_RN, KS_MATH_SAT), ==, 0x3f800000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F64, 0x7ff8000000000000ull,
                        KS_PTX_ROUND_RN, KS_MATH_SAT), ==, 0);
  /* f32 NaN to f64 keeps the payload, quieted. */
  g_assert_cmphex (ks_cvt_f64_f32 (0x7f800001, 0), ==, 0x7ff8000020000000ull);
  /* cvt.ftz.f32.f64 flushes a subnormal f32 result. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_F32, KS_PTX_TYPE_F64, 0x3800000000000000ull,
                        KS_PTX_ROUND_RN, KS_MATH_FTZ), ==, 0);
  /* u32 0xffffffff to f32: rn gives 2^32, rz 0x4f7fffff. */
  g_assert_cmphex (ks_cvt_f32_u32 (0xffffffff, KS_PTX_ROUND_RN), ==, 0x4f800000);
  g_assert_cmphex (ks_cvt_f32_u32 (0xffffffff, KS_PTX_ROUND_RZ), ==, 0x4f7fffff);
  /* u32 70000 to f16 overflows: inf in rn, 65504 in rz. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_F16, KS_PTX_TYPE_U32, 70000, KS_PTX_ROUND_RN, 0), ==, 0x7c00);
  g_assert_cmphex (cvt (KS_PTX_TYPE_F16, KS_PTX_TYPE_U32, 70000, KS_PTX_ROUND_RZ, 0), ==, 0x7bff);
  /* f64 -> bf16 in one rounding: 1 + 2^-8 + 2^-40 is just above the tie. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_BF16, KS_PTX_TYPE_F64, 0x3ff0100000100000ull,
                        KS_PTX_ROUND_RN, 0), ==, 0x3f81);
  /* tf32: 1 + 2^-11 (0x3f801000) is a tie at 10 fraction bits: rna goes
   * away to 1 + 2^-10, rn to even 1.0. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_TF32, KS_PTX_TYPE_F32, 0x3f801000, KS_PTX_ROUND_RNA, 0), ==,
                   0x3f802000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_TF32, KS_PTX_TYPE_F32, 0x3f801000, KS_PTX_ROUND_RN, 0), ==,
                   0x3f800000);
  g_assert_cmphex (cvt (KS_PTX_TYPE_TF32, KS_PTX_TYPE_F32, 0x7f7fffff, KS_PTX_ROUND_RNA,
                        KS_MATH_SATFINITE), ==, 0x7f7fe000);
  /* Integer to integer: truncate, or clamp with .sat. */
  g_assert_cmphex (cvt (KS_PTX_TYPE_U8, KS_PTX_TYPE_S32, 0x1ff, KS_PTX_ROUND_NONE, 0), ==, 0xff);
  g_assert_cmphex (cvt (KS_PTX_TYPE_U8, KS_PTX_TYPE_S32, 0xffffffff, KS_PTX_ROUND_NONE,
                        KS_MATH_SAT), ==, 0);
  g_assert_cmphex (cvt (KS_PTX_TYPE_S8, KS_PTX_TYPE_S32, 300, KS_PTX_ROUND_NONE, KS_MATH_SAT), ==,
                   0x7f);
  g_assert_cmphex (cvt (KS_PTX_TYPE_S64, KS_PTX_TYPE_S16, 0x8000, KS_PTX_ROUND_NONE, 0), ==,
                   0xffffffffffff8000ull);
  g_assert_cmphex (cvt (KS_PTX_TYPE_U32, KS_PTX_TYPE_U64, G_MAXUINT64, KS_PTX_ROUND_NONE,
                        KS_MATH_SAT), ==, 0xffffffff);
  g_assert_cmphex (cvt (KS_PTX_TYPE_S64, KS_PTX_TYPE_U64, G_MAXUINT64, KS_PTX_ROUND_NONE,
                        KS_MATH_SAT), ==, 0x7fffffffffffffffull);
}

static void
test_cvt_f8 (void)
{
  /* e4m3: 1.0 = 0.0111.000 = 0x38; 448 = 0.1111.110 = 0x7e is the largest;
   * 1000 saturates to it; NaN is 0x7f. */
  g_assert_cmphex (ks_cvt_e4m3x2_f32 (0x3f800000, 0x43e00000, 0), ==, 0x387e);
  g_assert_cmphex (ks_cvt_e4m3x2_f32 (0x447a0000, 0xc47a0000, 0), ==, 0x7efe);
  g_assert_cmphex (ks_cvt_e4m3x2_f32 (0x7fc00000, 0xbf000000, 0), ==, 0x7fb0);
  /* 2^-9 is the smallest e4m3 subnormal; 464 = halfway 448..480 -> even 448. */
  g_assert_cmphex (ks_cvt_e4m3x2_f32 (0x3b000000, 0x43e80000, 0), ==, 0x017e);
  /* e5m2 is f16 with 8 fraction bits dropped: 1.0 = 0x3c, 57344 = 0x7b. */
  g_assert_cmphex (ks_cvt_e5m2x2_f32 (0x3f800000, 0x47600000, 0), ==, 0x3c7b);
  g_assert_cmphex (ks_cvt_e5m2x2_f32 (0x7f800000, 0x7fc00000, 0), ==, 0x7b7f);
  g_assert_cmphex (ks_cvt_e4m3x2_f32 (0xbf800000, 0x3f800000, KS_MATH_RELU), ==, 0x0038);
  /* f16x2 sources: 0x3c00 = 1.0, 0xc000 = -2.0 (e4m3 -2 = 1.1000.000 = 0xc0). */
  g_assert_cmphex (ks_cvt_e4m3x2_f16x2 (0x3c00c000, 0), ==, 0x38c0);
  g_assert_cmphex (ks_cvt_e5m2x2_f16x2 (0x3c00c000, 0), ==, 0x3cc0);
  /* Back: 448 = 1.75 * 2^8 = f16 0x5f00. */
  g_assert_cmphex (ks_cvt_f16x2_e4m3x2 (0x7e38, 0), ==, 0x5f003c00);
  g_assert_cmphex (ks_cvt_f16x2_e4m3x2 (0x0180, 0), ==, 0x18008000);  /* 2^-9, -0 */
  g_assert_cmphex (ks_cvt_f16x2_e5m2x2 (0x7c7f, 0), ==, 0x7c007fff);

  /* Every e4m3/e5m2 value survives the round trip through f16. */
  for (uint32_t v = 0; v < 256; v++)
    {
      uint32_t h = ks_cvt_f16x2_e4m3x2 ((uint16_t) v, 0);

      if ((v & 0x7f) != 0x7f)
        g_assert_cmphex (ks_cvt_e4m3x2_f16x2 (h, 0) & 0xff, ==, v);
      h = ks_cvt_f16x2_e5m2x2 ((uint16_t) v, 0);
      if ((v & 0x7f) <= 0x7b)
        g_assert_cmphex (ks_cvt_e5m2x2_f16x2 (h, 0) & 0xff, ==, v);
    }
}

/* ---- half arithmetic ------------------------------------------------------ */

static void
test_half_arith (void)
{
  /* 1 + 2^-11 is halfway between 1.0 and 1 + 2^-10: even is 1.0 (0x3c00). */
  g_assert_cmphex (ks_half_add (KS_HALF_F16, 0x3c00, 0x1000, KS_RN, 0), ==, 0x3c00);
  /* 1 + 2^-11 + 2^-24: just above the tie. */
  g_assert_cmphex (ks_half_add (KS_HALF_F16, 0x3c00,
                                ks_half_add (KS_HALF_F16, 0x1000, 0x0001, KS_RN, 0), KS_RN, 0),
                   ==, 0x3c00);
  g_assert_cmphex (ks_half_fma (KS_HALF_F16, 0x1000, 0x3c00, 0x3c00, KS_RN, 0), ==, 0x3c00);
  /* fma (2^-11 + 2^-21) * 1 + 1: the exact sum is above the tie, so it rounds
   * up even though rounding the product to f16 first would lose that. */
  g_assert_cmphex (ks_half_fma (KS_HALF_F16, 0x1001, 0x3c00, 0x3c00, KS_RN, 0), ==, 0x3c01);
  /* 65504 + 65504 overflows; .sat clamps 2.0 to 1.0; NaN canonical. */
  g_assert_cmphex (ks_half_add (KS_HALF_F16, 0x7bff, 0x7bff, KS_RN, 0), ==, 0x7c00);
  g_assert_cmphex (ks_half_add (KS_HALF_F16, 0x3c00, 0x3c00, KS_RN, KS_MATH_SAT), ==, 0x3c00);
  g_assert_cmphex (ks_half_mul (KS_HALF_F16, 0x7c00, 0x0000, KS_RN, 0), ==, 0x7fff);
  /* Subnormal f16 products: 2^-14 * 2^-1 = 2^-15 = 0x0200; ftz flushes it. */
  g_assert_cmphex (ks_half_mul (KS_HALF_F16, 0x0400, 0x3800, KS_RN, 0), ==, 0x0200);
  g_assert_cmphex (ks_half_mul (KS_HALF_F16, 0x0400, 0x3800, KS_RN, KS_MATH_FTZ), ==, 0);
  /* bf16: 1 + 2^-8 halfway -> 1.0; 1.5 * 1.5 = 2.25 = 0x4010. */
  g_assert_cmphex (ks_half_add (KS_HALF_BF16, 0x3f80, 0x3b80, KS_RN, 0), ==, 0x3f80);
  g_assert_cmphex (ks_half_mul (KS_HALF_BF16, 0x3fc0, 0x3fc0, KS_RN, 0), ==, 0x4010);
  g_assert_cmphex (ks_half_fma (KS_HALF_BF16, 0x3fc0, 0x3fc0, 0xc010, KS_RN, 0), ==, 0);
  g_assert_cmphex (ks_half_fma (KS_HALF_F16, 0x3c00, 0xc000, 0x3c00, KS_RN, KS_MATH_RELU), ==, 0);
  g_assert_cmphex (ks_half_min (KS_HALF_F16, 0x8000, 0x0000, 0), ==, 0x8000);
  g_assert_cmphex (ks_half_max (KS_HALF_BF16, 0x7fc1, 0x3f80, 0), ==, 0x3f80);
  g_assert_cmphex (ks_half_max (KS_HALF_BF16, 0x7fc1, 0x3f80, KS_MATH_NAN), ==, 0x7fff);
  g_assert_cmphex (ks_half_min (KS_HALF_F16, 0xc000, 0x4200, KS_MATH_XORSIGN_ABS), ==, 0xc000);
  g_assert_cmphex (ks_half2_add (KS_HALF_F16, 0x3c004000, 0x3c00bc00, KS_RN, 0), ==, 0x40003c00);
  g_assert_cmphex (ks_half2_neg (KS_HALF_BF16, 0x3f80bf80, 0), ==, 0xbf803f80);
  g_assert_cmphex (ks_half2_abs (KS_HALF_F16, 0xfc00fe00, 0), ==, 0x7c007e00);
  g_assert_cmphex (ks_f16_ex2_approx (0x4000, 0), ==, 0x4400);           /* 2^2 = 4 */
}

static void
test_half_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (99);

  /* Reference: f16 add/mul exact in __float128, rounded once by the host's
   * _Float16 conversion (libgcc). */
  for (guint i = 0; i < N_RANDOM; i++)
    {
      uint16_t a = (uint16_t) g_rand_int (r), b = (uint16_t) g_rand_int (r);
      uint16_t c = (uint16_t) g_rand_int (r), wb;
      _Float16 ha, hb, hc, w;

      memcpy (&ha, &a, 2);
      memcpy (&hb, &b, 2);
      memcpy (&hc, &c, 2);
      /* __float128 holds the exact f16 fma: the terms span at most 80 bits. */
      w = (_Float16) ((__float128) ha * (__float128) hb + (__float128) hc);
      memcpy (&wb, &w, 2);
      if (isnan ((float) w))
        wb = 0x7fff;
      g_assert_cmphex (ks_half_fma (KS_HALF_F16, a, b, c, KS_RN, 0), ==, wb);
      w = (_Float16) ((__float128) ha + (__float128) hb);
      memcpy (&wb, &w, 2);
      if (isnan ((float) w))
        wb = 0x7fff;
      g_assert_cmphex (ks_half_add (KS_HALF_F16, a, b, KS_RN, 0), ==, wb);
    }
}

/* ---- integers ----------------------------------------------------------- */

static void
test_int_shift_mul_div (void)
{
  g_assert_cmphex (ks_shr_s (0x80000000, 40, 32), ==, 0xffffffff);
  g_assert_cmphex (ks_shr_s (0x40000000, 40, 32), ==, 0);
  g_assert_cmphex (ks_shr_s (0x8000, 3, 16), ==, 0xf000);
  g_assert_cmphex (ks_shl (1, 32, 32), ==, 0);
  g_assert_cmphex (ks_shl (1, 31, 32), ==, 0x80000000);
  g_assert_cmphex (ks_shr_u (0xffffffff, 32, 32), ==, 0);
  g_assert_cmphex (ks_shr_u (0xffffffffffffffffull, 63, 64), ==, 1);
  g_assert_cmphex (ks_mul_hi_s (0xffffffff, 1, 32), ==, 0xffffffff);
  g_assert_cmphex (ks_mul_hi_u (0xffffffff, 0xffffffff, 32), ==, 0xfffffffe);
  g_assert_cmphex (ks_mul_hi_u (0x8000000000000000ull, 4, 64), ==, 2);
  g_assert_cmphex (ks_mul_hi_s (0x8000000000000000ull, 0x8000000000000000ull, 64), ==,
                   0x4000000000000000ull);
  g_assert_cmphex (ks_mul_wide_s (0xfffffffe, 3, 32), ==, 0xfffffffffffffffaull);
  g_assert_cmphex (ks_mul_wide_u (0xffff, 0xffff, 16), ==, 0xfffe0001);
  g_assert_cmphex (ks_mad_hi_s (0x7fffffff, 0x7fffffff, 0x7fffffff, 32, KS_MATH_SAT), ==,
                   0x7fffffff);
  /* mul24: 0xffffff * 0xffffff = 0xfffffe000001. */
  g_assert_cmphex (ks_mul24_lo (0xffffff, 0xffffff, false), ==, 0xfe000001);
  g_assert_cmphex (ks_mul24_hi (0xffffff, 0xffffff, false), ==, 0xfffffe00);
  g_assert_cmphex (ks_mul24_lo (0xffffff, 0xffffff, true), ==, 1);      /* -1 * -1 */
  g_assert_cmphex (ks_sad (1, 5, 10, 32, false), ==, 14);
  g_assert_cmphex (ks_sad (0xffffffff, 1, 0, 32, true), ==, 2);
  g_assert_cmphex (ks_div_s (0x80000000, 0xffffffff, 32), ==, 0x80000000);
  g_assert_cmphex (ks_rem_s (0x80000000, 0xffffffff, 32), ==, 0);
  g_assert_cmphex (ks_div_s (0x8000000000000000ull, G_MAXUINT64, 64), ==, 0x8000000000000000ull);
  g_assert_cmphex (ks_div_u (7, 0, 32), ==, 0xffffffff);
  g_assert_cmphex (ks_rem_u (7, 0, 32), ==, 7);
  g_assert_cmphex (ks_div_s (0xfffffff9, 2, 32), ==, 0xfffffffd);       /* -7/2 = -3 */
  g_assert_cmphex (ks_rem_s (0xfffffff9, 2, 32), ==, 0xffffffff);       /* -1 */
  g_assert_cmpint (ks_add_sat_s32 (G_MAXINT32, 1), ==, G_MAXINT32);
  g_assert_cmpint (ks_sub_sat_s32 (G_MININT32, 1), ==, G_MININT32);
  g_assert_cmphex (ks_abs_s (0x80000000, 32), ==, 0x80000000);
  g_assert_cmphex (ks_neg_s (1, 16), ==, 0xffff);
  g_assert_cmphex (ks_min_int (0xffffffff, 1, 32, true), ==, 0xffffffff);
  g_assert_cmphex (ks_min_int (0xffffffff, 1, 32, false), ==, 1);
  g_assert_cmphex (ks_max_int (0x8000, 0x7fff, 16, true), ==, 0x7fff);
  g_assert_cmphex (ks_cnot (0, 32), ==, 1);
  g_assert_cmphex (ks_cnot (0x100000000ull, 32), ==, 1);
  g_assert_cmphex (ks_cnot (5, 32), ==, 0);
}

static void
test_int_carry (void)
{
  unsigned cf;
  uint64_t lo, hi;

  /* 0x00000001_ffffffff + 0x00000000_00000001 in two 32-bit words. */
  lo = ks_addc (0xffffffff, 1, 0, &cf, 32);
  g_assert_cmphex (lo, ==, 0);
  g_assert_cmpuint (cf, ==, 1);
  hi = ks_addc (1, 0, cf, &cf, 32);
  g_assert_cmphex (hi, ==, 2);
  g_assert_cmpuint (cf, ==, 0);
  /* 0x1_00000000 - 1 with a borrow. */
  lo = ks_subc (0, 1, 0, &cf, 32);
  g_assert_cmphex (lo, ==, 0xffffffff);
  g_assert_cmpuint (cf, ==, 1);
  hi = ks_subc (1, 0, cf, &cf, 32);
  g_assert_cmphex (hi, ==, 0);
  g_assert_cmpuint (cf, ==, 0);
  /* madc.hi: hi (0xffffffff^2) = 0xfffffffe, + 1 + carry 1 = 0 carry out. */
  g_assert_cmphex (ks_madc (0xffffffff, 0xffffffff, 1, true, false, 1, &cf, 32), ==, 0);
  g_assert_cmpuint (cf, ==, 1);
}

static void
test_int_bits (void)
{
  g_assert_cmphex (ks_bfind (0, 32, false, false), ==, 0xffffffff);
  g_assert_cmphex (ks_bfind (1, 32, false, true), ==, 31);
  g_assert_cmphex (ks_bfind (0xffffffff, 32, true, false), ==, 0xffffffff);
  g_assert_cmphex (ks_bfind (0xfffffffe, 32, true, false), ==, 0);
  g_assert_cmphex (ks_bfind (0x8000000000000000ull, 64, false, false), ==, 63);
  g_assert_cmphex (ks_brev (1, 32), ==, 0x80000000);
  g_assert_cmphex (ks_brev (0x0f, 64), ==, 0xf000000000000000ull);
  g_assert_cmphex (ks_clz (0, 32), ==, 32);
  g_assert_cmphex (ks_clz (1, 64), ==, 63);
  g_assert_cmphex (ks_popc (0xf0f0f0f0f0ull, 32), ==, 16);
  /* The ISA's fns examples. */
  g_assert_cmphex (ks_fns (0xaaaaaaaa, 3, 1), ==, 3);
  g_assert_cmphex (ks_fns (0xaaaaaaaa, 3, -1), ==, 3);
  g_assert_cmphex (ks_fns (0xaaaaaaaa, 2, 1), ==, 3);
  g_assert_cmphex (ks_fns (0xaaaaaaaa, 2, -1), ==, 1);
  g_assert_cmphex (ks_fns (0xaaaaaaaa, 2, 0), ==, 0xffffffff);
  g_assert_cmphex (ks_fns (0x1, 31, 2), ==, 0xffffffff);
  /* The ISA's examples for bmsk and szext. */
  g_assert_cmphex (ks_bmsk (1, 2, false), ==, 6);
  g_assert_cmphex (ks_szext (0xffffffff, 0, false, false), ==, 0);
  g_assert_cmphex (ks_szext (0x80, 8, true, true), ==, 0xffffff80);
  g_assert_cmphex (ks_szext (0x80, 40, true, true), ==, 0x80);
  g_assert_cmphex (ks_szext (0xff, 4, false, false), ==, 0xf);
  /* lop3 identities: 0xf0 is a, 0xcc b, 0xaa c, 0x96 a^b^c, 0xe8 majority. */
  g_assert_cmphex (ks_lop3 (0x12345678, 0x9abcdef0, 0x0f0f0f0f, 0xf0), ==, 0x12345678);
  g_assert_cmphex (ks_lop3 (0x12345678, 0x9abcdef0, 0x0f0f0f0f, 0xcc), ==, 0x9abcdef0);
  g_assert_cmphex (ks_lop3 (0x12345678, 0x9abcdef0, 0x0f0f0f0f, 0xaa), ==, 0x0f0f0f0f);
  g_assert_cmphex (ks_lop3 (0x12345678, 0x9abcdef0, 0x0f0f0f0f, 0x96), ==,
                   0x12345678 ^ 0x9abcdef0 ^ 0x0f0f0f0f);
  g_assert_cmphex (ks_prmt (0x03020100, 0x07060504, 0x3210, KS_PRMT_DEFAULT), ==, 0x03020100);
  g_assert_cmphex (ks_prmt (0x03020100, 0x07060504, 0x7654, KS_PRMT_DEFAULT), ==, 0x07060504);
  /* ctl 8: sign of byte 0 (0x80), 9: sign of byte 1 (0x7f), 0: byte 0. */
  g_assert_cmphex (ks_prmt (0x00007f80, 0, 0x0898, KS_PRMT_DEFAULT), ==, 0x80ff00ff);
  g_assert_cmphex (ks_dp4a (0xff010203, 0x01010101, 10, true, true), ==, 15);
  g_assert_cmphex (ks_dp4a (0xff010203, 0x01010101, 10, false, true), ==, 10 + 255 + 6);
}

/* The ISA's bfe pseudo-code, bit by bit. */
static uint64_t
ref_bfe (uint64_t a, uint32_t b, uint32_t c, unsigned width, bool is_signed)
{
  unsigned msb = width - 1, pos = b & 0xff, len = c & 0xff;
  unsigned sbit;
  uint64_t d = 0;

  if (!is_signed || len == 0)
    sbit = 0;
  else
    sbit = (a >> MIN (pos + len - 1, msb)) & 1;
  for (unsigned i = 0; i <= msb; i++)
    {
      unsigned bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;

      d |= (uint64_t) bit << i;
    }
  return d;
}

static uint64_t
ref_bfi (uint64_t a, uint64_t b, uint32_t c, uint32_t d, unsigned width)
{
  unsigned msb = width - 1, pos = c & 0xff, len = d & 0xff;
  uint64_t f = b & (width == 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << width) - 1));

  for (unsigned i = 0; i < len && pos + i <= msb; i++)
    f = (f & ~((uint64_t) 1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
  return f;
}

/* The ISA's prmt mode table, written as "d.b3 d.b2 d.b1 d.b0" per c[1:0]. */
static const char *const prmt_table[7][4] = {
  [KS_PRMT_F4E] = { "3210", "4321", "5432", "6543" },
  [KS_PRMT_B4E] = { "5670", "6701", "7012", "0123" },
  [KS_PRMT_RC8] = { "0000", "1111", "2222", "3333" },
  [KS_PRMT_ECL] = { "3210", "3211", "3222", "3333" },
  [KS_PRMT_ECR] = { "0000", "1110", "2210", "3210" },
  [KS_PRMT_RC16] = { "1010", "3232", "1010", "3232" },
};

static uint32_t
ref_prmt (uint32_t a, uint32_t b, uint32_t c, KsPrmtMode mode)
{
  uint8_t bytes[8];
  uint32_t d = 0;

  for (int i = 0; i < 4; i++)
    {
      bytes[i] = (uint8_t) (a >> (8 * i));
      bytes[4 + i] = (uint8_t) (b >> (8 * i));
    }
  for (int i = 0; i < 4; i++)
    {
      uint8_t v;

      if (mode == KS_PRMT_DEFAULT)
        {
          unsigned sel = (c >> (4 * i)) & 0xf;

          v = bytes[sel & 7];
          if (sel & 8)
            v = (v & 0x80) ? 0xff : 0x00;
        }
      else
        v = bytes[prmt_table[mode][c & 3][3 - i] - '0'];
      d |= (uint32_t) v << (8 * i);
    }
  return d;
}

static uint32_t
ref_lop3 (uint32_t a, uint32_t b, uint32_t c, uint8_t lut)
{
  uint32_t d = 0;

  for (int i = 0; i < 32; i++)
    {
      unsigned idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);

      d |= (uint32_t) ((lut >> idx) & 1) << i;
    }
  return d;
}

/* shf on the 64-bit [b, a], one bit at a time. */
static uint32_t
ref_shf (uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp)
{
  unsigned n = clamp ? MIN (c, 32u) : c & 0x1f;
  uint32_t d = 0;

  for (int i = 0; i < 32; i++)
    {
      int src = left ? 32 + i - (int) n : i + (int) n;
      unsigned bit = 0;

      if (src >= 0 && src < 32)
        bit = (a >> src) & 1;
      else if (src >= 32 && src < 64)
        bit = (b >> (src - 32)) & 1;
      d |= bit << i;
    }
  return d;
}

static uint32_t
ref_dp4a (uint32_t a, uint32_t b, uint32_t c, bool as, bool bs)
{
  int64_t d = (int32_t) c;

  for (int i = 0; i < 4; i++)
    {
      int64_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;

      if (as && x >= 128)
        x -= 256;
      if (bs && y >= 128)
        y -= 256;
      d += x * y;
    }
  return (uint32_t) d;
}

static uint32_t
ref_dp2a (uint32_t a, uint32_t b, uint32_t c, bool as, bool bs, bool hi)
{
  int64_t d = (int32_t) c;

  for (int i = 0; i < 2; i++)
    {
      int64_t x = (a >> (16 * i)) & 0xffff, y = (b >> (8 * (i + (hi ? 2 : 0)))) & 0xff;

      if (as && x >= 32768)
        x -= 65536;
      if (bs && y >= 128)
        y -= 256;
      d += x * y;
    }
  return (uint32_t) d;
}

static void
test_int_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (7);

  for (guint i = 0; i < N_RANDOM; i++)
    {
      uint64_t a = ((uint64_t) g_rand_int (r) << 32) | g_rand_int (r);
      uint64_t b = ((uint64_t) g_rand_int (r) << 32) | g_rand_int (r);
      uint32_t a32 = (uint32_t) a, b32 = (uint32_t) b, c32 = g_rand_int (r);
      /* Positions and lengths around and past the register width, with
       * garbage above the 8 bits that count. */
      uint32_t pos = g_rand_int_range (r, 0, 80) | (g_rand_boolean (r) ? 0x300 : 0);
      uint32_t len = g_rand_int_range (r, 0, 80) | (g_rand_boolean (r) ? 0x1100 : 0);
      unsigned width = (i & 1) ? 64 : 32;
      bool s = i & 2, clamp = i & 4;
      KsPrmtMode mode = (KsPrmtMode) (i % 7);
      uint64_t am = width == 64 ? a : (uint32_t) a;
      uint32_t shift = g_rand_int_range (r, 0, 70);

      g_assert_cmphex (ks_bfe (am, pos, len, width, s), ==, ref_bfe (am, pos, len, width, s));
      g_assert_cmphex (ks_bfi (a, b, pos, len, width), ==, ref_bfi (a, b, pos, len, width));
      g_assert_cmphex (ks_prmt (a32, b32, c32, mode), ==, ref_prmt (a32, b32, c32, mode));
      g_assert_cmphex (ks_lop3 (a32, b32, c32, (uint8_t) i), ==,
                       ref_lop3 (a32, b32, c32, (uint8_t) i));
      g_assert_cmphex (ks_shf_l (a32, b32, shift, clamp), ==,
                       ref_shf (a32, b32, shift, true, clamp));
      g_assert_cmphex (ks_shf_r (a32, b32, shift, clamp), ==,
                       ref_shf (a32, b32, shift, false, clamp));
      g_assert_cmphex (ks_dp4a (a32, b32, c32, s, clamp), ==, ref_dp4a (a32, b32, c32, s, clamp));
      g_assert_cmphex (ks_dp2a (a32, b32, c32, s, clamp, i & 8), ==,
                       ref_dp2a (a32, b32, c32, s, clamp, i & 8));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sim/math/f32/add-modes", test_f32_add_modes);
  g_test_add_func ("/sim/math/f32/div-sqrt-modes", test_f32_div_sqrt_modes);
  g_test_add_func ("/sim/math/f32/ftz-sat", test_f32_ftz_sat);
  g_test_add_func ("/sim/math/f32/min-max", test_f32_minmax);
  g_test_add_func ("/sim/math/f32/sign-testp", test_f32_bits);
  g_test_add_func ("/sim/math/f32/approx", test_f32_approx);
  g_test_add_func ("/sim/math/f32/add-random", test_f32_add_random);
  g_test_add_func ("/sim/math/f32/sub-random", test_f32_sub_random);
  g_test_add_func ("/sim/math/f32/mul-random", test_f32_mul_random);
  g_test_add_func ("/sim/math/f32/div-random", test_f32_div_random);
  g_test_add_func ("/sim/math/f32/fma-random", test_f32_fma_random);
  g_test_add_func ("/sim/math/f32/sqrt-random", test_f32_sqrt_random);
  g_test_add_func ("/sim/math/f64/add-random", test_f64_add_random);
  g_test_add_func ("/sim/math/f64/mul-random", test_f64_mul_random);
  g_test_add_func ("/sim/math/f64/div-random", test_f64_div_random);
  g_test_add_func ("/sim/math/f64/fma-random", test_f64_fma_random);
  g_test_add_func ("/sim/math/f64/sqrt-random", test_f64_sqrt_random);
  g_test_add_func ("/sim/math/cvt/f32-to-f16", test_cvt_f32_to_f16);
  g_test_add_func ("/sim/math/cvt/f32-to-f16-random", test_cvt_f32_to_f16_random);
  g_test_add_func ("/sim/math/cvt/f32-to-bf16", test_cvt_f32_to_bf16);
  g_test_add_func ("/sim/math/cvt/f32-to-int", test_cvt_f32_to_int);
  g_test_add_func ("/sim/math/cvt/to-float-random", test_cvt_to_float_random);
  g_test_add_func ("/sim/math/cvt/float-misc", test_cvt_float_misc);
  g_test_add_func ("/sim/math/cvt/f8", test_cvt_f8);
  g_test_add_func ("/sim/math/half/arith", test_half_arith);
  g_test_add_func ("/sim/math/half/random", test_half_random);
  g_test_add_func ("/sim/math/int/shift-mul-div", test_int_shift_mul_div);
  g_test_add_func ("/sim/math/int/carry", test_int_carry);
  g_test_add_func ("/sim/math/int/bits", test_int_bits);
  g_test_add_func ("/sim/math/int/random", test_int_random);

  return g_test_run ();
}
