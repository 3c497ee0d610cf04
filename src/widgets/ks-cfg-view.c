/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cfg-view.c: the control-flow graph widget. */

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ks-cfg-render.h"
#include "ks-cfg-view.h"
#include "ks-render-export.h"
#include "ks-widget-util.h"

struct _KsCfgView
{
  GtkWidget parent_instance;

  KsAnalysis *analysis;
  KsCfgLayout *layout;
  KsCfgViewState state;
  gboolean presentation;
  gboolean fitted;              /* keep the whole graph in view until zoomed or panned */
  double drag_x, drag_y;
  double pointer_x, pointer_y;
};

enum
{
  LINE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (KsCfgView, ks_cfg_view, GTK_TYPE_WIDGET)

static const KsSimInsnStats *
stats_of (KsCfgView *self)
{
  return self->analysis && self->analysis->sim ? ks_sim_get_insn_stats (self->analysis->sim) : NULL;
}

static double
font_size (KsCfgView *self)
{
  return KS_RENDER_FONT_SIZE_FOR (self->presentation);
}

/* The graph scaled to fit above the legend, never enlarged past its own
 * size, centred across */
static void
fit (KsCfgView *self,
     int        width,
     int        height)
{
  double room_h, scale;

  if (self->layout == NULL || width <= 0 || height <= 0)
    return;
  room_h = MAX (height - ks_cfg_legend_height (font_size (self), width), 1);
  scale = MIN (width / self->layout->width, room_h / self->layout->height);
  self->state.scale = CLAMP (scale, 0.1, 1);
  self->state.offset_x = -(width / self->state.scale - self->layout->width) / 2;
  self->state.offset_y = 0;
}

static void
update_description (KsCfgView *self)
{
  const KsSimInsnStats *stats = self->analysis && self->analysis->sim
                                ? ks_sim_get_insn_stats (self->analysis->sim) : NULL;
  const KsPtxModule *m = self->analysis ? self->analysis->module : NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->layout == NULL || m == NULL)
    g_string_append (text, _("No kernel to draw"));
  else
    {
      const KsPtxFunction *fn = &m->functions[self->layout->function];
      const KsPtxBlock *blocks = m->blocks + fn->first_block;
      uint64_t most = 0;
      int64_t busiest = -1;
      guint splits = 0;

      g_string_append_printf (text, ngettext ("%u basic block in %u layer", "%u basic blocks in "
                                              "%u layers", self->layout->n_nodes),
                              self->layout->n_nodes, self->layout->n_layers);
      for (uint32_t b = 0; stats != NULL && b < self->layout->n_nodes; b++)
        {
          const KsPtxBlock *pb = &blocks[b];
          uint32_t first = fn->first_insn + pb->first_insn, last = first + pb->n_insns - 1;

          if (pb->n_insns == 0 || last >= m->n_insns)
            continue;
          if (stats[first].warp_executions > most)
            {
              most = stats[first].warp_executions;
              busiest = b;
            }
          if (stats[last].divergent > 0)
            {
              splits++;
              if (pb->ipdom < self->layout->n_nodes)
                g_string_append_printf (text, _("; B%u splits warps, which rejoin at B%u"), b,
                                        pb->ipdom);
              else
                g_string_append_printf (text, _("; B%u splits warps, which rejoin only at the "
                                                "exit"), b);
            }
        }
      if (busiest >= 0)
        {
          g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, most);

          g_string_append_printf (text, _("; the busiest is B%u (PTX lines %u-%u), run %s times "
                                          "by warps"), (guint) busiest,
                                  self->layout->nodes[busiest].first_line,
                                  self->layout->nodes[busiest].last_line, n);
        }
      if (stats != NULL && splits == 0)
        g_string_append (text, _("; no branch split a warp"));
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
}

static void
relayout (KsCfgView *self)
{
  g_clear_pointer (&self->layout, ks_cfg_layout_free);
  if (self->analysis != NULL && self->analysis->module != NULL && self->analysis->kernel_index >= 0)
    self->layout = ks_cfg_layout_new (self->analysis->module, (uint32_t) self->analysis->kernel_index,
                                      font_size (self));
  self->state.projector = self->presentation;
  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ks_cfg_view_zoom_to_fit (KsCfgView *self)
{
  g_return_if_fail (KS_IS_CFG_VIEW (self));

  /* done at the next allocation too: a view not yet shown has no size */
  self->fitted = TRUE;
  fit (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ks_cfg_view_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  KsCfgView *self = KS_CFG_VIEW (widget);

  if (self->fitted)
    fit (self, width, height);
}

static void
ks_cfg_view_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  KsCfgView *self = KS_CFG_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->layout == NULL || w <= 0 || h <= 0)
    return;
  self->state.dark = ks_widget_is_dark (widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  ks_cfg_render (cr, self->analysis->module, self->layout, stats_of (self), &self->state, w, h);
  cairo_destroy (cr);
}

static void
ks_cfg_view_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  KsCfgView *self = KS_CFG_VIEW (widget);

  /* the graph zooms to fit, so it asks only for room for its legend */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 100
             : (int) ks_cfg_legend_height (font_size (self), 600) + 60;
  *natural = self->layout == NULL ? 300
             : (int) (orientation == GTK_ORIENTATION_HORIZONTAL ? self->layout->width
                      : self->layout->height + ks_cfg_legend_height (font_size (self),
                                                                     self->layout->width));
  /* a one-block graph is smaller than the minimum, and GTK wants natural >= minimum */
  *natural = MAX (*natural, *minimum);
}

static void
zoom_at (KsCfgView *self,
         double     factor,
         double     x,
         double     y)
{
  double gx = x / self->state.scale + self->state.offset_x;
  double gy = y / self->state.scale + self->state.offset_y;

  self->fitted = FALSE;
  self->state.scale = CLAMP (self->state.scale * factor, 0.1, 8);
  self->state.offset_x = gx - x / self->state.scale;
  self->state.offset_y = gy - y / self->state.scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KsCfgView *self = KS_CFG_VIEW (widget);
  double cx = gtk_widget_get_width (widget) / 2.0, cy = gtk_widget_get_height (widget) / 2.0;

  if (g_str_equal (action_name, "cfg.zoom-in"))
    zoom_at (self, 1.25, cx, cy);
  else if (g_str_equal (action_name, "cfg.zoom-out"))
    zoom_at (self, 0.8, cx, cy);
  else
    ks_cfg_view_zoom_to_fit (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           KsCfgView                *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (mods & GDK_CONTROL_MASK)
    zoom_at (self, pow (1.2, -dy), self->pointer_x, self->pointer_y);
  else
    {
      self->fitted = FALSE;
      self->state.offset_x += dx * 30 / self->state.scale;
      self->state.offset_y += dy * 30 / self->state.scale;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           KsCfgView                *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               KsCfgView      *self)
{
  self->fitted = FALSE;
  self->drag_x = self->state.offset_x;
  self->drag_y = self->state.offset_y;
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                KsCfgView      *self)
{
  self->state.offset_x = self->drag_x - dx / self->state.scale;
  self->state.offset_y = self->drag_y - dy / self->state.scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_click (GtkGestureClick *gesture,
          int              n_press,
          double           x,
          double           y,
          KsCfgView       *self)
{
  int64_t b;

  if (self->layout == NULL)
    return;
  b = ks_cfg_hit (self->layout, &self->state, x, y);
  self->state.selected = b;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (b >= 0)
    g_signal_emit (self, signals[LINE_SELECTED], 0, self->layout->nodes[b].first_line);
}

static void
ks_cfg_view_dispose (GObject *object)
{
  KsCfgView *self = KS_CFG_VIEW (object);

  g_clear_pointer (&self->layout, ks_cfg_layout_free);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  G_OBJECT_CLASS (ks_cfg_view_parent_class)->dispose (object);
}

static void
ks_cfg_view_class_init (KsCfgViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_cfg_view_dispose;
  widget_class->snapshot = ks_cfg_view_snapshot;
  widget_class->size_allocate = ks_cfg_view_size_allocate;
  widget_class->measure = ks_cfg_view_measure;

  /**
   * KsCfgView::line-selected:
   * @line: the first PTX line of the clicked block
   */
  signals[LINE_SELECTED] = g_signal_new ("line-selected", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                         G_TYPE_UINT);
  gtk_widget_class_install_action (widget_class, "cfg.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "cfg.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "cfg.zoom-reset", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "cfg.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "cfg.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "cfg.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "cfg.zoom-reset", NULL);
  gtk_widget_class_set_css_name (widget_class, "cfgview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_cfg_view_init (KsCfgView *self)
{
  GtkEventController *c;
  GtkGesture *g;

  ks_cfg_view_state_init (&self->state);
  self->state.legend = TRUE;
  self->fitted = TRUE;
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  ks_widget_setup_input (GTK_WIDGET (self), _("Control-flow graph"), NULL);
  update_description (self);
  c = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (c, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), c);
  c = gtk_event_controller_motion_new ();
  g_signal_connect (c, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), c);
  g = gtk_gesture_drag_new ();
  g_signal_connect (g, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (g, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g));
  g = gtk_gesture_click_new ();
  g_signal_connect (g, "pressed", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g));
}

GtkWidget *
ks_cfg_view_new (void)
{
  return g_object_new (KS_TYPE_CFG_VIEW, NULL);
}

void
ks_cfg_view_set_analysis (KsCfgView  *self,
                          KsAnalysis *analysis)
{
  g_return_if_fail (KS_IS_CFG_VIEW (self));

  if (analysis != NULL)
    ks_analysis_ref (analysis);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  self->analysis = analysis;
  self->state.selected = -1;
  relayout (self);
  /* a new analysis opens on the whole graph */
  ks_cfg_view_zoom_to_fit (self);
}

void
ks_cfg_view_set_presentation (KsCfgView *self,
                              gboolean   presentation)
{
  g_return_if_fail (KS_IS_CFG_VIEW (self));
  self->presentation = !!presentation;
  relayout (self);
  if (self->fitted)
    ks_cfg_view_zoom_to_fit (self);
}

typedef struct
{
  KsCfgView *self;
  KsCfgViewState state;
} ExportData;

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ExportData *d = user_data;

  ks_cfg_render (cr, d->self->analysis->module, d->self->layout, stats_of (d->self), &d->state,
                 width, height);
}

gboolean
ks_cfg_view_export (KsCfgView   *self,
                    const char  *path,
                    GError     **error)
{
  ExportData d;

  g_return_val_if_fail (KS_IS_CFG_VIEW (self), FALSE);
  if (self->layout == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no graph to export"));
      return FALSE;
    }
  /* the whole graph, at its own size */
  d.self = self;
  ks_cfg_view_state_init (&d.state);
  d.state.projector = self->state.projector;
  d.state.legend = TRUE;
  return ks_render_export (path, self->layout->width,
                           self->layout->height + ks_cfg_legend_height (font_size (self),
                                                                        self->layout->width),
                           export_draw, &d, error);
}
