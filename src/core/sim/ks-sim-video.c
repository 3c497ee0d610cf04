/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-video.c: the PTX video instructions (see ks-sim-video.h).
 *
 * What is refused, and why: every form ptxas (CUDA 13) refuses is refused
 * here too, with the reason ptxas gives; so are the few values where the
 * ISA's words allow two results and the choice would show in d:
 *
 * - a scalar .min/.max secondary operation without .sat on a result that
 *   does not fit in 33 bits (the pseudo-code passes the 34-bit result on as
 *   a 33-bit one without saying how);
 * - a vshl result that does not fit in the 34 bits the ISA gives it, where
 *   more than its low 32 bits matter (.sat, .min, .max);
 * - vmad's (u32 * u32) - c with bit 31 of c set, under .sat or a scale,
 *   where the pseudo-code sign-extends c and the prose zero-extends it;
 * - vmad with a negative literal operand under .sat or a scale (the value,
 *   or the negation of its magnitude, which changes the result's sign).
 */

#include <string.h>

#include "ks-sim-video.h"

/* Instruction flags the video instructions take; any other is refused */
#define VIDEO_FLAGS (KS_PTX_FLAG_SAT | KS_PTX_FLAG_CLAMP | KS_PTX_FLAG_WRAP | KS_PTX_FLAG_UNDECODED)

#define FITS(v, bits) ((v) >= -((int64_t) 1 << ((bits) - 1)) && (v) < ((int64_t) 1 << ((bits) - 1)))

static gboolean
is_video_type (uint8_t t)
{
  return t == KS_PTX_TYPE_U32 || t == KS_PTX_TYPE_S32;
}

static gboolean
is_simple_sel (uint32_t sel)
{
  return sel <= KS_PTX_SEL_H1;
}

static uint32_t
sel_of (const KsPtxOperand *op)
{
  return op->kind == KS_PTX_OPERAND_REG ? op->b : KS_PTX_SEL_NONE;
}

/* .hxy / .bxyzw of a SIMD source: the element of {b, a} each lane reads.
 * No selector takes the default (.h10 / .b3210 for a, .h32 / .b7654 for
 * b). */
static gboolean
decode_pick (uint32_t  sel,
             uint32_t  n,
             gboolean  is_b,
             uint8_t   pick[4])
{
  if (n > 4)
    return FALSE;
  if (sel == KS_PTX_SEL_NONE)
    {
      for (uint32_t i = 0; i < n; i++)
        pick[i] = (uint8_t) (i + (is_b ? n : 0));
      return TRUE;
    }
  if ((sel & (n == 2 ? KS_PTX_SEL_HALVES : KS_PTX_SEL_BYTES)) == 0
      || KS_PTX_SEL_N_DIGITS (sel) != n)
    return FALSE;
  for (uint32_t i = 0; i < n; i++)
    {
      pick[i] = (uint8_t) KS_PTX_SEL_DIGIT (sel, i);
      if (pick[i] >= 2 * n)
        return FALSE;
    }
  return TRUE;
}

/* d's mask: .h0, .h1, .h10 for two elements; one to four of .b3 .b2 .b1
 * .b0, in that order, for four.  None writes them all. */
static gboolean
decode_mask (uint32_t  sel,
             uint32_t  n,
             uint8_t  *mask)
{
  uint32_t digits, last = 8;

  if (sel == KS_PTX_SEL_NONE)
    {
      *mask = (uint8_t) ((1u << n) - 1);
      return TRUE;
    }
  if (n == 2 && (sel == KS_PTX_SEL_H0 || sel == KS_PTX_SEL_H1))
    {
      *mask = (uint8_t) (1u << (sel - KS_PTX_SEL_H0));
      return TRUE;
    }
  if (n == 4 && sel >= KS_PTX_SEL_B0 && sel <= KS_PTX_SEL_B3)
    {
      *mask = (uint8_t) (1u << (sel - KS_PTX_SEL_B0));
      return TRUE;
    }
  if ((sel & (n == 2 ? KS_PTX_SEL_HALVES : KS_PTX_SEL_BYTES)) == 0)
    return FALSE;
  digits = KS_PTX_SEL_N_DIGITS (sel);
  *mask = 0;
  /* Digits from the last written: each above the one after it */
  for (uint32_t i = digits; i-- > 0;)
    {
      uint32_t e = KS_PTX_SEL_DIGIT (sel, i);

      if (e >= n || e >= last)
        return FALSE;
      last = e;
      *mask |= (uint8_t) (1u << e);
    }
  return TRUE;
}

static gboolean
has_word (const KsPtxModule *m,
          const KsPtxInsn   *in,
          const char        *word)
{
  const KsPtxExtra *x = in->extra ? &m->extras[in->extra] : NULL;

  for (uint32_t i = 0; x != NULL && i < x->n_words; i++)
    if (ks_ptx_span_equal (m, m->words[x->first_word + i], word))
      return TRUE;
  return FALSE;
}

static uint32_t
n_words (const KsPtxModule *m,
         const KsPtxInsn   *in)
{
  return in->extra ? m->extras[in->extra].n_words : 0;
}

static gboolean
is_negative_literal (const KsPtxOperand *op)
{
  return op->kind == KS_PTX_OPERAND_IMM_INT && ks_ptx_operand_u64 (op) > G_MAXUINT32;
}

static const char *
decode_vmad (const KsPtxModule  *m,
             const KsPtxInsn    *in,
             const KsPtxOperand *ops,
             KsVideoForm        *f)
{
  gboolean neg_a = (ops[1].flags & KS_PTX_OPERAND_NEGATED) != 0;
  gboolean neg_b = (ops[2].flags & KS_PTX_OPERAND_NEGATED) != 0;
  gboolean shr7 = has_word (m, in, "shr7"), shr15 = has_word (m, in, "shr15");

  f->po = has_word (m, in, "po");
  if (n_words (m, in) != (uint32_t) f->po + shr7 + shr15)
    return "with a modifier other than .po, .sat, .shr7 and .shr15";
  if (shr7 && shr15)
    return "with both .shr7 and .shr15";
  if (in->op != KS_PTX_OP_NONE || (in->flags & (KS_PTX_FLAG_CLAMP | KS_PTX_FLAG_WRAP)))
    return "with a secondary operation or a shift mode (it takes neither)";
  if (ops[3].kind == KS_PTX_OPERAND_REG && ops[3].b != KS_PTX_SEL_NONE)
    return "with a part selector on c";
  f->neg_ab = (uint8_t) (neg_a != neg_b);
  f->neg_c = (ops[3].flags & KS_PTX_OPERAND_NEGATED) != 0;
  if ((neg_a || neg_b) && f->neg_c)
    return "with both the product and c negated (ptxas allows one or the other)";
  if (f->po && (neg_a || neg_b || f->neg_c))
    return "with .po and a negated operand";
  f->shift = shr7 ? 7 : shr15 ? 15 : 0;
  if ((f->sat || f->shift)
      && (is_negative_literal (&ops[1]) || is_negative_literal (&ops[2])
          || is_negative_literal (&ops[3])))
    return "with a negative literal operand under .sat or a scale (a value or a negation: "
           "the ISA does not say which)";
  return NULL;
}

const char *
ks_video_decode (const KsPtxModule  *m,
                 const KsPtxInsn    *in,
                 const KsPtxOperand *ops,
                 KsVideoForm        *f)
{
  uint32_t n_types;
  gboolean simd, set;

  g_return_val_if_fail (m != NULL && in != NULL && ops != NULL && f != NULL, "");

  memset (f, 0, sizeof *f);
  switch (in->opcode)
    {
    case KS_PTX_OPC_VADD: f->op = KS_VIDEO_ADD; f->n = 1; break;
    case KS_PTX_OPC_VSUB: f->op = KS_VIDEO_SUB; f->n = 1; break;
    case KS_PTX_OPC_VABSDIFF: f->op = KS_VIDEO_ABSDIFF; f->n = 1; break;
    case KS_PTX_OPC_VMIN: f->op = KS_VIDEO_MIN; f->n = 1; break;
    case KS_PTX_OPC_VMAX: f->op = KS_VIDEO_MAX; f->n = 1; break;
    case KS_PTX_OPC_VSHL: f->op = KS_VIDEO_SHL; f->n = 1; break;
    case KS_PTX_OPC_VSHR: f->op = KS_VIDEO_SHR; f->n = 1; break;
    case KS_PTX_OPC_VMAD: f->op = KS_VIDEO_MAD; f->n = 1; break;
    case KS_PTX_OPC_VSET: f->op = KS_VIDEO_SET; f->n = 1; break;
    case KS_PTX_OPC_VADD2: f->op = KS_VIDEO_ADD; f->n = 2; break;
    case KS_PTX_OPC_VSUB2: f->op = KS_VIDEO_SUB; f->n = 2; break;
    case KS_PTX_OPC_VAVRG2: f->op = KS_VIDEO_AVRG; f->n = 2; break;
    case KS_PTX_OPC_VABSDIFF2: f->op = KS_VIDEO_ABSDIFF; f->n = 2; break;
    case KS_PTX_OPC_VMIN2: f->op = KS_VIDEO_MIN; f->n = 2; break;
    case KS_PTX_OPC_VMAX2: f->op = KS_VIDEO_MAX; f->n = 2; break;
    case KS_PTX_OPC_VSET2: f->op = KS_VIDEO_SET; f->n = 2; break;
    case KS_PTX_OPC_VADD4: f->op = KS_VIDEO_ADD; f->n = 4; break;
    case KS_PTX_OPC_VSUB4: f->op = KS_VIDEO_SUB; f->n = 4; break;
    case KS_PTX_OPC_VAVRG4: f->op = KS_VIDEO_AVRG; f->n = 4; break;
    case KS_PTX_OPC_VABSDIFF4: f->op = KS_VIDEO_ABSDIFF; f->n = 4; break;
    case KS_PTX_OPC_VMIN4: f->op = KS_VIDEO_MIN; f->n = 4; break;
    case KS_PTX_OPC_VMAX4: f->op = KS_VIDEO_MAX; f->n = 4; break;
    case KS_PTX_OPC_VSET4: f->op = KS_VIDEO_SET; f->n = 4; break;
    default: return "(not a video instruction)";
    }
  simd = f->n > 1;
  set = f->op == KS_VIDEO_SET;

  /* Types: .dtype.atype.btype, vset's .atype.btype, each .u32 or .s32 */
  n_types = set ? 2 : 3;
  for (uint32_t i = 0; i < 4; i++)
    if ((i < n_types) != (in->types[i] != KS_PTX_TYPE_NONE)
        || (i < n_types && !is_video_type (in->types[i])))
      return set ? "in this form (it takes .atype.btype, each .u32 or .s32)"
                 : "in this form (it takes .dtype.atype.btype, each .u32 or .s32)";
  f->d_signed = !set && in->types[0] == KS_PTX_TYPE_S32;
  f->a_signed = in->types[set ? 0 : 1] == KS_PTX_TYPE_S32;
  f->b_signed = in->types[set ? 1 : 2] == KS_PTX_TYPE_S32;
  if ((f->op == KS_VIDEO_SHL || f->op == KS_VIDEO_SHR) && f->b_signed)
    return "with a .s32 shift count (it takes .u32)";

  if ((in->flags & ~VIDEO_FLAGS) != 0)
    return "with a modifier it does not take";
  if ((in->flags & KS_PTX_FLAG_UNDECODED) && f->op != KS_VIDEO_MAD)
    return "with a modifier it does not take";
  f->sat = (in->flags & KS_PTX_FLAG_SAT) != 0;
  if (set && f->sat)
    return "with .sat (the comparison's result is 0 or 1)";
  if (f->op == KS_VIDEO_SHL || f->op == KS_VIDEO_SHR)
    {
      gboolean clamp = (in->flags & KS_PTX_FLAG_CLAMP) != 0;

      f->wrap = (in->flags & KS_PTX_FLAG_WRAP) != 0;
      if (clamp == f->wrap)
        return "without exactly one of .clamp and .wrap";
    }
  else if (in->flags & (KS_PTX_FLAG_CLAMP | KS_PTX_FLAG_WRAP))
    return "with .clamp or .wrap (only vshl and vshr take a shift mode)";
  if (set)
    {
      if (in->cmp < KS_PTX_CMP_EQ || in->cmp > KS_PTX_CMP_GE)
        return "with a comparison other than .eq, .ne, .lt, .le, .gt and .ge";
      f->cmp = in->cmp;
    }
  else if (in->cmp != KS_PTX_CMP_NONE)
    return "with a comparison";

  /* Operands: d is a register; a and b registers (scalar forms: or
   * literals); c a register or a literal, with no selector */
  if (in->n_operands != 4 && (simd || f->op == KS_VIDEO_MAD || in->n_operands != 3))
    return simd || f->op == KS_VIDEO_MAD ? "without its four operands d, a, b, c"
                                         : "without three or four operands";
  if (ops[0].kind != KS_PTX_OPERAND_REG || ops[0].aux != KS_PTX_NO_COMPONENT
      || (ops[0].flags & KS_PTX_OPERAND_NEGATED))
    return "with a destination that is not a plain register";
  for (uint32_t i = 1; i < in->n_operands; i++)
    {
      const KsPtxOperand *o = &ops[i];

      if (o->kind != KS_PTX_OPERAND_REG && (simd || o->kind != KS_PTX_OPERAND_IMM_INT))
        return simd ? "with an operand that is not a register"
                    : "with an operand that is not a register or an integer literal";
      if (o->kind == KS_PTX_OPERAND_REG && o->aux != KS_PTX_NO_COMPONENT)
        return "with a vector element operand";
      if ((o->flags & KS_PTX_OPERAND_NEGATED) && f->op != KS_VIDEO_MAD)
        return "with a negated operand (only vmad takes them)";
    }
  if (in->n_operands == 4 && sel_of (&ops[3]) != KS_PTX_SEL_NONE)
    return "with a part selector on c";

  if (f->op == KS_VIDEO_MAD)
    {
      f->asel = (uint8_t) sel_of (&ops[1]);
      f->bsel = (uint8_t) sel_of (&ops[2]);
      if (!is_simple_sel (sel_of (&ops[1])) || !is_simple_sel (sel_of (&ops[2])))
        return "with a SIMD selector (it takes .b0-.b3, .h0, .h1)";
      if (sel_of (&ops[0]) != KS_PTX_SEL_NONE)
        return "with a selector on d (it merges into no part of d)";
      return decode_vmad (m, in, ops, f);
    }

  if (!simd)
    {
      uint32_t dsel = sel_of (&ops[0]);

      if (!is_simple_sel (sel_of (&ops[1])) || !is_simple_sel (sel_of (&ops[2]))
          || !is_simple_sel (dsel))
        return "with a SIMD selector (it takes .b0-.b3, .h0, .h1)";
      f->asel = (uint8_t) sel_of (&ops[1]);
      f->bsel = (uint8_t) sel_of (&ops[2]);
      f->dsel = (uint8_t) dsel;
      switch (in->op)
        {
        case KS_PTX_OP_NONE: f->second = KS_VIDEO_SECOND_NONE; break;
        case KS_PTX_OP_ADD: f->second = KS_VIDEO_SECOND_ADD; break;
        case KS_PTX_OP_MIN: f->second = KS_VIDEO_SECOND_MIN; break;
        case KS_PTX_OP_MAX: f->second = KS_VIDEO_SECOND_MAX; break;
        default: return "with a secondary operation other than .add, .min and .max";
        }
      if (f->second != KS_VIDEO_SECOND_NONE && in->n_operands != 4)
        return "with a secondary operation but no c";
      if (dsel != KS_PTX_SEL_NONE)
        {
          if (f->second != KS_VIDEO_SECOND_NONE)
            return "with both a merge into d.dsel and a secondary operation";
          if (in->n_operands != 4)
            return "with a merge into d.dsel but no c";
          f->second = KS_VIDEO_SECOND_MERGE;
        }
      return NULL;
    }

  /* SIMD */
  if (in->op == KS_PTX_OP_ADD)
    {
      if (f->sat)
        return "with both .sat and .add";
      f->second = KS_VIDEO_SECOND_ADD;
    }
  else if (in->op == KS_PTX_OP_NONE)
    f->second = KS_VIDEO_SECOND_MERGE;
  else
    return "with a secondary operation other than .add";
  if (!decode_pick (sel_of (&ops[1]), f->n, FALSE, f->apick)
      || !decode_pick (sel_of (&ops[2]), f->n, TRUE, f->bpick))
    return f->n == 2 ? "with a source selector other than .hxy (x, y from 0-3)"
                     : "with a source selector other than .bxyzw (x, y, z, w from 0-7)";
  if (!decode_mask (sel_of (&ops[0]), f->n, &f->mask))
    return f->n == 2 ? "with a mask on d other than .h0, .h1 and .h10"
                     : "with a mask on d other than bytes 3 to 0 in that order (.b3210, .b31, ...)";
  return NULL;
}

/* ---- evaluation ------------------------------------------------------------------------ */

/* The ISA's partSelectSignExtend */
static int64_t
part (uint32_t v,
      uint32_t sel,
      gboolean sign)
{
  if (sel >= KS_PTX_SEL_B0 && sel <= KS_PTX_SEL_B3)
    {
      uint32_t b = (v >> ((sel - KS_PTX_SEL_B0) * 8)) & 0xff;

      return sign ? (int64_t) (int8_t) b : (int64_t) b;
    }
  if (sel == KS_PTX_SEL_H0 || sel == KS_PTX_SEL_H1)
    {
      uint32_t h = (v >> ((sel - KS_PTX_SEL_H0) * 16)) & 0xffff;

      return sign ? (int64_t) (int16_t) h : (int64_t) h;
    }
  return sign ? (int64_t) (int32_t) v : (int64_t) v;
}

static int64_t
clamp_bits (int64_t  v,
            int      bits,
            gboolean sign)
{
  int64_t hi = sign ? ((int64_t) 1 << (bits - 1)) - 1 : ((int64_t) 1 << bits) - 1;
  int64_t lo = sign ? -((int64_t) 1 << (bits - 1)) : 0;

  return CLAMP (v, lo, hi);
}

static gboolean
compare (int64_t a,
         int64_t b,
         uint8_t cmp)
{
  switch (cmp)
    {
    case KS_PTX_CMP_EQ: return a == b;
    case KS_PTX_CMP_NE: return a != b;
    case KS_PTX_CMP_LT: return a < b;
    case KS_PTX_CMP_LE: return a <= b;
    case KS_PTX_CMP_GT: return a > b;
    default: return a >= b;
    }
}

/* The primary operation on two extended values (not the shifts) */
static int64_t
primary (const KsVideoForm *f,
         int64_t            a,
         int64_t            b)
{
  switch (f->op)
    {
    case KS_VIDEO_ADD: return a + b;
    case KS_VIDEO_SUB: return a - b;
    case KS_VIDEO_ABSDIFF: return a > b ? a - b : b - a;
    case KS_VIDEO_MIN: return MIN (a, b);
    case KS_VIDEO_MAX: return MAX (a, b);
    case KS_VIDEO_SET: return compare (a, b, f->cmp);
    case KS_VIDEO_AVRG:
      /* Rounds half away from zero: (s + 1) >> 1 for s >= 0, s >> 1 below */
      return a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;
    default: g_assert_not_reached ();
    }
}

/* A SIMD element of w bits, sign- or zero-extended */
static int64_t
elem (uint32_t v,
      uint32_t w,
      gboolean sign)
{
  if (!sign)
    return v;
  return w == 8 ? (int64_t) (int8_t) v : (int64_t) (int16_t) v;
}

static uint32_t
eval_simd (const KsVideoForm *f,
           uint32_t           a,
           uint32_t           b,
           uint32_t           c)
{
  uint64_t ba = (uint64_t) b << 32 | a;
  uint32_t w = 32 / f->n, emask = (1u << w) - 1;
  uint32_t d = f->second == KS_VIDEO_SECOND_ADD ? c : 0;

  for (uint32_t i = 0; i < f->n; i++)
    {
      uint32_t ea = (uint32_t) (ba >> (f->apick[i] * w)) & emask;
      uint32_t eb = (uint32_t) (ba >> (f->bpick[i] * w)) & emask;
      int64_t va = elem (ea, w, f->a_signed);
      int64_t vb = elem (eb, w, f->b_signed);
      int64_t t = primary (f, va, vb);
      gboolean on = (f->mask >> i) & 1;

      if (f->sat)
        t = clamp_bits (t, (int) w, f->d_signed);
      if (f->second == KS_VIDEO_SECOND_ADD)
        d += on ? (uint32_t) t : 0;
      else
        d |= on ? ((uint32_t) t & emask) << (i * w) : c & (emask << (i * w));
    }
  return d;
}

static gboolean
eval_vmad (const KsVideoForm *f,
           uint32_t           a,
           uint32_t           b,
           uint32_t           c,
           uint32_t          *d,
           const char       **why)
{
  gboolean product_signed = f->a_signed || f->b_signed || f->neg_ab;
  gboolean final_signed = product_signed || f->neg_c;
  __int128 t = (__int128) part (a, f->asel, f->a_signed) * part (b, f->bsel, f->b_signed);
  __int128 cc;
  uint32_t cw = c;
  int lsb = 0;

  if (f->po)
    lsb = 1;
  else if (f->neg_ab)
    {
      t = ~t;
      lsb = 1;
    }
  else if (f->neg_c)
    {
      cw = ~c;
      lsb = 1;
    }
  if (!product_signed && f->neg_c && (c & 0x80000000u) && (f->sat || f->shift))
    {
      *why = "where (u32 * u32) - c has bit 31 of c set under .sat or a scale (the ISA's "
             "pseudo-code sign-extends c, its prose zero-extends it)";
      return FALSE;
    }
  cc = final_signed ? (__int128) (int32_t) cw : (__int128) cw;
  t = t + cc + lsb;
  t >>= f->shift;               /* arithmetic: t is signed whenever it can be negative */
  if (f->sat)
    t = final_signed ? CLAMP (t, (__int128) G_MININT32, (__int128) G_MAXINT32)
                     : CLAMP (t, (__int128) 0, (__int128) G_MAXUINT32);
  *d = (uint32_t) t;
  return TRUE;
}

gboolean
ks_video_eval (const KsVideoForm  *f,
               uint32_t            a,
               uint32_t            b,
               uint32_t            c,
               uint32_t           *d,
               const char        **why)
{
  int64_t ta, tb, t, cc;
  gboolean shl_fits = TRUE;
  uint32_t r;

  g_return_val_if_fail (f != NULL && d != NULL && why != NULL, FALSE);

  *why = NULL;
  if (f->n > 1)
    {
      *d = eval_simd (f, a, b, c);
      return TRUE;
    }
  if (f->op == KS_VIDEO_MAD)
    return eval_vmad (f, a, b, c, d, why);

  ta = part (a, f->asel, f->a_signed);
  tb = part (b, f->bsel, f->op == KS_VIDEO_SHL || f->op == KS_VIDEO_SHR ? FALSE : f->b_signed);
  if (f->op == KS_VIDEO_SHL || f->op == KS_VIDEO_SHR)
    {
      if (f->wrap)
        tb &= 0x1f;
      else if (tb > 32)
        tb = 32;
      if (f->op == KS_VIDEO_SHR)
        t = ta >> tb;           /* ta is sign- or zero-extended: arithmetic or logical */
      else
        {
          /* ta has 33 bits and tb is at most 32: the exact shift fits in
           * 128 bits, and in 64 whenever it fits in 34 */
          __int128 wide = (__int128) ta * ((__int128) 1 << tb);

          shl_fits = wide >= -((__int128) 1 << 33) && wide < ((__int128) 1 << 33);
          t = (int64_t) (uint64_t) wide;
        }
    }
  else
    t = primary (f, ta, tb);

  if (f->sat)
    {
      int bits = f->dsel == KS_PTX_SEL_NONE ? 32 : f->dsel <= KS_PTX_SEL_B3 ? 8 : 16;

      if (!shl_fits)
        {
          *why = "where the shifted value does not fit in the 34 bits of the ISA's "
                 "intermediate result, under .sat";
          return FALSE;
        }
      t = clamp_bits (t, bits, f->d_signed);
    }

  switch (f->second)
    {
    case KS_VIDEO_SECOND_ADD:
      r = (uint32_t) t + c;
      break;
    case KS_VIDEO_SECOND_MIN:
    case KS_VIDEO_SECOND_MAX:
      if (!shl_fits || !FITS (t, 33))
        {
          *why = "where the result before .min or .max does not fit in 33 bits (the ISA "
                 "does not say how it is narrowed to the 33 bits of its secondary operation)";
          return FALSE;
        }
      /* vset's result and c are unsigned; otherwise c is read as d's type */
      cc = f->d_signed ? (int64_t) (int32_t) c : (int64_t) c;
      r = (uint32_t) (f->second == KS_VIDEO_SECOND_MIN ? MIN (t, cc) : MAX (t, cc));
      break;
    case KS_VIDEO_SECOND_MERGE:
      if (f->dsel <= KS_PTX_SEL_B3)
        {
          uint32_t at = (f->dsel - KS_PTX_SEL_B0) * 8;

          r = ((uint32_t) t & 0xff) << at | (c & ~(0xffu << at));
        }
      else
        {
          uint32_t at = (f->dsel - KS_PTX_SEL_H0) * 16;

          r = ((uint32_t) t & 0xffff) << at | (c & ~(0xffffu << at));
        }
      break;
    default:
      r = (uint32_t) t;
      break;
    }
  *d = r;
  return TRUE;
}
