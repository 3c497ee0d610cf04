/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy-window.c: the Launch Anatomy window (ks-anatomy-window.h).
 * Each stage is a page of a GtkStack, listed by a GtkStackSidebar; its
 * words are made here from the anatomy's figures, so that they are
 * translated as the rest of the window. */
#include "ks-anatomy-window.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <math.h>
#include <string.h>

#include "ks-anatomy-render.h"
#include "ks-memory-render.h"
#include "ks-occupancy.h"
#include "ks-render-export.h"
#include "ks-sass.h"
#include "ks-shot.h"
#include "ks-widget-util.h"

struct _KsAnatomyWindow
{
  GtkWindow parent_instance;

  KsAnatomy *anatomy;
  GtkStack *stack;
  GtkWidget *pages[KS_ANATOMY_STAGES]; /* each stage's scroller */
  /* 1. nvcc --keep, run for the window's CUDA when a toolkit is here */
  GCancellable *keep_cancel;
  gboolean keep_running;
  char *keep_error;
  GtkWidget *previous, *next;
  guint stage;
  gboolean presentation;
  /* the pictures */
  GtkWidget *qmd, *waves, *roofline, *warp, *scheduler;
  /* distribution: the wave shown, and the animation */
  GtkAdjustment *wave;
  GtkLabel *wave_label;
  GtkWidget *play;
  guint play_source;
  KsShot shot;                  /* --screenshot with --anatomy */
};

G_DEFINE_FINAL_TYPE (KsAnatomyWindow, ks_anatomy_window, GTK_TYPE_WINDOW)

static const char *const stage_ids[KS_ANATOMY_STAGES] = {
  "compile", "arguments", "submission", "distribution", "issue", "memory", "figures",
  "completion",
};

static const char *
stage_title (guint i)
{
  switch (i)
    {
    case 0: return _("1. Compile");
    case 1: return _("2. Arguments");
    case 2: return _("3. Submission");
    case 3: return _("4. Distribution");
    case 4: return _("5. Issue");
    case 5: return _("6. Memory");
    case 6: return _("7. The profiler's figures");
    default: return _("8. Completion");
    }
}

static GtkWidget *
text_label (const char *text,
            const char *css)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  /* not selectable: a selectable label takes the focus with its text
   * selected, on every page; the command line prints the same figures */
  if (css)
    gtk_widget_add_css_class (l, css);
  return l;
}

static void
cell (GtkGrid    *grid,
      int         column,
      int         row,
      const char *text,
      gboolean    heading)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (l), heading || column == 0 ? 0 : 1);
  gtk_widget_add_css_class (l, heading ? "heading" : "numeric");
  gtk_grid_attach (grid, l, column, row, 1, 1);
}

/* A cell of words, not a figure: aligned at the start */
static GtkWidget *
cell_start (GtkGrid    *grid,
            int         column,
            int         row,
            const char *text)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_grid_attach (grid, l, column, row, 1, 1);
  return l;
}

static GtkGrid *
new_grid (void)
{
  GtkWidget *g = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (g), 14);
  gtk_grid_set_row_spacing (GTK_GRID (g), 6);
  gtk_widget_set_halign (g, GTK_ALIGN_START);
  return GTK_GRID (g);
}

/* A part of a page that scrolls across when wider than the window: the
 * pages' words wrap, but a table or a picture may want more */
static GtkWidget *
wide (GtkWidget *child)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), child);
  return scroller;
}

/* A row of figure and value */
static void
figure (GtkGrid    *grid,
        int        *row,
        const char *name,
        char       *value)
{
  cell (grid, 0, *row, name, FALSE);
  cell (grid, 1, *row, value, FALSE);
  (*row)++;
  g_free (value);
}

static double
font_px (KsAnatomyWindow *self)
{
  return KS_RENDER_FONT_SIZE_FOR (self->presentation) * 96.0 / 72.0;
}

static void
draw_qmd (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        data)
{
  KsAnatomyWindow *self = data;

  ks_anatomy_render_qmd (cr, self->anatomy, ks_widget_is_dark (GTK_WIDGET (area)),
                         font_px (self), width, height);
}

static void
draw_waves (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  KsAnatomyWindow *self = data;

  ks_anatomy_render_waves (cr, self->anatomy, (uint32_t) gtk_adjustment_get_value (self->wave),
                           ks_widget_is_dark (GTK_WIDGET (area)), font_px (self), width, height);
}

static void
draw_roofline (GtkDrawingArea *area,
               cairo_t        *cr,
               int             width,
               int             height,
               gpointer        data)
{
  KsAnatomyWindow *self = data;

  ks_anatomy_render_roofline (cr, self->anatomy, ks_widget_is_dark (GTK_WIDGET (area)),
                              font_px (self), width, height);
}

static void
warp_style (KsAnatomyWindow *self,
            GtkWidget       *area,
            KsMemoryStyle   *style)
{
  ks_memory_style_init (style);
  style->dark = ks_widget_is_dark (area);
  style->font_size = KS_RENDER_FONT_SIZE_FOR (self->presentation);
  style->projector = self->presentation;
}

/* One warp's first global load: its lanes over the sectors they touch */
static void
draw_warp (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        data)
{
  KsAnatomyWindow *self = data;
  const KsAnatomy *an = self->anatomy;
  KsMemoryStyle style;
  g_autofree char *title = NULL;

  warp_style (self, GTK_WIDGET (area), &style);
  /* TRANSLATORS: the PTX instruction, its line, then the block and warp */
  title = g_strdup_printf (_("%s  (PTX line %u): block %u, warp %u"), an->warp_access_text,
                           an->warp_access_line, an->warp_access_block, an->warp_access_warp);
  ks_memory_render (cr, &an->warp_access, title, &style, width, height);
}

static void
draw_scheduler (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        data)
{
  KsAnatomyWindow *self = data;

  ks_anatomy_render_scheduler (cr, self->anatomy, ks_widget_is_dark (GTK_WIDGET (area)),
                               self->presentation, font_px (self), width, height);
}

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  double rgb[3];

  ks_anatomy_qmd_kind_rgb ((KsQmdKind) GPOINTER_TO_INT (data),
                           ks_widget_is_dark (GTK_WIDGET (area)), rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

/* A picture: named for a screen reader by what it shows */
static GtkWidget *
picture (KsAnatomyWindow       *self,
         GtkDrawingAreaDrawFunc draw,
         const char            *description,
         int                    height)
{
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw, self, NULL);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), height);
  gtk_widget_set_hexpand (area, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  description, -1);
  return area;
}

static void
sizes_changed (KsAnatomyWindow *self)
{
  double px = font_px (self);

  if (self->qmd != NULL)
    gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->qmd),
                                         (int) ceil (ks_anatomy_qmd_height (px)));
  if (self->waves != NULL)
    gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->waves),
                                         self->presentation ? 300 : 240);
  if (self->roofline != NULL)
    gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->roofline), (int) (px * 26));
  if (self->scheduler != NULL)
    {
      gtk_drawing_area_set_content_height (
        GTK_DRAWING_AREA (self->scheduler),
        (int) ceil (ks_anatomy_scheduler_height (self->anatomy, px)));
      gtk_widget_queue_draw (self->scheduler);
    }
  if (self->warp != NULL)
    {
      KsMemoryStyle style;
      int width = gtk_widget_get_width (self->warp);

      warp_style (self, self->warp, &style);
      gtk_drawing_area_set_content_height (
        GTK_DRAWING_AREA (self->warp),
        (int) ceil (ks_memory_content_height (&self->anatomy->warp_access, &style,
                                              width > 0 ? width : 900)));
      gtk_widget_queue_draw (self->warp);
    }
  if (self->qmd != NULL)
    gtk_widget_queue_draw (self->qmd);
  if (self->waves != NULL)
    gtk_widget_queue_draw (self->waves);
  if (self->roofline != NULL)
    gtk_widget_queue_draw (self->roofline);
}

/* The stage's view in the main window */
static void
show_view_clicked (GtkButton       *button,
                   KsAnatomyWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  const char *view = g_object_get_data (G_OBJECT (button), "view");

  if (parent == NULL)
    return;
  gtk_widget_activate_action (GTK_WIDGET (parent), "win.show-view", "s", view);
  gtk_window_present (parent);
}

static GtkWidget *
view_link (KsAnatomyWindow *self,
           const char      *label,
           const char      *view)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  g_object_set_data (G_OBJECT (b), "view", (gpointer) view);
  gtk_widget_set_halign (b, GTK_ALIGN_START);
  gtk_widget_set_sensitive (b, gtk_window_get_transient_for (GTK_WINDOW (self)) != NULL);
  g_signal_connect (b, "clicked", G_CALLBACK (show_view_clicked), self);
  return b;
}

/* ---------------------------------------------------------------------- */
/* Distribution's waves */

static void
wave_changed (KsAnatomyWindow *self)
{
  const KsAnatomy *an = self->anatomy;
  uint32_t wave = (uint32_t) gtk_adjustment_get_value (self->wave);
  uint32_t n = ks_anatomy_wave_count (an);
  uint64_t per_wave = (uint64_t) an->blocks_per_sm * an->sms;
  uint64_t first = (uint64_t) wave * per_wave;
  uint64_t last = MIN (first + per_wave, an->blocks);
  g_autofree char *text = NULL;

  if (n == 0)
    return;
  if (last - first < per_wave)
    /* TRANSLATORS: the wave, the waves, the first and last block, then the
     * blocks the tail gives each SM */
    text = g_strdup_printf (_("Wave %u of %u: blocks %llu to %llu, the tail: %llu blocks, so the "
                              "SMs run %.3g of their %u slots each on average"), wave + 1, n,
                            (unsigned long long) first, (unsigned long long) (last - 1),
                            (unsigned long long) (last - first),
                            (double) (last - first) / an->sms, an->blocks_per_sm);
  else
    /* TRANSLATORS: the wave, the waves, the first and last block */
    text = g_strdup_printf (_("Wave %u of %u: blocks %llu to %llu, every slot full"), wave + 1, n,
                            (unsigned long long) first, (unsigned long long) (last - 1));
  gtk_label_set_text (self->wave_label, text);
  if (self->waves != NULL)
    gtk_widget_queue_draw (self->waves);
}

static gboolean
play_tick (gpointer data)
{
  KsAnatomyWindow *self = data;
  double v = gtk_adjustment_get_value (self->wave);

  if (v + 1 > gtk_adjustment_get_upper (self->wave) - 1)
    {
      self->play_source = 0;
      gtk_button_set_icon_name (GTK_BUTTON (self->play), "media-playback-start-symbolic");
      return G_SOURCE_REMOVE;
    }
  gtk_adjustment_set_value (self->wave, v + 1);
  return G_SOURCE_CONTINUE;
}

static void
play_clicked (KsAnatomyWindow *self)
{
  if (self->play_source != 0)
    {
      g_clear_handle_id (&self->play_source, g_source_remove);
      gtk_button_set_icon_name (GTK_BUTTON (self->play), "media-playback-start-symbolic");
      return;
    }
  /* from the first wave, one a second */
  gtk_adjustment_set_value (self->wave, 0);
  self->play_source = g_timeout_add (1000, play_tick, self);
  gtk_button_set_icon_name (GTK_BUTTON (self->play), "media-playback-pause-symbolic");
}

static char *
blocks_text (uint32_t blocks)
{
  return blocks == KS_ANATOMY_NONE ? g_strdup ("—") : g_strdup_printf ("%u", blocks);
}

/* Why so many blocks an SM: what each resource allows */
static GtkWidget *
residency_grid (const KsAnatomy *an)
{
  GtkGrid *grid = new_grid ();
  const struct
  {
    const char *name;
    uint32_t per_sm, per_block, blocks;
    int limiter;
  } rows[] = {
    { N_("threads"), an->max_threads_per_sm, an->block[0] * an->block[1] * an->block[2],
      an->blocks_by_threads, KS_OCCUPANCY_LIMIT_WARPS },
    { N_("registers"), an->registers_per_sm, an->registers_per_block, an->blocks_by_registers,
      KS_OCCUPANCY_LIMIT_REGISTERS },
    { N_("shared memory (bytes)"), an->shared_per_sm, an->shared_allocated_per_block,
      an->blocks_by_shared, KS_OCCUPANCY_LIMIT_SHARED_MEMORY },
    { N_("block slots"), an->max_blocks_per_sm, 1, an->blocks_by_blocks,
      KS_OCCUPANCY_LIMIT_BLOCKS },
  };

  cell (grid, 0, 0, _("resource"), TRUE);
  cell (grid, 1, 0, _("an SM has"), TRUE);
  cell (grid, 2, 0, _("a block takes"), TRUE);
  cell (grid, 3, 0, _("blocks an SM"), TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *has = g_strdup_printf ("%u", rows[i].per_sm);
      g_autofree char *takes = g_strdup_printf ("%u", rows[i].per_block);
      g_autofree char *allows = blocks_text (rows[i].blocks);

      cell (grid, 0, i + 1, _(rows[i].name), FALSE);
      cell (grid, 1, i + 1, has, FALSE);
      cell (grid, 2, i + 1, takes, FALSE);
      cell (grid, 3, i + 1, allows, FALSE);
      if (rows[i].limiter == an->limiter_id)
        cell (grid, 4, i + 1, _("← the limit"), TRUE);
    }
  return GTK_WIDGET (grid);
}

static void
sass_cell (GtkGrid    *grid,
           int         column,
           int         row,
           const char *text,
           gboolean    marked)
{
  GtkWidget *l = cell_start (grid, column, row, text);

  gtk_widget_add_css_class (l, "ks-sass-row");
  if (marked)
    gtk_widget_add_css_class (l, "ks-marked");
}

/* Issue: the kernel's first instructions with their control codes, up to
 * a little past the first wait on a scoreboard, which the words explain */
static GtkWidget *
control_codes (const KsAnatomy *an)
{
  GtkWidget *box;
  GtkGrid *grid;
  g_autofree char *words = NULL;
  uint32_t shown;

  if (an->n_insns == 0)
    return text_label (_("There is no SASS listing of this architecture here to read the "
                         "control codes from: the SASS pane says why."), "dim-label");
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  if (an->waiter != KS_ANATOMY_NONE)
    {
      /* TRANSLATORS: the waiting instruction's opcode, its offset, the
       * scoreboard, then how many instructions before it set it */
      words = g_strdup_printf (_("The control codes ptxas wrote into each instruction: %s at "
                                 "%04llx waits on scoreboard %u, which the %u instruction(s) "
                                 "marked before it set when they issued; until they complete "
                                 "the warp is not eligible, and its scheduler issues another "
                                 "warp's instruction instead. The stall is how many cycles the "
                                 "warp waits before its next instruction; Y lets the scheduler "
                                 "switch warps after it."),
                               an->insns[an->waiter].opcode,
                               (unsigned long long) an->insns[an->waiter].offset,
                               an->waiter_barrier, an->n_setters);
    }
  else
    words = g_strdup (_("The control codes ptxas wrote into each instruction: the stall is how "
                        "many cycles the warp waits before its next instruction; Y lets the "
                        "scheduler switch warps after it; no instruction here waits on a "
                        "scoreboard."));
  gtk_box_append (GTK_BOX (box), text_label (words, NULL));
  grid = new_grid ();
  gtk_grid_set_row_spacing (grid, 2);
  cell (grid, 0, 0, _("offset"), TRUE);
  cell (grid, 1, 0, _("waits on"), TRUE);
  cell (grid, 2, 0, _("sets"), TRUE);
  cell (grid, 3, 0, _("yield"), TRUE);
  cell (grid, 4, 0, _("stall"), TRUE);
  cell (grid, 5, 0, _("instruction"), TRUE);
  shown = an->waiter != KS_ANATOMY_NONE ? MIN (an->waiter + 3, an->n_insns) : an->n_insns;
  shown = MIN (shown, 40);
  for (uint32_t i = 0; i < shown; i++)
    {
      const KsAnatomyInsn *in = &an->insns[i];
      const KsSassControl *c = &in->control;
      gboolean marked = an->waiter != KS_ANATOMY_NONE
                        && (i == an->waiter
                            || (i < an->waiter && c->write_barrier == an->waiter_barrier));
      g_autofree char *offset = g_strdup_printf ("%04llx", (unsigned long long) in->offset);
      g_autofree char *waits = NULL, *sets = NULL, *stall = NULL;
      GString *w = g_string_new (NULL);

      for (int b = 0; b < 6; b++)
        if (c->wait_mask & (1u << b))
          g_string_append_printf (w, "%sSB%d", w->len ? " " : "", b);
      waits = g_string_free (w, FALSE);
      if (c->write_barrier != KS_SASS_NO_BARRIER && c->read_barrier != KS_SASS_NO_BARRIER)
        sets = g_strdup_printf ("SB%u (W) SB%u (R)", c->write_barrier, c->read_barrier);
      else if (c->write_barrier != KS_SASS_NO_BARRIER)
        sets = g_strdup_printf ("SB%u (W)", c->write_barrier);
      else if (c->read_barrier != KS_SASS_NO_BARRIER)
        sets = g_strdup_printf ("SB%u (R)", c->read_barrier);
      else
        sets = g_strdup ("");
      stall = g_strdup_printf ("%u", c->stall);
      sass_cell (grid, 0, i + 1, offset, marked);
      sass_cell (grid, 1, i + 1, in->has_control ? waits : "?", marked);
      sass_cell (grid, 2, i + 1, in->has_control ? sets : "?", marked);
      sass_cell (grid, 3, i + 1, in->has_control && c->yield ? "Y" : "", marked);
      sass_cell (grid, 4, i + 1, in->has_control ? stall : "?", marked);
      sass_cell (grid, 5, i + 1, in->text, marked);
    }
  gtk_box_append (GTK_BOX (box), wide (GTK_WIDGET (grid)));
  if (shown < an->n_insns_total)
    {
      /* TRANSLATORS: instructions shown, then in the kernel */
      g_autofree char *more = g_strdup_printf (_("%u of the kernel's %u instructions; the SASS "
                                                 "pane shows them all."), shown,
                                               an->n_insns_total);

      gtk_box_append (GTK_BOX (box), text_label (more, "dim-label"));
    }
  return box;
}

/* A metric as Nsight Compute prints it; "—" where a measurement lacks it */
static char *
metric_text (KsAnatomyMetric metric,
             double          v)
{
  if (isnan (v))
    return g_strdup ("—");
  switch (metric)
    {
    case KS_ANATOMY_WAVES: return g_strdup_printf ("%.3g", v);
    case KS_ANATOMY_WARPS_ACTIVE:
    case KS_ANATOMY_ISSUE_ACTIVE:
    case KS_ANATOMY_DRAM_THROUGHPUT: return g_strdup_printf ("%.2f %%", v);
    case KS_ANATOMY_DURATION: return g_strdup_printf ("%.2f µs", v);
    case KS_ANATOMY_GRID_SIZE: case KS_ANATOMY_BLOCK_SIZE: case KS_ANATOMY_REGISTERS:
    case KS_ANATOMY_N_METRICS: default: return g_strdup_printf ("%.0f", v);
    }
}

/* The profiler's figures: the model's, and a sample's measurement of this
 * launch beside them */
static GtkGrid *
figures_grid (const KsAnatomy *an)
{
  const KsAnatomyMeasured *m = an->measured.source ? &an->measured : NULL;
  GtkGrid *grid = new_grid ();

  cell (grid, 0, 0, _("metric"), TRUE);
  cell (grid, 1, 0, _("model"), TRUE);
  if (m != NULL)
    cell (grid, 2, 0, _("measured"), TRUE);
  for (guint i = 0; i < KS_ANATOMY_N_METRICS; i++)
    {
      g_autofree char *model = metric_text ((KsAnatomyMetric) i,
                                            ks_anatomy_model_metric (an, (KsAnatomyMetric) i));

      cell_start (grid, 0, i + 1, ks_anatomy_metric_name ((KsAnatomyMetric) i));
      cell (grid, 1, i + 1, model, FALSE);
      if (m != NULL)
        {
          g_autofree char *measured = metric_text ((KsAnatomyMetric) i, m->nsight[i]);

          cell (grid, 2, i + 1, measured, FALSE);
        }
    }
  return grid;
}

/* Where the measurement is from, and why it differs from the model */
static GtkWidget *
measured_words (const KsAnatomy *an)
{
  const KsAnatomyMeasured *m = &an->measured, *o = &an->other;
  g_autofree char *text = NULL;

  if (m->source != NULL)
    {
      double model_dram = ks_anatomy_model_metric (an, KS_ANATOMY_DRAM_THROUGHPUT);
      double dram = m->nsight[KS_ANATOMY_DRAM_THROUGHPUT];

      /* TRANSLATORS: who measured, then the model's and the measured duration */
      text = g_strdup_printf (_("Measured: %s. The model takes %.2f µs, the hardware %.2f µs. "
                                "%s"), m->source, an->duration_us,
                              m->nsight[KS_ANATOMY_DURATION],
                              !isnan (dram) && dram < model_dram
                              ? _("The model streams DRAM at its nominal bandwidth; real DRAM "
                                  "delivers less (refresh, row switches, turns between reads "
                                  "and writes), so a kernel bound by memory, as this one is, "
                                  "takes longer on the hardware and its DRAM throughput stays "
                                  "below the model's. The model also fills every warp slot the "
                                  "moment a block retires, where the hardware loses a little to "
                                  "launching blocks: its warps active is the lower.")
                              : _("Where the two differ, the model's assumptions are in "
                                  "docs/TIMING.md."));
    }
  else if (o->source != NULL && an->other_is_edited)
    text = g_strdup_printf (_("This sample carries a measurement (%s), of its own kernel: the "
                              "kernel has been edited since."), o->source);
  else if (o->source != NULL)
    /* TRANSLATORS: who measured, then the grid and block, then the GPU's id */
    text = g_strdup_printf (_("This sample carries a measurement (%s) of the launch with grid "
                              "%u × %u × %u and block %u × %u × %u on the %s: run that launch "
                              "on that GPU to see it beside the model's."), o->source,
                            o->grid[0], o->grid[1], o->grid[2], o->block[0], o->block[1],
                            o->block[2], o->gpu);
  else
    return NULL;
  return text_label (text, NULL);
}

/* The record's fields: colour, name, place, value */
static GtkWidget *
qmd_fields_grid (const KsAnatomy *an)
{
  GtkGrid *grid = new_grid ();

  cell (grid, 1, 0, _("field"), TRUE);
  cell (grid, 2, 0, _("word"), TRUE);
  cell (grid, 3, 0, _("bits"), TRUE);
  cell (grid, 4, 0, _("value"), TRUE);
  for (uint32_t i = 0; i < an->n_qmd_fields; i++)
    {
      const KsAnatomyQmdField *f = &an->qmd_fields[i];
      GtkWidget *swatch = gtk_drawing_area_new ();
      g_autofree char *word = g_strdup_printf ("%u", f->lo / 32);
      g_autofree char *bits = g_strdup_printf ("%u:%u", f->hi, f->lo);
      g_autofree char *value = f->known ? g_strdup_printf ("%" G_GUINT64_FORMAT " (0x%"
                                                           G_GINT64_MODIFIER "x)", f->value,
                                                           f->value)
                                        : g_strdup (_("the driver's"));

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 12);
      gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                      GINT_TO_POINTER (ks_anatomy_qmd_kind (f)), NULL);
      gtk_accessible_update_property (GTK_ACCESSIBLE (swatch), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      f->name, -1);
      gtk_grid_attach (grid, swatch, 0, i + 1, 1, 1);
      cell_start (grid, 1, i + 1, f->name);
      cell (grid, 2, i + 1, word, FALSE);
      cell (grid, 3, i + 1, bits, FALSE);
      cell (grid, 4, i + 1, value, FALSE);
    }
  return GTK_WIDGET (grid);
}

/* The submission as data: the pushbuffer segment with the QMD inline, the
 * GPFIFO entry, GP_PUT, the doorbell */
static GtkWidget *
submission_box (const KsAnatomy *an)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkGrid *grid = new_grid ();
  /* TRANSLATORS: the compute class's name and number */
  g_autofree char *words = g_strdup_printf (
    _("The pushbuffer segment, reconstructed from the methods NVIDIA documents for %s (0x%04X) "
      "and the channel's formats (open-gpu-doc); CUDA's driver is closed, and may send more "
      "methods or put the record elsewhere. Each method's header says how many words follow "
      "(the subchannel, 1, is the one the open drivers bind compute to):"),
    an->compute_class, an->compute_class_id);
  g_autofree char *h0 = g_strdup_printf ("0x%08X", an->pushbuffer[0]);
  g_autofree char *h3 = g_strdup_printf ("0x%08X", an->pushbuffer[3]);
  g_autofree char *entry = NULL;
  g_autofree char *last = g_strdup_printf ("4–%u", KS_ANATOMY_PB_WORDS - 1);

  gtk_box_append (GTK_BOX (box), text_label (words, NULL));
  cell (grid, 0, 0, _("word"), TRUE);
  cell (grid, 1, 0, _("value"), TRUE);
  cell (grid, 2, 0, _("what"), TRUE);
  cell (grid, 0, 1, "0", FALSE);
  cell (grid, 1, 1, h0, FALSE);
  cell_start (grid, 2, 1, _("header: SET_INLINE_QMD_ADDRESS_A (0x0318), 2 words"));
  cell (grid, 0, 2, "1–2", FALSE);
  cell (grid, 1, 2, _("the driver's"), FALSE);
  cell_start (grid, 2, 2, _("the record's address, shifted right by 8: upper and lower bits"));
  cell (grid, 0, 3, "3", FALSE);
  cell (grid, 1, 3, h3, FALSE);
  cell_start (grid, 2, 3, _("header: LOAD_INLINE_QMD_DATA (0x0320), 64 words"));
  cell (grid, 0, 4, last, FALSE);
  cell (grid, 1, 4, _("above"), FALSE);
  cell_start (grid, 2, 4, _("the launch record's 64 words"));
  gtk_box_append (GTK_BOX (box), wide (GTK_WIDGET (grid)));
  /* TRANSLATORS: the entry's second word, then the segment's length in words */
  entry = g_strdup_printf (_("A GPFIFO entry points at the segment: its address (the "
                             "driver's) and, in its second word 0x%08X, the length, %u words. "
                             "The driver then moves GP_PUT in the channel's USERD (offset 0x8c) "
                             "past the entry and rings the doorbell: it writes the channel's "
                             "handle to NOTIFY_CHANNEL_PENDING (0x00810090). The GPU's host "
                             "reads the entry, then the segment, and hands the record to the "
                             "compute engine."), an->gp_entry1, KS_ANATOMY_PB_WORDS);
  gtk_box_append (GTK_BOX (box), text_label (entry, NULL));
  return box;
}

/* The kernel as its source names it: "vector_add", not
 * "_Z10vector_addPKfS0_Pfi" */
static char *
kernel_name (const KsAnatomy *an)
{
  g_autofree char *signature = ks_sass_demangle (an->kernel);

  return signature ? g_strndup (signature, strcspn (signature, "(")) : g_strdup (an->kernel);
}

/* ---------------------------------------------------------------------- */
/* 1. Compile: what nvcc --keep leaves */

static const char *
artifact_label (const char *kind)
{
  static const struct { const char *kind, *label; } labels[] = {
    { "device-preprocessed", N_("the source, preprocessed for the device side") },
    { "host-preprocessed", N_("the source, preprocessed for the host side") },
    { "stub", N_("the host stub: hands each argument's address to the runtime") },
    { "host", N_("the host code, each kernel's body replaced by a call to its stub") },
    { "device-c", N_("the device side's C output") },
    { "device-gpu", N_("the device code's declarations, as C") },
    { "module-id", N_("the module's unique name, which ties the host's registration to the "
                      "device code") },
    { "fatbin-c", N_("the fat binary as a C array, for the host object") },
    { "fatbin", N_("the fat binary: the cubin and the PTX in one file") },
    { "cubin", N_("SASS, the machine code, in an ELF file (a cubin)") },
    { "ptx", N_("PTX, the virtual instruction set") },
    { "object", N_("the host object, with the fat binary in it") },
    { "registration", N_("the registration code") },
  };

  for (guint i = 0; kind != NULL && i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (kind, labels[i].kind))
      return _(labels[i].label);
  return "—";
}

/* An artifact's text in a window of its own, read-only */
static void
show_artifact_clicked (GtkButton       *button,
                       KsAnatomyWindow *self)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "artifact"));
  const KsArtifacts *k = self->anatomy->artifacts;
  const KsArtifact *a;
  GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *lang;
  GtkSourceBuffer *buffer;
  GtkWidget *window, *view, *scroller;
  const char *kind;

  if (k == NULL || i >= k->n_items || k->items[i].text == NULL)
    return;
  a = &k->items[i];
  kind = ks_artifact_kind (a->name);
  lang = gtk_source_language_manager_get_language (lm, g_strcmp0 (kind, "ptx") == 0 ? "ptx"
                                                   : g_str_has_suffix (a->name, ".cpp")
                                                   ? "cpp" : "c");
  buffer = gtk_source_buffer_new_with_language (lang);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), a->text, -1);
  view = gtk_source_view_new_with_buffer (buffer);
  g_object_unref (buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (view), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, a->name,
                                  -1);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), a->name);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  if (self->presentation)
    gtk_widget_add_css_class (window, "presentation");
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_present (GTK_WINDOW (window));
}

/* The files nvcc --keep left, with what each is and who wrote it */
static GtkWidget *
artifacts_grid (KsAnatomyWindow *self)
{
  const KsArtifacts *k = self->anatomy->artifacts;
  GtkGrid *grid = new_grid ();

  cell (grid, 0, 0, _("file"), TRUE);
  cell (grid, 1, 0, _("what it is"), TRUE);
  cell (grid, 2, 0, _("written by"), TRUE);
  cell (grid, 3, 0, _("bytes"), TRUE);
  for (uint32_t i = 0; i < k->n_items; i++)
    {
      const KsArtifact *a = &k->items[i];
      g_autofree char *size = g_strdup_printf ("%" G_GUINT64_FORMAT, a->size);
      GtkWidget *what;

      cell_start (grid, 0, i + 1, a->name);
      what = cell_start (grid, 1, i + 1, artifact_label (ks_artifact_kind (a->name)));
      gtk_label_set_wrap (GTK_LABEL (what), TRUE);
      /* wrapped, but never to a column of single words: the table scrolls */
      gtk_label_set_width_chars (GTK_LABEL (what), 28);
      gtk_label_set_max_width_chars (GTK_LABEL (what), 44);
      cell_start (grid, 2, i + 1, a->tool ? a->tool : "nvcc");
      cell (grid, 3, i + 1, size, FALSE);
      if (a->text != NULL)
        {
          GtkWidget *b = gtk_button_new_with_label (_("Show"));
          /* TRANSLATORS: a button's name for a screen reader: the file */
          g_autofree char *name = g_strdup_printf (_("Show %s"), a->name);

          gtk_widget_set_valign (b, GTK_ALIGN_CENTER);
          gtk_widget_add_css_class (b, "flat");
          gtk_accessible_update_property (GTK_ACCESSIBLE (b), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                          -1);
          g_object_set_data (G_OBJECT (b), "artifact", GUINT_TO_POINTER (i));
          g_signal_connect (b, "clicked", G_CALLBACK (show_artifact_clicked), self);
          gtk_grid_attach (grid, b, 4, i + 1, 1, 1);
        }
    }
  return GTK_WIDGET (grid);
}

/* Where the files come from, or why there are none */
static char *
artifacts_note (KsAnatomyWindow *self)
{
  const KsAnatomy *an = self->anatomy;
  const KsArtifacts *k = an->artifacts;

  if (self->keep_running)
    return g_strdup (_("Compiling with nvcc --keep…"));
  if (self->keep_error != NULL)
    /* TRANSLATORS: nvcc's message */
    return g_strdup_printf (_("nvcc --keep failed: %s"), self->keep_error);
  if (k == NULL)
    return g_strdup (_("The files nvcc --keep leaves are listed when the CUDA is compiled here "
                       "(a CUDA toolkit is needed), or for a sample's unedited kernel."));
  if (!k->recorded)
    /* TRANSLATORS: the command, then the toolkit */
    return g_strdup_printf (_("Made here: %s, with %s."), k->command,
                            k->toolkit ? k->toolkit : "CUDA");
  if (g_strcmp0 (k->arch, an->arch) != 0)
    /* TRANSLATORS: the command, the toolkit, then the architecture of the
     * launch */
    return g_strdup_printf (_("No compilation here: the sample's record stands in, made by %s "
                              "with %s; its cubin is not %s's."), k->command,
                            k->toolkit ? k->toolkit : "CUDA", an->arch);
  /* TRANSLATORS: the command, then the toolkit */
  return g_strdup_printf (_("No compilation here: the sample's record stands in, made by %s "
                            "with %s."), k->command, k->toolkit ? k->toolkit : "CUDA");
}

static GtkWidget *
stage_page (KsAnatomyWindow *self,
            guint            i)
{
  const KsAnatomy *an = self->anatomy;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  g_autofree char *text = NULL;
  GtkGrid *grid = NULL;
  GtkWidget *extra = NULL, *link = NULL;
  int row = 0;

  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  {
    GtkWidget *title = text_label (stage_title (i), "title-2");

    gtk_accessible_update_property (GTK_ACCESSIBLE (title), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    stage_title (i), -1);
    gtk_box_append (GTK_BOX (box), title);
  }
  switch (i)
    {
    case 0:
      if (an->artifacts != NULL || self->keep_running || self->keep_error != NULL)
        {
          g_autofree char *name = kernel_name (an);
          g_autofree char *note = artifacts_note (self);

          /* TRANSLATORS: the kernel */
          text = g_strdup_printf (_("nvcc compiles %s in steps, each by a program of its own: "
                                    "the host compiler preprocesses the file twice, for the "
                                    "device and for the host; cicc compiles the device code to "
                                    "PTX, the virtual instruction set; ptxas assembles the PTX "
                                    "into SASS, the GPU's machine code, in a cubin; fatbinary "
                                    "puts the cubin and the PTX into one fat binary, which the "
                                    "host object carries. These are the files nvcc --keep "
                                    "leaves:"), name);
          extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
          gtk_box_append (GTK_BOX (extra), text_label (note, "dim-label"));
          if (an->artifacts != NULL)
            gtk_box_append (GTK_BOX (extra), wide (artifacts_grid (self)));
          break;
        }
      {
        g_autofree char *name = kernel_name (an);

        /* TRANSLATORS: the kernel, then the architecture twice */
        text = g_strdup_printf (_("nvcc compiles %s to PTX, the virtual instruction set, and ptxas "
                                  "compiles the PTX to SASS, %s's machine code. %s"),
                                name, an->arch,
                                an->sass_arch ? _("The SASS pane shows the listing read here.")
                                : _("No SASS was made or shipped for this architecture here: the "
                                    "PTX stands in."));
      }
      break;
    case 1:
      if (an->n_params > 0 && an->params[0].stub_offset != KS_ANATOMY_NONE)
        /* TRANSLATORS: parameters, bytes, then where the offsets come from */
        text = g_strdup_printf (_("The host stub hands the runtime the address of each of the "
                                  "%u arguments, noting each one's offset; the driver copies "
                                  "them into the %u-byte argument buffer in constant bank 0, "
                                  "where the SASS reads each one (c[0x0][offset]). Offsets are "
                                  "from the PTX's .param list%s; the last column is what the "
                                  "stub that nvcc wrote notes."), an->n_params, an->param_bytes,
                                an->params_from_cubin
                                ? _(", as the cubin's .nv.info records them") : "");
      else
        /* TRANSLATORS: parameters, bytes, then where they lie in constant bank 0 */
        text = g_strdup_printf (_("The host stub hands the runtime the address of each of the "
                                  "%u arguments; the driver copies them into the %u-byte "
                                  "argument buffer in constant bank 0, where the SASS reads "
                                  "each one (c[0x0][offset]). Offsets are from the PTX's .param "
                                  "list%s."), an->n_params, an->param_bytes,
                                an->params_from_cubin
                                ? _(", as the cubin's .nv.info records them") : "");
      grid = new_grid ();
      cell (grid, 0, 0, _("parameter"), TRUE);
      cell (grid, 1, 0, _("type"), TRUE);
      cell (grid, 2, 0, _("offset"), TRUE);
      cell (grid, 3, 0, _("size"), TRUE);
      cell (grid, 4, 0, _("alignment"), TRUE);
      cell (grid, 5, 0, _("constant bank 0"), TRUE);
      cell (grid, 6, 0, _("read in the SASS"), TRUE);
      if (an->n_params > 0 && an->params[0].stub_offset != KS_ANATOMY_NONE)
        cell (grid, 7, 0, _("the stub notes"), TRUE);
      for (uint32_t k = 0; k < an->n_params; k++)
        {
          const KsAnatomyParam *p = &an->params[k];
          g_autofree char *o = g_strdup_printf ("%u", p->offset);
          g_autofree char *s = g_strdup_printf ("%u", p->size);
          g_autofree char *a = g_strdup_printf ("%u", p->align);
          g_autofree char *c = p->cbank_offset != KS_ANATOMY_NONE
                               ? g_strdup_printf ("c[0x0][0x%x]", p->cbank_offset)
                               : g_strdup ("—");

          size_t kl = strlen (an->kernel);
          /* "_Z10vector_addPKfS0_Pfi_param_0" is the kernel's "param_0" */
          const char *name = strncmp (p->name, an->kernel, kl) == 0 && p->name[kl] == '_'
                             ? p->name + kl + 1 : p->name;

          cell (grid, 0, k + 1, name, FALSE);
          cell_start (grid, 1, k + 1, p->type ? p->type : "—");
          cell (grid, 2, k + 1, o, FALSE);
          cell (grid, 3, k + 1, s, FALSE);
          cell (grid, 4, k + 1, a, FALSE);
          cell (grid, 5, k + 1, c, FALSE);
          cell (grid, 6, k + 1, p->in_sass == 1 ? _("yes") : p->in_sass == 0 ? _("no") : "—",
                FALSE);
          if (p->stub_offset != KS_ANATOMY_NONE)
            {
              g_autofree char *n = g_strdup_printf ("%u", p->stub_offset);

              cell (grid, 7, k + 1, n, FALSE);
            }
        }
      break;
    case 2:
      text = g_strdup (_("cuLaunchKernel writes the launch into the driver's pushbuffer, points "
                         "a GPFIFO entry at it and rings the doorbell; the GPU reads a launch "
                         "record (QMD) with these fields. The fields are reconstructed from "
                         "the launch, not read from the hardware."));
      if (an->qmd_version != NULL)
        {
          /* TRANSLATORS: the QMD's version, as NVIDIA's headers number it */
          g_autofree char *layout = g_strdup_printf (
            _("Its 64 words as QMD version %s of NVIDIA's class headers (open-gpu-doc) lays "
              "them out, bit 31 on the left: the launch's fields coloured, the addresses the "
              "driver picks hatched."), an->qmd_version);

          extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
          gtk_box_append (GTK_BOX (extra), text_label (layout, NULL));
          self->qmd = picture (self, draw_qmd, _("The launch record's 64 words, with the "
                                                 "launch's fields coloured"), 300);
          gtk_box_append (GTK_BOX (extra), self->qmd);
          gtk_box_append (GTK_BOX (extra), wide (qmd_fields_grid (an)));
          if (an->compute_class != NULL)
            gtk_box_append (GTK_BOX (extra), submission_box (an));
        }
      else
        extra = text_label (_("KernelScope draws the record's words in the layouts NVIDIA's "
                              "headers document for sm_70 to sm_90 (QMD 02_02, 02_03 and "
                              "03_00); for this architecture only its fields are listed."),
                            "dim-label");
      /* the fields' table says the same where the words are drawn */
      if (an->qmd_version != NULL)
        break;
      grid = new_grid ();
      figure (grid, &row, _("grid"), g_strdup_printf ("%u × %u × %u", an->grid[0], an->grid[1],
                                                      an->grid[2]));
      figure (grid, &row, _("block"), g_strdup_printf ("%u × %u × %u", an->block[0],
                                                       an->block[1], an->block[2]));
      figure (grid, &row, _("registers a thread"), g_strdup_printf ("%u", an->registers));
      figure (grid, &row, _("shared memory a block"), g_strdup_printf (_("%u bytes"),
                                                                       an->shared_bytes));
      if (an->cbank_base != KS_ANATOMY_NONE)
        figure (grid, &row, _("constant bank 0"),
                g_strdup_printf (_("%u bytes"), an->cbank_base + an->param_bytes));
      figure (grid, &row, _("program"), kernel_name (an));
      break;
    case 3:
      if (an->have_occupancy)
        /* TRANSLATORS: blocks an SM, the limiter, SMs, blocks, waves */
        text = g_strdup_printf (_("The work distributor hands blocks to the SMs as they have "
                                  "room: %u blocks an SM at once (limited by %s) on %u SMs, so "
                                  "the grid's %llu blocks run in %.3g waves."),
                                an->blocks_per_sm,
                                ks_occupancy_limiter_label ((KsOccupancyLimiter) an->limiter_id),
                                an->sms, (unsigned long long) an->blocks, an->waves_per_sm);
      else
        text = g_strdup (_("This configuration cannot launch: see the Occupancy view."));
      if (an->have_occupancy && ks_anatomy_wave_count (an) > 0)
        {
          GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8), *scale;
          uint32_t n = ks_anatomy_wave_count (an);

          extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
          self->waves = picture (self, draw_waves, _("The SMs and their block slots in the "
                                                     "wave shown"), 260);
          gtk_box_append (GTK_BOX (extra), self->waves);
          self->wave = g_object_ref_sink (gtk_adjustment_new (n - 1, 0, n, 1, 1, 1));
          self->play = gtk_button_new_from_icon_name ("media-playback-start-symbolic");
          gtk_widget_set_valign (self->play, GTK_ALIGN_CENTER);
          gtk_widget_set_tooltip_text (self->play, _("Play the waves"));
          gtk_accessible_update_property (GTK_ACCESSIBLE (self->play),
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, _("Play the waves"),
                                          -1);
          g_signal_connect_swapped (self->play, "clicked", G_CALLBACK (play_clicked), self);
          scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->wave);
          gtk_scale_set_digits (GTK_SCALE (scale), 0);
          gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
          gtk_widget_set_size_request (scale, 160, -1);
          gtk_accessible_update_property (GTK_ACCESSIBLE (scale), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          _("Wave"), -1);
          self->wave_label = GTK_LABEL (text_label ("", NULL));
          gtk_widget_set_hexpand (GTK_WIDGET (self->wave_label), TRUE);
          gtk_box_append (GTK_BOX (controls), self->play);
          gtk_box_append (GTK_BOX (controls), scale);
          gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->wave_label));
          gtk_box_append (GTK_BOX (extra), controls);
          g_signal_connect_swapped (self->wave, "value-changed", G_CALLBACK (wave_changed), self);
          wave_changed (self);
          gtk_box_append (GTK_BOX (extra), wide (residency_grid (an)));
          gtk_box_append (GTK_BOX (extra), view_link (self, _("Show the _Occupancy view"),
                                                      "occupancy"));
        }
      break;
    case 4:
      /* TRANSLATORS: warps an SM, then each scheduler's warps of its slots, then schedulers */
      text = g_strdup_printf (_("An SM holds %u warps, %u of the %u slots of each of its %u "
                                "schedulers. Each cycle a scheduler issues one instruction of "
                                "an eligible warp: one whose operands are ready, as the SASS's "
                                "control codes and scoreboards say. The Timeline view shows "
                                "them."), an->warps_per_sm, an->warps_per_scheduler,
                              an->max_warps_per_scheduler, an->schedulers);
      extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
      gtk_box_append (GTK_BOX (extra), control_codes (an));
      if (an->n_sched_warps > 0)
        {
          /* TRANSLATORS: warps, cycles, then the issues in them and their share */
          g_autofree char *words = g_strdup_printf (
            _("The first scheduler's %u warps in KernelScope's timing model, over the first %u "
              "cycles: each issue a tick in its pipe's colour, the wait before it a band in "
              "its reason's. The scheduler issues in %u of those cycles (%.1f %%); in the "
              "others no warp it holds is eligible."), an->n_sched_warps, an->sched_cycles,
            an->n_sched_events, 100.0 * an->n_sched_events / MAX (an->sched_cycles, 1));

          gtk_box_append (GTK_BOX (extra), text_label (words, NULL));
          self->scheduler = picture (self, draw_scheduler,
                                     _("One scheduler's warps over the first cycles, from the "
                                       "timing model"), 200);
          gtk_box_append (GTK_BOX (extra), self->scheduler);
        }
      link = view_link (self, _("Show the _Timeline view"), "timeline");
      break;
    case 5:
      text = an->have_timing
             /* TRANSLATORS: bytes loaded and stored, of them the DRAM's, flops, flops a
              * byte of the loads and stores, then the same of DRAM's */
             ? g_strdup_printf (_("The warps' accesses are coalesced into 32-byte sectors and "
                                  "go through L1 and L2 to DRAM. The lanes load and store %.0f "
                                  "bytes, and %.0f bytes move to or from DRAM (KernelScope's "
                                  "model: what L2 holds stays there); %.0f floating-point "
                                  "operations make %.3g operations a byte loaded or stored, "
                                  "%.3g a byte of DRAM's. The roofline puts the launch against "
                                  "the GPU's memory bandwidth and FP32 peak."),
                                an->global_bytes, an->dram_bytes, an->flops,
                                an->global_intensity, an->arithmetic_intensity)
             : g_strdup (_("The launch was not timed."));
      if (an->gmem_requests > 0)
        {
          grid = new_grid ();
          cell (grid, 0, 0, _("level"), TRUE);
          cell (grid, 1, 0, _("bytes"), TRUE);
          row = 1;
          figure (grid, &row, _("the lanes ask for"), g_strdup_printf ("%.0f", an->global_bytes));
          /* TRANSLATORS: sectors a warp's request touches, then the fewest its bytes need */
          figure (grid, &row, _("L1: the requests' 32-byte sectors"),
                  g_strdup_printf (_("%.0f (%.2f sectors a request, %.2f at best)"),
                                   32 * an->gmem_sectors, an->gmem_sectors / an->gmem_requests,
                                   an->gmem_ideal_sectors / an->gmem_requests));
          figure (grid, &row, _("L2: the loads L1 missed, and the stores"),
                  g_strdup_printf ("%.0f", 32 * an->l2_sectors));
          if (an->have_timing)
            figure (grid, &row, _("DRAM (the timing model)"),
                    g_strdup_printf ("%.0f", an->dram_bytes));
        }
      extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
      if (an->have_warp_access)
        {
          g_autofree char *described = ks_memory_describe (&an->warp_access);
          /* TRANSLATORS: a picture's name for a screen reader, then what it shows */
          g_autofree char *name = g_strdup_printf (_("One warp's load: %s"), described);

          gtk_box_append (GTK_BOX (extra),
                          text_label (_("One warp's load, the first the simulator kept: each "
                                        "lane's address over the 128-byte lines and their "
                                        "32-byte sectors, coloured by where each sector came "
                                        "from."), NULL));
          self->warp = picture (self, draw_warp, name, 200);
          gtk_box_append (GTK_BOX (extra), self->warp);
        }
      if (an->have_timing && an->peak_gflops > 0)
        {
          self->roofline = picture (self, draw_roofline,
                                    _("The roofline: the GPU's roofs and the launch's point"),
                                    300);
          gtk_box_append (GTK_BOX (extra), self->roofline);
        }
      link = view_link (self, _("Show the _Memory view"), "memory");
      break;
    case 6:
      text = g_strdup (an->have_timing
                       ? _("What Nsight Compute would show for this launch, from KernelScope's "
                           "timing model, not a measurement.")
                       : _("The launch was not timed."));
      if (an->have_timing)
        {
          grid = figures_grid (an);
          extra = measured_words (an);
        }
      link = view_link (self, _("Show the _Timeline view"), "timeline");
      break;
    default:
      text = an->have_timing
             /* TRANSLATORS: the model's duration in microseconds */
             ? g_strdup_printf (_("The last block retires after %.2f µs (model); the GPU "
                                  "releases the completion semaphore, and the copy back to the "
                                  "host, waiting on it, reads the results from L2."),
                                an->duration_us)
             : g_strdup (_("The last block retires; the GPU releases the completion "
                           "semaphore, and the copy back to the host reads the results."));
      link = view_link (self, _("Show the _Output"), "output");
      break;
    }
  gtk_box_append (GTK_BOX (box), text_label (text, NULL));
  if (grid != NULL)
    gtk_box_append (GTK_BOX (box), wide (GTK_WIDGET (grid)));
  if (extra != NULL)
    gtk_box_append (GTK_BOX (box), extra);
  if (link != NULL)
    gtk_box_append (GTK_BOX (box), link);
  return box;
}

/* Makes stage i's page again (its figures changed) */
static void
fill_page (KsAnatomyWindow *self,
           guint            i)
{
  if (self->pages[i] == NULL)
    {
      self->pages[i] = gtk_scrolled_window_new ();
      /* the words wrap to the page's width; only a table wider than it scrolls */
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->pages[i]), GTK_POLICY_NEVER,
                                      GTK_POLICY_AUTOMATIC);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->pages[i]), stage_page (self, i));
}

static void
keep_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(GError) error = NULL;
  KsArtifacts *made = g_task_propagate_pointer (G_TASK (result), &error);
  KsAnatomyWindow *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = KS_ANATOMY_WINDOW (source);
  self->keep_running = FALSE;
  if (made != NULL)
    ks_anatomy_set_artifacts (self->anatomy, made);
  else
    self->keep_error = g_strdup (error->message);
  fill_page (self, 0);
  fill_page (self, 1);
}

typedef struct
{
  KsAnalysis *analysis;         /* its toolchain */
  char *path, *text, *arch;
} KeepData;

static void
keep_data_free (KeepData *k)
{
  ks_analysis_unref (k->analysis);
  g_free (k->path);
  g_free (k->text);
  g_free (k->arch);
  g_free (k);
}

static void
keep_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  KeepData *k = data;
  GError *error = NULL;
  KsArtifacts *made = ks_artifacts_make (k->analysis->toolchain, k->path, k->text, k->arch,
                                         cancellable, &error);

  if (made != NULL)
    g_task_return_pointer (task, made, (GDestroyNotify) ks_artifacts_free);
  else
    g_task_return_error (task, error);
}

void
ks_anatomy_window_compile (KsAnatomyWindow *self,
                           KsAnalysis      *analysis,
                           const char      *cuda_path,
                           const char      *cuda_text)
{
  g_autoptr(GTask) task = NULL;
  KeepData *k;

  g_return_if_fail (KS_IS_ANATOMY_WINDOW (self));
  g_return_if_fail (analysis != NULL && cuda_path != NULL);

  if (self->keep_cancel != NULL || analysis->toolchain == NULL || ks_toolkit_disabled ()
      || ks_toolchain_get_path (analysis->toolchain, KS_TOOL_NVCC) == NULL)
    return;
  self->keep_cancel = g_cancellable_new ();
  self->keep_running = TRUE;
  k = g_new0 (KeepData, 1);
  k->analysis = ks_analysis_ref (analysis);
  k->path = g_strdup (cuda_path);
  k->text = g_strdup (cuda_text);
  k->arch = g_strdup (self->anatomy->arch);
  task = g_task_new (self, self->keep_cancel, keep_done, NULL);
  g_task_set_task_data (task, k, (GDestroyNotify) keep_data_free);
  g_task_run_in_thread (task, keep_thread);
  fill_page (self, 0);
}

static void
update_buttons (KsAnatomyWindow *self)
{
  gtk_widget_set_sensitive (self->previous, self->stage > 0);
  gtk_widget_set_sensitive (self->next, self->stage + 1 < KS_ANATOMY_STAGES);
}

static void
visible_child_cb (KsAnatomyWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  for (guint i = 0; name != NULL && i < KS_ANATOMY_STAGES; i++)
    if (g_str_equal (name, stage_ids[i]))
      self->stage = i;
  update_buttons (self);
}

void
ks_anatomy_window_set_stage (KsAnatomyWindow *self,
                             guint            stage)
{
  g_return_if_fail (KS_IS_ANATOMY_WINDOW (self));
  self->stage = MIN (stage, KS_ANATOMY_STAGES - 1);
  gtk_stack_set_visible_child_name (self->stack, stage_ids[self->stage]);
  update_buttons (self);
}

guint
ks_anatomy_window_get_stage (KsAnatomyWindow *self)
{
  g_return_val_if_fail (KS_IS_ANATOMY_WINDOW (self), 0);
  return self->stage;
}

const KsAnatomy *
ks_anatomy_window_get_anatomy (KsAnatomyWindow *self)
{
  g_return_val_if_fail (KS_IS_ANATOMY_WINDOW (self), NULL);
  return self->anatomy;
}

void
ks_anatomy_window_set_presentation (KsAnatomyWindow *self,
                                    gboolean         presentation)
{
  g_return_if_fail (KS_IS_ANATOMY_WINDOW (self));
  if (presentation)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
  self->presentation = presentation;
  sizes_changed (self);
}

/* nvcc --keep is under way: the picture waits for its files */
static gboolean
compiling (GtkWindow *window)
{
  return KS_ANATOMY_WINDOW (window)->keep_running;
}

void
ks_anatomy_window_set_screenshot (KsAnatomyWindow *self,
                                  const char      *path,
                                  int              width,
                                  int              height)
{
  g_return_if_fail (KS_IS_ANATOMY_WINDOW (self));
  ks_shot_set (&self->shot, GTK_WINDOW (self), path, width, height);
  self->shot.busy = compiling;
  /* a few frames to lay the stage out */
  ks_shot_start (&self->shot, GTK_WINDOW (self), 800, NULL);
}

static void
step_action (GtkWidget  *widget,
             const char *action,
             GVariant   *parameter)
{
  KsAnatomyWindow *self = KS_ANATOMY_WINDOW (widget);

  if (g_str_equal (action, "anatomy.next") && self->stage + 1 < KS_ANATOMY_STAGES)
    ks_anatomy_window_set_stage (self, self->stage + 1);
  else if (g_str_equal (action, "anatomy.previous") && self->stage > 0)
    ks_anatomy_window_set_stage (self, self->stage - 1);
}

static void
ks_anatomy_window_dispose (GObject *object)
{
  KsAnatomyWindow *self = KS_ANATOMY_WINDOW (object);

  g_clear_handle_id (&self->play_source, g_source_remove);
  g_cancellable_cancel (self->keep_cancel);
  G_OBJECT_CLASS (ks_anatomy_window_parent_class)->dispose (object);
}

static void
ks_anatomy_window_finalize (GObject *object)
{
  KsAnatomyWindow *self = KS_ANATOMY_WINDOW (object);

  g_clear_object (&self->wave);
  g_clear_object (&self->keep_cancel);
  g_free (self->keep_error);
  ks_shot_clear (&self->shot);
  ks_anatomy_free (self->anatomy);
  G_OBJECT_CLASS (ks_anatomy_window_parent_class)->finalize (object);
}

static void
ks_anatomy_window_class_init (KsAnatomyWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ks_anatomy_window_dispose;
  G_OBJECT_CLASS (klass)->finalize = ks_anatomy_window_finalize;
  gtk_widget_class_install_action (widget_class, "anatomy.next", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "anatomy.previous", NULL, step_action);
  /* the arrows, and a presenter's clicker (Page Up/Down) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "anatomy.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "anatomy.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK,
                                       "anatomy.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "anatomy.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "anatomy.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "anatomy.previous",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ks_anatomy_window_init (KsAnatomyWindow *self)
{
  gtk_widget_add_css_class (GTK_WIDGET (self), "ks-anatomy");
}

KsAnatomyWindow *
ks_anatomy_window_new (GtkWindow        *parent,
                       const KsAnalysis *analysis,
                       GError          **error)
{
  KsAnatomy *an = ks_anatomy_new (analysis, error);
  KsAnatomyWindow *self;
  GtkWidget *header, *paned, *sidebar, *stack;
  g_autofree char *title = NULL;

  if (an == NULL)
    return NULL;
  self = g_object_new (KS_TYPE_ANATOMY_WINDOW, NULL);
  self->anatomy = an;
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
    }
  {
    g_autofree char *name = kernel_name (an);

    /* TRANSLATORS: the window's title: the kernel, then the GPU */
    title = g_strdup_printf (_("Launch Anatomy: %s on the %s"), name,
                             an->gpu_name ? an->gpu_name : an->arch);
  }
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 640);

  header = gtk_header_bar_new ();
  self->previous = gtk_button_new_from_icon_name ("go-previous-symbolic");
  self->next = gtk_button_new_from_icon_name ("go-next-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->previous), "anatomy.previous");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->next), "anatomy.next");
  gtk_widget_set_tooltip_text (self->previous, _("Previous stage (Page Up)"));
  gtk_widget_set_tooltip_text (self->next, _("Next stage (Page Down)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->previous),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Previous stage"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->next),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Next stage"), -1);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), self->previous);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), self->next);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  stack = gtk_stack_new ();
  self->stack = GTK_STACK (stack);
  gtk_stack_set_transition_type (self->stack, GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT);
  for (guint i = 0; i < KS_ANATOMY_STAGES; i++)
    {
      fill_page (self, i);
      gtk_stack_add_titled (self->stack, self->pages[i], stage_ids[i], stage_title (i));
    }
  sidebar = gtk_stack_sidebar_new ();
  gtk_stack_sidebar_set_stack (GTK_STACK_SIDEBAR (sidebar), self->stack);
  gtk_widget_set_size_request (sidebar, 200, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (sidebar), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("The launch's stages"), -1);
  gtk_widget_set_hexpand (stack, TRUE);
  paned = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (paned), sidebar);
  gtk_box_append (GTK_BOX (paned), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (paned), stack);
  gtk_window_set_child (GTK_WINDOW (self), paned);
  g_signal_connect_swapped (stack, "notify::visible-child", G_CALLBACK (visible_child_cb), self);
  sizes_changed (self);
  ks_anatomy_window_set_stage (self, 0);
  return self;
}
