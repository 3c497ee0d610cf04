/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Probe Lab's GPU runner (seed sections 11 and 12) without a GPU: the
 * CUDA driver is tests/fake-libcuda.c, loaded through $KS_LIBCUDA as
 * libcuda.so.1 would be, which writes the clock deltas and stored results
 * a test chooses.  Every figure checked here is computed by hand from
 * those choices: the medians, percentiles and standard deviations of
 * seed section 11's summary (numpy's linear percentiles), the corrected
 * cycles of section 12.2, the per-instruction figures over the probes'
 * instruction counts (their PTX loops: 256 trips of 128 FFMA).  What a
 * real GPU measures is not tested here; docs/PROBES.md says so. */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ks-cuda.h"
#include "ks-gpu-db.h"
#include "ks-probe.h"

/* The fake driver, or skip: it is built beside the tests */
static gboolean
use_fake (void)
{
  const char *fake = g_getenv ("KS_FAKE_LIBCUDA");

  if (fake == NULL || !g_file_test (fake, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("KS_FAKE_LIBCUDA names no fake driver (meson test sets it)");
      return FALSE;
    }
  g_setenv ("KS_LIBCUDA", fake, TRUE);
  g_unsetenv ("KS_FAKE_CUDA_JIT_ERROR");
  g_unsetenv ("KS_FAKE_CUDA_OUT");
  g_unsetenv ("KS_FAKE_CUDA_LOG");
  g_setenv ("KS_FAKE_CUDA_DEVICES", "1", TRUE);
  return TRUE;
}

static KsProbeResult *
model_run (const char *name,
           const char *gpu)
{
  g_autoptr(GError) error = NULL;
  KsProbeOptions opt;
  KsProbeResult *r;

  ks_probe_options_init (&opt);
  opt.gpu = gpu;
  opt.use_toolkit = FALSE;
  r = ks_probe_run (ks_probe_find (name), &opt, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  return r;
}

/* The float's bytes as the fake writes them (little-endian hex) */
static char *
float_hex (double v)
{
  float f = (float) v;
  uint8_t b[4];

  memcpy (b, &f, 4);
  return g_strdup_printf ("%02x%02x%02x%02x", b[0], b[1], b[2], b[3]);
}

static void
test_no_driver (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsCuda) cuda = NULL;

  g_setenv ("KS_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  cuda = ks_cuda_open (&error);
  g_assert_null (cuda);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no NVIDIA GPU driver here"));
  g_assert_nonnull (strstr (error->message, "/nonexistent/libcuda.so.1"));

  if (!use_fake ())
    return;
  g_clear_error (&error);
  g_setenv ("KS_FAKE_CUDA_DEVICES", "0", TRUE);
  cuda = ks_cuda_open (&error);
  g_assert_null (cuda);
  g_assert_nonnull (strstr (error->message, "sees no GPU"));
  g_setenv ("KS_FAKE_CUDA_DEVICES", "1", TRUE);
}

static void
test_summary (void)
{
  /* 1..20 shuffled: numpy.percentile(range(1, 21), [5, 50, 95]) is 1.95,
   * 10.5, 19.05; the sample standard deviation sqrt(35) */
  double v[20] = { 7, 3, 19, 1, 12, 20, 5, 16, 9, 2, 14, 11, 18, 4, 13, 6, 17, 8, 15, 10 };
  double one[1] = { 4.5 };
  KsProbeSummary s;

  ks_probe_summarise (v, 20, &s);
  g_assert_cmpuint (s.count, ==, 20);
  g_assert_cmpfloat_with_epsilon (s.min, 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.max, 20, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.median, 10.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.mean, 10.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.p5, 1.95, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.p95, 19.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.std, sqrt (35.0), 1e-12);

  ks_probe_summarise (one, 1, &s);
  g_assert_cmpuint (s.count, ==, 1);
  g_assert_cmpfloat (s.median, ==, 4.5);
  g_assert_cmpfloat (s.p5, ==, 4.5);
  g_assert_cmpfloat (s.p95, ==, 4.5);
  g_assert_cmpfloat (s.std, ==, 0);

  ks_probe_summarise (one, 0, &s);
  g_assert_cmpuint (s.count, ==, 0);
}

static void
test_model_gpu_for (void)
{
  char *id;

  /* the driver's names (cuDeviceGetName) against data/gpus.json's */
  id = ks_probe_model_gpu_for ("NVIDIA H200", "sm_90", 132);
  g_assert_cmpstr (id, ==, "h200");
  g_free (id);
  id = ks_probe_model_gpu_for ("NVIDIA GeForce RTX 3090", "sm_86", 82);
  g_assert_cmpstr (id, ==, "rtx-3090");
  g_free (id);
  /* no name in the database: the architecture's GPU of that many SMs */
  id = ks_probe_model_gpu_for ("NVIDIA A100-SXM4-40GB", "sm_80", 108);
  g_assert_cmpstr (id, ==, "a100-sxm4-80gb");
  g_free (id);
  /* nor that: the architecture's representative */
  id = ks_probe_model_gpu_for ("Some Ada card", "sm_89", 7);
  g_assert_nonnull (id);
  g_assert_true (g_str_equal (id, "rtx-4090") || g_str_equal (id, "l4")
                 || g_str_equal (id, "l40s"));
  g_free (id);
  g_assert_null (ks_probe_model_gpu_for ("Kepler", "sm_35", 15));
}

static char *
file_of (const KsProbeResult *r,
         const char          *path)
{
  for (guint i = 0; i + 1 < r->files->len; i += 2)
    if (g_str_equal (g_ptr_array_index (r->files, i), path))
      return g_ptr_array_index (r->files, i + 1);
  return NULL;
}

static void
test_accumulators (void)
{
  g_autoptr(KsProbeResult) r = NULL, back = NULL;
  g_autoptr(KsCuda) cuda = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *hex = NULL, *log = NULL, *logtext = NULL, *dir = NULL;
  g_auto(GStrv) rows = NULL, lines = NULL;
  const KsProbeCheck *same;
  guint loads = 0, launches = 0;
  /* 2 warm-up runs take the first two, the 5 measured the rest */
  const double expect_median = 131400.0 / 32768, expect_min = 131200.0 / 32768;

  if (!use_fake ())
    return;
  r = model_run ("accumulators", "h200");
  g_assert_cmpuint (r->points->len, ==, 5);
  hex = float_hex (g_array_index (r->points, KsProbePoint, 0).checksum);
  log = g_build_filename (g_get_tmp_dir (), "ks-fake-cuda-XXXXXX.log", NULL);
  g_close (g_mkstemp (log), NULL);
  g_setenv ("KS_FAKE_CUDA_LOG", log, TRUE);
  g_setenv ("KS_FAKE_CUDA_CYCLES", "131000,131100,131200,131300,131400,131500,131600", TRUE);
  g_setenv ("KS_FAKE_CUDA_OTHER_CYCLES", "1040", TRUE);
  g_setenv ("KS_FAKE_CUDA_OUT", hex, TRUE);

  cuda = ks_cuda_open (&error);
  g_assert_no_error (error);
  g_assert_true (ks_probe_run_on_gpu (r, cuda, 0, 2, 5, &error));
  g_assert_no_error (error);

  g_assert_cmpstr (r->ran_on, ==, "gpu");
  g_assert_cmpstr (r->evidence, ==, "controls-and-sweeps");
  g_assert_cmpstr (r->device, ==, "NVIDIA H200 (sm_90, 132 SMs)");
  g_assert_cmpuint (r->gpu_runs->len, ==, 25);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

      /* the probe's loop: 256 trips of 128 FFMA */
      g_assert_cmpuint (p->instructions, ==, 256 * 128);
      g_assert_cmpuint (p->gpu.count, ==, 5);
      g_assert_cmpfloat_with_epsilon (p->gpu.median, expect_median, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->gpu.mean, expect_median, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->gpu.min, expect_min, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->gpu.max, 131600.0 / 32768, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->gpu.std, sqrt (25000.0) / 32768, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->gpu.p5, 131220.0 / 32768, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->gpu.p95, 131580.0 / 32768, 1e-12);
      /* less the empty loop's 1040 cycles (seed section 12.2) */
      g_assert_cmpfloat_with_epsilon (p->gpu_corrected, (131400.0 - 1040) / 32768, 1e-12);
    }
  g_assert_cmpfloat (r->gpu_empty_loop_cycles, ==, 1040);
  g_assert_cmpfloat (r->gpu_timer_cycles, ==, 1040);
  /* once: a second run would mix two GPUs' figures in one result */
  g_assert_false (ks_probe_run_on_gpu (r, cuda, 0, 2, 5, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_cmpuint (r->gpu_runs->len, ==, 25);
  /* the GPU's figures as a series of their own: the medians */
  {
    g_autoptr(KsProbeResult) m = ks_probe_result_measured (r);

    g_assert_true (m->gpu_view);
    g_assert_cmpuint (m->points->len, ==, 5);
    g_assert_cmpfloat_with_epsilon (g_array_index (m->points, KsProbePoint, 4)
                                    .cycles_per_instruction, expect_median, 1e-12);
    g_assert_cmpuint (g_array_index (m->points, KsProbePoint, 4).total_cycles, ==, 131400);
  }

  /* the stored results: the first point's is the simulator's, not the
   * second's (two accumulators sum to another value) */
  same = g_ptr_array_index (r->checks, r->checks->len - 1);
  g_assert_cmpstr (same->item, ==, "the GPU's result is the simulator's");
  g_assert_true (same->checked);
  g_assert_false (same->pass);
  g_assert_nonnull (strstr (same->detail, "accumulators = 2"));
  g_assert_false (r->verified);
  g_assert_nonnull (strstr (r->conclusion, "failed verification"));

  /* every module was made for the device, every launch is the probe's */
  g_assert_true (g_file_get_contents (log, &logtext, NULL, NULL));
  lines = g_strsplit (logtext, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    if (g_str_has_prefix (lines[i], "load "))
      {
        g_assert_cmpstr (lines[i], ==, "load sm_90");
        loads++;
      }
    else
      {
        g_assert_true (g_str_has_prefix (lines[i], "launch probe grid 1 block 32 run "));
        launches++;
      }
  /* each point's probe and empty loop, and the timer once; 7 launches each */
  g_assert_cmpuint (loads, ==, 5 * 2 + 1);
  g_assert_cmpuint (launches, ==, 7 * loads);
  g_unlink (log);

  /* the seed's raw CSV: one row a measured run */
  rows = g_strsplit (file_of (r, "runtime/runtime_raw.csv"), "\n", -1);
  g_assert_cmpstr (rows[0], ==, "run,kernel,total_instructions,total_cycles,"
                                "cycles_per_instruction,checksum");
  g_assert_true (g_str_has_prefix (rows[1], "0,accumulators_ffma_1,32768,131200,4.003906,"));
  g_assert_true (g_str_has_prefix (rows[25], "4,accumulators_ffma_16,32768,131600,4.016113,"));
  g_assert_cmpstr (rows[26], ==, "");
  g_assert_nonnull (file_of (r, "runtime/model_raw.csv"));
  g_assert_nonnull (strstr (file_of (r, "runtime/runtime_summary.txt"),
                            "accumulators_ffma_1,5,4.003906,4.010010,4.010010,4.016113,"));
  g_assert_nonnull (strstr (file_of (r, "environment/gpu_environment.txt"),
                            "compute capability: 9.0"));

  /* the JSON's figures are the GPU's, the model's beside them; a folder
   * written and read back keeps both */
  {
    g_autoptr(JsonNode) root = ks_probe_result_to_json (r);
    JsonObject *o = json_node_get_object (root);
    JsonObject *p0 = json_array_get_object_element (json_object_get_array_member (o, "points"),
                                                     0);

    g_assert_cmpstr (json_object_get_string_member (o, "ran_on"), ==, "gpu");
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (p0, "cycles_per_instruction"),
                                    expect_median, 1e-12);
    g_assert_cmpfloat (json_object_get_double_member (p0, "model_cycles_per_instruction"), ==,
                       g_array_index (r->points, KsProbePoint, 0).cycles_per_instruction);
  }
  dir = g_dir_make_tmp ("ks-probe-gpu-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_true (ks_probe_write_folder (r, dir, &error));
  g_assert_no_error (error);
  back = ks_probe_result_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->ran_on, ==, "gpu");
  g_assert_cmpstr (back->device, ==, r->device);
  g_assert_cmpuint (back->measured_runs, ==, 5);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *a = &g_array_index (r->points, KsProbePoint, i);
      const KsProbePoint *b = &g_array_index (back->points, KsProbePoint, i);

      g_assert_cmpfloat_with_epsilon (b->gpu.median, a->gpu.median, 1e-9);
      g_assert_cmpfloat_with_epsilon (b->gpu.p95, a->gpu.p95, 1e-9);
      g_assert_cmpfloat_with_epsilon (b->cycles_per_instruction, a->cycles_per_instruction,
                                      1e-9);
      g_assert_cmpfloat_with_epsilon (b->gpu_corrected, a->gpu_corrected, 1e-9);
    }
  {
    g_autofree char *run = NULL, *path = g_build_filename (dir, "run_command.txt", NULL);

    g_assert_true (g_file_get_contents (path, &run, NULL, NULL));
    g_assert_cmpstr (run, ==, "kernelscope-cli probe run accumulators --instruction ffma "
                              "--gpu h200 --on gpu --device 0 --warmup 2 --runs 5 --out DIR\n");
  }
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  }
}

static void
test_edited (void)
{
  g_autoptr(KsProbeResult) model = NULL, r = NULL;
  g_autoptr(KsCuda) cuda = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *hex = NULL;
  KsProbeOptions opt;
  const KsProbeCheck *same;
  const KsProbePoint *p;

  if (!use_fake ())
    return;
  model = model_run ("accumulators", "h200");
  ks_probe_options_init (&opt);
  opt.gpu = "h200";
  r = ks_probe_run_ptx (ks_probe_find ("accumulators"), &opt, 1, model->ptx, &error);
  g_assert_no_error (error);
  hex = float_hex (g_array_index (r->points, KsProbePoint, 0).checksum);
  g_setenv ("KS_FAKE_CUDA_OUT", hex, TRUE);
  g_setenv ("KS_FAKE_CUDA_CYCLES", "131072", TRUE);
  cuda = ks_cuda_open (&error);
  g_assert_no_error (error);
  g_assert_true (ks_probe_run_on_gpu (r, cuda, 0, 0, 3, &error));
  g_assert_no_error (error);
  same = g_ptr_array_index (r->checks, r->checks->len - 1);
  g_assert_true (same->checked && same->pass);
  g_assert_true (r->verified);
  g_assert_cmpstr (r->evidence, ==, "measured");
  p = &g_array_index (r->points, KsProbePoint, 0);
  g_assert_cmpfloat (p->gpu.median, ==, 4.0);
  g_assert_true (isnan (p->gpu_corrected));
  g_assert_nonnull (strstr (r->conclusion, "your edited probe (accumulators = 1) took 4.00 "
                                           "cycles per instruction"));
  g_assert_nonnull (strstr (r->conclusion, "without controls"));
}

static void
test_jit_error (void)
{
  g_autoptr(KsProbeResult) r = NULL;
  g_autoptr(KsCuda) cuda = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;

  if (!use_fake ())
    return;
  r = model_run ("chain-length", "h200");
  before = g_strdup (r->conclusion);
  g_setenv ("KS_FAKE_CUDA_JIT_ERROR", "ptxas application ptx input, line 12; error   : "
            "Unknown symbol 'x'", TRUE);
  cuda = ks_cuda_open (&error);
  g_assert_no_error (error);
  g_assert_false (ks_probe_run_on_gpu (r, cuda, 0, 1, 2, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "could not compile the PTX"));
  g_assert_nonnull (strstr (error->message, "CUDA_ERROR_INVALID_PTX"));
  g_assert_nonnull (strstr (error->message, "line 12; error   : Unknown symbol 'x'"));
  /* nothing of the model's result is lost */
  g_assert_cmpstr (r->ran_on, ==, "model");
  g_assert_null (r->gpu_runs);
  g_assert_null (r->device);
  g_assert_cmpstr (r->conclusion, ==, before);
  g_assert_cmpuint (g_array_index (r->points, KsProbePoint, 0).gpu.count, ==, 0);
  g_unsetenv ("KS_FAKE_CUDA_JIT_ERROR");

  /* a GPU the driver does not have */
  g_clear_error (&error);
  g_assert_false (ks_probe_run_on_gpu (r, cuda, 3, 1, 2, &error));
  g_assert_nonnull (strstr (error->message, "there is no GPU 3"));
}

static void
test_warp_count (void)
{
  g_autoptr(KsProbeResult) r = NULL;
  g_autoptr(KsCuda) cuda = NULL;
  g_autoptr(GError) error = NULL;
  double first = 0;

  if (!use_fake ())
    return;
  r = model_run ("warp-count", "h200");
  /* every warp's loop took 65536 cycles: the SM's cycles per FFMA are
   * those over all the warps' instructions, so they halve as the warps
   * double */
  g_setenv ("KS_FAKE_CUDA_CYCLES", "65536", TRUE);
  cuda = ks_cuda_open (&error);
  g_assert_no_error (error);
  g_assert_true (ks_probe_run_on_gpu (r, cuda, 0, 0, 2, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);

      if (i == 0)
        first = p->gpu.median;
      g_assert_cmpfloat_with_epsilon (p->gpu.median * p->x, first, 1e-9);
    }
  g_assert_cmpfloat (g_array_index (r->points, KsProbePoint, 0).x, ==, 1);
  g_assert_cmpfloat (first, >, 0);
}

/* A measured latency as the model's (issue 17's calibration override):
 * the fake H200's one-accumulator FFMA loop takes 5 x 32768 cycles over an
 * empty loop of 1040, so its dependent FFMA latency is 5 cycles; written
 * into the user's GPU database (each test has its own XDG dirs), the
 * model's dependent chain on an sm_90 GPU then takes 5 cycles, not the
 * built-in 4 */
static void
test_calibrate (void)
{
  g_autoptr(KsProbeResult) r = NULL, back = NULL, before = NULL, after = NULL, edited = NULL;
  g_autoptr(KsCuda) cuda = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) outs = g_string_new (NULL);
  g_autoptr(KsGpuDb) builtin = NULL, db = NULL;
  g_autofree char *arch = NULL, *arch2 = NULL, *file = NULL, *dir = NULL, *text = NULL;
  const KsArchInfo *sm90, *old90;
  int klass = -1, klass2 = -1;
  guint latency = 0, latency2 = 0;
  double measured = 0, measured2 = 0;

  if (!use_fake ())
    return;
  builtin = ks_gpu_db_load_default (&error);
  g_assert_no_error (error);
  old90 = ks_gpu_db_get_arch (builtin, "sm_90");
  g_assert_cmpuint (old90->latencies[KS_LATENCY_FFMA].latency, ==, 4);
  r = model_run ("accumulators", "h200");
  before = model_run ("accumulators", "h200");
  /* a model run cannot calibrate the model */
  g_assert_false (ks_probe_calibration (before, &arch, &klass, &latency, &measured, &error));
  g_assert_nonnull (strstr (error->message, "model alone"));
  g_clear_error (&error);
  for (guint i = 0; i < r->points->len; i++)
    {
      g_autofree char *hex = float_hex (g_array_index (r->points, KsProbePoint, i).checksum);

      g_string_append_printf (outs, "%s%s", i ? "," : "", hex);
    }
  g_setenv ("KS_FAKE_CUDA_OUTS", outs->str, TRUE);
  g_setenv ("KS_FAKE_CUDA_CYCLES", "164880", TRUE);
  g_setenv ("KS_FAKE_CUDA_OTHER_CYCLES", "1040", TRUE);
  cuda = ks_cuda_open (&error);
  g_assert_no_error (error);
  g_assert_true (ks_probe_run_on_gpu (r, cuda, 0, 1, 3, &error));
  g_assert_no_error (error);
  g_unsetenv ("KS_FAKE_CUDA_OUTS");
  /* every point stored what the simulator computed: verified, concluded */
  g_assert_true (r->verified);
  g_assert_true (g_str_has_prefix (r->conclusion, "On the NVIDIA H200 (sm_90, 132 SMs), the "
                                   "median of 3 runs after 1 warm-up runs: a dependent FFMA "
                                   "chain took 5.03 cycles per instruction"));
  g_assert_nonnull (strstr (r->conclusion, "Evidence: measured on the GPU"));

  g_assert_true (ks_probe_calibration (r, &arch, &klass, &latency, &measured, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (arch, ==, "sm_90");
  g_assert_cmpint (klass, ==, KS_LATENCY_FFMA);
  g_assert_cmpfloat_with_epsilon (measured, 5.0, 1e-12);
  g_assert_cmpuint (latency, ==, 5);
  /* the folder read back says the same */
  dir = g_dir_make_tmp ("ks-calibrate-XXXXXX", &error);
  g_assert_true (ks_probe_write_folder (r, dir, &error));
  back = ks_probe_result_load (dir, &error);
  g_assert_no_error (error);
  g_assert_true (ks_probe_calibration (back, &arch2, &klass2, &latency2, &measured2, &error));
  g_assert_cmpstr (arch2, ==, arch);
  g_assert_cmpint (klass2, ==, klass);
  g_assert_cmpuint (latency2, ==, latency);

  file = ks_gpu_db_set_user_latency (arch, (KsLatencyClass) klass, latency, "measured: test",
                                     &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (file, g_get_user_config_dir ()));
  db = ks_gpu_db_load_default (&error);
  g_assert_no_error (error);
  sm90 = ks_gpu_db_get_arch (db, "sm_90");
  g_assert_cmpuint (sm90->latencies[KS_LATENCY_FFMA].latency, ==, 5);
  g_assert_cmpstr (sm90->latencies[KS_LATENCY_FFMA].source, ==, "measured: test");
  /* the rest of the entry, and the other classes, stay as built in */
  g_assert_cmpfloat (sm90->latencies[KS_LATENCY_FFMA].issue, ==,
                     old90->latencies[KS_LATENCY_FFMA].issue);
  g_assert_cmpuint (sm90->latencies[KS_LATENCY_IADD3].latency, ==,
                    old90->latencies[KS_LATENCY_IADD3].latency);

  /* the model now times FFMA chains on sm_90 with it */
  after = model_run ("accumulators", "h200");
  g_assert_cmpfloat (g_array_index (before->points, KsProbePoint, 0).cycles_per_instruction, <,
                     4.2);
  g_assert_cmpfloat (fabs (g_array_index (after->points, KsProbePoint, 0).cycles_per_instruction
                           - 5.0), <, 0.1);

  /* a second class keeps the first */
  g_free (file);
  file = ks_gpu_db_set_user_latency ("sm_90", KS_LATENCY_IADD3, 7, "measured: iadd3", &error);
  g_assert_no_error (error);
  g_clear_pointer (&db, ks_gpu_db_free);
  db = ks_gpu_db_load_default (&error);
  sm90 = ks_gpu_db_get_arch (db, "sm_90");
  g_assert_cmpuint (sm90->latencies[KS_LATENCY_FFMA].latency, ==, 5);
  g_assert_cmpuint (sm90->latencies[KS_LATENCY_IADD3].latency, ==, 7);

  /* a user file that is not JSON is named, with its place, and kept */
  g_assert_true (g_file_set_contents (file, "{\"archs\": [1,\n", -1, NULL));
  g_free (ks_gpu_db_set_user_latency ("sm_90", KS_LATENCY_FFMA, 4, "x", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "gpus.json:"));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "{\"archs\": [1,\n");
  g_unlink (file);

  /* an edited probe has no controls: no calibration */
  edited = ks_probe_run_ptx (ks_probe_find ("accumulators"), NULL, 1, before->ptx, &error);
  g_assert_no_error (error);
  g_free (g_steal_pointer (&arch));
  g_assert_false (ks_probe_calibration (edited, &arch, &klass, &latency, &measured, &error));
  g_assert_nonnull (error);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  /* a config folder of the tests' own, before GLib reads the variable:
   * the calibration writes the user's GPU database there (GLib 2.74's
   * G_TEST_OPTION_ISOLATE_DIRS leaks the names it makes) */
  g_autofree char *config = g_dir_make_tmp ("ks-probe-gpu-config-XXXXXX", NULL);
  g_autofree char *cleanup = g_strdup_printf ("rm -rf '%s'", config);
  int status;

  g_assert_nonnull (config);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/probe-gpu/no-driver", test_no_driver);
  g_test_add_func ("/probe-gpu/summary", test_summary);
  g_test_add_func ("/probe-gpu/model-gpu-for", test_model_gpu_for);
  g_test_add_func ("/probe-gpu/accumulators", test_accumulators);
  g_test_add_func ("/probe-gpu/edited", test_edited);
  g_test_add_func ("/probe-gpu/jit-error", test_jit_error);
  g_test_add_func ("/probe-gpu/warp-count", test_warp_count);
  g_test_add_func ("/probe-gpu/calibrate", test_calibrate);
  status = g_test_run ();
  g_spawn_command_line_sync (cleanup, NULL, NULL, NULL, NULL);
  return status;
}
