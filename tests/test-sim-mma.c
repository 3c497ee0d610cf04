/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of ks-sim-mma: mma.sync, ldmatrix and wmma over a warp's registers.
 *
 * The fragment layouts below are transcribed a second time, independently of
 * ks-sim-mma.c and in the ISA's own words (its "row = ... for ai where ..."
 * formulas under each "Matrix Fragments for mma.m16n8k*" figure), so that a
 * mistake in either copy shows up as a wrong product rather than being
 * cancelled by the same mistake on the way in and out.  The reference
 * product is a plain triple loop with C's fmaf in increasing k, which is
 * what the simulator promises bit for bit.
 */

#include <math.h>
#include <string.h>

#include <glib.h>

#include "ks-sim-math.h"
#include "ks-sim-mma.h"

#define LANES 32

/* ---- the ISA's layouts, as written there ----------------------------------- */

typedef void (*Coord) (int lane, int i, int *row, int *col);

/* m16n8k16, .f16/.bf16 A: "row = groupID for ai where 0 <= i < 2 || 4 <= i <
 * 6, groupID + 8 Otherwise; col = (threadID_in_group * 2) + (i & 0x1) for ai
 * where i < 4, (threadID_in_group * 2) + (i & 0x1) + 8 for ai where i >= 4" */
static void
isa_k16_a (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = ((0 <= i && i < 2) || (4 <= i && i < 6)) ? groupID : groupID + 8;
  *col = i < 4 ? threadID_in_group * 2 + (i & 0x1) : threadID_in_group * 2 + (i & 0x1) + 8;
}

/* m16n8k16, .f16/.bf16 B: "row = (threadID_in_group * 2) + (i & 0x1) for bi
 * where i < 2, (threadID_in_group * 2) + (i & 0x1) + 8 for bi where i >= 2;
 * col = groupID" */
static void
isa_k16_b (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = i < 2 ? threadID_in_group * 2 + (i & 0x1) : threadID_in_group * 2 + (i & 0x1) + 8;
  *col = groupID;
}

/* C/D, .f16 and .f32, all m16n8 shapes: "row = groupID for ci where i < 2,
 * groupID + 8 for ci where i >= 2; col = (threadID_in_group * 2) + (i & 0x1)
 * for ci where i = {0,..,3}" */
static void
isa_c (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = i < 2 ? groupID : groupID + 8;
  *col = threadID_in_group * 2 + (i & 0x1);
}

/* m16n8k8, .f16/.bf16 A: "row = groupID for a0 and a1, groupID + 8 for a2 and
 * a3; col = threadID_in_group * 2 + (i & 0x1) for ai where i = {0,..,3}" */
static void
isa_k8_a (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = (i == 0 || i == 1) ? groupID : groupID + 8;
  *col = threadID_in_group * 2 + (i & 0x1);
}

/* m16n8k8, .f16/.bf16 B: "row = (threadID_in_group * 2) + i for bi where
 * i = {0,1}; col = groupID" */
static void
isa_k8_b (int lane, int i, int *row, int *col)
{
  *row = (lane % 4) * 2 + i;
  *col = lane >> 2;
}

/* m16n8k8, .tf32 A: "row = groupID for a0 and a2, groupID + 8 for a1 and a3;
 * col = threadID_in_group for a0 and a1, threadID_in_group + 4 for a2 and
 * a3" */
static void
isa_k8_tf32_a (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = (i == 0 || i == 2) ? groupID : groupID + 8;
  *col = (i == 0 || i == 1) ? threadID_in_group : threadID_in_group + 4;
}

/* m16n8k8, .tf32 B: "row = threadID_in_group for b0, threadID_in_group + 4
 * for b1; col = groupID" */
static void
isa_k8_tf32_b (int lane, int i, int *row, int *col)
{
  *row = i == 0 ? lane % 4 : lane % 4 + 4;
  *col = lane >> 2;
}

/* m16n8k4, .tf32 A: "row = groupID for a0, groupID + 8 for a1;
 * col = threadID_in_group" */
static void
isa_k4_tf32_a (int lane, int i, int *row, int *col)
{
  *row = i == 0 ? lane >> 2 : (lane >> 2) + 8;
  *col = lane % 4;
}

/* m16n8k4, .tf32 B: "row = threadID_in_group; col = groupID" */
static void
isa_k4_tf32_b (int lane, int i, int *row, int *col)
{
  *row = lane % 4;
  *col = lane >> 2;
}

/* ---- values ------------------------------------------------------------------ */

/* The test's own f16 -> float, from the IEEE 754 binary16 definition. */
static float
half_to_float (uint16_t h)
{
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v;

  g_assert (e != 0x1f);
  if (e == 0)
    v = ldexpf ((float) m, -24);
  else
    v = ldexpf ((float) (m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}

static float
bits_to_float (uint32_t b)
{
  float f;

  memcpy (&f, &b, sizeof f);
  return f;
}

static uint32_t
float_to_bits (float f)
{
  uint32_t b;

  memcpy (&b, &f, sizeof b);
  return b;
}

/* Random finite values between about 2^-6 and 2^6, with full mantissas, so
 * that the sums round and the order of accumulation matters. */
static uint32_t
random_elem (KsPtxType type)
{
  uint32_t sign = (uint32_t) g_random_int_range (0, 2);
  uint32_t m = g_random_int ();

  switch (type)
    {
    case KS_PTX_TYPE_F16:
      return (sign << 15) | ((uint32_t) g_random_int_range (15 - 6, 15 + 7) << 10) | (m & 0x3ff);
    case KS_PTX_TYPE_BF16:
      return (sign << 15) | ((uint32_t) g_random_int_range (127 - 6, 127 + 7) << 7) | (m & 0x7f);
    case KS_PTX_TYPE_TF32:
      return (sign << 31) | ((uint32_t) g_random_int_range (127 - 6, 127 + 7) << 23)
             | (m & 0x7fe000);
    case KS_PTX_TYPE_F32:
      return (sign << 31) | ((uint32_t) g_random_int_range (127 - 6, 127 + 7) << 23)
             | (m & 0x7fffff);
    default:
      g_assert_not_reached ();
    }
}

static float
elem_value (KsPtxType type, uint32_t bits)
{
  switch (type)
    {
    case KS_PTX_TYPE_F16:
      return half_to_float ((uint16_t) bits);
    case KS_PTX_TYPE_BF16:
      return bits_to_float (bits << 16);
    case KS_PTX_TYPE_TF32:
    case KS_PTX_TYPE_F32:
      return bits_to_float (bits);
    default:
      g_assert_not_reached ();
    }
}

static bool
is_16bit (KsPtxType type)
{
  return type == KS_PTX_TYPE_F16 || type == KS_PTX_TYPE_BF16;
}

/* D = A x B + C, fmaf in increasing k; returns D's bits in dtype. */
static void
reference (int m, int n, int k, KsPtxType ab, KsPtxType ct, KsPtxType dt,
           const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
        float acc = elem_value (ct, c[i * n + j]);

        for (int kk = 0; kk < k; kk++)
          acc = fmaf (elem_value (ab, a[i * k + kk]), elem_value (ab, b[kk * n + j]), acc);
        d[i * n + j] = dt == KS_PTX_TYPE_F16
                         ? ks_cvt_f16_f32 (float_to_bits (acc), KS_PTX_ROUND_RN, 0)
                         : float_to_bits (acc);
      }
}

/* Register rows: register i of lane l is regs[i][l]; rows[i] points at it. */
typedef struct
{
  uint64_t regs[8][LANES];
  uint64_t *rows[8];
} Frag;

static void
frag_init (Frag *f, uint64_t fill)
{
  for (int i = 0; i < 8; i++)
    {
      for (int l = 0; l < LANES; l++)
        f->regs[i][l] = fill;
      f->rows[i] = f->regs[i];
    }
}

/* Put a rows x cols matrix into the lanes: element i of each lane at the
 * place coord gives, two to a register for 16-bit types, low half first. */
static void
distribute (Frag *f, Coord coord, int n_elems, KsPtxType type, const uint32_t *mat, int cols)
{
  for (int lane = 0; lane < LANES; lane++)
    for (int i = 0; i < n_elems; i++)
      {
        int row, col;
        uint32_t v;

        coord (lane, i, &row, &col);
        v = mat[row * cols + col];
        if (is_16bit (type))
          {
            uint32_t r = (uint32_t) f->regs[i / 2][lane];

            if (i % 2 == 0)
              r = (r & 0xffff0000u) | v;
            else
              r = (r & 0xffffu) | (v << 16);
            f->regs[i / 2][lane] = r;
          }
        else
          f->regs[i][lane] = v;
      }
}

static void
gather (const Frag *f, Coord coord, int n_elems, KsPtxType type, uint32_t *mat, int cols)
{
  for (int lane = 0; lane < LANES; lane++)
    for (int i = 0; i < n_elems; i++)
      {
        int row, col;
        uint64_t r;

        coord (lane, i, &row, &col);
        r = f->regs[is_16bit (type) ? i / 2 : i][lane];
        /* Results are written zero-extended. */
        g_assert_cmphex (r >> 32, ==, 0);
        if (is_16bit (type))
          mat[row * cols + col] = (uint32_t) (r >> (16 * (i % 2))) & 0xffffu;
        else
          mat[row * cols + col] = (uint32_t) r;
      }
}

/* ---- mma.sync ------------------------------------------------------------------ */

typedef struct
{
  KsMmaShape shape;
  int k;
  KsPtxType ab, ct, dt;
  Coord a, b;
} MmaCase;

static void
check_mma (const MmaCase *mc, bool alias)
{
  uint32_t a[16 * 16], b[16 * 8], c[16 * 8], d[16 * 8], want[16 * 8];
  g_autofree Frag *fa = g_new (Frag, 1);
  g_autofree Frag *fb = g_new (Frag, 1);
  g_autofree Frag *fc = g_new (Frag, 1);
  g_autofree Frag *fd = g_new (Frag, 1);
  int ab_per_reg = is_16bit (mc->ab) ? 2 : 1;
  int d_regs = mc->dt == KS_PTX_TYPE_F16 ? 2 : 4;

  for (int iter = 0; iter < 50; iter++)
    {
      for (int i = 0; i < 16 * mc->k; i++)
        a[i] = random_elem (mc->ab);
      for (int i = 0; i < mc->k * 8; i++)
        b[i] = random_elem (mc->ab);
      for (int i = 0; i < 16 * 8; i++)
        c[i] = random_elem (mc->ct);

      /* Garbage above bit 31 must not matter. */
      frag_init (fa, 0xdeadbeef00000000ull);
      frag_init (fb, 0xdeadbeef00000000ull);
      frag_init (fc, 0xdeadbeef00000000ull);
      frag_init (fd, 0xfeedfacecafef00dull);
      distribute (fa, mc->a, 16 * mc->k / LANES, mc->ab, a, mc->k);
      distribute (fb, mc->b, mc->k * 8 / LANES, mc->ab, b, 8);
      distribute (fc, isa_c, 4, mc->ct, c, 8);

      g_assert_cmpuint (ks_mma_n_regs (mc->shape, KS_MMA_OPERAND_A, mc->ab), ==,
                        16 * mc->k / LANES / ab_per_reg);
      g_assert_cmpuint (ks_mma_n_regs (mc->shape, KS_MMA_OPERAND_B, mc->ab), ==,
                        mc->k * 8 / LANES / ab_per_reg);
      g_assert_cmpuint (ks_mma_n_regs (mc->shape, KS_MMA_OPERAND_C, mc->dt), ==, d_regs);

      g_assert_true (ks_mma_sync (mc->shape, mc->ab, mc->ab, mc->ct, mc->dt,
                                  (const uint64_t *const *) fa->rows,
                                  (const uint64_t *const *) fb->rows,
                                  (const uint64_t *const *) fc->rows,
                                  alias ? fc->rows : fd->rows));
      /* Registers beyond the fragment are left alone. */
      for (int i = d_regs; i < 8 && !alias; i++)
        for (int l = 0; l < LANES; l++)
          g_assert_cmphex (fd->regs[i][l], ==, 0xfeedfacecafef00dull);

      gather (alias ? fc : fd, isa_c, 4, mc->dt, d, 8);
      reference (16, 8, mc->k, mc->ab, mc->ct, mc->dt, a, b, c, want);
      for (int i = 0; i < 16 * 8; i++)
        {
          if (d[i] != want[i])
            g_error ("D[%d][%d] = 0x%08x, want 0x%08x", i / 8, i % 8, d[i], want[i]);
        }
    }
}

static void
test_mma (gconstpointer data)
{
  check_mma (data, FALSE);
}

static void
test_mma_alias (void)
{
  MmaCase mc = { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
                 isa_k16_a, isa_k16_b };

  check_mma (&mc, TRUE);
  mc.ct = mc.dt = KS_PTX_TYPE_F16;
  check_mma (&mc, TRUE);
}

/* The result depends on the order of accumulation: 2^24 + 1 rounds back to
 * 2^24 (ties to even), so adding 2^24, 1, -2^24 in k order gives 0, where
 * the exact sum is 1. */
static void
test_mma_k_order (void)
{
  uint32_t a[16 * 8], b[8 * 8], c[16 * 8] = { 0 }, d[16 * 8];
  g_autofree Frag *fa = g_new (Frag, 1);
  g_autofree Frag *fb = g_new (Frag, 1);
  g_autofree Frag *fc = g_new (Frag, 1);

  for (int i = 0; i < 16 * 8; i++)
    a[i] = 0x3f80;              /* bf16 1.0 */
  memset (b, 0, sizeof b);
  b[0 * 8 + 0] = 0x4b80;        /* 2^24 */
  b[1 * 8 + 0] = 0x3f80;        /* 1 */
  b[2 * 8 + 0] = 0xcb80;        /* -2^24 */
  b[0 * 8 + 1] = 0x3f80;        /* column 1: 1, 2^24, -2^24 */
  b[1 * 8 + 1] = 0x4b80;
  b[2 * 8 + 1] = 0xcb80;
  frag_init (fa, 0);
  frag_init (fb, 0);
  frag_init (fc, 0);
  distribute (fa, isa_k8_a, 4, KS_PTX_TYPE_BF16, a, 8);
  distribute (fb, isa_k8_b, 2, KS_PTX_TYPE_BF16, b, 8);
  distribute (fc, isa_c, 4, KS_PTX_TYPE_F32, c, 8);
  g_assert_true (ks_mma_sync (KS_MMA_M16N8K8, KS_PTX_TYPE_BF16, KS_PTX_TYPE_BF16,
                              KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
                              (const uint64_t *const *) fa->rows,
                              (const uint64_t *const *) fb->rows,
                              (const uint64_t *const *) fc->rows, fc->rows));
  gather (fc, isa_c, 4, KS_PTX_TYPE_F32, d, 8);
  for (int row = 0; row < 16; row++)
    {
      g_assert_cmphex (d[row * 8 + 0], ==, 0x00000000u);      /* 2^24 + 1 - 2^24 */
      g_assert_cmphex (d[row * 8 + 1], ==, 0x00000000u);      /* 1 + 2^24 - 2^24 */
    }
  /* With the 1 last the sum survives. */
  b[0 * 8 + 2] = 0x4b80;
  b[1 * 8 + 2] = 0xcb80;
  b[2 * 8 + 2] = 0x3f80;
  distribute (fb, isa_k8_b, 2, KS_PTX_TYPE_BF16, b, 8);
  g_assert_true (ks_mma_sync (KS_MMA_M16N8K8, KS_PTX_TYPE_BF16, KS_PTX_TYPE_BF16,
                              KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
                              (const uint64_t *const *) fa->rows,
                              (const uint64_t *const *) fb->rows,
                              (const uint64_t *const *) fc->rows, fc->rows));
  gather (fc, isa_c, 4, KS_PTX_TYPE_F32, d, 8);
  g_assert_cmphex (d[2], ==, 0x3f800000u);
}

static void
test_mma_unsupported (void)
{
  uint64_t row[LANES] = { 0 };
  uint64_t out[LANES];
  const uint64_t *in[8] = { row, row, row, row, row, row, row, row };
  uint64_t *o[8] = { out, out, out, out, out, out, out, out };

  for (int l = 0; l < LANES; l++)
    out[l] = 0x1234;
  /* bf16 and tf32 have only .f32 accumulators; tf32 has no k16; f16 no k4;
   * A and B must agree. */
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K16, KS_PTX_TYPE_BF16, KS_PTX_TYPE_BF16,
                               KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K8, KS_PTX_TYPE_TF32, KS_PTX_TYPE_TF32,
                               KS_PTX_TYPE_F32, KS_PTX_TYPE_F16, in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K16, KS_PTX_TYPE_TF32, KS_PTX_TYPE_TF32,
                               KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K4, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16,
                               KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K16, KS_PTX_TYPE_F16, KS_PTX_TYPE_BF16,
                               KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
                               KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, in, in, in, o));
  for (int l = 0; l < LANES; l++)
    g_assert_cmphex (out[l], ==, 0x1234);
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M16N8K16, KS_MMA_OPERAND_A, KS_PTX_TYPE_TF32), ==, 0);
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M16N8K4, KS_MMA_OPERAND_A, KS_PTX_TYPE_F16), ==, 0);
}

/* ---- 8-bit and f64 shapes ------------------------------------------------------------ */

/* m16n8k16, .u8/.s8 A: "row = groupID for ai where i < 4, groupID + 8 for
 * ai where i >= 4; col = (threadID_in_group * 4) + (i & 0x3) for ai where
 * i = {0,..,7}" */
static void
isa_k16_i8_a (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = i < 4 ? groupID : groupID + 8;
  *col = threadID_in_group * 4 + (i & 0x3);
}

/* m16n8k16, .u8/.s8 B: "row = (threadID_in_group * 4) + i for bi where
 * i = {0,..,3}; col = groupID" */
static void
isa_k16_i8_b (int lane, int i, int *row, int *col)
{
  *row = (lane % 4) * 4 + i;
  *col = lane >> 2;
}

/* m16n8k32, .u8/.s8/.e4m3/.e5m2 A: "row = groupID for ai where 0 <= i < 4
 * || 8 <= i < 12, groupID + 8 otherwise; col = (threadID_in_group * 4) +
 * (i & 0x3) for ai where i < 8, (threadID_in_group * 4) + (i & 0x3) + 16
 * for ai where i >= 8" */
static void
isa_k32_a (int lane, int i, int *row, int *col)
{
  int groupID = lane >> 2, threadID_in_group = lane % 4;

  *row = ((0 <= i && i < 4) || (8 <= i && i < 12)) ? groupID : groupID + 8;
  *col = i < 8 ? threadID_in_group * 4 + (i & 0x3) : threadID_in_group * 4 + (i & 0x3) + 16;
}

/* m16n8k32 B: "row = (threadID_in_group * 4) + (i & 0x3) for bi where
 * i < 4, (threadID_in_group * 4) + (i & 0x3) + 16 for bi where i >= 4;
 * col = groupID" */
static void
isa_k32_b (int lane, int i, int *row, int *col)
{
  int threadID_in_group = lane % 4;

  *row = i < 4 ? threadID_in_group * 4 + (i & 0x3) : threadID_in_group * 4 + (i & 0x3) + 16;
  *col = lane >> 2;
}

/* Puts a matrix of bytes into the lanes, four to a register, the
 * lower-numbered element in the low byte ("Elements (low to high)"). */
static void
distribute8 (Frag *f, Coord coord, int n_elems, const uint8_t *mat, int cols)
{
  for (int lane = 0; lane < LANES; lane++)
    for (int i = 0; i < n_elems; i++)
      {
        int row, col;
        uint32_t r = (uint32_t) f->regs[i / 4][lane];

        coord (lane, i, &row, &col);
        r &= ~(0xffu << (8 * (i % 4)));
        r |= (uint32_t) mat[row * cols + col] << (8 * (i % 4));
        f->regs[i / 4][lane] = r;
      }
}

typedef struct
{
  KsMmaShape shape;
  int k;
  KsPtxType at, bt;
  bool satfinite;
  Coord a, b;
} IntCase;

static int64_t
int_elem (KsPtxType t, uint8_t v)
{
  return t == KS_PTX_TYPE_S8 ? (int64_t) (int8_t) v : (int64_t) v;
}

static void
test_mma_int (gconstpointer data)
{
  const IntCase *ic = data;
  uint8_t a[16 * 32], b[32 * 8];
  uint32_t c[16 * 8], d[16 * 8];
  g_autofree Frag *fa = g_new (Frag, 1);
  g_autofree Frag *fb = g_new (Frag, 1);
  g_autofree Frag *fc = g_new (Frag, 1);
  g_autofree Frag *fd = g_new (Frag, 1);
  guint saturated = 0;

  g_assert_cmpuint (ks_mma_n_regs (ic->shape, KS_MMA_OPERAND_A, ic->at), ==, 16 * ic->k / 128);
  g_assert_cmpuint (ks_mma_n_regs (ic->shape, KS_MMA_OPERAND_B, ic->bt), ==, ic->k * 8 / 128);
  g_assert_cmpuint (ks_mma_n_regs (ic->shape, KS_MMA_OPERAND_C, KS_PTX_TYPE_S32), ==, 4);
  for (int iter = 0; iter < 50; iter++)
    {
      for (int i = 0; i < 16 * ic->k; i++)
        a[i] = (uint8_t) g_random_int ();
      for (int i = 0; i < ic->k * 8; i++)
        b[i] = (uint8_t) g_random_int ();
      /* Half the accumulators near the ends of the s32 range, so that the
       * sums overflow */
      for (int i = 0; i < 16 * 8; i++)
        c[i] = i % 2 ? g_random_int ()
                     : (uint32_t) (i % 4 ? G_MAXINT32 - g_random_int_range (0, 100000)
                                         : G_MININT32 + g_random_int_range (0, 100000));
      frag_init (fa, 0xdeadbeef00000000ull);
      frag_init (fb, 0xdeadbeef00000000ull);
      frag_init (fc, 0);
      frag_init (fd, 0xfeedfacecafef00dull);
      distribute8 (fa, ic->a, 16 * ic->k / LANES, a, ic->k);
      distribute8 (fb, ic->b, ic->k * 8 / LANES, b, 8);
      distribute (fc, isa_c, 4, KS_PTX_TYPE_F32, c, 8);     /* 32-bit elements */
      g_assert_true (ks_mma_sync_int (ic->shape, ic->at, ic->bt, ic->satfinite,
                                      (const uint64_t *const *) fa->rows,
                                      (const uint64_t *const *) fb->rows,
                                      (const uint64_t *const *) fc->rows, fd->rows));
      gather (fd, isa_c, 4, KS_PTX_TYPE_F32, d, 8);
      for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++)
          {
            int64_t acc = (int32_t) c[i * 8 + j];
            uint32_t want;

            for (int kk = 0; kk < ic->k; kk++)
              acc += int_elem (ic->at, a[i * ic->k + kk]) * int_elem (ic->bt, b[kk * 8 + j]);
            if (ic->satfinite && (acc > G_MAXINT32 || acc < G_MININT32))
              {
                saturated++;
                want = acc > 0 ? (uint32_t) G_MAXINT32 : (uint32_t) G_MININT32;
              }
            else
              want = (uint32_t) (uint64_t) acc;
            if (d[i * 8 + j] != want)
              g_error ("D[%d][%d] = 0x%08x, want 0x%08x", i, j, d[i * 8 + j], want);
          }
    }
  /* The near-limit accumulators did overflow some of the time */
  if (ic->satfinite)
    g_assert_cmpuint (saturated, >, 0);
}

/* The ISA's e4m3 and e5m2, decoded from their definitions (1-4-3 with bias
 * 7 and no infinities, 1-5-2 with bias 15, as IEEE) */
static float
fp8_value (KsPtxType t, uint8_t v)
{
  int e4 = t == KS_PTX_TYPE_E4M3;
  int mbits = e4 ? 3 : 2, bias = e4 ? 7 : 15;
  int e = (v & 0x7f) >> mbits, m = v & ((1 << mbits) - 1);
  float f = e == 0 ? ldexpf ((float) m, 1 - bias - mbits)
                   : ldexpf ((float) (m | (1 << mbits)), e - bias - mbits);

  return (v & 0x80) ? -f : f;
}

static uint8_t
random_fp8 (KsPtxType t)
{
  for (;;)
    {
      uint8_t v = (uint8_t) g_random_int ();

      /* Not NaN (e4m3 S.1111.111, e5m2 exponent 31) */
      if (t == KS_PTX_TYPE_E4M3 ? (v & 0x7f) != 0x7f : (v & 0x7c) != 0x7c)
        return v;
    }
}

typedef struct
{
  KsPtxType at, bt, ct, dt;
} Fp8Case;

static void
test_mma_fp8 (gconstpointer data)
{
  const Fp8Case *fc8 = data;
  uint8_t a[16 * 32], b[32 * 8];
  uint32_t c[16 * 8], d[16 * 8];
  g_autofree Frag *fa = g_new (Frag, 1);
  g_autofree Frag *fb = g_new (Frag, 1);
  g_autofree Frag *fc = g_new (Frag, 1);
  g_autofree Frag *fd = g_new (Frag, 1);

  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M16N8K32, KS_MMA_OPERAND_A, fc8->at), ==, 4);
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M16N8K32, KS_MMA_OPERAND_B, fc8->bt), ==, 2);
  for (int iter = 0; iter < 30; iter++)
    {
      for (int i = 0; i < 16 * 32; i++)
        a[i] = random_fp8 (fc8->at);
      for (int i = 0; i < 32 * 8; i++)
        b[i] = random_fp8 (fc8->bt);
      for (int i = 0; i < 16 * 8; i++)
        c[i] = random_elem (fc8->ct);
      frag_init (fa, 0);
      frag_init (fb, 0);
      frag_init (fc, 0);
      frag_init (fd, 0);
      distribute8 (fa, isa_k32_a, 16, a, 32);
      distribute8 (fb, isa_k32_b, 8, b, 8);
      distribute (fc, isa_c, 4, fc8->ct, c, 8);
      g_assert_true (ks_mma_sync (KS_MMA_M16N8K32, fc8->at, fc8->bt, fc8->ct, fc8->dt,
                                  (const uint64_t *const *) fa->rows,
                                  (const uint64_t *const *) fb->rows,
                                  (const uint64_t *const *) fc->rows, fd->rows));
      gather (fd, isa_c, 4, fc8->dt, d, 8);
      for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++)
          {
            float acc = elem_value (fc8->ct, c[i * 8 + j]);
            uint32_t want;

            for (int kk = 0; kk < 32; kk++)
              acc = fmaf (fp8_value (fc8->at, a[i * 32 + kk]), fp8_value (fc8->bt, b[kk * 8 + j]),
                          acc);
            want = fc8->dt == KS_PTX_TYPE_F16
                     ? ks_cvt_f16_f32 (float_to_bits (acc), KS_PTX_ROUND_RN, 0)
                     : float_to_bits (acc);
            if (d[i * 8 + j] != want)
              g_error ("D[%d][%d] = 0x%08x, want 0x%08x", i, j, d[i * 8 + j], want);
          }
    }
}

/* m8n8k4 .f64: A "row = %laneid >> 2, col = %laneid % 4"; B "row = %laneid
 * % 4, col = %laneid >> 2"; C/D "row = groupID, col = (threadID_in_group *
 * 2) + (i & 0x1)", one f64 to a register.  The reference is fma() in
 * increasing k. */
static void
test_mma_f64 (void)
{
  double a[8 * 4], b[4 * 8], c[8 * 8];
  uint64_t ra[LANES], rb[LANES], rc[2][LANES], rd[2][LANES];
  const uint64_t *pa[1] = { ra }, *pb[1] = { rb }, *pc[2] = { rc[0], rc[1] };
  uint64_t *pd[2] = { rd[0], rd[1] };

  for (int iter = 0; iter < 50; iter++)
    {
      for (int i = 0; i < 32; i++)
        {
          a[i] = g_random_double_range (-10, 10);
          b[i] = g_random_double_range (-10, 10);
        }
      for (int i = 0; i < 64; i++)
        c[i] = g_random_double_range (-1000, 1000);
      for (int lane = 0; lane < LANES; lane++)
        {
          memcpy (&ra[lane], &a[(lane >> 2) * 4 + lane % 4], 8);
          memcpy (&rb[lane], &b[(lane % 4) * 8 + (lane >> 2)], 8);
          for (int i = 0; i < 2; i++)
            memcpy (&rc[i][lane], &c[(lane >> 2) * 8 + (lane % 4) * 2 + (i & 0x1)], 8);
        }
      g_assert_true (ks_mma_sync (KS_MMA_M8N8K4, KS_PTX_TYPE_F64, KS_PTX_TYPE_F64,
                                  KS_PTX_TYPE_F64, KS_PTX_TYPE_F64, pa, pb, pc, pd));
      for (int lane = 0; lane < LANES; lane++)
        for (int i = 0; i < 2; i++)
          {
            int row = lane >> 2, col = (lane % 4) * 2 + (i & 0x1);
            double want = c[row * 8 + col], got;

            for (int kk = 0; kk < 4; kk++)
              want = fma (a[row * 4 + kk], b[kk * 8 + col], want);
            memcpy (&got, &rd[i][lane], 8);
            g_assert_cmpfloat (got, ==, want);
          }
    }
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M8N8K4, KS_MMA_OPERAND_A, KS_PTX_TYPE_F64), ==, 1);
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M8N8K4, KS_MMA_OPERAND_C, KS_PTX_TYPE_F64), ==, 2);
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M8N8K4, KS_MMA_OPERAND_A, KS_PTX_TYPE_F16), ==, 0);
}

static void
test_mma_int_unsupported (void)
{
  uint64_t row[LANES] = { 0 }, out[LANES];
  const uint64_t *in[8] = { row, row, row, row, row, row, row, row };
  uint64_t *o[8] = { out, out, out, out, out, out, out, out };

  /* Integer shapes are k16 and k32; the float entry point refuses s8, and
   * the integer one refuses floats. */
  g_assert_false (ks_mma_sync_int (KS_MMA_M16N8K8, KS_PTX_TYPE_S8, KS_PTX_TYPE_S8, FALSE,
                                   in, in, in, o));
  g_assert_false (ks_mma_sync_int (KS_MMA_M16N8K16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, FALSE,
                                   in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K32, KS_PTX_TYPE_S8, KS_PTX_TYPE_S8,
                               KS_PTX_TYPE_S32, KS_PTX_TYPE_S32, in, in, in, o));
  /* fp8 is k32 only here, and has no s32 accumulator */
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K16, KS_PTX_TYPE_E4M3, KS_PTX_TYPE_E4M3,
                               KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, in, in, in, o));
  g_assert_false (ks_mma_sync (KS_MMA_M16N8K32, KS_PTX_TYPE_E4M3, KS_PTX_TYPE_E5M2,
                               KS_PTX_TYPE_S32, KS_PTX_TYPE_F32, in, in, in, o));
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M16N8K8, KS_MMA_OPERAND_A, KS_PTX_TYPE_S8), ==, 0);
  g_assert_cmpuint (ks_mma_n_regs (KS_MMA_M16N8K32, KS_MMA_OPERAND_A, KS_PTX_TYPE_F16), ==, 0);
}

/* ---- ldmatrix -------------------------------------------------------------------- */

/* Element (r, c) of matrix m holds 0x0m rc; row r of matrix m lives at
 * 64 * (7 - r) + 512 * m + 16 * (m & 1): rows out of order, 64 bytes apart,
 * as a padded tile would have them. */
#define LD_ROW_ADDR(m, r) ((uint64_t) (64 * (7 - (r)) + 512 * (m) + 16 * ((m) & 1)))

static void
ld_setup (uint8_t *smem, uint64_t addr[LANES])
{
  memset (smem, 0xee, 2048);
  for (int m = 0; m < 4; m++)
    for (int r = 0; r < 8; r++)
      {
        for (int c = 0; c < 8; c++)
          {
            uint16_t v = (uint16_t) ((m << 8) | (r << 4) | c);

            smem[LD_ROW_ADDR (m, r) + 2 * c] = (uint8_t) v;
            smem[LD_ROW_ADDR (m, r) + 2 * c + 1] = (uint8_t) (v >> 8);
          }
        addr[8 * m + r] = LD_ROW_ADDR (m, r);
      }
}

static void
test_ldmatrix_x4 (void)
{
  uint8_t smem[2048];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  uint64_t addr[LANES];
  uint64_t regs[4][LANES];
  uint64_t *d[4] = { regs[0], regs[1], regs[2], regs[3] };

  ld_setup (smem, addr);
  g_assert_true (ks_ldmatrix (4, FALSE, addr, ks_mma_flat_mem, &mem, d, NULL));
  /* Worked by hand: lane 0 holds row 0, columns 0 and 1; lane 5 row 1,
   * columns 2 and 3; lane 31 row 7, columns 6 and 7. */
  g_assert_cmphex (regs[0][0], ==, 0x00010000u);
  g_assert_cmphex (regs[2][5], ==, 0x02130212u);
  g_assert_cmphex (regs[3][31], ==, 0x03770376u);
  g_assert_cmphex (regs[1][14], ==, 0x01350134u);
  for (int m = 0; m < 4; m++)
    for (int l = 0; l < LANES; l++)
      {
        uint32_t lo = (uint32_t) ((m << 8) | ((l / 4) << 4) | (2 * (l % 4)));

        g_assert_cmphex (regs[m][l], ==, lo | ((lo + 1) << 16));
      }

  /* .trans: lane 5 now holds column 1, rows 2 and 3. */
  g_assert_true (ks_ldmatrix (4, TRUE, addr, ks_mma_flat_mem, &mem, d, NULL));
  g_assert_cmphex (regs[0][0], ==, 0x00100000u);
  g_assert_cmphex (regs[2][5], ==, 0x02310221u);
  g_assert_cmphex (regs[3][31], ==, 0x03770367u);
  for (int m = 0; m < 4; m++)
    for (int l = 0; l < LANES; l++)
      {
        uint32_t lo = (uint32_t) ((m << 8) | ((2 * (l % 4)) << 4) | (l / 4));

        g_assert_cmphex (regs[m][l], ==, lo | ((lo + 0x10) << 16));
      }
}

static void
test_ldmatrix_x1_x2 (void)
{
  uint8_t smem[2048];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  uint64_t addr[LANES];
  uint64_t regs[4][LANES];
  uint64_t *d[4] = { regs[0], regs[1], regs[2], regs[3] };

  ld_setup (smem, addr);
  /* Lanes whose addresses .x1/.x2 do not use may hold anything. */
  for (int l = 8; l < LANES; l++)
    addr[l] = 0xffffffffffffff01ull;
  for (int l = 0; l < LANES; l++)
    regs[1][l] = 0x5555;
  g_assert_true (ks_ldmatrix (1, FALSE, addr, ks_mma_flat_mem, &mem, d, NULL));
  g_assert_cmphex (regs[0][5], ==, 0x00130012u);
  g_assert_cmphex (regs[1][5], ==, 0x5555u);

  ld_setup (smem, addr);
  for (int l = 16; l < LANES; l++)
    addr[l] = 3;
  g_assert_true (ks_ldmatrix (2, TRUE, addr, ks_mma_flat_mem, &mem, d, NULL));
  g_assert_cmphex (regs[0][5], ==, 0x00310021u);
  g_assert_cmphex (regs[1][5], ==, 0x01310121u);
}

static void
test_ldmatrix_faults (void)
{
  uint8_t smem[2048];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  uint64_t addr[LANES];
  uint64_t regs[4][LANES];
  uint64_t *d[4] = { regs[0], regs[1], regs[2], regs[3] };
  guint fault = 99;

  ld_setup (smem, addr);
  addr[13] += 8;                /* not 16-byte aligned */
  g_assert_false (ks_ldmatrix (4, FALSE, addr, ks_mma_flat_mem, &mem, d, &fault));
  g_assert_cmpuint (fault, ==, 13);

  ld_setup (smem, addr);
  addr[30] = sizeof smem;       /* past the end */
  g_assert_false (ks_ldmatrix (4, FALSE, addr, ks_mma_flat_mem, &mem, d, &fault));
  g_assert_cmpuint (fault, ==, 30);
  /* .x2 does not read lane 30's address. */
  g_assert_true (ks_ldmatrix (2, FALSE, addr, ks_mma_flat_mem, &mem, d, &fault));
}

/* ---- stmatrix ------------------------------------------------------------------------ */

/* The registers that hold element (r, c) = 0x0mrc of matrix m in the ISA's
 * fragment ("each thread holds a fragment of a row": lane l, row l/4,
 * columns 2 (l%4) and 2 (l%4) + 1), or of its transpose. */
static void
st_regs (uint64_t regs[4][LANES], bool trans)
{
  for (int m = 0; m < 4; m++)
    for (int l = 0; l < LANES; l++)
      {
        int r = l / 4, c = 2 * (l % 4);
        uint32_t lo, hi;

        if (trans)
          {
            lo = (uint32_t) ((m << 8) | (c << 4) | r);
            hi = (uint32_t) ((m << 8) | ((c + 1) << 4) | r);
          }
        else
          {
            lo = (uint32_t) ((m << 8) | (r << 4) | c);
            hi = lo + 1;
          }
        regs[m][l] = 0xabcd000000000000ull | lo | (hi << 16);
      }
}

static void
test_stmatrix (void)
{
  uint8_t smem[2048], dummy[2048];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  uint64_t addr[LANES], regs[4][LANES];
  const uint64_t *s[4] = { regs[0], regs[1], regs[2], regs[3] };

  for (int trans = 0; trans < 2; trans++)
    for (int num = 1; num <= 4; num *= 2)
      {
        ld_setup (dummy, addr);
        memset (smem, 0xee, sizeof smem);
        st_regs (regs, trans);
        g_assert_true (ks_stmatrix (num, trans, addr, s, ks_mma_flat_mem, &mem, NULL));
        for (int m = 0; m < 4; m++)
          for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
              {
                const uint8_t *p = smem + LD_ROW_ADDR (m, r) + 2 * c;
                uint16_t got = (uint16_t) (p[0] | (p[1] << 8));

                /* Matrices past .num are not written. */
                g_assert_cmphex (got, ==, m < num ? (uint16_t) ((m << 8) | (r << 4) | c) : 0xeeee);
              }
      }

  /* Worked by hand: lane 5 gives row 1, columns 2 and 3; .trans puts the
   * same two halves in column 1, rows 2 and 3. */
  ld_setup (dummy, addr);
  memset (smem, 0, sizeof smem);
  for (int l = 0; l < LANES; l++)
    regs[0][l] = 0;
  regs[0][5] = 0xbbbbaaaau;
  g_assert_true (ks_stmatrix (1, FALSE, addr, s, ks_mma_flat_mem, &mem, NULL));
  g_assert_cmphex (smem[LD_ROW_ADDR (0, 1) + 4], ==, 0xaa);
  g_assert_cmphex (smem[LD_ROW_ADDR (0, 1) + 6], ==, 0xbb);
  memset (smem, 0, sizeof smem);
  g_assert_true (ks_stmatrix (1, TRUE, addr, s, ks_mma_flat_mem, &mem, NULL));
  g_assert_cmphex (smem[LD_ROW_ADDR (0, 2) + 2], ==, 0xaa);
  g_assert_cmphex (smem[LD_ROW_ADDR (0, 3) + 2], ==, 0xbb);
  g_assert_cmphex (smem[LD_ROW_ADDR (0, 1) + 4], ==, 0);
}

/* ldmatrix of what stmatrix stored gives the registers back, with either
 * .trans on each side: the transposes cancel when both have it. */
static void
test_stmatrix_round_trip (void)
{
  uint8_t smem[2048], dummy[2048];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  uint64_t addr[LANES], regs[4][LANES], back[4][LANES];
  const uint64_t *s[4] = { regs[0], regs[1], regs[2], regs[3] };
  uint64_t *d[4] = { back[0], back[1], back[2], back[3] };

  ld_setup (dummy, addr);
  for (int m = 0; m < 4; m++)
    for (int l = 0; l < LANES; l++)
      regs[m][l] = g_random_int ();
  for (int st = 0; st < 2; st++)
    for (int ld = 0; ld < 2; ld++)
      {
        g_assert_true (ks_stmatrix (4, st, addr, s, ks_mma_flat_mem, &mem, NULL));
        g_assert_true (ks_ldmatrix (4, ld, addr, ks_mma_flat_mem, &mem, d, NULL));
        for (int m = 0; m < 4; m++)
          for (int l = 0; l < LANES; l++)
            {
              uint32_t want;

              if (st == ld)
                want = (uint32_t) regs[m][l];
              else
                {
                  /* Element (r, c) of one is (c, r) of the other: lane l's
                   * pair is column l/4, rows 2 (l%4) and 2 (l%4) + 1 of
                   * what was stored, held by lanes 4 (2 (l%4)) + (l/4)/2
                   * and the next row's lane, halves (l/4) % 2. */
                  int r0 = 2 * (l % 4), c = l / 4;
                  int src0 = 4 * r0 + c / 2, src1 = 4 * (r0 + 1) + c / 2;
                  uint32_t lo = (uint32_t) (regs[m][src0] >> (16 * (c % 2))) & 0xffffu;
                  uint32_t hi = (uint32_t) (regs[m][src1] >> (16 * (c % 2))) & 0xffffu;

                  want = lo | (hi << 16);
                }
              g_assert_cmphex (back[m][l], ==, want);
            }
      }
}

static void
test_stmatrix_faults (void)
{
  uint8_t smem[2048];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  uint64_t addr[LANES], regs[4][LANES];
  const uint64_t *s[4] = { regs[0], regs[1], regs[2], regs[3] };
  guint fault = 99;

  st_regs (regs, FALSE);
  ld_setup (smem, addr);
  memset (smem, 0x11, sizeof smem);
  addr[13] += 8;                /* not 16-byte aligned */
  g_assert_false (ks_stmatrix (4, FALSE, addr, s, ks_mma_flat_mem, &mem, &fault));
  g_assert_cmpuint (fault, ==, 13);
  ld_setup (smem, addr);
  memset (smem, 0x11, sizeof smem);
  addr[30] = sizeof smem - 8;   /* the row runs past the end */
  g_assert_false (ks_stmatrix (4, FALSE, addr, s, ks_mma_flat_mem, &mem, &fault));
  g_assert_cmpuint (fault, ==, 30);
  /* Nothing was written before the bad row was found. */
  for (guint i = 0; i < sizeof smem; i++)
    g_assert_cmphex (smem[i], ==, 0x11);
  /* .x2 does not use lane 30's address. */
  g_assert_true (ks_stmatrix (2, FALSE, addr, s, ks_mma_flat_mem, &mem, &fault));
}

/* ---- wmma --------------------------------------------------------------------------- */

/* Writes an element of a 16x16 matrix into memory with the given layout. */
static void
put (uint8_t *mem, uint64_t base, bool row_major, int stride, int size, int r, int c, uint32_t v)
{
  uint64_t off = base + (uint64_t) size * (row_major ? r * stride + c : c * stride + r);

  for (int j = 0; j < size; j++)
    mem[off + j] = (uint8_t) (v >> (8 * j));
}

static uint32_t
get (const uint8_t *mem, uint64_t base, bool row_major, int stride, int size, int r, int c)
{
  uint64_t off = base + (uint64_t) size * (row_major ? r * stride + c : c * stride + r);
  uint32_t v = 0;

  for (int j = 0; j < size; j++)
    v |= (uint32_t) mem[off + j] << (8 * j);
  return v;
}

typedef struct
{
  KsPtxType ab, ct, dt;
  bool a_row, b_row, c_row, d_row;
} WmmaCase;

static void
test_wmma (gconstpointer data)
{
  const WmmaCase *wc = data;
  enum { A_BASE = 0, B_BASE = 1024, C_BASE = 2048, D_BASE = 4096, SIZE = 6144 };
  const int a_stride = 24, b_stride = 16, c_stride = 20, d_stride = 32;
  int csize = wc->ct == KS_PTX_TYPE_F32 ? 4 : 2, dsize = wc->dt == KS_PTX_TYPE_F32 ? 4 : 2;
  g_autofree uint8_t *smem = g_malloc0 (SIZE);
  KsMmaFlatMem mem = { smem, 0x1000, SIZE };
  uint32_t a[256], b[256], c[256], want[256];
  g_autofree Frag *fa = g_new (Frag, 1);
  g_autofree Frag *fb = g_new (Frag, 1);
  g_autofree Frag *fc = g_new (Frag, 1);
  g_autofree Frag *fd = g_new (Frag, 1);

  for (int iter = 0; iter < 20; iter++)
    {
      for (int i = 0; i < 256; i++)
        {
          a[i] = random_elem (wc->ab);
          b[i] = random_elem (wc->ab);
          c[i] = random_elem (wc->ct);
          put (smem, A_BASE, wc->a_row, a_stride, 2, i / 16, i % 16, a[i]);
          put (smem, B_BASE, wc->b_row, b_stride, 2, i / 16, i % 16, b[i]);
          put (smem, C_BASE, wc->c_row, c_stride, csize, i / 16, i % 16, c[i]);
        }
      frag_init (fa, 0);
      frag_init (fb, 0);
      frag_init (fc, 0);
      frag_init (fd, 0);
      g_assert_true (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_A, wc->ab, wc->a_row,
                                   0x1000 + A_BASE, a_stride, ks_mma_flat_mem, &mem, fa->rows));
      g_assert_true (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_B, wc->ab, wc->b_row,
                                   0x1000 + B_BASE, b_stride, ks_mma_flat_mem, &mem, fb->rows));
      g_assert_true (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_C, wc->ct, wc->c_row,
                                   0x1000 + C_BASE, c_stride, ks_mma_flat_mem, &mem, fc->rows));
      g_assert_true (ks_wmma_mma (KS_WMMA_M16N16K16, wc->ab, wc->ct, wc->dt,
                                  (const uint64_t *const *) fa->rows,
                                  (const uint64_t *const *) fb->rows,
                                  (const uint64_t *const *) fc->rows, fd->rows));
      g_assert_true (ks_wmma_store (KS_WMMA_M16N16K16, wc->dt, wc->d_row, 0x1000 + D_BASE,
                                    d_stride, (const uint64_t *const *) fd->rows,
                                    ks_mma_flat_mem, &mem));

      reference (16, 16, 16, wc->ab, wc->ct, wc->dt, a, b, c, want);
      for (int i = 0; i < 256; i++)
        {
          uint32_t got = get (smem, D_BASE, wc->d_row, d_stride, dsize, i / 16, i % 16);

          if (got != want[i])
            g_error ("D[%d][%d] = 0x%08x, want 0x%08x", i / 16, i % 16, got, want[i]);
        }
      /* The store touched nothing but D's elements: the gaps a stride of 32
       * leaves are still zero. */
      for (int line = 0; line < 16; line++)
        for (int j = 16; j < d_stride; j++)
          g_assert_cmpuint (smem[D_BASE + dsize * (line * d_stride + j)], ==, 0);
    }
}

/* Loading a C fragment and storing it, in either layout, gives the matrix
 * back, transposed when the layouts differ. */
static void
test_wmma_round_trip (void)
{
  enum { SIZE = 4096 };
  g_autofree uint8_t *smem = g_malloc0 (SIZE);
  KsMmaFlatMem mem = { smem, 0, SIZE };
  g_autofree Frag *f = g_new (Frag, 1);

  for (int t = 0; t < 2; t++)
    {
      KsPtxType type = t ? KS_PTX_TYPE_F16 : KS_PTX_TYPE_F32;
      int size = t ? 2 : 4;

      for (int i = 0; i < 256; i++)
        put (smem, 0, TRUE, 16, size, i / 16, i % 16, 0x4000 + i);
      frag_init (f, 0);
      g_assert_true (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_C, type, TRUE, 0, 16,
                                   ks_mma_flat_mem, &mem, f->rows));
      g_assert_true (ks_wmma_store (KS_WMMA_M16N16K16, type, FALSE, 2048, 16,
                                    (const uint64_t *const *) f->rows, ks_mma_flat_mem, &mem));
      for (int i = 0; i < 256; i++)
        g_assert_cmphex (get (smem, 2048, TRUE, 16, size, i % 16, i / 16), ==, 0x4000 + i);
    }
}

static void
test_wmma_misc (void)
{
  uint8_t smem[1024];
  KsMmaFlatMem mem = { smem, 0, sizeof smem };
  g_autofree Frag *f = g_new (Frag, 1);

  /* The ISA's register counts for m16n16k16. */
  g_assert_cmpuint (ks_wmma_n_regs (KS_WMMA_M16N16K16, KS_WMMA_A, KS_PTX_TYPE_F16), ==, 8);
  g_assert_cmpuint (ks_wmma_n_regs (KS_WMMA_M16N16K16, KS_WMMA_B, KS_PTX_TYPE_F16), ==, 8);
  g_assert_cmpuint (ks_wmma_n_regs (KS_WMMA_M16N16K16, KS_WMMA_A, KS_PTX_TYPE_BF16), ==, 4);
  g_assert_cmpuint (ks_wmma_n_regs (KS_WMMA_M16N16K16, KS_WMMA_C, KS_PTX_TYPE_F32), ==, 8);
  g_assert_cmpuint (ks_wmma_n_regs (KS_WMMA_M16N16K16, KS_WMMA_C, KS_PTX_TYPE_F16), ==, 4);
  g_assert_cmpuint (ks_wmma_n_regs (KS_WMMA_M16N16K16, KS_WMMA_C, KS_PTX_TYPE_BF16), ==, 0);

  memset (smem, 0, sizeof smem);
  frag_init (f, 0);
  /* Misaligned (not 32 bytes), and running past the end. */
  g_assert_false (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_A, KS_PTX_TYPE_F16, TRUE, 16, 16,
                                ks_mma_flat_mem, &mem, f->rows));
  g_assert_false (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_C, KS_PTX_TYPE_F32, TRUE, 32, 16,
                                ks_mma_flat_mem, &mem, f->rows));
  g_assert_false (ks_wmma_mma (KS_WMMA_M16N16K16, KS_PTX_TYPE_BF16, KS_PTX_TYPE_F16,
                               KS_PTX_TYPE_F32, (const uint64_t *const *) f->rows,
                               (const uint64_t *const *) f->rows,
                               (const uint64_t *const *) f->rows, f->rows));

  /* A .f16 fragment is complete in every register: element-wise code that
   * changes all eight alike stays consistent. */
  for (int i = 0; i < 256; i++)
    put (smem, 0, TRUE, 16, 2, i / 16, i % 16, 0x3c00 + i);
  g_assert_true (ks_wmma_load (KS_WMMA_M16N16K16, KS_WMMA_A, KS_PTX_TYPE_F16, TRUE, 0, 16,
                               ks_mma_flat_mem, &mem, f->rows));
  for (int i = 0; i < 4; i++)
    for (int l = 0; l < LANES; l++)
      g_assert_cmphex (f->regs[i][l], ==, f->regs[i + 4][l]);
}

int
main (int argc, char **argv)
{
  static const MmaCase mma_cases[] = {
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
      isa_k16_a, isa_k16_b },
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16,
      isa_k16_a, isa_k16_b },
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F32,
      isa_k16_a, isa_k16_b },
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F16,
      isa_k16_a, isa_k16_b },
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_BF16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
      isa_k16_a, isa_k16_b },
    { KS_MMA_M16N8K8, 8, KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
      isa_k8_a, isa_k8_b },
    { KS_MMA_M16N8K8, 8, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16,
      isa_k8_a, isa_k8_b },
    { KS_MMA_M16N8K8, 8, KS_PTX_TYPE_BF16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
      isa_k8_a, isa_k8_b },
    { KS_MMA_M16N8K8, 8, KS_PTX_TYPE_TF32, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
      isa_k8_tf32_a, isa_k8_tf32_b },
    { KS_MMA_M16N8K4, 4, KS_PTX_TYPE_TF32, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32,
      isa_k4_tf32_a, isa_k4_tf32_b },
  };

  static const char *const mma_names[] = {
    "/sim/mma/m16n8k16/f32.f16.f16.f32",
    "/sim/mma/m16n8k16/f16.f16.f16.f16",
    "/sim/mma/m16n8k16/f32.f16.f16.f16",
    "/sim/mma/m16n8k16/f16.f16.f16.f32",
    "/sim/mma/m16n8k16/f32.bf16.bf16.f32",
    "/sim/mma/m16n8k8/f32.f16.f16.f32",
    "/sim/mma/m16n8k8/f16.f16.f16.f16",
    "/sim/mma/m16n8k8/f32.bf16.bf16.f32",
    "/sim/mma/m16n8k8/f32.tf32.tf32.f32",
    "/sim/mma/m16n8k4/f32.tf32.tf32.f32",
  };
  static const WmmaCase wmma_cases[] = {
    { KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, TRUE, FALSE, TRUE, TRUE },
    { KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, FALSE, TRUE, FALSE, FALSE },
    { KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, TRUE, TRUE, FALSE, TRUE },
    { KS_PTX_TYPE_F16, KS_PTX_TYPE_F16, KS_PTX_TYPE_F32, FALSE, FALSE, TRUE, FALSE },
    { KS_PTX_TYPE_BF16, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32, TRUE, FALSE, TRUE, TRUE },
  };
  static const char *const wmma_names[] = {
    "/sim/mma/wmma/f32.f16.f32/row.col",
    "/sim/mma/wmma/f32.f16.f32/col.row",
    "/sim/mma/wmma/f16.f16.f16/row.row",
    "/sim/mma/wmma/f32.f16.f16/col.col",
    "/sim/mma/wmma/f32.bf16.f32/row.col",
  };

  static const IntCase int_cases[] = {
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_S8, KS_PTX_TYPE_S8, FALSE, isa_k16_i8_a, isa_k16_i8_b },
    { KS_MMA_M16N8K16, 16, KS_PTX_TYPE_U8, KS_PTX_TYPE_S8, TRUE, isa_k16_i8_a, isa_k16_i8_b },
    { KS_MMA_M16N8K32, 32, KS_PTX_TYPE_S8, KS_PTX_TYPE_U8, FALSE, isa_k32_a, isa_k32_b },
    { KS_MMA_M16N8K32, 32, KS_PTX_TYPE_U8, KS_PTX_TYPE_U8, TRUE, isa_k32_a, isa_k32_b },
    { KS_MMA_M16N8K32, 32, KS_PTX_TYPE_S8, KS_PTX_TYPE_S8, TRUE, isa_k32_a, isa_k32_b },
  };
  static const char *const int_names[] = {
    "/sim/mma/m16n8k16/s32.s8.s8.s32",
    "/sim/mma/m16n8k16/satfinite.s32.u8.s8.s32",
    "/sim/mma/m16n8k32/s32.s8.u8.s32",
    "/sim/mma/m16n8k32/satfinite.s32.u8.u8.s32",
    "/sim/mma/m16n8k32/satfinite.s32.s8.s8.s32",
  };
  static const Fp8Case fp8_cases[] = {
    { KS_PTX_TYPE_E4M3, KS_PTX_TYPE_E4M3, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32 },
    { KS_PTX_TYPE_E5M2, KS_PTX_TYPE_E4M3, KS_PTX_TYPE_F32, KS_PTX_TYPE_F32 },
    { KS_PTX_TYPE_E5M2, KS_PTX_TYPE_E5M2, KS_PTX_TYPE_F16, KS_PTX_TYPE_F16 },
  };
  static const char *const fp8_names[] = {
    "/sim/mma/m16n8k32/f32.e4m3.e4m3.f32",
    "/sim/mma/m16n8k32/f32.e5m2.e4m3.f32",
    "/sim/mma/m16n8k32/f16.e5m2.e5m2.f16",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (int_cases) == G_N_ELEMENTS (int_names));
  G_STATIC_ASSERT (G_N_ELEMENTS (fp8_cases) == G_N_ELEMENTS (fp8_names));
  G_STATIC_ASSERT (G_N_ELEMENTS (mma_cases) == G_N_ELEMENTS (mma_names));
  G_STATIC_ASSERT (G_N_ELEMENTS (wmma_cases) == G_N_ELEMENTS (wmma_names));

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (mma_cases); i++)
    g_test_add_data_func (mma_names[i], &mma_cases[i], test_mma);
  for (guint i = 0; i < G_N_ELEMENTS (int_cases); i++)
    g_test_add_data_func (int_names[i], &int_cases[i], test_mma_int);
  for (guint i = 0; i < G_N_ELEMENTS (fp8_cases); i++)
    g_test_add_data_func (fp8_names[i], &fp8_cases[i], test_mma_fp8);
  g_test_add_func ("/sim/mma/m8n8k4/f64.f64.f64.f64", test_mma_f64);
  g_test_add_func ("/sim/mma/int-unsupported", test_mma_int_unsupported);
  g_test_add_func ("/sim/mma/d-aliases-c", test_mma_alias);
  g_test_add_func ("/sim/mma/k-order", test_mma_k_order);
  g_test_add_func ("/sim/mma/unsupported", test_mma_unsupported);
  g_test_add_func ("/sim/mma/ldmatrix/x4", test_ldmatrix_x4);
  g_test_add_func ("/sim/mma/ldmatrix/x1-x2", test_ldmatrix_x1_x2);
  g_test_add_func ("/sim/mma/ldmatrix/faults", test_ldmatrix_faults);
  g_test_add_func ("/sim/mma/stmatrix/layout", test_stmatrix);
  g_test_add_func ("/sim/mma/stmatrix/round-trip", test_stmatrix_round_trip);
  g_test_add_func ("/sim/mma/stmatrix/faults", test_stmatrix_faults);
  for (guint i = 0; i < G_N_ELEMENTS (wmma_cases); i++)
    g_test_add_data_func (wmma_names[i], &wmma_cases[i], test_wmma);
  g_test_add_func ("/sim/mma/wmma/round-trip", test_wmma_round_trip);
  g_test_add_func ("/sim/mma/wmma/misc", test_wmma_misc);

  return g_test_run ();
}
