/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-opcodes.c: SASS opcodes of sm_70 to sm_120 -> the timing model's
 * pipes, and one-line descriptions for hover documentation.
 *
 * The opcode names are those of NVIDIA's "CUDA Binary Utilities" instruction
 * set reference (Volta to Blackwell tables); the descriptions are written for
 * this project.  The pipe follows what ks-timing.c does for the PTX that
 * becomes the instruction, so that PTX and SASS colour the same: integer
 * multiply-add on INT, S2R and conversions on the SFU/XU path, uniform
 * datapath instructions on INT, shared/global/constant/texture traffic on MEM.
 */

#include <stdlib.h>
#include <string.h>

#include "ks-sass.h"
#include "ks-timing.h"

typedef struct
{
  const char *opcode;
  uint8_t pipe;
  const char *description;
} OpcodeInfo;

/* Sorted by opcode (strcmp) for bsearch; a test checks the order. */
static const OpcodeInfo opcodes[] = {
  { "ATOM", KS_PIPE_MEM, "Atomic operation on generic memory" },
  { "ATOMG", KS_PIPE_MEM, "Atomic operation on global memory" },
  { "ATOMS", KS_PIPE_MEM, "Atomic operation on shared memory" },
  { "B2R", KS_PIPE_CTRL, "Move a barrier's state to a register" },
  { "BAR", KS_PIPE_CTRL, "Block-wide barrier (__syncthreads)" },
  { "BGMMA", KS_PIPE_TENSOR,
    "Hopper: warpgroup binary (1-bit) matrix multiply-accumulate (wgmma)" },
  { "BMMA", KS_PIPE_TENSOR, "Binary (1-bit) matrix multiply-accumulate on the tensor cores" },
  { "BMOV", KS_PIPE_CTRL, "Move a convergence barrier's state" },
  { "BMSK", KS_PIPE_INT, "Make a bit mask of a given width and position" },
  { "BPT", KS_PIPE_CTRL, "Breakpoint or trap" },
  { "BRA", KS_PIPE_CTRL, "Relative branch" },
  { "BREAK", KS_PIPE_CTRL, "Take threads out of a convergence barrier (loop break)" },
  { "BREV", KS_PIPE_INT, "Reverse the bits of a register" },
  { "BRK", KS_PIPE_CTRL, "Maxwell/Pascal: break out of a loop set up by PBK" },
  { "BRX", KS_PIPE_CTRL, "Indirect relative branch" },
  { "BRXU", KS_PIPE_CTRL, "Indirect branch to an address held in a uniform register" },
  { "BSSY", KS_PIPE_CTRL, "Set up a convergence barrier before divergent code" },
  { "BSYNC", KS_PIPE_CTRL, "Wait for the threads of a convergence barrier to reconverge" },
  { "CAL", KS_PIPE_CTRL, "Maxwell/Pascal: relative call" },
  { "CALL", KS_PIPE_CTRL, "Call a function" },
  { "CCTL", KS_PIPE_MEM, "Cache control (invalidate or write back lines)" },
  { "CGAERRBAR", KS_PIPE_CTRL,
    "Hopper and later: wait until the cluster's outstanding errors are reported" },
  { "CONT", KS_PIPE_CTRL, "Maxwell/Pascal: continue a loop set up by PCNT" },
  { "CS2R", KS_PIPE_INT, "Read a special register quickly (clock, zero)" },
  { "DADD", KS_PIPE_FP64, "Double-precision add" },
  { "DEPBAR", KS_PIPE_CTRL, "Wait until few enough operations of a scoreboard remain" },
  { "DFMA", KS_PIPE_FP64, "Double-precision fused multiply-add" },
  { "DMMA", KS_PIPE_TENSOR, "Double-precision matrix multiply-accumulate on the tensor cores" },
  { "DMNMX", KS_PIPE_FP64, "Double-precision minimum or maximum" },
  { "DMUL", KS_PIPE_FP64, "Double-precision multiply" },
  { "DSETP", KS_PIPE_FP64, "Compare doubles and set a predicate" },
  { "ELECT", KS_PIPE_SHFL, "Elect one leader thread of the warp" },
  { "ERRBAR", KS_PIPE_CTRL, "Error barrier: wait for outstanding errors to be reported" },
  { "EXIT", KS_PIPE_CTRL, "End the thread" },
  { "F2F", KS_PIPE_SFU, "Convert between floating-point formats" },
  { "F2FP", KS_PIPE_FP32, "Convert and pack two floats into half or bfloat16 pairs" },
  { "F2I", KS_PIPE_SFU, "Convert floating point to integer" },
  { "FADD", KS_PIPE_FP32, "Single-precision add" },
  { "FADD2", KS_PIPE_FP32, "Blackwell: two single-precision adds at once (a register pair)" },
  { "FCHK", KS_PIPE_FP32, "Check whether a division needs the slow path" },
  { "FENCE", KS_PIPE_MEM, "Order memory accesses between proxies (generic, asynchronous, tensor)" },
  { "FFMA", KS_PIPE_FP32, "Single-precision fused multiply-add" },
  { "FFMA2", KS_PIPE_FP32,
    "Blackwell: two single-precision fused multiply-adds at once (a register pair)" },
  { "FLO", KS_PIPE_INT, "Find the leading one bit" },
  { "FMNMX", KS_PIPE_FP32, "Single-precision minimum or maximum" },
  { "FMUL", KS_PIPE_FP32, "Single-precision multiply" },
  { "FMUL2", KS_PIPE_FP32, "Blackwell: two single-precision multiplies at once (a register pair)" },
  { "FRND", KS_PIPE_SFU, "Round a float to an integral value" },
  { "FSEL", KS_PIPE_FP32, "Select one of two floats by a predicate" },
  { "FSET", KS_PIPE_FP32, "Compare floats and set a register" },
  { "FSETP", KS_PIPE_FP32, "Compare floats and set a predicate" },
  { "FSWZADD", KS_PIPE_FP32, "Add floats with a swizzle across the quad" },
  { "HADD2", KS_PIPE_FP32, "Add two pairs of halves" },
  { "HFMA2", KS_PIPE_FP32, "Fused multiply-add on two pairs of halves (also used to move constants)" },
  { "HGMMA", KS_PIPE_TENSOR,
    "Hopper: warpgroup half/bfloat16/tf32 matrix multiply-accumulate (wgmma)" },
  { "HMMA", KS_PIPE_TENSOR, "Half-precision matrix multiply-accumulate on the tensor cores" },
  { "HMNMX2", KS_PIPE_FP32, "Minimum or maximum of two pairs of halves" },
  { "HMUL2", KS_PIPE_FP32, "Multiply two pairs of halves" },
  { "HSET2", KS_PIPE_FP32, "Compare two pairs of halves and set a register" },
  { "HSETP2", KS_PIPE_FP32, "Compare two pairs of halves and set predicates" },
  { "I2F", KS_PIPE_SFU, "Convert integer to floating point" },
  { "I2FP", KS_PIPE_FP32, "Convert a 32-bit integer to a float on the FMA pipe" },
  { "I2I", KS_PIPE_INT, "Convert between integer sizes, saturating" },
  { "IABS", KS_PIPE_INT, "Integer absolute value" },
  { "IADD", KS_PIPE_INT, "Integer add" },
  { "IADD3", KS_PIPE_INT, "Add three integers" },
  { "IDP", KS_PIPE_INT, "Integer dot product of packed bytes or halves" },
  { "IGMMA", KS_PIPE_TENSOR, "Hopper: warpgroup integer matrix multiply-accumulate (wgmma)" },
  { "IMAD", KS_PIPE_INT, "Integer multiply-add (also used to move values)" },
  { "IMMA", KS_PIPE_TENSOR, "Integer matrix multiply-accumulate on the tensor cores" },
  { "IMNMX", KS_PIPE_INT, "Integer minimum or maximum" },
  { "IMUL", KS_PIPE_INT, "Integer multiply" },
  { "IPA", KS_PIPE_FP32, "Interpolate a pixel attribute" },
  { "ISCADD", KS_PIPE_INT, "Scale an integer by a shift and add" },
  { "ISETP", KS_PIPE_INT, "Compare integers and set a predicate" },
  { "JMP", KS_PIPE_CTRL, "Absolute jump" },
  { "JMX", KS_PIPE_CTRL, "Indirect absolute jump through a register" },
  { "KILL", KS_PIPE_CTRL, "Kill the thread" },
  { "LD", KS_PIPE_MEM, "Load from generic memory" },
  { "LDC", KS_PIPE_MEM, "Load from constant memory" },
  { "LDCU", KS_PIPE_MEM, "Blackwell: load from constant memory into a uniform register" },
  { "LDG", KS_PIPE_MEM, "Load from global memory" },
  { "LDGDEPBAR", KS_PIPE_MEM, "Mark the end of a group of asynchronous global-to-shared copies" },
  { "LDGSTS", KS_PIPE_MEM, "Asynchronous copy from global to shared memory (cp.async)" },
  { "LDL", KS_PIPE_MEM, "Load from local memory (the stack, spills)" },
  { "LDS", KS_PIPE_MEM, "Load from shared memory" },
  { "LDSM", KS_PIPE_MEM, "Load matrix fragments from shared memory (ldmatrix)" },
  { "LDTM", KS_PIPE_MEM, "Blackwell: load from tensor memory into registers (tcgen05.ld)" },
  { "LEA", KS_PIPE_INT, "Load effective address: shift and add" },
  { "LEPC", KS_PIPE_INT, "Load the program counter" },
  { "LOP", KS_PIPE_INT, "Logic operation" },
  { "LOP3", KS_PIPE_INT, "Any logic function of three inputs (by a lookup table)" },
  { "LOP32I", KS_PIPE_INT, "Logic operation with a 32-bit immediate" },
  { "MATCH", KS_PIPE_SHFL, "Find the threads of the warp holding the same value" },
  { "MEMBAR", KS_PIPE_MEM, "Memory barrier (fence)" },
  { "MOV", KS_PIPE_INT, "Move a value into a register" },
  { "MOV32I", KS_PIPE_INT, "Move a 32-bit immediate into a register" },
  { "MUFU", KS_PIPE_SFU, "Multi-function unit: reciprocal, square root, sine, cosine, exp2, log2" },
  { "NANOSLEEP", KS_PIPE_CTRL, "Suspend the thread for about a given time" },
  { "NOP", KS_PIPE_CTRL, "No operation (padding)" },
  { "OMMA", KS_PIPE_TENSOR, "4-bit float (FP4) matrix multiply-accumulate on the tensor cores" },
  { "P2R", KS_PIPE_INT, "Move predicates into a register" },
  { "PBK", KS_PIPE_CTRL, "Maxwell/Pascal: push a loop-break target" },
  { "PCNT", KS_PIPE_CTRL, "Maxwell/Pascal: push a loop-continue target" },
  { "PLOP3", KS_PIPE_INT, "Any logic function of three predicates" },
  { "POPC", KS_PIPE_INT, "Count the set bits" },
  { "PRMT", KS_PIPE_INT, "Permute bytes of two registers" },
  { "QGMMA", KS_PIPE_TENSOR,
    "Hopper: warpgroup 8-bit float (FP8) matrix multiply-accumulate (wgmma)" },
  { "QMMA", KS_PIPE_TENSOR, "8-bit float (FP8) matrix multiply-accumulate on the tensor cores" },
  { "QSPC", KS_PIPE_MEM, "Ask which state space a generic address points into" },
  { "R2B", KS_PIPE_CTRL, "Move a register to a barrier's state" },
  { "R2P", KS_PIPE_INT, "Move a register's bits into predicates" },
  { "R2UR", KS_PIPE_INT, "Move a register to a uniform register" },
  { "RED", KS_PIPE_MEM, "Reduction on generic memory (an atomic whose result is not read)" },
  { "REDG", KS_PIPE_MEM, "Reduction on global memory" },
  { "REDUX", KS_PIPE_SHFL, "Reduce a value across the warp into a uniform register" },
  { "RET", KS_PIPE_CTRL, "Return from a function" },
  { "RTT", KS_PIPE_CTRL, "Return from a trap handler" },
  { "S2R", KS_PIPE_SFU, "Read a special register (thread and block index, clock)" },
  { "S2UR", KS_PIPE_SFU, "Read a special register into a uniform register" },
  { "SEL", KS_PIPE_INT, "Select one of two values by a predicate" },
  { "SGXT", KS_PIPE_INT, "Sign-extend from a given bit" },
  { "SHF", KS_PIPE_INT, "Funnel shift across two registers" },
  { "SHFL", KS_PIPE_SHFL, "Exchange values between the threads of a warp" },
  { "SHL", KS_PIPE_INT, "Shift left" },
  { "SHR", KS_PIPE_INT, "Shift right" },
  { "SSY", KS_PIPE_CTRL, "Maxwell/Pascal: push a reconvergence point before divergent code" },
  { "ST", KS_PIPE_MEM, "Store to generic memory" },
  { "STG", KS_PIPE_MEM, "Store to global memory" },
  { "STL", KS_PIPE_MEM, "Store to local memory (the stack, spills)" },
  { "STS", KS_PIPE_MEM, "Store to shared memory" },
  { "STSM", KS_PIPE_MEM, "Store matrix fragments to shared memory (stmatrix)" },
  { "STTM", KS_PIPE_MEM, "Blackwell: store registers to tensor memory (tcgen05.st)" },
  { "SULD", KS_PIPE_MEM, "Load from a surface" },
  { "SUST", KS_PIPE_MEM, "Store to a surface" },
  { "SYNC", KS_PIPE_CTRL, "Maxwell/Pascal: reconverge at the point pushed by SSY" },
  { "SYNCS", KS_PIPE_MEM, "Synchronise on a shared-memory barrier object (mbarrier)" },
  { "TEX", KS_PIPE_MEM, "Texture fetch" },
  { "TLD", KS_PIPE_MEM, "Texture load without filtering" },
  { "TLD4", KS_PIPE_MEM, "Texture gather: the four texels around a point" },
  { "TXQ", KS_PIPE_MEM, "Query a texture's size or format" },
  { "UBLKCP", KS_PIPE_MEM,
    "Bulk asynchronous copy between global and shared memory (cp.async.bulk)" },
  { "UBMSK", KS_PIPE_INT, "Uniform datapath: make a bit mask" },
  { "UCGABAR_ARV", KS_PIPE_CTRL, "Hopper and later: arrive at the cluster barrier" },
  { "UCGABAR_WAIT", KS_PIPE_CTRL, "Hopper and later: wait at the cluster barrier" },
  { "UFLO", KS_PIPE_INT, "Uniform datapath: find the leading one" },
  { "UIADD3", KS_PIPE_INT, "Uniform datapath: add three integers" },
  { "UIMAD", KS_PIPE_INT, "Uniform datapath: integer multiply-add" },
  { "UISETP", KS_PIPE_INT, "Uniform datapath: compare integers and set a uniform predicate" },
  { "ULDC", KS_PIPE_MEM, "Load from constant memory into a uniform register" },
  { "ULEA", KS_PIPE_INT, "Uniform datapath: shift and add" },
  { "ULOP3", KS_PIPE_INT, "Uniform datapath: logic function of three inputs" },
  { "UMOV", KS_PIPE_INT, "Move a value into a uniform register" },
  { "UPOPC", KS_PIPE_INT, "Uniform datapath: count set bits" },
  { "UPRMT", KS_PIPE_INT, "Uniform datapath: permute bytes" },
  { "USEL", KS_PIPE_INT, "Uniform datapath: select by a predicate" },
  { "USETMAXREG", KS_PIPE_CTRL,
    "Hopper and later: grow or shrink the warp's register allocation (setmaxnreg)" },
  { "USHF", KS_PIPE_INT, "Uniform datapath: funnel shift" },
  { "UTCATOMSWS", KS_PIPE_MEM,
    "Blackwell: atomically update the tensor-memory allocation mask (tcgen05.alloc, dealloc)" },
  { "UTCBAR", KS_PIPE_MEM,
    "Blackwell: have an mbarrier track completion of earlier tensor-core work (tcgen05.commit)" },
  { "UTCHMMA", KS_PIPE_TENSOR,
    "Blackwell: half/bfloat16/tf32 matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCIMMA", KS_PIPE_TENSOR,
    "Blackwell: integer matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCOMMA", KS_PIPE_TENSOR,
    "Blackwell: 4-bit float matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCQMMA", KS_PIPE_TENSOR,
    "Blackwell: 8-bit float matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTMACMDFLUSH", KS_PIPE_MEM,
    "Tensor memory accelerator: issue the bulk copies queued so far (commit group)" },
  { "UTMALDG", KS_PIPE_MEM, "Tensor memory accelerator: bulk copy of a tile from global memory" },
  { "UTMAPF", KS_PIPE_MEM, "Tensor memory accelerator: prefetch a tile into L2" },
  { "UTMAREDG", KS_PIPE_MEM, "Tensor memory accelerator: reduce a tile into global memory" },
  { "UTMASTG", KS_PIPE_MEM, "Tensor memory accelerator: bulk copy of a tile to global memory" },
  { "VABSDIFF", KS_PIPE_INT, "Absolute difference of integers (video instruction)" },
  { "VIADD", KS_PIPE_INT, "Hopper and later: integer add" },
  { "VIMNMX", KS_PIPE_INT, "Hopper and later: integer minimum or maximum" },
  { "VOTE", KS_PIPE_SHFL, "Vote across the warp (all, any, ballot)" },
  { "VOTEU", KS_PIPE_SHFL, "Vote across the warp into a uniform register" },
  { "WARPGROUP", KS_PIPE_CTRL, "Hopper: order a warpgroup's wgmma operations (arrive, wait)" },
  { "WARPSYNC", KS_PIPE_CTRL, "Wait for the named threads of the warp" },
  { "XMAD", KS_PIPE_INT, "Maxwell/Pascal: 16x16-bit integer multiply-add" },
  { "YIELD", KS_PIPE_CTRL, "Give other warps a turn" },
};

static int
compare_opcode (const void *key,
                const void *elem)
{
  return strcmp (key, ((const OpcodeInfo *) elem)->opcode);
}

static const OpcodeInfo *
lookup (const char *opcode)
{
  if (opcode == NULL)
    return NULL;
  return bsearch (opcode, opcodes, G_N_ELEMENTS (opcodes), sizeof opcodes[0], compare_opcode);
}

/* For the order test */
gboolean _ks_sass_opcodes_sorted (void);

gboolean
_ks_sass_opcodes_sorted (void)
{
  for (gsize i = 1; i < G_N_ELEMENTS (opcodes); i++)
    if (strcmp (opcodes[i - 1].opcode, opcodes[i].opcode) >= 0)
      return FALSE;
  return TRUE;
}

guint
ks_sass_opcode_pipe (const char *opcode,
                     const char *modifiers)
{
  const OpcodeInfo *info = lookup (opcode);

  if (info == NULL)
    {
      /* Families the table does not list one by one (HMMA.1688.F32,
       * HGMMA/QGMMA/UTC* on Hopper and Blackwell) */
      if (opcode != NULL && (strstr (opcode, "MMA") != NULL || g_str_has_prefix (opcode, "UTC")))
        return KS_PIPE_TENSOR;
      return KS_PIPE_INT;
    }
  /* F2F between double and single, and double conversions, use the FP64 unit */
  if ((info->pipe == KS_PIPE_SFU) && modifiers != NULL && strstr (modifiers, "F64") != NULL
      && (strcmp (opcode, "F2F") == 0 || strcmp (opcode, "I2F") == 0 || strcmp (opcode, "F2I") == 0))
    return KS_PIPE_FP64;
  return info->pipe;
}

const char *
ks_sass_opcode_description (const char *opcode)
{
  const OpcodeInfo *info = lookup (opcode);

  return info != NULL ? info->description : NULL;
}
