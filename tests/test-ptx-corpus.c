/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The PTX corpus: every file nvcc made from tests/ptx/corpus/cuda, and the
 * hand-written odd forms, parses without an error and yields exactly the
 * kernels and device functions that ptxas reported for it (MANIFEST.tsv,
 * written by make-manifest.sh from `ptxas -v`, not by this parser). */

#include <glib/gstdio.h>
#include <string.h>

#include "ks-ptx.h"

typedef struct
{
  char *path;                   /* relative to the corpus folder */
  GPtrArray *entries;
  GPtrArray *funcs;
} ManifestLine;

static void
manifest_line_free (gpointer data)
{
  ManifestLine *ml = data;

  g_free (ml->path);
  g_ptr_array_unref (ml->entries);
  g_ptr_array_unref (ml->funcs);
  g_free (ml);
}

static GPtrArray *
split_names (const char *field,
             const char *key)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) parts = NULL;

  g_assert_true (g_str_has_prefix (field, key));
  parts = g_strsplit (field + strlen (key), ",", -1);
  for (guint i = 0; parts[i]; i++)
    if (*parts[i])
      g_ptr_array_add (names, g_strdup (parts[i]));
  return names;
}

static GPtrArray *
load_manifest (const char *corpus)
{
  g_autofree char *path = g_build_filename (corpus, "MANIFEST.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (manifest_line_free);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) fields = NULL;
      ManifestLine *ml;

      if (*lines[i] == '\0' || *lines[i] == '#')
        continue;
      fields = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (fields), ==, 3);
      ml = g_new0 (ManifestLine, 1);
      ml->path = g_strdup (fields[0]);
      ml->entries = split_names (fields[1], "entries=");
      ml->funcs = split_names (fields[2], "funcs=");
      g_ptr_array_add (out, ml);
    }
  return out;
}

static gboolean
contains (GPtrArray  *names,
          const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (names->pdata[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Parses one file and checks it against its manifest line. */
static void
check_file (const char         *dir,
            const ManifestLine *ml)
{
  g_autofree char *path = g_build_filename (dir, ml->path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (path, &error);
  guint n_entries = 0, n_funcs = 0;

  g_assert_no_error (error);
  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_test_message ("%s:%u:%u: %s", ml->path, m->diagnostics[i].line,
                    m->diagnostics[i].column, m->diagnostics[i].message);
  g_assert_cmpuint (m->n_errors, ==, 0);
  g_assert_cmpuint (m->n_warnings, ==, 0);
  g_assert_cmpuint (m->version_major, >=, 6);

  for (uint32_t i = 0; i < m->n_functions; i++)
    {
      const KsPtxFunction *f = &m->functions[i];
      g_autofree char *name = NULL;

      if (!(f->flags & KS_PTX_FUNCTION_HAS_BODY))
        continue;
      name = ks_ptx_span_dup (m, f->name);
      if (f->kind == KS_PTX_FUNCTION_ENTRY)
        {
          if (!contains (ml->entries, name))
            g_error ("%s: kernel %s is not in the manifest", ml->path, name);
          n_entries++;
        }
      else
        {
          if (!contains (ml->funcs, name))
            g_error ("%s: function %s is not in the manifest", ml->path, name);
          n_funcs++;
        }
      /* Every body decodes to blocks that cover all its instructions */
      if (f->n_insns > 0)
        {
          uint32_t covered = 0;

          for (uint32_t b = 0; b < f->n_blocks; b++)
            covered += m->blocks[f->first_block + b].n_insns;
          g_assert_cmpuint (covered, ==, f->n_insns);
        }
    }
  g_assert_cmpuint (n_entries, ==, ml->entries->len);
  g_assert_cmpuint (n_funcs, ==, ml->funcs->len);

  /* The lookup of a line's first instruction (a binary search, which the
   * hints and the heat gutter make for every line) finds what a walk
   * through the instructions finds, on every line of the file and past
   * it: the instructions come in the order of their lines */
  {
    uint32_t last = m->n_insns ? m->insns[m->n_insns - 1].line : 0, i = 0;

    for (uint32_t line = 0; line <= last + 1; line++)
      {
        int64_t want = -1;

        while (i < m->n_insns && m->insns[i].line < line)
          i++;
        if (line != 0 && i < m->n_insns && m->insns[i].line == line)
          want = i;
        g_assert_cmpint (ks_ptx_module_insn_at_line (m, line), ==, want);
      }
    for (i = 1; i < m->n_insns; i++)
      g_assert_cmpuint (m->insns[i - 1].line, <=, m->insns[i].line);
  }
}

static void
test_corpus (void)
{
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "ptx", "corpus", NULL);
  g_autoptr(GPtrArray) manifest = load_manifest (corpus);
  guint n_sm[3] = { 0 }, n_hand = 0;

  for (guint i = 0; i < manifest->len; i++)
    {
      const ManifestLine *ml = manifest->pdata[i];

      check_file (corpus, ml);
      if (g_str_has_prefix (ml->path, "sm_75/"))
        n_sm[0]++;
      else if (g_str_has_prefix (ml->path, "sm_80/"))
        n_sm[1]++;
      else if (g_str_has_prefix (ml->path, "sm_90/"))
        n_sm[2]++;
      else if (g_str_has_prefix (ml->path, "hand/"))
        n_hand++;
    }
  /* The corpus is what the issue asks for: 30+ kernels at three targets */
  g_assert_cmpuint (n_sm[0], >=, 30);
  g_assert_cmpuint (n_sm[1], >=, 30);
  g_assert_cmpuint (n_sm[2], >=, 30);
  g_assert_cmpuint (n_hand, >=, 5);
}

static char *
find_nvcc (void)
{
  char *nvcc = g_find_program_in_path ("nvcc");
  const char *home = g_getenv ("CUDA_HOME");

  if (nvcc == NULL && home != NULL)
    {
      nvcc = g_build_filename (home, "bin", "nvcc", NULL);
      if (!g_file_test (nvcc, G_FILE_TEST_IS_EXECUTABLE))
        g_clear_pointer (&nvcc, g_free);
    }
  if (nvcc == NULL && g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    nvcc = g_strdup ("/usr/local/cuda/bin/nvcc");
  return nvcc;
}

/* With nvcc present, the corpus is made afresh from its CUDA sources and must
 * still parse: this is what catches a new nvcc emitting something new. */
static void
test_regenerate (void)
{
  g_autofree char *nvcc = find_nvcc ();
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "ptx", "corpus", NULL);
  g_autofree char *script = g_build_filename (corpus, "regenerate.sh", NULL);
  g_autofree char *tmp = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) manifest = NULL;
  const char *argv[] = { "bash", script, NULL, NULL };
  g_auto(GStrv) envp = NULL;
  int status = 0;

  if (nvcc == NULL)
    {
      g_test_skip ("nvcc not found (PATH, CUDA_HOME, /usr/local/cuda): "
                   "the committed corpus was still checked by /ptx/corpus/committed");
      return;
    }

  tmp = g_dir_make_tmp ("ks-corpus-XXXXXX", &error);
  g_assert_no_error (error);
  argv[2] = tmp;
  envp = g_environ_setenv (g_get_environ (), "NVCC", nvcc, TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("regenerate.sh failed:\n%s", err);

  manifest = load_manifest (corpus);
  for (guint i = 0; i < manifest->len; i++)
    {
      const ManifestLine *ml = manifest->pdata[i];
      g_autofree char *fresh = g_build_filename (tmp, ml->path, NULL);

      if (g_str_has_prefix (ml->path, "hand/"))
        continue;
      if (!g_file_test (fresh, G_FILE_TEST_EXISTS))
        g_error ("regenerate.sh did not make %s", ml->path);
      check_file (tmp, ml);
      g_unlink (fresh);
    }

  {
    const char *rm[] = { "rm", "-rf", tmp, NULL };

    g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ptx/corpus/committed", test_corpus);
  g_test_add_func ("/ptx/corpus/regenerate", test_regenerate);
  return g_test_run ();
}
