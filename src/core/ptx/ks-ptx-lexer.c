/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-lexer.c: a table-driven scanner over a byte buffer.
 *
 * The lexer is the parser's hot loop (it must keep up with >= 100 MB/s), so
 * it classifies bytes through a 256-entry table and never copies text: a
 * token is an offset and a length into the caller's buffer.  Every loop is
 * bounded by the buffer's end, so truncated or binary input only ever yields
 * error tokens. */

#include "ks-ptx-lexer-impl.h"

uint8_t ks_ptx_char_class[256];

static void
init_classes (void)
{
  for (int c = 0; c < 256; c++)
    {
      uint8_t k = 0;

      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
        k |= KS_PTX_C_SPACE;
      if (c == '\n')
        k |= KS_PTX_C_NEWLINE;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$')
        k |= KS_PTX_C_IDSTART | KS_PTX_C_IDCHAR;
      if (c == '%')
        k |= KS_PTX_C_IDSTART;
      if (c >= '0' && c <= '9')
        k |= KS_PTX_C_DIGIT | KS_PTX_C_IDCHAR | KS_PTX_C_HEX;
      if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
        k |= KS_PTX_C_HEX;
      if (c != 0 && strchr (",;:{}[]()<>+-@!=|", c) != NULL)
        k |= KS_PTX_C_PUNCT;
      ks_ptx_char_class[c] = k;
    }
}

void
ks_ptx_lexer_init (KsPtxLexer *lexer,
                   const char *text,
                   size_t      len)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      init_classes ();
      g_once_init_leave (&once, 1);
    }

  lexer->text = text;
  lexer->len = len;
  lexer->pos = 0;
  lexer->line_start = 0;
  lexer->line = 1;
}

const char *
ks_ptx_lex_error_message (KsPtxLexError error)
{
  switch (error)
    {
    case KS_PTX_LEX_BAD_CHAR: return "unexpected character";
    case KS_PTX_LEX_BAD_BYTES: return "unexpected bytes (not PTX text)";
    case KS_PTX_LEX_UNTERMINATED_COMMENT: return "unterminated /* comment";
    case KS_PTX_LEX_UNTERMINATED_STRING: return "unterminated string";
    case KS_PTX_LEX_BAD_NUMBER: return "malformed number";
    case KS_PTX_LEX_NUMBER_TOO_BIG: return "number does not fit in 64 bits";
    case KS_PTX_LEX_OK:
    default: return "no error";
    }
}

void
ks_ptx_lexer_next (KsPtxLexer *lexer,
                   KsPtxToken *tok)
{
  ks_ptx_lexer_next_inline (lexer, tok);
}

gboolean
ks_ptx_lexer_skip_block (KsPtxLexer *lexer)
{
  const unsigned char *s = (const unsigned char *) lexer->text;
  size_t end = lexer->len;
  size_t p = lexer->pos;
  uint32_t depth = 1;

  static const uint8_t special[256] = {
    ['{'] = 1, ['}'] = 1, ['"'] = 1, ['/'] = 1, ['\n'] = 1,
  };

  while (p < end)
    {
      unsigned char c;

      /* most of a debug section is digits and commas */
      while (p < end && !special[s[p]])
        p++;
      if (p >= end)
        break;
      c = s[p++];
      switch (c)
        {
        case '\n':
          lexer->line++;
          lexer->line_start = p;
          break;
        case '{':
          depth++;
          break;
        case '}':
          if (--depth == 0)
            {
              lexer->pos = p;
              return TRUE;
            }
          break;
        case '"':
          while (p < end && s[p] != '"' && s[p] != '\n')
            p += (s[p] == '\\' && p + 1 < end && s[p + 1] != '\n') ? 2 : 1;
          if (p < end && s[p] == '"')
            p++;
          break;
        case '/':
          if (p < end && s[p] == '/')
            {
              const unsigned char *nl = memchr (s + p, '\n', end - p);

              p = nl ? (size_t) (nl - s) : end;
            }
          else if (p < end && s[p] == '*')
            {
              for (p++; p < end; p++)
                {
                  if (s[p] == '\n')
                    {
                      lexer->line++;
                      lexer->line_start = p + 1;
                    }
                  else if (s[p] == '*' && p + 1 < end && s[p + 1] == '/')
                    {
                      p += 2;
                      break;
                    }
                }
            }
          break;
        default:
          break;
        }
    }
  lexer->pos = end;
  return FALSE;
}
