/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-ptx-cfg.c: basic blocks, edges and immediate post-dominators.
 *
 * Each shape's expected graph is written out by hand next to its PTX:
 * instruction indices count instructions only (not labels or directives),
 * block indices are per function, successors are listed branch targets
 * first (ascending), then the fall-through block.  "exit" is the virtual
 * exit node, reported as KS_PTX_NONE.
 */

#include <string.h>

#include "ks-ptx.h"
#include "ks-ptx-private.h"

#define NONE KS_PTX_NONE
#define END (-1)

typedef struct
{
  uint32_t first_insn;
  uint32_t n_insns;
  int succs[8];                 /* terminated by END */
  uint32_t ipdom;
} ExpectedBlock;

static KsPtxModule *
parse (const char *text)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (text, strlen (text));
  KsPtxModule *module;

  /* The module takes its own reference on the bytes */
  module = ks_ptx_module_parse (bytes, "test.ptx");
  g_assert_nonnull (module);
  for (uint32_t i = 0; i < module->n_diagnostics; i++)
    if (module->diagnostics[i].severity == KS_PTX_SEVERITY_ERROR)
      g_test_message ("test.ptx:%u:%u: %s", module->diagnostics[i].line,
                      module->diagnostics[i].column, module->diagnostics[i].message);
  g_assert_false (ks_ptx_module_has_errors (module));

  return module;
}

static const KsPtxFunction *
find_function (const KsPtxModule *module,
               const char        *name)
{
  const KsPtxFunction *fn = ks_ptx_module_find_function (module, name);

  g_assert_nonnull (fn);
  g_assert_true (fn->flags & KS_PTX_FUNCTION_HAS_BODY);

  return fn;
}

static const KsPtxBlock *
function_blocks (const KsPtxModule   *module,
                 const KsPtxFunction *fn)
{
  g_assert_cmpuint ((uint64_t) fn->first_block + fn->n_blocks, <=, module->n_blocks);
  return module->blocks + fn->first_block;
}

/* Predecessor lists must be the exact transpose of the successor lists,
 * each in ascending order, and every edge must stay inside the function. */
static void
check_preds (const KsPtxModule   *module,
             const KsPtxFunction *fn)
{
  const KsPtxBlock *blocks = function_blocks (module, fn);
  uint32_t nb = fn->n_blocks;

  for (uint32_t b = 0; b < nb; b++)
    {
      uint32_t k = 0;

      g_assert_cmpuint ((uint64_t) blocks[b].first_succ + blocks[b].n_succs, <=, module->n_edges);
      g_assert_cmpuint ((uint64_t) blocks[b].first_pred + blocks[b].n_preds, <=, module->n_edges);

      for (uint32_t i = 0; i < blocks[b].n_succs; i++)
        g_assert_cmpuint (module->edges[blocks[b].first_succ + i], <, nb);

      for (uint32_t p = 0; p < nb; p++)
        {
          gboolean is_pred = FALSE;

          for (uint32_t i = 0; i < blocks[p].n_succs; i++)
            if (module->edges[blocks[p].first_succ + i] == b)
              is_pred = TRUE;

          if (is_pred)
            {
              g_assert_cmpuint (k, <, blocks[b].n_preds);
              g_assert_cmpuint (module->edges[blocks[b].first_pred + k], ==, p);
              k++;
            }
        }
      g_assert_cmpuint (k, ==, blocks[b].n_preds);
    }
}

static void
check_function (const KsPtxModule   *module,
                const KsPtxFunction *fn,
                const ExpectedBlock *expected,
                uint32_t             n_expected)
{
  const KsPtxInsn *insns = ks_ptx_function_insns (module, fn);
  const KsPtxBlock *blocks = function_blocks (module, fn);

  g_assert_cmpuint (fn->n_blocks, ==, n_expected);

  for (uint32_t b = 0; b < n_expected; b++)
    {
      const KsPtxBlock *blk = &blocks[b];
      const ExpectedBlock *e = &expected[b];
      uint32_t n_succs = 0;

      g_test_message ("block %u", b);
      g_assert_cmpuint (blk->first_insn, ==, e->first_insn);
      g_assert_cmpuint (blk->n_insns, ==, e->n_insns);
      g_assert_cmpuint (blk->first_line, ==, insns[blk->first_insn].line);
      g_assert_cmpuint (blk->last_line, ==, insns[blk->first_insn + blk->n_insns - 1].line);

      while (e->succs[n_succs] != END)
        n_succs++;
      g_assert_cmpuint (blk->n_succs, ==, n_succs);
      for (uint32_t i = 0; i < n_succs; i++)
        g_assert_cmpuint (module->edges[blk->first_succ + i], ==, e->succs[i]);

      g_assert_cmpuint (blk->ipdom, ==, e->ipdom);
    }

  check_preds (module, fn);
}

/* 1-based line of the first line of text containing needle */
static uint32_t
line_of (const char *text,
         const char *needle)
{
  const char *at = strstr (text, needle);
  uint32_t line = 1;

  g_assert_nonnull (at);
  for (const char *p = text; p < at; p++)
    line += *p == '\n';

  return line;
}

#define HEADER \
  ".version 8.0\n" \
  ".target sm_80\n" \
  ".address_size 64\n" \
  "\n"

#define ENTRY_BEGIN \
  ".visible .entry k(\n" \
  "\t.param .u32 k_n\n" \
  ")\n" \
  "{\n" \
  "\t.reg .pred \t%p<4>;\n" \
  "\t.reg .b32 \t%r<10>;\n" \
  "\n"

static void
test_straight_line (void)
{
  /* B0 = insns 0..3, no successors, ipdom exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tld.param.u32 \t%r1, [k_n];\n"          /* 0 B0 */
    "\tmov.u32 \t%r2, %tid.x;\n"              /* 1 */
    "\tadd.s32 \t%r3, %r1, %r2;\n"            /* 2 */
    "\tret;\n"                                /* 3 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 4, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);
  const KsPtxFunction *fn = find_function (module, "k");

  check_function (module, fn, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (module->blocks[fn->first_block].first_line, ==, line_of (text, "ld.param.u32"));
  g_assert_cmpuint (module->blocks[fn->first_block].last_line, ==, line_of (text, "ret;"));
}

static void
test_if_then (void)
{
  /* B0 -> B2 (taken), B1 (fall through); B1 -> B2; B2 -> exit.
   * ipdom: B0 = B2, B1 = B2, B2 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tld.param.u32 \t%r1, [k_n];\n"          /* 0 B0 */
    "\tmov.u32 \t%r2, %tid.x;\n"              /* 1 */
    "\tsetp.ge.u32 \t%p1, %r2, %r1;\n"        /* 2 */
    "\t@%p1 bra \t$L__BB0_2;\n"               /* 3 */
    "\tadd.s32 \t%r3, %r2, 1;\n"              /* 4 B1 */
    "\tmov.u32 \t%r4, %r3;\n"                 /* 5 */
    "$L__BB0_2:\n"
    "\tret;\n"                                /* 6 B2 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 4, { 2, 1, END }, 2 },
    { 4, 2, { 2, END }, 2 },
    { 6, 1, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);
  const KsPtxFunction *fn = find_function (module, "k");

  check_function (module, fn, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (module->blocks[fn->first_block + 1].first_line, ==, line_of (text, "add.s32"));
  g_assert_cmpuint (module->blocks[fn->first_block + 1].last_line, ==, line_of (text, "mov.u32 \t%r4"));
}

static void
test_if_else (void)
{
  /*      B0
   *     /  \
   *   B2    B1
   *     \  /
   *      B3 -> exit
   * ipdom: B0 = B3 (the join), B1 = B3, B2 = B3, B3 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, %tid.x;\n"              /* 0 B0 */
    "\tsetp.eq.s32 \t%p1, %r1, 0;\n"          /* 1 */
    "\t@%p1 bra \t$L__BB0_2;\n"               /* 2 */
    "\tmov.u32 \t%r2, 1;\n"                   /* 3 B1 */
    "\tbra.uni \t$L__BB0_3;\n"                /* 4 */
    "$L__BB0_2:\n"
    "\tmov.u32 \t%r2, 2;\n"                   /* 5 B2 */
    "$L__BB0_3:\n"
    "\tadd.s32 \t%r3, %r2, %r1;\n"            /* 6 B3 */
    "\tret;\n"                                /* 7 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 3, { 2, 1, END }, 3 },
    { 3, 2, { 3, END }, 3 },
    { 5, 1, { 3, END }, 3 },
    { 6, 2, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

static void
test_loop_break_continue (void)
{
  /* for (i = 0; i < 100; i++) { if (i even) continue; if (i > 50) break; s += i; }
   *
   * B0 -> B1
   * B1 (head)     -> B6 (loop exit), B2
   * B2            -> B5 (continue), B3
   * B3            -> B6 (break), B4
   * B4            -> B5
   * B5 (latch)    -> B1
   * B6            -> exit
   *
   * ipdom: B0 = B1; B1 = B6; B2 = B6 (B2 -> B3 -> B6 avoids B1 and B5);
   * B3 = B6; B4 = B5; B5 = B1; B6 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, 0;\n"                   /* 0 B0 */
    "$L__BB0_1:\n"
    "\tsetp.ge.u32 \t%p1, %r1, 100;\n"        /* 1 B1 */
    "\t@%p1 bra \t$L__BB0_5;\n"               /* 2 */
    "\tand.b32 \t%r2, %r1, 1;\n"              /* 3 B2 */
    "\tsetp.eq.s32 \t%p2, %r2, 0;\n"          /* 4 */
    "\t@%p2 bra \t$L__BB0_4;\n"               /* 5 */
    "\tsetp.gt.u32 \t%p3, %r1, 50;\n"         /* 6 B3 */
    "\t@%p3 bra \t$L__BB0_5;\n"               /* 7 */
    "\tadd.s32 \t%r3, %r3, %r1;\n"            /* 8 B4 */
    "$L__BB0_4:\n"
    "\tadd.s32 \t%r1, %r1, 1;\n"              /* 9 B5 */
    "\tbra.uni \t$L__BB0_1;\n"                /* 10 */
    "$L__BB0_5:\n"
    "\tmov.u32 \t%r4, %r3;\n"                 /* 11 B6 */
    "\tret;\n"                                /* 12 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 1, { 1, END }, 1 },
    { 1, 2, { 6, 2, END }, 6 },
    { 3, 3, { 5, 3, END }, 6 },
    { 6, 2, { 6, 4, END }, 6 },
    { 8, 1, { 5, END }, 5 },
    { 9, 2, { 1, END }, 1 },
    { 11, 2, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

static void
test_loop_early_return (void)
{
  /* B0 -> B1
   * B1 (head) -> B4 (return inside the loop), B2
   * B2        -> B1 (back edge), B3
   * B3        -> exit
   * B4        -> exit
   *
   * ipdom: B0 = B1; B1 = exit (B3 and B4 both return); B2 = exit; B3, B4 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, 0;\n"                   /* 0 B0 */
    "$L__BB0_1:\n"
    "\tsetp.eq.s32 \t%p1, %r1, 7;\n"          /* 1 B1 */
    "\t@%p1 bra \t$L__BB0_3;\n"               /* 2 */
    "\tadd.s32 \t%r1, %r1, 1;\n"              /* 3 B2 */
    "\tsetp.lt.u32 \t%p2, %r1, 100;\n"        /* 4 */
    "\t@%p2 bra \t$L__BB0_1;\n"               /* 5 */
    "\tmov.u32 \t%r2, 1;\n"                   /* 6 B3 */
    "\tret;\n"                                /* 7 */
    "$L__BB0_3:\n"
    "\tmov.u32 \t%r2, 2;\n"                   /* 8 B4 */
    "\tret;\n"                                /* 9 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 1, { 1, END }, 1 },
    { 1, 2, { 4, 2, END }, NONE },
    { 3, 3, { 1, 3, END }, NONE },
    { 6, 2, { END }, NONE },
    { 8, 2, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

static void
test_nested_divergence (void)
{
  /* if (tid < 16) { if (tid even) A else B; C } ret
   *
   * B0 -> B5 (skip the outer then), B1
   * B1 -> B3 (inner then), B2 (inner else)
   * B2 -> B4
   * B3 -> B4
   * B4 (inner join, C) -> B5
   * B5 (outer join) -> exit
   *
   * ipdom: B0 = B5; B1 = B4; B2 = B4; B3 = B4; B4 = B5; B5 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, %tid.x;\n"              /* 0 B0 */
    "\tsetp.ge.u32 \t%p1, %r1, 16;\n"         /* 1 */
    "\t@%p1 bra \t$L__BB0_5;\n"               /* 2 */
    "\tand.b32 \t%r2, %r1, 1;\n"              /* 3 B1 */
    "\tsetp.eq.s32 \t%p2, %r2, 0;\n"          /* 4 */
    "\t@%p2 bra \t$L__BB0_3;\n"               /* 5 */
    "\tmov.u32 \t%r3, 1;\n"                   /* 6 B2 */
    "\tbra.uni \t$L__BB0_4;\n"                /* 7 */
    "$L__BB0_3:\n"
    "\tmov.u32 \t%r3, 2;\n"                   /* 8 B3 */
    "$L__BB0_4:\n"
    "\tadd.s32 \t%r4, %r3, %r1;\n"            /* 9 B4 */
    "$L__BB0_5:\n"
    "\tret;\n"                                /* 10 B5 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 3, { 5, 1, END }, 5 },
    { 3, 3, { 3, 2, END }, 4 },
    { 6, 2, { 4, END }, 4 },
    { 8, 1, { 4, END }, 4 },
    { 9, 1, { 5, END }, 5 },
    { 10, 1, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

static void
test_switch_brx (void)
{
  /* switch (n) { case 0: .. case 1: .. case 2: .. }, the list written out of
   * order and with a duplicate:
   *
   * B0 -> B5 (n > 2), B1
   * B1 (brx.idx) -> B2, B3, B4 (sorted, deduplicated; no fall-through)
   * B2 -> B5
   * B3 -> B5
   * B4 -> B5 (falls through)
   * B5 -> exit
   *
   * ipdom: B0..B4 = B5; B5 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tld.param.u32 \t%r1, [k_n];\n"          /* 0 B0 */
    "\tsetp.gt.u32 \t%p1, %r1, 2;\n"          /* 1 */
    "\t@%p1 bra \t$L__BB0_4;\n"               /* 2 */
    "\tts: .branchtargets $L__BB0_3, $L__BB0_1, $L__BB0_2, $L__BB0_1;\n"
    "\tbrx.idx \t%r1, ts;\n"                  /* 3 B1 */
    "$L__BB0_1:\n"
    "\tmov.u32 \t%r2, 10;\n"                  /* 4 B2 */
    "\tbra.uni \t$L__BB0_4;\n"                /* 5 */
    "$L__BB0_2:\n"
    "\tmov.u32 \t%r2, 20;\n"                  /* 6 B3 */
    "\tbra.uni \t$L__BB0_4;\n"                /* 7 */
    "$L__BB0_3:\n"
    "\tmov.u32 \t%r2, 30;\n"                  /* 8 B4 */
    "$L__BB0_4:\n"
    "\tret;\n"                                /* 9 B5 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 3, { 5, 1, END }, 5 },
    { 3, 1, { 2, 3, 4, END }, 5 },
    { 4, 2, { 5, END }, 5 },
    { 6, 2, { 5, END }, 5 },
    { 8, 1, { 5, END }, 5 },
    { 9, 1, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);
  const KsPtxFunction *fn = find_function (module, "k");
  const KsPtxInsn *insns = ks_ptx_function_insns (module, fn);
  uint32_t targets[4] = { 0 };
  uint32_t few[3] = { 0, 0, 0xdeadbeef };

  check_function (module, fn, expected, G_N_ELEMENTS (expected));

  /* The raw list, as written: instruction indices */
  g_assert_cmpuint (insns[3].opcode, ==, KS_PTX_OPC_BRX);
  g_assert_cmpuint (ks_ptx_insn_branch_targets (module, &insns[3], targets, 4), ==, 4);
  g_assert_cmpuint (targets[0], ==, 8);
  g_assert_cmpuint (targets[1], ==, 4);
  g_assert_cmpuint (targets[2], ==, 6);
  g_assert_cmpuint (targets[3], ==, 4);

  /* A short buffer: the true count, nothing written past max */
  g_assert_cmpuint (ks_ptx_insn_branch_targets (module, &insns[3], few, 2), ==, 4);
  g_assert_cmpuint (few[0], ==, 8);
  g_assert_cmpuint (few[1], ==, 4);
  g_assert_cmpuint (few[2], ==, 0xdeadbeef);
  g_assert_cmpuint (ks_ptx_insn_branch_targets (module, &insns[3], NULL, 0), ==, 4);

  /* bra has its label; other instructions have none */
  g_assert_cmpuint (ks_ptx_insn_branch_targets (module, &insns[2], targets, 4), ==, 1);
  g_assert_cmpuint (targets[0], ==, 9);
  g_assert_cmpuint (ks_ptx_insn_branch_targets (module, &insns[0], targets, 4), ==, 0);
  g_assert_cmpuint (ks_ptx_insn_branch_targets (module, &insns[9], targets, 4), ==, 0);
}

static void
test_predicated_ret (void)
{
  /* A predicated ret leads both to the exit and to the next block, as in
   * GPGPU-Sim, so nothing after it post-dominates it.
   *
   * B0 -> B3, B1
   * B1 (@%p2 ret) -> B2 (and the exit)
   * B2 -> B4
   * B3 -> B4
   * B4 -> exit
   *
   * ipdom: B0 = exit (B1 may return without reaching B4); B1 = exit;
   * B2 = B4; B3 = B4; B4 = exit.  (If the predicated ret did not lead to the
   * exit, B0 and B1 would get B4 and B2.) */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, %tid.x;\n"              /* 0 B0 */
    "\tsetp.lt.u32 \t%p1, %r1, 16;\n"         /* 1 */
    "\t@%p1 bra \t$L__BB0_3;\n"               /* 2 */
    "\tsetp.eq.s32 \t%p2, %r1, 20;\n"         /* 3 B1 */
    "\t@%p2 ret;\n"                           /* 4 */
    "\tmov.u32 \t%r2, 1;\n"                   /* 5 B2 */
    "\tbra.uni \t$L__BB0_4;\n"                /* 6 */
    "$L__BB0_3:\n"
    "\tmov.u32 \t%r2, 2;\n"                   /* 7 B3 */
    "$L__BB0_4:\n"
    "\tadd.s32 \t%r3, %r2, %r1;\n"            /* 8 B4 */
    "\tret;\n"                                /* 9 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 3, { 3, 1, END }, NONE },
    { 3, 2, { 2, END }, NONE },
    { 5, 2, { 4, END }, 4 },
    { 7, 1, { 4, END }, 4 },
    { 8, 2, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

static void
test_endless_loop (void)
{
  /* k:  B0 -> B2, B1
   *     B1 -> exit
   *     B2 -> B2 (spins forever)
   *
   * B2 never reaches the exit: ipdom NONE.  Post-dominance only counts paths
   * that reach the exit, so B1 post-dominates B0.
   * ipdom: B0 = B1; B1 = exit; B2 = none
   *
   * spin:  B0 -> B1;  B1 -> B1.  Neither reaches the exit: both none. */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, %tid.x;\n"              /* 0 B0 */
    "\tsetp.eq.s32 \t%p1, %r1, 0;\n"          /* 1 */
    "\t@%p1 bra \t$L__BB0_2;\n"               /* 2 */
    "\tret;\n"                                /* 3 B1 */
    "$L__BB0_2:\n"
    "\tadd.s32 \t%r2, %r2, 1;\n"              /* 4 B2 */
    "\tbra.uni \t$L__BB0_2;\n"                /* 5 */
    "}\n"
    "\n"
    ".visible .entry spin(\n"
    "\t.param .u32 spin_n\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<4>;\n"
    "\n"
    "\tmov.u32 \t%r1, 0;\n"                   /* 0 B0 */
    "$L__BB1_1:\n"
    "\tadd.s32 \t%r1, %r1, 1;\n"              /* 1 B1 */
    "\tbra.uni \t$L__BB1_1;\n"                /* 2 */
    "}\n";
  static const ExpectedBlock expected_k[] = {
    { 0, 3, { 2, 1, END }, 1 },
    { 3, 1, { END }, NONE },
    { 4, 2, { 2, END }, NONE },
  };
  static const ExpectedBlock expected_spin[] = {
    { 0, 1, { 1, END }, NONE },
    { 1, 2, { 1, END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected_k, G_N_ELEMENTS (expected_k));
  check_function (module, find_function (module, "spin"), expected_spin,
                  G_N_ELEMENTS (expected_spin));
}

static void
test_two_functions (void)
{
  /* f:  B0 -> B2, B1;  B1 -> B2;  B2 -> exit.  ipdom: B0 = B2, B1 = B2, B2 = exit
   * g:  declared only: no blocks
   * k:  B0 -> B2, B1;  B1 -> B3;  B2 -> B3;  B3 -> exit.  ipdom: B0..B2 = B3
   *
   * Block and instruction indices in edges and ipdom stay relative to their
   * function. */
  static const char text[] =
    HEADER
    ".visible .func  (.param .b32 func_retval0) f(\n"
    "\t.param .b32 f_x\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .b32 \t%r<4>;\n"
    "\n"
    "\tld.param.b32 \t%r1, [f_x];\n"          /* 0 B0 */
    "\tsetp.eq.s32 \t%p1, %r1, 0;\n"          /* 1 */
    "\t@%p1 bra \t$L__BB0_2;\n"               /* 2 */
    "\tadd.s32 \t%r1, %r1, 1;\n"              /* 3 B1 */
    "$L__BB0_2:\n"
    "\tst.param.b32 \t[func_retval0], %r1;\n" /* 4 B2 */
    "\tret;\n"                                /* 5 */
    "}\n"
    "\n"
    ".extern .func g(\n"
    "\t.param .b32 g_x\n"
    ");\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u32 k_n\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<4>;\n"
    "\t.reg .b32 \t%r<10>;\n"
    "\n"
    "\tld.param.u32 \t%r1, [k_n];\n"          /* 0 B0 */
    "\tsetp.eq.s32 \t%p1, %r1, 0;\n"          /* 1 */
    "\t@%p1 bra \t$L__BB1_2;\n"               /* 2 */
    "\tmov.u32 \t%r2, 1;\n"                   /* 3 B1 */
    "\tbra.uni \t$L__BB1_3;\n"                /* 4 */
    "$L__BB1_2:\n"
    "\tmov.u32 \t%r2, 2;\n"                   /* 5 B2 */
    "$L__BB1_3:\n"
    "\tret;\n"                                /* 6 B3 */
    "}\n";
  static const ExpectedBlock expected_f[] = {
    { 0, 3, { 2, 1, END }, 2 },
    { 3, 1, { 2, END }, 2 },
    { 4, 2, { END }, NONE },
  };
  static const ExpectedBlock expected_k[] = {
    { 0, 3, { 2, 1, END }, 3 },
    { 3, 2, { 3, END }, 3 },
    { 5, 1, { 3, END }, 3 },
    { 6, 1, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);
  const KsPtxFunction *f = find_function (module, "f");
  const KsPtxFunction *g = ks_ptx_module_find_function (module, "g");
  const KsPtxFunction *k = find_function (module, "k");

  check_function (module, f, expected_f, G_N_ELEMENTS (expected_f));
  check_function (module, k, expected_k, G_N_ELEMENTS (expected_k));
  g_assert_cmpuint (k->first_block, ==, f->first_block + 3);
  g_assert_cmpuint (module->n_blocks, ==, 7);

  g_assert_nonnull (g);
  g_assert_false (g->flags & KS_PTX_FUNCTION_HAS_BODY);
  g_assert_cmpuint (g->n_blocks, ==, 0);
}

static void
test_loop_diamond (void)
{
  /* do { if (i odd) a else b; i++ } while (i < 10);
   *
   * B0 -> B1
   * B1 (head) -> B3, B2
   * B2 -> B4
   * B3 -> B4
   * B4 (join, latch) -> B1 (back edge), B5
   * B5 -> exit
   *
   * ipdom: B0 = B1; B1 = B4; B2 = B4; B3 = B4; B4 = B5; B5 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tmov.u32 \t%r1, 0;\n"                   /* 0 B0 */
    "$L__BB0_1:\n"
    "\tand.b32 \t%r2, %r1, 1;\n"              /* 1 B1 */
    "\tsetp.eq.s32 \t%p1, %r2, 0;\n"          /* 2 */
    "\t@%p1 bra \t$L__BB0_3;\n"               /* 3 */
    "\tadd.s32 \t%r3, %r3, 1;\n"              /* 4 B2 */
    "\tbra.uni \t$L__BB0_4;\n"                /* 5 */
    "$L__BB0_3:\n"
    "\tadd.s32 \t%r3, %r3, 2;\n"              /* 6 B3 */
    "$L__BB0_4:\n"
    "\tadd.s32 \t%r1, %r1, 1;\n"              /* 7 B4 */
    "\tsetp.lt.u32 \t%p2, %r1, 10;\n"         /* 8 */
    "\t@%p2 bra \t$L__BB0_1;\n"               /* 9 */
    "\tret;\n"                                /* 10 B5 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 1, { 1, END }, 1 },
    { 1, 3, { 3, 2, END }, 4 },
    { 4, 2, { 4, END }, 4 },
    { 6, 1, { 4, END }, 4 },
    { 7, 3, { 1, 5, END }, 5 },
    { 10, 1, { END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

static void
test_odd_edges (void)
{
  /* A predicated branch to the very next instruction: the target and the
   * fall-through are one edge.  Code after a ret is a block of its own, and
   * code that runs off the end of the function returns.
   *
   * B0 -> B1 (once)
   * B1 -> exit
   * B2 (dead) -> B3 (falls through)
   * B3 -> exit (falls off the end)
   *
   * ipdom: B0 = B1; B1 = exit; B2 = B3; B3 = exit */
  static const char text[] =
    HEADER
    ENTRY_BEGIN
    "\tsetp.eq.s32 \t%p1, %r1, 0;\n"          /* 0 B0 */
    "\t@!%p1 bra \t$L__BB0_1;\n"              /* 1 */
    "$L__BB0_1:\n"
    "\texit;\n"                               /* 2 B1 */
    "\tadd.s32 \t%r1, %r1, 1;\n"              /* 3 B2 */
    "$L__BB0_2:\n"
    "\tadd.s32 \t%r1, %r1, 2;\n"              /* 4 B3 */
    "\t@%p1 bra \t$L__BB0_2;\n"               /* 5 */
    "}\n";
  static const ExpectedBlock expected[] = {
    { 0, 2, { 1, END }, 1 },
    { 2, 1, { END }, NONE },
    { 3, 1, { 3, END }, 3 },
    { 4, 2, { 3, END }, NONE },
  };
  g_autoptr (KsPtxModule) module = parse (text);

  check_function (module, find_function (module, "k"), expected, G_N_ELEMENTS (expected));
}

/* Random CFGs, checked against post-dominator sets computed the slow way. */

#define MAX_RANDOM_BLOCKS 60

typedef enum
{
  END_FALL,                     /* no terminator */
  END_BRA,                      /* @p bra */
  END_BRA_NOT,                  /* @!p bra */
  END_BRA_UNI,                  /* bra.uni */
  END_RET,
  END_PRED_RET,                 /* @p ret */
  END_EXIT,
  END_TRAP,
  END_BRX,                      /* brx.idx over a .branchtargets list */
  N_ENDS
} RandomEnd;

typedef struct
{
  uint32_t n;                   /* blocks, not counting the exit (node n) */
  RandomEnd end[MAX_RANDOM_BLOCKS];
  uint32_t targets[MAX_RANDOM_BLOCKS][4];
  uint32_t n_targets[MAX_RANDOM_BLOCKS];
  uint32_t first_insn[MAX_RANDOM_BLOCKS];
  uint64_t succ[MAX_RANDOM_BLOCKS + 1];  /* bitsets, with the exit as bit n */
} RandomGraph;

static char *
random_graph_to_ptx (RandomGraph *g,
                     GRand       *rand)
{
  GString *s = g_string_new (HEADER ENTRY_BEGIN);
  uint32_t insn = 0;

  for (uint32_t b = 0; b < g->n; b++)
    {
      uint32_t filler = g_rand_int_range (rand, 0, 3);

      /* A block of only `bra`-less filler must still have an instruction */
      if (filler == 0 && g->end[b] == END_FALL)
        filler = 1;

      g_string_append_printf (s, "$L__BB0_%u:\n", b);
      g->first_insn[b] = insn;
      for (uint32_t i = 0; i < filler; i++)
        {
          if (g_rand_boolean (rand))
            g_string_append (s, "\tadd.s32 \t%r1, %r1, 1;\n");
          else
            g_string_append (s, "\tsetp.ne.s32 \t%p1, %r1, 0;\n");
          insn++;
        }

      switch (g->end[b])
        {
        case END_FALL:
          break;
        case END_BRA:
          g_string_append_printf (s, "\t@%%p1 bra \t$L__BB0_%u;\n", g->targets[b][0]);
          break;
        case END_BRA_NOT:
          g_string_append_printf (s, "\t@!%%p2 bra \t$L__BB0_%u;\n", g->targets[b][0]);
          break;
        case END_BRA_UNI:
          g_string_append_printf (s, "\tbra.uni \t$L__BB0_%u;\n", g->targets[b][0]);
          break;
        case END_RET:
          g_string_append (s, "\tret;\n");
          break;
        case END_PRED_RET:
          g_string_append (s, "\t@%p3 ret;\n");
          break;
        case END_EXIT:
          g_string_append (s, "\texit;\n");
          break;
        case END_TRAP:
          g_string_append (s, "\ttrap;\n");
          break;
        case END_BRX:
          g_string_append_printf (s, "$L_brx_%u: .branchtargets\n", b);
          for (uint32_t t = 0; t < g->n_targets[b]; t++)
            g_string_append_printf (s, "\t$L__BB0_%u%s\n", g->targets[b][t],
                                    t + 1 < g->n_targets[b] ? "," : ";");
          g_string_append_printf (s, "\tbrx.idx \t%%r2, $L_brx_%u;\n", b);
          break;
        case N_ENDS:
        default:
          g_assert_not_reached ();
        }
      if (g->end[b] != END_FALL)
        insn++;
    }
  g_string_append (s, "}\n");

  return g_string_free (s, FALSE);
}

static void
random_graph_make (RandomGraph *g,
                   GRand       *rand)
{
  memset (g, 0, sizeof *g);
  g->n = g_rand_int_range (rand, 1, MAX_RANDOM_BLOCKS + 1);

  for (uint32_t b = 0; b < g->n; b++)
    {
      uint32_t r = g_rand_int_range (rand, 0, 100);
      gboolean falls;

      if (r < 20)
        g->end[b] = END_FALL;
      else if (r < 45)
        g->end[b] = END_BRA;
      else if (r < 50)
        g->end[b] = END_BRA_NOT;
      else if (r < 65)
        g->end[b] = END_BRA_UNI;
      else if (r < 75)
        g->end[b] = END_RET;
      else if (r < 82)
        g->end[b] = END_PRED_RET;
      else if (r < 85)
        g->end[b] = END_EXIT;
      else if (r < 87)
        g->end[b] = END_TRAP;
      else
        g->end[b] = END_BRX;

      if (g->end[b] == END_BRA || g->end[b] == END_BRA_NOT || g->end[b] == END_BRA_UNI)
        g->n_targets[b] = 1;
      else if (g->end[b] == END_BRX)
        g->n_targets[b] = g_rand_int_range (rand, 1, 5);
      for (uint32_t t = 0; t < g->n_targets[b]; t++)
        {
          g->targets[b][t] = g_rand_int_range (rand, 0, g->n);
          g->succ[b] |= G_GUINT64_CONSTANT (1) << g->targets[b][t];
        }

      falls = g->end[b] == END_FALL || g->end[b] == END_BRA || g->end[b] == END_BRA_NOT
              || g->end[b] == END_PRED_RET;
      if (falls)
        {
          if (b + 1 < g->n)
            g->succ[b] |= G_GUINT64_CONSTANT (1) << (b + 1);
          else
            g->succ[b] |= G_GUINT64_CONSTANT (1) << g->n;       /* off the end */
        }
      if (g->end[b] == END_RET || g->end[b] == END_PRED_RET || g->end[b] == END_EXIT
          || g->end[b] == END_TRAP)
        g->succ[b] |= G_GUINT64_CONSTANT (1) << g->n;
    }
}

/* ipdom[b] for every block b of g: a block index, g->n for the exit, or
 * NONE when b cannot reach the exit. */
static void
reference_ipdom (const RandomGraph *g,
                 uint32_t          *ipdom)
{
  uint32_t n = g->n;
  uint64_t all = (n + 1 == 64) ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (n + 1)) - 1;
  uint64_t pdom[MAX_RANDOM_BLOCKS + 1];
  uint64_t reaches = G_GUINT64_CONSTANT (1) << n;
  gboolean changed;

  /* Which blocks reach the exit */
  do
    {
      changed = FALSE;
      for (uint32_t b = 0; b < n; b++)
        if (!(reaches & (G_GUINT64_CONSTANT (1) << b)) && (g->succ[b] & reaches))
          {
            reaches |= G_GUINT64_CONSTANT (1) << b;
            changed = TRUE;
          }
    }
  while (changed);

  for (uint32_t b = 0; b < n; b++)
    pdom[b] = all;
  pdom[n] = G_GUINT64_CONSTANT (1) << n;

  do
    {
      changed = FALSE;
      for (uint32_t b = 0; b < n; b++)
        {
          uint64_t meet = all;
          uint64_t next;

          for (uint32_t s = 0; s <= n; s++)
            if (g->succ[b] & (G_GUINT64_CONSTANT (1) << s))
              meet &= pdom[s];
          next = meet | (G_GUINT64_CONSTANT (1) << b);
          if (next != pdom[b])
            {
              pdom[b] = next;
              changed = TRUE;
            }
        }
    }
  while (changed);

  for (uint32_t b = 0; b < n; b++)
    {
      uint64_t strict = pdom[b] & ~(G_GUINT64_CONSTANT (1) << b);
      uint32_t found = 0;

      ipdom[b] = NONE;
      if (!(reaches & (G_GUINT64_CONSTANT (1) << b)))
        continue;

      for (uint32_t d = 0; d <= n; d++)
        if ((strict & (G_GUINT64_CONSTANT (1) << d)) && (strict & ~pdom[d]) == 0)
          {
            ipdom[b] = d;
            found++;
          }
      g_assert_cmpuint (found, ==, 1);
    }
}

static void
test_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20240607);

  for (uint32_t iter = 0; iter < 300; iter++)
    {
      RandomGraph g;
      uint32_t ref[MAX_RANDOM_BLOCKS];
      uint32_t block_of[MAX_RANDOM_BLOCKS];   /* the CFG block of each random block */
      g_autofree char *text = NULL;
      g_autoptr (KsPtxModule) module = NULL;
      const KsPtxFunction *fn;
      const KsPtxBlock *blocks;

      random_graph_make (&g, rand);
      text = random_graph_to_ptx (&g, rand);
      reference_ipdom (&g, ref);

      /* The seed is fixed: rerun with --verbose to see the failing graph */
      if (g_test_verbose ())
        g_test_message ("graph %u:\n%s", iter, text);
      module = parse (text);
      fn = find_function (module, "k");
      blocks = function_blocks (module, fn);
      check_preds (module, fn);

      /* Random blocks merge into one CFG block where one falls into the next
       * and nothing branches to the second. */
      for (uint32_t b = 0, c = 0; b < g.n; b++)
        {
          while (c + 1 < fn->n_blocks && blocks[c + 1].first_insn <= g.first_insn[b])
            c++;
          block_of[b] = c;
        }
      g_assert_cmpuint (block_of[0], ==, 0);
      g_assert_cmpuint (block_of[g.n - 1], ==, fn->n_blocks - 1);

      for (uint32_t c = 0; c < fn->n_blocks; c++)
        {
          uint32_t last = 0;
          uint32_t want[MAX_RANDOM_BLOCKS + 1];
          uint32_t n_want = 0;

          /* The random block whose terminator ends CFG block c */
          for (uint32_t b = 0; b < g.n; b++)
            if (block_of[b] == c)
              last = b;

          for (uint32_t i = 0; i < MAX_RANDOM_BLOCKS; i++)
            for (uint32_t t = 0; t < g.n_targets[last]; t++)
              if (block_of[g.targets[last][t]] == i)
                {
                  want[n_want++] = i;
                  break;
                }
          if ((g.succ[last] & (G_GUINT64_CONSTANT (1) << (last + 1))) && last + 1 < g.n)
            {
              gboolean dup = FALSE;

              for (uint32_t i = 0; i < n_want; i++)
                dup |= want[i] == block_of[last + 1];
              if (!dup)
                want[n_want++] = block_of[last + 1];
            }

          g_assert_cmpuint (blocks[c].n_succs, ==, n_want);
          for (uint32_t i = 0; i < n_want; i++)
            g_assert_cmpuint (module->edges[blocks[c].first_succ + i], ==, want[i]);

          if (ref[last] == NONE || ref[last] == g.n)
            g_assert_cmpuint (blocks[c].ipdom, ==, NONE);
          else
            g_assert_cmpuint (blocks[c].ipdom, ==, block_of[ref[last]]);
        }
    }
}

/* Deep chains and loops must not recurse: 100k blocks in one function. */
static void
test_large (void)
{
  const uint32_t n = 100000;
  GString *s = g_string_new (HEADER ENTRY_BEGIN);
  g_autofree char *text = NULL;
  g_autoptr (KsPtxModule) module = NULL;
  const KsPtxFunction *fn;
  const KsPtxBlock *blocks;

  /* Block i (< n - 1): `@%p1 bra $L_{i+1}` or, every third, a backward
   * branch to block i - 1.  Each falls through to i + 1, so every block's
   * ipdom is the next one. */
  for (uint32_t i = 0; i < n - 1; i++)
    g_string_append_printf (s, "$L__BB0_%u:\n\tadd.s32 \t%%r1, %%r1, 1;\n\t@%%p1 bra \t$L__BB0_%u;\n",
                            i, (i % 3 == 2) ? i - 1 : i + 1);
  g_string_append_printf (s, "$L__BB0_%u:\n\tret;\n}\n", n - 1);
  text = g_string_free (s, FALSE);

  module = parse (text);
  fn = find_function (module, "k");
  blocks = function_blocks (module, fn);
  g_assert_cmpuint (fn->n_blocks, ==, n);
  for (uint32_t i = 0; i < n - 1; i++)
    g_assert_cmpuint (blocks[i].ipdom, ==, i + 1);
  g_assert_cmpuint (blocks[n - 1].ipdom, ==, NONE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ptx/cfg/straight-line", test_straight_line);
  g_test_add_func ("/ptx/cfg/if-then", test_if_then);
  g_test_add_func ("/ptx/cfg/if-else", test_if_else);
  g_test_add_func ("/ptx/cfg/loop-break-continue", test_loop_break_continue);
  g_test_add_func ("/ptx/cfg/loop-early-return", test_loop_early_return);
  g_test_add_func ("/ptx/cfg/nested-divergence", test_nested_divergence);
  g_test_add_func ("/ptx/cfg/switch-brx", test_switch_brx);
  g_test_add_func ("/ptx/cfg/predicated-ret", test_predicated_ret);
  g_test_add_func ("/ptx/cfg/endless-loop", test_endless_loop);
  g_test_add_func ("/ptx/cfg/two-functions", test_two_functions);
  g_test_add_func ("/ptx/cfg/loop-diamond", test_loop_diamond);
  g_test_add_func ("/ptx/cfg/odd-edges", test_odd_edges);
  g_test_add_func ("/ptx/cfg/random", test_random);
  g_test_add_func ("/ptx/cfg/large", test_large);

  return g_test_run ();
}
