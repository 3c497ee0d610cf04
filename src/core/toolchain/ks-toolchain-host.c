/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain-host.c: the host's CUDA toolkit, from a Flatpak sandbox.
 *
 * The GNOME runtime has neither a CUDA toolkit nor the C++ compiler nvcc
 * preprocesses with, and the sandbox sees neither the host's /usr/local/cuda
 * nor its /tmp.  With the permission to talk to org.freedesktop.Flatpak (the
 * manifest's --talk-name=org.freedesktop.Flatpak), `flatpak-spawn --host`
 * has Flatpak's session helper start a program on the host, outside the
 * sandbox, writing to our own standard output and error: the way GNOME
 * Builder runs host compilers.  So in a sandbox the toolkit is looked for on
 * the host and every program of it runs there, in a temporary folder under
 * the user cache folder (~/.var/app/ID/cache), which is the same path on
 * both sides.
 *
 * What this relies on in flatpak-spawn (flatpak-xdg-utils) and the session
 * helper:
 * - flatpak-spawn takes each leading argument that starts with '-' as its
 *   own option and the first one that does not as the command, so options
 *   are given as --name=value and the program's path (absolute) comes next;
 *   what follows it is passed on untouched, as an argument vector.
 * - The program gets the session helper's environment, not ours: LC_ALL
 *   and TMPDIR go with --env; its folder with --directory (by default it
 *   would be our current folder, which the host may not have).
 * - The program runs in a session and process group of its own.
 *   flatpak-spawn forwards SIGINT to that whole group (SIGTERM only to the
 *   program), which is how a cancelled run ends nvcc with cicc and ptxas
 *   under it; a SIGKILL would end flatpak-spawn alone.  With --watch-bus,
 *   the helper sends the group SIGINT when flatpak-spawn's bus connection
 *   goes, so a flatpak-spawn that has to be killed still takes the program
 *   with it.
 */

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ks-toolchain.h"
#include "ks-toolchain-private.h"

gboolean
ks_toolchain_in_flatpak (void)
{
  const char *info = g_getenv ("KS_FLATPAK_INFO");

  if (info == NULL || *info == '\0')
    info = "/.flatpak-info";
  return g_file_test (info, G_FILE_TEST_EXISTS);
}

char **
_ks_toolchain_host_argv (const KsToolchain *tc,
                         const char *const *argv,
                         const char        *cwd,
                         const char        *path_env)
{
  GPtrArray *v = g_ptr_array_new ();

  g_assert (tc->on_host && tc->spawn != NULL);
  g_ptr_array_add (v, g_strdup (tc->spawn));
  g_ptr_array_add (v, g_strdup ("--host"));
  g_ptr_array_add (v, g_strdup ("--watch-bus"));
  g_ptr_array_add (v, g_strconcat ("--directory=", cwd != NULL ? cwd : "/", NULL));
  g_ptr_array_add (v, g_strdup ("--env=LC_ALL=C"));
  if (cwd != NULL)
    g_ptr_array_add (v, g_strconcat ("--env=TMPDIR=", cwd, NULL));
  if (path_env != NULL)
    g_ptr_array_add (v, g_strconcat ("--env=PATH=", path_env, NULL));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (v, g_strdup (argv[i]));
  g_ptr_array_add (v, NULL);
  return (char **) g_ptr_array_free (v, FALSE);
}

char *
_ks_toolchain_make_tmp (const KsToolchain *tc,
                        const char        *tmpl,
                        GError           **error)
{
  g_autofree char *base = NULL, *path = NULL;

  if (!tc->on_host)
    return g_dir_make_tmp (tmpl, error);

  base = g_build_filename (g_get_user_cache_dir (), "kernelscope", NULL);
  if (g_mkdir_with_parents (base, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot make the folder %s: %s", base, g_strerror (saved));
      return NULL;
    }
  path = g_build_filename (base, tmpl, NULL);
  if (g_mkdtemp_full (path, 0700) == NULL)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot make a temporary folder in %s: %s", base, g_strerror (saved));
      return NULL;
    }
  return g_steal_pointer (&path);
}

char *
_ks_toolchain_where (const KsToolchain *tc)
{
  if (tc->on_host)
    return g_strdup ("looked on the host, through flatpak-spawn, in its PATH, $CUDA_HOME/bin, "
                     "$CUDA_PATH/bin, /usr/local/cuda/bin and Debian's nvidia-cuda-toolkit");
  if (tc->host_error != NULL)
    return g_strdup_printf ("the host's toolkit cannot be reached from the Flatpak sandbox: %s",
                            tc->host_error);
  return g_strdup ("looked in PATH, $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin, "
                   "/usr/local/cuda-*/bin and Debian's nvidia-cuda-toolkit");
}

/* NAME's value in `env`'s output, or NULL */
static const char *
env_value (char *const *lines,
           const char  *name)
{
  size_t n = strlen (name);

  for (guint i = 0; lines[i] != NULL; i++)
    if (strncmp (lines[i], name, n) == 0 && lines[i][n] == '=')
      return lines[i] + n + 1;
  return NULL;
}

/* The messages of a failed flatpak-spawn, on one line */
static char *
one_line (const char *text)
{
  g_autofree char *s = g_strstrip (g_strdup (text != NULL ? text : ""));

  g_strdelimit (s, "\n", ' ');
  return s[0] != '\0' ? g_steal_pointer (&s) : g_strdup ("(no message)");
}

static gboolean
host_exists (const char *path,
             gpointer    data)
{
  return g_hash_table_contains (data, path);
}

gboolean
_ks_toolchain_find_on_host (KsToolchain *tc,
                            const char  *preferred_dir)
{
  static const char *const env_argv[] = { "env", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) find_argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) found = NULL;
  g_auto(GStrv) env = NULL;
  g_auto(GStrv) lines = NULL;
  int status = 0;

  tc->spawn = g_find_program_in_path ("flatpak-spawn");
  if (tc->spawn == NULL)
    {
      tc->host_error = g_strdup ("flatpak-spawn is not in the sandbox");
      return FALSE;
    }
  tc->on_host = TRUE;

  /* The host's PATH, CUDA_HOME and CUDA_PATH: those of the session, which
   * are not the sandbox's */
  if (!_ks_toolchain_run (tc, env_argv, NULL, NULL, &status, &out, &err, &error)
      || status != 0 || out == NULL || (env = g_strsplit (out, "\n", -1)) == NULL
      || env_value (env, "PATH") == NULL)
    {
      g_autofree char *why = one_line (error != NULL ? error->message : err);

      tc->host_error = g_strdup_printf ("flatpak-spawn --host failed (KernelScope needs the "
                                        "permission --talk-name=org.freedesktop.Flatpak): %s",
                                        why);
      tc->on_host = FALSE;
      g_clear_pointer (&tc->spawn, g_free);
      return FALSE;
    }

  if (preferred_dir != NULL)
    {
      _ks_toolchain_add_dir (dirs, preferred_dir, NULL);
      _ks_toolchain_add_dir (dirs, preferred_dir, "bin");
    }
  {
    g_auto(GStrv) path = g_strsplit (env_value (env, "PATH"), ":", -1);

    for (guint i = 0; path[i] != NULL; i++)
      _ks_toolchain_add_dir (dirs, path[i], NULL);
  }
  /* `flatpak run` from a shell passes on its CUDA_HOME: a host path */
  _ks_toolchain_add_dir (dirs, g_getenv ("CUDA_HOME"), "bin");
  _ks_toolchain_add_dir (dirs, env_value (env, "CUDA_HOME"), "bin");
  _ks_toolchain_add_dir (dirs, g_getenv ("CUDA_PATH"), "bin");
  _ks_toolchain_add_dir (dirs, env_value (env, "CUDA_PATH"), "bin");
  _ks_toolchain_add_dir (dirs, "/usr/local/cuda/bin", NULL);
  /* Debian's package: its own nvcc, and the rest in /usr/bin */
  _ks_toolchain_add_dir (dirs, "/usr/lib/nvidia-cuda-toolkit/bin", NULL);
  tc->host_path = g_strdup (env_value (env, "PATH"));

  /* Every candidate in one round trip: find prints those that are files
   * (symbolic links followed) we may execute, as g_file_test() would
   * answer here.  Each starts with '/', so none is read as an expression;
   * those that do not exist only make it complain on stderr. */
  g_ptr_array_add (find_argv, g_strdup ("find"));
  g_ptr_array_add (find_argv, g_strdup ("-L"));
  for (guint t = 0; t < KS_N_TOOLS; t++)
    {
      for (guint d = 0; d < dirs->len; d++)
        g_ptr_array_add (find_argv, g_build_filename (g_ptr_array_index (dirs, d),
                                                      ks_tool_name (t), NULL));
      if (t != KS_TOOL_NVCC && !g_ptr_array_find_with_equal_func (dirs, "/usr/bin", g_str_equal,
                                                                  NULL))
        g_ptr_array_add (find_argv, g_build_filename ("/usr/bin", ks_tool_name (t), NULL));
    }
  {
    static const char *const expr[] = { "-maxdepth", "0", "-type", "f", "-executable", "-print",
                                        NULL };

    for (guint i = 0; expr[i] != NULL; i++)
      g_ptr_array_add (find_argv, g_strdup (expr[i]));
  }
  g_ptr_array_add (find_argv, NULL);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  found = g_hash_table_new (g_str_hash, g_str_equal);
  if (_ks_toolchain_run (tc, (const char *const *) find_argv->pdata, NULL, NULL, &status, &out,
                         &err, NULL) && out != NULL)
    {
      lines = g_strsplit (out, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (lines[i][0] != '\0')
          g_hash_table_add (found, lines[i]);
    }

  /* The same sets as outside (ks-toolchain-find.c), with what find saw;
   * dpkg's list of the package is not read through the sandbox */
  _ks_toolchain_gather (tc, dirs, "/usr/bin", NULL, "", host_exists, found);
  return TRUE;
}
