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
void        ks_cfg_view_set_presentation (KsCfgView   *self,
                                          gboolean     presentation);
/* Scales the graph down (never up) so all of it fits the widget, now or
 * once the widget has a size */
void        ks_cfg_view_zoom_to_fit      (KsCfgView   *self);
gboolean    ks_cfg_view_export           (KsCfgView   *self,
                                          const char  *path,
                                          GError     **error);

G_END_DECLS
