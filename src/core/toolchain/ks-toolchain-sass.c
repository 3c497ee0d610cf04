/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain-sass.c: SASS made from the code being analysed.
 *
 * A cubin from the CUDA (nvcc -cubin -lineinfo) or from the PTX (ptxas
 * -lineinfo) for one architecture, in a private temporary folder, and its
 * listing from nvdisasm -c -g -hex (code only, line records, hex words) or,
 * without nvdisasm, cuobjdump -sass (no line records).  Argument vectors
 * only, never a shell; cancellable like the compile.  All with the programs
 * of one toolkit (tc->sass, ks-toolchain-find.c), whose ptxas may be older
 * than the PTX: ks_toolchain_fit_ptx() says what it cannot know, and
 * lowers a `.version` it does not know yet. */

#include <glib/gstdio.h>
#include <string.h>

#include "ks-toolchain.h"
#include "ks-toolchain-private.h"

/* NVIDIA's table of PTX ISA versions and the CUDA releases that brought
 * them (the PTX ISA's release notes, "PTX Release History"): 12.6 kept
 * 8.5, and 8.6 came with 12.7 */
static const struct
{
  guint8 cuda_major, cuda_minor, isa_major, isa_minor;
} isa_table[] = {
  { 9, 0, 6, 0 }, { 9, 1, 6, 1 }, { 9, 2, 6, 2 }, { 10, 0, 6, 3 }, { 10, 1, 6, 4 },
  { 10, 2, 6, 5 }, { 11, 0, 7, 0 }, { 11, 1, 7, 1 }, { 11, 2, 7, 2 }, { 11, 3, 7, 3 },
  { 11, 4, 7, 4 }, { 11, 5, 7, 5 }, { 11, 6, 7, 6 }, { 11, 7, 7, 7 }, { 11, 8, 7, 8 },
  { 12, 0, 8, 0 }, { 12, 1, 8, 1 }, { 12, 2, 8, 2 }, { 12, 3, 8, 3 }, { 12, 4, 8, 4 },
  { 12, 5, 8, 5 }, { 12, 6, 8, 5 }, { 12, 7, 8, 6 }, { 12, 8, 8, 7 }, { 12, 9, 8, 8 },
  { 13, 0, 9, 0 }, { 13, 1, 9, 1 },
};

/* The PTX ISA version each target came with (the PTX ISA's "PTX Target
 * Architecture" notes); an 'a' target needs 8.0 at least, an 'f' one 8.8 */
static const struct
{
  guint16 sm;
  guint8 isa_major, isa_minor;
} target_table[] = {
  { 50, 4, 0 }, { 52, 4, 0 }, { 53, 4, 2 }, { 60, 5, 0 }, { 61, 5, 0 }, { 62, 5, 0 },
  { 70, 6, 0 }, { 72, 6, 1 }, { 75, 6, 3 }, { 80, 7, 0 }, { 86, 7, 1 }, { 87, 7, 4 },
  { 89, 7, 8 }, { 90, 7, 8 }, { 100, 8, 6 }, { 101, 8, 6 }, { 103, 8, 8 }, { 110, 9, 0 },
  { 120, 8, 7 }, { 121, 8, 8 },
};

#define ISA(major, minor) ((guint) (major) * 100 + (guint) (minor))

gboolean
ks_toolchain_ptx_isa_for (guint  cuda_major,
                          guint  cuda_minor,
                          guint *isa_major,
                          guint *isa_minor)
{
  for (guint i = 0; i < G_N_ELEMENTS (isa_table); i++)
    if (isa_table[i].cuda_major == cuda_major && isa_table[i].cuda_minor == cuda_minor)
      {
        if (isa_major != NULL)
          *isa_major = isa_table[i].isa_major;
        if (isa_minor != NULL)
          *isa_minor = isa_table[i].isa_minor;
        return TRUE;
      }
  return FALSE;
}

/* The first CUDA release of a PTX ISA version, for a message; FALSE when
 * the table has none */
static gboolean
cuda_for_isa (guint  isa,
              guint *cuda_major,
              guint *cuda_minor)
{
  for (guint i = 0; i < G_N_ELEMENTS (isa_table); i++)
    if (ISA (isa_table[i].isa_major, isa_table[i].isa_minor) >= isa)
      {
        *cuda_major = isa_table[i].cuda_major;
        *cuda_minor = isa_table[i].cuda_minor;
        return TRUE;
      }
  return FALSE;
}

/* "sm_100a" -> 100 and 'a'; FALSE when it is not sm_N */
static gboolean
parse_sm (const char *arch,
          guint      *sm,
          char       *suffix)
{
  guint64 n;
  char *end;

  if (!g_str_has_prefix (arch, "sm_") || !g_ascii_isdigit (arch[3]))
    return FALSE;
  n = g_ascii_strtoull (arch + 3, &end, 10);
  if (n > 9999)
    return FALSE;
  *sm = (guint) n;
  *suffix = (*end == 'a' || *end == 'f') ? *end : '\0';
  return TRUE;
}

/* Whether CUDA major.minor's ptxas knows `arch` (sm_N[a|f]); the PTX's
 * version (nullable, "9.0") goes into the message */
static gboolean
check_target (guint        cuda_major,
              guint        cuda_minor,
              guint        kit_isa,
              const char  *arch,
              const char  *ptx_version,
              GError     **error)
{
  g_autofree char *ptx = ptx_version != NULL ? g_strdup_printf (" (the PTX is .version %s)",
                                                                ptx_version)
                                             : g_strdup ("");
  guint sm = 0, need = 0, cm = 0, cn = 0;
  char suffix = '\0';

  if (!parse_sm (arch, &sm, &suffix))
    return TRUE;
  /* CUDA 13.0 left out Maxwell, Pascal and Volta, and named sm_101 sm_110 */
  if (cuda_major >= 13 && (sm < 75 || sm == 101))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "CUDA %u.%u's ptxas no longer makes code for %s%s: a toolkit of CUDA 12 "
                   "does", cuda_major, cuda_minor, arch, ptx);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (target_table); i++)
    if (target_table[i].sm == sm)
      need = ISA (target_table[i].isa_major, target_table[i].isa_minor);
  /* a target the table does not have: ptxas judges */
  if (need == 0)
    return TRUE;
  if (suffix == 'a')
    need = MAX (need, ISA (8, 0));
  else if (suffix == 'f')
    need = MAX (need, ISA (8, 8));
  if (need <= kit_isa)
    return TRUE;
  if (cuda_for_isa (need, &cm, &cn))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                 "CUDA %u.%u's ptxas does not know %s%s: it came with PTX ISA %u.%u, in CUDA "
                 "%u.%u", cuda_major, cuda_minor, arch, ptx, need / 100, need % 100, cm, cn);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                 "CUDA %u.%u's ptxas does not know %s%s: it came with PTX ISA %u.%u",
                 cuda_major, cuda_minor, arch, ptx, need / 100, need % 100);
  return FALSE;
}

/* The PTX's header: where its `.version X.Y`'s number is (offset, length),
 * and the first target of `.target` ("sm_90a"), before the first thing
 * that is neither a directive of the header nor a comment */
static void
scan_header (const char *ptx,
             gssize     *version_at,
             gsize      *version_len,
             char      **target)
{
  const char *p = ptx;
  gboolean in_comment = FALSE;

  *version_at = -1;
  *version_len = 0;
  *target = NULL;
  while (*p != '\0')
    {
      const char *eol = strchr (p, '\n'), *q;
      gsize n = eol != NULL ? (gsize) (eol - p) : strlen (p);

      q = p;
      while (q < p + n && g_ascii_isspace (*q))
        q++;
      if (in_comment)
        {
          const char *close = g_strstr_len (q, (gssize) (p + n - q), "*/");

          in_comment = close == NULL;
        }
      else if (g_str_has_prefix (q, "/*"))
        in_comment = g_strstr_len (q + 2, (gssize) (p + n - q - 2), "*/") == NULL;
      else if (g_str_has_prefix (q, ".version") && g_ascii_isspace (q[8]) && *version_at < 0)
        {
          q += 8;
          while (q < p + n && (*q == ' ' || *q == '\t'))
            q++;
          *version_at = q - ptx;
          *version_len = strspn (q, "0123456789.");
        }
      else if (g_str_has_prefix (q, ".target") && g_ascii_isspace (q[7]) && *target == NULL)
        {
          q += 7;
          while (q < p + n && (*q == ' ' || *q == '\t'))
            q++;
          *target = g_strndup (q, strspn (q, "abcdefghijklmnopqrstuvwxyz0123456789_"));
        }
      else if (q < p + n && !g_str_has_prefix (q, "//") && !g_str_has_prefix (q, ".address_size"))
        {
          if (*version_at >= 0 || *q != '.')
            break;
        }
      if (eol == NULL)
        break;
      p = eol + 1;
    }
}

char *
ks_toolchain_fit_ptx (guint        cuda_major,
                      guint        cuda_minor,
                      const char  *ptx,
                      const char  *arch,
                      char       **lowered,
                      GError     **error)
{
  g_autofree char *target = NULL, *version = NULL;
  guint kit_major = 0, kit_minor = 0, major = 0, minor = 0;
  gssize at;
  gsize len;

  g_return_val_if_fail (ptx != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (lowered != NULL)
    *lowered = NULL;
  /* a release the table does not know (a newer one): ptxas judges */
  if (!ks_toolchain_ptx_isa_for (cuda_major, cuda_minor, &kit_major, &kit_minor))
    return g_strdup (ptx);

  scan_header (ptx, &at, &len, &target);
  if (at >= 0)
    {
      char *dot;

      version = g_strndup (ptx + at, len);
      major = (guint) MIN (g_ascii_strtoull (version, &dot, 10), 999);
      minor = *dot == '.' ? (guint) MIN (g_ascii_strtoull (dot + 1, NULL, 10), 99) : 0;
    }
  if (!check_target (cuda_major, cuda_minor, ISA (kit_major, kit_minor), arch, version, error))
    return NULL;
  if (target != NULL && !g_str_equal (target, arch)
      && !check_target (cuda_major, cuda_minor, ISA (kit_major, kit_minor), target, version, error))
    {
      g_prefix_error (error, ".target %s: ", target);
      return NULL;
    }
  if (version == NULL || ISA (major, minor) <= ISA (kit_major, kit_minor))
    return g_strdup (ptx);

  /* Newer than ptxas knows: what the PTX uses may well be older, and
   * ptxas judges the instructions themselves */
  {
    GString *s = g_string_new_len (ptx, at);

    g_string_append_printf (s, "%u.%u", kit_major, kit_minor);
    g_string_append (s, ptx + at + len);
    if (lowered != NULL)
      *lowered = g_strdup_printf ("PTX .version %s lowered to %u.%u", version, kit_major,
                                  kit_minor);
    return g_string_free (s, FALSE);
  }
}

KsTool
ks_toolchain_sass_tool (const KsToolchain *tc)
{
  g_return_val_if_fail (tc != NULL, KS_N_TOOLS);

  /* nvdisasm first: only it prints the line records that link SASS to CUDA */
  if (tc->sass != NULL && tc->sass->paths[KS_TOOL_NVDISASM] != NULL)
    return KS_TOOL_NVDISASM;
  if (tc->sass != NULL && tc->sass->paths[KS_TOOL_CUOBJDUMP] != NULL)
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
          const KsToolkit   *nvcc_kit,
          const char *const *argv,
          const char        *dir,
          char             **out,
          GCancellable      *cancellable,
          GError           **error)
{
  g_autofree char *o = NULL, *e = NULL;
  g_autofree char *name = g_path_get_basename (argv[0]);
  int status = 0;

  /* an nvcc runs its own toolkit's ptxas, with the host compiler it needs */
  if (nvcc_kit != NULL
      && !_ks_toolchain_run_nvcc (tc, nvcc_kit, argv, dir, cancellable, &status, &o, &e, error))
    return FALSE;
  if (nvcc_kit == NULL && !_ks_toolchain_run (tc, argv, dir, cancellable, &status, &o, &e, error))
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

  argv[0] = tc->sass->paths[which];
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
  if (!run_step (tc, NULL, argv, dir, &out, cancellable, error))
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

/* "11.8": a toolkit's release for a note */
static char *
release_of (const KsToolkit *kit)
{
  if (kit->version == NULL)
    return g_strdup_printf ("(of unknown release, in %s)", kit->dir);
  return g_strdup_printf ("%u.%u", kit->version_major, kit->version_minor);
}

char *
ks_toolchain_make_sass (const KsToolchain *tc,
                        const char        *path,
                        const char        *text,
                        gboolean           cuda,
                        const char        *arch,
                        KsTool            *tool,
                        char             **note,
                        GCancellable      *cancellable,
                        GError           **error)
{
  g_autofree char *tmpdir = NULL, *abs_path = NULL, *base = NULL, *dir = NULL;
  g_autofree char *src = NULL, *cubin = NULL, *arch_opt = NULL, *inc = NULL;
  g_autofree char *listing = NULL, *fitted = NULL, *lowered = NULL, *name = NULL;
  g_autofree char *release = NULL;
  g_autoptr(GError) local_error = NULL;
  const KsToolkit *kit, *compiling;
  KsTool dis;
  gboolean ok;

  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (note != NULL)
    *note = NULL;
  dis = ks_toolchain_sass_tool (tc);
  if (tool != NULL)
    *tool = dis;
  if (dis == KS_N_TOOLS)
    {
      set_no_disassembler (tc, error);
      return NULL;
    }
  kit = tc->sass;
  compiling = _ks_toolchain_compiling (tc);
  name = _ks_toolkit_name (kit);
  release = release_of (kit);
  /* A cubin is for one real architecture: sm_XX, not compute_XX */
  if (!g_str_has_prefix (arch, "sm_") || !_ks_toolchain_arch_is_valid (arch))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return NULL;
    }
  if (kit->paths[cuda ? KS_TOOL_NVCC : KS_TOOL_PTXAS] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "making a cubin from %s needs %s, which %s in %s does not have (its %s is the "
                   "only disassembler found)", cuda ? "CUDA" : "PTX", cuda ? "nvcc" : "ptxas",
                   name, kit->dir, ks_tool_name (dis));
      return NULL;
    }
  /* What this toolkit's ptxas cannot take is said before it is run */
  if (cuda)
    {
      g_autofree char *probe = ks_toolchain_fit_ptx (kit->version_major, kit->version_minor, "",
                                                     arch, NULL, error);

      if (probe == NULL)
        return NULL;
    }
  else
    {
      fitted = ks_toolchain_fit_ptx (kit->version_major, kit->version_minor, text, arch, &lowered,
                                     error);
      if (fitted == NULL)
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
  ok = g_file_set_contents (src, cuda ? text : fitted, -1, &local_error);
  if (ok && cuda)
    {
      const char *argv[] = { kit->paths[KS_TOOL_NVCC], "-cubin", "-lineinfo", arch_opt, NULL,
                             "-o", cubin, src, NULL };

      inc = g_strconcat ("-I", dir, NULL);
      argv[4] = inc;
      ok = run_step (tc, kit, argv, tmpdir, NULL, cancellable, &local_error);
    }
  else if (ok)
    {
      const char *argv[] = { kit->paths[KS_TOOL_PTXAS], "-lineinfo", arch_opt, "-o", cubin, src,
                             NULL };

      ok = run_step (tc, NULL, argv, tmpdir, NULL, cancellable, &local_error);
      /* a lowered .version is ours: say so beside ptxas's refusal */
      if (!ok && lowered != NULL
          && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&local_error, "ptxas %s refused the PTX with its %s, the newest "
                        "it knows: ", release, lowered);
    }
  if (ok)
    listing = disassemble_at (tc, dis, cubin, cancellable, &local_error);
  _ks_toolchain_remove_tree (tmpdir);
  if (listing == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

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

  if (note != NULL)
    {
      GString *s = g_string_new (NULL);

      if (cuda)
        g_string_append_printf (s, "Made by the nvcc, ptxas and %s of %s.", ks_tool_name (dis),
                                name);
      else
        g_string_append_printf (s, "Assembled with ptxas %s%s%s%s and disassembled with %s %s.",
                                release, lowered != NULL ? " (" : "",
                                lowered != NULL ? lowered : "", lowered != NULL ? ")" : "",
                                ks_tool_name (dis), release);
      if (compiling != NULL && compiling != kit)
        {
          g_autofree char *other = _ks_toolkit_name (compiling);

          g_string_append_printf (s, cuda ? " The CUDA was compiled again with that toolkit: %s "
                                            "(%s), which made the PTX, has no disassembler."
                                          : " %s (%s), used for the rest, has no disassembler.",
                                  other, compiling->dir);
        }
      *note = g_string_free (s, FALSE);
    }
  return g_steal_pointer (&listing);
}

char *
ks_toolchain_assemble (const KsToolchain *tc,
                       const char        *text,
                       const char        *arch,
                       char             **version,
                       gsize             *length,
                       GCancellable      *cancellable,
                       GError           **error)
{
  g_autofree char *tmpdir = NULL, *src = NULL, *cubin = NULL, *arch_opt = NULL;
  g_autofree char *fitted = NULL, *lowered = NULL;
  const KsToolkit *kit;
  char *bytes = NULL;
  gboolean ok;

  g_return_val_if_fail (tc != NULL && text != NULL && arch != NULL && length != NULL, NULL);

  kit = _ks_toolchain_compiling (tc);
  if (kit == NULL || kit->paths[KS_TOOL_PTXAS] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no ptxas (no CUDA toolkit found)");
      return NULL;
    }
  if (!g_str_has_prefix (arch, "sm_") || !_ks_toolchain_arch_is_valid (arch))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return NULL;
    }
  fitted = ks_toolchain_fit_ptx (kit->version_major, kit->version_minor, text, arch, &lowered,
                                 error);
  if (fitted == NULL)
    return NULL;
  tmpdir = _ks_toolchain_make_tmp (tc, "kernelscope-cubin-XXXXXX", error);
  if (tmpdir == NULL)
    return NULL;
  src = g_build_filename (tmpdir, "kernel.ptx", NULL);
  cubin = g_build_filename (tmpdir, "kernel.cubin", NULL);
  arch_opt = g_strconcat ("-arch=", arch, NULL);
  ok = g_file_set_contents (src, fitted, -1, error);
  if (ok)
    {
      const char *argv[] = { kit->paths[KS_TOOL_PTXAS], "-lineinfo", arch_opt, "-o", cubin, src,
                             NULL };

      ok = run_step (tc, NULL, argv, tmpdir, NULL, cancellable, error);
    }
  if (ok)
    ok = g_file_get_contents (cubin, &bytes, length, error);
  _ks_toolchain_remove_tree (tmpdir);
  if (ok && version != NULL)
    *version = release_of (kit);
  return ok ? bytes : NULL;
}
