/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The PTX hover documentation: every opcode the parser knows, every
 * modifier word it decodes and every type it knows has a description, and
 * ks_ptx_explain() finds the instruction under a column of real nvcc lines
 * (the columns are computed here from the lines with strstr). */

#include <string.h>

#include "ks-ptx.h"
#include "ks-ptx-docs.h"

static const char *const opcode_names[] = {
#define X(e, s) s,
#include "ks-ptx-opcodes.def"
#undef X
};

static const char *const modifier_words[] = {
#define X(w, c, v) w,
#include "ks-ptx-modifiers.def"
#undef X
};

static void
test_opcodes_covered (void)
{
  g_autoptr(GString) missing = g_string_new (NULL);

  /* all of them: the enum is UNKNOWN and then the .def */
  g_assert_cmpuint (G_N_ELEMENTS (opcode_names) + 1, ==, KS_PTX_N_OPCODES);
  for (gsize i = 0; i < G_N_ELEMENTS (opcode_names); i++)
    {
      const char *doc = ks_ptx_doc_opcode (opcode_names[i]);

      if (doc == NULL || doc[0] == '\0')
        g_string_append_printf (missing, " %s", opcode_names[i]);
    }
  if (missing->len > 0)
    g_error ("PTX opcodes without a description:%s", missing->str);
  g_assert_null (ks_ptx_doc_opcode ("notaninstruction"));
  g_assert_null (ks_ptx_doc_opcode (NULL));
}

static void
test_modifiers_covered (void)
{
  g_autoptr(GString) missing = g_string_new (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (modifier_words); i++)
    if (ks_ptx_doc_modifier (NULL, modifier_words[i]) == NULL)
      g_string_append_printf (missing, " .%s", modifier_words[i]);
  /* every type of the parser's type table */
  for (guint t = KS_PTX_TYPE_NONE + 1; t < KS_PTX_N_TYPES; t++)
    if (ks_ptx_doc_type (ks_ptx_type_name ((KsPtxType) t)) == NULL)
      g_string_append_printf (missing, " .%s (type)", ks_ptx_type_name ((KsPtxType) t));
  if (missing->len > 0)
    g_error ("PTX modifiers without a description:%s", missing->str);
}

/* The same word, two meanings: the instruction decides */
static void
test_meaning_by_instruction (void)
{
  const char *mul_lo = ks_ptx_doc_modifier ("mul", "lo");
  const char *setp_lo = ks_ptx_doc_modifier ("setp", "lo");
  const char *bar_sync = ks_ptx_doc_modifier ("bar", "sync");
  const char *shfl_sync = ks_ptx_doc_modifier ("shfl", "sync");
  const char *bra_uni = ks_ptx_doc_modifier ("bra", "uni");
  const char *vote_uni = ks_ptx_doc_modifier ("vote", "uni");

  g_assert_nonnull (mul_lo);
  g_assert_nonnull (setp_lo);
  g_assert_cmpstr (mul_lo, !=, setp_lo);
  g_assert_cmpstr (mul_lo, ==, ks_ptx_doc_modifier (NULL, "lo"));
  g_assert_cmpstr (bar_sync, !=, shfl_sync);
  g_assert_cmpstr (bra_uni, !=, vote_uni);
  g_assert_null (ks_ptx_doc_modifier ("mul", "notamodifier"));
}

static gsize
col (const char *line,
     const char *needle)
{
  const char *at = strstr (line, needle);

  g_assert_nonnull (at);
  return (gsize) (at - line);
}

static void
assert_part (const KsPtxExplanation *e,
             guint                   i,
             const char             *word,
             gboolean                is_type)
{
  g_assert_cmpuint (i, <, e->n_parts);
  g_assert_cmpstr (e->parts[i].word, ==, word);
  g_assert_nonnull (e->parts[i].description);
  g_assert_cmpint (e->parts[i].is_type, ==, is_type);
}

/* Lines as nvcc 13 prints them (tests/ptx/corpus, data/samples) */
static void
test_explain (void)
{
  const char *l1 = "\tmul.wide.s32 \t%rd5, %r1, 4;";
  const char *l2 = "\t@%p1 bra.uni \t$L__BB0_2;";
  const char *l3 = "$L__BB0_3:";
  const char *l4 = "\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd4]; // a comment: add.s32";
  const char *l5 = "\t.reg .b32 \t%r<6>;";
  const char *l6 = "\tsetp.lo.u32 %p1, %r1, %r2; add.s32 %r3, %r1, 1;";
  const char *l7 = "\tmma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};";
  const char *l8 = "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];";
  const char *l9 = "$L__BB0_2: @!%p2 exit;";
  const char *l10 = "\tfrobnicate.u32 %r1, %r2;";
  g_autoptr(KsPtxExplanation) e = NULL;

  /* the instruction word itself */
  e = ks_ptx_explain (l1, strlen (l1), col (l1, "wide"));
  g_assert_nonnull (e);
  g_assert_cmpstr (e->opcode, ==, "mul");
  g_assert_cmpstr (e->summary, ==, ks_ptx_doc_opcode ("mul"));
  g_assert_cmpuint (e->start, ==, col (l1, "mul"));
  g_assert_cmpuint (e->end, ==, col (l1, " \t%rd5"));
  g_assert_cmpuint (e->n_parts, ==, 2);
  assert_part (e, 0, "wide", FALSE);
  assert_part (e, 1, "s32", TRUE);
  g_assert_null (e->guard);
  g_clear_pointer (&e, ks_ptx_explanation_free);
  /* ... its operands and the ';' belong to it too */
  e = ks_ptx_explain (l1, strlen (l1), col (l1, "%r1"));
  g_assert_cmpstr (e->opcode, ==, "mul");
  g_clear_pointer (&e, ks_ptx_explanation_free);
  e = ks_ptx_explain (l1, strlen (l1), strlen (l1) - 1);
  g_assert_nonnull (e);
  g_clear_pointer (&e, ks_ptx_explanation_free);
  /* but not the indentation, nor past the end */
  g_assert_null (ks_ptx_explain (l1, strlen (l1), 0));
  g_assert_null (ks_ptx_explain (l1, strlen (l1), strlen (l1)));

  /* a guard */
  e = ks_ptx_explain (l2, strlen (l2), col (l2, "bra"));
  g_assert_cmpstr (e->opcode, ==, "bra");
  g_assert_cmpstr (e->guard, ==, "%p1");
  assert_part (e, 0, "uni", FALSE);
  g_assert_cmpstr (e->parts[0].description, ==, ks_ptx_doc_modifier ("bra", "uni"));
  g_clear_pointer (&e, ks_ptx_explanation_free);

  /* a label alone, a directive, an unknown word: nothing */
  g_assert_null (ks_ptx_explain (l3, strlen (l3), 3));
  g_assert_null (ks_ptx_explain (l5, strlen (l5), col (l5, "reg")));
  g_assert_null (ks_ptx_explain (l10, strlen (l10), col (l10, "frob")));

  /* a vector operand's braces are not a block; a comment is nothing */
  e = ks_ptx_explain (l4, strlen (l4), col (l4, "%f3"));
  g_assert_nonnull (e);
  g_assert_cmpstr (e->opcode, ==, "ld");
  g_assert_cmpuint (e->n_parts, ==, 4);
  assert_part (e, 0, "global", FALSE);
  assert_part (e, 1, "nc", FALSE);
  assert_part (e, 2, "v4", FALSE);
  assert_part (e, 3, "f32", TRUE);
  g_clear_pointer (&e, ks_ptx_explanation_free);
  g_assert_null (ks_ptx_explain (l4, strlen (l4), col (l4, "add.s32")));

  /* two statements on a line: the one under the column */
  e = ks_ptx_explain (l6, strlen (l6), col (l6, "add"));
  g_assert_cmpstr (e->opcode, ==, "add");
  g_clear_pointer (&e, ks_ptx_explanation_free);
  e = ks_ptx_explain (l6, strlen (l6), col (l6, "lo"));
  g_assert_cmpstr (e->opcode, ==, "setp");
  g_assert_cmpstr (e->parts[0].description, ==, ks_ptx_doc_modifier ("setp", "lo"));
  g_clear_pointer (&e, ks_ptx_explanation_free);

  /* a matrix shape and every word of an mma */
  e = ks_ptx_explain (l7, strlen (l7), col (l7, "m16n8k16"));
  g_assert_cmpstr (e->opcode, ==, "mma");
  g_assert_cmpuint (e->n_parts, ==, 9);
  for (guint i = 0; i < e->n_parts; i++)
    g_assert_nonnull (e->parts[i].description);
  g_assert_nonnull (strstr (e->parts[2].description, "M=16, N=8, K=16"));
  g_clear_pointer (&e, ks_ptx_explanation_free);

  /* "::" words stay whole */
  e = ks_ptx_explain (l8, strlen (l8), col (l8, "tensor"));
  g_assert_cmpstr (e->opcode, ==, "cp");
  g_assert_cmpuint (e->n_parts, ==, 7);
  assert_part (e, 4, "shared::cluster", FALSE);
  assert_part (e, 6, "mbarrier::complete_tx::bytes", FALSE);
  g_clear_pointer (&e, ks_ptx_explanation_free);

  /* a label and a negated guard in front of the instruction */
  e = ks_ptx_explain (l9, strlen (l9), col (l9, "exit"));
  g_assert_cmpstr (e->opcode, ==, "exit");
  g_assert_cmpstr (e->guard, ==, "!%p2");
  g_assert_cmpuint (e->n_parts, ==, 0);
}

/* Junk never crashes nor reads past the line */
static void
test_explain_junk (void)
{
  static const char *const lines[] = {
    "", ";", "{", "}", "@", "@!", "/*", "//", "\"", "a:", "a::b", "mul.", "mul..s32 ;",
    "/* c */ add.s32 %r1, %r2, %r3; /* unterminated", "\"mul.s32\" mul.s32", ":::::",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (lines); i++)
    for (gsize c = 0; c <= strlen (lines[i]) + 1; c++)
      {
        g_autofree char *copy = g_strdup (lines[i]);     /* exactly len bytes for ASan */
        KsPtxExplanation *e = ks_ptx_explain (copy, strlen (copy), c);

        ks_ptx_explanation_free (e);
      }
  {
    const char *l = "/* c */ add.s32 %r1, %r2, %r3; /* unterminated";
    g_autoptr(KsPtxExplanation) e = ks_ptx_explain (l, strlen (l), col (l, "%r2"));

    g_assert_nonnull (e);
    g_assert_cmpstr (e->opcode, ==, "add");
    g_assert_null (ks_ptx_explain (l, strlen (l), col (l, "c */")));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ptx/docs/opcodes-covered", test_opcodes_covered);
  g_test_add_func ("/ptx/docs/modifiers-covered", test_modifiers_covered);
  g_test_add_func ("/ptx/docs/meaning-by-instruction", test_meaning_by_instruction);
  g_test_add_func ("/ptx/docs/explain", test_explain);
  g_test_add_func ("/ptx/docs/explain-junk", test_explain_junk);
  return g_test_run ();
}
