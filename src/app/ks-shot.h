/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-shot.h: --screenshot for the windows other than the main one (the
 * Probe Lab, the Launch Anatomy): the window's picture as a PNG file at
 * the size asked for. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  char *path;                   /* NULL: no picture to take */
  int width, height;
  guint waits;                  /* looks at a window not yet the size asked */
} KsShot;

/* Asks the window for the picture's size */
void      ks_shot_set    (KsShot    *shot,
                          GtkWindow *window,
                          const char *path,
                          int        width,
                          int        height);
/* Takes the picture once the window has the size asked for (a window
 * manager may take a while: up to ten seconds of looks).  FALSE: look
 * again in 250 ms.  TRUE: done, with *ok whether the file was written at
 * the size asked; the messages are printed, and shot->path cleared. */
gboolean  ks_shot_try    (KsShot    *shot,
                          GtkWindow *window,
                          gboolean  *ok);
void      ks_shot_clear  (KsShot    *shot);

G_END_DECLS
