/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-artifacts.c: what `nvcc --keep` leaves, and who wrote it
 * (ks-artifacts.h). */
#include "ks-artifacts.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-json.h"
#include "ks-toolchain-private.h"

static void
artifact_clear (KsArtifact *a)
{
  g_free (a->name);
  g_free (a->tool);
  g_free (a->text);
}

void
ks_artifacts_free (KsArtifacts *artifacts)
{
  if (artifacts == NULL)
    return;
  for (uint32_t i = 0; i < artifacts->n_items; i++)
    artifact_clear (&artifacts->items[i]);
  g_free (artifacts->items);
  g_clear_pointer (&artifacts->steps, g_ptr_array_unref);
  g_free (artifacts->toolkit);
  g_free (artifacts->arch);
  g_free (artifacts->command);
  g_free (artifacts);
}

static KsArtifacts *
artifacts_new (void)
{
  KsArtifacts *a = g_new0 (KsArtifacts, 1);

  a->steps = g_ptr_array_new_with_free_func (g_free);
  return a;
}

const char *
ks_artifact_kind (const char *name)
{
  static const struct { const char *suffix, *kind; } kinds[] = {
    { ".cpp1.ii", "device-preprocessed" },
    { ".cpp4.ii", "host-preprocessed" },
    { ".cudafe1.stub.c", "stub" },
    { ".cudafe1.cpp", "host" },
    { ".cudafe1.c", "device-c" },
    { ".cudafe1.gpu", "device-gpu" },
    { ".module_id", "module-id" },
    { ".fatbin.c", "fatbin-c" },
    { ".fatbin", "fatbin" },
    { ".cubin", "cubin" },
    { ".ptx", "ptx" },
    { ".o", "object" },
    { ".reg.c", "registration" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_has_suffix (name, kinds[i].suffix))
      return kinds[i].kind;
  return NULL;
}

static gboolean
is_text_kind (const char *kind)
{
  return kind != NULL && !g_str_equal (kind, "cubin") && !g_str_equal (kind, "fatbin")
         && !g_str_equal (kind, "object");
}

const KsArtifact *
ks_artifacts_find (const KsArtifacts *artifacts,
                   const char        *suffix)
{
  for (uint32_t i = 0; artifacts != NULL && i < artifacts->n_items; i++)
    if (g_str_has_suffix (artifacts->items[i].name, suffix))
      return &artifacts->items[i];
  return NULL;
}

static KsArtifact *
find_name (KsArtifacts *artifacts,
           const char  *name)
{
  for (uint32_t i = 0; i < artifacts->n_items; i++)
    if (g_str_equal (artifacts->items[i].name, name))
      return &artifacts->items[i];
  return NULL;
}

/* The value of `option` at argv[*i]: "--create=X" or "--create" "X" */
static const char *
option_value (char   **argv,
              guint   *i,
              const char *option)
{
  size_t n = strlen (option);

  if (strncmp (argv[*i], option, n) != 0)
    return NULL;
  if (argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (argv[*i][n] == '\0' && argv[*i + 1] != NULL)
    return argv[++*i];
  return NULL;
}

void
ks_artifacts_read_steps (KsArtifacts *artifacts,
                         const char  *nvcc_v)
{
  static const char *const outputs[] = {
    "-o", "--create", "--embedded-fatbin", "--gen_c_file_name", "--stub_file_name",
    "--gen_device_file_name", "--module_id_file_name",
  };
  g_auto(GStrv) lines = NULL;

  g_return_if_fail (artifacts != NULL);
  if (nvcc_v == NULL)
    return;
  lines = g_strsplit (nvcc_v, "\n", -1);
  for (guint l = 0; lines[l] != NULL; l++)
    {
      const char *line = lines[l];
      size_t var;
      g_auto(GStrv) argv = NULL;
      g_autofree char *tool = NULL;
      gboolean gen_module_id = FALSE;

      if (!g_str_has_prefix (line, "#$ "))
        continue;
      line += 3;
      /* "#$ _HERE_=/usr/local/cuda/bin": a variable, not a step */
      var = strspn (line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
      if (var > 0 && line[var] == '=')
        continue;
      if (!g_shell_parse_argv (line, NULL, &argv, NULL) || argv[0] == NULL)
        continue;
      /* "$CICC_PATH/cicc" is cicc */
      tool = g_path_get_basename (argv[0]);
      g_ptr_array_add (artifacts->steps, g_strstrip (g_strdup (line)));
      for (guint i = 1; argv[i] != NULL; i++)
        gen_module_id |= g_str_equal (argv[i], "--gen_module_id_file");
      for (guint i = 1; argv[i] != NULL; i++)
        for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
          {
            const char *value = option_value (argv, &i, outputs[o]);
            g_autofree char *base = NULL;
            KsArtifact *item;

            if (value == NULL)
              continue;
            /* cicc reads the module id that cudafe++ wrote */
            if (g_str_equal (outputs[o], "--module_id_file_name") && !gen_module_id)
              break;
            base = g_path_get_basename (value);
            item = find_name (artifacts, base);
            if (item != NULL)
              {
                g_free (item->tool);
                item->tool = g_strdup (tool);
                item->step = (int) artifacts->steps->len - 1;
              }
            break;
          }
    }
}

static int
compare_written (const void *a,
                 const void *b)
{
  const KsArtifact *x = a, *y = b;
  /* files no step wrote go last */
  uint32_t wx = (uint32_t) x->step, wy = (uint32_t) y->step;

  if (wx != wy)
    return wx < wy ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
sort_items (KsArtifacts *artifacts)
{
  /* a record may list no files (items NULL) */
  if (artifacts->n_items > 1)
    qsort (artifacts->items, artifacts->n_items, sizeof (KsArtifact), compare_written);
}

/* The text of a small text file, when it is UTF-8 */
static char *
read_text (const char *path,
           const char *name,
           uint64_t    size)
{
  char *text = NULL;
  gsize len;

  if (!is_text_kind (ks_artifact_kind (name)) || size > KS_ARTIFACT_MAX_TEXT
      || !g_file_get_contents (path, &text, &len, NULL))
    return NULL;
  if (!g_utf8_validate (text, (gssize) len, NULL))
    g_clear_pointer (&text, g_free);
  return text;
}

KsArtifacts *
ks_artifacts_make (const KsToolchain *tc,
                   const char        *path,
                   const char        *text,
                   const char        *arch,
                   GCancellable      *cancellable,
                   GError           **error)
{
  g_autofree char *tmpdir = NULL, *abs_path = NULL, *base = NULL, *dir = NULL, *src = NULL;
  g_autofree char *stem = NULL, *object = NULL, *inc = NULL, *arch_opt = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(KsArtifacts) result = NULL;
  g_autoptr(GArray) items = NULL;
  g_autoptr(GDir) listing = NULL;
  const char *entry;
  int status = 0;

  g_return_val_if_fail (tc != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);

  if (!_ks_toolchain_can_compile (tc, arch, error))
    return NULL;
  /* a real architecture: the cubin is of one */
  if (!g_str_has_prefix (arch, "sm_"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an architecture such as sm_86", arch);
      return NULL;
    }
  base = _ks_toolchain_cuda_name (path, &abs_path, &dir);
  tmpdir = _ks_toolchain_stage_source (tc, "kernelscope-keep-XXXXXX", abs_path, base, text, &src,
                                       error);
  if (tmpdir == NULL)
    return NULL;
  stem = g_strndup (base, strlen (base) - 3);
  object = g_strconcat (stem, ".o", NULL);
  inc = g_strconcat ("-I", dir, NULL);
  arch_opt = g_strconcat ("-arch=", arch, NULL);
  {
    /* names relative to the folder, so that the steps name "./k.ptx" */
    const char *argv[] = { tc->paths[KS_TOOL_NVCC], "--keep", "--keep-dir", ".", "-v", "-c",
                           "-lineinfo", arch_opt, inc, "-o", object, base, NULL };

    if (!_ks_toolchain_run_nvcc (tc, _ks_toolchain_compiling (tc), argv, tmpdir, cancellable,
                                 &status, &out, &err, error))
      {
        _ks_toolchain_remove_tree (tmpdir);
        return NULL;
      }
  }
  if (status != 0)
    {
      g_autofree char *messages = NULL;
      GString *s = g_string_new (NULL);
      g_auto(GStrv) lines = g_strsplit (err ? err : "", "\n", -1);

      /* nvcc's own messages, without the steps it printed */
      for (guint i = 0; lines[i] != NULL; i++)
        if (!g_str_has_prefix (lines[i], "#$ ") && *lines[i] != '\0')
          g_string_append_printf (s, "%s%s", s->len ? "\n" : "", lines[i]);
      messages = g_string_free (s, FALSE);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: nvcc --keep failed (exit status "
                   "%d):\n%s", path, status, messages);
      _ks_toolchain_remove_tree (tmpdir);
      return NULL;
    }

  result = artifacts_new ();
  items = g_array_new (FALSE, TRUE, sizeof (KsArtifact));
  listing = g_dir_open (tmpdir, 0, NULL);
  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *file = g_build_filename (tmpdir, entry, NULL);
      GStatBuf st;
      KsArtifact a = { .step = -1 };

      /* the copy of the source is not the compiler's */
      if (g_str_equal (entry, base) || g_stat (file, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      a.name = g_strdup (entry);
      a.size = (uint64_t) st.st_size;
      a.text = read_text (file, entry, a.size);
      g_array_append_val (items, a);
    }
  _ks_toolchain_remove_tree (tmpdir);
  result->n_items = items->len;
  result->items = (KsArtifact *) (void *) g_array_free (g_steal_pointer (&items), FALSE);
  ks_artifacts_read_steps (result, err);
  sort_items (result);
  result->toolkit = _ks_toolkit_name (_ks_toolchain_compiling (tc));
  result->arch = g_strdup (arch);
  result->command = g_strdup_printf ("nvcc --keep -c -lineinfo -arch=%s %s", arch, base);
  return g_steal_pointer (&result);
}

char *
ks_artifacts_record_path (const char *folder,
                          const char *cuda_name)
{
  g_autofree char *base = g_path_get_basename (cuda_name);
  g_autofree char *stem = g_str_has_suffix (base, ".cu") ? g_strndup (base, strlen (base) - 3)
                                                         : g_strdup (base);
  g_autofree char *file = g_strconcat (stem, ".keep.json", NULL);

  return g_build_filename (folder, "keep", file, NULL);
}

KsArtifacts *
ks_artifacts_load (const char  *record,
                   const char  *cuda,
                   GError     **error)
{
  g_autofree char *sha = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KsArtifacts) result = NULL;
  g_autoptr(GString) steps = g_string_new (NULL);
  g_autoptr(GError) local_error = NULL;
  JsonObject *o;
  JsonArray *files, *list;
  const char *want;

  g_return_val_if_fail (record != NULL && cuda != NULL, NULL);

  if (!g_file_test (record, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no record of nvcc --keep",
                   record);
      return NULL;
    }
  if (!json_parser_load_from_file (parser, record, &local_error)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", record,
                   local_error ? local_error->message : "not a JSON object");
      return NULL;
    }
  o = json_node_get_object (json_parser_get_root (parser));
  want = ks_json_member_string (o, "cuda_sha256");
  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, cuda, -1);
  if (want == NULL || !g_str_equal (want, sha))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: recorded of another text of "
                   "%s", record, ks_json_member_string (o, "cuda"));
      return NULL;
    }
  files = ks_json_member_array (o, "files");
  list = ks_json_member_array (o, "steps");
  if (files == NULL || list == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: no \"files\" or \"steps\"",
                   record);
      return NULL;
    }
  result = artifacts_new ();
  result->recorded = TRUE;
  result->toolkit = g_strdup (ks_json_member_string (o, "toolkit"));
  result->arch = g_strdup (ks_json_member_string (o, "arch"));
  result->command = g_strdup (ks_json_member_string (o, "command"));
  result->items = g_new0 (KsArtifact, json_array_get_length (files));
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonNode *n = json_array_get_element (files, i);
      JsonObject *f = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      const char *name = f ? ks_json_member_string (f, "name") : NULL;
      const char *text = f ? ks_json_member_string (f, "text") : NULL;
      KsArtifact *a;

      if (name == NULL || *name == '\0')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: files[%u] has no plain "
                       "\"name\"", record, i);
          return NULL;
        }
      a = &result->items[result->n_items++];
      a->name = g_strdup (name);
      a->step = -1;
      a->size = (uint64_t) MAX (0, json_object_get_int_member_with_default (f, "size", 0));
      a->text = g_strdup (text);
    }
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *n = json_array_get_element (list, i);

      if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
        g_string_append_printf (steps, "#$ %s\n", json_node_get_string (n));
    }
  ks_artifacts_read_steps (result, steps->str);
  sort_items (result);
  return g_steal_pointer (&result);
}

/* The end of the parenthesised list or braced block that opens at *s */
static const char *
matching (const char *s,
          char        open,
          char        close)
{
  int depth = 0;

  for (; *s != '\0'; s++)
    if (*s == open)
      depth++;
    else if (*s == close && --depth == 0)
      return s;
  return NULL;
}

/* The body of the function `name` defined in text: the block after
 * "name(...)", skipping its declarations ("name(...);") */
static const char *
definition (const char *text,
            const char *name,
            const char **end)
{
  size_t n = strlen (name);

  for (const char *p = strstr (text, name); p != NULL; p = strstr (p + n, name))
    {
      const char *close, *body;

      /* the whole name: not the end of a longer one */
      if ((p > text && (g_ascii_isalnum (p[-1]) || p[-1] == '_')) || p[n] != '(')
        continue;
      close = matching (p + n, '(', ')');
      if (close == NULL)
        return NULL;
      /* a line marker ("# 2 \"k.cu\"") may come before the body */
      for (body = close + 1; g_ascii_isspace (*body) || *body == '#';)
        body = *body == '#' ? body + strcspn (body, "\n") : body + 1;
      if (*body == '{' && (*end = matching (body, '{', '}')) != NULL)
        return body;
    }
  return NULL;
}

int
ks_artifacts_stub_offsets (const char *stub,
                           const char *kernel,
                           uint32_t   *offsets,
                           uint32_t    max)
{
  g_autofree char *stub_name = NULL;
  const char *body, *end = NULL;
  int n = 0;

  g_return_val_if_fail (stub != NULL && kernel != NULL, -1);

  if (g_str_has_prefix (kernel, "_Z"))
    stub_name = g_strconcat ("__device_stub_", kernel, NULL);
  else
    {
      /* extern "C": the host function of the kernel's name calls a stub
       * named after its C++ mangling */
      const char *host = definition (stub, kernel, &end), *call;

      if (host == NULL || (call = strstr (host, "__device_stub_")) == NULL || call > end)
        return -1;
      stub_name = g_strndup (call, strcspn (call, "( "));
    }
  body = definition (stub, stub_name, &end);
  if (body == NULL)
    return -1;
  for (const char *p = strstr (body, "__cudaSetupArg"); p != NULL && p < end;
       p = strstr (p + 1, "__cudaSetupArg"))
    {
      const char *q = p + strlen ("__cudaSetupArg");
      char *tail;
      unsigned long index, offset;

      if (g_str_has_prefix (q, "Simple"))
        q += strlen ("Simple");
      if (!g_str_has_prefix (q, "(__par"))
        continue;
      errno = 0;
      index = strtoul (q + strlen ("(__par"), &tail, 10);
      if (errno != 0 || *tail != ',' || index >= max)
        continue;
      offset = strtoul (tail + 1, &tail, 10);
      if (errno != 0 || offset > G_MAXUINT32)
        continue;
      offsets[index] = (uint32_t) offset;
      n = MAX (n, (int) index + 1);
    }
  return n;
}

JsonNode *
ks_artifacts_to_json (const KsArtifacts *artifacts)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "toolkit");
  json_builder_add_string_value (b, artifacts->toolkit);
  json_builder_set_member_name (b, "arch");
  json_builder_add_string_value (b, artifacts->arch);
  json_builder_set_member_name (b, "command");
  json_builder_add_string_value (b, artifacts->command);
  json_builder_set_member_name (b, "recorded");
  json_builder_add_boolean_value (b, artifacts->recorded);
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < artifacts->steps->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (artifacts->steps, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < artifacts->n_items; i++)
    {
      const KsArtifact *a = &artifacts->items[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, a->name);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, ks_artifact_kind (a->name));
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) a->size);
      json_builder_set_member_name (b, "tool");
      json_builder_add_string_value (b, a->tool);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
