/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-lanes.h: one warp's instructions, lane by lane.
 *
 * For the lane view: a run of the launch that records, for one warp of one
 * block, each instruction it executes with the lanes on its path, the lanes
 * whose guard predicate held, and the 32 lane values of every register and
 * predicate the instruction reads (before it) and writes (after it). */
#pragma once

#include <gio/gio.h>
#include <stdint.h>

#include "ks-launch.h"
#include "ks-ptx.h"

G_BEGIN_DECLS

typedef struct
{
  uint32_t ref;                 /* a register slot, or KS_PTX_REF_PRED | predicate slot */
  uint32_t function;            /* whose slots */
  gboolean written;             /* FALSE: read before the instruction; TRUE: written by it */
  uint64_t lanes[32];           /* a predicate: 0 or 1 per lane */
} KsLaneValue;

typedef struct
{
  uint32_t insn;                /* module instruction index */
  uint32_t active;              /* lanes on the warp's path */
  uint32_t executed;            /* of those, the lanes whose guard predicate held */
  uint32_t first_value;         /* into KsLaneTrace.values */
  uint32_t n_values;
} KsLaneStep;

typedef struct
{
  uint32_t cta;                 /* linear block index */
  uint32_t warp;                /* within the block */
  KsLaneStep *steps;
  uint32_t n_steps;
  KsLaneValue *values;
  uint32_t n_values;
  gboolean truncated;           /* the warp ran more than max_steps instructions */
} KsLaneTrace;

/* Runs `launch` (block `cta` and those before it; nothing after; of a
 * sequence, launch->step, after the launches before it have run) and
 * records warp `warp` of block `cta` for at most `max_steps` instructions.
 * NULL with an error for a block or warp the launch does not have, or
 * when the run faults before reaching it. */
KsLaneTrace  *ks_lane_trace_record (const KsPtxModule *module,
                                    const KsLaunch    *launch,
                                    uint32_t           cta,
                                    uint32_t           warp,
                                    uint32_t           max_steps,
                                    GCancellable      *cancellable,
                                    GError           **error);
void          ks_lane_trace_free   (KsLaneTrace       *trace);
/* "%r5", "%p1", "%fd12": the name of a register of `function` */
char         *ks_lane_value_name   (const KsPtxModule *module,
                                    const KsLaneValue *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLaneTrace, ks_lane_trace_free)

G_END_DECLS
