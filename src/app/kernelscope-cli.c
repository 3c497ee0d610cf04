/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli: the engine from the command line, for scripts and tests.
 *
 * Every command takes --json and then prints exactly one JSON object on
 * stdout.  Exit status: 0 success, 1 bad input (messages on stderr as
 * FILE:LINE:COL: error: ...), 2 usage, 3 a fault in the simulated kernel. */

#include <json-glib/json-glib.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ks-ptx.h"

enum
{
  EXIT_OK = 0,
  EXIT_BAD_INPUT = 1,
  EXIT_USAGE = 2,
  EXIT_FAULT = 3,
};

static void
print_json (JsonNode *root)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

static void
add_span (JsonBuilder       *b,
          const KsPtxModule *m,
          const char        *member,
          KsPtxSpan          span)
{
  g_autofree char *s = ks_ptx_span_dup (m, span);

  json_builder_set_member_name (b, member);
  /* Names in PTX are ASCII; anything else was junk and must still make
   * valid JSON. */
  if (!g_utf8_validate (s, -1, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (s, -1);

      json_builder_add_string_value (b, valid);
    }
  else
    json_builder_add_string_value (b, s);
}

static const char *
severity_name (uint32_t severity)
{
  switch (severity)
    {
    case KS_PTX_SEVERITY_ERROR: return "error";
    case KS_PTX_SEVERITY_WARNING: return "warning";
    default: return "note";
    }
}

static void
build_function (JsonBuilder         *b,
                const KsPtxModule   *m,
                const KsPtxFunction *f)
{
  const char *type_order[KS_PTX_N_TYPES] = { 0 };
  uint64_t reg_counts[KS_PTX_N_TYPES] = { 0 };
  const KsPtxInsn *insns = ks_ptx_function_insns (m, f);
  uint32_t last_line = 0;

  json_builder_begin_object (b);
  add_span (b, m, "name", f->name);
  json_builder_set_member_name (b, "line");
  json_builder_add_int_value (b, f->line);

  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < f->n_params; i++)
    {
      const KsPtxVar *v = &m->vars[f->first_param + i];
      uint64_t size = (uint64_t) ks_ptx_type_size (v->type) * v->vec * v->n_elements;

      json_builder_begin_object (b);
      add_span (b, m, "name", v->name);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, ks_ptx_type_name (v->type));
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) size);
      json_builder_set_member_name (b, "align");
      json_builder_add_int_value (b, v->align ? v->align : ks_ptx_type_size (v->type) * v->vec);
      if (v->flags & KS_PTX_VAR_PTR)
        {
          json_builder_set_member_name (b, "ptr_space");
          json_builder_add_string_value (b, ks_ptx_space_name (v->ptr_space));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  if (f->n_rets > 0)
    {
      json_builder_set_member_name (b, "returns");
      json_builder_begin_array (b);
      for (uint32_t i = 0; i < f->n_rets; i++)
        {
          const KsPtxVar *v = &m->vars[f->first_ret + i];

          json_builder_begin_object (b);
          add_span (b, m, "name", v->name);
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, ks_ptx_type_name (v->type));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }

  /* Registers by type, in the order they were declared */
  {
    uint32_t n_order = 0;

    for (uint32_t i = 0; i < f->n_reg_decls; i++)
      {
        const KsPtxRegDecl *rd = &m->reg_decls[f->first_reg_decl + i];

        if (reg_counts[rd->type] == 0)
          type_order[n_order++] = ks_ptx_type_name (rd->type);
        reg_counts[rd->type] += (uint64_t) rd->count * rd->vec;
      }
    json_builder_set_member_name (b, "registers");
    json_builder_begin_object (b);
    for (uint32_t i = 0; i < n_order; i++)
      {
        KsPtxType t = ks_ptx_type_from_name (type_order[i], strlen (type_order[i]));

        json_builder_set_member_name (b, type_order[i]);
        json_builder_add_int_value (b, (gint64) reg_counts[t]);
      }
    json_builder_end_object (b);
  }

  json_builder_set_member_name (b, "instructions");
  json_builder_add_int_value (b, f->n_insns);

  json_builder_set_member_name (b, "blocks");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < f->n_blocks; i++)
    {
      const KsPtxBlock *bl = &m->blocks[f->first_block + i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "first_line");
      json_builder_add_int_value (b, bl->first_line);
      json_builder_set_member_name (b, "last_line");
      json_builder_add_int_value (b, bl->last_line);
      json_builder_set_member_name (b, "successors");
      json_builder_begin_array (b);
      for (uint32_t s = 0; s < bl->n_succs; s++)
        json_builder_add_int_value (b, m->edges[bl->first_succ + s]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "ipdom");
      if (bl->ipdom == KS_PTX_NONE)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, bl->ipdom);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "source_lines");
  json_builder_begin_object (b);
  for (uint32_t i = 0; i < f->n_insns; i++)
    {
      uint32_t file, line;
      const KsPtxFile *pf;
      char key[16];

      if (insns[i].line == last_line || !ks_ptx_insn_source (m, &insns[i], &file, &line))
        continue;
      last_line = insns[i].line;
      g_snprintf (key, sizeof key, "%u", insns[i].line);
      json_builder_set_member_name (b, key);
      json_builder_begin_array (b);
      pf = ks_ptx_module_find_file (m, file);
      if (pf != NULL)
        {
          g_autofree char *path = ks_ptx_span_dup (m, pf->path);
          g_autofree char *valid = g_utf8_make_valid (path, -1);

          json_builder_add_string_value (b, valid);
        }
      else
        json_builder_add_null_value (b);
      json_builder_add_int_value (b, line);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  json_builder_end_object (b);
}

static JsonNode *
module_to_json (const KsPtxModule *m)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *version = g_strdup_printf ("%u.%u", m->version_major, m->version_minor);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, m->filename);
  json_builder_set_member_name (b, "version");
  if (m->version_major == 0 && m->version_minor == 0)
    json_builder_add_null_value (b);
  else
    json_builder_add_string_value (b, version);

  json_builder_set_member_name (b, "target");
  if (m->n_targets == 0)
    json_builder_add_null_value (b);
  else
    {
      g_autofree char *t = ks_ptx_span_dup (m, m->words[m->first_target]);

      json_builder_add_string_value (b, t);
    }
  json_builder_set_member_name (b, "targets");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < m->n_targets; i++)
    {
      g_autofree char *t = ks_ptx_span_dup (m, m->words[m->first_target + i]);

      json_builder_add_string_value (b, t);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "address_size");
  json_builder_add_int_value (b, m->address_size);

  for (int pass = 0; pass < 2; pass++)
    {
      json_builder_set_member_name (b, pass == 0 ? "kernels" : "functions");
      json_builder_begin_array (b);
      for (uint32_t i = 0; i < m->n_functions; i++)
        {
          const KsPtxFunction *f = &m->functions[i];

          if (!(f->flags & KS_PTX_FUNCTION_HAS_BODY))
            continue;
          if ((pass == 0) != (f->kind == KS_PTX_FUNCTION_ENTRY))
            continue;
          build_function (b, m, f);
        }
      json_builder_end_array (b);
    }

  json_builder_set_member_name (b, "diagnostics");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    {
      const KsPtxDiagnostic *d = &m->diagnostics[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "line");
      json_builder_add_int_value (b, d->line);
      json_builder_set_member_name (b, "column");
      json_builder_add_int_value (b, d->column);
      json_builder_set_member_name (b, "severity");
      json_builder_add_string_value (b, severity_name (d->severity));
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, d->message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}

static void
print_json_error (const char *message)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_add_string_value (b, message);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  print_json (root);
}

static int
usage_error (const char *command,
             const char *message)
{
  g_printerr ("kernelscope-cli%s%s: %s\n", command ? " " : "", command ? command : "", message);
  g_printerr ("Try 'kernelscope-cli --help'.\n");
  return EXIT_USAGE;
}

static int
cmd_parse (int    argc,
           char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the module as one JSON object", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("FILE.ptx - parse a PTX module");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = NULL;
  g_autofree char *display = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error ("parse", error->message);
  if (argc != 2)
    return usage_error ("parse", "expected exactly one PTX file");

  m = ks_ptx_module_parse_file (argv[1], &error);
  if (m == NULL)
    {
      g_printerr ("%s: error: %s\n", argv[1], error->message);
      if (json)
        print_json_error (error->message);
      return EXIT_BAD_INPUT;
    }

  display = g_filename_display_name (argv[1]);
  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    {
      const KsPtxDiagnostic *d = &m->diagnostics[i];

      g_printerr ("%s:%u:%u: %s: %s\n", display, d->line, d->column,
                  severity_name (d->severity), d->message);
    }

  if (json)
    {
      g_autoptr(JsonNode) root = module_to_json (m);

      print_json (root);
    }
  else
    {
      g_print ("%s: PTX %u.%u, %u kernel(s)\n", display, m->version_major, m->version_minor,
               ks_ptx_module_n_entries (m));
      for (uint32_t i = 0; i < m->n_functions; i++)
        {
          const KsPtxFunction *f = &m->functions[i];
          g_autofree char *name = NULL;

          if (!(f->flags & KS_PTX_FUNCTION_HAS_BODY))
            continue;
          name = ks_ptx_span_dup (m, f->name);
          g_print ("  %s %s: %u instructions, %u blocks, %u registers, %u predicates\n",
                   f->kind == KS_PTX_FUNCTION_ENTRY ? ".entry" : ".func", name,
                   f->n_insns, f->n_blocks, f->n_reg_slots, f->n_pred_slots);
        }
      if (m->n_errors)
        g_print ("%u error(s)\n", m->n_errors);
    }

  return m->n_errors > 0 ? EXIT_BAD_INPUT : EXIT_OK;
}

static const struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "parse", cmd_parse, "FILE.ptx: the module's kernels, registers, blocks and source lines" },
};

static void
print_help (FILE *out)
{
  fprintf (out, "Usage: kernelscope-cli COMMAND [--json] ARGS...\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nRun 'kernelscope-cli COMMAND --help' for a command's options.\n");
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
#ifdef SIGPIPE
  signal (SIGPIPE, SIG_IGN);
#endif

  if (argc < 2)
    {
      print_help (stderr);
      return EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("kernelscope-cli %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  return usage_error (NULL, "unknown command");
}
