/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-step.c: stepping through a launch, one warp-instruction at a
 * time, from the header bar's |< < > >| (the step.* actions).
 *
 * Reset starts a session at step 0: a KsSim of the last good run's module
 * and launch, with its trace on.  Step runs one warp-instruction
 * (ks_sim_run with a budget of 1; ks_sim_get_last_step says which warp ran
 * which instruction with which lanes), in the main thread: it takes
 * microseconds.  Step back runs a fresh simulation to the step before, and
 * Run to end finishes the launch, both in a GTask that Reset or the end of
 * the session cancels.  The engine steps warps in the order of a run in
 * one go, so step N is the N-th event of the run's trace (while it holds
 * every block), the same instruction the timeline shows.
 *
 * While a session lasts the instruction last run is lit in the PTX pane
 * (an arrow in the marks and a strong tint), with its CUDA line and that
 * line's SASS, scrolled into view; the status bar says where the launch
 * is; the Lanes view shows that step of that warp.  Editing the kernel,
 * opening another file or running the analysis ends the session. */

#include <glib/gi18n.h>

#include "ks-heat.h"
#include "ks-lane-view.h"
#include "ks-sim-lanes.h"
#include "ks-window-private.h"

#define STEP_TAG "ks-step"
#define STEP_MARK "ks-step"
/* The lane view records this many of a warp's steps at least */
#define LANE_STEPS 4096

typedef struct
{
  KsWindow *window;             /* borrowed: it owns this */
  GtkWidget *status;            /* in the status bar */

  /* The session: NULL sim when there is none */
  KsAnalysis *analysis;         /* whose module and launch it runs */
  KsSim *sim;                   /* NULL while a worker has it */
  uint64_t steps;               /* steps taken from the start */
  KsSimStep last;               /* the instruction step `steps` ran */
  gboolean have_last;
  gboolean active;
  guint serial;                 /* changes when a session starts or ends */
  GCancellable *cancellable;    /* the worker's */
  gboolean busy;

  /* The lane view's warp */
  gboolean lanes_pending;
  guint lanes_job;              /* the recording awaited */

  guint initial_steps;          /* --step: to take once a run is done */
  uint64_t lanes_cta;
  uint32_t lanes_warp;
  uint32_t lanes_steps;         /* steps recorded, 0 when none */
} Step;

static Step *
step_of (KsWindow *self)
{
  return self->step;
}

/* Of a sequence, the launch shown, after the ones before it have run
 * (untraced, on every processor; in the main thread when a session starts,
 * as a fresh simulation of one launch is) */
static KsSim *
new_sim (KsAnalysis    *a,
         GCancellable  *cancellable,
         GError       **error)
{
  KsSim *sim = ks_sim_new_selected (a->module, a->launch, g_get_num_processors (), cancellable,
                                    error);

  if (sim != NULL)
    ks_sim_set_trace (sim, TRUE, 0);
  return sim;
}

/* ---------------------------------------------------------------------- */
/* What the window shows of a step */

static void
clear_lit (KsWindow *self)
{
  GtkSourceBuffer *buffers[] = { self->cuda_buffer, self->ptx_buffer, self->sass_buffer };

  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    {
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffers[i]), &start, &end);
      gtk_text_buffer_remove_tag_by_name (GTK_TEXT_BUFFER (buffers[i]), STEP_TAG, &start, &end);
      gtk_source_buffer_remove_source_marks (buffers[i], &start, &end, STEP_MARK);
    }
}

static void
light_line (GtkSourceBuffer *buffer,
            guint            line,
            gboolean         mark)
{
  GtkTextIter start, end;

  if (line == 0 || line > (guint) gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer)))
    return;
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &start, (int) line - 1);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  gtk_text_iter_forward_char (&end);
  gtk_text_buffer_apply_tag_by_name (GTK_TEXT_BUFFER (buffer), STEP_TAG, &start, &end);
  if (mark)
    gtk_source_buffer_create_source_mark (buffer, NULL, STEP_MARK, &start);
}

static void
scroll_to (GtkSourceView *view,
           guint          line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextMark *mark;

  if (line > (guint) gtk_text_buffer_get_line_count (buffer))
    return;
  mark = _ks_window_line_mark (view, "ks-step-scroll", line);
  /* a mark, so it scrolls once the lines are measured; the line a third
   * of the way down, so what comes next shows below it */
  if (mark != NULL)
    gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (view), mark, 0.1, TRUE, 0, 0.33);
}

/* The PTX and CUDA lines of the last step (0 when none) */
static void
step_lines (Step  *st,
            guint *ptx_line,
            guint *cuda_line)
{
  KsWindow *self = st->window;
  const KsPtxModule *m = st->analysis ? st->analysis->module : NULL;

  *ptx_line = *cuda_line = 0;
  if (!st->have_last || m == NULL || st->last.insn >= m->n_insns)
    return;
  *ptx_line = m->insns[st->last.insn].line;
  if (self->line_map != NULL)
    *cuda_line = ks_line_map_cuda_line (self->line_map, *ptx_line);
}

static void update_actions (KsWindow *self);
static void sync_lanes (Step *st);

static void
set_status (Step       *st,
            const char *text,
            const char *tooltip)
{
  gtk_label_set_text (GTK_LABEL (st->status), text ? text : "");
  gtk_widget_set_tooltip_text (st->status, tooltip);
  gtk_widget_set_visible (st->status, text != NULL);
}

static void
show_step (Step *st)
{
  KsWindow *self = st->window;
  g_autofree char *n = ks_heat_format_count (st->steps);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *tip = NULL;
  KsSimStatus status = st->sim ? ks_sim_get_status (st->sim) : KS_SIM_READY;
  const KsSimFault *fault = st->sim ? ks_sim_get_fault (st->sim) : NULL;
  guint ptx = 0, cuda = 0;

  clear_lit (self);
  step_lines (st, &ptx, &cuda);
  if (st->busy)
    g_string_append_printf (s, _("step %s · running…"), n);
  else if (!st->have_last && (status == KS_SIM_DONE || status == KS_SIM_FAULTED))
    {
      g_autofree char *w = ks_heat_format_count (ks_sim_get_stats (st->sim)->warp_instructions);

      if (status == KS_SIM_DONE)
        g_string_append_printf (s, _("finished after %s warp-instructions · the results are the "
                                     "run's"), w);
      else
        g_string_append_printf (s, _("stopped after %s warp-instructions"), w);
    }
  else if (!st->have_last)
    g_string_append_printf (s, _("step %s · nothing has run yet · Step runs the first "
                                 "warp-instruction"), n);
  else
    {
      const KsSimStep *l = &st->last;
      uint32_t lanes = (uint32_t) __builtin_popcount (l->executed);

      g_string_append_printf (s, _("step %s · block (%u,%u,%u) warp %u"), n, l->block[0],
                              l->block[1], l->block[2], l->warp);
      if (ptx != 0)
        g_string_append_printf (s, _(" · PTX line %u"), ptx);
      else
        g_string_append (s, _(" · end of a function"));
      if (cuda != 0 && self->cuda_file != NULL)
        g_string_append_printf (s, _(" · CUDA line %u"), cuda);
      g_string_append_printf (s, _(" · %u of 32 lanes"), lanes);
      tip = g_strdup_printf (_("Lanes on the warp's path: 0x%08x; of those, the guard predicate "
                               "held in 0x%08x"), l->active, l->executed);
    }
  if (status == KS_SIM_FAULTED && fault != NULL)
    g_string_append_printf (s, _(" · faulted: %s"), fault->message);
  set_status (st, s->str, tip);

  if (ptx != 0)
    {
      const uint32_t *sass = NULL;
      uint32_t n_sass = 0;

      light_line (self->ptx_buffer, ptx, TRUE);
      if (cuda != 0)
        {
          /* the CUDA line lights its PTX in its colour, as a click would */
          _ks_window_select_cuda_line (self, cuda);
          light_line (self->cuda_buffer, cuda, TRUE);
          sass = ks_line_map_sass_lines (self->line_map, cuda, &n_sass);
          for (uint32_t i = 0; i < n_sass; i++)
            light_line (self->sass_buffer, sass[i], FALSE);
          scroll_to (self->cuda_view, cuda);
          if (n_sass > 0)
            scroll_to (self->sass_view, sass[0]);
        }
      scroll_to (self->ptx_view, ptx);
    }
  update_actions (self);
  sync_lanes (st);
}

/* ---------------------------------------------------------------------- */
/* The lane view follows the warp that stepped */

typedef struct
{
  KsAnalysis *analysis;
  guint serial;
  guint id;
  uint64_t cta;
  uint32_t warp;
  uint32_t max_steps;
} LaneJob;

static void
lane_job_free (LaneJob *job)
{
  ks_analysis_unref (job->analysis);
  g_free (job);
}

static void
lane_worker (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  LaneJob *job = data;
  GError *error = NULL;
  KsLaneTrace *t = ks_lane_trace_record (job->analysis->module, job->analysis->launch,
                                         (uint32_t) job->cta, job->warp, job->max_steps,
                                         cancellable, &error);

  if (t == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, t, (GDestroyNotify) ks_lane_trace_free);
}

/* Which of its warp's steps the last step is (a warp running off the end
 * of a function runs no instruction: its last one).  The engine counts
 * them: the session's trace may hold a sample of the blocks, not this one. */
static uint32_t
warp_step_index (Step *st)
{
  uint32_t n = st->last.warp_step;

  return st->last.insn == KS_PTX_NONE && n > 0 ? n - 1 : n;
}

static void
set_lane_step (Step     *st,
               uint32_t  index)
{
  KsWindow *self = st->window;

  /* the view's own step-changed moves the panes' cursor; here the step
   * already lit its lines */
  g_signal_handlers_block_matched (self->lane_view, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  ks_lane_view_set_step (KS_LANE_VIEW (self->lane_view), index);
  g_signal_handlers_unblock_matched (self->lane_view, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
}

static void
lane_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  KsWindow *self = KS_WINDOW (source);
  Step *st = step_of (self);
  LaneJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  KsLaneTrace *t = g_task_propagate_pointer (G_TASK (result), &error);

  /* (a recording that a later one replaced says nothing) */
  if (st == NULL || job->serial != st->serial || !st->active || job->id != st->lanes_job)
    {
      g_clear_pointer (&t, ks_lane_trace_free);
      return;
    }
  st->lanes_pending = FALSE;
  if (t == NULL)
    return;
  st->lanes_cta = job->cta;
  st->lanes_warp = job->warp;
  st->lanes_steps = t->n_steps;
  ks_lane_view_set_trace (KS_LANE_VIEW (self->lane_view), st->analysis, t);
  if (st->have_last && st->last.cta == job->cta && st->last.warp == job->warp)
    set_lane_step (st, warp_step_index (st));
}

static void
sync_lanes (Step *st)
{
  KsWindow *self = st->window;
  g_autoptr(GTask) task = NULL;
  LaneJob *job;
  uint32_t index;

  if (!st->active || !st->have_last || st->sim == NULL || st->busy || self->lane_view == NULL)
    return;
  index = warp_step_index (st);
  if (st->lanes_steps > index && st->lanes_cta == st->last.cta && st->lanes_warp == st->last.warp)
    {
      set_lane_step (st, index);
      return;
    }
  /* another warp, or past what was recorded: record it (the launch up to
   * its block runs again, so in a worker) */
  g_cancellable_cancel (self->lanes_cancellable);
  g_clear_object (&self->lanes_cancellable);
  self->lanes_cancellable = g_cancellable_new ();
  job = g_new0 (LaneJob, 1);
  job->analysis = ks_analysis_ref (st->analysis);
  job->serial = st->serial;
  job->cta = st->last.cta;
  job->warp = st->last.warp;
  job->max_steps = MAX (LANE_STEPS, index + 1024);
  job->id = ++st->lanes_job;
  st->lanes_pending = TRUE;
  st->lanes_steps = 0;
  task = g_task_new (self, self->lanes_cancellable, lane_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) lane_job_free);
  g_task_run_in_thread (task, lane_worker);
}

/* ---------------------------------------------------------------------- */
/* The session */

/* Why a session cannot start now, or NULL */
static char *
why_not (KsWindow *self)
{
  KsAnalysis *a = self->analysis;
  g_autofree char *text = NULL;

  if (self->running || self->edit_timeout_id != 0)
    return g_strdup (_("Wait for the run to finish, then step through it"));
  if (a == NULL || a->module == NULL || a->launch == NULL || a->sim == NULL)
    return g_strdup (_("Run a kernel first: stepping replays the last good run"));
  if (gtk_widget_get_visible (GTK_WIDGET (self->stale_label)))
    return g_strdup (_("The last run failed: fix the kernel and run it again before stepping"));
  text = _ks_window_dup_text (self->ptx_buffer);
  if (a->ptx_text == NULL || g_strcmp0 (text, a->ptx_text) != 0)
    return g_strdup (_("The PTX has changed since the last run: run it again before stepping"));
  return NULL;
}

static void
stop_worker (Step *st)
{
  g_cancellable_cancel (st->cancellable);
  g_clear_object (&st->cancellable);
  st->busy = FALSE;
}

void
_ks_window_step_end (KsWindow *self)
{
  Step *st = step_of (self);

  if (st == NULL)
    return;
  if (st->active)
    {
      stop_worker (st);
      st->serial++;
      st->active = FALSE;
      st->have_last = FALSE;
      st->steps = 0;
      st->lanes_steps = 0;
      st->lanes_pending = FALSE;
      g_clear_pointer (&st->sim, ks_sim_free);
      g_clear_pointer (&st->analysis, ks_analysis_unref);
      clear_lit (self);
      set_status (st, NULL, NULL);
    }
  update_actions (self);
}

static gboolean
start (KsWindow *self)
{
  Step *st = step_of (self);
  g_autofree char *why = why_not (self);
  g_autoptr(GError) error = NULL;
  KsSim *sim;

  if (why != NULL)
    {
      _ks_window_show_message (self, why);
      return FALSE;
    }
  sim = new_sim (self->analysis, NULL, &error);
  if (sim == NULL)
    {
      _ks_window_show_message (self, error->message);
      return FALSE;
    }
  _ks_window_step_end (self);
  st->serial++;
  st->active = TRUE;
  st->analysis = ks_analysis_ref (self->analysis);
  st->sim = sim;
  show_step (st);
  return TRUE;
}

typedef struct
{
  KsAnalysis *analysis;
  KsSim *sim;                   /* run on from here, or NULL: from the start */
  uint64_t target;              /* steps from the start; 0: to the end */
  guint serial;
} StepJob;

static void
step_job_free (StepJob *job)
{
  g_clear_pointer (&job->sim, ks_sim_free);
  ks_analysis_unref (job->analysis);
  g_free (job);
}

static void
step_worker (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  StepJob *job = data;
  GError *error = NULL;
  KsSim *sim = g_steal_pointer (&job->sim);

  if (sim == NULL)
    sim = new_sim (job->analysis, cancellable, &error);
  if (sim == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->target > 0 || ks_sim_get_status (sim) == KS_SIM_READY)
    ks_sim_run (sim, job->target, cancellable);
  if (ks_sim_get_status (sim) == KS_SIM_CANCELLED)
    {
      ks_sim_free (sim);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  g_task_return_pointer (task, sim, (GDestroyNotify) ks_sim_free);
}

static void
step_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  KsWindow *self = KS_WINDOW (source);
  Step *st = step_of (self);
  StepJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  KsSim *sim = g_task_propagate_pointer (G_TASK (result), &error);

  if (st == NULL || job->serial != st->serial || !st->active)
    {
      g_clear_pointer (&sim, ks_sim_free);
      return;
    }
  st->busy = FALSE;
  g_clear_object (&st->cancellable);
  if (sim == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _ks_window_show_message (self, error->message);
      _ks_window_step_end (self);
      return;
    }
  st->sim = sim;
  st->have_last = job->target > 0 && ks_sim_get_last_step (sim, &st->last);
  /* a run to the end took every step there was */
  st->steps = job->target > 0 ? job->target : ks_sim_get_stats (sim)->warp_instructions;
  show_step (st);
}

/* Runs the session's simulation to `target` steps (0: the end) in a
 * worker; from the start when it must go back */
static void
run_to (Step     *st,
        uint64_t  target)
{
  KsWindow *self = st->window;
  g_autoptr(GTask) task = NULL;
  StepJob *job = g_new0 (StepJob, 1);

  job->analysis = ks_analysis_ref (st->analysis);
  job->serial = st->serial;
  job->target = target;
  if (target == 0)
    job->sim = g_steal_pointer (&st->sim);
  else
    g_clear_pointer (&st->sim, ks_sim_free);
  stop_worker (st);
  st->cancellable = g_cancellable_new ();
  st->busy = TRUE;
  task = g_task_new (self, st->cancellable, step_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) step_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, step_worker);
  show_step (st);
}

/* ---------------------------------------------------------------------- */
/* Actions */

static void
update_actions (KsWindow *self)
{
  Step *st = step_of (self);
  gboolean session, ready, can_start;
  g_autofree char *why = NULL;

  if (st == NULL)
    return;
  session = st->active && !st->busy;
  ready = session && st->sim != NULL && ks_sim_get_status (st->sim) == KS_SIM_READY;
  why = st->active ? NULL : why_not (self);
  can_start = !self->running && (st->active || why == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "step.reset", can_start);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "step.forward", ready || (!st->active && can_start));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "step.back", session && st->steps > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "step.end", ready || (!st->active && can_start));
}

void
_ks_window_step_update (KsWindow *self)
{
  Step *st = step_of (self);
  g_autofree char *why = NULL;

  update_actions (self);
  /* --step N: a picture of stepping, for the docs */
  if (st == NULL || st->initial_steps == 0 || self->analysis == NULL)
    return;
  why = why_not (self);
  if (why == NULL)
    {
      guint n = st->initial_steps;

      st->initial_steps = 0;
      for (guint i = 0; i < n; i++)
        gtk_widget_activate_action (GTK_WIDGET (self), "step.forward", NULL);
    }
}

void
ks_window_set_initial_steps (KsWindow *self,
                             guint     steps)
{
  g_return_if_fail (KS_IS_WINDOW (self));
  if (step_of (self) != NULL)
    step_of (self)->initial_steps = steps;
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  start (KS_WINDOW (widget));
}

/* Whether the launch can run on: stepping starts if it has not, and the
 * launch has not ended and no run to a step is under way */
static gboolean
can_run_on (KsWindow *self,
            Step     *st)
{
  if (!st->active && !start (self))
    return FALSE;
  return !st->busy && st->sim != NULL && ks_sim_get_status (st->sim) == KS_SIM_READY;
}

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);
  Step *st = step_of (self);

  if (!can_run_on (self, st))
    return;
  /* one warp-instruction: microseconds, so here rather than in a worker */
  ks_sim_run (st->sim, 1, NULL);
  st->have_last = ks_sim_get_last_step (st->sim, &st->last);
  if (st->have_last)
    st->steps++;
  show_step (st);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);
  Step *st = step_of (self);
  g_autoptr(GError) error = NULL;

  if (!st->active || st->busy || st->steps == 0)
    return;
  if (st->steps == 1)
    {
      /* back to the start: nothing to run */
      KsSim *sim = new_sim (st->analysis, NULL, &error);

      if (sim == NULL)
        {
          _ks_window_show_message (self, error->message);
          return;
        }
      g_clear_pointer (&st->sim, ks_sim_free);
      st->sim = sim;
      st->steps = 0;
      st->have_last = FALSE;
      show_step (st);
      return;
    }
  /* the engine is deterministic: the same launch run to one step less */
  run_to (st, st->steps - 1);
}

static void
end_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);
  Step *st = step_of (self);

  if (!can_run_on (self, st))
    return;
  st->have_last = FALSE;
  run_to (st, 0);
}

void
_ks_window_step_class_init (GtkWidgetClass *klass)
{
  gtk_widget_class_install_action (klass, "step.reset", NULL, reset_action);
  gtk_widget_class_install_action (klass, "step.back", NULL, back_action);
  gtk_widget_class_install_action (klass, "step.forward", NULL, forward_action);
  gtk_widget_class_install_action (klass, "step.end", NULL, end_action);
}

/* Typing in a pane, or another file: the session's lines are gone */
static void
buffer_changed_cb (KsWindow      *self,
                   GtkTextBuffer *buffer)
{
  Step *st = step_of (self);

  if (st != NULL && st->active)
    _ks_window_step_end (self);
}

static void
stale_cb (KsWindow   *self,
          GParamSpec *pspec,
          GtkWidget  *label)
{
  update_actions (self);
}

void
_ks_window_step_init (KsWindow *self)
{
  Step *st = g_new0 (Step, 1);
  GtkSourceBuffer *buffers[] = { self->cuda_buffer, self->ptx_buffer, self->sass_buffer };
  GtkSourceView *views[] = { self->cuda_view, self->ptx_view };
  GtkWidget *bar = gtk_widget_get_parent (GTK_WIDGET (self->status_label));
  GdkRGBA tint;

  st->window = self;
  self->step = st;

  /* Adwaita's accent blue, strong enough to stand out from the linked
   * lines' pale tints in both themes; made after their tags, so it wins */
  gdk_rgba_parse (&tint, "rgba(53, 132, 228, 0.42)");
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffers[i]), STEP_TAG,
                                "paragraph-background-rgba", &tint,
                                "weight", PANGO_WEIGHT_BOLD, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autoptr(GtkSourceMarkAttributes) attrs = gtk_source_mark_attributes_new ();

      gtk_source_mark_attributes_set_icon_name (attrs, "go-next-symbolic");
      gtk_source_view_set_mark_attributes (views[i], STEP_MARK, attrs, 30);
    }

  st->status = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (st->status), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (st->status, "ks-step-status");
  gtk_widget_set_visible (st->status, FALSE);
  gtk_box_insert_child_after (GTK_BOX (bar), st->status, GTK_WIDGET (self->status_label));

  g_signal_connect_object (self->cuda_buffer, "changed", G_CALLBACK (buffer_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->ptx_buffer, "changed", G_CALLBACK (buffer_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stale_label, "notify::visible", G_CALLBACK (stale_cb), self,
                           G_CONNECT_SWAPPED);
  update_actions (self);
}

void
_ks_window_step_dispose (KsWindow *self)
{
  Step *st = step_of (self);

  if (st == NULL)
    return;
  stop_worker (st);
  st->serial++;
  g_clear_pointer (&st->sim, ks_sim_free);
  g_clear_pointer (&st->analysis, ks_analysis_unref);
  g_free (st);
  self->step = NULL;
}

KsSim *
_ks_window_step_get_sim (KsWindow *self)
{
  Step *st = step_of (self);

  return st && st->active ? st->sim : NULL;
}

gboolean
_ks_window_step_is_busy (KsWindow *self)
{
  Step *st = step_of (self);

  return st != NULL && (st->busy || st->lanes_pending);
}

guint64
_ks_window_step_count (KsWindow *self)
{
  Step *st = step_of (self);

  return st && st->active ? st->steps : 0;
}
