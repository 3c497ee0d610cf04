/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-preferences.h: the Preferences window (app.preferences, Ctrl+,): a
 * control for every setting of the schema but the window's remembered
 * size, each bound to its key so a change applies at once. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_PREFERENCES (ks_preferences_get_type ())

G_DECLARE_FINAL_TYPE (KsPreferences, ks_preferences, KS, PREFERENCES, GtkWindow)

KsPreferences *ks_preferences_new          (GtkApplication *app);
/* Over parent, and in presentation mode while parent is (its
 * "presentation" property, where it has one) */
void           ks_preferences_set_parent   (KsPreferences  *self,
                                            GtkWindow      *parent);
/* The control bound to the setting key, or NULL for a key without one
 * (the window's size and maximized state, kept as the window closes).
 * Returns: (transfer none) (nullable) */
GtkWidget     *ks_preferences_get_control  (KsPreferences  *self,
                                            const char     *key);
/* The Clear button of the toolkit folder, for the tests.
 * Returns: (transfer none) */
GtkWidget     *ks_preferences_get_toolkit_clear (KsPreferences *self);
/* Sets the toolkit-path setting to folder, as the folder chooser does:
 * FALSE, and the window says why, when folder holds no nvcc (in itself
 * or its bin/); then every window of the application runs again. */
gboolean       ks_preferences_choose_toolkit (KsPreferences *self,
                                              GFile         *folder);

G_END_DECLS
