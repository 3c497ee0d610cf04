/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-private.h: what the parser, the CFG builder and the tests share. */
#pragma once

#include "ks-ptx.h"

G_BEGIN_DECLS

/* Grows *data (of *cap elements of elem_size bytes) so that one more fits. */
void   ks_ptx_grow          (void     **data,
                             uint32_t  *cap,
                             size_t     elem_size);

/* Appends one zeroed element to a module array, keeping its capacity in cap. */
#define KS_PTX_PUSH(arr, n, cap) \
  (G_UNLIKELY ((n) == (cap)) ? ks_ptx_grow ((void **) &(arr), &(cap), sizeof *(arr)) : (void) 0, \
   memset (&(arr)[(n)], 0, sizeof *(arr)), &(arr)[(n)++])

/* Builds the basic blocks, the control-flow edges (successors and
 * predecessors) and the immediate post-dominator of every block of every
 * function with a body.  Fills module->blocks, module->edges and each
 * function's first_block/n_blocks.  Block and instruction indices are
 * relative to their function.
 *
 * A block ends at a branch (bra, brx), a ret, exit or trap, or before an
 * instruction that is a branch target.  Its successors are, in this order:
 * the branch targets, then the next block when control can fall through (no
 * terminator, or a predicated one).  ret, exit and trap lead to the exit.
 * The exit is a virtual node; a block whose immediate post-dominator is the
 * exit gets KS_PTX_NONE, and so does a block from which the exit cannot be
 * reached (an endless loop). */
void   ks_ptx_cfg_build_all (KsPtxModule *module);

/* Branch targets of a terminator: for bra, its label; for brx.idx, every
 * entry of its .branchtargets list.  Writes at most max of them to out and
 * returns how many there are, so a caller can size its buffer. */
uint32_t ks_ptx_insn_branch_targets (const KsPtxModule *module,
                                     const KsPtxInsn   *insn,
                                     uint32_t          *out,
                                     uint32_t           max);

G_END_DECLS
