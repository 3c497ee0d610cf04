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

/* ------------------------------------------------------------ locating */

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end)
    {
      if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
      else if (*p == '/' && p + 1 < end && p[1] == '/')
        {
          p = memchr (p, '\n', (size_t) (end - p));
          if (p == NULL)
            return end;
        }
      else if (*p == '/' && p + 1 < end && p[1] == '*')
        {
          for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
            ;
          p = p < end ? p + 2 : end;
        }
      else
        break;
    }
  return p;
}

/* Past the string that starts at p (its opening quote) */
static const char *
skip_string (const char *p,
             const char *end)
{
  char quote = *p;

  for (p++; p < end && *p != quote; p++)
    if (*p == '\\' && quote == '"' && p + 1 < end)
      p++;
  return p < end ? p + 1 : end;
}

/* Past the value that starts at p: without recursion, as the depth of
 * what is skipped is not bounded here */
static const char *
skip_value (const char *p,
            const char *end)
{
  guint depth = 0;

  if (p >= end)
    return end;
  if (*p == '"' || *p == '\'')
    return skip_string (p, end);
  if (*p != '{' && *p != '[')
    {
      while (p < end && strchr (",}] \t\r\n/", *p) == NULL)
        p++;
      return p;
    }
  while (p < end)
    {
      if (*p == '"' || *p == '\'')
        {
          p = skip_string (p, end);
          continue;
        }
      if (*p == '/')
        {
          const char *q = skip_space (p, end);

          if (q != p)
            {
              p = q;
              continue;
            }
        }
      if (*p == '{' || *p == '[')
        depth++;
      else if ((*p == '}' || *p == ']') && --depth == 0)
        return p + 1;
      p++;
    }
  return end;
}

/* The next step of a path ("buffers.a", "launches[1]", "x[\"a b\"]"):
 * a key (allocated in *key) or an index; FALSE at the end or on a path
 * that is not one */
static gboolean
next_step (const char **path,
           char       **key,
           guint64     *index)
{
  const char *s = *path;

  *key = NULL;
  if (*s == '.')
    s++;
  if (*s == '[' && s[1] == '"')
    {
      const char *q = s + 2;
      g_autofree char *raw = NULL;

      while (*q != '\0' && *q != '"')
        q += (*q == '\\' && q[1] != '\0') ? 2 : 1;
      if (*q != '"' || q[1] != ']')
        return FALSE;
      raw = g_strndup (s + 2, (gsize) (q - s - 2));
      *key = g_strcompress (raw);
      *path = q + 2;
      return TRUE;
    }
  if (*s == '[')
    {
      char *stop = NULL;

      if (!g_ascii_isdigit (s[1]))
        return FALSE;
      *index = g_ascii_strtoull (s + 1, &stop, 10);
      if (stop == NULL || *stop != ']')
        return FALSE;
      *path = stop + 1;
      return TRUE;
    }
  {
    const char *q = s;

    while (g_ascii_isalnum (*q) || *q == '_' || *q == '-')
      q++;
    if (q == s)
      return FALSE;
    *key = g_strndup (s, (gsize) (q - s));
    *path = q;
    return TRUE;
  }
}

/* In the object or array at p: the start of the member's value, or NULL;
 * with *at where the member starts (its key, in an object) */
static const char *
find_member (const char  *p,
             const char  *end,
             const char  *key,
             guint64      index,
             const char **at)
{
  guint64 i = 0;

  if (p >= end || *p != (key != NULL ? '{' : '['))
    return NULL;
  p = skip_space (p + 1, end);
  while (p < end && *p != '}' && *p != ']')
    {
      if (key != NULL)
        {
          const char *k = p;
          gboolean same;

          if (*p != '"' && *p != '\'')
            return NULL;
          p = skip_string (p, end);
          {
            g_autofree char *raw = g_strndup (k + 1, (gsize) MAX (p - k - 2, 0));
            g_autofree char *name = memchr (raw, '\\', strlen (raw)) ? g_strcompress (raw) : NULL;

            same = strcmp (name != NULL ? name : raw, key) == 0;
          }
          p = skip_space (p, end);
          if (p >= end || *p != ':')
            return NULL;
          p = skip_space (p + 1, end);
          if (same)
            {
              *at = k;
              return p;
            }
        }
      else if (i++ == index)
        {
          *at = p;
          return p;
        }
      p = skip_space (skip_value (p, end), end);
      if (p < end && *p == ',')
        p = skip_space (p + 1, end);
    }
  return NULL;
}

gboolean
ks_json_locate (const char *data,
                gsize       length,
                const char *path,
                guint      *line,
                guint      *column)
{
  const char *end = data + length, *at, *found = NULL, *line_start = data;
  guint n_line = 1;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  at = skip_space (data, end);
  while (*path != '\0')
    {
      g_autofree char *key = NULL;
      guint64 index = 0;
      const char *next, *member = NULL;

      if (!next_step (&path, &key, &index))
        break;
      next = find_member (at, end, key, index, &member);
      if (next == NULL)
        break;
      found = member;
      at = next;
    }
  if (found == NULL)
    return FALSE;
  for (const char *p = data; p < found; p++)
    if (*p == '\n')
      {
        n_line++;
        line_start = p + 1;
      }
  if (line != NULL)
    *line = n_line;
  if (column != NULL)
    *column = (guint) (found - line_start) + 1;
  return TRUE;
}
