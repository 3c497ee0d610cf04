/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim.h: the functional SIMT simulator.
 *
 * A KsSim runs one kernel launch of a parsed module on the CPU, warp by
 * warp, and computes its real results in simulated memory.  It is plain C
 * and holds no GObjects; the app drives it from a GTask and may stop it at
 * any instruction boundary and go on later (ks_sim_run with a step budget). */
#pragma once

#include <gio/gio.h>
#include <stdint.h>

#include "ks-launch.h"
#include "ks-ptx.h"

G_BEGIN_DECLS

typedef struct _KsSim KsSim;

typedef enum
{
  KS_SIM_READY = 0,             /* created, or stopped with work left */
  KS_SIM_DONE,                  /* every thread exited */
  KS_SIM_FAULTED,               /* stopped by a fault; see ks_sim_get_fault() */
  KS_SIM_CANCELLED,
} KsSimStatus;

typedef enum
{
  KS_SIM_FAULT_NONE = 0,
  KS_SIM_FAULT_OUT_OF_BOUNDS,
  KS_SIM_FAULT_MISALIGNED,
  KS_SIM_FAULT_DEADLOCK,
  KS_SIM_FAULT_TRAP,
  KS_SIM_FAULT_STEP_LIMIT,
  KS_SIM_FAULT_UNSUPPORTED,
  KS_SIM_FAULT_STACK_OVERFLOW,
  KS_SIM_FAULT_TEXTURE,         /* a texture or surface instruction its handle does not allow */
  KS_SIM_FAULT_TIME_LIMIT,      /* ran past ks_sim_set_time_limit()'s seconds */
} KsSimFaultKind;

typedef struct
{
  KsSimFaultKind kind;
  char *message;
  uint32_t ptx_line;            /* 0 when not at an instruction */
  char *cuda_file;              /* NULL when unknown */
  uint32_t cuda_line;
  uint32_t block[3];
  uint32_t thread[3];
  uint64_t address;             /* for memory faults */
  gboolean has_address;
} KsSimFault;

typedef struct
{
  uint64_t warp_instructions;   /* warp-instructions issued (predicated-off lanes included) */
  uint64_t thread_instructions; /* lanes that executed them */
  double seconds;               /* wall time spent in ks_sim_run */
  uint64_t divergent_branches;  /* branches after which a warp's lanes went two ways */
  uint64_t barriers;            /* barrier releases */
  uint64_t trace_events;        /* events recorded in the trace */
  uint64_t trace_dropped;       /* warp-instructions not in the trace: blocks left out of
                                 * its sample, or past its limits */
  uint64_t trace_stride;        /* the trace holds blocks 0, s, 2s, ... (1: every block) */
  uint64_t trace_blocks;        /* blocks whose every event is in the trace */
  uint64_t sampled_blocks;      /* 0: the whole grid ran; else only these blocks
                                 * (ks_sim_set_block_sample) */
  uint64_t sample_stride;       /* ... blocks 0, sample_stride, 2 sample_stride, ... */
} KsSimStats;

/* What happened at each PTX instruction, over the whole launch: the
 * statistics of the heat gutter and the hints.  Indexed like module->insns. */
typedef struct
{
  uint64_t warp_executions;     /* times a warp issued it */
  uint64_t thread_executions;   /* lanes that executed it (guard predicate true) */
  uint64_t active_lanes;        /* lanes on the warp's path when issued, summed */
  uint64_t divergent;           /* a branch that split the warp */
  /* Shared memory (32 banks of 4 bytes) */
  uint64_t smem_requests;
  uint64_t smem_wavefronts;     /* passes the requests took */
  uint64_t smem_ideal_wavefronts;       /* passes without bank conflicts */
  uint32_t smem_worst_degree;   /* most distinct words one bank served at once */
  /* How a divergent branch split its warp, over its divergent executions
   * (when divergent > 0; brx.idx leaves them 0): the fewest and the most
   * lanes that took it, and that did not */
  uint8_t split_taken_min, split_taken_max;
  uint8_t split_other_min, split_other_max;
  /* Global memory (32-byte sectors, 128-byte lines) */
  uint64_t gmem_requests;
  uint64_t gmem_sectors;
  uint64_t gmem_ideal_sectors;
  uint64_t gmem_lines;
  uint64_t gmem_requested_bytes;       /* active lanes x size, a broadcast counted per lane */
  uint64_t gmem_used_bytes;     /* distinct bytes the lanes asked for, summed over requests */
  uint64_t l1_hits, l1_misses;  /* sectors */
  uint64_t l2_hits, l2_misses;
  /* Texture and surface memory (tex, tld4; suld, sust, sured) go through
   * the texture path of L1TEX and are counted here, apart from ld/st */
  uint64_t tex_requests;        /* warp-level tex and tld4 */
  uint64_t tex_fetches;         /* texels they read (a linear 2D fetch reads 4 a lane) */
  uint64_t surf_requests;       /* warp-level suld, sust and sured */
  uint64_t tex_sectors;         /* 32-byte sectors of the arrays both touched */
  uint64_t tex_l1_hits, tex_l1_misses;  /* loaded sectors found in L1, and not */
} KsSimInsnStats;

typedef enum
{
  KS_HAZARD_RAW = 0,            /* read after another thread's write */
  KS_HAZARD_WAR,                /* write after another thread's read */
  KS_HAZARD_WAW,                /* write after another thread's write */
} KsHazardKind;

/* Two threads of a block touched the same shared-memory word, one of them
 * writing, with no barrier between them (as compute-sanitizer's racecheck
 * reports).  One record per pair of instructions, with a count. */
typedef struct
{
  KsHazardKind kind;
  uint32_t first_insn;          /* the earlier access (module instruction index) */
  uint32_t second_insn;         /* the later one */
  uint32_t address;             /* shared-memory offset of the first occurrence */
  uint32_t block[3];
  uint32_t first_thread, second_thread;   /* linear thread indices in the block */
  uint64_t count;
} KsSimHazard;

/* Statistics summed over the instructions of one line */
typedef struct
{
  uint32_t file;                /* CUDA: the .file number; PTX: 0 */
  uint32_t line;
  KsSimInsnStats stats;
} KsSimLineStats;

/* One executed warp-instruction in the trace (12 bytes).  Events are in
 * execution order; the timing model and the timeline read them per warp.
 * The instruction and the warp share their words with the flags and the
 * lane count: a module of KS_TRACE_MAX_INSNS instructions or more, and the
 * blocks of a launch past its first KS_TRACE_MAX_WARPS warps, are not traced
 * (their warp-instructions count as dropped; nothing else changes). */
typedef struct
{
  uint32_t insn : 24;           /* module instruction index */
  uint32_t flags : 8;           /* KS_TRACE_* */
  uint32_t exec;                /* lanes that executed it */
  uint32_t warp : 26;           /* CTA linear index * warps per CTA + warp index */
  uint32_t active_lanes : 6;    /* lanes on the path (the guard predicate may have cut some) */
} KsTraceEvent;

#define KS_TRACE_MAX_INSNS (1u << 24)
#define KS_TRACE_MAX_WARPS (1u << 26)
G_STATIC_ASSERT (sizeof (KsTraceEvent) == 12);

typedef enum
{
  KS_TRACE_MEM_SHARED = 0,
  KS_TRACE_MEM_GLOBAL,          /* ld/st/atom/red of global (or generic global) memory */
  KS_TRACE_MEM_TEXTURE,         /* tex, tld4: the other fields as for a global access */
  KS_TRACE_MEM_SURFACE,         /* suld, sust, sured */
} KsTraceMemoryKind;

/* What a memory instruction of the trace did (4 bytes), in a side table in
 * event order: the events with KS_TRACE_MEMORY own its records one after
 * another, so a reader walking the events keeps a cursor into it.  The
 * timing model's latencies come from here.  The sector counts saturate at
 * 127 (only a texture request can touch more: 32 lanes of 8 texels), the
 * wavefronts at 255. */
typedef struct
{
  uint32_t kind : 2;            /* KsTraceMemoryKind */
  uint32_t store : 1;           /* a store, atomic or reduction */
  uint32_t wavefronts : 8;      /* passes the request took: shared memory's bank wavefronts,
                                 * or L1's, one per 128-byte line touched, for the others;
                                 * of the access the GPU makes: for scalar accesses ptxas
                                 * merges into a vector one (ks-lower.h), the merged access's
                                 * at its leader and 0 at the others */
  uint32_t l1_hits : 7;         /* 32-byte sectors found in L1 (loads) */
  uint32_t l2_hits : 7;         /* ... in L2 (for a store: every sector it wrote, which L2
                                 * takes whether it held the sector or not) */
  uint32_t dram : 7;            /* ... that went to DRAM, and dirty sectors this access
                                 * made L2 write back to DRAM (L2 is write-back: a store
                                 * reaches DRAM when its sector is evicted) */
} KsTraceMemory;

#define KS_TRACE_MEMORY_MAX_SECTORS 127u
G_STATIC_ASSERT (sizeof (KsTraceMemory) == 4);

/* The 32-byte sectors a global, texture or surface request moved: each was
 * found in L1, in L2, or went to DRAM */
static inline uint32_t
ks_trace_memory_sectors (const KsTraceMemory *r)
{
  return r->l1_hits + r->l2_hits + r->dram;
}

/* One execution of a memory instruction with every lane's address, as the
 * bank and cache-line diagrams draw it.  While the trace is on, the first
 * executions of each memory instruction are kept (16 unless
 * ks_sim_set_access_samples says otherwise). */
typedef struct
{
  uint32_t warp;                /* CTA linear index * warps per CTA + warp index */
  uint32_t mask;                /* lanes that accessed */
  uint8_t space;                 /* KS_PTX_SPACE_SHARED, KS_PTX_SPACE_GLOBAL, or KS_PTX_SPACE_TEX
                                 * for tex and tld4 (ks_sim_get_tex_accesses) */
  uint8_t size;                 /* bytes per lane */
  uint8_t store;
  uint8_t n_levels;             /* global: entries of level[] */
  uint32_t reserved;
  uint64_t addr[32];            /* per lane: the shared-memory offset, or the global address */
  /* global: where each 32-byte sector came from, in the (sorted) order of
   * the request's sectors: 1 L1 hit, 2 L2 hit, 3 DRAM; stores: 4 */
  uint8_t level[64];
} KsMemAccess;

/* One lane of a sampled texture fetch, as the texture diagram draws it */
typedef struct
{
  float u[3];                   /* the coordinates in texels (normalized ones times the size,
                                 * plus the offsets); integer coordinates as given */
  uint16_t alpha[3];            /* linear filtering: the upper texel's weight along each
                                 * coordinate, in 256ths (CUDA's 9-bit weight, 0 to 256) */
  uint8_t n_texels;             /* the footprint: 1 (point), 2, 4 or 8 (linear 1D, 2D, 3D),
                                 * 4 (tld4) */
  uint8_t border;               /* bit k: texel k is outside the array (the border colour) */
  uint16_t texture;             /* the launch's texture (KsLaunch.textures) */
  uint16_t layer;               /* the layer read (cubemaps: cube * 6 + face) */
  int32_t base[3];              /* the footprint's first texel before the address modes:
                                 * floor (u - 0.5) when linear, else floor (u) */
  int32_t texel[8][3];          /* each texel read (x fastest), after the address modes;
                                 * border texels where they lie */
  uint32_t value[4];            /* what the fetch returned (f32 bits or integers) */
} KsTexLane;

/* The details of a sampled execution of tex or tld4, beside its
 * KsMemAccess (whose addr[] holds each lane's first texel) */
typedef struct
{
  uint8_t geom;                 /* KsTexGeom */
  uint8_t dims;                 /* coordinates the footprints span: 1 to 3 */
  uint8_t linear;               /* linear filtering: the weights apply */
  uint8_t gather;               /* tld4 */
  uint32_t reserved;
  KsTexLane lane[32];           /* the lanes of the access's mask */
} KsTexAccess;

#define KS_MEM_LEVEL_L1     1
#define KS_MEM_LEVEL_L2     2
#define KS_MEM_LEVEL_DRAM   3
#define KS_MEM_LEVEL_STORE  4

#define KS_TRACE_DIVERGE      0x01u     /* a branch that split the warp */
#define KS_TRACE_RECONVERGE   0x02u     /* paths joined before this instruction */
#define KS_TRACE_BARRIER      0x04u     /* the warp waits at a barrier after this */
#define KS_TRACE_EXIT         0x08u     /* lanes exited */
#define KS_TRACE_RELEASE      0x10u     /* a barrier the warp waited at released it before this */
#define KS_TRACE_MEMORY       0x20u     /* the event has a record in the memory table */

#define KS_SIM_ERROR (ks_sim_error_quark ())
GQuark ks_sim_error_quark (void);

typedef enum
{
  KS_SIM_ERROR_NO_KERNEL,
  KS_SIM_ERROR_BAD_LAUNCH,
  KS_SIM_ERROR_MODULE_HAS_ERRORS,
} KsSimError;

/* Creates a simulation of `launch` on `module`, which must outlive it.
 * Checks the launch against the kernel (parameter count, types and sizes,
 * shared memory) and returns NULL with an error that says what is wrong. */
KsSim              *ks_sim_new          (const KsPtxModule *module,
                                         const KsLaunch    *launch,
                                         GError           **error);
/* Launch @step of a spec's "launches" (0 for a spec of one launch),
 * after @prev, the simulation of launch @step - 1 of the same spec and
 * module (NULL for the first): it starts from the memory @prev left, the
 * buffers and the module's variables, as launches on one stream do.  The
 * spec's "symbols" are written before the first launch only.
 * ks_sim_new() refuses a spec of several launches, so that no reader runs
 * only the first by mistake. */
KsSim              *ks_sim_new_step     (const KsPtxModule *module,
                                         const KsLaunch    *launch,
                                         uint32_t           step,
                                         const KsSim       *prev,
                                         GError           **error);
void                ks_sim_free         (KsSim             *sim);

/* Running a spec's "launches" in turn (ks-sim-launches.c), as a host
 * program does on one stream: each launch starts from the memory the one
 * before it left.  kernelscope-cli run and the analysis (the window) share
 * it. */
typedef void (*KsSimLaunchFunc) (KsSim    *sim,
                                 uint32_t  step,
                                 gpointer  user_data);
/* Runs launches @first to @end - 1 of @launch (first < end), the first of
 * them after @prev (the simulation of launch @first - 1, which it only
 * reads; NULL when @first is 0).  @setup, when given, is called on each
 * simulation before it runs (the trace, threads, a step limit: a new
 * simulation runs without the trace), and @done after.  It stops after a
 * launch that did not finish (a fault, or @cancellable).
 * Returns: (transfer full): the simulation of the last launch run (see
 * ks_sim_get_status), or NULL with @error set when a launch does not fit
 * its kernel (ks_sim_new_step()'s message). */
KsSim              *ks_sim_run_launches (const KsPtxModule *module,
                                         const KsLaunch    *launch,
                                         uint32_t           first,
                                         uint32_t           end,
                                         const KsSim       *prev,
                                         KsSimLaunchFunc    setup,
                                         KsSimLaunchFunc    done,
                                         gpointer           user_data,
                                         GCancellable      *cancellable,
                                         GError           **error);
/* A simulation, not yet run, of the launch @launch's top level holds:
 * ks_sim_new() for a spec of one launch; for a sequence, launch
 * launch->step (ks_launch_select_step), after launches 0 to step - 1 have
 * run without the trace on @threads threads.  NULL with @error set when
 * one does not fit its kernel, when one of them faults (the message names
 * the launch, the block and the thread) or when cancelled. */
KsSim              *ks_sim_new_selected (const KsPtxModule *module,
                                         const KsLaunch    *launch,
                                         uint32_t           threads,
                                         GCancellable      *cancellable,
                                         GError           **error);

/* What one launch of a sequence did, for a report of each */
typedef struct
{
  char *kernel;                 /* the kernel's name in the module */
  uint32_t grid[3], block[3];
  uint32_t dynamic_shared_bytes;
  gboolean run;                 /* FALSE: not run (after a fault, or not asked for) */
  KsSimStatus status;           /* when run: KS_SIM_DONE, KS_SIM_FAULTED, ... */
  KsSimStats stats;
  KsSimFault fault;             /* when status is KS_SIM_FAULTED; its strings owned */
} KsSimLaunchReport;

/* Fills @report with what the launch of @launch's "launches" @step is
 * (kernel, grid, block), and, when @sim is that launch's simulation after
 * its run, what it did. */
void                ks_sim_launch_report_fill  (KsSimLaunchReport *report,
                                                const KsPtxModule *module,
                                                const KsLaunch    *launch,
                                                uint32_t           step,
                                                const KsSim       *sim);
void                ks_sim_launch_report_clear (KsSimLaunchReport *report);

/* Runs until the kernel ends, faults, is cancelled, or `max_steps`
 * warp-instructions have been executed in this call (0 = no limit). */
KsSimStatus         ks_sim_run          (KsSim             *sim,
                                         uint64_t           max_steps,
                                         GCancellable      *cancellable);
/* Runs of the whole launch (ks_sim_run with no step budget, from the
 * start) run blocks on this many threads (0: one per processor; the
 * default is 1), with the trace on or off.  The results, printf output,
 * statistics, trace, memory analysis, samples, hazards and the fault
 * reported are those of a run on one thread, for kernels whose blocks do
 * not race with each other in global memory (atomics whose result depends
 * on their order, such as float additions, may round differently); after
 * a fault, blocks past it may have written to the buffers.  Kernels that
 * read %clock, %clock64 or %globaltimer run on one thread. */
void                ks_sim_set_threads  (KsSim             *sim,
                                         uint32_t           n_threads);

/* Called from ks_sim_run about every 64 K warp-instructions and when a
 * block finishes, with the fraction of blocks done: for a progress bar. */
typedef void (*KsSimProgressFunc) (double    fraction,
                                   gpointer  user_data);
void                ks_sim_set_progress_func (KsSim           *sim,
                                              KsSimProgressFunc func,
                                              gpointer         user_data);

/* After this many warp-instructions in total the run faults with
 * KS_SIM_FAULT_STEP_LIMIT (0 = no limit, the default is 2e9: about a minute
 * of a kernel that does not end). */
void                ks_sim_set_step_limit (KsSim           *sim,
                                           uint64_t         limit);

/* After this many seconds of simulation in all (the wall-clock time spent
 * in ks_sim_run, over every call) the run faults with
 * KS_SIM_FAULT_TIME_LIMIT: "stopped after 10 s of simulation (NOTE): ...",
 * NOTE saying where the budget came from and how to allow more ("the
 * default budget; --max-seconds N to allow more"; NULL: "the time limit").
 * 0 = no limit, the default.  The clock is read every 64 K
 * warp-instructions or so, so the run may go a millisecond past. */
void                ks_sim_set_time_limit (KsSim           *sim,
                                           double           seconds,
                                           const char      *note);

/* One warp-instruction of a run, as a debugger shows it: which warp ran
 * which instruction with which lanes. */
typedef struct
{
  uint64_t index;               /* warp-instructions the launch ran before it (its place in the trace) */
  uint64_t cta;                 /* linear block index */
  uint32_t block[3];            /* the block's %ctaid */
  uint32_t warp;                /* within the block */
  uint32_t insn;                /* module instruction index; KS_PTX_NONE: the warp ran off the
                                 * end of a function, an implicit return */
  uint32_t active;              /* lanes on the warp's path */
  uint32_t executed;            /* of those, the lanes whose guard predicate held */
  uint32_t warp_step;           /* the warp's warp-instructions before it (its place among
                                 * the warp's events in the trace, which may not hold them) */
} KsSimStep;

/* The last warp-instruction of the last ks_sim_run with a step budget
 * (max_steps > 0): with max_steps = 1, the instruction that one step
 * executed.  Stepping one instruction at a time runs the warps in the
 * order a run in one go does, so step N is the trace's event N - 1 (when
 * no warp runs off the end of a function, and while the trace holds every
 * block: stats.trace_dropped is 0).  FALSE when that run executed
 * nothing or had no budget.  Costs the run one comparison per step. */
gboolean            ks_sim_get_last_step (const KsSim      *sim,
                                          KsSimStep        *step);

KsSimStatus         ks_sim_get_status   (const KsSim       *sim);
const KsSimFault   *ks_sim_get_fault    (const KsSim       *sim);
const KsSimStats   *ks_sim_get_stats    (const KsSim       *sim);
/* The text the kernel printed with printf, in the order it was printed. */
const char         *ks_sim_get_printf   (const KsSim       *sim);
/* The current contents of launch buffer `index`. */
const uint8_t      *ks_sim_get_buffer   (const KsSim       *sim,
                                         uint32_t           index,
                                         size_t            *size);
/* The same, handed to the caller (g_free) without a copy: for a host that
 * keeps the memory between launches (the runtime stand-in).  The buffer
 * is then empty: call it after the run, before ks_sim_free, and nothing
 * else on the simulation after it but other buffers' taking. */
uint8_t            *ks_sim_take_buffer  (KsSim             *sim,
                                         uint32_t           index,
                                         size_t            *size);
/* The current contents of the module variable "output_symbols"[@index]
 * names, read as @type (the type "symbols" gives it, else the variable's;
 * b8 when that is not a plain type) in @count elements. */
const uint8_t      *ks_sim_get_output_symbol (const KsSim     *sim,
                                              uint32_t         index,
                                              KsPtxType       *type,
                                              uint64_t        *count,
                                              size_t          *size);
const char         *ks_sim_fault_kind_name (KsSimFaultKind  kind);

/* The trace is on by default, up to max_events (default 16 M: with the
 * memory table at most 256 MB).  A launch with more warp-instructions is
 * traced in a sample of whole blocks spread over the grid: when the trace
 * fills up, every other block of those it holds is dropped from it and
 * from then on only blocks 0, 2s, 4s, ... are traced (s the stride before;
 * stats.trace_stride says the last one).  A trace full of block 0 alone is
 * cut there.  Warp-instructions not in the trace are counted in
 * stats.trace_dropped.  Call before ks_sim_run. */
void                ks_sim_set_trace    (KsSim             *sim,
                                         gboolean           enabled,
                                         uint64_t           max_events);
/* Runs only blocks 0, stride, 2 stride, ... (count of them), on one
 * thread: for the timing model of a launch too large to run whole (stride
 * the GPU's SM count: the busiest SM's first blocks).  The buffers then
 * hold those blocks' writes only, which stats.sampled_blocks says: they are
 * not the kernel's output.  Call before ks_sim_run. */
void                ks_sim_set_block_sample (KsSim         *sim,
                                             uint64_t       stride,
                                             uint64_t       count);
const KsTraceEvent *ks_sim_get_trace    (const KsSim       *sim,
                                         uint64_t          *n_events);
/* The memory table: record k belongs to the k-th event that has
 * KS_TRACE_MEMORY */
const KsTraceMemory *ks_sim_get_trace_memory (const KsSim  *sim,
                                              uint64_t     *n_records);
/* How many executions of each memory instruction to keep with their
 * addresses (0: none).  Call before ks_sim_run. */
void                ks_sim_set_access_samples (KsSim       *sim,
                                               uint32_t     per_instruction);
/* The kept executions of memory instruction `insn`, in execution order */
const KsMemAccess  *ks_sim_get_accesses (const KsSim       *sim,
                                         uint32_t           insn,
                                         uint32_t          *n_accesses);
/* The texture fetches among them: for a tex or tld4 instruction, one
 * KsTexAccess per kept execution (the same order and number as
 * ks_sim_get_accesses); NULL for any other instruction */
const KsTexAccess  *ks_sim_get_tex_accesses (const KsSim   *sim,
                                             uint32_t       insn,
                                             uint32_t      *n_accesses);
/* Per-instruction statistics, module->n_insns of them */
const KsSimInsnStats *ks_sim_get_insn_stats (const KsSim   *sim);
/* Whether the launch may run the module's function (index into
 * module->functions): the kernel, what it calls or takes the address of,
 * and theirs; every function when it calls through a register.  The
 * simulator prepares only those (a module of thousands of kernels runs
 * one). */
gboolean     ks_sim_may_run_function  (const KsSim   *sim,
                                       uint32_t       function);
uint32_t            ks_sim_get_warps_per_cta (const KsSim  *sim);
/* The launch it runs: the spec given to ks_sim_new (or ks_sim_new_step),
 * with the kernel, grid, block, dynamic_shared_bytes and params of the
 * launch it runs; it borrows everything else from the spec */
const KsLaunch     *ks_sim_get_launch   (const KsSim       *sim);
/* What ptxas folds and merges in the module (ks-lower.h), as the trace's
 * memory records count it */
const struct _KsLowering *ks_sim_get_lowering (const KsSim  *sim);
/* Per-instruction statistics summed by PTX line, or by CUDA file and line
 * (through .loc), for the lines that ran, in order: (transfer full) arrays
 * of KsSimLineStats. */
GArray             *ks_sim_ptx_line_stats  (const KsSim    *sim);
/* Shared-memory hazards found (while the trace was on), at most 256 */
const KsSimHazard  *ks_sim_get_hazards     (const KsSim    *sim,
                                            uint32_t       *n_hazards);
const char         *ks_sim_hazard_kind_name (KsHazardKind   kind);
GArray             *ks_sim_cuda_line_stats (const KsSim    *sim);
/* The cache model's sizes (bytes).  Until the GPU database gives them per
 * architecture, the defaults are an A100's: 128 KiB of L1 (4-way) and
 * 40 MiB of L2 (16-way), 128-byte lines of 32-byte sectors.  Call before
 * ks_sim_run. */
void                ks_sim_set_caches   (KsSim             *sim,
                                         uint32_t           l1_bytes,
                                         uint32_t           l2_bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsSim, ks_sim_free)

G_END_DECLS
