/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay-main.c: runs a libFuzzer target over saved inputs, without libFuzzer.
 *
 * Usage: fuzz-ptx-replay FILE-OR-DIRECTORY...
 *
 * Directories are walked recursively, in name order so that a failure is
 * reproducible.  A crash or a violated invariant aborts the process, and the
 * line printed before it names the input, so `meson test` shows which one.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
replay_file (const char *path,
             guint      *n_run)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree uint8_t *exact = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      g_printerr ("fuzz-ptx-replay: %s\n", error->message);
      return FALSE;
    }

  /* g_file_get_contents adds a NUL; libFuzzer does not.  An exact-size copy
   * lets ASan catch a read past the end as the fuzzer would. */
  exact = g_malloc (MAX (len, 1));
  memcpy (exact, contents, len);

  printf ("replay: %s (%" G_GSIZE_FORMAT " bytes)\n", path, len);
  fflush (stdout);
  LLVMFuzzerTestOneInput (exact, len);
  (*n_run)++;
  return TRUE;
}

static gboolean
replay_path (const char *path,
             guint      *n_run)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;
  gboolean ok = TRUE;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return replay_file (path, n_run);

  dir = g_dir_open (path, 0, &error);
  if (dir == NULL)
    {
      g_printerr ("fuzz-ptx-replay: %s\n", error->message);
      return FALSE;
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *child = g_build_filename (path, g_ptr_array_index (names, i), NULL);

      ok &= replay_path (child, n_run);
    }
  return ok;
}

int
main (int   argc,
      char *argv[])
{
  guint n_run = 0;
  gboolean ok = TRUE;

  if (argc < 2)
    {
      g_printerr ("Usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
      return 2;
    }

  for (int i = 1; i < argc; i++)
    ok &= replay_path (argv[i], &n_run);

  printf ("replayed %u inputs\n", n_run);
  /* An empty run means a wrong path in meson.build, not a pass. */
  return ok && n_run > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
