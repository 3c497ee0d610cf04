/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window.h: a KernelScope window: the CUDA, PTX and SASS panes of one
 * kernel, its launch, the results of its last run. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_WINDOW (ks_window_get_type ())

G_DECLARE_FINAL_TYPE (KsWindow, ks_window, KS, WINDOW, GtkApplicationWindow)

KsWindow   *ks_window_new                  (GtkApplication *app);
/* Opens a .cu, .ptx or launch spec (.json), with the files beside it that
 * belong to it, and runs the analysis.  A file that cannot be opened is
 * reported in the window, which keeps what it had. */
void        ks_window_open_file            (KsWindow       *self,
                                            GFile          *file);
void        ks_window_open_first_sample    (KsWindow       *self);
gboolean    ks_window_has_unsaved_changes  (KsWindow       *self);
/* The results view to show once results arrive ("timeline", "hints", ...) */
void        ks_window_set_view             (KsWindow       *self,
                                            const char     *name);
/* Writes the window, width x height pixels, to png_path once the next
 * analysis is done, then asks the application to quit.  A window that
 * cannot be made that small is an error, not a larger picture. */
void        ks_window_set_screenshot       (KsWindow       *self,
                                            const char     *png_path,
                                            int             width,
                                            int             height);
/* Presentation mode for this window, without making it the setting that
 * the next start follows (--presentation; F5 still sets it) */
void        ks_window_present_once         (KsWindow       *self);
/* Analyses for this GPU (an id of the GPU database) from now on, without
 * making it the default of the next start (--gpu).  FALSE: no such GPU */
gboolean    ks_window_choose_gpu           (KsWindow       *self,
                                            const char     *gpu_id);
/* Opens the launch editor (once the window shows) */
void        ks_window_show_launch_editor   (KsWindow       *self);
/* Once the next analysis is done, starts stepping through its launch and
 * steps this many warp-instructions (ks-window-step.c) */
void        ks_window_set_initial_steps    (KsWindow       *self,
                                            guint           steps);
/* Once the next analysis is done, opens the Launch Anatomy at this stage
 * (1 to 8); with a screenshot, the picture is of it */
void        ks_window_set_initial_anatomy  (KsWindow       *self,
                                            guint           stage);

G_END_DECLS
