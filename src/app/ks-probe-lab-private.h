/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-lab-private.h: the Probe Lab's fields, for its tests */
#pragma once

#include <gtksourceview/gtksource.h>

#include "ks-gpu-db.h"
#include "ks-probe-lab.h"
#include "ks-probe-view.h"
#include "ks-shot.h"

G_BEGIN_DECLS

struct _KsProbeLab
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkListBox *template_list;
  GtkListBox *check_list;
  GtkLabel *hypothesis_label;
  GtkLabel *status_label;
  GtkLabel *conclusion_label;
  GtkLabel *verification_heading;
  GtkSpinner *spinner;
  GtkDropDown *gpu_dropdown;
  GtkDropDown *instruction_dropdown;
  KsProbeView *plot;
  GtkNotebook *notebook;
  GtkSourceView *ptx_view;
  GtkLabel *edit_label;
  GtkSourceView *cuda_view;
  GtkSourceView *sass_view;
  GtkGrid *points_grid;

  /* Owned references */
  GSettings *settings;
  KsGpuDb *db;
  char **gpu_ids;
  GHashTable *results;          /* "template/instruction" -> KsProbeResult *, its last run */
  GArray *highlighted;          /* guint32 lines highlighted in highlighted_view */
  KsShot shot;                  /* --screenshot */
  char *run_error;
  KsProbeResult *edited;        /* the checks of the PTX as edited (lab.verify-edit), or NULL */
  GHashTable *edits;            /* result key -> the probe PTX as the user left it, edited */
  char *edit_key;               /* the result key whose probe the PTX pane shows */
  char *pane_ptx;               /* that probe as the experiment made it; NULL without */
  KsProbeResult *compare;       /* a saved experiment opened to compare with, or NULL */
  char *compare_label;          /* its name in the plot's legend ("saved 2026-12-04") */
  KsProbeResult *measured;      /* the shown result's GPU figures (ks_probe_result_measured()),
                                 * or NULL when no GPU ran it */
  char *measured_label;         /* "measured on NVIDIA H200 (sm_90, 132 SMs)" */

  /* Borrowed references */
  const KsProbeTemplate *tmpl;  /* the experiment selected */
  const KsProbeResult *shown;   /* in results */
  GtkWidget *highlighted_view;

  guint run_serial;
  guint edit_serial;
  gboolean running;
  gboolean edit_running;        /* an edited probe running (lab.run-edit) */
  gboolean presentation;
};

G_END_DECLS
