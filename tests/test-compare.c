/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Compare (issue 20): the line diff against a dynamic-programming longest
 * common subsequence, and the figures of the transpose samples 10, 11 and
 * 12 against what their code and launch make by arithmetic: requests per
 * warp and loop trip, 32-byte sectors of a 128-byte row or of 32 strided
 * floats, and the 32-way bank conflict of a 32 x 32 float tile's column. */

#include <math.h>
#include <string.h>

#include "ks-compare.h"

static char *
sample (const char *dir,
        const char *file)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", dir, file, NULL);
}

static KsAnalysis *
analyse (const char *dir,
         const char *spec)
{
  g_autofree char *path = sample (dir, spec);
  KsAnalysisRequest req;
  KsAnalysis *a;

  ks_analysis_request_init (&req);
  req.path = path;
  req.gpu = "rtx-4090";
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  return a;
}

/* ---- The diff ------------------------------------------------------------- */

static void
check_script (GArray      *diff,
              char       **la,
              guint        n,
              char       **lb,
              guint        m)
{
  guint next_a = 1, next_b = 1;

  for (guint i = 0; i < diff->len; i++)
    {
      const KsDiffLine *d = &g_array_index (diff, KsDiffLine, i);

      if (d->op != KS_DIFF_ADDED)
        g_assert_cmpuint (d->a_line, ==, next_a++);
      else
        g_assert_cmpuint (d->a_line, ==, 0);
      if (d->op != KS_DIFF_GONE)
        g_assert_cmpuint (d->b_line, ==, next_b++);
      else
        g_assert_cmpuint (d->b_line, ==, 0);
      if (d->op == KS_DIFF_SAME)
        g_assert_cmpstr (g_strchomp (la[d->a_line - 1]), ==, g_strchomp (lb[d->b_line - 1]));
    }
  /* every line of both, once, in order */
  g_assert_cmpuint (next_a, ==, n + 1);
  g_assert_cmpuint (next_b, ==, m + 1);
}

static guint
count_same (GArray *diff)
{
  guint same = 0;

  for (guint i = 0; i < diff->len; i++)
    same += g_array_index (diff, KsDiffLine, i).op == KS_DIFF_SAME;
  return same;
}

/* A hand-made case: one line replaced, one added at the end, trailing
 * white space and "\r" not a change */
static void
test_diff_example (void)
{
  g_autoptr(GArray) d = ks_line_diff ("a\nb  \nc\nd\n", "a\nx\nc\r\nd\ne\n");
  const KsDiffLine want[] = {
    { KS_DIFF_SAME, 1, 1 }, { KS_DIFF_GONE, 2, 0 }, { KS_DIFF_ADDED, 0, 2 },
    { KS_DIFF_SAME, 3, 3 }, { KS_DIFF_SAME, 4, 4 }, { KS_DIFF_ADDED, 0, 5 },
  };

  g_assert_cmpuint (d->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < d->len; i++)
    {
      const KsDiffLine *e = &g_array_index (d, KsDiffLine, i);

      g_assert_cmpuint (e->op, ==, want[i].op);
      g_assert_cmpuint (e->a_line, ==, want[i].a_line);
      g_assert_cmpuint (e->b_line, ==, want[i].b_line);
    }
  g_assert_cmpuint (ks_line_diff_b_line (d, 3), ==, 3);
  g_assert_cmpuint (ks_line_diff_b_line (d, 2), ==, 0);
  g_assert_cmpuint (ks_line_diff_a_line (d, 5), ==, 0);

  /* empty sides */
  {
    g_autoptr(GArray) e = ks_line_diff (NULL, "x\ny");
    g_autoptr(GArray) f = ks_line_diff ("x\ny\n", "");

    g_assert_cmpuint (e->len, ==, 2);
    g_assert_cmpuint (count_same (e), ==, 0);
    g_assert_cmpuint (f->len, ==, 2);
    g_assert_cmpuint (g_array_index (f, KsDiffLine, 1).op, ==, KS_DIFF_GONE);
  }
}

/* The longest common subsequence by the textbook O(nm) table */
static guint
lcs_reference (char **la,
               guint  n,
               char **lb,
               guint  m)
{
  g_autofree guint *t = g_new0 (guint, (n + 1) * (m + 1));

  for (guint i = 1; i <= n; i++)
    for (guint j = 1; j <= m; j++)
      t[i * (m + 1) + j] = g_str_equal (la[i - 1], lb[j - 1])
                             ? t[(i - 1) * (m + 1) + j - 1] + 1
                             : MAX (t[(i - 1) * (m + 1) + j], t[i * (m + 1) + j - 1]);
  return t[n * (m + 1) + m];
}

static char *
random_text (GRand *r,
             guint  n)
{
  GString *s = g_string_new (NULL);
  static const char *const words[] = { "x = 1;", "y += x;", "}", "__syncthreads();", "" };

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s\n", words[g_rand_int_range (r, 0, G_N_ELEMENTS (words))]);
  return g_string_free (s, FALSE);
}

/* Random texts: the diff is a valid script and keeps as many lines as the
 * longest common subsequence (Myers' diff is a shortest edit script) */
static void
test_diff_random (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (20);

  for (guint round = 0; round < 400; round++)
    {
      guint n = (guint) g_rand_int_range (r, 0, 40), m = (guint) g_rand_int_range (r, 0, 40);
      g_autofree char *a = random_text (r, n);
      g_autofree char *b = random_text (r, m);
      g_auto(GStrv) la = g_strsplit (a, "\n", -1);
      g_auto(GStrv) lb = g_strsplit (b, "\n", -1);
      g_autoptr(GArray) d = ks_line_diff (a, b);

      check_script (d, la, n, lb, m);
      g_assert_cmpuint (count_same (d), ==, lcs_reference (la, n, lb, m));
    }
}

/* Big texts: a few edits in 30000 lines stay exact; two texts with nothing
 * in common are all gone and all added (past the diff's edit budget) */
static void
test_diff_large (void)
{
  GString *a = g_string_new (NULL), *b = g_string_new (NULL), *c = g_string_new (NULL);
  g_autoptr(GArray) d1 = NULL;
  g_autoptr(GArray) d2 = NULL;

  for (guint i = 0; i < 30000; i++)
    {
      g_string_append_printf (a, "line %u\n", i);
      if (i % 10000 != 5)
        g_string_append_printf (b, "line %u\n", i);
      else
        g_string_append_printf (b, "changed %u\n", i);
      g_string_append_printf (c, "other %u\n", i);
    }
  d1 = ks_line_diff (a->str, b->str);
  g_assert_cmpuint (count_same (d1), ==, 30000 - 3);
  g_assert_cmpuint (d1->len, ==, 30000 + 3);
  d2 = ks_line_diff (a->str, c->str);
  g_assert_cmpuint (count_same (d2), ==, 0);
  g_assert_cmpuint (d2->len, ==, 60000);
  g_string_free (a, TRUE);
  g_string_free (b, TRUE);
  g_string_free (c, TRUE);
}

/* ---- The figures ------------------------------------------------------------ */

/* The transposes' launch: grid 32 x 24 of 32 x 8 threads, each thread
 * moving TILE / ROWS = 4 elements in and 4 out */
#define BLOCKS (32 * 24)
#define WARPS_PER_BLOCK 8
#define TRIPS 4
#define REQUESTS ((double) BLOCKS * WARPS_PER_BLOCK * TRIPS)   /* of each access */

static const KsFigureChange *
get (const KsComparison *c,
     const char         *id)
{
  const KsFigureChange *f = ks_comparison_get (c, id);

  g_assert_nonnull (f);
  return f;
}

static void
test_transposes (void)
{
  g_autoptr(KsAnalysis) naive = analyse ("10-transpose-naive", "transpose_naive.json");
  g_autoptr(KsAnalysis) tiled = analyse ("11-transpose-tiled", "transpose_tiled.json");
  g_autoptr(KsAnalysis) padded = analyse ("12-transpose-padded", "transpose_padded.json");
  g_autoptr(KsComparison) c1 = ks_comparison_new (naive, tiled, 0, 40);
  g_autoptr(KsComparison) c2 = ks_comparison_new (tiled, padded, 40, 34);
  const KsFigureChange *f;

  /* 10 -> 11: each warp reads a 128-byte row (4 sectors) and, naive,
   * writes 32 floats a row apart (32 sectors); tiled, both are rows */
  f = get (c1, "sectors_per_request");
  g_assert_cmpfloat (f->a, ==, (4 + 32) / 2.0);
  g_assert_cmpfloat (f->b, ==, 4);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_BETTER);
  f = get (c1, "gmem_sectors");
  g_assert_cmpfloat (f->a, ==, REQUESTS * (4 + 32));
  g_assert_cmpfloat (f->b, ==, REQUESTS * (4 + 4));
  /* the tile's column: 32 lanes, 32 words apart, one bank: 31 passes more
   * than the one a conflict-free read takes, for each read */
  f = get (c1, "shared_wavefronts_excess");
  g_assert_cmpfloat (f->a, ==, 0);
  g_assert_cmpfloat (f->b, ==, REQUESTS * 31);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_WORSE);
  f = get (c1, "shared_wavefronts_per_request");
  g_assert_false (f->has_a);                    /* the naive one has no shared memory */
  g_assert_cmpfloat (f->b, ==, (1 + 32) / 2.0);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_NONE);
  /* the tile: 32 x 32 floats */
  f = get (c1, "shared_bytes");
  g_assert_cmpfloat (f->b, ==, 32 * 32 * 4);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_DIFFERENT);

  /* 11 -> 12: the padded tile (33 words a row) puts a column's 32 words in
   * 32 banks */
  f = get (c2, "shared_wavefronts_excess");
  g_assert_cmpfloat (f->a, ==, REQUESTS * 31);
  g_assert_cmpfloat (f->b, ==, 0);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_BETTER);
  g_assert_cmpfloat (ks_figure_change_ratio (f), ==, 0);
  f = get (c2, "shared_wavefronts_per_request");
  g_assert_cmpfloat (f->b, ==, 1);
  f = get (c2, "shared_bytes");
  g_assert_cmpfloat (f->b, ==, 32 * 33 * 4);
  f = get (c2, "sectors_per_request");
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_NONE);
  /* the same GPU, the same words */
  f = get (c2, "limiter");
  g_assert_nonnull (f->word_a);
  /* the bank-conflict hint on line 40 is gone, and nothing of its kind came */
  {
    gboolean gone = FALSE;

    for (guint i = 0; i < c2->hints_gone->len; i++)
      {
        const KsHint *h = c2->hints_gone->pdata[i];

        gone |= g_str_equal (h->category, "shared-memory") && h->cuda_line == 40;
      }
    g_assert_true (gone);
    for (guint i = 0; i < c2->hints_added->len; i++)
      g_assert_cmpstr (((const KsHint *) c2->hints_added->pdata[i])->category, !=,
                       "shared-memory");
  }
  /* the samples' CUDA was found beside their PTX and diffed */
  g_assert_nonnull (c2->cuda_a);
  g_assert_nonnull (c2->cuda_diff);
  /* the read of the column, line 40 of 11 and 34 of 12 (its comments are
   * shorter), is the same text */
  g_assert_cmpuint (ks_line_diff_b_line (c2->cuda_diff, 40), ==, 34);
  g_assert_cmpuint (ks_line_diff_a_line (c2->cuda_diff, 34), ==, 40);

  /* the JSON of `compare --json` */
  {
    g_autoptr(JsonNode) root = ks_comparison_to_json (c2);
    JsonObject *o = json_node_get_object (root);
    JsonArray *changes = json_object_get_array_member (o, "changes");
    gboolean seen = FALSE;

    g_assert_true (json_object_has_member (o, "a"));
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "b"),
                                                    "kernel"), ==, padded->kernel_name);
    for (guint i = 0; i < json_array_get_length (changes); i++)
      {
        JsonObject *e = json_array_get_object_element (changes, i);

        if (!g_str_equal (json_object_get_string_member (e, "figure"), "shared_wavefronts_excess"))
          continue;
        seen = TRUE;
        g_assert_cmpfloat (json_object_get_double_member (e, "a"), ==, REQUESTS * 31);
        g_assert_cmpfloat (json_object_get_double_member (e, "change"), ==, -REQUESTS * 31);
        g_assert_true (json_object_get_boolean_member (e, "better"));
      }
    g_assert_true (seen);
  }
}

/* The bank-conflict wavefronts beyond the ideal of one block of Harris's
 * kernel 2 (index = 2 * s * tid; sdata[index] += sdata[index + s] while
 * index < blockDim.x), counted here lane by lane: for each s, each warp
 * with an active lane makes three requests (two loads, one store), each
 * taking as many passes as the most distinct words one bank serves */
static double
harris2_excess_per_block (guint block)
{
  double excess = 0;

  for (guint s = 1; s < block; s *= 2)
    for (guint warp = 0; warp < block / 32; warp++)
      for (guint access = 0; access < 3; access++)
        {
          guint words[32][32], n_words[32] = { 0 }, worst = 0, lanes = 0;

          for (guint lane = 0; lane < 32; lane++)
            {
              guint tid = warp * 32 + lane, index = 2 * s * tid;
              guint word = index + (access == 1 ? s : 0), bank = word % 32;
              gboolean seen = FALSE;

              if (index >= block)
                continue;
              lanes++;
              for (guint k = 0; k < n_words[bank]; k++)
                seen |= words[bank][k] == word;
              if (!seen)
                words[bank][n_words[bank]++] = word;
            }
          for (guint b = 0; b < 32; b++)
            worst = MAX (worst, n_words[b]);
          if (lanes > 0)
            excess += worst - 1;
        }
  return excess;
}

/* Harris's reduction, kernels 1 to 3 (tests/fixtures/compare): 1 to 2
 * trades the divergent branch for bank conflicts, 2 to 3 removes them, as
 * the slides say; the counts against the reference above */
static void
test_harris (void)
{
  g_autofree char *p1 = g_test_build_filename (G_TEST_DIST, "fixtures", "compare", "reduce1.json", NULL);
  g_autofree char *p2 = g_test_build_filename (G_TEST_DIST, "fixtures", "compare", "reduce2.json", NULL);
  g_autofree char *p3 = g_test_build_filename (G_TEST_DIST, "fixtures", "compare", "reduce3.json", NULL);
  KsAnalysisRequest req;
  g_autoptr(KsAnalysis) k1 = NULL;
  g_autoptr(KsAnalysis) k2 = NULL;
  g_autoptr(KsAnalysis) k3 = NULL;
  g_autoptr(KsComparison) c12 = NULL;
  g_autoptr(KsComparison) c23 = NULL;
  const double excess = 1024 * harris2_excess_per_block (128);
  const KsFigureChange *f;
  gboolean conflict_hint = FALSE;

  ks_analysis_request_init (&req);
  req.gpu = "a100-sxm4-80gb";
  req.use_toolkit = FALSE;
  req.path = p1;
  k1 = ks_analysis_run (&req, NULL, NULL, NULL);
  req.path = p2;
  k2 = ks_analysis_run (&req, NULL, NULL, NULL);
  req.path = p3;
  k3 = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (k1->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpint (k2->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpint (k3->status, ==, KS_ANALYSIS_OK);
  c12 = ks_comparison_new (k1, k2, 0, 0);
  c23 = ks_comparison_new (k2, k3, 0, 0);

  /* (45 a block: 2 warps of 2-way at s = 1, then 4-way down to s = 16) */
  g_assert_cmpfloat (excess, ==, 1024 * 45);
  f = get (c12, "shared_wavefronts_excess");
  g_assert_cmpfloat (f->a, ==, 0);
  g_assert_cmpfloat (f->b, ==, excess);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_WORSE);
  f = get (c12, "divergent_branches");
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_BETTER);
  f = get (c23, "shared_wavefronts_excess");
  g_assert_cmpfloat (f->b, ==, 0);
  g_assert_cmpint (f->verdict, ==, KS_CHANGE_BETTER);
  /* the hints say it too: 2 to 3, the conflict on the strided line went */
  for (guint i = 0; i < c23->hints_gone->len; i++)
    conflict_hint |= g_str_equal (((const KsHint *) c23->hints_gone->pdata[i])->category,
                                  "shared-memory");
  g_assert_true (conflict_hint);
  /* and the model's time goes down each step, as on the G80 of the slides
   * (8.05, 3.46, 1.72 ms there) */
  g_assert_cmpint (get (c12, "estimated_duration_us")->verdict, ==, KS_CHANGE_BETTER);
  g_assert_cmpint (get (c23, "estimated_duration_us")->verdict, ==, KS_CHANGE_BETTER);
}

/* An analysis against itself: nothing changed, no hint came or went */
static void
test_same (void)
{
  g_autoptr(KsAnalysis) a = analyse ("14-reduce-interleaved", "reduce_interleaved.json");
  g_autoptr(KsComparison) c = ks_comparison_new (a, a, 0, 0);

  g_assert_cmpuint (c->changes->len, >, 10);
  for (guint i = 0; i < c->changes->len; i++)
    {
      const KsFigureChange *f = &g_array_index (c->changes, KsFigureChange, i);
      g_autofree char *d = ks_figure_change_format_delta (f);

      g_assert_cmpint (f->verdict, ==, KS_CHANGE_NONE);
      if (f->has_a)
        g_assert_cmpstr (d, ==, "=");
    }
  g_assert_cmpuint (c->hints_added->len, ==, 0);
  g_assert_cmpuint (c->hints_gone->len, ==, 0);
  /* a is the reduction with a divergent branch */
  g_assert_cmpfloat (get (c, "divergent_branches")->a, >, 0);
  g_assert_cmpfloat (get (c, "simt_efficiency")->a, <, 1);
}

/* A hint whose line only moved is the same hint: the PTX with lines added
 * above the kernel */
static void
test_moved_hint (void)
{
  g_autofree char *path = sample ("11-transpose-tiled", "transpose_tiled.json");
  g_autofree char *ptx_path = sample ("11-transpose-tiled", "transpose_tiled.ptx");
  g_autofree char *ptx = NULL, *moved = NULL;
  g_autoptr(KsAnalysis) a = analyse ("11-transpose-tiled", "transpose_tiled.json");
  g_autoptr(KsAnalysis) b = NULL;
  g_autoptr(KsComparison) c = NULL;
  KsAnalysisRequest req;
  const char *entry;

  g_assert_true (g_file_get_contents (ptx_path, &ptx, NULL, NULL));
  entry = strstr (ptx, ".visible .entry");
  g_assert_nonnull (entry);
  moved = g_strdup_printf ("%.*s// one\n// two\n// three\n%s", (int) (entry - ptx), ptx, entry);
  ks_analysis_request_init (&req);
  req.path = ptx_path;
  req.text = moved;
  req.gpu = "rtx-4090";
  req.use_toolkit = FALSE;
  /* the spec's launch over the edited PTX: analyse the spec's launch by
   * hand (the PTX alone gets the default launch) */
  {
    g_autoptr(KsAnalysis) spec = analyse ("11-transpose-tiled", "transpose_tiled.json");

    req.launch = spec->launch;
    b = ks_analysis_run (&req, NULL, NULL, NULL);
  }
  g_assert_cmpint (b->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpuint (a->hints->len, >, 0);
  c = ks_comparison_new (a, b, 0, 0);
  g_assert_cmpuint (c->hints_added->len, ==, 0);
  g_assert_cmpuint (c->hints_gone->len, ==, 0);
  g_assert_cmpint (get (c, "shared_wavefronts_excess")->verdict, ==, KS_CHANGE_NONE);
  (void) path;
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/diff/example", test_diff_example);
  g_test_add_func ("/compare/diff/random", test_diff_random);
  g_test_add_func ("/compare/diff/large", test_diff_large);
  g_test_add_func ("/compare/transposes", test_transposes);
  g_test_add_func ("/compare/same", test_same);
  g_test_add_func ("/compare/harris", test_harris);
  g_test_add_func ("/compare/moved-hint", test_moved_hint);
  return g_test_run ();
}
