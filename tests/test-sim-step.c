/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stepping the simulator one warp-instruction at a time (ks_sim_run with a
 * step budget, ks_sim_get_last_step): each step names the warp, the
 * instruction and the lanes it ran, checked against the masks a branch must
 * produce by its definition; and a launch stepped in budgets of any size
 * runs in exactly the order of a run in one go (trace event for event, and
 * the same buffers), across warps' bursts and barriers. */

#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

/* Threads with tid.x < 40 take the branch; a block has 48 threads, so warp
 * 0 (threads 0-31) takes it whole and warp 1 (threads 32-47, lanes 0-15)
 * splits: lanes 0-7 taken, lanes 8-15 fall through. */
static const char branch_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 out)\n{\n"
  "  .reg .b32 %r<5>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [out];\n"            /* insn 0 */
  "  mov.u32 %r1, %tid.x;\n"                 /* 1 */
  "  setp.lt.u32 %p1, %r1, 40;\n"            /* 2 */
  "  @%p1 bra THEN;\n"                       /* 3 */
  "  mul.lo.u32 %r2, %r1, 2;\n"              /* 4: fall-through path */
  "  bra.uni JOIN;\n"                        /* 5 */
  "THEN:\n"
  "  add.u32 %r2, %r1, 1000;\n"              /* 6: taken path */
  "JOIN:\n"
  "  mov.u32 %r3, %ctaid.x;\n"               /* 7 */
  "  mad.lo.u32 %r4, %r3, 48, %r1;\n"        /* 8 */
  "  mul.wide.u32 %rd2, %r4, 4;\n"           /* 9 */
  "  add.s64 %rd3, %rd1, %rd2;\n"            /* 10 */
  "  st.global.u32 [%rd3], %r2;\n"           /* 11 */
  "  ret;\n"                                 /* 12 */
  "}\n";

static KsPtxModule *
parse (const char *text)
{
  g_autoptr(GBytes) b = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (b, "step.ptx");

  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_test_message ("%u:%u: %s", m->diagnostics[i].line, m->diagnostics[i].column,
                    m->diagnostics[i].message);
  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

static KsLaunch *
launch (const char *json)
{
  g_autoptr(GError) error = NULL;
  KsLaunch *l = ks_launch_parse (json, -1, NULL, &error);

  g_assert_no_error (error);
  return l;
}

typedef struct
{
  uint32_t cta, warp, insn, active, executed;
} Expected;

static void
expect (GArray   *a,
        uint32_t  cta,
        uint32_t  warp,
        uint32_t  insn,
        uint32_t  active,
        uint32_t  executed)
{
  Expected e = { cta, warp, insn, active, executed };

  g_array_append_val (a, e);
}

/* The steps the branch kernel must take, from its definition: blocks in
 * order, warps in order (a warp runs 13 instructions, far fewer than a
 * burst, and there is no barrier), and of a diverged branch the taken path
 * first (docs/SIMULATOR.md), each path with exactly its lanes */
static GArray *
branch_steps (uint32_t n_blocks,
              uint32_t block_size,
              uint32_t limit)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (Expected));
  uint32_t n_warps = (block_size + 31) / 32;

  for (uint32_t b = 0; b < n_blocks; b++)
    for (uint32_t w = 0; w < n_warps; w++)
      {
        uint32_t live = 0, taken = 0;

        for (uint32_t lane = 0; lane < 32; lane++)
          {
            uint32_t tid = w * 32 + lane;

            if (tid < block_size)
              live |= 1u << lane;
            if (tid < block_size && tid < limit)
              taken |= 1u << lane;
          }
        for (uint32_t i = 0; i < 3; i++)
          expect (a, b, w, i, live, live);
        expect (a, b, w, 3, live, taken);
        if (taken != 0)
          expect (a, b, w, 6, taken, taken);
        if (taken != live)
          {
            expect (a, b, w, 4, live & ~taken, live & ~taken);
            expect (a, b, w, 5, live & ~taken, live & ~taken);
          }
        for (uint32_t i = 7; i <= 12; i++)
          expect (a, b, w, i, live, live);
      }
  return a;
}

static void
test_branch_steps (void)
{
  g_autoptr(KsPtxModule) m = parse (branch_ptx);
  g_autoptr(KsLaunch) l = launch ("{\"ptx\": \"step.ptx\", \"grid\": [2], \"block\": [48],"
                                  " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 96}},"
                                  " \"params\": [{\"buffer\": \"out\"}], \"outputs\": [\"out\"]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSim) sim = ks_sim_new (m, l, &error);
  g_autoptr(GArray) want = branch_steps (2, 48, 40);
  const uint32_t *out;
  KsSimStep s;
  guint n = 0;

  g_assert_no_error (error);
  /* nothing has run yet */
  g_assert_false (ks_sim_get_last_step (sim, &s));
  /* warp 0: 11 steps, warp 1: 13 (both paths), per block */
  g_assert_cmpuint (want->len, ==, 2 * (11 + 13));

  for (;;)
    {
      KsSimStatus st = ks_sim_run (sim, 1, NULL);
      const Expected *e;

      /* the last call finds nothing left to run */
      if (!ks_sim_get_last_step (sim, &s))
        {
          g_assert_cmpint (st, ==, KS_SIM_DONE);
          break;
        }
      g_assert_cmpuint (n, <, want->len);
      e = &g_array_index (want, Expected, n);
      g_test_message ("step %u: block %" G_GUINT64_FORMAT " warp %u insn %u lanes %08x/%08x", n + 1,
                      s.cta, s.warp, s.insn, s.active, s.executed);
      g_assert_cmpuint (s.index, ==, n);
      g_assert_cmpuint (s.cta, ==, e->cta);
      g_assert_cmpuint (s.block[0], ==, e->cta);
      g_assert_cmpuint (s.block[1], ==, 0);
      g_assert_cmpuint (s.block[2], ==, 0);
      g_assert_cmpuint (s.warp, ==, e->warp);
      g_assert_cmpuint (s.insn, ==, e->insn);
      g_assert_cmphex (s.active, ==, e->active);
      g_assert_cmphex (s.executed, ==, e->executed);
      /* its place among its warp's steps */
      {
        uint32_t before = 0;

        for (guint k = 0; k < n; k++)
          before += g_array_index (want, Expected, k).cta == e->cta
                    && g_array_index (want, Expected, k).warp == e->warp;
        g_assert_cmpuint (s.warp_step, ==, before);
      }
      n++;
    }
  g_assert_cmpuint (n, ==, want->len);
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
  /* a run that executes nothing has no last step */
  g_assert_cmpint (ks_sim_run (sim, 1, NULL), ==, KS_SIM_DONE);
  g_assert_false (ks_sim_get_last_step (sim, &s));

  /* and the results are the kernel's */
  out = (const uint32_t *) (const void *) ks_sim_get_buffer (sim, 0, NULL);
  for (uint32_t i = 0; i < 96; i++)
    {
      uint32_t tid = i % 48;

      g_assert_cmpuint (out[i], ==, tid < 40 ? tid + 1000 : tid * 2);
    }
}

/* A step in the middle: a budget of N stops after the N-th instruction, and
 * says which it was */
static void
test_budget_last_step (void)
{
  g_autoptr(KsPtxModule) m = parse (branch_ptx);
  g_autoptr(KsLaunch) l = launch ("{\"ptx\": \"step.ptx\", \"grid\": [2], \"block\": [48],"
                                  " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 96}},"
                                  " \"params\": [{\"buffer\": \"out\"}]}");
  g_autoptr(GArray) want = branch_steps (2, 48, 40);

  for (guint n = 1; n <= want->len; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSim) sim = ks_sim_new (m, l, &error);
      const Expected *e = &g_array_index (want, Expected, n - 1);
      KsSimStep s;

      g_assert_no_error (error);
      ks_sim_run (sim, n, NULL);
      g_assert_true (ks_sim_get_last_step (sim, &s));
      g_assert_cmpuint (s.index, ==, n - 1);
      g_assert_cmpuint (s.cta, ==, e->cta);
      g_assert_cmpuint (s.warp, ==, e->warp);
      g_assert_cmpuint (s.insn, ==, e->insn);
      g_assert_cmphex (s.active, ==, e->active);
      g_assert_cmphex (s.executed, ==, e->executed);
      g_assert_cmpuint (ks_sim_get_stats (sim)->warp_instructions, ==, n);
    }
}

/* Three warps that loop 70 times with a diverging branch, a barrier every
 * 32nd iteration and shared memory read across warps: a warp runs more
 * than a burst (256 instructions) between barriers, so the round-robin
 * switches warps in the middle of the loop. */
static const char loop_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry loop(.param .u64 out, .param .u32 n)\n{\n"
  "  .reg .b32 %r<16>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<4>;\n"
  "  .shared .align 4 .b32 sh[96];\n"
  "  ld.param.u64 %rd1, [out];\n"
  "  ld.param.u32 %r9, [n];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, 0;\n"
  "  mov.u32 %r3, 0;\n"
  "  mov.u32 %r5, sh;\n"
  "  shl.b32 %r6, %r1, 2;\n"
  "  add.u32 %r6, %r5, %r6;\n"
  "  add.u32 %r10, %r1, 1;\n"
  "  rem.u32 %r10, %r10, 96;\n"
  "  shl.b32 %r10, %r10, 2;\n"
  "  add.u32 %r10, %r5, %r10;\n"
  "LOOP:\n"
  "  add.u32 %r3, %r3, %r2;\n"
  "  rem.u32 %r4, %r1, 3;\n"
  "  rem.u32 %r7, %r2, 3;\n"
  "  setp.ne.u32 %p2, %r4, %r7;\n"
  "  @%p2 bra SKIP;\n"
  "  mul.lo.u32 %r3, %r3, 3;\n"
  "  xor.b32 %r3, %r3, %r1;\n"
  "SKIP:\n"
  "  and.b32 %r8, %r2, 31;\n"
  "  setp.ne.u32 %p3, %r8, 0;\n"
  "  @%p3 bra NOBAR;\n"
  "  st.shared.u32 [%r6], %r3;\n"
  "  bar.sync 0;\n"
  "  ld.shared.u32 %r11, [%r10];\n"
  "  add.u32 %r3, %r3, %r11;\n"
  "  bar.sync 0;\n"
  "NOBAR:\n"
  "  add.u32 %r2, %r2, 1;\n"
  "  setp.lt.u32 %p1, %r2, %r9;\n"
  "  @%p1 bra LOOP;\n"
  "  mov.u32 %r12, %ctaid.x;\n"
  "  mad.lo.u32 %r13, %r12, 96, %r1;\n"
  "  mul.wide.u32 %rd2, %r13, 4;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  st.global.u32 [%rd3], %r3;\n"
  "  ret;\n"
  "}\n";

static const char loop_json[] =
  "{\"ptx\": \"loop.ptx\", \"grid\": [3], \"block\": [96],"
  " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 288}},"
  " \"params\": [{\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 70}],"
  " \"outputs\": [\"out\"]}";

/* Steps the launch in budgets from `sizes` (cycled) to the end and checks
 * that it ran as `whole` did */
static void
check_stepped (const KsPtxModule *m,
               const KsLaunch    *l,
               const KsSim       *whole,
               const uint64_t    *sizes,
               guint              n_sizes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSim) sim = ks_sim_new (m, l, &error);
  const KsTraceEvent *a, *b;
  uint64_t n_a = 0, n_b = 0, calls = 0;
  size_t size_a = 0, size_b = 0;
  const uint8_t *buf_a, *buf_b;

  g_assert_no_error (error);
  a = ks_sim_get_trace (whole, &n_a);
  while (ks_sim_get_status (sim) == KS_SIM_READY)
    {
      uint64_t before = ks_sim_get_stats (sim)->warp_instructions;
      uint64_t budget = sizes[calls++ % n_sizes];
      KsSimStep s;

      ks_sim_run (sim, budget, NULL);
      if (ks_sim_get_stats (sim)->warp_instructions == before)
        break;
      /* the run stopped at its budget, or at the end */
      g_assert_true (ks_sim_get_stats (sim)->warp_instructions == before + budget
                     || ks_sim_get_status (sim) == KS_SIM_DONE);
      if (ks_sim_get_stats (sim)->warp_instructions == before + budget)
        {
          const KsTraceEvent *ev;

          g_assert_true (ks_sim_get_last_step (sim, &s));
          g_assert_cmpuint (s.index, ==, before + budget - 1);
          g_assert_cmpuint (s.index, <, n_a);
          ev = &a[s.index];
          g_assert_cmpuint (s.insn, ==, ev->insn);
          g_assert_cmpuint (s.cta * 3 + s.warp, ==, ev->warp);
          g_assert_cmphex (s.executed, ==, ev->exec);
          g_assert_cmpuint (__builtin_popcount (s.active), ==, ev->active_lanes);
        }
    }
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
  b = ks_sim_get_trace (sim, &n_b);
  g_assert_cmpuint (n_b, ==, n_a);
  for (uint64_t i = 0; i < n_a; i++)
    {
      if (a[i].insn != b[i].insn || a[i].warp != b[i].warp || a[i].exec != b[i].exec
          || a[i].flags != b[i].flags || a[i].active_lanes != b[i].active_lanes)
        g_error ("event %" G_GUINT64_FORMAT ": insn %u warp %u exec %08x in one go, insn %u warp %u "
                 "exec %08x stepped", i, a[i].insn, a[i].warp, a[i].exec, b[i].insn, b[i].warp,
                 b[i].exec);
    }
  buf_a = ks_sim_get_buffer (whole, 0, &size_a);
  buf_b = ks_sim_get_buffer (sim, 0, &size_b);
  g_assert_cmpmem (buf_a, size_a, buf_b, size_b);
  g_assert_cmpuint (ks_sim_get_stats (sim)->barriers, ==, ks_sim_get_stats (whole)->barriers);
  g_assert_cmpuint (ks_sim_get_stats (sim)->divergent_branches, ==,
                    ks_sim_get_stats (whole)->divergent_branches);
}

static void
test_stepped_order (void)
{
  g_autoptr(KsPtxModule) m = parse (loop_ptx);
  g_autoptr(KsLaunch) l = launch (loop_json);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSim) whole = ks_sim_new (m, l, &error);
  static const uint64_t ones[] = { 1 };
  static const uint64_t mixed[] = { 3, 255, 1, 256, 17, 257, 2, 1000, 5 };
  const uint32_t *out;
  uint64_t n_events = 0;

  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (whole, 0, NULL), ==, KS_SIM_DONE);
  /* a run without a budget keeps no last step */
  {
    KsSimStep s;

    g_assert_false (ks_sim_get_last_step (whole, &s));
  }
  ks_sim_get_trace (whole, &n_events);
  /* more than a burst per warp between barriers, or the test tests little */
  g_assert_cmpuint (n_events, >, 9 * 3 * 256);
  g_assert_cmpuint (ks_sim_get_stats (whole)->barriers, ==, 3 * 3 * 2);

  /* the kernel's results, computed here in C: a block's threads in lock
   * step between barriers, each reading its right neighbour's value */
  out = (const uint32_t *) (const void *) ks_sim_get_buffer (whole, 0, NULL);
  {
    uint32_t acc[96];

    memset (acc, 0, sizeof acc);
    for (uint32_t i = 0; i < 70; i++)
      {
        for (uint32_t t = 0; t < 96; t++)
          {
            acc[t] += i;
            if (t % 3 == i % 3)
              acc[t] = (acc[t] * 3) ^ t;
          }
        if (i % 32 == 0)
          {
            uint32_t sh[96];

            memcpy (sh, acc, sizeof sh);
            for (uint32_t t = 0; t < 96; t++)
              acc[t] += sh[(t + 1) % 96];
          }
      }
    for (uint32_t i = 0; i < 288; i++)
      g_assert_cmpuint (out[i], ==, acc[i % 96]);
  }

  check_stepped (m, l, whole, ones, G_N_ELEMENTS (ones));
  check_stepped (m, l, whole, mixed, G_N_ELEMENTS (mixed));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/step/branch-masks", test_branch_steps);
  g_test_add_func ("/sim/step/budget-last-step", test_budget_last_step);
  g_test_add_func ("/sim/step/same-order-as-one-run", test_stepped_order);
  return g_test_run ();
}
