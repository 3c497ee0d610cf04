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

typedef struct
{
  KsPtxModule *module;
  KsLaunch *launch;
  KsSim *sim;
} Run;

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->sim, ks_sim_free);
  g_clear_pointer (&r->launch, ks_launch_free);
  g_clear_pointer (&r->module, ks_ptx_module_free);
}

static KsPtxModule *
text_module (const char *text)
{
  g_autoptr(GBytes) b = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (b, "test.ptx");

  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_test_message ("%u:%u: %s", m->diagnostics[i].line, m->diagnostics[i].column,
                    m->diagnostics[i].message);
  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

static char *
hex_of (const void *data,
        size_t      size)
{
  GString *s = g_string_sized_new (size * 2);
  const uint8_t *p = data;

  for (size_t i = 0; i < size; i++)
    g_string_append_printf (s, "%02x", p[i]);
  return g_string_free (s, FALSE);
}

static KsSimStatus
run_start (Run        *r,
           const char *ptx,
           const char *spec)
{
  g_autoptr(GError) error = NULL;

  r->module = text_module (ptx);
  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  return ks_sim_run (r->sim, 0, NULL);
}

static const void *
buffer (Run        *r,
        const char *name)
{
  int i = ks_launch_find_buffer (r->launch, name);

  g_assert_cmpint (i, >=, 0);
  return ks_sim_get_buffer (r->sim, (uint32_t) i, NULL);
}

static void
assert_done (Run *r)
{
  const KsSimFault *f = ks_sim_get_fault (r->sim);

  if (f != NULL)
    g_error ("fault: %s at PTX line %u", f->message, f->ptx_line);
  g_assert_cmpint (ks_sim_get_status (r->sim), ==, KS_SIM_DONE);
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

static void
run_fault (const char     *body,
           guint           block,
           KsSimFaultKind  kind,
           uint32_t        line,
           const char     *fragment)
{
  Run r = { 0 };
  uint32_t in[64] = { 0 };
  g_autofree char *ptx = g_strconcat (FAULT_HEADER, body, "  ret;\n}\n", NULL);
  g_autofree char *spec = io_spec ("k", block, in, G_N_ELEMENTS (in), 64);

  run_start (&r, ptx, spec);
  assert_fault (&r, kind, line, fragment);
  run_clear (&r);
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
  /* half a warp */
  run_fault ("  setp.lt.u32 %p1, %r1, 16;\n"
             "  @%p1 stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r7], {%r1};\n",          /* 14 */
             32, KS_SIM_FAULT_DEADLOCK, 14, "needs all 32 lanes");
  run_fault ("  stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r7], {%r1};\n",               /* 13 */
             16, KS_SIM_FAULT_DEADLOCK, 13, "needs all 32 lanes");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/sm90/stmatrix/kernel", test_stmatrix_kernel);
  g_test_add_func ("/sim/sm90/stmatrix/faults", test_stmatrix_faults);
  g_test_add_func ("/sim/sm90/mma/m16n8k32-s8-satfinite", test_mma_int_kernel);
  g_test_add_func ("/sim/sm90/mma/m8n8k4-f64", test_mma_f64_kernel);
  return g_test_run ();
}
