/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-application.c: the application: one instance per session (a second
 * `kernelscope FILE` opens FILE in the running one), its app. actions and
 * their accelerators, the about and preferences windows, the settings
 * that apply to every window (font size, presentation scale, theme), the
 * data folders GtkSourceView searches, and the --screenshot mode. */

#include "ks-application.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "ks-anatomy-window.h"
#include "ks-compare-window.h"
#include "ks-preferences.h"
#include "ks-probe-lab.h"
#include "ks-samples.h"
#include "ks-window.h"

struct _KsApplication
{
  GtkApplication parent_instance;

  GSettings *settings;
  GtkCssProvider *font_css;     /* font-size and presentation-scale */
  double presentation_scale;    /* the presentation-scale setting */
  GtkWidget *preferences;       /* the open Preferences window, or NULL */
  GtkWidget *probe_lab;         /* the open Probe Lab, or NULL */
  gboolean system_dark;         /* the desktop's own prefer-dark, before the theme setting */

  char *screenshot;             /* --screenshot FILE.png */
  int screenshot_width;         /* --size WxH */
  int screenshot_height;
  gboolean presentation;        /* --presentation */
  char *view;                   /* --view NAME */
  char *gpu;                    /* --gpu ID */
  gboolean launch_editor;       /* --launch-editor */
  int steps;                    /* --step N */
  int anatomy;                  /* --anatomy STAGE, 1-based; 0: not asked */
  char *probe_lab_name;         /* --probe-lab NAME */
  char *probe_instruction;      /* --instruction OP */
  gboolean compare;             /* --compare A B */
  int exit_status;
};

G_DEFINE_FINAL_TYPE (KsApplication, ks_application, GTK_TYPE_APPLICATION)

enum {
  PROP_0,
  PROP_PRESENTATION_SCALE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Presentation mode's sizes are the normal ones times the
 * presentation-scale setting: the panes' code is 10.5 pt (style.css) or the
 * font-size setting; the rest are style.css's presentation sizes, which are
 * for its default scale of 1.6 */
#define KS_CODE_POINTS 10.5
#define KS_DEFAULT_PRESENTATION_SCALE 1.6

static const GOptionEntry options[] = {
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Render the window at 1600x1000 (or --size) once the analysis is done, write it as a PNG "
       "and exit"),
    N_("FILE.png") },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --screenshot, the picture's size in pixels, for example 1024x768"), N_("WxH") },
  { "presentation", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Start in presentation mode (larger text, high contrast)"), NULL },
  { "view", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Show this view of the results first: timeline, memory, occupancy, lanes, cfg, hints "
       "or output"), N_("NAME") },
  { "gpu", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Analyse for this GPU of the GPU menu (an id of data/gpus.json, for example h100-sxm), "
       "without making it the default"), N_("ID") },
  { "launch-editor", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Open the launch editor (with --screenshot, it is in the picture)"), NULL },
  { "step", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Once the analysis is done, step through the launch this many warp-instructions"),
    N_("N") },
  { "anatomy", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Once the analysis is done, open the Launch Anatomy at this stage (1 to 8); with "
       "--screenshot, the picture is of it"), N_("STAGE") },
  { "probe-lab", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Open the Probe Lab on this experiment and run it (accumulators, chain-length, "
       "warp-count, mixed-pipe, shared-stride or pointer-chase); with --screenshot, the lab is "
       "in the picture"),
    N_("NAME") },
  { "instruction", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --probe-lab: the instruction a chain experiment times (ffma, fadd, iadd3, imad, "
       "mufu, dfma, hfma2 or shfl)"),
    N_("OP") },
  { "compare", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Open the two files given (a spec, PTX or CUDA file, or a sample's folder each) side by "
       "side in a Compare window; with --view, its tab (figures, timelines, memory, occupancy, "
       "code or diff); with --screenshot, the picture is of it"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

/* "1024x768" (or 1024X768): within the sizes a screen can have */
gboolean
ks_parse_window_size (const char *text,
                      int        *width,
                      int        *height)
{
  guint64 w, h;
  char *end;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  w = g_ascii_strtoull (text, &end, 10);
  if (*end != 'x' && *end != 'X')
    return FALSE;
  if (!g_ascii_isdigit (end[1]))
    return FALSE;
  h = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0'
      || w < KS_SCREENSHOT_MIN_WIDTH || w > KS_SCREENSHOT_MAX_WIDTH
      || h < KS_SCREENSHOT_MIN_HEIGHT || h > KS_SCREENSHOT_MAX_HEIGHT)
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}

KsApplication *
ks_application_new (void)
{
  return g_object_new (KS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/kernelscope/KernelScope",
                       NULL);
}

const char *
ks_application_get_screenshot (KsApplication *self)
{
  g_return_val_if_fail (KS_IS_APPLICATION (self), NULL);
  return self->screenshot;
}

int
ks_application_get_exit_status (KsApplication *self)
{
  g_return_val_if_fail (KS_IS_APPLICATION (self), 1);
  return self->exit_status;
}

void
ks_application_screenshot_done (KsApplication *self,
                                gboolean       ok)
{
  g_return_if_fail (KS_IS_APPLICATION (self));
  self->exit_status = ok ? 0 : 1;
  g_application_quit (G_APPLICATION (self));
}

double
ks_application_get_presentation_scale (KsApplication *self)
{
  g_return_val_if_fail (KS_IS_APPLICATION (self), KS_DEFAULT_PRESENTATION_SCALE);
  return self->presentation_scale;
}

GSettings *
ks_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  /* run from the build tree, the schema built with it comes first: an
   * installed one may be an older version's, without this one's keys */
  gboolean build_first = ks_running_uninstalled ();

  if (source != NULL && !build_first)
    schema = g_settings_schema_source_lookup (source, "io.github.kernelscope.KernelScope", TRUE);
#ifdef KS_BUILD_SCHEMADIR
  if (schema == NULL)
    {
      g_autoptr(GSettingsSchemaSource) build =
        g_settings_schema_source_new_from_directory (KS_BUILD_SCHEMADIR, source, FALSE, NULL);

      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, "io.github.kernelscope.KernelScope", FALSE);
    }
#endif
  if (schema == NULL && source != NULL && build_first)
    schema = g_settings_schema_source_lookup (source, "io.github.kernelscope.KernelScope", TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

const char *
ks_application_locale_dir (void)
{
#ifdef KS_BUILD_ROOT
  /* The build tree's catalogues win over installed ones: those may be an
   * older build's */
  if (ks_running_uninstalled () && g_file_test (KS_BUILD_ROOT "/po", G_FILE_TEST_IS_DIR))
    return KS_BUILD_ROOT "/po";
#endif
  return LOCALEDIR;
}

char *
ks_application_catalogue_language (void)
{
  /* the header is the translation of the empty message (a variable: a
   * literal "" would be taken into the template) */
  const char *empty = "";
  const char *header = dgettext (GETTEXT_PACKAGE, empty);
  const char *field = header != NULL ? strstr (header, "Language: ") : NULL;
  gsize n;

  /* the field starts a line ("Language-Team:" is another field) */
  while (field != NULL && field != header && field[-1] != '\n')
    field = strstr (field + 1, "Language: ");
  if (field == NULL)
    return NULL;
  field += strlen ("Language: ");
  n = strcspn (field, "\r\n");
  return n > 0 ? g_strndup (field, n) : NULL;
}

void
ks_application_match_fonts_to_language (void)
{
  g_autofree char *language = NULL;

  /* LANGUAGE=ko in an English or C locale: fontconfig matches "Sans" for
   * the locale's language, and Hangul showed as boxes in the views */
  if (g_getenv ("FC_LANG") != NULL)
    return;
  language = ks_application_catalogue_language ();
  if (language != NULL)
    g_setenv ("FC_LANG", language, TRUE);
}

/* "%.2fpt" whatever the locale's decimal point: CSS wants a full stop */
static void
append_points (GString    *css,
               const char *selector,
               double      points)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (number, sizeof number, "%.2f", points);
  g_string_append_printf (css, "%s { font-size: %spt; }\n", selector, number);
}

/* The font-size and presentation-scale settings as CSS over style.css: the
 * panes' size, and every size presentation mode enlarges (style.css's
 * presentation sizes divided by its 1.6, times the scale) */
static void
font_size_changed_cb (KsApplication *self,
                      const char    *key,
                      GSettings     *settings)
{
  static const struct { const char *selector; double points; } presented[] = {
    { "window.presentation", 15 },
    { "window.presentation .ks-pane-header .heading, window.presentation .title-4", 16 },
    { "popover.ks-launch-popover.presentation, popover.ks-samples-popover.presentation", 15 },
    { "popover.ks-samples-popover.presentation .caption", 12 },
    { "popover.ks-launch-popover.presentation .heading, "
      "popover.ks-launch-popover.presentation .title-4", 16 },
    { "popover.ks-launch-popover.presentation .caption, "
      "popover.ks-launch-popover.presentation .caption-heading", 12 },
    { "window.presentation .ks-statusbar", 14 },
    { "window.presentation.ks-probe-lab .caption", 12 },
    { "window.presentation.ks-probe-lab .heading", 16 },
    { "window.presentation.ks-anatomy", 20 },
    { "window.presentation.ks-compare .heading", 16 },
    { "window.presentation.ks-anatomy .title-2", 30 },
    { "window.presentation.ks-anatomy .heading", 20 },
    { "window.presentation .ks-preferences .heading", 16 },
    { "window.presentation .ks-preferences .caption", 12 },
  };
  int size = g_settings_get_int (settings, "font-size");
  double scale = g_settings_get_double (settings, "presentation-scale");
  g_autoptr(GString) css = g_string_new (NULL);

  if (size > 0)
    append_points (css, "textview.ks-code", size);
  for (guint i = 0; i < G_N_ELEMENTS (presented); i++)
    append_points (css, presented[i].selector,
                   presented[i].points / KS_DEFAULT_PRESENTATION_SCALE * scale);
  append_points (css, "window.presentation textview.ks-code",
                 (size > 0 ? size : KS_CODE_POINTS) * scale);
  gtk_css_provider_load_from_data (self->font_css, css->str, -1);
  if (self->presentation_scale != scale)
    {
      self->presentation_scale = scale;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESENTATION_SCALE]);
    }
}

/* The theme setting for the whole window, not only the panes' scheme
 * (ks-window.c picks that): GTK 4.8's one switch for a dark style is
 * gtk-application-prefer-dark-theme; "system" gives back the desktop's */
static void
theme_changed_cb (KsApplication *self,
                  const char    *key,
                  GSettings     *settings)
{
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  int theme = g_settings_get_enum (settings, "theme");

  if (gtk_settings == NULL)
    return;
  g_object_set (gtk_settings, "gtk-application-prefer-dark-theme",
                theme == 0 ? self->system_dark : theme == 2, NULL);
}

static int
ks_application_handle_local_options (GApplication *app,
                                     GVariantDict *dict)
{
  KsApplication *self = KS_APPLICATION (app);
  const char *screenshot = NULL;

  if (g_variant_dict_contains (dict, "version"))
    {
      g_print ("kernelscope %s\n", PACKAGE_VERSION);
      return 0;
    }
  self->presentation = g_variant_dict_contains (dict, "presentation");
  self->launch_editor = g_variant_dict_contains (dict, "launch-editor");
  self->compare = g_variant_dict_contains (dict, "compare");
  {
    const char *view = NULL;

    if (g_variant_dict_lookup (dict, "view", "&s", &view))
      self->view = g_strdup (view);
  }
  {
    const char *gpu = NULL;

    if (g_variant_dict_lookup (dict, "gpu", "&s", &gpu))
      self->gpu = g_strdup (gpu);
  }
  {
    const char *name = NULL;

    if (g_variant_dict_lookup (dict, "probe-lab", "&s", &name))
      {
        if (ks_probe_find (name) == NULL)
          {
            g_printerr (_("kernelscope: --probe-lab %s: no such experiment; "
                          "`kernelscope-cli probe list` lists them\n"), name);
            return 2;
          }
        self->probe_lab_name = g_strdup (name);
      }
  }
  {
    const char *op = NULL;

    if (g_variant_dict_lookup (dict, "instruction", "&s", &op))
      {
        if (ks_probe_instruction_sass (op) == NULL)
          {
            g_printerr (_("kernelscope: --instruction %s: no such instruction; "
                          "`kernelscope-cli probe list` lists them\n"), op);
            return 2;
          }
        self->probe_instruction = g_strdup (op);
      }
  }
  if (!g_variant_dict_lookup (dict, "step", "i", &self->steps) || self->steps < 0)
    self->steps = 0;
  if (g_variant_dict_lookup (dict, "anatomy", "i", &self->anatomy)
      && (self->anatomy < 1 || self->anatomy > KS_ANATOMY_STAGES))
    {
      g_printerr (_("kernelscope: --anatomy %d: give a stage from 1 to %d\n"), self->anatomy,
                  KS_ANATOMY_STAGES);
      return 2;
    }
  self->screenshot_width = 1600;
  self->screenshot_height = 1000;
  {
    const char *size = NULL;

    if (g_variant_dict_lookup (dict, "size", "&s", &size)
        && !ks_parse_window_size (size, &self->screenshot_width, &self->screenshot_height))
      {
        g_printerr (_("kernelscope: --size %s: give the size as WIDTHxHEIGHT in pixels, from "
                      "%dx%d to %dx%d, for example 1024x768\n"),
                    size, KS_SCREENSHOT_MIN_WIDTH, KS_SCREENSHOT_MIN_HEIGHT,
                    KS_SCREENSHOT_MAX_WIDTH, KS_SCREENSHOT_MAX_HEIGHT);
        return 2;
      }
  }
  if (g_variant_dict_lookup (dict, "screenshot", "^&ay", &screenshot))
    {
      self->screenshot = g_strdup (screenshot);
      /* A screenshot is its own process: it must not hand its file to a
       * window the user already has open. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  return -1;
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (app));

  /* Each window asks about its unsaved changes before it goes; the
   * application ends when the last one has closed. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
}

/* Installed under the app id; in a build tree, under the release id */
static const char *
app_icon_name (void)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());

  return gtk_icon_theme_has_icon (theme, APP_ID) ? APP_ID : "io.github.kernelscope.KernelScope";
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  const char *authors[] = { "The KernelScope authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "KernelScope",
                         "logo-icon-name", app_icon_name (),
                         "version", PACKAGE_VERSION,
                         "comments", _("See how a GPU runs a CUDA kernel: CUDA, PTX and SASS side by "
                                       "side, a SIMT simulator, occupancy and hints tied to lines."),
                         "website", "https://github.com/kernelscope/kernelscope",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         "modal", TRUE,
                         NULL);
}

/* One Preferences window for the application, over the window in front */
static void
preferences_activated (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  KsApplication *self = KS_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->preferences == NULL)
    {
      self->preferences = GTK_WIDGET (ks_preferences_new (GTK_APPLICATION (self)));
      g_object_add_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
    }
  if (parent != NULL && parent != GTK_WINDOW (self->preferences))
    ks_preferences_set_parent (KS_PREFERENCES (self->preferences), parent);
  gtk_window_present (GTK_WINDOW (self->preferences));
}

/* One Probe Lab for the application, in presentation mode when the
 * window it is opened from is */
static KsProbeLab *
probe_lab (KsApplication *self)
{
  GtkWindow *from = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->probe_lab == NULL)
    {
      gboolean presentation = self->presentation;

      self->probe_lab = GTK_WIDGET (ks_probe_lab_new (GTK_APPLICATION (self)));
      g_object_add_weak_pointer (G_OBJECT (self->probe_lab), (gpointer *) &self->probe_lab);
      if (from != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS (from), "presentation"))
        g_object_get (from, "presentation", &presentation, NULL);
      ks_probe_lab_set_presentation (KS_PROBE_LAB (self->probe_lab), presentation);
    }
  return KS_PROBE_LAB (self->probe_lab);
}

static void
probe_lab_activated (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  KsProbeLab *lab = probe_lab (KS_APPLICATION (user_data));

  /* the first experiment, run, so the lab never opens empty */
  if (ks_probe_lab_get_result (lab) == NULL && !ks_probe_lab_is_running (lab))
    ks_probe_lab_select (lab, "accumulators");
  gtk_window_present (GTK_WINDOW (lab));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "about", about_activated },
  { "preferences", preferences_activated },
  { "probe-lab", probe_lab_activated },
};

void
ks_application_setup_data (void)
{
  static gboolean done;
  g_autofree char *langs = NULL, *styles = NULL, *icons = NULL;
  GdkDisplay *display = gdk_display_get_default ();

  /* Once: GtkSourceView refuses a new search path once it has read a
   * language, and the tests call this before an application starts up */
  if (done)
    return;
  done = TRUE;
  langs = ks_data_find_dir ("language-specs");
  styles = ks_data_find_dir ("styles");
  icons = ks_data_find_dir ("icons");

  /* The app's icon, when run from a build tree */
  if (icons != NULL && display != NULL)
    gtk_icon_theme_add_search_path (gtk_icon_theme_get_for_display (display), icons);

  /* Our folders go first, so ptx.lang and sass.lang are ours even where a
   * system-wide file of the same id exists. */
  if (langs != NULL)
    {
      GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default ();
      const char *const *old = gtk_source_language_manager_get_search_path (lm);
      g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
      g_auto(GStrv) paths = NULL;

      g_strv_builder_add (b, langs);
      g_strv_builder_addv (b, (const char **) old);
      paths = g_strv_builder_end (b);
      gtk_source_language_manager_set_search_path (lm, (const char *const *) paths);
    }
  else
    g_warning ("KernelScope's language definitions were not found; set KS_DATA_DIR");
  if (styles != NULL)
    gtk_source_style_scheme_manager_prepend_search_path (gtk_source_style_scheme_manager_get_default (),
                                                         styles);
  else
    g_warning ("KernelScope's style schemes were not found; set KS_DATA_DIR");
}

static void
ks_application_startup (GApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.probe-lab", { "<Control><Shift>l", NULL } },
    { "win.launch-anatomy", { "<Control><Shift>a", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.samples", { "<Control><Shift>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.export-view", { "<Control>e", NULL } },
    { "win.edit-launch", { "<Control>l", NULL } },
    { "win.run", { "<Control>r", NULL } },
    { "win.stop", { "Escape", NULL } },
    { "win.presentation", { "F5", NULL } },
    { "win.leave-presentation", { "Escape", NULL } },
    /* the results area alone */
    { "win.maximize-results", { "F6", NULL } },
    /* the results views, in the order of their tabs */
    { "win.show-view('timeline')", { "<Alt>1", NULL } },
    { "win.show-view('memory')", { "<Alt>2", NULL } },
    { "win.show-view('occupancy')", { "<Alt>3", NULL } },
    { "win.show-view('lanes')", { "<Alt>4", NULL } },
    { "win.show-view('cfg')", { "<Alt>5", NULL } },
    { "win.show-view('hints')", { "<Alt>6", NULL } },
    { "win.show-view('output')", { "<Alt>7", NULL } },
    { "step.reset", { "<Control>F11", NULL } },
    { "step.back", { "<Shift>F11", NULL } },
    { "step.forward", { "F11", NULL } },
    { "step.end", { "<Control><Shift>F11", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

  G_APPLICATION_CLASS (ks_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  gtk_css_provider_load_from_resource (css, "/io/github/kernelscope/KernelScope/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  ks_application_setup_data ();
  KS_APPLICATION (app)->settings = ks_settings_new ();
  if (KS_APPLICATION (app)->settings != NULL)
    {
      KsApplication *self = KS_APPLICATION (app);

      /* above style.css, so the setting wins */
      self->font_css = gtk_css_provider_new ();
      gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                  GTK_STYLE_PROVIDER (self->font_css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
      g_signal_connect_object (self->settings, "changed::font-size",
                               G_CALLBACK (font_size_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->settings, "changed::presentation-scale",
                               G_CALLBACK (font_size_changed_cb), self, G_CONNECT_SWAPPED);
      font_size_changed_cb (self, "font-size", self->settings);
      if (gtk_settings_get_default () != NULL)
        g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                      &self->system_dark, NULL);
      g_signal_connect_object (self->settings, "changed::theme",
                               G_CALLBACK (theme_changed_cb), self, G_CONNECT_SWAPPED);
      if (g_settings_get_enum (self->settings, "theme") != 0)
        theme_changed_cb (self, "theme", self->settings);
    }
  /* once a process (GLib warns otherwise; the tests start more than one) */
  if (g_strcmp0 (g_get_application_name (), "KernelScope") != 0)
    g_set_application_name ("KernelScope");
  gtk_window_set_default_icon_name (app_icon_name ());
}

static KsWindow *
new_window (KsApplication *self)
{
  KsWindow *window = ks_window_new (GTK_APPLICATION (self));

  if (self->presentation)
    ks_window_present_once (window);
  if (self->screenshot != NULL)
    ks_window_set_screenshot (window, self->screenshot,
                              self->screenshot_width, self->screenshot_height);
  if (self->view != NULL)
    ks_window_set_view (window, self->view);
  if (self->gpu != NULL && !ks_window_choose_gpu (window, self->gpu))
    g_printerr (_("kernelscope: --gpu %s: no such GPU in the GPU database\n"), self->gpu);
  if (self->launch_editor)
    ks_window_show_launch_editor (window);
  if (self->steps > 0)
    ks_window_set_initial_steps (window, (guint) self->steps);
  if (self->anatomy > 0)
    ks_window_set_initial_anatomy (window, (guint) self->anatomy);
  return window;
}

static void
ks_application_activate (GApplication *app)
{
  KsApplication *self = KS_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL && self->compare)
    {
      /* --compare without files: nothing to compare, and no window */
      g_printerr (_("kernelscope: --compare takes two files or sample folders, not %d\n"), 0);
      self->exit_status = 2;
      return;
    }
  if (window == NULL && self->probe_lab_name != NULL)
    {
      KsProbeLab *lab = probe_lab (self);

      if (self->screenshot != NULL)
        ks_probe_lab_set_screenshot (lab, self->screenshot, self->screenshot_width,
                                     self->screenshot_height);
      if (self->gpu != NULL && !ks_probe_lab_choose_gpu (lab, self->gpu))
        g_printerr (_("kernelscope: --gpu %s: no such GPU in the GPU database\n"), self->gpu);
      if (self->probe_instruction != NULL)
        ks_probe_lab_choose_instruction (lab, self->probe_instruction);
      ks_probe_lab_select (lab, self->probe_lab_name);
      gtk_window_present (GTK_WINDOW (lab));
      return;
    }
  if (window == NULL)
    {
      window = GTK_WINDOW (new_window (self));
      ks_window_open_first_sample (KS_WINDOW (window));
    }
  gtk_window_present (window);
}

/* A file or a sample's folder, as a sample of the library (read anew), or
 * NULL; *path is what to analyse */
static KsSample *
as_sample (GPtrArray  *library,
           GFile      *file,
           char      **path)
{
  g_autofree char *p = g_file_get_path (file);
  const KsSample *s;
  KsSample *sample = NULL;

  if (p != NULL && g_file_test (p, G_FILE_TEST_IS_DIR))
    sample = ks_sample_open (p);
  else if (p != NULL && (s = ks_samples_find_for_file (library, p)) != NULL)
    sample = ks_sample_open (s->dir);
  if (sample != NULL && (p == NULL || g_file_test (p, G_FILE_TEST_IS_DIR)))
    *path = g_strdup (ks_sample_analysis_path (sample));
  else
    *path = g_steal_pointer (&p);
  return sample;
}

/* --compare A B: a Compare window of its own; two samples of one course
 * group get the group's drop-downs */
static void
open_compare (KsApplication *self,
              GFile        **files,
              int            n_files)
{
  g_autofree char *dir = ks_data_find_dir ("samples");
  g_autoptr(GPtrArray) library = dir ? ks_samples_list (dir) : g_ptr_array_new ();
  g_autofree char *path_a = NULL, *path_b = NULL;
  KsSample *a = NULL, *b = NULL;
  g_autoptr(GPtrArray) group = NULL;
  gboolean opened = FALSE;
  KsCompareWindow *w;

  if (n_files != 2)
    {
      g_printerr (_("kernelscope: --compare takes two files or sample folders, not %d\n"),
                  n_files);
      self->exit_status = 2;
      return;
    }
  a = as_sample (library, files[0], &path_a);
  b = as_sample (library, files[1], &path_b);
  w = ks_compare_window_new (NULL);
  gtk_window_set_application (GTK_WINDOW (w), GTK_APPLICATION (self));
  ks_compare_window_set_presentation (w, self->presentation);
  if (a != NULL && b != NULL && g_strv_contains ((const char *const *) a->partners, b->id))
    {
      guint ia = 0;

      group = ks_samples_group (library, a->id, &ia);
      for (guint i = 0; i < group->len && !opened; i++)
        if (g_str_equal (((KsSample *) group->pdata[i])->id, b->id))
          {
            ks_compare_window_open_samples (w, group, ia, i, self->gpu);
            opened = TRUE;
          }
    }
  if (!opened)
    ks_compare_window_open_files (w, path_a, path_b, self->gpu);
  g_clear_pointer (&a, ks_sample_free);
  g_clear_pointer (&b, ks_sample_free);
  if (self->view != NULL)
    ks_compare_window_set_page (w, self->view);
  if (self->screenshot != NULL)
    ks_compare_window_set_screenshot (w, self->screenshot, self->screenshot_width,
                                      self->screenshot_height);
  gtk_window_present (GTK_WINDOW (w));
}

static void
ks_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  KsApplication *self = KS_APPLICATION (app);
  GtkWindow *previous = NULL;

  if (self->compare)
    {
      open_compare (self, files, n_files);
      return;
    }

  for (int i = 0; i < n_files; i++)
    {
      GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
      g_autofree char *name = g_file_get_basename (files[i]);
      gboolean listing = name != NULL && (g_str_has_suffix (name, ".sass")
                                          || g_str_has_suffix (name, ".cuasm")
                                          || g_str_has_suffix (name, ".s")
                                          || g_str_has_suffix (name, ".asm")
                                          || g_str_has_suffix (name, ".cubin"));

      /* The first file goes to the window in front unless it has edits;
       * the others each get a window of their own, but a SASS listing
       * or a cubin joins the kernel before it (kernelscope k.cu k.sass;
       * kernelscope rec/launch-0003.json rec/modules/module-0.sm_89.cubin). */
      if (listing && previous != NULL)
        window = previous;
      else if (window == NULL || i > 0 || ks_window_has_unsaved_changes (KS_WINDOW (window)))
        window = GTK_WINDOW (new_window (self));
      previous = window;
      ks_window_open_file (KS_WINDOW (window), files[i]);
      gtk_window_present (window);
    }
}

static void
ks_application_shutdown (GApplication *app)
{
  KsApplication *self = KS_APPLICATION (app);

  if (self->preferences != NULL)
    gtk_window_destroy (GTK_WINDOW (self->preferences));
  if (self->probe_lab != NULL)
    gtk_window_destroy (GTK_WINDOW (self->probe_lab));
  /* the desktop's own style again, for whatever else runs in this process */
  if (self->settings != NULL && g_settings_get_enum (self->settings, "theme") != 0
      && gtk_settings_get_default () != NULL)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                  self->system_dark, NULL);
  G_APPLICATION_CLASS (ks_application_parent_class)->shutdown (app);
}

static void
ks_application_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  KsApplication *self = KS_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_PRESENTATION_SCALE:
      g_value_set_double (value, self->presentation_scale);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_application_finalize (GObject *object)
{
  KsApplication *self = KS_APPLICATION (object);

  g_clear_pointer (&self->screenshot, g_free);
  g_clear_object (&self->settings);
  g_clear_object (&self->font_css);
  g_clear_pointer (&self->view, g_free);
  g_clear_pointer (&self->gpu, g_free);
  g_clear_pointer (&self->probe_lab_name, g_free);
  g_clear_pointer (&self->probe_instruction, g_free);
  G_OBJECT_CLASS (ks_application_parent_class)->finalize (object);
}

static void
ks_application_class_init (KsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = ks_application_finalize;
  object_class->get_property = ks_application_get_property;
  app_class->handle_local_options = ks_application_handle_local_options;
  app_class->startup = ks_application_startup;
  app_class->shutdown = ks_application_shutdown;
  app_class->activate = ks_application_activate;
  app_class->open = ks_application_open;

  /* How much presentation mode enlarges: the presentation-scale setting,
   * for the views that draw their own text to follow */
  properties[PROP_PRESENTATION_SCALE] =
    g_param_spec_double ("presentation-scale", NULL, NULL, 1.0, 3.0, KS_DEFAULT_PRESENTATION_SCALE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ks_application_init (KsApplication *self)
{
  self->presentation_scale = KS_DEFAULT_PRESENTATION_SCALE;
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Open CUDA (.cu), PTX (.ptx) or launch spec (.json) "
                                              "files and see how a GPU runs the kernel."));
}
