/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-format.c: figures as every view, hint and summary prints them. */

#include <math.h>

#include "ks-format.h"

char *
ks_format_figure (double value)
{
  double tenths = round (value * 10);

  /* "+ 0.0" prints -0.04 as "0", not "-0" */
  if (fmod (tenths, 10) == 0)
    return g_strdup_printf ("%.0f", tenths / 10 + 0.0);
  return g_strdup_printf ("%.1f", tenths / 10);
}
