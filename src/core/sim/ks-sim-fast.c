/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-fast.c: the common instructions, decoded once into a form that
 * runs as straight loops over a warp's 32 lanes.
 *
 * The general executor (ks-sim-exec.c) reads each operand of each lane
 * through a switch on its kind, which is right for every form PTX has but
 * costs a hundred instructions per lane.  The instructions that make up
 * most kernels (integer arithmetic and address computation, comparisons,
 * selects, predicate logic, single-precision arithmetic in
 * round-to-nearest, 32- and 64-bit loads and stores, branches that do not
 * split the warp) are recognised here when the simulation starts, with
 * their immediates converted once, and run as loops the compiler can
 * vectorise when all lanes are active.  ks_sim_fast_run runs a warp's
 * instructions one after another for as long as they have fast forms, so
 * that a loop body pays for the general dispatch only at its barriers.
 * Everything else falls back to the general executor, which stays the
 * reference: the tests run the same kernels through both.
 *
 * Where the time goes is measured with callgrind (docs/PERFORMANCE.md):
 * the shapes below (address checks of a whole warp before any access,
 * widths and signedness as masks instead of branches, immediates as rows
 * of 32 lanes) each took hundreds of instructions off a warp-instruction. */

#include <math.h>
#include <string.h>

#include "ks-sim-exec.h"
#include "ks-sim-fast.h"

/* ---- decoding ------------------------------------------------------------ */

/* A source operand while it is decoded: a register, or an immediate */
typedef struct
{
  gboolean is_imm[3];
  uint64_t imm[3];
} Immediates;

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

/* The fit formula of a width and signedness (KsFastInsn.fit_mask) */
static void
fit_of (uint32_t  width,
        gboolean  is_signed,
        uint64_t *mask,
        uint64_t *sign)
{
  *mask = width >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << width) - 1;
  *sign = width < 64 && is_signed ? G_GUINT64_CONSTANT (1) << (width - 1) : 0;
}

/* A source operand a fast form can take: a register, an integer or float
 * immediate converted to the instruction's type, or the address of a
 * variable outside local memory (a constant of the launch). */
static gboolean
decode_src (const KsSim        *sim,
            const KsPtxOperand *op,
            KsPtxType           t,
            Immediates         *im,
            int                 i,
            uint32_t           *slot)
{
  const KsPtxModule *m = sim->module;
  uint32_t size = ks_ptx_type_size (t);
  uint64_t mask = size >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (size * 8)) - 1;
  uint64_t *imm = &im->imm[i];

  im->is_imm[i] = TRUE;
  switch (op->kind)
    {
    case KS_PTX_OPERAND_REG:
      if (op->flags & KS_PTX_OPERAND_NEGATED)
        return FALSE;
      im->is_imm[i] = FALSE;
      *slot = op->a;
      return TRUE;
    case KS_PTX_OPERAND_VAR:
      /* the general executor reads a variable's address, then masks it to
       * the type, as it does an integer immediate */
      if (t == KS_PTX_TYPE_F32 || t == KS_PTX_TYPE_F64 || size == 0
          || m->vars[op->a].space == KS_PTX_SPACE_LOCAL)
        return FALSE;
      *imm = sim->var_addr[op->a] & mask;
      if (signed_type (t))
        *imm = (uint64_t) (size == 4 ? (int64_t) (int32_t) *imm : (int64_t) *imm);
      return TRUE;
    case KS_PTX_OPERAND_IMM_INT:
      if (t == KS_PTX_TYPE_F32 || t == KS_PTX_TYPE_F64)
        return FALSE;
      *imm = ks_ptx_operand_u64 (op) & mask;
      if (signed_type (t))
        *imm = (uint64_t) (size == 4 ? (int64_t) (int32_t) *imm : (int64_t) *imm);
      return TRUE;
    case KS_PTX_OPERAND_IMM_F32:
      if (t != KS_PTX_TYPE_F32 && !(size == 4 && t != KS_PTX_TYPE_F64))
        return FALSE;
      *imm = op->a;
      return TRUE;
    case KS_PTX_OPERAND_IMM_F64:
      if (t == KS_PTX_TYPE_F32)
        {
          *imm = ks_f32_to_bits ((float) ks_f64_from_bits (ks_ptx_operand_u64 (op)));
          return TRUE;
        }
      if (t == KS_PTX_TYPE_F64)
        {
          *imm = ks_ptx_operand_u64 (op);
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
decode_srcs (const KsSim     *sim,
             const KsPtxInsn *in,
             KsFastInsn      *f,
             Immediates      *im,
             uint32_t         first,
             uint32_t         n,
             KsPtxType        t)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (sim->module, in);

  if (in->n_operands != first + n)
    return FALSE;
  for (uint32_t i = 0; i < n; i++)
    if (!decode_src (sim, &ops[first + i], t, im, (int) i, &f->src[i]))
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

/* A predicate operand of and/or/xor/not/mov.pred */
static gboolean
decode_pred (const KsPtxOperand *op,
             uint32_t           *slot,
             uint8_t            *negated)
{
  if (op->kind != KS_PTX_OPERAND_PRED)
    return FALSE;
  *slot = op->a;
  *negated = (op->flags & KS_PTX_OPERAND_NOT) != 0;
  return TRUE;
}

static void
decode_pred_op (const KsSim     *sim,
                const KsPtxInsn *in,
                KsFastInsn      *f)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (sim->module, in);
  uint32_t n = in->opcode == KS_PTX_OPC_NOT || in->opcode == KS_PTX_OPC_MOV ? 2 : 3;

  if ((in->flags & ~KS_PTX_FLAG_UNDECODED) != 0 || in->n_operands != n
      || ops[0].kind != KS_PTX_OPERAND_PRED || (ops[0].flags & KS_PTX_OPERAND_NOT)
      || !decode_pred (&ops[1], &f->src[0], &f->not_a)
      || (n == 3 && !decode_pred (&ops[2], &f->src[1], &f->not_b)))
    return;
  f->dst = ops[0].a;
  switch (in->opcode)
    {
    case KS_PTX_OPC_AND: f->kind = KS_FAST_PRED_AND; break;
    case KS_PTX_OPC_OR: f->kind = KS_FAST_PRED_OR; break;
    case KS_PTX_OPC_XOR: f->kind = KS_FAST_PRED_XOR; break;
    case KS_PTX_OPC_NOT: f->kind = KS_FAST_PRED_MOV; f->not_a ^= 1; break;
    default: f->kind = KS_FAST_PRED_MOV; break;
    }
}

/* setp with an integer comparison: the operands of GT, GE, HI and HS are
 * swapped to make them LT and LE */
static void
decode_setp (const KsSim     *sim,
             const KsPtxInsn *in,
             KsFastInsn      *f,
             Immediates      *im)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (sim->module, in);
  KsPtxType t = (KsPtxType) in->types[0];
  gboolean sg = signed_type (t);
  gboolean swap = FALSE;

  if (!(is_int_type (t, 4) || is_int_type (t, 8)) || (in->flags & ~KS_PTX_FLAG_UNDECODED) != 0
      || in->op != KS_PTX_OP_NONE || in->n_operands != 3 || ops[0].kind != KS_PTX_OPERAND_PRED
      || in->cmp < KS_PTX_CMP_EQ || in->cmp > KS_PTX_CMP_HS || !decode_srcs (sim, in, f, im, 1, 2, t))
    return;
  f->dst = ops[0].a;
  /* The general executor sign-extends the 32-bit operands of a signed
   * type; that keeps the unsigned order of their 32 bits, so LO, LS, HI
   * and HS of them, like every comparison of an unsigned type, compare
   * unsigned.  LT, LE, GT and GE of a signed type compare signed. */
  switch ((KsPtxCmp) in->cmp)
    {
    case KS_PTX_CMP_EQ: f->cmp = KS_FAST_CMP_EQ; break;
    case KS_PTX_CMP_NE: f->cmp = KS_FAST_CMP_NE; break;
    case KS_PTX_CMP_LT: f->cmp = KS_FAST_CMP_LT; f->signed_cmp = sg; break;
    case KS_PTX_CMP_LE: f->cmp = KS_FAST_CMP_LE; f->signed_cmp = sg; break;
    case KS_PTX_CMP_GT: f->cmp = KS_FAST_CMP_LT; f->signed_cmp = sg; swap = TRUE; break;
    case KS_PTX_CMP_GE: f->cmp = KS_FAST_CMP_LE; f->signed_cmp = sg; swap = TRUE; break;
    case KS_PTX_CMP_LO: f->cmp = KS_FAST_CMP_LT; break;
    case KS_PTX_CMP_LS: f->cmp = KS_FAST_CMP_LE; break;
    case KS_PTX_CMP_HI: f->cmp = KS_FAST_CMP_LT; swap = TRUE; break;
    case KS_PTX_CMP_HS: f->cmp = KS_FAST_CMP_LE; swap = TRUE; break;
    default: return;
    }
  if (swap)
    {
      uint32_t s = f->src[0];
      gboolean is_imm = im->is_imm[0];
      uint64_t imm = im->imm[0];

      f->src[0] = f->src[1], im->is_imm[0] = im->is_imm[1], im->imm[0] = im->imm[1];
      f->src[1] = s, im->is_imm[1] = is_imm, im->imm[1] = imm;
    }
  f->kind = KS_FAST_SETP;
}

static void
decode_one (const KsSim     *sim,
            const KsPtxInsn *in,
            KsFastInsn      *f,
            Immediates      *im)
{
  const KsPtxModule *m = sim->module;
  KsPtxType t = (KsPtxType) in->types[0];
  uint32_t size = ks_ptx_type_size (t);
  uint64_t plain_mask = ~(KS_PTX_FLAG_UNDECODED);
  uint64_t flags = in->flags & plain_mask;
  gboolean sg = signed_type (t);

  f->kind = KS_FAST_NONE;
  f->width = (uint8_t) (size * 8);
  f->size = (uint8_t) size;
  f->guard = in->pred;
  f->guard_not = in->pred_not != 0;
  fit_of (f->width, sg, &f->fit_mask, &f->fit_sign);

  switch (in->opcode)
    {
    case KS_PTX_OPC_MOV:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if (t == KS_PTX_TYPE_PRED)
          decode_pred_op (sim, in, f);
        else if (flags == 0 && size == 4 && in->n_operands == 2 && ops[1].kind == KS_PTX_OPERAND_SREG
                 && (ops[1].a == KS_PTX_SREG_TID || ops[1].a == KS_PTX_SREG_NTID
                     || ops[1].a == KS_PTX_SREG_CTAID || ops[1].a == KS_PTX_SREG_NCTAID
                     || ops[1].a == KS_PTX_SREG_LANEID)
                 && (ops[1].aux < 3 || ops[1].aux == KS_PTX_NO_COMPONENT) && decode_dst_reg (m, in, f))
          {
            f->offset = (int32_t) ops[1].a;
            f->cmp = ops[1].aux == KS_PTX_NO_COMPONENT ? 0 : (uint8_t) ops[1].aux;
            f->kind = KS_FAST_SREG;
          }
        else if (flags == 0 && (size == 4 || size == 8)
                 && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 1, t))
          {
            /* mov keeps the type's bits, zero-extended */
            f->fit_sign = 0;
            f->kind = KS_FAST_MOV;
          }
      }
      break;

    case KS_PTX_OPC_ADD:
    case KS_PTX_OPC_SUB:
      if (t == KS_PTX_TYPE_F32 && flags == 0
          && (in->round == KS_PTX_ROUND_NONE || in->round == KS_PTX_ROUND_RN)
          && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 2, t))
        f->kind = in->opcode == KS_PTX_OPC_ADD ? KS_FAST_FADD : KS_FAST_FSUB;
      else if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0
               && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 2, t))
        f->kind = in->opcode == KS_PTX_OPC_ADD ? KS_FAST_ADD : KS_FAST_SUB;
      break;

    case KS_PTX_OPC_MUL:
      if (t == KS_PTX_TYPE_F32 && flags == 0
          && (in->round == KS_PTX_ROUND_NONE || in->round == KS_PTX_ROUND_RN)
          && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 2, t))
        f->kind = KS_FAST_FMUL;
      else if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == KS_PTX_FLAG_LO
               && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 2, t))
        f->kind = KS_FAST_MUL_LO;
      else if (is_int_type (t, 4) && flags == KS_PTX_FLAG_WIDE
               && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 2, t))
        f->kind = KS_FAST_MUL_WIDE;
      break;

    case KS_PTX_OPC_MAD:
    case KS_PTX_OPC_FMA:
      if (t == KS_PTX_TYPE_F32 && flags == 0 && in->round == KS_PTX_ROUND_RN
          && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 3, t))
        f->kind = KS_FAST_FFMA;
      else if (in->opcode == KS_PTX_OPC_MAD && (is_int_type (t, 4) || is_int_type (t, 8))
               && flags == KS_PTX_FLAG_LO
               && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 3, t))
        f->kind = KS_FAST_MAD_LO;
      else if (in->opcode == KS_PTX_OPC_MAD && is_int_type (t, 4) && flags == KS_PTX_FLAG_WIDE
               && in->n_operands == 4 && decode_dst_reg (m, in, f))
        {
          /* the addend is 64-bit */
          const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

          if (decode_src (sim, &ops[1], t, im, 0, &f->src[0])
              && decode_src (sim, &ops[2], t, im, 1, &f->src[1])
              && decode_src (sim, &ops[3], sg ? KS_PTX_TYPE_S64 : KS_PTX_TYPE_U64, im, 2, &f->src[2]))
            f->kind = KS_FAST_MAD_WIDE;
        }
      break;

    case KS_PTX_OPC_AND:
    case KS_PTX_OPC_OR:
    case KS_PTX_OPC_XOR:
    case KS_PTX_OPC_NOT:
      if (t == KS_PTX_TYPE_PRED)
        decode_pred_op (sim, in, f);
      else if (in->opcode != KS_PTX_OPC_NOT && (is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0
               && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 2, t))
        f->kind = in->opcode == KS_PTX_OPC_AND ? KS_FAST_AND
                  : in->opcode == KS_PTX_OPC_OR ? KS_FAST_OR : KS_FAST_XOR;
      break;

    case KS_PTX_OPC_SHL:
    case KS_PTX_OPC_SHR:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if ((is_int_type (t, 4) || is_int_type (t, 8)) && flags == 0 && in->n_operands == 3
            && decode_dst_reg (m, in, f)
            && decode_src (sim, &ops[1], t, im, 0, &f->src[0])
            && decode_src (sim, &ops[2], KS_PTX_TYPE_U32, im, 1, &f->src[1]))
          {
            if (in->opcode == KS_PTX_OPC_SHL)
              f->kind = KS_FAST_SHL;
            else if (sg)
              f->kind = size == 4 ? KS_FAST_SHR_S32 : KS_FAST_SHR_S64;
            else
              f->kind = size == 4 ? KS_FAST_SHR_U32 : KS_FAST_SHR_U64;
          }
      }
      break;

    case KS_PTX_OPC_SETP:
      decode_setp (sim, in, f, im);
      break;

    case KS_PTX_OPC_SELP:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if ((size == 4 || size == 8) && in->n_operands == 4 && ops[3].kind == KS_PTX_OPERAND_PRED
            && decode_dst_reg (m, in, f)
            && decode_src (sim, &ops[1], t, im, 0, &f->src[0])
            && decode_src (sim, &ops[2], t, im, 1, &f->src[1]))
          {
            f->pred = ops[3].a;
            f->not_a = (ops[3].flags & KS_PTX_OPERAND_NOT) != 0;
            f->kind = KS_FAST_SELP;
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
            && decode_dst_reg (m, in, f) && decode_srcs (sim, in, f, im, 1, 1, st))
          {
            f->kind = KS_FAST_CVT_INT;
            fit_of (ks_ptx_type_size (st) * 8, signed_type (st), &f->src_mask, &f->src_sign);
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
            f->src[0] = ops[1].a;
            f->add = (flags & KS_PTX_FLAG_TO) ? (uint64_t) 0 - base : base;
            f->kind = KS_FAST_CVTA;
          }
      }
      break;

    case KS_PTX_OPC_BRA:
      {
        const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

        if (in->n_operands >= 1 && ops[0].kind == KS_PTX_OPERAND_LABEL)
          {
            f->offset = (int32_t) ops[0].a;
            f->kind = KS_FAST_BRA;
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
                f->sign = sg && size == 4;
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
        f->sign = sg && size == 4;
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
  g_autoptr(GHashTable) rows = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  g_autofree uint32_t *which = g_new (uint32_t, (size_t) MAX (m->n_insns, 1) * 3);

  /* Only the instructions of the functions the launch may run: the rest
   * of a module of many kernels stays zero pages (KS_FAST_NONE, which the
   * general executor would run anyway) */
  sim->fast = g_new0 (KsFastInsn, MAX (m->n_insns, 1));
  for (uint32_t fn = 0; fn < m->n_functions; fn++)
    {
      uint32_t end = MIN (m->functions[fn].first_insn + m->functions[fn].n_insns, m->n_insns);

      if (!sim->runs_fn[fn])
        continue;
      for (uint32_t i = m->functions[fn].first_insn; i < end; i++)
        {
          Immediates im = { { FALSE, FALSE, FALSE }, { 0, 0, 0 } };
          KsFastInsn *f = &sim->fast[i];

          decode_one (sim, &m->insns[i], f, &im);
          /* one row per distinct immediate */
          for (int k = 0; k < 3; k++)
            {
              gpointer found;

              which[i * 3 + k] = G_MAXUINT32;
              if (f->kind == KS_FAST_NONE || !im.is_imm[k])
                continue;
              if (!g_hash_table_lookup_extended (rows, &im.imm[k], NULL, &found))
                {
                  g_array_append_val (values, im.imm[k]);
                  found = GUINT_TO_POINTER (values->len);
                  /* the key must outlive the loop: it points into a fresh copy */
                  g_hash_table_insert (rows, g_memdup2 (&im.imm[k], sizeof (uint64_t)), found);
                }
              which[i * 3 + k] = GPOINTER_TO_UINT (found) - 1;
            }
        }
    }

  sim->fast_imm = g_new (uint64_t, (size_t) MAX (values->len, 1) * KS_WARP_SIZE);
  for (guint r = 0; r < values->len; r++)
    for (int l = 0; l < KS_WARP_SIZE; l++)
      sim->fast_imm[(size_t) r * KS_WARP_SIZE + l] = g_array_index (values, uint64_t, r);
  for (uint32_t fn = 0; fn < m->n_functions; fn++)
    {
      uint32_t end = MIN (m->functions[fn].first_insn + m->functions[fn].n_insns, m->n_insns);

      for (uint32_t i = m->functions[fn].first_insn; sim->runs_fn[fn] && i < end; i++)
        for (int k = 0; k < 3; k++)
          sim->fast[i].row[k] = which[i * 3 + k] == G_MAXUINT32
                                ? NULL : sim->fast_imm + (size_t) which[i * 3 + k] * KS_WARP_SIZE;
    }

  {
    /* the keys were copied; free them with the table */
    GHashTableIter it;
    gpointer key;

    g_hash_table_iter_init (&it, rows);
    while (g_hash_table_iter_next (&it, &key, NULL))
      g_free (key);
  }

#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init ();
  sim->fast_fma = __builtin_cpu_supports ("fma");
#endif
}

/* ---- execution ---------------------------------------------------------- */

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

/* The lanes of source i: its register row, or its immediate's row */
#define SRC(i) (f->row[i] != NULL ? f->row[i] : regs + (size_t) f->src[i] * KS_WARP_SIZE)

/* Truncates to the destination's width and extends to 64 bits */
#define FIT(v) ((((v) & fm) ^ fs) - fs)

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

/* fma.rn.f32 for a whole warp.  fmaf is correctly rounded wherever it is
 * computed; where the processor has the instruction, the compiler uses it
 * in place of a call per lane. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__ ((target ("fma")))
static void
ffma_warp_fma (uint64_t       *d,
               const uint64_t *a,
               const uint64_t *b,
               const uint64_t *c)
{
  for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
    d[l] = bits_of (fmaf (f32_of (a[l]), f32_of (b[l]), f32_of (c[l])));
}
#endif

static void
ffma_warp (uint64_t       *d,
           const uint64_t *a,
           const uint64_t *b,
           const uint64_t *c)
{
  for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
    d[l] = bits_of (fmaf (f32_of (a[l]), f32_of (b[l]), f32_of (c[l])));
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

/* GCC does not unroll loops by default; the loops over a warp's lanes
 * that gather (loads and stores at 32 addresses, bits packed into a
 * mask) cannot be vectorised, and unrolled they cost half the
 * instructions. */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL _Pragma ("GCC unroll 8")
#else
#define UNROLL
#endif

/* Loads or stores of all 32 lanes at base + offsets[l], every one of which
 * is known to be inside the memory and aligned: one loop per form, with
 * no test inside. */
static inline void
move_warp (uint8_t        *base,
           const uint64_t *offsets,
           uint64_t       *val,
           uint32_t        size,
           gboolean        store,
           gboolean        sign_extend)
{
  if (store && size == 4)
    UNROLL for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
      {
        uint32_t v = (uint32_t) val[l];

        memcpy (base + offsets[l], &v, 4);
      }
  else if (store)
    UNROLL for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
      memcpy (base + offsets[l], &val[l], 8);
  else if (size == 8)
    UNROLL for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
      memcpy (&val[l], base + offsets[l], 8);
  else if (sign_extend)
    UNROLL for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
      {
        int32_t v;

        memcpy (&v, base + offsets[l], 4);
        val[l] = (uint64_t) (int64_t) v;
      }
  else
    UNROLL for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
      {
        uint32_t v;

        memcpy (&v, base + offsets[l], 4);
        val[l] = v;
      }
}

/* The memory analysis of a fast load or store, made before it runs as the
 * general executor makes it: lanes that do not take part read as 0. */
static void
record_fast_access (KsSim            *sim,
                    const KsSimWarp  *w,
                    uint32_t          gi,
                    KsPtxSpace        space,
                    const uint64_t   *addrs,
                    uint32_t          size,
                    uint32_t          exec,
                    gboolean          store)
{
  uint64_t a[KS_WARP_SIZE];

  if (exec == 0)
    return;
  if (exec == KS_FULL_MASK)
    {
      ks_sim_record_memory (sim, w, gi, space, addrs, size, exec, store, FALSE);
      return;
    }
  for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
    a[l] = (exec >> l) & 1 ? addrs[l] : 0;
  ks_sim_record_memory (sim, w, gi, space, a, size, exec, store, FALSE);
}

/* Global (or generic) loads and stores */
static inline void
exec_global (KsSim            *sim,
             KsSimWarp        *w,
             uint64_t         *regs,
             uint32_t          gi,
             const KsFastInsn *f,
             uint32_t          exec)
{
  const uint64_t *base = regs + (size_t) f->addr * KS_WARP_SIZE;
  uint64_t *val = regs + (size_t) f->dst * KS_WARP_SIZE;
  uint32_t size = f->size;
  gboolean store = f->kind == KS_FAST_ST;
  const KsPtxInsn *in = &sim->module->insns[gi];
  const KsSimAlloc *last = sim->n_allocs ? &sim->allocs[sim->last_alloc] : NULL;
  uint64_t off = (uint64_t) (int64_t) f->offset;
  uint64_t addrs[KS_WARP_SIZE];

  for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
    addrs[l] = base[l] + off;
  if (G_UNLIKELY (sim->trace_enabled))
    record_fast_access (sim, w, gi, (KsPtxSpace) in->space, addrs, size, exec, store);

  /* The whole warp in the allocation of the previous access, aligned: most
   * accesses.  The test is made for every lane before any lane moves, so
   * that a fault leaves memory as the lane-by-lane path below would.  It
   * has no comparison per lane, which SSE2 lacks for 64-bit values: past
   * room (< 2^63), room - offset wraps to a number with its top bit set,
   * unless the offset itself has it. */
  if (exec == KS_FULL_MASK && last != NULL)
    {
      /* a kernel that reads a and b and writes c goes from one allocation
       * to the next: try the one of the first lane too */
      if (addrs[0] - last->base >= last->size)
        {
          const KsSimAlloc *other = ks_sim_find_alloc (sim, addrs[0]);

          last = other != NULL ? other : last;
        }
      if (last->size >= size && !(store && last->readonly))
        {
          uint64_t lo = last->base, room = last->size - size, over = 0, bits = 0;
          uint64_t offsets[KS_WARP_SIZE];

          for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
            {
              offsets[l] = addrs[l] - lo;
              over |= (room - offsets[l]) | offsets[l];
              bits |= addrs[l];
            }
          if ((over >> 63) == 0 && (bits & (size - 1)) == 0)
            {
              move_warp (last->data, offsets, val, size, store, f->sign);
              return;
            }
        }
    }

  LANES (exec, l)
    {
      uint64_t addr = addrs[l];
      uint8_t *p;

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
      move_value (p, &val[l], size, store, f->sign);
    }
}

/* Shared-memory loads and stores */
static inline void
exec_shared (KsSim            *sim,
             KsSimWarp        *w,
             uint64_t         *regs,
             uint32_t          gi,
             const KsFastInsn *f,
             uint32_t          exec)
{
  const uint64_t *base = regs + (size_t) f->addr * KS_WARP_SIZE;
  uint64_t *val = regs + (size_t) f->dst * KS_WARP_SIZE;
  uint32_t size = f->size;
  gboolean store = f->kind == KS_FAST_ST_SHARED;
  uint64_t limit = sim->cta.shared_size;
  uint64_t off = (uint64_t) (int64_t) f->offset;
  uint64_t addrs[KS_WARP_SIZE];

  for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
    addrs[l] = base[l] + off;
  if (G_UNLIKELY (sim->trace_enabled))
    record_fast_access (sim, w, gi, KS_PTX_SPACE_SHARED, addrs, size, exec, store);

  /* the whole warp inside the block's shared memory and aligned, tested
   * as in exec_global */
  if (exec == KS_FULL_MASK && limit >= size)
    {
      uint64_t room = limit - size, over = 0, bits = 0;

      for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
        {
          over |= (room - addrs[l]) | addrs[l];
          bits |= addrs[l];
        }
      if ((over >> 63) == 0 && (bits & (size - 1)) == 0)
        {
          move_warp (sim->cta.shared, addrs, val, size, store, f->sign);
          return;
        }
    }

  LANES (exec, l)
    {
      uint64_t addr = addrs[l];
      uint8_t *p;

      if (addr + size <= limit && addr < limit && (addr & (size - 1)) == 0)
        p = sim->cta.shared + addr;
      else
        {
          p = ks_sim_resolve (sim, w, (int) l, &sim->module->insns[gi], KS_PTX_SPACE_SHARED, addr,
                              size, store);
          if (p == NULL)
            return;
        }
      move_value (p, &val[l], size, store, f->sign);
    }
}

/* One fast instruction for the lanes of exec */
static inline void
exec_one (KsSim            *sim,
          KsSimWarp        *w,
          uint64_t         *regs,
          uint32_t         *preds,
          uint32_t          gi,
          const KsFastInsn *f,
          uint32_t          exec)
{
  uint64_t *d = regs + (size_t) f->dst * KS_WARP_SIZE;
  uint64_t fm = f->fit_mask, fs = f->fit_sign;
  const uint64_t *a, *b, *c;

  switch ((KsFastKind) f->kind)
    {
    case KS_FAST_MOV:
      a = SRC (0);
      APPLY (exec, d, a[l] & fm);
      break;
    case KS_FAST_ADD:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, FIT (a[l] + b[l]));
      break;
    case KS_FAST_SUB:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, FIT (a[l] - b[l]));
      break;
    case KS_FAST_MUL_LO:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, FIT (a[l] * b[l]));
      break;
    case KS_FAST_MUL_WIDE:
      a = SRC (0), b = SRC (1);
      if (fs)
        APPLY (exec, d, (uint64_t) ((int64_t) (int32_t) a[l] * (int64_t) (int32_t) b[l]));
      else
        APPLY (exec, d, (uint64_t) (uint32_t) a[l] * (uint64_t) (uint32_t) b[l]);
      break;
    case KS_FAST_MAD_LO:
      a = SRC (0), b = SRC (1), c = SRC (2);
      APPLY (exec, d, FIT (a[l] * b[l] + c[l]));
      break;
    case KS_FAST_MAD_WIDE:
      a = SRC (0), b = SRC (1), c = SRC (2);
      if (fs)
        APPLY (exec, d, (uint64_t) ((int64_t) (int32_t) a[l] * (int64_t) (int32_t) b[l]) + c[l]);
      else
        APPLY (exec, d, (uint64_t) (uint32_t) a[l] * (uint64_t) (uint32_t) b[l] + c[l]);
      break;
    case KS_FAST_AND:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, FIT (a[l] & b[l]));
      break;
    case KS_FAST_OR:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, FIT (a[l] | b[l]));
      break;
    case KS_FAST_XOR:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, FIT (a[l] ^ b[l]));
      break;
    case KS_FAST_SHL:
      {
        uint32_t width = f->width;

        a = SRC (0), b = SRC (1);
        /* PTX clamps shift amounts past the width */
        APPLY (exec, d, (uint32_t) b[l] >= width ? 0 : FIT (a[l] << (uint32_t) b[l]));
      }
      break;
    case KS_FAST_SHR_S32:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, (uint64_t) (int64_t) ((int32_t) a[l] >> MIN ((uint32_t) b[l], 31u)));
      break;
    case KS_FAST_SHR_S64:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, (uint64_t) ((int64_t) a[l] >> MIN ((uint32_t) b[l], 63u)));
      break;
    case KS_FAST_SHR_U32:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, (uint32_t) b[l] >= 32 ? 0 : (uint64_t) ((uint32_t) a[l] >> (uint32_t) b[l]));
      break;
    case KS_FAST_SHR_U64:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, (uint32_t) b[l] >= 64 ? 0 : a[l] >> (uint32_t) b[l]);
      break;
    case KS_FAST_SETP:
      {
        uint32_t set = 0;

        a = SRC (0), b = SRC (1);
        /* one loop per comparison and type, with the comparison of C */
#define SETP_LOOP(test) \
        do { \
          if (exec == KS_FULL_MASK) \
            UNROLL for (uint32_t l = 0; l < KS_WARP_SIZE; l++) \
              set |= (uint32_t) (test) << l; \
          else \
            LANES (exec, l) \
              set |= (uint32_t) (test) << l; \
        } while (0)
#define SETP_CASES(T) \
        switch ((KsFastCmp) f->cmp) \
          { \
          case KS_FAST_CMP_EQ: SETP_LOOP ((T) a[l] == (T) b[l]); break; \
          case KS_FAST_CMP_NE: SETP_LOOP ((T) a[l] != (T) b[l]); break; \
          case KS_FAST_CMP_LT: SETP_LOOP ((T) a[l] < (T) b[l]); break; \
          case KS_FAST_CMP_LE: default: SETP_LOOP ((T) a[l] <= (T) b[l]); break; \
          }
        if (f->width == 32 && f->signed_cmp)
          SETP_CASES (int32_t)
        else if (f->width == 32)
          SETP_CASES (uint32_t)
        else if (f->signed_cmp)
          SETP_CASES (int64_t)
        else
          SETP_CASES (uint64_t)
#undef SETP_CASES
#undef SETP_LOOP
        preds[f->dst] = (preds[f->dst] & ~exec) | set;
      }
      break;
    case KS_FAST_SELP:
      {
        uint32_t p = preds[f->pred] ^ (f->not_a ? KS_FULL_MASK : 0);

        a = SRC (0), b = SRC (1);
        APPLY (exec, d, ((p >> l) & 1) ? a[l] : b[l]);
      }
      break;
    case KS_FAST_CVT_INT:
      {
        uint64_t sm = f->src_mask, ss = f->src_sign;

        a = SRC (0);
        /* extend from the source, then fit the destination */
        APPLY (exec, d, FIT (((a[l] & sm) ^ ss) - ss));
      }
      break;
    case KS_FAST_FADD:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, bits_of (f32_of (a[l]) + f32_of (b[l])));
      break;
    case KS_FAST_FSUB:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, bits_of (f32_of (a[l]) - f32_of (b[l])));
      break;
    case KS_FAST_FMUL:
      a = SRC (0), b = SRC (1);
      APPLY (exec, d, bits_of (f32_of (a[l]) * f32_of (b[l])));
      break;
    case KS_FAST_FFMA:
      a = SRC (0), b = SRC (1), c = SRC (2);
      if (exec == KS_FULL_MASK)
        {
#if defined(__x86_64__) && defined(__GNUC__)
          if (sim->fast_fma)
            ffma_warp_fma (d, a, b, c);
          else
#endif
            ffma_warp (d, a, b, c);
        }
      else
        LANES (exec, l)
          d[l] = bits_of (fmaf (f32_of (a[l]), f32_of (b[l]), f32_of (c[l])));
      break;
    case KS_FAST_ST:
      ks_sim_note_write (sim);
      G_GNUC_FALLTHROUGH;
    case KS_FAST_LD:
      exec_global (sim, w, regs, gi, f, exec);
      break;
    case KS_FAST_ST_SHARED:
      ks_sim_note_write (sim);
      G_GNUC_FALLTHROUGH;
    case KS_FAST_LD_SHARED:
      exec_shared (sim, w, regs, gi, f, exec);
      break;
    case KS_FAST_LD_PARAM:
      {
        uint64_t v = 0;

        memcpy (&v, sim->param_bank + f->offset, f->size);
        if (f->sign)
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
      {
        uint64_t add = f->add;

        a = regs + (size_t) f->src[0] * KS_WARP_SIZE;
        APPLY (exec, d, a[l] + add);
      }
      break;
    case KS_FAST_PRED_AND:
    case KS_FAST_PRED_OR:
    case KS_FAST_PRED_XOR:
    case KS_FAST_PRED_MOV:
      {
        uint32_t pa = preds[f->src[0]] ^ (f->not_a ? KS_FULL_MASK : 0);
        uint32_t pb = f->kind == KS_FAST_PRED_MOV ? 0 : preds[f->src[1]] ^ (f->not_b ? KS_FULL_MASK : 0);
        uint32_t r = f->kind == KS_FAST_PRED_AND ? pa & pb
                     : f->kind == KS_FAST_PRED_OR ? pa | pb
                     : f->kind == KS_FAST_PRED_XOR ? pa ^ pb : pa;

        preds[f->dst] = (preds[f->dst] & ~exec) | (r & exec);
      }
      break;
    case KS_FAST_BRA:
    case KS_FAST_NONE:
    default:
      g_assert_not_reached ();
    }
}

uint32_t
ks_sim_fast_run (KsSim     *sim,
                 KsSimWarp *w,
                 uint32_t   max)
{
  KsSimFrame *fr = &w->frames[w->n_frames - 1];
  const KsPtxFunction *fn = &sim->module->functions[fr->fn];
  KsSimtEntry *top = &w->simt[w->n_simt - 1];
  uint64_t *regs = fr->regs;
  uint32_t *preds = fr->preds;
  uint32_t pc = top->pc, active = top->mask;
  uint32_t n_active = ks_popcount32 (active);
  uint32_t done = 0;

  /* Fast forms neither push nor pop SIMT entries or frames, and change
   * no lane's path but by a branch that does not split: the path, its
   * frame and its lanes stay the same through the loop. */
  while (done < max && pc < fn->n_insns)
    {
      uint32_t gi = fn->first_insn + pc;
      const KsFastInsn *f = &sim->fast[gi];
      uint32_t exec = active;

      if (f->kind == KS_FAST_NONE)
        break;
      if (f->guard != KS_PTX_NONE)
        exec &= preds[f->guard] ^ (f->guard_not ? KS_FULL_MASK : 0);
      if (f->kind == KS_FAST_BRA)
        {
          /* the general executor splits the warp */
          if (exec != 0 && exec != active)
            break;
          ks_sim_count_step (sim, w, gi, exec, n_active);
          done++;
          pc = exec != 0 ? (uint32_t) f->offset : pc + 1;
        }
      else
        {
          ks_sim_count_step (sim, w, gi, exec, n_active);
          done++;
          exec_one (sim, w, regs, preds, gi, f, exec);
          if (G_UNLIKELY (sim->status != KS_SIM_READY))
            break;
          pc++;
        }
      top->pc = pc;
      if (pc == top->rpc)
        break;
    }
  return done;
}
