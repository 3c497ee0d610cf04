/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hint rules on kernels with a known problem, and on one without. */

#include <string.h>

#include "ks-hints.h"
#include "ks-launch.h"

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
  /* 32 sectors for 128 requested bytes: 4 needed; 12.5 % used */
  g_assert_nonnull (strstr (h->message, "32.0 sectors per request, 4.0 needed"));
  /* 12.5 %, printed to the nearest even whole number */
  g_assert_nonnull (strstr (h->detail, "32 sectors moved for 128 requested bytes: 12 %"));
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
          g_assert_nonnull (strstr (h->message, "19 %"));
          g_assert_nonnull (strstr (h->message, "registers"));
          low = TRUE;
        }
      if (g_str_equal (h->category, "tail"))
        {
          /* 130 blocks, one per SM on 108 SMs: 1.20 waves */
          g_assert_nonnull (strstr (h->message, "1.20 waves"));
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hints/bank-conflict", test_bank_conflict);
  g_test_add_func ("/hints/strided-access", test_strided_access);
  g_test_add_func ("/hints/divergence-and-race", test_divergence_and_race);
  g_test_add_func ("/hints/occupancy-and-tail", test_occupancy_and_tail);
  g_test_add_func ("/hints/clean-kernel", test_clean_kernel);
  return g_test_run ();
}
