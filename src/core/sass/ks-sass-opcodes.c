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
  { "ACQBULK", KS_PIPE_CTRL,
    "Hopper and later: wait until earlier bulk copies have released the warp" },
  { "ACQSHMINIT", KS_PIPE_CTRL, "Blackwell: wait until shared memory has been initialised" },
  { "ARRIVES", KS_PIPE_MEM,
    "Hopper and later: arrive on a shared-memory barrier once the warp's asynchronous copies "
    "land" },
  { "ATOM", KS_PIPE_MEM, "Atomic operation on generic memory" },
  { "ATOMG", KS_PIPE_MEM, "Atomic operation on global memory" },
  { "ATOMS", KS_PIPE_MEM, "Atomic operation on shared memory" },
  { "B2R", KS_PIPE_CTRL, "Move a barrier's state to a register" },
  { "BAR", KS_PIPE_CTRL, "Block-wide barrier (__syncthreads)" },
  { "BFE", KS_PIPE_INT, "Maxwell/Pascal: extract a bit field" },
  { "BFI", KS_PIPE_INT, "Maxwell/Pascal: insert a bit field" },
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
  { "CCTLL", KS_PIPE_MEM, "Cache control on local memory" },
  { "CCTLT", KS_PIPE_MEM, "Texture cache control" },
  { "CGAERRBAR", KS_PIPE_CTRL,
    "Hopper and later: wait until the cluster's outstanding errors are reported" },
  { "CONT", KS_PIPE_CTRL, "Maxwell/Pascal: continue a loop set up by PCNT" },
  { "CREDUX", KS_PIPE_SHFL,
    "Blackwell: reduce a value across the warp into a uniform register (coupled form)" },
  { "CS2R", KS_PIPE_INT, "Read a special register quickly (clock, zero)" },
  { "CS2UR", KS_PIPE_INT, "Blackwell: fill a uniform register quickly (the uniform form of CS2R)" },
  { "DADD", KS_PIPE_FP64, "Double-precision add" },
  { "DEPBAR", KS_PIPE_CTRL, "Wait until few enough operations of a scoreboard remain" },
  { "DFMA", KS_PIPE_FP64, "Double-precision fused multiply-add" },
  { "DMMA", KS_PIPE_TENSOR, "Double-precision matrix multiply-accumulate on the tensor cores" },
  { "DMNMX", KS_PIPE_FP64, "Double-precision minimum or maximum" },
  { "DMUL", KS_PIPE_FP64, "Double-precision multiply" },
  { "DSET", KS_PIPE_FP64, "Maxwell/Pascal: compare doubles and set a register" },
  { "DSETP", KS_PIPE_FP64, "Compare doubles and set a predicate" },
  { "ELECT", KS_PIPE_SHFL, "Elect one leader thread of the warp" },
  { "ENDCOLLECTIVE", KS_PIPE_CTRL,
    "Hopper and later: end a collective section (reset the collective mask)" },
  { "ERRBAR", KS_PIPE_MEM, "Error barrier: wait for outstanding errors to be reported" },
  { "EXIT", KS_PIPE_CTRL, "End the thread" },
  { "F2F", KS_PIPE_SFU, "Convert between floating-point formats" },
  { "F2FP", KS_PIPE_FP32, "Convert and pack two floats into half or bfloat16 pairs" },
  { "F2I", KS_PIPE_SFU, "Convert floating point to integer" },
  { "F2IP", KS_PIPE_FP32, "Convert floats to narrow integers and pack them" },
  { "FADD", KS_PIPE_FP32, "Single-precision add" },
  { "FADD2", KS_PIPE_FP32, "Blackwell: two single-precision adds at once (a register pair)" },
  { "FADD32I", KS_PIPE_FP32, "Single-precision add of a 32-bit immediate" },
  { "FCHK", KS_PIPE_FP32, "Check whether a division needs the slow path" },
  { "FCMP", KS_PIPE_FP32, "Maxwell/Pascal: compare a float with zero and select" },
  { "FENCE", KS_PIPE_MEM, "Order memory accesses between proxies (generic, asynchronous, tensor)" },
  { "FFMA", KS_PIPE_FP32, "Single-precision fused multiply-add" },
  { "FFMA2", KS_PIPE_FP32,
    "Blackwell: two single-precision fused multiply-adds at once (a register pair)" },
  { "FFMA32I", KS_PIPE_FP32, "Single-precision fused multiply-add with a 32-bit immediate" },
  { "FHADD", KS_PIPE_FP32,
    "Blackwell: single-precision add (a second form NVIDIA lists beside FADD)" },
  { "FHFMA", KS_PIPE_FP32,
    "Blackwell: single-precision fused multiply-add (a second form NVIDIA lists beside FFMA)" },
  { "FLO", KS_PIPE_INT, "Find the leading one bit" },
  { "FMNMX", KS_PIPE_FP32, "Single-precision minimum or maximum" },
  { "FMNMX3", KS_PIPE_FP32, "Blackwell: minimum or maximum of three floats" },
  { "FMUL", KS_PIPE_FP32, "Single-precision multiply" },
  { "FMUL2", KS_PIPE_FP32, "Blackwell: two single-precision multiplies at once (a register pair)" },
  { "FMUL32I", KS_PIPE_FP32, "Single-precision multiply by a 32-bit immediate" },
  { "FRND", KS_PIPE_SFU, "Round a float to an integral value" },
  { "FSEL", KS_PIPE_FP32, "Select one of two floats by a predicate" },
  { "FSET", KS_PIPE_FP32, "Compare floats and set a register" },
  { "FSETP", KS_PIPE_FP32, "Compare floats and set a predicate" },
  { "FSWZADD", KS_PIPE_FP32, "Add floats with a swizzle across the quad" },
  { "GETLMEMBASE", KS_PIPE_INT, "Read the base address of local memory" },
  { "HADD2", KS_PIPE_FP32, "Add two pairs of halves" },
  { "HADD2_32I", KS_PIPE_FP32, "Add a 32-bit immediate pair of halves to a pair of halves" },
  { "HFMA2", KS_PIPE_FP32,
    "Fused multiply-add on two pairs of halves (also used to move constants)" },
  { "HFMA2_32I", KS_PIPE_FP32,
    "Fused multiply-add on pairs of halves with a 32-bit immediate pair" },
  { "HGMMA", KS_PIPE_TENSOR,
    "Hopper: warpgroup half/bfloat16/tf32 matrix multiply-accumulate (wgmma)" },
  { "HMMA", KS_PIPE_TENSOR, "Half-precision matrix multiply-accumulate on the tensor cores" },
  { "HMNMX2", KS_PIPE_FP32, "Minimum or maximum of two pairs of halves" },
  { "HMUL2", KS_PIPE_FP32, "Multiply two pairs of halves" },
  { "HMUL2_32I", KS_PIPE_FP32, "Multiply a pair of halves by a 32-bit immediate pair" },
  { "HSET2", KS_PIPE_FP32, "Compare two pairs of halves and set a register" },
  { "HSETP2", KS_PIPE_FP32, "Compare two pairs of halves and set predicates" },
  { "I2F", KS_PIPE_SFU, "Convert integer to floating point" },
  { "I2FP", KS_PIPE_FP32, "Convert a 32-bit integer to a float on the FMA pipe" },
  { "I2I", KS_PIPE_INT, "Convert between integer sizes, saturating" },
  { "I2IP", KS_PIPE_INT, "Convert integers to narrower ones, saturating, and pack them" },
  { "IABS", KS_PIPE_INT, "Integer absolute value" },
  { "IADD", KS_PIPE_INT, "Integer add" },
  { "IADD3", KS_PIPE_INT, "Add three integers" },
  { "IADD32I", KS_PIPE_INT, "Integer add of a 32-bit immediate" },
  { "ICMP", KS_PIPE_INT, "Maxwell/Pascal: compare an integer with zero and select" },
  { "IDP", KS_PIPE_INT, "Integer dot product of packed bytes or halves" },
  { "IDP4A", KS_PIPE_INT, "Dot product of four byte pairs, accumulated (dp4a)" },
  { "IGMMA", KS_PIPE_TENSOR, "Hopper: warpgroup integer matrix multiply-accumulate (wgmma)" },
  { "IMAD", KS_PIPE_INT, "Integer multiply-add (also used to move values)" },
  { "IMMA", KS_PIPE_TENSOR, "Integer matrix multiply-accumulate on the tensor cores" },
  { "IMNMX", KS_PIPE_INT, "Integer minimum or maximum" },
  { "IMUL", KS_PIPE_INT, "Integer multiply" },
  { "IMUL32I", KS_PIPE_INT, "Integer multiply by a 32-bit immediate" },
  { "IPA", KS_PIPE_FP32, "Interpolate a pixel attribute" },
  { "ISCADD", KS_PIPE_INT, "Scale an integer by a shift and add" },
  { "ISCADD32I", KS_PIPE_INT, "Scale an integer by a shift and add a 32-bit immediate" },
  { "ISET", KS_PIPE_INT, "Maxwell/Pascal: compare integers and set a register" },
  { "ISETP", KS_PIPE_INT, "Compare integers and set a predicate" },
  { "JMP", KS_PIPE_CTRL, "Absolute jump" },
  { "JMX", KS_PIPE_CTRL, "Indirect absolute jump through a register" },
  { "JMXU", KS_PIPE_CTRL, "Absolute jump to an address held in a uniform register" },
  { "KIL", KS_PIPE_CTRL, "Maxwell/Pascal: kill the thread" },
  { "KILL", KS_PIPE_CTRL, "Kill the thread" },
  { "LD", KS_PIPE_MEM, "Load from generic memory" },
  { "LDC", KS_PIPE_MEM, "Load from constant memory" },
  { "LDCU", KS_PIPE_MEM, "Blackwell: load from constant memory into a uniform register" },
  { "LDG", KS_PIPE_MEM, "Load from global memory" },
  { "LDGDEPBAR", KS_PIPE_MEM, "Mark the end of a group of asynchronous global-to-shared copies" },
  { "LDGMC", KS_PIPE_MEM,
    "Hopper and later: load reduced across the memory of a multicast group (multimem.ld_reduce)" },
  { "LDGSTS", KS_PIPE_MEM, "Asynchronous copy from global to shared memory (cp.async)" },
  { "LDL", KS_PIPE_MEM, "Load from local memory (the stack, spills)" },
  { "LDS", KS_PIPE_MEM, "Load from shared memory" },
  { "LDSM", KS_PIPE_MEM, "Load matrix fragments from shared memory (ldmatrix)" },
  { "LDT", KS_PIPE_MEM, "Blackwell: load a matrix from tensor memory into registers" },
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
  { "MOVM", KS_PIPE_SHFL, "Move a matrix between the threads of a warp, transposed (movmatrix)" },
  { "MUFU", KS_PIPE_SFU, "Multi-function unit: reciprocal, square root, sine, cosine, exp2, log2" },
  { "NANOSLEEP", KS_PIPE_CTRL, "Suspend the thread for about a given time" },
  { "NOP", KS_PIPE_CTRL, "No operation (padding)" },
  { "OMMA", KS_PIPE_TENSOR, "4-bit float (FP4) matrix multiply-accumulate on the tensor cores" },
  { "P2R", KS_PIPE_INT, "Move predicates into a register" },
  { "PBK", KS_PIPE_CTRL, "Maxwell/Pascal: push a loop-break target" },
  { "PCNT", KS_PIPE_CTRL, "Maxwell/Pascal: push a loop-continue target" },
  { "PEXIT", KS_PIPE_CTRL, "Maxwell/Pascal: push an exit point" },
  { "PLOP3", KS_PIPE_INT, "Any logic function of three predicates" },
  { "PMTRIG", KS_PIPE_CTRL, "Trigger a performance monitor event" },
  { "POPC", KS_PIPE_INT, "Count the set bits" },
  { "PREEXIT", KS_PIPE_CTRL,
    "Hopper and later: let the dependent grid start early (griddepcontrol.launch_dependents)" },
  { "PRET", KS_PIPE_CTRL, "Maxwell/Pascal: push a return point" },
  { "PRMT", KS_PIPE_INT, "Permute bytes of two registers" },
  { "PSET", KS_PIPE_INT, "Maxwell/Pascal: combine predicates and set a register" },
  { "PSETP", KS_PIPE_INT, "Combine predicates and set a predicate" },
  { "QGMMA", KS_PIPE_TENSOR,
    "Hopper: warpgroup 8-bit float (FP8) matrix multiply-accumulate (wgmma)" },
  { "QMMA", KS_PIPE_TENSOR, "8-bit float (FP8) matrix multiply-accumulate on the tensor cores" },
  { "QSPC", KS_PIPE_MEM, "Ask which state space a generic address points into" },
  { "R2B", KS_PIPE_CTRL, "Move a register to a barrier's state" },
  { "R2P", KS_PIPE_INT, "Move a register's bits into predicates" },
  { "R2UR", KS_PIPE_INT, "Move a register to a uniform register" },
  { "RED", KS_PIPE_MEM, "Reduction on generic memory (an atomic whose result is not read)" },
  { "REDAS", KS_PIPE_MEM,
    "Hopper and later: asynchronous reduction on another block's shared memory in the cluster" },
  { "REDG", KS_PIPE_MEM, "Reduction on global memory" },
  { "REDUX", KS_PIPE_SHFL, "Reduce a value across the warp into a uniform register" },
  { "RET", KS_PIPE_CTRL, "Return from a function" },
  { "RPCMOV", KS_PIPE_CTRL, "Move to or from the program counter register" },
  { "RRO", KS_PIPE_SFU, "Maxwell/Pascal: range reduction before MUFU sine, cosine or exp2" },
  { "RTT", KS_PIPE_CTRL, "Return from a trap handler" },
  { "S2R", KS_PIPE_SFU, "Read a special register (thread and block index, clock)" },
  { "S2UR", KS_PIPE_SFU, "Read a special register into a uniform register" },
  { "SEL", KS_PIPE_INT, "Select one of two values by a predicate" },
  { "SETCTAID", KS_PIPE_CTRL, "Set the block index" },
  { "SETLMEMBASE", KS_PIPE_INT, "Set the base address of local memory" },
  { "SGXT", KS_PIPE_INT, "Sign-extend from a given bit" },
  { "SHF", KS_PIPE_INT, "Funnel shift across two registers" },
  { "SHFL", KS_PIPE_SHFL, "Exchange values between the threads of a warp" },
  { "SHL", KS_PIPE_INT, "Shift left" },
  { "SHR", KS_PIPE_INT, "Shift right" },
  { "SSY", KS_PIPE_CTRL, "Maxwell/Pascal: push a reconvergence point before divergent code" },
  { "ST", KS_PIPE_MEM, "Store to generic memory" },
  { "STAS", KS_PIPE_MEM,
    "Hopper and later: asynchronous store to another block's shared memory in the cluster" },
  { "STG", KS_PIPE_MEM, "Store to global memory" },
  { "STL", KS_PIPE_MEM, "Store to local memory (the stack, spills)" },
  { "STS", KS_PIPE_MEM, "Store to shared memory" },
  { "STSM", KS_PIPE_MEM, "Store matrix fragments to shared memory (stmatrix)" },
  { "STT", KS_PIPE_MEM, "Blackwell: store a matrix from registers to tensor memory" },
  { "STTM", KS_PIPE_MEM, "Blackwell: store registers to tensor memory (tcgen05.st)" },
  { "SUATOM", KS_PIPE_MEM, "Atomic operation on a surface" },
  { "SULD", KS_PIPE_MEM, "Load from a surface" },
  { "SURED", KS_PIPE_MEM, "Reduction on a surface" },
  { "SUST", KS_PIPE_MEM, "Store to a surface" },
  { "SYNC", KS_PIPE_CTRL, "Maxwell/Pascal: reconverge at the point pushed by SSY" },
  { "SYNCS", KS_PIPE_MEM, "Synchronise on a shared-memory barrier object (mbarrier)" },
  { "TEX", KS_PIPE_MEM, "Texture fetch" },
  { "TEXS", KS_PIPE_MEM, "Maxwell/Pascal: texture fetch, short form" },
  { "TLD", KS_PIPE_MEM, "Texture load without filtering" },
  { "TLD4", KS_PIPE_MEM, "Texture gather: the four texels around a point" },
  { "TLD4S", KS_PIPE_MEM, "Maxwell/Pascal: texture gather, short form" },
  { "TLDS", KS_PIPE_MEM, "Maxwell/Pascal: texture load without filtering, short form" },
  { "TMML", KS_PIPE_MEM, "Texture: the mipmap level a fetch would use" },
  { "TXD", KS_PIPE_MEM, "Texture fetch with explicit derivatives" },
  { "TXQ", KS_PIPE_MEM, "Query a texture's size or format" },
  { "UBLKCP", KS_PIPE_MEM,
    "Bulk asynchronous copy between global and shared memory (cp.async.bulk)" },
  { "UBLKPF", KS_PIPE_MEM, "Bulk prefetch of global memory into L2 (cp.async.bulk.prefetch)" },
  { "UBLKRED", KS_PIPE_MEM, "Bulk copy from shared memory with a reduction into the destination" },
  { "UBMSK", KS_PIPE_INT, "Uniform datapath: make a bit mask" },
  { "UBREV", KS_PIPE_INT, "Uniform datapath: reverse the bits" },
  { "UCGABAR_ARV", KS_PIPE_CTRL, "Hopper and later: arrive at the cluster barrier" },
  { "UCGABAR_WAIT", KS_PIPE_CTRL, "Hopper and later: wait at the cluster barrier" },
  { "UCLEA", KS_PIPE_INT, "Uniform datapath: address of a constant-bank entry" },
  { "UF2F", KS_PIPE_INT, "Blackwell uniform datapath: convert between floating-point formats" },
  { "UF2FP", KS_PIPE_INT, "Uniform datapath: convert floats and pack them into halves" },
  { "UF2I", KS_PIPE_INT, "Blackwell uniform datapath: convert floating point to integer" },
  { "UF2IP", KS_PIPE_INT,
    "Blackwell uniform datapath: convert floats to narrow integers and pack them" },
  { "UFADD", KS_PIPE_INT, "Blackwell uniform datapath: single-precision add" },
  { "UFFMA", KS_PIPE_INT, "Blackwell uniform datapath: single-precision fused multiply-add" },
  { "UFLO", KS_PIPE_INT, "Uniform datapath: find the leading one" },
  { "UFMNMX", KS_PIPE_INT, "Blackwell uniform datapath: single-precision minimum or maximum" },
  { "UFMUL", KS_PIPE_INT, "Blackwell uniform datapath: single-precision multiply" },
  { "UFRND", KS_PIPE_INT, "Blackwell uniform datapath: round a float to an integral value" },
  { "UFSEL", KS_PIPE_INT, "Blackwell uniform datapath: select one of two floats" },
  { "UFSET", KS_PIPE_INT, "Blackwell uniform datapath: compare floats and set a register" },
  { "UFSETP", KS_PIPE_INT,
    "Blackwell uniform datapath: compare floats and set a uniform predicate" },
  { "UGETNEXTWORKID", KS_PIPE_CTRL,
    "Blackwell: ask for the next block of work to run (cluster launch control)" },
  { "UI2F", KS_PIPE_INT, "Blackwell uniform datapath: convert integer to floating point" },
  { "UI2FP", KS_PIPE_INT, "Blackwell uniform datapath: convert an integer to a float" },
  { "UI2I", KS_PIPE_INT, "Blackwell uniform datapath: convert between integer sizes, saturating" },
  { "UI2IP", KS_PIPE_INT,
    "Blackwell uniform datapath: convert integers to narrower ones and pack them" },
  { "UIABS", KS_PIPE_INT, "Blackwell uniform datapath: integer absolute value" },
  { "UIADD3", KS_PIPE_INT, "Uniform datapath: add three integers" },
  { "UIMAD", KS_PIPE_INT, "Uniform datapath: integer multiply-add" },
  { "UIMNMX", KS_PIPE_INT, "Blackwell uniform datapath: integer minimum or maximum" },
  { "UISETP", KS_PIPE_INT, "Uniform datapath: compare integers and set a uniform predicate" },
  { "ULDC", KS_PIPE_MEM, "Load from constant memory into a uniform register" },
  { "ULEA", KS_PIPE_INT, "Uniform datapath: shift and add" },
  { "ULEPC", KS_PIPE_INT, "Uniform datapath: load the program counter" },
  { "ULOP", KS_PIPE_INT, "Uniform datapath: logic operation" },
  { "ULOP3", KS_PIPE_INT, "Uniform datapath: logic function of three inputs" },
  { "ULOP32I", KS_PIPE_INT, "Uniform datapath: logic operation with a 32-bit immediate" },
  { "UMEMSETS", KS_PIPE_MEM, "Blackwell: initialise shared memory" },
  { "UMOV", KS_PIPE_INT, "Move a value into a uniform register" },
  { "UP2UR", KS_PIPE_INT, "Uniform datapath: move uniform predicates into a uniform register" },
  { "UPLOP3", KS_PIPE_INT, "Uniform datapath: logic function of three uniform predicates" },
  { "UPOPC", KS_PIPE_INT, "Uniform datapath: count set bits" },
  { "UPRMT", KS_PIPE_INT, "Uniform datapath: permute bytes" },
  { "UPSETP", KS_PIPE_INT, "Uniform datapath: combine uniform predicates and set one" },
  { "UR2UP", KS_PIPE_INT,
    "Uniform datapath: move a uniform register's bits into uniform predicates" },
  { "UREDGR", KS_PIPE_MEM,
    "Blackwell: reduction on global memory with release semantics, from uniform registers" },
  { "USEL", KS_PIPE_INT, "Uniform datapath: select by a predicate" },
  { "USETMAXREG", KS_PIPE_CTRL,
    "Hopper and later: grow or shrink the warp's register allocation (setmaxnreg)" },
  { "USGXT", KS_PIPE_INT, "Uniform datapath: sign-extend from a given bit" },
  { "USHF", KS_PIPE_INT, "Uniform datapath: funnel shift" },
  { "USHL", KS_PIPE_INT, "Uniform datapath: shift left" },
  { "USHR", KS_PIPE_INT, "Uniform datapath: shift right" },
  { "USTGR", KS_PIPE_MEM,
    "Blackwell: store to global memory with release semantics, from uniform registers" },
  { "UTCATOMSWS", KS_PIPE_MEM,
    "Blackwell: atomically update the tensor-memory allocation mask (tcgen05.alloc, dealloc)" },
  { "UTCBAR", KS_PIPE_MEM,
    "Blackwell: have an mbarrier track completion of earlier tensor-core work (tcgen05.commit)" },
  { "UTCCP", KS_PIPE_MEM,
    "Blackwell: asynchronous copy from shared memory to tensor memory (tcgen05.cp)" },
  { "UTCHMMA", KS_PIPE_TENSOR,
    "Blackwell: half/bfloat16/tf32 matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCIMMA", KS_PIPE_TENSOR,
    "Blackwell: integer matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCOMMA", KS_PIPE_TENSOR,
    "Blackwell: 4-bit float matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCQMMA", KS_PIPE_TENSOR,
    "Blackwell: 8-bit float matrix multiply-accumulate into tensor memory (tcgen05.mma)" },
  { "UTCSHIFT", KS_PIPE_MEM, "Blackwell: shift rows of a matrix in tensor memory (tcgen05.shift)" },
  { "UTMACCTL", KS_PIPE_MEM, "Tensor memory accelerator: cache control of tensor maps" },
  { "UTMACMDFLUSH", KS_PIPE_MEM,
    "Tensor memory accelerator: issue the bulk copies queued so far (commit group)" },
  { "UTMALDG", KS_PIPE_MEM, "Tensor memory accelerator: bulk copy of a tile from global memory" },
  { "UTMAPF", KS_PIPE_MEM, "Tensor memory accelerator: prefetch a tile into L2" },
  { "UTMAREDG", KS_PIPE_MEM, "Tensor memory accelerator: reduce a tile into global memory" },
  { "UTMASTG", KS_PIPE_MEM, "Tensor memory accelerator: bulk copy of a tile to global memory" },
  { "UVIADD", KS_PIPE_INT, "Blackwell uniform datapath: integer add" },
  { "UVIMNMX", KS_PIPE_INT, "Blackwell uniform datapath: integer minimum or maximum" },
  { "UVIRTCOUNT", KS_PIPE_CTRL, "Blackwell: virtual resource management" },
  { "VABSDIFF", KS_PIPE_INT, "Absolute difference of integers (video instruction)" },
  { "VABSDIFF4", KS_PIPE_INT,
    "Absolute differences of four byte pairs, optionally summed (video instruction)" },
  { "VHMNMX", KS_PIPE_INT, "Hopper and later: minimum or maximum of three pairs of halves" },
  { "VIADD", KS_PIPE_INT, "Hopper and later: integer add" },
  { "VIADDMNMX", KS_PIPE_INT, "Hopper and later: integer add followed by a minimum or maximum" },
  { "VIMNMX", KS_PIPE_INT, "Hopper and later: integer minimum or maximum" },
  { "VIMNMX3", KS_PIPE_INT, "Hopper and later: integer minimum or maximum of three values" },
  { "VOTE", KS_PIPE_SHFL, "Vote across the warp (all, any, ballot)" },
  { "VOTEU", KS_PIPE_SHFL, "Vote across the warp into a uniform register" },
  { "WARPGROUP", KS_PIPE_CTRL, "Hopper: order a warpgroup's wgmma operations (arrive, wait)" },
  { "WARPGROUPSET", KS_PIPE_CTRL, "Hopper and later: set the warpgroup's counters" },
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
      && (strcmp (opcode, "F2F") == 0 || strcmp (opcode, "I2F") == 0 || strcmp (opcode, "F2I") == 0
          || strcmp (opcode, "FRND") == 0))
    return KS_PIPE_FP64;
  return info->pipe;
}

const char *
ks_sass_opcode_description (const char *opcode)
{
  const OpcodeInfo *info = lookup (opcode);

  return info != NULL ? info->description : NULL;
}
