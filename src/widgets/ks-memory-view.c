/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-memory-view.c: the bank and cache-line diagram widget. */

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ks-memory-render.h"
#include "ks-memory-view.h"
#include "ks-render-export.h"
#include "ks-sim-memory.h"
#include "ks-widget-util.h"

#define PASS_INTERVAL_MS 700

struct _KsMemoryView
{
  GtkWidget parent_instance;

  KsAnalysis *analysis;
  uint32_t insn;
  const KsMemAccess *accesses;  /* borrowed from the analysis's run */
  uint32_t n_accesses, current;
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

static void
update_title (KsMemoryView *self)
{
  const KsPtxModule *m = self->analysis ? self->analysis->module : NULL;
  g_autofree char *text = NULL;
  uint32_t wpc;

  g_clear_pointer (&self->title, g_free);
  if (m == NULL || self->n_accesses == 0 || self->insn >= m->n_insns)
    return;
  text = ks_ptx_module_line_text (m, m->insns[self->insn].line);
  wpc = ks_sim_get_warps_per_cta (self->analysis->sim);
  self->title = g_strdup_printf (_("%s  (PTX line %u): execution %u of %u, block %u, warp %u"),
                                 text, m->insns[self->insn].line, self->current + 1,
                                 self->n_accesses, self->accesses[self->current].warp / MAX (wpc, 1),
                                 self->accesses[self->current].warp % MAX (wpc, 1));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->title, -1);
}

static void
ks_memory_view_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  KsMemoryView *self = KS_MEMORY_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (w <= 0 || h <= 0)
    return;
  self->style.dark = ks_widget_is_dark (widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
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

  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) (px * 40) : (int) (px * 16);
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) (px * 90) : (int) (px * 24);
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

static void
ks_memory_view_class_init (KsMemoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_memory_view_dispose;
  widget_class->snapshot = ks_memory_view_snapshot;
  widget_class->measure = ks_memory_view_measure;
  gtk_widget_class_set_css_name (widget_class, "memoryview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ks_memory_view_init (KsMemoryView *self)
{
  ks_memory_style_init (&self->style);
  ks_widget_setup_input (GTK_WIDGET (self), _("Memory access diagram"), G_CALLBACK (on_key));
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
  g_clear_pointer (&self->title, g_free);
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
  if (self->analysis != NULL && self->analysis->sim != NULL)
    self->accesses = ks_sim_get_accesses (self->analysis->sim, insn, &self->n_accesses);
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
  self->style.font_size = presentation ? 14 : 9;
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

  st.dark = FALSE;
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
  return ks_render_export (path, width, height, export_draw, self, error);
}
