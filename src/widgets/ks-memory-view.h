/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-memory-view.h: the bank and cache-line diagram widget.
 *
 * Shows the sampled executions of one memory instruction of an analysis
 * (ks_sim_get_accesses) with ks-memory-render.h: Page Up/Down or [ ] step
 * through the executions, Space plays the shared-memory passes one at a
 * time for a classroom, Home shows them all. */
#pragma once

#include <gtk/gtk.h>

#include "ks-analysis.h"

G_BEGIN_DECLS

#define KS_TYPE_MEMORY_VIEW (ks_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (KsMemoryView, ks_memory_view, KS, MEMORY_VIEW, GtkWidget)

GtkWidget  *ks_memory_view_new              (void);
void        ks_memory_view_set_analysis     (KsMemoryView *self,
                                             KsAnalysis   *analysis);
/* The module instruction to show; FALSE when it has no sampled access */
gboolean    ks_memory_view_set_instruction  (KsMemoryView *self,
                                             uint32_t      insn);
/* The module instruction shown (as last set) */
uint32_t    ks_memory_view_get_instruction  (KsMemoryView *self);
void        ks_memory_view_step             (KsMemoryView *self,
                                             int           delta);
void        ks_memory_view_set_presentation (KsMemoryView *self,
                                             gboolean      presentation);
/* Writes the access shown as PNG, SVG or PDF, `width` wide and at least
 * `height` high: taller when every pass and the legend need it */
gboolean    ks_memory_view_export           (KsMemoryView *self,
                                             const char   *path,
                                             int           width,
                                             int           height,
                                             GError      **error);

G_END_DECLS
