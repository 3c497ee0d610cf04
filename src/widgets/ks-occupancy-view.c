/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-occupancy-view.c: the occupancy chart widget. */

#include <glib/gi18n-lib.h>

#include "ks-occupancy-view.h"
#include "ks-render-export.h"
#include "ks-widget-util.h"

struct _KsOccupancyView
{
  GtkWidget parent_instance;

  KsAnalysis *analysis;
  KsOccupancyCurves *curves;
  KsOccupancyChart chart;
  gboolean dragging;
  /* Compare: another kernel on the same axes */
  KsAnalysis *other;
  KsOccupancyCurves *other_curves;
  KsOccupancyChart other_chart;
  char *label, *other_label;
};

enum
{
  WHAT_IF,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (KsOccupancyView, ks_occupancy_view, GTK_TYPE_WIDGET)

static void
ks_occupancy_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  KsOccupancyView *self = KS_OCCUPANCY_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->analysis == NULL || self->chart.arch == NULL || w <= 0 || h <= 0)
    return;
  self->chart.dark = ks_widget_is_dark (widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ks_occupancy_chart_render (cr, &self->chart, w, h);
  cairo_destroy (cr);
}

static void
ks_occupancy_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  KsOccupancyView *self = KS_OCCUPANCY_VIEW (widget);
  double px = self->chart.font_size * 96.0 / 72.0;

  /* room for the title, the bar, the resources and three plots of some
   * height, in the view's text size */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) MAX (360, px * 30)
             : (int) MAX (200, px * 13);
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) MAX (1000, px * 80)
             : (int) MAX (320, px * 24);
}

static gboolean
value_under (KsOccupancyView  *self,
             double            x,
             double            y,
             KsOccupancyCurve *curve,
             uint32_t         *value)
{
  KsOccupancyChartLayout l;

  if (self->analysis == NULL || self->chart.arch == NULL)
    return FALSE;
  ks_occupancy_chart_layout (&self->chart, gtk_widget_get_width (GTK_WIDGET (self)),
                             gtk_widget_get_height (GTK_WIDGET (self)), &l);
  return ks_occupancy_chart_value_at (&self->chart, &l, x, y, curve, value);
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           KsOccupancyView          *self)
{
  KsOccupancyCurve k;
  uint32_t v;
  int curve = -1;

  if (value_under (self, x, y, &k, &v))
    curve = (int) k;
  if (curve != self->chart.hover_curve || (curve >= 0 && v != self->chart.hover_value))
    {
      self->chart.hover_curve = curve;
      self->chart.hover_value = curve >= 0 ? v : 0;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *motion,
          KsOccupancyView          *self)
{
  if (!self->dragging && self->chart.hover_curve != -1)
    {
      self->chart.hover_curve = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_drag_begin (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               KsOccupancyView *self)
{
  self->dragging = TRUE;
}

static void
on_drag_end (GtkGestureDrag  *gesture,
             double           dx,
             double           dy,
             KsOccupancyView *self)
{
  double x, y;
  KsOccupancyCurve k;
  uint32_t v;

  self->dragging = FALSE;
  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  if (value_under (self, x + dx, y + dy, &k, &v) && v != ks_occupancy_chart_current (&self->chart, k))
    g_signal_emit (self, signals[WHAT_IF], 0, (int) k, (guint) v);
}

static gboolean
on_key (GtkEventControllerKey *key,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        KsOccupancyView       *self)
{
  /* keyboard what-if on the block size: Left/Right a warp less or more */
  uint32_t bs = self->chart.input.block_size;

  if (self->analysis == NULL || self->chart.arch == NULL)
    return FALSE;
  if (keyval == GDK_KEY_Left && bs > 32)
    g_signal_emit (self, signals[WHAT_IF], 0, (int) KS_OCCUPANCY_CURVE_BLOCK_SIZE, bs - 32);
  else if (keyval == GDK_KEY_Right && bs + 32 <= self->chart.arch->max_threads_per_block)
    g_signal_emit (self, signals[WHAT_IF], 0, (int) KS_OCCUPANCY_CURVE_BLOCK_SIZE, bs + 32);
  else
    return FALSE;
  return TRUE;
}

static void
ks_occupancy_view_dispose (GObject *object)
{
  KsOccupancyView *self = KS_OCCUPANCY_VIEW (object);

  g_clear_pointer (&self->curves, ks_occupancy_curves_free);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  g_clear_pointer (&self->other_curves, ks_occupancy_curves_free);
  g_clear_pointer (&self->other, ks_analysis_unref);
  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->other_label, g_free);
  G_OBJECT_CLASS (ks_occupancy_view_parent_class)->dispose (object);
}

static void
ks_occupancy_view_class_init (KsOccupancyViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_occupancy_view_dispose;
  widget_class->snapshot = ks_occupancy_view_snapshot;
  widget_class->measure = ks_occupancy_view_measure;

  /**
   * KsOccupancyView::what-if:
   * @curve: a KsOccupancyCurve
   * @value: the block size, registers per thread or shared bytes to try
   */
  signals[WHAT_IF] = g_signal_new ("what-if", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "occupancychart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_occupancy_view_init (KsOccupancyView *self)
{
  GtkEventController *c;
  GtkGesture *g;

  ks_occupancy_chart_init (&self->chart);
  ks_widget_setup_input (GTK_WIDGET (self), _("Occupancy chart"), G_CALLBACK (on_key));

  c = gtk_event_controller_motion_new ();
  g_signal_connect (c, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (c, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), c);
  g = gtk_gesture_drag_new ();
  g_signal_connect (g, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (g, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g));
}

GtkWidget *
ks_occupancy_view_new (void)
{
  return g_object_new (KS_TYPE_OCCUPANCY_VIEW, NULL);
}

/* The chart of analysis a (its curves, which the caller frees); a chart
 * without an architecture when a has no launch or resources */
static KsOccupancyCurves *
chart_for (KsOccupancyChart *chart,
           KsAnalysis       *a)
{
  KsOccupancyInput *in = &chart->input;

  chart->arch = NULL;
  chart->result = NULL;
  chart->curves = NULL;
  if (a == NULL || a->arch == NULL || a->launch == NULL || a->resources == NULL)
    return NULL;
  ks_occupancy_input_init (in);
  in->block_size = a->launch->block[0] * a->launch->block[1] * a->launch->block[2];
  in->registers_per_thread = a->resources->registers;
  in->static_shared_bytes = a->resources->shared_static_bytes;
  in->dynamic_shared_bytes = a->launch->dynamic_shared_bytes;
  in->barriers = a->resources->barriers;
  in->shared_opt_in_set = TRUE;     /* as the analysis takes it (ks-analysis.c) */
  chart->arch = a->arch;
  chart->result = a->have_occupancy ? &a->occupancy : NULL;
  chart->error = a->occupancy_error;
  chart->curves = ks_occupancy_curves_new (a->arch, in);
  return (KsOccupancyCurves *) chart->curves;
}

void
ks_occupancy_view_set_other (KsOccupancyView *self,
                             KsAnalysis      *other,
                             const char      *label,
                             const char      *other_label)
{
  g_return_if_fail (KS_IS_OCCUPANCY_VIEW (self));

  if (other != NULL)
    ks_analysis_ref (other);
  g_clear_pointer (&self->other_curves, ks_occupancy_curves_free);
  g_clear_pointer (&self->other, ks_analysis_unref);
  g_free (self->label);
  g_free (self->other_label);
  self->other = other;
  self->label = g_strdup (label);
  self->other_label = g_strdup (other_label);
  ks_occupancy_chart_init (&self->other_chart);
  self->other_curves = chart_for (&self->other_chart, other);
  /* on the same axes only: the same architecture's limits */
  self->chart.other = self->other_chart.arch != NULL && self->chart.arch != NULL
                      && g_str_equal (self->other_chart.arch->id, self->chart.arch->id)
                        ? &self->other_chart : NULL;
  self->chart.label = self->label;
  self->chart.other_label = self->other_label;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ks_occupancy_view_set_analysis (KsOccupancyView *self,
                                KsAnalysis      *a)
{
  g_autofree char *label = NULL;

  g_return_if_fail (KS_IS_OCCUPANCY_VIEW (self));

  if (a != NULL)
    ks_analysis_ref (a);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  g_clear_pointer (&self->curves, ks_occupancy_curves_free);
  self->analysis = a;
  self->curves = chart_for (&self->chart, a);
  if (self->chart.arch != NULL)
    {
      if (a->have_occupancy)
        {
          g_autofree char *summary = ks_occupancy_summary (&a->occupancy);

          /* TRANSLATORS: the chart's accessible name, with ks_occupancy_summary's line */
          label = g_strdup_printf (_("Occupancy: %s"), summary);
        }
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Occupancy chart"), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  label ? label : _("No occupancy: run a kernel with a launch"),
                                  -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ks_occupancy_view_set_presentation (KsOccupancyView *self,
                                    gboolean         presentation)
{
  g_return_if_fail (KS_IS_OCCUPANCY_VIEW (self));
  self->chart.font_size = KS_RENDER_FONT_SIZE_FOR (presentation);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ks_occupancy_chart_render (cr, user_data, width, height);
}

gboolean
ks_occupancy_view_export (KsOccupancyView *self,
                          const char      *path,
                          int              width,
                          int              height,
                          GError         **error)
{
  KsOccupancyChart c;

  g_return_val_if_fail (KS_IS_OCCUPANCY_VIEW (self), FALSE);
  if (self->chart.arch == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no chart to export"));
      return FALSE;
    }
  c = self->chart;
  c.dark = FALSE;
  c.hover_curve = -1;
  return ks_render_export (path, width, height, export_draw, &c, error);
}
