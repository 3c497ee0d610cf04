/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-gutter.c: the heat gutter of a source pane and its legend. */

#include "ks-heat-gutter.h"

#include <glib/gi18n.h>

/* Faint enough to read as "not current", strong enough to still compare */
#define DIMMED_ALPHA 0.35

/* The widget's font size in pixels: the panes' code font, which
 * presentation mode enlarges, so the strip widens with it */
static double
font_px (GtkWidget *widget)
{
  PangoContext *pc = gtk_widget_get_pango_context (widget);
  const PangoFontDescription *fd = pango_context_get_font_description (pc);
  double size = fd ? pango_font_description_get_size (fd) / (double) PANGO_SCALE : 10;

  if (fd != NULL && !pango_font_description_get_size_is_absolute (fd))
    size *= 96.0 / 72.0;
  return size > 0 ? size : 13;
}

/* ---------------------------------------------------------------------- */
/* KsHeatGutter */

struct _KsHeatGutter
{
  GtkSourceGutterRenderer parent_instance;

  KsHeatGutterBinFunc bin_func;
  KsHeatGutterTooltipFunc tooltip_func;
  gpointer user_data;
  gboolean dimmed;
  int width;
};

G_DEFINE_FINAL_TYPE (KsHeatGutter, ks_heat_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static void
bin_rgba (uint32_t  bin,
          gboolean  dimmed,
          GdkRGBA  *rgba)
{
  double rgb[3];

  ks_heat_bin_colour (bin, rgb);
  rgba->red = (float) rgb[0];
  rgba->green = (float) rgb[1];
  rgba->blue = (float) rgb[2];
  rgba->alpha = dimmed ? (float) DIMMED_ALPHA : 1.0f;
}

gboolean
ks_heat_gutter_get_colour (KsHeatGutter *self,
                           guint         line,
                           GdkRGBA      *rgba)
{
  uint32_t bin = 0;

  g_return_val_if_fail (KS_IS_HEAT_GUTTER (self), FALSE);
  if (self->bin_func == NULL || !self->bin_func (line, &bin, self->user_data))
    return FALSE;
  bin_rgba (bin, self->dimmed, rgba);
  return TRUE;
}

static void
ks_heat_gutter_snapshot_line (GtkSourceGutterRenderer *renderer,
                              GtkSnapshot             *snapshot,
                              GtkSourceGutterLines    *lines,
                              guint                    line)
{
  KsHeatGutter *self = KS_HEAT_GUTTER (renderer);
  int w = gtk_widget_get_width (GTK_WIDGET (renderer));
  int y = 0, h = 0;
  GdkRGBA rgba;
  GtkRoot *root;

  /* (line is 0-based here) */
  if (!ks_heat_gutter_get_colour (self, line + 1, &rgba))
    return;
  gtk_source_gutter_lines_get_line_yrange (lines, line, GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL,
                                           &y, &h);
  /* a strip with a little air on both sides, so it does not merge with the
   * line numbers or the text */
  gtk_snapshot_append_color (snapshot, &rgba,
                             &GRAPHENE_RECT_INIT (2, y, MAX (w - 4, 1), h));
  /* A projector washes viridis' light end (#fde725) into a white pane:
   * in presentation mode each step gets a dark edge, so the lightest
   * still shows where it is */
  root = gtk_widget_get_root (GTK_WIDGET (renderer));
  if (root != NULL && gtk_widget_has_css_class (GTK_WIDGET (root), "presentation"))
    {
      const GdkRGBA edge = { 0.15f, 0.15f, 0.18f, self->dimmed ? (float) DIMMED_ALPHA : 0.8f };
      GskRoundedRect r;

      gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT (2, y, MAX (w - 4, 1), h), 0);
      gtk_snapshot_append_border (snapshot, &r, (const float[4]) { 0, 1, 0, 1 },
                                  (const GdkRGBA[4]) { edge, edge, edge, edge });
    }
}

static void
update_width (KsHeatGutter *self)
{
  /* about three quarters of an em: 10 px beside 10.5 pt code, 17 px beside
   * presentation mode's 17 pt */
  int width = (int) (font_px (GTK_WIDGET (self)) * 0.75 + 0.5);

  width = MAX (width, 8);
  if (width == self->width)
    return;
  self->width = width;
  gtk_widget_set_size_request (GTK_WIDGET (self), width, -1);
}

static void
ks_heat_gutter_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ks_heat_gutter_parent_class)->css_changed (widget, change);
  update_width (KS_HEAT_GUTTER (widget));
}

/* The line under the pointer, through the view's coordinates */
static guint
line_at_y (KsHeatGutter *self,
           int           x,
           int           y)
{
  GtkSourceView *view = gtk_source_gutter_renderer_get_view (GTK_SOURCE_GUTTER_RENDERER (self));
  GtkTextIter iter;
  double vx = 0, vy = 0;
  int bx, by;

  if (view == NULL
      || !gtk_widget_translate_coordinates (GTK_WIDGET (self), GTK_WIDGET (view), x, y, &vx, &vy))
    return 0;
  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET, (int) vx,
                                         (int) vy, &bx, &by);
  gtk_text_view_get_line_at_y (GTK_TEXT_VIEW (view), &iter, by, NULL);
  return (guint) gtk_text_iter_get_line (&iter) + 1;
}

static gboolean
ks_heat_gutter_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard,
                              GtkTooltip *tooltip)
{
  KsHeatGutter *self = KS_HEAT_GUTTER (widget);
  guint line = line_at_y (self, x, y);
  g_autofree char *text = NULL;

  if (line == 0 || self->tooltip_func == NULL)
    return FALSE;
  text = self->tooltip_func (line, self->user_data);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ks_heat_gutter_class_init (KsHeatGutterClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  GTK_SOURCE_GUTTER_RENDERER_CLASS (klass)->snapshot_line = ks_heat_gutter_snapshot_line;
  widget_class->css_changed = ks_heat_gutter_css_changed;
  widget_class->query_tooltip = ks_heat_gutter_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "ks-heat-gutter");
}

static void
ks_heat_gutter_init (KsHeatGutter *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  update_width (self);
}

GtkSourceGutterRenderer *
ks_heat_gutter_new (KsHeatGutterBinFunc     bin_func,
                    KsHeatGutterTooltipFunc tooltip_func,
                    gpointer                user_data)
{
  KsHeatGutter *self = g_object_new (KS_TYPE_HEAT_GUTTER, NULL);

  self->bin_func = bin_func;
  self->tooltip_func = tooltip_func;
  self->user_data = user_data;
  return GTK_SOURCE_GUTTER_RENDERER (self);
}

void
ks_heat_gutter_set_dimmed (KsHeatGutter *self,
                           gboolean      dimmed)
{
  g_return_if_fail (KS_IS_HEAT_GUTTER (self));
  dimmed = !!dimmed;
  if (self->dimmed == dimmed)
    return;
  self->dimmed = dimmed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
ks_heat_gutter_get_dimmed (KsHeatGutter *self)
{
  g_return_val_if_fail (KS_IS_HEAT_GUTTER (self), FALSE);
  return self->dimmed;
}

/* ---------------------------------------------------------------------- */
/* The legend's ramp: the bins side by side */

struct _KsHeatRamp
{
  GtkWidget parent_instance;
  gboolean dimmed;
};

#define KS_TYPE_HEAT_RAMP (ks_heat_ramp_get_type ())
G_DECLARE_FINAL_TYPE (KsHeatRamp, ks_heat_ramp, KS, HEAT_RAMP, GtkWidget)
G_DEFINE_FINAL_TYPE (KsHeatRamp, ks_heat_ramp, GTK_TYPE_WIDGET)

static void
ks_heat_ramp_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  double px = font_px (widget);

  /* a bin about two thirds of an em wide, as tall as a capital */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = (int) (KS_HEAT_N_BINS * px * 0.65 + 0.5);
  else
    *minimum = *natural = (int) (px * 0.75 + 0.5);
}

static void
ks_heat_ramp_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  KsHeatRamp *self = KS_HEAT_RAMP (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  float x0 = 0;

  for (uint32_t b = 0; b < KS_HEAT_N_BINS; b++)
    {
      float x1 = (float) w * (b + 1) / KS_HEAT_N_BINS;
      GdkRGBA rgba;

      bin_rgba (b, self->dimmed, &rgba);
      gtk_snapshot_append_color (snapshot, &rgba, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, h));
      x0 = x1;
    }
}

static void
ks_heat_ramp_class_init (KsHeatRampClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->measure = ks_heat_ramp_measure;
  widget_class->snapshot = ks_heat_ramp_snapshot;
  gtk_widget_class_set_css_name (widget_class, "ks-heat-ramp");
}

static void
ks_heat_ramp_init (KsHeatRamp *self)
{
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
}

/* ---------------------------------------------------------------------- */
/* KsHeatLegend */

struct _KsHeatLegend
{
  GtkWidget parent_instance;

  GtkWidget *name;
  GtkWidget *min;
  GtkWidget *ramp;
  GtkWidget *max;
  GtkWidget *log;
  char *text;
};

G_DEFINE_FINAL_TYPE (KsHeatLegend, ks_heat_legend, GTK_TYPE_WIDGET)

static void
ks_heat_legend_dispose (GObject *object)
{
  KsHeatLegend *self = KS_HEAT_LEGEND (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->name = self->min = self->ramp = self->max = self->log = NULL;
  G_OBJECT_CLASS (ks_heat_legend_parent_class)->dispose (object);
}

static void
ks_heat_legend_finalize (GObject *object)
{
  g_free (KS_HEAT_LEGEND (object)->text);
  G_OBJECT_CLASS (ks_heat_legend_parent_class)->finalize (object);
}

static void
ks_heat_legend_class_init (KsHeatLegendClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ks_heat_legend_dispose;
  G_OBJECT_CLASS (klass)->finalize = ks_heat_legend_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "ks-heat-legend");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static GtkWidget *
legend_label (KsHeatLegend *self,
              const char   *css)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  gtk_widget_set_parent (label, GTK_WIDGET (self));
  return label;
}

static void
ks_heat_legend_init (KsHeatLegend *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 4);
  self->name = legend_label (self, "ks-heat-name");
  self->min = legend_label (self, "ks-heat-value");
  self->ramp = g_object_new (KS_TYPE_HEAT_RAMP, NULL);
  gtk_widget_set_parent (self->ramp, GTK_WIDGET (self));
  self->max = legend_label (self, "ks-heat-value");
  self->log = legend_label (self, "dim-label");
  gtk_label_set_text (GTK_LABEL (self->log), _("log"));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
ks_heat_legend_new (gboolean show_name)
{
  KsHeatLegend *self = g_object_new (KS_TYPE_HEAT_LEGEND, NULL);

  gtk_widget_set_visible (self->name, show_name);
  return GTK_WIDGET (self);
}

void
ks_heat_legend_set_scale (KsHeatLegend      *self,
                          const char        *name,
                          const char        *unit,
                          const KsHeatScale *scale)
{
  gboolean integer;
  g_autofree char *lo = NULL, *hi = NULL, *tip = NULL;

  g_return_if_fail (KS_IS_HEAT_LEGEND (self));

  g_clear_pointer (&self->text, g_free);
  if (scale == NULL || scale->n_values == 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return;
    }
  integer = scale->metric != KS_HEAT_ACTIVE_LANES;
  lo = ks_heat_format_short (scale->min, integer);
  hi = ks_heat_format_short (scale->max, integer);
  gtk_label_set_text (GTK_LABEL (self->name), name);
  gtk_label_set_text (GTK_LABEL (self->min), lo);
  gtk_label_set_text (GTK_LABEL (self->max), hi);
  gtk_widget_set_visible (self->log, scale->log);
  self->text = g_strdup_printf ("%s%s%s – %s%s", gtk_widget_get_visible (self->name) ? name : "",
                                gtk_widget_get_visible (self->name) ? " " : "", lo, hi,
                                scale->log ? _(" (log scale)") : "");
  tip = g_strdup_printf (scale->log ? _("Heat gutter: %s, %s, from %s (dark) to %s (light), on a "
                                        "logarithmic scale. Lines that never ran are blank.")
                                    : _("Heat gutter: %s, %s, from %s (dark) to %s (light). Lines "
                                        "that never ran are blank."),
                         name, unit, lo, hi);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

void
ks_heat_legend_set_dimmed (KsHeatLegend *self,
                           gboolean      dimmed)
{
  g_return_if_fail (KS_IS_HEAT_LEGEND (self));
  KS_HEAT_RAMP (self->ramp)->dimmed = dimmed;
  gtk_widget_queue_draw (self->ramp);
  gtk_widget_set_opacity (GTK_WIDGET (self), dimmed ? 0.6 : 1.0);
}

const char *
ks_heat_legend_get_text (KsHeatLegend *self)
{
  g_return_val_if_fail (KS_IS_HEAT_LEGEND (self), NULL);
  return self->text;
}
