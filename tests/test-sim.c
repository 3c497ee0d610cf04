/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulator against C references: nvcc's PTX for the corpus kernels,
 * run on random inputs and compared with the same computation in plain C;
 * hand-written PTX for divergence and reconvergence, whose active masks
 * are worked out by hand; and every kind of fault, with its place. */

#include <math.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"
#include "ks-test-sim.h"
#include "ks-test-sim-compare.h"

static KsPtxModule *
corpus_module (const char *name)
{
  return test_ptx_file ("corpus", "sm_80", name);
}

/* Starts a run: the spec's "ptx" is not read (the module is given). */
static KsSimStatus
run_start (Run        *r,
           const char *spec)
{
  g_autoptr(GError) error = NULL;

  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  return ks_sim_run (r->sim, 0, NULL);
}

static void
random_floats (GRand  *rand,
               float  *out,
               guint   n)
{
  for (guint i = 0; i < n; i++)
    out[i] = (float) g_rand_double_range (rand, -100.0, 100.0);
}

/* Old PTX as nvopencc wrote it (ISA 2.x): no .address_size, a function
 * declared without ';' before the next directive, $-labels, exit.  ptxas 13
 * accepts it (checked: `ptxas -arch=sm_80` on this text), so it parses and
 * runs: out[i] = i * i for i < n, against the same in C. */
static const char old_ptx[] =
  "\t.version 2.1\n"
  "\t.target sm_20\n"
  "\t.extern\t.func (.param .b32 __cudaretf__Z6squaref) _Z6squaref (.param .b32 __cudaparmf1__Z6squaref)\n"
  "\n"
  "\t.entry _Z6kernelPfi (\n"
  "\t\t.param .u64 __cudaparm__Z6kernelPfi_out,\n"
  "\t\t.param .s32 __cudaparm__Z6kernelPfi_n)\n"
  "\t{\n"
  "\t.reg .u32 %r<5>;\n"
  "\t.reg .u64 %rd<5>;\n"
  "\t.reg .f32 %f<3>;\n"
  "\t.reg .pred %p<3>;\n"
  "$LDWbegin__Z6kernelPfi:\n"
  "\tmov.u32 \t%r1, %tid.x;\n"
  "\tld.param.s32 \t%r2, [__cudaparm__Z6kernelPfi_n];\n"
  "\tsetp.le.s32 \t%p1, %r2, %r1;\n"
  "\t@%p1 bra \t$Lt_0_1026;\n"
  "\tcvt.rn.f32.u32 \t%f1, %r1;\n"
  "\tmul.f32 \t%f2, %f1, %f1;\n"
  "\tld.param.u64 \t%rd1, [__cudaparm__Z6kernelPfi_out];\n"
  "\tcvt.u64.u32 \t%rd2, %r1;\n"
  "\tmul.lo.u64 \t%rd3, %rd2, 4;\n"
  "\tadd.u64 \t%rd4, %rd1, %rd3;\n"
  "\tst.global.f32 \t[%rd4+0], %f2;\n"
  "$Lt_0_1026:\n"
  "\texit;\n"
  "$LDWend__Z6kernelPfi:\n"
  "\t} // _Z6kernelPfi\n";

/* redux.sync with a membermask that differs per lane, as cooperative
 * groups' labeled_partition + cg::reduce make it: each lane's bucket is
 * in[i] % 3, its mask the lanes of the same bucket (match.any.sync), and
 * every lane gets the maximum of its own bucket, checked against C. */
static void
test_redux_partition (void)
{
  Run r = { 0 };
  const char *ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n  add.u64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n  rem.u32 %r3, %r2, 3;\n"
    "  match.any.sync.b32 %r4, %r3, 0xffffffff;\n"
    "  redux.sync.max.u32 %r5, %r2, %r4;\n"
    "  st.global.u32 [%rd5], %r5;\n  ret;\n}\n";
  uint32_t in[32], ref[32];
  g_autofree char *hin = NULL, *spec = NULL;
  GRand *rand = g_rand_new_with_seed (11);

  for (int i = 0; i < 32; i++)
    in[i] = g_rand_int_range (rand, 0, 1000);
  g_rand_free (rand);
  for (int i = 0; i < 32; i++)
    {
      ref[i] = 0;
      for (int j = 0; j < 32; j++)
        if (in[j] % 3 == in[i] % 3)
          ref[i] = MAX (ref[i], in[j]);
    }
  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u32\", \"count\": 32}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}", hin);
  r.module = text_module (ptx);
  run_start (&r, spec);
  assert_done (&r);
  g_assert_cmpmem (buffer (&r, "out"), sizeof ref, ref, sizeof ref);
  run_clear (&r);

  /* A mask that leaves a member's own lane out is a fault, not a value */
  r.module = text_module (
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .u32 %r<4>;\n  .reg .u64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  redux.sync.add.u32 %r2, %r1, 1;\n"
    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n");
  g_assert_cmpint (run_start (&r, spec), ==, KS_SIM_FAULTED);
  g_assert_nonnull (strstr (ks_sim_get_fault (r.sim)->message, "not in its membermask"));
  run_clear (&r);
}

/* cooperative groups' 64- and 128-thread tiles (tests/ptx/sim/cg_tiles.cu,
 * nvcc 13 for sm_80): their barriers and exchange slots live in the shared
 * memory reserved for system software (%reserved_smem_offset_1), which the
 * kernel does not declare.  Each 64-thread tile's sum and each 128-thread
 * tile's maximum, on one thread and on four, checked against C. */
static void
test_cg_reserved_smem (void)
{
  enum { BLOCK = 256, BLOCKS = 24, N = BLOCK * BLOCKS };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "ptx", "sim", "sm_80",
                                                 "cg_tiles.ptx", NULL);
  g_autofree char *spec = NULL;
  int32_t *in = g_new (int32_t, N);
  int32_t sums[N / 64], maxes[N / 128];
  GRand *rand = g_rand_new_with_seed (5);
  g_autoptr(GError) error = NULL;
  g_autofree char *hin = NULL;

  for (int i = 0; i < N; i++)
    in[i] = g_rand_int_range (rand, -100000, 100000);
  g_rand_free (rand);
  for (int t = 0; t < N / 64; t++)
    {
      sums[t] = 0;
      for (int i = 0; i < 64; i++)
        sums[t] += in[t * 64 + i];
    }
  for (int t = 0; t < N / 128; t++)
    {
      maxes[t] = G_MININT32;
      for (int i = 0; i < 128; i++)
        maxes[t] = MAX (maxes[t], in[t * 128 + i]);
    }
  hin = hex_of (in, N * sizeof *in);
  spec = g_strdup_printf ("{\"ptx\": \"cg_tiles.ptx\", \"grid\": [%d], \"block\": [%d],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"sums\": {\"type\": \"s32\", \"count\": %d},"
                          " \"maxes\": {\"type\": \"s32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"sums\"},"
                          " {\"buffer\": \"maxes\"}]}", BLOCKS, BLOCK, hin, N / 64, N / 128);
  for (guint threads = 1; threads <= 4; threads += 3)
    {
      Run r = { 0 };

      r.module = ks_ptx_module_parse_file (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (r.module->n_errors, ==, 0);
      r.launch = ks_launch_parse (spec, -1, NULL, &error);
      g_assert_no_error (error);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      ks_sim_set_threads (r.sim, threads);
      ks_sim_run (r.sim, 0, NULL);
      assert_done (&r);
      g_assert_cmpmem (buffer (&r, "sums"), sizeof sums, sums, sizeof sums);
      g_assert_cmpmem (buffer (&r, "maxes"), sizeof maxes, maxes, sizeof maxes);
      run_clear (&r);
    }
  g_free (in);
}

/* The reserved region is not the kernel's: an overrun of the kernel's own
 * shared memory still faults, and the region has its size and no more */
static void
test_reserved_smem_bounds (void)
{
  static const char *const cases[][2] = {
    /* one past the block's 64 bytes */
    { "  st.shared.u32 [buf+64], %r1;\n", "the block has 64 bytes of shared memory" },
    /* one word past the reserved region's end */
    { "  mov.u32 %r2, %reserved_smem_offset_end;\n  st.shared.u32 [%r2], %r1;\n",
      "the block has 64 bytes of shared memory" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run r = { 0 };
      g_autofree char *ptx = g_strdup_printf (
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "  .reg .u32 %%r<4>;\n  .shared .align 4 .b8 buf[64];\n"
        "  mov.u32 %%r1, %%tid.x;\n%s  ret;\n}\n", cases[i][0]);

      r.module = text_module (ptx);
      g_assert_cmpint (run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                                      " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 1}},"
                                      " \"params\": [{\"buffer\": \"out\"}]}"),
                       ==, KS_SIM_FAULTED);
      g_assert_nonnull (strstr (ks_sim_get_fault (r.sim)->message, cases[i][1]));
      run_clear (&r);
    }
}

/* The functions a launch may run, as the call graph written here says:
 * k1 calls f1, which calls f2; the table holds f3's address; k2 and f4
 * are someone else's.  A kernel that calls through a register may run
 * anything.  The launch still runs right (f1 + f2 + f3 = 1 + 2 + 3). */
static const char reach_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".func (.param .b32 r) f2 () { st.param.b32 [r], 2; ret; }\n"
  ".func (.param .b32 r) f3 () { st.param.b32 [r], 3; ret; }\n"
  ".func (.param .b32 r) f4 () { st.param.b32 [r], 4; ret; }\n"
  ".global .align 8 .u64 table[1] = {f3};\n"
  ".func (.param .b32 r) f1 ()\n{\n  .reg .b32 %r<4>;\n"
  "  { .param .b32 t; call.uni (t), f2, (); ld.param.b32 %r1, [t]; }\n"
  "  add.u32 %r1, %r1, 1;\n  st.param.b32 [r], %r1;\n  ret;\n}\n"
  ".visible .entry k1 (.param .u64 out)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  { .param .b32 t; call.uni (t), f1, (); ld.param.b32 %r1, [t]; }\n"
  "  ld.global.u64 %rd1, [table];\n"
  "  { .param .b32 t; prototype: .callprototype (.param .b32 _) _ ();\n"
  "    call (t), %rd1, (), prototype; ld.param.b32 %r2, [t]; }\n"
  "  add.u32 %r1, %r1, %r2;\n"
  "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd2, %rd2;\n"
  "  st.global.u32 [%rd2], %r1;\n  ret;\n}\n"
  ".visible .entry k2 (.param .u64 out)\n{\n  .reg .b32 %r<4>;\n"
  "  { .param .b32 t; call.uni (t), f4, (); ld.param.b32 %r1, [t]; }\n  ret;\n}\n"
  ".visible .entry k3 (.param .u64 out)\n{\n  .reg .b32 %r<4>;\n"
  "  { .param .b32 t; call.uni (t), f2, (); ld.param.b32 %r1, [t]; }\n  ret;\n}\n";

static uint32_t
function_named (const KsPtxModule *m,
                const char        *name)
{
  for (uint32_t i = 0; i < m->n_functions; i++)
    if (ks_ptx_span_equal (m, m->functions[i].name, name))
      return i;
  g_error ("no function %s", name);
}

static void
test_reachable_functions (void)
{
  static const char *const names[] = { "f1", "f2", "f3", "f4", "k1", "k2", "k3" };
  /* k1 through its table call reaches everything; k3 reaches f2 only */
  static const gboolean by_k1[] = { TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE };
  static const gboolean by_k3[] = { FALSE, TRUE, TRUE, FALSE, FALSE, FALSE, TRUE };
  Run r = { 0 };

  r.module = text_module (reach_ptx);
  g_assert_cmpint (run_start (&r, "{\"ptx\": \"x.ptx\", \"kernel\": \"k1\", \"grid\": [1], \"block\": [1], "
                              "\"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 1}}, "
                              "\"params\": [{\"buffer\": \"out\"}]}"), ==, KS_SIM_DONE);
  g_assert_cmpuint (*(const uint32_t *) buffer (&r, "out"), ==, 3 + 3);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (ks_sim_may_run_function (r.sim, function_named (r.module, names[i])), ==,
                     by_k1[i]);
  g_clear_pointer (&r.sim, ks_sim_free);
  g_clear_pointer (&r.launch, ks_launch_free);

  g_assert_cmpint (run_start (&r, "{\"ptx\": \"x.ptx\", \"kernel\": \"k3\", \"grid\": [1], \"block\": [1], "
                              "\"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 1}}, "
                              "\"params\": [{\"buffer\": \"out\"}]}"), ==, KS_SIM_DONE);
  /* (f3: the table's initializer names it, whichever kernel runs) */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (ks_sim_may_run_function (r.sim, function_named (r.module, names[i])), ==,
                     by_k3[i]);
  run_clear (&r);
}

static void
test_old_ptx (void)
{
  Run r = { 0 };
  const float *out;
  float ref[64];

  r.module = text_module (old_ptx);
  g_assert_cmpuint (r.module->n_functions, ==, 2);
  run_start (&r, "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z6kernelPfi\", \"grid\": [1], \"block\": [64],"
                 " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 64}},"
                 " \"params\": [{\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": 50}]}");
  assert_done (&r);
  for (int i = 0; i < 64; i++)
    ref[i] = i < 50 ? (float) i * (float) i : 0.0f;
  out = buffer (&r, "out");
  g_assert_cmpmem (out, sizeof ref, ref, sizeof ref);
  run_clear (&r);
}

static void
test_vector_add (void)
{
  Run r = { 0 };
  enum { N = 1000 };
  float a[N], b[N], c_ref[N];
  const float *c;
  GRand *rand = g_rand_new_with_seed (7);
  g_autofree char *ha = NULL, *hb = NULL, *spec = NULL;

  random_floats (rand, a, N);
  random_floats (rand, b, N);
  g_rand_free (rand);
  for (guint i = 0; i < N; i++)
    c_ref[i] = a[i] + b[i];

  ha = hex_of (a, sizeof a);
  hb = hex_of (b, sizeof b);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                          " \"grid\": [4], \"block\": [256],"
                          " \"buffers\": {\"a\": {\"bytes_hex\": \"%s\"}, \"b\": {\"bytes_hex\": \"%s\"},"
                          " \"c\": {\"type\": \"f32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                          " {\"type\": \"s32\", \"value\": %d}]}", ha, hb, N, N);
  r.module = corpus_module ("01_vector_add.ptx");
  run_start (&r, spec);
  assert_done (&r);
  c = buffer (&r, "c");
  g_assert_cmpmem (c, sizeof c_ref, c_ref, sizeof c_ref);
  /* 4 blocks x 8 warps: every warp runs the index computation */
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->warp_instructions, >, 32 * 5);
  run_clear (&r);
}

static void
test_saxpy_grid_stride (void)
{
  Run r = { 0 };
  enum { N = 3000 };
  float x[N], y[N], y_ref[N];
  const float alpha = 1.75f;
  const float *y_out;
  GRand *rand = g_rand_new_with_seed (11);
  g_autofree char *hx = NULL, *hy = NULL, *spec = NULL;

  random_floats (rand, x, N);
  random_floats (rand, y, N);
  g_rand_free (rand);
  /* nvcc contracts alpha * x + y into one fused multiply-add */
  for (guint i = 0; i < N; i++)
    y_ref[i] = fmaf (alpha, x[i], y[i]);

  hx = hex_of (x, sizeof x);
  hy = hex_of (y, sizeof y);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z5saxpyifPKfPf\","
                          " \"grid\": [3], \"block\": [128],"
                          " \"buffers\": {\"x\": {\"bytes_hex\": \"%s\"}, \"y\": {\"bytes_hex\": \"%s\"}},"
                          " \"params\": [{\"type\": \"s32\", \"value\": %d}, {\"type\": \"f32\", \"value\": 1.75},"
                          " {\"buffer\": \"x\"}, {\"buffer\": \"y\"}]}", hx, hy, N);
  r.module = corpus_module ("01_vector_add.ptx");
  run_start (&r, spec);
  assert_done (&r);
  y_out = buffer (&r, "y");
  g_assert_cmpmem (y_out, sizeof y_ref, y_ref, sizeof y_ref);
  run_clear (&r);
}

/* The tree of 03_reduce_shared.cu, summed in the same order in C */
static float
reduce_block_ref (const float *in,
                  int          n,
                  unsigned     block,
                  unsigned     bdim)
{
  float s[256];

  for (unsigned tid = 0; tid < bdim; tid++)
    {
      unsigned i = block * bdim * 2 + tid;
      float v = 0.0f;

      if ((int) i < n)
        v += in[i];
      if ((int) (i + bdim) < n)
        v += in[i + bdim];
      s[tid] = v;
    }
  for (unsigned st = bdim / 2; st > 32; st >>= 1)
    for (unsigned tid = 0; tid < st; tid++)
      s[tid] += s[tid + st];
  /* the warp-synchronous tail: each step reads the previous step's values
   * of every lane, as the lanes of one warp execute in lockstep */
  for (unsigned off = 32; off >= 1; off >>= 1)
    {
      float t[32];

      for (unsigned tid = 0; tid < 32; tid++)
        t[tid] = s[tid] + s[tid + off];
      memcpy (s, t, sizeof t);
    }
  return s[0];
}

static void
test_reduce_shared (void)
{
  Run r = { 0 };
  enum { N = 2000, BLOCKS = 4, BDIM = 256 };
  float in[N], ref[BLOCKS];
  const float *out;
  GRand *rand = g_rand_new_with_seed (3);
  g_autofree char *hin = NULL, *spec = NULL;

  random_floats (rand, in, N);
  g_rand_free (rand);
  for (unsigned b = 0; b < BLOCKS; b++)
    ref[b] = reduce_block_ref (in, N, b, BDIM);

  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d], \"block\": [%d],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"f32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"},"
                          " {\"type\": \"s32\", \"value\": %d}]}", BLOCKS, BDIM, hin, BLOCKS, N);
  r.module = corpus_module ("03_reduce_shared.ptx");
  run_start (&r, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  g_assert_cmpmem (out, sizeof ref, ref, sizeof ref);
  run_clear (&r);
}

static void
test_matmul_tiled (void)
{
  Run r = { 0 };
  enum { N = 48 };              /* three tiles of 16 */
  float a[N * N], b[N * N], ref[N * N];
  const float *c;
  GRand *rand = g_rand_new_with_seed (5);
  g_autofree char *ha = NULL, *hb = NULL, *spec = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "22-matmul-tiled", "matmul_tiled.ptx", NULL);
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < N * N; i++)
    {
      a[i] = (float) g_rand_double_range (rand, -1.0, 1.0);
      b[i] = (float) g_rand_double_range (rand, -1.0, 1.0);
    }
  g_rand_free (rand);
  /* tile by tile, k in order, each step one fused multiply-add, as the
   * kernel's unrolled loop of fma.rn.f32 does */
  for (int row = 0; row < N; row++)
    for (int col = 0; col < N; col++)
      {
        float sum = 0.0f;

        for (int k = 0; k < N; k++)
          sum = fmaf (a[row * N + k], b[k * N + col], sum);
        ref[row * N + col] = sum;
      }

  ha = hex_of (a, sizeof a);
  hb = hex_of (b, sizeof b);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [3, 3], \"block\": [16, 16],"
                          " \"buffers\": {\"A\": {\"bytes_hex\": \"%s\"}, \"B\": {\"bytes_hex\": \"%s\"},"
                          " \"C\": {\"type\": \"f32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"A\"}, {\"buffer\": \"B\"}, {\"buffer\": \"C\"},"
                          " {\"type\": \"s32\", \"value\": %d}]}", ha, hb, N * N, N);
  r.module = ks_ptx_module_parse_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r.module->n_errors, ==, 0);
  run_start (&r, spec);
  assert_done (&r);
  c = buffer (&r, "C");
  g_assert_cmpmem (c, sizeof ref, ref, sizeof ref);
  run_clear (&r);
}

static uint64_t
factorial_ref (unsigned n)
{
  return n <= 1 ? 1 : n * factorial_ref (n - 1);
}

static int
fib_ref (int n)
{
  return n < 2 ? n : fib_ref (n - 1) + fib_ref (n - 2);
}

static int
depth_sum_ref (const int *tree,
               int        node,
               int        n,
               int        depth)
{
  if (node >= n)
    return 0;
  return tree[node] * depth + depth_sum_ref (tree, 2 * node + 1, n, depth + 1)
         + depth_sum_ref (tree, 2 * node + 2, n, depth + 1);
}

static void
test_recursion (void)
{
  Run r = { 0 };
  enum { T = 64, NTREE = 31 };
  int tree[NTREE];
  const uint64_t *fact;
  const int32_t *fibs, *sum;
  g_autofree char *htree = NULL, *spec = NULL;

  for (int i = 0; i < NTREE; i++)
    tree[i] = (i * 7919) % 101 - 50;
  htree = hex_of (tree, sizeof tree);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [%d],"
                          " \"buffers\": {\"fact\": {\"type\": \"u64\", \"count\": %d},"
                          " \"fibs\": {\"type\": \"s32\", \"count\": %d},"
                          " \"tree\": {\"bytes_hex\": \"%s\"}, \"sum\": {\"type\": \"s32\", \"count\": 1}},"
                          " \"params\": [{\"buffer\": \"fact\"}, {\"buffer\": \"fibs\"}, {\"buffer\": \"tree\"},"
                          " {\"type\": \"s32\", \"value\": %d}, {\"buffer\": \"sum\"}]}",
                          T, T, T, htree, NTREE);
  r.module = corpus_module ("07_recursion.ptx");
  run_start (&r, spec);
  assert_done (&r);
  fact = buffer (&r, "fact");
  fibs = buffer (&r, "fibs");
  sum = buffer (&r, "sum");
  for (unsigned t = 0; t < T; t++)
    {
      g_assert_cmpuint (fact[t], ==, factorial_ref (t % 21));
      g_assert_cmpint (fibs[t], ==, fib_ref ((int) (t % 20)));
    }
  g_assert_cmpint (sum[0], ==, depth_sum_ref (tree, 0, NTREE, 1));
  run_clear (&r);
}

static void
test_printf (void)
{
  Run r = { 0 };
  const char *spec = "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z5helloifPKc\", \"grid\": [2], \"block\": [3],"
                     " \"buffers\": {\"tag\": {\"bytes_hex\": \"4b53000000000000\"}},"
                     " \"params\": [{\"type\": \"s32\", \"value\": 5}, {\"type\": \"f32\", \"value\": 0.5},"
                     " {\"buffer\": \"tag\"}]}";
  g_autofree char *expected = NULL;
  const char *out;
  const char *ptr_start;

  r.module = corpus_module ("08_printf.ptx");
  run_start (&r, spec);
  assert_done (&r);
  out = ks_sim_get_printf (r.sim);
  /* Block by block; within a warp, lane by lane, one printf after another */
  ptr_start = strstr (out, "ptr=");
  g_assert_nonnull (ptr_start);
  expected = g_strdup_printf ("hello from block 0 thread 0\n"
                              "hello from block 0 thread 1\n"
                              "hello from block 0 thread 2\n"
                              "n=5 f=0.500000 d=1.000000e+00 tag=KS ptr=%.*s ll=5497558138880\n"
                              "hello from block 1 thread 0\n"
                              "hello from block 1 thread 1\n"
                              "hello from block 1 thread 2\n"
                              "n=5 f=0.500000 d=1.000000e+00 tag=KS ptr=%.*s ll=5497558138880\n",
                              (int) strcspn (ptr_start + 4, " "), ptr_start + 4,
                              (int) strcspn (ptr_start + 4, " "), ptr_start + 4);
  g_assert_cmpstr (out, ==, expected);
  run_clear (&r);
}

/* Divergence: each lane records, in order, the paths it took, and the
 * active mask of the warp at the join (activemask). */
static const char diverge_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 k_out, .param .u64 k_mask)\n"
  "{\n"
  "  .reg .pred %p<4>;\n"
  "  .reg .b32 %r<12>;\n"
  "  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [k_out];\n"
  "  ld.param.u64 %rd2, [k_mask];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, 0;\n"
  "  and.b32 %r3, %r1, 1;\n"
  "  setp.eq.s32 %p1, %r3, 0;\n"
  "  @%p1 bra $EVEN;\n"
  "  or.b32 %r2, %r2, 1;\n"            /* odd lanes */
  "  setp.lt.u32 %p2, %r1, 16;\n"
  "  @%p2 bra $JOIN;\n"
  "  or.b32 %r2, %r2, 4;\n"            /* odd lanes >= 16 */
  "  bra.uni $JOIN;\n"
  "$EVEN:\n"
  "  or.b32 %r2, %r2, 2;\n"            /* even lanes */
  "  activemask.b32 %r5;\n"
  "$JOIN:\n"
  "  activemask.b32 %r4;\n"            /* all lanes again */
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  st.global.u32 [%rd4], %r2;\n"
  "  add.s64 %rd5, %rd2, %rd3;\n"
  "  @%p1 st.global.u32 [%rd5], %r5;\n"
  "  @!%p1 st.global.u32 [%rd5], %r4;\n"
  "  mov.u32 %r6, 0;\n"                /* a loop with break and continue */
  "  mov.u32 %r7, 0;\n"
  "$LOOP:\n"
  "  add.s32 %r7, %r7, 1;\n"
  "  setp.gt.u32 %p3, %r7, %r1;\n"     /* break once i > tid */
  "  @%p3 bra $DONE;\n"
  "  and.b32 %r8, %r7, 1;\n"
  "  setp.eq.s32 %p2, %r8, 0;\n"
  "  @%p2 bra $LOOP;\n"                /* continue on even i */
  "  add.s32 %r6, %r6, %r7;\n"
  "  bra.uni $LOOP;\n"
  "$DONE:\n"
  "  activemask.b32 %r9;\n"
  "  add.s64 %rd6, %rd5, 128;\n"
  "  st.global.u32 [%rd6], %r9;\n"
  "  add.s64 %rd7, %rd4, 128;\n"
  "  st.global.u32 [%rd7], %r6;\n"
  "  ret;\n"
  "}\n";

static void
test_divergence (void)
{
  Run r = { 0 };
  const uint32_t *out, *mask;

  r.module = text_module (diverge_ptx);
  run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                 " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 64},"
                 " \"mask\": {\"type\": \"u32\", \"count\": 64}},"
                 " \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"mask\"}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  mask = buffer (&r, "mask");
  for (uint32_t t = 0; t < 32; t++)
    {
      uint32_t path = (t & 1) == 0 ? 2 : (t < 16 ? 1 : 5);
      uint32_t sum = 0;

      g_assert_cmpuint (out[t], ==, path);
      /* even lanes ran their branch alone; every lane is back at the join */
      g_assert_cmpuint (mask[t], ==, (t & 1) == 0 ? 0x55555555u : 0xffffffffu);
      for (uint32_t i = 1; i <= t; i++)
        if (i & 1)
          sum += i;
      g_assert_cmpuint (out[32 + t], ==, sum);
      /* after the loop all lanes have reconverged */
      g_assert_cmpuint (mask[32 + t], ==, 0xffffffffu);
    }
  run_clear (&r);
}

static uint32_t
insn_at_line (const KsPtxModule *m,
              uint32_t           line)
{
  for (uint32_t i = 0; i < m->n_insns; i++)
    if (m->insns[i].line == line)
      return i;
  g_error ("no instruction at line %u", line);
  return 0;
}

/* The trace and the per-instruction statistics of the divergence kernel,
 * one warp: lines 15 and 18 split it; line 25 is the join. */
static void
test_trace_divergence (void)
{
  Run r = { 0 };
  const KsTraceEvent *ev;
  const KsSimInsnStats *st;
  uint64_t n;
  uint32_t branch_even, branch_low, even_or, join;
  gboolean seen_diverge = FALSE, seen_join = FALSE;

  r.module = text_module (diverge_ptx);
  run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                 " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 64},"
                 " \"mask\": {\"type\": \"u32\", \"count\": 64}},"
                 " \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"mask\"}]}");
  assert_done (&r);
  branch_even = insn_at_line (r.module, 15);
  branch_low = insn_at_line (r.module, 18);
  even_or = insn_at_line (r.module, 22);
  join = insn_at_line (r.module, 25);

  ev = ks_sim_get_trace (r.sim, &n);
  g_assert_cmpuint (n, ==, ks_sim_get_stats (r.sim)->warp_instructions);
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->trace_dropped, ==, 0);
  for (uint64_t i = 0; i < n; i++)
    {
      g_assert_cmpuint (ev[i].warp, ==, 0);
      if (ev[i].insn == branch_even)
        {
          g_assert_true (ev[i].flags & KS_TRACE_DIVERGE);
          g_assert_cmpuint (ev[i].exec, ==, 0x55555555u);   /* even lanes branch */
          seen_diverge = TRUE;
        }
      if (ev[i].insn == join && !seen_join)
        {
          /* odd lanes (two paths) and even lanes joined here */
          g_assert_true (ev[i].flags & KS_TRACE_RECONVERGE);
          g_assert_cmpuint (ev[i].exec, ==, 0xffffffffu);
          seen_join = TRUE;
        }
    }
  g_assert_true (seen_diverge && seen_join);
  /* the last event of the warp is its exit */
  g_assert_true (ev[n - 1].flags & KS_TRACE_EXIT);

  st = ks_sim_get_insn_stats (r.sim);
  g_assert_cmpuint (st[branch_even].divergent, ==, 1);
  g_assert_cmpuint (st[branch_low].divergent, ==, 1);
  g_assert_cmpuint (st[even_or].warp_executions, ==, 1);
  g_assert_cmpuint (st[even_or].thread_executions, ==, 16);
  g_assert_cmpuint (st[even_or].active_lanes, ==, 16);
  g_assert_cmpuint (st[join].thread_executions, ==, 32);
  run_clear (&r);
}

static const char warp_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n"
  "{\n"
  "  .reg .pred %p<3>;\n"
  "  .reg .b32 %r<16>;\n"
  "  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [k_in];\n"
  "  ld.param.u64 %rd2, [k_out];\n"
  "  mov.u32 %r1, %laneid;\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.u32 %r2, [%rd4];\n"
  "  shfl.sync.down.b32 %r3, %r2, 16, 31, -1;\n"
  "  add.s32 %r3, %r3, %r2;\n"
  "  shfl.sync.down.b32 %r4, %r3, 8, 31, -1;\n"
  "  add.s32 %r4, %r4, %r3;\n"
  "  shfl.sync.down.b32 %r5, %r4, 4, 31, -1;\n"
  "  add.s32 %r5, %r5, %r4;\n"
  "  shfl.sync.down.b32 %r6, %r5, 2, 31, -1;\n"
  "  add.s32 %r6, %r6, %r5;\n"
  "  shfl.sync.down.b32 %r7, %r6, 1, 31, -1;\n"
  "  add.s32 %r7, %r7, %r6;\n"          /* lane 0: the warp's sum */
  "  shfl.sync.idx.b32 %r8, %r7, 0, 31, -1;\n"
  "  setp.gt.s32 %p1, %r2, 0;\n"
  "  vote.sync.ballot.b32 %r9, %p1, -1;\n"
  "  vote.sync.all.pred %p2, %p1, -1;\n"
  "  selp.u32 %r10, 1, 0, %p2;\n"
  "  shfl.sync.up.b32 %r11|%p2, %r2, 1, 0, -1;\n"
  "  selp.u32 %r12, 1, 0, %p2;\n"
  "  shfl.sync.bfly.b32 %r13, %r2, 5, 31, -1;\n"
  "  redux.sync.max.s32 %r14, %r2, -1;\n"
  "  mul.wide.u32 %rd3, %r1, 32;\n"
  "  add.s64 %rd5, %rd2, %rd3;\n"
  "  st.global.v4.u32 [%rd5], {%r8, %r9, %r10, %r11};\n"
  "  st.global.v4.u32 [%rd5+16], {%r12, %r13, %r14, %r1};\n"
  "  ret;\n"
  "}\n";

static void
test_warp_intrinsics (void)
{
  Run r = { 0 };
  int32_t in[32];
  const uint32_t *out;
  int32_t sum = 0, mx = G_MININT32;
  uint32_t ballot = 0;
  g_autofree char *hin = NULL, *spec = NULL;

  for (int i = 0; i < 32; i++)
    {
      in[i] = (i * 37) % 23 - 9;
      sum += in[i];
      mx = MAX (mx, in[i]);
      if (in[i] > 0)
        ballot |= 1u << i;
    }
  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u32\", \"count\": 256}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}", hin);
  r.module = text_module (warp_ptx);
  run_start (&r, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t l = 0; l < 32; l++)
    {
      const uint32_t *o = out + l * 8;

      g_assert_cmpint ((int32_t) o[0], ==, sum);
      g_assert_cmpuint (o[1], ==, ballot);
      g_assert_cmpuint (o[2], ==, ballot == 0xffffffffu);
      /* shfl.up by 1: lane 0 keeps its own value and its predicate is false */
      g_assert_cmpint ((int32_t) o[3], ==, l == 0 ? in[0] : in[l - 1]);
      g_assert_cmpuint (o[4], ==, l != 0);
      g_assert_cmpint ((int32_t) o[5], ==, in[l ^ 5]);
      g_assert_cmpint ((int32_t) o[6], ==, mx);
      g_assert_cmpuint (o[7], ==, l);
    }
  run_clear (&r);
}

/* bar.red over 64 threads, bar.arrive between a producer and a consumer
 * warp on a named barrier, and cp.async with a partial source. */
static const char barrier_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n"
  "{\n"
  "  .reg .pred %p<6>;\n"
  "  .reg .b32 %r<16>;\n"
  "  .reg .b64 %rd<8>;\n"
  "  .shared .align 16 .b8 buf[1024];\n"
  "  ld.param.u64 %rd1, [k_in];\n"
  "  ld.param.u64 %rd2, [k_out];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  rem.u32 %r2, %r1, 3;\n"
  "  setp.eq.u32 %p1, %r2, 0;\n"
  "  bar.red.popc.u32 %r3, 0, %p1;\n"          /* threads with tid % 3 == 0 */
  "  setp.lt.u32 %p2, %r1, 64;\n"
  "  bar.red.and.pred %p3, 0, %p2;\n"          /* all: true */
  "  setp.eq.u32 %p2, %r1, 40;\n"
  "  bar.red.or.pred %p4, 0, %p2;\n"           /* any: true */
  "  bar.red.and.pred %p5, 0, %p2;\n"          /* all: false */
  "  selp.u32 %r4, 1, 0, %p3;\n"
  "  selp.u32 %r5, 1, 0, %p4;\n"
  "  selp.u32 %r6, 1, 0, %p5;\n"
  /* warp 1 produces: writes buf[tid - 32] = tid * 10 and arrives at 1 */
  "  mov.u32 %r7, buf;\n"
  "  setp.ge.u32 %p1, %r1, 32;\n"
  "  @!%p1 bra $CONSUME;\n"
  "  sub.u32 %r8, %r1, 32;\n"
  "  shl.b32 %r9, %r8, 2;\n"
  "  add.u32 %r10, %r7, %r9;\n"
  "  mul.lo.u32 %r11, %r1, 10;\n"
  "  st.shared.u32 [%r10], %r11;\n"
  "  bar.arrive 1, 64;\n"
  "  mov.u32 %r12, 0;\n"
  "  bra.uni $OUT;\n"
  "$CONSUME:\n"                                 /* warp 0 waits and reads buf[31 - tid] */
  "  bar.sync 1, 64;\n"
  "  sub.u32 %r8, 31, %r1;\n"
  "  shl.b32 %r9, %r8, 2;\n"
  "  add.u32 %r10, %r7, %r9;\n"
  "  ld.shared.u32 %r12, [%r10];\n"
  "$OUT:\n"
  /* cp.async: 16 bytes per thread, the last 4 from a src-size of 12 are zeros */
  "  mul.wide.u32 %rd3, %r1, 16;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  cvt.u32.u64 %r13, %rd3;\n"
  "  add.u32 %r14, %r7, %r13;\n"
  "  bar.sync 0;\n"
  "  cp.async.ca.shared.global [%r14], [%rd4], 16, 12;\n"
  "  cp.async.commit_group;\n"
  "  cp.async.wait_group 0;\n"
  "  bar.sync 0;\n"
  "  ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r14];\n"
  "  mul.wide.u32 %rd5, %r1, 32;\n"
  "  add.s64 %rd6, %rd2, %rd5;\n"
  "  st.global.v4.u32 [%rd6], {%r3, %r4, %r5, %r6};\n"
  "  st.global.v4.u32 [%rd6+16], {%r12, %r8, %r10, %r11};\n"
  "  ret;\n"
  "}\n";

static void
test_barrier_forms (void)
{
  Run r = { 0 };
  uint32_t in[64 * 4];
  const uint32_t *out;
  g_autofree char *hin = NULL, *spec = NULL;

  for (uint32_t i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = 1000 + i;
  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u32\", \"count\": 512}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}", hin);
  r.module = text_module (barrier_ptx);
  run_start (&r, spec);
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 64; t++)
    {
      const uint32_t *o = out + t * 8;

      g_assert_cmpuint (o[0], ==, 22);          /* 0, 3, ..., 63 */
      g_assert_cmpuint (o[1], ==, 1);
      g_assert_cmpuint (o[2], ==, 1);
      g_assert_cmpuint (o[3], ==, 0);
      /* warp 0 read what warp 1 wrote before arriving */
      g_assert_cmpuint (o[4], ==, t < 32 ? (32 + 31 - t) * 10 : 0);
      g_assert_cmpuint (o[5], ==, in[t * 4]);
      g_assert_cmpuint (o[6], ==, in[t * 4 + 2]);
      g_assert_cmpuint (o[7], ==, 0);
    }
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->barriers, ==, 7);
  run_clear (&r);
}

/* Coalescing of vadd: each warp's float loads cover one 128-byte line in
 * four sectors (CUDA Programming Guide, global memory accesses) */
static void
test_memory_coalescing (void)
{
  Run r = { 0 };
  const KsSimInsnStats *st;
  guint n_global = 0;

  r.module = corpus_module ("01_vector_add.ptx");
  run_start (&r, "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                 " \"grid\": [2], \"block\": [256],"
                 " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 512},"
                 " \"b\": {\"type\": \"f32\", \"count\": 512}, \"c\": {\"type\": \"f32\", \"count\": 512}},"
                 " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                 " {\"type\": \"s32\", \"value\": 512}]}");
  assert_done (&r);
  st = ks_sim_get_insn_stats (r.sim);
  for (uint32_t i = 0; i < r.module->n_insns; i++)
    {
      const KsPtxInsn *in = &r.module->insns[i];

      if ((in->opcode != KS_PTX_OPC_LD && in->opcode != KS_PTX_OPC_ST)
          || in->space != KS_PTX_SPACE_GLOBAL || st[i].warp_executions == 0)
        continue;
      n_global++;
      /* 16 warps, each one line of four sectors: ideal, 100 % */
      g_assert_cmpuint (st[i].gmem_requests, ==, 16);
      g_assert_cmpuint (st[i].gmem_sectors, ==, 64);
      g_assert_cmpuint (st[i].gmem_ideal_sectors, ==, 64);
      g_assert_cmpuint (st[i].gmem_lines, ==, 16);
      g_assert_cmpuint (st[i].gmem_requested_bytes, ==, 512 * 4);
      if (in->opcode == KS_PTX_OPC_LD)
        {
          /* every sector is read once: all miss in both caches */
          g_assert_cmpuint (st[i].l1_hits, ==, 0);
          g_assert_cmpuint (st[i].l1_misses, ==, 64);
          g_assert_cmpuint (st[i].l2_misses, ==, 64);
        }
    }
  g_assert_cmpuint (n_global, ==, 3);

  /* The trace's side table: each global access of each warp, with its
   * four sectors (one 128-byte line) fetched from DRAM (nothing was cached
   * before); its records belong, in order, to the events that have
   * KS_TRACE_MEMORY, which are exactly those of the global accesses */
  {
    uint64_t n_mem, n_ev, mi = 0;
    const KsTraceMemory *tm = ks_sim_get_trace_memory (r.sim, &n_mem);
    const KsTraceEvent *ev = ks_sim_get_trace (r.sim, &n_ev);

    g_assert_cmpuint (n_mem, ==, 3 * 16);
    for (uint64_t i = 0; i < n_ev; i++)
      {
        const KsPtxInsn *in = &r.module->insns[ev[i].insn];
        gboolean global = (in->opcode == KS_PTX_OPC_LD || in->opcode == KS_PTX_OPC_ST)
                          && in->space == KS_PTX_SPACE_GLOBAL;

        g_assert_cmpint (!!(ev[i].flags & KS_TRACE_MEMORY), ==, global);
        if (!global)
          continue;
        g_assert_cmpuint (mi, <, n_mem);
        g_assert_cmpuint (tm[mi].kind, ==, KS_TRACE_MEM_GLOBAL);
        g_assert_cmpuint (tm[mi].store, ==, in->opcode == KS_PTX_OPC_ST);
        g_assert_cmpuint (ks_trace_memory_sectors (&tm[mi]), ==, 4);
        g_assert_cmpuint (tm[mi].wavefronts, ==, 1);
        if (!tm[mi].store)
          g_assert_cmpuint (tm[mi].dram, ==, 4);
        mi++;
      }
    g_assert_cmpuint (mi, ==, n_mem);
  }

  /* The same by CUDA line: 01_vector_add.cu line 7, c[i] = a[i] + b[i],
   * holds the two loads and the store */
  {
    g_autoptr(GArray) lines = ks_sim_cuda_line_stats (r.sim);
    const KsSimLineStats *l7 = NULL;

    for (guint i = 0; i < lines->len; i++)
      if (g_array_index (lines, KsSimLineStats, i).line == 7)
        l7 = &g_array_index (lines, KsSimLineStats, i);
    g_assert_nonnull (l7);
    g_assert_cmpuint (l7->stats.gmem_requests, ==, 3 * 16);
    g_assert_cmpuint (l7->stats.gmem_sectors, ==, 3 * 64);
    g_assert_cmpuint (l7->stats.l1_misses, ==, 2 * 64);
  }
  run_clear (&r);
}

/* A column of a 32 x 32 float tile is 32 words in one bank (32 passes);
 * padding the rows to 33 floats spreads them over all banks (one pass) */
static void
test_memory_bank_conflicts (void)
{
  Run r = { 0 };
  const KsSimInsnStats *st;
  uint32_t col32, col33;

  r.module = text_module (
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .shared .align 4 .f32 tile[32][32];\n"
    "  .shared .align 4 .f32 padded[32][33];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, tile;\n"
    "  mad.lo.u32 %r3, %r1, 128, %r2;\n"
    "  st.shared.f32 [%r3], 1.0;\n"                 /* line 12 */
    "  mov.u32 %r4, padded;\n"
    "  mad.lo.u32 %r5, %r1, 132, %r4;\n"
    "  st.shared.f32 [%r5], 2.0;\n"                 /* line 15 */
    "  ret;\n"
    "}\n");
  run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32], \"params\": []}");
  assert_done (&r);
  st = ks_sim_get_insn_stats (r.sim);
  col32 = insn_at_line (r.module, 12);
  col33 = insn_at_line (r.module, 15);
  g_assert_cmpuint (st[col32].smem_requests, ==, 1);
  g_assert_cmpuint (st[col32].smem_wavefronts, ==, 32);
  g_assert_cmpuint (st[col32].smem_ideal_wavefronts, ==, 1);
  g_assert_cmpuint (st[col32].smem_worst_degree, ==, 32);
  g_assert_cmpuint (st[col33].smem_wavefronts, ==, 1);
  g_assert_cmpuint (st[col33].smem_worst_degree, ==, 1);
  run_clear (&r);
}

/* Thread 40 reads what thread 0 wrote: with no barrier between them a
 * read-after-write hazard, with bar.sync none; the tree reduction that
 * waits at every step has none either. */
static void
test_race_check (void)
{
  Run r = { 0 };
  const KsSimHazard *h;
  uint32_t n;
  const char *spec = "{\"ptx\": \"x.ptx\", \"grid\": [2], \"block\": [64], \"params\": []}";
  /* the kernel, with line 12 a barrier or not */
#define RACE_HEAD \
    ".version 8.0\n.target sm_80\n.address_size 64\n" \
    ".visible .entry k()\n" \
    "{\n" \
    "  .reg .pred %p<2>;\n" \
    "  .reg .b32 %r<8>;\n" \
    "  .shared .align 4 .b32 flag;\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  setp.ne.u32 %p1, %r1, 0;\n" \
    "  @!%p1 st.shared.u32 [flag], 7;\n"          /* line 11 */
#define RACE_TAIL \
    "  setp.ne.u32 %p1, %r1, 40;\n" \
    "  @!%p1 ld.shared.u32 %r2, [flag];\n"        /* line 14 */ \
    "  ret;\n" \
    "}\n"
  const char *racy = RACE_HEAD "  mov.u32 %r3, 0;\n" RACE_TAIL;
  const char *safe = RACE_HEAD "  bar.sync 0;\n" RACE_TAIL;
#undef RACE_HEAD
#undef RACE_TAIL

  r.module = text_module (racy);
  run_start (&r, spec);
  assert_done (&r);
  h = ks_sim_get_hazards (r.sim, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (h[0].kind, ==, KS_HAZARD_RAW);
  g_assert_cmpuint (r.module->insns[h[0].first_insn].line, ==, 11);
  g_assert_cmpuint (r.module->insns[h[0].second_insn].line, ==, 14);
  g_assert_cmpuint (h[0].first_thread, ==, 0);
  g_assert_cmpuint (h[0].second_thread, ==, 40);
  g_assert_cmpuint (h[0].count, ==, 2);          /* once in each block */
  run_clear (&r);

  r.module = text_module (safe);
  run_start (&r, spec);
  assert_done (&r);
  ks_sim_get_hazards (r.sim, &n);
  g_assert_cmpuint (n, ==, 0);
  run_clear (&r);
}

/* A write after reads in one barrier interval (a WAR hazard) is found
 * however many loads came before it: the loads of an interval with no
 * write yet wait in a log of 512 warp loads (KsSimReadLog) that a write
 * empties, and that fills and empties on its own past that.  Each of 64
 * threads loads its own word LOADS times, then thread 6 writes thread 5's
 * word: thread 5 read it last, so one WAR in each block, line 15 then
 * line 19.  With a barrier before the write there is none, and a load
 * after the write (thread 40 reads what thread 6 wrote) is a RAW. */
static void
test_race_check_logged_reads (void)
{
  static const unsigned loads[] = { 1, 255, 256, 257, 300, 1000 };
  const char *spec = "{\"ptx\": \"x.ptx\", \"grid\": [2], \"block\": [64], \"params\": []}";

  for (guint i = 0; i < G_N_ELEMENTS (loads); i++)
    for (int barrier = 0; barrier < 2; barrier++)
      {
        g_autofree char *ptx = g_strdup_printf (
          ".version 8.0\n.target sm_80\n.address_size 64\n"
          ".visible .entry k()\n"
          "{\n"
          "  .reg .pred %%p<2>;\n"
          "  .reg .b32 %%r<8>;\n"
          "  .shared .align 4 .b32 s[64];\n"
          "  mov.u32 %%r1, %%tid.x;\n"
          "  shl.b32 %%r2, %%r1, 2;\n"
          "  mov.u32 %%r3, s;\n"
          "  add.u32 %%r3, %%r3, %%r2;\n"
          "  mov.u32 %%r4, 0;\n"
          "$L:\n"
          "  ld.shared.u32 %%r5, [%%r3];\n"              /* line 15 */
          "  add.u32 %%r4, %%r4, 1;\n"
          "  setp.lt.u32 %%p1, %%r4, %u;\n"
          "  @%%p1 bra $L;\n"
          "  %s\n"                                       /* line 19: or a barrier, then 20 */
          "  setp.ne.u32 %%p1, %%r1, 40;\n"
          "  @!%%p1 ld.shared.u32 %%r6, [s+20];\n"       /* line 21 */
          "  ret;\n"
          "}\n",
          loads[i],
          barrier ? "bar.sync 0;\n  setp.ne.u32 %p1, %r1, 6;\n  @!%p1 st.shared.u32 [s+20], 1;"
                  : "setp.ne.u32 %p1, %r1, 6;\n  @!%p1 st.shared.u32 [s+20], 1;");
        Run r = { 0 };
        const KsSimHazard *h;
        uint32_t n;

        g_test_message ("%u loads, %s", loads[i], barrier ? "a barrier" : "no barrier");
        r.module = text_module (ptx);
        run_start (&r, spec);
        assert_done (&r);
        h = ks_sim_get_hazards (r.sim, &n);
        g_assert_cmpuint (n, ==, barrier ? 1 : 2);
        for (uint32_t k = 0; k < n; k++)
          {
            uint32_t store_line = barrier ? 21 : 20;

            if (h[k].kind == KS_HAZARD_WAR)
              {
                g_assert_false (barrier);
                g_assert_cmpuint (r.module->insns[h[k].first_insn].line, ==, 15);
                g_assert_cmpuint (r.module->insns[h[k].second_insn].line, ==, store_line);
                g_assert_cmpuint (h[k].first_thread, ==, 5);
                g_assert_cmpuint (h[k].second_thread, ==, 6);
              }
            else
              {
                g_assert_cmpint (h[k].kind, ==, KS_HAZARD_RAW);
                g_assert_cmpuint (r.module->insns[h[k].first_insn].line, ==, store_line);
                g_assert_cmpuint (r.module->insns[h[k].second_insn].line, ==, store_line + 2);
                g_assert_cmpuint (h[k].first_thread, ==, 6);
                g_assert_cmpuint (h[k].second_thread, ==, 40);
              }
            g_assert_cmpuint (h[k].count, ==, 2);    /* once in each block */
          }
        run_clear (&r);
      }
}

/* cp.async in the race check.  Each of 64 threads copies one u32 a stage
 * from in[stage * 64 + tid] into its slot of one of two 256-byte buffers,
 * and after the wait and a barrier reads its neighbour's slot, (tid + 1) %
 * 64, of the stage's buffer.  Four stages. */
#define PIPE_HEAD \
  ".version 8.0\n.target sm_80\n.address_size 64\n" \
  ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n" \
  "{\n" \
  "  .reg .pred %p<2>;\n" \
  "  .reg .b32 %r<16>;\n" \
  "  .reg .b64 %rd<8>;\n" \
  "  .shared .align 16 .b8 buf[512];\n" \
  "  ld.param.u64 %rd1, [k_in];\n"                 /* line 10 */ \
  "  ld.param.u64 %rd2, [k_out];\n" \
  "  mov.u32 %r1, %tid.x;\n" \
  "  shl.b32 %r2, %r1, 2;\n"                       /* own slot */ \
  "  add.u32 %r3, %r1, 1;\n" \
  "  and.b32 %r3, %r3, 63;\n" \
  "  shl.b32 %r3, %r3, 2;\n"                       /* the neighbour's slot */ \
  "  mov.u32 %r4, buf;\n" \
  "  cvt.u64.u32 %rd3, %r2;\n" \
  "  add.s64 %rd4, %rd1, %rd3;\n"                  /* &in[tid] */ \
  "  mov.u32 %r5, 0;\n"                            /* the sum */ \
  "  mov.u32 %r6, 0;\n"                            /* line 21: k */ \
  "  add.u32 %r7, %r4, %r2;\n" \
  "  cp.async.ca.shared.global [%r7], [%rd4], 4;\n" /* line 23: stage 0 -> buffer 0 */ \
  "  cp.async.commit_group;\n"
/* the loop from its first line: issue stage k + AHEAD into buffer (k +
 * AHEAD) % 2 while there is one, commit, wait for stage k, read it */
#define PIPE_LOOP(AHEAD, WAIT) \
  "$LOOP:\n" \
  "  add.u32 %r8, %r6, " AHEAD ";\n" \
  "  setp.lt.u32 %p1, %r8, 4;\n" \
  "  and.b32 %r9, %r8, 1;\n" \
  "  shl.b32 %r9, %r9, 8;\n" \
  "  add.u32 %r10, %r4, %r9;\n" \
  "  add.u32 %r10, %r10, %r2;\n" \
  "  mul.wide.u32 %rd5, %r8, 256;\n" \
  "  add.s64 %rd6, %rd4, %rd5;\n" \
  "  @%p1 cp.async.ca.shared.global [%r10], [%rd6], 4;\n"  /* LOOP + 9 */ \
  "  cp.async.commit_group;\n" \
  "  cp.async.wait_group " WAIT ";\n" \
  "  bar.sync 0;\n" \
  "  and.b32 %r11, %r6, 1;\n" \
  "  shl.b32 %r11, %r11, 8;\n" \
  "  add.u32 %r11, %r4, %r11;\n" \
  "  add.u32 %r11, %r11, %r3;\n" \
  "  ld.shared.u32 %r12, [%r11];\n"                          /* LOOP + 17 */ \
  "  add.u32 %r5, %r5, %r12;\n" \
  "  bar.sync 0;\n" \
  "  add.u32 %r6, %r6, 1;\n" \
  "  setp.lt.u32 %p1, %r6, 4;\n" \
  "  @%p1 bra $LOOP;\n" \
  "  add.s64 %rd7, %rd2, %rd3;\n" \
  "  st.global.u32 [%rd7], %r5;\n" \
  "  ret;\n" \
  "}\n"

static void
test_race_check_cp_async (void)
{
  /* (i) double buffering: stage k + 1 goes into the other buffer while
   * stage k is read; wait_group 1 leaves only stage k + 1 in flight.  The
   * loop starts at line 25. */
  const char *double_buffered = PIPE_HEAD PIPE_LOOP ("1", "1");
  /* (ii) a ring of three stages over two buffers: stages 0 and 1 are
   * issued first (lines 23 and 27), and the loop (from line 29) issues
   * stage k + 2 into buffer k % 2 while stage k is still in flight there
   * (wait_group 2 comes after), then reads buffer k % 2 while stage k + 2
   * is in flight to it */
  const char *ring = PIPE_HEAD
    "  add.u32 %r8, %r7, 256;\n"
    "  add.s64 %rd5, %rd4, 256;\n"
    "  cp.async.ca.shared.global [%r8], [%rd5], 4;\n"      /* line 27: stage 1 -> buffer 1 */
    "  cp.async.commit_group;\n"
    PIPE_LOOP ("2", "2");
  const char *spec = "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64],"
                     " \"buffers\": {\"in\": {\"type\": \"u32\", \"count\": 256,"
                     " \"init\": {\"range\": {\"start\": 0, \"step\": 1}}},"
                     " \"out\": {\"type\": \"u32\", \"count\": 64}},"
                     " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}";
  Run r = { 0 };
  const KsSimHazard *h;
  const uint32_t *out;
  gboolean waw0 = FALSE, waw1 = FALSE, raw = FALSE;
  uint32_t n;

  r.module = text_module (double_buffered);
  run_start (&r, spec);
  assert_done (&r);
  /* thread t adds in[k * 64 + (t + 1) % 64] for k = 0..3:
   * 64 * (0 + 1 + 2 + 3) + 4 * ((t + 1) % 64) */
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 64; t++)
    g_assert_cmpuint (out[t], ==, 384 + 4 * ((t + 1) % 64));
  h = ks_sim_get_hazards (r.sim, &n);
  for (uint32_t i = 0; i < n; i++)
    g_test_message ("unexpected: %s, lines %u and %u", ks_sim_hazard_kind_name (h[i].kind),
                    r.module->insns[h[i].first_insn].line, r.module->insns[h[i].second_insn].line);
  g_assert_cmpuint (n, ==, 0);
  run_clear (&r);

  r.module = text_module (ring);
  run_start (&r, spec);
  assert_done (&r);
  h = ks_sim_get_hazards (r.sim, &n);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t first = r.module->insns[h[i].first_insn].line;
      uint32_t second = r.module->insns[h[i].second_insn].line;

      g_test_message ("%s, lines %u and %u, threads %u and %u, %" G_GUINT64_FORMAT " times",
                      ks_sim_hazard_kind_name (h[i].kind), first, second, h[i].first_thread,
                      h[i].second_thread, h[i].count);
      if (h[i].kind == KS_HAZARD_WAW && first == 23 && second == 38)
        {
          /* k = 0: stage 2 into buffer 0 while stage 0 is in flight, for
           * every thread's own slot */
          waw0 = TRUE;
          g_assert_cmpuint (h[i].first_thread, ==, h[i].second_thread);
          g_assert_cmpuint (h[i].count, ==, 64);
        }
      else if (h[i].kind == KS_HAZARD_WAW && first == 27 && second == 38)
        {
          /* k = 1: stage 3 into buffer 1 over stage 1 */
          waw1 = TRUE;
          g_assert_cmpuint (h[i].count, ==, 64);
        }
      else if (h[i].kind == KS_HAZARD_RAW && first == 38 && second == 46)
        {
          /* k = 0 and 1: thread t reads the slot of t + 1, whose copy of
           * stage k + 2 is in flight */
          raw = TRUE;
          g_assert_cmpuint (h[i].second_thread, ==, (h[i].first_thread + 63) % 64);
          g_assert_cmpuint (h[i].count, ==, 128);
        }
      else
        g_assert_not_reached ();
    }
  g_assert_true (waw0);
  g_assert_true (waw1);
  g_assert_true (raw);
  g_assert_cmpuint (n, ==, 3);
  run_clear (&r);
}
#undef PIPE_HEAD
#undef PIPE_LOOP

static void
assert_fault (Run            *r,
              KsSimFaultKind  kind,
              uint32_t        ptx_line,
              const char     *fragment)
{
  const KsSimFault *f = ks_sim_get_fault (r->sim);

  g_assert_cmpint (ks_sim_get_status (r->sim), ==, KS_SIM_FAULTED);
  g_assert_nonnull (f);
  g_test_message ("fault: %s", f->message);
  g_assert_cmpint (f->kind, ==, kind);
  if (ptx_line)
    g_assert_cmpuint (f->ptx_line, ==, ptx_line);
  g_assert_nonnull (strstr (f->message, fragment));
}

static void
test_fault_out_of_bounds (void)
{
  Run r = { 0 };
  const KsSimFault *f;

  /* n = 300 elements but the buffers hold 260: thread 4 of block 1 is the
   * first to read past the end, of b (nvcc's PTX loads b[i] before a[i]) */
  r.module = corpus_module ("01_vector_add.ptx");
  run_start (&r, "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                 " \"grid\": [2], \"block\": [256],"
                 " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 260},"
                 " \"b\": {\"type\": \"f32\", \"count\": 260}, \"c\": {\"type\": \"f32\", \"count\": 260}},"
                 " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                 " {\"type\": \"s32\", \"value\": 300}]}");
  /* each buffer holds 260 * 4 = 1040 bytes; a is at 0x7f0000000000, b at
   * 1040 + 4096 rounded up to 256 = 0x1500 (bases are 256-aligned after a
   * 4 KiB guard); b[260] is at its end, 0x1910, and c begins 4096 + 240
   * bytes further */
  assert_fault (&r, KS_SIM_FAULT_OUT_OF_BOUNDS, 0,
                "invalid global read of size 4 at 0x7f0000001910: "
                "0 bytes past the end of buffer 'b' (1040 bytes)");
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpuint (f->block[0], ==, 1);
  g_assert_cmpuint (f->thread[0], ==, 4);
  g_assert_true (f->has_address);
  g_assert_nonnull (f->cuda_file);
  g_assert_true (g_str_has_suffix (f->cuda_file, "01_vector_add.cu"));
  g_assert_cmpuint (f->cuda_line, ==, 7);
  run_clear (&r);
}

/* One thread reads (or writes) the u32 at p + off */
static const char oob_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".global .align 4 .u32 gtab[4];\n"
  ".visible .entry k(.param .u64 k_p, .param .s64 k_off, .param .u32 k_store)\n"
  "{\n"
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [k_p];\n"
  "  ld.param.s64 %rd2, [k_off];\n"
  "  ld.param.u32 %r1, [k_store];\n"                             /* line 12 */
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra $ST;\n"
  "  ld.global.u32 %r2, [%rd3];\n"                               /* 16 */
  "  ret;\n"
  "$ST:\n"
  "  st.global.u32 [%rd3], %r1;\n"                               /* 19 */
  "  ret;\n"
  "}\n";

/* The fault names the nearest allocation and the distance to it.  The
 * layout (ks-sim.c): the buffers in the spec's order, then the module
 * variables, from 0x7f0000000000, each 256-aligned after a 4096-byte
 * guard.  Here a (4096 bytes) is at offset 0, J (64 bytes) at 4096 + 4096
 * = 0x2000, s (6 bytes) at 0x2040 + 4096 rounded up to 256 = 0x3100, gtab
 * (16 bytes) at 0x3106 + 4096 rounded up = 0x4200. */
static void
test_fault_out_of_bounds_nearest (void)
{
  const struct
  {
    const char *param;          /* the pointer */
    int64_t off;
    gboolean store;
    uint32_t line;
    const char *message;
  } cases[] = {
    /* 256 bytes in front of J: J is 256 away, a's end 8192 - 256 - 4096 */
    { "{\"buffer\": \"J\"}", -256, FALSE, 16,
      "invalid global read of size 4 at 0x7f0000001f00: 256 bytes before buffer 'J' (64 bytes)" },
    /* 12 bytes past a's 4096 */
    { "{\"buffer\": \"a\"}", 4096 + 12, TRUE, 19,
      "invalid global write of size 4 at 0x7f000000100c: 12 bytes past the end of buffer 'a' (4096 bytes)" },
    /* halfway between a's end (0x1000) and J (0x2000), 2048 from each: the
     * end before wins a tie */
    { "{\"buffer\": \"a\"}", 4096 + 2048, FALSE, 16,
      "2048 bytes past the end of buffer 'a' (4096 bytes)" },
    /* 4 bytes nearer J */
    { "{\"buffer\": \"a\"}", 4096 + 2052, FALSE, 16,
      "2044 bytes before buffer 'J' (64 bytes)" },
    /* bytes 4..7 of a 6-byte buffer: 2 of them past its end */
    { "{\"buffer\": \"s\"}", 4, FALSE, 16,
      "invalid global read of size 4 at 0x7f0000003104: its last 2 bytes are past the end of "
      "buffer 's' (6 bytes)" },
    /* at 8, 2 bytes after s's end (gtab is 0x10f8 away) */
    { "{\"buffer\": \"s\"}", 8, FALSE, 16, "2 bytes past the end of buffer 's' (6 bytes)" },
    /* gtab[4], just past the module variable: 0x7f0000004200 + 16 */
    { "{\"type\": \"u64\", \"value\": 139637976744448}", 16, FALSE, 16,
      "0x7f0000004210: 0 bytes past the end of global variable 'gtab' (16 bytes)" },
    /* a null pointer is nowhere near anything */
    { "{\"type\": \"u64\", \"value\": 0}", 8, FALSE, 16,
      "invalid global read of size 4 at 0x8: outside every allocation (the nearest, buffer "
      "'a', is more than 4 GiB away)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run r = { 0 };
      g_autofree char *spec = NULL;
      const KsSimFault *f;

      spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1],"
                              " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1024},"
                              " \"J\": {\"type\": \"u32\", \"count\": 16},"
                              " \"s\": {\"bytes_hex\": \"010203040506\"}},"
                              " \"params\": [%s, {\"type\": \"s64\", \"value\": %" G_GINT64_FORMAT "},"
                              " {\"type\": \"u32\", \"value\": %u}]}",
                              cases[i].param, cases[i].off, cases[i].store ? 7u : 0u);
      r.module = text_module (oob_ptx);
      run_start (&r, spec);
      assert_fault (&r, KS_SIM_FAULT_OUT_OF_BOUNDS, cases[i].line, cases[i].message);
      f = ks_sim_get_fault (r.sim);
      g_assert_true (f->has_address);
      run_clear (&r);
    }
}

#define FAULT_HEADER \
  ".version 8.0\n.target sm_80\n.address_size 64\n" \
  ".visible .entry k(.param .u64 k_p)\n" \
  "{\n" \
  "  .reg .pred %p<2>;\n" \
  "  .reg .b32 %r<4>;\n" \
  "  .reg .b64 %rd<4>;\n" \
  "  ld.param.u64 %rd1, [k_p];\n" \
  "  mov.u32 %r1, %tid.x;\n"          /* line 10 */

static const char *const fault_spec =
  "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64],"
  " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 64}}, \"params\": [{\"buffer\": \"p\"}]}";

static void
test_fault_misaligned (void)
{
  Run r = { 0 };

  r.module = text_module (FAULT_HEADER
                          "  ld.global.u32 %r2, [%rd1+2];\n"      /* 11 */
                          "  ret;\n}\n");
  run_start (&r, fault_spec);
  assert_fault (&r, KS_SIM_FAULT_MISALIGNED, 11, "misaligned 4-byte global access");
  run_clear (&r);
}

static void
test_fault_deadlock (void)
{
  Run r = { 0 };

  r.module = text_module (FAULT_HEADER
                          "  setp.lt.u32 %p1, %r1, 16;\n"         /* 11 */
                          "  @!%p1 bra $END;\n"                   /* 12 */
                          "  bar.sync 0;\n"                       /* 13 */
                          "$END:\n"
                          "  ret;\n}\n");
  run_start (&r, fault_spec);
  assert_fault (&r, KS_SIM_FAULT_DEADLOCK, 13, "divergent code");
  run_clear (&r);
}

static void
test_fault_barrier_mismatch (void)
{
  Run r = { 0 };

  /* warp 0 waits at barrier 1, warp 1 at barrier 2: no one can arrive */
  r.module = text_module (FAULT_HEADER
                          "  setp.lt.u32 %p1, %r1, 32;\n"
                          "  @%p1 bra $A;\n"
                          "  bar.sync 2;\n"
                          "  ret;\n"
                          "$A:\n"
                          "  bar.sync 1;\n"
                          "  ret;\n}\n");
  run_start (&r, fault_spec);
  assert_fault (&r, KS_SIM_FAULT_DEADLOCK, 0, "no other warp can arrive");
  run_clear (&r);
}

static void
test_barrier_after_exit (void)
{
  Run r = { 0 };
  const uint32_t *p;

  /* Warp 1 exits early; warp 0's barrier completes without it, and the
   * value warp 0 stored before the barrier is seen after it. */
  r.module = text_module (FAULT_HEADER
                          "  setp.ge.u32 %p1, %r1, 32;\n"
                          "  @%p1 bra $OUT;\n"
                          "  mul.wide.u32 %rd2, %r1, 4;\n"
                          "  add.s64 %rd3, %rd1, %rd2;\n"
                          "  st.global.u32 [%rd3], %r1;\n"
                          "  bar.sync 0;\n"
                          "  ld.global.u32 %r2, [%rd1+124];\n"
                          "  st.global.u32 [%rd3+128], %r2;\n"
                          "$OUT:\n"
                          "  ret;\n}\n");
  run_start (&r, fault_spec);
  assert_done (&r);
  p = buffer (&r, "p");
  g_assert_cmpuint (p[5], ==, 5);
  g_assert_cmpuint (p[32 + 7], ==, 31);
  run_clear (&r);
}

static void
test_fault_trap (void)
{
  Run r = { 0 };
  const KsSimFault *f;

  r.module = text_module (FAULT_HEADER
                          "  setp.eq.u32 %p1, %r1, 37;\n"
                          "  @%p1 trap;\n"                        /* 12 */
                          "  ret;\n}\n");
  run_start (&r, fault_spec);
  assert_fault (&r, KS_SIM_FAULT_TRAP, 12, "trap");
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpuint (f->thread[0], ==, 37);
  run_clear (&r);
}

static void
test_fault_step_limit (void)
{
  Run r = { 0 };
  g_autoptr(GError) error = NULL;

  r.module = text_module (FAULT_HEADER
                          "$SPIN:\n"
                          "  bra.uni $SPIN;\n"
                          "  ret;\n}\n");
  r.launch = ks_launch_parse (fault_spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_set_step_limit (r.sim, 10000);
  ks_sim_run (r.sim, 0, NULL);
  assert_fault (&r, KS_SIM_FAULT_STEP_LIMIT, 0, "step limit");
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->warp_instructions, ==, 10000);
  run_clear (&r);
}

/* Lanes 1-31 wait for a flag lane 0 of their own warp sets: under a SIMT
 * stack the branch's taken path (the waiting lanes) runs first and spins
 * for ever, and lane 0 never runs again.  The fault says so. */
static void
test_fault_intra_warp_spin (void)
{
  Run r = { 0 };
  g_autoptr(GError) error = NULL;

  r.module = text_module (FAULT_HEADER
                          "  setp.ne.u32 %p1, %r1, 0;\n"
                          "  @%p1 bra $SPIN;\n"                      /* lanes 1-31 wait */
                          "  st.volatile.global.u32 [%rd1], 1;\n"    /* lane 0 sets the flag */
                          "  ret;\n"
                          "$SPIN:\n"
                          "  ld.volatile.global.u32 %r2, [%rd1];\n"
                          "  setp.eq.u32 %p1, %r2, 0;\n"
                          "  @%p1 bra $SPIN;\n"
                          "  ret;\n}\n");
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                              " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 1}},"
                              " \"params\": [{\"buffer\": \"p\"}]}", -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_set_step_limit (r.sim, 20000);
  ks_sim_run (r.sim, 0, NULL);
  assert_fault (&r, KS_SIM_FAULT_STEP_LIMIT, 0, "intra-warp spin lock");
  g_assert_nonnull (strstr (ks_sim_get_fault (r.sim)->message, "0x00000001 of the same warp"));
  run_clear (&r);
}

/* With no step limit set, the same spin ends in a deadlock fault once the
 * block's state repeats, long before the default limit of 2 G steps: the
 * waiting lanes (1-31) loop in lines 16-18 while lane 0 waits to
 * reconverge. */
static void
test_spin_livelock (void)
{
  Run r = { 0 };
  const KsSimFault *f;

  r.module = text_module (FAULT_HEADER
                          "  setp.ne.u32 %p1, %r1, 0;\n"
                          "  @%p1 bra $SPIN;\n"
                          "  st.volatile.global.u32 [%rd1], 1;\n"
                          "  ret;\n"
                          "$SPIN:\n"
                          "  ld.volatile.global.u32 %r2, [%rd1];\n"
                          "  setp.eq.u32 %p1, %r2, 0;\n"
                          "  @%p1 bra $SPIN;\n"
                          "  ret;\n}\n");
  run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                 " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 1}},"
                 " \"params\": [{\"buffer\": \"p\"}]}");
  assert_fault (&r, KS_SIM_FAULT_DEADLOCK, 0, "intra-warp spin lock");
  f = ks_sim_get_fault (r.sim);
  g_assert_nonnull (strstr (f->message, "lanes 0xfffffffe of warp 0"));
  g_assert_nonnull (strstr (f->message, "lanes 0x00000001 of the same warp"));
  g_assert_cmpuint (f->ptx_line, >=, 16);
  g_assert_cmpuint (f->ptx_line, <=, 18);
  g_assert_cmpuint (f->thread[0], ==, 1);
  /* found within a few times the 4 M warp-instructions a block runs
   * before it is looked at */
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->warp_instructions, <, 16u << 20);
  run_clear (&r);
}

/* A lock taken with atom.cas in every block: in block 0 the lane that wins
 * waits to reconverge with the 31 that spin on it.  On one thread the fault
 * is block 0's, lane 1 of the looping lanes.  On two, blocks 0 and 1 race
 * for the lock in global memory, as on a GPU: whichever wins has the
 * intra-warp spin and the other spins uniformly, so the fault (block 0's,
 * the lowest) is a livelock either way, and the intra-warp one only when
 * block 0 won (seen to lose on a loaded machine). */
static void
test_spin_lock_blocks (void)
{
  for (uint32_t threads = 1; threads <= 2; threads++)
    {
      Run r = { 0 };
      g_autoptr(GError) error = NULL;
      const KsSimFault *f;

      r.module = text_module (FAULT_HEADER
                              "$SPIN:\n"
                              "  atom.global.cas.b32 %r2, [%rd1], 0, 1;\n"
                              "  setp.ne.u32 %p1, %r2, 0;\n"
                              "  @%p1 bra $SPIN;\n"
                              "  ld.global.u32 %r3, [%rd1+4];\n"
                              "  add.u32 %r3, %r3, 1;\n"
                              "  st.global.u32 [%rd1+4], %r3;\n"
                              "  atom.global.exch.b32 %r2, [%rd1], 0;\n"
                              "  ret;\n}\n");
      r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"grid\": [4], \"block\": [32],"
                                  " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 2}},"
                                  " \"params\": [{\"buffer\": \"p\"}]}", -1, NULL, &error);
      g_assert_no_error (error);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      ks_sim_set_threads (r.sim, threads);
      ks_sim_run (r.sim, 0, NULL);
      f = ks_sim_get_fault (r.sim);
      g_assert_nonnull (f);
      g_assert_cmpuint (f->block[0], ==, 0);
      if (threads > 1 && strstr (f->message, "intra-warp spin lock") == NULL)
        {
          /* block 1 won the lock: block 0 spins uniformly */
          assert_fault (&r, KS_SIM_FAULT_DEADLOCK, 0, "livelock");
          run_clear (&r);
          continue;
        }
      assert_fault (&r, KS_SIM_FAULT_DEADLOCK, 0, "intra-warp spin lock");
      g_assert_cmpuint (f->thread[0], ==, 1);
      g_assert_cmpuint (f->ptx_line, >=, 12);
      g_assert_cmpuint (f->ptx_line, <=, 14);
      g_assert_nonnull (strstr (f->message, "lanes 0xfffffffe of warp 0"));
      run_clear (&r);
    }
}

/* Loops that end are never reported: lanes 1-31 count to 3 M while lane 0
 * waits to reconverge (12 M warp-instructions, past the 4 M after which a
 * block is looked at), and in a second block warp 1 spins on a flag that
 * warp 0 sets after a long loop of its own, which changes only registers
 * until then. */
static void
test_spin_not_livelock (void)
{
  Run r = { 0 };
  const uint32_t *out;
  size_t size;

  r.module = text_module (FAULT_HEADER
                          "  mov.u32 %r2, 0;\n"
                          "  setp.ne.u32 %p1, %r1, 0;\n"
                          "  @!%p1 bra $DONE;\n"
                          "$COUNT:\n"
                          "  add.u32 %r2, %r2, 1;\n"
                          "  setp.lt.u32 %p1, %r2, 3000000;\n"
                          "  @%p1 bra $COUNT;\n"
                          "  st.global.u32 [%rd1], %r2;\n"
                          "$DONE:\n"
                          "  ret;\n}\n");
  g_assert_cmpint (run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                                  " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 1}},"
                                  " \"params\": [{\"buffer\": \"p\"}]}"), ==, KS_SIM_DONE);
  out = (const uint32_t *) ks_sim_get_buffer (r.sim, 0, &size);
  g_assert_cmpuint (out[0], ==, 3000000);
  run_clear (&r);

  r.module = text_module (FAULT_HEADER
                          "  mov.u32 %r2, 0;\n"
                          "  setp.ge.u32 %p1, %r1, 32;\n"
                          "  @%p1 bra $WAIT;\n"
                          "$COUNT:\n"                                 /* warp 0 */
                          "  add.u32 %r2, %r2, 1;\n"
                          "  setp.lt.u32 %p1, %r2, 2000000;\n"
                          "  @%p1 bra $COUNT;\n"
                          "  st.volatile.global.u32 [%rd1], %r2;\n"
                          "  ret;\n"
                          "$WAIT:\n"                                  /* warp 1 */
                          "  ld.volatile.global.u32 %r3, [%rd1];\n"
                          "  setp.eq.u32 %p1, %r3, 0;\n"
                          "  @%p1 bra $WAIT;\n"
                          "  st.global.u32 [%rd1+4], %r3;\n"
                          "  ret;\n}\n");
  g_assert_cmpint (run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64],"
                                  " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 2}},"
                                  " \"params\": [{\"buffer\": \"p\"}]}"), ==, KS_SIM_DONE);
  out = (const uint32_t *) ks_sim_get_buffer (r.sim, 0, &size);
  g_assert_cmpuint (out[0], ==, 2000000);
  g_assert_cmpuint (out[1], ==, 2000000);
  run_clear (&r);
}

/* FP8 conversions; the bits worked out from the formats: e4m3 has a bias
 * of 7 (1.0 = 0 0111 000 = 0x38, -2.0 = 1 1000 000 = 0xc0, 448 the largest
 * finite = 0x7e), e5m2 a bias of 15 (1.0 = 0x3c, -2.0 = 0xc0) */
static void
test_fp8 (void)
{
  Run r = { 0 };
  const uint32_t *out;

  r.module = text_module (
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_out)\n"
    "{\n"
    "  .reg .b16 %h<4>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [k_out];\n"
    "  mov.f32 %f1, 0f3F800000;\n"                  /* 1.0 */
    "  mov.f32 %f2, 0fC0000000;\n"                  /* -2.0 */
    "  mov.f32 %f3, 0f461C4000;\n"                  /* 10000: past e4m3's range */
    "  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;\n"
    "  cvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2;\n"
    "  cvt.rn.satfinite.e4m3x2.f32 %h3, %f3, %f2;\n"
    "  cvt.rn.f16x2.e4m3x2 %r1, %h1;\n"
    "  cvt.u32.u16 %r2, %h1;\n"
    "  cvt.u32.u16 %r3, %h2;\n"
    "  cvt.u32.u16 %r4, %h3;\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
    "  ret;\n"
    "}\n");
  run_start (&r, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1],"
                 " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 4}},"
                 " \"params\": [{\"buffer\": \"out\"}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  g_assert_cmphex (out[0], ==, 0x3c00c000);      /* back to f16: 1.0 and -2.0 */
  g_assert_cmphex (out[1], ==, 0x38c0);
  g_assert_cmphex (out[2], ==, 0x3cc0);
  g_assert_cmphex (out[3], ==, 0x7ec0);          /* saturated to 448 */
  run_clear (&r);
}

/* The corpus's wmma kernel (17_wmma.cu): C = 0.5 * A x B for 32 x 32
 * matrices of halves, B column-major, one 16 x 16 tile a warp.  The
 * reference multiplies in k order with one fused multiply-add a step, as
 * the simulator's mma does (the hardware's order is not specified). */
static void
test_wmma (void)
{
  Run r = { 0 };
  enum { M = 32, N = 32, K = 32 };
  uint16_t a[M * K], b[N * K];
  float af[M * K], bf[N * K], ref[M * N];
  const float *out;
  g_autofree char *ha = NULL, *hb = NULL, *spec = NULL;

  /* small multiples of 1/8: exact in half precision */
  for (int i = 0; i < M * K; i++)
    {
      af[i] = (float) ((i * 37) % 17 - 8) / 8.0f;
      a[i] = ks_launch_f16_from_double (af[i]);
    }
  for (int i = 0; i < N * K; i++)
    {
      bf[i] = (float) ((i * 53) % 19 - 9) / 8.0f;
      b[i] = ks_launch_f16_from_double (bf[i]);
    }
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++)
      {
        float acc = 0.0f;

        for (int k = 0; k < K; k++)
          acc = fmaf (af[m * K + k], bf[n * K + k], acc);
        ref[m * N + n] = acc * 0.5f;
      }
  ha = hex_of (a, sizeof a);
  hb = hex_of (b, sizeof b);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1, 1], \"block\": [64, 2],"
                          " \"buffers\": {\"a\": {\"bytes_hex\": \"%s\"}, \"b\": {\"bytes_hex\": \"%s\"},"
                          " \"c\": {\"type\": \"f32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                          " {\"type\": \"s32\", \"value\": %d}, {\"type\": \"s32\", \"value\": %d},"
                          " {\"type\": \"s32\", \"value\": %d}]}", ha, hb, M * N, M, N, K);
  r.module = corpus_module ("17_wmma.ptx");
  run_start (&r, spec);
  assert_done (&r);
  out = buffer (&r, "c");
  g_assert_cmpmem (out, sizeof ref, ref, sizeof ref);
  run_clear (&r);
}

static void
progress_cb (double   fraction,
             gpointer user_data)
{
  GArray *seen = user_data;

  g_array_append_val (seen, fraction);
}

/* Run in slices of 100 warp-instructions, as the app steps it, with a
 * progress callback and a cancellable: the same result as one run. */
static void
test_stepping_and_progress (void)
{
  Run r = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  const float *c;
  guint slices = 0;

  r.module = corpus_module ("01_vector_add.ptx");
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                              " \"grid\": [8], \"block\": [128],"
                              " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1024,"
                              " \"init\": {\"range\": {\"start\": 0, \"step\": 1}}},"
                              " \"b\": {\"type\": \"f32\", \"count\": 1024,"
                              " \"init\": {\"range\": {\"start\": 0, \"step\": 2}}},"
                              " \"c\": {\"type\": \"f32\", \"count\": 1024}},"
                              " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                              " {\"type\": \"s32\", \"value\": 1024}]}", -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_set_progress_func (r.sim, progress_cb, seen);
  while (ks_sim_run (r.sim, 100, cancel) == KS_SIM_READY)
    slices++;
  assert_done (&r);
  g_assert_cmpuint (slices, >, 5);
  c = buffer (&r, "c");
  for (int i = 0; i < 1024; i++)
    g_assert_cmpfloat (c[i], ==, 3.0f * i);
  /* one report per block, the last one at 1 */
  g_assert_cmpuint (seen->len, ==, 8);
  g_assert_cmpfloat (g_array_index (seen, double, 7), ==, 1.0);
  g_assert_cmpfloat (g_array_index (seen, double, 0), ==, 1.0 / 8);
  run_clear (&r);

  /* cancelled before it starts: nothing runs */
  r.module = corpus_module ("01_vector_add.ptx");
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                              " \"grid\": [8], \"block\": [128], \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1},"
                              " \"b\": {\"type\": \"f32\", \"count\": 1}, \"c\": {\"type\": \"f32\", \"count\": 1}},"
                              " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                              " {\"type\": \"s32\", \"value\": 0}]}", -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_cancellable_cancel (cancel);
  g_assert_cmpint (ks_sim_run (r.sim, 0, cancel), ==, KS_SIM_CANCELLED);
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->warp_instructions, ==, 0);
  run_clear (&r);
}

/* Runs a launch on n threads, with the trace on (up to max_events, 0: the
 * default) or off; returns the sim */
static KsSim *
run_traced (KsPtxModule *m,
            KsLaunch    *l,
            uint32_t     n,
            gboolean     trace,
            uint64_t     max_events)
{
  g_autoptr(GError) error = NULL;
  KsSim *sim = ks_sim_new (m, l, &error);

  g_assert_no_error (error);
  ks_sim_set_trace (sim, trace, max_events);
  ks_sim_set_threads (sim, n);
  ks_sim_run (sim, 0, NULL);
  return sim;
}

static KsSim *
run_threads (KsPtxModule *m,
             KsLaunch    *l,
             uint32_t     n)
{
  return run_traced (m, l, n, FALSE, 0);
}

static KsPtxModule *
sample_module (const char *dir,
               const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", dir, name, NULL);
  g_autoptr(GError) error = NULL;
  KsPtxModule *m = ks_ptx_module_parse_file (path, &error);

  g_assert_no_error (error);
  return m;
}

/* Each thread writes its word, then reads and (t < 100) writes another
 * thread's word with no barrier between: shared-memory races in every
 * block, then a barrier and a clean read */
#define RACE_PTX \
  ".version 8.0\n.target sm_80\n.address_size 64\n" \
  ".visible .entry race(.param .u64 p_out)\n" \
  "{\n" \
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n" \
  "  .shared .align 4 .b32 sm[256];\n" \
  "  ld.param.u64 %rd1, [p_out];\n" \
  "  cvta.to.global.u64 %rd1, %rd1;\n" \
  "  mov.u32 %r1, %tid.x;\n" \
  "  mov.u32 %r2, sm;\n" \
  "  shl.b32 %r3, %r1, 2;\n" \
  "  add.s32 %r4, %r2, %r3;\n" \
  "  st.shared.u32 [%r4], %r1;\n" \
  "  add.s32 %r5, %r1, 37;\n" \
  "  and.b32 %r5, %r5, 255;\n" \
  "  shl.b32 %r5, %r5, 2;\n" \
  "  add.s32 %r5, %r2, %r5;\n" \
  "  ld.shared.u32 %r6, [%r5];\n" \
  "  setp.lt.u32 %p1, %r1, 100;\n" \
  "  @%p1 st.shared.u32 [%r5], %r6;\n" \
  "  bar.sync 0;\n" \
  "  ld.shared.u32 %r7, [%r4];\n" \
  "  mov.u32 %r0, %ctaid.x;\n" \
  "  mad.lo.s32 %r0, %r0, 256, %r1;\n" \
  "  mul.wide.u32 %rd2, %r0, 4;\n" \
  "  add.s64 %rd3, %rd1, %rd2;\n" \
  "  st.global.u32 [%rd3], %r7;\n" \
  "  ret;\n" \
  "}\n"

/* The same launches on one thread and on four: the same buffers, printf
 * output, statistics and fault; with the trace on, the same trace events
 * in the same order, memory records, per-instruction and per-line
 * statistics (bank conflicts, sectors, L1 and L2 hits), samples and
 * hazards */
static void
test_threads_identical (void)
{
  static const struct
  {
    const char *ptx;
    const char *spec;
    uint64_t max_events;
    uint32_t fault_block;
  } cases[] = {
    { "03_reduce_shared.ptx",
      "{\"ptx\": \"x.ptx\", \"grid\": [9], \"block\": [128],"
      " \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": 2300, \"init\": {\"random\": {\"seed\": 4, \"min\": -1, \"max\": 1}}},"
      " \"out\": {\"type\": \"f32\", \"count\": 9}},"
      " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": 2300}]}", 0 },
    { "08_printf.ptx",
      "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z5helloifPKc\", \"grid\": [7], \"block\": [3],"
      " \"buffers\": {\"tag\": {\"bytes_hex\": \"4b53000000000000\"}},"
      " \"params\": [{\"type\": \"s32\", \"value\": 5}, {\"type\": \"f32\", \"value\": 0.5},"
      " {\"buffer\": \"tag\"}]}", 0 },
    /* a fault in block 3 of 8: the same fault, whatever ran ahead of it */
    { "01_vector_add.ptx",
      "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\", \"grid\": [8], \"block\": [64],"
      " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 200}, \"b\": {\"type\": \"f32\", \"count\": 512},"
      " \"c\": {\"type\": \"f32\", \"count\": 512}},"
      " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
      " {\"type\": \"s32\", \"value\": 512}]}", 0, 3 },
    /* a fault in block 312 of 512, which threads take a few at a time:
     * element 20000 is the first past a (20000 / 64 = 312.5) */
    { "01_vector_add.ptx",
      "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\", \"grid\": [512], \"block\": [64],"
      " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 20000}, \"b\": {\"type\": \"f32\", \"count\": 32768},"
      " \"c\": {\"type\": \"f32\", \"count\": 32768}},"
      " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
      " {\"type\": \"s32\", \"value\": 32768}]}", 0, 312 },
    /* global and shared tiles, a grid that does not divide the matrix */
    { "02_transpose.ptx",
      "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z15transpose_tiledPfPKfii\", \"grid\": [5, 3], \"block\": [32, 8],"
      " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 11700},"
      " \"in\": {\"type\": \"f32\", \"count\": 11700, \"init\": {\"random\": {\"seed\": 3, \"min\": -5, \"max\": 5}}}},"
      " \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"in\"}, {\"type\": \"s32\", \"value\": 130},"
      " {\"type\": \"s32\", \"value\": 90}]}", 0 },
    /* the trace's limit falls in the middle of a block: it holds a
     * sample of whole blocks */
    { "03_reduce_shared.ptx",
      "{\"ptx\": \"x.ptx\", \"grid\": [20], \"block\": [256],"
      " \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": 10000, \"init\": {\"random\": {\"seed\": 5, \"min\": -1, \"max\": 1}}},"
      " \"out\": {\"type\": \"f32\", \"count\": 20}},"
      " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": 10000}]}", 1001 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (int trace = 0; trace < 2; trace++)
      {
        g_autoptr(KsPtxModule) m = NULL;
        g_autoptr(KsLaunch) l = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(KsSim) one = NULL, four = NULL;
        const KsSimStats *s1;

        m = corpus_module (cases[i].ptx);
        l = ks_launch_parse (cases[i].spec, -1, NULL, &error);
        g_assert_no_error (error);
        one = run_traced (m, l, 1, trace, cases[i].max_events);
        four = run_traced (m, l, 4, trace, cases[i].max_events);
        assert_same_results (m, l, one, four);
        s1 = ks_sim_get_stats (one);
        if (ks_sim_get_status (one) == KS_SIM_FAULTED)
          {
            g_assert_cmpuint (ks_sim_get_fault (one)->block[0], ==, cases[i].fault_block);
            g_assert_cmpuint (ks_sim_get_fault (four)->block[0], ==, cases[i].fault_block);
          }
        else
          g_assert_cmpint (ks_sim_get_status (one), ==, KS_SIM_DONE);
        if (trace && cases[i].max_events > 0)
          {
            /* every other block, or fewer, whose events fit; the rest
             * counted (test-sim-trace.c checks which blocks) */
            g_assert_cmpuint (s1->trace_stride, >=, 2);
            g_assert_cmpuint (s1->trace_events, <=, cases[i].max_events);
            g_assert_cmpuint (s1->trace_events, >, 0);
            g_assert_cmpuint (s1->trace_dropped, ==, s1->warp_instructions - s1->trace_events);
          }
        else if (trace)
          g_assert_cmpuint (s1->trace_events, ==, s1->warp_instructions);
        if (trace && i == 4)
          {
            /* the transpose reads each input sector once: L2 misses, and
             * L1 hits for the lanes after the first of a line */
            uint64_t l1 = 0, l2_misses = 0;

            for (uint32_t k = 0; k < m->n_insns; k++)
              l1 += ks_sim_get_insn_stats (one)[k].l1_hits,
              l2_misses += ks_sim_get_insn_stats (one)[k].l2_misses;
            g_assert_cmpuint (l1 + l2_misses, >, 0);
          }
      }

  /* The tiled matrix multiply of the samples on a 72 x 72 matrix (its
   * edge tiles diverge), and the racy kernel: hazards found per block and
   * merged in block order */
  {
    g_autoptr(KsPtxModule) m = sample_module ("22-matmul-tiled", "matmul_tiled.ptx");
    g_autoptr(GError) error = NULL;
    g_autoptr(KsLaunch) l = ks_launch_parse (
      "{\"ptx\": \"x.ptx\", \"grid\": [5, 5], \"block\": [16, 16],"
      " \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": 5184, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},"
      " \"B\": {\"type\": \"f32\", \"count\": 5184, \"init\": {\"random\": {\"seed\": 2, \"min\": -1, \"max\": 1}}},"
      " \"C\": {\"type\": \"f32\", \"count\": 5184}},"
      " \"params\": [{\"buffer\": \"A\"}, {\"buffer\": \"B\"}, {\"buffer\": \"C\"}, {\"type\": \"s32\", \"value\": 72}]}",
      -1, NULL, &error);
    g_autoptr(KsSim) one = NULL, four = NULL;

    g_assert_no_error (error);
    one = run_traced (m, l, 1, TRUE, 0);
    four = run_traced (m, l, 4, TRUE, 0);
    g_assert_cmpint (ks_sim_get_status (one), ==, KS_SIM_DONE);
    assert_same_results (m, l, one, four);
    g_assert_cmpuint (ks_sim_get_stats (one)->divergent_branches, >, 0);
  }
  {
    g_autoptr(KsPtxModule) m = text_module (RACE_PTX);
    g_autoptr(GError) error = NULL;
    g_autoptr(KsLaunch) l1 = ks_launch_parse (
      "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [256],"
      " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 256}}, \"params\": [{\"buffer\": \"out\"}]}",
      -1, NULL, &error);
    g_autoptr(KsLaunch) l6 = ks_launch_parse (
      "{\"ptx\": \"x.ptx\", \"grid\": [6], \"block\": [256],"
      " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 1536}}, \"params\": [{\"buffer\": \"out\"}]}",
      -1, NULL, &error);
    g_autoptr(KsSim) block = NULL, one = NULL, four = NULL;
    const KsSimHazard *hb, *h4;
    uint32_t nb, n4;

    g_assert_no_error (error);
    block = run_traced (m, l1, 1, TRUE, 0);
    one = run_traced (m, l6, 1, TRUE, 0);
    four = run_traced (m, l6, 4, TRUE, 0);
    assert_same_results (m, l6, one, four);
    /* every block races the same way: six times the hazards of one, each
     * first seen in block 0 */
    hb = ks_sim_get_hazards (block, &nb);
    h4 = ks_sim_get_hazards (four, &n4);
    g_assert_cmpuint (nb, >, 0);
    g_assert_cmpuint (n4, ==, nb);
    for (uint32_t k = 0; k < nb; k++)
      {
        g_assert_cmpint (h4[k].kind, ==, hb[k].kind);
        g_assert_cmpuint (h4[k].count, ==, 6 * hb[k].count);
        g_assert_cmpuint (h4[k].block[0], ==, 0);
      }
  }

  /* Integer atomics from blocks on different threads: none is lost */
  {
    g_autoptr(KsPtxModule) m = text_module (
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry k(.param .u64 k_p)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [k_p];\n"
      "  atom.global.add.u32 %r1, [%rd1], 1;\n"
      "  red.global.add.u32 [%rd1+4], 3;\n"
      "  ret;\n"
      "}\n");
    g_autoptr(GError) error = NULL;
    g_autoptr(KsLaunch) l = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"grid\": [64], \"block\": [96],"
                                             " \"buffers\": {\"p\": {\"type\": \"u32\", \"count\": 2}},"
                                             " \"params\": [{\"buffer\": \"p\"}]}", -1, NULL, &error);
    g_autoptr(KsSim) sim = NULL;
    const uint32_t *p;

    g_assert_no_error (error);
    sim = run_threads (m, l, 4);
    g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
    p = (const uint32_t *) ks_sim_get_buffer (sim, 0, NULL);
    g_assert_cmpuint (p[0], ==, 64 * 96);
    g_assert_cmpuint (p[1], ==, 3 * 64 * 96);
  }
}

typedef struct
{
  GThread *caller;
  GArray *seen;
  GCancellable *cancel;         /* cancelled at the first report when set */
} ThreadedProgress;

static void
threaded_progress_cb (double   fraction,
                      gpointer user_data)
{
  ThreadedProgress *p = user_data;

  /* the thread that called ks_sim_run reports, not a worker */
  g_assert_true (g_thread_self () == p->caller);
  g_array_append_val (p->seen, fraction);
  if (p->cancel != NULL)
    g_cancellable_cancel (p->cancel);
}

/* A run on four threads reports its progress from the calling thread as
 * blocks are put in order, up to 1, and stops when cancelled */
static void
test_threads_progress (void)
{
  g_autoptr(KsPtxModule) m = corpus_module ("01_vector_add.ptx");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_parse (
    "{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\", \"grid\": [2048], \"block\": [256],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 524288}, \"b\": {\"type\": \"f32\", \"count\": 524288},"
    " \"c\": {\"type\": \"f32\", \"count\": 524288}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
    " {\"type\": \"s32\", \"value\": 524288}]}", -1, NULL, &error);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  ThreadedProgress p = { g_thread_self (), seen, NULL };
  g_autoptr(KsSim) sim = NULL;

  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  ks_sim_set_threads (sim, 4);
  ks_sim_set_progress_func (sim, threaded_progress_cb, &p);
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
  g_assert_cmpuint (seen->len, >, 0);
  for (guint i = 1; i < seen->len; i++)
    g_assert_cmpfloat (g_array_index (seen, double, i - 1), <, g_array_index (seen, double, i));
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);
  /* every thread is in range: each warp runs the kernel's 22 instructions
   * (10 up to the bounds check's branch, 11 of the body, ret), and the
   * trace keeps them all */
  g_assert_cmpuint (ks_sim_get_stats (sim)->warp_instructions, ==, 2048 * 8 * 22);
  g_assert_cmpuint (ks_sim_get_stats (sim)->trace_events, ==, 2048 * 8 * 22);
  g_clear_pointer (&sim, ks_sim_free);

  /* cancelled at the first report: it stops with part of the blocks run */
  sim = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  ks_sim_set_threads (sim, 4);
  p.cancel = cancel;
  ks_sim_set_progress_func (sim, threaded_progress_cb, &p);
  g_assert_cmpint (ks_sim_run (sim, 0, cancel), ==, KS_SIM_CANCELLED);
  g_assert_cmpuint (ks_sim_get_stats (sim)->warp_instructions, <, 2048 * 8 * 22);
}

static void
test_bad_launch (void)
{
  g_autoptr(KsPtxModule) m = corpus_module ("01_vector_add.ptx");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = NULL;
  KsSim *sim;

  /* two kernels in the module and none named */
  l = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1], \"params\": []}",
                       -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_null (sim);
  g_assert_error (error, KS_SIM_ERROR, KS_SIM_ERROR_NO_KERNEL);
  g_clear_error (&error);
  g_clear_pointer (&l, ks_launch_free);

  /* wrong parameter count */
  l = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                       " \"grid\": [1], \"block\": [1], \"params\": []}", -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_null (sim);
  g_assert_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH);
  g_assert_nonnull (strstr (error->message, "takes 4 parameters"));
}

/* Shared memory over the limit is blamed on what is too large: the static
 * declaration when it alone is, else the launch's dynamic part */
static void
test_bad_launch_shared (void)
{
  static const char text[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n"
    "{\n"
    "  .shared .align 4 .b8 small[512];\n"
    "  .shared .align 4 %s;\n"                /* line 7 */
    "  ret;\n"
    "}\n";
  static const struct
  {
    const char *big;
    const char *dynamic;
    const char *message;
  } cases[] = {
    { ".b8 big[1073741824]", "0",
      "the static .shared variable 'big' (line 7) is 1073741824 bytes: the block's static "
      "shared memory, 1073742336 bytes, is more than any GPU has (228 KiB)" },
    /* past 4 GiB, where a 32-bit sum would wrap */
    { ".b64 big[1073741824]", "0",
      "the static .shared variable 'big' (line 7) is 8589934592 bytes: the block's static "
      "shared memory, 8589935104 bytes, is more than any GPU has (228 KiB)" },
    { ".b8 big[1024]", "232448",
      "dynamic_shared_bytes: the block would need 233984 bytes of shared memory "
      "(1536 static, 232448 dynamic), more than any GPU has (228 KiB)" },
    /* 1536 + 4294966784 wraps to 1024 in 32 bits */
    { ".b8 big[1024]", "4294966784",
      "dynamic_shared_bytes: the block would need 4294968320 bytes of shared memory "
      "(1536 static, 4294966784 dynamic), more than any GPU has (228 KiB)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *ptx = g_strdup_printf (text, cases[i].big);
      g_autofree char *spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"k\", "
                                               "\"grid\": [1], \"block\": [1], \"params\": [], "
                                               "\"dynamic_shared_bytes\": %s}", cases[i].dynamic);
      g_autoptr(GBytes) bytes = g_bytes_new (ptx, strlen (ptx));
      g_autoptr(KsPtxModule) m = ks_ptx_module_parse (bytes, "x.ptx");
      g_autoptr(GError) error = NULL;
      g_autoptr(KsLaunch) l = ks_launch_parse (spec, -1, NULL, &error);
      KsSim *sim;

      g_assert_no_error (error);
      g_assert_cmpuint (m->n_errors, ==, 0);
      sim = ks_sim_new (m, l, &error);
      g_assert_null (sim);
      g_assert_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/kernel/vector-add", test_vector_add);
  g_test_add_func ("/sim/kernel/old-ptx", test_old_ptx);
  g_test_add_func ("/sim/kernel/reachable-functions", test_reachable_functions);
  g_test_add_func ("/sim/kernel/redux-partition", test_redux_partition);
  g_test_add_func ("/sim/kernel/cg-reserved-smem", test_cg_reserved_smem);
  g_test_add_func ("/sim/kernel/reserved-smem-bounds", test_reserved_smem_bounds);
  g_test_add_func ("/sim/kernel/saxpy-grid-stride", test_saxpy_grid_stride);
  g_test_add_func ("/sim/kernel/reduce-shared", test_reduce_shared);
  g_test_add_func ("/sim/kernel/matmul-tiled", test_matmul_tiled);
  g_test_add_func ("/sim/kernel/recursion", test_recursion);
  g_test_add_func ("/sim/kernel/printf", test_printf);
  g_test_add_func ("/sim/simt/divergence", test_divergence);
  g_test_add_func ("/sim/warp/intrinsics", test_warp_intrinsics);
  g_test_add_func ("/sim/trace/divergence", test_trace_divergence);
  g_test_add_func ("/sim/memory/coalescing", test_memory_coalescing);
  g_test_add_func ("/sim/memory/bank-conflicts", test_memory_bank_conflicts);
  g_test_add_func ("/sim/memory/race-check", test_race_check);
  g_test_add_func ("/sim/memory/race-check-logged-reads", test_race_check_logged_reads);
  g_test_add_func ("/sim/barrier/after-exit", test_barrier_after_exit);
  g_test_add_func ("/sim/barrier/red-arrive-cp-async", test_barrier_forms);
  g_test_add_func ("/sim/memory/race-check-cp-async", test_race_check_cp_async);
  g_test_add_func ("/sim/fault/out-of-bounds", test_fault_out_of_bounds);
  g_test_add_func ("/sim/fault/out-of-bounds-nearest", test_fault_out_of_bounds_nearest);
  g_test_add_func ("/sim/fault/misaligned", test_fault_misaligned);
  g_test_add_func ("/sim/fault/deadlock-divergent", test_fault_deadlock);
  g_test_add_func ("/sim/fault/deadlock-mismatch", test_fault_barrier_mismatch);
  g_test_add_func ("/sim/fault/trap", test_fault_trap);
  g_test_add_func ("/sim/fault/step-limit", test_fault_step_limit);
  g_test_add_func ("/sim/fault/intra-warp-spin", test_fault_intra_warp_spin);
  g_test_add_func ("/sim/spin/livelock", test_spin_livelock);
  g_test_add_func ("/sim/spin/lock-blocks", test_spin_lock_blocks);
  g_test_add_func ("/sim/spin/not-livelock", test_spin_not_livelock);
  g_test_add_func ("/sim/numbers/fp8", test_fp8);
  g_test_add_func ("/sim/matrix/wmma", test_wmma);
  g_test_add_func ("/sim/api/stepping-and-progress", test_stepping_and_progress);
  g_test_add_func ("/sim/api/threads-identical", test_threads_identical);
  g_test_add_func ("/sim/api/threads-progress", test_threads_progress);
  g_test_add_func ("/sim/launch/bad", test_bad_launch);
  g_test_add_func ("/sim/launch/bad-shared", test_bad_launch_shared);
  return g_test_run ();
}
