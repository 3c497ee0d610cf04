/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cubin-open.h: a cubin file as a SASS listing: read by hand
 * (ks-sass-cubin.h), then named by the toolkit's disassembler when there
 * is one that reads it.  It sits here because it joins sass/ and
 * toolchain/, which know nothing of each other. */
#pragma once

#include "ks-sass-cubin.h"
#include "ks-toolchain.h"

G_BEGIN_DECLS

/* Reads the cubin at path.  With tc (may be NULL: no toolkit), runs
 * ks_toolchain_disassemble on it and takes the mnemonics and line records
 * from its listing when its words are the cubin's; when that cannot be
 * done the listing stays raw and its note says why.  Blocks on the
 * disassembler: call it from a worker thread in the app.
 *
 * Returns: (transfer full): the listing, or NULL with error set when the
 * file cannot be read or is not a cubin this reader knows */
KsSassListing  *ks_cubin_open            (const char          *path,
                                          const KsToolchain   *tc,
                                          GCancellable        *cancellable,
                                          GError             **error);

/* The same for bytes already read; path names the file for the
 * disassembler (it must hold these bytes) and the messages */
KsSassListing  *ks_cubin_open_bytes      (const guint8        *data,
                                          gsize                len,
                                          const char          *path,
                                          const KsToolchain   *tc,
                                          GCancellable        *cancellable,
                                          GError             **error);

G_END_DECLS
