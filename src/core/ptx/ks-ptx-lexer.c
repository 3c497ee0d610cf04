/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-lexer.c: a table-driven scanner over a byte buffer.
 *
 * The lexer is the parser's hot loop (it must keep up with >= 100 MB/s), so
 * it classifies bytes through a 256-entry table and never copies text: a
 * token is an offset and a length into the caller's buffer.  Every loop is
 * bounded by the buffer's end, so truncated or binary input only ever yields
 * error tokens. */

#include "ks-ptx-lexer.h"

enum
{
  C_SPACE = 1 << 0,
  C_IDSTART = 1 << 1,           /* letters, _ $ % */
  C_IDCHAR = 1 << 2,            /* letters, digits, _ $ */
  C_DIGIT = 1 << 3,
  C_HEX = 1 << 4,
  C_PUNCT = 1 << 5,
  C_NEWLINE = 1 << 6,
};

static uint8_t char_class[256];

static void
init_classes (void)
{
  for (int c = 0; c < 256; c++)
    {
      uint8_t k = 0;

      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
        k |= C_SPACE;
      if (c == '\n')
        k |= C_NEWLINE;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$')
        k |= C_IDSTART | C_IDCHAR;
      if (c == '%')
        k |= C_IDSTART;
      if (c >= '0' && c <= '9')
        k |= C_DIGIT | C_IDCHAR | C_HEX;
      if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
        k |= C_HEX;
      if (c != 0 && strchr (",;:{}[]()<>+-@!=|", c) != NULL)
        k |= C_PUNCT;
      char_class[c] = k;
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

static inline int
hex_value (unsigned char c)
{
  if (c <= '9')
    return c - '0';
  return (c | 0x20) - 'a' + 10;
}

/* Scans a number at lexer->pos.  Integers get their value; a decimal that
 * turns out to have a fraction or an exponent is a FLOAT token. */
static void
scan_number (KsPtxLexer *lexer,
             KsPtxToken *tok)
{
  const unsigned char *s = (const unsigned char *) lexer->text;
  size_t end = lexer->len;
  size_t p = lexer->pos;
  uint64_t v = 0;
  gboolean overflow = FALSE;
  gboolean bad = FALSE;

  tok->kind = KS_PTX_TOK_INT;

  if (s[p] == '0' && p + 1 < end && (s[p + 1] | 0x20) == 'x')
    {
      size_t start;

      p += 2;
      start = p;
      while (p < end && (char_class[s[p]] & C_HEX))
        {
          if (v >> 60)
            overflow = TRUE;
          v = (v << 4) | (uint64_t) hex_value (s[p]);
          p++;
        }
      if (p == start)
        bad = TRUE;
    }
  else if (s[p] == '0' && p + 1 < end && ((s[p + 1] | 0x20) == 'f' || (s[p + 1] | 0x20) == 'd'))
    {
      size_t want = (s[p + 1] | 0x20) == 'f' ? 8 : 16;
      size_t start;

      tok->kind = want == 8 ? KS_PTX_TOK_F32_BITS : KS_PTX_TOK_F64_BITS;
      p += 2;
      start = p;
      while (p < end && (char_class[s[p]] & C_HEX))
        {
          v = (v << 4) | (uint64_t) hex_value (s[p]);
          p++;
        }
      if (p - start != want)
        bad = TRUE;
    }
  else if (s[p] == '0' && p + 1 < end && (s[p + 1] | 0x20) == 'b'
           && p + 2 < end && (s[p + 2] == '0' || s[p + 2] == '1'))
    {
      p += 2;
      while (p < end && (s[p] == '0' || s[p] == '1'))
        {
          if (v >> 63)
            overflow = TRUE;
          v = (v << 1) | (uint64_t) (s[p] - '0');
          p++;
        }
    }
  else
    {
      size_t start = p;
      gboolean octal = s[p] == '0';
      gboolean is_float = FALSE;

      while (p < end && (char_class[s[p]] & C_DIGIT))
        p++;
      if (p < end && s[p] == '.')
        {
          is_float = TRUE;
          p++;
          while (p < end && (char_class[s[p]] & C_DIGIT))
            p++;
        }
      if (p < end && (s[p] | 0x20) == 'e'
          && (p + 1 < end && ((char_class[s[p + 1]] & C_DIGIT)
                              || ((s[p + 1] == '+' || s[p + 1] == '-')
                                  && p + 2 < end && (char_class[s[p + 2]] & C_DIGIT)))))
        {
          is_float = TRUE;
          p += 2;
          while (p < end && (char_class[s[p]] & C_DIGIT))
            p++;
        }

      if (is_float)
        tok->kind = KS_PTX_TOK_FLOAT;
      else
        {
          for (size_t i = start; i < p; i++)
            {
              unsigned d = s[i] - '0';

              if (octal)
                {
                  if (d > 7)
                    bad = TRUE;
                  if (v >> 61)
                    overflow = TRUE;
                  v = (v << 3) | d;
                }
              else
                {
                  if (v > (G_MAXUINT64 - d) / 10)
                    overflow = TRUE;
                  v = v * 10 + d;
                }
            }
        }
    }

  /* The unsigned suffix */
  if (tok->kind == KS_PTX_TOK_INT && p < end && s[p] == 'U')
    p++;

  /* A number must not run into an identifier: 12abc */
  if (p < end && (char_class[s[p]] & C_IDCHAR))
    {
      bad = TRUE;
      while (p < end && (char_class[s[p]] & C_IDCHAR))
        p++;
    }

  tok->value = v;
  if (bad || overflow)
    {
      tok->kind = KS_PTX_TOK_ERROR;
      tok->error = bad ? KS_PTX_LEX_BAD_NUMBER : KS_PTX_LEX_NUMBER_TOO_BIG;
    }
  lexer->pos = p;
}

void
ks_ptx_lexer_next (KsPtxLexer *lexer,
                   KsPtxToken *tok)
{
  const unsigned char *s = (const unsigned char *) lexer->text;
  size_t end = lexer->len;
  size_t p = lexer->pos;
  uint8_t space = 0;
  unsigned char c;

  /* Whitespace and comments */
  for (;;)
    {
      while (p < end && (char_class[s[p]] & C_SPACE))
        p++;
      if (p >= end)
        break;
      if (s[p] == '\n')
        {
          p++;
          lexer->line++;
          lexer->line_start = p;
          space = 1;
          continue;
        }
      if (s[p] == '/' && p + 1 < end && s[p + 1] == '/')
        {
          const unsigned char *nl = memchr (s + p, '\n', end - p);

          p = nl ? (size_t) (nl - s) : end;
          space = 1;
          continue;
        }
      if (s[p] == '/' && p + 1 < end && s[p + 1] == '*')
        {
          size_t start = p;
          uint32_t start_line = lexer->line;
          size_t start_col = p - lexer->line_start;
          gboolean closed = FALSE;

          p += 2;
          while (p < end)
            {
              if (s[p] == '\n')
                {
                  lexer->line++;
                  lexer->line_start = p + 1;
                }
              else if (s[p] == '*' && p + 1 < end && s[p + 1] == '/')
                {
                  p += 2;
                  closed = TRUE;
                  break;
                }
              p++;
            }
          if (!closed)
            {
              lexer->pos = end;
              tok->kind = KS_PTX_TOK_ERROR;
              tok->error = KS_PTX_LEX_UNTERMINATED_COMMENT;
              tok->space_before = 1;
              tok->punct = 0;
              tok->offset = (uint32_t) start;
              tok->len = 2;
              tok->line = start_line;
              tok->column = (uint32_t) start_col + 1;
              tok->value = 0;
              return;
            }
          space = 1;
          continue;
        }
      /* Anything else, control characters included, is a token. */
      break;
    }

  tok->space_before = space;
  tok->punct = 0;
  tok->error = KS_PTX_LEX_OK;
  tok->value = 0;
  tok->offset = (uint32_t) p;
  tok->line = lexer->line;
  tok->column = (uint32_t) (p - lexer->line_start) + 1;

  if (p >= end)
    {
      tok->kind = KS_PTX_TOK_EOF;
      tok->len = 0;
      lexer->pos = end;
      return;
    }

  c = s[p];
  if (char_class[c] & C_IDSTART)
    {
      p++;
      while (p < end && (char_class[s[p]] & C_IDCHAR))
        p++;
      tok->kind = KS_PTX_TOK_IDENT;
      if (p - tok->offset == 1 && c == '%')
        {
          tok->kind = KS_PTX_TOK_ERROR;
          tok->error = KS_PTX_LEX_BAD_CHAR;
        }
    }
  else if (c == '.' && p + 1 < end && (char_class[s[p + 1]] & C_IDCHAR))
    {
      p++;
      for (;;)
        {
          while (p < end && (char_class[s[p]] & C_IDCHAR))
            p++;
          /* .shared::cta, .L2::cache_hint */
          if (p + 2 < end && s[p] == ':' && s[p + 1] == ':' && (char_class[s[p + 2]] & C_IDCHAR))
            {
              p += 2;
              continue;
            }
          break;
        }
      tok->kind = KS_PTX_TOK_DOTWORD;
    }
  else if (char_class[c] & C_DIGIT)
    {
      lexer->pos = p;
      scan_number (lexer, tok);
      p = lexer->pos;
    }
  else if (char_class[c] & C_PUNCT)
    {
      p++;
      tok->kind = KS_PTX_TOK_PUNCT;
      tok->punct = (char) c;
    }
  else if (c == '"')
    {
      p++;
      while (p < end && s[p] != '"' && s[p] != '\n')
        {
          if (s[p] == '\\' && p + 1 < end && s[p + 1] != '\n')
            p++;
          p++;
        }
      if (p < end && s[p] == '"')
        {
          p++;
          tok->kind = KS_PTX_TOK_STRING;
        }
      else
        {
          tok->kind = KS_PTX_TOK_ERROR;
          tok->error = KS_PTX_LEX_UNTERMINATED_STRING;
        }
    }
  else if (c >= 0x80 || c < ' ' || c == 0x7f)
    {
      /* Binary junk or another encoding: one error for the whole run */
      while (p < end && (s[p] >= 0x80 || (s[p] < ' ' && !(char_class[s[p]] & (C_SPACE | C_NEWLINE)))
                         || s[p] == 0x7f))
        p++;
      tok->kind = KS_PTX_TOK_ERROR;
      tok->error = KS_PTX_LEX_BAD_BYTES;
    }
  else
    {
      p++;
      tok->kind = KS_PTX_TOK_ERROR;
      tok->error = KS_PTX_LEX_BAD_CHAR;
    }

  tok->len = (uint32_t) (p - tok->offset);
  lexer->pos = p;
}
