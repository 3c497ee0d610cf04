/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain-private.h: what the toolchain's files share. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Runs argv (never through a shell) in cwd (when not NULL; TMPDIR points
 * there too), with LC_ALL=C, and collects its output.  FALSE with error
 * when it could not start or was cancelled (it is then killed). */
gboolean    _ks_toolchain_run              (const char *const *argv,
                                            const char        *cwd,
                                            GCancellable      *cancellable,
                                            int               *exit_status,
                                            char             **out,
                                            char             **err,
                                            GError           **error);
/* sm_XX or compute_XX with an optional a/f suffix */
gboolean    _ks_toolchain_arch_is_valid    (const char        *arch);
/* Removes a private temporary directory and what is in it */
void        _ks_toolchain_remove_tree      (const char        *dir);

G_END_DECLS
