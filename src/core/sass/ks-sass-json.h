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

G_END_DECLS
