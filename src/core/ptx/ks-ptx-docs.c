/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-docs.c: hover documentation for PTX.
 *
 * Every description here is written for this project in plain words (what
 * the instruction or word does to the data, and the detail a reader of a
 * kernel most often needs); none is taken from NVIDIA's text.  Tables are
 * small and only read on hover, so lookups are linear scans.
 */

#include <stdio.h>
#include <string.h>

#include "ks-ptx-docs.h"

typedef struct
{
  const char *name;
  const char *text;
} Doc;

/* Every name of ks-ptx-opcodes.def (a test checks it) */
static const Doc opcode_docs[] = {
  { "abs", "Absolute value" },
  { "activemask", "Mask of the warp's threads that are active right now" },
  { "add", "Add two values" },
  { "addc", "Add with the carry-in of an earlier .cc instruction (multi-word arithmetic)" },
  { "alloca", "Reserve space on the thread's stack (local memory) at run time" },
  { "and", "Bitwise AND (logical AND on predicates)" },
  { "applypriority", "Change the eviction priority of cached lines in L2" },
  { "atom", "Atomic read-modify-write on memory; returns the old value" },
  { "bar", "Block barrier: wait for (or arrive at) a named barrier of the thread block" },
  { "barrier", "Block barrier: wait for (or arrive at) a named barrier of the thread block" },
  { "bfe", "Extract a bit field (sign- or zero-extended)" },
  { "bfi", "Insert a bit field into a value" },
  { "bfind", "Position of the most significant non-sign bit" },
  { "bmsk", "Make a mask of consecutive one bits from a position and a width" },
  { "bra", "Branch to a label (threads whose guard is false fall through, so a warp may diverge)" },
  { "brev", "Reverse the order of the bits" },
  { "brkpt", "Stop here in a debugger" },
  { "brx", "Indirect branch through a table of labels" },
  { "call", "Call a function" },
  { "clusterlaunchcontrol", "Ask for (or read) the identity of a cluster that has not been launched yet (work stealing)" },
  { "clz", "Count the leading zero bits" },
  { "cnot", "C-style logical NOT: 1 when the value is zero, else 0" },
  { "copysign", "The first value's magnitude with the second value's sign" },
  { "cos", "Cosine (approximate)" },
  { "cp", "Copy between memories: cp.async copies global to shared memory in the background, cp.async.bulk moves whole tiles" },
  { "createpolicy", "Make a cache eviction policy to pass to loads and stores" },
  { "cvt", "Convert between types (rounding or saturating as told)" },
  { "cvta", "Convert an address between a state space and the generic address space" },
  { "discard", "Drop cached lines without writing them back (their data becomes undefined)" },
  { "div", "Divide" },
  { "dp2a", "Two-way dot product of 16-bit and 8-bit parts, added to an accumulator" },
  { "dp4a", "Four-way dot product of packed bytes, added to an accumulator" },
  { "elect", "Pick one leader thread among the threads of a mask" },
  { "ex2", "2 raised to a power (approximate)" },
  { "exit", "End the thread" },
  { "fence", "Order this thread's memory accesses as seen by other threads (or proxies)" },
  { "fma", "Fused multiply-add: a * b + c with a single rounding" },
  { "fns", "Find the position of the n-th set bit" },
  { "getctarank", "Rank, within the cluster, of the block that owns a shared-memory address" },
  { "griddepcontrol", "Programmatic dependent launch: let the next kernel start early, or wait for the previous one" },
  { "isspacep", "Test whether a generic address points into a given state space" },
  { "istypep", "Test whether a handle is a texture, sampler or surface" },
  { "ld", "Load from memory into registers" },
  { "ldmatrix", "Warp-wide load of 8x8 matrix tiles from shared memory into the fragment layout of mma" },
  { "ldu", "Load a value that is the same for all threads of the warp (uniform load)" },
  { "lg2", "Base-2 logarithm (approximate)" },
  { "lop3", "Any logic function of three inputs, chosen by an 8-bit truth table" },
  { "mad", "Multiply and add: a * b + c" },
  { "mad24", "Multiply the low 24 bits and add" },
  { "madc", "Multiply and add with the carry-in of an earlier .cc instruction" },
  { "mapa", "Map a shared-memory address to the same location in another block of the cluster" },
  { "match", "Find the threads of the warp that hold the same value" },
  { "max", "Maximum of the values" },
  { "mbarrier", "Operate on an mbarrier object in shared memory (arrive, wait, track bytes of asynchronous copies)" },
  { "membar", "Memory barrier: finish this thread's earlier accesses before later ones at a scope" },
  { "min", "Minimum of the values" },
  { "mma", "Warp-wide matrix multiply-accumulate on the tensor cores: D = A * B + C" },
  { "mov", "Copy a value (a register, a constant, an address or a special register)" },
  { "movmatrix", "Transpose an 8x8 matrix held across the warp's registers" },
  { "mul", "Multiply" },
  { "mul24", "Multiply the low 24 bits" },
  { "multimem", "Load, store or reduce on a multicast address that reaches several GPUs' memory" },
  { "nanosleep", "Suspend the thread for about the given number of nanoseconds" },
  { "neg", "Negate" },
  { "not", "Bitwise NOT (logical NOT on predicates)" },
  { "or", "Bitwise OR (logical OR on predicates)" },
  { "pmevent", "Signal a performance-monitor event" },
  { "popc", "Count the set bits" },
  { "prefetch", "Bring a line into a cache level ahead of its use" },
  { "prefetchu", "Prefetch into the uniform cache" },
  { "prmt", "Pick four bytes out of two registers (byte permute)" },
  { "rcp", "Reciprocal 1/x" },
  { "red", "Atomic reduction on memory that returns nothing (cheaper than atom)" },
  { "redux", "Reduce a value across the threads of a warp (add, min, max, and, or, xor)" },
  { "rem", "Remainder of an integer division" },
  { "ret", "Return from a function" },
  { "rsqrt", "Reciprocal square root 1/sqrt(x) (approximate)" },
  { "sad", "Sum of absolute difference: |a - b| + c" },
  { "selp", "Select one of two values by a predicate" },
  { "set", "Compare two values and write 1.0/0xffffffff or 0 into a register" },
  { "setmaxnreg", "Grow or shrink the warp's register allocation (warp-specialised kernels)" },
  { "setp", "Compare two values and set a predicate (optionally combined with another predicate)" },
  { "shf", "Funnel shift: shift across the 64 bits of two registers" },
  { "shfl", "Exchange a register value between the threads of a warp" },
  { "shl", "Shift left" },
  { "shr", "Shift right (arithmetic for signed types, logical otherwise)" },
  { "sin", "Sine (approximate)" },
  { "slct", "Select one of two values by the sign of a third" },
  { "sqrt", "Square root" },
  { "st", "Store registers to memory" },
  { "stackrestore", "Restore the stack pointer saved by stacksave (frees alloca space)" },
  { "stacksave", "Save the stack pointer" },
  { "stmatrix", "Warp-wide store of 8x8 matrix tiles from mma fragments into shared memory" },
  { "sub", "Subtract" },
  { "subc", "Subtract with the borrow of an earlier .cc instruction" },
  { "suld", "Load from a surface" },
  { "suq", "Query a surface's size or format" },
  { "sured", "Atomic reduction on a surface" },
  { "sust", "Store to a surface" },
  { "szext", "Sign- or zero-extend from a given bit width" },
  { "tanh", "Hyperbolic tangent (approximate)" },
  { "tcgen05", "Blackwell tensor core (5th generation): allocate tensor memory, copy into it, multiply-accumulate into it, read it back" },
  { "tensormap", "Modify a tensor map (the descriptor of a tile copy) in memory" },
  { "testp", "Test a floating-point value for a class (finite, NaN, subnormal ...)" },
  { "tex", "Texture fetch with filtering" },
  { "tld4", "Texture gather: the four texels around a coordinate" },
  { "trap", "Abort the kernel with an error" },
  { "txq", "Query a texture's or sampler's attributes" },
  { "vabsdiff", "Video instruction: absolute difference of parts of registers" },
  { "vabsdiff2", "Absolute difference of two packed 16-bit halves" },
  { "vabsdiff4", "Absolute difference of four packed bytes" },
  { "vadd", "Video instruction: add parts of registers" },
  { "vadd2", "Add two packed 16-bit halves" },
  { "vadd4", "Add four packed bytes" },
  { "vavrg2", "Average of two packed 16-bit halves" },
  { "vavrg4", "Average of four packed bytes" },
  { "vmad", "Video instruction: multiply and add parts of registers" },
  { "vmax", "Video instruction: maximum of parts of registers" },
  { "vmax2", "Maximum of two packed 16-bit halves" },
  { "vmax4", "Maximum of four packed bytes" },
  { "vmin", "Video instruction: minimum of parts of registers" },
  { "vmin2", "Minimum of two packed 16-bit halves" },
  { "vmin4", "Minimum of four packed bytes" },
  { "vote", "Vote across the warp: all, any, uniform or a ballot mask of a predicate" },
  { "vset", "Video instruction: compare parts of registers" },
  { "vset2", "Compare two packed 16-bit halves" },
  { "vset4", "Compare four packed bytes" },
  { "vshl", "Video instruction: shift left" },
  { "vshr", "Video instruction: shift right" },
  { "vsub", "Video instruction: subtract parts of registers" },
  { "vsub2", "Subtract two packed 16-bit halves" },
  { "vsub4", "Subtract four packed bytes" },
  { "wgmma", "Hopper warpgroup matrix multiply-accumulate: four warps, operands from shared memory, running asynchronously" },
  { "wmma", "Warp matrix multiply-accumulate on fragments (load, mma, store of 16x16 tiles)" },
  { "xor", "Bitwise exclusive OR" },
};

/* Every type name the parser knows (ks-ptx-tables.c, a test checks it) */
static const Doc type_docs[] = {
  { "b1", "1-bit value (binary matrices)" },
  { "b8", "8 untyped bits" },
  { "b16", "16 untyped bits" },
  { "b32", "32 untyped bits" },
  { "b64", "64 untyped bits" },
  { "b128", "128 untyped bits" },
  { "u4", "4-bit unsigned integer" },
  { "u8", "8-bit unsigned integer" },
  { "u16", "16-bit unsigned integer" },
  { "u32", "32-bit unsigned integer" },
  { "u64", "64-bit unsigned integer" },
  { "s4", "4-bit signed integer" },
  { "s8", "8-bit signed integer" },
  { "s16", "16-bit signed integer" },
  { "s32", "32-bit signed integer" },
  { "s64", "64-bit signed integer" },
  { "f16", "16-bit float (half precision)" },
  { "f16x2", "Two 16-bit floats packed in 32 bits" },
  { "bf16", "16-bit bfloat16 (float's 8-bit exponent, 7-bit mantissa)" },
  { "bf16x2", "Two bfloat16 values packed in 32 bits" },
  { "tf32", "TensorFloat-32: float's range with a 10-bit mantissa, for tensor cores" },
  { "f32", "32-bit float (single precision)" },
  { "f64", "64-bit float (double precision)" },
  { "e4m3", "8-bit float, 4-bit exponent and 3-bit mantissa (FP8)" },
  { "e5m2", "8-bit float, 5-bit exponent and 2-bit mantissa (FP8)" },
  { "e4m3x2", "Two e4m3 FP8 values packed in 16 bits" },
  { "e5m2x2", "Two e5m2 FP8 values packed in 16 bits" },
  { "e2m1x2", "Two 4-bit floats (FP4, 2-bit exponent, 1-bit mantissa) packed in a byte" },
  { "e2m3x2", "Two 6-bit floats (FP6, 2-bit exponent, 3-bit mantissa) packed together" },
  { "e3m2x2", "Two 6-bit floats (FP6, 3-bit exponent, 2-bit mantissa) packed together" },
  { "ue8m0x2", "Two unsigned 8-bit power-of-two scale factors (block scaling)" },
  { "pred", "Predicate: one true/false bit per thread" },
  { "texref", "Handle of a texture" },
  { "samplerref", "Handle of a sampler" },
  { "surfref", "Handle of a surface" },
  /* single FP4/FP6 element types of mma and cvt */
  { "e2m1", "4-bit float (FP4), 2-bit exponent and 1-bit mantissa" },
  { "e2m3", "6-bit float (FP6), 2-bit exponent and 3-bit mantissa" },
  { "e3m2", "6-bit float (FP6), 3-bit exponent and 2-bit mantissa" },
  { "ue8m0", "Unsigned 8-bit power-of-two scale factor" },
  { "ue4m3", "Unsigned 8-bit FP8 scale factor" },
};

typedef struct
{
  const char *word;
  const char *opcode;           /* NULL: any instruction */
  const char *text;
} ModDoc;

/* Every word of ks-ptx-modifiers.def has a row with opcode NULL (a test
 * checks it); rows for one opcode come first so that they win. */
static const ModDoc modifier_docs[] = {
  /* Words whose meaning depends on the instruction */
  { "lo", "setp", "Unsigned 'lower than' comparison (<)" },
  { "lo", "set", "Unsigned 'lower than' comparison (<)" },
  { "lo", "vset", "Unsigned 'lower than' comparison (<)" },
  { "hi", "setp", "Unsigned 'higher than' comparison (>)" },
  { "hi", "set", "Unsigned 'higher than' comparison (>)" },
  { "hi", "vset", "Unsigned 'higher than' comparison (>)" },
  { "sync", "bar", "Wait until every thread expected at the barrier has arrived" },
  { "sync", "barrier", "Wait until every thread expected at the barrier has arrived" },
  { "uni", "bra", "The branch is not divergent: every active thread goes the same way" },
  { "uni", "vote", "True when the predicate has the same value in every active thread" },
  { "all", "vote", "True when the predicate is true in every active thread" },
  { "any", "vote", "True when the predicate is true in at least one active thread" },
  { "ballot", "vote", "A 32-bit mask with bit i set when thread i's predicate is true" },
  { "and", "setp", "Combine the comparison with another predicate by AND" },
  { "or", "setp", "Combine the comparison with another predicate by OR" },
  { "xor", "setp", "Combine the comparison with another predicate by XOR" },
  { "and", "set", "Combine the comparison with a predicate by AND" },
  { "or", "set", "Combine the comparison with a predicate by OR" },
  { "xor", "set", "Combine the comparison with a predicate by XOR" },
  { "red", "bar", "Reduce a predicate over the threads that reach the barrier" },
  { "red", "barrier", "Reduce a predicate over the threads that reach the barrier" },
  { "popc", "bar", "Count the threads whose predicate is true" },
  { "popc", "barrier", "Count the threads whose predicate is true" },
  { "to", "cvta", "From a generic address to the address in the named state space" },
  { "po", "vmad", "Plus one: (a*b) + c + 1, as averages need" },
  { "shr7", "vmad", "Shift the result right by 7 bits (arithmetically when it is signed)" },
  { "shr15", "vmad", "Shift the result right by 15 bits (arithmetically when it is signed)" },
  { "l", "shf", "Shift left across the two registers" },
  { "r", "shf", "Shift right across the two registers" },
  { "approx", "div", "Fast approximate division (about 2 ulp, operands in a limited range)" },
  { "full", "div", "Approximate division that is correct over the whole range (2 ulp)" },
  { "shared", "cvta", "The shared-memory state space" },
  { "load", "wmma", "Load a matrix fragment" },
  { "store", "wmma", "Store a matrix fragment" },
  { "mma", "wmma", "Multiply-accumulate the fragments" },
  { "arrive", "mbarrier", "Count this thread's arrival at the mbarrier (and get the phase token)" },
  { "init", "mbarrier", "Set up an mbarrier with its expected number of arrivals" },
  { "inval", "mbarrier", "Invalidate an mbarrier so its memory can be reused" },
  { "sync", "cp", "Wait for completion before going on" },

  /* State spaces */
  { "global", NULL, "Global memory: device DRAM, cached in L2 (and L1)" },
  { "shared", NULL, "Shared memory: on-chip, one per thread block, 32 banks" },
  { "shared::cta", NULL, "Shared memory of this thread block" },
  { "shared::cluster", NULL, "Shared memory of any block of the cluster (distributed shared memory)" },
  { "local", NULL, "Local memory: per-thread stack and spills, in DRAM behind the caches" },
  { "const", NULL, "Constant memory: read-only, cached, fast when the whole warp reads one address" },
  { "param", NULL, "Parameter space: the kernel's or function's arguments" },
  { "param::entry", NULL, "The parameters of a kernel" },
  { "param::func", NULL, "The parameters of a device function" },

  /* Rounding */
  { "rn", NULL, "Round to nearest, ties to even" },
  { "rz", NULL, "Round toward zero" },
  { "rm", NULL, "Round toward minus infinity" },
  { "rp", NULL, "Round toward plus infinity" },
  { "rna", NULL, "Round to nearest, ties away from zero" },
  { "rs", NULL, "Stochastic rounding with the random bits given" },
  { "rni", NULL, "Round to the nearest integer value, ties to even" },
  { "rzi", NULL, "Round to an integer value toward zero" },
  { "rmi", NULL, "Round to an integer value toward minus infinity" },
  { "rpi", NULL, "Round to an integer value toward plus infinity" },

  /* Comparisons */
  { "eq", NULL, "Equal (==)" },
  { "ne", NULL, "Not equal (!=)" },
  { "lt", NULL, "Less than (<)" },
  { "le", NULL, "Less than or equal (<=)" },
  { "gt", NULL, "Greater than (>)" },
  { "ge", NULL, "Greater than or equal (>=)" },
  { "ls", NULL, "Unsigned 'lower or same' comparison (<=)" },
  { "hs", NULL, "Unsigned 'higher or same' comparison (>=)" },
  { "equ", NULL, "Equal, or either value is NaN" },
  { "neu", NULL, "Not equal, or either value is NaN" },
  { "ltu", NULL, "Less than, or either value is NaN" },
  { "leu", NULL, "Less than or equal, or either value is NaN" },
  { "gtu", NULL, "Greater than, or either value is NaN" },
  { "geu", NULL, "Greater than or equal, or either value is NaN" },
  { "num", NULL, "Neither value is NaN" },
  { "nan", NULL, "Either value is NaN" },

  /* Operations of atom, red, redux, and the modes of shfl, vote, prmt, shf */
  { "and", NULL, "Bitwise AND" },
  { "or", NULL, "Bitwise OR" },
  { "xor", NULL, "Bitwise exclusive OR" },
  { "popc", NULL, "Count the set bits" },
  { "add", NULL, "Add the operand to the value" },
  { "min", NULL, "Keep the smaller of the two values" },
  { "max", NULL, "Keep the larger of the two values" },
  { "inc", NULL, "Increment, wrapping to 0 past the operand" },
  { "dec", NULL, "Decrement, wrapping to the operand below 0" },
  { "cas", NULL, "Compare and swap: store the new value only if memory holds the expected one" },
  { "exch", NULL, "Exchange: store the operand and return the old value" },
  { "all", NULL, "True when the predicate is true in every thread" },
  { "any", NULL, "True when the predicate is true in at least one thread" },
  { "uni", NULL, "Uniform: the same in every active thread of the warp" },
  { "ballot", NULL, "A mask of the threads whose predicate is true" },
  { "up", NULL, "Read from the thread lane - delta (shift the values up the warp)" },
  { "down", NULL, "Read from the thread lane + delta (shift the values down the warp)" },
  { "bfly", NULL, "Read from the thread lane XOR mask (butterfly, as in tree reductions)" },
  { "idx", NULL, "Read from the thread whose lane is given (broadcast, gather)" },
  { "f4e", NULL, "Forward 4-byte extract (prmt mode)" },
  { "b4e", NULL, "Backward 4-byte extract (prmt mode)" },
  { "rc8", NULL, "Replicate one byte into all four (prmt mode)" },
  { "ecl", NULL, "Edge clamp left (prmt mode)" },
  { "ecr", NULL, "Edge clamp right (prmt mode)" },
  { "rc16", NULL, "Replicate one 16-bit half into both (prmt mode)" },
  { "l", NULL, "Left" },
  { "r", NULL, "Right" },

  /* Vector widths and matrix counts */
  { "v2", NULL, "A vector of 2 elements moved in one access" },
  { "v4", NULL, "A vector of 4 elements moved in one access" },
  { "v8", NULL, "A vector of 8 elements moved in one access" },
  { "x1", NULL, "One 8x8 matrix" },
  { "x2", NULL, "Two 8x8 matrices" },
  { "x4", NULL, "Four 8x8 matrices" },

  /* Cache operators */
  { "ca", NULL, "Cache at all levels (L1 and L2)" },
  { "cg", NULL, "Cache in L2 only, not in L1" },
  { "cs", NULL, "Streaming: likely used once, evict it first" },
  { "lu", NULL, "Last use: the line need not be kept after this read" },
  { "cv", NULL, "Volatile: fetch again on every access, never reuse a cached copy" },
  { "wb", NULL, "Write back: keep the written line in the caches" },
  { "wt", NULL, "Write through to memory" },

  /* Memory semantics and scopes */
  { "weak", NULL, "Weak access: no ordering with other threads (the default)" },
  { "volatile", NULL, "Volatile: performed as written, not merged or cached away" },
  { "relaxed", NULL, "Relaxed: atomic, but no ordering of other accesses" },
  { "acquire", NULL, "Acquire: later accesses cannot move before this one" },
  { "release", NULL, "Release: earlier accesses cannot move after this one" },
  { "acq_rel", NULL, "Acquire and release at once" },
  { "sc", NULL, "Sequentially consistent" },
  { "cta", NULL, "Scope: the threads of this thread block" },
  { "cluster", NULL, "Scope: the threads of this cluster of blocks" },
  { "gpu", NULL, "Scope: every thread on this GPU" },
  { "sys", NULL, "Scope: the whole system, host and other GPUs included" },
  { "gl", NULL, "Scope: the GPU (membar.gl)" },

  /* Qualifiers */
  { "ftz", NULL, "Flush subnormal inputs and results to zero (keeping the sign)" },
  { "sat", NULL, "Saturate: clamp floats to [0.0, 1.0], integers to the type's range" },
  { "satfinite", NULL, "Clamp to the largest finite value instead of giving infinity or NaN" },
  { "approx", NULL, "Fast hardware approximation, not correctly rounded" },
  { "full", NULL, "Full-range approximation" },
  { "hi", NULL, "Keep the high half of the double-width product" },
  { "lo", NULL, "Keep the low half of the double-width product" },
  { "wide", NULL, "The result is twice as wide as the operands (32 x 32 -> 64 bits)" },
  { "cc", NULL, "Write the carry (or borrow) out for a following addc, subc or madc" },
  { "sync", NULL, "Warp-synchronous: the threads named in the mask run it together" },
  { "aligned", NULL, "Every thread of the warp executes this same instruction (no divergence here)" },
  { "nc", NULL, "Non-coherent: read through the read-only data cache" },
  { "relu", NULL, "Clamp negative results to zero (ReLU)" },
  { "NaN", NULL, "Give NaN when an input is NaN (instead of the other input)" },
  { "xorsign", NULL, "The result's sign is the XOR of the inputs' signs" },
  { "abs", NULL, "Take the absolute value" },
  { "to", NULL, "To the named state space or type" },
  { "shiftamt", NULL, "Give the shift that brings the found bit to the top instead of its position" },
  { "clamp", NULL, "Shift amounts above 32 count as 32" },
  { "wrap", NULL, "Shift amounts are taken modulo 32" },
  { "arrive", NULL, "Arrive without waiting" },
  { "red", NULL, "Reduce a value at the barrier" },
  { "warp", NULL, "Only the threads of this warp" },
  { "async", NULL, "Asynchronous: runs in the background; wait for it with a group, an mbarrier or a fence" },
  { "bulk", NULL, "A bulk copy of many bytes done by the copy engine (TMA) rather than by threads" },
  { "commit_group", NULL, "Close the group of asynchronous operations issued so far" },
  { "wait_group", NULL, "Wait until at most N groups of asynchronous operations are pending" },
  { "wait_all", NULL, "Wait until every asynchronous operation issued so far is done" },
  { "trans", NULL, "Transpose the matrix on the way" },
  { "oob", NULL, "Operands read out of a tensor's bounds count as zero" },
  { "noftz", NULL, "Keep subnormal values (do not flush them to zero)" },
  { "mmio", NULL, "Memory-mapped I/O: performed exactly once, in order" },
  { "load", NULL, "Load" },
  { "store", NULL, "Store" },
  { "mma", NULL, "Matrix multiply-accumulate" },
  { "row", NULL, "Row-major layout" },
  { "col", NULL, "Column-major layout" },
  { "pack", NULL, "Pack the results into one register" },
  { "finite", NULL, "Test for a finite value" },
  { "infinite", NULL, "Test for plus or minus infinity" },
  { "number", NULL, "Test for a value that is not NaN" },
  { "notanumber", NULL, "Test for NaN" },
  { "normal", NULL, "Test for a normal (not subnormal, zero, infinite or NaN) value" },
  { "subnormal", NULL, "Test for a subnormal value" },
  { "init", NULL, "Initialise" },
  { "inval", NULL, "Invalidate" },
  { "test_wait", NULL, "Test, without blocking, whether the mbarrier's phase is complete" },
  { "try_wait", NULL, "Wait a while for the mbarrier's phase to complete, then report whether it did" },
  { "expect_tx", NULL, "Tell the mbarrier how many bytes of asynchronous copies to wait for" },
  { "noinc", NULL, "Do not count an extra expected arrival" },
  { "proxy", NULL, "Order accesses between different proxies (generic and asynchronous)" },
  { "any_sync", NULL, "Wait for any of the threads' barriers" },
  { "arrive_drop", NULL, "Arrive and stop taking part in later phases" },
  { "complete_tx", NULL, "Count bytes of asynchronous copies as done" },
  { "parity", NULL, "Wait on the phase given by its parity rather than by a token" },
  { "pending_count", NULL, "The number of arrivals still pending" },
  { "noComplete", NULL, "Do not complete the current phase" },
  { "mbarrier", NULL, "Signal completion on an mbarrier" },
  { "mbarrier::complete_tx::bytes", NULL, "Completion is counted in bytes on the mbarrier given" },
  { "bulk_group", NULL, "Completion is tracked by bulk async-groups (commit and wait)" },
  { "reduce", NULL, "Reduce into the destination instead of overwriting it" },

  /* Frequent words of newer instructions that the table above does not decode */
  { "L1::evict_first", NULL, "L1 hint: evict this line first" },
  { "L1::evict_last", NULL, "L1 hint: keep this line as long as possible" },
  { "L1::evict_normal", NULL, "L1 hint: normal eviction" },
  { "L1::evict_unchanged", NULL, "L1 hint: leave the line's eviction priority as it is" },
  { "L1::no_allocate", NULL, "L1 hint: do not allocate a line in L1" },
  { "L2::evict_first", NULL, "L2 hint: evict this line first" },
  { "L2::evict_last", NULL, "L2 hint: keep this line as long as possible" },
  { "L2::evict_normal", NULL, "L2 hint: normal eviction" },
  { "L2::cache_hint", NULL, "Use the cache policy given as an extra operand" },
  { "L2::64B", NULL, "Also prefetch into L2 up to 64 bytes around the access" },
  { "L2::128B", NULL, "Also prefetch into L2 up to 128 bytes around the access" },
  { "L2::256B", NULL, "Also prefetch into L2 up to 256 bytes around the access" },
  { "multicast::cluster", NULL, "Deliver the data to several blocks of the cluster at once" },
  { "tile", NULL, "Copy a rectangular tile of the tensor" },
  { "im2col", NULL, "Copy in im2col layout (convolution patches)" },
  { "tensor", NULL, "Copy described by a tensor map (TMA)" },
  { "mma_async", NULL, "Start an asynchronous warpgroup matrix multiply-accumulate" },
  { "fence", NULL, "Order register and shared-memory accesses before the asynchronous operation" },
  { "alloc", NULL, "Allocate columns of tensor memory" },
  { "dealloc", NULL, "Free columns of tensor memory" },
  { "relinquish_alloc_permit", NULL, "Give up the right to allocate tensor memory" },
  { "commit", NULL, "Make an mbarrier track completion of the operations issued so far" },
  { "arrive::one", NULL, "Arrive once on the mbarrier" },
  { "ld", NULL, "Load" },
  { "st", NULL, "Store" },
  { "cp", NULL, "Copy" },
  { "shift", NULL, "Shift rows of tensor memory" },
  { "wait::ld", NULL, "Wait for earlier tensor-memory loads" },
  { "wait::st", NULL, "Wait for earlier tensor-memory stores" },
  { "cta_group::1", NULL, "One thread block drives the tensor core" },
  { "cta_group::2", NULL, "A pair of thread blocks drives the tensor core together" },
  { "kind::f16", NULL, "Half and bfloat16 inputs" },
  { "kind::tf32", NULL, "TF32 inputs" },
  { "kind::f8f6f4", NULL, "FP8, FP6 or FP4 inputs" },
  { "kind::i8", NULL, "8-bit integer inputs" },
  { "kind::mxf8f6f4", NULL, "Block-scaled FP8, FP6 or FP4 inputs" },
  { "kind::mxf4", NULL, "Block-scaled FP4 inputs" },
  { "kind::mxf4nvf4", NULL, "Block-scaled FP4 inputs with FP8 or power-of-two scales" },
  { "block_scale", NULL, "Multiply the inputs by per-block scale factors" },
  { "collector::a::fill", NULL, "Keep operand A in the collector buffer for reuse" },
  { "generic", NULL, "The generic proxy (ordinary loads and stores)" },
  { "async::generic", NULL, "Between the asynchronous and the generic proxy" },
  { "acquire::gpu", NULL, "Acquire at GPU scope" },
  { "release::gpu", NULL, "Release at GPU scope" },
  { "uniform", NULL, "The address is the same for every thread" },
  { "ltc128", NULL, "Hint that the 128 bytes around the access will be used" },
  { "unified", NULL, "The address may point to host or device memory" },
  { "center", NULL, "Round toward the centre (video)" },
  { "1d", NULL, "One-dimensional" },
  { "2d", NULL, "Two-dimensional" },
  { "3d", NULL, "Three-dimensional" },
  { "4d", NULL, "Four-dimensional" },
  { "5d", NULL, "Five-dimensional" },
  { "a1d", NULL, "Array of one-dimensional layers" },
  { "a2d", NULL, "Array of two-dimensional layers" },
  { "cube", NULL, "Cube map" },
  { "acube", NULL, "Array of cube maps" },
  { "trap", NULL, "Out-of-bounds accesses abort the kernel" },
  { "zero", NULL, "Out-of-bounds loads give zero" },
  { "m8n8", NULL, "Matrix shape 8x8" },
  { "m16n16", NULL, "Matrix shape 16x16" },
};

static const char *
lookup (const Doc  *docs,
        gsize       n,
        const char *name)
{
  if (name == NULL)
    return NULL;
  for (gsize i = 0; i < n; i++)
    if (strcmp (docs[i].name, name) == 0)
      return docs[i].text;
  return NULL;
}

const char *
ks_ptx_doc_opcode (const char *opcode)
{
  return lookup (opcode_docs, G_N_ELEMENTS (opcode_docs), opcode);
}

const char *
ks_ptx_doc_type (const char *type)
{
  return lookup (type_docs, G_N_ELEMENTS (type_docs), type);
}

/* A matrix shape "m16n8k16" (k optional), spelled out into buf */
static gboolean
shape_text (const char *word,
            char       *buf,
            gsize       size)
{
  guint m = 0, n = 0, k = 0;
  int used = 0;

  if (sscanf (word, "m%un%uk%u%n", &m, &n, &k, &used) == 3 && word[used] == '\0')
    {
      g_snprintf (buf, size, "Matrix shape: M=%u, N=%u, K=%u (D is %ux%u, the sum runs over %u)",
                  m, n, k, m, n, k);
      return TRUE;
    }
  return FALSE;
}

const char *
ks_ptx_doc_modifier (const char *opcode,
                     const char *word)
{
  if (word == NULL)
    return NULL;
  if (opcode != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (modifier_docs); i++)
      if (modifier_docs[i].opcode != NULL && strcmp (modifier_docs[i].opcode, opcode) == 0
          && strcmp (modifier_docs[i].word, word) == 0)
        return modifier_docs[i].text;
  for (gsize i = 0; i < G_N_ELEMENTS (modifier_docs); i++)
    if (modifier_docs[i].opcode == NULL && strcmp (modifier_docs[i].word, word) == 0)
      return modifier_docs[i].text;
  return NULL;
}

void
ks_ptx_explanation_free (KsPtxExplanation *e)
{
  if (e == NULL)
    return;
  for (guint i = 0; i < e->n_parts; i++)
    g_free (e->parts[i].word);
  g_free (e->parts);
  g_free (e->opcode);
  g_free (e->guard);
  g_free (e);
}

static gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_' || c == '$' || c == '%';
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$';
}

/* A matrix shape's text lives in a per-explanation string: interned so the
 * part can point at it like at a table row (shapes are few) */
static const char *
intern_shape (const char *word)
{
  char buf[128];

  if (!shape_text (word, buf, sizeof buf))
    return NULL;
  return g_intern_string (buf);
}

static KsPtxExplanation *
explain_statement (const char *s,
                   gsize       start,
                   gsize       end,
                   gsize       column)
{
  g_autoptr(KsPtxExplanation) e = NULL;
  g_autoptr(GArray) parts = NULL;
  g_auto(GStrv) words = NULL;
  g_autofree char *word = NULL;
  g_autofree char *guard = NULL;
  gsize p = start, w0;

  while (p < end && g_ascii_isspace (s[p]))
    p++;
  /* the blanks in front of a statement are not part of it */
  if (column < p)
    return NULL;
  /* A label ("$L__BB0_2:"), but not a "::" inside a word */
  if (p < end && is_ident_start (s[p]))
    {
      gsize q = p + 1;

      while (q < end && is_ident_char (s[q]))
        q++;
      if (q < end && s[q] == ':' && (q + 1 >= end || s[q + 1] != ':'))
        {
          p = q + 1;
          while (p < end && g_ascii_isspace (s[p]))
            p++;
        }
    }
  /* A guard: @p, @!p, @%p1 */
  if (p < end && s[p] == '@')
    {
      gsize g = ++p;

      if (p < end && s[p] == '!')
        p++;
      while (p < end && (is_ident_char (s[p]) || s[p] == '%'))
        p++;
      guard = g_strndup (s + g, p - g);
      while (p < end && g_ascii_isspace (s[p]))
        p++;
    }
  if (p >= end || !g_ascii_isalpha (s[p]))
    return NULL;                /* a directive, a brace, an operand list alone */
  w0 = p;
  while (p < end && (g_ascii_isalnum (s[p]) || s[p] == '_' || s[p] == '.' || s[p] == ':'))
    p++;
  word = g_strndup (s + w0, p - w0);
  words = g_strsplit (word, ".", -1);
  if (ks_ptx_doc_opcode (words[0]) == NULL)
    return NULL;

  e = g_new0 (KsPtxExplanation, 1);
  e->start = (uint32_t) w0;
  e->end = (uint32_t) p;
  e->opcode = g_strdup (words[0]);
  e->summary = ks_ptx_doc_opcode (words[0]);
  e->guard = g_steal_pointer (&guard);
  parts = g_array_new (FALSE, TRUE, sizeof (KsPtxDocPart));
  for (guint i = 1; words[i] != NULL; i++)
    {
      KsPtxDocPart part = { 0 };

      if (words[i][0] == '\0')
        continue;
      part.word = g_strdup (words[i]);
      /* An opcode-specific meaning first, then the type, then the rest */
      part.description = NULL;
      for (gsize k = 0; k < G_N_ELEMENTS (modifier_docs); k++)
        if (modifier_docs[k].opcode != NULL && strcmp (modifier_docs[k].opcode, e->opcode) == 0
            && strcmp (modifier_docs[k].word, words[i]) == 0)
          part.description = modifier_docs[k].text;
      if (part.description == NULL && (part.description = ks_ptx_doc_type (words[i])) != NULL)
        part.is_type = TRUE;
      if (part.description == NULL)
        part.description = ks_ptx_doc_modifier (NULL, words[i]);
      if (part.description == NULL)
        part.description = intern_shape (words[i]);
      g_array_append_val (parts, part);
    }
  e->n_parts = parts->len;
  e->parts = (KsPtxDocPart *) (void *) g_array_free (g_steal_pointer (&parts), FALSE);
  return g_steal_pointer (&e);
}

KsPtxExplanation *
ks_ptx_explain (const char *line,
                gsize       len,
                gsize       column)
{
  g_autofree char *s = NULL;
  gsize stmt = 0, code_end;
  gboolean blank = TRUE;

  g_return_val_if_fail (line != NULL || len == 0, NULL);

  if (column >= len)
    return NULL;
  /* A copy with comments blanked out, so columns stay where they are */
  s = g_strndup (line, len);
  len = strlen (s);             /* a NUL ends the line */
  if (column >= len)
    return NULL;
  code_end = len;
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '"')
        {
          /* strings only in directives (.file, .pragma): skip them */
          for (i++; i < len && s[i] != '"'; i++)
            ;
          continue;
        }
      if (s[i] == '/' && i + 1 < len && s[i + 1] == '/')
        {
          code_end = i;
          break;
        }
      if (s[i] == '/' && i + 1 < len && s[i + 1] == '*')
        {
          gsize j = i + 2;

          while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'))
            j++;
          j = MIN (j + 2, len);
          memset (s + i, ' ', j - i);
          i = j - 1;
        }
    }
  if (column >= code_end)
    return NULL;
  /* Statements end at ';' and at the braces of a block; braces inside a
   * statement are a vector operand ("{%f1, %f2}").  The one holding column */
  for (gsize i = 0; i <= code_end; i++)
    {
      gboolean block = blank && i < code_end && (s[i] == '{' || s[i] == '}');

      if (i == code_end || s[i] == ';' || block)
        {
          if (column >= stmt && column <= i)
            return explain_statement (s, stmt, MIN (i, code_end), column);
          stmt = i + 1;
          blank = TRUE;
        }
      else if (!g_ascii_isspace (s[i]))
        blank = FALSE;
    }
  return NULL;
}
