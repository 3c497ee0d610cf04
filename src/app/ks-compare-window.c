/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-compare-window.c: Compare, two analyses side by side (issue 20;
 * ks-compare-window.h).  The figures come from ks-compare.h; the views are
 * the main window's widgets, one for each side. */

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "ks-a11y.h"
#include "ks-compare-window.h"
#include "ks-line-map.h"
#include "ks-memory-view.h"
#include "ks-occupancy-view.h"
#include "ks-shot.h"
#include "ks-timeline.h"
#include "ks-widget-util.h"

struct _KsCompareWindow
{
  GtkWindow parent_instance;

  KsComparison *comparison;     /* NULL until both sides are analysed */
  char *name_a, *name_b;
  guint focus_a, focus_b;
  GPtrArray *group;             /* KsSample (borrowed), or NULL */
  guint index_a, index_b;
  char *gpu;                    /* asked for, or NULL */
  gboolean presentation;
  gboolean syncing;             /* one timeline follows the other */
  guint serial;                 /* of the last job started: an older one's result is dropped */
  GCancellable *cancellable;
  KsShot shot;

  GtkWidget *title_label, *subtitle_label;
  GtkWidget *side_a_label, *side_b_label;       /* "A", "B" with their names */
  GtkWidget *pick_a, *pick_b;   /* GtkDropDown over the group, or hidden */
  GtkWidget *swap_button;
  GtkWidget *status_label;
  GtkWidget *spinner;
  GtkWidget *key_box;           /* the key figures, on top */
  GtkWidget *stack;
  GtkWidget *figures_box;       /* the table and the hints, rebuilt for each comparison: a
                                 * flow box, so that the hints go below the table when
                                 * the window is too narrow for both side by side */
  GtkWidget *timeline_a, *timeline_b, *timeline_label_a, *timeline_label_b;
  GtkWidget *memory_a, *memory_b, *memory_label_a, *memory_label_b;

  GtkWidget *occupancy_a, *occupancy_b, *occupancy_label_a, *occupancy_label_b;
  GtkWidget *occupancy_box_b;   /* shown for two architectures only */
  GtkWidget *code_a, *code_b, *code_label_a, *code_label_b;
  GtkWidget *code_pick;         /* CUDA, PTX or SASS */
  GtkWidget *diff_view;
};

G_DEFINE_FINAL_TYPE (KsCompareWindow, ks_compare_window, GTK_TYPE_WINDOW)

/* The figures on top: what a class looks at first (the others are a tab
 * away, and in one row the views keep their height on a projector) */
static const char *const key_figures[] = {
  "estimated_duration_us", "shared_wavefronts_excess", "sectors_per_request", "occupancy",
};

static GtkWidget *
label_new (const char *text,
           const char *css_class,
           float       xalign)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (l), xalign);
  if (css_class != NULL)
    gtk_widget_add_css_class (l, css_class);
  return l;
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *sw = ks_widget_scrolled (child);

  gtk_widget_set_vexpand (sw, TRUE);
  gtk_widget_set_hexpand (sw, TRUE);
  return sw;
}

/* ---- The figures ------------------------------------------------------------ */

static const char *
verdict_class (KsChangeVerdict v)
{
  return v == KS_CHANGE_BETTER ? "ks-better" : v == KS_CHANGE_WORSE ? "ks-worse" : "dim-label";
}

/* "−59 % better": the words with the colour, for a reader who cannot tell
 * the colours apart and for a screen reader */
static char *
change_text (const KsFigureChange *f)
{
  g_autofree char *d = ks_figure_change_format_delta (f);

  switch (f->verdict)
    {
    case KS_CHANGE_BETTER:
      return g_strdup_printf (_("%s better"), d);
    case KS_CHANGE_WORSE:
      return g_strdup_printf (_("%s worse"), d);
    case KS_CHANGE_DIFFERENT:
    case KS_CHANGE_NONE:
    default:
      return g_steal_pointer (&d);
    }
}

static const char *
group_title (KsFigureGroup g)
{
  switch (g)
    {
    case KS_FIGURE_GROUP_TIME: return _("Time");
    case KS_FIGURE_GROUP_OCCUPANCY: return _("Resources and occupancy");
    case KS_FIGURE_GROUP_MEMORY: return _("Memory");
    case KS_FIGURE_GROUP_EXECUTION: return _("Execution");
    case KS_FIGURE_GROUP_STALLS:
    default:
      return _("Stalls (warp cycles per issued instruction)");
    }
}

static void
fill_keys (KsCompareWindow *self)
{
  const KsComparison *c = self->comparison;

  {
    GtkWidget *child;

    while ((child = gtk_widget_get_first_child (self->key_box)) != NULL)
      gtk_flow_box_remove (GTK_FLOW_BOX (self->key_box), child);
  }
  for (guint i = 0; i < G_N_ELEMENTS (key_figures); i++)
    {
      const KsFigureChange *f = ks_comparison_get (c, key_figures[i]);
      GtkWidget *box, *values, *change;
      g_autofree char *va = NULL, *vb = NULL, *text = NULL, *ch = NULL, *name = NULL;

      if (f == NULL || (!f->has_a && !f->has_b))
        continue;
      va = ks_figure_change_format (f, FALSE);
      vb = ks_figure_change_format (f, TRUE);
      text = g_strdup_printf ("%s → %s", va, vb);
      ch = change_text (f);
      name = g_strdup_printf ("%s%s", f->label, f->from_model ? " *" : "");
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      gtk_widget_add_css_class (box, "ks-compare-key");
      gtk_box_append (GTK_BOX (box), label_new (name, "caption-heading", 0));
      gtk_label_set_ellipsize (GTK_LABEL (gtk_widget_get_last_child (box)), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (gtk_widget_get_last_child (box)), 24);
      {
        GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

        values = label_new (text, "heading", 0);
        gtk_box_append (GTK_BOX (line), values);
        change = label_new (ch, verdict_class (f->verdict), 0);
        gtk_box_append (GTK_BOX (line), change);
        gtk_box_append (GTK_BOX (box), line);
      }
      gtk_widget_set_tooltip_text (box, f->label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
      gtk_flow_box_append (GTK_FLOW_BOX (self->key_box), box);
    }
}

static void
hint_rows (GtkWidget  *box,
           const char *title,
           GPtrArray  *hints)
{
  gtk_box_append (GTK_BOX (box), label_new (title, "heading", 0));
  if (hints->len == 0)
    gtk_box_append (GTK_BOX (box), label_new (_("None"), "dim-label", 0));
  for (guint i = 0; i < hints->len; i++)
    {
      const KsHint *h = hints->pdata[i];
      g_autofree char *text = h->cuda_line
                                ? g_strdup_printf (_("Line %u: %s"), h->cuda_line, h->message)
                              : h->ptx_line
                                ? g_strdup_printf (_("PTX line %u: %s"), h->ptx_line, h->message)
                                : g_strdup (h->message);
      GtkWidget *l = label_new (text, NULL, 0);

      gtk_label_set_wrap (GTK_LABEL (l), TRUE);
      gtk_widget_set_tooltip_text (l, h->detail);
      gtk_box_append (GTK_BOX (box), l);
    }
}

static void
fill_figures (KsCompareWindow *self)
{
  const KsComparison *c = self->comparison;
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *hints = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  int row = 0;
  gboolean model = FALSE;
  int group = -1;

  {
    GtkWidget *child;

    while ((child = gtk_widget_get_first_child (self->figures_box)) != NULL)
      gtk_flow_box_remove (GTK_FLOW_BOX (self->figures_box), child);
  }
  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 3);
  gtk_grid_attach (GTK_GRID (grid), label_new (_("Figure"), "heading", 0), 0, row, 1, 1);
  /* (the columns are A and B: their names are above, with the drop-downs) */
  gtk_grid_attach (GTK_GRID (grid), label_new ("A", "heading", 1), 1, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), label_new ("B", "heading", 1), 2, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), label_new (_("Change"), "heading", 1), 3, row++, 1, 1);
  for (guint i = 0; i < c->changes->len; i++)
    {
      const KsFigureChange *f = &g_array_index (c->changes, KsFigureChange, i);
      g_autofree char *va = ks_figure_change_format (f, FALSE);
      g_autofree char *vb = ks_figure_change_format (f, TRUE);
      g_autofree char *ch = change_text (f);
      g_autofree char *name = g_strdup_printf ("%s%s", f->label, f->from_model ? " *" : "");
      GtkWidget *change;

      if ((int) f->group != group)
        {
          GtkWidget *h = label_new (group_title (f->group), "caption-heading", 0);

          group = (int) f->group;
          gtk_widget_set_margin_top (h, row > 1 ? 10 : 4);
          gtk_grid_attach (GTK_GRID (grid), h, 0, row++, 5, 1);
        }
      model |= f->from_model;
      gtk_grid_attach (GTK_GRID (grid), label_new (name, NULL, 0), 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), label_new (va, "numeric", 1), 1, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), label_new (vb, "numeric", 1), 2, row, 1, 1);
      change = label_new (ch, verdict_class (f->verdict), 1);
      gtk_widget_add_css_class (change, "numeric");
      gtk_grid_attach (GTK_GRID (grid), change, 3, row, 1, 1);
      if (f->note != NULL)
        {
          GtkWidget *n = label_new (f->note, "dim-label", 0);

          gtk_label_set_wrap (GTK_LABEL (n), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (n), 40);
          gtk_grid_attach (GTK_GRID (grid), n, 4, row, 1, 1);
        }
      row++;
    }
  if (model)
    gtk_grid_attach (GTK_GRID (grid),
                     label_new (_("* from the timing model: a model of the hardware, not a "
                                  "measurement"), "dim-label", 0), 0, row++, 4, 1);
  gtk_flow_box_append (GTK_FLOW_BOX (self->figures_box), grid);
  hint_rows (hints, _("Hints gone"), c->hints_gone);
  gtk_widget_set_margin_top (gtk_widget_get_last_child (hints), 0);
  hint_rows (hints, _("Hints added"), c->hints_added);
  gtk_widget_set_margin_start (hints, 24);
  gtk_widget_set_hexpand (hints, TRUE);
  gtk_widget_set_size_request (hints, 280, -1);
  gtk_flow_box_append (GTK_FLOW_BOX (self->figures_box), hints);
  /* (read, not chosen: no focus stop on the two halves) */
  for (GtkWidget *ch = gtk_widget_get_first_child (self->figures_box); ch != NULL;
       ch = gtk_widget_get_next_sibling (ch))
    {
      gtk_widget_set_focusable (ch, FALSE);
      gtk_widget_set_valign (ch, GTK_ALIGN_START);
    }
}

/* ---- The views ----------------------------------------------------------------- */

static void
timeline_range_cb (KsTimeline      *from,
                   KsCompareWindow *self)
{
  KsTimeline *to = KS_TIMELINE (from == KS_TIMELINE (self->timeline_a) ? self->timeline_b
                                                                       : self->timeline_a);
  double first, cpp;

  if (self->syncing)
    return;
  self->syncing = TRUE;
  ks_timeline_get_view (from, &first, &cpp);
  ks_timeline_set_view (to, first, cpp);
  self->syncing = FALSE;
}

/* The instruction on `cuda_line` with sampled accesses, else G_MAXUINT32 */
static uint32_t
access_on_line (KsAnalysis *a,
                KsLineMap  *map,
                guint       cuda_line)
{
  for (uint32_t i = 0; map != NULL && cuda_line != 0 && i < a->module->n_insns; i++)
    {
      uint32_t n = 0;

      if (ks_line_map_cuda_line (map, a->module->insns[i].line) != cuda_line)
        continue;
      ks_sim_get_accesses (a->sim, i, &n);
      if (n > 0)
        return i;
    }
  return G_MAXUINT32;
}

/* The line a side's lesson is about: its focus, else its first hint's */
static guint
lesson_line (KsAnalysis *a,
             guint       focus)
{
  if (focus != 0)
    return focus;
  for (guint h = 0; a->hints != NULL && h < a->hints->len; h++)
    if (((const KsHint *) a->hints->pdata[h])->cuda_line != 0)
      return ((const KsHint *) a->hints->pdata[h])->cuda_line;
  return 0;
}

static void
show_access (GtkWidget  *view,
             GtkWidget  *label,
             const char *side,
             KsAnalysis *a,
             KsLineMap  *map,
             guint       line)
{
  uint32_t insn = access_on_line (a, map, line);
  g_autofree char *text = NULL;

  ks_memory_view_set_analysis (KS_MEMORY_VIEW (view), a);
  for (uint32_t i = 0; insn == G_MAXUINT32 && a->sim != NULL && i < a->module->n_insns; i++)
    {
      uint32_t n = 0;

      ks_sim_get_accesses (a->sim, i, &n);
      if (n > 0)
        {
          insn = i;
          line = map ? ks_line_map_cuda_line (map, a->module->insns[i].line) : 0;
        }
    }
  if (insn != G_MAXUINT32)
    ks_memory_view_set_instruction (KS_MEMORY_VIEW (view), insn);
  text = insn == G_MAXUINT32 ? g_strdup_printf (_("%s: no memory access"), side)
         : line != 0 ? g_strdup_printf (_("%s, line %u"), side, line)
         : g_strdup (side);
  gtk_label_set_text (GTK_LABEL (label), text);
}

static void
fill_memory (KsCompareWindow *self)
{
  const KsComparison *c = self->comparison;
  KsLineMap *map_a = c->a->module ? ks_line_map_new (c->a->module, NULL) : NULL;
  KsLineMap *map_b = c->b->module ? ks_line_map_new (c->b->module, NULL) : NULL;
  guint line_a = lesson_line (c->a, self->focus_a), line_b = 0;

  /* B's access is A's matched: the focus lines, else the same text */
  if (line_a != 0 && line_a == self->focus_a && self->focus_b != 0)
    line_b = self->focus_b;
  else if (line_a != 0)
    line_b = ks_line_diff_b_line (c->cuda_diff, line_a);
  if (line_b == 0 || access_on_line (c->b, map_b, line_b) == G_MAXUINT32)
    line_b = lesson_line (c->b, self->focus_b);
  if (c->a->sim != NULL && c->a->module != NULL)
    show_access (self->memory_a, self->memory_label_a, self->name_a, c->a, map_a, line_a);
  if (c->b->sim != NULL && c->b->module != NULL)
    show_access (self->memory_b, self->memory_label_b, self->name_b, c->b, map_b, line_b);
  g_clear_pointer (&map_a, ks_line_map_free);
  g_clear_pointer (&map_b, ks_line_map_free);
}

static GtkSourceBuffer *
code_buffer (GtkWidget *view)
{
  return GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
}

static void
mark_line (GtkTextBuffer *b,
           guint          line,
           const char    *tag)
{
  GtkTextIter start, end;

  if (line == 0 || !gtk_text_buffer_get_iter_at_line (b, &start, (int) line - 1))
    return;
  end = start;
  gtk_text_iter_forward_line (&end);
  gtk_text_buffer_apply_tag_by_name (b, tag, &start, &end);
}

/* The code panes on the lines that correspond, once they are laid out */
static gboolean
scroll_idle (gpointer data)
{
  GtkTextView *view = data;
  GtkTextBuffer *b = gtk_text_view_get_buffer (view);
  GtkTextMark *mark = gtk_text_buffer_get_mark (b, "ks-compare-focus");

  if (mark != NULL)
    gtk_text_view_scroll_to_mark (view, mark, 0.1, TRUE, 0, 0.3);
  g_object_unref (view);
  return G_SOURCE_REMOVE;
}

static void
scroll_to_line (GtkWidget *view,
                guint      line)
{
  GtkTextBuffer *b = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter iter;

  if (line == 0 || !gtk_text_buffer_get_iter_at_line (b, &iter, (int) line - 1))
    return;
  if (gtk_text_buffer_get_mark (b, "ks-compare-focus") != NULL)
    gtk_text_buffer_move_mark_by_name (b, "ks-compare-focus", &iter);
  else
    gtk_text_buffer_create_mark (b, "ks-compare-focus", &iter, TRUE);
  g_idle_add (scroll_idle, g_object_ref (view));
}

static void
set_code (GtkWidget  *view,
          const char *language,
          const char *text,
          const char *none)
{
  GtkSourceBuffer *b = code_buffer (view);
  GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default ();

  gtk_source_buffer_set_language (b, gtk_source_language_manager_get_language (lm, language));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (b), text ? text : none, -1);
}

/* Why a side has no SASS listing, in a sentence */
static char *
no_sass (const KsAnalysis *a)
{
  if (a->sass_error != NULL)
    return g_strdup_printf (_("(no SASS: %s)"), a->sass_error);
  return g_strdup (_("(no SASS: no disassembler, and no listing ships with this kernel for "
                     "this GPU)"));
}

/* The Code tab: CUDA, PTX or SASS of both sides, the lines only in A and
 * only in B marked (CUDA and PTX: a SASS listing's addresses differ on
 * every line) */
static void
show_code (KsCompareWindow *self)
{
  KsComparison *c = self->comparison;
  GtkTextBuffer *ba = GTK_TEXT_BUFFER (code_buffer (self->code_a));
  GtkTextBuffer *bb = GTK_TEXT_BUFFER (code_buffer (self->code_b));
  guint shown = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->code_pick));
  const char *what = shown == 1 ? "PTX" : shown == 2 ? "SASS" : "CUDA";
  g_autofree char *label_a = NULL, *label_b = NULL, *none_a = NULL, *none_b = NULL;
  const GArray *diff = NULL;

  if (c == NULL)
    return;
  label_a = g_strdup_printf ("A: %s (%s)", self->name_a, what);
  label_b = g_strdup_printf ("B: %s (%s)", self->name_b, what);
  switch (shown)
    {
    case 1:
      set_code (self->code_a, "ptx", c->a->ptx_text, _("(no PTX)"));
      set_code (self->code_b, "ptx", c->b->ptx_text, _("(no PTX)"));
      diff = ks_comparison_get_ptx_diff (c);
      break;
    case 2:
      none_a = no_sass (c->a);
      none_b = no_sass (c->b);
      set_code (self->code_a, "sass", c->a->sass_text, none_a);
      set_code (self->code_b, "sass", c->b->sass_text, none_b);
      break;
    default:
      set_code (self->code_a, "cuda", c->cuda_a, _("(no CUDA source)"));
      set_code (self->code_b, "cuda", c->cuda_b, _("(no CUDA source)"));
      diff = c->cuda_diff;
      break;
    }
  for (guint i = 0; diff != NULL && i < diff->len; i++)
    {
      const KsDiffLine *e = &g_array_index (diff, KsDiffLine, i);

      if (e->op == KS_DIFF_GONE)
        mark_line (ba, e->a_line, "ks-diff-gone");
      else if (e->op == KS_DIFF_ADDED)
        mark_line (bb, e->b_line, "ks-diff-added");
    }
  if (shown == 0)
    {
      mark_line (ba, self->focus_a, "ks-diff-focus");
      mark_line (bb, self->focus_b, "ks-diff-focus");
      scroll_to_line (self->code_a, self->focus_a);
      scroll_to_line (self->code_b, self->focus_b);
    }
  gtk_label_set_text (GTK_LABEL (self->code_label_a), label_a);
  gtk_label_set_text (GTK_LABEL (self->code_label_b), label_b);
}

/* One hunk header and its lines, as diff -u prints them */
static void
append_unified (GString      *out,
                const char   *name_a,
                const char   *name_b,
                const char   *a,
                const char   *b,
                const GArray *diff)
{
  /* (the comparison's diff when it made one; only one CUDA text: made here) */
  g_autoptr(GArray) own = diff != NULL ? NULL : ks_line_diff (a, b);
  const GArray *d = diff != NULL ? diff : own;
  g_auto(GStrv) la = g_strsplit (a ? a : "", "\n", -1);
  g_auto(GStrv) lb = g_strsplit (b ? b : "", "\n", -1);
  const guint context = 3;
  gboolean any = FALSE;

  g_string_append_printf (out, "--- %s\n+++ %s\n", name_a, name_b);
  for (guint i = 0; i < d->len; )
    {
      guint start, end, n_a = 0, n_b = 0, first_a = 0, first_b = 0;

      /* the next change, and the run of changes with little between */
      while (i < d->len && g_array_index (d, KsDiffLine, i).op == KS_DIFF_SAME)
        i++;
      if (i == d->len)
        break;
      start = i > context ? i - context : 0;
      end = i;
      for (guint j = i; j < d->len; j++)
        if (g_array_index (d, KsDiffLine, j).op != KS_DIFF_SAME)
          end = j;
        else if (j - end > 2 * context)
          break;
      end = MIN (end + context + 1, d->len);
      for (guint j = start; j < end; j++)
        {
          const KsDiffLine *e = &g_array_index (d, KsDiffLine, j);

          if (e->a_line && !first_a)
            first_a = e->a_line;
          if (e->b_line && !first_b)
            first_b = e->b_line;
          n_a += e->a_line != 0;
          n_b += e->b_line != 0;
        }
      g_string_append_printf (out, "@@ -%u,%u +%u,%u @@\n", first_a, n_a, first_b, n_b);
      for (guint j = start; j < end; j++)
        {
          const KsDiffLine *e = &g_array_index (d, KsDiffLine, j);
          const char *text = e->op == KS_DIFF_ADDED ? lb[e->b_line - 1] : la[e->a_line - 1];

          g_string_append_printf (out, "%c%s\n", e->op == KS_DIFF_SAME ? ' '
                                  : e->op == KS_DIFF_GONE ? '-' : '+', text);
        }
      any = TRUE;
      i = end;
    }
  if (!any)
    g_string_append (out, _("(the same)\n"));
  g_string_append_c (out, '\n');
}

static void
fill_code (KsCompareWindow *self)
{
  KsComparison *c = self->comparison;
  g_autoptr(GString) diff = g_string_new (NULL);
  g_autofree char *cuda_a = g_strdup_printf ("A: %s (CUDA)", self->name_a);
  g_autofree char *cuda_b = g_strdup_printf ("B: %s (CUDA)", self->name_b);
  g_autofree char *ptx_a = g_strdup_printf ("A: %s (PTX)", self->name_a);
  g_autofree char *ptx_b = g_strdup_printf ("B: %s (PTX)", self->name_b);
  GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default ();

  show_code (self);
  if (c->cuda_a != NULL || c->cuda_b != NULL)
    append_unified (diff, cuda_a, cuda_b, c->cuda_a, c->cuda_b, c->cuda_diff);
  append_unified (diff, ptx_a, ptx_b, c->a->ptx_text, c->b->ptx_text,
                  ks_comparison_get_ptx_diff (c));
  gtk_source_buffer_set_language (code_buffer (self->diff_view),
                                  gtk_source_language_manager_get_language (lm, "diff"));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (code_buffer (self->diff_view)), diff->str, -1);
  /* the lines gone and added in the colours of the Code tab, whatever the
   * style scheme makes of the diff language */
  {
    GtkTextBuffer *b = GTK_TEXT_BUFFER (code_buffer (self->diff_view));
    int n = gtk_text_buffer_get_line_count (b);

    for (int i = 0; i < n; i++)
      {
        GtkTextIter start, next;
        gunichar c0, c1;

        gtk_text_buffer_get_iter_at_line (b, &start, i);
        next = start;
        c0 = gtk_text_iter_get_char (&next);
        gtk_text_iter_forward_char (&next);
        c1 = gtk_text_iter_get_char (&next);
        if ((c0 == '-' && c1 != '-') || (c0 == '+' && c1 != '+'))
          mark_line (b, (guint) i + 1, c0 == '-' ? "ks-diff-gone" : "ks-diff-added");
        else if (c0 == '@')
          mark_line (b, (guint) i + 1, "ks-diff-focus");
      }
  }
}

static void
fill (KsCompareWindow *self)
{
  const KsComparison *c = self->comparison;
  double axis = 0;
  g_autofree char *title = g_strdup_printf (_("Compare: %s and %s"), self->name_a, self->name_b);
  g_autofree char *side_a = g_strdup_printf ("A  %s", self->name_a);
  g_autofree char *side_b = g_strdup_printf ("B  %s", self->name_b);
  gboolean same_gpu = (c->a->gpu == NULL) == (c->b->gpu == NULL)
                      && (c->a->gpu == NULL || g_str_equal (c->a->gpu->id, c->b->gpu->id))
                      && g_str_equal (c->a->arch->id, c->b->arch->id);
  /* a baseline may have run on another GPU: the figures then differ for it
   * too, which the title says */
  g_autofree char *gpu = same_gpu
    ? g_strdup_printf (_("On %s (%s), the same GPU for both"),
                       c->a->gpu ? c->a->gpu->name : c->a->arch->id, c->a->arch->id)
    : g_strdup_printf (_("A on %s, B on %s: different GPUs"),
                       c->a->gpu ? c->a->gpu->name : c->a->arch->id,
                       c->b->gpu ? c->b->gpu->name : c->b->arch->id);

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (GTK_LABEL (self->title_label), title);
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), gpu);
  /* with the group's drop-downs, the letter alone */
  gtk_label_set_text (GTK_LABEL (self->side_a_label), self->group ? "A" : side_a);
  gtk_label_set_text (GTK_LABEL (self->side_b_label), self->group ? "B" : side_b);
  gtk_label_set_ellipsize (GTK_LABEL (self->side_a_label),
                           self->group ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  gtk_label_set_ellipsize (GTK_LABEL (self->side_b_label),
                           self->group ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (self->side_a_label, self->group == NULL);
  gtk_widget_set_hexpand (self->side_b_label, self->group == NULL);
  gtk_widget_set_hexpand (self->pick_a, self->group != NULL);
  gtk_widget_set_hexpand (self->pick_b, self->group != NULL);
  gtk_label_set_text (GTK_LABEL (self->status_label), "");
  gtk_widget_set_visible (self->spinner, FALSE);
  gtk_spinner_stop (GTK_SPINNER (self->spinner));
  fill_keys (self);
  fill_figures (self);

  /* the timelines on one axis: the longer run's */
  if (c->a->timing)
    axis = MAX (axis, c->a->timing->cycles);
  if (c->b->timing)
    axis = MAX (axis, c->b->timing->cycles);
  ks_timeline_set_analysis (KS_TIMELINE (self->timeline_a), c->a->timing ? c->a : NULL);
  ks_timeline_set_analysis (KS_TIMELINE (self->timeline_b), c->b->timing ? c->b : NULL);
  ks_timeline_set_axis_cycles (KS_TIMELINE (self->timeline_a), axis);
  ks_timeline_set_axis_cycles (KS_TIMELINE (self->timeline_b), axis);
  ks_timeline_zoom_fit (KS_TIMELINE (self->timeline_a));
  ks_timeline_zoom_fit (KS_TIMELINE (self->timeline_b));
  {
    const KsFigureChange *t = ks_comparison_get (c, "sm_cycles");
    g_autofree char *la = t && t->has_a ? g_strdup_printf (_("A  %s: %.0f cycles (model)"),
                                                           self->name_a, t->a)
                                        : g_strdup_printf (_("A  %s: no timing"), self->name_a);
    g_autofree char *lb = t && t->has_b ? g_strdup_printf (_("B  %s: %.0f cycles (model)"),
                                                           self->name_b, t->b)
                                        : g_strdup_printf (_("B  %s: no timing"), self->name_b);

    gtk_label_set_text (GTK_LABEL (self->timeline_label_a), la);
    gtk_label_set_text (GTK_LABEL (self->timeline_label_b), lb);
  }
  fill_memory (self);
  /* both points on A's curves, B's curves dashed: one chart, on the same
   * architecture; two charts side by side for two architectures */
  ks_occupancy_view_set_analysis (KS_OCCUPANCY_VIEW (self->occupancy_a), c->a);
  ks_occupancy_view_set_analysis (KS_OCCUPANCY_VIEW (self->occupancy_b), c->b);
  {
    gboolean one = c->a->arch != NULL && c->b->arch != NULL
                   && g_str_equal (c->a->arch->id, c->b->arch->id);
    g_autofree char *both = g_strdup_printf (_("A  %s and B  %s"), self->name_a, self->name_b);

    ks_occupancy_view_set_other (KS_OCCUPANCY_VIEW (self->occupancy_a), one ? c->b : NULL, "A",
                                 "B");
    gtk_widget_set_visible (self->occupancy_box_b, !one);
    gtk_label_set_text (GTK_LABEL (self->occupancy_label_a), one ? both : side_a);
    gtk_label_set_text (GTK_LABEL (self->occupancy_label_b), side_b);
  }
  fill_code (self);
}

/* ---- Public ------------------------------------------------------------------- */

void
ks_compare_window_set_analyses (KsCompareWindow *self,
                                KsAnalysis      *a,
                                const char      *name_a,
                                guint            focus_a,
                                KsAnalysis      *b,
                                const char      *name_b,
                                guint            focus_b)
{
  g_return_if_fail (KS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (a != NULL && b != NULL);

  g_clear_pointer (&self->comparison, ks_comparison_free);
  g_free (self->name_a);
  g_free (self->name_b);
  self->name_a = g_strdup (name_a);
  self->name_b = g_strdup (name_b);
  self->focus_a = focus_a;
  self->focus_b = focus_b;
  self->comparison = ks_comparison_new (a, b, focus_a, focus_b);
  fill (self);
}

const KsComparison *
ks_compare_window_get_comparison (KsCompareWindow *self)
{
  g_return_val_if_fail (KS_IS_COMPARE_WINDOW (self), NULL);
  return self->comparison;
}

typedef struct
{
  char *path_a, *path_b, *name_a, *name_b, *gpu;
  guint focus_a, focus_b;
  guint serial;
  KsAnalysis *a, *b;
} Job;

static void
job_free (Job *j)
{
  g_free (j->path_a);
  g_free (j->path_b);
  g_free (j->name_a);
  g_free (j->name_b);
  g_free (j->gpu);
  g_clear_pointer (&j->a, ks_analysis_unref);
  g_clear_pointer (&j->b, ks_analysis_unref);
  g_free (j);
}

static KsAnalysis *
analyse (const char *path,
         const char *gpu)
{
  KsAnalysisRequest req;

  ks_analysis_request_init (&req);
  req.path = path;
  req.gpu = gpu;
  req.max_seconds = 10.0;
  return ks_analysis_run (&req, NULL, NULL, NULL);
}

static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  Job *j = data;

  j->a = analyse (j->path_a, j->gpu);
  /* B on A's GPU: no figure changes because the GPU did */
  j->b = analyse (j->path_b, j->gpu ? j->gpu : j->a->gpu ? j->a->gpu->id : NULL);
  g_task_return_boolean (task, TRUE);
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  KsCompareWindow *self = KS_COMPARE_WINDOW (source);
  Job *j = g_task_get_task_data (G_TASK (result));

  if (g_cancellable_is_cancelled (self->cancellable) || j->serial != self->serial)
    return;
  if (j->a->status == KS_ANALYSIS_FAILED || j->b->status == KS_ANALYSIS_FAILED)
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", j->a->status == KS_ANALYSIS_FAILED
                                                          ? j->name_a : j->name_b,
                                              j->a->status == KS_ANALYSIS_FAILED
                                                ? j->a->error : j->b->error);

      gtk_label_set_text (GTK_LABEL (self->status_label), msg);
      gtk_widget_set_visible (self->spinner, FALSE);
      return;
    }
  ks_compare_window_set_analyses (self, j->a, j->name_a, j->focus_a, j->b, j->name_b, j->focus_b);
}

static void
start_job (KsCompareWindow *self,
           Job             *j)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, job_done, NULL);

  j->serial = ++self->serial;
  gtk_widget_set_visible (self->spinner, TRUE);
  gtk_spinner_start (GTK_SPINNER (self->spinner));
  gtk_label_set_text (GTK_LABEL (self->status_label), _("Analysing both kernels…"));
  g_task_set_task_data (task, j, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, job_thread);
}

void
ks_compare_window_open_files (KsCompareWindow *self,
                              const char      *path_a,
                              const char      *path_b,
                              const char      *gpu)
{
  Job *j = g_new0 (Job, 1);

  g_return_if_fail (KS_IS_COMPARE_WINDOW (self));
  j->path_a = g_strdup (path_a);
  j->path_b = g_strdup (path_b);
  j->name_a = g_path_get_basename (path_a);
  j->name_b = g_path_get_basename (path_b);
  j->gpu = g_strdup (gpu);
  gtk_widget_set_visible (self->pick_a, FALSE);
  gtk_widget_set_visible (self->pick_b, FALSE);
  start_job (self, j);
}

static char *
sample_name (const KsSample *s)
{
  return s->number ? g_strdup_printf ("%02u %s", s->number, s->title) : g_strdup (s->title);
}

static void
open_picked (KsCompareWindow *self)
{
  const KsSample *a = self->group->pdata[self->index_a], *b = self->group->pdata[self->index_b];
  Job *j = g_new0 (Job, 1);

  j->path_a = g_strdup (ks_sample_analysis_path (a));
  j->path_b = g_strdup (ks_sample_analysis_path (b));
  j->name_a = sample_name (a);
  j->name_b = sample_name (b);
  j->focus_a = a->focus_line;
  j->focus_b = b->focus_line;
  j->gpu = g_strdup (self->gpu);
  start_job (self, j);
}

static void
picked_cb (GtkDropDown     *drop,
           GParamSpec      *pspec,
           KsCompareWindow *self)
{
  guint i = gtk_drop_down_get_selected (drop);

  if (i == GTK_INVALID_LIST_POSITION || self->group == NULL)
    return;
  if (GTK_WIDGET (drop) == self->pick_a)
    self->index_a = i;
  else
    self->index_b = i;
  open_picked (self);
}

void
ks_compare_window_open_samples (KsCompareWindow *self,
                                GPtrArray       *group,
                                guint            a,
                                guint            b,
                                const char      *gpu)
{
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;
  g_autoptr(GtkStringList) model_a = NULL;
  g_autoptr(GtkStringList) model_b = NULL;

  g_return_if_fail (KS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (group != NULL && a < group->len && b < group->len);

  g_clear_pointer (&self->group, g_ptr_array_unref);
  self->group = g_ptr_array_ref (group);
  self->index_a = a;
  self->index_b = b;
  g_free (self->gpu);
  self->gpu = g_strdup (gpu);
  for (guint i = 0; i < group->len; i++)
    {
      g_autofree char *name = sample_name (group->pdata[i]);

      g_strv_builder_add (names, name);
    }
  list = g_strv_builder_end (names);
  model_a = gtk_string_list_new ((const char *const *) list);
  model_b = gtk_string_list_new ((const char *const *) list);
  g_signal_handlers_block_by_func (self->pick_a, picked_cb, self);
  g_signal_handlers_block_by_func (self->pick_b, picked_cb, self);
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->pick_a), G_LIST_MODEL (model_a));
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->pick_b), G_LIST_MODEL (model_b));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->pick_a), a);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->pick_b), b);
  g_signal_handlers_unblock_by_func (self->pick_a, picked_cb, self);
  g_signal_handlers_unblock_by_func (self->pick_b, picked_cb, self);
  gtk_widget_set_visible (self->pick_a, TRUE);
  gtk_widget_set_visible (self->pick_b, TRUE);
  open_picked (self);
}

static void
swap_clicked (KsCompareWindow *self)
{
  KsComparison *c = self->comparison;
  g_autofree char *na = NULL, *nb = NULL;
  guint fa = self->focus_a, fb = self->focus_b;

  if (c == NULL)
    return;
  if (self->group != NULL)
    {
      guint t = self->index_a;

      self->index_a = self->index_b;
      self->index_b = t;
      g_signal_handlers_block_by_func (self->pick_a, picked_cb, self);
      g_signal_handlers_block_by_func (self->pick_b, picked_cb, self);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->pick_a), self->index_a);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->pick_b), self->index_b);
      g_signal_handlers_unblock_by_func (self->pick_a, picked_cb, self);
      g_signal_handlers_unblock_by_func (self->pick_b, picked_cb, self);
    }
  na = g_strdup (self->name_a);
  nb = g_strdup (self->name_b);
  {
    KsAnalysis *a = ks_analysis_ref (c->a), *b = ks_analysis_ref (c->b);

    ks_compare_window_set_analyses (self, b, nb, fb, a, na, fa);
    ks_analysis_unref (a);
    ks_analysis_unref (b);
  }
}

void
ks_compare_window_set_page (KsCompareWindow *self,
                            const char      *page)
{
  g_return_if_fail (KS_IS_COMPARE_WINDOW (self));
  if (page != NULL && gtk_stack_get_child_by_name (GTK_STACK (self->stack), page) != NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), page);
}

static void
update_scheme (KsCompareWindow *self)
{
  GtkSourceStyleSchemeManager *sm = gtk_source_style_scheme_manager_get_default ();
  const char *id = self->presentation ? "kernelscope-contrast" : "kernelscope";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (sm, id);
  GtkWidget *views[] = { self->code_a, self->code_b, self->diff_view };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (scheme != NULL)
      gtk_source_buffer_set_style_scheme (code_buffer (views[i]), scheme);
}

/* On a projector the key figures give their height to the views: they
 * stay on the Figures tab, whose table has them all */
static void
update_keys_visible (KsCompareWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));

  gtk_widget_set_visible (self->key_box, !self->presentation || g_strcmp0 (page, "figures") == 0);
}

void
ks_compare_window_set_presentation (KsCompareWindow *self,
                                    gboolean         presentation)
{
  g_return_if_fail (KS_IS_COMPARE_WINDOW (self));
  self->presentation = presentation;
  if (presentation)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
  ks_timeline_set_presentation (KS_TIMELINE (self->timeline_a), presentation);
  ks_timeline_set_presentation (KS_TIMELINE (self->timeline_b), presentation);
  ks_memory_view_set_presentation (KS_MEMORY_VIEW (self->memory_a), presentation);
  ks_memory_view_set_presentation (KS_MEMORY_VIEW (self->memory_b), presentation);
  ks_occupancy_view_set_presentation (KS_OCCUPANCY_VIEW (self->occupancy_a), presentation);
  ks_occupancy_view_set_presentation (KS_OCCUPANCY_VIEW (self->occupancy_b), presentation);
  update_scheme (self);
  update_keys_visible (self);
}

static gboolean
shot_ready (GtkWindow *window)
{
  return KS_COMPARE_WINDOW (window)->comparison != NULL;
}

static gboolean
shot_busy (GtkWindow *window)
{
  return KS_COMPARE_WINDOW (window)->comparison == NULL;
}

void
ks_compare_window_set_screenshot (KsCompareWindow *self,
                                  const char      *path,
                                  int              width,
                                  int              height)
{
  g_return_if_fail (KS_IS_COMPARE_WINDOW (self));
  ks_shot_set (&self->shot, GTK_WINDOW (self), path, width, height);
  self->shot.busy = shot_busy;
  ks_shot_start (&self->shot, GTK_WINDOW (self), 800, shot_ready);
}

/* ---- Construction -------------------------------------------------------------- */

static GtkWidget *
code_view (const char *name)
{
  GtkWidget *v = gtk_source_view_new ();
  GtkTextBuffer *b = gtk_text_view_get_buffer (GTK_TEXT_VIEW (v));
  GdkRGBA gone, added, focus;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (v), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (v), TRUE);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (v), TRUE);
  gtk_widget_add_css_class (v, "ks-code");
  gtk_accessible_update_property (GTK_ACCESSIBLE (v), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  /* Okabe-Ito vermilion and bluish green: told apart without red-green */
  gdk_rgba_parse (&gone, "rgba(213,94,0,0.22)");
  gdk_rgba_parse (&added, "rgba(0,158,115,0.22)");
  gdk_rgba_parse (&focus, "rgba(230,159,0,0.30)");
  gtk_text_buffer_create_tag (b, "ks-diff-gone", "paragraph-background-rgba", &gone, NULL);
  gtk_text_buffer_create_tag (b, "ks-diff-added", "paragraph-background-rgba", &added, NULL);
  gtk_text_buffer_create_tag (b, "ks-diff-focus", "paragraph-background-rgba", &focus, NULL);
  return v;
}

/* A view under its caption */
static GtkWidget *
captioned (GtkWidget  *view,
           GtkWidget **caption,
           gboolean    scroll)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  *caption = label_new ("", "heading", 0);
  /* (two captions side by side must not widen the window past a projector) */
  gtk_label_set_ellipsize (GTK_LABEL (*caption), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (*caption, 6);
  gtk_box_append (GTK_BOX (box), *caption);
  gtk_widget_set_vexpand (view, TRUE);
  gtk_widget_set_hexpand (view, TRUE);
  gtk_box_append (GTK_BOX (box), scroll ? scrolled (view) : view);
  gtk_widget_set_vexpand (box, TRUE);
  gtk_widget_set_hexpand (box, TRUE);
  return box;
}

static GtkWidget *
pair (GtkOrientation orientation,
      GtkWidget     *first,
      GtkWidget     *second)
{
  GtkWidget *p = gtk_paned_new (orientation);

  gtk_paned_set_start_child (GTK_PANED (p), first);
  gtk_paned_set_end_child (GTK_PANED (p), second);
  gtk_paned_set_resize_start_child (GTK_PANED (p), TRUE);
  gtk_paned_set_resize_end_child (GTK_PANED (p), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (p), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (p), FALSE);
  return p;
}

static GtkWidget *
picker (KsCompareWindow *self,
        const char      *name)
{
  GtkWidget *d = gtk_drop_down_new (NULL, NULL);

  /* the button's title ellipsized, so that two long sample titles fit a
   * 1024-pixel projector; the list's in full */
  ks_widget_drop_down_ellipsize (GTK_DROP_DOWN (d), -1);

  gtk_accessible_update_property (GTK_ACCESSIBLE (d), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_set_tooltip_text (d, name);
  gtk_widget_set_visible (d, FALSE);
  g_signal_connect (d, "notify::selected", G_CALLBACK (picked_cb), self);
  return d;
}

static void
ks_compare_window_init (KsCompareWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *sides = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *figures_scroller;

  self->cancellable = g_cancellable_new ();
  gtk_window_set_default_size (GTK_WINDOW (self), 1280, 800);
  gtk_widget_add_css_class (GTK_WIDGET (self), "ks-compare");

  /* the header: the title, the GPU, and swapping the sides */
  self->title_label = label_new (_("Compare"), "title", 0.5);
  self->subtitle_label = label_new ("", "subtitle", 0.5);
  gtk_label_set_ellipsize (GTK_LABEL (self->title_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (titles), self->title_label);
  gtk_box_append (GTK_BOX (titles), self->subtitle_label);
  gtk_widget_set_valign (titles, GTK_ALIGN_CENTER);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), titles);
  self->swap_button = gtk_button_new_from_icon_name ("object-flip-horizontal-symbolic");
  gtk_widget_set_tooltip_text (self->swap_button, _("Swap A and B"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->swap_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Swap A and B"), -1);
  g_signal_connect_swapped (self->swap_button, "clicked", G_CALLBACK (swap_clicked), self);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), self->swap_button);
  self->spinner = gtk_spinner_new ();
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), self->spinner);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  /* A and B, each with its pick when a group of samples is open */
  self->side_a_label = label_new ("A", "heading", 0);
  self->side_b_label = label_new ("B", "heading", 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->side_a_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_ellipsize (GTK_LABEL (self->side_b_label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (self->side_a_label, TRUE);
  gtk_widget_set_hexpand (self->side_b_label, TRUE);
  self->pick_a = picker (self, _("Kernel A"));
  self->pick_b = picker (self, _("Kernel B"));
  gtk_box_append (GTK_BOX (sides), self->side_a_label);
  gtk_box_append (GTK_BOX (sides), self->pick_a);
  gtk_box_append (GTK_BOX (sides), self->side_b_label);
  gtk_box_append (GTK_BOX (sides), self->pick_b);
  gtk_widget_add_css_class (sides, "ks-pane-header");
  gtk_box_append (GTK_BOX (outer), sides);

  /* the key figures */
  self->key_box = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->key_box), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->key_box), G_N_ELEMENTS (key_figures));
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (self->key_box), 2);
  gtk_widget_set_size_request (self->key_box, 200, -1);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->key_box), TRUE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->key_box), 12);
  gtk_widget_set_margin_start (self->key_box, 12);
  gtk_widget_set_margin_end (self->key_box, 12);
  gtk_widget_set_margin_top (self->key_box, 6);
  gtk_widget_set_margin_bottom (self->key_box, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->key_box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Key figures of A and B"), -1);
  gtk_box_append (GTK_BOX (outer), self->key_box);

  /* the tabs */
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (self->stack));
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  self->status_label = label_new ("", "dim-label", 0);
  gtk_label_set_wrap (GTK_LABEL (self->status_label), TRUE);
  gtk_box_append (GTK_BOX (bar), switcher);
  gtk_box_append (GTK_BOX (bar), self->status_label);
  gtk_widget_set_halign (bar, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (bar, "ks-results-header");
  gtk_box_append (GTK_BOX (outer), bar);
  gtk_box_append (GTK_BOX (outer), self->stack);

  self->figures_box = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->figures_box), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->figures_box), 2);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (self->figures_box), 1);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->figures_box), 12);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->figures_box), 12);
  gtk_widget_set_valign (self->figures_box, GTK_ALIGN_START);
  gtk_widget_set_margin_start (self->figures_box, 12);
  gtk_widget_set_margin_end (self->figures_box, 12);
  gtk_widget_set_margin_top (self->figures_box, 6);
  figures_scroller = scrolled (self->figures_box);
  gtk_stack_add_titled (GTK_STACK (self->stack), figures_scroller, "figures", _("Figures"));

  self->timeline_a = ks_timeline_new ();
  self->timeline_b = ks_timeline_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->timeline_a), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Warp timeline of A"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->timeline_b), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Warp timeline of B"), -1);
  g_signal_connect (self->timeline_a, "range-changed", G_CALLBACK (timeline_range_cb), self);
  g_signal_connect (self->timeline_b, "range-changed", G_CALLBACK (timeline_range_cb), self);
  gtk_stack_add_titled (GTK_STACK (self->stack),
                        pair (GTK_ORIENTATION_VERTICAL,
                              captioned (self->timeline_a, &self->timeline_label_a, FALSE),
                              captioned (self->timeline_b, &self->timeline_label_b, FALSE)),
                        "timelines", _("Timelines"));

  self->memory_a = ks_memory_view_new ();
  self->memory_b = ks_memory_view_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->memory_a), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory access of A"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->memory_b), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory access of B"), -1);
  gtk_stack_add_titled (GTK_STACK (self->stack),
                        pair (GTK_ORIENTATION_VERTICAL,
                              captioned (self->memory_a, &self->memory_label_a, TRUE),
                              captioned (self->memory_b, &self->memory_label_b, TRUE)),
                        "memory", _("Memory"));
  g_signal_connect_swapped (self->stack, "notify::visible-child-name",
                            G_CALLBACK (update_keys_visible), self);

  self->occupancy_a = ks_occupancy_view_new ();
  self->occupancy_b = ks_occupancy_view_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->occupancy_a),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Occupancy of A"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->occupancy_b),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Occupancy of B"), -1);
  gtk_stack_add_titled (GTK_STACK (self->stack),
                        pair (GTK_ORIENTATION_HORIZONTAL,
                              captioned (self->occupancy_a, &self->occupancy_label_a, TRUE),
                              (self->occupancy_box_b = captioned (self->occupancy_b,
                                                                  &self->occupancy_label_b,
                                                                  TRUE))),
                        "occupancy", _("Occupancy"));

  self->code_a = code_view (_("Code of A"));
  self->code_b = code_view (_("Code of B"));
  {
    static const char *const langs[] = { "CUDA", "PTX", "SASS", NULL };
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

    self->code_pick = gtk_drop_down_new_from_strings (langs);
    gtk_widget_set_halign (self->code_pick, GTK_ALIGN_START);
    gtk_widget_set_margin_start (self->code_pick, 6);
    gtk_widget_set_margin_top (self->code_pick, 4);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->code_pick),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Code shown"), -1);
    gtk_widget_set_tooltip_text (self->code_pick, _("Code shown"));
    g_signal_connect_swapped (self->code_pick, "notify::selected", G_CALLBACK (show_code), self);
    gtk_box_append (GTK_BOX (box), self->code_pick);
    gtk_box_append (GTK_BOX (box),
                    pair (GTK_ORIENTATION_HORIZONTAL,
                          captioned (self->code_a, &self->code_label_a, TRUE),
                          captioned (self->code_b, &self->code_label_b, TRUE)));
    gtk_stack_add_titled (GTK_STACK (self->stack), box, "code", _("Code"));
  }

  self->diff_view = code_view (_("Diff of the CUDA and the PTX"));
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (self->diff_view), FALSE);
  gtk_stack_add_titled (GTK_STACK (self->stack), scrolled (self->diff_view), "diff", _("Diff"));

  gtk_window_set_child (GTK_WINDOW (self), outer);
  ks_a11y_name_drop_down_buttons (outer);
  update_scheme (self);
}

static void
ks_compare_window_dispose (GObject *object)
{
  KsCompareWindow *self = KS_COMPARE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  ks_shot_clear (&self->shot);
  G_OBJECT_CLASS (ks_compare_window_parent_class)->dispose (object);
}

static void
ks_compare_window_finalize (GObject *object)
{
  KsCompareWindow *self = KS_COMPARE_WINDOW (object);

  g_clear_pointer (&self->comparison, ks_comparison_free);
  g_clear_pointer (&self->group, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_free (self->name_a);
  g_free (self->name_b);
  g_free (self->gpu);
  G_OBJECT_CLASS (ks_compare_window_parent_class)->finalize (object);
}

static void
close_action (GtkWidget  *widget,
              const char *action,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
ks_compare_window_class_init (KsCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_compare_window_dispose;
  object_class->finalize = ks_compare_window_finalize;
  gtk_widget_class_install_action (widget_class, "compare.close", NULL, close_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "compare.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "compare.close", NULL);
}

KsCompareWindow *
ks_compare_window_new (GtkWindow *parent)
{
  KsCompareWindow *self = g_object_new (KS_TYPE_COMPARE_WINDOW, NULL);

  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
    }
  return self;
}
