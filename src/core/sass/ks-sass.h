/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass.h: SASS listings as NVIDIA's tools print them, read into flat
 * arrays: `cuobjdump -sass` (fatbin headers, several architectures, one
 * "Function : NAME" section per function) and `nvdisasm` (-c, -g, -gi,
 * -hex: `.section .text.NAME`, labels, `//## File` line records).
 *
 * Each instruction keeps its predicate, opcode, dot modifiers, operands, its
 * hex words when the listing has them, and the scheduling control code
 * decoded from them (Volta and later: the high 64-bit word; Maxwell and
 * Pascal: the control word shared by three instructions).  Strings are
 * interned in the listing; nothing points into the caller's text.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

#define KS_SASS_ERROR (ks_sass_error_quark ())

typedef enum
{
  KS_SASS_ERROR_PARSE,          /* a line it cannot read; the message is FILE:LINE: ... */
  KS_SASS_ERROR_EMPTY,          /* no function with instructions in it */
  KS_SASS_ERROR_ELF,            /* a cubin that is not a 64-bit little-endian ELF */
} KsSassError;

#define KS_SASS_NONE G_MAXUINT32

/* The scheduling control code of one instruction.  Barriers are 0-5, with
 * KS_SASS_NO_BARRIER (7) for none, as the hardware encodes it. */
#define KS_SASS_NO_BARRIER 7

typedef struct
{
  uint8_t stall;                /* cycles before the next instruction may issue, 0-15 */
  uint8_t yield;                /* 1: the scheduler may switch warps after it (bit clear) */
  uint8_t write_barrier;        /* scoreboard set when the result is written */
  uint8_t read_barrier;         /* scoreboard set when the operands have been read */
  uint8_t wait_mask;            /* scoreboards (bit i = barrier i) waited on before issue */
  uint8_t reuse;                /* operand reuse cache flags, bit 0 = operand a */
} KsSassControl;

typedef enum
{
  KS_SASS_HAS_WORD0 = 1 << 0,   /* words[0] is known */
  KS_SASS_HAS_WORD1 = 1 << 1,   /* words[1] (Volta+: the high word) is known */
  KS_SASS_HAS_CONTROL = 1 << 2, /* control is decoded */
  KS_SASS_DUAL_FIRST = 1 << 3,  /* Maxwell/Pascal: opens a { } dual-issue pair */
  KS_SASS_DUAL_SECOND = 1 << 4, /* closes it */
} KsSassInsnFlags;

typedef struct
{
  uint64_t offset;              /* byte offset in the function's .text (an address in
                                 * the listing of a loaded, relocated ELF) */
  uint32_t line;                /* 1-based line of the listing */
  const char *predicate;        /* "@!P0", or NULL */
  const char *opcode;           /* "LDG"; NULL where no disassembler named it (a
                                 * cubin read without one, or words nvdisasm
                                 * printed without an instruction): then
                                 * modifiers is "", there are no operands and
                                 * pipe is KS_N_PIPES */
  const char *modifiers;        /* ".E.SYS", or "" */
  uint32_t first_operand;       /* into KsSassListing.operands */
  uint32_t n_operands;
  uint64_t words[2];            /* the instruction's 64-bit words, low first */
  KsSassControl control;
  uint8_t flags;                /* KsSassInsnFlags */
  uint8_t pipe;                 /* KsPipe from ks_sass_opcode_pipe() */
  uint32_t source;              /* into KsSassListing.sources, or KS_SASS_NONE */
} KsSassInsn;

/* A `//## File "F", line N [inlined at "G", line M]` record.
 *
 * nvdisasm -gi writes the whole inlining stack in front of an instruction,
 * innermost frame first, each record inlined at the next one's line, the
 * last one (the function's own line) without "inlined at".  The instruction
 * gets the innermost record, the line that made its code (as nvdisasm -g
 * alone and the PTX's own .loc give it); caller leads outward through the
 * others. */
typedef struct
{
  const char *file;
  uint32_t line;
  const char *inlined_file;     /* NULL when not inlined */
  uint32_t inlined_line;
  uint32_t caller;              /* the record of inlined_file:inlined_line, or KS_SASS_NONE */
  uint32_t ptx_line;            /* a `File ".nv_debug_ptx_txt", line N` record with it: N, else 0 */
} KsSassSource;

typedef struct
{
  const char *name;             /* the label */
  uint32_t insn;                /* index of the instruction it stands before */
} KsSassLabel;

typedef struct
{
  const char *name;             /* as the listing spells it (mangled) */
  const char *arch;             /* "sm_86", or NULL when the listing does not say */
  uint32_t line;                /* where it starts in the listing */
  uint32_t first_insn;          /* range in KsSassListing.insns */
  uint32_t n_insns;
  uint32_t first_label;         /* range in KsSassListing.labels */
  uint32_t n_labels;
} KsSassFunction;

typedef enum
{
  KS_SASS_FORMAT_CUOBJDUMP = 0,
  KS_SASS_FORMAT_NVDISASM,
  KS_SASS_FORMAT_CUBIN,         /* read from the cubin itself (ks-sass-cubin.h) */
} KsSassFormat;

typedef struct _KsSassCubin KsSassCubin;

typedef struct
{
  KsSassFormat format;
  KsSassFunction *functions;
  uint32_t n_functions;
  KsSassInsn *insns;
  uint32_t n_insns;
  const char **operands;
  uint32_t n_operands;
  KsSassSource *sources;
  uint32_t n_sources;
  KsSassLabel *labels;
  uint32_t n_labels;
  KsSassCubin *cubin;           /* KS_SASS_FORMAT_CUBIN: what the ELF says; else NULL */
  /*< private >*/
  GStringChunk *strings;
} KsSassListing;

GQuark          ks_sass_error_quark      (void);

/* Reads a cuobjdump or nvdisasm listing.  filename is only used in
 * messages, which read "FILENAME:LINE: message".  A line of no known shape,
 * an instruction cut short (no ';'), a hex word that is not 16 digits, a
 * binary file or a listing with no instructions is an error.
 *
 * Returns: (transfer full): the listing, or NULL with error set. */
KsSassListing  *ks_sass_parse            (const char          *text,
                                          gsize                len,
                                          const char          *filename,
                                          GError             **error);
void            ks_sass_listing_free     (KsSassListing       *listing);
/* The listing as the SASS pane shows it: the same lines, each instruction
 * as its offset, a column for "{" and the predicate, the instruction with
 * single spaces, and its hex words aligned in a column after it (the
 * continuation line's too); other lines lose all but four spaces of their
 * indentation and have runs of blanks made two spaces.  cuobjdump and
 * nvdisasm indent with so many blanks that half a pane showed nothing.
 * ks_sass_parse reads the result as it reads the listing. */
char           *ks_sass_display_text     (const char          *text,
                                          gssize               len);
/* Gives the functions the listing does not name an architecture for (an
 * nvdisasm -c listing of a cubin) that of the cubin, when it is known */
void            ks_sass_listing_set_arch (KsSassListing       *listing,
                                          const char          *arch);

/* The function named name (mangled, as in the listing) for arch (any arch
 * when NULL), or NULL.  (transfer none) */
const KsSassFunction *ks_sass_find_function (const KsSassListing *listing,
                                             const char          *name,
                                             const char          *arch);

/* The function a name from elsewhere means: the mangled name as in the
 * listing, the demangled signature as c++filt and ptxas -v print it
 * ("void kernel<int>(int*, int const*, int)"), or the bare name without
 * return type and parameters ("kernel<int>", "sgemm_naive").  arch narrows
 * it when not NULL.  (transfer none) */
const KsSassFunction *ks_sass_match_function (const KsSassListing *listing,
                                              const char          *name,
                                              const char          *arch);

/* The instructions of function that the line records put on CUDA line
 * file:line (file compared whole, or by its last component when either side
 * has no directory): its innermost record.  With inlined, an instruction
 * whose code was inlined at that line, at any depth, counts too.  This is the join for SASS -> CUDA -> PTX: the PTX's own
 * .loc lines name the same file and line.
 *
 * Returns: (transfer full) (element-type guint32): instruction indices into
 * listing->insns, in order. */
GArray         *ks_sass_insns_for_line   (const KsSassListing  *listing,
                                          const KsSassFunction *function,
                                          const char           *file,
                                          uint32_t              line,
                                          gboolean              inlined);

/* PTX -> SASS: the instructions of function on the CUDA line that PTX
 * line ptx_line of module comes from (its .loc; the innermost one when
 * inlined).  Empty when the PTX line has no CUDA line or no instruction.
 *
 * Returns: (transfer full) (element-type guint32): as above. */
GArray         *ks_sass_insns_for_ptx_line (const KsSassListing  *listing,
                                            const KsSassFunction *function,
                                            const KsPtxModule    *module,
                                            uint32_t              ptx_line);

/* Control codes.  Volta to Blackwell keep them in bits 41-61 of the high
 * word; Maxwell and Pascal in 21-bit fields of a control word in front of
 * every three instructions (slot 0 to 2). */
void            ks_sass_decode_control_volta   (uint64_t        high_word,
                                                KsSassControl  *out);
void            ks_sass_decode_control_maxwell (uint64_t        control_word,
                                                guint           slot,
                                                KsSassControl  *out);

/* The control code as CuAssembler writes it, "B0-----:R-:W2:Y:S04": the
 * barriers waited on, the read and write barrier set ('-' for none), 'Y'
 * when it may yield, the stall.  buf needs KS_SASS_CONTROL_TEXT_SIZE bytes;
 * returns buf. */
#define KS_SASS_CONTROL_TEXT_SIZE 24
char           *ks_sass_control_to_string      (const KsSassControl *control,
                                                char                *buf);

/* Appends the instruction as a listing writes it, "@P0 LDG.E R4, [R4.64]";
 * one no disassembler named (its opcode NULL) appends `unnamed` */
void            ks_sass_insn_append_text       (GString             *out,
                                                const KsSassListing *listing,
                                                const KsSassInsn    *insn,
                                                const char          *unnamed);

/* The numeric part of "sm_86" (86), 0 when it is not of that form */
guint           ks_sass_arch_number      (const char          *arch);

/* The execution pipe (a KsPipe) of a SASS opcode (no modifiers) for sm_70 to
 * sm_120, and a short description of what it does, or NULL when unknown.
 * Unknown opcodes count as KS_PIPE_INT. */
guint           ks_sass_opcode_pipe      (const char          *opcode,
                                          const char          *modifiers);
const char     *ks_sass_opcode_description (const char        *opcode);

/* The opcode ("FFMA", no modifiers) of a Volta-to-Hopper instruction read
 * from its low word (ks-sass-decode.c: a table checked against nvdisasm's
 * listings), for a cubin no disassembler named; NULL for a code the table
 * does not hold for the architecture's family, and for any architecture
 * outside sm_70..sm_90.  arch_number: 86 for sm_86. */
const char     *ks_sass_decode_opcode    (guint                arch_number,
                                          const KsSassInsn    *insn);
/* The special register ("SR_CLOCKLO", "SR_TID.X", "SRZ") an S2R, S2UR or
 * CS2R reads, from its high word; NULL for another instruction or a
 * register the table does not know */
const char     *ks_sass_decode_sreg      (guint                arch_number,
                                          const KsSassInsn    *insn);
/* The guard predicate ("@P0", "@!P2") of an instruction
 * ks_sass_decode_opcode() names, written into buf; NULL when it has none
 * (PT) or is not decoded */
const char     *ks_sass_decode_predicate (guint                arch_number,
                                          const KsSassInsn    *insn,
                                          char                 buf[8]);
/* The opcode of an instruction: the disassembler's, else the one its words
 * give (ks_sass_decode_opcode()), or NULL; and its pipe (a KsPipe) likewise,
 * KS_N_PIPES when the opcode is not known */
const char     *ks_sass_insn_opcode      (guint                arch_number,
                                          const KsSassInsn    *insn);
guint           ks_sass_insn_pipe        (guint                arch_number,
                                          const KsSassInsn    *insn);
/* Where a BRA (or before Hopper a CALL.REL) read from its words goes: the
 * offset in the function's .text (bits 32-81 of the instruction, a signed
 * byte offset from the next instruction; on Hopper bits 34-81 and 16-23
 * hold a BRA's over 4).  FALSE for another instruction or architecture.
 * tests/test-sass.c holds it to every BRA and CALL.REL of the committed
 * listings. */
gboolean        ks_sass_decode_branch_target (guint            arch_number,
                                              const KsSassInsn *insn,
                                              uint64_t        *target);
/* The bytes an LDS, STS, LDG or STG read from its words moves per lane
 * (bits 73-75: 1, 2, 4, 8 or 16); 0 for another instruction */
guint           ks_sass_decode_access_bytes (guint             arch_number,
                                             const KsSassInsn *insn);
/* For the tests: whether the table is sorted for its binary search */
gboolean        ks_sass_decode_table_sorted (void);

/* The source line of instruction index (the record before it in the
 * listing), or NULL. (transfer none) */
const KsSassSource *ks_sass_insn_source  (const KsSassListing *listing,
                                          uint32_t             insn);

/* ELF cubins: the bytes of section ".text.<function>" of a 64-bit
 * little-endian ELF, read without libelf.  Returns FALSE with error set when
 * the file is not such an ELF or has no such section; *out points into
 * data. */
gboolean        ks_sass_elf_text_section (const guint8        *data,
                                          gsize                len,
                                          const char          *function,
                                          const guint8       **out,
                                          gsize               *out_len,
                                          GError             **error);

/* An Itanium C++ ABI demangler that answers what c++filt answers: nested
 * and local names, templates (type, literal, pack and simple expression
 * arguments), substitutions and std:: abbreviations, pointers, references,
 * const/volatile, function, array and member pointer types, pack
 * expansions, lambdas, ABI tags, constructors, operators, clone suffixes.
 * It returns NULL for what it does not handle (decltype and other
 * expressions, special names such as vtables and guard variables, names
 * over 1024 characters) and for names that are not mangled, such as a PTX
 * parameter's "_Z3fooi_param_0".  "_Z11sgemm_naiveiiifPfPKffS_" gives
 * "sgemm_naive(int, int, int, float, float*, float const*, float, float*)".
 *
 * Returns: (transfer full) (nullable) */
char           *ks_sass_demangle         (const char          *mangled);
/* The name alone, for a message or a list: "vadd" for "_Z4vaddPKfS0_Pfi"
 * (the demangled name up to its parameters), else @name as it is.
 * Returns: (transfer full) */
char           *ks_sass_demangle_name    (const char          *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsSassListing, ks_sass_listing_free)

G_END_DECLS
