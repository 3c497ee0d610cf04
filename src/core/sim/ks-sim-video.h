/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-video.h: the PTX video instructions.
 *
 * The scalar ones (vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad,
 * vset) and the SIMD ones on two half-words (vadd2, vsub2, vavrg2,
 * vabsdiff2, vmin2, vmax2, vset2) or four bytes (vadd4 ... vset4), as the
 * PTX ISA's pseudo-code ("Scalar Video Instructions", "SIMD Video
 * Instructions") defines them, with its types taken at their word:
 *
 * - Scalar: the selected parts of a and b are extended to 33 bits, the
 *   operation gives a 34-bit result, .sat clamps it to the range of d's
 *   type or of the part d.dsel merges into, then comes the secondary
 *   .add/.min/.max with c (extended to 33 bits by d's type; vset's result
 *   and c are unsigned) or the merge into d.dsel, and d is the low 32 bits.
 * - vmad: a 128-bit product and sum, negation as "invert and carry one in",
 *   c extended by the final result's sign (the pseudo-code's sext32/zext;
 *   the ISA's prose says by the product's, which differs only for
 *   (u32 * u32) - c with bit 31 of c set), .shr7/.shr15 arithmetic for a
 *   signed result, and .sat to the final result's 32-bit range.  The
 *   pseudo-code reads no .dtype, and neither does this.
 * - SIMD: each element picked from the 8 bytes or 4 half-words of {b, a}
 *   by .asel/.bsel, .sat to the element's range, then either the merge
 *   (d's elements in .mask from the results, the others from c) or the
 *   accumulate (.add: c plus the masked results, signed, to 32 bits).
 *
 * ks_video_decode checks an instruction against what ptxas accepts and
 * refuses the rest with a reason, so that the executor stops with an
 * `unsupported` fault rather than guess; ks_video_eval likewise refuses
 * the few values for which the ISA's words allow two results (listed in
 * ks-sim-video.c). */
#pragma once

#include <stdint.h>

#include <glib.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

typedef enum
{
  KS_VIDEO_ADD, KS_VIDEO_SUB, KS_VIDEO_ABSDIFF, KS_VIDEO_MIN, KS_VIDEO_MAX, KS_VIDEO_AVRG,
  KS_VIDEO_SHL, KS_VIDEO_SHR, KS_VIDEO_MAD, KS_VIDEO_SET,
} KsVideoOp;

typedef enum
{
  KS_VIDEO_SECOND_NONE,
  KS_VIDEO_SECOND_ADD,          /* scalar .add; SIMD accumulate */
  KS_VIDEO_SECOND_MIN,
  KS_VIDEO_SECOND_MAX,
  KS_VIDEO_SECOND_MERGE,        /* scalar d.dsel; SIMD merge through the mask */
} KsVideoSecond;

typedef struct
{
  uint8_t op;                   /* KsVideoOp */
  uint8_t n;                    /* elements: 1 (scalar), 2 (half-words), 4 (bytes) */
  uint8_t d_signed, a_signed, b_signed;
  uint8_t sat;
  uint8_t second;               /* KsVideoSecond */
  uint8_t cmp;                  /* KsPtxCmp: vset's comparison */
  uint8_t wrap;                 /* vshl/vshr: .wrap rather than .clamp */
  /* Scalar: the part of a, b and d (the merge) as KS_PTX_SEL_NONE..H1 */
  uint8_t asel, bsel, dsel;
  /* SIMD: element i of a and b is element pick[i] of {b, a} */
  uint8_t apick[4], bpick[4];
  uint8_t mask;                 /* SIMD: bit i set when element i of d is written */
  /* vmad */
  uint8_t po, neg_ab, neg_c, shift;
} KsVideoForm;

/* Decodes instruction @in of module @m, whose operands are @ops (d, a, b
 * and c), into @form.  NULL when the simulator runs it; otherwise the form
 * it does not run, worded to follow the instruction's name ("with ..."). */
const char *ks_video_decode (const KsPtxModule  *m,
                             const KsPtxInsn    *in,
                             const KsPtxOperand *ops,
                             KsVideoForm        *form);

/* The 32 bits written to d, from the values of a, b and c (0 when there
 * is no c).  FALSE, with *why set to the reason (worded as ks_video_decode's),
 * for values whose result the ISA leaves open. */
gboolean    ks_video_eval   (const KsVideoForm  *form,
                             uint32_t            a,
                             uint32_t            b,
                             uint32_t            c,
                             uint32_t           *d,
                             const char        **why);

G_END_DECLS
