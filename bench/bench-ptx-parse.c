/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-ptx-parse.c: PTX parser throughput and peak memory on a large module.
 *
 * Usage: bench-ptx-parse [MEGABYTES]   (default 64; at least 50)
 *
 * Real compiler output, not synthetic instructions: the kernels of
 * tests/ptx/corpus/sm_80 are repeated, each copy with its module-level
 * names (kernels, functions, their parameters, globals) suffixed, its .file
 * numbers moved to a range of its own and its .extern declarations dropped
 * after the first, so the result is one valid module.  It must parse
 * without a single diagnostic error, or the figures would be of the error
 * path.
 *
 * Peak memory is measured in a forked child (wait4's ru_maxrss), less the
 * RSS a child has before it parses anything, so it is the parse's own.
 */

/* wait4 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ks-ptx.h"

#ifndef KS_SOURCE_ROOT
# error "KS_SOURCE_ROOT must name the source tree (set by bench/meson.build)"
#endif

#define N_RUNS 3
/* .file numbers of copy k start at k * FILES_PER_COPY */
#define FILES_PER_COPY 100

typedef struct
{
  char *name;
  char *text;
  gsize len;
  GHashTable *defined;          /* module-level names this file defines */
} Source;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static G_NORETURN void
fail (const char *fmt,
      ...)
{
  va_list args;

  va_start (args, fmt);
  fputs ("bench-ptx-parse: ", stderr);
  vfprintf (stderr, fmt, args);
  fputc ('\n', stderr);
  va_end (args);
  exit (EXIT_FAILURE);
}

static inline gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_' || c == '$';
}

static inline gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$';
}

/* nvcc writes module-level declarations at column 0 and everything inside a
 * function indented, which is what lets a line-based scan find the names
 * defined at module level. */
static void
collect_defined (Source *src)
{
  g_autoptr(GRegex) func_re = NULL;
  g_autoptr(GRegex) var_re = NULL;
  g_auto(GStrv) lines = g_strsplit (src->text, "\n", -1);

  func_re = g_regex_new ("^(?:\\.visible\\s+|\\.weak\\s+)?\\.(?:entry|func)\\s+"
                         "(?:\\([^)]*\\)\\s*)?([A-Za-z_$][\\w$]*)", 0, 0, NULL);
  var_re = g_regex_new ("^(?:\\.visible\\s+|\\.weak\\s+|\\.common\\s+)?"
                        "\\.(?:global|const|shared)\\s[^=;]*?([A-Za-z_$][\\w$]*)"
                        "\\s*(?:\\[[^\\]]*\\]\\s*)*(?:=|;)", 0, 0, NULL);
  g_assert (func_re != NULL && var_re != NULL);

  src->defined = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;

      if (!g_regex_match (func_re, lines[i], 0, &match))
        {
          g_clear_pointer (&match, g_match_info_unref);
          if (!g_regex_match (var_re, lines[i], 0, &match))
            continue;
        }
      g_hash_table_add (src->defined, g_match_info_fetch (match, 1));
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
load_sources (GPtrArray **out)
{
  g_autofree char *dir = g_build_filename (KS_SOURCE_ROOT, "tests", "ptx", "corpus", "sm_80", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = g_dir_open (dir, 0, &error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *sources;
  const char *name;

  if (d == NULL)
    fail ("%s", error->message);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".ptx"))
      g_ptr_array_add (names, g_strdup (name));
  /* a fixed order, so every run builds the same file */
  g_ptr_array_sort (names, compare_names);

  sources = g_ptr_array_new ();
  for (guint i = 0; i < names->len; i++)
    {
      Source *src = g_new0 (Source, 1);

      src->name = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      if (!g_file_get_contents (src->name, &src->text, &src->len, &error))
        fail ("%s", error->message);
      collect_defined (src);
      g_ptr_array_add (sources, src);
    }
  if (sources->len == 0)
    fail ("no .ptx files in %s", dir);
  *out = sources;
  return TRUE;
}

static gboolean
line_starts_with (const char *line,
                  const char *word)
{
  return g_str_has_prefix (line, word) && !is_ident_char (line[strlen (word)]);
}

/* Appends copy `copy` of src to out, renamed so it clashes with no other
 * copy.  Lines of the module header are left to the caller. */
static void
append_copy (GString    *out,
             Source     *src,
             guint       copy,
             GHashTable *externs_seen)
{
  const char *p = src->text, *end = src->text + src->len;
  gboolean renumber_next = FALSE;
  char suffix[32];

  g_snprintf (suffix, sizeof suffix, "_k%u", copy);

  while (p < end)
    {
      gboolean line_start = p == src->text || p[-1] == '\n';

      if (line_start
          && (line_starts_with (p, ".version") || line_starts_with (p, ".target")
              || line_starts_with (p, ".address_size")))
        {
          const char *nl = memchr (p, '\n', end - p);

          p = nl ? nl + 1 : end;
          continue;
        }
      if (line_start && line_starts_with (p, ".extern"))
        {
          const char *semi = memchr (p, ';', end - p);
          char *decl;

          semi = semi ? semi + 1 : end;
          decl = g_strndup (p, semi - p);
          /* the same declaration in many files (vprintf) must appear once */
          if (g_hash_table_add (externs_seen, decl))
            g_string_append (out, decl);
          p = semi;
          continue;
        }

      if (p[0] == '/' && p + 1 < end && p[1] == '/')
        {
          const char *nl = memchr (p, '\n', end - p);
          const char *stop = nl ? nl : end;

          g_string_append_len (out, p, stop - p);
          p = stop;
          continue;
        }
      if (p[0] == '"')
        {
          const char *q = memchr (p + 1, '"', end - p - 1);
          const char *stop = q ? q + 1 : end;

          g_string_append_len (out, p, stop - p);
          p = stop;
          continue;
        }
      if (p[0] == '.' || p[0] == '%')
        {
          const char *q = p + 1;

          while (q < end && is_ident_char (*q))
            q++;
          /* .file N and .loc N: the file number comes next */
          if ((q - p == 5 && memcmp (p, ".file", 5) == 0)
              || (q - p == 4 && memcmp (p, ".loc", 4) == 0))
            renumber_next = TRUE;
          g_string_append_len (out, p, q - p);
          p = q;
          continue;
        }
      if (g_ascii_isdigit (p[0]))
        {
          const char *q = p;

          while (q < end && g_ascii_isalnum (*q))
            q++;
          if (renumber_next)
            {
              guint64 n = g_ascii_strtoull (p, NULL, 10);

              g_string_append_printf (out, "%" G_GUINT64_FORMAT,
                                      (guint64) copy * FILES_PER_COPY + n);
              renumber_next = FALSE;
            }
          else
            g_string_append_len (out, p, q - p);
          p = q;
          continue;
        }
      if (is_ident_start (p[0]))
        {
          const char *q = p;
          char *word;
          char *param;

          while (q < end && is_ident_char (*q))
            q++;
          word = g_strndup (p, q - p);
          param = strstr (word, "_param_");
          if (g_hash_table_contains (src->defined, word))
            {
              g_string_append (out, word);
              g_string_append (out, suffix);
            }
          else
            {
              /* kernel_param_0 belongs to kernel */
              if (param != NULL)
                *param = '\0';
              if (param != NULL && g_hash_table_contains (src->defined, word))
                {
                  g_string_append (out, word);
                  g_string_append (out, suffix);
                  g_string_append_len (out, p + (param - word), q - (p + (param - word)));
                }
              else
                g_string_append_len (out, p, q - p);
            }
          if (q - p == 10 && memcmp (p, "inlined_at", 10) == 0)
            renumber_next = TRUE;
          g_free (word);
          p = q;
          continue;
        }
      if (p[0] == '\n')
        renumber_next = FALSE;
      g_string_append_c (out, *p);
      p++;
    }
  if (out->len > 0 && out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
}

/* The header of the first file, with the .target that asks for the most
 * (the debug one, when a file is built with -G). */
static void
append_header (GString   *out,
               GPtrArray *sources)
{
  g_autofree char *target = NULL;
  const char *kinds[] = { ".version", ".target", ".address_size" };

  for (guint i = 0; i < sources->len; i++)
    {
      Source *src = g_ptr_array_index (sources, i);
      g_auto(GStrv) lines = g_strsplit (src->text, "\n", -1);

      for (guint l = 0; lines[l] != NULL; l++)
        if (line_starts_with (lines[l], ".target")
            && (target == NULL || strlen (lines[l]) > strlen (target)))
          {
            g_free (target);
            target = g_strdup (lines[l]);
          }
    }

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      Source *src = g_ptr_array_index (sources, 0);
      g_auto(GStrv) lines = g_strsplit (src->text, "\n", -1);

      for (guint l = 0; lines[l] != NULL; l++)
        if (line_starts_with (lines[l], kinds[k]))
          {
            g_string_append (out, k == 1 && target ? target : lines[l]);
            g_string_append_c (out, '\n');
            break;
          }
    }
  g_string_append_c (out, '\n');
}

static char *
build_module_file (gsize     min_bytes,
                   guint    *n_copies)
{
  g_autoptr(GPtrArray) sources = NULL;
  g_autoptr(GHashTable) externs_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  GString *out;
  char *path = NULL;
  guint copy = 0;
  int fd;

  load_sources (&sources);
  out = g_string_sized_new (min_bytes + (1 << 20));
  append_header (out, sources);
  while (out->len < min_bytes)
    for (guint i = 0; i < sources->len; i++)
      append_copy (out, g_ptr_array_index (sources, i), copy++, externs_seen);
  *n_copies = copy;

  fd = g_file_open_tmp ("bench-ptx-XXXXXX.ptx", &path, &error);
  if (fd < 0)
    fail ("%s", error->message);
  close (fd);
  if (!g_file_set_contents (path, out->str, out->len, &error))
    fail ("%s", error->message);
  g_string_free (out, TRUE);

  for (guint i = 0; i < sources->len; i++)
    {
      Source *src = g_ptr_array_index (sources, i);

      g_hash_table_unref (src->defined);
      g_free (src->text);
      g_free (src->name);
      g_free (src);
    }
  return path;
}

typedef enum
{
  PARSE_NOTHING,
  PARSE_MAPPED,
  PARSE_IN_MEMORY,
} ParseMode;

static KsPtxModule *
parse (const char *path,
       ParseMode   mode)
{
  g_autoptr(GError) error = NULL;
  KsPtxModule *m;

  if (mode == PARSE_MAPPED)
    m = ks_ptx_module_parse_file (path, &error);
  else
    {
      g_autoptr(GBytes) bytes = NULL;
      char *text;
      gsize len;

      if (!g_file_get_contents (path, &text, &len, &error))
        fail ("%s", error->message);
      bytes = g_bytes_new_take (text, len);
      m = ks_ptx_module_parse (bytes, path);
    }
  if (m == NULL)
    fail ("%s", error->message);
  return m;
}

/* Peak RSS in bytes of a child that parses path (or does nothing). */
static guint64
child_peak_rss (const char *path,
                ParseMode   mode)
{
  struct rusage ru;
  int status;
  pid_t pid;

  fflush (NULL);
  pid = fork ();
  if (pid < 0)
    fail ("fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      if (mode != PARSE_NOTHING)
        {
          KsPtxModule *m = parse (path, mode);

          _exit (m->n_errors == 0 ? 0 : 1);
        }
      _exit (0);
    }
  while (wait4 (pid, &status, 0, &ru) < 0)
    if (errno != EINTR)
      fail ("wait4: %s", g_strerror (errno));
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    fail ("the measuring child failed (status %d)", status);
  return (guint64) ru.ru_maxrss * 1024;
}

static double
best_parse_time (const char *path,
                 ParseMode   mode)
{
  double best = G_MAXDOUBLE;

  for (int run = 0; run < N_RUNS; run++)
    {
      KsPtxModule *m;
      double t0, t1;

      if (mode == PARSE_IN_MEMORY)
        {
          /* the read is not the parser's: time the parse alone */
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(GError) error = NULL;
          char *text;
          gsize len;

          if (!g_file_get_contents (path, &text, &len, &error))
            fail ("%s", error->message);
          bytes = g_bytes_new_take (text, len);
          t0 = now_s ();
          m = ks_ptx_module_parse (bytes, path);
          t1 = now_s ();
        }
      else
        {
          t0 = now_s ();
          m = parse (path, mode);
          t1 = now_s ();
        }
      best = MIN (best, t1 - t0);
      ks_ptx_module_free (m);
    }
  return best;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *path = NULL;
  g_autoptr(KsPtxModule) m = NULL;
  g_autoptr(GArray) links = NULL;
  guint64 megabytes = 64;
  guint64 base_rss, mapped_rss, memory_rss;
  double mb, t_mapped, t_memory, t0, t_links;
  uint32_t q_file = 0, q_line = 0;
  guint n_copies = 0;
  GStatBuf st;

  if (argc > 1)
    megabytes = g_ascii_strtoull (argv[1], NULL, 10);
  if (megabytes == 0)
    fail ("usage: %s [MEGABYTES]", argv[0]);

  path = build_module_file ((gsize) megabytes * 1000 * 1000, &n_copies);
  if (g_stat (path, &st) != 0)
    fail ("%s: %s", path, g_strerror (errno));
  mb = (double) st.st_size / 1e6;

  /* The check that the benchmark measures the parser, not its error path */
  m = parse (path, PARSE_MAPPED);
  if (m->n_errors > 0)
    {
      fprintf (stderr, "bench-ptx-parse: the generated module (kept: %s) has %u errors:\n",
               path, m->n_errors);
      for (uint32_t i = 0; i < MIN (m->n_diagnostics, 10); i++)
        if (m->diagnostics[i].severity == KS_PTX_SEVERITY_ERROR)
          fprintf (stderr, "  %u:%u: %s\n", m->diagnostics[i].line,
                   m->diagnostics[i].column, m->diagnostics[i].message);
      return EXIT_FAILURE;
    }

  /* A source line in the middle of the module, which many copies share */
  if (m->n_insns > 0)
    {
      for (uint32_t i = m->n_insns / 2; i < m->n_insns; i++)
        if (ks_ptx_insn_source (m, &m->insns[i], &q_file, &q_line))
          break;
    }
  t0 = now_s ();
  links = ks_ptx_module_links_for_source (m, q_file, q_line);
  t_links = now_s () - t0;

  printf ("PTX parser benchmark\n");
  printf ("  module:        %s\n", path);
  printf ("  file size:     %.1f MB (%u copies of the sm_80 corpus files)\n", mb, n_copies);
  printf ("  lines:         %u\n", m->n_lines);
  printf ("  functions:     %u\n", m->n_functions);
  printf ("  instructions:  %u\n", m->n_insns);
  printf ("  operands:      %u\n", m->n_operands);
  printf ("  warnings:      %u\n", m->n_warnings);
  g_clear_pointer (&m, ks_ptx_module_free);

  t_mapped = best_parse_time (path, PARSE_MAPPED);
  t_memory = best_parse_time (path, PARSE_IN_MEMORY);

  base_rss = child_peak_rss (path, PARSE_NOTHING);
  mapped_rss = child_peak_rss (path, PARSE_MAPPED);
  memory_rss = child_peak_rss (path, PARSE_IN_MEMORY);

  printf ("\n  parse, mmapped (ks_ptx_module_parse_file), best of %d:\n", N_RUNS);
  printf ("    time           %.3f s\n", t_mapped);
  printf ("    throughput     %.1f MB/s\n", mb / t_mapped);
  printf ("    peak RSS       %.1f MB (%.1f MB above an idle child's %.1f MB)\n",
          mapped_rss / 1e6, (mapped_rss - base_rss) / 1e6, base_rss / 1e6);
  printf ("    peak / file    %.2f\n", (double) (mapped_rss - base_rss) / st.st_size);
  printf ("\n  parse, in memory (read first, then ks_ptx_module_parse), best of %d:\n", N_RUNS);
  printf ("    time           %.3f s (parse only, not the read)\n", t_memory);
  printf ("    throughput     %.1f MB/s\n", mb / t_memory);
  printf ("    peak RSS       %.1f MB (%.1f MB above an idle child)\n",
          memory_rss / 1e6, (memory_rss - base_rss) / 1e6);
  printf ("    peak / file    %.2f (the file's copy included)\n",
          (double) (memory_rss - base_rss) / st.st_size);
  printf ("\n  ks_ptx_module_links_for_source (file %u, line %u), one query:\n", q_file, q_line);
  printf ("    time           %.2f ms, %u PTX lines\n", t_links * 1e3, links->len);

  g_unlink (path);
  return EXIT_SUCCESS;
}
