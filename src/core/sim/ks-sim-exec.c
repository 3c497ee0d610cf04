/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-exec.c: one warp-instruction at a time.
 *
 * Each instruction is dispatched once per warp; its operation then runs as
 * a loop over the lanes that execute it.  Values live in 64-bit lane slots;
 * an operation reads the low bits its type needs and writes its result
 * truncated (or sign-extended for signed loads) to them. */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks-ptx-private.h"
#include "ks-sim-exec.h"

#define LANES(mask, lane) \
  for (uint32_t lanes_##lane = (mask), lane; \
       lanes_##lane && ((lane = (uint32_t) __builtin_ctz (lanes_##lane)), 1); \
       lanes_##lane &= lanes_##lane - 1)

typedef struct
{
  KsSim *sim;
  KsSimWarp *w;
  KsSimFrame *f;
  const KsPtxModule *m;
  const KsPtxFunction *fn;
  const KsPtxInsn *in;
  const KsPtxOperand *ops;
  uint32_t pc;
  uint32_t active;              /* lanes on this path */
  uint32_t exec;                /* ... and whose guard predicate holds */
} Ctx;

static inline uint64_t *
reg (const Ctx *c,
     uint32_t   slot)
{
  return c->f->regs + (size_t) slot * KS_WARP_SIZE;
}

static inline uint64_t
type_mask (KsPtxType t)
{
  uint32_t size = ks_ptx_type_size (t);

  return size >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (size * 8)) - 1;
}

static inline gboolean
is_signed (KsPtxType t)
{
  return t >= KS_PTX_TYPE_S8 && t <= KS_PTX_TYPE_S64;
}

static inline gboolean
is_float (KsPtxType t)
{
  return t == KS_PTX_TYPE_F32 || t == KS_PTX_TYPE_F64 || t == KS_PTX_TYPE_F16
         || t == KS_PTX_TYPE_BF16;
}

static inline int64_t
sext (uint64_t  v,
      KsPtxType t)
{
  switch (ks_ptx_type_size (t))
    {
    case 1: return (int8_t) v;
    case 2: return (int16_t) v;
    case 4: return (int32_t) v;
    default: return (int64_t) v;
    }
}

static uint32_t
sreg_value (const Ctx          *c,
            const KsPtxOperand *op,
            uint32_t            lane)
{
  const KsSim *sim = c->sim;
  const uint32_t *bd = sim->launch->block;
  const uint32_t *gd = sim->launch->grid;
  uint32_t t = c->w->first_thread + lane;
  uint32_t comp = op->aux == KS_PTX_NO_COMPONENT ? 0 : op->aux;
  uint32_t tid[3] = { t % bd[0], (t / bd[0]) % bd[1], t / (bd[0] * bd[1]) };

  switch ((KsPtxSreg) op->a)
    {
    case KS_PTX_SREG_TID: return comp < 3 ? tid[comp] : 0;
    case KS_PTX_SREG_NTID: return comp < 3 ? bd[comp] : 0;
    case KS_PTX_SREG_CTAID: return comp < 3 ? sim->cta.ctaid[comp] : 0;
    case KS_PTX_SREG_NCTAID: return comp < 3 ? gd[comp] : 0;
    case KS_PTX_SREG_LANEID: return lane;
    case KS_PTX_SREG_WARPID: return c->w->index;
    case KS_PTX_SREG_NWARPID: return sim->warps_per_cta;
    case KS_PTX_SREG_SMID: return 0;
    case KS_PTX_SREG_NSMID: return 1;
    case KS_PTX_SREG_LANEMASK_EQ: return 1u << lane;
    case KS_PTX_SREG_LANEMASK_LT: return (1u << lane) - 1;
    case KS_PTX_SREG_LANEMASK_LE: return lane == 31 ? KS_FULL_MASK : (2u << lane) - 1;
    case KS_PTX_SREG_LANEMASK_GT: return lane == 31 ? 0 : ~((2u << lane) - 1);
    case KS_PTX_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case KS_PTX_SREG_DYNAMIC_SMEM_SIZE: return sim->launch->dynamic_shared_bytes;
    case KS_PTX_SREG_TOTAL_SMEM_SIZE: return sim->shared_size;
    case KS_PTX_SREG_CLOCK: return (uint32_t) sim->stats.warp_instructions;
    case KS_PTX_SREG_CLOCK_HI: return (uint32_t) (sim->stats.warp_instructions >> 32);
    case KS_PTX_SREG_CLUSTER_CTARANK: return 0;
    case KS_PTX_SREG_CLUSTER_NCTARANK: return 1;
    case KS_PTX_SREG_CLUSTER_NCTAID: return 1;
    case KS_PTX_SREG_CLUSTER_CTAID: return 0;
    case KS_PTX_SREG_NCLUSTERID: return comp < 3 ? gd[comp] : 0;
    case KS_PTX_SREG_CLUSTERID: return comp < 3 ? sim->cta.ctaid[comp] : 0;
    default: return 0;
    }
}

/* Where a variable is, in its own state space, for this frame */
static uint64_t
var_address (const Ctx *c,
             uint32_t   var)
{
  const KsPtxVar *v = &c->m->vars[var];

  if (v->space == KS_PTX_SPACE_LOCAL)
    return c->f->local_base + c->sim->var_addr[var];
  return c->sim->var_addr[var];
}

/* The 64 bits of a source operand for one lane, with immediates converted
 * to the instruction's type t. */
static uint64_t
src (const Ctx          *c,
     const KsPtxOperand *op,
     uint32_t            lane,
     KsPtxType           t)
{
  switch (op->kind)
    {
    case KS_PTX_OPERAND_REG:
      return reg (c, op->a)[lane];
    case KS_PTX_OPERAND_PRED:
      return ((c->f->preds[op->a] >> lane) & 1) ^ ((op->flags & KS_PTX_OPERAND_NOT) ? 1 : 0);
    case KS_PTX_OPERAND_IMM_INT:
      if (t == KS_PTX_TYPE_F32)
        return ks_exec_f32_bits ((float) (int64_t) ks_ptx_operand_u64 (op));
      if (t == KS_PTX_TYPE_F64)
        return ks_exec_f64_bits ((double) (int64_t) ks_ptx_operand_u64 (op));
      return ks_ptx_operand_u64 (op);
    case KS_PTX_OPERAND_IMM_F32:
      if (t == KS_PTX_TYPE_F64)
        return ks_exec_f64_bits ((double) ks_exec_bits_f32 (op->a));
      return op->a;
    case KS_PTX_OPERAND_IMM_F64:
      if (ks_ptx_type_size (t) == 4)
        return ks_exec_f32_bits ((float) ks_exec_bits_f64 (ks_ptx_operand_u64 (op)));
      return ks_ptx_operand_u64 (op);
    case KS_PTX_OPERAND_SREG:
      if (op->a == KS_PTX_SREG_CLOCK64 || op->a == KS_PTX_SREG_GLOBALTIMER)
        return c->sim->stats.warp_instructions;
      return sreg_value (c, op, lane);
    case KS_PTX_OPERAND_VAR:
      {
        const KsPtxVar *v = &c->m->vars[op->a];
        uint64_t a = var_address (c, op->a);

        if (v->space == KS_PTX_SPACE_PARAM && v->function == c->sim->entry)
          return a;             /* in the param space; cvta.param makes it generic */
        return a;
      }
    case KS_PTX_OPERAND_FUNC:
      return KS_SIM_FUNC_WINDOW + op->a;
    case KS_PTX_OPERAND_ADDRESS:
      if (op->aux == KS_PTX_ADDRESS_VAR)
        return var_address (c, op->a) + (uint64_t) ks_ptx_operand_offset (c->m, op);
      if (op->aux == KS_PTX_ADDRESS_FUNC)
        return KS_SIM_FUNC_WINDOW + op->a;
      return (uint64_t) ks_ptx_operand_offset (c->m, op);
    default:
      return 0;
    }
}

static inline float
srcf (const Ctx          *c,
      const KsPtxOperand *op,
      uint32_t            lane)
{
  return ks_exec_bits_f32 ((uint32_t) src (c, op, lane, KS_PTX_TYPE_F32));
}

static inline double
srcd (const Ctx          *c,
      const KsPtxOperand *op,
      uint32_t            lane)
{
  return ks_exec_bits_f64 (src (c, op, lane, KS_PTX_TYPE_F64));
}

static inline void
dst (const Ctx          *c,
     const KsPtxOperand *op,
     uint32_t            lane,
     uint64_t            v)
{
  switch (op->kind)
    {
    case KS_PTX_OPERAND_REG:
      reg (c, op->a)[lane] = v;
      break;
    case KS_PTX_OPERAND_PRED:
      if (v & 1)
        c->f->preds[op->a] |= 1u << lane;
      else
        c->f->preds[op->a] &= ~(1u << lane);
      break;
    default:
      break;                    /* the sink */
    }
}

static void
unsupported (const Ctx  *c,
             const char *what)
{
  const KsPtxExtra *x = c->in->extra ? &c->m->extras[c->in->extra] : NULL;
  g_autofree char *name = x && c->in->opcode == KS_PTX_OPC_UNKNOWN
                          ? ks_ptx_span_dup (c->m, x->opcode_name)
                          : g_strdup (ks_ptx_opcode_name (c->in->opcode));

  ks_sim_fault (c->sim, c->w, (int) (c->exec ? __builtin_ctz (c->exec) : 0), c->in,
                KS_SIM_FAULT_UNSUPPORTED, FALSE, 0,
                "%s%s%s is not supported by the simulator yet", name,
                what ? " " : "", what ? what : "");
}

/* ---- control flow ------------------------------------------------------------------ */

/* Pops what is finished: paths with no lanes left, paths that reached their
 * reconvergence point, and frames with no paths left (a return). */
static void
settle (Ctx *c)
{
  KsSimWarp *w = c->w;
  const KsPtxModule *m = c->m;

  for (;;)
    {
      KsSimFrame *f;

      if (w->n_frames == 0)
        {
          w->state = KS_WARP_DONE;
          return;
        }
      f = &w->frames[w->n_frames - 1];
      if (w->n_simt > f->simt_base)
        {
          KsSimtEntry *top = &w->simt[w->n_simt - 1];

          if (top->mask == 0 || (top->rpc != KS_PTX_NONE && top->pc == top->rpc))
            {
              w->n_simt--;
              continue;
            }
          return;
        }

      /* The frame is finished: copy the return values to the caller and
       * resume it after its call. */
      {
        KsSimFrame callee = *f;
        uint32_t call_pc = f->call_pc;

        w->n_frames--;
        w->local_top = callee.local_base;
        if (w->n_frames > 0 && w->n_simt > 0)
          {
            KsSimFrame *caller = &w->frames[w->n_frames - 1];
            const KsPtxFunction *cfn = &m->functions[caller->fn];
            const KsPtxInsn *call = &m->insns[cfn->first_insn + call_pc];
            const KsPtxOperand *ops = &m->operands[call->first_operand];
            const KsPtxFunction *tfn = &m->functions[callee.fn];
            uint32_t lanes = callee.call_mask & w->live;

            if (call->n_operands > 0 && ops[0].kind == KS_PTX_OPERAND_LIST)
              for (uint32_t r = 0; r < ops[0].aux && r < tfn->n_rets; r++)
                {
                  const KsPtxOperand *to = &m->operands[ops[0].a + r];
                  const KsPtxVar *rv = &m->vars[tfn->first_ret + r];
                  uint32_t size = ks_ptx_type_size (rv->type) * rv->vec * (uint32_t) rv->n_elements;
                  uint32_t csize = c->sim->layouts[caller->fn].param_size;
                  uint32_t tsize = c->sim->layouts[callee.fn].param_size;

                  LANES (lanes, lane)
                    {
                      const uint8_t *from = callee.params + (size_t) lane * tsize
                                            + c->sim->var_addr[tfn->first_ret + r];

                      if (to->kind == KS_PTX_OPERAND_VAR)
                        memcpy (caller->params + (size_t) lane * csize + c->sim->var_addr[to->a],
                                from, size);
                      else if (to->kind == KS_PTX_OPERAND_REG)
                        {
                          uint64_t v = 0;

                          memcpy (&v, from, MIN (size, 8));
                          caller->regs[(size_t) to->a * KS_WARP_SIZE + lane] = v;
                        }
                    }
                }
            w->simt[w->n_simt - 1].pc = call_pc + 1;
          }
        g_free (callee.regs);
        g_free (callee.preds);
        g_free (callee.params);
      }
    }
}

/* Lanes leave: removed from every path of the frames from `from_frame` up. */
static void
remove_lanes (KsSimWarp *w,
              uint32_t   from_frame,
              uint32_t   lanes)
{
  uint32_t first = w->frames[from_frame].simt_base;

  for (uint32_t i = first; i < w->n_simt; i++)
    w->simt[i].mask &= ~lanes;
}

static uint32_t
reconvergence_pc (const Ctx *c)
{
  const KsPtxModule *m = c->m;
  uint32_t b = c->sim->insn_block[c->fn->first_insn + c->pc];
  uint32_t ipdom = m->blocks[c->fn->first_block + b].ipdom;

  if (ipdom == KS_PTX_NONE)
    return KS_PTX_NONE;
  return m->blocks[c->fn->first_block + ipdom].first_insn;
}

/* A branch: lanes in `taken` go to `target`, the rest of the path falls
 * through.  Divergent paths reconverge at the immediate post-dominator. */
static void
branch (Ctx      *c,
        uint32_t  taken,
        uint32_t  target)
{
  KsSimWarp *w = c->w;
  uint32_t top = w->n_simt - 1;
  uint32_t not_taken = c->active & ~taken;

  if (taken == 0)
    w->simt[top].pc = c->pc + 1;
  else if (not_taken == 0)
    w->simt[top].pc = target;
  else
    {
      uint32_t rpc = reconvergence_pc (c);

      w->simt[top].pc = rpc;
      ks_sim_simt_push (w, c->pc + 1, rpc, not_taken);
      ks_sim_simt_push (w, target, rpc, taken);
    }
}

static void
do_exit (Ctx      *c,
         uint32_t  lanes)
{
  c->w->live &= ~lanes;
  remove_lanes (c->w, 0, lanes);
}

static void
do_ret (Ctx      *c,
        uint32_t  lanes)
{
  KsSimWarp *w = c->w;

  if (w->n_frames == 1)
    {
      do_exit (c, lanes);
      return;
    }
  remove_lanes (w, w->n_frames - 1, lanes);
}

static gboolean
read_mem (Ctx        *c,
          uint32_t    lane,
          KsPtxSpace  space,
          uint64_t    addr,
          void       *buf,
          uint32_t    size)
{
  const uint8_t *p = ks_sim_resolve (c->sim, c->w, (int) lane, c->in, space, addr, size, FALSE);

  if (p == NULL)
    return FALSE;
  memcpy (buf, p, size);
  return TRUE;
}

/* printf: vprintf(format, args) with the arguments packed in local memory,
 * each aligned to its size, as nvcc lays them out.  The conversions are
 * handed to the C library one at a time, after checking that each is a
 * plain conversion with flags, width and precision only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void
do_vprintf (Ctx                *c,
            const KsPtxOperand *args,
            const KsPtxOperand *rets)
{
  KsSim *sim = c->sim;
  uint32_t psize = sim->layouts[c->f->fn].param_size;

  LANES (c->exec, lane)
    {
      uint64_t fmt_addr = 0, arg_addr = 0, off = 0;
      GString *out = sim->printf_out;
      char ch;
      uint32_t n_args = 0;

      for (uint32_t i = 0; i < args->aux && i < 2; i++)
        {
          const KsPtxOperand *a = &c->m->operands[args->a + i];
          uint64_t v = 0;

          if (a->kind == KS_PTX_OPERAND_VAR)
            memcpy (&v, c->f->params + (size_t) lane * psize + sim->var_addr[a->a], 8);
          else
            v = src (c, a, lane, KS_PTX_TYPE_U64);
          if (i == 0)
            fmt_addr = v;
          else
            arg_addr = v;
        }

      for (uint32_t i = 0; i < 4096; i++)
        {
          char spec[32];
          uint32_t n = 0;
          gboolean is_long = FALSE;

          if (!read_mem (c, lane, KS_PTX_SPACE_NONE, fmt_addr + i, &ch, 1))
            return;
          if (ch == '\0')
            break;
          if (ch != '%')
            {
              g_string_append_c (out, ch);
              continue;
            }
          spec[n++] = '%';
          for (;;)
            {
              if (!read_mem (c, lane, KS_PTX_SPACE_NONE, fmt_addr + ++i, &ch, 1))
                return;
              if (ch == '\0' || n >= sizeof spec - 2)
                break;
              if (ch == 'l')
                {
                  is_long = TRUE;
                  continue;
                }
              if (ch == 'h')
                continue;
              spec[n++] = ch;
              /* Only flags, a width and a precision may come before the
               * conversion: a '*' would read arguments that are not there. */
              if (strchr ("diouxXcsfFeEgGaAp%", ch) || !strchr ("-+ #0123456789.", ch))
                break;
            }
          spec[n] = '\0';
          if (ch == '\0')
            break;
          if (ch == '%' || !strchr ("diouxXcsfFeEgGaAp", ch))
            {
              /* %% or something printf cannot take: print it as written */
              g_string_append (out, ch == '%' && n == 2 ? "%" : spec);
              continue;
            }
          n_args++;
          if (strchr ("fFeEgGaA", ch))
            {
              double d;

              off = (off + 7) & ~(uint64_t) 7;
              if (!read_mem (c, lane, KS_PTX_SPACE_NONE, arg_addr + off, &d, 8))
                return;
              off += 8;
              g_string_append_printf (out, spec, d);
            }
          else if (ch == 's' || ch == 'p')
            {
              uint64_t ptr;

              off = (off + 7) & ~(uint64_t) 7;
              if (!read_mem (c, lane, KS_PTX_SPACE_NONE, arg_addr + off, &ptr, 8))
                return;
              off += 8;
              if (ch == 'p')
                g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", ptr);
              else
                for (uint32_t k = 0; k < 65536; k++)
                  {
                    if (!read_mem (c, lane, KS_PTX_SPACE_NONE, ptr + k, &ch, 1))
                      return;
                    if (ch == '\0')
                      break;
                    g_string_append_c (out, ch);
                  }
            }
          else
            {
              char lspec[40];
              uint64_t v = 0;
              uint32_t size = is_long ? 8 : 4;

              off = (off + size - 1) & ~(uint64_t) (size - 1);
              if (!read_mem (c, lane, KS_PTX_SPACE_NONE, arg_addr + off, &v, size))
                return;
              off += size;
              /* print through a 64-bit conversion of the same letter */
              memcpy (lspec, spec, n - 1);
              g_snprintf (lspec + n - 1, sizeof lspec - (n - 1), "%s%c",
                          ch == 'c' ? "" : G_GINT64_MODIFIER, ch);
              if (ch == 'c')
                g_string_append_printf (out, lspec, (int) (char) v);
              else if (ch == 'd' || ch == 'i')
                g_string_append_printf (out, lspec, is_long ? (gint64) v : (gint64) (int32_t) v);
              else
                g_string_append_printf (out, lspec, is_long ? (guint64) v : (guint64) (uint32_t) v);
            }
        }

      if (rets != NULL && rets->aux > 0)
        {
          const KsPtxOperand *r = &c->m->operands[rets->a];
          int32_t rv = (int32_t) n_args;

          if (r->kind == KS_PTX_OPERAND_VAR)
            memcpy (c->f->params + (size_t) lane * psize + sim->var_addr[r->a], &rv, 4);
        }
    }
}

#pragma GCC diagnostic pop

static void
do_call (Ctx *c)
{
  const KsPtxModule *m = c->m;
  const KsPtxOperand *rets = NULL, *args = NULL, *callee = NULL;
  uint32_t target = KS_PTX_NONE;
  const KsPtxFunction *tfn;

  for (uint32_t i = 0; i < c->in->n_operands; i++)
    {
      const KsPtxOperand *op = &c->ops[i];

      if (op->kind == KS_PTX_OPERAND_LIST)
        {
          if (callee == NULL)
            rets = op;
          else if (args == NULL)
            args = op;
        }
      else if (callee == NULL)
        callee = op;
    }
  if (callee == NULL)
    {
      unsupported (c, "without a callee");
      return;
    }

  if (callee->kind == KS_PTX_OPERAND_FUNC)
    target = callee->a;
  else
    {
      /* Indirect: every lane must call the same function */
      LANES (c->exec, lane)
        {
          uint64_t a = src (c, callee, lane, KS_PTX_TYPE_U64);
          uint32_t t = a >= KS_SIM_FUNC_WINDOW && a < KS_SIM_FUNC_WINDOW + m->n_functions
                       ? (uint32_t) (a - KS_SIM_FUNC_WINDOW) : KS_PTX_NONE;

          if (t == KS_PTX_NONE)
            {
              ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, a,
                            "indirect call to 0x%" G_GINT64_MODIFIER "x, which is not a function", a);
              return;
            }
          if (target != KS_PTX_NONE && t != target)
            {
              unsupported (c, "through a pointer that differs between the lanes of a warp");
              return;
            }
          target = t;
        }
    }
  if (target == KS_PTX_NONE)
    {
      c->w->simt[c->w->n_simt - 1].pc = c->pc + 1;
      return;
    }

  tfn = &m->functions[target];
  if (!(tfn->flags & KS_PTX_FUNCTION_HAS_BODY))
    {
      if (ks_ptx_span_equal (m, tfn->name, "vprintf"))
        {
          if (args != NULL)
            do_vprintf (c, args, rets);
          c->w->simt[c->w->n_simt - 1].pc = c->pc + 1;
          return;
        }
      if (ks_ptx_span_equal (m, tfn->name, "__assertfail"))
        {
          ks_sim_fault (c->sim, c->w, (int) __builtin_ctz (c->exec), c->in, KS_SIM_FAULT_TRAP,
                        FALSE, 0, "assertion failed in the kernel");
          return;
        }
      {
        g_autofree char *name = ks_ptx_span_dup (m, tfn->name);
        g_autofree char *what = g_strdup_printf ("of the external function %s", name);

        unsupported (c, what);
      }
      return;
    }

  {
    KsSimFrame *caller = c->f;
    uint32_t csize = c->sim->layouts[caller->fn].param_size;
    uint32_t tsize = c->sim->layouts[target].param_size;
    uint32_t reg_param = 0;
    KsSimFrame *frame;

    if (!ks_sim_push_frame (c->sim, c->w, target, c->pc, c->exec))
      {
        ks_sim_fault (c->sim, c->w, (int) __builtin_ctz (c->exec), c->in,
                      KS_SIM_FAULT_STACK_OVERFLOW, FALSE, 0,
                      "call stack overflow: %u nested calls or %u bytes of local memory "
                      "per thread (unbounded recursion?)", KS_SIM_MAX_FRAMES, KS_SIM_LOCAL_LIMIT);
        return;
      }
    caller = &c->w->frames[c->w->n_frames - 2];
    frame = &c->w->frames[c->w->n_frames - 1];

    for (uint32_t i = 0; i < tfn->n_params; i++)
      {
        const KsPtxVar *pv = &m->vars[tfn->first_param + i];
        uint32_t size = ks_ptx_type_size (pv->type) * pv->vec * (uint32_t) pv->n_elements;
        const KsPtxOperand *from = args && i < args->aux ? &m->operands[args->a + i] : NULL;

        if (from == NULL)
          break;
        LANES (c->exec, lane)
          {
            uint8_t buf[256] = { 0 };
            uint32_t n = MIN (size, sizeof buf);

            if (from->kind == KS_PTX_OPERAND_VAR)
              memcpy (buf, caller->params + (size_t) lane * csize + c->sim->var_addr[from->a], n);
            else
              {
                uint64_t v = caller->regs[(size_t) from->a * KS_WARP_SIZE + lane];

                if (from->kind != KS_PTX_OPERAND_REG)
                  v = src (c, from, lane, pv->type);
                memcpy (buf, &v, MIN (n, 8));
              }
            if (pv->flags & KS_PTX_VAR_REG_PARAM)
              {
                const KsPtxRegDecl *rd = &m->reg_decls[tfn->first_reg_decl + reg_param];
                uint64_t v = 0;

                memcpy (&v, buf, MIN (n, 8));
                frame->regs[(size_t) rd->first_slot * KS_WARP_SIZE + lane] = v;
              }
            else
              memcpy (frame->params + (size_t) lane * tsize + c->sim->var_addr[tfn->first_param + i],
                      buf, n);
          }
        if (pv->flags & KS_PTX_VAR_REG_PARAM)
          reg_param++;
      }
  }
}

/* ---- memory instructions ---------------------------------------------------------------- */

/* The state space and address an ld/st/atom operand refers to for a lane.
 * Variables carry their own space; registers use the instruction's. */
static KsPtxSpace
address_of (const Ctx          *c,
            const KsPtxOperand *op,
            uint32_t            lane,
            uint64_t           *addr,
            gboolean           *frame_param)
{
  KsPtxSpace space = (KsPtxSpace) c->in->space;

  *frame_param = FALSE;
  if (op->kind == KS_PTX_OPERAND_ADDRESS && op->aux == KS_PTX_ADDRESS_VAR)
    {
      const KsPtxVar *v = &c->m->vars[op->a];

      *addr = var_address (c, op->a) + (uint64_t) ks_ptx_operand_offset (c->m, op);
      if (v->space == KS_PTX_SPACE_PARAM)
        {
          *frame_param = !(v->function == c->sim->entry && (v->flags & KS_PTX_VAR_PARAM));
          return KS_PTX_SPACE_PARAM;
        }
      return (KsPtxSpace) v->space;
    }
  if (op->kind == KS_PTX_OPERAND_ADDRESS && op->aux == KS_PTX_ADDRESS_REG)
    *addr = reg (c, op->a)[lane] + (uint64_t) ks_ptx_operand_offset (c->m, op);
  else
    *addr = src (c, op, lane, KS_PTX_TYPE_U64);
  if (space == KS_PTX_SPACE_PARAM && c->w->n_frames > 1)
    *frame_param = TRUE;
  return space;
}

static uint8_t *
mem_at (Ctx                *c,
        const KsPtxOperand *op,
        uint32_t            lane,
        uint32_t            size,
        gboolean            store)
{
  uint64_t addr;
  gboolean frame_param;
  KsPtxSpace space = address_of (c, op, lane, &addr, &frame_param);

  if (frame_param)
    {
      uint32_t psize = c->sim->layouts[c->f->fn].param_size;

      if (addr + size > psize)
        {
          ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                        "parameter access of size %u at offset %" G_GUINT64_FORMAT
                        " is outside the function's %u bytes of parameters",
                        size, addr, psize);
          return NULL;
        }
      return c->f->params + (size_t) lane * psize + addr;
    }
  return ks_sim_resolve (c->sim, c->w, (int) lane, c->in, space, addr, size, store);
}

static uint32_t
vec_count (const KsPtxInsn *in)
{
  switch (in->vec)
    {
    case KS_PTX_VEC_V2: return 2;
    case KS_PTX_VEC_V4: return 4;
    case KS_PTX_VEC_V8: return 8;
    default: return 1;
    }
}

static void
do_load (Ctx *c)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  uint32_t esize = ks_ptx_type_size (t);
  uint32_t n = vec_count (c->in);
  const KsPtxOperand *d = &c->ops[0];

  if (c->in->n_operands < 2 || esize == 0)
    {
      unsupported (c, "in this form");
      return;
    }
  LANES (c->exec, lane)
    {
      const uint8_t *p = mem_at (c, &c->ops[1], lane, esize * n, FALSE);

      if (p == NULL)
        return;
      for (uint32_t i = 0; i < n; i++)
        {
          const KsPtxOperand *to = d->kind == KS_PTX_OPERAND_VECTOR ? &c->m->operands[d->a + i] : d;
          uint64_t v = 0;

          memcpy (&v, p + (size_t) i * esize, esize);
          if (is_signed (t))
            v = (uint64_t) sext (v, t);
          if (d->kind != KS_PTX_OPERAND_VECTOR && i > 0)
            break;
          dst (c, to, lane, v);
        }
    }
}

static void
do_store (Ctx *c)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  uint32_t esize = ks_ptx_type_size (t);
  uint32_t n = vec_count (c->in);
  const KsPtxOperand *s = &c->ops[1];

  if (c->in->n_operands < 2 || esize == 0)
    {
      unsupported (c, "in this form");
      return;
    }
  LANES (c->exec, lane)
    {
      uint8_t *p = mem_at (c, &c->ops[0], lane, esize * n, TRUE);

      if (p == NULL)
        return;
      for (uint32_t i = 0; i < n; i++)
        {
          const KsPtxOperand *from = s->kind == KS_PTX_OPERAND_VECTOR ? &c->m->operands[s->a + i] : s;
          uint64_t v = src (c, from, lane, t);

          memcpy (p + (size_t) i * esize, &v, esize);
        }
    }
}

static uint64_t
atomic_op (KsPtxOp   op,
           KsPtxType t,
           uint64_t  old,
           uint64_t  b,
           uint64_t  cmp,
           gboolean *ok)
{
  uint64_t m = type_mask (t);

  *ok = TRUE;
  switch (op)
    {
    case KS_PTX_OP_ADD:
      if (t == KS_PTX_TYPE_F32)
        {
          float x = ks_exec_bits_f32 ((uint32_t) old) + ks_exec_bits_f32 ((uint32_t) b);

          /* atom.add.f32 flushes subnormal results to zero */
          if (fpclassify (x) == FP_SUBNORMAL)
            x = copysignf (0.0f, x);
          return ks_exec_f32_bits (x);
        }
      if (t == KS_PTX_TYPE_F64)
        return ks_exec_f64_bits (ks_exec_bits_f64 (old) + ks_exec_bits_f64 (b));
      return (old + b) & m;
    case KS_PTX_OP_MIN:
      if (is_signed (t))
        return sext (old, t) < sext (b, t) ? old : b;
      return (old & m) < (b & m) ? old : b;
    case KS_PTX_OP_MAX:
      if (is_signed (t))
        return sext (old, t) > sext (b, t) ? old : b;
      return (old & m) > (b & m) ? old : b;
    case KS_PTX_OP_INC:
      return (old & m) >= (b & m) ? 0 : (old + 1) & m;
    case KS_PTX_OP_DEC:
      return ((old & m) == 0 || (old & m) > (b & m)) ? b : (old - 1) & m;
    case KS_PTX_OP_CAS:
      return (old & m) == (b & m) ? cmp : old;
    case KS_PTX_OP_EXCH:
      return b;
    case KS_PTX_OP_AND:
      return old & b;
    case KS_PTX_OP_OR:
      return old | b;
    case KS_PTX_OP_XOR:
      return old ^ b;
    default:
      *ok = FALSE;
      return old;
    }
}

static void
do_atomic (Ctx      *c,
           gboolean  red)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  uint32_t size = ks_ptx_type_size (t);
  uint32_t a = red ? 0 : 1;
  gboolean ok = TRUE;

  if (c->in->n_operands < a + 2 || size == 0 || size > 8)
    {
      unsupported (c, "in this form");
      return;
    }
  /* Lanes in order: the simulator is sequential, so each atomic sees the
   * previous lane's result, as one possible hardware order does. */
  LANES (c->exec, lane)
    {
      uint8_t *p = mem_at (c, &c->ops[a], lane, size, TRUE);
      uint64_t old = 0, b, cmp = 0, nv;

      if (p == NULL)
        return;
      memcpy (&old, p, size);
      b = src (c, &c->ops[a + 1], lane, t);
      if (c->in->op == KS_PTX_OP_CAS)
        {
          cmp = src (c, &c->ops[a + 2], lane, t);
          nv = atomic_op (KS_PTX_OP_CAS, t, old, b, cmp, &ok);
        }
      else
        nv = atomic_op ((KsPtxOp) c->in->op, t, old, b, 0, &ok);
      if (!ok)
        {
          unsupported (c, "with this operation");
          return;
        }
      memcpy (p, &nv, size);
      if (!red)
        dst (c, &c->ops[0], lane, is_signed (t) ? (uint64_t) sext (old, t) : old);
    }
}

/* ---- arithmetic ---------------------------------------------------------------------------- */

static inline gboolean
compare_int (KsPtxCmp  cmp,
             KsPtxType t,
             uint64_t  a,
             uint64_t  b)
{
  uint64_t m = type_mask (t);
  gboolean s = is_signed (t);
  int64_t sa = sext (a, t), sb = sext (b, t);
  uint64_t ua = a & m, ub = b & m;

  switch (cmp)
    {
    case KS_PTX_CMP_EQ: return ua == ub;
    case KS_PTX_CMP_NE: return ua != ub;
    case KS_PTX_CMP_LT: return s ? sa < sb : ua < ub;
    case KS_PTX_CMP_LE: return s ? sa <= sb : ua <= ub;
    case KS_PTX_CMP_GT: return s ? sa > sb : ua > ub;
    case KS_PTX_CMP_GE: return s ? sa >= sb : ua >= ub;
    case KS_PTX_CMP_LO: return ua < ub;
    case KS_PTX_CMP_LS: return ua <= ub;
    case KS_PTX_CMP_HI: return ua > ub;
    case KS_PTX_CMP_HS: return ua >= ub;
    default: return FALSE;
    }
}

static inline gboolean
compare_float (KsPtxCmp cmp,
               double   a,
               double   b)
{
  gboolean nan = isnan (a) || isnan (b);

  switch (cmp)
    {
    case KS_PTX_CMP_EQ: return !nan && a == b;
    case KS_PTX_CMP_NE: return !nan && a != b;
    case KS_PTX_CMP_LT: return !nan && a < b;
    case KS_PTX_CMP_LE: return !nan && a <= b;
    case KS_PTX_CMP_GT: return !nan && a > b;
    case KS_PTX_CMP_GE: return !nan && a >= b;
    case KS_PTX_CMP_EQU: return nan || a == b;
    case KS_PTX_CMP_NEU: return nan || a != b;
    case KS_PTX_CMP_LTU: return nan || a < b;
    case KS_PTX_CMP_LEU: return nan || a <= b;
    case KS_PTX_CMP_GTU: return nan || a > b;
    case KS_PTX_CMP_GEU: return nan || a >= b;
    case KS_PTX_CMP_NUM: return !nan;
    case KS_PTX_CMP_NAN: return nan;
    default: return FALSE;
    }
}

static gboolean
compare (const Ctx *c,
         KsPtxType  t,
         uint32_t   lane,
         gboolean  *ok)
{
  *ok = TRUE;
  if (t == KS_PTX_TYPE_F32)
    return compare_float ((KsPtxCmp) c->in->cmp, srcf (c, &c->ops[1], lane), srcf (c, &c->ops[2], lane));
  if (t == KS_PTX_TYPE_F64)
    return compare_float ((KsPtxCmp) c->in->cmp, srcd (c, &c->ops[1], lane), srcd (c, &c->ops[2], lane));
  if (is_float (t))
    {
      *ok = FALSE;
      return FALSE;
    }
  return compare_int ((KsPtxCmp) c->in->cmp, t, src (c, &c->ops[1], lane, t),
                      src (c, &c->ops[2], lane, t));
}

static inline gboolean
bool_op (KsPtxOp  op,
         gboolean a,
         gboolean b)
{
  switch (op)
    {
    case KS_PTX_OP_AND: return a && b;
    case KS_PTX_OP_OR: return a || b;
    case KS_PTX_OP_XOR: return a != b;
    default: return a;
    }
}

static void
do_setp (Ctx *c)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  const KsPtxOperand *d = &c->ops[0];
  const KsPtxOperand *p = d, *q = NULL;
  gboolean ok = TRUE;

  if (d->kind == KS_PTX_OPERAND_VECTOR)
    {
      p = &c->m->operands[d->a];
      q = &c->m->operands[d->a + 1];
    }
  LANES (c->exec, lane)
    {
      gboolean r = compare (c, t, lane, &ok);
      gboolean cv = FALSE;

      if (!ok)
        {
          unsupported (c, "for this type");
          return;
        }
      if (c->in->op != KS_PTX_OP_NONE && c->in->n_operands > 3)
        cv = src (c, &c->ops[3], lane, KS_PTX_TYPE_PRED) & 1;
      dst (c, p, lane, bool_op ((KsPtxOp) c->in->op, r, cv));
      if (q != NULL)
        dst (c, q, lane, bool_op ((KsPtxOp) c->in->op, !r, cv));
    }
}

static inline float
ftz32 (float x)
{
  return fpclassify (x) == FP_SUBNORMAL ? copysignf (0.0f, x) : x;
}

static inline uint64_t
canon32 (float x)
{
  /* NaN results of single-precision arithmetic are the canonical NaN */
  return isnan (x) ? 0x7fffffffu : ks_exec_f32_bits (x);
}

static inline float
sat32 (float x)
{
  if (isnan (x))
    return 0.0f;
  return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* Single and double precision arithmetic in round-to-nearest-even.
 * Other rounding modes are refused rather than computed wrongly. */
static gboolean
float_op (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType t = (KsPtxType) in->types[0];
  gboolean ftz = (in->flags & KS_PTX_FLAG_FTZ) != 0;
  gboolean sat = (in->flags & KS_PTX_FLAG_SAT) != 0;

  if (in->round != KS_PTX_ROUND_NONE && in->round != KS_PTX_ROUND_RN
      && in->opcode != KS_PTX_OPC_CVT)
    {
      unsupported (c, "with a rounding mode other than .rn");
      return TRUE;
    }

  if (t == KS_PTX_TYPE_F32)
    {
      LANES (c->exec, lane)
        {
          float a = in->n_operands > 1 ? srcf (c, &c->ops[1], lane) : 0.0f;
          float b = in->n_operands > 2 ? srcf (c, &c->ops[2], lane) : 0.0f;
          float cc = in->n_operands > 3 ? srcf (c, &c->ops[3], lane) : 0.0f;
          float r;

          if (ftz)
            a = ftz32 (a), b = ftz32 (b), cc = ftz32 (cc);
          switch (in->opcode)
            {
            case KS_PTX_OPC_ADD: r = (float) ((double) a + (double) b); break;
            case KS_PTX_OPC_SUB: r = (float) ((double) a - (double) b); break;
            case KS_PTX_OPC_MUL: r = (float) ((double) a * (double) b); break;
            case KS_PTX_OPC_FMA:
            case KS_PTX_OPC_MAD: r = fmaf (a, b, cc); break;
            case KS_PTX_OPC_DIV: r = (float) ((double) a / (double) b); break;
            case KS_PTX_OPC_RCP: r = (float) (1.0 / (double) a); break;
            case KS_PTX_OPC_SQRT: r = (float) sqrt ((double) a); break;
            case KS_PTX_OPC_RSQRT: r = (float) (1.0 / sqrt ((double) a)); break;
            case KS_PTX_OPC_SIN: r = sinf (a); break;
            case KS_PTX_OPC_COS: r = cosf (a); break;
            case KS_PTX_OPC_EX2: r = exp2f (a); break;
            case KS_PTX_OPC_LG2: r = log2f (a); break;
            case KS_PTX_OPC_TANH: r = tanhf (a); break;
            case KS_PTX_OPC_ABS: r = fabsf (a); break;
            case KS_PTX_OPC_NEG: r = -a; break;
            case KS_PTX_OPC_MIN:
              r = isnan (a) ? b : isnan (b) ? a : (a < b || (a == b && signbit (a))) ? a : b;
              break;
            case KS_PTX_OPC_MAX:
              r = isnan (a) ? b : isnan (b) ? a : (a > b || (a == b && !signbit (a))) ? a : b;
              break;
            case KS_PTX_OPC_COPYSIGN: r = copysignf (b, a); break;
            default:
              return FALSE;
            }
          if (ftz)
            r = ftz32 (r);
          if (sat)
            r = sat32 (r);
          if (in->opcode == KS_PTX_OPC_ABS || in->opcode == KS_PTX_OPC_NEG
              || in->opcode == KS_PTX_OPC_COPYSIGN)
            dst (c, &c->ops[0], lane, ks_exec_f32_bits (r));
          else
            dst (c, &c->ops[0], lane, canon32 (r));
        }
      return TRUE;
    }

  if (t == KS_PTX_TYPE_F64)
    {
      LANES (c->exec, lane)
        {
          double a = in->n_operands > 1 ? srcd (c, &c->ops[1], lane) : 0.0;
          double b = in->n_operands > 2 ? srcd (c, &c->ops[2], lane) : 0.0;
          double cc = in->n_operands > 3 ? srcd (c, &c->ops[3], lane) : 0.0;
          double r;

          switch (in->opcode)
            {
            case KS_PTX_OPC_ADD: r = a + b; break;
            case KS_PTX_OPC_SUB: r = a - b; break;
            case KS_PTX_OPC_MUL: r = a * b; break;
            case KS_PTX_OPC_FMA:
            case KS_PTX_OPC_MAD: r = fma (a, b, cc); break;
            case KS_PTX_OPC_DIV: r = a / b; break;
            case KS_PTX_OPC_RCP: r = 1.0 / a; break;
            case KS_PTX_OPC_SQRT: r = sqrt (a); break;
            case KS_PTX_OPC_RSQRT: r = 1.0 / sqrt (a); break;
            case KS_PTX_OPC_ABS: r = fabs (a); break;
            case KS_PTX_OPC_NEG: r = -a; break;
            case KS_PTX_OPC_MIN:
              r = isnan (a) ? b : isnan (b) ? a : (a < b || (a == b && signbit (a))) ? a : b;
              break;
            case KS_PTX_OPC_MAX:
              r = isnan (a) ? b : isnan (b) ? a : (a > b || (a == b && !signbit (a))) ? a : b;
              break;
            case KS_PTX_OPC_COPYSIGN: r = copysign (b, a); break;
            default:
              return FALSE;
            }
          if (sat)
            r = isnan (r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
          dst (c, &c->ops[0], lane, ks_exec_f64_bits (r));
        }
      return TRUE;
    }
  return FALSE;
}

static void
int_op (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType t = (KsPtxType) in->types[0];
  uint64_t m = type_mask (t);
  uint32_t bits = ks_ptx_type_size (t) * 8;
  gboolean s = is_signed (t);
  gboolean hi = (in->flags & KS_PTX_FLAG_HI) != 0;
  gboolean wide = (in->flags & KS_PTX_FLAG_WIDE) != 0;
  gboolean sat = (in->flags & KS_PTX_FLAG_SAT) != 0;

  if (t == KS_PTX_TYPE_PRED)
    {
      /* and/or/xor/not on predicates */
      LANES (c->exec, lane)
        {
          uint64_t a = src (c, &c->ops[1], lane, t) & 1;
          uint64_t b = in->n_operands > 2 ? src (c, &c->ops[2], lane, t) & 1 : 0;
          uint64_t r;

          switch (in->opcode)
            {
            case KS_PTX_OPC_AND: r = a & b; break;
            case KS_PTX_OPC_OR: r = a | b; break;
            case KS_PTX_OPC_XOR: r = a ^ b; break;
            case KS_PTX_OPC_NOT: r = !a; break;
            case KS_PTX_OPC_MOV: r = a; break;
            default: unsupported (c, "on predicates"); return;
            }
          dst (c, &c->ops[0], lane, r);
        }
      return;
    }

  LANES (c->exec, lane)
    {
      uint64_t a = in->n_operands > 1 ? src (c, &c->ops[1], lane, t) : 0;
      uint64_t b = in->n_operands > 2 ? src (c, &c->ops[2], lane, t) : 0;
      uint64_t cc = in->n_operands > 3 ? src (c, &c->ops[3], lane, t) : 0;
      int64_t sa = sext (a, t), sb = sext (b, t);
      uint64_t r = 0;

      switch (in->opcode)
        {
        case KS_PTX_OPC_ADD:
          if (sat && s && bits == 32)
            {
              int64_t x = (int64_t) (int32_t) a + (int32_t) b;

              r = (uint64_t) (x > G_MAXINT32 ? G_MAXINT32 : x < G_MININT32 ? G_MININT32 : x);
            }
          else
            r = a + b;
          break;
        case KS_PTX_OPC_SUB:
          if (sat && s && bits == 32)
            {
              int64_t x = (int64_t) (int32_t) a - (int32_t) b;

              r = (uint64_t) (x > G_MAXINT32 ? G_MAXINT32 : x < G_MININT32 ? G_MININT32 : x);
            }
          else
            r = a - b;
          break;
        case KS_PTX_OPC_MUL:
        case KS_PTX_OPC_MAD:
          {
            /* The full product, then the half that .lo/.hi/.wide ask for */
            __int128 p = s ? (__int128) sa * sb
                           : (__int128) (unsigned __int128) ((a & m) * (unsigned __int128) (b & m));
            unsigned __int128 up = (unsigned __int128) p;

            if (wide)
              r = (uint64_t) up;
            else if (hi)
              r = (uint64_t) (up >> bits);
            else
              r = (uint64_t) up;
            if (in->opcode == KS_PTX_OPC_MAD)
              {
                uint64_t addend = wide ? src (c, &c->ops[3], lane, is_signed (t) ? KS_PTX_TYPE_S64 : KS_PTX_TYPE_U64) : cc;

                if (sat && hi && s && bits == 32)
                  {
                    int64_t x = (int64_t) (int32_t) r + (int32_t) addend;

                    r = (uint64_t) (x > G_MAXINT32 ? G_MAXINT32 : x < G_MININT32 ? G_MININT32 : x);
                  }
                else
                  r += addend;
              }
            if (wide)
              {
                dst (c, &c->ops[0], lane, r);
                continue;
              }
          }
          break;
        case KS_PTX_OPC_DIV:
          if ((b & m) == 0)
            r = m;              /* hardware: all ones; PTX leaves it unspecified */
          else if (s)
            r = (sa == (int64_t) (G_MININT64 >> (64 - bits)) && sb == -1) ? a : (uint64_t) (sa / sb);
          else
            r = (a & m) / (b & m);
          break;
        case KS_PTX_OPC_REM:
          if ((b & m) == 0)
            r = a;
          else if (s)
            r = (sb == -1) ? 0 : (uint64_t) (sa % sb);
          else
            r = (a & m) % (b & m);
          break;
        case KS_PTX_OPC_ABS:
          r = sa < 0 ? (uint64_t) 0 - a : a;
          break;
        case KS_PTX_OPC_NEG:
          r = (uint64_t) 0 - a;
          break;
        case KS_PTX_OPC_MIN:
          r = s ? (sa < sb ? a : b) : ((a & m) < (b & m) ? a : b);
          break;
        case KS_PTX_OPC_MAX:
          r = s ? (sa > sb ? a : b) : ((a & m) > (b & m) ? a : b);
          break;
        case KS_PTX_OPC_AND: r = a & b; break;
        case KS_PTX_OPC_OR: r = a | b; break;
        case KS_PTX_OPC_XOR: r = a ^ b; break;
        case KS_PTX_OPC_NOT: r = ~a; break;
        case KS_PTX_OPC_CNOT: r = (a & m) == 0; break;
        case KS_PTX_OPC_SHL:
          {
            uint32_t sh = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);

            r = sh >= bits ? 0 : a << sh;
          }
          break;
        case KS_PTX_OPC_SHR:
          {
            uint32_t sh = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);

            /* PTX clamps the shift: past the width, zeros or copies of the sign */
            if (s)
              r = (uint64_t) (sh >= bits ? (sa < 0 ? -1 : 0) : sa >> sh);
            else
              r = sh >= bits ? 0 : (a & m) >> sh;
          }
          break;
        case KS_PTX_OPC_POPC:
          r = (uint64_t) __builtin_popcountll (a & m);
          break;
        case KS_PTX_OPC_CLZ:
          r = (a & m) == 0 ? bits : (uint64_t) (__builtin_clzll (a & m) - (64 - (int) bits));
          break;
        case KS_PTX_OPC_BREV:
          {
            uint64_t x = a & m;

            r = 0;
            for (uint32_t i = 0; i < bits; i++)
              r |= ((x >> i) & 1) << (bits - 1 - i);
          }
          break;
        default:
          unsupported (c, NULL);
          return;
        }
      dst (c, &c->ops[0], lane, (in->opcode == KS_PTX_OPC_CNOT || in->opcode == KS_PTX_OPC_POPC
                                 || in->opcode == KS_PTX_OPC_CLZ)
                                ? r : (s ? (uint64_t) sext (r, t) : r & m));
    }
}

/* cvt between integer and floating-point types */
static void
do_cvt (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType dt = (KsPtxType) in->types[0];
  KsPtxType st = (KsPtxType) in->types[1];
  gboolean sat = (in->flags & KS_PTX_FLAG_SAT) != 0;
  gboolean ftz = (in->flags & KS_PTX_FLAG_FTZ) != 0;

  LANES (c->exec, lane)
    {
      uint64_t v = src (c, &c->ops[1], lane, st);
      uint64_t r;

      if (!is_float (dt) && !is_float (st))
        {
          /* integer to integer: sign- or zero-extend from the source,
           * saturate to the destination when asked */
          int64_t sv = is_signed (st) ? sext (v, st) : (int64_t) (v & type_mask (st));
          uint64_t dm = type_mask (dt);

          if (sat)
            {
              if (is_signed (dt))
                {
                  int64_t hi = (int64_t) (dm >> 1), lo = -hi - 1;

                  if (!is_signed (st) && (v & type_mask (st)) > (uint64_t) hi)
                    sv = hi;
                  sv = sv > hi ? hi : sv < lo ? lo : sv;
                }
              else
                {
                  if (is_signed (st) && sv < 0)
                    sv = 0;
                  else if ((uint64_t) sv > dm)
                    sv = (int64_t) dm;
                }
            }
          r = (uint64_t) sv;
          dst (c, &c->ops[0], lane, is_signed (dt) ? (uint64_t) sext (r, dt) : r & dm);
          continue;
        }

      if (is_float (st) && is_float (dt))
        {
          if (st == KS_PTX_TYPE_F32 && dt == KS_PTX_TYPE_F64)
            r = ks_exec_f64_bits ((double) (ftz ? ftz32 (ks_exec_bits_f32 ((uint32_t) v))
                                                : ks_exec_bits_f32 ((uint32_t) v)));
          else if (st == KS_PTX_TYPE_F64 && dt == KS_PTX_TYPE_F32
                   && (in->round == KS_PTX_ROUND_RN || in->round == KS_PTX_ROUND_NONE))
            {
              float x = (float) ks_exec_bits_f64 (v);

              if (ftz)
                x = ftz32 (x);
              if (sat)
                x = sat32 (x);
              r = canon32 (x);
            }
          else if (st == dt && st == KS_PTX_TYPE_F32)
            {
              float x = ks_exec_bits_f32 ((uint32_t) v);

              switch (in->round)
                {
                case KS_PTX_ROUND_RNI: x = rintf (x); break;
                case KS_PTX_ROUND_RZI: x = truncf (x); break;
                case KS_PTX_ROUND_RMI: x = floorf (x); break;
                case KS_PTX_ROUND_RPI: x = ceilf (x); break;
                default: break;
                }
              if (ftz)
                x = ftz32 (x);
              if (sat)
                x = sat32 (x);
              r = canon32 (x);
            }
          else
            {
              unsupported (c, "between these types");
              return;
            }
          dst (c, &c->ops[0], lane, r);
          continue;
        }

      if (is_float (st))
        {
          /* float to integer: round as asked, NaN to 0, clamp to the range */
          double x = st == KS_PTX_TYPE_F32 ? (double) ks_exec_bits_f32 ((uint32_t) v)
                     : st == KS_PTX_TYPE_F64 ? ks_exec_bits_f64 (v) : NAN;
          uint64_t dm = type_mask (dt);

          if (st != KS_PTX_TYPE_F32 && st != KS_PTX_TYPE_F64)
            {
              unsupported (c, "from this type");
              return;
            }
          switch (in->round)
            {
            case KS_PTX_ROUND_RNI: x = rint (x); break;
            case KS_PTX_ROUND_RMI: x = floor (x); break;
            case KS_PTX_ROUND_RPI: x = ceil (x); break;
            default: x = trunc (x); break;
            }
          if (isnan (x))
            r = 0;
          else if (is_signed (dt))
            {
              double hi = (double) (int64_t) (dm >> 1), lo = -hi - 1.0;

              r = x >= hi ? dm >> 1 : x <= lo ? (uint64_t) (-(int64_t) (dm >> 1) - 1)
                                              : (uint64_t) (int64_t) x;
              r = (uint64_t) sext (r, dt);
            }
          else
            r = x <= 0.0 ? 0 : x >= (double) dm ? dm : (uint64_t) x;
          dst (c, &c->ops[0], lane, r);
          continue;
        }

      /* integer to float */
      {
        gboolean sgn = is_signed (st);
        int64_t sv = sgn ? sext (v, st) : 0;
        uint64_t uv = v & type_mask (st);

        if (in->round != KS_PTX_ROUND_RN && in->round != KS_PTX_ROUND_NONE)
          {
            unsupported (c, "with a rounding mode other than .rn");
            return;
          }
        if (dt == KS_PTX_TYPE_F32)
          r = ks_exec_f32_bits (sgn ? (float) sv : (float) uv);
        else if (dt == KS_PTX_TYPE_F64)
          r = ks_exec_f64_bits (sgn ? (double) sv : (double) uv);
        else
          {
            unsupported (c, "to this type");
            return;
          }
        dst (c, &c->ops[0], lane, r);
      }
    }
}

static uint64_t
to_generic (KsPtxSpace space,
            uint64_t   a)
{
  switch (space)
    {
    case KS_PTX_SPACE_SHARED: return a + KS_SIM_SHARED_WINDOW;
    case KS_PTX_SPACE_LOCAL: return a + KS_SIM_LOCAL_WINDOW;
    case KS_PTX_SPACE_PARAM: return a + KS_SIM_PARAM_WINDOW;
    default: return a;
    }
}

static uint64_t
from_generic (KsPtxSpace space,
              uint64_t   a)
{
  switch (space)
    {
    case KS_PTX_SPACE_SHARED: return a - KS_SIM_SHARED_WINDOW;
    case KS_PTX_SPACE_LOCAL: return a - KS_SIM_LOCAL_WINDOW;
    case KS_PTX_SPACE_PARAM: return a - KS_SIM_PARAM_WINDOW;
    default: return a;
    }
}

static gboolean
in_space (KsPtxSpace space,
          uint64_t   a)
{
  switch (space)
    {
    case KS_PTX_SPACE_SHARED:
      return a >= KS_SIM_SHARED_WINDOW && a < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE;
    case KS_PTX_SPACE_LOCAL:
      return a >= KS_SIM_LOCAL_WINDOW && a < KS_SIM_LOCAL_WINDOW + KS_SIM_WINDOW_SIZE;
    case KS_PTX_SPACE_PARAM:
      return a >= KS_SIM_PARAM_WINDOW && a < KS_SIM_PARAM_WINDOW + KS_SIM_WINDOW_SIZE;
    case KS_PTX_SPACE_GLOBAL:
    case KS_PTX_SPACE_CONST:
      return a >= KS_SIM_GLOBAL_BASE;
    default:
      return FALSE;
    }
}

static void
do_shfl (Ctx *c)
{
  const KsPtxOperand *d = &c->ops[0], *pd = NULL;
  uint64_t vals[KS_WARP_SIZE];

  if (d->kind == KS_PTX_OPERAND_VECTOR)
    {
      pd = &c->m->operands[d->a + 1];
      d = &c->m->operands[d->a];
    }
  /* Sources are read before any lane writes: d may alias a */
  for (uint32_t lane = 0; lane < KS_WARP_SIZE; lane++)
    vals[lane] = src (c, &c->ops[1], lane, KS_PTX_TYPE_B32);
  LANES (c->exec, lane)
    {
      uint32_t b = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32) & 31;
      uint32_t cv = (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_U32);
      uint32_t segmask = (cv >> 8) & 31, clamp = cv & 31;
      uint32_t max_lane = (lane & segmask) | (clamp & ~segmask);
      uint32_t min_lane = lane & segmask;
      int32_t j;
      gboolean pval;

      switch (c->in->op)
        {
        case KS_PTX_OP_UP: j = (int32_t) lane - (int32_t) b; pval = j >= (int32_t) max_lane; break;
        case KS_PTX_OP_DOWN: j = (int32_t) (lane + b); pval = j <= (int32_t) max_lane; break;
        case KS_PTX_OP_BFLY: j = (int32_t) (lane ^ b); pval = j <= (int32_t) max_lane; break;
        case KS_PTX_OP_IDX: j = (int32_t) (min_lane | (b & ~segmask)); pval = j <= (int32_t) max_lane; break;
        default: unsupported (c, "in this mode"); return;
        }
      if (!pval)
        j = (int32_t) lane;
      dst (c, d, lane, vals[j & 31] & 0xffffffffu);
      if (pd != NULL)
        dst (c, pd, lane, pval);
    }
}

static void
do_vote (Ctx *c)
{
  uint32_t pm = 0;

  LANES (c->exec, lane)
    if (src (c, &c->ops[1], lane, KS_PTX_TYPE_PRED) & 1)
      pm |= 1u << lane;
  LANES (c->exec, lane)
    {
      uint64_t r;

      switch (c->in->op)
        {
        case KS_PTX_OP_ALL: r = pm == c->exec; break;
        case KS_PTX_OP_ANY: r = pm != 0; break;
        case KS_PTX_OP_UNI: r = pm == 0 || pm == c->exec; break;
        case KS_PTX_OP_BALLOT: r = pm; break;
        default: unsupported (c, "in this mode"); return;
        }
      dst (c, &c->ops[0], lane, r);
    }
}

static void
do_match (Ctx *c)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  const KsPtxOperand *d = &c->ops[0], *pd = NULL;
  uint64_t vals[KS_WARP_SIZE] = { 0 };
  gboolean all_same = TRUE;
  uint64_t first = 0;
  gboolean have = FALSE;

  if (d->kind == KS_PTX_OPERAND_VECTOR)
    {
      pd = &c->m->operands[d->a + 1];
      d = &c->m->operands[d->a];
    }
  LANES (c->exec, lane)
    {
      vals[lane] = src (c, &c->ops[1], lane, t) & type_mask (t);
      if (!have)
        first = vals[lane], have = TRUE;
      else if (vals[lane] != first)
        all_same = FALSE;
    }
  LANES (c->exec, lane)
    {
      uint32_t same = 0;

      if (c->in->op == KS_PTX_OP_ALL)
        same = all_same ? c->exec : 0;
      else
        LANES (c->exec, other)
          if (vals[other] == vals[lane])
            same |= 1u << other;
      dst (c, d, lane, same);
      if (pd != NULL)
        dst (c, pd, lane, all_same);
    }
}

static void
do_redux (Ctx *c)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  gboolean s = is_signed (t);
  uint64_t acc = 0;
  gboolean first = TRUE;

  LANES (c->exec, lane)
    {
      uint64_t v = src (c, &c->ops[1], lane, t) & 0xffffffffu;

      if (first)
        {
          acc = v;
          first = FALSE;
          continue;
        }
      switch (c->in->op)
        {
        case KS_PTX_OP_ADD: acc = (acc + v) & 0xffffffffu; break;
        case KS_PTX_OP_MIN: acc = s ? ((int32_t) v < (int32_t) acc ? v : acc) : MIN (acc, v); break;
        case KS_PTX_OP_MAX: acc = s ? ((int32_t) v > (int32_t) acc ? v : acc) : MAX (acc, v); break;
        case KS_PTX_OP_AND: acc &= v; break;
        case KS_PTX_OP_OR: acc |= v; break;
        case KS_PTX_OP_XOR: acc ^= v; break;
        default: unsupported (c, "with this operation"); return;
        }
    }
  LANES (c->exec, lane)
    dst (c, &c->ops[0], lane, acc);
}

static void
do_barrier (Ctx *c)
{
  KsSimWarp *w = c->w;
  uint32_t lane0 = c->exec ? (uint32_t) __builtin_ctz (c->exec) : 0;

  if (c->in->flags & KS_PTX_FLAG_WARP)
    return;                     /* bar.warp.sync: warps run in lockstep here */
  if (c->in->flags & (KS_PTX_FLAG_ARRIVE | KS_PTX_FLAG_RED))
    {
      unsupported (c, c->in->flags & KS_PTX_FLAG_ARRIVE ? "(bar.arrive)" : "(bar.red)");
      return;
    }
  if (c->exec != w->live)
    {
      ks_sim_fault (c->sim, w, (int) lane0, c->in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                    "deadlock: a barrier reached by only some threads of warp %u "
                    "(lanes 0x%08x of 0x%08x): __syncthreads() in divergent code",
                    w->index, c->exec, w->live);
      return;
    }
  w->state = KS_WARP_AT_BARRIER;
  w->barrier = c->in->n_operands > 0 ? (uint32_t) src (c, &c->ops[0], lane0, KS_PTX_TYPE_U32) : 0;
  w->barrier_count = c->in->n_operands > 1
                     ? (uint32_t) src (c, &c->ops[1], lane0, KS_PTX_TYPE_U32) : 0;
}

/* ---- dispatch ------------------------------------------------------------------------------ */

void
ks_sim_step (KsSim     *sim,
             KsSimWarp *w)
{
  Ctx ctx;
  Ctx *c = &ctx;
  KsSimtEntry *e;
  const KsPtxInsn *in;
  gboolean advance = TRUE;

  c->sim = sim;
  c->w = w;
  c->m = sim->module;
  c->f = &w->frames[w->n_frames - 1];
  c->fn = &c->m->functions[c->f->fn];
  e = &w->simt[w->n_simt - 1];
  c->pc = e->pc;
  c->active = e->mask;

  if (c->pc >= c->fn->n_insns)
    {
      /* Falling off the end of a function is a return */
      c->in = NULL;
      c->exec = c->active;
      do_ret (c, c->active);
      settle (c);
      return;
    }

  in = c->in = &c->m->insns[c->fn->first_insn + c->pc];
  c->ops = &c->m->operands[in->first_operand];
  c->exec = c->active;
  if (in->pred != KS_PTX_NONE)
    {
      uint32_t p = c->f->preds[in->pred];

      c->exec &= in->pred_not ? ~p : p;
    }
  sim->stats.warp_instructions++;
  sim->stats.thread_instructions += (uint64_t) __builtin_popcount (c->exec);

  switch ((KsPtxOpcode) in->opcode)
    {
    case KS_PTX_OPC_MOV:
      {
        KsPtxType t = (KsPtxType) in->types[0];
        const KsPtxOperand *d = &c->ops[0], *s = &c->ops[1];
        uint32_t esz;

        if (d->kind == KS_PTX_OPERAND_VECTOR && s->kind != KS_PTX_OPERAND_VECTOR)
          {
            /* unpack: mov.b64 {lo, hi}, %rd */
            esz = ks_ptx_type_size (t) * 8 / d->aux;
            LANES (c->exec, lane)
              {
                uint64_t v = src (c, s, lane, t);

                for (uint32_t i = 0; i < d->aux; i++)
                  dst (c, &c->m->operands[d->a + i], lane,
                       esz >= 64 ? v : (v >> (i * esz)) & ((G_GUINT64_CONSTANT (1) << esz) - 1));
              }
          }
        else if (s->kind == KS_PTX_OPERAND_VECTOR && d->kind != KS_PTX_OPERAND_VECTOR)
          {
            /* pack: mov.b64 %rd, {lo, hi} */
            esz = ks_ptx_type_size (t) * 8 / s->aux;
            LANES (c->exec, lane)
              {
                uint64_t v = 0;

                for (uint32_t i = 0; i < s->aux; i++)
                  {
                    uint64_t part = src (c, &c->m->operands[s->a + i], lane, KS_PTX_TYPE_B64);

                    v |= esz >= 64 ? part : (part & ((G_GUINT64_CONSTANT (1) << esz) - 1)) << (i * esz);
                  }
                dst (c, d, lane, v);
              }
          }
        else if (t == KS_PTX_TYPE_PRED)
          int_op (c);
        else
          LANES (c->exec, lane)
            dst (c, d, lane, src (c, s, lane, t) & type_mask (t));
      }
      break;

    case KS_PTX_OPC_ADD: case KS_PTX_OPC_SUB: case KS_PTX_OPC_MUL: case KS_PTX_OPC_MAD:
    case KS_PTX_OPC_DIV: case KS_PTX_OPC_REM: case KS_PTX_OPC_ABS: case KS_PTX_OPC_NEG:
    case KS_PTX_OPC_MIN: case KS_PTX_OPC_MAX: case KS_PTX_OPC_FMA: case KS_PTX_OPC_RCP:
    case KS_PTX_OPC_SQRT: case KS_PTX_OPC_RSQRT: case KS_PTX_OPC_SIN: case KS_PTX_OPC_COS:
    case KS_PTX_OPC_EX2: case KS_PTX_OPC_LG2: case KS_PTX_OPC_TANH: case KS_PTX_OPC_COPYSIGN:
      if (is_float ((KsPtxType) in->types[0]))
        {
          if (!float_op (c))
            unsupported (c, "for this type");
        }
      else
        int_op (c);
      break;

    case KS_PTX_OPC_AND: case KS_PTX_OPC_OR: case KS_PTX_OPC_XOR: case KS_PTX_OPC_NOT:
    case KS_PTX_OPC_CNOT: case KS_PTX_OPC_SHL: case KS_PTX_OPC_SHR: case KS_PTX_OPC_POPC:
    case KS_PTX_OPC_CLZ: case KS_PTX_OPC_BREV:
      int_op (c);
      break;

    case KS_PTX_OPC_SETP:
      do_setp (c);
      break;

    case KS_PTX_OPC_SELP:
      {
        KsPtxType t = (KsPtxType) in->types[0];

        LANES (c->exec, lane)
          dst (c, &c->ops[0], lane,
               (src (c, &c->ops[3], lane, KS_PTX_TYPE_PRED) & 1) ? src (c, &c->ops[1], lane, t)
                                                                : src (c, &c->ops[2], lane, t));
      }
      break;

    case KS_PTX_OPC_CVT:
      do_cvt (c);
      break;

    case KS_PTX_OPC_CVTA:
      LANES (c->exec, lane)
        {
          uint64_t a = src (c, &c->ops[1], lane, KS_PTX_TYPE_U64);

          dst (c, &c->ops[0], lane, (in->flags & KS_PTX_FLAG_TO)
                                    ? from_generic ((KsPtxSpace) in->space, a)
                                    : to_generic ((KsPtxSpace) in->space, a));
        }
      break;

    case KS_PTX_OPC_ISSPACEP:
      LANES (c->exec, lane)
        dst (c, &c->ops[0], lane,
             in_space ((KsPtxSpace) in->space, src (c, &c->ops[1], lane, KS_PTX_TYPE_U64)));
      break;

    case KS_PTX_OPC_LD:
    case KS_PTX_OPC_LDU:
      do_load (c);
      break;

    case KS_PTX_OPC_ST:
      do_store (c);
      break;

    case KS_PTX_OPC_ATOM:
      do_atomic (c, FALSE);
      break;

    case KS_PTX_OPC_RED:
      do_atomic (c, TRUE);
      break;

    case KS_PTX_OPC_BRA:
      {
        const KsPtxOperand *t = &c->ops[0];

        advance = FALSE;
        if (t->kind != KS_PTX_OPERAND_LABEL)
          {
            unsupported (c, "to a target that is not a label");
            break;
          }
        branch (c, c->exec, t->a);
      }
      break;

    case KS_PTX_OPC_BRX:
      {
        uint32_t targets[64];
        uint32_t n = ks_ptx_insn_branch_targets (c->m, in, targets, G_N_ELEMENTS (targets));
        uint32_t rest = c->exec;
        uint32_t top = w->n_simt - 1;
        uint32_t rpc = reconvergence_pc (c);
        uint32_t pushed = 0;

        advance = FALSE;
        if (n > G_N_ELEMENTS (targets))
          {
            unsupported (c, "with more than 64 targets");
            break;
          }
        w->simt[top].pc = rpc;
        if (c->active & ~c->exec)
          {
            ks_sim_simt_push (w, c->pc + 1, rpc, c->active & ~c->exec);
            pushed++;
          }
        /* One path per distinct target, lanes grouped by their index */
        while (rest)
          {
            uint32_t lane = (uint32_t) __builtin_ctz (rest);
            uint32_t idx = (uint32_t) src (c, &c->ops[0], lane, KS_PTX_TYPE_U32);
            uint32_t group = 0;

            if (idx >= n)
              {
                ks_sim_fault (sim, w, (int) lane, in, KS_SIM_FAULT_OUT_OF_BOUNDS, FALSE, 0,
                              "brx.idx index %u is past the %u targets of its table", idx, n);
                return;
              }
            LANES (rest, l)
              if ((uint32_t) src (c, &c->ops[0], l, KS_PTX_TYPE_U32) == idx)
                group |= 1u << l;
            ks_sim_simt_push (w, targets[idx], rpc, group);
            pushed++;
            rest &= ~group;
          }
        if (pushed == 1 && c->active == c->exec)
          {
            /* uniform: no divergence, keep one path */
            KsSimtEntry only = w->simt[w->n_simt - 1];

            w->n_simt--;
            w->simt[w->n_simt - 1].pc = only.pc;
          }
      }
      break;

    case KS_PTX_OPC_CALL:
      advance = FALSE;
      if (c->exec == 0)
        {
          w->simt[w->n_simt - 1].pc = c->pc + 1;
          break;
        }
      if (c->exec != c->active)
        {
          unsupported (c, "under a predicate that only some lanes pass");
          break;
        }
      do_call (c);
      break;

    case KS_PTX_OPC_RET:
      advance = FALSE;
      w->simt[w->n_simt - 1].pc = c->pc + 1;
      do_ret (c, c->exec);
      break;

    case KS_PTX_OPC_EXIT:
      advance = FALSE;
      w->simt[w->n_simt - 1].pc = c->pc + 1;
      do_exit (c, c->exec);
      break;

    case KS_PTX_OPC_TRAP:
      if (c->exec)
        ks_sim_fault (sim, w, __builtin_ctz (c->exec), in, KS_SIM_FAULT_TRAP, FALSE, 0,
                      "the kernel executed trap");
      break;

    case KS_PTX_OPC_BRKPT:
      if (c->exec)
        ks_sim_fault (sim, w, __builtin_ctz (c->exec), in, KS_SIM_FAULT_TRAP, FALSE, 0,
                      "the kernel executed brkpt");
      break;

    case KS_PTX_OPC_BAR:
    case KS_PTX_OPC_BARRIER:
      do_barrier (c);
      break;

    case KS_PTX_OPC_MEMBAR:
    case KS_PTX_OPC_FENCE:
    case KS_PTX_OPC_NANOSLEEP:
    case KS_PTX_OPC_PREFETCH:
    case KS_PTX_OPC_PREFETCHU:
    case KS_PTX_OPC_PMEVENT:
      /* A sequential simulator keeps every ordering already */
      break;

    case KS_PTX_OPC_SHFL:
      do_shfl (c);
      break;

    case KS_PTX_OPC_VOTE:
      do_vote (c);
      break;

    case KS_PTX_OPC_ACTIVEMASK:
      LANES (c->exec, lane)
        dst (c, &c->ops[0], lane, c->exec);
      break;

    case KS_PTX_OPC_MATCH:
      do_match (c);
      break;

    case KS_PTX_OPC_REDUX:
      do_redux (c);
      break;

    default:
      unsupported (c, NULL);
      break;
    }

  if (sim->status != KS_SIM_READY)
    return;
  if (advance)
    w->simt[w->n_simt - 1].pc = c->pc + 1;
  settle (c);
  (void) e;
}
