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

/* Past the string or comment that starts at p, or p itself when none
 * does, with *n_line and *line_start moved over its newlines: strings and
 * comments as json-glib reads them (escapes in double-quoted strings only).
 * With @nul, it stops at a \u0000 escape in a string, sets *nul there and
 * returns it. */
static const char *
skip_text (const char  *p,
           const char  *end,
           guint       *n_line,
           const char **line_start,
           const char **nul)
{
  char c = *p;

  if (c == '"' || c == '\'')
    {
      for (p++; p < end && *p != c; p++)
        {
          if (nul != NULL && *p == '\\' && c == '"' && p + 5 < end
              && memcmp (p + 1, "u0000", 5) == 0)
            {
              *nul = p;
              return p;
            }
          if (*p == '\\' && c == '"' && p + 1 < end && p[1] != '\n')
            p++;
          else if (*p == '\n')
            {
              (*n_line)++;
              *line_start = p + 1;
            }
        }
      return p + 1;
    }
  if (c == '/' && p + 1 < end && p[1] == '/')
    {
      p = memchr (p, '\n', (size_t) (end - p));
      return p != NULL ? p : end;
    }
  if (c == '/' && p + 1 < end && p[1] == '*')
    {
      for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
        if (*p == '\n')
          {
            (*n_line)++;
            *line_start = p + 1;
          }
      return p + 2;
    }
  return p;
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
        case '/':
          {
            const char *nul = NULL, *next = skip_text (p, end, &n_line, &line_start, &nul);

            if (nul != NULL)
              return found (KS_JSON_NUL, nul, line_start, n_line, line, column);
            if (next != p)
              {
                p = next;
                continue;
              }
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

/* ------------------------------------------------------------- lifting */

struct _KsJsonLift
{
  char *text;                   /* the copy json-glib reads */
  gsize length;
  GArray *lifted;               /* KsJsonLifted, in the order of the text */
  guint8 *seen;                 /* per lifted array: json-glib ended it */
  guint n_seen;
  gboolean clash;               /* json-glib ended one twice */
  GHashTable *arrays;           /* JsonArray -> index + 1 in lifted */
  JsonParser *parser;
  gulong handler;
};

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Past a number in JSON's own grammar that starts at p, or NULL */
static const char *
strict_number (const char *p,
               const char *end)
{
  const char *digits;

  if (p < end && *p == '-')
    p++;
  if (p >= end)
    return NULL;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (p < end && g_ascii_isdigit (*p))
      p++;
  else
    return NULL;
  if (p < end && *p == '.')
    {
      for (digits = ++p; p < end && g_ascii_isdigit (*p); p++)
        ;
      if (p == digits)
        return NULL;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      for (digits = p; p < end && g_ascii_isdigit (*p); p++)
        ;
      if (p == digits)
        return NULL;
    }
  return p;
}

/* Past a double-quoted string without escapes or control characters that
 * starts at p, or NULL */
static const char *
strict_string (const char *p,
               const char *end)
{
  for (p++; p < end && *p != '"'; p++)
    if (*p == '\\' || (guchar) *p < 0x20)
      return NULL;
  return p < end ? p + 1 : NULL;
}

/* Past the plain value at p, or NULL */
static const char *
plain_value (const char *p,
             const char *end)
{
  const char *q = *p == '"' ? strict_string (p, end) : strict_number (p, end);

  return q != NULL && q - p <= KS_JSON_LIFT_MAX_TOKEN ? q : NULL;
}

/* The array at p (its '[') when it is a flat one of plain values: its
 * element count and its ']' */
static gboolean
flat_array (const char  *p,
            const char  *end,
            guint64     *n_elements,
            const char **close)
{
  guint64 n = 0;

  for (p++;; p++)
    {
      while (p < end && is_space (*p))
        p++;
      if (p >= end || (p = plain_value (p, end)) == NULL)
        return FALSE;
      n++;
      while (p < end && is_space (*p))
        p++;
      if (p >= end)
        return FALSE;
      if (*p == ']')
        {
          *n_elements = n;
          *close = p;
          return TRUE;
        }
      if (*p != ',')
        return FALSE;
    }
}

KsJsonLift *
ks_json_lift_new (const char *data,
                  gsize       length,
                  guint       min_elements)
{
  const char *p = data, *end = data + length, *line_start = data;
  g_autoptr(GArray) lifted = g_array_new (FALSE, FALSE, sizeof (KsJsonLifted));
  guint line = 1;
  KsJsonLift *lift;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  /* Strings and comments skipped as ks_json_check() skips them */
  while (p < end)
    {
      char c = *p;

      if (c == '\n')
        {
          line++;
          line_start = ++p;
          continue;
        }
      if (c == '"' || c == '\'' || c == '/')
        {
          const char *next = skip_text (p, end, &line, &line_start, NULL);

          if (next != p)
            {
              p = next;
              continue;
            }
        }
      if (c == '[')
        {
          KsJsonLifted l = { 0 };
          const char *close;

          if (flat_array (p, end, &l.n_elements, &close) && l.n_elements >= MAX (min_elements, 1))
            {
              for (const char *q = p; q < close; q++)
                if (*q == '\n')
                  {
                    line++;
                    line_start = q + 1;
                  }
              l.open = (gsize) (p - data);
              l.close = (gsize) (close - data);
              l.line = line;
              l.column = (guint) (close - line_start) + 1;
              g_array_append_val (lifted, l);
              p = close + 1;
              continue;
            }
        }
      p++;
    }

  if (lifted->len == 0)
    return NULL;

  lift = g_new0 (KsJsonLift, 1);
  lift->length = length;
  lift->text = g_malloc (length + 1);
  memcpy (lift->text, data, length);
  lift->text[length] = '\0';
  for (guint i = 0; i < lifted->len; i++)
    {
      const KsJsonLifted *l = &g_array_index (lifted, KsJsonLifted, i);

      for (gsize k = l->open + 1; k < l->close; k++)
        if (lift->text[k] != '\n')
          lift->text[k] = ' ';
    }
  lift->seen = g_new0 (guint8, lifted->len);
  lift->arrays = g_hash_table_new (NULL, NULL);
  lift->lifted = g_steal_pointer (&lifted);
  return lift;
}

const char *
ks_json_lift_text (KsJsonLift *lift,
                   gsize      *length)
{
  g_return_val_if_fail (lift != NULL, NULL);

  if (length != NULL)
    *length = lift->length;
  return lift->text;
}

static int
compare_end (const void *key,
             const void *element)
{
  const guint *at = key;
  const KsJsonLifted *l = element;

  if (at[0] != l->line)
    return at[0] < l->line ? -1 : 1;
  if (at[1] != l->column)
    return at[1] < l->column ? -1 : 1;
  return 0;
}

static void
lift_array_end (JsonParser *parser,
                JsonArray  *array,
                gpointer    user_data)
{
  KsJsonLift *lift = user_data;
  guint at[2];
  const KsJsonLifted *l;
  guint i;

  if (json_array_get_length (array) != 0)
    return;
  /* json-glib is at the ']' that ended the array */
  at[0] = json_parser_get_current_line (parser);
  at[1] = json_parser_get_current_pos (parser);
  l = bsearch (at, lift->lifted->data, lift->lifted->len, sizeof (KsJsonLifted), compare_end);
  if (l == NULL)
    return;
  i = (guint) (l - &g_array_index (lift->lifted, KsJsonLifted, 0));
  if (lift->seen[i])
    {
      lift->clash = TRUE;
      return;
    }
  lift->seen[i] = 1;
  lift->n_seen++;
  g_hash_table_insert (lift->arrays, array, GUINT_TO_POINTER (i + 1));
}

void
ks_json_lift_watch (KsJsonLift *lift,
                    JsonParser *parser)
{
  g_return_if_fail (lift != NULL);
  g_return_if_fail (JSON_IS_PARSER (parser));
  g_return_if_fail (lift->parser == NULL);

  lift->parser = g_object_ref (parser);
  lift->handler = g_signal_connect (parser, "array-end", G_CALLBACK (lift_array_end), lift);
}

gboolean
ks_json_lift_matched (KsJsonLift *lift)
{
  g_return_val_if_fail (lift != NULL, FALSE);

  return !lift->clash && lift->n_seen == lift->lifted->len;
}

const KsJsonLifted *
ks_json_lift_find (KsJsonLift *lift,
                   JsonArray  *array)
{
  guint i;

  if (lift == NULL || array == NULL || json_array_get_length (array) != 0)
    return NULL;
  i = GPOINTER_TO_UINT (g_hash_table_lookup (lift->arrays, array));
  return i != 0 ? &g_array_index (lift->lifted, KsJsonLifted, i - 1) : NULL;
}

const KsJsonLifted *
ks_json_lift_arrays (KsJsonLift *lift,
                     guint      *n_arrays)
{
  g_return_val_if_fail (lift != NULL, NULL);

  *n_arrays = lift->lifted->len;
  return (const KsJsonLifted *) (gpointer) lift->lifted->data;
}

void
ks_json_lift_free (KsJsonLift *lift)
{
  if (lift == NULL)
    return;
  if (lift->parser != NULL)
    {
      g_signal_handler_disconnect (lift->parser, lift->handler);
      g_object_unref (lift->parser);
    }
  g_hash_table_unref (lift->arrays);
  g_array_unref (lift->lifted);
  g_free (lift->seen);
  g_free (lift->text);
  g_free (lift);
}

gboolean
ks_json_lifted_next (const char         *data,
                     const KsJsonLifted *lifted,
                     gsize              *pos,
                     const char        **token,
                     gsize              *token_length)
{
  const char *p, *end, *q;

  g_return_val_if_fail (data != NULL && lifted != NULL && pos != NULL, FALSE);

  p = data + (*pos == 0 ? lifted->open + 1 : *pos);
  end = data + lifted->close;
  while (p < end && (is_space (*p) || *p == ','))
    p++;
  if (p >= end || (q = plain_value (p, end)) == NULL)
    return FALSE;
  *token = p;
  *token_length = (gsize) (q - p);
  *pos = (gsize) (q - data);
  return TRUE;
}

const char *
ks_json_member_string (JsonObject *o,
                       const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

JsonArray *
ks_json_member_array (JsonObject *o,
                      const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

void
ks_json_add_dim3 (JsonBuilder    *b,
                  const char     *name,
                  const uint32_t  v[3])
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (int d = 0; d < 3; d++)
    json_builder_add_int_value (b, v[d]);
  json_builder_end_array (b);
}
