/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-widget-util.c: what every view widget does the same way. */

#include "ks-widget-util.h"

void
ks_widget_get_fg (GtkWidget *widget,
                  GdkRGBA   *fg)
{
  /* gtk_widget_get_color () is GTK 4.10; 4.8 has the style context's */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

gboolean
ks_widget_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  ks_widget_get_fg (widget, &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

void
ks_widget_snapshot_message (GtkWidget   *widget,
                            GtkSnapshot *snapshot,
                            const char  *text)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  int lw, lh;
  GdkRGBA fg;

  if (w <= 48 || h <= 0 || text == NULL)
    return;
  layout = gtk_widget_create_pango_layout (widget, text);
  pango_layout_set_width (layout, MIN (w - 48, 720) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  ks_widget_get_fg (widget, &fg);
  fg.alpha *= 0.7f;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) (w - lw) / 2,
                                                          (float) MAX (h - lh, 0) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

static void
focus_on_press (GtkGestureClick *gesture,
                int              n_press,
                double           x,
                double           y,
                GtkWidget       *widget)
{
  gtk_widget_grab_focus (widget);
}

void
ks_widget_setup_input (GtkWidget  *widget,
                       const char *accessible_label,
                       GCallback   on_key)
{
  GtkGesture *g = gtk_gesture_click_new ();

  gtk_widget_set_focusable (widget, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible_label, -1);
  g_signal_connect (g, "pressed", G_CALLBACK (focus_on_press), widget);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (g));
  if (on_key != NULL)
    {
      GtkEventController *c = gtk_event_controller_key_new ();

      g_signal_connect (c, "key-pressed", on_key, widget);
      gtk_widget_add_controller (widget, c);
    }
}

GtkWidget *
ks_widget_scrolled (GtkWidget *child)
{
  GtkWidget *sw = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (sw), child);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (sw), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  return sw;
}

static void
string_item_setup (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  max_width_chars)
{
  GtkWidget *label = gtk_label_new (NULL);
  int max = GPOINTER_TO_INT (max_width_chars);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* (the list's labels: G_MININT, whole) */
  if (max != G_MININT)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), max);
    }
  gtk_list_item_set_child (item, label);
}

static void
string_item_bind (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  unused)
{
  GtkStringObject *s = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      s ? gtk_string_object_get_string (s) : "");
}

void
ks_widget_drop_down_ellipsize (GtkDropDown *drop_down,
                               int          max_width_chars)
{
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GtkListItemFactory) f = gtk_signal_list_item_factory_new ();

      g_signal_connect (f, "setup", G_CALLBACK (string_item_setup),
                        GINT_TO_POINTER (i == 0 ? max_width_chars : G_MININT));
      g_signal_connect (f, "bind", G_CALLBACK (string_item_bind), NULL);
      if (i == 0)
        gtk_drop_down_set_factory (drop_down, f);
      else
        gtk_drop_down_set_list_factory (drop_down, f);
    }
}
