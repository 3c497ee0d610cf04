/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy.h: the launch's anatomy (seeds/004): what happens between
 * kernel<<<grid, block>>> and the result, with the figures of one
 * analysed kernel on one GPU.  Plain C over a finished KsAnalysis.
 *
 * - The arguments: each parameter's offset, size and alignment in the
 *   argument buffer, from the PTX's .param list as the ABI lays it out, and
 *   where the SASS reads it in constant bank 0 (the architecture's base:
 *   0x140 on sm_5x/6x, 0x160 on sm_7x/8x, 0x210 on sm_90 and later, as the
 *   committed listings show), checked against the listing's c[0x0][...]
 *   operands when there is one.
 * - The launch record (QMD) the driver fills: its fields for this launch,
 *   reconstructed from the launch and the resources, placed in the 64
 *   words where NVIDIA's class headers (open-gpu-doc) document them for
 *   sm_70 to sm_90; the addresses the driver picks are marked unknown.
 * - Distribution: blocks an SM holds and what limits them, the waves, the
 *   warps each scheduler (sub-partition) holds.
 * - The figures Nsight Compute would give, from the timing model, under
 *   its metric names; marked as the model's. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ks-analysis.h"
#include "ks-artifacts.h"

G_BEGIN_DECLS

#define KS_ANATOMY_NONE G_MAXUINT32

typedef struct
{
  char *name;
  char *type;                   /* the C++ type from the demangled kernel name, or NULL */
  uint32_t offset, size, align; /* in the argument buffer, bytes */
  uint32_t cbank_offset;        /* c[0x0][cbank_offset]; KS_ANATOMY_NONE if unknown */
  int in_sass;                  /* the SASS reads c[0x0][cbank_offset]: 1, 0, or -1 (no SASS) */
  uint32_t stub_offset;         /* the offset the host stub notes beside it
                                 * (__cudaSetupArg); KS_ANATOMY_NONE without a stub */
} KsAnatomyParam;

/* One field of the launch record, at its place in NVIDIA's documented
 * layout (open-gpu-doc, classes/compute/clc9c0qmd.h, QMD version 03_00:
 * MW(hi:lo) bit numbers over the record's 64 words) */
typedef struct
{
  const char *name;             /* NVIDIA's field name, e.g. "CTA_RASTER_WIDTH" */
  uint16_t hi, lo;              /* bits hi..lo of the 2048-bit record */
  uint64_t value;               /* the launch's value, when known */
  gboolean known;               /* FALSE: an address or payload the driver picks at run time */
} KsAnatomyQmdField;

#define KS_ANATOMY_QMD_WORDS 64

/* 3. the submission: a pushbuffer segment that hands the GPU this launch's
 * QMD inline (SET_INLINE_QMD_ADDRESS_A/B, then LOAD_INLINE_QMD_DATA(0..63)
 * of the compute class), each method behind a header in the channel's
 * format; the GPFIFO entry that points at it; GP_PUT; the doorbell */
#define KS_ANATOMY_PB_WORDS (4 + KS_ANATOMY_QMD_WORDS)
#define KS_ANATOMY_PB_SUBCHANNEL 1      /* compute, as the open drivers bind it */

/* A pushbuffer method header (clc76f.h's NVC76F_DMA_INCR_*: SEC_OP 31:29 =
 * 1, increasing, COUNT 28:16, SUBCHANNEL 15:13, ADDRESS 11:0 = the
 * method's byte offset / 4) */
uint32_t ks_anatomy_pb_header (uint32_t method,
                               uint32_t count,
                               uint32_t subchannel);

/* One SASS instruction of the kernel with its control code (stage 5) */
typedef struct
{
  uint64_t offset;
  char *text;                   /* "@P0 LDG.E R4, [R4.64]" */
  char *opcode;                 /* "LDG.E", with its modifiers; "?" where no disassembler
                                 * named it */
  KsSassControl control;
  gboolean has_control;
} KsAnatomyInsn;

#define KS_ANATOMY_MAX_INSNS 256

/* 5. one scheduler's warps in the timing model: at most this many cycles
 * from the first block's launch, and this many issues */
#define KS_ANATOMY_SCHEDULER_CYCLES 6000
#define KS_ANATOMY_SCHEDULER_EVENTS 8192

/* A warp the scheduler holds, and its issues (into sched_events) */
typedef struct
{
  uint32_t cta, warp_in_cta;
  uint32_t start_cycle, end_cycle;
  uint32_t first_event, n_events;
} KsAnatomySchedWarp;

/* The Nsight Compute metrics of stage 7, in the order they are shown */
typedef enum
{
  KS_ANATOMY_GRID_SIZE = 0,     /* launch__grid_size */
  KS_ANATOMY_BLOCK_SIZE,        /* launch__block_size */
  KS_ANATOMY_REGISTERS,         /* launch__registers_per_thread */
  KS_ANATOMY_WAVES,             /* launch__waves_per_multiprocessor */
  KS_ANATOMY_WARPS_ACTIVE,      /* sm__warps_active.avg.pct_of_peak */
  KS_ANATOMY_ISSUE_ACTIVE,      /* smsp__issue_active.avg.pct_of_peak */
  KS_ANATOMY_DRAM_THROUGHPUT,   /* dram__throughput.avg.pct_of_peak */
  KS_ANATOMY_DURATION,          /* gpu__time_duration.sum, in microseconds */
  KS_ANATOMY_N_METRICS
} KsAnatomyMetric;

/* Figures measured on hardware that a sample carries (its sample.json's
 * "measured", docs/ANATOMY.md), for one launch on one GPU */
typedef struct
{
  char *source;                 /* who measured, with what, on what */
  char *gpu;                    /* data/gpus.json's id */
  uint32_t grid[3], block[3];
  double nsight[KS_ANATOMY_N_METRICS];  /* in Nsight's units; NAN where not given */
} KsAnatomyMeasured;

typedef struct
{
  char *kernel;
  char *gpu, *gpu_name, *arch;
  /* 1. what nvcc --keep leaves (ks-artifacts.h): made here, or a sample's
   * record; NULL without either */
  KsArtifacts *artifacts;
  /* 2. the arguments */
  KsAnatomyParam *params;
  uint32_t n_params;
  uint32_t param_bytes;         /* the buffer's size: the last parameter's end */
  uint32_t cbank_base;          /* KS_ANATOMY_NONE for an architecture not known */
  gboolean params_from_cubin;   /* the offsets are the cubin's .nv.info records' */
  const char *sass_arch;        /* the listing checked against, or NULL */
  /* 3. the launch record */
  uint32_t grid[3], block[3];
  uint64_t blocks, threads;
  uint32_t registers;
  uint32_t shared_bytes;        /* static + dynamic, per block */
  uint32_t local_bytes;         /* local memory a thread (the stack frame) */
  uint32_t barriers;            /* named barriers a block */
  /* the record laid out as NVIDIA's class headers document it: QMD 02_02
   * on sm_70 (Volta), 02_03 on sm_75 (Turing), 03_00 on sm_80 to sm_90
   * (Ampere, Ada, Hopper); Blackwell's headers have other versions, not
   * drawn; qmd_version NULL where no documented layout is drawn */
  const char *qmd_version;
  const char *qmd_documented_in;        /* the header of that layout */
  /* the submission, where the record is laid out and the compute class is
   * documented (sm_70 VOLTA_COMPUTE_A 0xC3C0, sm_75 TURING_COMPUTE_A
   * 0xC5C0, sm_80 AMPERE_COMPUTE_A 0xC6C0, sm_86 AMPERE_COMPUTE_B 0xC7C0,
   * sm_89 ADA_COMPUTE_A 0xC9C0, sm_90 HOPPER_COMPUTE_A 0xCBC0:
   * open-gpu-doc's clc3c0.h ... clcbc0.h); compute_class NULL elsewhere.
   * pushbuffer[1] and [2], the QMD's address, are the driver's (not
   * known) */
  const char *compute_class;
  uint32_t compute_class_id;
  uint32_t pushbuffer[KS_ANATOMY_PB_WORDS];
  uint32_t gp_entry1;           /* the GPFIFO entry's second word: LENGTH (30:10) in words,
                                 * LEVEL main; GET_HI (the address's) not known */
  KsAnatomyQmdField *qmd_fields;
  uint32_t n_qmd_fields;
  uint32_t qmd_words[KS_ANATOMY_QMD_WORDS]; /* the known fields' bits; zero elsewhere */
  /* 4. distribution */
  gboolean have_occupancy;
  uint32_t sms;
  uint32_t blocks_per_sm;
  const char *limiter;          /* ks_occupancy_limiter_name() */
  int limiter_id;               /* the KsOccupancyLimiter */
  uint32_t warps_per_sm, max_warps_per_sm;
  uint32_t schedulers;          /* sub-partitions an SM */
  uint32_t warps_per_scheduler, max_warps_per_scheduler;
  double waves_per_sm;
  /* blocks an SM each resource allows; KS_ANATOMY_NONE where it does not limit */
  uint32_t blocks_by_threads, blocks_by_registers, blocks_by_shared, blocks_by_blocks;
  uint32_t max_threads_per_sm, registers_per_sm, shared_per_sm, max_blocks_per_sm;
  uint32_t warps_per_block, registers_per_block, shared_allocated_per_block;
  /* the roofs: the GPU's FP32 peak (2 flops an FMA lane a cycle at the
   * boost clock) and its memory bandwidth; 0 where not known */
  double peak_gflops, bandwidth_gbs;
  /* 5. the kernel's SASS with its control codes (the listing of this
   * architecture; none without one), at most KS_ANATOMY_MAX_INSNS; and the
   * first instruction that waits on a scoreboard, the scoreboard, and the
   * instructions before it that set it (KS_ANATOMY_NONE: none waits) */
  KsAnatomyInsn *insns;
  uint32_t n_insns, n_insns_total;
  uint32_t waiter, waiter_barrier, n_setters;
  /* 5. the timing model's first sub-partition (scheduler 0) of the
   * modelled SM: the warps of the first blocks it holds, their issues in
   * the first sched_cycles cycles (each event's stall band and issue
   * cycle; the pipe and reason as KsTiming has them) */
  KsAnatomySchedWarp *sched_warps;
  uint32_t n_sched_warps;
  KsTimingEvent *sched_events;
  uint32_t n_sched_events;
  uint32_t sched_cycles;
  /* 7. a sample's measurement of this launch of its unedited kernel on
   * this GPU (measured.source NULL: none), or of another launch of it
   * (other.source: the one it carries, for the words) */
  KsAnatomyMeasured measured, other;
  gboolean other_is_edited;     /* other is of this launch, but the kernel was edited */
  /* 7. the model's Nsight Compute figures; have_timing FALSE without them */
  gboolean have_timing;
  double warps_active, issue_active, dram_throughput;   /* fractions of peak */
  double duration_us;
  double dram_bytes, flops, arithmetic_intensity;
  double achieved_gflops;        /* flops over the duration */
  /* bytes the lanes load and store in global memory, over the grid, and
   * the flops a byte of them (the roofline's x: 1/12 for vadd); the DRAM
   * figures above count only what reaches DRAM */
  double global_bytes, global_intensity;
  /* the path through the caches, over the grid (the simulator's counts
   * and cache model, scaled up from a sample of blocks): the warps' global
   * requests, the 32-byte sectors they touch (and as few as their bytes
   * would need), the sectors that reach L2 (the loads L1 missed, and the
   * stores and atomics, which go through), and those L2 missed (stores
   * included: L2 allocates them without reading DRAM) */
  double gmem_requests, gmem_sectors, gmem_ideal_sectors, l2_sectors, l2_miss_sectors;
  /* 6. one warp's request: the first execution the simulator kept of the
   * kernel's first global load (its lanes' addresses, and where each
   * sector came from); have_warp_access FALSE without one */
  gboolean have_warp_access;
  KsMemAccess warp_access;
  uint32_t warp_access_line;     /* the load's PTX line */
  char *warp_access_text;        /* its text */
  uint32_t warp_access_block, warp_access_warp;
} KsAnatomy;

/* The anatomy of the analysed launch; NULL with error when the analysis
 * has no kernel (it failed) */
KsAnatomy *ks_anatomy_new     (const KsAnalysis *analysis,
                               GError          **error);
void       ks_anatomy_free    (KsAnatomy        *anatomy);
/* Replaces the anatomy's artifacts (transfer full; may be NULL) and reads
 * the offsets its launch stub notes for the kernel's parameters */
void       ks_anatomy_set_artifacts (KsAnatomy   *anatomy,
                                     KsArtifacts *artifacts);
/* The waves the grid takes (the last may be a partial one: the tail), and
 * the blocks SM `sm` runs in wave `wave` (0-based): the distributor gives
 * each SM a block in turn, so a tail of R blocks puts R / SMs on each and
 * one more on the first R % SMs */
uint32_t   ks_anatomy_wave_count  (const KsAnatomy *anatomy);
uint32_t   ks_anatomy_wave_blocks (const KsAnatomy *anatomy,
                                   uint32_t         wave,
                                   uint32_t         sm);

/* The constant bank 0 offset of the first parameter on an architecture
 * ("sm_86"), or KS_ANATOMY_NONE */
uint32_t   ks_anatomy_cbank_base (const char    *arch);
/* The argument types of a demangled signature ("vector_add(float const*,
 * float const*, float*, int)"): the list in the last parentheses, split
 * at the commas outside brackets; NULL when there are not n of them */
char     **ks_anatomy_signature_types (const char *signature,
                                       uint32_t    n);
/* A metric's Nsight Compute name ("sm__warps_active.avg.pct_of_peak") */
const char *ks_anatomy_metric_name (KsAnatomyMetric  metric);
/* The model's value of a metric, in Nsight's units (percentages of peak,
 * microseconds) */
double     ks_anatomy_model_metric (const KsAnatomy *anatomy,
                                    KsAnatomyMetric  metric);
/* `kernelscope-cli anatomy --json`'s object (docs/ANATOMY.md) */
JsonNode  *ks_anatomy_to_json (const KsAnatomy  *anatomy);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsAnatomy, ks_anatomy_free)

G_END_DECLS
