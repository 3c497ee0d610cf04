/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-heat.c: the heat gutters of the CUDA, PTX and SASS panes.
 *
 * Each pane gets a KsHeatGutter beside its text that colours every line by
 * a figure of the last good run's per-line statistics (the metric chosen
 * in the CUDA pane's header), and a legend in its header row.  PTX lines
 * are coloured by their own statistics; CUDA lines by the sums over their
 * PTX (ks_sim_cuda_line_stats); SASS lines by the CUDA line their line
 * records name, on the CUDA pane's scale.  When a run fails the gutters
 * stay, drawn faint, as the stale mark says. */

#include <glib/gi18n.h>

#include "ks-fold-box.h"
#include "ks-heat-gutter.h"
#include "ks-window-private.h"

typedef struct _Heat Heat;

typedef struct
{
  Heat *heat;
  KsHeatPane pane;
} PaneRef;

struct _Heat
{
  KsWindow *window;             /* borrowed: it owns this */
  GtkSourceGutterRenderer *gutters[KS_HEAT_N_PANES];   /* the gutters own them */
  GtkWidget *legends[KS_HEAT_N_PANES];                 /* the headers own them */
  GtkDropDown *chooser;
  PaneRef refs[KS_HEAT_N_PANES];
  int metric;                   /* KsHeatMetric, or -1: off */

  KsAnalysis *analysis;         /* the statistics shown, or NULL */
  GArray *ptx_stats;            /* KsSimLineStats by line */
  GArray *cuda_stats;           /* ... by (file, line) */
  uint32_t cuda_file;           /* the .file the CUDA pane shows */
  KsHeatScale ptx_scale;
  KsHeatScale cuda_scale;
  guint sass_idle;              /* looks at a new SASS listing's links */
};

/* The chooser's entries, in KsHeatMetric order, then "Off" */
static const struct
{
  const char *name;             /* in the chooser and the legends */
  const char *unit;             /* what the values are, for the legend's tooltip */
} metrics[KS_HEAT_N_METRICS] = {
  { N_("Executions"), N_("thread-instructions per line") },
  { N_("Divergence"), N_("branches that split a warp") },
  { N_("Bank conflicts"), N_("shared-memory wavefronts beyond the conflict-free ones") },
  { N_("Excess sectors"), N_("global-memory sectors moved beyond the ideal") },
  { N_("Active lanes"), N_("lanes of 32 on the warp's path, on average") },
};

static Heat *
heat_of (KsWindow *self)
{
  return self->heat;
}

/* The statistics of (file, line), or NULL when it never ran */
static const KsSimInsnStats *
find_stats (GArray   *stats,
            uint32_t  file,
            uint32_t  line)
{
  guint lo = 0, hi = stats ? stats->len : 0;
  uint64_t key = ((uint64_t) file << 32) | line;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const KsSimLineStats *ls = &g_array_index (stats, KsSimLineStats, mid);
      uint64_t k = ((uint64_t) ls->file << 32) | ls->line;

      if (k < key)
        lo = mid + 1;
      else if (k > key)
        hi = mid;
      else
        return &ls->stats;
    }
  return NULL;
}

/* What line (1-based) of a pane has run: its statistics, and the scale it
 * is coloured on.  SASS lines borrow their CUDA line's. */
static const KsSimInsnStats *
pane_stats (Heat               *heat,
            KsHeatPane          pane,
            guint               line,
            const KsHeatScale **scale,
            guint              *cuda_line)
{
  KsWindow *self = heat->window;

  if (cuda_line != NULL)
    *cuda_line = 0;
  if (heat->analysis == NULL)
    return NULL;
  switch (pane)
    {
    case KS_HEAT_PANE_PTX:
      *scale = &heat->ptx_scale;
      return find_stats (heat->ptx_stats, 0, line);
    case KS_HEAT_PANE_CUDA:
      *scale = &heat->cuda_scale;
      return find_stats (heat->cuda_stats, heat->cuda_file, line);
    case KS_HEAT_PANE_SASS:
      {
        guint cuda = self->line_map ? ks_line_map_cuda_line_of_sass (self->line_map, line) : 0;

        if (cuda_line != NULL)
          *cuda_line = cuda;
        *scale = &heat->cuda_scale;
        return cuda ? find_stats (heat->cuda_stats, heat->cuda_file, cuda) : NULL;
      }
    case KS_HEAT_N_PANES:
    default:
      return NULL;
    }
}

gboolean
_ks_window_heat_value (KsWindow   *self,
                       KsHeatPane  pane,
                       guint       line,
                       double     *value,
                       uint32_t   *bin)
{
  Heat *heat = heat_of (self);
  const KsHeatScale *scale = NULL;
  const KsSimInsnStats *st;
  double v;

  if (heat == NULL || heat->metric < 0)
    return FALSE;
  st = pane_stats (heat, pane, line, &scale, NULL);
  if (st == NULL || !ks_heat_value (heat->metric, st, &v))
    return FALSE;
  if (value != NULL)
    *value = v;
  if (bin != NULL)
    *bin = ks_heat_bin (scale, v);
  return TRUE;
}

static gboolean
gutter_bin_cb (guint     line,
               uint32_t *bin,
               gpointer  data)
{
  PaneRef *ref = data;

  return _ks_window_heat_value (ref->heat->window, ref->pane, line, NULL, bin);
}

/* ---------------------------------------------------------------------- */
/* Tooltips: a line's figures in words */

/* Whether a PTX line holds an instruction of the analysed module */
static gboolean
ptx_line_has_code (Heat  *heat,
                   guint  line)
{
  const KsPtxModule *m = heat->analysis ? heat->analysis->module : NULL;

  return m != NULL && ks_ptx_module_insn_at_line (m, line) >= 0;
}

char *
_ks_window_heat_tooltip (KsWindow   *self,
                         KsHeatPane  pane,
                         guint       line)
{
  Heat *heat = heat_of (self);
  const KsHeatScale *scale = NULL;
  const KsSimInsnStats *st;
  g_autoptr(GString) s = g_string_new (NULL);
  guint cuda = 0;
  double v;

  if (heat == NULL || heat->analysis == NULL || heat->metric < 0)
    return NULL;
  st = pane_stats (heat, pane, line, &scale, &cuda);
  switch (pane)
    {
    case KS_HEAT_PANE_PTX:
      g_string_append_printf (s, _("PTX line %u"), line);
      if (st == NULL)
        {
          if (!ptx_line_has_code (heat, line))
            return NULL;
          g_string_append (s, _(": never ran in this launch"));
          return g_string_free (g_steal_pointer (&s), FALSE);
        }
      break;
    case KS_HEAT_PANE_CUDA:
      g_string_append_printf (s, _("CUDA line %u"), line);
      if (st == NULL)
        {
          uint32_t n = 0;

          if (self->line_map == NULL || ks_line_map_ptx_lines (self->line_map, line, &n) == NULL)
            return NULL;
          g_string_append (s, _(": never ran in this launch"));
          return g_string_free (g_steal_pointer (&s), FALSE);
        }
      break;
    case KS_HEAT_PANE_SASS:
    case KS_HEAT_N_PANES:
    default:
      if (cuda == 0)
        return NULL;
      g_string_append_printf (s, _("From CUDA line %u"), cuda);
      if (st == NULL)
        {
          g_string_append (s, _(": never ran in this launch"));
          return g_string_free (g_steal_pointer (&s), FALSE);
        }
      break;
    }

  g_string_append (s, "\n");
  {
    g_autofree char *threads = ks_heat_format_count (st->thread_executions);
    g_autofree char *warps = ks_heat_format_count (st->warp_executions);

    /* (numbers as strings: xgettext cannot read G_GUINT64_FORMAT) */
    g_string_append_printf (s, _("%s thread-instructions in %s warp-instructions"), threads, warps);
  }
  {
    g_autofree char *lanes = ks_format_figure ((double) st->active_lanes
                                               / (double) st->warp_executions);

    g_string_append_printf (s, _("\n%s of 32 lanes on the warp's path on average"), lanes);
  }
  if (st->divergent > 0)
    {
      g_autofree char *div = ks_heat_format_count (st->divergent);

      g_string_append_printf (s, _("\n%s times a branch split a warp (divergent)"), div);
    }
  if (st->smem_requests > 0)
    {
      g_autofree char *req = ks_heat_format_count (st->smem_requests);
      g_autofree char *wf = ks_heat_format_count (st->smem_wavefronts);
      uint64_t extra = st->smem_wavefronts > st->smem_ideal_wavefronts
                       ? st->smem_wavefronts - st->smem_ideal_wavefronts : 0;
      g_autofree char *ex = ks_heat_format_count (extra);

      g_string_append_printf (s, _("\nShared memory: %s requests in %s wavefronts, %s of them "
                                   "from bank conflicts"), req, wf, ex);
      if (st->smem_worst_degree > 1)
        g_string_append_printf (s, _(" (at worst %u-way)"), st->smem_worst_degree);
    }
  if (st->gmem_requests > 0)
    {
      g_autofree char *req = ks_heat_format_count (st->gmem_requests);
      g_autofree char *sec = ks_heat_format_count (st->gmem_sectors);
      g_autofree char *ideal = ks_heat_format_count (st->gmem_ideal_sectors);
      g_autofree char *pct = ks_format_figure (st->gmem_sectors
                                               ? 100.0 * st->gmem_ideal_sectors / st->gmem_sectors
                                               : 100.0);

      g_string_append_printf (s, _("\nGlobal memory: %s requests moved %s sectors where %s would "
                                   "do (%s %% sector efficiency)"), req, sec, ideal, pct);
    }
  if (ks_heat_value (heat->metric, st, &v))
    g_string_append_printf (s, _("\nColour %u of %u on the %s scale"), ks_heat_bin (scale, v) + 1,
                            KS_HEAT_N_BINS, _(metrics[heat->metric].name));
  if (ks_heat_gutter_get_dimmed (KS_HEAT_GUTTER (heat->gutters[pane])))
    g_string_append (s, _("\nStale: from the last good run (the latest run failed)"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
gutter_tooltip_cb (guint    line,
                   gpointer data)
{
  PaneRef *ref = data;

  return _ks_window_heat_tooltip (ref->heat->window, ref->pane, line);
}

/* ---------------------------------------------------------------------- */
/* Showing a run */

static void
scale_over (KsHeatScale  *scale,
            int           metric,
            GArray       *stats,
            gboolean      one_file,
            uint32_t      file)
{
  ks_heat_scale_init (scale, metric < 0 ? KS_HEAT_EXECUTIONS : metric);
  for (guint i = 0; metric >= 0 && stats != NULL && i < stats->len; i++)
    {
      const KsSimLineStats *ls = &g_array_index (stats, KsSimLineStats, i);
      double v;

      if (one_file && ls->file != file)
        continue;
      if (ks_heat_value (metric, &ls->stats, &v))
        ks_heat_scale_add (scale, v);
    }
  ks_heat_scale_finish (scale);
}

static void
refresh (Heat *heat)
{
  KsWindow *self = heat->window;
  const char *name = heat->metric >= 0 ? _(metrics[heat->metric].name) : NULL;
  const char *unit = heat->metric >= 0 ? _(metrics[heat->metric].unit) : NULL;
  gboolean on = heat->metric >= 0;
  gboolean sass_linked = FALSE;

  heat->cuda_file = self->line_map ? ks_line_map_get_file (self->line_map) : 0;
  scale_over (&heat->ptx_scale, heat->metric, heat->ptx_stats, FALSE, 0);
  scale_over (&heat->cuda_scale, heat->metric, heat->cuda_stats, TRUE, heat->cuda_file);
  /* the SASS pane's legend only when its lines map to CUDA lines */
  for (guint i = 1; self->line_map != NULL && self->sass_listing != NULL && !sass_linked
                    && i <= (guint) gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (self->sass_buffer));
       i++)
    sass_linked = ks_line_map_cuda_line_of_sass (self->line_map, i) != 0;

  ks_heat_legend_set_scale (KS_HEAT_LEGEND (heat->legends[KS_HEAT_PANE_PTX]), name, unit,
                            on ? &heat->ptx_scale : NULL);
  ks_heat_legend_set_scale (KS_HEAT_LEGEND (heat->legends[KS_HEAT_PANE_CUDA]), name, unit,
                            on && self->cuda_file != NULL ? &heat->cuda_scale : NULL);
  ks_heat_legend_set_scale (KS_HEAT_LEGEND (heat->legends[KS_HEAT_PANE_SASS]), name, unit,
                            on && sass_linked ? &heat->cuda_scale : NULL);
  for (guint p = 0; p < KS_HEAT_N_PANES; p++)
    {
      gtk_widget_set_visible (GTK_WIDGET (heat->gutters[p]), on);
      gtk_widget_queue_draw (GTK_WIDGET (heat->gutters[p]));
    }
}

void
_ks_window_heat_show (KsWindow   *self,
                      KsAnalysis *analysis)
{
  Heat *heat = heat_of (self);

  if (heat == NULL)
    return;
  g_clear_pointer (&heat->ptx_stats, g_array_unref);
  g_clear_pointer (&heat->cuda_stats, g_array_unref);
  g_clear_pointer (&heat->analysis, ks_analysis_unref);
  if (analysis != NULL && analysis->sim != NULL)
    {
      heat->analysis = ks_analysis_ref (analysis);
      heat->ptx_stats = ks_sim_ptx_line_stats (analysis->sim);
      heat->cuda_stats = ks_sim_cuda_line_stats (analysis->sim);
    }
  refresh (heat);
}

void
_ks_window_heat_set_metric (KsWindow *self,
                            int       metric)
{
  Heat *heat = heat_of (self);
  guint n = KS_HEAT_N_METRICS;

  if (heat == NULL)
    return;
  /* the chooser's last entry is "Off" */
  gtk_drop_down_set_selected (heat->chooser, metric >= 0 && metric < KS_HEAT_N_METRICS
                                             ? (guint) metric : n);
}

GtkSourceGutterRenderer *
_ks_window_heat_gutter (KsWindow   *self,
                        KsHeatPane  pane)
{
  Heat *heat = heat_of (self);

  g_return_val_if_fail (pane < KS_HEAT_N_PANES, NULL);
  return heat ? heat->gutters[pane] : NULL;
}

GtkWidget *
_ks_window_heat_legend (KsWindow   *self,
                        KsHeatPane  pane)
{
  Heat *heat = heat_of (self);

  g_return_val_if_fail (pane < KS_HEAT_N_PANES, NULL);
  return heat ? heat->legends[pane] : NULL;
}

/* The heat-metric setting's value of a chooser position, and back: the
 * metrics' ids, then "off" */
static const char *
metric_setting (int metric)
{
  return metric >= 0 && metric < KS_HEAT_N_METRICS ? ks_heat_metric_id (metric) : "off";
}

static void
chooser_cb (Heat        *heat,
            GParamSpec  *pspec,
            GtkDropDown *chooser)
{
  KsWindow *self = heat->window;
  guint i = gtk_drop_down_get_selected (chooser);

  heat->metric = i < KS_HEAT_N_METRICS ? (int) i : -1;
  refresh (heat);
  /* The choice outlives the session; a screenshot leaves it alone */
  if (self->settings != NULL && self->screenshot_path == NULL)
    {
      g_autofree char *was = g_settings_get_string (self->settings, "heat-metric");

      if (g_strcmp0 (was, metric_setting (heat->metric)) != 0)
        g_settings_set_string (self->settings, "heat-metric", metric_setting (heat->metric));
    }
}

/* Another window, or `gsettings set`, chose a metric */
static void
setting_changed_cb (Heat       *heat,
                    const char *key,
                    GSettings  *settings)
{
  g_autofree char *id = g_settings_get_string (settings, "heat-metric");

  _ks_window_heat_set_metric (heat->window, ks_heat_metric_from_id (id));
}

/* The stale mark says the last run failed or was stopped: what the gutters
 * show is from the run before */
static void
stale_cb (Heat       *heat,
          GParamSpec *pspec,
          GtkWidget  *stale_label)
{
  gboolean stale = gtk_widget_get_visible (stale_label);

  for (guint p = 0; p < KS_HEAT_N_PANES; p++)
    {
      ks_heat_gutter_set_dimmed (KS_HEAT_GUTTER (heat->gutters[p]), stale);
      ks_heat_legend_set_dimmed (KS_HEAT_LEGEND (heat->legends[p]), stale);
    }
}

/* A new file or listing: what was shown belongs to other text */
static void
buffer_changed_cb (Heat          *heat,
                   GtkTextBuffer *buffer)
{
  if (heat->window->loading)
    _ks_window_heat_show (heat->window, NULL);
}

static gboolean
sass_idle_cb (gpointer data)
{
  Heat *heat = data;

  heat->sass_idle = 0;
  refresh (heat);
  return G_SOURCE_REMOVE;
}

static void
sass_changed_cb (Heat          *heat,
                 GtkTextBuffer *buffer)
{
  /* the SASS pane's lines map to CUDA lines once the listing is parsed,
   * after its text is set: look again when idle, before the pane's long
   * layout work (which runs at a lower priority) */
  if (heat->sass_idle == 0)
    heat->sass_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, sass_idle_cb, heat, NULL);
}

void
_ks_window_heat_init (KsWindow *self)
{
  Heat *heat = g_new0 (Heat, 1);
  GtkSourceView *views[KS_HEAT_N_PANES] = { self->cuda_view, self->ptx_view, self->sass_view };
  GtkWidget *headers[KS_HEAT_N_PANES] = {
    /* the header rows hold the file names */
    gtk_widget_get_parent (GTK_WIDGET (self->cuda_file_label)),
    gtk_widget_get_parent (GTK_WIDGET (self->ptx_file_label)),
    gtk_widget_get_parent (GTK_WIDGET (self->sass_file_label)),
  };
  GtkWidget *folds[KS_HEAT_N_PANES];
  const char *names[KS_HEAT_N_METRICS + 2];
  g_autoptr(GtkStringList) list = NULL;

  heat->window = self;
  heat->metric = KS_HEAT_EXECUTIONS;
  if (self->settings != NULL)
    {
      g_autofree char *id = g_settings_get_string (self->settings, "heat-metric");

      /* "off", or any id this version does not know, is -1: no gutters */
      heat->metric = ks_heat_metric_from_id (id);
    }
  self->heat = heat;
  for (guint p = 0; p < KS_HEAT_N_PANES; p++)
    {
      GtkSourceGutter *gutter = gtk_source_view_get_gutter (views[p], GTK_TEXT_WINDOW_LEFT);

      heat->refs[p].heat = heat;
      heat->refs[p].pane = p;
      heat->gutters[p] = ks_heat_gutter_new (gutter_bin_cb, gutter_tooltip_cb, &heat->refs[p]);
      /* between the marks (-20) and the text; before the SASS control codes */
      gtk_source_gutter_insert (gutter, heat->gutters[p], -10);
      heat->legends[p] = ks_heat_legend_new (p != KS_HEAT_PANE_CUDA);
      gtk_widget_set_valign (heat->legends[p], GTK_ALIGN_CENTER);
      /* A narrow pane folds the legend, then the chooser, away rather
       * than hold the window wide (the Preferences have the metric too) */
      folds[p] = ks_fold_box_new ();
      gtk_widget_set_halign (folds[p], GTK_ALIGN_END);
      ks_fold_box_append (KS_FOLD_BOX (folds[p]), heat->legends[p], 2);
      gtk_box_append (GTK_BOX (headers[p]), folds[p]);
    }

  for (guint i = 0; i < KS_HEAT_N_METRICS; i++)
    names[i] = _(metrics[i].name);
  names[KS_HEAT_N_METRICS] = _("Off");
  names[KS_HEAT_N_METRICS + 1] = NULL;
  list = gtk_string_list_new (names);
  heat->chooser = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&list)), NULL));
  gtk_drop_down_set_selected (heat->chooser, heat->metric >= 0 ? (guint) heat->metric
                                                               : KS_HEAT_N_METRICS);
  gtk_widget_set_valign (GTK_WIDGET (heat->chooser), GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (heat->chooser), "flat");
  gtk_widget_add_css_class (GTK_WIDGET (heat->chooser), "ks-heat-chooser");
  gtk_widget_set_tooltip_text (GTK_WIDGET (heat->chooser),
                               _("What the heat gutters beside the code colour each line by"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (heat->chooser), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Heat gutter metric"), -1);
  ks_fold_box_append (KS_FOLD_BOX (folds[KS_HEAT_PANE_CUDA]), GTK_WIDGET (heat->chooser), 1);
  g_signal_connect_swapped (heat->chooser, "notify::selected", G_CALLBACK (chooser_cb), heat);
  if (self->settings != NULL)
    g_signal_connect_swapped (self->settings, "changed::heat-metric",
                              G_CALLBACK (setting_changed_cb), heat);
  g_signal_connect_swapped (self->stale_label, "notify::visible", G_CALLBACK (stale_cb), heat);
  g_signal_connect_swapped (self->cuda_buffer, "changed", G_CALLBACK (buffer_changed_cb), heat);
  g_signal_connect_swapped (self->ptx_buffer, "changed", G_CALLBACK (buffer_changed_cb), heat);
  g_signal_connect_swapped (self->sass_buffer, "changed", G_CALLBACK (sass_changed_cb), heat);
  refresh (heat);
}

void
_ks_window_heat_dispose (KsWindow *self)
{
  Heat *heat = heat_of (self);

  if (heat == NULL)
    return;
  /* the widgets go with the window's template; what they call back into
   * must not outlive this */
  g_clear_handle_id (&heat->sass_idle, g_source_remove);
  g_signal_handlers_disconnect_by_data (heat->chooser, heat);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, heat);
  g_signal_handlers_disconnect_by_data (self->stale_label, heat);
  g_signal_handlers_disconnect_by_data (self->cuda_buffer, heat);
  g_signal_handlers_disconnect_by_data (self->ptx_buffer, heat);
  g_signal_handlers_disconnect_by_data (self->sass_buffer, heat);
  for (guint p = 0; p < KS_HEAT_N_PANES; p++)
    {
      GtkSourceView *view = p == KS_HEAT_PANE_CUDA ? self->cuda_view
                            : p == KS_HEAT_PANE_PTX ? self->ptx_view : self->sass_view;

      if (view != NULL)
        gtk_source_gutter_remove (gtk_source_view_get_gutter (view, GTK_TEXT_WINDOW_LEFT),
                                  heat->gutters[p]);
    }
  g_clear_pointer (&heat->ptx_stats, g_array_unref);
  g_clear_pointer (&heat->cuda_stats, g_array_unref);
  g_clear_pointer (&heat->analysis, ks_analysis_unref);
  g_free (heat);
  self->heat = NULL;
}
