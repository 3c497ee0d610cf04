/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-fold-box.h: a row of controls that folds its less-used ones away
 * when the window is narrow (a header bar at 683 px, a projector at
 * 1024 x 768), where GTK 4.8 has no breakpoints. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_FOLD_BOX (ks_fold_box_get_type ())

G_DECLARE_FINAL_TYPE (KsFoldBox, ks_fold_box, KS, FOLD_BOX, GtkWidget)

GtkWidget *ks_fold_box_new          (void);
/* Adds child at the end of the row.  priority 0: never folded; otherwise
 * the children with the highest priority fold first (among equals, the
 * last).  In a .ui file: <child type="fold-N">, N the priority. */
void       ks_fold_box_append       (KsFoldBox *self,
                                     GtkWidget *child,
                                     guint      priority);
/* A child shown in place of the folded ones, only while one is folded (a
 * compact stand-in: a drop-down for a row of tabs).  <child type="overflow">. */
void       ks_fold_box_set_overflow (KsFoldBox *self,
                                     GtkWidget *child);
/* Whether child is folded away in the last allocation */
gboolean   ks_fold_box_is_folded    (KsFoldBox *self,
                                     GtkWidget *child);
/* Whether any child is folded */
gboolean   ks_fold_box_get_folding  (KsFoldBox *self);

G_END_DECLS
