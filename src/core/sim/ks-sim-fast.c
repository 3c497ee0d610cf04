/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-fast.c: the common instructions, decoded once into a form that
 * runs as straight loops over a warp's 32 lanes.
 *
 * The general executor (ks-sim-exec.c) reads each operand of each lane
 * through a switch on its kind, which is right for every form PTX has but
 * costs a hundred instructions per lane.  The instructions that make up
 * most kernels (integer arithmetic and address computation, comparisons,
 * selects, single-precision arithmetic in round-to-nearest, 32- and 64-bit
 * loads and stores) are recognised here when the simulation starts, with
 * their immediates converted once, and run as loops the compiler can
 * vectorise when all lanes are active.  Everything else falls back to the
 * general executor, which stays the reference: the tests run the same
 * kernels through both. */

#include <math.h>
#include <string.h>

#include "ks-sim-exec.h"
#include "ks-sim-fast.h"

/* Source operand modes */
enum
{
  SRC_REG = 0,
  SRC_IMM,
};

static gboolean
is_int_type (KsPtxType t,
             uint32_t  size)
{
  return ks_ptx_type_size (t) == size
         && ((t >= KS_PTX_TYPE_B8 && t <= KS_PTX_TYPE_B64)
             || (t >= KS_PTX_TYPE_U8 && t <= KS_PTX_TYPE_S64));
}

static gboolean
signed_type (KsPtxType t)
{
  return t >= KS_PTX_TYPE_S8 && t <= KS_PTX_TYPE_S64;
}

/* A source operand a fast form can take: a register, or an integer or
 * float immediate converted to the instruction's type. */
static gboolean
decode_src (const KsPtxModule *m,
            const KsPtxOperand *op,
            KsPtxType           t,
            uint8_t            *mode,
            uint32_t           *slot,
            uint64_t           *imm)
{
  uint32_t size = ks_ptx_type_size (t);
  uint64_t mask = size >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (size * 8)) - 1;

  switch (op->kind)
    {
    case KS_PTX_OPERAND_REG:
      if (op->flags & KS_PTX_OPERAND_NEGATED)
        return FALSE;
      *mode = SRC_REG;
      *slot = op->a;
      return TRUE;
    case KS_PTX_OPERAND_IMM_INT:
      if (t == KS_PTX_TYPE_F32 || t == KS_PTX_TYPE_F64)
        return FALSE;
      *mode = SRC_IMM;
      *imm = ks_ptx_operand_u64 (op) & mask;
      if (signed_type (t))
        *imm = (uint64_t) (size == 4 ? (int64_t) (int32_t) *imm : (int64_t) *imm);
      return TRUE;
    case KS_PTX_OPERAND_IMM_F32:
      if (t != KS_PTX_TYPE_F32 && !(size == 4 && t != KS_PTX_TYPE_F64))
        return FALSE;
      *mode = SRC_IMM;
      *imm = op->a;
      return TRUE;
    case KS_PTX_OPERAND_IMM_F64:
      if (t == KS_PTX_TYPE_F32)
        {
          *mode = SRC_IMM;
          *imm = ks_f32_to_bits ((float) ks_f64_from_bits (ks_ptx_operand_u64 (op)));
          return TRUE;
        }
      if (t == KS_PTX_TYPE_F64)
        {
          *mode = SRC_IMM;
          *imm = ks_ptx_operand_u64 (op);
          return TRUE;
        }
      return FALSE;
    default:
      (void) m;
      return FALSE;
    }
}

static gboolean
decode_srcs (const KsPtxModule *m,
             const KsPtxInsn   *in,
             KsFastInsn        *f,
             uint32_t           first,
             uint32_t           n,
             KsPtxType          t)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

  if (in->n_operands != first + n)
    return FALSE;
  for (uint32_t i = 0; i < n; i++)
    if (!decode_src (m, &ops[first + i], t, &f->mode[i], &f->src[i], &f->imm[i]))
      return FALSE;
  return TRUE;
}

static gboolean
decode_dst_reg (const KsPtxModule *m,
                const KsPtxInsn   *in,
                KsFastInsn        *f)
{
  const KsPtxOperand *d = ks_ptx_insn_operands (m, in);

  if (in->n_operands == 0 || d->kind != KS_PTX_OPERAND_REG)
    return FALSE;
  f->dst = d->a;
  return TRUE;
}

static void
decode_one (const KsSim     *sim,
            const KsPtxInsn *in,
            KsFastInsn      *f)
{
  const KsPtxModule *m = sim->module;
  KsPtxType t = (KsPtxType) in->types[0];
  uint32_t size = ks_ptx_type_size (t);
  uint64_t plain_mask = ~(KS_PTX_FLAG_UNDECODED);
  uint64_t flags = in->flags & plain_mask;

  f->kind = KS_FAST_NONE;
  f->is_signed = signed_type (t);
  f->width = (uint8_t) (size * 8);

  switch (in->opcode)
    {
    case KS_PTX_OPC_MOV:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if (flags == 0 && size == 4 && in->n_operands == 2 && ops[1].kind == KS_PTX_OPERAND_SREG
            && (ops[1].a == KS_PTX_SREG_TID || ops[1].a == KS_PTX_SREG_NTID
                || ops[1].a == KS_PTX_SREG_CTAID || ops[1].a == KS_PTX_SREG_NCTAID
                || ops[1].a == KS_PTX_SREG_LANEID)
            && (ops[1].aux < 3 || ops[1].aux == KS_PTX_NO_COMPONENT) && decode_dst_reg (m, in, f))
          {
            f->offset = (int32_t) ops[1].a;
            f->cmp = ops[1].aux == KS_PTX_NO_COMPONENT ? 0 : (uint8_t) ops[1].aux;
            f->kind = KS_FAST_SREG;
          }
        else if (flags == 0 && (size == 4 || size == 8) && t != KS_PTX_TYPE_PRED
                 && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 1, t))
          f->kind = KS_FAST_MOV;
      }
      break;

    case KS_PTX_OPC_ADD:
    case KS_PTX_OPC_SUB:
      if (t == KS_PTX_TYPE_F32 && (flags & ~KS_PTX_FLAG_SAT & ~KS_PTX_FLAG_FTZ) == 0
          && (in->round == KS_PTX_ROUND_NONE || in->round == KS_PTX_ROUND_RN)
          && !(flags & (KS_PTX_FLAG_SAT | KS_PTX_FLAG_FTZ))
          && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 2, t))
        f->kind = in->opcode == KS_PTX_OPC_ADD ? KS_FAST_FADD : KS_FAST_FSUB;
      else if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0
               && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 2, t))
        f->kind = in->opcode == KS_PTX_OPC_ADD ? KS_FAST_ADD : KS_FAST_SUB;
      break;

    case KS_PTX_OPC_MUL:
      if (t == KS_PTX_TYPE_F32 && flags == 0
          && (in->round == KS_PTX_ROUND_NONE || in->round == KS_PTX_ROUND_RN)
          && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 2, t))
        f->kind = KS_FAST_FMUL;
      else if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == KS_PTX_FLAG_LO
               && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 2, t))
        f->kind = KS_FAST_MUL_LO;
      else if (is_int_type (t, 4) && flags == KS_PTX_FLAG_WIDE
               && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 2, t))
        f->kind = KS_FAST_MUL_WIDE;
      break;

    case KS_PTX_OPC_MAD:
    case KS_PTX_OPC_FMA:
      if (t == KS_PTX_TYPE_F32 && flags == 0 && in->round == KS_PTX_ROUND_RN
          && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 3, t))
        f->kind = KS_FAST_FFMA;
      else if (in->opcode == KS_PTX_OPC_MAD && (is_int_type (t, 4) || is_int_type (t, 8))
               && flags == KS_PTX_FLAG_LO
               && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 3, t))
        f->kind = KS_FAST_MAD_LO;
      else if (in->opcode == KS_PTX_OPC_MAD && is_int_type (t, 4) && flags == KS_PTX_FLAG_WIDE
               && in->n_operands == 4 && decode_dst_reg (m, in, f))
        {
          /* the addend is 64-bit */
          const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

          if (decode_src (m, &ops[1], t, &f->mode[0], &f->src[0], &f->imm[0])
              && decode_src (m, &ops[2], t, &f->mode[1], &f->src[1], &f->imm[1])
              && decode_src (m, &ops[3], f->is_signed ? KS_PTX_TYPE_S64 : KS_PTX_TYPE_U64,
                             &f->mode[2], &f->src[2], &f->imm[2]))
            f->kind = KS_FAST_MAD_WIDE;
        }
      break;

    case KS_PTX_OPC_AND:
    case KS_PTX_OPC_OR:
    case KS_PTX_OPC_XOR:
      if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0
          && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 2, t))
        f->kind = in->opcode == KS_PTX_OPC_AND ? KS_FAST_AND
                  : in->opcode == KS_PTX_OPC_OR ? KS_FAST_OR : KS_FAST_XOR;
      break;

    case KS_PTX_OPC_SHL:
    case KS_PTX_OPC_SHR:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0 && in->n_operands == 3
            && decode_dst_reg (m, in, f)
            && decode_src (m, &ops[1], t, &f->mode[0], &f->src[0], &f->imm[0])
            && decode_src (m, &ops[2], KS_PTX_TYPE_U32, &f->mode[1], &f->src[1], &f->imm[1]))
          f->kind = in->opcode == KS_PTX_OPC_SHL ? KS_FAST_SHL : KS_FAST_SHR;
      }
      break;

    case KS_PTX_OPC_SETP:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0 && in->op == KS_PTX_OP_NONE
            && in->n_operands == 3 && ops[0].kind == KS_PTX_OPERAND_PRED
            && in->cmp >= KS_PTX_CMP_EQ && in->cmp <= KS_PTX_CMP_HS
            && decode_srcs (m, in, f, 1, 2, t))
          {
            f->dst = ops[0].a;
            f->cmp = in->cmp;
            f->kind = KS_FAST_SETP;
          }
      }
      break;

    case KS_PTX_OPC_SELP:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if ((size == 4 || size == 8) && in->n_operands == 4 && ops[3].kind == KS_PTX_OPERAND_PRED
            && decode_dst_reg (m, in, f))
          {
            if (decode_src (m, &ops[1], t, &f->mode[0], &f->src[0], &f->imm[0])
                && decode_src (m, &ops[2], t, &f->mode[1], &f->src[1], &f->imm[1]))
              {
                f->pred = ops[3].a;
                f->pred_not = (ops[3].flags & KS_PTX_OPERAND_NOT) != 0;
                f->kind = KS_FAST_SELP;
              }
          }
      }
      break;

    case KS_PTX_OPC_CVT:
      {
        KsPtxType st = (KsPtxType) in->types[1];

        /* integer widening and narrowing between 32 and 64 bits */
        if (flags == 0 && in->round == KS_PTX_ROUND_NONE
            && (is_int_type (t, 4) || is_int_type (t, 8))
            && (is_int_type (st, 4) || is_int_type (st, 8))
            && decode_dst_reg (m, in, f) && decode_srcs (m, in, f, 1, 1, st))
          {
            f->kind = KS_FAST_CVT_INT;
            f->src_signed = signed_type (st);
            f->src_width = (uint8_t) (ks_ptx_type_size (st) * 8);
          }
      }
      break;

    case KS_PTX_OPC_CVTA:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);
        uint64_t base = 0;

        switch (in->space)
          {
          case KS_PTX_SPACE_SHARED: base = KS_SIM_SHARED_WINDOW; break;
          case KS_PTX_SPACE_LOCAL: base = KS_SIM_LOCAL_WINDOW; break;
          case KS_PTX_SPACE_PARAM: base = KS_SIM_PARAM_WINDOW; break;
          case KS_PTX_SPACE_GLOBAL: case KS_PTX_SPACE_CONST: base = 0; break;
          default: return;
          }
        if (size == 8 && in->n_operands == 2 && ops[1].kind == KS_PTX_OPERAND_REG
            && (flags & ~KS_PTX_FLAG_TO) == 0 && decode_dst_reg (m, in, f))
          {
            f->mode[0] = SRC_REG;
            f->src[0] = ops[1].a;
            f->imm[2] = (flags & KS_PTX_FLAG_TO) ? (uint64_t) 0 - base : base;
            f->kind = KS_FAST_CVTA;
          }
      }
      break;

    case KS_PTX_OPC_LD:
    case KS_PTX_OPC_ST:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);
        const KsPtxOperand *addr = &ops[in->opcode == KS_PTX_OPC_LD ? 1 : 0];
        const KsPtxOperand *val = &ops[in->opcode == KS_PTX_OPC_LD ? 0 : 1];

        /* ld.param of a kernel parameter: one value for the whole warp */
        if (in->opcode == KS_PTX_OPC_LD && in->space == KS_PTX_SPACE_PARAM && in->n_operands == 2
            && in->vec == KS_PTX_VEC_NONE && (size == 4 || size == 8)
            && ops[0].kind == KS_PTX_OPERAND_REG && ops[1].kind == KS_PTX_OPERAND_ADDRESS
            && ops[1].aux == KS_PTX_ADDRESS_VAR && !(ops[1].flags & KS_PTX_OPERAND_BIG_OFFSET))
          {
            const KsPtxVar *v = &m->vars[ops[1].a];
            int64_t off = (int64_t) sim->var_addr[ops[1].a] + (int32_t) ops[1].b;

            if (v->function == sim->entry && (v->flags & KS_PTX_VAR_PARAM)
                && off >= 0 && (uint64_t) off + size <= sim->param_bank_size && (off & (size - 1)) == 0)
              {
                f->dst = ops[0].a;
                f->offset = (int32_t) off;
                f->kind = KS_FAST_LD_PARAM;
              }
            break;
          }
        if (in->n_operands != 2 || in->vec != KS_PTX_VEC_NONE || !(size == 4 || size == 8)
            || (in->space != KS_PTX_SPACE_GLOBAL && in->space != KS_PTX_SPACE_NONE
                && in->space != KS_PTX_SPACE_SHARED)
            || addr->kind != KS_PTX_OPERAND_ADDRESS || addr->aux != KS_PTX_ADDRESS_REG
            || (addr->flags & KS_PTX_OPERAND_BIG_OFFSET) || val->kind != KS_PTX_OPERAND_REG)
          break;
        f->addr = addr->a;
        f->offset = (int32_t) addr->b;
        f->dst = val->a;
        if (in->space == KS_PTX_SPACE_SHARED)
          f->kind = in->opcode == KS_PTX_OPC_LD ? KS_FAST_LD_SHARED : KS_FAST_ST_SHARED;
        else
          f->kind = in->opcode == KS_PTX_OPC_LD ? KS_FAST_LD : KS_FAST_ST;
      }
      break;

    default:
      break;
    }
}

void
ks_sim_fast_decode (KsSim *sim)
{
  const KsPtxModule *m = sim->module;

  sim->fast = g_new0 (KsFastInsn, MAX (m->n_insns, 1));
  for (uint32_t i = 0; i < m->n_insns; i++)
    decode_one (sim, &m->insns[i], &sim->fast[i]);
}

/* ---- execution ---------------------------------------------------------- */

/* The lanes of a source: its register row, or the immediate spread out */
static inline const uint64_t *
lanes_of (const KsSimFrame *fr,
          const KsFastInsn *f,
          int               i,
          uint64_t         *scratch)
{
  if (f->mode[i] == SRC_REG)
    return fr->regs + (size_t) f->src[i] * KS_WARP_SIZE;
  for (int l = 0; l < KS_WARP_SIZE; l++)
    scratch[l] = f->imm[i];
  return scratch;
}

/* Writes r to the lanes of exec; with all lanes active this is a plain
 * loop the compiler vectorises. */
#define APPLY(exec, d, expr) \
  do { \
    if ((exec) == KS_FULL_MASK) \
      for (uint32_t l = 0; l < KS_WARP_SIZE; l++) \
        (d)[l] = (expr); \
    else \
      LANES ((exec), l) \
        (d)[l] = (expr); \
  } while (0)

static inline uint64_t
fit (uint64_t v,
     int      width,
     gboolean s)
{
  if (width == 64)
    return v;
  return s ? (uint64_t) (int64_t) (int32_t) v : (uint64_t) (uint32_t) v;
}

static inline float
f32_of (uint64_t v)
{
  float x;
  uint32_t u = (uint32_t) v;

  memcpy (&x, &u, 4);
  return x;
}

static inline uint64_t
bits_of (float x)
{
  uint32_t u;

  /* NaN results of single precision arithmetic are the canonical NaN */
  if (x != x)
    return 0x7fffffffu;
  memcpy (&u, &x, 4);
  return u;
}

static gboolean
compare (uint8_t  cmp,
         uint64_t a,
         uint64_t b,
         gboolean s)
{
  int64_t sa = (int64_t) a, sb = (int64_t) b;

  switch (cmp)
    {
    case KS_PTX_CMP_EQ: return a == b;
    case KS_PTX_CMP_NE: return a != b;
    case KS_PTX_CMP_LT: return s ? sa < sb : a < b;
    case KS_PTX_CMP_LE: return s ? sa <= sb : a <= b;
    case KS_PTX_CMP_GT: return s ? sa > sb : a > b;
    case KS_PTX_CMP_GE: return s ? sa >= sb : a >= b;
    case KS_PTX_CMP_LO: return a < b;
    case KS_PTX_CMP_LS: return a <= b;
    case KS_PTX_CMP_HI: return a > b;
    case KS_PTX_CMP_HS: return a >= b;
    default: return FALSE;
    }
}

/* A lane's load or store of 4 or 8 bytes between memory and its register */
static inline void
move_value (uint8_t  *p,
            uint64_t *reg,
            uint32_t  size,
            gboolean  store,
            gboolean  sign_extend)
{
  if (store)
    memcpy (p, reg, size);
  else if (size == 4)
    {
      uint32_t v;

      memcpy (&v, p, 4);
      *reg = sign_extend ? (uint64_t) (int64_t) (int32_t) v : v;
    }
  else
    memcpy (reg, p, 8);
}

void
ks_sim_fast_exec (KsSim            *sim,
                  KsSimWarp        *w,
                  const KsPtxInsn  *in,
                  const KsFastInsn *f,
                  uint32_t          exec)
{
  KsSimFrame *fr = &w->frames[w->n_frames - 1];
  uint64_t *d = fr->regs + (size_t) f->dst * KS_WARP_SIZE;
  uint64_t s0[KS_WARP_SIZE], s1[KS_WARP_SIZE], s2[KS_WARP_SIZE];
  const uint64_t *a, *b, *c;
  int width = f->width;
  gboolean sg = f->is_signed;

  switch ((KsFastKind) f->kind)
    {
    case KS_FAST_MOV:
      a = lanes_of (fr, f, 0, s0);
      APPLY (exec, d, fit (a[l], width, FALSE));
      break;
    case KS_FAST_ADD:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, fit (a[l] + b[l], width, sg));
      break;
    case KS_FAST_SUB:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, fit (a[l] - b[l], width, sg));
      break;
    case KS_FAST_MUL_LO:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, fit (a[l] * b[l], width, sg));
      break;
    case KS_FAST_MUL_WIDE:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      if (sg)
        APPLY (exec, d, (uint64_t) ((int64_t) (int32_t) a[l] * (int64_t) (int32_t) b[l]));
      else
        APPLY (exec, d, (uint64_t) (uint32_t) a[l] * (uint64_t) (uint32_t) b[l]);
      break;
    case KS_FAST_MAD_LO:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      c = lanes_of (fr, f, 2, s2);
      APPLY (exec, d, fit (a[l] * b[l] + c[l], width, sg));
      break;
    case KS_FAST_MAD_WIDE:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      c = lanes_of (fr, f, 2, s2);
      if (sg)
        APPLY (exec, d, (uint64_t) ((int64_t) (int32_t) a[l] * (int64_t) (int32_t) b[l]) + c[l]);
      else
        APPLY (exec, d, (uint64_t) (uint32_t) a[l] * (uint64_t) (uint32_t) b[l] + c[l]);
      break;
    case KS_FAST_AND:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, fit (a[l] & b[l], width, sg));
      break;
    case KS_FAST_OR:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, fit (a[l] | b[l], width, sg));
      break;
    case KS_FAST_XOR:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, fit (a[l] ^ b[l], width, sg));
      break;
    case KS_FAST_SHL:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      /* PTX clamps shift amounts past the width */
      APPLY (exec, d, (uint32_t) b[l] >= (uint32_t) width ? 0 : fit (a[l] << (uint32_t) b[l], width, sg));
      break;
    case KS_FAST_SHR:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      if (sg && width == 32)
        APPLY (exec, d, (uint64_t) (int64_t) ((int32_t) a[l] >> MIN ((uint32_t) b[l], 31u)));
      else if (sg)
        APPLY (exec, d, (uint64_t) ((int64_t) a[l] >> MIN ((uint32_t) b[l], 63u)));
      else if (width == 32)
        APPLY (exec, d, (uint32_t) b[l] >= 32 ? 0 : (uint64_t) ((uint32_t) a[l] >> (uint32_t) b[l]));
      else
        APPLY (exec, d, (uint32_t) b[l] >= 64 ? 0 : a[l] >> (uint32_t) b[l]);
      break;
    case KS_FAST_SETP:
      {
        uint32_t set = 0;
        uint32_t *p = &fr->preds[f->dst];

        a = lanes_of (fr, f, 0, s0);
        b = lanes_of (fr, f, 1, s1);
        LANES (exec, l)
          {
            uint64_t x = a[l], y = b[l];

            if (width == 32)
              {
                x = sg ? (uint64_t) (int64_t) (int32_t) x : (uint32_t) x;
                y = sg ? (uint64_t) (int64_t) (int32_t) y : (uint32_t) y;
              }
            if (compare (f->cmp, x, y, sg))
              set |= 1u << l;
          }
        *p = (*p & ~exec) | set;
      }
      break;
    case KS_FAST_SELP:
      {
        uint32_t p = fr->preds[f->pred] ^ (f->pred_not ? KS_FULL_MASK : 0);

        a = lanes_of (fr, f, 0, s0);
        b = lanes_of (fr, f, 1, s1);
        APPLY (exec, d, ((p >> l) & 1) ? a[l] : b[l]);
      }
      break;
    case KS_FAST_CVT_INT:
      {
        int sw = f->src_width;
        gboolean ss = f->src_signed;

        a = lanes_of (fr, f, 0, s0);
        /* extend from the source, then fit the destination */
        APPLY (exec, d, fit (sw == 32 ? (ss ? (uint64_t) (int64_t) (int32_t) a[l] : (uint32_t) a[l])
                                      : a[l], width, sg));
      }
      break;
    case KS_FAST_FADD:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, bits_of (f32_of (a[l]) + f32_of (b[l])));
      break;
    case KS_FAST_FSUB:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, bits_of (f32_of (a[l]) - f32_of (b[l])));
      break;
    case KS_FAST_FMUL:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      APPLY (exec, d, bits_of (f32_of (a[l]) * f32_of (b[l])));
      break;
    case KS_FAST_FFMA:
      a = lanes_of (fr, f, 0, s0);
      b = lanes_of (fr, f, 1, s1);
      c = lanes_of (fr, f, 2, s2);
      APPLY (exec, d, bits_of (fmaf (f32_of (a[l]), f32_of (b[l]), f32_of (c[l]))));
      break;
    case KS_FAST_LD:
    case KS_FAST_ST:
      {
        const uint64_t *base = fr->regs + (size_t) f->addr * KS_WARP_SIZE;
        uint64_t *val = fr->regs + (size_t) f->dst * KS_WARP_SIZE;
        uint32_t size = (uint32_t) width / 8;
        gboolean store = f->kind == KS_FAST_ST;
        const KsSimAlloc *last = sim->n_allocs ? &sim->allocs[sim->last_alloc] : NULL;
        uint64_t addrs[KS_WARP_SIZE];

        LANES (exec, l)
          {
            uint64_t addr = base[l] + (uint64_t) (int64_t) f->offset;
            uint8_t *p;

            addrs[l] = addr;

            /* the allocation of the previous access, aligned: most accesses */
            if (last != NULL && addr >= last->base && addr - last->base + size <= last->size
                && (addr & (size - 1)) == 0 && !(store && last->readonly))
              p = last->data + (addr - last->base);
            else
              {
                p = ks_sim_resolve (sim, w, (int) l, in, (KsPtxSpace) in->space, addr, size, store);
                if (p == NULL)
                  return;
                last = &sim->allocs[sim->last_alloc];
              }
            move_value (p, &val[l], size, store, sg);
          }
        if (sim->trace_enabled)
          ks_sim_record_memory (sim, w, (uint32_t) (in - sim->module->insns), (KsPtxSpace) in->space,
                                addrs, size, exec, store, FALSE);
      }
      break;
    case KS_FAST_LD_SHARED:
    case KS_FAST_ST_SHARED:
      {
        const uint64_t *base = fr->regs + (size_t) f->addr * KS_WARP_SIZE;
        uint64_t *val = fr->regs + (size_t) f->dst * KS_WARP_SIZE;
        uint32_t size = (uint32_t) width / 8;
        gboolean store = f->kind == KS_FAST_ST_SHARED;
        uint64_t limit = sim->cta.shared_size;
        uint64_t addrs[KS_WARP_SIZE];

        LANES (exec, l)
          {
            uint64_t addr = base[l] + (uint64_t) (int64_t) f->offset;
            uint8_t *p;

            addrs[l] = addr;

            if (addr + size <= limit && addr < limit && (addr & (size - 1)) == 0)
              p = sim->cta.shared + addr;
            else
              {
                p = ks_sim_resolve (sim, w, (int) l, in, KS_PTX_SPACE_SHARED, addr, size, store);
                if (p == NULL)
                  return;
              }
            move_value (p, &val[l], size, store, sg);
          }
        if (sim->trace_enabled)
          ks_sim_record_memory (sim, w, (uint32_t) (in - sim->module->insns), KS_PTX_SPACE_SHARED,
                                addrs, size, exec, store, FALSE);
      }
      break;
    case KS_FAST_LD_PARAM:
      {
        uint64_t v = 0;

        memcpy (&v, sim->param_bank + f->offset, (size_t) width / 8);
        if (sg && width == 32)
          v = (uint64_t) (int64_t) (int32_t) v;
        APPLY (exec, d, v);
      }
      break;
    case KS_FAST_SREG:
      {
        const uint32_t *bd = sim->launch->block;
        uint32_t first = w->first_thread;
        int comp = f->cmp;

        switch (f->offset)
          {
          case KS_PTX_SREG_TID:
            if (comp == 0)
              APPLY (exec, d, (first + l) % bd[0]);
            else if (comp == 1)
              APPLY (exec, d, ((first + l) / bd[0]) % bd[1]);
            else
              APPLY (exec, d, (first + l) / (bd[0] * bd[1]));
            break;
          case KS_PTX_SREG_NTID:
            APPLY (exec, d, bd[comp]);
            break;
          case KS_PTX_SREG_CTAID:
            APPLY (exec, d, sim->cta.ctaid[comp]);
            break;
          case KS_PTX_SREG_NCTAID:
            APPLY (exec, d, sim->launch->grid[comp]);
            break;
          default:
            APPLY (exec, d, l);
            break;
          }
      }
      break;
    case KS_FAST_CVTA:
      a = fr->regs + (size_t) f->src[0] * KS_WARP_SIZE;
      APPLY (exec, d, a[l] + f->imm[2]);
      break;
    case KS_FAST_NONE:
    default:
      g_assert_not_reached ();
    }
}
