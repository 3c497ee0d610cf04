/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-timing.h: the cycle model of one SM (docs/TIMING.md).
 *
 * It replays the functional simulator's trace (which warp ran which PTX
 * instruction, with how many lanes, and what each memory instruction did
 * in the banks and caches) through the SM of a GPU from the database: the
 * blocks resident at once (from occupancy), warps spread over the
 * sub-partitions, one scheduler per sub-partition issuing at most one
 * warp-instruction a cycle, a scoreboard of register results, pipes that
 * stay busy 32 / width cycles per warp-instruction, the shared-memory and
 * L1 units, the SM's share of DRAM bandwidth, and barriers.  The result is
 * a timeline of issue events and stalls per warp, a stall breakdown in
 * Nsight Compute's words, and an estimate of the whole kernel.  Every
 * figure is a model, not a measurement.
 *
 * Plain C, no GObject; the result is immutable once made and may be read
 * from any thread.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-gpu-db.h"
#include "ks-occupancy.h"
#include "ks-ptx.h"
#include "ks-sass.h"
#include "ks-sim.h"

G_BEGIN_DECLS

/* The execution pipes of the timeline (its colours) */
typedef enum
{
  KS_PIPE_INT = 0,              /* integer ALU: add, logic, shifts, compares, moves */
  KS_PIPE_FP32,                 /* FFMA, FADD, FMUL, half precision */
  KS_PIPE_FP64,
  KS_PIPE_SFU,                  /* MUFU: rcp, sqrt, sin, ex2, ...; conversions */
  KS_PIPE_MEM,                  /* LSU / MIO: loads, stores, atomics */
  KS_PIPE_CTRL,                 /* branches, barriers, exit, calls */
  KS_PIPE_SHFL,                 /* shuffles, votes, match, redux */
  KS_PIPE_TENSOR,               /* mma, wmma */
  KS_N_PIPES
} KsPipe;

/* Why a warp did not issue, in Nsight Compute's words */
typedef enum
{
  KS_STALL_SELECTED = 0,        /* it issued (one cycle per instruction) */
  KS_STALL_LONG_SCOREBOARD,     /* waiting for a global or local memory result */
  KS_STALL_SHORT_SCOREBOARD,    /* waiting for shared memory, MUFU, a shuffle or S2R */
  KS_STALL_WAIT,                /* a fixed-latency dependency */
  KS_STALL_MATH_PIPE_THROTTLE,  /* its ALU pipe was busy */
  KS_STALL_MIO_THROTTLE,        /* the shared-memory / MIO unit was full */
  KS_STALL_LG_THROTTLE,         /* the global/local-memory queue was full */
  KS_STALL_BARRIER,             /* waiting at a CTA barrier */
  KS_STALL_BRANCH_RESOLVING,    /* a branch's target was not known yet */
  KS_STALL_NOT_SELECTED,        /* eligible, but the scheduler chose another warp */
  KS_STALL_NO_INSTRUCTION,      /* not started yet / nothing to issue */
  KS_N_STALLS
} KsStallReason;

typedef enum
{
  KS_SCHEDULER_LRR = 0,         /* loose round-robin */
  KS_SCHEDULER_GTO,             /* greedy then oldest */
} KsSchedulerPolicy;

typedef enum
{
  KS_BOUND_LATENCY = 0,         /* neither floor is close: too little parallelism to hide latency */
  KS_BOUND_MEMORY,
  KS_BOUND_COMPUTE,
} KsBound;

/* One issued warp-instruction of the modelled SM (28 bytes), in issue
 * order per warp; KsTimingWarp says where a warp's events are. */
typedef struct
{
  uint32_t cycle;               /* issue cycle */
  uint32_t ready;               /* the cycle the warp could have issued it; < cycle: not selected */
  uint32_t stall_start;         /* the cycle after the warp's previous issue (or its start) */
  uint32_t insn;                /* module instruction index */
  uint16_t latency;             /* cycles until its result can be used */
  uint16_t active_lanes;        /* lanes that executed it */
  uint8_t pipe;                 /* KsPipe */
  uint8_t stall;                /* KsStallReason that held it from stall_start to ready */
  uint8_t flags;                /* KS_TRACE_* of the trace event */
  uint8_t lowered;              /* KsLowerKind: KS_LOWER_ISSUE, or a PTX instruction ptxas
                                 * folds or merges, which issues nothing (at the cycle of the
                                 * warp's previous issue, latency 0) */
  uint32_t sass;                /* timed from the SASS (docs/TIMING.md): the instruction
                                 * issued, its index into KsTimingOptions.sass + 1 (insn is
                                 * then the PTX instruction it is shown at); 0: a PTX one */
} KsTimingEvent;

typedef struct
{
  uint32_t trace_warp;          /* the warp's number in the trace (CTA linear index * warps per CTA + warp) */
  uint32_t cta;                 /* CTA linear index */
  uint32_t warp_in_cta;
  uint32_t sub_partition;
  uint32_t slot;                /* the SM's warp slot it ran in */
  uint32_t start_cycle;         /* its CTA was launched */
  uint32_t end_cycle;           /* it retired its last instruction */
  uint64_t first_event, n_events;       /* into KsTiming.events */
} KsTimingWarp;

typedef struct
{
  KsSchedulerPolicy policy;
  uint32_t max_ctas;            /* CTAs of the SM's share to model; 0 = all */
  uint64_t max_events;          /* warp-instructions to replay before extrapolating (the blocks
                                 * resident together are replayed whatever it says); 0 = 4 M */
  gboolean ptx_as_written;      /* charge every PTX instruction, not what ptxas makes of them
                                 * (ks-lower.h), in the order written; for comparison */
  gboolean in_order;            /* issue the PTX's order: no loads issued ahead as ptxas's
                                 * schedule of an unrolled loop does (docs/TIMING.md) */
  /* The kernel's SASS, for the architecture timed (NULL: none): the
   * iterations of each PTX loop a SASS loop runs are timed as that loop's
   * instructions, by their control codes (docs/TIMING.md, "Loops timed
   * from the SASS").  kernel: the PTX function the SASS function is. */
  const KsSassListing *sass;
  const KsSassFunction *sass_function;
  uint32_t kernel;
} KsTimingOptions;

typedef struct
{
  /* the modelled SM */
  uint32_t cycles;              /* from the first CTA's launch to the last warp's end */
  uint32_t blocks_per_sm;       /* resident at once */
  uint32_t sub_partitions;
  uint64_t ctas_modelled;       /* CTAs of the SM's share that were replayed */
  uint64_t ctas_per_sm;         /* the busiest SM's share of the grid */
  gboolean extrapolated;        /* the trace lacked some of the share; cycles scaled up */
  uint64_t issued;              /* warp-instructions issued */
  uint64_t lowered;             /* PTX warp-instructions folded or merged, not issued */
  uint64_t issued_ahead;        /* of `issued`: issued before instructions the PTX puts first
                                 * (loads and their address arithmetic, as ptxas schedules) */
  uint64_t sass_issued;         /* of `issued`: SASS instructions (docs/TIMING.md, "Timed
                                 * from the SASS") */
  uint32_t sass_loops;          /* PTX loops timed from the SASS */
  uint32_t sass_loops_not;      /* PTX loops of the kernel that were not (no SASS loop of theirs
                                 * could be: sass_reason says why for the first) */
  char *sass_reason;            /* NULL when every loop was, or there was no SASS */
  /* The code outside those loops, one warp's stretch at a time: a
   * stretch is what a warp runs between its entry, the loops timed from
   * the SASS and its exit */
  uint64_t sass_stretches;      /* warp stretches timed as the SASS path the warp took */
  uint64_t sass_stretches_not;  /* warp stretches timed from the PTX (sass_stretch_reason
                                 * says why for the first) */
  char *sass_stretch_reason;
  double ipc;                   /* issued / cycles */
  double warps_active;          /* resident warps per cycle / the SM's warp slots (Nsight
                                 * Compute's sm__warps_active.avg.pct_of_peak, as a fraction) */
  double issue_active;          /* issued / (cycles x sub-partitions): smsp__issue_active */
  uint64_t pipe_busy[KS_N_PIPES];       /* cycles a pipe was busy, summed over sub-partitions */
  uint64_t stall_cycles[KS_N_STALLS];   /* warp-cycles by reason, over all modelled warps */

  /* the kernel */
  double waves_per_sm;          /* blocks / (blocks per SM * SMs) */
  double sm_cycles;             /* the busiest SM's share, extrapolated when needed */
  double clock_mhz;
  double model_us;              /* sm_cycles at the clock */
  double dram_bytes;            /* over the grid: sectors from DRAM and stores, * 32 */
  double flops;                 /* floating-point operations over the grid (FMA = 2) */
  double memory_floor_us;       /* dram_bytes at the GPU's bandwidth */
  double compute_floor_us;      /* flops at the GPU's peak FP32 (FP64 where it dominates) */
  double arithmetic_intensity;  /* flops per DRAM byte */
  double dram_throughput;       /* dram_bytes / estimated duration / bandwidth:
                                 * dram__throughput.avg.pct_of_peak, as a fraction */
  double estimated_duration_us;
  KsBound bound;

  KsTimingWarp *warps;
  uint32_t n_warps;
  KsTimingEvent *events;
  uint64_t n_events;
} KsTiming;

void                ks_timing_options_init   (KsTimingOptions          *options);

/* Replays a finished run's trace (the trace must have been on) for `arch`
 * on `gpu` (NULL: no kernel estimate, only the SM's cycles), with the
 * blocks per SM of `occupancy`.  Returns NULL with an error when the run
 * has no trace or did not finish. */
KsTiming           *ks_timing_compute        (const KsPtxModule        *module,
                                              const KsSim              *sim,
                                              const KsArchInfo         *arch,
                                              const KsGpuInfo          *gpu,
                                              const KsOccupancyResult  *occupancy,
                                              const KsTimingOptions    *options,
                                              GError                  **error);
void                ks_timing_free           (KsTiming                 *timing);

/* The pipe a PTX instruction runs on */
KsPipe              ks_timing_insn_pipe      (const KsPtxModule        *module,
                                              const KsPtxInsn          *insn);
const char         *ks_pipe_name             (KsPipe                    pipe);
/* "long_scoreboard" ... as Nsight Compute names them */
const char         *ks_stall_reason_name     (KsStallReason             reason);
const char         *ks_bound_name            (KsBound                   bound);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsTiming, ks_timing_free)

G_END_DECLS
