/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-line-map.h: which PTX lines come from which CUDA line, for linking the
 * source panes.
 *
 * Plain C on a parsed module, no GTK: the window asks it what to light up
 * and the tests check it without a display.  Only lines of one CUDA file
 * are linked (the one the window shows).  A PTX line maps to the line of
 * that file its instruction comes from: the innermost `.loc` of the
 * instruction, or, when that is in another file (a CUDA header whose code
 * was inlined), the first location in the shown file of its inlined_at
 * chain (ks_ptx_insn_source_in_file()).  Each
 * mapped CUDA line gets a colour from a colour-blind-safe palette, in line
 * order, so neighbouring lines differ. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"
#include "ks-sass.h"

G_BEGIN_DECLS

typedef struct _KsLineMap KsLineMap;

#define KS_LINE_MAP_NO_COLOUR G_MAXUINT32

/* Builds the map for the CUDA file whose path ends in cuda_basename (the
 * .file entry), or, when NULL or not found, the file most instructions come
 * from.  module may be freed afterwards.
 * Returns: (transfer full) */
KsLineMap       *ks_line_map_new              (const KsPtxModule *module,
                                               const char        *cuda_basename);
void             ks_line_map_free             (KsLineMap         *map);

/* The .file number linked, 0 when the module has no source locations */
uint32_t         ks_line_map_get_file         (const KsLineMap   *map);
/* The CUDA line PTX line ptx_line comes from, or 0 */
uint32_t         ks_line_map_cuda_line        (const KsLineMap   *map,
                                               uint32_t           ptx_line);
/* The PTX lines whose code comes from CUDA line cuda_line, ascending, each
 * once; n_lines is 0 (and the result NULL) when there are none.
 * Returns: (transfer none) */
const uint32_t  *ks_line_map_ptx_lines        (const KsLineMap   *map,
                                               uint32_t           cuda_line,
                                               uint32_t          *n_lines);
/* The CUDA lines that have PTX lines, ascending.  Returns: (transfer none) */
const uint32_t  *ks_line_map_cuda_lines       (const KsLineMap   *map,
                                               uint32_t          *n_lines);
/* The palette index of a CUDA line, or KS_LINE_MAP_NO_COLOUR */
uint32_t         ks_line_map_colour           (const KsLineMap   *map,
                                               uint32_t           cuda_line);

/* SASS: a listing's instructions map to CUDA lines through its
 * `//## File "F", line N` records (nvdisasm -g / --print-line-info), for
 * records whose file ends in cuda_basename (any file when NULL), or whose
 * `inlined at "F", line N` does (nvdisasm -gi: a header's code inlined
 * into the file).  Replaces the SASS part of the map; listing may be
 * freed afterwards. */
void             ks_line_map_set_sass         (KsLineMap           *map,
                                               const KsSassListing *listing,
                                               const char          *cuda_basename);
/* The CUDA line SASS listing line sass_line comes from, or 0 */
uint32_t         ks_line_map_cuda_line_of_sass (const KsLineMap    *map,
                                                uint32_t            sass_line);
/* The SASS listing lines from CUDA line cuda_line, ascending.
 * Returns: (transfer none) */
const uint32_t  *ks_line_map_sass_lines       (const KsLineMap     *map,
                                               uint32_t             cuda_line,
                                               uint32_t            *n_lines);

/* The palette: Okabe and Ito's colours for colour-blind readers, without
 * black.  Returns "#RRGGBB". */
#define KS_LINE_MAP_N_COLOURS 7
const char      *ks_line_map_palette          (uint32_t           index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLineMap, ks_line_map_free)

G_END_DECLS
