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

/* The global allocation holding addr, or NULL; it becomes the one the
 * next look-up tries first. */
const KsSimAlloc *ks_sim_find_alloc (KsSim    *sim,
                                     uint64_t  addr);

gboolean  ks_sim_push_frame  (KsSim           *sim,
                              KsSimWarp       *w,
                              uint32_t         fn,
                              uint32_t         call_pc,
                              uint32_t         mask);

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
