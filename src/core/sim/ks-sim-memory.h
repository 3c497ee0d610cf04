/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-memory.h: what one warp-level memory request costs.
 *
 * Pure functions over the 32 lane addresses of one ld/st (shared-memory bank
 * wavefronts, global-memory sectors and lines) and a sectored set-associative
 * LRU cache for L1 and L2.  Nothing here allocates per request; the analyses
 * fill fixed-size structs on the caller's stack, so the simulator can call
 * them for every memory instruction it retires.
 *
 * The rules and where they come from:
 *
 * Shared memory (CUDA C++ Programming Guide, "Compute Capability 5.x: Shared
 * Memory", which 6.x, 7.x, 8.x and 9.x refer back to): 32 banks, successive
 * 32-bit words map to successive banks, each bank serves 32 bits per clock.
 * "A shared memory request for a warp does not generate a bank conflict
 * between two threads that access any address within the same 32-bit word
 * (even though the two addresses fall in the same bank). In that case, for
 * read accesses, the word is broadcast to the requesting threads and for
 * write accesses, each address is written by only one of the threads."  So
 * the cost of a pass is the largest number of *distinct words* any one bank
 * must deliver (the guide's "n-way bank conflict"), for loads and stores
 * alike, and any number of lanes may share a word (multicast).
 *
 * The 5.x+ text says nothing about 64- and 128-bit accesses.  What the model
 * does for them is taken from the Programming Guide's compute capability 2.x
 * and 3.x sections ("64-bit accesses ... half-warps", "128-bit accesses ...
 * quarter-warps") together with NVIDIA's statement that shared memory returns
 * 128 bytes per cycle (NVIDIA forums, "Unexpected shared memory bank
 * conflict", answer by an NVIDIA engineer, for CC 7.x): a 64-bit request is
 * split into two phases of 16 lanes, a 128-bit request into four phases of 8
 * lanes, and each phase is costed as above.  One step further is an
 * ESTIMATE, marked where it is made: for loads, two adjacent phases whose
 * union is conflict-free share one wavefront (the same forum answer: "the
 * uniform access can achieve 2x the performance by packing the return
 * registers", LDS.128 going from 4 to 2 requests; that an LDS.64 of one
 * address across the warp takes a single wavefront is reported from Nsight
 * Compute measurements but was not verified on hardware here).
 *
 * Wavefronts follow Nsight Compute's definition (Kernel Profiling Guide, and
 * the NVIDIA forum answer "What's the difference between wavefronts and
 * sectors/req"): the unit of work that passes through the L1TEX data stage
 * in one cycle; a request that cannot be served in one is split into several,
 * processed one after another.  Nsight's shared-memory "bank conflicts"
 * (l1tex__data_bank_conflicts_pipe_lsu_mem_shared) are the wavefronts beyond
 * the ideal; extra_wavefronts here is the same count.
 *
 * Global memory (Programming Guide, "Device Memory Accesses" and "Compute
 * Capability 5.x: Global Memory", and the Best Practices Guide, "Coalesced
 * Access to Global Memory"): the accesses of a warp are coalesced into the
 * 32-byte sectors needed to serve all its lanes; L1 and L2 lines are 128
 * bytes made of four 32-byte sectors, and a miss fetches only the sectors
 * that were addressed (NVIDIA forums, "Pascal L1 cache": "On a load miss
 * only the 32B sectors in the cache line that were accessed are loaded from
 * L2"; Nsight Compute: l1tex__t_sectors counts these 32-byte sectors).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

G_BEGIN_DECLS

#define KS_MEM_WARP_SIZE 32
#define KS_SMEM_BANKS 32
#define KS_SMEM_BANK_BYTES 4
#define KS_GMEM_SECTOR_BYTES 32
#define KS_GMEM_LINE_BYTES 128
/* Each lane's access (at most 16 bytes) spans at most two sectors and two
 * lines, so 64 is a hard bound for one request. */
#define KS_GMEM_MAX_SECTORS 64
#define KS_GMEM_MAX_LINES 64

/* Marks an inactive lane in the per-lane arrays below. */
#define KS_MEM_LANE_NONE 0xffu

/* ---- shared memory --------------------------------------------------------- */

typedef struct
{
  uint32_t active_mask;
  uint32_t size;                /* bytes per lane: 1, 2, 4, 8 or 16 */
  uint32_t n_phases;            /* 1 (<= 4 bytes), 2 (8 bytes) or 4 (16 bytes) */
  uint32_t wavefronts;          /* serialized passes; 0 when no lane is active */
  uint32_t ideal_wavefronts;    /* passes the same request would take without
                                 * conflicts: the phases (after merging) that
                                 * have an active lane */
  uint32_t extra_wavefronts;    /* wavefronts - ideal_wavefronts (Nsight's
                                 * "bank conflicts" for this request) */
  uint32_t conflict_degree;     /* max distinct words one bank serves in one
                                 * phase; 1 = conflict-free, 0 = no lane */
  bool merged;                  /* phases were packed together (estimate) */
  /* Distinct 32-bit words each bank must deliver, worst phase: the bank's own
   * conflict degree. */
  uint8_t bank_words[KS_SMEM_BANKS];
  /* Wavefront (0-based) in which each lane's data has been served: for a
   * lane whose words arrive over several passes, the last of them.
   * KS_MEM_LANE_NONE for an inactive lane. */
  uint8_t lane_wavefront[KS_MEM_WARP_SIZE];
  /* The banks each lane touches, one bit per bank (a 16-byte lane touches
   * four); 0 for an inactive lane. */
  uint32_t lane_banks[KS_MEM_WARP_SIZE];
} KsSmemAnalysis;

KsSmemAnalysis ks_smem_analyze (const uint64_t addr[KS_MEM_WARP_SIZE],
                                uint32_t       size,
                                uint32_t       mask,
                                bool           is_store);

/* The request's wavefronts, ideal wavefronts and conflict degree, as
 * ks_smem_analyze counts them, without the per-lane and per-bank details:
 * what the simulator records for every shared access.  A request of up to
 * 4 bytes a lane where no bank serves two distinct words (most of them)
 * is counted in one pass over the lanes. */
void           ks_smem_cost    (const uint64_t addr[KS_MEM_WARP_SIZE],
                                uint32_t       size,
                                uint32_t       mask,
                                bool           is_store,
                                uint32_t      *wavefronts,
                                uint32_t      *ideal_wavefronts,
                                uint32_t      *conflict_degree);

/* The bank of a byte address. */
static inline uint32_t
ks_smem_bank (uint64_t addr)
{
  return (uint32_t) (addr / KS_SMEM_BANK_BYTES) % KS_SMEM_BANKS;
}

/* ---- global memory ----------------------------------------------------------- */

typedef struct
{
  uint32_t active_mask;
  uint32_t size;
  uint32_t requested_bytes;     /* active lanes x size, duplicates included */
  uint32_t unique_bytes;        /* distinct bytes the active lanes touch */
  uint32_t n_sectors;
  uint32_t n_lines;
  uint32_t transferred_bytes;   /* n_sectors x 32 */
  /* The fewest sectors a coalesced access to the same data would move: a
   * sector holding a byte that two or more lanes read (a broadcast) is
   * needed as it is, since its lanes share one value and moving it next to
   * another is a change of the data's layout, not of the access; the bytes
   * each read by one lane could be contiguous from a 32-byte boundary.  So
   * ideal = (sectors with a shared byte) + ceil (bytes in the other sectors
   * / 32).  Without broadcasts that is ceil (unique_bytes / 32); one float
   * broadcast to 32 lanes: 1; two floats 256 bytes apart, each broadcast to
   * 16 lanes: 2.  Never more than n_sectors. */
  uint32_t ideal_sectors;
  /* requested_bytes / transferred_bytes; above 1.0 when lanes share bytes
   * (a broadcast), 0.0 when no lane is active. */
  double efficiency;
  /* Sorted, distinct, each the byte address of a 32-byte sector start. */
  uint64_t sectors[KS_GMEM_MAX_SECTORS];
  /* Bytes of each sector some active lane touches, bit i = byte i. */
  uint32_t sector_bytes[KS_GMEM_MAX_SECTORS];
  /* Sorted, distinct 128-byte line start addresses. */
  uint64_t lines[KS_GMEM_MAX_LINES];
  /* Index in sectors[] of the first sector each lane touches, and how many
   * (1, or 2 for an access that crosses a sector boundary; the second is
   * the next entry of sectors[], except for an access that wraps past the
   * top of the address space to sector 0).  KS_MEM_LANE_NONE / 0 for an
   * inactive lane. */
  uint8_t lane_sector[KS_MEM_WARP_SIZE];
  uint8_t lane_n_sectors[KS_MEM_WARP_SIZE];
} KsGmemAnalysis;

KsGmemAnalysis ks_gmem_analyze (const uint64_t addr[KS_MEM_WARP_SIZE],
                                uint32_t       size,
                                uint32_t       mask);

/* What the simulator records of every global request: ks_gmem_analyze's
 * counts and sorted sectors, without the per-lane details.  A request whose
 * lanes go up in address order without crossing a sector (a coalesced or
 * strided one) is counted in one pass over its lanes. */
typedef struct
{
  uint32_t n_sectors;
  uint32_t n_lines;
  uint32_t ideal_sectors;
  uint32_t requested_bytes;
  uint32_t unique_bytes;
  uint64_t sectors[KS_GMEM_MAX_SECTORS];
} KsGmemCost;

void           ks_gmem_cost    (const uint64_t addr[KS_MEM_WARP_SIZE],
                                uint32_t       size,
                                uint32_t       mask,
                                KsGmemCost    *cost);

/* ---- cache model -------------------------------------------------------------- */

/* What a store does (loads always allocate the missing sector).
 *
 * KS_CACHE_WRITE_BACK: a store allocates the sector on a miss and marks it
 *   dirty; dirty sectors are counted as written back when their line is
 *   evicted.  NVIDIA's L2 (writes from the SMs are held there and reach DRAM
 *   on eviction; PTX ISA "Cache Operators": st.wb "writes back cache lines of
 *   coherent cache levels", and global data "is coherent at the L2 level").
 * KS_CACHE_WRITE_THROUGH: every store is passed on to the next level; a store
 *   that hits keeps the sector valid, a store that misses allocates nothing.
 *   NVIDIA's L1 for global stores (PTX ISA, "Cache Operators", st.wb: global
 *   stores are not kept dirty in L1 because "multiple L1 caches are not
 *   coherent for global data"; sm_20 text: "Global stores bypass L1").
 *   The PTX text for sm_20 has a store discard the matching L1 line; later
 *   GPUs update it in place, which is what this policy does (estimate: the
 *   two differ only in whether a later load of that sector hits).
 */
typedef enum
{
  KS_CACHE_WRITE_BACK = 0,
  KS_CACHE_WRITE_THROUGH,
} KsCacheWritePolicy;

typedef enum
{
  KS_CACHE_HIT = 0,
  KS_CACHE_SECTOR_MISS,         /* the line was present, the sector was not */
  KS_CACHE_LINE_MISS,           /* the line was not present (tag miss) */
} KsCacheResult;

typedef struct
{
  uint64_t load_hits;
  uint64_t load_sector_misses;
  uint64_t load_line_misses;
  uint64_t store_hits;
  uint64_t store_sector_misses;
  uint64_t store_line_misses;
  uint64_t evictions;           /* valid lines replaced */
  uint64_t writebacks;          /* dirty sectors written to the next level on
                                 * eviction (write-back only) */
  uint64_t write_throughs;      /* stores passed on (write-through only) */
} KsCacheStats;

typedef struct _KsCache KsCache;

/* A cache of size_bytes, line_bytes lines made of sector_bytes sectors (at
 * most 32 per line), ways-way set-associative with LRU replacement and
 * write-back, write-allocate stores.  size_bytes must be a multiple of
 * line_bytes * ways; line and sector sizes must be powers of two.  The set
 * index is the line address modulo the number of sets (NVIDIA hashes its L2
 * set index; how is not documented). (transfer full) */
KsCache *ks_cache_new (uint32_t size_bytes,
                       uint32_t line_bytes,
                       uint32_t sector_bytes,
                       uint32_t ways);
void ks_cache_free (KsCache *cache);
void ks_cache_set_write_policy (KsCache            *cache,
                                KsCacheWritePolicy  policy);
KsCacheWritePolicy ks_cache_get_write_policy (const KsCache *cache);

/* One access to the sector holding byte address addr.  O(ways). */
KsCacheResult ks_cache_access (KsCache  *cache,
                               uint64_t  addr,
                               bool      is_store);

/* Every line invalid, counters zero (the driver invalidates L1 between
 * dependent kernels: PTX ISA, "Cache Operators", ld.ca). */
void ks_cache_reset (KsCache *cache);

const KsCacheStats *ks_cache_get_stats (const KsCache *cache);
uint32_t ks_cache_get_n_sets (const KsCache *cache);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCache, ks_cache_free)

G_END_DECLS
