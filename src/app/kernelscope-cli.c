/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli: the engine from the command line, for scripts and tests.
 *
 * Every command takes --json and then prints exactly one JSON object on
 * stdout.  Exit status: 0 success, 1 bad input (messages on stderr as
 * FILE:LINE:COL: error: ...), 2 usage, 3 a fault in the simulated kernel. */

#include <json-glib/json-glib.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ks-cli-analyze.h"
#include "ks-cli-compare.h"
#include "ks-cli-anatomy.h"
#include "ks-cli-fatbin.h"
#include "ks-cli-record.h"
#include "ks-cli-occupancy.h"
#include "ks-cli-probe.h"
#include "ks-cli-sass.h"
#include "ks-cli.h"
#include "ks-json.h"
#include "ks-analysis.h"
#include "ks-format.h"
#include "ks-hints.h"
#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

void
ks_cli_print_json (JsonNode *root)
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

void
ks_cli_print_json_error (const char *message)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_add_string_value (b, message);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  ks_cli_print_json (root);
}

static int
usage_error (const char *command,
             const char *message)
{
  g_printerr ("kernelscope-cli%s%s: %s\n", command ? " " : "", command ? command : "", message);
  g_printerr ("Try 'kernelscope-cli --help'.\n");
  return KS_CLI_EXIT_USAGE;
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
        ks_cli_print_json_error (error->message);
      return KS_CLI_EXIT_BAD_INPUT;
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

      ks_cli_print_json (root);
    }
  else
    {
      uint32_t n_kernels = ks_ptx_module_n_entries (m);

      g_print (g_dngettext (NULL, "%s: PTX %u.%u, %u kernel\n",
                            "%s: PTX %u.%u, %u kernels\n", n_kernels),
               display, m->version_major, m->version_minor, n_kernels);
      for (uint32_t i = 0; i < m->n_functions; i++)
        {
          const KsPtxFunction *f = &m->functions[i];
          g_autofree char *name = NULL;

          if (!(f->flags & KS_PTX_FUNCTION_HAS_BODY))
            continue;
          name = ks_format_name (m->text + f->name.offset, f->name.len);
          g_print ("  %s %s: %u instructions, %u blocks, %u registers, %u predicates\n",
                   f->kind == KS_PTX_FUNCTION_ENTRY ? ".entry" : ".func", name,
                   f->n_insns, f->n_blocks, f->n_reg_slots, f->n_pred_slots);
        }
      if (m->n_errors)
        g_print (g_dngettext (NULL, "%u error\n", "%u errors\n", m->n_errors),
                 m->n_errors);
    }

  return m->n_errors > 0 ? KS_CLI_EXIT_BAD_INPUT : KS_CLI_EXIT_OK;
}


/* run --json's buffers: written straight to stdout, value by value, so
 * that a buffer of a million elements never becomes a JsonNode tree or a
 * string in memory.  The numbers are written as json-glib writes them. */
typedef enum
{
  KS_CLI_ENCODING_DATA = 1 << 0,
  KS_CLI_ENCODING_HEX = 1 << 1,
} KsCliEncoding;

static void
write_string (FILE       *out,
              const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);

  fputc ('"', out);
  for (const char *p = valid; *p; p++)
    {
      unsigned char c = (unsigned char) *p;

      if (c == '"' || c == '\\')
        fprintf (out, "\\%c", c);
      else if (c == '\n')
        fputs ("\\n", out);
      else if (c == '\t')
        fputs ("\\t", out);
      else if (c < 0x20 || c == 0x7f)
        fprintf (out, "\\u%04x", c);
      else
        fputc (c, out);
    }
  fputc ('"', out);
}

/* A member written with json-glib's generator (small things) */
static void
write_member_node (FILE       *out,
                   const char *name,
                   JsonNode   *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  fputs (",\n  ", out);
  write_string (out, name);
  fputs (" : ", out);
  fputs (text, out);
}

static void
write_value (FILE          *out,
             KsPtxType      type,
             const uint8_t *p)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  uint64_t v = 0;
  double d;

  memcpy (&v, p, ks_ptx_type_size (type));
  switch (type)
    {
    case KS_PTX_TYPE_F32:
      {
        float f;

        memcpy (&f, p, 4);
        d = f;
      }
      break;
    case KS_PTX_TYPE_F64:
      memcpy (&d, p, 8);
      break;
    case KS_PTX_TYPE_F16:
      d = ks_launch_f16_to_double ((uint16_t) v);
      break;
    case KS_PTX_TYPE_BF16:
      d = ks_launch_bf16_to_double ((uint16_t) v);
      break;
    case KS_PTX_TYPE_S8: fprintf (out, "%d", (int8_t) v); return;
    case KS_PTX_TYPE_S16: fprintf (out, "%d", (int16_t) v); return;
    case KS_PTX_TYPE_S32: fprintf (out, "%" G_GINT32_FORMAT, (int32_t) v); return;
    case KS_PTX_TYPE_S64: fprintf (out, "%" G_GINT64_FORMAT, (int64_t) v); return;
    case KS_PTX_TYPE_U64:
    case KS_PTX_TYPE_B64:
      /* JSON numbers lose 64-bit integers in most readers: a string */
      if (v > (G_GUINT64_CONSTANT (1) << 53))
        fprintf (out, "\"%" G_GUINT64_FORMAT "\"", v);
      else
        fprintf (out, "%" G_GUINT64_FORMAT, v);
      return;
    default:
      fprintf (out, "%" G_GUINT64_FORMAT, v);
      return;
    }
  if (isnan (d))
    fputs ("\"nan\"", out);
  else if (isinf (d))
    fputs (d > 0 ? "\"inf\"" : "\"-inf\"", out);
  else
    {
      g_ascii_dtostr (buf, sizeof buf, d);
      fputs (buf, out);
      /* json-glib keeps a double a double */
      if (strpbrk (buf, ".eEn") == NULL)
        fputs (".0", out);
    }
}

/* NAME: {"type", "count", "bytes_hex" and/or "data"} */
static void
write_buffer (FILE          *out,
              const char    *name,
              KsPtxType      type,
              uint64_t       count,
              const uint8_t *data,
              size_t         size,
              KsCliEncoding  encoding,
              gboolean       first)
{
  static const char digits[] = "0123456789abcdef";
  uint32_t esize = ks_ptx_type_size (type);

  fputs (first ? "\n    " : ",\n    ", out);
  write_string (out, name);
  fprintf (out, " : {\n      \"type\" : \"%s\",\n      \"count\" : %" G_GUINT64_FORMAT,
           ks_ptx_type_name (type), count);
  if (encoding & KS_CLI_ENCODING_HEX)
    {
      char chunk[4096];
      size_t n = 0;

      fputs (",\n      \"bytes_hex\" : \"", out);
      for (size_t i = 0; i < size; i++)
        {
          chunk[n++] = digits[data[i] >> 4];
          chunk[n++] = digits[data[i] & 15];
          if (n == sizeof chunk)
            {
              fwrite (chunk, 1, n, out);
              n = 0;
            }
        }
      fwrite (chunk, 1, n, out);
      fputc ('"', out);
    }
  if (encoding & KS_CLI_ENCODING_DATA)
    {
      fputs (",\n      \"data\" : [", out);
      for (uint64_t i = 0; esize > 0 && i < count; i++)
        {
          if (i > 0)
            fputs (i % 8 == 0 ? ",\n        " : ", ", out);
          else
            fputs ("\n        ", out);
          write_value (out, type, data + i * esize);
        }
      fputs (count > 0 ? "\n      ]" : "]", out);
    }
  fputs ("\n    }", out);
}

static void
add_uint (JsonBuilder *b,
          const char  *name,
          uint64_t     v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) v);
}

/* "FILE:LINE:COL: ..." with FILE a file that is there */
static gboolean
ks_cli_is_placed (const char *message)
{
  const char *p = message;

  while ((p = strchr (p, ':')) != NULL)
    {
      const char *q = p + 1;

      if (g_ascii_isdigit (*q))
        {
          q += strspn (q, "0123456789");
          if (*q == ':' && g_ascii_isdigit (q[1]))
            {
              g_autofree char *file = g_strndup (message, (gsize) (p - message));

              return g_file_test (file, G_FILE_TEST_IS_REGULAR);
            }
        }
      p++;
    }
  return FALSE;
}

int
ks_cli_fail (const char *command,
             gboolean    json,
             int         status,
             const char *message)
{
  /* A message placed in a file ("k.json:4:3: ...") leads with its place,
   * as a compiler's does; others say which command failed */
  if (status == KS_CLI_EXIT_BAD_INPUT && ks_cli_is_placed (message))
    g_printerr ("%s\n", message);
  else
    g_printerr ("kernelscope-cli %s: %s\n", command, message);
  if (status == KS_CLI_EXIT_USAGE)
    g_printerr ("Try 'kernelscope-cli %s --help'.\n", command);
  if (json)
    ks_cli_print_json_error (message);
  return status;
}

gboolean
ks_cli_max_seconds (double   given,
                    double  *seconds,
                    char   **note)
{
  if (isnan (given))
    {
      *seconds = KS_CLI_DEFAULT_MAX_SECONDS;
      *note = g_strdup ("the default budget; --max-seconds N to allow more, 0 for no limit");
      return TRUE;
    }
  if (!isfinite (given) || given < 0)
    return FALSE;
  *seconds = given;
  *note = g_strdup_printf ("--max-seconds %g", given);
  return TRUE;
}

/* The 1-based column of LINE's first character that is not blank, 0 when
 * the text has no such line */
static uint32_t
line_column (const char *text,
             uint32_t    line)
{
  const char *p = text;

  if (text == NULL || line == 0)
    return 0;
  for (uint32_t l = 1; l < line; l++)
    {
      p = strchr (p, '\n');
      if (p == NULL)
        return 0;
      p++;
    }
  for (const char *q = p; *q != '\0' && *q != '\n'; q++)
    if (*q != ' ' && *q != '\t' && *q != '\r')
      return (uint32_t) (q - p) + 1;
  return 0;
}

void
ks_cli_print_fault (const char *ptx_file,
                    const char *text,
                    const void *fault_data,
                    const char *prefix)
{
  const KsSimFault *fault = fault_data;
  uint32_t column = line_column (text, fault->ptx_line);
  g_autoptr(GString) place = g_string_new (ptx_file);

  if (fault->ptx_line > 0)
    g_string_append_printf (place, ":%u", fault->ptx_line);
  if (column > 0)
    g_string_append_printf (place, ":%u", column);
  g_printerr ("%s: error: %s%s%s (block [%u,%u,%u], thread [%u,%u,%u])\n", place->str,
              prefix ? prefix : "", prefix ? ": " : "", fault->message,
              fault->block[0], fault->block[1], fault->block[2],
              fault->thread[0], fault->thread[1], fault->thread[2]);
  if (fault->cuda_file != NULL)
    g_printerr ("%s:%u: note: the CUDA line of the fault\n", fault->cuda_file, fault->cuda_line);
}

void
ks_cli_add_dim3 (JsonBuilder    *b,
                 const char     *name,
                 const uint32_t  v[3])
{
  ks_json_add_dim3 (b, name, v);
}

/* One line's statistics: counts as they are, and the ratios a reader wants */
static void
build_line_stats (JsonBuilder          *b,
                  const KsPtxModule    *m,
                  const KsSimLineStats *ls,
                  gboolean              cuda)
{
  const KsSimInsnStats *s = &ls->stats;

  json_builder_begin_object (b);
  if (cuda)
    {
      const KsPtxFile *pf = ks_ptx_module_find_file (m, ls->file);
      g_autofree char *path = pf ? ks_ptx_span_dup (m, pf->path) : g_strdup_printf ("#%u", ls->file);
      g_autofree char *valid = g_utf8_make_valid (path, -1);

      json_builder_set_member_name (b, "file");
      json_builder_add_string_value (b, valid);
    }
  add_uint (b, "line", ls->line);
  add_uint (b, "warp_executions", s->warp_executions);
  add_uint (b, "thread_executions", s->thread_executions);
  json_builder_set_member_name (b, "average_active_lanes");
  json_builder_add_double_value (b, s->warp_executions ? (double) s->active_lanes / s->warp_executions : 0);
  add_uint (b, "divergent_branches", s->divergent);
  if (s->smem_requests)
    {
      add_uint (b, "shared_requests", s->smem_requests);
      add_uint (b, "shared_wavefronts", s->smem_wavefronts);
      add_uint (b, "shared_extra_wavefronts", s->smem_wavefronts - s->smem_ideal_wavefronts);
      add_uint (b, "shared_worst_conflict", s->smem_worst_degree);
    }
  if (s->gmem_requests)
    {
      add_uint (b, "global_requests", s->gmem_requests);
      add_uint (b, "global_sectors", s->gmem_sectors);
      add_uint (b, "global_ideal_sectors", s->gmem_ideal_sectors);
      add_uint (b, "global_lines", s->gmem_lines);
      /* the distinct bytes used of the bytes moved: a broadcast's lanes
       * share theirs, which counted once a lane gave over 1 */
      json_builder_set_member_name (b, "global_efficiency");
      json_builder_add_double_value (b, s->gmem_sectors
                                        ? (double) s->gmem_used_bytes / (32.0 * s->gmem_sectors) : 0);
      add_uint (b, "l1_hits", s->l1_hits);
      add_uint (b, "l1_misses", s->l1_misses);
      add_uint (b, "l2_hits", s->l2_hits);
      add_uint (b, "l2_misses", s->l2_misses);
    }
  /* texture and surface memory, apart from ld/st */
  if (s->tex_requests || s->surf_requests)
    {
      add_uint (b, "texture_requests", s->tex_requests);
      add_uint (b, "texture_fetches", s->tex_fetches);
      add_uint (b, "surface_requests", s->surf_requests);
      add_uint (b, "texture_sectors", s->tex_sectors);
      add_uint (b, "texture_l1_hits", s->tex_l1_hits);
      add_uint (b, "texture_l1_misses", s->tex_l1_misses);
    }
  json_builder_end_object (b);
}

/* The first values of a buffer, as short as they read back exactly */
static char *
preview_values (KsPtxType      type,
                uint64_t       count,
                const uint8_t *data)
{
  uint32_t esize = ks_ptx_type_size (type);
  GString *line = g_string_new (NULL);

  for (uint64_t k = 0; esize > 0 && k < MIN (count, 8); k++)
    {
      const uint8_t *p = data + k * esize;
      uint64_t v = 0;

      memcpy (&v, p, esize);
      if (k > 0)
        g_string_append_c (line, ' ');
      if (type == KS_PTX_TYPE_F32)
        {
          float f;

          memcpy (&f, p, 4);
          g_string_append_printf (line, "%.9g", f);
        }
      else if (type == KS_PTX_TYPE_F64)
        {
          double d;

          memcpy (&d, p, 8);
          g_string_append_printf (line, "%.17g", d);
        }
      else if (type == KS_PTX_TYPE_F16)
        g_string_append_printf (line, "%.5g", ks_launch_f16_to_double ((uint16_t) v));
      else if (type == KS_PTX_TYPE_BF16)
        g_string_append_printf (line, "%.4g", ks_launch_bf16_to_double ((uint16_t) v));
      else if (type >= KS_PTX_TYPE_S8 && type <= KS_PTX_TYPE_S64)
        g_string_append_printf (line, "%" G_GINT64_FORMAT,
                                esize == 1 ? (gint64) (int8_t) v : esize == 2 ? (gint64) (int16_t) v
                                : esize == 4 ? (gint64) (int32_t) v : (gint64) v);
      else
        g_string_append_printf (line, "%" G_GUINT64_FORMAT, v);
    }
  if (count > 8)
    g_string_append (line, " ...");
  return g_string_free (line, FALSE);
}

/* The kernel a launch runs: the one it names, else the module's only one */
static char *
kernel_name (const KsPtxModule *module,
             const char        *kernel)
{
  if (kernel != NULL)
    return g_strdup (kernel);
  for (uint32_t i = 0; i < module->n_functions; i++)
    if (module->functions[i].kind == KS_PTX_FUNCTION_ENTRY
        && (module->functions[i].flags & KS_PTX_FUNCTION_HAS_BODY))
      return ks_ptx_span_dup (module, module->functions[i].name);
  return g_strdup ("(none)");
}

/* What one launch of a spec did, kept after its simulation is freed */
typedef struct
{
  char *kernel;
  uint32_t grid[3], block[3];
  uint32_t dynamic_shared_bytes;
  KsSimStats stats;
  gboolean done;
  JsonNode *report;             /* {"stats", "lines", "hazards", "hints"} */
} RunStep;

static void
run_step_clear (RunStep *st)
{
  g_free (st->kernel);
  g_clear_pointer (&st->report, json_node_unref);
}

static void
build_stats (JsonBuilder       *b,
             const KsSim       *sim,
             const KsSimStats  *stats)
{
  json_builder_set_member_name (b, "stats");
  json_builder_begin_object (b);
  add_uint (b, "warp_instructions", stats->warp_instructions);
  add_uint (b, "thread_instructions", stats->thread_instructions);
  json_builder_set_member_name (b, "seconds");
  json_builder_add_double_value (b, stats->seconds);
  add_uint (b, "divergent_branches", stats->divergent_branches);
  add_uint (b, "barriers", stats->barriers);
  add_uint (b, "trace_events", stats->trace_events);
  if (sim != NULL)
    {
      uint64_t n_records;

      /* a launch past the trace's limit is traced in a sample of whole blocks:
       * blocks 0, trace_stride, 2 trace_stride, ... */
      add_uint (b, "trace_dropped", stats->trace_dropped);
      add_uint (b, "trace_stride", stats->trace_stride);
      add_uint (b, "trace_blocks", stats->trace_blocks);
      ks_sim_get_trace_memory (sim, &n_records);
      add_uint (b, "trace_bytes", stats->trace_events * sizeof (KsTraceEvent)
                                  + n_records * sizeof (KsTraceMemory));
    }
  json_builder_end_object (b);
}

/* One launch's statistics, line statistics, hazards and hints */
static JsonNode *
build_report (const KsPtxModule *module,
              KsSim             *sim)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  build_stats (b, sim, ks_sim_get_stats (sim));

  json_builder_set_member_name (b, "lines");
  json_builder_begin_object (b);
  for (int pass = 0; pass < 2; pass++)
    {
      g_autoptr(GArray) lines = pass == 0 ? ks_sim_ptx_line_stats (sim) : ks_sim_cuda_line_stats (sim);

      json_builder_set_member_name (b, pass == 0 ? "ptx" : "cuda");
      json_builder_begin_array (b);
      for (guint i = 0; i < lines->len; i++)
        build_line_stats (b, module, &g_array_index (lines, KsSimLineStats, i), pass == 1);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "hazards");
  json_builder_begin_array (b);
  {
    uint32_t n_hazards;
    const KsSimHazard *hz = ks_sim_get_hazards (sim, &n_hazards);

    for (uint32_t i = 0; i < n_hazards; i++)
      {
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "kind");
        json_builder_add_string_value (b, ks_sim_hazard_kind_name (hz[i].kind));
        add_uint (b, "first_ptx_line", module->insns[hz[i].first_insn].line);
        add_uint (b, "second_ptx_line", module->insns[hz[i].second_insn].line);
        add_uint (b, "address", hz[i].address);
        add_uint (b, "first_thread", hz[i].first_thread);
        add_uint (b, "second_thread", hz[i].second_thread);
        add_uint (b, "count", hz[i].count);
        json_builder_end_object (b);
      }
  }
  json_builder_end_array (b);

  /* What the run itself shows; occupancy hints come with `analyze` */
  {
    KsHintInput hin = { module, sim, NULL, NULL, 0, 0 };
    g_autoptr(GPtrArray) hints = ks_hints_compute (&hin);

    ks_hints_add_json (b, "hints", hints);
  }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static JsonNode *
build_fault (const KsSimFault *fault,
             uint32_t          step,
             const char       *kernel)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, ks_sim_fault_kind_name (fault->kind));
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, fault->message);
  json_builder_set_member_name (b, "ptx_line");
  if (fault->ptx_line)
    json_builder_add_int_value (b, fault->ptx_line);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "cuda_file");
  if (fault->cuda_file)
    json_builder_add_string_value (b, fault->cuda_file);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "cuda_line");
  if (fault->cuda_line)
    json_builder_add_int_value (b, fault->cuda_line);
  else
    json_builder_add_null_value (b);
  ks_cli_add_dim3 (b, "block", fault->block);
  ks_cli_add_dim3 (b, "thread", fault->thread);
  json_builder_set_member_name (b, "address");
  if (fault->has_address)
    {
      g_autofree char *a = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", fault->address);

      json_builder_add_string_value (b, a);
    }
  else
    json_builder_add_null_value (b);
  /* which launch of the spec: its index in "launches" (0 for a spec of one) */
  add_uint (b, "launch", step);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, kernel);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* cmd_run's state while ks_sim_run_launches runs the launches */
typedef struct
{
  const KsPtxModule *module;
  const KsLaunch *launch;
  RunStep *steps;
  uint32_t n_run;
  GString *printf_out;
  KsSimStats *total;
  JsonNode *fault_node;
  gint64 max_steps;
  double max_seconds;
  const char *max_seconds_note;
  gboolean no_trace;
  uint32_t threads;
  gboolean json;
} RunState;

static void
run_setup (KsSim    *sim,
           uint32_t  k,
           gpointer  user_data)
{
  RunState *run = user_data;

  if (run->max_steps > 0)
    ks_sim_set_step_limit (sim, (uint64_t) run->max_steps);
  ks_sim_set_time_limit (sim, run->max_seconds, run->max_seconds_note);
  ks_sim_set_trace (sim, !run->no_trace, 0);
  ks_sim_set_threads (sim, run->threads);
}

static void
run_done (KsSim    *sim,
          uint32_t  k,
          gpointer  user_data)
{
  RunState *run = user_data;
  const KsLaunch *launch = run->launch;
  const KsPtxModule *module = run->module;
  RunStep *st = &run->steps[k];
  KsSimStats *total = run->total;
  const KsSimFault *fault;

  run->n_run = k + 1;
  st->done = ks_sim_get_status (sim) == KS_SIM_DONE;
  st->kernel = kernel_name (module, ks_sim_get_launch (sim)->kernel);
  memcpy (st->grid, ks_sim_get_launch (sim)->grid, sizeof st->grid);
  memcpy (st->block, ks_sim_get_launch (sim)->block, sizeof st->block);
  st->dynamic_shared_bytes = ks_sim_get_launch (sim)->dynamic_shared_bytes;
  st->stats = *ks_sim_get_stats (sim);
  total->warp_instructions += st->stats.warp_instructions;
  total->thread_instructions += st->stats.thread_instructions;
  total->seconds += st->stats.seconds;
  total->divergent_branches += st->stats.divergent_branches;
  total->barriers += st->stats.barriers;
  total->trace_events += st->stats.trace_events;
  g_string_append (run->printf_out, ks_sim_get_printf (sim));

  fault = ks_sim_get_fault (sim);
  if (fault != NULL)
    {
      if (launch->n_steps > 1)
        {
          g_autofree char *name = ks_format_name (st->kernel, -1);
          g_autofree char *which = g_strdup_printf ("launch %u (%s)", k, name);

          ks_cli_print_fault (launch->ptx_path, module->text, fault, which);
        }
      else
        ks_cli_print_fault (launch->ptx_path, module->text, fault, NULL);
      if (run->json)
        run->fault_node = build_fault (fault, k, st->kernel);
    }

  {
    uint32_t n_hazards;
    const KsSimHazard *hz = ks_sim_get_hazards (sim, &n_hazards);

    /* Warnings in the compiler's format, so editors can jump to them */
    for (uint32_t i = 0; i < n_hazards; i++)
      g_printerr ("%s:%u: warning: shared-memory %s hazard with line %u: threads %u and %u of "
                  "block [%u,%u,%u] touch offset %u with no barrier between (%" G_GUINT64_FORMAT
                  " times)\n",
                  launch->ptx_path, module->insns[hz[i].second_insn].line,
                  ks_sim_hazard_kind_name (hz[i].kind), module->insns[hz[i].first_insn].line,
                  hz[i].first_thread, hz[i].second_thread, hz[i].block[0], hz[i].block[1],
                  hz[i].block[2], hz[i].address, hz[i].count);
  }
  if (run->json)
    st->report = build_report (module, sim);
}

static int
cmd_run (int    argc,
         char **argv)
{
  gboolean json = FALSE, no_trace = FALSE;
  gint64 max_steps = 0;
  double max_seconds_opt = NAN, max_seconds = 0;
  g_autofree char *max_seconds_note = NULL;
  gint threads = 1;
  g_autofree char *encoding_name = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the results as one JSON object", NULL },
    { "encoding", 0, 0, G_OPTION_ARG_STRING, &encoding_name,
      "How --json writes buffers' contents: \"data\" (numbers, the default), \"hex\" "
      "(\"bytes_hex\", little-endian bytes) or \"both\"", "data|hex|both" },
    { "max-steps", 0, 0, G_OPTION_ARG_INT64, &max_steps,
      "Stop with a step_limit fault after N warp-instructions (of each launch)", "N" },
    { "max-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &max_seconds_opt,
      "Stop with a time_limit fault after N seconds of simulation (of each launch; default 10, "
      "0: no limit)", "N" },
    { "no-trace", 0, 0, G_OPTION_ARG_NONE, &no_trace,
      "Do not record the trace nor analyse memory (faster)", NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads,
      "Run blocks on N threads, with the results of one (0: one per processor)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("SPEC.json - run a kernel launch");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(KsPtxModule) module = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(JsonNode) fault_node = NULL;
  g_autoptr(GString) printf_out = g_string_new (NULL);
  KsCliEncoding encoding = KS_CLI_ENCODING_DATA;
  g_autofree RunStep *steps = NULL;
  uint32_t n_steps, n_run = 0;
  gboolean faulted = FALSE;
  KsSimStats total = { 0 };
  RunState run = { 0 };

  g_option_context_set_summary (ctx,
    "Runs the spec's launch (or each of its \"launches\" in turn, over the same buffers)\n"
    "and prints its outputs: the buffers of \"outputs\" (every buffer when it has none)\n"
    "and the variables of \"output_symbols\".");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error ("run", error->message);
  if (argc != 2)
    return usage_error ("run", "expected exactly one launch spec");
  if (max_steps < 0)
    return usage_error ("run", "--max-steps must not be negative");
  if (!ks_cli_max_seconds (max_seconds_opt, &max_seconds, &max_seconds_note))
    return usage_error ("run", "--max-seconds must be a number of seconds >= 0");
  if (threads < 0)
    return usage_error ("run", "--threads must not be negative");
  if (encoding_name == NULL || strcmp (encoding_name, "data") == 0)
    encoding = KS_CLI_ENCODING_DATA;
  else if (strcmp (encoding_name, "hex") == 0)
    encoding = KS_CLI_ENCODING_HEX;
  else if (strcmp (encoding_name, "both") == 0)
    encoding = KS_CLI_ENCODING_DATA | KS_CLI_ENCODING_HEX;
  else
    return usage_error ("run", "--encoding must be data, hex or both");

  launch = ks_launch_load (argv[1], &error);
  if (launch == NULL)
    {
      g_printerr ("%s\n", error->message);
      if (json)
        ks_cli_print_json_error (error->message);
      return KS_CLI_EXIT_BAD_INPUT;
    }
  if (launch->ptx_path == NULL)
    {
      const char *msg = "compiling a \"source\" needs the CUDA toolchain support, which this "
                        "version does not have yet: give the launch a \"ptx\" file";

      g_printerr ("%s: error: %s\n", argv[1], msg);
      if (json)
        ks_cli_print_json_error (msg);
      return KS_CLI_EXIT_BAD_INPUT;
    }

  module = ks_ptx_module_parse_file (launch->ptx_path, &error);
  if (module == NULL)
    {
      g_printerr ("%s: error: %s\n", launch->ptx_path, error->message);
      if (json)
        ks_cli_print_json_error (error->message);
      return KS_CLI_EXIT_BAD_INPUT;
    }
  for (uint32_t i = 0; i < module->n_diagnostics; i++)
    {
      const KsPtxDiagnostic *d = &module->diagnostics[i];

      g_printerr ("%s:%u:%u: %s: %s\n", launch->ptx_path, d->line, d->column,
                  severity_name (d->severity), d->message);
    }

  /* The launches in turn, each from the memory the last one left */
  n_steps = MAX (launch->n_steps, 1);
  steps = g_new0 (RunStep, n_steps);
  run.module = module;
  run.launch = launch;
  run.steps = steps;
  run.printf_out = printf_out;
  run.total = &total;
  run.max_steps = max_steps;
  run.max_seconds = max_seconds;
  run.max_seconds_note = max_seconds_note;
  run.no_trace = no_trace;
  run.threads = (uint32_t) threads;
  run.json = json;
  /* the spec runs once: its buffers move into the simulator's memory */
  launch->take_buffers = TRUE;
  sim = ks_sim_run_launches (module, launch, 0, n_steps, NULL, run_setup, run_done, &run, NULL,
                             &error);
  n_run = run.n_run;
  faulted = run.fault_node != NULL || (sim != NULL && ks_sim_get_status (sim) == KS_SIM_FAULTED);
  fault_node = g_steal_pointer (&run.fault_node);
  if (sim == NULL)
    {
      /* The checks of the spec against its kernel name a field: placed
       * as the spec's own messages are */
      g_autofree char *placed = ks_launch_place_error (launch, error->message);

      g_printerr ("%s\n", placed);
      if (json)
        ks_cli_print_json_error (placed);
      for (uint32_t i = 0; i < n_run; i++)
        run_step_clear (&steps[i]);
      return KS_CLI_EXIT_BAD_INPUT;
    }

  if (!json)
    {
      fputs (printf_out->str, stdout);
      for (uint32_t k = 0; k < n_run; k++)
        {
          const RunStep *st = &steps[k];
          const KsSimStats *stats = &st->stats;

          g_autofree char *name = ks_format_name (st->kernel, -1);

          if (launch->n_steps > 1)
            g_print ("launch %u: ", k);
          g_print ("%s <<<(%u,%u,%u), (%u,%u,%u)>>>: %s in %.3f s\n", name,
                   st->grid[0], st->grid[1], st->grid[2],
                   st->block[0], st->block[1], st->block[2],
                   st->done ? "done" : "stopped", stats->seconds);
          g_print ("  %" G_GUINT64_FORMAT " warp-instructions, %" G_GUINT64_FORMAT
                   " thread-instructions (%.1f lanes each), %" G_GUINT64_FORMAT
                   " divergent branches, %" G_GUINT64_FORMAT " barriers\n",
                   stats->warp_instructions, stats->thread_instructions,
                   stats->warp_instructions ? (double) stats->thread_instructions / stats->warp_instructions : 0.0,
                   stats->divergent_branches, stats->barriers);
        }
      if (launch->n_steps > 1)
        g_print ("%u of %u launches run: %" G_GUINT64_FORMAT " warp-instructions, %" G_GUINT64_FORMAT
                 " thread-instructions in %.3f s\n", n_run, n_steps,
                 total.warp_instructions, total.thread_instructions, total.seconds);
      for (uint32_t i = 0; i < launch->n_outputs; i++)
        {
          const KsLaunchBuffer *buf = &launch->buffers[launch->outputs[i]];
          g_autofree char *line = preview_values (buf->type, buf->count,
                                                  ks_sim_get_buffer (sim, launch->outputs[i], NULL));

          g_print ("  %s (%s x %" G_GUINT64_FORMAT "): %s\n", buf->name,
                   ks_ptx_type_name (buf->type), buf->count, line);
        }
      for (uint32_t i = 0; i < launch->n_output_symbols; i++)
        {
          KsPtxType type;
          uint64_t count;
          const uint8_t *data = ks_sim_get_output_symbol (sim, i, &type, &count, NULL);
          g_autofree char *line = preview_values (type, count, data);

          g_print ("  symbol %s (%s x %" G_GUINT64_FORMAT "): %s\n", launch->output_symbols[i],
                   ks_ptx_type_name (type), count, line);
        }
      for (uint32_t k = 0; k < n_run; k++)
        run_step_clear (&steps[k]);
      return faulted ? KS_CLI_EXIT_FAULT : KS_CLI_EXIT_OK;
    }

  /* One JSON object, written as it goes */
  fputs ("{\n  \"status\" : ", stdout);
  write_string (stdout, faulted ? "fault" : "ok");
  if (fault_node != NULL)
    write_member_node (stdout, "fault", fault_node);

  fputs (",\n  \"buffers\" : {", stdout);
  {
    gboolean first = TRUE;

    for (uint32_t i = 0; i < launch->n_buffers; i++)
      {
        const KsLaunchBuffer *buf = &launch->buffers[i];
        gboolean wanted = launch->n_outputs == 0;
        size_t size;
        const uint8_t *data;

        for (uint32_t k = 0; k < launch->n_outputs; k++)
          wanted |= launch->outputs[k] == i;
        if (!wanted)
          continue;
        data = ks_sim_get_buffer (sim, i, &size);
        write_buffer (stdout, buf->name, buf->type, buf->count, data, size, encoding, first);
        first = FALSE;
      }
    fputs (first ? "}" : "\n  }", stdout);
  }

  if (launch->n_output_symbols > 0)
    {
      fputs (",\n  \"symbols\" : {", stdout);
      for (uint32_t i = 0; i < launch->n_output_symbols; i++)
        {
          KsPtxType type;
          uint64_t count;
          size_t size;
          const uint8_t *data = ks_sim_get_output_symbol (sim, i, &type, &count, &size);

          write_buffer (stdout, launch->output_symbols[i], type, count, data, size, encoding, i == 0);
        }
      fputs ("\n  }", stdout);
    }

  if (launch->n_steps <= 1)
    {
      JsonObject *report = json_node_get_object (steps[0].report);

      write_member_node (stdout, "stats", json_object_get_member (report, "stats"));
      write_member_node (stdout, "lines", json_object_get_member (report, "lines"));
      write_member_node (stdout, "hazards", json_object_get_member (report, "hazards"));
      write_member_node (stdout, "hints", json_object_get_member (report, "hints"));
    }
  else
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(JsonNode) launches = NULL;

      /* the totals of the launches run, then each launch */
      json_builder_begin_object (b);
      build_stats (b, NULL, &total);
      json_builder_end_object (b);
      node = json_builder_get_root (b);
      write_member_node (stdout, "stats", json_object_get_member (json_node_get_object (node), "stats"));

      json_builder_reset (b);
      json_builder_begin_array (b);
      for (uint32_t k = 0; k < n_steps; k++)
        {
          const RunStep *st = &steps[k];
          JsonObject *report;

          json_builder_begin_object (b);
          add_uint (b, "index", k);
          json_builder_set_member_name (b, "kernel");
          if (k < n_run)
            json_builder_add_string_value (b, st->kernel);
          else
            {
              g_autofree char *name = kernel_name (module, launch->steps[k].kernel);

              json_builder_add_string_value (b, name);
            }
          ks_cli_add_dim3 (b, "grid", launch->steps[k].grid);
          ks_cli_add_dim3 (b, "block", launch->steps[k].block);
          add_uint (b, "dynamic_shared_bytes", launch->steps[k].dynamic_shared_bytes);
          /* "ok", "fault", or "not_run" after a fault */
          json_builder_set_member_name (b, "status");
          json_builder_add_string_value (b, k >= n_run ? "not_run" : st->done ? "ok" : "fault");
          if (k < n_run)
            {
              report = json_node_get_object (st->report);
              json_builder_set_member_name (b, "stats");
              json_builder_add_value (b, json_node_copy (json_object_get_member (report, "stats")));
              json_builder_set_member_name (b, "lines");
              json_builder_add_value (b, json_node_copy (json_object_get_member (report, "lines")));
              json_builder_set_member_name (b, "hazards");
              json_builder_add_value (b, json_node_copy (json_object_get_member (report, "hazards")));
              json_builder_set_member_name (b, "hints");
              json_builder_add_value (b, json_node_copy (json_object_get_member (report, "hints")));
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      launches = json_builder_get_root (b);
      write_member_node (stdout, "launches", launches);
    }

  {
    /* the kernels' printf output, made valid UTF-8 */
    g_autofree char *valid = g_utf8_make_valid (printf_out->str, -1);
    g_autoptr(JsonNode) text = json_node_init_string (json_node_alloc (), valid);

    write_member_node (stdout, "printf", text);
  }
  fputs ("\n}\n", stdout);
  fflush (stdout);

  for (uint32_t k = 0; k < n_run; k++)
    run_step_clear (&steps[k]);
  return faulted ? KS_CLI_EXIT_FAULT : KS_CLI_EXIT_OK;
}

static const struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "parse", cmd_parse, "FILE.ptx: the module's kernels, registers, blocks and source lines" },
  { "run", cmd_run, "SPEC.json: run a kernel launch in the simulator and print its buffers" },
  { "analyze", ks_cli_analyze,
    "SPEC.json|FILE.ptx [--arch sm_XX|--gpu ID]: resources, occupancy, simulation, hints" },
  { "compare", ks_cli_compare,
    "A B [--gpu ID]: two kernels (files or sample folders) on one GPU, each figure with its "
    "change" },
  { "anatomy", ks_cli_anatomy,
    "SPEC.json|FILE [--gpu ID]: the launch's stages (seeds/004) with this kernel's figures" },
  { "fatbin", ks_cli_fatbin,
    "FILE [--extract DIR]: the PTX and cubins of a fat binary, host object or program" },
  { "occupancy", ks_cli_occupancy,
    "--arch sm_XX --block-size N --regs R: active blocks and warps per SM, occupancy, limiter" },
  { "record", ks_cli_record,
    "[--gpu ID] [--out DIR] -- PROGRAM ARGS...: run a CUDA program (nvcc -cudart shared) on the "
    "simulator, recording each launch" },
  { "probe", ks_cli_probe,
    "list | run TEMPLATE [--gpu ID] [--on gpu] [--out DIR] | rerun DIR | calibrate DIR: a "
    "hardware probe, verified, swept and fitted, on the model and a GPU" },
  { "sass", ks_cli_sass,
    "FILE [--resources FILE]: a cuobjdump/nvdisasm listing with control codes, pipes, lines" },
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
      return KS_CLI_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return KS_CLI_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("kernelscope-cli %s\n", PACKAGE_VERSION);
      return KS_CLI_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  return usage_error (NULL, "unknown command");
}
