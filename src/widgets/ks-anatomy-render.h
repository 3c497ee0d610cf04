/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy-render.h: the Launch Anatomy's pictures, drawn with Cairo.
 *
 * - The launch record: the QMD's 64 words, each a strip of its 32 bits
 *   (bit 31 on the left) with the launch's fields coloured where NVIDIA's
 *   class headers put them, the driver's addresses hatched, and the word's
 *   value in hex.
 * - Distribution: the GPU's SMs, each with its block slots, filled as the
 *   work distributor fills them in one wave (the last one is the tail).
 * - The roofline: the GPU's memory and FP32 roofs on log axes, with the
 *   launch's point (the timing model's).
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-anatomy.h"

G_BEGIN_DECLS

/* What a QMD field is about: its colour */
typedef enum
{
  KS_QMD_KIND_GRID = 0,
  KS_QMD_KIND_BLOCK,
  KS_QMD_KIND_RESOURCES,        /* registers, shared and local memory, barriers */
  KS_QMD_KIND_CONSTANTS,        /* constant bank 0 */
  KS_QMD_KIND_PROGRAM,          /* the code's address, the SASS version */
  KS_QMD_KIND_COMPLETION,       /* the semaphore released at the end */
  KS_QMD_KIND_VERSION,
  KS_QMD_N_KINDS
} KsQmdKind;

KsQmdKind ks_anatomy_qmd_kind         (const KsAnatomyQmdField *field);
void      ks_anatomy_qmd_kind_rgb     (KsQmdKind                kind,
                                       gboolean                 dark,
                                       double                  *rgb);

/* Each drawn on a cleared background, `font_px` the text's size in pixels */
void      ks_anatomy_render_qmd       (cairo_t                 *cr,
                                       const KsAnatomy         *anatomy,
                                       gboolean                 dark,
                                       double                   font_px,
                                       double                   width,
                                       double                   height);
/* The height the QMD picture wants (eight words a row) */
double    ks_anatomy_qmd_height       (double                   font_px);
void      ks_anatomy_render_waves     (cairo_t                 *cr,
                                       const KsAnatomy         *anatomy,
                                       uint32_t                 wave,
                                       gboolean                 dark,
                                       double                   font_px,
                                       double                   width,
                                       double                   height);
/* Scheduler 0's warps over the first cycles (ks-anatomy.h's sched_*): a
 * row a warp, each issue a tick in its pipe's colour, the wait before it
 * a band in its reason's, as the Timeline view draws them */
void      ks_anatomy_render_scheduler (cairo_t                 *cr,
                                       const KsAnatomy         *anatomy,
                                       gboolean                 dark,
                                       gboolean                 projector,
                                       double                   font_px,
                                       double                   width,
                                       double                   height);
double    ks_anatomy_scheduler_height (const KsAnatomy         *anatomy,
                                       double                   font_px);
void      ks_anatomy_render_roofline  (cairo_t                 *cr,
                                       const KsAnatomy         *anatomy,
                                       gboolean                 dark,
                                       double                   font_px,
                                       double                   width,
                                       double                   height);

G_END_DECLS
