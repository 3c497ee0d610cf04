/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-lexer.h: turns PTX text into tokens, never reading past its end. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum
{
  KS_PTX_TOK_EOF = 0,
  KS_PTX_TOK_IDENT,             /* add, %r1, $L__BB0_2, _Z4vaddPfS_S_i, _ */
  KS_PTX_TOK_DOTWORD,           /* .global, .shared::cta, .L2::cache_hint, .f32 */
  KS_PTX_TOK_INT,               /* 42, 0x2a, 052, 0b101010, 42U: value in .value */
  KS_PTX_TOK_FLOAT,             /* 1.5, 2e10: the text is parsed by the consumer */
  KS_PTX_TOK_F32_BITS,          /* 0f3F800000: bits in .value */
  KS_PTX_TOK_F64_BITS,          /* 0d3FF0000000000000: bits in .value */
  KS_PTX_TOK_STRING,            /* "..." (the span includes the quotes) */
  KS_PTX_TOK_PUNCT,             /* one of , ; : { } [ ] ( ) < > + - @ ! = | */
  KS_PTX_TOK_ERROR,             /* see .error */
} KsPtxTokenKind;

typedef enum
{
  KS_PTX_LEX_OK = 0,
  KS_PTX_LEX_BAD_CHAR,          /* a byte that cannot start a token */
  KS_PTX_LEX_BAD_BYTES,         /* a run of bytes >= 0x80 or control characters */
  KS_PTX_LEX_UNTERMINATED_COMMENT,
  KS_PTX_LEX_UNTERMINATED_STRING,
  KS_PTX_LEX_BAD_NUMBER,        /* digits that are not a number: 0x, 09, 0fABC, 1e */
  KS_PTX_LEX_NUMBER_TOO_BIG,    /* does not fit 64 bits */
} KsPtxLexError;

typedef struct
{
  uint8_t kind;                 /* KsPtxTokenKind */
  uint8_t error;                /* KsPtxLexError, for KS_PTX_TOK_ERROR */
  uint8_t space_before;         /* whitespace or a comment separates it from the previous token */
  char punct;                   /* for KS_PTX_TOK_PUNCT */
  uint32_t offset, len;
  uint32_t line, column;        /* 1-based; column counts bytes */
  uint64_t value;
  /* For IDENT and DOTWORD (without its dot): the FNV-1a hash of the text,
   * and for IDENT the length and hash of the text before its trailing
   * digits (%r12 -> %r), so that names need not be hashed twice. */
  uint32_t hash;
  uint32_t prefix_len;
  uint32_t prefix_hash;
} KsPtxToken;

#define KS_PTX_FNV_BASIS 2166136261u
#define KS_PTX_FNV_PRIME 16777619u

typedef struct
{
  const char *text;
  size_t len;
  size_t pos;
  size_t line_start;
  uint32_t line;
} KsPtxLexer;

void         ks_ptx_lexer_init        (KsPtxLexer       *lexer,
                                       const char       *text,
                                       size_t            len);
void         ks_ptx_lexer_next        (KsPtxLexer       *lexer,
                                       KsPtxToken       *token);
const char  *ks_ptx_lex_error_message (KsPtxLexError     error);
/* Skips raw text up to and including the '}' that closes a '{' just read,
 * honouring nested braces, comments and strings, without making tokens
 * (for debug sections, which can be a quarter of a file).  Returns FALSE
 * at the end of the text. */
gboolean     ks_ptx_lexer_skip_block  (KsPtxLexer       *lexer);

G_END_DECLS
