/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-application.h: the GtkApplication of KernelScope. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_APPLICATION (ks_application_get_type ())

G_DECLARE_FINAL_TYPE (KsApplication, ks_application, KS, APPLICATION, GtkApplication)

KsApplication  *ks_application_new              (void);
/* The PNG to write once the first window's analysis is done, or NULL
 * (--screenshot); the window calls ks_application_screenshot_done(). */
const char     *ks_application_get_screenshot   (KsApplication *self);
void            ks_application_screenshot_done  (KsApplication *self,
                                                 gboolean       ok);
/* The sizes --size takes: from the smallest window that still makes sense
 * to an 8K screen */
#define KS_SCREENSHOT_MIN_WIDTH 320
#define KS_SCREENSHOT_MIN_HEIGHT 240
#define KS_SCREENSHOT_MAX_WIDTH 7680
#define KS_SCREENSHOT_MAX_HEIGHT 4320
/* Reads "WIDTHxHEIGHT" within those sizes; FALSE for anything else */
gboolean        ks_parse_window_size            (const char    *text,
                                                 int           *width,
                                                 int           *height);
/* 0, or 1 when a --screenshot could not be written */
int             ks_application_get_exit_status  (KsApplication *self);
/* How many times larger presentation mode makes the text (the
 * presentation-scale setting, 1.0 to 3.0; 1.6 by default); the
 * "presentation-scale" property notifies a change. */
double          ks_application_get_presentation_scale (KsApplication *self);

/* Makes GtkSourceView find KernelScope's language definitions and style
 * schemes (installed, or in the source tree when run from a build tree).
 * Call after gtk_source_init(); calls after the first do nothing. */
void            ks_application_setup_data       (void);

/* The app's settings: the installed schema, else the one compiled in the
 * build tree; NULL (and the app runs on its defaults) when neither exists.
 * Returns: (transfer full) (nullable) */
GSettings      *ks_settings_new                 (void);

/* The folder of the message catalogues: the build tree's po/ for a program
 * of the build tree (where meson compiles them as po/LANG/LC_MESSAGES/
 * kernelscope.mo), else the installed one.  Give it to bindtextdomain(). */
const char     *ks_application_locale_dir       (void);
/* The language of the message catalogue in use, from its header's
 * "Language:" field ("ko"); NULL when the texts are the source's English.
 * Returns: (transfer full) (nullable) */
char           *ks_application_catalogue_language (void);
/* The views draw text with cairo's toy font API, which falls back on no
 * other font: a font for the catalogue's language must be the one
 * fontconfig matches.  Sets FC_LANG to that language unless it is set;
 * call after textdomain() and before anything starts fontconfig. */
void            ks_application_match_fonts_to_language (void);

G_END_DECLS
