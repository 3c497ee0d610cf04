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
  KS_FAST_SHR,
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
} KsFastKind;

struct _KsFastInsn
{
  uint8_t kind;                 /* KsFastKind */
  uint8_t width;                /* bits of the instruction's type */
  uint8_t is_signed;
  uint8_t cmp;                  /* KsPtxCmp for SETP */
  uint8_t mode[3];              /* each source: a register or an immediate */
  uint8_t pred_not;
  uint8_t src_signed, src_width;        /* CVT_INT */
  uint32_t dst;                 /* register slot (predicate slot for SETP) */
  uint32_t src[3];              /* register slots */
  uint32_t pred;                /* SELP's predicate */
  uint32_t addr;                /* LD/ST: the address register */
  int32_t offset;                /* LD/ST offset; SREG: the register; CVTA: unused */
  uint64_t imm[3];              /* CVTA: imm[2] is the amount added */              /* immediates, in the instruction's type */
};

void  ks_sim_fast_decode (KsSim            *sim);
void  ks_sim_fast_exec   (KsSim            *sim,
                          KsSimWarp        *w,
                          const KsPtxInsn  *in,
                          const KsFastInsn *f,
                          uint32_t          exec);

G_END_DECLS
