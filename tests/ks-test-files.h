/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-files.h: the tests' temporary folders. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

/* Removes dir and everything under it (links are removed, not followed) */
static inline void
ks_test_remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        ks_test_remove_tree (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}
