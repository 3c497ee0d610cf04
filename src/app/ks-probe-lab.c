/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-lab.c: the Probe Lab window.
 *
 * Each experiment runs in a worker thread (ks_probe_run: the probes
 * through the simulator and the timing model, a few seconds at most); a
 * run that a newer one has replaced is dropped when it comes back.  The
 * last result of each experiment stays, so going back to one shows it at
 * once; a change of GPU runs it again. */

#include "ks-probe-lab-private.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <math.h>

#include "ks-a11y.h"
#include "ks-occupancy.h"
#include "ks-application.h"
#include "ks-cuda.h"
#include "ks-toolchain.h"
#include "ks-gpu-db.h"
#include "ks-probe-render.h"
#include "ks-probe-view.h"
#include "ks-widget-util.h"

#define DEFAULT_GPU "rtx-3090"

G_DEFINE_FINAL_TYPE (KsProbeLab, ks_probe_lab, GTK_TYPE_WINDOW)

static void show_result (KsProbeLab *self);

static const char *
gpu_id (KsProbeLab *self)
{
  guint i = gtk_drop_down_get_selected (self->gpu_dropdown);

  if (self->gpu_ids == NULL || i == GTK_INVALID_LIST_POSITION || self->gpu_ids[i] == NULL)
    return DEFAULT_GPU;
  return self->gpu_ids[i];
}

/* The instruction chosen, for an experiment that times one; else NULL */
static const char *
instruction_id (KsProbeLab *self)
{
  guint n, i = gtk_drop_down_get_selected (self->instruction_dropdown);
  const char *const *ops = ks_probe_instructions (&n);

  if (self->tmpl == NULL || !ks_probe_template_takes_instruction (self->tmpl))
    return NULL;
  return i < n ? ops[i] : ops[0];
}

/* The results' key: the experiment, and its instruction */
static char *
result_key (const KsProbeTemplate *tmpl,
            const char            *instruction)
{
  return g_strdup_printf ("%s/%s", ks_probe_template_name (tmpl), instruction ? instruction : "");
}

static const KsProbeResult *
cached_result (KsProbeLab *self)
{
  g_autofree char *key = NULL;

  if (self->tmpl == NULL)
    return NULL;
  key = result_key (self->tmpl, instruction_id (self));
  return g_hash_table_lookup (self->results, key);
}

static void
set_status (KsProbeLab *self,
            const char *text)
{
  gtk_label_set_text (self->status_label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->status_label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

/* ---------------------------------------------------------------------- */
/* Running */

typedef struct
{
  const KsProbeTemplate *tmpl;
  char *instruction;
  char *gpu;
  gboolean use_toolkit;
  gint64 started;
  char *ptx;                    /* an edited probe's (lab.run-edit), or NULL: the sweep */
  double x;                     /* the value it stands for */
  char *key;                    /* the result key it was edited under */
  char *gpu_note;               /* set by the thread: why a GPU that is here did not run it */
} RunData;

static void
run_data_free (RunData *d)
{
  g_free (d->gpu);
  g_free (d->instruction);
  g_free (d->ptx);
  g_free (d->key);
  g_free (d->gpu_note);
  g_free (d);
}

/* The spinner turns while the sweep or an edited probe runs */
static void
update_busy (KsProbeLab *self)
{
  gboolean busy = self->running || self->edit_running;

  if (busy)
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lab.run", !self->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lab.run-edit", !self->edit_running);
}

static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  RunData *d = task_data;
  KsProbeOptions opt;
  GError *error = NULL;
  KsProbeResult *r;

  ks_probe_options_init (&opt);
  opt.gpu = d->gpu;
  opt.instruction = d->instruction;
  opt.use_toolkit = d->use_toolkit;
  r = d->ptx ? ks_probe_run_ptx (d->tmpl, &opt, d->x, d->ptx, &error)
             : ks_probe_run (d->tmpl, &opt, &error);
  /* on the GPU too when the driver sees one (seed section 11's 10 warm-up
   * and 100 measured runs); without one the model's figures stand alone */
  if (r != NULL)
    {
      g_autoptr(KsCuda) cuda = ks_cuda_open (NULL);
      g_autoptr(GError) why = NULL;

      if (cuda != NULL && !ks_probe_run_on_gpu (r, cuda, 0, 10, 100, &why))
        d->gpu_note = g_strdup (why->message);
    }
  if (r == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, r, (GDestroyNotify) ks_probe_result_free);
}

/* --screenshot: the picture is of a result */
static gboolean
lab_shows_result (GtkWindow *window)
{
  return KS_PROBE_LAB (window)->shown != NULL;
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  KsProbeLab *self = KS_PROBE_LAB (source);
  RunData *d = g_task_get_task_data (G_TASK (res));
  g_autoptr(GError) error = NULL;
  KsProbeResult *r = g_task_propagate_pointer (G_TASK (res), &error);
  double seconds = (g_get_monotonic_time () - d->started) / 1e6;
  g_autofree char *key = result_key (d->tmpl, d->instruction);

  /* a run that a newer one replaced, or a window that has gone */
  if (GPOINTER_TO_UINT (user_data) != self->run_serial || self->results == NULL)
    {
      g_clear_pointer (&r, ks_probe_result_free);
      return;
    }
  self->running = FALSE;
  update_busy (self);
  g_clear_pointer (&self->run_error, g_free);
  if (r == NULL)
    {
      g_autofree char *text = NULL;

      g_autofree char *title = ks_probe_title (d->tmpl, d->instruction);

      /* TRANSLATORS: %s is the experiment's title, then why its probes did not run */
      text = g_strdup_printf (_("%s did not run: %s"), title, error->message);
      self->run_error = g_strdup (text);
      g_hash_table_remove (self->results, key);
      show_result (self);
    }
  else
    {
      g_autofree char *text = NULL;
      const char *gpu_name = d->gpu;

      for (uint32_t i = 0; self->db != NULL && i < self->db->n_gpus; i++)
        if (g_str_equal (self->db->gpus[i].id, d->gpu))
          gpu_name = self->db->gpus[i].name;
      g_hash_table_replace (self->results, g_steal_pointer (&key), r);
      show_result (self);
      if (r->device != NULL)
        /* TRANSLATORS: the GPU that ran the probes, its runs a point, then
         * the model's GPU, its architecture and the run's seconds */
        text = g_strdup_printf (_("Measured on the %s (%u runs a point) and ran on KernelScope's "
                                  "timing model of the %s (%s) in %.1f s: the plot shows both."),
                                r->device, r->measured_runs, gpu_name, r->arch, seconds);
      else if (d->gpu_note != NULL)
        /* TRANSLATORS: the GPU's name, its architecture, the run's seconds,
         * then why the GPU that is here did not run the probes */
        text = g_strdup_printf (_("Ran on KernelScope's timing model of the %s (%s) in %.1f s; "
                                  "the GPU did not run it: %s"),
                                gpu_name, r->arch, seconds, d->gpu_note);
      else
        /* TRANSLATORS: the GPU's name, its architecture, the run's seconds */
        text = g_strdup_printf (_("Ran on KernelScope's timing model of the %s (%s) in %.1f s: "
                                  "every figure is the model's, not a measurement."),
                                gpu_name, r->arch, seconds);
      set_status (self, text);
    }
  ks_shot_start (&self->shot, GTK_WINDOW (self), 300, lab_shows_result);
}

void
ks_probe_lab_run (KsProbeLab *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *text = NULL, *title = NULL;
  RunData *d;

  g_return_if_fail (KS_IS_PROBE_LAB (self));
  if (self->tmpl == NULL)
    return;
  d = g_new0 (RunData, 1);
  d->tmpl = self->tmpl;
  d->instruction = g_strdup (instruction_id (self));
  d->gpu = g_strdup (gpu_id (self));
  d->use_toolkit = !ks_toolkit_disabled ();
  d->started = g_get_monotonic_time ();
  self->run_serial++;
  self->running = TRUE;
  update_busy (self);
  title = ks_probe_title (self->tmpl, d->instruction);
  /* TRANSLATORS: %s is the experiment's title */
  text = g_strdup_printf (_("Running %s: each probe and its controls through the simulator and "
                            "the timing model…"), title);
  set_status (self, text);
  task = g_task_new (self, NULL, run_done_cb, GUINT_TO_POINTER (self->run_serial));
  g_task_set_source_tag (task, ks_probe_lab_run);
  g_task_set_task_data (task, d, (GDestroyNotify) run_data_free);
  g_task_run_in_thread (task, run_thread);
}

gboolean
ks_probe_lab_is_running (KsProbeLab *self)
{
  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  return self->running || self->edit_running;
}

/* ---------------------------------------------------------------------- */
/* Showing a result */

static GtkSourceBuffer *
buffer_of (GtkSourceView *view)
{
  return GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
}

static void
clear_highlight (KsProbeLab *self)
{
  GtkSourceView *views[] = { self->ptx_view, self->sass_view };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkTextBuffer *b = GTK_TEXT_BUFFER (buffer_of (views[i]));
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (b, &start, &end);
      gtk_text_buffer_remove_tag_by_name (b, "ks-probe-check", &start, &end);
    }
  g_array_set_size (self->highlighted, 0);
  self->highlighted_view = NULL;
}

static void
highlight_lines (KsProbeLab    *self,
                 GtkSourceView *view,
                 const GArray  *lines)
{
  GtkTextBuffer *b = GTK_TEXT_BUFFER (buffer_of (view));
  GtkTextIter first;
  gboolean have_first = FALSE;

  clear_highlight (self);
  for (guint i = 0; i < lines->len; i++)
    {
      guint32 line = g_array_index (lines, guint32, i);
      GtkTextIter start, end;

      if (line == 0 || !gtk_text_buffer_get_iter_at_line (b, &start, (int) line - 1))
        continue;
      end = start;
      if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_to_line_end (&end);
      gtk_text_buffer_apply_tag_by_name (b, "ks-probe-check", &start, &end);
      g_array_append_val (self->highlighted, line);
      if (!have_first)
        {
          first = start;
          have_first = TRUE;
        }
    }
  self->highlighted_view = GTK_WIDGET (view);
  if (have_first)
    {
      GtkTextMark *mark = gtk_text_buffer_get_mark (b, "ks-probe-first");

      gtk_text_buffer_place_cursor (b, &first);
      if (mark == NULL)
        mark = gtk_text_buffer_create_mark (b, "ks-probe-first", &first, TRUE);
      else
        gtk_text_buffer_move_mark (b, mark, &first);
      gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (view), mark, 0.1, TRUE, 0, 0.2);
    }
}

gboolean
ks_probe_lab_show_check (KsProbeLab *self,
                         guint       index)
{
  const KsProbeCheck *c;
  GtkSourceView *view;
  const GArray *lines;

  const KsProbeResult *r;
  GtkWidget *page;

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  /* the rows are the edit's checks while it is verified */
  r = self->edited ? self->edited : self->shown;
  if (r == NULL || index >= r->checks->len)
    return FALSE;
  c = g_ptr_array_index (r->checks, index);
  view = c->lines->len > 0 || c->sass_lines->len == 0 ? self->ptx_view : self->sass_view;
  lines = view == self->ptx_view ? c->lines : c->sass_lines;
  if (lines->len == 0)
    {
      clear_highlight (self);
      return FALSE;
    }
  /* the notebook's page that holds the view */
  page = GTK_WIDGET (view);
  while (page != NULL && gtk_notebook_page_num (self->notebook, page) < 0)
    page = gtk_widget_get_parent (page);
  if (page != NULL)
    gtk_notebook_set_current_page (self->notebook, gtk_notebook_page_num (self->notebook, page));
  highlight_lines (self, view, lines);
  return TRUE;
}

const GArray *
ks_probe_lab_get_highlighted (KsProbeLab *self,
                              GtkWidget **view)
{
  g_return_val_if_fail (KS_IS_PROBE_LAB (self), NULL);
  if (view != NULL)
    *view = self->highlighted_view;
  return self->highlighted;
}

static void
check_row_activated_cb (KsProbeLab    *self,
                        GtkListBoxRow *row,
                        GtkListBox    *box)
{
  if (row != NULL)
    ks_probe_lab_show_check (self, (guint) gtk_list_box_row_get_index (row));
}

static void
remove_children (GtkWidget *parent)
{
  GtkWidget *c;

  while ((c = gtk_widget_get_first_child (parent)) != NULL)
    {
      if (GTK_IS_LIST_BOX (parent))
        gtk_list_box_remove (GTK_LIST_BOX (parent), c);
      else if (GTK_IS_GRID (parent))
        gtk_grid_remove (GTK_GRID (parent), c);
      else
        gtk_widget_unparent (c);
    }
}

static GtkWidget *
check_row (const KsProbeCheck *c)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon, *item, *detail;
  /* the state in words too: colour alone does not reach everyone */
  const char *state = !c->checked ? _("Not checked") : c->pass ? _("Passed") : _("Failed");
  g_autofree char *name = NULL;

  icon = gtk_image_new_from_icon_name (!c->checked ? "dialog-question-symbolic"
                                       : c->pass ? "emblem-ok-symbolic" : "dialog-error-symbolic");
  gtk_widget_add_css_class (icon, !c->checked ? "dim-label" : c->pass ? "success" : "error");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  item = gtk_label_new (NULL);
  {
    g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b> · %s", _(c->item), state);

    gtk_label_set_markup (GTK_LABEL (item), markup);
  }
  gtk_label_set_xalign (GTK_LABEL (item), 0);
  gtk_label_set_wrap (GTK_LABEL (item), TRUE);
  detail = gtk_label_new (c->detail);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
  gtk_widget_add_css_class (detail, "caption");
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_box_append (GTK_BOX (text), item);
  gtk_box_append (GTK_BOX (text), detail);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  name = g_strdup_printf ("%s: %s. %s", state, _(c->item), c->detail);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  if (c->lines->len > 0 || c->sass_lines->len > 0)
    gtk_widget_set_tooltip_text (row, _("Show the probe's lines this check is about"));
  return row;
}

static void
grid_cell (GtkGrid    *grid,
           int         column,
           int         row,
           const char *text,
           gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), heading ? 0 : 1);
  gtk_label_set_selectable (GTK_LABEL (label), !heading);
  if (heading)
    gtk_widget_add_css_class (label, "heading");
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static char *
int_or_dash (int v)
{
  return v < 0 ? g_strdup ("—") : g_strdup_printf ("%d", v);
}

/* Whether the saved experiment opened is one of r's experiment,
 * instruction and GPU: what it can be compared with */
static gboolean
compare_matches (KsProbeLab          *self,
                 const KsProbeResult *r)
{
  const KsProbeResult *c = self->compare;

  return c != NULL && r != NULL && c->tmpl == r->tmpl
         && g_strcmp0 (c->instruction, r->instruction) == 0 && g_strcmp0 (c->gpu, r->gpu) == 0;
}

/* The saved point at x, or NULL */
static const KsProbePoint *
compare_point (KsProbeLab *self,
               double      x)
{
  for (guint i = 0; self->compare != NULL && i < self->compare->points->len; i++)
    if (g_array_index (self->compare->points, KsProbePoint, i).x == x)
      return &g_array_index (self->compare->points, KsProbePoint, i);
  return NULL;
}

/* The second series on the plot: the saved experiment when it matches */
static void
show_other (KsProbeLab *self)
{
  if (compare_matches (self, self->shown))
    ks_probe_view_set_other (self->plot, self->compare, self->compare_label);
  else if (self->measured != NULL)
    ks_probe_view_set_other (self->plot, self->measured, self->measured_label);
  else
    ks_probe_view_set_other (self->plot, NULL, NULL);
}

static void
fill_points (KsProbeLab          *self,
             const KsProbeResult *r)
{
  gboolean compare = compare_matches (self, r);
  gboolean ways = !isnan (g_array_index (r->points, KsProbePoint, 0).ways);
  gboolean warps = g_array_index (r->points, KsProbePoint, 0).resident_warps >= 0;
  const char *heads[] = {
    _(ks_probe_template_axis (r->tmpl)), _("instructions"), _("cycles"),
    _("cycles per instruction"), _("less the empty loop"), _("registers"),
    _("spill bytes (loads, stores)"), _("checksum"),
    ways ? _("passes per load") : warps ? _("warps an SM (occupancy)") : NULL,
  };
  int n_heads = ways || warps ? 9 : 8;
  gboolean gpu = r->device != NULL;
  int extra = n_heads;

  remove_children (GTK_WIDGET (self->points_grid));
  for (int k = 0; k < n_heads; k++)
    grid_cell (self->points_grid, k, 0, heads[k], TRUE);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);
      g_autofree char *x = ks_probe_chart_format_x (r, p->x);
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, p->instructions);
      g_autofree char *cy = g_strdup_printf ("%" G_GUINT64_FORMAT, p->total_cycles);
      g_autofree char *cpi = g_strdup_printf ("%.3f", p->cycles_per_instruction);
      g_autofree char *cor = isnan (p->corrected) ? g_strdup ("—")
                             : g_strdup_printf ("%.3f", p->corrected);
      g_autofree char *regs = int_or_dash (p->registers);
      g_autofree char *sl = int_or_dash (p->spill_loads), *ss = int_or_dash (p->spill_stores);
      g_autofree char *spills = g_strdup_printf ("%s, %s", sl, ss);
      g_autofree char *sum = g_strdup_printf ("%.9g", p->checksum);
      g_autofree char *w = ways ? g_strdup_printf ("%.2f", p->ways)
                           : warps ? g_strdup_printf ("%d (%s)", p->resident_warps,
                                                      ks_occupancy_limiter_label (p->limiter))
                           : NULL;
      const char *cells[] = { x, n, cy, cpi, cor, regs, spills, sum, w };

      for (int k = 0; k < n_heads; k++)
        grid_cell (self->points_grid, k, (int) i + 1, cells[k], FALSE);
      if (gpu)
        {
          /* the GPU's runs: median, its spread (p5 to p95), corrected */
          g_autofree char *med = p->gpu.count ? g_strdup_printf ("%.3f", p->gpu.median)
                                              : g_strdup ("—");
          g_autofree char *spread = p->gpu.count ? g_strdup_printf ("%.3f – %.3f", p->gpu.p5,
                                                                    p->gpu.p95)
                                                 : g_strdup ("—");
          g_autofree char *gcor = isnan (p->gpu_corrected) ? g_strdup ("—")
                                  : g_strdup_printf ("%.3f", p->gpu_corrected);

          grid_cell (self->points_grid, n_heads, (int) i + 1, med, FALSE);
          grid_cell (self->points_grid, n_heads + 1, (int) i + 1, spread, FALSE);
          grid_cell (self->points_grid, n_heads + 2, (int) i + 1, gcor, FALSE);
        }
      if (compare)
        {
          const KsProbePoint *c = compare_point (self, p->x);
          g_autofree char *saved = c ? g_strdup_printf ("%.3f", c->cycles_per_instruction)
                                     : g_strdup ("—");

          grid_cell (self->points_grid, n_heads + (gpu ? 3 : 0), (int) i + 1, saved, FALSE);
        }
    }
  if (gpu)
    {
      /* TRANSLATORS: the figures' columns of a GPU's runs */
      grid_cell (self->points_grid, n_heads, 0, _("measured, median"), TRUE);
      grid_cell (self->points_grid, n_heads + 1, 0, _("measured, 5th to 95th percentile"), TRUE);
      grid_cell (self->points_grid, n_heads + 2, 0, _("measured, less the empty loop"), TRUE);
      extra += 3;
    }
  if (compare)
    {
      /* TRANSLATORS: the figures' column of a saved experiment's cycles
       * per instruction; %s is its legend name ("saved 2026-12-04") */
      g_autofree char *head = g_strdup_printf (_("cycles per instruction, %s"),
                                               self->compare_label);

      grid_cell (self->points_grid, extra, 0, head, TRUE);
    }
}

/* A row under the sweep's for the edited probe's one point */
static void
add_edit_row (KsProbeLab          *self,
              const KsProbeResult *e)
{
  const KsProbePoint *p = &g_array_index (e->points, KsProbePoint, 0);
  g_autofree char *x = ks_probe_chart_format_x (e, p->x);
  /* TRANSLATORS: the figures' row of the probe edited by hand; %s is the
   * value of the experiment's variable it stands for */
  g_autofree char *name = g_strdup_printf (_("%s, your edit"), x);
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, p->instructions);
  g_autofree char *cy = g_strdup_printf ("%" G_GUINT64_FORMAT, p->total_cycles);
  g_autofree char *cpi = g_strdup_printf ("%.3f", p->cycles_per_instruction);
  g_autofree char *regs = int_or_dash (p->registers);
  g_autofree char *sl = int_or_dash (p->spill_loads), *ss = int_or_dash (p->spill_stores);
  g_autofree char *spills = g_strdup_printf ("%s, %s", sl, ss);
  g_autofree char *sum = g_strdup_printf ("%.9g", p->checksum);
  const char *cells[] = { name, n, cy, cpi, "—", regs, spills, sum };
  int row = (int) (self->shown ? self->shown->points->len : 0) + 1;

  for (int k = 0; k < (int) G_N_ELEMENTS (cells); k++)
    grid_cell (self->points_grid, k, row, cells[k], FALSE);
}

static void
set_text (GtkSourceView *view,
          const char    *text)
{
  GtkTextBuffer *b = GTK_TEXT_BUFFER (buffer_of (view));
  GtkTextIter start;

  gtk_text_buffer_set_text (b, text ? text : "", -1);
  gtk_text_buffer_set_modified (b, FALSE);
  gtk_text_buffer_get_start_iter (b, &start);
  gtk_text_buffer_place_cursor (b, &start);
}

/* The checklist of r, the experiment's or the edited probe's */
static void
fill_checks (KsProbeLab          *self,
             const KsProbeResult *r,
             gboolean             edited)
{
  guint failed = 0, unchecked = 0;
  g_autofree char *heading = NULL;

  remove_children (GTK_WIDGET (self->check_list));
  for (guint i = 0; i < r->checks->len; i++)
    {
      const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      gtk_list_box_append (self->check_list, check_row (c));
      failed += c->checked && !c->pass;
      unchecked += !c->checked;
    }
  if (edited && failed > 0)
    heading = g_strdup_printf (ngettext ("Your edit: %u check failed",
                                         "Your edit: %u checks failed", failed), failed);
  else if (edited && unchecked > 0)
    heading = g_strdup_printf (ngettext ("Your edit: passed, %u not checked here",
                                         "Your edit: passed, %u not checked here",
                                         unchecked), unchecked);
  else if (edited)
    heading = g_strdup (_("Your edit: every check passed"));
  else if (failed > 0)
    heading = g_strdup_printf (ngettext ("Verification: %u check failed",
                                         "Verification: %u checks failed", failed), failed);
  else if (unchecked > 0)
    heading = g_strdup_printf (ngettext ("Verification: passed, %u not checked here",
                                         "Verification: passed, %u not checked here",
                                         unchecked), unchecked);
  else
    heading = g_strdup (_("Verification: every check passed"));
  gtk_label_set_text (self->verification_heading, heading);
}

/* Keeps the PTX pane's text when the user edited it, under the result
 * key it was the probe of, so that no edit is lost when another
 * experiment, instruction or GPU is shown: going back shows it again */
static void
keep_edit (KsProbeLab *self)
{
  GtkTextBuffer *b = GTK_TEXT_BUFFER (buffer_of (self->ptx_view));
  GtkTextIter start, end;
  char *text;

  if (self->edit_key == NULL || self->pane_ptx == NULL)
    return;
  gtk_text_buffer_get_bounds (b, &start, &end);
  text = gtk_text_buffer_get_text (b, &start, &end, FALSE);
  if (g_strcmp0 (text, self->pane_ptx) != 0)
    g_hash_table_replace (self->edits, g_strdup (self->edit_key), text);
  else
    {
      /* edited back to the experiment's own */
      g_hash_table_remove (self->edits, self->edit_key);
      g_free (text);
    }
}

/* The selected experiment's last result, or what stands in its place */
static void
show_result (KsProbeLab *self)
{
  const KsProbeResult *r = cached_result (self);
  const char *edit = NULL;

  keep_edit (self);
  g_clear_pointer (&self->edit_key, g_free);
  if (self->tmpl != NULL)
    {
      self->edit_key = result_key (self->tmpl, instruction_id (self));
      edit = g_hash_table_lookup (self->edits, self->edit_key);
    }
  self->shown = r;
  /* the plot may draw the edit, and may still hold a result a run just
   * replaced (freed): let go of both before anything reads them */
  ks_probe_view_set_result (self->plot, NULL);
  ks_probe_view_set_other (self->plot, NULL, NULL);
  g_clear_pointer (&self->edited, ks_probe_result_free);
  g_clear_pointer (&self->measured, ks_probe_result_free);
  g_clear_pointer (&self->measured_label, g_free);
  if (r != NULL && r->device != NULL)
    {
      /* the legend names the GPU without its architecture and SMs */
      const char *paren = strstr (r->device, " (");
      g_autofree char *name = paren ? g_strndup (r->device, paren - r->device)
                                    : g_strdup (r->device);

      self->measured = ks_probe_result_measured (r);
      /* TRANSLATORS: the plot's legend for a GPU's figures; %s is the GPU */
      self->measured_label = g_strdup_printf (_("measured on %s"), name);
    }
  /* an edited probe still running was of what was shown before */
  self->edit_serial++;
  self->edit_running = FALSE;
  update_busy (self);
  gtk_label_set_text (self->edit_label, _("Edit the probe, then verify or run it"));
  clear_highlight (self);
  ks_probe_view_set_result (self->plot, r);
  show_other (self);
  remove_children (GTK_WIDGET (self->check_list));
  remove_children (GTK_WIDGET (self->points_grid));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lab.save", r != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lab.export-plot", r != NULL);
  if (r == NULL)
    {
      set_text (self->ptx_view, NULL);
      g_clear_pointer (&self->pane_ptx, g_free);
      set_text (self->cuda_view, NULL);
      set_text (self->sass_view, NULL);
      gtk_label_set_text (self->verification_heading, _("Verification"));
      gtk_label_set_text (self->conclusion_label,
                          self->run_error ? self->run_error
                          : _("No result yet: run the experiment (Ctrl+R)."));
      if (self->run_error != NULL)
        set_status (self, self->run_error);
      return;
    }
  fill_checks (self, r, FALSE);
  {
    g_autofree char *controls = NULL, *text = NULL;

    /* TRANSLATORS: the controls' cycles, then the evidence level, then the conclusion */
    controls = g_strdup_printf (_("Controls: the empty loop took %llu cycles, the timer alone "
                                  "%llu."),
                                (unsigned long long) r->empty_loop_cycles,
                                (unsigned long long) r->timer_cycles);
    if (r->device != NULL && !isnan (r->gpu_empty_loop_cycles))
      {
        /* TRANSLATORS: the model's controls, then the GPU's medians */
        char *both = g_strdup_printf (_("%s On the GPU (medians): the empty loop took %.0f "
                                        "cycles, the timer alone %.0f."), controls,
                                      r->gpu_empty_loop_cycles, r->gpu_timer_cycles);

        g_free (controls);
        controls = both;
      }
    /* TRANSLATORS: the evidence level (seeds/002 section 18), then the
     * conclusion, which stays in English as the command line and the
     * experiment folder give it, then the controls */
    text = g_strdup_printf (_("Evidence: %s\n\n%s\n\n%s"),
                            g_str_equal (r->evidence, "model")
                            ? _("the timing model's figures; no GPU ran the probe")
                            : g_str_equal (r->evidence, "controls-and-sweeps")
                            ? _("measured on the GPU, with its controls and the sweep")
                            : g_str_equal (r->evidence, "measured")
                            ? _("measured on the GPU, one probe without controls")
                            : r->evidence,
                            r->conclusion, controls);
    if (compare_matches (self, r))
      {
        guint same = 0, n = self->compare->points->len;
        char *more;

        for (guint i = 0; i < r->points->len; i++)
          {
            const KsProbePoint *p = &g_array_index (r->points, KsProbePoint, i);
            const KsProbePoint *c = compare_point (self, p->x);

            same += c != NULL && fabs (p->cycles_per_instruction / c->cycles_per_instruction - 1)
                                 <= 0.005;
          }
        /* TRANSLATORS: the conclusion, then the saved experiment's legend
         * name, the points within 0.5 % and the saved points */
        more = g_strdup_printf (ngettext ("%s\n\nCompared with the experiment %s: %u of its %u "
                                          "point is within 0.5 %% of this run's.",
                                          "%s\n\nCompared with the experiment %s: %u of its %u "
                                          "points are within 0.5 %% of this run's.", n),
                                text, self->compare_label, same, n);
        g_free (text);
        text = more;
      }
    gtk_label_set_text (self->conclusion_label, text);
  }
  set_text (self->ptx_view, edit ? edit : r->ptx);
  g_free (self->pane_ptx);
  self->pane_ptx = g_strdup (r->ptx);
  set_text (self->cuda_view, r->cuda);
  if (r->sass != NULL)
    set_text (self->sass_view, r->sass);
  else
    {
      const char *why = _("no disassembler here");

      for (guint i = 0; i < r->checks->len; i++)
        {
          const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

          if (!c->checked && g_str_has_prefix (c->item, "SASS"))
            why = c->detail;
        }
      {
        g_autofree char *text = g_strdup_printf (_("// No SASS listing for this probe: %s\n"), why);

        set_text (self->sass_view, text);
      }
    }
  fill_points (self, r);
  /* an edit kept from before: shown, and checked again */
  if (edit != NULL)
    ks_probe_lab_verify_edit (self);
}

/* ---------------------------------------------------------------------- */
/* Experiments and GPUs */

static void
template_selected_cb (KsProbeLab    *self,
                      GtkListBoxRow *row,
                      GtkListBox    *box)
{
  guint n;
  const KsProbeTemplate *const *all = ks_probe_templates (&n);
  const KsProbeResult *r;
  g_autofree char *hypothesis = NULL;

  if (row == NULL)
    return;
  self->tmpl = all[gtk_list_box_row_get_index (row)];
  gtk_widget_set_visible (GTK_WIDGET (self->instruction_dropdown),
                          ks_probe_template_takes_instruction (self->tmpl));
  /* TRANSLATORS: the experiment's hypothesis (seeds/002 section 1) */
  hypothesis = g_strdup_printf (_("Hypothesis: %s"), _(ks_probe_template_hypothesis (self->tmpl)));
  gtk_label_set_text (self->hypothesis_label, hypothesis);
  g_clear_pointer (&self->run_error, g_free);
  r = cached_result (self);
  show_result (self);
  if (r == NULL || g_strcmp0 (r->gpu, gpu_id (self)) != 0)
    ks_probe_lab_run (self);
}

static void
instruction_changed_cb (KsProbeLab *self)
{
  const KsProbeResult *r;

  if (self->tmpl == NULL || !ks_probe_template_takes_instruction (self->tmpl))
    return;
  g_clear_pointer (&self->run_error, g_free);
  r = cached_result (self);
  show_result (self);
  if (r == NULL || g_strcmp0 (r->gpu, gpu_id (self)) != 0)
    ks_probe_lab_run (self);
}

gboolean
ks_probe_lab_choose_instruction (KsProbeLab *self,
                                 const char *instruction)
{
  guint n;
  const char *const *ops = ks_probe_instructions (&n);

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (ops[i], instruction) == 0)
      {
        gtk_drop_down_set_selected (self->instruction_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

static void
fill_instructions (KsProbeLab *self)
{
  guint n;
  const char *const *ops = ks_probe_instructions (&n);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, ks_probe_instruction_sass (ops[i]));
  gtk_drop_down_set_model (self->instruction_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->instruction_dropdown, 0);
}

gboolean
ks_probe_lab_select (KsProbeLab *self,
                     const char *name)
{
  guint n;
  const KsProbeTemplate *const *all = ks_probe_templates (&n);
  const KsProbeTemplate *wanted = ks_probe_find (name);

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  for (guint i = 0; wanted != NULL && i < n; i++)
    if (all[i] == wanted)
      {
        GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->template_list, (int) i);

        if (self->tmpl == all[i])
          template_selected_cb (self, row, self->template_list);
        else
          gtk_list_box_select_row (self->template_list, row);
        return TRUE;
      }
  return FALSE;
}

static void
gpu_changed_cb (KsProbeLab *self)
{
  if (self->tmpl == NULL)
    return;
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "default-gpu", gpu_id (self));
  ks_probe_lab_run (self);
}

gboolean
ks_probe_lab_choose_gpu (KsProbeLab *self,
                         const char *id)
{
  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  for (guint i = 0; self->gpu_ids != NULL && self->gpu_ids[i] != NULL; i++)
    if (g_str_equal (self->gpu_ids[i], id))
      {
        gtk_drop_down_set_selected (self->gpu_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

static void
fill_gpus (KsProbeLab *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autofree char *preferred = NULL;
  guint selected = 0;

  self->db = ks_gpu_db_load_default (&error);
  if (self->db == NULL)
    {
      set_status (self, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->gpu_dropdown), FALSE);
      return;
    }
  preferred = self->settings ? g_settings_get_string (self->settings, "default-gpu")
                             : g_strdup (DEFAULT_GPU);
  /* a GPU here: the model times that one, so the plot's two series are
   * of the same GPU */
  {
    g_autoptr(KsCuda) cuda = ks_cuda_open (NULL);
    KsCudaDevice d;

    if (cuda != NULL && ks_cuda_device (cuda, 0, &d, NULL))
      {
        g_autofree char *arch = ks_cuda_device_arch (&d);
        char *id = ks_probe_model_gpu_for (d.name, arch, d.sms);

        if (id != NULL)
          {
            g_free (preferred);
            preferred = id;
          }
      }
  }
  self->gpu_ids = g_new0 (char *, self->db->n_gpus + 1);
  for (uint32_t i = 0; i < self->db->n_gpus; i++)
    {
      const KsGpuInfo *g = &self->db->gpus[i];
      g_autofree char *label = g_strdup_printf ("%s (%s)", g->name, g->arch);

      self->gpu_ids[i] = g_strdup (g->id);
      gtk_string_list_append (names, label);
      if (g_str_equal (g->id, preferred) || (selected == 0 && g_str_equal (g->id, DEFAULT_GPU)))
        selected = i;
    }
  gtk_drop_down_set_model (self->gpu_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->gpu_dropdown, selected);
}

static void
fill_templates (KsProbeLab *self)
{
  guint n;
  const KsProbeTemplate *const *all = ks_probe_templates (&n);

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title = gtk_label_new (_(ks_probe_template_title (all[i])));
      g_autofree char *var = g_strdup_printf (_("Sweeps: %s"), _(ks_probe_template_axis (all[i])));
      GtkWidget *caption = gtk_label_new (var);

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_label_set_wrap (GTK_LABEL (title), TRUE);
      gtk_label_set_xalign (GTK_LABEL (caption), 0);
      gtk_label_set_wrap (GTK_LABEL (caption), TRUE);
      gtk_widget_add_css_class (caption, "caption");
      gtk_widget_add_css_class (caption, "dim-label");
      gtk_box_append (GTK_BOX (box), title);
      gtk_box_append (GTK_BOX (box), caption);
      gtk_widget_set_margin_top (box, 6);
      gtk_widget_set_margin_bottom (box, 6);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _(ks_probe_template_title (all[i])),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _(ks_probe_template_hypothesis (all[i])), -1);
      gtk_list_box_append (self->template_list, row);
    }
}

/* ---------------------------------------------------------------------- */
/* A probe edited by hand */

gboolean
ks_probe_lab_verify_edit (KsProbeLab *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *conclusion = NULL;
  GtkTextBuffer *b;
  GtkTextIter start, end;
  KsProbeResult *v;

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  if (self->shown == NULL)
    {
      gtk_label_set_text (self->edit_label,
                          _("Run the experiment first: its probe is what you edit"));
      return FALSE;
    }
  b = GTK_TEXT_BUFFER (buffer_of (self->ptx_view));
  gtk_text_buffer_get_bounds (b, &start, &end);
  text = gtk_text_buffer_get_text (b, &start, &end, FALSE);
  v = ks_probe_verify_ptx (self->shown->tmpl, self->shown->instruction, self->shown->shown_x,
                           text, &error);
  if (v == NULL)
    {
      /* TRANSLATORS: %s says why the edited probe could not be checked
       * (a parse error with its line and column) */
      g_autofree char *why = g_strdup_printf (_("Not verified: %s"), error->message);

      gtk_label_set_text (self->edit_label, why);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->edit_label), why);
      return FALSE;
    }
  clear_highlight (self);
  /* the plot may draw it: not after it is freed */
  ks_probe_view_set_other (self->plot, NULL, NULL);
  g_clear_pointer (&self->edited, ks_probe_result_free);
  self->edited = v;
  self->edit_serial++;
  self->edit_running = FALSE;
  update_busy (self);
  show_other (self);
  fill_points (self, self->shown);
  fill_checks (self, v, TRUE);
  /* TRANSLATORS: the edited probe's conclusion follows, in English as the
   * command line gives it */
  conclusion = g_strdup_printf (_("Your edited probe, verified, not run:\n\n%s"), v->conclusion);
  gtk_label_set_text (self->conclusion_label, conclusion);
  gtk_label_set_text (self->edit_label, v->verified
                      ? _("The edit passes the checks; the plot is still the experiment's")
                      : _("The edit fails a check: pick it to see its lines"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->edit_label), NULL);
  return TRUE;
}

void
ks_probe_lab_revert_edit (KsProbeLab *self)
{
  g_return_if_fail (KS_IS_PROBE_LAB (self));
  if (self->edit_key != NULL)
    g_hash_table_remove (self->edits, self->edit_key);
  set_text (self->ptx_view, self->pane_ptx);
  show_result (self);
}

static void
edit_done_cb (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  KsProbeLab *self = KS_PROBE_LAB (source);
  RunData *d = g_task_get_task_data (G_TASK (res));
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProbeResult) r = g_task_propagate_pointer (G_TASK (res), &error);
  g_autofree char *text = NULL, *conclusion = NULL;
  const KsProbePoint *p, *own = NULL;

  /* an edit run that a newer one, another experiment or a closed window
   * replaced */
  if (GPOINTER_TO_UINT (user_data) != self->edit_serial || self->results == NULL
      || g_strcmp0 (d->key, self->edit_key) != 0 || self->shown == NULL)
    return;
  self->edit_running = FALSE;
  update_busy (self);
  if (r == NULL)
    {
      /* TRANSLATORS: %s says why the edited probe did not run (a parse
       * error with its line and column, a fault, no target timed) */
      text = g_strdup_printf (_("Your edit did not run: %s"), error->message);
      gtk_label_set_text (self->edit_label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->edit_label), text);
      return;
    }
  clear_highlight (self);
  /* the plot may draw it: not after it is freed */
  ks_probe_view_set_other (self->plot, NULL, NULL);
  g_clear_pointer (&self->edited, ks_probe_result_free);
  self->edited = g_steal_pointer (&r);
  fill_checks (self, self->edited, TRUE);
  p = &g_array_index (self->edited->points, KsProbePoint, 0);
  for (guint i = 0; i < self->shown->points->len; i++)
    if (g_array_index (self->shown->points, KsProbePoint, i).x == p->x)
      own = &g_array_index (self->shown->points, KsProbePoint, i);
  /* TRANSLATORS: the edited probe's conclusion follows, in English as the
   * command line gives it */
  conclusion = g_strdup_printf (_("Your edited probe, run on the timing model:\n\n%s"),
                                self->edited->conclusion);
  gtk_label_set_text (self->conclusion_label, conclusion);
  if (own != NULL)
    /* TRANSLATORS: the edited probe's cycles per instruction, then the
     * experiment's own probe's for the same value */
    text = g_strdup_printf (_("Your edit: %.2f cycles per instruction; the experiment's probe: "
                              "%.2f (model)"), p->cycles_per_instruction,
                            own->cycles_per_instruction);
  else
    text = g_strdup_printf (_("Your edit: %.2f cycles per instruction (model)"),
                            p->cycles_per_instruction);
  gtk_label_set_text (self->edit_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->edit_label), text);
  ks_probe_view_set_other (self->plot, self->edited, _("your edit"));
  fill_points (self, self->shown);
  add_edit_row (self, self->edited);
}

gboolean
ks_probe_lab_run_edit (KsProbeLab *self)
{
  g_autoptr(GTask) task = NULL;
  GtkTextBuffer *b;
  GtkTextIter start, end;
  RunData *d;

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  if (self->shown == NULL || self->edit_key == NULL)
    {
      gtk_label_set_text (self->edit_label,
                          _("Run the experiment first: its probe is what you edit"));
      return FALSE;
    }
  b = GTK_TEXT_BUFFER (buffer_of (self->ptx_view));
  gtk_text_buffer_get_bounds (b, &start, &end);
  d = g_new0 (RunData, 1);
  d->tmpl = self->shown->tmpl;
  d->instruction = g_strdup (self->shown->instruction);
  d->gpu = g_strdup (self->shown->gpu);
  d->use_toolkit = !ks_toolkit_disabled ();
  d->started = g_get_monotonic_time ();
  d->ptx = gtk_text_buffer_get_text (b, &start, &end, FALSE);
  d->x = self->shown->shown_x;
  d->key = g_strdup (self->edit_key);
  keep_edit (self);
  self->edit_serial++;
  self->edit_running = TRUE;
  update_busy (self);
  gtk_label_set_text (self->edit_label, _("Running your edit on the timing model…"));
  task = g_task_new (self, NULL, edit_done_cb, GUINT_TO_POINTER (self->edit_serial));
  g_task_set_source_tag (task, ks_probe_lab_run_edit);
  g_task_set_task_data (task, d, (GDestroyNotify) run_data_free);
  g_task_run_in_thread (task, run_thread);
  return TRUE;
}

static void
run_edit_action (GtkWidget  *widget,
                 const char *action,
                 GVariant   *param)
{
  ks_probe_lab_run_edit (KS_PROBE_LAB (widget));
}

const KsProbeResult *
ks_probe_lab_get_edited (KsProbeLab *self)
{
  g_return_val_if_fail (KS_IS_PROBE_LAB (self), NULL);
  return self->edited;
}

/* ---------------------------------------------------------------------- */
/* A saved experiment, to compare with */

gboolean
ks_probe_lab_open_saved (KsProbeLab *self,
                         const char *dir,
                         GError    **error)
{
  g_autoptr(KsProbeResult) saved = NULL;
  g_autofree char *key = NULL, *day = NULL;

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  saved = ks_probe_result_load (dir, error);
  if (saved == NULL)
    return FALSE;
  if (!ks_probe_lab_choose_gpu (self, saved->gpu))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The experiment ran on the model of a GPU this KernelScope does not know: "
                     "%s"), saved->gpu);
      return FALSE;
    }
  /* a probe edited by hand comes back into the PTX pane, as it was */
  key = result_key (saved->tmpl, saved->instruction);
  if (saved->edited)
    {
      g_autofree char *file = g_strdup_printf ("probe_%g.ptx", saved->shown_x);
      g_autofree char *path = g_build_filename (dir, "binary", file, NULL);
      char *ptx = NULL;

      if (!g_file_get_contents (path, &ptx, NULL, error))
        return FALSE;
      g_hash_table_replace (self->edits, g_strdup (key), ptx);
    }
  day = saved->saved_date ? g_strndup (saved->saved_date, 10) : NULL;
  g_free (self->compare_label);
  /* TRANSLATORS: the plot's legend for a saved experiment; %s is its date */
  self->compare_label = day ? g_strdup_printf (_("saved %s"), day) : g_strdup (_("saved"));
  if (saved->edited)
    {
      char *label = g_strdup_printf (_("%s, edited"), self->compare_label);

      g_free (self->compare_label);
      self->compare_label = label;
    }
  /* the plot may draw it: not after it is freed */
  ks_probe_view_set_other (self->plot, NULL, NULL);
  g_clear_pointer (&self->compare, ks_probe_result_free);
  self->compare = g_steal_pointer (&saved);
  if (self->compare->instruction != NULL)
    ks_probe_lab_choose_instruction (self, self->compare->instruction);
  ks_probe_lab_select (self, ks_probe_template_name (self->compare->tmpl));
  {
    g_autofree char *name = g_filename_display_name (dir);
    /* TRANSLATORS: %s is the folder opened */
    g_autofree char *text = g_strdup_printf (_("Opened the experiment in %s: its figures are "
                                               "drawn hollow over this run's"), name);

    set_status (self, text);
  }
  return TRUE;
}

const KsProbeResult *
ks_probe_lab_get_compare (KsProbeLab *self)
{
  g_return_val_if_fail (KS_IS_PROBE_LAB (self), NULL);
  return self->compare;
}

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  KsProbeLab      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (folder);
      g_autoptr(GError) error = NULL;

      if (path == NULL || !ks_probe_lab_open_saved (self, path, &error))
        {
          /* TRANSLATORS: why a saved experiment could not be opened */
          g_autofree char *text = g_strdup_printf (_("Could not open the experiment: %s"),
                                                   error ? error->message
                                                   : _("not a local folder"));

          set_status (self, text);
        }
    }
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  KsProbeLab *self = KS_PROBE_LAB (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open a Saved Experiment"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (open_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
verify_edit_action (GtkWidget  *widget,
                    const char *action,
                    GVariant   *param)
{
  ks_probe_lab_verify_edit (KS_PROBE_LAB (widget));
}

static void
revert_edit_action (GtkWidget  *widget,
                    const char *action,
                    GVariant   *param)
{
  ks_probe_lab_revert_edit (KS_PROBE_LAB (widget));
}

/* ---------------------------------------------------------------------- */
/* Saving and exporting */

gboolean
ks_probe_lab_save_to (KsProbeLab *self,
                      GFile      *folder,
                      GError    **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (KS_IS_PROBE_LAB (self), FALSE);
  if (self->shown == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no result to save yet"));
      return FALSE;
    }
  path = g_file_get_path (folder);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("The experiment can only be saved in a local folder"));
      return FALSE;
    }
  return ks_probe_write_folder (self->shown, path, error);
}

static void
save_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  KsProbeLab      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      g_autofree char *name = g_file_get_parse_name (folder);

      if (ks_probe_lab_save_to (self, folder, &error))
        /* TRANSLATORS: %s is a folder */
        text = g_strdup_printf (_("Saved the experiment in %s"), name);
      else
        /* TRANSLATORS: a folder, then why */
        text = g_strdup_printf (_("Could not save the experiment in %s: %s"), name, error->message);
      set_status (self, text);
    }
  g_object_unref (dialog);
}

static void
save_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  KsProbeLab *self = KS_PROBE_LAB (widget);
  GtkFileChooserNative *dialog;

  if (self->shown == NULL)
    return;
  dialog = gtk_file_chooser_native_new (_("Save the Experiment in a Folder"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Save"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (save_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    KsProbeLab      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      if (path != NULL && ks_probe_view_export (self->plot, path, 1200, 720, &error))
        /* TRANSLATORS: %s is a file */
        text = g_strdup_printf (_("Exported the plot to %s"), path);
      else
        text = g_strdup_printf (_("Could not export the plot: %s"),
                                error ? error->message : _("not a local file"));
      set_status (self, text);
    }
  g_object_unref (dialog);
}

static void
export_action (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  KsProbeLab *self = KS_PROBE_LAB (widget);
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;

  if (self->shown == NULL)
    return;
  dialog = gtk_file_chooser_native_new (_("Export the Plot"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  name = g_strdup_printf ("%s.png", ks_probe_template_name (self->shown->tmpl));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
run_action (GtkWidget  *widget,
            const char *action,
            GVariant   *param)
{
  ks_probe_lab_run (KS_PROBE_LAB (widget));
}

static void
presentation_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  KsProbeLab *self = KS_PROBE_LAB (widget);

  ks_probe_lab_set_presentation (self, !self->presentation);
}

/* ---------------------------------------------------------------------- */
/* Presentation mode and the code's colours */

static void
update_scheme (KsProbeLab *self)
{
  GtkSourceStyleSchemeManager *sm = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = ks_widget_is_dark (GTK_WIDGET (self));
  const char *id = self->presentation ? "kernelscope-contrast" : dark ? "kernelscope-dark"
                                                                      : "kernelscope";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (sm, id);
  GtkSourceView *views[] = { self->ptx_view, self->cuda_view, self->sass_view };

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (sm, dark ? "Adwaita-dark" : "Adwaita");
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkSourceBuffer *b = buffer_of (views[i]);
      GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (b)),
                                                   "ks-probe-check");
      GdkRGBA rgba;

      gtk_source_buffer_set_style_scheme (b, scheme);
      /* Okabe-Ito orange, strong enough on a projector */
      gdk_rgba_parse (&rgba, dark || self->presentation ? "rgba(230,159,0,0.45)"
                                                        : "rgba(230,159,0,0.30)");
      if (tag == NULL)
        tag = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (b), "ks-probe-check", NULL);
      g_object_set (tag, "paragraph-background-rgba", &rgba, NULL);
    }
}

void
ks_probe_lab_set_presentation (KsProbeLab *self,
                               gboolean    presentation)
{
  g_return_if_fail (KS_IS_PROBE_LAB (self));
  self->presentation = presentation;
  if (presentation)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
  ks_probe_view_set_presentation (self->plot, presentation);
  update_scheme (self);
}

/* ---------------------------------------------------------------------- */
/* The screenshot mode */

void
ks_probe_lab_set_screenshot (KsProbeLab *self,
                             const char *path,
                             int         width,
                             int         height)
{
  g_return_if_fail (KS_IS_PROBE_LAB (self));
  ks_shot_set (&self->shot, GTK_WINDOW (self), path, width, height);
}

/* ---------------------------------------------------------------------- */

const KsProbeResult *
ks_probe_lab_get_result (KsProbeLab *self)
{
  g_return_val_if_fail (KS_IS_PROBE_LAB (self), NULL);
  return self->shown;
}

static void
ks_probe_lab_dispose (GObject *object)
{
  KsProbeLab *self = KS_PROBE_LAB (object);

  /* a run still going finds no results to keep */
  self->shown = NULL;
  if (self->plot != NULL)
    {
      ks_probe_view_set_other (self->plot, NULL, NULL);
      ks_probe_view_set_result (self->plot, NULL);
    }
  g_clear_pointer (&self->results, g_hash_table_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), KS_TYPE_PROBE_LAB);
  G_OBJECT_CLASS (ks_probe_lab_parent_class)->dispose (object);
}

static void
ks_probe_lab_finalize (GObject *object)
{
  KsProbeLab *self = KS_PROBE_LAB (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->db, ks_gpu_db_free);
  g_strfreev (self->gpu_ids);
  g_clear_pointer (&self->highlighted, g_array_unref);
  ks_shot_clear (&self->shot);
  g_free (self->run_error);
  g_clear_pointer (&self->edited, ks_probe_result_free);
  g_clear_pointer (&self->compare, ks_probe_result_free);
  g_free (self->compare_label);
  g_clear_pointer (&self->measured, ks_probe_result_free);
  g_free (self->measured_label);
  g_clear_pointer (&self->edits, g_hash_table_unref);
  g_free (self->edit_key);
  g_free (self->pane_ptx);
  G_OBJECT_CLASS (ks_probe_lab_parent_class)->finalize (object);
}

static void
ks_probe_lab_class_init (KsProbeLabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_probe_lab_dispose;
  object_class->finalize = ks_probe_lab_finalize;

  g_type_ensure (KS_TYPE_PROBE_VIEW);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/kernelscope/KernelScope/ks-probe-lab.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, KsProbeLab, name)
  BIND (template_list);
  BIND (edit_label);
  BIND (check_list);
  BIND (hypothesis_label);
  BIND (status_label);
  BIND (conclusion_label);
  BIND (verification_heading);
  BIND (spinner);
  BIND (gpu_dropdown);
  BIND (instruction_dropdown);
  BIND (plot);
  BIND (notebook);
  BIND (ptx_view);
  BIND (cuda_view);
  BIND (sass_view);
  BIND (points_grid);
#undef BIND

  gtk_widget_class_install_action (widget_class, "lab.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "lab.verify-edit", NULL, verify_edit_action);
  gtk_widget_class_install_action (widget_class, "lab.revert-edit", NULL, revert_edit_action);
  gtk_widget_class_install_action (widget_class, "lab.run-edit", NULL, run_edit_action);
  gtk_widget_class_install_action (widget_class, "lab.open-saved", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "lab.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "lab.export-plot", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "lab.presentation", NULL, presentation_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "lab.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "lab.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
                                       "lab.open-saved", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK,
                                       "lab.export-plot", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "lab.presentation", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
set_language (GtkSourceView *view,
              const char    *id)
{
  GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *lang = gtk_source_language_manager_get_language (lm, id);

  if (lang != NULL)
    gtk_source_buffer_set_language (buffer_of (view), lang);
}

static void
ks_probe_lab_init (KsProbeLab *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) ks_probe_result_free);
  self->highlighted = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->edits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->settings = ks_settings_new ();
  set_language (self->ptx_view, "ptx");
  set_language (self->cuda_view, "cuda");
  set_language (self->sass_view, "sass");
  update_scheme (self);
  fill_gpus (self);
  fill_templates (self);
  fill_instructions (self);
  ks_a11y_name_drop_down_buttons (GTK_WIDGET (self->gpu_dropdown));
  ks_a11y_name_drop_down_buttons (GTK_WIDGET (self->instruction_dropdown));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lab.save", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lab.export-plot", FALSE);
  g_signal_connect_object (self->template_list, "row-selected",
                           G_CALLBACK (template_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->check_list, "row-activated",
                           G_CALLBACK (check_row_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->check_list, "row-selected",
                           G_CALLBACK (check_row_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->gpu_dropdown, "notify::selected",
                           G_CALLBACK (gpu_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->instruction_dropdown, "notify::selected",
                           G_CALLBACK (instruction_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_label_set_text (self->conclusion_label, _("Pick an experiment on the left: it runs on the "
                                                "timing model at once, without a GPU."));
}

KsProbeLab *
ks_probe_lab_new (GtkApplication *app)
{
  return g_object_new (KS_TYPE_PROBE_LAB, "application", app, NULL);
}
