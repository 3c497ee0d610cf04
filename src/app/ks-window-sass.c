/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-sass.c: the SASS pane's control-code column.
 *
 * Beside each instruction of an opened listing, the scheduling control
 * code decoded from its words, as CuAssembler writes it: the scoreboards it
 * waits on, the read and write scoreboards it sets, Y when the warp may
 * yield, and its stall cycles ("B0-----:R-:W2:Y:S04").  A gutter renderer,
 * so the listing's text (and its line linking) stays as it is; hovering an
 * opcode shows what it does. */

#include <glib/gi18n.h>

#include "ks-sass.h"
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
  const KsSassInsn *in;
  const char *what;
  g_autofree char *text = NULL;

  if (self->sass_listing == NULL)
    return FALSE;
  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by))
    return FALSE;
  in = insn_at_line (self->sass_listing, (guint) gtk_text_iter_get_line (&iter) + 1);
  if (in == NULL)
    return FALSE;
  what = ks_sass_opcode_description (in->opcode);
  if (in->flags & KS_SASS_HAS_CONTROL)
    {
      const KsSassControl *c = &in->control;
      g_autoptr(GString) waits = g_string_new (NULL);
      g_autofree char *wr = NULL, *rd = NULL;

      for (guint b = 0; b < 6; b++)
        if (c->wait_mask & (1u << b))
          g_string_append_printf (waits, "%s%u", waits->len ? ", " : "", b);
      wr = c->write_barrier != KS_SASS_NO_BARRIER
           ? g_strdup_printf (_("W%u (result written)"), c->write_barrier)
           : g_strdup (_("no write scoreboard"));
      rd = c->read_barrier != KS_SASS_NO_BARRIER
           ? g_strdup_printf (_(", R%u (operands read)"), c->read_barrier) : g_strdup ("");
      text = g_strdup_printf (_("%s%s%s\nstall %u cycles%s; waits on scoreboard %s; sets %s%s"),
                              in->opcode, what ? ": " : "", what ? what : "", c->stall,
                              c->yield ? _(", may yield") : "",
                              waits->len ? waits->str : _("none"), wr, rd);
    }
  else
    text = g_strdup_printf ("%s%s%s", in->opcode, what ? ": " : "", what ? what : "");
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
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
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->sass_view), TRUE);
  g_signal_connect (self->sass_view, "query-tooltip", G_CALLBACK (sass_query_tooltip), self);
}
