/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-timeline.c: the warp timeline widget.
 *
 * The picture comes from ks_timeline_render(); the widget keeps it as a
 * texture node and draws it again as it is while only the hover or the
 * selection changes, so moving the pointer costs an outline, not a
 * picture.  Zoom and scroll are view state, changed by the gestures and the
 * timeline.* actions. */

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ks-render-export.h"
#include "ks-sass.h"
#include "ks-timeline.h"
#include "ks-timeline-render.h"
#include "ks-widget-util.h"

#define MIN_CYCLES_PER_PIXEL (1.0 / 64)

struct _KsTimeline
{
  GtkWidget parent_instance;

  KsAnalysis *analysis;
  uint32_t *order;              /* rows in drawing order */
  KsTimelineView view;
  gboolean presentation;
  gboolean fitted;              /* zoom follows the width until the user zooms */

  GskRenderNode *cache;         /* the picture without hover and selection */
  uint32_t *overview;           /* the overview strip's counts, for overview_width columns */
  int overview_width;
  int cache_width, cache_height;

  double said_first, said_cpp;  /* the range "range-changed" last told */
  double drag_first_cycle;
  uint32_t drag_first_row;
  double zoom_start_cpp;
  double pointer_x;
};

enum
{
  PROP_0,
  PROP_PRESENTATION,
  N_PROPS
};

enum
{
  INSTRUCTION_SELECTED,
  RANGE_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (KsTimeline, ks_timeline, GTK_TYPE_WIDGET)

static const KsTiming *
timing_of (KsTimeline *self)
{
  return self->analysis != NULL ? self->analysis->timing : NULL;
}

static void
invalidate (KsTimeline *self)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
clamp_view (KsTimeline *self)
{
  const KsTiming *t = timing_of (self);
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  KsTimelineLayout l;
  double span, cycles;
  uint32_t visible_rows;

  if (t == NULL)
    return;
  ks_timeline_layout (&self->view, w, h, &l);
  cycles = MAX ((double) t->cycles, self->view.axis_cycles);
  self->view.cycles_per_pixel = CLAMP (self->view.cycles_per_pixel, MIN_CYCLES_PER_PIXEL,
                                       MAX (cycles / MAX (l.plot_width, 1), MIN_CYCLES_PER_PIXEL));
  span = l.plot_width * self->view.cycles_per_pixel;
  self->view.first_cycle = CLAMP (self->view.first_cycle, 0, MAX (cycles - span, 0));
  visible_rows = (uint32_t) MAX (l.rows_height / self->view.row_height, 1);
  if (self->view.first_row + visible_rows > t->n_warps)
    self->view.first_row = t->n_warps > visible_rows ? t->n_warps - visible_rows : 0;
  if (self->view.first_cycle != self->said_first || self->view.cycles_per_pixel != self->said_cpp)
    {
      self->said_first = self->view.first_cycle;
      self->said_cpp = self->view.cycles_per_pixel;
      g_signal_emit (self, signals[RANGE_CHANGED], 0);
    }
}

void
ks_timeline_set_axis_cycles (KsTimeline *self,
                             double      cycles)
{
  g_return_if_fail (KS_IS_TIMELINE (self));
  self->view.axis_cycles = MAX (cycles, 0);
  if (self->fitted && timing_of (self) != NULL)
    ks_timeline_view_fit (&self->view, timing_of (self), gtk_widget_get_width (GTK_WIDGET (self)),
                          gtk_widget_get_height (GTK_WIDGET (self)));
  clamp_view (self);
  invalidate (self);
}

void
ks_timeline_set_view (KsTimeline *self,
                      double      first_cycle,
                      double      cycles_per_pixel)
{
  g_return_if_fail (KS_IS_TIMELINE (self));
  if (first_cycle == self->view.first_cycle && cycles_per_pixel == self->view.cycles_per_pixel)
    return;
  self->view.first_cycle = first_cycle;
  self->view.cycles_per_pixel = cycles_per_pixel;
  self->fitted = FALSE;
  clamp_view (self);
  invalidate (self);
}

void
ks_timeline_get_view (KsTimeline *self,
                      double     *first_cycle,
                      double     *cycles_per_pixel)
{
  g_return_if_fail (KS_IS_TIMELINE (self));
  *first_cycle = self->view.first_cycle;
  *cycles_per_pixel = self->view.cycles_per_pixel;
}

void
ks_timeline_zoom_fit (KsTimeline *self)
{
  const KsTiming *t;

  g_return_if_fail (KS_IS_TIMELINE (self));
  t = timing_of (self);
  if (t == NULL)
    return;
  ks_timeline_view_fit (&self->view, t, gtk_widget_get_width (GTK_WIDGET (self)),
                        gtk_widget_get_height (GTK_WIDGET (self)));
  self->fitted = TRUE;
  clamp_view (self);
  invalidate (self);
}

void
ks_timeline_zoom_at (KsTimeline *self,
                     double      factor,
                     double      x)
{
  KsTimelineLayout l;
  double cycle;

  g_return_if_fail (KS_IS_TIMELINE (self));
  if (timing_of (self) == NULL || factor <= 0)
    return;
  ks_timeline_layout (&self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                      gtk_widget_get_height (GTK_WIDGET (self)), &l);
  x = CLAMP (x - l.plot_left, 0, l.plot_width);
  cycle = self->view.first_cycle + x * self->view.cycles_per_pixel;
  self->view.cycles_per_pixel /= factor;
  self->view.first_cycle = cycle - x * self->view.cycles_per_pixel;
  self->fitted = FALSE;
  clamp_view (self);
  invalidate (self);
}

void
ks_timeline_get_range (KsTimeline *self,
                       double     *first_cycle,
                       double     *last_cycle)
{
  KsTimelineLayout l;

  g_return_if_fail (KS_IS_TIMELINE (self));
  ks_timeline_layout (&self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                      gtk_widget_get_height (GTK_WIDGET (self)), &l);
  if (first_cycle)
    *first_cycle = self->view.first_cycle;
  if (last_cycle)
    *last_cycle = self->view.first_cycle + l.plot_width * self->view.cycles_per_pixel;
}

static void
apply_presentation (KsTimeline *self)
{
  /* a projector: larger text and rows, thicker everything */
  self->view.font_size = KS_RENDER_FONT_SIZE_FOR (self->presentation);
  self->view.row_height = round (14 * self->view.font_size / KS_RENDER_FONT_SIZE);
  self->view.projector = self->presentation;
}

static void
ks_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  KsTimeline *self = KS_TIMELINE (widget);
  const KsTiming *t = timing_of (self);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (t == NULL || w <= 0 || h <= 0)
    {
      /* a run the model does not time says why */
      if (t == NULL && self->analysis != NULL && self->analysis->timing_error != NULL)
        {
          /* (a sentence of its own: capitalized) */
          const char *e = self->analysis->timing_error;
          gunichar c = g_unichar_totitle (g_utf8_get_char (e));
          char first[8] = { 0 };
          g_autofree char *text = NULL;

          g_unichar_to_utf8 (c, first);
          text = g_strconcat (first, g_utf8_next_char (e), NULL);
          ks_widget_snapshot_message (widget, snapshot, text);
        }
      return;
    }
  if (self->fitted)
    ks_timeline_view_fit (&self->view, t, w, h);
  self->view.dark = ks_widget_is_dark (widget);

  if (self->cache == NULL || self->cache_width != w || self->cache_height != h)
    {
      /* The picture as a texture: the renderer uploads it once and draws
       * it again as it is for every frame until the view changes */
      int scale = gtk_widget_get_scale_factor (widget);
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
      KsTimelineView plain = self->view;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GdkTexture) texture = NULL;

      g_clear_pointer (&self->cache, gsk_render_node_unref);
      plain.hover_event = -1;
      plain.selected_event = -1;
      {
        KsTimelineLayout l;

        /* the overview only changes with the width: counted once for it */
        ks_timeline_layout (&self->view, w, h, &l);
        if (self->overview == NULL || self->overview_width != (int) MAX (l.plot_width, 1))
          {
            g_free (self->overview);
            self->overview_width = (int) MAX (l.plot_width, 1);
            self->overview = ks_timeline_overview_density (t, (uint32_t) self->overview_width);
          }
        plain.overview = self->overview;
        plain.n_overview = (uint32_t) self->overview_width;
      }
      cr = cairo_create (surface);
      cairo_scale (cr, scale, scale);
      ks_timeline_render (cr, t, self->analysis->module, &plain, w, h);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                          (gsize) cairo_image_surface_get_stride (surface) * h * scale,
                                          (GDestroyNotify) cairo_surface_destroy, surface);
      texture = gdk_memory_texture_new (w * scale, h * scale, GDK_MEMORY_DEFAULT, bytes,
                                        (gsize) cairo_image_surface_get_stride (surface));
      self->cache = gsk_texture_node_new (texture, &GRAPHENE_RECT_INIT (0, 0, w, h));
      self->cache_width = w;
      self->cache_height = h;
    }
  gtk_snapshot_append_node (snapshot, self->cache);
  /* hover and selection: borders over the picture, no redraw of it */
  {
    const int64_t events[2] = { self->view.hover_event, self->view.selected_event };
    const float widths[2] = { 1, 2 };
    GdkRGBA fg;

    ks_widget_get_fg (widget, &fg);
    for (guint i = 0; i < 2; i++)
      {
        double x, y, bw, bh;
        GskRoundedRect r;
        GdkRGBA c = fg;

        if (!ks_timeline_event_rect (t, self->order, &self->view, w, h, events[i], &x, &y, &bw, &bh))
          continue;
        if (i == 0)
          c.alpha = 0.6f;
        gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT (x, y, bw, bh), 0);
        gtk_snapshot_append_border (snapshot, &r,
                                    (const float[4]) { widths[i], widths[i], widths[i], widths[i] },
                                    (const GdkRGBA[4]) { c, c, c, c });
      }
  }
}

static void
ks_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  KsTimeline *self = KS_TIMELINE (widget);

  g_clear_pointer (&self->cache, gsk_render_node_unref);
  clamp_view (self);
}

static void
ks_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  KsTimeline *self = KS_TIMELINE (widget);
  const KsTiming *t = timing_of (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 200;
      *natural = 800;
    }
  else
    {
      *minimum = 120;
      *natural = 120 + (int) (self->view.row_height * (t ? MIN (t->n_warps, 32) : 8));
    }
}

/* A stall reason in the legend's words, translated: Nsight Compute's names
 * (ks_stall_reason_name) are for the JSON report and the command line */
static const char *
stall_label (KsStallReason reason)
{
  switch (reason)
    {
    case KS_STALL_SELECTED: return _("selected");
    case KS_STALL_LONG_SCOREBOARD: return _("memory");
    case KS_STALL_SHORT_SCOREBOARD: return _("shared/MUFU");
    case KS_STALL_WAIT: return _("dependency");
    case KS_STALL_MATH_PIPE_THROTTLE: return _("math pipe throttle");
    case KS_STALL_MIO_THROTTLE: return _("MIO throttle");
    case KS_STALL_LG_THROTTLE: return _("LG throttle");
    case KS_STALL_BARRIER: return _("barrier");
    case KS_STALL_BRANCH_RESOLVING: return _("branch");
    case KS_STALL_NOT_SELECTED: return _("not selected");
    case KS_STALL_NO_INSTRUCTION: return _("no instruction");
    default: return ks_stall_reason_name (reason);
    }
}

/* What the picture shows, for a screen reader: the rows, the cycles, how
 * busy the issue was and what the warps waited for most */
static char *
describe_run (const KsTiming *t)
{
  g_autofree char *warps = NULL, *blocks = NULL;
  uint64_t stalled = 0, most = 0;
  guint worst = KS_N_STALLS;
  g_autoptr(GHashTable) ctas = g_hash_table_new (NULL, NULL);
  uint32_t n_blocks;

  if (t == NULL)
    return g_strdup (_("No run: run the kernel to see its warps"));
  for (uint32_t w = 0; w < t->n_warps; w++)
    g_hash_table_add (ctas, GUINT_TO_POINTER (t->warps[w].cta + 1));
  n_blocks = g_hash_table_size (ctas);
  for (guint r = 0; r < KS_N_STALLS; r++)
    if (r != KS_STALL_SELECTED)
      {
        stalled += t->stall_cycles[r];
        if (t->stall_cycles[r] > most)
          {
            most = t->stall_cycles[r];
            worst = r;
          }
      }
  warps = g_strdup_printf (ngettext ("%u warp", "%u warps", t->n_warps), t->n_warps);
  blocks = g_strdup_printf (ngettext ("%u block", "%u blocks", n_blocks), n_blocks);
  if (worst == KS_N_STALLS)
    return g_strdup_printf (_("%s of %s over %u cycles (a model), %.2f instructions issued a "
                              "cycle; no stalls"), warps, blocks, t->cycles, t->ipc);
  return g_strdup_printf (_("%s of %s over %u cycles (a model), %.2f instructions issued a cycle; "
                            "the warps waited most for %s (%.0f %% of stalled cycles)"),
                          warps, blocks, t->cycles, t->ipc,
                          stall_label ((KsStallReason) worst), 100.0 * most / stalled);
}

/* A description of the event under the pointer */
static char *
describe (KsTimeline *self,
          uint64_t    event,
          uint32_t    warp)
{
  const KsTiming *t = self->analysis->timing;
  const KsPtxModule *m = self->analysis->module;
  const KsTimingEvent *e;
  const KsTimingWarp *w;
  const KsPtxInsn *in;
  g_autofree char *text = NULL, *cuda = NULL, *waited = NULL, *sass = NULL;
  uint32_t file = 0, line = 0;

  if (t == NULL || m == NULL)
    return NULL;
  e = &t->events[event];
  w = &t->warps[warp];
  in = e->insn < m->n_insns ? &m->insns[e->insn] : NULL;

  if (in == NULL)
    return NULL;
  if (ks_ptx_insn_source (m, in, &file, &line))
    cuda = g_strdup_printf (_("CUDA line %u"), line);
  text = ks_ptx_module_line_text (m, in->line);
  if (e->stall != KS_STALL_SELECTED)
    waited = g_strdup_printf (_("waited %u cycles: %s\n"), e->ready - e->stall_start,
                              stall_label ((KsStallReason) e->stall));
  /* timed from the SASS: the instruction the GPU issues, then the PTX
   * instruction it is shown at */
  if (e->sass != 0 && self->analysis->sass != NULL && e->sass - 1 < self->analysis->sass->n_insns)
    {
      const KsSassInsn *si = &self->analysis->sass->insns[e->sass - 1];
      g_autofree char *at = g_strdup_printf ("%04" G_GINT64_MODIFIER "x", si->offset);
      g_autoptr(GString) s = g_string_new (NULL);

      ks_sass_insn_append_text (s, self->analysis->sass, si, "?");
      /* TRANSLATORS: a SASS instruction's offset in its function, and the
       * instruction ("LDG.E R4, [R4.64]") */
      sass = g_strdup_printf (_("SASS %s: %s\n"), at, s->str);
    }
  return g_strdup_printf (_("%s%s\nPTX line %u%s%s\nblock %u, warp %u (sub-partition %u)\n"
                            "issued at cycle %u on the %s pipe, %u of 32 lanes\n"
                            "result after %u cycles\n%s(a model, not a measurement)"),
                          sass ? sass : "", text, in->line, cuda ? ", " : "", cuda ? cuda : "",
                          w->cta, w->warp_in_cta, w->sub_partition, e->cycle,
                          ks_pipe_name ((KsPipe) e->pipe), e->active_lanes, e->latency,
                          waited ? waited : "");
}

static gboolean
ks_timeline_query_tooltip (GtkWidget  *widget,
                           int         x,
                           int         y,
                           gboolean    keyboard,
                           GtkTooltip *tooltip)
{
  KsTimeline *self = KS_TIMELINE (widget);
  const KsTiming *t = timing_of (self);
  g_autofree char *text = NULL;
  uint32_t warp;
  uint64_t event;

  if (t == NULL)
    return FALSE;
  {
    /* a row's name ("b0 w4·1") says what it is */
    KsTimelineLayout l;
    double row;

    ks_timeline_layout (&self->view, gtk_widget_get_width (widget), gtk_widget_get_height (widget),
                        &l);
    row = self->view.first_row + (y - l.rows_top) / self->view.row_height;
    if (x < l.plot_left && y >= l.rows_top && y < l.rows_top + l.rows_height && row < t->n_warps)
      {
        const KsTimingWarp *w = &t->warps[self->order[(uint32_t) row]];

        text = g_strdup_printf (_("b%u w%u·%u: block %u, warp %u of the block, issued by the "
                                  "SM's sub-partition %u (one of its %u warp schedulers)"),
                                w->cta, w->warp_in_cta, w->sub_partition, w->cta, w->warp_in_cta,
                                w->sub_partition, t->sub_partitions);
        gtk_tooltip_set_text (tooltip, text);
        return TRUE;
      }
  }
  if (!ks_timeline_hit (t, self->order, &self->view, gtk_widget_get_width (widget),
                        gtk_widget_get_height (widget), x, y, &warp, &event))
    return FALSE;
  text = describe (self, event, warp);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           KsTimeline               *self)
{
  const KsTiming *t = timing_of (self);
  uint32_t warp;
  uint64_t event;
  int64_t hover = -1;

  self->pointer_x = x;
  if (t != NULL && ks_timeline_hit (t, self->order, &self->view,
                                    gtk_widget_get_width (GTK_WIDGET (self)),
                                    gtk_widget_get_height (GTK_WIDGET (self)), x, y, &warp, &event))
    hover = (int64_t) event;
  if (hover != self->view.hover_event)
    {
      self->view.hover_event = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *motion,
          KsTimeline               *self)
{
  if (self->view.hover_event != -1)
    {
      self->view.hover_event = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_click (GtkGestureClick *gesture,
          int              n_press,
          double           x,
          double           y,
          KsTimeline      *self)
{
  const KsTiming *t = timing_of (self);
  uint32_t warp;
  uint64_t event;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (t == NULL)
    return;
  if (!ks_timeline_hit (t, self->order, &self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                        gtk_widget_get_height (GTK_WIDGET (self)), x, y, &warp, &event))
    {
      KsTimelineLayout l;

      /* a click in the overview strip moves the view there */
      ks_timeline_layout (&self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                          gtk_widget_get_height (GTK_WIDGET (self)), &l);
      if (y >= l.overview_top && y < l.overview_top + l.overview_height && x >= l.plot_left)
        {
          double span = l.plot_width * self->view.cycles_per_pixel;

          self->view.first_cycle = (x - l.plot_left) / l.plot_width * t->cycles - span / 2;
          self->fitted = FALSE;
          clamp_view (self);
          invalidate (self);
        }
      return;
    }
  self->view.selected_event = (int64_t) event;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[INSTRUCTION_SELECTED], 0, t->events[event].insn, (guint64) event);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               KsTimeline     *self)
{
  self->drag_first_cycle = self->view.first_cycle;
  self->drag_first_row = self->view.first_row;
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                KsTimeline     *self)
{
  double row = (double) self->drag_first_row - dy / self->view.row_height;

  self->view.first_cycle = self->drag_first_cycle - dx * self->view.cycles_per_pixel;
  self->view.first_row = (uint32_t) MAX (row, 0);
  self->fitted = FALSE;
  clamp_view (self);
  invalidate (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           KsTimeline               *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (timing_of (self) == NULL)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    ks_timeline_zoom_at (self, pow (1.25, -dy), self->pointer_x);
  else if ((mods & GDK_SHIFT_MASK) || dx != 0)
    {
      double d = dx != 0 ? dx : dy;

      self->view.first_cycle += d * 40 * self->view.cycles_per_pixel;
      self->fitted = FALSE;
      clamp_view (self);
      invalidate (self);
    }
  else
    {
      double row = (double) self->view.first_row + dy * 3;

      self->view.first_row = (uint32_t) MAX (row, 0);
      clamp_view (self);
      invalidate (self);
    }
  return TRUE;
}

static void
on_zoom_begin (GtkGesture       *gesture,
               GdkEventSequence *sequence,
               KsTimeline       *self)
{
  self->zoom_start_cpp = self->view.cycles_per_pixel;
}

static void
on_zoom_scale (GtkGestureZoom *gesture,
               double          scale,
               KsTimeline     *self)
{
  double cx, cy, factor;

  if (scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy);
  factor = self->view.cycles_per_pixel / (self->zoom_start_cpp / scale);
  ks_timeline_zoom_at (self, factor, cx);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KsTimeline *self = KS_TIMELINE (widget);
  int w = gtk_widget_get_width (widget);

  if (g_str_equal (action_name, "timeline.zoom-in"))
    ks_timeline_zoom_at (self, 2.0, w / 2.0);
  else if (g_str_equal (action_name, "timeline.zoom-out"))
    ks_timeline_zoom_at (self, 0.5, w / 2.0);
  else
    ks_timeline_zoom_fit (self);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  KsTimeline *self = KS_TIMELINE (widget);
  KsTimelineLayout l;
  double step;

  ks_timeline_layout (&self->view, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &l);
  step = l.plot_width * self->view.cycles_per_pixel / 4;
  self->view.first_cycle += g_str_equal (action_name, "timeline.pan-left") ? -step : step;
  self->fitted = FALSE;
  clamp_view (self);
  invalidate (self);
}

static void
ks_timeline_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ks_timeline_parent_class)->css_changed (widget, change);
  invalidate (KS_TIMELINE (widget));
}

static void
ks_timeline_dispose (GObject *object)
{
  KsTimeline *self = KS_TIMELINE (object);

  g_clear_pointer (&self->cache, gsk_render_node_unref);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  g_clear_pointer (&self->order, g_free);
  g_clear_pointer (&self->overview, g_free);
  G_OBJECT_CLASS (ks_timeline_parent_class)->dispose (object);
}

static void
ks_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KsTimeline *self = KS_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_PRESENTATION:
      g_value_set_boolean (value, self->presentation);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  KsTimeline *self = KS_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_PRESENTATION:
      ks_timeline_set_presentation (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_timeline_class_init (KsTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_timeline_dispose;
  object_class->get_property = ks_timeline_get_property;
  object_class->set_property = ks_timeline_set_property;
  widget_class->snapshot = ks_timeline_snapshot;
  widget_class->size_allocate = ks_timeline_size_allocate;
  widget_class->measure = ks_timeline_measure;
  widget_class->query_tooltip = ks_timeline_query_tooltip;
  widget_class->css_changed = ks_timeline_css_changed;

  properties[PROP_PRESENTATION] =
    g_param_spec_boolean ("presentation", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * KsTimeline::instruction-selected:
   * @insn: the module instruction index
   * @event: the index into the timing's events
   */
  signals[INSTRUCTION_SELECTED] =
    g_signal_new ("instruction-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT64);
  /**
   * KsTimeline::range-changed:
   *
   * The visible cycles changed (a zoom, a pan, a new width): two
   * timelines on one axis follow each other through it.
   */
  signals[RANGE_CHANGED] =
    g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_timeline_init (KsTimeline *self)
{
  GtkEventController *c;
  GtkGesture *g;

  ks_timeline_view_init (&self->view);
  apply_presentation (self);
  self->fitted = TRUE;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Warp timeline"), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Each row is a warp; each block an issued instruction, "
                                    "coloured by its pipe; bands are stalls. + and - zoom, 0 fits, "
                                    "the arrows pan."), -1);

  c = gtk_event_controller_motion_new ();
  g_signal_connect (c, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (c, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), c);

  g = gtk_gesture_click_new ();
  g_signal_connect (g, "pressed", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g));

  g = gtk_gesture_drag_new ();
  g_signal_connect (g, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (g, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g));

  c = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (c, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), c);

  g = gtk_gesture_zoom_new ();
  g_signal_connect (g, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (g, "scale-changed", G_CALLBACK (on_zoom_scale), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g));
}

GtkWidget *
ks_timeline_new (void)
{
  return g_object_new (KS_TYPE_TIMELINE, NULL);
}

void
ks_timeline_set_analysis (KsTimeline *self,
                          KsAnalysis *analysis)
{
  g_return_if_fail (KS_IS_TIMELINE (self));

  if (analysis == self->analysis)
    return;
  if (analysis != NULL)
    ks_analysis_ref (analysis);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  g_clear_pointer (&self->order, g_free);
  g_clear_pointer (&self->overview, g_free);
  self->analysis = analysis;
  self->view.hover_event = -1;
  self->view.selected_event = -1;
  if (timing_of (self) != NULL)
    self->order = ks_timeline_row_order (timing_of (self));
  self->fitted = TRUE;
  self->view.first_row = 0;
  {
    g_autofree char *summary = timing_of (self) == NULL && analysis != NULL
                               && analysis->timing_error != NULL
                               ? g_strdup (analysis->timing_error)
                               : describe_run (timing_of (self));

    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    timing_of (self) ? _("Warp timeline")
                                    : _("Warp timeline (empty)"),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
  }
  invalidate (self);
}

KsAnalysis *
ks_timeline_get_analysis (KsTimeline *self)
{
  g_return_val_if_fail (KS_IS_TIMELINE (self), NULL);
  return self->analysis;
}

void
ks_timeline_set_presentation (KsTimeline *self,
                              gboolean    presentation)
{
  g_return_if_fail (KS_IS_TIMELINE (self));

  presentation = !!presentation;
  if (self->presentation == presentation)
    return;
  self->presentation = presentation;
  apply_presentation (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESENTATION]);
}

gboolean
ks_timeline_get_presentation (KsTimeline *self)
{
  g_return_val_if_fail (KS_IS_TIMELINE (self), FALSE);
  return self->presentation;
}

gboolean
ks_timeline_export (KsTimeline  *self,
                    const char  *path,
                    int          width,
                    int          height,
                    gboolean     whole_run,
                    GError     **error)
{
  const KsTiming *t;
  KsTimelineView v;

  g_return_val_if_fail (KS_IS_TIMELINE (self), FALSE);
  t = timing_of (self);
  if (t == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no timeline to export"));
      return FALSE;
    }
  v = self->view;
  v.hover_event = -1;
  v.dark = FALSE;
  /* every warp's row, from the first: the picture grows to hold them all
   * rather than stopping where the widget's height did */
  v.first_row = 0;
  {
    KsTimelineLayout l;
    double rows = (double) t->n_warps * v.row_height;

    ks_timeline_layout (&v, width, height, &l);
    if (rows > l.rows_height)
      height = (int) ceil (height + rows - l.rows_height);
  }
  if (whole_run)
    ks_timeline_view_fit (&v, t, width, height);
  return ks_timeline_render_export (t, self->analysis->module, &v, width, height, path, error);
}
