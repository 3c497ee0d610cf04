/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-views.c: the views in the results area (src/widgets), fed
 * with each good analysis, and their selections turned into the panes'.
 *
 * Timeline: a click selects the instruction: its PTX line lights up with
 * its CUDA line, the memory diagrams show it when it is a load or store,
 * and the lane view follows its warp (recorded in a worker).  The control
 * flow graph and the lane view select lines the same way.  Selecting never
 * takes the keyboard focus from the view.  A what-if on the occupancy
 * chart's block size re-runs with that block size.
 *
 * The first run after a file opens shows its lesson: the line a sample's
 * "focus" names, else the top hint's, selected in the panes; its access in
 * Memory; Lanes on the warp's first split; the whole control-flow graph. */

#include <glib/gi18n.h>
#include <string.h>

#include "ks-anatomy-window.h"
#include "ks-cfg-view.h"
#include "ks-lane-view.h"
#include "ks-memory-view.h"
#include "ks-occupancy-view.h"
#include "ks-timeline.h"
#include "ks-widget-util.h"
#include "ks-window-private.h"

#define LANE_STEPS 4096

static void
select_ptx_line (KsWindow *self,
                 guint     ptx_line)
{
  KsAnalysis *a = self->analysis;
  guint cuda = 0;

  if (a == NULL || a->module == NULL || ptx_line == 0)
    return;
  _ks_window_show_line (self, FALSE, ptx_line);
  if (self->line_map != NULL)
    cuda = ks_line_map_cuda_line (self->line_map, ptx_line);
  if (cuda != 0)
    _ks_window_select_cuda_line (self, cuda);
}

typedef struct
{
  KsAnalysis *analysis;
  uint32_t cta, warp;
  uint32_t select_insn;
  gboolean lesson;              /* open on the lesson's step, not the clicked one */
  uint32_t lesson_step;         /* 1-based, from the sample's focus; 0: the first split */
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
  KsLaneTrace *t = ks_lane_trace_record (job->analysis->module, job->analysis->launch, job->cta,
                                         job->warp, LANE_STEPS, cancellable, &error);

  if (t == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, t, (GDestroyNotify) ks_lane_trace_free);
}

static void lane_step_cb (KsLaneView *view,
                          guint       insn,
                          KsWindow   *self);

/* The first step with fewer lanes on the warp's path than it started
 * with: where the warp is split; 0 when it never is */
static uint32_t
lane_first_split (const KsLaneTrace *t)
{
  int full;

  if (t->n_steps == 0)
    return 0;
  full = __builtin_popcount (t->steps[0].active);
  for (uint32_t i = 1; i < t->n_steps; i++)
    if (__builtin_popcount (t->steps[i].active) < full)
      return i;
  return 0;
}

static void
lane_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  KsWindow *self = KS_WINDOW (source);
  LaneJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  KsLaneTrace *t = g_task_propagate_pointer (G_TASK (result), &error);

  if (t == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _ks_window_show_message (self, error->message);
      return;
    }
  if (job->analysis != self->analysis)
    {
      ks_lane_trace_free (t);
      return;
    }
  ks_lane_view_set_trace (KS_LANE_VIEW (self->lane_view), job->analysis, t);
  if (job->lesson)
    {
      /* the lesson's step shows in Lanes alone: the panes keep the
       * lesson's line */
      g_signal_handlers_block_by_func (self->lane_view, lane_step_cb, self);
      ks_lane_view_set_step (KS_LANE_VIEW (self->lane_view),
                             job->lesson_step ? job->lesson_step - 1 : lane_first_split (t));
      g_signal_handlers_unblock_by_func (self->lane_view, lane_step_cb, self);
      return;
    }
  /* open it at the instruction that was clicked */
  for (uint32_t i = 0; i < t->n_steps; i++)
    if (t->steps[i].insn == job->select_insn)
      {
        ks_lane_view_set_step (KS_LANE_VIEW (self->lane_view), i);
        break;
      }
}

static void
follow_warp_full (KsWindow *self,
                  uint32_t  cta,
                  uint32_t  warp,
                  uint32_t  insn,
                  gboolean  lesson,
                  uint32_t  lesson_step)
{
  g_autoptr(GTask) task = NULL;
  LaneJob *job;

  if (self->analysis == NULL || ((KsAnalysis *) self->analysis)->launch == NULL)
    return;
  g_cancellable_cancel (self->lanes_cancellable);
  g_clear_object (&self->lanes_cancellable);
  self->lanes_cancellable = g_cancellable_new ();
  job = g_new0 (LaneJob, 1);
  job->analysis = ks_analysis_ref (self->analysis);
  job->cta = cta;
  job->warp = warp;
  job->select_insn = insn;
  job->lesson = lesson;
  job->lesson_step = lesson_step;
  task = g_task_new (self, self->lanes_cancellable, lane_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) lane_job_free);
  g_task_run_in_thread (task, lane_worker);
}

static void
follow_warp (KsWindow *self,
             uint32_t  cta,
             uint32_t  warp,
             uint32_t  insn)
{
  follow_warp_full (self, cta, warp, insn, FALSE, 0);
}

static void
timeline_selected_cb (KsTimeline *timeline,
                      guint       insn,
                      guint64     event,
                      KsWindow   *self)
{
  KsAnalysis *a = self->analysis;
  const KsTiming *t;

  if (a == NULL || a->module == NULL || insn >= a->module->n_insns)
    return;
  select_ptx_line (self, a->module->insns[insn].line);
  ks_memory_view_set_instruction (KS_MEMORY_VIEW (self->memory_view), insn);
  t = a->timing;
  if (t != NULL)
    for (uint32_t w = 0; w < t->n_warps; w++)
      if (event >= t->warps[w].first_event && event < t->warps[w].first_event + t->warps[w].n_events)
        {
          follow_warp (self, t->warps[w].cta, t->warps[w].warp_in_cta, insn);
          break;
        }
}

static void
cfg_selected_cb (KsCfgView *view,
                 guint      line,
                 KsWindow  *self)
{
  select_ptx_line (self, line);
}

static void
lane_step_cb (KsLaneView *view,
              guint       insn,
              KsWindow   *self)
{
  KsAnalysis *a = self->analysis;

  if (a != NULL && a->module != NULL && insn < a->module->n_insns)
    select_ptx_line (self, a->module->insns[insn].line);
}

static void
what_if_cb (KsOccupancyView *view,
            int              curve,
            guint            value,
            KsWindow        *self)
{
  KsAnalysis *a = self->analysis;
  KsLaunch *l;
  uint64_t threads;
  g_autofree char *msg = NULL;

  if (curve != KS_OCCUPANCY_CURVE_BLOCK_SIZE)
    {
      /* registers and shared memory come from the compiled code */
      _ks_window_show_message (self, curve == KS_OCCUPANCY_CURVE_REGISTERS
                               ? _("Registers per thread come from the compiler: try "
                                   "__launch_bounds__ or -maxrregcount in the CUDA")
                               : _("Shared memory per block comes from the code and the launch's "
                                   "dynamic_shared_bytes"));
      return;
    }
  if (a == NULL || a->launch == NULL || value == 0)
    return;
  /* the same threads in blocks of the new size (1-D) */
  l = ks_launch_copy (a->launch);
  threads = (uint64_t) l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
  l->block[0] = value;
  l->block[1] = l->block[2] = 1;
  l->grid[0] = (uint32_t) MIN ((threads + value - 1) / value, G_MAXINT32);
  l->grid[1] = l->grid[2] = 1;
  /* of a sequence, the launch shown: the others run as written */
  if (l->n_steps > 0)
    {
      memcpy (l->steps[l->step].grid, l->grid, sizeof l->grid);
      memcpy (l->steps[l->step].block, l->block, sizeof l->block);
    }
  g_clear_pointer (&self->launch, ks_launch_free);
  self->launch = l;
  msg = g_strdup_printf (_("What if: blocks of %u threads"), value);
  _ks_window_show_message (self, msg);
  _ks_window_run (self);
}

/* Export: the visible view, as PNG, SVG or PDF (by the name's extension) */
static gboolean
export_visible (KsWindow    *self,
                const char  *path,
                GError     **error)
{
  const char *page = gtk_stack_get_visible_child_name (self->results_stack);
  int w = 1600, h = 600;

  if (g_strcmp0 (page, "timeline") == 0)
    return ks_timeline_export (KS_TIMELINE (self->timeline), path, 2400, 900, FALSE, error);
  if (g_strcmp0 (page, "memory") == 0)
    return ks_memory_view_export (KS_MEMORY_VIEW (self->memory_view), path, w, 520, error);
  if (g_strcmp0 (page, "occupancy") == 0)
    return ks_occupancy_view_export (KS_OCCUPANCY_VIEW (self->occupancy_view), path, w, 480, error);
  if (g_strcmp0 (page, "lanes") == 0)
    return ks_lane_view_export (KS_LANE_VIEW (self->lane_view), path, w, h, error);
  if (g_strcmp0 (page, "cfg") == 0)
    return ks_cfg_view_export (KS_CFG_VIEW (self->cfg_view), path, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("Show a view (Timeline, Memory, Occupancy, Lanes or Control Flow) to export it"));
  return FALSE;
}

/* An export's message is about the view shown: another view ends it
 * (ks-window-layout.c's view switch) */
static void
show_export_message (KsWindow   *self,
                     const char *message)
{
  _ks_window_show_message (self, message);
  self->export_message_shown = TRUE;
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  KsWindow *self = KS_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path != NULL && !g_str_has_suffix (path, ".png") && !g_str_has_suffix (path, ".svg")
          && !g_str_has_suffix (path, ".pdf"))
        {
          char *with = g_strconcat (path, ".png", NULL);

          g_free (path);
          path = with;
        }
      if (path != NULL && !export_visible (self, path, &error))
        show_export_message (self, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_view_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);
  const char *page = gtk_stack_get_visible_child_name (self->results_stack);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;
  const char *const exts[] = { "*.png", "*.svg", "*.pdf" };
  const char *const names[] = { N_("PNG image"), N_("SVG drawing"), N_("PDF document") };

  if (page == NULL || g_str_equal (page, "hints") || g_str_equal (page, "output"))
    {
      show_export_message (self, _("Show a view (Timeline, Memory, Occupancy, Lanes or "
                                   "Control Flow) to export it"));
      return;
    }
  chooser = gtk_file_chooser_native_new (_("Export View"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  for (guint i = 0; i < G_N_ELEMENTS (exts); i++)
    {
      GtkFileFilter *f = gtk_file_filter_new ();

      gtk_file_filter_set_name (f, _(names[i]));
      gtk_file_filter_add_pattern (f, exts[i]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), f);
      g_object_unref (f);
    }
  name = g_strdup_printf ("%s.png", page);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Alt+1 to Alt+7 (ks-application.c's accelerators): the results view of
 * that name, as its tab would */
static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (gtk_stack_get_child_by_name (self->results_stack, name) != NULL)
    gtk_stack_set_visible_child_name (self->results_stack, name);
}

/* The Launch Anatomy window for the last results (seeds/004), at a
 * stage (0-based); NULL, said in the status line, without results */
KsAnatomyWindow *
_ks_window_open_anatomy (KsWindow *self,
                         guint     stage)
{
  g_autoptr(GError) error = NULL;
  KsAnatomyWindow *anatomy;

  if (self->analysis == NULL)
    {
      gtk_label_set_text (self->status_label, _("Run the kernel first: the launch's anatomy "
                                                "shows its figures."));
      return NULL;
    }
  anatomy = ks_anatomy_window_new (GTK_WINDOW (self), self->analysis, &error);
  if (anatomy == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      return NULL;
    }
  if (self->cuda_file != NULL)
    {
      g_autofree char *path = g_file_get_path (self->cuda_file);
      g_autofree char *text = _ks_window_dup_text (self->cuda_buffer);

      if (path != NULL)
        ks_anatomy_window_compile (anatomy, self->analysis, path, text);
    }
  ks_anatomy_window_set_presentation (anatomy, self->presentation);
  ks_anatomy_window_set_stage (anatomy, stage);
  gtk_window_present (GTK_WINDOW (anatomy));
  return anatomy;
}

void
ks_window_set_initial_anatomy (KsWindow *self,
                               guint     stage)
{
  g_return_if_fail (KS_IS_WINDOW (self));
  self->anatomy_stage = MIN (stage, KS_ANATOMY_STAGES);
}

static void
launch_anatomy_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  _ks_window_open_anatomy (KS_WINDOW (widget), 0);
}

void
_ks_window_views_class_init (GtkWidgetClass *klass)
{
  gtk_widget_class_install_action (klass, "win.launch-anatomy", NULL, launch_anatomy_action);
  gtk_widget_class_install_action (klass, "win.export-view", NULL, export_view_action);
  gtk_widget_class_install_action (klass, "win.show-view", "s", show_view_action);
}

gboolean
_ks_window_views_export (KsWindow    *self,
                         const char  *path,
                         GError     **error)
{
  return export_visible (self, path, error);
}

void
_ks_window_views_init (KsWindow *self)
{
  const struct
  {
    GtkWidget **widget;
    GType (*type) (void);
    const char *name, *title;
    gboolean scroll;
  } views[] = {
    { &self->timeline, ks_timeline_get_type, "timeline", N_("Timeline"), FALSE },
    { &self->memory_view, ks_memory_view_get_type, "memory", N_("Memory"), TRUE },
    { &self->occupancy_view, ks_occupancy_view_get_type, "occupancy", N_("Occupancy"), FALSE },
    { &self->lane_view, ks_lane_view_get_type, "lanes", N_("Lanes"), TRUE },
    { &self->cfg_view, ks_cfg_view_get_type, "cfg", N_("Control Flow"), FALSE },
  };

  /* before the hints and the output, in the order a reader goes */
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkWidget *w = g_object_new (views[i].type (), NULL);
      GtkStackPage *page;

      gtk_widget_set_hexpand (w, TRUE);
      gtk_widget_set_vexpand (w, TRUE);
      *views[i].widget = w;
      page = gtk_stack_add_titled (self->results_stack, views[i].scroll ? ks_widget_scrolled (w) : w,
                                   views[i].name, _(views[i].title));
      (void) page;
    }
  /* the hints and the output after the views, as DESIGN.md draws it */
  {
    GtkStackPage **pages[] = { &self->hints_page, &self->output_page };

    for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
      {
        GtkWidget *child = g_object_ref (gtk_stack_page_get_child (*pages[i]));
        g_autofree char *name = g_strdup (gtk_stack_page_get_name (*pages[i]));
        g_autofree char *title = g_strdup (gtk_stack_page_get_title (*pages[i]));
        gboolean visible = gtk_stack_get_visible_child (self->results_stack) == child;

        gtk_stack_remove (self->results_stack, child);
        *pages[i] = gtk_stack_add_titled (self->results_stack, child, name, title);
        if (visible)
          gtk_stack_set_visible_child (self->results_stack, child);
        g_object_unref (child);
      }
  }
  g_signal_connect (self->timeline, "instruction-selected", G_CALLBACK (timeline_selected_cb), self);
  g_signal_connect (self->cfg_view, "line-selected", G_CALLBACK (cfg_selected_cb), self);
  g_signal_connect (self->lane_view, "step-changed", G_CALLBACK (lane_step_cb), self);
  g_signal_connect (self->occupancy_view, "what-if", G_CALLBACK (what_if_cb), self);
  _ks_window_views_set_presentation (self, self->presentation);
}

void
_ks_window_views_dispose (KsWindow *self)
{
  g_cancellable_cancel (self->lanes_cancellable);
  g_clear_object (&self->lanes_cancellable);
  g_clear_pointer (&self->initial_view, g_free);
}

void
ks_window_set_view (KsWindow   *self,
                    const char *name)
{
  g_return_if_fail (KS_IS_WINDOW (self));
  g_free (self->initial_view);
  self->initial_view = g_strdup (name);
}

/* Whether instruction i of the module is on CUDA line cuda_line */
static gboolean
insn_on_line (KsWindow   *self,
              KsAnalysis *a,
              uint32_t    i,
              guint       cuda_line)
{
  return self->line_map != NULL && cuda_line != 0
         && ks_line_map_cuda_line (self->line_map, a->module->insns[i].line) == cuda_line;
}

/* What the file teaches: the sample's focus line, else the first hint with
 * a line; its CUDA line (0 when not in the CUDA pane) and PTX line */
static void
find_lesson (KsWindow   *self,
             KsAnalysis *a,
             guint      *cuda_line,
             guint      *ptx_line)
{
  const KsSample *sample = self->lesson;

  *cuda_line = *ptx_line = 0;
  if (sample != NULL && sample->focus_error != NULL)
    _ks_window_show_message (self, sample->focus_error);
  if (sample != NULL && sample->focus_line != 0 && self->line_map != NULL)
    {
      uint32_t n = 0;
      const uint32_t *lines = ks_line_map_ptx_lines (self->line_map, sample->focus_line, &n);

      if (n > 0)
        {
          *cuda_line = sample->focus_line;
          *ptx_line = lines[0];
          return;
        }
      {
        g_autofree char *msg = g_strdup_printf (_("%s/sample.json: \"focus\": \"line\" %u has "
                                                  "no PTX instruction; the sample opens on its "
                                                  "first hint"), sample->dir, sample->focus_line);

        _ks_window_show_message (self, msg);
      }
    }
  for (guint h = 0; a->hints != NULL && h < a->hints->len; h++)
    {
      const KsHint *hint = a->hints->pdata[h];

      if (hint->ptx_line != 0)
        {
          *ptx_line = hint->ptx_line;
          *cuda_line = self->line_map ? ks_line_map_cuda_line (self->line_map, hint->ptx_line) : 0;
          return;
        }
    }
}

/* The memory view on the lesson's access: the lesson line's own
 * instruction, else the first one of its CUDA line with an access */
static gboolean
show_lesson_access (KsWindow   *self,
                    KsAnalysis *a,
                    guint       cuda_line,
                    guint       ptx_line)
{
  KsMemoryView *memory = KS_MEMORY_VIEW (self->memory_view);

  for (uint32_t i = 0; ptx_line != 0 && i < a->module->n_insns; i++)
    if (a->module->insns[i].line == ptx_line && ks_memory_view_set_instruction (memory, i))
      return TRUE;
  for (uint32_t i = 0; cuda_line != 0 && i < a->module->n_insns; i++)
    if (insn_on_line (self, a, i, cuda_line) && ks_memory_view_set_instruction (memory, i))
      return TRUE;
  return FALSE;
}

void
_ks_window_views_show (KsWindow   *self,
                       KsAnalysis *a,
                       gboolean    lesson)
{
  guint lesson_cuda = 0, lesson_ptx = 0;
  gboolean faulted = a->sim != NULL && ks_sim_get_fault (a->sim) != NULL;

  /* (without a timing, it shows why: timing_error) */
  ks_timeline_set_analysis (KS_TIMELINE (self->timeline), a);
  ks_occupancy_view_set_analysis (KS_OCCUPANCY_VIEW (self->occupancy_view), a);
  ks_cfg_view_set_analysis (KS_CFG_VIEW (self->cfg_view), a);
  ks_memory_view_set_analysis (KS_MEMORY_VIEW (self->memory_view), a);
  ks_lane_view_set_trace (KS_LANE_VIEW (self->lane_view), a, NULL);
  if (lesson && a->module != NULL)
    {
      find_lesson (self, a, &lesson_cuda, &lesson_ptx);
      /* the panes on the lesson's lines (a fault's line wins: show_fault) */
      if (!faulted && lesson_cuda != 0)
        _ks_window_show_line (self, TRUE, lesson_cuda);
      else if (!faulted && lesson_ptx != 0)
        _ks_window_show_line (self, FALSE, lesson_ptx);
      /* (the panes' text is new: its lines are still being measured) */
      if (!faulted)
        _ks_window_keep_selection_in_sight (self);
      /* the whole graph, not its first blocks */
      ks_cfg_view_zoom_to_fit (KS_CFG_VIEW (self->cfg_view));
    }
  /* the memory view starts on the lesson's access, else on the access the
   * first hint is about (a bank conflict, an uncoalesced load), else on the
   * kernel's first access */
  if (a->sim != NULL && a->module != NULL)
    {
      gboolean shown = show_lesson_access (self, a, lesson_cuda, lesson_ptx);

      for (guint h = 0; a->hints != NULL && h < a->hints->len && !shown; h++)
        {
          const KsHint *hint = a->hints->pdata[h];

          for (uint32_t i = 0; hint->ptx_line != 0 && i < a->module->n_insns && !shown; i++)
            if (a->module->insns[i].line == hint->ptx_line)
              shown = ks_memory_view_set_instruction (KS_MEMORY_VIEW (self->memory_view), i);
        }
      for (uint32_t i = 0; i < a->module->n_insns && !shown; i++)
        {
          uint32_t n = 0;

          ks_sim_get_accesses (a->sim, i, &n);
          if (n > 0)
            shown = ks_memory_view_set_instruction (KS_MEMORY_VIEW (self->memory_view), i);
        }
    }
  /* and the lane view on block 0, warp 0: for a lesson, where it splits */
  if (a->timing != NULL)
    follow_warp_full (self, 0, 0, G_MAXUINT32, lesson,
                      lesson && self->lesson != NULL ? self->lesson->focus_step : 0);
  /* --view wins over the sample's view */
  if (self->initial_view != NULL && gtk_stack_get_child_by_name (self->results_stack,
                                                                 self->initial_view) != NULL)
    gtk_stack_set_visible_child_name (self->results_stack, self->initial_view);
  else if (lesson && !faulted && self->lesson != NULL && self->lesson->focus_view != NULL
           && gtk_stack_get_child_by_name (self->results_stack, self->lesson->focus_view) != NULL)
    gtk_stack_set_visible_child_name (self->results_stack, self->lesson->focus_view);
}

void
_ks_window_views_set_presentation (KsWindow *self,
                                   gboolean  on)
{
  /* the settings may turn it on before the views exist; views_init then
   * applies it */
  if (self->timeline == NULL)
    return;
  ks_timeline_set_presentation (KS_TIMELINE (self->timeline), on);
  ks_occupancy_view_set_presentation (KS_OCCUPANCY_VIEW (self->occupancy_view), on);
  ks_cfg_view_set_presentation (KS_CFG_VIEW (self->cfg_view), on);
  ks_memory_view_set_presentation (KS_MEMORY_VIEW (self->memory_view), on);
  ks_lane_view_set_presentation (KS_LANE_VIEW (self->lane_view), on);
}
