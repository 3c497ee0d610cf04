/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-samples.c: reading the sample library's folders. */

#include "ks-samples.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "ks-json.h"

/* The results area's pages, by the names ks-window-views.c gives them */
const char *const ks_sample_focus_views[] = {
  "timeline", "memory", "occupancy", "lanes", "cfg", "hints", "output", NULL
};

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
  g_strfreev (sample->partners);
  g_free (sample->cuda_path);
  g_free (sample->ptx_path);
  g_free (sample->spec_path);
  g_free (sample->focus_view);
  g_free (sample->focus_error);
  g_free (sample);
}

const char *
ks_sample_analysis_path (const KsSample *sample)
{
  return sample->spec_path ? sample->spec_path
         : sample->ptx_path ? sample->ptx_path : sample->cuda_path;
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

/* A member that is a whole number from 1 to max, else 0 */
static guint
positive_member (JsonObject *o,
                 const char *name,
                 guint       max)
{
  JsonNode *n = json_object_get_member (o, name);
  double v;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return 0;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    v = (double) json_node_get_int (n);
  else if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    v = json_node_get_double (n);
  else
    return 0;
  return v >= 1 && v <= max && v == (double) (guint) v ? (guint) v : 0;
}

static guint
count_lines (const char *path)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  guint n = 0;

  if (path == NULL || !g_file_get_contents (path, &text, &len, NULL))
    return 0;
  for (gsize i = 0; i < len; i++)
    n += text[i] == '\n';
  return n + (len > 0 && text[len - 1] != '\n');
}

/* sample.json's "focus": {"line": N, "view": "memory", "step": K}, each
 * optional.  A focus with a wrong field is set aside whole, with a message
 * that names the field, so the sample still opens on its top hint. */
static char *
read_focus (KsSample   *sample,
            const char *path,
            JsonNode   *node)
{
  JsonObject *o;
  g_autoptr(GList) names = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup_printf (_("%s: \"focus\" must be an object such as "
                              "{\"line\": 34, \"view\": \"memory\"}"), path);
  o = json_node_get_object (node);
  names = json_object_get_members (o);
  for (GList *l = names; l != NULL; l = l->next)
    if (!g_str_equal (l->data, "line") && !g_str_equal (l->data, "view")
        && !g_str_equal (l->data, "step"))
      return g_strdup_printf (_("%s: \"focus\" has an unknown field \"%s\" (it takes \"line\", "
                                "\"view\" and \"step\")"), path, (const char *) l->data);
  if (json_object_has_member (o, "line"))
    {
      guint lines = count_lines (sample->cuda_path);
      g_autofree char *cu = sample->cuda_path ? g_path_get_basename (sample->cuda_path) : NULL;

      sample->focus_line = positive_member (o, "line", G_MAXINT32);
      if (sample->focus_line == 0)
        return g_strdup_printf (_("%s: \"focus\": \"line\" must be a line number from 1"), path);
      if (cu == NULL)
        return g_strdup_printf (_("%s: \"focus\": \"line\" is a line of the CUDA file, and the "
                                  "sample has none"), path);
      if (sample->focus_line > lines)
        return g_strdup_printf (_("%s: \"focus\": \"line\" is %u, past the end of %s (%u lines)"),
                                path, sample->focus_line, cu, lines);
    }
  if (json_object_has_member (o, "view"))
    {
      g_autofree char *view = dup_member (o, "view");

      if (view == NULL || !g_strv_contains (ks_sample_focus_views, view))
        {
          g_autofree char *names_list = g_strjoinv (", ", (char **) ks_sample_focus_views);

          return g_strdup_printf (_("%s: \"focus\": \"view\" must be one of %s"), path,
                                  names_list);
        }
      sample->focus_view = g_steal_pointer (&view);
    }
  if (json_object_has_member (o, "step"))
    {
      sample->focus_step = positive_member (o, "step", G_MAXINT32);
      if (sample->focus_step == 0)
        return g_strdup_printf (_("%s: \"focus\": \"step\" must be a step number from 1"), path);
    }
  return NULL;
}

/* An array of strings, its other elements left out; never NULL */
static char **
string_list (JsonObject *o,
             const char *member)
{
  JsonNode *list = json_object_get_member (o, member);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; list != NULL && JSON_NODE_HOLDS_ARRAY (list)
                    && i < json_array_get_length (json_node_get_array (list)); i++)
    {
      JsonNode *t = json_array_get_element (json_node_get_array (list), i);

      if (JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_STRING)
        g_strv_builder_add (b, json_node_get_string (t));
    }
  return g_strv_builder_end (b);
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
  if (!ks_json_load_file (parser, path, &error))
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
  g_strfreev (sample->tags);
  sample->tags = string_list (json_node_get_object (root), "tags");
  g_strfreev (sample->partners);
  sample->partners = string_list (json_node_get_object (root), "compare");
  sample->level = positive_member (json_node_get_object (root), "level", 100);
  {
    JsonNode *focus = json_object_get_member (json_node_get_object (root), "focus");

    if (focus != NULL)
      sample->focus_error = read_focus (sample, path, focus);
    if (sample->focus_error != NULL)
      {
        sample->focus_line = sample->focus_step = 0;
        g_clear_pointer (&sample->focus_view, g_free);
      }
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
  sample->number = (guint) strtoul (id, NULL, 10);
  sample->tags = g_new0 (char *, 1);
  sample->partners = g_new0 (char *, 1);
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

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !ks_json_load_file (parser, path, NULL))
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

static gboolean
is_number (const char *w)
{
  if (w[0] == '\0' || strlen (w) > 6)
    return FALSE;
  for (; *w != '\0'; w++)
    if (!g_ascii_isdigit (*w))
      return FALSE;
  return TRUE;
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
  {
    g_autofree char *level = fold ("level");
    g_autofree char *level_local = fold (_("level"));
    g_autoptr(GPtrArray) w = g_ptr_array_new ();

    for (guint i = 0; words[i] != NULL; i++)
      if (words[i][0] != '\0')
        g_ptr_array_add (w, words[i]);
    for (guint i = 0; i < w->len; i++)
      {
        const char *word = w->pdata[i];
        const char *digits = NULL;

        /* "level 2", "level2": the sample's level */
        if ((g_str_equal (word, level) || g_str_equal (word, level_local))
            && i + 1 < w->len && is_number (w->pdata[i + 1]))
          digits = w->pdata[++i];
        else if (g_str_has_prefix (word, level) && is_number (word + strlen (level)))
          digits = word + strlen (level);
        else if (g_str_has_prefix (word, level_local) && is_number (word + strlen (level_local)))
          digits = word + strlen (level_local);
        if (digits != NULL)
          {
            if (sample->level != (guint) strtoul (digits, NULL, 10))
              return FALSE;
          }
        /* digits alone: the sample's number, so "12" is sample 12 and not
         * every summary with a 12 in it */
        else if (is_number (word))
          {
            if (sample->number == 0 || sample->number != (guint) strtoul (word, NULL, 10))
              return FALSE;
          }
        else if (strstr (folded_hay, word) == NULL)
          return FALSE;
      }
  }
  return TRUE;
}

KsSample *
ks_sample_open (const char *dir)
{
  g_autofree char *parent = NULL, *id = NULL;

  g_return_val_if_fail (dir != NULL, NULL);

  parent = g_path_get_dirname (dir);
  id = g_path_get_basename (dir);
  return read_sample (parent, id);
}

const KsSample *
ks_samples_find (GPtrArray  *samples,
                 const char *id)
{
  for (guint i = 0; samples != NULL && id != NULL && i < samples->len; i++)
    {
      const KsSample *sample = g_ptr_array_index (samples, i);

      if (g_str_equal (sample->id, id))
        return sample;
    }
  return NULL;
}

GPtrArray *
ks_samples_group (GPtrArray  *samples,
                  const char *id,
                  guint      *index)
{
  const KsSample *s = ks_samples_find (samples, id);
  GPtrArray *group = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_sample_free);

  *index = 0;
  for (guint i = 0; s != NULL && i < samples->len; i++)
    {
      const KsSample *o = samples->pdata[i];
      KsSample *copy;

      if (o != s && !g_strv_contains ((const char *const *) s->partners, o->id))
        continue;
      copy = ks_sample_open (o->dir);
      if (copy == NULL)
        continue;
      if (o == s)
        *index = group->len;
      g_ptr_array_add (group, copy);
    }
  return group;
}

const KsSample *
ks_samples_find_for_file (GPtrArray  *samples,
                          const char *path)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) parent = NULL;

  g_return_val_if_fail (samples != NULL, NULL);

  if (path == NULL)
    return NULL;
  /* (GFile makes both paths canonical: "a/../b" is "b") */
  file = g_file_new_for_path (path);
  parent = g_file_get_parent (file);
  for (guint i = 0; parent != NULL && i < samples->len; i++)
    {
      const KsSample *sample = g_ptr_array_index (samples, i);
      g_autoptr(GFile) dir = g_file_new_for_path (sample->dir);

      if (g_file_equal (dir, parent))
        return sample;
    }
  return NULL;
}

#ifdef KS_BUILD_ROOT
static gboolean
same_file (const char *a,
           const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0
         && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
#endif

gboolean
ks_running_uninstalled (void)
{
#ifdef KS_BUILD_ROOT
  static gsize once = 0;
  static gboolean uninstalled;

  if (g_once_init_enter (&once))
    {
      /* By the file's identity, not its name, so a build tree reached
       * through a symbolic link is still found */
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;

      while (dir != NULL && strcmp (dir, "/") != 0 && strcmp (dir, ".") != 0 && !uninstalled)
        {
          char *up = g_path_get_dirname (dir);

          uninstalled = same_file (dir, KS_BUILD_ROOT);
          g_free (dir);
          dir = up;
        }
      g_once_init_leave (&once, 1);
    }
  return uninstalled;
#else
  return FALSE;
#endif
}

char *
ks_data_find_dir (const char *name)
{
  const char *env = g_getenv ("KS_DATA_DIR");
  /* A program run from its build tree reads the source tree's data first:
   * an installed copy may be an older version's */
  const char *installed =
#ifdef KS_PKGDATADIR
    KS_PKGDATADIR;
#else
    NULL;
#endif
  const char *source =
#ifdef KS_SOURCE_DATADIR
    KS_SOURCE_DATADIR;
#else
    NULL;
#endif
  gboolean uninstalled = ks_running_uninstalled ();
  const char *dirs[] = { uninstalled ? source : installed, uninstalled ? installed : source, NULL };

  g_return_val_if_fail (name != NULL, NULL);

  if (env != NULL && env[0] != '\0')
    {
      g_autofree char *path = g_build_filename (env, name, NULL);

      return g_file_test (path, G_FILE_TEST_IS_DIR) ? g_steal_pointer (&path) : NULL;
    }
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *path = NULL;

      if (dirs[i] == NULL)
        continue;
      path = g_build_filename (dirs[i], name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&path);
    }
  return NULL;
}
