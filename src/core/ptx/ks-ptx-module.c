/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-module.c: reading a parsed module. */

#include <string.h>

#include "ks-ptx-private.h"

KsPtxModule *
ks_ptx_module_parse_file (const char  *path,
                          GError     **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  /* Mapped, not read: the module keeps the text for its names, and a
   * mapping costs no copy. */
  mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (mapped);
  return ks_ptx_module_parse (bytes, path);
}

void
ks_ptx_module_free (KsPtxModule *m)
{
  if (m == NULL)
    return;
  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_free (m->diagnostics[i].message);
  g_free (m->functions);
  g_free (m->vars);
  g_free (m->insns);
  g_free (m->operands);
  g_free (m->imm64);
  g_free (m->inits);
  g_free (m->reg_decls);
  g_free (m->slot_types);
  g_free (m->blocks);
  g_free (m->edges);
  g_free (m->locs);
  g_free (m->files);
  g_free (m->extras);
  g_free (m->words);
  g_free (m->target_lists);
  g_free (m->target_entries);
  g_free (m->diagnostics);
  g_clear_pointer (&m->source, g_bytes_unref);
  g_free (m->filename);
  g_free (m);
}

gboolean
ks_ptx_module_has_errors (const KsPtxModule *m)
{
  return m->n_errors > 0;
}

gboolean
ks_ptx_span_equal (const KsPtxModule *m,
                   KsPtxSpan          span,
                   const char        *str)
{
  size_t len = strlen (str);

  return span.len == len && (size_t) span.offset + len <= m->text_len
         && memcmp (m->text + span.offset, str, len) == 0;
}

char *
ks_ptx_span_dup (const KsPtxModule *m,
                 KsPtxSpan          span)
{
  if ((size_t) span.offset + span.len > m->text_len)
    return g_strdup ("");
  return g_strndup (m->text + span.offset, span.len);
}

const KsPtxFunction *
ks_ptx_module_find_function (const KsPtxModule *m,
                             const char        *name)
{
  g_return_val_if_fail (m != NULL && name != NULL, NULL);

  for (uint32_t i = 0; i < m->n_functions; i++)
    if (m->functions[i].kind != KS_PTX_FUNCTION_PROTOTYPE
        && ks_ptx_span_equal (m, m->functions[i].name, name))
      return &m->functions[i];
  return NULL;
}

uint32_t
ks_ptx_module_n_entries (const KsPtxModule *m)
{
  uint32_t n = 0;

  for (uint32_t i = 0; i < m->n_functions; i++)
    if (m->functions[i].kind == KS_PTX_FUNCTION_ENTRY
        && (m->functions[i].flags & KS_PTX_FUNCTION_HAS_BODY))
      n++;
  return n;
}

const KsPtxFile *
ks_ptx_module_find_file (const KsPtxModule *m,
                         uint32_t           number)
{
  for (uint32_t i = 0; i < m->n_files; i++)
    if (m->files[i].number == number)
      return &m->files[i];
  return NULL;
}

gboolean
ks_ptx_insn_source (const KsPtxModule *m,
                    const KsPtxInsn   *insn,
                    uint32_t          *file,
                    uint32_t          *line)
{
  const KsPtxLoc *loc;

  if (insn->loc == 0 || insn->loc >= m->n_locs)
    return FALSE;
  loc = &m->locs[insn->loc];
  if (loc->line == 0)
    return FALSE;
  *file = loc->file;
  *line = loc->line;
  return TRUE;
}

GArray *
ks_ptx_module_links_for_source (const KsPtxModule *m,
                                uint32_t           file,
                                uint32_t           line)
{
  GArray *links = g_array_new (FALSE, FALSE, sizeof (KsPtxSourceLink));
  uint32_t last_line = 0;

  /* A scan, not an index: one pass over a million instructions takes about
   * a millisecond, and an index would cost memory on every module. */
  for (uint32_t i = 0; i < m->n_insns; i++)
    {
      const KsPtxInsn *insn = &m->insns[i];
      uint32_t loc = insn->loc;
      uint32_t depth = 0;

      if (loc == 0 || insn->line == last_line)
        continue;
      while (loc != 0 && loc < m->n_locs && depth < 64)
        {
          const KsPtxLoc *l = &m->locs[loc];

          if (l->file == file && l->line == line && line != 0)
            {
              KsPtxSourceLink link = { insn->line, depth };

              g_array_append_val (links, link);
              last_line = insn->line;
              break;
            }
          loc = l->inlined_at;
          depth++;
        }
    }
  return links;
}
