/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-line-map.c: the PTX <-> CUDA line map of the linked source panes.
 *
 * Built once per parsed module as two flat arrays: the CUDA line of each PTX
 * line, and the PTX lines sorted by CUDA line with an offset table, so both
 * directions are one lookup while the pointer moves. */

#include "ks-line-map.h"

#include <string.h>

struct _KsLineMap
{
  uint32_t file;
  uint32_t n_ptx_lines;
  uint32_t *cuda_of_ptx;        /* [n_ptx_lines + 1], 0 = none */
  uint32_t max_cuda_line;
  uint32_t *offsets;            /* [max_cuda_line + 2] into ptx_lines */
  uint32_t *ptx_lines;          /* PTX lines grouped by CUDA line, ascending in each */
  uint32_t *cuda_lines;         /* the CUDA lines that have PTX lines */
  uint32_t n_cuda_lines;
  uint32_t *colours;            /* [max_cuda_line + 1] */

  /* SASS listing lines, the same two ways (empty without a listing) */
  GArray *sass_cuda;            /* uint32_t per listing line, [0] unused */
  GHashTable *sass_by_cuda;     /* cuda line -> GArray of listing lines */
};

/* Okabe, M. and Ito, K., "Color Universal Design" (2008) */
static const char *const palette[KS_LINE_MAP_N_COLOURS] = {
  "#E69F00",                    /* orange */
  "#56B4E9",                    /* sky blue */
  "#009E73",                    /* bluish green */
  "#F0E442",                    /* yellow */
  "#0072B2",                    /* blue */
  "#D55E00",                    /* vermillion */
  "#CC79A7",                    /* reddish purple */
};

const char *
ks_line_map_palette (uint32_t index)
{
  return palette[index % KS_LINE_MAP_N_COLOURS];
}

static gboolean
path_has_basename (const KsPtxModule *module,
                   KsPtxSpan          path,
                   const char        *basename)
{
  g_autofree char *p = ks_ptx_span_dup (module, path);
  g_autofree char *base = g_path_get_basename (p);

  return g_strcmp0 (base, basename) == 0;
}

static uint32_t
choose_file (const KsPtxModule *module,
             const char        *cuda_basename)
{
  if (cuda_basename != NULL)
    for (uint32_t i = 0; i < module->n_files; i++)
      if (path_has_basename (module, module->files[i].path, cuda_basename))
        return module->files[i].number;
  return ks_ptx_module_main_file (module);
}

KsLineMap *
ks_line_map_new (const KsPtxModule *module,
                 const char        *cuda_basename)
{
  KsLineMap *map;
  uint32_t n_links = 0;

  g_return_val_if_fail (module != NULL, NULL);

  map = g_new0 (KsLineMap, 1);
  map->file = choose_file (module, cuda_basename);
  map->n_ptx_lines = module->n_lines;
  map->cuda_of_ptx = g_new0 (uint32_t, (size_t) map->n_ptx_lines + 1);

  for (uint32_t i = 0; i < module->n_insns; i++)
    {
      const KsPtxInsn *insn = &module->insns[i];
      uint32_t line;

      if (insn->line == 0 || insn->line > map->n_ptx_lines)
        continue;
      /* An instruction of a CUDA header inlined into the shown file (the
       * tex of a texture fetch) belongs to the line it was inlined at */
      if (map->file == 0 || !ks_ptx_insn_source_in_file (module, insn, map->file, &line))
        continue;
      /* One PTX line holds one instruction in what nvcc writes; with several,
       * the first one's line wins. */
      if (map->cuda_of_ptx[insn->line] == 0)
        {
          map->cuda_of_ptx[insn->line] = line;
          map->max_cuda_line = MAX (map->max_cuda_line, line);
          n_links++;
        }
    }

  /* Counting sort by CUDA line; PTX lines stay ascending within each */
  map->offsets = g_new0 (uint32_t, (size_t) map->max_cuda_line + 2);
  map->ptx_lines = g_new (uint32_t, MAX (n_links, 1));
  map->colours = g_new (uint32_t, (size_t) map->max_cuda_line + 1);
  for (uint32_t p = 1; p <= map->n_ptx_lines; p++)
    if (map->cuda_of_ptx[p])
      map->offsets[map->cuda_of_ptx[p] + 1]++;
  for (uint32_t c = 1; c <= map->max_cuda_line + 1; c++)
    map->offsets[c] += map->offsets[c - 1];
  {
    size_t size = ((size_t) map->max_cuda_line + 2) * sizeof (uint32_t);
    g_autofree uint32_t *fill = g_memdup2 (map->offsets, size);

    for (uint32_t p = 1; p <= map->n_ptx_lines; p++)
      if (map->cuda_of_ptx[p])
        map->ptx_lines[fill[map->cuda_of_ptx[p]]++] = p;
  }

  map->cuda_lines = g_new (uint32_t, (size_t) map->max_cuda_line + 1);
  for (uint32_t c = 0; c <= map->max_cuda_line; c++)
    {
      map->colours[c] = KS_LINE_MAP_NO_COLOUR;
      if (map->offsets[c + 1] > map->offsets[c])
        {
          map->colours[c] = map->n_cuda_lines % KS_LINE_MAP_N_COLOURS;
          map->cuda_lines[map->n_cuda_lines++] = c;
        }
    }
  return map;
}

void
ks_line_map_free (KsLineMap *map)
{
  if (map == NULL)
    return;
  g_free (map->cuda_of_ptx);
  g_free (map->offsets);
  g_free (map->ptx_lines);
  g_free (map->cuda_lines);
  g_free (map->colours);
  g_clear_pointer (&map->sass_cuda, g_array_unref);
  g_clear_pointer (&map->sass_by_cuda, g_hash_table_unref);
  g_free (map);
}

uint32_t
ks_line_map_get_file (const KsLineMap *map)
{
  g_return_val_if_fail (map != NULL, 0);
  return map->file;
}

uint32_t
ks_line_map_cuda_line (const KsLineMap *map,
                       uint32_t         ptx_line)
{
  g_return_val_if_fail (map != NULL, 0);
  if (ptx_line == 0 || ptx_line > map->n_ptx_lines)
    return 0;
  return map->cuda_of_ptx[ptx_line];
}

const uint32_t *
ks_line_map_ptx_lines (const KsLineMap *map,
                       uint32_t         cuda_line,
                       uint32_t        *n_lines)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (n_lines != NULL, NULL);

  *n_lines = 0;
  if (cuda_line == 0 || cuda_line > map->max_cuda_line)
    return NULL;
  *n_lines = map->offsets[cuda_line + 1] - map->offsets[cuda_line];
  return *n_lines ? map->ptx_lines + map->offsets[cuda_line] : NULL;
}

const uint32_t *
ks_line_map_cuda_lines (const KsLineMap *map,
                        uint32_t        *n_lines)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (n_lines != NULL, NULL);

  *n_lines = map->n_cuda_lines;
  return map->cuda_lines;
}

uint32_t
ks_line_map_colour (const KsLineMap *map,
                    uint32_t         cuda_line)
{
  g_return_val_if_fail (map != NULL, KS_LINE_MAP_NO_COLOUR);
  if (cuda_line > map->max_cuda_line)
    return KS_LINE_MAP_NO_COLOUR;
  return map->colours[cuda_line];
}

static gboolean
file_matches (const char *file,
              const char *cuda_basename)
{
  g_autofree char *base = NULL;

  if (cuda_basename == NULL)
    return TRUE;
  if (file == NULL)
    return FALSE;
  base = g_path_get_basename (file);
  return g_strcmp0 (base, cuda_basename) == 0;
}

void
ks_line_map_set_sass (KsLineMap           *map,
                      const KsSassListing *listing,
                      const char          *cuda_basename)
{
  g_return_if_fail (map != NULL);

  g_clear_pointer (&map->sass_cuda, g_array_unref);
  g_clear_pointer (&map->sass_by_cuda, g_hash_table_unref);
  if (listing == NULL)
    return;
  map->sass_cuda = g_array_new (FALSE, TRUE, sizeof (uint32_t));
  map->sass_by_cuda = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  for (uint32_t i = 0; i < listing->n_insns; i++)
    {
      const KsSassSource *src = ks_sass_insn_source (listing, i);
      uint32_t line = listing->insns[i].line;
      GArray *lines;

      uint32_t cuda_line;

      if (src == NULL || src->line == 0 || line == 0)
        continue;
      /* nvdisasm -gi: a header's line inlined into the file is its line there */
      if (file_matches (src->file, cuda_basename))
        cuda_line = src->line;
      else if (cuda_basename != NULL && src->inlined_file != NULL && src->inlined_line != 0
               && file_matches (src->inlined_file, cuda_basename))
        cuda_line = src->inlined_line;
      else
        continue;
      if (map->sass_cuda->len <= line)
        g_array_set_size (map->sass_cuda, line + 1);
      g_array_index (map->sass_cuda, uint32_t, line) = cuda_line;
      lines = g_hash_table_lookup (map->sass_by_cuda, GUINT_TO_POINTER (cuda_line));
      if (lines == NULL)
        {
          lines = g_array_new (FALSE, FALSE, sizeof (uint32_t));
          g_hash_table_insert (map->sass_by_cuda, GUINT_TO_POINTER (cuda_line), lines);
        }
      g_array_append_val (lines, line);
    }
}

uint32_t
ks_line_map_cuda_line_of_sass (const KsLineMap *map,
                               uint32_t         sass_line)
{
  g_return_val_if_fail (map != NULL, 0);
  if (map->sass_cuda == NULL || sass_line >= map->sass_cuda->len)
    return 0;
  return g_array_index (map->sass_cuda, uint32_t, sass_line);
}

const uint32_t *
ks_line_map_sass_lines (const KsLineMap *map,
                        uint32_t         cuda_line,
                        uint32_t        *n_lines)
{
  GArray *lines;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (n_lines != NULL, NULL);

  *n_lines = 0;
  if (map->sass_by_cuda == NULL)
    return NULL;
  lines = g_hash_table_lookup (map->sass_by_cuda, GUINT_TO_POINTER (cuda_line));
  if (lines == NULL)
    return NULL;
  *n_lines = lines->len;
  return (const uint32_t *) (gpointer) lines->data;
}
