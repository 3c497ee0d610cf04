/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-cubin.h: a cubin (the ELF file ptxas and nvcc -cubin write) read
 * without any NVIDIA tool: its architecture, sections, kernels, the
 * .nv.info attributes (registers, parameters, stack, exits...) and every
 * instruction's words with their control codes, as a KsSassListing whose
 * opcodes are NULL until a disassembler's listing of the same cubin names
 * them (ks_sass_cubin_add_disassembly).
 *
 * What the ELF says is checked against the file before it is used: a cut,
 * corrupted or hostile file gives an error naming the place, never a read
 * outside the buffer.
 */
#pragma once

#include "ks-sass.h"

G_BEGIN_DECLS

/* .nv.info record formats, as cuobjdump -elf names them (EIFMT_*) */
typedef enum
{
  KS_CUBIN_EIFMT_NVAL = 1,      /* no value (a zero 16-bit field) */
  KS_CUBIN_EIFMT_BVAL = 2,      /* one byte (in a 16-bit field) */
  KS_CUBIN_EIFMT_HVAL = 3,      /* a 16-bit value */
  KS_CUBIN_EIFMT_SVAL = 4,      /* a 16-bit size, then that many bytes */
} KsCubinAttrFormat;

/* The .nv.info attributes this reader gives a meaning to (EIATTR_*; the
 * numbers are those of the records, checked against cuobjdump -elf's names
 * in the tests).  Any other is kept by number. */
typedef enum
{
  KS_EIATTR_MAX_THREADS = 0x05,
  KS_EIATTR_PARAM_CBANK = 0x0a,
  KS_EIATTR_REQNTID = 0x10,
  KS_EIATTR_FRAME_SIZE = 0x11,
  KS_EIATTR_MIN_STACK_SIZE = 0x12,
  KS_EIATTR_KPARAM_INFO = 0x17,
  KS_EIATTR_CBANK_PARAM_SIZE = 0x19,
  KS_EIATTR_MAXREG_COUNT = 0x1b,
  KS_EIATTR_EXIT_INSTR_OFFSETS = 0x1c,
  KS_EIATTR_MAX_STACK_SIZE = 0x23,
  KS_EIATTR_REGCOUNT = 0x2f,
  KS_EIATTR_CUDA_API_VERSION = 0x37,
} KsCubinAttrId;

typedef struct
{
  const char *name;
  uint32_t type;                /* SHT_* (SHT_CUDA_INFO is 0x70000000) */
  uint64_t flags;
  uint64_t offset;
  uint64_t size;
  uint32_t link;
  uint32_t info;
} KsCubinSection;

/* One .nv.info record */
typedef struct
{
  uint8_t format;               /* KsCubinAttrFormat */
  uint8_t id;                   /* EIATTR number */
  uint32_t function;            /* the listing's function it is about, or KS_SASS_NONE */
  uint32_t section;             /* the .nv.info section it was read from */
  uint32_t value;               /* BVAL, HVAL: the value; SVAL: the size in bytes */
  uint32_t data;                /* SVAL: its bytes, into KsSassCubin.attr_bytes */
} KsCubinAttr;

/* One kernel parameter from EIATTR_KPARAM_INFO */
typedef struct
{
  uint32_t index;               /* its position in the signature (the ordinal) */
  uint32_t offset;              /* in the parameter block */
  uint32_t size;                /* bytes */
  uint32_t cbank_offset;        /* where it lies in constant bank 0, c[0x0][...];
                                 * KS_SASS_NONE without EIATTR_PARAM_CBANK */
  uint8_t log_alignment;        /* the pointee's, as recorded */
  uint8_t space;
  uint8_t cbank;
} KsCubinParam;

/* What the cubin says about one function (KS_SASS_NONE where it does not) */
typedef struct
{
  gboolean entry;               /* STO_CUDA_ENTRY: a kernel, not a device function */
  uint32_t symbol;              /* its symbol's index */
  uint32_t registers;           /* EIATTR_REGCOUNT, else the .text section's sh_info */
  uint32_t barriers;            /* from the .text section's flags */
  uint64_t shared_bytes;        /* .nv.shared.<name>, 0 without one */
  uint64_t constant0_bytes;     /* .nv.constant0.<name>, 0 without one */
  uint32_t param_cbank_offset;  /* EIATTR_PARAM_CBANK: where the parameters start */
  uint32_t param_bytes;         /* EIATTR_CBANK_PARAM_SIZE */
  uint32_t max_stack, min_stack, frame_size;
  uint32_t max_registers;       /* EIATTR_MAXREG_COUNT */
  uint32_t max_threads[3];      /* EIATTR_MAX_THREADS (__launch_bounds__ / .maxntid); 0s if none */
  uint32_t req_threads[3];      /* EIATTR_REQNTID (.reqntid); 0s if none */
  uint32_t text_section;
  uint32_t first_param;         /* range in KsSassCubin.params */
  uint32_t n_params;
} KsCubinFunction;

struct _KsSassCubin
{
  guint abi_version;            /* EI_ABIVERSION: 7 up to CUDA 12, 8 from CUDA 13 */
  guint os_abi;                 /* EI_OSABI: 0x33 with ABI 7, 0x41 with ABI 8 */
  uint32_t e_flags;
  guint toolkit;                /* ABI 7's e_version: the CUDA version (118 = 11.8); 0 if unknown */
  guint arch_number;            /* 86 */
  const char *arch;             /* "sm_86" */
  KsCubinSection *sections;
  uint32_t n_sections;
  KsCubinFunction *functions;   /* parallel to the listing's functions */
  KsCubinParam *params;
  uint32_t n_params;
  KsCubinAttr *attrs;
  uint32_t n_attrs;
  guint8 *attr_bytes;
  char *text;                   /* the listing as text (ks_sass_cubin_text) */
  char *filename;
  char *disassembler;           /* what named the opcodes ("nvdisasm"), or NULL */
  char *note;                   /* why no opcodes, when a disassembler was tried; or NULL */
};

/* Whether data starts with the ELF magic (a cubin, not a text listing) */
gboolean        ks_sass_is_elf           (const guint8        *data,
                                          gsize                len);

/* Reads a cubin.  filename is only used in messages and the text.  sm_70
 * and later (16-byte instructions) and sm_50 to sm_62 (8-byte instructions
 * behind a control word) are read; another architecture, an ELF that is
 * not a CUDA one, or anything out of bounds is an error
 * (KS_SASS_ERROR_ELF) that says which.
 *
 * Returns: (transfer full): a listing with format KS_SASS_FORMAT_CUBIN and
 * cubin set, or NULL with error set */
KsSassListing  *ks_sass_cubin_read       (const guint8        *data,
                                          gsize                len,
                                          const char          *filename,
                                          GError             **error);

/* Names the instructions of a listing read from a cubin with those of
 * disassembly, a listing of the same cubin by nvdisasm or cuobjdump: each
 * of its instructions is matched by function and offset, and its hex words
 * must be the cubin's.  Opcodes, operands, labels and line records are
 * copied; the text and the lines are made again.  On a mismatch nothing is
 * changed and the error names the function and offset.  tool names the
 * disassembler in the text ("nvdisasm"). */
gboolean        ks_sass_cubin_add_disassembly (KsSassListing       *listing,
                                               const KsSassListing *disassembly,
                                               const char          *tool,
                                               GError             **error);

/* Records why there are no mnemonics (in the text's header) */
void            ks_sass_cubin_set_note   (KsSassListing       *listing,
                                          const char          *note);

/* The listing as the SASS pane shows it: a header with the cubin's
 * architecture and each function's resources and parameters, then one line
 * per instruction: its control code, offset, the instruction where a
 * disassembler named it, and its words ("/\* 0xLOW 0xHIGH *\/").  Its line
 * numbers are the instructions' KsSassInsn.line.  (transfer none) */
const char     *ks_sass_cubin_text       (const KsSassListing *listing);

/* An instruction's words as cuobjdump prints them: "0x%016x 0x%016x", low
 * word first (Maxwell: the one word).  buf needs KS_SASS_HEX_TEXT_SIZE. */
#define KS_SASS_HEX_TEXT_SIZE 40
char           *ks_sass_insn_hex         (const KsSassInsn    *insn,
                                          char                *buf);

/* The EIATTR_* name of an attribute number, or NULL when unknown */
const char     *ks_cubin_attr_name       (guint                id);

/* The bytes of an SVAL attribute (transfer none), *len set */
const guint8   *ks_cubin_attr_data       (const KsSassCubin   *cubin,
                                          const KsCubinAttr   *attr,
                                          gsize               *len);

G_END_DECLS
