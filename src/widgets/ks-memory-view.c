/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-memory-view.c: the bank and cache-line diagram widget. */

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ks-memory-render.h"
#include "ks-memory-view.h"
#include "ks-render-export.h"
#include "ks-sim-memory.h"
#include "ks-texture-render.h"
#include "ks-widget-util.h"

#define PASS_INTERVAL_MS 700

struct _KsMemoryView
{
  GtkWidget parent_instance;

  KsAnalysis *analysis;
  uint32_t insn;
  const KsMemAccess *accesses;  /* borrowed from the analysis's run */
  uint32_t n_accesses, current;
  const KsTexAccess *tex;       /* a texture fetch's footprints, beside accesses, or NULL */
  uint32_t n_tex;
  int focus;                    /* the texture diagram's lane; -1: the first */
  KsMemoryStyle style;
  char *title;
  guint play_id;
};

G_DEFINE_FINAL_TYPE (KsMemoryView, ks_memory_view, GTK_TYPE_WIDGET)

static void
stop_playing (KsMemoryView *self)
{
  g_clear_handle_id (&self->play_id, g_source_remove);
}

/* The texture diagram of the execution shown, when it is a texture fetch */
static gboolean
texture_scene (KsMemoryView   *self,
               KsTextureScene *sc)
{
  const KsLaunch *l;
  int f;

  if (self->n_accesses == 0 || self->tex == NULL || self->current >= self->n_tex
      || self->accesses[self->current].space != KS_PTX_SPACE_TEX)
    return FALSE;
  memset (sc, 0, sizeof *sc);
  sc->access = &self->accesses[self->current];
  sc->tex = &self->tex[self->current];
  sc->focus = self->focus;
  f = ks_texture_focus_lane (sc);
  l = ks_sim_get_launch (self->analysis->sim);
  if (f >= 0 && l != NULL && sc->tex->lane[f].texture < l->n_textures
      && !l->textures[sc->tex->lane[f].texture].destroyed)
    {
      sc->desc = &l->textures[sc->tex->lane[f].texture];
      sc->data = ks_sim_get_buffer (self->analysis->sim, sc->desc->buffer, &sc->size);
    }
  return TRUE;
}

static void
update_title (KsMemoryView *self)
{
  const KsPtxModule *m = self->analysis ? self->analysis->module : NULL;
  g_autofree char *text = NULL;
  uint32_t wpc;

  g_clear_pointer (&self->title, g_free);
  if (m == NULL || self->n_accesses == 0 || self->insn >= m->n_insns)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Memory access diagram"),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _("No load or store is selected"), -1);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      return;
    }
  text = ks_ptx_module_line_text (m, m->insns[self->insn].line);
  wpc = ks_sim_get_warps_per_cta (self->analysis->sim);
  self->title = g_strdup_printf (_("%s  (PTX line %u): execution %u of %u, block %u, warp %u"),
                                 text, m->insns[self->insn].line, self->current + 1,
                                 self->n_accesses, self->accesses[self->current].warp / MAX (wpc, 1),
                                 self->accesses[self->current].warp % MAX (wpc, 1));
  {
    KsTextureScene sc;
    g_autofree char *described = texture_scene (self, &sc)
                                 ? ks_texture_summary (&sc)
                                 : ks_memory_describe (&self->accesses[self->current]);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    self->title, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    described ? described : "", -1);
  }
  /* another access may need more rows (passes, lines) */
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
ks_memory_view_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  KsMemoryView *self = KS_MEMORY_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  KsTextureScene sc;
  cairo_t *cr;

  if (w <= 0 || h <= 0)
    return;
  self->style.dark = ks_widget_is_dark (widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (texture_scene (self, &sc))
    ks_texture_render (cr, &sc, self->title, &self->style, w, h);
  else
    ks_memory_render (cr, self->n_accesses ? &self->accesses[self->current] : NULL, self->title,
                      &self->style, w, h);
  cairo_destroy (cr);
}

static void
ks_memory_view_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  KsMemoryView *self = KS_MEMORY_VIEW (widget);
  double px = self->style.font_size * 96.0 / 72.0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* 32 columns of at least two digits */
      *minimum = (int) (px * 40);
      *natural = (int) (px * 90);
    }
  else
    {
      /* every pass and the legend: the scrolled window scrolls to them
       * rather than cutting them off */
      const KsMemAccess *m = self->n_accesses ? &self->accesses[self->current] : NULL;
      double width = for_size > 0 ? for_size : px * 90;

      *minimum = (int) ceil (ks_memory_content_height (m, &self->style, width));
      *natural = *minimum;
    }
}

void
ks_memory_view_step (KsMemoryView *self,
                     int           delta)
{
  g_return_if_fail (KS_IS_MEMORY_VIEW (self));
  if (self->n_accesses == 0)
    return;
  stop_playing (self);
  self->current = (uint32_t) ((self->current + self->n_accesses + (uint32_t) (delta % (int) self->n_accesses))
                              % self->n_accesses);
  self->focus = -1;
  self->style.wavefronts_shown = -1;
  update_title (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
next_pass (gpointer data)
{
  KsMemoryView *self = data;
  const KsMemAccess *m = &self->accesses[self->current];
  KsSmemAnalysis r = ks_smem_analyze (m->addr, m->size, m->mask, m->store);

  self->style.wavefronts_shown++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if ((uint32_t) self->style.wavefronts_shown >= r.wavefronts)
    {
      self->play_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
focus_step (KsMemoryView *self,
            int           delta)
{
  KsTextureScene sc;
  int f;

  if (!texture_scene (self, &sc) || (f = ks_texture_focus_lane (&sc)) < 0)
    return FALSE;
  for (int i = 1; i <= 32; i++)
    {
      int l = ((f + delta * i) % 32 + 32) % 32;

      if ((sc.access->mask >> l) & 1)
        {
          self->focus = l;
          break;
        }
    }
  update_title (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
pressed_cb (GtkGestureClick *click,
            int              n_press,
            double           x,
            double           y,
            KsMemoryView    *self)
{
  KsTextureScene sc;
  int lane;

  if (!texture_scene (self, &sc))
    return;
  lane = ks_texture_lane_at (&sc, &self->style, gtk_widget_get_width (GTK_WIDGET (self)),
                             gtk_widget_get_height (GTK_WIDGET (self)), x, y);
  if (lane < 0)
    return;
  self->focus = lane;
  update_title (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
query_tooltip_cb (GtkWidget    *widget,
                  int           x,
                  int           y,
                  gboolean      keyboard,
                  GtkTooltip   *tooltip,
                  KsMemoryView *self)
{
  KsTextureScene sc;
  g_autofree char *text = NULL;

  if (keyboard || !texture_scene (self, &sc))
    return FALSE;
  text = ks_texture_describe_at (&sc, &self->style, gtk_widget_get_width (widget),
                                 gtk_widget_get_height (widget), x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static gboolean
on_key (GtkEventControllerKey *key,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        KsMemoryView          *self)
{
  switch (keyval)
    {
    case GDK_KEY_Page_Down:
    case GDK_KEY_bracketright:
      ks_memory_view_step (self, 1);
      return TRUE;
    case GDK_KEY_Page_Up:
    case GDK_KEY_bracketleft:
      ks_memory_view_step (self, -1);
      return TRUE;
    case GDK_KEY_space:
      /* play the passes of a shared-memory access one at a time */
      if (self->n_accesses == 0 || self->accesses[self->current].space != KS_PTX_SPACE_SHARED)
        return FALSE;
      stop_playing (self);
      self->style.wavefronts_shown = 0;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      self->play_id = g_timeout_add (PASS_INTERVAL_MS, next_pass, self);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_Right:
      /* the texture diagram: the previous or next lane's footprint */
      return focus_step (self, keyval == GDK_KEY_Left ? -1 : 1);
    case GDK_KEY_Home:
      stop_playing (self);
      self->style.wavefronts_shown = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    default:
      return FALSE;
    }
}

static void
ks_memory_view_dispose (GObject *object)
{
  KsMemoryView *self = KS_MEMORY_VIEW (object);

  stop_playing (self);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  G_OBJECT_CLASS (ks_memory_view_parent_class)->dispose (object);
}

static GtkSizeRequestMode
memory_view_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ks_memory_view_class_init (KsMemoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_memory_view_dispose;
  widget_class->snapshot = ks_memory_view_snapshot;
  widget_class->measure = ks_memory_view_measure;
  gtk_widget_class_set_css_name (widget_class, "memoryview");
  /* the height follows the width: narrower, the lines wrap into more rows */
  widget_class->get_request_mode = memory_view_request_mode;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_memory_view_init (KsMemoryView *self)
{
  GtkGesture *click;

  ks_memory_style_init (&self->style);
  self->focus = -1;
  ks_widget_setup_input (GTK_WIDGET (self), _("Memory access diagram"), G_CALLBACK (on_key));
  /* the texture diagram: a lane's tooltip, and a click on it shows its footprint */
  click = gtk_gesture_click_new ();
  g_signal_connect_object (click, "pressed", G_CALLBACK (pressed_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  update_title (self);
}

GtkWidget *
ks_memory_view_new (void)
{
  return g_object_new (KS_TYPE_MEMORY_VIEW, NULL);
}

void
ks_memory_view_set_analysis (KsMemoryView *self,
                             KsAnalysis   *analysis)
{
  g_return_if_fail (KS_IS_MEMORY_VIEW (self));

  stop_playing (self);
  if (analysis != NULL)
    ks_analysis_ref (analysis);
  g_clear_pointer (&self->analysis, ks_analysis_unref);
  self->analysis = analysis;
  self->accesses = NULL;
  self->n_accesses = 0;
  self->tex = NULL;
  self->n_tex = 0;
  update_title (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
ks_memory_view_set_instruction (KsMemoryView *self,
                                uint32_t      insn)
{
  g_return_val_if_fail (KS_IS_MEMORY_VIEW (self), FALSE);

  stop_playing (self);
  self->insn = insn;
  self->current = 0;
  self->style.wavefronts_shown = -1;
  self->accesses = NULL;
  self->n_accesses = 0;
  self->tex = NULL;
  self->n_tex = 0;
  self->focus = -1;
  if (self->analysis != NULL && self->analysis->sim != NULL)
    {
      self->accesses = ks_sim_get_accesses (self->analysis->sim, insn, &self->n_accesses);
      self->tex = ks_sim_get_tex_accesses (self->analysis->sim, insn, &self->n_tex);
    }
  update_title (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return self->n_accesses > 0;
}

uint32_t
ks_memory_view_get_instruction (KsMemoryView *self)
{
  g_return_val_if_fail (KS_IS_MEMORY_VIEW (self), 0);
  return self->insn;
}

void
ks_memory_view_set_presentation (KsMemoryView *self,
                                 gboolean      presentation)
{
  g_return_if_fail (KS_IS_MEMORY_VIEW (self));
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
  KsMemoryView *self = user_data;
  KsMemoryStyle st = self->style;
  KsTextureScene sc;

  st.dark = FALSE;
  if (texture_scene (self, &sc))
    ks_texture_render (cr, &sc, self->title, &st, width, height);
  else
    ks_memory_render (cr, &self->accesses[self->current], self->title, &st, width, height);
}

gboolean
ks_memory_view_export (KsMemoryView *self,
                       const char   *path,
                       int           width,
                       int           height,
                       GError      **error)
{
  g_return_val_if_fail (KS_IS_MEMORY_VIEW (self), FALSE);
  if (self->n_accesses == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no memory access to export"));
      return FALSE;
    }
  /* the picture's own layout at its size: as tall as every pass and the
   * legend need, whatever height was asked for */
  return ks_render_export (path, width,
                           MAX (height, ks_memory_content_height (&self->accesses[self->current],
                                                                  &self->style, width)),
                           export_draw, self, error);
}
