/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-layout.c: the window at every size a classroom has: half a
 * 1366 x 768 laptop (683 px) beside a student's notes, 1024 x 768 and
 * 1280 x 720 projectors.  The header bar folds its less-used controls (the
 * step buttons, Stop, the GPU, the launch) into the primary menu, the
 * views' tabs into a drop-down, and the pane headers their heat legends,
 * each a KsFoldBox whose minimum is only what must stay.  Also presentation
 * mode's full screen, and the results taking the whole window (F6). */

#include <glib/gi18n.h>

#include "ks-application.h"
#include "ks-fold-box.h"
#include "ks-render-export.h"
#include "ks-window-private.h"

/* ---------------------------------------------------------------------- */
/* The primary menu's section of folded controls */

static void
append_gpus (KsWindow *self,
             GMenu    *section)
{
  g_autoptr(GMenu) gpus = g_menu_new ();
  GListModel *names = G_LIST_MODEL (gtk_drop_down_get_model (self->gpu_dropdown));

  if (self->gpu_ids == NULL || names == NULL)
    return;
  for (guint i = 0; self->gpu_ids[i] != NULL && i < g_list_model_get_n_items (names); i++)
    {
      g_autoptr(GMenuItem) item = NULL;
      const char *label = gtk_string_list_get_string (GTK_STRING_LIST (names), i);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.gpu",
                                               g_variant_new_string (self->gpu_ids[i]));
      g_menu_append_item (gpus, item);
    }
  g_menu_append_submenu (section, _("_GPU"), G_MENU_MODEL (gpus));
}

/* A spec's launches, as the drop-down lists them */
static void
append_launch_steps (KsWindow *self,
                     GMenu    *section)
{
  g_autoptr(GMenu) steps = g_menu_new ();
  GListModel *names = G_LIST_MODEL (gtk_drop_down_get_model (self->launch_step_dropdown));

  if (names == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->launch_step_dropdown)))
    return;
  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    {
      g_autoptr(GMenuItem) item = NULL;

      item = g_menu_item_new (gtk_string_list_get_string (GTK_STRING_LIST (names), i), NULL);
      g_menu_item_set_action_and_target_value (item, "win.launch-step", g_variant_new_uint32 (i));
      g_menu_append_item (steps, item);
    }
  g_menu_append_submenu (section, _("_Launch Shown"), G_MENU_MODEL (steps));
}

static void
header_folded_cb (KsWindow  *self,
                  KsFoldBox *unused)
{
  GMenu *section = self->folded_section;
  KsFoldBox *start = KS_FOLD_BOX (self->header_start_fold);
  KsFoldBox *fold = KS_FOLD_BOX (self->header_fold);

  g_menu_remove_all (section);
  if (ks_fold_box_is_folded (start, GTK_WIDGET (self->gpu_dropdown)))
    append_gpus (self, section);
  if (ks_fold_box_is_folded (start, GTK_WIDGET (self->launch_step_dropdown)))
    append_launch_steps (self, section);
  if (ks_fold_box_is_folded (start, GTK_WIDGET (self->recording_button)))
    _ks_window_record_append_menu (self, section);
  /* "Edit the Launch…" and "Presentation Mode" are in the menu already */
  if (ks_fold_box_is_folded (fold, self->stop_button))
    g_menu_append (section, _("_Stop the Run"), "win.stop");
  if (ks_fold_box_is_folded (fold, self->step_box))
    {
      g_autoptr(GMenu) steps = g_menu_new ();

      g_menu_append (steps, _("Step From the _Start"), "step.reset");
      g_menu_append (steps, _("Step _Back"), "step.back");
      g_menu_append (steps, _("Step _Forward"), "step.forward");
      g_menu_append (steps, _("Run to the _End"), "step.end");
      g_menu_append_submenu (section, _("S_tepping"), G_MENU_MODEL (steps));
    }
}

void
_ks_window_update_folded_menu (KsWindow *self)
{
  header_folded_cb (self, NULL);
}

/* ---------------------------------------------------------------------- */
/* win.gpu: the GPU drop-down as a menu when it is folded */

static void
gpu_change_state (GSimpleAction *action,
                  GVariant      *state,
                  gpointer       data)
{
  KsWindow *self = KS_WINDOW (data);
  const char *id = g_variant_get_string (state, NULL);

  for (guint i = 0; self->gpu_ids != NULL && self->gpu_ids[i] != NULL; i++)
    if (g_strcmp0 (self->gpu_ids[i], id) == 0)
      {
        /* the drop-down's handler runs the analysis and updates the state */
        gtk_drop_down_set_selected (self->gpu_dropdown, i);
        return;
      }
}

static void
gpu_dropdown_cb (KsWindow    *self,
                 GParamSpec  *pspec,
                 GtkDropDown *dropdown)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "gpu");
  const char *id = _ks_window_get_gpu_id (self);

  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (id ? id : ""));
}

/* ---------------------------------------------------------------------- */
/* The results taking the whole window */

static void
maximize_results_change_state (GSimpleAction *action,
                               GVariant      *state,
                               gpointer       data)
{
  KsWindow *self = KS_WINDOW (data);
  gboolean on = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  gtk_widget_set_visible (GTK_WIDGET (self->source_paned), !on);
  /* The view keeps the keyboard, not an editor that is gone */
  if (on)
    gtk_widget_grab_focus (GTK_WIDGET (self->results_stack));
}

gboolean
_ks_window_results_maximized (KsWindow *self)
{
  return !gtk_widget_get_visible (GTK_WIDGET (self->source_paned));
}

/* ---------------------------------------------------------------------- */
/* The views' tabs, and their drop-down when they do not fit */

static void
views_dropdown_cb (KsWindow    *self,
                   GParamSpec  *pspec,
                   GtkDropDown *dropdown)
{
  guint i = gtk_drop_down_get_selected (dropdown);
  GListModel *pages = G_LIST_MODEL (gtk_stack_get_pages (self->results_stack));
  g_autoptr(GObject) page = NULL;

  if (self->views_syncing || i == GTK_INVALID_LIST_POSITION || i >= g_list_model_get_n_items (pages))
    {
      g_object_unref (pages);
      return;
    }
  page = g_list_model_get_item (pages, i);
  gtk_stack_set_visible_child (self->results_stack, gtk_stack_page_get_child (GTK_STACK_PAGE (page)));
  g_object_unref (pages);
}

static void
visible_view_cb (KsWindow   *self,
                 GParamSpec *pspec,
                 GtkStack   *stack)
{
  GtkWidget *child = gtk_stack_get_visible_child (stack);
  GListModel *pages = G_LIST_MODEL (gtk_stack_get_pages (stack));

  /* "Show a view to export it", or why the last export failed, is not
   * about this view */
  if (self->export_message_shown)
    _ks_window_show_message (self, NULL);

  for (guint i = 0; child != NULL && i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(GObject) page = g_list_model_get_item (pages, i);

      if (gtk_stack_page_get_child (GTK_STACK_PAGE (page)) == child)
        {
          self->views_syncing = TRUE;
          gtk_drop_down_set_selected (self->views_dropdown, i);
          self->views_syncing = FALSE;
          break;
        }
    }
  g_object_unref (pages);
}

static void
setup_views_switcher (KsWindow *self)
{
  GtkSelectionModel *pages = gtk_stack_get_pages (self->results_stack);
  GtkExpression *title = gtk_property_expression_new (GTK_TYPE_STACK_PAGE, NULL, "title");
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (self->views_switcher);

  /* Tabs as wide as their words, not all as wide as "Control Flow": two
   * hundred pixels more before they fold */
  if (GTK_IS_BOX_LAYOUT (layout))
    gtk_box_layout_set_homogeneous (GTK_BOX_LAYOUT (layout), FALSE);
  gtk_drop_down_set_expression (self->views_dropdown, title);
  gtk_drop_down_set_model (self->views_dropdown, G_LIST_MODEL (pages));
  gtk_expression_unref (title);
  g_object_unref (pages);
  g_signal_connect_object (self->views_dropdown, "notify::selected",
                           G_CALLBACK (views_dropdown_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->results_stack, "notify::visible-child",
                           G_CALLBACK (visible_view_cb), self, G_CONNECT_SWAPPED);
  visible_view_cb (self, NULL, self->results_stack);
}

/* ---------------------------------------------------------------------- */
/* Presentation mode: full screen as well as larger */

static void
leave_presentation_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);

  /* Escape stops a run first, as it does outside presentation mode */
  if (self->running)
    {
      _ks_window_stop (self);
      return;
    }
  g_object_set (self, "presentation", FALSE, NULL);
}

void
_ks_window_layout_set_presentation (KsWindow *self,
                                    gboolean  on)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.leave-presentation", on);
  /* A screenshot is the size it was asked for, not the screen's */
  if (self->screenshot_path != NULL || !gtk_widget_get_realized (GTK_WIDGET (self)))
    {
      self->fullscreen_pending = on && self->screenshot_path == NULL;
      return;
    }
  if (on && !gtk_window_is_fullscreen (GTK_WINDOW (self)))
    {
      gtk_window_fullscreen (GTK_WINDOW (self));
      self->made_fullscreen = TRUE;
    }
  else if (!on && self->made_fullscreen)
    {
      gtk_window_unfullscreen (GTK_WINDOW (self));
      self->made_fullscreen = FALSE;
    }
}

static void
realize_cb (KsWindow *self)
{
  if (self->fullscreen_pending && self->presentation)
    _ks_window_layout_set_presentation (self, TRUE);
  self->fullscreen_pending = FALSE;
}

static void
fullscreened_cb (KsWindow   *self,
                 GParamSpec *pspec)
{
  /* Leaving full screen by the window manager's own key leaves
   * presentation mode with it, so the two never disagree */
  if (!gtk_window_is_fullscreen (GTK_WINDOW (self)) && self->made_fullscreen)
    {
      self->made_fullscreen = FALSE;
      if (self->presentation)
        g_object_set (self, "presentation", FALSE, NULL);
    }
}

/* ---------------------------------------------------------------------- */
/* The code above, the results below: three fifths to the code at the
 * first size the window has; GtkPaned keeps the proportion when it is
 * resized (both children resize) */

static gboolean
first_split_cb (GtkWidget     *paned,
                GdkFrameClock *clock,
                gpointer       data)
{
  int height = gtk_widget_get_height (paned);

  if (height <= 0)
    return G_SOURCE_CONTINUE;
  gtk_paned_set_position (GTK_PANED (paned), height * 3 / 5);
  return G_SOURCE_REMOVE;
}

/* The Preferences' text scale reaches the drawn views too: they draw at
 * it, or at their own 1.7 when that is larger */
static void
presentation_scale_cb (KsWindow   *self,
                       GParamSpec *pspec,
                       GObject    *app)
{
  ks_render_set_presentation_scale (ks_application_get_presentation_scale (KS_APPLICATION (app)));
  if (self->presentation)
    _ks_window_views_set_presentation (self, TRUE);
}

/* ---------------------------------------------------------------------- */

void
_ks_window_layout_class_init (GtkWidgetClass *klass)
{
  g_type_ensure (KS_TYPE_FOLD_BOX);
  gtk_widget_class_install_action (klass, "win.leave-presentation", NULL,
                                   leave_presentation_action);
}

void
_ks_window_layout_init (KsWindow *self)
{
  g_autoptr(GSimpleAction) gpu = NULL;
  g_autoptr(GSimpleAction) maximize = NULL;
  const char *id = _ks_window_get_gpu_id (self);

  gpu = g_simple_action_new_stateful ("gpu", G_VARIANT_TYPE_STRING,
                                      g_variant_new_string (id ? id : ""));
  g_signal_connect_object (gpu, "change-state", G_CALLBACK (gpu_change_state), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (gpu));
  g_signal_connect_object (self->gpu_dropdown, "notify::selected",
                           G_CALLBACK (gpu_dropdown_cb), self, G_CONNECT_SWAPPED);

  maximize = g_simple_action_new_stateful ("maximize-results", NULL,
                                           g_variant_new_boolean (FALSE));
  g_signal_connect_object (maximize, "change-state", G_CALLBACK (maximize_results_change_state),
                           self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (maximize));

  g_signal_connect_object (self->header_start_fold, "folded-changed",
                           G_CALLBACK (header_folded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->header_fold, "folded-changed",
                           G_CALLBACK (header_folded_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_tick_callback (gtk_widget_get_parent (GTK_WIDGET (self->source_paned)),
                                first_split_cb, self, NULL);
  setup_views_switcher (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.leave-presentation", self->presentation);
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);
  if (KS_IS_APPLICATION (g_application_get_default ()))
    {
      GApplication *app = g_application_get_default ();

      g_signal_connect_object (app, "notify::presentation-scale",
                               G_CALLBACK (presentation_scale_cb), self, G_CONNECT_SWAPPED);
      presentation_scale_cb (self, NULL, G_OBJECT (app));
    }
  g_signal_connect (self, "notify::fullscreened", G_CALLBACK (fullscreened_cb), NULL);
}
