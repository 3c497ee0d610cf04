/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sample library (data/samples, docs/SAMPLES.md).
 *
 * Every sample of index.json is loaded from its launch spec, its committed
 * PTX parsed (no errors), run in the simulator, and each of its output
 * buffers compared with a reference written here in plain C from the same
 * inputs: bit for bit where the kernel's order of operations is fixed (the
 * references replay the kernel's tree or shuffle order and its fused
 * multiply-adds), within a stated tolerance where it is not (softmax's
 * expf).  Each sample also has its teaching point checked from the run's
 * per-instruction statistics, with the figures worked out from the access
 * pattern (32 lanes 32 bytes apart touch 32 sectors...): a sample whose
 * lesson no longer shows is a broken sample.  Then the catalogue itself,
 * the spill and shared-memory-occupancy samples against their `ptxas -v`
 * reports, and, with nvcc, the committed PTX against a fresh compile. */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ks-analysis.h"
#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-ptx.h"
#include "ks-resources.h"
#include "ks-sim.h"
#include "ks-test-sim-compare.h"

#define ANY_SPACE (-1)

typedef struct
{
  const char *dir;              /* "01-vector-add" */
  char *folder;
  char *cuda_text;              /* NAME.cu */
  KsPtxModule *module;
  KsLaunch *launch;
  KsSim *sim;
  uint64_t checked;             /* one bit per buffer compared */
} Sample;

/* ---- helpers ------------------------------------------------------------ */

static char *
samples_folder (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
}

static int
buffer_index (Sample     *s,
              const char *name)
{
  int i = ks_launch_find_buffer (s->launch, name);

  if (i < 0)
    g_error ("%s: the spec has no buffer %s", s->dir, name);
  return i;
}

/* The buffer's contents before the run (the kernel's inputs) */
static const void *
input (Sample     *s,
       const char *name,
       KsPtxType   type,
       uint64_t   *count)
{
  const KsLaunchBuffer *b = &s->launch->buffers[buffer_index (s, name)];

  g_assert_cmpstr (ks_ptx_type_name (b->type), ==, ks_ptx_type_name (type));
  if (count != NULL)
    *count = b->count;
  /* (a range or random values are a recipe until made; the simulator
   * made its own copy as it allocated the buffer) */
  if (b->data == NULL)
    g_assert_true (ks_launch_materialize (s->launch));
  return b->data;
}

/* The buffer's contents after the run; counts as compared */
static const void *
output (Sample     *s,
        const char *name,
        KsPtxType   type,
        uint64_t   *count)
{
  int i = buffer_index (s, name);
  const KsLaunchBuffer *b = &s->launch->buffers[i];
  size_t size = 0;
  const void *data = ks_sim_get_buffer (s->sim, (uint32_t) i, &size);

  g_assert_cmpstr (ks_ptx_type_name (b->type), ==, ks_ptx_type_name (type));
  g_assert_cmpuint (size, ==, b->size);
  if (count != NULL)
    *count = b->count;
  s->checked |= G_GUINT64_CONSTANT (1) << i;
  return data;
}

static int32_t
param_s32 (Sample  *s,
           uint32_t i)
{
  g_assert_cmpuint (i, <, s->launch->n_params);
  g_assert_false (s->launch->params[i].is_buffer);
  g_assert_cmpint (s->launch->params[i].type, ==, KS_PTX_TYPE_S32);
  return (int32_t) (uint32_t) s->launch->params[i].bits;
}

static float
param_f32 (Sample  *s,
           uint32_t i)
{
  uint32_t bits;
  float f;

  g_assert_cmpuint (i, <, s->launch->n_params);
  g_assert_false (s->launch->params[i].is_buffer);
  g_assert_cmpint (s->launch->params[i].type, ==, KS_PTX_TYPE_F32);
  bits = (uint32_t) s->launch->params[i].bits;
  memcpy (&f, &bits, 4);
  return f;
}

/* Compares 4-byte elements bit for bit and names the first difference. */
static void
expect_words (Sample      *s,
              const char  *name,
              KsPtxType    type,
              const void  *expected,
              uint64_t     n)
{
  uint64_t count = 0, wrong = 0, first = 0;
  const uint32_t *got = output (s, name, type, &count);
  const uint32_t *want = expected;

  g_assert_cmpuint (ks_ptx_type_size (type), ==, 4);
  g_assert_cmpuint (count, ==, n);
  for (uint64_t i = 0; i < n; i++)
    if (got[i] != want[i] && wrong++ == 0)
      first = i;
  if (wrong > 0)
    {
      float gf, wf;

      memcpy (&gf, &got[first], 4);
      memcpy (&wf, &want[first], 4);
      if (type == KS_PTX_TYPE_F32)
        g_test_fail_printf ("%s: %s[%" G_GUINT64_FORMAT "] = %.9g (0x%08x), expected %.9g (0x%08x);"
                            " %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " differ",
                            s->dir, name, first, gf, got[first], wf, want[first], wrong, n);
      else
        g_test_fail_printf ("%s: %s[%" G_GUINT64_FORMAT "] = %d (0x%08x), expected %d (0x%08x);"
                            " %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " differ",
                            s->dir, name, first, (int32_t) got[first], got[first],
                            (int32_t) want[first], want[first], wrong, n);
    }
}

static void
expect_f32 (Sample      *s,
            const char  *name,
            const float *expected,
            uint64_t     n)
{
  expect_words (s, name, KS_PTX_TYPE_F32, expected, n);
}

/* The statistics of the kernel's instructions with this opcode (0: any),
 * state space (ANY_SPACE: any) and CUDA line (0: any), summed. */
static KsSimInsnStats
sum_stats (Sample      *s,
           KsPtxOpcode  opcode,
           int          space,
           uint32_t     cuda_line)
{
  const KsSimInsnStats *st = ks_sim_get_insn_stats (s->sim);
  KsSimInsnStats sum = { 0 };

  for (uint32_t i = 0; i < s->module->n_insns; i++)
    {
      const KsPtxInsn *insn = &s->module->insns[i];
      uint32_t file = 0, line = 0;

      if (opcode != 0 && insn->opcode != opcode)
        continue;
      if (space != ANY_SPACE && insn->space != space)
        continue;
      if (cuda_line != 0 && (!ks_ptx_insn_source (s->module, insn, &file, &line)
                             || line != cuda_line))
        continue;
      sum.warp_executions += st[i].warp_executions;
      sum.thread_executions += st[i].thread_executions;
      sum.divergent += st[i].divergent;
      sum.smem_requests += st[i].smem_requests;
      sum.smem_wavefronts += st[i].smem_wavefronts;
      sum.smem_worst_degree = MAX (sum.smem_worst_degree, st[i].smem_worst_degree);
      sum.gmem_requests += st[i].gmem_requests;
      sum.gmem_sectors += st[i].gmem_sectors;
      sum.gmem_ideal_sectors += st[i].gmem_ideal_sectors;
      sum.gmem_lines += st[i].gmem_lines;
      sum.gmem_requested_bytes += st[i].gmem_requested_bytes;
      sum.gmem_used_bytes += st[i].gmem_used_bytes;
    }
  return sum;
}

/* The 1-based line of the sample's CUDA code that contains `marker`, which
 * must occur on exactly one line that is not a comment. */
static uint32_t
cuda_line (Sample     *s,
           const char *marker)
{
  g_auto(GStrv) lines = g_strsplit (s->cuda_text, "\n", -1);
  uint32_t found = 0;

  for (uint32_t i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], marker) != NULL && !g_str_has_prefix (g_strchug (lines[i]), "//"))
      {
        if (found != 0)
          g_error ("%s: \"%s\" is on lines %u and %u", s->dir, marker, found, i + 1);
        found = i + 1;
      }
  if (found == 0)
    g_error ("%s: no line has \"%s\"", s->dir, marker);
  return found;
}

/* The statistics of the instructions of the CUDA line that holds `marker` */
static KsSimInsnStats
line_stats (Sample      *s,
            KsPtxOpcode  opcode,
            const char  *marker)
{
  return sum_stats (s, opcode, ANY_SPACE, cuda_line (s, marker));
}

/* Global accesses of one kind: `per_request` sectors for every request */
static void
expect_sectors (Sample     *s,
                KsPtxOpcode opcode,
                uint64_t    per_request,
                uint64_t    ideal_per_request)
{
  KsSimInsnStats st = sum_stats (s, opcode, KS_PTX_SPACE_GLOBAL, 0);

  g_assert_cmpuint (st.gmem_requests, >, 0);
  g_assert_cmpuint (st.gmem_sectors, ==, per_request * st.gmem_requests);
  g_assert_cmpuint (st.gmem_ideal_sectors, ==, ideal_per_request * st.gmem_requests);
}

/* Shared accesses of one kind: `per_request` wavefronts for every request */
static void
expect_wavefronts (Sample     *s,
                   KsPtxOpcode opcode,
                   uint64_t    per_request)
{
  KsSimInsnStats st = sum_stats (s, opcode, KS_PTX_SPACE_SHARED, 0);

  g_assert_cmpuint (st.smem_requests, >, 0);
  g_assert_cmpuint (st.smem_wavefronts, ==, per_request * st.smem_requests);
}

/* ---- the samples ------------------------------------------------------------ */

static void
check_vector_add (Sample *s)
{
  uint64_t n_a, n;
  const float *a = input (s, "a", KS_PTX_TYPE_F32, &n_a);
  const float *b = input (s, "b", KS_PTX_TYPE_F32, NULL);
  g_autofree float *c = NULL;

  n = (uint64_t) param_s32 (s, 3);
  g_assert_cmpuint (n, ==, n_a);
  c = g_new (float, n);
  for (uint64_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  expect_f32 (s, "c", c, n);
  /* 1000 threads of 1024: only warp 31 (threads 992-1023) splits at the if */
  g_assert_cmpuint (ks_sim_get_stats (s->sim)->divergent_branches, ==, 1);
}

static void
check_saxpy (Sample *s)
{
  int32_t n = param_s32 (s, 0);
  float a = param_f32 (s, 1);
  const float *x = input (s, "x", KS_PTX_TYPE_F32, NULL);
  const float *y = input (s, "y", KS_PTX_TYPE_F32, NULL);
  g_autofree float *ref = g_new (float, n);

  for (int32_t i = 0; i < n; i++)
    ref[i] = fmaf (a, x[i], y[i]);
  expect_f32 (s, "y", ref, (uint64_t) n);
  /* a * x + y is one fused multiply-add per element */
  g_assert_cmpuint (line_stats (s, KS_PTX_OPC_FMA, "y[i] = a * x[i]").thread_executions, ==,
                    (uint64_t) n);
}

static void
check_grid_stride (Sample *s)
{
  int32_t n = param_s32 (s, 0);
  float scale = param_f32 (s, 1);
  const float *in = input (s, "in", KS_PTX_TYPE_F32, NULL);
  g_autofree float *ref = g_new (float, n);
  uint64_t threads = (uint64_t) s->launch->grid[0] * s->launch->block[0];
  uint64_t warp_passes = 0;
  KsSimInsnStats st;

  for (int32_t i = 0; i < n; i++)
    {
      float r = in[i] > 0.0f ? in[i] : 0.0f;

      ref[i] = r * scale;
    }
  expect_f32 (s, "out", ref, (uint64_t) n);

  /* Thread g makes ceil ((n - g) / threads) passes; a warp, as many as its
   * first lane (the one with the most) */
  for (uint64_t g = 0; g < threads; g += 32)
    warp_passes += g < (uint64_t) n ? ((uint64_t) n - g + threads - 1) / threads : 0;
  st = sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0);
  g_assert_cmpuint (st.thread_executions, ==, (uint64_t) n);
  g_assert_cmpuint (st.warp_executions, ==, warp_passes);
  g_assert_cmpuint (warp_passes, <, 10 * threads / 32);    /* some warps stop after 9 */
}

static void
check_printf (Sample *s)
{
  const float *x = input (s, "x", KS_PTX_TYPE_F32, NULL);
  g_autoptr(GString) want = g_string_new (NULL);
  uint32_t n_blocks = s->launch->grid[0], n_threads = s->launch->block[0];

  /* Block by block; in a block (one warp here) the first printf for every
   * lane in lane order, then lane 0's second printf */
  g_assert_cmpuint (n_threads, <=, 32);
  for (uint32_t b = 0; b < n_blocks; b++)
    {
      for (uint32_t t = 0; t < n_threads; t++)
        g_string_append_printf (want, "block %u, thread %u (global %u): x = %.3f\n",
                                b, t, b * n_threads + t, (double) x[b * n_threads + t]);
      g_string_append_printf (want, "block %u has %u threads\n", b, n_threads);
    }
  g_assert_cmpstr (ks_sim_get_printf (s->sim), ==, want->str);
}

static uint32_t
work_a (uint32_t x)
{
  for (int k = 0; k < 16; k++)
    x = x * 1664525u + 1013904223u;
  return x;
}

static uint32_t
work_b (uint32_t x)
{
  for (int k = 0; k < 16; k++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
    }
  return x;
}

static void
check_divergence (Sample *s)
{
  uint64_t n;
  const uint32_t *in = input (s, "in", KS_PTX_TYPE_U32, &n);
  g_autofree uint32_t *by_lane = g_new (uint32_t, n);
  g_autofree uint32_t *by_warp = g_new (uint32_t, n);
  uint32_t block = s->launch->block[0];

  g_assert_cmpint (param_s32 (s, 3), ==, (int32_t) n);
  g_assert_cmpuint (n % block, ==, 0);
  for (uint64_t i = 0; i < n; i++)
    {
      uint32_t t = (uint32_t) (i % block);

      by_lane[i] = t % 2 == 0 ? work_a (in[i]) : work_b (in[i]);
      by_warp[i] = (t / 32) % 2 == 0 ? work_a (in[i]) : work_b (in[i]);
    }
  expect_words (s, "by_lane", KS_PTX_TYPE_U32, by_lane, n);
  expect_words (s, "by_warp", KS_PTX_TYPE_U32, by_warp, n);

  /* The parity branch splits every warp once; the warp-uniform one never */
  g_assert_cmpuint (line_stats (s, 0, "if (threadIdx.x % 2 == 0)").divergent, ==, n / 32);
  g_assert_cmpuint (line_stats (s, 0, "if ((threadIdx.x / 32) % 2 == 0)").divergent, ==, 0);
  g_assert_cmpuint (ks_sim_get_stats (s->sim)->divergent_branches, ==, n / 32);
}

static void
check_early_exit (Sample *s)
{
  const int32_t *table = input (s, "table", KS_PTX_TYPE_S32, NULL);
  int32_t n_rows = param_s32 (s, 1), row_len = param_s32 (s, 2), key = param_s32 (s, 3);
  g_autofree int32_t *pos = g_new (int32_t, n_rows);
  uint64_t lane_trips = 0, warp_trips = 0, warp_max = 0;
  KsSimInsnStats st;

  g_assert_cmpint (n_rows % 32, ==, 0);
  for (int32_t r = 0; r < n_rows; r++)
    {
      int32_t trips = row_len;

      pos[r] = -1;
      for (int32_t j = 0; j < row_len; j++)
        if (table[j * n_rows + r] == key)
          {
            pos[r] = j;
            trips = j + 1;
            break;
          }
      lane_trips += (uint64_t) trips;
      warp_max = MAX (warp_max, (uint64_t) trips);
      if (r % 32 == 31)
        {
          warp_trips += warp_max;
          warp_max = 0;
        }
    }
  expect_words (s, "pos", KS_PTX_TYPE_S32, pos, (uint64_t) n_rows);

  /* The loop's load: each lane until its key, each warp until its last lane */
  st = sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0);
  g_assert_cmpuint (st.thread_executions, ==, lane_trips);
  g_assert_cmpuint (st.warp_executions, ==, warp_trips);
  g_assert_cmpuint (st.warp_executions * 32, >, st.thread_executions);    /* idle lanes */
}

static void
check_copy (Sample  *s,
            int32_t  stride,
            int32_t  offset)
{
  uint64_t n;
  const float *in = input (s, "in", KS_PTX_TYPE_F32, &n);
  g_autofree float *ref = g_new0 (float, n);
  uint64_t threads = (uint64_t) s->launch->grid[0] * s->launch->block[0];

  g_assert_cmpint (param_s32 (s, 2), ==, (int32_t) n);
  for (uint64_t t = 0; t < threads; t++)
    {
      uint64_t i = t * (uint64_t) stride + (uint64_t) offset;

      if (i < n)
        ref[i] = in[i];
    }
  expect_f32 (s, "out", ref, n);
}

static void
check_copy_coalesced (Sample *s)
{
  check_copy (s, 1, 0);
  /* 32 lanes x 4 bytes, aligned: 4 sectors, one line */
  expect_sectors (s, KS_PTX_OPC_LD, 4, 4);
  expect_sectors (s, KS_PTX_OPC_ST, 4, 4);
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0).gmem_lines, ==,
                    sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0).gmem_requests);
}

static void
check_copy_strided (Sample *s)
{
  int32_t stride = param_s32 (s, 3);

  g_assert_cmpint (stride, ==, 8);
  check_copy (s, stride, 0);
  /* lanes 32 bytes apart: a sector each, for 4 sectors' worth of data */
  expect_sectors (s, KS_PTX_OPC_LD, 32, 4);
  expect_sectors (s, KS_PTX_OPC_ST, 32, 4);
}

static void
check_copy_misaligned (Sample *s)
{
  int32_t offset = param_s32 (s, 3);
  KsSimInsnStats st;

  g_assert_cmpint (offset, ==, 1);
  check_copy (s, 1, offset);
  /* 128 bytes from 4 bytes into a sector: 5 sectors over 2 lines */
  expect_sectors (s, KS_PTX_OPC_LD, 5, 4);
  expect_sectors (s, KS_PTX_OPC_ST, 5, 4);
  st = sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0);
  g_assert_cmpuint (st.gmem_lines, ==, 2 * st.gmem_requests);
}

static void
check_transpose (Sample *s)
{
  int32_t width = param_s32 (s, 2), height = param_s32 (s, 3);
  uint64_t n;
  const float *in = input (s, "in", KS_PTX_TYPE_F32, &n);
  g_autofree float *ref = g_new (float, n);

  g_assert_cmpuint ((uint64_t) width * (uint64_t) height, ==, n);
  g_assert_cmpuint (s->launch->grid[0] * 32, ==, (uint32_t) width);
  g_assert_cmpuint (s->launch->grid[1] * 32, ==, (uint32_t) height);
  for (int32_t y = 0; y < height; y++)
    for (int32_t x = 0; x < width; x++)
      ref[x * height + y] = in[y * width + x];
  expect_f32 (s, "out", ref, n);
}

static void
check_transpose_naive (Sample *s)
{
  check_transpose (s);
  /* rows in (coalesced), columns out: every lane its own sector */
  expect_sectors (s, KS_PTX_OPC_LD, 4, 4);
  expect_sectors (s, KS_PTX_OPC_ST, 32, 4);
}

static void
check_transpose_tiled (Sample *s)
{
  check_transpose (s);
  expect_sectors (s, KS_PTX_OPC_LD, 4, 4);
  expect_sectors (s, KS_PTX_OPC_ST, 4, 4);
  /* rows into the tile, a column out of it: 32 words 32 apart, one bank */
  expect_wavefronts (s, KS_PTX_OPC_ST, 1);
  expect_wavefronts (s, KS_PTX_OPC_LD, 32);
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_SHARED, 0).smem_worst_degree, ==, 32);
}

static void
check_transpose_padded (Sample *s)
{
  check_transpose (s);
  expect_sectors (s, KS_PTX_OPC_LD, 4, 4);
  expect_sectors (s, KS_PTX_OPC_ST, 4, 4);
  /* 33 words apart: 32 different banks */
  expect_wavefronts (s, KS_PTX_OPC_ST, 1);
  expect_wavefronts (s, KS_PTX_OPC_LD, 1);
}

static void
check_stencil (Sample *s)
{
  enum { RADIUS = 3 };
  uint64_t n, n_in;
  const float *in = input (s, "in", KS_PTX_TYPE_F32, &n_in);
  g_autofree float *ref = NULL;
  uint32_t blocks = s->launch->grid[0];

  output (s, "out", KS_PTX_TYPE_F32, &n);
  g_assert_cmpuint (n_in, ==, n + 2 * RADIUS);
  g_assert_cmpuint ((uint64_t) blocks * s->launch->block[0], ==, n);
  ref = g_new (float, n);
  for (uint64_t g = 0; g < n; g++)
    {
      float sum = 0.0f;

      for (int o = -RADIUS; o <= RADIUS; o++)
        sum += in[(int64_t) g + RADIUS + o];
      ref[g] = sum;
    }
  expect_f32 (s, "out", ref, n);
  /* Every input loaded once, plus 2 x RADIUS halo values a block; the seven
   * reads of each thread come from shared memory without conflicts */
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0).thread_executions, ==,
                    n + (uint64_t) blocks * 2 * RADIUS);
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_SHARED, 0).thread_executions, ==,
                    n * (2 * RADIUS + 1));
  expect_wavefronts (s, KS_PTX_OPC_LD, 1);
}

/* The three reductions: the block's values as the kernel loads them */
static void
load_block (Sample  *s,
            uint32_t b,
            float    v[256])
{
  uint64_t n_in;
  const float *in = input (s, "in", KS_PTX_TYPE_F32, &n_in);
  int32_t n = param_s32 (s, 2);

  g_assert_cmpuint ((uint64_t) n, ==, n_in);
  g_assert_cmpuint (s->launch->block[0], ==, 256);
  for (uint32_t t = 0; t < 256; t++)
    {
      uint64_t i = (uint64_t) b * 256 + t;

      v[t] = i < (uint64_t) n ? in[i] : 0.0f;
    }
}

static void
check_reduce_interleaved (Sample *s)
{
  uint32_t blocks = s->launch->grid[0];
  g_autofree float *ref = g_new (float, blocks);

  for (uint32_t b = 0; b < blocks; b++)
    {
      float v[256];

      load_block (s, b, v);
      for (uint32_t stride = 1; stride < 256; stride *= 2)
        for (uint32_t t = 0; t < 256; t += 2 * stride)
          v[t] += v[t + stride];
      ref[b] = v[0];
    }
  expect_f32 (s, "block_sums", ref, blocks);
  /* Working threads 2 x stride apart: strides 1-16 split all 8 warps, 32
   * four of them, 64 two, 128 one: 47 divergent branches a block */
  g_assert_cmpuint (line_stats (s, 0, "if (t % (2 * stride) == 0)").divergent, ==,
                    47 * (uint64_t) blocks);
}

static void
check_reduce_sequential (Sample *s)
{
  uint32_t blocks = s->launch->grid[0];
  g_autofree float *ref = g_new (float, blocks);

  for (uint32_t b = 0; b < blocks; b++)
    {
      float v[256];

      load_block (s, b, v);
      for (uint32_t stride = 128; stride > 0; stride /= 2)
        for (uint32_t t = 0; t < stride; t++)
          v[t] += v[t + stride];
      ref[b] = v[0];
    }
  expect_f32 (s, "block_sums", ref, blocks);
  /* Whole warps work or rest until stride 16: five splits a block, in warp 0 */
  g_assert_cmpuint (line_stats (s, 0, "if (t < stride)").divergent, ==, 5 * (uint64_t) blocks);
  expect_wavefronts (s, KS_PTX_OPC_LD, 1);
}

/* shfl.down then add, five times: lanes past 31 keep their own value */
static void
warp_sum (float v[32])
{
  for (int offset = 16; offset > 0; offset /= 2)
    {
      float next[32];

      for (int l = 0; l < 32; l++)
        next[l] = v[l] + (l + offset < 32 ? v[l + offset] : v[l]);
      memcpy (v, next, sizeof next);
    }
}

static void
check_reduce_shuffle (Sample *s)
{
  uint32_t blocks = s->launch->grid[0];
  g_autofree float *ref = g_new (float, blocks);

  for (uint32_t b = 0; b < blocks; b++)
    {
      float v[256], sums[32] = { 0 };

      load_block (s, b, v);
      for (int w = 0; w < 8; w++)
        {
          warp_sum (v + 32 * w);
          sums[w] = v[32 * w];
        }
      warp_sum (sums);
      ref[b] = sums[0];
    }
  expect_f32 (s, "block_sums", ref, blocks);
  /* Five shuffles in each of 8 warps, five more in warp 0; one barrier */
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_SHFL, ANY_SPACE, 0).warp_executions, ==,
                    45 * (uint64_t) blocks);
  g_assert_cmpuint (ks_sim_get_stats (s->sim)->barriers, ==, blocks);
}

static void
check_ballot_vote (Sample *s)
{
  uint64_t n;
  const int32_t *in = input (s, "in", KS_PTX_TYPE_S32, &n);
  g_autofree int32_t *packed = g_new0 (int32_t, n);
  uint64_t n_warps = n / 32;
  g_autofree uint32_t *ballots = g_new0 (uint32_t, n_warps);
  g_autofree int32_t *counts = g_new0 (int32_t, n_warps);
  g_autofree int32_t *any_all = g_new0 (int32_t, n_warps);
  gboolean seen_all = FALSE, seen_none = FALSE, seen_mixed = FALSE;

  g_assert_cmpuint (n % 32, ==, 0);
  g_assert_cmpuint ((uint64_t) s->launch->grid[0] * s->launch->block[0], ==, n);
  for (uint64_t w = 0; w < n_warps; w++)
    {
      int32_t k = 0;

      for (int l = 0; l < 32; l++)
        if (in[w * 32 + l] > 0)
          {
            ballots[w] |= 1u << l;
            packed[w * 32 + k++] = in[w * 32 + l];
          }
      counts[w] = k;
      any_all[w] = (k > 0 ? 1 : 0) | (k == 32 ? 2 : 0);
      seen_all |= k == 32;
      seen_none |= k == 0;
      seen_mixed |= k > 0 && k < 32;
    }
  /* The input shows all three cases, as the sample says */
  g_assert_true (seen_all && seen_none && seen_mixed);
  expect_words (s, "packed", KS_PTX_TYPE_S32, packed, n);
  expect_words (s, "ballots", KS_PTX_TYPE_U32, ballots, n_warps);
  expect_words (s, "counts", KS_PTX_TYPE_S32, counts, n_warps);
  expect_words (s, "any_all", KS_PTX_TYPE_S32, any_all, n_warps);
  /* ballot, any and all: three votes per warp, with every lane */
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_VOTE, ANY_SPACE, 0).warp_executions, ==, 3 * n_warps);
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_VOTE, ANY_SPACE, 0).thread_executions, ==, 3 * n);
}

static void
check_scan (Sample *s)
{
  uint64_t n;
  const int32_t *in = input (s, "in", KS_PTX_TYPE_S32, &n);
  uint32_t blocks = s->launch->grid[0], seg = 2 * s->launch->block[0];
  g_autofree int32_t *out = g_new (int32_t, n);
  g_autofree int32_t *sums = g_new (int32_t, blocks);

  g_assert_cmpuint ((uint64_t) blocks * seg, ==, n);
  for (uint32_t b = 0; b < blocks; b++)
    {
      int32_t acc = 0;

      for (uint32_t k = 0; k < seg; k++)
        {
          out[b * seg + k] = acc;
          acc += in[b * seg + k];
        }
      sums[b] = acc;
    }
  expect_words (s, "out", KS_PTX_TYPE_S32, out, n);
  expect_words (s, "block_sums", KS_PTX_TYPE_S32, sums, blocks);
  /* Indices 2 x offset apart: at offset 8, 32 lanes over 2 banks and at 16,
   * 16 lanes 32 words apart: 16-way at worst, in both sweeps */
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_SHARED,
                               cuda_line (s, "temp[bi] += temp[ai];")).smem_worst_degree, ==, 16);
  g_assert_cmpuint (sum_stats (s, 0, KS_PTX_SPACE_SHARED, 0).smem_worst_degree, ==, 16);
}

static void
histogram_reference (Sample   *s,
                     uint32_t  hist[256],
                     uint64_t *block_bins)
{
  uint64_t n;
  const uint8_t *pixels = input (s, "pixels", KS_PTX_TYPE_U8, &n);
  uint32_t blocks = s->launch->grid[0], threads = blocks * s->launch->block[0];

  g_assert_cmpint (param_s32 (s, 1), ==, (int32_t) n);
  memset (hist, 0, 256 * sizeof (uint32_t));
  *block_bins = 0;
  for (uint32_t b = 0; b < blocks; b++)
    {
      uint32_t local[256] = { 0 };

      /* the pixels block b's threads visit in the grid-stride loop */
      for (uint64_t i = 0; i < n; i++)
        if ((i % threads) / s->launch->block[0] == b)
          local[pixels[i]]++;
      for (int k = 0; k < 256; k++)
        {
          hist[k] += local[k];
          *block_bins += local[k] > 0;
        }
    }
}

static uint64_t
atomics (Sample *s,
         int     space)
{
  return sum_stats (s, KS_PTX_OPC_ATOM, space, 0).thread_executions
         + sum_stats (s, KS_PTX_OPC_RED, space, 0).thread_executions;
}

static void
check_histogram_global (Sample *s)
{
  uint32_t hist[256];
  uint64_t block_bins;
  uint64_t n = (uint64_t) param_s32 (s, 1);

  histogram_reference (s, hist, &block_bins);
  expect_words (s, "hist", KS_PTX_TYPE_U32, hist, 256);
  g_assert_cmpuint (atomics (s, KS_PTX_SPACE_GLOBAL), ==, n);
}

static void
check_histogram_shared (Sample *s)
{
  uint32_t hist[256];
  uint64_t block_bins;
  uint64_t n = (uint64_t) param_s32 (s, 1);

  histogram_reference (s, hist, &block_bins);
  expect_words (s, "hist", KS_PTX_TYPE_U32, hist, 256);
  /* one shared atomic per pixel; one global atomic per non-empty bin of
   * each block (the image has 32 levels: 32 a block) */
  g_assert_cmpuint (atomics (s, KS_PTX_SPACE_SHARED), ==, n);
  g_assert_cmpuint (atomics (s, KS_PTX_SPACE_GLOBAL), ==, block_bins);
  g_assert_cmpuint (block_bins, ==, 32 * (uint64_t) s->launch->grid[0]);
}

/* Row by column, k in order, one fused multiply-add a step: the order of
 * both kernels (the tiled one walks k tile by tile, which is the same) */
static void
check_matmul (Sample  *s,
              uint64_t loads_per_thread)
{
  int32_t n = param_s32 (s, 3);
  const float *a = input (s, "A", KS_PTX_TYPE_F32, NULL);
  const float *b = input (s, "B", KS_PTX_TYPE_F32, NULL);
  g_autofree float *c = g_new (float, (size_t) n * n);

  for (int32_t row = 0; row < n; row++)
    for (int32_t col = 0; col < n; col++)
      {
        float sum = 0.0f;

        for (int32_t k = 0; k < n; k++)
          sum = fmaf (a[row * n + k], b[k * n + col], sum);
        c[row * n + col] = sum;
      }
  expect_f32 (s, "C", c, (uint64_t) n * n);
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0).thread_executions, ==,
                    (uint64_t) n * n * loads_per_thread);
}

static void
check_matmul_naive (Sample *s)
{
  /* an element of A and one of B for every k */
  check_matmul (s, 2 * (uint64_t) param_s32 (s, 3));
}

static void
check_matmul_tiled (Sample *s)
{
  uint64_t blocks = (uint64_t) s->launch->grid[0] * s->launch->grid[1];
  uint64_t steps = (uint64_t) param_s32 (s, 3) / 16;

  /* one of A and one of B per 16-wide tile step, two barriers a step */
  check_matmul (s, 2 * steps);
  g_assert_cmpuint (ks_sim_get_stats (s->sim)->barriers, ==, blocks * 2 * steps);
}

static void
check_softmax (Sample *s)
{
  int32_t rows = param_s32 (s, 2), cols = param_s32 (s, 3);
  const float *in = input (s, "in", KS_PTX_TYPE_F32, NULL);
  const float *out = output (s, "out", KS_PTX_TYPE_F32, NULL);
  double worst = 0.0;

  for (int32_t r = 0; r < rows; r++)
    {
      double m = -INFINITY, sum = 0.0, got_sum = 0.0;

      for (int32_t c = 0; c < cols; c++)
        m = MAX (m, (double) in[r * cols + c]);
      for (int32_t c = 0; c < cols; c++)
        sum += exp ((double) in[r * cols + c] - m);
      for (int32_t c = 0; c < cols; c++)
        {
          double want = exp ((double) in[r * cols + c] - m) / sum;
          double got = out[r * cols + c];

          worst = MAX (worst, fabs (got - want) / want);
          got_sum += got;
        }
      g_assert_cmpfloat_with_epsilon (got_sum, 1.0, 1e-5);
    }
  /* expf is ex2.approx plus fused multiply-adds (a few ulp) and the sums
   * are butterflies: a relative 1e-5 is 80 ulp of float, far from any
   * real error (a wrong max or sum is off by a factor) */
  g_test_message ("softmax: worst relative error %.3g", worst);
  g_assert_cmpfloat (worst, <, 1e-5);
  /* a row per warp: five butterfly steps for the max, five for the sum */
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_SHFL, ANY_SPACE, 0).warp_executions, ==,
                    10 * (uint64_t) rows);
}

static void
check_register_spill (Sample *s)
{
  enum { LEN = 64 };
  int32_t n_vectors = param_s32 (s, 2);
  const float *in = input (s, "in", KS_PTX_TYPE_F32, NULL);
  g_autofree float *out = g_new (float, (size_t) LEN * n_vectors);

  for (int32_t v = 0; v < n_vectors; v++)
    {
      float sum = 0.0f, inv;

      for (int k = 0; k < LEN; k++)
        sum = fmaf (in[k * n_vectors + v], in[k * n_vectors + v], sum);
      inv = 1.0f / sqrtf (sum);
      for (int k = 0; k < LEN; k++)
        out[k * n_vectors + v] = in[k * n_vectors + v] * inv;
    }
  expect_f32 (s, "out", out, (uint64_t) LEN * n_vectors);
}

static void
check_occupancy_shared (Sample *s)
{
  enum { CHUNK = 12288 };
  uint64_t n;
  const float *in = input (s, "in", KS_PTX_TYPE_F32, &n);
  g_autofree float *out = g_new (float, n);

  g_assert_cmpuint (n, ==, (uint64_t) s->launch->grid[0] * CHUNK);
  for (uint64_t b = 0; b < n / CHUNK; b++)
    for (uint64_t k = 0; k < CHUNK; k++)
      out[b * CHUNK + k] = in[b * CHUNK + CHUNK - 1 - k];
  expect_f32 (s, "out", out, n);
  expect_wavefronts (s, KS_PTX_OPC_LD, 1);
  expect_wavefronts (s, KS_PTX_OPC_ST, 1);
}

/* Bilinear upscaling through the texture unit, against the Programming
 * Guide's formula: xB = u - 0.5, texels floor (xB) and the next, clamped to
 * the edge, blended with weights in 9-bit fixed point (8 fractional bits),
 * u8 texels read as v / 255; the weighted sum of four such products is exact
 * in double, so the f32 result is too, and the kernel's
 * (unsigned char) (g * 255 + 0.5) is an fma. */
static void
check_texture_upscale (Sample *s)
{
  uint64_t n_in = 0, n = 0;
  const uint8_t *in = input (s, "pixels", KS_PTX_TYPE_U8, &n_in);
  const uint8_t *out = output (s, "out", KS_PTX_TYPE_U8, &n);
  int w = param_s32 (s, 2), h = param_s32 (s, 3);
  float scale = param_f32 (s, 4);
  const KsLaunchTexture *t;
  const KsSimInsnStats *st = ks_sim_get_insn_stats (s->sim);
  KsSimInsnStats tex = { 0 };
  g_autofree uint8_t *ref = NULL;
  uint64_t off_by_one = 0, sectors = 0, requests = 0;

  g_assert_cmpuint (s->launch->n_textures, ==, 1);
  t = &s->launch->textures[0];
  g_assert_true (t->format == KS_PTX_TYPE_U8 && t->channels == 1 && t->normalized_float);
  g_assert_true (t->filter == KS_LAUNCH_TEX_LINEAR && t->address[0] == KS_LAUNCH_TEX_CLAMP
                 && t->address[1] == KS_LAUNCH_TEX_CLAMP && !t->normalized_coords);
  g_assert_cmpuint ((uint64_t) t->width * t->height, ==, n_in);
  g_assert_cmpuint (n, ==, (uint64_t) w * h);
  ref = g_new (uint8_t, n);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double xy[2] = { (((float) x + 0.5f) / scale) - 0.5, (((float) y + 0.5f) / scale) - 0.5 };
        double a[2], exact[2], sum = 0, sum_exact = 0;
        long i0[2];

        for (int k = 0; k < 2; k++)
          {
            i0[k] = (long) floor (xy[k]);
            exact[k] = xy[k] - floor (xy[k]);
            a[k] = rint (exact[k] * 256) / 256;
          }
        for (int dy = 0; dy < 2; dy++)
          for (int dx = 0; dx < 2; dx++)
            {
              long tx = CLAMP (i0[0] + dx, 0, (long) t->width - 1);
              long ty = CLAMP (i0[1] + dy, 0, (long) t->height - 1);
              double texel = (float) (in[ty * t->width + tx] / 255.0);

              sum += (dx ? a[0] : 1 - a[0]) * (dy ? a[1] : 1 - a[1]) * texel;
              sum_exact += (dx ? exact[0] : 1 - exact[0]) * (dy ? exact[1] : 1 - exact[1]) * texel;
            }
        ref[y * w + x] = (uint8_t) (uint32_t) fmaf ((float) sum, 255.0f, 0.5f);
        /* against a float bilinear interpolation: a level at most */
        {
          int other = (int) fmaf ((float) sum_exact, 255.0f, 0.5f);

          g_assert_cmpint (ABS (other - ref[y * w + x]), <=, 1);
          off_by_one += other != ref[y * w + x];
        }
      }
  g_assert_cmpmem (out, n, ref, n);
  /* a third is not a multiple of 1/256: some pixels show it */
  g_assert_cmpuint (off_by_one, >, 0);
  g_test_message ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " pixels are one level away "
                  "from a float bilinear interpolation", s->dir, off_by_one, n);

  /* The teaching point: one texture request a warp, 4 texels a lane,
   * counted apart from global loads.  A warp's 32 pixels lie on one output
   * row, whose footprint is input rows j0 and j0 + 1 (one when clamped at an
   * edge), and a 32-texel row of u8 is one 32-byte sector: the 1 KiB image
   * is 32 sectors, each missing in L1 once. */
  for (uint32_t i = 0; i < s->module->n_insns; i++)
    if (s->module->insns[i].opcode == KS_PTX_OPC_TEX)
      {
        tex.tex_requests += st[i].tex_requests;
        tex.tex_fetches += st[i].tex_fetches;
        tex.tex_sectors += st[i].tex_sectors;
        tex.tex_l1_hits += st[i].tex_l1_hits;
        tex.tex_l1_misses += st[i].tex_l1_misses;
        tex.gmem_requests += st[i].gmem_requests;
      }
  g_assert_cmpuint (t->width, ==, 32);
  for (int y = 0; y < h; y++)
    {
      long j0 = (long) floor ((((float) y + 0.5f) / scale) - 0.5);
      long r0 = CLAMP (j0, 0, (long) t->height - 1), r1 = CLAMP (j0 + 1, 0, (long) t->height - 1);

      requests += (uint64_t) (w + 31) / 32;
      sectors += (uint64_t) ((w + 31) / 32) * (r0 == r1 ? 1 : 2);
    }
  g_assert_cmpuint (tex.tex_requests, ==, requests);
  g_assert_cmpuint (tex.tex_fetches, ==, 4 * n);
  g_assert_cmpuint (tex.tex_sectors, ==, sectors);
  g_assert_cmpuint (tex.tex_l1_misses, ==, n_in / 32);
  g_assert_cmpuint (tex.tex_l1_hits, ==, sectors - n_in / 32);
  g_assert_cmpuint (tex.gmem_requests, ==, 0);
  g_assert_cmpuint (sum_stats (s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, 0).gmem_requests, ==, 0);
}

typedef void (*CheckFunc) (Sample *s);

static const struct
{
  const char *dir;
  CheckFunc check;
} checks[] = {
  { "01-vector-add", check_vector_add },
  { "02-saxpy", check_saxpy },
  { "03-grid-stride", check_grid_stride },
  { "04-printf", check_printf },
  { "05-divergence", check_divergence },
  { "06-early-exit", check_early_exit },
  { "07-copy-coalesced", check_copy_coalesced },
  { "08-copy-strided", check_copy_strided },
  { "09-copy-misaligned", check_copy_misaligned },
  { "10-transpose-naive", check_transpose_naive },
  { "11-transpose-tiled", check_transpose_tiled },
  { "12-transpose-padded", check_transpose_padded },
  { "13-stencil-1d", check_stencil },
  { "14-reduce-interleaved", check_reduce_interleaved },
  { "15-reduce-sequential", check_reduce_sequential },
  { "16-reduce-shuffle", check_reduce_shuffle },
  { "17-ballot-vote", check_ballot_vote },
  { "18-scan-blelloch", check_scan },
  { "19-histogram-global", check_histogram_global },
  { "20-histogram-shared", check_histogram_shared },
  { "21-matmul-naive", check_matmul_naive },
  { "22-matmul-tiled", check_matmul_tiled },
  { "23-softmax", check_softmax },
  { "24-register-spill", check_register_spill },
  { "25-occupancy-shared", check_occupancy_shared },
  { "26-texture-upscale", check_texture_upscale },
};

static CheckFunc
find_check (const char *dir)
{
  for (guint i = 0; i < G_N_ELEMENTS (checks); i++)
    if (strcmp (checks[i].dir, dir) == 0)
      return checks[i].check;
  return NULL;
}

/* ---- the catalogue ---------------------------------------------------------- */

static JsonNode *
load_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* index.json's samples, in course order: (transfer full) */
static GPtrArray *
load_index (void)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *path = g_build_filename (folder, "index.json", NULL);
  g_autoptr(JsonNode) root = load_json (path);
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  JsonObject *o;
  JsonArray *samples;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  o = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (o, "format"), ==, 1);
  samples = json_object_get_array_member (o, "samples");
  g_assert_nonnull (samples);
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonNode *n = json_array_get_element (samples, i);

      g_assert_true (JSON_NODE_HOLDS_VALUE (n));
      g_ptr_array_add (dirs, g_strdup (json_node_get_string (n)));
    }
  return dirs;
}

static const char *
string_member (JsonObject *o,
               const char *name,
               const char *dir)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING
      || *json_node_get_string (n) == '\0')
    g_error ("%s/sample.json: \"%s\" must be a non-empty string", dir, name);
  return json_node_get_string (n);
}

/* The lines a summary points at ("line 20", "lines 30-33", "lines 53 and
 * 55") are code lines of the sample's source, so an edit of the .cu that
 * moves them is caught */
static void
check_summary_lines (const char *dir,
                     const char *summary,
                     const char *cu_path)
{
  g_autoptr(GRegex) re = g_regex_new ("[Ll]ines? (\\d+)(?:-(\\d+))?(?: and (\\d+))?", 0, 0, NULL);
  g_autoptr(GMatchInfo) mi = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_lines, n_refs = 0;

  g_assert_true (g_file_get_contents (cu_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  n_lines = g_strv_length (lines);
  g_regex_match (re, summary, 0, &mi);
  while (g_match_info_matches (mi))
    {
      for (int g = 1; g <= 3; g++)
        {
          g_autofree char *num = g_match_info_fetch (mi, g);
          guint64 line;
          const char *code;

          if (num == NULL || *num == '\0')
            continue;
          line = g_ascii_strtoull (num, NULL, 10);
          if (line < 1 || line > n_lines)
            g_error ("%s/sample.json: the summary names line %s, past the source's end", dir, num);
          code = lines[line - 1];
          while (*code == ' ')
            code++;
          if (*code == '\0' || g_str_has_prefix (code, "//"))
            g_error ("%s/sample.json: the summary names line %s, which is not code", dir, num);
          n_refs++;
        }
      g_match_info_next (mi, NULL);
    }
  /* "which line": every summary points at one */
  if (n_refs == 0)
    g_error ("%s/sample.json: the summary names no line of the source", dir);
}

/* index.json and every sample.json: the format docs/SAMPLES.md gives, and a
 * catalogue that matches the folders and the checks above */
static void
test_catalogue (void)
{
  g_autoptr(GPtrArray) dirs = load_index ();
  g_autofree char *folder = samples_folder ();
  g_autoptr(GDir) d = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  int64_t last_level = 1;

  /* A course of at least 20, vector addition first, numbered in order */
  g_assert_cmpuint (dirs->len, >=, 20);
  g_assert_cmpstr (dirs->pdata[0], ==, "01-vector-add");
  g_assert_cmpuint (dirs->len, ==, G_N_ELEMENTS (checks));
  for (guint i = 0; i < dirs->len; i++)
    {
      const char *dir = dirs->pdata[i];
      g_autofree char *prefix = g_strdup_printf ("%02u-", i + 1);
      g_autofree char *meta_path = g_build_filename (folder, dir, "sample.json", NULL);
      g_autoptr(JsonNode) meta = NULL;
      g_autofree char *spec_path = NULL;
      g_autofree char *base = NULL, *cu = NULL, *ptx = NULL;
      g_autoptr(KsLaunch) launch = NULL;
      JsonObject *o;
      JsonArray *tags;
      int64_t level;

      if (!g_str_has_prefix (dir, prefix))
        g_error ("index.json: sample %u is %s, expected a name starting %s", i + 1, dir, prefix);
      if (find_check (dir) == NULL)
        g_error ("%s: no reference check in tests/test-samples.c", dir);

      meta = load_json (meta_path);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (meta));
      o = json_node_get_object (meta);
      string_member (o, "title", dir);
      /* "a few sentences" */
      g_assert_cmpuint (strlen (string_member (o, "summary", dir)), >=, 120);
      level = json_object_get_int_member (o, "level");
      g_assert_cmpint (level, >=, 1);
      g_assert_cmpint (level, <=, 5);
      /* graded: the levels never go down along the course */
      g_assert_cmpint (level, >=, last_level);
      last_level = level;
      tags = json_object_get_array_member (o, "tags");
      g_assert_nonnull (tags);
      g_assert_cmpuint (json_array_get_length (tags), >, 0);
      for (guint t = 0; t < json_array_get_length (tags); t++)
        g_assert_cmpstr (json_array_get_string_element (tags, t), !=, "");

      /* the spec loads, and its PTX and the CUDA source are beside it */
      spec_path = g_build_filename (folder, dir, string_member (o, "spec", dir), NULL);
      launch = ks_launch_load (spec_path, &error);
      g_assert_no_error (error);
      g_assert_nonnull (launch->ptx_path);
      g_assert_nonnull (launch->kernel);
      g_assert_true (g_file_test (launch->ptx_path, G_FILE_TEST_IS_REGULAR));
      base = g_path_get_basename (spec_path);
      *strrchr (base, '.') = '\0';
      cu = g_strdup_printf ("%s/%s/%s.cu", folder, dir, base);
      ptx = g_strdup_printf ("/%s/%s.ptx", dir, base);
      g_assert_true (g_file_test (cu, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_str_has_suffix (launch->ptx_path, ptx));
      check_summary_lines (dir, string_member (o, "summary", dir), cu);
      /* printf's spec has no outputs: its output is the text */
      if (strcmp (dir, "04-printf") != 0)
        g_assert_cmpuint (launch->n_outputs, >, 0);
      /* "compare": other samples of the course, each naming this one back */
      if (json_object_has_member (o, "compare"))
        {
          JsonArray *partners = json_object_get_array_member (o, "compare");

          g_assert_nonnull (partners);
          for (guint p = 0; p < json_array_get_length (partners); p++)
            {
              const char *other = json_array_get_string_element (partners, p);
              g_autofree char *other_meta = g_build_filename (folder, other, "sample.json", NULL);
              g_autoptr(JsonNode) m = load_json (other_meta);
              JsonArray *back = json_object_get_array_member (json_node_get_object (m), "compare");
              gboolean named = FALSE;

              g_assert_cmpstr (other, !=, dir);
              for (guint q = 0; back != NULL && q < json_array_get_length (back); q++)
                named |= g_str_equal (json_array_get_string_element (back, q), dir);
              if (!named)
                g_error ("%s compares with %s, which does not name it back", dir, other);
            }
        }
    }

  /* Every folder is in the course */
  d = g_dir_open (folder, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      gboolean listed = FALSE;

      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      for (guint i = 0; i < dirs->len; i++)
        listed |= strcmp (dirs->pdata[i], name) == 0;
      if (!listed)
        g_error ("data/samples/%s is not in index.json", name);
    }
}

/* ---- running a sample --------------------------------------------------------- */

static void
test_run (gconstpointer data)
{
  Sample s = { 0 };
  g_autofree char *folder = NULL, *meta_path = NULL;
  g_autoptr(JsonNode) meta = NULL;
  g_autofree char *spec_path = NULL, *base = NULL, *cu = NULL;
  g_autoptr(GError) error = NULL;
  CheckFunc check;
  const KsSimFault *fault;

  s.dir = data;
  folder = samples_folder ();
  s.folder = g_build_filename (folder, s.dir, NULL);
  check = find_check (s.dir);
  g_assert_nonnull (check);

  meta_path = g_build_filename (s.folder, "sample.json", NULL);
  meta = load_json (meta_path);
  spec_path = g_build_filename (s.folder,
                                json_object_get_string_member (json_node_get_object (meta), "spec"),
                                NULL);
  s.launch = ks_launch_load (spec_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s.launch->n_buffers, <=, 64);       /* the bits of `checked` */

  base = g_path_get_basename (spec_path);
  *strrchr (base, '.') = '\0';
  cu = g_strdup_printf ("%s/%s.cu", s.folder, base);
  g_file_get_contents (cu, &s.cuda_text, NULL, &error);
  g_assert_no_error (error);

  s.module = ks_ptx_module_parse_file (s.launch->ptx_path, &error);
  g_assert_no_error (error);
  for (uint32_t i = 0; i < s.module->n_diagnostics; i++)
    g_test_message ("%s:%u:%u: %s", s.launch->ptx_path, s.module->diagnostics[i].line,
                    s.module->diagnostics[i].column, s.module->diagnostics[i].message);
  g_assert_cmpuint (s.module->n_errors, ==, 0);

  s.sim = ks_sim_new (s.module, s.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (s.sim, 0, NULL);
  fault = ks_sim_get_fault (s.sim);
  if (fault != NULL && fault->kind != KS_SIM_FAULT_NONE)
    g_error ("%s: %s: %s (PTX line %u, CUDA line %u)", s.dir, ks_sim_fault_kind_name (fault->kind),
             fault->message, fault->ptx_line, fault->cuda_line);
  g_assert_cmpint (ks_sim_get_status (s.sim), ==, KS_SIM_DONE);
  /* a quick launch: the app runs it on open */
  g_test_message ("%s: %" G_GUINT64_FORMAT " thread-instructions in %.3f s", s.dir,
                  ks_sim_get_stats (s.sim)->thread_instructions, ks_sim_get_stats (s.sim)->seconds);
  g_assert_cmpuint (ks_sim_get_stats (s.sim)->thread_instructions, <, 50000000);
  /* no sample races in shared memory */
  {
    uint32_t n_hazards = 0;

    ks_sim_get_hazards (s.sim, &n_hazards);
    g_assert_cmpuint (n_hazards, ==, 0);
  }

  check (&s);

  /* every output of the spec was compared */
  for (uint32_t i = 0; i < s.launch->n_outputs; i++)
    if (!(s.checked & (G_GUINT64_CONSTANT (1) << s.launch->outputs[i])))
      g_error ("%s: output %s was not compared", s.dir,
               s.launch->buffers[s.launch->outputs[i]].name);
  for (uint32_t i = 0; i < s.launch->n_buffers; i++)
    if (s.checked & (G_GUINT64_CONSTANT (1) << i))
      {
        gboolean listed = FALSE;

        for (uint32_t j = 0; j < s.launch->n_outputs; j++)
          listed |= s.launch->outputs[j] == i;
        if (!listed)
          g_error ("%s: %s is compared but not in the spec's outputs", s.dir,
                   s.launch->buffers[i].name);
      }

  /* Big launches run on several threads, with the trace or without: the
   * same results, bit for bit (no sample's result depends on the order of
   * its blocks), and with the trace the same events, memory analysis,
   * statistics, samples and hazards */
  for (int trace = 0; trace < 2; trace++)
    {
      g_autoptr(KsSim) one = ks_sim_new (s.module, s.launch, &error);
      g_autoptr(KsSim) threaded = ks_sim_new (s.module, s.launch, &error);

      g_assert_no_error (error);
      ks_sim_set_trace (one, trace, 0);
      ks_sim_set_trace (threaded, trace, 0);
      ks_sim_set_threads (threaded, 4);
      g_assert_cmpint (ks_sim_run (one, 0, NULL), ==, KS_SIM_DONE);
      g_assert_cmpint (ks_sim_run (threaded, 0, NULL), ==, KS_SIM_DONE);
      assert_same_results (s.module, s.launch, one, threaded);
      for (uint32_t i = 0; i < s.launch->n_outputs; i++)
        {
          size_t a_size = 0, b_size = 0;
          const uint8_t *a = ks_sim_get_buffer (s.sim, s.launch->outputs[i], &a_size);
          const uint8_t *b = ks_sim_get_buffer (threaded, s.launch->outputs[i], &b_size);

          g_assert_cmpmem (a, a_size, b, b_size);
        }
    }

  ks_sim_free (s.sim);
  ks_launch_free (s.launch);
  ks_ptx_module_free (s.module);
  g_free (s.cuda_text);
  g_free (s.folder);
}

/* ---- resources ---------------------------------------------------------------- */

static GPtrArray *
load_ptxas (const char *dir,
            const char *name)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *file = g_strdup_printf ("%s.ptxas.txt", name);
  g_autofree char *path = g_build_filename (folder, dir, file, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  GPtrArray *res;

  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  res = ks_resources_parse_ptxas (text, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 1);
  return res;
}

/* register_spill.ptxas.txt is what ptxas said: the kernel really spills,
 * because __launch_bounds__(128, 16) leaves 65536 / 2048 = 32 registers */
static void
test_spill (void)
{
  g_autoptr(GPtrArray) res = load_ptxas ("24-register-spill", "register_spill");
  const KsKernelResources *r = res->pdata[0];
  g_autofree char *folder = samples_folder ();
  g_autofree char *ptx = g_build_filename (folder, "24-register-spill", "register_spill.ptx", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (ptx, &error);
  const KsPtxFunction *f;

  g_assert_cmpstr (r->arch, ==, "sm_80");
  g_assert_true (r->fields & KS_RESOURCES_HAS_STACK);
  g_assert_cmpuint (r->spill_store_bytes, >, 0);
  g_assert_cmpuint (r->spill_load_bytes, >, 0);
  g_assert_cmpuint (r->registers, <=, 32);

  g_assert_no_error (error);
  f = ks_ptx_module_find_function (m, r->name);
  g_assert_nonnull (f);
  g_assert_cmpuint (f->maxntid[0], ==, 128);
  g_assert_cmpuint (f->minnctapersm, ==, 16);
}

/* No other sample spills: the spill sample is the one that shows it */
static void
test_no_other_spills (void)
{
  g_autoptr(GPtrArray) dirs = load_index ();
  g_autofree char *folder = samples_folder ();

  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *path = g_build_filename (folder, dirs->pdata[i], NULL);
      g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
      const char *name;

      g_assert_nonnull (d);
      while ((name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".ptxas.txt"))
          {
            g_autofree char *base = g_strndup (name, strlen (name) - strlen (".ptxas.txt"));
            g_autoptr(GPtrArray) res = load_ptxas (dirs->pdata[i], base);
            const KsKernelResources *r = res->pdata[0];

            if (strcmp (dirs->pdata[i], "24-register-spill") != 0)
              g_assert_cmpuint (r->spill_store_bytes, ==, 0);
          }
    }
}

/* Without a toolkit the app estimates the resources from the PTX: for every
 * sample but the spill one (whose __launch_bounds__ the estimate does not
 * follow, docs/SAMPLES.md) the occupancy on sm_80 comes out as with the
 * registers ptxas really allocated */
static void
test_estimates (void)
{
  g_autoptr(GPtrArray) dirs = load_index ();
  g_autofree char *folder = samples_folder ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);

  g_assert_no_error (error);
  for (guint i = 0; i < dirs->len; i++)
    {
      const char *dir = dirs->pdata[i];
      g_autofree char *meta_path = g_build_filename (folder, dir, "sample.json", NULL);
      g_autoptr(JsonNode) meta = load_json (meta_path);
      const char *spec_name = json_object_get_string_member (json_node_get_object (meta), "spec");
      g_autofree char *spec = g_build_filename (folder, dir, spec_name, NULL);
      g_autoptr(KsLaunch) launch = ks_launch_load (spec, &error);
      g_autoptr(KsPtxModule) m = NULL;
      g_autoptr(KsKernelResources) estimate = NULL;
      g_autoptr(GPtrArray) res = NULL;
      g_autofree char *base = NULL;
      const KsKernelResources *r;
      const KsArchInfo *arch;
      KsOccupancyInput in;
      KsOccupancyResult with_ptxas, with_estimate;

      g_assert_no_error (error);
      if (strcmp (dir, "24-register-spill") == 0)
        continue;
      m = ks_ptx_module_parse_file (launch->ptx_path, &error);
      g_assert_no_error (error);
      for (uint32_t f = 0; f < m->n_functions; f++)
        if (ks_ptx_span_equal (m, m->functions[f].name, launch->kernel))
          estimate = ks_resources_estimate (m, f);
      g_assert_nonnull (estimate);

      base = g_path_get_basename (launch->ptx_path);
      *strrchr (base, '.') = '\0';
      res = load_ptxas (dir, base);
      r = res->pdata[0];
      arch = ks_gpu_db_get_arch (db, r->arch);
      g_assert_nonnull (arch);

      ks_occupancy_input_init (&in);
      in.block_size = launch->block[0] * launch->block[1] * launch->block[2];
      in.registers_per_thread = r->registers;
      in.static_shared_bytes = r->shared_static_bytes;
      in.barriers = r->barriers;
      g_assert_true (ks_occupancy_compute (arch, &in, &with_ptxas, NULL));
      in.registers_per_thread = estimate->registers;
      in.static_shared_bytes = estimate->shared_static_bytes;
      in.barriers = estimate->barriers;
      g_assert_true (ks_occupancy_compute (arch, &in, &with_estimate, NULL));
      if (with_ptxas.active_blocks_per_sm != with_estimate.active_blocks_per_sm
          || with_ptxas.limiter != with_estimate.limiter)
        g_test_fail_printf ("%s: %u blocks per SM limited by %s with ptxas's %u registers, "
                            "%u limited by %s with the estimate's %u", dir,
                            with_ptxas.active_blocks_per_sm,
                            ks_occupancy_limiter_name (with_ptxas.limiter), r->registers,
                            with_estimate.active_blocks_per_sm,
                            ks_occupancy_limiter_name (with_estimate.limiter), estimate->registers);
      g_assert_cmpuint (estimate->shared_static_bytes, ==, r->shared_static_bytes);
    }
}

/* 48 KiB of static shared memory, plus the 1 KiB sm_80 reserves per block,
 * into the 164 KiB of an SM: 3 blocks; warps (8 a block, 64 an SM) and the
 * registers would allow 8 */
static void
test_occupancy_shared (void)
{
  g_autoptr(GPtrArray) res = load_ptxas ("25-occupancy-shared", "occupancy_shared");
  const KsKernelResources *r = res->pdata[0];
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  const KsArchInfo *arch;
  g_autofree char *folder = samples_folder ();
  g_autofree char *ptx = g_build_filename (folder, "25-occupancy-shared", "occupancy_shared.ptx",
                                          NULL);
  g_autoptr(KsPtxModule) m = NULL;
  g_autoptr(KsKernelResources) estimate = NULL;
  KsOccupancyInput in;
  KsOccupancyResult out;

  g_assert_no_error (error);
  /* the architecture ptxas compiled for */
  g_assert_cmpstr (r->arch, ==, "sm_80");
  arch = ks_gpu_db_get_arch (db, r->arch);
  g_assert_nonnull (arch);
  g_assert_cmpuint (r->shared_static_bytes, ==, 48 * 1024);

  ks_occupancy_input_init (&in);
  in.block_size = 256;
  in.registers_per_thread = r->registers;
  in.static_shared_bytes = r->shared_static_bytes;
  in.barriers = r->barriers;
  g_assert_true (ks_occupancy_compute (arch, &in, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpint (out.limiter, ==, KS_OCCUPANCY_LIMIT_SHARED_MEMORY);
  g_assert_cmpuint (out.active_blocks_per_sm, ==, 3);
  g_assert_cmpuint (out.active_warps_per_sm, ==, 24);
  g_assert_cmpuint (out.blocks_by_warps, ==, 8);
  g_assert_cmpuint (out.blocks_by_registers, >, 3);

  /* Without a toolkit the app estimates from the PTX: the same limiter */
  m = ks_ptx_module_parse_file (ptx, &error);
  g_assert_no_error (error);
  for (uint32_t i = 0; i < m->n_functions; i++)
    if (m->functions[i].kind == KS_PTX_FUNCTION_ENTRY)
      estimate = ks_resources_estimate (m, i);
  g_assert_nonnull (estimate);
  g_assert_cmpuint (estimate->shared_static_bytes, ==, r->shared_static_bytes);
  in.registers_per_thread = estimate->registers;
  g_assert_true (ks_occupancy_compute (arch, &in, &out, &error));
  g_assert_cmpint (out.limiter, ==, KS_OCCUPANCY_LIMIT_SHARED_MEMORY);
  g_assert_cmpuint (out.active_blocks_per_sm, ==, 3);
}

/* ---- regenerating with nvcc -------------------------------------------------- */

static char *
find_nvcc (void)
{
  char *nvcc = g_find_program_in_path ("nvcc");
  const char *home = g_getenv ("CUDA_HOME");

  if (nvcc == NULL && home != NULL)
    {
      nvcc = g_build_filename (home, "bin", "nvcc", NULL);
      if (!g_file_test (nvcc, G_FILE_TEST_IS_EXECUTABLE))
        g_clear_pointer (&nvcc, g_free);
    }
  if (nvcc == NULL && g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    nvcc = g_strdup ("/usr/local/cuda/bin/nvcc");
  return nvcc;
}

/* The "Cuda compilation tools, release ..." line of a PTX header */
static char *
version_line (const char *text)
{
  const char *p = strstr (text, "Cuda compilation tools");
  const char *end;

  if (p == NULL)
    return g_strdup ("");
  end = strchr (p, '\n');
  return end != NULL ? g_strndup (p, (gsize) (end - p)) : g_strdup (p);
}

/* The instructions and directives, without comments, with .file paths
 * cut to their base name (the toolkit's headers are wherever it is), and
 * without what depends on the folder the source was compiled in: nvcc names
 * internal-linkage symbols _INTERNAL_<hash of the path>_..., in the code and
 * in the debug sections' bytes (.b8 lines), so the hash is blanked and the
 * debug bytes left out */
static char *
instructions (const char *text)
{
  static GRegex *internal;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);

  if (internal == NULL)
    internal = g_regex_new ("_INTERNAL_[0-9a-f]{8}_", 0, 0, NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *blanked = g_regex_replace_literal (internal, lines[i], -1, 0, "_INTERNAL_",
                                                           0, NULL);
      const char *l = blanked ? blanked : lines[i];
      const char *quote, *slash;

      while (*l == ' ' || *l == '\t')
        l++;
      if (g_str_has_prefix (l, "//") || *l == '\0' || g_str_has_prefix (l, ".b8"))
        continue;
      if (g_str_has_prefix (l, ".file") && (quote = strchr (l, '"')) != NULL
          && (slash = strrchr (quote, '/')) != NULL)
        {
          g_string_append_len (out, l, quote + 1 - l);
          g_string_append (out, slash + 1);
        }
      else
        g_string_append (out, l);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* A fresh `ptxas -v` report gives the committed figures (its compile
 * times differ from run to run) */
static void
compare_ptxas (const char *tmp,
               const char *dir,
               const char *name)
{
  g_autofree char *base = g_strndup (name, strlen (name) - strlen (".ptxas.txt"));
  g_autoptr(GPtrArray) committed = load_ptxas (dir, base);
  g_autofree char *path = g_build_filename (tmp, dir, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) fresh = NULL;
  const KsKernelResources *a, *b;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, NULL))
    g_error ("regenerate-samples.sh did not make %s/%s", dir, name);
  fresh = ks_resources_parse_ptxas (text, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fresh->len, ==, 1);
  a = committed->pdata[0];
  b = fresh->pdata[0];
  if (a->registers != b->registers || a->shared_static_bytes != b->shared_static_bytes
      || a->spill_store_bytes != b->spill_store_bytes || a->local_bytes != b->local_bytes)
    g_error ("%s/%s: ptxas now reports %u registers, %u bytes of shared memory, %u of spill "
             "stores, %u of stack, committed %u, %u, %u, %u: run build-aux/regenerate-samples.sh",
             dir, name, b->registers, b->shared_static_bytes, b->spill_store_bytes, b->local_bytes,
             a->registers, a->shared_static_bytes, a->spill_store_bytes, a->local_bytes);
}

static void
test_regenerate (void)
{
  g_autofree char *nvcc = find_nvcc ();
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "..", "build-aux",
                                                   "regenerate-samples.sh", NULL);
  g_autofree char *folder = samples_folder ();
  g_autofree char *tmp = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) dirs = NULL;
  const char *argv[] = { "bash", script, NULL, NULL };
  g_auto(GStrv) envp = NULL;
  int status = 0;
  guint n_files = 0, n_exact = 0;

  if (nvcc == NULL)
    {
      g_test_skip ("nvcc not found (PATH, CUDA_HOME, /usr/local/cuda): the committed PTX "
                   "was still parsed and run by /samples/run");
      return;
    }

  tmp = g_dir_make_tmp ("ks-samples-XXXXXX", &error);
  g_assert_no_error (error);
  argv[2] = tmp;
  envp = g_environ_setenv (g_get_environ (), "NVCC", nvcc, TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("regenerate-samples.sh failed:\n%s", err);

  dirs = load_index ();
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *dir = g_build_filename (folder, dirs->pdata[i], NULL);
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      g_assert_nonnull (d);
      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *committed_path = NULL, *fresh_path = NULL;
          g_autofree char *committed = NULL, *fresh = NULL;
          g_autofree char *v1 = NULL, *v2 = NULL, *i1 = NULL, *i2 = NULL;

          if (g_str_has_suffix (name, ".ptxas.txt"))
            {
              compare_ptxas (tmp, dirs->pdata[i], name);
              continue;
            }
          if (!g_str_has_suffix (name, ".ptx"))
            continue;
          committed_path = g_build_filename (dir, name, NULL);
          fresh_path = g_build_filename (tmp, dirs->pdata[i], name, NULL);
          g_file_get_contents (committed_path, &committed, NULL, &error);
          g_assert_no_error (error);
          if (!g_file_get_contents (fresh_path, &fresh, NULL, NULL))
            g_error ("regenerate-samples.sh did not make %s/%s", (char *) dirs->pdata[i], name);
          n_files++;
          if (strcmp (committed, fresh) == 0)
            {
              n_exact++;
              continue;
            }
          v1 = version_line (committed);
          v2 = version_line (fresh);
          i1 = instructions (committed);
          i2 = instructions (fresh);
          if (strcmp (v1, v2) != 0)
            g_test_message ("%s/%s: made by \"%s\", this nvcc is \"%s\": comparing instructions",
                            (char *) dirs->pdata[i], name, v1, v2);
          if (strcmp (i1, i2) != 0)
            g_error ("%s/%s differs from what %s makes now: run build-aux/regenerate-samples.sh",
                     (char *) dirs->pdata[i], name, nvcc);
        }
    }
  g_test_message ("%u PTX files regenerated, %u identical to the byte", n_files, n_exact);
  g_assert_cmpuint (n_files, ==, dirs->len);

  {
    const char *rm[] = { "rm", "-rf", tmp, NULL };

    g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
}

/* ---- the words a student reads ----------------------------------------------- */

/* The sample analysed as the window does without a toolkit: the committed
 * PTX and ptxas report, the simulator, the timing model, the hints */
static KsAnalysis *
analyze_sample (const char *dir,
                const char *spec)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *path = g_build_filename (folder, dir, spec, NULL);
  KsAnalysisRequest req;
  KsAnalysis *a;

  ks_analysis_request_init (&req);
  req.path = path;
  req.use_toolkit = FALSE;
  req.make_sass = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_nonnull (a);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_nonnull (a->hints);
  return a;
}

/* The line of the sample's .cu holding `marker` (not in a comment) */
static uint32_t
analysis_cuda_line (KsAnalysis *a,
                    const char *dir,
                    const char *marker)
{
  Sample s = { 0 };
  g_autofree char *folder = samples_folder ();
  g_autofree char *base = g_path_get_basename (a->launch->ptx_path);
  g_autofree char *cu = NULL;
  uint32_t line;

  *strrchr (base, '.') = '\0';
  cu = g_strdup_printf ("%s/%s/%s.cu", folder, dir, base);
  g_assert_true (g_file_get_contents (cu, &s.cuda_text, NULL, NULL));
  s.dir = dir;
  line = cuda_line (&s, marker);
  g_free (s.cuda_text);
  return line;
}

/* The hint of `category` on that CUDA line (0: about the kernel), or NULL */
static const KsHint *
find_hint (KsAnalysis *a,
           const char *category,
           uint32_t    line)
{
  for (guint i = 0; i < a->hints->len; i++)
    {
      const KsHint *h = a->hints->pdata[i];

      if (g_str_equal (h->category, category) && h->cuda_line == line)
        return h;
    }
  return NULL;
}

/* Sample 21 (n = 64, 4 x 4 blocks of 16 x 16 threads): a warp is two rows
 * of a block (threadIdx.y = 2w, 2w + 1).  In the loop, the load of
 * A[row * n + k] is one float per row, 64 x 4 = 256 bytes apart, each for
 * 16 lanes: 2 sectors, and no access to two values that far apart moves
 * fewer, so its ideal is 2; 8 bytes used.  The load of B[k * n + col]: both
 * rows read the same 16 columns, 64 bytes from a 64-byte boundary (col
 * starts at a multiple of 16): 2 sectors, ideal 2, 64 bytes used.  Each
 * of the 4 x 4 x 8 = 128 warps runs the loop n = 64 times: 8192 of each
 * load.  Nothing there is uncoalesced, and the caption and hints used to
 * say so. */
static void
test_words_matmul_broadcast (void)
{
  g_autoptr(KsAnalysis) a = analyze_sample ("21-matmul-naive", "matmul_naive.json");
  Sample s = { .module = a->module, .sim = a->sim };
  KsSimInsnStats st;
  uint32_t line = analysis_cuda_line (a, "21-matmul-naive", "sum += A[row * n + k]");
  const uint64_t pairs = 4 * 4 * 8 * 64;

  s.dir = "21-matmul-naive";
  st = sum_stats (&s, KS_PTX_OPC_LD, KS_PTX_SPACE_GLOBAL, line);
  g_assert_cmpuint (st.gmem_requests, ==, 2 * pairs);
  g_assert_cmpuint (st.gmem_sectors, ==, (2 + 2) * pairs);
  g_assert_cmpuint (st.gmem_ideal_sectors, ==, (2 + 2) * pairs);
  g_assert_cmpuint (st.gmem_used_bytes, ==, (8 + 64) * pairs);
  g_assert_cmpuint (st.gmem_requested_bytes, ==, 2 * 32 * 4 * pairs);
  for (guint i = 0; i < a->hints->len; i++)
    g_assert_cmpstr (((KsHint *) a->hints->pdata[i])->category, !=, "coalescing");
}

/* A warp's request of shared words: the most distinct words one bank
 * serves (the Programming Guide's rule, written again here) */
static uint32_t
bank_degree (const uint32_t *words,
             guint           n)
{
  uint32_t worst = 0;

  for (guint i = 0; i < n; i++)
    {
      uint32_t distinct = 0;

      for (guint j = 0; j < n; j++)
        {
          gboolean seen = FALSE;

          if (words[j] % 32 != words[i] % 32)
            continue;
          for (guint k = 0; k < j && !seen; k++)
            seen = words[k] == words[j];
          distinct += !seen;
        }
      worst = MAX (worst, distinct);
    }
  return worst;
}

/* Sample 18's up-sweep, `temp[bi] += temp[ai]` with ai = o (2t + 1) - 1,
 * bi = o (2t + 2) - 1, for offsets o = 1, 2, ..., 256 and the t < d =
 * 256 / o threads: two loads and a store per step and warp with threads in
 * it.  Neighbouring lanes are 2o words apart, so the degree grows 2, 4, 8,
 * 16 and stays 16 while 16 or more lanes share one bank; over the four
 * blocks 240 requests take 1140 passes, 4.75 a request: "up to 16-way,
 * 4.8-way on average", as the sample's text promises (16-way).  The hint
 * said "4-way", the first unrolled step's figure. */
static void
test_words_scan_bank_conflicts (void)
{
  g_autoptr(KsAnalysis) a = analyze_sample ("18-scan-blelloch", "scan_blelloch.json");
  uint32_t line = analysis_cuda_line (a, "18-scan-blelloch", "temp[bi] += temp[ai];");
  uint64_t passes = 0, requests = 0;
  uint32_t worst = 0;
  const KsHint *h;
  g_autofree char *average = NULL;
  g_autofree char *expected = NULL;

  for (uint32_t o = 1, d = 256; d > 0; o *= 2, d /= 2)
    for (uint32_t w = 0; w * 32 < d; w++)
      {
        uint32_t ai[32], bi[32], n = 0;

        for (uint32_t t = w * 32; t < MIN (w * 32 + 32, d); t++, n++)
          {
            ai[n] = o * (2 * t + 1) - 1;
            bi[n] = o * (2 * t + 2) - 1;
          }
        passes += bank_degree (ai, n) + 2 * bank_degree (bi, n);
        requests += 3;
        worst = MAX (worst, MAX (bank_degree (ai, n), bank_degree (bi, n)));
      }
  passes *= a->launch->grid[0];
  requests *= a->launch->grid[0];
  g_assert_cmpuint (worst, ==, 16);
  g_assert_cmpuint (requests, ==, 240);
  g_assert_cmpuint (passes, ==, 1140);

  h = find_hint (a, "shared-memory", line);
  g_assert_nonnull (h);
  average = ks_format_figure ((double) passes / requests);
  g_assert_cmpstr (average, ==, "4.8");
  expected = g_strdup_printf ("Shared-memory bank conflicts up to %u-way, %s-way on average", worst,
                              average);
  g_assert_cmpstr (h->message, ==, expected);
  g_assert_true (g_str_has_prefix (h->detail, "4.8 wavefronts per request where 1 would do; 900 "
                                   "extra wavefronts over 240 requests"));
}

/* Sample 05's first branch, on threadIdx.x % 2: in every warp 16 even
 * lanes go one way and 16 odd ones the other, every time */
static void
test_words_divergence_split (void)
{
  g_autoptr(KsAnalysis) a = analyze_sample ("05-divergence", "divergence.json");
  uint32_t line = analysis_cuda_line (a, "05-divergence", "if (threadIdx.x % 2 == 0)");
  const KsHint *h = find_hint (a, "divergence", line);

  /* (g_assert, not g_assert_nonnull: that one may return, and a build
   * without link-time optimisation then refuses h->message) */
  g_assert (h != NULL);
  g_assert_cmpstr (h->message, ==, "Divergent branch: warps split here in 100 % of its executions");
  g_assert_nonnull (strstr (h->detail, "the warp split into 16 and 16 lanes"));
  g_assert_null (strstr (h->detail, "on average"));
  /* the warp-uniform branch never splits */
  g_assert_null (find_hint (a, "divergence",
                            analysis_cuda_line (a, "05-divergence",
                                                "if ((threadIdx.x / 32) % 2 == 0)")));
}

/* Sample 25 on an A100: 48 KiB of static shared memory plus the 1 KiB
 * the system reserves is 49 KiB a block; 164 KiB hold 3 blocks of 8
 * warps, 24 of 64 warps, 37.5 % (the sample's text), limited by shared
 * memory: in words, with the decimal */
static void
test_words_occupancy_shared (void)
{
  g_autoptr(KsAnalysis) a = analyze_sample ("25-occupancy-shared", "occupancy_shared.json");
  g_autofree char *summary = NULL;
  const KsHint *h = find_hint (a, "occupancy", 0);

  g_assert_true (a->have_occupancy);
  summary = ks_occupancy_summary (&a->occupancy);
  g_assert_cmpstr (summary, ==,
                   "24 of 64 warps per SM (37.5 %), 3 blocks: limited by shared memory");
  g_assert_nonnull (h);
  g_assert_cmpstr (h->message, ==, "Low occupancy: 37.5 %, limited by shared memory");
  g_assert_cmpstr (h->detail, ==, "3 blocks and 24 of 64 warps per SM");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) dirs = NULL;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/samples/catalogue", test_catalogue);
  dirs = load_index ();
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/samples/run/%s", (char *) dirs->pdata[i]);

      g_test_add_data_func (path, dirs->pdata[i], test_run);
    }
  g_test_add_func ("/samples/resources/spill", test_spill);
  g_test_add_func ("/samples/resources/no-other-spills", test_no_other_spills);
  g_test_add_func ("/samples/resources/occupancy-shared", test_occupancy_shared);
  g_test_add_func ("/samples/resources/estimates", test_estimates);
  g_test_add_func ("/samples/words/matmul-broadcast", test_words_matmul_broadcast);
  g_test_add_func ("/samples/words/scan-bank-conflicts", test_words_scan_bank_conflicts);
  g_test_add_func ("/samples/words/divergence-split", test_words_divergence_split);
  g_test_add_func ("/samples/words/occupancy-shared", test_words_occupancy_shared);
  g_test_add_func ("/samples/regenerate", test_regenerate);
  return g_test_run ();
}
