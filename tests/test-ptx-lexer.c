/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the PTX lexer: token kinds, values, positions and errors. */

#include <string.h>

#include "ks-ptx-lexer.h"

typedef struct
{
  KsPtxTokenKind kind;
  const char *text;
} Expect;

static void
check_tokens (const char   *src,
              const Expect *want,
              guint         n_want)
{
  KsPtxLexer lex;
  KsPtxToken tok;

  ks_ptx_lexer_init (&lex, src, strlen (src));
  for (guint i = 0; i < n_want; i++)
    {
      g_autofree char *text = NULL;

      ks_ptx_lexer_next (&lex, &tok);
      text = g_strndup (src + tok.offset, tok.len);
      g_assert_cmpint (tok.kind, ==, want[i].kind);
      g_assert_cmpstr (text, ==, want[i].text);
    }
  ks_ptx_lexer_next (&lex, &tok);
  g_assert_cmpint (tok.kind, ==, KS_PTX_TOK_EOF);
}

static void
test_instruction (void)
{
  static const Expect want[] = {
    { KS_PTX_TOK_PUNCT, "@" }, { KS_PTX_TOK_PUNCT, "!" }, { KS_PTX_TOK_IDENT, "%p1" },
    { KS_PTX_TOK_IDENT, "ld" }, { KS_PTX_TOK_DOTWORD, ".global" }, { KS_PTX_TOK_DOTWORD, ".nc" },
    { KS_PTX_TOK_DOTWORD, ".v4" }, { KS_PTX_TOK_DOTWORD, ".f32" },
    { KS_PTX_TOK_PUNCT, "{" }, { KS_PTX_TOK_IDENT, "%f1" }, { KS_PTX_TOK_PUNCT, "," },
    { KS_PTX_TOK_IDENT, "_" }, { KS_PTX_TOK_PUNCT, "}" }, { KS_PTX_TOK_PUNCT, "," },
    { KS_PTX_TOK_PUNCT, "[" }, { KS_PTX_TOK_IDENT, "%rd2" }, { KS_PTX_TOK_PUNCT, "+" },
    { KS_PTX_TOK_PUNCT, "-" }, { KS_PTX_TOK_INT, "16" }, { KS_PTX_TOK_PUNCT, "]" },
    { KS_PTX_TOK_PUNCT, ";" },
  };

  check_tokens ("@!%p1 ld.global.nc.v4.f32 {%f1, _}, [%rd2+-16];", want, G_N_ELEMENTS (want));
}

static void
test_dotwords (void)
{
  static const Expect want[] = {
    { KS_PTX_TOK_IDENT, "cp" }, { KS_PTX_TOK_DOTWORD, ".async" },
    { KS_PTX_TOK_DOTWORD, ".shared::cluster" }, { KS_PTX_TOK_DOTWORD, ".L2::cache_hint" },
    { KS_PTX_TOK_IDENT, "%tid" }, { KS_PTX_TOK_DOTWORD, ".x" },
    { KS_PTX_TOK_IDENT, "$L__BB0_2" }, { KS_PTX_TOK_PUNCT, ":" },
  };

  check_tokens ("cp.async.shared::cluster.L2::cache_hint %tid.x $L__BB0_2:", want,
                G_N_ELEMENTS (want));
}

static void
check_number (const char     *src,
              KsPtxTokenKind  kind,
              uint64_t        value)
{
  KsPtxLexer lex;
  KsPtxToken tok;

  ks_ptx_lexer_init (&lex, src, strlen (src));
  ks_ptx_lexer_next (&lex, &tok);
  g_assert_cmpint (tok.kind, ==, kind);
  g_assert_cmpuint (tok.len, ==, strlen (src));
  if (kind != KS_PTX_TOK_FLOAT)
    g_assert_cmpuint (tok.value, ==, value);
}

static void
test_numbers (void)
{
  check_number ("42", KS_PTX_TOK_INT, 42);
  check_number ("42U", KS_PTX_TOK_INT, 42);
  check_number ("0x2A", KS_PTX_TOK_INT, 42);
  check_number ("0XfF", KS_PTX_TOK_INT, 255);
  check_number ("052", KS_PTX_TOK_INT, 42);
  check_number ("0", KS_PTX_TOK_INT, 0);
  check_number ("0b101010", KS_PTX_TOK_INT, 42);
  check_number ("18446744073709551615", KS_PTX_TOK_INT, G_MAXUINT64);
  check_number ("0xffffffffffffffff", KS_PTX_TOK_INT, G_MAXUINT64);
  /* IEEE bits of 1.0f and 1.0 */
  check_number ("0f3F800000", KS_PTX_TOK_F32_BITS, 0x3F800000);
  check_number ("0F3f800000", KS_PTX_TOK_F32_BITS, 0x3F800000);
  check_number ("0d3FF0000000000000", KS_PTX_TOK_F64_BITS, G_GUINT64_CONSTANT (0x3FF0000000000000));
  check_number ("1.5", KS_PTX_TOK_FLOAT, 0);
  check_number ("9.0", KS_PTX_TOK_FLOAT, 0);
  check_number ("1e10", KS_PTX_TOK_FLOAT, 0);
  check_number ("2.5e-3", KS_PTX_TOK_FLOAT, 0);
}

static void
check_error (const char    *src,
             KsPtxLexError  error)
{
  KsPtxLexer lex;
  KsPtxToken tok;
  gboolean seen = FALSE;

  ks_ptx_lexer_init (&lex, src, strlen (src));
  do
    {
      ks_ptx_lexer_next (&lex, &tok);
      if (tok.kind == KS_PTX_TOK_ERROR)
        {
          g_assert_cmpint (tok.error, ==, error);
          g_assert_nonnull (ks_ptx_lex_error_message (tok.error));
          seen = TRUE;
        }
    }
  while (tok.kind != KS_PTX_TOK_EOF);
  g_assert_true (seen);
}

static void
test_errors (void)
{
  check_error ("0x", KS_PTX_LEX_BAD_NUMBER);
  check_error ("09", KS_PTX_LEX_BAD_NUMBER);
  check_error ("0f3F80", KS_PTX_LEX_BAD_NUMBER);
  check_error ("12abc", KS_PTX_LEX_BAD_NUMBER);
  check_error ("18446744073709551616", KS_PTX_LEX_NUMBER_TOO_BIG);
  check_error ("0x1ffffffffffffffff", KS_PTX_LEX_NUMBER_TOO_BIG);
  check_error ("/* never closed", KS_PTX_LEX_UNTERMINATED_COMMENT);
  check_error ("\"never closed", KS_PTX_LEX_UNTERMINATED_STRING);
  check_error ("add \xff\xfe\xc3;", KS_PTX_LEX_BAD_BYTES);
  check_error ("a # b", KS_PTX_LEX_BAD_CHAR);
  check_error ("%", KS_PTX_LEX_BAD_CHAR);
}

static void
test_positions (void)
{
  const char *src = "// comment\n\t/* multi\nline */ mov.u32\r\n  %r1;";
  KsPtxLexer lex;
  KsPtxToken tok;

  ks_ptx_lexer_init (&lex, src, strlen (src));
  ks_ptx_lexer_next (&lex, &tok);
  g_assert_cmpint (tok.kind, ==, KS_PTX_TOK_IDENT);
  g_assert_cmpuint (tok.line, ==, 3);
  g_assert_cmpuint (tok.column, ==, 9);
  g_assert_true (tok.space_before);
  ks_ptx_lexer_next (&lex, &tok);
  g_assert_cmpint (tok.kind, ==, KS_PTX_TOK_DOTWORD);
  g_assert_false (tok.space_before);
  ks_ptx_lexer_next (&lex, &tok);
  g_assert_cmpuint (tok.line, ==, 4);
  g_assert_cmpuint (tok.column, ==, 3);
}

/* The lexer must stop at the buffer's end even when the text is not
 * NUL-terminated there. */
static void
test_no_overread (void)
{
  const char *cases[] = { "0x", "0f", "/*", "\"ab", "$abc", ".sh", "12", "1.", "1e", "%r" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      size_t len = strlen (cases[i]);
      char *buf = g_malloc (len);       /* exactly len bytes: ASan catches an overread */
      KsPtxLexer lex;
      KsPtxToken tok;
      guint n = 0;

      memcpy (buf, cases[i], len);
      ks_ptx_lexer_init (&lex, buf, len);
      do
        {
          ks_ptx_lexer_next (&lex, &tok);
          g_assert_cmpuint ((size_t) tok.offset + tok.len, <=, len);
          g_assert_cmpuint (++n, <, 10);
        }
      while (tok.kind != KS_PTX_TOK_EOF);
      g_free (buf);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ptx/lexer/instruction", test_instruction);
  g_test_add_func ("/ptx/lexer/dotwords", test_dotwords);
  g_test_add_func ("/ptx/lexer/numbers", test_numbers);
  g_test_add_func ("/ptx/lexer/errors", test_errors);
  g_test_add_func ("/ptx/lexer/positions", test_positions);
  g_test_add_func ("/ptx/lexer/no-overread", test_no_overread);
  return g_test_run ();
}
