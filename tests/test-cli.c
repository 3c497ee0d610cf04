/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli's contract: one JSON object on stdout with --json, and
 * the exit statuses 0 (success), 1 (bad input), 2 (usage), 3 (a fault in
 * the kernel).  The expected values are read off the input files. */

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ks-test-files.h"
#include "ks-test-standin.h"

static char *cli;

typedef struct
{
  int status;
  char *out;
  char *err;
  JsonNode *json;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
  g_clear_pointer (&r->json, json_node_unref);
}

static Result
run_cli_env (const char *const *args,
             char              **envp)
{
  Result r = { 0 };
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, envp, 0, NULL, NULL, &r.out, &r.err, &wait_status,
                &error);
  g_assert_no_error (error);
  /* never killed by a signal */
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  if (r.out != NULL && r.out[0] == '{')
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      json_parser_load_from_data (parser, r.out, -1, &error);
      g_assert_no_error (error);
      r.json = json_node_ref (json_parser_get_root (parser));
    }
  return r;
}

static Result
run_cli (const char *const *args)
{
  return run_cli_env (args, NULL);
}

static char *
dist (const char *first,
      ...)
{
  va_list args;
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  const char *p;

  g_ptr_array_add (parts, (gpointer) g_test_get_dir (G_TEST_DIST));
  va_start (args, first);
  for (p = first; p; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

static void
test_parse_json (void)
{
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  const char *args[] = { "parse", "--json", ptx, NULL };
  Result r = run_cli (args);
  JsonObject *root, *k;
  JsonArray *kernels, *params, *blocks;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (r.json);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "version"), ==, "9.0");
  g_assert_cmpstr (json_object_get_string_member (root, "target"), ==, "sm_80");
  g_assert_cmpint (json_object_get_int_member (root, "address_size"), ==, 64);
  kernels = json_object_get_array_member (root, "kernels");
  g_assert_cmpuint (json_array_get_length (kernels), ==, 1);
  k = json_array_get_object_element (kernels, 0);
  g_assert_cmpstr (json_object_get_string_member (k, "name"), ==, "_Z10vector_addPKfS0_Pfi");
  /* (const float *a, const float *b, float *c, int n) */
  params = json_object_get_array_member (k, "params");
  g_assert_cmpuint (json_array_get_length (params), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (params, 3), "size"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (params, 0), "size"), ==, 8);
  /* if (i < n): the guard's block branches around the body, and both
   * reach the return, which is where they reconverge */
  blocks = json_object_get_array_member (k, "blocks");
  g_assert_cmpuint (json_array_get_length (blocks), ==, 3);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (blocks, 0), "ipdom"), ==, 2);
  g_assert_true (json_object_has_member (k, "source_lines"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "diagnostics")), ==, 0);
  result_clear (&r);
}

/* analyze of a cooperative launch: said in "launch", no timing but the
 * reason, and a grid larger than the GPU holds at once said too: on an A100
 * (108 SMs of 64 warps) a block of 3 warps fits 21 times an SM, 2268 in all */
static void
test_analyze_cooperative (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *spec = g_build_filename (dir, "coop.json", NULL);
  g_autofree char *ptx = dist ("ptx", "sim", "sm_80", "grid_sync.ptx", NULL);
  g_autofree char *text = NULL;
  const char *args[] = { "analyze", "--json", "--no-toolkit", "--gpu", "a100-sxm4-80gb", spec,
                         NULL };
  JsonObject *root, *launch;
  Result r;

  text = g_strdup_printf ("{\"ptx\": \"%s\", \"kernel\": \"_Z11grid_phasesPjPiS0_Px\","
                          " \"grid\": [2300], \"block\": [96], \"cooperative\": true,"
                          " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 220800},"
                          "   \"b\": {\"type\": \"s32\", \"count\": 220800},"
                          "   \"out\": {\"type\": \"s32\", \"count\": 2300},"
                          "   \"total\": {\"type\": \"s64\", \"count\": 1}},"
                          " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"},"
                          "   {\"buffer\": \"out\"}, {\"buffer\": \"total\"}]}", ptx);
  g_assert_true (g_file_set_contents (spec, text, -1, NULL));
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  launch = json_object_get_object_member (root, "launch");
  g_assert_true (json_object_get_boolean_member (launch, "cooperative"));
  g_assert_true (!json_object_has_member (root, "timing")
                 || json_object_get_null_member (root, "timing"));
  g_assert_nonnull (strstr (json_object_get_string_member (root, "timing_error"),
                            "does not time a cooperative launch"));
  g_assert_nonnull (strstr (json_object_get_string_member (root, "occupancy_error"),
                            "holds 2268 at once (21 on each of its 108 SMs)"));
  g_assert_nonnull (strstr (json_object_get_string_member (root, "occupancy_error"),
                            "cudaErrorCooperativeLaunchTooLarge"));
  result_clear (&r);
  g_unlink (spec);
  g_rmdir (dir);
}

static void
test_parse_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.ptx", NULL);
  const char *args[] = { "parse", bad, NULL };
  const char *missing[] = { "parse", "/nonexistent/x.ptx", NULL };
  const char *usage[] = { "parse", NULL };
  const char *unknown[] = { "frobnicate", NULL };
  Result r;

  g_file_set_contents (bad, ".version 8.0\n.target sm_80\n.address_size 64\n"
                            ".visible .entry k()\n{\n  mov.u32 %r1 1;\n  ret;\n}\n", -1, NULL);
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 1);
  /* FILE:LINE:COL: error: ... */
  g_assert_nonnull (strstr (r.err, "bad.ptx:6:"));
  g_assert_nonnull (strstr (r.err, ": error: "));
  result_clear (&r);

  r = run_cli (missing);
  g_assert_cmpint (r.status, ==, 1);
  result_clear (&r);
  r = run_cli (usage);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  r = run_cli (unknown);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_run_json (void)
{
  g_autofree char *spec = dist ("..", "data", "samples", "01-vector-add", "vector_add.json", NULL);
  const char *args[] = { "run", "--json", spec, NULL };
  Result r = run_cli (args);
  JsonObject *root, *c;
  JsonArray *data;

  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "status"), ==, "ok");
  c = json_object_get_object_member (json_object_get_object_member (root, "buffers"), "c");
  g_assert_cmpstr (json_object_get_string_member (c, "type"), ==, "f32");
  g_assert_cmpint (json_object_get_int_member (c, "count"), ==, 1000);
  /* one encoding, numbers by default (--encoding) */
  g_assert_false (json_object_has_member (c, "bytes_hex"));
  data = json_object_get_array_member (c, "data");
  g_assert_cmpuint (json_array_get_length (data), ==, 1000);
  /* b is the range 0, 0.5, 1, ...; a is random in [-1, 1): c - b in [-1, 1) */
  for (guint i = 0; i < 1000; i += 97)
    {
      double v = json_array_get_double_element (data, i) - 0.5 * i;

      g_assert_cmpfloat (v, >=, -1.0);
      g_assert_cmpfloat (v, <, 1.0);
    }
  g_assert_true (json_object_has_member (json_object_get_object_member (root, "stats"),
                                         "warp_instructions"));
  result_clear (&r);
}

/* --encoding: the same bytes as numbers, as hex or both; without
 * "outputs" every buffer */
static void
test_run_encoding (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "vadd.json", NULL);
  /* a + b with a = 0.5, -2, 1e-7, 3 and b = 0, 1, 2, 3 (b: the range) */
  g_autofree char *text = g_strdup_printf (
    "{\"ptx\": \"%s\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"data\": [0.5, -2, 1e-7, 3]},"
    " \"b\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"range\": {\"start\": 0, \"step\": 1}}},"
    " \"c\": {\"type\": \"f32\", \"count\": 4}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": 4}]}",
    ptx);
  const char *data_args[] = { "run", "--json", spec, NULL };
  const char *hex_args[] = { "run", "--json", "--encoding", "hex", spec, NULL };
  const char *both_args[] = { "run", "--json", "--encoding=both", spec, NULL };
  const char *bad_args[] = { "run", "--json", "--encoding", "base64", spec, NULL };
  /* 0.5f + 0, -2 + 1, 1e-7f + 2, 3 + 3, little-endian */
  const float c_expect[4] = { 0.5f, -1.0f, 1e-7f + 2.0f, 6.0f };
  g_autofree char *c_hex = NULL;
  Result r;
  JsonObject *bufs, *c;
  JsonArray *data;

  {
    GString *h = g_string_new (NULL);
    const guint8 *p = (const guint8 *) c_expect;

    for (guint i = 0; i < sizeof c_expect; i++)
      g_string_append_printf (h, "%02x", p[i]);
    c_hex = g_string_free (h, FALSE);
  }
  g_file_set_contents (spec, text, -1, NULL);

  r = run_cli (data_args);
  g_assert_cmpint (r.status, ==, 0);
  bufs = json_object_get_object_member (json_node_get_object (r.json), "buffers");
  g_assert_cmpuint (json_object_get_size (bufs), ==, 3);
  c = json_object_get_object_member (bufs, "c");
  g_assert_false (json_object_has_member (c, "bytes_hex"));
  data = json_object_get_array_member (c, "data");
  g_assert_cmpuint (json_array_get_length (data), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (json_array_get_double_element (data, i), ==, (double) c_expect[i]);
  /* floats as json-glib writes doubles: 17 digits, 6 as 6.0 */
  g_assert_nonnull (strstr (r.out, "6.0"));
  result_clear (&r);

  r = run_cli (hex_args);
  g_assert_cmpint (r.status, ==, 0);
  c = json_object_get_object_member (json_object_get_object_member (json_node_get_object (r.json),
                                                                    "buffers"), "c");
  g_assert_false (json_object_has_member (c, "data"));
  g_assert_cmpstr (json_object_get_string_member (c, "bytes_hex"), ==, c_hex);
  g_assert_cmpstr (json_object_get_string_member (c, "type"), ==, "f32");
  g_assert_cmpint (json_object_get_int_member (c, "count"), ==, 4);
  result_clear (&r);

  r = run_cli (both_args);
  g_assert_cmpint (r.status, ==, 0);
  c = json_object_get_object_member (json_object_get_object_member (json_node_get_object (r.json),
                                                                    "buffers"), "c");
  g_assert_cmpstr (json_object_get_string_member (c, "bytes_hex"), ==, c_hex);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (c, "data")), ==, 4);
  result_clear (&r);

  r = run_cli (bad_args);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--encoding must be data, hex or both"));
  result_clear (&r);

  g_unlink (spec);
  g_rmdir (dir);
}

/* A two-pass reduction (nvcc's PTX) as two launches: statistics for
 * each and their totals, the sum against C, a symbol read back; a fault
 * in the second launch names it */
static void
test_run_launches (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = dist ("ptx", "sim", "sm_80", "reduce_two_pass.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "reduce.json", NULL);
  g_autofree char *bad_spec = g_build_filename (dir, "bad.json", NULL);
  g_autoptr(GString) values = g_string_new (NULL);
  g_autofree char *text = NULL;
  const char *args[] = { "run", "--json", spec, NULL };
  const char *text_args[] = { "run", spec, NULL };
  const char *bad_args[] = { "run", "--json", bad_spec, NULL };
  JsonObject *root, *st0, *st1, *total, *fault;
  gint64 warp0;
  JsonArray *list;
  double sum = 0;
  Result r;

  /* 3000 whole numbers: the sum is exact in any order */
  for (guint i = 0; i < 3000; i++)
    {
      int v = (int) ((i * 7919u) % 2001u) - 1000;

      sum += v;
      g_string_append_printf (values, "%s%d", i ? ", " : "", v);
    }
#define LAUNCHES(N) \
    " \"launches\": [" \
    "  {\"kernel\": \"_Z12partial_sumsPKfPfj\", \"grid\": [12], \"block\": [256], \"dynamic_shared_bytes\": 1024," \
    "   \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"partial\"}, {\"type\": \"u32\", \"value\": 3000}]}," \
    "  {\"kernel\": \"_Z9final_sum4SpanPf\", \"grid\": [1], \"block\": [32], \"dynamic_shared_bytes\": 128," \
    "   \"params\": [{\"fields\": [{\"type\": \"u32\", \"value\": 0}, {\"type\": \"u32\", \"value\": " N "}," \
    "                            {\"buffer\": \"partial\"}]}, {\"buffer\": \"out\"}]}]"
  text = g_strdup_printf (
    "{\"ptx\": \"%s\", \"buffers\": {\"in\": {\"type\": \"f32\", \"data\": [%s]},"
    " \"partial\": {\"type\": \"f32\", \"count\": 12}, \"out\": {\"type\": \"f32\", \"count\": 1}},"
    " \"outputs\": [\"out\"],", ptx, values->str);
  {
    /* 12 partial sums; the bad spec's 13 reads past "partial" */
    g_autofree char *good = g_strconcat (text, LAUNCHES ("12"), "}", NULL);
    g_autofree char *bad = g_strconcat (text, LAUNCHES ("13"), "}", NULL);

    g_file_set_contents (spec, good, -1, NULL);
    g_file_set_contents (bad_spec, bad, -1, NULL);
  }

  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "status"), ==, "ok");
  g_assert_cmpfloat (json_array_get_double_element (
                       json_object_get_array_member (json_object_get_object_member (
                         json_object_get_object_member (root, "buffers"), "out"), "data"), 0), ==, sum);
  list = json_object_get_array_member (root, "launches");
  g_assert_cmpuint (json_array_get_length (list), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (list, 1), "kernel"),
                   ==, "_Z9final_sum4SpanPf");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (list, 1), "status"),
                   ==, "ok");
  st0 = json_object_get_object_member (json_array_get_object_element (list, 0), "stats");
  warp0 = json_object_get_int_member (st0, "warp_instructions");
  st1 = json_object_get_object_member (json_array_get_object_element (list, 1), "stats");
  total = json_object_get_object_member (root, "stats");
  /* 12 blocks of 8 warps, then one warp */
  g_assert_cmpint (json_object_get_int_member (st0, "warp_instructions"), >, 0);
  g_assert_cmpint (json_object_get_int_member (st1, "warp_instructions"), >, 0);
  g_assert_cmpint (json_object_get_int_member (total, "warp_instructions"), ==,
                   json_object_get_int_member (st0, "warp_instructions")
                   + json_object_get_int_member (st1, "warp_instructions"));
  /* 8 barrier releases in each of the 12 blocks (one, then 8 halvings of 256),
   * 6 in the one block of 32 */
  g_assert_cmpint (json_object_get_int_member (st0, "barriers"), ==, 12 * 9);
  g_assert_cmpint (json_object_get_int_member (st1, "barriers"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (total, "barriers"), ==, 12 * 9 + 6);
  result_clear (&r);

  r = run_cli (text_args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "launch 0: _Z12partial_sumsPKfPfj <<<(12,1,1), (256,1,1)>>>: done"));
  g_assert_nonnull (strstr (r.out, "launch 1: _Z9final_sum4SpanPf <<<(1,1,1), (32,1,1)>>>: done"));
  g_assert_nonnull (strstr (r.out, "2 of 2 launches run"));
  result_clear (&r);

  r = run_cli (bad_args);
  g_assert_cmpint (r.status, ==, 3);
  root = json_node_get_object (r.json);
  fault = json_object_get_object_member (root, "fault");
  g_assert_cmpstr (json_object_get_string_member (fault, "kind"), ==, "out_of_bounds");
  g_assert_cmpint (json_object_get_int_member (fault, "launch"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (fault, "kernel"), ==, "_Z9final_sum4SpanPf");
  g_assert_nonnull (strstr (r.err, "error: launch 1 (_Z9final_sum4SpanPf): "));
  result_clear (&r);

  /* analyze: the launch asked for, after the first; each launch listed */
  {
    const char *analyze_args[] = { "analyze", "--json", "--no-toolkit", "--launch", "1", spec, NULL };
    const char *bad_analyze[] = { "analyze", "--json", "--no-toolkit", "--launch", "1", bad_spec,
                                  NULL };
    JsonObject *launch;
    JsonArray *each;

    r = run_cli (analyze_args);
    g_assert_cmpint (r.status, ==, 0);
    root = json_node_get_object (r.json);
    g_assert_cmpstr (json_object_get_string_member (root, "kernel"), ==, "_Z9final_sum4SpanPf");
    launch = json_object_get_object_member (root, "launch");
    g_assert_cmpint (json_object_get_int_member (launch, "index"), ==, 1);
    g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (launch, "block"), 0),
                     ==, 32);
    each = json_object_get_array_member (launch, "launches");
    g_assert_cmpuint (json_array_get_length (each), ==, 2);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (each, 0), "status"),
                     ==, "ok");
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (each, 0),
                                                 "warp_instructions"), ==, warp0);
    result_clear (&r);

    /* the fault of the launch analysed, with its block and thread */
    r = run_cli (bad_analyze);
    g_assert_cmpint (r.status, ==, 3);
    root = json_node_get_object (r.json);
    each = json_object_get_array_member (json_object_get_object_member (root, "launch"), "launches");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (each, 1), "status"),
                     ==, "fault");
    g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (
                       json_array_get_object_element (each, 1), "fault_thread"), 0), ==, 12);
    result_clear (&r);
  }

  g_unlink (spec);
  g_unlink (bad_spec);
  g_rmdir (dir);
}

/* Symbols written before the run and read back after */
static void
test_run_symbols (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx_path = g_build_filename (dir, "count.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "count.json", NULL);
  static const char ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 g_count;\n"
    ".const .align 4 .b8 c_step[8];\n"
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.const.u32 %r1, [c_step+4];\n"
    "  atom.global.add.u32 %r2, [g_count], %r1;\n"
    "  ret;\n}\n";
  const char *args[] = { "run", "--json", spec, NULL };
  const char *hex_args[] = { "run", "--json", "--encoding", "hex", spec, NULL };
  const char *text_args[] = { "run", spec, NULL };
  JsonObject *syms, *g;
  Result r;

  g_file_set_contents (ptx_path, ptx, -1, NULL);
  /* 64 threads add c_step[1] = 3 to 5 */
  g_file_set_contents (spec,
                       "{\"ptx\": \"count.ptx\", \"grid\": [2], \"block\": [32],"
                       " \"symbols\": {\"g_count\": {\"data\": [5]}, \"c_step\": {\"type\": \"u32\", \"data\": [0, 3]}},"
                       " \"output_symbols\": [\"g_count\", \"c_step\"]}", -1, NULL);
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 0);
  syms = json_object_get_object_member (json_node_get_object (r.json), "symbols");
  g = json_object_get_object_member (syms, "g_count");
  g_assert_cmpstr (json_object_get_string_member (g, "type"), ==, "u32");
  g_assert_cmpint (json_object_get_int_member (g, "count"), ==, 1);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (g, "data"), 0), ==, 5 + 64 * 3);
  g = json_object_get_object_member (syms, "c_step");
  g_assert_cmpint (json_object_get_int_member (g, "count"), ==, 2);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (g, "data"), 1), ==, 3);
  result_clear (&r);

  r = run_cli (hex_args);
  g_assert_cmpint (r.status, ==, 0);
  syms = json_object_get_object_member (json_node_get_object (r.json), "symbols");
  /* 197 = 0xc5 */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (syms, "g_count"),
                                                  "bytes_hex"), ==, "c5000000");
  result_clear (&r);

  r = run_cli (text_args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "  symbol g_count (u32 x 1): 197\n"));
  result_clear (&r);

  /* an unknown variable: bad input, the field named */
  g_file_set_contents (spec,
                       "{\"ptx\": \"count.ptx\", \"grid\": [1], \"block\": [32],"
                       " \"symbols\": {\"g_cont\": {\"data\": [5]}}}", -1, NULL);
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "symbols.g_cont: "));
  g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (r.json), "error"),
                            "symbols.g_cont: "));
  result_clear (&r);

  g_unlink (spec);
  g_unlink (ptx_path);
  g_rmdir (dir);
}

static void
test_run_fault (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "oob.json", NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"ptx\": \"%s\", \"grid\": [1], \"block\": [64],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 10}, \"b\": {\"type\": \"f32\", \"count\": 64},"
    " \"c\": {\"type\": \"f32\", \"count\": 64}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": 64}]}",
    ptx);
  const char *args[] = { "run", "--json", spec, NULL };
  Result r;
  JsonObject *fault;

  g_file_set_contents (spec, text, -1, NULL);
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 3);
  fault = json_object_get_object_member (json_node_get_object (r.json), "fault");
  g_assert_cmpstr (json_object_get_string_member (fault, "kind"), ==, "out_of_bounds");
  /* a holds 10 floats: thread 10 reads past it; line 10 of vector_add.cu */
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (fault, "thread"), 0), ==, 10);
  g_assert_cmpint (json_object_get_int_member (fault, "cuda_line"), ==, 10);
  result_clear (&r);
  g_unlink (spec);
  g_rmdir (dir);
}

/* Texture traffic in run --json's line statistics, apart from global
 * memory, and a handle that is not one: the upscaling sample reads its
 * 32 x 32 u8 image (32 sectors of 32 bytes) with one linear tex.2d a
 * thread, 96 x 96 threads in warps of 32 */
static JsonObject *
find_line (JsonObject *root,
           const char *kind,
           gint64      line)
{
  JsonArray *lines = json_object_get_array_member (json_object_get_object_member (root, "lines"), kind);

  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i);

      if (json_object_get_int_member (l, "line") == line)
        return l;
    }
  return NULL;
}

/* run --max-steps stops with a step_limit fault, exit 3 and the partial
 * results; --no-trace gives the same results without a trace; the line
 * statistics of vector_add.cu, worked out from its spec: 1000 threads in
 * 4 blocks of 256, so 32 warps reach line 10 (8 PTX instructions: two
 * loads, the add, the store and their addresses), the last with 8 of its
 * 32 threads; each of the 3 accesses of a full warp moves 128 contiguous
 * bytes of an aligned buffer (4 sectors, one line), the last warp's 32
 * bytes (1 sector); every sector is touched once, so L1 misses every
 * loaded sector and L2 every sector.  Line 9 (if (i < n)) diverges in
 * that one warp. */
static void
test_run_options (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "vadd.json", NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"ptx\": \"%s\", \"grid\": [4], \"block\": [256],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1000, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},"
    " \"b\": {\"type\": \"f32\", \"count\": 1000, \"init\": {\"range\": {\"start\": 0, \"step\": 0.5}}},"
    " \"c\": {\"type\": \"f32\", \"count\": 1000}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": 1000}],"
    " \"outputs\": [\"a\", \"c\"]}", ptx);
  const char *limited[] = { "run", "--json", "--max-steps", "100", spec, NULL };
  const char *traced[] = { "run", "--json", "--encoding", "both", spec, NULL };
  const char *untraced[] = { "run", "--json", "--no-trace", "--encoding", "hex", spec, NULL };
  Result r, t;
  JsonObject *root, *fault, *bufs, *l;
  JsonArray *a, *c;
  guint done = 0;

  g_file_set_contents (spec, text, -1, NULL);

  r = run_cli (limited);
  g_assert_cmpint (r.status, ==, 3);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "status"), ==, "fault");
  fault = json_object_get_object_member (root, "fault");
  g_assert_cmpstr (json_object_get_string_member (fault, "kind"), ==, "step_limit");
  for (guint k = 0; k < 8; k++)
    {
      static const char *const fields[] = { "kind", "message", "ptx_line", "cuda_file", "cuda_line",
                                            "block", "thread", "address" };

      g_assert_true (json_object_has_member (fault, fields[k]));
    }
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "stats"),
                                               "warp_instructions"), ==, 100);
  /* the partial results: what the first warps computed, zeros after */
  bufs = json_object_get_object_member (root, "buffers");
  a = json_object_get_array_member (json_object_get_object_member (bufs, "a"), "data");
  c = json_object_get_array_member (json_object_get_object_member (bufs, "c"), "data");
  g_assert_cmpuint (json_array_get_length (c), ==, 1000);
  for (guint i = 0; i < 1000; i++)
    {
      double ci = json_array_get_double_element (c, i);

      if (ci != 0.0)
        {
          g_assert_cmpfloat ((float) ci, ==, (float) (json_array_get_double_element (a, i) + 0.5 * i));
          done++;
        }
    }
  g_assert_cmpuint (done, >=, 32);
  g_assert_cmpuint (done, <, 1000);
  result_clear (&r);

  r = run_cli (traced);
  t = run_cli (untraced);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (t.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "stats"),
                                               "trace_events"), ==,
                   json_object_get_int_member (json_object_get_object_member (root, "stats"),
                                               "warp_instructions"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (t.json),
                                                                              "stats"), "trace_events"), ==, 0);
  {
    JsonObject *st = json_object_get_object_member (root, "stats");

    /* every block whole in the trace; 12 bytes an event, and 4 for each
     * of the 3 global accesses of the 32 warps */
    g_assert_cmpint (json_object_get_int_member (st, "trace_dropped"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (st, "trace_stride"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (st, "trace_blocks"), ==, 4);
    g_assert_cmpint (json_object_get_int_member (st, "trace_bytes"), ==,
                     12 * json_object_get_int_member (st, "warp_instructions") + 4 * 3 * 32);
  }
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_object_get_object_member (root, "buffers"), "c"), "bytes_hex"), ==,
                   json_object_get_string_member (json_object_get_object_member (
                     json_object_get_object_member (json_node_get_object (t.json), "buffers"), "c"),
                     "bytes_hex"));

  l = find_line (root, "cuda", 10);
  g_assert_nonnull (l);
  g_assert_cmpstr (json_object_get_string_member (l, "file"), ==, "vector_add.cu");
  g_assert_cmpint (json_object_get_int_member (l, "warp_executions"), ==, 8 * 32);
  g_assert_cmpint (json_object_get_int_member (l, "thread_executions"), ==, 8 * 1000);
  g_assert_cmpfloat (json_object_get_double_member (l, "average_active_lanes"), ==, 8000.0 / 256);
  g_assert_cmpint (json_object_get_int_member (l, "divergent_branches"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (l, "global_requests"), ==, 3 * 32);
  g_assert_cmpint (json_object_get_int_member (l, "global_sectors"), ==, 3 * (31 * 4 + 1));
  g_assert_cmpint (json_object_get_int_member (l, "global_ideal_sectors"), ==, 3 * (31 * 4 + 1));
  g_assert_cmpint (json_object_get_int_member (l, "global_lines"), ==, 3 * 32);
  g_assert_cmpfloat (json_object_get_double_member (l, "global_efficiency"), ==, 1.0);
  g_assert_cmpint (json_object_get_int_member (l, "l1_hits"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (l, "l1_misses"), ==, 2 * (31 * 4 + 1));
  g_assert_cmpint (json_object_get_int_member (l, "l2_hits"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (l, "l2_misses"), ==, 3 * (31 * 4 + 1));
  l = find_line (root, "cuda", 9);
  g_assert_nonnull (l);
  g_assert_cmpint (json_object_get_int_member (l, "divergent_branches"), ==, 1);
  /* the PTX line of the store: one request a warp, no L1 allocation */
  l = find_line (root, "ptx", 58);
  g_assert_nonnull (l);
  g_assert_cmpint (json_object_get_int_member (l, "global_requests"), ==, 32);
  g_assert_cmpint (json_object_get_int_member (l, "thread_executions"), ==, 1000);
  result_clear (&r);
  result_clear (&t);
  g_unlink (spec);
  g_rmdir (dir);
}

static void
test_run_texture (void)
{
  g_autofree char *spec = dist ("..", "data", "samples", "26-texture-upscale", "texture_upscale.json", NULL);
  g_autofree char *ptx = dist ("..", "data", "samples", "26-texture-upscale", "texture_upscale.ptx", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "forged.json", NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"ptx\": \"%s\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"out\": {\"type\": \"u8\", \"count\": 32}},"
    " \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": 32},"
    " {\"type\": \"s32\", \"value\": 1}, {\"type\": \"f32\", \"value\": 1}]}", ptx);
  const char *args[] = { "run", "--json", spec, NULL };
  const char *bad_args[] = { "run", "--json", bad, NULL };
  JsonArray *lines;
  JsonObject *fault;
  gboolean seen = FALSE;
  Result r = run_cli (args);

  g_assert_cmpint (r.status, ==, 0);
  lines = json_object_get_array_member (json_object_get_object_member (json_node_get_object (r.json),
                                                                        "lines"), "ptx");
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i);

      if (!json_object_has_member (l, "texture_requests"))
        continue;
      seen = TRUE;
      g_assert_cmpint (json_object_get_int_member (l, "texture_requests"), ==, 96 * 96 / 32);
      g_assert_cmpint (json_object_get_int_member (l, "texture_fetches"), ==, 4 * 96 * 96);
      g_assert_cmpint (json_object_get_int_member (l, "surface_requests"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (l, "texture_l1_misses"), ==, 1024 / 32);
      g_assert_cmpint (json_object_get_int_member (l, "texture_l1_hits")
                       + json_object_get_int_member (l, "texture_l1_misses"), ==,
                       json_object_get_int_member (l, "texture_sectors"));
      g_assert_false (json_object_has_member (l, "global_requests"));
    }
  g_assert_true (seen);
  /* The tex is written in a CUDA header, inlined at line 30 of the
   * sample (tex2D<float>): its statistics are that line's */
  seen = FALSE;
  lines = json_object_get_array_member (json_object_get_object_member (json_node_get_object (r.json),
                                                                        "lines"), "cuda");
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i);

      if (!json_object_has_member (l, "texture_requests"))
        continue;
      g_assert_false (seen);
      seen = TRUE;
      g_assert_cmpstr (json_object_get_string_member (l, "file"), ==, "texture_upscale.cu");
      g_assert_cmpint (json_object_get_int_member (l, "line"), ==, 30);
      g_assert_cmpint (json_object_get_int_member (l, "texture_requests"), ==, 96 * 96 / 32);
    }
  g_assert_true (seen);
  result_clear (&r);

  /* a buffer's address passed where the texture handle goes */
  g_file_set_contents (bad, text, -1, NULL);
  r = run_cli (bad_args);
  g_assert_cmpint (r.status, ==, 3);
  fault = json_object_get_object_member (json_node_get_object (r.json), "fault");
  g_assert_cmpstr (json_object_get_string_member (fault, "kind"), ==, "texture");
  g_assert_nonnull (strstr (json_object_get_string_member (fault, "message"), "is not a texture handle"));
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (fault, "thread"), 0), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (fault, "cuda_file"), ==, "texture_upscale.cu");
  g_assert_cmpint (json_object_get_int_member (fault, "cuda_line"), ==, 30);
  result_clear (&r);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_occupancy_json (void)
{
  const char *args[] = { "occupancy", "--arch", "sm_86", "--block-size", "256", "--regs", "32",
                         "--json", NULL };
  const char *bad[] = { "occupancy", "--arch", "sm_86", "--block-size", "2048", "--regs", "32", NULL };
  Result r = run_cli (args);
  JsonObject *root;

  /* 1536 threads per SM on sm_86: 6 blocks of 256, every warp slot */
  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpint (json_object_get_int_member (root, "active_blocks_per_sm"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (root, "active_warps_per_sm"), ==, 48);
  g_assert_cmpstr (json_object_get_string_member (root, "limiter"), ==, "warps");
  result_clear (&r);
  r = run_cli (bad);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "threads per block"));
  result_clear (&r);

  /* 48196 static + 4096 dynamic bytes on sm_80 launch only with
   * cudaFuncAttributeMaxDynamicSharedMemorySize (cuda_occupancy.h: 0
   * blocks without it); with it 53376 bytes a block, 167936 / 53376 = 3 */
  {
    const char *no_opt_in[] = { "occupancy", "--arch", "sm_80", "--block-size", "128", "--regs", "32",
                                "--smem-static", "48196", "--smem-dynamic", "4096", "--json", NULL };
    const char *opt_in[] = { "occupancy", "--arch", "sm_80", "--block-size", "128", "--regs", "32",
                             "--smem-static", "48196", "--smem-dynamic", "4096", "--opt-in", "--json",
                             NULL };
    JsonObject *with;

    r = run_cli (no_opt_in);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "cudaFuncAttributeMaxDynamicSharedMemorySize"));
    root = json_node_get_object (r.json);
    g_assert_nonnull (strstr (json_object_get_string_member (root, "error"), "cudaFuncSetAttribute"));
    g_assert_true (json_object_get_boolean_member (root, "shared_opt_in"));
    g_assert_cmpstr (json_object_get_string_member (root, "opt_in_attribute"), ==,
                     "cudaFuncAttributeMaxDynamicSharedMemorySize");
    g_assert_cmpint (json_object_get_int_member (root, "max_dynamic_shared_bytes"), ==, 4096);
    with = json_object_get_object_member (root, "with_opt_in");
    g_assert_cmpint (json_object_get_int_member (with, "active_blocks_per_sm"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (with, "active_warps_per_sm"), ==, 12);
    g_assert_cmpstr (json_object_get_string_member (with, "limiter"), ==, "shared_memory");
    result_clear (&r);

    r = run_cli (opt_in);
    g_assert_cmpint (r.status, ==, 0);
    root = json_node_get_object (r.json);
    g_assert_cmpint (json_object_get_int_member (root, "active_blocks_per_sm"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (root, "shared_bytes_per_block_allocated"), ==, 53376);
    g_assert_true (json_object_get_boolean_member (root, "shared_opt_in"));
    g_assert_true (json_object_get_boolean_member (root, "shared_opt_in_set"));
    result_clear (&r);
  }
}

/* The tiled matmul sample on sm_80: two 16 x 16 float tiles are 2048
 * bytes of shared memory; 256 threads a block and 2048 threads per SM
 * (CUDA Programming Guide, cc 8.0) give 8 blocks, 64 warps: all of them */
/* compare: two sample folders on one GPU (the first's when none is
 * given), as the issue's contract prints them; samples 11 and 12 differ in
 * the tile's padding alone: 31 extra wavefronts a read of the column, 4
 * reads by each of 8 warps of 768 blocks, gone */
static void
test_compare (void)
{
  g_autofree char *a = dist ("..", "data", "samples", "11-transpose-tiled", NULL);
  g_autofree char *b = dist ("..", "data", "samples", "12-transpose-padded", NULL);
  g_autofree char *missing = dist ("..", "data", "samples", "no-such-sample.json", NULL);
  const char *args[] = { "compare", "--json", "--no-toolkit", "--gpu", "rtx-4090", a, b, NULL };
  const char *text_args[] = { "compare", "--no-toolkit", a, b, NULL };
  const char *bad_args[] = { "compare", "--json", "--no-toolkit", a, missing, NULL };
  const char *one_arg[] = { "compare", a, NULL };
  Result r = run_cli (args);
  JsonObject *root;
  JsonArray *changes;
  guint found = 0;

  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "a"), "gpu"),
                   ==, "rtx-4090");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "b"), "gpu"),
                   ==, "rtx-4090");
  changes = json_object_get_array_member (root, "changes");
  for (guint i = 0; i < json_array_get_length (changes); i++)
    {
      JsonObject *e = json_array_get_object_element (changes, i);
      const char *id = json_object_get_string_member (e, "figure");

      g_assert_true (json_object_has_member (e, "a") && json_object_has_member (e, "b")
                     && json_object_has_member (e, "change")
                     && json_object_has_member (e, "better"));
      if (g_str_equal (id, "shared_wavefronts_excess"))
        {
          g_assert_cmpfloat (json_object_get_double_member (e, "a"), ==, 768.0 * 8 * 4 * 31);
          g_assert_cmpfloat (json_object_get_double_member (e, "b"), ==, 0);
          g_assert_true (json_object_get_boolean_member (e, "better"));
          found++;
        }
      else if (g_str_equal (id, "sectors_per_request"))
        {
          /* both move rows of 32 floats: 4 sectors, no change, better null */
          g_assert_cmpfloat (json_object_get_double_member (e, "b"), ==, 4);
          g_assert_cmpfloat (json_object_get_double_member (e, "change"), ==, 0);
          g_assert_true (json_object_get_null_member (e, "better"));
          found++;
        }
      else if (g_str_equal (id, "estimated_duration_us") || g_str_equal (id, "occupancy")
               || g_str_equal (id, "registers"))
        found++;
    }
  g_assert_cmpuint (found, ==, 5);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "hints_gone")), >, 0);
  result_clear (&r);

  /* the text: a table, the model's figures marked, on the first's GPU */
  r = run_cli (text_args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Shared wavefronts beyond the ideal"));
  g_assert_nonnull (strstr (r.out, "better"));
  g_assert_nonnull (strstr (r.out, "not a measurement"));
  g_assert_nonnull (strstr (r.out, "Hints gone"));
  result_clear (&r);

  /* a missing B is bad input, with its name; one kernel is usage */
  r = run_cli (bad_args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (r.json), "error"),
                            "B: "));
  result_clear (&r);
  r = run_cli (one_arg);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);

  /* two kernels of one PTX file, Harris's reductions 1 and 2, each on the
   * default launch of a PTX file alone (which gives their extern shared
   * array no bytes: both fault, exit 3, and the JSON still says which
   * kernel each side is) */
  {
    g_autofree char *harris = dist ("fixtures", "compare", "harris_reduce.ptx", NULL);
    const char *two[] = { "compare", "--json", "--no-toolkit", "--kernel-a", "_Z7reduce1PiS_",
                          "--kernel-b", "_Z7reduce2PiS_", harris, harris, NULL };
    const char *unnamed[] = { "compare", "--no-toolkit", harris, harris, NULL };
    JsonObject *o;

    r = run_cli (two);
    g_assert_cmpint (r.status, ==, 3);
    o = json_node_get_object (r.json);
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "a"),
                                                    "kernel"), ==, "_Z7reduce1PiS_");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "b"),
                                                    "kernel"), ==, "_Z7reduce2PiS_");
    result_clear (&r);
    /* without a kernel named: a usage error that names the three */
    r = run_cli (unnamed);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "_Z7reduce3PiS_"));
    result_clear (&r);
  }

  /* B faults (c is 16 floats, the kernel writes 1000): exit 3, and the
   * counts of a run that stopped at its fault are null, not compared */
  {
    g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
    g_autofree char *good = dist ("..", "data", "samples", "01-vector-add", "vector_add.json", NULL);
    g_autofree char *tmp = g_dir_make_tmp ("ks-test-compare-XXXXXX", NULL);
    g_autofree char *bad = g_build_filename (tmp, "fault.json", NULL);
    g_autofree char *spec = g_strdup_printf (
      "{\"ptx\": \"%s\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\", \"grid\": [4], "
      "\"block\": [256], \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1000}, "
      "\"b\": {\"type\": \"f32\", \"count\": 1000}, \"c\": {\"type\": \"f32\", "
      "\"count\": 16}}, \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, "
      "{\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": 1000}], \"outputs\": [\"c\"]}",
      ptx);
    const char *fault_args[] = { "compare", "--json", "--no-toolkit", good, bad, NULL };
    JsonArray *ch;
    gboolean seen = FALSE;

    g_assert_true (g_file_set_contents (bad, spec, -1, NULL));
    r = run_cli (fault_args);
    g_assert_cmpint (r.status, ==, 3);
    g_assert_nonnull (strstr (r.err, "error:"));
    ch = json_object_get_array_member (json_node_get_object (r.json), "changes");
    for (guint i = 0; i < json_array_get_length (ch); i++)
      {
        JsonObject *e = json_array_get_object_element (ch, i);

        if (!g_str_equal (json_object_get_string_member (e, "figure"), "warp_instructions"))
          continue;
        seen = TRUE;
        g_assert_cmpint (json_object_get_int_member (e, "a"), >, 0);
        g_assert_true (json_object_get_null_member (e, "b"));
        g_assert_true (json_object_get_null_member (e, "change"));
        g_assert_true (json_object_get_null_member (e, "better"));
      }
    g_assert_true (seen);
    result_clear (&r);
    g_unlink (bad);
    g_rmdir (tmp);
  }
}

static void
test_analyze_json (void)
{
  g_autofree char *spec = dist ("..", "data", "samples", "22-matmul-tiled", "matmul_tiled.json", NULL);
  const char *args[] = { "analyze", "--json", "--arch", "sm_80", spec, NULL };
  Result r = run_cli (args);
  JsonObject *root, *res, *occ, *sim;

  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "arch"), ==, "sm_80");
  g_assert_cmpstr (json_object_get_string_member (root, "kernel"), ==, "_Z12matmul_tiledPKfS0_Pfi");
  res = json_object_get_object_member (root, "resources");
  g_assert_cmpint (json_object_get_int_member (res, "shared_static"), ==, 2048);
  g_assert_cmpint (json_object_get_int_member (res, "spill_stores"), ==, 0);
  occ = json_object_get_object_member (root, "occupancy");
  g_assert_cmpint (json_object_get_int_member (occ, "active_blocks_per_sm"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (occ, "active_warps_per_sm"), ==, 64);
  sim = json_object_get_object_member (root, "simulation");
  g_assert_cmpstr (json_object_get_string_member (sim, "status"), ==, "ok");
  /* 16 blocks; n = 64 is four tiles of 16, two barriers each: 8 a block */
  g_assert_cmpint (json_object_get_int_member (sim, "barriers"), ==, 16 * 8);
  g_assert_true (json_object_has_member (root, "hints"));

  /* The timing model: 16 blocks over 8 per SM on an A100's 108 SMs are
   * 16 / 864 waves; each SM gets at most one block */
  {
    JsonObject *t = json_object_get_object_member (root, "timing");
    JsonObject *br;
    g_autoptr(GList) reasons = NULL;
    const char *bound;
    double sum = 0;

    g_assert_nonnull (t);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (t, "waves_per_sm"),
                                    16.0 / 864.0, 1e-12);
    g_assert_cmpint (json_object_get_int_member (t, "ctas_per_sm"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (t, "cycles"), >, 0);
    g_assert_cmpfloat (json_object_get_double_member (t, "estimated_duration_us"), >, 0);
    bound = json_object_get_string_member (t, "bound");
    g_assert_true (g_str_equal (bound, "memory") || g_str_equal (bound, "compute")
                   || g_str_equal (bound, "latency"));
    br = json_object_get_object_member (t, "stall_breakdown");
    reasons = json_object_get_members (br);
    for (GList *l = reasons; l; l = l->next)
      sum += json_object_get_double_member (br, l->data);
    g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-9);
    /* a block of 256 threads issues every one of its warp-instructions */
    g_assert_true (json_object_has_member (br, "selected"));
  }
  result_clear (&r);
}

/* A PTX file alone runs with the default launch (README.md): 4 blocks of
 * 256 threads, n = 1024 threads */
static void
test_analyze_default_launch (void)
{
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  const char *args[] = { "analyze", "--json", "--no-toolkit", ptx, NULL };
  Result r = run_cli (args);
  JsonObject *root, *launch, *sim;
  JsonArray *grid, *block;

  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  launch = json_object_get_object_member (root, "launch");
  g_assert_true (json_object_get_boolean_member (launch, "default"));
  grid = json_object_get_array_member (launch, "grid");
  block = json_object_get_array_member (launch, "block");
  g_assert_cmpint (json_array_get_int_element (grid, 0), ==, 4);
  g_assert_cmpint (json_array_get_int_element (block, 0), ==, 256);
  /* no toolkit: the ptxas report committed beside the sample's PTX */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "resources"),
                                                  "source"), ==, "ptxas");
  sim = json_object_get_object_member (root, "simulation");
  g_assert_cmpstr (json_object_get_string_member (sim, "status"), ==, "ok");
  /* vector_add: every thread of the 1024 is in range and stores once */
  g_assert_cmpint (json_object_get_int_member (sim, "warp_instructions"), >, 0);
  result_clear (&r);
}

/* CUDA with an error: nvcc's message comes back with its place */
static void
test_analyze_cuda_error (void)
{
  g_autofree char *dir = NULL, *cu = NULL;
  const char *args[] = { "analyze", "--json", NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *expect = NULL;
  g_autofree char *nvcc = g_find_program_in_path ("nvcc");
  Result r;

  if (nvcc == NULL && !g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("nvcc is not installed: compiling CUDA is not tested");
      return;
    }
  dir = g_dir_make_tmp ("ks-cli-XXXXXX", &error);
  g_assert_no_error (error);
  cu = g_build_filename (dir, "bad.cu", NULL);
  g_file_set_contents (cu, "__global__ void k(float *a)\n{\n  a[threadIdx.x] = undefined_b;\n}\n",
                       -1, &error);
  g_assert_no_error (error);
  args[2] = cu;
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 1);
  /* line 3, column 20: where undefined_b starts */
  expect = g_strdup_printf ("%s:3:20: error: identifier \"undefined_b\" is undefined", cu);
  g_assert_nonnull (strstr (r.err, expect));
  result_clear (&r);
  g_unlink (cu);
  g_rmdir (dir);
}

/* analyze --json's "sass_kernel": the loops of the kernel's SASS and the
 * PTX loops they run.  The shipped sm_86 listing of matmul_tiled (nvdisasm
 * -gi) has one loop, from .L_x_1 at 0x150 to the BRA back to it at 0x500,
 * on the CUDA's line 29 (`for (int t = 0; t < n; t += TILE)`), with the
 * tile's 16 FFMAs; the PTX loop has the same 16 fma.rn.f32, so ptxas kept
 * it as it is (unroll 1). */
static void
test_analyze_sass_loops (void)
{
  g_autofree char *spec = dist ("..", "data", "samples", "22-matmul-tiled", "matmul_tiled.json",
                                NULL);
  const char *args[] = { "analyze", "--json", "--no-toolkit", "--gpu", "rtx-3090", spec, NULL };
  Result r = run_cli (args);
  JsonObject *root, *kernel, *loop, *ptx;
  JsonArray *loops, *offsets;

  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "sass_arch"), ==, "sm_86");
  kernel = json_object_get_object_member (root, "sass_kernel");
  g_assert_nonnull (kernel);
  g_assert_cmpstr (json_object_get_string_member (kernel, "name"), ==, "_Z12matmul_tiledPKfS0_Pfi");
  loops = json_object_get_array_member (kernel, "loops");
  g_assert_cmpuint (json_array_get_length (loops), ==, 1);
  loop = json_array_get_object_element (loops, 0);
  offsets = json_object_get_array_member (loop, "offsets");
  g_assert_cmpint (json_array_get_int_element (offsets, 0), ==, 0x150);
  g_assert_cmpint (json_object_get_int_member (loop, "back_edge"), ==, 0x500);
  g_assert_cmpint (json_object_get_int_member (loop, "cuda_line"), ==, 29);
  g_assert_cmpint (json_object_get_int_member (loop, "flops"), ==, 32);
  g_assert_cmpint (json_object_get_int_member (loop, "unroll"), ==, 1);
  g_assert_false (json_object_get_boolean_member (loop, "estimated"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (loop, "inner")));
  ptx = json_object_get_object_member (loop, "ptx");
  g_assert_nonnull (ptx);
  g_assert_cmpint (json_object_get_int_member (ptx, "flops"), ==, 32);
  /* the timing: the loop and, around it, each of the 8 warps' two
   * stretches (before the loop, after it) timed from the SASS
   * (test-analysis's /analysis/sass/timing counts their instructions) */
  {
    JsonObject *t = json_object_get_object_member (root, "timing");

    g_assert_cmpint (json_object_get_int_member (t, "sass_loops"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (t, "sass_stretches"), ==, 16);
    g_assert_cmpint (json_object_get_int_member (t, "sass_stretches_not"), ==, 0);
    g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (t, "sass_stretch_reason")));
    g_assert_cmpint (json_object_get_int_member (t, "sass_issued"), ==,
                     json_object_get_int_member (t, "issued"));
  }
  result_clear (&r);
}

/* analyze --json has "sass": the sass command's object for the SASS made
 * of the kernel, or null without a disassembler.  With a stand-in nvdisasm
 * first on PATH (ks-test-standin.h: this tests the plumbing), ptxas makes a
 * cubin of the sample's PTX and the stand-in prints listing 10; analyze's
 * "sass" must then equal `sass --json` of that listing, member for member,
 * except for the resources, which are the analysed kernel's. */
static void
test_analyze_sass (void)
{
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *listing = dist ("fixtures", "sass", "10_celeritas_min.sm_70.nvdisasm_lineinfo.s",
                                   NULL);
  g_autofree char *ptxas = g_find_program_in_path ("ptxas");
  g_autofree char *tmp = g_dir_make_tmp ("ks-test-own-XXXXXX", NULL);
  g_autofree char *own = g_build_filename (tmp, "own.ptx", NULL);
  const char *none_args[] = { "analyze", "--json", "--no-toolkit", ptx, NULL };
  const char *own_args[] = { "analyze", "--json", "--no-toolkit", own, NULL };
  const char *args[] = { "analyze", "--json", ptx, NULL };
  const char *sass_args[] = { "sass", "--json", listing, NULL };
  g_autoptr(StandIn) nvdisasm = NULL;
  g_auto(GStrv) env = g_get_environ ();
  g_autofree char *path = NULL;
  Result r, s;
  JsonObject *root, *sass, *want;

  g_assert_true (g_file_set_contents (own, ".version 7.0\n.target sm_80\n.address_size 64\n"
                                      ".visible .entry k()\n{\n ret;\n}\n", -1, NULL));
  /* no toolkit: the sample's shipped listing for its .target, sm_80 */
  r = run_cli (none_args);
  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_true (json_object_has_member (root, "sass"));
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "sass")));
  g_assert_cmpstr (json_object_get_string_member (root, "sass_origin"), ==, "shipped");
  g_assert_cmpstr (json_object_get_string_member (root, "sass_arch"), ==, "sm_80");
  g_assert_cmpstr (json_object_get_string_member (root, "sass_tool"), ==, "nvdisasm");
  result_clear (&r);
  /* and a kernel of one's own: null, and no tool named */
  r = run_cli (own_args);
  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_true (json_object_has_member (root, "sass"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (root, "sass")));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (root, "sass_tool")));
  g_assert_false (json_object_has_member (root, "sass_origin"));
  result_clear (&r);
  g_unlink (own);
  g_rmdir (tmp);

  if (ptxas == NULL && !g_file_test ("/usr/local/cuda/bin/ptxas", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("ptxas is not installed: making SASS is not tested");
      return;
    }
  nvdisasm = standin_new ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s", FALSE);
  path = g_strdup_printf ("%s:%s:/usr/local/cuda/bin", nvdisasm->dir, g_environ_getenv (env, "PATH"));
  env = g_environ_setenv (env, "PATH", path, TRUE);
  r = run_cli_env (args, env);
  s = run_cli (sass_args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (s.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "sass_tool"), ==, "nvdisasm");
  g_assert_cmpstr (json_object_get_string_member (root, "sass_arch"), ==, "sm_80");
  g_assert_false (json_object_has_member (root, "sass_error"));
  sass = json_object_get_object_member (root, "sass");
  want = json_node_get_object (s.json);
  g_assert_nonnull (sass);
  g_assert_true (json_node_equal (json_object_get_member (sass, "format"),
                                  json_object_get_member (want, "format")));
  g_assert_true (json_node_equal (json_object_get_member (sass, "functions"),
                                  json_object_get_member (want, "functions")));
  /* the analysed kernel's resources, from ptxas */
  {
    JsonArray *res = json_object_get_array_member (sass, "resources");

    g_assert_cmpuint (json_array_get_length (res), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (res, 0), "name"),
                     ==, "_Z10vector_addPKfS0_Pfi");
  }
  g_assert_cmpuint (cubin_sm (nvdisasm->cubin_copy), ==, 80);
  result_clear (&r);
  result_clear (&s);
}

/* sass FILE.cubin: the cubin read by hand.  Without a toolkit
 * (KS_NO_TOOLKIT=1) each instruction has "opcode": null and its words as
 * cuobjdump -sass prints them (the fixture's own listing of the same
 * cubin), each function the parameters cuobjdump -elf dumps: vector_add's
 * (const float *a, const float *b, float *c, int n) from c[0x0][0x160]
 * ("EIATTR_PARAM_CBANK ... 0x1c0160"). */
static void
test_sass_cubin (void)
{
  g_autofree char *cubin = dist ("fixtures", "cubin", "vector_add.sm_70.cubin", NULL);
  g_autofree char *listing_path = dist ("fixtures", "cubin", "vector_add.sm_70.cuobjdump.sass", NULL);
  const char *args[] = { "sass", "--json", cubin, NULL };
  const char *text_args[] = { "sass", cubin, NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "KS_NO_TOOLKIT", "1", TRUE);
  g_autoptr(GRegex) hex_re = g_regex_new ("/\\*0000\\*/.*/\\* (0x[0-9a-f]{16}) \\*/\\s*\\n\\s*/\\* (0x[0-9a-f]{16}) \\*/",
                                          0, 0, NULL);
  g_autoptr(GMatchInfo) mi = NULL;
  g_autofree char *listing = NULL, *want_hex = NULL, *lo = NULL, *hi = NULL;
  Result r = run_cli_env (args, env);
  JsonObject *root, *fn, *cub;
  JsonArray *insns, *params;
  static const gint64 want[4][3] = { { 0, 8, 0x160 }, { 8, 8, 0x168 }, { 16, 8, 0x170 },
                                     { 24, 4, 0x178 } };

  g_assert_true (g_file_get_contents (listing_path, &listing, NULL, NULL));
  g_assert_true (g_regex_match (hex_re, listing, 0, &mi));
  lo = g_match_info_fetch (mi, 1);
  hi = g_match_info_fetch (mi, 2);
  want_hex = g_strdup_printf ("%s %s", lo, hi);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (r.json);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "cubin");
  cub = json_object_get_object_member (root, "cubin");
  g_assert_cmpstr (json_object_get_string_member (cub, "arch"), ==, "sm_70");
  g_assert_cmpstr (json_object_get_string_member (cub, "toolkit"), ==, "11.8");
  fn = json_array_get_object_element (json_object_get_array_member (root, "functions"), 0);
  g_assert_cmpstr (json_object_get_string_member (fn, "name"), ==, "_Z10vector_addPKfS0_Pfi");
  g_assert_cmpstr (json_object_get_string_member (fn, "arch"), ==, "sm_70");
  g_assert_true (json_object_get_boolean_member (fn, "kernel"));
  insns = json_object_get_array_member (fn, "instructions");
  {
    JsonObject *first = json_array_get_object_element (insns, 0);

    g_assert_cmpstr (json_object_get_string_member (first, "hex"), ==, want_hex);
    g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (first, "opcode")));
    g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (first, "pipe")));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (first, "operands")), ==, 0);
    g_assert_nonnull (json_object_get_object_member (first, "control"));
  }
  params = json_object_get_array_member (fn, "params");
  g_assert_cmpuint (json_array_get_length (params), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *p = json_array_get_object_element (params, i);

      g_assert_cmpint (json_object_get_int_member (p, "index"), ==, i);
      g_assert_cmpint (json_object_get_int_member (p, "offset"), ==, want[i][0]);
      g_assert_cmpint (json_object_get_int_member (p, "size"), ==, want[i][1]);
      g_assert_cmpint (json_object_get_int_member (p, "cbank_offset"), ==, want[i][2]);
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (fn, "attributes")), >, 0);
  result_clear (&r);

  /* The text form: the same words and parameters */
  r = run_cli_env (text_args, env);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, want_hex));
  g_assert_nonnull (strstr (r.out, "c[0x0][0x178]"));
  g_assert_nonnull (strstr (r.out, "no CUDA toolkit"));
  result_clear (&r);

  /* With Debian's nvdisasm, the same instructions named */
  if (g_file_test ("/usr/bin/nvdisasm", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *path = g_strconcat ("/usr/bin:", g_getenv ("PATH"), NULL);
      g_auto(GStrv) env2 = g_environ_unsetenv (g_get_environ (), "KS_NO_TOOLKIT");
      JsonObject *first;

      env2 = g_environ_setenv (env2, "PATH", path, TRUE);
      r = run_cli_env (args, env2);
      g_assert_cmpint (r.status, ==, 0);
      root = json_node_get_object (r.json);
      fn = json_array_get_object_element (json_object_get_array_member (root, "functions"), 0);
      first = json_array_get_object_element (json_object_get_array_member (fn, "instructions"), 0);
      g_assert_cmpstr (json_object_get_string_member (first, "opcode"), ==, "MOV");
      g_assert_cmpstr (json_object_get_string_member (first, "hex"), ==, want_hex);
      result_clear (&r);
    }
  else
    g_test_message ("no /usr/bin/nvdisasm: the named form is not checked");
}

/* A cubin cut short: exit 1 and a message naming the file, whatever the
 * name (told by the ELF magic) */
static void
test_sass_cubin_bad (void)
{
  g_autofree char *cubin = dist ("fixtures", "cubin", "vector_add.sm_70.cubin", NULL);
  g_autofree char *data = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-cubin-XXXXXX", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.sass", NULL);
  const char *args[] = { "sass", "--json", cut, NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "KS_NO_TOOLKIT", "1", TRUE);
  gsize len;
  Result r;

  g_assert_true (g_file_get_contents (cubin, &data, &len, NULL));
  g_assert_true (g_file_set_contents (cut, data, 40, NULL));
  r = run_cli_env (args, env);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (r.json);
  g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (r.json), "error"),
                            "cut.sass: error: the ELF header is cut short"));
  result_clear (&r);
  g_unlink (cut);
  g_rmdir (dir);
}

/* sass of a kernel: the sample's shipped SASS for the GPU's architecture,
 * instruction for instruction the listing in its sass/ folder; none for a
 * Blackwell GPU, with the architectures there are */
static void
test_sass_kernel (void)
{
  g_autofree char *spec = dist ("..", "data", "samples", "11-transpose-tiled", "transpose_tiled.json",
                                NULL);
  g_autofree char *listing = dist ("..", "data", "samples", "11-transpose-tiled", "sass",
                                   "transpose_tiled.sm_86.sass", NULL);
  const char *args[] = { "sass", "--json", "--no-toolkit", "--gpu", "a10", spec, NULL };
  const char *none[] = { "sass", "--no-toolkit", "--gpu", "b200", spec, NULL };
  g_autoptr(GRegex) insn = g_regex_new ("^\\s+/\\*[0-9a-f]{4}\\*/\\s+\\S", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *text = NULL;
  JsonObject *root, *fn;
  guint want = 0;
  Result r;

  g_assert_true (g_file_get_contents (listing, &text, NULL, NULL));
  for (g_regex_match (insn, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    want++;
  g_assert_cmpuint (want, >, 10);
  r = run_cli (args);
  g_assert_cmpint (r.status, ==, 0);
  root = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (root, "sass_origin"), ==, "shipped");
  g_assert_cmpstr (json_object_get_string_member (root, "sass_arch"), ==, "sm_86");
  fn = json_array_get_object_element (json_object_get_array_member (root, "functions"), 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (fn, "instructions")), ==, want);
  result_clear (&r);

  r = run_cli (none);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "no SASS for sm_100"));
  g_assert_nonnull (strstr (r.err, "sm_70, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90"));
  result_clear (&r);
}

/* Hostile input (issue 16): each run under coreutils' timeout, so a hang
 * fails the test (status 124) instead of stalling the suite, and with its
 * address space bounded to @mib MiB (not under ASan, whose shadow memory
 * needs terabytes of it), so that what must not allocate its input's
 * claimed size fails the test by running out, not by slowing the machine */
static Result
run_cli_limited (guint              seconds,
                 guint              mib,
                 const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *script = NULL;
  g_autofree char *saved = cli;
  Result r;

#ifdef __SANITIZE_ADDRESS__
  (void) mib;
  script = g_strdup_printf ("exec timeout -k 5 %u \"$0\" \"$@\"", seconds);
#else
  script = g_strdup_printf ("ulimit -v %u && exec timeout -k 5 %u \"$0\" \"$@\"", mib * 1024,
                            seconds);
#endif
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, saved);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  cli = g_find_program_in_path ("sh");
  g_assert_nonnull (cli);
  r = run_cli ((const char *const *) argv->pdata);
  g_free (cli);
  cli = g_steal_pointer (&saved);
  return r;
}

/* Within @seconds, in the 4 GiB of address space issue 16 asks for */
static Result
run_cli_within (guint              seconds,
                const char *const *args)
{
  return run_cli_limited (seconds, 4096, args);
}

/* Within 120 s, in @mib MiB of address space */
static Result
run_cli_bounded (guint              mib,
                 const char *const *args)
{
  return run_cli_limited (120, mib, args);
}

/* A kernel of a million labels, each before an add (31 MB of PTX, issue
 * 16): analysed whole in 2 GiB of address space and two minutes.  The
 * default launch is 4 blocks of 256 threads, 32 warps, each running the
 * mov, the million adds and the ret: 32 x 1,000,002 warp-instructions. */
static void
test_hostile_million_labels (void)
{
#ifdef __SANITIZE_ADDRESS__
  g_test_skip ("a million labels under ASan take minutes; the parser's own tests cover it");
#else
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "labels.ptx", NULL);
  g_autoptr(GString) text = g_string_new (".version 8.0\n.target sm_80\n.address_size 64\n"
                                          ".visible .entry k()\n{\n .reg .b32 %r<2>;\n"
                                          " mov.u32 %r1, 0;\n");
  const char *analyze[] = { "analyze", "--json", "--no-toolkit", ptx, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *sim;
  Result r;

  for (guint i = 0; i < 1000000; i++)
    g_string_append_printf (text, "L%u:\n add.u32 %%r1, %%r1, 1;\n", i);
  g_string_append (text, " ret;\n}\n");
  g_assert_true (g_file_set_contents (ptx, text->str, (gssize) text->len, NULL));
  r = run_cli_bounded (2048, analyze);
  g_unlink (ptx);
  g_rmdir (dir);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  sim = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                       "simulation");
  g_assert_cmpstr (json_object_get_string_member (sim, "status"), ==, "ok");
  g_assert_cmpint (json_object_get_int_member (sim, "warp_instructions"), ==, 32 * 1000002);
  result_clear (&r);
#endif
}

/* JSON nested 100,000 levels deep: refused with the place where the bound
 * was passed, by run and analyze alike, never a crash */
static void
test_hostile_deep_json (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *spec = g_build_filename (dir, "deep.json", NULL);
  g_autoptr(GString) text = g_string_new ("{\"ptx\": \"k.ptx\",\n\"x\": ");
  const char *run[] = { "run", spec, NULL };
  const char *analyze[] = { "analyze", "--json", spec, NULL };
  const char *const *each[] = { run, analyze };

  for (guint i = 0; i < 100000; i++)
    g_string_append (text, "[");
  g_assert_true (g_file_set_contents (spec, text->str, (gssize) text->len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (each); i++)
    {
      Result r = run_cli_within (60, each[i]);
      g_autofree char *want = g_strdup_printf ("%s:2:69: arrays and objects nested more than 64 deep",
                                               spec);

      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, want));
      result_clear (&r);
    }
  g_unlink (spec);
  g_rmdir (dir);
}

/* analyze's exit statuses and messages (issue 16): PTX with errors and a
 * module without a kernel are bad input (1), not usage (2); several
 * kernels and none named is usage; a fault is on stderr as an error at the
 * PTX instruction's line and column, with its block and thread, exit 3 */
static void
test_hostile_analyze_exits (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.ptx", NULL);
  g_autofree char *none = g_build_filename (dir, "none.ptx", NULL);
  g_autofree char *two = g_build_filename (dir, "two.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "oob.json", NULL);
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"ptx\": \"%s\", \"grid\": [1], \"block\": [64],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 10}, \"b\": {\"type\": \"f32\", \"count\": 64},"
    " \"c\": {\"type\": \"f32\", \"count\": 64}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": 64}]}",
    ptx);
  g_autofree char *where = NULL;
  const char *header = ".version 8.0\n.target sm_80\n.address_size 64\n";
  g_autofree char *bad_text = g_strconcat (header, ".visible .entry k()\n{\n  mov.u32 %r1 1;\n  ret;\n}\n", NULL);
  g_autofree char *none_text = g_strconcat (header, ".func f()\n{\n  ret;\n}\n", NULL);
  g_autofree char *two_text = g_strconcat (header, ".visible .entry k()\n{\n  ret;\n}\n"
                                           ".visible .entry l()\n{\n  ret;\n}\n", NULL);
  const char *analyze_bad[] = { "analyze", "--no-toolkit", bad, NULL };
  const char *analyze_none[] = { "analyze", "--no-toolkit", none, NULL };
  const char *analyze_two[] = { "analyze", "--no-toolkit", two, NULL };
  const char *analyze_fault[] = { "analyze", "--json", "--no-toolkit", spec, NULL };
  const char *run_fault[] = { "run", spec, NULL };
  Result r;

  g_assert_true (g_file_set_contents (bad, bad_text, -1, NULL));
  g_assert_true (g_file_set_contents (none, none_text, -1, NULL));
  g_assert_true (g_file_set_contents (two, two_text, -1, NULL));
  g_assert_true (g_file_set_contents (spec, text, -1, NULL));

  r = run_cli_within (60, analyze_bad);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "bad.ptx:6:15: error: "));
  result_clear (&r);

  r = run_cli_within (60, analyze_none);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "the module has no kernel"));
  result_clear (&r);

  r = run_cli_within (60, analyze_two);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "the module has 2 kernels: choose the one to analyse"));
  result_clear (&r);

  /* a holds 10 floats: thread 10 reads past it, at the ld.global of line
   * 52 (a tab in: column 2) */
  where = g_strdup ("/vector_add.ptx:52:2: error: invalid global read of size 4");
  r = run_cli_within (60, analyze_fault);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_nonnull (r.json);
  g_assert_nonnull (strstr (r.err, where));
  g_assert_nonnull (strstr (r.err, "(block [0,0,0], thread [10,0,0])"));
  g_assert_nonnull (strstr (r.err, "vector_add.cu:10: note: "));
  result_clear (&r);
  r = run_cli_within (60, run_fault);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_nonnull (strstr (r.err, where));
  result_clear (&r);

  g_unlink (bad);
  g_unlink (none);
  g_unlink (two);
  g_unlink (spec);
  g_rmdir (dir);
}

/* A binary .cu compiled with nvcc: nvcc's own errors, with their places,
 * although it echoes bytes that are not UTF-8 (issue 16: they were lost,
 * and the module was said to have no kernel) */
static void
test_hostile_binary_cuda (void)
{
  g_autofree char *nvcc = g_find_program_in_path ("nvcc");
  g_autofree char *dir = NULL, *cu = NULL, *at = NULL;
  const char *args[] = { "analyze", NULL, NULL };
  guint8 bytes[2048];
  Result r;

  if (nvcc == NULL && !g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("nvcc is not installed: compiling CUDA is not tested");
      return;
    }
  dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  cu = g_build_filename (dir, "binary.cu", NULL);
  /* Bytes that are not UTF-8, on lines nvcc complains of */
  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = i % 64 == 63 ? '\n' : (guint8) (0x80 + (i * 37) % 0x7f);
  g_assert_true (g_file_set_contents (cu, (const char *) bytes, sizeof bytes, NULL));
  args[1] = cu;
  r = run_cli_within (300, args);
  g_assert_cmpint (r.status, ==, 1);
  at = g_strdup_printf ("%s:1", cu);
  g_assert_nonnull (strstr (r.err, at));
  g_assert_nonnull (strstr (r.err, "error"));
  g_assert_null (strstr (r.err, "no kernel"));
  g_assert_null (strstr (r.err, "Invalid UTF-8"));
  g_assert_true (g_utf8_validate (r.err, -1, NULL));
  result_clear (&r);
  g_unlink (cu);
  g_rmdir (dir);
}

/* A kernel that never ends stops after 10 s of simulation by default, not
 * at the step limit a minute or more later, and says how to allow more;
 * --max-seconds sets the budget, for analyze too; a negative one is a
 * usage error (issue 16) */
static void
test_hostile_infinite_loop (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "loop.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "loop.json", NULL);
  const char *run_default[] = { "run", spec, NULL };
  const char *run_short[] = { "run", "--json", "--max-seconds", "0.5", "--threads", "2", spec, NULL };
  const char *analyze_short[] = { "analyze", "--no-toolkit", "--max-seconds", "0.5", spec, NULL };
  const char *negative[] = { "run", "--max-seconds", "-1", spec, NULL };
  JsonObject *fault;
  gint64 start;
  Result r;

  g_assert_true (g_file_set_contents (ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry spin(.param .u64 out)\n{\n"
                                           "  .reg .b32 %r<3>;\n  mov.u32 %r1, 0;\n"
                                           "$L:\n  add.u32 %r1, %r1, 1;\n  bra $L;\n}\n", -1, NULL));
  g_assert_true (g_file_set_contents (spec, "{\"ptx\": \"loop.ptx\", \"grid\": [4], \"block\": [64],"
                                            " \"buffers\": {\"o\": {\"type\": \"u32\", \"count\": 1}},"
                                            " \"params\": [{\"buffer\": \"o\"}]}", -1, NULL));

  start = g_get_monotonic_time ();
  r = run_cli_within (40, run_default);
  g_test_message ("the default budget: %.1f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpint (r.status, ==, 3);
  /* at the add or the branch of the loop */
  g_assert_true (strstr (r.err, "loop.ptx:9:3: error: ") || strstr (r.err, "loop.ptx:10:3: error: "));
  g_assert_nonnull (strstr (r.err, ": error: stopped after 10 s of simulation (the default budget; "
                                   "--max-seconds N to allow more"));
  result_clear (&r);

  r = run_cli_within (30, run_short);
  g_assert_cmpint (r.status, ==, 3);
  fault = json_object_get_object_member (json_node_get_object (r.json), "fault");
  g_assert_cmpstr (json_object_get_string_member (fault, "kind"), ==, "time_limit");
  g_assert_nonnull (strstr (json_object_get_string_member (fault, "message"),
                            "stopped after 0.5 s of simulation (--max-seconds 0.5)"));
  result_clear (&r);

  r = run_cli_within (30, analyze_short);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_nonnull (strstr (r.err, "stopped after 0.5 s of simulation (--max-seconds 0.5)"));
  result_clear (&r);

  r = run_cli_within (30, negative);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--max-seconds"));
  result_clear (&r);

  g_unlink (ptx);
  g_unlink (spec);
  g_rmdir (dir);
}

/* A 20 MiB kernel name is elided in messages and text output, not echoed
 * whole (the JSON keeps it whole: it is data); counts of one are singular
 * (issue 16) */
static void
test_hostile_long_names_and_plurals (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "long.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "long.json", NULL);
  g_autofree char *wrong = g_build_filename (dir, "wrong.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.ptx", NULL);
  g_autofree char *bad_spec = g_build_filename (dir, "bad.json", NULL);
  g_autofree char *name = g_strnfill (20 << 20, 'k');
  g_autofree char *ptx_text = g_strdup_printf (".version 8.0\n.target sm_80\n.address_size 64\n"
                                               ".visible .entry %s()\n{\n  trap;\n}\n", name);
  g_autofree char *wrong_text = g_strdup_printf ("{\"ptx\": \"long.ptx\", \"kernel\": \"x%s\","
                                                 " \"grid\": [1], \"block\": [1]}", name);
  const char *run[] = { "run", spec, NULL };
  const char *run_wrong[] = { "run", wrong, NULL };
  const char *analyze_wrong[] = { "analyze", "--no-toolkit", wrong, NULL };
  const char *parse[] = { "parse", ptx, NULL };
  const char *parse_bad[] = { "parse", bad, NULL };
  const char *run_bad[] = { "run", bad_spec, NULL };
  const char *const *each[] = { run, run_wrong, analyze_wrong, parse };
  Result r;

  g_assert_true (g_file_set_contents (ptx, ptx_text, -1, NULL));
  g_assert_true (g_file_set_contents (spec, "{\"ptx\": \"long.ptx\", \"grid\": [1], \"block\": [1]}", -1,
                                      NULL));
  g_assert_true (g_file_set_contents (wrong, wrong_text, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (each); i++)
    {
      g_autofree char *both = NULL;

      r = run_cli_within (60, each[i]);
      /* the trap (3), the kernel that is not there (1), the listing (0) */
      g_assert_cmpint (r.status, ==, i == 0 ? 3 : i == 3 ? 0 : 1);
      g_assert_cmpuint (strlen (r.err), <, 4096);
      g_assert_cmpuint (strlen (r.out), <, 4096);
      both = g_strconcat (r.out, r.err, NULL);
      g_assert_nonnull (strstr (both, "kkkk...kkkk"));
      g_assert_nonnull (strstr (both, (i == 1 || i == 2) ? "(20971521 bytes)" : "(20971520 bytes)"));
      result_clear (&r);
    }

  g_assert_true (g_file_set_contents (bad, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry k()\n{\n  mov.u32 %r1 1;\n  ret;\n}\n",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (bad_spec, "{\"ptx\": \"bad.ptx\", \"grid\": [1], \"block\": [1]}",
                                      -1, NULL));
  r = run_cli_within (60, parse_bad);
  g_assert_nonnull (strstr (r.out, "1 kernel\n"));
  g_assert_nonnull (strstr (r.out, "\n1 error\n"));
  result_clear (&r);
  r = run_cli_within (60, run_bad);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "has 1 error; fix it before running it"));
  result_clear (&r);

  g_unlink (ptx);
  g_unlink (spec);
  g_unlink (wrong);
  g_unlink (bad);
  g_unlink (bad_spec);
  g_rmdir (dir);
}

/* A kernel whose parameters are over CUDA's 32,764 bytes (issue 16): a
 * 4 GiB .param array is refused by the parser at the kernel's name, before
 * the simulator allocates its parameter bank; 32,764 bytes are accepted */
static void
test_hostile_param_limit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "big.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "big.json", NULL);
  g_autofree char *want = g_strdup_printf ("%s:4:17: error: the parameters of kernel 'k' take "
                                           "4294967288 bytes, over CUDA's limit of 32764 bytes",
                                           ptx);
  const char *parse[] = { "parse", ptx, NULL };
  const char *run[] = { "run", spec, NULL };
  const char *analyze[] = { "analyze", "--no-toolkit", ptx, NULL };
  const char *const *each[] = { parse, run, analyze };
  static const struct { guint64 bytes; int status; } edge[] = { { 32764, 0 }, { 32768, 1 } };
  Result r;

  g_assert_true (g_file_set_contents (ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry k(.param .u32 n,\n"
                                           "  .param .align 8 .b8 p[4294967280])\n{\n  ret;\n}\n",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (spec, "{\"ptx\": \"big.ptx\", \"grid\": [1], \"block\": [1],"
                                            " \"params\": [{\"type\": \"u32\", \"value\": 1},"
                                            " {\"bytes_hex\": \"00\"}]}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (each); i++)
    {
      r = run_cli_bounded (1024, each[i]);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, want));
      result_clear (&r);
    }

  for (guint i = 0; i < G_N_ELEMENTS (edge); i++)
    {
      g_autofree char *text = g_strdup_printf (".version 8.1\n.target sm_80\n.address_size 64\n"
                                               ".visible .entry k(.param .u32 n,\n"
                                               "  .param .b8 p[%" G_GUINT64_FORMAT "])\n"
                                               "{\n  ret;\n}\n", edge[i].bytes - 4);
      gboolean said;

      g_assert_true (g_file_set_contents (ptx, text, -1, NULL));
      r = run_cli_bounded (1024, parse);
      g_assert_cmpint (r.status, ==, edge[i].status);
      said = strstr (r.err, "over CUDA's limit of 32764 bytes") != NULL;
      g_assert_true (said == (edge[i].status != 0));
      result_clear (&r);
    }
  g_unlink (ptx);
  g_unlink (spec);
  g_rmdir (dir);
}

/* Every message about a launch spec has one form (issue 16),
 * "SPEC:LINE:COL: FIELD: message", whether the spec's reader finds the
 * fault or the check of the spec against its kernel does, in run and in
 * analyze.  The places are counted by hand in the specs below. */
static void
test_run_spec_errors_placed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "k.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "k.json", NULL);
  static const struct { const char *json; const char *want; } cases[] = {
    { "{\n  \"ptx\": \"k.ptx\",\n  \"grid\": [1],\n  \"block\": [2048]\n}\n",
      "4:13: block[0]: 2048 is over the limit of 1024" },
    { "{\n  \"ptx\": \"k.ptx\",\n  \"grid\": [1], \"block\": [32],\n"
      "  \"params\": [{\"type\": \"u32\", \"value\": 1}]\n}\n",
      "4:3: params: kernel k takes 2 parameters, the launch gives 1" },
    { "{\n  \"ptx\": \"k.ptx\", \"kernel\": \"nope\",\n  \"grid\": [1], \"block\": [32]\n}\n",
      "2:19: kernel: " },
  };

  g_assert_true (g_file_set_contents (ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry k(.param .u32 n, .param .u64 p)\n"
                                           "{\n  ret;\n}\n", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *want = g_strdup_printf ("%s:%s", spec, cases[i].want);
      const char *run[] = { "run", spec, NULL };
      Result r;

      g_assert_true (g_file_set_contents (spec, cases[i].json, -1, NULL));
      r = run_cli (run);
      g_test_message ("run: %s", r.err);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_true (g_str_has_prefix (r.err, want));
      g_assert_null (strstr (r.err, "error: "));
      result_clear (&r);
      /* analyze places the spec's own faults and the kernel's checks alike */
      if (i < 2)
        {
          const char *analyze[] = { "analyze", "--no-toolkit", spec, NULL };

          r = run_cli (analyze);
          g_test_message ("analyze: %s", r.err);
          g_assert_cmpint (r.status, ==, 1);
          g_assert_true (g_str_has_prefix (r.err, want));
          result_clear (&r);
        }
    }
  g_unlink (ptx);
  g_unlink (spec);
  g_rmdir (dir);
}

/* A spec's buffer moves into the simulator's memory (issue 16), and from
 * one launch of a sequence into the next: a 1 GiB buffer runs in an
 * address space of 1.75 GiB, where a copy of it would not fit */
static void
test_hostile_buffer_moved (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "k.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "k.json", NULL);
  const char *run[] = { "run", spec, NULL };
  Result r;

  g_assert_true (g_file_set_contents (ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry k(.param .u64 a)\n{\n"
                                           "  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
                                           "  ld.param.u64 %rd1, [a];\n  mov.u32 %r1, 7;\n"
                                           "  st.global.u8 [%rd1+1073741823], %r1;\n  ret;\n}\n",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (spec, "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1],"
                                            " \"buffers\": {\"a\": {\"type\": \"u8\","
                                            " \"count\": 1073741824}},"
                                            " \"params\": [{\"buffer\": \"a\"}], \"outputs\": [\"a\"]}",
                                      -1, NULL));
  r = run_cli_bounded (1792, run);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "a (u8 x 1073741824): "));
  result_clear (&r);

  /* a sequence: each launch's memory moves into the next */
  g_assert_true (g_file_set_contents (spec, "{\"ptx\": \"k.ptx\","
                                            " \"buffers\": {\"a\": {\"type\": \"u8\","
                                            " \"count\": 1073741824}}, \"launches\": ["
                                            " {\"kernel\": \"k\", \"grid\": [1], \"block\": [1],"
                                            "  \"params\": [{\"buffer\": \"a\"}]},"
                                            " {\"kernel\": \"k\", \"grid\": [1], \"block\": [1],"
                                            "  \"params\": [{\"buffer\": \"a\"}]}],"
                                            " \"outputs\": [\"a\"]}", -1, NULL));
  r = run_cli_bounded (1792, run);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "2 of 2 launches run"));
  result_clear (&r);
  g_unlink (ptx);
  g_unlink (spec);
  g_rmdir (dir);
}

/* A SASS listing is text (issue 16): /dev/zero is refused at its first
 * NUL, not after 256 MiB read (so it runs in 128 MiB of address space), a
 * NUL on line 3 is placed there, and a regular file over 256 MiB is refused
 * by its size before it is read */
static void
test_hostile_sass_binary (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *nul = g_build_filename (dir, "nul.sass", NULL);
  g_autofree char *big = g_build_filename (dir, "big.sass", NULL);
  g_autofree char *want_nul = g_strdup_printf ("%s:3:1: error: binary data, not a text listing", nul);
  g_autofree char *want_big = g_strdup_printf ("%s is more than 256 MiB, too large for a listing", big);
  const char *zero[] = { "sass", "/dev/zero", NULL };
  const char *at_nul[] = { "sass", nul, NULL };
  const char *too_big[] = { "sass", big, NULL };
  int fd;
  Result r;

  r = run_cli_bounded (128, zero);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/dev/zero:1:1: error: binary data, not a text listing"));
  result_clear (&r);

  g_assert_true (g_file_set_contents (nul, "line 1\nline 2\n\0line 3", 21, NULL));
  r = run_cli_bounded (128, at_nul);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, want_nul));
  result_clear (&r);

  /* a sparse file: no disk used */
  fd = g_open (big, O_WRONLY | O_CREAT, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 300 << 20), ==, 0);
  close (fd);
  r = run_cli_bounded (128, too_big);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, want_big));
  result_clear (&r);

  g_unlink (nul);
  g_unlink (big);
  g_rmdir (dir);
}

/* run --json writes the buffers' values as it goes (issue 16; it once
 * built them all as a JSON tree first, 30x the buffer): a 256 MiB buffer
 * moves into the simulator and streams out, in 400 MiB of address space,
 * where two copies of it would not fit.  Hex, which is fast to write; the
 * output is counted by wc, not held here. */
static void
test_hostile_run_json_streams (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *ptx = g_build_filename (dir, "k.ptx", NULL);
  g_autofree char *spec = g_build_filename (dir, "k.json", NULL);
  const char *script =
#ifdef __SANITIZE_ADDRESS__
    "{ timeout -k 5 120 \"$0\" run --json --encoding hex \"$1\"; echo \"status $?\" >&2; } | wc -c";
#else
    "ulimit -v 409600 && "
    "{ timeout -k 5 120 \"$0\" run --json --encoding hex \"$1\"; echo \"status $?\" >&2; } | wc -c";
#endif
  const char *argv[] = { "sh", "-c", script, cli, spec, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_file_set_contents (ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry k(.param .u64 a)\n{\n  ret;\n}\n",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (spec, "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1],"
                                            " \"buffers\": {\"a\": {\"type\": \"u8\","
                                            " \"count\": 268435456}},"
                                            " \"params\": [{\"buffer\": \"a\"}]}", -1, NULL));
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (err, "status 0"));
  /* the hex digits of 256 MiB, and the rest of the object */
  g_assert_cmpuint (g_ascii_strtoull (out, NULL, 10), >, (guint64) 512 << 20);
  g_unlink (ptx);
  g_unlink (spec);
  g_rmdir (dir);
}

/* A folder, a missing file and a pipe, as a user names them (issue 16):
 * the folder and the missing file said in those words, not as the system
 * call failed ("Failed to map DIR: mmap() failed: No such device"); a pipe
 * read like a file */
static void
test_hostile_folders_and_pipes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (dir, "kernel.ptx", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.ptx", NULL);
  g_autofree char *ptx = dist ("..", "data", "samples", "01-vector-add", "vector_add.ptx", NULL);
  const char *parse_folder[] = { "parse", folder, NULL };
  const char *run_folder[] = { "run", folder, NULL };
  const char *analyze_folder[] = { "analyze", "--no-toolkit", folder, NULL };
  const char *sass_folder[] = { "sass", folder, NULL };
  const char *parse_missing[] = { "parse", missing, NULL };
  const char *const *each[] = { parse_folder, run_folder, analyze_folder, sass_folder };
  g_autofree char *said = NULL;
  Result r;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  said = g_strdup_printf ("%s is a folder; open a .cu, .ptx, .json or listing file", folder);
  for (guint i = 0; i < G_N_ELEMENTS (each); i++)
    {
      r = run_cli_within (60, each[i]);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, said));
      g_assert_null (strstr (r.err, "mmap"));
      result_clear (&r);
    }
  r = run_cli_within (60, parse_missing);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "missing.ptx does not exist"));
  result_clear (&r);

  /* parse <(cat vector_add.ptx): a pipe, as bash hands it */
  {
    const char *argv[] = { "sh", "-c", "cat \"$1\" | \"$0\" parse /dev/stdin", cli, ptx, NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(GError) error = NULL;
    int status = 0;

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                  &error);
    g_assert_no_error (error);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    g_assert_nonnull (strstr (out, "PTX 9.0, 1 kernel"));
    g_assert_nonnull (strstr (out, ".entry _Z10vector_addPKfS0_Pfi: 22 instructions"));
  }
  g_rmdir (folder);
  g_rmdir (dir);
}

/* `probe list --json` and `probe run NAME --json`: the contract of
 * docs/PROBES.md; the model's dependent FFMA chain at the published 4
 * cycles (Jia et al. 2018, V100) */
/* `probe rerun DIR`: a saved experiment run again, its figures against
 * the saved ones: the same build gives the same figures, and a saved
 * figure changed by hand is the change it reports */
static void
test_probe_rerun (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *meta = g_build_filename (dir, "metadata.json", NULL);
  const char *run[] = { "probe", "run", "accumulators", "--instruction", "dfma", "--gpu",
                        "v100-sxm2", "--no-toolkit", "--out", dir, "--json", NULL };
  const char *rerun[] = { "probe", "rerun", dir, "--no-toolkit", "--json", NULL };
  const char *with_gpu[] = { "probe", "rerun", dir, "--gpu", "t4", NULL };
  const char *missing[] = { "probe", "rerun", "/nonexistent/experiment", NULL };
  g_autofree char *text = NULL, *spoilt = NULL, *broken = NULL;
  JsonArray *points;
  JsonObject *o;
  Result r = run_cli (run);
  char *at;

  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);

  r = run_cli (rerun);
  g_assert_cmpint (r.status, ==, 0);
  o = json_node_get_object (r.json);
  g_assert_true (json_object_get_boolean_member (o, "same"));
  points = json_object_get_array_member (o, "points");
  g_assert_cmpuint (json_array_get_length (points), ==, 5);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (points, i),
                                                      "change"), ==, 0);
  /* it ran what was saved: DFMA on V100 */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "now"),
                                                  "instruction"), ==, "dfma");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "now"),
                                                  "gpu"), ==, "v100-sxm2");
  result_clear (&r);

  /* the first point's saved figure made twice what the model gives */
  g_assert_true (g_file_get_contents (meta, &text, NULL, NULL));
  at = strstr (text, "\"cycles_per_instruction\" : ");
  g_assert_nonnull (at);
  {
    double was = g_ascii_strtod (at + strlen ("\"cycles_per_instruction\" : "), NULL);
    g_autofree char *head = g_strndup (text, at - text);
    char *end = strchr (at, ',');

    spoilt = g_strdup_printf ("%s\"cycles_per_instruction\" : %.6f%s", head, 2 * was, end);
  }
  g_assert_true (g_file_set_contents (meta, spoilt, -1, NULL));
  r = run_cli (rerun);
  g_assert_cmpint (r.status, ==, 0);
  o = json_node_get_object (r.json);
  g_assert_false (json_object_get_boolean_member (o, "same"));
  points = json_object_get_array_member (o, "points");
  g_assert_cmpfloat (fabs (json_object_get_double_member (json_array_get_object_element (points, 0),
                                                          "change") + 0.5), <, 1e-4);
  result_clear (&r);

  /* the saved experiment is run as it was */
  r = run_cli (with_gpu);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  /* no folder, and a folder whose metadata is not an experiment's: the
   * path in the message */
  r = run_cli (missing);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/nonexistent/experiment/metadata.json"));
  result_clear (&r);
  broken = g_strdup ("{\"template\": \"accumulators\", \"gpu\": 3}");
  g_assert_true (g_file_set_contents (meta, broken, -1, NULL));
  r = run_cli (rerun);
  g_assert_cmpint (r.status, ==, 1);
  /* at the member: line 1, the column of its key */
  g_assert_nonnull (strstr (r.err, "metadata.json:1:30: \"gpu\" is not a string"));
  g_assert_cmpint (strstr (broken, "\"gpu\"") - broken + 1, ==, 30);
  result_clear (&r);
  ks_test_remove_tree (dir);
}

/* `probe run NAME --ptx FILE`: a probe edited by hand, one point; its
 * errors name the user's file */
/* probe run on a GPU: without a driver --on gpu fails and --on auto (the
 * default) says why in its JSON; with tests/fake-libcuda.c as the driver
 * (every clock delta 4096 cycles over the chain-length probes' 1024 to
 * 131072 FFMA) the points are its figures and the model times the GPU the
 * driver names */
static void
test_probe_gpu (void)
{
  const char *fake = g_getenv ("KS_FAKE_LIBCUDA");
  const char *on_gpu[] = { "probe", "run", "chain-length", "--no-toolkit", "--on", "gpu",
                           "--warmup", "1", "--runs", "3", "--json", NULL };
  const char *automatic[] = { "probe", "run", "chain-length", "--no-toolkit", "--json", NULL };
  const char *bad_on[] = { "probe", "run", "chain-length", "--on", "tpu", NULL };
  const char *bad_runs[] = { "probe", "run", "chain-length", "--runs", "0", NULL };
  g_auto(GStrv) envp = g_get_environ ();
  JsonObject *o;
  JsonArray *points;
  Result r;

  envp = g_environ_setenv (envp, "KS_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  r = run_cli_env (on_gpu, envp);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "no NVIDIA GPU driver here"));
  result_clear (&r);
  r = run_cli_env (automatic, envp);
  g_assert_cmpint (r.status, ==, 0);
  o = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (o, "ran_on"), ==, "model");
  g_assert_nonnull (strstr (json_object_get_string_member (o, "gpu_note"),
                            "no NVIDIA GPU driver here"));
  result_clear (&r);
  r = run_cli (bad_on);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  r = run_cli (bad_runs);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);

  if (fake == NULL || !g_file_test (fake, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("KS_FAKE_LIBCUDA names no fake driver (meson test sets it)");
      return;
    }
  envp = g_environ_setenv (envp, "KS_LIBCUDA", fake, TRUE);
  envp = g_environ_setenv (envp, "KS_FAKE_CUDA_CYCLES", "4096", TRUE);
  envp = g_environ_setenv (envp, "KS_FAKE_CUDA_NAME", "NVIDIA GeForce RTX 3090", TRUE);
  envp = g_environ_setenv (envp, "KS_FAKE_CUDA_CC", "8.6", TRUE);
  envp = g_environ_setenv (envp, "KS_FAKE_CUDA_SMS", "82", TRUE);
  r = run_cli_env (on_gpu, envp);
  g_assert_cmpint (r.status, ==, 0);
  o = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (o, "ran_on"), ==, "gpu");
  g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "rtx-3090");
  g_assert_cmpstr (json_object_get_string_member (o, "arch"), ==, "sm_86");
  g_assert_false (json_object_has_member (o, "gpu_note"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "device"),
                                                  "name"), ==,
                   "NVIDIA GeForce RTX 3090 (sm_86, 82 SMs)");
  points = json_object_get_array_member (o, "points");
  g_assert_cmpuint (json_array_get_length (points), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      JsonObject *p = json_array_get_object_element (points, i);
      double n = json_object_get_double_member (p, "x");

      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (p, "gpu"),
                                                   "count"), ==, 3);
      /* N FFMA in 4096 cycles */
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (p,
                                                                     "cycles_per_instruction"),
                                      4096 / n, 1e-9);
    }
  result_clear (&r);

  /* calibrate: a verified H200 run whose one-accumulator FFMA loop takes 5
   * cycles an FFMA over its empty loop, written to a private config */
  {
    g_autofree char *config = g_dir_make_tmp ("ks-cli-config-XXXXXX", NULL);
    g_autofree char *dir = g_build_filename (config, "experiment", NULL);
    const char *model[] = { "probe", "run", "accumulators", "--no-toolkit", "--on", "model",
                            "--gpu", "h200", "--json", NULL };
    const char *measure[] = { "probe", "run", "accumulators", "--no-toolkit", "--on", "gpu",
                              "--warmup", "1", "--runs", "2", "--out", dir, NULL };
    const char *calibrate[] = { "probe", "calibrate", dir, "--json", NULL };
    const char *model_dir[] = { "probe", "calibrate", config, NULL };
    g_autoptr(GString) outs = g_string_new (NULL);
    JsonObject *c;

    envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
    envp = g_environ_setenv (envp, "KS_FAKE_CUDA_NAME", "NVIDIA H200", TRUE);
    envp = g_environ_setenv (envp, "KS_FAKE_CUDA_CC", "9.0", TRUE);
    envp = g_environ_setenv (envp, "KS_FAKE_CUDA_SMS", "132", TRUE);
    envp = g_environ_setenv (envp, "KS_FAKE_CUDA_CYCLES", "164880", TRUE);
    envp = g_environ_setenv (envp, "KS_FAKE_CUDA_OTHER_CYCLES", "1040", TRUE);
    r = run_cli_env (model, envp);
    g_assert_cmpint (r.status, ==, 0);
    points = json_object_get_array_member (json_node_get_object (r.json), "points");
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (points, 0),
                                                      "cycles_per_instruction"), <, 4.2);
    /* the GPU stores what the simulator computed, point by point */
    for (guint i = 0; i < json_array_get_length (points); i++)
      {
        float f = (float) json_object_get_double_member (json_array_get_object_element (points, i),
                                                         "checksum");
        guint8 b[4];

        memcpy (b, &f, 4);
        g_string_append_printf (outs, "%s%02x%02x%02x%02x", i ? "," : "", b[0], b[1], b[2], b[3]);
      }
    result_clear (&r);
    envp = g_environ_setenv (envp, "KS_FAKE_CUDA_OUTS", outs->str, TRUE);
    r = run_cli_env (measure, envp);
    g_assert_cmpint (r.status, ==, 0);
    result_clear (&r);
    r = run_cli_env (calibrate, envp);
    g_assert_cmpint (r.status, ==, 0);
    c = json_node_get_object (r.json);
    g_assert_cmpstr (json_object_get_string_member (c, "arch"), ==, "sm_90");
    g_assert_cmpstr (json_object_get_string_member (c, "class"), ==, "ffma");
    g_assert_cmpint (json_object_get_int_member (c, "latency"), ==, 5);
    g_assert_cmpint (json_object_get_int_member (c, "was"), ==, 4);
    g_assert_true (g_str_has_prefix (json_object_get_string_member (c, "file"), config));
    result_clear (&r);
    /* the model times sm_90's FFMA chain with it now */
    r = run_cli_env (model, envp);
    points = json_object_get_array_member (json_node_get_object (r.json), "points");
    g_assert_cmpfloat (fabs (json_object_get_double_member (json_array_get_object_element (points, 0),
                                                            "cycles_per_instruction") - 5), <, 0.1);
    result_clear (&r);
    /* a folder that is none: exit 1, named */
    r = run_cli_env (model_dir, envp);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "metadata.json"));
    result_clear (&r);
    ks_test_remove_tree (config);
  }
}

/* anatomy: the sample's four parameters where nvdisasm's sm_89 listing
 * reads them (c[0x0][0x160] ...), its eight stages; usage and bad input */
static void
test_anatomy (void)
{
  g_autofree char *spec = dist ("..", "data", "samples", "01-vector-add", "vector_add.json",
                                NULL);
  const char *ok[] = { "anatomy", spec, "--gpu", "rtx-4090", "--no-toolkit", "--json", NULL };
  const char *text[] = { "anatomy", spec, "--gpu", "rtx-4090", "--no-toolkit", NULL };
  const char *none[] = { "anatomy", NULL };
  const char *missing[] = { "anatomy", "/nonexistent/spec.json", NULL };
  const char *bad_gpu[] = { "anatomy", spec, "--gpu", "no-such-gpu", NULL };
  Result r = run_cli (ok);
  JsonObject *o;
  JsonArray *params;

  g_assert_cmpint (r.status, ==, 0);
  o = json_node_get_object (r.json);
  params = json_object_get_array_member (o, "params");
  g_assert_cmpuint (json_array_get_length (params), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *p = json_array_get_object_element (params, i);

      g_assert_cmpint (json_object_get_int_member (p, "offset"), ==, 8 * i);
      g_assert_cmpint (json_object_get_int_member (p, "cbank_offset"), ==, 0x160 + 8 * i);
      g_assert_true (json_object_get_boolean_member (p, "in_sass"));
      /* what the stub nvcc wrote for the sample notes (its record) */
      g_assert_cmpint (json_object_get_int_member (p, "stub_offset"), ==, 8 * i);
    }
  /* stage 1: the sample's record of nvcc --keep (no toolkit is run) */
  {
    JsonObject *k = json_object_get_object_member (o, "artifacts");

    g_assert_true (json_object_get_boolean_member (k, "recorded"));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (k, "files")), ==, 12);
  }
  /* stage 6: warp 0 loads a[0..31]: 4 sectors of one line */
  {
    JsonObject *w = json_object_get_object_member (o, "warp_request");

    g_assert_cmpint (json_object_get_int_member (w, "lanes"), ==, 32);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (w, "sectors")), ==, 4);
    g_assert_cmpint (json_object_get_int_member (w, "lines"), ==, 1);
  }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "stages")), ==, 8);
  /* 4 blocks of the sample on 128 SMs of 6 */
  g_assert_cmpint (json_object_get_int_member (o, "blocks_per_sm"), ==, 6);
  /* the record's word 12 is the grid's width (QMD 03_00's CTA_RASTER_WIDTH) */
  {
    JsonObject *qmd = json_object_get_object_member (o, "qmd");

    g_assert_cmpstr (json_object_get_string_member (qmd, "version"), ==, "03_00");
    g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (qmd, "words"),
                                                 12), ==, 4);
  }
  /* the listing's FADD waits on the loads' scoreboard 2 */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "control_codes"),
                                               "first_wait_scoreboard"), ==, 2);
  /* the sample's measurement is of another launch: not shown for this one */
  g_assert_true (json_node_is_null (json_object_get_member (o, "nsight_measured")));
  result_clear (&r);
  r = run_cli (text);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "c[0x0][0x178] (read in the SASS)"));
  g_assert_nonnull (strstr (r.out, "FADD at 00d0 waits on scoreboard 2, set by 2 instructions"));
  g_assert_nonnull (strstr (r.out, "not a measurement"));
  result_clear (&r);
  r = run_cli (none);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  r = run_cli (missing);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/nonexistent/spec.json"));
  result_clear (&r);
  /* as analyze: an unknown GPU is named */
  r = run_cli (bad_gpu);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "no-such-gpu"));
  result_clear (&r);
}

/* fatbin: the entries of nvcc's fat binary (tests/fixtures/fatbin), the
 * cubin written out byte for byte as `nvcc -cubin` made it */
static void
test_fatbin (void)
{
  g_autofree char *fb = dist ("fixtures", "fatbin", "vector_add.sm_89.speed.fatbin", NULL);
  g_autofree char *cubin = dist ("fixtures", "fatbin", "vector_add.sm_89.cubin", NULL);
  g_autofree char *cu = dist ("..", "data", "samples", "01-vector-add", "vector_add.cu", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "x", NULL);
  g_autofree char *written = g_build_filename (out, "vector_add.sm_89.speed.0.sm_89.cubin", NULL);
  g_autofree char *a = NULL, *b = NULL;
  gsize la, lb;
  const char *list[] = { "fatbin", fb, "--json", "--extract", out, NULL };
  const char *bad[] = { "fatbin", cu, NULL };
  Result r = run_cli (list);
  JsonArray *entries;

  g_assert_cmpint (r.status, ==, 0);
  entries = json_object_get_array_member (json_node_get_object (r.json), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (entries, 1),
                                                  "compression"), ==, "lz4");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (entries, 1),
                                                  "ptx_version"), ==, "9.0");
  result_clear (&r);
  g_assert_true (g_file_get_contents (written, &a, &la, NULL));
  g_assert_true (g_file_get_contents (cubin, &b, &lb, NULL));
  g_assert_cmpmem (a, la, b, lb);
  r = run_cli (bad);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "not a CUDA fat binary"));
  result_clear (&r);
  ks_test_remove_tree (dir);
}

static void
test_probe_run_ptx (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-cli-XXXXXX", NULL);
  g_autofree char *probe = g_build_filename (dir, "binary", "probe_4.ptx", NULL);
  g_autofree char *mine = g_build_filename (dir, "mine.ptx", NULL);
  g_autofree char *text = NULL, *edited = NULL, *place = NULL;
  const char *run[] = { "probe", "run", "accumulators", "--no-toolkit", "--out", dir, NULL };
  const char *edit[] = { "probe", "run", "accumulators", "--no-toolkit", "--ptx", mine, "--x",
                         "4", "--json", NULL };
  const char *x_alone[] = { "probe", "run", "accumulators", "--x", "4", NULL };
  const char *x_wrong[] = { "probe", "run", "accumulators", "--ptx", mine, "--x", "5", NULL };
  JsonObject *o, *p;
  Result r = run_cli (run);
  char *at;

  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_assert_true (g_file_get_contents (probe, &text, NULL, NULL));
  /* half the loop's trips: 128 of 128 FFMA, four chains */
  at = strstr (text, "%r50, 256;");
  g_assert_nonnull (at);
  edited = g_strdup_printf ("%.*s%%r50, 128;%s", (int) (at - text), text,
                            at + strlen ("%r50, 256;"));
  g_assert_true (g_file_set_contents (mine, edited, -1, NULL));
  r = run_cli (edit);
  g_assert_cmpint (r.status, ==, 0);
  o = json_node_get_object (r.json);
  g_assert_true (json_object_get_boolean_member (o, "edited"));
  g_assert_true (json_object_get_boolean_member (o, "verified"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "points")), ==, 1);
  p = json_array_get_object_element (json_object_get_array_member (o, "points"), 0);
  g_assert_cmpfloat (json_object_get_double_member (p, "x"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (p, "total_instructions"), ==, 128 * 128);
  result_clear (&r);

  r = run_cli (x_alone);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  r = run_cli (x_wrong);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "1, 2, 4, 8, 16"));
  result_clear (&r);
  /* a typo on the loop's line: the user's file, its line */
  g_free (edited);
  edited = g_strdup_printf ("%.*s%%r50 128;%s", (int) (at - text), text,
                            at + strlen ("%r50, 256;"));
  g_assert_true (g_file_set_contents (mine, edited, -1, NULL));
  r = run_cli (edit);
  g_assert_cmpint (r.status, ==, 1);
  {
    guint line = 1;

    for (const char *c = text; c < at; c++)
      line += *c == '\n';
    place = g_strdup_printf ("%s:%u:", mine, line);
  }
  if (!strstr (r.err, place))
    g_error ("'%s' does not name %s", r.err, place);
  result_clear (&r);
  ks_test_remove_tree (dir);
}

static void
test_probe (void)
{
  const char *list[] = { "probe", "list", "--json", NULL };
  const char *run[] = { "probe", "run", "chain-length", "--gpu", "v100-sxm2", "--no-toolkit",
                        "--json", NULL };
  const char *bad[] = { "probe", "run", "no-such-probe", "--json", NULL };
  const char *names[] = { "accumulators", "chain-length", "shared-stride", "pointer-chase",
                          "mixed-pipe" };
  Result r = run_cli (list);
  JsonArray *a;
  JsonObject *o, *fit;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (r.json);
  a = json_object_get_array_member (json_node_get_object (r.json), "templates");
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonObject *t = json_array_get_object_element (a, i);

          if (g_strcmp0 (json_object_get_string_member (t, "name"), names[k]) == 0)
            found = json_object_has_member (t, "title") && json_object_has_member (t, "variable")
                    /* the chains list the instructions they time */
                    && json_object_has_member (t, "instructions") == (k < 2);
        }
      if (!found)
        g_error ("probe list lacks %s", names[k]);
    }
  result_clear (&r);

  r = run_cli (run);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (r.json);
  o = json_node_get_object (r.json);
  g_assert_cmpstr (json_object_get_string_member (o, "template"), ==, "chain-length");
  g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "v100-sxm2");
  g_assert_cmpstr (json_object_get_string_member (o, "arch"), ==, "sm_70");
  g_assert_cmpstr (json_object_get_string_member (o, "ran_on"), ==, "model");
  g_assert_cmpstr (json_object_get_string_member (o, "evidence"), ==, "model");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "verification")), >=, 6);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "points")), ==, 5);
  fit = json_object_get_object_member (o, "fit");
  g_assert_cmpfloat (fabs (json_object_get_double_member (fit, "slope") - 4.0), <=, 0.08);
  g_assert_true (json_object_has_member (fit, "r2"));
  g_assert_nonnull (strstr (json_object_get_string_member (o, "conclusion"), "model"));
  result_clear (&r);

  r = run_cli (bad);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (r.json);
  g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (r.json), "error"),
                            "no-such-probe"));
  result_clear (&r);

  /* another instruction's chain: DFMA on V100 issues one every 4 cycles
   * with 16 accumulators (32 FP64 results a clock per SM, CUDA C++
   * Programming Guide); the old name of the template still runs */
  {
    const char *dfma[] = { "probe", "run", "ffma-accumulators", "--instruction", "dfma", "--gpu",
                           "v100-sxm2", "--no-toolkit", "--json", NULL };
    const char *wrong[] = { "probe", "run", "shared-stride", "--instruction", "dfma", "--json",
                            NULL };
    const char *unknown[] = { "probe", "run", "accumulators", "--instruction", "fmul", "--json",
                              NULL };
    JsonArray *points;
    double last;

    r = run_cli (dfma);
    g_assert_cmpint (r.status, ==, 0);
    o = json_node_get_object (r.json);
    g_assert_cmpstr (json_object_get_string_member (o, "template"), ==, "accumulators");
    g_assert_cmpstr (json_object_get_string_member (o, "instruction"), ==, "dfma");
    g_assert_cmpstr (json_object_get_string_member (o, "title"), ==, "DFMA latency and throughput");
    g_assert_true (json_object_get_boolean_member (o, "verified"));
    points = json_object_get_array_member (o, "points");
    last = json_object_get_double_member (json_array_get_object_element (points, 4),
                                          "cycles_per_instruction");
    g_assert_cmpfloat (fabs (last - 4.0) / 4.0, <=, 0.05);
    result_clear (&r);
    r = run_cli (wrong);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (r.json),
                                                             "error"), "--instruction"));
    result_clear (&r);
    r = run_cli (unknown);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (json_object_get_string_member (json_node_get_object (r.json),
                                                             "error"), "fmul"));
    result_clear (&r);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  cli = g_strdup (g_getenv ("KS_CLI"));
  if (cli == NULL)
    cli = g_build_filename (g_test_get_dir (G_TEST_BUILT), "..", "src", "app", "kernelscope-cli", NULL);
  g_test_add_func ("/cli/parse/json", test_parse_json);
  g_test_add_func ("/cli/compare", test_compare);
  g_test_add_func ("/cli/analyze-cooperative", test_analyze_cooperative);
  g_test_add_func ("/cli/probe", test_probe);
  g_test_add_func ("/cli/probe-rerun", test_probe_rerun);
  g_test_add_func ("/cli/probe-run-ptx", test_probe_run_ptx);
  g_test_add_func ("/cli/probe-gpu", test_probe_gpu);
  g_test_add_func ("/cli/anatomy", test_anatomy);
  g_test_add_func ("/cli/fatbin", test_fatbin);
  g_test_add_func ("/cli/analyze/default-launch", test_analyze_default_launch);
  g_test_add_func ("/cli/analyze/cuda-error", test_analyze_cuda_error);
  g_test_add_func ("/cli/parse/errors", test_parse_errors);
  g_test_add_func ("/cli/run/json", test_run_json);
  g_test_add_func ("/cli/run/fault", test_run_fault);
  g_test_add_func ("/cli/run/encoding", test_run_encoding);
  g_test_add_func ("/cli/run/launches", test_run_launches);
  g_test_add_func ("/cli/run/symbols", test_run_symbols);
  g_test_add_func ("/cli/run/options-and-line-stats", test_run_options);
  g_test_add_func ("/cli/run/texture", test_run_texture);
  g_test_add_func ("/cli/run/spec-errors-placed", test_run_spec_errors_placed);
  g_test_add_func ("/cli/occupancy/json", test_occupancy_json);
  g_test_add_func ("/cli/analyze/json", test_analyze_json);
  g_test_add_func ("/cli/analyze/sass", test_analyze_sass);
  g_test_add_func ("/cli/analyze/sass-loops", test_analyze_sass_loops);
  g_test_add_func ("/cli/sass/cubin", test_sass_cubin);
  g_test_add_func ("/cli/sass/kernel", test_sass_kernel);
  g_test_add_func ("/cli/sass/cubin-bad", test_sass_cubin_bad);
  g_test_add_func ("/cli/hostile/deep-json", test_hostile_deep_json);
  g_test_add_func ("/cli/hostile/million-labels", test_hostile_million_labels);
  g_test_add_func ("/cli/hostile/analyze-exits", test_hostile_analyze_exits);
  g_test_add_func ("/cli/hostile/binary-cuda", test_hostile_binary_cuda);
  g_test_add_func ("/cli/hostile/infinite-loop", test_hostile_infinite_loop);
  g_test_add_func ("/cli/hostile/long-names-and-plurals", test_hostile_long_names_and_plurals);
  g_test_add_func ("/cli/hostile/folders-and-pipes", test_hostile_folders_and_pipes);
  g_test_add_func ("/cli/hostile/param-limit", test_hostile_param_limit);
  g_test_add_func ("/cli/hostile/buffer-moved", test_hostile_buffer_moved);
  g_test_add_func ("/cli/hostile/sass-binary", test_hostile_sass_binary);
  g_test_add_func ("/cli/hostile/run-json-streams", test_hostile_run_json_streams);
  return g_test_run ();
}
