/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe.c: the Probe Lab's templates, their probes, the model's runs of
 * them, verification, fit and conclusion (ks-probe.h; docs/PROBES.md). */

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-probe.h"

#include "ks-analysis.h"
#include "ks-cuda.h"
#include "ks-gpu-db.h"
#include "ks-json.h"
#include "ks-launch.h"
#include "ks-lower.h"
#include "ks-ptx.h"
#include "ks-sass.h"
#include "ks-sim.h"
#include "ks-timing.h"

#define FFMA_PER_INNER  32      /* FFMAs of the CUDA's inner loop (seeds/002) */
#define FFMA_UNROLL     4       /* nvcc unrolls the outer loop four times */
#define FFMA_PER_BODY   (FFMA_PER_INNER * FFMA_UNROLL)  /* per iteration of the PTX loop */
#define FFMA_TOTAL      32768   /* the accumulator sweep: FFMAs a point */
#define WARP_FFMAS      4096    /* the warp-count sweep: FFMAs a warp */
#define SHARED_ITERATIONS 64
#define SHARED_WORDS    8192
#define CHASE_STEP      128     /* bytes between the chase's elements: one per cache line */
#define CHASE_UNROLL    8
#define MIXED_ACCUMULATORS 8    /* of each instruction, in the mixed-pipe probe */
#define PRESSURE_THREADS 128    /* the register-pressure sweep's block */
#define PRESSURE_BLOCKS_PER_SM 16       /* its grid, a multiple of the SMs: more than fit */

typedef enum
{
  PROBE_FFMA_ACCUMULATORS,
  PROBE_FFMA_COUNT,
  PROBE_WARP_COUNT,
  PROBE_REGISTER_PRESSURE,
  PROBE_MIXED_PIPE,
  PROBE_SHARED_STRIDE,
  PROBE_POINTER_CHASE,
} ProbeKind;

/* An instruction a chain template times (--instruction): its PTX, the SASS
 * ptxas makes of it, and how the probe's CUDA writes it as inline PTX */
typedef enum
{
  REG_F32,
  REG_F64,
  REG_B32,
} RegClass;

typedef struct
{
  const char *name;             /* "ffma": --instruction's value */
  const char *sass;             /* "FFMA": the opcode ptxas makes of it */
  const char *ptx;              /* "fma.rn.f32": what the verification counts */
  KsPtxOpcode opcode;
  KsPtxType type;
  RegClass reg;
  const char *body;             /* the timed instruction: printf of (accumulator, accumulator) */
  const char *b;                /* the PTX that sets the operand b (%f2, %fd2 or %r2) */
  uint32_t zero;                /* the first accumulator's start: f32 bits added to tid */
  const char *cuda_type, *cuda_constraint, *cuda_asm, *cuda_b, *cuda_init;
} ProbeOp;

static const ProbeOp probe_ops[] = {
  { "ffma", "FFMA", "fma.rn.f32", KS_PTX_OPC_FMA, KS_PTX_TYPE_F32, REG_F32,
    "\tfma.rn.f32 %%f%u, %%f%u, %%f2, %%f2;\n", "\tmov.f32 %f2, 0f3F7FF972;\n", 0,
    "float", "f", "fma.rn.f32 %0, %0, %1, %1;", "0.9999f",
    "(float) threadIdx.x + (k ? __int_as_float(0x3F800000 + (k << 16)) : 0.0f)" },
  { "fadd", "FADD", "add.f32", KS_PTX_OPC_ADD, KS_PTX_TYPE_F32, REG_F32,
    "\tadd.f32 %%f%u, %%f%u, %%f2;\n", "\tmov.f32 %f2, 0f3F7FF972;\n", 0,
    "float", "f", "add.f32 %0, %0, %1;", "0.9999f",
    "(float) threadIdx.x + (k ? __int_as_float(0x3F800000 + (k << 16)) : 0.0f)" },
  { "iadd3", "IADD3", "add.u32", KS_PTX_OPC_ADD, KS_PTX_TYPE_U32, REG_B32,
    "\tadd.u32 %%r%u, %%r%u, %%r2;\n", "\tor.b32 %r2, %r1, 1;\n", 0,
    "unsigned", "r", "add.u32 %0, %0, %1;", "threadIdx.x | 1", "threadIdx.x + k" },
  { "imad", "IMAD", "mad.lo.u32", KS_PTX_OPC_MAD, KS_PTX_TYPE_U32, REG_B32,
    "\tmad.lo.u32 %%r%u, %%r%u, %%r2, %%r2;\n", "\tor.b32 %r2, %r1, 1;\n", 0,
    "unsigned", "r", "mad.lo.u32 %0, %0, %1, %1;", "threadIdx.x | 1", "threadIdx.x + k" },
  /* rsqrt converges to 1 from any positive start; .ftz keeps it one MUFU.RSQ */
  { "mufu", "MUFU.RSQ", "rsqrt.approx.ftz.f32", KS_PTX_OPC_RSQRT, KS_PTX_TYPE_F32, REG_F32,
    "\trsqrt.approx.ftz.f32 %%f%u, %%f%u;\n", "\tmov.f32 %f2, 0f3F7FF972;\n", 0x3F800000u,
    "float", "f", "rsqrt.approx.ftz.f32 %0, %0;", "0.9999f",
    "(float) threadIdx.x + (k ? __int_as_float(0x3F800000 + (k << 16)) : 1.0f)" },
  { "dfma", "DFMA", "fma.rn.f64", KS_PTX_OPC_FMA, KS_PTX_TYPE_F64, REG_F64,
    "\tfma.rn.f64 %%fd%u, %%fd%u, %%fd2, %%fd2;\n", "\tmov.f64 %fd2, 0d3FEFFF2E48E8A71E;\n", 0,
    "double", "d", "fma.rn.f64 %0, %0, %1, %1;", "0.9999",
    "(double) threadIdx.x + (k ? 1.0 + k / 16.0 : 0.0)" },
  /* two halves of 0.9995 (0x3BFF) a lane */
  { "hfma2", "HFMA2", "fma.rn.f16x2", KS_PTX_OPC_FMA, KS_PTX_TYPE_F16X2, REG_B32,
    "\tfma.rn.f16x2 %%r%u, %%r%u, %%r2, %%r2;\n", "\tmov.b32 %r2, 0x3BFF3BFF;\n", 0,
    "unsigned", "r", "fma.rn.f16x2 %0, %0, %1, %1;", "0x3BFF3BFFu", "0x3C003C00u + k" },
  /* each lane's value goes to its neighbour and back: a chain through the
   * crossbar */
  { "shfl", "SHFL.BFLY", "shfl.sync.bfly.b32", KS_PTX_OPC_SHFL, KS_PTX_TYPE_B32, REG_B32,
    "\tshfl.sync.bfly.b32 %%r%u, %%r%u, 1, 31, -1;\n", "\tor.b32 %r2, %r1, 1;\n", 0,
    "unsigned", "r", "shfl.sync.bfly.b32 %0, %0, 1, 31, -1;", "threadIdx.x | 1",
    "threadIdx.x + k" },
};

static const ProbeOp *
find_op (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (probe_ops); i++)
    if (g_ascii_strcasecmp (probe_ops[i].name, name) == 0)
      return &probe_ops[i];
  return NULL;
}

struct _KsProbeTemplate
{
  ProbeKind kind;
  const char *name;
  const char *title;
  const char *variable;
  const char *hypothesis;
  const char *axis;             /* the variable as the plot's x axis names it */
  const double *values;
  guint n_values;
};

static const double accumulators[] = { 1, 2, 4, 8, 16 };
static const double ffma_counts[] = { 1024, 4096, 16384, 65536, 131072 };
static const double warp_counts[] = { 1, 2, 4, 8, 16, 32 };
/* ptxas 13 gives x + 9 registers for x >= 64 (sm_86), far from the 255
 * where it would spill */
static const double live_values[] = { 0, 32, 64, 96, 128, 160, 192, 224 };
static const double iadd3_shares[] = { 0, 25, 50, 75, 100 };
static const double strides[] = { 1, 2, 4, 8, 16, 32 };
static const double working_sets[] = { 8192, 32768, 524288, 2097152, 33554432 };

static const KsProbeTemplate templates[] = {
  { PROBE_FFMA_ACCUMULATORS, "accumulators", N_("Instruction latency and throughput"),
    "accumulators",
    N_("With one accumulator every instruction waits for the one before, so the time per "
       "instruction is its latency; with enough independent accumulators the warp issues as "
       "fast as the instruction's pipe accepts them and the latency is hidden."),
    N_("independent accumulators"), accumulators, G_N_ELEMENTS (accumulators) },
  { PROBE_FFMA_COUNT, "chain-length", N_("Chain length: T(N) = L N + C"), "instructions",
    N_("The cycles of a dependent chain grow by the instruction's latency L per instruction, "
       "over a fixed cost C of the timer and the set-up."),
    N_("instructions timed in warp 0"), ffma_counts, G_N_ELEMENTS (ffma_counts) },
  { PROBE_WARP_COUNT, "warp-count", N_("Hiding latency with warps"), "warps",
    N_("One warp with a dependent chain issues an instruction once per latency; with enough "
       "warps on each of the SM's four schedulers, some warp is ready every cycle and the "
       "latency is hidden (CUDA C++ Programming Guide, \"Multiprocessor Level\")."),
    N_("warps in the block"), warp_counts, G_N_ELEMENTS (warp_counts) },
  { PROBE_REGISTER_PRESSURE, "register-pressure", N_("Register pressure and occupancy"),
    "live_values",
    N_("The SM's registers are shared by its warps: past a point, more registers a thread leave "
       "room for fewer warps, and once too few warps are resident to hide a dependent chain's "
       "latency, the SM issues more slowly."),
    N_("values each thread holds in registers"), live_values, G_N_ELEMENTS (live_values) },
  { PROBE_MIXED_PIPE, "mixed-pipe", N_("FFMA and IADD3: one pipe or two?"), "iadd3_percent",
    N_("If FFMA and IADD3 run on separate pipes, a warp mixing independent FFMAs and IADD3s "
       "issues faster than one unit for both would (the mean of the two alone); if they share "
       "one unit, the mix is no faster than that."),
    N_("IADD3 share of the instructions (%)"), iadd3_shares, G_N_ELEMENTS (iadd3_shares) },
  { PROBE_SHARED_STRIDE, "shared-stride", N_("Shared-memory bank conflicts"), "stride_words",
    N_("A warp whose lanes read shared words s apart puts gcd(s, 32) lanes in one bank of 32, and "
       "its load takes that many passes."),
    N_("stride between the lanes' words"), strides, G_N_ELEMENTS (strides) },
  { PROBE_POINTER_CHASE, "pointer-chase", N_("Cache hierarchy: L1, L2 and DRAM latency"),
    "working_set_bytes",
    N_("A chase of dependent loads over a working set that fits in L1 takes the L1 hit latency a "
       "load; past L1 it takes L2's, past L2 DRAM's."),
    N_("working set"), working_sets, G_N_ELEMENTS (working_sets) },
};

/* The names the first two templates had when they timed FFMA alone; they
 * still run, with --instruction ffma */
static const struct
{
  const char *alias, *name;
} aliases[] = {
  { "ffma-accumulators", "accumulators" },
  { "ffma-count", "chain-length" },
};

static const KsProbeTemplate *const template_list[] = {
  &templates[0], &templates[1], &templates[2], &templates[3], &templates[4], &templates[5],
  &templates[6],
};

const KsProbeTemplate *const *
ks_probe_templates (guint *n)
{
  *n = G_N_ELEMENTS (template_list);
  return template_list;
}

const KsProbeTemplate *
ks_probe_find (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_strcmp0 (aliases[i].alias, name) == 0)
      name = aliases[i].name;
  for (guint i = 0; i < G_N_ELEMENTS (templates); i++)
    if (g_strcmp0 (templates[i].name, name) == 0)
      return &templates[i];
  return NULL;
}

const char *
ks_probe_template_name (const KsProbeTemplate *tmpl)
{
  return tmpl->name;
}

const char *
ks_probe_template_title (const KsProbeTemplate *tmpl)
{
  return _(tmpl->title);
}

const char *
ks_probe_template_variable (const KsProbeTemplate *tmpl)
{
  return tmpl->variable;
}

const char *
ks_probe_template_hypothesis (const KsProbeTemplate *tmpl)
{
  return _(tmpl->hypothesis);
}

const char *
ks_probe_template_axis (const KsProbeTemplate *tmpl)
{
  return tmpl->axis;
}

gboolean
ks_probe_template_x_is_bytes (const KsProbeTemplate *tmpl)
{
  return tmpl->kind == PROBE_POINTER_CHASE;
}

/* The sweeps of many warps on one SM (warp-count, register-pressure):
 * timed under the round-robin scheduler, over the cycles every warp was in
 * its loop (analyse_text(), measure()) */
static gboolean
many_warps (ProbeKind kind)
{
  return kind == PROBE_WARP_COUNT || kind == PROBE_REGISTER_PRESSURE;
}

static gboolean
is_chain (ProbeKind kind)
{
  return kind == PROBE_FFMA_ACCUMULATORS || kind == PROBE_FFMA_COUNT || kind == PROBE_WARP_COUNT;
}

gboolean
ks_probe_template_takes_instruction (const KsProbeTemplate *tmpl)
{
  return is_chain (tmpl->kind);
}

const char *const *
ks_probe_instructions (guint *n)
{
  /* probe_ops' names, in its order (tests/test-probe.c checks), NULL
   * ended; constant, since the lab's worker threads read it too */
  static const char *const names[] = {
    "ffma", "fadd", "iadd3", "imad", "mufu", "dfma", "hfma2", "shfl", NULL,
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (probe_ops) + 1);
  *n = G_N_ELEMENTS (probe_ops);
  return names;
}

const char *
ks_probe_instruction_sass (const char *instruction)
{
  const ProbeOp *op = find_op (instruction);

  return op ? op->sass : NULL;
}

/* A chain's title, untranslated, with %s for its instruction; NULL for
 * the templates that keep their own title */
static const char *
chain_title (ProbeKind kind)
{
  switch (kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
      /* TRANSLATORS: %s is a GPU instruction's name, as FFMA */
      return N_("%s latency and throughput");
    case PROBE_FFMA_COUNT:
      /* TRANSLATORS: %s is a GPU instruction's name, as FFMA */
      return N_("%s chain length: T(N) = L N + C");
    case PROBE_WARP_COUNT:
      /* TRANSLATORS: %s is a GPU instruction's name, as FFMA */
      return N_("Hiding %s latency with warps");
    default:
      return NULL;
    }
}

/* The title in the user's language, or in English (the files and the
 * JSON are English, as the conclusion is) */
static char *
title_of (const KsProbeTemplate *tmpl,
          const char            *instruction,
          gboolean               translate)
{
  const ProbeOp *op = instruction ? find_op (instruction) : &probe_ops[0];
  const char *format = chain_title (tmpl->kind);

  if (format == NULL)
    return g_strdup (translate ? _(tmpl->title) : tmpl->title);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  return g_strdup_printf (translate ? _(format) : format, op ? op->sass : "?");
#pragma GCC diagnostic pop
}

char *
ks_probe_title (const KsProbeTemplate *tmpl,
                const char            *instruction)
{
  return title_of (tmpl, instruction, TRUE);
}

void
ks_probe_options_init (KsProbeOptions *options)
{
  memset (options, 0, sizeof *options);
}

/* ---------------------------------------------------------------------- */
/* The probes                                                             */

typedef enum
{
  VARIANT_PROBE,                /* the target in the timed loop */
  VARIANT_EMPTY_LOOP,           /* the same loop without it */
  VARIANT_TIMER,                /* the two clock reads alone */
} Variant;

/* What a probe is made of, for one value of the variable */
typedef struct
{
  ProbeKind kind;
  uint32_t x;
  uint32_t accumulators;        /* FFMA: independent chains */
  uint32_t iterations;          /* of the timed loop */
  uint32_t per_body;            /* target instructions per iteration */
  uint32_t threads;
  uint32_t blocks;              /* of the grid; the register-pressure sweep runs one wave of
                                 * the SM's of them (the analysis's block sample) */
  uint32_t live;                /* register pressure: values held across the timed loop */
  uint32_t chase_elements;      /* pointer chase: elements on the chain */
  const char *target;           /* the GPU's architecture: the PTX's .target */
  const ProbeOp *op;            /* the chains' instruction */
} Shape;

static Shape
shape_of (ProbeKind      kind,
          double         x,
          const ProbeOp *op)
{
  Shape s = { .kind = kind, .x = (uint32_t) x, .threads = 32, .blocks = 1,
              .op = op ? op : &probe_ops[0] };

  switch (kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
      s.accumulators = s.x;
      s.iterations = FFMA_TOTAL / FFMA_PER_BODY;
      s.per_body = FFMA_PER_BODY;
      break;
    case PROBE_FFMA_COUNT:
      s.accumulators = 1;
      s.iterations = MAX (s.x / FFMA_PER_BODY, 1u);
      s.per_body = FFMA_PER_BODY;
      break;
    case PROBE_WARP_COUNT:
      s.accumulators = 1;
      s.iterations = WARP_FFMAS / FFMA_PER_BODY;
      s.per_body = FFMA_PER_BODY;
      s.threads = 32 * s.x;
      break;
    case PROBE_REGISTER_PRESSURE:
      /* one dependent FFMA chain a warp, so that the warps resident hide
       * its latency or not; the grid fills every SM (the run sets it) */
      s.accumulators = 1;
      s.iterations = WARP_FFMAS / FFMA_PER_BODY;
      s.per_body = FFMA_PER_BODY;
      s.threads = PRESSURE_THREADS;
      s.live = s.x;
      break;
    case PROBE_MIXED_PIPE:
      /* eight FFMA and eight IADD3 accumulators: more chains than either
       * pipe's latency over its rate, so that only the pipes limit it */
      s.accumulators = MIXED_ACCUMULATORS;
      s.iterations = FFMA_TOTAL / FFMA_PER_BODY;
      s.per_body = FFMA_PER_BODY;
      break;
    case PROBE_SHARED_STRIDE:
      s.iterations = SHARED_ITERATIONS;
      s.per_body = 32;
      break;
    case PROBE_POINTER_CHASE:
    default:
      /* one thread; the second pass over the chain is timed */
      s.threads = 1;
      s.chase_elements = MAX (s.x / CHASE_STEP, (uint32_t) CHASE_UNROLL);
      s.iterations = s.chase_elements / CHASE_UNROLL;
      s.per_body = CHASE_UNROLL;
      break;
    }
  return s;
}

/* Whether the mixed-pipe probe's j-th instruction of a body is an IADD3:
 * x/25 of every four, spread among the FFMAs (F I F I at half and half), so
 * that a warp issuing in order can keep both pipes busy */
static gboolean
mixed_is_iadd3 (const Shape *s,
                uint32_t     j)
{
  uint32_t k = s->x / 25, pos = j % 4;

  return (pos + 1) * k / 4 > pos * k / 4;
}

/* The distinct accumulators of one kind the mixed-pipe body uses */
static uint32_t
mixed_accumulators (const Shape *s,
                    gboolean     iadd3)
{
  uint32_t n = 0;

  for (uint32_t j = 0; j < MIXED_ACCUMULATORS; j++)
    if (mixed_is_iadd3 (s, j) == iadd3)
      n++;
  return n;
}

/* The k-th f32 accumulator's start, added to the thread's index: apart
 * from the others, so that no two chains compute the same */
static uint32_t
f32_start (const ProbeOp *op,
           uint32_t       k)
{
  return k == 0 ? op->zero : 0x3F800000u + (k << 16);
}

/* The oldest PTX ISA that knows the architecture (PTX ISA, "Release
 * History"), so that every toolkit that can make its code reads it */
static const char *
ptx_version (const char *target)
{
  static const struct
  {
    const char *arch, *version;
  } table[] = {
    { "sm_50", "4.0" }, { "sm_52", "4.1" }, { "sm_53", "4.2" }, { "sm_60", "5.0" },
    { "sm_61", "5.0" }, { "sm_62", "5.0" }, { "sm_70", "6.0" }, { "sm_72", "6.1" },
    { "sm_75", "6.3" }, { "sm_80", "7.0" }, { "sm_86", "7.1" }, { "sm_87", "7.4" },
    { "sm_89", "7.8" }, { "sm_90", "7.8" }, { "sm_100", "8.6" }, { "sm_101", "8.6" },
    { "sm_103", "8.8" }, { "sm_120", "8.7" }, { "sm_121", "8.8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_strcmp0 (table[i].arch, target) == 0)
      return table[i].version;
  return "8.0";
}

/* The PTX of a probe: what the CUDA of probe_cuda() compiles to, written
 * so that each instruction is the one the verification looks for */
static char *
probe_ptx (const Shape *s,
           Variant      v)
{
  GString *p = g_string_new (NULL);
  gboolean loop = v != VARIANT_TIMER, target = v == VARIANT_PROBE;
  gboolean pressure = s->kind == PROBE_REGISTER_PRESSURE;
  const char *index = pressure ? "%r49" : "%r1";

  g_string_append_printf (p, "//\n// KernelScope probe (seeds/002): the timed region lies between "
                             "the two reads of %%clock64\n//\n"
                             ".version %s\n.target %s\n.address_size 64\n\n",
                          ptx_version (s->target), s->target);
  if (s->kind == PROBE_SHARED_STRIDE)
    g_string_append_printf (p, ".shared .align 4 .b32 words[%u];\n\n", SHARED_WORDS);
  g_string_append_printf (p, ".visible .entry probe(\n\t.param .u64 out,\n\t.param .u64 cycles%s\n)\n"
                             "{\n\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<64>;\n\t.reg .b64 %%rd<16>;\n"
                             "\t.reg .f32 %%f<48>;\n\t.reg .f64 %%fd<24>;\n",
                          pressure ? ",\n\t.param .u64 keep" : "");
  if (pressure)
    g_string_append_printf (p, "\t.reg .b32 %%k<%u>;\n", MAX (s->live, 1u));
  g_string_append (p, "\n\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [cycles];\n"
                      "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
                      "\tmov.u32 %r1, %tid.x;\n");
  /* the thread's word in out and cycles: its index in the grid */
  if (pressure)
    g_string_append (p, "\tld.param.u64 %rd3, [keep];\n\tcvta.to.global.u64 %rd3, %rd3;\n"
                        "\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n"
                        "\tmad.lo.u32 %r49, %r3, %r4, %r1;\n");
  switch (s->kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
    case PROBE_FFMA_COUNT:
    case PROBE_WARP_COUNT:
    case PROBE_REGISTER_PRESSURE:
      /* acc = acc * b + b (FFMA): bounded, and never folded away; each
       * accumulator starts apart from the others */
      g_string_append (p, "\tcvt.rn.f32.u32 %f1, %r1;\n");
      g_string_append (p, s->op->b);
      for (uint32_t k = 0; k < s->accumulators; k++)
        switch (s->op->reg)
          {
          case REG_F32:
            g_string_append_printf (p, "\tadd.f32 %%f%u, %%f1, 0f%08X;\n", 8 + k,
                                    f32_start (s->op, k));
            break;
          case REG_F64:
            if (k == 0)
              g_string_append (p, "\tcvt.rn.f64.u32 %fd1, %r1;\n");
            g_string_append_printf (p, "\tadd.f64 %%fd%u, %%fd1, 0d%016" G_GINT64_MODIFIER "X;\n",
                                    8 + k, k == 0 ? (guint64) 0
                                    : G_GUINT64_CONSTANT (0x3FF0000000000000) + ((guint64) k << 48));
            break;
          case REG_B32:
          default:
            if (s->op->type == KS_PTX_TYPE_F16X2)
              g_string_append_printf (p, "\tmov.b32 %%r%u, %u;\n", 8 + k, 0x3C003C00u + k);
            else
              g_string_append_printf (p, "\tadd.u32 %%r%u, %%r1, %u;\n", 8 + k, k);
            break;
          }
      /* the values held: loaded once (volatile: ptxas can neither drop,
       * repeat nor move them) before the timer, used after it */
      for (uint32_t k = 0; k < s->live; k++)
        g_string_append_printf (p, "\tld.volatile.global.u32 %%k%u, [%%rd3+%u];\n", k, 4 * k);
      break;
    case PROBE_MIXED_PIPE:
      /* the FFMA and IADD3 chains' own operands and starts */
      g_string_append (p, "\tcvt.rn.f32.u32 %f1, %r1;\n");
      g_string_append (p, find_op ("ffma")->b);
      g_string_append (p, find_op ("iadd3")->b);
      for (uint32_t k = 0; k < MIXED_ACCUMULATORS; k++)
        g_string_append_printf (p, "\tadd.f32 %%f%u, %%f1, 0f%08X;\n\tadd.u32 %%r%u, %%r1, %u;\n",
                                8 + k, f32_start (find_op ("ffma"), k), 8 + k, k);
      break;
    case PROBE_SHARED_STRIDE:
      g_string_append_printf (p, "\tmul.lo.u32 %%r2, %%r1, %u;\n\trem.u32 %%r2, %%r2, %u;\n"
                                 "\tmov.u32 %%r3, words;\n\tmad.lo.u32 %%r4, %%r2, 4, %%r3;\n"
                                 "\tst.shared.u32 [%%r4], %%r1;\n", s->x, SHARED_WORDS);
      break;
    case PROBE_POINTER_CHASE:
      /* the chain: each element holds the address of the next, CHASE_STEP
       * bytes on, the last the first's; then one pass to warm the caches */
      g_string_append_printf (p, "\tmov.u32 %%r2, 0;\n\tmov.u64 %%rd3, %%rd1;\n"
                                 "$L_chain:\n"
                                 "\tadd.u32 %%r2, %%r2, 1;\n"
                                 "\tsetp.lt.u32 %%p1, %%r2, %u;\n"
                                 "\tselp.b32 %%r3, %%r2, 0, %%p1;\n"
                                 "\tmul.wide.u32 %%rd4, %%r3, %u;\n"
                                 "\tadd.s64 %%rd5, %%rd1, %%rd4;\n"
                                 "\tst.global.u64 [%%rd3], %%rd5;\n"
                                 "\tmov.u64 %%rd3, %%rd5;\n"
                                 "\t@%%p1 bra $L_chain;\n"
                                 "\tmov.u64 %%rd6, %%rd1;\n\tmov.u32 %%r2, 0;\n"
                                 "$L_warm:\n"
                                 "\tld.global.u64 %%rd6, [%%rd6];\n"
                                 "\tadd.u32 %%r2, %%r2, 1;\n"
                                 "\tsetp.lt.u32 %%p1, %%r2, %u;\n"
                                 "\t@%%p1 bra $L_warm;\n",
                              s->chase_elements, CHASE_STEP, s->chase_elements);
      break;
    }
  /* the set-up is over before the timer starts */
  g_string_append (p, "\tmov.u32 %r50, 0;\n\tbar.sync 0;\n\tmov.u64 %rd10, %clock64;\n");
  if (loop)
    {
      g_string_append (p, "$L_timed:\n");
      for (uint32_t j = 0; target && j < s->per_body; j++)
        switch (s->kind)
          {
          case PROBE_FFMA_ACCUMULATORS:
          case PROBE_FFMA_COUNT:
          case PROBE_WARP_COUNT:
          case PROBE_REGISTER_PRESSURE:
            {
              uint32_t a = 8 + j % s->accumulators;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
              g_string_append_printf (p, s->op->body, a, a);
#pragma GCC diagnostic pop
            }
            break;
          case PROBE_MIXED_PIPE:
            {
              uint32_t a = 8 + j % MIXED_ACCUMULATORS;

              if (mixed_is_iadd3 (s, j))
                g_string_append_printf (p, "\tadd.u32 %%r%u, %%r%u, %%r2;\n", a, a);
              else
                g_string_append_printf (p, "\tfma.rn.f32 %%f%u, %%f%u, %%f2, %%f2;\n", a, a);
            }
            break;
          case PROBE_SHARED_STRIDE:
            /* volatile: the same address every time, which ptxas would
             * otherwise load once for the whole loop (seen in its SASS:
             * one LDS between the clock reads) */
            g_string_append_printf (p, "\tld.volatile.shared.u32 %%r%u, [%%r4];\n", 10 + j % 32);
            break;
          case PROBE_POINTER_CHASE:
            g_string_append (p, "\tld.global.u64 %rd6, [%rd6];\n");
            break;
          }
      /* the counter is signed, so that an add.u32 chain does not count it */
      g_string_append_printf (p, "\tadd.s32 %%r50, %%r50, 1;\n\tsetp.lt.u32 %%p1, %%r50, %u;\n"
                                 "\t@%%p1 bra $L_timed;\n", s->iterations);
    }
  g_string_append (p, "\tmov.u64 %rd11, %clock64;\n\tsub.s64 %rd12, %rd11, %rd10;\n");
  /* the results, after the timer: the checksum, and the cycles */
  switch (s->kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
    case PROBE_FFMA_COUNT:
    case PROBE_WARP_COUNT:
    case PROBE_REGISTER_PRESSURE:
      /* the sum of the accumulators (their exclusive or for the 32-bit
       * ones), one word a thread */
      for (uint32_t k = 1; k < s->accumulators; k++)
        g_string_append_printf (p, s->op->reg == REG_F32 ? "\tadd.f32 %%f8, %%f8, %%f%u;\n"
                                   : s->op->reg == REG_F64 ? "\tadd.f64 %%fd8, %%fd8, %%fd%u;\n"
                                   : "\txor.b32 %%r8, %%r8, %%r%u;\n", 8 + k);
      if (s->op->reg == REG_F64)
        g_string_append (p, "\tcvt.rn.f32.f64 %f8, %fd8;\n");
      /* and the values held (zeros: the chain's sum stays the checksum) */
      for (uint32_t k = 0; k < s->live; k++)
        g_string_append_printf (p, k == 0 ? "\tmov.u32 %%r9, %%k0;\n"
                                          : "\tadd.u32 %%r9, %%r9, %%k%u;\n", k);
      if (s->live > 0)
        g_string_append (p, "\tcvt.rn.f32.u32 %f3, %r9;\n\tadd.f32 %f8, %f8, %f3;\n");
      g_string_append_printf (p, "\tmul.wide.u32 %%rd7, %s, 4;\n\tadd.s64 %%rd8, %%rd1, %%rd7;\n",
                              index);
      g_string_append (p, s->op->reg == REG_B32 ? "\tst.global.b32 [%rd8], %r8;\n"
                                                : "\tst.global.f32 [%rd8], %f8;\n");
      break;
    case PROBE_MIXED_PIPE:
      /* the FFMAs' sum, and the IADD3s' exclusive or beside it */
      for (uint32_t k = 1; k < MIXED_ACCUMULATORS; k++)
        g_string_append_printf (p, "\tadd.f32 %%f8, %%f8, %%f%u;\n\txor.b32 %%r8, %%r8, %%r%u;\n",
                                8 + k, 8 + k);
      g_string_append (p, "\tmul.wide.u32 %rd7, %r1, 8;\n\tadd.s64 %rd8, %rd1, %rd7;\n"
                          "\tst.global.f32 [%rd8], %f8;\n\tst.global.b32 [%rd8+4], %r8;\n");
      break;
    case PROBE_SHARED_STRIDE:
      g_string_append (p, "\tmov.u32 %r5, 0;\n");
      for (uint32_t k = 0; target && k < 32; k++)
        g_string_append_printf (p, "\tadd.u32 %%r5, %%r5, %%r%u;\n", 10 + k);
      g_string_append (p, "\tcvt.rn.f32.u32 %f8, %r5;\n\tmul.wide.u32 %rd7, %r1, 4;\n"
                          "\tadd.s64 %rd8, %rd1, %rd7;\n\tst.global.f32 [%rd8], %f8;\n");
      break;
    case PROBE_POINTER_CHASE:
      /* where the chase ended, after the chain's first element */
      g_string_append (p, "\tsub.s64 %rd7, %rd6, %rd1;\n\tst.global.u64 [%rd1+8], %rd7;\n");
      break;
    }
  g_string_append_printf (p, "\tmul.wide.u32 %%rd7, %s, 8;\n\tadd.s64 %%rd8, %%rd2, %%rd7;\n"
                             "\tst.global.u64 [%%rd8], %%rd12;\n\tret;\n}\n", index);
  return g_string_free (p, FALSE);
}

/* The CUDA a user compiles for a GPU: the same structure, the target as
 * inline PTX so that nvcc cannot change it */
static char *
probe_cuda (const Shape *s)
{
  GString *c = g_string_new (NULL);

  g_string_append (c, "// KernelScope probe (seeds/002).  Build:\n"
                      "//   nvcc -O3 -lineinfo -Xptxas=-v -arch=sm_XX probe.cu -o probe\n"
                      "#include <cstdio>\n#include <cstdint>\n\n");
  switch (s->kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
    case PROBE_FFMA_COUNT:
    case PROBE_WARP_COUNT:
      {
        const ProbeOp *op = s->op;
        gboolean integer = op->reg == REG_B32;

        g_string_append_printf (c, "#define ACCUMULATORS %u\n#define ITERATIONS %u\n\n",
                                s->accumulators, s->iterations * FFMA_UNROLL);
        g_string_append_printf (c,
          "__global__ void probe(float *out, long long *cycles)\n{\n"
          "  %s b = %s, acc[ACCUMULATORS];\n"
          "#pragma unroll\n"
          "  for (int k = 0; k < ACCUMULATORS; k++)\n"
          "    acc[k] = %s;\n"
          "  __syncthreads();\n"
          "  long long t0 = clock64();\n"
          "#pragma unroll 4\n"
          "  for (int i = 0; i < ITERATIONS; i++)\n"
          "    {\n"
          "#pragma unroll\n"
          "      for (int j = 0; j < 32; j++)\n"
          "        asm volatile(\"%s\" : \"+%s\"(acc[j %% ACCUMULATORS]) : \"%s\"(b));\n"
          "    }\n"
          "  long long t1 = clock64();\n"
          "  %s sum = acc[0];\n"
          "#pragma unroll\n"
          "  for (int k = 1; k < ACCUMULATORS; k++)\n"
          "    sum %s= acc[k];\n"
          "  out[threadIdx.x] = %s;\n"
          "  cycles[threadIdx.x] = t1 - t0;\n}\n\n",
          op->cuda_type, op->cuda_b, op->cuda_init, op->cuda_asm, op->cuda_constraint,
          op->cuda_constraint, op->cuda_type, integer ? "^" : "+",
          integer ? "__uint_as_float(sum)" : op->reg == REG_F64 ? "(float) sum" : "sum");
      }
      break;
    case PROBE_REGISTER_PRESSURE:
      g_string_append_printf (c, "#define LIVE %u   /* values each thread holds in registers */\n"
                                 "#define ITERATIONS %u\n#define THREADS %u\n\n",
                              s->live, s->iterations * FFMA_UNROLL, s->threads);
      g_string_append (c,
        "__global__ void probe(float *out, long long *cycles, const unsigned *keep)\n{\n"
        "  float b = 0.9999f, acc = (float) threadIdx.x;\n"
        "  unsigned live[LIVE > 0 ? LIVE : 1], i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  /* loaded once, before the timer, and used after it: held in registers */\n"
        "#pragma unroll\n"
        "  for (int k = 0; k < LIVE; k++)\n"
        "    live[k] = ((const volatile unsigned *) keep)[k];\n"
        "  __syncthreads();\n"
        "  long long t0 = clock64();\n"
        "#pragma unroll 4\n"
        "  for (int n = 0; n < ITERATIONS; n++)\n"
        "    {\n"
        "#pragma unroll\n"
        "      for (int j = 0; j < 32; j++)\n"
        "        asm volatile(\"fma.rn.f32 %0, %0, %1, %1;\" : \"+f\"(acc) : \"f\"(b));\n"
        "    }\n"
        "  long long t1 = clock64();\n"
        "  unsigned sum = 0;\n"
        "#pragma unroll\n"
        "  for (int k = 0; k < LIVE; k++)\n"
        "    sum += live[k];\n"
        "  out[i] = acc + (float) sum;\n"
        "  cycles[i] = t1 - t0;\n}\n\n"
        "/* One wave: as many blocks as every SM holds at once */\n"
        "int main(void)\n{\n"
        "  int sms = 0, per_sm = 0;\n"
        "  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n"
        "  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe, THREADS, 0);\n"
        "  size_t n = (size_t) sms * per_sm * THREADS;\n"
        "  float *out; long long *cycles, host[1]; unsigned *keep;\n"
        "  cudaMalloc(&out, n * sizeof (float));\n"
        "  cudaMalloc(&cycles, n * sizeof (long long));\n"
        "  cudaMalloc(&keep, (LIVE + 1) * sizeof (unsigned));\n"
        "  cudaMemset(keep, 0, (LIVE + 1) * sizeof (unsigned));\n"
        "  probe<<<sms * per_sm, THREADS>>>(out, cycles, keep);\n"
        "  cudaMemcpy(host, cycles, sizeof host, cudaMemcpyDeviceToHost);\n"
        "  printf(\"blocks per SM %d, cycles %lld\\n\", per_sm, host[0]);\n"
        "  return cudaDeviceSynchronize() != cudaSuccess;\n}\n");
      return g_string_free (c, FALSE);
    case PROBE_MIXED_PIPE:
      g_string_append_printf (c, "#define IADD3_PER_4 %u   /* of every four instructions */\n"
                                 "#define ITERATIONS %u\n\n", s->x / 25,
                              s->iterations * FFMA_UNROLL);
      g_string_append (c, "__global__ void probe(float *out, long long *cycles)\n{\n");
      /* the FFMA and IADD3 chains' own operands and starts */
      g_string_append_printf (c,
        "  float b = %s, f[8];\n"
        "  unsigned c = %s, n[8];\n"
        "#pragma unroll\n"
        "  for (int k = 0; k < 8; k++)\n"
        "    {\n"
        "      f[k] = %s;\n"
        "      n[k] = %s;\n"
        "    }\n", find_op ("ffma")->cuda_b, find_op ("iadd3")->cuda_b,
        find_op ("ffma")->cuda_init, find_op ("iadd3")->cuda_init);
      g_string_append (c,
        "  __syncthreads();\n"
        "  long long t0 = clock64();\n"
        "#pragma unroll 4\n"
        "  for (int i = 0; i < ITERATIONS; i++)\n"
        "    {\n"
        "#pragma unroll\n"
        "      for (int j = 0; j < 32; j++)\n"
        "        if ((j % 4 + 1) * IADD3_PER_4 / 4 > j % 4 * IADD3_PER_4 / 4)\n"
        "          asm volatile(\"add.u32 %0, %0, %1;\" : \"+r\"(n[j % 8]) : \"r\"(c));\n"
        "        else\n"
        "          asm volatile(\"fma.rn.f32 %0, %0, %1, %1;\" : \"+f\"(f[j % 8]) : \"f\"(b));\n"
        "    }\n"
        "  long long t1 = clock64();\n"
        "  float sum = f[0];\n"
        "  unsigned x = n[0];\n"
        "#pragma unroll\n"
        "  for (int k = 1; k < 8; k++)\n"
        "    {\n"
        "      sum += f[k];\n"
        "      x ^= n[k];\n"
        "    }\n"
        "  out[2 * threadIdx.x] = sum;\n"
        "  out[2 * threadIdx.x + 1] = __uint_as_float(x);\n"
        "  cycles[threadIdx.x] = t1 - t0;\n}\n\n");
      break;
    case PROBE_SHARED_STRIDE:
      g_string_append_printf (c, "#define STRIDE %u\n#define ITERATIONS %u\n#define WORDS %u\n\n",
                              s->x, s->iterations, SHARED_WORDS);
      g_string_append (c,
        "__global__ void probe(float *out, long long *cycles)\n{\n"
        "  __shared__ unsigned words[WORDS];\n"
        "  unsigned *p = &words[threadIdx.x * STRIDE % WORDS], r[32];\n"
        "  *p = threadIdx.x;\n"
        "  __syncthreads();\n"
        "  long long t0 = clock64();\n"
        "#pragma unroll 1\n"
        "  for (int i = 0; i < ITERATIONS; i++)\n"
        "    {\n"
        "#pragma unroll\n"
        "      for (int j = 0; j < 32; j++)\n"
        "        asm volatile(\"ld.volatile.shared.u32 %0, [%1];\" : \"=r\"(r[j]) : \"r\"((unsigned) __cvta_generic_to_shared(p)));\n"
        "    }\n"
        "  long long t1 = clock64();\n"
        "  unsigned sum = 0;\n"
        "#pragma unroll\n"
        "  for (int j = 0; j < 32; j++)\n"
        "    sum += r[j];\n"
        "  out[threadIdx.x] = (float) sum;\n"
        "  cycles[threadIdx.x] = t1 - t0;\n}\n\n");
      break;
    case PROBE_POINTER_CHASE:
      g_string_append_printf (c, "#define ELEMENTS %u\n#define STEP %u\n#define UNROLL %u\n\n",
                              s->chase_elements, CHASE_STEP, CHASE_UNROLL);
      g_string_append (c,
        "__global__ void probe(unsigned long long *out, long long *cycles)\n{\n"
        "  char *base = (char *) out;\n"
        "  for (unsigned i = 0; i < ELEMENTS; i++)\n"
        "    *(char **) (base + (size_t) i * STEP) = base + (size_t) ((i + 1) % ELEMENTS) * STEP;\n"
        "  char *q = base;\n"
        "  for (unsigned i = 0; i < ELEMENTS; i++)\n"
        "    q = *(char *volatile *) q;\n"
        "  __syncthreads();\n"
        "  long long t0 = clock64();\n"
        "#pragma unroll 1\n"
        "  for (unsigned i = 0; i < ELEMENTS / UNROLL; i++)\n"
        "    {\n"
        "#pragma unroll\n"
        "      for (int j = 0; j < UNROLL; j++)\n"
        "        asm volatile(\"ld.global.u64 %0, [%0];\" : \"+l\"(q));\n"
        "    }\n"
        "  long long t1 = clock64();\n"
        "  out[1] = (unsigned long long) (q - base);\n"
        "  cycles[0] = t1 - t0;\n}\n\n");
      break;
    }
  g_string_append_printf (c,
    "int main(void)\n{\n"
    "  void *out; long long *cycles, host[1];\n"
    "  cudaMalloc(&out, %u);\n"
    "  cudaMalloc(&cycles, %u * sizeof (long long));\n"
    "  probe<<<1, %u>>>(%s, cycles);\n",
    s->kind == PROBE_POINTER_CHASE ? s->x : 4096u, s->threads, s->threads,
    s->kind == PROBE_POINTER_CHASE ? "(unsigned long long *) out" : "(float *) out");
  g_string_append (c,
    "  cudaMemcpy(host, cycles, sizeof host, cudaMemcpyDeviceToHost);\n"
    "  printf(\"cycles %lld\\n\", host[0]);\n"
    "  return cudaDeviceSynchronize() != cudaSuccess;\n}\n");
  return g_string_free (c, FALSE);
}

static char *
probe_spec (const Shape *s,
            const char  *ptx_name)
{
  uint64_t threads = (uint64_t) s->threads * s->blocks;
  uint64_t out_count = s->kind == PROBE_POINTER_CHASE ? MAX (s->x / 8, 2u) : MAX (threads, 1024);
  gboolean pressure = s->kind == PROBE_REGISTER_PRESSURE;
  g_autofree char *keep = pressure ? g_strdup_printf (",\n    \"keep\": {\"type\": \"u32\", "
                                                      "\"count\": %u}", MAX (s->live, 1u))
                                   : g_strdup ("");

  return g_strdup_printf ("{\n  \"ptx\": \"%s\",\n  \"kernel\": \"probe\",\n"
                          "  \"grid\": [%u, 1, 1],\n  \"block\": [%u, 1, 1],\n"
                          "  \"buffers\": {\n"
                          "    \"out\": {\"type\": \"%s\", \"count\": %" G_GUINT64_FORMAT "},\n"
                          "    \"cycles\": {\"type\": \"s64\", \"count\": %" G_GUINT64_FORMAT "}%s\n"
                          "  },\n"
                          "  \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"cycles\"}%s],\n"
                          "  \"outputs\": [\"out\", \"cycles\"]\n}\n",
                          ptx_name, s->blocks, s->threads,
                          s->kind == PROBE_POINTER_CHASE ? "u64" : "f32", out_count,
                          MAX (threads, 32), keep, pressure ? ", {\"buffer\": \"keep\"}" : "");
}

/* The probe's file in the folder's binary/ */
static char *
probe_file (const Shape *s,
            const char  *ext)
{
  return g_strdup_printf ("probe_%u.%s", s->x, ext);
}

/* One probe through the analysis, as a sample runs */
static KsAnalysis *
analyse_text (const Shape          *s,
              const char           *text,
              gboolean              simulate,
              const KsProbeOptions *options,
              char                **ptx_out,
              char                **spec_out,
              GError              **error)
{
  g_autofree char *ptx = g_strdup (text), *ptx_name = probe_file (s, "ptx");
  g_autofree char *spec = probe_spec (s, ptx_name);
  g_autoptr(KsLaunch) launch = NULL;
  KsAnalysisRequest req;
  KsAnalysis *a;

  launch = ks_launch_parse (spec, -1, NULL, error);
  if (launch == NULL)
    return NULL;
  ks_analysis_request_init (&req);
  req.kind = KS_ANALYSIS_INPUT_PTX;
  req.path = ptx_name;
  req.text = ptx;
  req.launch = launch;
  req.gpu = options->gpu ? options->gpu : "rtx-3090";
  req.kernel = "probe";
  req.use_toolkit = options->use_toolkit;
  req.make_sass = options->use_toolkit;
  /* measure() reads the region between the PTX's clock reads and counts
   * the PTX's target instructions: a SASS instruction is shown at a PTX
   * one of its kind and line, and a probe has no line records, so the
   * probes time the PTX lowering (docs/PROBES.md) */
  req.sass_timing = FALSE;
  req.simulate = simulate;
  /* one wave of the busiest SM: its first block, rounded up to the blocks
   * resident at once */
  if (s->blocks > 1)
    req.sample_blocks = 1;
  /* round-robin, so that every warp of the SM advances together and the
   * steady state with all of them is what is timed (measure()): under
   * greedy-then-oldest the model runs the oldest warps first and the last
   * few alone at the chain's latency, a tail that depends on how many
   * warps the unit's rate leaves waiting, not on whether they hide the
   * latency (docs/PROBES.md, "Many warps") */
  if (many_warps (s->kind))
    req.scheduler = KS_SCHEDULER_LRR;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  if (!simulate && a->module != NULL && a->kernel_index >= 0)
    return a;
  /* a probe that does not parse (one edited by hand): its first error, at
   * its place */
  for (guint i = 0; (a->module == NULL || a->module->n_errors > 0) && a->diagnostics
                    && i < a->diagnostics->len; i++)
    {
      const KsDiagnostic *d = &g_array_index (a->diagnostics, KsDiagnostic, i);

      if (d->severity == KS_DIAGNOSTIC_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:%u:%u: %s", ptx_name,
                       d->line, d->column, d->message);
          ks_analysis_unref (a);
          return NULL;
        }
    }
  if (a->status != KS_ANALYSIS_OK)
    {
      const KsSimFault *fault = a->sim ? ks_sim_get_fault (a->sim) : NULL;

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the probe %s did not run: %s", ptx_name,
                   a->error ? a->error : fault && fault->message ? fault->message
                   : a->timing_error ? a->timing_error : "the simulator stopped");
      ks_analysis_unref (a);
      return NULL;
    }
  if (a->timing == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the probe (x = %u) was not timed: %s",
                   s->x, a->timing_error ? a->timing_error : "no trace");
      ks_analysis_unref (a);
      return NULL;
    }
  if (ptx_out)
    *ptx_out = g_steal_pointer (&ptx);
  if (spec_out)
    *spec_out = g_steal_pointer (&spec);
  return a;
}

static KsAnalysis *
analyse (const Shape          *s,
         Variant               v,
         const KsProbeOptions *options,
         char                **ptx_out,
         char                **spec_out,
         GError              **error)
{
  g_autofree char *ptx = probe_ptx (s, v);

  return analyse_text (s, ptx, TRUE, options, ptx_out, spec_out, error);
}

static gboolean
is_clock_read (const KsPtxModule *m,
               const KsPtxInsn   *in)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

  return in->opcode == KS_PTX_OPC_MOV && in->n_operands >= 2
         && ops[1].kind == KS_PTX_OPERAND_SREG && ops[1].a == KS_PTX_SREG_CLOCK64;
}

static gboolean
is_target (const Shape       *s,
           const KsPtxInsn   *in)
{
  switch (s->kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
    case PROBE_FFMA_COUNT:
    case PROBE_WARP_COUNT:
    case PROBE_REGISTER_PRESSURE:
      return in->opcode == s->op->opcode && in->types[0] == s->op->type;
    case PROBE_MIXED_PIPE:
      return (in->opcode == KS_PTX_OPC_FMA && in->types[0] == KS_PTX_TYPE_F32)
             || (in->opcode == KS_PTX_OPC_ADD && in->types[0] == KS_PTX_TYPE_U32);
    case PROBE_SHARED_STRIDE:
      return in->opcode == KS_PTX_OPC_LD && in->space == KS_PTX_SPACE_SHARED;
    case PROBE_POINTER_CHASE:
    default:
      return in->opcode == KS_PTX_OPC_LD && in->space == KS_PTX_SPACE_GLOBAL;
    }
}

/* The cycles between the warps' clock reads, and the target instructions
 * they issued between them; window: only while every warp was between its
 * two (a full SM's steady state) */
static gboolean
measure (const KsAnalysis *a,
         const Shape      *s,
         gboolean          window,
         uint64_t         *cycles,
         uint64_t         *targets)
{
  const KsTiming *t = a->timing;
  uint64_t first = G_MAXUINT64, last = 0;
  uint64_t all_in = 0, first_out = G_MAXUINT64;
  gboolean found = FALSE;

  /* from the first warp's first clock read to the last warp's second: the
   * region every warp's timed loop lies in (one warp but in the warp-count
   * sweep), with the target instructions of them all */
  *targets = 0;
  for (uint32_t k = 0; k < t->n_warps; k++)
    {
      const KsTimingWarp *w = &t->warps[k];
      uint32_t n_clock = 0;

      for (uint64_t i = 0; i < w->n_events && n_clock < 2; i++)
        {
          const KsTimingEvent *e = &t->events[w->first_event + i];
          const KsPtxInsn *in = &a->module->insns[e->insn];

          if (is_clock_read (a->module, in))
            {
              if (n_clock++ == 0)
                {
                  first = MIN (first, e->cycle);
                  all_in = MAX (all_in, e->cycle);
                }
              else
                {
                  last = MAX (last, e->cycle);
                  first_out = MIN (first_out, e->cycle);
                  found = TRUE;
                }
            }
          else if (n_clock == 1 && is_target (s, in) && e->lowered == KS_LOWER_ISSUE)
            (*targets)++;
        }
      if (n_clock != 2)
        return FALSE;
    }
  /* The sweeps of many warps (many_warps()): the warps start their timed
   * loops apart (the register-pressure sweep's blocks as their loads
   * before the timer come back), and a span over them all would count
   * their start and their tail, when fewer warps run.  What these sweeps
   * ask is the SM's rate with all its warps, so they time the cycles when
   * every warp was in its loop, and the target instructions issued then. */
  if (found && window)
    {
      if (first_out <= all_in)
        return FALSE;
      *targets = 0;
      for (uint32_t k = 0; k < t->n_warps; k++)
        {
          const KsTimingWarp *w = &t->warps[k];

          for (uint64_t i = 0; i < w->n_events; i++)
            {
              const KsTimingEvent *e = &t->events[w->first_event + i];

              if (e->cycle > all_in && e->cycle <= first_out && e->lowered == KS_LOWER_ISSUE
                  && is_target (s, &a->module->insns[e->insn]))
                (*targets)++;
            }
        }
      *cycles = first_out - all_in;
      return TRUE;
    }
  *cycles = found ? last - first : 0;
  return found;
}

static GArray *
lines_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
lines_add (GArray   *lines,
           guint32   line)
{
  if (lines->len == 0 || g_array_index (lines, guint32, lines->len - 1) != line)
    g_array_append_val (lines, line);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* lines and sass_lines: (transfer full) (nullable) */
static void
add_check (KsProbeResult *r,
           const char    *item,
           gboolean       checked,
           gboolean       pass,
           char          *detail,
           GArray        *lines,
           GArray        *sass_lines)
{
  KsProbeCheck *c = g_new0 (KsProbeCheck, 1);

  c->item = g_strdup (item);
  c->checked = checked;
  c->pass = checked && pass;
  c->detail = detail;
  c->lines = lines ? lines : lines_new ();
  c->sass_lines = sass_lines ? sass_lines : lines_new ();
  g_ptr_array_add (r->checks, c);
  if (checked && !pass)
    r->verified = FALSE;
}

static uint32_t
reg_of (const KsPtxModule *m,
        const KsPtxInsn   *in,
        guint              k)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

  if (k < in->n_operands && ops[k].kind == KS_PTX_OPERAND_REG)
    return ops[k].a;
  if (k < in->n_operands && ops[k].kind == KS_PTX_OPERAND_ADDRESS)
    return ops[k].a;
  return G_MAXUINT32;
}

/* The occurrences of token in text, and the 1-based lines they are on
 * (lines may be NULL) */
static guint
count_occurrences (const char *text,
                   const char *token,
                   GArray     *lines)
{
  guint n = 0;
  guint32 line = 1;
  const char *from = text;

  for (const char *p = text; p && (p = strstr (p, token)) != NULL; p += strlen (token))
    {
      for (; from < p; from++)
        if (*from == '\n')
          line++;
      if (lines != NULL)
        lines_add (lines, line);
      n++;
    }
  return n;
}

/* Seed sections 6-10, on the PTX analysed and what ptxas said of it */
/* The register-pressure probe's values: each loaded once (volatile)
 * before the timer and used after it, so that a thread holds them all in
 * registers across the timed loop; and registers for them all */
static gboolean
live_values_held (const KsAnalysis *a,
                  const Shape      *s,
                  GArray           *lines,
                  char            **detail)
{
  const KsPtxModule *m = a->module;
  const KsPtxFunction *f = &m->functions[a->kernel_index];
  g_autoptr(GHashTable) loaded = g_hash_table_new (NULL, NULL);
  uint32_t held = 0, registers = a->resources ? a->resources->registers : 0;
  uint32_t clock0 = G_MAXUINT32, clock1 = G_MAXUINT32;

  for (uint32_t i = 0; i < f->n_insns; i++)
    if (is_clock_read (m, &m->insns[f->first_insn + i]))
      {
        clock1 = clock0 == G_MAXUINT32 ? clock1 : i;
        clock0 = MIN (clock0, i);
      }
  for (uint32_t i = 0; clock1 != G_MAXUINT32 && i < clock0; i++)
    {
      const KsPtxInsn *in = &m->insns[f->first_insn + i];

      if (in->opcode == KS_PTX_OPC_LD && in->space == KS_PTX_SPACE_GLOBAL
          && in->sem == KS_PTX_SEM_VOLATILE && reg_of (m, in, 0) != G_MAXUINT32)
        {
          g_hash_table_add (loaded, GUINT_TO_POINTER (reg_of (m, in, 0) + 1));
          lines_add (lines, in->line);
        }
    }
  for (uint32_t i = clock1 + 1; clock1 != G_MAXUINT32 && i < f->n_insns; i++)
    {
      const KsPtxInsn *in = &m->insns[f->first_insn + i];

      for (guint k = 1; k < in->n_operands; k++)
        if (ks_ptx_insn_operands (m, in)[k].kind == KS_PTX_OPERAND_REG
            && g_hash_table_remove (loaded, GUINT_TO_POINTER (reg_of (m, in, k) + 1)))
          held++;
    }
  *detail = g_strdup_printf ("%u values loaded before the timer and used after it (want %u); "
                             "%u registers a thread (%s)", held, s->live, registers,
                             a->resources && a->resources->source == KS_RESOURCES_SOURCE_PTXAS
                             ? "ptxas -v" : "estimated from the PTX");
  return held == s->live && registers >= s->live;
}

/* The SASS checks without a disassembler: the listing the analysis read
 * from ptxas's cubin (its decoded_sass()), opcodes read from the
 * instruction words (ks_sass_decode_opcode()).  FALSE when there is none
 * (no ptxas, an architecture the decoder does not know): the caller says
 * the checks did not run. */
static gboolean
verify_cubin (KsProbeResult    *r,
              const KsAnalysis *a,
              const Shape      *s)
{
  const KsSassListing *use = a->sass;
  g_autofree char *want = NULL;
  GArray *op_lines, *other_lines;
  guint sm, n = 0, local = 0, timer = 0, decoded = 0;
  uint64_t first_clock = G_MAXUINT64, last_clock = 0;

  if (use == NULL || use->format != KS_SASS_FORMAT_CUBIN || use->n_functions == 0
      || a->sass_arch == NULL)
    return FALSE;
  sm = ks_sass_arch_number (a->sass_arch);
  /* the target's opcode without its modifiers ("MUFU" of MUFU.RSQ) */
  want = g_strdup (s->kind == PROBE_SHARED_STRIDE ? "LDS"
                   : s->kind == PROBE_POINTER_CHASE ? "LDG" : s->op->sass);
  if (strchr (want, '.') != NULL)
    *strchr (want, '.') = '\0';
  for (uint32_t i = 0; i < use->n_insns; i++)
    {
      const char *sr = ks_sass_decode_sreg (sm, &use->insns[i]);

      if (g_strcmp0 (sr, "SR_CLOCKLO") == 0)
        {
          first_clock = MIN (first_clock, use->insns[i].offset);
          last_clock = MAX (last_clock, use->insns[i].offset);
        }
    }
  op_lines = lines_new ();
  other_lines = lines_new ();
  for (uint32_t i = 0; i < use->n_insns; i++)
    {
      const KsSassInsn *in = &use->insns[i];
      const char *op = ks_sass_decode_opcode (sm, in);
      gboolean timed = in->offset > first_clock && in->offset < last_clock;

      decoded += op != NULL;
      if (op == NULL)
        continue;
      if (timed && (g_str_equal (op, want)
                    || (s->kind == PROBE_MIXED_PIPE && g_str_equal (op, "IADD3"))))
        {
          n++;
          lines_add (op_lines, in->line);
        }
      if (g_str_equal (op, "LDL") || g_str_equal (op, "STL"))
        {
          local++;
          lines_add (other_lines, in->line);
        }
      if (g_strcmp0 (ks_sass_decode_sreg (sm, in), "SR_CLOCKLO") == 0)
        {
          timer++;
          lines_add (other_lines, in->line);
        }
    }
  g_array_sort (other_lines, compare_lines);
  add_check (r, N_("SASS target opcode"), TRUE, n >= s->per_body,
             g_strdup_printf ("%u %s between the clock reads in the SASS of ptxas (want at "
                              "least %u); opcodes read from the cubin's words, %u of %u "
                              "instructions named, as no disassembler is here", n, want,
                              s->per_body, decoded, use->n_insns),
             NULL, op_lines);
  add_check (r, N_("SASS: no local memory, timer read twice"), TRUE, local == 0 && timer >= 2,
             g_strdup_printf ("%u LDL/STL, %u reads of SR_CLOCKLO", local, timer),
             NULL, other_lines);
  return TRUE;
}

static void
verify (KsProbeResult    *r,
        const KsAnalysis *a,
        const Shape      *s)
{
  const KsPtxModule *m = a->module;
  const KsPtxFunction *f = &m->functions[a->kernel_index];
  uint32_t clocks[3], n_clocks = 0, n_targets = 0, first_t = G_MAXUINT32;
  uint32_t other_mem = 0, cvts = 0, back_edges = 0, stores_before = 0, stores_after = 0;
  g_autoptr(GHashTable) dests = g_hash_table_new (NULL, NULL);
  gboolean chained = TRUE, one_address_reg = TRUE;
  uint32_t addr_reg = G_MAXUINT32;
  GArray *timer_lines = lines_new (), *target_lines, *mem_lines, *cvt_lines, *loop_lines;
  GArray *store_lines;

  for (uint32_t i = 0; i < f->n_insns; i++)
    if (is_clock_read (m, &m->insns[f->first_insn + i]) && n_clocks < 3)
      {
        clocks[n_clocks++] = i;
        lines_add (timer_lines, m->insns[f->first_insn + i].line);
      }
  add_check (r, N_("timer"), TRUE, n_clocks == 2,
             g_strdup_printf ("%u reads of %%clock64 (want 2, around the timed loop)", n_clocks),
             timer_lines, NULL);
  if (n_clocks != 2)
    return;
  target_lines = lines_new ();
  mem_lines = lines_new ();
  cvt_lines = lines_new ();
  loop_lines = lines_new ();
  store_lines = lines_new ();
  for (uint32_t i = clocks[0] + 1; i < clocks[1]; i++)
    {
      const KsPtxInsn *in = &m->insns[f->first_insn + i];

      if (is_target (s, in))
        {
          uint32_t d = reg_of (m, in, 0), src = reg_of (m, in, 1);

          n_targets++;
          first_t = MIN (first_t, i);
          lines_add (target_lines, in->line);
          g_hash_table_add (dests, GUINT_TO_POINTER (d + 1));
          if (s->kind == PROBE_SHARED_STRIDE)
            {
              if (addr_reg == G_MAXUINT32)
                addr_reg = src;
              one_address_reg = one_address_reg && src == addr_reg;
            }
          else
            chained = chained && d == src;
        }
      else if (in->opcode == KS_PTX_OPC_LD || in->opcode == KS_PTX_OPC_ST
               || in->opcode == KS_PTX_OPC_ATOM || in->opcode == KS_PTX_OPC_RED
               || in->opcode == KS_PTX_OPC_LDU)
        {
          other_mem++;
          lines_add (mem_lines, in->line);
        }
      if (in->opcode == KS_PTX_OPC_CVT)
        {
          cvts++;
          lines_add (cvt_lines, in->line);
        }
      if (in->opcode == KS_PTX_OPC_BRA)
        {
          const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);

          if (in->n_operands >= 1 && ops[0].kind == KS_PTX_OPERAND_LABEL && ops[0].a <= i
              && ops[0].a > clocks[0])
            {
              back_edges++;
              lines_add (loop_lines, in->line);
            }
        }
    }
  for (uint32_t i = 0; i < f->n_insns; i++)
    if (m->insns[f->first_insn + i].opcode == KS_PTX_OPC_ST
        && m->insns[f->first_insn + i].space == KS_PTX_SPACE_GLOBAL)
      {
        if (i > clocks[1])
          {
            stores_after++;
            lines_add (store_lines, m->insns[f->first_insn + i].line);
          }
        else if (i > clocks[0])
          stores_before++;
      }

  add_check (r, N_("target instruction"), TRUE, n_targets == s->per_body,
             g_strdup_printf ("%u %s per loop body (want %u)", n_targets,
                              s->kind == PROBE_SHARED_STRIDE ? "ld.volatile.shared.u32"
                              : s->kind == PROBE_POINTER_CHASE ? "ld.global.u64"
                              : s->kind == PROBE_MIXED_PIPE ? "fma.rn.f32 and add.u32"
                              : s->op->ptx,
                              s->per_body),
             g_array_copy (target_lines), NULL);
  if (s->kind == PROBE_SHARED_STRIDE)
    add_check (r, N_("dependency chain"), TRUE,
               one_address_reg && g_hash_table_size (dests) == MIN (s->per_body, 32u),
               g_strdup_printf ("independent loads: %u destination registers, one address "
                                "register", g_hash_table_size (dests)),
               target_lines, NULL);
  else if (s->kind == PROBE_MIXED_PIPE)
    {
      uint32_t want = mixed_accumulators (s, TRUE) + mixed_accumulators (s, FALSE);

      add_check (r, N_("dependency chain"), TRUE,
                 chained && g_hash_table_size (dests) == want,
                 g_strdup_printf ("%u accumulator register(s) (want %u: %u IADD3, %u FFMA), each "
                                  "instruction taking its own result", g_hash_table_size (dests),
                                  want, mixed_accumulators (s, TRUE),
                                  mixed_accumulators (s, FALSE)),
                 target_lines, NULL);
    }
  else if (s->kind == PROBE_POINTER_CHASE)
    add_check (r, N_("dependency chain"), TRUE, chained,
               g_strdup (chained ? "each load's address is the load before's result"
                         : "a load does not take its address from the one before"),
               target_lines, NULL);
  else
    add_check (r, N_("dependency chain"), TRUE,
               chained && g_hash_table_size (dests) == s->accumulators,
               g_strdup_printf ("%u accumulator register(s) (want %u), each %s taking its own "
                                "result", g_hash_table_size (dests), s->accumulators, s->op->sass),
               target_lines, NULL);
  add_check (r, N_("no other memory access in the timed region"), TRUE,
             other_mem == 0 && stores_before == 0,
             g_strdup_printf ("%u other loads or stores between the clock reads",
                              other_mem + stores_before),
             mem_lines, NULL);
  add_check (r, N_("no conversion in the timed region"), TRUE, cvts == 0,
             g_strdup_printf ("%u cvt between the clock reads", cvts), cvt_lines, NULL);
  add_check (r, N_("loop structure"), TRUE, back_edges == 1 && first_t != G_MAXUINT32,
             g_strdup_printf ("%u back edge(s) between the clock reads (want 1: the timed loop)",
                              back_edges),
             loop_lines, NULL);
  add_check (r, N_("result stored after the timer"), TRUE, stores_after > 0,
             g_strdup_printf ("%u global store(s) after the second clock read", stores_after),
             store_lines, NULL);
  if (s->kind == PROBE_REGISTER_PRESSURE)
    {
      GArray *live_lines = lines_new ();
      char *detail = NULL;
      gboolean held = live_values_held (a, s, live_lines, &detail);

      add_check (r, N_("values held across the loop"), TRUE, held, detail, live_lines, NULL);
    }

  /* ptxas -v */
  if (a->resources != NULL && a->resources->source == KS_RESOURCES_SOURCE_PTXAS
      && (a->resources->fields & KS_RESOURCES_HAS_STACK))
    add_check (r, N_("no spills (ptxas -v)"), TRUE,
               a->resources->spill_store_bytes == 0 && a->resources->spill_load_bytes == 0,
               g_strdup_printf ("%u registers, %u bytes spill stores, %u bytes spill loads",
                                a->resources->registers, a->resources->spill_store_bytes,
                                a->resources->spill_load_bytes),
               NULL, NULL);
  else
    add_check (r, N_("no spills (ptxas -v)"), FALSE, FALSE,
               g_strdup ("not checked: ptxas did not run (no CUDA toolkit); registers are an "
                         "estimate"),
               NULL, NULL);

  /* the SASS, when a disassembler named its opcodes */
  if (a->sass_text != NULL && a->sass_tool != NULL
      && (a->sass == NULL || a->sass->format != KS_SASS_FORMAT_CUBIN))
    {
      g_autofree char *chain_op = g_strdup_printf (" %s ", s->op->sass);
      const char *op = s->kind == PROBE_SHARED_STRIDE ? " LDS"
                       : s->kind == PROBE_POINTER_CHASE ? " LDG" : chain_op;
      GArray *op_lines = lines_new (), *other_lines = lines_new ();
      guint n = count_occurrences (a->sass_text, op, op_lines)
                + (s->kind == PROBE_MIXED_PIPE
                   ? count_occurrences (a->sass_text, " IADD3 ", op_lines) : 0);
      guint local = count_occurrences (a->sass_text, " LDL", other_lines)
                    + count_occurrences (a->sass_text, " STL", other_lines);
      guint timer = count_occurrences (a->sass_text, "SR_CLOCKLO", other_lines);

      g_array_sort (op_lines, compare_lines);
      g_array_sort (other_lines, compare_lines);
      add_check (r, N_("SASS target opcode"), TRUE, n >= s->per_body,
                 g_strdup_printf ("%u%s in the %s listing (want at least %u)", n, op,
                                  a->sass_tool, s->per_body),
                 NULL, op_lines);
      add_check (r, N_("SASS: no local memory, timer read twice"), TRUE, local == 0 && timer >= 2,
                 g_strdup_printf ("%u LDL/STL, %u reads of SR_CLOCKLO", local, timer),
                 NULL, other_lines);
    }
  else if (!verify_cubin (r, a, s))
    add_check (r, N_("SASS target opcode"), FALSE, FALSE,
               g_strdup_printf ("not checked: %s", a->sass_error ? a->sass_error
                                : "no disassembler (nvdisasm or cuobjdump) here"),
               NULL, NULL);
}

/* The probe's SASS in the folder: a disassembler's listing, or the one
 * read from ptxas's cubin */
static char *
sass_file_name (const KsAnalysis *a,
                uint32_t          x)
{
  return g_strdup_printf (a->sass != NULL && a->sass->format == KS_SASS_FORMAT_CUBIN
                          ? "binary/probe_%u_sass_from_cubin.txt" : "binary/probe_%u_full.sass.txt",
                          x);
}

static void
add_file (KsProbeResult *r,
          char          *path,
          char          *content)
{
  g_ptr_array_add (r->files, path);
  g_ptr_array_add (r->files, content);
}

/* The probe's stored result, from its first buffer's bytes */
static double
checksum_bytes (const uint8_t *out,
                size_t         size,
                const Shape   *s)
{
  if (out == NULL || size < 16)
    return NAN;
  if (s->kind == PROBE_POINTER_CHASE)
    {
      uint64_t v;

      memcpy (&v, out + 8, 8);
      return (double) v;
    }
  if (s->op->reg == REG_B32)
    {
      uint32_t v;

      memcpy (&v, out, 4);
      return v;
    }
  {
    float f;

    memcpy (&f, out, 4);
    return f;
  }
}

static double
checksum_of (const KsAnalysis *a,
             const Shape      *s)
{
  size_t size = 0;
  const uint8_t *out = ks_sim_get_buffer (a->sim, 0, &size);

  return checksum_bytes (out, size, s);
}

static const char *
gpu_name (const KsAnalysis *a)
{
  return a->gpu && a->gpu->name ? a->gpu->name : a->arch ? a->arch->name : "?";
}

/* The conclusion, worded as seed section 18 grades a model's run: what the
 * model did, never what the hardware does */
/* The first point of a sweep within 10 % of its best (lowest) figure:
 * where adding more stopped paying */
/* The sweep's best (lowest) cycles per instruction */
static double
lowest_cycles (const KsProbePoint *p,
               guint               n)
{
  double best = p[0].cycles_per_instruction;

  for (guint i = 1; i < n; i++)
    best = MIN (best, p[i].cycles_per_instruction);
  return best;
}

static guint
saturation_point (const KsProbePoint *p,
                  guint               n)
{
  guint sat = n - 1;
  double best = lowest_cycles (p, n);

  for (guint i = n; i-- > 0;)
    if (p[i].cycles_per_instruction <= best * 1.10)
      sat = i;
  return sat;
}

/* device: the GPU whose figures the points' gpu summaries are (their
 * medians in the points' cycles, a copy), or NULL for the model's */
static char *
conclude_as (const KsProbeResult *r,
             const KsAnalysis    *a,
             const char          *device)
{
  GString *c = g_string_new (NULL);
  const KsProbePoint *p = (const KsProbePoint *) r->points->data;
  guint n = r->points->len;
  const char *op = r->instruction ? ks_probe_instruction_sass (r->instruction) : NULL;

  if (!r->verified && r->checks->len > 0)
    {
      for (guint i = 0; i < r->checks->len; i++)
        {
          const KsProbeCheck *k = g_ptr_array_index (r->checks, i);

          if (k->checked && !k->pass)
            g_string_append_printf (c, "The probe failed verification (%s: %s), so it supports "
                                       "no conclusion.", k->item, k->detail);
        }
      return g_string_free (c, FALSE);
    }
  if (n == 0)
    {
      g_string_append (c, "The probe passed verification; it has not run.");
      return g_string_free (c, FALSE);
    }
  if (device != NULL)
    g_string_append_printf (c, "On the %s, the median of %u runs after %u warm-up runs: ",
                            device, r->measured_runs, r->warmup_runs);
  else
    g_string_append_printf (c, "On KernelScope's timing model of the %s (%s), not on a GPU: ",
                            gpu_name (a), r->arch);
  switch (r->tmpl->kind)
    {
    case PROBE_FFMA_ACCUMULATORS:
      {
        guint sat = saturation_point (p, n);

        g_string_append_printf (c, "a dependent %s chain took %.2f cycles per instruction; ",
                                op, p[0].cycles_per_instruction);
        for (guint i = 1; i < n; i++)
          g_string_append_printf (c, "%g accumulators %.2f%s", p[i].x, p[i].cycles_per_instruction,
                                  i + 1 < n ? ", " : ". ");
        if (sat == 0)
          g_string_append_printf (c, "Every point issued about one %s every %.2f cycles: the "
                                     "pipe's rate, not the chain's latency, limited the warp.",
                                  op, p[0].cycles_per_instruction);
        else
          g_string_append_printf (c, "From %g independent accumulators on, the warp issued "
                                     "about one %s every %.2f cycles: the chain's latency was "
                                     "hidden.", p[sat].x, op, p[sat].cycles_per_instruction);
      }
      break;
    case PROBE_FFMA_COUNT:
      g_string_append_printf (c, "over chains of %g to %g %s instructions, the cycles fit "
                                 "T(N) = %.3f N + %.0f (R^2 = %.5f): the %s dependent %s "
                                 "latency is %.2f cycles, with a fixed cost of %.0f cycles.",
                              p[0].x, p[n - 1].x, op, r->slope, r->intercept, r->r2,
                              device ? "observed" : "model's", op,
                              r->slope, r->intercept);
      break;
    case PROBE_WARP_COUNT:
      {
        guint sat = saturation_point (p, n);

        g_string_append_printf (c, "one warp's dependent %s chain took %.2f cycles per %s; ",
                                op, p[0].cycles_per_instruction, op);
        for (guint i = 1; i < n; i++)
          {
            g_string_append_printf (c, "%g warps %.2f", p[i].x, p[i].cycles_per_instruction);
            if (i + 1 < n)
              g_string_append (c, ", ");
            else
              g_string_append_printf (c, " cycles per %s of the SM. ", op);
          }
        g_string_append_printf (c, "From %g warps on the SM issued one %s every %.2f cycles "
                                   "(%.2f a cycle): enough warps were ready to hide the latency.",
                                p[sat].x, op, p[sat].cycles_per_instruction,
                                1.0 / p[sat].cycles_per_instruction);
      }
      break;
    case PROBE_REGISTER_PRESSURE:
      {
        /* the transition: the first point more than 10 % above the best */
        double best = lowest_cycles (p, n);
        guint t = n;

        for (guint i = 0; i < n && t == n; i++)
          if (p[i].cycles_per_instruction > best * 1.10)
            t = i;
        g_string_append_printf (c, "with one dependent FFMA chain a warp and every SM full of "
                                   "%u-thread blocks, the values each thread held, its registers "
                                   "(%s), the warps an SM held and the cycles per FFMA of the SM "
                                   "were ", PRESSURE_THREADS,
                                p[0].spill_loads >= 0 ? "ptxas -v" : "estimated from the PTX");
        for (guint i = 0; i < n; i++)
          g_string_append_printf (c, "%g, %d, %d, %.2f%s", p[i].x, p[i].registers,
                                  p[i].resident_warps, p[i].cycles_per_instruction,
                                  i + 1 < n ? "; " : ". ");
        if (t == n)
          g_string_append_printf (c, "Every point was within 10 %% of the best, %.2f cycles: "
                                     "even %d warps, with %d registers a thread, hid the chain's "
                                     "latency at this GPU's FFMA rate, so the registers did not "
                                     "slow the SM.", best, p[n - 1].resident_warps,
                                  p[n - 1].registers);
        else
          g_string_append_printf (c, "From %d registers a thread on, the SM held %d warps (%s "
                                     "limited them) and took %.2f cycles per FFMA, %.0f %% more "
                                     "than its best %.2f: too few warps to hide the chain's "
                                     "latency. With more warps than that, the fewer warps cost "
                                     "nothing: registers slow a kernel once the warps they leave "
                                     "cannot hide its latencies.", p[t].registers,
                                  p[t].resident_warps,
                                  p[t].limiter ? ks_occupancy_limiter_name (p[t].limiter) : "?",
                                  p[t].cycles_per_instruction,
                                  100.0 * (p[t].cycles_per_instruction / best - 1), best);
      }
      break;
    case PROBE_MIXED_PIPE:
      {
        /* one unit for both would take the mean of the two alone */
        double shared = (p[0].cycles_per_instruction + p[n - 1].cycles_per_instruction) / 2;
        guint half = n / 2;

        g_string_append_printf (c, "FFMA alone took %.2f cycles per instruction, IADD3 alone "
                                   "%.2f; mixed, ", p[0].cycles_per_instruction,
                                p[n - 1].cycles_per_instruction);
        for (guint i = 1; i + 1 < n; i++)
          g_string_append_printf (c, "%g %% IADD3 %.2f%s", p[i].x, p[i].cycles_per_instruction,
                                  i + 2 < n ? ", " : ". ");
        if (p[half].cycles_per_instruction < 0.8 * shared)
          g_string_append_printf (c, "Half and half, the warp issued an instruction every %.2f "
                                     "cycles, faster than the %.2f one unit for both would take "
                                     "(the mean of the two alone): FFMA and IADD3 ran on "
                                     "separate pipes, at the same time.",
                                  p[half].cycles_per_instruction, shared);
        else
          g_string_append_printf (c, "Half and half, the warp issued an instruction every %.2f "
                                     "cycles, no faster than the %.2f one unit for both would "
                                     "take (the mean of the two alone): FFMA and IADD3 shared "
                                     "one unit.", p[half].cycles_per_instruction, shared);
      }
      break;
    case PROBE_SHARED_STRIDE:
      for (guint i = 0; i < n; i++)
        g_string_append_printf (c, "stride %g took %.0f pass%s a load (%.2f cycles)%s", p[i].x,
                                p[i].ways, p[i].ways == 1 ? "" : "es",
                                p[i].cycles_per_instruction, i + 1 < n ? ", " : ". ");
      g_string_append (c, "The passes are the lanes that share a bank, as the 32-bank layout "
                          "predicts.");
      break;
    case PROBE_POINTER_CHASE:
      for (guint i = 0; i < n; i++)
        g_string_append_printf (c, "%g KiB: %.1f cycles a load%s", p[i].x / 1024,
                                p[i].cycles_per_instruction, i + 1 < n ? ", " : ". ");
      g_string_append (c, "The steps are where the working set outgrows L1 and then L2.");
      break;
    }
  if (device != NULL)
    g_string_append_printf (c, " Evidence: measured on the GPU, %u runs a point, with the probe "
                               "verified%s%s; observed on this GPU under these conditions, not "
                               "the circuit's absolute figure (seed section 18).",
                            r->measured_runs, r->edited ? "" : ", its controls (the empty loop "
                            "and the timer alone) run and the sweep fitted",
                            r->edited ? "; one edited probe without controls" : "");
  else
    g_string_append (c, " Evidence: the model's figures, with the probe verified in its PTX; a GPU "
                        "has not run it.");
  return g_string_free (c, FALSE);
}

static char *
conclude (const KsProbeResult *r,
          const KsAnalysis    *a)
{
  return conclude_as (r, a, NULL);
}

static void
fit_line (KsProbeResult *r)
{
  const KsProbePoint *p = (const KsProbePoint *) r->points->data;
  guint n = r->points->len;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;

  if (n < 2)
    return;
  for (guint i = 0; i < n; i++)
    {
      double x = (double) p[i].instructions, y = (double) p[i].total_cycles;

      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      syy += y * y;
    }
  {
    double dx = n * sxx - sx * sx, dy = n * syy - sy * sy;

    if (dx <= 0)
      return;
    r->slope = (n * sxy - sx * sy) / dx;
    r->intercept = (sy - r->slope * sx) / n;
    r->r2 = dy > 0 ? pow (n * sxy - sx * sy, 2) / (dx * dy) : 1.0;
    r->have_fit = TRUE;
  }
}

static void
result_init (KsProbeResult         *r,
             const KsProbeTemplate *tmpl,
             const char            *ran_on,
             const char            *evidence)
{
  r->tmpl = tmpl;
  r->points = g_array_new (FALSE, TRUE, sizeof (KsProbePoint));
  r->checks = g_ptr_array_new ();
  r->files = g_ptr_array_new_with_free_func (g_free);
  r->verified = TRUE;
  r->ran_on = g_strdup (ran_on);
  r->evidence = g_strdup (evidence);
  r->gpu_empty_loop_cycles = NAN;
  r->gpu_timer_cycles = NAN;
}

/* A point's figures that the probe's analysis gives (its cycles are
 * measure()'s): registers and spills, the stored result, the warps an SM
 * holds, the shared-memory passes */
static void
fill_point (KsProbePoint     *pt,
            const KsAnalysis *a,
            const Shape      *s)
{
  if (a->resources != NULL)
    {
      pt->registers = (int) a->resources->registers;
      if (a->resources->fields & KS_RESOURCES_HAS_STACK)
        {
          pt->spill_loads = (int) a->resources->spill_load_bytes;
          pt->spill_stores = (int) a->resources->spill_store_bytes;
        }
    }
  pt->checksum = checksum_of (a, s);
  if (s->kind == PROBE_REGISTER_PRESSURE && a->have_occupancy)
    {
      pt->resident_warps = (int) a->occupancy.active_warps_per_sm;
      pt->limiter = (int) a->occupancy.limiter;
    }
  if (s->kind == PROBE_SHARED_STRIDE)
    {
      const KsSimInsnStats *st = ks_sim_get_insn_stats (a->sim);
      uint64_t req = 0, wf = 0;

      for (uint32_t k = 0; k < a->module->n_insns; k++)
        if (is_target (s, &a->module->insns[k]) && st[k].smem_requests > 0
            && a->module->insns[k].opcode == KS_PTX_OPC_LD)
          {
            req += st[k].smem_requests;
            wf += st[k].smem_wavefronts;
          }
      pt->ways = req ? (double) wf / (double) req : NAN;
    }
}

/* The GPU's architecture and SMs, from the database */
static gboolean
gpu_of (const KsProbeOptions *options,
        char                **target,
        guint                *sm_count,
        GError              **error)
{
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (error);
  const KsGpuInfo *g;

  if (db == NULL)
    return FALSE;
  g = ks_gpu_db_get_gpu (db, options->gpu ? options->gpu : "rtx-3090");
  if (g == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no GPU '%s' in the GPU database",
                   options->gpu);
      return FALSE;
    }
  *target = g_strdup (g->arch);
  *sm_count = MAX (g->sm_count, 1u);
  return TRUE;
}

/* The value a template's probe is verified and shown at: the first, or
 * for the register-pressure sweep the one that holds the most */
static guint
shown_index (const KsProbeTemplate *tmpl)
{
  return tmpl->kind == PROBE_REGISTER_PRESSURE ? tmpl->n_values - 1 : 0;
}

double
ks_probe_template_shown_x (const KsProbeTemplate *tmpl)
{
  g_return_val_if_fail (tmpl != NULL, 0);
  return tmpl->values[shown_index (tmpl)];
}

KsProbeResult *
ks_probe_run (const KsProbeTemplate *tmpl,
              const KsProbeOptions  *options,
              GError               **error)
{
  g_autoptr(KsProbeResult) r = g_new0 (KsProbeResult, 1);
  KsProbeOptions defaults;
  g_autoptr(KsAnalysis) first = NULL;
  GString *raw = g_string_new ("run,kernel,total_instructions,total_cycles,"
                               "cycles_per_instruction,checksum\n");
  GString *sweep = g_string_new (NULL);
  g_autofree char *target = NULL;
  const ProbeOp *op = NULL;
  guint n_ops, sm_count = 1;
  guint shown = shown_index (tmpl);

  r->shown_x = tmpl->values[shown];

  if (options == NULL)
    {
      ks_probe_options_init (&defaults);
      options = &defaults;
    }
  result_init (r, tmpl, "model", "model");
  if (options->instruction != NULL && !is_chain (tmpl->kind))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the template '%s' takes no "
                   "instruction: it times %s", tmpl->name,
                   tmpl->kind == PROBE_SHARED_STRIDE ? "shared-memory loads"
                   : tmpl->kind == PROBE_POINTER_CHASE ? "global loads"
                   : tmpl->kind == PROBE_MIXED_PIPE ? "FFMA and IADD3 together"
                   : "FFMA chains against the registers held");
      goto fail;
    }
  if (is_chain (tmpl->kind))
    {
      op = find_op (options->instruction ? options->instruction : "ffma");
      if (op == NULL)
        {
          g_autofree char *known = g_strjoinv (", ", (char **) ks_probe_instructions (&n_ops));

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "unknown instruction "
                       "'%s' (the chains time %s)", options->instruction, known);
          goto fail;
        }
      r->instruction = g_strdup (op->name);
    }
  g_string_append_printf (sweep, "%s,total_instructions,total_cycles,cycles_per_instruction,"
                                 "corrected,registers,spill_loads,spill_stores,checksum%s\n",
                          tmpl->variable, tmpl->kind == PROBE_SHARED_STRIDE ? ",ways"
                          : tmpl->kind == PROBE_REGISTER_PRESSURE ? ",resident_warps,limiter" : "");

  if (!gpu_of (options, &target, &sm_count, error))
    goto fail;
  for (guint i = 0; i < tmpl->n_values; i++)
    {
      Shape s = shape_of (tmpl->kind, tmpl->values[i], op);
      g_autoptr(KsAnalysis) a = NULL, empty = NULL;
      g_autofree char *ptx = NULL, *spec = NULL;
      KsProbePoint pt = { .x = tmpl->values[i], .corrected = NAN, .ways = NAN,
                          .registers = -1, .spill_loads = -1, .spill_stores = -1,
                          .resident_warps = -1 };
      uint64_t empty_cycles = 0, empty_targets = 0;

      s.target = target;
      /* more blocks than every SM holds: the run times one wave of them */
      if (s.kind == PROBE_REGISTER_PRESSURE)
        s.blocks = sm_count * PRESSURE_BLOCKS_PER_SM;

      a = analyse (&s, VARIANT_PROBE, options, &ptx, &spec, error);
      if (a == NULL)
        goto fail;
      if (!measure (a, &s, many_warps (s.kind), &pt.total_cycles, &pt.instructions)
          || pt.instructions == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "the probe (%s = %g) has no timed instructions in warp 0",
                       tmpl->variable, pt.x);
          goto fail;
        }
      pt.cycles_per_instruction = (double) pt.total_cycles / (double) pt.instructions;
      /* The empty loop: each point's corrected figure.  The sweeps of
       * many warps time a window of their loops, which the empty loop's
       * span cannot be taken from: they run it for the shown point's
       * control alone. */
      if (!many_warps (s.kind) || i == shown)
        {
          empty = analyse (&s, VARIANT_EMPTY_LOOP, options, NULL, NULL, error);
          if (empty == NULL)
            goto fail;
          if (measure (empty, &s, FALSE, &empty_cycles, &empty_targets)
              && empty_cycles <= pt.total_cycles && !many_warps (s.kind))
            pt.corrected = (double) (pt.total_cycles - empty_cycles) / (double) pt.instructions;
        }
      fill_point (&pt, a, &s);
      /* every point's probe holds its values, not only the one shown */
      if (s.kind == PROBE_REGISTER_PRESSURE && i != shown)
        {
          g_autoptr(GArray) lines = lines_new ();
          g_autofree char *detail = NULL;

          if (!live_values_held (a, &s, lines, &detail))
            add_check (r, N_("values held across the loop"), TRUE, FALSE,
                       g_strdup_printf ("the probe for %g values: %s", pt.x, detail), NULL, NULL);
        }
      if (i == shown)
        {
          g_autoptr(KsAnalysis) timer = NULL;
          uint64_t tc = 0, tt = 0;

          r->gpu = g_strdup (a->gpu ? a->gpu->id : options->gpu);
          r->arch = g_strdup (a->arch ? a->arch->id : "");
          verify (r, a, &s);
          r->empty_loop_cycles = empty_cycles;
          timer = analyse (&s, VARIANT_TIMER, options, NULL, NULL, error);
          if (timer == NULL)
            goto fail;
          if (measure (timer, &s, FALSE, &tc, &tt))
            r->timer_cycles = tc;
          first = ks_analysis_ref (a);
        }
      g_array_append_val (r->points, pt);
      g_string_append_printf (raw, "0,%s%s%s_%g,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.6f,%.9g\n",
                              tmpl->name, op ? "_" : "", op ? op->name : "", pt.x, pt.instructions, pt.total_cycles,
                              pt.cycles_per_instruction, pt.checksum);
      g_string_append_printf (sweep, "%g,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.6f,%.6f,%d,%d,%d,%.9g",
                              pt.x, pt.instructions, pt.total_cycles, pt.cycles_per_instruction,
                              pt.corrected, pt.registers, pt.spill_loads, pt.spill_stores,
                              pt.checksum);
      if (s.kind == PROBE_SHARED_STRIDE)
        g_string_append_printf (sweep, ",%.3f", pt.ways);
      if (s.kind == PROBE_REGISTER_PRESSURE)
        g_string_append_printf (sweep, ",%d,%s", pt.resident_warps,
                                pt.limiter ? ks_occupancy_limiter_name (pt.limiter) : "");
      g_string_append_c (sweep, '\n');
      if (i == shown)
        {
          r->ptx = g_strdup (ptx);
          r->cuda = probe_cuda (&s);
          r->sass = g_strdup (a->sass_text);
        }
      add_file (r, g_strdup_printf ("binary/probe_%u.cu", s.x), probe_cuda (&s));
      add_file (r, g_strdup_printf ("binary/probe_%u.ptx", s.x),
                g_steal_pointer (&ptx));
      add_file (r, g_strdup_printf ("binary/probe_%u.json", s.x),
                g_steal_pointer (&spec));
      if (a->sass_text)
        add_file (r, sass_file_name (a, s.x), g_strdup (a->sass_text));
    }
  /* T(N) = L N + C is the count sweep's hypothesis; a line through
   * another sweep's points (the chase's working sets) would mean nothing */
  if (tmpl->kind == PROBE_FFMA_COUNT)
    fit_line (r);
  /* a spilling probe is contaminated (seed section 8.6), at any point; the
   * model, which times the PTX, would not even see the spills */
  for (guint i = 0; tmpl->kind == PROBE_REGISTER_PRESSURE && i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

      if (i != shown && (p->spill_loads > 0 || p->spill_stores > 0))
        add_check (r, N_("no spills (ptxas -v)"), TRUE, FALSE,
                   g_strdup_printf ("the probe for %g values: %d registers, %d bytes spill "
                                    "stores, %d bytes spill loads", p->x, p->registers,
                                    p->spill_stores, p->spill_loads), NULL, NULL);
    }
  r->conclusion = conclude (r, first);
  add_file (r, g_strdup ("runtime/runtime_raw.csv"), g_string_free (raw, FALSE));
  add_file (r, g_strdup_printf ("runtime/%s_sweep.csv", tmpl->variable), g_string_free (sweep, FALSE));
  return g_steal_pointer (&r);

fail:
  g_string_free (raw, TRUE);
  g_string_free (sweep, TRUE);
  return NULL;
}

KsProbeResult *
ks_probe_verify_ptx (const KsProbeTemplate *tmpl,
                     const char            *instruction,
                     double                 x,
                     const char            *ptx,
                     GError               **error)
{
  g_autoptr(KsProbeResult) r = g_new0 (KsProbeResult, 1);
  g_autoptr(KsAnalysis) a = NULL;
  const ProbeOp *op = find_op (instruction ? instruction : "ffma");
  Shape s = shape_of (tmpl->kind, x, op);
  KsProbeOptions opt;

  if (op == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "unknown instruction '%s'",
                   instruction);
      return NULL;
    }
  ks_probe_options_init (&opt);
  result_init (r, tmpl, "nothing", "none");
  if (is_chain (tmpl->kind))
    r->instruction = g_strdup (op->name);
  a = analyse_text (&s, ptx, FALSE, &opt, NULL, NULL, error);
  if (a == NULL)
    return NULL;
  if (a->module == NULL || a->kernel_index < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the probe's PTX has no kernel "
                   "'probe': %s", a->error ? a->error : "it did not parse");
      return NULL;
    }
  r->arch = g_strdup (a->arch ? a->arch->id : "");
  r->gpu = g_strdup (a->gpu ? a->gpu->id : "");
  r->shown_x = x;
  r->ptx = g_strdup (ptx);
  verify (r, a, &s);
  r->conclusion = conclude (r, a);
  return g_steal_pointer (&r);
}

KsProbeResult *
ks_probe_run_ptx (const KsProbeTemplate *tmpl,
                  const KsProbeOptions  *options,
                  double                 x,
                  const char            *ptx,
                  GError               **error)
{
  g_autoptr(KsProbeResult) r = g_new0 (KsProbeResult, 1);
  g_autoptr(KsAnalysis) a = NULL;
  g_autofree char *target = NULL, *spec = NULL, *name = NULL;
  KsProbeOptions defaults;
  KsProbePoint pt = { .x = x, .corrected = NAN, .ways = NAN, .registers = -1,
                      .spill_loads = -1, .spill_stores = -1, .resident_warps = -1 };
  const ProbeOp *op;
  guint sm_count = 1;
  Shape s;
  GString *c;

  if (options == NULL)
    {
      ks_probe_options_init (&defaults);
      options = &defaults;
    }
  op = find_op (options->instruction ? options->instruction : "ffma");
  if (op == NULL || (options->instruction != NULL && !is_chain (tmpl->kind)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the template '%s' takes no "
                   "instruction '%s'", tmpl->name, options->instruction);
      return NULL;
    }
  {
    gboolean known = FALSE;
    GString *values = g_string_new (NULL);

    for (guint i = 0; i < tmpl->n_values; i++)
      {
        known |= tmpl->values[i] == x;
        g_string_append_printf (values, i ? ", %g" : "%g", tmpl->values[i]);
      }
    if (!known)
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s = %g is not a point of "
                   "the template '%s' (%s)", tmpl->variable, x, tmpl->name, values->str);
    g_string_free (values, TRUE);
    if (!known)
      return NULL;
  }
  if (!gpu_of (options, &target, &sm_count, error))
    return NULL;
  s = shape_of (tmpl->kind, x, op);
  s.target = target;
  if (s.kind == PROBE_REGISTER_PRESSURE)
    s.blocks = sm_count * PRESSURE_BLOCKS_PER_SM;
  result_init (r, tmpl, "model", "model");
  r->edited = TRUE;
  r->shown_x = x;
  if (is_chain (tmpl->kind))
    r->instruction = g_strdup (op->name);
  a = analyse_text (&s, ptx, TRUE, options, NULL, &spec, error);
  if (a == NULL)
    return NULL;
  if (a->module == NULL || a->kernel_index < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the probe's PTX has no kernel "
                   "'probe': %s", a->error ? a->error : "it did not parse");
      return NULL;
    }
  r->gpu = g_strdup (a->gpu ? a->gpu->id : options->gpu);
  r->arch = g_strdup (a->arch ? a->arch->id : "");
  r->ptx = g_strdup (ptx);
  r->sass = g_strdup (a->sass_text);
  verify (r, a, &s);
  if (!measure (a, &s, many_warps (s.kind), &pt.total_cycles, &pt.instructions)
      || pt.instructions == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the edited probe issued no %s between "
                   "two clock reads of every warp (mov.u64 %%rd, %%clock64), so it times nothing",
                   is_chain (tmpl->kind) ? op->ptx : "target instruction");
      return NULL;
    }
  pt.cycles_per_instruction = (double) pt.total_cycles / (double) pt.instructions;
  fill_point (&pt, a, &s);
  g_array_append_val (r->points, pt);

  /* its conclusion: the figure, no more than one point and no controls allow */
  if (!r->verified)
    r->conclusion = conclude (r, a);
  else
    {
      c = g_string_new (NULL);
      g_string_append_printf (c, "On KernelScope's timing model of the %s (%s), not on a GPU: "
                                 "your edited probe (%s = %g) issued %" G_GUINT64_FORMAT " %s "
                                 "in %" G_GUINT64_FORMAT " cycles between the clock reads%s: "
                                 "%.2f cycles per instruction.", gpu_name (a), r->arch,
                              tmpl->variable, x, pt.instructions,
                              is_chain (tmpl->kind) ? ks_probe_instruction_sass (op->name)
                              : "target instructions", pt.total_cycles,
                              many_warps (s.kind) ? " while every warp was in its loop" : "",
                              pt.cycles_per_instruction);
      g_string_append (c, " Evidence: the model's figure for one probe edited by hand, verified "
                          "in its PTX; its controls did not run (the template's time the "
                          "template's loop, not the edit's), so the figure includes the loop's "
                          "own instructions; a GPU has not run it.");
      r->conclusion = g_string_free (c, FALSE);
    }
  name = probe_file (&s, "ptx");
  add_file (r, g_strdup_printf ("binary/%s", name), g_strdup (ptx));
  add_file (r, g_strdup_printf ("binary/probe_%u.json", s.x), g_steal_pointer (&spec));
  if (a->sass_text)
    add_file (r, sass_file_name (a, s.x), g_strdup (a->sass_text));
  add_file (r, g_strdup ("runtime/runtime_raw.csv"),
            g_strdup_printf ("run,kernel,total_instructions,total_cycles,cycles_per_instruction,"
                             "checksum\n0,%s_edited_%g,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                             ",%.6f,%.9g\n", tmpl->name, x, pt.instructions, pt.total_cycles,
                             pt.cycles_per_instruction, pt.checksum));
  return g_steal_pointer (&r);
}

/* ---------------------------------------------------------------------- */
/* On a real GPU (seed sections 11 and 12)                                */

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
rank (const double *sorted,
      guint         n,
      double        q)
{
  double h = q * (n - 1);
  guint lo = (guint) floor (h);

  return lo + 1 < n ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[n - 1];
}

void
ks_probe_summarise (double         *v,
                    guint           n,
                    KsProbeSummary *s)
{
  double sum = 0, ss = 0;

  memset (s, 0, sizeof *s);
  if (n == 0)
    return;
  qsort (v, n, sizeof *v, compare_double);
  for (guint i = 0; i < n; i++)
    sum += v[i];
  s->count = n;
  s->mean = sum / n;
  for (guint i = 0; i < n; i++)
    ss += (v[i] - s->mean) * (v[i] - s->mean);
  s->std = n > 1 ? sqrt (ss / (n - 1)) : 0;
  s->min = v[0];
  s->max = v[n - 1];
  s->median = rank (v, n, 0.5);
  s->p5 = rank (v, n, 0.05);
  s->p95 = rank (v, n, 0.95);
}

char *
ks_probe_model_gpu_for (const char *name,
                        const char *arch,
                        int         sms)
{
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (NULL);
  const KsGpuInfo *best = NULL;
  const KsArchInfo *ai;

  if (db == NULL)
    return NULL;
  /* "NVIDIA H200" is the driver's name of the "NVIDIA H200 SXM 141GB" */
  for (uint32_t i = 0; best == NULL && i < db->n_gpus; i++)
    if (g_strcmp0 (db->gpus[i].arch, arch) == 0 && name && *name
        && g_str_has_prefix (db->gpus[i].name, name))
      best = &db->gpus[i];
  for (uint32_t i = 0; best == NULL && i < db->n_gpus; i++)
    if (g_strcmp0 (db->gpus[i].arch, arch) == 0 && (int) db->gpus[i].sm_count == sms)
      best = &db->gpus[i];
  ai = best == NULL ? ks_gpu_db_get_arch (db, arch) : NULL;
  if (ai != NULL)
    best = ks_gpu_db_representative_gpu (db, ai);
  return best ? g_strdup (best->id) : NULL;
}

gboolean
ks_probe_calibration (const KsProbeResult *r,
                      char               **arch,
                      int                 *klass,
                      guint               *latency,
                      double              *measured,
                      GError             **error)
{
  static const struct
  {
    const char *instruction;
    KsLatencyClass klass;
  } classes[] = {
    { "ffma", KS_LATENCY_FFMA }, { "iadd3", KS_LATENCY_IADD3 }, { "imad", KS_LATENCY_IMAD },
    { "dfma", KS_LATENCY_DFMA }, { "mufu", KS_LATENCY_MUFU },
  };
  const char *instruction = r->instruction ? r->instruction : "ffma";
  int k = -1;
  double v = NAN;

  if (r->device == NULL || r->device_arch == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the experiment ran on the "
                   "model alone: only a GPU's measurement can calibrate the model");
      return FALSE;
    }
  if (!r->verified || r->edited)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the experiment %s: it "
                   "supports no calibration", r->edited ? "is one probe edited by hand, "
                   "without controls" : "failed verification");
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (g_str_equal (classes[i].instruction, instruction))
      k = (int) classes[i].klass;
  if (k < 0 || (r->tmpl->kind != PROBE_FFMA_COUNT && r->tmpl->kind != PROBE_FFMA_ACCUMULATORS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "a calibration is a "
                   "dependent chain's latency: a chain-length or accumulators experiment of "
                   "ffma, iadd3, imad, dfma or mufu (this is %s of %s)", r->tmpl->name,
                   instruction);
      return FALSE;
    }
  if (r->tmpl->kind == PROBE_FFMA_COUNT)
    v = r->have_gpu_fit ? r->gpu_slope : NAN;
  else
    for (guint i = 0; i < r->points->len; i++)
      {
        const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

        if (p->x == 1 && p->gpu.count > 0)
          v = isnan (p->gpu_corrected) ? p->gpu.median : p->gpu_corrected;
      }
  if (!(v >= 1) || v > 100000)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the measured latency (%g "
                   "cycles) is not one a GPU has", v);
      return FALSE;
    }
  *arch = g_strdup (r->device_arch);
  *klass = k;
  *latency = (guint) lround (v);
  *measured = v;
  return TRUE;
}

KsProbeResult *
ks_probe_result_measured (const KsProbeResult *r)
{
  KsProbeResult *m = g_new0 (KsProbeResult, 1);

  g_return_val_if_fail (r != NULL, NULL);
  result_init (m, r->tmpl, r->ran_on, r->evidence);
  m->instruction = g_strdup (r->instruction);
  m->gpu = g_strdup (r->gpu);
  m->arch = g_strdup (r->arch);
  m->device = g_strdup (r->device);
  m->device_arch = g_strdup (r->device_arch);
  m->edited = r->edited;
  m->gpu_view = TRUE;
  m->shown_x = r->shown_x;
  m->warmup_runs = r->warmup_runs;
  m->measured_runs = r->measured_runs;
  m->have_fit = r->have_gpu_fit;
  m->slope = r->gpu_slope;
  m->intercept = r->gpu_intercept;
  m->r2 = r->gpu_r2;
  for (guint i = 0; i < r->points->len; i++)
    {
      KsProbePoint p = g_array_index (r->points, KsProbePoint, i);

      if (p.gpu.count == 0)
        continue;
      p.cycles_per_instruction = p.gpu.median;
      p.corrected = p.gpu_corrected;
      p.total_cycles = (uint64_t) llround (p.gpu.median * (double) p.instructions);
      p.checksum = p.gpu_checksum;
      g_array_append_val (m->points, p);
    }
  return m;
}

/* One probe's (or control's) runs on the GPU.  A warp's cycles are its
 * first thread's clock64 delta; one warp's probe is timed by warp 0, the
 * sweeps of many warps by the median warp over the instructions of the
 * warps the SM holds at once (resident): a warp's loop lasts as long as
 * the SM takes to issue all of theirs. */
typedef struct
{
  uint64_t cycles, instructions;
  double checksum;
} GpuSample;

static gboolean
gpu_runs (KsCuda       *cuda,
          int           ordinal,
          const Shape  *s,
          const char   *ptx,
          uint64_t      instructions,
          guint         resident,
          guint         warmup,
          guint         runs,
          GArray       *samples,
          GError      **error)
{
  g_autofree char *name = probe_file (s, "ptx");
  g_autofree char *spec = probe_spec (s, name);
  g_autoptr(KsLaunch) launch = ks_launch_parse (spec, -1, NULL, error);
  g_autoptr(KsCudaKernel) k = NULL;
  uint64_t threads = (uint64_t) s->threads * s->blocks, warps = (threads + 31) / 32;
  g_autofree int64_t *deltas = g_new (int64_t, warps);

  if (launch == NULL)
    return FALSE;
  k = ks_cuda_kernel_new (cuda, ordinal, ptx, launch, error);
  if (k == NULL)
    return FALSE;
  for (guint i = 0; i < warmup + runs; i++)
    {
      const uint8_t *bytes;
      size_t size = 0;
      GpuSample g = { 0 };

      if (!ks_cuda_kernel_launch (k, error))
        {
          g_prefix_error (error, "%s, run %u: ", name, i);
          return FALSE;
        }
      if (i < warmup)
        continue;
      bytes = ks_cuda_kernel_read (k, 1, &size, error);
      if (bytes == NULL)
        return FALSE;
      if (size < warps * 32 * 8 - 31 * 8)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: the cycles buffer holds %"
                       G_GSIZE_FORMAT " bytes, not a delta for each of %" G_GUINT64_FORMAT
                       " warps", name, size, warps);
          return FALSE;
        }
      for (uint64_t w = 0; w < warps; w++)
        memcpy (&deltas[w], bytes + w * 32 * 8, 8);
      if (warps > 1 && many_warps (s->kind))
        {
          double *sorted = g_new (double, warps);
          KsProbeSummary sum;

          for (uint64_t w = 0; w < warps; w++)
            sorted[w] = (double) deltas[w];
          ks_probe_summarise (sorted, (guint) warps, &sum);
          g_free (sorted);
          if (sum.min <= 0)
            deltas[0] = (int64_t) sum.min;
          else
            deltas[0] = (int64_t) llround (sum.median);
        }
      if (deltas[0] <= 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s, run %u: a warp's clock reads "
                       "gave %" G_GINT64_FORMAT " cycles; the probe did not time its loop on "
                       "the GPU", name, i, deltas[0]);
          return FALSE;
        }
      g.cycles = (uint64_t) deltas[0];
      g.instructions = instructions * MAX (resident, 1u);
      bytes = ks_cuda_kernel_read (k, 0, &size, error);
      if (bytes == NULL)
        return FALSE;
      g.checksum = checksum_bytes (bytes, size, s);
      g_array_append_val (samples, g);
    }
  return TRUE;
}

static double
median_cycles (const GArray *samples)
{
  g_autofree double *v = g_new (double, MAX (samples->len, 1));
  KsProbeSummary sum;

  for (guint i = 0; i < samples->len; i++)
    v[i] = (double) g_array_index (samples, GpuSample, i).cycles;
  ks_probe_summarise (v, samples->len, &sum);
  return sum.count ? sum.median : NAN;
}

/* Replaces a file of the folder's, or adds it */
static void
set_file (KsProbeResult *r,
          const char    *path,
          char          *content)
{
  for (guint i = 0; i + 1 < r->files->len; i += 2)
    if (g_strcmp0 (g_ptr_array_index (r->files, i), path) == 0)
      {
        g_free (r->files->pdata[i + 1]);
        r->files->pdata[i + 1] = content;
        return;
      }
  add_file (r, g_strdup (path), content);
}

static void
rename_file (KsProbeResult *r,
             const char    *from,
             const char    *to)
{
  for (guint i = 0; i + 1 < r->files->len; i += 2)
    if (g_strcmp0 (g_ptr_array_index (r->files, i), from) == 0)
      {
        g_free (r->files->pdata[i]);
        r->files->pdata[i] = g_strdup (to);
      }
}

static const char *
point_label (const KsProbeResult *r,
             GString             *s,
             double               x)
{
  g_string_printf (s, "%s%s%s%s_%g", r->tmpl->name, r->instruction ? "_" : "",
                   r->instruction ? r->instruction : "", r->edited ? "_edited" : "", x);
  return s->str;
}

gboolean
ks_probe_run_on_gpu (KsProbeResult *r,
                     KsCuda        *cuda,
                     int            ordinal,
                     guint          warmup,
                     guint          runs,
                     GError       **error)
{
  const ProbeOp *op = find_op (r->instruction ? r->instruction : "ffma");
  g_autofree char *arch = NULL, *device = NULL;
  g_autoptr(GArray) points = NULL, all = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  GString *raw, *summary, *env;
  double empty_median = NAN, timer_median = NAN;
  gboolean same = TRUE;
  guint mismatch = G_MAXUINT;
  KsCudaDevice dev;

  g_return_val_if_fail (r != NULL && cuda != NULL, FALSE);
  if (r->points->len == 0 || (r->edited && r->ptx == NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "the experiment has no probe to run: run it on the model first");
      return FALSE;
    }
  if (r->gpu_runs != NULL || r->device != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "the experiment has run on a GPU "
                   "already (%s): run it again from the model", r->device);
      return FALSE;
    }
  if (r->edited && many_warps (r->tmpl->kind))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "an edited probe of the '%s' "
                   "sweep runs on the model only: its warps' instructions on the GPU are "
                   "counted from the template's loop, which the edit may not keep",
                   r->tmpl->name);
      return FALSE;
    }
  if (!ks_cuda_device (cuda, ordinal, &dev, error))
    return FALSE;
  runs = CLAMP (runs, 1u, 100000u);
  warmup = MIN (warmup, 100000u);
  arch = ks_cuda_device_arch (&dev);
  device = g_strdup_printf ("%s (%s, %d SMs)", dev.name, arch, dev.sms);
  points = g_array_copy (r->points);
  all = g_array_new (FALSE, FALSE, sizeof (KsProbeGpuRun));
  for (guint i = 0; i < points->len; i++)
    {
      KsProbePoint *p = &g_array_index (points, KsProbePoint, i);
      Shape s = shape_of (r->tmpl->kind, p->x, op);
      g_autofree char *ptx = NULL;
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (GpuSample));
      g_autofree double *cpi = g_new (double, runs);
      guint resident = 1;
      uint64_t per_warp = p->instructions;

      s.target = arch;
      if (s.kind == PROBE_REGISTER_PRESSURE)
        s.blocks = (uint32_t) MAX (dev.sms, 1) * PRESSURE_BLOCKS_PER_SM;
      if (many_warps (s.kind))
        {
          /* the model's figure is the window's; the GPU's the median warp's */
          per_warp = (uint64_t) s.iterations * s.per_body;
          resident = s.kind == PROBE_WARP_COUNT ? s.x : (guint) MAX (p->resident_warps, 1);
        }
      ptx = r->edited ? g_strdup (r->ptx) : probe_ptx (&s, VARIANT_PROBE);
      if (!gpu_runs (cuda, ordinal, &s, ptx, per_warp, resident, warmup, runs, samples, error))
        return FALSE;
      for (guint k = 0; k < samples->len; k++)
        {
          const GpuSample *g = &g_array_index (samples, GpuSample, k);
          KsProbeGpuRun run = { i, k, g->instructions, g->cycles,
                                (double) g->cycles / (double) g->instructions, g->checksum };

          cpi[k] = run.cycles_per_instruction;
          g_array_append_val (all, run);
          /* the same bits as the simulator's (NAN for neither) */
          if (!(g->checksum == p->checksum || (isnan (g->checksum) && isnan (p->checksum))))
            {
              same = FALSE;
              mismatch = MIN (mismatch, i);
            }
        }
      p->gpu_checksum = g_array_index (samples, GpuSample, 0).checksum;
      ks_probe_summarise (cpi, samples->len, &p->gpu);
      p->gpu_corrected = NAN;
      /* the controls: each one-warp point's empty loop; the timer alone once */
      if (!r->edited && (!many_warps (s.kind) || i == shown_index (r->tmpl)))
        {
          g_autofree char *empty = probe_ptx (&s, VARIANT_EMPTY_LOOP);
          g_autoptr(GArray) control = g_array_new (FALSE, FALSE, sizeof (GpuSample));
          double median;

          if (!gpu_runs (cuda, ordinal, &s, empty, 1, 1, warmup, runs, control, error))
            return FALSE;
          median = median_cycles (control);
          if (!many_warps (s.kind) && median <= p->gpu.median * per_warp)
            p->gpu_corrected = (p->gpu.median * per_warp - median) / per_warp;
          if (i == shown_index (r->tmpl))
            empty_median = median;
        }
      if (!r->edited && i == shown_index (r->tmpl))
        {
          g_autofree char *timer = probe_ptx (&s, VARIANT_TIMER);
          g_autoptr(GArray) control = g_array_new (FALSE, FALSE, sizeof (GpuSample));

          if (!gpu_runs (cuda, ordinal, &s, timer, 1, 1, warmup, runs, control, error))
            return FALSE;
          timer_median = median_cycles (control);
        }
    }

  /* every run succeeded: the result takes them */
  g_array_unref (r->points);
  r->points = g_steal_pointer (&points);
  r->gpu_runs = g_steal_pointer (&all);
  r->warmup_runs = warmup;
  r->measured_runs = runs;
  r->gpu_empty_loop_cycles = empty_median;
  r->gpu_timer_cycles = timer_median;
  r->device = g_strdup (device);
  r->device_arch = g_strdup (arch);
  r->device_ordinal = ordinal;
  g_free (r->ran_on);
  r->ran_on = g_strdup ("gpu");
  g_free (r->evidence);
  r->evidence = g_strdup (r->edited || r->points->len < 2 ? "measured" : "controls-and-sweeps");
  {
    const KsProbePoint *p = &g_array_index (r->points, KsProbePoint,
                                            mismatch < r->points->len ? mismatch : 0);
    g_autofree char *detail = NULL;

    if (same)
      detail = g_strdup_printf ("every measured run stored what the simulator computed (%.9g "
                                "for %s = %g)", p->checksum, r->tmpl->variable, p->x);
    else
      detail = g_strdup_printf ("for %s = %g the GPU stored %.9g, the simulator %.9g",
                                r->tmpl->variable, p->x, p->gpu_checksum, p->checksum);
    add_check (r, N_("the GPU's result is the simulator's"), TRUE, same, g_steal_pointer (&detail),
               NULL, NULL);
  }

  /* the fit and the conclusion of the GPU's figures: a copy of the points
   * with the medians in the places the model's figures are read from */
  {
    g_autoptr(KsProbeResult) view = ks_probe_result_measured (r);

    if (r->tmpl->kind == PROBE_FFMA_COUNT && !r->edited)
      {
        fit_line (view);
        r->have_gpu_fit = view->have_fit;
        r->gpu_slope = view->slope;
        r->gpu_intercept = view->intercept;
        r->gpu_r2 = view->r2;
      }
    view->verified = r->verified;
    g_free (r->conclusion);
    if (r->edited && r->verified)
      {
        const KsProbePoint *p = &g_array_index (view->points, KsProbePoint, 0);

        r->conclusion = g_strdup_printf ("On the %s, the median of %u runs after %u warm-up "
                                         "runs: your edited probe (%s = %g) took %.2f cycles per "
                                         "instruction (min %.2f, max %.2f); the model gave %.2f. "
                                         "Evidence: measured on the GPU, one probe edited by "
                                         "hand, verified in its PTX, without controls, so the "
                                         "figure includes the loop's own instructions.",
                                         device, runs, warmup, r->tmpl->variable, p->x,
                                         p->gpu.median, p->gpu.min, p->gpu.max,
                                         g_array_index (r->points, KsProbePoint, 0)
                                         .cycles_per_instruction);
      }
    else
      {
        /* r's checks, for the words of a failed one, lent to the view */
        GPtrArray *own = view->checks;

        view->checks = r->checks;
        r->conclusion = conclude_as (view, NULL, device);
        view->checks = own;
      }
  }

  /* the folder: the seed's runtime files are the GPU's now */
  rename_file (r, "runtime/runtime_raw.csv", "runtime/model_raw.csv");
  raw = g_string_new ("run,kernel,total_instructions,total_cycles,cycles_per_instruction,"
                      "checksum\n");
  for (guint i = 0; i < r->gpu_runs->len; i++)
    {
      const KsProbeGpuRun *g = &g_array_index (r->gpu_runs, KsProbeGpuRun, i);

      g_string_append_printf (raw, "%u,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.6f,%.9g\n",
                              g->run, point_label (r, label, g_array_index (r->points,
                                                                            KsProbePoint,
                                                                            g->point).x),
                              g->total_instructions, g->total_cycles, g->cycles_per_instruction,
                              g->checksum);
    }
  set_file (r, "runtime/runtime_raw.csv", g_string_free (raw, FALSE));
  summary = g_string_new (NULL);
  g_string_append_printf (summary, "# %s: cycles per instruction over %u measured runs after %u "
                                   "warm-up runs\nkernel,count,min,median,mean,max,std,p5,p95,"
                                   "corrected_median,model\n", device, runs, warmup);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

      g_string_append_printf (summary, "%s,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                              point_label (r, label, p->x), p->gpu.count, p->gpu.min,
                              p->gpu.median, p->gpu.mean, p->gpu.max, p->gpu.std, p->gpu.p5,
                              p->gpu.p95, p->gpu_corrected, p->cycles_per_instruction);
    }
  if (!r->edited)
    g_string_append_printf (summary, "# controls (median cycles): empty loop %.0f, timer %.0f\n",
                            empty_median, timer_median);
  set_file (r, "runtime/runtime_summary.txt", g_string_free (summary, FALSE));
  env = g_string_new (NULL);
  g_string_append_printf (env, "device %d: %s\ncompute capability: %d.%d\nmultiprocessors: %d\n"
                               "clock (the driver's typical): %d MHz\ndriver: CUDA %d.%d (%s)\n"
                               "the probes: PTX for %s, compiled by the driver's JIT\n",
                          dev.ordinal, dev.name, dev.major, dev.minor, dev.sms,
                          dev.clock_khz / 1000, dev.driver_version / 1000,
                          dev.driver_version % 1000 / 10, ks_cuda_library (cuda), arch);
  set_file (r, "environment/gpu_environment.txt", g_string_free (env, FALSE));
  return TRUE;
}

void
ks_probe_result_free (KsProbeResult *r)
{
  if (r == NULL)
    return;
  for (guint i = 0; r->checks && i < r->checks->len; i++)
    {
      KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      g_free (c->item);
      g_free (c->detail);
      g_array_unref (c->lines);
      g_array_unref (c->sass_lines);
      g_free (c);
    }
  if (r->checks)
    g_ptr_array_unref (r->checks);
  if (r->points)
    g_array_unref (r->points);
  if (r->files)
    g_ptr_array_unref (r->files);
  g_free (r->gpu);
  g_free (r->arch);
  g_free (r->instruction);
  g_free (r->ran_on);
  g_free (r->evidence);
  g_free (r->conclusion);
  g_free (r->ptx);
  g_free (r->cuda);
  g_free (r->sass);
  g_free (r->saved_date);
  g_free (r->device);
  g_free (r->device_arch);
  if (r->gpu_runs)
    g_array_unref (r->gpu_runs);
  g_free (r);
}

static void
set_double_or_null (JsonBuilder *b,
                    const char  *name,
                    double       v)
{
  json_builder_set_member_name (b, name);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
set_int_or_null (JsonBuilder *b,
                 const char  *name,
                 int          v)
{
  json_builder_set_member_name (b, name);
  if (v >= 0)
    json_builder_add_int_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
add_lines (JsonBuilder  *b,
           const char   *name,
           const GArray *lines)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < lines->len; i++)
    json_builder_add_int_value (b, g_array_index (lines, guint32, i));
  json_builder_end_array (b);
}

static void
add_fit (JsonBuilder *b,
         const char  *name,
         gboolean     have,
         double       slope,
         double       intercept,
         double       r2)
{
  json_builder_set_member_name (b, name);
  if (!have)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  set_double_or_null (b, "slope", slope);
  set_double_or_null (b, "intercept", intercept);
  set_double_or_null (b, "r2", r2);
  json_builder_end_object (b);
}

JsonNode *
ks_probe_result_to_json (const KsProbeResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *title = title_of (r->tmpl, r->instruction, FALSE);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "template");
  json_builder_add_string_value (b, r->tmpl->name);
  json_builder_set_member_name (b, "title");
  json_builder_add_string_value (b, title);
  json_builder_set_member_name (b, "variable");
  json_builder_add_string_value (b, r->tmpl->variable);
  json_builder_set_member_name (b, "instruction");
  if (r->instruction)
    json_builder_add_string_value (b, r->instruction);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "hypothesis");
  json_builder_add_string_value (b, r->tmpl->hypothesis);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, r->gpu);
  json_builder_set_member_name (b, "arch");
  json_builder_add_string_value (b, r->arch);
  json_builder_set_member_name (b, "ran_on");
  json_builder_add_string_value (b, r->ran_on);
  json_builder_set_member_name (b, "evidence");
  json_builder_add_string_value (b, r->evidence);
  if (r->device != NULL)
    {
      json_builder_set_member_name (b, "device");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, r->device);
      json_builder_set_member_name (b, "arch");
      json_builder_add_string_value (b, r->device_arch);
      json_builder_set_member_name (b, "warmup_runs");
      json_builder_add_int_value (b, r->warmup_runs);
      json_builder_set_member_name (b, "measured_runs");
      json_builder_add_int_value (b, r->measured_runs);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "verified");
  json_builder_add_boolean_value (b, r->verified);
  json_builder_set_member_name (b, "edited");
  json_builder_add_boolean_value (b, r->edited);
  json_builder_set_member_name (b, "verification");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->checks->len; i++)
    {
      const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "item");
      json_builder_add_string_value (b, c->item);
      json_builder_set_member_name (b, "pass");
      if (c->checked)
        json_builder_add_boolean_value (b, c->pass);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "detail");
      json_builder_add_string_value (b, c->detail);
      add_lines (b, "ptx_lines", c->lines);
      add_lines (b, "sass_lines", c->sass_lines);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "controls");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "empty_loop_cycles");
  json_builder_add_int_value (b, (gint64) r->empty_loop_cycles);
  json_builder_set_member_name (b, "timer_cycles");
  json_builder_add_int_value (b, (gint64) r->timer_cycles);
  if (r->device != NULL)
    {
      set_double_or_null (b, "gpu_empty_loop_cycles", r->gpu_empty_loop_cycles);
      set_double_or_null (b, "gpu_timer_cycles", r->gpu_timer_cycles);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);
      /* the figures are those of where it ran: a GPU's medians, the
       * model's beside them */
      gboolean gpu = p->gpu.count > 0;

      json_builder_begin_object (b);
      set_double_or_null (b, "x", p->x);
      json_builder_set_member_name (b, "total_instructions");
      json_builder_add_int_value (b, (gint64) p->instructions);
      json_builder_set_member_name (b, "total_cycles");
      json_builder_add_int_value (b, (gint64) p->total_cycles);
      set_double_or_null (b, "cycles_per_instruction",
                          gpu ? p->gpu.median : p->cycles_per_instruction);
      set_double_or_null (b, "corrected_cycles_per_instruction",
                          gpu ? p->gpu_corrected : p->corrected);
      if (gpu)
        {
          set_double_or_null (b, "model_cycles_per_instruction", p->cycles_per_instruction);
          set_double_or_null (b, "model_corrected_cycles_per_instruction", p->corrected);
          json_builder_set_member_name (b, "gpu");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "count");
          json_builder_add_int_value (b, p->gpu.count);
          set_double_or_null (b, "min", p->gpu.min);
          set_double_or_null (b, "median", p->gpu.median);
          set_double_or_null (b, "mean", p->gpu.mean);
          set_double_or_null (b, "max", p->gpu.max);
          set_double_or_null (b, "std", p->gpu.std);
          set_double_or_null (b, "p5", p->gpu.p5);
          set_double_or_null (b, "p95", p->gpu.p95);
          set_double_or_null (b, "checksum", p->gpu_checksum);
          json_builder_end_object (b);
        }
      if (r->tmpl->kind == PROBE_SHARED_STRIDE)
        set_double_or_null (b, "ways", p->ways);
      set_int_or_null (b, "registers", p->registers);
      set_int_or_null (b, "spill_loads", p->spill_loads);
      set_int_or_null (b, "spill_stores", p->spill_stores);
      if (r->tmpl->kind == PROBE_REGISTER_PRESSURE)
        {
          set_int_or_null (b, "resident_warps", p->resident_warps);
          json_builder_set_member_name (b, "occupancy_limiter");
          if (p->limiter)
            json_builder_add_string_value (b, ks_occupancy_limiter_name (p->limiter));
          else
            json_builder_add_null_value (b);
        }
      set_double_or_null (b, "checksum", p->checksum);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_fit (b, "fit", r->device ? r->have_gpu_fit : r->have_fit,
           r->device ? r->gpu_slope : r->slope, r->device ? r->gpu_intercept : r->intercept,
           r->device ? r->gpu_r2 : r->r2);
  if (r->device)
    add_fit (b, "model_fit", r->have_fit, r->slope, r->intercept, r->r2);
  json_builder_set_member_name (b, "conclusion");
  json_builder_add_string_value (b, r->conclusion);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
write_file (const char *dir,
            const char *rel,
            const char *content,
            GError    **error)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  if (g_mkdir_with_parents (parent, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", parent,
                   g_strerror (errno));
      return FALSE;
    }
  return g_file_set_contents (path, content, -1, error);
}

gboolean
ks_probe_write_folder (const KsProbeResult *r,
                       const char          *dir,
                       GError             **error)
{
  g_autoptr(JsonNode) root = ks_probe_result_to_json (r);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *meta = NULL, *build = NULL, *run = NULL, *env = NULL, *concl = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format_iso8601 (now);
  JsonObject *o = json_node_get_object (root);

  json_object_set_string_member (o, "date", stamp);
  json_object_set_string_member (o, "kernelscope_version", PACKAGE_VERSION);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  meta = json_generator_to_data (gen, NULL);
  build = g_strdup_printf ("# The probe as a GPU would run it, for each value X of %s:\n"
                           "nvcc -O3 -lineinfo -Xptxas=-v -arch=%s binary/probe_X.cu "
                           "-o binary/probe_X\n"
                           "# On the model: binary/probe_X.json, the launch of the PTX beside "
                           "it, as `kernelscope-cli analyze` runs it\n",
                           r->tmpl->variable, r->arch);
  if (r->edited)
    run = g_strdup_printf ("kernelscope-cli probe run %s%s%s --gpu %s --ptx binary/probe_%g.ptx "
                           "--x %g --out DIR\n", r->tmpl->name,
                           r->instruction ? " --instruction " : "",
                           r->instruction ? r->instruction : "", r->gpu, r->shown_x, r->shown_x);
  else
    run = g_strdup_printf ("kernelscope-cli probe run %s%s%s --gpu %s --out DIR\n", r->tmpl->name,
                           r->instruction ? " --instruction " : "",
                           r->instruction ? r->instruction : "", r->gpu);
  if (r->device != NULL)
    {
      /* the same command, on the GPU (the line ends in "--out DIR\n") */
      char *on = g_strdup_printf ("%.*s--on gpu --device %d --warmup %u --runs %u --out DIR\n",
                                  (int) (strlen (run) - strlen ("--out DIR\n")), run,
                                  r->device_ordinal, r->warmup_runs, r->measured_runs);

      g_free (run);
      run = on;
      env = g_strdup_printf ("kernelscope %s\nran on: gpu (%s, device %d; see "
                             "gpu_environment.txt) and KernelScope's timing model of %s, %s\n"
                             "date: %s\n", PACKAGE_VERSION, r->device, r->device_ordinal,
                             r->gpu, r->arch, stamp);
    }
  else
    env = g_strdup_printf ("kernelscope %s\nran on: %s (KernelScope's timing model of %s, %s)\n"
                           "date: %s\n", PACKAGE_VERSION, r->ran_on, r->gpu, r->arch, stamp);
  {
    GString *c = g_string_new (NULL);

    g_autofree char *title = title_of (r->tmpl, r->instruction, FALSE);

    g_string_append_printf (c, "# %s\n\n## Hypothesis\n\n%s\n\n## Verification\n\n",
                            title, r->tmpl->hypothesis);
    for (guint i = 0; i < r->checks->len; i++)
      {
        const KsProbeCheck *k = g_ptr_array_index (r->checks, i);

        g_string_append_printf (c, "- %s %s: %s\n", !k->checked ? "[not checked]"
                                : k->pass ? "[pass]" : "[FAIL]", k->item, k->detail);
      }
    g_string_append_printf (c, "\n## Conclusion (evidence: %s)\n\n%s\n", r->evidence,
                            r->conclusion);
    concl = g_string_free (c, FALSE);
  }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", dir,
                   g_strerror (errno));
      return FALSE;
    }
  if (!write_file (dir, "metadata.json", meta, error)
      || !write_file (dir, "build_command.txt", build, error)
      || !write_file (dir, "run_command.txt", run, error)
      || !write_file (dir, "environment/kernelscope.txt", env, error)
      || !write_file (dir, "conclusion.md", concl, error))
    return FALSE;
  for (guint i = 0; i + 1 < r->files->len; i += 2)
    if (!write_file (dir, g_ptr_array_index (r->files, i), g_ptr_array_index (r->files, i + 1),
                     error))
      return FALSE;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* A saved folder read back */

typedef struct
{
  const char *path;             /* DIR/metadata.json */
  const char *text;
  gsize length;
} Saved;

/* "PATH:LINE:COL: message" at the member (a ks_json_locate() path) */
static gboolean G_GNUC_PRINTF (4, 5)
saved_fail (const Saved *s,
            GError     **error,
            const char  *member,
            const char  *format,
            ...)
{
  g_autofree char *message = NULL;
  guint line = 1, column = 1;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (member == NULL || !ks_json_locate (s->text, s->length, member, &line, &column))
    line = column = 1;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:%u:%u: %s", s->path, line,
               column, message);
  return FALSE;
}

/* A member of o that is a string; NULL when absent or null and nullable */
static gboolean
saved_string (const Saved *s,
              JsonObject  *o,
              const char  *prefix,
              const char  *member,
              gboolean     nullable,
              const char **value,
              GError     **error)
{
  JsonNode *n = json_object_get_member (o, member);
  g_autofree char *where = g_strconcat (prefix, member, NULL);

  *value = NULL;
  if (nullable && (n == NULL || JSON_NODE_HOLDS_NULL (n)))
    return TRUE;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return saved_fail (s, error, n ? where : NULL, "\"%s\" is %s: not an experiment folder "
                       "that 'probe run --out' wrote", where, n ? "not a string" : "missing");
  *value = json_node_get_string (n);
  return TRUE;
}

/* A member of o that is a number; def when absent or null and nullable */
static gboolean
saved_number (const Saved *s,
              JsonObject  *o,
              const char  *prefix,
              const char  *member,
              gboolean     nullable,
              double       def,
              double      *value,
              GError     **error)
{
  JsonNode *n = json_object_get_member (o, member);
  g_autofree char *where = g_strconcat (prefix, member, NULL);
  GType type = n && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_value_type (n) : G_TYPE_INVALID;

  *value = def;
  if (nullable && (n == NULL || JSON_NODE_HOLDS_NULL (n)))
    return TRUE;
  if (type == G_TYPE_DOUBLE)
    *value = json_node_get_double (n);
  else if (type == G_TYPE_INT64)
    *value = (double) json_node_get_int (n);
  else
    return saved_fail (s, error, n ? where : NULL, "\"%s\" is %s", where,
                       n ? "not a number" : "missing");
  return TRUE;
}

static GArray *
saved_lines (JsonObject *o,
             const char *member)
{
  GArray *lines = lines_new ();
  JsonNode *n = json_object_get_member (o, member);
  JsonArray *a = n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;

  for (guint i = 0; a && i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_INT64
          && json_node_get_int (e) > 0 && json_node_get_int (e) <= G_MAXUINT32)
        lines_add (lines, (guint32) json_node_get_int (e));
    }
  return lines;
}

static gboolean
saved_point (const Saved   *s,
             JsonNode      *node,
             guint          i,
             KsProbePoint  *p,
             GError       **error)
{
  g_autofree char *prefix = g_strdup_printf ("points[%u].", i);
  g_autofree char *where = g_strdup_printf ("points[%u]", i);
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  double v[9];
  const char *limiter = NULL;

  if (o == NULL)
    return saved_fail (s, error, where, "\"%s\" is not an object", where);
  if (!saved_number (s, o, prefix, "x", FALSE, 0, &p->x, error)
      || !saved_number (s, o, prefix, "cycles_per_instruction", FALSE, 0,
                        &p->cycles_per_instruction, error)
      || !saved_number (s, o, prefix, "total_instructions", TRUE, 0, &v[0], error)
      || !saved_number (s, o, prefix, "total_cycles", TRUE, 0, &v[1], error)
      || !saved_number (s, o, prefix, "corrected_cycles_per_instruction", TRUE, NAN, &p->corrected,
                        error)
      || !saved_number (s, o, prefix, "ways", TRUE, NAN, &p->ways, error)
      || !saved_number (s, o, prefix, "registers", TRUE, -1, &v[2], error)
      || !saved_number (s, o, prefix, "spill_loads", TRUE, -1, &v[3], error)
      || !saved_number (s, o, prefix, "spill_stores", TRUE, -1, &v[4], error)
      || !saved_number (s, o, prefix, "resident_warps", TRUE, -1, &v[5], error)
      || !saved_number (s, o, prefix, "checksum", TRUE, NAN, &p->checksum, error)
      || !saved_string (s, o, prefix, "occupancy_limiter", TRUE, &limiter, error))
    return FALSE;
  if (!(v[0] >= 0 && v[1] >= 0 && p->cycles_per_instruction >= 0))
    return saved_fail (s, error, where, "\"%s\" has a negative count or figure", where);
  p->gpu_corrected = NAN;
  p->gpu_checksum = NAN;
  /* a GPU's run: its medians are the point's figures, the model's beside */
  if (json_object_has_member (o, "model_cycles_per_instruction"))
    {
      JsonNode *g = json_object_get_member (o, "gpu");
      JsonObject *go = g && JSON_NODE_HOLDS_OBJECT (g) ? json_node_get_object (g) : NULL;
      g_autofree char *gprefix = g_strdup_printf ("points[%u].gpu.", i);
      double count = 0, model = 0;

      if (go == NULL)
        return saved_fail (s, error, where, "\"%s\" has the model's figure but no \"gpu\" "
                           "object", where);
      p->gpu_corrected = p->corrected;
      if (!saved_number (s, o, prefix, "model_cycles_per_instruction", FALSE, 0, &model, error)
          || !saved_number (s, o, prefix, "model_corrected_cycles_per_instruction", TRUE, NAN,
                            &p->corrected, error)
          || !saved_number (s, go, gprefix, "count", FALSE, 0, &count, error)
          || !saved_number (s, go, gprefix, "min", FALSE, 0, &p->gpu.min, error)
          || !saved_number (s, go, gprefix, "median", FALSE, 0, &p->gpu.median, error)
          || !saved_number (s, go, gprefix, "mean", FALSE, 0, &p->gpu.mean, error)
          || !saved_number (s, go, gprefix, "max", FALSE, 0, &p->gpu.max, error)
          || !saved_number (s, go, gprefix, "std", FALSE, 0, &p->gpu.std, error)
          || !saved_number (s, go, gprefix, "p5", FALSE, 0, &p->gpu.p5, error)
          || !saved_number (s, go, gprefix, "p95", FALSE, 0, &p->gpu.p95, error)
          || !saved_number (s, go, gprefix, "checksum", TRUE, NAN, &p->gpu_checksum, error))
        return FALSE;
      if (!(count >= 1 && count <= G_MAXUINT && model >= 0))
        return saved_fail (s, error, where, "\"%s\" has a GPU count or a model figure out of "
                           "range", where);
      p->gpu.count = (guint) count;
      p->cycles_per_instruction = model;
    }
  p->instructions = (uint64_t) v[0];
  p->total_cycles = (uint64_t) v[1];
  p->registers = (int) CLAMP (v[2], -1, G_MAXINT);
  p->spill_loads = (int) CLAMP (v[3], -1, G_MAXINT);
  p->spill_stores = (int) CLAMP (v[4], -1, G_MAXINT);
  p->resident_warps = (int) CLAMP (v[5], -1, G_MAXINT);
  for (int bit = 1; limiter != NULL && bit <= KS_OCCUPANCY_LIMIT_BARRIERS; bit <<= 1)
    if (g_strcmp0 (ks_occupancy_limiter_name ((KsOccupancyLimiter) bit), limiter) == 0)
      p->limiter = bit;
  return TRUE;
}

KsProbeResult *
ks_probe_result_load (const char *dir,
                      GError    **error)
{
  g_autoptr(KsProbeResult) r = g_new0 (KsProbeResult, 1);
  g_autofree char *path = g_build_filename (dir, "metadata.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *name, *instruction, *gpu, *arch, *ran_on, *evidence, *conclusion, *date;
  JsonNode *root, *n;
  JsonObject *o;
  JsonArray *points;
  gsize length = 0;
  Saved s;

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  s = (Saved) { path, text, length };
  if (!ks_json_load_data (parser, text, (gssize) length, path, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      saved_fail (&s, error, NULL, "not a JSON object: not an experiment folder's metadata");
      return NULL;
    }
  o = json_node_get_object (root);
  if (!saved_string (&s, o, "", "template", FALSE, &name, error)
      || !saved_string (&s, o, "", "instruction", TRUE, &instruction, error)
      || !saved_string (&s, o, "", "gpu", FALSE, &gpu, error)
      || !saved_string (&s, o, "", "arch", TRUE, &arch, error)
      || !saved_string (&s, o, "", "ran_on", TRUE, &ran_on, error)
      || !saved_string (&s, o, "", "evidence", TRUE, &evidence, error)
      || !saved_string (&s, o, "", "conclusion", TRUE, &conclusion, error)
      || !saved_string (&s, o, "", "date", TRUE, &date, error))
    return NULL;
  r->tmpl = ks_probe_find (name);
  if (r->tmpl == NULL)
    {
      saved_fail (&s, error, "template", "the experiment's template '%s' is not one this "
                  "KernelScope knows ('kernelscope-cli probe list')", name);
      return NULL;
    }
  if (instruction != NULL && (!is_chain (r->tmpl->kind) || find_op (instruction) == NULL))
    {
      saved_fail (&s, error, "instruction", "the template '%s' times no instruction '%s'", name,
                  instruction);
      return NULL;
    }
  result_init (r, r->tmpl, ran_on ? ran_on : "model", evidence ? evidence : "model");
  r->instruction = g_strdup (instruction);
  r->gpu = g_strdup (gpu);
  r->arch = g_strdup (arch ? arch : "");
  r->conclusion = g_strdup (conclusion ? conclusion : "");
  r->saved_date = g_strdup (date);
  n = json_object_get_member (o, "edited");
  r->edited = n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_BOOLEAN
              && json_node_get_boolean (n);

  n = json_object_get_member (o, "device");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    {
      JsonObject *d = json_node_get_object (n);
      const char *dname, *darch;
      double warm, runs;

      if (!saved_string (&s, d, "device.", "name", FALSE, &dname, error)
          || !saved_string (&s, d, "device.", "arch", TRUE, &darch, error)
          || !saved_number (&s, d, "device.", "warmup_runs", TRUE, 0, &warm, error)
          || !saved_number (&s, d, "device.", "measured_runs", TRUE, 0, &runs, error))
        return NULL;
      r->device = g_strdup (dname);
      r->device_arch = g_strdup (darch);
      r->warmup_runs = (guint) CLAMP (warm, 0, G_MAXUINT);
      r->measured_runs = (guint) CLAMP (runs, 0, G_MAXUINT);
    }

  n = json_object_get_member (o, "verification");
  for (guint i = 0; n && JSON_NODE_HOLDS_ARRAY (n) && i < json_array_get_length (json_node_get_array (n)); i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (n), i);
      JsonObject *c = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      g_autofree char *prefix = g_strdup_printf ("verification[%u].", i);
      const char *item, *detail;
      JsonNode *pass;

      if (c == NULL)
        continue;
      if (!saved_string (&s, c, prefix, "item", FALSE, &item, error)
          || !saved_string (&s, c, prefix, "detail", TRUE, &detail, error))
        return NULL;
      pass = json_object_get_member (c, "pass");
      if (pass && !(JSON_NODE_HOLDS_VALUE (pass)
                    && json_node_get_value_type (pass) == G_TYPE_BOOLEAN))
        pass = NULL;
      add_check (r, item, pass != NULL, pass != NULL && json_node_get_boolean (pass),
                 g_strdup (detail ? detail : ""), saved_lines (c, "ptx_lines"),
                 saved_lines (c, "sass_lines"));
    }

  n = json_object_get_member (o, "controls");
  if (n && JSON_NODE_HOLDS_OBJECT (n))
    {
      double empty, timer;

      if (!saved_number (&s, json_node_get_object (n), "controls.", "empty_loop_cycles", TRUE, 0,
                         &empty, error)
          || !saved_number (&s, json_node_get_object (n), "controls.", "timer_cycles", TRUE, 0,
                            &timer, error))
        return NULL;
      r->empty_loop_cycles = empty > 0 ? (uint64_t) empty : 0;
      r->timer_cycles = timer > 0 ? (uint64_t) timer : 0;
    }

  n = json_object_get_member (o, "points");
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    {
      saved_fail (&s, error, n ? "points" : NULL, "\"points\" is %s",
                  n ? "not an array" : "missing");
      return NULL;
    }
  points = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (points); i++)
    {
      KsProbePoint p = { 0 };

      if (!saved_point (&s, json_array_get_element (points, i), i, &p, error))
        return NULL;
      g_array_append_val (r->points, p);
    }

  /* "fit" is where it ran; a GPU's folder has the model's as "model_fit" */
  for (guint k = 0; k < 2; k++)
    {
      gboolean on_gpu = r->device != NULL && k == 0;
      const char *member = k == 0 ? "fit" : "model_fit";
      g_autofree char *prefix = g_strconcat (member, ".", NULL);

      n = json_object_get_member (o, member);
      if (n && JSON_NODE_HOLDS_OBJECT (n) && (k == 0 || r->device != NULL))
        {
          JsonObject *f = json_node_get_object (n);

          if (!saved_number (&s, f, prefix, "slope", FALSE, 0, on_gpu ? &r->gpu_slope : &r->slope,
                             error)
              || !saved_number (&s, f, prefix, "intercept", FALSE, 0,
                                on_gpu ? &r->gpu_intercept : &r->intercept, error)
              || !saved_number (&s, f, prefix, "r2", FALSE, 0, on_gpu ? &r->gpu_r2 : &r->r2, error))
            return NULL;
          if (on_gpu)
            r->have_gpu_fit = TRUE;
          else
            r->have_fit = TRUE;
        }
    }
  r->shown_x = r->edited && r->points->len == 1
               ? g_array_index (r->points, KsProbePoint, 0).x
               : r->tmpl->values[shown_index (r->tmpl)];
  return g_steal_pointer (&r);
}
