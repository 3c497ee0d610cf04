/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the GPU database: the built-in data/gpus.json loads and holds
 * what the occupancy rules need; each way of breaking it is refused with the
 * JSON path of the bad field; a user's file is merged over it by key. */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ks-gpu-db.h"

static char *builtin_text;
static char *config_home;

static void
test_builtin (void)
{
  static const char *const archs[] = {
    "sm_70", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120",
  };
  static const char *const gpus[] = {
    "v100-sxm2", "t4", "a100-sxm4-80gb", "a10", "rtx-a6000", "rtx-3090", "rtx-4090", "l4", "l40s",
    "h100-sxm", "h200", "b200", "rtx-5090",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  const KsArchInfo *a;
  const KsGpuInfo *g;

  g_assert_no_error (error);
  g_assert_nonnull (db);

  /* sorted by compute capability */
  g_assert_cmpuint (db->n_archs, ==, G_N_ELEMENTS (archs));
  for (guint i = 0; i < G_N_ELEMENTS (archs); i++)
    g_assert_cmpstr (db->archs[i].id, ==, archs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (gpus); i++)
    g_assert_nonnull (ks_gpu_db_get_gpu (db, gpus[i]));

  /* every figure has a source, every arch a GPU of its own kind */
  for (guint i = 0; i < db->n_archs; i++)
    {
      const char *fields[] = { "max_warps_per_sm", "shared_allocation_unit_bytes", "l2_sector_bytes",
                               "fp64_lanes", "barriers_per_sm", "latencies.dram" };

      a = &db->archs[i];
      for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
        g_assert_nonnull (ks_arch_info_source (a, fields[f]));
      for (guint k = 0; k < KS_N_LATENCIES; k++)
        {
          g_assert_cmpuint (a->latencies[k].latency, >, 0);
          g_assert_nonnull (a->latencies[k].source);
        }
      g = ks_gpu_db_representative_gpu (db, a);
      g_assert_nonnull (g);
      g_assert_cmpstr (g->arch, ==, a->id);
      g_assert_cmpuint (a->max_warps_per_sm * a->warp_size, ==, a->max_threads_per_sm);
      g_assert_cmpuint (a->shared_carveout_kib[a->n_shared_carveouts - 1] * 1024, ==,
                        a->shared_per_sm_bytes);
    }

  a = ks_gpu_db_get_arch (db, "sm_86");
  g_assert_nonnull (a);
  g_assert_cmpuint (a->compute_major, ==, 8);
  g_assert_cmpuint (a->compute_minor, ==, 6);
  g_assert_cmpuint (a->max_warps_per_sm, ==, 48);
  g_assert_cmpuint (a->max_blocks_per_sm, ==, 16);
  g_assert_cmpuint (a->shared_per_sm_bytes, ==, 102400);
  g_assert_cmpuint (a->shared_per_block_optin_bytes, ==, 101376);
  g_assert_cmpuint (a->shared_reserved_per_block_bytes, ==, 1024);
  g_assert_cmpuint (a->register_allocation_unit, ==, 256);
  g_assert_cmpint (a->register_allocation_granularity, ==, KS_REG_GRANULARITY_WARP);
  g_assert_cmpfloat (a->fp32_lanes, ==, 32);
  g_assert_cmpfloat (a->fp64_lanes, ==, 0.5);
  g_assert_cmpfloat (a->latencies[KS_LATENCY_FFMA].issue, ==, 1.0);
  g_assert_cmpstr (a->representative_gpu, ==, "rtx-3090");

  a = ks_gpu_db_get_arch (db, "sm_80");
  g_assert_cmpfloat (a->fp32_lanes, ==, 16);
  g_assert_cmpfloat (a->fp64_lanes, ==, 8);
  g_assert_cmpfloat (a->latencies[KS_LATENCY_FFMA].issue, ==, 2.0);
  g_assert_cmpuint (ks_gpu_db_get_arch (db, "sm_70")->shared_reserved_per_block_bytes, ==, 0);

  /* the ways of naming an arch */
  g_assert_true (ks_gpu_db_get_arch (db, "8.6") == ks_gpu_db_get_arch (db, "sm_86"));
  g_assert_true (ks_gpu_db_get_arch (db, "86") == ks_gpu_db_get_arch (db, "sm_86"));
  g_assert_true (ks_gpu_db_get_arch (db, "sm_90a") == ks_gpu_db_get_arch (db, "sm_90"));
  g_assert_true (ks_gpu_db_get_arch (db, "compute_80") == ks_gpu_db_get_arch (db, "sm_80"));
  g_assert_null (ks_gpu_db_get_arch (db, "sm_99"));
  g_assert_null (ks_gpu_db_get_arch (db, "sm_"));
  g_assert_null (ks_gpu_db_get_arch (db, "9.9"));

  g = ks_gpu_db_get_gpu (db, "rtx-4090");
  g_assert_cmpstr (g->arch, ==, "sm_89");
  g_assert_cmpuint (g->sm_count, ==, 128);
  g_assert_cmpuint (g->boost_clock_mhz, ==, 2520);
  g_assert_cmpfloat (g->memory_bandwidth_gbs, ==, 1008);
  g_assert_cmpfloat (g->l2_mb, ==, 72);
  g_assert_nonnull (ks_gpu_info_source (g, "l2_mb"));
  g_assert_cmpstr (ks_gpu_info_source (ks_gpu_db_get_gpu (db, "b200"), "l2_mb"), ==, "estimate");
}

/* Sets (or, with value NULL, removes) the member at a dotted path of the
 * built-in file and returns the result as text. */
static char *
mutate (const char *path,
        const char *value)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);
  guint n = g_strv_length (parts);
  JsonObject *obj;

  g_assert_true (json_parser_load_from_data (parser, builtin_text, -1, NULL));
  obj = json_node_get_object (json_parser_get_root (parser));
  for (guint i = 0; i + 1 < n; i++)
    obj = json_object_get_object_member (obj, parts[i]);
  g_assert_nonnull (obj);
  if (value == NULL)
    json_object_remove_member (obj, parts[n - 1]);
  else
    {
      g_autoptr(JsonParser) vp = json_parser_new ();

      g_assert_true (json_parser_load_from_data (vp, value, -1, NULL));
      json_object_set_member (obj, parts[n - 1], json_node_copy (json_parser_get_root (vp)));
    }
  json_generator_set_root (gen, json_parser_get_root (parser));
  return json_generator_to_data (gen, NULL);
}

typedef struct
{
  const char *test;
  const char *path;             /* what to change */
  const char *value;            /* JSON, or NULL to remove it */
  const char *message;          /* what the error must say, after "broken.json: " */
} Broken;

static const Broken broken[] = {
  { "/arch/gpu-db/broken/zero", "archs.sm_80.max_warps_per_sm", "0",
    "archs.sm_80.max_warps_per_sm: expected a positive integer" },
  { "/arch/gpu-db/broken/string", "archs.sm_80.max_warps_per_sm", "\"64\"",
    "archs.sm_80.max_warps_per_sm: expected a positive integer" },
  { "/arch/gpu-db/broken/fraction", "archs.sm_80.max_warps_per_sm", "64.5",
    "archs.sm_80.max_warps_per_sm: expected a positive integer" },
  { "/arch/gpu-db/broken/negative", "archs.sm_86.shared_reserved_per_block_bytes", "-1",
    "archs.sm_86.shared_reserved_per_block_bytes: expected an integer >= 0" },
  { "/arch/gpu-db/broken/missing", "archs.sm_90.registers_per_sm", NULL,
    "archs.sm_90.registers_per_sm: missing" },
  { "/arch/gpu-db/broken/unknown-field", "archs.sm_90.max_wraps_per_sm", "64",
    "archs.sm_90.max_wraps_per_sm: unknown field" },
  { "/arch/gpu-db/broken/granularity", "archs.sm_75.register_allocation_granularity", "\"thread\"",
    "archs.sm_75.register_allocation_granularity: expected \"warp\" or \"block\"" },
  { "/arch/gpu-db/broken/compute-capability", "archs.sm_75.compute_capability", "\"7\"",
    "archs.sm_75.compute_capability: expected \"MAJOR.MINOR\"" },
  { "/arch/gpu-db/broken/carveout-order", "archs.sm_80.shared_carveout_kib", "[0, 8, 32, 16, 164]",
    "archs.sm_80.shared_carveout_kib[3]: the carveout steps must be in ascending order" },
  { "/arch/gpu-db/broken/carveout-element", "archs.sm_80.shared_carveout_kib", "[0, 8, \"x\", 164]",
    "archs.sm_80.shared_carveout_kib[2]: expected an integer >= 0" },
  { "/arch/gpu-db/broken/carveout-last", "archs.sm_80.shared_carveout_kib", "[0, 8, 16, 100]",
    "archs.sm_80.shared_carveout_kib: the largest step must equal shared_per_sm_bytes / 1024" },
  { "/arch/gpu-db/broken/threads-vs-warps", "archs.sm_89.max_threads_per_sm", "2048",
    "archs.sm_89.max_threads_per_sm: must equal max_warps_per_sm * warp_size" },
  { "/arch/gpu-db/broken/lanes", "archs.sm_86.fp64_lanes", "-0.5",
    "archs.sm_86.fp64_lanes: expected a number >= 0" },
  { "/arch/gpu-db/broken/latency", "archs.sm_80.latencies.ffma.latency", "0",
    "archs.sm_80.latencies.ffma.latency: expected a positive integer" },
  { "/arch/gpu-db/broken/latency-source", "archs.sm_80.latencies.dram.source", NULL,
    "archs.sm_80.latencies.dram.source: missing" },
  { "/arch/gpu-db/broken/latency-missing", "archs.sm_70.latencies.mufu", NULL,
    "archs.sm_70.latencies.mufu: missing" },
  { "/arch/gpu-db/broken/latency-unknown", "archs.sm_70.latencies.hmma", "{\"latency\": 1}",
    "archs.sm_70.latencies.hmma: unknown instruction class" },
  { "/arch/gpu-db/broken/no-source", "archs.sm_86.sources.memory", NULL,
    "archs.sm_86.sources: no source for \"l1_line_bytes\" (give one for the field, its group "
    "\"memory\" or \"default\")" },
  { "/arch/gpu-db/broken/source-not-string", "archs.sm_86.sources.pipes", "7",
    "archs.sm_86.sources.pipes: expected a non-empty string" },
  { "/arch/gpu-db/broken/source-unknown", "archs.sm_86.sources.pipez", "\"x\"",
    "archs.sm_86.sources.pipez: not a field or group name" },
  { "/arch/gpu-db/broken/arch-key", "archs.ampere", "{}",
    "archs.ampere: an architecture's key must look like \"sm_86\"" },
  { "/arch/gpu-db/broken/arch-not-object", "archs.sm_87", "[]",
    "archs.sm_87: expected an object" },
  { "/arch/gpu-db/broken/representative", "archs.sm_86.representative_gpu", "\"rtx-9999\"",
    "archs.sm_86.representative_gpu: unknown GPU \"rtx-9999\"" },
  { "/arch/gpu-db/broken/representative-arch", "archs.sm_86.representative_gpu", "\"rtx-4090\"",
    "archs.sm_86.representative_gpu: GPU \"rtx-4090\" is a sm_89, not a sm_86" },
  { "/arch/gpu-db/broken/gpu-arch", "gpus.rtx-3090.arch", "\"sm_99\"",
    "gpus.rtx-3090.arch: unknown architecture \"sm_99\"" },
  { "/arch/gpu-db/broken/gpu-bandwidth", "gpus.t4.memory_bandwidth_gbs", "0",
    "gpus.t4.memory_bandwidth_gbs: expected a positive number" },
  { "/arch/gpu-db/broken/gpu-sm-count", "gpus.t4.sm_count", "true",
    "gpus.t4.sm_count: expected a positive integer" },
  { "/arch/gpu-db/broken/gpu-source", "gpus.t4.sources", "{}",
    "gpus.t4.sources: no source for \"sm_count\" (give one for the field, its group \"spec\" or "
    "\"default\")" },
  { "/arch/gpu-db/broken/gpu-name", "gpus.l4.name", "\"\"",
    "gpus.l4.name: expected a non-empty string" },
  { "/arch/gpu-db/broken/no-archs", "archs", NULL, "archs: expected an object" },
  { "/arch/gpu-db/broken/top-level", "gpu", "{}", "gpu: unknown field" },
  { "/arch/gpu-db/broken/optin", "archs.sm_80.shared_per_block_optin_bytes", "167936",
    "archs.sm_80.shared_per_block_optin_bytes: with shared_reserved_per_block_bytes must fit in "
    "shared_per_sm_bytes" },
};

static void
test_broken (gconstpointer data)
{
  const Broken *b = data;
  g_autofree char *text = mutate (b->path, b->value);
  g_autofree char *expected = g_strdup_printf ("broken.json: %s", b->message);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_data (text, -1, "broken.json", &error);

  g_assert_null (db);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_syntax (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_data ("{\n  \"archs\": {,\n", -1, "broken.json", &error);

  g_assert_null (db);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "broken.json:2:"));

  g_clear_error (&error);
  db = ks_gpu_db_load_data ("[1, 2]", -1, "broken.json", &error);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "broken.json: (root): expected an object with \"archs\" and \"gpus\"");

  g_clear_error (&error);
  db = ks_gpu_db_load_data ("", -1, "broken.json", &error);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX);

  /* Nested past the bound: refused with its place, before json-glib
   * recurses 100,000 times */
  g_clear_error (&error);
  {
    g_autoptr(GString) deep = g_string_new ("{\n  \"archs\": ");

    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    db = ks_gpu_db_load_data (deep->str, (gssize) deep->len, "deep.json", &error);
    g_assert_null (db);
    g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX);
    g_assert_cmpstr (error->message, ==, "deep.json:2:75: arrays and objects nested more than 64 deep");
  }
}

static void
write_user_file (const char *text)
{
  g_autofree char *path = ks_gpu_db_user_file ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
remove_user_file (void)
{
  g_autofree char *path = ks_gpu_db_user_file ();

  g_assert_cmpint (g_remove (path), ==, 0);
}

static void
test_override (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = NULL;
  g_autofree char *user = ks_gpu_db_user_file ();
  const KsArchInfo *a;
  const KsGpuInfo *g;

  /* main() points XDG_CONFIG_HOME at a fresh temporary folder */
  g_assert_true (g_str_has_prefix (user, config_home));
  g_assert_true (g_str_has_suffix (user, "kernelscope/gpus.json"));
  write_user_file ("{\n"
                   "  \"archs\": {\"sm_86\": {\"latencies\": {\"ffma\": {\"latency\": 5,\n"
                   "     \"source\": \"my measurement\"}}}},\n"
                   "  \"gpus\": {\n"
                   "    \"rtx-3060\": {\"name\": \"NVIDIA GeForce RTX 3060\", \"arch\": \"sm_86\",\n"
                   "      \"sm_count\": 28, \"boost_clock_mhz\": 1777, \"memory_bandwidth_gbs\": 360,\n"
                   "      \"memory_gb\": 12, \"l2_mb\": 3, \"sources\": {\"default\": \"vendor page\"}},\n"
                   "    \"rtx-3090\": {\"boost_clock_mhz\": 1860, \"sources\": {\"boost_clock_mhz\": \"my card\"}}\n"
                   "  }\n"
                   "}\n");

  db = ks_gpu_db_load_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (db->origin, " + "));

  a = ks_gpu_db_get_arch (db, "sm_86");
  g_assert_cmpuint (a->latencies[KS_LATENCY_FFMA].latency, ==, 5);
  g_assert_cmpstr (a->latencies[KS_LATENCY_FFMA].source, ==, "my measurement");
  /* members not named in the override stay as built in */
  g_assert_cmpfloat (a->latencies[KS_LATENCY_FFMA].issue, ==, 1.0);
  g_assert_cmpuint (a->latencies[KS_LATENCY_IADD3].latency, ==, 4);
  g_assert_cmpuint (a->max_warps_per_sm, ==, 48);

  g = ks_gpu_db_get_gpu (db, "rtx-3060");
  g_assert_nonnull (g);
  g_assert_cmpuint (g->sm_count, ==, 28);
  g_assert_cmpstr (ks_gpu_info_source (g, "l2_mb"), ==, "vendor page");

  g = ks_gpu_db_get_gpu (db, "rtx-3090");
  g_assert_cmpuint (g->boost_clock_mhz, ==, 1860);
  g_assert_cmpstr (ks_gpu_info_source (g, "boost_clock_mhz"), ==, "my card");
  g_assert_cmpuint (g->sm_count, ==, 82);
  g_assert_cmpuint (db->n_gpus, ==, 15);
  remove_user_file ();
}

static void
test_override_broken (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = NULL;

  write_user_file ("{\"archs\": {\"sm_86\": {\"max_warps_per_sm\": \"many\"}}}");
  db = ks_gpu_db_load_default (&error);
  g_assert_null (db);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, " + "));
  g_assert_true (g_str_has_suffix (error->message,
                                   ": archs.sm_86.max_warps_per_sm: expected a positive integer"));

  /* a syntax error names the user's file */
  g_clear_error (&error);
  write_user_file ("{\"archs\": ");
  db = ks_gpu_db_load_default (&error);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "kernelscope/gpus.json:1:"));

  /* a new arch must be complete */
  g_clear_error (&error);
  write_user_file ("{\"archs\": {\"sm_95\": {\"name\": \"future\"}}}");
  db = ks_gpu_db_load_default (&error);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID);
  g_assert_true (g_str_has_suffix (error->message, ": archs.sm_95.compute_capability: missing"));
  remove_user_file ();
}

static void
test_missing_builtin (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("KS_DATA_DIR"));
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = NULL;

  g_setenv ("KS_DATA_DIR", "/nonexistent/kernelscope-data", TRUE);
  db = ks_gpu_db_load_default (&error);
  if (saved != NULL)
    g_setenv ("KS_DATA_DIR", saved, TRUE);
  else
    g_unsetenv ("KS_DATA_DIR");
  g_assert_null (db);
  g_assert_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/kernelscope-data/gpus.json"));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *builtin = NULL;
  g_autoptr(GError) error = NULL;
  int ret;

  /* Not G_TEST_OPTION_ISOLATE_DIRS: GLib 2.74 leaks the old directories
   * each time it resets them, which LeakSanitizer reports.  One temporary
   * XDG_CONFIG_HOME, set before GLib first reads it, keeps the user's own
   * override out of the tests just as well. */
  config_home = g_dir_make_tmp ("kernelscope-test-gpu-db-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  g_test_init (&argc, &argv, NULL);

  builtin = ks_gpu_db_find_builtin ();
  g_assert_nonnull (builtin);
  g_file_get_contents (builtin, &builtin_text, NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/arch/gpu-db/builtin", test_builtin);
  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    g_test_add_data_func (broken[i].test, &broken[i], test_broken);
  g_test_add_func ("/arch/gpu-db/syntax", test_syntax);
  g_test_add_func ("/arch/gpu-db/override", test_override);
  g_test_add_func ("/arch/gpu-db/override-broken", test_override_broken);
  g_test_add_func ("/arch/gpu-db/missing-builtin", test_missing_builtin);

  ret = g_test_run ();
  {
    g_autofree char *dir = g_build_filename (config_home, "kernelscope", NULL);

    g_rmdir (dir);
    g_rmdir (config_home);
  }
  g_free (builtin_text);
  g_free (config_home);
  return ret;
}
