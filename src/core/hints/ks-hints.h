/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hints.h: advice tied to lines, from what the simulator measured and
 * what the occupancy calculator found. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-format.h"
#include "ks-occupancy.h"
#include "ks-ptx.h"
#include "ks-resources.h"
#include "ks-sim.h"
#include "ks-timing.h"

G_BEGIN_DECLS

typedef enum
{
  KS_HINT_INFO = 0,
  KS_HINT_WARNING,
  KS_HINT_CRITICAL,
} KsHintSeverity;

typedef struct
{
  KsHintSeverity severity;
  const char *category;         /* "shared-memory", "coalescing", "divergence", "occupancy",
                                 * "spills", "race", "tail", and from the timing model
                                 * "bound", "barrier", "latency" */
  char *message;                /* one line, what is wrong (translated) */
  char *detail;                 /* the figures behind it (translated) */
  char *suggestion;             /* what to change (translated) */
  uint32_t ptx_line;            /* 0 when the hint is about the whole kernel */
  uint32_t cuda_file;           /* .file number, 0 when unknown */
  uint32_t cuda_line;
} KsHint;

/* What the rules look at; every pointer but module may be NULL (without a
 * finished run, only the occupancy, resource and tail rules apply) */
typedef struct
{
  const KsPtxModule *module;
  const KsSim *sim;                     /* a finished run, with the trace on for memory hints */
  const KsOccupancyResult *occupancy;
  const KsKernelResources *resources;
  uint64_t n_blocks;                    /* the grid's blocks */
  uint32_t sm_count;                    /* 0 when no GPU was chosen */
  const KsTiming *timing;               /* the cycle model, or NULL */
} KsHintInput;

/* The hints, most severe first, then by line: (transfer full) KsHint
 * pointers that the array frees. */
GPtrArray   *ks_hints_compute       (const KsHintInput *input);
const char  *ks_hint_severity_name  (KsHintSeverity     severity);

G_END_DECLS
