/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the PTX parser: every directive, every operand form, the decoded
 * modifiers, the source map, and diagnostics with recovery.  Expected values
 * are read off the PTX text in each test by hand. */

#include <string.h>

#include "ks-ptx.h"

static KsPtxModule *
parse (const char *text)
{
  GBytes *bytes = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (bytes, "test.ptx");

  g_bytes_unref (bytes);
  return m;
}

static void
dump_diagnostics (const KsPtxModule *m)
{
  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_test_message ("%u:%u: %s", m->diagnostics[i].line, m->diagnostics[i].column,
                    m->diagnostics[i].message);
}

static KsPtxModule *
parse_ok (const char *text)
{
  KsPtxModule *m = parse (text);

  dump_diagnostics (m);
  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

static const KsPtxFunction *
function (const KsPtxModule *m,
          const char        *name)
{
  const KsPtxFunction *f = ks_ptx_module_find_function (m, name);

  g_assert_nonnull (f);
  return f;
}

static const KsPtxInsn *
insn (const KsPtxModule   *m,
      const KsPtxFunction *f,
      uint32_t             i)
{
  g_assert_cmpuint (i, <, f->n_insns);
  return &m->insns[f->first_insn + i];
}

static const KsPtxOperand *
operand (const KsPtxModule *m,
         const KsPtxInsn   *in,
         uint32_t           i)
{
  g_assert_cmpuint (i, <, in->n_operands);
  return &m->operands[in->first_operand + i];
}

static const KsPtxOperand *
element (const KsPtxModule  *m,
         const KsPtxOperand *group,
         uint32_t            i)
{
  g_assert_true (group->kind == KS_PTX_OPERAND_VECTOR || group->kind == KS_PTX_OPERAND_LIST);
  g_assert_cmpuint (i, <, group->aux);
  return &m->operands[group->a + i];
}

static gboolean
has_diagnostic (const KsPtxModule *m,
                uint32_t           line,
                const char        *fragment)
{
  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    if (m->diagnostics[i].line == line && strstr (m->diagnostics[i].message, fragment))
      return TRUE;
  return FALSE;
}

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

static void
test_module_directives (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (".version 7.8\n"
                                       ".target sm_90a, texmode_independent\n"
                                       ".address_size 32\n");

  g_assert_cmpuint (m->version_major, ==, 7);
  g_assert_cmpuint (m->version_minor, ==, 8);
  g_assert_cmpuint (m->address_size, ==, 32);
  g_assert_cmpuint (m->n_targets, ==, 2);
  g_assert_true (ks_ptx_span_equal (m, m->words[m->first_target], "sm_90a"));
  g_assert_true (ks_ptx_span_equal (m, m->words[m->first_target + 1], "texmode_independent"));
}

static const char loc_src[] =
  HEADER
  "\n"                                                          /* 4 */
  ".visible .entry k(.param .u64 k_p)\n"                        /* 5 */
  "{\n"                                                         /* 6 */
  "\t.reg .b32 %r<4>;\n"                                        /* 7 */
  "\t.loc 1 10 3\n"                                             /* 8 */
  "\tmov.u32 %r1, %tid.x;\n"                                    /* 9 */
  "\t.loc 2 4 5, function_name $L__info_string0, inlined_at 1 12 7\n" /* 10 */
  "\tadd.s32 %r2, %r1, 1;\n"                                    /* 11 */
  "\t.loc 2 20 1, function_name $L__info_string1, inlined_at 2 4 5\n" /* 12 */
  "\tadd.s32 %r3, %r2, 1;\n"                                    /* 13 */
  "\t.loc 1 0 3\n"                                              /* 14 */
  "\tret;\n"                                                    /* 15 */
  "}\n"
  ".file 1 \"/src/k.cu\", 1700000000, 1234\n"                   /* 17 */
  ".file 2 \"/src/helpers.cuh\"\n"
  ".section .debug_str\n"
  "{\n"
  "$L__info_string0:\n"
  ".b8 95,90,0\n"
  "$L__info_string1:\n"
  ".b8 95,0\n"
  "}\n";

static void
test_file_and_loc (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (loc_src);
  const KsPtxFunction *f = function (m, "k");
  const KsPtxFile *file;
  uint32_t fl, ln;
  g_autoptr(GArray) links = NULL;

  g_assert_cmpuint (m->n_files, ==, 2);
  file = ks_ptx_module_find_file (m, 1);
  g_assert_nonnull (file);
  g_assert_true (ks_ptx_span_equal (m, file->path, "/src/k.cu"));
  g_assert_cmpuint (file->timestamp, ==, 1700000000);
  g_assert_cmpuint (file->size, ==, 1234);

  g_assert_cmpuint (f->n_insns, ==, 4);
  g_assert_true (ks_ptx_insn_source (m, insn (m, f, 0), &fl, &ln));
  g_assert_cmpuint (fl, ==, 1);
  g_assert_cmpuint (ln, ==, 10);
  /* helpers.cuh:4 inlined at k.cu:12: the kernel's file is k.cu (where
   * the chain ends), so the user's line is 12; the innermost location
   * stays there for who asks for its file */
  g_assert_true (ks_ptx_insn_source (m, insn (m, f, 1), &fl, &ln));
  g_assert_cmpuint (fl, ==, 1);
  g_assert_cmpuint (ln, ==, 12);
  g_assert_true (ks_ptx_insn_source_in_file (m, insn (m, f, 1), 2, &ln));
  g_assert_cmpuint (ln, ==, 4);
  /* two levels deep, helpers.cuh:20 in helpers.cuh:4 in k.cu:12 */
  g_assert_true (ks_ptx_insn_source (m, insn (m, f, 2), &fl, &ln));
  g_assert_cmpuint (fl, ==, 1);
  g_assert_cmpuint (ln, ==, 12);
  g_assert_true (ks_ptx_insn_source_in_file (m, insn (m, f, 2), 2, &ln));
  g_assert_cmpuint (ln, ==, 20);
  g_assert_false (ks_ptx_insn_source_in_file (m, insn (m, f, 0), 2, &ln));
  /* line 0 is compiler-generated: no source */
  g_assert_false (ks_ptx_insn_source (m, insn (m, f, 3), &fl, &ln));

  /* The inlined_at chain of the third instruction: helpers.cuh:20, inlined
   * at helpers.cuh:4, itself inlined at k.cu:12. */
  {
    const KsPtxLoc *l = &m->locs[insn (m, f, 2)->loc];

    g_assert_cmpuint (l->line, ==, 20);
    g_assert_true (ks_ptx_span_equal (m, l->function_name, "$L__info_string1"));
    g_assert_cmpuint (l->inlined_at, !=, 0);
    l = &m->locs[l->inlined_at];
    g_assert_cmpuint (l->file, ==, 2);
    g_assert_cmpuint (l->line, ==, 4);
    g_assert_cmpuint (l->inlined_at, !=, 0);
    l = &m->locs[l->inlined_at];
    g_assert_cmpuint (l->file, ==, 1);
    g_assert_cmpuint (l->line, ==, 12);
    g_assert_cmpuint (l->inlined_at, ==, 0);
  }

  /* Back from CUDA to PTX: k.cu:12 is where lines 11 and 13 were inlined */
  links = ks_ptx_module_links_for_source (m, 1, 12);
  g_assert_cmpuint (links->len, ==, 2);
  g_assert_cmpuint (g_array_index (links, KsPtxSourceLink, 0).ptx_line, ==, 11);
  g_assert_cmpuint (g_array_index (links, KsPtxSourceLink, 0).depth, ==, 1);
  g_assert_cmpuint (g_array_index (links, KsPtxSourceLink, 1).ptx_line, ==, 13);
  g_assert_cmpuint (g_array_index (links, KsPtxSourceLink, 1).depth, ==, 2);
  g_clear_pointer (&links, g_array_unref);
  links = ks_ptx_module_links_for_source (m, 1, 10);
  g_assert_cmpuint (links->len, ==, 1);
  g_assert_cmpuint (g_array_index (links, KsPtxSourceLink, 0).ptx_line, ==, 9);
  g_assert_cmpuint (g_array_index (links, KsPtxSourceLink, 0).depth, ==, 0);
}

/* Inlined call sites are told apart by their whole file, line and column:
 * file 65537's site must not stand for file 1's (a key that kept 16 bits
 * of the file number chained them, and put file 65537's line 7 under an
 * instruction inlined in k.cu only) */
static void
test_inline_sites_whole_numbers (void)
{
  static const char src[] =
    HEADER
    ".visible .entry k()\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.loc 65537 7 3, function_name $L__s0, inlined_at 1 20 0\n"
    "\tmov.u32 %r1, 1;\n"
    "\t.loc 1 9 0, function_name $L__s1, inlined_at 1 7 3\n"
    "\tmov.u32 %r2, 2;\n"
    "\t.loc 1 9 0, function_name $L__s1, inlined_at 65537 7 3\n"
    "\tmov.u32 %r3, 3;\n"
    "\tret;\n"
    "}\n"
    ".file 1 \"/src/k.cu\"\n"
    ".file 65537 \"/src/far.cuh\"\n"
    ".section .debug_str\n{\n$L__s0:\n.b8 95,0\n$L__s1:\n.b8 95,0\n}\n";
  g_autoptr(KsPtxModule) m = parse_ok (src);
  const KsPtxFunction *f = function (m, "k");
  uint32_t ln;

  g_assert_cmpuint (f->n_insns, ==, 4);
  /* k.cu:9 inlined at k.cu:7 col 3, which nothing inlined: far.cuh is not
   * on its chain */
  g_assert_false (ks_ptx_insn_source_in_file (m, insn (m, f, 1), 65537, &ln));
  {
    const KsPtxLoc *l = &m->locs[insn (m, f, 1)->loc];

    g_assert_cmpuint (l->file, ==, 1);
    g_assert_cmpuint (l->line, ==, 9);
    l = &m->locs[l->inlined_at];
    g_assert_cmpuint (l->file, ==, 1);
    g_assert_cmpuint (l->line, ==, 7);
    g_assert_cmpuint (l->inlined_at, ==, 0);
  }
  /* k.cu:9 inlined at far.cuh:7, itself inlined at k.cu:20 */
  g_assert_true (ks_ptx_insn_source_in_file (m, insn (m, f, 2), 65537, &ln));
  g_assert_cmpuint (ln, ==, 7);
  {
    const KsPtxLoc *l = &m->locs[insn (m, f, 2)->loc];

    l = &m->locs[l->inlined_at];
    g_assert_cmpuint (l->file, ==, 65537);
    l = &m->locs[l->inlined_at];
    g_assert_cmpuint (l->file, ==, 1);
    g_assert_cmpuint (l->line, ==, 20);
    g_assert_cmpuint (l->inlined_at, ==, 0);
  }
}

static void
test_linkage_and_params (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);\n"
    ".weak .func (.param .b32 r0, .param .b64 r1) pair (.reg .u32 x) .noreturn\n"
    "{\n"
    "  st.param.b32 [r0+0], x;\n"
    "  ret;\n"
    "}\n"
    ".common .global .align 8 .u64 shared_counter;\n"
    ".visible .entry k(\n"
    "  .param .u64 .ptr .global .align 16 k_in,\n"
    "  .param .align 8 .b8 k_s[24],\n"
    "  .param .u32 k_n\n"
    ")\n"
    "{\n"
    "  ret;\n"
    "}\n");
  const KsPtxFunction *vp = function (m, "vprintf");
  const KsPtxFunction *pair = function (m, "pair");
  const KsPtxFunction *k = function (m, "k");
  const KsPtxVar *v;

  g_assert_cmpuint (vp->linkage, ==, KS_PTX_LINKAGE_EXTERN);
  g_assert_false (vp->flags & KS_PTX_FUNCTION_HAS_BODY);
  g_assert_cmpuint (vp->n_rets, ==, 1);
  g_assert_cmpuint (vp->n_params, ==, 2);

  g_assert_cmpuint (pair->linkage, ==, KS_PTX_LINKAGE_WEAK);
  g_assert_cmpuint (pair->kind, ==, KS_PTX_FUNCTION_FUNC);
  g_assert_true (pair->flags & KS_PTX_FUNCTION_NORETURN);
  g_assert_cmpuint (pair->n_rets, ==, 2);
  g_assert_cmpuint (pair->n_params, ==, 1);
  g_assert_true (m->vars[pair->first_param].flags & KS_PTX_VAR_REG_PARAM);
  /* the .reg parameter is a register inside the body */
  g_assert_cmpuint (operand (m, insn (m, pair, 0), 1)->kind, ==, KS_PTX_OPERAND_REG);

  g_assert_cmpuint (k->kind, ==, KS_PTX_FUNCTION_ENTRY);
  g_assert_cmpuint (k->linkage, ==, KS_PTX_LINKAGE_VISIBLE);
  g_assert_cmpuint (k->n_params, ==, 3);
  v = &m->vars[k->first_param];
  g_assert_true (v->flags & KS_PTX_VAR_PTR);
  g_assert_cmpuint (v->ptr_space, ==, KS_PTX_SPACE_GLOBAL);
  g_assert_cmpuint (v->ptr_align, ==, 16);
  v = &m->vars[k->first_param + 1];
  g_assert_cmpuint (v->align, ==, 8);
  g_assert_cmpuint (v->type, ==, KS_PTX_TYPE_B8);
  g_assert_cmpuint (v->n_elements, ==, 24);

  for (uint32_t i = 0; i < m->n_vars; i++)
    if (ks_ptx_span_equal (m, m->vars[i].name, "shared_counter"))
      {
        g_assert_cmpuint (m->vars[i].linkage, ==, KS_PTX_LINKAGE_COMMON);
        g_assert_cmpuint (m->vars[i].space, ==, KS_PTX_SPACE_GLOBAL);
        g_assert_cmpuint (m->vars[i].align, ==, 8);
        return;
      }
  g_assert_not_reached ();
}

static void
test_performance_directives (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k()\n"
    ".maxntid 256, 1, 1\n"
    ".reqntid 128\n"
    ".minnctapersm 4\n"
    ".maxnreg 32\n"
    ".reqnctapercluster 2, 1, 1\n"
    ".maxclusterrank 8\n"
    ".explicitcluster\n"
    ".pragma \"nounroll\";\n"
    "{\n"
    "  ret;\n"
    "}\n");
  const KsPtxFunction *f = function (m, "k");

  g_assert_cmpuint (f->maxntid[0], ==, 256);
  g_assert_cmpuint (f->maxntid[1], ==, 1);
  g_assert_cmpuint (f->maxntid[2], ==, 1);
  g_assert_cmpuint (f->reqntid[0], ==, 128);
  g_assert_cmpuint (f->reqntid[1], ==, 0);
  g_assert_cmpuint (f->minnctapersm, ==, 4);
  g_assert_cmpuint (f->maxnreg, ==, 32);
  g_assert_cmpuint (f->reqnctapercluster[0], ==, 2);
  g_assert_cmpuint (f->maxclusterrank, ==, 8);
  g_assert_true (f->flags & KS_PTX_FUNCTION_EXPLICITCLUSTER);
  g_assert_cmpuint (f->n_pragmas, ==, 1);
  g_assert_true (ks_ptx_span_equal (m, m->words[f->first_pragma], "nounroll"));
}

static void
test_registers (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .v4 .f32 %v<2>;\n"
    "  .reg .b64 %rd1, %rd_extra;\n"
    "  mov.b32 %r9, %r0;\n"
    "  mov.f32 %v1.z, %v0.x;\n"
    "  setp.eq.b32 %p2, %r9, 0;\n"
    "  mov.b64 %rd_extra, %rd1;\n"
    "  ret;\n"
    "}\n");
  const KsPtxFunction *f = function (m, "k");
  const KsPtxOperand *op;

  /* 10 b32 + 2*4 f32 + 2 b64 register slots; 3 predicates */
  g_assert_cmpuint (f->n_reg_slots, ==, 20);
  g_assert_cmpuint (f->n_pred_slots, ==, 3);
  g_assert_cmpuint (f->n_reg_decls, ==, 5);

  op = operand (m, insn (m, f, 0), 0);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_REG);
  g_assert_cmpuint (op->a, ==, 9);
  g_assert_cmpuint (m->slot_types[f->first_slot_type + op->a], ==, KS_PTX_TYPE_B32);
  g_assert_cmpuint (operand (m, insn (m, f, 0), 1)->a, ==, 0);

  /* %v1.z: slots 10-13 are %v0, 14-17 are %v1 */
  op = operand (m, insn (m, f, 1), 0);
  g_assert_cmpuint (op->a, ==, 16);
  g_assert_cmpuint (op->aux, ==, 2);
  g_assert_cmpuint (m->slot_types[f->first_slot_type + 16], ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (operand (m, insn (m, f, 1), 1)->a, ==, 10);

  op = operand (m, insn (m, f, 2), 0);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_PRED);
  g_assert_cmpuint (op->a, ==, 2);

  g_assert_cmpuint (operand (m, insn (m, f, 3), 0)->a, ==, 19);
  g_assert_cmpuint (operand (m, insn (m, f, 3), 1)->a, ==, 18);
}

static void
test_register_errors (void)
{
  g_autoptr(KsPtxModule) m = parse (
    HEADER
    ".visible .entry k()\n"             /* 4 */
    "{\n"
    "  .reg .b32 %r<4>;\n"              /* 6 */
    "  mov.b32 %r4, 1;\n"               /* 7: out of the range */
    "  mov.b32 %r01, 1;\n"              /* 8: not a name in the range */
    "  @%r1 bra $L1;\n"                 /* 9: not a predicate */
    "$L1:\n"
    "  ret;\n"
    "}\n");

  dump_diagnostics (m);
  g_assert_cmpuint (m->n_errors, ==, 3);
  g_assert_true (has_diagnostic (m, 7, "undeclared register '%r4'"));
  g_assert_true (has_diagnostic (m, 8, "undeclared register '%r01'"));
  g_assert_true (has_diagnostic (m, 9, "not a declared predicate register"));
  g_assert_cmpuint (m->diagnostics[0].column, ==, 11);
}

/* The kernel of the operand type tests: one instruction on line 14, after
 * "  ".  The same declarations were given to ptxas 13.0 (-arch=sm_80) with
 * each instruction to read off its verdict. */
#define TYPES_KERNEL \
  HEADER \
  ".visible .entry k()\n"             /* 4 */ \
  "{\n" \
  "  .reg .pred %%p<4>;\n" \
  "  .reg .b16 %%rs<4>;\n" \
  "  .reg .b32 %%r<8>;\n" \
  "  .reg .b64 %%rd<8>;\n" \
  "  .reg .f32 %%f<4>;\n"             /* 10 */ \
  "  .reg .f64 %%fd<4>;\n" \
  "  .reg .u32 %%u<4>;\n" \
  "  .reg .f16 %%h<4>;\n" \
  "  %s\n"                            /* 14 */ \
  "  ret;\n" \
  "}\n"

/* One instruction on TYPES_KERNEL's line 14, and the one error it gets */
typedef struct
{
  const char *insn;
  uint32_t column;
  const char *message;
} TypeCase;

static void
assert_type_errors (const TypeCase *cases,
                    guint           n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf (TYPES_KERNEL, cases[i].insn);
      g_autoptr(KsPtxModule) m = parse (text);

      g_test_message ("%s", cases[i].insn);
      dump_diagnostics (m);
      g_assert_cmpuint (m->n_errors, ==, 1);
      g_assert_cmpuint (m->diagnostics[0].line, ==, 14);
      g_assert_cmpuint (m->diagnostics[0].column, ==, cases[i].column);
      g_assert_cmpstr (m->diagnostics[0].message, ==, cases[i].message);
    }
}

/* Instructions on TYPES_KERNEL's line 14 that parse without a word */
static void
assert_types_accepted (const char *const *insns,
                       guint              n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf (TYPES_KERNEL, insns[i]);
      g_autoptr(KsPtxModule) m = NULL;

      g_test_message ("%s", insns[i]);
      m = parse_ok (text);
      g_assert_cmpuint (function (m, "k")->n_insns, ==, 2);
    }
}

static void
test_operand_type_errors (void)
{
  /* Every one of these (immediates included) is "Arguments mismatch for
   * instruction" to ptxas but setp's %p1|%r2 ("Predicate output expected") and the ld.v2
   * ("Incompatible elements of vector expression"). */
  static const TypeCase cases[] = {
    { "add.f64 %r5, %rd1, %p1;", 11,
      "operand 1 of add.f64: '%r5' is a .b32 register, not a .f64 or .b64 register" },
    { "add.f64 %fd1, %fd2, %p1;", 23,
      "operand 3 of add.f64: '%p1' is a .pred register, not a .f64 or .b64 register" },
    { "add.f32 %f1, %u2, %f3;", 16,
      "operand 2 of add.f32: '%u2' is a .u32 register, not a .f32 or .b32 register" },
    { "add.u32 %r1, %rd2, %r3;", 16,
      "operand 2 of add.u32: '%rd2' is a .b64 register, not a 32-bit .u, .s or .b register" },
    { "and.pred %p1, %r2, %p3;", 17,
      "operand 2 of and.pred: '%r2' is a .b32 register, not a predicate" },
    { "setp.lt.f32 %r1, %f1, %f2;", 15,
      "operand 1 of setp.lt.f32: '%r1' is a .b32 register, not a predicate" },
    { "setp.lt.u32 %p1|%r2, %r1, %r2;", 19,
      "operand 1 of setp.lt.u32: '%r2' is a .b32 register, not a predicate" },
    { "selp.f32 %f1, %f2, %f3, %r1;", 27,
      "operand 4 of selp.f32: '%r1' is a .b32 register, not a predicate" },
    { "mov.u32 %r1, %rd1;", 16,
      "operand 2 of mov.u32: '%rd1' is a .b64 register, not a 32-bit .u, .s or .b register" },
    { "mov.f32 %f1, %fd1;", 16,
      "operand 2 of mov.f32: '%fd1' is a .f64 register, not a .f32 or .b32 register" },
    { "mul.wide.u32 %r1, %r2, %r3;", 16,
      "operand 1 of mul.wide.u32: '%r1' is a .b32 register, not a 64-bit .u, .s or .b register" },
    { "shl.b64 %rd1, %rd2, %rd3;", 23,
      "operand 3 of shl.b64: '%rd3' is a .b64 register, not a 32-bit .u, .s or .b register" },
    { "ld.global.u32 %rs1, [%rd1];", 17,
      "operand 1 of ld.global.u32: '%rs1' is a .b16 register, "
      "not a 32-bit or wider .u, .s or .b register" },
    { "ld.global.f32 %fd1, [%rd1];", 17,
      "operand 1 of ld.global.f32: '%fd1' is a .f64 register, "
      "not a .f32 register or a .b register of 32 bits or more" },
    { "st.global.u32 [%rd1], %f1;", 25,
      "operand 2 of st.global.u32: '%f1' is a .f32 register, "
      "not a 32-bit or wider .u, .s or .b register" },
    { "cvt.u32.u32 %r1, %rs1;", 20,
      "operand 2 of cvt.u32.u32: '%rs1' is a .b16 register, "
      "not a 32-bit or wider .u, .s or .b register" },
    { "cvt.rn.f32.f64 %fd1, %fd1;", 18,
      "operand 1 of cvt.rn.f32.f64: '%fd1' is a .f64 register, "
      "not a .f32 register or a .b register of 32 bits or more" },
    { "ld.global.v2.f32 {%f1, %fd2}, [%rd1];", 26,
      "operand 1 of ld.global.v2.f32: '%fd2' is a .f64 register, "
      "not a .f32 register or a .b register of 32 bits or more" },
    /* immediates */
    { "add.f32 %f1, %f2, 1;", 21, "operand 3 of add.f32: '1': .f32 takes no integer literal: "
      "write it as a floating-point one (1.0, 0f3F800000)" },
    { "fma.rn.f32 %f1, %f2, %f3, -1;", 29, "operand 4 of fma.rn.f32: '-1': .f32 takes no "
      "integer literal: write it as a floating-point one (1.0, 0f3F800000)" },
    { "st.global.f32 [%rd1], 1;", 25, "operand 2 of st.global.f32: '1': .f32 takes no integer "
      "literal: write it as a floating-point one (1.0, 0f3F800000)" },
    { "add.s32 %r1, %r2, 0f3F800000;", 21,
      "operand 3 of add.s32: '0f3F800000': .s32 takes no floating-point literal" },
    { "shl.b32 %r1, %r2, 1.0;", 21, "operand 3 of shl.b32: '1.0': .u32 takes no floating-point "
      "literal" },
    { "mov.b32 %r1, 1.0;", 16, "operand 2 of mov.b32: '1.0': .b32 takes an integer or a 32-bit "
      "floating-point literal (0f...), not a 64-bit one" },
    { "mov.b64 %rd1, 0f3F800000;", 17, "operand 2 of mov.b64: '0f3F800000': .b64 takes an "
      "integer or a 64-bit floating-point literal (0d... or decimal), not a 32-bit one" },
    { "add.f16 %h1, %h2, 1.0;", 21, "operand 3 of add.f16: '1.0': .f16 takes no immediate: give "
      "a register (mov.b16 or mov.b32 of its bits)" },
  };

  assert_type_errors (cases, G_N_ELEMENTS (cases));
}

static void
test_operand_type_widths (void)
{
  /* Each of these is accepted by ptxas 13.0, which is what it mirrors:
   * the ISA's type agreement (.b with any type of its size, .u with .s),
   * the wider registers of ld, st and cvt, the .wide forms, a 32-bit
   * shift amount, packing and unpacking movs, setp's p|q. */
  static const char *const cases[] = {
    "add.u32 %r1, %r2, %r3;",
    "add.s32 %r1, %u2, %u3;",
    "add.f32 %f1, %r2, %r3;",
    "add.f64 %fd1, %rd2, %rd3;",
    "add.f16 %rs1, %h2, %rs3;",
    "add.f16x2 %r1, %r2, %r3;",
    "mov.b64 %rd1, {%r1,%r2};",
    "mov.f32 %r1, %f1;",
    "mov.u32 %r1, %tid.x;",
    "cvt.u64.u32 %rd1, %r1;",
    "cvt.u32.u64 %rd1, %rd1;",
    "cvt.f32.f16 %f1, %r1;",
    "cvt.rn.f16.f32 %rs1, %f1;",
    "ld.global.u8 %r1, [%rd1];",
    "ld.global.u8 %rd1, [%rd1];",
    "ld.global.b16 %f2, [%rd1];",
    "st.global.u8 [%rd1], %r1;",
    "st.global.f32 [%rd1], %rd1;",
    "mul.wide.u32 %rd1, %r2, %r3;",
    "mul.wide.s16 %r1, %rs2, %rs3;",
    "mad.wide.u32 %rd1, %r2, %r3, %rd4;",
    "shl.b64 %rd1, %rd2, %r3;",
    "setp.lt.u32 %p1|%p2, %r1, %r2;",
    "setp.lt.and.u32 %p1, %r1, %r2, !%p3;",
    "selp.u32 %r1, %r2, %r3, %p1;",
    "set.lt.u32.f32 %r1, %f1, %f2;",
    "and.pred %p1, %p2, %p3;",
    /* immediates: a float type converts a literal of either size, a .b
     * type takes an integer or a float literal of its own size */
    "add.f32 %f1, %f2, 1.0;",
    "add.f64 %fd1, %fd2, 0f3F800000;",
    "add.f32 %f1, %f2, 0d3FF0000000000000;",
    "add.u32 %r1, %r2, -1;",
    "mov.b32 %r1, 0f3F800000;",
    "mov.b64 %rd1, -2.5;",
    "xor.b64 %rd1, %rd2, 1.0;",
    "selp.b32 %r1, 0f3F800000, 1, %p1;",
    "mul.wide.u32 %rd1, %r1, 4;",
    "cvt.rn.f32.s32 %f1, 1;",
    "st.global.b32 [%rd1], 1;",
    "and.pred %p1, %p1, 1;",
    "mov.b16 %rs1, 1;",
    /* special registers: mov of their size (16 bits too for the four of
     * PTX 1.0, any size for %gridid), cvt between integer types whatever
     * the source type, mov.v4 of a whole vector, any use inside a group */
    "mov.u64 %rd1, %clock64;",
    "mov.s64 %rd1, %globaltimer;",
    "mov.u16 %rs1, %ntid.y;",
    "mov.b16 %rs1, %tid.x;",
    "mov.u32 %r1, %gridid;",
    "mov.u16 %rs1, %gridid;",
    "mov.u32 %r1, %tid.w;",
    "mov.u32 %r1, %ctaid.r;",
    "cvt.u32.u64 %r1, %clock64;",
    "cvt.u32.u32 %r1, %clock64;",
    "cvt.u64.u16 %rd1, %tid.x;",
    "mov.v4.u32 {%r1, %r2, %r3, %r4}, %tid;",
    "mov.b64 %rd1, {%tid.x, %tid.y};",
    "st.global.v2.u32 [%rd1], {%tid.x, %tid.y};",
    "mov.u32 %r1, %reserved_smem_offset_begin;",
    "mov.u64 %rd1, %pm7_64;",
    "mov.u32 %r1, %envreg31;",
  };

  assert_types_accepted (cases, G_N_ELEMENTS (cases));
}

/* Special registers, each case given to ptxas 13.0 with TYPES_KERNEL's
 * declarations (.version 8.0, sm_80) and refused by it: "Arguments
 * mismatch for instruction 'mov'", "Argument vector size mismatch",
 * "Special register argument not allowed for instruction 'add'", "Unknown
 * field '.x'", "Read-only special register cannot be destination
 * argument", "Feature '%clusterid' requires .target sm_90 or higher". */
static void
test_special_register_errors (void)
{
  static const TypeCase cases[] = {
    { "mov.u32 %r1, %clock64;", 16, "operand 2 of mov.u32: '%clock64' is a 64-bit special "
      "register: mov reads it with a 64-bit type, not .u32" },
    { "mov.u64 %rd1, %tid.x;", 17, "operand 2 of mov.u64: '%tid.x' is a 32-bit special "
      "register: mov reads it with a 32-bit type (or 16-bit), not .u64" },
    { "mov.b16 %rs1, %laneid;", 17, "operand 2 of mov.b16: '%laneid' is a 32-bit special "
      "register: mov reads it with a 32-bit type, not .b16" },
    { "mov.u32 %r1, %tid;", 16, "operand 2 of mov.u32: '%tid' is a .v4.u32 vector: read one "
      "element (.x, .y, .z or .w), or all four with mov.v4" },
    { "mov.v2.u32 {%r1, %r2}, %ntid;", 26, "operand 2 of mov.v2.u32: '%ntid' is a .v4.u32 "
      "vector: read one element (.x, .y, .z or .w), or all four with mov.v4" },
    { "mov.u32 %r1, %laneid.x;", 16, "operand 2 of mov.u32: '%laneid.x' has no elements: it "
      "is a scalar register" },
    { "mov.f32 %f1, %tid.x;", 16, "operand 2 of mov.f32: '%tid.x' is an integer special "
      "register: mov reads it as .u, .s or .b" },
    { "add.u32 %r1, %tid.x, 1;", 16, "operand 2 of add.u32: '%tid.x' is a special register, "
      "which only mov and cvt read: move it to a register with mov first" },
    { "st.global.u32 [%rd1], %ctaid.y;", 25, "operand 2 of st.global.u32: '%ctaid.y' is a "
      "special register, which only mov and cvt read: move it to a register with mov first" },
    { "cvt.rn.f32.u32 %f1, %tid.x;", 23, "operand 2 of cvt.rn.f32.u32: '%tid.x' is a special "
      "register, which cvt reads only between integer types" },
    { "mov.u32 %tid.x, %r1;", 11, "operand 1 of mov.u32: '%tid.x' is a special register, "
      "which is read only: it cannot be written" },
    { "mov.u32 %r1, %clusterid.x;", 16, "operand 2 of mov.u32: '%clusterid.x' needs .target "
      "sm_90 or later, and the module's is sm_80" },
    { "mov.u32 %r1, %aggr_smem_size;", 16, "operand 2 of mov.u32: '%aggr_smem_size' needs PTX "
      "ISA .version 8.1 or later, and the module is .version 8.0" },
    /* an element of a register that is not a vector (a fuzzer's find: it
     * used to name the slot after the register's) */
    { "add.u32 %r1.z, %r2, 1;", 14, "'%r1' has no element .z: it is not a vector register" },
  };

  assert_type_errors (cases, G_N_ELEMENTS (cases));
}

/* Vector groups of mov, ld and st, each case given to ptxas 13.0 with
 * TYPES_KERNEL's declarations and refused by it: "Argument vector size
 * mismatch", "Illegal vector size: 3", "Incompatible elements of vector
 * expression", "Arguments mismatch" (a packing mov of the wrong size or
 * type), "Sink '_' not allowed as a source operand". */
static void
test_vector_group_errors (void)
{
  static const TypeCase cases[] = {
    { "ld.global.v4.u32 {%r1, %r2}, [%rd1];", 20, "operand 1 of ld.global.v4.u32: '{%r1, %r2}' "
      "is a group of 2, and .v4 takes 4" },
    { "st.global.v2.u32 [%rd1], {%r1, %r2, %r3};", 28, "operand 2 of st.global.v2.u32: '{%r1, "
      "%r2, %r3}' is a group of 3, and .v2 takes 2" },
    { "ld.global.v2.u32 {%r1, %rd2}, [%rd1];", 26, "operand 1 of ld.global.v2.u32: '%rd2' is a "
      "64-bit register, and the group's are 32-bit" },
    { "mov.b64 %rd1, {%r1, %rd2};", 23, "operand 2 of mov.b64: '%rd2' is a 64-bit register, and "
      "the group's are 32-bit" },
    { "mov.b64 %rd1, {%r1, %r2, %r3};", 17, "operand 2 of mov.b64: '{%r1, %r2, %r3}' is a group "
      "of 3: a packing mov takes 2 or 4" },
    { "mov.b32 %r1, {%r1, %r2};", 17, "operand 2 of mov.b32: 2 registers of 32 bits make 64, not "
      "the 32 of .b32" },
    { "mov.b64 {%rs1, %rs2}, %rd1;", 12, "operand 1 of mov.b64: 2 registers of 16 bits make 32, "
      "not the 64 of .b64" },
    { "mov.u64 %rd1, {%r1, %r2};", 17, "operand 2 of mov.u64: '{%r1, %r2}' is a group: mov packs "
      "and unpacks with a .b type (.b16, .b32, .b64), not .u64" },
    { "mov.b64 %rd1, {%r1, _};", 23, "operand 2 of mov.b64: '_' is read here: only a "
      "destination may be a sink" },
    { "mov.v4.u32 {%r1, %r2, %r3, %r4}, {%r1, %r2};", 36, "operand 2 of mov.v4.u32: '{%r1, "
      "%r2}' is a group of 2, and .v4 takes 4" },
    /* mov.vN's elements are each of its type */
    { "mov.v2.u32 {%r1, %r2}, {%f1, %f2};", 27, "operand 2 of mov.v2.u32: '%f1' is a .f32 "
      "register, not a 32-bit .u, .s or .b register" },
    { "mov.v2.u16 {%rs1, %rs2}, {%r1, %r2};", 29, "operand 2 of mov.v2.u16: '%r1' is a .b32 "
      "register, not a 16-bit .u, .s or .b register" },
  };
  /* and what it takes: a pack of halves, an unpack, a sink where it
   * writes or among mov.b32's halves, wider registers for all of ld.v2's */
  static const char *const accepted[] = {
    "mov.b64 %rd1, {%r1, %r2};",
    "mov.b64 %rd1, {%rs1, %rs2, %rs3, %rs0};",
    "mov.b32 {%rs1, %rs2}, %r1;",
    "mov.b64 {%r1, _}, %rd1;",
    "mov.b32 %r1, {%rs1, _};",
    "ld.global.v2.u32 {%rd1, %rd2}, [%rd1];",
    "ld.global.v2.f32 {%f1, %r2}, [%rd1];",
    "mov.v2.u32 {%r1, %r2}, {%r3, %r4};",
    "mov.v2.f32 {%f1, %f2}, {%r1, %r2};",
    "mov.v2.b32 {%r1, %r2}, {%f1, %f2};",
  };

  assert_type_errors (cases, G_N_ELEMENTS (cases));
  assert_types_accepted (accepted, G_N_ELEMENTS (accepted));
}


/* tex and tld4 coordinate groups: each of tests/ptx/tex-coordinates.txt's
 * forms, alone in a kernel, parses exactly when ptxas 13.0 takes it (a form
 * ptxas dies on is refused), and each refusal names the instruction's line */
static char *
tex_coordinates_kernel (const char *insn)
{
  return g_strdup_printf (".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".global .texref t;\n"
                          ".visible .entry k(.param .u64 p){\n"
                          ".reg .f32 %%f<12>; .reg .s32 %%r<12>; .reg .b64 %%rd<4>;\n"
                          "%s\nret;\n}\n", insn);
}

static void
test_tex_coordinates (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "ptx", "tex-coordinates.txt", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_ok = 0, n_refused = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *tab = strchr (lines[i], '\t');
      g_autofree char *verdict = NULL, *ptx = NULL;
      KsPtxModule *m;

      if (lines[i][0] == '#' || tab == NULL)
        continue;
      verdict = g_strndup (lines[i], (gsize) (tab - lines[i]));
      ptx = tex_coordinates_kernel (tab + 1);
      m = parse (ptx);
      if (strcmp (verdict, "ok") == 0)
        {
          dump_diagnostics (m);
          g_assert_cmpuint (m->n_errors, ==, 0);
          n_ok++;
        }
      else
        {
          if (m->n_errors == 0)
            g_error ("ptxas says %s, KernelScope takes it: %s", verdict, tab + 1);
          g_assert_cmpuint (m->diagnostics[0].line, ==, 7);
          n_refused++;
        }
      ks_ptx_module_free (m);
    }
  g_test_message ("%u taken, %u refused", n_ok, n_refused);
  g_assert_cmpuint (n_ok, >=, 30);
  g_assert_cmpuint (n_refused, >=, 140);
}

/* mma.sync's groups hold its fragments' registers (the PTX ISA's "Matrix
 * fragments for mma.mMnNkK"; ptxas 13.0 refuses each case below and takes
 * each accepted one) */
static void
test_mma_fragment_errors (void)
{
  static const TypeCase cases[] = {
    { "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2}, {%r0, %r1, %r2, %r3}, "
      "{%r4, %r5}, {%f0, %f1, %f2, %f3};", 53, "operand 1 of "
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: '{%f0, %f1, %f2}' is a group of 3: the D "
      "fragment of mma.m16n8k16 with .f32 is 4 registers a thread" },
    { "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, "
      "{%r4, %r5}, {%f0, %f1, %f2, %f3};", 75, "operand 2 of "
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: '{%r0, %r1}' is a group of 2: the A "
      "fragment of mma.m16n8k16 is 4 registers a thread" },
    /* an .f16 accumulator packs two a register */
    { "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r0, %r1}, {%r0, %r1}, {%r4}, "
      "{%r0, %r1, %r2, %r3};", 83, "operand 4 of mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16: "
      "'{%r0, %r1, %r2, %r3}' is a group of 4: the C fragment of mma.m16n8k8 with .f16 is 2 "
      "registers a thread" },
    { "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, "
      "{%r4}, {%r0, %r1, %r2, %r3};", 95, "operand 3 of "
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32: '{%r4}' is a group of 1: the B fragment "
      "of mma.m16n8k32 is 2 registers a thread" },
    { "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd0, %fd1}, %fd2, {%fd3}, {%fd0, %fd1};",
      65, "operand 2 of mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64: '%fd2': the A fragment "
      "of mma.m8n8k4 is a group in braces of 1 register" },
  };
  static const char *const accepted[] = {
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, "
    "{%r4, %r5}, {%f0, %f1, %f2, %f3};",
    "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r0, %r1}, {%r0, %r1}, {%r4}, {%r2, %r3};",
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f0, %f1, %f2, %f3}, "
    "{%r0, %r1, %r2, %r3}, {%r4, %r5}, {%f0, %f1, %f2, %f3};",
    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd0, %fd1}, {%fd2}, {%fd3}, {%fd0, %fd1};",
    "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r0, %r1, %r2, %r3}, "
    "{%r0, %r1, %r2, %r3}, {%r4, %r5}, {%r0, %r1, %r2, %r3};",
  };

  assert_type_errors (cases, G_N_ELEMENTS (cases));
  assert_types_accepted (accepted, G_N_ELEMENTS (accepted));
}

/* mov.v4 of a whole vector register reads its four elements: the fourth
 * is 0 (PTX ISA, "Special Registers: %ntid") */
static void
test_special_register_vector (void)
{
  g_autofree char *text = g_strdup_printf (TYPES_KERNEL,
                                           "mov.v4.u32 {%r1, %r2, %r3, %r4}, %ntid;");
  g_autoptr(KsPtxModule) m = parse_ok (text);
  const KsPtxInsn *mov = insn (m, function (m, "k"), 0);
  const KsPtxOperand *src = operand (m, mov, 1);

  g_assert_cmpuint (mov->opcode, ==, KS_PTX_OPC_MOV);
  g_assert_cmpuint (src->kind, ==, KS_PTX_OPERAND_VECTOR);
  g_assert_cmpuint (src->aux, ==, 4);
  for (uint32_t c = 0; c < 4; c++)
    {
      const KsPtxOperand *e = element (m, src, c);

      g_assert_cmpuint (e->kind, ==, KS_PTX_OPERAND_SREG);
      g_assert_cmpuint (e->a, ==, KS_PTX_SREG_NTID);
      g_assert_cmpuint (e->aux, ==, c);
    }
}

static void
test_variables (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".global .align 4 .b32 grid[2][3] = {{1, 2, 3}, {4, 5, 0x10}};\n"
    ".const .align 4 .f32 coeffs[3] = {1.5, 0f3F800000, -2};\n"
    ".global .align 1 .b8 $str[3] = {72, 105, 0};\n"
    ".global .align 8 .u64 ptrs[3] = {generic($str), grid+8, later};\n"
    ".global .align 8 .u64 later;\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".global .texref t;\n"
    ".global .samplerref s = { filter_mode = linear, force_unnormalized_coords = 1 };\n"
    ".tex .u64 old_tex;\n"
    ".visible .entry k()\n"
    "{\n"
    "  .local .align 16 .b8 depot[32];\n"
    "  .shared .align 4 .f32 tile[16][17];\n"
    "  ret;\n"
    "}\n");
  const KsPtxVar *v = NULL;

#define FIND_VAR(n) \
  do { v = NULL; \
       for (uint32_t i_ = 0; i_ < m->n_vars; i_++) \
         if (ks_ptx_span_equal (m, m->vars[i_].name, n)) v = &m->vars[i_]; \
       g_assert_nonnull (v); } while (0)

  FIND_VAR ("grid");
  g_assert_cmpuint (v->n_dims, ==, 2);
  g_assert_cmpuint (v->n_elements, ==, 6);
  g_assert_cmpuint (v->n_init, ==, 6);
  g_assert_cmpuint (m->inits[v->first_init + 5].kind, ==, KS_PTX_INIT_INT);
  g_assert_cmpuint (m->inits[v->first_init + 5].value, ==, 16);

  FIND_VAR ("coeffs");
  g_assert_cmpuint (v->space, ==, KS_PTX_SPACE_CONST);
  g_assert_cmpuint (m->inits[v->first_init].kind, ==, KS_PTX_INIT_F64);
  g_assert_cmpuint (m->inits[v->first_init].value, ==, G_GUINT64_CONSTANT (0x3FF8000000000000));
  g_assert_cmpuint (m->inits[v->first_init + 1].kind, ==, KS_PTX_INIT_F32);
  g_assert_cmpuint (m->inits[v->first_init + 1].value, ==, 0x3F800000);
  g_assert_cmpuint (m->inits[v->first_init + 2].value, ==, (uint64_t) -2);

  FIND_VAR ("ptrs");
  g_assert_cmpuint (v->n_init, ==, 3);
  g_assert_cmpuint (m->inits[v->first_init].kind, ==, KS_PTX_INIT_GENERIC_VAR);
  g_assert_true (ks_ptx_span_equal (m, m->vars[m->inits[v->first_init].index].name, "$str"));
  g_assert_cmpuint (m->inits[v->first_init + 1].kind, ==, KS_PTX_INIT_VAR);
  g_assert_cmpuint (m->inits[v->first_init + 1].value, ==, 8);
  /* a forward reference, resolved at the end of the module */
  g_assert_cmpuint (m->inits[v->first_init + 2].kind, ==, KS_PTX_INIT_VAR);
  g_assert_true (ks_ptx_span_equal (m, m->vars[m->inits[v->first_init + 2].index].name, "later"));

  FIND_VAR ("dyn");
  g_assert_true (v->flags & KS_PTX_VAR_UNSIZED);
  g_assert_cmpuint (v->linkage, ==, KS_PTX_LINKAGE_EXTERN);
  g_assert_cmpuint (v->space, ==, KS_PTX_SPACE_SHARED);

  FIND_VAR ("t");
  g_assert_cmpuint (v->type, ==, KS_PTX_TYPE_TEXREF);
  FIND_VAR ("s");
  g_assert_cmpuint (v->type, ==, KS_PTX_TYPE_SAMPLERREF);
  g_assert_cmpuint (m->inits[v->first_init].kind, ==, KS_PTX_INIT_FIELD);
  FIND_VAR ("old_tex");
  g_assert_cmpuint (v->space, ==, KS_PTX_SPACE_TEX);

  FIND_VAR ("depot");
  g_assert_cmpuint (v->space, ==, KS_PTX_SPACE_LOCAL);
  g_assert_cmpuint (v->function, ==, (uint32_t) (function (m, "k") - m->functions));
  FIND_VAR ("tile");
  g_assert_cmpuint (v->n_elements, ==, 16 * 17);
#undef FIND_VAR
}

static void
test_operands (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".global .align 4 .b32 table[8];\n"
    ".visible .entry k(.param .u64 k_p)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .f64 %fd<2>;\n"
    "  ld.param.u64 %rd1, [k_p];\n"                          /* 0 */
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n"  /* 1 */
    "  ld.global.u32 %r1, [%rd1+-16];\n"                     /* 2 */
    "  ld.global.u32 %r2, [table+4];\n"                      /* 3 */
    "  ld.global.u32 %r3, [256];\n"                          /* 4 */
    "  mov.u32 %r4, 0xFF;\n"                                 /* 5 */
    "  mov.u32 %r4, 017;\n"                                  /* 6 */
    "  mov.u32 %r4, 0b101;\n"                                /* 7 */
    "  mov.s32 %r4, -5;\n"                                   /* 8 */
    "  mov.f32 %f1, 0f3F800000;\n"                           /* 9 */
    "  mov.f64 %fd1, 0d3FF0000000000000;\n"                  /* 10 */
    "  mov.f32 %f1, 1.5;\n"                                  /* 11 */
    "  mov.b64 {_, %r5}, %rd1;\n"                            /* 12 */
    "  setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;\n"           /* 13 */
    "  mov.u32 %r6, %ctaid.y;\n"                             /* 14 */
    "  mov.u32 %r6, %envreg3;\n"                             /* 15 */
    "  mov.u64 %rd2, %clock64;\n"                            /* 16 */
    "  mov.u64 %rd3, table;\n"                               /* 17 */
    "  ret;\n"
    "}\n");
  const KsPtxFunction *f = function (m, "k");
  const KsPtxOperand *op, *e;
  double d;
  uint64_t bits;

  op = operand (m, insn (m, f, 0), 1);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_ADDRESS);
  g_assert_cmpuint (op->aux, ==, KS_PTX_ADDRESS_VAR);
  g_assert_true (ks_ptx_span_equal (m, m->vars[op->a].name, "k_p"));

  op = operand (m, insn (m, f, 1), 0);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_VECTOR);
  g_assert_cmpuint (op->aux, ==, 4);
  g_assert_cmpuint (element (m, op, 3)->kind, ==, KS_PTX_OPERAND_REG);
  op = operand (m, insn (m, f, 1), 1);
  g_assert_cmpuint (op->aux, ==, KS_PTX_ADDRESS_REG);
  g_assert_cmpint (ks_ptx_operand_offset (m, op), ==, 16);

  g_assert_cmpint (ks_ptx_operand_offset (m, operand (m, insn (m, f, 2), 1)), ==, -16);
  op = operand (m, insn (m, f, 3), 1);
  g_assert_cmpuint (op->aux, ==, KS_PTX_ADDRESS_VAR);
  g_assert_cmpint (ks_ptx_operand_offset (m, op), ==, 4);
  op = operand (m, insn (m, f, 4), 1);
  g_assert_cmpuint (op->aux, ==, KS_PTX_ADDRESS_IMM);
  g_assert_cmpint (ks_ptx_operand_offset (m, op), ==, 256);

  g_assert_cmpuint (ks_ptx_operand_u64 (operand (m, insn (m, f, 5), 1)), ==, 255);
  g_assert_cmpuint (ks_ptx_operand_u64 (operand (m, insn (m, f, 6), 1)), ==, 15);
  g_assert_cmpuint (ks_ptx_operand_u64 (operand (m, insn (m, f, 7), 1)), ==, 5);
  g_assert_cmpint ((int64_t) ks_ptx_operand_u64 (operand (m, insn (m, f, 8), 1)), ==, -5);

  op = operand (m, insn (m, f, 9), 1);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_IMM_F32);
  g_assert_cmpuint (op->a, ==, 0x3F800000);
  op = operand (m, insn (m, f, 10), 1);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_IMM_F64);
  g_assert_cmpuint (ks_ptx_operand_u64 (op), ==, G_GUINT64_CONSTANT (0x3FF0000000000000));
  op = operand (m, insn (m, f, 11), 1);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_IMM_F64);
  bits = ks_ptx_operand_u64 (op);
  memcpy (&d, &bits, sizeof d);
  g_assert_cmpfloat (d, ==, 1.5);

  op = operand (m, insn (m, f, 12), 0);
  g_assert_cmpuint (element (m, op, 0)->kind, ==, KS_PTX_OPERAND_SINK);
  g_assert_cmpuint (element (m, op, 1)->kind, ==, KS_PTX_OPERAND_REG);

  op = operand (m, insn (m, f, 13), 0);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_VECTOR);
  g_assert_true (op->flags & KS_PTX_OPERAND_PIPE);
  g_assert_cmpuint (element (m, op, 0)->a, ==, 1);
  g_assert_cmpuint (element (m, op, 1)->a, ==, 2);
  e = operand (m, insn (m, f, 13), 3);
  g_assert_cmpuint (e->kind, ==, KS_PTX_OPERAND_PRED);
  g_assert_true (e->flags & KS_PTX_OPERAND_NOT);
  g_assert_cmpuint (insn (m, f, 13)->op, ==, KS_PTX_OP_AND);
  g_assert_cmpuint (insn (m, f, 13)->cmp, ==, KS_PTX_CMP_LT);

  op = operand (m, insn (m, f, 14), 1);
  g_assert_cmpuint (op->kind, ==, KS_PTX_OPERAND_SREG);
  g_assert_cmpuint (op->a, ==, KS_PTX_SREG_CTAID);
  g_assert_cmpuint (op->aux, ==, 1);
  op = operand (m, insn (m, f, 15), 1);
  g_assert_cmpuint (op->a, ==, KS_PTX_SREG_ENVREG);
  g_assert_cmpuint (op->b, ==, 3);
  g_assert_cmpuint (operand (m, insn (m, f, 16), 1)->a, ==, KS_PTX_SREG_CLOCK64);
  g_assert_cmpuint (operand (m, insn (m, f, 17), 1)->kind, ==, KS_PTX_OPERAND_VAR);
}

static void
test_predicates_and_labels (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  @%p1 bra $L__BB0_2;\n"          /* 0 */
    "  @!%p2 bra.uni $L__BB0_1;\n"     /* 1 */
    "$L__BB0_1:\n"
    "  exit;\n"                        /* 2 */
    "$L__BB0_2: ret;\n"                /* 3 */
    "}\n");
  const KsPtxFunction *f = function (m, "k");

  g_assert_cmpuint (insn (m, f, 0)->pred, ==, 1);
  g_assert_cmpuint (insn (m, f, 0)->pred_not, ==, 0);
  g_assert_cmpuint (insn (m, f, 1)->pred, ==, 2);
  g_assert_cmpuint (insn (m, f, 1)->pred_not, ==, 1);
  g_assert_cmpuint (insn (m, f, 2)->pred, ==, KS_PTX_NONE);
  g_assert_cmpuint (operand (m, insn (m, f, 0), 0)->kind, ==, KS_PTX_OPERAND_LABEL);
  g_assert_cmpuint (operand (m, insn (m, f, 0), 0)->a, ==, 3);
  g_assert_cmpuint (operand (m, insn (m, f, 1), 0)->a, ==, 2);
  g_assert_cmpuint (insn (m, f, 3)->opcode, ==, KS_PTX_OPC_RET);
}

/* The words of the sm_90 asynchronous instructions decode into flags: the
 * simulator runs them by these, never by undecoded words. */
static void
test_async_modifiers (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mbarrier.arrive_drop.noComplete.shared::cta.b64 %rd1, [%r1], 2;\n"             /* 0 */
    "  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 64;\n"                 /* 1 */
    "  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [%r1], %r2;\n"       /* 2 */
    "  mbarrier.pending_count.b64 %r3, %rd1;\n"                                       /* 3 */
    "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];\n"                            /* 4 */
    "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd2], 256, [%r1];\n" /* 5 */
    "  cp.async.bulk.commit_group;\n"                                                 /* 6 */
    "  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd2], [%r4], 64;\n" /* 7 */
    "  ret;\n"
    "}\n");
  const KsPtxFunction *f = function (m, "k");
  const KsPtxInsn *in;

  in = insn (m, f, 0);
  g_assert_cmpuint (in->opcode, ==, KS_PTX_OPC_MBARRIER);
  g_assert_true (in->flags & KS_PTX_FLAG_ARRIVE_DROP);
  g_assert_true (in->flags & KS_PTX_FLAG_NOCOMPLETE);
  g_assert_false (in->flags & KS_PTX_FLAG_ARRIVE);
  g_assert_false (in->flags & KS_PTX_FLAG_UNDECODED);
  g_assert_cmpuint (in->space, ==, KS_PTX_SPACE_SHARED);
  g_assert_cmpuint (in->types[0], ==, KS_PTX_TYPE_B64);
  in = insn (m, f, 1);
  g_assert_true (in->flags & KS_PTX_FLAG_COMPLETE_TX);
  g_assert_cmpuint (in->sem, ==, KS_PTX_SEM_RELAXED);
  g_assert_cmpuint (in->scope, ==, KS_PTX_SCOPE_CTA);
  in = insn (m, f, 2);
  g_assert_true (in->flags & KS_PTX_FLAG_TRY_WAIT);
  g_assert_true (in->flags & KS_PTX_FLAG_PARITY);
  g_assert_cmpuint (in->sem, ==, KS_PTX_SEM_ACQUIRE);
  g_assert_true (insn (m, f, 3)->flags & KS_PTX_FLAG_PENDING_COUNT);
  in = insn (m, f, 4);
  g_assert_cmpuint (in->opcode, ==, KS_PTX_OPC_CP);
  g_assert_true (in->flags & KS_PTX_FLAG_MBARRIER);
  g_assert_true (in->flags & KS_PTX_FLAG_ARRIVE);
  g_assert_true (in->flags & KS_PTX_FLAG_NOINC);
  in = insn (m, f, 5);
  g_assert_true (in->flags & KS_PTX_FLAG_BULK);
  g_assert_true (in->flags & KS_PTX_FLAG_MBAR_COMPLETE_TX);
  g_assert_false (in->flags & KS_PTX_FLAG_UNDECODED);
  g_assert_cmpuint (in->n_operands, ==, 4);
  /* one space per instruction: the last written, the source's, wins */
  g_assert_cmpuint (in->space, ==, KS_PTX_SPACE_GLOBAL);
  g_assert_true (insn (m, f, 6)->flags & KS_PTX_FLAG_COMMIT_GROUP);
  in = insn (m, f, 7);
  g_assert_true (in->flags & KS_PTX_FLAG_BULK_GROUP);
  g_assert_true (in->flags & KS_PTX_FLAG_REDUCE);
  g_assert_false (in->flags & KS_PTX_FLAG_UNDECODED);
  g_assert_cmpuint (in->op, ==, KS_PTX_OP_ADD);
}

static void
test_modifiers (void)
{
  g_autoptr(KsPtxModule) m = parse (
    HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .f32 %f<12>;\n"
    "  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"                 /* 0 */
    "  cvt.rn.f32.s32 %f1, %r1;\n"                                          /* 1 */
    "  setp.lo.u32 %p1, %r1, %r2;\n"                                        /* 2 */
    "  mul.lo.s32 %r3, %r1, %r2;\n"                                         /* 3 */
    "  atom.global.cas.b32 %r4, [%rd1], %r1, %r2;\n"                        /* 4 */
    "  shfl.sync.bfly.b32 %r5|%p1, %r1, 16, 31, -1;\n"                      /* 5 */
    "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};\n" /* 6 */
    "  ld.global.L2::cache_hint.u32 %r6, [%rd1], %rd2;\n"                   /* 7 */
    "  atom.acquire.gpu.global.add.u32 %r7, [%rd1], 1;\n"                   /* 8 */
    "  frobnicate.fast.b32 %r1, %r2;\n"                                     /* 9 */
    "  fma.rn.ftz.sat.f32 %f9, %f1, %f2, %f3;\n"                            /* 10 */
    "  ret;\n"
    "}\n");
  const KsPtxFunction *f = function (m, "k");
  const KsPtxInsn *in;
  const KsPtxExtra *x;

  dump_diagnostics (m);
  g_assert_cmpuint (m->n_errors, ==, 0);
  g_assert_cmpuint (m->n_warnings, ==, 1);
  g_assert_true (has_diagnostic (m, 19, "unknown instruction 'frobnicate'"));

  in = insn (m, f, 0);
  g_assert_cmpuint (in->opcode, ==, KS_PTX_OPC_LD);
  g_assert_cmpuint (in->space, ==, KS_PTX_SPACE_GLOBAL);
  g_assert_true (in->flags & KS_PTX_FLAG_NC);
  g_assert_cmpuint (in->vec, ==, KS_PTX_VEC_V4);
  g_assert_cmpuint (in->types[0], ==, KS_PTX_TYPE_F32);

  in = insn (m, f, 1);
  g_assert_cmpuint (in->round, ==, KS_PTX_ROUND_RN);
  g_assert_cmpuint (in->types[0], ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (in->types[1], ==, KS_PTX_TYPE_S32);

  g_assert_cmpuint (insn (m, f, 2)->cmp, ==, KS_PTX_CMP_LO);
  g_assert_false (insn (m, f, 2)->flags & KS_PTX_FLAG_LO);
  g_assert_true (insn (m, f, 3)->flags & KS_PTX_FLAG_LO);
  g_assert_cmpuint (insn (m, f, 3)->cmp, ==, KS_PTX_CMP_NONE);
  g_assert_cmpuint (insn (m, f, 4)->op, ==, KS_PTX_OP_CAS);
  g_assert_cmpuint (insn (m, f, 4)->n_operands, ==, 4);

  in = insn (m, f, 5);
  g_assert_cmpuint (in->op, ==, KS_PTX_OP_BFLY);
  g_assert_true (in->flags & KS_PTX_FLAG_SYNC);
  g_assert_cmpint ((int64_t) ks_ptx_operand_u64 (operand (m, in, 4)), ==, -1);

  in = insn (m, f, 6);
  g_assert_cmpuint (in->opcode, ==, KS_PTX_OPC_MMA);
  g_assert_true (in->flags & KS_PTX_FLAG_ROW);
  g_assert_true (in->flags & KS_PTX_FLAG_COL);
  g_assert_cmpuint (in->types[0], ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (in->types[1], ==, KS_PTX_TYPE_F16);
  g_assert_cmpuint (in->types[3], ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (in->extra, !=, 0);
  x = &m->extras[in->extra];
  g_assert_cmpuint (x->shape_m, ==, 16);
  g_assert_cmpuint (x->shape_n, ==, 8);
  g_assert_cmpuint (x->shape_k, ==, 16);

  in = insn (m, f, 7);
  g_assert_true (in->flags & KS_PTX_FLAG_UNDECODED);
  x = &m->extras[in->extra];
  g_assert_cmpuint (x->n_words, ==, 1);
  g_assert_true (ks_ptx_span_equal (m, m->words[x->first_word], "L2::cache_hint"));
  g_assert_cmpuint (in->n_operands, ==, 3);

  in = insn (m, f, 8);
  g_assert_cmpuint (in->sem, ==, KS_PTX_SEM_ACQUIRE);
  g_assert_cmpuint (in->scope, ==, KS_PTX_SCOPE_GPU);
  g_assert_cmpuint (in->op, ==, KS_PTX_OP_ADD);

  /* An unknown opcode still parses with its modifiers and operands */
  in = insn (m, f, 9);
  g_assert_cmpuint (in->opcode, ==, KS_PTX_OPC_UNKNOWN);
  x = &m->extras[in->extra];
  g_assert_true (ks_ptx_span_equal (m, x->opcode_name, "frobnicate"));
  g_assert_cmpuint (x->n_words, ==, 1);
  g_assert_cmpuint (in->types[0], ==, KS_PTX_TYPE_B32);
  g_assert_cmpuint (in->n_operands, ==, 2);

  in = insn (m, f, 10);
  g_assert_true (in->flags & KS_PTX_FLAG_FTZ);
  g_assert_true (in->flags & KS_PTX_FLAG_SAT);
  g_assert_cmpuint (in->round, ==, KS_PTX_ROUND_RN);
}

static void
test_calls (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".func (.param .b32 r) twice (.param .b32 x);\n"
    ".func (.param .b32 r) once (.param .b32 x);\n"
    ".visible .entry k(.param .u64 k_fp, .param .u32 k_i)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u32 %r1, [k_i];\n"                              /* 0 */
    "  { // callseq 0\n"
    "  .reg .b32 temp_param_reg;\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0+0], %r1;\n"                         /* 1 */
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), twice, (param0);\n"                  /* 2 */
    "  ld.param.b32 %r2, [retval0+0];\n"                        /* 3 */
    "  }\n"
    "  { // callseq 1\n"
    "  .reg .b32 temp_param_reg;\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0+0], %r2;\n"                         /* 4 */
    "  .param .b32 retval0;\n"
    "  prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  ld.param.u64 %rd1, [k_fp];\n"                            /* 5 */
    "  call (retval0), %rd1, (param0), prototype_1;\n"          /* 6 */
    "  }\n"
    "  .param .b32 rv;\n"
    "  Ftgt: .calltargets twice, once;\n"
    "  call (rv), %rd1, (%r1), Ftgt;\n"                         /* 7 */
    "  ts: .branchtargets $L0, $L1;\n"
    "  brx.idx %r1, ts;\n"                                      /* 8 */
    "$L0:\n"
    "  ret;\n"                                                  /* 9 */
    "$L1:\n"
    "  exit;\n"                                                 /* 10 */
    "}\n"
    ".func (.param .b32 r) twice (.param .b32 x)\n"
    "{\n"
    "  .reg .b32 %t<3>;\n"
    "  ld.param.b32 %t1, [x];\n"
    "  add.s32 %t2, %t1, %t1;\n"
    "  st.param.b32 [r], %t2;\n"
    "  ret;\n"
    "}\n");
  g_autoptr(KsPtxModule) bad = NULL;
  const KsPtxFunction *k = function (m, "k");
  const KsPtxFunction *twice = function (m, "twice");
  const KsPtxOperand *callee, *list, *a1, *a4;
  const KsPtxTargetList *tl;

  /* The declaration and the definition of twice are one function */
  g_assert_true (twice->flags & KS_PTX_FUNCTION_HAS_BODY);
  g_assert_cmpuint (twice->n_insns, ==, 4);
  callee = operand (m, insn (m, k, 2), 1);
  g_assert_cmpuint (callee->kind, ==, KS_PTX_OPERAND_FUNC);
  g_assert_true (&m->functions[callee->a] == twice);
  list = operand (m, insn (m, k, 2), 2);
  g_assert_cmpuint (list->kind, ==, KS_PTX_OPERAND_LIST);
  g_assert_cmpuint (element (m, list, 0)->kind, ==, KS_PTX_OPERAND_VAR);

  /* param0 of each call sequence is its own variable */
  a1 = operand (m, insn (m, k, 1), 0);
  a4 = operand (m, insn (m, k, 4), 0);
  g_assert_cmpuint (a1->aux, ==, KS_PTX_ADDRESS_VAR);
  g_assert_cmpuint (a1->a, !=, a4->a);
  g_assert_cmpuint (m->vars[a1->a].space, ==, KS_PTX_SPACE_PARAM);

  callee = operand (m, insn (m, k, 6), 3);
  g_assert_cmpuint (callee->kind, ==, KS_PTX_OPERAND_FUNC);
  g_assert_cmpuint (m->functions[callee->a].kind, ==, KS_PTX_FUNCTION_PROTOTYPE);
  g_assert_cmpuint (m->functions[callee->a].n_params, ==, 1);
  g_assert_cmpuint (m->functions[callee->a].n_rets, ==, 1);

  callee = operand (m, insn (m, k, 7), 3);
  g_assert_cmpuint (callee->kind, ==, KS_PTX_OPERAND_TARGETS);
  tl = &m->target_lists[callee->a];
  g_assert_true (tl->is_calltargets);
  g_assert_cmpuint (tl->n, ==, 2);
  g_assert_true (&m->functions[m->target_entries[tl->first]] == twice);

  callee = operand (m, insn (m, k, 8), 1);
  g_assert_cmpuint (callee->kind, ==, KS_PTX_OPERAND_TARGETS);
  tl = &m->target_lists[callee->a];
  g_assert_false (tl->is_calltargets);
  g_assert_cmpuint (m->target_entries[tl->first], ==, 9);
  g_assert_cmpuint (m->target_entries[tl->first + 1], ==, 10);

  /* Names declared inside a { } scope are gone after it */
  bad = parse (HEADER
               ".visible .entry k()\n"
               "{\n"
               "  .reg .b32 %r1;\n"
               "  {\n"
               "  .reg .b32 inner;\n"
               "  mov.b32 inner, 1;\n"
               "  }\n"
               "  mov.b32 %r1, inner;\n"         /* 11 */
               "  ret;\n"
               "}\n");
  g_assert_cmpuint (bad->n_errors, ==, 1);
  g_assert_true (has_diagnostic (bad, 11, "undefined name 'inner'"));
}

static void
test_comments (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    "// leading comment\n"
    "/* block\n"
    "   comment */ .version 8.0 /* inline */\n"
    ".target sm_80 // trailing\n"
    ".address_size 64\n"
    ".visible .entry k()\n"
    "{ /* { not a brace } */\n"
    "  ret; // }\n"
    "}\n");

  g_assert_cmpuint (function (m, "k")->n_insns, ==, 1);
}

static const KsPtxVar *
module_var (const KsPtxModule *m,
            const char        *name)
{
  for (uint32_t i = 0; i < m->n_vars; i++)
    if (ks_ptx_span_equal (m, m->vars[i].name, name))
      return &m->vars[i];
  g_assert_not_reached ();
  return NULL;
}

/* The PTX ISA's variable attributes (".attribute: variable attributes"):
 * what nvcc writes for __managed__, and .unified; both only for module-scope
 * .global variables */
static void
test_variable_attributes (void)
{
  g_autoptr(KsPtxModule) m = parse_ok (
    HEADER
    ".global .attribute(.managed) .align 4 .u32 hits = 7;\n"
    ".global .attribute(.managed) .align 4 .b8 weights[32];\n"
    ".global .attribute(.unified(19, 95)) .f32 u;\n"
    ".global .align 4 .u32 plain;\n"
    ".visible .entry k()\n"
    "{\n"
    "  ret;\n"
    "}\n");
  g_autoptr(KsPtxModule) bad = NULL;
  const KsPtxVar *v;

  v = module_var (m, "hits");
  g_assert_cmpuint (v->flags & KS_PTX_VAR_MANAGED, !=, 0);
  g_assert_cmpuint (v->type, ==, KS_PTX_TYPE_U32);
  g_assert_cmpuint (v->n_init, ==, 1);
  v = module_var (m, "weights");
  g_assert_cmpuint (v->flags & KS_PTX_VAR_MANAGED, !=, 0);
  g_assert_cmpuint (v->n_elements, ==, 32);
  v = module_var (m, "u");
  g_assert_cmpuint (v->flags & (KS_PTX_VAR_UNIFIED | KS_PTX_VAR_MANAGED), ==, KS_PTX_VAR_UNIFIED);
  v = module_var (m, "plain");
  g_assert_cmpuint (v->flags & (KS_PTX_VAR_UNIFIED | KS_PTX_VAR_MANAGED), ==, 0);

  bad = parse (HEADER
               ".shared .attribute(.managed) .u32 s;\n"     /* 4 */
               ".global .attribute(.pinned) .u32 p;\n"      /* 5 */
               ".global .attribute(.managed .u32 q;\n"      /* 6 */
               ".visible .entry k()\n"
               "{\n"
               "  ret;\n"
               "}\n");
  dump_diagnostics (bad);
  g_assert_cmpuint (bad->n_errors, ==, 3);
  g_assert_true (has_diagnostic (bad, 4, ".attribute applies only to .global variables"));
  g_assert_true (has_diagnostic (bad, 5, "expected a variable attribute, .managed or .unified"));
  g_assert_true (has_diagnostic (bad, 6, "expected ')'"));
}

/* The element types of nvcc's pointer parameters, from the loads and
 * stores through them, against the types the CUDA sources declare */
static void
test_pointee_types (void)
{
  static const struct
  {
    const char *ptx, *kernel;
    KsPtxType want[4];
  } cases[] = {
    /* saxpy(int n, float a, const float *x, float *y) */
    { "samples/02-saxpy/saxpy.ptx", "_Z5saxpyifPKfPf",
      { KS_PTX_TYPE_NONE, KS_PTX_TYPE_NONE, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32 } },
    /* histogram_global(const unsigned char *pixels, int n, unsigned *hist) */
    { "samples/19-histogram-global/histogram_global.ptx", "_Z16histogram_globalPKhiPj",
      { KS_PTX_TYPE_U8, KS_PTX_TYPE_NONE, KS_PTX_TYPE_U32 } },
    /* matmul_tiled(const float *A, const float *B, float *C, int n) */
    { "samples/22-matmul-tiled/matmul_tiled.ptx", "_Z12matmul_tiledPKfS0_Pfi",
      { KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, KS_PTX_TYPE_NONE } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      /* (the samples' folder: tests/meson.build sets KS_DATA_DIR) */
      g_autofree char *path = g_build_filename (g_getenv ("KS_DATA_DIR"), cases[i].ptx, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (path, &error);
      const KsPtxFunction *f;
      KsPtxType got[4];

      g_assert_no_error (error);
      f = function (m, cases[i].kernel);
      g_assert_cmpuint (f->n_params, <=, 4);
      ks_ptx_param_pointee_types (m, f, got);
      for (uint32_t p = 0; p < f->n_params; p++)
        if (got[p] != cases[i].want[p])
          g_error ("%s param %u: %s, expected %s", cases[i].kernel, p, ks_ptx_type_name (got[p]),
                   ks_ptx_type_name (cases[i].want[p]));
    }

  /* reduce1(int *g_idata, int *g_odata) of Harris's reduction: both are
   * copied through shared memory and summed with add.s32, which nvcc also
   * writes for unsigned sums, so their sign is not in the PTX: unsigned
   * 32-bit integers */
  {
    g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "compare",
                                                   "harris_reduce.ptx", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (path, &error);
    const KsPtxFunction *f;
    KsPtxType got[2];

    g_assert_no_error (error);
    f = function (m, "_Z7reduce1PiS_");
    ks_ptx_param_pointee_types (m, f, got);
    g_assert_cmpstr (ks_ptx_type_name (got[0]), ==, "u32");
    g_assert_cmpstr (ks_ptx_type_name (got[1]), ==, "u32");
  }

  /* where the sign shows: a loaded int compared with setp.lt.s32, and one
   * converted to float; an unsigned sum stored; a pointer advanced in a
   * loop (the value reaches the load round the back edge); a buffer read
   * both as f32 and as u64 has no type */
  {
    g_autoptr(KsPtxModule) m = parse_ok (
      HEADER
      ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d,\n"
      "                  .param .u64 e, .param .u32 n)\n"
      "{\n"
      "  .reg .pred %p<3>;\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .f32 %f<3>;\n"
      "  .reg .b64 %rd<12>;\n"
      "  ld.param.u64 %rd1, [a];\n"
      "  ld.param.u64 %rd2, [b];\n"
      "  ld.param.u64 %rd3, [c];\n"
      "  ld.param.u64 %rd4, [d];\n"
      "  ld.param.u64 %rd5, [e];\n"
      "  cvta.to.global.u64 %rd6, %rd1;\n"
      "  ld.global.u32 %r1, [%rd6];\n"
      "  setp.lt.s32 %p1, %r1, 0;\n"
      "  ld.global.u32 %r2, [%rd2+4];\n"
      "  cvt.rn.f32.s32 %f1, %r2;\n"
      "  add.s32 %r3, %r1, %r2;\n"
      "  st.global.u32 [%rd3], %r3;\n"
      "LOOP:\n"
      "  mov.u64 %rd7, %rd8;\n"
      "  ld.global.f32 %f2, [%rd7];\n"
      "  mov.u64 %rd8, %rd4;\n"
      "  add.s64 %rd8, %rd8, 4;\n"
      "  @%p1 bra LOOP;\n"
      "  ld.global.f32 %f2, [%rd5];\n"
      "  ld.global.u64 %rd9, [%rd5+8];\n"
      "  ret;\n"
      "}\n");
    KsPtxType got[6];

    ks_ptx_param_pointee_types (m, function (m, "k"), got);
    g_assert_cmpstr (ks_ptx_type_name (got[0]), ==, "s32");
    g_assert_cmpstr (ks_ptx_type_name (got[1]), ==, "s32");
    g_assert_cmpstr (ks_ptx_type_name (got[2]), ==, "u32");
    g_assert_cmpstr (ks_ptx_type_name (got[3]), ==, "f32");
    g_assert_cmpint (got[4], ==, KS_PTX_TYPE_NONE);
    g_assert_cmpint (got[5], ==, KS_PTX_TYPE_NONE);
  }
}

static void
test_recovery (void)
{
  g_autoptr(KsPtxModule) m = parse (
    HEADER
    ".visible .entry k()\n"            /* 4 */
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1 1;\n"               /* 7: missing comma */
    "  mov.u32 %r2, 2;\n"              /* 8 */
    "  add.s32 %r3, [%r1;\n"           /* 9: unclosed bracket */
    "  add.s32 %r3, %r1, %r2;\n"       /* 10 */
    "  ld.global.u32 %r1, [%r2+];\n"   /* 11: missing offset */
    "  ret;\n"                         /* 12 */
    "}\n"
    ".visible .entry after()\n"        /* 14 */
    "{\n"
    "  ret\n"                          /* 16: missing ; */
    "}\n"
    ".visible .entry last()\n"
    "{\n"
    "  exit;\n"
    "}\n");

  dump_diagnostics (m);
  g_assert_cmpuint (m->n_errors, ==, 4);
  g_assert_true (has_diagnostic (m, 7, "expected ',' or ';' after an operand, found '1'"));
  g_assert_true (has_diagnostic (m, 9, "or ']', found ';'"));
  g_assert_true (has_diagnostic (m, 11, "expected a number"));
  g_assert_true (has_diagnostic (m, 17, "expected ';' after an instruction, found '}'"));
  g_assert_cmpuint (m->diagnostics[0].line, ==, 7);
  g_assert_cmpuint (m->diagnostics[0].column, ==, 15);
  /* The good lines around the bad ones are kept */
  g_assert_cmpuint (function (m, "k")->n_insns, ==, 3);
  g_assert_cmpuint (function (m, "last")->n_insns, ==, 1);
}

static void
test_hostile_input (void)
{
  GString *s;
  g_autoptr(KsPtxModule) m1 = NULL, m2 = NULL, m3 = NULL, m4 = NULL, m5 = NULL, m6 = NULL;

  /* Binary junk */
  {
    guint8 junk[4096];
    GRand *rand = g_rand_new_with_seed (42);
    g_autoptr(GBytes) b = NULL;

    for (guint i = 0; i < sizeof junk; i++)
      junk[i] = (guint8) g_rand_int_range (rand, 0, 256);
    g_rand_free (rand);
    b = g_bytes_new (junk, sizeof junk);
    m1 = ks_ptx_module_parse (b, "junk");
    g_assert_cmpuint (m1->n_errors, >, 0);
  }

  /* A truncated file */
  m2 = parse (HEADER ".visible .entry k(.param .u64 k_p)\n{\n .reg .b32 %r<2>;\n ld.param");
  g_assert_true (has_diagnostic (m2, 7, "missing '}'"));

  /* Deeply nested braces: counted, not recursed */
  s = g_string_new (HEADER ".visible .entry k()\n");
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (s, '{');
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (s, '}');
  m3 = parse (s->str);
  g_assert_cmpuint (m3->n_errors, ==, 0);
  g_string_free (s, TRUE);

  /* A line of a megabyte */
  s = g_string_new (HEADER ".visible .entry k()\n{\n .reg .b32 %r1;\n mov.b32 %r1, ");
  for (guint i = 0; i < 1 << 20; i++)
    g_string_append_c (s, '9');
  g_string_append (s, ";\n ret;\n}\n");
  m4 = parse (s->str);
  g_assert_true (has_diagnostic (m4, 7, "number does not fit in 64 bits"));
  g_string_free (s, TRUE);

  /* Invalid UTF-8 and an unterminated comment */
  m5 = parse (HEADER ".visible .entry k()\n{\n ret; \xc3\x28 \xff\n}\n/* open");
  g_assert_true (has_diagnostic (m5, 6, "not PTX text"));
  g_assert_true (has_diagnostic (m5, 8, "unterminated /* comment"));

  /* Nested initializers beyond the bound */
  s = g_string_new (HEADER ".global .b32 x[1] = ");
  for (guint i = 0; i < 10000; i++)
    g_string_append_c (s, '{');
  m6 = parse (s->str);
  g_assert_true (has_diagnostic (m6, 4, "nested too deeply"));
  g_string_free (s, TRUE);
}

static void
test_error_limit (void)
{
  GString *s = g_string_new (HEADER);
  g_autoptr(KsPtxModule) m = NULL;

  for (guint i = 0; i < 5000; i++)
    g_string_append (s, "bogus;\n");
  m = parse (s->str);
  g_assert_cmpuint (m->n_errors, ==, 5000);
  /* 1000 messages and a note that says how many more there were */
  g_assert_cmpuint (m->n_diagnostics, ==, 1001);
  g_assert_nonnull (strstr (m->diagnostics[1000].message, "4000 more"));
  g_string_free (s, TRUE);
}

/* A .version or .target this parser does not know is read, with a warning
 * at its place rather than silently (issue 16); every architecture and
 * option it knows is not warned of */
static void
test_unknown_version_target (void)
{
  KsPtxModule *m = parse_ok (".version 99.0\n.target sm_99999, texmode_unified\n"
                             ".address_size 64\n.visible .entry k()\n{\n  ret;\n}\n");

  g_assert_cmpuint (m->n_warnings, ==, 2);
  g_assert_cmpuint (m->diagnostics[0].severity, ==, KS_PTX_SEVERITY_WARNING);
  g_assert_cmpuint (m->diagnostics[0].line, ==, 1);
  g_assert_cmpuint (m->diagnostics[0].column, ==, 10);
  g_assert_nonnull (strstr (m->diagnostics[0].message, ".version 99.0 is not a PTX ISA version"));
  g_assert_cmpuint (m->diagnostics[1].line, ==, 2);
  g_assert_cmpuint (m->diagnostics[1].column, ==, 9);
  g_assert_nonnull (strstr (m->diagnostics[1].message, ".target sm_99999 is not an architecture"));
  /* still a module: its version and kernel */
  g_assert_cmpuint (m->version_major, ==, 99);
  g_assert_nonnull (ks_ptx_module_find_function (m, "k"));
  ks_ptx_module_free (m);

  m = parse_ok (".version 9.0\n.target sm_90a, compute_100f, sm_121, sm_20, texmode_independent, "
                "debug, map_f64_to_f32\n.address_size 64\n");
  g_assert_cmpuint (m->n_warnings, ==, 0);
  ks_ptx_module_free (m);
  m = parse_ok (".version 0.9\n.target sm_80x\n.address_size 64\n");
  g_assert_cmpuint (m->n_warnings, ==, 2);
  ks_ptx_module_free (m);
}

/* The special registers whose value is the time read (PTX ISA, "Special
 * Registers": %clock, %clock_hi, %clock64, %globaltimer and its 32-bit
 * halves), which both the simulator (one thread for a kernel that reads
 * one) and the timing model (never issued ahead) must know; the two
 * halves of %globaltimer were once missing from both lists */
static void
test_timer_sregs (void)
{
  static const char *const timers[] = { "%clock", "%clock_hi", "%clock64", "%globaltimer",
                                        "%globaltimer_lo", "%globaltimer_hi" };
  guint n_timers = 0;

  for (int s = 0; s < KS_PTX_N_SREGS; s++)
    {
      const char *name = ks_ptx_sreg_name ((KsPtxSreg) s);
      gboolean want = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (timers); k++)
        want = want || g_str_equal (name, timers[k]);
      if (ks_ptx_sreg_is_timer ((KsPtxSreg) s) != want)
        g_error ("%s: ks_ptx_sreg_is_timer says %d", name, !want);
      n_timers += want;
    }
  g_assert_cmpuint (n_timers, ==, G_N_ELEMENTS (timers));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ptx/parser/module-directives", test_module_directives);
  g_test_add_func ("/ptx/parser/file-and-loc", test_file_and_loc);
  g_test_add_func ("/ptx/parser/linkage-and-params", test_linkage_and_params);
  g_test_add_func ("/ptx/parser/performance-directives", test_performance_directives);
  g_test_add_func ("/ptx/parser/registers", test_registers);
  g_test_add_func ("/ptx/parser/register-errors", test_register_errors);
  g_test_add_func ("/ptx/parser/operand-type-errors", test_operand_type_errors);
  g_test_add_func ("/ptx/parser/operand-type-widths", test_operand_type_widths);
  g_test_add_func ("/ptx/parser/special-register-errors", test_special_register_errors);
  g_test_add_func ("/ptx/parser/special-register-vector", test_special_register_vector);
  g_test_add_func ("/ptx/parser/vector-group-errors", test_vector_group_errors);
  g_test_add_func ("/ptx/parser/mma-fragment-errors", test_mma_fragment_errors);
  g_test_add_func ("/ptx/parser/tex-coordinates", test_tex_coordinates);
  g_test_add_func ("/ptx/parser/variables", test_variables);
  g_test_add_func ("/ptx/parser/variable-attributes", test_variable_attributes);
  g_test_add_func ("/ptx/parser/pointee-types", test_pointee_types);
  g_test_add_func ("/ptx/parser/operands", test_operands);
  g_test_add_func ("/ptx/parser/predicates-and-labels", test_predicates_and_labels);
  g_test_add_func ("/ptx/parser/modifiers", test_modifiers);
  g_test_add_func ("/ptx/parser/async-modifiers", test_async_modifiers);
  g_test_add_func ("/ptx/parser/calls", test_calls);
  g_test_add_func ("/ptx/parser/comments", test_comments);
  g_test_add_func ("/ptx/parser/recovery", test_recovery);
  g_test_add_func ("/ptx/parser/hostile-input", test_hostile_input);
  g_test_add_func ("/ptx/parser/inline-sites-whole-numbers", test_inline_sites_whole_numbers);
  g_test_add_func ("/ptx/parser/error-limit", test_error_limit);
  g_test_add_func ("/ptx/parser/unknown-version-target", test_unknown_version_target);
  g_test_add_func ("/ptx/parser/timer-sregs", test_timer_sregs);
  return g_test_run ();
}
