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

G_END_DECLS
