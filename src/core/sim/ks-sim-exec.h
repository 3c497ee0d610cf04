/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-exec.h: executing one warp-instruction, and what it needs from the
 * rest of the engine. */
#pragma once

#include <string.h>

#include "ks-sim-math.h"
#include "ks-sim-private.h"

G_BEGIN_DECLS

void      ks_sim_step        (KsSim           *sim,
                              KsSimWarp       *w);
/* Runs at least one and at most max warp-instructions of the warp, as many
 * ks_sim_step calls would (a run of instructions with fast forms goes on
 * until one that needs the general executor); returns how many ran. */
uint32_t  ks_sim_steps       (KsSim           *sim,
                              KsSimWarp       *w,
                              uint32_t         max);

void      ks_sim_fault       (KsSim           *sim,
                              KsSimWarp       *w,
                              int              lane,
                              const KsPtxInsn *insn,
                              KsSimFaultKind   kind,
                              gboolean         has_address,
                              uint64_t         address,
                              const char      *fmt,
                              ...) G_GNUC_PRINTF (8, 9);

uint8_t  *ks_sim_resolve     (KsSim           *sim,
                              KsSimWarp       *w,
                              int              lane,
                              const KsPtxInsn *insn,
                              KsPtxSpace       space,
                              uint64_t         addr,
                              uint32_t         size,
                              gboolean         store);

/* The race check of cp.async (with the trace on): a copy by lane of w to
 * [offset, offset + size) of shared memory is in flight until the thread
 * waits for its group (wait_group N: all but the N most recent committed
 * groups; all: every copy, committed or not, as wait_all and
 * cp.async.mbarrier.arrive) */
void      ks_sim_async_copy   (KsSim           *sim,
                               const KsSimWarp *w,
                               uint32_t         lane,
                               uint32_t         insn,
                               uint64_t         offset,
                               uint32_t         size);
void      ks_sim_async_commit (KsSim           *sim,
                               const KsSimWarp *w,
                               uint32_t         lane);
void      ks_sim_async_wait   (KsSim           *sim,
                               const KsSimWarp *w,
                               uint32_t         lane,
                               uint32_t         keep_groups,
                               gboolean         all);

/* The global allocation holding addr, or NULL; it becomes the one the
 * next look-up tries first. */
const KsSimAlloc *ks_sim_find_alloc (KsSim    *sim,
                                     uint64_t  addr);

/* Makes [base, base + size) of the warp's local stack the top of it,
 * zeroed, growing the storage; FALSE past the per-thread limit. */
gboolean  ks_sim_grow_local  (KsSimWarp       *w,
                              uint32_t         base,
                              uint32_t         size);

gboolean  ks_sim_push_frame  (KsSim           *sim,
                              KsSimWarp       *w,
                              uint32_t         fn,
                              uint32_t         call_pc,
                              uint32_t         mask);
void      ks_sim_frame_fault (KsSim           *sim,
                              KsSimWarp       *w,
                              int              lane,
                              const KsPtxInsn *insn,
                              uint32_t         fn);

/* The memory analysis of one warp-level access to global or shared memory
 * (generic addresses are sorted by window): bank conflicts, sectors and
 * lines, the caches, and the shared-memory race check (atomics excepted).
 * Runs only while the trace is on. */
void      ks_sim_record_memory (KsSim           *sim,
                                const KsSimWarp *w,
                                uint32_t         insn,
                                KsPtxSpace       space,
                                const uint64_t   addr[32],
                                uint32_t         size,
                                uint32_t         mask,
                                gboolean         store,
                                gboolean         atomic);

void      ks_sim_simt_push   (KsSimWarp       *w,
                              uint32_t         pc,
                              uint32_t         rpc,
                              uint32_t         mask);

G_END_DECLS
