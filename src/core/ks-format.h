/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-format.h: figures as every view, hint and summary prints them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One decimal when the figure is not a whole number at that precision, none
 * when it is: 37.5 -> "37.5", 38.06 -> "38.1", 99.96 -> "100", 4 -> "4"; in
 * the locale's notation.  For a percentage pass the percent.
 * (transfer full) */
char *ks_format_figure (double value);

/* A name (a kernel's, a function's, a buffer's) as a message prints it:
 * whole up to KS_FORMAT_NAME_MAX bytes; a longer one as its first 60 and
 * last 20 characters around "..." (ASCII: a
 * terminal in the C locale prints "…" as "?") and its length, so that a
 * 20 MiB name does not fill the terminal: "kkk...kkk (20971520 bytes)".  LENGTH -1:
 * NAME is NUL-terminated.  NULL gives "(none)".
 * (transfer full) */
#define KS_FORMAT_NAME_MAX 120
char *ks_format_name (const char *name,
                      gssize      length);

G_END_DECLS
