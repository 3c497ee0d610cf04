/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-math.h: PTX numeric semantics as pure scalar functions.
 *
 * Everything here works on bit patterns (uint16_t/uint32_t/uint64_t), not on
 * C floats, so that NaN payloads, signed zeros and subnormals survive the trip
 * through the simulator's registers unchanged.  All functions are pure and
 * thread-safe.  The round-to-nearest paths never touch the floating-point
 * environment; the directed-rounding paths save and restore it around one
 * operation, so they are safe to call from several threads (the environment
 * is per thread) but not from a signal handler.
 *
 * Where PTX leaves a result unspecified, the value chosen is documented at the
 * function and marked "estimate" when it is not backed by NVIDIA text.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

/* Floating-point rounding of an arithmetic result (.rn .rz .rm .rp). */
typedef enum
{
  KS_RN = 0,
  KS_RZ,
  KS_RM,
  KS_RP,
} KsRound;

/* Modifier flags shared by the functions below; each function says which it
 * honours. */
enum
{
  KS_MATH_FTZ = 1u << 0,          /* .ftz: flush subnormal inputs and results */
  KS_MATH_SAT = 1u << 1,          /* .sat */
  KS_MATH_NAN = 1u << 2,          /* .NaN on min/max: propagate NaN */
  KS_MATH_XORSIGN_ABS = 1u << 3,  /* .xorsign.abs on min/max */
  KS_MATH_RELU = 1u << 4,         /* .relu */
  KS_MATH_SATFINITE = 1u << 5,    /* .satfinite */
};

/* The NaNs the simulator produces.  NVIDIA hardware returns 0x7fffffff for
 * every single-precision NaN result (PTX: "Single-precision instructions
 * return an unspecified NaN").  Half types use 0x7fff likewise.  For f64 the
 * ISA says NaN payloads are supported; a NaN made from non-NaN operands
 * (0 * inf, inf - inf, sqrt (-1)) gets KS_F64_NAN (estimate). */
#define KS_F32_NAN ((uint32_t) 0x7fffffffu)
#define KS_F64_NAN ((uint64_t) 0x7fffffffffffffffull)
#define KS_F16_NAN ((uint16_t) 0x7fffu)
#define KS_BF16_NAN ((uint16_t) 0x7fffu)
#define KS_E4M3_NAN ((uint8_t) 0x7fu)
#define KS_E5M2_NAN ((uint8_t) 0x7fu)

/* Bit-pattern conversions. */
static inline float
ks_f32_from_bits (uint32_t b)
{
  float f;
  memcpy (&f, &b, sizeof f);
  return f;
}

static inline uint32_t
ks_f32_to_bits (float f)
{
  uint32_t b;
  memcpy (&b, &f, sizeof b);
  return b;
}

static inline double
ks_f64_from_bits (uint64_t b)
{
  double d;
  memcpy (&d, &b, sizeof d);
  return d;
}

static inline uint64_t
ks_f64_to_bits (double d)
{
  uint64_t b;
  memcpy (&b, &d, sizeof b);
  return b;
}

static inline bool
ks_f32_is_nan (uint32_t a)
{
  return (a & 0x7fffffffu) > 0x7f800000u;
}

static inline bool
ks_f64_is_nan (uint64_t a)
{
  return (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static inline bool
ks_f32_is_subnormal (uint32_t a)
{
  return (a & 0x7f800000u) == 0 && (a & 0x007fffffu) != 0;
}

/* Sign-preserving flush of an f32 subnormal, as .ftz does. */
static inline uint32_t
ks_f32_flush (uint32_t a)
{
  return ks_f32_is_subnormal (a) ? (a & 0x80000000u) : a;
}

static inline uint16_t
ks_f16_flush (uint16_t a)
{
  return ((a & 0x7c00u) == 0 && (a & 0x03ffu) != 0) ? (uint16_t) (a & 0x8000u) : a;
}

/* ---- f32 arithmetic ------------------------------------------------------
 * flags: KS_MATH_FTZ, KS_MATH_SAT (add, sub, mul, fma only, as in PTX).  NaN
 * results are KS_F32_NAN. */
uint32_t ks_f32_add (uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_f32_sub (uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_f32_mul (uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_f32_fma (uint32_t a, uint32_t b, uint32_t c, KsRound rnd, unsigned flags);
uint32_t ks_f32_div (uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_f32_sqrt (uint32_t a, KsRound rnd, unsigned flags);
uint32_t ks_f32_rcp (uint32_t a, KsRound rnd, unsigned flags);

/* ---- f64 arithmetic ------------------------------------------------------
 * A NaN result keeps the payload of the first NaN operand (a, then b, then
 * c), quieted; the ISA promises payload support but not which operand wins
 * (estimate: first operand, as x86 and ARM do). */
uint64_t ks_f64_add (uint64_t a, uint64_t b, KsRound rnd);
uint64_t ks_f64_sub (uint64_t a, uint64_t b, KsRound rnd);
uint64_t ks_f64_mul (uint64_t a, uint64_t b, KsRound rnd);
uint64_t ks_f64_fma (uint64_t a, uint64_t b, uint64_t c, KsRound rnd);
uint64_t ks_f64_div (uint64_t a, uint64_t b, KsRound rnd);
uint64_t ks_f64_sqrt (uint64_t a, KsRound rnd);
uint64_t ks_f64_rcp (uint64_t a, KsRound rnd);

/* ---- min, max, sign manipulation, testp ----------------------------------
 * min/max: one NaN input gives the other input, two give the canonical NaN;
 * -0.0 < +0.0.  flags: KS_MATH_FTZ (f32), KS_MATH_NAN, KS_MATH_XORSIGN_ABS. */
uint32_t ks_f32_min (uint32_t a, uint32_t b, unsigned flags);
uint32_t ks_f32_max (uint32_t a, uint32_t b, unsigned flags);
uint64_t ks_f64_min (uint64_t a, uint64_t b);
uint64_t ks_f64_max (uint64_t a, uint64_t b);

/* abs and neg are bit operations: a NaN keeps its payload.  With ftz a
 * subnormal input first becomes a zero of the same sign. */
static inline uint32_t
ks_f32_abs (uint32_t a, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    a = ks_f32_flush (a);
  return a & 0x7fffffffu;
}

static inline uint32_t
ks_f32_neg (uint32_t a, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    a = ks_f32_flush (a);
  return a ^ 0x80000000u;
}

static inline uint64_t
ks_f64_abs (uint64_t a)
{
  return a & 0x7fffffffffffffffull;
}

static inline uint64_t
ks_f64_neg (uint64_t a)
{
  return a ^ 0x8000000000000000ull;
}

/* copysign.type d, a, b: "Copy sign bit of a into value of b". */
static inline uint32_t
ks_f32_copysign (uint32_t a, uint32_t b)
{
  return (b & 0x7fffffffu) | (a & 0x80000000u);
}

static inline uint64_t
ks_f64_copysign (uint64_t a, uint64_t b)
{
  return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull);
}

typedef enum
{
  KS_TESTP_FINITE,
  KS_TESTP_INFINITE,
  KS_TESTP_NUMBER,
  KS_TESTP_NOTANUMBER,
  KS_TESTP_NORMAL,      /* zeros count as normal, as the ISA says */
  KS_TESTP_SUBNORMAL,
} KsTestp;

bool ks_f32_testp (uint32_t a, KsTestp op);
bool ks_f64_testp (uint64_t a, KsTestp op);

/* ---- approximate functions -----------------------------------------------
 * These return the correctly rounded result (or libm's, which is within an ulp
 * or two), which lies inside every error bound the ISA states; see the .c
 * file for the bounds.  flags: KS_MATH_FTZ. */
uint32_t ks_f32_rcp_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_sqrt_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_rsqrt_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_sin_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_cos_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_ex2_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_lg2_approx (uint32_t a, unsigned flags);
uint32_t ks_f32_tanh_approx (uint32_t a);
uint32_t ks_f32_div_approx (uint32_t a, uint32_t b, unsigned flags);
uint32_t ks_f32_div_full (uint32_t a, uint32_t b, unsigned flags);
uint64_t ks_f64_rcp_approx_ftz (uint64_t a);
uint64_t ks_f64_rsqrt_approx (uint64_t a);
uint64_t ks_f64_rsqrt_approx_ftz (uint64_t a);

/* ---- conversions -----------------------------------------------------------
 * ks_cvt: cvt.rnd.flags.dst.src for the scalar types u8..u64, s8..s64, f16,
 * bf16, f32, f64, and dst tf32 from f32.  Bits come in and go out in the low
 * bits of a uint64_t; the result is zero above the destination width (the
 * caller sign-extends into a wider register when the destination is signed,
 * see ks_sext).  rnd is a KsPtxRound: .rni/.rzi/.rmi/.rpi for float-to-int and
 * float-to-float integer rounding, .rn/.rz/.rm/.rp/.rna for float results; NONE
 * means what PTX means when the modifier may be left out (.rn for exact
 * widening, .rzi is never implied).  flags: KS_MATH_SAT, KS_MATH_FTZ,
 * KS_MATH_RELU, KS_MATH_SATFINITE. */
uint64_t ks_cvt (KsPtxType dst, KsPtxType src, uint64_t bits, KsPtxRound rnd, unsigned flags);

/* Packed conversions: a goes to the upper half, b to the lower half. */
uint32_t ks_cvt_f16x2_f32 (uint32_t a, uint32_t b, KsPtxRound rnd, unsigned flags);
uint32_t ks_cvt_bf16x2_f32 (uint32_t a, uint32_t b, KsPtxRound rnd, unsigned flags);
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b */
uint16_t ks_cvt_e4m3x2_f32 (uint32_t a, uint32_t b, unsigned flags);
uint16_t ks_cvt_e5m2x2_f32 (uint32_t a, uint32_t b, unsigned flags);
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a */
uint16_t ks_cvt_e4m3x2_f16x2 (uint32_t a, unsigned flags);
uint16_t ks_cvt_e5m2x2_f16x2 (uint32_t a, unsigned flags);
/* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: exact. */
uint32_t ks_cvt_f16x2_e4m3x2 (uint16_t a, unsigned flags);
uint32_t ks_cvt_f16x2_e5m2x2 (uint16_t a, unsigned flags);

/* Fast paths for the common conversions; they agree with ks_cvt. */
uint16_t ks_cvt_f16_f32 (uint32_t a, KsPtxRound rnd, unsigned flags);
uint16_t ks_cvt_bf16_f32 (uint32_t a, KsPtxRound rnd, unsigned flags);
uint32_t ks_cvt_f32_f16 (uint16_t a, unsigned flags);

static inline uint32_t
ks_cvt_f32_bf16 (uint16_t a)
{
  /* Exact; the ISA leaves the NaN unspecified, we give the canonical one. */
  uint32_t r = (uint32_t) a << 16;
  return ks_f32_is_nan (r) ? KS_F32_NAN : r;
}

static inline uint64_t
ks_cvt_f64_f32 (uint32_t a, unsigned flags)
{
  if (flags & KS_MATH_FTZ)
    a = ks_f32_flush (a);
  if (ks_f32_is_nan (a))
    /* f64 keeps payloads: sign, quiet bit and fraction move up. */
    return ((uint64_t) (a & 0x80000000u) << 32) | 0x7ff8000000000000ull
           | ((uint64_t) (a & 0x007fffffu) << 29);
  return ks_f64_to_bits ((double) ks_f32_from_bits (a));
}

/* cvt.rzi.s32.f32 and friends: clamp, NaN -> 0. */
int32_t ks_cvt_s32_f32 (uint32_t a, KsPtxRound irnd, unsigned flags);
uint32_t ks_cvt_u32_f32 (uint32_t a, KsPtxRound irnd, unsigned flags);
uint32_t ks_cvt_f32_s32 (int32_t a, KsPtxRound rnd);
uint32_t ks_cvt_f32_u32 (uint32_t a, KsPtxRound rnd);
uint32_t ks_cvt_f32_f64 (uint64_t a, KsPtxRound rnd, unsigned flags);

/* Sign-extend the low `width` bits (1..64). */
static inline uint64_t
ks_sext (uint64_t v, unsigned width)
{
  unsigned s = 64 - width;
  return (uint64_t) ((int64_t) (v << s) >> s);
}

/* ---- half precision arithmetic ---------------------------------------------
 * Scalar f16/bf16 in the low 16 bits; x2 variants work on both halves.
 * Rounding is .rn (the only mode PTX has for them besides bf16 .rz which we
 * accept through rnd).  flags: KS_MATH_FTZ and KS_MATH_SAT (f16 only),
 * KS_MATH_RELU (fma), KS_MATH_NAN and KS_MATH_XORSIGN_ABS (min/max).  NaN
 * results are 0x7fff. */
typedef enum
{
  KS_HALF_F16,
  KS_HALF_BF16,
} KsHalfKind;

uint16_t ks_half_add (KsHalfKind k, uint16_t a, uint16_t b, KsRound rnd, unsigned flags);
uint16_t ks_half_sub (KsHalfKind k, uint16_t a, uint16_t b, KsRound rnd, unsigned flags);
uint16_t ks_half_mul (KsHalfKind k, uint16_t a, uint16_t b, KsRound rnd, unsigned flags);
uint16_t ks_half_fma (KsHalfKind k, uint16_t a, uint16_t b, uint16_t c, KsRound rnd,
                      unsigned flags);
uint16_t ks_half_min (KsHalfKind k, uint16_t a, uint16_t b, unsigned flags);
uint16_t ks_half_max (KsHalfKind k, uint16_t a, uint16_t b, unsigned flags);
uint16_t ks_half_neg (KsHalfKind k, uint16_t a, unsigned flags);
uint16_t ks_half_abs (KsHalfKind k, uint16_t a, unsigned flags);
uint16_t ks_f16_ex2_approx (uint16_t a, unsigned flags);
/* ex2.approx and tanh.approx of .f16 and .bf16 (KS_MATH_FTZ flushes
 * subnormal inputs and results), within the ISA's error bounds */
uint16_t ks_half_ex2_approx (KsHalfKind k, uint16_t a, unsigned flags);
uint16_t ks_half_tanh_approx (KsHalfKind k, uint16_t a, unsigned flags);
/* The value of a half-precision number, exactly, for comparisons; with
 * KS_MATH_FTZ a subnormal is a zero of its sign */
double ks_half_value (KsHalfKind k, uint16_t a, unsigned flags);

uint32_t ks_half2_add (KsHalfKind k, uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_half2_sub (KsHalfKind k, uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_half2_mul (KsHalfKind k, uint32_t a, uint32_t b, KsRound rnd, unsigned flags);
uint32_t ks_half2_fma (KsHalfKind k, uint32_t a, uint32_t b, uint32_t c, KsRound rnd,
                       unsigned flags);
uint32_t ks_half2_min (KsHalfKind k, uint32_t a, uint32_t b, unsigned flags);
uint32_t ks_half2_max (KsHalfKind k, uint32_t a, uint32_t b, unsigned flags);
uint32_t ks_half2_neg (KsHalfKind k, uint32_t a, unsigned flags);
uint32_t ks_half2_abs (KsHalfKind k, uint32_t a, unsigned flags);

/* ---- integer helpers -------------------------------------------------------
 * width is the instruction type's size in bits (16, 32 or 64); values are in
 * the low bits and results come back zero above width. */

static inline uint64_t
ks_mask (unsigned width)
{
  return width >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << width) - 1);
}

/* shl/shr: "Shift amounts greater than the register width N are clamped to
 * N", so a big left shift or logical right shift gives 0 and an arithmetic
 * right shift gives all sign bits.  b is the unsigned 32-bit amount. */
static inline uint64_t
ks_shl (uint64_t a, uint32_t b, unsigned width)
{
  return b >= width ? 0 : (a << b) & ks_mask (width);
}

static inline uint64_t
ks_shr_u (uint64_t a, uint32_t b, unsigned width)
{
  a &= ks_mask (width);
  return b >= width ? 0 : a >> b;
}

static inline uint64_t
ks_shr_s (uint64_t a, uint32_t b, unsigned width)
{
  int64_t s = (int64_t) ks_sext (a, width);
  return (uint64_t) (s >> (b >= width ? width - 1 : b)) & ks_mask (width);
}

/* mul.hi/.lo/.wide and mad.hi/.lo/.wide for s/u 16, 32 and 64; wide returns
 * the 2*width-bit product (width <= 32). */
uint64_t ks_mul_lo (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_mul_hi_u (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_mul_hi_s (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_mul_wide_u (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_mul_wide_s (uint64_t a, uint64_t b, unsigned width);
/* mad.hi.sat.s32 exists: flags KS_MATH_SAT with signed .hi only. */
uint64_t ks_mad_hi_s (uint64_t a, uint64_t b, uint64_t c, unsigned width, unsigned flags);
uint64_t ks_mad_hi_u (uint64_t a, uint64_t b, uint64_t c, unsigned width);

/* mul24/mad24: 24-bit operands, .lo gives the low 32 bits of the 48-bit
 * product, .hi the high 32. */
uint32_t ks_mul24_lo (uint32_t a, uint32_t b, bool is_signed);
uint32_t ks_mul24_hi (uint32_t a, uint32_t b, bool is_signed);
uint32_t ks_mad24_hi_sat_s (uint32_t a, uint32_t b, uint32_t c);

/* sad: c + |a - b| */
uint64_t ks_sad (uint64_t a, uint64_t b, uint64_t c, unsigned width, bool is_signed);

/* div/rem.  PTX leaves division by zero unspecified: we return all ones for
 * div (what NVIDIA GPUs return for unsigned division) and the dividend for
 * rem (estimate for both, and for signed).  INT_MIN / -1 wraps to INT_MIN and
 * INT_MIN % -1 is 0; none of this traps. */
uint64_t ks_div_u (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_div_s (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_rem_u (uint64_t a, uint64_t b, unsigned width);
uint64_t ks_rem_s (uint64_t a, uint64_t b, unsigned width);

uint64_t ks_bfe (uint64_t a, uint32_t pos, uint32_t len, unsigned width, bool is_signed);
uint64_t ks_bfi (uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned width);
uint32_t ks_bfind (uint64_t a, unsigned width, bool is_signed, bool shiftamt);
uint64_t ks_brev (uint64_t a, unsigned width);
uint32_t ks_clz (uint64_t a, unsigned width);
uint32_t ks_popc (uint64_t a, unsigned width);
uint32_t ks_fns (uint32_t mask, uint32_t base, int32_t offset);

typedef enum
{
  KS_PRMT_DEFAULT,
  KS_PRMT_F4E,
  KS_PRMT_B4E,
  KS_PRMT_RC8,
  KS_PRMT_ECL,
  KS_PRMT_ECR,
  KS_PRMT_RC16,
} KsPrmtMode;

uint32_t ks_prmt (uint32_t a, uint32_t b, uint32_t c, KsPrmtMode mode);

/* lop3.b32 d, a, b, c, immLut */
static inline uint32_t
ks_lop3 (uint32_t a, uint32_t b, uint32_t c, uint8_t lut)
{
  uint32_t r = 0;

  /* The table is indexed by (a,b,c) with a as the high bit: ta = 0xf0,
   * tb = 0xcc, tc = 0xaa. */
  for (unsigned i = 0; i < 8; i++)
    if (lut & (1u << i))
      r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}

uint32_t ks_shf_l (uint32_t a, uint32_t b, uint32_t c, bool clamp);
uint32_t ks_shf_r (uint32_t a, uint32_t b, uint32_t c, bool clamp);

/* dp4a.atype.btype d, a, b, c and dp2a.lo/.hi */
uint32_t ks_dp4a (uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed);
uint32_t ks_dp2a (uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool hi);

/* add.sat.s32 / sub.sat.s32 */
int32_t ks_add_sat_s32 (int32_t a, int32_t b);
int32_t ks_sub_sat_s32 (int32_t a, int32_t b);

/* addc/subc/madc with the carry flag (CC.CF) in and out; carry_in and
 * *carry_out are 0 or 1.  For sub, the flag is a borrow: set when the
 * unsigned subtraction wrapped, and consumed as "subtract one more". */
uint64_t ks_addc (uint64_t a, uint64_t b, unsigned carry_in, unsigned *carry_out,
                  unsigned width);
uint64_t ks_subc (uint64_t a, uint64_t b, unsigned borrow_in, unsigned *borrow_out,
                  unsigned width);
/* madc.lo/.hi: (a*b).lo or .hi + c + carry_in. */
uint64_t ks_madc (uint64_t a, uint64_t b, uint64_t c, bool hi, bool is_signed,
                  unsigned carry_in, unsigned *carry_out, unsigned width);

uint64_t ks_abs_s (uint64_t a, unsigned width);
uint64_t ks_neg_s (uint64_t a, unsigned width);
uint64_t ks_min_int (uint64_t a, uint64_t b, unsigned width, bool is_signed);
uint64_t ks_max_int (uint64_t a, uint64_t b, unsigned width, bool is_signed);

/* cnot: 1 if a == 0, else 0. */
static inline uint64_t
ks_cnot (uint64_t a, unsigned width)
{
  return (a & ks_mask (width)) == 0;
}

uint32_t ks_szext (uint32_t a, uint32_t b, bool clamp, bool is_signed);
uint32_t ks_bmsk (uint32_t a, uint32_t b, bool clamp);

G_END_DECLS
