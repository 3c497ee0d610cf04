/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-compare.c: the main window's part of Compare (issue 20).
 *
 * A baseline: "Set as Baseline" keeps the last good analysis; every run
 * after it shows, in a bar under the header, its key figures against the
 * baseline, and "Compare" opens both in a Compare window, until the
 * baseline is cleared.  Samples: the open sample's course partners (its
 * sample.json "compare") and the course's groups (copies, transposes,
 * reductions, histograms, matrix multiplies) open in a Compare window, as
 * does the compare button of a row of the Samples list. */

#include <glib/gi18n.h>
#include <string.h>

#include "ks-compare-window.h"
#include "ks-occupancy-view.h"
#include "ks-window-private.h"

/* The bar's figures: the time and what the course pairs teach */
static const char *const bar_figures[] = {
  "estimated_duration_us", "shared_wavefronts_excess", "sectors_per_request", "occupancy",
  "registers",
};

/* The course's groups, by their first sample; the menu's labels */
static const struct
{
  const char *first;
  const char *label;
} course_groups[] = {
  { "07-copy-coalesced", N_("Copies: 07, 08, 09") },
  { "10-transpose-naive", N_("Transposes: 10, 11, 12") },
  { "14-reduce-interleaved", N_("Reductions: 14, 15, 16") },
  { "19-histogram-global", N_("Histograms: 19, 20") },
  { "21-matmul-naive", N_("Matrix multiplies: 21, 22") },
};

static KsCompareWindow *
new_compare_window (KsWindow *self)
{
  KsCompareWindow *w = ks_compare_window_new (GTK_WINDOW (self));

  ks_compare_window_set_presentation (w, self->presentation);
  gtk_window_present (GTK_WINDOW (w));
  return w;
}

static const char *
gpu_for_compare (KsWindow *self)
{
  return self->gpu_chosen ? _ks_window_get_gpu_id (self)
         : self->analysis ? (((KsAnalysis *) self->analysis)->gpu
                               ? ((KsAnalysis *) self->analysis)->gpu->id : NULL)
         : NULL;
}

/* Opens sample `id` against its first partner (or `other`) */
static void
compare_samples (KsWindow   *self,
                 const char *id,
                 const char *other)
{
  guint a = 0, b = 0;
  g_autoptr(GPtrArray) group = ks_samples_group (self->samples, id, &a);
  KsCompareWindow *w;

  if (group->len < 2)
    {
      g_autofree char *msg = g_strdup_printf (_("Sample %s names no other sample to compare "
                                                "with (\"compare\" in its sample.json)"), id);

      _ks_window_show_message (self, msg);
      return;
    }
  b = a == 0 ? 1 : 0;
  for (guint i = 0; other != NULL && i < group->len; i++)
    if (g_str_equal (((KsSample *) group->pdata[i])->id, other))
      b = i;
  w = new_compare_window (self);
  ks_compare_window_open_samples (w, group, a, b, gpu_for_compare (self));
}

static void
compare_sample_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);
  g_autofree char *id = g_strdup (g_variant_get_string (parameter, NULL));
  char *bar = strchr (id, '|');

  /* "A" or "A|B" */
  if (bar != NULL)
    *bar++ = '\0';
  gtk_popover_popdown (self->samples_popover);
  compare_samples (self, id, bar);
}

/* ---- The baseline ---------------------------------------------------------------- */

/* The hints list's rows that are new since the baseline say so (and
 * none does without one); the Occupancy view shows the baseline's point */
static void
mark_views (KsWindow           *self,
            const KsComparison *c)
{
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (self->hints_list, i)) != NULL; i++)
    {
      GtkWidget *grid = gtk_list_box_row_get_child (row);
      const KsHint *hint = g_object_get_data (G_OBJECT (row), "ks-hint");
      GtkWidget *old = NULL;
      gboolean added = FALSE;

      if (!GTK_IS_GRID (grid))
        continue;
      for (GtkWidget *ch = gtk_widget_get_first_child (grid); ch; ch = gtk_widget_get_next_sibling (ch))
        if (gtk_widget_has_css_class (ch, "ks-hint-new"))
          old = ch;
      for (guint h = 0; c != NULL && h < c->hints_added->len; h++)
        added |= c->hints_added->pdata[h] == hint;
      if (added && old == NULL)
        {
          GtkWidget *l = gtk_label_new (_("new since the baseline"));

          gtk_widget_add_css_class (l, "ks-hint-new");
          gtk_widget_add_css_class (l, "caption-heading");
          gtk_widget_set_valign (l, GTK_ALIGN_START);
          gtk_grid_attach (GTK_GRID (grid), l, 2, 1, 1, 1);
        }
      else if (!added && old != NULL)
        gtk_grid_remove (GTK_GRID (grid), old);
    }
  ks_occupancy_view_set_other (KS_OCCUPANCY_VIEW (self->occupancy_view),
                               c != NULL ? c->a : NULL, _("Now"), _("Baseline"));
}

static void
update_bar (KsWindow *self)
{
  KsAnalysis *now = self->analysis, *base = self->baseline;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(KsComparison) c = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.set-baseline", now != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-baseline", base != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-baseline",
                                 base != NULL && now != NULL);
  if (base == NULL || now == NULL)
    {
      gtk_revealer_set_reveal_child (GTK_REVEALER (self->baseline_revealer), FALSE);
      mark_views (self, NULL);
      return;
    }
  if (now == base)
    {
      mark_views (self, NULL);
      g_string_append (text, _("Baseline set: edit and run, and each figure shows its change "
                               "against it."));
    }
  else
    {
      gboolean first = TRUE;

      c = ks_comparison_new (base, now, 0, 0);
      mark_views (self, c);
      g_string_append (text, _("Against the baseline:"));
      for (guint i = 0; i < G_N_ELEMENTS (bar_figures); i++)
        {
          const KsFigureChange *f = ks_comparison_get (c, bar_figures[i]);
          g_autofree char *va = NULL, *vb = NULL, *d = NULL;

          /* (registers from ptxas against an estimate: not a change) */
          if (f == NULL || !f->has_a || !f->has_b || f->note != NULL)
            continue;
          va = ks_figure_change_format (f, FALSE);
          vb = ks_figure_change_format (f, TRUE);
          d = ks_figure_change_format_delta (f);
          g_string_append_printf (text, "%s %s %s → %s", first ? "" : " ·", f->label, va, vb);
          first = FALSE;
          if (f->verdict == KS_CHANGE_BETTER)
            g_string_append_printf (text, _(" (%s, better)"), d);
          else if (f->verdict == KS_CHANGE_WORSE)
            g_string_append_printf (text, _(" (%s, worse)"), d);
          else if (f->verdict == KS_CHANGE_DIFFERENT)
            g_string_append_printf (text, " (%s)", d);
        }
      if (c->hints_gone->len || c->hints_added->len)
        g_string_append_printf (text, _(" · hints: %u gone, %u added"), c->hints_gone->len,
                                c->hints_added->len);
      if (base->gpu != NULL && now->gpu != NULL && !g_str_equal (base->gpu->id, now->gpu->id))
        g_string_append_printf (text, _(" · the baseline ran on %s, this run on %s"),
                                base->gpu->name, now->gpu->name);
    }
  gtk_label_set_text (GTK_LABEL (self->baseline_label), text->str);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->baseline_revealer), TRUE);
}

void
_ks_window_compare_update (KsWindow *self)
{
  update_bar (self);
  _ks_window_compare_update_menu (self);
}

static void
set_baseline_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);

  if (self->analysis == NULL)
    return;
  g_clear_pointer ((KsAnalysis **) &self->baseline, ks_analysis_unref);
  self->baseline = ks_analysis_ref (self->analysis);
  update_bar (self);
}

static void
clear_baseline_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);

  g_clear_pointer ((KsAnalysis **) &self->baseline, ks_analysis_unref);
  update_bar (self);
}

static void
compare_baseline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  KsWindow *self = KS_WINDOW (widget);
  KsCompareWindow *w;

  if (self->baseline == NULL || self->analysis == NULL)
    return;
  w = new_compare_window (self);
  ks_compare_window_set_analyses (w, self->baseline, _("Baseline"), 0, self->analysis, _("Now"),
                                  0);
}

/* ---- The menu -------------------------------------------------------------------- */

/* The Compare menu's partners of the open sample */
void
_ks_window_compare_update_menu (KsWindow *self)
{
  GMenu *section = self->compare_partners_section;

  if (section == NULL)
    return;
  g_menu_remove_all (section);
  for (guint i = 0; self->lesson != NULL && self->lesson->partners[i] != NULL; i++)
    {
      const KsSample *o = ks_samples_find (self->samples, self->lesson->partners[i]);
      g_autofree char *label = NULL, *target = NULL;

      if (o == NULL)
        continue;
      /* (the number alone: a title is the sample's English, which a
       * translated menu must not show) */
      label = g_strdup_printf (_("With Sample %02u"), o->number);
      target = g_strdup_printf ("%s|%s", self->lesson->id, o->id);
      {
        GMenuItem *item = g_menu_item_new (label, NULL);

        g_menu_item_set_action_and_target_value (item, "win.compare-sample",
                                                 g_variant_new_string (target));
        g_menu_append_item (section, item);
        g_object_unref (item);
      }
    }
}

/* The compare button of a Samples row with partners */
GtkWidget *
_ks_window_compare_sample_button (KsWindow       *self,
                                  const KsSample *sample)
{
  GtkWidget *button;
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *tip = NULL;

  if (sample->partners[0] == NULL)
    return NULL;
  for (guint i = 0; sample->partners[i] != NULL; i++)
    {
      const KsSample *o = ks_samples_find (self->samples, sample->partners[i]);

      g_string_append_printf (names, "%s%02u", i ? ", " : "", o ? o->number : 0);
    }
  tip = g_strdup_printf (_("Compare sample %02u with %s"), sample->number, names->str);
  button = gtk_button_new_from_icon_name ("view-dual-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.compare-sample");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                          g_variant_new_string (sample->id));
  return button;
}

void
_ks_window_compare_init (KsWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *compare = gtk_button_new_with_mnemonic (_("_Compare"));
  GtkWidget *clear = gtk_button_new_with_mnemonic (_("C_lear Baseline"));

  /* the bar, under the messages */
  self->baseline_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->baseline_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->baseline_label), 0);
  gtk_widget_set_hexpand (self->baseline_label, TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (compare), "win.compare-baseline");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (clear), "win.clear-baseline");
  gtk_widget_set_tooltip_text (compare, _("Both runs in a Compare window, every figure"));
  gtk_widget_set_valign (compare, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (clear, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), self->baseline_label);
  gtk_box_append (GTK_BOX (box), compare);
  gtk_box_append (GTK_BOX (box), clear);
  gtk_widget_add_css_class (box, "ks-banner");
  gtk_widget_add_css_class (box, "ks-baseline");
  self->baseline_revealer = gtk_revealer_new ();
  gtk_revealer_set_child (GTK_REVEALER (self->baseline_revealer), box);
  gtk_widget_insert_after (self->baseline_revealer,
                           gtk_widget_get_parent (GTK_WIDGET (self->message_revealer)),
                           GTK_WIDGET (self->message_revealer));

  /* the course's groups in the menu */
  for (guint i = 0; i < G_N_ELEMENTS (course_groups); i++)
    if (ks_samples_find (self->samples, course_groups[i].first) != NULL)
      {
        GMenuItem *item = g_menu_item_new (_(course_groups[i].label), NULL);

        g_menu_item_set_action_and_target_value (item, "win.compare-sample",
                                                 g_variant_new_string (course_groups[i].first));
        g_menu_append_item (self->compare_course_section, item);
        g_object_unref (item);
      }
  update_bar (self);
}

void
_ks_window_compare_finalize (KsWindow *self)
{
  g_clear_pointer ((KsAnalysis **) &self->baseline, ks_analysis_unref);
}

void
_ks_window_compare_class_init (GtkWidgetClass *klass)
{
  gtk_widget_class_install_action (klass, "win.set-baseline", NULL, set_baseline_action);
  gtk_widget_class_install_action (klass, "win.clear-baseline", NULL, clear_baseline_action);
  gtk_widget_class_install_action (klass, "win.compare-baseline", NULL, compare_baseline_action);
  gtk_widget_class_install_action (klass, "win.compare-sample", "s", compare_sample_action);
}
