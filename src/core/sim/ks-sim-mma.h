/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-mma.h: warp-level matrix instructions (mma.sync, ldmatrix,
 * stmatrix, movmatrix, wmma).
 *
 * Pure functions over the 32 lanes of one warp.  A register operand is an
 * array of register rows: regs[i] points at the 32 lane values of the i-th
 * register of the vector operand ({a0, a1, ...} in PTX), so regs[i][lane] is
 * register i of that lane.  Rows are uint64_t because that is how the
 * simulator keeps a warp's registers (KsFrame.regs, one row of 32 per slot);
 * only the low 32 bits are read, and results are written zero-extended.
 * A .f16x2 / .bf16x2 register holds the lower-numbered element of a pair in
 * its low half, as the ISA's "Elements (low to high)" tables order them.
 *
 * The functions compute every lane: .sync.aligned instructions are executed
 * by the whole warp, and what happens when some lanes have exited is
 * undefined in the ISA, so the caller decides whether to fault first.
 *
 * Arithmetic (mma.sync and wmma.mma): D = A x B + C with every product
 * exact and the sum accumulated in f32, rounding to nearest-even after each
 * addition, in increasing k: d = c; d = fma (a[i][0], b[0][j], d); ...
 * An f16 C is widened exactly first and an f16 D is rounded (RN) once at the
 * end.  The ISA does not specify the order or the internal precision of the
 * tensor cores' accumulation, so hardware results may differ from these in
 * the last bits (estimate); NaN results are the canonical 0x7fffffff /
 * 0x7fff, and subnormals are kept, not flushed (estimate).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

#define KS_MMA_WARP_SIZE 32

/* Reads (is_store false) or writes len bytes at addr; FALSE when the memory
 * does not hold all of [addr, addr + len). */
typedef bool (*KsMmaMemFunc) (uint64_t addr,
                              void    *buf,
                              size_t   len,
                              bool     is_store,
                              void    *user_data);

/* A flat window of memory for ks_mma_flat_mem: byte address base + i is
 * data[i], for i < size.  For shared memory, base is the window's start in
 * the shared state space (0 in the simulator) and data the CTA's block. */
typedef struct
{
  uint8_t *data;
  uint64_t base;
  uint64_t size;
} KsMmaFlatMem;

/* A KsMmaMemFunc over a KsMmaFlatMem passed as user_data. */
bool ks_mma_flat_mem (uint64_t addr, void *buf, size_t len, bool is_store, void *user_data);

/* ---- mma.sync ----------------------------------------------------------- */

typedef enum
{
  KS_MMA_M16N8K16,              /* .f16, .bf16; .s8, .u8; .e4m3, .e5m2 */
  KS_MMA_M16N8K8,               /* .f16, .bf16, .tf32 */
  KS_MMA_M16N8K4,               /* .tf32 */
  KS_MMA_M16N8K32,              /* .s8, .u8; .e4m3, .e5m2 */
  KS_MMA_M8N8K4,                /* .f64 */
} KsMmaShape;

typedef enum
{
  KS_MMA_OPERAND_A,
  KS_MMA_OPERAND_B,
  KS_MMA_OPERAND_C,             /* C and D share a layout */
} KsMmaOperand;

/* Registers per lane of an operand of mma.sync, or 0 for a combination the
 * functions below do not support.  type is the element type (F16, BF16,
 * TF32, S8, U8, E4M3, E5M2, F64 for A and B; F16, F32, S32, F64 for C/D).
 * An .f64 element takes a whole 64-bit register. */
guint ks_mma_n_regs (KsMmaShape shape, KsMmaOperand operand, KsPtxType type);

/*
 * ks_mma_sync:
 *
 * mma.sync.aligned.shape.row.col.dtype.atype.btype.ctype d, a, b, c for
 *   .m16n8k16 and .m16n8k8 with .f16 x .f16 into .f16 / .f32 (any mix of
 *     ctype and dtype), and .bf16 x .bf16 into .f32;
 *   .m16n8k8 and .m16n8k4 with .tf32 x .tf32 into .f32;
 *   .m16n8k32 and .m16n8k16 with .e4m3 / .e5m2 x .e4m3 / .e5m2 (any pair)
 *     into .f16 / .f32 (sm_89), each element widened exactly and accumulated
 *     as above, in the 8-bit layouts of ks_mma_sync_int;
 *   .m8n8k4 with .f64 x .f64 into .f64, accumulated in f64 with one fused
 *     multiply-add (round to nearest) at a time in increasing k.
 * "Matrix Fragments for mma.m16n8k32": the 8-bit A and B layouts, the same
 *   for the integer and the fp8 types:
 *   A: row = groupID for ai where 0 <= i < 4 || 8 <= i < 12, groupID + 8
 *      otherwise; col = threadID_in_group * 4 + (i & 0x3) for i < 8, + 16
 *      for i >= 8
 *   B: row = threadID_in_group * 4 + (i & 0x3) for bi where i < 4, + 16 for
 *      i >= 4; col = groupID
 * "Matrix Fragments for mma.m8n8k4 with .f64": A: row = %laneid >> 2,
 *   col = %laneid % 4; B: row = %laneid % 4, col = %laneid >> 2; C/D: row =
 *   groupID, col = threadID_in_group * 2 + (i & 0x1).
 * These shapes exist only as .row.col, which the caller (parser) checks.
 * The operands are gathered from and scattered to the lanes following the
 * ISA's "Matrix Fragments for mma.m16n8k*" figures; d may alias c.  A .tf32
 * register's low 13 bits are ignored (the ISA leaves non-tf32 data
 * undefined; estimate: hardware truncates).
 *
 * Returns: FALSE, writing nothing, for a combination not listed above.
 */
bool ks_mma_sync (KsMmaShape            shape,
                  KsPtxType             a_type,
                  KsPtxType             b_type,
                  KsPtxType             c_type,
                  KsPtxType             d_type,
                  const uint64_t *const a[],
                  const uint64_t *const b[],
                  const uint64_t *const c[],
                  uint64_t *const       d[]);

/*
 * ks_mma_sync_int:
 *
 * mma.sync.aligned.shape.row.col{.satfinite}.s32.atype.btype.s32 d, a, b, c
 * for .m16n8k16 and .m16n8k32 with .s8 / .u8 A and B (either mix).  The
 * sum is exact; without .satfinite it wraps to 32 bits, with it it is
 * clamped to the s32 range.  "Matrix Fragments for mma.m16n8k16 with
 * integer type": A: row = groupID for ai where i < 4, groupID + 8
 * otherwise; col = threadID_in_group * 4 + (i & 0x3); B: row =
 * threadID_in_group * 4 + i; col = groupID.  .m16n8k32 as for ks_mma_sync.
 *
 * Returns: FALSE, writing nothing, for another shape or type.
 */
bool ks_mma_sync_int (KsMmaShape            shape,
                      KsPtxType             a_type,
                      KsPtxType             b_type,
                      bool                  satfinite,
                      const uint64_t *const a[],
                      const uint64_t *const b[],
                      const uint64_t *const c[],
                      uint64_t *const       d[]);

/* ---- ldmatrix ------------------------------------------------------------ */

/*
 * ks_ldmatrix:
 * @num: 1, 2 or 4 (.x1, .x2, .x4)
 * @trans: .trans
 * @addr: each lane's address operand; lanes 8m..8m+7 give the rows 0..7 of
 *   matrix m, the other lanes' addresses are not read
 * @d: @num register rows; d[m] receives matrix m
 * @fault_lane: (out) (optional): on failure, the lane whose row failed
 *
 * ldmatrix.sync.aligned.m8n8.num{.trans}{.shared}.b16.  Each 8x8 matrix is
 * read a 16-byte row per address; lane l then holds row l/4, columns
 * 2 (l%4) and 2 (l%4) + 1 (the low half first), of the matrix, or with
 * .trans of its transpose.
 *
 * Returns: FALSE when a row address is not 16-byte aligned or @mem refuses
 *   it; @d is then unchanged.
 */
bool ks_ldmatrix (guint          num,
                  bool           trans,
                  const uint64_t addr[KS_MMA_WARP_SIZE],
                  KsMmaMemFunc   mem,
                  void          *user_data,
                  uint64_t *const d[],
                  guint         *fault_lane);

/* ---- stmatrix ------------------------------------------------------------ */

/*
 * ks_stmatrix:
 * @num: 1, 2 or 4 (.x1, .x2, .x4)
 * @trans: .trans
 * @addr: each lane's address operand, as for ks_ldmatrix: lanes 8m..8m+7
 *   give the rows 0..7 of matrix m
 * @s: @num register rows; s[m] holds matrix m
 * @fault_lane: (out) (optional): on failure, the lane whose row failed
 *
 * stmatrix.sync.aligned.m8n8.num{.trans}{.shared}.b16, the inverse of
 * ldmatrix: lane l gives row l/4, columns 2 (l%4) and 2 (l%4) + 1 (its
 * register's low half first) of each matrix, or with .trans of the matrix's
 * transpose, and each 16-byte row goes to its address.
 *
 * Every row address is checked (16-byte alignment, and @mem accepting a
 * read of the row) before anything is written.
 *
 * Returns: FALSE when a row address is misaligned or refused; memory is then
 *   unchanged.
 */
bool ks_stmatrix (guint                 num,
                  bool                  trans,
                  const uint64_t        addr[KS_MMA_WARP_SIZE],
                  const uint64_t *const s[],
                  KsMmaMemFunc          mem,
                  void                 *user_data,
                  guint                *fault_lane);

/*
 * ks_movmatrix:
 *
 * movmatrix.sync.aligned.m8n8.trans.b16 d, a: an 8x8 matrix held in the
 * ldmatrix fragment layout (lane l: row l/4, columns 2 (l%4) and
 * 2 (l%4) + 1) is transposed across the warp, into the same layout.  d may
 * be a.
 */
void ks_movmatrix (const uint64_t a[KS_MMA_WARP_SIZE],
                   uint64_t       d[KS_MMA_WARP_SIZE]);

/* ---- wmma ------------------------------------------------------------------
 *
 * The ISA leaves the distribution of a wmma fragment over the lanes
 * unspecified ("the mapping of matrix elements into fragments is
 * implementation-defined"), so the simulator picks one and uses it
 * consistently in load, mma and store: the matrices that wmma.store writes
 * back are what hardware writes, but the per-lane registers in between are
 * not (a program that reads them lane by lane, which CUDA forbids except for
 * element-wise operations applied to every element alike, sees different
 * values than on a GPU).  Which element of a fragment a lane holds does not
 * depend on the .row/.col layout that loaded it, so wmma.mma's layouts only
 * need to match the loads in the ISA's sense and are not passed here.
 *
 * The mapping, for m16n16k16 with .f16/.bf16 A and B and .f16/.f32 C and
 * D, reuses the mma.m16n8k16 figures:
 *   A (16x16): registers 0-3 as mma.m16n8k16's A; for .f16 (8 registers)
 *     registers 4-7 repeat 0-3.
 *   B (16x16): registers 0-1 as mma.m16n8k16's B for columns 0-7,
 *     registers 2-3 the same for columns 8-15; .f16 repeats them in 4-7.
 *   C/D .f32 (8 registers): 0-3 as mma's C for columns 0-7, 4-7 for
 *     columns 8-15.  C/D .f16 (4 registers): 0-1 and 2-3 likewise.
 * Every other shape and type (m32n8k16 and m8n32k16 of .f16, .bf16, .s8,
 * .u8; m16n16k16 of .s8/.u8 and its .s32 accumulators; m16n16k8 of .tf32;
 * m8n8k4 of .f64): element i of lane l is element i * 32 + l of the
 * matrix in row-major order, packed low to high into the registers
 * (2 16-bit or 4 8-bit elements to a .b32 register).  A fragment with
 * more room than elements (.f16 A and B always have 8 registers) repeats
 * its elements in the slots after them.  wmma.mma reads only the first
 * copy of a repeated element.
 */

typedef enum
{
  KS_WMMA_M16N16K16,
  KS_WMMA_M32N8K16,
  KS_WMMA_M8N32K16,
  KS_WMMA_M16N16K8,             /* .tf32 */
  KS_WMMA_M8N8K4,               /* .f64 */
  KS_WMMA_N_SHAPES,
} KsWmmaShape;

typedef enum
{
  KS_WMMA_A,
  KS_WMMA_B,
  KS_WMMA_C,                    /* C for loads, D for stores */
} KsWmmaMatrix;

/* The shape of .mMnNkK, or KS_WMMA_N_SHAPES when the simulator has none */
KsWmmaShape ks_wmma_shape (guint m, guint n, guint k);
/* The length of a row (row_major) or column of the matrix: the stride of
 * a matrix stored without gaps */
guint ks_wmma_leading_dim (KsWmmaShape shape, KsWmmaMatrix which, bool row_major);

/* Registers per lane of a wmma fragment (the ISA's counts), or 0 for an
 * unsupported combination.  type: F16, BF16, S8, U8, TF32 or F64 for A and
 * B, F16, F32, S32 or F64 for C/D, as the shape takes them. */
guint ks_wmma_n_regs (KsWmmaShape shape, KsWmmaMatrix which, KsPtxType type);

/*
 * ks_wmma_load:
 * @addr: the matrix's address, which the ISA has all lanes give alike (the
 *   caller passes one lane's); must be 32-byte aligned
 * @row_major: .row (else .col)
 * @stride: elements between the starts of consecutive rows (.row) or
 *   columns (.col); ks_wmma_leading_dim() when the instruction has no
 *   stride operand
 * @d: ks_wmma_n_regs() register rows
 *
 * wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type d, [addr]{, stride}.
 *
 * Returns: FALSE when @addr is misaligned, the combination unsupported or
 *   @mem refuses an element; @d may then be partly written.
 */
bool ks_wmma_load (KsWmmaShape     shape,
                   KsWmmaMatrix    which,
                   KsPtxType       type,
                   bool            row_major,
                   uint64_t        addr,
                   uint32_t        stride,
                   KsMmaMemFunc    mem,
                   void           *user_data,
                   uint64_t *const d[]);

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c with
 * .f16 inputs and .f16 / .f32 C and D, with .bf16 or .tf32 inputs and .f32
 * C and D, or .f64 throughout (m8n8k4), computed as the header comment
 * says; d may alias c.  Returns FALSE for other combinations. */
bool ks_wmma_mma (KsWmmaShape           shape,
                  KsPtxType             ab_type,
                  KsPtxType             c_type,
                  KsPtxType             d_type,
                  const uint64_t *const a[],
                  const uint64_t *const b[],
                  const uint64_t *const c[],
                  uint64_t *const       d[]);

/* wmma.mma...shape.s32.atype.btype.s32{.satfinite} with .s8/.u8 inputs:
 * exact sums, wrapped to 32 bits or, with satfinite, clamped to the s32
 * range.  Returns FALSE for other types. */
bool ks_wmma_mma_int (KsWmmaShape           shape,
                      KsPtxType             a_type,
                      KsPtxType             b_type,
                      bool                  satfinite,
                      const uint64_t *const a[],
                      const uint64_t *const b[],
                      const uint64_t *const c[],
                      uint64_t *const       d[]);

/* wmma.store.d.sync.aligned.layout.shape{.ss}.type [addr], s{, stride}:
 * arguments as for ks_wmma_load.  Returns FALSE as ks_wmma_load does; memory
 * may then be partly written. */
bool ks_wmma_store (KsWmmaShape           shape,
                    KsPtxType             type,
                    bool                  row_major,
                    uint64_t              addr,
                    uint32_t              stride,
                    const uint64_t *const s[],
                    KsMmaMemFunc          mem,
                    void                 *user_data);

G_END_DECLS
