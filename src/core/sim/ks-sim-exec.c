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
#include "ks-sim-fast.h"
#include "ks-sim-mbarrier.h"
#include "ks-sim-mma.h"
#include "ks-sim-math.h"
#include "ks-sim-video.h"

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
         || t == KS_PTX_TYPE_BF16 || t == KS_PTX_TYPE_F16X2 || t == KS_PTX_TYPE_BF16X2;
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

/* %total_smem_size: the block's static and dynamic shared memory "in
 * multiples of shared memory allocation unit size supported by target
 * architecture" (PTX ISA: 128 bytes for sm_2x and sm_8x and later, 256
 * for sm_3x to sm_7x), for the module's first .target */
static uint32_t
total_smem_size (const KsSim *sim)
{
  uint32_t sm = ks_ptx_module_target_sm (sim->module);
  uint32_t unit = sm >= 30 && sm < 80 ? 256 : 128, size = sim->shared_size;

  return (uint32_t) MIN (((uint64_t) size + unit - 1) / unit * unit, G_MAXUINT32);
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
    case KS_PTX_SREG_TOTAL_SMEM_SIZE: return total_smem_size (sim);
    /* The region reserved for system software (KS_SIM_RESERVED_SMEM_BASE):
     * the aggregate is the user's allocation and the region (PTX ISA
     * 10.31); its layout inside is not documented, so offset_0 is its start
     * and offset_1 its second half, which holds cooperative groups' 288
     * bytes of multi-warp scratch (cooperative_groups/details/memory.h) */
    case KS_PTX_SREG_AGGR_SMEM_SIZE: return total_smem_size (sim) + sim->reserved_smem;
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN:
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_0:
      return sim->reserved_smem > 0 ? KS_SIM_RESERVED_SMEM_BASE : 0;
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_END:
      return sim->reserved_smem > 0 ? KS_SIM_RESERVED_SMEM_BASE + sim->reserved_smem : 0;
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_CAP:
      return sim->reserved_smem;
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_1:
      return sim->reserved_smem > 0 ? KS_SIM_RESERVED_SMEM_BASE + sim->reserved_smem / 2 : 0;
    /* The clocks and the global timer count warp-instructions */
    case KS_PTX_SREG_CLOCK: return (uint32_t) sim->stats.warp_instructions;
    case KS_PTX_SREG_CLOCK_HI: return (uint32_t) (sim->stats.warp_instructions >> 32);
    case KS_PTX_SREG_GLOBALTIMER_LO: return (uint32_t) sim->stats.warp_instructions;
    case KS_PTX_SREG_GLOBALTIMER_HI: return (uint32_t) (sim->stats.warp_instructions >> 32);
    case KS_PTX_SREG_CLUSTER_CTARANK: return 0;
    case KS_PTX_SREG_CLUSTER_NCTARANK: return 1;
    case KS_PTX_SREG_CLUSTER_NCTAID: return 1;
    case KS_PTX_SREG_CLUSTER_CTAID: return 0;
    case KS_PTX_SREG_NCLUSTERID: return comp < 3 ? gd[comp] : 0;
    case KS_PTX_SREG_CLUSTERID: return comp < 3 ? sim->cta.ctaid[comp] : 0;
    case KS_PTX_SREG_ENVREG:
      /* the driver's grid workspace, of a cooperative launch only: a
       * kernel launched otherwise finds none (cooperative groups then trap
       * at grid.sync(), as on the GPU) */
      if (!sim->launch->cooperative || sim->coop_workspace == 0)
        return 0;
      return op->b == 1 ? (uint32_t) (sim->coop_workspace >> 32)
             : op->b == 2 ? (uint32_t) sim->coop_workspace : 0;
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

static gboolean frame_operand_bytes (const Ctx *c, const KsSimFrame *frame,
                                     const KsPtxOperand *op, KsPtxType t, uint32_t lane,
                                     uint8_t *buf, uint32_t size);
static gboolean frame_set_operand (const Ctx *c, KsSimFrame *frame, const KsPtxOperand *to,
                                   KsPtxType t, uint32_t lane, const uint8_t *buf, uint32_t size);
static const KsPtxRegDecl *reg_param_decl (const KsPtxModule *m, const KsPtxFunction *fn,
                                           uint32_t var);

/* An operand the instruction's code does not read or write in that form
 * (a vector where it takes a scalar, a list, ...): a fault, never a value
 * made up. */
G_GNUC_NO_INLINE static void
operand_unsupported (const Ctx          *c,
                     const KsPtxOperand *op,
                     const char         *role)
{
  static const char *const kinds[] = {
    [KS_PTX_OPERAND_VECTOR] = "a vector", [KS_PTX_OPERAND_LIST] = "a list",
    [KS_PTX_OPERAND_NAME] = "an undefined name", [KS_PTX_OPERAND_SINK] = "the sink '_'",
  };
  const char *kind = op->kind < G_N_ELEMENTS (kinds) && kinds[op->kind] ? kinds[op->kind]
                     : "this kind of operand";

  ks_sim_fault (c->sim, c->w, (int) (c->exec ? __builtin_ctz (c->exec) : 0), c->in,
                KS_SIM_FAULT_UNSUPPORTED, FALSE, 0,
                "%s with %s as a %s is not supported by the simulator yet",
                ks_ptx_opcode_name (c->in->opcode), kind, role);
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
        return ks_f32_to_bits ((float) (int64_t) ks_ptx_operand_u64 (op));
      if (t == KS_PTX_TYPE_F64)
        return ks_f64_to_bits ((double) (int64_t) ks_ptx_operand_u64 (op));
      return ks_ptx_operand_u64 (op);
    case KS_PTX_OPERAND_IMM_F32:
      if (t == KS_PTX_TYPE_F64)
        return ks_f64_to_bits ((double) ks_f32_from_bits (op->a));
      return op->a;
    case KS_PTX_OPERAND_IMM_F64:
      if (ks_ptx_type_size (t) == 4)
        return ks_f32_to_bits ((float) ks_f64_from_bits (ks_ptx_operand_u64 (op)));
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
      if (op->aux == KS_PTX_ADDRESS_REG)  /* reg+imm as a value */
        return reg (c, op->a)[lane] + (uint64_t) ks_ptx_operand_offset (c->m, op);
      if (op->aux == KS_PTX_ADDRESS_FUNC)
        return KS_SIM_FUNC_WINDOW + op->a;
      return (uint64_t) ks_ptx_operand_offset (c->m, op);
    default:
      operand_unsupported (c, op, "source");
      return 0;
    }
}

static inline float
srcf (const Ctx          *c,
      const KsPtxOperand *op,
      uint32_t            lane)
{
  return ks_f32_from_bits ((uint32_t) src (c, op, lane, KS_PTX_TYPE_F32));
}

static inline double
srcd (const Ctx          *c,
      const KsPtxOperand *op,
      uint32_t            lane)
{
  return ks_f64_from_bits (src (c, op, lane, KS_PTX_TYPE_F64));
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
    case KS_PTX_OPERAND_SINK:
      break;
    default:
      operand_unsupported (c, op, "destination");
      break;
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

static inline void
flag_event (KsSim    *sim,
            uint16_t  flag)
{
  if (sim->last_event != G_MAXUINT64)
    sim->trace[sim->last_event].flags |= flag;
}

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
              if (top->mask != 0)
                w->pending_flags |= KS_TRACE_RECONVERGE;
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
                  uint32_t tsize = c->sim->layouts[callee.fn].param_size;
                  const KsPtxRegDecl *rd = (rv->flags & KS_PTX_VAR_REG_PARAM)
                                           ? reg_param_decl (m, tfn, tfn->first_ret + r) : NULL;

                  if (rv->type == KS_PTX_TYPE_PRED)
                    size = rv->vec;
                  LANES (lanes, lane)
                    {
                      uint8_t buf[256] = { 0 };
                      uint32_t n = MIN (size, sizeof buf);

                      if (rd != NULL)
                        {
                          /* a .reg return value: the callee's register(s) */
                          KsPtxOperand slots = { 0 };
                          KsPtxType t = (KsPtxType) rv->type;
                          uint32_t esz = MAX (ks_ptx_type_size (t), 1);

                          slots.kind = t == KS_PTX_TYPE_PRED ? KS_PTX_OPERAND_PRED : KS_PTX_OPERAND_REG;
                          for (uint32_t k = 0; k < rv->vec && (k + 1) * esz <= n; k++)
                            {
                              slots.a = rd->first_slot + k;
                              frame_operand_bytes (c, &callee, &slots, t, lane, buf + k * esz, esz);
                            }
                        }
                      else
                        memcpy (buf, callee.params + (size_t) lane * tsize
                                     + c->sim->var_addr[tfn->first_ret + r], n);
                      if (!frame_set_operand (c, caller, to, (KsPtxType) rv->type, lane, buf, n))
                        {
                          ks_sim_fault (c->sim, w, (int) lane, call, KS_SIM_FAULT_UNSUPPORTED, FALSE, 0,
                                        "call with this form of return destination is not "
                                        "supported by the simulator yet");
                          break;
                        }
                    }
                }
            w->simt[w->n_simt - 1].pc = call_pc + 1;
          }
        ks_sim_frame_release (c->sim, w, &callee);
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

/* The lanes on each side of a divergent branch, before its divergent count
 * goes up (the first split sets the range) */
static void
record_split (KsSimInsnStats *st,
              uint32_t        taken,
              uint32_t        other)
{
  if (st->divergent == 0)
    {
      st->split_taken_min = st->split_taken_max = (uint8_t) taken;
      st->split_other_min = st->split_other_max = (uint8_t) other;
      return;
    }
  st->split_taken_min = (uint8_t) MIN (st->split_taken_min, taken);
  st->split_taken_max = (uint8_t) MAX (st->split_taken_max, taken);
  st->split_other_min = (uint8_t) MIN (st->split_other_min, other);
  st->split_other_max = (uint8_t) MAX (st->split_other_max, other);
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
      record_split (&c->sim->insn_stats[c->fn->first_insn + c->pc],
                    (uint32_t) __builtin_popcount (taken),
                    (uint32_t) __builtin_popcount (not_taken));
      c->sim->insn_stats[c->fn->first_insn + c->pc].divergent++;
      c->sim->stats.divergent_branches++;
      flag_event (c->sim, KS_TRACE_DIVERGE);
    }
}

static void
do_exit (Ctx      *c,
         uint32_t  lanes)
{
  if (lanes)
    flag_event (c->sim, KS_TRACE_EXIT);
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
 * each aligned to its size, as nvcc lays them out (char and short promoted
 * to int, float to double).  A conversion is "%[flags][width][.precision]
 * [size]type" as the CUDA Programming Guide lists them (flags "#' '0+-",
 * width and precision digits or '*', sizes h, hh, l, ll, types
 * "cdiouxXpeEfgGaAs"); each is handed to the C library with its argument
 * read at the width the size says, as the host's printf formats the
 * output on a GPU.  Anything else is printed as written. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

typedef struct
{
  Ctx *c;
  uint32_t lane;
  uint64_t base;                /* the arguments' buffer */
  uint64_t off;                 /* the next argument's offset in it */
  uint32_t n_args;              /* arguments read */
} PrintfArgs;

static gboolean
printf_arg (PrintfArgs *a,
            uint32_t    size,
            uint64_t   *v)
{
  *v = 0;
  a->off = (a->off + size - 1) & ~(uint64_t) (size - 1);
  if (!read_mem (a->c, a->lane, KS_PTX_SPACE_NONE, a->base + a->off, v, size))
    return FALSE;
  a->off += size;
  a->n_args++;
  return TRUE;
}

/* Reads one conversion's specification from the format at *fmt (just past
 * the '%') into spec, without its size and with '*' replaced by the
 * argument's value; FALSE after a fault. */
static gboolean
printf_spec (PrintfArgs *a,
             uint64_t   *fmt,
             GString    *spec,
             int        *size,      /* -2 hh, -1 h, 0, 1 l, 2 ll */
             char       *conv)
{
  char ch;
  gboolean in_precision = FALSE;

  g_string_assign (spec, "%");
  *size = 0;
  *conv = '\0';
  for (uint32_t n = 0; n < 64; n++)
    {
      if (!read_mem (a->c, a->lane, KS_PTX_SPACE_NONE, (*fmt)++, &ch, 1))
        return FALSE;
      if (ch == '\0')
        {
          (*fmt)--;
          return TRUE;
        }
      if (ch == '*')
        {
          uint64_t v;
          int32_t x;

          if (!printf_arg (a, 4, &v))
            return FALSE;
          x = (int32_t) v;
          /* as in C: a negative width is the '-' flag, a negative
           * precision is none */
          if (in_precision)
            {
              if (x < 0)
                g_string_truncate (spec, spec->len - 1);
              else
                g_string_append_printf (spec, "%d", x);
            }
          else
            {
              if (x < 0)
                g_string_append_c (spec, '-');
              g_string_append_printf (spec, "%u", x < 0 ? -(uint32_t) x : (uint32_t) x);
            }
          continue;
        }
      if (ch == 'l' || ch == 'h')
        {
          *size += ch == 'l' ? 1 : -1;
          continue;
        }
      if (ch == '.')
        in_precision = TRUE;
      else if (!strchr ("-+ #0123456789", ch))
        {
          *conv = ch;
          return TRUE;
        }
      g_string_append_c (spec, ch);
    }
  return TRUE;
}

static void
do_vprintf (Ctx                *c,
            const KsPtxOperand *args,
            const KsPtxOperand *rets)
{
  KsSim *sim = c->sim;
  uint32_t psize = sim->layouts[c->f->fn].param_size;
  g_autoptr(GString) spec = g_string_new (NULL);

  LANES (c->exec, lane)
    {
      uint64_t fmt_addr = 0, arg_addr = 0;
      GString *out = sim->printf_out;
      PrintfArgs pa;
      char ch;

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
      pa = (PrintfArgs) { c, lane, arg_addr, 0, 0 };

      for (uint32_t i = 0; i < 65536; i++)
        {
          uint64_t start, v;
          int size;
          char conv;

          if (!read_mem (c, lane, KS_PTX_SPACE_NONE, fmt_addr++, &ch, 1))
            return;
          if (ch == '\0')
            break;
          if (ch != '%')
            {
              g_string_append_c (out, ch);
              continue;
            }
          start = fmt_addr;
          if (!printf_spec (&pa, &fmt_addr, spec, &size, &conv))
            return;
          if (conv == '%' && fmt_addr == start + 1)
            g_string_append_c (out, '%');
          else if (conv != '\0' && strchr ("fFeEgGaA", conv))
            {
              double d;

              if (!printf_arg (&pa, 8, &v))
                return;
              memcpy (&d, &v, 8);
              g_string_append_c (spec, conv);
              g_string_append_printf (out, spec->str, d);
            }
          else if (conv == 's' || conv == 'p')
            {
              if (!printf_arg (&pa, 8, &v))
                return;
              g_string_append_c (spec, conv);
              if (conv == 'p')
                g_string_append_printf (out, spec->str, GSIZE_TO_POINTER ((gsize) v));
              else if (v == 0)
                g_string_append_printf (out, spec->str, "(null)");
              else
                {
                  /* the string up to its end, or up to the precision */
                  const char *dot = strchr (spec->str, '.');
                  uint64_t max = dot ? g_ascii_strtoull (dot + 1, NULL, 10) : 65536;
                  g_autoptr(GString) str = g_string_new (NULL);

                  for (uint64_t k = 0; k < MIN (max, 65536); k++)
                    {
                      if (!read_mem (c, lane, KS_PTX_SPACE_NONE, v + k, &ch, 1))
                        return;
                      if (ch == '\0')
                        break;
                      g_string_append_c (str, ch);
                    }
                  g_string_append_printf (out, spec->str, str->str);
                }
            }
          else if (conv != '\0' && strchr ("diouxXc", conv))
            {
              gboolean is_signed = conv == 'd' || conv == 'i';

              if (!printf_arg (&pa, size > 0 ? 8 : 4, &v))
                return;
              if (conv == 'c')
                {
                  g_string_append_c (spec, 'c');
                  g_string_append_printf (out, spec->str, (int) (int32_t) v);
                  continue;
                }
              /* narrowed as the size says, then printed as 64 bits */
              if (size == -1)
                v = is_signed ? (uint64_t) (int64_t) (int16_t) v : (uint16_t) v;
              else if (size <= -2)
                v = is_signed ? (uint64_t) (int64_t) (int8_t) v : (uint8_t) v;
              else if (size == 0)
                v = is_signed ? (uint64_t) (int64_t) (int32_t) v : (uint32_t) v;
              g_string_append_printf (spec, "%s%c", G_GINT64_MODIFIER, conv);
              if (is_signed)
                g_string_append_printf (out, spec->str, (gint64) v);
              else
                g_string_append_printf (out, spec->str, (guint64) v);
            }
          else
            {
              /* not a conversion printf takes: print it as written */
              for (uint64_t k = start - 1; k < fmt_addr; k++)
                {
                  if (!read_mem (c, lane, KS_PTX_SPACE_NONE, k, &ch, 1))
                    return;
                  g_string_append_c (out, ch);
                }
            }
        }

      if (rets != NULL && rets->aux > 0)
        {
          const KsPtxOperand *r = &c->m->operands[rets->a];
          int32_t rv = (int32_t) pa.n_args;

          if (r->kind == KS_PTX_OPERAND_VAR)
            memcpy (c->f->params + (size_t) lane * psize + sim->var_addr[r->a], &rv, 4);
        }
    }
}

#pragma GCC diagnostic pop

/* The bytes of a call's argument or return value held in registers of
 * `frame`: `op` a register, a predicate, a vector of them, or an
 * immediate; `t` the parameter's element type.  Returns FALSE for an
 * operand of another form. */
static gboolean
frame_operand_bytes (const Ctx          *c,
                     const KsSimFrame   *frame,
                     const KsPtxOperand *op,
                     KsPtxType           t,
                     uint32_t            lane,
                     uint8_t            *buf,
                     uint32_t            size)
{
  uint32_t esz = MAX (ks_ptx_type_size (t), 1);
  uint32_t n = op->kind == KS_PTX_OPERAND_VECTOR ? op->aux : 1;

  for (uint32_t i = 0; i < n && (i + 1) * esz <= size; i++)
    {
      const KsPtxOperand *e = op->kind == KS_PTX_OPERAND_VECTOR ? &c->m->operands[op->a + i] : op;
      uint64_t v;

      if (e->kind == KS_PTX_OPERAND_REG)
        v = frame->regs[(size_t) e->a * KS_WARP_SIZE + lane];
      else if (e->kind == KS_PTX_OPERAND_PRED)
        v = ((frame->preds[e->a] >> lane) & 1) ^ ((e->flags & KS_PTX_OPERAND_NOT) ? 1 : 0);
      else if (e->kind == KS_PTX_OPERAND_IMM_INT || e->kind == KS_PTX_OPERAND_IMM_F32
               || e->kind == KS_PTX_OPERAND_IMM_F64)
        v = src (c, e, lane, t);
      else
        return FALSE;
      memcpy (buf + i * esz, &v, MIN (esz, 8));
    }
  return TRUE;
}

/* Writes `size` bytes of a parameter of element type `t` into registers of
 * `frame`: `first` the first of its consecutive register slots (predicate
 * slots for .pred). */
static void
frame_set_reg_param (KsSimFrame    *frame,
                     KsPtxType      t,
                     uint32_t       first,
                     uint32_t       lane,
                     const uint8_t *buf,
                     uint32_t       size)
{
  uint32_t esz = MAX (ks_ptx_type_size (t), 1);

  for (uint32_t i = 0; (i + 1) * esz <= size; i++)
    {
      uint64_t v = 0;

      memcpy (&v, buf + i * esz, MIN (esz, 8));
      if (t == KS_PTX_TYPE_PRED)
        {
          if (v & 1)
            frame->preds[first + i] |= 1u << lane;
          else
            frame->preds[first + i] &= ~(1u << lane);
        }
      else
        frame->regs[(size_t) (first + i) * KS_WARP_SIZE + lane] = v;
    }
}

/* Writes a value's bytes to a call's destination in `frame`: a .param
 * variable, a register or a predicate (the first 8 bytes), or a vector of
 * them (one element of `t` each).  Returns FALSE for another form. */
static gboolean
frame_set_operand (const Ctx          *c,
                   KsSimFrame         *frame,
                   const KsPtxOperand *to,
                   KsPtxType           t,
                   uint32_t            lane,
                   const uint8_t      *buf,
                   uint32_t            size)
{
  uint32_t esz = MAX (ks_ptx_type_size (t), 1);
  gboolean vector = to->kind == KS_PTX_OPERAND_VECTOR;
  uint32_t n = vector ? to->aux : 1;

  if (to->kind == KS_PTX_OPERAND_VAR)
    {
      uint32_t fsize = c->sim->layouts[frame->fn].param_size;

      memcpy (frame->params + (size_t) lane * fsize + c->sim->var_addr[to->a], buf, size);
      return TRUE;
    }
  for (uint32_t i = 0; i < n; i++)
    {
      const KsPtxOperand *e = vector ? &c->m->operands[to->a + i] : to;
      uint32_t off = vector ? i * esz : 0, len = vector ? MIN (esz, 8) : MIN (size, 8);
      uint64_t v = 0;

      if (off + len > size)
        return FALSE;
      memcpy (&v, buf + off, len);
      if (e->kind == KS_PTX_OPERAND_REG)
        frame->regs[(size_t) e->a * KS_WARP_SIZE + lane] = v;
      else if (e->kind == KS_PTX_OPERAND_PRED)
        {
          if (v & 1)
            frame->preds[e->a] |= 1u << lane;
          else
            frame->preds[e->a] &= ~(1u << lane);
        }
      else if (e->kind != KS_PTX_OPERAND_SINK)
        return FALSE;
    }
  return TRUE;
}

/* The register slot of a function's `index`-th .reg parameter (its
 * parameters first, then its return values). */
static const KsPtxRegDecl *
reg_param_decl (const KsPtxModule   *m,
                const KsPtxFunction *fn,
                uint32_t             var)
{
  uint32_t k = 0;

  for (uint32_t i = 0; i < fn->n_params + fn->n_rets; i++)
    {
      uint32_t vi = i < fn->n_params ? fn->first_param + i : fn->first_ret + (i - fn->n_params);

      if (vi == var)
        return &m->reg_decls[fn->first_reg_decl + k];
      if (m->vars[vi].flags & KS_PTX_VAR_REG_PARAM)
        k++;
    }
  return NULL;
}

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
    KsSimFrame *frame;

    if (!ks_sim_push_frame (c->sim, c->w, target, c->pc, c->exec))
      {
        ks_sim_frame_fault (c->sim, c->w, (int) __builtin_ctz (c->exec), c->in, target);
        return;
      }
    caller = &c->w->frames[c->w->n_frames - 2];
    frame = &c->w->frames[c->w->n_frames - 1];

    for (uint32_t i = 0; i < tfn->n_params; i++)
      {
        const KsPtxVar *pv = &m->vars[tfn->first_param + i];
        uint32_t size = ks_ptx_type_size (pv->type) * pv->vec * (uint32_t) pv->n_elements;
        const KsPtxOperand *from = args && i < args->aux ? &m->operands[args->a + i] : NULL;
        const KsPtxRegDecl *rd = (pv->flags & KS_PTX_VAR_REG_PARAM)
                                 ? reg_param_decl (m, tfn, tfn->first_param + i) : NULL;

        if (from == NULL)
          break;
        if (pv->type == KS_PTX_TYPE_PRED)
          size = pv->vec;
        LANES (c->exec, lane)
          {
            uint8_t buf[256] = { 0 };
            uint32_t n = MIN (size, sizeof buf);

            if (from->kind == KS_PTX_OPERAND_VAR)
              memcpy (buf, caller->params + (size_t) lane * csize + c->sim->var_addr[from->a], n);
            else if (!frame_operand_bytes (c, caller, from, (KsPtxType) pv->type, lane, buf, n))
              {
                operand_unsupported (c, from, "call argument");
                return;
              }
            if (rd != NULL)
              frame_set_reg_param (frame, (KsPtxType) pv->type, rd->first_slot, lane, buf,
                                   pv->type == KS_PTX_TYPE_PRED ? pv->vec : n);
            else
              memcpy (frame->params + (size_t) lane * tsize + c->sim->var_addr[tfn->first_param + i],
                      buf, n);
          }
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

/* The memory analysis of an ld/st/atom operand for the lanes of exec */
static void
record_access (Ctx                *c,
               const KsPtxOperand *op,
               uint32_t            size,
               gboolean            store,
               gboolean            atomic)
{
  uint64_t addrs[KS_WARP_SIZE] = { 0 };
  KsPtxSpace space = KS_PTX_SPACE_NONE;

  if (!c->sim->trace_enabled || c->exec == 0)
    return;
  LANES (c->exec, lane)
    {
      gboolean frame_param;

      space = address_of (c, op, lane, &addrs[lane], &frame_param);
      if (frame_param || space == KS_PTX_SPACE_PARAM || space == KS_PTX_SPACE_LOCAL)
        return;
    }
  ks_sim_record_memory (c->sim, c->w, c->fn->first_insn + c->pc, space, addrs, size, c->exec,
                        store, atomic);
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
  record_access (c, &c->ops[1], esize * n, FALSE, FALSE);
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
  record_access (c, &c->ops[0], esize * n, TRUE, FALSE);
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
      /* atom.add.f32 rounds to nearest and flushes subnormals to zero */
      if (t == KS_PTX_TYPE_F32)
        return ks_f32_add ((uint32_t) old, (uint32_t) b, KS_RN, KS_MATH_FTZ);
      if (t == KS_PTX_TYPE_F64)
        return ks_f64_add (old, b, KS_RN);
      if (t == KS_PTX_TYPE_F16X2)
        return ks_half2_add (KS_HALF_F16, (uint32_t) old, (uint32_t) b, KS_RN, 0);
      if (t == KS_PTX_TYPE_BF16X2)
        return ks_half2_add (KS_HALF_BF16, (uint32_t) old, (uint32_t) b, KS_RN, 0);
      if (t == KS_PTX_TYPE_F16)
        return ks_half_add (KS_HALF_F16, (uint16_t) old, (uint16_t) b, KS_RN, 0);
      if (t == KS_PTX_TYPE_BF16)
        return ks_half_add (KS_HALF_BF16, (uint16_t) old, (uint16_t) b, KS_RN, 0);
      return (old + b) & m;
    case KS_PTX_OP_MIN:
    case KS_PTX_OP_MAX:
      {
        gboolean mx = op == KS_PTX_OP_MAX;
        KsHalfKind k = (t == KS_PTX_TYPE_BF16 || t == KS_PTX_TYPE_BF16X2) ? KS_HALF_BF16 : KS_HALF_F16;

        /* floats by value, as the min and max instructions compare them */
        switch (t)
          {
          case KS_PTX_TYPE_F32:
            return mx ? ks_f32_max ((uint32_t) old, (uint32_t) b, 0) : ks_f32_min ((uint32_t) old, (uint32_t) b, 0);
          case KS_PTX_TYPE_F64:
            return mx ? ks_f64_max (old, b) : ks_f64_min (old, b);
          case KS_PTX_TYPE_F16:
          case KS_PTX_TYPE_BF16:
            return mx ? ks_half_max (k, (uint16_t) old, (uint16_t) b, 0)
                      : ks_half_min (k, (uint16_t) old, (uint16_t) b, 0);
          case KS_PTX_TYPE_F16X2:
          case KS_PTX_TYPE_BF16X2:
            return mx ? ks_half2_max (k, (uint32_t) old, (uint32_t) b, 0)
                      : ks_half2_min (k, (uint32_t) old, (uint32_t) b, 0);
          default:
            break;
          }
        if (is_signed (t))
          return (sext (old, t) < sext (b, t)) != mx ? old : b;
        return ((old & m) < (b & m)) != mx ? old : b;
      }
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

static void do_atomic_lanes (Ctx *c, gboolean red, uint32_t a, KsPtxType t, uint32_t size);

static void
do_atomic (Ctx      *c,
           gboolean  red)
{
  KsPtxType t = (KsPtxType) c->in->types[0];
  uint32_t size = ks_ptx_type_size (t);
  uint32_t a = red ? 0 : 1;

  if (c->in->n_operands < a + 2 || size == 0 || size > 8)
    {
      unsupported (c, "in this form");
      return;
    }
  record_access (c, &c->ops[a], size * vec_count (c->in), TRUE, TRUE);
  /* Other CTAs may run on other threads: global atomics take the lock */
  if (c->sim->shared != NULL && c->in->space != KS_PTX_SPACE_SHARED)
    g_mutex_lock (&c->sim->shared->atomics);
  do_atomic_lanes (c, red, a, t, size);
  if (c->sim->shared != NULL && c->in->space != KS_PTX_SPACE_SHARED)
    g_mutex_unlock (&c->sim->shared->atomics);
}

static void
do_atomic_lanes (Ctx      *c,
                 gboolean  red,
                 uint32_t  a,
                 KsPtxType t,
                 uint32_t  size)
{
  gboolean ok = TRUE;
  uint32_t n = vec_count (c->in);
  const KsPtxOperand *bop = &c->ops[a + 1], *dop = &c->ops[0];

  /* Vector atomics (.v2 .v4 .v8 of f32 and the half types): each element
   * is its own atomic operation on consecutive elements */
  if (n > 1 && (bop->kind != KS_PTX_OPERAND_VECTOR || bop->aux != n || c->in->op == KS_PTX_OP_CAS
                || (!red && (dop->kind != KS_PTX_OPERAND_VECTOR || dop->aux != n))))
    {
      unsupported (c, "in this vector form");
      return;
    }
  /* Lanes in order: the simulator is sequential, so each atomic sees the
   * previous lane's result, as one possible hardware order does. */
  LANES (c->exec, lane)
    {
      uint8_t *p = mem_at (c, &c->ops[a], lane, size * n, TRUE);

      if (p == NULL)
        return;
      for (uint32_t i = 0; i < n; i++)
        {
          uint64_t old = 0, b, cmp = 0, nv;

          memcpy (&old, p + (size_t) i * size, size);
          b = src (c, n > 1 ? &c->m->operands[bop->a + i] : bop, lane, t);
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
          /* a compare-and-swap that fails, or an exchange of the value
           * already there, changes nothing a spinning warp could see */
          if ((nv ^ old) & (size == 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (size * 8)) - 1))
            ks_sim_note_write (c->sim);
          memcpy (p + (size_t) i * size, &nv, size);
          if (!red)
            dst (c, n > 1 ? &c->m->operands[dop->a + i] : dop, lane,
                 is_signed (t) ? (uint64_t) sext (old, t) : old);
        }
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

/* The comparison of a lane's operands; for .f16x2 and .bf16x2, of their
 * low (half 0) or high (half 1) halves.  .ftz compares subnormal inputs as
 * zeros of their sign. */
static gboolean
compare_half (const Ctx *c,
              KsPtxType  t,
              uint32_t   lane,
              uint32_t   half,
              gboolean  *ok)
{
  gboolean ftz = (c->in->flags & KS_PTX_FLAG_FTZ) != 0;

  *ok = TRUE;
  if (t == KS_PTX_TYPE_F32)
    {
      uint32_t a = (uint32_t) src (c, &c->ops[1], lane, t), b = (uint32_t) src (c, &c->ops[2], lane, t);

      if (ftz)
        a = ks_f32_flush (a), b = ks_f32_flush (b);
      return compare_float ((KsPtxCmp) c->in->cmp, ks_f32_from_bits (a), ks_f32_from_bits (b));
    }
  if (t == KS_PTX_TYPE_F64)
    return compare_float ((KsPtxCmp) c->in->cmp, srcd (c, &c->ops[1], lane), srcd (c, &c->ops[2], lane));
  if (t == KS_PTX_TYPE_F16 || t == KS_PTX_TYPE_BF16 || t == KS_PTX_TYPE_F16X2 || t == KS_PTX_TYPE_BF16X2)
    {
      KsHalfKind k = (t == KS_PTX_TYPE_BF16 || t == KS_PTX_TYPE_BF16X2) ? KS_HALF_BF16 : KS_HALF_F16;
      uint32_t a = (uint32_t) src (c, &c->ops[1], lane, t), b = (uint32_t) src (c, &c->ops[2], lane, t);
      unsigned fl = ftz ? KS_MATH_FTZ : 0;

      return compare_float ((KsPtxCmp) c->in->cmp, ks_half_value (k, (uint16_t) (a >> (16 * half)), fl),
                            ks_half_value (k, (uint16_t) (b >> (16 * half)), fl));
    }
  if (is_float (t))
    {
      *ok = FALSE;
      return FALSE;
    }
  return compare_int ((KsPtxCmp) c->in->cmp, t, src (c, &c->ops[1], lane, t),
                      src (c, &c->ops[2], lane, t));
}

static gboolean
compare (const Ctx *c,
         KsPtxType  t,
         uint32_t   lane,
         gboolean  *ok)
{
  return compare_half (c, t, lane, 0, ok);
}

static gboolean
is_half_pair (KsPtxType t)
{
  return t == KS_PTX_TYPE_F16X2 || t == KS_PTX_TYPE_BF16X2;
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
      /* p|q: the complement, or for a pair of halves the high half's */
      if (q != NULL)
        dst (c, q, lane, bool_op ((KsPtxOp) c->in->op,
                                  is_half_pair (t) ? compare_half (c, t, lane, 1, &ok) : !r, cv));
    }
}

/* set: true is 1.0 in a float destination, all ones in an integer one; a
 * pair of halves gives one result a half ("0xffff" each for an integer
 * destination) */
static void
do_set (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType dt = (KsPtxType) in->types[0], st = (KsPtxType) in->types[1];
  gboolean pair = is_half_pair (st);
  uint64_t one;
  gboolean ok = TRUE;

  switch (dt)
    {
    case KS_PTX_TYPE_F32: one = pair ? 0 : 0x3f800000u; break;
    case KS_PTX_TYPE_F16: case KS_PTX_TYPE_BF16: one = pair ? 0 : dt == KS_PTX_TYPE_F16 ? 0x3c00u : 0x3f80u; break;
    case KS_PTX_TYPE_F16X2: one = st == KS_PTX_TYPE_F16X2 ? 0x3c00u : 0; break;
    case KS_PTX_TYPE_BF16X2: one = st == KS_PTX_TYPE_BF16X2 ? 0x3f80u : 0; break;
    case KS_PTX_TYPE_U16: case KS_PTX_TYPE_S16: one = pair ? 0 : 0xffffu; break;
    case KS_PTX_TYPE_U32: case KS_PTX_TYPE_S32: one = pair ? 0xffffu : 0xffffffffu; break;
    default: one = 0; break;
    }
  if (st == KS_PTX_TYPE_NONE || one == 0)
    {
      unsupported (c, "with these types");
      return;
    }
  LANES (c->exec, lane)
    {
      uint64_t v = 0;

      for (uint32_t h = 0; h < (pair ? 2u : 1u); h++)
        {
          gboolean r = compare_half (c, st, lane, h, &ok);

          if (!ok)
            {
              unsupported (c, "for this type");
              return;
            }
          if (in->op != KS_PTX_OP_NONE && in->n_operands > 3)
            r = bool_op ((KsPtxOp) in->op, r, src (c, &c->ops[3], lane, KS_PTX_TYPE_PRED) & 1);
          v |= (r ? one : 0) << (16 * h);
        }
      dst (c, &c->ops[0], lane, v);
    }
}

static KsRound
round_of (const KsPtxInsn *in)
{
  switch (in->round)
    {
    case KS_PTX_ROUND_RZ: return KS_RZ;
    case KS_PTX_ROUND_RM: return KS_RM;
    case KS_PTX_ROUND_RP: return KS_RP;
    default: return KS_RN;
    }
}

static unsigned
math_flags (const KsPtxInsn *in)
{
  unsigned f = 0;

  if (in->flags & KS_PTX_FLAG_FTZ)
    f |= KS_MATH_FTZ;
  if (in->flags & KS_PTX_FLAG_SAT)
    f |= KS_MATH_SAT;
  if (in->flags & KS_PTX_FLAG_NAN)
    f |= KS_MATH_NAN;
  if ((in->flags & KS_PTX_FLAG_XORSIGN) && (in->flags & KS_PTX_FLAG_ABS))
    f |= KS_MATH_XORSIGN_ABS;
  if (in->flags & KS_PTX_FLAG_RELU)
    f |= KS_MATH_RELU;
  if (in->flags & KS_PTX_FLAG_SATFINITE)
    f |= KS_MATH_SATFINITE;
  return f;
}

static gboolean
testp_of (const KsPtxInsn *in,
          KsTestp         *op)
{
  static const struct { uint64_t flag; KsTestp op; } map[] = {
    { KS_PTX_FLAG_FINITE, KS_TESTP_FINITE }, { KS_PTX_FLAG_INFINITE, KS_TESTP_INFINITE },
    { KS_PTX_FLAG_NUMBER, KS_TESTP_NUMBER }, { KS_PTX_FLAG_NOTANUMBER, KS_TESTP_NOTANUMBER },
    { KS_PTX_FLAG_NORMAL, KS_TESTP_NORMAL }, { KS_PTX_FLAG_SUBNORMAL, KS_TESTP_SUBNORMAL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (in->flags & map[i].flag)
      {
        *op = map[i].op;
        return TRUE;
      }
  return FALSE;
}

/* Floating point, with NVIDIA's rounding, flushing, saturation and NaN
 * rules from the numeric library. */
static gboolean
float_op (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType t = (KsPtxType) in->types[0];
  KsRound rnd = round_of (in);
  unsigned fl = math_flags (in);
  gboolean approx = (in->flags & KS_PTX_FLAG_APPROX) != 0;
  uint32_t n = in->n_operands;

  if (in->opcode == KS_PTX_OPC_TESTP)
    {
      KsTestp op;

      if (!testp_of (in, &op) || (t != KS_PTX_TYPE_F32 && t != KS_PTX_TYPE_F64))
        return FALSE;
      LANES (c->exec, lane)
        {
          uint64_t a = src (c, &c->ops[1], lane, t);

          dst (c, &c->ops[0], lane, t == KS_PTX_TYPE_F32 ? ks_f32_testp ((uint32_t) a, op)
                                                         : ks_f64_testp (a, op));
        }
      return TRUE;
    }

  if (t == KS_PTX_TYPE_F32)
    {
      LANES (c->exec, lane)
        {
          uint32_t a = n > 1 ? (uint32_t) src (c, &c->ops[1], lane, t) : 0;
          uint32_t b = n > 2 ? (uint32_t) src (c, &c->ops[2], lane, t) : 0;
          uint32_t cc = n > 3 ? (uint32_t) src (c, &c->ops[3], lane, t) : 0;
          uint32_t r;

          switch (in->opcode)
            {
            case KS_PTX_OPC_ADD: r = ks_f32_add (a, b, rnd, fl); break;
            case KS_PTX_OPC_SUB: r = ks_f32_sub (a, b, rnd, fl); break;
            case KS_PTX_OPC_MUL: r = ks_f32_mul (a, b, rnd, fl); break;
            case KS_PTX_OPC_FMA:
            case KS_PTX_OPC_MAD: r = ks_f32_fma (a, b, cc, rnd, fl); break;
            case KS_PTX_OPC_DIV:
              r = approx ? ks_f32_div_approx (a, b, fl)
                  : (in->flags & KS_PTX_FLAG_FULL) ? ks_f32_div_full (a, b, fl)
                  : ks_f32_div (a, b, rnd, fl);
              break;
            case KS_PTX_OPC_RCP: r = approx ? ks_f32_rcp_approx (a, fl) : ks_f32_rcp (a, rnd, fl); break;
            case KS_PTX_OPC_SQRT: r = approx ? ks_f32_sqrt_approx (a, fl) : ks_f32_sqrt (a, rnd, fl); break;
            case KS_PTX_OPC_RSQRT: r = ks_f32_rsqrt_approx (a, fl); break;
            case KS_PTX_OPC_SIN: r = ks_f32_sin_approx (a, fl); break;
            case KS_PTX_OPC_COS: r = ks_f32_cos_approx (a, fl); break;
            case KS_PTX_OPC_EX2: r = ks_f32_ex2_approx (a, fl); break;
            case KS_PTX_OPC_LG2: r = ks_f32_lg2_approx (a, fl); break;
            case KS_PTX_OPC_TANH: r = ks_f32_tanh_approx (a); break;
            case KS_PTX_OPC_ABS: r = ks_f32_abs (a, fl); break;
            case KS_PTX_OPC_NEG: r = ks_f32_neg (a, fl); break;
            case KS_PTX_OPC_MIN: r = ks_f32_min (a, b, fl); break;
            case KS_PTX_OPC_MAX: r = ks_f32_max (a, b, fl); break;
            case KS_PTX_OPC_COPYSIGN: r = ks_f32_copysign (a, b); break;
            default: return FALSE;
            }
          dst (c, &c->ops[0], lane, r);
        }
      return TRUE;
    }

  if (t == KS_PTX_TYPE_F64)
    {
      LANES (c->exec, lane)
        {
          uint64_t a = n > 1 ? src (c, &c->ops[1], lane, t) : 0;
          uint64_t b = n > 2 ? src (c, &c->ops[2], lane, t) : 0;
          uint64_t cc = n > 3 ? src (c, &c->ops[3], lane, t) : 0;
          uint64_t r;

          switch (in->opcode)
            {
            case KS_PTX_OPC_ADD: r = ks_f64_add (a, b, rnd); break;
            case KS_PTX_OPC_SUB: r = ks_f64_sub (a, b, rnd); break;
            case KS_PTX_OPC_MUL: r = ks_f64_mul (a, b, rnd); break;
            case KS_PTX_OPC_FMA:
            case KS_PTX_OPC_MAD: r = ks_f64_fma (a, b, cc, rnd); break;
            case KS_PTX_OPC_DIV: r = ks_f64_div (a, b, rnd); break;
            case KS_PTX_OPC_RCP:
              r = approx && (fl & KS_MATH_FTZ) ? ks_f64_rcp_approx_ftz (a) : ks_f64_rcp (a, rnd);
              break;
            case KS_PTX_OPC_SQRT: r = ks_f64_sqrt (a, rnd); break;
            case KS_PTX_OPC_RSQRT:
              r = (fl & KS_MATH_FTZ) ? ks_f64_rsqrt_approx_ftz (a) : ks_f64_rsqrt_approx (a);
              break;
            case KS_PTX_OPC_ABS: r = ks_f64_abs (a); break;
            case KS_PTX_OPC_NEG: r = ks_f64_neg (a); break;
            case KS_PTX_OPC_MIN: r = ks_f64_min (a, b); break;
            case KS_PTX_OPC_MAX: r = ks_f64_max (a, b); break;
            case KS_PTX_OPC_COPYSIGN: r = ks_f64_copysign (a, b); break;
            default: return FALSE;
            }
          if ((fl & KS_MATH_SAT) && in->opcode != KS_PTX_OPC_ABS && in->opcode != KS_PTX_OPC_NEG)
            {
              double d = ks_f64_from_bits (r);

              r = ks_f64_to_bits (isnan (d) ? 0.0 : d <= 0.0 ? 0.0 : d > 1.0 ? 1.0 : d);
            }
          dst (c, &c->ops[0], lane, r);
        }
      return TRUE;
    }

  if (t == KS_PTX_TYPE_F16 || t == KS_PTX_TYPE_BF16
      || t == KS_PTX_TYPE_F16X2 || t == KS_PTX_TYPE_BF16X2)
    {
      KsHalfKind k = (t == KS_PTX_TYPE_BF16 || t == KS_PTX_TYPE_BF16X2) ? KS_HALF_BF16 : KS_HALF_F16;
      gboolean pair = t == KS_PTX_TYPE_F16X2 || t == KS_PTX_TYPE_BF16X2;

      LANES (c->exec, lane)
        {
          uint32_t a = n > 1 ? (uint32_t) src (c, &c->ops[1], lane, t) : 0;
          uint32_t b = n > 2 ? (uint32_t) src (c, &c->ops[2], lane, t) : 0;
          uint32_t cc = n > 3 ? (uint32_t) src (c, &c->ops[3], lane, t) : 0;
          uint32_t r;

          if (pair)
            switch (in->opcode)
              {
              case KS_PTX_OPC_ADD: r = ks_half2_add (k, a, b, rnd, fl); break;
              case KS_PTX_OPC_SUB: r = ks_half2_sub (k, a, b, rnd, fl); break;
              case KS_PTX_OPC_MUL: r = ks_half2_mul (k, a, b, rnd, fl); break;
              case KS_PTX_OPC_FMA: r = ks_half2_fma (k, a, b, cc, rnd, fl); break;
              case KS_PTX_OPC_MIN: r = ks_half2_min (k, a, b, fl); break;
              case KS_PTX_OPC_MAX: r = ks_half2_max (k, a, b, fl); break;
              case KS_PTX_OPC_NEG: r = ks_half2_neg (k, a, fl); break;
              case KS_PTX_OPC_ABS: r = ks_half2_abs (k, a, fl); break;
              case KS_PTX_OPC_EX2:
                r = ks_half_ex2_approx (k, (uint16_t) a, fl)
                    | (uint32_t) ks_half_ex2_approx (k, (uint16_t) (a >> 16), fl) << 16;
                break;
              case KS_PTX_OPC_TANH:
                r = ks_half_tanh_approx (k, (uint16_t) a, fl)
                    | (uint32_t) ks_half_tanh_approx (k, (uint16_t) (a >> 16), fl) << 16;
                break;
              default: return FALSE;
              }
          else
            switch (in->opcode)
              {
              case KS_PTX_OPC_ADD: r = ks_half_add (k, (uint16_t) a, (uint16_t) b, rnd, fl); break;
              case KS_PTX_OPC_SUB: r = ks_half_sub (k, (uint16_t) a, (uint16_t) b, rnd, fl); break;
              case KS_PTX_OPC_MUL: r = ks_half_mul (k, (uint16_t) a, (uint16_t) b, rnd, fl); break;
              case KS_PTX_OPC_FMA:
                r = ks_half_fma (k, (uint16_t) a, (uint16_t) b, (uint16_t) cc, rnd, fl);
                break;
              case KS_PTX_OPC_MIN: r = ks_half_min (k, (uint16_t) a, (uint16_t) b, fl); break;
              case KS_PTX_OPC_MAX: r = ks_half_max (k, (uint16_t) a, (uint16_t) b, fl); break;
              case KS_PTX_OPC_NEG: r = ks_half_neg (k, (uint16_t) a, fl); break;
              case KS_PTX_OPC_ABS: r = ks_half_abs (k, (uint16_t) a, fl); break;
              case KS_PTX_OPC_EX2: r = ks_half_ex2_approx (k, (uint16_t) a, fl); break;
              case KS_PTX_OPC_TANH: r = ks_half_tanh_approx (k, (uint16_t) a, fl); break;
              default: return FALSE;
              }
          dst (c, &c->ops[0], lane, r);
        }
      return TRUE;
    }
  return FALSE;
}

static KsPrmtMode
prmt_mode (uint8_t op)
{
  switch (op)
    {
    case KS_PTX_OP_F4E: return KS_PRMT_F4E;
    case KS_PTX_OP_B4E: return KS_PRMT_B4E;
    case KS_PTX_OP_RC8: return KS_PRMT_RC8;
    case KS_PTX_OP_ECL: return KS_PRMT_ECL;
    case KS_PTX_OP_ECR: return KS_PRMT_ECR;
    case KS_PTX_OP_RC16: return KS_PRMT_RC16;
    default: return KS_PRMT_DEFAULT;
    }
}

/* Integer and bit instructions.  The carry flag of .cc/addc/subc/madc is a
 * lane mask in the frame. */
static void
int_op (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType t = (KsPtxType) in->types[0];
  uint64_t m = type_mask (t);
  unsigned width = ks_ptx_type_size (t) * 8;
  gboolean s = is_signed (t);
  gboolean hi = (in->flags & KS_PTX_FLAG_HI) != 0;
  gboolean wide = (in->flags & KS_PTX_FLAG_WIDE) != 0;
  gboolean sat = (in->flags & KS_PTX_FLAG_SAT) != 0;
  gboolean cc_out = (in->flags & KS_PTX_FLAG_CC) != 0;
  uint32_t n = in->n_operands;
  uint32_t carry = c->f->carry;

  if (t == KS_PTX_TYPE_PRED)
    {
      /* and/or/xor/not on predicates */
      LANES (c->exec, lane)
        {
          uint64_t a = src (c, &c->ops[1], lane, t) & 1;
          uint64_t b = n > 2 ? src (c, &c->ops[2], lane, t) & 1 : 0;
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
  if (width == 0 && in->opcode != KS_PTX_OPC_DP4A && in->opcode != KS_PTX_OPC_DP2A)
    {
      unsupported (c, "without a type");
      return;
    }

  LANES (c->exec, lane)
    {
      uint64_t a = n > 1 ? src (c, &c->ops[1], lane, t) & m : 0;
      uint64_t b = n > 2 ? src (c, &c->ops[2], lane, t) & m : 0;
      uint64_t cc = n > 3 ? src (c, &c->ops[3], lane, t) & m : 0;
      unsigned cin = (carry >> lane) & 1, cout = 0;
      gboolean keep = FALSE;    /* r is final: no truncation to the type */
      uint64_t r = 0;

      switch (in->opcode)
        {
        case KS_PTX_OPC_ADD:
          if (sat && s && width == 32)
            r = (uint32_t) ks_add_sat_s32 ((int32_t) a, (int32_t) b);
          else
            r = ks_addc (a, b, 0, &cout, width);
          break;
        case KS_PTX_OPC_ADDC:
          r = ks_addc (a, b, cin, &cout, width);
          break;
        case KS_PTX_OPC_SUB:
          /* The GPU subtracts as a + ~b + 1: the flag is the carry out of
           * that sum, 1 when there was no borrow (ZLUDA's subc_cc_s32,
           * checked on hardware, reads it back with addc). */
          if (sat && s && width == 32)
            r = (uint32_t) ks_sub_sat_s32 ((int32_t) a, (int32_t) b);
          else
            {
              r = ks_subc (a, b, 0, &cout, width);
              cout = !cout;
            }
          break;
        case KS_PTX_OPC_SUBC:
          r = ks_subc (a, b, !cin, &cout, width);
          cout = !cout;
          break;
        case KS_PTX_OPC_MUL:
          if (wide)
            r = s ? ks_mul_wide_s (a, b, width) : ks_mul_wide_u (a, b, width), keep = TRUE;
          else if (hi)
            r = s ? ks_mul_hi_s (a, b, width) : ks_mul_hi_u (a, b, width);
          else
            r = ks_mul_lo (a, b, width);
          break;
        case KS_PTX_OPC_MAD:
          if (wide)
            {
              /* the addend is twice as wide */
              uint64_t c2 = src (c, &c->ops[3], lane, s ? KS_PTX_TYPE_S64 : KS_PTX_TYPE_U64);
              unsigned w2 = width * 2;

              r = ((s ? ks_mul_wide_s (a, b, width) : ks_mul_wide_u (a, b, width)) + c2) & ks_mask (w2);
              keep = TRUE;
            }
          else if (cc_out)
            r = ks_madc (a, b, cc, hi, s, 0, &cout, width);
          else if (hi)
            r = s ? ks_mad_hi_s (a, b, cc, width, sat ? KS_MATH_SAT : 0) : ks_mad_hi_u (a, b, cc, width);
          else
            r = (ks_mul_lo (a, b, width) + cc) & m;
          break;
        case KS_PTX_OPC_MADC:
          r = ks_madc (a, b, cc, hi, s, cin, &cout, width);
          break;
        case KS_PTX_OPC_MUL24:
          r = hi ? ks_mul24_hi ((uint32_t) a, (uint32_t) b, s) : ks_mul24_lo ((uint32_t) a, (uint32_t) b, s);
          break;
        case KS_PTX_OPC_MAD24:
          if (hi && sat && s)
            r = ks_mad24_hi_sat_s ((uint32_t) a, (uint32_t) b, (uint32_t) cc);
          else
            r = (uint32_t) ((hi ? ks_mul24_hi ((uint32_t) a, (uint32_t) b, s)
                                : ks_mul24_lo ((uint32_t) a, (uint32_t) b, s)) + (uint32_t) cc);
          break;
        case KS_PTX_OPC_SAD: r = ks_sad (a, b, cc, width, s); break;
        case KS_PTX_OPC_DIV: r = s ? ks_div_s (a, b, width) : ks_div_u (a, b, width); break;
        case KS_PTX_OPC_REM: r = s ? ks_rem_s (a, b, width) : ks_rem_u (a, b, width); break;
        case KS_PTX_OPC_ABS: r = ks_abs_s (a, width); break;
        case KS_PTX_OPC_NEG: r = ks_neg_s (a, width); break;
        case KS_PTX_OPC_MIN: r = ks_min_int (a, b, width, s); break;
        case KS_PTX_OPC_MAX: r = ks_max_int (a, b, width, s); break;
        case KS_PTX_OPC_AND: r = a & b; break;
        case KS_PTX_OPC_OR: r = a | b; break;
        case KS_PTX_OPC_XOR: r = a ^ b; break;
        case KS_PTX_OPC_NOT: r = ~a; break;
        case KS_PTX_OPC_CNOT: r = ks_cnot (a, width); break;
        case KS_PTX_OPC_SHL:
          r = ks_shl (a, (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32), width);
          break;
        case KS_PTX_OPC_SHR:
          {
            uint32_t sh = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);

            r = s ? ks_shr_s (a, sh, width) : ks_shr_u (a, sh, width);
          }
          break;
        case KS_PTX_OPC_POPC: r = ks_popc (a, width); keep = TRUE; break;
        case KS_PTX_OPC_CLZ: r = ks_clz (a, width); keep = TRUE; break;
        case KS_PTX_OPC_BREV: r = ks_brev (a, width); break;
        case KS_PTX_OPC_BFIND:
          r = ks_bfind (a, width, s, (in->flags & KS_PTX_FLAG_SHIFTAMT) != 0);
          keep = TRUE;
          break;
        case KS_PTX_OPC_BFE:
          r = ks_bfe (a, (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32),
                      (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_U32), width, s);
          break;
        case KS_PTX_OPC_BFI:
          r = ks_bfi (a, b, (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_U32),
                      (uint32_t) src (c, &c->ops[4], lane, KS_PTX_TYPE_U32), width);
          break;
        case KS_PTX_OPC_FNS:
          r = ks_fns ((uint32_t) a, (uint32_t) b, (int32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_S32));
          keep = TRUE;
          break;
        case KS_PTX_OPC_PRMT:
          r = ks_prmt ((uint32_t) a, (uint32_t) b, (uint32_t) cc, prmt_mode (in->op));
          break;
        case KS_PTX_OPC_LOP3:
          r = ks_lop3 ((uint32_t) a, (uint32_t) b, (uint32_t) cc,
                       (uint8_t) src (c, &c->ops[4], lane, KS_PTX_TYPE_U32));
          break;
        case KS_PTX_OPC_SHF:
          {
            gboolean clamp = (in->flags & KS_PTX_FLAG_CLAMP) != 0;

            r = in->op == KS_PTX_OP_L ? ks_shf_l ((uint32_t) a, (uint32_t) b, (uint32_t) cc, clamp)
                                      : ks_shf_r ((uint32_t) a, (uint32_t) b, (uint32_t) cc, clamp);
          }
          break;
        case KS_PTX_OPC_DP4A:
        case KS_PTX_OPC_DP2A:
          {
            gboolean as = is_signed ((KsPtxType) in->types[0]), bs = is_signed ((KsPtxType) in->types[1]);
            uint32_t x = (uint32_t) src (c, &c->ops[1], lane, KS_PTX_TYPE_U32);
            uint32_t y = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);
            uint32_t z = (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_U32);

            r = in->opcode == KS_PTX_OPC_DP4A ? ks_dp4a (x, y, z, as, bs)
                                             : ks_dp2a (x, y, z, as, bs, hi);
            keep = TRUE;
          }
          break;
        case KS_PTX_OPC_SZEXT:
          r = ks_szext ((uint32_t) a, (uint32_t) b, (in->flags & KS_PTX_FLAG_CLAMP) != 0, s);
          break;
        case KS_PTX_OPC_BMSK:
          r = ks_bmsk ((uint32_t) a, (uint32_t) b, (in->flags & KS_PTX_FLAG_CLAMP) != 0);
          break;
        default:
          unsupported (c, NULL);
          return;
        }

      if (cc_out || in->opcode == KS_PTX_OPC_ADDC || in->opcode == KS_PTX_OPC_SUBC
          || in->opcode == KS_PTX_OPC_MADC)
        {
          if (cc_out)
            carry = (carry & ~(1u << lane)) | (cout << lane);
        }
      dst (c, &c->ops[0], lane, keep ? r : (s ? ks_sext (r, width) : r & m));
    }
  c->f->carry = carry;
}

static gboolean has_word (Ctx *c, const char *word);

/* cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}: a and b clamped to the
 * convert type, b in the low field and a above it; with c (the 8-, 4- and
 * 2-bit types) the rest of d is the low bits of c, as the ISA's semantics
 * say.  .u2 and .s2 are not types the parser knows: they are words. */
static void
do_cvt_pack (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType ct = (KsPtxType) in->types[0];
  KsPtxType ab = (KsPtxType) in->types[1];
  uint32_t size;
  gboolean sgn, with_c;

  if (has_word (c, "u2") || has_word (c, "s2"))
    {
      size = 2;
      sgn = has_word (c, "s2");
      ab = ct;                  /* the first type written is abType */
    }
  else
    {
      switch (ct)
        {
        case KS_PTX_TYPE_U16: case KS_PTX_TYPE_S16: size = 16; break;
        case KS_PTX_TYPE_U8: case KS_PTX_TYPE_S8: size = 8; break;
        case KS_PTX_TYPE_U4: case KS_PTX_TYPE_S4: size = 4; break;
        default: size = 0; break;
        }
      sgn = ct == KS_PTX_TYPE_S16 || ct == KS_PTX_TYPE_S8 || ct == KS_PTX_TYPE_S4;
    }
  with_c = size < 16;
  if (size == 0 || ab != KS_PTX_TYPE_S32 || in->n_operands != (with_c ? 4u : 3u))
    {
      unsupported (c, "in this form");
      return;
    }

  LANES (c->exec, lane)
    {
      int64_t lo = sgn ? -((int64_t) 1 << (size - 1)) : 0;
      int64_t hi = sgn ? ((int64_t) 1 << (size - 1)) - 1 : ((int64_t) 1 << size) - 1;
      int64_t a = (int32_t) src (c, &c->ops[1], lane, KS_PTX_TYPE_S32);
      int64_t b = (int32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_S32);
      uint32_t field = (uint32_t) (((uint64_t) 1 << size) - 1);
      uint32_t ta = (uint32_t) CLAMP (a, lo, hi) & field;
      uint32_t tb = (uint32_t) CLAMP (b, lo, hi) & field;
      uint32_t d = tb | (ta << size);

      if (with_c)
        d |= (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_B32) << (2 * size);
      dst (c, &c->ops[0], lane, d);
    }
}

/* cvt between any two of the scalar types, with rounding and saturation */
static void
do_cvt (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsPtxType dt = (KsPtxType) in->types[0];
  KsPtxType st = (KsPtxType) in->types[1];
  unsigned fl = math_flags (in);

  if (in->flags & KS_PTX_FLAG_PACK)
    {
      do_cvt_pack (c);
      return;
    }
  if (st == KS_PTX_TYPE_NONE || ks_ptx_type_size (dt) == 0 || ks_ptx_type_size (st) == 0)
    {
      unsupported (c, "in this form");
      return;
    }
  if ((dt == KS_PTX_TYPE_E4M3X2 || dt == KS_PTX_TYPE_E5M2X2)
      || (dt == KS_PTX_TYPE_F16X2 && (st == KS_PTX_TYPE_E4M3X2 || st == KS_PTX_TYPE_E5M2X2)))
    {
      /* FP8 pairs: from two f32 (a to the upper byte), from an f16x2, and back */
      gboolean e4 = dt == KS_PTX_TYPE_E4M3X2 || st == KS_PTX_TYPE_E4M3X2;

      LANES (c->exec, lane)
        {
          uint32_t a = (uint32_t) src (c, &c->ops[1], lane, st);
          uint32_t r;

          if (dt == KS_PTX_TYPE_F16X2)
            r = e4 ? ks_cvt_f16x2_e4m3x2 ((uint16_t) a, fl) : ks_cvt_f16x2_e5m2x2 ((uint16_t) a, fl);
          else if (st == KS_PTX_TYPE_F16X2)
            r = e4 ? ks_cvt_e4m3x2_f16x2 (a, fl) : ks_cvt_e5m2x2_f16x2 (a, fl);
          else if (st == KS_PTX_TYPE_F32 && in->n_operands > 2)
            {
              uint32_t b = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_F32);

              r = e4 ? ks_cvt_e4m3x2_f32 (a, b, fl) : ks_cvt_e5m2x2_f32 (a, b, fl);
            }
          else
            {
              unsupported (c, "between these types");
              return;
            }
          dst (c, &c->ops[0], lane, r);
        }
      return;
    }
  if (dt == KS_PTX_TYPE_F16X2 || dt == KS_PTX_TYPE_BF16X2)
    {
      /* cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower */
      LANES (c->exec, lane)
        {
          uint32_t a = (uint32_t) src (c, &c->ops[1], lane, KS_PTX_TYPE_F32);
          uint32_t b = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_F32);

          dst (c, &c->ops[0], lane, dt == KS_PTX_TYPE_F16X2
                                    ? ks_cvt_f16x2_f32 (a, b, (KsPtxRound) in->round, fl)
                                    : ks_cvt_bf16x2_f32 (a, b, (KsPtxRound) in->round, fl));
        }
      return;
    }
  LANES (c->exec, lane)
    {
      uint64_t v = src (c, &c->ops[1], lane, st) & type_mask (st);
      uint64_t r = ks_cvt (dt, st, v, (KsPtxRound) in->round, fl);

      dst (c, &c->ops[0], lane, is_signed (dt) ? ks_sext (r, ks_ptx_type_size (dt) * 8) : r);
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

/* A global address inside a module .const variable: the const window of
 * the generic address space, which the simulator keeps among the global
 * allocations (they are its only read-only ones) */
static gboolean
in_const_alloc (const KsSim *sim,
                uint64_t     a)
{
  uint32_t lo = 0, hi = sim->n_allocs;

  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      const KsSimAlloc *al = &sim->allocs[mid];

      if (a < al->base)
        hi = mid;
      else if (a >= al->base + al->size)
        lo = mid + 1;
      else
        return al->readonly;
    }
  return FALSE;
}

/* isspacep: the windows of the generic address space.  Global is what no
 * other window holds, and the kernel parameters' window too ("isspacep.global
 * returns 1 for Kernel Function Parameters as .param window is contained
 * within the .global window", PTX ISA); const is the .const variables. */
static gboolean
in_space (const KsSim *sim,
          KsPtxSpace   space,
          uint64_t     a)
{
  gboolean param = a >= KS_SIM_PARAM_WINDOW && a < KS_SIM_PARAM_WINDOW + KS_SIM_WINDOW_SIZE;

  switch (space)
    {
    case KS_PTX_SPACE_SHARED:
    case KS_PTX_SPACE_SHARED_CLUSTER:   /* a cluster is the block itself here */
      return a >= KS_SIM_SHARED_WINDOW && a < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE;
    case KS_PTX_SPACE_LOCAL:
      return a >= KS_SIM_LOCAL_WINDOW && a < KS_SIM_LOCAL_WINDOW + KS_SIM_WINDOW_SIZE;
    case KS_PTX_SPACE_PARAM:
      return param;
    case KS_PTX_SPACE_GLOBAL:
      return param || (a >= KS_SIM_GLOBAL_BASE && !in_const_alloc (sim, a));
    case KS_PTX_SPACE_CONST:
      return a >= KS_SIM_GLOBAL_BASE && in_const_alloc (sim, a);
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

/* mapa and getctarank: a cluster is one CTA here (%cluster_nctarank is 1),
 * so the only CTA an address can be mapped to is this one, rank 0, and
 * every shared address belongs to it. */
static void
do_cluster_map (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  gboolean mapa = in->opcode == KS_PTX_OPC_MAPA;

  if (in->n_operands != (mapa ? 3u : 2u))
    {
      unsupported (c, "in this form");
      return;
    }
  LANES (c->exec, lane)
    {
      uint64_t a = src (c, &c->ops[1], lane, KS_PTX_TYPE_U64);

      if (!mapa)
        {
          dst (c, &c->ops[0], lane, 0);
          continue;
        }
      if ((uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32) != 0)
        {
          ks_sim_fault (c->sim, c->w, (int) lane, in, KS_SIM_FAULT_OUT_OF_BOUNDS, FALSE, 0,
                        "mapa to CTA rank %u of the cluster: the simulator runs clusters of one "
                        "CTA, rank 0", (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32));
          return;
        }
      dst (c, &c->ops[0], lane, a & type_mask ((KsPtxType) in->types[0]));
    }
}

/* elect.sync d|p, membermask: the leader is the lowest executing lane of
 * membermask (the ISA only promises the same leader for the same mask);
 * d gets its lane id, p is true in it alone.  A lane outside membermask
 * executing it is undefined in the ISA: a fault. */
static void
do_elect (Ctx *c)
{
  const KsPtxOperand *d = &c->ops[0];
  uint32_t lane0 = c->exec ? (uint32_t) __builtin_ctz (c->exec) : 0;
  uint32_t mask, leader;

  if (c->in->n_operands != 2 || d->kind != KS_PTX_OPERAND_VECTOR || d->aux != 2)
    {
      unsupported (c, "in this form");
      return;
    }
  if (c->exec == 0)
    return;
  mask = (uint32_t) src (c, &c->ops[1], lane0, KS_PTX_TYPE_U32);
  if (c->exec & ~mask)
    {
      uint32_t lane = (uint32_t) __builtin_ctz (c->exec & ~mask);

      ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                    "elect.sync executed by lane %u, which is not in its membermask 0x%08x",
                    lane, mask);
      return;
    }
  leader = (uint32_t) __builtin_ctz (c->exec);
  LANES (c->exec, lane)
    {
      dst (c, &c->m->operands[d->a], lane, leader);
      dst (c, &c->m->operands[d->a + 1], lane, lane == leader);
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
  uint32_t masks[KS_WARP_SIZE] = { 0 };
  uint32_t done = 0;

  /* Each lane reduces over the lanes of its membermask (cooperative
   * groups' labeled_partition gives every group its own), which must all
   * execute this redux.sync with that same mask. */
  LANES (c->exec, lane)
    {
      masks[lane] = c->in->n_operands > 2 ? (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32)
                                          : c->exec;
      if (!(masks[lane] & (1u << lane)))
        {
          ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                        "redux.sync executed by lane %u, which is not in its membermask 0x%08x",
                        lane, masks[lane]);
          return;
        }
      if (masks[lane] & ~c->exec & c->w->live)
        {
          ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                        "redux.sync in lane %u waits for lanes 0x%08x of its membermask 0x%08x, "
                        "which do not execute it with this warp's path", lane,
                        masks[lane] & ~c->exec & c->w->live, masks[lane]);
          return;
        }
    }
  LANES (c->exec, lane)
    {
      uint32_t group = masks[lane] & c->exec;    /* lanes that exited are not waited for */
      uint64_t acc = 0;
      gboolean first = TRUE;

      if (done & (1u << lane))
        continue;
      LANES (group, other)
        {
          uint64_t v = src (c, &c->ops[1], other, t) & 0xffffffffu;

          if ((masks[other] & c->exec) != group)
            {
              ks_sim_fault (c->sim, c->w, (int) other, c->in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                            "redux.sync: lane %u has membermask 0x%08x and lane %u, one of its "
                            "members, 0x%08x; the lanes of a group must give the same mask",
                            lane, group, other, masks[other]);
              return;
            }
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
      LANES (group, other)
        dst (c, &c->ops[0], other, acc);
      done |= group;
    }
}

static void
do_barrier (Ctx *c)
{
  KsSimWarp *w = c->w;
  const KsPtxInsn *in = c->in;
  uint32_t lane0 = c->exec ? (uint32_t) __builtin_ctz (c->exec) : 0;
  gboolean red = (in->flags & KS_PTX_FLAG_RED) != 0;
  uint32_t first = red ? 1 : 0;         /* bar.red d, a, {b,} p */
  uint32_t n_ids = in->n_operands - first - (red ? 1 : 0);
  uint32_t id = 0, count = 0;

  if (in->flags & KS_PTX_FLAG_WARP)
    return;                     /* bar.warp.sync: warps run in lockstep here */
  if (n_ids > 0)
    id = (uint32_t) src (c, &c->ops[first], lane0, KS_PTX_TYPE_U32);
  if (n_ids > 1)
    count = (uint32_t) src (c, &c->ops[first + 1], lane0, KS_PTX_TYPE_U32);
  if (id >= KS_SIM_N_BARRIERS)
    {
      ks_sim_fault (c->sim, w, (int) lane0, in, KS_SIM_FAULT_OUT_OF_BOUNDS, FALSE, 0,
                    "barrier %u does not exist: a block has barriers 0 to %u",
                    id, KS_SIM_N_BARRIERS - 1);
      return;
    }
  if (count % KS_WARP_SIZE != 0)
    {
      ks_sim_fault (c->sim, w, (int) lane0, in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                    "barrier %u is given %u threads, which is not a multiple of the warp size",
                    id, count);
      return;
    }

  if (in->flags & KS_PTX_FLAG_ARRIVE)
    {
      /* arrive and go on: "marks warps' arrival at barrier", which counts
       * the warp size whatever lanes of the warp have exited */
      c->sim->cta.arrived[id] += KS_WARP_SIZE;
      return;
    }
  if (c->exec != w->live)
    {
      ks_sim_fault (c->sim, w, (int) lane0, in, KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                    "deadlock: a barrier reached by only some threads of warp %u "
                    "(lanes 0x%08x of 0x%08x): __syncthreads() in divergent code",
                    w->index, c->exec, w->live);
      return;
    }

  w->red_op = KS_PTX_OP_NONE;
  if (red)
    {
      const KsPtxOperand *d = &c->ops[0];
      const KsPtxOperand *p = &c->ops[in->n_operands - 1];
      uint32_t set = 0;

      if (in->op != KS_PTX_OP_POPC && in->op != KS_PTX_OP_AND && in->op != KS_PTX_OP_OR)
        {
          unsupported (c, "with this operation");
          return;
        }
      LANES (c->exec, lane)
        if (src (c, p, lane, KS_PTX_TYPE_PRED) & 1)
          set |= 1u << lane;
      w->red_op = in->op;
      w->red_value = in->op == KS_PTX_OP_POPC ? (uint32_t) __builtin_popcount (set)
                     : in->op == KS_PTX_OP_AND ? set == c->exec : set != 0;
      w->red_dst = d->a;
      w->red_dst_pred = d->kind == KS_PTX_OPERAND_PRED;
    }
  w->state = KS_WARP_AT_BARRIER;
  flag_event (c->sim, KS_TRACE_BARRIER);
  w->barrier = id;
  w->barrier_count = count;
  w->barrier_insn = (uint32_t) (in - c->m->insns);
}

/* ---- mbarrier ------------------------------------------------------------------------------ */

/* The shared-memory offset of the mbarrier an [addr] operand names for a
 * lane: in .shared (or .shared::cluster, a cluster being one CTA here), or
 * a generic address in the shared window; 8-byte aligned and inside the
 * block's shared memory.  With must_be_valid, an initialized one.  NULL
 * after a fault; else the object's 8 bytes. */
static uint8_t *
mbar_at (Ctx                *c,
         const KsPtxOperand *op,
         uint32_t            lane,
         gboolean            must_be_valid,
         uint32_t           *offset)
{
  uint64_t addr;
  gboolean fp;
  KsPtxSpace space = address_of (c, op, lane, &addr, &fp);
  uint8_t *p;

  /* The bulk copies name the mbarrier in .shared::cluster whatever the
   * instruction's (source) space */
  if (c->in->opcode == KS_PTX_OPC_CP && (c->in->flags & KS_PTX_FLAG_BULK)
      && !(op->kind == KS_PTX_OPERAND_ADDRESS && op->aux == KS_PTX_ADDRESS_VAR))
    space = KS_PTX_SPACE_SHARED;

  if (space == KS_PTX_SPACE_NONE && addr >= KS_SIM_SHARED_WINDOW
      && addr < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE)
    {
      space = KS_PTX_SPACE_SHARED;
      addr -= KS_SIM_SHARED_WINDOW;
    }
  if (space != KS_PTX_SPACE_SHARED && space != KS_PTX_SPACE_SHARED_CLUSTER)
    {
      ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                    "the mbarrier address 0x%" G_GINT64_MODIFIER "x is not in shared memory",
                    addr);
      return NULL;
    }
  if (addr >= c->sim->cta.shared_size && addr < G_MAXUINT32)
    {
      /* past the block's own shared memory: the reserved region, or
       * nothing (which ks_sim_resolve reports) */
      if (ks_sim_resolve (c->sim, c->w, (int) lane, c->in, KS_PTX_SPACE_SHARED, addr, 8, TRUE)
          != NULL)
        ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_UNSUPPORTED, TRUE, addr,
                      "an mbarrier in the shared memory reserved for system software "
                      "(offset 0x%" G_GINT64_MODIFIER "x) is not simulated", addr);
      return NULL;
    }
  p = ks_sim_resolve (c->sim, c->w, (int) lane, c->in, KS_PTX_SPACE_SHARED, addr, 8, TRUE);
  if (p == NULL)
    return NULL;
  *offset = (uint32_t) addr;
  if (must_be_valid && !(c->sim->cta.mbar_valid[addr / 64] & (1u << (addr / 8 % 8))))
    {
      ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                    "no mbarrier at shared offset 0x%" G_GINT64_MODIFIER "x: it was never "
                    "initialized (mbarrier.init) or was invalidated (mbarrier.inval)", addr);
      return NULL;
    }
  return p;
}

static gboolean
mbar_check (Ctx         *c,
            uint32_t     lane,
            uint32_t     offset,
            KsMbarError  error)
{
  if (error == KS_MBAR_OK)
    return TRUE;
  ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, offset,
                "mbarrier at shared offset 0x%x: %s (undefined in the PTX ISA)", offset,
                ks_mbar_error_string (error));
  return FALSE;
}

/* Stores an mbarrier back after an operation.  A completed phase orders
 * what its participants did before arriving with what its waiters do
 * after: for the race check, a new barrier interval of the whole block
 * (coarser than the mbarrier's participants, so it can hide races between
 * threads that do not take part in it). */
static void
mbar_store (Ctx              *c,
            uint8_t          *p,
            uint64_t          old_bits,
            const KsMbarrier *m)
{
  uint64_t bits = ks_mbar_pack (m);

  memcpy (p, &bits, 8);
  c->sim->cta.mbar_version++;
  if ((bits >> 63) != (old_bits >> 63))
    c->sim->epoch++;
}

/* A wait that failed.  A warp that fails the same wait twice with no
 * mbarrier of its block changed in between spins: it sleeps until one
 * changes (the scheduler wakes it), and if nothing is left to change one,
 * that is a deadlock fault, never a hang.  Waits at other instructions in
 * between (polling two mbarriers in turn) count too, but do not put the
 * warp to sleep on their own: the warp may yet arrive itself. */
static void
mbar_wait_failed (Ctx      *c,
                  uint32_t  offset)
{
  KsSimWarp *w = c->w;
  uint32_t insn = c->fn->first_insn + c->pc;

  if (w->mbar_seen != c->sim->cta.mbar_version)
    {
      w->mbar_seen = c->sim->cta.mbar_version;
      w->n_mbar_polls = 0;
    }
  for (uint32_t i = 0; i < MIN (w->n_mbar_polls, G_N_ELEMENTS (w->mbar_polls)); i++)
    if (w->mbar_polls[i] == insn)
      {
        w->state = KS_WARP_AT_MBARRIER;
        w->mbar_insn = insn;
        w->mbar_addr = offset;
        return;
      }
  w->mbar_polls[w->n_mbar_polls++ % G_N_ELEMENTS (w->mbar_polls)] = insn;
}

static void
do_mbarrier (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  uint64_t f = in->flags;
  gboolean arrive = (f & (KS_PTX_FLAG_ARRIVE | KS_PTX_FLAG_ARRIVE_DROP)) != 0;
  gboolean wait = (f & (KS_PTX_FLAG_TEST_WAIT | KS_PTX_FLAG_TRY_WAIT)) != 0;
  KsSimCta *cta = &c->sim->cta;
  uint32_t n_ops = in->n_operands;
  uint32_t failed = 0, failed_offset = 0;

  if (f & KS_PTX_FLAG_PENDING_COUNT)
    {
      /* mbarrier.pending_count.b64 count, state */
      if (n_ops != 2)
        goto form;
      LANES (c->exec, lane)
        dst (c, &c->ops[0], lane,
             ks_mbar_state_pending (src (c, &c->ops[1], lane, KS_PTX_TYPE_B64)));
      return;
    }

  if ((f & KS_PTX_FLAG_INIT) ? n_ops != 2
      : (f & KS_PTX_FLAG_INVAL) ? n_ops != 1
      : arrive ? n_ops < 2 || n_ops > 3 || ((f & KS_PTX_FLAG_EXPECT_TX) && n_ops != 3)
      : (f & (KS_PTX_FLAG_EXPECT_TX | KS_PTX_FLAG_COMPLETE_TX)) ? n_ops != 2
      : wait ? n_ops < 3 || n_ops > 4
      : TRUE)
    goto form;

  LANES (c->exec, lane)
    {
      const KsPtxOperand *addr_op = &c->ops[arrive || wait ? 1 : 0];
      uint32_t offset;
      /* init and inval work on any 8 bytes: several lanes may invalidate
       * the same object */
      uint8_t *p = mbar_at (c, addr_op, lane, !(f & (KS_PTX_FLAG_INIT | KS_PTX_FLAG_INVAL)),
                            &offset);
      uint64_t bits;
      KsMbarrier m;

      if (p == NULL)
        return;
      memcpy (&bits, p, 8);
      ks_mbar_unpack (bits, &m);
      if (f & KS_PTX_FLAG_INIT)
        {
          uint32_t count = (uint32_t) src (c, &c->ops[1], lane, KS_PTX_TYPE_U32);

          if (!mbar_check (c, lane, offset, ks_mbar_init (&m, count)))
            return;
          cta->mbar_valid[offset / 64] |= (uint8_t) (1u << (offset / 8 % 8));
        }
      else if (f & KS_PTX_FLAG_INVAL)
        {
          cta->mbar_valid[offset / 64] &= (uint8_t) ~(1u << (offset / 8 % 8));
          cta->mbar_version++;
          continue;
        }
      else if (arrive)
        {
          /* arrive.expect_tx: expect-tx, then an arrival of 1 */
          uint32_t count = 1;

          if (f & KS_PTX_FLAG_EXPECT_TX)
            {
              if (!mbar_check (c, lane, offset,
                               ks_mbar_expect_tx (&m, (uint32_t) src (c, &c->ops[2], lane,
                                                                     KS_PTX_TYPE_U32))))
                return;
            }
          else if (n_ops == 3)
            count = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);
          if (!mbar_check (c, lane, offset,
                           ks_mbar_arrive (&m, count, (f & KS_PTX_FLAG_ARRIVE_DROP) != 0,
                                           (f & KS_PTX_FLAG_NOCOMPLETE) != 0)))
            return;
          /* the state before the arrival */
          dst (c, &c->ops[0], lane, bits);
        }
      else if (f & KS_PTX_FLAG_EXPECT_TX)
        {
          if (!mbar_check (c, lane, offset,
                           ks_mbar_expect_tx (&m, (uint32_t) src (c, &c->ops[1], lane,
                                                                 KS_PTX_TYPE_U32))))
            return;
        }
      else if (f & KS_PTX_FLAG_COMPLETE_TX)
        {
          if (!mbar_check (c, lane, offset,
                           ks_mbar_complete_tx (&m, (uint32_t) src (c, &c->ops[1], lane,
                                                                   KS_PTX_TYPE_U32))))
            return;
        }
      else
        {
          /* test_wait / try_wait {.parity}: nothing changes */
          uint64_t s = src (c, &c->ops[2], lane, KS_PTX_TYPE_B64);
          gboolean done = (f & KS_PTX_FLAG_PARITY) ? ks_mbar_test_parity (&m, (uint32_t) s)
                                                   : ks_mbar_test_state (&m, s);

          dst (c, &c->ops[0], lane, done);
          if (!done)
            {
              failed |= 1u << lane;
              failed_offset = offset;
            }
          continue;
        }
      mbar_store (c, p, bits, &m);
    }
  if (failed)
    mbar_wait_failed (c, failed_offset);
  return;

form:
  unsupported (c, "in this form");
}

/* The undecoded words a bulk copy may carry: a cache hint (whose policy
 * operand comes last) and .read of wait_group; anything else
 * (.multicast::cluster, ...) is not supported. */
/* ---- video instructions ------------------------------------------------------------------- */

/* The scalar and SIMD video instructions (ks-sim-video.c): a form the
 * simulator does not run, or a lane whose values the ISA leaves open, stops
 * the kernel with an `unsupported` fault. */
static void
do_video (Ctx *c)
{
  KsVideoForm form;
  const char *why = ks_video_decode (c->m, c->in, c->ops, &form);

  if (why != NULL)
    {
      unsupported (c, why);
      return;
    }
  LANES (c->exec, lane)
    {
      uint32_t a = (uint32_t) src (c, &c->ops[1], lane, KS_PTX_TYPE_U32);
      uint32_t b = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);
      uint32_t cv = c->in->n_operands > 3
                    ? (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_U32) : 0;
      uint32_t d;

      if (!ks_video_eval (&form, a, b, cv, &d, &why))
        {
          g_autofree char *name = g_strdup (ks_ptx_opcode_name (c->in->opcode));

          ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_UNSUPPORTED, FALSE, 0,
                        "%s %s is not supported by the simulator yet (a=0x%08x b=0x%08x c=0x%08x)",
                        name, why, a, b, cv);
          return;
        }
      dst (c, &c->ops[0], lane, d);
    }
}

static gboolean
has_word (Ctx        *c,
          const char *word)
{
  const KsPtxExtra *x = c->in->extra ? &c->m->extras[c->in->extra] : NULL;

  for (uint32_t i = 0; x != NULL && i < x->n_words; i++)
    if (ks_ptx_span_equal (c->m, c->m->words[x->first_word + i], word))
      return TRUE;
  return FALSE;
}

static gboolean
bulk_words_ok (Ctx *c)
{
  const KsPtxExtra *x = c->in->extra ? &c->m->extras[c->in->extra] : NULL;

  for (uint32_t i = 0; x != NULL && i < x->n_words; i++)
    {
      KsPtxSpan w = c->m->words[x->first_word + i];

      if (!ks_ptx_span_equal (c->m, w, "L2::cache_hint") && !ks_ptx_span_equal (c->m, w, "read"))
        return FALSE;
    }
  return TRUE;
}

/* [addr, addr + size) of a bulk copy in space for a lane: 16-byte aligned,
 * size a multiple of 16, and all of it in memory (checked 16 bytes at a
 * time, so a range that runs into another allocation's guard gap faults).
 * A generic shared address is moved into the shared space.  FALSE after a
 * fault. */
static gboolean
bulk_range (Ctx        *c,
            uint32_t    lane,
            KsPtxSpace  space,
            uint64_t   *addr,
            uint32_t    size,
            gboolean    store)
{
  if (space == KS_PTX_SPACE_SHARED && *addr >= KS_SIM_SHARED_WINDOW
      && *addr < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE)
    *addr -= KS_SIM_SHARED_WINDOW;
  if ((*addr & 15) != 0 || size % 16 != 0)
    {
      ks_sim_fault (c->sim, c->w, (int) lane, c->in, KS_SIM_FAULT_MISALIGNED, TRUE, *addr,
                    "bulk copy of %u bytes at 0x%" G_GINT64_MODIFIER "x: the address must be "
                    "16-byte aligned and the size a multiple of 16", size, *addr);
      return FALSE;
    }
  for (uint32_t off = 0; off < size; off += 16)
    if (ks_sim_resolve (c->sim, c->w, (int) lane, c->in, space, *addr + off, 16, store) == NULL)
      return FALSE;
  return TRUE;
}

/* cp.async.bulk and cp.reduce.async.bulk: the copy is done at once, and its
 * complete-tx on the mbarrier too; bulk groups have nothing to wait for.
 *   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 *     [dst], [src], size, [mbar]: global to shared
 *   cp.async.bulk.shared::cluster.shared::cta.mbarrier...: shared to shared
 *   cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
 *   cp.reduce.async.bulk.<same>.op.type: dst = dst op src, element-wise
 * The parser keeps the last state space written, the source's. */
static void
do_cp_bulk (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  gboolean mbar = (in->flags & KS_PTX_FLAG_MBAR_COMPLETE_TX) != 0;
  gboolean reduce = (in->flags & KS_PTX_FLAG_REDUCE) != 0;
  KsPtxSpace src_space = (KsPtxSpace) in->space == KS_PTX_SPACE_GLOBAL ? KS_PTX_SPACE_GLOBAL
                                                                      : KS_PTX_SPACE_SHARED;
  KsPtxSpace dst_space = mbar ? KS_PTX_SPACE_SHARED : KS_PTX_SPACE_GLOBAL;
  KsPtxType t = (KsPtxType) in->types[0];
  uint32_t esize = reduce ? ks_ptx_type_size (t) : 1;
  gboolean locked = FALSE;

  /* cp.async.bulk.prefetch{.tensor}.L2: no effect, as prefetch has none */
  if ((in->flags & (KS_PTX_FLAG_COMMIT_GROUP | KS_PTX_FLAG_WAIT_GROUP)) || has_word (c, "prefetch"))
    return;
  if (!bulk_words_ok (c))
    {
      unsupported (c, ".async.bulk with these qualifiers (of the optional ones, .L2::cache_hint "
                   "and .read are)");
      return;
    }
  if (in->n_operands < 3 || mbar == !!(in->flags & KS_PTX_FLAG_BULK_GROUP)
      || (mbar && in->n_operands < 4) || (!mbar && src_space != KS_PTX_SPACE_SHARED)
      || (in->space != KS_PTX_SPACE_GLOBAL && in->space != KS_PTX_SPACE_SHARED)
      || (reduce && (esize == 0 || esize > 8)))
    {
      unsupported (c, "in this form");
      return;
    }

  /* Other CTAs may run on other threads: global writes that combine with
   * what is there take the atomics' lock */
  if (reduce && dst_space == KS_PTX_SPACE_GLOBAL && c->sim->shared != NULL)
    {
      g_mutex_lock (&c->sim->shared->atomics);
      locked = TRUE;
    }
  LANES (c->exec, lane)
    {
      uint64_t daddr, saddr;
      uint32_t size = (uint32_t) src (c, &c->ops[2], lane, KS_PTX_TYPE_U32);
      uint32_t offset = 0;
      uint8_t *mp = NULL;
      gboolean fp;

      /* Registers hold addresses in the operand's own space, which the
       * instruction gives for the source only */
      address_of (c, &c->ops[0], lane, &daddr, &fp);
      address_of (c, &c->ops[1], lane, &saddr, &fp);
      if (mbar && (mp = mbar_at (c, &c->ops[3], lane, TRUE, &offset)) == NULL)
        break;
      if (!bulk_range (c, lane, dst_space, &daddr, size, TRUE)
          || !bulk_range (c, lane, src_space, &saddr, size, FALSE))
        break;
      for (uint32_t off = 0; off < size; off += 16)
        {
          uint8_t *d = ks_sim_resolve (c->sim, c->w, (int) lane, in, dst_space, daddr + off, 16,
                                       TRUE);
          const uint8_t *s = ks_sim_resolve (c->sim, c->w, (int) lane, in, src_space, saddr + off,
                                             16, FALSE);
          uint8_t chunk[16];

          memcpy (chunk, s, 16);
          if (!reduce)
            {
              memmove (d, chunk, 16);
              continue;
            }
          for (uint32_t e = 0; e < 16; e += esize)
            {
              uint64_t old = 0, b = 0, v;
              gboolean ok;

              memcpy (&old, d + e, esize);
              memcpy (&b, chunk + e, esize);
              v = atomic_op ((KsPtxOp) in->op, t, old, b, 0, &ok);
              if (!ok || in->op == KS_PTX_OP_CAS || in->op == KS_PTX_OP_EXCH)
                {
                  unsupported (c, "with this operation");
                  goto out;
                }
              memcpy (d + e, &v, esize);
            }
        }
      if (mp != NULL)
        {
          uint64_t bits;
          KsMbarrier m;

          memcpy (&bits, mp, 8);
          ks_mbar_unpack (bits, &m);
          if (!mbar_check (c, lane, offset, ks_mbar_complete_tx (&m, size)))
            break;
          mbar_store (c, mp, bits, &m);
        }
    }
out:
  if (locked)
    g_mutex_unlock (&c->sim->shared->atomics);
}

/* cp.async: a sequential simulator can do the copy at once; commit and
 * wait then have nothing left to wait for, except in the race check,
 * where the copy is in flight until the wait that covers it
 * (ks_sim_async_copy). */
static void
do_cp (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  uint32_t size;

  if ((in->flags & KS_PTX_FLAG_ASYNC) && (in->flags & KS_PTX_FLAG_MBARRIER))
    {
      /* cp.async.mbarrier.arrive{.noinc}: the thread's cp.async copies are
       * done already, so the arrive-on happens now.  Without .noinc the
       * pending count is raised by one first, which cancels the arrival:
       * only the mbarrier's validity is checked. */
      if (in->n_operands != 1)
        {
          unsupported (c, "in this form");
          return;
        }
      LANES (c->exec, lane)
        {
          uint32_t offset;
          uint8_t *p = mbar_at (c, &c->ops[0], lane, TRUE, &offset);
          uint64_t bits;
          KsMbarrier m;

          if (p == NULL)
            return;
          /* the copies land before the arrive-on; readers after the
           * phase completes are in a later barrier interval */
          if (c->sim->trace_enabled)
            ks_sim_async_wait (c->sim, c->w, lane, 0, TRUE);
          if (!(in->flags & KS_PTX_FLAG_NOINC))
            continue;
          memcpy (&bits, p, 8);
          ks_mbar_unpack (bits, &m);
          if (!mbar_check (c, lane, offset, ks_mbar_arrive (&m, 1, FALSE, FALSE)))
            return;
          mbar_store (c, p, bits, &m);
        }
      return;
    }
  if ((in->flags & KS_PTX_FLAG_ASYNC) && (in->flags & KS_PTX_FLAG_BULK))
    {
      do_cp_bulk (c);
      return;
    }
  if (!(in->flags & KS_PTX_FLAG_ASYNC) || (in->flags & KS_PTX_FLAG_REDUCE))
    {
      unsupported (c, "(cp.async of 4, 8 or 16 bytes and cp.async.bulk are)");
      return;
    }
  if (in->flags & (KS_PTX_FLAG_COMMIT_GROUP | KS_PTX_FLAG_WAIT_GROUP | KS_PTX_FLAG_WAIT_ALL))
    {
      uint32_t keep = 0;

      if (!c->sim->trace_enabled)
        return;
      if ((in->flags & KS_PTX_FLAG_WAIT_GROUP) && in->n_operands >= 1
          && c->ops[0].kind == KS_PTX_OPERAND_IMM_INT)
        keep = (uint32_t) MIN (ks_ptx_operand_u64 (&c->ops[0]), G_MAXUINT32);
      LANES (c->exec, lane)
        {
          /* wait_all is commit_group and wait_group 0 */
          if (in->flags & (KS_PTX_FLAG_COMMIT_GROUP | KS_PTX_FLAG_WAIT_ALL))
            ks_sim_async_commit (c->sim, c->w, lane);
          if (in->flags & (KS_PTX_FLAG_WAIT_GROUP | KS_PTX_FLAG_WAIT_ALL))
            ks_sim_async_wait (c->sim, c->w, lane, keep, FALSE);
        }
      return;
    }
  if (in->n_operands < 3 || c->ops[2].kind != KS_PTX_OPERAND_IMM_INT)
    {
      unsupported (c, "in this form");
      return;
    }
  size = (uint32_t) ks_ptx_operand_u64 (&c->ops[2]);
  if (size != 4 && size != 8 && size != 16)
    {
      unsupported (c, "with this size");
      return;
    }
  LANES (c->exec, lane)
    {
      uint32_t n = size;
      uint64_t saddr, gaddr;
      uint8_t *dstp;
      const uint8_t *srcp;
      gboolean fp;

      /* src-size: bytes past it are zeros */
      if (in->n_operands > 3 && c->ops[3].kind != KS_PTX_OPERAND_NONE
          && (c->ops[3].kind == KS_PTX_OPERAND_REG || c->ops[3].kind == KS_PTX_OPERAND_IMM_INT))
        n = MIN (size, (uint32_t) src (c, &c->ops[3], lane, KS_PTX_TYPE_U32));
      address_of (c, &c->ops[0], lane, &saddr, &fp);
      address_of (c, &c->ops[1], lane, &gaddr, &fp);
      dstp = ks_sim_resolve (c->sim, c->w, (int) lane, in, KS_PTX_SPACE_SHARED, saddr, size, TRUE);
      if (dstp == NULL)
        return;
      memset (dstp, 0, size);
      if (n > 0)
        {
          /* Both ends must be readable; allocations are further apart than
           * 16 bytes, so the bytes between are in the same one. */
          srcp = ks_sim_resolve (c->sim, c->w, (int) lane, in, KS_PTX_SPACE_GLOBAL, gaddr, 1, FALSE);
          if (srcp == NULL
              || !ks_sim_resolve (c->sim, c->w, (int) lane, in, KS_PTX_SPACE_GLOBAL, gaddr + n - 1, 1,
                                  FALSE))
            return;
          if ((gaddr & (size - 1)) != 0)
            {
              ks_sim_fault (c->sim, c->w, (int) lane, in, KS_SIM_FAULT_MISALIGNED, TRUE, gaddr,
                            "misaligned %u-byte cp.async from 0x%" G_GINT64_MODIFIER "x", size, gaddr);
              return;
            }
          memcpy (dstp, srcp, n);
        }
      if (c->sim->trace_enabled)
        ks_sim_async_copy (c->sim, c->w, lane, c->fn->first_insn + c->pc, saddr, size);
    }
}

/* ---- matrix instructions --------------------------------------------------------------------- */

/* The register rows of a { ... } operand; FALSE unless every element is a
 * register */
static gboolean
vector_rows (Ctx                *c,
             const KsPtxOperand *op,
             uint64_t          **rows,
             guint               want)
{
  if (op->kind != KS_PTX_OPERAND_VECTOR || op->aux != want)
    return FALSE;
  for (guint i = 0; i < want; i++)
    {
      const KsPtxOperand *e = &c->m->operands[op->a + i];

      if (e->kind != KS_PTX_OPERAND_REG)
        return FALSE;
      rows[i] = reg (c, e->a);
    }
  return TRUE;
}

typedef struct
{
  Ctx *c;
  KsPtxSpace space;
  uint32_t lane;
} MatrixMem;

/* Memory for the matrix library, through the simulator's checks: both ends
 * of each row must be valid (rows are at most 32 bytes, and allocations are
 * further apart than that). */
static bool
matrix_mem (uint64_t  addr,
            void     *buf,
            size_t    len,
            bool      is_store,
            void     *user_data)
{
  MatrixMem *mm = user_data;
  Ctx *c = mm->c;
  uint8_t *p = ks_sim_resolve (c->sim, c->w, (int) mm->lane, c->in, mm->space, addr, 1, is_store);

  if (p == NULL || (len > 1 && ks_sim_resolve (c->sim, c->w, (int) mm->lane, c->in, mm->space,
                                               addr + len - 1, 1, is_store) == NULL))
    return FALSE;
  if (is_store)
    memcpy (p, buf, len);
  else
    memcpy (buf, p, len);
  return TRUE;
}

static gboolean
whole_warp (Ctx *c)
{
  if (c->exec == c->w->live && c->exec == KS_FULL_MASK)
    return TRUE;
  ks_sim_fault (c->sim, c->w, c->exec ? __builtin_ctz (c->exec) : 0, c->in, KS_SIM_FAULT_DEADLOCK,
                FALSE, 0, "%s needs all 32 lanes of the warp (.sync.aligned), but only lanes "
                "0x%08x execute it", ks_ptx_opcode_name ((KsPtxOpcode) c->in->opcode), c->exec);
  return FALSE;
}

static void
do_mma (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  const KsPtxExtra *x = in->extra ? &c->m->extras[in->extra] : NULL;
  KsPtxType dt = (KsPtxType) in->types[0], at = (KsPtxType) in->types[1];
  KsPtxType bt = (KsPtxType) in->types[2], ct = (KsPtxType) in->types[3];
  gboolean integer = dt == KS_PTX_TYPE_S32;
  KsMmaShape shape;
  uint64_t *a[8], *b[8], *cc[8], *d[8];
  gboolean ok;

  if (x == NULL || in->n_operands != 4)
    shape = (KsMmaShape) -1;
  else if (x->shape_m == 16 && x->shape_n == 8 && x->shape_k == 32)
    shape = KS_MMA_M16N8K32;
  else if (x->shape_m == 16 && x->shape_n == 8 && x->shape_k == 16)
    shape = KS_MMA_M16N8K16;
  else if (x->shape_m == 16 && x->shape_n == 8 && x->shape_k == 8)
    shape = KS_MMA_M16N8K8;
  else if (x->shape_m == 16 && x->shape_n == 8 && x->shape_k == 4)
    shape = KS_MMA_M16N8K4;
  else if (x->shape_m == 8 && x->shape_n == 8 && x->shape_k == 4 && at == KS_PTX_TYPE_F64)
    shape = KS_MMA_M8N8K4;
  else
    shape = (KsMmaShape) -1;
  if (shape == (KsMmaShape) -1)
    {
      unsupported (c, "with this shape (m16n8k4, m16n8k8, m16n8k16, m16n8k32 and the .f64 "
                   "m8n8k4 are)");
      return;
    }
  /* Every supported form is .row.col; the f64 m8n8k4 is the one that spells
   * them out as a choice, and it too has only .row.col. */
  if ((in->flags & (KS_PTX_FLAG_ROW | KS_PTX_FLAG_COL)) != (KS_PTX_FLAG_ROW | KS_PTX_FLAG_COL))
    {
      unsupported (c, "with these layouts (.row.col is)");
      return;
    }
  if (in->round != KS_PTX_ROUND_NONE && in->round != KS_PTX_ROUND_RN)
    {
      unsupported (c, "with this rounding (.rn is)");
      return;
    }
  if (!whole_warp (c))
    return;
  ok = vector_rows (c, &c->ops[0], d, ks_mma_n_regs (shape, KS_MMA_OPERAND_C, dt))
       && vector_rows (c, &c->ops[1], a, ks_mma_n_regs (shape, KS_MMA_OPERAND_A, at))
       && vector_rows (c, &c->ops[2], b, ks_mma_n_regs (shape, KS_MMA_OPERAND_B, bt))
       && vector_rows (c, &c->ops[3], cc, ks_mma_n_regs (shape, KS_MMA_OPERAND_C, ct));
  if (ok && integer)
    ok = ct == KS_PTX_TYPE_S32
         && ks_mma_sync_int (shape, at, bt, (in->flags & KS_PTX_FLAG_SATFINITE) != 0,
                             (const uint64_t *const *) a, (const uint64_t *const *) b,
                             (const uint64_t *const *) cc, d);
  else if (ok)
    ok = ks_mma_sync (shape, at, bt, ct, dt, (const uint64_t *const *) a,
                      (const uint64_t *const *) b, (const uint64_t *const *) cc, d);
  if (!ok)
    unsupported (c, "with these types or operands");
}

/* The row addresses of ldmatrix/stmatrix, in the shared state space: a
 * generic address must point into shared memory (the ISA leaves any other
 * undefined; here it is a fault).  Only the lanes that give a row are
 * checked.  FALSE after a fault. */
static gboolean
matrix_rows (Ctx      *c,
             guint     num,
             uint64_t  addrs[KS_WARP_SIZE])
{
  const KsPtxInsn *in = c->in;

  if (in->space != KS_PTX_SPACE_NONE && in->space != KS_PTX_SPACE_SHARED)
    {
      unsupported (c, "in this state space (only .shared is)");
      return FALSE;
    }
  for (uint32_t lane = 0; lane < KS_WARP_SIZE; lane++)
    {
      gboolean fp;
      KsPtxSpace space = address_of (c, &c->ops[in->opcode == KS_PTX_OPC_STMATRIX ? 0 : 1], lane,
                                     &addrs[lane], &fp);

      if (lane >= 8 * num || space == KS_PTX_SPACE_SHARED)
        continue;
      if (space == KS_PTX_SPACE_NONE && addrs[lane] >= KS_SIM_SHARED_WINDOW
          && addrs[lane] < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE)
        {
          addrs[lane] -= KS_SIM_SHARED_WINDOW;
          continue;
        }
      ks_sim_fault (c->sim, c->w, (int) lane, in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addrs[lane],
                    "%s row address 0x%" G_GINT64_MODIFIER "x of lane %u is not in shared memory",
                    ks_ptx_opcode_name ((KsPtxOpcode) in->opcode), addrs[lane], lane);
      return FALSE;
    }
  /* Each 16-byte row whole, before anything is read or written, so that a
   * fault says what the instruction would have done */
  for (uint32_t lane = 0; lane < 8 * num; lane++)
    {
      if ((addrs[lane] & 15) != 0)
        {
          ks_sim_fault (c->sim, c->w, (int) lane, in, KS_SIM_FAULT_MISALIGNED, TRUE, addrs[lane],
                        "%s row address 0x%" G_GINT64_MODIFIER "x of lane %u is not 16-byte "
                        "aligned", ks_ptx_opcode_name ((KsPtxOpcode) in->opcode), addrs[lane],
                        lane);
          return FALSE;
        }
      if (ks_sim_resolve (c->sim, c->w, (int) lane, in, KS_PTX_SPACE_SHARED, addrs[lane], 16,
                          in->opcode == KS_PTX_OPC_STMATRIX) == NULL)
        return FALSE;
    }
  return TRUE;
}

/* ldmatrix and stmatrix: .m8n8 .b16 */
static void
do_xmatrix (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  const KsPtxExtra *x = in->extra ? &c->m->extras[in->extra] : NULL;
  gboolean store = in->opcode == KS_PTX_OPC_STMATRIX;
  guint num = in->vec == KS_PTX_VEC_X4 ? 4 : in->vec == KS_PTX_VEC_X2 ? 2 : 1;
  uint64_t *regs[4];
  uint64_t addrs[KS_WARP_SIZE] = { 0 };
  MatrixMem mm = { c, KS_PTX_SPACE_SHARED, 0 };
  guint fault_lane = 0;
  gboolean ok;

  if (!whole_warp (c))
    return;
  if (in->n_operands != 2 || !vector_rows (c, &c->ops[store ? 1 : 0], regs, num)
      || (in->types[0] != KS_PTX_TYPE_B16 && in->types[0] != KS_PTX_TYPE_NONE)
      || (x != NULL && (x->shape_m != 8 || x->shape_n != 8)))
    {
      unsupported (c, "in this form (.m8n8 .b16 with a vector of 1, 2 or 4 registers is)");
      return;
    }
  if (!matrix_rows (c, num, addrs))
    return;
  if (store)
    ok = ks_stmatrix (num, (in->flags & KS_PTX_FLAG_TRANS) != 0, addrs,
                      (const uint64_t *const *) regs, matrix_mem, &mm, &fault_lane);
  else
    ok = ks_ldmatrix (num, (in->flags & KS_PTX_FLAG_TRANS) != 0, addrs, matrix_mem, &mm, regs,
                      &fault_lane);
  /* matrix_mem has faulted already when the memory refused a row */
  if (!ok && c->sim->status == KS_SIM_READY)
    ks_sim_fault (c->sim, c->w, (int) fault_lane, in, KS_SIM_FAULT_MISALIGNED, TRUE,
                  addrs[fault_lane], "%s row address 0x%" G_GINT64_MODIFIER "x of lane %u "
                  "is not 16-byte aligned", ks_ptx_opcode_name ((KsPtxOpcode) in->opcode),
                  addrs[fault_lane], fault_lane);
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a */
static void
do_movmatrix (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  const KsPtxExtra *x = in->extra ? &c->m->extras[in->extra] : NULL;

  if (!whole_warp (c))
    return;
  if (in->n_operands != 2 || c->ops[0].kind != KS_PTX_OPERAND_REG
      || c->ops[1].kind != KS_PTX_OPERAND_REG || !(in->flags & KS_PTX_FLAG_TRANS)
      || in->types[0] != KS_PTX_TYPE_B16 || x == NULL || x->shape_m != 8 || x->shape_n != 8)
    {
      unsupported (c, "in this form (.m8n8.trans.b16 d, a is)");
      return;
    }
  ks_movmatrix (reg (c, c->ops[1].a), reg (c, c->ops[0].a));
}

/* wmma.load/mma/store of the shapes and types nvcc emits for the wmma
 * API (see ks-sim-mma.h).  Which matrix (.a .b .c .d) is a modifier word
 * the parser keeps verbatim. */
static void
do_wmma (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  const KsPtxExtra *x = in->extra ? &c->m->extras[in->extra] : NULL;
  KsWmmaShape shape = x ? ks_wmma_shape (x->shape_m, x->shape_n, x->shape_k) : KS_WMMA_N_SHAPES;
  char which = 0;

  if (shape == KS_WMMA_N_SHAPES)
    {
      unsupported (c, "with this shape (m16n16k16, m32n8k16, m8n32k16, m16n16k8 and m8n8k4 are)");
      return;
    }
  for (uint32_t i = 0; i < x->n_words; i++)
    {
      KsPtxSpan w = c->m->words[x->first_word + i];

      if (w.len == 1)
        which = c->m->text[w.offset];
    }
  if (!whole_warp (c))
    return;

  if (in->flags & KS_PTX_FLAG_MMA)
    {
      /* .dtype.ctype for f16 inputs, .dtype.atype.btype.ctype otherwise */
      gboolean four = in->types[3] != KS_PTX_TYPE_NONE;
      KsPtxType dt = (KsPtxType) in->types[0];
      KsPtxType at = four ? (KsPtxType) in->types[1] : KS_PTX_TYPE_F16;
      KsPtxType bt = four ? (KsPtxType) in->types[2] : KS_PTX_TYPE_F16;
      KsPtxType ct = (KsPtxType) (four ? in->types[3] : in->types[1]);
      gboolean integer = at == KS_PTX_TYPE_S8 || at == KS_PTX_TYPE_U8;
      uint64_t *a[8], *b[8], *cc[8], *d[8];
      gboolean ok;

      ok = in->n_operands == 4 && (at == bt || integer)
           && vector_rows (c, &c->ops[0], d, ks_wmma_n_regs (shape, KS_WMMA_C, dt))
           && vector_rows (c, &c->ops[1], a, ks_wmma_n_regs (shape, KS_WMMA_A, at))
           && vector_rows (c, &c->ops[2], b, ks_wmma_n_regs (shape, KS_WMMA_B, bt))
           && vector_rows (c, &c->ops[3], cc, ks_wmma_n_regs (shape, KS_WMMA_C, ct));
      if (ok && integer)
        ok = dt == KS_PTX_TYPE_S32 && ct == KS_PTX_TYPE_S32
             && ks_wmma_mma_int (shape, at, bt, (in->flags & KS_PTX_FLAG_SATFINITE) != 0,
                                 (const uint64_t *const *) a, (const uint64_t *const *) b,
                                 (const uint64_t *const *) cc, d);
      else if (ok)
        ok = ks_wmma_mma (shape, at, ct, dt, (const uint64_t *const *) a,
                          (const uint64_t *const *) b, (const uint64_t *const *) cc, d);
      if (!ok)
        unsupported (c, "with these types or operands");
      return;
    }

  {
    gboolean load = (in->flags & KS_PTX_FLAG_LOAD) != 0;
    gboolean row = (in->flags & KS_PTX_FLAG_ROW) != 0;
    KsWmmaMatrix m = which == 'a' ? KS_WMMA_A : which == 'b' ? KS_WMMA_B : KS_WMMA_C;
    KsPtxType t = (KsPtxType) in->types[0];
    const KsPtxOperand *regs = &c->ops[load ? 0 : 1];
    const KsPtxOperand *addr_op = &c->ops[load ? 1 : 0];
    uint64_t *rows[8];
    uint64_t addr;
    uint32_t stride = ks_wmma_leading_dim (shape, m, row);
    gboolean fp, ok;
    MatrixMem mm = { c, KS_PTX_SPACE_NONE, 0 };

    if ((!load && !(in->flags & KS_PTX_FLAG_STORE)) || in->n_operands < 2
        || !vector_rows (c, regs, rows, ks_wmma_n_regs (shape, m, t)))
      {
        unsupported (c, "in this form");
        return;
      }
    /* the same address and stride for the whole warp: lane 0's */
    mm.space = address_of (c, addr_op, 0, &addr, &fp);
    if (in->n_operands > 2)
      stride = (uint32_t) src (c, &c->ops[2], 0, KS_PTX_TYPE_U32);
    if (load)
      ok = ks_wmma_load (shape, m, t, row, addr, stride, matrix_mem, &mm, rows);
    else
      ok = ks_wmma_store (shape, t, row, addr, stride, (const uint64_t *const *) rows, matrix_mem, &mm);
    if (!ok && c->sim->status == KS_SIM_READY)
      ks_sim_fault (c->sim, c->w, 0, in, KS_SIM_FAULT_MISALIGNED, TRUE, addr,
                    "wmma matrix at 0x%" G_GINT64_MODIFIER "x is not 32-byte aligned", addr);
  }
}

/* ---- textures and surfaces ------------------------------------------------------------- */

/* The instruction as a reader names it: tex.2d, suld.b.a1d, ... */
static char *
tex_insn_name (const Ctx *c)
{
  const KsTexForm *tf = &c->sim->tex_forms[c->fn->first_insn + c->pc];
  gboolean surf = c->in->opcode == KS_PTX_OPC_SULD || c->in->opcode == KS_PTX_OPC_SUST
                  || c->in->opcode == KS_PTX_OPC_SURED;

  return g_strdup_printf ("%s%s.%s", ks_ptx_opcode_name (c->in->opcode),
                          surf ? (tf->formatted ? ".p" : ".b") : "",
                          ks_tex_geom_name ((KsTexGeom) tf->geom));
}

static void G_GNUC_PRINTF (4, 5)
tex_fault (Ctx            *c,
           uint32_t        lane,
           KsSimFaultKind  kind,
           const char     *fmt,
           ...)
{
  g_autofree char *message = NULL;
  g_autofree char *name = tex_insn_name (c);
  va_list args;

  va_start (args, fmt);
  message = g_strdup_vprintf (fmt, args);
  va_end (args);
  ks_sim_fault (c->sim, c->w, (int) lane, c->in, kind, FALSE, 0, "%s: %s", name, message);
}

/* The array the handle operand @op names for @lane: a register holding a
 * handle, a kernel parameter holding one, or a module .texref/.surfref
 * variable the launch binds.  NULL after a fault. */
static const KsSimArray *
array_of (Ctx                *c,
          const KsPtxOperand *op,
          uint32_t            lane,
          gboolean            surface)
{
  const char *want = surface ? "surface" : "texture";
  const KsLaunch *l = c->sim->launch;
  uint32_t var = KS_PTX_NONE, index, n = surface ? l->n_surfaces : l->n_textures;
  uint64_t h;
  KsTexKind kind;

  if (op->kind == KS_PTX_OPERAND_REG)
    h = reg (c, op->a)[lane];
  else if (op->kind == KS_PTX_OPERAND_ADDRESS && op->aux == KS_PTX_ADDRESS_REG)
    h = reg (c, op->a)[lane] + (uint64_t) ks_ptx_operand_offset (c->m, op);
  else if (op->kind == KS_PTX_OPERAND_VAR
           || (op->kind == KS_PTX_OPERAND_ADDRESS && op->aux == KS_PTX_ADDRESS_VAR))
    {
      const KsPtxVar *v;

      var = op->a;
      v = &c->m->vars[var];
      if (v->space == KS_PTX_SPACE_PARAM)
        {
          if (v->function != c->sim->entry || !(v->flags & KS_PTX_VAR_PARAM))
            {
              unsupported (c, "with a handle in a function's parameter (load it first)");
              return NULL;
            }
          memcpy (&h, c->sim->param_bank + c->sim->var_addr[var], sizeof h);
        }
      else
        {
          h = c->sim->var_handle[var];
          if (h == 0)
            {
              g_autofree char *name = ks_ptx_span_dup (c->m, v->name);

              tex_fault (c, lane, KS_SIM_FAULT_TEXTURE,
                         "%s is not bound to a %s: add \"bindings\": {\"%s\": {\"%s\": NAME}} "
                         "to the launch spec", name, want, name, want);
              return NULL;
            }
        }
    }
  else
    {
      unsupported (c, "with this handle operand");
      return NULL;
    }

  if (!ks_tex_handle_decode (h, &kind, &index))
    {
      tex_fault (c, lane, KS_SIM_FAULT_TEXTURE,
                 "0x%016" G_GINT64_MODIFIER "x is not a %s handle (pass one with "
                 "{\"%s\": NAME} in the launch spec's params)", h, want, want);
      return NULL;
    }
  if ((kind == KS_TEX_SURFACE) != surface)
    {
      gboolean other_ok = index < (surface ? l->n_textures : l->n_surfaces);

      tex_fault (c, lane, KS_SIM_FAULT_TEXTURE, "the handle is %s '%s', not a %s",
                 surface ? "texture" : "surface",
                 other_ok ? (surface ? l->textures : l->surfaces)[index].name : "?", want);
      return NULL;
    }
  if (index >= n)
    {
      tex_fault (c, lane, KS_SIM_FAULT_TEXTURE,
                 "the handle names %s %u, but the launch has %u %s%s", want, index, n, want,
                 n == 1 ? "" : "s");
      return NULL;
    }
  if ((surface ? l->surfaces : l->textures)[index].destroyed)
    {
      tex_fault (c, lane, KS_SIM_FAULT_TEXTURE,
                 "%s '%s' was destroyed, or its memory freed, before the launch", want,
                 (surface ? l->surfaces : l->textures)[index].name);
      return NULL;
    }
  return surface ? &c->sim->surfaces[index] : &c->sim->textures[index];
}

/* Element @i of a coordinate operand: a vector, or a scalar for its first */
static const KsPtxOperand *
coord_elem (const Ctx          *c,
            const KsPtxOperand *v,
            uint32_t            i)
{
  if (v->kind == KS_PTX_OPERAND_VECTOR)
    return i < v->aux ? &c->m->operands[v->a + i] : NULL;
  return i == 0 ? v : NULL;
}

/* The elements a coordinate vector of @geom has: the array index first for
 * layered geometries */
static uint32_t
coord_count (KsTexGeom geom)
{
  switch (geom)
    {
    case KS_TEX_GEOM_1D: return 1;
    case KS_TEX_GEOM_2D: case KS_TEX_GEOM_A1D: return 2;
    case KS_TEX_GEOM_3D: case KS_TEX_GEOM_A2D: case KS_TEX_GEOM_CUBE: return 3;
    case KS_TEX_GEOM_ACUBE: return 4;
    default: return 0;
    }
}

static gboolean
geom_layered (KsTexGeom geom)
{
  return geom == KS_TEX_GEOM_A1D || geom == KS_TEX_GEOM_A2D || geom == KS_TEX_GEOM_ACUBE;
}

/* The common checks of every texture and surface instruction: words it
 * knows, a geometry, and [handle, coordinates] */
static gboolean
tex_form_ok (Ctx                 *c,
             const KsPtxOperand  *list,
             gboolean             query)
{
  const KsTexForm *tf = &c->sim->tex_forms[c->fn->first_insn + c->pc];

  if (tf->bad_word)
    {
      const KsPtxExtra *x = &c->m->extras[c->in->extra];
      g_autofree char *w = ks_ptx_span_dup (c->m, c->m->words[x->first_word + tf->bad_word - 1]);
      g_autofree char *what = g_strdup_printf ("with .%s", w);

      unsupported (c, what);
      return FALSE;
    }
  if (query)
    return TRUE;
  if (tf->geom == KS_TEX_GEOM_NONE)
    {
      unsupported (c, "without a geometry (.1d, .2d, ...)");
      return FALSE;
    }
  if (tf->geom == KS_TEX_GEOM_2DMS || tf->geom == KS_TEX_GEOM_A2DMS)
    {
      unsupported (c, "on multisample textures");
      return FALSE;
    }
  if (list->kind != KS_PTX_OPERAND_LIST || list->aux < 2)
    {
      unsupported (c, "in this form");
      return FALSE;
    }
  return TRUE;
}

/* Reads a lane's coordinates: the array index of layered geometries, then
 * x, y, z as f32 or s32 bits */
static void
read_coords (Ctx                *c,
             const KsPtxOperand *v,
             uint32_t            lane,
             KsTexGeom           geom,
             KsPtxType           ctype,
             KsTexCoords        *tc)
{
  uint32_t first = 0;

  memset (tc, 0, sizeof *tc);
  tc->geom = geom;
  tc->int_coords = ctype == KS_PTX_TYPE_S32;
  if (geom_layered (geom))
    {
      const KsPtxOperand *e = coord_elem (c, v, 0);

      tc->layer = e ? (uint32_t) src (c, e, lane, KS_PTX_TYPE_U32) : 0;
      first = 1;
    }
  for (uint32_t k = 0; k < 3 && first + k < coord_count (geom); k++)
    {
      const KsPtxOperand *e = coord_elem (c, v, first + k);

      tc->c[k] = e ? (uint32_t) src (c, e, lane, ctype) : 0;
    }
}

/* A lane's footprint for the sample of the memory view */
static void
tex_sample_lane (KsTexAccess      *sample,
                 uint32_t          lane,
                 uint32_t          texture,
                 const KsTexFetch *fetch)
{
  KsTexLane *tl = &sample->lane[lane];

  memset (tl, 0, sizeof *tl);
  sample->dims = (uint8_t) MAX (sample->dims, fetch->dims);
  sample->linear |= (uint8_t) fetch->linear;
  tl->n_texels = (uint8_t) fetch->n_corners;
  tl->border = (uint8_t) fetch->border;
  tl->texture = (uint16_t) texture;
  tl->layer = (uint16_t) MIN (fetch->layer, G_MAXUINT16);
  for (uint32_t k = 0; k < 3; k++)
    {
      tl->u[k] = (float) fetch->u[k];
      tl->alpha[k] = (uint16_t) fetch->alpha[k];
      tl->base[k] = (int32_t) CLAMP (fetch->base[k], G_MININT32, G_MAXINT32);
    }
  for (uint32_t t = 0; t < fetch->n_corners; t++)
    for (uint32_t k = 0; k < 3; k++)
      tl->texel[t][k] = (int32_t) CLAMP (fetch->corner[t][k], G_MININT32, G_MAXINT32);
  memcpy (tl->value, fetch->v, sizeof tl->value);
}

/* tex and tld4 */
static void
do_tex (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  const KsTexForm *tf = &c->sim->tex_forms[c->fn->first_insn + c->pc];
  KsTexGeom geom = (KsTexGeom) tf->geom;
  KsPtxType dtype = (KsPtxType) in->types[0], ctype = (KsPtxType) in->types[1];
  const KsPtxOperand *d = &c->ops[0], *list = in->n_operands > 1 ? &c->ops[1] : NULL;
  const KsPtxOperand *coords, *offsets = NULL, *resident = NULL;
  gboolean gather = in->opcode == KS_PTX_OPC_TLD4;
  uint32_t next = 2, n_addrs = 0, texels = 0, texel_size = 0;
  uint64_t addrs[KS_WARP_SIZE * KS_TEX_MAX_TEXELS];
  KsTexAccess sample;

  if (list == NULL || !tex_form_ok (c, list, FALSE))
    return;
  if (dtype != KS_PTX_TYPE_F32 && dtype != KS_PTX_TYPE_S32 && dtype != KS_PTX_TYPE_U32)
    {
      unsupported (c, "with results other than .f32, .s32 or .u32");
      return;
    }
  if (ctype != KS_PTX_TYPE_F32 && ctype != KS_PTX_TYPE_S32)
    {
      unsupported (c, "with coordinates other than .f32 or .s32");
      return;
    }
  if (list->aux != 2)
    {
      unsupported (c, "with a separate sampler (independent texturing mode)");
      return;
    }
  /* d|p: p says the texels are resident in memory, which they always are */
  if (d->kind == KS_PTX_OPERAND_VECTOR && (d->flags & KS_PTX_OPERAND_PIPE) && d->aux == 2)
    {
      resident = &c->m->operands[d->a + 1];
      d = &c->m->operands[d->a];
    }
  if (d->kind != KS_PTX_OPERAND_VECTOR || d->aux != 4)
    {
      unsupported (c, "in this form (results are a .v4 vector)");
      return;
    }
  if (gather && coord_count (geom) == 1)
    {
      unsupported (c, "on this geometry");
      return;
    }
  coords = &c->m->operands[list->a + 1];
  /* The groups the PTX ISA gives; ptxas also takes one register for 2d, 3d
   * and cube and longer groups for 1d and 2d, which it does not document */
  {
    uint32_t have = coords->kind == KS_PTX_OPERAND_VECTOR ? coords->aux : 0;
    uint32_t want = geom == KS_TEX_GEOM_1D ? 1 : geom == KS_TEX_GEOM_2D
                    || geom == KS_TEX_GEOM_A1D ? 2 : 4;

    if (have != want && !(have == 0 && want == 1))
      {
        char what[128];

        if (have == 0)
          g_snprintf (what, sizeof what, "with one register for the coordinates of a .%s "
                      "texture (the PTX ISA's are a group of %u)", ks_tex_geom_name (geom), want);
        else
          g_snprintf (what, sizeof what, "with a group of %u coordinates for a .%s texture "
                      "(the PTX ISA's is a group of %u)", have, ks_tex_geom_name (geom), want);
        unsupported (c, what);
        return;
      }
  }
  /* the level of detail or the gradients: every array has one level, which
   * any level of detail reads (they are clamped to the levels there are) */
  if (tf->lod == KS_TEX_LOD_LEVEL)
    next += 1;
  else if (tf->lod == KS_TEX_LOD_GRAD)
    next += 2;
  if (next < in->n_operands && c->ops[next].kind == KS_PTX_OPERAND_VECTOR)
    offsets = &c->ops[next++];
  if (next < in->n_operands)
    {
      unsupported (c, "with a depth compare operand");
      return;
    }

  sample.geom = (uint8_t) geom;
  sample.dims = 0;
  sample.linear = 0;
  sample.gather = (uint8_t) gather;
  sample.reserved = 0;
  LANES (c->exec, lane)
    {
      const KsSimArray *a = array_of (c, &c->m->operands[list->a], lane, FALSE);
      KsTexObject obj;
      KsTexCoords tc;
      KsTexFetch fetch;
      gboolean ok;

      if (a == NULL)
        return;
      obj.desc = a->desc;
      obj.data = a->data;
      read_coords (c, coords, lane, geom, gather ? KS_PTX_TYPE_F32 : ctype, &tc);
      for (uint32_t k = 0; offsets != NULL && k < 3 && k < offsets->aux; k++)
        {
          int32_t o = (int32_t) src (c, &c->m->operands[offsets->a + k], lane, KS_PTX_TYPE_S32);

          /* the ISA's range: -8 to +7 */
          tc.offset[k] = CLAMP (o, -8, 7);
        }
      ok = gather ? ks_tex_gather (&obj, &tc, tf->comp, &fetch) : ks_tex_sample (&obj, &tc, &fetch);
      if (!ok)
        {
          tex_fault (c, lane, KS_SIM_FAULT_TEXTURE, "texture '%s' is not a cubemap",
                     a->desc->name);
          return;
        }
      for (uint32_t k = 0; k < 4; k++)
        dst (c, &c->m->operands[d->a + k], lane, fetch.v[k]);
      if (resident != NULL)
        dst (c, resident, lane, 1);
      for (uint32_t k = 0; k < fetch.n_texels; k++)
        addrs[n_addrs++] = a->base + fetch.texels[k];
      texels += fetch.n_texels;
      texel_size = a->desc->texel_size;
      if (c->sim->trace_enabled)
        tex_sample_lane (&sample, lane, (uint32_t) (a - c->sim->textures), &fetch);
    }
  if (c->sim->trace_enabled && c->exec != 0)
    ks_sim_record_texture (c->sim, c->w, c->fn->first_insn + c->pc, FALSE, addrs, n_addrs,
                           texel_size, texels, FALSE, c->exec, &sample);
}

/* txq and suq */
static void
do_tex_query (Ctx *c)
{
  const KsTexForm *tf = &c->sim->tex_forms[c->fn->first_insn + c->pc];
  gboolean surface = c->in->opcode == KS_PTX_OPC_SUQ;

  if (!tex_form_ok (c, NULL, TRUE))
    return;
  if (tf->query == KS_TEX_QUERY_NONE || c->in->n_operands < 2)
    {
      unsupported (c, "without a query (.width, .height, ...)");
      return;
    }
  LANES (c->exec, lane)
    {
      const KsSimArray *a = array_of (c, &c->ops[1], lane, surface);
      uint32_t v;

      if (a == NULL)
        return;
      v = ks_tex_query (a->desc, (KsTexQuery) tf->query);
      /* txq.level: sizes of a level; arrays have the one level 0 */
      if (tf->lod == KS_TEX_LOD_LEVEL && c->in->n_operands > 2
          && src (c, &c->ops[2], lane, KS_PTX_TYPE_S32) != 0)
        v = 0;
      dst (c, &c->ops[0], lane, v);
    }
}

/* suld, sust and sured */
static void
do_surface (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  const KsTexForm *tf = &c->sim->tex_forms[c->fn->first_insn + c->pc];
  KsTexGeom geom = (KsTexGeom) tf->geom;
  gboolean load = in->opcode == KS_PTX_OPC_SULD, red = in->opcode == KS_PTX_OPC_SURED;
  const KsPtxOperand *list = &c->ops[load ? 1 : 0], *data = &c->ops[load ? 0 : 1];
  KsPtxType t = (KsPtxType) in->types[0];
  uint32_t esize = ks_ptx_type_size (t), n = red ? 1 : vec_count (in), size = esize * n;
  uint64_t addrs[KS_WARP_SIZE];
  uint32_t n_addrs = 0;
  gboolean locked = FALSE;

  if (in->n_operands < 2 || !tex_form_ok (c, list, FALSE))
    return;
  if (tf->formatted)
    {
      unsupported (c, "in its formatted form (.p)");
      return;
    }
  if (geom == KS_TEX_GEOM_CUBE || geom == KS_TEX_GEOM_ACUBE || esize == 0 || esize > 8)
    {
      unsupported (c, "in this form");
      return;
    }
  if (red && (in->op == KS_PTX_OP_NONE || esize < 4))
    {
      unsupported (c, "with this operation");
      return;
    }
  if (red && c->sim->shared != NULL)
    {
      /* other CTAs may run on other threads, as for global atomics */
      g_mutex_lock (&c->sim->shared->atomics);
      locked = TRUE;
    }

  LANES (c->exec, lane)
    {
      const KsSimArray *a = array_of (c, &c->m->operands[list->a], lane, TRUE);
      const KsPtxOperand *coords = &c->m->operands[list->a + 1];
      int32_t xyz[3] = { 0, 0, 0 };
      uint32_t layer = 0, first = 0;
      uint64_t off;
      KsSurfResult r;

      if (a == NULL)
        break;
      if (size != a->desc->texel_size)
        {
          g_autofree char *fmt = g_strdup_printf ("%s%s", ks_ptx_type_name (a->desc->format),
                                                  a->desc->channels == 1 ? "" :
                                                  a->desc->channels == 2 ? " x 2" : " x 4");

          tex_fault (c, lane, KS_SIM_FAULT_TEXTURE,
                     "moves %u bytes a lane, but surface '%s' has %u-byte elements (%s): "
                     "the vector and element types must make one element",
                     size, a->desc->name, a->desc->texel_size, fmt);
          break;
        }
      if (geom_layered (geom))
        {
          const KsPtxOperand *e = coord_elem (c, coords, 0);

          layer = e ? (uint32_t) src (c, e, lane, KS_PTX_TYPE_U32) : 0;
          first = 1;
        }
      for (uint32_t k = 0; k < 3 && first + k < coord_count (geom); k++)
        {
          const KsPtxOperand *e = coord_elem (c, coords, first + k);

          xyz[k] = e ? (int32_t) src (c, e, lane, KS_PTX_TYPE_S32) : 0;
        }
      r = ks_surf_address (a->desc, geom, xyz, layer, size, (KsSurfClamp) tf->clamp, &off);
      if (r == KS_SURF_MISALIGNED)
        {
          ks_sim_fault (c->sim, c->w, (int) lane, in, KS_SIM_FAULT_MISALIGNED, FALSE, 0,
                        "%s: x = %d bytes is not a multiple of the %u-byte access "
                        "(surface '%s')", ks_ptx_opcode_name (in->opcode), xyz[0], size,
                        a->desc->name);
          break;
        }
      if (r == KS_SURF_OUT_OF_RANGE)
        {
          if (tf->clamp == KS_SURF_TRAP)
            {
              g_autofree char *where = g_strdup_printf ("x = %d bytes, y = %d, z = %d, layer %u",
                                                        xyz[0], xyz[1], xyz[2], layer);

              tex_fault (c, lane, KS_SIM_FAULT_OUT_OF_BOUNDS,
                         "%s is outside surface '%s' (%u x %u x %u elements of %u bytes, "
                         "%u layers) with .trap", where, a->desc->name, a->desc->width,
                         a->desc->height, a->desc->depth, a->desc->texel_size, a->desc->layers);
              break;
            }
          /* .zero: reads give zeros, writes are dropped */
          if (load)
            for (uint32_t i = 0; i < n; i++)
              dst (c, coord_elem (c, data, i) ? coord_elem (c, data, i) : data, lane, 0);
          continue;
        }

      if (load)
        for (uint32_t i = 0; i < n; i++)
          {
            const KsPtxOperand *to = coord_elem (c, data, i);
            uint64_t v = 0;

            memcpy (&v, a->data + off + (size_t) i * esize, esize);
            if (to != NULL)
              dst (c, to, lane, v);
          }
      else if (!red)
        for (uint32_t i = 0; i < n; i++)
          {
            const KsPtxOperand *from = coord_elem (c, data, i);
            uint64_t v = from ? src (c, from, lane, t) : 0;

            memcpy (a->data + off + (size_t) i * esize, &v, esize);
          }
      else
        {
          uint64_t old = 0, nv;
          gboolean ok;

          memcpy (&old, a->data + off, esize);
          nv = atomic_op ((KsPtxOp) in->op, t, old, src (c, data, lane, t), 0, &ok);
          if (!ok)
            {
              unsupported (c, "with this operation");
              break;
            }
          memcpy (a->data + off, &nv, esize);
        }
      addrs[n_addrs++] = a->base + off;
    }
  if (locked)
    g_mutex_unlock (&c->sim->shared->atomics);
  if (c->sim->status == KS_SIM_READY && c->sim->trace_enabled && n_addrs > 0)
    ks_sim_record_texture (c->sim, c->w, c->fn->first_insn + c->pc, TRUE, addrs, n_addrs, size,
                           n_addrs, !load, 0, NULL);
}

/* alloca, stacksave, stackrestore: the warp's local stack is one for all
 * its lanes (each lane has its own bytes at the same offsets), so alloca
 * reserves the largest size the executing lanes ask for and gives each
 * the same local address; stackrestore takes the lowest lane's saved
 * pointer, which the ISA has come from stacksave. */
static void
do_stack (Ctx *c)
{
  const KsPtxInsn *in = c->in;
  KsSimWarp *w = c->w;
  KsPtxType t = (KsPtxType) in->types[0];

  if (c->exec == 0)
    return;
  if (in->opcode == KS_PTX_OPC_STACKSAVE)
    {
      LANES (c->exec, lane)
        dst (c, &c->ops[0], lane, w->local_top);
      return;
    }
  if (in->opcode == KS_PTX_OPC_STACKRESTORE)
    {
      uint64_t top = src (c, &c->ops[0], (uint32_t) __builtin_ctz (c->exec), t);

      if (top < c->f->local_base || top > w->local_top)
        {
          ks_sim_fault (c->sim, w, __builtin_ctz (c->exec), in, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, top,
                        "stackrestore to 0x%" G_GINT64_MODIFIER "x, which no stacksave of this "
                        "function returned", top);
          return;
        }
      w->local_top = (uint32_t) top;
      return;
    }
  {
    uint64_t size = 0, align = 8;
    uint32_t base;

    if (in->n_operands > 2)
      align = src (c, &c->ops[2], 0, KS_PTX_TYPE_U32);
    LANES (c->exec, lane)
      size = MAX (size, src (c, &c->ops[1], lane, t));
    if (align == 0 || (align & (align - 1)) != 0 || align > 1024)
      {
        unsupported (c, "with an alignment that is not a power of two up to 1024");
        return;
      }
    base = (uint32_t) ((w->local_top + align - 1) & ~(align - 1));
    if (size > KS_SIM_LOCAL_LIMIT || !ks_sim_grow_local (w, base, (uint32_t) size))
      {
        ks_sim_fault (c->sim, w, __builtin_ctz (c->exec), in, KS_SIM_FAULT_STACK_OVERFLOW, FALSE, 0,
                      "alloca of %" G_GUINT64_FORMAT " bytes overflows the stack (%u bytes of local "
                      "memory per thread)", size, KS_SIM_LOCAL_LIMIT);
        return;
      }
    LANES (c->exec, lane)
      dst (c, &c->ops[0], lane, base);
  }
}

/* ---- dispatch ------------------------------------------------------------------------------ */

/* One warp-instruction through the general executor */
static void
general_step (KsSim     *sim,
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
  ks_sim_count_step (sim, w, c->fn->first_insn + c->pc, c->exec, ks_popcount32 (c->active));
  if (ks_sim_spin_writes (in->opcode))
    ks_sim_note_write (sim);

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
        else if (s->kind == KS_PTX_OPERAND_VECTOR)
          {
            /* mov.v4.u16 {a, b, c, d}, {c, d, a, b}: every element is read
             * before any is written */
            uint64_t v[8];

            if (d->aux != s->aux || d->aux > G_N_ELEMENTS (v)
                || (in->vec != KS_PTX_VEC_NONE && (1u << in->vec) != d->aux))
              {
                unsupported (c, "between vectors of different lengths");
                break;
              }
            LANES (c->exec, lane)
              {
                for (uint32_t i = 0; i < s->aux; i++)
                  v[i] = src (c, &c->m->operands[s->a + i], lane, t) & type_mask (t);
                for (uint32_t i = 0; i < d->aux; i++)
                  dst (c, &c->m->operands[d->a + i], lane, v[i]);
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

    case KS_PTX_OPC_TESTP:
      if (!float_op (c))
        unsupported (c, "for this type");
      break;

    case KS_PTX_OPC_AND: case KS_PTX_OPC_OR: case KS_PTX_OPC_XOR: case KS_PTX_OPC_NOT:
    case KS_PTX_OPC_CNOT: case KS_PTX_OPC_SHL: case KS_PTX_OPC_SHR: case KS_PTX_OPC_POPC:
    case KS_PTX_OPC_CLZ: case KS_PTX_OPC_BREV: case KS_PTX_OPC_BFIND: case KS_PTX_OPC_BFE:
    case KS_PTX_OPC_BFI: case KS_PTX_OPC_FNS: case KS_PTX_OPC_PRMT: case KS_PTX_OPC_LOP3:
    case KS_PTX_OPC_SHF: case KS_PTX_OPC_DP4A: case KS_PTX_OPC_DP2A: case KS_PTX_OPC_SZEXT:
    case KS_PTX_OPC_BMSK: case KS_PTX_OPC_ADDC: case KS_PTX_OPC_SUBC: case KS_PTX_OPC_MADC:
    case KS_PTX_OPC_MUL24: case KS_PTX_OPC_MAD24: case KS_PTX_OPC_SAD:
      int_op (c);
      break;

    case KS_PTX_OPC_SETP:
      do_setp (c);
      break;

    case KS_PTX_OPC_SET:
      do_set (c);
      break;

    case KS_PTX_OPC_SLCT:
      {
        KsPtxType t = (KsPtxType) in->types[0], ct = (KsPtxType) in->types[1];

        LANES (c->exec, lane)
          {
            uint64_t cv = src (c, &c->ops[3], lane, ct);
            gboolean take_a;

            if (ct == KS_PTX_TYPE_F32)
              {
                uint32_t bits = (uint32_t) cv;

                if ((in->flags & KS_PTX_FLAG_FTZ) && ks_f32_is_subnormal (bits))
                  bits &= 0x80000000u;
                take_a = ks_f32_from_bits (bits) >= 0.0f;
              }
            else
              take_a = (int32_t) cv >= 0;
            dst (c, &c->ops[0], lane, take_a ? src (c, &c->ops[1], lane, t) : src (c, &c->ops[2], lane, t));
          }
      }
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
             in_space (c->sim, (KsPtxSpace) in->space, src (c, &c->ops[1], lane, KS_PTX_TYPE_U64)));
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
        if (pushed > 1)
          {
            sim->insn_stats[c->fn->first_insn + c->pc].divergent++;
            sim->stats.divergent_branches++;
            flag_event (sim, KS_TRACE_DIVERGE);
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
        {
          if (sim->coop_workspace != 0 && !sim->launch->cooperative)
            ks_sim_fault (sim, w, __builtin_ctz (c->exec), in, KS_SIM_FAULT_TRAP, FALSE, 0,
                          "the kernel executed trap. It reads %%envreg, where cooperative "
                          "groups find grid.sync()'s workspace, and a launch that is not "
                          "cooperative has none: launch it with cudaLaunchCooperativeKernel "
                          "(\"cooperative\": true in a launch spec)");
          else
            ks_sim_fault (sim, w, __builtin_ctz (c->exec), in, KS_SIM_FAULT_TRAP, FALSE, 0,
                          "the kernel executed trap");
        }
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

    case KS_PTX_OPC_CP:
      do_cp (c);
      break;

    case KS_PTX_OPC_MBARRIER:
      do_mbarrier (c);
      break;

    case KS_PTX_OPC_MMA:
      do_mma (c);
      break;

    case KS_PTX_OPC_LDMATRIX:
    case KS_PTX_OPC_STMATRIX:
      do_xmatrix (c);
      break;

    case KS_PTX_OPC_WMMA:
      do_wmma (c);
      break;

    case KS_PTX_OPC_MOVMATRIX:
      do_movmatrix (c);
      break;

    case KS_PTX_OPC_VADD: case KS_PTX_OPC_VSUB: case KS_PTX_OPC_VABSDIFF:
    case KS_PTX_OPC_VMIN: case KS_PTX_OPC_VMAX: case KS_PTX_OPC_VSHL: case KS_PTX_OPC_VSHR:
    case KS_PTX_OPC_VMAD: case KS_PTX_OPC_VSET:
    case KS_PTX_OPC_VADD2: case KS_PTX_OPC_VSUB2: case KS_PTX_OPC_VAVRG2:
    case KS_PTX_OPC_VABSDIFF2: case KS_PTX_OPC_VMIN2: case KS_PTX_OPC_VMAX2: case KS_PTX_OPC_VSET2:
    case KS_PTX_OPC_VADD4: case KS_PTX_OPC_VSUB4: case KS_PTX_OPC_VAVRG4:
    case KS_PTX_OPC_VABSDIFF4: case KS_PTX_OPC_VMIN4: case KS_PTX_OPC_VMAX4: case KS_PTX_OPC_VSET4:
      do_video (c);
      break;

    case KS_PTX_OPC_MEMBAR:
    case KS_PTX_OPC_FENCE:
      /* Every access is done when its instruction is, in program order:
       * fences have nothing to order */
      break;

    case KS_PTX_OPC_ALLOCA:
    case KS_PTX_OPC_STACKSAVE:
    case KS_PTX_OPC_STACKRESTORE:
      do_stack (c);
      break;

    case KS_PTX_OPC_CREATEPOLICY:
      /* An opaque cache policy for .L2::cache_hint operands, which the
       * simulator accepts and ignores: any 64-bit value will do */
      LANES (c->exec, lane)
        dst (c, &c->ops[0], lane, G_GUINT64_CONSTANT (0x1000000000000000));
      break;

    case KS_PTX_OPC_APPLYPRIORITY:
    case KS_PTX_OPC_DISCARD:
      /* Cache hints over a 128-byte line of global memory, which must be
       * valid and aligned; discard may leave the line's bytes as they were
       * (the ISA makes them indeterminate) */
      LANES (c->exec, lane)
        {
          uint64_t addr;
          gboolean fp;
          KsPtxSpace space = address_of (c, &c->ops[0], lane, &addr, &fp);

          if (ks_sim_resolve (sim, w, (int) lane, in, space, addr, 128, FALSE) == NULL)
            break;
        }
      break;

    case KS_PTX_OPC_GRIDDEPCONTROL:
      /* Programmatic dependent launch: the simulator runs one grid, which
       * has no prerequisite grid to wait for and no dependent to release */
    case KS_PTX_OPC_SETMAXNREG:
      /* a register budget for the warp's next instructions: no effect on
       * what a simulator without a register file limit computes */
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

    case KS_PTX_OPC_ELECT:
      do_elect (c);
      break;

    case KS_PTX_OPC_MAPA:
    case KS_PTX_OPC_GETCTARANK:
      do_cluster_map (c);
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

    case KS_PTX_OPC_TEX:
    case KS_PTX_OPC_TLD4:
      do_tex (c);
      break;

    case KS_PTX_OPC_TXQ:
    case KS_PTX_OPC_SUQ:
      do_tex_query (c);
      break;

    case KS_PTX_OPC_SULD:
    case KS_PTX_OPC_SUST:
    case KS_PTX_OPC_SURED:
      do_surface (c);
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
}

uint32_t
ks_sim_steps (KsSim     *sim,
              KsSimWarp *w,
              uint32_t   max)
{
  if (!sim->no_fast)
    {
      uint32_t n = ks_sim_fast_run (sim, w, max);

      if (n > 0)
        {
          const KsSimtEntry *top = &w->simt[w->n_simt - 1];

          if (sim->status == KS_SIM_READY && top->pc == top->rpc)
            {
              Ctx c;

              memset (&c, 0, sizeof c);
              c.sim = sim;
              c.w = w;
              c.m = sim->module;
              settle (&c);
            }
          return n;
        }
    }
  general_step (sim, w);
  return 1;
}

void
ks_sim_step (KsSim     *sim,
             KsSimWarp *w)
{
  ks_sim_steps (sim, w, 1);
}
