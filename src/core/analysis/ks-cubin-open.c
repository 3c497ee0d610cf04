/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cubin-open.c: a cubin read by hand, then named by a disassembler
 * (ks-cubin-open.h). */

#include <string.h>

#include "ks-cubin-open.h"
#include "ks-file.h"

KsSassListing *
ks_cubin_open_bytes (const guint8      *data,
                     gsize              len,
                     const char        *path,
                     const KsToolchain *tc,
                     GCancellable      *cancellable,
                     GError           **error)
{
  g_autofree char *name = NULL;
  g_autoptr(KsSassListing) l = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(KsSassListing) d = NULL;
  KsTool tool = KS_N_TOOLS;
  const char *tool_name;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  name = g_path_get_basename (path);
  l = ks_sass_cubin_read (data, len, name, error);
  if (l == NULL)
    return NULL;
  if (tc == NULL)
    {
      ks_sass_cubin_set_note (l, "no CUDA toolkit was looked for");
      return g_steal_pointer (&l);
    }

  listing = ks_toolchain_disassemble (tc, path, &tool, cancellable, &local);
  tool_name = tool != KS_N_TOOLS ? ks_tool_name (tool) : "a disassembler";
  if (listing == NULL)
    {
      /* A CUDA 13 cubin and 11.8's nvdisasm, or no disassembler at all */
      g_autofree char *note = g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)
                              ? g_strdup_printf ("no disassembler: %s", local->message)
                              : g_strdup_printf ("%s could not read it: %s", tool_name, local->message);

      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      ks_sass_cubin_set_note (l, note);
      return g_steal_pointer (&l);
    }
  d = ks_sass_parse (listing, strlen (listing), tool_name, &local);
  if (d == NULL || !ks_sass_cubin_add_disassembly (l, d, tool_name, &local))
    {
      g_autofree char *note = g_strdup_printf ("%s's listing was not used: %s", tool_name,
                                               local->message);

      ks_sass_cubin_set_note (l, note);
    }
  return g_steal_pointer (&l);
}

KsSassListing *
ks_cubin_open (const char        *path,
               const KsToolchain *tc,
               GCancellable      *cancellable,
               GError           **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!ks_file_get_contents (path, &data, &len, error))
    return NULL;
  return ks_cubin_open_bytes ((const guint8 *) data, len, path, tc, cancellable, error);
}
