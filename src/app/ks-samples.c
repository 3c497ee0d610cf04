/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-samples.c: reading the sample library's folders. */

#include "ks-samples.h"

#include <json-glib/json-glib.h>
#include <string.h>

void
ks_sample_free (KsSample *sample)
{
  if (sample == NULL)
    return;
  g_free (sample->id);
  g_free (sample->dir);
  g_free (sample->title);
  g_free (sample->description);
  g_strfreev (sample->tags);
  g_free (sample->cuda_path);
  g_free (sample->ptx_path);
  g_free (sample->spec_path);
  g_free (sample);
}

/* "01-vector-add" -> "Vector add" */
static char *
title_from_id (const char *id)
{
  const char *p = id;
  GString *s;

  while (g_ascii_isdigit (*p))
    p++;
  if (p != id && (*p == '-' || *p == '_'))
    p++;
  if (*p == '\0')
    p = id;
  s = g_string_new (p);
  for (gsize i = 0; i < s->len; i++)
    if (s->str[i] == '-' || s->str[i] == '_')
      s->str[i] = ' ';
  if (s->len > 0)
    s->str[0] = g_ascii_toupper (s->str[0]);
  return g_string_free (s, FALSE);
}

static char *
dup_member (JsonObject *o,
            const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return g_strdup (json_node_get_string (n));
}

static void
read_metadata (KsSample *sample)
{
  g_autofree char *path = g_build_filename (sample->dir, "sample.json", NULL);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return;
  parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, &error))
    {
      g_message ("%s", error->message);
      return;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  {
    g_autofree char *title = dup_member (json_node_get_object (root), "title");

    if (title != NULL && title[0] != '\0')
      {
        g_free (sample->title);
        sample->title = g_steal_pointer (&title);
      }
  }
  /* "summary" is the catalogue's word (docs/SAMPLES.md) */
  g_free (sample->description);
  sample->description = dup_member (json_node_get_object (root), "summary");
  if (sample->description == NULL)
    sample->description = dup_member (json_node_get_object (root), "description");
  {
    JsonNode *tags = json_object_get_member (json_node_get_object (root), "tags");
    g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

    for (guint i = 0; tags != NULL && JSON_NODE_HOLDS_ARRAY (tags)
                      && i < json_array_get_length (json_node_get_array (tags)); i++)
      {
        JsonNode *t = json_array_get_element (json_node_get_array (tags), i);

        if (JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_STRING)
          g_strv_builder_add (b, json_node_get_string (t));
      }
    g_strfreev (sample->tags);
    sample->tags = g_strv_builder_end (b);
  }
  {
    g_autofree char *spec = dup_member (json_node_get_object (root), "spec");
    g_autofree char *spec_path = spec ? g_build_filename (sample->dir, spec, NULL) : NULL;

    if (spec_path != NULL && g_file_test (spec_path, G_FILE_TEST_IS_REGULAR))
      {
        g_free (sample->spec_path);
        sample->spec_path = g_steal_pointer (&spec_path);
      }
  }
}

static KsSample *
read_sample (const char *samples_dir,
             const char *id)
{
  g_autoptr(KsSample) sample = g_new0 (KsSample, 1);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  sample->id = g_strdup (id);
  sample->dir = g_build_filename (samples_dir, id, NULL);
  dir = g_dir_open (sample->dir, 0, NULL);
  if (dir == NULL)
    return NULL;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      char **slot = NULL;

      if (g_str_has_suffix (name, ".cu"))
        slot = &sample->cuda_path;
      else if (g_str_has_suffix (name, ".ptx"))
        slot = &sample->ptx_path;
      else if (g_str_has_suffix (name, ".json") && strcmp (name, "sample.json") != 0)
        slot = &sample->spec_path;
      /* Several of a kind: the first by name, so the choice is stable */
      if (slot != NULL)
        {
          g_autofree char *base = *slot ? g_path_get_basename (*slot) : NULL;

          if (base == NULL || strcmp (name, base) < 0)
            {
              g_free (*slot);
              *slot = g_build_filename (sample->dir, name, NULL);
            }
        }
    }
  if (sample->cuda_path == NULL && sample->ptx_path == NULL && sample->spec_path == NULL)
    return NULL;
  sample->title = title_from_id (id);
  sample->tags = g_new0 (char *, 1);
  read_metadata (sample);
  return g_steal_pointer (&sample);
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  const KsSample *sa = *(KsSample * const *) a, *sb = *(KsSample * const *) b;

  return strcmp (sa->id, sb->id);
}

/* The course order of index.json: {"samples": ["01-vector-add", ...]} */
static GHashTable *
read_index (const char *samples_dir)
{
  g_autofree char *path = g_build_filename (samples_dir, "index.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  GHashTable *order = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonNode *root, *list;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !json_parser_load_from_file (parser, path, NULL))
    return order;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return order;
  list = json_object_get_member (json_node_get_object (root), "samples");
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return order;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
    {
      JsonNode *n = json_array_get_element (json_node_get_array (list), i);

      if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
          && !g_hash_table_contains (order, json_node_get_string (n)))
        g_hash_table_insert (order, g_strdup (json_node_get_string (n)), GUINT_TO_POINTER (i + 1));
    }
  return order;
}

static int
compare_course (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  GHashTable *order = user_data;
  const KsSample *sa = *(KsSample * const *) a, *sb = *(KsSample * const *) b;
  guint ia = GPOINTER_TO_UINT (g_hash_table_lookup (order, sa->id));
  guint ib = GPOINTER_TO_UINT (g_hash_table_lookup (order, sb->id));

  /* listed ones first, in their order; the others after, by name */
  if (ia != ib)
    return ia == 0 ? 1 : ib == 0 ? -1 : ia < ib ? -1 : 1;
  return compare_ids (a, b);
}

GPtrArray *
ks_samples_list (const char *samples_dir)
{
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_sample_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_val_if_fail (samples_dir != NULL, samples);

  dir = g_dir_open (samples_dir, 0, NULL);
  if (dir == NULL)
    return samples;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (samples_dir, name, NULL);
      KsSample *sample;

      if (name[0] == '.' || !g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      sample = read_sample (samples_dir, name);
      if (sample != NULL)
        g_ptr_array_add (samples, sample);
    }
  {
    g_autoptr(GHashTable) order = read_index (samples_dir);

    g_ptr_array_sort_with_data (samples, compare_course, order);
  }
  return samples;
}

/* Folded, so a search ignores case and how a character is composed */
static char *
fold (const char *text)
{
  g_autofree char *normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return normal ? g_utf8_casefold (normal, -1) : g_strdup ("");
}

gboolean
ks_sample_matches (const KsSample *sample,
                   const char     *query)
{
  g_autoptr(GString) hay = NULL;
  g_autofree char *folded_hay = NULL, *folded_query = NULL;
  g_auto(GStrv) words = NULL;

  g_return_val_if_fail (sample != NULL, FALSE);

  if (query == NULL || !g_utf8_validate (query, -1, NULL))
    return TRUE;
  /* one string, its parts apart, so a word never matches across two */
  hay = g_string_new (sample->title);
  g_string_append_c (hay, '\n');
  if (sample->description != NULL)
    g_string_append (hay, sample->description);
  for (guint i = 0; sample->tags != NULL && sample->tags[i] != NULL; i++)
    {
      g_string_append_c (hay, '\n');
      g_string_append (hay, sample->tags[i]);
    }
  g_string_append_c (hay, '\n');
  g_string_append (hay, sample->id);
  folded_hay = fold (hay->str);
  folded_query = fold (query);
  words = g_strsplit_set (folded_query, " \t\n", -1);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (folded_hay, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

char *
ks_data_find_dir (const char *name)
{
  const char *env = g_getenv ("KS_DATA_DIR");
  const char *dirs[] = {
#ifdef KS_PKGDATADIR
    KS_PKGDATADIR,
#endif
#ifdef KS_SOURCE_DATADIR
    KS_SOURCE_DATADIR,
#endif
    NULL
  };

  g_return_val_if_fail (name != NULL, NULL);

  if (env != NULL && env[0] != '\0')
    {
      g_autofree char *path = g_build_filename (env, name, NULL);

      return g_file_test (path, G_FILE_TEST_IS_DIR) ? g_steal_pointer (&path) : NULL;
    }
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&path);
    }
  return NULL;
}
