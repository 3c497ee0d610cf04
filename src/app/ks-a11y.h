/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-a11y.h: names for the parts of GTK's widgets that keyboard focus
 * reaches but the app cannot name through GTK's API. */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A GtkDropDown in GTK 4.8 is a COMBO_BOX that never takes focus: its
 * first child, a toggle button, does, and a screen reader names that
 * button from its own LABEL or LABELLED_BY only ("GtkToggleButton").
 * Each drop-down under root gets its button labelled by the drop-down,
 * whose LABEL the caller has set. */
static inline void
ks_a11y_name_drop_down_buttons (GtkWidget *root)
{
  if (GTK_IS_DROP_DOWN (root))
    {
      GtkWidget *button = gtk_widget_get_first_child (root);

      if (GTK_IS_TOGGLE_BUTTON (button))
        gtk_accessible_update_relation (GTK_ACCESSIBLE (button),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, root, NULL, -1);
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    ks_a11y_name_drop_down_buttons (c);
}

G_END_DECLS
