/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recording whole programs (docs/RECORD.md): the launch spec's placed
 * buffers and bytes files, the recording's folder, and, with nvcc here,
 * real programs built with -cudart shared run under `kernelscope-cli
 * record`: their own checks pass (programs written here, and two of
 * NVIDIA's CUDA Samples, tests/fixtures/cuda-samples), what they read of
 * the device is the GPU database's, a kernel fault reaches them as the
 * hardware's error, and every recorded launch re-run from its spec gives
 * what the program's run left. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-recording.h"
#include "ks-sim.h"
#include "ks-test-cudart.h"
#include "ks-test-files.h"

/* A kernel that stores the address of its first parameter's buffer, and
 * of the second's, into the first: where the simulator placed them */
static const char *const addr_ptx =
  ".version 7.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry where(.param .u64 a, .param .u64 b)\n{\n"
  "  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
  "  st.global.u64 [%rd1], %rd1;\n  st.global.u64 [%rd1+8], %rd2;\n"
  "  ld.global.u64 %rd3, [%rd2];\n  st.global.u64 [%rd1+16], %rd3;\n"
  "  ret;\n}\n";

static char *
write_temp (const char *dir,
            const char *name,
            const char *text,
            gssize      len)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, len, NULL));
  return path;
}

static void
test_spec_address (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-record-XXXXXX", NULL);
  const uint8_t b_bytes[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
  g_autofree char *ptx = write_temp (dir, "where.ptx", addr_ptx, -1);
  g_autofree char *bin = write_temp (dir, "b.bin", (const char *) b_bytes, 8);
  const char *spec =
    "{\"ptx\": \"where.ptx\", \"kernel\": \"where\", \"grid\": [1], \"block\": [1],"
    " \"buffers\": {\"a\": {\"type\": \"u64\", \"count\": 3, \"address\": \"0x700000000100\"},"
    "               \"b\": {\"type\": \"b8\", \"bytes_file\": \"b.bin\","
    "                      \"address\": \"0x700000002000\"}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}], \"outputs\": [\"a\"]}";
  g_autofree char *spec_path = write_temp (dir, "spec.json", spec, -1);
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse_file (ptx, &error);
  KsLaunch *launch = ks_launch_load (spec_path, &error);
  const uint64_t *out;
  KsSim *sim;

  g_assert_no_error (error);
  g_assert_nonnull (launch);
  g_assert_cmpuint (launch->buffers[1].size, ==, 8);
  sim = ks_sim_new (module, launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
  out = (const uint64_t *) ks_sim_get_buffer (sim, 0, NULL);
  /* the addresses the spec gave, and the file's bytes behind the second */
  g_assert_cmphex (out[0], ==, G_GUINT64_CONSTANT (0x700000000100));
  g_assert_cmphex (out[1], ==, G_GUINT64_CONSTANT (0x700000002000));
  g_assert_cmphex (out[2], ==, G_GUINT64_CONSTANT (0x8877665544332211));
  ks_sim_free (sim);
  ks_launch_free (launch);

  /* placed buffers: all or none, in order, apart, above the windows */
  {
    static const struct { const char *buffers; const char *message; } bad[] = {
      { "\"a\": {\"type\": \"u8\", \"count\": 8, \"address\": \"0x700000000000\"},"
        "\"b\": {\"type\": \"u8\", \"count\": 8}", "give every buffer an 'address', or none" },
      { "\"a\": {\"type\": \"u8\", \"count\": 512, \"address\": \"0x700000000000\"},"
        "\"b\": {\"type\": \"u8\", \"count\": 8, \"address\": \"0x700000000100\"}",
        "is inside the buffer before it" },
      { "\"a\": {\"type\": \"u8\", \"count\": 8, \"address\": \"0x1000\"}", "must be a multiple of 16" },
      { "\"a\": {\"type\": \"u8\", \"count\": 8, \"address\": \"0x700000000008\"}", "must be a multiple of 16" },
      { "\"a\": {\"type\": \"u8\", \"bytes_file\": \"missing.bin\"}", "missing.bin" },
      { "\"a\": {\"type\": \"u32\", \"bytes_file\": \"b.bin\", \"count\": 1}", "less than the 2 values" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) e = NULL;
        g_autofree char *text = g_strdup_printf ("{\"ptx\": \"where.ptx\", \"kernel\": \"where\","
                                                 " \"grid\": [1], \"block\": [1], \"buffers\": {%s},"
                                                 " \"params\": [0, 0]}", bad[i].buffers);
        g_autofree char *path = write_temp (dir, "bad.json", text, -1);
        KsLaunch *l = ks_launch_load (path, &e);

        g_assert_null (l);
        g_assert_nonnull (e);
        if (strstr (e->message, bad[i].message) == NULL)
          g_error ("case %u: %s", i, e->message);
        /* the place: the spec's file, line and column */
        g_assert_true (g_str_has_prefix (e->message, path));
      }
  }
}

static void
test_recording_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-record-XXXXXX", NULL);
  const char *argv[] = { "./app", "--size", "3", NULL };
  KsRecording *rec = ks_recording_new (dir, argv, "rtx-4090", &error);
  g_autofree char *b1 = NULL, *b2 = NULL, *b3 = NULL, *index = NULL, *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *launches;

  g_assert_no_error (error);
  /* blobs are named by their SHA-256 (FIPS 180-2's test vector for
   * "abc") and kept once */
  b1 = ks_recording_add_blob (rec, (const uint8_t *) "abc", 3, &error);
  b2 = ks_recording_add_blob (rec, (const uint8_t *) "abc", 3, &error);
  b3 = ks_recording_add_blob (rec, (const uint8_t *) "abd", 3, &error);
  g_assert_cmpstr (b1, ==,
                   "blobs/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.bin");
  g_assert_cmpstr (b1, ==, b2);
  g_assert_cmpstr (b1, !=, b3);
  g_assert_cmpuint (ks_recording_blob_bytes (rec), ==, 6);
  g_assert_nonnull (ks_recording_add_module (rec, 0, ".version 7.0\n", 13, &error));
  g_assert_true (ks_recording_add_launch (rec, 0, "{}", "{\"kernel\":\"k\",\"fault\":null}", &error));
  ks_recording_skip_launch (rec, "--only");
  ks_recording_skip_launch (rec, "--launches");
  g_assert_true (ks_recording_flush (rec, &error));
  ks_recording_free (rec);

  index = g_build_filename (dir, "launches.json", NULL);
  g_assert_true (json_parser_load_from_file (parser, index, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (root, "program"), 1),
                   ==, "--size");
  g_assert_cmpstr (json_object_get_string_member (root, "gpu"), ==, "rtx-4090");
  launches = json_object_get_array_member (root, "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (launches, 0),
                                                  "spec"), ==, "launch-0000.json");
  g_assert_cmpint (json_object_get_int_member (root, "not_saved"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (root, "not_saved_reason"), ==, "--only");
}

/* ---- the stand-in on its own, without a toolkit --------------------------------------------- */

/* What a program built by nvcc calls, called here through dlopen
 * (ks-test-cudart.h): the committed fat binary registered as a program
 * registers it */
/* CUDA arrays and texture objects the stand-in refuses, each with CUDA's
 * error (driver_types.h of CUDA 13.0): the structures as that header lays
 * them out (cudaChannelFormatDesc 20 bytes; cudaResourceDesc 144, its
 * union at 8, res.linear.sizeInBytes at 40; cudaTextureDesc 72, sRGB at
 * 20) */
static void
standin_texture_errors (KsTestCudart *t,
                        void         *device_memory)
{
  typedef struct { int x, y, z, w, f; } ChannelDesc;
  int (*malloc_array) (void **, const ChannelDesc *, size_t, size_t, unsigned) =
    (int (*) (void **, const ChannelDesc *, size_t, size_t, unsigned))
    dlsym (t->handle, "cudaMallocArray");
  int (*create_texture) (unsigned long long *, const void *, const void *, const void *) =
    (int (*) (unsigned long long *, const void *, const void *, const void *))
    dlsym (t->handle, "cudaCreateTextureObject");
  int (*create_surface) (unsigned long long *, const void *) =
    (int (*) (unsigned long long *, const void *)) dlsym (t->handle, "cudaCreateSurfaceObject");
  int (*destroy_texture) (unsigned long long) =
    (int (*) (unsigned long long)) dlsym (t->handle, "cudaDestroyTextureObject");
  int (*free_array) (void *) = (int (*) (void *)) dlsym (t->handle, "cudaFreeArray");
  const ChannelDesc f32 = { 32, 0, 0, 0, 2 }, rgb = { 8, 8, 8, 0, 1 }, gap = { 32, 0, 32, 0, 2 };
  uint8_t res[144] = { 0 }, tex[72] = { 0 };
  unsigned long long obj = 0;
  void *array = NULL;
  int one = 1;
  size_t bytes = 256;

  g_assert_nonnull (malloc_array);
  g_assert_nonnull (create_texture);
  /* 3 channels, and channels with a gap: cudaErrorInvalidChannelDescriptor */
  g_assert_cmpint (malloc_array (&array, &rgb, 16, 16, 0), ==, 20);
  g_assert_cmpint (malloc_array (&array, &gap, 16, 16, 0), ==, 20);
  /* wider than an array may be */
  g_assert_cmpint (malloc_array (&array, &f32, 131073, 0, 0), ==, 1);
  g_assert_cmpint (malloc_array (&array, &f32, 16, 16, 0), ==, 0);

  /* cudaResourceTypeArray: a texture, but no surface without
   * cudaArraySurfaceLoadStore */
  memcpy (res + 8, &array, sizeof array);
  g_assert_cmpint (create_surface (&obj, res), ==, 1);
  /* sRGB: refused, not sampled otherwise */
  memcpy (tex + 20, &one, 4);
  g_assert_cmpint (create_texture (&obj, res, tex, NULL), ==, 801);
  memset (tex + 20, 0, 4);
  g_assert_cmpint (create_texture (&obj, res, tex, NULL), ==, 0);
  g_assert_cmpuint (obj, !=, 0);
  g_assert_cmpint (destroy_texture (obj), ==, 0);
  g_assert_cmpint (destroy_texture (obj), ==, 1);

  /* cudaResourceTypeLinear 2 over device memory: aligned, not 4 bytes in */
  memset (res, 0, sizeof res);
  res[0] = 2;
  memcpy (res + 16, &f32, sizeof f32);
  memcpy (res + 40, &bytes, sizeof bytes);
  device_memory = (uint8_t *) device_memory + 4;
  memcpy (res + 8, &device_memory, sizeof device_memory);
  g_assert_cmpint (create_texture (&obj, res, tex, NULL), ==, 1);
  device_memory = (uint8_t *) device_memory - 4;
  memcpy (res + 8, &device_memory, sizeof device_memory);
  g_assert_cmpint (create_texture (&obj, res, tex, NULL), ==, 0);
  /* host memory is not device memory */
  memcpy (res + 8, &(void *) { tex }, sizeof (void *));
  g_assert_cmpint (create_texture (&obj, res, tex, NULL), ==, 1);
  g_assert_cmpint (free_array (array), ==, 0);
  g_assert_cmpint (free_array (array), ==, 1);
  g_assert_cmpint (t->last_error (), ==, 1);
}

static void
test_standin_direct (void)
{
  g_autofree char *lib = g_test_build_filename (G_TEST_BUILT, "..", "src", "cudart",
                                                "libcudart.so.13", NULL);
  g_autofree char *fatbin = g_test_build_filename (G_TEST_DIST, "fixtures", "fatbin",
                                                   "vector_add.sm_89.size.fatbin", NULL);
  const int n = 1000;
  float a[1000], b[1000], c[1000];
  float *da = NULL, *db = NULL, *dc = NULL;
  int count = n;
  void *args[4] = { &da, &db, &dc, &count };
  KsTestDim3 grid = { 4, 1, 1 }, block = { 256, 1, 1 };
  KsTestCudart t;
  int (*peer) (void);

  /* the GPU the program sees: an sm_89, for the sm_89 PTX */
  if (!ks_test_cudart_load (&t, lib, fatbin, "rtx-4090"))
    g_error ("%s", t.error);
  peer = (int (*) (void)) dlsym (t.handle, "cudaDeviceEnablePeerAccess");
  g_assert_nonnull (peer);

  for (int i = 0; i < n; i++)
    {
      a[i] = (float) i * 0.5f;
      b[i] = (float) (n - i) * 0.25f;
    }
  g_assert_cmpint (t.malloc_ ((void **) &da, sizeof a), ==, 0);
  g_assert_cmpint (t.malloc_ ((void **) &db, sizeof b), ==, 0);
  g_assert_cmpint (t.malloc_ ((void **) &dc, sizeof c), ==, 0);
  g_assert_cmpint (t.memcpy_ (da, a, sizeof a, 1), ==, 0);
  g_assert_cmpint (t.memcpy_ (db, b, sizeof b, 1), ==, 0);
  /* a device-to-host copy named host-to-device is the program's error */
  g_assert_cmpint (t.memcpy_ (c, dc, sizeof c, 1), ==, 1);
  g_assert_cmpint (t.last_error (), ==, 1);
  g_assert_cmpint (t.last_error (), ==, 0);
  g_assert_cmpint (t.launch (t.kernel, grid, block, args, 0, NULL), ==, 0);
  g_assert_cmpint (t.memcpy_ (c, dc, sizeof c, 2), ==, 0);
  /* the C reference: c = a + b (vector_add.cu) */
  for (int i = 0; i < n; i++)
    g_assert_cmpfloat (c[i], ==, a[i] + b[i]);

  /* what the stand-in does not do: cudaErrorNotSupported (801) */
  g_assert_cmpint (peer (), ==, 801);
  g_assert_cmpint (t.last_error (), ==, 801);

  standin_texture_errors (&t, da);

  /* a host pointer given to the kernel: the illegal address the GPU
   * reports (700), and then every call gets it */
  dc = (float *) c;
  g_assert_cmpint (t.launch (t.kernel, grid, block, args, 0, NULL), ==, 700);
  g_assert_cmpstr (t.error_string (700), ==, "an illegal memory access was encountered");
  g_assert_cmpint (t.malloc_ ((void **) &da, 16), ==, 700);
  g_unsetenv ("KS_RECORD_GPU");
  /* (not closed: a runtime stays for the life of its program) */
}

/* ---- whole programs ---------------------------------------------------------------------- */

typedef struct
{
  char *dir;
  char *nvcc;
  char *cli;
} Programs;

static Programs programs;

static gboolean
have_nvcc (void)
{
  if (programs.nvcc == NULL)
    programs.nvcc = g_find_program_in_path ("nvcc");
  if (programs.nvcc == NULL || g_getenv ("KS_NO_TOOLKIT") != NULL)
    {
      g_test_skip ("no nvcc on PATH: no program is built");
      return FALSE;
    }
  return TRUE;
}

/* Builds @source (under tests/fixtures) into @exe with the flags given */
static char *
build (const char *source,
       const char *exe_name,
       gboolean    shared)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "fixtures", source, NULL);
  g_autofree char *inc = g_test_build_filename (G_TEST_DIST, "fixtures", "cuda-samples",
                                                "include", NULL);
  char *exe = g_build_filename (programs.dir, exe_name, NULL);
  g_autofree char *err = NULL, *incflag = g_strconcat ("-I", inc, NULL);
  const char *argv[] = { programs.nvcc, incflag, "-lineinfo", "-o", exe, src,
                         shared ? "-cudart" : NULL, "shared", NULL };
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err,
                     &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    {
      g_test_skip_printf ("nvcc could not build %s here: %s", source, err ? err : "");
      g_free (exe);
      return NULL;
    }
  return exe;
}

typedef struct
{
  int status;
  char *out, *err;
  char *record;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
  g_free (r->record);
}

static gboolean
record_args (const char *exe,
             const char *name,
             const char *extra,
             const char *arg,
             Run        *r)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  memset (r, 0, sizeof *r);
  r->record = g_build_filename (programs.dir, name, NULL);
  g_ptr_array_add (argv, programs.cli);
  g_ptr_array_add (argv, (gpointer) "record");
  g_ptr_array_add (argv, (gpointer) "--out");
  g_ptr_array_add (argv, r->record);
  if (extra != NULL)
    g_ptr_array_add (argv, (gpointer) extra);
  g_ptr_array_add (argv, (gpointer) "--");
  g_ptr_array_add (argv, (gpointer) exe);
  if (arg != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (programs.dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL,
                               NULL, &r->out, &r->err, &r->status, &error));
  g_assert_no_error (error);
  if (g_test_verbose ())
    g_printerr ("%s\n%s", r->out, r->err);
  return TRUE;
}

static gboolean
record (const char *exe,
        const char *name,
        const char *extra,
        Run        *r)
{
  return record_args (exe, name, extra, NULL, r);
}

static int
exit_code (const Run *r)
{
  return WIFEXITED (r->status) ? WEXITSTATUS (r->status) : -1;
}

/* Each recorded launch run again from its spec: every buffer the program's
 * run changed is what it left there ("after"), byte for byte.  Returns the
 * buffers compared; @n_launches, the launches run again. */
static guint
rerun_recording (const char *dir,
                 guint      *n_launches)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *index = g_build_filename (dir, "launches.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *launches;
  guint checked = 0;

  g_assert_true (json_parser_load_from_file (parser, index, &error));
  launches = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "launches");
  for (guint i = 0; i < json_array_get_length (launches); i++)
    {
      JsonObject *entry = json_array_get_object_element (launches, i);
      JsonObject *after = json_object_get_object_member (entry, "after");
      g_autofree char *spec = g_build_filename (dir, json_object_get_string_member (entry, "spec"),
                                                NULL);
      KsLaunch *launch;
      g_autoptr(KsPtxModule) module = NULL;
      KsSim *sim;

      if (!json_object_get_null_member (entry, "fault"))
        continue;
      launch = ks_launch_load (spec, &error);
      g_assert_no_error (error);
      module = ks_ptx_module_parse_file (launch->ptx_path, &error);
      g_assert_no_error (error);
      sim = ks_sim_new (module, launch, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ks_sim_run (sim, 0, NULL), ==, KS_SIM_DONE);
      for (uint32_t b = 0; b < launch->n_buffers; b++)
        {
          const char *blob = json_object_get_string_member_with_default (after,
                                                                         launch->buffers[b].name,
                                                                         NULL);
          g_autofree char *path = NULL, *want = NULL;
          const uint8_t *got;
          size_t size;
          gsize want_len;

          if (blob == NULL)
            continue;
          path = g_build_filename (dir, blob, NULL);
          g_assert_true (g_file_get_contents (path, &want, &want_len, NULL));
          got = ks_sim_get_buffer (sim, b, &size);
          g_assert_cmpuint (size, ==, want_len);
          g_assert_true (memcmp (got, want, size) == 0);
          checked++;
        }
      ks_sim_free (sim);
      ks_launch_free (launch);
      if (n_launches != NULL)
        (*n_launches)++;
    }
  return checked;
}

static void
test_program_symbols (void)
{
  g_autofree char *exe = NULL;
  g_autoptr(KsGpuDb) db = NULL;
  g_autofree char *want = NULL;
  const KsGpuInfo *gpu;
  const KsArchInfo *arch;
  Run r;

  if (!have_nvcc () || (exe = build ("record/symbols.cu", "symbols", TRUE)) == NULL)
    return;
  record (exe, "rec-symbols", "--gpu=rtx-4090", &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "Test passed"));
  g_assert_nonnull (strstr (r.out, "scale_count: n=1000 scale=2\n"));
  /* the device it saw: the GPU database's RTX 4090 */
  db = ks_gpu_db_load_default (NULL);
  gpu = ks_gpu_db_get_gpu (db, "rtx-4090");
  arch = ks_gpu_db_get_arch (db, gpu->arch);
  want = g_strdup_printf ("device: %s|%u.%u|%u|%u|%u|%" G_GUINT64_FORMAT "\n", gpu->name,
                          arch->compute_major, arch->compute_minor, gpu->sm_count, gpu->sm_count,
                          arch->shared_per_block_bytes,
                          (guint64) (gpu->memory_gb * 1073741824.0));
  if (strstr (r.out, want) == NULL)
    g_error ("expected %s in:\n%s", want, r.out);
  g_assert_nonnull (strstr (r.err, "2 launches recorded"));
  /* vadd (const float *a, const float *b, float *c): its buffers are
   * floats, as its loads and stores have them */
  {
    g_autofree char *spec = g_build_filename (r.record, "launch-0000.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;
    KsLaunch *l;

    g_assert_true (g_file_get_contents (spec, &text, NULL, NULL));
    l = ks_launch_load (spec, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < 3; i++)
      {
        int b = ks_launch_find_buffer (l, (const char *[]) { "m0", "m1", "m2" }[i]);

        g_assert_cmpint (b, >=, 0);
        g_assert_cmpint (l->buffers[b].type, ==, KS_PTX_TYPE_F32);
        g_assert_cmpuint (l->buffers[b].count, ==, 1000);
      }
    ks_launch_free (l);
  }
  /* vadd's c; scale_count's c and the variable counter */
  g_assert_cmpuint (rerun_recording (r.record, NULL), ==, 3);
  run_clear (&r);

  /* --only: one kernel's launches are saved, the other still runs */
  record (exe, "rec-symbols-only", "--only=vadd", &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "Test passed"));
  g_assert_nonnull (strstr (r.err, "1 launch recorded"));
  g_assert_nonnull (strstr (r.err, "1 more ran, not saved: --only"));
  run_clear (&r);
}

/* __managed__ variables, and cudaGetSymbolAddress of a __device__ and a
 * __constant__ variable: the program checks each value against its own
 * host arithmetic */
static void
test_program_managed (void)
{
  g_autofree char *exe = NULL, *spec = NULL, *text = NULL;
  Run r;

  if (!have_nvcc () || (exe = build ("record/managed.cu", "managed", TRUE)) == NULL)
    return;
  record (exe, "rec-managed", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  /* 7, one from each of 32 threads, then 100 */
  g_assert_nonnull (strstr (r.out, "hits 139\n"));
  g_assert_nonnull (strstr (r.out, "Test passed"));
  g_assert_null (strstr (r.err, "not supported"));
  g_assert_nonnull (strstr (r.err, "2 launches recorded"));
  /* the variables are buffers at their addresses, bound to the PTX's */
  spec = g_build_filename (r.record, "launch-0001.json", NULL);
  g_assert_true (g_file_get_contents (spec, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"variable\" : \"coef\""));
  g_assert_nonnull (strstr (text, "\"variable\" : \"table\""));
  /* scale_by_pointer: table and hits; poly: out and hits */
  g_assert_cmpuint (rerun_recording (r.record, NULL), ==, 4);
  run_clear (&r);
}

/* CUDA arrays, texture objects over an array, pitched and linear memory,
 * and a surface object: the program checks every value against its own
 * host arithmetic; the recorded launches carry the objects and give the
 * same bytes again */
static void
test_program_textures (void)
{
  g_autofree char *exe = NULL, *spec = NULL, *text = NULL;
  guint launches = 0;
  Run r;

  if (!have_nvcc () || (exe = build ("record/textures.cu", "textures", TRUE)) == NULL)
    return;
  record (exe, "rec-textures", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "Test passed"));
  g_assert_null (strstr (r.err, "not supported"));
  g_assert_nonnull (strstr (r.err, "6 launches recorded"));
  /* double_it: the point texture and the surface over the same array */
  spec = g_build_filename (r.record, "launch-0004.json", NULL);
  g_assert_true (g_file_get_contents (spec, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"surfaces\""));
  g_assert_nonnull (strstr (text, "\"texture\" : \"tex0\""));
  g_assert_nonnull (strstr (text, "\"surface\" : \"surf0\""));
  /* each launch's output buffer (double_it: the array) */
  g_assert_cmpuint (rerun_recording (r.record, &launches), ==, 6);
  g_assert_cmpuint (launches, ==, 6);
  run_clear (&r);
}

/* A graph captured from two streams and one built node by node: the
 * program checks every value against its own host arithmetic; CUDA counts
 * no node for an event's record or wait, so the captured graph has 6 */
static void
test_program_graphs (void)
{
  g_autofree char *exe = NULL;
  guint launches = 0;
  Run r;

  if (!have_nvcc () || (exe = build ("record/graphs.cu", "graphs", TRUE)) == NULL)
    return;
  record (exe, "rec-graphs", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "captured: 0, 6 nodes, host calls 0\n"));
  g_assert_nonnull (strstr (r.out, "host calls 3\n"));
  g_assert_nonnull (strstr (r.out, "built: 4 nodes\n"));
  /* an executable graph's node given new arguments, the executable graph
   * updated from the graph (cudaGraphExecUpdateSuccess, 0), then refused
   * a graph of other nodes: cudaErrorGraphExecUpdateFailure (910),
   * cudaGraphExecUpdateErrorTopologyChanged (2), as driver_types.h has them */
  g_assert_nonnull (strstr (r.out, "exec node params 0, 0 wrong; update 0 0, 0 wrong; "
                                   "other nodes 910 2\n"));
  g_assert_nonnull (strstr (r.out, "Test passed"));
  /* what the stand-in does not capture: cudaErrorStreamCaptureUnsupported,
   * then cudaErrorStreamCaptureInvalidated (driver_types.h) */
  g_assert_nonnull (strstr (r.out, "symbol in capture: 900 901\n"));
  g_assert_nonnull (strstr (r.err, "cudaMemcpyToSymbolAsync in a stream capture"));
  /* work for the legacy stream beside a blocking stream's capture:
   * cudaErrorStreamCaptureImplicit, and the capture invalid; beside a
   * cudaStreamNonBlocking stream's, it runs (driver_types.h's codes) */
  g_assert_nonnull (strstr (r.out, "legacy copy in capture: 906 901\n"));
  g_assert_nonnull (strstr (r.out, "legacy copy beside a non-blocking capture: 0 0\n"));
  g_assert_nonnull (strstr (r.err, "cudaMemcpy on the legacy default stream"));
  /* 2 kernels a launch of the captured graph, 3 times, and the axpy node,
   * once in the built graph and twice in the updated one */
  g_assert_nonnull (strstr (r.err, "9 launches recorded"));
  rerun_recording (r.record, &launches);
  g_assert_cmpuint (launches, ==, 9);
  run_clear (&r);
}

static void
test_program_fault (void)
{
  g_autofree char *exe = NULL;
  g_autofree char *index = NULL, *text = NULL;
  Run r;

  if (!have_nvcc () || (exe = build ("record/fault.cu", "fault", TRUE)) == NULL)
    return;
  record (exe, "rec-fault", NULL, &r);
  /* driver_types.h: cudaErrorIllegalAddress is 700, and stays */
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "sync 700 (an illegal memory access was encountered)\n"));
  g_assert_nonnull (strstr (r.out, "last 700\nafter 700\n"));
  /* the report: which buffer, how far, which thread, the CUDA line */
  g_assert_nonnull (strstr (r.err, "past the end of buffer 'm0' (256 bytes)"));
  g_assert_nonnull (strstr (r.err, "thread [1,0,0]"));
  g_assert_nonnull (strstr (r.err, "fault.cu:9"));
  index = g_build_filename (r.record, "launches.json", NULL);
  g_assert_true (g_file_get_contents (index, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"error\":700"));
  run_clear (&r);
}

static void
test_program_pointers (void)
{
  g_autofree char *exe = NULL;
  Run r;

  if (!have_nvcc () || (exe = build ("record/pointers.cu", "pointers", TRUE)) == NULL)
    return;
  record (exe, "rec-pointers", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "Test passed"));
  g_assert_nonnull (strstr (r.err, "4 launches recorded"));
  g_assert_cmpuint (rerun_recording (r.record, NULL), >=, 4);
  run_clear (&r);
}

/* A cooperative launch sized by the occupancy calculator runs and its
 * blocks see each other's writes after grid.sync() (the program checks);
 * one block more is refused, and grid.sync() in a <<<>>> launch traps:
 * driver_types.h's cudaErrorCooperativeLaunchTooLarge is 720 and
 * cudaErrorLaunchFailure 719 */
static void
test_program_cooperative (void)
{
  g_autofree char *exe = NULL;
  guint n_launches = 0;
  Run r;

  if (!have_nvcc () || (exe = build ("record/cooperative.cu", "cooperative", TRUE)) == NULL)
    return;
  record (exe, "rec-cooperative", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "cooperative 0: "));
  g_assert_nonnull (strstr (r.out, " blocks, 0 wrong\n"));
  g_assert_nonnull (strstr (r.out, "one block more 720\n"));
  g_assert_nonnull (strstr (r.out, "not cooperative 719\n"));
  g_assert_nonnull (strstr (r.err, "cudaErrorCooperativeLaunchTooLarge"));
  g_assert_nonnull (strstr (r.err, "launch it with cudaLaunchCooperativeKernel"));
  /* the cooperative launch again from its spec: a and b as it left them
   * (the faulted one is not run again) */
  g_assert_cmpuint (rerun_recording (r.record, &n_launches), ==, 2);
  g_assert_cmpuint (n_launches, ==, 1);
  run_clear (&r);
}

static void
test_program_static (void)
{
  g_autofree char *exe = NULL;
  Run r;

  if (!have_nvcc () || (exe = build ("record/fault.cu", "fault-static", FALSE)) == NULL)
    return;
  record (exe, "rec-static", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 1);
  g_assert_nonnull (strstr (r.err, "linked statically against the CUDA runtime"));
  g_assert_nonnull (strstr (r.err, "nvcc -cudart shared"));
  run_clear (&r);
}

/* The errors' names and texts: NVIDIA's runtime's (the same program linked
 * statically against it, which answers these without a GPU) */
static void
test_program_errors (void)
{
  g_autofree char *exe = NULL, *reference = NULL, *ref_out = NULL;
  int status = 0;
  Run r;

  if (!have_nvcc () || (exe = build ("record/errors.cu", "errors", TRUE)) == NULL
      || (reference = build ("record/errors.cu", "errors-nvidia", FALSE)) == NULL)
    return;
  {
    const char *argv[] = { reference, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &ref_out, NULL, &status, NULL));
  }
  g_assert_nonnull (strstr (ref_out, "700|cudaErrorIllegalAddress|"));
  record (exe, "rec-errors", NULL, &r);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_assert_cmpstr (r.out, ==, ref_out);
  run_clear (&r);
}

static void
test_program_cuda_samples (void)
{
  static const struct {
    const char *source, *name, *expect, *arg, *extra;
    guint launches;
    gboolean cooperative;
  } samples[] = {
    { "cuda-samples/vectorAdd.cu", "vectorAdd", "Test PASSED", NULL, NULL, 1, FALSE },
    { "cuda-samples/simpleCooperativeGroups.cu", "simpleCooperativeGroups",
      "Sum of all ranks 0..15 in this tiledPartition16 group is 120 (expected 120)", NULL, NULL,
      1, FALSE },
    /* a cubemap; a layered 2D texture, a launch a layer after a warm-up:
     * each exits with a failure when a value differs from the host's */
    { "cuda-samples/simpleCubemapTexture.cu", "simpleCubemapTexture",
      "Comparing kernel output to expected data", NULL, NULL, 2, FALSE },
    { "cuda-samples/simpleLayeredTexture.cu", "simpleLayeredTexture",
      "Comparing kernel output to expected data", NULL, NULL, 6, FALSE },
    /* a cooperative launch whose blocks meet at grid.sync(), 100 times:
     * it exits with a failure when the sum differs from the host's by
     * 1e-8 * n or more; the first launch is kept.  (The numbers after
     * "GPU result" and "CPU result" are the same float, 65536 values of
     * rand() & 0xFF over RAND_MAX summed in two orders.) */
    { "cuda-samples/reductionMultiBlockCG.cu", "reductionMultiBlockCG",
      "numBlocks: 216\n", "-n=65536", "--launches=0", 1, TRUE },
    /* conjugate gradients on a tridiagonal system of 2^20 rows in one
     * cooperative launch, its vectors in managed memory: the sample exits
     * with a failure unless the residual is under 1e-5, and prints the
     * largest |A x - b| of the solution, computed on the host */
    { "cuda-samples/conjugateGradientMultiBlockCG.cu", "conjugateGradientMultiBlockCG",
      "Test Summary:  Error amount = 0.000000", NULL, NULL, 1, TRUE },
  };

  if (!have_nvcc ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *exe = build (samples[i].source, samples[i].name, TRUE);
      g_autofree char *rec = g_strconcat ("rec-", samples[i].name, NULL);
      guint n_launches = 0;
      Run r;

      if (exe == NULL)
        return;
      record_args (exe, rec, samples[i].extra, samples[i].arg, &r);
      g_assert_cmpint (exit_code (&r), ==, 0);
      if (strstr (r.out, samples[i].expect) == NULL)
        g_error ("%s: expected %s in:\n%s\n%s", samples[i].name, samples[i].expect, r.out, r.err);
      /* (the cooperative groups sample prints its results, and writes
       * no buffer) */
      rerun_recording (r.record, &n_launches);
      g_assert_cmpuint (n_launches, ==, samples[i].launches);
      if (samples[i].cooperative)
        {
          /* the recorded launch is cooperative, and its spec says so */
          g_autofree char *index = g_build_filename (r.record, "launches.json", NULL);
          g_autofree char *spec = g_build_filename (r.record, "launch-0000.json", NULL);
          g_autofree char *text = NULL, *spec_text = NULL;

          g_assert_true (g_file_get_contents (index, &text, NULL, NULL));
          g_assert_nonnull (strstr (text, "\"cooperative\":true"));
          g_assert_true (g_file_get_contents (spec, &spec_text, NULL, NULL));
          g_assert_nonnull (strstr (spec_text, "\"cooperative\" : true"));
        }
      run_clear (&r);
    }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  programs.dir = g_dir_make_tmp ("ks-record-programs-XXXXXX", NULL);
  programs.cli = g_test_build_filename (G_TEST_BUILT, "..", "src", "app", "kernelscope-cli", NULL);
  g_test_add_func ("/record/spec-address", test_spec_address);
  g_test_add_func ("/record/folder", test_recording_folder);
  g_test_add_func ("/record/standin/direct", test_standin_direct);
  g_test_add_func ("/record/program/symbols", test_program_symbols);
  g_test_add_func ("/record/program/managed", test_program_managed);
  g_test_add_func ("/record/program/textures", test_program_textures);
  g_test_add_func ("/record/program/graphs", test_program_graphs);
  g_test_add_func ("/record/program/fault", test_program_fault);
  g_test_add_func ("/record/program/pointers", test_program_pointers);
  g_test_add_func ("/record/program/static", test_program_static);
  g_test_add_func ("/record/program/cooperative", test_program_cooperative);
  g_test_add_func ("/record/program/errors", test_program_errors);
  g_test_add_func ("/record/program/cuda-samples", test_program_cuda_samples);
  status = g_test_run ();
  ks_test_remove_tree (programs.dir);
  g_free (programs.dir);
  g_free (programs.cli);
  g_free (programs.nvcc);
  return status;
}
