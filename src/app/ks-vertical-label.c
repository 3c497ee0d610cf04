/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-vertical-label.c: a line of text turned a quarter left, as the
 * folded bars of IDEs write a pane's name; the text is the accessible
 * label, so a screen reader reads it as a label. */

#include "ks-vertical-label.h"
#include "ks-widget-util.h"

struct _KsVerticalLabel
{
  GtkWidget parent_instance;
  char *text;
  PangoLayout *layout;          /* made on demand; dropped when the text or style changes */
};

G_DEFINE_FINAL_TYPE (KsVerticalLabel, ks_vertical_label, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static PangoLayout *
get_layout (KsVerticalLabel *self)
{
  if (self->layout == NULL)
    self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->text);
  return self->layout;
}

static void
ks_vertical_label_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  KsVerticalLabel *self = KS_VERTICAL_LABEL (widget);
  int width = 0, height = 0;

  if (self->text != NULL && *self->text != '\0')
    pango_layout_get_pixel_size (get_layout (self), &width, &height);
  /* turned: the text's width is the widget's height.  Its minimum height
   * is a few characters, so that a short window cuts the text rather
   * than grow; the natural one is all of it */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = height;
  else
    {
      *natural = width;
      *minimum = MIN (width, 4 * height);
    }
}

static void
ks_vertical_label_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  KsVerticalLabel *self = KS_VERTICAL_LABEL (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA fg;

  if (self->text == NULL || *self->text == '\0')
    return;
  ks_widget_get_fg (widget, &fg);
  /* what does not fit the height is cut, not drawn over the next widget */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_save (snapshot);
  /* read from the top down, as a header bar's title would be tilted to
   * the right: the layout's top-left corner at the widget's top-right */
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (width, 0));
  gtk_snapshot_rotate (snapshot, 90);
  gtk_snapshot_append_layout (snapshot, get_layout (self), &fg);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

static void
ks_vertical_label_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  KsVerticalLabel *self = KS_VERTICAL_LABEL (widget);

  GTK_WIDGET_CLASS (ks_vertical_label_parent_class)->css_changed (widget, change);
  /* a new font or scale (presentation mode) makes another layout */
  g_clear_object (&self->layout);
  gtk_widget_queue_resize (widget);
}

void
ks_vertical_label_set_text (KsVerticalLabel *self,
                            const char      *text)
{
  g_return_if_fail (KS_IS_VERTICAL_LABEL (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  g_clear_object (&self->layout);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text ? text : "", -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), text);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

const char *
ks_vertical_label_get_text (KsVerticalLabel *self)
{
  g_return_val_if_fail (KS_IS_VERTICAL_LABEL (self), NULL);
  return self->text;
}

GtkWidget *
ks_vertical_label_new (const char *text)
{
  return g_object_new (KS_TYPE_VERTICAL_LABEL, "text", text, NULL);
}

static void
ks_vertical_label_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KsVerticalLabel *self = KS_VERTICAL_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_vertical_label_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  KsVerticalLabel *self = KS_VERTICAL_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      ks_vertical_label_set_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_vertical_label_finalize (GObject *object)
{
  KsVerticalLabel *self = KS_VERTICAL_LABEL (object);

  g_free (self->text);
  g_clear_object (&self->layout);
  G_OBJECT_CLASS (ks_vertical_label_parent_class)->finalize (object);
}

static void
ks_vertical_label_class_init (KsVerticalLabelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ks_vertical_label_get_property;
  object_class->set_property = ks_vertical_label_set_property;
  object_class->finalize = ks_vertical_label_finalize;
  widget_class->measure = ks_vertical_label_measure;
  widget_class->snapshot = ks_vertical_label_snapshot;
  widget_class->css_changed = ks_vertical_label_css_changed;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "ks-vertical-label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
ks_vertical_label_init (KsVerticalLabel *self)
{
}
