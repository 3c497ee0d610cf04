/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-timing.c: the cycle model of one SM (docs/TIMING.md says what it
 * assumes and where each figure comes from). */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-timing.h"
#include "ks-lower.h"
#include "ks-sass-loops.h"

/* Figures of the model that no table gives per architecture; estimates,
 * listed in docs/TIMING.md */
#define MIO_QUEUE_CYCLES      16        /* backlog of the shared-memory unit before MIO throttle */
#define LG_QUEUE_CYCLES       32        /* backlog of L1TEX before LG throttle */
#define BARRIER_LATENCY       20        /* last arrival to the release of a CTA barrier */
#define MAX_MODEL_EVENTS      (4u << 20)        /* warp-instructions replayed before extrapolating */
#define BOUND_FRACTION        0.6       /* a floor this close to the estimate names the bound */
/* ptxas's schedule of a loop (docs/TIMING.md, "Loads issued ahead"): it
 * unrolls a loop about four times and issues the loads of the copies, with
 * their address arithmetic, ahead of the arithmetic that waits on them, in
 * registers of their own */
#define HOIST_ITERATIONS      4         /* loop iterations a load is issued ahead across */
#define HOIST_WINDOW          256       /* warp-instructions looked at ahead of a waiting one */
#define HOIST_REGISTERS       32        /* registers in flight for instructions issued ahead */
#define NEVER                 G_MAXUINT32
#define SASS_EVENT            (G_GUINT64_CONSTANT (1) << 63)    /* Warp.event_idx: into Model.sev */
#define SASS_READ_CYCLES      2         /* a read barrier clears this long after the operands'
                                         * unit takes them (an estimate) */
#define SASS_MAX_VARIANTS     4         /* SASS loops that run one PTX loop */

typedef enum
{
  RESULT_FIXED = 0,             /* ALU: the dependent waits ("wait") */
  RESULT_SHORT,                 /* MIO: shared memory, MUFU, shuffles, S2R */
  RESULT_LONG,                  /* L1TEX: global and local memory */
} ResultKind;

typedef enum
{
  MEM_NONE = 0,
  MEM_SHARED,
  MEM_GLOBAL,                   /* global, local, generic: through L1TEX */
} MemKind;

/* What look_ahead may do with an instruction */
typedef enum
{
  AHEAD_PASS = 0,               /* pass it */
  AHEAD_ISSUE,                  /* issue it ahead (a load, integer arithmetic) */
  AHEAD_BRANCH,                 /* pass it when it is a loop's back edge */
  AHEAD_STOP,                   /* never pass it */
} Ahead;

/* What the model needs to know of a PTX instruction, computed once */
typedef struct
{
  uint8_t ready;                /* computed */
  uint8_t pipe;                 /* KsPipe */
  uint8_t result;               /* ResultKind */
  uint8_t mem;                  /* MemKind */
  uint8_t is_branch;
  uint8_t flops_per_lane;       /* FP32/FP64/half operations per lane (FMA = 2) */
  uint8_t fp64;
  uint8_t n_defs, n_uses;
  uint8_t ahead;                /* Ahead: what the look-ahead may do with it */
  uint16_t latency;             /* fixed part of the result latency */
  float issue;                  /* cycles the pipe stays busy */
  uint32_t tensor_flops;        /* per warp-instruction */
  uint32_t first_ref;           /* into Model.refs: defs then uses, as model slots */
  /* A SASS instruction (Model.info past the module's): its control code */
  uint8_t sass;
  uint8_t stall;                /* cycles before the warp's next instruction */
  uint8_t wait_mask;            /* scoreboards it waits on */
  uint8_t write_barrier, read_barrier;  /* scoreboards it sets, KS_SASS_NO_BARRIER for none */
  int8_t sass_mem;              /* the kind of memory record it takes (SASS_MEM_*) */
  uint8_t sass_bar;             /* a BAR: it takes a barrier of the iterations */
  uint8_t sass_pred;            /* it has a guard predicate: its lanes may all be off */
  uint32_t ptx;                 /* the PTX instruction the timeline shows for it */
} InsnInfo;

/* A register an instruction issued ahead wrote: the instructions before it
 * (trace event index below `before`) still read the value it had */
typedef struct
{
  uint64_t before;
  uint32_t slot;
  uint32_t ready;
  uint8_t kind;
} Renamed;

typedef struct
{
  uint32_t trace_warp;
  uint32_t cta_slot;
  uint32_t sp;
  uint32_t slot;
  uint64_t *event_idx;          /* trace event indices of the warp, in order */
  KsTraceMemory *mem_rec;       /* beside each: its memory record (of an event with
                                 * KS_TRACE_MEMORY) */
  uint64_t n, next;             /* events, and the next to issue */
  uint64_t out;                 /* where its next KsTimingEvent goes */
  uint32_t earliest;            /* in-order issue: previous issue + 1, or a branch's resolution */
  uint8_t earliest_reason;      /* KS_STALL_* when earliest binds */
  uint8_t at_barrier;
  uint8_t done;
  uint8_t resident;
  uint32_t barrier_release;
  uint32_t stall_start;         /* the cycle after its last issue */
  uint32_t first_eligible;      /* NEVER until it could have issued */
  uint32_t pending_ready;       /* warp_ready () at the current cycle */
  uint8_t pending;              /* its KsStallReason at the current cycle */
  uint64_t gap[KS_N_STALLS];    /* cycles of the current gap by reason */
  uint32_t *reg_ready;          /* per model slot */
  uint8_t *reg_kind;            /* ResultKind of the last writer */
  /* Issue ahead (HOIST_*): the instruction warp_ready found ready ahead of
   * the waiting one (events from `next`; 0: `next` itself), no look again
   * before hoist_retry, and the values an instruction issued ahead replaced
   * that the instructions it passed still read */
  uint32_t cand;
  uint32_t hoist_retry;
  uint32_t *written;            /* per model slot: the look-ahead that saw it written */
  uint32_t n_renamed;
  Renamed renamed[HOIST_REGISTERS];
  /* SASS instructions: when each scoreboard clears, and what set it */
  uint32_t sb_ready[KS_SASS_NO_BARRIER];
  uint8_t sb_kind[KS_SASS_NO_BARRIER];
  /* Between the PTX's code and a SASS loop the warp waits for what the
   * other side has in flight (the registers do not carry over): when the
   * last result of each side is there, and the kind of the one that is */
  uint8_t last_sass;            /* its last issued instruction was SASS */
  uint8_t ptx_kind, sass_kind;
  uint32_t ptx_done, sass_done;
} Warp;

typedef struct
{
  uint32_t cta;                 /* CTA linear index */
  uint32_t first_warp;          /* into Model.warps */
  uint32_t arrived;
  uint32_t live;
  uint32_t last_arrival;
  gboolean active;
} CtaSlot;

typedef struct
{
  const KsPtxModule *m;
  const KsArchInfo *arch;
  const KsTraceEvent *ev;
  const KsTraceMemory *mem;
  uint64_t n_mem;
  const KsLowering *lw;         /* NULL: every PTX instruction issues */
  InsnInfo *info;
  GArray *refs;                 /* uint32_t model slots */
  uint32_t *fn_base;            /* per function: its first model slot, NEVER when unused */
  uint32_t *insn_fn;            /* per instruction: its function */
  uint32_t n_slots;
  double pipe_free[8][KS_N_PIPES];      /* per sub-partition */
  double smem_free, l1_free, dram_free;
  double dram_cycles_per_sector;
  uint32_t tensor_fma_per_cycle;        /* per sub-partition, f16 */
  uint32_t look_ahead;          /* look-aheads so far (Warp.written) */
  gboolean hoist;               /* issue loads ahead (HOIST_*) */
  uint32_t n_module;            /* the module's instructions: info past them is SASS's */
  GArray *sev;                  /* KsTraceEvent: the SASS events (SASS_EVENT) */
  uint32_t sass_first;          /* the SASS function's first instruction (listing index) */
} Model;

/* The trace event (or SASS event) at a warp's event index */
static inline const KsTraceEvent *
ev_at (const Model *mo,
       uint64_t     idx)
{
  return G_UNLIKELY (idx & SASS_EVENT)
         ? &g_array_index (mo->sev, KsTraceEvent, idx & ~SASS_EVENT) : &mo->ev[idx];
}

static const char *const pipe_names[KS_N_PIPES] = {
  [KS_PIPE_INT] = "INT", [KS_PIPE_FP32] = "FP32", [KS_PIPE_FP64] = "FP64",
  [KS_PIPE_SFU] = "SFU", [KS_PIPE_MEM] = "MEM", [KS_PIPE_CTRL] = "CTRL",
  [KS_PIPE_SHFL] = "SHFL", [KS_PIPE_TENSOR] = "TENSOR",
};

static const char *const stall_names[KS_N_STALLS] = {
  [KS_STALL_SELECTED] = "selected",
  [KS_STALL_LONG_SCOREBOARD] = "long_scoreboard",
  [KS_STALL_SHORT_SCOREBOARD] = "short_scoreboard",
  [KS_STALL_WAIT] = "wait",
  [KS_STALL_MATH_PIPE_THROTTLE] = "math_pipe_throttle",
  [KS_STALL_MIO_THROTTLE] = "mio_throttle",
  [KS_STALL_LG_THROTTLE] = "lg_throttle",
  [KS_STALL_BARRIER] = "barrier",
  [KS_STALL_BRANCH_RESOLVING] = "branch_resolving",
  [KS_STALL_NOT_SELECTED] = "not_selected",
  [KS_STALL_NO_INSTRUCTION] = "no_instruction",
};

const char *
ks_pipe_name (KsPipe pipe)
{
  return pipe < KS_N_PIPES ? pipe_names[pipe] : "";
}

const char *
ks_stall_reason_name (KsStallReason reason)
{
  return reason < KS_N_STALLS ? stall_names[reason] : "";
}

const char *
ks_bound_name (KsBound bound)
{
  switch (bound)
    {
    case KS_BOUND_MEMORY:
      return "memory";
    case KS_BOUND_COMPUTE:
      return "compute";
    case KS_BOUND_LATENCY:
    default:
      return "latency";
    }
}

void
ks_timing_options_init (KsTimingOptions *options)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->policy = KS_SCHEDULER_GTO;
}

void
ks_timing_free (KsTiming *t)
{
  if (t == NULL)
    return;
  g_free (t->warps);
  g_free (t->events);
  g_free (t->sass_reason);
  g_free (t->sass_stretch_reason);
  g_free (t);
}

static gboolean
has_type (const KsPtxInsn *in,
          KsPtxType        t)
{
  for (guint i = 0; i < 4; i++)
    if (in->types[i] == t)
      return TRUE;
  return FALSE;
}

static gboolean
any_float (const KsPtxInsn *in)
{
  for (guint i = 0; i < 4; i++)
    if (ks_ptx_type_is_float (in->types[i]))
      return TRUE;
  return FALSE;
}

static gboolean
reads_sreg_s2r (const KsPtxModule *m,
                const KsPtxInsn   *in)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

  for (uint32_t i = 0; i < in->n_operands; i++)
    if (ops[i].kind == KS_PTX_OPERAND_SREG)
      switch (ops[i].a)
        {
        /* %ntid, %nctaid and friends are constants; these come from S2R */
        case KS_PTX_SREG_TID:
        case KS_PTX_SREG_CTAID:
        case KS_PTX_SREG_LANEID:
        case KS_PTX_SREG_WARPID:
        case KS_PTX_SREG_SMID:
        case KS_PTX_SREG_GRIDID:
        case KS_PTX_SREG_CLUSTER_CTAID:
        case KS_PTX_SREG_CLUSTER_CTARANK:
          return TRUE;
        default:
          break;
        }
  return FALSE;
}

KsPipe
ks_timing_insn_pipe (const KsPtxModule *m,
                     const KsPtxInsn   *in)
{
  gboolean f64 = has_type (in, KS_PTX_TYPE_F64);

  switch (in->opcode)
    {
    case KS_PTX_OPC_LD:
    case KS_PTX_OPC_LDU:
    case KS_PTX_OPC_ST:
    case KS_PTX_OPC_ATOM:
    case KS_PTX_OPC_RED:
    case KS_PTX_OPC_CP:
    case KS_PTX_OPC_LDMATRIX:
    case KS_PTX_OPC_STMATRIX:
    case KS_PTX_OPC_PREFETCH:
    case KS_PTX_OPC_PREFETCHU:
    case KS_PTX_OPC_TEX:
    case KS_PTX_OPC_TLD4:
    case KS_PTX_OPC_SULD:
    case KS_PTX_OPC_SUST:
    case KS_PTX_OPC_SURED:
    case KS_PTX_OPC_MBARRIER:
    case KS_PTX_OPC_MULTIMEM:
      /* kernel parameters and constants are operands of SASS instructions */
      if ((in->opcode == KS_PTX_OPC_LD) && (in->space == KS_PTX_SPACE_PARAM
                                            || in->space == KS_PTX_SPACE_CONST))
        return KS_PIPE_INT;
      return KS_PIPE_MEM;
    case KS_PTX_OPC_BRA:
    case KS_PTX_OPC_BRX:
    case KS_PTX_OPC_CALL:
    case KS_PTX_OPC_RET:
    case KS_PTX_OPC_EXIT:
    case KS_PTX_OPC_BAR:
    case KS_PTX_OPC_BARRIER:
    case KS_PTX_OPC_MEMBAR:
    case KS_PTX_OPC_FENCE:
    case KS_PTX_OPC_NANOSLEEP:
    case KS_PTX_OPC_TRAP:
    case KS_PTX_OPC_BRKPT:
    case KS_PTX_OPC_GRIDDEPCONTROL:
      return KS_PIPE_CTRL;
    case KS_PTX_OPC_SHFL:
    case KS_PTX_OPC_VOTE:
    case KS_PTX_OPC_MATCH:
    case KS_PTX_OPC_REDUX:
      return KS_PIPE_SHFL;
    case KS_PTX_OPC_MMA:
    case KS_PTX_OPC_WMMA:
    case KS_PTX_OPC_WGMMA:
    case KS_PTX_OPC_TCGEN05:
      /* wmma.load/store move fragments through the LSU */
      if (in->opcode == KS_PTX_OPC_WMMA && (in->flags & (KS_PTX_FLAG_LOAD | KS_PTX_FLAG_STORE)))
        return KS_PIPE_MEM;
      return KS_PIPE_TENSOR;
    case KS_PTX_OPC_RCP:
    case KS_PTX_OPC_SQRT:
    case KS_PTX_OPC_RSQRT:
    case KS_PTX_OPC_SIN:
    case KS_PTX_OPC_COS:
    case KS_PTX_OPC_LG2:
    case KS_PTX_OPC_EX2:
    case KS_PTX_OPC_TANH:
      return f64 ? KS_PIPE_FP64 : KS_PIPE_SFU;
    case KS_PTX_OPC_DIV:
      return f64 ? KS_PIPE_FP64 : any_float (in) ? KS_PIPE_SFU : KS_PIPE_INT;
    case KS_PTX_OPC_CVT:
      {
        gboolean f0 = ks_ptx_type_is_float (in->types[0]), f1 = ks_ptx_type_is_float (in->types[1]);

        if (f64 && f0 && f1)
          return KS_PIPE_FP64;
        if (f0 != f1)
          return f64 ? KS_PIPE_FP64 : KS_PIPE_SFU;   /* I2F, F2I */
        return f0 ? KS_PIPE_FP32 : KS_PIPE_INT;
      }
    case KS_PTX_OPC_MOV:
      return reads_sreg_s2r (m, in) ? KS_PIPE_SFU : KS_PIPE_INT;
    default:
      break;
    }
  if (f64)
    return KS_PIPE_FP64;
  if (any_float (in) && in->opcode != KS_PTX_OPC_SELP && in->opcode != KS_PTX_OPC_MOV)
    return KS_PIPE_FP32;
  return KS_PIPE_INT;
}

/* Tensor FMAs a sub-partition does per cycle for f16 inputs; estimates from
 * the dense FP16 tensor TFLOPS of the whitepapers (docs/TIMING.md) */
static uint32_t
tensor_rate (const KsArchInfo *arch)
{
  uint32_t cc = arch->compute_major * 10 + arch->compute_minor;

  if (cc >= 100 && cc < 110)
    return 1024;
  if (cc == 90)
    return 512;
  if (cc == 80)
    return 256;
  return 128;
}

static uint32_t
model_slot (Model           *mo,
            uint32_t         insn,
            uint32_t         ref)
{
  uint32_t f = mo->insn_fn[insn];
  const KsPtxFunction *fn = &mo->m->functions[f];
  uint32_t base = mo->fn_base[f];

  if (ref & KS_PTX_REF_PRED)
    {
      uint32_t p = ref & ~KS_PTX_REF_PRED;

      return p < fn->n_pred_slots ? base + fn->n_reg_slots + p : NEVER;
    }
  return ref < fn->n_reg_slots ? base + ref : NEVER;
}

static Ahead ahead_class (const Model *mo, uint32_t insn, const InsnInfo *ii);

/* What an instruction of a pipe costs (result kind, latency, issue
 * interval), before what is particular to it; mem: where a KS_PIPE_MEM
 * one goes (MEM_NONE: a constant load, through the MIO) */
static void
pipe_costs (InsnInfo         *ii,
            const KsArchInfo *a,
            KsPipe            pipe,
            MemKind           mem)
{
  KsLatencyClass k = KS_LATENCY_IADD3;

  ii->result = RESULT_FIXED;
  switch (pipe)
    {
    case KS_PIPE_FP32:
      k = KS_LATENCY_FFMA;
      break;
    case KS_PIPE_FP64:
      k = KS_LATENCY_DFMA;
      break;
    case KS_PIPE_SFU:
      k = KS_LATENCY_MUFU;
      ii->result = RESULT_SHORT;
      break;
    case KS_PIPE_MEM:
      ii->mem = (uint8_t) mem;
      ii->result = mem == MEM_GLOBAL ? RESULT_LONG : RESULT_SHORT;
      k = mem == MEM_GLOBAL ? KS_LATENCY_L1_HIT : KS_LATENCY_LDS;
      break;
    case KS_PIPE_SHFL:
      /* 32 shuffle results a clock per SM on every architecture (CUDA C++
       * Programming Guide, "Arithmetic Instructions"): a warp's shuffle
       * takes its sub-partition as many cycles as the SM has partitions.
       * Its latency is taken as a shared-memory load's (an estimate). */
      ii->result = RESULT_SHORT;
      k = KS_LATENCY_LDS;
      break;
    default:
      break;
    }
  ii->latency = (uint16_t) a->latencies[k].latency;
  ii->issue = (float) a->latencies[k].issue;
  if (pipe == KS_PIPE_SHFL)
    ii->issue = (float) MAX (a->sub_partitions, 1u);
  else if (pipe == KS_PIPE_CTRL || pipe == KS_N_PIPES)
    ii->issue = 1;
}


static const InsnInfo *
insn_info (Model   *mo,
           uint32_t insn)
{
  InsnInfo *ii = &mo->info[insn];
  const KsPtxInsn *in = &mo->m->insns[insn];
  const KsArchInfo *a = mo->arch;
  KsPtxRegRefs refs;

  if (ii->ready)
    return ii;
  ii->ready = 1;
  ii->pipe = (uint8_t) ks_timing_insn_pipe (mo->m, in);
  pipe_costs (ii, a, (KsPipe) ii->pipe,
              in->space == KS_PTX_SPACE_SHARED || in->space == KS_PTX_SPACE_SHARED_CLUSTER
              || in->opcode == KS_PTX_OPC_LDMATRIX || in->opcode == KS_PTX_OPC_STMATRIX
              || in->opcode == KS_PTX_OPC_MBARRIER ? MEM_SHARED : MEM_GLOBAL);

  switch (ii->pipe)
    {
    case KS_PIPE_INT:
      if (in->opcode == KS_PTX_OPC_MUL || in->opcode == KS_PTX_OPC_MAD
          || in->opcode == KS_PTX_OPC_MUL24 || in->opcode == KS_PTX_OPC_MAD24
          || in->opcode == KS_PTX_OPC_MADC || in->opcode == KS_PTX_OPC_DP4A
          || in->opcode == KS_PTX_OPC_DP2A || in->opcode == KS_PTX_OPC_SAD)
        {
          ii->latency = (uint16_t) a->latencies[KS_LATENCY_IMAD].latency;
          ii->issue = (float) a->latencies[KS_LATENCY_IMAD].issue;
        }
      else if (in->opcode == KS_PTX_OPC_DIV || in->opcode == KS_PTX_OPC_REM)
        {
          /* ptxas expands an integer division into about 20 instructions
           * around a MUFU.RCP; count it as such */
          ii->latency = (uint16_t) (a->latencies[KS_LATENCY_MUFU].latency
                                    + 8 * a->latencies[KS_LATENCY_IMAD].latency);
          ii->issue = (float) (16 * a->latencies[KS_LATENCY_IMAD].issue);
        }
      break;
    case KS_PIPE_FP64:
      ii->fp64 = 1;
      if (in->opcode == KS_PTX_OPC_DIV || in->opcode == KS_PTX_OPC_SQRT
          || in->opcode == KS_PTX_OPC_RCP || in->opcode == KS_PTX_OPC_RSQRT)
        {
          /* a Newton-Raphson sequence of about 8 DFMAs */
          ii->latency = (uint16_t) MIN (8u * ii->latency, 4000u);
          ii->issue *= 8;
        }
      break;
    case KS_PIPE_SFU:
      if (in->opcode == KS_PTX_OPC_DIV && !(in->flags & KS_PTX_FLAG_APPROX))
        {
          /* div.full / div.rn: MUFU.RCP and FFMA refinement */
          ii->latency = (uint16_t) (ii->latency + 4 * a->latencies[KS_LATENCY_FFMA].latency);
        }
      if (in->opcode == KS_PTX_OPC_MOV)
        {
          /* S2R: through the MIO like a shared-memory access */
          ii->latency = (uint16_t) a->latencies[KS_LATENCY_LDS].latency;
          ii->issue = 1;
        }
      break;
    case KS_PIPE_TENSOR:
      {
        const KsPtxExtra *x = in->extra ? &mo->m->extras[in->extra] : NULL;
        uint32_t mm = x && x->shape_m ? x->shape_m : 16, nn = x && x->shape_n ? x->shape_n : 8;
        uint32_t kk = x && x->shape_k ? x->shape_k : 16;
        double fma = (double) mm * nn * kk, rate = mo->tensor_fma_per_cycle;

        if (has_type (in, KS_PTX_TYPE_TF32))
          rate /= 2;
        else if (has_type (in, KS_PTX_TYPE_F64))
          rate /= 16;
        else if (has_type (in, KS_PTX_TYPE_S8) || has_type (in, KS_PTX_TYPE_U8)
                 || has_type (in, KS_PTX_TYPE_E4M3) || has_type (in, KS_PTX_TYPE_E5M2))
          rate *= 2;
        ii->issue = (float) MAX (1.0, fma / MAX (rate, 1.0));
        ii->latency = (uint16_t) MAX (16.0, ii->issue + 2 * a->latencies[KS_LATENCY_FFMA].latency
                                      + a->latencies[KS_LATENCY_LDS].latency);
        ii->tensor_flops = (uint32_t) MIN (2 * fma, (double) G_MAXUINT32);
      }
      break;
    case KS_PIPE_CTRL:
    default:
      ii->is_branch = in->opcode == KS_PTX_OPC_BRA || in->opcode == KS_PTX_OPC_BRX
                      || in->opcode == KS_PTX_OPC_CALL || in->opcode == KS_PTX_OPC_RET;
      break;
    }

  /* flops per lane, as Nsight Compute counts them: FMA = 2 */
  if (ii->pipe == KS_PIPE_FP32 || (ii->pipe == KS_PIPE_FP64 && in->opcode != KS_PTX_OPC_CVT))
    {
      uint8_t per = 1;

      if (in->opcode == KS_PTX_OPC_FMA || in->opcode == KS_PTX_OPC_MAD)
        per = 2;
      if (has_type (in, KS_PTX_TYPE_F16X2) || has_type (in, KS_PTX_TYPE_BF16X2))
        per *= 2;
      switch (in->opcode)
        {
        case KS_PTX_OPC_ADD:
        case KS_PTX_OPC_SUB:
        case KS_PTX_OPC_MUL:
        case KS_PTX_OPC_FMA:
        case KS_PTX_OPC_MAD:
        case KS_PTX_OPC_DIV:
        case KS_PTX_OPC_SQRT:
        case KS_PTX_OPC_RCP:
        case KS_PTX_OPC_RSQRT:
          ii->flops_per_lane = per;
          break;
        default:
          break;
        }
    }

  ks_ptx_insn_reg_refs (mo->m, in, &refs);
  ii->first_ref = mo->refs->len;
  for (uint32_t i = 0; i < refs.n_defs; i++)
    {
      uint32_t s = model_slot (mo, insn, refs.defs[i]);

      if (s != NEVER)
        {
          g_array_append_val (mo->refs, s);
          ii->n_defs++;
        }
    }
  for (uint32_t i = 0; i < refs.n_uses; i++)
    {
      uint32_t s = model_slot (mo, insn, refs.uses[i]);

      if (s != NEVER)
        {
          g_array_append_val (mo->refs, s);
          ii->n_uses++;
        }
    }
  ii->ahead = (uint8_t) ahead_class (mo, insn, ii);
  return ii;
}

/* insn_info, the computed case inline: the replay's hot path */
static inline const InsnInfo *
info_of (Model   *mo,
         uint32_t insn)
{
  return G_LIKELY (mo->info[insn].ready) ? &mo->info[insn] : insn_info (mo, insn);
}

static KsStallReason
dependency_reason (ResultKind k)
{
  switch (k)
    {
    case RESULT_LONG:
      return KS_STALL_LONG_SCOREBOARD;
    case RESULT_SHORT:
      return KS_STALL_SHORT_SCOREBOARD;
    case RESULT_FIXED:
    default:
      return KS_STALL_WAIT;
    }
}

/* When the value of model slot s that trace event idx reads is ready: the
 * register's, or the one it had before an instruction issued ahead of idx
 * replaced it */
static inline uint32_t
slot_ready (const Warp *w,
            uint32_t    s,
            uint64_t    idx,
            uint8_t    *kind)
{
  uint32_t ready = w->reg_ready[s];
  uint64_t first = G_MAXUINT64;

  *kind = w->reg_kind[s];
  for (uint32_t i = 0; i < w->n_renamed; i++)
    {
      const Renamed *r = &w->renamed[i];

      if (r->slot == s && idx < r->before && r->before < first)
        {
          first = r->before;
          ready = r->ready;
          *kind = r->kind;
        }
    }
  return ready;
}

/* When the SM's units take an instruction like ii from sub-partition sp,
 * from `cycle` on; `cycle` when they can now */
static uint32_t
unit_ready (const Model    *mo,
            const InsnInfo *ii,
            uint32_t        sp,
            uint32_t        cycle,
            KsStallReason  *reason)
{
  double pipe = mo->pipe_free[sp][ii->pipe];

  if (pipe > cycle)
    {
      *reason = ii->pipe == KS_PIPE_MEM ? (ii->mem == MEM_SHARED ? KS_STALL_MIO_THROTTLE
                                           : KS_STALL_LG_THROTTLE)
                : ii->pipe == KS_PIPE_SHFL || ii->pipe == KS_PIPE_SFU ? KS_STALL_MIO_THROTTLE
                : KS_STALL_MATH_PIPE_THROTTLE;
      return (uint32_t) ceil (pipe);
    }
  if (ii->mem == MEM_SHARED && mo->smem_free > cycle + MIO_QUEUE_CYCLES)
    {
      *reason = KS_STALL_MIO_THROTTLE;
      return (uint32_t) ceil (mo->smem_free - MIO_QUEUE_CYCLES);
    }
  if (ii->mem == MEM_GLOBAL && mo->l1_free > cycle + LG_QUEUE_CYCLES)
    {
      *reason = KS_STALL_LG_THROTTLE;
      return (uint32_t) ceil (mo->l1_free - LG_QUEUE_CYCLES);
    }
  return cycle;
}

/* A load ptxas may move: a plain weak load, not a texture, surface or
 * volatile one */
static gboolean
is_plain_load (const KsPtxInsn *in)
{
  return (in->opcode == KS_PTX_OPC_LD || in->opcode == KS_PTX_OPC_LDU)
         && (in->sem == KS_PTX_SEM_NONE || in->sem == KS_PTX_SEM_WEAK)
         && !(in->flags & KS_PTX_FLAG_MMIO);
}

static gboolean
reads_clock (const KsPtxModule *m,
             const KsPtxInsn   *in)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

  for (guint i = 0; i < in->n_operands; i++)
    if (ops[i].kind == KS_PTX_OPERAND_SREG && ks_ptx_sreg_is_timer ((KsPtxSreg) ops[i].a))
      return TRUE;
  return FALSE;
}

/* What the look-ahead may do with an instruction.  Issue it before the
 * waiting one, as ptxas's schedule would put it: a load, or integer
 * arithmetic (a load's address), that issues an instruction of its own.
 * Pass it: anything but a store, an atomic, a barrier, a fence, a call, a
 * timer read (what is timed stays after it) or a branch other than a
 * loop's back edge. */
static Ahead
ahead_class (const Model    *mo,
             uint32_t        insn,
             const InsnInfo *ii)
{
  const KsPtxInsn *in = &mo->m->insns[insn];
  gboolean issues = mo->lw == NULL || (mo->lw->insns[insn].kind == KS_LOWER_ISSUE
                                       && mo->lw->insns[insn].width <= 1);

  if (issues && ii->n_defs > 0 && !ii->is_branch
      && ((ii->pipe == KS_PIPE_MEM && is_plain_load (in)) || ii->pipe == KS_PIPE_INT))
    return AHEAD_ISSUE;
  if (ii->pipe == KS_PIPE_MEM)
    return is_plain_load (in) ? AHEAD_PASS : AHEAD_STOP;
  if (in->opcode == KS_PTX_OPC_MOV && reads_clock (mo->m, in))
    return AHEAD_STOP;
  if (ii->pipe != KS_PIPE_CTRL)
    return AHEAD_PASS;
  return in->opcode == KS_PTX_OPC_BRA ? AHEAD_BRANCH : AHEAD_STOP;
}

/* The look-ahead: an instruction after w's waiting one that ptxas would
 * have issued before it (a load of a later iteration, say) and that can
 * issue at `cycle`.  Sets w->cand and returns `cycle` when there is one;
 * else the first cycle one might, or NEVER. */
static uint32_t
look_ahead (Model   *mo,
            Warp    *w,
            uint32_t cycle)
{
  uint32_t head_exec = ev_at (mo, w->event_idx[w->next])->exec;
  uint32_t retry = NEVER, iterations = 0, stamp;
  uint64_t end = MIN (w->n, w->next + HOIST_WINDOW);

  if (cycle < w->hoist_retry)
    return w->hoist_retry;
  stamp = ++mo->look_ahead;
  for (uint64_t p = w->next; p < end; p++)
    {
      uint64_t idx = w->event_idx[p];
      const KsTraceEvent *e = ev_at (mo, idx);
      const InsnInfo *ii = info_of (mo, e->insn);
      const uint32_t *refs = &g_array_index (mo->refs, uint32_t, ii->first_ref);

      if (e->exec != head_exec
          || (e->flags & (KS_TRACE_BARRIER | KS_TRACE_EXIT | KS_TRACE_DIVERGE
                          | KS_TRACE_RECONVERGE | KS_TRACE_RELEASE)))
        break;
      if (ii->ahead == AHEAD_ISSUE && p > w->next)
        {
          /* it reads nothing the instructions it passes write, and
           * writes nothing they write (a register of its own for what
           * they read) */
          gboolean blocked = w->n_renamed + ii->n_defs > HOIST_REGISTERS;
          uint32_t ready = w->earliest;

          for (uint32_t i = 0; i < ii->n_defs + ii->n_uses && !blocked; i++)
            if (w->written[refs[i]] == stamp)
              blocked = TRUE;
          for (uint32_t i = 0; i < ii->n_uses && !blocked; i++)
            {
              uint8_t kind;

              ready = MAX (ready, slot_ready (w, refs[ii->n_defs + i], idx, &kind));
            }
          if (!blocked)
            {
              if (ready <= cycle)
                {
                  KsStallReason why;

                  ready = unit_ready (mo, ii, w->sp, cycle, &why);
                }
              if (ready <= cycle)
                {
                  w->cand = (uint32_t) (p - w->next);
                  return cycle;
                }
              retry = MIN (retry, ready);
            }
        }
      else if (ii->ahead == AHEAD_STOP)
        break;
      else if (ii->ahead == AHEAD_BRANCH)
        {
          /* a back edge (the next instruction is at or before it): one
           * more iteration of the loop */
          if (p + 1 >= w->n || ev_at (mo, w->event_idx[p + 1])->insn > e->insn
              || ++iterations >= HOIST_ITERATIONS)
            break;
        }
      for (uint32_t i = 0; i < ii->n_defs; i++)
        w->written[refs[i]] = stamp;
    }
  w->hoist_retry = retry;
  return retry;
}

/* When warp w could issue its next instruction, given what the SM is doing
 * at `cycle`, and what holds it until then */
static uint32_t
warp_ready (Model         *mo,
            Warp          *w,
            uint32_t       cycle,
            KsStallReason *reason)
{
  const KsTraceEvent *e;
  const InsnInfo *ii;
  const uint32_t *refs;
  uint32_t ready = w->earliest, unit;
  uint64_t idx;
  gboolean dependency = FALSE;

  w->cand = 0;
  if (w->at_barrier)
    {
      if (w->barrier_release > cycle)
        {
          *reason = KS_STALL_BARRIER;
          return w->barrier_release;
        }
      w->at_barrier = 0;
      if (w->barrier_release > w->earliest)
        {
          w->earliest = w->barrier_release;
          w->earliest_reason = KS_STALL_BARRIER;
        }
      ready = w->earliest;
    }
  *reason = (KsStallReason) w->earliest_reason;
  idx = w->event_idx[w->next];
  e = ev_at (mo, idx);
  ii = info_of (mo, e->insn);
  /* into or out of a SASS loop: what the other side has in flight */
  if (ii->sass != w->last_sass)
    {
      uint32_t done = ii->sass ? w->ptx_done : w->sass_done;

      if (done > ready)
        {
          ready = done;
          *reason = dependency_reason ((ResultKind) (ii->sass ? w->ptx_kind : w->sass_kind));
          dependency = TRUE;
        }
    }
  if (ii->sass)
    {
      /* the scoreboards its control code waits on; its stall count is in
       * w->earliest */
      for (guint b = 0; b < KS_SASS_NO_BARRIER; b++)
        if (((ii->wait_mask >> b) & 1) && w->sb_ready[b] > ready)
          {
            ready = w->sb_ready[b];
            *reason = dependency_reason ((ResultKind) w->sb_kind[b]);
          }
      if (ready > cycle)
        return ready;
      unit = unit_ready (mo, ii, w->sp, cycle, reason);
      return unit > cycle ? unit : ready;
    }
  refs = &g_array_index (mo->refs, uint32_t, ii->first_ref);
  for (uint32_t i = 0; i < ii->n_uses; i++)
    {
      uint8_t kind;
      uint32_t r = slot_ready (w, refs[ii->n_defs + i], idx, &kind);

      if (r > ready)
        {
          ready = r;
          *reason = dependency_reason ((ResultKind) kind);
          dependency = TRUE;
        }
    }
  /* a write after a pending write waits for it too */
  for (uint32_t i = 0; i < ii->n_defs; i++)
    {
      uint8_t kind;
      uint32_t r = slot_ready (w, refs[i], idx, &kind);

      if (r > ready && kind != RESULT_FIXED)
        {
          ready = r;
          *reason = dependency_reason ((ResultKind) kind);
          dependency = TRUE;
        }
    }
  if (ready > cycle)
    {
      /* ptxas would have put other work of the warp before this wait */
      if (dependency && mo->hoist)
        return MIN (ready, look_ahead (mo, w, cycle));
      return ready;
    }
  unit = unit_ready (mo, ii, w->sp, cycle, reason);
  return unit > cycle ? unit : ready;
}

/* w's stream has moved on: forget the renamed values no instruction left
 * reads, and look ahead again */
static void
head_moved (Warp *w)
{
  uint64_t head = w->next < w->n ? w->event_idx[w->next] : G_MAXUINT64;
  uint32_t kept = 0;

  w->hoist_retry = 0;
  for (uint32_t i = 0; i < w->n_renamed; i++)
    if (w->renamed[i].before > head)
      w->renamed[kept++] = w->renamed[i];
  w->n_renamed = kept;
}

/* Puts the instruction look_ahead found at the head of w's stream, the
 * values it replaces kept for the instructions it passes */
static void
bring_ahead (Model    *mo,
             KsTiming *t,
             Warp     *w)
{
  uint64_t p = w->next + w->cand, idx = w->event_idx[p];
  KsTraceMemory rec = w->mem_rec[p];
  const InsnInfo *ii = info_of (mo, ev_at (mo, idx)->insn);
  const uint32_t *refs = &g_array_index (mo->refs, uint32_t, ii->first_ref);

  for (uint32_t i = 0; i < ii->n_defs && w->n_renamed < HOIST_REGISTERS; i++)
    {
      gboolean read = FALSE;
      Renamed *r;

      /* a register of its own only where an instruction it passes reads
       * the value it replaces */
      for (uint64_t q = w->next; q < p && !read; q++)
        {
          const InsnInfo *qi = info_of (mo, ev_at (mo, w->event_idx[q])->insn);
          const uint32_t *qrefs = &g_array_index (mo->refs, uint32_t, qi->first_ref);

          for (uint32_t u = 0; u < qi->n_uses && !read; u++)
            read = qrefs[qi->n_defs + u] == refs[i];
        }
      if (!read)
        continue;
      r = &w->renamed[w->n_renamed++];
      r->before = idx;
      r->slot = refs[i];
      r->ready = w->reg_ready[refs[i]];
      r->kind = w->reg_kind[refs[i]];
    }
  memmove (w->event_idx + w->next + 1, w->event_idx + w->next, w->cand * sizeof *w->event_idx);
  memmove (w->mem_rec + w->next + 1, w->mem_rec + w->next, w->cand * sizeof *w->mem_rec);
  w->event_idx[w->next] = idx;
  w->mem_rec[w->next] = rec;
  w->cand = 0;
  t->issued_ahead++;
}

/* Takes the instructions at the head of w's stream that issue nothing
 * (ks-lower.h): a folded one's results are ready when its sources are, a
 * part of a vector load's when its leader's are.  Returns TRUE when that
 * leaves w without instructions. */
static gboolean
absorb_lowered (Model    *mo,
                KsTiming *t,
                Warp     *w,
                uint32_t  cycle)
{
  while (mo->lw != NULL && w->next < w->n)
    {
      const KsTraceEvent *e = ev_at (mo, w->event_idx[w->next]);
      const KsLowerInsn *li;
      const InsnInfo *ii;
      const uint32_t *refs;
      KsTimingEvent *te;
      uint32_t ready = 0;
      uint8_t kind = RESULT_FIXED;

      if (e->insn >= mo->n_module)
        return FALSE;           /* SASS: it issues */
      li = &mo->lw->insns[e->insn];
      if (li->kind == KS_LOWER_ISSUE || (e->flags & KS_TRACE_BARRIER))
        return FALSE;
      ii = info_of (mo, e->insn);
      refs = &g_array_index (mo->refs, uint32_t, ii->first_ref);
      if (li->kind == KS_LOWER_FOLDED)
        for (uint32_t i = 0; i < ii->n_uses; i++)
          {
            uint8_t k;
            uint32_t r = slot_ready (w, refs[ii->n_defs + i], w->event_idx[w->next], &k);

            if (r > ready)
              {
                ready = r;
                kind = k;
              }
          }
      else if (li->leader < e->insn)
        {
          /* a load's part: its registers arrive with the leader's */
          const InsnInfo *lead = info_of (mo, li->leader);

          if (lead->n_defs > 0)
            ready = slot_ready (w, g_array_index (mo->refs, uint32_t, lead->first_ref),
                                w->event_idx[w->next], &kind);
        }
      for (uint32_t i = 0; i < ii->n_defs; i++)
        {
          w->reg_ready[refs[i]] = ready;
          w->reg_kind[refs[i]] = kind;
        }

      te = &t->events[w->out++];
      memset (te, 0, sizeof *te);
      te->cycle = MIN (w->stall_start, cycle);
      te->stall_start = te->ready = te->cycle;
      te->insn = e->insn;
      te->active_lanes = (uint16_t) __builtin_popcount (e->exec);
      te->pipe = ii->pipe;
      te->stall = KS_STALL_SELECTED;
      te->flags = (uint8_t) e->flags;
      te->lowered = li->kind;
      t->lowered++;
      w->next++;
      head_moved (w);
    }
  return w->next >= w->n;
}

/* ---- Loops timed from the SASS (docs/TIMING.md) ----
 *
 * Where the kernel's SASS is at hand, each PTX loop that SASS loops run
 * (ks-sass-loops.h) is timed as those loops' instructions: a warp's
 * iterations of the PTX loop, as the trace has them, become iterations of
 * the SASS loop that runs `unroll` of them at a time (the largest first:
 * ptxas's unrolled loop, then its copy for the rest).  Each SASS
 * instruction issues by its control code: its stall count before the
 * warp's next one, the scoreboards it waits on and those it sets; its pipe
 * and the memory it touched (the records of the PTX iterations it stands
 * for, in order per kind) as for a PTX instruction.
 *
 * The code between them (a warp's stretch from its entry, or from the end
 * of such a loop, to the next such loop or its exit) is timed as the path
 * through the SASS that did the stretch's work: of the paths from where
 * the warp is to where it goes next that enter no loop, the one whose
 * global and shared loads and stores and barriers are those of the
 * stretch's PTX (exactly, else as kinds), then whose CUDA lines are
 * closest to the stretch's.  A stretch no one path fits (divergent
 * branches run both sides; a loop or a call timed from the PTX) is timed
 * from the PTX. */

typedef struct
{
  uint32_t first, n;            /* the SASS loop's instructions: listing indices */
  uint32_t unroll;              /* PTX iterations one of its iterations runs */
} SassVariant;

typedef struct
{
  uint32_t loop;                /* the PTX loop */
  uint32_t header;              /* module index of its header's first instruction */
  uint32_t n_variants;
  SassVariant variants[SASS_MAX_VARIANTS];      /* the largest unroll first */
} SassRegion;

typedef struct
{
  const KsSassListing *l;
  const KsSassFunction *fn;
  guint sm;
  KsLoopSet *sass, *ptx;
  GArray *regions;              /* SassRegion */
  uint32_t *region_of;          /* per module instruction of the kernel: its region, or NEVER */
  uint32_t fn_first, fn_n;
  /* Stretches: NULL when they stay the PTX's (stretch_why says why) */
  uint8_t *ptx_in_loop;         /* per PTX instruction of the kernel */
  uint32_t *sass_loop_of;       /* per SASS instruction of the function: its loop or
                                 * KS_LOOP_NONE */
  const char *stretch_why;
} SassPlan;

enum
{
  SASS_MEM_NONE = -1,
  SASS_MEM_SHARED_LOAD = 0,
  SASS_MEM_SHARED_STORE,
  SASS_MEM_GLOBAL_LOAD,
  SASS_MEM_GLOBAL_STORE,
  SASS_MEM_TEXTURE,             /* a texture fetch */
  SASS_MEM_SURFACE,             /* a surface load, store or reduction */
  SASS_N_MEM
};

/* The kind of memory record a SASS instruction stands for */
static int
sass_mem_class (const char *op)
{
  if (op == NULL)
    return SASS_MEM_NONE;
  if (strcmp (op, "LDS") == 0 || strcmp (op, "LDSM") == 0)
    return SASS_MEM_SHARED_LOAD;
  if (strcmp (op, "STS") == 0 || strcmp (op, "ATOMS") == 0)
    return SASS_MEM_SHARED_STORE;
  if (strcmp (op, "LDG") == 0 || strcmp (op, "LD") == 0)
    return SASS_MEM_GLOBAL_LOAD;
  if (strcmp (op, "STG") == 0 || strcmp (op, "ST") == 0 || strcmp (op, "ATOMG") == 0
      || strcmp (op, "ATOM") == 0 || strcmp (op, "RED") == 0 || strcmp (op, "REDG") == 0)
    return SASS_MEM_GLOBAL_STORE;
  if (strcmp (op, "TEX") == 0 || strcmp (op, "TLD") == 0 || strcmp (op, "TLD4") == 0
      || strcmp (op, "TXD") == 0 || strcmp (op, "TEXS") == 0 || strcmp (op, "TLDS") == 0
      || strcmp (op, "TLD4S") == 0)
    return SASS_MEM_TEXTURE;
  if (strcmp (op, "SULD") == 0 || strcmp (op, "SUST") == 0 || strcmp (op, "SURED") == 0
      || strcmp (op, "SUATOM") == 0)
    return SASS_MEM_SURFACE;
  return SASS_MEM_NONE;
}

static int
record_class (const KsTraceMemory *r)
{
  if (r->kind == KS_TRACE_MEM_SHARED)
    return r->store ? SASS_MEM_SHARED_STORE : SASS_MEM_SHARED_LOAD;
  if (r->kind == KS_TRACE_MEM_GLOBAL)
    return r->store ? SASS_MEM_GLOBAL_STORE : SASS_MEM_GLOBAL_LOAD;
  return r->kind == KS_TRACE_MEM_TEXTURE ? SASS_MEM_TEXTURE : SASS_MEM_SURFACE;
}

/* What the model needs of SASS instruction `insn` (a listing index) */
static void
sass_info (Model          *mo,
           const SassPlan *plan,
           uint32_t        insn,
           uint32_t        ptx)
{
  const KsSassInsn *in = &plan->l->insns[insn];
  InsnInfo *ii = &mo->info[mo->n_module + (insn - plan->fn->first_insn)];
  const KsArchInfo *a = mo->arch;
  const char *op = ks_sass_insn_opcode (plan->sm, in);
  int mc;

  if (op == NULL)
    op = "";
  mc = sass_mem_class (op);
  ii->ready = 1;
  ii->sass = 1;
  ii->ahead = AHEAD_STOP;
  ii->ptx = ptx;
  ii->first_ref = 0;
  ii->pipe = (uint8_t) ks_sass_insn_pipe (plan->sm, in);
  ii->sass_mem = (int8_t) mc;
  ii->sass_bar = strcmp (op, "BAR") == 0;
  ii->sass_pred = (plan->sass->flow[insn - plan->fn->first_insn] & KS_SASS_FLOW_PREDICATED) != 0;
  /* a constant load (LDC) goes through the MIO and has no record */
  pipe_costs (ii, a, (KsPipe) ii->pipe,
              mc == SASS_MEM_SHARED_LOAD || mc == SASS_MEM_SHARED_STORE ? MEM_SHARED
              : mc != SASS_MEM_NONE || strcmp (op, "LDL") == 0 || strcmp (op, "STL") == 0
              ? MEM_GLOBAL : MEM_NONE);
  if (ii->pipe == KS_PIPE_INT && (g_str_has_prefix (op, "IMAD") || g_str_has_prefix (op, "IDP")))
    {
      ii->latency = (uint16_t) a->latencies[KS_LATENCY_IMAD].latency;
      ii->issue = (float) a->latencies[KS_LATENCY_IMAD].issue;
    }
  ii->stall = in->control.stall;
  ii->wait_mask = in->control.wait_mask;
  ii->write_barrier = in->control.write_barrier;
  ii->read_barrier = in->control.read_barrier;
}

static void
sass_plan_free (SassPlan *plan)
{
  if (plan == NULL)
    return;
  ks_loop_set_free (plan->sass);
  ks_loop_set_free (plan->ptx);
  if (plan->regions != NULL)
    g_array_unref (plan->regions);
  g_free (plan->region_of);
  g_free (plan->ptx_in_loop);
  g_free (plan->sass_loop_of);
  g_free (plan);
}

/* Why SASS loop s cannot be timed as a straight run of its instructions,
 * or NULL */
static const char *
sass_loop_unfit (const SassPlan *plan,
                 uint32_t        k)
{
  const KsLoop *s = &plan->sass->loops[k];

  if (s->estimated)
    return "its work is integer arithmetic only, so how many PTX iterations it runs is "
           "not known";
  for (uint32_t c = 0; c < plan->sass->n_loops; c++)
    if (plan->sass->loops[c].parent == k)
      return "it holds another loop";
  if (s->back_edge != s->last_insn || s->last_insn - s->first_insn + 1 != s->n_insns)
    return "its instructions are not one run ending in its back edge";
  for (uint32_t i = s->first_insn; i <= s->last_insn; i++)
    {
      const KsSassInsn *in = &plan->l->insns[i];
      const char *op = ks_sass_insn_opcode (plan->sm, in);

      if (!(in->flags & KS_SASS_HAS_CONTROL))
        return "the listing has no control codes (no instruction words)";
      if (op == NULL || *op == '\0')
        return "an instruction of it is not named";
      /* ptxas's form of a loop's exit: a predicated CALL.REL.NOINC to the
       * instruction after the back edge, just before it */
      if (i + 1 == s->back_edge && strcmp (op, "CALL") == 0
          && ks_sass_branch_target (plan->l, plan->fn, i) == s->back_edge + 1)
        continue;
      /* (WARPSYNC and BSSY change no flow) */
      if (i != s->back_edge && (strcmp (op, "BRA") == 0 || strcmp (op, "EXIT") == 0
                                || strcmp (op, "CALL") == 0 || strcmp (op, "RET") == 0
                                || strcmp (op, "JMP") == 0 || strcmp (op, "BRX") == 0))
        return "it branches inside";
      if (ks_sass_insn_pipe (plan->sm, in) == KS_PIPE_TENSOR)
        return "it runs tensor-core instructions";
    }
  return NULL;
}

/* Where the timeline shows SASS instructions: at a PTX instruction of
 * their CUDA line of the same kind (a memory access of the same space and
 * direction, else the same pipe), the k-th SASS instruction of a kind at
 * the k-th PTX one, round again past the last (the copies of an unrolled
 * body); with no PTX instruction of its kind on its line, at the line's
 * first one */
typedef struct
{
  GHashTable *kinds;            /* (line, kind) -> GArray of PTX instructions, in order */
  GHashTable *seen;             /* (line, kind) -> SASS instructions placed so far */
} ShowMap;

static int
ptx_show_kind (const KsPtxInsn *in)
{
  gboolean shared = in->space == KS_PTX_SPACE_SHARED || in->space == KS_PTX_SPACE_SHARED_CLUSTER;
  gboolean other = in->space == KS_PTX_SPACE_LOCAL || in->space == KS_PTX_SPACE_PARAM
                   || in->space == KS_PTX_SPACE_CONST;

  switch (in->opcode)
    {
    case KS_PTX_OPC_LD:
    case KS_PTX_OPC_LDU:
      if (!other)
        return shared ? SASS_MEM_SHARED_LOAD : SASS_MEM_GLOBAL_LOAD;
      break;
    case KS_PTX_OPC_ST:
    case KS_PTX_OPC_ATOM:
    case KS_PTX_OPC_RED:
      if (!other)
        return shared ? SASS_MEM_SHARED_STORE : SASS_MEM_GLOBAL_STORE;
      break;
    case KS_PTX_OPC_TEX:
    case KS_PTX_OPC_TLD4:
      return SASS_MEM_TEXTURE;
    case KS_PTX_OPC_SULD:
    case KS_PTX_OPC_SUST:
    case KS_PTX_OPC_SURED:
      return SASS_MEM_SURFACE;
    default:
      break;
    }
  return -1;
}

static gpointer
show_key (uint32_t line,
          int      kind)
{
  return GUINT_TO_POINTER ((line << 5) | (uint32_t) kind);
}

static void
show_map_init (ShowMap *s)
{
  s->kinds = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  s->seen = g_hash_table_new (NULL, NULL);
}

static void
show_map_clear (ShowMap *s)
{
  g_hash_table_unref (s->kinds);
  g_hash_table_unref (s->seen);
}

/* Adds PTX instruction insn (in the module's order) */
static void
show_map_add (ShowMap     *s,
              const Model *mo,
              uint32_t     insn)
{
  const KsPtxModule *m = mo->m;
  const KsPtxInsn *in = &m->insns[insn];
  uint32_t line = in->loc != 0 && in->loc < m->n_locs ? m->locs[in->loc].line : 0;
  int kind = ptx_show_kind (in);
  int kinds[2] = { 31, kind >= 0 ? kind : 16 + (int) ks_timing_insn_pipe (m, in) };

  /* also under line 0, for SASS without line records: then the k-th of a
   * kind in the function (or loop) */
  for (int k = 0; k < 4; k++)
    {
      uint32_t at = k < 2 ? 0 : line;
      GArray *list;

      if (k >= 2 && (line == 0 || line >= (1u << 26)))
        break;
      list = g_hash_table_lookup (s->kinds, show_key (at, kinds[k % 2]));
      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (uint32_t));
          g_hash_table_insert (s->kinds, show_key (at, kinds[k % 2]), list);
        }
      g_array_append_val (list, insn);
    }
}

/* The PTX instruction to show SASS instruction i at (in listing order), or
 * `otherwise` */
static uint32_t
show_map_place (ShowMap        *s,
                const SassPlan *plan,
                uint32_t        i,
                uint32_t        otherwise)
{
  const KsSassInsn *in = &plan->l->insns[i];
  const KsSassSource *src = ks_sass_insn_source (plan->l, i);
  int kind = sass_mem_class (ks_sass_insn_opcode (plan->sm, in));
  uint32_t line = src != NULL && src->line < (1u << 26) ? src->line : 0;
  GArray *list;
  guint k;

  if (kind < 0)
    kind = 16 + (int) ks_sass_insn_pipe (plan->sm, in);
  list = g_hash_table_lookup (s->kinds, show_key (line, kind));
  if (list == NULL)
    {
      /* the line's first PTX instruction */
      list = line != 0 ? g_hash_table_lookup (s->kinds, show_key (line, 31)) : NULL;
      return list != NULL ? g_array_index (list, uint32_t, 0) : otherwise;
    }
  k = GPOINTER_TO_UINT (g_hash_table_lookup (s->seen, show_key (line, kind)));
  g_hash_table_insert (s->seen, show_key (line, kind), GUINT_TO_POINTER (k + 1));
  return g_array_index (list, uint32_t, k % list->len);
}

/* What the stretches need: which PTX and SASS instructions are in loops,
 * and the info of each SASS instruction outside the regions' loops, shown
 * at a PTX instruction outside them of its CUDA line and kind (ShowMap;
 * else where the instruction before it is shown) */
static void
sass_plan_stretches (Model    *mo,
                     SassPlan *plan)
{
  const KsLoopSet *s = plan->sass;
  g_autofree uint8_t *in_region = g_new0 (uint8_t, MAX (plan->fn->n_insns, 1u));
  uint32_t shown = plan->fn_first;
  ShowMap show;

  plan->ptx_in_loop = g_new0 (uint8_t, MAX (plan->fn_n, 1u));
  for (uint32_t i = 0; i < plan->fn_n; i++)
    for (uint32_t j = 0; j < plan->ptx->n_loops && !plan->ptx_in_loop[i]; j++)
      plan->ptx_in_loop[i] = (uint8_t) ks_loop_holds (plan->ptx, j, plan->fn_first + i);
  plan->sass_loop_of = g_new (uint32_t, MAX (plan->fn->n_insns, 1u));
  for (uint32_t b = 0; b < s->n_blocks; b++)
    for (uint32_t i = s->block_insn[b]; i < s->block_insn[b + 1]; i++)
      plan->sass_loop_of[i - plan->fn->first_insn] = s->block_loop[b];
  for (uint32_t r = 0; r < plan->regions->len; r++)
    {
      const SassRegion *rg = &g_array_index (plan->regions, SassRegion, r);

      for (uint32_t v = 0; v < rg->n_variants; v++)
        memset (in_region + (rg->variants[v].first - plan->fn->first_insn), 1,
                rg->variants[v].n);
    }
  show_map_init (&show);
  for (uint32_t i = 0; i < plan->fn_n; i++)
    if (plan->region_of[i] == NEVER)
      show_map_add (&show, mo, plan->fn_first + i);
  for (uint32_t k = 0; k < plan->fn->n_insns; k++)
    if (!in_region[k])
      {
        shown = show_map_place (&show, plan, plan->fn->first_insn + k, shown);
        sass_info (mo, plan, plan->fn->first_insn + k, shown);
      }
  show_map_clear (&show);
}

/* The plan for timing the kernel's loops from its SASS, or NULL (with
 * t->sass_reason set when there was SASS to use) */
static SassPlan *
sass_plan_new (Model                 *mo,
               const KsTimingOptions *options,
               KsTiming              *t)
{
  const KsPtxModule *m = mo->m;
  g_autoptr(GError) error = NULL;
  SassPlan *plan;
  guint sm;

  if (options->sass == NULL || options->sass_function == NULL || options->ptx_as_written
      || options->kernel >= m->n_functions)
    return NULL;
  sm = options->sass_function->arch ? ks_sass_arch_number (options->sass_function->arch) : 0;
  if (sm < 70)
    {
      t->sass_reason = g_strdup ("the SASS is not for sm_70 or later, whose control codes "
                                 "the model reads");
      return NULL;
    }
  if ((uint64_t) m->n_insns + options->sass_function->n_insns >= KS_TRACE_MAX_INSNS)
    {
      t->sass_reason = g_strdup ("the module and the SASS have too many instructions");
      return NULL;
    }
  plan = g_new0 (SassPlan, 1);
  plan->l = options->sass;
  plan->fn = options->sass_function;
  mo->sass_first = plan->fn->first_insn;
  plan->sm = sm;
  plan->sass = ks_loops_from_sass (plan->l, plan->fn, &error);
  if (plan->sass == NULL)
    {
      t->sass_reason = g_strdup (error->message);
      sass_plan_free (plan);
      return NULL;
    }
  plan->ptx = ks_loops_from_ptx (m, options->kernel);
  ks_loops_match (plan->sass, plan->ptx);
  plan->regions = g_array_new (FALSE, TRUE, sizeof (SassRegion));
  mo->info = g_renew (InsnInfo, mo->info, (size_t) mo->n_module + plan->fn->n_insns);
  memset (mo->info + mo->n_module, 0, sizeof (InsnInfo) * plan->fn->n_insns);

  for (uint32_t j = 0; j < plan->ptx->n_loops; j++)
    {
      const KsLoop *p = &plan->ptx->loops[j];
      SassRegion r = { .loop = j };
      const char *why = NULL;
      uint32_t inner = KS_LOOP_NONE;
      gboolean runs_inner = FALSE;

      for (uint32_t k = 0; k < plan->sass->n_loops && why == NULL; k++)
        {
          const KsLoop *s = &plan->sass->loops[k];

          if (s->match == KS_LOOP_NONE)
            continue;
          if (s->inner == j || (s->match != j
                                && ks_loop_holds (plan->ptx, s->match, p->back_edge)))
            runs_inner = TRUE;          /* j is inside the loop of another region */
          if (s->match != j)
            continue;
          why = sass_loop_unfit (plan, k);
          if (why == NULL && r.n_variants >= SASS_MAX_VARIANTS)
            why = "too many SASS loops run it";
          if (why != NULL)
            break;
          if (r.n_variants > 0 && s->inner != inner)
            why = "its SASS loops unrolled different inner loops";
          inner = s->inner;
          r.variants[r.n_variants].first = s->first_insn;
          r.variants[r.n_variants].n = s->last_insn - s->first_insn + 1;
          r.variants[r.n_variants].unroll = s->unroll;
          r.n_variants++;
        }
      if (runs_inner && r.n_variants == 0 && why == NULL)
        continue;                       /* timed as part of the loop around it */
      if (why == NULL && r.n_variants == 0)
        why = "no SASS loop runs it (ptxas unrolled it whole, or its work differs)";
      /* the loops inside it must be the inner loop its SASS unrolled */
      for (uint32_t c = 0; c < plan->ptx->n_loops && why == NULL; c++)
        if (c != j && ks_loop_holds (plan->ptx, j, plan->ptx->loops[c].back_edge)
            && c != inner)
          why = "it holds a loop that is timed on its own or from the PTX";
      if (why != NULL)
        {
          t->sass_loops_not++;
          if (t->sass_reason == NULL)
            t->sass_reason = g_strdup_printf ("the PTX loop at line %u: %s",
                                              m->insns[p->first_insn].line, why);
          continue;
        }
      /* the largest unroll first */
      for (uint32_t a = 1; a < r.n_variants; a++)
        for (uint32_t b = a; b > 0 && r.variants[b - 1].unroll < r.variants[b].unroll; b--)
          {
            SassVariant tmp = r.variants[b];

            r.variants[b] = r.variants[b - 1];
            r.variants[b - 1] = tmp;
          }
      {
        const KsPtxFunction *fn = &m->functions[options->kernel];
        const KsPtxBlock *hb = &m->blocks[fn->first_block + p->header];

        r.header = fn->first_insn + hb->first_insn;
      }
      g_array_append_val (plan->regions, r);
    }
  t->sass_loops = plan->regions->len;
  for (uint32_t i = 0; i < plan->fn->n_insns && plan->stretch_why == NULL; i++)
    if (!(plan->l->insns[plan->fn->first_insn + i].flags & KS_SASS_HAS_CONTROL))
      plan->stretch_why = "the listing has no control codes (no instruction words)";
  if (plan->regions->len == 0 && plan->stretch_why != NULL)
    {
      t->sass_stretch_reason = g_strdup (plan->stretch_why);
      sass_plan_free (plan);
      return NULL;
    }

  /* each instruction's region, and each SASS instruction's info, shown at
   * the PTX instruction of its CUDA line (else the loop's header) */
  {
    const KsPtxFunction *fn = &m->functions[options->kernel];

    plan->fn_first = fn->first_insn;
    plan->fn_n = fn->n_insns;
    plan->region_of = g_new (uint32_t, MAX (fn->n_insns, 1u));
    for (uint32_t i = 0; i < fn->n_insns; i++)
      {
        plan->region_of[i] = NEVER;
        for (uint32_t r = 0; r < plan->regions->len; r++)
          if (ks_loop_holds (plan->ptx, g_array_index (plan->regions, SassRegion, r).loop,
                             fn->first_insn + i))
            plan->region_of[i] = r;
      }
    for (uint32_t r = 0; r < plan->regions->len; r++)
      {
        const SassRegion *rg = &g_array_index (plan->regions, SassRegion, r);
        ShowMap show;

        show_map_init (&show);
        for (uint32_t i = 0; i < fn->n_insns; i++)
          if (plan->region_of[i] == r)
            show_map_add (&show, mo, fn->first_insn + i);
        for (uint32_t v = 0; v < rg->n_variants; v++)
          {
            /* each copy of the loop from the PTX's first instruction again */
            g_hash_table_remove_all (show.seen);
            for (uint32_t i = rg->variants[v].first;
                 i < rg->variants[v].first + rg->variants[v].n; i++)
              sass_info (mo, plan, i, show_map_place (&show, plan, i, rg->header));
          }
        show_map_clear (&show);
      }
    if (plan->stretch_why == NULL)
      sass_plan_stretches (mo, plan);
  }
  return plan;
}

/* Appends to out / rec SASS instructions standing for the PTX events
 * [a, b) of w: one iteration of loop v, or (v NULL) the instructions of
 * `path`, each with the lanes of the PTX event as far into [a, b) as it
 * is into the path (the event at b when a == b).  queue: SASS_N_MEM arrays
 * of KsTraceMemory to work in */
static void
sass_emit (Model             *mo,
           const SassPlan    *plan,
           const SassVariant *v,
           const GArray      *path,
           const Warp        *w,
           uint64_t           a,
           uint64_t           b,
           GArray           **queue,
           GArray            *out,
           GArray            *rec)
{
  uint32_t popped[SASS_N_MEM] = { 0 }, barriers = 0;
  const KsTraceEvent *first = ev_at (mo, w->event_idx[a]);
  KsTraceMemory none = { 0 };
  uint32_t n = v != NULL ? v->n : path->len;

  for (int c = 0; c < SASS_N_MEM; c++)
    g_array_set_size (queue[c], 0);
  for (uint64_t p = a; p < b; p++)
    {
      const KsTraceEvent *e = ev_at (mo, w->event_idx[p]);

      if (e->flags & KS_TRACE_BARRIER)
        barriers++;
      /* a part of a vector access ptxas merges has no cost of its own */
      if ((e->flags & KS_TRACE_MEMORY) && w->mem_rec[p].wavefronts > 0)
        {
          int c = record_class (&w->mem_rec[p]);

          if (c != SASS_MEM_NONE)
            g_array_append_val (queue[c], w->mem_rec[p]);
        }
    }
  for (uint32_t k = 0; k < n; k++)
    {
      uint32_t i = v != NULL ? v->first + k : g_array_index (path, uint32_t, k);
      KsTraceEvent e = v != NULL ? *first
                       : *ev_at (mo, w->event_idx[a + (b - a) * k / n]);
      uint64_t idx = SASS_EVENT | mo->sev->len;
      KsTraceMemory r = none;
      const InsnInfo *ii;
      int c;

      e.insn = mo->n_module + (i - plan->fn->first_insn);
      e.flags = 0;
      ii = &mo->info[e.insn];
      c = ii->sass_mem;
      /* a predicated access past the records: its lanes were all off */
      if (c != SASS_MEM_NONE && queue[c]->len > 0
          && !(v == NULL && ii->sass_pred && popped[c] >= queue[c]->len))
        {
          /* the records in order; past the last, the last again (ptxas
           * made more accesses of the kind than the lowering) */
          r = g_array_index (queue[c], KsTraceMemory, MIN (popped[c], queue[c]->len - 1));
          popped[c]++;
          e.flags |= KS_TRACE_MEMORY;
        }
      if (ii->sass_bar && barriers > 0)
        {
          e.flags |= KS_TRACE_BARRIER;
          barriers--;
        }
      g_array_append_val (mo->sev, e);
      g_array_append_val (out, idx);
      g_array_append_val (rec, r);
    }
}

/* ---- Stretches: the SASS path a warp took between its loops ---- */

#define WALK_MAX_PATHS        256       /* complete paths looked at for one stretch */
#define WALK_MAX_STEPS        200000    /* instructions walked for one stretch */

typedef struct
{
  const Model *mo;
  const SassPlan *plan;
  uint32_t to;                  /* the instruction to reach, or NEVER: an EXIT */
  uint32_t want[SASS_N_MEM + 1];        /* the stretch's accesses per kind, and barriers */
  GHashTable *lines;            /* the CUDA lines of the stretch's PTX */
  GArray *path;                 /* the path walked so far: listing indices */
  GArray *best;
  uint8_t *on_path;             /* per instruction of the function */
  int best_fit;                 /* 2: the same accesses, 1: of the same kinds, 0: none */
  uint32_t best_lines;          /* CUDA lines in one of the path and the stretch only */
  uint32_t n_best;              /* paths as good as best */
  uint32_t paths, steps;
  const char *dead;             /* why a path ended short, for the message */
  gboolean too_many;
} Walk;

/* A complete path: kept when it fits the stretch better than those before */
static void
walk_done (Walk *wk)
{
  uint32_t least[SASS_N_MEM + 1] = { 0 }, most[SASS_N_MEM + 1] = { 0 }, odd = 0;
  g_autoptr(GHashTable) lines = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer key;
  int fit = 2;

  if (++wk->paths > WALK_MAX_PATHS)
    {
      wk->too_many = TRUE;
      return;
    }
  for (guint k = 0; k < wk->path->len; k++)
    {
      uint32_t i = g_array_index (wk->path, uint32_t, k);
      const InsnInfo *ii = &wk->mo->info[wk->mo->n_module + (i - wk->plan->fn->first_insn)];
      const KsSassSource *src = ks_sass_insn_source (wk->plan->l, i);

      int c = ii->sass_bar ? SASS_N_MEM : ii->sass_mem;

      /* (a predicated one may run with every lane off: no access) */
      if (c != SASS_MEM_NONE)
        {
          most[c]++;
          least[c] += !ii->sass_pred;
        }
      if (src != NULL && src->line != 0)
        g_hash_table_add (lines, GUINT_TO_POINTER (src->line));
    }
  for (int c = 0; c <= SASS_N_MEM; c++)
    if (wk->want[c] < least[c] || wk->want[c] > most[c])
      fit = c != SASS_N_MEM && (wk->want[c] == 0 ? least[c] == 0 : most[c] > 0) && fit > 0
            ? 1 : 0;
  if (fit == 0 || fit < wk->best_fit)
    return;
  g_hash_table_iter_init (&it, lines);
  while (g_hash_table_iter_next (&it, &key, NULL))
    odd += !g_hash_table_contains (wk->lines, key);
  g_hash_table_iter_init (&it, wk->lines);
  while (g_hash_table_iter_next (&it, &key, NULL))
    odd += !g_hash_table_contains (lines, key);
  if (fit > wk->best_fit || odd < wk->best_lines)
    {
      wk->best_fit = fit;
      wk->best_lines = odd;
      wk->n_best = 1;
      g_array_set_size (wk->best, 0);
      g_array_append_vals (wk->best, wk->path->data, wk->path->len);
    }
  else if (odd == wk->best_lines)
    wk->n_best++;
}

/* Walks every path from instruction i to wk->to that enters no loop */
static void
walk_from (Walk    *wk,
           uint32_t i)
{
  const SassPlan *plan = wk->plan;
  const KsLoopSet *s = plan->sass;
  uint32_t base = plan->fn->first_insn, end = base + plan->fn->n_insns;
  guint mark = wk->path->len;

  while (!wk->too_many)
    {
      const char *op;
      uint8_t flow;

      if (i == wk->to)
        {
          walk_done (wk);
          break;
        }
      if (i >= end || wk->on_path[i - base])
        {
          wk->dead = "it would run past the function's end or around a loop";
          break;
        }
      if (plan->sass_loop_of[i - base] != KS_LOOP_NONE)
        {
          wk->dead = "it enters a loop not timed from the SASS here";
          break;
        }
      if (++wk->steps > WALK_MAX_STEPS)
        {
          wk->too_many = TRUE;
          break;
        }
      op = ks_sass_insn_opcode (plan->sm, &plan->l->insns[i]);
      if (op == NULL || *op == '\0')
        {
          wk->dead = "an instruction on it is not named";
          break;
        }
      if (strcmp (op, "CALL") == 0 || strcmp (op, "RET") == 0)
        {
          wk->dead = "it calls a subroutine";
          break;
        }
      flow = s->flow[i - base];
      wk->on_path[i - base] = 1;
      g_array_append_val (wk->path, i);
      if ((flow & KS_SASS_FLOW_KIND) == KS_SASS_FLOW_END)
        {
          if (wk->to == NEVER)
            walk_done (wk);
          if (!(flow & KS_SASS_FLOW_ON))
            break;
        }
      else if ((flow & KS_SASS_FLOW_KIND) == KS_SASS_FLOW_BRANCH)
        {
          if (flow & KS_SASS_FLOW_ON)
            walk_from (wk, i + 1);
          i = s->target[i - base];
          continue;
        }
      i++;
    }
  for (guint k = mark; k < wk->path->len; k++)
    wk->on_path[g_array_index (wk->path, uint32_t, k) - base] = 0;
  g_array_set_size (wk->path, mark);
}

/* The SASS path a warp took from instruction `from` to `to` (NEVER: to an
 * EXIT, which the path ends with) while it ran its PTX events [a, b):
 * into `path`; else FALSE, with why it is not known */
static gboolean
walk_stretch (const Model    *mo,
              const SassPlan *plan,
              const Warp     *w,
              uint64_t        a,
              uint64_t        b,
              uint32_t        from,
              uint32_t        to,
              GArray         *path,
              char          **why)
{
  g_autoptr(GHashTable) lines = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) walked = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autofree uint8_t *on_path = g_new0 (uint8_t, MAX (plan->fn->n_insns, 1u));
  const KsPtxModule *m = mo->m;
  Walk wk = { 0 };

  wk.mo = mo;
  wk.plan = plan;
  wk.to = to;
  for (uint64_t p = a; p < b; p++)
    {
      const KsTraceEvent *e = ev_at (mo, w->event_idx[p]);
      uint32_t at = e->insn - plan->fn_first;
      const KsPtxInsn *in;

      if (e->insn < plan->fn_first || at >= plan->fn_n)
        {
          *why = g_strdup ("the warp calls a function there");
          return FALSE;
        }
      if (plan->ptx_in_loop[at])
        {
          *why = g_strdup ("the warp runs a loop there that is timed from the PTX");
          return FALSE;
        }
      if ((e->flags & KS_TRACE_MEMORY) && w->mem_rec[p].wavefronts > 0
          && record_class (&w->mem_rec[p]) != SASS_MEM_NONE)
        wk.want[record_class (&w->mem_rec[p])]++;
      if (e->flags & KS_TRACE_BARRIER)
        wk.want[SASS_N_MEM]++;
      in = &m->insns[e->insn];
      if (in->loc != 0 && in->loc < m->n_locs && m->locs[in->loc].line != 0)
        g_hash_table_add (lines, GUINT_TO_POINTER (m->locs[in->loc].line));
    }
  wk.lines = lines;
  wk.path = walked;
  wk.best = path;
  wk.on_path = on_path;
  wk.best_lines = G_MAXUINT32;
  g_array_set_size (path, 0);
  walk_from (&wk, from);
  if (wk.too_many)
    *why = g_strdup_printf ("more than %u paths go from %04" G_GINT64_MODIFIER "x",
                            WALK_MAX_PATHS, plan->l->insns[from].offset);
  else if (wk.best_fit == 0)
    *why = g_strdup_printf ("no path from %04" G_GINT64_MODIFIER "x to %s does the loads, "
                            "stores and barriers the PTX did (%s)",
                            plan->l->insns[from].offset, to == NEVER ? "an EXIT" : "the loop",
                            wk.dead ? wk.dead : "a divergent branch runs both sides");
  else if (wk.n_best > 1)
    *why = g_strdup_printf ("%u paths from %04" G_GINT64_MODIFIER "x do the same loads and "
                            "stores and run the same CUDA lines", wk.n_best,
                            plan->l->insns[from].offset);
  else
    return TRUE;
  return FALSE;
}

/* Where the stretch [a, b) of w came from, for a message */
static uint32_t
stretch_line (const Model *mo,
              const Warp  *w,
              uint64_t     a,
              uint64_t     b)
{
  return a < b ? mo->m->insns[ev_at (mo, w->event_idx[a])->insn].line : 0;
}

/* w's stretch [a, b) as the SASS path from `from` to `to` (as
 * walk_stretch), else as its PTX; returns where the warp is in the SASS
 * after it (`to`, the EXIT, or NEVER when not known) */
static uint32_t
sass_stretch (Model          *mo,
              const SassPlan *plan,
              const Warp     *w,
              uint64_t        a,
              uint64_t        b,
              uint32_t        from,
              uint32_t        to,
              GArray        **queue,
              GArray         *out,
              GArray         *rec,
              KsTiming       *t)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autofree char *why = NULL;

  if (a == b && to == NEVER)
    return NEVER;
  if (plan->ptx_in_loop == NULL)
    why = g_strdup (plan->stretch_why);
  else if (from == NEVER)
    why = g_strdup ("where the warp is in the SASS is not known (the code before it was "
                    "timed from the PTX)");
  else if (to == NEVER && !(ev_at (mo, w->event_idx[b - 1])->flags & KS_TRACE_EXIT))
    why = g_strdup ("the warp's trace ends before it exits");
  if (why == NULL && walk_stretch (mo, plan, w, a, b, from, to, path, &why))
    {
      sass_emit (mo, plan, NULL, path, w, a, b, queue, out, rec);
      t->sass_stretches++;
      return to;
    }
  for (uint64_t p = a; p < b; p++)
    {
      g_array_append_val (out, w->event_idx[p]);
      g_array_append_val (rec, w->mem_rec[p]);
    }
  if (a < b)
    {
      t->sass_stretches_not++;
      if (t->sass_stretch_reason == NULL)
        t->sass_stretch_reason = g_strdup_printf ("the code at PTX line %u: %s",
                                                  stretch_line (mo, w, a, b), why);
    }
  return NEVER;
}

/* w's events with the iterations of the plan's loops, and the stretches
 * between them, as SASS */
static void
sass_rewrite_warp (Model          *mo,
                   const SassPlan *plan,
                   const Warp     *w,
                   GArray         *out,
                   GArray         *rec,
                   KsTiming       *t)
{
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  g_autoptr(GArray) between = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  GArray *queue[SASS_N_MEM];
  uint64_t i = 0, from = 0;     /* the stretch so far: [from, i) */
  uint32_t pos = plan->fn->first_insn;  /* where the warp is in the SASS, or NEVER */

  for (int c = 0; c < SASS_N_MEM; c++)
    queue[c] = g_array_new (FALSE, FALSE, sizeof (KsTraceMemory));

  while (i < w->n)
    {
      const KsTraceEvent *e = ev_at (mo, w->event_idx[i]);
      uint32_t at = e->insn - plan->fn_first, r, first_v = NEVER, last_v = NEVER;
      const SassRegion *rg;
      uint64_t j, k = 0;
      gboolean clean = TRUE;

      r = e->insn >= plan->fn_first && at < plan->fn_n ? plan->region_of[at] : NEVER;
      if (r == NEVER || e->insn != g_array_index (plan->regions, SassRegion, r).header)
        {
          i++;
          continue;
        }
      /* the warp's iterations, until it leaves the loop */
      rg = &g_array_index (plan->regions, SassRegion, r);
      g_array_set_size (starts, 0);
      for (j = i; j < w->n; j++)
        {
          const KsTraceEvent *f = ev_at (mo, w->event_idx[j]);
          uint32_t fat = f->insn - plan->fn_first;

          /* (a function it calls is part of the iteration: ptxas may have
           * inlined it) */
          if (f->insn >= plan->fn_first && fat < plan->fn_n && plan->region_of[fat] != r)
            break;
          if (f->insn == rg->header)
            g_array_append_val (starts, j);
          if (f->flags & KS_TRACE_EXIT)
            clean = FALSE;
        }
      {
        uint64_t end = j;

        g_array_append_val (starts, end);
      }
      for (uint32_t v = 0; clean && v < rg->n_variants && first_v == NEVER; v++)
        if (rg->variants[v].unroll < starts->len)
          first_v = v;
      if (first_v == NEVER)
        {
          /* no SASS loop runs these iterations (fewer than the smallest
           * unroll, or lanes exit in them): they are part of the stretch,
           * which the PTX then times */
          i = j;
          continue;
        }
      /* the stretch before it, to the SASS loop it starts with */
      pos = sass_stretch (mo, plan, w, from, i, pos, rg->variants[first_v].first, queue, out,
                          rec, t);
      for (uint32_t v = 0; v < rg->n_variants; v++)
        while (k + rg->variants[v].unroll < starts->len)
          {
            uint64_t a = g_array_index (starts, uint64_t, k);
            g_autofree char *why = NULL;

            /* from the loop before to this one: the path that does no work */
            if (last_v != NEVER && last_v != v && plan->sass_loop_of != NULL
                && walk_stretch (mo, plan, w, a, a,
                                 rg->variants[last_v].first + rg->variants[last_v].n,
                                 rg->variants[v].first, between, &why))
              sass_emit (mo, plan, NULL, between, w, a, a, queue, out, rec);
            sass_emit (mo, plan, &rg->variants[v], NULL, w, a,
                       g_array_index (starts, uint64_t, k + rg->variants[v].unroll), queue,
                       out, rec);
            k += rg->variants[v].unroll;
            last_v = v;
          }
      /* what no SASS loop runs (fewer iterations than the smallest
       * unroll), and iterations where lanes exit: as the PTX */
      for (uint64_t p = g_array_index (starts, uint64_t, k); p < j; p++)
        {
          g_array_append_val (out, w->event_idx[p]);
          g_array_append_val (rec, w->mem_rec[p]);
        }
      /* after the last SASS loop it ran, the warp goes on past its back
       * edge */
      pos = last_v != NEVER && g_array_index (starts, uint64_t, k) == j
            ? rg->variants[last_v].first + rg->variants[last_v].n : NEVER;
      i = from = j;
    }
  sass_stretch (mo, plan, w, from, w->n, pos, NEVER, queue, out, rec, t);
  for (int c = 0; c < SASS_N_MEM; c++)
    g_array_unref (queue[c]);
}

/* Every modelled warp's events rewritten (sass_rewrite_warp), in new pools */
static void
sass_rewrite (Model           *mo,
              const SassPlan  *plan,
              Warp            *warps,
              uint32_t         n_warps,
              KsTiming        *t,
              uint64_t       **idx_pool,
              KsTraceMemory  **mem_pool)
{
  GArray **outs = g_new0 (GArray *, MAX (n_warps, 1u));
  GArray **recs = g_new0 (GArray *, MAX (n_warps, 1u));
  uint64_t total = 0, off = 0;

  mo->sev = g_array_new (FALSE, FALSE, sizeof (KsTraceEvent));
  for (uint32_t i = 0; i < n_warps; i++)
    {
      outs[i] = g_array_sized_new (FALSE, FALSE, sizeof (uint64_t), (guint) warps[i].n);
      recs[i] = g_array_sized_new (FALSE, FALSE, sizeof (KsTraceMemory), (guint) warps[i].n);
      sass_rewrite_warp (mo, plan, &warps[i], outs[i], recs[i], t);
      total += outs[i]->len;
    }
  g_free (*idx_pool);
  g_free (*mem_pool);
  *idx_pool = g_new (uint64_t, MAX (total, 1));
  *mem_pool = g_new0 (KsTraceMemory, MAX (total, 1));
  g_free (t->events);
  t->events = g_new0 (KsTimingEvent, MAX (total, 1));
  t->n_events = total;
  for (uint32_t i = 0; i < n_warps; i++)
    {
      Warp *w = &warps[i];

      memcpy (*idx_pool + off, outs[i]->data, sizeof (uint64_t) * outs[i]->len);
      memcpy (*mem_pool + off, recs[i]->data, sizeof (KsTraceMemory) * recs[i]->len);
      w->event_idx = *idx_pool + off;
      w->mem_rec = *mem_pool + off;
      w->n = outs[i]->len;
      w->out = off;
      t->warps[i].first_event = off;
      off += outs[i]->len;
      g_array_unref (outs[i]);
      g_array_unref (recs[i]);
    }
  g_free (outs);
  g_free (recs);
}

/* Issues w's next instruction at `cycle`; returns its result latency */
static uint32_t
issue (Model    *mo,
       KsTiming *t,
       Warp     *w,
       uint32_t  cycle)
{
  uint64_t idx = w->event_idx[w->next];
  const KsTraceEvent *e = ev_at (mo, idx);
  const InsnInfo *ii = info_of (mo, e->insn);
  const uint32_t *refs = &g_array_index (mo->refs, uint32_t, ii->first_ref);
  const KsArchInfo *a = mo->arch;
  KsTimingEvent *te = &t->events[w->out++];
  uint32_t latency = ii->latency;
  KsStallReason held = KS_STALL_NO_INSTRUCTION;
  uint64_t most = 0;
  uint32_t queued = 0;          /* cycles it waited for its memory unit */

  mo->pipe_free[w->sp][ii->pipe] = MAX (mo->pipe_free[w->sp][ii->pipe], (double) cycle) + ii->issue;
  t->pipe_busy[ii->pipe] += (uint64_t) ceil (ii->issue);

  if (ii->mem != MEM_NONE && e->exec != 0)
    {
      const KsTraceMemory *r = e->flags & KS_TRACE_MEMORY ? &w->mem_rec[w->next] : NULL;

      if (r != NULL && r->kind == KS_TRACE_MEM_SHARED)
        {
          double start = MAX (mo->smem_free, (double) cycle);

          mo->smem_free = start + MAX (r->wavefronts, 1);
          queued = (uint32_t) (start - cycle);
          latency = (uint32_t) (start - cycle) + a->latencies[KS_LATENCY_LDS].latency
                    + (MAX (r->wavefronts, 1) - 1);
        }
      else if (r != NULL)
        {
          double start = MAX (mo->l1_free, (double) cycle);
          uint32_t base = a->latencies[KS_LATENCY_L1_HIT].latency;

          mo->l1_free = start + MAX (r->wavefronts, 1);
          if (r->dram > 0)
            {
              double dstart = MAX (mo->dram_free, (double) cycle);

              mo->dram_free = dstart + r->dram * mo->dram_cycles_per_sector;
              base = (uint32_t) MAX ((double) a->latencies[KS_LATENCY_DRAM].latency,
                                     mo->dram_free - cycle);
            }
          else if (r->l2_hits > 0 || (r->store && ks_trace_memory_sectors (r) > 0))
            base = a->latencies[KS_LATENCY_L2_HIT].latency;
          queued = (uint32_t) (start - cycle);
          latency = (uint32_t) (start - cycle) + base + (MAX (r->wavefronts, 1) - 1);
        }
      else if (ii->mem == MEM_GLOBAL)
        {
          /* local memory (not analysed): an L1 hit */
          double start = MAX (mo->l1_free, (double) cycle);

          mo->l1_free = start + 1;
          latency = (uint32_t) (start - cycle) + a->latencies[KS_LATENCY_L1_HIT].latency;
        }
    }
  latency = MIN (latency, 65535u);

  for (uint32_t i = 0; i < ii->n_defs; i++)
    {
      w->reg_ready[refs[i]] = cycle + latency;
      w->reg_kind[refs[i]] = ii->result;
    }
  if ((ii->n_defs > 0 || (ii->sass && ii->write_barrier < KS_SASS_NO_BARRIER))
      && cycle + latency > (ii->sass ? w->sass_done : w->ptx_done))
    {
      if (ii->sass)
        {
          w->sass_done = cycle + latency;
          w->sass_kind = ii->result;
        }
      else
        {
          w->ptx_done = cycle + latency;
          w->ptx_kind = ii->result;
        }
    }
  w->last_sass = ii->sass;
  if (ii->sass)
    {
      /* a read barrier clears once the unit has taken the operands, a
       * write barrier when the result is there */
      if (ii->read_barrier < KS_SASS_NO_BARRIER)
        {
          w->sb_ready[ii->read_barrier] = MAX (w->sb_ready[ii->read_barrier],
                                               cycle + queued + SASS_READ_CYCLES);
          w->sb_kind[ii->read_barrier] = ii->result;
        }
      if (ii->write_barrier < KS_SASS_NO_BARRIER)
        {
          w->sb_ready[ii->write_barrier] = cycle + latency;
          w->sb_kind[ii->write_barrier] = ii->result;
        }
      t->sass_issued++;
    }

  /* the gap before it: the reason that held it longest, then not selected */
  for (guint r = 0; r < KS_N_STALLS; r++)
    {
      t->stall_cycles[r] += w->gap[r];
      if (r != KS_STALL_NOT_SELECTED && w->gap[r] > most)
        {
          most = w->gap[r];
          held = (KsStallReason) r;
        }
    }
  t->stall_cycles[KS_STALL_SELECTED]++;

  te->cycle = cycle;
  te->stall_start = w->stall_start;
  te->ready = w->first_eligible != NEVER ? w->first_eligible : cycle;
  te->insn = ii->sass ? ii->ptx : e->insn;
  te->sass = ii->sass ? mo->sass_first + (e->insn - mo->n_module) + 1 : 0;
  te->latency = (uint16_t) latency;
  te->active_lanes = (uint16_t) __builtin_popcount (e->exec);
  te->pipe = ii->pipe;
  te->stall = most > 0 ? (uint8_t) held : KS_STALL_SELECTED;
  te->flags = (uint8_t) e->flags;
  te->lowered = KS_LOWER_ISSUE;

  memset (w->gap, 0, sizeof w->gap);
  w->first_eligible = NEVER;
  w->next++;
  w->stall_start = cycle + 1;
  w->earliest = cycle + 1;
  w->earliest_reason = KS_STALL_NOT_SELECTED;
  if (ii->sass)
    {
      /* the stall count ptxas gave it */
      w->earliest = cycle + MAX (ii->stall, 1u);
      w->earliest_reason = ii->stall > 1 ? KS_STALL_WAIT : KS_STALL_NOT_SELECTED;
    }
  else if (ii->is_branch)
    {
      /* the target is known when the branch's condition has gone through
       * the ALU */
      w->earliest = cycle + a->latencies[KS_LATENCY_IADD3].latency;
      w->earliest_reason = KS_STALL_BRANCH_RESOLVING;
    }
  t->issued++;
  head_moved (w);
  return latency;
}

KsTiming *
ks_timing_compute (const KsPtxModule       *m,
                   const KsSim             *sim,
                   const KsArchInfo        *arch,
                   const KsGpuInfo         *gpu,
                   const KsOccupancyResult *occ,
                   const KsTimingOptions   *options,
                   GError                 **error)
{
  g_autoptr(KsTiming) t = NULL;
  const KsLaunch *launch;
  const KsSimStats *stats;
  KsTimingOptions defaults;
  Model mo = { 0 };
  uint64_t n_events, n_ctas, n_sms, stride, share, n_share, modelled_events = 0;
  uint32_t wpc, sub, bps;
  g_autofree uint64_t *cta_events = NULL;       /* per CTA of the share: events */
  g_autofree uint32_t *share_ctas = NULL;
  g_autofree uint64_t *warp_count = NULL;
  g_autofree Warp *warps = NULL;
  g_autofree CtaSlot *slots = NULL;
  g_autofree uint64_t *idx_pool = NULL;
  g_autofree KsTraceMemory *mem_pool = NULL;
  g_autofree uint32_t *ready_pool = NULL;
  g_autofree uint8_t *kind_pool = NULL;
  g_autofree uint32_t *written_pool = NULL;
  g_autofree uint32_t *warp_of_trace = NULL;
  double fp32_flops = 0, fp64_flops = 0, tensor_flops = 0, dram_sectors = 0;
  uint32_t cycle = 0, next_cta, n_warps_model, ctas_done = 0, stuck = 0;
  uint32_t last_issued[8];
  double active_warp_cycles = 0;
  SassPlan *plan = NULL;

  g_return_val_if_fail (m != NULL && sim != NULL && arch != NULL && occ != NULL, NULL);

  if (options == NULL)
    {
      ks_timing_options_init (&defaults);
      options = &defaults;
    }
  if (ks_sim_get_status (sim) != KS_SIM_DONE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the run did not finish, so there is nothing to time");
      return NULL;
    }
  if (ks_sim_get_launch (sim)->cooperative)
    {
      /* its blocks ran side by side, taking turns, with no trace */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("the timing model does not time a cooperative launch: its blocks "
                             "may wait for one another (grid.sync()), and the model times "
                             "blocks that do not"));
      return NULL;
    }
  mo.ev = ks_sim_get_trace (sim, &n_events);
  mo.lw = options->ptx_as_written ? NULL : ks_sim_get_lowering (sim);
  mo.hoist = !options->ptx_as_written && !options->in_order;
  mo.mem = ks_sim_get_trace_memory (sim, &mo.n_mem);
  stats = ks_sim_get_stats (sim);
  if (mo.ev == NULL || n_events == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the run has no trace (it was off): the timing model replays the trace");
      return NULL;
    }
  if (occ->active_blocks_per_sm == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "no block fits on an SM");
      return NULL;
    }

  launch = ks_sim_get_launch (sim);
  wpc = ks_sim_get_warps_per_cta (sim);
  n_ctas = (uint64_t) launch->grid[0] * launch->grid[1] * launch->grid[2];
  n_sms = gpu != NULL && gpu->sm_count > 0 ? gpu->sm_count : 1;
  sub = CLAMP (arch->sub_partitions, 1u, 8u);
  bps = occ->active_blocks_per_sm;

  t = g_new0 (KsTiming, 1);
  t->sub_partitions = sub;
  t->blocks_per_sm = bps;
  t->waves_per_sm = (double) n_ctas / ((double) bps * (double) n_sms);
  t->clock_mhz = gpu != NULL ? gpu->boost_clock_mhz : 0;

  /* The busiest SM's share: CTAs 0, n_sms, 2 n_sms, ... (the block
   * scheduler deals blocks out round-robin) */
  share = (n_ctas + n_sms - 1) / n_sms;
  /* A run of a sample of blocks (ks_sim_set_block_sample) stands for the
   * share: its blocks are replayed as the SM's, whatever their stride */
  stride = stats->sampled_blocks > 0 && stats->sample_stride > 0 ? stats->sample_stride : n_sms;
  t->ctas_per_sm = share;

  /* One pass over the trace: events per CTA of the share, the grid's
   * floating-point work and DRAM traffic */
  mo.m = m;
  mo.arch = arch;
  mo.n_module = m->n_insns;
  mo.info = g_new0 (InsnInfo, m->n_insns);
  mo.refs = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  mo.insn_fn = g_new (uint32_t, m->n_insns);
  mo.fn_base = g_new (uint32_t, MAX (m->n_functions, 1));
  mo.tensor_fma_per_cycle = tensor_rate (arch);
  for (uint32_t i = 0; i < m->n_insns; i++)
    mo.insn_fn[i] = 0;
  for (uint32_t f = 0; f < m->n_functions; f++)
    {
      const KsPtxFunction *fn = &m->functions[f];

      mo.fn_base[f] = mo.n_slots;
      mo.n_slots += fn->n_reg_slots + fn->n_pred_slots;
      for (uint32_t i = 0; i < fn->n_insns && fn->first_insn + i < m->n_insns; i++)
        mo.insn_fn[fn->first_insn + i] = f;
    }
  mo.n_slots = MAX (mo.n_slots, 1);

  cta_events = g_new0 (uint64_t, share);
  warp_count = g_new0 (uint64_t, (size_t) share * wpc);
  {
    uint64_t mi = 0;

    for (uint64_t i = 0; i < n_events; i++)
      {
        const KsTraceEvent *e = &mo.ev[i];
        uint64_t cta = e->warp / wpc;
        const InsnInfo *ii;

        /* the memory records belong to the events that say so, in order */
        if ((e->flags & KS_TRACE_MEMORY) && mi < mo.n_mem)
          dram_sectors += mo.mem[mi++].dram;
        if (e->insn >= m->n_insns)
          continue;
        ii = insn_info (&mo, e->insn);
        if (ii->flops_per_lane)
          {
            double f = (double) ii->flops_per_lane * __builtin_popcount (e->exec);

            if (ii->fp64)
              fp64_flops += f;
            else
              fp32_flops += f;
          }
        if (ii->tensor_flops && e->exec)
          tensor_flops += ii->tensor_flops;
        if (cta % stride == 0 && cta / stride < share)
          {
            cta_events[cta / stride]++;
            warp_count[(cta / stride) * wpc + e->warp % wpc]++;
          }
      }
  }

  /* CTAs to replay: the share's that the trace holds, while the budget
   * lasts.  The trace holds whole blocks: all of them, or a sample of them
   * spread over the grid (blocks 0, s, 2s, ...), which holds those of the
   * share that are multiples of s; or block 0 alone, cut off, when it
   * filled the trace by itself (no block is whole). */
  share_ctas = g_new (uint32_t, share);
  n_share = 0;
  for (uint64_t k = 0; k < share; k++)
    {
      if (cta_events[k] == 0 || stats->trace_blocks == 0)
        continue;
      if (options->max_ctas && n_share >= options->max_ctas)
        break;
      /* (the blocks resident together always: an SM that runs two blocks
       * hides the latency of one with the other) */
      if (n_share >= MAX (bps, 1)
          && modelled_events + cta_events[k] > (options->max_events ? options->max_events
                                                 : MAX_MODEL_EVENTS))
        break;
      share_ctas[n_share++] = (uint32_t) k;
      modelled_events += cta_events[k];
    }
  if (n_share == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the trace holds no whole block");
      g_array_unref (mo.refs);
      g_free (mo.info);
      g_free (mo.insn_fn);
      g_free (mo.fn_base);
      return NULL;
    }
  t->ctas_modelled = n_share;
  t->extrapolated = n_share < share;

  /* The replayed warps, their events in trace order */
  n_warps_model = (uint32_t) (n_share * wpc);
  warps = g_new0 (Warp, n_warps_model);
  t->n_warps = n_warps_model;
  t->warps = g_new0 (KsTimingWarp, n_warps_model);
  t->n_events = modelled_events;
  t->events = g_new0 (KsTimingEvent, MAX (modelled_events, 1));
  idx_pool = g_new (uint64_t, MAX (modelled_events, 1));
  mem_pool = g_new0 (KsTraceMemory, MAX (modelled_events, 1));
  warp_of_trace = g_new (uint32_t, share * wpc);
  for (uint64_t i = 0; i < share * wpc; i++)
    warp_of_trace[i] = NEVER;
  {
    uint64_t off = 0;

    for (uint32_t s = 0; s < n_share; s++)
      for (uint32_t j = 0; j < wpc; j++)
        {
          Warp *w = &warps[s * wpc + j];
          KsTimingWarp *tw = &t->warps[s * wpc + j];
          uint64_t k = share_ctas[s];

          w->trace_warp = (uint32_t) (k * stride * wpc + j);
          w->event_idx = idx_pool + off;
          w->mem_rec = mem_pool + off;
          w->out = off;
          tw->trace_warp = w->trace_warp;
          tw->cta = (uint32_t) (k * stride);
          tw->warp_in_cta = j;
          tw->first_event = off;
          off += warp_count[k * wpc + j];
          warp_of_trace[k * wpc + j] = s * wpc + j;
        }
    for (uint64_t i = 0, mi = 0; i < n_events; i++)
      {
        const KsTraceEvent *e = &mo.ev[i];
        const KsTraceMemory *r = NULL;
        uint64_t cta = e->warp / wpc;
        uint32_t wi;

        if ((e->flags & KS_TRACE_MEMORY) && mi < mo.n_mem)
          r = &mo.mem[mi++];
        if (e->insn >= m->n_insns || cta % stride != 0 || cta / stride >= share)
          continue;
        wi = warp_of_trace[(cta / stride) * wpc + e->warp % wpc];
        if (wi != NEVER)
          {
            Warp *w = &warps[wi];

            if (r != NULL)
              w->mem_rec[w->n] = *r;
            w->event_idx[w->n++] = i;
          }
      }
  }

  /* The loops the SASS times */
  plan = sass_plan_new (&mo, options, t);
  if (plan != NULL)
    sass_rewrite (&mo, plan, warps, n_warps_model, t, &idx_pool, &mem_pool);

  /* Registers: one scoreboard per resident warp slot */
  {
    uint32_t resident = MIN (bps, n_share) * wpc;

    ready_pool = g_new0 (uint32_t, (size_t) resident * mo.n_slots);
    kind_pool = g_new0 (uint8_t, (size_t) resident * mo.n_slots);
    written_pool = g_new0 (uint32_t, (size_t) resident * mo.n_slots);
  }

  /* The SM's share of DRAM bandwidth, in cycles per 32-byte sector */
  if (gpu != NULL && gpu->memory_bandwidth_gbs > 0 && gpu->boost_clock_mhz > 0)
    {
      double bytes_per_cycle = gpu->memory_bandwidth_gbs * 1e9
                               / ((double) n_sms * gpu->boost_clock_mhz * 1e6);

      mo.dram_cycles_per_sector = 32.0 / bytes_per_cycle;
    }

  slots = g_new0 (CtaSlot, bps);
  next_cta = 0;
  for (guint s = 0; s < 8; s++)
    last_issued[s] = NEVER;

  /* Launch a CTA into a free slot */
#define LAUNCH(slot_i)                                                          \
  G_STMT_START {                                                                \
    CtaSlot *ls = &slots[slot_i];                                               \
    ls->cta = next_cta;                                                         \
    ls->first_warp = next_cta * wpc;                                            \
    ls->arrived = 0;                                                            \
    ls->live = 0;                                                               \
    ls->active = TRUE;                                                          \
    for (uint32_t j = 0; j < wpc; j++)                                          \
      {                                                                         \
        Warp *nw = &warps[ls->first_warp + j];                                  \
        KsTimingWarp *tw = &t->warps[ls->first_warp + j];                       \
        nw->cta_slot = slot_i;                                                  \
        nw->slot = (slot_i) * wpc + j;                                          \
        nw->sp = nw->slot % sub;                                                \
        nw->resident = 1;                                                       \
        nw->earliest = cycle;                                                   \
        nw->earliest_reason = KS_STALL_NO_INSTRUCTION;                          \
        nw->stall_start = cycle;                                                \
        nw->first_eligible = NEVER;                                             \
        nw->pending = KS_STALL_NO_INSTRUCTION;                                  \
        nw->reg_ready = ready_pool + (size_t) nw->slot * mo.n_slots;            \
        nw->reg_kind = kind_pool + (size_t) nw->slot * mo.n_slots;              \
        nw->written = written_pool + (size_t) nw->slot * mo.n_slots;            \
        nw->n_renamed = 0;                                                      \
        nw->cand = 0;                                                           \
        nw->hoist_retry = 0;                                                    \
        memset (nw->reg_ready, 0, mo.n_slots * sizeof (uint32_t));              \
        memset (nw->reg_kind, 0, mo.n_slots);                                   \
        tw->sub_partition = nw->sp;                                             \
        tw->slot = nw->slot;                                                    \
        tw->start_cycle = cycle;                                                \
        if (nw->n == 0)                                                         \
          {                                                                     \
            nw->done = 1;                                                       \
            tw->end_cycle = cycle;                                              \
          }                                                                     \
        else                                                                    \
          ls->live++;                                                           \
      }                                                                         \
    next_cta++;                                                                 \
  } G_STMT_END

  for (uint32_t s = 0; s < bps && next_cta < n_share; s++)
    LAUNCH (s);

  while (ctas_done < n_share)
    {
      gboolean issued_any = FALSE;
      uint32_t next = NEVER, to;

      /* Each scheduler looks at its warps as they are at `cycle`: why each
       * one waits, and which to issue.  GTO: the warp it issued last if it
       * can go on, else the oldest (lowest slot: slots fill in launch
       * order); LRR: the first ready after the one it issued last. */
      for (uint32_t sp = 0; sp < sub; sp++)
        {
          Warp *chosen = NULL, *first_ready = NULL, *after_last = NULL;

          for (uint32_t slot = sp; slot < bps * wpc; slot += sub)
            {
              CtaSlot *cs = &slots[slot / wpc];
              KsStallReason why;
              Warp *w;

              if (!cs->active)
                continue;
              w = &warps[cs->first_warp + slot % wpc];
              if (w->done)
                continue;
              if (absorb_lowered (&mo, t, w, cycle))
                {
                  /* nothing left that issues */
                  w->done = 1;
                  w->pending = KS_STALL_SELECTED;
                  t->warps[cs->first_warp + slot % wpc].end_cycle = MAX (w->stall_start, cycle);
                  cs->live--;
                  continue;
                }
              w->pending_ready = warp_ready (&mo, w, cycle, &why);
              w->pending = (uint8_t) why;
              if (w->pending_ready > cycle)
                {
                  next = MIN (next, w->pending_ready);
                  continue;
                }
              w->pending = KS_STALL_NOT_SELECTED;
              if (w->first_eligible == NEVER)
                w->first_eligible = cycle;
              if (first_ready == NULL)
                first_ready = w;
              if (after_last == NULL && last_issued[sp] != NEVER && slot > last_issued[sp])
                after_last = w;
              if (options->policy == KS_SCHEDULER_GTO && slot == last_issued[sp])
                chosen = w;
            }
          if (chosen == NULL)
            chosen = options->policy == KS_SCHEDULER_LRR && after_last ? after_last : first_ready;
          if (chosen != NULL)
            {
              CtaSlot *cs = &slots[chosen->cta_slot];
              const KsTraceEvent *e;

              if (chosen->cand > 0)
                bring_ahead (&mo, t, chosen);
              e = ev_at (&mo, chosen->event_idx[chosen->next]);
              issue (&mo, t, chosen, cycle);
              chosen->pending = KS_STALL_SELECTED;
              last_issued[sp] = chosen->slot;
              issued_any = TRUE;
              if (chosen->next >= chosen->n)
                {
                  chosen->done = 1;
                  t->warps[cs->first_warp + chosen->slot % wpc].end_cycle = cycle + 1;
                  cs->live--;
                }
              else if (e->flags & KS_TRACE_BARRIER)
                {
                  chosen->at_barrier = 1;
                  chosen->barrier_release = NEVER;
                  cs->arrived++;
                  cs->last_arrival = cycle;
                }
            }
        }

      /* Barriers every live warp of the CTA has reached open a little later */
      for (uint32_t s = 0; s < bps; s++)
        {
          CtaSlot *cs = &slots[s];

          if (cs->active && cs->arrived > 0 && cs->arrived >= cs->live)
            {
              for (uint32_t j = 0; j < wpc; j++)
                {
                  Warp *w = &warps[cs->first_warp + j];

                  if (w->at_barrier && w->barrier_release == NEVER)
                    w->barrier_release = cs->last_arrival + BARRIER_LATENCY;
                }
              cs->arrived = 0;
              next = MIN (next, cs->last_arrival + BARRIER_LATENCY);
            }
        }

      /* Where nothing could issue, jump to the first cycle something can */
      to = cycle + 1;
      if (!issued_any && next != NEVER)
        to = MAX (next, cycle + 1);
      else if (!issued_any)
        stuck++;
      if (stuck > 1000000)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "the timing model could not go on at cycle %u (a barrier that never "
                       "opens)", cycle);
          sass_plan_free (plan);
          if (mo.sev != NULL)
            g_array_unref (mo.sev);
          g_array_unref (mo.refs);
          g_free (mo.info);
          g_free (mo.insn_fn);
          g_free (mo.fn_base);
          return NULL;
        }

      /* Every warp that did not issue spent [cycle, to) on its reason */
      for (uint32_t s = 0; s < bps; s++)
        {
          CtaSlot *cs = &slots[s];

          if (!cs->active)
            continue;
          for (uint32_t j = 0; j < wpc; j++)
            {
              Warp *w = &warps[cs->first_warp + j];

              if (w->done)
                continue;
              active_warp_cycles += to - cycle;
              if (w->pending == KS_STALL_SELECTED)
                continue;
              w->gap[w->pending] += to - cycle;
            }
        }
      for (uint32_t s = 0; s < bps; s++)
        for (uint32_t j = 0; j < wpc; j++)
          if (slots[s].active)
            warps[slots[s].first_warp + j].pending = KS_STALL_NO_INSTRUCTION;
      cycle = to;

      /* Retire finished CTAs and launch the next ones */
      for (uint32_t s = 0; s < bps; s++)
        {
          CtaSlot *cs = &slots[s];

          if (cs->active && cs->live == 0)
            {
              cs->active = FALSE;
              ctas_done++;
              if (next_cta < n_share)
                LAUNCH (s);
            }
        }
      if (cycle >= NEVER - 65536)
        break;
    }
#undef LAUNCH

  t->cycles = cycle;
  t->ipc = cycle ? (double) t->issued / cycle : 0;
  /* Nsight Compute's sm__warps_active.avg.pct_of_peak and
   * smsp__issue_active.avg.pct_of_peak, of the modelled SM */
  t->warps_active = cycle && arch->max_warps_per_sm
                    ? active_warp_cycles / ((double) cycle * arch->max_warps_per_sm) : 0;
  t->issue_active = cycle ? (double) t->issued / ((double) cycle * sub) : 0;
  for (uint32_t i = 0; i < n_warps_model; i++)
    t->warps[i].n_events = warps[i].out - t->warps[i].first_event;

  /* The kernel */
  {
    double scale_trace = 1.0, peak32, peak64, peak_tensor;
    uint64_t ctas_in_trace = stats->trace_blocks;

    t->sm_cycles = (double) cycle * ((double) share / (double) n_share);
    /* a trace of some blocks only (a full trace, or a run of a sample of
     * blocks): the grid's work is theirs scaled up */
    if ((stats->trace_dropped > 0 || stats->sampled_blocks > 0) && ctas_in_trace > 0)
      scale_trace = (double) n_ctas / (double) ctas_in_trace;
    t->dram_bytes = dram_sectors * 32.0 * scale_trace;
    t->flops = (fp32_flops + fp64_flops + tensor_flops) * scale_trace;
    t->arithmetic_intensity = t->dram_bytes > 0 ? t->flops / t->dram_bytes : 0;
    if (gpu != NULL && gpu->boost_clock_mhz > 0)
      {
        double hz = gpu->boost_clock_mhz * 1e6;

        t->model_us = t->sm_cycles / gpu->boost_clock_mhz;
        t->memory_floor_us = gpu->memory_bandwidth_gbs > 0
                             ? t->dram_bytes / (gpu->memory_bandwidth_gbs * 1e3) : 0;
        peak32 = n_sms * sub * arch->fp32_lanes * 2 * hz;
        peak64 = n_sms * sub * arch->fp64_lanes * 2 * hz;
        peak_tensor = n_sms * sub * (double) mo.tensor_fma_per_cycle * 2 * hz;
        t->compute_floor_us = 1e6 * (fp32_flops * scale_trace / peak32
                                     + fp64_flops * scale_trace / MAX (peak64, 1.0)
                                     + tensor_flops * scale_trace / peak_tensor);
        t->estimated_duration_us = MAX (t->model_us, MAX (t->memory_floor_us, t->compute_floor_us));
        /* dram__throughput.avg.pct_of_peak: the grid's DRAM bytes over the
         * estimate, at the GPU's bandwidth */
        t->dram_throughput = gpu->memory_bandwidth_gbs > 0 && t->estimated_duration_us > 0
                             ? t->dram_bytes / (t->estimated_duration_us * gpu->memory_bandwidth_gbs
                                                * 1e3) : 0;
      }
    else
      t->model_us = t->estimated_duration_us = 0;

    /* The bound: a floor close to the estimate, or a pipe kept busy */
    {
      double busiest = 0;

      for (guint p = 0; p < KS_N_PIPES; p++)
        if (p != KS_PIPE_CTRL)
          busiest = MAX (busiest, (double) t->pipe_busy[p] / MAX ((double) cycle * sub, 1.0));
      if (t->estimated_duration_us > 0
          && t->memory_floor_us >= BOUND_FRACTION * t->estimated_duration_us)
        t->bound = KS_BOUND_MEMORY;
      else if ((t->estimated_duration_us > 0
                && t->compute_floor_us >= BOUND_FRACTION * t->estimated_duration_us)
               || busiest >= BOUND_FRACTION)
        t->bound = KS_BOUND_COMPUTE;
      else
        t->bound = KS_BOUND_LATENCY;
    }
  }

  sass_plan_free (plan);
  if (mo.sev != NULL)
    g_array_unref (mo.sev);
  g_array_unref (mo.refs);
  g_free (mo.info);
  g_free (mo.insn_fn);
  g_free (mo.fn_base);
  return g_steal_pointer (&t);
}
