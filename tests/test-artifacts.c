/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What nvcc --keep leaves (ks-artifacts.h), against nvcc's own output:
 *
 * - the offsets a host launch stub that cicc wrote notes for each argument
 *   (tests/fixtures/keep: an extern "C" kernel with a struct of 24 bytes
 *   aligned to 8, a template instance, an array parameter);
 * - the samples' records (data/samples/NN/keep, nvcc 13's `-v` steps):
 *   each file's maker as nvcc's command lines name it, used only for the
 *   CUDA text they were made of;
 * - with nvcc here, a compilation of sample 1 made now: the same files,
 *   and a CUDA error reported with nvcc's message. */

#include <string.h>

#include "ks-artifacts.h"
#include "ks-toolchain.h"

static char *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "keep", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_stub_offsets (void)
{
  g_autofree char *stub = fixture ("params.cudafe1.stub.c");
  const struct { const char *kernel; guint n; uint32_t offsets[3]; } cases[] = {
    /* int, then struct S { float; double; char; } at 8 (24 bytes), then a pointer at 32 */
    { "cfun", 3, { 0, 8, 32 } },
    { "_Z2tkIfLi4EEvPT_S0_", 2, { 0, 8 } },
    { "_Z3arrPicd", 3, { 0, 8, 16 } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      uint32_t offsets[8] = { 0 };

      g_assert_cmpint (ks_artifacts_stub_offsets (stub, cases[i].kernel, offsets, 8), ==,
                       (int) cases[i].n);
      for (guint k = 0; k < cases[i].n; k++)
        g_assert_cmpuint (offsets[k], ==, cases[i].offsets[k]);
    }
  {
    uint32_t offsets[8];

    /* a name that is only part of one; a kernel the file does not have */
    g_assert_cmpint (ks_artifacts_stub_offsets (stub, "cfu", offsets, 8), ==, -1);
    g_assert_cmpint (ks_artifacts_stub_offsets (stub, "_Z4nonev", offsets, 8), ==, -1);
    /* room for fewer than there are: the first ones */
    g_assert_cmpint (ks_artifacts_stub_offsets (stub, "cfun", offsets, 2), ==, 2);
    g_assert_cmpuint (offsets[1], ==, 8);
  }
}

/* nvcc 13's steps name the maker of each file: cicc writes the PTX and the
 * launch stub (cudafe++ only names the stub), ptxas the cubin, fatbinary
 * the fat binary and its C array, cudafe++ the host code and the module
 * id, the host compiler the preprocessed sources and the object */
static void
check_makers (const KsArtifacts *k,
              const char        *arch)
{
  const struct { const char *suffix, *tool; } makers[] = {
    { ".ptx", "cicc" }, { ".cudafe1.stub.c", "cicc" }, { ".fatbin", "fatbinary" },
    { ".fatbin.c", "fatbinary" }, { ".cudafe1.cpp", "cudafe++" }, { ".module_id", "cudafe++" },
    { ".cpp1.ii", "gcc" }, { ".cpp4.ii", "gcc" }, { ".o", "gcc" },
  };
  g_autofree char *cubin = g_strdup_printf (".%s.cubin", arch);
  const KsArtifact *c = ks_artifacts_find (k, cubin), *ptx, *stub;

  g_assert_nonnull (c);
  g_assert_cmpstr (c->tool, ==, "ptxas");
  g_assert_cmpuint (c->size, >, 1000);
  g_assert_null (c->text);
  for (guint i = 0; i < G_N_ELEMENTS (makers); i++)
    {
      const KsArtifact *a = ks_artifacts_find (k, makers[i].suffix);

      g_assert_nonnull (a);
      /* the host compiler is whatever nvcc uses: gcc here, maybe g++ or clang */
      if (g_str_equal (makers[i].tool, "gcc"))
        g_assert_true (a->tool != NULL && a->step >= 0);
      else
        g_assert_cmpstr (a->tool, ==, makers[i].tool);
    }
  for (uint32_t i = 0; i < k->n_items; i++)
    {
      g_assert_nonnull (ks_artifact_kind (k->items[i].name));
      /* in the order the steps wrote them */
      if (i > 0 && k->items[i].step >= 0)
        g_assert_cmpint (k->items[i].step, >=, k->items[i - 1].step);
    }
  /* a record keeps only the small texts */
  ptx = ks_artifacts_find (k, ".ptx");
  g_assert_true (k->recorded || strstr (ptx->text, ".target") != NULL);
  stub = ks_artifacts_find (k, ".cudafe1.stub.c");
  g_assert_nonnull (stub->text);
  g_assert_true (strstr (stub->text, "__device_stub_") != NULL);
}

static void
test_records (void)
{
  g_autofree char *samples = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_autoptr(GDir) d = g_dir_open (samples, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *dir = g_build_filename (samples, name, NULL);
      g_autoptr(GDir) files = g_dir_open (dir, 0, NULL);
      const char *file;

      while (files != NULL && (file = g_dir_read_name (files)) != NULL)
        {
          g_autofree char *cu = NULL, *text = NULL, *record = NULL, *edited = NULL;
          g_autoptr(KsArtifacts) k = NULL;
          g_autoptr(GError) error = NULL;

          if (!g_str_has_suffix (file, ".cu"))
            continue;
          cu = g_build_filename (dir, file, NULL);
          g_assert_true (g_file_get_contents (cu, &text, NULL, NULL));
          record = ks_artifacts_record_path (dir, file);
          k = ks_artifacts_load (record, text, &error);
          g_assert_no_error (error);
          g_assert_true (k->recorded);
          g_assert_cmpstr (k->arch, ==, "sm_89");
          g_assert_true (g_str_has_prefix (k->toolkit, "CUDA "));
          check_makers (k, k->arch);
          n++;

          /* an edit: the record is not of it */
          edited = g_strconcat (text, "\n// edited\n", NULL);
          g_clear_pointer (&k, ks_artifacts_free);
          k = ks_artifacts_load (record, edited, &error);
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
          g_assert_null (k);
        }
    }
  g_assert_cmpuint (n, >=, 26);
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (ks_artifacts_load ("/nonexistent/keep/x.keep.json", "", &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  }
}

static void
test_make (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  g_autofree char *cu = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                               "01-vector-add", "vector_add.cu", NULL);
  g_autofree char *record = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                   "01-vector-add", "keep",
                                                   "vector_add.keep.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(KsArtifacts) k = NULL, r = NULL;
  g_autoptr(GError) error = NULL;
  uint32_t offsets[4] = { 0 };

  if (ks_toolkit_disabled () || ks_toolchain_get_path (tc, KS_TOOL_NVCC) == NULL)
    {
      g_test_skip ("no nvcc here: nvcc --keep is not run");
      return;
    }
  g_assert_true (g_file_get_contents (cu, &text, NULL, NULL));
  k = ks_artifacts_make (tc, cu, NULL, "sm_86", NULL, &error);
  if (k == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      /* nvcc, but no host compiler it takes */
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  g_assert_false (k->recorded);
  g_assert_cmpstr (k->arch, ==, "sm_86");
  g_assert_cmpstr (k->command, ==, "nvcc --keep -c -lineinfo -arch=sm_86 vector_add.cu");
  check_makers (k, "sm_86");
  g_assert_null (ks_artifacts_find (k, ".sm_89.cubin"));
  g_assert_cmpint (ks_artifacts_stub_offsets (ks_artifacts_find (k, ".cudafe1.stub.c")->text,
                                              "_Z10vector_addPKfS0_Pfi", offsets, 4), ==, 4);
  g_assert_cmpuint (offsets[0], ==, 0);
  g_assert_cmpuint (offsets[1], ==, 8);
  g_assert_cmpuint (offsets[2], ==, 16);
  g_assert_cmpuint (offsets[3], ==, 24);
  /* the files the record lists, but the cubin's name */
  r = ks_artifacts_load (record, text, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (k->n_items, ==, r->n_items);

  /* an error in the CUDA: nvcc's message, with the line */
  g_clear_pointer (&k, ks_artifacts_free);
  k = ks_artifacts_make (tc, "broken.cu", "__global__ void k (int *p) { p[0] = q; }\n", "sm_86",
                         NULL, &error);
  g_assert_null (k);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_true (strstr (error->message, "broken.cu(1)") != NULL);
  g_assert_true (strstr (error->message, "\"q\" is undefined") != NULL);
  g_clear_error (&error);
  g_assert_null (ks_artifacts_make (tc, "k.cu", "", "compute_86", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/artifacts/stub-offsets", test_stub_offsets);
  g_test_add_func ("/artifacts/records", test_records);
  g_test_add_func ("/artifacts/make", test_make);
  return g_test_run ();
}
