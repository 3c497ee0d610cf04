/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cubin.c: the cubin reader against what NVIDIA's tools print about
 * the same files.
 *
 * tests/fixtures/cubin holds cubins made by Debian's CUDA 11.8 from the
 * samples and, beside each, nvdisasm -c -hex, cuobjdump -sass, cuobjdump
 * -elf and nvdisasm's section directives (make-fixtures.sh; SOURCES.md).
 * Every instruction's offset and words must be the tools', its control
 * code the one decoded from the tools' hex, the architecture, registers,
 * barriers, kernels, parameters and attribute names those the tools print.
 * The live test does the same for every sample and architecture that
 * Debian's toolkit compiles, when it is installed. */

#include <glib/gstdio.h>
#include <string.h>

#include "ks-sass.h"
#include "ks-sass-cubin.h"

static char *
fixture_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "cubin", name, NULL);
}

static char *
load (const char *path,
      gsize      *len)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

/* Every instruction of every function of l has the offset, the words and
 * the control code of the same instruction in the tool's listing t,
 * decoded from the tool's hex */
static void
assert_same_code (const KsSassListing *l,
                  const KsSassListing *t)
{
  guint n = 0;

  g_assert_cmpuint (l->n_functions, ==, t->n_functions);
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      const KsSassFunction *tf = ks_sass_find_function (t, fn->name, NULL);

      g_assert_nonnull (tf);
      g_assert_cmpuint (fn->n_insns, ==, tf->n_insns);
      for (uint32_t i = 0; i < fn->n_insns; i++)
        {
          const KsSassInsn *a = &l->insns[fn->first_insn + i];
          const KsSassInsn *b = &t->insns[tf->first_insn + i];
          KsSassControl want = { 0 };

          g_assert_cmphex (a->offset, ==, b->offset);
          g_assert_true (b->flags & KS_SASS_HAS_WORD0);
          g_assert_cmphex (a->words[0], ==, b->words[0]);
          if (b->flags & KS_SASS_HAS_WORD1)
            {
              g_assert_cmphex (a->words[1], ==, b->words[1]);
              /* decoded here from the tool's own hex word */
              ks_sass_decode_control_volta (b->words[1], &want);
            }
          else
            want = b->control;
          g_assert_true (a->flags & KS_SASS_HAS_CONTROL);
          g_assert_cmpmem (&a->control, sizeof a->control, &want, sizeof want);
          n++;
        }
    }
  g_assert_cmpuint (n, ==, l->n_insns);
}

/* The values of "KEY : 0xN" in a cuobjdump -elf line */
static guint64
field (const char *line,
       const char *key)
{
  const char *p = strstr (line, key);

  g_assert_nonnull (p);
  p = strstr (p, "0x");
  g_assert_nonnull (p);
  return g_ascii_strtoull (p, NULL, 16);
}

/* What cuobjdump -elf says about function name: its .nv.info section's
 * KPARAM_INFO records (ordinal, offset, size), the PARAM_CBANK offset and
 * size, and the order of every attribute name in the file */
typedef struct
{
  guint n_params;
  guint64 ordinal[64], offset[64], size[64];
  guint64 cbank_offset, cbank_size;
  gboolean have_cbank;
} ElfParams;

static void
elf_params (const char *elf_text,
            const char *name,
            ElfParams  *out)
{
  g_autofree char *head = g_strdup_printf ("\n.nv.info.%s\n", name);
  const char *p = strstr (elf_text, head), *end;
  g_auto(GStrv) lines = NULL;
  g_autofree char *block = NULL;

  memset (out, 0, sizeof *out);
  g_assert_nonnull (p);
  p += strlen (head);
  end = strstr (p, "\n\n");
  block = end ? g_strndup (p, (gsize) (end - p)) : g_strdup (p);
  lines = g_strsplit (block, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], "EIATTR_KPARAM_INFO") != NULL)
        {
          const char *v = lines[i + 2];

          g_assert_nonnull (v);
          g_assert_cmpuint (out->n_params, <, 64);
          out->ordinal[out->n_params] = field (v, "Ordinal");
          out->offset[out->n_params] = field (v, "Offset");
          out->size[out->n_params] = field (v, "Size");
          out->n_params++;
        }
      else if (strstr (lines[i], "EIATTR_PARAM_CBANK") != NULL)
        {
          /* "Value:	0x3 0x180160": the bank's symbol, then size << 16 | offset */
          const char *v = strstr (lines[i + 2], "0x");
          guint64 packed;

          v = strstr (v + 2, "0x");
          packed = g_ascii_strtoull (v, NULL, 16);
          out->cbank_offset = packed & 0xffff;
          out->cbank_size = packed >> 16;
          out->have_cbank = TRUE;
        }
    }
}

/* The parameters checked against cuobjdump -elf, and every c[0x0][X]
 * operand nvdisasm prints inside the parameter block against them: it
 * falls inside one parameter */
static void
assert_params (const KsSassListing *l,
               const KsSassListing *named,
               const char          *elf_text)
{
  const KsSassCubin *c = l->cubin;

  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsCubinFunction *cf = &c->functions[f];
      const KsSassFunction *fn = &l->functions[f];
      ElfParams want;
      guint inside = 0;

      elf_params (elf_text, fn->name, &want);
      g_assert_cmpuint (cf->n_params, ==, want.n_params);
      g_assert_true (want.have_cbank);
      g_assert_cmpuint (cf->param_cbank_offset, ==, want.cbank_offset);
      g_assert_cmpuint (cf->param_bytes, ==, want.cbank_size);
      for (guint k = 0; k < want.n_params; k++)
        {
          const KsCubinParam *p = &c->params[cf->first_param + want.ordinal[k]];

          g_assert_cmpuint (p->index, ==, want.ordinal[k]);
          g_assert_cmpuint (p->offset, ==, want.offset[k]);
          g_assert_cmpuint (p->size, ==, want.size[k]);
          g_assert_cmpuint (p->cbank_offset, ==, want.cbank_offset + want.offset[k]);
        }

      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        for (uint32_t o = 0; o < named->insns[i].n_operands; o++)
          {
            const char *op = named->operands[named->insns[i].first_operand + o];
            const char *at = strstr (op, "c[0x0][0x");
            guint64 x;
            gboolean found = FALSE;

            if (at == NULL || strchr (at + 9, '+') != NULL)
              continue;
            x = g_ascii_strtoull (at + 9, NULL, 16);
            if (x < cf->param_cbank_offset || x >= cf->param_cbank_offset + cf->param_bytes)
              continue;
            for (uint32_t k = 0; k < cf->n_params && !found; k++)
              {
                const KsCubinParam *p = &c->params[cf->first_param + k];

                found = x >= p->cbank_offset && x < p->cbank_offset + p->size;
              }
            if (!found)
              g_error ("%s: %s at 0x%" G_GINT64_MODIFIER "x reads c[0x0][0x%" G_GINT64_MODIFIER
                       "x], in no parameter", fn->name, named->insns[i].opcode,
                       named->insns[i].offset, x);
            inside++;
          }
      /* every sample kernel reads a parameter */
      g_assert_cmpuint (inside, >, 0);
    }
}

/* The attribute names, in file order, are cuobjdump -elf's */
static void
assert_attr_names (const KsSassCubin *c,
                   const char        *elf_text)
{
  g_autoptr(GRegex) re = g_regex_new ("Attribute:\\s+(\\S+)", 0, 0, NULL);
  g_autoptr(GMatchInfo) mi = NULL;
  guint n = 0;

  for (g_regex_match (re, elf_text, 0, &mi); g_match_info_matches (mi); g_match_info_next (mi, NULL))
    {
      g_autofree char *name = g_match_info_fetch (mi, 1);

      g_assert_cmpuint (n, <, c->n_attrs);
      g_assert_cmpstr (ks_cubin_attr_name (c->attrs[n].id), ==, name);
      n++;
    }
  g_assert_cmpuint (n, ==, c->n_attrs);
  g_assert_cmpuint (n, >, 0);
}

/* Registers as cuobjdump -elf's EIATTR_REGCOUNT and nvdisasm's
 * SHI_REGISTERS (which it prints only up to sm_89) give them; barriers and
 * kernels as nvdisasm's directives give them */
static void
assert_sections (const KsSassListing *l,
                 const char          *directives,
                 const char          *elf_text)
{
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsCubinFunction *cf = &l->cubin->functions[f];
      const char *name = l->functions[f].name;
      g_autofree char *sec = g_strdup_printf ("\t.section\t.text.%s,", name);
      g_autofree char *other = g_strdup_printf ("%s,@\"STO_CUDA_ENTRY", name);
      const char *p = strstr (directives, sec), *next, *v;
      g_autofree char *count = g_strdup_printf ("function: %s(", name);
      const char *rc = strstr (elf_text, count);
      guint64 regs = 0, barriers = 0;

      g_assert_nonnull (rc);
      rc = strstr (rc, "register count: ");
      g_assert_nonnull (rc);
      g_assert_cmpuint (cf->registers, ==, g_ascii_strtoull (rc + strlen ("register count: "), NULL, 10));
      g_assert_nonnull (p);
      next = strstr (p + 1, "\t.section\t");
      v = strstr (p, "SHI_REGISTERS=");
      if (v != NULL && (next == NULL || v < next))
        regs = g_ascii_strtoull (v + strlen ("SHI_REGISTERS="), NULL, 10);
      else
        regs = cf->registers;
      v = strstr (p, "SHF_BARRIERS=");
      if (v != NULL && (next == NULL || v < next))
        barriers = g_ascii_strtoull (v + strlen ("SHF_BARRIERS="), NULL, 10);
      g_assert_cmpuint (cf->registers, ==, regs);
      g_assert_cmpuint (cf->barriers, ==, barriers);
      g_assert_cmpint (cf->entry, ==, strstr (directives, other) != NULL);
    }
}

/* The header line of cuobjdump -elf: "64bit elf: type=2, abi=7, sm=86,
 * toolkit=118, flags = 0x560556" */
static void
assert_header (const KsSassCubin *c,
               const char        *elf_text)
{
  g_autoptr(GRegex) re = g_regex_new ("abi=(\\d+), sm=(\\d+), toolkit=(\\d+), flags = 0x([0-9a-f]+)",
                                      0, 0, NULL);
  g_autoptr(GMatchInfo) mi = NULL;
  g_autofree char *abi = NULL, *sm = NULL, *toolkit = NULL, *flags = NULL;
  char arch[16];

  g_assert_true (g_regex_match (re, elf_text, 0, &mi));
  abi = g_match_info_fetch (mi, 1);
  sm = g_match_info_fetch (mi, 2);
  toolkit = g_match_info_fetch (mi, 3);
  flags = g_match_info_fetch (mi, 4);
  g_assert_cmpuint (c->abi_version, ==, g_ascii_strtoull (abi, NULL, 10));
  g_assert_cmpuint (c->arch_number, ==, g_ascii_strtoull (sm, NULL, 10));
  g_assert_cmpuint (c->toolkit, ==, g_ascii_strtoull (toolkit, NULL, 10));
  g_assert_cmphex (c->e_flags, ==, g_ascii_strtoull (flags, NULL, 16));
  g_snprintf (arch, sizeof arch, "sm_%s", sm);
  g_assert_cmpstr (c->arch, ==, arch);
}

/* Each instruction's line of the text shows its offset and its words as
 * cuobjdump prints them, and the opcode once named */
static void
assert_text_lines (const KsSassListing *l)
{
  const char *text = ks_sass_cubin_text (l);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_lines = g_strv_length (lines);

  for (uint32_t i = 0; i < l->n_insns; i++)
    {
      const KsSassInsn *in = &l->insns[i];
      char off[32], hex[KS_SASS_HEX_TEXT_SIZE];
      const char *line;

      g_assert_cmpuint (in->line, >=, 1);
      g_assert_cmpuint (in->line, <=, n_lines);
      line = lines[in->line - 1];
      g_snprintf (off, sizeof off, "/*%04" G_GINT64_MODIFIER "x*/", in->offset);
      g_assert_nonnull (strstr (line, off));
      g_assert_nonnull (strstr (line, ks_sass_insn_hex (in, hex)));
      if (in->opcode != NULL)
        g_assert_nonnull (strstr (line, in->opcode));
    }
  /* the pane lays it out without losing or moving a line */
  {
    g_autofree char *shown = ks_sass_display_text (text, -1);
    g_auto(GStrv) shown_lines = g_strsplit (shown, "\n", -1);

    g_assert_cmpuint (g_strv_length (shown_lines), ==, n_lines);
  }
}

/* One fixture: the cubin against all four tool outputs.  In
 * occupancy_shared.sm_90, nvdisasm and cuobjdump 11.8 print the words of
 * one instruction (0x70) without naming it: it stays unnamed. */
static void
test_fixture (gconstpointer data)
{
  const char *base = data;
  g_autofree char *cubin_path = g_strdup_printf ("%s.cubin", base);
  g_autofree char *p = fixture_path (cubin_path);
  g_autofree char *nvd_name = g_strdup_printf ("%s.nvdisasm.s", base);
  g_autofree char *cuo_name = g_strdup_printf ("%s.cuobjdump.sass", base);
  g_autofree char *elf_name = g_strdup_printf ("%s.cuobjdump-elf.txt", base);
  g_autofree char *dir_name = g_strdup_printf ("%s.nvdisasm-sections.txt", base);
  g_autofree char *nvd_path = fixture_path (nvd_name), *cuo_path = fixture_path (cuo_name);
  g_autofree char *elf_path = fixture_path (elf_name), *dir_path = fixture_path (dir_name);
  gsize len, nvd_len, cuo_len, elf_len, dir_len;
  g_autofree char *data_bytes = load (p, &len);
  g_autofree char *nvd = load (nvd_path, &nvd_len), *cuo = load (cuo_path, &cuo_len);
  g_autofree char *elf = load (elf_path, &elf_len), *dirs = load (dir_path, &dir_len);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = NULL, tn = NULL, tc = NULL;

  g_assert_true (ks_sass_is_elf ((const guint8 *) data_bytes, len));
  l = ks_sass_cubin_read ((const guint8 *) data_bytes, len, cubin_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (l->format, ==, KS_SASS_FORMAT_CUBIN);
  tn = ks_sass_parse (nvd, nvd_len, nvd_name, &error);
  g_assert_no_error (error);
  tc = ks_sass_parse (cuo, cuo_len, cuo_name, &error);
  g_assert_no_error (error);

  /* no disassembler yet: words and control codes, no names */
  for (uint32_t i = 0; i < l->n_insns; i++)
    {
      g_assert_null (l->insns[i].opcode);
      g_assert_cmpstr (l->insns[i].modifiers, ==, "");
    }
  assert_same_code (l, tn);
  assert_same_code (l, tc);
  assert_header (l->cubin, elf);
  assert_attr_names (l->cubin, elf);
  assert_sections (l, dirs, elf);
  g_assert_cmpstr (l->functions[0].arch, ==, tn->functions[0].arch);
  assert_text_lines (l);

  /* nvdisasm's names, matched by offset and words */
  g_assert_true (ks_sass_cubin_add_disassembly (l, tn, "nvdisasm", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (l->cubin->disassembler, ==, "nvdisasm");
  for (uint32_t i = 0; i < l->n_insns; i++)
    {
      g_assert_cmpstr (l->insns[i].opcode, ==, tn->insns[i].opcode);
      g_assert_cmpstr (l->insns[i].modifiers, ==, tn->insns[i].modifiers);
      g_assert_cmpuint (l->insns[i].n_operands, ==, tn->insns[i].n_operands);
      g_assert_cmpuint (l->insns[i].pipe, ==, tn->insns[i].pipe);
    }
  g_assert_cmpuint (l->n_labels, ==, tn->n_labels);
  assert_same_code (l, tn);
  assert_params (l, l, elf);
  assert_text_lines (l);
}

/* The sample's shared memory and barrier: transpose_tiled's 32x32 floats
 * tile, as cuobjdump -elf's section table sizes .nv.shared, and its one
 * __syncthreads */
static void
test_shared (void)
{
  g_autofree char *p = fixture_path ("transpose_tiled.sm_86.cubin");
  g_autofree char *e = fixture_path ("transpose_tiled.sm_86.cuobjdump-elf.txt");
  gsize len, elen;
  g_autofree char *data = load (p, &len);
  g_autofree char *elf = load (e, &elen);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_cubin_read ((const guint8 *) data, len, "t", &error);
  g_autoptr(GRegex) re = g_regex_new ("NOBITS\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\.nv\\.shared\\.(\\S+)", 0, 0, NULL);
  g_autoptr(GRegex) size_re = NULL;
  g_autoptr(GMatchInfo) mi = NULL;

  g_assert_no_error (error);
  g_assert_true (g_regex_match (re, elf, 0, &mi));
  {
    /* the section table's Size column for that row */
    g_autofree char *row_name = g_match_info_fetch (mi, 1);
    g_autofree char *pat = g_strdup_printf ("\\s+\\S+\\s+\\S+\\s+([0-9a-f]+)\\s+\\S+\\s+\\S+\\s+NOBITS"
                                            "\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\.nv\\.shared\\.%s", row_name);
    g_autoptr(GMatchInfo) smi = NULL;
    g_autofree char *size = NULL;

    size_re = g_regex_new (pat, 0, 0, NULL);
    g_assert_true (g_regex_match (size_re, elf, 0, &smi));
    size = g_match_info_fetch (smi, 1);
    g_assert_cmpstr (l->functions[0].name, ==, row_name);
    g_assert_cmpuint (l->cubin->functions[0].shared_bytes, ==, g_ascii_strtoull (size, NULL, 16));
    g_assert_cmpuint (l->cubin->functions[0].shared_bytes, ==, 32 * 32 * 4);
  }
  g_assert_cmpuint (l->cubin->functions[0].barriers, ==, 1);
}

/* CUDA 13's ptxas: ELF ABI 8, the SM number in e_flags bits 8-15; the
 * architecture is the -arch it was made with, and the code has the layout
 * and the words of an instruction set that nvdisasm 11.8 cannot read */
static void
test_cuda13 (void)
{
  static const struct { const char *file, *arch; guint param_base; } cases[] = {
    { "vector_add.cuda13.sm_90.cubin", "sm_90", 0x210 },
    { "vector_add.cuda13.sm_120.cubin", "sm_120", 0x380 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *p = fixture_path (cases[i].file);
      gsize len;
      g_autofree char *data = load (p, &len);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSassListing) l = ks_sass_cubin_read ((const guint8 *) data, len, cases[i].file, &error);
      const KsCubinFunction *cf;

      g_assert_no_error (error);
      g_assert_cmpuint (l->cubin->abi_version, ==, 8);
      g_assert_cmpstr (l->cubin->arch, ==, cases[i].arch);
      g_assert_cmpstr (l->functions[0].arch, ==, cases[i].arch);
      g_assert_cmpuint (l->cubin->toolkit, ==, 0);
      g_assert_cmpstr (l->functions[0].name, ==, "_Z10vector_addPKfS0_Pfi");
      cf = &l->cubin->functions[0];
      g_assert_true (cf->entry);
      /* (const float *a, const float *b, float *c, int n) */
      g_assert_cmpuint (cf->n_params, ==, 4);
      g_assert_cmpuint (l->cubin->params[cf->first_param + 3].offset, ==, 24);
      g_assert_cmpuint (l->cubin->params[cf->first_param + 3].size, ==, 4);
      g_assert_cmpuint (cf->param_bytes, ==, 28);
      /* sm_90 puts the parameters at c[0x0][0x210] (the 11.8 listing of
       * the same kernel reads them there); Blackwell at 0x380 */
      g_assert_cmpuint (cf->param_cbank_offset, ==, cases[i].param_base);
      g_assert_cmpuint (l->functions[0].n_insns, >, 8);
      for (uint32_t k = 0; k < l->n_insns; k++)
        g_assert_true (l->insns[k].flags & KS_SASS_HAS_CONTROL);
    }
}

/* The fixtures of tests/fixtures/sass: 04 is the cubin of 01's listing
 * (cuobjdump, CUDA 12.8) and 09's control codes are those CuAssembler
 * printed (08) */
static void
test_shared_fixtures (void)
{
  g_autofree char *c4 = g_test_build_filename (G_TEST_DIST, "fixtures", "sass",
                                               "04_gpumode_kernel_1.sm_86.cubin", NULL);
  g_autofree char *s1 = g_test_build_filename (G_TEST_DIST, "fixtures", "sass",
                                               "01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", NULL);
  g_autofree char *c9 = g_test_build_filename (G_TEST_DIST, "fixtures", "sass",
                                               "09_ykt_smem_latency_ld.sm_86.cubin", NULL);
  g_autofree char *a8 = g_test_build_filename (G_TEST_DIST, "fixtures", "sass",
                                               "08_ykt_smem_latency_ld.sm_86.cuasm", NULL);
  gsize len, slen, alen;
  g_autofree char *cubin = load (c4, &len);
  g_autofree char *listing = load (s1, &slen);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_cubin_read ((const guint8 *) cubin, len, "04", &error);
  g_autoptr(KsSassListing) t = NULL;

  g_assert_no_error (error);
  t = ks_sass_parse (listing, slen, "01", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (l->cubin->arch, ==, "sm_86");
  assert_same_code (l, t);
  g_assert_true (ks_sass_cubin_add_disassembly (l, t, "cuobjdump", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (l->insns[0].opcode, ==, t->insns[0].opcode);

  {
    g_autofree char *cubin9 = load (c9, &len);
    g_autofree char *cuasm = load (a8, &alen);
    g_autoptr(KsSassListing) l9 = ks_sass_cubin_read ((const guint8 *) cubin9, len, "09", &error);
    g_autoptr(GRegex) re = g_regex_new ("\\[(B[0-5-]{6}:R[0-5-]:W[0-5-]:[Y-]:S[0-9]{2})\\]\\s+/\\*([0-9a-f]{4})\\*/",
                                        0, 0, NULL);
    g_autoptr(GMatchInfo) mi = NULL;
    const KsSassFunction *fn;
    guint n = 0;

    g_assert_no_error (error);
    fn = ks_sass_find_function (l9, "_Z27smem_ld_latency_test_kernelPjS_S_", NULL);
    g_assert_nonnull (fn);
    for (g_regex_match (re, cuasm, 0, &mi); g_match_info_matches (mi); g_match_info_next (mi, NULL))
      {
        g_autofree char *want = g_match_info_fetch (mi, 1);
        g_autofree char *off = g_match_info_fetch (mi, 2);
        guint64 offset = g_ascii_strtoull (off, NULL, 16);
        char got[KS_SASS_CONTROL_TEXT_SIZE];

        g_assert_cmpuint (offset / 16, <, fn->n_insns);
        ks_sass_control_to_string (&l9->insns[fn->first_insn + offset / 16].control, got);
        g_assert_cmpstr (got, ==, want);
        n++;
      }
    g_assert_cmpuint (n, ==, 80);
  }
}

static void
put32 (guint8  *p,
       uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static void
expect_error (const guint8 *data,
              gsize         len,
              const char   *substring)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_cubin_read (data, len, "bad.cubin", &error);

  g_assert_null (l);
  g_assert_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF);
  if (strstr (error->message, substring) == NULL)
    g_error ("“%s” does not say “%s”", error->message, substring);
  g_assert_true (g_str_has_prefix (error->message, "bad.cubin: error: "));
}

/* Bad input: a clear message, never a crash or a plausible listing */
static void
test_errors (void)
{
  g_autofree char *p = fixture_path ("transpose_tiled.sm_86.cubin");
  gsize len;
  g_autofree char *orig = load (p, &len);
  g_autofree guint8 *d = g_memdup2 (orig, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) ok = ks_sass_cubin_read ((const guint8 *) orig, len, "t", &error);
  const KsCubinSection *text = NULL, *info = NULL;

  g_assert_no_error (error);
  for (uint32_t i = 0; i < ok->cubin->n_sections; i++)
    {
      if (g_str_has_prefix (ok->cubin->sections[i].name, ".text."))
        text = &ok->cubin->sections[i];
      if (g_str_has_prefix (ok->cubin->sections[i].name, ".nv.info."))
        info = &ok->cubin->sections[i];
    }
  g_assert_nonnull (text);
  g_assert_nonnull (info);

  expect_error ((const guint8 *) "hello", 5, "not an ELF");
  expect_error ((const guint8 *) "\177ELF", 4, "cut short");

  /* the machine: an x86-64 ELF */
  d[18] = 62;
  d[19] = 0;
  expect_error (d, len, "machine 62");
  memcpy (d, orig, len);

  /* an ABI version after CUDA 13's */
  d[8] = 9;
  expect_error (d, len, "ABI version 9");
  memcpy (d, orig, len);

  /* Kepler's sm_35, and a number between Pascal and Volta */
  d[48] = 35;
  expect_error (d, len, "sm_35");
  d[48] = 65;
  expect_error (d, len, "sm_65");
  memcpy (d, orig, len);

  /* the section table beyond the end */
  put32 (d + 0x28, (uint32_t) len);
  expect_error (d, len, "section header table");
  memcpy (d, orig, len);

  /* a .nv.info record of an unknown format: its length is unknown */
  d[info->offset] = 7;
  expect_error (d, len, "format 7");
  memcpy (d, orig, len);

  /* an SVAL that runs past its section */
  d[info->offset + 2] = 0xff;
  d[info->offset + 3] = 0x7f;
  expect_error (d, len, "runs past the section's end");
  memcpy (d, orig, len);

  /* A .text section whose size is not a whole number of instructions:
   * its section header's sh_size, found by its offset */
  for (uint32_t i = 0; i < ok->cubin->n_sections; i++)
    if (&ok->cubin->sections[i] == text)
      {
        guint64 shoff = 0;

        for (int b = 0; b < 8; b++)
          shoff |= (guint64) d[0x28 + b] << (8 * b);
        put32 (d + shoff + 64 * i + 32, (uint32_t) text->size - 8);
        expect_error (d, len, "not a multiple of 16");
      }
  memcpy (d, orig, len);

  /* every cut: an error or a listing, never a read past the cut (ASan) */
  for (gsize cut = 0; cut < len; cut += 7)
    {
      g_autoptr(GError) e = NULL;
      g_autofree guint8 *part = g_memdup2 (orig, cut);
      g_autoptr(KsSassListing) l = ks_sass_cubin_read (part, cut, "cut", &e);

      g_assert_true ((l == NULL) != (e == NULL));
    }

  /* a disassembler's listing whose word differs changes nothing */
  {
    g_autofree char *np = fixture_path ("transpose_tiled.sm_86.nvdisasm.s");
    gsize nlen;
    g_autofree char *nv = load (np, &nlen);
    char *w = strstr (nv, "/* 0x000fc40000000f00 */");
    g_autoptr(KsSassListing) t = NULL;

    g_assert_nonnull (w);
    w[8] = '1';
    t = ks_sass_parse (nv, nlen, "n", &error);
    g_assert_no_error (error);
    g_assert_false (ks_sass_cubin_add_disassembly (ok, t, "nvdisasm", &error));
    g_assert_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF);
    g_assert_nonnull (strstr (error->message, "at 0x0000"));
    g_assert_null (ok->insns[0].opcode);
  }
}

/* ks_sass_elf_text_section, kept for its callers, on the new reader */
static void
test_text_section (void)
{
  g_autofree char *p = fixture_path ("vector_add.sm_70.cubin");
  gsize len;
  g_autofree char *data = load (p, &len);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_cubin_read ((const guint8 *) data, len, "v", &error);
  const guint8 *text;
  gsize text_len;

  g_assert_no_error (error);
  g_assert_true (ks_sass_elf_text_section ((const guint8 *) data, len, l->functions[0].name, &text,
                                           &text_len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (text_len, ==, 16 * l->functions[0].n_insns);
}

/* Every sample for every architecture Debian's CUDA 11.8 compiles, against
 * its nvdisasm */
static gboolean
run (const char *const *argv,
     const char        *dir,
     char             **out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = 0;
  /* Debian's nvcc finds ptxas on PATH: its own first */
  g_autofree char *path = g_strconcat ("/usr/bin:", g_getenv ("PATH"), NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "PATH", path, TRUE);

  if (!g_spawn_sync (dir, (char **) argv, env, 0, NULL, NULL, out, &err, &status, &error))
    g_error ("%s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("%s failed: %s", argv[0], err);
      return FALSE;
    }
  return TRUE;
}

static void
test_live (void)
{
  static const char *const archs[] = { "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90" };
  g_autofree char *samples = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr(GError) error = NULL;
  const char *entry;
  guint n_cubins = 0, n_insns = 0;

  if (!g_file_test ("/usr/bin/nvdisasm", G_FILE_TEST_IS_EXECUTABLE)
      || !g_file_test ("/usr/lib/nvidia-cuda-toolkit/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("needs Debian's nvidia-cuda-toolkit (/usr/bin/nvdisasm and its nvcc)");
      return;
    }
  tmp = g_dir_make_tmp ("kernelscope-cubin-XXXXXX", &error);
  g_assert_no_error (error);
  dir = g_dir_open (samples, 0, &error);
  g_assert_no_error (error);
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sdir = g_build_filename (samples, entry, NULL);
      g_autoptr(GDir) sd = g_dir_open (sdir, 0, NULL);
      const char *f;

      while (sd != NULL && (f = g_dir_read_name (sd)) != NULL)
        {
          g_autofree char *cu = NULL;

          if (!g_str_has_suffix (f, ".cu"))
            continue;
          cu = g_build_filename (sdir, f, NULL);
          for (guint a = 0; a < G_N_ELEMENTS (archs); a++)
            {
              g_autofree char *arch_opt = g_strconcat ("-arch=", archs[a], NULL);
              g_autofree char *out = g_strdup_printf ("%s/%s.%s.cubin", tmp, f, archs[a]);
              const char *nvcc[] = { "/usr/bin/nvcc", "-ccbin", "clang-14", "-cubin", "-lineinfo",
                                     arch_opt, "-o", out, cu, NULL };
              const char *nvd[] = { "/usr/bin/nvdisasm", "-c", "-hex", out, NULL };
              g_autofree char *listing = NULL, *bytes = NULL;
              g_autoptr(KsSassListing) l = NULL, t = NULL;
              gsize len;

              if (!run (nvcc, sdir, NULL))
                g_error ("nvcc %s %s failed", archs[a], cu);
              g_test_message ("%s %s", f, archs[a]);
              g_assert_true (run (nvd, tmp, &listing));
              g_file_get_contents (out, &bytes, &len, &error);
              g_assert_no_error (error);
              l = ks_sass_cubin_read ((const guint8 *) bytes, len, out, &error);
              g_assert_no_error (error);
              t = ks_sass_parse (listing, strlen (listing), "nvdisasm", &error);
              g_assert_no_error (error);
              g_assert_cmpstr (l->cubin->arch, ==, archs[a]);
              assert_same_code (l, t);
              g_assert_true (ks_sass_cubin_add_disassembly (l, t, "nvdisasm", &error));
              g_assert_no_error (error);
              /* the parameters nvdisasm's operands read lie in .nv.info's */
              for (uint32_t fn = 0; fn < l->n_functions; fn++)
                {
                  const KsCubinFunction *cf = &l->cubin->functions[fn];

                  for (uint32_t i = l->functions[fn].first_insn;
                       i < l->functions[fn].first_insn + l->functions[fn].n_insns; i++)
                    for (uint32_t o = 0; o < l->insns[i].n_operands; o++)
                      {
                        const char *at = strstr (l->operands[l->insns[i].first_operand + o], "c[0x0][0x");
                        guint64 x;
                        gboolean found = FALSE;

                        if (at == NULL || !cf->entry || cf->param_cbank_offset == KS_SASS_NONE)
                          continue;
                        x = g_ascii_strtoull (at + 9, NULL, 16);
                        if (x < cf->param_cbank_offset || x >= cf->param_cbank_offset + cf->param_bytes)
                          continue;
                        for (uint32_t k = 0; k < cf->n_params && !found; k++)
                          {
                            const KsCubinParam *p = &l->cubin->params[cf->first_param + k];

                            found = x >= p->cbank_offset && x < p->cbank_offset + p->size;
                          }
                        g_assert_true (found);
                      }
                }
              n_cubins++;
              n_insns += l->n_insns;
              g_unlink (out);
            }
        }
    }
  g_rmdir (tmp);
  g_test_message ("%u cubins, %u instructions, all as nvdisasm read them", n_cubins, n_insns);
  g_assert_cmpuint (n_cubins, >=, 6 * 20);
}

int
main (int    argc,
      char **argv)
{
  static const char *const fixtures[] = {
    "vector_add.sm_61", "vector_add.sm_70", "vector_add.sm_90", "transpose_tiled.sm_75",
    "transpose_tiled.sm_86", "matmul_tiled.sm_80", "matmul_tiled.sm_89",
    "occupancy_shared.sm_90",
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = g_strdup_printf ("/sass/cubin/fixture/%s", fixtures[i]);

      g_test_add_data_func (path, fixtures[i], test_fixture);
    }
  g_test_add_func ("/sass/cubin/shared-and-barriers", test_shared);
  g_test_add_func ("/sass/cubin/cuda13", test_cuda13);
  g_test_add_func ("/sass/cubin/shared-fixtures", test_shared_fixtures);
  g_test_add_func ("/sass/cubin/errors", test_errors);
  g_test_add_func ("/sass/cubin/text-section", test_text_section);
  g_test_add_func ("/sass/cubin/live", test_live);
  return g_test_run ();
}
