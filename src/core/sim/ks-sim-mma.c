/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-mma.c: warp-level matrix instructions over a warp's register rows.
 *
 * Every instruction here goes through whole matrices: gather the operands
 * from the lanes into plain row-major arrays, compute, scatter back.  That
 * keeps the fragment layouts (the only hard part) in one small function per
 * instruction family, each transcribed from the PTX ISA's formulas:
 *
 * "Matrix Fragments for mma.m16n8k16 with floating point type", .f16/.bf16:
 *   groupID = %laneid >> 2, threadID_in_group = %laneid % 4
 *   A: row = groupID for ai where 0 <= i < 2 || 4 <= i < 6, groupID + 8
 *      otherwise; col = threadID_in_group * 2 + (i & 0x1) for i < 4,
 *      + 8 for i >= 4
 *   B: row = threadID_in_group * 2 + (i & 0x1) for bi where i < 2, + 8 for
 *      i >= 2; col = groupID
 *   C/D: row = groupID for c0, c1, groupID + 8 for c2, c3;
 *      col = threadID_in_group * 2 + (i & 0x1)
 * "Matrix Fragments for mma.m16n8k8":
 *   .f16/.bf16 A: row = groupID for a0, a1, groupID + 8 for a2, a3;
 *      col = threadID_in_group * 2 + (i & 0x1)
 *   .f16/.bf16 B: row = threadID_in_group * 2 + i; col = groupID
 *   .tf32 A: row = groupID for a0, a2, groupID + 8 for a1, a3;
 *      col = threadID_in_group for a0, a1, threadID_in_group + 4 for a2, a3
 *   .tf32 B: row = threadID_in_group for b0, threadID_in_group + 4 for b1;
 *      col = groupID
 *   C/D as for m16n8k16.
 * "Matrix Fragments for mma.m16n8k4", .tf32:
 *   A: row = groupID for a0, groupID + 8 for a1; col = threadID_in_group
 *   B: row = threadID_in_group; col = groupID
 * "Warp-level matrix load instruction: ldmatrix": addresses of threads 0-7
 *   are the rows of the first matrix, 8-15 the second, ...; "each thread
 *   receives a fragment of a row": lane l, row l/4, two elements from column
 *   2 (l%4), with .trans of the column instead (the matrix is read in
 *   column-major form).
 */

#include "ks-sim-mma.h"

#include <string.h>

#include "ks-sim-math.h"

bool
ks_mma_flat_mem (uint64_t addr,
                 void    *buf,
                 size_t   len,
                 bool     is_store,
                 void    *user_data)
{
  const KsMmaFlatMem *m = user_data;
  uint64_t off;

  /* Written so that no sum can wrap around. */
  if (addr < m->base)
    return FALSE;
  off = addr - m->base;
  if (off > m->size || len > m->size - off)
    return FALSE;
  if (is_store)
    memcpy (m->data + off, buf, len);
  else
    memcpy (buf, m->data + off, len);
  return TRUE;
}

/* ---- fragment layouts ---------------------------------------------------- */

static inline uint16_t
half_of (uint64_t reg, guint h)
{
  return (uint16_t) ((uint32_t) reg >> (16 * h));
}

static inline uint64_t
with_half (uint64_t reg, guint h, uint16_t v)
{
  uint32_t r = (uint32_t) reg;

  r &= ~((uint32_t) 0xffffu << (16 * h));
  r |= (uint32_t) v << (16 * h);
  return r;
}

/* How an operand's elements sit in a lane's registers: two 16-bit halves,
 * one 32-bit tf32, four bytes, or one f64 to a register.  The layouts
 * differ in how consecutive elements step, because elements that share a
 * register must sit side by side in the matrix. */
typedef enum
{
  LAYOUT_16BIT,
  LAYOUT_TF32,
  LAYOUT_8BIT,
  LAYOUT_F64,
} Layout;

static guint
mma_k (KsMmaShape shape)
{
  switch (shape)
    {
    case KS_MMA_M16N8K32: return 32;
    case KS_MMA_M16N8K16: return 16;
    case KS_MMA_M16N8K8: return 8;
    case KS_MMA_M16N8K4: return 4;
    case KS_MMA_M8N8K4: return 4;
    default: g_assert_not_reached ();
    }
}

static guint
mma_m (KsMmaShape shape)
{
  return shape == KS_MMA_M8N8K4 ? 8 : 16;
}

/* Elements per lane of an operand */
static guint
mma_n_elems (KsMmaShape shape, KsMmaOperand op)
{
  switch (op)
    {
    case KS_MMA_OPERAND_A: return mma_m (shape) * mma_k (shape) / KS_MMA_WARP_SIZE;
    case KS_MMA_OPERAND_B: return mma_k (shape) * 8 / KS_MMA_WARP_SIZE;
    case KS_MMA_OPERAND_C: return mma_m (shape) * 8 / KS_MMA_WARP_SIZE;
    default: g_assert_not_reached ();
    }
}

/* Where element i of a lane's fragment sits. */
static void
mma_coord (KsMmaShape   shape,
           KsMmaOperand op,
           Layout       layout,
           guint        lane,
           guint        i,
           guint       *row,
           guint       *col)
{
  guint g = lane >> 2;
  guint t = lane & 3;

  switch (op)
    {
    case KS_MMA_OPERAND_A:
      switch (layout)
        {
        case LAYOUT_TF32:
          /* k8: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4);
           * k4: a0 (g, t), a1 (g+8, t). */
          *row = g + 8 * (i & 1);
          *col = t + 4 * (i >> 1);
          break;
        case LAYOUT_8BIT:
          /* Runs of four along k, then the second row block, then (k32)
           * the second k block. */
          *row = g + 8 * ((i >> 2) & 1);
          *col = t * 4 + (i & 3) + 16 * (i >> 3);
          break;
        case LAYOUT_F64:
          *row = g;
          *col = t;
          break;
        case LAYOUT_16BIT:
        default:
          /* Pairs along k, then the second row block, then (k16) the
           * second k block. */
          *row = g + 8 * ((i >> 1) & 1);
          *col = t * 2 + (i & 1) + 8 * (i >> 2);
          break;
        }
      break;
    case KS_MMA_OPERAND_B:
      switch (layout)
        {
        case LAYOUT_TF32: *row = t + 4 * i; break;
        case LAYOUT_8BIT: *row = t * 4 + (i & 3) + 16 * (i >> 2); break;
        case LAYOUT_F64: *row = t; break;
        case LAYOUT_16BIT:
        default: *row = t * 2 + (i & 1) + 8 * (i >> 1); break;
        }
      *col = g;
      break;
    case KS_MMA_OPERAND_C:
      *row = g + 8 * (i >> 1);
      *col = t * 2 + (i & 1);
      break;
    default:
      g_assert_not_reached ();
    }
  g_assert (*row < (op == KS_MMA_OPERAND_B ? mma_k (shape) : mma_m (shape)));
  g_assert (*col < (op == KS_MMA_OPERAND_A ? mma_k (shape) : 8));
}

static bool
is_8bit (KsPtxType t)
{
  return t == KS_PTX_TYPE_S8 || t == KS_PTX_TYPE_U8 || t == KS_PTX_TYPE_E4M3
         || t == KS_PTX_TYPE_E5M2;
}

static Layout
layout_of (KsPtxType t)
{
  switch (t)
    {
    case KS_PTX_TYPE_TF32: return LAYOUT_TF32;
    case KS_PTX_TYPE_F64: return LAYOUT_F64;
    default: return is_8bit (t) ? LAYOUT_8BIT : LAYOUT_16BIT;
    }
}

static bool
is_half (KsPtxType t)
{
  return t == KS_PTX_TYPE_F16 || t == KS_PTX_TYPE_BF16;
}

/* Element i of a lane's fragment as it sits in the registers: the raw 16 or
 * 32 bits. */
static uint32_t
frag_get (const uint64_t *const regs[], bool half, guint lane, guint i)
{
  if (half)
    return half_of (regs[i / 2][lane], i % 2);
  return (uint32_t) regs[i][lane];
}

/* Element i of a lane's fragment of `bits`-bit elements (8, 16, 32 or 64),
 * packed low to high into its registers. */
static uint64_t
frag_bits (const uint64_t *const regs[], guint bits, guint lane, guint i)
{
  guint per = bits >= 32 ? 1 : 32 / bits;
  uint64_t r = regs[i / per][lane];

  if (bits == 64)
    return r;
  return ((uint32_t) r >> (bits * (i % per))) & (uint32_t) ((G_GUINT64_CONSTANT (1) << bits) - 1);
}

static void
frag_set (uint64_t *const regs[], bool half, guint lane, guint i, uint32_t v)
{
  if (half)
    regs[i / 2][lane] = with_half (regs[i / 2][lane], i % 2, (uint16_t) v);
  else
    regs[i][lane] = v;
}

/* An input element widened, exactly, to f32 bits. */
static uint32_t
to_f32 (KsPtxType type, uint32_t bits)
{
  switch (type)
    {
    case KS_PTX_TYPE_F16:
      return ks_cvt_f32_f16 ((uint16_t) bits, 0);
    case KS_PTX_TYPE_BF16:
      return ks_cvt_f32_bf16 ((uint16_t) bits);
    case KS_PTX_TYPE_TF32:
      return bits & 0xffffe000u;
    case KS_PTX_TYPE_F32:
      return bits;
    case KS_PTX_TYPE_E4M3:
      /* Every e4m3 and e5m2 value is an f16 value */
      return ks_cvt_f32_f16 ((uint16_t) ks_cvt_f16x2_e4m3x2 ((uint16_t) (bits & 0xff), 0), 0);
    case KS_PTX_TYPE_E5M2:
      return ks_cvt_f32_f16 ((uint16_t) ks_cvt_f16x2_e5m2x2 ((uint16_t) (bits & 0xff), 0), 0);
    default:
      g_assert_not_reached ();
    }
}

static uint32_t
from_f32 (KsPtxType type, uint32_t bits)
{
  if (type == KS_PTX_TYPE_F16)
    return ks_cvt_f16_f32 (bits, KS_PTX_ROUND_RN, 0);
  g_assert (type == KS_PTX_TYPE_F32);
  return bits;
}

/* d = c + a x b over f32 bit patterns, in increasing k; see the header. */
static void
matmul_f32 (guint          m,
            guint          n,
            guint          k,
            const uint32_t *a,
            const uint32_t *b,
            const uint32_t *c,
            uint32_t       *d)
{
  for (guint i = 0; i < m; i++)
    for (guint j = 0; j < n; j++)
      {
        uint32_t acc = c[i * n + j];

        for (guint kk = 0; kk < k; kk++)
          acc = ks_f32_fma (a[i * k + kk], b[kk * n + j], acc, KS_RN, 0);
        d[i * n + j] = acc;
      }
}

/* ---- mma.sync ------------------------------------------------------------ */

/* Which A/B types a shape takes */
static bool
shape_takes (KsMmaShape shape, KsPtxType t)
{
  switch (shape)
    {
    case KS_MMA_M16N8K16: return is_half (t) || is_8bit (t);
    case KS_MMA_M16N8K8: return is_half (t) || t == KS_PTX_TYPE_TF32;
    case KS_MMA_M16N8K4: return t == KS_PTX_TYPE_TF32;
    case KS_MMA_M16N8K32: return is_8bit (t);
    case KS_MMA_M8N8K4: return t == KS_PTX_TYPE_F64;
    default: return FALSE;
    }
}

guint
ks_mma_n_regs (KsMmaShape shape, KsMmaOperand operand, KsPtxType type)
{
  guint n;

  if (shape > KS_MMA_M8N8K4)
    return 0;
  n = mma_n_elems (shape, operand);
  if (operand == KS_MMA_OPERAND_C)
    {
      if (shape == KS_MMA_M8N8K4)
        return type == KS_PTX_TYPE_F64 ? n : 0;
      if (type == KS_PTX_TYPE_F16)
        return n / 2;
      return type == KS_PTX_TYPE_F32 || type == KS_PTX_TYPE_S32 ? n : 0;
    }
  if (!shape_takes (shape, type))
    return 0;
  if (is_half (type))
    return n / 2;
  return is_8bit (type) ? n / 4 : n;
}

static bool
is_fp8 (KsPtxType t)
{
  return t == KS_PTX_TYPE_E4M3 || t == KS_PTX_TYPE_E5M2;
}

static bool
mma_types_ok (KsMmaShape shape,
              KsPtxType  a_type,
              KsPtxType  b_type,
              KsPtxType  c_type,
              KsPtxType  d_type)
{
  if (ks_mma_n_regs (shape, KS_MMA_OPERAND_A, a_type) == 0
      || ks_mma_n_regs (shape, KS_MMA_OPERAND_B, b_type) == 0)
    return FALSE;
  /* A and B agree, except that the two fp8 types mix */
  if (a_type != b_type && !(is_fp8 (a_type) && is_fp8 (b_type)))
    return FALSE;
  if (a_type == KS_PTX_TYPE_S8 || a_type == KS_PTX_TYPE_U8)
    return FALSE;               /* ks_mma_sync_int */
  if (ks_mma_n_regs (shape, KS_MMA_OPERAND_C, c_type) == 0
      || ks_mma_n_regs (shape, KS_MMA_OPERAND_C, d_type) == 0
      || c_type == KS_PTX_TYPE_S32 || d_type == KS_PTX_TYPE_S32)
    return FALSE;
  /* Only .f16 and fp8 inputs have .f16 accumulator forms. */
  if (a_type != KS_PTX_TYPE_F16 && !is_fp8 (a_type)
      && a_type != KS_PTX_TYPE_F64 && (c_type != KS_PTX_TYPE_F32 || d_type != KS_PTX_TYPE_F32))
    return FALSE;
  return TRUE;
}

/* d = c + a x b in f64, in increasing k */
static void
mma_f64 (const uint64_t *const a[],
         const uint64_t *const b[],
         const uint64_t *const c[],
         uint64_t *const       d[])
{
  uint64_t ma[8 * 4], mb[4 * 8], mc[8 * 8];

  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    {
      guint row, col;

      mma_coord (KS_MMA_M8N8K4, KS_MMA_OPERAND_A, LAYOUT_F64, lane, 0, &row, &col);
      ma[row * 4 + col] = a[0][lane];
      mma_coord (KS_MMA_M8N8K4, KS_MMA_OPERAND_B, LAYOUT_F64, lane, 0, &row, &col);
      mb[row * 8 + col] = b[0][lane];
      for (guint i = 0; i < 2; i++)
        {
          mma_coord (KS_MMA_M8N8K4, KS_MMA_OPERAND_C, LAYOUT_F64, lane, i, &row, &col);
          mc[row * 8 + col] = c[i][lane];
        }
    }
  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++)
      for (guint kk = 0; kk < 4; kk++)
        mc[i * 8 + j] = ks_f64_fma (ma[i * 4 + kk], mb[kk * 8 + j], mc[i * 8 + j], KS_RN);
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    for (guint i = 0; i < 2; i++)
      {
        guint row, col;

        mma_coord (KS_MMA_M8N8K4, KS_MMA_OPERAND_C, LAYOUT_F64, lane, i, &row, &col);
        d[i][lane] = mc[row * 8 + col];
      }
}

bool
ks_mma_sync (KsMmaShape            shape,
             KsPtxType             a_type,
             KsPtxType             b_type,
             KsPtxType             c_type,
             KsPtxType             d_type,
             const uint64_t *const a[],
             const uint64_t *const b[],
             const uint64_t *const c[],
             uint64_t *const       d[])
{
  uint32_t ma[16 * 32], mb[32 * 8], mc[16 * 8], md[16 * 8];
  Layout la = layout_of (a_type);
  guint bits = la == LAYOUT_8BIT ? 8 : la == LAYOUT_16BIT ? 16 : 32;
  guint k;

  g_return_val_if_fail (a != NULL && b != NULL && c != NULL && d != NULL, FALSE);

  if (!mma_types_ok (shape, a_type, b_type, c_type, d_type))
    return FALSE;
  if (shape == KS_MMA_M8N8K4)
    {
      mma_f64 (a, b, c, d);
      return TRUE;
    }

  k = mma_k (shape);
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    {
      guint row, col;

      for (guint i = 0; i < mma_n_elems (shape, KS_MMA_OPERAND_A); i++)
        {
          mma_coord (shape, KS_MMA_OPERAND_A, la, lane, i, &row, &col);
          ma[row * k + col] = to_f32 (a_type, (uint32_t) frag_bits (a, bits, lane, i));
        }
      for (guint i = 0; i < mma_n_elems (shape, KS_MMA_OPERAND_B); i++)
        {
          mma_coord (shape, KS_MMA_OPERAND_B, la, lane, i, &row, &col);
          mb[row * 8 + col] = to_f32 (b_type, (uint32_t) frag_bits (b, bits, lane, i));
        }
      for (guint i = 0; i < 4; i++)
        {
          mma_coord (shape, KS_MMA_OPERAND_C, la, lane, i, &row, &col);
          mc[row * 8 + col] = to_f32 (c_type, frag_get (c, c_type == KS_PTX_TYPE_F16, lane, i));
        }
    }

  matmul_f32 (16, 8, k, ma, mb, mc, md);

  /* Only now, since d may be c. */
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    for (guint i = 0; i < 4; i++)
      {
        guint row, col;

        mma_coord (shape, KS_MMA_OPERAND_C, la, lane, i, &row, &col);
        frag_set (d, d_type == KS_PTX_TYPE_F16, lane, i, from_f32 (d_type, md[row * 8 + col]));
      }
  return TRUE;
}

bool
ks_mma_sync_int (KsMmaShape            shape,
                 KsPtxType             a_type,
                 KsPtxType             b_type,
                 bool                  satfinite,
                 const uint64_t *const a[],
                 const uint64_t *const b[],
                 const uint64_t *const c[],
                 uint64_t *const       d[])
{
  int64_t ma[16 * 32], mb[32 * 8], mc[16 * 8];
  guint k;

  g_return_val_if_fail (a != NULL && b != NULL && c != NULL && d != NULL, FALSE);

  if ((shape != KS_MMA_M16N8K16 && shape != KS_MMA_M16N8K32)
      || (a_type != KS_PTX_TYPE_S8 && a_type != KS_PTX_TYPE_U8)
      || (b_type != KS_PTX_TYPE_S8 && b_type != KS_PTX_TYPE_U8))
    return FALSE;

  k = mma_k (shape);
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    {
      guint row, col;

      for (guint i = 0; i < mma_n_elems (shape, KS_MMA_OPERAND_A); i++)
        {
          uint8_t v = (uint8_t) frag_bits (a, 8, lane, i);

          mma_coord (shape, KS_MMA_OPERAND_A, LAYOUT_8BIT, lane, i, &row, &col);
          ma[row * k + col] = a_type == KS_PTX_TYPE_S8 ? (int8_t) v : v;
        }
      for (guint i = 0; i < mma_n_elems (shape, KS_MMA_OPERAND_B); i++)
        {
          uint8_t v = (uint8_t) frag_bits (b, 8, lane, i);

          mma_coord (shape, KS_MMA_OPERAND_B, LAYOUT_8BIT, lane, i, &row, &col);
          mb[row * 8 + col] = b_type == KS_PTX_TYPE_S8 ? (int8_t) v : v;
        }
      for (guint i = 0; i < 4; i++)
        {
          mma_coord (shape, KS_MMA_OPERAND_C, LAYOUT_8BIT, lane, i, &row, &col);
          mc[row * 8 + col] = (int32_t) (uint32_t) c[i][lane];
        }
    }

  for (guint i = 0; i < 16; i++)
    for (guint j = 0; j < 8; j++)
      {
        int64_t acc = mc[i * 8 + j];

        /* At most 32 products of 255 x 255 and an s32: no overflow */
        for (guint kk = 0; kk < k; kk++)
          acc += ma[i * k + kk] * mb[kk * 8 + j];
        if (satfinite)
          acc = CLAMP (acc, G_MININT32, G_MAXINT32);
        mc[i * 8 + j] = acc;
      }

  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    for (guint i = 0; i < 4; i++)
      {
        guint row, col;

        mma_coord (shape, KS_MMA_OPERAND_C, LAYOUT_8BIT, lane, i, &row, &col);
        d[i][lane] = (uint32_t) mc[row * 8 + col];
      }
  return TRUE;
}

/* ---- ldmatrix ------------------------------------------------------------- */

bool
ks_ldmatrix (guint          num,
             bool           trans,
             const uint64_t addr[KS_MMA_WARP_SIZE],
             KsMmaMemFunc   mem,
             void          *user_data,
             uint64_t *const d[],
             guint         *fault_lane)
{
  uint16_t m[4][8][8];

  g_return_val_if_fail (num == 1 || num == 2 || num == 4, FALSE);
  g_return_val_if_fail (addr != NULL && mem != NULL && d != NULL, FALSE);

  for (guint src = 0; src < 8 * num; src++)
    {
      uint8_t row[16];

      if ((addr[src] & 15) != 0 || !mem (addr[src], row, sizeof row, FALSE, user_data))
        {
          if (fault_lane != NULL)
            *fault_lane = src;
          return FALSE;
        }
      for (guint j = 0; j < 8; j++)
        m[src / 8][src % 8][j] = (uint16_t) (row[2 * j] | (row[2 * j + 1] << 8));
    }

  for (guint mat = 0; mat < num; mat++)
    for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
      {
        guint r = lane / 4, c = 2 * (lane % 4);
        uint16_t lo, hi;

        if (trans)
          {
            lo = m[mat][c][r];
            hi = m[mat][c + 1][r];
          }
        else
          {
            lo = m[mat][r][c];
            hi = m[mat][r][c + 1];
          }
        d[mat][lane] = (uint32_t) lo | ((uint32_t) hi << 16);
      }
  return TRUE;
}

/* ---- stmatrix -------------------------------------------------------------- */

bool
ks_stmatrix (guint                 num,
             bool                  trans,
             const uint64_t        addr[KS_MMA_WARP_SIZE],
             const uint64_t *const s[],
             KsMmaMemFunc          mem,
             void                 *user_data,
             guint                *fault_lane)
{
  uint16_t m[4][8][8];

  g_return_val_if_fail (num == 1 || num == 2 || num == 4, FALSE);
  g_return_val_if_fail (addr != NULL && mem != NULL && s != NULL, FALSE);

  /* Nothing is written unless every row can be. */
  for (guint src = 0; src < 8 * num; src++)
    {
      uint8_t row[16];

      if ((addr[src] & 15) != 0 || !mem (addr[src], row, sizeof row, FALSE, user_data))
        {
          if (fault_lane != NULL)
            *fault_lane = src;
          return FALSE;
        }
    }

  for (guint mat = 0; mat < num; mat++)
    for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
      {
        guint r = lane / 4, c = 2 * (lane % 4);
        uint16_t lo = half_of (s[mat][lane], 0), hi = half_of (s[mat][lane], 1);

        if (trans)
          {
            m[mat][c][r] = lo;
            m[mat][c + 1][r] = hi;
          }
        else
          {
            m[mat][r][c] = lo;
            m[mat][r][c + 1] = hi;
          }
      }

  for (guint src = 0; src < 8 * num; src++)
    {
      uint8_t row[16];

      for (guint j = 0; j < 8; j++)
        {
          row[2 * j] = (uint8_t) m[src / 8][src % 8][j];
          row[2 * j + 1] = (uint8_t) (m[src / 8][src % 8][j] >> 8);
        }
      if (!mem (addr[src], row, sizeof row, TRUE, user_data))
        {
          /* Only when the memory refuses a write it allowed to be read */
          if (fault_lane != NULL)
            *fault_lane = src;
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- movmatrix -------------------------------------------------------------- */

void
ks_movmatrix (const uint64_t a[KS_MMA_WARP_SIZE],
              uint64_t       d[KS_MMA_WARP_SIZE])
{
  uint16_t m[8][8];

  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    {
      m[lane / 4][2 * (lane % 4)] = half_of (a[lane], 0);
      m[lane / 4][2 * (lane % 4) + 1] = half_of (a[lane], 1);
    }
  /* Only now, since d may be a */
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    {
      guint r = lane / 4, c = 2 * (lane % 4);

      d[lane] = (uint32_t) m[c][r] | ((uint32_t) m[c + 1][r] << 16);
    }
}

/* ---- wmma ------------------------------------------------------------------ */

static void
wmma_dims (KsWmmaShape shape, guint *m, guint *n, guint *k)
{
  switch (shape)
    {
    case KS_WMMA_M16N16K16: *m = 16; *n = 16; *k = 16; break;
    case KS_WMMA_M32N8K16: *m = 32; *n = 8; *k = 16; break;
    case KS_WMMA_M8N32K16: *m = 8; *n = 32; *k = 16; break;
    case KS_WMMA_M16N16K8: *m = 16; *n = 16; *k = 8; break;
    case KS_WMMA_M8N8K4: *m = 8; *n = 8; *k = 4; break;
    default: g_assert_not_reached ();
    }
}

KsWmmaShape
ks_wmma_shape (guint m, guint n, guint k)
{
  for (KsWmmaShape s = KS_WMMA_M16N16K16; s < KS_WMMA_N_SHAPES; s++)
    {
      guint sm, sn, sk;

      wmma_dims (s, &sm, &sn, &sk);
      if (sm == m && sn == n && sk == k)
        return s;
    }
  return KS_WMMA_N_SHAPES;
}

/* The rows and columns of matrix `which`: A is M x K, B K x N, C and D M x N */
static void
wmma_matrix (KsWmmaShape shape, KsWmmaMatrix which, guint *rows, guint *cols)
{
  guint m, n, k;

  wmma_dims (shape, &m, &n, &k);
  *rows = which == KS_WMMA_B ? k : m;
  *cols = which == KS_WMMA_A ? k : n;
}

guint
ks_wmma_leading_dim (KsWmmaShape shape, KsWmmaMatrix which, bool row_major)
{
  guint rows, cols;

  wmma_matrix (shape, which, &rows, &cols);
  return row_major ? cols : rows;
}

static guint
wmma_bits (KsPtxType type)
{
  switch (type)
    {
    case KS_PTX_TYPE_F16: case KS_PTX_TYPE_BF16: return 16;
    case KS_PTX_TYPE_S8: case KS_PTX_TYPE_U8: return 8;
    case KS_PTX_TYPE_F32: case KS_PTX_TYPE_TF32: case KS_PTX_TYPE_S32: return 32;
    case KS_PTX_TYPE_F64: return 64;
    default: return 0;
    }
}

/* Which element types a shape's matrices take */
static bool
wmma_takes (KsWmmaShape shape, KsWmmaMatrix which, KsPtxType type)
{
  switch (shape)
    {
    case KS_WMMA_M16N16K16:
    case KS_WMMA_M32N8K16:
    case KS_WMMA_M8N32K16:
      if (which == KS_WMMA_C)
        return type == KS_PTX_TYPE_F16 || type == KS_PTX_TYPE_F32 || type == KS_PTX_TYPE_S32;
      return type == KS_PTX_TYPE_F16 || type == KS_PTX_TYPE_BF16 || type == KS_PTX_TYPE_S8
             || type == KS_PTX_TYPE_U8;
    case KS_WMMA_M16N16K8:
      return type == (which == KS_WMMA_C ? KS_PTX_TYPE_F32 : KS_PTX_TYPE_TF32);
    case KS_WMMA_M8N8K4:
      return type == KS_PTX_TYPE_F64;
    default:
      return FALSE;
    }
}

/* Elements of the matrix each lane holds */
static guint
wmma_n_elems (KsWmmaShape shape, KsWmmaMatrix which)
{
  guint rows, cols;

  wmma_matrix (shape, which, &rows, &cols);
  return rows * cols / KS_MMA_WARP_SIZE;
}

guint
ks_wmma_n_regs (KsWmmaShape shape, KsWmmaMatrix which, KsPtxType type)
{
  guint bits;

  if (shape >= KS_WMMA_N_SHAPES || !wmma_takes (shape, which, type))
    return 0;
  bits = wmma_bits (type);
  /* The ISA gives .f16 A and B fragments 8 registers whatever the shape */
  if (type == KS_PTX_TYPE_F16 && which != KS_WMMA_C)
    return 8;
  return bits >= 32 ? wmma_n_elems (shape, which) : wmma_n_elems (shape, which) * bits / 32;
}

/* Where element i of a lane's fragment sits in the matrix; see the mapping
 * in the header. */
static void
wmma_coord (KsWmmaShape shape, KsWmmaMatrix which, KsPtxType type, guint lane, guint i,
            guint *row, guint *col)
{
  guint rows, cols, idx;

  if (shape == KS_WMMA_M16N16K16 && wmma_bits (type) >= 16 && type != KS_PTX_TYPE_S32)
    {
      switch (which)
        {
        case KS_WMMA_A:
          mma_coord (KS_MMA_M16N8K16, KS_MMA_OPERAND_A, LAYOUT_16BIT, lane, i, row, col);
          break;
        case KS_WMMA_B:
          mma_coord (KS_MMA_M16N8K16, KS_MMA_OPERAND_B, LAYOUT_16BIT, lane, i % 4, row, col);
          *col += 8 * (i / 4);
          break;
        case KS_WMMA_C:
          mma_coord (KS_MMA_M16N8K16, KS_MMA_OPERAND_C, LAYOUT_16BIT, lane, i % 4, row, col);
          *col += 8 * (i / 4);
          break;
        default:
          g_assert_not_reached ();
        }
      return;
    }
  wmma_matrix (shape, which, &rows, &cols);
  idx = i * KS_MMA_WARP_SIZE + lane;
  *row = idx / cols;
  *col = idx % cols;
}

/* Element slot s of a lane's registers, `bits` wide, packed low to high */
static uint64_t
slot_get (const uint64_t *const regs[], guint bits, guint lane, guint s)
{
  return frag_bits (regs, bits, lane, s);
}

static void
slot_set (uint64_t *const regs[], guint bits, guint lane, guint s, uint64_t v)
{
  guint per = bits >= 32 ? 1 : 32 / bits;
  uint64_t mask;

  if (bits == 64)
    {
      regs[s][lane] = v;
      return;
    }
  mask = ((G_GUINT64_CONSTANT (1) << bits) - 1) << (bits * (s % per));
  regs[s / per][lane] = ((uint32_t) regs[s / per][lane] & ~mask)
                        | ((v << (bits * (s % per))) & mask);
}

static bool
wmma_access (KsWmmaShape     shape,
             KsWmmaMatrix    which,
             KsPtxType       type,
             bool            row_major,
             uint64_t        addr,
             uint32_t        stride,
             KsMmaMemFunc    mem,
             void           *user_data,
             bool            is_store,
             uint64_t *const regs[])
{
  guint n_regs = ks_wmma_n_regs (shape, which, type);
  guint bits = wmma_bits (type), size = bits / 8;
  guint n_elems = wmma_n_elems (shape, which);
  guint slots = bits >= 32 ? n_regs : n_regs * (32 / bits);

  /* "The starting address must be 256-bit (32-byte) aligned." */
  if (n_regs == 0 || (addr & 31) != 0)
    return FALSE;

  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    for (guint i = 0; i < n_elems; i++)
      {
        guint row, col;
        uint64_t off, v = 0;
        uint8_t buf[8];

        wmma_coord (shape, which, type, lane, i, &row, &col);
        off = row_major ? (uint64_t) row * stride + col : (uint64_t) col * stride + row;
        if (is_store)
          {
            v = slot_get ((const uint64_t *const *) regs, bits, lane, i);
            for (guint j = 0; j < size; j++)
              buf[j] = (uint8_t) (v >> (8 * j));
          }
        if (!mem (addr + off * size, buf, size, is_store, user_data))
          return FALSE;
        if (is_store)
          continue;
        for (guint j = 0; j < size; j++)
          v |= (uint64_t) buf[j] << (8 * j);
        /* Repeated copies keep a fragment with more slots than elements
         * (the .f16 ones) self-consistent for element-wise code that
         * touches every register. */
        for (guint s = i; s < slots; s += n_elems)
          slot_set (regs, bits, lane, s, v);
      }
  return TRUE;
}

bool
ks_wmma_load (KsWmmaShape     shape,
              KsWmmaMatrix    which,
              KsPtxType       type,
              bool            row_major,
              uint64_t        addr,
              uint32_t        stride,
              KsMmaMemFunc    mem,
              void           *user_data,
              uint64_t *const d[])
{
  g_return_val_if_fail (mem != NULL && d != NULL, FALSE);

  return wmma_access (shape, which, type, row_major, addr, stride, mem, user_data, FALSE, d);
}

bool
ks_wmma_store (KsWmmaShape           shape,
               KsPtxType             type,
               bool                  row_major,
               uint64_t              addr,
               uint32_t              stride,
               const uint64_t *const s[],
               KsMmaMemFunc          mem,
               void                 *user_data)
{
  g_return_val_if_fail (mem != NULL && s != NULL, FALSE);

  /* wmma_access does not write the registers when storing. */
  return wmma_access (shape, KS_WMMA_C, type, row_major, addr, stride, mem, user_data, TRUE,
                      (uint64_t *const *) s);
}

/* A matrix of a fragment gathered row-major, each element as its raw bits */
static void
wmma_gather (KsWmmaShape shape, KsWmmaMatrix which, KsPtxType type,
             const uint64_t *const regs[], uint64_t *out)
{
  guint rows, cols, bits = wmma_bits (type);

  wmma_matrix (shape, which, &rows, &cols);
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    for (guint i = 0; i < wmma_n_elems (shape, which); i++)
      {
        guint row, col;

        wmma_coord (shape, which, type, lane, i, &row, &col);
        out[row * cols + col] = slot_get (regs, bits, lane, i);
      }
}

static void
wmma_scatter (KsWmmaShape shape, KsPtxType type, const uint64_t *in, uint64_t *const regs[])
{
  guint rows, cols, bits = wmma_bits (type);

  wmma_matrix (shape, KS_WMMA_C, &rows, &cols);
  for (guint lane = 0; lane < KS_MMA_WARP_SIZE; lane++)
    for (guint i = 0; i < wmma_n_elems (shape, KS_WMMA_C); i++)
      {
        guint row, col;

        wmma_coord (shape, KS_WMMA_C, type, lane, i, &row, &col);
        slot_set (regs, bits, lane, i, in[row * cols + col]);
      }
}

bool
ks_wmma_mma (KsWmmaShape           shape,
             KsPtxType             ab_type,
             KsPtxType             c_type,
             KsPtxType             d_type,
             const uint64_t *const a[],
             const uint64_t *const b[],
             const uint64_t *const c[],
             uint64_t *const       d[])
{
  uint64_t ra[512], rb[512], rc[256];
  uint32_t ma[512], mb[512], mc[256], md[256];
  guint m, n, k;

  g_return_val_if_fail (a != NULL && b != NULL && c != NULL && d != NULL, FALSE);

  if (ks_wmma_n_regs (shape, KS_WMMA_A, ab_type) == 0
      || ks_wmma_n_regs (shape, KS_WMMA_C, c_type) == 0
      || ks_wmma_n_regs (shape, KS_WMMA_C, d_type) == 0
      || ab_type == KS_PTX_TYPE_S8 || ab_type == KS_PTX_TYPE_U8
      || c_type == KS_PTX_TYPE_S32 || d_type == KS_PTX_TYPE_S32)
    return FALSE;
  /* Only .f16 inputs have .f16 accumulators */
  if (ab_type != KS_PTX_TYPE_F16 && ab_type != KS_PTX_TYPE_F64
      && (c_type != KS_PTX_TYPE_F32 || d_type != KS_PTX_TYPE_F32))
    return FALSE;

  wmma_dims (shape, &m, &n, &k);
  wmma_gather (shape, KS_WMMA_A, ab_type, a, ra);
  wmma_gather (shape, KS_WMMA_B, ab_type, b, rb);
  wmma_gather (shape, KS_WMMA_C, c_type, c, rc);

  if (ab_type == KS_PTX_TYPE_F64)
    {
      /* d = c + a x b in f64, one fused multiply-add at a time in k order */
      for (guint i = 0; i < m * n; i++)
        for (guint kk = 0; kk < k; kk++)
          rc[i] = ks_f64_fma (ra[(i / n) * k + kk], rb[kk * n + i % n], rc[i], KS_RN);
      wmma_scatter (shape, d_type, rc, d);
      return TRUE;
    }

  for (guint i = 0; i < m * k; i++)
    ma[i] = to_f32 (ab_type, (uint32_t) ra[i]);
  for (guint i = 0; i < k * n; i++)
    mb[i] = to_f32 (ab_type, (uint32_t) rb[i]);
  for (guint i = 0; i < m * n; i++)
    mc[i] = to_f32 (c_type, (uint32_t) rc[i]);

  matmul_f32 (m, n, k, ma, mb, mc, md);

  /* Only now, since d may be c. */
  for (guint i = 0; i < m * n; i++)
    rc[i] = from_f32 (d_type, md[i]);
  wmma_scatter (shape, d_type, rc, d);
  return TRUE;
}

bool
ks_wmma_mma_int (KsWmmaShape           shape,
                 KsPtxType             a_type,
                 KsPtxType             b_type,
                 bool                  satfinite,
                 const uint64_t *const a[],
                 const uint64_t *const b[],
                 const uint64_t *const c[],
                 uint64_t *const       d[])
{
  uint64_t ra[512], rb[512], rc[256];
  guint m, n, k;

  g_return_val_if_fail (a != NULL && b != NULL && c != NULL && d != NULL, FALSE);

  if ((a_type != KS_PTX_TYPE_S8 && a_type != KS_PTX_TYPE_U8)
      || (b_type != KS_PTX_TYPE_S8 && b_type != KS_PTX_TYPE_U8)
      || ks_wmma_n_regs (shape, KS_WMMA_A, a_type) == 0
      || ks_wmma_n_regs (shape, KS_WMMA_B, b_type) == 0)
    return FALSE;

  wmma_dims (shape, &m, &n, &k);
  wmma_gather (shape, KS_WMMA_A, a_type, a, ra);
  wmma_gather (shape, KS_WMMA_B, b_type, b, rb);
  wmma_gather (shape, KS_WMMA_C, KS_PTX_TYPE_S32, c, rc);
  for (guint i = 0; i < m * n; i++)
    {
      /* At most 16 products of 255 x 255 and an s32: no overflow */
      int64_t acc = (int32_t) (uint32_t) rc[i];

      for (guint kk = 0; kk < k; kk++)
        {
          uint8_t x = (uint8_t) ra[(i / n) * k + kk], y = (uint8_t) rb[kk * n + i % n];

          acc += (int64_t) (a_type == KS_PTX_TYPE_S8 ? (int8_t) x : x)
                 * (b_type == KS_PTX_TYPE_S8 ? (int8_t) y : y);
        }
      if (satfinite)
        acc = CLAMP (acc, G_MININT32, G_MAXINT32);
      rc[i] = (uint32_t) acc;
    }
  wmma_scatter (shape, KS_PTX_TYPE_S32, rc, d);
  return TRUE;
}
