/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-shipped-sass.c: finding the SASS that ships beside a kernel
 * (ks-shipped-sass.h). */

#include <json-glib/json-glib.h>
#include <string.h>

#include "ks-shipped-sass.h"
#include "ks-json.h"

void
ks_shipped_sass_free (KsShippedSass *shipped)
{
  if (shipped == NULL)
    return;
  g_free (shipped->listing_path);
  g_free (shipped->report_path);
  g_free (shipped->toolkit);
  g_free (shipped->compile);
  g_free (shipped->disassemble);
  g_strfreev (shipped->archs);
  g_free (shipped->error);
  g_free (shipped);
}

/* An architecture name as the index writes it: "sm_" and digits, with an
 * optional letter ("sm_90a"); nothing that could climb out of the folder */
static gboolean
arch_name_ok (const char *arch)
{
  size_t n;

  if (arch == NULL || !g_str_has_prefix (arch, "sm_"))
    return FALSE;
  n = strspn (arch + 3, "0123456789");
  return n > 0 && n <= 4 && (arch[3 + n] == '\0'
                             || (g_ascii_islower (arch[3 + n]) && arch[4 + n] == '\0'));
}

KsShippedSass *
ks_shipped_sass_find (const char *file,
                      const char *text,
                      const char *arch)
{
  KsShippedSass *s = g_new0 (KsShippedSass, 1);
  g_autofree char *dir = NULL, *base = NULL, *stem = NULL, *index = NULL, *sha = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) archs = NULL;
  const char *dot, *want_sha, *key;
  gboolean cuda, have_arch = FALSE;
  JsonObject *o;
  JsonArray *list;

  g_return_val_if_fail (text != NULL, s);
  if (file == NULL || arch == NULL)
    return s;
  base = g_path_get_basename (file);
  dot = strrchr (base, '.');
  if (dot == NULL || dot == base)
    return s;
  cuda = g_str_equal (dot, ".cu");
  if (!cuda && !g_str_equal (dot, ".ptx"))
    return s;
  stem = g_strndup (base, (gsize) (dot - base));
  dir = g_path_get_dirname (file);
  index = g_strdup_printf ("%s/sass/%s.index.json", dir, stem);
  if (!g_file_test (index, G_FILE_TEST_IS_REGULAR))
    return s;

  parser = json_parser_new ();
  if (!ks_json_load_file (parser, index, &error)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      s->error = g_strdup_printf ("%s: %s", index, error ? error->message : "not a JSON object");
      return s;
    }
  o = json_node_get_object (json_parser_get_root (parser));

  /* The listings are those of this file's text, or of nothing here */
  key = cuda ? "cuda" : "ptx";
  if (g_strcmp0 (ks_json_member_string (o, key), base) != 0)
    return s;
  want_sha = ks_json_member_string (o, cuda ? "cuda_sha256" : "ptx_sha256");
  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  if (want_sha == NULL || g_ascii_strcasecmp (want_sha, sha) != 0)
    {
      s->status = KS_SHIPPED_SASS_OTHER_CODE;
      return s;
    }

  s->toolkit = g_strdup (ks_json_member_string (o, "toolkit"));
  s->compile = g_strdup (ks_json_member_string (o, "compile"));
  s->disassemble = g_strdup (ks_json_member_string (o, "disassemble"));
  archs = g_strv_builder_new ();
  list = json_object_has_member (o, "archs") && JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "archs"))
         ? json_object_get_array_member (o, "archs") : NULL;
  for (guint i = 0; list != NULL && i < json_array_get_length (list); i++)
    {
      JsonNode *n = json_array_get_element (list, i);
      const char *a = JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
                      ? json_node_get_string (n) : NULL;
      g_autofree char *listing = NULL;

      if (!arch_name_ok (a))
        continue;
      listing = g_strdup_printf ("%s/sass/%s.%s.sass", dir, stem, a);
      if (!g_file_test (listing, G_FILE_TEST_IS_REGULAR))
        continue;
      g_strv_builder_add (archs, a);
      if (g_str_equal (a, arch))
        {
          g_autofree char *report = g_strdup_printf ("%s/sass/%s.%s.ptxas.txt", dir, stem, a);

          have_arch = TRUE;
          s->listing_path = g_steal_pointer (&listing);
          if (g_file_test (report, G_FILE_TEST_IS_REGULAR))
            s->report_path = g_steal_pointer (&report);
        }
    }
  s->archs = g_strv_builder_end (archs);
  s->status = have_arch ? KS_SHIPPED_SASS_FOUND : KS_SHIPPED_SASS_NO_ARCH;
  return s;
}
