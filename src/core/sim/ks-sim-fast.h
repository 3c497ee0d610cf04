/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-fast.h: common instructions decoded for lane loops. */
#pragma once

#include "ks-sim-private.h"

G_BEGIN_DECLS

typedef enum
{
  KS_FAST_NONE = 0,             /* run by the general executor */
  KS_FAST_MOV,
  KS_FAST_ADD,
  KS_FAST_SUB,
  KS_FAST_MUL_LO,
  KS_FAST_MUL_WIDE,
  KS_FAST_MAD_LO,
  KS_FAST_MAD_WIDE,
  KS_FAST_AND,
  KS_FAST_OR,
  KS_FAST_XOR,
  KS_FAST_SHL,
  KS_FAST_SHR_U32,
  KS_FAST_SHR_U64,
  KS_FAST_SHR_S32,
  KS_FAST_SHR_S64,
  KS_FAST_SETP,
  KS_FAST_SELP,
  KS_FAST_CVT_INT,
  KS_FAST_FADD,
  KS_FAST_FSUB,
  KS_FAST_FMUL,
  KS_FAST_FFMA,
  KS_FAST_LD,
  KS_FAST_ST,
  KS_FAST_LD_SHARED,
  KS_FAST_ST_SHARED,
  KS_FAST_LD_PARAM,             /* a kernel parameter: the same for every lane */
  KS_FAST_SREG,                 /* %tid, %ntid, %ctaid, %nctaid, %laneid */
  KS_FAST_CVTA,                 /* add (or subtract) a window's base */
  KS_FAST_PRED_AND,             /* and/or/xor/not/mov on predicates */
  KS_FAST_PRED_OR,
  KS_FAST_PRED_XOR,
  KS_FAST_PRED_MOV,             /* not.pred is a mov of the negated source */
  KS_FAST_BRA,                  /* a branch to a label, when the warp does not split */
} KsFastKind;

/* SETP's comparisons, once GT, GE, HI and HS have had their operands
 * swapped; KsFastInsn.signed_cmp says whether the order is signed */
typedef enum
{
  KS_FAST_CMP_EQ = 0,
  KS_FAST_CMP_NE,
  KS_FAST_CMP_LT,
  KS_FAST_CMP_LE,
} KsFastCmp;

struct _KsFastInsn
{
  uint8_t kind;                 /* KsFastKind */
  uint8_t cmp;                  /* SETP: KsFastCmp; SREG: the component */
  uint8_t size;                 /* LD/ST: bytes; LD_PARAM too */
  uint8_t sign;                 /* loads: sign-extend a 4-byte value */
  uint8_t guard_not;            /* @!p */
  uint8_t not_a, not_b;         /* predicate sources negated (SELP: not_a is its predicate's) */
  uint8_t width;                /* bits of the instruction's type */
  uint8_t signed_cmp;           /* SETP: compares in the signed order */
  uint32_t guard;               /* the guard predicate's slot, or KS_PTX_NONE */
  uint32_t dst;                 /* register slot (predicate slot for SETP and predicate ops) */
  uint32_t src[3];              /* register slots (predicate slots for predicate ops) */
  uint32_t pred;                /* SELP's predicate */
  uint32_t addr;                /* LD/ST: the address register */
  int32_t offset;               /* LD/ST: the offset; LD_PARAM: the bank offset; SREG: the register;
                                 * BRA: the target */
  /* The destination's width and signedness as one formula, so that the
   * lane loops have no branch: fit (v) = ((v & fit_mask) ^ fit_sign) - fit_sign
   * truncates to 32 bits and zero- or sign-extends, or keeps 64 bits. */
  uint64_t fit_mask, fit_sign;
  uint64_t src_mask, src_sign;  /* CVT_INT: the same for the source */
  uint64_t add;                 /* CVTA: the amount added */
  /* Immediate sources spread over 32 lanes (rows of KsSim.fast_imm), or
   * NULL where src[i] is a register */
  const uint64_t *row[3];
};

void      ks_sim_fast_decode (KsSim            *sim);
/* Runs the warp's next instructions while they have fast forms and its
 * path neither splits nor ends, at most max of them, with their counters
 * and trace events.  Stops after an instruction that faults or brings the
 * path to its reconvergence point (the caller settles the warp then).
 * Returns how many ran: 0 when the next one needs the general executor. */
uint32_t  ks_sim_fast_run    (KsSim            *sim,
                              KsSimWarp        *w,
                              uint32_t          max);

G_END_DECLS
