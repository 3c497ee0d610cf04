/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lane-view.c: the lane view widget. */

#include <glib/gi18n-lib.h>

#include "ks-lane-view.h"
#include "ks-lanes-render.h"
#include "ks-render-export.h"
#include "ks-widget-util.h"

struct _KsLaneView
{
  GtkWidget parent_instance;

  KsAnalysis *analysis;
  KsLaneTrace *trace;
  uint32_t step;
  KsLanesStyle style;
};

enum
{
  STEP_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (KsLaneView, ks_lane_view, GTK_TYPE_WIDGET)

static void
ks_lane_view_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  KsLaneView *self = KS_LANE_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (w <= 0 || h <= 0 || self->analysis == NULL || self->analysis->module == NULL)
    return;
  self->style.dark = ks_widget_is_dark (widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ks_lanes_render (cr, self->analysis->module, self->trace, self->step, &self->style, w, h);
  cairo_destroy (cr);
}

static void
ks_lane_view_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  KsLaneView *self = KS_LANE_VIEW (widget);
  double px = self->style.font_size * 96.0 / 72.0;

  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) (px * 40) : (int) (px * 10);
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) (px * 110) : (int) (px * 20);
}

void
ks_lane_view_set_step (KsLaneView *self,
                       uint32_t    step)
{
  g_return_if_fail (KS_IS_LANE_VIEW (self));
  if (self->trace == NULL || self->trace->n_steps == 0)
    return;
  step = MIN (step, self->trace->n_steps - 1);
  if (step == self->step)
    return;
  self->step = step;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[STEP_CHANGED], 0, self->trace->steps[step].insn);
}

uint32_t
ks_lane_view_get_step (KsLaneView *self)
{
  g_return_val_if_fail (KS_IS_LANE_VIEW (self), 0);
  return self->step;
}

static gboolean
on_key (GtkEventControllerKey *key,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        KsLaneView            *self)
{
  if (self->trace == NULL)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Right:
      ks_lane_view_set_step (self, self->step + 1);
      return TRUE;
    case GDK_KEY_Left:
      ks_lane_view_set_step (self, self->step > 0 ? self->step - 1 : 0);
      return TRUE;
    case GDK_KEY_Home:
      ks_lane_view_set_step (self, 0);
      return TRUE;
    case GDK_KEY_End:
      ks_lane_view_set_step (self, G_MAXUINT32);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
ks_lane_view_dispose (GObject *object)
{
  KsLaneView *self = KS_LANE_VIEW (object);

  g_clear_pointer (&self->trace, ks_lane_trace_free);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  G_OBJECT_CLASS (ks_lane_view_parent_class)->dispose (object);
}

static void
ks_lane_view_class_init (KsLaneViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_lane_view_dispose;
  widget_class->snapshot = ks_lane_view_snapshot;
  widget_class->measure = ks_lane_view_measure;

  /**
   * KsLaneView::step-changed:
   * @insn: the module instruction of the step now shown
   */
  signals[STEP_CHANGED] = g_signal_new ("step-changed", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                        G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "laneview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_lane_view_init (KsLaneView *self)
{
  ks_lanes_style_init (&self->style);
  ks_widget_setup_input (GTK_WIDGET (self), _("Lane view"), G_CALLBACK (on_key));
}

GtkWidget *
ks_lane_view_new (void)
{
  return g_object_new (KS_TYPE_LANE_VIEW, NULL);
}

void
ks_lane_view_set_trace (KsLaneView  *self,
                        KsAnalysis  *analysis,
                        KsLaneTrace *trace)
{
  g_return_if_fail (KS_IS_LANE_VIEW (self));

  if (analysis != NULL)
    ks_analysis_ref (analysis);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  g_clear_pointer (&self->trace, ks_lane_trace_free);
  self->analysis = analysis;
  self->trace = trace;
  self->step = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ks_lane_view_set_presentation (KsLaneView *self,
                               gboolean    presentation)
{
  g_return_if_fail (KS_IS_LANE_VIEW (self));
  self->style.font_size = presentation ? 14 : 9;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  KsLaneView *self = user_data;
  KsLanesStyle st = self->style;

  st.dark = FALSE;
  ks_lanes_render (cr, self->analysis->module, self->trace, self->step, &st, width, height);
}

gboolean
ks_lane_view_export (KsLaneView  *self,
                     const char  *path,
                     int          width,
                     int          height,
                     GError     **error)
{
  g_return_val_if_fail (KS_IS_LANE_VIEW (self), FALSE);
  if (self->trace == NULL || self->analysis == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There are no lanes to export"));
      return FALSE;
    }
  return ks_render_export (path, width, height, export_draw, self, error);
}
