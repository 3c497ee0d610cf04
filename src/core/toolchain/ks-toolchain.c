/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain.c: finding and running the CUDA toolkit's programs. */

/* realpath() under -std=c11 */
#define _GNU_SOURCE

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks-resources.h"
#include "ks-toolchain.h"
#include "ks-toolchain-private.h"

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

uint64_t
ks_toolchain_memory_limit (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGE_SIZE);
  uint64_t half = pages > 0 && page_size > 0 ? (uint64_t) pages / 2 * (uint64_t) page_size : 0;
  struct rlimit r;

  if (getrlimit (RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY
      && (half == 0 || (uint64_t) r.rlim_cur < half))
    return (uint64_t) r.rlim_cur;
  return half;
}

guint
ks_toolchain_cpu_limit (void)
{
  const char *env = g_getenv ("KS_TOOL_CPU_SECONDS");
  guint64 seconds = 120;
  struct rlimit r;

  if (env != NULL && *env != '\0')
    {
      guint64 v = 0;

      if (g_ascii_string_to_unsigned (env, 10, 1, G_MAXUINT, &v, NULL))
        seconds = v;
      else
        g_warning ("KS_TOOL_CPU_SECONDS=%s is not a number of seconds; using %" G_GUINT64_FORMAT,
                   env, seconds);
    }
  if (getrlimit (RLIMIT_CPU, &r) == 0 && r.rlim_cur != RLIM_INFINITY && r.rlim_cur < seconds)
    seconds = r.rlim_cur;
  return (guint) seconds;
}

typedef struct
{
  uint64_t memory;      /* bytes, 0 for none */
  guint cpu;            /* seconds, 0 for none */
} ToolLimits;

/* In the child, before exec: a process group of its own, so that a
 * cancelled tool can be ended with everything it started (nvcc runs
 * cudafe++, cicc and ptxas under it); and a cap on its data, which each
 * program it starts inherits.  ptxas on a hostile module grows without
 * bound (24 GB for 1M labels): capped, it fails with "Memory allocation
 * failure" and the analysis goes on with estimates.  RLIMIT_DATA, not
 * RLIMIT_AS: it counts what is written to (heap and private mappings),
 * not the address space a program reserves and never touches.  And a cap
 * on the CPU time of each program: SIGXCPU at the soft limit, which the
 * tools do not catch (SIGKILL five seconds later if one did). */
static void
child_setup (gpointer user_data)
{
  const ToolLimits *limits = user_data;
  struct rlimit r;

  setpgid (0, 0);
  if (limits->memory > 0 && getrlimit (RLIMIT_DATA, &r) == 0
      && (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > limits->memory))
    {
      r.rlim_cur = limits->memory;
      if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max)
        r.rlim_cur = r.rlim_max;
      setrlimit (RLIMIT_DATA, &r);
    }
  if (limits->cpu > 0 && getrlimit (RLIMIT_CPU, &r) == 0
      && (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > limits->cpu))
    {
      r.rlim_cur = limits->cpu;
      if (r.rlim_max == RLIM_INFINITY || r.rlim_max > limits->cpu + 5)
        r.rlim_max = limits->cpu + 5;
      setrlimit (RLIMIT_CPU, &r);
    }
}

typedef struct
{
  gboolean done;
  gboolean exited;
} Waiting;

static void
waited_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Waiting *w = user_data;

  w->exited = g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  w->done = TRUE;
}

static gboolean
timed_out_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Waits up to ms milliseconds for proc to end; TRUE when it has */
static gboolean
wait_a_while (GSubprocess *proc,
              guint        ms)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  g_autoptr(GSource) timeout = g_timeout_source_new (ms);
  Waiting w = { FALSE, FALSE };
  gboolean timed_out = FALSE;

  g_main_context_push_thread_default (context);
  g_subprocess_wait_async (proc, stop, waited_cb, &w);
  g_source_set_callback (timeout, timed_out_cb, &timed_out, NULL);
  g_source_attach (timeout, context);
  while (!w.done && !timed_out)
    g_main_context_iteration (context, TRUE);
  if (!w.done)
    {
      /* the wait must finish (cancelled) before w goes away */
      g_cancellable_cancel (stop);
      while (!w.done)
        g_main_context_iteration (context, TRUE);
    }
  g_source_destroy (timeout);
  g_main_context_pop_thread_default (context);
  return w.exited;
}

/* Ends a tool and its children, and waits for the tool */
static void
kill_tool (const KsToolchain *tc,
           GSubprocess       *proc)
{
  const char *id;
  pid_t pid;

  /* A host tool runs in a process group of its own on the host, which a
   * signal from here cannot reach: flatpak-spawn forwards SIGINT to that
   * group (ks-toolchain-host.c) and exits when the tool has.  If it does not
   * in time, killing it makes the session helper send the group SIGINT
   * (--watch-bus). */
  if (tc != NULL && tc->on_host)
    {
      g_subprocess_send_signal (proc, SIGINT);
      if (wait_a_while (proc, 3000))
        return;
    }
  id = g_subprocess_get_identifier (proc);
  pid = id != NULL ? (pid_t) atoi (id) : 0;
  if (pid > 1)
    kill (-pid, SIGKILL);
  g_subprocess_force_exit (proc);
  g_subprocess_wait (proc, NULL, NULL);
}

gboolean
_ks_toolchain_run (const KsToolchain *tc,
                   const char *const *argv,
                   const char        *cwd,
                   GCancellable      *cancellable,
                   int               *exit_status,
                   char             **out,
                   char             **err,
                   GError           **error)
{
  return _ks_toolchain_run_full (tc, argv, cwd, NULL, cancellable, exit_status, out, err, error);
}

/* A tool's output as text: what is not UTF-8 (NUL included) becomes U+FFFD */
static char *
bytes_to_text (GBytes *bytes)
{
  gsize len = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  if (data == NULL)
    return g_strdup ("");
  if (g_utf8_validate_len (data, len, NULL))
    return g_strndup (data, len);
  return g_utf8_make_valid (data, (gssize) len);
}

gboolean
_ks_toolchain_run_full (const KsToolchain *tc,
                        const char *const *argv,
                        const char        *cwd,
                        const char        *path_first,
                        GCancellable      *cancellable,
                        int               *exit_status,
                        char             **out,
                        char             **err,
                        GError           **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GBytes) out_bytes = NULL, err_bytes = NULL;
  g_auto(GStrv) host_argv = NULL;
  g_autofree char *path_env = NULL;
  ToolLimits limits = { 0, 0 };

  if (path_first != NULL)
    {
      const char *rest = tc != NULL && tc->on_host ? tc->host_path : g_getenv ("PATH");

      path_env = rest != NULL && *rest != '\0' ? g_strconcat (path_first, ":", rest, NULL)
                                               : g_strdup (path_first);
    }
  if (tc != NULL && tc->on_host)
    {
      host_argv = _ks_toolchain_host_argv (tc, argv, cwd, path_env);
      argv = (const char *const *) host_argv;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (path_env != NULL && (tc == NULL || !tc->on_host))
    g_subprocess_launcher_setenv (launcher, "PATH", path_env, TRUE);
  if (cwd != NULL)
    {
      g_subprocess_launcher_set_cwd (launcher, cwd);
      /* Whatever temporary files the tool makes stay in our directory */
      g_subprocess_launcher_setenv (launcher, "TMPDIR", cwd, TRUE);
    }
  /* Messages in English, which is what the parsers read */
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  /* On the host the tool is not our child: flatpak-spawn is, and a cap on
   * it would not reach the tool */
  if (tc == NULL || !tc->on_host)
    {
      limits.memory = ks_toolchain_memory_limit ();
      limits.cpu = ks_toolchain_cpu_limit ();
    }
  g_subprocess_launcher_set_child_setup (launcher, child_setup, &limits, NULL);

  proc = g_subprocess_launcher_spawnv (launcher, argv, error);
  if (proc == NULL)
    return FALSE;

  /* Bytes, then text: nvcc echoes the lines it complains of, and those of
   * a binary .cu are not UTF-8, which g_subprocess_communicate_utf8 would
   * refuse, losing every message (and naming a garbage offset) */
  if (!g_subprocess_communicate (proc, NULL, cancellable, &out_bytes, &err_bytes, &local_error))
    {
      kill_tool (tc, proc);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  /* Over its CPU time: the tool itself (SIGXCPU), or a program nvcc ran,
   * which nvcc reports by the signal's description (and exits with the
   * shell's 128 + SIGXCPU) */
  if (limits.cpu > 0
      && ((g_subprocess_get_if_signaled (proc) && g_subprocess_get_term_sig (proc) == SIGXCPU)
          || (g_subprocess_get_if_exited (proc)
              && g_subprocess_get_exit_status (proc) == 128 + SIGXCPU)
          || (g_subprocess_get_if_exited (proc) && g_subprocess_get_exit_status (proc) != 0
              && err_bytes != NULL && g_bytes_get_size (err_bytes) > 0
              && g_strstr_len (g_bytes_get_data (err_bytes, NULL), (gssize) g_bytes_get_size (err_bytes),
                               "CPU time limit exceeded") != NULL)))
    {
      g_autofree char *name = g_path_get_basename (argv[0]);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, KS_TOOLCHAIN_CPU_LIMIT_MESSAGE,
                   name, limits.cpu);
      return FALSE;
    }
  if (out != NULL)
    *out = bytes_to_text (out_bytes);
  if (err != NULL)
    *err = bytes_to_text (err_bytes);

  if (g_subprocess_get_if_exited (proc))
    *exit_status = g_subprocess_get_exit_status (proc);
  else
    *exit_status = -1;
  return TRUE;
}

/* The host compiler each nvcc was told to use (-ccbin), by nvcc path:
 * learnt from Debian's nvcc once, not from a failed compile each time */
static GMutex ccbin_lock;
static GHashTable *ccbin_for;

static char *
remembered_ccbin (const char *nvcc)
{
  char *ccbin = NULL;

  g_mutex_lock (&ccbin_lock);
  if (ccbin_for != NULL)
    ccbin = g_strdup (g_hash_table_lookup (ccbin_for, nvcc));
  g_mutex_unlock (&ccbin_lock);
  return ccbin;
}

static void
remember_ccbin (const char *nvcc,
                const char *ccbin)
{
  g_mutex_lock (&ccbin_lock);
  if (ccbin_for == NULL)
    ccbin_for = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (ccbin_for, g_strdup (nvcc), g_strdup (ccbin));
  g_mutex_unlock (&ccbin_lock);
}

#define NO_HOST_COMPILER "No supported gcc/g++ host compiler found"

/* Debian's g++ wrapper, when only clang satisfies the package: "ERROR: No
 * supported gcc/g++ host compiler found, but clang-14 is available." ->
 * "clang-14"; NULL otherwise */
static char *
suggested_clang (const char *err)
{
  const char *s = err != NULL ? strstr (err, NO_HOST_COMPILER ", but ") : NULL;
  size_t n;

  if (s == NULL)
    return NULL;
  s += strlen (NO_HOST_COMPILER ", but ");
  n = strspn (s, "abcdefghijklmnopqrstuvwxyz0123456789.-");
  /* a program name, never something that could be read as an option */
  if (!g_str_has_prefix (s, "clang") || n > 32 || strncmp (s + n, " is available", 13) != 0)
    return NULL;
  return g_strndup (s, n);
}

gboolean
_ks_toolchain_can_compile (const KsToolchain *tc,
                           const char        *arch,
                           GError           **error)
{
  if (tc->paths[KS_TOOL_NVCC] == NULL)
    {
      g_autofree char *where = _ks_toolchain_where (tc);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "nvcc was not found (%s): install the CUDA toolkit to compile CUDA, or open PTX",
                   where);
      return FALSE;
    }
  if (!_ks_toolchain_arch_is_valid (arch))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return FALSE;
    }
  return TRUE;
}

char *
_ks_toolchain_cuda_name (const char  *path,
                         char       **abs_path,
                         char       **dir)
{
  char *base;

  *abs_path = g_canonicalize_filename (path, NULL);
  *dir = g_path_get_dirname (*abs_path);
  base = g_path_get_basename (*abs_path);
  if (!g_str_has_suffix (base, ".cu"))
    {
      char *b = g_strconcat (base, ".cu", NULL);

      g_free (base);
      base = b;
    }
  return base;
}

char *
_ks_toolchain_stage_source (const KsToolchain *tc,
                            const char        *tmpl,
                            const char        *abs_path,
                            const char        *name,
                            const char        *text,
                            char             **src,
                            GError           **error)
{
  g_autofree char *tmpdir = _ks_toolchain_make_tmp (tc, tmpl, error);
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (tmpdir == NULL)
    return NULL;
  *src = g_build_filename (tmpdir, name, NULL);
  if ((text == NULL && !g_file_get_contents (abs_path, &contents, &len, error))
      || !g_file_set_contents (*src, text ? text : contents, text ? -1 : (gssize) len, error))
    {
      _ks_toolchain_remove_tree (tmpdir);
      g_clear_pointer (src, g_free);
      return NULL;
    }
  return g_steal_pointer (&tmpdir);
}

gboolean
_ks_toolchain_run_nvcc (const KsToolchain *tc,
                        const KsToolkit   *kit,
                        const char *const *argv,
                        const char        *cwd,
                        GCancellable      *cancellable,
                        int               *exit_status,
                        char             **out,
                        char             **err,
                        GError           **error)
{
  g_autofree char *ptxas_dir = NULL, *ccbin = NULL;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  /* Its own ptxas first on PATH: Debian's nvcc has none beside it, and
   * would run the first one on PATH, maybe another toolkit's */
  if (kit != NULL && kit->paths[KS_TOOL_PTXAS] != NULL)
    ptxas_dir = g_path_get_dirname (kit->paths[KS_TOOL_PTXAS]);
  ccbin = remembered_ccbin (argv[0]);

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      g_autoptr(GPtrArray) v = g_ptr_array_new ();
      g_autofree char *clang = NULL;

      g_ptr_array_add (v, (gpointer) argv[0]);
      if (ccbin != NULL)
        {
          g_ptr_array_add (v, (gpointer) "-ccbin");
          g_ptr_array_add (v, ccbin);
        }
      for (guint i = 1; argv[i] != NULL; i++)
        g_ptr_array_add (v, (gpointer) argv[i]);
      g_ptr_array_add (v, NULL);

      if (!_ks_toolchain_run_full (tc, (const char *const *) v->pdata, cwd, ptxas_dir, cancellable,
                                   exit_status, out, err, error))
        return FALSE;
      if (*exit_status == 0 || ccbin != NULL || (clang = suggested_clang (*err)) == NULL)
        break;
      /* Debian's nvcc names the clang its package brought: use it, and
       * from now on */
      remember_ccbin (argv[0], clang);
      ccbin = g_steal_pointer (&clang);
      g_clear_pointer (out, g_free);
      g_clear_pointer (err, g_free);
    }

  if (*exit_status != 0 && *err != NULL && strstr (*err, NO_HOST_COMPILER) != NULL)
    {
      g_autofree char *name = _ks_toolkit_name (kit);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s's nvcc (%s) found no C++ host compiler it supports%s%s%s: install one "
                   "(on Debian 12, the package g++-11 or clang-14: apt install g++-11)",
                   name, argv[0], ccbin != NULL ? " (not even " : "", ccbin != NULL ? ccbin : "",
                   ccbin != NULL ? ")" : "");
      g_clear_pointer (out, g_free);
      g_clear_pointer (err, g_free);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_toolkit_disabled (void)
{
  const char *env = g_getenv ("KS_NO_TOOLKIT");

  return env != NULL && env[0] != '\0' && strcmp (env, "0") != 0;
}

KsToolchain *
ks_toolchain_find (const char *preferred_dir)
{
  KsToolchain *tc;

  /* In a sandbox, the host's toolkits; the sandbox's own search only when
   * the host cannot be reached */
  if (ks_toolchain_in_flatpak ())
    {
      g_autofree char *host_error = NULL;

      tc = g_new0 (KsToolchain, 1);
      if (_ks_toolchain_find_on_host (tc, preferred_dir))
        return tc;
      host_error = g_steal_pointer (&tc->host_error);
      ks_toolchain_free (tc);
      tc = _ks_toolchain_find_local (preferred_dir, "");
      tc->host_error = g_steal_pointer (&host_error);
      return tc;
    }
  return _ks_toolchain_find_local (preferred_dir, "");
}

void
ks_toolchain_free (KsToolchain *tc)
{
  if (tc == NULL)
    return;
  for (guint t = 0; t < KS_N_TOOLS; t++)
    g_free (tc->paths[t]);
  g_free (tc->version);
  g_free (tc->spawn);
  g_free (tc->host_error);
  g_free (tc->host_path);
  g_clear_pointer (&tc->toolkits, g_ptr_array_unref);
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
gboolean
_ks_toolchain_arch_is_valid (const char *arch)
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

void
_ks_toolchain_remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d != NULL)
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
          _ks_toolchain_remove_tree (path);
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
  g_autofree char *lowered = NULL;
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
      g_autofree char *where = _ks_toolchain_where (tc);

      g_set_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_NOT_FOUND,
                   "ptxas was not found (%s)", where);
      return NULL;
    }
  if (!_ks_toolchain_arch_is_valid (arch))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return NULL;
    }

  tmpdir = _ks_toolchain_make_tmp (tc, "kernelscope-ptxas-XXXXXX", error);
  if (tmpdir == NULL)
    return NULL;

  /* Absolute, because ptxas runs in tmpdir; and so a name that starts
   * with '-' is not an option */
  abs_path = g_canonicalize_filename (ptx_path, NULL);
  {
    g_autofree char *contents = NULL, *fitted = NULL;
    g_autofree char *copy = g_build_filename (tmpdir, "kernel.ptx", NULL);

    /* PTX newer than this ptxas knows is lowered as for SASS
     * (ks-toolchain-sass.c); a target it does not know is said here.  A
     * file that cannot be read here is left to ptxas to complain about,
     * unless a host ptxas needs a copy. */
    if (!g_file_get_contents (abs_path, &contents, NULL, tc->on_host ? error : NULL))
      {
        if (tc->on_host)
          {
            _ks_toolchain_remove_tree (tmpdir);
            return NULL;
          }
      }
    else if ((fitted = ks_toolchain_fit_ptx (tc->version_major, tc->version_minor, contents, arch,
                                             &lowered, error)) == NULL)
      {
        _ks_toolchain_remove_tree (tmpdir);
        return NULL;
      }
    /* The file may be in the sandbox's own /tmp: a host ptxas reads a copy */
    if (tc->on_host || lowered != NULL)
      {
        if (!g_file_set_contents (copy, fitted, -1, error))
          {
            _ks_toolchain_remove_tree (tmpdir);
            return NULL;
          }
        g_free (abs_path);
        abs_path = g_steal_pointer (&copy);
      }
  }
  arch_opt = g_strconcat ("-arch=", arch, NULL);
  argv[0] = tc->paths[KS_TOOL_PTXAS];
  argv[1] = "-v";
  argv[2] = arch_opt;
  argv[3] = "-o";
  argv[4] = "/dev/null";
  argv[5] = abs_path;
  argv[6] = NULL;

  ran = _ks_toolchain_run (tc, argv, tmpdir, cancellable, &status, &out, &err, error);
  _ks_toolchain_remove_tree (tmpdir);
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
      if (lowered != NULL)
        g_prefix_error (error, "ptxas %u.%u refused the PTX with its %s, the newest it knows: ",
                        tc->version_major, tc->version_minor, lowered);
      else if (err != NULL && strstr (err, "Memory allocation failure") != NULL)
        {
          g_autofree char *limit = g_format_size (ks_toolchain_memory_limit ());

          g_prefix_error (error, "ptxas ran out of memory (a tool may use %s here, at most "
                          "half the machine's memory): ", limit);
        }
      return NULL;
    }
  if (res == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&parse_error));
      return NULL;
    }

  return g_steal_pointer (&res);
}

void
ks_diagnostic_clear (gpointer diagnostic)
{
  KsDiagnostic *d = diagnostic;

  g_clear_pointer (&d->file, g_free);
  g_clear_pointer (&d->message, g_free);
}

GArray *
ks_diagnostic_array_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (KsDiagnostic));

  g_array_set_clear_func (a, ks_diagnostic_clear);
  return a;
}

static char *
user_file_name (const char *file,
                const char *temp_name,
                const char *user_name)
{
  if (temp_name != NULL && user_name != NULL
      && (g_strcmp0 (file, temp_name) == 0 || g_str_has_suffix (file, temp_name)))
    return g_strdup (user_name);
  return g_strdup (file);
}

/* The 1-based column of nvcc's caret: nvcc quotes the source line
 * without its leading blanks, indented by four spaces */
static uint32_t
caret_column (const char *quoted,
              const char *caret_line,
              const char *source,
              uint32_t    line)
{
  const char *caret = strchr (caret_line, '^');
  size_t offset;

  if (caret == NULL || strspn (caret_line, " ") != (size_t) (caret - caret_line)
      || caret - caret_line < 4 || strncmp (quoted, "    ", 4) != 0)
    return 0;
  offset = (size_t) (caret - caret_line) - 4;
  if (source != NULL && line > 0)
    {
      const char *l = source, *end, *found;
      g_autofree char *src_line = NULL;

      for (uint32_t i = 1; i < line && l != NULL; i++)
        {
          l = strchr (l, '\n');
          if (l != NULL)
            l++;
        }
      if (l != NULL)
        {
          end = strchr (l, '\n');
          src_line = end ? g_strndup (l, (gsize) (end - l)) : g_strdup (l);
          g_strchomp (src_line);
          found = *(quoted + 4) ? strstr (src_line, quoted + 4) : NULL;
          if (found != NULL)
            return (uint32_t) MIN ((size_t) (found - src_line) + offset + 1, G_MAXUINT32);
        }
    }
  return (uint32_t) MIN (offset + 1, G_MAXUINT32);
}

guint
ks_toolchain_parse_nvcc_messages (const char *text,
                                  const char *source,
                                  const char *temp_name,
                                  const char *user_name,
                                  GArray     *diagnostics)
{
  /* nvcc's front end: FILE(LINE): error: MSG, warning #177-D: MSG,
   * remark, and "catastrophic error"; the host compiler (preprocessor):
   * FILE:LINE:COL: fatal error: MSG */
  static gsize once;
  static GRegex *nvcc_re, *gcc_re;
  g_auto(GStrv) lines = NULL;
  guint n_errors = 0;

  if (g_once_init_enter (&once))
    {
      gcc_re = g_regex_new ("^(.+?):(\\d+):(\\d+): (fatal error|error|warning|note): (.*)$",
                            G_REGEX_OPTIMIZE, 0, NULL);
      nvcc_re = g_regex_new ("^(.+?)\\((\\d+)\\): (catastrophic error|error|"
                             "warning|remark)(?: #[\\w-]+)?: (.*)$", G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&once, 1);
    }
  g_return_val_if_fail (text != NULL, 0);
  g_return_val_if_fail (diagnostics != NULL, 0);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) mi = NULL;
      KsDiagnostic d = { 0 };
      g_autofree char *file = NULL, *line = NULL, *kind = NULL, *col = NULL;

      g_strchomp (lines[i]);
      if (g_regex_match (nvcc_re, lines[i], 0, &mi))
        {
          file = g_match_info_fetch (mi, 1);
          line = g_match_info_fetch (mi, 2);
          kind = g_match_info_fetch (mi, 3);
          d.message = g_match_info_fetch (mi, 4);
          if (lines[i + 1] != NULL && lines[i + 2] != NULL)
            {
              uint32_t l = (uint32_t) MIN (g_ascii_strtoull (line, NULL, 10), G_MAXUINT32);

              d.column = caret_column (lines[i + 1], lines[i + 2], source, l);
            }
        }
      else
        {
          g_clear_pointer (&mi, g_match_info_free);
          if (!g_regex_match (gcc_re, lines[i], 0, &mi))
            continue;
          file = g_match_info_fetch (mi, 1);
          line = g_match_info_fetch (mi, 2);
          col = g_match_info_fetch (mi, 3);
          kind = g_match_info_fetch (mi, 4);
          d.message = g_match_info_fetch (mi, 5);
          d.column = (uint32_t) MIN (g_ascii_strtoull (col, NULL, 10), G_MAXUINT32);
        }
      d.file = user_file_name (file, temp_name, user_name);
      d.line = (uint32_t) MIN (g_ascii_strtoull (line, NULL, 10), G_MAXUINT32);
      if (strstr (kind, "error") != NULL)
        {
          d.severity = KS_DIAGNOSTIC_ERROR;
          n_errors++;
        }
      else if (g_str_equal (kind, "warning"))
        d.severity = KS_DIAGNOSTIC_WARNING;
      else
        d.severity = KS_DIAGNOSTIC_NOTE;
      g_array_append_val (diagnostics, d);
    }
  return n_errors;
}

char *
ks_toolchain_compile_ptx (const KsToolchain *tc,
                          const char        *path,
                          const char        *text,
                          const char        *arch,
                          GArray            *diagnostics,
                          GCancellable      *cancellable,
                          GError           **error)
{
  g_autofree char *tmpdir = NULL, *base = NULL, *src = NULL, *ptx = NULL;
  g_autofree char *dir = NULL, *inc = NULL, *arch_opt = NULL;
  g_autofree char *out = NULL, *err = NULL, *result = NULL;
  g_autofree char *abs_path = NULL;
  const char *argv[10];
  int status = 0;
  gboolean ran;
  guint n_errors;

  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (diagnostics != NULL, NULL);

  if (!_ks_toolchain_can_compile (tc, arch, error))
    return NULL;
  base = _ks_toolchain_cuda_name (path, &abs_path, &dir);
  tmpdir = _ks_toolchain_stage_source (tc, "kernelscope-nvcc-XXXXXX", abs_path, base, text, &src,
                                       error);
  if (tmpdir == NULL)
    return NULL;
  ptx = g_build_filename (tmpdir, "out.ptx", NULL);

  inc = g_strconcat ("-I", dir, NULL);
  arch_opt = g_strconcat ("-arch=", arch, NULL);
  argv[0] = tc->paths[KS_TOOL_NVCC];
  argv[1] = "-ptx";
  argv[2] = "-lineinfo";
  argv[3] = arch_opt;
  argv[4] = inc;
  argv[5] = "-o";
  argv[6] = ptx;
  argv[7] = src;
  argv[8] = NULL;

  ran = _ks_toolchain_run_nvcc (tc, _ks_toolchain_compiling (tc), argv, tmpdir, cancellable,
                                &status, &out, &err, error);
  if (ran)
    {
      g_autofree char *both = g_strconcat (out ? out : "", err ? err : "", NULL);

      g_autofree char *written = NULL;

      g_file_get_contents (src, &written, NULL, NULL);
      n_errors = ks_toolchain_parse_nvcc_messages (both, written, src, path, diagnostics);
      if (status != 0)
        {
          if (n_errors > 0)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                         g_dngettext (GETTEXT_PACKAGE, "%s: %u error in the CUDA code",
                                      "%s: %u errors in the CUDA code", n_errors),
                         path, n_errors);
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                         "%s: nvcc failed (exit status %d):\n%s", path, status, g_strstrip (both));
          ran = FALSE;
        }
      else if (!g_file_get_contents (ptx, &result, NULL, error))
        ran = FALSE;
      else
        {
          /* `.file 1 "/tmp/.../k.cu"` names the private copy: name the
           * user's file, as the SASS's line records do, so that PTX and
           * SASS lines meet on the same CUDA file */
          g_autoptr(GString) s = g_string_new (result);
          g_autofree char *from = g_strdup_printf ("\"%s\"", src);
          g_autofree char *to = g_strdup_printf ("\"%s\"", abs_path);

          g_string_replace (s, from, to, 0);
          g_free (result);
          result = g_string_free (g_steal_pointer (&s), FALSE);
        }
    }
  _ks_toolchain_remove_tree (tmpdir);
  return ran ? g_steal_pointer (&result) : NULL;
}
