/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain.c: finding and running the CUDA toolkit's programs. */

#include <glib/gstdio.h>
#include <string.h>

#include "ks-resources.h"
#include "ks-toolchain.h"

static const char *const tool_names[KS_N_TOOLS] = {
  [KS_TOOL_NVCC] = "nvcc",
  [KS_TOOL_PTXAS] = "ptxas",
  [KS_TOOL_CUOBJDUMP] = "cuobjdump",
  [KS_TOOL_NVDISASM] = "nvdisasm",
};

const char *
ks_tool_name (KsTool tool)
{
  g_return_val_if_fail (tool < KS_N_TOOLS, NULL);
  return tool_names[tool];
}

static char *
program_in (const char *dir,
            const char *name)
{
  g_autofree char *path = NULL;

  if (dir == NULL || *dir == '\0')
    return NULL;
  path = g_build_filename (dir, name, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_canonicalize_filename (path, NULL);
  return NULL;
}

static char *
find_program (const char *preferred_dir,
              const char *name)
{
  const char *const env_homes[] = { "CUDA_HOME", "CUDA_PATH" };
  char *path;

  if (preferred_dir != NULL)
    {
      g_autofree char *bin = g_build_filename (preferred_dir, "bin", NULL);

      if ((path = program_in (preferred_dir, name)) != NULL
          || (path = program_in (bin, name)) != NULL)
        return path;
    }

  path = g_find_program_in_path (name);
  if (path != NULL)
    return path;

  for (guint i = 0; i < G_N_ELEMENTS (env_homes); i++)
    {
      const char *home = g_getenv (env_homes[i]);

      if (home != NULL && *home != '\0')
        {
          g_autofree char *bin = g_build_filename (home, "bin", NULL);

          if ((path = program_in (bin, name)) != NULL)
            return path;
        }
    }

  return program_in ("/usr/local/cuda/bin", name);
}

gboolean
ks_toolchain_parse_version (const char  *text,
                            guint       *major,
                            guint       *minor,
                            char       **version)
{
  const char *rel, *s, *v;
  guint64 a, b;
  char *end;

  g_return_val_if_fail (text != NULL, FALSE);

  rel = strstr (text, "release ");
  if (rel == NULL)
    return FALSE;
  s = rel + strlen ("release ");
  a = g_ascii_strtoull (s, &end, 10);
  if (end == s || *end != '.')
    return FALSE;
  s = end + 1;
  b = g_ascii_strtoull (s, &end, 10);
  if (end == s || a > G_MAXUINT || b > G_MAXUINT)
    return FALSE;

  if (major != NULL)
    *major = (guint) a;
  if (minor != NULL)
    *minor = (guint) b;
  if (version != NULL)
    {
      /* ", V13.0.88" gives the patch level; without it, the release */
      v = strstr (end, ", V");
      if (v != NULL)
        {
          size_t n;

          v += 3;
          n = strspn (v, "0123456789.");
          *version = n > 0 ? g_strndup (v, n) : g_strdup_printf ("%u.%u", (guint) a, (guint) b);
        }
      else
        *version = g_strdup_printf ("%u.%u", (guint) a, (guint) b);
    }
  return TRUE;
}

/* The output of a finished program, or FALSE with error */
static gboolean
run_program (const char   *const *argv,
             const char           *cwd,
             GCancellable         *cancellable,
             int                  *exit_status,
             char                **out,
             char                **err,
             GError              **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) local_error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (cwd != NULL)
    {
      g_subprocess_launcher_set_cwd (launcher, cwd);
      /* Whatever temporary files the tool makes stay in our directory */
      g_subprocess_launcher_setenv (launcher, "TMPDIR", cwd, TRUE);
    }
  /* Messages in English, which is what the parsers read */
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);

  proc = g_subprocess_launcher_spawnv (launcher, argv, error);
  if (proc == NULL)
    return FALSE;

  if (!g_subprocess_communicate_utf8 (proc, NULL, cancellable, out, err, &local_error))
    {
      g_subprocess_force_exit (proc);
      g_subprocess_wait (proc, NULL, NULL);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (g_subprocess_get_if_exited (proc))
    *exit_status = g_subprocess_get_exit_status (proc);
  else
    *exit_status = -1;
  return TRUE;
}

KsToolchain *
ks_toolchain_find (const char *preferred_dir)
{
  KsToolchain *tc = g_new0 (KsToolchain, 1);

  for (guint t = 0; t < KS_N_TOOLS; t++)
    tc->paths[t] = find_program (preferred_dir, tool_names[t]);

  if (tc->paths[KS_TOOL_PTXAS] != NULL)
    {
      const char *argv[] = { tc->paths[KS_TOOL_PTXAS], "--version", NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int status = 0;

      if (run_program (argv, NULL, NULL, &status, &out, &err, NULL) && status == 0 && out != NULL)
        ks_toolchain_parse_version (out, &tc->version_major, &tc->version_minor, &tc->version);
    }

  return tc;
}

void
ks_toolchain_free (KsToolchain *tc)
{
  if (tc == NULL)
    return;
  for (guint t = 0; t < KS_N_TOOLS; t++)
    g_free (tc->paths[t]);
  g_free (tc->version);
  g_free (tc);
}

const char *
ks_toolchain_get_path (const KsToolchain *tc,
                       KsTool             tool)
{
  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (tool < KS_N_TOOLS, NULL);
  return tc->paths[tool];
}

/* sm_XX or compute_XX with an optional a/f suffix: nothing that could be
 * read as another option */
static gboolean
arch_is_valid (const char *arch)
{
  const char *s = arch;

  if (g_str_has_prefix (s, "sm_"))
    s += 3;
  else if (g_str_has_prefix (s, "compute_"))
    s += 8;
  else
    return FALSE;
  if (!g_ascii_isdigit (*s))
    return FALSE;
  while (g_ascii_isdigit (*s))
    s++;
  if (*s == 'a' || *s == 'f')
    s++;
  return *s == '\0' && s - arch < 16;
}

static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d != NULL)
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
          remove_tree (path);
        else
          g_unlink (path);
      }
  g_rmdir (dir);
}

GPtrArray *
ks_toolchain_ptxas_resources (const KsToolchain *tc,
                              const char        *ptx_path,
                              const char        *arch,
                              GCancellable      *cancellable,
                              GError           **error)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *abs_path = NULL;
  g_autofree char *arch_opt = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autoptr(GError) parse_error = NULL;
  const char *argv[7];
  int status = 0;
  gboolean ran;

  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (ptx_path != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (tc->paths[KS_TOOL_PTXAS] == NULL)
    {
      g_set_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_NOT_FOUND,
                   "ptxas was not found (looked in PATH, $CUDA_HOME/bin, $CUDA_PATH/bin "
                   "and /usr/local/cuda/bin)");
      return NULL;
    }
  if (!arch_is_valid (arch))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return NULL;
    }

  tmpdir = g_dir_make_tmp ("kernelscope-ptxas-XXXXXX", error);
  if (tmpdir == NULL)
    return NULL;

  /* Absolute, because ptxas runs in tmpdir; and so a name that starts
   * with '-' is not an option */
  abs_path = g_canonicalize_filename (ptx_path, NULL);
  arch_opt = g_strconcat ("-arch=", arch, NULL);
  argv[0] = tc->paths[KS_TOOL_PTXAS];
  argv[1] = "-v";
  argv[2] = arch_opt;
  argv[3] = "-o";
  argv[4] = "/dev/null";
  argv[5] = abs_path;
  argv[6] = NULL;

  ran = run_program (argv, tmpdir, cancellable, &status, &out, &err, error);
  remove_tree (tmpdir);
  if (!ran)
    return NULL;

  res = ks_resources_parse_ptxas (err != NULL ? err : "", err != NULL ? strlen (err) : 0,
                                  &parse_error);
  if (status != 0)
    {
      /* The parser has turned ptxas's error lines into FILE:LINE messages */
      if (parse_error != NULL && g_error_matches (parse_error, KS_RESOURCES_ERROR,
                                                  KS_RESOURCES_ERROR_TOOL))
        g_propagate_error (error, g_steal_pointer (&parse_error));
      else
        g_set_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_TOOL,
                     "ptxas failed (exit status %d):\n%s", status,
                     err != NULL ? g_strstrip (err) : "");
      return NULL;
    }
  if (res == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&parse_error));
      return NULL;
    }

  return g_steal_pointer (&res);
}
