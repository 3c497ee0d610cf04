/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-sass.c: the SASS pane.
 *
 * What it shows: a listing or a cubin the user opened, else the SASS each run makes
 * of the kernel for the selected GPU when nvdisasm or cuobjdump is there
 * (src/core/toolchain/ks-toolchain-sass.c), else a placeholder that says
 * how to get SASS, or why making it failed (never the run's failure).
 *
 * Beside each instruction, the scheduling control code decoded from its
 * words, as CuAssembler writes it: the scoreboards it waits on, the read and
 * write scoreboards it sets, Y when the warp may yield, and its stall cycles
 * ("B0-----:R-:W2:Y:S04").  A gutter renderer, so the listing's text (and
 * its line linking) stays as it is; hovering an opcode shows what it does. */

#include <glib/gi18n.h>
#include <string.h>

#include "ks-engine.h"

#include "ks-cubin-open.h"
#include "ks-sass.h"
#include "ks-vertical-label.h"
#include "ks-window-private.h"

struct _ControlColumn
{
  GtkSourceGutterRendererText parent_instance;
  KsWindow *window;             /* borrowed: the window owns the view */
};

#define CONTROL_TYPE_COLUMN (control_column_get_type ())
G_DECLARE_FINAL_TYPE (ControlColumn, control_column, CONTROL, COLUMN, GtkSourceGutterRendererText)
G_DEFINE_FINAL_TYPE (ControlColumn, control_column, GTK_SOURCE_TYPE_GUTTER_RENDERER_TEXT)

/* The instruction that starts on listing line `line` (1-based), or NULL */
static const KsSassInsn *
insn_at_line (const KsSassListing *l,
              guint                line)
{
  uint32_t lo = 0, hi;

  if (l == NULL || l->n_insns == 0)
    return NULL;
  /* instructions are in listing order */
  hi = l->n_insns;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (l->insns[mid].line < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < l->n_insns && l->insns[lo].line == line ? &l->insns[lo] : NULL;
}

char *
_ks_window_sass_control_text (KsWindow *self,
                              guint     line)
{
  const KsSassInsn *in = insn_at_line (self->sass_listing, line);
  char buf[KS_SASS_CONTROL_TEXT_SIZE];

  if (in == NULL || !(in->flags & KS_SASS_HAS_CONTROL))
    return NULL;
  return g_strdup (ks_sass_control_to_string (&in->control, buf));
}

static void
control_column_query_data (GtkSourceGutterRenderer *renderer,
                           GtkSourceGutterLines    *lines,
                           guint                    line)
{
  ControlColumn *self = CONTROL_COLUMN (renderer);
  g_autofree char *text = _ks_window_sass_control_text (self->window, line + 1);

  gtk_source_gutter_renderer_text_set_text (GTK_SOURCE_GUTTER_RENDERER_TEXT (renderer),
                                            text ? text : "", -1);
}

static void
control_column_class_init (ControlColumnClass *klass)
{
  GTK_SOURCE_GUTTER_RENDERER_CLASS (klass)->query_data = control_column_query_data;
}

static void
control_column_init (ControlColumn *self)
{
}

/* What hovering instruction line `line` (1-based) shows: its opcode's
 * description, then its decoded control code and, on Maxwell/Pascal, its
 * dual-issue pairing; NULL off an instruction */
char *
_ks_window_sass_tooltip_text (KsWindow *self,
                              guint     line)
{
  const KsSassInsn *in = insn_at_line (self->sass_listing, line);
  const char *what;
  GString *text;

  if (in == NULL)
    return NULL;
  what = ks_sass_opcode_description (in->opcode);
  text = g_string_new (NULL);
  if (in->opcode != NULL)
    g_string_append_printf (text, "%s%s%s", in->opcode, what ? ": " : "", what ? what : "");
  else
    /* a cubin read without a disassembler: only the words are known */
    g_string_append (text, _("Not disassembled: no disassembler named this instruction"));
  if (in->flags & KS_SASS_HAS_CONTROL)
    {
      const KsSassControl *c = &in->control;
      g_autoptr(GString) waits = g_string_new (NULL);
      g_autoptr(GString) reuse = g_string_new (NULL);
      g_autofree char *wr = NULL, *rd = NULL;

      for (guint b = 0; b < 6; b++)
        if (c->wait_mask & (1u << b))
          g_string_append_printf (waits, "%s%u", waits->len ? ", " : "", b);
      /* operand slots a, b, c, d as the reuse bits number them */
      for (guint b = 0; b < 4; b++)
        if (c->reuse & (1u << b))
          g_string_append_printf (reuse, "%s%c", reuse->len ? ", " : "", 'a' + b);
      wr = c->write_barrier != KS_SASS_NO_BARRIER
           ? g_strdup_printf (_("W%u (result written)"), c->write_barrier)
           : g_strdup (_("no write scoreboard"));
      rd = c->read_barrier != KS_SASS_NO_BARRIER
           ? g_strdup_printf (_(", R%u (operands read)"), c->read_barrier) : g_strdup ("");
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("stall %u cycles%s; waits on scoreboard %s; sets %s%s"),
                              c->stall, c->yield ? _(", may yield") : "",
                              waits->len ? waits->str : _("none"), wr, rd);
      if (reuse->len > 0)
        {
          g_string_append (text, "; ");
          /* TRANSLATORS: %s lists operand slots, "a, b" */
          g_string_append_printf (text, _("keeps operand %s in the reuse cache"), reuse->str);
        }
    }
  if (in->flags & KS_SASS_DUAL_FIRST)
    g_string_append_printf (text, "\n%s", _("Dual-issued with the next instruction"));
  else if (in->flags & KS_SASS_DUAL_SECOND)
    g_string_append_printf (text, "\n%s", _("Dual-issued with the instruction before it"));
  return g_string_free (text, FALSE);
}

/* Hovering an instruction: its opcode's description and decoded control */
static gboolean
sass_query_tooltip (GtkWidget  *widget,
                    int         x,
                    int         y,
                    gboolean    keyboard,
                    GtkTooltip *tooltip,
                    KsWindow   *self)
{
  GtkTextView *view = GTK_TEXT_VIEW (widget);
  GtkTextIter iter;
  int bx, by;
  g_autofree char *text = NULL;

  if (self->sass_listing == NULL)
    return FALSE;
  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by))
    return FALSE;
  text = _ks_window_sass_tooltip_text (self, (guint) gtk_text_iter_get_line (&iter) + 1);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
show_placeholder (KsWindow   *self,
                  const char *title,
                  const char *text)
{
  gtk_label_set_text (self->sass_placeholder_title, title);
  gtk_label_set_text (self->sass_placeholder_label, text);
  self->sass_nothing = FALSE;
  g_clear_pointer (&self->sass_offer_gpu, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->sass_placeholder_button), FALSE);
}

/* No disassembler and no shipped listing for this kernel: the pane folds
 * to a bar that says so; opened, it says how to get SASS */
static void
show_how_to_get_sass (KsWindow *self)
{
  if (self->have_disassembler)
    {
      show_placeholder (self, _("No SASS from this run"),
                        _("The toolkit makes the SASS of the analysed kernel on every run; the "
                          "last run stopped before it could (the Output tab says why). A listing "
                          "saved with “cuobjdump -sass” or “nvdisasm -c -g -hex”, or a cubin, can "
                          "still be opened or dropped on the window."));
      self->sass_nothing = TRUE;
      return;
    }
  show_placeholder (self, _("No SASS listing"),
                    _("The machine code shows here. The samples ship with SASS for Volta to "
                      "Hopper GPUs. For your own kernels, install a CUDA toolkit with nvdisasm: "
                      "on Debian 12, enable the non-free component and install "
                      "nvidia-cuda-toolkit; on Ubuntu, nvidia-cuda-toolkit from multiverse; or "
                      "NVIDIA’s own toolkit. KernelScope then compiles the kernel for the "
                      "selected GPU and disassembles it on every run. A listing saved with "
                      "“cuobjdump -sass” or “nvdisasm -c -g -hex”, or a cubin, can be opened "
                      "or dropped on the window."));
  self->sass_nothing = TRUE;
}

/* The folded bar says why there is no SASS: no disassembler, or a run
 * that made none (it stopped before: several kernels, errors) */
void
_ks_window_sass_update_folded_label (KsWindow *self)
{
  if (self->have_disassembler)
    {
      ks_vertical_label_set_text (KS_VERTICAL_LABEL (self->sass_folded_label),
                                  _("SASS: none from this run"));
      gtk_widget_set_tooltip_text (self->sass_folded_label,
                                   _("No SASS listing: the last run stopped before the toolkit "
                                     "made one (see the Output tab). Click the arrow for more."));
    }
  else
    {
      ks_vertical_label_set_text (KS_VERTICAL_LABEL (self->sass_folded_label),
                                  _("SASS: none without a CUDA toolkit"));
      gtk_widget_set_tooltip_text (self->sass_folded_label,
                                   _("No SASS listing: the CUDA toolkit’s nvdisasm is not "
                                     "installed and none ships with this kernel. Click the arrow "
                                     "for how to get one."));
    }
}

void
_ks_window_sass_set_folded (KsWindow *self,
                            gboolean  folded)
{
  const char *page = gtk_stack_get_visible_child_name (self->sass_stack);
  gboolean was = g_strcmp0 (page, "folded") == 0;

  if (folded == was)
    return;
  gtk_widget_set_visible (self->sass_header, !folded);
  /* the bar is as narrow as its words; the whole pane keeps its minimum */
  gtk_widget_set_size_request (self->sass_pane, folded ? -1 : 160, -1);
  /* a wider window widens the code, not the bar */
  gtk_paned_set_resize_end_child (self->asm_paned, !folded);
  if (folded)
    gtk_stack_set_visible_child_name (self->sass_stack, "folded");
  else
    gtk_stack_set_visible_child_name (self->sass_stack,
                                      self->sass_file != NULL || self->sass_live
                                      ? "listing" : "placeholder");
}

static void
unfold_sass_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);

  self->sass_unfolded = TRUE;
  _ks_window_update_sass_pane (self);
}

void
_ks_window_sass_forget (KsWindow *self)
{
  /* (the pane's fold waits for the run, which may bring SASS: no flicker) */
  if (self->sass_file != NULL || self->sass_live)
    _ks_window_set_sass (self, NULL, NULL, NULL);
  show_how_to_get_sass (self);
}

void
_ks_window_sass_update_label (KsWindow *self)
{
  gtk_label_set_text (self->sass_file_label, self->sass_live_label ? self->sass_live_label : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->sass_file_label), self->sass_live_how);
}

/* Of the architectures the kernel's SASS ships for (oldest first), the one
 * nearest the GPU's: the newest not newer than it, else the oldest */
static const char *
nearest_arch (const char *const *archs,
              const char        *arch)
{
  guint want = ks_sass_arch_number (arch);
  const char *best = NULL;

  for (guint i = 0; archs[i] != NULL; i++)
    if (ks_sass_arch_number (archs[i]) <= want)
      best = archs[i];
  return best ? best : archs[0];
}

/* No SASS for this GPU's architecture, but some ships for others: says so,
 * and offers the GPU of the nearest one */
static void
offer_shipped (KsWindow         *self,
               const KsAnalysis *result)
{
  const char *arch = result->arch ? result->arch->id : "?";
  const char *near = nearest_arch ((const char *const *) result->sass_shipped_archs, arch);
  g_autofree char *list = g_strjoinv (", ", result->sass_shipped_archs);
  /* TRANSLATORS: %s is an architecture, "sm_100" */
  g_autofree char *title = g_strdup_printf (_("No SASS for %s"), arch);
  const KsArchInfo *info = self->gpu_db ? ks_gpu_db_get_arch (self->gpu_db, near) : NULL;
  const KsGpuInfo *gpu = info ? ks_gpu_db_representative_gpu (self->gpu_db, info) : NULL;
  g_autofree char *text = NULL;

  /* TRANSLATORS: the first %s lists architectures, "sm_70, sm_75, sm_80";
   * the second is the GPU's, "sm_100" */
  text = g_strdup_printf (_("The SASS that ships with this kernel is for %s, made with the newest "
                            "CUDA toolkit that Debian packages; none covers %s. A CUDA toolkit "
                            "that does (NVIDIA’s, 12.8 or later for Blackwell) makes it on "
                            "every run."), list, arch);
  show_placeholder (self, title, text);
  if (gpu != NULL)
    {
      /* TRANSLATORS: %s is a GPU, "NVIDIA H100 SXM5", then its architecture */
      g_autofree char *label = g_strdup_printf (_("Show SASS for %s (%s)"), gpu->name, near);

      gtk_button_set_label (self->sass_placeholder_button, label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->sass_placeholder_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      self->sass_offer_gpu = g_strdup (gpu->id);
      gtk_widget_set_visible (GTK_WIDGET (self->sass_placeholder_button), TRUE);
    }
}

static void
offer_clicked (KsWindow  *self,
               GtkButton *button)
{
  g_autofree char *gpu = g_strdup (self->sass_offer_gpu);

  if (gpu == NULL)
    return;
  for (guint i = 0; self->gpu_ids != NULL && self->gpu_ids[i] != NULL; i++)
    if (g_str_equal (self->gpu_ids[i], gpu))
      {
        /* as if picked in the drop-down: kept, and run again */
        gtk_drop_down_set_selected (self->gpu_dropdown, i);
        return;
      }
}

void
_ks_window_sass_prepare (const KsAnalysis *result,
                         KsSassListing   **listing,
                         char            **shown)
{
  *listing = NULL;
  *shown = NULL;
  if (result->sass_text == NULL)
    return;
  /* The window keeps its own copy: the result is shared and immutable.
   * (It parsed once already; a failure there is the result's sass_error.) */
  if (result->sass != NULL && result->sass->format != KS_SASS_FORMAT_CUBIN)
    *listing = ks_sass_parse (result->sass_text, strlen (result->sass_text), "SASS", NULL);
  *shown = ks_sass_display_text (result->sass_text, -1);
}

void
_ks_window_sass_show_analysis (KsWindow         *self,
                               const KsAnalysis *result,
                               KsSassListing    *listing,
                               char             *shown)
{
  g_return_if_fail (result != NULL);

  /* A listing the user opened stays until another kernel is opened */
  if (self->sass_file != NULL)
    {
      g_clear_pointer (&listing, ks_sass_listing_free);
      g_free (shown);
      return;
    }

  if (result->sass_text != NULL)
    {
      gboolean shipped = result->sass_origin == KS_SASS_ORIGIN_SHIPPED;

      g_free (self->sass_live_label);
      /* TRANSLATORS: shown beside "SASS": an architecture and where the
       * listing comes from, "sm_86 · shipped listing" */
      self->sass_live_label = shipped
                              ? g_strdup_printf (_("%s · shipped listing"), result->sass_arch)
                              : g_strdup_printf ("%s · %s", result->sass_arch, result->sass_tool);
      g_free (self->sass_live_how);
      /* how it was made, and which toolkit made it (a lowered .version) */
      self->sass_live_how = result->sass_note != NULL
                            ? g_strconcat (result->sass_how, "\n", result->sass_note, NULL)
                            : g_strdup (result->sass_how);
      if (shown == NULL)
        shown = ks_sass_display_text (result->sass_text, -1);
      _ks_window_set_sass_shown (self, NULL, shown, listing);
      if (result->sass_error != NULL)
        {
          g_autofree char *msg = g_strdup_printf (_("The SASS listing is shown but not linked: %s"),
                                                  result->sass_error);

          _ks_window_show_message (self, msg);
        }
      return;
    }

  g_clear_pointer (&listing, ks_sass_listing_free);
  g_free (shown);
  _ks_window_set_sass (self, NULL, NULL, NULL);
  if (result->sass_shipped_archs != NULL)
    offer_shipped (self, result);
  else if (result->sass_tool == NULL)
    show_how_to_get_sass (self);
  else
    {
      /* TRANSLATORS: %s is an architecture, "sm_89" */
      g_autofree char *title = g_strdup_printf (_("No SASS for %s"), result->sass_arch);
      g_autofree char *text =
        g_strdup_printf (_("Making the SASS did not work: %s\n\nThe rest of the analysis is not "
                           "affected, and a saved listing can still be opened."),
                         result->sass_error ? result->sass_error : _("no reason given"));

      show_placeholder (self, title, text);
    }
  _ks_window_update_sass_pane (self);
}

gboolean
_ks_window_file_is_cubin (GFile *file)
{
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, NULL);
  guint8 magic[4];
  gsize got = 0;

  if (in == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (in), magic, sizeof magic, &got, NULL, NULL))
    return FALSE;
  return ks_sass_is_elf (magic, got);
}

typedef struct
{
  GFile *file;
  char *path;
  char *toolkit_dir;            /* the settings' folder, or NULL */
} CubinJob;

static void
cubin_job_free (CubinJob *job)
{
  g_clear_object (&job->file);
  g_free (job->path);
  g_free (job->toolkit_dir);
  g_free (job);
}

/* Finding the toolkit and running nvdisasm take a while: not on the main
 * thread */
static void
cubin_thread (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  CubinJob *job = data;
  g_autoptr(KsToolchain) tc = ks_toolchain_find (job->toolkit_dir);
  GError *error = NULL;
  KsSassListing *l = ks_cubin_open (job->path, tc, cancellable, &error);

  if (l == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, l, (GDestroyNotify) ks_sass_listing_free);
}

static void
cubin_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  KsWindow *self = KS_WINDOW (source);
  CubinJob *job = g_task_get_task_data (G_TASK (result));
  KsSassListing *l = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Closed, or another file opened meanwhile: the raw listing stays */
  if (l == NULL)
    return;
  if (self->sass_file == NULL || !g_file_equal (self->sass_file, job->file))
    {
      ks_sass_listing_free (l);
      return;
    }
  _ks_window_set_sass (self, job->file, ks_sass_cubin_text (l), l);
}

gboolean
_ks_window_open_cubin (KsWindow *self,
                       GFile    *file,
                       GError  **error)
{
  g_autofree char *contents = NULL, *name = g_file_get_basename (file);
  g_autofree char *path = g_file_get_path (file);
  gsize len = 0;
  KsSassListing *l;
  gboolean disassemble = path != NULL && !ks_toolkit_disabled ();

  if (!g_file_load_contents (file, NULL, &contents, &len, NULL, error))
    return FALSE;
  l = ks_sass_cubin_read ((const guint8 *) contents, len, name, error);
  if (l == NULL)
    return FALSE;
  /* Shown at once as read; named when the disassembler has run */
  ks_sass_cubin_set_note (l, disassemble ? "the toolkit's disassembler is running"
                                         : "no CUDA toolkit is used (KS_NO_TOOLKIT)");
  _ks_window_set_sass (self, file, ks_sass_cubin_text (l), l);
  if (disassemble)
    {
      CubinJob *job = g_new0 (CubinJob, 1);
      g_autoptr(GTask) task = g_task_new (self, self->cancellable, cubin_done_cb, NULL);

      job->file = g_object_ref (file);
      job->path = g_steal_pointer (&path);
      if (self->settings != NULL)
        {
          g_autofree char *dir = g_settings_get_string (self->settings, "toolkit-path");

          if (dir[0] != '\0')
            job->toolkit_dir = g_steal_pointer (&dir);
        }
      g_task_set_source_tag (task, _ks_window_open_cubin);
      g_task_set_task_data (task, job, (GDestroyNotify) cubin_job_free);
      g_task_run_in_thread (task, cubin_thread);
    }
  return TRUE;
}

void
_ks_window_sass_update_column (KsWindow *self)
{
  const KsSassListing *l = self->sass_listing;
  gboolean any = FALSE;

  /* A listing without hex words (or none) has no control codes: no empty
   * column taking half of a narrow pane */
  for (uint32_t i = 0; l != NULL && i < l->n_insns && !any; i++)
    any = (l->insns[i].flags & KS_SASS_HAS_CONTROL) != 0;
  /* On a projector the pane is a third of 1024 pixels at 1.7 times the
   * type: the column would take all of it, and hovering an instruction
   * still spells its control code out */
  if (self->sass_control_column != NULL)
    gtk_widget_set_visible (self->sass_control_column, any && !self->presentation);
}

void
_ks_window_sass_init (KsWindow *self)
{
  GtkSourceGutter *gutter = gtk_source_view_get_gutter (self->sass_view, GTK_TEXT_WINDOW_LEFT);
  ControlColumn *column = g_object_new (CONTROL_TYPE_COLUMN, "xalign", 0.0f, "xpad", 6, NULL);
  PangoLayout *layout;
  int w = 0, h = 0;

  column->window = self;
  /* as wide as the widest code, in the pane's font */
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->sass_view), "B012345:R5:W5:Y:S15");
  pango_layout_get_pixel_size (layout, &w, &h);
  g_object_unref (layout);
  gtk_widget_set_size_request (GTK_WIDGET (column), w + 12, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (column),
                               _("Control code: scoreboards waited on, read and write scoreboards "
                                 "set, Y = may yield, stall cycles"));
  gtk_source_gutter_insert (gutter, GTK_SOURCE_GUTTER_RENDERER (column), 10);
  self->sass_control_column = GTK_WIDGET (column);
  _ks_window_sass_update_column (self);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->sass_view), TRUE);
  g_signal_connect (self->sass_view, "query-tooltip", G_CALLBACK (sass_query_tooltip), self);
  show_how_to_get_sass (self);
  _ks_window_sass_update_folded_label (self);
  g_signal_connect_object (self->sass_placeholder_button, "clicked", G_CALLBACK (offer_clicked),
                           self, G_CONNECT_SWAPPED);
}

void
_ks_window_sass_class_init (GtkWidgetClass *klass)
{
  g_type_ensure (KS_TYPE_VERTICAL_LABEL);
  gtk_widget_class_install_action (klass, "win.unfold-sass", NULL, unfold_sass_action);
}
