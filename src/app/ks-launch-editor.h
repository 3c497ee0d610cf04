/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch-editor.h: the launch editor: a form for the whole launch spec
 * (kernel, grid, block, dynamic shared memory, buffers, parameters,
 * outputs), checked as it is typed.
 *
 * It edits a KsLaunchForm (ks-launch-form.h) and checks it the way a spec
 * file is checked (ks_launch_parse(), in a thread, since filling a large
 * buffer takes a while), and against the kernel's .param list when it has
 * the module.  A mistake shows as a message naming the field, beside the
 * form, with the field marked; Apply stays off until the form is good.
 * Apply emits "apply"; the window takes the checked launch from it. */
#pragma once

#include <gtk/gtk.h>

#include "ks-launch-form.h"

G_BEGIN_DECLS

#define KS_TYPE_LAUNCH_EDITOR (ks_launch_editor_get_type ())

G_DECLARE_FINAL_TYPE (KsLaunchEditor, ks_launch_editor, KS, LAUNCH_EDITOR, GtkBox)

GtkWidget          *ks_launch_editor_new            (void);
/* Shows @form (copied) for editing, with the kernels and .param lists of
 * @module (taken; may be NULL, and then the parameters are not checked
 * against a kernel).  @spec_path is where the spec is or would be saved:
 * relative paths in it start from its folder. */
void                ks_launch_editor_load           (KsLaunchEditor *self,
                                                     const KsLaunchForm *form,
                                                     KsPtxModule    *module,
                                                     const char     *spec_path);
/* Of a sequence of launches, edits launch @step from now on; unapplied
 * edits to the others stay (and Apply applies them all) */
void                ks_launch_editor_select_launch  (KsLaunchEditor *self,
                                                     guint           step);
/* The form as edited */
const KsLaunchForm *ks_launch_editor_get_form       (KsLaunchEditor *self);
/* Edited since the last load or apply */
gboolean            ks_launch_editor_is_dirty       (KsLaunchEditor *self);
/* A check is running or waiting */
gboolean            ks_launch_editor_is_busy        (KsLaunchEditor *self);
/* What is wrong with the form, naming the field; NULL when it is good or
 * still being checked */
const char         *ks_launch_editor_get_message    (KsLaunchEditor *self);
/* The launch the form gives, once checked; NULL otherwise.
 * Returns: (transfer full) */
KsLaunch           *ks_launch_editor_take_launch    (KsLaunchEditor *self);
/* What Apply does: emits "apply" when the form is checked and good.
 * Returns: whether it did */
gboolean            ks_launch_editor_apply          (KsLaunchEditor *self);
/* The widget that edits the field ks_launch_parse() names @path
 * ("block[0]", "buffers.a.count", "params[3].value"), or NULL */
GtkWidget          *ks_launch_editor_get_field      (KsLaunchEditor *self,
                                                     const char     *path);
/* The tallest the form grows before it scrolls */
void            ks_launch_editor_set_max_size   (KsLaunchEditor *self,
                                                 int             width,
                                                 int             height);

G_END_DECLS
