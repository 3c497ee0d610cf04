/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timing model against published measurements of whole kernels: the
 * first six kernels of Simon Boehm's SGEMM ladder ("How to Optimize a CUDA
 * Matmul Kernel for cuBLAS-like Performance", siboehm/SGEMM_CUDA), whose
 * README gives their speed at 4096 x 4096 x 4096 on an RTX A6000 in
 * GFLOP/s: 309.0, 1986.5, 2980.3, 8474.7, 15971.7, 18237.3.
 *
 * Each kernel (CUDA 11.8's PTX of them, tests/fixtures/lower) goes through
 * `kernelscope-cli analyze --no-toolkit --gpu rtx-a6000 --sample-blocks 8`,
 * as bench/bench-sgemm-ladder.sh runs it, and the model's GFLOP/s is
 * 2 N^3 / estimated_duration_us.  The targets of docs/TIMING.md: every
 * kernel within 0.5x-2x of its published speed, and each step of the
 * ladder faster, as measured.
 *
 * It takes about half a minute (the sampled blocks run 4096 steps of K
 * each), so it is its own suite, "figures", which the sanitizer build
 * leaves out; /timing/issue-ahead checks the same mechanism there. */

#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#define N 4096

typedef struct
{
  const char *name;
  const char *kernel;
  guint tile_x, tile_y;         /* output elements per block */
  const char *block;
  double published;             /* GFLOP/s, RTX A6000 */
} Rung;

static const Rung ladder[] = {
  { "naive", "_Z11sgemm_naiveiiifPKfS0_fPf", 32, 32, "32, 32", 309.0 },
  { "coalesced", "_Z25sgemm_global_mem_coalesceILj32EEviiifPKfS1_fPf", 32, 32, "1024", 1986.5 },
  { "shared-memory blocks", "_Z22sgemm_shared_mem_blockILi32EEviiifPKfS1_fPf", 32, 32, "1024",
    2980.3 },
  { "1D blocktiling", "_Z18sgemm1DBlocktilingILi64ELi64ELi8ELi8EEviiifPKfS1_fPf", 64, 64, "512",
    8474.7 },
  { "2D blocktiling", "_Z18sgemm2DBlocktilingILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf", 128, 128,
    "256", 15971.7 },
  { "vectorised", "_Z14sgemmVectorizeILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_", 128, 128, "256",
    18237.3 },
};

static char *cli;

/* The model's GFLOP/s for one rung */
static double
model_gflops (const char *dir,
              const Rung *r,
              gboolean    sass)
{
  g_autofree char *spec = NULL, *spec_path = g_build_filename (dir, "rung.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *timing;
  int status = 0;
  double us;
  const char *argv[] = { cli, "analyze", "--json", "--no-toolkit", "--gpu", "rtx-a6000",
                         "--sample-blocks", "8", spec_path, NULL };
  const char *with_sass[] = { cli, "analyze", "--json", "--gpu", "rtx-a6000",
                              "--sample-blocks", "8", spec_path, NULL };

  spec = g_strdup_printf (
    "{\"ptx\": \"ladder.ptx\", \"kernel\": \"%s\", \"grid\": [%u, %u, 1], \"block\": [%s],\n"
    " \"buffers\": {\n"
    "  \"A\": {\"type\": \"f32\", \"count\": %u, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},\n"
    "  \"B\": {\"type\": \"f32\", \"count\": %u, \"init\": {\"random\": {\"seed\": 2, \"min\": -1, \"max\": 1}}},\n"
    "  \"C\": {\"type\": \"f32\", \"count\": %u}},\n"
    " \"params\": [{\"type\": \"s32\", \"value\": %u}, {\"type\": \"s32\", \"value\": %u},\n"
    "  {\"type\": \"s32\", \"value\": %u}, {\"type\": \"f32\", \"value\": 1}, {\"buffer\": \"A\"},\n"
    "  {\"buffer\": \"B\"}, {\"type\": \"f32\", \"value\": 0}, {\"buffer\": \"C\"}]}\n",
    r->kernel, N / r->tile_x, N / r->tile_y, r->block, N * N, N * N, N * N, N, N, N);
  g_assert_true (g_file_set_contents (spec_path, spec, -1, &error));
  g_assert_no_error (error);
  g_spawn_sync (NULL, (char **) (sass ? with_sass : argv), NULL, 0, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s: analyze failed: %s", r->name, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (root, "timing"));
  timing = json_object_get_object_member (root, "timing");
  us = json_object_get_double_member (timing, "estimated_duration_us");
  g_assert_cmpfloat (us, >, 0);
  if (sass)
    {
      /* every loop of the kernel was timed from ptxas's SASS */
      if (json_object_get_int_member (timing, "sass_loops") < 1
          || json_object_get_int_member (timing, "sass_loops_not") != 0)
        g_error ("%s: the loops were not timed from the SASS: %s", r->name,
                 json_object_get_string_member (timing, "sass_reason"));
      g_assert_cmpint (json_object_get_int_member (timing, "sass_issued"), >,
                       json_object_get_int_member (timing, "issued") * 9 / 10);
    }
  g_unlink (spec_path);
  return 2.0 * N * N * (double) N / (us * 1e3);
}

static void
run_ladder (gboolean sass)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "fixtures", "lower",
                                                    "sgemm_ladder.sm_86.ptx", NULL);
  g_autofree char *dir = NULL, *ptx = NULL, *copy = NULL;
  g_autoptr(GError) error = NULL;
  double model[G_N_ELEMENTS (ladder)];
  gsize len = 0;

  dir = g_dir_make_tmp ("ks-ladder-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (fixture, &ptx, &len, &error));
  copy = g_build_filename (dir, "ladder.ptx", NULL);
  g_assert_true (g_file_set_contents (copy, ptx, (gssize) len, &error));

  for (guint i = 0; i < G_N_ELEMENTS (ladder); i++)
    {
      model[i] = model_gflops (dir, &ladder[i], sass);
      g_test_message ("%u %-20s model %8.1f GFLOP/s, published %8.1f: %.2f", i + 1,
                      ladder[i].name, model[i], ladder[i].published,
                      model[i] / ladder[i].published);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ladder); i++)
    {
      double ratio = model[i] / ladder[i].published;

      if (ratio < 0.5 || ratio > 2.0)
        g_error ("%s: the model's %.1f GFLOP/s is %.2f times the published %.1f", ladder[i].name,
                 model[i], ratio, ladder[i].published);
      /* each step faster, as measured */
      if (i > 0 && !(model[i] > model[i - 1]))
        g_error ("%s: %.1f GFLOP/s, not faster than %s's %.1f as measured", ladder[i].name,
                 model[i], ladder[i - 1].name, model[i - 1]);
    }
  g_unlink (copy);
  g_rmdir (dir);
}

static void
test_sgemm_ladder (void)
{
  run_ladder (FALSE);
}

/* The same, with the loops timed from the SASS ptxas makes of the PTX
 * (docs/TIMING.md, "Loops timed from the SASS"): CUDA 13's ptxas for sm_86,
 * its cubin read by the instruction words when no disassembler is there */
static void
test_sgemm_ladder_sass (void)
{
  g_autofree char *ptxas = g_find_program_in_path ("ptxas");

  if (ptxas == NULL && !g_file_test ("/usr/local/cuda/bin/ptxas", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("ptxas is not installed: no SASS to time the loops from");
      return;
    }
  run_ladder (TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  cli = g_strdup (g_getenv ("KS_CLI"));
  if (cli == NULL)
    cli = g_build_filename (g_test_get_dir (G_TEST_BUILT), "..", "src", "app", "kernelscope-cli",
                            NULL);
  g_test_add_func ("/figures/sgemm-ladder", test_sgemm_ladder);
  g_test_add_func ("/figures/sgemm-ladder-sass", test_sgemm_ladder_sass);
  return g_test_run ();
}
