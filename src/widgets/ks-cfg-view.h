/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cfg-view.h: the control-flow graph widget.
 *
 * Shows the analysed kernel's basic blocks with ks-cfg-render.h, coloured
 * by the run's counts.  Ctrl+scroll or + - 0 zoom, dragging or scrolling
 * pans, a click on a block emits "line-selected" with its first PTX line. */
#pragma once

#include <gtk/gtk.h>

#include "ks-analysis.h"

G_BEGIN_DECLS

#define KS_TYPE_CFG_VIEW (ks_cfg_view_get_type ())
G_DECLARE_FINAL_TYPE (KsCfgView, ks_cfg_view, KS, CFG_VIEW, GtkWidget)

GtkWidget  *ks_cfg_view_new              (void);
void        ks_cfg_view_set_analysis     (KsCfgView   *self,
                                          KsAnalysis  *analysis);
/* Scales the graph to show all of it above the legend (never larger than
 * its own size), and keeps it so as the view is resized until the user
 * zooms or pans; a new analysis does it too, and so does the key 0 */
void        ks_cfg_view_zoom_to_fit      (KsCfgView   *self);
void        ks_cfg_view_set_presentation (KsCfgView   *self,
                                          gboolean     presentation);
gboolean    ks_cfg_view_export           (KsCfgView   *self,
                                          const char  *path,
                                          GError     **error);

G_END_DECLS
