/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-sass.c: `kernelscope-cli sass`, a cuobjdump or nvdisasm listing
 * read back: functions (demangled), instructions with their operands,
 * decoded control codes, pipes and source lines, and the resources of
 * `cuobjdump --dump-resource-usage` or `ptxas -v` given with --resources.
 * Exit status: 0 success, 1 a listing it cannot read (the message names
 * the line), 2 usage. */

#include "ks-cli-sass.h"
#include "ks-cli.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ks-resources.h"
#include "ks-sass.h"
#include "ks-timing.h"

static int
sass_fail (gboolean    json,
           int         status,
           const char *message)
{
  return ks_cli_fail ("sass", json, status, message);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* A barrier number, or null for none (7) */
static void
add_barrier (JsonBuilder *b,
             const char  *name,
             guint        barrier)
{
  json_builder_set_member_name (b, name);
  if (barrier == KS_SASS_NO_BARRIER)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, barrier);
}

static void
add_insn (JsonBuilder         *b,
          const KsSassListing *l,
          uint32_t             index)
{
  const KsSassInsn *in = &l->insns[index];
  const KsSassSource *src = ks_sass_insn_source (l, index);
  g_auto(GStrv) mods = g_strsplit (in->modifiers[0] == '.' ? in->modifiers + 1 : in->modifiers, ".", -1);

  json_builder_begin_object (b);
  add_int (b, "offset", in->offset);
  add_int (b, "line", in->line);
  add_string (b, "opcode", in->opcode);
  json_builder_set_member_name (b, "modifiers");
  json_builder_begin_array (b);
  for (guint i = 0; mods[i] != NULL; i++)
    if (mods[i][0] != '\0')
      json_builder_add_string_value (b, mods[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "operands");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < in->n_operands; i++)
    json_builder_add_string_value (b, l->operands[in->first_operand + i]);
  json_builder_end_array (b);
  add_string (b, "predicate", in->predicate);
  add_string (b, "pipe", ks_pipe_name (in->pipe));
  json_builder_set_member_name (b, "control");
  if (in->flags & KS_SASS_HAS_CONTROL)
    {
      json_builder_begin_object (b);
      add_int (b, "stall", in->control.stall);
      json_builder_set_member_name (b, "yield");
      json_builder_add_boolean_value (b, in->control.yield);
      add_barrier (b, "write_barrier", in->control.write_barrier);
      add_barrier (b, "read_barrier", in->control.read_barrier);
      add_int (b, "wait_mask", in->control.wait_mask);
      add_int (b, "reuse", in->control.reuse);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  if (in->flags & (KS_SASS_DUAL_FIRST | KS_SASS_DUAL_SECOND))
    {
      json_builder_set_member_name (b, "dual_issue");
      json_builder_add_string_value (b, in->flags & KS_SASS_DUAL_FIRST ? "first" : "second");
    }
  json_builder_set_member_name (b, "source");
  if (src != NULL)
    {
      json_builder_begin_object (b);
      add_string (b, "file", src->file);
      add_int (b, "line", src->line);
      if (src->inlined_file != NULL)
        {
          add_string (b, "inlined_at_file", src->inlined_file);
          add_int (b, "inlined_at_line", src->inlined_line);
        }
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}

/* Each record names the listing's function it describes (ptxas -v prints
 * demangled names, cuobjdump mangled ones), or null. */
static void
add_resources (JsonBuilder         *b,
               const KsSassListing *l,
               GPtrArray           *resources)
{
  json_builder_set_member_name (b, "resources");
  json_builder_begin_array (b);
  for (guint i = 0; resources != NULL && i < resources->len; i++)
    {
      const KsKernelResources *r = g_ptr_array_index (resources, i);
      g_autofree char *demangled = ks_sass_demangle (r->name);

      json_builder_begin_object (b);
      add_string (b, "name", r->name);
      add_string (b, "demangled", demangled != NULL ? demangled : r->name);
      add_string (b, "arch", r->arch);
      {
        const KsSassFunction *fn = ks_sass_match_function (l, r->name, r->arch);

        if (fn == NULL)
          fn = ks_sass_match_function (l, r->name, NULL);
        add_string (b, "function", fn != NULL ? fn->name : NULL);
      }
      add_string (b, "source", ks_resources_source_name (r->source));
      json_builder_set_member_name (b, "registers");
      if (r->fields & KS_RESOURCES_HAS_REGISTERS)
        json_builder_add_int_value (b, r->registers);
      else
        json_builder_add_null_value (b);
      add_int (b, "shared_static_bytes", r->shared_static_bytes);
      add_int (b, "local_bytes", r->local_bytes);
      add_int (b, "spill_store_bytes", r->spill_store_bytes);
      add_int (b, "spill_load_bytes", r->spill_load_bytes);
      json_builder_set_member_name (b, "constant_bytes");
      json_builder_begin_object (b);
      for (guint k = 0; k < KS_RESOURCES_N_CONSTANT_BANKS; k++)
        if (r->constant_bytes[k] != 0)
          {
            char key[8];

            g_snprintf (key, sizeof key, "%u", k);
            add_int (b, key, r->constant_bytes[k]);
          }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "barriers");
      if (r->fields & KS_RESOURCES_HAS_BARRIERS)
        json_builder_add_int_value (b, r->barriers);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* ptxas -v output has "ptxas" lines; anything else is taken for
 * cuobjdump --dump-resource-usage. */
static GPtrArray *
read_resources (const char  *path,
                GError     **error)
{
  g_autofree char *text = NULL;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  if (strstr (text, "ptxas") != NULL)
    return ks_resources_parse_ptxas (text, len, error);
  return ks_resources_parse_resource_usage (text, len, error);
}

static void
print_text (const KsSassListing *l)
{
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      g_autofree char *demangled = ks_sass_demangle (fn->name);
      uint32_t last_source = KS_SASS_NONE;

      g_print ("%s%s%s (%s): %u instructions\n", fn->name, demangled ? " = " : "",
               demangled ? demangled : "", fn->arch ? fn->arch : "arch unknown", fn->n_insns);
      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        {
          const KsSassInsn *in = &l->insns[i];
          g_autoptr(GString) ops = g_string_new (NULL);
          char ctl[KS_SASS_CONTROL_TEXT_SIZE] = "";

          if (in->source != last_source && in->source != KS_SASS_NONE)
            g_print ("  // %s:%u\n", l->sources[in->source].file, l->sources[in->source].line);
          last_source = in->source;
          for (uint32_t k = 0; k < in->n_operands; k++)
            g_string_append_printf (ops, "%s%s", k ? ", " : " ", l->operands[in->first_operand + k]);
          if (in->flags & KS_SASS_HAS_CONTROL)
            ks_sass_control_to_string (&in->control, ctl);
          g_print ("  %04x %-21s %-6s %s%s%s%s%s\n", in->offset, ctl, ks_pipe_name (in->pipe),
                   in->predicate ? in->predicate : "", in->predicate ? " " : "", in->opcode,
                   in->modifiers, ops->str);
        }
    }
}

int
ks_cli_sass (int    argc,
             char **argv)
{
  gboolean json = FALSE;
  g_autofree char *resources_path = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the listing as one JSON object", NULL },
    { "resources", 0, 0, G_OPTION_ARG_FILENAME, &resources_path,
      "cuobjdump --dump-resource-usage or ptxas -v output to add", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("FILE - a cuobjdump -sass or nvdisasm listing: instructions, control "
                          "codes, pipes, source lines");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = NULL;
  g_autoptr(GPtrArray) resources = NULL;
  g_autofree char *text = NULL;
  gsize len;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return sass_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 2)
    return sass_fail (json, KS_CLI_EXIT_USAGE, "give one listing FILE");

  if (!g_file_get_contents (argv[1], &text, &len, &error))
    return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  l = ks_sass_parse (text, len, argv[1], &error);
  if (l == NULL)
    return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (resources_path != NULL)
    {
      resources = read_resources (resources_path, &error);
      if (resources == NULL)
        {
          g_autofree char *msg = g_strdup_printf ("%s: %s", resources_path, error->message);

          return sass_fail (json, KS_CLI_EXIT_BAD_INPUT, msg);
        }
    }

  if (!json)
    {
      print_text (l);
      return KS_CLI_EXIT_OK;
    }

  {
    g_autoptr(JsonBuilder) b = json_builder_new ();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object (b);
    add_string (b, "format", l->format == KS_SASS_FORMAT_NVDISASM ? "nvdisasm" : "cuobjdump");
    json_builder_set_member_name (b, "functions");
    json_builder_begin_array (b);
    for (uint32_t f = 0; f < l->n_functions; f++)
      {
        const KsSassFunction *fn = &l->functions[f];
        g_autofree char *demangled = ks_sass_demangle (fn->name);

        json_builder_begin_object (b);
        add_string (b, "name", fn->name);
        add_string (b, "demangled", demangled != NULL ? demangled : fn->name);
        add_string (b, "arch", fn->arch);
        json_builder_set_member_name (b, "labels");
        json_builder_begin_object (b);
        for (uint32_t k = fn->first_label; k < fn->first_label + fn->n_labels; k++)
          {
            uint32_t at = l->labels[k].insn;

            json_builder_set_member_name (b, l->labels[k].name);
            if (at < fn->first_insn + fn->n_insns)
              json_builder_add_int_value (b, l->insns[at].offset);
            else
              json_builder_add_null_value (b);    /* the function's end */
          }
        json_builder_end_object (b);
        json_builder_set_member_name (b, "instructions");
        json_builder_begin_array (b);
        for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
          add_insn (b, l, i);
        json_builder_end_array (b);
        json_builder_end_object (b);
      }
    json_builder_end_array (b);
    add_resources (b, l, resources);
    json_builder_end_object (b);
    root = json_builder_get_root (b);
    ks_cli_print_json (root);
  }
  return KS_CLI_EXIT_OK;
}
