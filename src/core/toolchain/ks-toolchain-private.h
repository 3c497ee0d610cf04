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
/* _ks_toolchain_run() with path_first (when not NULL) put at the front of
 * PATH: where an nvcc looks for the ptxas it runs */
gboolean    _ks_toolchain_run_full         (const KsToolchain *tc,
                                            const char *const *argv,
                                            const char        *cwd,
                                            const char        *path_first,
                                            GCancellable      *cancellable,
                                            int               *exit_status,
                                            char             **out,
                                            char             **err,
                                            GError           **error);
/* Runs kit's nvcc (argv[0] is its path): with its own ptxas's folder first
 * on PATH, so that it runs that ptxas and not another toolkit's, and with
 * `-ccbin clang-N` when Debian's nvcc said that only clang-N is there (then
 * remembered for that nvcc).  FALSE with a clear error when no host
 * compiler is there at all; otherwise as _ks_toolchain_run(). */
gboolean    _ks_toolchain_run_nvcc         (const KsToolchain *tc,
                                            const KsToolkit   *kit,
                                            const char *const *argv,
                                            const char        *cwd,
                                            GCancellable      *cancellable,
                                            int               *exit_status,
                                            char             **out,
                                            char             **err,
                                            GError           **error);
/* The toolkit whose programs tc->paths names (toolkits[0]), or NULL */
const KsToolkit *_ks_toolchain_compiling   (const KsToolchain *tc);
/* "CUDA 11.8" (or "an unknown CUDA release") for a message
 * (transfer full) */
char       *_ks_toolkit_name               (const KsToolkit   *kit);

/* Adds DIR (or DIR/SUB) to the folders to look in, once, when absolute */
void        _ks_toolchain_add_dir          (GPtrArray         *dirs,
                                            const char        *dir,
                                            const char        *sub);
/* Whether a program is at `path` (a file we may run) */
typedef gboolean (*KsToolchainExistsFunc)  (const char        *path,
                                            gpointer           data);
/* Makes the toolkits of the folders `dirs` (in the order of the search)
 * into tc->toolkits, reads their versions, and chooses the compiling one
 * (tc->paths) and tc->sass.  debian_tools: the folder the programs of
 * Debian's package are in when a folder is its own nvcc's; debian_list:
 * (nullable) the package's list of files (dpkg -L), which says so better */
void        _ks_toolchain_gather           (KsToolchain       *tc,
                                            GPtrArray         *dirs,
                                            const char        *debian_tools,
                                            const char        *debian_list,
                                            const char        *root,
                                            KsToolchainExistsFunc exists,
                                            gpointer           data);
/* ks_toolchain_find() outside a sandbox, with the system's fixed places
 * (/usr/local/cuda*, Debian's package and dpkg's list of it) under root
 * ("" for the real ones; a test's folder of fake toolkits) */
KsToolchain *_ks_toolchain_find_local      (const char        *preferred_dir,
                                            const char        *root);

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
/* `flatpak-spawn --host --watch-bus --directory=CWD --env=... ARGV`, with
 * --env=PATH=path_env when that is not NULL
 * (transfer full) */
char      **_ks_toolchain_host_argv        (const KsToolchain *tc,
                                            const char *const *argv,
                                            const char        *cwd,
                                            const char        *path_env);
/* Whether nvcc is there and arch is an architecture: FALSE with
 * G_IO_ERROR_NOT_FOUND or G_IO_ERROR_INVALID_ARGUMENT, a message that
 * says so */
gboolean    _ks_toolchain_can_compile      (const KsToolchain *tc,
                                            const char        *arch,
                                            GError           **error);
/* The name nvcc is given for the CUDA file at path: its base name, with
 * ".cu" added when it has another ending (nvcc goes by it); abs_path and
 * dir: (out) the file's absolute path and its folder
 * (transfer full) */
char       *_ks_toolchain_cuda_name        (const char        *path,
                                            char             **abs_path,
                                            char             **dir);
/* A private temporary directory (_ks_toolchain_make_tmp(tmpl)) holding
 * the source as `name`: text, or the file at abs_path when text is NULL;
 * src: (out) its path there.  NULL with error (nothing left behind).
 * (transfer full) */
char       *_ks_toolchain_stage_source     (const KsToolchain *tc,
                                            const char        *tmpl,
                                            const char        *abs_path,
                                            const char        *name,
                                            const char        *text,
                                            char             **src,
                                            GError           **error);
/* Removes a private temporary directory and what is in it */
void        _ks_toolchain_remove_tree      (const char        *dir);

G_END_DECLS
