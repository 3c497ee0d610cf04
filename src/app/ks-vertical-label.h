/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-vertical-label.h: one line of text read bottom to top, for a pane
 * folded to a narrow bar (GTK 4 labels have no angle). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_VERTICAL_LABEL (ks_vertical_label_get_type ())

G_DECLARE_FINAL_TYPE (KsVerticalLabel, ks_vertical_label, KS, VERTICAL_LABEL, GtkWidget)

GtkWidget  *ks_vertical_label_new      (const char      *text);
/* The text, which is also the widget's accessible label */
void        ks_vertical_label_set_text (KsVerticalLabel *self,
                                        const char      *text);
const char *ks_vertical_label_get_text (KsVerticalLabel *self);

G_END_DECLS
