/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-compare-window.h: Compare (issue 20): two analyses on one GPU in one
 * window.
 *
 * On top, the key figures of both with their change; below, tabs: every
 * figure (and the hints gone and added), the two timelines on one time
 * axis, the bank and cache-line diagrams of the matched access, the two
 * occupancy charts, the CUDA side by side with the lines that differ
 * marked, and the diff of the CUDA and of the PTX.
 *
 * The two sides are either analyses the caller has (a baseline and the
 * current run) or files the window analyses itself in a worker thread; a
 * group of samples (10, 11, 12) gives each side a drop-down to pick from. */
#pragma once

#include <gtk/gtk.h>

#include "ks-analysis.h"
#include "ks-compare.h"
#include "ks-samples.h"

G_BEGIN_DECLS

#define KS_TYPE_COMPARE_WINDOW (ks_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (KsCompareWindow, ks_compare_window, KS, COMPARE_WINDOW, GtkWindow)

KsCompareWindow *ks_compare_window_new        (GtkWindow       *parent);
/* Shows two finished analyses (references kept); names say what each is
 * ("Baseline", "Now"); focus lines (0: none) are lines of their CUDA that
 * correspond */
void             ks_compare_window_set_analyses (KsCompareWindow *self,
                                                 KsAnalysis      *a,
                                                 const char      *name_a,
                                                 guint            focus_a,
                                                 KsAnalysis      *b,
                                                 const char      *name_b,
                                                 guint            focus_b);
/* Analyses two files (a spec, PTX or CUDA each) on `gpu` (NULL: the one
 * the first's analysis chooses, for both) in a worker thread, then shows
 * them */
void             ks_compare_window_open_files (KsCompareWindow *self,
                                               const char      *path_a,
                                               const char      *path_b,
                                               const char      *gpu);
/* Two samples of `group` (KsSample; the window keeps a reference to the
 * array), with a drop-down on each side to pick another of the group; a
 * and b index it */
void             ks_compare_window_open_samples (KsCompareWindow *self,
                                                 GPtrArray       *group,
                                                 guint            a,
                                                 guint            b,
                                                 const char      *gpu);
/* The comparison shown, or NULL while it is being made */
const KsComparison *ks_compare_window_get_comparison (KsCompareWindow *self);
/* The tab shown: "figures", "timelines", "memory", "occupancy", "code", "diff" */
void             ks_compare_window_set_page   (KsCompareWindow *self,
                                               const char      *page);
void             ks_compare_window_set_presentation (KsCompareWindow *self,
                                                     gboolean         presentation);
/* --screenshot: the window's picture at WIDTHxHEIGHT once both sides are
 * shown, then the application ends */
void             ks_compare_window_set_screenshot (KsCompareWindow *self,
                                                   const char      *path,
                                                   int              width,
                                                   int              height);

G_END_DECLS
