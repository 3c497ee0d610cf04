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

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = (int) (px * 40);
      *natural = (int) (px * 110);
    }
  else
    {
      /* every row of the step: the scrolled window scrolls to them */
      *minimum = (int) ks_lanes_content_height (&self->style, self->trace, self->step);
      *natural = *minimum;
    }
}

/* What the step shows, in words: the instruction, the lanes, and every
 * lane's full value of each register (the cells may shorten them) */
static void
update_description (KsLaneView *self)
{
  const KsPtxModule *m = self->analysis ? self->analysis->module : NULL;
  const KsLaneTrace *t = self->trace;
  g_autoptr(GString) text = g_string_new (NULL);
  const KsLaneStep *st;

  if (m == NULL || t == NULL || t->n_steps == 0)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _("No warp followed: pick a row of the timeline"), -1);
      return;
    }
  st = &t->steps[MIN (self->step, t->n_steps - 1)];
  {
    g_autofree char *line = ks_ptx_module_line_text (m, m->insns[st->insn].line);

    g_string_append_printf (text, _("%s; block %u, warp %u: step %u of %u, PTX line %u; %u lanes "
                                    "on the path, %u ran it"), line, t->cta, t->warp,
                            self->step + 1, t->n_steps, m->insns[st->insn].line,
                            (unsigned) __builtin_popcount (st->active),
                            (unsigned) __builtin_popcount (st->executed));
  }
  for (uint32_t i = 0; i < st->n_values; i++)
    {
      const KsLaneValue *v = &t->values[st->first_value + i];
      g_autofree char *name = ks_lane_value_name (m, v);

      g_string_append_printf (text, v->written ? _("; %s after:") : _("; %s before:"), name);
      for (uint32_t l = 0; l < 32; l++)
        if (!v->written || ((st->executed >> l) & 1))
          {
            g_autofree char *value = ks_lanes_format (m, v, l);

            g_string_append_printf (text, _(" lane %u %s,"), l, value);
          }
      if (text->str[text->len - 1] == ',')
        g_string_truncate (text, text->len - 1);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
}

/* A cell's full value: the cells shorten long ones */
static gboolean
ks_lane_view_query_tooltip (GtkWidget  *widget,
                            int         x,
                            int         y,
                            gboolean    keyboard,
                            GtkTooltip *tooltip)
{
  KsLaneView *self = KS_LANE_VIEW (widget);
  const KsLaneTrace *t = self->trace;
  const KsLaneStep *st;
  uint32_t row, lane;
  g_autofree char *text = NULL;

  if (t == NULL || t->n_steps == 0 || self->analysis == NULL || self->analysis->module == NULL
      || !ks_lanes_hit (&self->style, gtk_widget_get_width (widget), x, y, &row, &lane))
    return FALSE;
  st = &t->steps[MIN (self->step, t->n_steps - 1)];
  if (row == 0)
    text = g_strdup_printf (((st->active >> lane) & 1) ? _("lane %u is on the warp's path")
                            : _("lane %u is off the warp's path (parked at a branch)"), lane);
  else if (row == 1)
    text = g_strdup_printf (((st->executed >> lane) & 1) ? _("lane %u ran the instruction")
                            : _("lane %u did not run it (its guard was false, or it is off the "
                                "path)"),
                            lane);
  else if (row - 2 < st->n_values)
    {
      const KsLaneValue *v = &t->values[st->first_value + row - 2];
      g_autofree char *name = ks_lane_value_name (self->analysis->module, v);
      g_autofree char *value = ks_lanes_format (self->analysis->module, v, lane);

      if (v->written && !((st->executed >> lane) & 1))
        text = g_strdup_printf (_("lane %u: %s not written"), lane, name);
      else
        text = g_strdup_printf (v->written ? _("lane %u: %s after = %s")
                                : _("lane %u: %s before = %s"), lane, name, value);
    }
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
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
  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
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
  widget_class->query_tooltip = ks_lane_view_query_tooltip;

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
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  update_description (self);
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
  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ks_lane_view_set_presentation (KsLaneView *self,
                               gboolean    presentation)
{
  g_return_if_fail (KS_IS_LANE_VIEW (self));
  self->style.font_size = KS_RENDER_FONT_SIZE_FOR (presentation);
  self->style.projector = !!presentation;
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
  /* every row of the step, whatever height was asked for */
  return ks_render_export (path, width,
                           MAX (height, ks_lanes_content_height (&self->style, self->trace,
                                                                 self->step)),
                           export_draw, self, error);
}
