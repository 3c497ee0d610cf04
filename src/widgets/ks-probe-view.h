/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-view.h: the Probe Lab's sweep plot (ks-probe-render.h) as a
 * widget: a point's figures in a tooltip, the whole sweep in words for a
 * screen reader, and the picture exported like the other views. */
#pragma once

#include <gtk/gtk.h>

#include "ks-probe.h"

G_BEGIN_DECLS

#define KS_TYPE_PROBE_VIEW (ks_probe_view_get_type ())

G_DECLARE_FINAL_TYPE (KsProbeView, ks_probe_view, KS, PROBE_VIEW, GtkWidget)

GtkWidget  *ks_probe_view_new              (void);
/* result: (transfer none) (nullable): the caller keeps it alive until it
 * sets another one or NULL */
void        ks_probe_view_set_result       (KsProbeView         *self,
                                            const KsProbeResult *result);
/* other: (transfer none) (nullable): a second series of the same
 * template drawn hollow over the result (an edited probe, a saved run),
 * named label in the legend; kept alive by the caller like the result */
void        ks_probe_view_set_other        (KsProbeView         *self,
                                            const KsProbeResult *other,
                                            const char          *label);
void        ks_probe_view_set_presentation (KsProbeView         *self,
                                            gboolean             presentation);
gboolean    ks_probe_view_export           (KsProbeView         *self,
                                            const char          *path,
                                            int                  width,
                                            int                  height,
                                            GError             **error);

G_END_DECLS
