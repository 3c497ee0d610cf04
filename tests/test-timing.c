/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timing model on micro-benchmarks, against published measurements
 * and NVIDIA's documented throughputs (the source is beside each figure).
 *
 * Each test runs a hand-written PTX kernel through the simulator, replays
 * it through the model and measures what a micro-benchmark measures on the
 * hardware (seeds/002): the cycles between dependent issues for a latency,
 * lane-operations per cycle for a throughput.  The expected figures are
 * written here, not read from data/gpus.json, so a wrong database entry or
 * a wrong mechanism in the model both fail. */

#include <math.h>
#include <string.h>

#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-timing.h"

typedef struct
{
  KsPtxModule *m;
  KsLaunch *l;
  KsSim *sim;
  KsTiming *t;
} Bench;

static KsGpuDb *db;

static void
bench_clear (Bench *b)
{
  g_clear_pointer (&b->t, ks_timing_free);
  g_clear_pointer (&b->sim, ks_sim_free);
  g_clear_pointer (&b->l, ks_launch_free);
  g_clear_pointer (&b->m, ks_ptx_module_free);
}

/* Runs `body` as the kernel k(.param .u64 p0) with `threads` threads per
 * block and `blocks` blocks, on `gpu` */
static void
bench_run (Bench      *b,
           const char *gpu_id,
           const char *body,
           uint32_t    threads,
           uint32_t    blocks,
           const char *buffer_json,
           uint32_t    l1_bytes,
           KsSchedulerPolicy policy)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *ptx = NULL, *spec = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const KsGpuInfo *gpu = ks_gpu_db_get_gpu (db, gpu_id);
  const KsArchInfo *arch;
  KsOccupancyInput in;
  KsOccupancyResult occ;
  KsTimingOptions opt;

  g_assert_nonnull (gpu);
  arch = ks_gpu_db_get_arch (db, gpu->arch);
  g_assert_nonnull (arch);

  ptx = g_strdup_printf (".version 8.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry k(.param .u64 p0)\n{\n"
                         ".reg .f32 %%f<80>;\n.reg .f64 %%fd<80>;\n.reg .b32 %%r<80>;\n"
                         ".reg .b64 %%rd<16>;\n.reg .pred %%p<4>;\n"
                         ".shared .align 8 .b32 sm[8192];\n"
                         "%s\nret;\n}\n", body);
  bytes = g_bytes_new (ptx, strlen (ptx));
  b->m = ks_ptx_module_parse (bytes, "bench.ptx");
  if (b->m->n_errors > 0)
    g_error ("bench.ptx:%u: %s", b->m->diagnostics[0].line, b->m->diagnostics[0].message);
  spec = g_strdup_printf ("{\"ptx\": \"bench.ptx\", \"grid\": [%u, 1, 1], \"block\": [%u, 1, 1],"
                          " \"buffers\": {\"a\": %s}, \"params\": [{\"buffer\": \"a\"}]}",
                          blocks, threads,
                          buffer_json ? buffer_json : "{\"type\": \"u32\", \"count\": 64}");
  b->l = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  b->sim = ks_sim_new (b->m, b->l, &error);
  g_assert_no_error (error);
  if (l1_bytes)
    ks_sim_set_caches (b->sim, l1_bytes, (uint32_t) (gpu->l2_mb * 1024 * 1024));
  g_assert_cmpint (ks_sim_run (b->sim, 0, NULL), ==, KS_SIM_DONE);

  ks_occupancy_input_init (&in);
  in.block_size = threads;
  in.registers_per_thread = 32;
  g_assert_true (ks_occupancy_compute (arch, &in, &occ, &error));
  ks_timing_options_init (&opt);
  opt.policy = policy;
  b->t = ks_timing_compute (b->m, b->sim, arch, gpu, &occ, &opt, &error);
  g_assert_no_error (error);
  g_assert_nonnull (b->t);
}

/* The events of one warp that ran opcode `op` */
static GArray *
events_of (const Bench *b,
           uint32_t     warp,
           KsPtxOpcode  op)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (KsTimingEvent));
  const KsTimingWarp *w = &b->t->warps[warp];

  for (uint64_t i = 0; i < w->n_events; i++)
    {
      const KsTimingEvent *e = &b->t->events[w->first_event + i];

      /* loads: the ones from memory, not the kernel's parameters */
      if (b->m->insns[e->insn].opcode == op && b->m->insns[e->insn].space != KS_PTX_SPACE_PARAM)
        g_array_append_val (a, *e);
    }
  return a;
}

/* Lane-operations per cycle of opcode `op` over all warps, from its first
 * issue to its last */
static double
lanes_per_cycle (const Bench *b,
                 KsPtxOpcode  op)
{
  uint32_t first = G_MAXUINT32, last = 0;
  double lanes = 0;

  for (uint64_t i = 0; i < b->t->n_events; i++)
    {
      const KsTimingEvent *e = &b->t->events[i];

      if (b->m->insns[e->insn].opcode != op)
        continue;
      first = MIN (first, e->cycle);
      last = MAX (last, e->cycle);
      lanes += e->active_lanes;
    }
  g_assert_cmpuint (last, >, first);
  return lanes / (double) (last - first + 1);
}

/* `n` lines of `tmpl`, each '@' replaced by the line's number (modulo
 * `modulo` when not 0) */
static char *
repeat (const char *tmpl,
        guint       n,
        guint       modulo)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      guint j = modulo ? i % modulo : i;

      for (const char *c = tmpl; *c; c++)
        if (*c == '@')
          g_string_append_printf (s, "%u", j);
        else
          g_string_append_c (s, *c);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

/* Dependent FFMAs: each waits for the one before.  Jia et al. 2018,
 * "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking"
 * (arXiv:1804.06826), instruction latencies: FFMA takes 4 cycles on Volta;
 * the same 4 cycles on Turing (Jia et al. 2019, "Dissecting the NVidia
 * Turing T4 GPU via Microbenchmarking", arXiv:1903.07486) and on Ampere
 * (Abdelkhalik et al. 2022, "Demystifying the Nvidia Ampere Architecture
 * through Microbenchmarking and Instruction-level Analysis",
 * arXiv:2208.11174). */
static void
test_ffma_dependent (void)
{
  const char *gpus[] = { "v100-sxm2", "t4", "a100-sxm4-80gb" };

  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    {
      Bench b = { 0 };
      g_autofree char *chain = repeat ("fma.rn.f32 %f1, %f1, %f2, %f3;", 128, 0);
      g_autofree char *body = g_strconcat ("mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f3F000000;\n"
                                           "mov.f32 %f3, 0f3E800000;\n", chain, NULL);
      g_autoptr(GArray) ev = NULL;
      KsTimingEvent *e;
      double cpi;

      bench_run (&b, gpus[g], body, 32, 1, NULL, 0, KS_SCHEDULER_GTO);
      ev = events_of (&b, 0, KS_PTX_OPC_FMA);
      g_assert_cmpuint (ev->len, ==, 128);
      e = (KsTimingEvent *) ev->data;
      cpi = (double) (e[127].cycle - e[1].cycle) / 126.0;
      g_test_message ("%s: dependent FFMA, %.2f cycles each", gpus[g], cpi);
      g_assert_cmpfloat_with_epsilon (cpi, 4.0, 0.01);
      /* and the model says why it waited: a fixed-latency dependency */
      g_assert_cmpuint (e[64].stall, ==, KS_STALL_WAIT);
      bench_clear (&b);
    }
}

/* Independent FFMAs from 32 warps: the FP32 pipe's throughput.  CUDA C++
 * Programming Guide 12.8, "Arithmetic Instructions", throughput table:
 * 32-bit floating-point add, multiply, multiply-add, results per clock
 * cycle per multiprocessor: 64 for compute capability 7.0, 7.5 and 8.0,
 * 128 for 8.6 and 8.9; 64-bit: 32 for 7.0 and 8.0, 2 for 7.5, 8.6, 8.9. */
static void
test_fp_throughput (void)
{
  const struct
  {
    const char *gpu;
    gboolean f64;
    double expected;
  } cases[] = {
    { "v100-sxm2", FALSE, 64 },
    { "a100-sxm4-80gb", FALSE, 64 },
    { "rtx-3090", FALSE, 128 },
    { "rtx-4090", FALSE, 128 },
    { "a100-sxm4-80gb", TRUE, 32 },
    { "rtx-3090", TRUE, 2 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Bench b = { 0 };
      g_autofree char *body = cases[c].f64
        ? repeat ("fma.rn.f64 %fd@, %fd@, %fd70, %fd71;", 16 * 8, 8)
        : repeat ("fma.rn.f32 %f@, %f@, %f70, %f71;", 64 * 8, 8);
      double lpc;

      bench_run (&b, cases[c].gpu, body, 1024, 1, NULL, 0, KS_SCHEDULER_GTO);
      lpc = lanes_per_cycle (&b, KS_PTX_OPC_FMA);
      g_test_message ("%s %s: %.1f FMA lanes per cycle per SM (guide: %.0f)", cases[c].gpu,
                      cases[c].f64 ? "f64" : "f32", lpc, cases[c].expected);
      g_assert_cmpfloat (fabs (lpc - cases[c].expected) / cases[c].expected, <=, 0.05);
      bench_clear (&b);
    }
}

/* A pointer chase in shared memory: each load's address is the value the
 * one before loaded.  Shared-memory load latency: 19 cycles on V100 (Jia et
 * al. 2018, memory latencies) and on T4 (Jia et al. 2019, the same
 * table for Turing). */
static void
test_shared_chase (void)
{
  const char *gpus[] = { "v100-sxm2", "t4" };

  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    {
      Bench b = { 0 };
      g_autofree char *chain = repeat ("ld.shared.u32 %r1, [%r1];", 64, 0);
      g_autofree char *body = g_strconcat ("mov.u32 %r1, sm;\nst.shared.u32 [%r1], %r1;\n", chain,
                                           NULL);
      g_autoptr(GArray) ev = NULL;
      KsTimingEvent *e;
      double cpi;

      bench_run (&b, gpus[g], body, 1, 1, NULL, 0, KS_SCHEDULER_GTO);
      ev = events_of (&b, 0, KS_PTX_OPC_LD);
      g_assert_cmpuint (ev->len, ==, 64);
      e = (KsTimingEvent *) ev->data;
      cpi = (double) (e[63].cycle - e[1].cycle) / 62.0;
      g_test_message ("%s: shared-memory chase, %.2f cycles a load", gpus[g], cpi);
      g_assert_cmpfloat_with_epsilon (cpi, 19.0, 0.01);
      g_assert_cmpuint (e[32].stall, ==, KS_STALL_SHORT_SCOREBOARD);
      bench_clear (&b);
    }
}

/* Bank conflicts: 32 warps load shared words with a stride of s words, so
 * s = 1 is conflict-free, s = 2 puts two lanes in a bank and s = 32 all 32.
 * CUDA C++ Programming Guide 12.8, "Shared Memory" (compute capability 5.x
 * and later): 32 banks, each 32 bits wide per clock cycle; "a shared memory
 * request for a warp ... with bank conflicts is split into as many separate
 * conflict-free requests as necessary, decreasing the effective bandwidth
 * by a factor equal to the number of separate memory requests": 32, 16 and
 * 1 loads a cycle per SM. */
static void
test_bank_conflicts (void)
{
  const uint32_t strides[] = { 1, 2, 32 };

  for (guint s = 0; s < G_N_ELEMENTS (strides); s++)
    {
      Bench b = { 0 };
      g_autofree char *loads = repeat ("ld.shared.u32 %r@, [%r60];", 64, 8);
      g_autofree char *body = g_strdup_printf ("mov.u32 %%r61, %%tid.x;\nand.b32 %%r61, %%r61, 31;\n"
                                               "mul.lo.u32 %%r62, %%r61, %u;\nmov.u32 %%r63, sm;\n"
                                               "mad.lo.u32 %%r60, %%r62, 4, %%r63;\n%s",
                                               strides[s], loads);
      double lpc, expected = 32.0 / strides[s];

      bench_run (&b, "a100-sxm4-80gb", body, 1024, 1, NULL, 0, KS_SCHEDULER_GTO);
      lpc = lanes_per_cycle (&b, KS_PTX_OPC_LD);
      g_test_message ("stride %u: %.2f shared loads per cycle per SM (expected %.0f)", strides[s],
                      lpc, expected);
      g_assert_cmpfloat (fabs (lpc - expected) / expected, <=, 0.05);
      bench_clear (&b);
    }
}

/* A dependent chain of global loads, i = a[i]; the latency is the cycles
 * from a load's issue to the issue of the instruction that uses it.  With
 * every element 0 the chase hits L1 after the first load: 28 cycles on
 * V100 (Jia et al. 2018, memory latencies), 32 on T4 (Jia et al. 2019).
 * Over 16 K elements with a 128-byte step and a 16 KiB L1, every load of
 * the second pass misses L1 and hits L2: 193 cycles on V100 (Jia et al.
 * 2018, memory latencies). */
static void
test_global_chase (void)
{
  const char *loop = "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, 0;\n"
                     "mov.u32 %r2, 0;\n"
                     "LOOP:\n"
                     "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                     "ld.global.u32 %r1, [%rd3];\n"
                     "add.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %s;\n@%p1 bra LOOP;\n";
  const struct
  {
    const char *gpu;
    gboolean l2;
    double expected;
  } cases[] = {
    { "v100-sxm2", FALSE, 28 },
    { "t4", FALSE, 32 },
    { "v100-sxm2", TRUE, 193 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Bench b = { 0 };
      const uint32_t n = 16384, step = 32;     /* elements: 64 KiB, 128 bytes apart */
      g_autofree char *body = NULL, *count = NULL;
      g_autoptr(GString) buf = g_string_new ("{\"type\": \"u32\", \"data\": [");
      g_autoptr(GArray) ld = NULL, mul = NULL;
      double sum = 0;
      guint from, to;

      for (uint32_t i = 0; i < n; i++)
        g_string_append_printf (buf, "%s%u", i ? ", " : "", cases[c].l2 ? (i + step) % n : 0);
      g_string_append (buf, "]}");
      /* two passes over the lines for L2, or 64 loads of one word */
      count = g_strdup_printf ("%u", cases[c].l2 ? 2 * n / step : 64);
      body = g_strdup (loop);
      {
        char *p = strstr (body, "%s");
        g_autofree char *tail = g_strdup (p + 2);

        *p = '\0';
        p = g_strconcat (body, count, tail, NULL);
        g_free (body);
        body = p;
      }
      bench_run (&b, cases[c].gpu, body, 1, 1, buf->str, cases[c].l2 ? 16384 : 0,
                 KS_SCHEDULER_GTO);
      ld = events_of (&b, 0, KS_PTX_OPC_LD);
      mul = events_of (&b, 0, KS_PTX_OPC_MUL);
      g_assert_cmpuint (mul->len, ==, ld->len);
      /* the mul of iteration i + 1 uses the load of iteration i; measure the
       * second half (L1 warm, or the second pass) */
      from = ld->len / 2;
      to = ld->len - 1;
      for (guint i = from; i < to; i++)
        sum += g_array_index (mul, KsTimingEvent, i + 1).cycle
               - g_array_index (ld, KsTimingEvent, i).cycle;
      sum /= (double) (to - from);
      g_test_message ("%s: global chase (%s), %.2f cycles a load (published %.0f)", cases[c].gpu,
                      cases[c].l2 ? "L2 hits" : "L1 hits", sum, cases[c].expected);
      g_assert_cmpfloat (fabs (sum - cases[c].expected) / cases[c].expected, <=, 0.03);
      g_assert_cmpuint (g_array_index (mul, KsTimingEvent, from + 1).stall, ==,
                        KS_STALL_LONG_SCOREBOARD);
      bench_clear (&b);
    }
}

/* Waves: 4096 blocks of 256 threads at 6 blocks/SM on 128 SMs (an RTX 4090)
 * are 4096 / 768 = 5.33 waves (the issue's worked example); the busiest SM
 * runs ceil (4096 / 128) = 32 blocks */
static void
test_waves (void)
{
  Bench b = { 0 };

  bench_run (&b, "rtx-4090", "mov.u32 %r1, %tid.x;", 256, 4096, NULL, 0, KS_SCHEDULER_GTO);
  g_assert_cmpuint (b.t->blocks_per_sm, ==, 6);
  g_assert_cmpfloat_with_epsilon (b.t->waves_per_sm, 4096.0 / 768.0, 1e-9);
  g_assert_cmpuint (b.t->ctas_per_sm, ==, 32);
  g_assert_cmpuint (b.t->ctas_modelled, ==, 32);
  g_assert_false (b.t->extrapolated);
  /* six blocks at a time: the SM's blocks start in ceil (32 / 6) = 6 groups */
  {
    g_autoptr(GHashTable) starts = g_hash_table_new (NULL, NULL);

    for (uint32_t i = 0; i < b.t->n_warps; i++)
      g_hash_table_add (starts, GUINT_TO_POINTER (b.t->warps[i].start_cycle + 1));
    g_assert_cmpuint (g_hash_table_size (starts), >=, 6);
  }
  bench_clear (&b);
}

/* seeds/004's vadd: 2^20 floats, <<<4096, 256>>>, 16 registers, on an RTX
 * 4090, against its Nsight Compute figures: gpu__time_duration 10.78 us,
 * sm__warps_active 82.77 % of peak, smsp__issue_active 5.17 %, and 8.4 MB
 * of DRAM reads (the 4 MB output stays in the 72 MB L2 while the kernel
 * runs), which is dram__throughput 79.65 % of peak.  The kernel is the
 * vector-add sample's nvcc output. */
static void
test_vadd_seed004 (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "01-vector-add", "vector_add.ptx", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (path, &error);
  g_autoptr(KsLaunch) l = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(KsTiming) t = NULL;
  const KsGpuInfo *gpu = ks_gpu_db_get_gpu (db, "rtx-4090");
  const KsArchInfo *arch = ks_gpu_db_get_arch (db, gpu->arch);
  KsOccupancyInput in;
  KsOccupancyResult occ;

  g_assert_no_error (error);
  l = ks_launch_parse ("{\"ptx\": \"vector_add.ptx\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\","
                       " \"grid\": [4096], \"block\": [256], \"buffers\": {"
                       " \"a\": {\"type\": \"f32\", \"count\": 1048576},"
                       " \"b\": {\"type\": \"f32\", \"count\": 1048576},"
                       " \"c\": {\"type\": \"f32\", \"count\": 1048576}},"
                       " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                       " {\"type\": \"s32\", \"value\": 1048576}]}", -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  ks_sim_set_caches (sim, 128 * 1024, (uint32_t) (gpu->l2_mb * 1024 * 1024));
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
  ks_occupancy_input_init (&in);
  in.block_size = 256;
  in.registers_per_thread = 16;
  g_assert_true (ks_occupancy_compute (arch, &in, &occ, &error));
  t = ks_timing_compute (m, sim, arch, gpu, &occ, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpfloat_with_epsilon (t->waves_per_sm, 5.33, 0.01);
  g_assert_cmpfloat_with_epsilon (t->estimated_duration_us / 10.78, 1.0, 0.30);
  g_assert_cmpfloat_with_epsilon (t->dram_bytes, 2.0 * 4 * 1048576, 1.0);
  g_assert_cmpfloat_with_epsilon (t->warps_active, 0.8277, 0.10);
  g_assert_cmpfloat_with_epsilon (t->issue_active / 0.0517, 1.0, 0.30);
  /* the model runs DRAM at its nominal peak, the kernel reached 80 %
   * (docs/TIMING.md): at least what was measured, at most the peak */
  g_assert_cmpfloat (t->dram_throughput, >=, 0.7965);
  g_assert_cmpfloat (t->dram_throughput, <=, 1.0 + 1e-9);
}

/* Loads issued ahead, as ptxas schedules a loop.  The coalesced kernel of
 * Simon Boehm's SGEMM ladder (tests/fixtures/lower) waits on two global
 * loads per step of its K loop.  In the PTX (nvcc unrolled the loop four
 * times) each FFMA follows its two loads; in ptxas's listing of the same
 * PTX (CUDA 11.8, sm_86) the loop is unrolled four times more and 22 of
 * its 32 LDGs issue before the first FFMA.  The model issues the PTX's
 * order with `in_order`; by default it issues loads ahead as that listing
 * does: many times the loads of one step before the first FMA, not more
 * than the listing's unrolled body holds, and the warp finishes sooner. */
static void
test_issue_ahead (void)
{
  g_autofree char *ptx_path = g_test_build_filename (G_TEST_DIST, "fixtures", "lower",
                                                     "sgemm_ladder.sm_86.ptx", NULL);
  g_autofree char *sass_path = g_test_build_filename (G_TEST_DIST, "fixtures", "lower",
                                                      "sgemm_ladder.sm_86.cuobjdump.sass", NULL);
  const char *kernel = "_Z25sgemm_global_mem_coalesceILj32EEviiifPKfS1_fPf";
  g_autofree char *listing = NULL, *spec = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (ptx_path, &error);
  g_autoptr(KsLaunch) l = NULL;
  g_autoptr(KsSim) sim = NULL;
  const KsGpuInfo *gpu = ks_gpu_db_get_gpu (db, "rtx-3090");
  const KsArchInfo *arch = ks_gpu_db_get_arch (db, gpu->arch);
  KsOccupancyInput in;
  KsOccupancyResult occ;
  KsTimingOptions opt;
  KsTiming *t[2];
  uint32_t ahead[2], listing_ahead = 0, listing_loads = 0;
  gboolean in_fn = FALSE, in_body = FALSE, seen_ffma = FALSE;

  g_assert_no_error (error);

  /* the listing's unrolled loop (from 0x250 to its back edge): its LDGs,
   * and those before its first FFMA */
  g_assert_true (g_file_get_contents (sass_path, &listing, NULL, &error));
  lines = g_strsplit (listing, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], "Function :") != NULL)
        in_fn = strstr (lines[i], kernel) != NULL;
      if (in_fn && strstr (lines[i], "/*0250*/") != NULL)
        in_body = TRUE;
      if (!in_body)
        continue;
      if (strstr (lines[i], " FFMA ") != NULL)
        seen_ffma = TRUE;
      if (strstr (lines[i], " LDG.E ") != NULL)
        {
          listing_loads++;
          listing_ahead += !seen_ffma;
        }
      if (strstr (lines[i], "BRA 0x250") != NULL)
        break;
    }
  /* the listing is read right */
  g_assert_cmpuint (listing_ahead, ==, 22);
  g_assert_cmpuint (listing_loads, ==, 32);

  spec = g_strdup_printf ("{\"ptx\": \"ladder.ptx\", \"kernel\": \"%s\", \"grid\": [2, 2],"
                          " \"block\": [1024], \"buffers\": {"
                          " \"A\": {\"type\": \"f32\", \"count\": 4096, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},"
                          " \"B\": {\"type\": \"f32\", \"count\": 4096, \"init\": {\"random\": {\"seed\": 2, \"min\": -1, \"max\": 1}}},"
                          " \"C\": {\"type\": \"f32\", \"count\": 4096}},"
                          " \"params\": [{\"type\": \"s32\", \"value\": 64}, {\"type\": \"s32\", \"value\": 64},"
                          " {\"type\": \"s32\", \"value\": 64}, {\"type\": \"f32\", \"value\": 1},"
                          " {\"buffer\": \"A\"}, {\"buffer\": \"B\"}, {\"type\": \"f32\", \"value\": 0},"
                          " {\"buffer\": \"C\"}]}", kernel);
  l = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
  ks_occupancy_input_init (&in);
  in.block_size = 1024;
  in.registers_per_thread = 38;
  g_assert_true (ks_occupancy_compute (arch, &in, &occ, &error));

  for (guint k = 0; k < 2; k++)
    {
      const KsTimingWarp *w;

      ks_timing_options_init (&opt);
      opt.in_order = k == 1;
      t[k] = ks_timing_compute (m, sim, arch, gpu, &occ, &opt, &error);
      g_assert_no_error (error);
      w = &t[k]->warps[0];
      ahead[k] = 0;
      for (uint64_t i = 0; i < w->n_events; i++)
        {
          const KsPtxInsn *pi = &m->insns[t[k]->events[w->first_event + i].insn];

          if (pi->opcode == KS_PTX_OPC_FMA)
            break;
          if (pi->opcode == KS_PTX_OPC_LD && pi->space == KS_PTX_SPACE_GLOBAL)
            ahead[k]++;
        }
    }
  g_test_message ("global loads before the first FMA: %u issuing ahead, %u in order, "
                  "%u in ptxas's listing; %u and %u cycles; %" G_GUINT64_FORMAT " issued ahead",
                  ahead[0], ahead[1], listing_ahead, t[0]->cycles, t[1]->cycles,
                  t[0]->issued_ahead);
  g_assert_cmpuint (ahead[1], ==, 2);
  g_assert_cmpuint (t[1]->issued_ahead, ==, 0);
  g_assert_cmpuint (ahead[0], >=, listing_ahead / 2);
  g_assert_cmpuint (ahead[0], <=, listing_loads);
  g_assert_cmpuint (t[0]->cycles, <, t[1]->cycles);
  ks_timing_free (t[0]);
  ks_timing_free (t[1]);
}

/* A barrier: warp 0 does 64 dependent FFMAs before bar.sync, the other
 * warps nothing; they wait at the barrier for about 64 * 4 cycles, and
 * the model calls it a barrier stall */
static void
test_barrier (void)
{
  Bench b = { 0 };
  g_autofree char *chain = repeat ("fma.rn.f32 %f1, %f1, %f1, %f1;", 64, 0);
  g_autofree char *body = g_strconcat ("mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n"
                                       "@%p1 bra WAIT;\n", chain, "WAIT:\nbar.sync 0;\n"
                                       "add.u32 %r2, %r1, 1;\n", NULL);
  uint64_t total = 0;

  bench_run (&b, "a100-sxm4-80gb", body, 256, 1, NULL, 0, KS_SCHEDULER_GTO);
  for (guint r = 0; r < KS_N_STALLS; r++)
    total += b.t->stall_cycles[r];
  g_test_message ("barrier: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " warp-cycles",
                  b.t->stall_cycles[KS_STALL_BARRIER], total);
  /* 7 warps wait about 64 * 4 cycles each */
  g_assert_cmpuint (b.t->stall_cycles[KS_STALL_BARRIER], >=, 7 * 60 * 4);
  /* after the barrier every warp's add issues after warp 0's last FFMA */
  {
    g_autoptr(GArray) f = events_of (&b, 0, KS_PTX_OPC_FMA);
    uint32_t last_fma = g_array_index (f, KsTimingEvent, f->len - 1).cycle;

    for (uint32_t w = 0; w < b.t->n_warps; w++)
      {
        g_autoptr(GArray) add = events_of (&b, w, KS_PTX_OPC_ADD);

        g_assert_cmpuint (add->len, ==, 1);
        g_assert_cmpuint (g_array_index (add, KsTimingEvent, 0).cycle, >, last_fma);
      }
  }
  bench_clear (&b);
}

/* The two schedulers issue the same instructions; with independent work,
 * GTO keeps one warp going while LRR takes turns */
static void
test_schedulers (void)
{
  Bench gto = { 0 }, lrr = { 0 };
  g_autofree char *body = repeat ("add.u32 %r@, %r@, 1;", 32, 8);

  bench_run (&gto, "a100-sxm4-80gb", body, 256, 1, NULL, 0, KS_SCHEDULER_GTO);
  bench_run (&lrr, "a100-sxm4-80gb", body, 256, 1, NULL, 0, KS_SCHEDULER_LRR);
  g_assert_cmpuint (gto.t->issued, ==, lrr.t->issued);
  /* GTO: warp 0's first two adds issue back to back on their
   * sub-partition; LRR: another warp of the sub-partition comes between */
  {
    g_autoptr(GArray) g0 = events_of (&gto, 0, KS_PTX_OPC_ADD);
    g_autoptr(GArray) l0 = events_of (&lrr, 0, KS_PTX_OPC_ADD);
    uint32_t gap_gto = g_array_index (g0, KsTimingEvent, 1).cycle - g_array_index (g0, KsTimingEvent, 0).cycle;
    uint32_t gap_lrr = g_array_index (l0, KsTimingEvent, 1).cycle - g_array_index (l0, KsTimingEvent, 0).cycle;

    g_assert_cmpuint (gap_lrr, >, gap_gto);
  }
  bench_clear (&gto);
  bench_clear (&lrr);
}

/* A launch too long to replay whole is extrapolated from the blocks the
 * SM runs together, never from one: the replay of 2 of 16 blocks, with
 * 8 resident at a time, gives the time of the replay of all 16 (within
 * 5 %).  The kernel is a chain of dependent FMAs, whose latency the
 * resident blocks hide for each other. */
static void
test_extrapolate_resident (void)
{
  static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .f32 %f<4>;\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
    "mov.u32 %r1, 0;\nmov.f32 %f1, 0f3F800000;\n"
    "LOOP:\nfma.rn.f32 %f1, %f1, %f1, %f1;\nfma.rn.f32 %f1, %f1, %f1, %f1;\n"
    "add.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 64;\n@%p1 bra LOOP;\nret;\n}\n";
  const KsGpuInfo *gpu = ks_gpu_db_get_gpu (db, "a100-sxm4-80gb");
  const KsArchInfo *arch;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, strlen (ptx));
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse (bytes, "resident.ptx");
  g_autoptr(KsLaunch) l = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autofree char *spec = NULL;
  KsOccupancyInput in;
  KsOccupancyResult occ;
  KsTimingOptions opt;
  KsTiming *whole, *part;
  uint32_t n_sms;

  g_assert_nonnull (gpu);
  arch = ks_gpu_db_get_arch (db, gpu->arch);
  n_sms = gpu->sm_count;
  g_assert_cmpuint (m->n_errors, ==, 0);
  ks_occupancy_input_init (&in);
  in.block_size = 256;
  in.registers_per_thread = 32;
  g_assert_true (ks_occupancy_compute (arch, &in, &occ, &error));
  /* 2048 threads an SM: 8 blocks of 256 */
  g_assert_cmpuint (occ.active_blocks_per_sm, ==, 8);

  /* two waves on each SM; the busiest SM's 16 blocks run */
  spec = g_strdup_printf ("{\"ptx\": \"resident.ptx\", \"grid\": [%u, 1, 1], "
                          "\"block\": [256, 1, 1], \"buffers\": {\"a\": {\"type\": \"u32\", "
                          "\"count\": 1}}, \"params\": [{\"buffer\": \"a\"}]}", 16 * n_sms);
  l = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  ks_sim_set_block_sample (sim, n_sms, 16);
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);

  ks_timing_options_init (&opt);
  whole = ks_timing_compute (m, sim, arch, gpu, &occ, &opt, &error);
  g_assert_no_error (error);
  opt.max_events = 1;
  part = ks_timing_compute (m, sim, arch, gpu, &occ, &opt, &error);
  g_assert_no_error (error);

  g_test_message ("whole: %" G_GUINT64_FORMAT " blocks, %.0f cycles; part: %" G_GUINT64_FORMAT
                  " blocks, %.0f cycles",
                  whole->ctas_modelled, whole->sm_cycles, part->ctas_modelled, part->sm_cycles);
  g_assert_cmpuint (whole->ctas_modelled, ==, 16);
  g_assert_false (whole->extrapolated);
  g_assert_cmpuint (part->ctas_modelled, ==, 8);
  g_assert_true (part->extrapolated);
  g_assert_cmpfloat (fabs (part->sm_cycles - whole->sm_cycles), <=, 0.05 * whole->sm_cycles);
  ks_timing_free (whole);
  ks_timing_free (part);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  db = ks_gpu_db_load_default (&error);
  g_assert_no_error (error);

  g_test_add_func ("/timing/ffma/dependent", test_ffma_dependent);
  g_test_add_func ("/timing/fp/throughput", test_fp_throughput);
  g_test_add_func ("/timing/shared/chase", test_shared_chase);
  g_test_add_func ("/timing/shared/bank-conflicts", test_bank_conflicts);
  g_test_add_func ("/timing/global/chase", test_global_chase);
  g_test_add_func ("/timing/waves", test_waves);
  g_test_add_func ("/timing/vadd-seed004", test_vadd_seed004);
  g_test_add_func ("/timing/issue-ahead", test_issue_ahead);
  g_test_add_func ("/timing/barrier", test_barrier);
  g_test_add_func ("/timing/schedulers", test_schedulers);
  g_test_add_func ("/timing/extrapolate-resident", test_extrapolate_resident);
  ret = g_test_run ();
  ks_gpu_db_free (db);
  return ret;
}
