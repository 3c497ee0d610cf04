/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-json.c: JSON loading with a bound on nesting (see ks-json.h). */

#include <string.h>

#include "ks-json.h"

static KsJsonProblem
found (KsJsonProblem  problem,
       const char    *at,
       const char    *line_start,
       guint          n_line,
       guint         *line,
       guint         *column)
{
  if (line != NULL)
    *line = n_line;
  if (column != NULL)
    *column = (guint) (at - line_start) + 1;
  return problem;
}

KsJsonProblem
ks_json_check (const char *data,
               gsize       length,
               guint       max_depth,
               guint      *line,
               guint      *column)
{
  const char *p = data, *end = data + length, *line_start = data;
  guint depth = 0, n_line = 1;

  g_return_val_if_fail (data != NULL || length == 0, KS_JSON_OK);

  while (p < end)
    {
      char c = *p;

      switch (c)
        {
        case '\n':
          n_line++;
          line_start = ++p;
          continue;

        case '"':
        case '\'':
          /* A string, to its closing quote; json-glib reads escapes in
           * double-quoted ones only */
          for (p++; p < end && *p != c; p++)
            {
              if (*p == '\\' && c == '"' && p + 5 < end && memcmp (p + 1, "u0000", 5) == 0)
                return found (KS_JSON_NUL, p, line_start, n_line, line, column);
              if (*p == '\\' && c == '"' && p + 1 < end && p[1] != '\n')
                p++;
              else if (*p == '\n')
                {
                  n_line++;
                  line_start = p + 1;
                }
            }
          p++;
          continue;

        case '/':
          if (p + 1 < end && p[1] == '/')
            {
              p = memchr (p, '\n', (size_t) (end - p));
              if (p == NULL)
                p = end;
              continue;
            }
          if (p + 1 < end && p[1] == '*')
            {
              for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
                if (*p == '\n')
                  {
                    n_line++;
                    line_start = p + 1;
                  }
              p += 2;
              continue;
            }
          break;

        case '[':
        case '{':
          if (++depth > max_depth)
            return found (KS_JSON_TOO_DEEP, p, line_start, n_line, line, column);
          break;

        case ']':
        case '}':
          /* Unbalanced closers are json-glib's to report */
          if (depth > 0)
            depth--;
          break;

        default:
          break;
        }
      p++;
    }
  return KS_JSON_OK;
}

gboolean
ks_json_load_data (JsonParser  *parser,
                   const char  *data,
                   gssize       length,
                   const char  *origin,
                   GError     **error)
{
  gsize len;
  guint line = 0, column = 0;
  KsJsonProblem problem;

  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  len = length < 0 ? strlen (data) : (gsize) length;
  problem = ks_json_check (data, len, KS_JSON_MAX_DEPTH, &line, &column);
  if (problem == KS_JSON_TOO_DEEP)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "%s:%u:%u: arrays and objects nested more than %u deep",
                   origin != NULL ? origin : "<data>", line, column, KS_JSON_MAX_DEPTH);
      return FALSE;
    }
  if (problem == KS_JSON_NUL)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   "%s:%u:%u: \\u0000 (a NUL character) in a string: no path, name or "
                   "value here can hold one", origin != NULL ? origin : "<data>", line, column);
      return FALSE;
    }
  if (origin == NULL)
    return json_parser_load_from_data (parser, data, (gssize) len, error);

  {
    g_autoptr(GError) local = NULL;

    if (json_parser_load_from_data (parser, data, (gssize) len, &local))
      return TRUE;
    /* Name the file where json-glib says "<data>" */
    if (g_str_has_prefix (local->message, "<data>"))
      g_set_error (error, local->domain, local->code, "%s%s", origin,
                   local->message + strlen ("<data>"));
    else
      g_propagate_error (error, g_steal_pointer (&local));
    return FALSE;
  }
}

gboolean
ks_json_load_file (JsonParser  *parser,
                   const char  *path,
                   GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, &length, error))
    return FALSE;
  return ks_json_load_data (parser, contents, (gssize) length, path, error);
}
