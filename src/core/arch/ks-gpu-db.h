/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gpu-db.h: the GPU database (data/gpus.json, docs/GPUS.md), loaded with
 * json-glib and validated into plain structs.
 *
 * The file holds "archs" (one per compute capability, keyed "sm_86") and
 * "gpus" (named boards, keyed "rtx-3090").  Every figure has a source:
 * an arch's or GPU's "sources" object maps a field name, or the name of the
 * field's group ("limits", "allocation", "memory", "pipes" for archs), or
 * "default", to a citation; each latency carries its own "source".
 *
 * A bad file is refused with the JSON path of the field that is wrong
 * ("archs.sm_80.max_warps_per_sm: expected a positive integer"); a syntax
 * error gives FILE:LINE:COL.
 *
 * The default database is the built-in file with the user's
 * $XDG_CONFIG_HOME/kernelscope/gpus.json, when present, merged over it by
 * key (objects merge member by member, anything else is replaced), and the
 * result validated as a whole.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define KS_GPU_DB_ERROR (ks_gpu_db_error_quark ())

typedef enum
{
  KS_GPU_DB_ERROR_NOT_FOUND,
  KS_GPU_DB_ERROR_SYNTAX,
  KS_GPU_DB_ERROR_INVALID,
} KsGpuDbError;

/* The instruction classes the timing model needs a latency for. */
typedef enum
{
  KS_LATENCY_FFMA,
  KS_LATENCY_IADD3,
  KS_LATENCY_IMAD,
  KS_LATENCY_DFMA,
  KS_LATENCY_MUFU,
  KS_LATENCY_LDS,               /* shared-memory load, no conflict */
  KS_LATENCY_L1_HIT,            /* global load hitting L1 */
  KS_LATENCY_L2_HIT,
  KS_LATENCY_DRAM,
  KS_N_LATENCIES
} KsLatencyClass;

typedef struct
{
  uint32_t latency;             /* cycles from issue to a dependent issue */
  double issue;                 /* cycles a warp-instruction holds its pipe on one sub-partition */
  char *source;
} KsLatency;

typedef enum
{
  KS_REG_GRANULARITY_WARP,
  KS_REG_GRANULARITY_BLOCK,
} KsRegGranularity;

typedef struct
{
  char *id;                     /* "sm_86" */
  char *name;                   /* "Ampere (GA10x)" */
  uint32_t compute_major;
  uint32_t compute_minor;
  char *representative_gpu;     /* a key of the database's gpus */

  /* Programming Guide limits */
  uint32_t warp_size;
  uint32_t max_threads_per_block;
  uint32_t max_threads_per_sm;
  uint32_t max_warps_per_sm;
  uint32_t max_blocks_per_sm;
  uint32_t registers_per_sm;
  uint32_t max_registers_per_block;
  uint32_t max_registers_per_thread;
  uint32_t shared_per_sm_bytes;             /* the largest carveout */
  uint32_t *shared_carveout_kib;            /* ascending */
  uint32_t n_shared_carveouts;
  uint32_t shared_per_block_bytes;          /* without opt-in (48 KiB) */
  uint32_t shared_per_block_optin_bytes;
  uint32_t barriers_per_block;
  uint32_t l1_shared_kib;                   /* unified L1 + shared per SM */

  /* Occupancy Calculator allocation rules */
  uint32_t register_allocation_unit;
  KsRegGranularity register_allocation_granularity;
  uint32_t warp_allocation_granularity;
  uint32_t sub_partitions;
  uint32_t shared_reserved_per_block_bytes;
  uint32_t shared_allocation_unit_bytes;
  uint32_t barriers_per_sm;

  /* caches */
  uint32_t l1_line_bytes;
  uint32_t l1_sector_bytes;
  uint32_t l2_line_bytes;
  uint32_t l2_sector_bytes;

  /* pipe widths in lanes per sub-partition (0.5: two per SM) */
  double fp32_lanes;
  double int32_lanes;
  double fp64_lanes;
  double sfu_lanes;
  double lsu_lanes;
  double tensor_cores;

  KsLatency latencies[KS_N_LATENCIES];

  char **sources;               /* one per field of the descriptor table, see ks_arch_info_source() */
} KsArchInfo;

typedef struct
{
  char *id;                     /* "rtx-3090" */
  char *name;
  char *arch;                   /* "sm_86" */
  uint32_t sm_count;
  uint32_t boost_clock_mhz;
  double memory_bandwidth_gbs;  /* GB/s, 10^9 bytes */
  double memory_gb;
  double l2_mb;                 /* MiB as the vendors count it */
  char **sources;
} KsGpuInfo;

typedef struct
{
  KsArchInfo *archs;            /* sorted by compute capability */
  uint32_t n_archs;
  KsGpuInfo *gpus;              /* sorted by id */
  uint32_t n_gpus;
  char *origin;                 /* the file(s) it came from, for messages */
} KsGpuDb;

GQuark              ks_gpu_db_error_quark        (void);

KsGpuDb            *ks_gpu_db_load_data          (const char        *data,
                                                  gssize             length,
                                                  const char        *origin,
                                                  GError           **error);
KsGpuDb            *ks_gpu_db_load_files         (const char *const *paths,
                                                  GError           **error);
KsGpuDb            *ks_gpu_db_load_default       (GError           **error);
char               *ks_gpu_db_find_builtin       (void);
char               *ks_gpu_db_user_file          (void);
void                ks_gpu_db_free               (KsGpuDb           *db);

const KsArchInfo   *ks_gpu_db_get_arch           (const KsGpuDb     *db,
                                                  const char        *arch);
const KsGpuInfo    *ks_gpu_db_get_gpu            (const KsGpuDb     *db,
                                                  const char        *id);
const KsGpuInfo    *ks_gpu_db_representative_gpu (const KsGpuDb     *db,
                                                  const KsArchInfo  *arch);

const char         *ks_arch_info_source          (const KsArchInfo  *arch,
                                                  const char        *field);
const char         *ks_gpu_info_source           (const KsGpuInfo   *gpu,
                                                  const char        *field);
const char         *ks_latency_class_name        (KsLatencyClass     klass);
char               *ks_gpu_db_set_user_latency   (const char        *arch,
                                                  KsLatencyClass     klass,
                                                  guint              latency,
                                                  const char        *source,
                                                  GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGpuDb, ks_gpu_db_free)

G_END_DECLS
