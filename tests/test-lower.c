/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lower.c: what ptxas folds and merges (ks-lower.h), against what
 * ptxas made of real kernels (a CUDA 11.8 listing of the SGEMM ladder in
 * tests/fixtures/lower) and against the PTX ISA's rules for small cases. */

#include <string.h>

#include "ks-lower.h"
#include "ks-ptx.h"

static KsPtxModule *
parse_text (const char *text)
{
  g_autoptr(GBytes) b = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (b, "test.ptx");

  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

typedef struct
{
  uint32_t lds[3], sts[3];      /* 32-, 64- and 128-bit shared loads and stores */
} Counts;

static guint
width_index (uint32_t bytes)
{
  return bytes >= 16 ? 2 : bytes == 8 ? 1 : 0;
}

/* The shared accesses the GPU makes for function @name, as the lowering
 * says: merged groups count once, at their width */
static Counts
lowered_counts (const KsPtxModule *m, const KsLowering *lw, const char *name)
{
  Counts c = { 0 };

  for (uint32_t f = 0; f < m->n_functions; f++)
    {
      const KsPtxFunction *fn = &m->functions[f];

      if (fn->name.len != strlen (name) || strncmp (m->text + fn->name.offset, name, fn->name.len) != 0)
        continue;
      for (uint32_t i = 0; i < fn->n_insns; i++)
        {
          const KsPtxInsn *in = &m->insns[fn->first_insn + i];
          const KsLowerInsn *li = &lw->insns[fn->first_insn + i];
          uint32_t bytes = ks_ptx_type_size (in->types[0]) * li->width;

          if (li->kind != KS_LOWER_ISSUE || in->space != KS_PTX_SPACE_SHARED
              || (in->opcode != KS_PTX_OPC_LD && in->opcode != KS_PTX_OPC_ST))
            continue;
          bytes *= in->vec == KS_PTX_VEC_V4 ? 4 : in->vec == KS_PTX_VEC_V2 ? 2 : 1;
          if (in->opcode == KS_PTX_OPC_LD)
            c.lds[width_index (bytes)]++;
          else
            c.sts[width_index (bytes)]++;
        }
      return c;
    }
  g_error ("no function %s", name);
  return c;
}

/* The same, counted in the listing: LDS, LDS.64, LDS.128 (LDS.U.128 ...) */
static Counts
listing_counts (const char *listing, const char *name)
{
  g_auto(GStrv) lines = g_strsplit (listing, "\n", -1);
  gboolean in = FALSE;
  Counts c = { 0 };

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p;

      if (strstr (lines[i], "Function :") != NULL)
        {
          in = g_str_has_suffix (g_strstrip (lines[i]), name);
          continue;
        }
      if (!in)
        continue;
      for (guint k = 0; k < 2; k++)
        {
          const char *op = k == 0 ? " LDS" : " STS";
          uint32_t *dst = k == 0 ? c.lds : c.sts;

          if ((p = strstr (lines[i], op)) != NULL && (p[4] == ' ' || p[4] == '.'))
            {
              uint32_t bytes = strstr (p, ".128 ") ? 16 : strstr (p, ".64 ") ? 8 : 4;

              dst[width_index (bytes)]++;
            }
        }
    }
  return c;
}

static void
assert_counts (const Counts *got, const Counts *want, const char *name)
{
  for (guint w = 0; w < 3; w++)
    {
      if (got->lds[w] != want->lds[w] || got->sts[w] != want->sts[w])
        g_error ("%s: %u-bit shared loads %u, stores %u; ptxas made %u and %u", name, 32u << w,
                 got->lds[w], got->sts[w], want->lds[w], want->sts[w]);
    }
}

/* Kernels whose loops nvcc unrolled fully, so that ptxas's listing has
 * the accesses of the PTX one for one: the shared-memory blocking (its As
 * row read as 8 LDS.128 broadcasts, its Bs column as 32 LDS) and the
 * stores of the vectorised kernel (a transposed As written as 4 STS, Bs as
 * one STS.128) */
static void
test_ladder_listing (void)
{
  g_autofree char *ptx_path = g_test_build_filename (G_TEST_DIST, "fixtures", "lower",
                                                     "sgemm_ladder.sm_86.ptx", NULL);
  g_autofree char *sass_path = g_test_build_filename (G_TEST_DIST, "fixtures", "lower",
                                                      "sgemm_ladder.sm_86.cuobjdump.sass", NULL);
  g_autofree char *listing = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (ptx_path, &error);
  g_autoptr(KsLowering) lw = NULL;
  const char *smem = "_Z22sgemm_shared_mem_blockILi32EEviiifPKfS1_fPf";
  const char *vec = "_Z14sgemmVectorizeILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_";
  Counts got, want;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (sass_path, &listing, NULL, &error));
  g_assert_no_error (error);
  lw = ks_lower_module (m);

  got = lowered_counts (m, lw, smem);
  want = listing_counts (listing, smem);
  g_assert_cmpuint (want.lds[2], ==, 8);        /* the listing is read right */
  assert_counts (&got, &want, smem);

  got = lowered_counts (m, lw, vec);
  want = listing_counts (listing, vec);
  g_assert_cmpuint (got.sts[0], ==, want.sts[0]);
  g_assert_cmpuint (got.sts[2], ==, want.sts[2]);
  g_assert_cmpuint (want.sts[2], ==, 1);

  /* every kernel reads its parameters as constant-bank operands: no
   * ld.param of an .entry issues */
  for (uint32_t i = 0; i < m->n_insns; i++)
    if (m->insns[i].opcode == KS_PTX_OPC_LD && m->insns[i].space == KS_PTX_SPACE_PARAM
        && m->insns[i].pred == KS_PTX_NONE)
      {
        gboolean in_entry = FALSE;

        for (uint32_t f = 0; f < m->n_functions; f++)
          if (i >= m->functions[f].first_insn
              && i < m->functions[f].first_insn + m->functions[f].n_insns)
            in_entry = m->functions[f].kind == KS_PTX_FUNCTION_ENTRY;
        if (in_entry)
          g_assert_cmpuint (lw->insns[i].kind, ==, KS_LOWER_FOLDED);
      }
}

#define HEAD ".version 7.0\n.target sm_80\n.address_size 64\n"

static const KsLowerInsn *
insn_at_line (const KsPtxModule *m, const KsLowering *lw, uint32_t line)
{
  for (uint32_t i = 0; i < m->n_insns; i++)
    if (m->insns[i].line == line)
      return &lw->insns[i];
  g_error ("no instruction on line %u", line);
  return NULL;
}

/* The rules, one case each: what may be merged and folded, and what not */
static void
test_rules (void)
{
  g_autoptr(KsPtxModule) m = parse_text (
    HEAD                                                              /* 1-3 */
    ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"           /* 4-5 */
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<20>;\n  .reg .f32 %f<20>;\n" /* 6-8 */
    "  .shared .align 4 .b8 s[1024];\n"                               /* 9 */
    "  ld.param.u64 %rd1, [p];\n"                                     /* 10: folded */
    "  cvta.to.global.u64 %rd2, %rd1;\n"                              /* 11: folded */
    "  mov.u32 %r1, %tid.x;\n"                                        /* 12 */
    "  shl.b32 %r2, %r1, 4;\n"                                        /* 13 */
    "  mov.u32 %r3, s;\n"                                             /* 14: folded */
    "  add.s32 %r4, %r3, %r2;\n"                                      /* 15: align 16 */
    "  ld.shared.f32 %f1, [%r4];\n"                                   /* 16: LDS.128 leader */
    "  ld.shared.f32 %f2, [%r4+4];\n"                                 /* 17: part */
    "  ld.shared.f32 %f3, [%r4+8];\n"                                 /* 18: part */
    "  ld.shared.f32 %f4, [%r4+12];\n"                                /* 19: part */
    "  ld.shared.f32 %f5, [%r4+20];\n"                                /* 20: alone (no +16) */
    "  mul.wide.u32 %rd3, %r1, 4;\n"                                  /* 21 */
    "  add.s64 %rd4, %rd2, %rd3;\n"                                   /* 22: IMAD.WIDE's add */
    "  ld.global.f32 %f6, [%rd4];\n"                                  /* 23: pointer: align 4 */
    "  ld.global.f32 %f7, [%rd4+4];\n"                                /* 24: not merged */
    "  add.s64 %rd5, %rd4, 64;\n"                                     /* 25: an offset: folded */
    "  ld.global.f32 %f8, [%rd5];\n"                                  /* 26 */
    "  add.s32 %r5, %r1, 7;\n"                                        /* 27: used as a value */
    "  mul.f32 %f9, %f1, %f2;\n"                                      /* 28: into an FFMA */
    "  add.f32 %f10, %f9, %f3;\n"                                     /* 29 */
    "  mul.rn.f32 %f11, %f1, %f2;\n"                                  /* 30: .rn: stays */
    "  add.f32 %f12, %f11, %f3;\n"                                    /* 31 */
    "  add.s32 %r6, %r4, 4;\n"                                        /* 32: base + 4 */
    "  ld.shared.f32 %f13, [%r6];\n"                                  /* 33: align 4 */
    "  ld.shared.f32 %f14, [%r6+4];\n"                                /* 34: not merged */
    "  st.shared.f32 [%r4], %f10;\n"                                  /* 35 */
    "  st.shared.f32 [%r4+4], %f12;\n"                                /* 36: STS.64 leader */
    "  st.global.u32 [%rd5], %r5;\n"                                  /* 37 */
    "  ret;\n}\n");
  g_autoptr(KsLowering) lw = ks_lower_module (m);
  const struct { uint32_t line; KsLowerKind kind; uint32_t width; } want[] = {
    { 10, KS_LOWER_FOLDED, 1 }, { 11, KS_LOWER_FOLDED, 1 }, { 12, KS_LOWER_ISSUE, 1 },
    { 14, KS_LOWER_FOLDED, 1 }, { 15, KS_LOWER_ISSUE, 1 },
    { 16, KS_LOWER_ISSUE, 4 }, { 17, KS_LOWER_VECTOR_PART, 1 }, { 18, KS_LOWER_VECTOR_PART, 1 },
    { 19, KS_LOWER_VECTOR_PART, 1 }, { 20, KS_LOWER_ISSUE, 1 },
    { 21, KS_LOWER_ISSUE, 1 }, { 22, KS_LOWER_FOLDED, 1 },
    { 23, KS_LOWER_ISSUE, 1 }, { 24, KS_LOWER_ISSUE, 1 }, { 25, KS_LOWER_FOLDED, 1 },
    { 27, KS_LOWER_ISSUE, 1 }, { 28, KS_LOWER_FOLDED, 1 }, { 29, KS_LOWER_ISSUE, 1 },
    { 30, KS_LOWER_ISSUE, 1 }, { 31, KS_LOWER_ISSUE, 1 },
    { 33, KS_LOWER_ISSUE, 1 }, { 34, KS_LOWER_ISSUE, 1 },
    { 35, KS_LOWER_VECTOR_PART, 1 }, { 36, KS_LOWER_ISSUE, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const KsLowerInsn *li = insn_at_line (m, lw, want[i].line);

      if (li->kind != want[i].kind || li->width != want[i].width)
        g_error ("line %u: kind %u width %u, want %u and %u", want[i].line, li->kind, li->width,
                 want[i].kind, want[i].width);
    }
  g_assert_cmpuint (insn_at_line (m, lw, 19)->skew, ==, 12);
  g_assert_cmpuint (insn_at_line (m, lw, 35)->skew, ==, 0);
  g_assert_cmpuint (insn_at_line (m, lw, 36)->skew, ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lower/ladder-listing", test_ladder_listing);
  g_test_add_func ("/lower/rules", test_rules);
  return g_test_run ();
}
