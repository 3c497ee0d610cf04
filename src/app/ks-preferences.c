/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-preferences.c: the Preferences window.  Each control is bound to its
 * key with g_settings_bind, so what it changes applies at once: the
 * application turns font-size, presentation-scale and theme into CSS and
 * GTK's dark style, each window follows theme and heat-metric, and a new
 * window reads default-gpu and presentation-mode.  The toolkit folder is
 * checked before it is kept (a folder without nvcc would silently change
 * nothing), and every window runs again with it. */

#include "ks-preferences-private.h"

#include <glib/gi18n.h>

#include "ks-application.h"
#include "ks-gpu-db.h"
#include "ks-heat.h"

G_DEFINE_FINAL_TYPE (KsPreferences, ks_preferences, GTK_TYPE_WINDOW)

/* The heat dropdown's entries: the metrics in KsHeatMetric order, then
 * "off"; the names are the CUDA pane's chooser's */
static const char *const heat_names[KS_HEAT_N_METRICS + 1] = {
  N_("Executions"), N_("Divergence"), N_("Bank conflicts"), N_("Excess sectors"),
  N_("Active lanes"), N_("Off"),
};

static const char *const theme_ids[] = { "system", "light", "dark" };

static void
show_error (KsPreferences *self,
            const char    *message)
{
  if (message != NULL)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

/* ---------------------------------------------------------------------- */
/* Mappings between the keys and the controls' properties */

static gboolean
theme_get_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  const char *id = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (theme_ids); i++)
    if (g_str_equal (id, theme_ids[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
theme_set_mapping (const GValue       *value,
                   const GVariantType *type,
                   gpointer            user_data)
{
  guint i = g_value_get_uint (value);

  return i < G_N_ELEMENTS (theme_ids) ? g_variant_new_string (theme_ids[i]) : NULL;
}

static gboolean
heat_get_mapping (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  int metric = ks_heat_metric_from_id (g_variant_get_string (variant, NULL));

  g_value_set_uint (value, metric >= 0 ? (guint) metric : KS_HEAT_N_METRICS);
  return TRUE;
}

static GVariant *
heat_set_mapping (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  guint i = g_value_get_uint (value);

  if (i < KS_HEAT_N_METRICS)
    return g_variant_new_string (ks_heat_metric_id ((KsHeatMetric) i));
  return i == KS_HEAT_N_METRICS ? g_variant_new_string ("off") : NULL;
}

/* The GPU dropdown: first "the PTX's target" (the empty id), then the
 * database's GPUs; an id the database lacks shows as the first */
static gboolean
gpu_get_mapping (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  KsPreferences *self = user_data;
  const char *id = g_variant_get_string (variant, NULL);

  g_value_set_uint (value, 0);
  for (guint i = 0; id[0] != '\0' && self->gpu_ids != NULL && self->gpu_ids[i] != NULL; i++)
    if (g_str_equal (id, self->gpu_ids[i]))
      g_value_set_uint (value, i + 1);
  return TRUE;
}

static GVariant *
gpu_set_mapping (const GValue       *value,
                 const GVariantType *type,
                 gpointer            user_data)
{
  KsPreferences *self = user_data;
  guint i = g_value_get_uint (value);

  if (i == 0)
    return g_variant_new_string ("");
  if (self->gpu_ids == NULL || i > g_strv_length (self->gpu_ids))
    return NULL;
  return g_variant_new_string (self->gpu_ids[i - 1]);
}

static gboolean
toolkit_text_mapping (GValue   *value,
                      GVariant *variant,
                      gpointer  user_data)
{
  const char *path = g_variant_get_string (variant, NULL);

  if (path[0] == '\0')
    g_value_set_string (value, _("None chosen: KernelScope searches the PATH, $CUDA_HOME, "
                                 "$CUDA_PATH and /usr/local/cuda"));
  else
    g_value_set_string (value, path);
  return TRUE;
}

static gboolean
toolkit_set_mapping (GValue   *value,
                     GVariant *variant,
                     gpointer  user_data)
{
  g_value_set_boolean (value, g_variant_get_string (variant, NULL)[0] != '\0');
  return TRUE;
}

/* The font size's 0 is the built-in size: the spin button says so */
static gboolean
font_size_output_cb (GtkSpinButton *spin,
                     gpointer       user_data)
{
  int size = (int) gtk_spin_button_get_value (spin);
  g_autofree char *text = NULL;

  text = size <= 0 ? g_strdup (C_("font size", "Default")) : g_strdup_printf ("%d", size);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

static int
font_size_input_cb (GtkSpinButton *spin,
                    double        *new_value,
                    gpointer       user_data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  char *end = NULL;
  double v;

  if (g_utf8_collate (text, C_("font size", "Default")) == 0 || text[0] == '\0')
    {
      *new_value = 0;
      return TRUE;
    }
  v = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0')
    return GTK_INPUT_ERROR;
  *new_value = v;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* The CUDA toolkit folder */

static void
rerun_windows (KsPreferences *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app == NULL)
    return;
  /* the same as Ctrl+R in each window: its next analysis finds the tools
   * in the new place (or searches again) */
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (l->data != (gpointer) self)
      gtk_widget_activate_action (GTK_WIDGET (l->data), "win.run", NULL);
}

gboolean
ks_preferences_choose_toolkit (KsPreferences *self,
                               GFile         *folder)
{
  g_autofree char *path = NULL, *name = NULL, *nvcc = NULL, *nvcc_bin = NULL;

  g_return_val_if_fail (KS_IS_PREFERENCES (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (folder), FALSE);

  path = g_file_get_path (folder);
  name = g_file_get_parse_name (folder);
  if (path == NULL)
    {
      show_error (self, _("The toolkit folder must be a local folder"));
      return FALSE;
    }
  /* searched in itself and in its bin/, as ks_toolchain_find does */
  nvcc = g_build_filename (path, "nvcc", NULL);
  nvcc_bin = g_build_filename (path, "bin", "nvcc", NULL);
  if (!g_file_test (nvcc, G_FILE_TEST_IS_EXECUTABLE)
      && !g_file_test (nvcc_bin, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *msg = NULL;

      msg = g_strdup_printf (_("%s holds no nvcc, in itself or in bin/: choose the folder the "
                               "CUDA toolkit is installed in, such as /usr/local/cuda-13.0"), name);

      show_error (self, msg);
      return FALSE;
    }
  show_error (self, NULL);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "toolkit-path", path);
  rerun_windows (self);
  return TRUE;
}

static void
chooser_response_cb (GtkNativeDialog *native,
                     int              response,
                     gpointer         user_data)
{
  g_autoptr(KsPreferences) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (folder != NULL)
        ks_preferences_choose_toolkit (self, folder);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
choose_clicked_cb (KsPreferences *self,
                   GtkButton     *button)
{
  GtkFileChooserNative *native;
  g_autofree char *current = NULL;
  const char *start = "/usr/local";

  native = gtk_file_chooser_native_new (_("Choose the CUDA Toolkit Folder"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Choose"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  if (self->settings != NULL)
    current = g_settings_get_string (self->settings, "toolkit-path");
  if (current != NULL && g_file_test (current, G_FILE_TEST_IS_DIR))
    start = current;
  if (g_file_test (start, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GFile) dir = g_file_new_for_path (start);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), dir, NULL);
    }
  g_signal_connect (native, "response", G_CALLBACK (chooser_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
clear_clicked_cb (KsPreferences *self,
                  GtkButton     *button)
{
  show_error (self, NULL);
  if (self->settings == NULL)
    return;
  g_settings_reset (self->settings, "toolkit-path");
  rerun_windows (self);
}

/* ---------------------------------------------------------------------- */
/* Presentation mode, as the window it is over */

static void
parent_presentation_cb (KsPreferences *self,
                        GParamSpec    *pspec,
                        GtkWindow     *parent)
{
  gboolean on = FALSE;

  g_object_get (parent, "presentation", &on, NULL);
  if (on)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
}

void
ks_preferences_set_parent (KsPreferences *self,
                           GtkWindow     *parent)
{
  g_return_if_fail (KS_IS_PREFERENCES (self));
  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));

  if (self->parent == parent)
    return;
  if (self->parent != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->parent, parent_presentation_cb, self);
      g_object_remove_weak_pointer (G_OBJECT (self->parent), (gpointer *) &self->parent);
    }
  self->parent = parent;
  gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
  if (parent == NULL)
    return;
  g_object_add_weak_pointer (G_OBJECT (parent), (gpointer *) &self->parent);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (parent), "presentation") != NULL)
    {
      g_signal_connect_object (parent, "notify::presentation",
                               G_CALLBACK (parent_presentation_cb), self, G_CONNECT_SWAPPED);
      parent_presentation_cb (self, NULL, parent);
    }
}

/* ---------------------------------------------------------------------- */

GtkWidget *
ks_preferences_get_control (KsPreferences *self,
                            const char    *key)
{
  const struct { const char *key; gsize offset; } controls[] = {
    { "theme", G_STRUCT_OFFSET (KsPreferences, theme_dropdown) },
    { "font-size", G_STRUCT_OFFSET (KsPreferences, font_size_spin) },
    { "heat-metric", G_STRUCT_OFFSET (KsPreferences, heat_metric_dropdown) },
    { "presentation-scale", G_STRUCT_OFFSET (KsPreferences, presentation_scale_spin) },
    { "presentation-mode", G_STRUCT_OFFSET (KsPreferences, presentation_mode_switch) },
    { "default-gpu", G_STRUCT_OFFSET (KsPreferences, default_gpu_dropdown) },
    { "toolkit-path", G_STRUCT_OFFSET (KsPreferences, toolkit_choose_button) },
  };

  g_return_val_if_fail (KS_IS_PREFERENCES (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    if (g_str_equal (key, controls[i].key))
      return G_STRUCT_MEMBER (GtkWidget *, self, controls[i].offset);
  return NULL;
}

GtkWidget *
ks_preferences_get_toolkit_clear (KsPreferences *self)
{
  g_return_val_if_fail (KS_IS_PREFERENCES (self), NULL);
  return GTK_WIDGET (self->toolkit_clear_button);
}

static void
fill_lists (KsPreferences *self)
{
  g_autoptr(GtkStringList) heat = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) gpus = gtk_string_list_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (heat_names); i++)
    gtk_string_list_append (heat, _(heat_names[i]));
  gtk_drop_down_set_model (self->heat_metric_dropdown, G_LIST_MODEL (heat));

  gtk_string_list_append (gpus, _("The PTX’s target"));
  db = ks_gpu_db_load_default (&error);
  if (db == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("The GPU database could not be read: %s"),
                                              error->message);

      show_error (self, msg);
    }
  else
    {
      self->gpu_ids = g_new0 (char *, db->n_gpus + 1);
      for (uint32_t i = 0; i < db->n_gpus; i++)
        {
          const KsGpuInfo *gpu = &db->gpus[i];
          const char *name = g_str_has_prefix (gpu->name, "NVIDIA ") ? gpu->name + 7 : gpu->name;
          g_autofree char *label = g_strdup_printf ("%s · %s", name, gpu->arch);

          gtk_string_list_append (gpus, label);
          self->gpu_ids[i] = g_strdup (gpu->id);
        }
    }
  gtk_drop_down_set_model (self->default_gpu_dropdown, G_LIST_MODEL (gpus));
}

static void
bind_settings (KsPreferences *self)
{
  g_settings_bind_with_mapping (self->settings, "theme", self->theme_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, theme_get_mapping, theme_set_mapping,
                                NULL, NULL);
  g_settings_bind (self->settings, "font-size", self->font_size_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "heat-metric", self->heat_metric_dropdown,
                                "selected", G_SETTINGS_BIND_DEFAULT, heat_get_mapping,
                                heat_set_mapping, NULL, NULL);
  g_settings_bind (self->settings, "presentation-scale", self->presentation_scale_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "presentation-mode", self->presentation_mode_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "default-gpu", self->default_gpu_dropdown,
                                "selected", G_SETTINGS_BIND_DEFAULT, gpu_get_mapping,
                                gpu_set_mapping, self, NULL);
  g_settings_bind_with_mapping (self->settings, "toolkit-path", self->toolkit_subtitle, "label",
                                G_SETTINGS_BIND_GET, toolkit_text_mapping, NULL, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "toolkit-path", self->toolkit_clear_button,
                                "sensitive", G_SETTINGS_BIND_GET, toolkit_set_mapping, NULL,
                                NULL, NULL);
}

KsPreferences *
ks_preferences_new (GtkApplication *app)
{
  return g_object_new (KS_TYPE_PREFERENCES, "application", app, NULL);
}

static void
ks_preferences_dispose (GObject *object)
{
  KsPreferences *self = KS_PREFERENCES (object);

  ks_preferences_set_parent (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), KS_TYPE_PREFERENCES);
  G_OBJECT_CLASS (ks_preferences_parent_class)->dispose (object);
}

static void
ks_preferences_finalize (GObject *object)
{
  KsPreferences *self = KS_PREFERENCES (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->gpu_ids, g_strfreev);
  G_OBJECT_CLASS (ks_preferences_parent_class)->finalize (object);
}

static void
ks_preferences_class_init (KsPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_preferences_dispose;
  object_class->finalize = ks_preferences_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/kernelscope/KernelScope/ks-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, theme_dropdown);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, font_size_spin);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, heat_metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, presentation_scale_spin);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, presentation_mode_switch);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, default_gpu_dropdown);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, toolkit_subtitle);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, toolkit_choose_button);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, toolkit_clear_button);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, KsPreferences, error_label);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ks_preferences_init (KsPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_object (self->font_size_spin, "output", G_CALLBACK (font_size_output_cb),
                           self, 0);
  g_signal_connect_object (self->font_size_spin, "input", G_CALLBACK (font_size_input_cb),
                           self, 0);
  g_signal_connect_object (self->toolkit_choose_button, "clicked", G_CALLBACK (choose_clicked_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->toolkit_clear_button, "clicked", G_CALLBACK (clear_clicked_cb),
                           self, G_CONNECT_SWAPPED);
  fill_lists (self);
  self->settings = ks_settings_new ();
  if (self->settings != NULL)
    bind_settings (self);
  else
    {
      /* no schema installed or built: nothing to keep a choice in */
      gtk_widget_set_sensitive (gtk_window_get_child (GTK_WINDOW (self)), FALSE);
      show_error (self, _("The settings schema is not installed: these settings cannot be kept"));
    }
}
