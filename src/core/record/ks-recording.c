/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-recording.c: the folder a recording is kept in (ks-recording.h). */
#include "ks-recording.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

struct _KsRecording
{
  char *dir;
  char *head;                   /* launches.json up to "launches" */
  GPtrArray *entries;           /* (char *) each launch's object */
  GHashTable *blobs;            /* names written (char *) */
  GPtrArray *modules;           /* (char *) by index; NULL where not written */
  uint64_t blob_bytes;
  uint64_t not_saved;
  char *not_saved_reason;
};

static gboolean
make_dir (const char  *path,
          GError     **error)
{
  if (g_mkdir_with_parents (path, 0755) != 0)
    {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   "cannot make the folder %s: %s", path, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

KsRecording *
ks_recording_new (const char        *dir,
                  const char *const *argv,
                  const char        *gpu_id,
                  GError           **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *modules = g_build_filename (dir, "modules", NULL);
  g_autofree char *blobs = g_build_filename (dir, "blobs", NULL);
  g_autofree char *text = NULL;
  KsRecording *rec;

  if (!make_dir (dir, error) || !make_dir (modules, error) || !make_dir (blobs, error))
    return NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "program");
  json_builder_begin_array (b);
  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    json_builder_add_string_value (b, argv[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, gpu_id != NULL ? gpu_id : "");
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  /* "{...}" without its closing brace, to which the launches are added */
  g_assert (text[strlen (text) - 1] == '}');
  text[strlen (text) - 1] = '\0';

  rec = g_new0 (KsRecording, 1);
  rec->dir = g_strdup (dir);
  rec->head = g_steal_pointer (&text);
  rec->entries = g_ptr_array_new_with_free_func (g_free);
  rec->blobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  rec->modules = g_ptr_array_new_with_free_func (g_free);
  if (!ks_recording_flush (rec, error))
    {
      ks_recording_free (rec);
      return NULL;
    }
  return rec;
}

const char *
ks_recording_dir (const KsRecording *rec)
{
  return rec->dir;
}

const char *
ks_recording_add_module (KsRecording *rec,
                         uint32_t     index,
                         const char  *ptx,
                         size_t       length,
                         GError     **error)
{
  g_autofree char *name = NULL, *path = NULL;

  if (index < rec->modules->len && g_ptr_array_index (rec->modules, index) != NULL)
    return g_ptr_array_index (rec->modules, index);
  name = g_strdup_printf ("modules/module-%u.ptx", index);
  path = g_build_filename (rec->dir, name, NULL);
  if (!g_file_set_contents (path, ptx, (gssize) length, error))
    return NULL;
  if (index >= rec->modules->len)
    g_ptr_array_set_size (rec->modules, index + 1);
  g_ptr_array_index (rec->modules, index) = g_steal_pointer (&name);
  return g_ptr_array_index (rec->modules, index);
}

gboolean
ks_recording_add_file (KsRecording   *rec,
                       const char    *name,
                       const uint8_t *data,
                       size_t         length,
                       GError       **error)
{
  g_autofree char *path = g_build_filename (rec->dir, name, NULL);

  return g_file_set_contents (path, (const char *) data, (gssize) length, error);
}

char *
ks_recording_add_blob (KsRecording   *rec,
                       const uint8_t *data,
                       size_t         size,
                       GError       **error)
{
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
  g_autofree char *name = g_strdup_printf ("blobs/%s.bin", sum);
  g_autofree char *path = NULL;

  if (g_hash_table_contains (rec->blobs, name))
    return g_steal_pointer (&name);
  path = g_build_filename (rec->dir, name, NULL);
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, error))
    return NULL;
  g_hash_table_add (rec->blobs, g_strdup (name));
  rec->blob_bytes += size;
  return g_steal_pointer (&name);
}

uint64_t
ks_recording_blob_bytes (const KsRecording *rec)
{
  return rec->blob_bytes;
}

char *
ks_recording_spec_name (uint32_t index)
{
  return g_strdup_printf ("launch-%04u.json", index);
}

gboolean
ks_recording_add_launch (KsRecording *rec,
                         uint32_t     index,
                         const char  *spec_json,
                         const char  *entry_json,
                         GError     **error)
{
  g_autofree char *name = ks_recording_spec_name (index);
  g_autofree char *path = g_build_filename (rec->dir, name, NULL);
  size_t n = strlen (entry_json);

  g_return_val_if_fail (n >= 2 && entry_json[0] == '{' && entry_json[n - 1] == '}', FALSE);
  if (!g_file_set_contents (path, spec_json, -1, error))
    return FALSE;
  g_ptr_array_add (rec->entries,
                   g_strdup_printf ("{\"spec\":\"%s\"%s%.*s}", name, n > 2 ? "," : "",
                                    (int) (n - 2), entry_json + 1));
  /* launches.json is kept whole as the program goes (a program that
   * crashes leaves one that reads), rewritten less often as it grows */
  if (rec->entries->len <= 64 || rec->entries->len % 64 == 0)
    return ks_recording_flush (rec, error);
  return TRUE;
}

void
ks_recording_skip_launch (KsRecording *rec,
                          const char  *reason)
{
  rec->not_saved++;
  if (rec->not_saved_reason == NULL)
    rec->not_saved_reason = g_strdup (reason);
}

gboolean
ks_recording_flush (KsRecording *rec,
                    GError     **error)
{
  g_autoptr(GString) s = g_string_new (rec->head);
  g_autofree char *path = g_build_filename (rec->dir, "launches.json", NULL);

  g_string_append (s, ",\"launches\":[");
  for (guint i = 0; i < rec->entries->len; i++)
    g_string_append_printf (s, "%s\n  %s", i > 0 ? "," : "",
                            (const char *) g_ptr_array_index (rec->entries, i));
  g_string_append_printf (s, "\n],\"not_saved\":%" G_GUINT64_FORMAT, rec->not_saved);
  if (rec->not_saved_reason != NULL)
    {
      g_autoptr(JsonNode) reason = json_node_new (JSON_NODE_VALUE);
      g_autofree char *quoted = NULL;

      json_node_set_string (reason, rec->not_saved_reason);
      quoted = json_to_string (reason, FALSE);
      g_string_append_printf (s, ",\"not_saved_reason\":%s", quoted);
    }
  g_string_append (s, "}\n");
  return g_file_set_contents (path, s->str, (gssize) s->len, error);
}

void
ks_recording_free (KsRecording *rec)
{
  if (rec == NULL)
    return;
  g_free (rec->dir);
  g_free (rec->head);
  g_ptr_array_unref (rec->entries);
  g_hash_table_unref (rec->blobs);
  g_ptr_array_unref (rec->modules);
  g_free (rec->not_saved_reason);
  g_free (rec);
}
