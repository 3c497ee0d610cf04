/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sass-loops.c: the loops of SASS functions and the PTX loops they
 * run (ks-sass-loops.h), against what ptxas made of real kernels:
 *
 * - CUDA 11.8's cuobjdump listing of the SGEMM ladder (tests/fixtures/lower),
 *   read by hand: in sgemm_global_mem_coalesce the loop from 0x250 to its
 *   back edge at 0x6a0 holds 16 FFMA and 32 LDG where the PTX loop
 *   $L__BB1_4 holds 4 fma and 8 ld.global (ptxas unrolled it 4 times);
 *   0x950-0xac0 is one copy of the same PTX loop (4 FFMA), and 0xb70-0xbf0
 *   the remainder loop $L__BB1_7 (1 FFMA).  In the blocktiling kernels the
 *   inner loop over BK = 8 (the template's third argument) is unrolled
 *   whole into the outer one: 8 iterations, or 4 in sgemm1DBlocktiling,
 *   whose PTX loop nvcc already unrolled twice;
 * - the sample listings made by nvdisasm -gi (line records): the loop of
 *   matmul_tiled.cu's line 29 (`for (int t = 0; ...)`), and
 *   divergence.cu, whose two loops ptxas put in the other order;
 * - a cubin read without a disassembler (branch targets and widths from
 *   the words) against nvdisasm's listing of the same cubin. */

#include <string.h>

#include "ks-sass-cubin.h"
#include "ks-sass-loops.h"

/* A file under tests/ (dir "fixtures", ...) or a sample's (dir "data") */
static char *
read_text (const char *dir,
           const char *a,
           const char *b,
           gsize      *len)
{
  g_autofree char *path = NULL;
  char *text = NULL;

  if (strcmp (dir, "data") == 0)
    path = g_build_filename (g_getenv ("KS_DATA_DIR"), "samples", a, b, NULL);
  else
    path = g_test_build_filename (G_TEST_DIST, dir, a, b, NULL);
  g_assert_true (g_file_get_contents (path, &text, len, NULL));
  return text;
}

static KsSassListing *
parse_listing (const char *text)
{
  g_autoptr(GError) error = NULL;
  KsSassListing *l = ks_sass_parse (text, strlen (text), "test.sass", &error);

  g_assert_no_error (error);
  return l;
}

static KsPtxModule *
parse_ptx (const char *text)
{
  g_autoptr(GBytes) b = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (b, "test.ptx");

  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

static uint32_t
ptx_function (const KsPtxModule *m,
              const char        *name)
{
  for (uint32_t f = 0; f < m->n_functions; f++)
    if (m->functions[f].name.len == strlen (name)
        && strncmp (m->text + m->functions[f].name.offset, name, strlen (name)) == 0)
      return f;
  g_error ("no PTX function %s", name);
  return 0;
}

/* The PTX line of the first line of function f that contains needle */
static uint32_t
ptx_line_of (const KsPtxModule *m,
             uint32_t           f,
             const char        *needle)
{
  g_autofree char *text = g_strndup (m->text, m->text_len);  /* the module's has no NUL */
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (uint32_t i = m->functions[f].line; lines[i - 1] != NULL; i++)
    if (strstr (lines[i - 1], needle) != NULL)
      return i;
  g_error ("no line with %s", needle);
  return 0;
}

/* The SASS and PTX loops of kernel name, matched */
typedef struct
{
  KsLoopSet *sass, *ptx;
  const KsSassListing *l;
  const KsPtxModule *m;
} Pair;

static Pair
loops_of (const KsSassListing *l,
          const KsPtxModule   *m,
          const char          *name)
{
  const KsSassFunction *fn = ks_sass_find_function (l, name, NULL);
  g_autoptr(GError) error = NULL;
  Pair p = { .l = l, .m = m };

  g_assert_nonnull (fn);
  p.sass = ks_loops_from_sass (l, fn, &error);
  g_assert_no_error (error);
  p.ptx = ks_loops_from_ptx (m, ptx_function (m, name));
  ks_loops_match (p.sass, p.ptx);
  return p;
}

static void
pair_clear (Pair *p)
{
  ks_loop_set_free (p->sass);
  ks_loop_set_free (p->ptx);
}

static void
assert_loop (const Pair *p,
             uint32_t    k,
             uint64_t    first,
             uint64_t    back_edge,
             uint32_t    ptx_back_edge_line,
             uint32_t    unroll)
{
  const KsLoop *s = &p->sass->loops[k];

  g_assert_cmpuint (p->l->insns[s->first_insn].offset, ==, first);
  g_assert_cmpuint (p->l->insns[s->back_edge].offset, ==, back_edge);
  g_assert_cmpuint (s->match, !=, KS_LOOP_NONE);
  g_assert_cmpuint (p->m->insns[p->ptx->loops[s->match].back_edge].line, ==, ptx_back_edge_line);
  g_assert_cmpuint (s->unroll, ==, unroll);
}

static void
test_ladder (void)
{
  g_autofree char *st = read_text ("fixtures", "lower", "sgemm_ladder.sm_86.cuobjdump.sass", NULL);
  g_autofree char *pt = read_text ("fixtures", "lower", "sgemm_ladder.sm_86.ptx", NULL);
  g_autoptr(KsSassListing) l = parse_listing (st);
  g_autoptr(KsPtxModule) m = parse_ptx (pt);
  const char *coalesce = "_Z25sgemm_global_mem_coalesceILj32EEviiifPKfS1_fPf";
  const char *naive = "_Z11sgemm_naiveiiifPKfS0_fPf";
  const char *tiled[] = { "_Z18sgemm1DBlocktilingILi64ELi64ELi8ELi8EEviiifPKfS1_fPf",
                          "_Z18sgemm2DBlocktilingILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf",
                          "_Z14sgemmVectorizeILi128ELi128ELi8ELi8ELi8EEviiifPfS0_fS0_" };
  const uint32_t trips[] = { 4, 8, 8 };
  Pair p = loops_of (l, m, coalesce);
  uint32_t f = ptx_function (m, coalesce);
  uint32_t main_loop = ptx_line_of (m, f, "bra \t$L__BB1_4;");
  uint32_t rest_loop = ptx_line_of (m, f, "bra \t$L__BB1_7;");

  g_assert_cmpuint (p.sass->n_loops, ==, 3);
  g_assert_cmpuint (p.ptx->n_loops, ==, 2);
  assert_loop (&p, 0, 0x250, 0x6a0, main_loop, 4);
  assert_loop (&p, 1, 0x950, 0xac0, main_loop, 1);
  assert_loop (&p, 2, 0xb70, 0xbf0, rest_loop, 1);
  /* 16 FFMA and 32 LDG (4 bytes each) in the first */
  g_assert_cmpuint (p.sass->loops[0].flops, ==, 32);
  g_assert_cmpuint (p.sass->loops[0].global_bytes, ==, 128);
  g_assert_cmpuint (p.sass->loops[0].depth, ==, 1);
  pair_clear (&p);

  p = loops_of (l, m, naive);
  g_assert_cmpuint (p.sass->n_loops, ==, 2);
  f = ptx_function (m, naive);
  assert_loop (&p, 0, 0x1e0, 0x3e0, ptx_line_of (m, f, "bra \t$L__BB0_4;"), 1);
  assert_loop (&p, 1, 0x420, 0x4c0, ptx_line_of (m, f, "bra \t$L__BB0_7;"), 1);
  pair_clear (&p);

  for (guint k = 0; k < G_N_ELEMENTS (tiled); k++)
    {
      const KsLoop *s;

      p = loops_of (l, m, tiled[k]);
      g_assert_cmpuint (p.ptx->n_loops, ==, 2);
      g_assert_cmpuint (p.ptx->loops[1].parent, ==, 0);
      g_assert_cmpuint (p.ptx->loops[1].depth, ==, 2);
      g_assert_cmpuint (p.sass->n_loops, ==, 1);
      s = &p.sass->loops[0];
      g_assert_cmpuint (s->match, ==, 0);
      g_assert_cmpuint (s->unroll, ==, 1);
      g_assert_cmpuint (s->inner, ==, 1);
      g_assert_cmpuint (s->inner_trips, ==, trips[k]);
      pair_clear (&p);
    }
}

/* nvdisasm -gi listings: the CUDA lines say which loop is which */
static void
test_lines (void)
{
  g_autofree char *st = read_text ("data", "22-matmul-tiled", "sass/matmul_tiled.sm_86.sass", NULL);
  g_autofree char *pt = read_text ("data", "22-matmul-tiled", "matmul_tiled.ptx", NULL);
  g_autofree char *cu = read_text ("data", "22-matmul-tiled", "matmul_tiled.cu", NULL);
  g_autofree char *dst = read_text ("data", "05-divergence", "sass/divergence.sm_86.sass", NULL);
  g_autofree char *dpt = read_text ("data", "05-divergence", "divergence.ptx", NULL);
  g_autoptr(KsSassListing) l = parse_listing (st);
  g_autoptr(KsPtxModule) m = parse_ptx (pt);
  g_autoptr(KsSassListing) dl = parse_listing (dst);
  g_autoptr(KsPtxModule) dm = parse_ptx (dpt);
  g_auto(GStrv) cu_lines = g_strsplit (cu, "\n", -1);
  Pair p = loops_of (l, m, "_Z12matmul_tiledPKfS0_Pfi");

  g_assert_cmpuint (p.sass->n_loops, ==, 1);
  g_assert_cmpuint (p.sass->loops[0].cuda_line, ==, 29);
  g_assert_nonnull (strstr (cu_lines[28], "for (int t = 0;"));
  g_assert_cmpuint (p.sass->loops[0].match, ==, 0);
  g_assert_cmpuint (p.ptx->loops[0].cuda_line, ==, 29);
  g_assert_cmpuint (p.sass->loops[0].unroll, ==, 1);
  /* 16 FFMA a tile, as the CUDA's TILE = 16 multiply-adds */
  g_assert_cmpuint (p.sass->loops[0].flops, ==, 32);
  g_assert_false (p.sass->loops[0].estimated);
  /* the flow around the loop, as the listing reads: `@!P1 BRA .L_x_0` at
   * 0x0d0 goes to 0x510 or on; `@P0 EXIT` at 0x510 ends or goes on; the
   * EXIT at 0x560 ends; the MOV at 0x520 goes on */
  {
    const KsSassFunction *fn = ks_sass_find_function (l, "_Z12matmul_tiledPKfS0_Pfi", NULL);
    uint32_t at[4] = { 0 };
    const uint64_t offsets[4] = { 0x0d0, 0x510, 0x560, 0x520 };

    for (uint32_t k = 0; k < 4; k++)
      for (uint32_t i = 0; i < fn->n_insns; i++)
        if (l->insns[fn->first_insn + i].offset == offsets[k])
          at[k] = i;
    g_assert_cmpuint (p.sass->flow[at[0]], ==,
                      KS_SASS_FLOW_BRANCH | KS_SASS_FLOW_ON | KS_SASS_FLOW_PREDICATED);
    g_assert_cmpuint (l->insns[p.sass->target[at[0]]].offset, ==, 0x510);
    g_assert_cmpuint (p.sass->flow[at[1]], ==,
                      KS_SASS_FLOW_END | KS_SASS_FLOW_ON | KS_SASS_FLOW_PREDICATED);
    g_assert_cmpuint (p.sass->flow[at[2]], ==, KS_SASS_FLOW_END);
    g_assert_cmpuint (p.sass->flow[at[3]], ==, KS_SASS_FLOW_ON);
    g_assert_cmpuint (p.sass->target[at[1]], ==, KS_LOOP_NONE);
  }
  pair_clear (&p);

  /* divergence.cu's loops at lines 26 and 35 (work_a, work_b) do integer
   * work only and are inlined twice each: the PTX has them in the order
   * of the calls, 26 35 26 35; ptxas put each work_b first */
  {
    uint32_t seen = 0;

    p = loops_of (dl, dm, "_Z10divergencePKjPjS1_i");
    g_assert_cmpuint (p.ptx->n_loops, ==, 4);
    g_assert_cmpuint (p.ptx->loops[0].cuda_line, ==, 26);
    g_assert_cmpuint (p.ptx->loops[1].cuda_line, ==, 35);
    g_assert_cmpuint (p.sass->n_loops, ==, 4);
    for (uint32_t k = 0; k < 4; k++)
      {
        const KsLoop *s = &p.sass->loops[k];

        g_assert_cmpuint (s->cuda_line, ==, k % 2 == 0 ? 35 : 26);
        g_assert_cmpuint (s->match, !=, KS_LOOP_NONE);
        g_assert_cmpuint (p.ptx->loops[s->match].cuda_line, ==, s->cuda_line);
        g_assert_cmpuint (s->unroll, ==, 1);
        g_assert_true (s->estimated);
        seen |= 1u << s->match;
      }
    /* each PTX copy once */
    g_assert_cmpuint (seen, ==, 0xf);
    pair_clear (&p);
  }
}

/* A cubin read without a disassembler gives the loops nvdisasm's listing of
 * it gives */
static void
test_cubin_words (void)
{
  gsize len;
  g_autofree char *bin = read_text ("fixtures", "cubin", "matmul_tiled.sm_89.cubin", &len);
  g_autofree char *dis = read_text ("fixtures", "cubin", "matmul_tiled.sm_89.nvdisasm.s", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) words = ks_sass_cubin_read ((const guint8 *) bin, len, "m.cubin",
                                                       &error);
  g_autoptr(KsSassListing) listing = parse_listing (dis);
  guint compared = 0;

  g_assert_no_error (error);
  for (uint32_t f = 0; f < listing->n_functions; f++)
    {
      const KsSassFunction *fa = &listing->functions[f];
      const KsSassFunction *fb = ks_sass_find_function (words, fa->name, NULL);
      g_autoptr(KsLoopSet) a = NULL;
      g_autoptr(KsLoopSet) b = NULL;

      g_assert_nonnull (fb);
      g_assert_null (words->insns[fb->first_insn].opcode);
      a = ks_loops_from_sass (listing, fa, &error);
      g_assert_no_error (error);
      b = ks_loops_from_sass (words, fb, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (a->n_loops, ==, b->n_loops);
      g_assert_cmpuint (a->n_blocks, ==, b->n_blocks);
      for (uint32_t k = 0; k < a->n_loops; k++)
        {
          const KsLoop *x = &a->loops[k], *y = &b->loops[k];

          g_assert_cmpuint (listing->insns[x->first_insn].offset, ==,
                            words->insns[y->first_insn].offset);
          g_assert_cmpuint (listing->insns[x->back_edge].offset, ==,
                            words->insns[y->back_edge].offset);
          g_assert_cmpuint (x->depth, ==, y->depth);
          g_assert_cmpuint (x->n_insns, ==, y->n_insns);
          g_assert_cmpuint (x->flops, ==, y->flops);
          g_assert_cmpuint (x->shared_bytes, ==, y->shared_bytes);
          g_assert_cmpuint (x->global_bytes, ==, y->global_bytes);
          g_assert_false (y->uncertain);
          compared++;
        }
      /* the flow the timing model walks, from the words as from nvdisasm's
       * text: what each instruction does, its guard, a branch's target */
      g_assert_cmpuint (fa->n_insns, ==, fb->n_insns);
      for (uint32_t i = 0; i < fa->n_insns; i++)
        {
          g_assert_cmpuint (a->flow[i], ==, b->flow[i]);
          g_assert_cmpuint (a->target[i] == KS_LOOP_NONE, ==, b->target[i] == KS_LOOP_NONE);
          if (a->target[i] != KS_LOOP_NONE)
            g_assert_cmpuint (listing->insns[a->target[i]].offset, ==,
                              words->insns[b->target[i]].offset);
        }
    }
  g_assert_cmpuint (compared, >=, 1);
}

/* Flow that cannot be known is refused, with the place */
static void
test_refused (void)
{
  const char *cases[][2] = {
    { "BRX R2 -0x60 ;", "takes its target from a register" },
    { "BRA 0x1000 ;", "is not an instruction of the function" },
    { "SYNC ;", "the reconvergence stack" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *text = g_strdup_printf (
        "\tcode for sm_86\n\t\tFunction : f\n"
        "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
        "        /*0010*/                   %s\n"
        "        /*0020*/                   EXIT ;\n", cases[k][0]);
      g_autoptr(KsSassListing) l = parse_listing (text);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsLoopSet) set = ks_loops_from_sass (l, &l->functions[0], &error);

      g_assert_null (set);
      g_assert_error (error, KS_SASS_ERROR, KS_SASS_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, cases[k][1]));
      g_assert_nonnull (strstr (error->message, "0010"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sass/loops/ladder", test_ladder);
  g_test_add_func ("/sass/loops/lines", test_lines);
  g_test_add_func ("/sass/loops/cubin-words", test_cubin_words);
  g_test_add_func ("/sass/loops/refused", test_refused);
  return g_test_run ();
}
