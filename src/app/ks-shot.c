/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-shot.c: a window's picture as a PNG file (ks-shot.h). */
#include "ks-shot.h"

#include <glib/gi18n.h>

#include "ks-application.h"

void
ks_shot_set (KsShot     *shot,
             GtkWindow  *window,
             const char *path,
             int         width,
             int         height)
{
  g_free (shot->path);
  shot->path = g_strdup (path);
  shot->width = width;
  shot->height = height;
  shot->waits = 0;
  gtk_window_set_default_size (window, width, height);
}

gboolean
ks_shot_try (KsShot    *shot,
             GtkWindow *window,
             gboolean  *ok)
{
  int w = gtk_widget_get_width (GTK_WIDGET (window));
  int h = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;

  *ok = FALSE;
  if (shot->path == NULL)
    return TRUE;
  if (shot->busy != NULL && shot->busy (window) && shot->waits++ < 40)
    return FALSE;
  /* the size asked for, drawn; a window manager may take a while */
  if ((w != shot->width || h != shot->height) && shot->waits++ < 40)
    {
      int dw, dh;

      /* the default size holds the frame (client-side decorations' shadow) */
      gtk_window_get_default_size (window, &dw, &dh);
      if (w > 0 && h > 0)
        gtk_window_set_default_size (window, shot->width + MAX (dw - w, 0),
                                     shot->height + MAX (dh - h, 0));
      return FALSE;
    }
  paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node != NULL)
    {
      texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                             &GRAPHENE_RECT_INIT (0, 0, w, h));
      *ok = texture != NULL && gdk_texture_save_to_png (texture, shot->path);
    }
  if (!*ok)
    g_printerr (_("kernelscope: could not write the screenshot %s\n"), shot->path);
  else if (w != shot->width || h != shot->height)
    {
      g_printerr (_("kernelscope: the window did not become %dx%d: it stayed %dx%d\n"),
                  shot->width, shot->height, w, h);
      *ok = FALSE;
    }
  g_clear_pointer (&shot->path, g_free);
  return TRUE;
}

static gboolean
shot_cb (gpointer data)
{
  KsShot *shot = data;
  GtkWindow *window = shot->window;
  GtkApplication *app = gtk_window_get_application (window);
  gboolean ok = FALSE;

  if (!ks_shot_try (shot, window, &ok))
    {
      g_timeout_add (250, shot_cb, shot);
      return G_SOURCE_REMOVE;
    }
  if (KS_IS_APPLICATION (app))
    ks_application_screenshot_done (KS_APPLICATION (app),
                                    ok && (shot->ready == NULL || shot->ready (window)));
  shot->window = NULL;
  g_object_unref (window);
  return G_SOURCE_REMOVE;
}

void
ks_shot_start (KsShot     *shot,
               GtkWindow  *window,
               guint       delay_ms,
               KsShotReady ready)
{
  if (shot->path == NULL || shot->window != NULL)
    return;
  shot->window = g_object_ref (window);
  shot->ready = ready;
  g_timeout_add (delay_ms, shot_cb, shot);
}

void
ks_shot_clear (KsShot *shot)
{
  g_clear_pointer (&shot->path, g_free);
}
