/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx.h: the PTX front end's intermediate representation.
 *
 * A KsPtxModule is parsed once and is immutable afterwards; it may be read
 * from any thread.  Everything in it is a flat array of plain structs that
 * refer to each other by index, so the simulator can walk it without pointer
 * chasing or string comparisons.  Names are spans into the module's copy of
 * the source text.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define KS_PTX_NONE ((uint32_t) 0xffffffffu)

/* The most bytes of parameters a kernel may take: CUDA 12.1 and later on
 * Volta and later GPUs (4,096 before) */
#define KS_PTX_MAX_KERNEL_PARAM_BYTES 32764u

typedef struct
{
  uint32_t offset;
  uint32_t len;
} KsPtxSpan;

typedef enum
{
#define X(e, s) KS_PTX_OPC_##e,
  KS_PTX_OPC_UNKNOWN = 0,
#include "ks-ptx-opcodes.def"
#undef X
  KS_PTX_N_OPCODES
} KsPtxOpcode;

typedef enum
{
  KS_PTX_TYPE_NONE = 0,
  KS_PTX_TYPE_B8, KS_PTX_TYPE_B16, KS_PTX_TYPE_B32, KS_PTX_TYPE_B64, KS_PTX_TYPE_B128,
  KS_PTX_TYPE_U8, KS_PTX_TYPE_U16, KS_PTX_TYPE_U32, KS_PTX_TYPE_U64,
  KS_PTX_TYPE_S8, KS_PTX_TYPE_S16, KS_PTX_TYPE_S32, KS_PTX_TYPE_S64,
  KS_PTX_TYPE_F16, KS_PTX_TYPE_F16X2, KS_PTX_TYPE_BF16, KS_PTX_TYPE_BF16X2,
  KS_PTX_TYPE_F32, KS_PTX_TYPE_F64, KS_PTX_TYPE_TF32,
  KS_PTX_TYPE_E4M3, KS_PTX_TYPE_E5M2, KS_PTX_TYPE_E4M3X2, KS_PTX_TYPE_E5M2X2,
  KS_PTX_TYPE_E2M1X2, KS_PTX_TYPE_E2M3X2, KS_PTX_TYPE_E3M2X2, KS_PTX_TYPE_UE8M0X2,
  KS_PTX_TYPE_S4, KS_PTX_TYPE_U4, KS_PTX_TYPE_B1,
  KS_PTX_TYPE_PRED,
  /* Opaque handle types of .tex/.surf/.samplerref/.texref variables */
  KS_PTX_TYPE_TEXREF, KS_PTX_TYPE_SAMPLERREF, KS_PTX_TYPE_SURFREF,
  KS_PTX_N_TYPES
} KsPtxType;

typedef enum
{
  KS_PTX_SPACE_NONE = 0,        /* generic addressing / registers */
  KS_PTX_SPACE_REG,
  KS_PTX_SPACE_SREG,
  KS_PTX_SPACE_GLOBAL,
  KS_PTX_SPACE_SHARED,
  KS_PTX_SPACE_SHARED_CLUSTER,
  KS_PTX_SPACE_LOCAL,
  KS_PTX_SPACE_CONST,
  KS_PTX_SPACE_PARAM,
  KS_PTX_SPACE_TEX,
  KS_PTX_SPACE_SURF,
} KsPtxSpace;

typedef enum
{
  KS_PTX_ROUND_NONE = 0,
  KS_PTX_ROUND_RN, KS_PTX_ROUND_RZ, KS_PTX_ROUND_RM, KS_PTX_ROUND_RP,
  KS_PTX_ROUND_RNA, KS_PTX_ROUND_RS,
  KS_PTX_ROUND_RNI, KS_PTX_ROUND_RZI, KS_PTX_ROUND_RMI, KS_PTX_ROUND_RPI,
} KsPtxRound;

typedef enum
{
  KS_PTX_CMP_NONE = 0,
  KS_PTX_CMP_EQ, KS_PTX_CMP_NE, KS_PTX_CMP_LT, KS_PTX_CMP_LE, KS_PTX_CMP_GT, KS_PTX_CMP_GE,
  KS_PTX_CMP_LO, KS_PTX_CMP_LS, KS_PTX_CMP_HI, KS_PTX_CMP_HS,
  KS_PTX_CMP_EQU, KS_PTX_CMP_NEU, KS_PTX_CMP_LTU, KS_PTX_CMP_LEU, KS_PTX_CMP_GTU, KS_PTX_CMP_GEU,
  KS_PTX_CMP_NUM, KS_PTX_CMP_NAN,
} KsPtxCmp;

typedef enum
{
  KS_PTX_OP_NONE = 0,
  KS_PTX_OP_AND, KS_PTX_OP_OR, KS_PTX_OP_XOR, KS_PTX_OP_POPC,
  KS_PTX_OP_ADD, KS_PTX_OP_MIN, KS_PTX_OP_MAX, KS_PTX_OP_INC, KS_PTX_OP_DEC,
  KS_PTX_OP_CAS, KS_PTX_OP_EXCH,
  KS_PTX_OP_ALL, KS_PTX_OP_ANY, KS_PTX_OP_UNI, KS_PTX_OP_BALLOT,
  KS_PTX_OP_UP, KS_PTX_OP_DOWN, KS_PTX_OP_BFLY, KS_PTX_OP_IDX,
  KS_PTX_OP_F4E, KS_PTX_OP_B4E, KS_PTX_OP_RC8, KS_PTX_OP_ECL, KS_PTX_OP_ECR, KS_PTX_OP_RC16,
  KS_PTX_OP_L, KS_PTX_OP_R,
} KsPtxOp;

typedef enum
{
  KS_PTX_VEC_NONE = 0,
  KS_PTX_VEC_V2, KS_PTX_VEC_V4, KS_PTX_VEC_V8,
  KS_PTX_VEC_X1, KS_PTX_VEC_X2, KS_PTX_VEC_X4,
} KsPtxVec;

typedef enum
{
  KS_PTX_CACHE_NONE = 0,
  KS_PTX_CACHE_CA, KS_PTX_CACHE_CG, KS_PTX_CACHE_CS, KS_PTX_CACHE_LU, KS_PTX_CACHE_CV,
  KS_PTX_CACHE_WB, KS_PTX_CACHE_WT,
} KsPtxCache;

typedef enum
{
  KS_PTX_SEM_NONE = 0,
  KS_PTX_SEM_WEAK, KS_PTX_SEM_VOLATILE, KS_PTX_SEM_RELAXED, KS_PTX_SEM_ACQUIRE,
  KS_PTX_SEM_RELEASE, KS_PTX_SEM_ACQ_REL, KS_PTX_SEM_SC,
} KsPtxSem;

typedef enum
{
  KS_PTX_SCOPE_NONE = 0,
  KS_PTX_SCOPE_CTA, KS_PTX_SCOPE_CLUSTER, KS_PTX_SCOPE_GPU, KS_PTX_SCOPE_SYS,
} KsPtxScope;

#define KS_PTX_FLAG_FTZ            (G_GUINT64_CONSTANT (1) << 0)
#define KS_PTX_FLAG_SAT            (G_GUINT64_CONSTANT (1) << 1)
#define KS_PTX_FLAG_SATFINITE      (G_GUINT64_CONSTANT (1) << 2)
#define KS_PTX_FLAG_APPROX         (G_GUINT64_CONSTANT (1) << 3)
#define KS_PTX_FLAG_FULL           (G_GUINT64_CONSTANT (1) << 4)
#define KS_PTX_FLAG_HI             (G_GUINT64_CONSTANT (1) << 5)
#define KS_PTX_FLAG_LO             (G_GUINT64_CONSTANT (1) << 6)
#define KS_PTX_FLAG_WIDE           (G_GUINT64_CONSTANT (1) << 7)
#define KS_PTX_FLAG_CC             (G_GUINT64_CONSTANT (1) << 8)
#define KS_PTX_FLAG_SYNC           (G_GUINT64_CONSTANT (1) << 9)
#define KS_PTX_FLAG_ALIGNED        (G_GUINT64_CONSTANT (1) << 10)
#define KS_PTX_FLAG_NC             (G_GUINT64_CONSTANT (1) << 11)
#define KS_PTX_FLAG_RELU           (G_GUINT64_CONSTANT (1) << 12)
#define KS_PTX_FLAG_NAN            (G_GUINT64_CONSTANT (1) << 13)
#define KS_PTX_FLAG_XORSIGN        (G_GUINT64_CONSTANT (1) << 14)
#define KS_PTX_FLAG_ABS            (G_GUINT64_CONSTANT (1) << 15)
#define KS_PTX_FLAG_TO             (G_GUINT64_CONSTANT (1) << 16)
#define KS_PTX_FLAG_SHIFTAMT       (G_GUINT64_CONSTANT (1) << 17)
#define KS_PTX_FLAG_CLAMP          (G_GUINT64_CONSTANT (1) << 18)
#define KS_PTX_FLAG_WRAP           (G_GUINT64_CONSTANT (1) << 19)
#define KS_PTX_FLAG_ARRIVE         (G_GUINT64_CONSTANT (1) << 20)
#define KS_PTX_FLAG_RED            (G_GUINT64_CONSTANT (1) << 21)
#define KS_PTX_FLAG_WARP           (G_GUINT64_CONSTANT (1) << 22)
#define KS_PTX_FLAG_ASYNC          (G_GUINT64_CONSTANT (1) << 23)
#define KS_PTX_FLAG_BULK           (G_GUINT64_CONSTANT (1) << 24)
#define KS_PTX_FLAG_COMMIT_GROUP   (G_GUINT64_CONSTANT (1) << 25)
#define KS_PTX_FLAG_WAIT_GROUP     (G_GUINT64_CONSTANT (1) << 26)
#define KS_PTX_FLAG_WAIT_ALL       (G_GUINT64_CONSTANT (1) << 27)
#define KS_PTX_FLAG_TRANS          (G_GUINT64_CONSTANT (1) << 28)
#define KS_PTX_FLAG_OOB            (G_GUINT64_CONSTANT (1) << 29)
#define KS_PTX_FLAG_NOFTZ          (G_GUINT64_CONSTANT (1) << 30)
#define KS_PTX_FLAG_MMIO           (G_GUINT64_CONSTANT (1) << 31)
#define KS_PTX_FLAG_LOAD           (G_GUINT64_CONSTANT (1) << 32)
#define KS_PTX_FLAG_STORE          (G_GUINT64_CONSTANT (1) << 33)
#define KS_PTX_FLAG_MMA            (G_GUINT64_CONSTANT (1) << 34)
#define KS_PTX_FLAG_ROW            (G_GUINT64_CONSTANT (1) << 35)
#define KS_PTX_FLAG_COL            (G_GUINT64_CONSTANT (1) << 36)
#define KS_PTX_FLAG_PACK           (G_GUINT64_CONSTANT (1) << 37)
#define KS_PTX_FLAG_FINITE         (G_GUINT64_CONSTANT (1) << 38)
#define KS_PTX_FLAG_INFINITE       (G_GUINT64_CONSTANT (1) << 39)
#define KS_PTX_FLAG_NUMBER         (G_GUINT64_CONSTANT (1) << 40)
#define KS_PTX_FLAG_NOTANUMBER     (G_GUINT64_CONSTANT (1) << 41)
#define KS_PTX_FLAG_NORMAL         (G_GUINT64_CONSTANT (1) << 42)
#define KS_PTX_FLAG_SUBNORMAL      (G_GUINT64_CONSTANT (1) << 43)
#define KS_PTX_FLAG_INIT           (G_GUINT64_CONSTANT (1) << 44)
#define KS_PTX_FLAG_INVAL          (G_GUINT64_CONSTANT (1) << 45)
#define KS_PTX_FLAG_TEST_WAIT      (G_GUINT64_CONSTANT (1) << 46)
#define KS_PTX_FLAG_TRY_WAIT       (G_GUINT64_CONSTANT (1) << 47)
#define KS_PTX_FLAG_EXPECT_TX      (G_GUINT64_CONSTANT (1) << 48)
#define KS_PTX_FLAG_NOINC          (G_GUINT64_CONSTANT (1) << 49)
#define KS_PTX_FLAG_PROXY          (G_GUINT64_CONSTANT (1) << 50)
#define KS_PTX_FLAG_ANY_SYNC       (G_GUINT64_CONSTANT (1) << 51)
#define KS_PTX_FLAG_ARRIVE_DROP    (G_GUINT64_CONSTANT (1) << 52)
#define KS_PTX_FLAG_COMPLETE_TX    (G_GUINT64_CONSTANT (1) << 53)
#define KS_PTX_FLAG_PARITY         (G_GUINT64_CONSTANT (1) << 54)
#define KS_PTX_FLAG_PENDING_COUNT  (G_GUINT64_CONSTANT (1) << 55)
#define KS_PTX_FLAG_NOCOMPLETE     (G_GUINT64_CONSTANT (1) << 56)
#define KS_PTX_FLAG_MBARRIER       (G_GUINT64_CONSTANT (1) << 57)   /* cp.async.mbarrier.arrive */
/* .mbarrier::complete_tx::bytes */
#define KS_PTX_FLAG_MBAR_COMPLETE_TX (G_GUINT64_CONSTANT (1) << 58)
#define KS_PTX_FLAG_BULK_GROUP     (G_GUINT64_CONSTANT (1) << 59)
#define KS_PTX_FLAG_REDUCE         (G_GUINT64_CONSTANT (1) << 60)   /* cp.reduce.async.bulk */
/* Set by the parser: the instruction has modifiers it did not decode
 * (kept verbatim in its KsPtxExtra). */
#define KS_PTX_FLAG_UNDECODED      (G_GUINT64_CONSTANT (1) << 63)

/* Special registers */
typedef enum
{
  KS_PTX_SREG_NONE = 0,
  KS_PTX_SREG_TID, KS_PTX_SREG_NTID, KS_PTX_SREG_CTAID, KS_PTX_SREG_NCTAID,
  KS_PTX_SREG_LANEID, KS_PTX_SREG_WARPID, KS_PTX_SREG_NWARPID,
  KS_PTX_SREG_SMID, KS_PTX_SREG_NSMID, KS_PTX_SREG_GRIDID,
  KS_PTX_SREG_CLOCK, KS_PTX_SREG_CLOCK_HI, KS_PTX_SREG_CLOCK64, KS_PTX_SREG_GLOBALTIMER,
  KS_PTX_SREG_GLOBALTIMER_LO, KS_PTX_SREG_GLOBALTIMER_HI,
  KS_PTX_SREG_LANEMASK_EQ, KS_PTX_SREG_LANEMASK_LT, KS_PTX_SREG_LANEMASK_LE,
  KS_PTX_SREG_LANEMASK_GT, KS_PTX_SREG_LANEMASK_GE,
  KS_PTX_SREG_DYNAMIC_SMEM_SIZE, KS_PTX_SREG_TOTAL_SMEM_SIZE, KS_PTX_SREG_AGGR_SMEM_SIZE,
  KS_PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN, KS_PTX_SREG_RESERVED_SMEM_OFFSET_END,
  KS_PTX_SREG_RESERVED_SMEM_OFFSET_CAP, KS_PTX_SREG_RESERVED_SMEM_OFFSET_0,
  KS_PTX_SREG_RESERVED_SMEM_OFFSET_1,
  KS_PTX_SREG_CLUSTERID, KS_PTX_SREG_NCLUSTERID, KS_PTX_SREG_CLUSTER_CTAID,
  KS_PTX_SREG_CLUSTER_NCTAID, KS_PTX_SREG_CLUSTER_CTARANK, KS_PTX_SREG_CLUSTER_NCTARANK,
  KS_PTX_SREG_IS_EXPLICIT_CLUSTER,
  KS_PTX_SREG_ENVREG,           /* index in operand.b */
  KS_PTX_SREG_PM,               /* %pm0..7, index in operand.b */
  KS_PTX_SREG_PM64,             /* %pm0_64..7_64 */
  KS_PTX_SREG_CURRENT_GRAPH_EXEC,
  KS_PTX_N_SREGS
} KsPtxSreg;

typedef enum
{
  KS_PTX_OPERAND_NONE = 0,
  KS_PTX_OPERAND_REG,           /* a = register slot; aux = component (0-3) or KS_PTX_NO_COMPONENT;
                                 * b = KS_PTX_SEL_* */
  KS_PTX_OPERAND_PRED,          /* a = predicate slot; flags may hold NOT */
  KS_PTX_OPERAND_SREG,          /* a = KsPtxSreg; aux = component; b = index (envreg, pm) */
  KS_PTX_OPERAND_IMM_INT,       /* a | (uint64) b << 32: the integer's 64 bits */
  KS_PTX_OPERAND_IMM_F32,       /* a = IEEE single bits (0f literal) */
  KS_PTX_OPERAND_IMM_F64,       /* a | (uint64) b << 32: IEEE double bits (0d or decimal literal) */
  KS_PTX_OPERAND_ADDRESS,       /* [base + offset]: aux = KsPtxAddressBase; a = base; b = offset */
  KS_PTX_OPERAND_VAR,           /* a = variable index (module.vars) */
  KS_PTX_OPERAND_FUNC,          /* a = function index */
  KS_PTX_OPERAND_LABEL,         /* a = instruction index within its function; a label after the
                                 * last instruction gives n_insns, the function's end */
  KS_PTX_OPERAND_TARGETS,       /* a = target list index (.branchtargets/.calltargets) */
  KS_PTX_OPERAND_VECTOR,        /* { ... }: a = first element operand; aux = count */
  KS_PTX_OPERAND_LIST,          /* ( ... ) or [a, b, ...]: a = first element; aux = count */
  KS_PTX_OPERAND_SINK,          /* _ */
  KS_PTX_OPERAND_NAME,          /* an unresolved name (only in modules with errors): a = offset, b = len */
} KsPtxOperandKind;

typedef enum
{
  KS_PTX_ADDRESS_REG = 0,       /* a = register slot */
  KS_PTX_ADDRESS_VAR,           /* a = variable index */
  KS_PTX_ADDRESS_FUNC,          /* a = function index (an address of a function) */
  KS_PTX_ADDRESS_IMM,           /* absolute: the address is the offset */
  KS_PTX_ADDRESS_NAME,          /* unresolved (modules with errors): a = name offset */
} KsPtxAddressBase;

#define KS_PTX_NO_COMPONENT 0xffffu

/* A REG operand's b: a video instruction's part selector (r1.b2, r2.h1),
 * or a selector of several digits (the SIMD forms' r1.b3210, r2.h10, the
 * masks d.b20, d.h10): KS_PTX_SEL_BYTES or KS_PTX_SEL_HALVES, the number
 * of digits and the digits, the last one written in bits 0-2, the one
 * before it in bits 3-5 and so on.  A single digit that is not one of
 * .b0-.b3, .h0, .h1 (.b7, .h3) is written that way too, with one digit. */
enum
{
  KS_PTX_SEL_NONE = 0,
  KS_PTX_SEL_B0, KS_PTX_SEL_B1, KS_PTX_SEL_B2, KS_PTX_SEL_B3,
  KS_PTX_SEL_H0, KS_PTX_SEL_H1,
};

#define KS_PTX_SEL_BYTES            0x10000u
#define KS_PTX_SEL_HALVES           0x20000u
#define KS_PTX_SEL_N_DIGITS(sel)    (((sel) >> 12) & 7u)
#define KS_PTX_SEL_DIGIT(sel, i)    (((sel) >> (3 * (i))) & 7u)   /* i = 0: the last written */

/* KsPtxOperand.flags */
#define KS_PTX_OPERAND_NOT          0x01u   /* !p */
#define KS_PTX_OPERAND_PIPE         0x02u   /* VECTOR: p|q of setp */
#define KS_PTX_OPERAND_BIG_OFFSET   0x04u   /* ADDRESS: b indexes module.imm64 */
#define KS_PTX_OPERAND_NEGATED      0x08u   /* -x on a register */
#define KS_PTX_OPERAND_BRACKETS     0x10u   /* LIST written in [ ] (texture/surface operands) */

typedef struct
{
  uint8_t kind;                 /* KsPtxOperandKind */
  uint8_t flags;
  uint16_t aux;
  uint32_t a;
  uint32_t b;
} KsPtxOperand;

typedef struct
{
  uint16_t opcode;              /* KsPtxOpcode */
  uint8_t n_operands;
  uint8_t space;                /* KsPtxSpace */
  uint8_t types[4];             /* KsPtxType, in the order written; unused are NONE */
  uint8_t round;                /* KsPtxRound */
  uint8_t cmp;                  /* KsPtxCmp */
  uint8_t op;                   /* KsPtxOp */
  uint8_t vec;                  /* KsPtxVec */
  uint8_t cache;                /* KsPtxCache */
  uint8_t sem;                  /* KsPtxSem */
  uint8_t scope;                /* KsPtxScope */
  uint8_t pred_not;             /* 1 for @!p */
  uint32_t pred;                /* predicate slot, or KS_PTX_NONE */
  uint32_t first_operand;       /* into module.operands */
  uint32_t line;                /* 1-based PTX line */
  uint32_t loc;                 /* into module.locs, 0 = no source location */
  uint32_t extra;               /* into module.extras, 0 = none */
  uint32_t reserved;
  uint64_t flags;               /* KS_PTX_FLAG_* */
} KsPtxInsn;

/* Rarely needed details of an instruction, kept out of KsPtxInsn */
typedef struct
{
  KsPtxSpan opcode_name;        /* as written, without modifiers (for unknown opcodes) */
  uint16_t shape_m, shape_n, shape_k;   /* .m16n8k16 and the like */
  uint16_t n_words;             /* modifiers not decoded, kept verbatim */
  uint32_t first_word;          /* into module.words */
} KsPtxExtra;

typedef enum
{
  KS_PTX_LINKAGE_NONE = 0,
  KS_PTX_LINKAGE_VISIBLE,
  KS_PTX_LINKAGE_EXTERN,
  KS_PTX_LINKAGE_WEAK,
  KS_PTX_LINKAGE_COMMON,
} KsPtxLinkage;

/* KsPtxVar.flags */
#define KS_PTX_VAR_UNSIZED      0x01u   /* name[] */
#define KS_PTX_VAR_PTR          0x02u   /* .param .ptr */
#define KS_PTX_VAR_PARAM        0x04u   /* a parameter of its function */
#define KS_PTX_VAR_RETURN       0x08u   /* a return parameter of its function */
#define KS_PTX_VAR_REG_PARAM    0x10u   /* a .reg parameter of a .func */
#define KS_PTX_VAR_MANAGED      0x20u   /* .attribute(.managed): __managed__ */
#define KS_PTX_VAR_UNIFIED      0x40u   /* .attribute(.unified(uuid1, uuid2)) */

typedef struct
{
  KsPtxSpan name;
  uint8_t space;                /* KsPtxSpace */
  uint8_t type;                 /* KsPtxType */
  uint8_t vec;                  /* 1, 2, 4 or 8 elements */
  uint8_t linkage;              /* KsPtxLinkage */
  uint32_t flags;               /* KS_PTX_VAR_* */
  uint32_t align;               /* bytes; 0 when not given */
  uint32_t function;            /* owning function, or KS_PTX_NONE at module scope */
  uint64_t n_elements;          /* product of the array dimensions; 1 for a scalar */
  uint32_t dims[4];             /* array dimensions as written (0 = unused or unsized) */
  uint32_t n_dims;
  uint32_t first_init, n_init;  /* into module.inits */
  uint8_t ptr_space;            /* .param .ptr .global: the pointee space */
  uint32_t ptr_align;
  uint32_t line;
} KsPtxVar;

typedef enum
{
  KS_PTX_INIT_INT = 0,          /* value */
  KS_PTX_INIT_F32,              /* value = IEEE single bits */
  KS_PTX_INIT_F64,              /* value = IEEE double bits */
  KS_PTX_INIT_VAR,              /* address of var `index` + value */
  KS_PTX_INIT_FUNC,             /* address of function `index` + value */
  KS_PTX_INIT_GENERIC_VAR,      /* generic(var) + value */
  KS_PTX_INIT_NAME,             /* unresolved name (modules with errors) */
  KS_PTX_INIT_FIELD,            /* a sampler field `name = value`: index = name offset,
                                 * value = name length; the value follows as an INT or a WORD */
  KS_PTX_INIT_WORD,             /* a word such as clamp_to_edge: index = offset, value = length */
} KsPtxInitKind;

typedef struct
{
  uint32_t kind;                /* KsPtxInitKind */
  uint32_t index;
  uint64_t value;
} KsPtxInit;

typedef struct
{
  KsPtxSpan name;               /* the name, or the prefix of a %name<N> range */
  uint8_t type;                 /* KsPtxType */
  uint8_t vec;                  /* 1, 2, 4 */
  uint16_t reserved;
  uint32_t count;               /* registers declared: N for name<N>, else 1 */
  uint32_t first_slot;          /* predicate slots for .pred, register slots otherwise */
  uint32_t line;
} KsPtxRegDecl;

typedef struct
{
  uint32_t first_insn, n_insns; /* instruction indices within the function */
  uint32_t first_succ, n_succs; /* into module.edges; block indices within the function */
  uint32_t first_pred, n_preds; /* into module.edges */
  uint32_t ipdom;               /* immediate post-dominator, or KS_PTX_NONE (the exit) */
  uint32_t first_line, last_line;
} KsPtxBlock;

typedef enum
{
  KS_PTX_FUNCTION_ENTRY = 0,    /* .entry: a kernel */
  KS_PTX_FUNCTION_FUNC,         /* .func */
  KS_PTX_FUNCTION_PROTOTYPE,    /* .callprototype */
} KsPtxFunctionKind;

/* KsPtxFunction.flags */
#define KS_PTX_FUNCTION_HAS_BODY        0x01u
#define KS_PTX_FUNCTION_NORETURN        0x02u
#define KS_PTX_FUNCTION_EXPLICITCLUSTER 0x04u
#define KS_PTX_FUNCTION_DECLARED        0x08u   /* also declared without a body */

typedef struct
{
  KsPtxSpan name;
  uint8_t kind;                 /* KsPtxFunctionKind */
  uint8_t linkage;              /* KsPtxLinkage */
  uint16_t flags;               /* KS_PTX_FUNCTION_* */
  uint32_t first_param, n_params;       /* into module.vars */
  uint32_t first_ret, n_rets;           /* into module.vars */
  uint32_t first_insn, n_insns;         /* into module.insns */
  uint32_t first_block, n_blocks;       /* into module.blocks */
  uint32_t first_reg_decl, n_reg_decls; /* into module.reg_decls */
  uint32_t first_slot_type;             /* into module.slot_types: the type of each register slot */
  uint32_t n_reg_slots, n_pred_slots;
  uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];        /* 0 = not given */
  uint32_t minnctapersm, maxnreg, maxclusterrank;
  uint32_t first_pragma, n_pragmas;     /* into module.words: the strings of .pragma */
  uint32_t line, end_line;
  KsPtxSpan definition;         /* the definition's text, from its first directive (a linkage,
                                 * .entry or .func) to its closing '}'; empty without a body */
  KsPtxSpan declaration;        /* the text of its declaration without a body (DECLARED), to its
                                 * ';'; empty when it has several, or one without ';' */
} KsPtxFunction;

typedef struct
{
  uint32_t file;                /* .file number */
  uint32_t line;                /* 0 = no line (compiler-generated code) */
  uint32_t column;
  uint32_t inlined_at;          /* loc index of the call site, or 0 */
  KsPtxSpan function_name;      /* function_name label, when given */
} KsPtxLoc;

typedef struct
{
  uint32_t number;
  KsPtxSpan path;               /* without the quotes */
  uint64_t timestamp, size;
  uint32_t line;
} KsPtxFile;

/* A .branchtargets or .calltargets list */
typedef struct
{
  KsPtxSpan name;
  uint32_t function;            /* where it was declared */
  uint32_t is_calltargets;      /* entries are function indices, else instruction indices */
  uint32_t first, n;            /* into module.target_entries */
} KsPtxTargetList;

typedef enum
{
  KS_PTX_SEVERITY_ERROR = 0,
  KS_PTX_SEVERITY_WARNING,
  KS_PTX_SEVERITY_NOTE,
} KsPtxSeverity;

typedef struct
{
  uint32_t line, column;        /* 1-based */
  uint32_t severity;            /* KsPtxSeverity */
  char *message;
} KsPtxDiagnostic;

/* A PTX line whose code comes from a CUDA line */
typedef struct
{
  uint32_t ptx_line;
  uint32_t depth;               /* 0 = where the code is written; 1.. = call sites it is inlined into */
} KsPtxSourceLink;

typedef struct
{
  char *filename;               /* for messages */
  GBytes *source;
  const char *text;
  size_t text_len;

  uint32_t version_major, version_minor;
  uint32_t address_size;        /* 32 or 64; 64 when not given */
  uint32_t first_target, n_targets;     /* into words: .target entries */

#define KS_PTX_ARRAY(T, n) T *n; uint32_t n_##n
  KS_PTX_ARRAY (KsPtxFunction, functions);
  KS_PTX_ARRAY (KsPtxVar, vars);
  KS_PTX_ARRAY (KsPtxInsn, insns);
  KS_PTX_ARRAY (KsPtxOperand, operands);
  KS_PTX_ARRAY (int64_t, imm64);
  KS_PTX_ARRAY (KsPtxInit, inits);
  KS_PTX_ARRAY (KsPtxRegDecl, reg_decls);
  KS_PTX_ARRAY (uint8_t, slot_types);
  KS_PTX_ARRAY (KsPtxBlock, blocks);
  KS_PTX_ARRAY (uint32_t, edges);
  KS_PTX_ARRAY (KsPtxLoc, locs);
  KS_PTX_ARRAY (KsPtxFile, files);
  KS_PTX_ARRAY (KsPtxExtra, extras);
  KS_PTX_ARRAY (KsPtxSpan, words);
  KS_PTX_ARRAY (KsPtxTargetList, target_lists);
  KS_PTX_ARRAY (uint32_t, target_entries);
  KS_PTX_ARRAY (KsPtxDiagnostic, diagnostics);
#undef KS_PTX_ARRAY

  uint32_t n_errors, n_warnings;
  uint32_t n_lines;
  uint32_t n_sections;          /* DWARF .section other than .debug_str, skipped */
  uint32_t n_aliases;           /* .alias, skipped */
} KsPtxModule;

/* Parses PTX text.  Never fails: problems are in the module's diagnostics.
 * The module keeps a reference to source (its names point into it). */
KsPtxModule   *ks_ptx_module_parse            (GBytes       *source,
                                               const char   *filename);
KsPtxModule   *ks_ptx_module_parse_file       (const char   *path,
                                               GError      **error);
void           ks_ptx_module_free             (KsPtxModule  *module);
gboolean       ks_ptx_module_has_errors       (const KsPtxModule *module);

const KsPtxFunction *ks_ptx_module_find_function (const KsPtxModule *module,
                                                  const char        *name);
uint32_t       ks_ptx_module_n_entries        (const KsPtxModule *module);
/* For each of @function's parameters (@out has n_params entries), the
 * element type of the global memory its value addresses, as the loads and
 * stores through it have it (ks-ptx-pointees.c); KS_PTX_TYPE_NONE for a
 * parameter not used as such a pointer, or whose accesses disagree on the
 * element's size.  Raw bits (.b32) read as unsigned. */
void           ks_ptx_param_pointee_types     (const KsPtxModule   *module,
                                               const KsPtxFunction *function,
                                               KsPtxType           *out);
uint32_t       ks_ptx_module_target_sm        (const KsPtxModule *module);

char          *ks_ptx_span_dup                (const KsPtxModule *module,
                                               KsPtxSpan          span);
gboolean       ks_ptx_span_equal              (const KsPtxModule *module,
                                               KsPtxSpan          span,
                                               const char        *str);

const KsPtxFile *ks_ptx_module_find_file      (const KsPtxModule *module,
                                               uint32_t           number);
/* The first instruction on PTX line @line (1-based), or -1: a binary
 * search, since the module lists its instructions in the order of their
 * lines */
int64_t        ks_ptx_module_insn_at_line     (const KsPtxModule *module,
                                               uint32_t           line);
/* The CUDA line an instruction belongs to for its user: the innermost
 * location of its inlined_at chain, unless that is in another file than
 * the one the chain ends in (the file its function is written in, the
 * kernel's .cu): then the first location in that file, walking outward.
 * A `tex` inlined from texture_indirect_functions.h at line 30 of the
 * kernel is line 30; a helper of the kernel's own file inlined into it
 * keeps the helper's line.  Returns FALSE when the instruction has no
 * location (or the compiler's line 0). */
gboolean       ks_ptx_insn_source             (const KsPtxModule *module,
                                               const KsPtxInsn   *insn,
                                               uint32_t          *file,
                                               uint32_t          *line);
/* The .file number most instructions come from (ks_ptx_insn_source; the
 * lowest number on a tie): the kernel's own .cu, not a header inlined into
 * it; 0 when no instruction has a location */
uint32_t       ks_ptx_module_main_file        (const KsPtxModule *module);
/* The first location of an instruction's inlined_at chain, walking out
 * from the innermost, that is in .file `file`: its line there. */
gboolean       ks_ptx_insn_source_in_file     (const KsPtxModule *module,
                                               const KsPtxInsn   *insn,
                                               uint32_t           file,
                                               uint32_t          *line);
/* PTX lines whose code comes from CUDA file:line, directly (depth 0) or
 * through inlining (depth > 0), in PTX line order: (transfer full), an array
 * of KsPtxSourceLink. */
GArray        *ks_ptx_module_links_for_source (const KsPtxModule *module,
                                               uint32_t           file,
                                               uint32_t           line);

/* The text of PTX line `line`, without surrounding blanks and with tabs
 * as spaces (for titles and tooltips).  (transfer full) */
char          *ks_ptx_module_line_text        (const KsPtxModule *module,
                                               uint32_t           line);

/* What a launch of one function may run and name: that function, the
 * functions it names (direct calls, addresses it takes, .calltargets
 * lists) and theirs, and the variables their instructions name.  With
 * KS_PTX_REACH_INITIALIZERS the functions that variables' initializers
 * name (tables of function pointers) are reached too.  A call that names
 * no function (through a register) sets `indirect`: it may call any
 * function whose address was taken, here or by another launch. */
typedef struct
{
  uint8_t *functions;           /* per function: 1 when reached */
  uint8_t *vars;                /* per variable: 1 when a reached instruction names it */
  gboolean indirect;
} KsPtxReach;

#define KS_PTX_REACH_INITIALIZERS 0x1u

void           ks_ptx_module_reach            (const KsPtxModule *module,
                                               uint32_t           root,
                                               guint              flags,
                                               KsPtxReach        *reach);
void           ks_ptx_reach_clear             (KsPtxReach        *reach);

/* The module's text with the definitions of the functions that a launch
 * of `root` cannot reach (ks_ptx_module_reach, with initializers)
 * emptied: their lines stay, blank, so every other line keeps its number
 * and column.  ptxas then assembles one kernel of a module of thousands,
 * and reports it as it would in the whole module.  A function left out
 * loses its declaration too (ptxas wants every declared function
 * defined).  Returns NULL, with len 0, when there is nothing to leave out
 * or the module cannot be cut safely: errors; DWARF sections other than
 * .debug_str, or .alias directives (they name functions from outside
 * them); a call through a register (ptxas lays out the call targets of
 * all the kernels together); a function declared twice.  (transfer full) */
char          *ks_ptx_module_text_for_function (const KsPtxModule *module,
                                                uint32_t           root,
                                                gsize             *len,
                                                uint32_t          *n_blanked);

/* The register and predicate slots an instruction reads and writes (the
 * slots of its function), for dependence and liveness.  Predicates are
 * KS_PTX_REF_PRED | slot.  The guard predicate is a use.  Stores, atomics
 * without a destination, branches and barriers write nothing; a register
 * in an address is a use. */
#define KS_PTX_REF_PRED   0x80000000u
#define KS_PTX_MAX_REFS   48
typedef struct
{
  uint32_t n_defs, n_uses;
  uint32_t defs[KS_PTX_MAX_REFS];
  uint32_t uses[KS_PTX_MAX_REFS];
} KsPtxRegRefs;

void           ks_ptx_insn_reg_refs           (const KsPtxModule *module,
                                               const KsPtxInsn   *insn,
                                               KsPtxRegRefs      *refs);

const char    *ks_ptx_opcode_name             (KsPtxOpcode   opcode);
const char    *ks_ptx_type_name               (KsPtxType     type);
uint32_t       ks_ptx_type_size               (KsPtxType     type);
/* f16, f16x2, bf16, bf16x2, tf32, f32, f64 */
gboolean       ks_ptx_type_is_float           (KsPtxType     type);
KsPtxType      ks_ptx_type_from_name          (const char   *name,
                                               size_t        len);
const char    *ks_ptx_space_name              (KsPtxSpace    space);
const char    *ks_ptx_sreg_name               (KsPtxSreg     sreg);
/* %clock, %clock_hi, %clock64, %globaltimer and its _lo and _hi halves:
 * the registers whose value is the time read (PTX ISA, "Special
 * Registers") */
gboolean       ks_ptx_sreg_is_timer           (KsPtxSreg     sreg);

static inline uint64_t
ks_ptx_operand_u64 (const KsPtxOperand *op)
{
  return (uint64_t) op->a | ((uint64_t) op->b << 32);
}

static inline int64_t
ks_ptx_operand_offset (const KsPtxModule *module, const KsPtxOperand *op)
{
  if (op->flags & KS_PTX_OPERAND_BIG_OFFSET)
    return module->imm64[op->b];
  return (int64_t) (int32_t) op->b;
}

static inline const KsPtxInsn *
ks_ptx_function_insns (const KsPtxModule *module, const KsPtxFunction *fn)
{
  return module->insns + fn->first_insn;
}

static inline const KsPtxOperand *
ks_ptx_insn_operands (const KsPtxModule *module, const KsPtxInsn *insn)
{
  return module->operands + insn->first_operand;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsPtxModule, ks_ptx_module_free)

G_END_DECLS
