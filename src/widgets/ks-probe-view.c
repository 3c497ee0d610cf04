/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-view.c: the Probe Lab's sweep plot widget. */

#include <glib/gi18n-lib.h>

#include "ks-occupancy.h"
#include "ks-probe-render.h"
#include "ks-probe-view.h"
#include "ks-render-export.h"
#include "ks-widget-util.h"

struct _KsProbeView
{
  GtkWidget parent_instance;
  KsProbeChart chart;
  char *other_label;            /* chart.other_label's */
};

G_DEFINE_FINAL_TYPE (KsProbeView, ks_probe_view, GTK_TYPE_WIDGET)

static void
ks_probe_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  KsProbeView *self = KS_PROBE_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->chart.result == NULL || w <= 0 || h <= 0)
    return;
  self->chart.dark = ks_widget_is_dark (widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ks_probe_chart_render (cr, &self->chart, w, h);
  cairo_destroy (cr);
}

static void
ks_probe_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  KsProbeView *self = KS_PROBE_VIEW (widget);
  double px = self->chart.font_size * 96.0 / 72.0;

  /* room for the title, the axes' labels and a plot that still shows its steps */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) MAX (240, px * 17)
             : (int) MAX (160, px * 11);
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) MAX (560, px * 48)
             : (int) MAX (300, px * 22);
}

static void
set_hover (KsProbeView *self,
           int          hover)
{
  if (self->chart.hover != hover)
    {
      self->chart.hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_motion (GtkEventControllerMotion *c,
           double                    x,
           double                    y,
           KsProbeView              *self)
{
  GtkWidget *w = GTK_WIDGET (self);

  set_hover (self, ks_probe_chart_point_at (&self->chart, gtk_widget_get_width (w),
                                            gtk_widget_get_height (w), x, y));
}

static void
on_leave (GtkEventControllerMotion *c,
          KsProbeView              *self)
{
  set_hover (self, -1);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  KsProbeView *self = KS_PROBE_VIEW (widget);
  const KsProbeResult *r = self->chart.result;
  int i;
  const KsProbePoint *p;
  g_autofree char *xs = NULL, *text = NULL;
  GString *s;

  if (r == NULL)
    return FALSE;
  i = ks_probe_chart_point_at (&self->chart, gtk_widget_get_width (widget),
                               gtk_widget_get_height (widget), x, y);
  if (i < 0)
    return FALSE;
  p = &g_array_index (r->points, KsProbePoint, i);
  xs = ks_probe_chart_format_x (r, p->x);
  s = g_string_new (NULL);
  g_string_append_printf (s, "%s: %s\n", _(ks_probe_template_axis (r->tmpl)), xs);
  g_string_append_printf (s, _("%.3f cycles per instruction (%llu cycles, %llu instructions)"),
                          p->cycles_per_instruction, (unsigned long long) p->total_cycles,
                          (unsigned long long) p->instructions);
  if (p->corrected == p->corrected)
    g_string_append_printf (s, _("\n%.3f less the empty loop"), p->corrected);
  if (p->ways == p->ways)
    g_string_append_printf (s, _("\n%.2f passes per shared-memory load"), p->ways);
  if (p->resident_warps >= 0 && p->registers >= 0)
    /* TRANSLATORS: "137 registers a thread: 12 warps an SM (registers limit them)" */
    g_string_append_printf (s, _("\n%d registers a thread: %d warps an SM (%s limit them)"),
                            p->registers, p->resident_warps,
                            ks_occupancy_limiter_label (p->limiter));
  if (g_strcmp0 (r->ran_on, "model") == 0)
    g_string_append_printf (s, "\n%s", _("The timing model's figure, not a measurement"));
  text = g_string_free (s, FALSE);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ks_probe_view_finalize (GObject *object)
{
  g_free (KS_PROBE_VIEW (object)->other_label);
  G_OBJECT_CLASS (ks_probe_view_parent_class)->finalize (object);
}

static void
ks_probe_view_class_init (KsProbeViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ks_probe_view_finalize;
  widget_class->snapshot = ks_probe_view_snapshot;
  widget_class->measure = ks_probe_view_measure;
  gtk_widget_class_set_css_name (widget_class, "probeplot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_probe_view_init (KsProbeView *self)
{
  GtkEventController *c;

  ks_probe_chart_init (&self->chart);
  ks_widget_setup_input (GTK_WIDGET (self), _("Sweep plot"), NULL);
  c = gtk_event_controller_motion_new ();
  g_signal_connect (c, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (c, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), c);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkWidget *
ks_probe_view_new (void)
{
  return g_object_new (KS_TYPE_PROBE_VIEW, NULL);
}

/* The plot in words: the sweep, and the second series after it */
static void
update_description (KsProbeView *self)
{
  const KsProbeResult *result = self->chart.result, *other = self->chart.other;
  g_autofree char *description = NULL;

  description = result ? ks_probe_chart_describe (result) : NULL;
  if (description != NULL && other != NULL && other->tmpl == result->tmpl
      && other->points->len > 0)
    {
      g_autofree char *more = ks_probe_chart_describe (other);
      char *both = g_strdup_printf ("%s %s: %s", description, self->chart.other_label, more);

      g_free (description);
      description = both;
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Sweep plot"), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description ? description : _("No sweep: run an experiment"),
                                  -1);
}

void
ks_probe_view_set_result (KsProbeView         *self,
                          const KsProbeResult *result)
{
  g_return_if_fail (KS_IS_PROBE_VIEW (self));
  self->chart.result = result != NULL && result->points->len > 0 ? result : NULL;
  self->chart.hover = -1;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ks_probe_view_set_other (KsProbeView         *self,
                         const KsProbeResult *other,
                         const char          *label)
{
  g_return_if_fail (KS_IS_PROBE_VIEW (self));
  g_free (self->other_label);
  self->other_label = g_strdup (label ? label : "");
  self->chart.other = other;
  self->chart.other_label = self->other_label;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ks_probe_view_set_presentation (KsProbeView *self,
                                gboolean     presentation)
{
  g_return_if_fail (KS_IS_PROBE_VIEW (self));
  self->chart.font_size = KS_RENDER_FONT_SIZE_FOR (presentation);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ks_probe_chart_render (cr, user_data, width, height);
}

gboolean
ks_probe_view_export (KsProbeView *self,
                      const char  *path,
                      int          width,
                      int          height,
                      GError     **error)
{
  KsProbeChart c;

  g_return_val_if_fail (KS_IS_PROBE_VIEW (self), FALSE);
  if (self->chart.result == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no sweep to export"));
      return FALSE;
    }
  c = self->chart;
  c.dark = FALSE;
  c.hover = -1;
  return ks_render_export (path, width, height, export_draw, &c, error);
}
