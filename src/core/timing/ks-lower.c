/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lower.c: what ptxas folds and merges (ks-lower.h) */

#include "ks-lower.h"

#include <string.h>

#define ALIGN_TOP (1u << 20)    /* "any": a register no definition has reached yet */
#define VECTOR_WINDOW 256       /* instructions after a load or store searched for its partners */

typedef struct
{
  const KsPtxModule *m;
  const KsPtxFunction *fn;
  uint32_t *align;              /* per register slot: a power of two */
  uint32_t *n_uses;             /* per register slot: reads by any instruction */
  uint32_t *n_addr_uses;        /* per register slot: reads as the base of a ld/st address */
  uint32_t *def_insn;           /* per register slot: its one definition, or KS_PTX_NONE */
  uint32_t *n_defs;
} Fn;

static uint32_t
low_bit (uint64_t v)
{
  if (v == 0)
    return ALIGN_TOP;
  return (uint32_t) MIN (v & (~v + 1), (uint64_t) ALIGN_TOP);
}

static uint32_t
mul_align (uint32_t a, uint32_t b)
{
  return (uint32_t) MIN ((uint64_t) a * b, (uint64_t) ALIGN_TOP);
}

static gboolean
is_reg (const KsPtxOperand *op)
{
  return op->kind == KS_PTX_OPERAND_REG && op->aux == KS_PTX_NO_COMPONENT
         && op->b == KS_PTX_SEL_NONE;
}

static gboolean
is_int_type (uint8_t t)
{
  switch (t)
    {
    case KS_PTX_TYPE_U32: case KS_PTX_TYPE_S32: case KS_PTX_TYPE_B32:
    case KS_PTX_TYPE_U64: case KS_PTX_TYPE_S64: case KS_PTX_TYPE_B64:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
is_imm (const KsPtxOperand *op)
{
  return op->kind == KS_PTX_OPERAND_IMM_INT;
}

/* What a source operand is known to be aligned to */
static uint32_t
operand_align (const Fn *f, const KsPtxOperand *op)
{
  if (is_reg (op) && op->a < f->fn->n_reg_slots)
    return f->align[op->a];
  if (is_imm (op))
    return low_bit (ks_ptx_operand_u64 (op));
  if (op->kind == KS_PTX_OPERAND_VAR && op->a < f->m->n_vars)
    {
      const KsPtxVar *v = &f->m->vars[op->a];

      /* ptxas places shared memory itself, 16-byte aligned at least */
      if (v->space == KS_PTX_SPACE_SHARED)
        return MAX (v->align, 16u);
      return MAX (v->align, 1u);
    }
  return 1;
}

/* The alignment an integer instruction's result has, from its sources' */
static uint32_t
def_align (const Fn *f, const KsPtxInsn *in, const KsPtxOperand *ops)
{
  switch (in->opcode)
    {
    case KS_PTX_OPC_MOV:
    case KS_PTX_OPC_CVTA:
      return in->n_operands >= 2 ? operand_align (f, &ops[1]) : 1;
    case KS_PTX_OPC_CVT:
      /* a widening keeps the low bits */
      return in->n_operands >= 2 && ks_ptx_type_size (in->types[0]) >= ks_ptx_type_size (in->types[1])
             ? operand_align (f, &ops[1]) : 1;
    case KS_PTX_OPC_ADD:
    case KS_PTX_OPC_SUB:
    case KS_PTX_OPC_OR:
      return in->n_operands >= 3 ? MIN (operand_align (f, &ops[1]), operand_align (f, &ops[2])) : 1;
    case KS_PTX_OPC_AND:
      if (in->n_operands < 3)
        return 1;
      return MAX (operand_align (f, &ops[1]), operand_align (f, &ops[2]));
    case KS_PTX_OPC_MUL:
      if (in->n_operands < 3 || (in->flags & KS_PTX_FLAG_HI))
        return 1;
      return mul_align (operand_align (f, &ops[1]), operand_align (f, &ops[2]));
    case KS_PTX_OPC_MAD:
      if (in->n_operands < 4 || (in->flags & KS_PTX_FLAG_HI))
        return 1;
      return MIN (mul_align (operand_align (f, &ops[1]), operand_align (f, &ops[2])),
                  operand_align (f, &ops[3]));
    case KS_PTX_OPC_SHL:
      if (in->n_operands < 3 || !is_imm (&ops[2]) || ks_ptx_operand_u64 (&ops[2]) >= 20)
        return 1;
      return mul_align (operand_align (f, &ops[1]), 1u << ks_ptx_operand_u64 (&ops[2]));
    default:
      return 1;
    }
}

/* Alignment of every register: the least over its definitions, to a fixed
 * point (values only go down, through at most 21 powers of two) */
static void
compute_alignment (Fn *f)
{
  const KsPtxInsn *insns = ks_ptx_function_insns (f->m, f->fn);
  gboolean changed = TRUE;

  for (uint32_t s = 0; s < f->fn->n_reg_slots; s++)
    f->align[s] = f->n_defs[s] > 0 ? ALIGN_TOP : 1;
  for (guint round = 0; changed && round < 64; round++)
    {
      changed = FALSE;
      for (uint32_t i = 0; i < f->fn->n_insns; i++)
        {
          const KsPtxInsn *in = &insns[i];
          const KsPtxOperand *ops = ks_ptx_insn_operands (f->m, in);
          uint32_t a;

          if (in->n_operands == 0 || !is_reg (&ops[0]) || ops[0].a >= f->fn->n_reg_slots
              || in->opcode == KS_PTX_OPC_ST)
            continue;
          a = def_align (f, in, ops);
          if (a < f->align[ops[0].a])
            {
              f->align[ops[0].a] = a;
              changed = TRUE;
            }
        }
    }
}

static gboolean
is_plain_access (const KsPtxInsn *in)
{
  return (in->opcode == KS_PTX_OPC_LD || in->opcode == KS_PTX_OPC_ST)
         && in->vec == KS_PTX_VEC_NONE
         && (in->space == KS_PTX_SPACE_SHARED || in->space == KS_PTX_SPACE_GLOBAL)
         && (in->sem == KS_PTX_SEM_NONE || in->sem == KS_PTX_SEM_WEAK)
         && in->n_operands == 2;
}

/* The address operand of a plain ld/st */
static const KsPtxOperand *
access_address (const KsPtxModule *m, const KsPtxInsn *in)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

  return in->opcode == KS_PTX_OPC_LD ? &ops[1] : &ops[0];
}

static void
count_uses (Fn *f)
{
  const KsPtxInsn *insns = ks_ptx_function_insns (f->m, f->fn);

  for (uint32_t i = 0; i < f->fn->n_insns; i++)
    {
      const KsPtxInsn *in = &insns[i];
      const KsPtxOperand *ops = ks_ptx_insn_operands (f->m, in);
      KsPtxRegRefs refs;

      ks_ptx_insn_reg_refs (f->m, in, &refs);
      for (uint32_t k = 0; k < refs.n_uses; k++)
        if (!(refs.uses[k] & KS_PTX_REF_PRED) && refs.uses[k] < f->fn->n_reg_slots)
          f->n_uses[refs.uses[k]]++;
      for (uint32_t k = 0; k < refs.n_defs; k++)
        if (!(refs.defs[k] & KS_PTX_REF_PRED) && refs.defs[k] < f->fn->n_reg_slots)
          {
            f->n_defs[refs.defs[k]]++;
            f->def_insn[refs.defs[k]] = f->fn->first_insn + i;
          }
      /* the base register of a load or store address (not of atomics:
       * their address is folded too, but keep to what is certain) */
      if ((in->opcode == KS_PTX_OPC_LD || in->opcode == KS_PTX_OPC_ST) && in->n_operands >= 2)
        {
          const KsPtxOperand *a = in->opcode == KS_PTX_OPC_LD ? &ops[1] : &ops[0];

          if (a->kind == KS_PTX_OPERAND_ADDRESS && a->aux == KS_PTX_ADDRESS_REG
              && a->a < f->fn->n_reg_slots)
            f->n_addr_uses[a->a]++;
        }
    }
}

/* The folds of single instructions */
static void
fold (Fn *f, KsLowering *lw)
{
  const KsPtxModule *m = f->m;
  gboolean entry = f->fn->kind == KS_PTX_FUNCTION_ENTRY;

  for (uint32_t i = 0; i < f->fn->n_insns; i++)
    {
      uint32_t gi = f->fn->first_insn + i;
      const KsPtxInsn *in = &m->insns[gi];
      const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);
      gboolean folded = FALSE;

      if (in->pred != KS_PTX_NONE || in->n_operands == 0)
        continue;
      switch (in->opcode)
        {
        case KS_PTX_OPC_LD:
          /* a kernel parameter is a constant-bank operand */
          folded = entry && in->space == KS_PTX_SPACE_PARAM && in->vec == KS_PTX_VEC_NONE;
          break;
        case KS_PTX_OPC_CVTA:
          folded = (in->flags & KS_PTX_FLAG_TO) && in->space == KS_PTX_SPACE_GLOBAL;
          break;
        case KS_PTX_OPC_MOV:
          folded = in->n_operands == 2 && ops[1].kind == KS_PTX_OPERAND_VAR;
          break;
        case KS_PTX_OPC_CVT:
          folded = in->n_operands == 2 && in->types[0] == KS_PTX_TYPE_U64
                   && in->types[1] == KS_PTX_TYPE_U32 && is_reg (&ops[1]);
          break;
        case KS_PTX_OPC_ADD:
          if (in->n_operands == 3 && is_reg (&ops[0]) && ops[0].a < f->fn->n_reg_slots
              && is_int_type (in->types[0]))
            {
              uint32_t d = ops[0].a;

              /* an offset the loads and stores take in their address */
              if ((is_imm (&ops[2]) || is_imm (&ops[1])) && f->n_uses[d] > 0
                  && f->n_uses[d] == f->n_addr_uses[d])
                folded = TRUE;
              /* the add of an IMAD.WIDE */
              for (guint k = 1; k <= 2 && !folded; k++)
                if (is_reg (&ops[k]) && ops[k].a < f->fn->n_reg_slots && f->n_uses[ops[k].a] == 1
                    && f->n_defs[ops[k].a] == 1 && f->def_insn[ops[k].a] != KS_PTX_NONE)
                  {
                    const KsPtxInsn *p = &m->insns[f->def_insn[ops[k].a]];

                    folded = p->opcode == KS_PTX_OPC_MUL && (p->flags & KS_PTX_FLAG_WIDE)
                             && p->pred == KS_PTX_NONE;
                  }
            }
          break;
        case KS_PTX_OPC_MUL:
          if (in->n_operands == 3 && in->types[0] == KS_PTX_TYPE_F32
              && in->round == KS_PTX_ROUND_NONE && is_reg (&ops[0])
              && ops[0].a < f->fn->n_reg_slots && f->n_uses[ops[0].a] == 1)
            {
              /* its one user: an add.f32 without rounding in this function */
              for (uint32_t j = i + 1; j < f->fn->n_insns && !folded; j++)
                {
                  const KsPtxInsn *u = &m->insns[f->fn->first_insn + j];
                  const KsPtxOperand *uo = ks_ptx_insn_operands (m, u);

                  if (u->n_operands != 3)
                    continue;
                  for (guint k = 1; k <= 2; k++)
                    if (is_reg (&uo[k]) && uo[k].a == ops[0].a)
                      {
                        folded = u->opcode == KS_PTX_OPC_ADD && u->types[0] == KS_PTX_TYPE_F32
                                 && u->round == KS_PTX_ROUND_NONE && u->pred == in->pred;
                        j = f->fn->n_insns;
                        break;
                      }
                }
            }
          break;
        default:
          break;
        }
      if (folded)
        {
          lw->insns[gi].kind = KS_LOWER_FOLDED;
          lw->n_folded++;
        }
    }
}

typedef struct
{
  uint32_t insn;                /* module index */
  int64_t offset;
} Access;

static int
compare_access (gconstpointer a, gconstpointer b)
{
  const Access *x = a, *y = b;

  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  return x->insn < y->insn ? -1 : x->insn > y->insn;
}

/* Merges the accesses of one run (same space, kind, base, size and guard,
 * nothing in between that could reorder them) into vector accesses */
static void
merge_run (KsLowering *lw, Access *run, uint32_t n, uint32_t size, uint32_t base_align,
           gboolean is_load)
{
  qsort (run, n, sizeof *run, compare_access);
  for (uint32_t i = 0; i < n;)
    {
      uint32_t width = 0;

      for (uint32_t want = 16 / size; want >= 2 && width == 0; want /= 2)
        {
          uint32_t bytes = want * size;
          gboolean ok = i + want <= n && base_align >= bytes
                        && ((uint64_t) run[i].offset % bytes) == 0;

          for (uint32_t k = 1; ok && k < want; k++)
            ok = run[i + k].offset == run[i].offset + (int64_t) (k * size);
          if (ok)
            width = want;
        }
      if (width == 0)
        {
          i++;
          continue;
        }
      {
        /* loads issue at the first, stores when the last has its data */
        uint32_t leader = run[i].insn;

        for (uint32_t k = 1; k < width; k++)
          leader = is_load ? MIN (leader, run[i + k].insn) : MAX (leader, run[i + k].insn);
        for (uint32_t k = 0; k < width; k++)
          {
            KsLowerInsn *li = &lw->insns[run[i + k].insn];

            li->skew = (uint16_t) (run[i + k].offset - run[i].offset);
            if (run[i + k].insn == leader)
              {
                li->kind = KS_LOWER_ISSUE;
                li->width = (uint8_t) width;
              }
            else
              {
                li->kind = KS_LOWER_VECTOR_PART;
                li->leader = leader;
                lw->n_vector_parts++;
              }
          }
        lw->n_vectors++;
        i += width;
      }
    }
}

static gboolean
same_key (const KsPtxModule *m, const KsPtxInsn *a, const KsPtxInsn *b)
{
  const KsPtxOperand *x = access_address (m, a), *y = access_address (m, b);

  return a->opcode == b->opcode && a->space == b->space
         && ks_ptx_type_size (a->types[0]) == ks_ptx_type_size (b->types[0])
         && a->pred == b->pred && a->pred_not == b->pred_not && a->cache == b->cache
         && x->kind == y->kind && x->aux == y->aux && x->a == y->a;
}

/* Vector accesses, block by block */
static void
vectorize (Fn *f, KsLowering *lw)
{
  const KsPtxModule *m = f->m;
  g_autofree Access *run = g_new (Access, MAX (f->fn->n_insns, 1));

  for (uint32_t b = 0; b < f->fn->n_blocks; b++)
    {
      const KsPtxBlock *blk = &m->blocks[f->fn->first_block + b];
      uint32_t end = blk->first_insn + blk->n_insns;

      for (uint32_t i = blk->first_insn; i < end; i++)
        {
          uint32_t gi = f->fn->first_insn + i, n = 0, size;
          const KsPtxInsn *in = &m->insns[gi];
          const KsPtxOperand *addr;
          uint32_t base_align;

          if (!is_plain_access (in) || lw->insns[gi].kind != KS_LOWER_ISSUE
              || lw->insns[gi].width > 1)
            continue;
          addr = access_address (m, in);
          size = ks_ptx_type_size (in->types[0]);
          if (addr->kind != KS_PTX_OPERAND_ADDRESS || (size != 4 && size != 8))
            continue;
          if (addr->aux == KS_PTX_ADDRESS_REG && addr->a < f->fn->n_reg_slots)
            base_align = f->align[addr->a];
          else if (addr->aux == KS_PTX_ADDRESS_VAR && addr->a < m->n_vars)
            {
              KsPtxOperand v = { .kind = KS_PTX_OPERAND_VAR, .a = addr->a };

              base_align = operand_align (f, &v);
            }
          else
            continue;
          /* the run: later accesses of the same key, up to anything that
           * redefines the base or could be reordered against them */
          for (uint32_t j = i; j < end && j < i + VECTOR_WINDOW; j++)
            {
              uint32_t gj = f->fn->first_insn + j;
              const KsPtxInsn *o = &m->insns[gj];
              KsPtxRegRefs refs;
              gboolean stop = FALSE;

              if (is_plain_access (o) && same_key (m, in, o) && lw->insns[gj].kind == KS_LOWER_ISSUE
                  && lw->insns[gj].width <= 1)
                {
                  run[n].insn = gj;
                  run[n].offset = ks_ptx_operand_offset (m, access_address (m, o));
                  n++;
                }
              else if (o->opcode == KS_PTX_OPC_ST || o->opcode == KS_PTX_OPC_ATOM
                       || o->opcode == KS_PTX_OPC_RED || o->opcode == KS_PTX_OPC_BAR
                       || o->opcode == KS_PTX_OPC_BARRIER || o->opcode == KS_PTX_OPC_MEMBAR
                       || o->opcode == KS_PTX_OPC_FENCE || o->opcode == KS_PTX_OPC_CALL
                       || o->opcode == KS_PTX_OPC_CP)
                stop = TRUE;
              else if (in->opcode == KS_PTX_OPC_ST && o->opcode == KS_PTX_OPC_LD)
                stop = TRUE;
              if (addr->aux == KS_PTX_ADDRESS_REG && j > i)
                {
                  ks_ptx_insn_reg_refs (m, o, &refs);
                  for (uint32_t k = 0; k < refs.n_defs; k++)
                    if (refs.defs[k] == addr->a)
                      stop = TRUE;
                }
              if (stop)
                break;
            }
          if (n >= 2)
            merge_run (lw, run, n, size, base_align, in->opcode == KS_PTX_OPC_LD);
        }
    }
}

KsLowering *
ks_lower_module (const KsPtxModule *m)
{
  KsLowering *lw = g_new0 (KsLowering, 1);

  lw->n_insns = m->n_insns;
  lw->insns = g_new0 (KsLowerInsn, MAX (m->n_insns, 1));
  for (uint32_t i = 0; i < m->n_insns; i++)
    lw->insns[i].width = 1;
  for (uint32_t fi = 0; fi < m->n_functions; fi++)
    {
      const KsPtxFunction *fn = &m->functions[fi];
      uint32_t n = MAX (fn->n_reg_slots, 1);
      Fn f = { .m = m, .fn = fn };

      if (!(fn->flags & KS_PTX_FUNCTION_HAS_BODY) || fn->n_insns == 0)
        continue;
      f.align = g_new0 (uint32_t, n);
      f.n_uses = g_new0 (uint32_t, n);
      f.n_addr_uses = g_new0 (uint32_t, n);
      f.n_defs = g_new0 (uint32_t, n);
      f.def_insn = g_new (uint32_t, n);
      for (uint32_t s = 0; s < n; s++)
        f.def_insn[s] = KS_PTX_NONE;
      count_uses (&f);
      compute_alignment (&f);
      fold (&f, lw);
      vectorize (&f, lw);
      g_free (f.align);
      g_free (f.n_uses);
      g_free (f.n_addr_uses);
      g_free (f.n_defs);
      g_free (f.def_insn);
    }
  return lw;
}

void
ks_lowering_free (KsLowering *lw)
{
  if (lw == NULL)
    return;
  g_free (lw->insns);
  g_free (lw);
}
