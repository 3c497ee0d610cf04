/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulator's sm_80/sm_90 warp-collective and asynchronous instructions,
 * run as whole kernels: stmatrix, the integer and f64 mma shapes, mbarrier
 * and cp.async.bulk.  Results are checked against C references written
 * from the PTX ISA's descriptions (fragment layouts, phase semantics), and
 * every misuse against the fault it must give, with its line.  The suite
 * runs twice, with and without the fast path (tests/meson.build). */

#include <math.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"
#include "ks-test-sim.h"
#include "ks-sim-mbarrier.h"

/* A kernel that spins where it should have faulted stops at this many
 * warp-instructions, a step_limit fault the tests then reject, instead of
 * running for the default two billion. */
#define STEP_LIMIT 2000000

static KsSimStatus
run_start (Run        *r,
           const char *ptx,
           const char *spec)
{
  g_autoptr(GError) error = NULL;

  if (r->module == NULL)
    r->module = text_module (ptx);
  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  ks_sim_set_step_limit (r->sim, STEP_LIMIT);
  return ks_sim_run (r->sim, 0, NULL);
}

static void
assert_fault (Run            *r,
              KsSimFaultKind  kind,
              uint32_t        ptx_line,
              const char     *fragment)
{
  const KsSimFault *f = ks_sim_get_fault (r->sim);

  g_assert_cmpint (ks_sim_get_status (r->sim), ==, KS_SIM_FAULTED);
  g_assert_nonnull (f);
  g_test_message ("fault: %s (line %u)", f->message, f->ptx_line);
  g_assert_cmpstr (ks_sim_fault_kind_name (f->kind), ==, ks_sim_fault_kind_name (kind));
  if (ptx_line)
    g_assert_cmpuint (f->ptx_line, ==, ptx_line);
  g_assert_nonnull (strstr (f->message, fragment));
}

/* A spec for kernel `kernel` with an input of n_in u32 (given) and an output
 * of n_out u32, both as parameters, in that order. */
static char *
io_spec (const char     *kernel,
         guint           block,
         const uint32_t *in,
         guint           n_in,
         guint           n_out)
{
  g_autofree char *hin = hex_of (in, n_in * sizeof (uint32_t));

  return g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"%s\", \"grid\": [1], \"block\": [%u],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u32\", \"count\": %u}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}",
                          kernel, block, hin, n_out);
}

/* ---- stmatrix -------------------------------------------------------------------------- */

/* Each lane loads four registers from in[4 lane ..], stores them with
 * stmatrix.x4 (row r of matrix m at buf + 32 (8 m + r): 16 bytes of data,
 * 16 of padding), and the block copies buf out. */
#define STMATRIX_KERNEL(name, trans) \
  ".visible .entry " name "(.param .u64 p_in, .param .u64 p_out)\n" \
  "{\n" \
  "  .reg .b32 %r<16>;\n" \
  "  .reg .b64 %rd<8>;\n" \
  "  .shared .align 16 .b8 buf[1024];\n" \
  "  ld.param.u64 %rd1, [p_in];\n" \
  "  ld.param.u64 %rd2, [p_out];\n" \
  "  mov.u32 %r1, %tid.x;\n" \
  "  mul.wide.u32 %rd3, %r1, 16;\n" \
  "  add.s64 %rd4, %rd1, %rd3;\n" \
  "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n" \
  "  shl.b32 %r6, %r1, 5;\n"                  /* lane l gives row l: 32 l */ \
  "  mov.u32 %r7, buf;\n" \
  "  add.u32 %r8, %r7, %r6;\n" \
  "  stmatrix.sync.aligned.m8n8.x4" trans ".shared.b16 [%r8], {%r2, %r3, %r4, %r5};\n" \
  "  bar.sync 0;\n" \
  "  ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [%r8];\n" \
  "  ld.shared.v4.u32 {%r9, %r10, %r11, %r12}, [%r8+16];\n" \
  "  mul.wide.u32 %rd5, %r1, 32;\n" \
  "  add.s64 %rd6, %rd2, %rd5;\n" \
  "  st.global.v4.u32 [%rd6], {%r2, %r3, %r4, %r5};\n" \
  "  st.global.v4.u32 [%rd6+16], {%r9, %r10, %r11, %r12};\n" \
  "  ret;\n" \
  "}\n"

static const char stmatrix_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  STMATRIX_KERNEL ("st", "")
  STMATRIX_KERNEL ("st_trans", ".trans");

static void
test_stmatrix_kernel (void)
{
  uint32_t in[32 * 4];

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_random_int ();
  for (int trans = 0; trans < 2; trans++)
    {
      Run r = { 0 };
      g_autofree char *spec = io_spec (trans ? "st_trans" : "st", 32, in, G_N_ELEMENTS (in), 256);
      const uint8_t *out;

      run_start (&r, stmatrix_ptx, spec);
      assert_done (&r);
      out = buffer (&r, "out");
      /* The ISA's fragment of stmatrix (as of ldmatrix): lane l holds row
       * l/4, columns 2 (l%4) and 2 (l%4) + 1 of each matrix, low half
       * first; with .trans, of the matrix's transpose. */
      for (int m = 0; m < 4; m++)
        for (int row = 0; row < 8; row++)
          for (int col = 0; col < 8; col++)
            {
              int fr = trans ? col : row, fc = trans ? row : col;
              int lane = 4 * fr + fc / 2;
              uint16_t want = (uint16_t) (in[4 * lane + m] >> (16 * (fc % 2)));
              const uint8_t *p = out + 32 * (8 * m + row) + 2 * col;

              g_assert_cmphex (p[0] | (p[1] << 8), ==, want);
            }
      /* The padding after each row is untouched. */
      for (int row = 0; row < 32; row++)
        for (int b = 16; b < 32; b++)
          g_assert_cmpuint (out[32 * row + b], ==, 0);
      run_clear (&r);
    }
}

/* movmatrix: lane l's register from in[l], transposed, to out[l] */
static void
test_movmatrix_kernel (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_in];\n"
    "  ld.param.u64 %rd2, [p_out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n"
    "  movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r3;\n"
    "  ret;\n"
    "}\n";
  Run r = { 0 };
  uint32_t in[32];
  uint16_t m[8][8];
  const uint32_t *out;
  g_autofree char *spec = NULL;

  for (guint i = 0; i < 32; i++)
    in[i] = g_random_int ();
  spec = io_spec ("k", 32, in, 32, 32);
  run_start (&r, ptx, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  /* lane l: row l/4, columns 2 (l%4) and 2 (l%4) + 1, low half first */
  for (int l = 0; l < 32; l++)
    {
      m[l / 4][2 * (l % 4)] = (uint16_t) in[l];
      m[l / 4][2 * (l % 4) + 1] = (uint16_t) (in[l] >> 16);
    }
  for (int l = 0; l < 32; l++)
    {
      int row = l / 4, col = 2 * (l % 4);

      g_assert_cmphex (out[l], ==, m[col][row] | ((uint32_t) m[col + 1][row] << 16));
    }
  run_clear (&r);
}

/* ---- mma shapes as kernels ---------------------------------------------------------------- */

/* Lane l loads A from in[4 l], B from in[128 + 2 l], C from in[192 + 4 l],
 * and stores D to out[4 l]. */
static const char mma_int_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n"
  "{\n"
  "  .reg .b32 %r<20>;\n"
  "  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [p_in];\n"
  "  ld.param.u64 %rd2, [p_out];\n"
  "  mov.u32 %r1, %laneid;\n"
  "  mul.wide.u32 %rd3, %r1, 16;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
  "  ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd4+768];\n"
  "  mul.wide.u32 %rd5, %r1, 8;\n"
  "  add.s64 %rd6, %rd1, %rd5;\n"
  "  ld.global.v2.u32 {%r6, %r7}, [%rd6+512];\n"
  "  mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%r12, %r13, %r14, %r15},"
  " {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%r8, %r9, %r10, %r11};\n"
  "  add.s64 %rd7, %rd2, %rd3;\n"
  "  st.global.v4.u32 [%rd7], {%r12, %r13, %r14, %r15};\n"
  "  ret;\n"
  "}\n";

static void
test_mma_int_kernel (void)
{
  Run r = { 0 };
  uint32_t in[320];
  int64_t a[16][32], b[32][8], c[16][8];
  const uint32_t *out;
  g_autofree char *spec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_random_int ();
  /* Some accumulators at the top of the range: .satfinite must clamp */
  for (guint i = 192; i < 320; i += 3)
    in[i] = G_MAXINT32 - 10;
  spec = io_spec ("k", 32, in, G_N_ELEMENTS (in), 128);
  run_start (&r, mma_int_ptx, spec);
  assert_done (&r);
  out = buffer (&r, "out");

  /* The ISA's "Matrix Fragments for mma.m16n8k32" (8-bit A and B, s32 C):
   * the element i of lane l is byte i % 4 of register i / 4. */
  for (int lane = 0; lane < 32; lane++)
    {
      int groupID = lane >> 2, threadID_in_group = lane % 4;

      for (int i = 0; i < 16; i++)
        {
          int row = ((0 <= i && i < 4) || (8 <= i && i < 12)) ? groupID : groupID + 8;
          int col = threadID_in_group * 4 + (i & 0x3) + (i >= 8 ? 16 : 0);

          a[row][col] = (int8_t) (in[4 * lane + i / 4] >> (8 * (i % 4)));
        }
      for (int i = 0; i < 8; i++)
        {
          int row = threadID_in_group * 4 + (i & 0x3) + (i >= 4 ? 16 : 0);

          b[row][groupID] = (int8_t) (in[128 + 2 * lane + i / 4] >> (8 * (i % 4)));
        }
      for (int i = 0; i < 4; i++)
        c[i < 2 ? groupID : groupID + 8][threadID_in_group * 2 + (i & 0x1)] =
          (int32_t) in[192 + 4 * lane + i];
    }
  for (int lane = 0; lane < 32; lane++)
    for (int i = 0; i < 4; i++)
      {
        int row = i < 2 ? lane >> 2 : (lane >> 2) + 8, col = (lane % 4) * 2 + (i & 0x1);
        int64_t acc = c[row][col];

        for (int kk = 0; kk < 32; kk++)
          acc += a[row][kk] * b[kk][col];
        acc = CLAMP (acc, G_MININT32, G_MAXINT32);
        g_assert_cmphex (out[4 * lane + i], ==, (uint32_t) acc);
      }
  run_clear (&r);
}

/* m8n8k4 .f64: lane l's A, B and C in in[8 l ..] as f64 a, b, c0, c1, ...;
 * D to out. */
static const char mma_f64_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n"
  "{\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .f64 %fd<8>;\n"
  "  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [p_in];\n"
  "  ld.param.u64 %rd2, [p_out];\n"
  "  mov.u32 %r1, %laneid;\n"
  "  mul.wide.u32 %rd3, %r1, 32;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.v4.f64 {%fd1, %fd2, %fd3, %fd4}, [%rd4];\n"
  "  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd5, %fd6}, {%fd1}, {%fd2},"
  " {%fd3, %fd4};\n"
  "  mul.wide.u32 %rd5, %r1, 16;\n"
  "  add.s64 %rd6, %rd2, %rd5;\n"
  "  st.global.v2.f64 [%rd6], {%fd5, %fd6};\n"
  "  ret;\n"
  "}\n";

static void
test_mma_f64_kernel (void)
{
  Run r = { 0 };
  double in[32 * 4], a[8][4], b[4][8], c[8][8];
  const double *out;
  g_autofree char *spec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_random_double_range (-100, 100);
  spec = io_spec ("k", 32, (const uint32_t *) in, 2 * G_N_ELEMENTS (in), 2 * 64);
  run_start (&r, mma_f64_ptx, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  /* A: row = %laneid >> 2, col = %laneid % 4; B: row = %laneid % 4,
   * col = %laneid >> 2; C/D: row = groupID, col = threadID_in_group * 2
   * + (i & 0x1) */
  for (int lane = 0; lane < 32; lane++)
    {
      a[lane >> 2][lane % 4] = in[4 * lane];
      b[lane % 4][lane >> 2] = in[4 * lane + 1];
      for (int i = 0; i < 2; i++)
        c[lane >> 2][(lane % 4) * 2 + i] = in[4 * lane + 2 + i];
    }
  for (int lane = 0; lane < 32; lane++)
    for (int i = 0; i < 2; i++)
      {
        int row = lane >> 2, col = (lane % 4) * 2 + i;
        double want = c[row][col];

        for (int kk = 0; kk < 4; kk++)
          want = fma (a[row][kk], b[kk][col], want);
        g_assert_cmpfloat (out[2 * lane + i], ==, want);
      }
  run_clear (&r);
}

#define FAULT_HEADER \
  ".version 8.0\n.target sm_90\n.address_size 64\n" \
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n" \
  "{\n" \
  "  .reg .pred %p<4>;\n" \
  "  .reg .b32 %r<16>;\n" \
  "  .reg .b64 %rd<16>;\n" \
  "  .shared .align 16 .b8 buf[1024];\n" \
  "  ld.param.u64 %rd1, [p_in];\n" \
  "  mov.u32 %r1, %tid.x;\n"                  /* line 11 */ \
  "  mov.u32 %r7, buf;\n"                     /* line 12; the body starts at 13 */

/* Runs `header` and `body` in blocks of `block` threads: a clean end when
 * `kind` is KS_SIM_FAULT_NONE, else that fault at `line` with `fragment` in
 * its message */
static void
run_expect (const char     *header,
            const char     *body,
            guint           block,
            KsSimFaultKind  kind,
            uint32_t        line,
            const char     *fragment)
{
  Run r = { 0 };
  uint32_t in[64] = { 0 };
  g_autofree char *ptx = g_strconcat (header, body, "  ret;\n}\n", NULL);
  g_autofree char *spec = io_spec ("k", block, in, G_N_ELEMENTS (in), 64);

  run_start (&r, ptx, spec);
  if (kind == KS_SIM_FAULT_NONE)
    assert_done (&r);
  else
    assert_fault (&r, kind, line, fragment);
  run_clear (&r);
}

static void
run_fault (const char     *body,
           guint           block,
           KsSimFaultKind  kind,
           uint32_t        line,
           const char     *fragment)
{
  run_expect (FAULT_HEADER, body, block, kind, line, fragment);
}

static void
test_stmatrix_faults (void)
{
  /* lane 3's row is 8 bytes off */
  run_fault ("  shl.b32 %r6, %r1, 4;\n"
             "  setp.eq.u32 %p1, %r1, 3;\n"
             "  @%p1 add.u32 %r6, %r6, 8;\n"
             "  add.u32 %r8, %r7, %r6;\n"
             "  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r8], {%r1, %r1, %r1, %r1};\n", /* 17 */
             32, KS_SIM_FAULT_MISALIGNED, 17, "lane 3 is not 16-byte aligned");
  /* rows past the block's 1024 bytes of shared memory */
  run_fault ("  shl.b32 %r6, %r1, 6;\n"
             "  add.u32 %r8, %r7, %r6;\n"
             "  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r8], {%r1, %r1, %r1, %r1};\n", /* 15 */
             32, KS_SIM_FAULT_OUT_OF_BOUNDS, 15, "1024 bytes of shared memory");
  /* a generic address of global memory */
  run_fault ("  stmatrix.sync.aligned.m8n8.x1.b16 [%rd1], {%r1};\n",                     /* 13 */
             32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "is not in shared memory");
  /* ldmatrix too reads rows of shared memory only */
  run_fault ("  ldmatrix.sync.aligned.m8n8.x1.b16 {%r2}, [%rd1];\n",                    /* 13 */
             32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "ldmatrix row address 0x7f0000000000");
  /* half a warp */
  run_fault ("  setp.lt.u32 %p1, %r1, 16;\n"
             "  @%p1 stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r7], {%r1};\n",          /* 14 */
             32, KS_SIM_FAULT_DEADLOCK, 14, "needs all 32 lanes");
  run_fault ("  stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r7], {%r1};\n",               /* 13 */
             16, KS_SIM_FAULT_DEADLOCK, 13, "needs all 32 lanes");
}

/* ---- mbarrier ------------------------------------------------------------------------------ */

/* The phase rules of the ISA ("Phase completion of the mbarrier object":
 * pending arrivals and tx-count both zero), step by step */
static void
test_mbarrier_phases (void)
{
  KsMbarrier m, back;

  g_assert_cmpint (ks_mbar_init (&m, 3), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.phase, ==, 0);
  g_assert_cmpuint (m.pending, ==, 3);
  g_assert_cmpuint (m.expected, ==, 3);
  g_assert_cmpint (m.tx, ==, 0);
  g_assert_false (ks_mbar_test_parity (&m, 0));       /* phase 0 is under way */
  g_assert_true (ks_mbar_test_parity (&m, 1));        /* "the immediately preceding phase" */

  g_assert_cmpint (ks_mbar_arrive (&m, 1, FALSE, FALSE), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.pending, ==, 2);
  g_assert_cmpint (ks_mbar_arrive (&m, 3, FALSE, FALSE), ==, KS_MBAR_OVER_ARRIVAL);
  g_assert_cmpint (ks_mbar_arrive (&m, 2, FALSE, TRUE), ==, KS_MBAR_COMPLETES);
  g_assert_cmpuint (m.pending, ==, 2);                /* refused: unchanged */
  g_assert_cmpint (ks_mbar_arrive (&m, 2, FALSE, FALSE), ==, KS_MBAR_OK);
  /* phase 0 completed: phase 1 expects 3 again */
  g_assert_cmpuint (m.phase, ==, 1);
  g_assert_cmpuint (m.pending, ==, 3);
  g_assert_true (ks_mbar_test_parity (&m, 0));

  /* The tx-count holds the phase open after the last arrival */
  g_assert_cmpint (ks_mbar_expect_tx (&m, 100), ==, KS_MBAR_OK);
  for (int i = 0; i < 3; i++)
    g_assert_cmpint (ks_mbar_arrive (&m, 1, FALSE, FALSE), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.phase, ==, 1);
  g_assert_cmpuint (m.pending, ==, 0);
  g_assert_cmpint (ks_mbar_arrive (&m, 1, FALSE, FALSE), ==, KS_MBAR_OVER_ARRIVAL);
  g_assert_cmpint (ks_mbar_complete_tx (&m, 60), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.phase, ==, 1);
  g_assert_cmpint (ks_mbar_complete_tx (&m, 40), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.phase, ==, 0);
  g_assert_cmpuint (m.pending, ==, 3);
  g_assert_cmpint (m.tx, ==, 0);

  /* Bytes may land before they are expected: a negative tx-count */
  g_assert_cmpint (ks_mbar_complete_tx (&m, 16), ==, KS_MBAR_OK);
  g_assert_cmpint (m.tx, ==, -16);
  ks_mbar_unpack (ks_mbar_pack (&m), &back);
  g_assert_cmpint (back.tx, ==, -16);
  g_assert_cmpuint (back.pending, ==, 3);
  g_assert_cmpuint (back.expected, ==, 3);
  g_assert_cmpuint (back.phase, ==, 0);
  g_assert_cmpint (ks_mbar_expect_tx (&m, 16), ==, KS_MBAR_OK);
  g_assert_cmpint (ks_mbar_complete_tx (&m, KS_MBAR_MAX_TX + 1), ==, KS_MBAR_TX_RANGE);

  /* arrive_drop: this phase and the later ones expect one fewer */
  g_assert_cmpint (ks_mbar_arrive (&m, 1, TRUE, FALSE), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.pending, ==, 2);
  g_assert_cmpuint (m.expected, ==, 2);
  g_assert_cmpint (ks_mbar_arrive (&m, 2, FALSE, FALSE), ==, KS_MBAR_OK);
  g_assert_cmpuint (m.phase, ==, 1);
  g_assert_cmpuint (m.pending, ==, 2);

  /* The state an arrival returns is the object before it */
  {
    uint64_t state = ks_mbar_pack (&m);

    g_assert_cmpuint (ks_mbar_state_pending (state), ==, 2);
    g_assert_false (ks_mbar_test_state (&m, state));
    g_assert_cmpint (ks_mbar_arrive (&m, 2, FALSE, FALSE), ==, KS_MBAR_OK);
    g_assert_true (ks_mbar_test_state (&m, state));
  }
  g_assert_cmpint (ks_mbar_init (&m, 0), ==, KS_MBAR_BAD_COUNT);
  g_assert_cmpint (ks_mbar_init (&m, KS_MBAR_MAX_COUNT + 1), ==, KS_MBAR_BAD_COUNT);
  g_assert_cmpint (ks_mbar_init (&m, KS_MBAR_MAX_COUNT), ==, KS_MBAR_OK);
  g_assert_cmpuint (ks_mbar_state_pending (ks_mbar_pack (&m)), ==, KS_MBAR_MAX_COUNT);
}

/* A two-stage pipeline across two warps: warp 1 fills buf and arrives on
 * `full` (lane 0 expecting and then completing 128 bytes of tx-count),
 * warp 0 waits on full's phase of each round by parity, copies buf out
 * and arrives on `empty`, which warp 1 waits on before refilling. */
static const char pipeline_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n"
  "{\n"
  "  .reg .pred %p<6>;\n"
  "  .reg .b32 %r<24>;\n"
  "  .reg .b64 %rd<12>;\n"
  "  .shared .align 8 .b64 full;\n"
  "  .shared .align 8 .b64 empty;\n"
  "  .shared .align 16 .b32 buf[32];\n"
  "  ld.param.u64 %rd1, [p_in];\n"
  "  ld.param.u64 %rd2, [p_out];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  and.b32 %r2, %r1, 31;\n"
  "  mov.u32 %r3, full;\n"
  "  mov.u32 %r4, empty;\n"
  "  mov.u32 %r5, buf;\n"
  "  shl.b32 %r6, %r2, 2;\n"
  "  add.u32 %r6, %r5, %r6;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra $INIT_DONE;\n"
  "  mbarrier.init.shared::cta.b64 [%r3], 32;\n"
  "  mbarrier.init.shared::cta.b64 [%r4], 32;\n"
  "$INIT_DONE:\n"
  "  bar.sync 0;\n"
  "  setp.ge.u32 %p2, %r1, 32;\n"
  "  setp.eq.u32 %p3, %r2, 0;\n"
  "  mov.u32 %r7, 0;\n"
  "$ROUND:\n"
  "  and.b32 %r8, %r7, 1;\n"
  "  @!%p2 bra $CONSUMER;\n"
  "  setp.eq.u32 %p4, %r7, 0;\n"
  "  @%p4 bra $FILL;\n"
  "  xor.b32 %r9, %r8, 1;\n"
  "$WAIT_EMPTY:\n"
  "  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r4], %r9;\n"
  "  @!%p5 bra $WAIT_EMPTY;\n"
  "$FILL:\n"
  "  shl.b32 %r10, %r7, 5;\n"
  "  add.u32 %r10, %r10, %r2;\n"
  "  mul.wide.u32 %rd3, %r10, 4;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.u32 %r11, [%rd4];\n"
  "  mad.lo.u32 %r11, %r11, 3, %r7;\n"
  "  st.shared.u32 [%r6], %r11;\n"
  "  @%p3 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r3], 128;\n"
  "  mbarrier.arrive.release.cta.shared::cta.b64 %rd5, [%r3];\n"
  "  mbarrier.pending_count.b64 %r12, %rd5;\n"
  "  add.s64 %rd6, %rd2, %rd3;\n"
  "  st.global.u32 [%rd6+512], %r12;\n"
  "  @%p3 mbarrier.complete_tx.shared::cta.b64 [%r3], 128;\n"
  "  bra.uni $NEXT;\n"
  "$CONSUMER:\n"
  "  mbarrier.test_wait.parity.shared::cta.b64 %p5, [%r3], %r8;\n"
  "  @!%p5 bra $CONSUMER;\n"
  "  ld.shared.u32 %r11, [%r6];\n"
  "  shl.b32 %r10, %r7, 5;\n"
  "  add.u32 %r10, %r10, %r2;\n"
  "  mul.wide.u32 %rd3, %r10, 4;\n"
  "  add.s64 %rd6, %rd2, %rd3;\n"
  "  st.global.u32 [%rd6], %r11;\n"
  "  mbarrier.arrive.shared::cta.b64 _, [%r4];\n"
  "$NEXT:\n"
  "  add.u32 %r7, %r7, 1;\n"
  "  setp.lt.u32 %p4, %r7, 4;\n"
  "  @%p4 bra $ROUND;\n"
  "  ret;\n"
  "}\n";

static void
test_mbarrier_pipeline (void)
{
  Run r = { 0 };
  uint32_t in[128];
  const uint32_t *out;
  g_autofree char *spec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_random_int ();
  spec = io_spec ("k", 64, in, G_N_ELEMENTS (in), 256);
  run_start (&r, pipeline_ptx, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t round = 0; round < 4; round++)
    for (uint32_t lane = 0; lane < 32; lane++)
      {
        uint32_t i = round * 32 + lane;

        /* what the producer wrote that round, not an older or newer one */
        g_assert_cmphex (out[i], ==, in[i] * 3 + round);
        /* lanes arrive lowest first: lane l finds 32 - l arrivals pending */
        g_assert_cmpuint (out[128 + i], ==, 32 - lane);
      }
  /* The mbarriers order the two warps' accesses to buf: no race */
  {
    uint32_t n_hazards;
    const KsSimHazard *h = ks_sim_get_hazards (r.sim, &n_hazards);

    for (uint32_t i = 0; i < n_hazards; i++)
      g_test_message ("hazard %s between instructions %u and %u at 0x%x",
                      ks_sim_hazard_kind_name (h[i].kind), h[i].first_insn, h[i].second_insn,
                      h[i].address);
    g_assert_cmpuint (n_hazards, ==, 0);
  }
  run_clear (&r);
}

/* nvcc's cuda::memcpy_async with a cuda::barrier (the corpus's
 * 16_cp_async.cu): out[b * 256 + t] = 2 in[b * 256 + 255 - t], through
 * cp.async, cp.async.mbarrier.arrive, mbarrier.arrive and a test_wait loop
 * with a nanosleep back-off. */
static void
test_mbarrier_memcpy_async (void)
{
  Run r = { 0 };
  int32_t in[512];
  const int32_t *out;
  g_autofree char *hin = NULL, *spec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_random_int_range (-1000000, 1000000);
  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z20memcpy_async_barrierPKiPii\","
                          " \"grid\": [2], \"block\": [256],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"s32\", \"count\": 512}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"},"
                          " {\"type\": \"s32\", \"value\": 512}]}", hin);
  r.module = test_ptx_file ("corpus", "sm_80", "16_cp_async.ptx");
  run_start (&r, NULL, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  for (int b = 0; b < 2; b++)
    for (int t = 0; t < 256; t++)
      g_assert_cmpint (out[b * 256 + t], ==, in[b * 256 + 255 - t] * 2);
  /* the copies land at cp.async.mbarrier.arrive, and the reads come after
   * the phase completes: no race */
  {
    uint32_t n;

    ks_sim_get_hazards (r.sim, &n);
    g_assert_cmpuint (n, ==, 0);
  }

  /* The blocks on two threads, each with its own mbarriers */
  {
    g_autoptr(GError) error = NULL;
    KsSim *sim = ks_sim_new (r.module, r.launch, &error);
    const int32_t *out2;

    g_assert_no_error (error);
    ks_sim_set_trace (sim, FALSE, 0);
    ks_sim_set_threads (sim, 2);
    g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
    out2 = (const int32_t *) ks_sim_get_buffer (sim, (uint32_t) ks_launch_find_buffer (r.launch, "out"),
                                                NULL);
    g_assert_cmpmem (out2, 512 * sizeof (int32_t), out, 512 * sizeof (int32_t));
    ks_sim_free (sim);
  }
  run_clear (&r);
}

/* nvcc's double-buffered __pipeline_memcpy_async loop (the corpus's
 * 16_cp_async.cu, pipeline_copy): tile t + 1 is copied into the other
 * buffer while tile t is read, after __pipeline_wait_prior(1) and
 * __syncthreads(); out[t * 128 + x] is in[t * 128 + (x + 1) % 128] with
 * its four floats reversed.  No race, on one thread or two.  With
 * wait_prior(2) instead (cp.async.wait_group 2) nothing is waited for
 * before tile t is read: a read of bytes in flight. */
static void
test_cp_async_pipeline_races (void)
{
  Run r = { 0 };
  float in[4 * 128 * 4];
  const float *out;
  g_autofree char *hin = NULL, *spec = NULL, *path = NULL, *text = NULL, *racy = NULL;
  g_auto(GStrv) parts = NULL;
  g_autoptr(GError) error = NULL;
  const KsSimHazard *h;
  gboolean raw = FALSE;
  uint32_t n;

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = (float) i;
  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z13pipeline_copyPK6float4PS_i\","
                          " \"grid\": [2], \"block\": [128],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"f32\", \"count\": 2048}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"},"
                          " {\"type\": \"s32\", \"value\": 4}]}", hin);
  r.module = test_ptx_file ("corpus", "sm_80", "16_cp_async.ptx");
  run_start (&r, NULL, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  for (int t = 0; t < 4; t++)
    for (int x = 0; x < 128; x++)
      for (int k = 0; k < 4; k++)
        g_assert_cmpfloat (out[(t * 128 + x) * 4 + k], ==,
                           in[(t * 128 + (x + 1) % 128) * 4 + 3 - k]);
  ks_sim_get_hazards (r.sim, &n);
  g_assert_cmpuint (n, ==, 0);
  run_clear (&r);

  /* the same on two threads, with the trace */
  r.module = test_ptx_file ("corpus", "sm_80", "16_cp_async.ptx");
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_set_threads (r.sim, 2);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_DONE);
  ks_sim_get_hazards (r.sim, &n);
  g_assert_cmpuint (n, ==, 0);
  run_clear (&r);

  path = g_test_build_filename (G_TEST_DIST, "ptx", "corpus", "sm_80", "16_cp_async.ptx", NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  parts = g_strsplit (text, "cp.async.wait_group 1;", -1);
  g_assert_cmpuint (g_strv_length (parts), >, 1);
  racy = g_strjoinv ("cp.async.wait_group 2;", parts);
  r.module = text_module (racy);
  run_start (&r, NULL, spec);
  assert_done (&r);
  h = ks_sim_get_hazards (r.sim, &n);
  g_assert_cmpuint (n, >, 0);
  for (uint32_t i = 0; i < n; i++)
    {
      const KsPtxInsn *first = &r.module->insns[h[i].first_insn];
      const KsPtxInsn *second = &r.module->insns[h[i].second_insn];

      g_test_message ("%s: line %u (thread %u) and line %u (thread %u), %" G_GUINT64_FORMAT
                      " times", ks_sim_hazard_kind_name (h[i].kind), first->line,
                      h[i].first_thread, second->line, h[i].second_thread, h[i].count);
      /* a copy in flight, then the read of the neighbour's slot (4 words
       * of 128 threads in 2 blocks), or a copy of tile t + 2 into the same
       * slot: three tiles in flight over two buffers */
      g_assert_cmpuint (first->opcode, ==, KS_PTX_OPC_CP);
      g_assert_cmpuint (h[i].count, ==, 4 * 128 * 2);
      if (h[i].kind == KS_HAZARD_RAW)
        {
          raw = TRUE;
          g_assert_cmpuint (second->opcode, ==, KS_PTX_OPC_LD);
          g_assert_cmpuint (h[i].second_thread, ==, (h[i].first_thread + 127) % 128);
        }
      else
        {
          g_assert_cmpint (h[i].kind, ==, KS_HAZARD_WAW);
          g_assert_cmpuint (second->opcode, ==, KS_PTX_OPC_CP);
          g_assert_cmpuint (h[i].second_thread, ==, h[i].first_thread);
        }
    }
  g_assert_true (raw);
  run_clear (&r);
}

#define MBAR_HEADER \
  ".version 8.0\n.target sm_90\n.address_size 64\n" \
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n" \
  "{\n" \
  "  .reg .pred %p<4>;\n" \
  "  .reg .b32 %r<16>;\n" \
  "  .reg .b64 %rd<16>;\n" \
  "  .shared .align 8 .b64 bar[2];\n" \
  "  ld.param.u64 %rd1, [p_in];\n" \
  "  mov.u32 %r1, %tid.x;\n"                  /* line 11 */ \
  "  mov.u32 %r7, bar;\n"                     /* line 12; the body starts at 13 */

static void
run_mbar (const char     *body,
          guint           block,
          KsSimFaultKind  kind,
          uint32_t        line,
          const char     *fragment)
{
  run_expect (MBAR_HEADER, body, block, kind, line, fragment);
}

/* Waits that can never end are deadlock faults at the wait, and a wait
 * that other warps end is not. */
static void
test_mbarrier_deadlock (void)
{
  /* 64 arrivals expected, the one warp gives 32: try_wait.parity spins */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 64;\n"
            "  mbarrier.arrive.shared::cta.b64 %rd2, [%r7];\n"
            "$W:\n"
            "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"        /* 16 */
            "  @!%p1 bra $W;\n",
            32, KS_SIM_FAULT_DEADLOCK, 16, "no other warp can complete it");
  /* the second warp exits without arriving; test_wait with the state */
  run_mbar ("  setp.ge.u32 %p2, %r1, 32;\n"
            "  @%p2 bra $END;\n"
            "  mbarrier.init.shared::cta.b64 [%r7], 64;\n"
            "  mbarrier.arrive.shared::cta.b64 %rd2, [%r7];\n"
            "$W:\n"
            "  mbarrier.test_wait.shared::cta.b64 %p1, [%r7], %rd2;\n"            /* 18 */
            "  @!%p1 bra $W;\n"
            "$END:\n",
            64, KS_SIM_FAULT_DEADLOCK, 18, "0x0 (phase parity 0, 32 of 64 arrivals");
  /* the arrivals are all in, but 16 bytes of tx-count never complete */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 32;\n"
            "  mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r7], 16;\n"
            "$W:\n"
            "  mbarrier.try_wait.shared::cta.b64 %p1, [%r7], %rd2;\n"             /* 16 */
            "  @!%p1 bra $W;\n",
            32, KS_SIM_FAULT_DEADLOCK, 16, "a tx-count of 512 pending");
  /* the other warp waits at bar.sync for the waiting one */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 64;\n"
            "  setp.ge.u32 %p2, %r1, 32;\n"
            "  @%p2 bra $B;\n"
            "$W:\n"
            "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"        /* 17 */
            "  @!%p1 bra $W;\n"
            "$B:\n"
            "  bar.sync 0;\n"
            "  mbarrier.arrive.shared::cta.b64 _, [%r7];\n",
            64, KS_SIM_FAULT_DEADLOCK, 17, "wait at a barrier");
  /* lanes 0-15 wait for lanes 16-31 of their own warp, which the SIMT
   * stack runs only after the waiting path */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 16;\n"
            "  setp.lt.u32 %p2, %r1, 16;\n"
            "  @%p2 bra $W;\n"
            "  mbarrier.arrive.shared::cta.b64 _, [%r7];\n"
            "  bra.uni $E;\n"
            "$W:\n"
            "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"        /* 19 */
            "  @!%p1 bra $W;\n"
            "$E:\n",
            32, KS_SIM_FAULT_DEADLOCK, 19, "lanes 0xffff0000 of the same warp wait to reconverge");
  /* the same, but the arrivals come before bar.sync: no deadlock; warp 0
   * polls two mbarriers in turn, the first of which is done at once */
  run_mbar ("  add.u32 %r8, %r7, 8;\n"
            "  setp.ne.u32 %p3, %r1, 0;\n"
            "  @%p3 bra $I;\n"
            "  mbarrier.init.shared::cta.b64 [%r7], 32;\n"
            "  mbarrier.init.shared::cta.b64 [%r8], 1;\n"
            "  mbarrier.arrive.shared::cta.b64 _, [%r8];\n"
            "$I:\n"
            "  bar.sync 0;\n"
            "  setp.ge.u32 %p2, %r1, 32;\n"
            "  @%p2 bra $B;\n"
            "$W:\n"
            "  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r8], 0;\n"
            "  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"
            "  @!%p1 bra $W;\n"
            "  bra.uni $E;\n"
            "$B:\n"
            "  mbarrier.arrive.shared::cta.b64 _, [%r7];\n"
            "$E:\n"
            "  bar.sync 0;\n",
            64, KS_SIM_FAULT_NONE, 0, NULL);
}

static void
test_mbarrier_faults (void)
{
  /* never initialized, and invalidated */
  run_mbar ("  mbarrier.arrive.shared::cta.b64 %rd2, [%r7];\n",                    /* 13 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "never initialized");
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 32;\n"
            "  mbarrier.inval.shared::cta.b64 [%r7];\n"
            "  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n",       /* 15 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 15, "was invalidated");
  /* misaligned, outside shared memory, in global memory */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7+4], 32;\n",                      /* 13 */
            32, KS_SIM_FAULT_MISALIGNED, 13, "misaligned 8-byte shared access");
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7+16], 32;\n",                     /* 13 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "16 bytes of shared memory");
  run_mbar ("  mbarrier.init.b64 [%rd1], 32;\n",                                   /* 13 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "is not in shared memory");
  /* a generic address of the mbarrier works */
  run_mbar ("  cvta.shared.u64 %rd2, bar;\n"
            "  mbarrier.init.b64 [%rd2], 32;\n"
            "  mbarrier.arrive.b64 %rd3, [%rd2];\n"
            "  mbarrier.test_wait.b64 %p1, [%rd2], %rd3;\n"
            "  @!%p1 trap;\n",
            32, KS_SIM_FAULT_NONE, 0, NULL);
  /* more arrivals than pending: 32 lanes arriving with count 2 on 47
   * expected leave lane 23 with 1 pending */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 47;\n"
            "  mbarrier.arrive.shared::cta.b64 %rd2, [%r7], 2;\n",                 /* 14 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 14, "more arrivals than the current phase");
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 0;\n",                         /* 13 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "a count outside 1 to 2^20 - 1");
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 32;\n"
            "  mbarrier.arrive.noComplete.shared::cta.b64 %rd2, [%r7], 1;\n",      /* 14 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 14, ".noComplete arrival");
  /* cp.async.mbarrier.arrive.noinc counts as an arrival, without .noinc
   * it does not */
  run_mbar ("  mbarrier.init.shared::cta.b64 [%r7], 32;\n"
            "  cp.async.mbarrier.arrive.shared.b64 [%r7];\n"
            "  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"
            "  @%p1 trap;\n"
            "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r7];\n"
            "  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"
            "  @!%p1 trap;\n",
            32, KS_SIM_FAULT_NONE, 0, NULL);
}

/* ---- cp.async.bulk ---------------------------------------------------------------------------- */

/* The TMA-less bulk copies as CUTLASS-style code uses them: thread 0 expects
 * 1024 bytes on an mbarrier and copies in[0..255] into a shared tile; the
 * block waits on the phase, adds 1 to every element, and thread 0 copies
 * the tile to out and adds it into in[256..511]. */
static const char bulk_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n"
  "{\n"
  "  .reg .pred %p<4>;\n"
  "  .reg .b32 %r<16>;\n"
  "  .reg .b64 %rd<8>;\n"
  "  .shared .align 8 .b64 bar;\n"
  "  .shared .align 128 .b8 tile[1024];\n"
  "  ld.param.u64 %rd1, [p_in];\n"
  "  ld.param.u64 %rd2, [p_out];\n"
  "  cvta.to.global.u64 %rd1, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, bar;\n"
  "  mov.u32 %r3, tile;\n"
  "  setp.eq.u32 %p1, %r1, 0;\n"
  "  @!%p1 bra $INIT_DONE;\n"
  "  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
  "  fence.mbarrier_init.release.cluster;\n"
  "  fence.proxy.async.shared::cta;\n"
  "$INIT_DONE:\n"
  "  bar.sync 0;\n"
  "  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 1024;\n"
  "  @%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 1024, [%r2];\n"
  "$WAIT:\n"
  "  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;\n"
  "  @!%p2 bra $WAIT;\n"
  "  shl.b32 %r4, %r1, 4;\n"
  "  add.u32 %r5, %r3, %r4;\n"
  "  ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r5];\n"
  "  add.u32 %r6, %r6, 1;\n"
  "  add.u32 %r7, %r7, 1;\n"
  "  add.u32 %r8, %r8, 1;\n"
  "  add.u32 %r9, %r9, 1;\n"
  "  st.shared.v4.u32 [%r5], {%r6, %r7, %r8, %r9};\n"
  "  fence.proxy.async.shared::cta;\n"
  "  bar.sync 0;\n"
  "  @!%p1 bra $END;\n"
  "  cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r3], 1024;\n"
  "  add.s64 %rd3, %rd1, 1024;\n"
  "  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [%r3], 1024;\n"
  "  cp.async.bulk.commit_group;\n"
  "  cp.async.bulk.wait_group.read 0;\n"
  "  cp.async.bulk.prefetch.L2.global [%rd1], 1024;\n"
  "$END:\n"
  "  ret;\n"
  "}\n";

static void
test_bulk_copy (void)
{
  Run r = { 0 };
  uint32_t in[512];
  const uint32_t *out, *in_after;
  g_autofree char *spec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = g_random_int ();
  spec = io_spec ("k", 64, in, G_N_ELEMENTS (in), 256);
  run_start (&r, bulk_ptx, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  in_after = buffer (&r, "in");
  for (guint i = 0; i < 256; i++)
    {
      g_assert_cmphex (out[i], ==, in[i] + 1);
      g_assert_cmphex (in_after[i], ==, in[i]);
      g_assert_cmphex (in_after[256 + i], ==, in[256 + i] + in[i] + 1);
    }
  run_clear (&r);
}

/* nvcc's code for cuda::memcpy_async of 4 KiB with a cuda::barrier on
 * sm_90 (a bulk copy that completes on the barrier's mbarrier, issued
 * before its expect-tx) and ptx::cp_async_bulk back to global memory
 * (tests/ptx/sim/bulk_copy.cu): every element of each block's 1024 ends
 * up one larger. */
static void
test_bulk_copy_nvcc (void)
{
  Run r = { 0 };
  int32_t data[2048];
  const int32_t *out;
  g_autofree char *hdata = NULL, *spec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (data); i++)
    data[i] = g_random_int_range (-1000000, 1000000);
  hdata = hex_of (data, sizeof data);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [2], \"block\": [128],"
                          " \"buffers\": {\"data\": {\"bytes_hex\": \"%s\"}},"
                          " \"params\": [{\"buffer\": \"data\"}]}", hdata);
  r.module = test_ptx_file ("sim", "sm_90", "bulk_copy.ptx");
  run_start (&r, NULL, spec);
  assert_done (&r);
  out = buffer (&r, "data");
  for (guint i = 0; i < G_N_ELEMENTS (data); i++)
    g_assert_cmpint (out[i], ==, data[i] + 1);
  run_clear (&r);
}

#define BULK_HEADER \
  ".version 8.0\n.target sm_90\n.address_size 64\n" \
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n" \
  "{\n" \
  "  .reg .pred %p<4>;\n" \
  "  .reg .b32 %r<16>;\n" \
  "  .reg .b64 %rd<16>;\n" \
  "  .shared .align 8 .b64 bar;\n" \
  "  .shared .align 16 .b8 tile[256];\n" \
  "  ld.param.u64 %rd1, [p_in];\n" \
  "  mov.u32 %r2, bar;\n"                     /* line 12 */ \
  "  mov.u32 %r3, tile;\n"                    /* line 13 */ \
  "  mbarrier.init.shared::cta.b64 [%r2], 1;\n" /* line 14; the body starts at 15 */

static void
run_bulk (const char     *body,
          KsSimFaultKind  kind,
          uint32_t        line,
          const char     *fragment)
{
  Run r = { 0 };
  uint32_t in[64] = { 0 };     /* 256 bytes */
  g_autofree char *ptx = g_strconcat (BULK_HEADER, body, "  ret;\n}\n", NULL);
  g_autofree char *spec = io_spec ("k", 1, in, G_N_ELEMENTS (in), 64);

  run_start (&r, ptx, spec);
  assert_fault (&r, kind, line, fragment);
  run_clear (&r);
}

static void
test_bulk_faults (void)
{
  run_bulk ("  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1+8], 64, [%r2];\n",
            KS_SIM_FAULT_MISALIGNED, 15, "16-byte aligned");
  run_bulk ("  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 40, [%r2];\n",
            KS_SIM_FAULT_MISALIGNED, 15, "a multiple of 16");
  /* the buffer holds 256 bytes, the copy reads 512 into a 256-byte tile */
  run_bulk ("  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 512, [%r2];\n",
            KS_SIM_FAULT_OUT_OF_BOUNDS, 15, "the block has");
  run_bulk ("  add.u32 %r3, %r3, 128;\n"
            "  cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r3], 256;\n",
            KS_SIM_FAULT_OUT_OF_BOUNDS, 16, "shared");
  run_bulk ("  add.s64 %rd2, %rd1, 128;\n"
            "  cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r3], 256;\n",
            KS_SIM_FAULT_OUT_OF_BOUNDS, 16, "past the end of buffer");
  /* no mbarrier at tile */
  run_bulk ("  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 64, [%r3];\n",
            KS_SIM_FAULT_OUT_OF_BOUNDS, 15, "never initialized");
  /* 128 bytes expected, 64 copied: the wait never ends */
  run_bulk ("  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
            "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 64, [%r2];\n"
            "$W:\n"
            "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"          /* 18 */
            "  @!%p1 bra $W;\n",
            KS_SIM_FAULT_DEADLOCK, 18, "a tx-count of 64 pending");
  run_bulk ("  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
            " [%r3], [%rd1], 64, [%r2], 1;\n",
            KS_SIM_FAULT_UNSUPPORTED, 15, "with these qualifiers");
}

/* ---- elect.sync ------------------------------------------------------------------------------ */

/* Lanes 4-31 elect among 0xfffffff0, all lanes among -1, the odd lanes
 * (after a branch) among 0xaaaaaaaa; each lane writes what it got. */
static const char elect_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_in, .param .u64 p_out)\n"
  "{\n"
  "  .reg .pred %p<6>;\n"
  "  .reg .b32 %r<12>;\n"
  "  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p_out];\n"
  "  mov.u32 %r1, %laneid;\n"
  "  mov.u32 %r2, 99;\n"
  "  mov.u32 %r3, 99;\n"
  "  setp.ge.u32 %p3, %r1, 4;\n"
  "  @%p3 elect.sync %r2|%p1, 0xfffffff0;\n"
  "  elect.sync _|%p2, -1;\n"
  "  and.b32 %r4, %r1, 1;\n"
  "  setp.eq.u32 %p4, %r4, 0;\n"
  "  @%p4 bra $EVEN;\n"
  "  elect.sync %r3|%p5, 0xaaaaaaaa;\n"
  "$EVEN:\n"
  "  selp.u32 %r5, 1, 0, %p1;\n"
  "  selp.u32 %r6, 1, 0, %p2;\n"
  "  selp.u32 %r7, 1, 0, %p5;\n"
  "  @%p4 mov.u32 %r7, 7;\n"
  "  @!%p3 mov.u32 %r5, 7;\n"
  "  mul.wide.u32 %rd2, %r1, 32;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  st.global.v4.u32 [%rd3], {%r2, %r5, %r6, %r3};\n"
  "  st.global.u32 [%rd3+16], %r7;\n"
  "  ret;\n"
  "}\n";

static void
test_elect (void)
{
  Run r = { 0 };
  uint32_t in[1] = { 0 };
  g_autofree char *spec = io_spec ("k", 32, in, 1, 256);
  const uint32_t *out;

  run_start (&r, elect_ptx, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t lane = 0; lane < 32; lane++)
    {
      const uint32_t *o = out + 8 * lane;

      /* the lowest executing lane of each membermask leads */
      g_assert_cmpuint (o[0], ==, lane >= 4 ? 4 : 99);
      g_assert_cmpuint (o[1], ==, lane >= 4 ? lane == 4 : 7);
      g_assert_cmpuint (o[2], ==, lane == 0);
      g_assert_cmpuint (o[3], ==, lane % 2 ? 1 : 99);
      g_assert_cmpuint (o[4], ==, lane % 2 ? lane == 1 : 7);
    }
  run_clear (&r);

  run_fault ("  elect.sync %r2|%p1, 0xfffffff0;\n",                                   /* 13 */
             32, KS_SIM_FAULT_DEADLOCK, 13, "lane 0, which is not in its membermask");
}

/* A cluster is one CTA: mapa to rank 0 is the identity and an mbarrier
 * reached through it works; getctarank is 0; rank 1 does not exist. */
static void
test_cluster_map (void)
{
  run_mbar ("  mapa.shared::cluster.u32 %r8, %r7, 0;\n"
            "  setp.ne.u32 %p1, %r8, %r7;\n"
            "  @%p1 trap;\n"
            "  getctarank.shared::cluster.u32 %r9, %r8;\n"
            "  setp.ne.u32 %p1, %r9, 0;\n"
            "  @%p1 trap;\n"
            "  cvta.shared.u64 %rd2, bar;\n"
            "  mapa.u64 %rd3, %rd2, 0;\n"
            "  setp.ne.u64 %p1, %rd3, %rd2;\n"
            "  @%p1 trap;\n"
            "  mbarrier.init.shared::cta.b64 [%r7], 32;\n"
            "  mbarrier.arrive.shared::cluster.b64 _, [%r8];\n"
            "  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r7], 0;\n"
            "  @!%p1 trap;\n",
            32, KS_SIM_FAULT_NONE, 0, NULL);
  run_mbar ("  mapa.shared::cluster.u32 %r8, %r7, 1;\n",                              /* 13 */
            32, KS_SIM_FAULT_OUT_OF_BOUNDS, 13, "clusters of one CTA");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/sm90/stmatrix/kernel", test_stmatrix_kernel);
  g_test_add_func ("/sim/sm90/stmatrix/faults", test_stmatrix_faults);
  g_test_add_func ("/sim/sm90/movmatrix", test_movmatrix_kernel);
  g_test_add_func ("/sim/sm90/mma/m16n8k32-s8-satfinite", test_mma_int_kernel);
  g_test_add_func ("/sim/sm90/mma/m8n8k4-f64", test_mma_f64_kernel);
  g_test_add_func ("/sim/sm90/mbarrier/phases", test_mbarrier_phases);
  g_test_add_func ("/sim/sm90/mbarrier/pipeline", test_mbarrier_pipeline);
  g_test_add_func ("/sim/sm90/mbarrier/memcpy-async", test_mbarrier_memcpy_async);
  g_test_add_func ("/sim/sm90/cp-async-pipeline-races", test_cp_async_pipeline_races);
  g_test_add_func ("/sim/sm90/mbarrier/deadlock", test_mbarrier_deadlock);
  g_test_add_func ("/sim/sm90/mbarrier/faults", test_mbarrier_faults);
  g_test_add_func ("/sim/sm90/bulk/copy-and-reduce", test_bulk_copy);
  g_test_add_func ("/sim/sm90/bulk/nvcc-memcpy-async", test_bulk_copy_nvcc);
  g_test_add_func ("/sim/sm90/bulk/faults", test_bulk_faults);
  g_test_add_func ("/sim/sm90/elect", test_elect);
  g_test_add_func ("/sim/sm90/cluster-map", test_cluster_map);
  return g_test_run ();
}
