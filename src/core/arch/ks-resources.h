/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-resources.h: what a kernel asks of an SM (registers, shared and
 * constant memory, stack, spills, named barriers), the input of the
 * occupancy calculator.
 *
 * Three sources, in order of trust:
 *
 *   PTXAS           the "ptxas info" lines of `ptxas -v` (or `nvcc -Xptxas -v`):
 *                   what the assembler really allocated
 *   RESOURCE_USAGE  `cuobjdump --dump-resource-usage` of a compiled binary:
 *                   the same figures read back from the cubin (no barriers)
 *   ESTIMATE        worked out from the PTX alone when there is no toolkit.
 *                   Shared, local and barrier figures follow the PTX's own
 *                   declarations and are usually what ptxas reports; the
 *                   register count is a guess (see ks_resources_estimate())
 *                   and must be shown as one.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

#define KS_RESOURCES_ERROR (ks_resources_error_quark ())

typedef enum
{
  KS_RESOURCES_ERROR_PARSE,     /* a line of the listing could not be read */
  KS_RESOURCES_ERROR_TOOL,      /* the tool reported errors (its messages are in the GError) */
  KS_RESOURCES_ERROR_NOT_FOUND, /* no such function, or no tool */
} KsResourcesError;

typedef enum
{
  KS_RESOURCES_SOURCE_PTXAS = 0,
  KS_RESOURCES_SOURCE_RESOURCE_USAGE,
  KS_RESOURCES_SOURCE_ESTIMATE,
} KsResourcesSource;

/* Which figures the source actually gave; the others are 0.  Device
 * functions in `ptxas -v` have a stack line but no "Used ..." line, resource
 * usage has no barriers, ptxas before CUDA 12 prints no barriers. */
typedef enum
{
  KS_RESOURCES_HAS_REGISTERS = 1 << 0,
  KS_RESOURCES_HAS_STACK = 1 << 1,      /* stack frame and spills */
  KS_RESOURCES_HAS_BARRIERS = 1 << 2,
  KS_RESOURCES_HAS_CUMULATIVE_STACK = 1 << 3,
} KsResourcesFields;

/* Constant banks as ptxas names them, cmem[0] (kernel parameters and
 * driver constants) to cmem[17]; cmem[2] and cmem[3] hold the compiler's
 * and the user's __constant__ data depending on the architecture. */
#define KS_RESOURCES_N_CONSTANT_BANKS 18

typedef struct
{
  char *name;                   /* as the source wrote it: mangled, or demangled by nvcc */
  char *arch;                   /* "sm_86", or NULL when the input does not say */
  KsResourcesSource source;
  KsResourcesFields fields;
  gboolean is_entry;            /* a kernel (.entry), not a device function */
  uint32_t registers;           /* per thread, as reported (not rounded to the allocation unit) */
  uint32_t shared_static_bytes; /* static __shared__ only; dynamic shared is a launch setting */
  uint32_t constant_bytes[KS_RESOURCES_N_CONSTANT_BANKS];
  uint32_t local_bytes;         /* the stack frame: local arrays and spill slots */
  uint32_t cumulative_stack_bytes;      /* with the frames of the functions it calls */
  uint32_t spill_store_bytes;
  uint32_t spill_load_bytes;
  uint32_t barriers;            /* named barriers (bar.sync N uses N + 1) */
  uint32_t line;                /* 1-based line of the input it was read from; 0 for estimates */
} KsKernelResources;

GQuark              ks_resources_error_quark   (void);

KsKernelResources  *ks_kernel_resources_new    (const char              *name,
                                                const char              *arch,
                                                KsResourcesSource        source);
KsKernelResources  *ks_kernel_resources_copy   (const KsKernelResources *res);
void                ks_kernel_resources_free   (KsKernelResources       *res);

/* "ptxas", "resource-usage" or "estimate" (the CLI's JSON spelling) */
const char         *ks_resources_source_name   (KsResourcesSource        source);

/* The record for name (and arch, unless NULL) in an array from the parsers
 * below, or NULL.  (transfer none) */
const KsKernelResources *ks_resources_find     (GPtrArray               *resources,
                                                const char              *name,
                                                const char              *arch);

/* Reads the stderr of `ptxas -v` / `nvcc -Xptxas -v` (CUDA 10 to 13): one
 * record per "Compiling entry function" and per "Function properties for"
 * device function, per architecture, in the order they appear.  Lines that
 * are not ptxas's (nvcc's own messages) are skipped; ptxas info lines it does
 * not know are skipped too, so a newer ptxas does not break it.  A line of a
 * known shape that does not read (a bad number, a resource field it cannot
 * parse, figures before any function) is KS_RESOURCES_ERROR_PARSE naming its
 * line; ptxas error lines make it fail with KS_RESOURCES_ERROR_TOOL and those
 * lines as the message.
 *
 * Returns: (transfer full) (element-type KsKernelResources): the records, or
 * NULL with error set. */
GPtrArray          *ks_resources_parse_ptxas   (const char              *text,
                                                gsize                    len,
                                                GError                 **error);

/* Reads `cuobjdump --dump-resource-usage`: "Function NAME:" followed by a line
 * of KEY:VALUE figures (REG, STACK, SHARED, LOCAL, CONSTANT[N], ...).  arch is
 * taken from the "arch = sm_XX" header of the ELF section it is in, NULL for a
 * plain cubin.  Unknown keys are skipped; a figure that is not KEY:NUMBER is
 * KS_RESOURCES_ERROR_PARSE naming its line.
 *
 * Returns: (transfer full) (element-type KsKernelResources) */
GPtrArray          *ks_resources_parse_resource_usage (const char        *text,
                                                       gsize              len,
                                                       GError           **error);

/* An estimate from the PTX alone, for when ptxas is not there:
 *
 *   shared_static_bytes  the .shared variables with a size that the function
 *                        or any function it calls names (its own, demoted,
 *                        and module-scope ones), laid out one after the other
 *                        in declaration order at their alignment (the
 *                        variable's .align, else its element size)
 *   local_bytes          the function's own .local variables (nvcc's
 *                        __local_depotN) laid out the same way
 *   barriers             the highest named-barrier id of any bar / barrier
 *                        instruction it or its callees execute, plus one; 16
 *                        when an id is a register (ptxas must assume all)
 *   registers            an ESTIMATE: the largest number of 32-bit registers
 *                        live at once, from a backward liveness pass over the
 *                        function's CFG (a 64-bit register counts 2, a
 *                        128-bit one 4, predicates nothing: they have their
 *                        own file; a predicated write does not end a value's
 *                        life), plus 2 for what ptxas reserves (the stack
 *                        pointer and a zero/scratch register), at least 8 (the
 *                        smallest count ptxas reports from sm_70 on), at
 *                        least 24 when it makes a call (the ABI's needs, as
 *                        ptxas 13 reports them), at most 255.  Not rounded:
 *                        ptxas -v reports the count before the allocation
 *                        unit, and the occupancy calculator rounds.
 *                        ptxas schedules, rematerialises and coalesces,
 *                        so the truth can be off either way: on
 *                        tests/ptx/corpus (146 kernels, sm_80 and sm_90,
 *                        ptxas 13.0) the median estimate is 1.0x ptxas's
 *                        count, and all but 3 are within a factor of 2
 *                        (redux.sync and 64-bit atomics lowered by ptxas
 *                        need more than the PTX shows).
 *   constant_bytes[0]    the parameters' size plus the driver's 0x160 bytes
 *                        before them (sm_70 to sm_89; an approximation
 *                        elsewhere)
 *
 * spills are 0 and fields has no HAS_STACK: they cannot be known without
 * allocating registers.  arch is the module's first .target.
 *
 * Returns: (transfer full): the estimate, or NULL when function_index is not
 * a function with a body. */
KsKernelResources  *ks_resources_estimate      (const KsPtxModule       *module,
                                                uint32_t                 function_index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsKernelResources, ks_kernel_resources_free)

G_END_DECLS
