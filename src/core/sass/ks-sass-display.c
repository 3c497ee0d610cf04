/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-display.c: a listing laid out for reading in a pane.
 *
 * cuobjdump and nvdisasm put an instruction 27 columns in and its hex word
 * 50 columns after that, so in a pane a third of the window wide the
 * opcodes started at the middle and the operands were cut.  This keeps
 * every line where it is (the line numbers are what links the listing to
 * the parsed instructions, the CUDA and the PTX) and only moves blanks:
 *
 *     [CONTROL] OFFSET LEAD    INSTRUCTION ;          HEX-WORD
 *
 * with the lead ("{", the predicate) in a column of its own so that the
 * opcodes line up, the hex words in one column after the longest
 * instruction (at most HEX_COLUMN_MAX), a second hex word's line with them,
 * and everything else indented by at most four spaces with its runs of
 * blanks made two spaces. */

#include <string.h>

#include "ks-sass.h"

#define INDENT "    "
#define LEAD_WIDTH 8u           /* "{ @!UP0 " */
#define HEX_COLUMN_MAX 80u

typedef struct
{
  GString *text;                /* the line up to its hex word */
  const char *hex;              /* the hex word's comment, or NULL */
  gsize hex_len;
  gboolean insn;                /* an instruction or a hex word's line */
} Line;

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

static const char *
skip_blanks (const char *p,
             const char *end)
{
  while (p < end && is_blank (*p))
    p++;
  return p;
}

static const char *
trim_end (const char *p,
          const char *end)
{
  while (end > p && is_blank (end[-1]))
    end--;
  return end;
}

/* The length of the offset marker at p (a slash, a star, hex digits, a
 * star and a slash), or 0 */
static gsize
offset_marker (const char *p,
               const char *end)
{
  const char *q = p + 2;

  if (end - p < 5 || p[0] != '/' || p[1] != '*')
    return 0;
  while (q < end && g_ascii_isxdigit (*q))
    q++;
  if (q == p + 2 || end - q < 2 || q[0] != '*' || q[1] != '/')
    return 0;
  return (gsize) (q + 2 - p);
}

/* Where the line's closing comment starts when it holds a hex word
 * ("0x..."), or end */
static const char *
hex_comment (const char *p,
             const char *end)
{
  const char *e = trim_end (p, end);

  if (e - p < 8 || e[-1] != '/' || e[-2] != '*')
    return end;
  for (gsize i = (gsize) (e - p) - 3; i-- > 0; )
    if (p[i] == '/' && p[i + 1] == '*')
      {
        const char *r = skip_blanks (p + i + 2, e);

        return e - r > 2 && r[0] == '0' && (r[1] == 'x' || r[1] == 'X') ? p + i : end;
      }
  return end;
}

/* Appends [p, end) with its ends trimmed, each blank one space and each
 * run of blanks `sep` */
static void
append_squeezed (GString    *out,
                 const char *p,
                 const char *end,
                 const char *sep)
{
  p = skip_blanks (p, end);
  end = trim_end (p, end);
  while (p < end)
    {
      if (is_blank (*p))
        {
          const char *q = skip_blanks (p, end);

          g_string_append (out, q - p > 1 ? sep : " ");
          p = q;
        }
      else
        g_string_append_c (out, *p++);
    }
}

/* An instruction's line: [control] offset lead instruction [hex] */
static gboolean
layout_insn (Line       *line,
             const char *p,
             const char *end)
{
  const char *t = skip_blanks (p, end), *control = NULL, *control_end = NULL;
  const char *code, *code_end, *hex;
  gsize off_len;
  GString *lead;

  /* CuAssembler's control codes come first: "[B------:R-:W-:Y:S02]" */
  if (t < end && *t == '[')
    {
      const char *close = memchr (t, ']', (gsize) (end - t));

      if (close == NULL)
        return FALSE;
      control = t;
      control_end = close + 1;
      t = skip_blanks (control_end, end);
    }
  off_len = offset_marker (t, end);
  if (off_len == 0)
    return FALSE;

  hex = hex_comment (t + off_len, end);
  code = skip_blanks (t + off_len, hex);
  code_end = trim_end (code, hex);
  g_string_append (line->text, INDENT);
  if (control != NULL)
    {
      g_string_append_len (line->text, control, control_end - control);
      g_string_append_c (line->text, ' ');
    }
  g_string_append_len (line->text, t, (gssize) off_len);
  g_string_append_c (line->text, ' ');

  /* The lead: Maxwell's "{" of a dual-issued pair, then the predicate */
  lead = g_string_new (NULL);
  if (code < code_end && *code == '{')
    {
      g_string_append (lead, "{ ");
      code = skip_blanks (code + 1, code_end);
    }
  if (code < code_end && *code == '@')
    {
      const char *q = code;

      while (q < code_end && !is_blank (*q))
        q++;
      g_string_append_len (lead, code, q - code);
      g_string_append_c (lead, ' ');
      code = skip_blanks (q, code_end);
    }
  while (lead->len < LEAD_WIDTH)
    g_string_append_c (lead, ' ');
  g_string_append_len (line->text, lead->str, (gssize) lead->len);
  g_string_free (lead, TRUE);
  append_squeezed (line->text, code, code_end, " ");
  if (hex < end)
    {
      line->hex = hex;
      line->hex_len = (gsize) (trim_end (hex, end) - hex);
    }
  line->insn = TRUE;
  return TRUE;
}

char *
ks_sass_display_text (const char *text,
                      gssize      len)
{
  const char *p, *end;
  GArray *lines;
  GString *out;
  gsize column = 0;

  g_return_val_if_fail (text != NULL, NULL);

  if (len < 0)
    len = (gssize) strlen (text);
  end = text + len;
  lines = g_array_new (FALSE, TRUE, sizeof (Line));

  for (p = text; p <= end; )
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *e = nl ? nl : end;
      const char *t = skip_blanks (p, e);
      Line line = { g_string_new (NULL), NULL, 0, FALSE };

      if (t < e && hex_comment (t, e) == t)
        {
          /* a hex word on a line of its own (Volta's second, Maxwell's
           * control word) */
          line.hex = t;
          line.hex_len = (gsize) (trim_end (t, e) - t);
          line.insn = TRUE;
        }
      else if (!layout_insn (&line, p, e))
        {
          g_string_truncate (line.text, 0);
          if (t > p && t < e)
            g_string_append (line.text, INDENT);
          append_squeezed (line.text, t, e, "  ");
        }
      if (line.insn && line.text->len > 0)
        column = MAX (column, line.text->len);
      g_array_append_val (lines, line);
      if (nl == NULL)
        break;
      p = nl + 1;
    }

  column = MIN (column + 3, HEX_COLUMN_MAX);
  out = g_string_sized_new ((gsize) len);
  for (guint i = 0; i < lines->len; i++)
    {
      Line *line = &g_array_index (lines, Line, i);

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append_len (out, line->text->str, (gssize) line->text->len);
      if (line->hex != NULL)
        {
          gsize at = line->text->len;

          /* the column, or two spaces past an instruction longer than it */
          do
            g_string_append_c (out, ' ');
          while (++at < column || (line->text->len > 0 && at < line->text->len + 2));
          g_string_append_len (out, line->hex, (gssize) line->hex_len);
        }
      g_string_free (line->text, TRUE);
    }
  g_array_free (lines, TRUE);
  return g_string_free (out, FALSE);
}
