/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c: `kernelscope`, the desktop application. */

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <locale.h>

#include "ks-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(KsApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, ks_application_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  ks_application_match_fonts_to_language ();

  gtk_source_init ();
  app = ks_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  if (status == 0)
    status = ks_application_get_exit_status (app);
  gtk_source_finalize ();
  return status;
}
