/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-toolchain-private.h: what the toolchain's files share. */
#pragma once

#include <gio/gio.h>

#include "ks-toolchain.h"

G_BEGIN_DECLS

/* Runs argv (never through a shell) in cwd (when not NULL; TMPDIR points
 * there too), with LC_ALL=C, and collects its output: on the host through
 * flatpak-spawn when tc->on_host.  FALSE with error when it could not start
 * or was cancelled (it is then ended, with what it started). */
gboolean    _ks_toolchain_run              (const KsToolchain *tc,
                                            const char *const *argv,
                                            const char        *cwd,
                                            GCancellable      *cancellable,
                                            int               *exit_status,
                                            char             **out,
                                            char             **err,
                                            GError           **error);
/* sm_XX or compute_XX with an optional a/f suffix */
gboolean    _ks_toolchain_arch_is_valid    (const char        *arch);
/* A private temporary directory named after tmpl ("kernelscope-nvcc-XXXXXX")
 * that the toolchain's programs see at the same path: in the system's
 * temporary folder, or, for a host toolkit, under the user cache folder
 * (the sandbox's /tmp is its own) */
char       *_ks_toolchain_make_tmp         (const KsToolchain *tc,
                                            const char        *tmpl,
                                            GError           **error);
/* Where the tools were looked for, for a message: "looked in PATH, ..."
 * (transfer full) */
char       *_ks_toolchain_where            (const KsToolchain *tc);

/* Flatpak (ks-toolchain-host.c) */

/* Looks for the tools on the host through flatpak-spawn --host, setting
 * tc->on_host and tc->spawn; FALSE with tc->host_error when the host
 * cannot be reached */
gboolean    _ks_toolchain_find_on_host     (KsToolchain       *tc,
                                            const char        *preferred_dir);
/* `flatpak-spawn --host --watch-bus --directory=CWD --env=... ARGV`
 * (transfer full) */
char      **_ks_toolchain_host_argv        (const KsToolchain *tc,
                                            const char *const *argv,
                                            const char        *cwd);
/* Removes a private temporary directory and what is in it */
void        _ks_toolchain_remove_tree      (const char        *dir);

G_END_DECLS
