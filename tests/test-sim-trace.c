/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compact trace (ks_sim_set_trace, ks_sim_get_trace): its records'
 * sizes, and a launch with more warp-instructions than the trace's limit
 * traced as a sample of whole blocks 0, s, 2s, ...  The reference is a run
 * of the same launch stepped one warp-instruction at a time with the trace
 * off (ks_sim_get_last_step): it gives each block's warp-instructions in
 * the order of a run in one go, independently of the trace.  The stride
 * follows from those counts alone: the trace holds the blocks that are
 * multiples of s, and s is the least power of two whose blocks fit (the
 * halvings only ever drop blocks that do not fit).  Runs on several
 * threads give the same trace; memory records line up with their events;
 * barrier waits are followed by releases; the timing model replays a
 * sampled trace. */

#include <math.h>
#include <string.h>

#include "ks-gpu-db.h"
#include "ks-occupancy.h"
#include "ks-test-sim-compare.h"
#include "ks-timing.h"

/* Block b's warps run a loop (b * 7) % 5 + 1 times, and only threads
 * below 40 do (warp 1 diverges): blocks have different numbers of
 * warp-instructions.  Global loads and stores, shared stores and loads
 * that hit 32 distinct banks, two barriers. */
static const char varied_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_out, .param .u64 p_in)\n{\n"
  "  .reg .b32 %r<16>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<8>;\n"
  "  .shared .align 4 .b32 sm[64];\n"
  "  ld.param.u64 %rd1, [p_out];\n"
  "  ld.param.u64 %rd2, [p_in];\n"
  "  cvta.to.global.u64 %rd1, %rd1;\n"
  "  cvta.to.global.u64 %rd2, %rd2;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, %ctaid.x;\n"
  "  mad.lo.u32 %r3, %r2, 64, %r1;\n"
  "  mul.wide.u32 %rd3, %r3, 4;\n"
  "  add.s64 %rd4, %rd2, %rd3;\n"
  "  ld.global.u32 %r4, [%rd4];\n"
  "  mov.u32 %r5, sm;\n"
  "  shl.b32 %r6, %r1, 2;\n"
  "  add.u32 %r7, %r5, %r6;\n"
  "  st.shared.u32 [%r7], %r4;\n"
  "  bar.sync 0;\n"
  "  mul.lo.u32 %r8, %r2, 7;\n"
  "  rem.u32 %r8, %r8, 5;\n"
  "  add.u32 %r8, %r8, 1;\n"
  "  mov.u32 %r9, 0;\n"
  "  setp.ge.u32 %p1, %r1, 40;\n"
  "  @%p1 bra DONE;\n"
  "LOOP:\n"
  "  xor.b32 %r10, %r1, %r9;\n"
  "  and.b32 %r10, %r10, 63;\n"
  "  shl.b32 %r10, %r10, 2;\n"
  "  add.u32 %r10, %r5, %r10;\n"
  "  ld.shared.u32 %r11, [%r10];\n"
  "  add.u32 %r4, %r4, %r11;\n"
  "  add.u32 %r9, %r9, 1;\n"
  "  setp.lt.u32 %p2, %r9, %r8;\n"
  "  @%p2 bra LOOP;\n"
  "DONE:\n"
  "  bar.sync 0;\n"
  "  add.s64 %rd5, %rd1, %rd3;\n"
  "  st.global.u32 [%rd5], %r4;\n"
  "  ret;\n"
  "}\n";

#define N_BLOCKS 600u
#define WARPS 2u

static KsPtxModule *
parse (const char *text)
{
  g_autoptr(GBytes) b = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (b, "trace.ptx");

  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_test_message ("%u:%u: %s", m->diagnostics[i].line, m->diagnostics[i].column,
                    m->diagnostics[i].message);
  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

static KsLaunch *
varied_launch (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf (
    "{\"ptx\": \"trace.ptx\", \"grid\": [%u], \"block\": [64],"
    " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": %u},"
    " \"in\": {\"type\": \"u32\", \"count\": %u, \"init\": {\"random\": {\"seed\": 9, \"min\": 0, \"max\": 1000}}}},"
    " \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"in\"}]}", N_BLOCKS, N_BLOCKS * 64, N_BLOCKS * 64);
  KsLaunch *l = ks_launch_parse (spec, -1, NULL, &error);

  g_assert_no_error (error);
  return l;
}

static KsSim *
run (const KsPtxModule *m,
     const KsLaunch    *l,
     uint32_t           threads,
     uint64_t           max_events)
{
  g_autoptr(GError) error = NULL;
  KsSim *sim = ks_sim_new (m, l, &error);

  g_assert_no_error (error);
  ks_sim_set_trace (sim, TRUE, max_events);
  ks_sim_set_threads (sim, threads);
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
  return sim;
}

/* The launch stepped one warp-instruction at a time, trace off: its steps
 * in order, and where each block's begin */
typedef struct
{
  GArray *steps;                /* KsSimStep */
  uint64_t first[N_BLOCKS + 1];
} Reference;

static void
reference_steps (const KsPtxModule *m,
                 const KsLaunch    *l,
                 Reference         *ref)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSim) sim = ks_sim_new (m, l, &error);
  uint64_t cta = 0;

  g_assert_no_error (error);
  ks_sim_set_trace (sim, FALSE, 0);
  ref->steps = g_array_new (FALSE, FALSE, sizeof (KsSimStep));
  for (;;)
    {
      KsSimStatus status = ks_sim_run (sim, 1, NULL);
      KsSimStep s;

      if (!ks_sim_get_last_step (sim, &s))
        break;
      /* the kernel returns explicitly: every step is an instruction */
      g_assert_cmpuint (s.insn, <, m->n_insns);
      g_assert_cmpuint (s.index, ==, ref->steps->len);
      g_array_append_val (ref->steps, s);
      if (status != KS_SIM_READY)
        break;
    }
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
  g_assert_cmpuint (ks_sim_get_stats (sim)->trace_events, ==, 0);
  /* blocks run one after another */
  ref->first[0] = 0;
  for (guint i = 0; i < ref->steps->len; i++)
    {
      const KsSimStep *s = &g_array_index (ref->steps, KsSimStep, i);

      g_assert_cmpuint (s->cta, >=, cta);
      while (cta < s->cta)
        ref->first[++cta] = i;
    }
  g_assert_cmpuint (cta, ==, N_BLOCKS - 1);
  ref->first[N_BLOCKS] = ref->steps->len;
}

/* The warp-instructions of the blocks that are multiples of s */
static uint64_t
sample_events (const Reference *ref,
               uint64_t         s)
{
  uint64_t n = 0;

  for (uint64_t k = 0; k < N_BLOCKS; k += s)
    n += ref->first[k + 1] - ref->first[k];
  return n;
}

/* Each event of the trace is the reference's step: instruction, warp,
 * lanes */
static void
assert_event_is_step (const KsTraceEvent *e,
                      const KsSimStep    *s)
{
  g_assert_cmpuint (e->insn, ==, s->insn);
  g_assert_cmpuint (e->warp, ==, s->cta * WARPS + s->warp);
  g_assert_cmphex (e->exec, ==, s->executed);
  g_assert_cmpuint (e->active_lanes, ==, (guint) __builtin_popcount (s->active));
}

/* The memory records belong, in order, to the events flagged
 * KS_TRACE_MEMORY, which are exactly the ld/st of global and shared memory
 * that ran lanes, and each record's kind is its instruction's space */
static void
assert_records_line_up (const KsPtxModule *m,
                        const KsSim       *sim)
{
  uint64_t n_ev, n_mem, mi = 0;
  const KsTraceEvent *ev = ks_sim_get_trace (sim, &n_ev);
  const KsTraceMemory *tm = ks_sim_get_trace_memory (sim, &n_mem);

  for (uint64_t i = 0; i < n_ev; i++)
    {
      const KsPtxInsn *in = &m->insns[ev[i].insn];
      gboolean access = (in->opcode == KS_PTX_OPC_LD || in->opcode == KS_PTX_OPC_ST)
                        && (in->space == KS_PTX_SPACE_GLOBAL || in->space == KS_PTX_SPACE_SHARED)
                        && ev[i].exec != 0;

      g_assert_cmpint (!!(ev[i].flags & KS_TRACE_MEMORY), ==, access);
      if (!access)
        continue;
      g_assert_cmpuint (mi, <, n_mem);
      g_assert_cmpuint (tm[mi].store, ==, in->opcode == KS_PTX_OPC_ST);
      if (in->space == KS_PTX_SPACE_SHARED)
        {
          /* consecutive words, or a permutation of them: 32 banks, one pass */
          g_assert_cmpuint (tm[mi].kind, ==, KS_TRACE_MEM_SHARED);
          g_assert_cmpuint (tm[mi].wavefronts, ==, 1);
        }
      else
        {
          /* a warp's 4-byte words from a 256-byte boundary: at most one
           * line of four sectors */
          g_assert_cmpuint (tm[mi].kind, ==, KS_TRACE_MEM_GLOBAL);
          g_assert_cmpuint (tm[mi].wavefronts, ==, 1);
          g_assert_cmpuint (ks_trace_memory_sectors (&tm[mi]), ==,
                            (__builtin_popcount (ev[i].exec) * 4 + 31) / 32);
        }
      mi++;
    }
  g_assert_cmpuint (mi, ==, n_mem);
}

/* Every barrier wait of a warp is followed by its release: the warp's
 * next event has KS_TRACE_RELEASE, and no other event has it */
static void
assert_barriers_released (const KsSim *sim,
                          gboolean     whole)
{
  uint64_t n;
  const KsTraceEvent *ev = ks_sim_get_trace (sim, &n);
  g_autoptr(GHashTable) waiting = g_hash_table_new (NULL, NULL);
  uint64_t waits = 0, releases = 0;

  for (uint64_t i = 0; i < n; i++)
    {
      gpointer key = GUINT_TO_POINTER (ev[i].warp + 1);
      gboolean waited = g_hash_table_remove (waiting, key);

      g_assert_cmpint (!!(ev[i].flags & KS_TRACE_RELEASE), ==, waited);
      releases += waited;
      if (ev[i].flags & KS_TRACE_BARRIER)
        {
          g_hash_table_add (waiting, key);
          waits++;
        }
    }
  /* two barriers per warp */
  if (whole)
    {
      g_assert_cmpuint (g_hash_table_size (waiting), ==, 0);
      g_assert_cmpuint (waits, ==, releases);
    }
  g_assert_cmpuint (waits, >, 0);
}

static void
test_sizes (void)
{
  /* issue 3: at most 16 bytes per event on average */
  g_assert_cmpuint (sizeof (KsTraceEvent), ==, 12);
  g_assert_cmpuint (sizeof (KsTraceMemory), ==, 4);
}

static void
test_sampled (void)
{
  g_autoptr(KsPtxModule) m = parse (varied_ptx);
  g_autoptr(KsLaunch) l = varied_launch ();
  Reference ref;
  uint64_t total, c0;
  uint64_t limits[6];

  reference_steps (m, l, &ref);
  total = ref.steps->len;
  c0 = ref.first[1];
  /* the loop makes blocks differ */
  g_assert_cmpuint (ref.first[2] - ref.first[1], !=, c0);

  limits[0] = 0;                /* the default: everything fits */
  limits[1] = total / 3;
  limits[2] = total / 50;
  limits[3] = c0 * 3;           /* a few blocks */
  limits[4] = c0;               /* block 0 alone */
  limits[5] = c0 - 5;           /* not even block 0: cut */

  for (guint c = 0; c < G_N_ELEMENTS (limits); c++)
    {
      g_autoptr(KsSim) one = run (m, l, 1, limits[c]);
      const KsSimStats *st = ks_sim_get_stats (one);
      uint64_t max = limits[c] ? limits[c] : 16u << 20, n, s = 1, k_ev = 0;
      const KsTraceEvent *ev = ks_sim_get_trace (one, &n);

      g_test_message ("limit %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " events, stride %"
                      G_GUINT64_FORMAT, max, n, st->trace_stride);
      g_assert_cmpuint (st->warp_instructions, ==, total);
      g_assert_cmpuint (st->trace_events, ==, n);
      g_assert_cmpuint (st->trace_events + st->trace_dropped, ==, total);
      if (c0 > max)
        {
          /* block 0 alone does not fit: its first events, and no whole block */
          g_assert_cmpuint (n, ==, max);
          g_assert_cmpuint (st->trace_stride, ==, 1);
          g_assert_cmpuint (st->trace_blocks, ==, 0);
          for (uint64_t i = 0; i < n; i++)
            assert_event_is_step (&ev[i], &g_array_index (ref.steps, KsSimStep, i));
        }
      else
        {
          while (sample_events (&ref, s) > max)
            s *= 2;
          g_assert_cmpuint (st->trace_stride, ==, s);
          g_assert_cmpuint (n, ==, sample_events (&ref, s));
          g_assert_cmpuint (st->trace_blocks, ==, (N_BLOCKS + s - 1) / s);
          /* blocks 0, s, 2s, ... each with all of its events */
          for (uint64_t k = 0; k < N_BLOCKS; k += s)
            for (uint64_t i = ref.first[k]; i < ref.first[k + 1]; i++)
              assert_event_is_step (&ev[k_ev++], &g_array_index (ref.steps, KsSimStep, i));
          g_assert_cmpuint (k_ev, ==, n);
        }
      if (c == 0)
        g_assert_cmpuint (s, ==, 1);
      else if (c < 4)
        g_assert_cmpuint (s, >, 1);
      assert_records_line_up (m, one);
      assert_barriers_released (one, c0 <= max);

      /* the same trace from workers that sample their own blocks: two and
       * four threads, which take a few blocks at a time */
      for (uint32_t threads = 2; threads <= 4; threads += 2)
        {
          g_autoptr(KsSim) par = run (m, l, threads, limits[c]);

          assert_same_results (m, l, one, par);
        }
    }
  g_array_unref (ref.steps);
}

/* A kernel whose blocks all do the same work: a sampled trace gives the
 * timing model the same kernel as a whole one, from a quarter of the
 * blocks (the SM's cycles scaled up, the grid's traffic and work scaled
 * from the blocks the trace holds) */
static const char same_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k(.param .u64 p_a)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [p_a];\n"
  "  cvta.to.global.u64 %rd1, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, %ctaid.x;\n"
  "  mad.lo.u32 %r3, %r2, 128, %r1;\n"
  "  mul.wide.u32 %rd2, %r3, 4;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.f32 %f1, [%rd3];\n"
  "  fma.rn.f32 %f2, %f1, %f1, %f1;\n"
  "  fma.rn.f32 %f3, %f2, %f1, %f2;\n"
  "  fma.rn.f32 %f4, %f3, %f2, %f3;\n"
  "  fma.rn.f32 %f5, %f4, %f3, %f4;\n"
  "  st.global.f32 [%rd3], %f5;\n"
  "  ret;\n"
  "}\n";

/* The launch both sampling tests use: 1024 blocks of 128 threads over a
 * buffer of 131072 floats (INIT is the buffer's spec after its count),
 * and an A100's architecture with the occupancy of such a block (the GPU
 * itself is not used, so one SM runs the grid) */
static KsLaunch *
same_launch (KsGpuDb           *db,
             const char        *init,
             const KsArchInfo **arch,
             KsOccupancyResult *occ)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf ("{\"ptx\": \"trace.ptx\", \"grid\": [1024], \"block\": [128],"
                                           " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 131072%s}},"
                                           " \"params\": [{\"buffer\": \"a\"}]}", init);
  KsLaunch *l;
  KsOccupancyInput in;

  g_assert_nonnull (ks_gpu_db_get_gpu (db, "a100-sxm4-80gb"));
  *arch = ks_gpu_db_get_arch (db, ks_gpu_db_get_gpu (db, "a100-sxm4-80gb")->arch);
  g_assert_nonnull (*arch);
  l = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  ks_occupancy_input_init (&in);
  in.block_size = 128;
  in.registers_per_thread = 32;
  g_assert_true (ks_occupancy_compute (*arch, &in, occ, &error));
  return l;
}

/* The timing model's replay of a sample of STRIDE-th blocks against the
 * whole grid's: the sample's warps are of blocks it holds, the SM's
 * cycles within 5 % (the same blocks in fewer waves), and the grid's work
 * and traffic exactly: every thread does 4 FMAs and reads its 4 bytes
 * from DRAM (the store finds the sector in L2, which writes back) */
static void
assert_sampled_timing (const KsPtxModule       *m,
                       KsSim                   *whole,
                       KsSim                   *sampled,
                       const KsArchInfo        *arch,
                       const KsOccupancyResult *occ,
                       uint32_t                 stride)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsTiming) tw = ks_timing_compute (m, whole, arch, NULL, occ, NULL, &error);
  g_autoptr(KsTiming) ts = NULL;

  g_assert_no_error (error);
  ts = ks_timing_compute (m, sampled, arch, NULL, occ, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tw->extrapolated);
  g_assert_cmpuint (tw->ctas_modelled, ==, 1024);
  g_assert_true (ts->extrapolated);
  g_assert_cmpuint (ts->ctas_modelled, ==, 1024 / stride);
  g_assert_cmpuint (ts->ctas_per_sm, ==, 1024);
  for (uint32_t i = 0; i < ts->n_warps; i++)
    g_assert_cmpuint (ts->warps[i].cta % stride, ==, 0);
  g_assert_cmpfloat_with_epsilon (ts->sm_cycles / tw->sm_cycles, 1.0, 0.05);
  g_assert_cmpfloat (tw->flops, ==, 1024.0 * 128 * 4 * 2);
  g_assert_cmpfloat (ts->flops, ==, tw->flops);
  g_assert_cmpfloat (tw->dram_bytes, ==, 131072.0 * 4);
  g_assert_cmpfloat (ts->dram_bytes, ==, tw->dram_bytes);
}

/* A trace past its limit keeps every fourth block, and the timing model
 * replays those as the SM's share */
static void
test_timing_sampled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  g_autoptr(KsPtxModule) m = parse (same_ptx);
  g_autoptr(KsLaunch) l = NULL;
  g_autoptr(KsSim) whole = NULL, sampled = NULL;
  const KsArchInfo *arch;
  KsOccupancyResult occ;
  uint64_t per_block;

  g_assert_no_error (error);
  l = same_launch (db, "", &arch, &occ);
  whole = run (m, l, 1, 0);
  per_block = ks_sim_get_stats (whole)->warp_instructions / 1024;
  /* room for 300 blocks: every fourth is kept */
  sampled = run (m, l, 1, per_block * 300);
  g_assert_cmpuint (ks_sim_get_stats (sampled)->trace_stride, ==, 4);
  g_assert_cmpuint (ks_sim_get_stats (sampled)->trace_blocks, ==, 256);
  assert_sampled_timing (m, whole, sampled, arch, &occ, 4);
}

/* A run of a sample of blocks (ks_sim_set_block_sample): only blocks 0,
 * 8, 16, ... run (the others' data stay as they were, and the stats say
 * so), and the timing model replays them as the SM's share */
static void
test_block_sample (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  g_autoptr(KsPtxModule) m = parse (same_ptx);
  g_autoptr(KsLaunch) l = NULL;
  g_autoptr(KsSim) whole = NULL, sampled = NULL;
  const KsArchInfo *arch;
  const float *a_whole, *a_sampled;
  KsOccupancyResult occ;

  g_assert_no_error (error);
  l = same_launch (db, ", \"init\": {\"range\": {\"start\": 0.5, \"step\": 0}}", &arch, &occ);
  whole = run (m, l, 1, 0);
  sampled = ks_sim_new (m, l, &error);
  g_assert_no_error (error);
  ks_sim_set_threads (sampled, 2);      /* ignored: a sample runs on one thread */
  ks_sim_set_block_sample (sampled, 8, 128);
  g_assert_cmpint (ks_sim_run (sampled, 0, NULL), ==, KS_SIM_DONE);
  g_assert_cmpuint (ks_sim_get_stats (sampled)->sampled_blocks, ==, 128);
  g_assert_cmpuint (ks_sim_get_stats (sampled)->trace_blocks, ==, 128);
  g_assert_cmpuint (ks_sim_get_stats (sampled)->warp_instructions, ==,
                    ks_sim_get_stats (whole)->warp_instructions / 8);
  a_whole = (const float *) ks_sim_get_buffer (whole, 0, NULL);
  a_sampled = (const float *) ks_sim_get_buffer (sampled, 0, NULL);
  for (uint32_t b = 0; b < 1024; b++)
    {
      /* x = 0.5: x*x + x, then three more FMAs, in C */
      float x = 0.5f, f2 = fmaf (x, x, x), f3 = fmaf (f2, x, f2), f4 = fmaf (f3, f2, f3);
      float f5 = fmaf (f4, f3, f4);
      float want = b % 8 == 0 ? f5 : 0.5f;

      g_assert_cmpfloat (a_whole[b * 128], ==, f5);
      g_assert_cmpfloat (a_sampled[b * 128 + 5], ==, want);
    }
  assert_sampled_timing (m, whole, sampled, arch, &occ, 8);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/trace/sizes", test_sizes);
  g_test_add_func ("/sim/trace/sampled", test_sampled);
  g_test_add_func ("/sim/trace/timing-sampled", test_timing_sampled);
  g_test_add_func ("/sim/trace/block-sample", test_block_sample);
  return g_test_run ();
}
