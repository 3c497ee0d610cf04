/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-ptx-parser.c: libFuzzer target for the PTX parser.
 *
 * A crash is not the only failure worth finding: the simulator and the views
 * index the module's flat arrays without checking, so an index the parser
 * leaves out of range is a crash waiting in a consumer.  After each parse
 * this walks the whole module as a consumer would and aborts on the first
 * index that does not fit, so libFuzzer records the input like any crash.
 *
 * The same file is linked into fuzz-ptx-replay (see replay-main.c), which
 * runs the saved regressions and the seed corpus in a plain `meson test`.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ks-lower.h"
#include "ks-ptx.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Operands nest one level at most ({a, {b, c}}); a deeper one is a bug. */
#define MAX_OPERAND_DEPTH 2

static G_NORETURN void
violation (const char *what,
           const char *file,
           int         line)
{
  fprintf (stderr, "%s:%d: module invariant violated: %s\n", file, line, what);
  abort ();
}

#define CHECK(cond) \
  G_STMT_START { \
    if (G_UNLIKELY (!(cond))) \
      violation (#cond, __FILE__, __LINE__); \
  } G_STMT_END

/* first + n <= len, without the overflow a plain sum could hide */
#define CHECK_RANGE(first, n, len) \
  CHECK ((uint64_t) (first) + (uint64_t) (n) <= (uint64_t) (len))

#define CHECK_SPAN(m, span) CHECK_RANGE ((span).offset, (span).len, (m)->text_len)

typedef struct
{
  const KsPtxModule *m;
  const KsPtxFunction *fn;
  const KsPtxInsn *insn;
  uint32_t elems_begin;         /* operands after the top-level ones */
  uint32_t elems_end;           /* where the next instruction's operands start */
} Walk;

static void
check_operand (const Walk         *w,
               const KsPtxOperand *op,
               int                 depth)
{
  const KsPtxModule *m = w->m;
  const KsPtxFunction *fn = w->fn;

  CHECK (depth <= MAX_OPERAND_DEPTH);
  switch ((KsPtxOperandKind) op->kind)
    {
    case KS_PTX_OPERAND_REG:
      CHECK (op->a < fn->n_reg_slots);
      CHECK (op->aux < 4 || op->aux == KS_PTX_NO_COMPONENT);
      /* the type a consumer reads for the slot */
      CHECK (m->slot_types[fn->first_slot_type + op->a] < KS_PTX_N_TYPES);
      break;

    case KS_PTX_OPERAND_PRED:
      CHECK (op->a < fn->n_pred_slots);
      break;

    case KS_PTX_OPERAND_SREG:
      CHECK (op->a > KS_PTX_SREG_NONE && op->a < KS_PTX_N_SREGS);
      CHECK (ks_ptx_sreg_name (op->a) != NULL);
      CHECK (op->aux < 4 || op->aux == KS_PTX_NO_COMPONENT);
      break;

    case KS_PTX_OPERAND_IMM_INT:
    case KS_PTX_OPERAND_IMM_F32:
    case KS_PTX_OPERAND_IMM_F64:
    case KS_PTX_OPERAND_SINK:
      break;

    case KS_PTX_OPERAND_ADDRESS:
      switch ((KsPtxAddressBase) op->aux)
        {
        case KS_PTX_ADDRESS_REG:
          CHECK (op->a < fn->n_reg_slots);
          break;
        case KS_PTX_ADDRESS_VAR:
          CHECK (op->a < m->n_vars);
          break;
        case KS_PTX_ADDRESS_FUNC:
          CHECK (op->a < m->n_functions);
          break;
        case KS_PTX_ADDRESS_IMM:
          break;
        case KS_PTX_ADDRESS_NAME:
          CHECK (m->n_errors > 0);
          CHECK (op->a <= m->text_len);
          break;
        default:
          CHECK (!"address base out of range");
        }
      if (op->flags & KS_PTX_OPERAND_BIG_OFFSET)
        CHECK (op->b < m->n_imm64);
      (void) ks_ptx_operand_offset (m, op);
      break;

    case KS_PTX_OPERAND_VAR:
      CHECK (op->a < m->n_vars);
      break;

    case KS_PTX_OPERAND_FUNC:
      CHECK (op->a < m->n_functions);
      break;

    case KS_PTX_OPERAND_LABEL:
      /* a label after the last instruction is the function's end */
      CHECK (op->a <= fn->n_insns);
      break;

    case KS_PTX_OPERAND_TARGETS:
      CHECK (op->a < m->n_target_lists);
      break;

    case KS_PTX_OPERAND_VECTOR:
    case KS_PTX_OPERAND_LIST:
      CHECK_RANGE (op->a, op->aux, m->n_operands);
      /* elements belong to this instruction, after its top-level operands */
      CHECK (op->a >= w->elems_begin);
      CHECK_RANGE (op->a, op->aux, w->elems_end);
      for (uint32_t i = 0; i < op->aux; i++)
        check_operand (w, &m->operands[op->a + i], depth + 1);
      break;

    case KS_PTX_OPERAND_NAME:
      CHECK (m->n_errors > 0);
      CHECK_RANGE (op->a, op->b, m->text_len);
      break;

    case KS_PTX_OPERAND_NONE:
    default:
      CHECK (!"operand kind out of range");
    }
}

static void
check_insn (const KsPtxModule   *m,
            const KsPtxFunction *fn,
            uint32_t             index)
{
  const KsPtxInsn *insn = &m->insns[index];
  const KsPtxOperand *ops;
  uint32_t file, line;
  Walk w = { m, fn, insn, 0, 0 };

  CHECK (insn->opcode < KS_PTX_N_OPCODES);
  CHECK (ks_ptx_opcode_name (insn->opcode) != NULL);
  CHECK (insn->space <= KS_PTX_SPACE_SURF);
  for (int i = 0; i < 4; i++)
    CHECK (insn->types[i] < KS_PTX_N_TYPES);
  CHECK (insn->round <= KS_PTX_ROUND_RPI);
  CHECK (insn->cmp <= KS_PTX_CMP_NAN);
  CHECK (insn->op <= KS_PTX_OP_R);
  CHECK (insn->vec <= KS_PTX_VEC_X4);
  CHECK (insn->cache <= KS_PTX_CACHE_WT);
  CHECK (insn->sem <= KS_PTX_SEM_SC);
  CHECK (insn->scope <= KS_PTX_SCOPE_SYS);
  CHECK (insn->pred_not <= 1);
  CHECK (insn->pred == KS_PTX_NONE || insn->pred < fn->n_pred_slots);
  CHECK (insn->pred != KS_PTX_NONE || insn->pred_not == 0);
  CHECK (insn->line >= 1 && insn->line <= m->n_lines);
  CHECK (insn->loc == 0 || insn->loc < m->n_locs);
  CHECK (insn->extra == 0 || insn->extra < m->n_extras);
  if (insn->extra != 0)
    {
      const KsPtxExtra *x = &m->extras[insn->extra];

      CHECK_SPAN (m, x->opcode_name);
      CHECK_RANGE (x->first_word, x->n_words, m->n_words);
    }
  if (insn->opcode == KS_PTX_OPC_UNKNOWN)
    CHECK (insn->extra != 0);

  CHECK_RANGE (insn->first_operand, insn->n_operands, m->n_operands);
  w.elems_begin = insn->first_operand + insn->n_operands;
  w.elems_end = index + 1 < m->n_insns ? m->insns[index + 1].first_operand : m->n_operands;
  CHECK (w.elems_begin <= w.elems_end);
  CHECK (w.elems_end <= m->n_operands);

  ops = ks_ptx_insn_operands (m, insn);
  for (uint32_t i = 0; i < insn->n_operands; i++)
    check_operand (&w, &ops[i], 0);

  if (ks_ptx_insn_source (m, insn, &file, &line))
    CHECK (line != 0);
}

static void
check_blocks (const KsPtxModule   *m,
              const KsPtxFunction *fn)
{
  uint32_t next_insn = 0;
  uint64_t n_succs = 0, n_preds = 0;

  CHECK_RANGE (fn->first_block, fn->n_blocks, m->n_blocks);
  if (!(fn->flags & KS_PTX_FUNCTION_HAS_BODY) || fn->n_insns == 0)
    return;

  /* The blocks of a body partition its instructions, in order. */
  CHECK (fn->n_blocks > 0);
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    {
      const KsPtxBlock *blk = &m->blocks[fn->first_block + b];

      CHECK (blk->first_insn == next_insn);
      CHECK (blk->n_insns > 0);
      CHECK_RANGE (blk->first_insn, blk->n_insns, fn->n_insns);
      next_insn = blk->first_insn + blk->n_insns;

      CHECK_RANGE (blk->first_succ, blk->n_succs, m->n_edges);
      CHECK_RANGE (blk->first_pred, blk->n_preds, m->n_edges);
      for (uint32_t e = 0; e < blk->n_succs; e++)
        CHECK (m->edges[blk->first_succ + e] < fn->n_blocks);
      for (uint32_t e = 0; e < blk->n_preds; e++)
        CHECK (m->edges[blk->first_pred + e] < fn->n_blocks);
      CHECK (blk->ipdom == KS_PTX_NONE || blk->ipdom < fn->n_blocks);
      CHECK (blk->ipdom != b);
      CHECK (blk->first_line <= blk->last_line);
      n_succs += blk->n_succs;
      n_preds += blk->n_preds;
    }
  CHECK (next_insn == fn->n_insns);
  /* every edge is listed once from each end */
  CHECK (n_succs == n_preds);
}

static void
check_function (const KsPtxModule *m,
                uint32_t           index)
{
  const KsPtxFunction *fn = &m->functions[index];

  CHECK_SPAN (m, fn->name);
  CHECK (fn->kind <= KS_PTX_FUNCTION_PROTOTYPE);
  CHECK (fn->linkage <= KS_PTX_LINKAGE_COMMON);
  CHECK_RANGE (fn->first_param, fn->n_params, m->n_vars);
  CHECK_RANGE (fn->first_ret, fn->n_rets, m->n_vars);
  CHECK_RANGE (fn->first_insn, fn->n_insns, m->n_insns);
  CHECK_RANGE (fn->first_reg_decl, fn->n_reg_decls, m->n_reg_decls);
  CHECK_RANGE (fn->first_slot_type, fn->n_reg_slots, m->n_slot_types);
  CHECK_RANGE (fn->first_pragma, fn->n_pragmas, m->n_words);
  CHECK (fn->line >= 1);
  if (!(fn->flags & KS_PTX_FUNCTION_HAS_BODY))
    CHECK (fn->n_insns == 0);

  for (uint32_t i = 0; i < fn->n_reg_slots; i++)
    CHECK (m->slot_types[fn->first_slot_type + i] < KS_PTX_N_TYPES);

  for (uint32_t i = 0; i < fn->n_reg_decls; i++)
    {
      const KsPtxRegDecl *rd = &m->reg_decls[fn->first_reg_decl + i];
      uint32_t limit = rd->type == KS_PTX_TYPE_PRED ? fn->n_pred_slots : fn->n_reg_slots;

      CHECK_SPAN (m, rd->name);
      CHECK (rd->type < KS_PTX_N_TYPES);
      CHECK_RANGE (rd->first_slot, (uint64_t) rd->count * MAX (rd->vec, 1), limit);
    }

  for (uint32_t i = 0; i < fn->n_insns; i++)
    check_insn (m, fn, fn->first_insn + i);

  check_blocks (m, fn);
}

static void
check_var (const KsPtxModule *m,
           const KsPtxVar    *v)
{
  CHECK_SPAN (m, v->name);
  CHECK (v->space <= KS_PTX_SPACE_SURF);
  CHECK (v->ptr_space <= KS_PTX_SPACE_SURF);
  CHECK (v->type < KS_PTX_N_TYPES);
  CHECK (v->linkage <= KS_PTX_LINKAGE_COMMON);
  CHECK (v->function == KS_PTX_NONE || v->function < m->n_functions);
  CHECK (v->n_dims <= G_N_ELEMENTS (v->dims));
  CHECK_RANGE (v->first_init, v->n_init, m->n_inits);
  if (m->n_errors == 0)
    CHECK (v->vec == 1 || v->vec == 2 || v->vec == 4 || v->vec == 8);

  for (uint32_t i = 0; i < v->n_init; i++)
    {
      const KsPtxInit *init = &m->inits[v->first_init + i];

      switch ((KsPtxInitKind) init->kind)
        {
        case KS_PTX_INIT_INT:
        case KS_PTX_INIT_F32:
        case KS_PTX_INIT_F64:
          break;
        case KS_PTX_INIT_VAR:
        case KS_PTX_INIT_GENERIC_VAR:
          CHECK (init->index < m->n_vars);
          break;
        case KS_PTX_INIT_FUNC:
          CHECK (init->index < m->n_functions);
          break;
        case KS_PTX_INIT_NAME:
          CHECK (m->n_errors > 0);
          break;
        case KS_PTX_INIT_FIELD:
        case KS_PTX_INIT_WORD:
          CHECK_RANGE (init->index, init->value, m->text_len);
          break;
        default:
          CHECK (!"initializer kind out of range");
        }
    }
}

static void
check_module (const KsPtxModule *m,
              size_t             size)
{
  gboolean any_error = FALSE;

  CHECK (m != NULL);
  CHECK (m->text != NULL);
  CHECK (m->filename != NULL);
  CHECK (m->text_len == size);
  CHECK (m->address_size == 32 || m->address_size == 64 || m->n_errors > 0);
  CHECK_RANGE (m->first_target, m->n_targets, m->n_words);

  for (uint32_t i = 0; i < m->n_words; i++)
    CHECK_SPAN (m, m->words[i]);

  for (uint32_t i = 0; i < m->n_functions; i++)
    check_function (m, i);

  /* Instructions outside every function would be walked by nobody. */
  {
    uint64_t total = 0;

    for (uint32_t i = 0; i < m->n_functions; i++)
      total += m->functions[i].n_insns;
    CHECK (total == m->n_insns);
  }
  for (uint32_t i = 0; i + 1 < m->n_insns; i++)
    CHECK (m->insns[i].first_operand <= m->insns[i + 1].first_operand);

  for (uint32_t i = 0; i < m->n_vars; i++)
    check_var (m, &m->vars[i]);

  for (uint32_t i = 0; i < m->n_locs; i++)
    {
      const KsPtxLoc *loc = &m->locs[i];

      CHECK (loc->inlined_at < m->n_locs);
      CHECK_SPAN (m, loc->function_name);
    }

  for (uint32_t i = 0; i < m->n_files; i++)
    CHECK_SPAN (m, m->files[i].path);

  for (uint32_t i = 0; i < m->n_extras; i++)
    {
      CHECK_SPAN (m, m->extras[i].opcode_name);
      CHECK_RANGE (m->extras[i].first_word, m->extras[i].n_words, m->n_words);
    }

  for (uint32_t i = 0; i < m->n_target_lists; i++)
    {
      const KsPtxTargetList *tl = &m->target_lists[i];

      CHECK_SPAN (m, tl->name);
      CHECK (tl->function < m->n_functions);
      CHECK (tl->is_calltargets <= 1);
      CHECK_RANGE (tl->first, tl->n, m->n_target_entries);
      for (uint32_t k = 0; k < tl->n; k++)
        {
          uint32_t e = m->target_entries[tl->first + k];

          if (e == KS_PTX_NONE && m->n_errors > 0)
            continue;
          if (tl->is_calltargets)
            CHECK (e < m->n_functions);
          else
            CHECK (e <= m->functions[tl->function].n_insns);
        }
    }

  for (uint32_t i = 0; i < m->n_imm64; i++)
    (void) m->imm64[i];

  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    {
      const KsPtxDiagnostic *d = &m->diagnostics[i];

      CHECK (d->line >= 1);
      CHECK (d->column >= 1);
      CHECK (d->message != NULL);
      CHECK (d->severity <= KS_PTX_SEVERITY_NOTE);
      if (d->severity == KS_PTX_SEVERITY_ERROR)
        any_error = TRUE;
    }
  if (any_error)
    CHECK (m->n_errors > 0);
  CHECK (ks_ptx_module_has_errors (m) == (m->n_errors > 0));
}

/* The public look-ups a view makes, on names and lines from the module. */
static void
exercise_queries (const KsPtxModule *m)
{
  uint32_t file = 1, line = 1;
  g_autoptr(GArray) links = NULL;

  (void) ks_ptx_module_n_entries (m);
  if (m->n_functions > 0)
    {
      g_autofree char *name = ks_ptx_span_dup (m, m->functions[0].name);
      const KsPtxFunction *fn = ks_ptx_module_find_function (m, name);

      CHECK (fn == NULL || ks_ptx_span_equal (m, fn->name, name));
    }

  for (uint32_t i = 1; i < m->n_locs; i++)
    if (m->locs[i].line != 0)
      {
        file = m->locs[i].file;
        line = m->locs[i].line;
        break;
      }
  (void) ks_ptx_module_find_file (m, file);

  links = ks_ptx_module_links_for_source (m, file, line);
  CHECK (links != NULL);
  for (guint i = 0; i < links->len; i++)
    {
      const KsPtxSourceLink *l = &g_array_index (links, KsPtxSourceLink, i);

      CHECK (l->ptx_line >= 1 && l->ptx_line <= m->n_lines);
      CHECK (l->depth < 64);
      /* in PTX line order, each line once */
      if (i > 0)
        CHECK (l->ptx_line > g_array_index (links, KsPtxSourceLink, i - 1).ptx_line);
    }
}

static uint32_t
count_newlines (const char *text,
                size_t      len)
{
  uint32_t n = 0;

  for (size_t i = 0; i < len; i++)
    n += text[i] == '\n';
  return n;
}

/* One kernel's part of a module that parsed (what ptxas is given): every
 * line keeps its number, the part parses without errors, and it has the
 * kernel with the same body and fewer definitions than the whole */
static void
exercise_one_kernel_text (const KsPtxModule *m)
{
  for (uint32_t f = 0; f < m->n_functions; f++)
    {
      const KsPtxFunction *fn = &m->functions[f];
      g_autofree char *text = NULL, *name = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(KsPtxModule) part = NULL;
      const KsPtxFunction *same;
      uint32_t n_left_out = 0;
      int64_t n_bodies = 0;
      gsize len = 0;

      if (fn->kind != KS_PTX_FUNCTION_ENTRY)
        continue;
      text = ks_ptx_module_text_for_function (m, f, &len, &n_left_out);
      if (text == NULL)
        {
          CHECK (len == 0);
          continue;
        }
      CHECK (m->n_errors == 0);
      CHECK (n_left_out > 0);
      /* (a NUL in a comment is copied like any other byte) */
      CHECK (len <= m->text_len && text[len] == '\0');
      CHECK (count_newlines (text, len) == count_newlines (m->text, m->text_len));
      bytes = g_bytes_new_static (text, len);
      part = ks_ptx_module_parse (bytes, "part.ptx");
      CHECK (part->n_errors == 0);
      name = ks_ptx_span_dup (m, fn->name);
      same = ks_ptx_module_find_function (part, name);
      CHECK (same != NULL && (same->flags & KS_PTX_FUNCTION_HAS_BODY));
      CHECK (same->n_insns == fn->n_insns && same->line == fn->line);
      for (uint32_t g = 0; g < part->n_functions; g++)
        n_bodies += (part->functions[g].flags & KS_PTX_FUNCTION_HAS_BODY) != 0;
      for (uint32_t g = 0; g < m->n_functions; g++)
        n_bodies -= (m->functions[g].flags & KS_PTX_FUNCTION_HAS_BODY) != 0;
      CHECK (n_bodies + (int64_t) n_left_out == 0);
      break;                    /* one kernel is enough per input */
    }
}

/* What the timing model says ptxas makes of a module that parsed
 * (ks-lower.h): every instruction has one kind, a vector access has 2 or 4
 * parts of one opcode and space in one function, the counts add up. */
static void
exercise_lowering (const KsPtxModule *m)
{
  g_autoptr(KsLowering) lw = NULL;
  uint32_t folded = 0, parts = 0, leaders = 0, leader_parts = 0;

  if (m->n_errors > 0)
    return;
  lw = ks_lower_module (m);
  CHECK (lw->n_insns == m->n_insns);
  for (uint32_t i = 0; i < m->n_insns; i++)
    {
      const KsLowerInsn *li = &lw->insns[i];

      CHECK (li->kind <= KS_LOWER_VECTOR_PART);
      CHECK (li->width == 1 || li->width == 2 || li->width == 4);
      CHECK (li->skew < 16);
      if (li->kind == KS_LOWER_FOLDED)
        {
          CHECK (li->width == 1);
          folded++;
        }
      else if (li->kind == KS_LOWER_VECTOR_PART)
        {
          const KsPtxInsn *a = &m->insns[i], *b;

          CHECK (li->width == 1);
          CHECK (li->leader < m->n_insns && li->leader != i);
          CHECK (lw->insns[li->leader].kind == KS_LOWER_ISSUE);
          CHECK (lw->insns[li->leader].width > 1);
          b = &m->insns[li->leader];
          CHECK (a->opcode == b->opcode && a->space == b->space);
          parts++;
        }
      else if (li->width > 1)
        {
          leaders++;
          leader_parts += li->width - 1u;
        }
    }
  CHECK (folded == lw->n_folded);
  CHECK (parts == lw->n_vector_parts);
  CHECK (leaders == lw->n_vectors);
  CHECK (leader_parts == parts);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KsPtxModule) module = NULL;

  /* Static: the parser must not rely on a NUL after the text, and ASan
   * should see any read past the input's last byte. */
  bytes = g_bytes_new_static (data, size);
  module = ks_ptx_module_parse (bytes, "fuzz.ptx");
  check_module (module, size);
  exercise_queries (module);
  exercise_one_kernel_text (module);
  exercise_lowering (module);
  return 0;
}
