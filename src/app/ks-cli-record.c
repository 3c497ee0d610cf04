/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-record.c: `kernelscope-cli record [--gpu ID] [--out DIR] [--only
 * KERNELS] [--launches LIST] [--max-bytes N] -- PROGRAM ARGS...`: runs a
 * CUDA program with KernelScope's runtime (src/cudart) in front of
 * NVIDIA's, so that each launch runs in the simulator on the program's own
 * data, and records the launches into DIR (docs/RECORD.md).  The program
 * keeps its stdout, stderr and exit status, which is this command's. */

#include "ks-cli-record.h"
#include "ks-cli.h"

#include <elf.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>


static int
record_fail (int         status,
             const char *message)
{
  return ks_cli_fail ("record", FALSE, status, message);
}

/* The stand-in library: $KS_CUDART, else the build tree's when this is the
 * build tree's kernelscope-cli, else the installed one */
static char *
find_standin (void)
{
  const char *env = g_getenv ("KS_CUDART");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *self_dir = self != NULL ? g_path_get_dirname (self) : NULL;
  g_autofree char *build_app = g_canonicalize_filename (KS_BUILD_ROOT "/src/app", NULL);

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  if (self_dir != NULL && g_strcmp0 (self_dir, build_app) == 0)
    return g_strdup (KS_BUILD_ROOT "/src/cudart/libcudart.so.13");
  if (g_file_test (KS_INSTALLED_CUDART, G_FILE_TEST_EXISTS))
    return g_strdup (KS_INSTALLED_CUDART);
  return g_strdup (KS_BUILD_ROOT "/src/cudart/libcudart.so.13");
}

typedef struct
{
  gboolean elf;
  gboolean has_fatbin;
  char *cudart;                 /* the libcudart.so.N it needs, or NULL */
  gboolean needs_driver;        /* libcuda.so.1 */
  char *asan;                   /* the libasan.so.N it needs (a sanitized build), or NULL */
} ProgramInfo;

/* What the program's ELF file needs (DT_NEEDED) and whether it carries
 * kernels (.nv_fatbin).  Only what a check needs: a file this cannot read
 * is left to the loader. */
static void
inspect_program (const char  *path,
                 ProgramInfo *info)
{
  g_autoptr(GMappedFile) map = g_mapped_file_new (path, FALSE, NULL);
  const uint8_t *d;
  size_t n;
  const Elf64_Ehdr *eh;
  const Elf64_Shdr *sh;
  const char *shstr;

  memset (info, 0, sizeof *info);
  if (map == NULL)
    return;
  d = (const uint8_t *) g_mapped_file_get_contents (map);
  n = g_mapped_file_get_length (map);
  if (n < sizeof (Elf64_Ehdr) || memcmp (d, ELFMAG, SELFMAG) != 0 || d[EI_CLASS] != ELFCLASS64)
    return;
  eh = (const Elf64_Ehdr *) d;
  if (eh->e_shoff == 0 || eh->e_shentsize != sizeof (Elf64_Shdr) || eh->e_shoff > n
      || (uint64_t) eh->e_shnum * sizeof (Elf64_Shdr) > n - eh->e_shoff
      || eh->e_shstrndx >= eh->e_shnum)
    return;
  info->elf = TRUE;
  sh = (const Elf64_Shdr *) (d + eh->e_shoff);
  if (sh[eh->e_shstrndx].sh_offset >= n)
    return;
  shstr = (const char *) d + sh[eh->e_shstrndx].sh_offset;
  for (uint32_t i = 0; i < eh->e_shnum; i++)
    {
      const Elf64_Shdr *s = &sh[i];

      if (s->sh_name < n - sh[eh->e_shstrndx].sh_offset
          && strncmp (shstr + s->sh_name, ".nv_fatbin", 11) == 0)
        info->has_fatbin = TRUE;
      if (s->sh_type == SHT_DYNAMIC && s->sh_link < eh->e_shnum && s->sh_offset <= n
          && s->sh_size <= n - s->sh_offset)
        {
          const Elf64_Shdr *str = &sh[s->sh_link];
          const Elf64_Dyn *dyn = (const Elf64_Dyn *) (d + s->sh_offset);

          if (str->sh_offset > n || str->sh_size > n - str->sh_offset)
            continue;
          for (size_t k = 0; k < s->sh_size / sizeof (Elf64_Dyn); k++)
            {
              const char *name;
              size_t room;

              if (dyn[k].d_tag != DT_NEEDED || dyn[k].d_un.d_val >= str->sh_size)
                continue;
              name = (const char *) d + str->sh_offset + dyn[k].d_un.d_val;
              room = str->sh_size - dyn[k].d_un.d_val;
              /* a name that runs off its table is not read */
              if (memchr (name, '\0', room) == NULL)
                continue;
              if (g_str_has_prefix (name, "libcudart.so"))
                {
                  g_free (info->cudart);
                  info->cudart = g_strdup (name);
                }
              if (g_str_has_prefix (name, "libcuda.so"))
                info->needs_driver = TRUE;
              if (g_str_has_prefix (name, "libasan.so") && info->asan == NULL)
                info->asan = g_strdup (name);
            }
        }
    }
}

/* Empties a folder of an earlier recording; refuses any other folder
 * that has files */
static gboolean
prepare_out (const char  *dir,
             GError     **error)
{
  g_autofree char *index = g_build_filename (dir, "launches.json", NULL);
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (!g_file_test (dir, G_FILE_TEST_EXISTS))
    return TRUE;
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, "%s is not a folder", dir);
      return FALSE;
    }
  d = g_dir_open (dir, 0, error);
  if (d == NULL)
    return FALSE;
  if (!g_file_test (index, G_FILE_TEST_EXISTS))
    {
      if (g_dir_read_name (d) != NULL)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                       "%s has files and is not a recording: give --out a new folder", dir);
          return FALSE;
        }
      return TRUE;
    }
  /* an earlier recording: its files go (only the names a recording has) */
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if ((g_str_has_prefix (name, "launch-") && g_str_has_suffix (name, ".json"))
          || strcmp (name, "launches.json") == 0)
        g_unlink (path);
      else if (strcmp (name, "modules") == 0 || strcmp (name, "blobs") == 0)
        {
          g_autoptr(GDir) sub = g_dir_open (path, 0, NULL);
          const char *f;

          while (sub != NULL && (f = g_dir_read_name (sub)) != NULL)
            {
              g_autofree char *fp = g_build_filename (path, f, NULL);

              if (g_str_has_suffix (f, ".ptx") || g_str_has_suffix (f, ".bin"))
                g_unlink (fp);
            }
        }
    }
  return TRUE;
}

static gboolean
valid_ranges (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *p = parts[i];
      char *end = NULL;
      guint64 lo, hi;

      if (!g_ascii_isdigit (*p))
        return FALSE;
      lo = g_ascii_strtoull (p, &end, 10);
      hi = lo;
      if (*end == '-')
        {
          if (!g_ascii_isdigit (end[1]))
            return FALSE;
          hi = g_ascii_strtoull (end + 1, &end, 10);
        }
      if (*end != '\0' || hi < lo)
        return FALSE;
    }
  return TRUE;
}

int
ks_cli_record (int    argc,
               char **argv)
{
  g_autofree char *gpu = NULL, *out = NULL, *only = NULL, *launches = NULL;
  gint64 max_bytes = 0;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu,
      "The GPU of the GPU database the program sees (default: an A100)", "ID" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out,
      "The recording's folder (default: ./kernelscope-record)", "DIR" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only,
      "Save only these kernels' launches (names, comma-separated)", "KERNELS" },
    { "launches", 0, 0, G_OPTION_ARG_STRING, &launches,
      "Save only these launches, counted from 0 (\"3,5-7\")", "LIST" },
    { "max-bytes", 0, 0, G_OPTION_ARG_INT64, &max_bytes,
      "Stop saving launches once their buffers take this many bytes", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("-- PROGRAM [ARGS...] - run a CUDA program on KernelScope's "
                          "simulator and record its launches");
  g_autoptr(GError) error = NULL;
  g_autofree char *standin = NULL, *program = NULL, *abs_out = NULL;
  g_auto(GStrv) env = NULL;
  g_autoptr(GPtrArray) child_argv = g_ptr_array_new ();
  ProgramInfo info;
  int dash = -1, status = 0;

  /* everything after "--" is the program's */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        dash = i;
        break;
      }
  if (dash < 0)
    return record_fail (KS_CLI_EXIT_USAGE, "give the program after --: "
                        "kernelscope-cli record [OPTIONS] -- ./app ARGS...");
  for (int i = dash + 1; i < argc; i++)
    g_ptr_array_add (child_argv, argv[i]);
  g_ptr_array_add (child_argv, NULL);
  argc = dash;
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return record_fail (KS_CLI_EXIT_USAGE, error->message);
  if (argc != 1)
    return record_fail (KS_CLI_EXIT_USAGE, "unexpected arguments before --");
  if (child_argv->len < 2)
    return record_fail (KS_CLI_EXIT_USAGE, "no program after --");
  if (launches != NULL && !valid_ranges (launches))
    return record_fail (KS_CLI_EXIT_USAGE, "--launches: expected launch numbers and ranges "
                        "such as 0,3,5-7");
  if (max_bytes < 0)
    return record_fail (KS_CLI_EXIT_USAGE, "--max-bytes: expected a number of bytes");

  program = strchr (child_argv->pdata[0], '/') != NULL
            ? g_strdup (child_argv->pdata[0]) : g_find_program_in_path (child_argv->pdata[0]);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *m = g_strdup_printf ("%s: no such program",
                                            (const char *) child_argv->pdata[0]);
      return record_fail (KS_CLI_EXIT_BAD_INPUT, m);
    }
  inspect_program (program, &info);
  if (info.elf && info.cudart == NULL && info.has_fatbin)
    {
      g_autofree char *m =
        g_strdup_printf ("%s is linked statically against the CUDA runtime (nvcc's default), "
                         "which KernelScope cannot stand in for: build it again with "
                         "nvcc -cudart shared", program);
      g_free (info.cudart);
      return record_fail (KS_CLI_EXIT_BAD_INPUT, m);
    }
  if (info.cudart != NULL && strcmp (info.cudart, "libcudart.so.13") != 0)
    {
      g_autofree char *m =
        g_strdup_printf ("%s needs %s; KernelScope stands in for CUDA 13's runtime "
                         "(libcudart.so.13): build it again with CUDA 13's nvcc -cudart shared",
                         program, info.cudart);
      g_free (info.cudart);
      return record_fail (KS_CLI_EXIT_BAD_INPUT, m);
    }
  if (info.elf && info.cudart == NULL)
    g_printerr ("kernelscope-cli record: note: %s does not load the CUDA runtime itself; "
                "the programs it starts that do are recorded\n", program);
  if (info.needs_driver)
    g_printerr ("kernelscope-cli record: note: %s also calls the CUDA driver API "
                "(libcuda.so.1), which KernelScope does not stand in for\n", program);
  g_free (info.cudart);

  g_free (info.asan);
  standin = find_standin ();
  if (!g_file_test (standin, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *m = g_strdup_printf ("KernelScope's runtime is not at %s (build the "
                                            "project, or set KS_CUDART)", standin);
      return record_fail (KS_CLI_EXIT_BAD_INPUT, m);
    }
  /* A stand-in built with AddressSanitizer (the project's sanitized test
   * build) needs its runtime loaded first, and the program's own leaks
   * are not this run's to report */
  inspect_program (standin, &info);
  g_free (info.cudart);

  abs_out = g_canonicalize_filename (out != NULL ? out : "kernelscope-record", NULL);
  if (!prepare_out (abs_out, &error))
    return record_fail (KS_CLI_EXIT_BAD_INPUT, error->message);

  env = g_get_environ ();
  {
    const char *preload = g_environ_getenv (env, "LD_PRELOAD");
    g_autofree char *p = preload != NULL && *preload != '\0'
                         ? g_strconcat (standin, ":", preload, NULL) : g_strdup (standin);
    g_autofree char *budget = g_strdup_printf ("%" G_GINT64_FORMAT, max_bytes);

    if (info.asan != NULL)
      {
        const char *opts = g_environ_getenv (env, "ASAN_OPTIONS");
        g_autofree char *with = g_strconcat (info.asan, ":", p, NULL);
        g_autofree char *o = g_strconcat (opts != NULL ? opts : "", opts != NULL ? ":" : "",
                                          "detect_leaks=0:verify_asan_link_order=0", NULL);

        g_free (p);
        p = g_steal_pointer (&with);
        env = g_environ_setenv (env, "ASAN_OPTIONS", o, TRUE);
        g_free (info.asan);
      }
    env = g_environ_setenv (env, "LD_PRELOAD", p, TRUE);
    env = g_environ_setenv (env, "KS_RECORD_DIR", abs_out, TRUE);
    env = g_environ_setenv (env, "KS_RECORD_MAX_BYTES", budget, TRUE);
    env = g_environ_unsetenv (env, "KS_RECORD_GPU");
    env = g_environ_unsetenv (env, "KS_RECORD_ONLY");
    env = g_environ_unsetenv (env, "KS_RECORD_LAUNCHES");
    if (gpu != NULL)
      env = g_environ_setenv (env, "KS_RECORD_GPU", gpu, TRUE);
    if (only != NULL)
      env = g_environ_setenv (env, "KS_RECORD_ONLY", only, TRUE);
    if (launches != NULL)
      env = g_environ_setenv (env, "KS_RECORD_LAUNCHES", launches, TRUE);
  }

  fflush (stdout);
  if (!g_spawn_sync (NULL, (char **) child_argv->pdata, env,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN,
                     NULL, NULL, NULL, NULL, &status, &error))
    return record_fail (KS_CLI_EXIT_BAD_INPUT, error->message);

  {
    g_autofree char *index = g_build_filename (abs_out, "launches.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();

    if (json_parser_load_from_file (parser, index, NULL)
        && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
      {
        JsonObject *o = json_node_get_object (json_parser_get_root (parser));
        JsonArray *a = json_object_get_array_member (o, "launches");
        gint64 skipped = json_object_get_int_member_with_default (o, "not_saved", 0);

        g_printerr ("kernelscope-cli record: %u launch%s recorded in %s", json_array_get_length (a),
                    json_array_get_length (a) == 1 ? "" : "es", abs_out);
        if (skipped > 0)
          g_printerr (" (%" G_GINT64_FORMAT " more ran, not saved: %s)", skipped,
                      json_object_get_string_member_with_default (o, "not_saved_reason", ""));
        g_printerr ("\n");
      }
    else
      g_printerr ("kernelscope-cli record: no launch was recorded (%s has no "
                  "launches.json)\n", abs_out);
  }

  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return 1;
}
