/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-cfg.c: basic blocks, control-flow edges and immediate
 * post-dominators (the SIMT reconvergence points).
 *
 * This runs at the end of every parse, over files of tens of megabytes, so it
 * allocates nothing per block: all the scratch space is a handful of flat
 * arrays sized for the largest function and reused for every function.
 *
 * Post-dominators come from the Cooper-Harvey-Kennedy algorithm ("A Simple,
 * Fast Dominance Algorithm", 2001) run on the reversed CFG, rooted at a
 * virtual exit node that every ret/exit/trap (predicated or not) and every
 * dead end leads to.  The predicated ret case follows GPGPU-Sim: a block
 * ending in `@p ret` has both the exit and the next block as successors, so
 * its reconvergence point is the exit.
 */

#include "ks-ptx-private.h"

#include <stdlib.h>
#include <string.h>

#define UNDEF KS_PTX_NONE

typedef struct
{
  /* Per instruction */
  uint8_t *leader;
  uint32_t *block_of;
  uint32_t insn_cap;

  /* Per block (plus one for the virtual exit) */
  uint8_t *to_exit;             /* the block leads to the exit */
  uint32_t *po_num;             /* postorder number on the reversed graph, or UNDEF */
  uint32_t *rpo;                /* nodes in reverse postorder */
  uint32_t *idom;               /* immediate dominator on the reversed graph */
  uint32_t *stack_node;
  uint32_t *stack_pos;
  uint32_t *fill;               /* predecessor fill cursors */
  uint32_t node_cap;

  /* Branch targets of one instruction */
  uint32_t *targets;
  uint32_t targets_cap;
} Scratch;

/* Growing arrays of the module, with their capacity */
typedef struct
{
  KsPtxModule *module;
  uint32_t blocks_cap;
  uint32_t edges_cap;
} Out;

static inline gboolean
is_terminator (uint16_t opcode)
{
  switch (opcode)
    {
    case KS_PTX_OPC_BRA:
    case KS_PTX_OPC_BRX:
    case KS_PTX_OPC_RET:
    case KS_PTX_OPC_EXIT:
    case KS_PTX_OPC_TRAP:
      return TRUE;
    default:
      return FALSE;
    }
}

static inline gboolean
is_exit_opcode (uint16_t opcode)
{
  return opcode == KS_PTX_OPC_RET || opcode == KS_PTX_OPC_EXIT || opcode == KS_PTX_OPC_TRAP;
}

static inline gboolean
is_branch_opcode (uint16_t opcode)
{
  return opcode == KS_PTX_OPC_BRA || opcode == KS_PTX_OPC_BRX;
}

uint32_t
ks_ptx_insn_branch_targets (const KsPtxModule *module,
                            const KsPtxInsn   *insn,
                            uint32_t          *out,
                            uint32_t           max)
{
  const KsPtxOperand *ops;
  uint32_t count = 0;

  g_assert (module != NULL);
  g_assert (insn != NULL);
  g_assert (out != NULL || max == 0);

  if (!is_branch_opcode (insn->opcode))
    return 0;

  ops = module->operands + insn->first_operand;

  for (uint32_t i = 0; i < insn->n_operands; i++)
    {
      const KsPtxOperand *op = &ops[i];

      if (insn->opcode == KS_PTX_OPC_BRA && op->kind == KS_PTX_OPERAND_LABEL)
        {
          if (count < max)
            out[count] = op->a;
          count++;
        }
      else if (insn->opcode == KS_PTX_OPC_BRX && op->kind == KS_PTX_OPERAND_TARGETS)
        {
          const KsPtxTargetList *list;

          if (op->a >= module->n_target_lists)
            continue;
          list = &module->target_lists[op->a];
          if (list->is_calltargets)
            continue;
          if (list->first > module->n_target_entries
              || list->n > module->n_target_entries - list->first)
            continue;

          for (uint32_t j = 0; j < list->n; j++)
            {
              if (count < max)
                out[count] = module->target_entries[list->first + j];
              count++;
            }
        }
    }

  return count;
}

static void
grow_to (void     **data,
         uint32_t  *cap,
         uint64_t   needed,
         size_t     elem_size)
{
  uint64_t new_cap;

  if (needed <= *cap)
    return;
  if (needed > G_MAXUINT32)
    g_error ("PTX control-flow graph too large");

  new_cap = MAX ((uint64_t) *cap * 2, 16);
  if (new_cap < needed)
    new_cap = needed;
  if (new_cap > G_MAXUINT32)
    new_cap = G_MAXUINT32;

  *data = g_realloc_n (*data, (gsize) new_cap, elem_size);
  *cap = (uint32_t) new_cap;
}

/* Branch targets of insn into s->targets; returns the count. */
static uint32_t
collect_targets (const KsPtxModule *module,
                 const KsPtxInsn   *insn,
                 Scratch           *s)
{
  uint32_t n = ks_ptx_insn_branch_targets (module, insn, s->targets, s->targets_cap);

  if (n > s->targets_cap)
    {
      g_free (s->targets);
      s->targets_cap = n;
      s->targets = g_new (uint32_t, n);
      n = ks_ptx_insn_branch_targets (module, insn, s->targets, s->targets_cap);
    }

  return n;
}

static int
compare_u32 (const void *a,
             const void *b)
{
  uint32_t x = *(const uint32_t *) a;
  uint32_t y = *(const uint32_t *) b;

  return (x > y) - (x < y);
}

/* Sorts and deduplicates v[0..n); returns the new length. */
static uint32_t
sort_unique (uint32_t *v,
             uint32_t  n)
{
  uint32_t w;

  if (n < 2)
    return n;

  if (n <= 16)
    {
      for (uint32_t i = 1; i < n; i++)
        {
          uint32_t x = v[i];
          uint32_t j = i;

          while (j > 0 && v[j - 1] > x)
            {
              v[j] = v[j - 1];
              j--;
            }
          v[j] = x;
        }
    }
  else
    qsort (v, n, sizeof *v, compare_u32);

  w = 1;
  for (uint32_t i = 1; i < n; i++)
    if (v[i] != v[w - 1])
      v[w++] = v[i];

  return w;
}

static inline uint32_t
intersect (const uint32_t *idom,
           const uint32_t *po_num,
           uint32_t        a,
           uint32_t        b)
{
  while (a != b)
    {
      while (po_num[a] < po_num[b])
        a = idom[a];
      while (po_num[b] < po_num[a])
        b = idom[b];
    }
  return a;
}

/* Immediate post-dominators of the function's blocks blocks[0..nb). */
static void
compute_ipdom (const KsPtxModule *module,
               KsPtxBlock        *blocks,
               uint32_t           nb,
               Scratch           *s)
{
  const uint32_t *edges = module->edges;
  const uint32_t exit_node = nb;
  uint32_t *po_num = s->po_num;
  uint32_t *idom = s->idom;
  uint32_t *rpo = s->rpo;
  uint32_t n_po = 0;
  uint32_t sp = 0;
  gboolean changed;

  for (uint32_t i = 0; i <= nb; i++)
    {
      po_num[i] = UNDEF;
      idom[i] = UNDEF;
    }

  /* Postorder of the reversed graph from the exit: a node's children are its
   * forward predecessors, and the exit's children are the blocks that lead
   * to it.  po_num doubles as the visited mark (UNDEF - 1 = on the stack). */
  s->stack_node[sp] = exit_node;
  s->stack_pos[sp] = 0;
  sp++;
  po_num[exit_node] = UNDEF - 1;

  while (sp > 0)
    {
      uint32_t node = s->stack_node[sp - 1];
      uint32_t pos = s->stack_pos[sp - 1];
      uint32_t child = UNDEF;

      if (node == exit_node)
        {
          while (pos < nb && child == UNDEF)
            {
              if (s->to_exit[pos] && po_num[pos] == UNDEF)
                child = pos;
              pos++;
            }
        }
      else
        {
          const KsPtxBlock *b = &blocks[node];

          while (pos < b->n_preds && child == UNDEF)
            {
              uint32_t p = edges[b->first_pred + pos];

              if (po_num[p] == UNDEF)
                child = p;
              pos++;
            }
        }

      s->stack_pos[sp - 1] = pos;

      if (child != UNDEF)
        {
          po_num[child] = UNDEF - 1;
          s->stack_node[sp] = child;
          s->stack_pos[sp] = 0;
          sp++;
        }
      else
        {
          po_num[node] = n_po;
          rpo[nb - n_po] = node;        /* filled from the end */
          n_po++;
          sp--;
        }
    }

  /* rpo[nb - n_po + 1 .. nb] holds the reachable nodes in reverse postorder;
   * the first of them is the exit. */
  rpo += nb + 1 - n_po;
  g_assert (rpo[0] == exit_node);

  idom[exit_node] = exit_node;

  do
    {
      changed = FALSE;

      for (uint32_t k = 1; k < n_po; k++)
        {
          uint32_t node = rpo[k];
          const KsPtxBlock *b = &blocks[node];
          uint32_t new_idom = UNDEF;

          /* Predecessors on the reversed graph: forward successors, and the
           * exit for blocks that lead to it. */
          if (s->to_exit[node])
            new_idom = exit_node;

          for (uint32_t i = 0; i < b->n_succs; i++)
            {
              uint32_t p = edges[b->first_succ + i];

              if (idom[p] == UNDEF)
                continue;
              new_idom = new_idom == UNDEF ? p : intersect (idom, po_num, p, new_idom);
            }

          g_assert (new_idom != UNDEF);

          if (idom[node] != new_idom)
            {
              idom[node] = new_idom;
              changed = TRUE;
            }
        }
    }
  while (changed);

  for (uint32_t i = 0; i < nb; i++)
    blocks[i].ipdom = (idom[i] == UNDEF || idom[i] == exit_node) ? KS_PTX_NONE : idom[i];
}

static void
build_function (Out           *o,
                KsPtxFunction *fn,
                Scratch       *s)
{
  KsPtxModule *module = o->module;
  const KsPtxInsn *insns = module->insns + fn->first_insn;
  const uint32_t n = fn->n_insns;
  KsPtxBlock *blocks;
  uint32_t nb = 0;
  uint32_t first_edge;
  uint32_t n_succ_edges;

  fn->first_block = module->n_blocks;
  fn->n_blocks = 0;

  if (!(fn->flags & KS_PTX_FUNCTION_HAS_BODY) || n == 0)
    return;

  /* Leaders */
  memset (s->leader, 0, n);
  s->leader[0] = 1;
  for (uint32_t i = 0; i < n; i++)
    {
      uint16_t opc = insns[i].opcode;

      if (!is_terminator (opc))
        continue;
      if (i + 1 < n)
        s->leader[i + 1] = 1;
      if (is_branch_opcode (opc))
        {
          uint32_t nt = collect_targets (module, &insns[i], s);

          for (uint32_t t = 0; t < nt; t++)
            if (s->targets[t] < n)
              s->leader[s->targets[t]] = 1;
        }
    }

  for (uint32_t i = 0; i < n; i++)
    {
      nb += s->leader[i];
      s->block_of[i] = nb - 1;
    }

  grow_to ((void **) &module->blocks, &o->blocks_cap,
           (uint64_t) module->n_blocks + nb, sizeof (KsPtxBlock));
  blocks = module->blocks + module->n_blocks;
  memset (blocks, 0, nb * sizeof (KsPtxBlock));

  for (uint32_t i = 0, b = 0; i < n; i++)
    {
      if (s->leader[i])
        {
          if (i > 0)
            blocks[b - 1].n_insns = i - blocks[b - 1].first_insn;
          blocks[b].first_insn = i;
          b++;
        }
    }
  blocks[nb - 1].n_insns = n - blocks[nb - 1].first_insn;

  /* Successors */
  first_edge = module->n_edges;
  for (uint32_t b = 0; b < nb; b++)
    {
      KsPtxBlock *blk = &blocks[b];
      const KsPtxInsn *last = &insns[blk->first_insn + blk->n_insns - 1];
      gboolean falls = !is_terminator (last->opcode) || last->pred != KS_PTX_NONE;
      uint32_t ns = 0;

      blk->first_line = insns[blk->first_insn].line;
      blk->last_line = last->line;
      blk->ipdom = KS_PTX_NONE;

      if (is_branch_opcode (last->opcode))
        {
          uint32_t nt = collect_targets (module, last, s);

          for (uint32_t t = 0; t < nt; t++)
            if (s->targets[t] < n)
              s->targets[ns++] = s->block_of[s->targets[t]];
          ns = sort_unique (s->targets, ns);
        }

      grow_to ((void **) &module->edges, &o->edges_cap,
               (uint64_t) module->n_edges + ns + 1, sizeof (uint32_t));
      blk->first_succ = module->n_edges;
      memcpy (module->edges + module->n_edges, s->targets, ns * sizeof (uint32_t));
      module->n_edges += ns;

      if (falls && b + 1 < nb)
        {
          gboolean dup = FALSE;

          /* `@p bra L; L:` - the target is also the next block */
          for (uint32_t i = 0; i < ns && !dup; i++)
            dup = s->targets[i] == b + 1;
          if (!dup)
            module->edges[module->n_edges++] = b + 1;
        }

      blk->n_succs = module->n_edges - blk->first_succ;

      /* Falling off the end of the function returns. */
      s->to_exit[b] = is_exit_opcode (last->opcode)
                      || blk->n_succs == 0
                      || (falls && b + 1 == nb);
    }
  n_succ_edges = module->n_edges - first_edge;

  /* Predecessors, by counting: each block's list ends up in ascending order
   * of predecessor. */
  grow_to ((void **) &module->edges, &o->edges_cap,
           (uint64_t) module->n_edges + n_succ_edges, sizeof (uint32_t));
  for (uint32_t b = 0; b < nb; b++)
    blocks[b].n_preds = 0;
  for (uint32_t e = first_edge; e < first_edge + n_succ_edges; e++)
    blocks[module->edges[e]].n_preds++;
  {
    uint32_t at = module->n_edges;

    for (uint32_t b = 0; b < nb; b++)
      {
        blocks[b].first_pred = at;
        s->fill[b] = at;
        at += blocks[b].n_preds;
      }
  }
  for (uint32_t b = 0; b < nb; b++)
    {
      const KsPtxBlock *blk = &blocks[b];

      for (uint32_t i = 0; i < blk->n_succs; i++)
        {
          uint32_t succ = module->edges[blk->first_succ + i];

          module->edges[s->fill[succ]++] = b;
        }
    }
  module->n_edges += n_succ_edges;

  compute_ipdom (module, blocks, nb, s);

  fn->n_blocks = nb;
  module->n_blocks += nb;
}

void
ks_ptx_cfg_build_all (KsPtxModule *module)
{
  Out o = { module, 0, 0 };
  Scratch s = { 0 };
  uint32_t max_insns = 0;

  g_return_if_fail (module != NULL);

  g_clear_pointer (&module->blocks, g_free);
  g_clear_pointer (&module->edges, g_free);
  module->n_blocks = 0;
  module->n_edges = 0;

  for (uint32_t f = 0; f < module->n_functions; f++)
    {
      const KsPtxFunction *fn = &module->functions[f];

      if ((fn->flags & KS_PTX_FUNCTION_HAS_BODY) && fn->n_insns > max_insns)
        max_insns = fn->n_insns;
    }

  if (max_insns > 0)
    {
      /* A function has at most one block per instruction, plus the exit. */
      s.insn_cap = max_insns;
      s.leader = g_new (uint8_t, max_insns);
      s.block_of = g_new (uint32_t, max_insns);
      s.node_cap = max_insns + 1;
      s.to_exit = g_new (uint8_t, s.node_cap);
      s.po_num = g_new (uint32_t, s.node_cap);
      s.rpo = g_new (uint32_t, s.node_cap);
      s.idom = g_new (uint32_t, s.node_cap);
      s.stack_node = g_new (uint32_t, s.node_cap);
      s.stack_pos = g_new (uint32_t, s.node_cap);
      s.fill = g_new (uint32_t, s.node_cap);
      s.targets_cap = 64;
      s.targets = g_new (uint32_t, s.targets_cap);
    }

  for (uint32_t f = 0; f < module->n_functions; f++)
    build_function (&o, &module->functions[f], &s);

  /* Give back the slack of the doubling. */
  if (module->n_blocks > 0)
    module->blocks = g_renew (KsPtxBlock, module->blocks, module->n_blocks);
  else
    g_clear_pointer (&module->blocks, g_free);
  if (module->n_edges > 0)
    module->edges = g_renew (uint32_t, module->edges, module->n_edges);
  else
    g_clear_pointer (&module->edges, g_free);

  g_free (s.leader);
  g_free (s.block_of);
  g_free (s.to_exit);
  g_free (s.po_num);
  g_free (s.rpo);
  g_free (s.idom);
  g_free (s.stack_node);
  g_free (s.stack_pos);
  g_free (s.fill);
  g_free (s.targets);
}
