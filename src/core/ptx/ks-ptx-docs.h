/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-docs.h: short descriptions of PTX instructions, their modifiers and
 * types, written for this project, for the PTX pane's hover documentation.
 *
 * ks_ptx_explain() reads one line of PTX text and spells out the instruction
 * under a column: "mul.wide.s32" is mul (multiply), .wide (a result twice as
 * wide as the operands) and .s32 (32-bit signed integer).  It looks at the
 * text only, so it works on a line that does not parse.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* The description of an instruction name ("mul", "cp"), or NULL */
const char     *ks_ptx_doc_opcode        (const char *opcode);

/* The description of a modifier word (without its dot: "wide", "shared::cta",
 * "L2::128B", "m16n8k16") of the instruction opcode, or NULL.  Some words
 * mean different things on different instructions (.lo on mul keeps the low
 * half of the product, on setp it is an unsigned comparison): opcode picks
 * the meaning, and may be NULL for the general one. */
const char     *ks_ptx_doc_modifier      (const char *opcode,
                                          const char *word);

/* The description of a type name without its dot ("f32", "bf16x2"), or NULL */
const char     *ks_ptx_doc_type          (const char *type);

typedef struct
{
  char *word;                   /* as written, without the dot */
  const char *description;      /* NULL when the tables have none */
  gboolean is_type;
} KsPtxDocPart;

typedef struct
{
  uint32_t start, end;          /* byte range of the instruction word in the line */
  char *opcode;                 /* "mul" */
  const char *summary;          /* the opcode's description */
  char *guard;                  /* "%p1" or "!%p1" when the instruction is guarded, else NULL */
  KsPtxDocPart *parts;          /* the modifiers and types after the opcode, in order */
  guint n_parts;
} KsPtxExplanation;

/* The instruction of `line` (len bytes, one line without its newline) whose
 * statement holds byte `column`: from its label or guard to its ';', with
 * its operands.  NULL for a directive, a comment, a blank, a label alone or
 * a word that is not a PTX instruction.
 *
 * Returns: (transfer full) (nullable) */
KsPtxExplanation *ks_ptx_explain         (const char *line,
                                          gsize       len,
                                          gsize       column);
void            ks_ptx_explanation_free  (KsPtxExplanation *explanation);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsPtxExplanation, ks_ptx_explanation_free)

G_END_DECLS
