/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-ptx.c: the PTX pane's hover documentation.
 *
 * Hovering an instruction shows what it does, each of its modifiers spelled
 * out and its type (src/core/ptx/ks-ptx-docs.c reads the line under the
 * pointer, so it works while the text is being edited and does not parse). */

#include <glib/gi18n.h>
#include <string.h>

#include "ks-ptx-docs.h"
#include "ks-window-private.h"

char *
_ks_window_ptx_tooltip_markup (KsWindow *self,
                               guint     line,
                               guint     byte_column)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->ptx_buffer);
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  g_autoptr(KsPtxExplanation) e = NULL;
  g_autoptr(GString) s = NULL;
  g_autofree char *word = NULL;

  if (line >= (guint) gtk_text_buffer_get_line_count (buffer))
    return NULL;
  gtk_text_buffer_get_iter_at_line (buffer, &start, (int) line);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
  e = ks_ptx_explain (text, strlen (text), byte_column);
  if (e == NULL)
    return NULL;

  s = g_string_new (NULL);
  word = g_markup_escape_text (text + e->start, (gssize) (e->end - e->start));
  g_string_append_printf (s, "<b><tt>%s</tt></b>", word);
  if (e->summary != NULL)
    {
      g_autofree char *summary = g_markup_escape_text (e->summary, -1);

      g_string_append_printf (s, "\n%s", summary);
    }
  for (guint i = 0; i < e->n_parts; i++)
    {
      const KsPtxDocPart *p = &e->parts[i];
      g_autofree char *w = g_markup_escape_text (p->word, -1);
      g_autofree char *d = p->description ? g_markup_escape_text (p->description, -1) : NULL;

      g_string_append_printf (s, "\n<tt>.%s</tt>  ", w);
      if (d == NULL)
        g_string_append (s, _("(no description)"));
      else if (p->is_type)
        /* TRANSLATORS: %s is a type's description, "32-bit float" */
        g_string_append_printf (s, _("type: %s"), d);
      else
        g_string_append (s, d);
    }
  if (e->guard != NULL)
    {
      gboolean negated = e->guard[0] == '!';
      g_autofree char *pred = g_markup_escape_text (e->guard + (negated ? 1 : 0), -1);

      g_string_append (s, "\n");
      g_string_append_printf (s, negated ? _("Runs only in the threads where <tt>%s</tt> is false")
                                         : _("Runs only in the threads where <tt>%s</tt> is true"),
                              pred);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
ptx_query_tooltip (GtkWidget  *widget,
                   int         x,
                   int         y,
                   gboolean    keyboard,
                   GtkTooltip *tooltip,
                   KsWindow   *self)
{
  GtkTextView *view = GTK_TEXT_VIEW (widget);
  GtkTextIter iter;
  int bx, by;
  g_autofree char *markup = NULL;

  if (keyboard)
    {
      GtkTextMark *insert = gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (self->ptx_buffer));

      gtk_text_buffer_get_iter_at_mark (GTK_TEXT_BUFFER (self->ptx_buffer), &iter, insert);
    }
  else
    {
      gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
      if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by))
        return FALSE;
    }
  markup = _ks_window_ptx_tooltip_markup (self, (guint) gtk_text_iter_get_line (&iter),
                                          (guint) gtk_text_iter_get_line_index (&iter));
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

void
_ks_window_ptx_init (KsWindow *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->ptx_view), TRUE);
  g_signal_connect (self->ptx_view, "query-tooltip", G_CALLBACK (ptx_query_tooltip), self);
}
