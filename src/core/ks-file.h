/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-file.h: reading the files a user names, with errors in the user's
 * terms rather than the system call's. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What a pipe or a device (`parse <(cat k.ptx)`) may give before the read
 * is refused: it has no size to check first, and /dev/zero never ends */
#define KS_FILE_STREAM_MAX (256u << 20)

/* FALSE, with a G_FILE_ERROR (as g_file_get_contents()'s) that says what the user did, when PATH cannot
 * be an input file: a folder ("DIR is a folder; open a .cu, .ptx, .json or
 * listing file"), a path that does not exist, one that cannot be read. */
gboolean  ks_file_check_input (const char  *path,
                               GError     **error);

/* PATH's contents, NUL-terminated past *LENGTH: a regular file mapped
 * (no copy), a pipe, a terminal or a device read to its end, up to
 * KS_FILE_STREAM_MAX bytes.  Errors as ks_file_check_input()'s.
 * (transfer full) */
GBytes   *ks_file_read        (const char  *path,
                               GError     **error);

/* As ks_file_read(), as a string owned by the caller (*LENGTH without the
 * NUL): for readers that want g_file_get_contents()'s form. */
gboolean  ks_file_get_contents (const char  *path,
                                char       **contents,
                                gsize       *length,
                                GError     **error);

/* As ks_file_get_contents(), for text that may be large only by mistake
 * (a SASS listing, ptxas output): refused past KS_FILE_STREAM_MAX bytes,
 * a regular file by its size before anything is read, and the reading
 * stops at the first NUL byte (kept as the last byte, for the reader to
 * place in its message), so `sass /dev/zero` reads one buffer, not
 * 256 MiB.  An ELF file (a cubin) is read whole: NULs are its nature. */
gboolean  ks_file_get_text    (const char  *path,
                               char       **contents,
                               gsize       *length,
                               GError     **error);
/* Where the source file a PTX file's `.file` entry names lies: beside the
 * PTX (a copied folder, a sample) first, else where the entry says when
 * that is an absolute path (a recording's PTX names the program's own
 * file); NULL when neither is a regular file.  (transfer full) */
char     *ks_file_find_source (const char  *ptx_path,
                               const char  *file_entry);

G_END_DECLS
