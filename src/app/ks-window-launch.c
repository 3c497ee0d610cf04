/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-launch.c: the launch editor behind the header bar's
 * <<<grid, block>>> button, and saving what it edits.
 *
 * The window keeps the launch spec as the user wrote it (a KsLaunchForm)
 * beside the KsLaunch the engine runs.  Apply makes both the editor's and
 * runs the analysis again; an applied launch that differs from the file is
 * an unsaved change.  Ctrl+S writes it beside the kernel as KERNEL.json
 * (the samples' layout, paths relative to it).  A kernel that cannot be
 * saved where it is -- one of the sample library's, or in a folder the user
 * cannot write -- is saved as a copy: the CUDA, the PTX and the spec, under
 * a name the user picks, and the window goes on with the copy. */

#include "ks-widget-util.h"
#include "ks-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-launch-editor.h"
#include "ks-samples.h"
#include "ks-sass.h"

/* The file the spec is saved to: the one it was read from, else
 * KERNEL.json beside the kernel.  NULL when there is no kernel file. */
static GFile *
spec_target (KsWindow *self)
{
  GFile *main_file = self->cuda_file ? self->cuda_file : self->ptx_file;
  g_autoptr(GFile) parent = NULL;
  g_autofree char *name = NULL;
  char *dot;

  if (self->spec_file != NULL)
    return g_object_ref (self->spec_file);
  if (main_file == NULL || (parent = g_file_get_parent (main_file)) == NULL)
    return NULL;
  name = g_file_get_basename (main_file);
  if ((dot = strrchr (name, '.')) != NULL)
    *dot = '\0';
  {
    g_autofree char *spec = g_strconcat (name, ".json", NULL);

    return g_file_get_child (parent, spec);
  }
}

/* The path of @file from @spec's folder, as a spec writes it */
static char *
relative_to_spec (GFile *spec,
                  GFile *file)
{
  g_autoptr(GFile) dir = g_file_get_parent (spec);
  g_autofree char *rel = dir ? g_file_get_relative_path (dir, file) : NULL;

  if (rel != NULL)
    return g_steal_pointer (&rel);
  /* elsewhere: by its absolute path, which still reads the same */
  return g_file_get_path (file);
}

/* The kernel file a new spec names: the PTX, which runs without a
 * toolkit, else the CUDA */
static void
name_kernel_file (KsWindow     *self,
                  KsLaunchForm *form,
                  GFile        *spec)
{
  GFile *kernel = self->ptx_file ? self->ptx_file : self->cuda_file;

  if (kernel == NULL || spec == NULL)
    return;
  form->use_source = self->ptx_file == NULL;
  g_free (form->kernel_file);
  form->kernel_file = relative_to_spec (spec, kernel);
}

/* The PTX of the pane, parsed for the editor's kernel list and .param
 * lists; NULL when there is none or it declares no kernel */
static KsPtxModule *
parse_pane (KsWindow *self)
{
  g_autofree char *text = _ks_window_dup_text (self->ptx_buffer);
  g_autofree char *name = self->ptx_file ? g_file_get_basename (self->ptx_file)
                                         : g_strdup ("kernel.ptx");
  gsize len = strlen (text);
  g_autoptr(GBytes) bytes = NULL;
  KsPtxModule *module;

  if (len == 0)
    return NULL;
  bytes = g_bytes_new_take (g_steal_pointer (&text), len);
  module = ks_ptx_module_parse (bytes, name);
  if (ks_ptx_module_n_entries (module) == 0)
    g_clear_pointer (&module, ks_ptx_module_free);
  return module;
}

/* A kernel without a spec starts from the default launch the engine ran
 * (ks_launch_default_json()), for the kernel the last run chose */
static KsLaunchForm *
default_form (KsWindow          *self,
              const KsPtxModule *module)
{
  const KsAnalysis *a = self->analysis;
  g_autoptr(KsLaunchForm) form = NULL;
  g_autoptr(GFile) spec = spec_target (self);

  if (module != NULL)
    {
      uint32_t function = G_MAXUINT32;
      g_autofree char *json = NULL;

      for (uint32_t i = 0; i < module->n_functions; i++)
        {
          if (module->functions[i].kind != KS_PTX_FUNCTION_ENTRY)
            continue;
          if (function == G_MAXUINT32
              || (a != NULL && a->kernel_name != NULL
                  && ks_ptx_span_equal (module, module->functions[i].name, a->kernel_name)))
            function = i;
        }
      json = ks_launch_default_json (module, function, NULL);
      form = ks_launch_form_from_json (json, -1, NULL);
    }
  if (form == NULL)
    {
      form = ks_launch_form_new ();
      g_free (form->grid[0]);
      form->grid[0] = g_strdup ("4");
      g_free (form->block[0]);
      form->block[0] = g_strdup ("256");
    }
  name_kernel_file (self, form, spec);
  return g_steal_pointer (&form);
}

static void
set_dim (char     **field,
         uint32_t   value)
{
  guint64 shown;

  if (g_ascii_string_to_unsigned (*field, 10, 0, G_MAXUINT32, &shown, NULL) && shown == value)
    return;
  g_free (*field);
  *field = g_strdup_printf ("%u", value);
}

static void
load_editor (KsWindow *self)
{
  KsPtxModule *module = parse_pane (self);
  g_autoptr(KsLaunchForm) form = self->launch_form ? ks_launch_form_copy (self->launch_form)
                                                   : default_form (self, module);
  g_autoptr(GFile) spec = spec_target (self);
  g_autofree char *spec_path = spec ? g_file_get_path (spec) : NULL;

  /* Of a sequence, the launch the views show */
  if (form->launches != NULL && self->launch != NULL && self->launch->n_steps == form->launches->len)
    ks_launch_form_select_launch (form, self->launch->step);
  /* What runs may differ from the spec: a what-if on the occupancy chart
   * changes the block size of the launch in use */
  if (self->launch != NULL)
    for (guint i = 0; i < 3; i++)
      {
        set_dim (&form->grid[i], self->launch->grid[i]);
        set_dim (&form->block[i], self->launch->block[i]);
      }
  ks_launch_editor_load (KS_LAUNCH_EDITOR (self->launch_editor), form, module, spec_path);
  self->launch_editor_loaded = TRUE;
}

/* The popover hangs from the button near the window's right edge: it
 * slides left so that all of it shows over the window */
static void
place_popover (KsWindow *self)
{
  graphene_point_t centre;
  int width = gtk_widget_get_width (GTK_WIDGET (self)), natural = 0, offset;
  float half = gtk_widget_get_width (GTK_WIDGET (self->launch_button)) / 2.f;

  if (width <= 0 || !gtk_widget_compute_point (GTK_WIDGET (self->launch_button), GTK_WIDGET (self),
                                               &GRAPHENE_POINT_INIT (half, 0), &centre))
    return;
  gtk_widget_measure (self->launch_popover, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL,
                      NULL);
  offset = MIN (0, width - 8 - ((int) centre.x + natural / 2));
  gtk_popover_set_offset (GTK_POPOVER (self->launch_popover), offset, 0);
}

static void
popover_show_cb (KsWindow   *self,
                 GtkPopover *popover)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  /* The form scrolls rather than run off the window: the header bar and
   * a margin stay clear, and the sides */
  if (height > 0 && width > 0)
    ks_launch_editor_set_max_size (KS_LAUNCH_EDITOR (self->launch_editor), width - 60,
                                   height - 200);
  /* A sequence of launches: the editor edits the one shown, and says so */
  if (self->launch != NULL && self->launch->n_steps > 1)
    {
      const KsLaunch *l = self->launch;
      const KsAnalysis *a = self->analysis;
      const char *kernel = l->steps[l->step].kernel;
      g_autofree char *name = NULL, *note = NULL;

      if (kernel == NULL && a != NULL && a->n_launches == l->n_steps)
        kernel = a->launches[l->step].kernel;
      name = _ks_window_short_kernel_name (kernel);
      /* TRANSLATORS: above the launch editor, for a spec of several launches */
      note = g_strdup_printf (_("Launch %u of %u (%s): its kernel, grid, block and parameters. "
                                "The buffers are every launch's; the other launches are kept as "
                                "written (choose one in the launch drop-down to edit it)."),
                              l->step + 1, l->n_steps, name);
      gtk_label_set_text (GTK_LABEL (self->launch_sequence_note), note);
    }
  gtk_widget_set_visible (self->launch_sequence_note,
                          self->launch != NULL && self->launch->n_steps > 1);
  /* Edits not applied yet stay while the popover comes and goes */
  if (!self->launch_editor_loaded
      || !ks_launch_editor_is_dirty (KS_LAUNCH_EDITOR (self->launch_editor)))
    load_editor (self);
  place_popover (self);
}

static void
apply_cb (KsWindow       *self,
          KsLaunchEditor *editor)
{
  KsLaunch *launch = ks_launch_editor_take_launch (editor);
  g_autofree char *json = NULL;

  if (launch == NULL)
    return;
  g_clear_pointer (&self->launch, ks_launch_free);
  self->launch = launch;
  g_clear_pointer (&self->launch_form, ks_launch_form_free);
  self->launch_form = ks_launch_form_copy (ks_launch_editor_get_form (editor));
  json = ks_launch_form_to_json (self->launch_form);
  self->launch_modified = g_strcmp0 (json, self->launch_saved_json) != 0;
  gtk_popover_popdown (GTK_POPOVER (self->launch_popover));
  _ks_window_show_launch (self, self->launch, FALSE);
  _ks_window_update_titles (self);
  _ks_window_run (self);
}

void
_ks_window_launch_opened (KsWindow *self)
{
  g_autofree char *path = self->spec_file ? g_file_get_path (self->spec_file) : NULL;
  g_autofree char *text = NULL;

  g_clear_pointer (&self->launch_form, ks_launch_form_free);
  g_clear_pointer (&self->launch_saved_json, g_free);
  self->launch_modified = FALSE;
  self->launch_editor_loaded = FALSE;
  /* The spec as written, which the window just read as a launch (of a
   * sequence, the form edits the launch shown and keeps the others) */
  if (path != NULL && g_file_get_contents (path, &text, NULL, NULL))
    {
      g_autoptr(GError) error = NULL;

      self->launch_form = ks_launch_form_from_json (text, -1, &error);
      if (self->launch_form != NULL)
        self->launch_saved_json = ks_launch_form_to_json (self->launch_form);
      else
        g_warning ("%s reads as a launch but not as a form: %s", path, error->message);
    }
}

/* ---------------------------------------------------------------------- */
/* Saving */

static gboolean
in_folder (const char *path,
           const char *folder)
{
  g_autofree char *p = g_canonicalize_filename (path, NULL);
  g_autofree char *f = g_canonicalize_filename (folder, NULL);
  size_t n = strlen (f);

  return strncmp (p, f, n) == 0 && (p[n] == G_DIR_SEPARATOR || p[n] == '\0');
}

static gboolean
can_write (GFile      *file,
           const char *attribute)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, attribute, G_FILE_QUERY_INFO_NONE, NULL,
                                                 NULL);

  return info == NULL || !g_file_info_has_attribute (info, attribute)
         || g_file_info_get_attribute_boolean (info, attribute);
}

/* A sample of the library is the course's, never overwritten; a folder
 * that will not take a file cannot have it */
static gboolean
cannot_save_to (GFile *file)
{
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  g_autofree char *samples = ks_data_find_dir ("samples");
  g_autoptr(GFile) parent = NULL;

  if (path == NULL)
    return TRUE;
  if (samples != NULL && in_folder (path, samples))
    return TRUE;
  parent = g_file_get_parent (file);
  if (parent != NULL && !can_write (parent, G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE))
    return TRUE;
  return g_file_query_exists (file, NULL) && !can_write (file, G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE);
}

gboolean
_ks_window_needs_save_as (KsWindow *self)
{
  if (gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->cuda_buffer))
      && cannot_save_to (self->cuda_file))
    return TRUE;
  if (gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->ptx_buffer))
      && cannot_save_to (self->ptx_file))
    return TRUE;
  if (self->launch_modified && self->launch_form != NULL)
    {
      g_autoptr(GFile) target = spec_target (self);

      /* A .json beside the kernel that is not its spec is not ours to replace */
      return target == NULL || cannot_save_to (target)
             || (self->spec_file == NULL && g_file_query_exists (target, NULL));
    }
  return FALSE;
}

static gboolean
write_spec (KsLaunchForm *form,
            GFile        *file,
            GError      **error)
{
  g_autofree char *json = ks_launch_form_to_json (form);

  return g_file_replace_contents (file, json, strlen (json), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                  NULL, error);
}

/* The launch in use now reads from @spec */
static void
launch_moved (KsWindow *self,
              GFile    *spec)
{
  g_autofree char *json = ks_launch_form_to_json (self->launch_form);

  g_set_object (&self->spec_file, spec);
  g_free (self->launch_saved_json);
  self->launch_saved_json = g_steal_pointer (&json);
  self->launch_modified = FALSE;
  if (self->launch != NULL)
    {
      g_free (self->launch->spec_path);
      self->launch->spec_path = g_file_get_path (spec);
    }
}

gboolean
_ks_window_launch_save (KsWindow  *self,
                        GError   **error)
{
  g_autoptr(GFile) target = NULL;

  if (!self->launch_modified || self->launch_form == NULL)
    return TRUE;
  target = spec_target (self);
  if (target == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The launch has no kernel file to be saved beside"));
      return FALSE;
    }
  /* A new spec names the kernel beside it */
  if (self->spec_file == NULL)
    name_kernel_file (self, self->launch_form, target);
  if (!write_spec (self->launch_form, target, error))
    return FALSE;
  launch_moved (self, target);
  return TRUE;
}

static gboolean
write_text (GtkSourceBuffer *buffer,
            GFile           *file,
            GError         **error)
{
  g_autofree char *text = _ks_window_dup_text (buffer);

  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                  NULL, error);
}

static GFile *
sibling (GFile      *dir,
         const char *base,
         const char *suffix)
{
  g_autofree char *name = g_strconcat (base, suffix, NULL);

  return g_file_get_child (dir, name);
}

gboolean
_ks_window_save_copy (KsWindow *self,
                      GFile    *file,
                      GError  **error)
{
  static const char *const known[] = { ".cu", ".cuh", ".ptx", ".json", NULL };
  g_autoptr(GFile) dir = g_file_get_parent (file);
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *cuda_suffix = NULL;
  g_autoptr(GFile) cuda = NULL, ptx = NULL, spec = NULL;

  if (dir == NULL || base == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME, _("Not a file name"));
      return FALSE;
    }
  /* kernel.cu, kernel.ptx or kernel.json all name the set "kernel" */
  for (guint i = 0; known[i]; i++)
    if (g_str_has_suffix (base, known[i]) && strlen (base) > strlen (known[i]))
      {
        base[strlen (base) - strlen (known[i])] = '\0';
        break;
      }
  if (self->cuda_file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->cuda_file);

      cuda_suffix = g_strdup (g_str_has_suffix (name, ".cuh") ? ".cuh" : ".cu");
      cuda = sibling (dir, base, cuda_suffix);
    }
  if (self->ptx_file != NULL)
    ptx = sibling (dir, base, ".ptx");
  if (self->launch_form != NULL)
    spec = sibling (dir, base, ".json");

  if ((cuda != NULL && !write_text (self->cuda_buffer, cuda, error))
      || (ptx != NULL && !write_text (self->ptx_buffer, ptx, error)))
    return FALSE;
  if (spec != NULL)
    {
      g_autoptr(KsLaunchForm) form = ks_launch_form_copy (self->launch_form);
      GFile *kernel = form->use_source ? cuda : ptx;

      /* the copy's spec names the copy's kernel */
      if (kernel == NULL)
        kernel = ptx ? ptx : cuda;
      if (kernel != NULL)
        {
          form->use_source = kernel == cuda;
          g_free (form->kernel_file);
          form->kernel_file = relative_to_spec (spec, kernel);
        }
      if (!write_spec (form, spec, error))
        return FALSE;
      g_clear_pointer (&self->launch_form, ks_launch_form_free);
      self->launch_form = g_steal_pointer (&form);
      launch_moved (self, spec);
      if (self->launch != NULL)
        {
          g_clear_pointer (&self->launch->ptx_path, g_free);
          g_clear_pointer (&self->launch->source_path, g_free);
          if (self->launch_form->use_source)
            self->launch->source_path = g_file_get_path (cuda);
          else
            self->launch->ptx_path = g_file_get_path (ptx);
        }
    }
  /* The window goes on with the copy */
  if (cuda != NULL)
    {
      g_set_object (&self->cuda_file, cuda);
      gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->cuda_buffer), FALSE);
    }
  if (ptx != NULL)
    {
      g_set_object (&self->ptx_file, ptx);
      gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->ptx_buffer), FALSE);
    }
  _ks_window_recent_add (self, cuda ? cuda : ptx ? ptx : spec);
  _ks_window_show_launch (self, self->launch, FALSE);
  _ks_window_update_titles (self);
  return TRUE;
}

static void
save_as_response_cb (KsWindow        *self,
                     int              response,
                     GtkNativeDialog *dialog)
{
  gboolean saved = FALSE;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (file != NULL && !(saved = _ks_window_save_copy (self, file, &error)))
        {
          g_autofree char *msg = g_strdup_printf (_("Could not save: %s"), error->message);

          _ks_window_show_message (self, msg);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->save_chooser);
  if (self->close_after_save && saved)
    {
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  self->close_after_save = FALSE;
}

void
_ks_window_save_as (KsWindow *self)
{
  GFile *main_file = self->cuda_file ? self->cuda_file : self->ptx_file;
  g_autofree char *name = main_file ? g_file_get_basename (main_file) : g_strdup ("kernel.cu");
  const char *docs = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autoptr(GFile) folder = g_file_new_for_path (docs ? docs : g_get_home_dir ());

  if (self->save_chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_chooser));
      return;
    }
  self->save_chooser = gtk_file_chooser_native_new (_("Save a Copy of the Kernel"),
                                                    GTK_WINDOW (self),
                                                    GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                                    _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->save_chooser), TRUE);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->save_chooser), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->save_chooser), name);
  g_signal_connect_object (self->save_chooser, "response", G_CALLBACK (save_as_response_cb), self,
                           G_CONNECT_SWAPPED);
  /* Said before asking: why it does not just save */
  _ks_window_show_message (self, _("This kernel’s folder cannot be written (or it is one of the "
                                   "samples): save a copy of the CUDA, the PTX and the launch "
                                   "somewhere of your own"));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_chooser));
}

/* ---------------------------------------------------------------------- */
/* The screenshot, and the editor at start */

void
_ks_window_launch_snapshot (KsWindow    *self,
                            GtkSnapshot *snapshot)
{
  GtkWidget *popover = self->launch_popover;
  GdkSurface *surface;
  double wx = 0, wy = 0, px = 0, py = 0, x, y;
  int w, h;
  g_autoptr(GdkPaintable) paintable = NULL;

  if (popover == NULL || !gtk_widget_get_mapped (popover))
    return;
  surface = gtk_native_get_surface (GTK_NATIVE (popover));
  if (surface == NULL || !GDK_IS_POPUP (surface))
    return;
  /* A popover is a surface of its own: it goes where it shows on screen */
  gtk_native_get_surface_transform (GTK_NATIVE (self), &wx, &wy);
  gtk_native_get_surface_transform (GTK_NATIVE (popover), &px, &py);
  w = gtk_widget_get_width (popover);
  h = gtk_widget_get_height (popover);
  paintable = gtk_widget_paintable_new (popover);
  x = gdk_popup_get_position_x (GDK_POPUP (surface)) + px - wx;
  y = gdk_popup_get_position_y (GDK_POPUP (surface)) + py - wy;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  gtk_snapshot_restore (snapshot);
}

static gboolean
popup_idle (gpointer data)
{
  KsWindow *self = KS_WINDOW (data);

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_menu_button_popup (self->launch_button);
  return G_SOURCE_REMOVE;
}

static void
popup_when_mapped_cb (KsWindow *self)
{
  if (self->launch_editor_at_start)
    {
      self->launch_editor_at_start = FALSE;
      /* once the header bar has its size, for the popover to point at */
      g_idle_add_full (G_PRIORITY_LOW, popup_idle, g_object_ref (self), g_object_unref);
    }
}

void
ks_window_show_launch_editor (KsWindow *self)
{
  g_return_if_fail (KS_IS_WINDOW (self));

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_menu_button_popup (self->launch_button);
  else
    self->launch_editor_at_start = TRUE;
}

static void
edit_launch_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);

  gtk_menu_button_popup (self->launch_button);
}

/* ---------------------------------------------------------------------- */
/* A spec's "launches": which one the views show */

char *
_ks_window_short_kernel_name (const char *kernel)
{
  g_autofree char *demangled = kernel ? ks_sass_demangle (kernel) : NULL;
  int depth = 0;

  if (kernel == NULL)
    return g_strdup (_("the kernel"));
  if (demangled == NULL)
    return g_strdup (kernel);
  /* the name without its parameter list (templates' angle brackets kept) */
  for (char *p = demangled; *p != '\0'; p++)
    {
      if (*p == '<')
        depth++;
      else if (*p == '>')
        depth--;
      else if (*p == '(' && depth == 0 && p > demangled)
        {
          *p = '\0';
          break;
        }
    }
  return g_steal_pointer (&demangled);
}

void
_ks_window_launch_steps_update (KsWindow *self)
{
  const KsLaunch *l = self->launch;
  const KsAnalysis *a = self->analysis;
  GtkStringList *model = GTK_STRING_LIST (gtk_drop_down_get_model (self->launch_step_dropdown));
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  gboolean same;

  if (l == NULL || l->n_steps <= 1)
    {
      if (gtk_widget_get_visible (GTK_WIDGET (self->launch_step_dropdown)))
        {
          gtk_widget_set_visible (GTK_WIDGET (self->launch_step_dropdown), FALSE);
          _ks_window_update_folded_menu (self);
        }
      return;
    }
  for (uint32_t k = 0; k < l->n_steps; k++)
    {
      const char *kernel = l->steps[k].kernel;
      g_autofree char *name = NULL;

      /* a launch that names no kernel runs the module's one */
      if (kernel == NULL && a != NULL && a->n_launches == l->n_steps)
        kernel = a->launches[k].kernel;
      name = _ks_window_short_kernel_name (kernel);
      /* TRANSLATORS: the launch drop-down: "Launch 2 of 3: uniformAdd" */
      g_ptr_array_add (names, g_strdup_printf (_("Launch %u of %u: %s"), k + 1, l->n_steps, name));
    }
  same = model != NULL && g_list_model_get_n_items (G_LIST_MODEL (model)) == names->len;
  for (guint i = 0; same && i < names->len; i++)
    same = g_strcmp0 (gtk_string_list_get_string (model, i), names->pdata[i]) == 0;

  self->launch_step_updating = TRUE;
  if (!same)
    {
      g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

      for (guint i = 0; i < names->len; i++)
        gtk_string_list_append (list, names->pdata[i]);
      gtk_drop_down_set_model (self->launch_step_dropdown, G_LIST_MODEL (list));
    }
  gtk_drop_down_set_selected (self->launch_step_dropdown, l->step);
  self->launch_step_updating = FALSE;
  if (!same || !gtk_widget_get_visible (GTK_WIDGET (self->launch_step_dropdown)))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->launch_step_dropdown), TRUE);
      _ks_window_update_folded_menu (self);
    }
}

void
_ks_window_choose_launch_step (KsWindow *self,
                               guint     step)
{
  if (self->launch == NULL || self->launch->n_steps <= 1 || step >= self->launch->n_steps)
    return;
  if (step != self->launch->step)
    {
      ks_launch_select_step (self->launch, step);
      self->launch_step_chosen = TRUE;
      /* Edits not applied yet are kept, not lost: the editor goes on to
       * the launch chosen with them; else it loads it afresh */
      if (self->launch_editor_loaded
          && ks_launch_editor_is_dirty (KS_LAUNCH_EDITOR (self->launch_editor)))
        ks_launch_editor_select_launch (KS_LAUNCH_EDITOR (self->launch_editor), step);
      else
        self->launch_editor_loaded = FALSE;
      _ks_window_show_launch (self, self->launch, FALSE);
      _ks_window_run (self);
    }
  else
    _ks_window_launch_steps_update (self);
}

static void
launch_step_selected_cb (KsWindow   *self,
                         GParamSpec *pspec,
                         GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->launch_step_updating || selected == GTK_INVALID_LIST_POSITION)
    return;
  _ks_window_choose_launch_step (self, selected);
}

/* win.launch-step(u): the drop-down as a menu when it is folded */
static void
launch_step_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  _ks_window_choose_launch_step (KS_WINDOW (widget), g_variant_get_uint32 (param));
}

void
_ks_window_launch_show_kernel (KsWindow         *self,
                               const KsAnalysis *result)
{
  const KsPtxFunction *f;
  guint line;

  if (!self->launch_step_chosen)
    return;
  self->launch_step_chosen = FALSE;
  if (result->module == NULL || result->kernel_index < 0
      || (uint32_t) result->kernel_index >= result->module->n_functions)
    return;
  /* its first instruction with a CUDA line, so that both panes go there;
   * else its .entry */
  f = &result->module->functions[result->kernel_index];
  line = f->line;
  for (uint32_t i = f->first_insn; i < f->first_insn + f->n_insns; i++)
    if (self->line_map != NULL
        && ks_line_map_cuda_line (self->line_map, result->module->insns[i].line) != 0)
      {
        line = result->module->insns[i].line;
        break;
      }
  _ks_window_show_line (self, FALSE, line);
}

/* A module of several kernels without a spec that chooses one: each
 * kernel's button runs its default launch, as choosing it in the launch
 * editor and applying would */
static void
choose_kernel (KsWindow   *self,
               const char *kernel)
{
  g_autoptr(KsPtxModule) module = parse_pane (self);
  g_autoptr(KsLaunchForm) form = NULL;
  g_autoptr(GFile) spec = spec_target (self);
  g_autofree char *spec_path = spec ? g_file_get_path (spec) : NULL;
  g_autofree char *json = NULL, *written = NULL;
  g_autoptr(GError) error = NULL;
  uint32_t function = G_MAXUINT32;
  KsLaunch *launch;

  for (uint32_t i = 0; module != NULL && i < module->n_functions; i++)
    if (module->functions[i].kind == KS_PTX_FUNCTION_ENTRY
        && ks_ptx_span_equal (module, module->functions[i].name, kernel))
      function = i;
  if (function == G_MAXUINT32)
    return;                     /* (the pane changed since: its run will say) */
  json = ks_launch_default_json (module, function, NULL);
  form = ks_launch_form_from_json (json, -1, &error);
  if (form != NULL)
    {
      name_kernel_file (self, form, spec);
      launch = ks_launch_form_parse (form, spec_path, &error);
    }
  else
    launch = NULL;
  if (launch == NULL)
    {
      _ks_window_show_message (self, error != NULL ? error->message : kernel);
      return;
    }
  g_clear_pointer (&self->launch, ks_launch_free);
  self->launch = launch;
  g_clear_pointer (&self->launch_form, ks_launch_form_free);
  self->launch_form = g_steal_pointer (&form);
  written = ks_launch_form_to_json (self->launch_form);
  self->launch_modified = g_strcmp0 (written, self->launch_saved_json) != 0;
  self->launch_editor_loaded = FALSE;
  _ks_window_show_launch (self, self->launch, FALSE);
  _ks_window_update_titles (self);
  _ks_window_run (self);
}

static void
kernel_choice_clicked_cb (GtkButton *button,
                          KsWindow  *self)
{
  const char *kernel = g_object_get_data (G_OBJECT (button), "ks-kernel");

  if (kernel != NULL)
    choose_kernel (self, kernel);
}

void
_ks_window_update_kernel_choice (KsWindow         *self,
                                 const KsAnalysis *result)
{
  GtkWidget *child;
  gboolean needed = result->status == KS_ANALYSIS_FAILED && result->module != NULL
                    && result->kernel_index == -2;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->kernel_choice_box))) != NULL)
    gtk_flow_box_remove (self->kernel_choice_box, child);
  gtk_widget_set_visible (self->kernel_choice, needed);
  if (!needed)
    return;
  for (uint32_t i = 0; i < result->module->n_functions; i++)
    {
      const KsPtxFunction *f = &result->module->functions[i];
      g_autofree char *name = NULL, *shown = NULL, *a11y = NULL;
      GtkWidget *button;

      if (f->kind != KS_PTX_FUNCTION_ENTRY)
        continue;
      name = ks_ptx_span_dup (result->module, f->name);
      shown = _ks_window_short_kernel_name (name);
      button = gtk_button_new_with_label (shown);
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_set_tooltip_text (button, name);
      /* TRANSLATORS: a screen reader's name for a button that runs kernel %s */
      a11y = g_strdup_printf (_("Analyse %s"), shown);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      a11y, -1);
      g_object_set_data_full (G_OBJECT (button), "ks-kernel", g_steal_pointer (&name), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (kernel_choice_clicked_cb), self);
      gtk_flow_box_append (self->kernel_choice_box, button);
    }
}

/* ---------------------------------------------------------------------- */

void
_ks_window_launch_class_init (GtkWidgetClass *klass)
{
  g_type_ensure (KS_TYPE_LAUNCH_EDITOR);
  gtk_widget_class_install_action (klass, "win.edit-launch", NULL, edit_launch_action);
  gtk_widget_class_install_action (klass, "win.launch-step", "u", launch_step_action);
}

/* The popover is a surface of its own: presentation mode's larger type
 * is given to it by name */
static void
presentation_cb (KsWindow   *self,
                 GParamSpec *pspec,
                 gpointer    unused)
{
  if (self->presentation)
    gtk_widget_add_css_class (self->launch_popover, "presentation");
  else
    gtk_widget_remove_css_class (self->launch_popover, "presentation");
}

void
_ks_window_launch_init (KsWindow *self)
{
  self->launch_popover = gtk_popover_new ();
  self->launch_editor = ks_launch_editor_new ();
  gtk_widget_add_css_class (self->launch_popover, "ks-launch-popover");
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

    self->launch_sequence_note = gtk_label_new (NULL);
    gtk_label_set_wrap (GTK_LABEL (self->launch_sequence_note), TRUE);
    gtk_label_set_max_width_chars (GTK_LABEL (self->launch_sequence_note), 50);
    gtk_label_set_xalign (GTK_LABEL (self->launch_sequence_note), 0);
    gtk_widget_set_margin_start (self->launch_sequence_note, 12);
    gtk_widget_set_margin_end (self->launch_sequence_note, 12);
    gtk_widget_set_margin_top (self->launch_sequence_note, 12);
    gtk_widget_set_margin_bottom (self->launch_sequence_note, 12);
    gtk_widget_set_visible (self->launch_sequence_note, FALSE);
    gtk_box_append (GTK_BOX (box), self->launch_sequence_note);
    gtk_box_append (GTK_BOX (box), self->launch_editor);
    gtk_popover_set_child (GTK_POPOVER (self->launch_popover), box);
  }
  /* in its button a long kernel name is cut short (a template's name may
   * be a line long), in its list it is whole */
  ks_widget_drop_down_ellipsize (self->launch_step_dropdown, 32);
  g_signal_connect_object (self->launch_step_dropdown, "notify::selected",
                           G_CALLBACK (launch_step_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_menu_button_set_popover (self->launch_button, self->launch_popover);
  g_signal_connect_object (self->launch_popover, "show", G_CALLBACK (popover_show_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->launch_editor, "apply", G_CALLBACK (apply_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "map", G_CALLBACK (popup_when_mapped_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect (self, "notify::presentation", G_CALLBACK (presentation_cb), NULL);
  presentation_cb (self, NULL, NULL);
}

void
_ks_window_launch_dispose (KsWindow *self)
{
  if (self->save_chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_chooser));
      g_clear_object (&self->save_chooser);
    }
}

void
_ks_window_launch_finalize (KsWindow *self)
{
  g_clear_pointer (&self->launch_form, ks_launch_form_free);
  g_clear_pointer (&self->launch_saved_json, g_free);
}
