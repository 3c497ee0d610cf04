/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-shot.h: --screenshot for the windows other than the main one (the
 * Probe Lab, the Launch Anatomy): the window's picture as a PNG file at
 * the size asked for. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Whether the window shows what the picture is for (the lab: a result) */
typedef gboolean (*KsShotReady) (GtkWindow *window);

typedef struct
{
  char *path;                   /* NULL: no picture to take */
  int width, height;
  guint waits;                  /* looks at a window not yet the size asked */
  GtkWindow *window;            /* while the picture is on its way: a reference */
  KsShotReady ready;
  KsShotReady busy;             /* (nullable) TRUE: wait (work under way that the picture
                                 * shows), up to the ten seconds of looks */
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
/* Takes the picture in `delay_ms` (the window's stage laid out), trying
 * again until ks_shot_try is done, then tells the application whether it
 * was written and `ready` (may be NULL) said the window was ready; the
 * shot must live as long as the window (a member of it) */
void      ks_shot_start  (KsShot     *shot,
                          GtkWindow  *window,
                          guint       delay_ms,
                          KsShotReady ready);
void      ks_shot_clear  (KsShot    *shot);

G_END_DECLS
