/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lower.h: what ptxas makes of PTX, as far as the timing model needs it
 * (docs/TIMING.md, "The instruction stream").
 *
 * The timing model charges the instructions the GPU runs.  Without the
 * kernel's SASS, this pass says, for every PTX instruction, whether ptxas
 * gives it an instruction of its own or folds it into another:
 *
 * - kernel parameters are read as constant-bank operands (ld.param), and
 *   cvta.to.* and the address of a variable are no instruction;
 * - an integer add of an immediate whose result is only ever an address
 *   becomes the [R + offset] of the loads and stores that use it;
 * - a 64-bit add of a mul.wide result used once becomes the IMAD.WIDE;
 *   cvt.u64.u32 becomes the zero high word of the instructions that read it;
 * - a mul.f32 used once by an add.f32 (neither with an explicit rounding)
 *   becomes an FFMA;
 * - scalar loads (and stores) of one state space from one base register at
 *   consecutive offsets in one basic block become one 64- or 128-bit access
 *   when the base's alignment is known to allow it.  The alignment comes
 *   from a data-flow pass over the function: a shared variable is 16-byte
 *   aligned (ptxas places shared memory), a pointer from a parameter is
 *   only aligned to its access size (ptxas cannot know more), and adds,
 *   multiplies, shifts and masks carry alignment as arithmetic does.
 *
 * Plain C; the result is immutable once made.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

typedef enum
{
  KS_LOWER_ISSUE = 0,           /* an instruction of its own */
  KS_LOWER_FOLDED,              /* no instruction: an operand of its users */
  KS_LOWER_VECTOR_PART,         /* one access of a vector access its leader issues */
} KsLowerKind;

typedef struct
{
  uint8_t kind;                 /* KsLowerKind */
  uint8_t width;                /* a vector access's leader: the accesses it merges (2 or 4); else 1 */
  uint16_t skew;                /* bytes from the vector access's first byte to this one's */
  uint32_t leader;              /* KS_LOWER_VECTOR_PART: the module instruction that issues it */
} KsLowerInsn;

typedef struct _KsLowering
{
  KsLowerInsn *insns;           /* per module instruction */
  uint32_t n_insns;
  uint32_t n_folded;            /* instructions KS_LOWER_FOLDED */
  uint32_t n_vector_parts;      /* KS_LOWER_VECTOR_PART */
  uint32_t n_vectors;           /* vector accesses formed */
} KsLowering;

KsLowering         *ks_lower_module          (const KsPtxModule *module);
void                ks_lowering_free         (KsLowering        *lowering);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLowering, ks_lowering_free)

G_END_DECLS
