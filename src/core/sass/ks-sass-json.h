/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-json.h: a SASS listing as JSON, the form of `kernelscope-cli sass
 * --json` and of the "sass" member of `analyze --json`. */
#pragma once

#include <json-glib/json-glib.h>

#include "ks-sass.h"

G_BEGIN_DECLS

/* Adds "format", "functions" (name, demangled, arch, labels, instructions
 * with offset, line, opcode, modifiers, operands, predicate, pipe, control,
 * source) and "resources" (KsKernelResources records, each matched to a
 * function of the listing; NULL for none) to the object being built. */
void    ks_sass_listing_add_json   (JsonBuilder         *builder,
                                    const KsSassListing *listing,
                                    GPtrArray           *resources);

/* Adds "loops" (ks-sass-loops.h), the natural loops of function, each as
 * {"offsets": [first, last], "back_edge", "depth", "cuda_line" (or null),
 * "instructions", "flops", "shared_bytes", "global_bytes"} for one
 * iteration of its own body; with module (else NULL) also "ptx": the PTX
 * loop of ptx_function it runs as {"lines": [first, last], "back_edge_line",
 * "instructions", "flops", "shared_bytes", "global_bytes"}, or null,
 * "unroll", "estimated", and "inner": the PTX loop ptxas unrolled whole
 * into it ({"lines", "trips"}) or null.  When the flow cannot be known
 * "loops" is null and "loops_error" says why. */
void    ks_sass_loops_add_json     (JsonBuilder          *builder,
                                    const KsSassListing  *listing,
                                    const KsSassFunction *function,
                                    const KsPtxModule    *module,
                                    uint32_t              ptx_function);

G_END_DECLS
