/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-loops.h: the loops of a SASS function and of the PTX function it
 * was made from, and which SASS loop runs which PTX loop how many times
 * over (docs/TIMING.md, "The SASS's loops").
 *
 * ptxas unrolls loops (a loop whose trip count it does not know becomes a
 * loop of several copies of the body and a remainder loop), peels them,
 * and turns short branches into predicated code, so the SASS's control
 * flow is not the PTX's.  This is the first step of mapping one onto the
 * other: the natural loops of both control-flow graphs (a back edge is an
 * edge to a block that dominates its source), each with what one iteration
 * of its own body does (instructions; floating-point operations per lane,
 * an FMA counting two; bytes of shared and global memory each lane loads or
 * stores), and, for each SASS loop, the PTX loop it runs and its unroll
 * factor: the PTX iterations one SASS iteration does, the ratio of their
 * floating-point operations (or, with none, of their memory bytes), which
 * ptxas's transformations keep: a mul and an add it fuses are an FFMA's
 * two operations, scalar loads it merges are the LDS.128's sixteen bytes.
 *
 * Plain C; no GObject.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"
#include "ks-sass.h"

G_BEGIN_DECLS

#define KS_LOOP_NONE G_MAXUINT32

typedef struct
{
  uint32_t header;              /* the block the back edges go to (block of the function) */
  uint32_t back_edge;           /* the branch of its last back edge: an instruction index
                                 * into the listing (SASS) or the module (PTX) */
  uint32_t parent;              /* the loop around it, or KS_LOOP_NONE */
  uint32_t depth;               /* 1 for an outermost loop */
  uint32_t first_insn;          /* its lowest and highest instruction (as back_edge) */
  uint32_t last_insn;
  uint32_t cuda_line;           /* the back edge's CUDA line, 0 when not known */
  /* One iteration of its own body: its blocks that no inner loop holds */
  uint32_t n_insns;
  uint32_t flops;               /* per lane, an FMA is 2 */
  uint32_t shared_bytes;        /* loaded and stored per lane */
  uint32_t global_bytes;        /* global and generic, loaded and stored per lane */
  /* SASS loops, after ks_loops_match */
  uint32_t match;               /* the PTX loop it runs, or KS_LOOP_NONE */
  uint32_t unroll;              /* PTX iterations one of its iterations does; 0 unmatched */
  uint32_t inner;               /* a PTX loop inside `match` that ptxas unrolled whole into
                                 * it, or KS_LOOP_NONE */
  uint32_t inner_trips;         /* that loop's iterations in one iteration of this one */
  gboolean estimated;           /* unroll is a ratio of instruction counts (a loop of
                                 * integer work only, matched by its CUDA line) */
  gboolean uncertain;           /* SASS read from the words: an instruction of its body
                                 * the table does not name, or a generic LD or ST whose
                                 * width it does not give; the loop matches nothing */
  gboolean expanded;            /* PTX: it divides, takes a root or a transcendental, which
                                 * ptxas makes FFMA sequences of: its flops do not compare */
} KsLoop;

typedef struct
{
  KsLoop *loops;                /* in the order of their first instruction */
  uint32_t n_loops;
  uint32_t n_blocks;            /* of the function */
  uint32_t *block_loop;         /* per block: its innermost loop, or KS_LOOP_NONE */
  uint32_t *block_insn;         /* n_blocks + 1: block b is instructions [block_insn[b],
                                 * block_insn[b + 1]) (as KsLoop.back_edge) */
  /* SASS only (NULL for PTX), per instruction i of the function at
   * [i - block_insn[0]]: how it goes on, and where a branch goes */
  uint8_t *flow;                /* KsSassFlow */
  uint32_t *target;             /* KS_SASS_FLOW_BRANCH: the instruction (listing index) it
                                 * goes to; else KS_LOOP_NONE */
} KsLoopSet;

/* How a SASS instruction goes on: what it does, plus KS_SASS_FLOW_ON
 * when it may also go on to the next instruction (predicated, or no
 * branch).  A CALL goes on (the call returns). */
typedef enum
{
  KS_SASS_FLOW_NEXT = 0,
  KS_SASS_FLOW_BRANCH = 1,      /* to `target` */
  KS_SASS_FLOW_END = 2,         /* EXIT, RET, KILL, a trap */
  KS_SASS_FLOW_KIND = 3,        /* mask of the three */
  KS_SASS_FLOW_ON = 4,
  KS_SASS_FLOW_PREDICATED = 8,  /* it has a guard predicate (not @PT) */
} KsSassFlow;

/* The instruction (listing index) a BRA or CALL.REL of function goes to,
 * from its operand or its words; KS_LOOP_NONE when not known */
uint32_t            ks_sass_branch_target    (const KsSassListing  *listing,
                                              const KsSassFunction *function,
                                              uint32_t              insn);
/* The loops of a function of a listing.  Fails (KS_SASS_ERROR_PARSE) when
 * the flow cannot be known: an instruction no disassembler named (a cubin
 * read without one: its branch targets are not known), an indirect branch,
 * or a branch to a place outside the function. */
KsLoopSet          *ks_loops_from_sass       (const KsSassListing  *listing,
                                              const KsSassFunction *function,
                                              GError              **error);
/* The loops of function `function` of a parsed module */
KsLoopSet          *ks_loops_from_ptx        (const KsPtxModule    *module,
                                              uint32_t              function);
/* Gives each SASS loop the PTX loop it runs and its unroll factor.  Loops
 * are taken in their order in both, as ptxas keeps it; a SASS loop matches
 * the first PTX loop, at or after the one the previous SASS loop matched
 * (a main loop and its remainder loop run the same PTX loop), whose CUDA
 * line is the same (when both know it) and whose work is the SASS loop's
 * divided by a whole number U: the same floating-point operations and
 * global bytes exactly, shared bytes within a quarter (ptxas reuses some
 * shared loads across the copies of a body).  A PTX loop can also match
 * with one inner loop of its own that ptxas unrolled whole (a loop of a
 * constant trip count): its work and t times the inner loop's, U = 1.  A
 * SASS loop that matches none keeps KS_LOOP_NONE.  Returns the SASS loops
 * matched. */
uint32_t            ks_loops_match           (KsLoopSet            *sass,
                                              const KsLoopSet      *ptx);
/* Whether instruction insn (as KsLoop.back_edge) is in loop, or in a loop
 * inside it */
gboolean            ks_loop_holds            (const KsLoopSet      *set,
                                              uint32_t              loop,
                                              uint32_t              insn);
void                ks_loop_set_free         (KsLoopSet            *set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLoopSet, ks_loop_set_free)

G_END_DECLS
