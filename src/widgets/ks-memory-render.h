/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-memory-render.h: one execution of a memory instruction, drawn with
 * Cairo.
 *
 * Shared memory (the bank diagram): the 32 lanes above the 32 banks, a line
 * from each lane to the bank of each word it touches, coloured by the
 * wavefront that serves it; banks that must deliver more than one word are
 * marked with their degree, lanes that share a word (a broadcast) with a
 * dot; below, the serialised wavefronts as rows of banks, each cell the word
 * it delivers.  A classroom can step through the wavefronts one at a time.
 *
 * Global memory (the cache-line diagram): the lanes above the 128-byte lines
 * the request touches, each of four 32-byte sectors coloured by where it came
 * from (L1, L2, DRAM) or grey where the warp needed none of it, with
 * requested against transferred bytes and sectors against the ideal. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-sim.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean dark;
  double font_size;             /* points */
  int wavefronts_shown;         /* bank diagram: the first N wavefronts; -1 all */
  gboolean projector;           /* presentation mode: stronger fills for a washed-out projector */
} KsMemoryStyle;

void      ks_memory_style_init     (KsMemoryStyle       *style);
/* The line under the title, with the request's figures: for global memory
 * the distinct bytes used of those moved, the sectors and their ideal
 * (ks_gmem_analyze), the lines; for shared memory the passes and the worst
 * bank.  Translated.  (transfer full) */
char     *ks_memory_summary        (const KsMemAccess   *access);
void      ks_memory_render         (cairo_t             *cr,
                                    const KsMemAccess   *access,
                                    const char          *title,
                                    const KsMemoryStyle *style,
                                    double               width,
                                    double               height);

/* The height the picture needs at `width` to show all of an access: the
 * lanes, the banks and every pass (or every row of lines), and the legend.
 * The widget asks for it, so that its scrolled window scrolls rather than
 * cuts, and an export is made at least this tall. */
double    ks_memory_content_height (const KsMemAccess   *access,
                                    const KsMemoryStyle *style,
                                    double               width);
/* The top of the legend, under the last pass or the last row of lines */
double    ks_memory_legend_top     (const KsMemAccess   *access,
                                    const KsMemoryStyle *style,
                                    double               width);
/* What the picture shows, in one line: ks_memory_summary(), the
 * view's description for a screen reader.  (transfer full) */
char     *ks_memory_describe       (const KsMemAccess   *access);

/* Where the pieces are, for tests and hit-testing: the centre of lane l's
 * box, of bank b's column head (shared) or of sector s of the request
 * (global, in sorted order), and of the wavefront grid's cell (row w,
 * bank b) */
void      ks_memory_lane_center    (double               width,
                                    double               height,
                                    const KsMemoryStyle *style,
                                    uint32_t             lane,
                                    double              *x,
                                    double              *y);
void      ks_memory_bank_center    (double               width,
                                    double               height,
                                    const KsMemoryStyle *style,
                                    uint32_t             bank,
                                    double              *x,
                                    double              *y);
void      ks_memory_cell_center    (double               width,
                                    double               height,
                                    const KsMemoryStyle *style,
                                    uint32_t             wavefront,
                                    uint32_t             bank,
                                    double              *x,
                                    double              *y);
void      ks_memory_sector_center  (const KsMemAccess   *access,
                                    double               width,
                                    double               height,
                                    const KsMemoryStyle *style,
                                    uint32_t             sector,
                                    double              *x,
                                    double              *y);
/* The colours a test looks for */
void      ks_memory_conflict_rgb   (double              *r,
                                    double              *g,
                                    double              *b);
void      ks_memory_level_rgb      (uint8_t              level,
                                    double              *r,
                                    double              *g,
                                    double              *b);

G_END_DECLS
