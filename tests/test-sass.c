/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SASS listing reader against real cuobjdump / nvdisasm output
 * (tests/fixtures/sass, see SOURCES.md there).  Expected values come from
 * the listings themselves (counted by the simple scan below, or read off a
 * line), from the matching cubins' bytes, from CuAssembler's independently
 * decoded control-code text, and from c++filt. */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "ks-resources.h"
#include "ks-sass.h"
#include "ks-sass-json.h"
#include "ks-timing.h"

gboolean _ks_sass_opcodes_sorted (void);

static char *
fixture_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "sass", name, NULL);
}

static char *
load (const char *name,
      gsize      *len)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

static KsSassListing *
parse_fixture (const char *name)
{
  gsize len;
  g_autofree char *text = load (name, &len);
  g_autoptr(GError) error = NULL;
  KsSassListing *l = ks_sass_parse (text, len, name, &error);

  g_assert_no_error (error);
  g_assert_nonnull (l);
  return l;
}

static const KsSassInsn *
insn_at (const KsSassListing  *l,
         const KsSassFunction *f,
         uint32_t              offset)
{
  for (uint32_t i = f->first_insn; i < f->first_insn + f->n_insns; i++)
    if (l->insns[i].offset == offset)
      return &l->insns[i];
  g_assert_not_reached ();
  return NULL;
}

static const char *
operand (const KsSassListing *l,
         const KsSassInsn    *in,
         uint32_t             k)
{
  g_assert_cmpuint (k, <, in->n_operands);
  return l->operands[in->first_operand + k];
}

/* Instructions per function, counted by hand from the listings (one
 * line with an offset and an opcode; cuobjdump names the functions, nvdisasm
 * its .text.NAME sections).  01 is documented as 96 instructions. */
static void
test_counts (void)
{
  static const struct
  {
    const char *file;
    const char *function;
    const char *arch;
    uint32_t n;
  } cases[] = {
    { "01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", "_Z11sgemm_naiveiiifPfPKffS_", "sm_86", 96 },
    { "05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass", "_Z5otherPf", "sm_75", 5 },
    { "05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass", "_Z6kernelIiEvPT_PKS0_i", "sm_75", 6 },
    { "05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass", "_Z5otherPf", "sm_90", 3 },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass",
      "_Z11Mandelbrot1IdEvP6uchar4iiiT_S2_S2_S2_S2_S0_iiiib", "sm_75", 480 },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass",
      "_Z11Mandelbrot1IfEvP6uchar4iiiT_S2_S2_S2_S2_S0_iiiib", "sm_75", 472 },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass",
      "_Z11Mandelbrot0IdEvP6uchar4iiiT_S2_S2_S2_S2_S0_iiiib", "sm_75", 392 },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass",
      "_Z11Mandelbrot0IfEvP6uchar4iiiT_S2_S2_S2_S2_S0_iiiib", "sm_75", 384 },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass", "_Z13MandelbrotDS1P6uchar4iiifffffffS_iiiib", "sm_75", 464 },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass", "_Z13MandelbrotDS0P6uchar4iiifffffffS_iiiib", "sm_75", 656 },
    { "10_celeritas_min.sm_70.nvdisasm_lineinfo.s", "_Z5myminIdERKT_S2_S2_", "sm_70", 48 },
    { "10_celeritas_min.sm_70.nvdisasm_lineinfo.s", "_Z8call_minPdPKd", "sm_70", 72 },
    { "14_librecuda_write_float.sm_80.nvdisasm.asm", "write_float", "sm_80", 24 },
    { "15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm", "_Z3p10Pdi", "sm_52", 36 },
    /* 16-18: the last offset of each function over 16, plus one */
    { "16_kernel_agent_kernels.sm_89.cuobjdump.sass", "ka_mma_e4m3", "sm_89", 32 },
    { "16_kernel_agent_kernels.sm_89.cuobjdump.sass", "ka_mma_bf16", "sm_89", 32 },
    { "16_kernel_agent_kernels.sm_89.cuobjdump.sass", "ka_half2", "sm_89", 32 },
    { "16_kernel_agent_kernels.sm_89.cuobjdump.sass", "ka_ldst", "sm_89", 56 },
    { "17_kernel_agent_kernels.sm_100a.cuobjdump.sass", "ka_tcgen05", "sm_100a", 160 },
    { "17_kernel_agent_kernels.sm_100a.cuobjdump.sass", "ka_tma", "sm_100a", 80 },
    { "17_kernel_agent_kernels.sm_100a.cuobjdump.sass", "ka_mma_e4m3", "sm_100a", 48 },
    { "18_kernel_agent_kernels.sm_120a.cuobjdump.sass", "ka_mma_block_scaled", "sm_120a", 40 },
    { "18_kernel_agent_kernels.sm_120a.cuobjdump.sass", "ka_stmatrix", "sm_120a", 32 },
    { "18_kernel_agent_kernels.sm_120a.cuobjdump.sass", "ka_tma", "sm_120a", 128 },
  };
  static const struct
  {
    const char *file;
    uint32_t n_functions;
    KsSassFormat format;
  } files[] = {
    { "01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", 1, KS_SASS_FORMAT_CUOBJDUMP },
    { "05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass", 3, KS_SASS_FORMAT_CUOBJDUMP },
    { "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass", 6, KS_SASS_FORMAT_CUOBJDUMP },
    { "10_celeritas_min.sm_70.nvdisasm_lineinfo.s", 2, KS_SASS_FORMAT_NVDISASM },
    { "14_librecuda_write_float.sm_80.nvdisasm.asm", 1, KS_SASS_FORMAT_NVDISASM },
    { "15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm", 1, KS_SASS_FORMAT_NVDISASM },
    { "16_kernel_agent_kernels.sm_89.cuobjdump.sass", 4, KS_SASS_FORMAT_CUOBJDUMP },
    { "17_kernel_agent_kernels.sm_100a.cuobjdump.sass", 3, KS_SASS_FORMAT_CUOBJDUMP },
    { "18_kernel_agent_kernels.sm_120a.cuobjdump.sass", 3, KS_SASS_FORMAT_CUOBJDUMP },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(KsSassListing) l = parse_fixture (files[i].file);

      g_assert_cmpuint (l->n_functions, ==, files[i].n_functions);
      g_assert_cmpint (l->format, ==, files[i].format);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(KsSassListing) l = parse_fixture (cases[i].file);
      const KsSassFunction *f = ks_sass_find_function (l, cases[i].function, cases[i].arch);

      g_assert_nonnull (f);
      g_assert_cmpuint (f->n_insns, ==, cases[i].n);
      /* Offsets are those of the listing: 16 bytes apart on Volta+, 8 on
       * Maxwell with every fourth slot the control word */
      for (uint32_t k = 1; k < f->n_insns; k++)
        g_assert_cmpuint (l->insns[f->first_insn + k].offset, >, l->insns[f->first_insn + k - 1].offset);
    }
}

static void
test_operands (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("01_gpumode_sgemm_naive.sm_86.cuobjdump.sass");
  g_autoptr(KsSassListing) m = parse_fixture ("15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm");
  g_autoptr(KsSassListing) n = parse_fixture ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s");
  const KsSassFunction *f = &l->functions[0];
  const KsSassInsn *in;

  /* 0x0060: "ISETP.GE.U32.AND P0, PT, R0, c[0x0][0x164], PT ;" */
  in = insn_at (l, f, 0x60);
  g_assert_cmpstr (in->opcode, ==, "ISETP");
  g_assert_cmpstr (in->modifiers, ==, ".GE.U32.AND");
  g_assert_null (in->predicate);
  g_assert_cmpuint (in->n_operands, ==, 5);
  g_assert_cmpstr (operand (l, in, 0), ==, "P0");
  g_assert_cmpstr (operand (l, in, 3), ==, "c[0x0][0x164]");
  g_assert_cmpstr (operand (l, in, 4), ==, "PT");
  g_assert_cmpuint (in->line, ==, 33);

  /* 0x00e0: "@!P0 BRA 0x4f0 ;" */
  in = insn_at (l, f, 0xe0);
  g_assert_cmpstr (in->predicate, ==, "@!P0");
  g_assert_cmpstr (in->opcode, ==, "BRA");
  g_assert_cmpuint (in->n_operands, ==, 1);
  g_assert_cmpstr (operand (l, in, 0), ==, "0x4f0");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_CTRL);

  /* 0x0090: "@P0 EXIT ;": no operands */
  in = insn_at (l, f, 0x90);
  g_assert_cmpstr (in->predicate, ==, "@P0");
  g_assert_cmpuint (in->n_operands, ==, 0);

  /* 0x00f0: "IADD3 R2, R16.reuse, -0x1, RZ ;" */
  in = insn_at (l, f, 0xf0);
  g_assert_cmpstr (operand (l, in, 1), ==, "R16.reuse");
  g_assert_cmpstr (operand (l, in, 2), ==, "-0x1");

  /* nvdisasm: "@!PT SHFL.IDX PT, RZ, RZ, RZ, RZ ;" and a label operand */
  f = ks_sass_find_function (n, "_Z5myminIdERKT_S2_S2_", NULL);
  in = insn_at (n, f, 0x0);
  g_assert_cmpstr (in->predicate, ==, "@!PT");
  g_assert_cmpstr (in->opcode, ==, "SHFL");
  g_assert_cmpstr (in->modifiers, ==, ".IDX");
  g_assert_cmpuint (in->n_operands, ==, 5);
  in = insn_at (n, f, 0x170);
  g_assert_cmpstr (operand (n, in, 0), ==, "`(.L_x_2)");
  in = insn_at (n, f, 0x2d0);
  g_assert_cmpstr (in->opcode, ==, "RET");
  g_assert_cmpstr (in->modifiers, ==, ".ABS.NODEC");
  g_assert_cmpstr (operand (n, in, 0), ==, "R20 0x0");

  /* Maxwell: "I2F.F64.S32 R2, c[0x0] [0x148] ;" and dual issue */
  f = &m->functions[0];
  in = insn_at (m, f, 0x10);
  g_assert_cmpstr (in->opcode, ==, "I2F");
  g_assert_cmpstr (in->modifiers, ==, ".F64.S32");
  g_assert_cmpstr (operand (m, in, 1), ==, "c[0x0] [0x148]");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_FP64);
  in = insn_at (m, f, 0x58);
  g_assert_true (in->flags & KS_SASS_DUAL_FIRST);
  g_assert_cmphex (in->words[0], ==, G_GUINT64_CONSTANT (0x4c98078005270000));
  in = insn_at (m, f, 0x68);
  g_assert_true (in->flags & KS_SASS_DUAL_SECOND);
  g_assert_cmpstr (in->predicate, ==, "@P0");
  g_assert_cmpstr (operand (m, in, 0), ==, "`(.L_x_0)");
  /* its word stands on the line after it */
  g_assert_cmphex (in->words[0], ==, G_GUINT64_CONSTANT (0xe24000000880000f));
  in = insn_at (m, f, 0x78);
  g_assert_cmpstr (in->opcode, ==, "DSETP");
  g_assert_cmpstr (operand (m, in, 2), ==, "|R2|");
  g_assert_cmpstr (operand (m, in, 3), ==, "+INF");
  g_assert_cmphex (in->words[0], ==, G_GUINT64_CONSTANT (0x368c03fff0070287));
}

/* The example, read off 01: the LDG at 0x0260 (high word
 * 0x000ea4000c1e1900) sets write barrier 2 with stall 2; the FFMA at 0x03a0
 * (0x004fe20000000006) waits on barrier 2 with stall 1. */
static void
test_control_example (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("01_gpumode_sgemm_naive.sm_86.cuobjdump.sass");
  const KsSassInsn *ldg = insn_at (l, &l->functions[0], 0x260);
  const KsSassInsn *ffma = insn_at (l, &l->functions[0], 0x3a0);

  g_assert_cmpstr (ldg->opcode, ==, "LDG");
  g_assert_true (ldg->flags & KS_SASS_HAS_CONTROL);
  g_assert_cmphex (ldg->words[0], ==, G_GUINT64_CONSTANT (0x0000000420207981));
  g_assert_cmphex (ldg->words[1], ==, G_GUINT64_CONSTANT (0x000ea4000c1e1900));
  g_assert_cmpuint (ldg->control.write_barrier, ==, 2);
  g_assert_cmpuint (ldg->control.stall, ==, 2);
  g_assert_cmpuint (ldg->control.read_barrier, ==, KS_SASS_NO_BARRIER);
  g_assert_cmpuint (ldg->pipe, ==, KS_PIPE_MEM);

  g_assert_cmpstr (ffma->opcode, ==, "FFMA");
  g_assert_cmpuint (ffma->control.wait_mask, ==, 1u << 2);
  g_assert_cmpuint (ffma->control.stall, ==, 1);
  g_assert_cmpuint (ffma->control.write_barrier, ==, KS_SASS_NO_BARRIER);
  g_assert_cmpuint (ffma->pipe, ==, KS_PIPE_FP32);
}

/* CuAssembler printed the control codes of the YKTian sm_86 kernel as
 * "[B0-----:R-:W0:-:S04]" beside each instruction (08); decoding the same
 * kernel's bytes from its cubin (09) must give the same text, all 80. */
static void
test_control_cuasm (void)
{
  gsize len, clen;
  g_autofree char *cuasm = load ("08_ykt_smem_latency_ld.sm_86.cuasm", &len);
  g_autofree char *cubin = load ("09_ykt_smem_latency_ld.sm_86.cubin", &clen);
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) re = g_regex_new ("\\[(B[0-5-]{6}:R[0-5-]:W[0-5-]:[Y-]:S[0-9]{2})\\]\\s+/\\*([0-9a-f]{4})\\*/",
                                      0, 0, &error);
  g_autoptr(GMatchInfo) mi = NULL;
  const guint8 *text;
  gsize text_len;
  guint n = 0;

  g_assert_no_error (error);
  g_assert_true (ks_sass_elf_text_section ((const guint8 *) cubin, clen,
                                           "_Z27smem_ld_latency_test_kernelPjS_S_",
                                           &text, &text_len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (text_len % 16, ==, 0);

  for (g_regex_match (re, cuasm, 0, &mi); g_match_info_matches (mi); g_match_info_next (mi, NULL))
    {
      g_autofree char *want = g_match_info_fetch (mi, 1);
      g_autofree char *off = g_match_info_fetch (mi, 2);
      guint64 offset = g_ascii_strtoull (off, NULL, 16);
      uint64_t hi = 0;
      KsSassControl c;
      char got[KS_SASS_CONTROL_TEXT_SIZE];

      g_assert_cmpuint (offset + 16, <=, text_len);
      for (int b = 0; b < 8; b++)
        hi |= (uint64_t) text[offset + 8 + b] << (8 * b);
      ks_sass_decode_control_volta (hi, &c);
      ks_sass_control_to_string (&c, got);
      g_assert_cmpstr (got, ==, want);
      n++;
    }
  g_assert_cmpuint (n, ==, 80);

  /* The reader takes the listing's control codes as they are written:
   * every instruction's are those of its bytes in the cubin (but for the
   * reuse flags, which CuAssembler writes as .reuse on the operands) */
  {
    g_autoptr(KsSassListing) l = ks_sass_parse (cuasm, len, "08.cuasm", &error);

    g_assert_no_error (error);
    g_assert_cmpuint (l->n_insns, ==, 80);
    for (uint32_t i = 0; i < l->n_insns; i++)
      {
        const KsSassInsn *in = &l->insns[i];
        uint64_t hi = 0;
        KsSassControl c;

        g_assert_true (in->flags & KS_SASS_HAS_CONTROL);
        for (int b = 0; b < 8; b++)
          hi |= (uint64_t) text[in->offset + 8 + b] << (8 * b);
        ks_sass_decode_control_volta (hi, &c);
        g_assert_cmpuint (in->control.stall, ==, c.stall);
        g_assert_cmpuint (in->control.yield, ==, c.yield);
        g_assert_cmpuint (in->control.write_barrier, ==, c.write_barrier);
        g_assert_cmpuint (in->control.read_barrier, ==, c.read_barrier);
        g_assert_cmpuint (in->control.wait_mask, ==, c.wait_mask);
      }
  }
}

/* The reuse flags decoded from the high words against the listing's own
 * text: cuobjdump writes ".reuse" after each source operand whose flag is
 * set, flag k for the k-th source (operands after the destinations). */
static void
test_control_reuse (void)
{
  static const char *const files[] = {
    "01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass",
  };
  guint n_reuse = 0, n_placed = 0;

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr(KsSassListing) l = parse_fixture (files[f]);

      for (uint32_t i = 0; i < l->n_insns; i++)
        {
          const KsSassInsn *in = &l->insns[i];
          guint marked = 0, mask = 0, first_source = 1;

          g_assert_true (in->flags & KS_SASS_HAS_CONTROL);
          /* a second destination: a predicate (ISETP P0, PT, ...; IADD3 R2, P0, ...) */
          if (in->n_operands > 1)
            {
              const char *second = operand (l, in, 1);

              if (strcmp (second, "PT") == 0 || (second[0] == 'P' && g_ascii_isdigit (second[1])))
                first_source = 2;
            }
          for (uint32_t k = 0; k < in->n_operands; k++)
            if (g_str_has_suffix (operand (l, in, k), ".reuse"))
              {
                marked++;
                if (k >= first_source)
                  mask |= 1u << (k - first_source);
              }
          g_assert_cmpuint (marked, ==, (guint) __builtin_popcount (in->control.reuse));
          if (marked > 0)
            {
              n_reuse++;
              g_assert_cmphex (mask, ==, in->control.reuse);
              n_placed++;
            }
        }
    }
  /* 11 in 01 and 165 in 06 carry .reuse */
  g_assert_cmpuint (n_reuse, ==, 176);
  g_assert_cmpuint (n_placed, ==, n_reuse);
}

/* Maxwell: the control word 0x003ff400e24007f6 in front of 0x0008 holds
 * 0x007f6 for its first instruction: stall 6, yield bit set (no yield),
 * write and read barrier 7 (none), nothing waited on. */
static void
test_control_maxwell (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm");
  const KsSassFunction *f = &l->functions[0];
  const KsSassInsn *in = insn_at (l, f, 0x8);
  KsSassControl c;

  g_assert_true (in->flags & KS_SASS_HAS_CONTROL);
  g_assert_cmpuint (in->control.stall, ==, 6);
  g_assert_cmpuint (in->control.yield, ==, 0);
  g_assert_cmpuint (in->control.write_barrier, ==, 7);
  g_assert_cmpuint (in->control.read_barrier, ==, 7);
  g_assert_cmpuint (in->control.wait_mask, ==, 0);

  /* The word 0x001fd800fe8007f1 of the listing, its three 21-bit fields
   * worked out by hand: 0x007f1, 0x007f4, 0x007f6 */
  ks_sass_decode_control_maxwell (G_GUINT64_CONSTANT (0x001fd800fe8007f1), 0, &c);
  g_assert_cmpuint (c.stall, ==, 1);
  g_assert_cmpuint (c.write_barrier, ==, 7);
  ks_sass_decode_control_maxwell (G_GUINT64_CONSTANT (0x001fd800fe8007f1), 1, &c);
  /* (w >> 21) & 0x1fffff = 0x007f4 */
  g_assert_cmpuint (c.stall, ==, 4);
  g_assert_cmpuint (c.read_barrier, ==, 7);
  ks_sass_decode_control_maxwell (G_GUINT64_CONSTANT (0x001fd800fe8007f1), 2, &c);
  /* (w >> 42) & 0x1fffff = 0x007f6 */
  g_assert_cmpuint (c.stall, ==, 6);
}

/* A Maxwell listing that does not say its arch (no .headerflags) is still
 * read as one: its first instruction at 0x8 gives the layout away. */
static void
test_maxwell_without_arch (void)
{
  gsize len;
  g_autofree char *text = load ("15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm", &len);
  char *flags = strstr (text, ".headerflags");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = NULL;
  const KsSassInsn *in;

  g_assert_nonnull (flags);
  memcpy (flags, "//", 2);      /* the line becomes a comment */
  l = ks_sass_parse (text, len, "noarch.asm", &error);
  g_assert_no_error (error);
  g_assert_null (l->functions[0].arch);
  in = insn_at (l, &l->functions[0], 0x68);
  g_assert_cmphex (in->words[0], ==, G_GUINT64_CONSTANT (0xe24000000880000f));
  in = insn_at (l, &l->functions[0], 0x8);
  g_assert_true (in->flags & KS_SASS_HAS_CONTROL);
  g_assert_cmpuint (in->control.stall, ==, 6);
}

/* 01 is the listing of 04's cubin: its hex words are the bytes of the
 * cubin's .text section, word for word. */
static void
test_elf_matches_listing (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("01_gpumode_sgemm_naive.sm_86.cuobjdump.sass");
  gsize clen;
  g_autofree char *cubin = load ("04_gpumode_kernel_1.sm_86.cubin", &clen);
  const KsSassFunction *f = &l->functions[0];
  g_autoptr(GError) error = NULL;
  const guint8 *text;
  gsize text_len;

  g_assert_true (ks_sass_elf_text_section ((const guint8 *) cubin, clen, f->name, &text, &text_len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (text_len, ==, 16 * f->n_insns);
  for (uint32_t i = 0; i < f->n_insns; i++)
    {
      const KsSassInsn *in = &l->insns[f->first_insn + i];

      g_assert_cmpuint (in->offset, ==, 16 * i);
      for (int w = 0; w < 2; w++)
        {
          uint64_t v = 0;

          for (int b = 0; b < 8; b++)
            v |= (uint64_t) text[16 * i + 8 * w + b] << (8 * b);
          g_assert_cmphex (v, ==, in->words[w]);
        }
    }

  /* Not ELF, truncated ELF, unknown section: errors, no crash */
  g_assert_false (ks_sass_elf_text_section ((const guint8 *) "hello", 5, f->name, &text, &text_len, &error));
  g_assert_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF);
  g_clear_error (&error);
  for (gsize cut = 0; cut < clen; cut += 97)
    {
      gboolean ok = ks_sass_elf_text_section ((const guint8 *) cubin, cut, f->name, &text, &text_len, &error);

      if (ok)
        g_assert_cmpuint ((gsize) (text - (const guint8 *) cubin) + text_len, <=, cut);
      g_clear_error (&error);
    }
  g_assert_false (ks_sass_elf_text_section ((const guint8 *) cubin, clen, "nope", &text, &text_len, &error));
  g_assert_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF);
}

/* 10's line records: "line 2" before 0x0000 and "line 4" before 0x00d0 of
 * mymin, "line 9" before 0x0120 and "line 10" before 0x03e0 of call_min */
static void
test_lineinfo (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s");
  const KsSassFunction *f = ks_sass_find_function (l, "_Z5myminIdERKT_S2_S2_", "sm_70");
  const KsSassFunction *g = ks_sass_find_function (l, "_Z8call_minPdPKd", "sm_70");
  static const struct { gboolean mymin; uint32_t offset, line; } cases[] = {
    { TRUE, 0x0, 2 }, { TRUE, 0xc0, 2 }, { TRUE, 0xd0, 4 }, { TRUE, 0x2f0, 4 },
    { FALSE, 0x0, 7 }, { FALSE, 0x110, 7 }, { FALSE, 0x120, 9 }, { FALSE, 0x3d0, 9 }, { FALSE, 0x3e0, 10 },
  };
  gboolean found = FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const KsSassFunction *fn = cases[i].mymin ? f : g;
      const KsSassInsn *in = insn_at (l, fn, cases[i].offset);
      const KsSassSource *s = ks_sass_insn_source (l, (uint32_t) (in - l->insns));

      g_assert_nonnull (s);
      g_assert_cmpuint (s->line, ==, cases[i].line);
      g_assert_cmpstr (s->file, ==, "/home/s3j/.local/src/cuda-test-snippets/maths/min.cu");
      g_assert_null (s->inlined_file);
    }
  /* Labels: ".L_x_3:" stands before 0x0190 */
  for (uint32_t k = f->first_label; k < f->first_label + f->n_labels; k++)
    if (strcmp (l->labels[k].name, ".L_x_3") == 0)
      {
        g_assert_cmphex (l->insns[l->labels[k].insn].offset, ==, 0x190);
        found = TRUE;
      }
  g_assert_true (found);
  g_assert_null (ks_sass_find_function (l, "_Z5myminIdERKT_S2_S2_", "sm_80"));
}

/* nvdisasm -gi writes where an inlined line came from */
static void
test_lineinfo_inlined (void)
{
  static const char text[] =
    "\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
    "\t.section\t.text.k,\"ax\",@progbits\n"
    "k:\n"
    "\t//## File \"/src/a.cuh\", line 12 inlined at \"/src/k.cu\", line 30\n"
    "        /*0000*/                   MOV R1, c[0x0][0x28] ;  /* 0x00000a0000017a02 */\n"
    "                                                           /* 0x000fe40000000f00 */\n"
    "\t//## File \"/src/k.cu\", line 31\n"
    "        /*0010*/                   EXIT ;                  /* 0x000000000000794d */\n"
    "                                                           /* 0x000fea0003800000 */\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_parse (text, strlen (text), "k.s", &error);
  const KsSassSource *s;

  g_assert_no_error (error);
  g_assert_cmpuint (l->n_insns, ==, 2);
  g_assert_cmpstr (l->functions[0].arch, ==, "sm_80");
  s = ks_sass_insn_source (l, 0);
  g_assert_cmpstr (s->file, ==, "/src/a.cuh");
  g_assert_cmpuint (s->line, ==, 12);
  g_assert_cmpstr (s->inlined_file, ==, "/src/k.cu");
  g_assert_cmpuint (s->inlined_line, ==, 30);
  s = ks_sass_insn_source (l, 1);
  g_assert_cmpuint (s->line, ==, 31);
  {
    g_autoptr(GArray) direct = ks_sass_insns_for_line (l, &l->functions[0], "k.cu", 30, FALSE);
    g_autoptr(GArray) with_inlined = ks_sass_insns_for_line (l, &l->functions[0], "k.cu", 30, TRUE);

    g_assert_cmpuint (direct->len, ==, 0);
    g_assert_cmpuint (with_inlined->len, ==, 1);
  }
  g_assert_null (s->inlined_file);
  g_assert_cmpuint (l->insns[1].control.stall, ==, 5);
}

/* nvdisasm -ndf -c -gi on a cubin that cuda-gdb dumped, as printed in the
 * vLLM blog "CUDA core dump: an effective tool to debug memory access
 * issues and beyond" (2025): a relocated ELF, so the offsets are addresses,
 * and before the instruction the whole inlining stack, innermost frame
 * first, each record "inlined at" the next one's line.  The instructions
 * belong to line 203 (the innermost), inlined at 118, inlined at 37. */
static void
test_lineinfo_inline_chain (void)
{
  static const char text[] =
    "        /*7ff533bb9190*/                   IMAD.IADD R19, R23, 0x1, R3 ;\n"
    ".L_x_27840:\n"
    "\t//## File \"/data/youkaichao/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu\", line 203 inlined at \"/data/youkaichao/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu\", line 118\n"
    "\t//## File \"/data/youkaichao/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu\", line 118 inlined at \"/data/youkaichao/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu\", line 37\n"
    "\t//## File \"/data/youkaichao/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu\", line 37\n"
    "        /*7ff533bb91a0*/                   ULDC.64 UR4, c[0x0][0x480] ;\n"
    "        /*7ff533bb91b0*/                   IADD3 R2, P0, P1, R22, UR4, R2 ;\n"
    "        /*7ff533bb91c0*/                   IADD3.X R3, R19, UR5, RZ, P0, P1 ;\n"
    "        /*7ff533bb91d0*/                   LDG.E.U8 R3, desc[UR36][R2.64] ;\n";
  /* The same post's second stack, eleven records deep, cut to its files */
  static const char deep[] =
    "\t//## File \"/v/cute/arch/copy_sm90.hpp\", line 93 inlined at \"/v/cute/arch/util.hpp\", line 158\n"
    "\t//## File \"/v/cute/arch/util.hpp\", line 158 inlined at \"/v/cute/arch/util.hpp\", line 185\n"
    "\t//## File \"/v/cute/arch/util.hpp\", line 185 inlined at \"/v/cute/atom/copy_traits.hpp\", line 133\n"
    "\t//## File \"/v/cute/atom/copy_traits.hpp\", line 133 inlined at \"/v/cute/atom/copy_atom.hpp\", line 103\n"
    "\t//## File \"/v/cute/atom/copy_atom.hpp\", line 103 inlined at \"/v/cute/atom/copy_atom.hpp\", line 124\n"
    "\t//## File \"/v/cute/atom/copy_atom.hpp\", line 124 inlined at \"/v/cute/algorithm/copy.hpp\", line 211\n"
    "\t//## File \"/v/cute/algorithm/copy.hpp\", line 211 inlined at \"/v/cute/algorithm/copy.hpp\", line 412\n"
    "\t//## File \"/v/cute/algorithm/copy.hpp\", line 412 inlined at \"/v/hopper/epilogue_fwd.hpp\", line 265\n"
    "\t//## File \"/v/hopper/epilogue_fwd.hpp\", line 265 inlined at \"/v/hopper/flash_fwd_kernel_sm90.h\", line 454\n"
    "\t//## File \"/v/hopper/flash_fwd_kernel_sm90.h\", line 454 inlined at \"/v/hopper/utils.h\", line 41\n"
    "\t//## File \"/v/hopper/utils.h\", line 41 inlined at \"/v/cutlass/device_kernel.h\", line 122\n"
    "\t//## File \"/v/cutlass/device_kernel.h\", line 122\n"
    "        /*7eebf5e9eb80*/                   STSM.16.M88.4 [R13], R4 ;\n"
    "        /*7eebf5e9eb90*/                   MOV R34, R26 ;\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_parse (text, strlen (text), "core.s", &error);
  g_autoptr(KsSassListing) d = NULL;
  const KsSassSource *s;
  static const struct { const char *file; uint32_t line; gboolean inlined; guint n; } cases[] = {
    { "IndexKernel.cu", 203, FALSE, 4 }, { "IndexKernel.cu", 118, FALSE, 0 },
    { "IndexKernel.cu", 37, FALSE, 0 }, { "IndexKernel.cu", 118, TRUE, 4 },
    { "IndexKernel.cu", 37, TRUE, 4 }, { "IndexKernel.cu", 36, TRUE, 0 },
  };

  g_assert_no_error (error);
  g_assert_cmpuint (l->n_insns, ==, 5);
  g_assert_cmphex (l->insns[4].offset, ==, G_GUINT64_CONSTANT (0x7ff533bb91d0));
  g_assert_cmpstr (operand (l, &l->insns[4], 1), ==, "desc[UR36][R2.64]");
  g_assert_null (ks_sass_insn_source (l, 0));
  for (uint32_t i = 1; i < 5; i++)
    {
      s = ks_sass_insn_source (l, i);
      g_assert_nonnull (s);
      g_assert_cmpuint (s->line, ==, 203);
      g_assert_cmpuint (s->inlined_line, ==, 118);
      g_assert_cmpuint (s->caller, !=, KS_SASS_NONE);
      s = &l->sources[s->caller];
      g_assert_cmpuint (s->line, ==, 118);
      g_assert_cmpuint (s->inlined_line, ==, 37);
      g_assert_cmpuint (s->caller, !=, KS_SASS_NONE);
      s = &l->sources[s->caller];
      g_assert_cmpuint (s->line, ==, 37);
      g_assert_null (s->inlined_file);
      g_assert_cmpuint (s->caller, ==, KS_SASS_NONE);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GArray) a = ks_sass_insns_for_line (l, &l->functions[0], cases[i].file, cases[i].line,
                                                    cases[i].inlined);

      g_assert_cmpuint (a->len, ==, cases[i].n);
    }

  /* As JSON: the call sites, innermost first */
  {
    g_autoptr(JsonBuilder) b = json_builder_new ();
    g_autoptr(JsonNode) root = NULL;
    JsonObject *src;
    JsonArray *at;

    json_builder_begin_object (b);
    ks_sass_listing_add_json (b, l, NULL);
    json_builder_end_object (b);
    root = json_builder_get_root (b);
    src = json_object_get_object_member (
      json_array_get_object_element (
        json_object_get_array_member (
          json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "functions"), 0),
          "instructions"), 4),
      "source");
    g_assert_cmpint (json_object_get_int_member (src, "line"), ==, 203);
    at = json_object_get_array_member (src, "inlined_at");
    g_assert_cmpuint (json_array_get_length (at), ==, 2);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (at, 0), "line"), ==, 118);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (at, 1), "line"), ==, 37);
  }

  d = ks_sass_parse (deep, strlen (deep), "deep.s", &error);
  g_assert_no_error (error);
  s = ks_sass_insn_source (d, 0);
  g_assert_cmpstr (s->file, ==, "/v/cute/arch/copy_sm90.hpp");
  g_assert_cmpuint (s->line, ==, 93);
  {
    guint depth = 0;

    while (s->caller != KS_SASS_NONE)
      {
        s = &d->sources[s->caller];
        depth++;
      }
    g_assert_cmpuint (depth, ==, 11);
    g_assert_cmpstr (s->file, ==, "/v/cutlass/device_kernel.h");
    g_assert_cmpuint (s->line, ==, 122);
  }
  {
    g_autoptr(GArray) kernel = ks_sass_insns_for_line (d, &d->functions[0], "device_kernel.h", 122, TRUE);
    g_autoptr(GArray) epilogue = ks_sass_insns_for_line (d, &d->functions[0], "epilogue_fwd.hpp", 265, TRUE);
    g_autoptr(GArray) direct = ks_sass_insns_for_line (d, &d->functions[0], "epilogue_fwd.hpp", 265, FALSE);

    g_assert_cmpuint (kernel->len, ==, 2);
    g_assert_cmpuint (epilogue->len, ==, 2);
    g_assert_cmpuint (direct->len, ==, 0);
  }
}

/* Triton keeps the PTX in the cubin as debug text: nvdisasm -g then writes
 * a ".nv_debug_ptx_txt" record after each source record (the layout
 * tritonparse's reader documents).  The source record stays the
 * instruction's line; the PTX line goes with it. */
static void
test_lineinfo_ptx_records (void)
{
  static const char text[] =
    "\t//## File \"/scratch/k.py\", line 188\n"
    "\t//## File \".nv_debug_ptx_txt\", line 19\n"
    "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
    "\t//## File \"/scratch/k.py\", line 191\n"
    "\t//## File \".nv_debug_ptx_txt\", line 37\n"
    "        /*0010*/                   S2R R0, SR_TID.X ;\n"
    "\t//## File \".nv_debug_ptx_txt\", line 40\n"
    "        /*0020*/                   EXIT ;\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_parse (text, strlen (text), "triton.s", &error);
  const KsSassSource *s;

  g_assert_no_error (error);
  s = ks_sass_insn_source (l, 0);
  g_assert_cmpstr (s->file, ==, "/scratch/k.py");
  g_assert_cmpuint (s->line, ==, 188);
  g_assert_cmpuint (s->ptx_line, ==, 19);
  s = ks_sass_insn_source (l, 1);
  g_assert_cmpuint (s->line, ==, 191);
  g_assert_cmpuint (s->ptx_line, ==, 37);
  /* a PTX record alone is all the line information there is */
  s = ks_sass_insn_source (l, 2);
  g_assert_cmpstr (s->file, ==, ".nv_debug_ptx_txt");
  g_assert_cmpuint (s->line, ==, 40);
}

/* Instructions per CUDA line of 10, counted by hand (awk over the records) */
static void
test_lines_to_insns (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s");
  const KsSassFunction *f = ks_sass_find_function (l, "_Z5myminIdERKT_S2_S2_", NULL);
  const KsSassFunction *g = ks_sass_find_function (l, "_Z8call_minPdPKd", NULL);
  static const struct { gboolean mymin; const char *file; uint32_t line, n; } cases[] = {
    { TRUE, "/home/s3j/.local/src/cuda-test-snippets/maths/min.cu", 2, 13 },
    { TRUE, "min.cu", 4, 35 },
    { FALSE, "min.cu", 7, 18 },
    { FALSE, "min.cu", 9, 44 },
    { FALSE, "min.cu", 10, 10 },
    { FALSE, "min.cu", 4, 0 },
    { FALSE, "/elsewhere/min.cu", 9, 0 },
    { FALSE, "max.cu", 9, 0 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GArray) a = ks_sass_insns_for_line (l, cases[i].mymin ? f : g, cases[i].file,
                                                    cases[i].line, FALSE);

      g_assert_cmpuint (a->len, ==, cases[i].n);
    }
  {
    g_autoptr(GArray) a = ks_sass_insns_for_line (l, g, "min.cu", 9, FALSE);

    g_assert_cmphex (l->insns[g_array_index (a, guint32, 0)].offset, ==, 0x120);
    g_assert_cmphex (l->insns[g_array_index (a, guint32, a->len - 1)].offset, ==, 0x3d0);
  }
}

/* PTX -> SASS through the CUDA line both name: a PTX function whose .loc
 * lines point at min.cu lines 7 and 9 (as nvcc -lineinfo writes them) finds
 * 10's call_min instructions of those lines (18 and 44, counted by hand). */
static void
test_ptx_to_sass (void)
{
  static const char ptx[] =
    ".version 7.5\n"
    ".target sm_70\n"
    ".address_size 64\n"
    "\t.file\t1 \"/home/s3j/.local/src/cuda-test-snippets/maths/min.cu\"\n"
    ".visible .entry _Z8call_minPdPKd(\n"
    "\t.param .u64 _Z8call_minPdPKd_param_0,\n"
    "\t.param .u64 _Z8call_minPdPKd_param_1\n"
    ")\n"
    "{\n"
    "\t.reg .b32 %r<2>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\t.loc\t1 7 0\n"
    "\tld.param.u64 %rd1, [_Z8call_minPdPKd_param_0];\n"   /* line 13 */
    "\t.loc\t1 9 0\n"
    "\tmov.u32 %r1, %tid.x;\n"                               /* line 15 */
    "\tret;\n"                                               /* line 16: still line 9 */
    "\n"
    "}\n";
  g_autoptr(KsSassListing) l = parse_fixture ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s");
  const KsSassFunction *f = ks_sass_match_function (l, "call_min(double*, double const*)", NULL);
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, sizeof ptx - 1);
  KsPtxModule *m = ks_ptx_module_parse (bytes, "min.ptx");
  static const struct { uint32_t ptx_line, n; } cases[] = {
    { 13, 18 }, { 15, 44 }, { 16, 44 }, { 10, 0 }, { 400, 0 },
  };

  g_assert_nonnull (f);
  g_assert_false (ks_ptx_module_has_errors (m));
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GArray) a = ks_sass_insns_for_ptx_line (l, f, m, cases[i].ptx_line);

      g_assert_cmpuint (a->len, ==, cases[i].n);
    }
  ks_ptx_module_free (m);
}

/* Names as ptxas -v and the CUDA source give them find the mangled function */
static void
test_match_function (void)
{
  g_autoptr(KsSassListing) l = parse_fixture ("05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass");
  g_autoptr(KsSassListing) m = parse_fixture ("06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass");
  const KsSassFunction *f;

  f = ks_sass_match_function (l, "void kernel<int>(int*, int const*, int)", NULL);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "_Z6kernelIiEvPT_PKS0_i");
  g_assert_true (ks_sass_match_function (l, "kernel<int>", "sm_75") == f);
  f = ks_sass_match_function (l, "other", "sm_90");
  g_assert_nonnull (f);
  g_assert_cmpstr (f->arch, ==, "sm_90");
  g_assert_cmpuint (f->n_insns, ==, 3);
  g_assert_true (ks_sass_match_function (l, "_Z5otherPf", "sm_75") != f);
  g_assert_null (ks_sass_match_function (l, "kernel<float>", NULL));
  g_assert_null (ks_sass_match_function (l, "other", "sm_80"));
  f = ks_sass_match_function (m, "Mandelbrot0<float>", NULL);
  g_assert_cmpstr (f->name, ==, "_Z11Mandelbrot0IfEvP6uchar4iiiT_S2_S2_S2_S2_S0_iiiib");
}

/* cuobjdump without -sass prints the embedded PTX as well; it is skipped,
 * the SASS after it is read. */
static void
test_ptx_section_skipped (void)
{
  gsize len, plen;
  g_autofree char *sass = load ("01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", &len);
  g_autofree char *ptx = load ("03_gpumode_kernel_1.sm_86.ptx", &plen);
  g_autoptr(GString) s = g_string_new ("\nFatbin ptx code:\n================\narch = sm_86\n"
                                       "code version = [8,7]\nhost = linux\ncompile_size = 64bit\n"
                                       "compressed\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = NULL;

  g_string_append_len (s, ptx, (gssize) plen);
  g_string_append_len (s, sass, (gssize) len);
  l = ks_sass_parse (s->str, s->len, "both.txt", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (l->n_functions, ==, 1);
  g_assert_cmpuint (l->functions[0].n_insns, ==, 96);
  g_assert_cmpstr (l->functions[0].arch, ==, "sm_86");
}

/* Ada and Blackwell (16-18: cuobjdump output whose encodings the origin's
 * script stripped, so these listings carry no control codes).  Each value
 * is read off the line quoted above it. */
static void
test_operands_ada_blackwell (void)
{
  g_autoptr(KsSassListing) ada = parse_fixture ("16_kernel_agent_kernels.sm_89.cuobjdump.sass");
  g_autoptr(KsSassListing) b100 = parse_fixture ("17_kernel_agent_kernels.sm_100a.cuobjdump.sass");
  g_autoptr(KsSassListing) b120 = parse_fixture ("18_kernel_agent_kernels.sm_120a.cuobjdump.sass");
  const KsSassFunction *f;
  const KsSassInsn *in;

  /* sm_89 ka_mma_e4m3 0x00b0: "QMMA.16832.F32.E4M3.E4M3 R4, R4.ROW, R8.COL, RZ ;" */
  f = ks_sass_find_function (ada, "ka_mma_e4m3", "sm_89");
  in = insn_at (ada, f, 0xb0);
  g_assert_cmpstr (in->opcode, ==, "QMMA");
  g_assert_cmpstr (in->modifiers, ==, ".16832.F32.E4M3.E4M3");
  g_assert_cmpuint (in->n_operands, ==, 4);
  g_assert_cmpstr (operand (ada, in, 1), ==, "R4.ROW");
  g_assert_cmpstr (operand (ada, in, 2), ==, "R8.COL");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_TENSOR);
  g_assert_false (in->flags & KS_SASS_HAS_CONTROL);
  /* 0x00c0: "@!UPT UIADD3 URZ, URZ, URZ, URZ ;" */
  in = insn_at (ada, f, 0xc0);
  g_assert_cmpstr (in->predicate, ==, "@!UPT");
  g_assert_cmpstr (in->opcode, ==, "UIADD3");
  /* ka_ldst 0x0250: "RED.E.ADD.F32.FTZ.RN.STRONG.GPU [R4.64], R12 ;" */
  f = ks_sass_find_function (ada, "ka_ldst", NULL);
  in = insn_at (ada, f, 0x250);
  g_assert_cmpstr (in->opcode, ==, "RED");
  g_assert_cmpstr (in->modifiers, ==, ".E.ADD.F32.FTZ.RN.STRONG.GPU");
  g_assert_cmpstr (operand (ada, in, 0), ==, "[R4.64]");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_MEM);
  /* 0x00f0: "STS [R10.X4], R2 ;" and 0x0140 "BRA 0x140;" (no blank before ';') */
  in = insn_at (ada, f, 0xf0);
  g_assert_cmpstr (operand (ada, in, 0), ==, "[R10.X4]");
  f = ks_sass_find_function (ada, "ka_mma_e4m3", NULL);
  in = insn_at (ada, f, 0x140);
  g_assert_cmpstr (in->opcode, ==, "BRA");
  g_assert_cmpstr (operand (ada, in, 0), ==, "0x140");

  /* sm_100a ka_tcgen05 0x0320: "UTCHMMA gdesc[UR12], gdesc[UR14], tmem[UR6],
   * tmem[UR4], idesc[UR5], UPT ;" */
  f = ks_sass_find_function (b100, "ka_tcgen05", "sm_100a");
  g_assert_nonnull (f);
  in = insn_at (b100, f, 0x320);
  g_assert_cmpstr (in->opcode, ==, "UTCHMMA");
  g_assert_cmpuint (in->n_operands, ==, 6);
  g_assert_cmpstr (operand (b100, in, 0), ==, "gdesc[UR12]");
  g_assert_cmpstr (operand (b100, in, 4), ==, "idesc[UR5]");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_TENSOR);
  /* 0x0170: "BRA.U !UP0, 0x120 ;" */
  in = insn_at (b100, f, 0x170);
  g_assert_cmpstr (in->modifiers, ==, ".U");
  g_assert_cmpstr (operand (b100, in, 0), ==, "!UP0");
  g_assert_cmpstr (operand (b100, in, 1), ==, "0x120");
  /* 0x08f0: "RET.REL.NODEC R2 0x0 ;" (one operand, as 10's RET) */
  in = insn_at (b100, f, 0x8f0);
  g_assert_cmpstr (in->opcode, ==, "RET");
  g_assert_cmpstr (operand (b100, in, 0), ==, "R2 0x0");
  /* 0x0600: "LDTM R5, tmem[UR6] ;" */
  in = insn_at (b100, f, 0x600);
  g_assert_cmpstr (in->opcode, ==, "LDTM");
  g_assert_cmpstr (operand (b100, in, 1), ==, "tmem[UR6]");

  /* sm_120a ka_mma_block_scaled 0x00c0: "QMMA.SF.16832.F32.E4M3.E4M3.E8 R12, R4,
   * R8.reuse, RZ, R0, R0, URZ ;" */
  f = ks_sass_find_function (b120, "ka_mma_block_scaled", "sm_120a");
  g_assert_nonnull (f);
  in = insn_at (b120, f, 0xc0);
  g_assert_cmpstr (in->opcode, ==, "QMMA");
  g_assert_cmpstr (in->modifiers, ==, ".SF.16832.F32.E4M3.E4M3.E8");
  g_assert_cmpuint (in->n_operands, ==, 7);
  g_assert_cmpstr (operand (b120, in, 2), ==, "R8.reuse");
  g_assert_cmpstr (operand (b120, in, 6), ==, "URZ");
  /* 0x00f0: "OMMA.SF.16864.F32.E2M1.E2M1.E8 R12, R4, R8, R12, R0, R0, URZ ;" */
  in = insn_at (b120, f, 0xf0);
  g_assert_cmpstr (in->opcode, ==, "OMMA");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_TENSOR);
  /* ka_tma 0x00a0: "HFMA2 R5, -RZ, RZ, 0, -0.0  ;" */
  f = ks_sass_find_function (b120, "ka_tma", "sm_120a");
  in = insn_at (b120, f, 0xa0);
  g_assert_cmpuint (in->n_operands, ==, 5);
  g_assert_cmpstr (operand (b120, in, 1), ==, "-RZ");
  g_assert_cmpstr (operand (b120, in, 4), ==, "-0.0");
  /* 0x0300: "@P0 BRA.U.ANY 0x2c0 ;" */
  in = insn_at (b120, f, 0x300);
  g_assert_cmpstr (in->predicate, ==, "@P0");
  g_assert_cmpstr (in->modifiers, ==, ".U.ANY");
  g_assert_cmpuint (in->pipe, ==, KS_PIPE_CTRL);
  /* 0x0250: "CALL.ABS.NOINC R10 ;" */
  in = insn_at (b120, f, 0x250);
  g_assert_cmpstr (in->opcode, ==, "CALL");
  g_assert_cmpstr (in->modifiers, ==, ".ABS.NOINC");
}

/* Every opcode in every listing of tests/fixtures/sass has a row of the
 * table: a pipe and a description.  The folder is scanned, so a fixture
 * added later is checked too. */
static void
test_opcodes_cover_fixtures (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fixtures", "sass", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n_listings = 0, n_opcodes = 0;
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autoptr(KsSassListing) l = NULL;

      /* the listings, not the sources, PTX, cubins or CuAssembler text */
      if (!g_str_has_suffix (name, ".sass") && !g_str_has_suffix (name, ".s")
          && !g_str_has_suffix (name, ".asm"))
        continue;
      l = parse_fixture (name);
      n_listings++;
      for (uint32_t i = 0; i < l->n_insns; i++)
        {
          const char *op = l->insns[i].opcode;

          if (g_hash_table_contains (seen, op))
            continue;
          g_hash_table_add (seen, g_strdup (op));
          n_opcodes++;
          if (ks_sass_opcode_description (op) == NULL)
            g_string_append_printf (missing, " %s (%s)", op, name);
        }
    }
  if (missing->len > 0)
    g_error ("opcodes without a description or pipe:%s", missing->str);
  /* 01, 05, 06, 10, 14, 15, 16, 17, 18 */
  g_assert_cmpuint (n_listings, >=, 9);
  g_assert_cmpuint (n_opcodes, >=, 90);
}

/* Opcodes read from the words (ks-sass-decode.c) against what the
 * disassembler printed, in every committed listing that has hex words:
 * the sass fixtures (CUDA Samples' sgemm, CuAssembler's Mandelbrot, CCCL,
 * Celeritas, libreCuda: none of them went into the table) and the cubin
 * fixtures' listings.  Each decoded name must be the listing's; Maxwell,
 * Pascal and Blackwell decode to nothing; most Volta-to-Hopper
 * instructions decode. */
static void
check_decoded (const KsSassListing *l,
               const char          *name,
               guint               *named,
               guint               *decoded,
               guint               *branches,
               guint               *accesses)
{
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      const char *arch = fn->arch ? fn->arch : strstr (name, "sm_");
      guint sm = arch ? (guint) g_ascii_strtoull (arch + 3, NULL, 10) : 0;

      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        {
          const KsSassInsn *in = &l->insns[i];
          const char *d = ks_sass_decode_opcode (sm, in);

          if (in->opcode == NULL || !(in->flags & KS_SASS_HAS_WORD0))
            continue;
          if (sm < 70 || sm > 90)
            {
              if (d != NULL)
                g_error ("%s: %s decoded %s for sm_%u, which the table does not cover", name,
                         in->opcode, d, sm);
              continue;
            }
          (*named)++;
          if (d == NULL)
            continue;
          (*decoded)++;
          {
            char buf[8];
            const char *p = ks_sass_decode_predicate (sm, in, buf);

            if (g_strcmp0 (p, in->predicate) != 0)
              g_error ("%s: the instruction at 0x%04" G_GINT64_MODIFIER "x has predicate %s, "
                       "decoded %s", name, in->offset, in->predicate, p);
          }
          if (g_strcmp0 (d, in->opcode) != 0)
            g_error ("%s: the instruction at 0x%04" G_GINT64_MODIFIER "x is %s, decoded %s (sm_%u)",
                     name, in->offset, in->opcode, d, sm);
          /* where a BRA goes, and what an access moves, from the words */
          if (g_str_equal (d, "BRA")
              || (g_str_equal (d, "CALL") && strstr (in->modifiers, ".REL") != NULL && sm < 90))
            {
              uint64_t target = 0;
              uint64_t want = G_MAXUINT64;
              const char *o = in->n_operands ? l->operands[in->first_operand + in->n_operands - 1]
                                             : "";

              g_assert_true (ks_sass_decode_branch_target (sm, in, &target));
              if (g_str_has_prefix (o, "0x"))
                want = g_ascii_strtoull (o + 2, NULL, 16);
              for (uint32_t k = fn->first_label; k < fn->first_label + fn->n_labels; k++)
                if (strlen (o) > 3 && strncmp (o + 2, l->labels[k].name,
                                               strlen (l->labels[k].name)) == 0
                    && o[2 + strlen (l->labels[k].name)] == ')')
                  want = l->labels[k].insn < l->n_insns ? l->insns[l->labels[k].insn].offset : 0;
              if (want == G_MAXUINT64)
                g_error ("%s: the target %s of 0x%04" G_GINT64_MODIFIER "x is not known", name,
                         o, in->offset);
              if (want != target)
                g_error ("%s: the BRA at 0x%04" G_GINT64_MODIFIER "x goes to %s, decoded 0x%04"
                         G_GINT64_MODIFIER "x (sm_%u)", name, in->offset, o, target, sm);
              (*branches)++;
            }
          if (g_str_equal (d, "LDS") || g_str_equal (d, "STS") || g_str_equal (d, "LDG")
              || g_str_equal (d, "STG"))
            {
              const char *m = in->modifiers;
              guint want = strstr (m, ".128") ? 16 : strstr (m, ".64") ? 8
                           : strstr (m, "8") ? 1 : strstr (m, "16") ? 2 : 4;

              if (ks_sass_decode_access_bytes (sm, in) != want)
                g_error ("%s: the %s%s at 0x%04" G_GINT64_MODIFIER "x moves %u bytes, decoded %u",
                         name, d, m, in->offset, want, ks_sass_decode_access_bytes (sm, in));
              (*accesses)++;
            }
          if (g_str_equal (d, "S2R") || g_str_equal (d, "CS2R"))
            {
              const char *sr = ks_sass_decode_sreg (sm, in);
              const char *want = l->operands[in->first_operand + 1];

              if (sr != NULL && in->n_operands >= 2 && !g_str_equal (sr, want))
                g_error ("%s: 0x%04" G_GINT64_MODIFIER "x reads %s, decoded %s", name,
                         in->offset, want, sr);
            }
        }
    }
}

static void
test_decode_fixtures (void)
{
  const char *dirs[] = { "sass", "cubin" };
  guint named = 0, decoded = 0, listings = 0, branches = 0, accesses = 0;

  g_assert_true (ks_sass_decode_table_sorted ());
  for (guint k = 0; k < G_N_ELEMENTS (dirs); k++)
    {
      g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fixtures", dirs[k], NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir_path, name, NULL);
          g_autofree char *text = NULL;
          g_autoptr(KsSassListing) l = NULL;
          g_autoptr(GError) error = NULL;
          gsize len;

          if (!g_str_has_suffix (name, ".sass") && !g_str_has_suffix (name, ".nvdisasm.s")
              && !g_str_has_suffix (name, ".asm") && !g_str_has_suffix (name, "_lineinfo.s"))
            continue;
          g_assert_true (g_file_get_contents (path, &text, &len, NULL));
          l = ks_sass_parse (text, len, name, &error);
          g_assert_no_error (error);
          check_decoded (l, name, &named, &decoded, &branches, &accesses);
          listings++;
        }
    }
  /* and the samples' listings (nvdisasm 11.8, sm_70 to sm_90), which have
   * CALL.REL.NOINC to division slow paths */
  {
    g_autofree char *samples = g_build_filename (g_getenv ("KS_DATA_DIR"), "samples", NULL);
    g_autoptr(GDir) dir = g_dir_open (samples, 0, NULL);
    const char *sample;

    g_assert_nonnull (dir);
    while ((sample = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *sdir = g_build_filename (samples, sample, "sass", NULL);
        g_autoptr(GDir) sd = g_dir_open (sdir, 0, NULL);
        const char *name;

        while (sd != NULL && (name = g_dir_read_name (sd)) != NULL)
          {
            g_autofree char *path = g_build_filename (sdir, name, NULL);
            g_autofree char *text = NULL;
            g_autoptr(KsSassListing) l = NULL;
            g_autoptr(GError) error = NULL;
            gsize len;

            if (!g_str_has_suffix (name, ".sass"))
              continue;
            g_assert_true (g_file_get_contents (path, &text, &len, NULL));
            l = ks_sass_parse (text, len, name, &error);
            g_assert_no_error (error);
            check_decoded (l, name, &named, &decoded, &branches, &accesses);
            listings++;
          }
      }
  }
  g_test_message ("%u listings: %u of %u Volta-to-Hopper instructions decoded, %u branch "
                  "targets and %u access widths checked", listings, decoded, named, branches,
                  accesses);
  g_assert_cmpuint (branches, >=, 100);
  g_assert_cmpuint (accesses, >=, 300);
  g_assert_cmpuint (listings, >=, 20);
  g_assert_cmpuint (named, >=, 4000);
  g_assert_cmpuint (decoded, >=, named * 95 / 100);
  /* another family: nothing */
  {
    KsSassInsn in = { .words = { 0x0000000000027805ull, 0x000fca0000015000ull },
                      .flags = KS_SASS_HAS_WORD0 | KS_SASS_HAS_WORD1 };

    g_assert_cmpstr (ks_sass_decode_opcode (86, &in), ==, "CS2R");
    g_assert_cmpstr (ks_sass_decode_sreg (86, &in), ==, "SR_CLOCKLO");
    g_assert_null (ks_sass_decode_opcode (61, &in));
    g_assert_null (ks_sass_decode_opcode (100, &in));
    g_assert_null (ks_sass_decode_opcode (120, &in));
  }
}

static void
test_pipes (void)
{
  static const struct { const char *op, *mods; KsPipe pipe; } cases[] = {
    { "LDG", ".E", KS_PIPE_MEM }, { "STS", "", KS_PIPE_MEM }, { "LDSM", ".16.M88.4", KS_PIPE_MEM },
    { "FFMA", "", KS_PIPE_FP32 }, { "FADD", ".FTZ", KS_PIPE_FP32 }, { "HFMA2", ".MMA", KS_PIPE_FP32 },
    { "DFMA", "", KS_PIPE_FP64 }, { "F2F", ".F64.F32", KS_PIPE_FP64 }, { "F2I", ".TRUNC", KS_PIPE_SFU },
    { "MUFU", ".RCP", KS_PIPE_SFU }, { "S2R", "", KS_PIPE_SFU },
    { "BRA", "", KS_PIPE_CTRL }, { "EXIT", "", KS_PIPE_CTRL }, { "BAR", ".SYNC", KS_PIPE_CTRL },
    { "SHFL", ".BFLY", KS_PIPE_SHFL }, { "VOTE", ".ANY", KS_PIPE_SHFL },
    { "HMMA", ".16816.F32", KS_PIPE_TENSOR }, { "HGMMA", ".64x128x16.F32", KS_PIPE_TENSOR },
    { "UTCQMMA", "", KS_PIPE_TENSOR }, { "LDTM", "", KS_PIPE_MEM }, { "FENCE", ".VIEW.ASYNC.S", KS_PIPE_MEM },
    { "IMAD", ".WIDE", KS_PIPE_INT }, { "IADD3", "", KS_PIPE_INT }, { "LOP3", ".LUT", KS_PIPE_INT },
  };

  g_assert_true (_ks_sass_opcodes_sorted ());
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpuint (ks_sass_opcode_pipe (cases[i].op, cases[i].mods), ==, cases[i].pipe);
  g_assert_nonnull (ks_sass_opcode_description ("LDG"));
  g_assert_null (ks_sass_opcode_description ("NOTANOPCODE"));
}

/* Every opcode of NVIDIA's instruction set reference (CUDA Binary
 * Utilities, section 4: the Turing, Ampere and Ada, Hopper and Blackwell
 * tables, CUDA 13.1), under the heading NVIDIA puts it, has a description,
 * and its pipe is one that heading allows. */
static void
test_opcodes_documented (void)
{
  static const struct
  {
    const char *heading;
    const char *opcodes;
    KsPipe allowed[5];
    guint n_allowed;
  } groups[] = {
    { "Floating Point",
      "FADD FADD2 FADD32I FCHK FFMA32I FFMA FFMA2 FHADD FHFMA FMNMX FMNMX3 FMUL FMUL2 FMUL32I FSEL FSET "
      "FSETP FSWZADD MUFU HADD2 HADD2_32I HFMA2 HFMA2_32I HMMA HMNMX2 HMUL2 HMUL2_32I HSET2 HSETP2 "
      "DADD DFMA DMMA DMUL DSETP OMMA QMMA",
      { KS_PIPE_FP32, KS_PIPE_FP64, KS_PIPE_SFU, KS_PIPE_TENSOR }, 4 },
    { "Integer",
      "BMMA BMSK BREV FLO IABS IADD IADD3 IADD32I IDP IDP4A IMAD IMMA IMNMX IMUL IMUL32I ISCADD "
      "ISCADD32I ISETP LEA LOP LOP3 LOP32I POPC SHF SHL SHR VABSDIFF VABSDIFF4 VHMNMX VIADD "
      "VIADDMNMX VIMNMX VIMNMX3",
      { KS_PIPE_INT, KS_PIPE_TENSOR }, 2 },
    { "Conversion", "F2F F2I I2F I2I I2IP I2FP F2IP FRND",
      { KS_PIPE_SFU, KS_PIPE_FP32, KS_PIPE_INT }, 3 },
    { "Movement", "MOV MOV32I MOVM PRMT SEL SGXT SHFL", { KS_PIPE_INT, KS_PIPE_SHFL }, 2 },
    { "Predicate", "PLOP3 PSETP P2R R2P", { KS_PIPE_INT }, 1 },
    { "Load/Store",
      "FENCE LD LDC LDG LDGDEPBAR LDGMC LDGSTS LDL LDS LDSM STSM ST STG STL STS STAS SYNCS MATCH "
      "QSPC ATOM ATOMS ATOMG RED REDAS REDG CCTL CCTLL ERRBAR MEMBAR CCTLT",
      { KS_PIPE_MEM, KS_PIPE_SHFL }, 2 },
    { "Uniform Datapath",
      "CREDUX CS2UR LDCU R2UR REDUX S2UR UBMSK UBREV UCGABAR_ARV UCGABAR_WAIT UCLEA UFADD UF2F "
      "UF2FP UF2I UF2IP UFFMA UFLO UFMNMX UFMUL UFRND UFSEL UFSET UFSETP UI2F UI2FP UI2I UI2IP "
      "UIABS UIMNMX UIADD3 UIMAD UISETP ULDC ULEA ULEPC ULOP ULOP3 ULOP32I UMOV UP2UR UPLOP3 UPOPC "
      "UPRMT UPSETP UR2UP USEL USETMAXREG USGXT USHF USHL USHR UGETNEXTWORKID UMEMSETS UREDGR "
      "USTGR UVIADD UVIMNMX UVIRTCOUNT VOTEU",
      { KS_PIPE_INT, KS_PIPE_SHFL, KS_PIPE_MEM, KS_PIPE_SFU, KS_PIPE_CTRL }, 5 },
    { "Warpgroup", "BGMMA HGMMA IGMMA QGMMA WARPGROUP WARPGROUPSET",
      { KS_PIPE_TENSOR, KS_PIPE_CTRL }, 2 },
    { "Tensor Memory Access",
      "UBLKCP UBLKPF UBLKRED UTMACCTL UTMACMDFLUSH UTMALDG UTMAPF UTMAREDG UTMASTG",
      { KS_PIPE_MEM }, 1 },
    { "Tensor Core Memory",
      "LDT LDTM STT STTM UTCATOMSWS UTCBAR UTCCP UTCHMMA UTCIMMA UTCOMMA UTCQMMA UTCSHIFT",
      { KS_PIPE_MEM, KS_PIPE_TENSOR }, 2 },
    { "Texture", "TEX TLD TLD4 TMML TXD TXQ", { KS_PIPE_MEM }, 1 },
    { "Surface", "SUATOM SULD SURED SUST", { KS_PIPE_MEM }, 1 },
    { "Control",
      "ACQBULK ACQSHMINIT BMOV BPT BRA BREAK BRX BRXU BSSY BSYNC CALL CGAERRBAR ELECT "
      "ENDCOLLECTIVE EXIT JMP JMX JMXU KILL NANOSLEEP PREEXIT RET RPCMOV RTT WARPSYNC YIELD",
      { KS_PIPE_CTRL, KS_PIPE_SHFL }, 2 },
    { "Miscellaneous",
      "B2R BAR CS2R DEPBAR GETLMEMBASE LEPC NOP PMTRIG R2B S2R SETCTAID SETLMEMBASE VOTE",
      { KS_PIPE_CTRL, KS_PIPE_INT, KS_PIPE_SFU, KS_PIPE_SHFL }, 4 },
  };
  g_autoptr(GString) wrong = g_string_new (NULL);
  guint n = 0;

  for (gsize g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      g_auto(GStrv) ops = g_strsplit (groups[g].opcodes, " ", -1);

      for (guint i = 0; ops[i] != NULL; i++)
        {
          guint pipe = ks_sass_opcode_pipe (ops[i], "");
          gboolean ok = FALSE;

          n++;
          if (ks_sass_opcode_description (ops[i]) == NULL)
            g_string_append_printf (wrong, " %s (no description)", ops[i]);
          for (guint k = 0; k < groups[g].n_allowed; k++)
            ok |= pipe == groups[g].allowed[k];
          if (!ok)
            g_string_append_printf (wrong, " %s (%s: pipe %s)", ops[i], groups[g].heading,
                                    ks_pipe_name (pipe));
        }
    }
  if (wrong->len > 0)
    g_error ("opcodes of NVIDIA's reference:%s", wrong->str);
  g_assert_cmpuint (n, >=, 200);
  /* double-precision forms of the conversions run on the FP64 unit */
  g_assert_cmpuint (ks_sass_opcode_pipe ("FRND", ".F64.CEIL"), ==, KS_PIPE_FP64);
  g_assert_cmpuint (ks_sass_opcode_pipe ("FRND", ".CEIL"), ==, KS_PIPE_SFU);
}

/* Expected strings are c++filt's (binutils 2.40); when c++filt is on the
 * machine, it is asked as well. */
static void
test_demangle (void)
{
  static const struct { const char *mangled, *want; } cases[] = {
    { "_Z11sgemm_naiveiiifPfPKffS_", "sgemm_naive(int, int, int, float, float*, float const*, float, float*)" },
    { "_Z10mysgemm_v7ILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_",
      "void mysgemm_v7<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)" },
    { "_Z5myminIdERKT_S2_S2_", "double const& mymin<double>(double const&, double const&)" },
    { "_Z6kernelIiEvPT_PKS0_i", "void kernel<int>(int*, int const*, int)" },
    { "_Z11Mandelbrot1IdEvP6uchar4iiiT_S2_S2_S2_S2_S0_iiiib",
      "void Mandelbrot1<double>(uchar4*, int, int, int, double, double, double, double, double, "
      "uchar4, int, int, int, int, bool)" },
    { "_Z13MandelbrotDS0P6uchar4iiifffffffS_iiiib",
      "MandelbrotDS0(uchar4*, int, int, int, float, float, float, float, float, float, float, "
      "uchar4, int, int, int, int, bool)" },
    { "_ZN2ns3fooEPNS_3BarE", "ns::foo(ns::Bar*)" },
    { "_ZN2ns6kernelIfEEvPT_PKS2_", "void ns::kernel<float>(float*, float* const*)" },
    { "_ZNK3Foo3barEv", "Foo::bar() const" },
    { "_Z3fooSt6vectorIiE", "foo(std::vector<int>)" },
    { "_Z1fIN2ns1AIiEEEvT_S3_", "void f<ns::A<int> >(ns::A<int>, ns::A<int>)" },
    { "_Z8call_minPdPKd", "call_min(double*, double const*)" },
    { "_Z3p10Pdi", "p10(double*, int)" },
    { "_Z3fooPFviE", "foo(void (*)(int))" },
    /* c++filt's spacing: a function pointer returning a pointer, an
     * operator ending in '<' before template arguments */
    { "_ZNSt12strstreambufC1EPFPvmEPFvS0_E",
      "std::strstreambuf::strstreambuf(void* (*)(unsigned long), void (*)(void*))" },
    { "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
      "std::basic_ostream<char, std::char_traits<char> >& std::operator<< "
      "<std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)" },
    /* std::'s abbreviations spelled out; a constructor named after the
     * class the prefix ends with */
    { "_ZNSsC1EPKcRKSaIcE",
      "std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string("
      "char const*, std::allocator<char> const&)" },
    { "_ZNSaIcED2Ev", "std::allocator<char>::~allocator()" },
    /* a lambda's call operator is const */
    { "_ZZ4mainENKUlvE_clEv", "main::{lambda()#1}::operator()() const" },
    { "_Z5applyIZ4hostvEUliE_EvT_Pf",
      "void apply<host()::{lambda(int)#1}>(host()::{lambda(int)#1}, float*)" },
    { "_Z6packk2IfJifPfEEvPT_DpRKT0_",
      "void packk2<float, int, float, float*>(float*, int const&, float const&, float* const&)" },
  };
  /* malformed: truncated, bad substitution or parameter indices, huge
   * lengths; a PTX parameter's name, which only starts like a mangled one */
  static const char *const refused[] = {
    "write_float", "_Z", "_Z3", "_Z3foo", "_Z3fooS_", "_Z1fIiEvT0_", "_ZN3fooE",
    "_Z3fooILi", "_Z999999999999x", "_Z4294967297x", "_Z1fS5_", "_ZNS_C1Ev", "_Z1fIiEvT_S9_", "_Z1fIiEvT3_",
    "_Z11sgemm_naiveiiifPfPKffS__param_7", "_Z3foov.Foo", "_ZN1AIiE",
  };
  g_autofree char *cxxfilt = g_find_program_in_path ("c++filt");

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ks_sass_demangle (cases[i].mangled);

      g_assert_cmpstr (got, ==, cases[i].want);
      if (cxxfilt != NULL)
        {
          const char *argv[] = { cxxfilt, cases[i].mangled, NULL };
          g_autofree char *out = NULL;
          int status;

          g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                       &out, NULL, &status, NULL));
          g_assert_cmpstr (g_strstrip (out), ==, got);
        }
    }
  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *got = ks_sass_demangle (refused[i]);

      /* "_Z3foo" is a variable; the others are incomplete or malformed */
      if (strcmp (refused[i], "_Z3foo") == 0)
        g_assert_cmpstr (got, ==, "foo");
      else if (strcmp (refused[i], "_ZN3fooE") == 0)
        g_assert_cmpstr (got, ==, "foo");
      else if (got != NULL)
        g_error ("%s: expected NULL, got \"%s\"", refused[i], got);
    }

  /* the name alone (c++filt's output up to the parameters), and a name
   * that is not mangled as it is */
  {
    static const char *const names[][2] = {
      { "_Z4vaddPKfS0_Pfi", "vadd" },
      { "_Z11sgemm_naiveiiifPfPKffS_", "sgemm_naive" },
      { "_ZN2ns4scanILi256EEEvPf", "void ns::scan<256>" },
      { "vector_add", "vector_add" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *got = ks_sass_demangle_name (names[i][0]);

        g_assert_cmpstr (got, ==, names[i][1]);
      }
  }
}

/* fixtures/demangle.tsv: mangled names from nvcc's PTX of a kernel file
 * written for every construct (lambdas, packs, non-type, function and
 * member pointer arguments, arrays, qualifiers), from libstdc++, LLVM and
 * the CUDA libraries, each with c++filt's (binutils 2.40) output; c++filt
 * printing the name unchanged means it refuses it, and so must we.  When
 * c++filt is on the machine, it is asked again. */
static void
test_demangle_corpus (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "demangle.tsv", NULL);
  g_autofree char *text = NULL;
  g_autofree char *cxxfilt = g_find_program_in_path ("c++filt");
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) wants = g_ptr_array_new ();
  g_autoptr(GString) wrong = g_string_new (NULL);
  guint demangled = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *tab = strchr (lines[i], '\t');
      g_autofree char *got = NULL;

      if (lines[i][0] == '\0')
        continue;
      g_assert_nonnull (tab);
      *tab = '\0';
      got = ks_sass_demangle (lines[i]);
      if (strcmp (tab + 1, lines[i]) == 0 ? got != NULL : g_strcmp0 (got, tab + 1) != 0)
        g_string_append_printf (wrong, "\n%s\n  want %s\n  got  %s", lines[i],
                                strcmp (tab + 1, lines[i]) == 0 ? "NULL" : tab + 1,
                                got != NULL ? got : "NULL");
      demangled += got != NULL;
      g_ptr_array_add (names, lines[i]);
      g_ptr_array_add (wants, tab + 1);
    }
  if (wrong->len > 0)
    g_error ("demangled unlike c++filt:%s", wrong->str);
  g_assert_cmpuint (names->len, >=, 250);
  g_assert_cmpuint (demangled, >=, 250);

  if (cxxfilt != NULL)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *out = NULL;
      g_auto(GStrv) got = NULL;
      int status;

      g_ptr_array_add (argv, cxxfilt);
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (argv, names->pdata[i]);
      g_ptr_array_add (argv, NULL);
      g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, NULL, &status, NULL));
      got = g_strsplit (out, "\n", -1);
      g_assert_cmpuint (g_strv_length (got), >=, names->len);
      for (guint i = 0; i < names->len; i++)
        if (strcmp (got[i], wants->pdata[i]) != 0)
          g_error ("c++filt here prints %s as \"%s\", the corpus says \"%s\"",
                   (char *) names->pdata[i], got[i], (char *) wants->pdata[i]);
    }
  else
    g_test_message ("c++filt not found: checked against the stored outputs only");
}

/* The pane's layout of a listing moves blanks only: every listing of the
 * fixtures keeps its line count and reads back to the same instructions,
 * words, control codes and source lines; an instruction, its predicate and
 * its second word are laid out in their columns */
static void
test_display_text (void)
{
  static const char *const names[] = {
    "01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", "05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass",
    "06_cuassembler_Mandelbrot.sm_75.cuobjdump.sass", "08_ykt_smem_latency_ld.sm_86.cuasm",
    "10_celeritas_min.sm_70.nvdisasm_lineinfo.s", "14_librecuda_write_float.sm_80.nvdisasm.asm",
    "15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm",
    "16_kernel_agent_kernels.sm_89.cuobjdump.sass",
  };
  const char *text = "\tcode for sm_86\n"
                     "        /*0060*/              @!P0 BRA `(.L_x_1) ;                       /* 0x000000e000008947 */\n"
                     "                                                                   /* 0x000fea0003800000 */\n"
                     "        .size           f,(.L_x_3 - f)";
  g_autofree char *shown = ks_sass_display_text (text, -1);

  g_assert_cmpstr (shown, ==,
                   "    code for sm_86\n"
                   "    /*0060*/ @!P0    BRA `(.L_x_1) ;   /* 0x000000e000008947 */\n"
                   "                                       /* 0x000fea0003800000 */\n"
                   "    .size  f,(.L_x_3 - f)");

  for (gsize n = 0; n < G_N_ELEMENTS (names); n++)
    {
      gsize len;
      g_autofree char *orig = load (names[n], &len);
      g_autofree char *disp = ks_sass_display_text (orig, (gssize) len);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSassListing) a = ks_sass_parse (orig, len, names[n], &error);
      g_autoptr(KsSassListing) b = NULL;
      g_auto(GStrv) lines_a = g_strsplit (orig, "\n", -1);
      g_auto(GStrv) lines_b = g_strsplit (disp, "\n", -1);

      g_assert_no_error (error);
      b = ks_sass_parse (disp, strlen (disp), names[n], &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_strv_length (lines_a), ==, g_strv_length (lines_b));
      g_assert_cmpuint (a->n_insns, ==, b->n_insns);
      g_assert_cmpuint (a->n_functions, ==, b->n_functions);
      g_assert_cmpuint (a->n_sources, ==, b->n_sources);
      for (uint32_t i = 0; i < a->n_insns; i++)
        {
          const KsSassInsn *x = &a->insns[i], *y = &b->insns[i];

          g_assert_cmpuint (x->offset, ==, y->offset);
          g_assert_cmpuint (x->line, ==, y->line);
          g_assert_cmpstr (x->opcode, ==, y->opcode);
          g_assert_cmpstr (x->modifiers, ==, y->modifiers);
          g_assert_cmpstr (x->predicate, ==, y->predicate);
          g_assert_cmpuint (x->n_operands, ==, y->n_operands);
          g_assert_cmphex (x->words[0], ==, y->words[0]);
          g_assert_cmphex (x->words[1], ==, y->words[1]);
          g_assert_cmpuint (x->flags, ==, y->flags);
          g_assert_cmpint (memcmp (&x->control, &y->control, sizeof x->control), ==, 0);
          g_assert_cmpuint (x->source, ==, y->source);
        }
      /* and a second layout changes nothing */
      {
        g_autofree char *again = ks_sass_display_text (disp, -1);

        g_assert_cmpstr (again, ==, disp);
      }
    }
}

static void
assert_parse_error (const char *text,
                    gsize       len,
                    const char *want_prefix)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_parse (text, len, "bad.sass", &error);

  g_assert_null (l);
  g_assert_nonnull (error);
  g_assert_true (error->domain == KS_SASS_ERROR);
  if (!g_str_has_prefix (error->message, want_prefix))
    g_error ("message \"%s\" does not start with \"%s\"", error->message, want_prefix);
}

static void
test_bad_input (void)
{
  gsize len, clen;
  g_autofree char *text = load ("01_gpumode_sgemm_naive.sm_86.cuobjdump.sass", &len);
  g_autofree char *cubin = load ("04_gpumode_kernel_1.sm_86.cubin", &clen);
  const char *cut;

  /* Junk, empty, binary */
  assert_parse_error ("hello world\n", 12, "bad.sass:1:1: error: ");
  assert_parse_error ("\n\n", 2, "bad.sass:2:1: error: ");
  assert_parse_error ("", 0, "bad.sass:1:1: error: ");
  assert_parse_error (cubin, clen, "bad.sass:1:1: error: ");
  assert_parse_error ("        /*0000*/  MOV R1, c[0x0][0x28] ;\n\x01\x02\x00\xff\n", 44, "bad.sass:2:1: error: ");

  /* A UTF-8 byte order mark is no line; UTF-16 is refused as such */
  {
    g_autofree char *bom = g_strconcat ("\xef\xbb\xbf", text, NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(KsSassListing) l = ks_sass_parse (bom, len + 3, "bom.sass", &error);
    g_autofree char *utf16 = g_convert ("\xef\xbb\xbf\n\t\tFunction : f\n", -1, "UTF-16LE", "UTF-8", NULL, NULL, NULL);

    g_assert_no_error (error);
    g_assert_cmpuint (l->n_insns, ==, 96);
    g_assert_cmpuint (l->insns[0].line, ==, 21);
    g_assert_nonnull (utf16);
    assert_parse_error (utf16, 34, "bad.sass:1:1: error: UTF-16");
  }

  /* Cut inside the LDG line 97: no ';' */
  cut = strstr (text, "LDG.E R32, [R32.64]");
  g_assert_nonnull (cut);
  assert_parse_error (text, (gsize) (cut - text) + 10, "bad.sass:97:1: error: ");
  /* Cut after the LDG's low word: its high word is missing */
  cut = strstr (cut, "*/");
  assert_parse_error (text, (gsize) (cut - text) + 3, "bad.sass:97:1: error: ");
  /* A hex word cut short */
  cut = strstr (text, "/* 0x0000000420207981 */");
  assert_parse_error (text, (gsize) (cut - text) + 10, "bad.sass:97:1: error: ");
  /* Junk in the middle */
  {
    g_autoptr(GString) s = g_string_new_len (text, (gssize) len);
    const char *at = strstr (s->str, "        /*0260*/");

    g_string_insert (s, at - s->str, "garbage here (not SASS)\n");
    assert_parse_error (s->str, s->len, "bad.sass:97:1: error: ");
  }
  /* The LDG's high word (line 98) lost in the middle: the LDG is named */
  {
    g_autoptr(GString) s = g_string_new_len (text, (gssize) len);
    char *at = strstr (s->str, "/* 0x000ea4000c1e1900 */");
    char *bol = at, *eol = strchr (at, '\n');

    while (bol > s->str && bol[-1] != '\n')
      bol--;
    g_string_erase (s, bol - s->str, eol + 1 - bol);
    assert_parse_error (s->str, s->len, "bad.sass:97:1: error: ");
  }
  /* 05 cut after the second function's header lines (27 and 28) or inside
   * its name: that function (line 27) has no instructions */
  {
    gsize len05;
    g_autofree char *t05 = load ("05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass", &len05);
    const char *f2 = strstr (t05, "Function : _Z6kernelIiEvPT_PKS0_i");
    const char *after = strchr (strstr (f2, ".headerflags"), '\n') + 1;

    assert_parse_error (t05, (gsize) (after - t05), "bad.sass:27:1: error: ");
    assert_parse_error (t05, (gsize) (f2 - t05) + 15, "bad.sass:27:1: error: ");
  }
  /* A lone hex word with no instruction, at the end or before a Volta one */
  assert_parse_error ("\t\tFunction : f\n        /* 0x000fe40000000f00 */\n\n\n", 49, "bad.sass:2:1: error: ");
  {
    static const char lone[] = "\t\tFunction : f\n        /* 0x000fe40000000f00 */\n"
                               "        /*0000*/  EXIT ;  /* 0x000000000000794d */\n"
                               "                          /* 0x000fea0003800000 */\n";

    assert_parse_error (lone, sizeof lone - 1, "bad.sass:2:1: error: ");
  }

  /* Every prefix of a listing reads or fails cleanly */
  for (gsize n = 0; n < len; n += 37)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSassListing) l = ks_sass_parse (text, n, "cut.sass", &error);

      g_assert_true ((l == NULL) != (error == NULL));
      if (l == NULL)
        g_assert_true (g_str_has_prefix (error->message, "cut.sass:"));
    }
}

/* nvdisasm on a cubin that cuda-gdb dumped from a running process, as the
 * vLLM blog "CUDA core dump: an effective tool to debug memory access
 * issues and beyond" (2025) prints it: the ELF is relocated, so the offsets
 * are 48-bit addresses. */
static void
test_address_offsets (void)
{
  static const char text[] =
    "        /*7ff533bb91a0*/                   ULDC.64 UR4, c[0x0][0x480] ;\n"
    "        /*7ff533bb91b0*/                   IADD3 R2, P0, P1, R22, UR4, R2 ;\n"
    "        /*7ff533bb91c0*/                   IADD3.X R3, R19, UR5, RZ, P0, P1 ;\n"
    "        /*7ff533bb91d0*/                   LDG.E.U8 R3, desc[UR36][R2.64] ;\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) l = ks_sass_parse (text, strlen (text), "core.s", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (l->n_insns, ==, 4);
  g_assert_cmphex (l->insns[0].offset, ==, G_GUINT64_CONSTANT (0x7ff533bb91a0));
  g_assert_cmphex (l->insns[3].offset, ==, G_GUINT64_CONSTANT (0x7ff533bb91d0));
  g_assert_cmpstr (l->insns[3].opcode, ==, "LDG");
  g_assert_cmpstr (operand (l, &l->insns[3], 1), ==, "desc[UR36][R2.64]");
  {
    static const char past[] = "        /*8000000000000000*/    EXIT ;\n";

    assert_parse_error (past, sizeof past - 1, "bad.sass:1:1: error: ");
  }
}

/* Listings put together in one file (for f in *.cubin; do nvdisasm -c $f;
 * done > all.s): each part's .headerflags names its own architecture, and a
 * Maxwell part after a Volta one is read as Maxwell. */
static void
test_concatenated_listings (void)
{
  static const struct { const char *first, *second, *function, *arch; } cases[] = {
    { "10_celeritas_min.sm_70.nvdisasm_lineinfo.s", "14_librecuda_write_float.sm_80.nvdisasm.asm",
      "write_float", "sm_80" },
    { "05_cccl_cuda13.3_sm75_sm90.cuobjdump.sass", "15_compiler_explorer_sass-binary.sm_52.nvdisasm_g.asm",
      "_Z3p10Pdi", "sm_52" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize l1, l2;
      g_autofree char *a = load (cases[i].first, &l1);
      g_autofree char *b = load (cases[i].second, &l2);
      g_autofree char *both = g_strconcat (a, b, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSassListing) l = ks_sass_parse (both, l1 + l2, "all.s", &error);
      g_autoptr(KsSassListing) alone = parse_fixture (cases[i].second);
      const KsSassFunction *f, *g;

      g_assert_no_error (error);
      f = ks_sass_find_function (l, cases[i].function, NULL);
      g = ks_sass_find_function (alone, cases[i].function, NULL);
      g_assert_nonnull (f);
      g_assert_cmpstr (f->arch, ==, cases[i].arch);
      g_assert_cmpuint (f->n_insns, ==, g->n_insns);
      for (uint32_t k = 0; k < f->n_insns; k++)
        {
          const KsSassInsn *x = &l->insns[f->first_insn + k], *y = &alone->insns[g->first_insn + k];

          g_assert_cmphex (x->words[0], ==, y->words[0]);
          g_assert_cmpuint (x->flags, ==, y->flags);
          g_assert_true (memcmp (&x->control, &y->control, sizeof x->control) == 0);
        }
    }
}

/* The CLI's JSON, through the executable */
static char *cli;

static JsonNode *
run_cli (const char *const *args,
         int                *exit_status,
         char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int wait_status = 0;
  JsonNode *node;

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, &out, err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  *exit_status = WEXITSTATUS (wait_status);
  node = json_from_string (out, &error);
  g_assert_no_error (error);
  return node;
}

static void
test_cli_json (void)
{
  g_autofree char *path = fixture_path ("01_gpumode_sgemm_naive.sm_86.cuobjdump.sass");
  g_autofree char *usage = g_test_build_filename (G_TEST_DIST, "fixtures",
                                                  "12_celeritas_copysign.sm_70.dump-resource-usage.txt", NULL);
  const char *args[] = { "sass", path, "--json", "--resources", usage, NULL };
  g_autofree char *err = NULL;
  int status;
  g_autoptr(JsonNode) root = run_cli (args, &status, &err);
  JsonObject *o = json_node_get_object (root);
  JsonArray *fns = json_object_get_array_member (o, "functions");
  JsonObject *fn, *in = NULL, *ctl;
  JsonArray *insns, *res;

  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (json_array_get_length (fns), ==, 1);
  fn = json_array_get_object_element (fns, 0);
  g_assert_cmpstr (json_object_get_string_member (fn, "name"), ==, "_Z11sgemm_naiveiiifPfPKffS_");
  g_assert_cmpstr (json_object_get_string_member (fn, "demangled"), ==,
                   "sgemm_naive(int, int, int, float, float*, float const*, float, float*)");
  g_assert_cmpstr (json_object_get_string_member (fn, "arch"), ==, "sm_86");
  insns = json_object_get_array_member (fn, "instructions");
  g_assert_cmpuint (json_array_get_length (insns), ==, 96);
  for (guint i = 0; i < json_array_get_length (insns); i++)
    {
      JsonObject *x = json_array_get_object_element (insns, i);

      /* offset is a number, 16 bytes a step */
      g_assert_cmpint (json_node_get_value_type (json_object_get_member (x, "offset")), ==, G_TYPE_INT64);
      g_assert_cmpint (json_object_get_int_member (x, "offset"), ==, 16 * i);
      if (json_object_get_int_member (x, "offset") == 0x260)
        in = x;
    }
  g_assert_nonnull (in);
  g_assert_cmpstr (json_object_get_string_member (in, "opcode"), ==, "LDG");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (in, "modifiers"), 0), ==, "E");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (in, "operands"), 1), ==,
                   "[R32.64]");
  g_assert_true (json_object_get_null_member (in, "predicate"));
  g_assert_cmpstr (json_object_get_string_member (in, "pipe"), ==, "MEM");
  g_assert_true (json_object_get_null_member (in, "source"));
  ctl = json_object_get_object_member (in, "control");
  g_assert_cmpint (json_object_get_int_member (ctl, "stall"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (ctl, "write_barrier"), ==, 2);
  g_assert_true (json_object_get_null_member (ctl, "read_barrier"));
  g_assert_cmpint (json_object_get_int_member (ctl, "wait_mask"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (ctl, "reuse"), ==, 0);
  g_assert_true (json_object_has_member (ctl, "yield"));

  /* "Function _Z11my_copysignPd: REG:9 ... CONSTANT[0]:360" */
  res = json_object_get_array_member (o, "resources");
  g_assert_cmpuint (json_array_get_length (res), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (res, 0), "name"), ==,
                   "_Z11my_copysignPd");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (res, 0), "registers"), ==, 9);
  /* another kernel's figures: no function of this listing */
  g_assert_true (json_object_get_null_member (json_array_get_object_element (res, 0), "function"));
}

/* ptxas -v names kernels demangled; the record finds the mangled function */
static void
test_cli_resources_match (void)
{
  static const char listing[] =
    "\t\tFunction : _Z10mysgemm_v7ILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_\n"
    "\t.headerflags\t@\"EF_CUDA_SM86 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM86)\"\n"
    "        /*0000*/                   EXIT ;                      /* 0x000000000000794d */\n"
    "                                                               /* 0x000fea0003800000 */\n";
  g_autofree char *dir = g_dir_make_tmp ("ks-sass-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "v7.sass", NULL);
  g_autofree char *ptxas = g_test_build_filename (G_TEST_DIST, "fixtures", "13_sgemm_cuda_ptxas_v.sm_86.txt", NULL);
  const char *args[] = { "sass", "--json", path, "--resources", ptxas, NULL };
  g_autofree char *err = NULL;
  int status;
  JsonArray *res;
  gboolean found = FALSE;

  g_assert_true (g_file_set_contents (path, listing, -1, NULL));
  {
    g_autoptr(JsonNode) root = run_cli (args, &status, &err);

    g_assert_cmpint (status, ==, 0);
    res = json_object_get_array_member (json_node_get_object (root), "resources");
    g_assert_cmpuint (json_array_get_length (res), >, 1);
    for (guint i = 0; i < json_array_get_length (res); i++)
      {
        JsonObject *r = json_array_get_object_element (res, i);

        if (!json_object_get_null_member (r, "function"))
          {
            /* "Used 124 registers, 16384 bytes smem, 400 bytes cmem[0]" */
            g_assert_false (found);
            found = TRUE;
            g_assert_cmpstr (json_object_get_string_member (r, "function"), ==,
                             "_Z10mysgemm_v7ILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_");
            g_assert_cmpint (json_object_get_int_member (r, "registers"), ==, 124);
            g_assert_cmpint (json_object_get_int_member (r, "shared_static_bytes"), ==, 16384);
          }
      }
    g_assert_true (found);
  }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_cli_source_lines (void)
{
  g_autofree char *path = fixture_path ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s");
  const char *args[] = { "sass", "--json", path, NULL };
  g_autofree char *err = NULL;
  int status;
  g_autoptr(JsonNode) root = run_cli (args, &status, &err);
  JsonArray *fns = json_object_get_array_member (json_node_get_object (root), "functions");
  JsonObject *fn = json_array_get_object_element (fns, 1);
  JsonObject *in = json_array_get_object_element (json_object_get_array_member (fn, "instructions"), 0x120 / 16);
  JsonObject *src = json_object_get_object_member (in, "source");

  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (fn, "name"), ==, "_Z8call_minPdPKd");
  g_assert_cmpstr (json_object_get_string_member (in, "opcode"), ==, "S2R");
  g_assert_cmpint (json_object_get_int_member (src, "line"), ==, 9);
  g_assert_true (json_object_get_null_member (in, "control"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (fn, "labels"), ".L_x_0"), ==, 0x2b0);
}

/* A listing cut short and a binary file that is no ELF: exit 1 with the
 * place (a real cubin is read: test-cli.c, test-cubin.c) */
static void
test_cli_bad_listing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-sass-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "cut.sass", NULL);
  /* binary, but no ELF: a cubin is told by its magic, not by being binary */
  g_autofree char *binary = g_build_filename (dir, "kernel.cubin", NULL);
  g_autofree char *err = NULL, *err2 = NULL;
  const char *args[] = { "sass", path, "--json", NULL };
  const char *args2[] = { "sass", binary, NULL };
  g_autofree char *want = NULL;
  int status;

  g_assert_true (g_file_set_contents (path, "\t\tFunction : f\n        /*0000*/   MOV R1, c[0x0][0x28]\n", -1, NULL));
  g_assert_true (g_file_set_contents (binary, "\x7f" "ELX\0\1\2", 7, NULL));
  {
    g_autoptr(JsonNode) root = run_cli (args, &status, &err);

    g_assert_cmpint (status, ==, 1);
    want = g_strdup_printf ("%s:2:1: error: ", path);
    g_assert_nonnull (strstr (err, want));
    g_assert_true (g_str_has_prefix (json_object_get_string_member (json_node_get_object (root), "error"), want));
  }
  {
    g_autoptr(GPtrArray) argv = g_ptr_array_new ();
    int wait_status;

    g_ptr_array_add (argv, cli);
    for (guint i = 0; args2[i]; i++)
      g_ptr_array_add (argv, (gpointer) args2[i]);
    g_ptr_array_add (argv, NULL);
    g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, NULL, &err2,
                                 &wait_status, NULL));
    g_assert_true (WIFEXITED (wait_status));
    g_assert_cmpint (WEXITSTATUS (wait_status), ==, 1);
    g_assert_nonnull (strstr (err2, ":1:1: error: binary data"));
  }
  g_unlink (path);
  g_unlink (binary);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli = g_strdup (g_getenv ("KS_CLI"));
  if (cli == NULL)
    cli = g_build_filename (g_test_get_dir (G_TEST_BUILT), "..", "src", "app", "kernelscope-cli", NULL);

  g_test_add_func ("/sass/parse/counts", test_counts);
  g_test_add_func ("/sass/parse/operands", test_operands);
  g_test_add_func ("/sass/parse/bad-input", test_bad_input);
  g_test_add_func ("/sass/parse/address-offsets", test_address_offsets);
  g_test_add_func ("/sass/parse/concatenated", test_concatenated_listings);
  g_test_add_func ("/sass/parse/ptx-section-skipped", test_ptx_section_skipped);
  g_test_add_func ("/sass/control/issue-example", test_control_example);
  g_test_add_func ("/sass/control/cuasm-ground-truth", test_control_cuasm);
  g_test_add_func ("/sass/control/reuse", test_control_reuse);
  g_test_add_func ("/sass/control/maxwell", test_control_maxwell);
  g_test_add_func ("/sass/control/maxwell-without-arch", test_maxwell_without_arch);
  g_test_add_func ("/sass/elf/text-equals-listing", test_elf_matches_listing);
  g_test_add_func ("/sass/lines/records", test_lineinfo);
  g_test_add_func ("/sass/lines/inlined", test_lineinfo_inlined);
  g_test_add_func ("/sass/lines/inline-chain", test_lineinfo_inline_chain);
  g_test_add_func ("/sass/lines/ptx-records", test_lineinfo_ptx_records);
  g_test_add_func ("/sass/lines/instructions-of-a-line", test_lines_to_insns);
  g_test_add_func ("/sass/match-function", test_match_function);
  g_test_add_func ("/sass/lines/ptx-to-sass", test_ptx_to_sass);
  g_test_add_func ("/sass/pipes", test_pipes);
  g_test_add_func ("/sass/decode/fixtures", test_decode_fixtures);
  g_test_add_func ("/sass/parse/operands-ada-blackwell", test_operands_ada_blackwell);
  g_test_add_func ("/sass/opcodes/fixtures-covered", test_opcodes_cover_fixtures);
  g_test_add_func ("/sass/opcodes/documented", test_opcodes_documented);
  g_test_add_func ("/sass/demangle", test_demangle);
  g_test_add_func ("/sass/display-text", test_display_text);
  g_test_add_func ("/sass/demangle-corpus", test_demangle_corpus);
  g_test_add_func ("/sass/cli/json", test_cli_json);
  g_test_add_func ("/sass/cli/source-lines", test_cli_source_lines);
  g_test_add_func ("/sass/cli/resources-match", test_cli_resources_match);
  g_test_add_func ("/sass/cli/bad-listing", test_cli_bad_listing);

  {
    int ret = g_test_run ();

    g_free (cli);
    return ret;
  }
}
