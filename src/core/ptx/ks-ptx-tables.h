/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-tables.h: static word tables of the PTX front end. */
#pragma once

#include "ks-ptx.h"

G_BEGIN_DECLS

typedef enum
{
  KS_PTX_WORD_OPCODE = 1,
  KS_PTX_WORD_TYPE,
  KS_PTX_WORD_SPACE,
  KS_PTX_WORD_ROUND,
  KS_PTX_WORD_CMP,
  KS_PTX_WORD_OP,
  KS_PTX_WORD_VEC,
  KS_PTX_WORD_CACHE,
  KS_PTX_WORD_SEM,
  KS_PTX_WORD_SCOPE,
  KS_PTX_WORD_FLAG,
  KS_PTX_WORD_SREG,
  KS_PTX_WORD_DIRECTIVE,
  KS_PTX_WORD_MODIFIER,         /* any instruction modifier, types included: see lookup_modifier */
} KsPtxWordCategory;

#define KS_PTX_DIRECTIVES \
  X (NONE, "") \
  X (ADDRESS_SIZE, "address_size") \
  X (ALIAS, "alias") \
  X (ALIGN, "align") \
  X (ATTRIBUTE, "attribute") \
  X (BRANCHTARGETS, "branchtargets") \
  X (CALLPROTOTYPE, "callprototype") \
  X (CALLTARGETS, "calltargets") \
  X (COMMON, "common") \
  X (CONST, "const") \
  X (ENTRY, "entry") \
  X (EXPLICITCLUSTER, "explicitcluster") \
  X (EXTERN, "extern") \
  X (FILE, "file") \
  X (FUNC, "func") \
  X (GLOBAL, "global") \
  X (LOC, "loc") \
  X (LOCAL, "local") \
  X (MAXCLUSTERRANK, "maxclusterrank") \
  X (MAXNCTAPERSM, "maxnctapersm") \
  X (MAXNREG, "maxnreg") \
  X (MAXNTID, "maxntid") \
  X (MINNCTAPERSM, "minnctapersm") \
  X (NORETURN, "noreturn") \
  X (PARAM, "param") \
  X (PRAGMA, "pragma") \
  X (PTR, "ptr") \
  X (REG, "reg") \
  X (REQNCTAPERCLUSTER, "reqnctapercluster") \
  X (REQNTID, "reqntid") \
  X (SAMPLERREF, "samplerref") \
  X (SECTION, "section") \
  X (SHARED, "shared") \
  X (SREG, "sreg") \
  X (SURF, "surf") \
  X (SURFREF, "surfref") \
  X (TARGET, "target") \
  X (TEX, "tex") \
  X (TEXREF, "texref") \
  X (V2, "v2") \
  X (V4, "v4") \
  X (V8, "v8") \
  X (VERSION, "version") \
  X (VISIBLE, "visible") \
  X (WEAK, "weak") \
  X (ABI_PRESERVE, "abi_preserve") \
  X (ABI_PRESERVE_CONTROL, "abi_preserve_control")

typedef enum
{
#define X(e, s) KS_PTX_DIR_##e,
  KS_PTX_DIRECTIVES
#undef X
  KS_PTX_N_DIRECTIVES
} KsPtxDirective;

uint32_t  ks_ptx_hash_bytes  (const char *s,
                              size_t      len);
gboolean  ks_ptx_lookup_word (const char *s,
                              size_t      len,
                              uint32_t    category,
                              uint64_t   *value);
/* The same with the FNV-1a hash of s already known (from the lexer) */
gboolean  ks_ptx_lookup_word_hashed (const char *s,
                                     size_t      len,
                                     uint32_t    hash,
                                     uint32_t    category,
                                     uint64_t   *value);
/* An instruction modifier in one look-up: its category (TYPE, SPACE, ROUND,
 * CMP, OP, VEC, CACHE, SEM, SCOPE or FLAG) and value. */
gboolean  ks_ptx_lookup_modifier (const char *s,
                                  size_t      len,
                                  uint32_t    hash,
                                  uint32_t   *category,
                                  uint64_t   *value);

G_END_DECLS
