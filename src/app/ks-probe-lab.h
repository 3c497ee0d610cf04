/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-probe-lab.h: the Probe Lab window (app.probe-lab, Ctrl+Shift+L;
 * docs/PROBES.md).  Pick an experiment and it runs on the timing model:
 * the sweep plot with its fit, the verification checklist (a check shows
 * the probe's lines it is about), the conclusion worded by its evidence,
 * the probe's PTX, CUDA and SASS, and the figures; the experiment folder
 * is written as `kernelscope-cli probe run --out` writes it. */
#pragma once

#include <gtk/gtk.h>

#include "ks-probe.h"

G_BEGIN_DECLS

#define KS_TYPE_PROBE_LAB (ks_probe_lab_get_type ())

G_DECLARE_FINAL_TYPE (KsProbeLab, ks_probe_lab, KS, PROBE_LAB, GtkWindow)

KsProbeLab          *ks_probe_lab_new              (GtkApplication *app);
/* Selects the experiment named name (ks_probe_find's names) and runs it
 * unless it has run for the GPU chosen; FALSE for an unknown name */
gboolean             ks_probe_lab_select           (KsProbeLab     *self,
                                                    const char     *name);
/* Picks the GPU of data/gpus.json's id; FALSE when there is none */
gboolean             ks_probe_lab_choose_gpu       (KsProbeLab     *self,
                                                    const char     *id);
/* Picks the instruction a chain experiment times (ks_probe_instructions());
 * FALSE when there is none of that name */
gboolean             ks_probe_lab_choose_instruction (KsProbeLab   *self,
                                                    const char     *instruction);
/* Runs the selected experiment again */
void                 ks_probe_lab_run              (KsProbeLab     *self);
gboolean             ks_probe_lab_is_running       (KsProbeLab     *self);
/* The result shown, or NULL.  (transfer none) */
const KsProbeResult *ks_probe_lab_get_result       (KsProbeLab     *self);
/* Shows check index's lines in the probe (its SASS lines when it has
 * only those), as a click on its row does; FALSE when it names none */
gboolean             ks_probe_lab_show_check       (KsProbeLab     *self,
                                                    guint           index);
/* Verifies the probe PTX as edited in its pane, as the experiment's own
 * probe is verified, and shows those checks; FALSE (and says why) when
 * there is no experiment's result yet or the text is no probe.  Revert
 * puts the experiment's probe and checks back. */
gboolean             ks_probe_lab_verify_edit      (KsProbeLab     *self);
void                 ks_probe_lab_revert_edit      (KsProbeLab     *self);
/* Runs the probe as edited in its pane on the model, as the shown
 * experiment's probe for the value it shows (ks_probe_run_ptx()): its
 * checks, its one point drawn over the sweep and added to the figures.
 * FALSE (and says why) when there is no experiment's result yet. */
gboolean             ks_probe_lab_run_edit         (KsProbeLab     *self);
/* Opens a saved experiment folder to compare with: selects its
 * experiment, instruction and GPU (running it when it has not run), and
 * draws the saved figures hollow over the run's, with a column of them in
 * the figures; a saved edited probe comes back into the PTX pane.  FALSE
 * with error when the folder is not an experiment or its GPU is unknown. */
gboolean             ks_probe_lab_open_saved       (KsProbeLab     *self,
                                                    const char     *dir,
                                                    GError        **error);
/* The saved experiment compared with, or NULL.  (transfer none) */
const KsProbeResult *ks_probe_lab_get_compare      (KsProbeLab     *self);
/* The edited probe's last run or verification, or NULL.  (transfer none) */
const KsProbeResult *ks_probe_lab_get_edited       (KsProbeLab     *self);
/* The lines highlighted, 1-based, and the view they are in.
 * Returns: (transfer none) */
const GArray        *ks_probe_lab_get_highlighted  (KsProbeLab     *self,
                                                    GtkWidget     **view);
void                 ks_probe_lab_set_presentation (KsProbeLab     *self,
                                                    gboolean        presentation);
/* Writes the experiment folder into folder; FALSE with error */
gboolean             ks_probe_lab_save_to          (KsProbeLab     *self,
                                                    GFile          *folder,
                                                    GError        **error);
/* Once the experiment has run, the window's picture goes to path at
 * width x height and the application quits (kernelscope --probe-lab NAME
 * --screenshot FILE) */
void                 ks_probe_lab_set_screenshot   (KsProbeLab     *self,
                                                    const char     *path,
                                                    int             width,
                                                    int             height);

G_END_DECLS
