/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy-window.c: the Launch Anatomy window (ks-anatomy-window.h).
 * Each stage is a page of a GtkStack, listed by a GtkStackSidebar; its
 * words are made here from the anatomy's figures, so that they are
 * translated as the rest of the window. */
#include "ks-anatomy-window.h"

#include <glib/gi18n.h>

#include "ks-occupancy.h"

struct _KsAnatomyWindow
{
  GtkWindow parent_instance;

  KsAnatomy *anatomy;
  GtkStack *stack;
  GtkWidget *previous, *next;
  guint stage;
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

static GtkGrid *
new_grid (void)
{
  GtkWidget *g = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (g), 14);
  gtk_grid_set_row_spacing (GTK_GRID (g), 6);
  gtk_widget_set_halign (g, GTK_ALIGN_START);
  return GTK_GRID (g);
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

static GtkWidget *
stage_page (KsAnatomyWindow *self,
            guint            i)
{
  const KsAnatomy *an = self->anatomy;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  g_autofree char *text = NULL;
  GtkGrid *grid = NULL;
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
      /* TRANSLATORS: the kernel, then the architecture twice */
      text = g_strdup_printf (_("nvcc compiles %s to PTX, the virtual instruction set, and ptxas "
                                "compiles the PTX to SASS, %s's machine code. %s"),
                              an->kernel, an->arch,
                              an->sass_arch ? _("The SASS pane shows the listing read here.")
                              : _("No SASS was made or shipped for this architecture here: the "
                                  "PTX stands in."));
      break;
    case 1:
      /* TRANSLATORS: parameters, bytes, then where they lie in constant bank 0 */
      text = g_strdup_printf (_("The host stub packs %u parameters, %u bytes, into the argument "
                                "buffer; the driver copies it into constant bank 0, where the "
                                "SASS reads each one (c[0x0][offset]). Offsets are from the "
                                "PTX's .param list%s."), an->n_params, an->param_bytes,
                              an->params_from_cubin ? _(", as the cubin's .nv.info records them")
                              : "");
      grid = new_grid ();
      cell (grid, 0, 0, _("parameter"), TRUE);
      cell (grid, 1, 0, _("offset"), TRUE);
      cell (grid, 2, 0, _("size"), TRUE);
      cell (grid, 3, 0, _("alignment"), TRUE);
      cell (grid, 4, 0, _("constant bank 0"), TRUE);
      cell (grid, 5, 0, _("read in the SASS"), TRUE);
      for (uint32_t k = 0; k < an->n_params; k++)
        {
          const KsAnatomyParam *p = &an->params[k];
          g_autofree char *o = g_strdup_printf ("%u", p->offset);
          g_autofree char *s = g_strdup_printf ("%u", p->size);
          g_autofree char *a = g_strdup_printf ("%u", p->align);
          g_autofree char *c = p->cbank_offset != KS_ANATOMY_NONE
                               ? g_strdup_printf ("c[0x0][0x%x]", p->cbank_offset)
                               : g_strdup ("—");

          cell (grid, 0, k + 1, p->name, FALSE);
          cell (grid, 1, k + 1, o, FALSE);
          cell (grid, 2, k + 1, s, FALSE);
          cell (grid, 3, k + 1, a, FALSE);
          cell (grid, 4, k + 1, c, FALSE);
          cell (grid, 5, k + 1, p->in_sass == 1 ? _("yes") : p->in_sass == 0 ? _("no") : "—",
                FALSE);
        }
      break;
    case 2:
      text = g_strdup (_("cuLaunchKernel writes the launch into the driver's pushbuffer, points "
                         "a GPFIFO entry at it and rings the doorbell; the GPU reads a launch "
                         "record (QMD) with these fields. The fields are reconstructed from "
                         "the launch, not read from the hardware."));
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
      figure (grid, &row, _("program"), g_strdup (an->kernel));
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
      break;
    case 4:
      /* TRANSLATORS: warps an SM, then each scheduler's warps of its slots, then schedulers */
      text = g_strdup_printf (_("An SM holds %u warps, %u of the %u slots of each of its %u "
                                "schedulers. Each cycle a scheduler issues one instruction of "
                                "an eligible warp: one whose operands are ready, as the SASS's "
                                "control codes and scoreboards say. The Timeline view shows "
                                "them."), an->warps_per_sm, an->warps_per_scheduler,
                              an->max_warps_per_scheduler, an->schedulers);
      break;
    case 5:
      text = an->have_timing
             /* TRANSLATORS: DRAM bytes, flops, flops a byte */
             ? g_strdup_printf (_("The warps' accesses are coalesced into 32-byte sectors and "
                                  "go through L1 and L2 to DRAM: %.0f bytes from DRAM, %.3g "
                                  "floating-point operations, %.3g operations a byte "
                                  "(KernelScope's model). The Memory view shows one warp's "
                                  "sectors."), an->dram_bytes, an->flops,
                                an->arithmetic_intensity)
             : g_strdup (_("The launch was not timed."));
      break;
    case 6:
      text = g_strdup (an->have_timing
                       ? _("What Nsight Compute would show for this launch, from KernelScope's "
                           "timing model, not a measurement.")
                       : _("The launch was not timed."));
      if (an->have_timing)
        {
          grid = new_grid ();
          figure (grid, &row, "launch__grid_size", g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                                    an->blocks));
          figure (grid, &row, "launch__block_size",
                  g_strdup_printf ("%u", an->block[0] * an->block[1] * an->block[2]));
          figure (grid, &row, "launch__registers_per_thread", g_strdup_printf ("%u",
                                                                               an->registers));
          figure (grid, &row, "launch__waves_per_multiprocessor",
                  g_strdup_printf ("%.3g", an->waves_per_sm));
          figure (grid, &row, "sm__warps_active.avg.pct_of_peak",
                  g_strdup_printf ("%.2f %%", 100 * an->warps_active));
          figure (grid, &row, "smsp__issue_active.avg.pct_of_peak",
                  g_strdup_printf ("%.2f %%", 100 * an->issue_active));
          figure (grid, &row, "dram__throughput.avg.pct_of_peak",
                  g_strdup_printf ("%.2f %%", 100 * an->dram_throughput));
          figure (grid, &row, "gpu__time_duration.sum", g_strdup_printf ("%.2f µs",
                                                                         an->duration_us));
        }
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
      break;
    }
  gtk_box_append (GTK_BOX (box), text_label (text, NULL));
  if (grid != NULL)
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (grid));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  /* the words wrap to the page's width; only a table wider than it scrolls */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  if (grid != NULL)
    {
      GtkWidget *wide = gtk_scrolled_window_new ();

      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (wide), GTK_POLICY_AUTOMATIC,
                                      GTK_POLICY_NEVER);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (wide), TRUE);
      g_object_ref (grid);
      gtk_box_remove (GTK_BOX (box), GTK_WIDGET (grid));
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (wide), GTK_WIDGET (grid));
      g_object_unref (grid);
      gtk_box_append (GTK_BOX (box), wide);
    }
  return scroller;
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
ks_anatomy_window_finalize (GObject *object)
{
  ks_anatomy_free (KS_ANATOMY_WINDOW (object)->anatomy);
  G_OBJECT_CLASS (ks_anatomy_window_parent_class)->finalize (object);
}

static void
ks_anatomy_window_class_init (KsAnatomyWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

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
  /* TRANSLATORS: the window's title: the kernel, then the GPU */
  title = g_strdup_printf (_("Launch Anatomy: %s on the %s"), an->kernel,
                           an->gpu_name ? an->gpu_name : an->arch);
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
    gtk_stack_add_titled (self->stack, stage_page (self, i), stage_ids[i], stage_title (i));
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
  ks_anatomy_window_set_stage (self, 0);
  return self;
}
