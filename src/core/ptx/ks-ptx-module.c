/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-module.c: reading a parsed module. */

#include <string.h>

#include "ks-file.h"
#include "ks-ptx-private.h"

KsPtxModule *
ks_ptx_module_parse_file (const char  *path,
                          GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  /* Mapped, not read: the module keeps the text for its names, and a
   * mapping costs no copy; a pipe is read (ks_file_read) */
  bytes = ks_file_read (path, error);
  if (bytes == NULL)
    return NULL;
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

/* The number of the module's first .target (80 for sm_80, 90 for sm_90a),
 * 0 when there is none or it is not sm_NN */
uint32_t
ks_ptx_module_target_sm (const KsPtxModule *m)
{
  uint32_t sm = 0;

  if (m->n_targets > 0 && m->first_target < m->n_words)
    {
      KsPtxSpan t = m->words[m->first_target];
      const char *p = m->text + t.offset;

      if (t.len < 5 || strncmp (p, "sm_", 3) != 0)
        return 0;
      for (uint32_t i = 3; i < t.len && i < 8 && g_ascii_isdigit (p[i]); i++)
        sm = sm * 10 + (uint32_t) (p[i] - '0');
    }
  return sm;
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

/* Longest inlined_at chain followed: nvcc's are a few deep; a longer one
 * (or a cycle in malformed PTX) is cut here */
#define MAX_INLINE_DEPTH 64

gboolean
ks_ptx_insn_source_in_file (const KsPtxModule *m,
                            const KsPtxInsn   *insn,
                            uint32_t           file,
                            uint32_t          *line)
{
  uint32_t loc = insn->loc;

  if (loc == 0 || loc >= m->n_locs || m->locs[loc].line == 0)
    return FALSE;
  for (uint32_t depth = 0; loc != 0 && loc < m->n_locs && depth < MAX_INLINE_DEPTH; depth++)
    {
      const KsPtxLoc *l = &m->locs[loc];

      if (l->file == file && l->line != 0)
        {
          *line = l->line;
          return TRUE;
        }
      loc = l->inlined_at;
    }
  return FALSE;
}

int64_t
ks_ptx_module_insn_at_line (const KsPtxModule *m,
                            uint32_t           line)
{
  uint32_t lo = 0, hi;

  g_return_val_if_fail (m != NULL, -1);

  if (line == 0)
    return -1;
  hi = m->n_insns;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (m->insns[mid].line < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < m->n_insns && m->insns[lo].line == line ? (int64_t) lo : -1;
}

uint32_t
ks_ptx_module_main_file (const KsPtxModule *module)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;
  uint32_t best = 0, best_count = 0;

  g_return_val_if_fail (module != NULL, 0);

  for (uint32_t i = 0; i < module->n_insns; i++)
    {
      uint32_t file, line;

      if (ks_ptx_insn_source (module, &module->insns[i], &file, &line) && line > 0)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (file)));

          g_hash_table_insert (counts, GUINT_TO_POINTER (file), GUINT_TO_POINTER (n + 1));
        }
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      uint32_t file = GPOINTER_TO_UINT (key), n = GPOINTER_TO_UINT (value);

      if (n > best_count || (n == best_count && file < best))
        {
          best = file;
          best_count = n;
        }
    }
  return best;
}

gboolean
ks_ptx_insn_source (const KsPtxModule *m,
                    const KsPtxInsn   *insn,
                    uint32_t          *file,
                    uint32_t          *line)
{
  const KsPtxLoc *loc, *outer;
  uint32_t i;

  if (insn->loc == 0 || insn->loc >= m->n_locs)
    return FALSE;
  loc = &m->locs[insn->loc];
  if (loc->line == 0)
    return FALSE;
  /* The file the code was inlined into at the end of the chain is the
   * one its function is written in (the kernel's .cu); the first location
   * in it, walking out from the innermost, is the user's line */
  outer = loc;
  i = 0;
  while (outer->inlined_at != 0 && outer->inlined_at < m->n_locs && ++i < MAX_INLINE_DEPTH)
    outer = &m->locs[outer->inlined_at];
  if (outer->file != loc->file && ks_ptx_insn_source_in_file (m, insn, outer->file, line))
    {
      *file = outer->file;
      return TRUE;
    }
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
      while (loc != 0 && loc < m->n_locs && depth < MAX_INLINE_DEPTH)
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

static void
add_refs (const KsPtxModule  *m,
          const KsPtxOperand *op,
          uint32_t           *into,
          uint32_t           *n,
          guint               depth)
{
  switch (op->kind)
    {
    case KS_PTX_OPERAND_REG:
      if (*n < KS_PTX_MAX_REFS)
        into[(*n)++] = op->a & ~KS_PTX_REF_PRED;
      break;
    case KS_PTX_OPERAND_PRED:
      if (*n < KS_PTX_MAX_REFS)
        into[(*n)++] = op->a | KS_PTX_REF_PRED;
      break;
    case KS_PTX_OPERAND_ADDRESS:
      if (op->aux == KS_PTX_ADDRESS_REG && *n < KS_PTX_MAX_REFS)
        into[(*n)++] = op->a & ~KS_PTX_REF_PRED;
      break;
    case KS_PTX_OPERAND_VECTOR:
    case KS_PTX_OPERAND_LIST:
      if (depth < 4)
        for (uint32_t i = 0; i < op->aux && op->a + i < m->n_operands; i++)
          add_refs (m, &m->operands[op->a + i], into, n, depth + 1);
      break;
    default:
      break;
    }
}

/* Whether the first operand is written.  Stores, reductions and the like
 * write through an address operand, which is a read of its register; these
 * opcodes take a register first that they only read. */
static gboolean
first_operand_written (const KsPtxInsn    *in,
                       const KsPtxOperand *op0)
{
  if (op0->kind != KS_PTX_OPERAND_REG && op0->kind != KS_PTX_OPERAND_VECTOR
      && op0->kind != KS_PTX_OPERAND_PRED)
    return FALSE;
  switch (in->opcode)
    {
    case KS_PTX_OPC_BAR:
    case KS_PTX_OPC_BARRIER:
      return (in->flags & KS_PTX_FLAG_RED) != 0;
    case KS_PTX_OPC_BRA:
    case KS_PTX_OPC_BRX:
    case KS_PTX_OPC_CALL:
    case KS_PTX_OPC_NANOSLEEP:
    case KS_PTX_OPC_PMEVENT:
    case KS_PTX_OPC_RET:
    case KS_PTX_OPC_EXIT:
    case KS_PTX_OPC_TRAP:
    case KS_PTX_OPC_ST:
      return FALSE;
    default:
      return TRUE;
    }
}

void
ks_ptx_insn_reg_refs (const KsPtxModule *m,
                      const KsPtxInsn   *in,
                      KsPtxRegRefs      *refs)
{
  const KsPtxOperand *ops;
  uint32_t i = 0;

  refs->n_defs = refs->n_uses = 0;
  if (in->first_operand + in->n_operands > m->n_operands)
    return;
  ops = ks_ptx_insn_operands (m, in);
  if (in->pred != KS_PTX_NONE)
    refs->uses[refs->n_uses++] = in->pred | KS_PTX_REF_PRED;
  if (in->n_operands > 0 && first_operand_written (in, &ops[0]))
    {
      add_refs (m, &ops[0], refs->defs, &refs->n_defs, 0);
      i = 1;
      /* setp's second destination (p|q) is inside the vector; a carry-out
       * (.cc) is not a register */
    }
  for (; i < in->n_operands; i++)
    add_refs (m, &ops[i], refs->uses, &refs->n_uses, 0);
}

char *
ks_ptx_module_line_text (const KsPtxModule *m,
                         uint32_t           line)
{
  const char *s = m->text, *end = m->text + m->text_len, *eol;
  uint32_t n = 1;
  char *text;

  while (s < end && n < line)
    if (*s++ == '\n')
      n++;
  eol = memchr (s, '\n', (size_t) (end - s));
  text = g_strndup (s, eol ? (gsize) (eol - s) : (gsize) (end - s));
  return g_strstrip (g_strdelimit (text, "\t", ' '));
}

/* ---- what a function reaches --------------------------------------------------------- */

typedef struct
{
  const KsPtxModule *m;
  KsPtxReach *out;
  GArray *queue;                /* function indices to visit */
} ReachWalk;

static void
reach_function (ReachWalk *w,
                uint32_t   f)
{
  if (f < w->m->n_functions && !w->out->functions[f])
    {
      w->out->functions[f] = 1;
      g_array_append_val (w->queue, f);
    }
}

static void
reach_operand (ReachWalk          *w,
               const KsPtxOperand *op,
               guint               depth)
{
  const KsPtxModule *m = w->m;

  switch (op->kind)
    {
    case KS_PTX_OPERAND_VAR:
      if (op->a < m->n_vars)
        w->out->vars[op->a] = 1;
      break;
    case KS_PTX_OPERAND_FUNC:
      reach_function (w, op->a);
      break;
    case KS_PTX_OPERAND_ADDRESS:
      if (op->aux == KS_PTX_ADDRESS_VAR && op->a < m->n_vars)
        w->out->vars[op->a] = 1;
      else if (op->aux == KS_PTX_ADDRESS_FUNC)
        reach_function (w, op->a);
      break;
    case KS_PTX_OPERAND_TARGETS:
      if (op->a < m->n_target_lists && m->target_lists[op->a].is_calltargets)
        {
          const KsPtxTargetList *tl = &m->target_lists[op->a];

          for (uint32_t i = 0; i < tl->n && tl->first + i < m->n_target_entries; i++)
            reach_function (w, m->target_entries[tl->first + i]);
        }
      break;
    case KS_PTX_OPERAND_VECTOR:
    case KS_PTX_OPERAND_LIST:
      if (depth < 4)
        for (uint32_t i = 0; i < op->aux && op->a + i < m->n_operands; i++)
          reach_operand (w, &m->operands[op->a + i], depth + 1);
      break;
    default:
      break;
    }
}

void
ks_ptx_module_reach (const KsPtxModule *m,
                     uint32_t           root,
                     guint              flags,
                     KsPtxReach        *reach)
{
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  ReachWalk w = { m, reach, queue };

  g_return_if_fail (m != NULL);
  g_return_if_fail (reach != NULL);

  reach->functions = g_new0 (uint8_t, MAX (m->n_functions, 1));
  reach->vars = g_new0 (uint8_t, MAX (m->n_vars, 1));
  reach->indirect = FALSE;

  reach_function (&w, root);
  if (flags & KS_PTX_REACH_INITIALIZERS)
    for (uint32_t v = 0; v < m->n_vars; v++)
      for (uint32_t k = 0; k < m->vars[v].n_init && m->vars[v].first_init + k < m->n_inits; k++)
        if (m->inits[m->vars[v].first_init + k].kind == KS_PTX_INIT_FUNC)
          reach_function (&w, m->inits[m->vars[v].first_init + k].index);

  for (guint q = 0; q < queue->len; q++)
    {
      const KsPtxFunction *f = &m->functions[g_array_index (queue, uint32_t, q)];

      for (uint32_t i = f->first_insn; i < f->first_insn + f->n_insns && i < m->n_insns; i++)
        {
          const KsPtxInsn *in = &m->insns[i];
          const KsPtxOperand *callee = NULL;

          for (uint32_t k = 0; k < in->n_operands && in->first_operand + k < m->n_operands; k++)
            {
              const KsPtxOperand *op = &m->operands[in->first_operand + k];

              reach_operand (&w, op, 0);
              /* a call's callee is its first operand that is not a list */
              if (callee == NULL && op->kind != KS_PTX_OPERAND_LIST)
                callee = op;
            }
          if (in->opcode == KS_PTX_OPC_CALL && (callee == NULL || callee->kind != KS_PTX_OPERAND_FUNC))
            reach->indirect = TRUE;
        }
    }
}

void
ks_ptx_reach_clear (KsPtxReach *reach)
{
  g_clear_pointer (&reach->functions, g_free);
  g_clear_pointer (&reach->vars, g_free);
  reach->indirect = FALSE;
}

/* ---- one function's part of the module ----------------------------------------------- */

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const KsPtxSpan *x = a, *y = b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static gboolean
span_in_text (const KsPtxModule *m,
              KsPtxSpan          span)
{
  return span.len > 0 && span.offset <= m->text_len && span.len <= m->text_len - span.offset;
}

char *
ks_ptx_module_text_for_function (const KsPtxModule *m,
                                 uint32_t           root,
                                 gsize             *len,
                                 uint32_t          *n_blanked)
{
  g_autoptr(GArray) drop = NULL;
  KsPtxReach reach;
  uint32_t n_functions = 0;
  char *out, *w;
  size_t pos = 0;

  g_return_val_if_fail (m != NULL, NULL);

  if (len != NULL)
    *len = 0;
  if (n_blanked != NULL)
    *n_blanked = 0;
  /* DWARF sections and aliases name functions from outside any of them;
   * a module with errors may name what it lacks */
  if (m->n_errors > 0 || m->n_sections > 0 || m->n_aliases > 0 || root >= m->n_functions
      || (m->functions[root].flags & KS_PTX_FUNCTION_HAS_BODY) == 0)
    return NULL;

  ks_ptx_module_reach (m, root, KS_PTX_REACH_INITIALIZERS, &reach);
  drop = g_array_new (FALSE, FALSE, sizeof (KsPtxSpan));
  /* A call through a register: ptxas lays out the module's call targets
   * for all its kernels together (a different register count, a bank 2
   * of constants), so the kernel is assembled only in its whole module */
  for (uint32_t f = 0; f < m->n_functions && !reach.indirect; f++)
    {
      const KsPtxFunction *fn = &m->functions[f];

      if (reach.functions[f] || (fn->flags & KS_PTX_FUNCTION_HAS_BODY) == 0)
        continue;
      /* ptxas wants every function the module declares defined: its
       * declaration goes too, or nothing */
      if (!span_in_text (m, fn->definition)
          || ((fn->flags & KS_PTX_FUNCTION_DECLARED) && !span_in_text (m, fn->declaration)))
        {
          g_array_set_size (drop, 0);
          break;
        }
      g_array_append_val (drop, fn->definition);
      if (fn->flags & KS_PTX_FUNCTION_DECLARED)
        g_array_append_val (drop, fn->declaration);
      n_functions++;
    }
  ks_ptx_reach_clear (&reach);
  if (drop->len == 0)
    return NULL;
  g_array_sort (drop, compare_spans);

  out = w = g_malloc (m->text_len + 1);
  for (guint i = 0; i < drop->len; i++)
    {
      const KsPtxSpan *s = &g_array_index (drop, KsPtxSpan, i);
      const char *p = m->text + s->offset, *end = p + s->len;

      if (s->offset < pos)
        {
          g_free (out);
          return NULL;
        }
      memcpy (w, m->text + pos, s->offset - pos);
      w += s->offset - pos;
      /* its lines stay, empty, so that every line keeps its number */
      while ((p = memchr (p, '\n', (size_t) (end - p))) != NULL)
        {
          *w++ = '\n';
          p++;
        }
      pos = (size_t) s->offset + s->len;
    }
  memcpy (w, m->text + pos, m->text_len - pos);
  w += m->text_len - pos;
  *w = '\0';
  if (len != NULL)
    *len = (gsize) (w - out);
  if (n_blanked != NULL)
    *n_blanked = n_functions;
  return out;
}
