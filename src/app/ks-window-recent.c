/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-recent.c: recent files.  What the user opens goes to
 * GtkRecentManager (the desktop's list, shared with the file chooser and
 * other applications) under KernelScope's name; the primary menu's
 * "Open Recent" lists ours, newest first.  A file that has gone since is
 * said so in the window and taken off the list. */

#include "ks-window-private.h"

#include <glib/gi18n.h>

/* The name KernelScope's items carry in the list */
#define RECENT_APP_NAME "KernelScope"
#define RECENT_MAX 10

void
_ks_window_recent_add (KsWindow *self,
                       GFile    *file)
{
  g_autofree char *uri = NULL, *name = NULL, *type = NULL, *mime = NULL;
  GtkRecentData data = { 0 };

  if (file == NULL)
    return;
  uri = g_file_get_uri (file);
  name = g_file_get_basename (file);
  type = g_content_type_guess (name, NULL, 0, NULL);
  mime = type ? g_content_type_get_mime_type (type) : NULL;
  data.mime_type = mime ? mime : (char *) "text/plain";
  data.app_name = (char *) RECENT_APP_NAME;
  data.app_exec = (char *) "kernelscope %u";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a, *ib = *(GtkRecentInfo **) b;

  return -g_date_time_compare (gtk_recent_info_get_modified (ia),
                               gtk_recent_info_get_modified (ib));
}

static void
fill_recent (KsWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr(GPtrArray) ours = NULL;

  ours = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  for (GList *l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_application (l->data, RECENT_APP_NAME))
      g_ptr_array_add (ours, gtk_recent_info_ref (l->data));
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (ours, newest_first);
  if (ours->len > RECENT_MAX)
    g_ptr_array_set_size (ours, RECENT_MAX);

  g_menu_remove_all (self->recent_menu);
  if (ours->len == 0)
    {
      /* an item without an action shows greyed out */
      g_menu_append (self->recent_menu, _("No Recent Files"), NULL);
      return;
    }
  for (guint i = 0; i < ours->len; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      const char *uri = gtk_recent_info_get_uri (info);
      g_autoptr(GFile) file = g_file_new_for_uri (uri);
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *label = NULL;
      gboolean twin = FALSE;
      g_autoptr(GMenuItem) item = NULL;

      /* Two of the same name (every sample folder has a sample.json...)
       * are told apart by their folders */
      for (guint k = 0; k < ours->len && !twin; k++)
        if (k != i)
          {
            GtkRecentInfo *o = g_ptr_array_index (ours, k);
            g_autoptr(GFile) other = g_file_new_for_uri (gtk_recent_info_get_uri (o));
            g_autofree char *other_name = g_file_get_basename (other);

            twin = g_strcmp0 (name, other_name) == 0;
          }
      if (twin)
        {
          g_autoptr(GFile) parent = g_file_get_parent (file);
          g_autofree char *dir = parent ? g_file_get_basename (parent) : NULL;

          label = g_strdup_printf ("%s — %s", name, dir ? dir : "/");
        }
      else
        label = g_strdup (name);
      /* a menu's "_" marks its mnemonic: vector_add.cu would read
       * "vectoradd.cu" */
      {
        g_auto(GStrv) parts = g_strsplit (label, "_", -1);

        g_free (label);
        label = g_strjoinv ("__", parts);
      }
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uri));
      g_menu_append_item (self->recent_menu, item);
    }
}

static void
recent_changed_cb (KsWindow         *self,
                   GtkRecentManager *manager)
{
  fill_recent (self);
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);
  const char *uri = g_variant_get_string (param, NULL);
  g_autoptr(GFile) file = g_file_new_for_uri (uri);

  if (!g_file_query_exists (file, NULL))
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *where = g_file_get_parse_name (file);
      g_autofree char *msg = g_strdup_printf (_("%s is no longer at %s: it has been taken off the "
                                                "recent files"), name, where);

      _ks_window_show_message (self, msg);
      gtk_recent_manager_remove_item (gtk_recent_manager_get_default (), uri, NULL);
      return;
    }
  _ks_window_open (self, file);
}

void
_ks_window_recent_class_init (GtkWidgetClass *klass)
{
  gtk_widget_class_install_action (klass, "win.open-recent", "s", open_recent_action);
}

void
_ks_window_recent_init (KsWindow *self)
{
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (recent_changed_cb), self, G_CONNECT_SWAPPED);
  fill_recent (self);
}
