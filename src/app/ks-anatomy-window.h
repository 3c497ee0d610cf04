/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy-window.h: the Launch Anatomy window (seeds/004, issue 18):
 * the eight stages of a launch with the analysed kernel's figures, one
 * stage a page, next and previous with the arrow keys or a clicker's Page
 * Up/Down. */
#pragma once

#include <gtk/gtk.h>

#include "ks-anatomy.h"
#include "ks-analysis.h"

G_BEGIN_DECLS

#define KS_ANATOMY_STAGES 8

#define KS_TYPE_ANATOMY_WINDOW (ks_anatomy_window_get_type ())
G_DECLARE_FINAL_TYPE (KsAnatomyWindow, ks_anatomy_window, KS, ANATOMY_WINDOW, GtkWindow)

/* The window for @analysis's launch (its figures are copied: the analysis
 * may go); NULL with error when the analysis has no kernel */
KsAnatomyWindow *ks_anatomy_window_new       (GtkWindow        *parent,
                                              const KsAnalysis *analysis,
                                              GError          **error);
const KsAnatomy *ks_anatomy_window_get_anatomy (KsAnatomyWindow *self);
/* 0-based */
guint            ks_anatomy_window_get_stage  (KsAnatomyWindow *self);
void             ks_anatomy_window_set_stage  (KsAnatomyWindow *self,
                                               guint            stage);
/* --screenshot: the window's picture at WIDTHxHEIGHT, then the application ends */
void             ks_anatomy_window_set_screenshot (KsAnatomyWindow *self,
                                                   const char      *path,
                                                   int              width,
                                                   int              height);
void             ks_anatomy_window_set_presentation (KsAnatomyWindow *self,
                                                     gboolean         presentation);

/* Compiles the CUDA (cuda_text, or the file at cuda_path when NULL) with
 * nvcc --keep in a worker thread, with the analysis's toolkit, for stage
 * 1's files; nothing without a toolkit (a sample's record stays) */
void              ks_anatomy_window_compile      (KsAnatomyWindow  *self,
                                                  KsAnalysis       *analysis,
                                                  const char       *cuda_path,
                                                  const char       *cuda_text);

G_END_DECLS
