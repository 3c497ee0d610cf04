/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-fatbin.c: `kernelscope-cli fatbin FILE [--extract DIR] [--json]`:
 * the PTX and cubins in a CUDA fat binary, a host object or a program
 * built with nvcc (its .nv_fatbin section), as cuobjdump -lptx -lelf
 * lists them, and written out with --extract (src/core/record/ks-fatbin.h).
 * Exit status: 0 success, 1 a file that is not one, 2 usage. */

#include "ks-cli-fatbin.h"
#include "ks-cli.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "ks-fatbin.h"

static int
fatbin_fail (gboolean    json,
             int         status,
             const char *message)
{
  return ks_cli_fail ("fatbin", json, status, message);
}

/* "vector_add.sm_89.ptx": the source's name, else the file's, with the
 * architecture and the kind; a second of the same name gets its index */
static char *
entry_file_name (const char          *path,
                 const KsFatbinEntry *e,
                 uint32_t             index)
{
  g_autofree char *base = g_path_get_basename (e->name ? e->name : path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_strdup_printf ("%s.%u.sm_%u.%s", base, index, e->arch,
                          e->kind == KS_FATBIN_PTX ? "ptx" : "cubin");
}

int
ks_cli_fatbin (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  g_autofree char *extract = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { "extract", 0, 0, G_OPTION_ARG_FILENAME, &extract,
      "Write each entry's PTX or cubin into DIR", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("FILE - the PTX and cubins of a CUDA fat binary, host object or "
                          "program");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsFatbin) fb = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return fatbin_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 2)
    return fatbin_fail (json, KS_CLI_EXIT_USAGE, "expected one file");
  fb = ks_fatbin_read_file (argv[1], &error);
  if (fb == NULL)
    return fatbin_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (extract != NULL && g_mkdir_with_parents (extract, 0755) != 0)
    {
      g_autofree char *message = g_strdup_printf ("%s: %s", extract, g_strerror (errno));

      return fatbin_fail (json, KS_CLI_EXIT_BAD_INPUT, message);
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "entries");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < fb->n_entries; i++)
    {
      const KsFatbinEntry *e = &fb->entries[i];
      g_autofree char *file = NULL;

      if (extract != NULL)
        {
          g_autofree char *name = entry_file_name (argv[1], e, i);

          file = g_build_filename (extract, name, NULL);
          if (!g_file_set_contents (file, (const char *) e->data, (gssize) e->size, &error))
            return fatbin_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, e->kind == KS_FATBIN_PTX ? "ptx" : "elf");
      json_builder_set_member_name (b, "arch");
      json_builder_add_int_value (b, e->arch);
      json_builder_set_member_name (b, "ptx_version");
      if (e->kind == KS_FATBIN_PTX)
        {
          g_autofree char *v = g_strdup_printf ("%u.%u", e->ptx_major, e->ptx_minor);

          json_builder_add_string_value (b, v);
        }
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "compression");
      json_builder_add_string_value (b, ks_fatbin_compression_name (e->compression));
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) e->size);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, (gint64) e->offset);
      json_builder_set_member_name (b, "source");
      if (e->name != NULL)
        json_builder_add_string_value (b, e->name);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "file");
      if (file != NULL)
        json_builder_add_string_value (b, file);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
      if (!json)
        printf ("%-5s %s_%u%s%s  %8" G_GUINT64_FORMAT " bytes%s%s%s%s\n",
                e->kind == KS_FATBIN_PTX ? "PTX" : "ELF",
                e->kind == KS_FATBIN_PTX ? "compute" : "sm", e->arch,
                e->compression != KS_FATBIN_UNCOMPRESSED ? "  " : "",
                e->compression != KS_FATBIN_UNCOMPRESSED
                ? ks_fatbin_compression_name (e->compression) : "", e->size,
                e->name ? "  " : "", e->name ? e->name : "", file ? "  -> " : "",
                file ? file : "");
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  if (json)
    ks_cli_print_json (root);
  return KS_CLI_EXIT_OK;
}
