/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-widget-util.h: what every view widget does the same way. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The theme's text colour, and whether it is light (a dark theme) */
void      ks_widget_get_fg       (GtkWidget  *widget,
                                  GdkRGBA    *fg);
gboolean  ks_widget_is_dark      (GtkWidget  *widget);
/* @text in the middle of @widget, wrapped, dimmed: why a view has nothing
 * to draw */
void      ks_widget_snapshot_message (GtkWidget   *widget,
                                      GtkSnapshot *snapshot,
                                      const char  *text);
/* Focusable, named for assistive technologies, focused by a click, and
 * with `on_key` (a GtkEventControllerKey::key-pressed handler taking the
 * widget as data) when not NULL */
void      ks_widget_setup_input  (GtkWidget  *widget,
                                  const char *accessible_label,
                                  GCallback   on_key);

/* A drop-down over a GtkStringList whose button shows its choice cut
 * short with "…" (at most max_width_chars, -1: as room allows), so that a
 * long name never widens the window, while its list shows each whole */
void      ks_widget_drop_down_ellipsize (GtkDropDown *drop_down,
                                         int          max_width_chars);
/* child in a GtkScrolledWindow that scrolls both ways as needed */
GtkWidget *ks_widget_scrolled    (GtkWidget  *child);
G_END_DECLS
