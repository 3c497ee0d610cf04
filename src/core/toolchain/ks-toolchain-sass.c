/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain-sass.c: SASS made from the code being analysed.
 *
 * A cubin from the CUDA (nvcc -cubin -lineinfo) or from the PTX (ptxas
 * -lineinfo) for one architecture, in a private temporary folder, and its
 * listing from nvdisasm -c -g -hex (code only, line records, hex words) or,
 * without nvdisasm, cuobjdump -sass (no line records).  Argument vectors
 * only, never a shell; cancellable like the compile. */

#include <glib/gstdio.h>
#include <string.h>

#include "ks-toolchain.h"
#include "ks-toolchain-private.h"

KsTool
ks_toolchain_sass_tool (const KsToolchain *tc)
{
  g_return_val_if_fail (tc != NULL, KS_N_TOOLS);

  /* nvdisasm first: only it prints the line records that link SASS to CUDA */
  if (tc->paths[KS_TOOL_NVDISASM] != NULL)
    return KS_TOOL_NVDISASM;
  if (tc->paths[KS_TOOL_CUOBJDUMP] != NULL)
    return KS_TOOL_CUOBJDUMP;
  return KS_N_TOOLS;
}

/* A tool's messages, cut to a few lines for a pane or a JSON member */
static char *
tool_messages (const char *out,
               const char *err)
{
  g_autofree char *both = g_strconcat (err ? err : "", err && *err && out && *out ? "\n" : "",
                                       out ? out : "", NULL);
  g_auto(GStrv) lines = g_strsplit (g_strstrip (both), "\n", -1);
  g_autoptr(GString) s = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL && n < 8; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      g_string_append_printf (s, "%s%s", n++ ? "\n" : "", lines[i]);
    }
  if (s->len == 0)
    g_string_append (s, "(no message)");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Runs argv in dir; FALSE with an error naming the program when it cannot
 * start, is cancelled or fails.  out: (optional) its standard output */
static gboolean
run_step (const KsToolchain *tc,
          const char *const *argv,
          const char        *dir,
          char             **out,
          GCancellable      *cancellable,
          GError           **error)
{
  g_autofree char *o = NULL, *e = NULL;
  g_autofree char *name = g_path_get_basename (argv[0]);
  int status = 0;

  if (!_ks_toolchain_run (tc, argv, dir, cancellable, &status, &o, &e, error))
    return FALSE;
  if (status != 0)
    {
      g_autofree char *msg = tool_messages (o, e);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s failed (exit status %d): %s", name,
                   status, msg);
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&o);
  return TRUE;
}

static void
set_no_disassembler (const KsToolchain *tc,
                     GError           **error)
{
  g_autofree char *where = _ks_toolchain_where (tc);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "neither nvdisasm nor cuobjdump was found (%s)", where);
}

/* The listing of the cubin at abs_path, which the tool sees there */
static char *
disassemble_at (const KsToolchain *tc,
                KsTool             which,
                const char        *abs_path,
                GCancellable      *cancellable,
                GError           **error)
{
  g_autofree char *dir = g_path_get_dirname (abs_path);
  g_autofree char *out = NULL;
  const char *argv[6];

  argv[0] = tc->paths[which];
  if (which == KS_TOOL_NVDISASM)
    {
      argv[1] = "-c";
      argv[2] = "-g";
      argv[3] = "-hex";
      argv[4] = abs_path;
      argv[5] = NULL;
    }
  else
    {
      argv[1] = "-sass";
      argv[2] = abs_path;
      argv[3] = NULL;
    }
  if (!run_step (tc, argv, dir, &out, cancellable, error))
    return NULL;
  return g_steal_pointer (&out);
}

char *
ks_toolchain_disassemble (const KsToolchain *tc,
                          const char        *cubin_path,
                          KsTool            *tool,
                          GCancellable      *cancellable,
                          GError           **error)
{
  KsTool which;
  g_autofree char *abs_path = NULL, *tmpdir = NULL, *copy = NULL, *contents = NULL;
  char *listing;
  gsize len = 0;

  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (cubin_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  which = ks_toolchain_sass_tool (tc);
  if (tool != NULL)
    *tool = which;
  if (which == KS_N_TOOLS)
    {
      set_no_disassembler (tc, error);
      return NULL;
    }
  /* Absolute, so a name that starts with '-' is not an option */
  abs_path = g_canonicalize_filename (cubin_path, NULL);
  if (!tc->on_host)
    return disassemble_at (tc, which, abs_path, cancellable, error);

  /* The file may be in the sandbox's own /tmp: the host tool reads a copy */
  tmpdir = _ks_toolchain_make_tmp (tc, "kernelscope-sass-XXXXXX", error);
  if (tmpdir == NULL)
    return NULL;
  copy = g_build_filename (tmpdir, "kernel.cubin", NULL);
  if (g_file_get_contents (abs_path, &contents, &len, error)
      && g_file_set_contents (copy, contents, (gssize) len, error))
    listing = disassemble_at (tc, which, copy, cancellable, error);
  else
    listing = NULL;
  _ks_toolchain_remove_tree (tmpdir);
  return listing;
}

char *
ks_toolchain_make_sass (const KsToolchain *tc,
                        const char        *path,
                        const char        *text,
                        gboolean           cuda,
                        const char        *arch,
                        KsTool            *tool,
                        GCancellable      *cancellable,
                        GError           **error)
{
  g_autofree char *tmpdir = NULL, *abs_path = NULL, *base = NULL, *dir = NULL;
  g_autofree char *src = NULL, *cubin = NULL, *arch_opt = NULL, *inc = NULL;
  g_autofree char *listing = NULL;
  gboolean ok;

  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (tool != NULL)
    *tool = ks_toolchain_sass_tool (tc);
  if (ks_toolchain_sass_tool (tc) == KS_N_TOOLS)
    {
      set_no_disassembler (tc, error);
      return NULL;
    }
  /* A cubin is for one real architecture: sm_XX, not compute_XX */
  if (!g_str_has_prefix (arch, "sm_") || !_ks_toolchain_arch_is_valid (arch))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return NULL;
    }
  if (tc->paths[cuda ? KS_TOOL_NVCC : KS_TOOL_PTXAS] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "making a cubin from %s needs %s, which was not found", cuda ? "CUDA" : "PTX",
                   cuda ? "nvcc" : "ptxas");
      return NULL;
    }

  tmpdir = _ks_toolchain_make_tmp (tc, "kernelscope-sass-XXXXXX", error);
  if (tmpdir == NULL)
    return NULL;
  abs_path = g_canonicalize_filename (path ? path : "kernel", NULL);
  base = g_path_get_basename (abs_path);
  dir = g_path_get_dirname (abs_path);
  if (cuda && !g_str_has_suffix (base, ".cu"))
    {
      /* nvcc goes by the extension */
      char *b = g_strconcat (base, ".cu", NULL);

      g_free (base);
      base = b;
    }
  src = g_build_filename (tmpdir, cuda ? base : "kernel.ptx", NULL);
  cubin = g_build_filename (tmpdir, "kernel.cubin", NULL);
  arch_opt = g_strconcat ("-arch=", arch, NULL);
  ok = g_file_set_contents (src, text, -1, error);
  if (ok && cuda)
    {
      const char *argv[] = { tc->paths[KS_TOOL_NVCC], "-cubin", "-lineinfo", arch_opt, NULL, "-o",
                             cubin, src, NULL };

      inc = g_strconcat ("-I", dir, NULL);
      argv[4] = inc;
      ok = run_step (tc, argv, tmpdir, NULL, cancellable, error);
    }
  else if (ok)
    {
      const char *argv[] = { tc->paths[KS_TOOL_PTXAS], "-lineinfo", arch_opt, "-o", cubin, src,
                             NULL };

      ok = run_step (tc, argv, tmpdir, NULL, cancellable, error);
    }
  if (ok)
    listing = disassemble_at (tc, ks_toolchain_sass_tool (tc), cubin, cancellable, error);
  _ks_toolchain_remove_tree (tmpdir);
  if (listing == NULL)
    return NULL;

  if (cuda)
    {
      /* The line records name the private copy: name the user's file */
      g_autoptr(GString) s = g_string_new (listing);
      g_autofree char *from = g_strdup_printf ("\"%s\"", src);
      g_autofree char *to = g_strdup_printf ("\"%s\"", path ? abs_path : base);

      g_string_replace (s, from, to, 0);
      g_free (listing);
      listing = g_string_free (g_steal_pointer (&s), FALSE);
    }
  return g_steal_pointer (&listing);
}
