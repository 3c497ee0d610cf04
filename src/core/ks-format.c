/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-format.c: figures as every view, hint and summary prints them. */

#include <math.h>
#include <string.h>

#include "ks-format.h"

/* Back to the start of the UTF-8 character at p (never before start) */
static const char *
char_start (const char *start,
            const char *p)
{
  while (p > start && ((guchar) *p & 0xc0) == 0x80)
    p--;
  return p;
}

char *
ks_format_name (const char *name,
                gssize      length)
{
  size_t len;
  const char *head_end, *tail;

  if (name == NULL)
    return g_strdup ("(none)");
  len = length < 0 ? strlen (name) : (size_t) length;
  if (len <= KS_FORMAT_NAME_MAX)
    return g_strndup (name, len);
  head_end = char_start (name, name + 60);
  tail = char_start (name, name + len - 20);
  return g_strdup_printf ("%.*s...%.*s (%" G_GSIZE_FORMAT " bytes)", (int) (head_end - name), name,
                          (int) (name + len - tail), tail, (gsize) len);
}

char *
ks_format_figure (double value)
{
  double tenths = round (value * 10);

  /* "+ 0.0" prints -0.04 as "0", not "-0" */
  if (fmod (tenths, 10) == 0)
    return g_strdup_printf ("%.0f", tenths / 10 + 0.0);
  return g_strdup_printf ("%.1f", tenths / 10);
}
