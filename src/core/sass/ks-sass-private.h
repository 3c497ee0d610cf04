/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-private.h: what the listing reader and the cubin reader share */
#pragma once

#include "ks-sass.h"

G_BEGIN_DECLS

/* Frees what ks_sass_cubin_read hung on a listing */
void            _ks_sass_cubin_free      (KsSassCubin         *cubin);

G_END_DECLS
