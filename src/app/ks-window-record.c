/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-record.c: a recording of a whole program (docs/RECORD.md) in
 * the window.  A launch spec that lies in a recording's folder (beside its
 * launches.json) shows the header bar's "Launch N of M" button, whose list
 * names each launch the program made (kernel, grid and block, the model's
 * time, a fault) and opens the one chosen; the recording's GPU is the one
 * the launches are analysed for until the user picks another. */

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ks-sass.h"
#include "ks-window-private.h"

typedef struct
{
  char *spec;                   /* absolute path */
  char *title;
  char *detail;
  gboolean fault;
} RecordedLaunch;

static void
recorded_launch_free (gpointer p)
{
  RecordedLaunch *r = p;

  g_free (r->spec);
  g_free (r->title);
  g_free (r->detail);
  g_free (r);
}


static void
dims_of (JsonObject *o,
         const char *member,
         uint32_t    out[3])
{
  JsonArray *a = json_object_has_member (o, member) ? json_object_get_array_member (o, member)
                                                    : NULL;

  for (guint d = 0; d < 3; d++)
    out[d] = a != NULL && d < json_array_get_length (a)
             ? (uint32_t) json_array_get_int_element (a, d) : 1;
}

/* The recording's launches, or NULL when @dir holds none that reads */
static GPtrArray *
read_recording (const char  *dir,
                char       **gpu)
{
  g_autofree char *index = g_build_filename (dir, "launches.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (recorded_launch_free);
  JsonObject *root;
  JsonArray *launches;

  if (!g_file_test (index, G_FILE_TEST_IS_REGULAR)
      || !json_parser_load_from_file (parser, index, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (root, "launches")
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "launches")))
    return NULL;
  *gpu = g_strdup (json_object_get_string_member_with_default (root, "gpu", NULL));
  launches = json_object_get_array_member (root, "launches");
  for (guint i = 0; i < json_array_get_length (launches); i++)
    {
      JsonNode *n = json_array_get_element (launches, i);
      JsonObject *o;
      RecordedLaunch *r;
      g_autofree char *name = NULL;
      g_autoptr(GString) s = g_string_new (NULL);
      uint32_t grid[3], block[3];
      const char *fault;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        continue;
      o = json_node_get_object (n);
      if (json_object_get_string_member_with_default (o, "spec", NULL) == NULL)
        continue;
      r = g_new0 (RecordedLaunch, 1);
      r->spec = g_build_filename (dir, json_object_get_string_member (o, "spec"), NULL);
      name = ks_sass_demangle_name (json_object_get_string_member_with_default (o, "kernel", "?"));
      dims_of (o, "grid", grid);
      dims_of (o, "block", block);
      g_string_append_printf (s, "%" G_GINT64_FORMAT " · %s<<<",
                              json_object_get_int_member_with_default (o, "index", i), name);
      _ks_window_format_dim3 (s, grid);
      g_string_append (s, ", ");
      _ks_window_format_dim3 (s, block);
      g_string_append (s, ">>>");
      r->title = g_string_free (g_steal_pointer (&s), FALSE);
      fault = json_object_has_member (o, "fault") && !json_object_get_null_member (o, "fault")
              ? json_object_get_string_member_with_default (o, "fault", NULL) : NULL;
      if (fault != NULL)
        {
          r->fault = TRUE;
          r->detail = g_strdup_printf (_("Fault: %s"), fault);
        }
      else if (json_object_has_member (o, "model_us")
               && !json_object_get_null_member (o, "model_us"))
        r->detail = g_strdup_printf (_("%.3g µs (model)"),
                                     json_object_get_double_member (o, "model_us"));
      g_ptr_array_add (list, r);
    }
  return list->len > 0 ? g_steal_pointer (&list) : NULL;
}

static GtkWidget *
launch_row (const RecordedLaunch *r,
            gboolean              current)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (r->title);
  g_autofree char *a11y = NULL;

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  if (current)
    gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);
  if (r->detail != NULL)
    {
      GtkWidget *detail = gtk_label_new (r->detail);

      gtk_label_set_xalign (GTK_LABEL (detail), 0);
      gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (detail), 48);
      gtk_widget_add_css_class (detail, r->fault ? "error" : "dim-label");
      gtk_box_append (GTK_BOX (box), detail);
    }
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  a11y = r->detail != NULL ? g_strdup_printf ("%s, %s", r->title, r->detail) : g_strdup (r->title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  return row;
}

static void
open_recorded (KsWindow *self,
               guint     index)
{
  const RecordedLaunch *r;
  g_autoptr(GFile) file = NULL;

  if (self->recording == NULL || index >= self->recording->len)
    return;
  r = g_ptr_array_index (self->recording, index);
  file = g_file_new_for_path (r->spec);
  gtk_menu_button_popdown (self->recording_button);
  _ks_window_open (self, file);
}

static void
row_activated_cb (KsWindow      *self,
                  GtkListBoxRow *row,
                  GtkListBox    *list)
{
  open_recorded (self, (guint) gtk_list_box_row_get_index (row));
}

/* win.recorded-launch(u): the list as a menu when the button is folded */
static void
recorded_launch_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  open_recorded (KS_WINDOW (widget), g_variant_get_uint32 (param));
}

void
_ks_window_record_append_menu (KsWindow *self,
                               GMenu    *section)
{
  g_autoptr(GMenu) items = g_menu_new ();

  if (self->recording == NULL)
    return;
  for (guint i = 0; i < self->recording->len; i++)
    {
      const RecordedLaunch *r = g_ptr_array_index (self->recording, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (r->title, NULL);

      g_menu_item_set_action_and_target_value (item, "win.recorded-launch",
                                               g_variant_new_uint32 (i));
      g_menu_append_item (items, item);
    }
  g_menu_append_submenu (section, _("Recorded La_unches"), G_MENU_MODEL (items));
}

void
_ks_window_record_update (KsWindow *self)
{
  g_autofree char *spec = self->spec_file ? g_file_get_path (self->spec_file) : NULL;
  g_autofree char *dir = spec ? g_path_get_dirname (spec) : NULL;
  g_autofree char *gpu = NULL;
  GtkWidget *child;
  GPtrArray *list = dir ? read_recording (dir, &gpu) : NULL;
  int current = -1;

  g_clear_pointer (&self->recording, g_ptr_array_unref);
  self->recording = list;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recording_list))) != NULL)
    gtk_list_box_remove (self->recording_list, child);
  g_clear_pointer (&self->recording_gpu, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->recording_button), list != NULL);
  if (list == NULL)
    return;
  self->recording_gpu = g_steal_pointer (&gpu);
  for (guint i = 0; i < list->len; i++)
    {
      const RecordedLaunch *r = g_ptr_array_index (list, i);
      gboolean here = g_strcmp0 (r->spec, spec) == 0;

      if (here)
        current = (int) i;
      gtk_list_box_append (self->recording_list, launch_row (r, here));
    }
  {
    g_autofree char *label = current >= 0
                             ? g_strdup_printf (_("Launch %d of %u"), current + 1, list->len)
                             : g_strdup_printf (_("%u Launches"), list->len);

    gtk_label_set_text (self->recording_label, label);
  }
  /* the GPU the program ran on, unless the user picked one */
  if (!self->gpu_chosen && self->recording_gpu != NULL)
    _ks_window_show_gpu (self, self->recording_gpu);
  _ks_window_update_folded_menu (self);
}

/* The recording a folder holds: its first launch's spec, or NULL */
GFile *
_ks_window_record_first_launch (GFile *folder)
{
  g_autofree char *dir = g_file_get_path (folder);
  g_autofree char *gpu = NULL;
  g_autoptr(GPtrArray) list = dir ? read_recording (dir, &gpu) : NULL;

  if (list == NULL)
    return NULL;
  return g_file_new_for_path (((RecordedLaunch *) g_ptr_array_index (list, 0))->spec);
}

void
_ks_window_record_class_init (GtkWidgetClass *klass)
{
  gtk_widget_class_install_action (klass, "win.recorded-launch", "u", recorded_launch_action);
}

void
_ks_window_record_init (KsWindow *self)
{
  g_signal_connect_object (self->recording_list, "row-activated",
                           G_CALLBACK (row_activated_cb), self, G_CONNECT_SWAPPED);
}

void
_ks_window_record_finalize (KsWindow *self)
{
  g_clear_pointer (&self->recording, g_ptr_array_unref);
  g_clear_pointer (&self->recording_gpu, g_free);
}
