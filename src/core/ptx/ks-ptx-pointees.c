/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-pointees.c: what a kernel's pointer parameters point at, as its
 * PTX uses them.
 *
 * nvcc writes every pointer parameter as .u64, so the element type a buffer
 * holds is not in the signature; it is in the loads and stores whose
 * address is computed from the parameter.  A forward pass over the kernel
 * follows each parameter's value from its ld.param through the moves,
 * conversions to the global window and address arithmetic (add, sub, mad,
 * selp, and) into the address of global and generic ld, st, atom and red,
 * and collects their types.  A parameter whose accesses disagree on the
 * element's size has no type.  nvcc loads and stores an int as .u32, and
 * writes add.s32 for unsigned sums too, so an integer element is taken as
 * signed only when a value loaded from it goes straight into an
 * instruction whose result the sign changes (an ordering compare, a
 * conversion, a division, a right shift, min, max, abs, bfe, of .s type),
 * or a value stored to it comes straight from one; otherwise it reads as
 * unsigned. */
#include "ks-ptx.h"

#include <string.h>

#define MAX_TRACKED 64u

static gboolean
is_arith (KsPtxOpcode op)
{
  switch (op)
    {
    case KS_PTX_OPC_MOV: case KS_PTX_OPC_CVTA: case KS_PTX_OPC_ADD: case KS_PTX_OPC_SUB:
    case KS_PTX_OPC_MAD: case KS_PTX_OPC_SELP: case KS_PTX_OPC_AND:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The operand holding the address of a memory access, or -1 */
static int
address_operand (const KsPtxInsn *in)
{
  if (in->space != KS_PTX_SPACE_GLOBAL && in->space != KS_PTX_SPACE_NONE)
    return -1;
  switch ((KsPtxOpcode) in->opcode)
    {
    case KS_PTX_OPC_LD: case KS_PTX_OPC_ATOM: return 1;
    case KS_PTX_OPC_ST: case KS_PTX_OPC_RED: return 0;
    default: return -1;
    }
}

/* Whether @t says more than @have: a float over an integer, a typed
 * integer over raw bits */
static gboolean
better (KsPtxType t,
        KsPtxType have)
{
  const char *a = ks_ptx_type_name (t), *b = ks_ptx_type_name (have);

  if (have == KS_PTX_TYPE_NONE)
    return TRUE;
  return (a[0] == 'f' && b[0] != 'f') || (b[0] == 'b' && a[0] != 'b');
}

static gboolean
is_signed (KsPtxType t)
{
  return ks_ptx_type_name (t)[0] == 's';
}

/* Whether @in treats a .s operand or result differently from a .u one */
static gboolean
sign_matters (const KsPtxInsn *in)
{
  gboolean s = is_signed ((KsPtxType) in->types[0]);

  switch ((KsPtxOpcode) in->opcode)
    {
    case KS_PTX_OPC_SETP:
      return s && in->cmp >= KS_PTX_CMP_LT && in->cmp <= KS_PTX_CMP_GE;
    case KS_PTX_OPC_CVT:
      return s || is_signed ((KsPtxType) in->types[1]);
    case KS_PTX_OPC_DIV: case KS_PTX_OPC_REM: case KS_PTX_OPC_SHR: case KS_PTX_OPC_MIN:
    case KS_PTX_OPC_MAX: case KS_PTX_OPC_ABS: case KS_PTX_OPC_BFE:
      return s;
    default:
      return FALSE;
    }
}

/* The integer type of @t's size, signed or not */
static KsPtxType
integer_of (KsPtxType t,
            gboolean  is_signed_type)
{
  static const KsPtxType u[] = {
    KS_PTX_TYPE_U8, KS_PTX_TYPE_U16, KS_PTX_TYPE_U32, KS_PTX_TYPE_U64
  };
  static const KsPtxType s[] = {
    KS_PTX_TYPE_S8, KS_PTX_TYPE_S16, KS_PTX_TYPE_S32, KS_PTX_TYPE_S64
  };
  uint32_t size = ks_ptx_type_size (t);
  int k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;

  return k < 0 ? KS_PTX_TYPE_NONE : is_signed_type ? s[k] : u[k];
}

void
ks_ptx_param_pointee_types (const KsPtxModule   *m,
                            const KsPtxFunction *f,
                            KsPtxType           *out)
{
  g_autofree uint64_t *taint = g_new0 (uint64_t, MAX (f->n_reg_slots, 1));
  g_autofree uint64_t *loaded = g_new0 (uint64_t, MAX (f->n_reg_slots, 1));
  g_autofree gboolean *signed_reg = g_new0 (gboolean, MAX (f->n_reg_slots, 1));
  uint64_t conflict = 0, signed_use = 0;
  uint32_t n_tracked = MIN (f->n_params, MAX_TRACKED);
  gboolean changed = TRUE;

  for (uint32_t p = 0; p < f->n_params; p++)
    out[p] = KS_PTX_TYPE_NONE;
  if (!(f->flags & KS_PTX_FUNCTION_HAS_BODY))
    return;
  /* (a loop carries a pointer round its back edge: a few passes reach the
   * fixed point) */
  for (int pass = 0; pass < 8 && changed; pass++)
    {
      changed = FALSE;
      for (uint32_t i = 0; i < f->n_insns; i++)
        {
          const KsPtxInsn *in = &m->insns[f->first_insn + i];
          const KsPtxOperand *ops = &m->operands[in->first_operand];
          KsPtxOpcode op = (KsPtxOpcode) in->opcode;
          uint64_t t = 0;
          int ai;

          if (in->n_operands == 0)
            continue;
          /* signed values: what a signed instruction makes, and the loaded
           * values it reads */
          if (sign_matters (in))
            {
              if (ops[0].kind == KS_PTX_OPERAND_REG && ops[0].a < f->n_reg_slots
                  && is_signed ((KsPtxType) in->types[0]))
                signed_reg[ops[0].a] = TRUE;
              for (uint32_t k = 1; k < in->n_operands; k++)
                if (ops[k].kind == KS_PTX_OPERAND_REG && ops[k].a < f->n_reg_slots)
                  signed_use |= loaded[ops[k].a];
            }
          if (op == KS_PTX_OPC_LD && in->space == KS_PTX_SPACE_PARAM && in->n_operands == 2
              && ops[0].kind == KS_PTX_OPERAND_REG && ops[1].kind == KS_PTX_OPERAND_ADDRESS
              && ops[1].aux == KS_PTX_ADDRESS_VAR && ops[1].a >= f->first_param
              && ops[1].a - f->first_param < n_tracked)
            t = G_GUINT64_CONSTANT (1) << (ops[1].a - f->first_param);
          else if (is_arith (op) && ops[0].kind == KS_PTX_OPERAND_REG)
            {
              for (uint32_t k = 1; k < in->n_operands; k++)
                if (ops[k].kind == KS_PTX_OPERAND_REG && ops[k].a < f->n_reg_slots)
                  t |= taint[ops[k].a];
            }
          else if ((ai = address_operand (in)) >= 0 && ai < in->n_operands
                   && ops[ai].kind == KS_PTX_OPERAND_ADDRESS && ops[ai].aux == KS_PTX_ADDRESS_REG
                   && ops[ai].a < f->n_reg_slots && taint[ops[ai].a] != 0)
            {
              KsPtxType type = (KsPtxType) in->types[0];

              if (op == KS_PTX_OPC_LD && ops[0].kind == KS_PTX_OPERAND_REG
                  && ops[0].a < f->n_reg_slots)
                loaded[ops[0].a] |= taint[ops[ai].a];
              else if (op == KS_PTX_OPC_ST && in->n_operands > 1
                       && ops[1].kind == KS_PTX_OPERAND_REG && ops[1].a < f->n_reg_slots
                       && signed_reg[ops[1].a])
                signed_use |= taint[ops[ai].a];
              for (uint32_t p = 0; p < n_tracked; p++)
                {
                  if (!(taint[ops[ai].a] & (G_GUINT64_CONSTANT (1) << p))
                      || type == KS_PTX_TYPE_NONE)
                    continue;
                  if (out[p] != KS_PTX_TYPE_NONE
                      && ks_ptx_type_size (out[p]) != ks_ptx_type_size (type))
                    conflict |= G_GUINT64_CONSTANT (1) << p;
                  else if (better (type, out[p]))
                    out[p] = type;
                }
              continue;
            }
          if (t != 0 && ops[0].kind == KS_PTX_OPERAND_REG && ops[0].a < f->n_reg_slots
              && (taint[ops[0].a] | t) != taint[ops[0].a])
            {
              taint[ops[0].a] |= t;
              changed = TRUE;
            }
        }
    }
  for (uint32_t p = 0; p < n_tracked; p++)
    {
      const char *name = ks_ptx_type_name (out[p]);

      if (conflict & (G_GUINT64_CONSTANT (1) << p))
        out[p] = KS_PTX_TYPE_NONE;
      else if ((name[0] == 'b' || name[0] == 'u') && (signed_use & (G_GUINT64_CONSTANT (1) << p)))
        out[p] = integer_of (out[p], TRUE);
      else if (name[0] == 'b')
        out[p] = integer_of (out[p], FALSE);
    }
}
