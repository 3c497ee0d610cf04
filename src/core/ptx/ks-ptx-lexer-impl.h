/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-lexer-impl.h: the scanner's hot path, as static inline functions.
 *
 * Included by ks-ptx-lexer.c (which exports ks_ptx_lexer_next) and by the
 * parser, which calls ks_ptx_lexer_next_inline so that scanning a token
 * costs no function call: at about three bytes a token, the call and the
 * register saves around it were a third of the lexer's time. */
#pragma once

#include <string.h>

#include "ks-ptx-lexer.h"

enum
{
  KS_PTX_C_SPACE = 1 << 0,
  KS_PTX_C_IDSTART = 1 << 1,           /* letters, _ $ % */
  KS_PTX_C_IDCHAR = 1 << 2,            /* letters, digits, _ $ */
  KS_PTX_C_DIGIT = 1 << 3,
  KS_PTX_C_HEX = 1 << 4,
  KS_PTX_C_PUNCT = 1 << 5,
  KS_PTX_C_NEWLINE = 1 << 6,
};

extern uint8_t ks_ptx_char_class[256];

static inline int
ks_ptx_hex_value (unsigned char c)
{
  if (c <= '9')
    return c - '0';
  return (c | 0x20) - 'a' + 10;
}

/* Scans a number at lexer->pos.  Integers get their value; a decimal that
 * turns out to have a fraction or an exponent is a FLOAT token. */
static inline void
ks_ptx_scan_number (KsPtxLexer *lexer,
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
      while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_HEX))
        {
          if (v >> 60)
            overflow = TRUE;
          v = (v << 4) | (uint64_t) ks_ptx_hex_value (s[p]);
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
      while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_HEX))
        {
          v = (v << 4) | (uint64_t) ks_ptx_hex_value (s[p]);
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

      while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_DIGIT))
        p++;
      if (p < end && s[p] == '.')
        {
          is_float = TRUE;
          p++;
          while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_DIGIT))
            p++;
        }
      if (p < end && (s[p] | 0x20) == 'e'
          && (p + 1 < end && ((ks_ptx_char_class[s[p + 1]] & KS_PTX_C_DIGIT)
                              || ((s[p + 1] == '+' || s[p + 1] == '-')
                                  && p + 2 < end && (ks_ptx_char_class[s[p + 2]] & KS_PTX_C_DIGIT)))))
        {
          is_float = TRUE;
          p += 2;
          while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_DIGIT))
            p++;
        }

      if (is_float)
        tok->kind = KS_PTX_TOK_FLOAT;
      else if (octal)
        {
          for (size_t i = start; i < p; i++)
            {
              unsigned d = s[i] - '0';

              if (d > 7)
                bad = TRUE;
              if (v >> 61)
                overflow = TRUE;
              v = (v << 3) | d;
            }
        }
      else if (p - start <= 19)
        {
          /* up to 19 digits cannot overflow 64 bits */
          for (size_t i = start; i < p; i++)
            v = v * 10 + (unsigned) (s[i] - '0');
        }
      else
        {
          for (size_t i = start; i < p; i++)
            if (__builtin_mul_overflow (v, 10, &v) || __builtin_add_overflow (v, (unsigned) (s[i] - '0'), &v))
              overflow = TRUE;
        }
    }

  /* The unsigned suffix */
  if (tok->kind == KS_PTX_TOK_INT && p < end && s[p] == 'U')
    p++;

  /* A number must not run into an identifier: 12abc */
  if (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_IDCHAR))
    {
      bad = TRUE;
      while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_IDCHAR))
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

static inline __attribute__ ((always_inline)) void
ks_ptx_lexer_next_inline (KsPtxLexer *lexer,
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
      while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_SPACE))
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
  tok->hash = 0;
  tok->prefix_len = 0;
  tok->prefix_hash = 0;
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
  if (ks_ptx_char_class[c] & KS_PTX_C_IDSTART)
    {
      uint32_t h = (KS_PTX_FNV_BASIS ^ c) * KS_PTX_FNV_PRIME;
      uint32_t ph = h;
      size_t digits_at = 0;

      p++;
      while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_IDCHAR))
        {
          unsigned char d = s[p];

          /* remember where a run of trailing digits begins */
          if (d <= '9' && d >= '0')
            {
              if (digits_at == 0)
                {
                  digits_at = p;
                  ph = h;
                }
            }
          else
            digits_at = 0;
          h = (h ^ d) * KS_PTX_FNV_PRIME;
          p++;
        }
      tok->kind = KS_PTX_TOK_IDENT;
      tok->hash = h;
      tok->prefix_len = (uint32_t) ((digits_at ? digits_at : p) - tok->offset);
      tok->prefix_hash = digits_at ? ph : h;
      if (p - tok->offset == 1 && c == '%')
        {
          tok->kind = KS_PTX_TOK_ERROR;
          tok->error = KS_PTX_LEX_BAD_CHAR;
        }
    }
  else if (c == '.' && p + 1 < end && (ks_ptx_char_class[s[p + 1]] & KS_PTX_C_IDCHAR))
    {
      uint32_t h = KS_PTX_FNV_BASIS;

      p++;
      for (;;)
        {
          while (p < end && (ks_ptx_char_class[s[p]] & KS_PTX_C_IDCHAR))
            h = (h ^ s[p++]) * KS_PTX_FNV_PRIME;
          /* .shared::cta, .L2::cache_hint */
          if (p + 2 < end && s[p] == ':' && s[p + 1] == ':' && (ks_ptx_char_class[s[p + 2]] & KS_PTX_C_IDCHAR))
            {
              h = (h ^ ':') * KS_PTX_FNV_PRIME;
              h = (h ^ ':') * KS_PTX_FNV_PRIME;
              p += 2;
              continue;
            }
          break;
        }
      tok->kind = KS_PTX_TOK_DOTWORD;
      tok->hash = h;
    }
  else if (ks_ptx_char_class[c] & KS_PTX_C_DIGIT)
    {
      lexer->pos = p;
      ks_ptx_scan_number (lexer, tok);
      p = lexer->pos;
    }
  else if (ks_ptx_char_class[c] & KS_PTX_C_PUNCT)
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
      while (p < end && (s[p] >= 0x80 || (s[p] < ' ' && !(ks_ptx_char_class[s[p]] & (KS_PTX_C_SPACE | KS_PTX_C_NEWLINE)))
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

