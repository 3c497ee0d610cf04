/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-run.c: the window's engine thread and what it shows of a run.
 *
 * A run copies the editor's text on the main thread and analyses it in a
 * GTask thread with a GCancellable of its own; a new run cancels the one
 * before it.  Progress goes through one mutex and at most one pending idle
 * (the pattern of Sysprof's document loader), so a busy worker never
 * floods the main loop.  The result is immutable once handed over; a
 * failed run keeps the last good results on screen, marked stale. */

#include "ks-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-application.h"
#include "ks-engine.h"

/* ---------------------------------------------------------------------- */
/* Progress: written by the worker, read by one low-priority idle */

typedef struct
{
  GMutex mutex;
  GWeakRef window;
  guint serial;
  char *stage;
  double fraction;
  guint idle_id;
} KsRunProgress;

static void
progress_clear (gpointer data)
{
  KsRunProgress *p = data;

  g_mutex_clear (&p->mutex);
  g_weak_ref_clear (&p->window);
  g_free (p->stage);
}

static KsRunProgress *
progress_new (KsWindow *window,
              guint     serial)
{
  KsRunProgress *p = g_atomic_rc_box_new0 (KsRunProgress);

  g_mutex_init (&p->mutex);
  g_weak_ref_init (&p->window, window);
  p->serial = serial;
  return p;
}

static void
progress_unref (KsRunProgress *p)
{
  g_atomic_rc_box_release_full (p, progress_clear);
}

static gboolean
progress_idle (gpointer data)
{
  KsRunProgress *p = data;
  g_autoptr(KsWindow) window = g_weak_ref_get (&p->window);
  g_autofree char *stage = NULL;
  double fraction;

  g_mutex_lock (&p->mutex);
  stage = g_strdup (p->stage);
  fraction = p->fraction;
  p->idle_id = 0;
  g_mutex_unlock (&p->mutex);

  if (window != NULL && window->running && window->run_serial == p->serial)
    {
      gtk_progress_bar_set_fraction (window->progress_bar, CLAMP (fraction, 0.0, 1.0));
      gtk_progress_bar_set_text (window->progress_bar, stage);
    }
  return G_SOURCE_REMOVE;
}

/* Any thread */
static void
progress_update (KsAnalysisStage stage_id,
                 double          fraction,
                 gpointer        user_data)
{
  KsRunProgress *p = user_data;
  const char *stage = ks_engine_stage_label (stage_id);

  g_mutex_lock (&p->mutex);
  if (g_strcmp0 (p->stage, stage) != 0)
    {
      g_free (p->stage);
      p->stage = g_strdup (stage);
    }
  p->fraction = fraction;
  if (p->idle_id == 0)
    p->idle_id = g_idle_add_full (G_PRIORITY_LOW, progress_idle, g_atomic_rc_box_acquire (p),
                                  (GDestroyNotify) progress_unref);
  g_mutex_unlock (&p->mutex);
}

/* ---------------------------------------------------------------------- */
/* The worker */

typedef struct
{
  KsEngineRequest request;
  KsRunProgress *progress;
} RunData;

static void
run_data_free (RunData *data)
{
  ks_engine_request_clear (&data->request);
  g_clear_pointer (&data->progress, progress_unref);
  g_free (data);
}

/* What the worker hands the main thread: the analysis, and what the panes
 * need of it that takes a while to make */
typedef struct
{
  KsAnalysis *analysis;
  KsSassListing *sass_listing;  /* the window's own copy */
  char *sass_shown;             /* the listing laid out for the pane */
} RunOutcome;

static void
run_outcome_free (RunOutcome *outcome)
{
  g_clear_pointer (&outcome->analysis, ks_analysis_unref);
  g_clear_pointer (&outcome->sass_listing, ks_sass_listing_free);
  g_free (outcome->sass_shown);
  g_free (outcome);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RunOutcome, run_outcome_free)

static void
run_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  RunData *data = task_data;
  KsAnalysis *result = ks_engine_run (&data->request, cancellable, progress_update,
                                          data->progress);
  RunOutcome *outcome;

  if (result == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("Stopped"));
      return;
    }
  outcome = g_new0 (RunOutcome, 1);
  outcome->analysis = result;
  if (result->status != KS_ANALYSIS_FAILED)
    _ks_window_sass_prepare (result, &outcome->sass_listing, &outcome->sass_shown);
  g_task_return_pointer (task, outcome, (GDestroyNotify) run_outcome_free);
}

/* ---------------------------------------------------------------------- */
/* Showing a run */

static void
set_running (KsWindow *self,
             gboolean  running)
{
  self->running = running;
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", running);
  if (running)
    {
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      gtk_progress_bar_set_text (self->progress_bar, _("Starting"));
    }
}

static void
clear_marks (GtkSourceBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  gtk_source_buffer_remove_source_marks (buffer, &start, &end, "ks-error");
  gtk_source_buffer_remove_source_marks (buffer, &start, &end, "ks-warning");
}

static void
show_diagnostics (KsWindow             *self,
                  const KsAnalysis *result)
{
  clear_marks (self->cuda_buffer);
  clear_marks (self->ptx_buffer);
  for (guint i = 0; result->diagnostics && i < result->diagnostics->len; i++)
    {
      const KsDiagnostic *d = &g_array_index (result->diagnostics, KsDiagnostic, i);
      gboolean is_cuda = d->file && (g_str_has_suffix (d->file, ".cu")
                                     || g_str_has_suffix (d->file, ".cuh"));
      GtkSourceBuffer *buffer = is_cuda ? self->cuda_buffer : self->ptx_buffer;
      GtkTextIter iter;
      GtkSourceMark *mark;

      if (d->line == 0 || d->line > (guint) gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer)))
        continue;
      gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &iter, (int) d->line - 1);
      mark = gtk_source_buffer_create_source_mark (buffer, NULL,
                                                   d->severity == KS_DIAGNOSTIC_ERROR
                                                   ? "ks-error" : "ks-warning", &iter);
      g_object_set_data_full (G_OBJECT (mark), "ks-message", g_strdup (d->message), g_free);
    }
}

/* A fault is an error mark on its PTX line and on its CUDA line, and the
 * CUDA line is lit with its PTX */
static void
show_fault (KsWindow         *self,
            const KsAnalysis *result)
{
  const KsSimFault *fault = result->sim ? ks_sim_get_fault (result->sim) : NULL;
  g_autofree char *base = self->cuda_file ? g_file_get_basename (self->cuda_file) : NULL;
  g_autofree char *fault_base = fault && fault->cuda_file ? g_path_get_basename (fault->cuda_file)
                                                          : NULL;
  gboolean in_cuda_pane;

  if (fault == NULL)
    return;
  in_cuda_pane = fault->cuda_line != 0 && base != NULL && g_strcmp0 (base, fault_base) == 0;
  for (guint i = 0; i < 2; i++)
    {
      GtkSourceBuffer *buffer = i == 0 ? self->ptx_buffer : self->cuda_buffer;
      guint line = i == 0 ? fault->ptx_line : in_cuda_pane ? fault->cuda_line : 0;
      GtkTextIter iter;
      GtkSourceMark *mark;

      if (line == 0 || line > (guint) gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer)))
        continue;
      gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &iter, (int) line - 1);
      mark = gtk_source_buffer_create_source_mark (buffer, NULL, "ks-error", &iter);
      g_object_set_data_full (G_OBJECT (mark), "ks-message",
                              g_strdup_printf (_("The kernel faulted here: %s"), fault->message),
                              g_free);
    }
  if (in_cuda_pane)
    _ks_window_select_cuda_line (self, fault->cuda_line);
}

static char *
mark_tooltip_cb (GtkSourceMarkAttributes *attrs,
                 GtkSourceMark           *mark,
                 gpointer                 user_data)
{
  return g_strdup (g_object_get_data (G_OBJECT (mark), "ks-message"));
}

static void
setup_marks (GtkSourceView *view)
{
  static const struct { const char *category; const char *icon; int priority; } kinds[] = {
    { "ks-error", "dialog-error-symbolic", 20 },
    { "ks-warning", "dialog-warning-symbolic", 10 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(GtkSourceMarkAttributes) attrs = gtk_source_mark_attributes_new ();

      gtk_source_mark_attributes_set_icon_name (attrs, kinds[i].icon);
      g_signal_connect (attrs, "query-tooltip-text", G_CALLBACK (mark_tooltip_cb), NULL);
      gtk_source_view_set_mark_attributes (view, kinds[i].category, attrs, kinds[i].priority);
    }
}

static const char *
severity_icon (KsHintSeverity severity)
{
  switch (severity)
    {
    case KS_HINT_CRITICAL:
      return "dialog-error-symbolic";
    case KS_HINT_WARNING:
      return "dialog-warning-symbolic";
    case KS_HINT_INFO:
    default:
      return "dialog-information-symbolic";
    }
}

/* What the icon's shape and colour say, for a screen reader */
static const char *
severity_name (KsHintSeverity severity)
{
  switch (severity)
    {
    case KS_HINT_CRITICAL:
      return _("Critical");
    case KS_HINT_WARNING:
      return _("Warning");
    case KS_HINT_INFO:
    default:
      return _("Information");
    }
}

static GtkWidget *
hint_row (const KsHint *hint,
          gboolean      cuda_linked)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (severity_icon (hint->severity));
  GtkWidget *message = gtk_label_new (hint->message);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *where = NULL;

  if (hint->detail && hint->detail[0])
    g_string_append (body, hint->detail);
  if (hint->suggestion && hint->suggestion[0])
    g_string_append_printf (body, "%s%s", body->len ? "\n" : "", hint->suggestion);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_widget_add_css_class (row, hint->severity == KS_HINT_CRITICAL ? "ks-hint-critical"
                                 : hint->severity == KS_HINT_WARNING ? "ks-hint-warning"
                                 : "ks-hint-info");
  gtk_widget_add_css_class (icon, "ks-hint-icon");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  severity_name (hint->severity), -1);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_widget_add_css_class (message, "ks-hint-message");
  gtk_grid_attach (GTK_GRID (grid), icon, 0, 0, 1, 2);
  gtk_grid_attach (GTK_GRID (grid), message, 1, 0, 1, 1);
  if (body->len)
    {
      GtkWidget *detail = gtk_label_new (body->str);

      gtk_label_set_xalign (GTK_LABEL (detail), 0);
      gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
      gtk_widget_add_css_class (detail, "dim-label");
      gtk_grid_attach (GTK_GRID (grid), detail, 1, 1, 1, 1);
    }

  if (cuda_linked && hint->cuda_line)
    where = g_strdup_printf (_("CUDA line %u"), hint->cuda_line);
  else if (hint->ptx_line)
    where = g_strdup_printf (_("PTX line %u"), hint->ptx_line);
  if (where != NULL)
    {
      GtkWidget *line = gtk_label_new (where);

      gtk_widget_add_css_class (line, "ks-hint-line");
      gtk_widget_set_valign (line, GTK_ALIGN_START);
      gtk_grid_attach (GTK_GRID (grid), line, 2, 0, 1, 1);
      gtk_widget_set_tooltip_text (row, _("Show the line"));
    }
  else
    gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), grid);
  g_object_set_data (G_OBJECT (row), "ks-hint", (gpointer) hint);
  return row;
}

static gboolean
hint_in_cuda_pane (KsWindow     *self,
                   const KsHint *hint)
{
  return hint->cuda_line != 0 && self->line_map != NULL && self->cuda_file != NULL
         && hint->cuda_file == ks_line_map_get_file (self->line_map);
}

static void
hint_activated_cb (KsWindow      *self,
                   GtkListBoxRow *row,
                   GtkListBox    *list)
{
  const KsHint *hint = g_object_get_data (G_OBJECT (row), "ks-hint");

  if (hint == NULL)
    return;
  if (hint_in_cuda_pane (self, hint))
    _ks_window_show_line (self, TRUE, hint->cuda_line);
  else if (hint->ptx_line)
    _ks_window_show_line (self, FALSE, hint->ptx_line);
}

static void
show_hints (KsWindow             *self,
            const KsAnalysis *result)
{
  GtkListBoxRow *row;
  guint n = result->hints ? result->hints->len : 0;
  g_autofree char *title = n ? g_strdup_printf (_("Hints (%u)"), n) : g_strdup (_("Hints"));

  /* Rows only: the placeholder is a child too */
  while ((row = gtk_list_box_get_row_at_index (self->hints_list, 0)) != NULL)
    gtk_list_box_remove (self->hints_list, GTK_WIDGET (row));
  for (guint i = 0; i < n; i++)
    {
      const KsHint *hint = g_ptr_array_index (result->hints, i);

      gtk_list_box_append (self->hints_list, hint_row (hint, hint_in_cuda_pane (self, hint)));
    }
  g_object_set (self->hints_page, "title", title, NULL);
  gtk_label_set_text (self->hints_placeholder,
                      _("No hints: nothing in this run calls for advice"));
}

static void
append_buffer_values (GString              *s,
                      const KsAnalysis *result,
                      uint32_t              index)
{
  const KsLaunchBuffer *b = &result->launch->buffers[index];
  size_t size = 0;
  const uint8_t *data = ks_sim_get_buffer (result->sim, index, &size);
  uint32_t elem = ks_ptx_type_size (b->type);
  uint64_t n = elem ? MIN (size / elem, 8) : 0;

  g_string_append_printf (s, "  %s[0..%" G_GUINT64_FORMAT "] =", b->name, n ? n - 1 : 0);
  for (uint64_t i = 0; i < n; i++)
    {
      const uint8_t *p = data + i * elem;

      switch (b->type)
        {
        case KS_PTX_TYPE_F32:
          {
            float v;

            memcpy (&v, p, 4);
            g_string_append_printf (s, " %g", v);
          }
          break;
        case KS_PTX_TYPE_F64:
          {
            double v;

            memcpy (&v, p, 8);
            g_string_append_printf (s, " %g", v);
          }
          break;
        case KS_PTX_TYPE_S32:
          {
            int32_t v;

            memcpy (&v, p, 4);
            g_string_append_printf (s, " %d", v);
          }
          break;
        case KS_PTX_TYPE_U32:
        case KS_PTX_TYPE_B32:
          {
            uint32_t v;

            memcpy (&v, p, 4);
            g_string_append_printf (s, " %u", v);
          }
          break;
        default:
          for (uint32_t k = 0; k < elem; k++)
            g_string_append_printf (s, "%s%02x", k ? "" : " ", p[elem - 1 - k]);
        }
    }
  if (b->count > n)
    g_string_append (s, " …");
  g_string_append_c (s, '\n');
}

/* A sequence of launches: what each did, the one shown marked */
static void
append_launches (GString          *s,
                 const KsAnalysis *result)
{
  if (result->n_launches == 0 || result->launch == NULL)
    return;
  g_string_append (s, _("Launches, run in turn over the same buffers (▶ the one shown):\n"));
  for (uint32_t k = 0; k < result->n_launches; k++)
    {
      const KsSimLaunchReport *r = &result->launches[k];
      g_autofree char *name = _ks_window_short_kernel_name (r->kernel);
      g_autoptr(GString) dims = g_string_new ("<<<");

      _ks_window_format_dim3 (dims, r->grid);
      g_string_append (dims, ", ");
      _ks_window_format_dim3 (dims, r->block);
      g_string_append (dims, ">>>");
      g_string_append_printf (s, "%s%u. %s %s: ", k == result->launch->step ? "▶ " : "  ", k + 1,
                              name, dims->str);
      if (!r->run)
        g_string_append (s, _("not run"));
      else if (r->status == KS_SIM_FAULTED)
        g_string_append_printf (s, _("faulted in block (%u, %u, %u), thread (%u, %u, %u): %s"),
                                r->fault.block[0], r->fault.block[1], r->fault.block[2],
                                r->fault.thread[0], r->fault.thread[1], r->fault.thread[2],
                                r->fault.message);
      else
        {
          g_autofree char *warp = g_strdup_printf ("%" G_GUINT64_FORMAT, r->stats.warp_instructions);

          /* (a number as a string: xgettext cannot read G_GUINT64_FORMAT) */
          g_string_append_printf (s, _("%s warp-instructions"), warp);
          if (r->status != KS_SIM_DONE)
            g_string_append (s, _(", stopped"));
        }
      g_string_append_c (s, '\n');
    }
  g_string_append_c (s, '\n');
}

/* A label, not a text view: the output is read-only, and a label of
 * bounded size lays out in one go (a kernel may print megabytes) */
#define MAX_OUTPUT_BYTES (64 * 1024)

static void
set_output (KsWindow *self,
            GString  *s)
{
  if (s->len > MAX_OUTPUT_BYTES)
    {
      const char *end = s->str + MAX_OUTPUT_BYTES;

      /* cut at a character boundary */
      while (end > s->str && (*end & 0xc0) == 0x80)
        end--;
      g_string_truncate (s, (gsize) (end - s->str));
      g_string_append (s, _("\n… (the rest is left out)\n"));
    }
  gtk_label_set_text (self->output_label, s->str);
}

/* Which toolkit compiled: a user with several, or the Flatpak running the
 * host's, can tell which one it was */
static void
append_toolkit (GString          *s,
                const KsAnalysis *result)
{
  const KsToolchain *tc = result->toolchain;
  const char *tool = NULL;

  if (tc != NULL)
    tool = ks_toolchain_get_path (tc, KS_TOOL_NVCC) != NULL ? ks_toolchain_get_path (tc, KS_TOOL_NVCC)
                                                           : ks_toolchain_get_path (tc, KS_TOOL_PTXAS);
  if (tool == NULL)
    return;
  if (tc->on_host)
    g_string_append_printf (s, _("\nCUDA toolkit %s on the host, run through flatpak-spawn: %s\n"),
                            tc->version != NULL ? tc->version : _("(version unknown)"), tool);
  else
    g_string_append_printf (s, _("\nCUDA toolkit %s: %s\n"),
                            tc->version != NULL ? tc->version : _("(version unknown)"), tool);
}

static void
show_output (KsWindow             *self,
             const KsAnalysis *result)
{
  g_autoptr(GString) s = g_string_new (NULL);

  _ks_window_update_kernel_choice (self, result);

  if (result->status == KS_ANALYSIS_FAILED)
    {
      g_string_append_printf (s, "%s\n", result->error ? result->error : _("The analysis failed"));
      for (guint i = 0; result->diagnostics && i < result->diagnostics->len; i++)
        {
          const KsDiagnostic *d = &g_array_index (result->diagnostics, KsDiagnostic, i);

          g_string_append_printf (s, "%s:%u:%u: %s: %s\n", d->file ? d->file : "?", d->line,
                                  d->column, d->severity == KS_DIAGNOSTIC_ERROR ? "error"
                                  : "warning", d->message);
        }
      if (self->analysis != NULL)
        g_string_append (s, _("\nThe results shown are those of the last run that worked.\n"));
      set_output (self, s);
      return;
    }

  if (result->sim != NULL)
    {
      const KsSimStats *st = ks_sim_get_stats (result->sim);
      const KsSimFault *fault = ks_sim_get_fault (result->sim);
      const char *printed = ks_sim_get_printf (result->sim);

      append_launches (s, result);
      if (fault != NULL && result->n_launches > 0)
        {
          const KsSimLaunchReport *r = &result->launches[result->launch->step];
          g_autofree char *name = _ks_window_short_kernel_name (r->kernel);

          /* TRANSLATORS: "Launch 2 of 3 (uniformAdd) faulted: ..." */
          g_string_append_printf (s, _("Launch %u of %u (%s) faulted, and the launches after it did "
                                       "not run: %s\n"), result->launch->step + 1,
                                  result->n_launches, name, fault->message);
        }
      else if (fault != NULL)
        g_string_append_printf (s, _("The kernel faulted: %s\n"), fault->message);
      if (fault != NULL)
        {
          g_string_append_printf (s, _("  block (%u, %u, %u), thread (%u, %u, %u)"),
                                  fault->block[0], fault->block[1], fault->block[2],
                                  fault->thread[0], fault->thread[1], fault->thread[2]);
          if (fault->ptx_line)
            g_string_append_printf (s, _(", PTX line %u"), fault->ptx_line);
          if (fault->cuda_line)
            g_string_append_printf (s, _(", CUDA line %u"), fault->cuda_line);
          if (fault->has_address)
            {
              g_autofree char *addr = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", fault->address);

              g_string_append_printf (s, _(", address %s"), addr);
            }
          g_string_append (s, "\n\n");
        }
      if (printed != NULL && printed[0] != '\0')
        {
          /* a kernel prints bytes, not always UTF-8 (%c of 200): shown with
           * U+FFFD for what is not, as Pango takes nothing else */
          g_autofree char *valid = g_utf8_make_valid (printed, -1);

          g_string_append_printf (s, _("printf output:\n%s%s\n"), valid,
                                  g_str_has_suffix (valid, "\n") ? "" : "\n");
        }
      {
        g_autofree char *warp = g_strdup_printf ("%" G_GUINT64_FORMAT, st->warp_instructions);
        g_autofree char *thread = g_strdup_printf ("%" G_GUINT64_FORMAT, st->thread_instructions);
        g_autofree char *div = g_strdup_printf ("%" G_GUINT64_FORMAT, st->divergent_branches);
        g_autofree char *bar = g_strdup_printf ("%" G_GUINT64_FORMAT, st->barriers);

        /* (numbers as strings: xgettext cannot read G_GUINT64_FORMAT) */
        g_string_append_printf (s, _("Simulated %s warp-instructions (%s thread-instructions), %s "
                                     "divergent branches, %s barriers, in %.1f ms\n"),
                                warp, thread, div, bar, st->seconds * 1e3);
      }
      if (fault == NULL && result->launch != NULL && result->launch->n_outputs > 0)
        {
          if (result->n_launches > 0)
            g_string_append_printf (s, _("\nOutputs after launch %u of %u (first values):\n"),
                                    result->launch->step + 1, result->n_launches);
          else
            g_string_append (s, _("\nOutputs (first values):\n"));
          for (uint32_t i = 0; i < result->launch->n_outputs; i++)
            append_buffer_values (s, result, result->launch->outputs[i]);
        }
    }
  if (result->launch_is_default)
    g_string_append (s, _("\nNo launch spec: the kernel ran with a default launch and zero-filled "
                          "buffers. Open its launch spec (.json) to run it on real data.\n"));
  if (result->timing_error != NULL)
    g_string_append_printf (s, _("\nTiming model: %s\n"), result->timing_error);
  if (result->occupancy_error != NULL)
    g_string_append_printf (s, _("\nOccupancy: %s\n"), result->occupancy_error);
  append_toolkit (s, result);
  set_output (self, s);
}

/* The status line, and the same as its tooltip: the line ellipsizes */
static void
set_status (KsWindow   *self,
            const char *text)
{
  gtk_label_set_text (self->status_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), text);
}

static void
show_status (KsWindow             *self,
             const KsAnalysis *result)
{
  g_autoptr(GString) s = g_string_new (NULL);

  /* Most telling first: a narrow window (a projector at 1280x720, longer
   * words in Korean) cuts the end off, and the tooltip keeps it all */
  if (result->arch != NULL)
    g_string_append (s, result->arch->id);
  if (result->sim != NULL && ks_sim_get_fault (result->sim) != NULL)
    g_string_append (s, _(" · faulted"));
  /* a sequence: a launch after the one shown that faulted */
  for (uint32_t k = 0; result->launch != NULL && k < result->n_launches; k++)
    if (k != result->launch->step && result->launches[k].run
        && result->launches[k].status == KS_SIM_FAULTED)
      g_string_append_printf (s, _(" · launch %u of %u faulted (see Output)"), k + 1,
                              result->n_launches);
  if (result->timing != NULL)
    {
      static const char *const bounds[] = { N_("latency-bound"), N_("memory-bound"),
                                            N_("compute-bound") };

      g_string_append_printf (s, _(" · ~%.3g µs (model), %s"), result->timing->estimated_duration_us,
                              _(bounds[MIN (result->timing->bound, G_N_ELEMENTS (bounds) - 1)]));
      /* TRANSLATORS: the model timed every instruction the kernel ran from
       * the SASS's instructions and control codes (docs/TIMING.md) */
      if (result->timing->sass_issued > 0
          && result->timing->sass_issued == result->timing->issued)
        g_string_append (s, _(", timed from the SASS"));
      /* TRANSLATORS: as above, for some of the kernel's code; the rest was
       * timed from the PTX */
      else if (result->timing->sass_issued > 0)
        g_string_append (s, _(", partly timed from the SASS"));
    }
  if (result->have_occupancy)
    {
      g_autofree char *pct = ks_format_figure (result->occupancy.occupancy * 100);

      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u block per SM, limited by %s",
                                              " · %u blocks per SM, limited by %s",
                                              result->occupancy.active_blocks_per_sm),
                              result->occupancy.active_blocks_per_sm,
                              ks_occupancy_limiter_label (result->occupancy.limiter));
      g_string_append_printf (s, _(" · %s %% occupancy"), pct);
      if (result->occupancy.shared_opt_in)
        /* TRANSLATORS: the block's shared memory is above 48 KiB; the attribute is a CUDA name */
        g_string_append (s, _(" (with cudaFuncAttributeMaxDynamicSharedMemorySize)"));
    }
  if (result->resources != NULL)
    g_string_append_printf (s, result->resources->source == KS_RESOURCES_SOURCE_ESTIMATE
                            ? g_dngettext (GETTEXT_PACKAGE, " · %u register (estimated)",
                                           " · %u registers (estimated)",
                                           result->resources->registers)
                            : result->resources->source == KS_RESOURCES_SOURCE_PTXAS
                            ? g_dngettext (GETTEXT_PACKAGE, " · %u register (from ptxas -v)",
                                           " · %u registers (from ptxas -v)",
                                           result->resources->registers)
                            : g_dngettext (GETTEXT_PACKAGE, " · %u register", " · %u registers",
                                           result->resources->registers),
                            result->resources->registers);
  if (result->have_occupancy && result->gpu != NULL && result->launch != NULL
      && result->occupancy.active_blocks_per_sm > 0)
    {
      uint64_t blocks = (uint64_t) result->launch->grid[0] * result->launch->grid[1]
                        * result->launch->grid[2];
      double waves = (double) blocks
                     / ((double) result->occupancy.active_blocks_per_sm * result->gpu->sm_count);

      if (waves >= 0.995)
        g_string_append_printf (s, _(" · %.2f waves on %u SMs"), waves, result->gpu->sm_count);
      else
        {
          g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, blocks);
          g_autofree char *pct = ks_format_figure (waves * 100);

          /* TRANSLATORS: "16 blocks on 108 SMs (1.9 % of one wave)" */
          g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                                  " · %s block on %u SMs (%s %% of one wave)",
                                                  " · %s blocks on %u SMs (%s %% of one wave)",
                                                  blocks), n, result->gpu->sm_count, pct);
        }
    }
  if (result->hints != NULL)
    g_string_append_printf (s, ngettext (" · %u hint", " · %u hints", result->hints->len),
                            result->hints->len);
  set_status (self, s->str[0] == ' ' ? s->str + 3 : s->str);
}

typedef enum
{
  SHOT_SIZE_RIGHT,
  SHOT_SIZE_WAIT,               /* a resize was asked for, or has not come yet */
  SHOT_SIZE_TOO_SMALL,          /* the widgets cannot be that small */
  SHOT_SIZE_STUCK,              /* the window did not take the size it was asked */
} ShotSize;

/* The window's smallest size, as its widgets measure it, less the frame */
static void
window_min_size (KsWindow *self,
                 int       frame_w,
                 int       frame_h,
                 int      *min_w,
                 int      *min_h)
{
  int mw, mh;

  gtk_widget_measure (GTK_WIDGET (self), GTK_ORIENTATION_HORIZONTAL, -1, &mw, NULL, NULL, NULL);
  mw = MAX (mw, self->screenshot_width + frame_w);
  gtk_widget_measure (GTK_WIDGET (self), GTK_ORIENTATION_VERTICAL, mw, &mh, NULL, NULL, NULL);
  *min_w = mw - frame_w;
  *min_h = mh - frame_h;
}

/* Brings the window to the picture's size.  The window's size is its
 * default size less its frame, and the frame is known only from a size the
 * window has taken: a reading taken before the last resize came through
 * would ask again from a stale size and overshoot (on a loaded machine
 * under ASan it did, and the picture failed), so a reading that has not
 * changed since the last request waits for it, up to ten seconds. */
static ShotSize
screenshot_size (KsWindow *self,
                 int       w,
                 int       h,
                 int      *min_w,
                 int      *min_h)
{
  int want_w = self->screenshot_width, want_h = self->screenshot_height;
  int dw, dh, frame_w, frame_h;

  if (w == want_w && h == want_h)
    {
      /* after a resize, a look more: the new size is drawn in a frame to come */
      if (self->screenshot_tries > 0 && !self->screenshot_drawn)
        {
          self->screenshot_drawn = TRUE;
          return SHOT_SIZE_WAIT;
        }
      return SHOT_SIZE_RIGHT;
    }
  if (self->screenshot_tries > 0 && w == self->screenshot_seen_w && h == self->screenshot_seen_h
      && self->screenshot_waits++ < 40)
    return SHOT_SIZE_WAIT;
  gtk_window_get_default_size (GTK_WINDOW (self), &dw, &dh);
  frame_w = MAX (dw - w, 0);
  frame_h = MAX (dh - h, 0);
  /* Smaller than the widgets can be: no resize will make it */
  window_min_size (self, frame_w, frame_h, min_w, min_h);
  if (*min_w > want_w || *min_h > want_h)
    {
      /* (the window's own size where it came down further than measured) */
      *min_w = MIN (*min_w, MAX (w, want_w));
      *min_h = MIN (*min_h, MAX (h, want_h));
      return SHOT_SIZE_TOO_SMALL;
    }
  if (self->screenshot_tries++ >= 4)
    return SHOT_SIZE_STUCK;
  self->screenshot_seen_w = w;
  self->screenshot_seen_h = h;
  self->screenshot_waits = 0;
  gtk_window_set_default_size (GTK_WINDOW (self), want_w + frame_w, want_h + frame_h);
  /* and show the selected lines again in the new size */
  _ks_window_select_cuda_line (self, self->selected_cuda_line);
  return SHOT_SIZE_WAIT;
}

static gboolean
take_screenshot (gpointer data)
{
  KsWindow *self = KS_WINDOW (data);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  gboolean ok = FALSE;
  int min_w = 0, min_h = 0;

  switch (screenshot_size (self, w, h, &min_w, &min_h))
    {
    case SHOT_SIZE_RIGHT:
      break;
    case SHOT_SIZE_WAIT:
      /* look again soon: the new source takes this one's reference */
      g_timeout_add (250, take_screenshot, self);
      return G_SOURCE_REMOVE;
    case SHOT_SIZE_TOO_SMALL:
    case SHOT_SIZE_STUCK:
    default:
      /* A larger picture would hide what the size was asked for: that the
       * window does not fit */
      if (min_w > self->screenshot_width || min_h > self->screenshot_height)
        g_printerr (_("kernelscope: the window cannot be %dx%d: its smallest size here is %dx%d\n"),
                    self->screenshot_width, self->screenshot_height, min_w, min_h);
      else
        g_printerr (_("kernelscope: the window did not become %dx%d: it stayed %dx%d\n"),
                    self->screenshot_width, self->screenshot_height, w, h);
      g_clear_pointer (&self->screenshot_path, g_free);
      if (KS_IS_APPLICATION (app))
        ks_application_screenshot_done (KS_APPLICATION (app), FALSE);
      g_object_unref (self);
      return G_SOURCE_REMOVE;
    }
  paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  _ks_window_launch_snapshot (self, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  /* nothing drawn yet at this size: look again */
  if (node == NULL && self->screenshot_waits++ < 40)
    {
      g_timeout_add (250, take_screenshot, self);
      return G_SOURCE_REMOVE;
    }
  if (node != NULL)
    {
      GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));

      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
      ok = texture != NULL && gdk_texture_save_to_png (texture, self->screenshot_path);
    }
  if (!ok)
    g_printerr ("kernelscope: could not write the screenshot %s\n", self->screenshot_path);
  g_clear_pointer (&self->screenshot_path, g_free);
  /* A picture of a refused file's message still fails the command */
  if (KS_IS_APPLICATION (app))
    ks_application_screenshot_done (KS_APPLICATION (app), ok && !self->screenshot_refused);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static void
show_result (KsWindow   *self,
             RunOutcome *outcome)
{
  KsAnalysis *result = outcome->analysis;
  /* the first run after opening, and only that one, opens on the lesson */
  gboolean lesson = self->lesson_pending;

  self->lesson_pending = FALSE;
  /* The PTX nvcc made from the edited CUDA replaces the pane's, unless
   * the PTX has edits of its own */
  if (ks_engine_compiled (result)
      && !gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->ptx_buffer)))
    _ks_window_show_compiled_ptx (self, result->ptx_text);
  show_diagnostics (self, result);
  /* A failed run (its code does not compile) leaves the last SASS */
  if (result->status != KS_ANALYSIS_FAILED)
    _ks_window_sass_show_analysis (self, result, g_steal_pointer (&outcome->sass_listing),
                                   g_steal_pointer (&outcome->sass_shown));
  else if (self->sass_file == NULL && !self->sass_live)
    /* a kernel just opened that does not compile has no SASS: fold */
    _ks_window_update_sass_pane (self);
  if (result->module != NULL)
    {
      g_autofree char *base = self->cuda_file ? g_file_get_basename (self->cuda_file) : NULL;

      _ks_window_set_line_map (self, ks_line_map_new (result->module, base));
    }
  show_output (self, result);
  if (result->status == KS_ANALYSIS_FAILED)
    {
      g_autofree char *msg = g_strdup_printf ("%s%s", result->error ? result->error
                                              : _("The analysis failed"),
                                              self->analysis ? _(" — showing the last good run") : "");

      set_status (self, msg);
      gtk_widget_set_visible (GTK_WIDGET (self->stale_label), self->analysis != NULL);
      gtk_stack_set_visible_child_name (self->results_stack, "output");
      return;
    }
  g_clear_pointer ((KsAnalysis **) &self->analysis, ks_analysis_unref);
  self->analysis = ks_analysis_ref (result);
  if (!self->gpu_chosen && result->gpu != NULL)
    _ks_window_show_gpu (self, result->gpu->id);
  _ks_window_show_launch (self, result->launch, result->launch_is_default);
  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), FALSE);
  show_hints (self, result);
  show_status (self, result);
  show_fault (self, result);
  /* (the gutters first: they change the panes' layout, which would drop
   * the lesson's scrolling) */
  _ks_window_heat_show (self, result);
  _ks_window_views_show (self, result, lesson);
  _ks_window_compare_update (self);
  /* a launch of a sequence just chosen: the panes go to its kernel */
  _ks_window_launch_show_kernel (self, result);
  /* A screenshot shows the linking: without a lesson's line, the CUDA
   * line with the most PTX lines */
  if (self->screenshot_path != NULL && self->selected_cuda_line == 0 && self->line_map != NULL)
    {
      uint32_t n_cuda = 0, best = 0, best_n = 0;
      const uint32_t *lines = ks_line_map_cuda_lines (self->line_map, &n_cuda);

      for (uint32_t i = 0; i < n_cuda; i++)
        {
          uint32_t n = 0;

          ks_line_map_ptx_lines (self->line_map, lines[i], &n);
          if (n > best_n)
            {
              best = lines[i];
              best_n = n;
            }
        }
      _ks_window_select_cuda_line (self, best);
    }
  if (result->sim != NULL && ks_sim_get_fault (result->sim) != NULL)
    gtk_stack_set_visible_child_name (self->results_stack, "output");
}

static void
run_done_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  KsWindow *self = KS_WINDOW (object);
  guint serial = GPOINTER_TO_UINT (user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(RunOutcome) result = g_task_propagate_pointer (G_TASK (res), &error);

  /* A run that another replaced says nothing */
  if (serial != self->run_serial)
    return;
  g_debug ("run %u: %s in %.0f ms", serial, result ? "done" : "stopped",
           (g_get_monotonic_time () - self->run_started) / 1e3);
  set_running (self, FALSE);
  g_clear_object (&self->run_cancellable);
  if (result == NULL)
    {
      set_status (self, _("Stopped"));
      gtk_widget_set_visible (GTK_WIDGET (self->stale_label), self->analysis != NULL);
    }
  else
    {
      self->have_nvcc = ks_engine_have_nvcc (result->analysis);
      self->have_disassembler = ks_engine_have_disassembler (result->analysis);
      _ks_window_show_toolchain (self);
      show_result (self, result);
    }
  _ks_window_step_update (self);
  /* --anatomy: the launch's anatomy, once; a screenshot is of it */
  if (self->anatomy_stage > 0 && self->analysis != NULL && result != NULL)
    {
      KsAnatomyWindow *anatomy = _ks_window_open_anatomy (self, self->anatomy_stage - 1);

      self->anatomy_stage = 0;
      if (anatomy != NULL && self->screenshot_path != NULL)
        {
          ks_anatomy_window_set_screenshot (anatomy, self->screenshot_path,
                                            self->screenshot_width, self->screenshot_height);
          g_clear_pointer (&self->screenshot_path, g_free);
        }
    }
  _ks_window_screenshot_soon (self);
}

/* With --screenshot: the picture of what the window shows now, once.
 * After a run, or when the file was refused or opened without a run (a
 * listing, a cubin): no state of the window may leave the process waiting. */
void
_ks_window_screenshot_soon (KsWindow *self)
{
  if (self->screenshot_path == NULL || self->screenshot_scheduled)
    return;
  self->screenshot_scheduled = TRUE;
  /* Give the results a few frames to lay out before the picture */
  g_timeout_add (1200, take_screenshot, g_object_ref (self));
}

const char *
_ks_window_toolkit_advice (gboolean sandboxed)
{
  /* In a Flatpak sandbox the toolkit is the host's, run through
   * flatpak-spawn --host (ks-toolchain-host.c): it is installed on the
   * host, and the permission is the manifest's, or an override's */
  if (sandboxed)
    return _("KernelScope runs in a Flatpak sandbox and found no CUDA toolkit on the host: PTX "
             "files, the samples and saved SASS listings work, and CUDA is analysed through the "
             "PTX beside it. To compile what you type, install the CUDA toolkit (nvcc) on the "
             "host; KernelScope runs it there through flatpak-spawn, with the permission to talk "
             "to org.freedesktop.Flatpak.");
  return _("No CUDA toolkit found: PTX files, the samples with their SASS, and saved SASS "
           "listings and cubins still work, and CUDA is analysed through the PTX beside it. To "
           "compile what you type and see its SASS: on Debian 12, enable the non-free component "
           "and install nvidia-cuda-toolkit; on Ubuntu, install nvidia-cuda-toolkit from "
           "multiverse; or install NVIDIA’s CUDA toolkit and set CUDA_HOME.");
}

void
_ks_window_show_toolchain (KsWindow *self)
{
  if (self->have_nvcc || self->toolkit_dismissed || self->presentation)
    {
      gtk_revealer_set_reveal_child (self->toolkit_revealer, FALSE);
      return;
    }
  {
    gboolean sandboxed = ks_toolchain_in_flatpak ();

    {
      gtk_label_set_text (self->toolkit_label, _ks_window_toolkit_advice (sandboxed));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->toolkit_label),
                                   _ks_window_toolkit_advice (sandboxed));
    }
    /* the sandbox's file chooser names a host folder it cannot see by a
     * document portal path, which the host's nvcc does not run from: there
     * the setting is set with gsettings (flatpak/README.md) */
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-toolkit", !sandboxed);
  }
  gtk_revealer_set_reveal_child (self->toolkit_revealer, TRUE);
}

void
_ks_window_run (KsWindow *self)
{
  RunData *data;
  g_autoptr(GTask) task = NULL;
  g_autofree char *cuda_path = self->cuda_file ? g_file_get_path (self->cuda_file) : NULL;
  g_autofree char *ptx_path = self->ptx_file ? g_file_get_path (self->ptx_file) : NULL;

  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  if (cuda_path == NULL && ptx_path == NULL)
    return;
  _ks_window_stop (self);

  data = g_new0 (RunData, 1);
  ks_engine_request_init (&data->request);
  data->request.cuda_path = g_steal_pointer (&cuda_path);
  data->request.ptx_path = g_steal_pointer (&ptx_path);
  if (data->request.cuda_path != NULL)
    data->request.cuda_text = _ks_window_dup_text (self->cuda_buffer);
  if (data->request.ptx_path != NULL)
    data->request.ptx_text = _ks_window_dup_text (self->ptx_buffer);
  data->request.cuda_modified = gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->cuda_buffer));
  /* A copy: the window may open another spec while this one runs */
  data->request.launch = self->launch ? ks_launch_copy (self->launch) : NULL;
  /* Until the user picks one, the GPU follows the PTX's .target */
  /* the user's GPU, else a recording's (the one its program ran on) */
  data->request.gpu = self->gpu_chosen ? g_strdup (_ks_window_get_gpu_id (self))
                                       : g_strdup (self->recording_gpu);
  if (self->settings != NULL)
    {
      g_autofree char *dir = g_settings_get_string (self->settings, "toolkit-path");

      if (dir[0] != '\0')
        data->request.toolkit_dir = g_steal_pointer (&dir);
    }
  self->run_serial++;
  data->progress = progress_new (self, self->run_serial);

  self->run_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->run_cancellable, run_done_cb, GUINT_TO_POINTER (self->run_serial));
  g_task_set_source_tag (task, _ks_window_run);
  g_task_set_task_data (task, data, (GDestroyNotify) run_data_free);
  g_task_set_return_on_cancel (task, FALSE);
  set_running (self, TRUE);
  self->run_started = g_get_monotonic_time ();
  set_status (self, _("Analysing…"));
  g_task_run_in_thread (task, run_worker);
  /* a new run replaces what a stepping session replays */
  _ks_window_step_end (self);
}

void
_ks_window_stop (KsWindow *self)
{
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
}

gboolean
_ks_window_set_toolkit_folder (KsWindow  *self,
                               GFile     *folder)
{
  g_autofree char *path = g_file_get_path (folder);
  g_autofree char *name = g_file_get_parse_name (folder);
  g_autoptr(KsToolchain) tc = NULL;
  g_autofree char *nvcc = NULL, *nvcc_bin = NULL;

  if (path == NULL)
    {
      _ks_window_show_message (self, _("The toolkit folder must be a local folder"));
      return FALSE;
    }
  /* The folder the setting names is searched itself and in its bin/, as
   * ks_toolchain_find does; one without nvcc would be a choice that
   * silently changes nothing */
  nvcc = g_build_filename (path, "nvcc", NULL);
  nvcc_bin = g_build_filename (path, "bin", "nvcc", NULL);
  if (!g_file_test (nvcc, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (nvcc_bin, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *msg = g_strdup_printf (_("%s holds no nvcc, in itself or in bin/: choose the "
                                                "folder the CUDA toolkit is installed in, such as "
                                                "/usr/local/cuda-13.0"), name);

      _ks_window_show_message (self, msg);
      return FALSE;
    }
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "toolkit-path", path);
  self->toolkit_dismissed = FALSE;
  gtk_revealer_set_reveal_child (self->toolkit_revealer, FALSE);
  _ks_window_run (self);
  return TRUE;
}

static void
toolkit_chooser_response_cb (GtkNativeDialog *native,
                             int              response,
                             gpointer         user_data)
{
  g_autoptr(KsWindow) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (folder != NULL)
        _ks_window_set_toolkit_folder (self, folder);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

/* The banner's button: the toolkit-path setting, without a terminal (a
 * toolkit outside PATH, where a desktop session's launcher sees no
 * CUDA_HOME from a shell's profile) */
static void
choose_toolkit_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (_("Choose the CUDA Toolkit Folder"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Choose"),
                                        _("_Cancel"));
  if (g_file_test ("/usr/local", G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GFile) local = g_file_new_for_path ("/usr/local");

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), local, NULL);
    }
  g_signal_connect (native, "response", G_CALLBACK (toolkit_chooser_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
_ks_window_run_class_init (GtkWidgetClass *klass)
{
  gtk_widget_class_install_action (klass, "win.choose-toolkit", NULL, choose_toolkit_action);
}

void
_ks_window_run_init (KsWindow *self)
{
  GtkWidget *placeholder = gtk_label_new (_("No hints yet: run a kernel to see advice tied to its "
                                            "lines"));

  self->have_nvcc = TRUE;
  /* The no-toolkit banner: a folder to choose, before Dismiss */
  {
    GtkWidget *choose = gtk_button_new_with_mnemonic (_("_Choose Toolkit Folder…"));

    gtk_actionable_set_action_name (GTK_ACTIONABLE (choose), "win.choose-toolkit");
    gtk_widget_set_valign (choose, GTK_ALIGN_CENTER);
    gtk_widget_set_tooltip_text (choose, _("Where the CUDA toolkit is installed, when KernelScope "
                                           "does not find it (kept in the toolkit-path setting)"));
    gtk_widget_insert_before (choose, gtk_widget_get_parent (GTK_WIDGET (self->toolkit_close_button)),
                              GTK_WIDGET (self->toolkit_close_button));
  }
  setup_marks (self->cuda_view);
  setup_marks (self->ptx_view);
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 24);
  gtk_widget_set_margin_bottom (placeholder, 24);
  gtk_list_box_set_placeholder (self->hints_list, placeholder);
  self->hints_placeholder = GTK_LABEL (placeholder);
  g_signal_connect_object (self->hints_list, "row-activated", G_CALLBACK (hint_activated_cb), self,
                           G_CONNECT_SWAPPED);
  set_running (self, FALSE);
  set_status (self, _("Open a kernel, or pick a sample"));
}

void
_ks_window_run_dispose (KsWindow *self)
{
  /* A run in its thread holds a reference, so this normally comes after
   * its end; if the window is disposed first, what the run hands back is
   * for no one */
  self->run_serial++;
  self->running = FALSE;
  _ks_window_stop (self);
  g_clear_object (&self->run_cancellable);
  g_clear_pointer ((KsAnalysis **) &self->analysis, ks_analysis_unref);
}
