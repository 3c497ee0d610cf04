/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-private.h: the simulator's state, shared by its source files and
 * its tests.  Everything here is plain structs and arrays. */
#pragma once

#include "ks-sim.h"
#include "ks-lower.h"
#include "ks-sim-tex.h"

G_BEGIN_DECLS

#define KS_WARP_SIZE 32
#define KS_FULL_MASK 0xffffffffu

/* Runs the statement after it once for each set bit of mask, lowest first,
 * with lane set to the bit's index. */
#define LANES(mask, lane) \
  for (uint32_t lanes_##lane = (mask), lane; \
       lanes_##lane && ((lane = (uint32_t) __builtin_ctz (lanes_##lane)), 1); \
       lanes_##lane &= lanes_##lane - 1)

/* Where the state spaces sit in the 64-bit generic address space.  Global
 * allocations start high, like device pointers do; the shared and local
 * windows are below them, so cvta and isspacep are comparisons. */
#define KS_SIM_GLOBAL_BASE   G_GUINT64_CONSTANT (0x00007f0000000000)
#define KS_SIM_SHARED_WINDOW G_GUINT64_CONSTANT (0x0000100000000000)
#define KS_SIM_LOCAL_WINDOW  G_GUINT64_CONSTANT (0x0000200000000000)
#define KS_SIM_PARAM_WINDOW  G_GUINT64_CONSTANT (0x0000300000000000)
#define KS_SIM_FUNC_WINDOW   G_GUINT64_CONSTANT (0x0000400000000000)
#define KS_SIM_WINDOW_SIZE   G_GUINT64_CONSTANT (0x0000010000000000)

/* Gap left between global allocations, so that running a little past the
 * end of one buffer faults instead of reading its neighbour. */
#define KS_SIM_ALLOC_GUARD 4096u
/* A cooperative launch: the most threads it may have (all resident at
 * once; a B200, 148 SMs of 2048 threads, holds 303,104), and the bytes of
 * grid.sync()'s workspace (its counter at +4) */
#define KS_SIM_COOP_MAX_THREADS (1u << 19)
#define KS_SIM_WORKSPACE_SIZE 16u

/* sm_80 and later reserve 1 KiB of each block's shared memory for NVIDIA's
 * system software (%reserved_smem_offset_*; cooperative groups keep their
 * multi-warp tile barriers there).  Where the hardware puts it in the
 * block's window is not documented: the simulator puts it at this offset,
 * past the largest shared memory of any GPU, so that the kernel's own
 * variables sit where they do on earlier GPUs and an overrun of them still
 * faults instead of landing in the region.  The region's bytes follow the
 * block's own in KsSimCta.shared. */
#define KS_SIM_RESERVED_SMEM_BASE 0x40000u
#define KS_SIM_RESERVED_SMEM_SIZE 1024u

/* Per-thread local memory available to a warp (all frames together) */
#define KS_SIM_LOCAL_LIMIT (512u * 1024u)
#define KS_SIM_MAX_FRAMES 1024u

typedef struct _KsFastInsn KsFastInsn;

/* What the workers of a parallel run share (ks-sim-parallel.c) */
typedef struct _KsSimParallel
{
  GMutex atomics;               /* atomics on global memory from different threads */
  GMutex lock;                  /* everything below */
  GCond changed;                /* a block was handed in or put in order, or a worker ended */
  struct _KsSim *run;           /* the run the blocks are put back into */
  GCancellable *cancellable;
  uint32_t n_workers, running;
  uint64_t next_cta;            /* the next block to hand out (atomic) */
  uint64_t chunk;               /* blocks handed out at a time */
  uint64_t stop_cta;            /* the lowest block that faulted or was cancelled (atomic) */
  struct _KsSim **workers;      /* n_workers: the spin check reads their mem_writes */
  uint64_t committed;           /* blocks put back in order: the next block to put */
  uint64_t committed_steps;     /* warp-instructions of the blocks put in order (atomic) */
  GHashTable *pending;          /* first block -> KsSimBlock: done, waiting for ones before */
  uint64_t pending_bytes;
  gboolean committing;          /* a worker is putting blocks in order */
  gboolean stopped;             /* a block put in order faulted or was cancelled */
  gboolean cancelled;
} KsSimParallel;

/* A request of a global access for the cache model, kept by a worker of a
 * parallel run: the caches are shared by all blocks, so their accesses are
 * replayed in block order once the block's turn comes (ks-sim-parallel.c) */
typedef struct
{
  uint32_t insn;
  uint32_t store;
  uint32_t first_sector;        /* into KsSimBlock.sectors */
  uint32_t n_sectors;
  uint64_t trace_mem;           /* the block's trace-memory record, or G_MAXUINT64 (moved
                                 * when the worker's trace drops blocks: ks_sim_trace_halve) */
  uint32_t sample;              /* the block's sample, or G_MAXUINT32 */
  uint32_t texture;             /* a texture or surface request (KsSimInsnStats.tex_*) */
} KsSimCacheRequest;

typedef struct
{
  uint32_t insn;
  uint32_t tex;                 /* a texture fetch: 1 + its details' index in
                                 * KsSimBlock.tex_samples; else 0 */
  KsMemAccess access;
} KsSimBlockSample;

/* What a worker of a parallel run produced running a few blocks one after
 * another: everything that a run on one thread would have recorded while
 * running them, apart from what
 * depends on the blocks before it (the cache model's answers, the events
 * past the trace's limit, samples past an instruction's quota, hazards
 * past the limit), which the run completes when it puts the blocks back in
 * order. */
typedef struct
{
  uint64_t cta;                 /* the first block of the run of blocks it holds */
  uint64_t end;                 /* the block after its last */
  uint64_t stop;                /* the block that faulted, or the first if cancelled */
  KsSimStatus status;
  KsSimFault fault;
  KsSimStats stats;             /* trace_events: events kept here; trace_dropped: the rest */
  GArray *insn_stats;           /* KsSimBlockStats of the instructions it ran that touched
                                 * memory or diverged */
  GArray *insn_counts;          /* KsSimBlockCounts of the others (most): a third the size */
  KsTraceEvent *trace;          /* the events of the blocks it traced, sampled as a run on
                                 * one thread samples them (ks_sim_trace_full) */
  uint64_t n_trace;
  KsTraceMemory *trace_mem;     /* the records of those events, in order */
  uint64_t n_trace_mem;
  uint64_t *cta_steps;          /* per block from cta to end, and end: the warp-instructions
                                 * run before it (the trace's sample needs each block's) */
  gboolean trace_cut;           /* block 0 alone filled the trace */
  uint64_t unfinished;          /* the block a fault or a cancellation stopped part-way
                                 * (not whole in the trace), or G_MAXUINT64 */
  GArray *requests;             /* KsSimCacheRequest, in execution order */
  GArray *sectors;              /* uint64_t */
  GArray *samples;              /* KsSimBlockSample, in execution order */
  GArray *tex_samples;          /* KsTexAccess, the details of the texture fetches' samples */
  GArray *hazards;              /* KsSimHazard, each pair of instructions once, no limit */
  char *printf_text;
} KsSimBlock;

typedef struct
{
  uint32_t insn;
  uint32_t reserved;
  KsSimInsnStats stats;
} KsSimBlockStats;

/* What a block's run gave an instruction that touched no memory and did
 * not diverge: the only counts of KsSimInsnStats it has (a kernel of
 * millions of instructions keeps a block's worth of these while the block
 * waits for its turn to join the run) */
typedef struct
{
  uint32_t insn;
  uint32_t reserved;
  uint64_t warp_executions;
  uint64_t thread_executions;
  uint64_t active_lanes;
} KsSimBlockCounts;

/* The bank-conflict cost of a warp's shared access depends only on the
 * lanes' addresses relative to each other and on the first one's place
 * within 16 bytes (a move by a multiple of 16 bytes turns every bank by
 * the same amount and keeps each lane's alignment).  The warps of a block
 * mostly repeat an instruction's pattern at another row, so the last
 * pattern of each instruction is kept (ks-sim.c, smem_cost). */
#define KS_SIM_SMEM_MEMO 256

typedef struct
{
  uint32_t insn;                /* + 1, 0 = empty */
  uint32_t mask;
  uint8_t size, store, first_lo;
  uint8_t gpu_valid;            /* gpu_wavefronts is known */
  uint32_t wavefronts, ideal, degree;
  uint32_t gpu_wavefronts;      /* of the access ptxas merges it into (ks-lower.h) */
  uint32_t delta[32];           /* lane address - the first active lane's */
} KsSimSmemMemo;

typedef struct
{
  uint32_t writer;              /* linear thread + 1, 0 = none */
  uint32_t write_epoch;
  uint32_t write_insn;
  uint32_t reader;
  uint32_t read_epoch;
  uint32_t read_insn;
  uint32_t async_writer;        /* linear thread + 1 of a cp.async in flight to the word, 0 = none */
  uint32_t async_insn;
} KsSimWordAccess;

/* A warp's shared-memory load whose noting as its words' reader waits:
 * while no thread of the block has written shared memory since the last
 * barrier, and no cp.async is in flight, a load cannot race, and who read
 * a word matters only to a write later in the same barrier interval.  The
 * loads are kept, and noted only when such a write comes (ks-sim.c,
 * check_races); most barrier intervals end first and the log is dropped. */
#define KS_SIM_READ_LOG 512

typedef struct
{
  uint64_t addr[32];
  uint32_t first_thread;        /* linear thread + 1 of lane 0 */
  uint32_t insn, size, mask;
} KsSimReadLog;

/* A cp.async of one thread whose completion has not been waited for: its
 * bytes land, for the race check, at the cp.async.wait_group or
 * cp.async.wait_all that covers its group, or at cp.async.mbarrier.arrive */
typedef struct
{
  uint32_t thread;              /* linear thread + 1 */
  uint32_t group;               /* the thread's commit count at the copy: its group */
  uint32_t insn;
  uint32_t offset, size;        /* shared-memory bytes written */
} KsSimAsyncCopy;

#define KS_SIM_MAX_HAZARDS 256u

typedef struct
{
  uint64_t base, size;
  uint8_t *data;
  int32_t buffer;               /* launch buffer, or -1 */
  uint32_t var;                 /* module variable, or KS_PTX_NONE */
  gboolean readonly;
  gboolean workspace;           /* grid.sync()'s workspace (KsSim's coop_workspace) */
} KsSimAlloc;

/* A texture or surface of the launch: its description and where its array
 * is (the launch buffer's allocation) */
typedef struct
{
  const KsLaunchTexture *desc;
  uint8_t *data;
  uint64_t base;                /* global address */
} KsSimArray;

typedef struct
{
  uint32_t pc;                  /* next instruction of this path */
  uint32_t rpc;                 /* where it reconverges, or KS_PTX_NONE (the function's end) */
  uint32_t mask;
} KsSimtEntry;

typedef struct
{
  uint32_t fn;                  /* function index */
  uint64_t *regs;               /* n_reg_slots x 32 lanes */
  uint32_t *preds;              /* n_pred_slots lane masks */
  uint8_t *params;              /* 32 lanes x the function's param block */
  uint32_t local_base;          /* offset of this frame in each lane's local memory */
  uint32_t simt_base;           /* first SIMT stack entry of this frame */
  uint32_t call_pc;             /* the caller's call instruction */
  uint32_t call_mask;           /* lanes that made the call */
  uint32_t carry;               /* CC.CF of each lane (add.cc, addc, ...) */
} KsSimFrame;

typedef enum
{
  KS_WARP_RUNNING = 0,
  KS_WARP_AT_BARRIER,
  KS_WARP_DONE,
  KS_WARP_AT_MBARRIER,          /* polls an mbarrier that nothing has changed since */
} KsWarpState;

typedef struct
{
  uint32_t index;               /* within the CTA */
  uint32_t first_thread;        /* linear thread index of lane 0 */
  uint32_t live;                /* lanes that have not exited */
  KsWarpState state;
  uint32_t barrier;             /* barrier id while AT_BARRIER */
  uint32_t barrier_count;       /* threads expected, 0 = all */
  uint32_t barrier_insn;        /* module instruction index of the barrier it waits at */
  KsSimtEntry *simt;
  uint32_t n_simt, cap_simt;
  KsSimFrame *frames;
  uint32_t n_frames, cap_frames;
  uint8_t *local;               /* 32 lanes x local_cap bytes, lane-major */
  uint32_t local_cap;           /* bytes per lane allocated */
  uint32_t local_top;           /* bytes per lane in use */
  uint16_t pending_flags;       /* trace flags for the warp's next event (reconvergence) */
  uint32_t steps;               /* warp-instructions it ran in this block (KsSimStep.warp_step) */
  /* bar.red: the operation, this warp's part, and where the result goes */
  uint8_t red_op;               /* KsPtxOp: POPC, AND, OR; NONE for bar.sync */
  uint8_t red_dst_pred;         /* the result is a predicate */
  uint32_t red_value;
  uint32_t red_dst;             /* register or predicate slot */
  /* mbarrier waits: the CTA's mbar_version at the warp's last failed
   * test_wait/try_wait (G_MAXUINT64: none yet), the waits that failed
   * since it last changed, and what the warp sleeps on */
  uint64_t mbar_seen;
  uint32_t mbar_polls[4];       /* module instruction indices */
  uint32_t n_mbar_polls;
  uint32_t mbar_insn;           /* module instruction index */
  uint32_t mbar_addr;           /* shared-memory offset */
  /* The kernel frame's registers, predicates and parameters from the
   * warp's previous block: the next block zeroes them instead of
   * allocating them again (a block of a short kernel spent as much in
   * malloc and free as in its instructions) */
  uint64_t *spare_regs;
  uint32_t *spare_preds;
  uint8_t *spare_params;
} KsSimWarp;

#define KS_SIM_N_BARRIERS 16

typedef struct
{
  uint32_t ctaid[3];
  uint8_t *shared;
  uint32_t shared_size;
  KsSimWarp *warps;
  uint32_t n_warps;
  uint32_t n_done;
  /* threads that passed bar.arrive since the last release, as the barrier
   * counts them: a warp's arrival is the warp size */
  uint32_t arrived[KS_SIM_N_BARRIERS];
  /* mbarriers: one bit per 8-byte word of shared memory that holds an
   * initialized one, and a count of every change to any of them, which
   * wakes the warps that wait (KS_WARP_AT_MBARRIER) */
  uint8_t *mbar_valid;
  uint64_t mbar_version;
} KsSimCta;

/* A block of a cooperative launch while another block runs (ks-sim.c,
 * "cooperative launches"): what is the running block's own in KsSim, of
 * the same names, swapped in and out as the blocks take turns */
typedef struct
{
  KsSimCta cta;
  uint64_t cta_linear;
  uint32_t current_warp;
  gboolean cta_active;
  KsSimWordAccess *smem_access;
  uint32_t epoch, write_epoch;
  KsSimReadLog *read_log;
  uint32_t n_read_log, read_log_epoch;
  GArray *async_copies;
  uint32_t *async_commits;
  uint64_t spin_start, spin_hash, spin_writes, spin_suspect;
  uint32_t spin_power, spin_lambda, spin_pass;
} KsSimCoopBlock;

typedef struct
{
  uint32_t param_size;          /* bytes per lane of the function's .param variables */
  uint32_t local_size;          /* bytes per lane of its .local variables */
} KsSimFnLayout;

struct _KsSim
{
  const KsPtxModule *module;
  const KsLaunch *launch;       /* &view */
  KsLaunch view;                /* the spec with kernel, grid, block, dynamic_shared_bytes and
                                 * params of the launch run (a "launches" step); borrows
                                 * everything from the spec */
  char *where;                  /* "" or "launches[N].", for messages */
  uint32_t entry;               /* kernel function index */
  uint32_t *out_sym_alloc;      /* per output symbol: its alloc */
  uint8_t *out_sym_type;        /* per output symbol: KsPtxType to read it as */

  KsSimAlloc *allocs;           /* sorted by base */
  uint32_t n_allocs;
  uint32_t last_alloc;          /* one-entry lookup cache */
  uint32_t *buffer_alloc;       /* launch buffer -> alloc */

  uint64_t *var_addr;           /* per module variable: address in its space */
  uint32_t *insn_block;         /* per module instruction: its block within its function */
  KsFastInsn *fast;             /* per module instruction: its fast form, if it has one (those
                                 * of functions the launch cannot run stay KS_FAST_NONE) */
  uint8_t *runs_fn;             /* per function: the launch may run it (ks_sim_reachable) */
  uint64_t *fast_imm;           /* the fast forms' immediates, each spread over 32 lanes */
  gboolean fast_fma;            /* the processor has fused multiply-add instructions */
  gboolean no_fast;             /* run everything through the general executor */
  KsSimFnLayout *layouts;       /* per function */
  uint8_t *param_bank;          /* the kernel's parameters */
  uint32_t param_bank_size;
  uint32_t static_shared;       /* bytes of .shared variables */
  uint32_t shared_size;         /* static + dynamic, per CTA */
  uint32_t reserved_smem;       /* 0, or KS_SIM_RESERVED_SMEM_SIZE on sm_80 and later */
  KsLowering *lowering;         /* what ptxas merges: the trace's memory records are of the
                                 * accesses the GPU makes (ks-lower.h); a worker shares it */

  uint32_t threads_per_cta, warps_per_cta;
  uint64_t n_ctas, next_cta;
  KsSimCta cta;                 /* the CTA being run */
  gboolean cta_active;
  uint32_t current_warp;

  /* Textures and surfaces: the launch's tables, the handle of each module
   * .texref/.surfref variable the launch binds (0: none), and the decoded
   * modifiers of each texture or surface instruction (NULL when the module
   * has none) */
  KsSimArray *textures, *surfaces;
  uint64_t *var_handle;
  KsTexForm *tex_forms;

  KsSimInsnStats *insn_stats;   /* per module instruction */
  struct _KsCache *l1, *l2;     /* created on the first analysed access */
  /* The race check: who last wrote and read each 4-byte word of the CTA's
   * shared memory, and in which barrier interval (epoch) */
  KsSimWordAccess *smem_access;
  uint32_t epoch;
  uint32_t write_epoch;         /* + 1 of the last epoch a shared store (or copy) was checked in */
  KsSimReadLog *read_log;       /* loads not yet noted, of epoch read_log_epoch */
  uint32_t n_read_log, read_log_epoch;
  GArray *async_copies;         /* KsSimAsyncCopy in flight in the CTA */
  uint32_t *async_commits;      /* per thread of the CTA: cp.async groups committed */
  KsSimHazard *hazards;
  uint32_t n_hazards;
  GHashTable *accesses;         /* instruction -> GArray of KsMemAccess */
  GHashTable *tex_accesses;     /* tex and tld4 -> GArray of KsTexAccess, beside accesses' */
  uint8_t *access_full;         /* per instruction: its samples are all taken */
  uint32_t access_samples;
  KsSimSmemMemo smem_memo[KS_SIM_SMEM_MEMO];  /* a worker has its own copy */
  uint32_t l1_bytes, l2_bytes;
  KsTraceEvent *trace;
  uint64_t n_trace, cap_trace, max_trace;
  uint64_t last_event;          /* the event of the instruction being executed, or G_MAXUINT64 */
  KsTraceMemory *trace_mem;
  uint64_t n_trace_mem, cap_trace_mem;
  gboolean trace_enabled;
  /* The trace's sample (ks_sim_set_trace): whether the running block is
   * traced, the blocks an event can name (KS_TRACE_MAX_WARPS; 0 when the
   * module has too many instructions), and whether block 0 alone filled
   * the trace; the stride and the whole blocks are in stats.  A worker of
   * a parallel run samples its own blocks the same way, from a stride that
   * is never more than the one a run on one thread has at that block. */
  gboolean trace_cta;
  uint64_t trace_ctas;
  gboolean trace_cut;
  uint64_t cta_linear;          /* the running CTA's linear index */

  uint32_t n_threads;           /* for runs to the end */
  gboolean reads_clock;         /* the module reads %clock, %clock64 or %globaltimer */
  /* Called before (after = FALSE) and after each warp-instruction when set:
   * the lane recorder (ks-sim-lanes.c) */
  void (*step_hook) (struct _KsSim *sim, KsSimWarp *w, gboolean after, gpointer data);
  gpointer step_hook_data;
  uint64_t cta_stride;          /* 1; a worker runs one block at a time; a block sample's stride */
  uint64_t cta_end;             /* n_ctas, or where a block sample ends */
  /* Set in the workers of a parallel run (ks-sim-parallel.c): what they
   * share, the block being run, the instructions whose statistics the block
   * changed, and how many samples the block took of each instruction */
  KsSimParallel *shared;
  KsSimBlock *block;
  GArray *touched;
  uint32_t *block_samples;

  KsSimProgressFunc progress;
  gpointer progress_data;
  uint64_t progress_at;         /* warp-instructions at the last report */

  /* A run whose step budget ran out in the middle of a warp's burst goes on
   * from there (the warp's place in the round-robin pass and its burst so
   * far), so that a launch stepped one instruction at a time runs in the
   * order it runs in one go */
  gboolean resume;
  uint32_t resume_k, resume_n;
  /* The last warp-instruction of a run with a step budget */
  KsSimStep last_step;
  gboolean have_last_step;

  /* The spin check (ks-sim-spin.c): every change to memory that a warp
   * could read (written by this thread only; others read it), and, once a
   * block has run long, Brent's cycle search over its state at the start
   * of every 16th round-robin pass */
  uint64_t mem_writes;
  uint64_t spin_start;          /* warp-instructions when the block started */
  uint64_t spin_hash, spin_writes;
  uint32_t spin_power, spin_lambda, spin_pass;
  /* a block of a cooperative launch whose state repeats: 1 + the writes
   * it repeats at (0: none); the launch is livelocked when every block's
   * is that of the writes so far */
  uint64_t spin_suspect;

  /* A cooperative launch ("cooperative": true) runs its blocks side by
   * side: coop[n_ctas] holds each block's state while it waits for its
   * turn, coop_order the blocks that have not finished (coop_live of them,
   * the running one at coop_pos), coop_cur the block whose state is in
   * the fields above (G_MAXUINT64: none).  grid.sync()'s workspace, which
   * %envreg1 (high half) and %envreg2 (low half) point at, is an allocation
   * of its own (0: the module does not read %envreg). */
  KsSimCoopBlock *coop;
  uint64_t *coop_order;
  uint64_t coop_live, coop_pos, coop_cur, coop_finished;
  uint64_t coop_workspace;

  KsSimStatus status;
  KsSimFault fault;
  KsSimStats stats;
  uint64_t step_limit;
  double time_limit;            /* seconds; 0: none */
  char *time_limit_note;        /* the run's; a worker shares it */
  gint64 deadline;              /* monotonic time the run stops at; 0: none.  A worker keeps the
                                 * run's */
  uint64_t clock_read_at;       /* warp-instructions when the clock was last read */
  uint64_t steps_before;        /* a worker: warp-instructions of the blocks before its own
                                 * that are known, for the step limit */
  GString *printf_out;
};

/* Frees a frame's arrays, or keeps them for the warp's next block */
void   ks_sim_frame_release  (KsSim                *sim,
                              KsSimWarp            *w,
                              KsSimFrame           *f);

/* The cache model's part of the memory analysis of a global access, or of
 * a texture or surface one: L1, then L2, for each sector, into the
 * statistics of insn, the trace's record tm and the sample (either may be
 * NULL) */
void   ks_sim_cache_sectors  (KsSim                *sim,
                              uint32_t              insn,
                              const uint64_t       *sectors,
                              uint32_t              n_sectors,
                              gboolean              store,
                              gboolean              texture,
                              KsTraceMemory        *tm,
                              KsMemAccess          *sample);
/* The run's details of the texture fetches sampled of insn (created
 * when missing) */
GArray *ks_sim_tex_samples   (KsSim                *sim,
                              uint32_t              insn);
void   ks_sim_warp_free      (KsSim                *sim,
                              KsSimWarp            *w);
/* Runs the whole launch on sim->n_threads threads (ks-sim-parallel.c) */
void   ks_sim_run_parallel   (KsSim                *sim,
                              GCancellable         *cancellable);

void   ks_sim_insn_stats_add (KsSimInsnStats       *to,
                              const KsSimInsnStats *from);

/* Lanes in a mask.  Without the popcnt instruction (the x86-64 baseline),
 * __builtin_popcount is a call into libgcc; this is a few inline
 * instructions, and every warp-instruction counts its lanes. */
static inline uint32_t
ks_popcount32 (uint32_t x)
{
#ifdef __POPCNT__
  return (uint32_t) __builtin_popcount (x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (x * 0x01010101u) >> 24;
#endif
}

/* The trace is full (n_trace reached max_trace) at an event of the
 * running block: halves the sample (ks_sim_trace_halve) until the block
 * leaves it or there is room, or, at block 0, cuts the trace there.  TRUE
 * when the event can be recorded now. */
gboolean ks_sim_trace_full     (KsSim                *sim);
/* Doubles the trace's stride: drops the events and memory records of every
 * block that is not a multiple of the new stride, and recounts the whole
 * blocks (all but `running`, whose events are still coming; G_MAXUINT64
 * for none).  In a worker, moves its cache requests' records along. */
void     ks_sim_trace_halve    (KsSim                *sim,
                                uint64_t              running);

/* The lanes of w's current function parked on its SIMT stack, waiting to
 * reconverge with the path that runs (which cannot run before it gets
 * there) */
static inline uint32_t
ks_sim_warp_parked (const KsSimWarp *w)
{
  const KsSimFrame *f = &w->frames[w->n_frames - 1];
  uint32_t parked = 0;

  for (uint32_t i = f->simt_base; i + 1 < w->n_simt; i++)
    parked |= w->simt[i].mask;
  return parked & ~w->simt[w->n_simt - 1].mask;
}

/* The instruction the running path of w is at, or NULL past its function's
 * end */
static inline const KsPtxInsn *
ks_sim_warp_insn (const KsSim     *sim,
                  const KsSimWarp *w)
{
  const KsPtxFunction *fn = &sim->module->functions[w->frames[w->n_frames - 1].fn];
  uint32_t pc = w->simt[w->n_simt - 1].pc;

  return pc < fn->n_insns ? &sim->module->insns[fn->first_insn + pc] : NULL;
}

/* A change to memory: a store, a successful atomic, a copy ... */
static inline void
ks_sim_note_write (KsSim *sim)
{
  __atomic_store_n (&sim->mem_writes, sim->mem_writes + 1, __ATOMIC_RELAXED);
}

/* Whether an instruction of this opcode may change memory or anything else
 * outside the block's registers (counted as a write whenever it runs);
 * atom counts itself, only when it changes a value */
static inline gboolean
ks_sim_spin_writes (uint32_t opcode)
{
  switch ((KsPtxOpcode) opcode)
    {
    case KS_PTX_OPC_ALLOCA:
    case KS_PTX_OPC_BAR:
    case KS_PTX_OPC_BARRIER:
    case KS_PTX_OPC_BRKPT:
    case KS_PTX_OPC_CALL:
    case KS_PTX_OPC_CLUSTERLAUNCHCONTROL:
    case KS_PTX_OPC_CP:
    case KS_PTX_OPC_DISCARD:
    case KS_PTX_OPC_GRIDDEPCONTROL:
    case KS_PTX_OPC_MBARRIER:
    case KS_PTX_OPC_MULTIMEM:
    case KS_PTX_OPC_PMEVENT:
    case KS_PTX_OPC_RED:
    case KS_PTX_OPC_SETMAXNREG:
    case KS_PTX_OPC_ST:
    case KS_PTX_OPC_STACKRESTORE:
    case KS_PTX_OPC_STMATRIX:
    case KS_PTX_OPC_SURED:
    case KS_PTX_OPC_SUST:
    case KS_PTX_OPC_TCGEN05:
    case KS_PTX_OPC_TENSORMAP:
    case KS_PTX_OPC_TRAP:
    case KS_PTX_OPC_WGMMA:
    case KS_PTX_OPC_WMMA:
      return TRUE;
    default:
      return FALSE;
    }
}

/* A block that has run long: looks for its state repeating with nothing
 * written in between (a loop nothing can end) and faults on it, at the
 * start of a round-robin pass.  ks_sim_spin_reset at the block's start. */
void     ks_sim_spin_check     (KsSim                *sim);
void     ks_sim_spin_reset     (KsSim                *sim);
/* A cooperative launch: whether every block but the running one repeats
 * its state with no write since @writes */
gboolean ks_sim_coop_all_repeat (const KsSim         *sim,
                                 uint64_t             writes);

/* The counters and the trace event of warp-instruction gi, about to run
 * with the lanes of exec (of the n_active lanes on the warp's path) */
static inline void
ks_sim_count_step (KsSim     *sim,
                   KsSimWarp *w,
                   uint32_t   gi,
                   uint32_t   exec,
                   uint32_t   n_active)
{
  KsSimInsnStats *st = &sim->insn_stats[gi];
  uint32_t n_exec = ks_popcount32 (exec);

  /* a worker of a parallel run hands in the statistics of each block */
  if (G_UNLIKELY (st->warp_executions == 0) && sim->touched != NULL)
    g_array_append_val (sim->touched, gi);
  sim->stats.warp_instructions++;
  sim->stats.thread_instructions += n_exec;
  st->warp_executions++;
  st->thread_executions += n_exec;
  st->active_lanes += n_active;
  sim->last_event = G_MAXUINT64;
  w->steps++;
  if (sim->trace_enabled)
    {
      if (G_LIKELY (sim->trace_cta) && (sim->n_trace < sim->max_trace || ks_sim_trace_full (sim)))
        {
          if (sim->n_trace == sim->cap_trace)
            {
              sim->cap_trace = MIN (MAX (sim->cap_trace * 2, 4096), sim->max_trace);
              sim->trace = g_renew (KsTraceEvent, sim->trace, sim->cap_trace);
            }
          sim->last_event = sim->n_trace;
          /* every field fits: no block whose warps or instructions an
           * event cannot name is traced (trace_ctas) */
          sim->trace[sim->n_trace++] = (KsTraceEvent) {
            .insn = gi,
            .flags = w->pending_flags,
            .exec = exec,
            .warp = (uint32_t) (sim->cta_linear * sim->warps_per_cta + w->index),
            .active_lanes = n_active,
          };
          sim->stats.trace_events++;
        }
      else
        sim->stats.trace_dropped++;
    }
  w->pending_flags = 0;
}

/* The memory analysis of a texture or surface instruction: the global
 * addresses of the texels each lane read or wrote (n per lane at most 8,
 * texel_size bytes each), through the L1 and L2 models, counted apart from
 * ld/st (KsSimInsnStats.tex_*).  A texture fetch gives its lanes (mask)
 * and their footprints (tex), kept as the instruction's samples; surfaces
 * give 0 and NULL.  Runs only while the trace is on. */
void   ks_sim_record_texture (KsSim             *sim,
                              const KsSimWarp   *w,
                              uint32_t           insn,
                              gboolean           surface,
                              const uint64_t    *addrs,
                              uint32_t           n_addrs,
                              uint32_t           texel_size,
                              uint32_t           texels,
                              gboolean           store,
                              uint32_t           mask,
                              const KsTexAccess *tex);

/* As ks_sim_new_step(), moving @prev's memory into the new simulation
 * rather than copying it: @prev is left without it, to be freed */
KsSim *ks_sim_new_step_taking (const KsPtxModule *module,
                               const KsLaunch    *launch,
                               uint32_t           step,
                               KsSim             *prev,
                               GError           **error);

G_END_DECLS
