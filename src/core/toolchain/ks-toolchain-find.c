/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain-find.c: finding whole CUDA toolkits.
 *
 * A toolkit's programs only work together: 11.8's nvdisasm refuses a cubin
 * of 13.0's ptxas ("does not contain Cuda architecture information"),
 * 11.8's ptxas refuses `.version 9.0` PTX, and nvcc runs whichever ptxas
 * comes first on PATH.  So the search finds toolkits, each the programs of
 * one folder, and never takes nvdisasm from one folder and ptxas from
 * another.  Debian's nvidia-cuda-toolkit is one toolkit in two folders:
 * /usr/bin has ptxas, cuobjdump, nvdisasm and a script that runs the real
 * nvcc in /usr/lib/nvidia-cuda-toolkit/bin, which has no ptxas beside it. */

/* realpath() under -std=c11 */
#define _GNU_SOURCE

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-toolchain.h"
#include "ks-toolchain-private.h"

/* The folder of Debian's package that holds its nvcc, under a root */
#define DEBIAN_NVCC_DIR "/usr/lib/nvidia-cuda-toolkit/bin"
#define DEBIAN_LIST "/var/lib/dpkg/info/nvidia-cuda-toolkit.list"

static void
toolkit_free (gpointer data)
{
  KsToolkit *kit = data;

  g_free (kit->dir);
  for (guint t = 0; t < KS_N_TOOLS; t++)
    g_free (kit->paths[t]);
  g_free (kit->version);
  g_free (kit->disassembler_version);
  g_free (kit);
}

void
_ks_toolchain_add_dir (GPtrArray  *dirs,
                       const char *dir,
                       const char *sub)
{
  g_autofree char *joined = NULL, *canon = NULL;

  /* A relative folder means nothing on the host (and here it has been made
   * absolute already); find prints a line a path, so a name with a
   * newline could not be told apart */
  if (dir == NULL || !g_path_is_absolute (dir))
    return;
  joined = sub != NULL ? g_build_filename (dir, sub, NULL) : g_strdup (dir);
  canon = g_canonicalize_filename (joined, NULL);
  if (strchr (canon, '\n') != NULL
      || g_ptr_array_find_with_equal_func (dirs, canon, g_str_equal, NULL))
    return;
  g_ptr_array_add (dirs, g_steal_pointer (&canon));
}

/* --version texts, by program file: each analysis looks for the toolkits
 * again, and a program does not change its version unless it changes */
static GMutex version_lock;
static GHashTable *version_cache;

static char *
version_key (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return NULL;
  return g_strdup_printf ("%s\n%" G_GUINT64_FORMAT "\n%" G_GUINT64_FORMAT "\n%" G_GINT64_FORMAT,
                          path, (guint64) st.st_ino, (guint64) st.st_size, (gint64) st.st_mtime);
}

/* The output of `PROGRAM --version`, or NULL */
static char *
version_text (const KsToolchain *tc,
              const char        *program)
{
  const char *argv[] = { program, "--version", NULL };
  g_autofree char *key = NULL, *out = NULL, *err = NULL;
  int status = 0;

  if (!tc->on_host && (key = version_key (program)) != NULL)
    {
      g_mutex_lock (&version_lock);
      if (version_cache != NULL && g_hash_table_contains (version_cache, key))
        {
          char *text = g_strdup (g_hash_table_lookup (version_cache, key));

          g_mutex_unlock (&version_lock);
          return text;
        }
      g_mutex_unlock (&version_lock);
    }
  if (!_ks_toolchain_run (tc, argv, NULL, NULL, &status, &out, &err, NULL) || status != 0)
    g_clear_pointer (&out, g_free);
  if (key != NULL)
    {
      g_mutex_lock (&version_lock);
      if (version_cache == NULL)
        version_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_replace (version_cache, g_steal_pointer (&key), g_strdup (out));
      g_mutex_unlock (&version_lock);
    }
  return g_steal_pointer (&out);
}

/* The version of the toolkit, from its ptxas (else its nvcc), and that of
 * its disassembler; a disassembler of another release is not of this
 * toolkit (a folder such as /usr/bin may hold programs of several) */
static void
read_versions (const KsToolchain *tc,
               KsToolkit         *kit)
{
  KsTool main = kit->paths[KS_TOOL_PTXAS] != NULL ? KS_TOOL_PTXAS : KS_TOOL_NVCC;
  KsTool dis = kit->paths[KS_TOOL_NVDISASM] != NULL ? KS_TOOL_NVDISASM : KS_TOOL_CUOBJDUMP;
  g_autofree char *text = NULL, *dis_text = NULL;
  guint major = 0, minor = 0;

  text = version_text (tc, kit->paths[main]);
  if (text != NULL)
    ks_toolchain_parse_version (text, &kit->version_major, &kit->version_minor, &kit->version);
  if (kit->paths[dis] == NULL)
    return;
  dis_text = version_text (tc, kit->paths[dis]);
  if (dis_text == NULL
      || !ks_toolchain_parse_version (dis_text, &major, &minor, &kit->disassembler_version))
    return;
  /* 11.8.89's ptxas and 11.8.86's nvdisasm are one release */
  if (kit->version != NULL && (major != kit->version_major || minor != kit->version_minor))
    {
      g_debug ("%s is CUDA %u.%u, %s CUDA %u.%u: not used together", kit->paths[dis], major,
               minor, kit->paths[main], kit->version_major, kit->version_minor);
      g_clear_pointer (&kit->paths[dis], g_free);
      g_clear_pointer (&kit->disassembler_version, g_free);
    }
}

/* Where Debian's package put `name` (dpkg -L): a line .../bin/NAME of its
 * list, under root; NULL when the list does not say */
static char *
listed_program (char *const *listed,
                const char  *root,
                const char  *name)
{
  for (guint i = 0; listed != NULL && listed[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (listed[i]);
      g_autofree char *dir = g_path_get_dirname (listed[i]);

      if (g_str_equal (base, name) && g_str_has_suffix (dir, "/bin") && listed[i][0] == '/')
        return g_strconcat (root, listed[i], NULL);
    }
  return NULL;
}

/* The file a program really is, so that a toolkit reached through a link
 * (/usr/local/cuda -> cuda-13.0) counts once.  The host's paths are
 * compared as they are: they cannot be resolved from the sandbox. */
static char *
identity (const KsToolchain *tc,
          const char        *path)
{
  char *real;

  if (tc->on_host)
    return g_strdup (path);
  real = realpath (path, NULL);
  if (real == NULL)
    return g_strdup (path);
  {
    char *copy = g_strdup (real);

    free (real);
    return copy;
  }
}

static gboolean
has_disassembler (const KsToolkit *kit)
{
  return kit->paths[KS_TOOL_NVDISASM] != NULL || kit->paths[KS_TOOL_CUOBJDUMP] != NULL;
}

/* The compiling toolkit is the first found (the preference's, else the
 * first on PATH, as before toolkits were sets); SASS is made by it when it
 * can disassemble, else by the newest that can, the first of equals */
static void
choose (KsToolchain *tc)
{
  const KsToolkit *first;

  if (tc->toolkits == NULL || tc->toolkits->len == 0)
    return;
  first = g_ptr_array_index (tc->toolkits, 0);
  for (guint t = 0; t < KS_N_TOOLS; t++)
    tc->paths[t] = g_strdup (first->paths[t]);
  tc->version = g_strdup (first->version);
  tc->version_major = first->version_major;
  tc->version_minor = first->version_minor;

  if (has_disassembler (first))
    {
      tc->sass = first;
      return;
    }
  for (guint i = 1; i < tc->toolkits->len; i++)
    {
      const KsToolkit *kit = g_ptr_array_index (tc->toolkits, i);

      if (!has_disassembler (kit))
        continue;
      if (tc->sass == NULL || kit->version_major > tc->sass->version_major
          || (kit->version_major == tc->sass->version_major
              && kit->version_minor > tc->sass->version_minor))
        tc->sass = kit;
    }
}

void
_ks_toolchain_gather (KsToolchain          *tc,
                      GPtrArray            *dirs,
                      const char           *debian_tools,
                      const char           *debian_list,
                      const char           *root,
                      KsToolchainExistsFunc exists,
                      gpointer              data)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) listed = NULL;
  g_autofree char *list_text = NULL;

  if (debian_list != NULL && g_file_get_contents (debian_list, &list_text, NULL, NULL))
    listed = g_strsplit (list_text, "\n", -1);
  if (tc->toolkits == NULL)
    tc->toolkits = g_ptr_array_new_with_free_func (toolkit_free);

  for (guint d = 0; d < dirs->len; d++)
    {
      const char *dir = g_ptr_array_index (dirs, d);
      KsToolkit *kit = g_new0 (KsToolkit, 1);
      g_autofree char *id = NULL;

      kit->dir = g_strdup (dir);
      for (guint t = 0; t < KS_N_TOOLS; t++)
        {
          g_autofree char *path = g_build_filename (dir, ks_tool_name (t), NULL);

          if (exists (path, data))
            kit->paths[t] = g_steal_pointer (&path);
        }
      /* An nvcc alone, linked from a toolkit (~/bin/nvcc ->
       * /usr/local/cuda/bin/nvcc): the toolkit is the folder it links to */
      if (kit->paths[KS_TOOL_NVCC] != NULL && kit->paths[KS_TOOL_PTXAS] == NULL && !tc->on_host)
        {
          g_autofree char *real = identity (tc, kit->paths[KS_TOOL_NVCC]);
          g_autofree char *real_dir = g_path_get_dirname (real);

          if (!g_str_equal (real_dir, dir))
            for (guint t = KS_TOOL_PTXAS; t < KS_N_TOOLS; t++)
              {
                g_autofree char *path = g_build_filename (real_dir, ks_tool_name (t), NULL);

                if (exists (path, data))
                  kit->paths[t] = g_steal_pointer (&path);
              }
        }
      /* Debian's own nvcc: the rest of its toolkit is where the package
       * put it */
      if (kit->paths[KS_TOOL_NVCC] != NULL && kit->paths[KS_TOOL_PTXAS] == NULL
          && g_str_has_suffix (dir, DEBIAN_NVCC_DIR))
        for (guint t = KS_TOOL_PTXAS; t < KS_N_TOOLS; t++)
          {
            g_autofree char *path = listed_program (listed, root, ks_tool_name (t));

            if (path == NULL)
              path = g_build_filename (debian_tools, ks_tool_name (t), NULL);
            if (exists (path, data))
              kit->paths[t] = g_steal_pointer (&path);
          }
      /* A folder with neither is no toolkit (PATH has many) */
      if (kit->paths[KS_TOOL_PTXAS] == NULL && kit->paths[KS_TOOL_NVCC] == NULL)
        {
          toolkit_free (kit);
          continue;
        }
      id = identity (tc, kit->paths[kit->paths[KS_TOOL_PTXAS] != NULL ? KS_TOOL_PTXAS
                                                                       : KS_TOOL_NVCC]);
      if (!g_hash_table_add (seen, g_steal_pointer (&id)))
        {
          toolkit_free (kit);
          continue;
        }
      g_ptr_array_add (tc->toolkits, kit);
    }

  for (guint i = 0; i < tc->toolkits->len; i++)
    read_versions (tc, g_ptr_array_index (tc->toolkits, i));
  choose (tc);
}

static gboolean
local_exists (const char *path,
              gpointer    data)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* "cuda-12.4" -> 12004; 0 when the name has no version */
static guint
cuda_dir_rank (const char *name)
{
  guint64 major, minor = 0;
  char *end;

  if (!g_str_has_prefix (name, "cuda-") || !g_ascii_isdigit (name[5]))
    return 0;
  major = g_ascii_strtoull (name + 5, &end, 10);
  if (*end == '.')
    minor = g_ascii_strtoull (end + 1, NULL, 10);
  return (guint) MIN (major * 1000 + MIN (minor, 999), G_MAXUINT);
}

static gint
newer_first (gconstpointer a,
             gconstpointer b)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  guint rx = cuda_dir_rank (x), ry = cuda_dir_rank (y);

  return rx != ry ? (rx < ry ? 1 : -1) : g_strcmp0 (x, y);
}

/* /usr/local/cuda-X.Y/bin under root, newest first */
static void
add_versioned_dirs (GPtrArray  *dirs,
                    const char *root)
{
  g_autofree char *local = g_strconcat (root, "/usr/local", NULL);
  g_autoptr(GDir) d = g_dir_open (local, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (cuda_dir_rank (name) > 0)
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, newer_first);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *dir = g_build_filename (local, g_ptr_array_index (names, i), NULL);

      _ks_toolchain_add_dir (dirs, dir, "bin");
    }
}

KsToolchain *
_ks_toolchain_find_local (const char *preferred_dir,
                          const char *root)
{
  const char *const env_homes[] = { "CUDA_HOME", "CUDA_PATH" };
  KsToolchain *tc = g_new0 (KsToolchain, 1);
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *usr_local = g_strconcat (root, "/usr/local/cuda", NULL);
  g_autofree char *debian_nvcc_dir = g_strconcat (root, DEBIAN_NVCC_DIR, NULL);
  g_autofree char *debian_tools = g_strconcat (root, "/usr/bin", NULL);
  g_autofree char *debian_list = g_strconcat (root, DEBIAN_LIST, NULL);
  const char *path = g_getenv ("PATH");

  if (preferred_dir != NULL && *preferred_dir != '\0')
    {
      g_autofree char *abs = g_canonicalize_filename (preferred_dir, NULL);

      _ks_toolchain_add_dir (dirs, abs, NULL);
      _ks_toolchain_add_dir (dirs, abs, "bin");
    }
  if (path != NULL)
    {
      g_auto(GStrv) entries = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);

      /* (an empty or relative entry means the current folder, which is
       * never a toolkit worth running) */
      for (guint i = 0; entries[i] != NULL; i++)
        _ks_toolchain_add_dir (dirs, entries[i], NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (env_homes); i++)
    _ks_toolchain_add_dir (dirs, g_getenv (env_homes[i]), "bin");
  _ks_toolchain_add_dir (dirs, usr_local, "bin");
  add_versioned_dirs (dirs, root);
  _ks_toolchain_add_dir (dirs, debian_nvcc_dir, NULL);

  _ks_toolchain_gather (tc, dirs, debian_tools, debian_list, root, local_exists, NULL);
  return tc;
}

const KsToolkit *
_ks_toolchain_compiling (const KsToolchain *tc)
{
  if (tc == NULL || tc->toolkits == NULL || tc->toolkits->len == 0)
    return NULL;
  return g_ptr_array_index (tc->toolkits, 0);
}

char *
_ks_toolkit_name (const KsToolkit *kit)
{
  if (kit == NULL || kit->version == NULL)
    return g_strdup ("a CUDA toolkit of unknown release");
  return g_strdup_printf ("CUDA %u.%u", kit->version_major, kit->version_minor);
}
