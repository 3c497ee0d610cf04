/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-preferences-private.h: the Preferences window's fields, for
 * ks-preferences.c and the tests. */
#pragma once

#include "ks-preferences.h"

G_BEGIN_DECLS

struct _KsPreferences
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkDropDown *theme_dropdown;
  GtkSpinButton *font_size_spin;
  GtkDropDown *heat_metric_dropdown;
  GtkSpinButton *presentation_scale_spin;
  GtkSwitch *presentation_mode_switch;
  GtkDropDown *default_gpu_dropdown;
  GtkLabel *toolkit_subtitle;
  GtkButton *toolkit_choose_button;
  GtkButton *toolkit_clear_button;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;

  /* Owned references */
  GSettings *settings;
  char **gpu_ids;               /* the GPU dropdown's ids after its first entry */

  /* Borrowed references */
  GtkWindow *parent;            /* weak: the window presentation mode follows */
};

G_END_DECLS
