/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hint rules on kernels with a known problem, and on one without. */

#include <string.h>

#include "ks-hints.h"
#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-timing.h"

typedef struct
{
  KsPtxModule *m;
  KsLaunch *l;
  KsSim *sim;
} Run;

static void
run_text (Run        *r,
          const char *ptx,
          const char *spec)
{
  g_autoptr(GBytes) b = g_bytes_new (ptx, strlen (ptx));
  g_autoptr(GError) error = NULL;

  r->m = ks_ptx_module_parse (b, "hint.ptx");
  g_assert_cmpuint (r->m->n_errors, ==, 0);
  r->l = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->m, r->l, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r->sim, 0, NULL), ==, KS_SIM_DONE);
}

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->sim, ks_sim_free);
  g_clear_pointer (&r->l, ks_launch_free);
  g_clear_pointer (&r->m, ks_ptx_module_free);
}

static GPtrArray *
hints_of (Run *r)
{
  KsHintInput in = { r->m, r->sim, NULL, NULL, 0, 0 };

  return ks_hints_compute (&in);
}

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

/* A column of a 32 x 32 float tile: 32 lanes in one bank (line 11); the
 * padded tile (line 14) is fine */
static void
test_bank_conflict (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsHint *h;

  run_text (&r, HEADER
            ".visible .entry k()\n"
            "{\n"
            "  .reg .b32 %r<8>;\n"
            "  .shared .align 4 .f32 tile[32][32];\n"
            "  .shared .align 4 .f32 padded[32][33];\n"
            "  mov.u32 %r1, %tid.x;\n"
            "  mov.u32 %r2, tile;\n"
            "  mad.lo.u32 %r3, %r1, 128, %r2;\n"
            "  st.shared.f32 [%r3], 1.0;\n"                 /* 12 */
            "  mov.u32 %r4, padded;\n"
            "  mad.lo.u32 %r5, %r1, 132, %r4;\n"
            "  st.shared.f32 [%r5], 2.0;\n"                 /* 15 */
            "  ret;\n"
            "}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32], \"params\": []}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 1);
  h = hints->pdata[0];
  g_assert_cmpstr (h->category, ==, "shared-memory");
  g_assert_cmpint (h->severity, ==, KS_HINT_CRITICAL);
  g_assert_cmpuint (h->ptx_line, ==, 12);
  g_assert_nonnull (strstr (h->message, "32-way"));
  g_assert_nonnull (strstr (h->suggestion, "[32][33]"));
  run_clear (&r);
}

/* Thread i reads a[32 i]: a sector per lane, 32 where 4 would do */
static void
test_strided_access (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsHint *h;

  run_text (&r, HEADER
            ".visible .entry k(.param .u64 k_a)\n"
            "{\n"
            "  .reg .b32 %r<4>;\n"
            "  .reg .f32 %f<2>;\n"
            "  .reg .b64 %rd<4>;\n"
            "  ld.param.u64 %rd1, [k_a];\n"
            "  mov.u32 %r1, %tid.x;\n"
            "  mul.wide.u32 %rd2, %r1, 128;\n"
            "  add.s64 %rd3, %rd1, %rd2;\n"
            "  ld.global.f32 %f1, [%rd3];\n"                /* 13 */
            "  ret;\n"
            "}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
            " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1024}}, \"params\": [{\"buffer\": \"a\"}]}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 1);
  h = hints->pdata[0];
  g_assert_cmpstr (h->category, ==, "coalescing");
  g_assert_cmpint (h->severity, ==, KS_HINT_CRITICAL);
  g_assert_cmpuint (h->ptx_line, ==, 13);
  /* 32 lanes x 4 bytes = 128 distinct bytes, each in a sector of its own
   * (128 bytes apart): 32 sectors where 128 / 32 = 4 would hold them, and
   * 128 of the 32 x 32 = 1024 bytes moved are used, 12.5 % (printed as the
   * figure it is, not rounded to 12 or 13) */
  g_assert_cmpstr (h->message, ==, "Uncoalesced global memory access: 32 sectors per request, 4 "
                   "needed");
  g_assert_cmpstr (h->detail, ==, "32 sectors moved for 128 bytes used: 12.5 % of the bytes moved "
                   "are used");
  run_clear (&r);
}

/* Even and odd lanes take different paths: the branch splits every warp */
static void
test_divergence_and_race (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  gboolean divergence = FALSE, race = FALSE;

  run_text (&r, HEADER
            ".visible .entry k(.param .u64 k_a)\n"
            "{\n"
            "  .reg .pred %p<2>;\n"
            "  .reg .b32 %r<4>;\n"
            "  .shared .align 4 .b32 flag;\n"
            "  mov.u32 %r1, %tid.x;\n"
            "  and.b32 %r2, %r1, 1;\n"
            "  setp.eq.u32 %p1, %r2, 0;\n"
            "  @%p1 bra $EVEN;\n"                           /* 12 */
            "  st.shared.u32 [flag], %r1;\n"                /* 13: odd lanes write */
            "  bra.uni $JOIN;\n"
            "$EVEN:\n"
            "  ld.shared.u32 %r3, [flag];\n"                /* 16: even lanes read */
            "$JOIN:\n"
            "  ret;\n"
            "}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
            " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1}}, \"params\": [{\"buffer\": \"a\"}]}");
  hints = hints_of (&r);
  for (guint i = 0; i < hints->len; i++)
    {
      KsHint *h = hints->pdata[i];

      if (g_str_equal (h->category, "divergence"))
        {
          g_assert_cmpuint (h->ptx_line, ==, 12);
          g_assert_nonnull (strstr (h->message, "100 %"));
          /* one warp runs the branch once; its 16 even lanes jump, the 16
           * odd ones fall through */
          g_assert_cmpstr (h->detail, ==, "1 of 1 execution diverged: the warp split into 16 and "
                           "16 lanes (branch taken, not taken)");
          divergence = TRUE;
        }
      if (g_str_equal (h->category, "race"))
        {
          g_assert_cmpint (h->severity, ==, KS_HINT_CRITICAL);
          race = TRUE;
        }
    }
  g_assert_true (divergence);
  g_assert_true (race);
  /* most severe first: the race */
  g_assert_cmpstr (((KsHint *) hints->pdata[0])->category, ==, "race");
  run_clear (&r);
}

/* Thread 0 starts a cp.async into flag and never waits for it; after a
 * barrier thread 1 reads flag: a race with the copy, which may not have
 * landed, however many barriers come between */
static void
test_race_cp_async (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  gboolean race = FALSE;

  run_text (&r, HEADER
            ".visible .entry k(.param .u64 k_a)\n"
            "{\n"
            "  .reg .pred %p<2>;\n"
            "  .reg .b32 %r<4>;\n"
            "  .reg .b64 %rd<2>;\n"
            "  .shared .align 4 .b32 flag;\n"
            "  ld.param.u64 %rd1, [k_a];\n"
            "  mov.u32 %r1, %tid.x;\n"
            "  setp.eq.u32 %p1, %r1, 0;\n"
            "  @%p1 cp.async.ca.shared.global [flag], [%rd1], 4;\n"   /* 13 */
            "  cp.async.commit_group;\n"
            "  bar.sync 0;\n"
            "  setp.eq.u32 %p1, %r1, 1;\n"
            "  @%p1 ld.shared.u32 %r3, [flag];\n"                     /* 17 */
            "  ret;\n"
            "}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
            " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1}}, \"params\": [{\"buffer\": \"a\"}]}");
  hints = hints_of (&r);
  for (guint i = 0; i < hints->len; i++)
    {
      KsHint *h = hints->pdata[i];

      if (g_str_equal (h->category, "race"))
        {
          g_assert_cmpint (h->severity, ==, KS_HINT_CRITICAL);
          g_assert_cmpuint (h->ptx_line, ==, 17);
          g_assert_cmpstr (h->message, ==, "Shared-memory race (read after write) with the "
                           "cp.async at line 13");
          g_assert_cmpstr (h->detail, ==, "threads 0 and 1 of block [0,0,0] touch offset 0 while "
                           "the copy may still be in flight (1 time)");
          g_assert_nonnull (strstr (h->suggestion, "cp.async.wait_group"));
          race = TRUE;
        }
    }
  g_assert_true (race);
  run_clear (&r);
}

/* Lane l of warp w takes the branch when l < 8 (w + 1): warp 0 splits 8
 * against 24, warp 1 16 against 16.  Over the two executions, a range. */
static void
test_divergence_range (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsHint *h;

  run_text (&r, HEADER
            ".visible .entry k()\n"
            "{\n"
            "  .reg .pred %p<2>;\n"
            "  .reg .b32 %r<6>;\n"
            "  mov.u32 %r1, %tid.x;\n"
            "  and.b32 %r2, %r1, 31;\n"
            "  shr.u32 %r3, %r1, 5;\n"
            "  mad.lo.u32 %r4, %r3, 8, 8;\n"
            "  setp.lt.u32 %p1, %r2, %r4;\n"
            "  @%p1 bra $SKIP;\n"                             /* 13 */
            "  add.u32 %r5, %r1, 1;\n"
            "$SKIP:\n"
            "  ret;\n"
            "}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64], \"params\": []}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 1);
  h = hints->pdata[0];
  g_assert_cmpstr (h->category, ==, "divergence");
  g_assert_cmpuint (h->ptx_line, ==, 13);
  g_assert_cmpstr (h->message, ==, "Divergent branch: warps split here in 100 % of its executions");
  g_assert_cmpstr (h->detail, ==, "2 of 2 executions diverged: 8 to 16 lanes took the branch, "
                   "16 to 24 did not");
  run_clear (&r);
}

/* A broadcast is not an uncoalesced access: every lane loading a[0] moves
 * one sector, the fewest possible; lanes 0-15 loading a[0] and 16-31
 * a[64] (sample 21's load of A, two rows of a 16 x 16 block) move two
 * sectors 256 bytes apart, and no access to those two values moves fewer.
 * The old count (distinct bytes packed: 8 bytes, ideal 1) called the
 * second one uncoalesced. */
static void
test_broadcast_is_coalesced (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  const KsSimInsnStats *st;

  run_text (&r, HEADER
            ".visible .entry k(.param .u64 k_a)\n"
            "{\n"
            "  .reg .b32 %r<4>;\n"
            "  .reg .f32 %f<3>;\n"
            "  .reg .b64 %rd<5>;\n"
            "  ld.param.u64 %rd1, [k_a];\n"
            "  ld.global.f32 %f1, [%rd1];\n"                  /* 10: one float, 32 lanes */
            "  mov.u32 %r1, %tid.x;\n"
            "  shr.u32 %r2, %r1, 4;\n"
            "  mul.wide.u32 %rd2, %r2, 256;\n"
            "  add.s64 %rd3, %rd1, %rd2;\n"
            "  ld.global.f32 %f2, [%rd3];\n"                  /* 15: two floats, 16 lanes each */
            "  ret;\n"
            "}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
            " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 128}},"
            " \"params\": [{\"buffer\": \"a\"}]}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 0);
  st = ks_sim_get_insn_stats (r.sim);
  for (uint32_t i = 0; i < r.m->n_insns; i++)
    if (r.m->insns[i].line == 10)
      {
        /* 4 distinct bytes, 1 sector, ideal 1 */
        g_assert_cmpuint (st[i].gmem_sectors, ==, 1);
        g_assert_cmpuint (st[i].gmem_ideal_sectors, ==, 1);
        g_assert_cmpuint (st[i].gmem_used_bytes, ==, 4);
        g_assert_cmpuint (st[i].gmem_requested_bytes, ==, 128);
      }
    else if (r.m->insns[i].line == 15)
      {
        /* 8 distinct bytes in 2 sectors, ideal 2 */
        g_assert_cmpuint (st[i].gmem_sectors, ==, 2);
        g_assert_cmpuint (st[i].gmem_ideal_sectors, ==, 2);
        g_assert_cmpuint (st[i].gmem_used_bytes, ==, 8);
      }
  run_clear (&r);
}

/* One CUDA line on two PTX lines with different conflicts: thread t
 * stores to word 2t of s (banks 0, 2, ..., 30, two words each: 2-way) and to
 * word 8t of u (banks 0, 8, 16, 24, eight words each: 8-way; where an
 * array starts does not matter, a shift moves every word's bank alike).
 * One hint: up to 8-way, and (2 + 8) passes over the 2 needed, 5-way on
 * average. */
static void
test_bank_worst_and_average (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsHint *h;

  run_text (&r, HEADER
            ".file 1 \"k.cu\"\n"
            ".visible .entry k()\n{\n"
            "  .reg .b32 %r<8>;\n"
            "  .shared .align 4 .f32 s[64];\n"
            "  .shared .align 4 .f32 u[256];\n"
            "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, s;\n"
            "  mad.lo.u32 %r3, %r1, 8, %r2;\n"
            "  mov.u32 %r5, u;\n"
            "  mad.lo.u32 %r4, %r1, 32, %r5;\n"
            "  .loc 1 7 0\n"
            "  st.shared.f32 [%r3], 1.0;\n"                    /* 16: 2-way */
            "  st.shared.f32 [%r4], 2.0;\n"                    /* 17: 8-way */
            "  ret;\n}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32], \"params\": []}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 1);
  h = hints->pdata[0];
  /* the 8-way line is critical (8 times the passes), the 2-way one a
   * warning: the hint points at the worse */
  g_assert_cmpint (h->severity, ==, KS_HINT_CRITICAL);
  g_assert_cmpuint (h->ptx_line, ==, 17);
  g_assert_cmpuint (h->cuda_line, ==, 7);
  g_assert_cmpstr (h->message, ==, "Shared-memory bank conflicts up to 8-way, 5-way on average");
  g_assert_cmpstr (h->detail, ==, "5 wavefronts per request where 1 would do; 8 extra wavefronts "
                   "over 2 requests; the same on 1 more PTX line of this CUDA line (16)");
  run_clear (&r);
}

/* Figures as the sample texts give them: one decimal unless whole */
static void
test_format_figure (void)
{
  static const struct { double value; const char *text; } cases[] = {
    { 37.5, "37.5" },           /* sample 25's occupancy, 24 of 64 warps */
    { 100.0 * 24 / 64, "37.5" },
    { 12.5, "12.5" },
    { 100.0, "100" },
    { 99.96, "100" },           /* 100.0 at one decimal: whole */
    { 38.06, "38.1" },
    { 4.0, "4" },
    { 0.0, "0" },
    { -0.04, "0" },             /* never "-0" */
    { 18.75, "18.8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = ks_format_figure (cases[i].value);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* The limiters in words, for "limited by ...": never the JSON's
 * identifiers */
static void
test_limiter_words (void)
{
  KsOccupancyResult occ = { 0 };
  g_autofree char *summary = NULL;

  g_assert_cmpstr (ks_occupancy_limiter_label (KS_OCCUPANCY_LIMIT_SHARED_MEMORY), ==,
                   "shared memory");
  g_assert_cmpstr (ks_occupancy_limiter_name (KS_OCCUPANCY_LIMIT_SHARED_MEMORY), ==,
                   "shared_memory");
  g_assert_cmpstr (ks_occupancy_limiter_label (KS_OCCUPANCY_LIMIT_REGISTERS), ==, "registers");
  g_assert_cmpstr (ks_occupancy_limiter_label (KS_OCCUPANCY_LIMIT_WARPS), ==, "warps");
  g_assert_cmpstr (ks_occupancy_limiter_label (KS_OCCUPANCY_LIMIT_BLOCKS), ==, "blocks");
  g_assert_cmpstr (ks_occupancy_limiter_label (KS_OCCUPANCY_LIMIT_BARRIERS), ==, "barriers");
  /* 3 blocks of 8 warps: 24 of 64, 37.5 % */
  occ.occupancy = 24.0 / 64;
  occ.active_blocks_per_sm = 3;
  occ.active_warps_per_sm = 24;
  occ.max_warps_per_sm = 64;
  occ.limiter = KS_OCCUPANCY_LIMIT_SHARED_MEMORY;
  summary = ks_occupancy_summary (&occ);
  g_assert_cmpstr (summary, ==,
                   "24 of 64 warps per SM (37.5 %), 3 blocks: limited by shared memory");
  g_clear_pointer (&summary, g_free);
  /* one block of 32 warps: "1 block" */
  occ.occupancy = 0.5;
  occ.active_blocks_per_sm = 1;
  occ.active_warps_per_sm = 32;
  occ.limiter = KS_OCCUPANCY_LIMIT_REGISTERS;
  summary = ks_occupancy_summary (&occ);
  g_assert_cmpstr (summary, ==, "32 of 64 warps per SM (50 %), 1 block: limited by registers");
}

/* Occupancy and the tail, from figures given directly */
static void
test_occupancy_and_tail (void)
{
  Run r = { 0 };
  KsOccupancyResult occ = { 0 };
  KsHintInput in;
  g_autoptr(GPtrArray) hints = NULL;
  gboolean low = FALSE, tail = FALSE;

  run_text (&r, HEADER ".visible .entry k()\n{\n  ret;\n}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32], \"params\": []}");
  occ.occupancy = 0.1875;                       /* 12 of 64 warps */
  occ.active_blocks_per_sm = 1;
  occ.active_warps_per_sm = 12;
  occ.max_warps_per_sm = 64;
  occ.limiter = KS_OCCUPANCY_LIMIT_REGISTERS;
  in = (KsHintInput) { r.m, r.sim, &occ, NULL, 130, 108 };
  hints = ks_hints_compute (&in);
  for (guint i = 0; i < hints->len; i++)
    {
      KsHint *h = hints->pdata[i];

      if (g_str_equal (h->category, "occupancy"))
        {
          g_assert_cmpint (h->severity, ==, KS_HINT_WARNING);
          /* 12 / 64 = 18.75 %, to one decimal 18.8; the limiter in words */
          g_assert_cmpstr (h->message, ==, "Low occupancy: 18.8 %, limited by registers");
          g_assert_cmpstr (h->detail, ==, "1 block and 12 of 64 warps per SM");
          low = TRUE;
        }
      if (g_str_equal (h->category, "tail"))
        {
          /* 130 blocks, one per SM on 108 SMs: 1.20 waves, the last
           * 22 / 108 = 20.37 % full */
          g_assert_nonnull (strstr (h->message, "1.20 waves"));
          g_assert_cmpstr (h->detail, ==, "130 blocks, 1 per SM on 108 SMs: the last wave keeps "
                           "the GPU 20.4 % busy");
          tail = TRUE;
        }
    }
  g_assert_true (low && tail);
  run_clear (&r);
}

/* vadd with whole warps: nothing to say */
static void
test_clean_kernel (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  g_assert_nonnull (text);
  run_text (&r, text,
            "{\"ptx\": \"x.ptx\", \"grid\": [4], \"block\": [256],"
            " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1024}, \"b\": {\"type\": \"f32\", \"count\": 1024},"
            " \"c\": {\"type\": \"f32\", \"count\": 1024}},"
            " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": 1024}]}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 0);
  run_clear (&r);
}

/* One CUDA line (5) unrolled onto two PTX lines with the same conflict:
 * one hint, at the first, naming the other */
static void
test_one_hint_per_cuda_line (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsHint *h;

  run_text (&r, HEADER
            ".file 1 \"k.cu\"\n"                                    /* 4 */
            ".visible .entry k()\n{\n"                               /* 5, 6 */
            "  .reg .b32 %r<8>;\n"                                    /* 7 */
            "  .shared .align 4 .f32 tile[32][32];\n"                 /* 8 */
            "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, tile;\n"          /* 9, 10 */
            "  mad.lo.u32 %r3, %r1, 128, %r2;\n"                      /* 11 */
            "  .loc 1 5 0\n"                                          /* 12 */
            "  st.shared.f32 [%r3], 1.0;\n"                           /* 13 */
            "  st.shared.f32 [%r3+4], 2.0;\n"                         /* 14 */
            "  ret;\n}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32], \"params\": []}");
  hints = hints_of (&r);
  g_assert_cmpuint (hints->len, ==, 1);
  h = hints->pdata[0];
  g_assert_cmpuint (h->ptx_line, ==, 13);
  g_assert_cmpuint (h->cuda_line, ==, 5);
  g_assert_nonnull (strstr (h->detail, "1 more PTX line of this CUDA line (14)"));
  run_clear (&r);
}

/* The timing model's rules: a run replayed on `gpu_id`, hints with it */
static GPtrArray *
timed_hints (Run         *r,
             const char  *gpu_id,
             KsTiming   **timing)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  const KsGpuInfo *gpu;
  const KsArchInfo *arch;
  const KsLaunch *l = ks_sim_get_launch (r->sim);
  KsOccupancyInput oin;
  KsOccupancyResult occ;
  KsHintInput in;

  g_assert_no_error (error);
  gpu = ks_gpu_db_get_gpu (db, gpu_id);
  arch = ks_gpu_db_get_arch (db, gpu->arch);
  ks_occupancy_input_init (&oin);
  oin.block_size = l->block[0] * l->block[1] * l->block[2];
  oin.registers_per_thread = 32;
  g_assert_true (ks_occupancy_compute (arch, &oin, &occ, &error));
  *timing = ks_timing_compute (r->m, r->sim, arch, gpu, &occ, NULL, &error);
  g_assert_no_error (error);
  in = (KsHintInput) { r->m, r->sim, &occ, NULL, (uint64_t) l->grid[0] * l->grid[1] * l->grid[2],
                       gpu->sm_count, *timing };
  return ks_hints_compute (&in);
}

static const KsHint *
find_hint (GPtrArray  *hints,
           const char *category)
{
  for (guint i = 0; i < hints->len; i++)
    if (g_str_equal (((KsHint *) hints->pdata[i])->category, category))
      return hints->pdata[i];
  g_error ("no “%s” hint among the %u", category, hints->len);
}

/* Warp 0 does 64 dependent FFMAs (line 12) before the barrier (line 14);
 * the other seven warps wait there: most of their time is barrier */
static void
test_barrier_stalls (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  g_autoptr(GString) ptx = g_string_new (HEADER ".visible .entry k()\n{\n"      /* 1-5 */
                                         "  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n"  /* 6-7 */
                                         "  .reg .pred %p<2>;\n"                    /* 8 */
                                         "  mov.u32 %r1, %tid.x;\n"                 /* 9 */
                                         "  setp.ge.u32 %p1, %r1, 32;\n"            /* 10 */
                                         "  @%p1 bra WAIT;\n");                     /* 11 */
  KsTiming *t = NULL;
  const KsHint *h;

  for (guint i = 0; i < 64; i++)
    g_string_append (ptx, "  fma.rn.f32 %f1, %f1, %f1, %f1;  ");       /* all on line 12 */
  g_string_append (ptx, "\nWAIT:\n  bar.sync 0;\n  ret;\n}\n");     /* 13, 14 */
  run_text (&r, ptx->str, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [256], \"params\": []}");
  hints = timed_hints (&r, "a100-sxm4-80gb", &t);
  h = find_hint (hints, "barrier");
  g_assert_cmpuint (h->ptx_line, ==, 14);
  g_assert_cmpint (h->severity, ==, KS_HINT_WARNING);
  ks_timing_free (t);
  run_clear (&r);
}

/* One block chasing pointers through global memory: nothing hides the
 * latency, and the grid is the reason */
static void
test_latency (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsTiming *t = NULL;
  const KsHint *h;

  run_text (&r, HEADER ".visible .entry k(.param .u64 p)\n{\n"         /* 1-5 */
            "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"  /* 6-8 */
            "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n" /* 9-11 */
            "LOOP:\n"                                                           /* 12 */
            "  mul.wide.u32 %rd2, %r1, 4;\n"                                    /* 13 */
            "  add.s64 %rd3, %rd1, %rd2;\n"                                     /* 14 */
            "  ld.global.u32 %r1, [%rd3];\n"                                    /* 15 */
            "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 64;\n"             /* 16, 17 */
            "  @%p1 bra LOOP;\n  ret;\n}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32], \"buffers\": {\"a\": "
            "{\"type\": \"u32\", \"count\": 64}}, \"params\": [{\"buffer\": \"a\"}]}");
  hints = timed_hints (&r, "a100-sxm4-80gb", &t);
  h = find_hint (hints, "latency");
  /* the warps wait at the mul that uses the loaded value */
  g_assert_cmpuint (h->ptx_line, ==, 13);
  g_assert_nonnull (strstr (h->suggestion, "more blocks"));
  ks_timing_free (t);
  run_clear (&r);
}

/* A copy of 256 K floats (1 MiB) on 16 SMs with 205 GB/s (Jetson AGX Orin): DRAM
 * traffic sets the time */
static void
test_memory_bound (void)
{
  Run r = { 0 };
  g_autoptr(GPtrArray) hints = NULL;
  KsTiming *t = NULL;
  const KsHint *h;

  run_text (&r, HEADER ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n"
            "  .reg .b32 %r<6>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<2>;\n"
            "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
            "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
            "  mad.lo.u32 %r4, %r1, %r2, %r3;\n  mul.wide.u32 %rd3, %r4, 4;\n"
            "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
            "  ld.global.f32 %f1, [%rd4];\n  st.global.f32 [%rd5], %f1;\n  ret;\n}\n",
            "{\"ptx\": \"x.ptx\", \"grid\": [1024], \"block\": [256], \"buffers\": {"
            "\"a\": {\"type\": \"f32\", \"count\": 262144}, "
            "\"b\": {\"type\": \"f32\", \"count\": 262144}}, "
            "\"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}]}");
  hints = timed_hints (&r, "jetson-agx-orin", &t);
  /* 1 MiB read from DRAM; the 1 MiB written stays in the 4 MiB L2 while
   * the kernel runs (L2 writes back on eviction: seeds/004's vadd on an
   * RTX 4090 measures DRAM reads only): 1 MiB at 204.8 GB/s is 5.12 us */
  g_assert_cmpfloat_with_epsilon (t->dram_bytes, 1048576, 1.0);
  g_assert_cmpfloat_with_epsilon (t->memory_floor_us, 1048576 / 204.8e3, 1e-6);
  g_assert_cmpint (t->bound, ==, KS_BOUND_MEMORY);
  h = find_hint (hints, "bound");
  g_assert_nonnull (strstr (h->message, "Memory-bound"));
  ks_timing_free (t);
  run_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hints/bank-conflict", test_bank_conflict);
  g_test_add_func ("/hints/strided-access", test_strided_access);
  g_test_add_func ("/hints/divergence-and-race", test_divergence_and_race);
  g_test_add_func ("/hints/race-cp-async", test_race_cp_async);
  g_test_add_func ("/hints/divergence-range", test_divergence_range);
  g_test_add_func ("/hints/broadcast-is-coalesced", test_broadcast_is_coalesced);
  g_test_add_func ("/hints/bank-worst-and-average", test_bank_worst_and_average);
  g_test_add_func ("/hints/words/figures", test_format_figure);
  g_test_add_func ("/hints/words/limiters", test_limiter_words);
  g_test_add_func ("/hints/occupancy-and-tail", test_occupancy_and_tail);
  g_test_add_func ("/hints/clean-kernel", test_clean_kernel);
  g_test_add_func ("/hints/one-per-cuda-line", test_one_hint_per_cuda_line);
  g_test_add_func ("/hints/timing/barrier", test_barrier_stalls);
  g_test_add_func ("/hints/timing/latency", test_latency);
  g_test_add_func ("/hints/timing/memory-bound", test_memory_bound);
  return g_test_run ();
}
