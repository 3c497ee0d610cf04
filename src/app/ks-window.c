/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window.c: the window: its actions, the three source panes and the
 * line linking between them, opening (file chooser, command line, drag and
 * drop, samples), saving, closing with unsaved changes, presentation mode
 * and the screenshot.  The engine thread and the results are in
 * ks-window-run.c. */

#include "ks-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-a11y.h"
#include "ks-application.h"
#include "ks-file.h"
#include "ks-samples.h"

G_DEFINE_FINAL_TYPE (KsWindow, ks_window, GTK_TYPE_APPLICATION_WINDOW)

/* How strongly a linked line is tinted: enough to read across a room in
 * presentation mode, quiet enough to read the code through at a desk.  A
 * projector washes a tint out by about half, so presentation mode's are
 * about twice as strong (the code stays black on them: the Okabe-Ito
 * colours are light enough at these alphas). */
#define LINK_ALPHA 0.32
#define LINK_ALPHA_PRESENTATION 0.6
/* Every mapped line carries a faint tint of its CUDA line's colour, so the
 * correspondence shows at a glance before anything is hovered. */
#define MAP_ALPHA 0.09
#define MAP_ALPHA_PRESENTATION 0.2

typedef enum
{
  FILE_KIND_UNKNOWN,
  FILE_KIND_CUDA,
  FILE_KIND_PTX,
  FILE_KIND_SPEC,
  FILE_KIND_SASS,
  FILE_KIND_CUBIN,
} FileKind;

static FileKind
file_kind (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *lower = name ? g_ascii_strdown (name, -1) : NULL;

  if (lower == NULL)
    return FILE_KIND_UNKNOWN;
  if (g_str_has_suffix (lower, ".cu") || g_str_has_suffix (lower, ".cuh"))
    return FILE_KIND_CUDA;
  if (g_str_has_suffix (lower, ".ptx"))
    return FILE_KIND_PTX;
  if (g_str_has_suffix (lower, ".json"))
    return FILE_KIND_SPEC;
  if (g_str_has_suffix (lower, ".cubin"))
    return FILE_KIND_CUBIN;
  if (g_str_has_suffix (lower, ".sass") || g_str_has_suffix (lower, ".cuasm")
      || g_str_has_suffix (lower, ".s") || g_str_has_suffix (lower, ".asm"))
    return FILE_KIND_SASS;
  return FILE_KIND_UNKNOWN;
}

char *
_ks_window_dup_text (GtkSourceBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (buffer), &start, &end, TRUE);
}

/* Reads a text file: the editor only takes valid UTF-8 without NUL bytes,
 * so anything else is refused with a message rather than shown as junk. */
static char *
load_text (GFile   *file,
           GError **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);
  gsize len = 0;
  const char *end;

  /* A local file through the core's reader: a folder or a missing file
   * said in the user's terms, and a pipe read */
  if (path != NULL ? !ks_file_get_contents (path, &contents, &len, error)
                   : !g_file_load_contents (file, NULL, &contents, &len, NULL, error))
    return NULL;
  if (memchr (contents, '\0', len) != NULL || !g_utf8_validate (contents, (gssize) len, &end))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a text file (it holds binary data or is not UTF-8)"), name);
      return NULL;
    }
  return g_steal_pointer (&contents);
}

static GFile *
sibling_with_suffix (GFile      *file,
                     const char *suffix)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  char *dot;
  g_autofree char *sibling = NULL;
  GFile *result;

  if (name == NULL || parent == NULL)
    return NULL;
  dot = strrchr (name, '.');
  if (dot != NULL)
    *dot = '\0';
  sibling = g_strconcat (name, suffix, NULL);
  result = g_file_get_child (parent, sibling);
  if (!g_file_query_exists (result, NULL))
    g_clear_object (&result);
  return result;
}

/* The CUDA file a PTX file was compiled from: the first .file entry whose
 * name ends in .cu, when it lies beside the PTX, else where the entry says
 * (a recording's PTX, docs/RECORD.md, names the program's own file). */
static GFile *
cuda_from_ptx_text (GFile      *ptx_file,
                    const char *text)
{
  g_autofree char *ptx_path = g_file_get_path (ptx_file);
  const char *p = text;

  while (ptx_path != NULL && (p = strstr (p, ".file")) != NULL)
    {
      const char *q = strchr (p, '"'), *r = q ? strchr (q + 1, '"') : NULL;

      p += 5;
      if (q != NULL && r != NULL && r - q > 4 && strncmp (r - 3, ".cu", 3) == 0)
        {
          g_autofree char *path = g_strndup (q + 1, (gsize) (r - q - 1));
          g_autofree char *found = ks_file_find_source (ptx_path, path);

          if (found != NULL)
            return g_file_new_for_path (found);
        }
    }
  return NULL;
}

static void
set_buffer_text (GtkSourceBuffer *buffer,
                 const char      *text)
{
  GtkTextIter start;

  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), text ? text : "", -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (buffer), &start);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (buffer), FALSE);
}

void
_ks_window_show_message (KsWindow   *self,
                         const char *message)
{
  self->export_message_shown = FALSE;
  if (message == NULL)
    {
      gtk_revealer_set_reveal_child (self->message_revealer, FALSE);
      return;
    }
  gtk_label_set_text (self->message_label, message);
  gtk_revealer_set_reveal_child (self->message_revealer, TRUE);
}

/* ---------------------------------------------------------------------- */
/* Titles */

static void
set_file_label (GtkLabel        *label,
                GFile           *file,
                GtkSourceBuffer *buffer)
{
  g_autofree char *name = file ? g_file_get_basename (file) : NULL;
  gboolean modified = buffer && gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (buffer));
  g_autofree char *text = g_strdup_printf ("%s%s", name ? name : "", modified ? " •" : "");

  gtk_label_set_text (label, text);
  if (file != NULL)
    {
      g_autofree char *parse = g_file_get_parse_name (file);

      gtk_widget_set_tooltip_text (GTK_WIDGET (label), parse);
    }
}

static void
update_titles (KsWindow *self)
{
  GFile *main_file = self->cuda_file ? self->cuda_file : self->ptx_file;
  g_autofree char *name = main_file ? g_file_get_basename (main_file) : NULL;
  g_autofree char *title = NULL;
  gboolean modified = ks_window_has_unsaved_changes (self);

  title = g_strdup_printf ("%s%s", modified ? "• " : "", name ? name : "KernelScope");
  gtk_label_set_text (self->title_label, title);
  {
    g_autofree char *win_title = name ? g_strdup_printf ("%s – KernelScope", name)
                                      : g_strdup ("KernelScope");

    gtk_window_set_title (GTK_WINDOW (self), win_title);
  }
  if (self->launch != NULL && self->launch->kernel != NULL)
    {
      gtk_label_set_text (self->subtitle_label, self->launch->kernel);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), !self->presentation);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);

  set_file_label (self->cuda_file_label, self->cuda_file, self->cuda_buffer);
  set_file_label (self->ptx_file_label, self->ptx_file, self->ptx_buffer);
  if (self->sass_live)
    _ks_window_sass_update_label (self);
  else
    set_file_label (self->sass_file_label, self->sass_file, NULL);
}

void
_ks_window_update_titles (KsWindow *self)
{
  update_titles (self);
}

void
_ks_window_format_dim3 (GString        *s,
                        const uint32_t  d[3])
{
  if (d[1] == 1 && d[2] == 1)
    g_string_append_printf (s, "%u", d[0]);
  else if (d[2] == 1)
    g_string_append_printf (s, "(%u, %u)", d[0], d[1]);
  else
    g_string_append_printf (s, "(%u, %u, %u)", d[0], d[1], d[2]);
}

void
_ks_window_show_launch (KsWindow       *self,
                        const KsLaunch *launch,
                        gboolean        is_default)
{
  g_autoptr(GString) s = g_string_new ("<<<");

  if (launch == NULL)
    {
      gtk_label_set_text (self->launch_label, _("no launch spec"));
      return;
    }
  _ks_window_format_dim3 (s, launch->grid);
  g_string_append (s, ", ");
  _ks_window_format_dim3 (s, launch->block);
  if (launch->dynamic_shared_bytes)
    g_string_append_printf (s, ", %u", launch->dynamic_shared_bytes);
  g_string_append (s, self->launch_modified ? ">>> •" : ">>>");
  gtk_label_set_text (self->launch_label, s->str);
  {
    g_autofree char *tip = g_strdup_printf ("%s\n%s",
                                            is_default ? _("No launch spec: a default launch (grid "
                                                           "and block) with zero-filled buffers")
                                                       : _("The launch: grid and block, from the "
                                                           "launch spec"),
                                            _("Click to edit it (Ctrl+L)"));

    gtk_widget_set_tooltip_text (GTK_WIDGET (self->launch_button), tip);
  }
  _ks_window_launch_steps_update (self);
}

static void
update_launch_label (KsWindow *self)
{
  _ks_window_show_launch (self, self->launch, FALSE);
}

void
_ks_window_show_compiled_ptx (KsWindow   *self,
                              const char *ptx_text)
{
  g_autofree char *old = _ks_window_dup_text (self->ptx_buffer);

  if (g_strcmp0 (old, ptx_text) == 0)
    return;
  self->loading = TRUE;
  set_buffer_text (self->ptx_buffer, ptx_text);
  self->loading = FALSE;
}

gboolean
ks_window_has_unsaved_changes (KsWindow *self)
{
  g_return_val_if_fail (KS_IS_WINDOW (self), FALSE);
  return gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->cuda_buffer))
         || gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->ptx_buffer))
         || self->launch_modified;
}

/* Typing runs the analysis again once it pauses: each keystroke restarts
 * the wait, and a new run cancels the one before it. */
#define EDIT_PAUSE_MS 900
/* A new text or font is laid out over several frames, the lines above the
 * selection last: for this long the panes follow the selection's lines */
#define KEEP_IN_SIGHT_US (3 * G_USEC_PER_SEC)

static gboolean
edit_pause_cb (gpointer data)
{
  KsWindow *self = KS_WINDOW (data);

  self->edit_timeout_id = 0;
  _ks_window_run (self);
  return G_SOURCE_REMOVE;
}

static void
text_changed_cb (KsWindow      *self,
                 GtkTextBuffer *buffer)
{
  if (self->loading)
    return;
  /* an edit is the user's lead: the run it makes keeps their place */
  self->lesson_pending = FALSE;
  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  self->edit_timeout_id = g_timeout_add (EDIT_PAUSE_MS, edit_pause_cb, self);
}

static void
modified_changed_cb (KsWindow      *self,
                     GtkTextBuffer *buffer)
{
  update_titles (self);
}

/* ---------------------------------------------------------------------- */
/* Linking the panes */

static void
clear_tags (GtkSourceBuffer *buffer,
            const char      *prefix)
{
  GtkTextIter start, end;
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (buffer));

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  for (guint i = 0; i < KS_LINE_MAP_N_COLOURS; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u", prefix, i);
      GtkTextTag *tag = gtk_text_tag_table_lookup (table, name);

      if (tag != NULL)
        gtk_text_buffer_remove_tag (GTK_TEXT_BUFFER (buffer), tag, &start, &end);
    }
}

static void
tint_line (GtkSourceBuffer *buffer,
           guint            line,
           const char      *tag)
{
  GtkTextIter start, end;

  if (line == 0 || line > (guint) gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer)))
    return;
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &start, (int) line - 1);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  gtk_text_iter_forward_char (&end);
  gtk_text_buffer_apply_tag_by_name (GTK_TEXT_BUFFER (buffer), tag, &start, &end);
}

/* The faint tint of every mapped line in both panes */
static void
tint_all (KsWindow *self)
{
  const uint32_t *cuda_lines;
  uint32_t n_cuda = 0;

  clear_tags (self->cuda_buffer, "ks-map");
  clear_tags (self->ptx_buffer, "ks-map");
  clear_tags (self->sass_buffer, "ks-map");
  if (self->line_map == NULL)
    return;
  cuda_lines = ks_line_map_cuda_lines (self->line_map, &n_cuda);
  for (uint32_t i = 0; i < n_cuda; i++)
    {
      uint32_t colour = ks_line_map_colour (self->line_map, cuda_lines[i]);
      g_autofree char *name = g_strdup_printf ("ks-map-%u", colour);
      const uint32_t *ptx_lines;
      uint32_t n = 0;

      tint_line (self->cuda_buffer, cuda_lines[i], name);
      ptx_lines = ks_line_map_ptx_lines (self->line_map, cuda_lines[i], &n);
      for (uint32_t k = 0; k < n; k++)
        tint_line (self->ptx_buffer, ptx_lines[k], name);
      ptx_lines = ks_line_map_sass_lines (self->line_map, cuda_lines[i], &n);
      for (uint32_t k = 0; k < n; k++)
        tint_line (self->sass_buffer, ptx_lines[k], name);
    }
}

GtkTextMark *
_ks_window_line_mark (GtkSourceView *view,
                      const char    *name,
                      guint          line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextMark *mark = gtk_text_buffer_get_mark (buffer, name);
  GtkTextIter iter;

  if (line == 0)
    return NULL;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) line - 1);
  if (mark == NULL)
    mark = gtk_text_buffer_create_mark (buffer, name, &iter, TRUE);
  else
    gtk_text_buffer_move_mark (buffer, mark, &iter);
  return mark;
}

static void
scroll_to_line (GtkSourceView *view,
                guint          line)
{
  GtkTextMark *mark = _ks_window_line_mark (view, "ks-scroll", line);

  /* Through a mark: the view scrolls once its line heights are known, which
   * they are not yet right after a file is loaded.  The least scrolling that
   * shows the line, with a few lines of context. */
  if (mark != NULL)
    gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (view), mark, 0.25, FALSE, 0, 0);
}

/* Lights up CUDA line cuda_line and its PTX lines in its colour, and
 * scrolls the panes that did not ask for it to them. */
static void
highlight (KsWindow *self,
           guint     cuda_line,
           gboolean  scroll_cuda,
           gboolean  scroll_ptx)
{
  const uint32_t *ptx_lines;
  uint32_t n = 0, colour;
  g_autofree char *name = NULL;

  clear_tags (self->cuda_buffer, "ks-link");
  clear_tags (self->ptx_buffer, "ks-link");
  clear_tags (self->sass_buffer, "ks-link");
  if (self->line_map == NULL || cuda_line == 0)
    return;
  colour = ks_line_map_colour (self->line_map, cuda_line);
  if (colour == KS_LINE_MAP_NO_COLOUR)
    return;
  name = g_strdup_printf ("ks-link-%u", colour);
  tint_line (self->cuda_buffer, cuda_line, name);
  ptx_lines = ks_line_map_ptx_lines (self->line_map, cuda_line, &n);
  for (uint32_t i = 0; i < n; i++)
    tint_line (self->ptx_buffer, ptx_lines[i], name);
  if (scroll_cuda)
    scroll_to_line (self->cuda_view, cuda_line);
  if (scroll_ptx && n > 0)
    scroll_to_line (self->ptx_view, ptx_lines[0]);
  /* SASS follows whichever pane asked */
  ptx_lines = ks_line_map_sass_lines (self->line_map, cuda_line, &n);
  for (uint32_t i = 0; i < n; i++)
    tint_line (self->sass_buffer, ptx_lines[i], name);
  if (n > 0 && !self->sass_asked)
    scroll_to_line (self->sass_view, ptx_lines[0]);
}

static guint
cursor_line (GtkSourceBuffer *buffer)
{
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (GTK_TEXT_BUFFER (buffer), &iter,
                                    gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (buffer)));
  return (guint) gtk_text_iter_get_line (&iter) + 1;
}

static void
cuda_cursor_cb (KsWindow   *self,
                GParamSpec *pspec,
                GtkTextBuffer *buffer)
{
  /* Loading a file moves the cursor too; that selects nothing */
  if (self->loading)
    return;
  self->selected_cuda_line = cursor_line (self->cuda_buffer);
  highlight (self, self->selected_cuda_line, FALSE, TRUE);
}

static void
ptx_cursor_cb (KsWindow      *self,
               GParamSpec    *pspec,
               GtkTextBuffer *buffer)
{
  if (self->loading || self->line_map == NULL)
    return;
  self->selected_cuda_line = ks_line_map_cuda_line (self->line_map, cursor_line (self->ptx_buffer));
  highlight (self, self->selected_cuda_line, TRUE, FALSE);
}

static guint
line_at (GtkSourceView *view,
         double         x,
         double         y)
{
  GtkTextIter iter;
  int bx, by;

  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET,
                                         (int) x, (int) y, &bx, &by);
  gtk_text_view_get_line_at_y (GTK_TEXT_VIEW (view), &iter, by, NULL);
  return (guint) gtk_text_iter_get_line (&iter) + 1;
}

static void
cuda_motion_cb (KsWindow                 *self,
                double                    x,
                double                    y,
                GtkEventControllerMotion *motion)
{
  guint line = line_at (self->cuda_view, x, y);

  if (line == self->hover_cuda_line)
    return;
  self->hover_cuda_line = line;
  highlight (self, line, FALSE, TRUE);
}

static void
ptx_motion_cb (KsWindow                 *self,
               double                    x,
               double                    y,
               GtkEventControllerMotion *motion)
{
  guint line;

  if (self->line_map == NULL)
    return;
  line = ks_line_map_cuda_line (self->line_map, line_at (self->ptx_view, x, y));
  if (line == self->hover_cuda_line)
    return;
  self->hover_cuda_line = line;
  highlight (self, line, TRUE, FALSE);
}

static void
sass_motion_cb (KsWindow                 *self,
                double                    x,
                double                    y,
                GtkEventControllerMotion *motion)
{
  guint line;

  if (self->line_map == NULL)
    return;
  line = ks_line_map_cuda_line_of_sass (self->line_map, line_at (self->sass_view, x, y));
  if (line == self->hover_cuda_line)
    return;
  self->hover_cuda_line = line;
  self->sass_asked = TRUE;
  highlight (self, line, TRUE, TRUE);
  self->sass_asked = FALSE;
}

static void
sass_cursor_cb (KsWindow      *self,
                GParamSpec    *pspec,
                GtkTextBuffer *buffer)
{
  if (self->loading || self->line_map == NULL)
    return;
  self->selected_cuda_line = ks_line_map_cuda_line_of_sass (self->line_map,
                                                            cursor_line (self->sass_buffer));
  self->sass_asked = TRUE;
  highlight (self, self->selected_cuda_line, TRUE, TRUE);
  self->sass_asked = FALSE;
}

static void
motion_leave_cb (KsWindow                 *self,
                 GtkEventControllerMotion *motion)
{
  /* Back to what the cursor selected */
  self->hover_cuda_line = 0;
  highlight (self, self->selected_cuda_line, FALSE, FALSE);
}

void
_ks_window_set_line_map (KsWindow  *self,
                         KsLineMap *map)
{
  g_clear_pointer (&self->line_map, ks_line_map_free);
  self->line_map = map;
  if (map != NULL)
    {
      g_autofree char *base = self->cuda_file ? g_file_get_basename (self->cuda_file) : NULL;

      ks_line_map_set_sass (map, self->sass_listing, base);
    }
  tint_all (self);
  highlight (self, self->hover_cuda_line ? self->hover_cuda_line : self->selected_cuda_line,
             FALSE, FALSE);
}

/* The map of the PTX text in the pane, parsed here: nvcc's PTX for one
 * file is small and parses at 100 MB/s, and the panes link before a run. */
static void
rebuild_line_map (KsWindow *self)
{
  g_autofree char *text = _ks_window_dup_text (self->ptx_buffer);
  gsize len = strlen (text);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&text), len);
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse (bytes, "ptx");
  g_autofree char *base = self->cuda_file ? g_file_get_basename (self->cuda_file) : NULL;

  _ks_window_set_line_map (self, ks_line_map_new (module, base));
}

void
_ks_window_show_line (KsWindow *self,
                      gboolean  cuda,
                      guint     line)
{
  GtkSourceView *view = cuda ? self->cuda_view : self->ptx_view;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter iter;

  if (line == 0)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) line - 1);
  /* The cursor moves, the keyboard focus does not: a view that selected an
   * instruction keeps its keys ("+" zooms the timeline, and is never typed
   * into the PTX) */
  gtk_text_buffer_place_cursor (buffer, &iter);
  self->selected_cuda_line = cuda ? line
                             : self->line_map ? ks_line_map_cuda_line (self->line_map, line) : 0;
  highlight (self, self->selected_cuda_line, TRUE, TRUE);
  scroll_to_line (view, line);
}

static void
scroll_to_selection (KsWindow *self)
{
  const uint32_t *lines;
  uint32_t n = 0;

  if (self->selected_cuda_line == 0 || self->line_map == NULL)
    return;
  scroll_to_line (self->cuda_view, self->selected_cuda_line);
  lines = ks_line_map_ptx_lines (self->line_map, self->selected_cuda_line, &n);
  if (n > 0)
    scroll_to_line (self->ptx_view, lines[0]);
  lines = ks_line_map_sass_lines (self->line_map, self->selected_cuda_line, &n);
  if (n > 0)
    scroll_to_line (self->sass_view, lines[0]);
}

static gboolean
scroll_to_selection_idle (gpointer data)
{
  KsWindow *self = KS_WINDOW (data);

  self->keep_in_sight_idle = 0;
  scroll_to_selection (self);
  return G_SOURCE_REMOVE;
}

/* Each pane's height changes as its lines get their real heights: while
 * the selection is to stay in sight, the panes scroll to it again.  Not
 * here: the height changes inside the text view's allocation, and
 * scrolling there made GTK 4.8 snapshot a pane's parts that the layout
 * had not allocated ("Trying to snapshot GtkGizmo without a current
 * allocation"); from an idle, after the layout */
static void
pane_height_cb (KsWindow      *self,
                GParamSpec    *pspec,
                GtkAdjustment *adjustment)
{
  if (g_get_monotonic_time () <= self->keep_in_sight_until && self->keep_in_sight_idle == 0)
    self->keep_in_sight_idle = g_idle_add_full (G_PRIORITY_LOW, scroll_to_selection_idle,
                                                self, NULL);
}

void
_ks_window_keep_selection_in_sight (KsWindow *self)
{
  self->keep_in_sight_until = g_get_monotonic_time () + KEEP_IN_SIGHT_US;
  scroll_to_selection (self);
}

void
_ks_window_select_cuda_line (KsWindow *self,
                             guint     cuda_line)
{
  self->selected_cuda_line = cuda_line;
  highlight (self, cuda_line, TRUE, TRUE);
}

static void
create_tags (GtkSourceBuffer *buffer,
             const char      *prefix,
             double           alpha)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (buffer));

  for (guint i = 0; i < KS_LINE_MAP_N_COLOURS; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u", prefix, i);
      GtkTextTag *tag = gtk_text_tag_table_lookup (table, name);
      GdkRGBA rgba;

      gdk_rgba_parse (&rgba, ks_line_map_palette (i));
      rgba.alpha = (float) alpha;
      if (tag == NULL)
        tag = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (buffer), name, NULL);
      g_object_set (tag, "paragraph-background-rgba", &rgba, NULL);
    }
}

/* The faint tints first: a tag made later wins where both apply */
static void
create_link_tags (KsWindow        *self,
                  GtkSourceBuffer *buffer)
{
  create_tags (buffer, "ks-map", self->presentation ? MAP_ALPHA_PRESENTATION : MAP_ALPHA);
  create_tags (buffer, "ks-link", self->presentation ? LINK_ALPHA_PRESENTATION : LINK_ALPHA);
}

/* ---------------------------------------------------------------------- */
/* Style schemes */

static gboolean
prefers_dark (KsWindow *self)
{
  GtkSettings *settings = gtk_widget_get_settings (GTK_WIDGET (self));
  gboolean dark = FALSE;
  g_autofree char *theme = NULL;

  const char *env = g_getenv ("GTK_THEME");

  /* The theme setting, when it is not "system", decides */
  if (self->settings != NULL && g_settings_get_enum (self->settings, "theme") != 0)
    return g_settings_get_enum (self->settings, "theme") == 2;
  g_object_get (settings, "gtk-application-prefer-dark-theme", &dark, "gtk-theme-name", &theme, NULL);
  /* GTK 4.8 has no color-scheme setting of its own: a dark theme shows in
   * its name, or in GTK_THEME=Name:dark */
  return dark || (theme != NULL && g_str_has_suffix (theme, "-dark"))
         || (env != NULL && g_str_has_suffix (env, ":dark"));
}

static void
update_scheme (KsWindow *self)
{
  GtkSourceStyleSchemeManager *sm = gtk_source_style_scheme_manager_get_default ();
  const char *id = self->presentation ? "kernelscope-contrast"
                   : prefers_dark (self) ? "kernelscope-dark" : "kernelscope";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (sm, id);

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (sm, prefers_dark (self) ? "Adwaita-dark"
                                                                                : "Adwaita");
  gtk_source_buffer_set_style_scheme (self->cuda_buffer, scheme);
  gtk_source_buffer_set_style_scheme (self->ptx_buffer, scheme);
  gtk_source_buffer_set_style_scheme (self->sass_buffer, scheme);
  create_link_tags (self, self->cuda_buffer);
  create_link_tags (self, self->ptx_buffer);
  create_link_tags (self, self->sass_buffer);
}

static void
theme_changed_cb (KsWindow   *self,
                  const char *key,
                  GSettings  *settings)
{
  update_scheme (self);
}

/* A new font size moves every line: the lines linked to the selection go
 * out of sight unless the panes scroll to them again (the application
 * loads the new style on the same change) */
static void
font_size_changed_cb (KsWindow   *self,
                      const char *key,
                      GSettings  *settings)
{
  _ks_window_keep_selection_in_sight (self);
}

static void
settings_changed_cb (KsWindow    *self,
                     GParamSpec  *pspec,
                     GtkSettings *settings)
{
  update_scheme (self);
}

/* ---------------------------------------------------------------------- */
/* Opening */

/* Replaces what the window shows with the files; each may be NULL.  Texts
 * were read before, so nothing here can fail half-way. */
static void
show_files (KsWindow   *self,
            GFile      *cuda_file,
            const char *cuda_text,
            GFile      *ptx_file,
            const char *ptx_text,
            GFile      *spec_file,
            KsLaunch   *launch)
{
  self->loading = TRUE;
  g_set_object (&self->cuda_file, cuda_file);
  g_set_object (&self->ptx_file, ptx_file);
  g_set_object (&self->spec_file, spec_file);
  g_clear_pointer (&self->launch, ks_launch_free);
  self->launch = launch;
  set_buffer_text (self->cuda_buffer, cuda_text);
  set_buffer_text (self->ptx_buffer, ptx_text);
  self->selected_cuda_line = 0;
  self->hover_cuda_line = 0;
  self->loading = FALSE;
  /* The first run shows what the file teaches (a sample's "focus", else
   * its top hint), once */
  {
    GFile *any = spec_file ? spec_file : ptx_file ? ptx_file : cuda_file;
    g_autofree char *path = any ? g_file_get_path (any) : NULL;

    self->lesson = self->samples ? ks_samples_find_for_file (self->samples, path) : NULL;
    self->lesson_pending = TRUE;
  }
  /* A listing (opened or made) was the last kernel's; this one's comes
   * with its run */
  _ks_window_sass_forget (self);
  _ks_window_launch_opened (self);

  rebuild_line_map (self);
  update_titles (self);
  update_launch_label (self);
  _ks_window_show_message (self, NULL);
  _ks_window_record_update (self);
  _ks_window_run (self);
}

/* With no SASS to be had, the SASS pane folds to a narrow bar that says
 * why (a projector hides even that), and CUDA and PTX share the width;
 * a pane with something to show or to offer (a GPU whose SASS ships) is
 * whole */
void
_ks_window_update_sass_pane (KsWindow *self)
{
  gboolean has = self->sass_file != NULL || self->sass_live;
  gboolean folded = !has && self->sass_nothing && !self->sass_unfolded;
  gboolean show = !self->presentation || has || self->sass_offer_gpu != NULL;
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height;

  /* (GTK 4.8 wants both pointers) */
  if (width <= 0)
    gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (!show || folded)
    _ks_window_sass_stop_scrolling (self);
  _ks_window_sass_update_folded_label (self);
  _ks_window_sass_update_column (self);
  gtk_widget_set_visible (self->sass_pane, show);
  _ks_window_sass_set_folded (self, show && folded);
  /* CUDA gets two fifths of the width beside PTX and SASS (which share
   * the rest), half beside PTX, or beside PTX and the folded bar */
  if (width > 0)
    {
      if (!show)
        gtk_paned_set_position (self->source_paned, width / 2);
      else if (folded)
        {
          int bar = 0;

          gtk_widget_measure (self->sass_pane, GTK_ORIENTATION_HORIZONTAL, -1, &bar, NULL, NULL, NULL);
          gtk_paned_set_position (self->source_paned, (width - bar) / 2);
          /* as far right as the bar's minimum lets it (GtkPaned clamps) */
          gtk_paned_set_position (self->asm_paned, width);
        }
      else
        {
          gtk_paned_set_position (self->source_paned, width * 2 / 5);
          gtk_paned_set_position (self->asm_paned, (width - width * 2 / 5) / 2);
        }
    }
}

/* Ends the SASS pane's scrolling animation where it is.  GTK 4.8 ends an
 * animation still running when its scrolled window is unmapped by setting
 * the target value, whose value-changed handlers stop it a second time:
 * g_signal_handler_disconnect's critical.  A run's results scroll the pane
 * to the focus line and may then hide it (a GPU with no SASS) at once. */
void
_ks_window_sass_stop_scrolling (KsWindow *self)
{
  GtkAdjustment *adjustments[2] = {
    gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->sass_view)),
    gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->sass_view)),
  };

  for (guint i = 0; i < G_N_ELEMENTS (adjustments); i++)
    if (adjustments[i] != NULL)
      gtk_adjustment_set_value (adjustments[i], gtk_adjustment_get_value (adjustments[i]));
}

void
_ks_window_set_sass (KsWindow      *self,
                     GFile         *file,
                     const char    *text,
                     KsSassListing *listing)
{
  /* laid out for the pane: the same lines, without the tools' wide blanks */
  _ks_window_set_sass_shown (self, file, text != NULL ? ks_sass_display_text (text, -1) : NULL,
                             listing);
}

void
_ks_window_set_sass_shown (KsWindow      *self,
                           GFile         *file,
                           char          *shown_text,
                           KsSassListing *listing)
{
  g_autofree char *old = _ks_window_dup_text (self->sass_buffer);
  g_autofree char *shown = shown_text;
  gboolean has_text = shown != NULL;

  g_set_object (&self->sass_file, file);
  self->sass_live = file == NULL && has_text;
  /* The same listing again (a run for the same GPU) keeps its scrolling */
  if (g_strcmp0 (old, shown ? shown : "") != 0)
    {
      self->loading = TRUE;
      set_buffer_text (self->sass_buffer, shown);
      self->loading = FALSE;
    }
  g_clear_pointer (&self->sass_listing, ks_sass_listing_free);
  self->sass_listing = listing;
  if (self->line_map != NULL)
    {
      g_autofree char *base = self->cuda_file ? g_file_get_basename (self->cuda_file) : NULL;

      ks_line_map_set_sass (self->line_map, self->sass_listing, base);
      tint_all (self);
      highlight (self, self->hover_cuda_line ? self->hover_cuda_line : self->selected_cuda_line,
                 FALSE, FALSE);
    }
  _ks_window_sass_update_column (self);
  if (!has_text)
    _ks_window_sass_stop_scrolling (self);
  gtk_stack_set_visible_child_name (self->sass_stack, has_text ? "listing" : "placeholder");
  if (has_text)
    {
      self->sass_nothing = FALSE;
      g_clear_pointer (&self->sass_offer_gpu, g_free);
      gtk_widget_set_visible (GTK_WIDGET (self->sass_placeholder_button), FALSE);
    }
  _ks_window_update_sass_pane (self);
  update_titles (self);
}

static gboolean
open_sass (KsWindow *self,
           GFile    *file,
           GError  **error)
{
  g_autofree char *text = load_text (file, error);
  g_autofree char *name = NULL;
  g_autoptr(GError) parse_error = NULL;
  KsSassListing *listing;

  if (text == NULL)
    return FALSE;
  name = g_file_get_basename (file);
  /* Unreadable as a listing: shown, but not linked */
  listing = ks_sass_parse (text, strlen (text), name, &parse_error);
  if (listing == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("The SASS listing is shown but not linked: %s"),
                                              parse_error->message);

      _ks_window_show_message (self, msg);
    }
  _ks_window_set_sass (self, file, text, listing);
  return TRUE;
}

static gboolean
open_file (KsWindow *self,
           GFile    *file,
           GError  **error)
{
  FileKind kind = file_kind (file);
  g_autoptr(GFile) cuda_file = NULL, ptx_file = NULL, spec_file = NULL;
  g_autofree char *cuda_text = NULL, *ptx_text = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autofree char *name = g_file_get_parse_name (file);

  /* A recording's folder opens at its first launch (docs/RECORD.md) */
  {
    g_autofree char *path = g_file_get_path (file);

    if (path != NULL && g_file_test (path, G_FILE_TEST_IS_DIR))
      {
        g_autoptr(GFile) first = _ks_window_record_first_launch (file);

        if (first == NULL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                         _("%s is a folder and not a recording (kernelscope-cli record's, "
                           "with a launches.json); open a .cu, .ptx, .json or listing file"),
                         name);
            return FALSE;
          }
        return open_file (self, first, error);
      }
  }

  /* A file that is not there, whatever its name */
  {
    g_autofree char *path = g_file_get_path (file);

    if (path != NULL && !ks_file_check_input (path, error))
      return FALSE;
  }

  /* A cubin by its content, whatever its name */
  if (kind == FILE_KIND_CUBIN || ((kind == FILE_KIND_SASS || kind == FILE_KIND_UNKNOWN)
                                  && _ks_window_file_is_cubin (file)))
    return _ks_window_open_cubin (self, file, error);

  switch (kind)
    {
    case FILE_KIND_SASS:
      return open_sass (self, file, error);

    case FILE_KIND_SPEC:
      {
        g_autofree char *path = g_file_get_path (file);

        if (path == NULL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         _("%s: launch specs must be local files"), name);
            return FALSE;
          }
        /* (a sequence of launches runs in turn; the views show one) */
        launch = ks_launch_load (path, error);
        if (launch == NULL)
          return FALSE;
        spec_file = g_object_ref (file);
        if (launch->ptx_path != NULL)
          ptx_file = g_file_new_for_path (launch->ptx_path);
        if (launch->source_path != NULL)
          cuda_file = g_file_new_for_path (launch->source_path);
        /* a recorded launch (its folder has the recording's launches.json):
         * its module holds every kernel of the program, so the panes go to
         * the one launched when its result comes */
        {
          g_autofree char *dir = g_path_get_dirname (path);
          g_autofree char *index = g_build_filename (dir, "launches.json", NULL);

          if (launch->kernel != NULL && g_file_test (index, G_FILE_TEST_IS_REGULAR))
            self->launch_step_chosen = TRUE;
        }
      }
      break;

    case FILE_KIND_CUDA:
      cuda_file = g_object_ref (file);
      ptx_file = sibling_with_suffix (file, ".ptx");
      spec_file = sibling_with_suffix (file, ".json");
      break;

    case FILE_KIND_PTX:
      ptx_file = g_object_ref (file);
      spec_file = sibling_with_suffix (file, ".json");
      break;

    case FILE_KIND_UNKNOWN:
    case FILE_KIND_CUBIN:
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s is not a file KernelScope opens: it opens CUDA (.cu), PTX (.ptx), launch "
                     "specs (.json), SASS listings (.sass) and cubins (.cubin)"), name);
      return FALSE;
    }

  /* The file asked for must read; the ones beside it are a bonus */
  if (kind == FILE_KIND_CUDA || (kind == FILE_KIND_SPEC && cuda_file != NULL && ptx_file == NULL))
    {
      cuda_text = load_text (cuda_file, error);
      if (cuda_text == NULL)
        return FALSE;
    }
  if (ptx_file != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      ptx_text = load_text (ptx_file, kind == FILE_KIND_CUDA ? &local_error : error);
      if (ptx_text == NULL && kind != FILE_KIND_CUDA)
        return FALSE;
      if (ptx_text == NULL)
        g_clear_object (&ptx_file);
    }
  if (cuda_file == NULL && ptx_file != NULL && ptx_text != NULL)
    {
      cuda_file = sibling_with_suffix (ptx_file, ".cu");
      if (cuda_file == NULL)
        cuda_file = cuda_from_ptx_text (ptx_file, ptx_text);
    }
  if (cuda_file != NULL && cuda_text == NULL)
    {
      cuda_text = load_text (cuda_file, NULL);
      if (cuda_text == NULL)
        g_clear_object (&cuda_file);
    }
  if (launch == NULL && spec_file != NULL)
    {
      g_autofree char *path = g_file_get_path (spec_file);
      g_autoptr(GError) spec_error = NULL;

      /* A .json beside the kernel that is not a launch spec is not ours */
      launch = path ? ks_launch_load (path, &spec_error) : NULL;
      if (launch == NULL)
        g_clear_object (&spec_file);
    }

  show_files (self, cuda_file, cuda_text, ptx_file, ptx_text, spec_file, g_steal_pointer (&launch));
  return TRUE;
}

static void
open_and_report (KsWindow *self,
                 GFile    *file,
                 gboolean  remember)
{
  g_autoptr(GError) error = NULL;

  if (!open_file (self, file, &error))
    {
      _ks_window_show_message (self, error->message);
      if (self->screenshot_path != NULL)
        {
          /* A screenshot is taken from a script: say why there too */
          g_printerr ("kernelscope: %s\n", error->message);
          self->screenshot_refused = TRUE;
        }
    }
  else if (remember)
    _ks_window_recent_add (self, file);
  /* No run to wait for (the file was refused, or it has nothing to run) */
  if (self->run_cancellable == NULL)
    _ks_window_screenshot_soon (self);
}

void
ks_window_open_file (KsWindow *self,
                     GFile    *file)
{
  g_return_if_fail (KS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  open_and_report (self, file, TRUE);
}

void
ks_window_open_first_sample (KsWindow *self)
{
  const KsSample *sample;
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (KS_IS_WINDOW (self));

  if (self->samples == NULL || self->samples->len == 0)
    {
      _ks_window_show_message (self, _("The sample library was not found: open a CUDA or PTX file, "
                                       "or set KS_DATA_DIR to KernelScope's data folder"));
      return;
    }
  sample = g_ptr_array_index (self->samples, 0);
  file = g_file_new_for_path (sample->spec_path ? sample->spec_path
                              : sample->cuda_path ? sample->cuda_path : sample->ptx_path);
  /* what the window shows at start is not one the user opened */
  open_and_report (self, file, FALSE);
}

/* Opening in a window with edits opens a new window, so no edit is lost */
static void
open_here_or_new (KsWindow *self,
                  GFile    *file)
{
  KsWindow *target = self;

  if (ks_window_has_unsaved_changes (self))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      target = ks_window_new (app);
      g_object_set (target, "presentation", self->presentation, NULL);
      gtk_window_present (GTK_WINDOW (target));
    }
  ks_window_open_file (target, file);
}

void
_ks_window_open (KsWindow *self,
                 GFile    *file)
{
  open_here_or_new (self, file);
}

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  KsWindow *self = KS_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        open_here_or_new (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *const *patterns)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i]; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);
  GtkFileChooserNative *native;
  static const char *const all[] = { "*.cu", "*.cuh", "*.ptx", "*.json", "*.sass", "*.cuasm", "*.s",
                                     "*.asm", "*.cubin", NULL };
  static const char *const cuda[] = { "*.cu", "*.cuh", NULL };
  static const char *const ptx[] = { "*.ptx", NULL };
  static const char *const spec[] = { "*.json", NULL };
  static const char *const sass[] = { "*.sass", "*.cuasm", "*.s", "*.asm", "*.cubin", NULL };

  native = gtk_file_chooser_native_new (_("Open a Kernel"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_filter (GTK_FILE_CHOOSER (native), _("Kernels and launch specs"), all);
  add_filter (GTK_FILE_CHOOSER (native), _("CUDA source"), cuda);
  add_filter (GTK_FILE_CHOOSER (native), _("PTX"), ptx);
  add_filter (GTK_FILE_CHOOSER (native), _("Launch specs"), spec);
  add_filter (GTK_FILE_CHOOSER (native), _("SASS listings"), sass);
  if (self->cuda_file != NULL || self->ptx_file != NULL)
    {
      g_autoptr(GFile) dir = g_file_get_parent (self->cuda_file ? self->cuda_file : self->ptx_file);

      if (dir != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), dir, NULL);
    }
  g_signal_connect (native, "response", G_CALLBACK (chooser_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         gpointer       user_data)
{
  KsWindow *self = KS_WINDOW (user_data);

  g_autoptr(GSList) files = NULL;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = gdk_file_list_get_files (g_value_get_boxed (value));
  for (GSList *l = files; l != NULL; l = l->next)
    open_here_or_new (self, G_FILE (l->data));
  return files != NULL;
}

/* ---------------------------------------------------------------------- */
/* Samples */

static void
sample_activated_cb (KsWindow      *self,
                     GtkListBoxRow *row,
                     GtkListBox    *list)
{
  const KsSample *sample;
  g_autoptr(GFile) file = NULL;
  int i = gtk_list_box_row_get_index (row);

  gtk_popover_popdown (self->samples_popover);
  if (self->samples == NULL || i < 0 || (guint) i >= self->samples->len)
    return;
  sample = g_ptr_array_index (self->samples, i);
  file = g_file_new_for_path (sample->spec_path ? sample->spec_path
                              : sample->cuda_path ? sample->cuda_path : sample->ptx_path);
  open_here_or_new (self, file);
}

/* The search keeps the rows whose sample answers what is typed */
static gboolean
sample_filter (GtkListBoxRow *row,
               gpointer       user_data)
{
  KsWindow *self = user_data;
  int i = gtk_list_box_row_get_index (row);

  if (self->samples == NULL || i < 0 || (guint) i >= self->samples->len)
    return FALSE;
  return ks_sample_matches (g_ptr_array_index (self->samples, i),
                            gtk_editable_get_text (GTK_EDITABLE (self->samples_search)));
}

static void
samples_search_changed_cb (KsWindow       *self,
                           GtkSearchEntry *entry)
{
  gtk_list_box_invalidate_filter (self->samples_list);
}

/* Enter opens the first sample the search kept */
static void
samples_search_activate_cb (KsWindow       *self,
                            GtkSearchEntry *entry)
{
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->samples_list, i)) != NULL; i++)
    if (gtk_widget_get_child_visible (GTK_WIDGET (row)))
      {
        sample_activated_cb (self, row, self->samples_list);
        return;
      }
}

static void
samples_search_stop_cb (KsWindow       *self,
                        GtkSearchEntry *entry)
{
  gtk_popover_popdown (self->samples_popover);
}

/* The browser opens ready to type in, with the last search selected */
static void
samples_popover_show_cb (KsWindow   *self,
                         GtkPopover *popover)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->samples_search));
  gtk_editable_select_region (GTK_EDITABLE (self->samples_search), 0, -1);
}

/* Ctrl+Shift+O: the browser, from the keyboard */
static void
samples_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  KsWindow *self = KS_WINDOW (widget);

  if (gtk_widget_get_sensitive (GTK_WIDGET (self->samples_button)))
    gtk_menu_button_popup (self->samples_button);
}

static void
fill_samples (KsWindow *self)
{
  g_autofree char *dir = ks_data_find_dir ("samples");
  GtkWidget *none = gtk_label_new (_("No sample matches the search"));

  gtk_widget_add_css_class (none, "dim-label");
  gtk_widget_set_margin_top (none, 18);
  gtk_widget_set_margin_bottom (none, 18);
  gtk_list_box_set_placeholder (self->samples_list, none);
  gtk_list_box_set_filter_func (self->samples_list, sample_filter, self, NULL);

  self->samples = dir ? ks_samples_list (dir) : g_ptr_array_new ();
  for (guint i = 0; i < self->samples->len; i++)
    {
      const KsSample *sample = g_ptr_array_index (self->samples, i);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_autofree char *number = sample->number ? g_strdup_printf ("%02u", sample->number) : NULL;
      GtkWidget *title = gtk_label_new (sample->title);
      g_autoptr(GString) sub_text = g_string_new (NULL);
      g_autoptr(GString) name = g_string_new (NULL);
      GtkWidget *sub;

      /* The course at a glance: its place, its level, its title; what it
       * shows below, all of it on hover */
      if (sample->level != 0)
        g_string_printf (sub_text, _("Level %u"), sample->level);
      g_string_append_printf (sub_text, "%s%s", sub_text->len ? " · " : "",
                              sample->description ? sample->description : sample->id);
      sub = gtk_label_new (sub_text->str);
      if (number != NULL)
        {
          GtkWidget *num = gtk_label_new (number);

          gtk_label_set_width_chars (GTK_LABEL (num), 2);
          gtk_label_set_xalign (GTK_LABEL (num), 1);
          gtk_widget_set_valign (num, GTK_ALIGN_START);
          gtk_widget_add_css_class (num, "ks-sample-number");
          gtk_widget_add_css_class (num, "numeric");
          gtk_widget_add_css_class (num, "dim-label");
          gtk_box_append (GTK_BOX (row), num);
        }
      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_label_set_wrap (GTK_LABEL (title), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (title), 44);
      gtk_widget_add_css_class (title, "ks-sample-title");
      gtk_label_set_xalign (GTK_LABEL (sub), 0);
      gtk_label_set_wrap (GTK_LABEL (sub), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (sub), 44);
      /* Summaries run to a paragraph: two lines here, all of it on hover */
      gtk_label_set_lines (GTK_LABEL (sub), 2);
      gtk_label_set_ellipsize (GTK_LABEL (sub), PANGO_ELLIPSIZE_END);
      if (sample->description != NULL)
        gtk_widget_set_tooltip_text (row, sample->description);
      gtk_widget_add_css_class (sub, "dim-label");
      gtk_widget_add_css_class (sub, "caption");
      gtk_widget_set_hexpand (box, TRUE);
      gtk_box_append (GTK_BOX (box), title);
      gtk_box_append (GTK_BOX (box), sub);
      gtk_box_append (GTK_BOX (row), box);
      {
        GtkWidget *compare = _ks_window_compare_sample_button (self, sample);

        if (compare != NULL)
          gtk_box_append (GTK_BOX (row), compare);
      }
      /* read as one: "Sample 12, level 3: Matrix transpose ..." */
      if (sample->number != 0 && sample->level != 0)
        g_string_printf (name, _("Sample %u, level %u: %s"), sample->number, sample->level,
                         sample->title);
      else if (sample->number != 0)
        g_string_printf (name, _("Sample %u: %s"), sample->number, sample->title);
      else
        g_string_assign (name, sample->title);
      gtk_list_box_append (self->samples_list, row);
      gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (row)),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name->str, -1);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->samples_button), self->samples->len > 0);
}

/* ---------------------------------------------------------------------- */
/* GPUs */

const char *
_ks_window_get_gpu_id (KsWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->gpu_dropdown);

  if (self->gpu_ids == NULL || i == GTK_INVALID_LIST_POSITION || i >= g_strv_length (self->gpu_ids))
    return NULL;
  return self->gpu_ids[i];
}

/* Shows a GPU (one an analysis chose, or the settings'), without running
 * again.  FALSE when the database has no such GPU. */
gboolean
_ks_window_show_gpu (KsWindow   *self,
                     const char *gpu_id)
{
  for (guint i = 0; self->gpu_ids != NULL && self->gpu_ids[i] != NULL; i++)
    if (g_strcmp0 (self->gpu_ids[i], gpu_id) == 0)
      {
        self->loading = TRUE;
        gtk_drop_down_set_selected (self->gpu_dropdown, i);
        self->loading = FALSE;
        return TRUE;
      }
  return FALSE;
}

gboolean
ks_window_choose_gpu (KsWindow   *self,
                      const char *gpu_id)
{
  g_return_val_if_fail (KS_IS_WINDOW (self), FALSE);
  if (!_ks_window_show_gpu (self, gpu_id))
    return FALSE;
  /* kept across files, as if picked, but not saved as the default */
  self->gpu_chosen = TRUE;
  return TRUE;
}

static void
gpu_selected_cb (KsWindow    *self,
                 GParamSpec  *pspec,
                 GtkDropDown *dropdown)
{
  if (self->loading)
    return;
  self->gpu_chosen = TRUE;
  if (self->settings != NULL && self->screenshot_path == NULL && _ks_window_get_gpu_id (self))
    g_settings_set_string (self->settings, "default-gpu", _ks_window_get_gpu_id (self));
  _ks_window_run (self);
}

static void
fill_gpus (KsWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint preferred = 0;

  self->gpu_db = ks_gpu_db_load_default (&error);
  if (self->gpu_db == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("The GPU database could not be read: %s"),
                                              error->message);

      _ks_window_show_message (self, msg);
      gtk_widget_set_sensitive (GTK_WIDGET (self->gpu_dropdown), FALSE);
      return;
    }
  self->gpu_ids = g_new0 (char *, self->gpu_db->n_gpus + 1);
  for (uint32_t i = 0; i < self->gpu_db->n_gpus; i++)
    {
      const KsGpuInfo *gpu = &self->gpu_db->gpus[i];
      const char *name = g_str_has_prefix (gpu->name, "NVIDIA ") ? gpu->name + 7 : gpu->name;
      g_autofree char *label = g_strdup_printf ("%s · %s", name, gpu->arch);

      gtk_string_list_append (names, label);
      self->gpu_ids[i] = g_strdup (gpu->id);
      /* The samples' PTX is for sm_80: start on its representative GPU */
      if (g_strcmp0 (gpu->arch, "sm_80") == 0 && preferred == 0)
        preferred = i;
    }
  self->loading = TRUE;
  gtk_drop_down_set_model (self->gpu_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->gpu_dropdown, preferred);
  self->loading = FALSE;
}

/* ---------------------------------------------------------------------- */
/* Saving and closing */

static gboolean
save_buffer (KsWindow        *self,
             GtkSourceBuffer *buffer,
             GFile           *file,
             GError         **error)
{
  g_autofree char *text = NULL;

  if (!gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (buffer)))
    return TRUE;
  if (file == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The text has no file to be saved to"));
      return FALSE;
    }
  text = _ks_window_dup_text (buffer);
  if (!g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                NULL, error))
    return FALSE;
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (buffer), FALSE);
  return TRUE;
}

static gboolean
save_all (KsWindow *self)
{
  g_autoptr(GError) error = NULL;

  /* A sample, or a folder that cannot be written: a copy where the user says */
  if (_ks_window_needs_save_as (self))
    {
      _ks_window_save_as (self);
      return FALSE;
    }
  if (!save_buffer (self, self->cuda_buffer, self->cuda_file, &error)
      || !save_buffer (self, self->ptx_buffer, self->ptx_file, &error)
      || !_ks_window_launch_save (self, &error))
    {
      g_autofree char *msg = g_strdup_printf (_("Could not save: %s"), error->message);

      _ks_window_show_message (self, msg);
      return FALSE;
    }
  update_titles (self);
  if (self->launch != NULL)
    _ks_window_show_launch (self, self->launch, FALSE);
  return TRUE;
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  save_all (KS_WINDOW (widget));
}

typedef enum
{
  CLOSE_CANCEL,
  CLOSE_DISCARD,
  CLOSE_SAVE,
} CloseChoice;

static void
close_choice_cb (GtkButton *button,
                 KsWindow  *self)
{
  GtkWindow *dialog = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (button)));
  CloseChoice choice = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "choice"));

  gtk_window_destroy (dialog);
  if (choice == CLOSE_CANCEL)
    return;
  if (choice == CLOSE_SAVE)
    {
      self->close_after_save = TRUE;
      /* A copy being asked for closes the window once it is saved */
      if (!save_all (self))
        {
          self->close_after_save = self->save_chooser != NULL;
          return;
        }
      self->close_after_save = FALSE;
    }
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

/* A small modal window of our own: GtkMessageDialog is deprecated from GTK
 * 4.10 and GtkAlertDialog does not exist in 4.8. */
static void
ask_before_closing (KsWindow *self)
{
  static const struct { const char *label; CloseChoice choice; const char *css; } buttons[] = {
    { N_("_Cancel"), CLOSE_CANCEL, NULL },
    { N_("_Discard"), CLOSE_DISCARD, "destructive-action" },
    { N_("_Save"), CLOSE_SAVE, "suggested-action" },
  };
  GtkWidget *dialog = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading = gtk_label_new (_("Save changes before closing?"));
  GtkWidget *body = gtk_label_new (_("The CUDA, the PTX or the launch in this window has changes "
                                     "that are not saved. Discarded changes are lost."));
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_window_set_title (GTK_WINDOW (dialog), _("Unsaved Changes"));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_resizable (GTK_WINDOW (dialog), FALSE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  gtk_widget_add_css_class (dialog, "ks-close-dialog");
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  gtk_widget_add_css_class (heading, "title-3");
  gtk_label_set_wrap (GTK_LABEL (body), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (body), 40);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), body);
  gtk_widget_set_halign (row, GTK_ALIGN_END);
  gtk_widget_set_margin_top (row, 6);
  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    {
      GtkWidget *b = gtk_button_new_with_mnemonic (_(buttons[i].label));

      if (buttons[i].css)
        gtk_widget_add_css_class (b, buttons[i].css);
      g_object_set_data (G_OBJECT (b), "choice", GINT_TO_POINTER (buttons[i].choice));
      g_signal_connect_object (b, "clicked", G_CALLBACK (close_choice_cb), self, 0);
      gtk_box_append (GTK_BOX (row), b);
      if (buttons[i].choice == CLOSE_SAVE)
        gtk_window_set_default_widget (GTK_WINDOW (dialog), b);
    }
  gtk_box_append (GTK_BOX (box), row);
  gtk_window_set_child (GTK_WINDOW (dialog), box);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
ks_window_close_request (GtkWindow *window)
{
  KsWindow *self = KS_WINDOW (window);

  if (!self->close_confirmed && ks_window_has_unsaved_changes (self))
    {
      ask_before_closing (self);
      return TRUE;
    }
  _ks_window_stop (self);
  if (self->settings != NULL && self->screenshot_path == NULL)
    {
      int w, h;

      gtk_window_get_default_size (window, &w, &h);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      if (!gtk_window_is_maximized (window) && w > 0 && h > 0)
        {
          g_settings_set_int (self->settings, "window-width", CLAMP (w, 640, 16384));
          g_settings_set_int (self->settings, "window-height", CLAMP (h, 480, 16384));
        }
    }
  return GTK_WINDOW_CLASS (ks_window_parent_class)->close_request (window);
}

/* ---------------------------------------------------------------------- */
/* Presentation mode */

static void
set_presentation (KsWindow *self,
                  gboolean  on)
{
  self->presentation = on;
  if (on)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
  /* Secondary chrome goes: file names and the kernel's mangled name, and
   * the Open button's word, so that the larger header bar leaves the title
   * (the kernel's file name) room to be read whole */
  gtk_widget_set_visible (self->open_label, !on);
  /* The samples browser is a surface of its own: it takes the larger type
   * by name, as the launch editor's popover does */
  if (on)
    gtk_widget_add_css_class (GTK_WIDGET (self->samples_popover), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->samples_popover), "presentation");
  gtk_widget_set_visible (GTK_WIDGET (self->cuda_file_label), !on);
  gtk_widget_set_visible (GTK_WIDGET (self->ptx_file_label), !on);
  gtk_widget_set_visible (GTK_WIDGET (self->sass_file_label), !on);
  if (on)
    gtk_revealer_set_reveal_child (self->toolkit_revealer, FALSE);
  _ks_window_update_sass_pane (self);
  update_scheme (self);
  update_titles (self);
  _ks_window_views_set_presentation (self, on);
  _ks_window_layout_set_presentation (self, on);
  /* the code's type changes size: the selection's lines in sight again */
  _ks_window_keep_selection_in_sight (self);
}

void
ks_window_present_once (KsWindow *self)
{
  g_return_if_fail (KS_IS_WINDOW (self));

  self->presenting_once = TRUE;
  g_object_set (self, "presentation", TRUE, NULL);
  self->presenting_once = FALSE;
}

/* ---------------------------------------------------------------------- */
/* Screenshot */

void
ks_window_set_screenshot (KsWindow   *self,
                          const char *png_path,
                          int         width,
                          int         height)
{
  g_return_if_fail (KS_IS_WINDOW (self));
  g_return_if_fail (width > 0 && height > 0);

  g_free (self->screenshot_path);
  self->screenshot_path = g_strdup (png_path);
  self->screenshot_width = width;
  self->screenshot_height = height;
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
}

/* ---------------------------------------------------------------------- */

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  _ks_window_run (KS_WINDOW (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  _ks_window_stop (KS_WINDOW (widget));
}

static void
message_close_cb (KsWindow  *self,
                  GtkButton *button)
{
  _ks_window_show_message (self, NULL);
}

static void
toolkit_close_cb (KsWindow  *self,
                  GtkButton *button)
{
  self->toolkit_dismissed = TRUE;
  gtk_revealer_set_reveal_child (self->toolkit_revealer, FALSE);
}

enum {
  PROP_0,
  PROP_PRESENTATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ks_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  KsWindow *self = KS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PRESENTATION:
      g_value_set_boolean (value, self->presentation);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  KsWindow *self = KS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PRESENTATION:
      if (self->presentation != g_value_get_boolean (value))
        {
          set_presentation (self, g_value_get_boolean (value));
          if (self->settings != NULL && self->screenshot_path == NULL && !self->presenting_once)
            g_settings_set_boolean (self->settings, "presentation-mode", self->presentation);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_window_dispose (GObject *object)
{
  KsWindow *self = KS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  g_clear_handle_id (&self->keep_in_sight_idle, g_source_remove);
  _ks_window_run_dispose (self);
  _ks_window_step_dispose (self);
  _ks_window_heat_dispose (self);
  _ks_window_views_dispose (self);
  _ks_window_launch_dispose (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), KS_TYPE_WINDOW);
  G_OBJECT_CLASS (ks_window_parent_class)->dispose (object);
}

static void
ks_window_finalize (GObject *object)
{
  KsWindow *self = KS_WINDOW (object);

  g_clear_object (&self->cuda_file);
  g_clear_object (&self->ptx_file);
  g_clear_object (&self->spec_file);
  g_clear_object (&self->sass_file);
  g_clear_pointer (&self->launch, ks_launch_free);
  g_clear_pointer (&self->line_map, ks_line_map_free);
  g_clear_pointer (&self->sass_listing, ks_sass_listing_free);
  g_clear_pointer (&self->sass_live_label, g_free);
  g_clear_pointer (&self->sass_offer_gpu, g_free);
  g_clear_pointer (&self->sass_live_how, g_free);
  g_clear_pointer (&self->gpu_db, ks_gpu_db_free);
  g_clear_pointer (&self->gpu_ids, g_strfreev);
  g_clear_pointer (&self->samples, g_ptr_array_unref);
  g_clear_pointer (&self->toolchain, ks_toolchain_free);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->screenshot_path, g_free);
  _ks_window_launch_finalize (self);
  _ks_window_record_finalize (self);
  _ks_window_compare_finalize (self);
  G_OBJECT_CLASS (ks_window_parent_class)->finalize (object);
}

/* GTK gives a new window's focus to its first focusable widget: with a
 * message showing, the banner's selectable label, which then shows all
 * its text selected (on a projector, a highlight over the message).  The
 * first editor shown takes the focus instead, as in any text editor. */
static void
ks_window_map (GtkWidget *widget)
{
  KsWindow *self = KS_WINDOW (widget);
  GtkWidget *focus;

  GTK_WIDGET_CLASS (ks_window_parent_class)->map (widget);
  focus = gtk_window_get_focus (GTK_WINDOW (self));
  if (focus != NULL && focus != GTK_WIDGET (self->message_label))
    return;
  gtk_label_select_region (self->message_label, 0, 0);
  {
    GtkSourceView *panes[] = { self->cuda_view, self->ptx_view, self->sass_view };

    for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
      if (gtk_widget_is_visible (GTK_WIDGET (panes[i])))
        {
          gtk_widget_grab_focus (GTK_WIDGET (panes[i]));
          return;
        }
  }
}

static void
ks_window_class_init (KsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = ks_window_dispose;
  object_class->finalize = ks_window_finalize;
  object_class->get_property = ks_window_get_property;
  object_class->set_property = ks_window_set_property;
  window_class->close_request = ks_window_close_request;
  widget_class->map = ks_window_map;

  properties[PROP_PRESENTATION] =
    g_param_spec_boolean ("presentation", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/kernelscope/KernelScope/ks-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, KsWindow, name)
  BIND (open_label);
  BIND (title_label);
  BIND (subtitle_label);
  BIND (samples_button);
  BIND (samples_popover);
  BIND (samples_list);
  BIND (samples_search);
  BIND (gpu_dropdown);
  BIND (launch_step_dropdown);
  BIND (launch_button);
  BIND (launch_label);
  BIND (recording_button);
  BIND (recording_label);
  BIND (recording_list);
  BIND (recent_menu);
  BIND (compare_partners_section);
  BIND (compare_course_section);
  BIND (toolkit_revealer);
  BIND (toolkit_label);
  BIND (toolkit_close_button);
  BIND (message_revealer);
  BIND (message_label);
  BIND (message_close_button);
  BIND (cuda_view);
  BIND (ptx_view);
  BIND (sass_view);
  BIND (cuda_file_label);
  BIND (ptx_file_label);
  BIND (sass_file_label);
  BIND (sass_stack);
  BIND (sass_placeholder_title);
  BIND (sass_placeholder_label);
  BIND (sass_pane);
  BIND (sass_header);
  BIND (sass_folded_label);
  BIND (sass_placeholder_button);
  BIND (asm_paned);
  BIND (source_paned);
  BIND (results_stack);
  BIND (hints_page);
  BIND (output_page);
  BIND (hints_list);
  BIND (output_label);
  BIND (kernel_choice);
  BIND (kernel_choice_box);
  BIND (status_label);
  BIND (stale_label);
  BIND (progress_bar);
  BIND (header_start_fold);
  BIND (header_fold);
  BIND (stop_button);
  BIND (step_box);
  BIND (folded_section);
  BIND (views_switcher);
  BIND (views_dropdown);
#undef BIND

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.samples", NULL, samples_action);
  _ks_window_views_class_init (widget_class);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_property_action (widget_class, "win.presentation", "presentation");
  _ks_window_run_class_init (widget_class);
  _ks_window_step_class_init (widget_class);
  _ks_window_launch_class_init (widget_class);
  _ks_window_record_class_init (widget_class);
  _ks_window_compare_class_init (widget_class);
  _ks_window_recent_class_init (widget_class);
  _ks_window_layout_class_init (widget_class);
  _ks_window_sass_class_init (widget_class);
}

static void
setup_view (KsWindow      *self,
            GtkSourceView *view,
            const char    *language,
            const char    *accessible_label,
            GCallback      motion_cb)
{
  GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default ();
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  GtkSourceLanguage *lang = gtk_source_language_manager_get_language (lm, language);

  if (lang == NULL)
    g_warning ("No GtkSourceView language “%s”: its pane has no highlighting", language);

  gtk_source_buffer_set_language (buffer, lang);
  gtk_source_buffer_set_highlight_syntax (buffer, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible_label, -1);
  if (motion_cb != NULL)
    {
      GtkEventController *motion = gtk_event_controller_motion_new ();

      g_signal_connect_object (motion, "motion", motion_cb, self, G_CONNECT_SWAPPED);
      g_signal_connect_object (motion, "leave", G_CALLBACK (motion_leave_cb), self,
                               G_CONNECT_SWAPPED);
      gtk_widget_add_controller (GTK_WIDGET (view), motion);
    }
}

static void
ks_window_init (KsWindow *self)
{
  GtkDropTarget *drop;

  self->cancellable = g_cancellable_new ();
  self->settings = ks_settings_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      g_signal_connect_object (self->settings, "changed::theme", G_CALLBACK (theme_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->settings, "changed::font-size",
                               G_CALLBACK (font_size_changed_cb), self, G_CONNECT_SWAPPED);
    }

  self->cuda_buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->cuda_view)));
  self->ptx_buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->ptx_view)));
  self->sass_buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->sass_view)));
  setup_view (self, self->cuda_view, "cuda", _("CUDA source"), G_CALLBACK (cuda_motion_cb));
  setup_view (self, self->ptx_view, "ptx", _("PTX"), G_CALLBACK (ptx_motion_cb));
  setup_view (self, self->sass_view, "sass", _("SASS listing"), G_CALLBACK (sass_motion_cb));
  update_scheme (self);
  g_signal_connect_object (gtk_widget_get_settings (GTK_WIDGET (self)),
                           "notify::gtk-application-prefer-dark-theme",
                           G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_widget_get_settings (GTK_WIDGET (self)), "notify::gtk-theme-name",
                           G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);

  {
    GtkSourceView *panes[] = { self->cuda_view, self->ptx_view, self->sass_view };

    for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
      g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (panes[i])),
                               "notify::upper", G_CALLBACK (pane_height_cb), self,
                               G_CONNECT_SWAPPED);
  }
  g_signal_connect_object (self->cuda_buffer, "notify::cursor-position",
                           G_CALLBACK (cuda_cursor_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->ptx_buffer, "notify::cursor-position",
                           G_CALLBACK (ptx_cursor_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sass_buffer, "notify::cursor-position",
                           G_CALLBACK (sass_cursor_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->cuda_buffer, "changed",
                           G_CALLBACK (text_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->ptx_buffer, "changed",
                           G_CALLBACK (text_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->cuda_buffer, "modified-changed",
                           G_CALLBACK (modified_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->ptx_buffer, "modified-changed",
                           G_CALLBACK (modified_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->samples_list, "row-activated",
                           G_CALLBACK (sample_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->samples_search, "search-changed",
                           G_CALLBACK (samples_search_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->samples_search, "activate",
                           G_CALLBACK (samples_search_activate_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->samples_search, "stop-search",
                           G_CALLBACK (samples_search_stop_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->samples_popover, "show",
                           G_CALLBACK (samples_popover_show_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->gpu_dropdown, "notify::selected",
                           G_CALLBACK (gpu_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->message_close_button, "clicked",
                           G_CALLBACK (message_close_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->toolkit_close_button, "clicked",
                           G_CALLBACK (toolkit_close_cb), self, G_CONNECT_SWAPPED);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  fill_gpus (self);
  if (self->settings != NULL)
    {
      g_autofree char *gpu = g_settings_get_string (self->settings, "default-gpu");

      if (gpu[0] != '\0' && _ks_window_show_gpu (self, gpu))
        self->gpu_chosen = TRUE;
      if (g_settings_get_boolean (self->settings, "presentation-mode"))
        g_object_set (self, "presentation", TRUE, NULL);
    }
  fill_samples (self);
  update_titles (self);
  update_launch_label (self);
  _ks_window_run_init (self);
  _ks_window_views_init (self);
  _ks_window_sass_init (self);
  _ks_window_ptx_init (self);
  _ks_window_heat_init (self);
  _ks_window_step_init (self);
  _ks_window_launch_init (self);
  _ks_window_record_init (self);
  _ks_window_compare_init (self);
  _ks_window_recent_init (self);
  _ks_window_layout_init (self);
  ks_a11y_name_drop_down_buttons (GTK_WIDGET (self));
}

KsWindow *
ks_window_new (GtkApplication *app)
{
  return g_object_new (KS_TYPE_WINDOW, "application", app, NULL);
}
