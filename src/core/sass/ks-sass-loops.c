/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-loops.c: natural loops of SASS and PTX functions, matched
 * (ks-sass-loops.h).
 *
 * Both sides become a control-flow graph of basic blocks; dominators come
 * from the Cooper-Harvey-Kennedy iteration over reverse postorder ("A
 * Simple, Fast Dominance Algorithm", 2001), and a loop is a header with the
 * blocks that reach one of its back edges without passing it (loops with
 * one header are one loop).  Blocks the entry does not reach (the BRA to
 * itself ptxas puts after the last EXIT) hold no loop. */

#include "ks-sass-loops.h"

#include <stdlib.h>
#include <string.h>

#define UNDEF G_MAXUINT32

/* A control-flow graph: block b's successors are succ[first[b] .. first[b + 1]) */
typedef struct
{
  uint32_t n;
  GArray *first;                /* uint32_t, n + 1 */
  GArray *succ;                 /* uint32_t */
  GArray *block_insn;           /* uint32_t, n + 1: block b is instructions
                                 * [block_insn[b], block_insn[b + 1]) */
} Graph;

typedef struct
{
  uint32_t header;
  uint32_t latch;               /* the block of its last back edge */
  GArray *blocks;               /* uint32_t, sorted */
  uint32_t parent;
} RawLoop;

static void
graph_clear (Graph *g)
{
  g_clear_pointer (&g->first, g_array_unref);
  g_clear_pointer (&g->succ, g_array_unref);
  g_clear_pointer (&g->block_insn, g_array_unref);
}

static inline uint32_t
u32_at (GArray  *a,
        uint32_t i)
{
  return g_array_index (a, uint32_t, i);
}

static void
raw_loop_clear (gpointer p)
{
  RawLoop *r = p;

  g_clear_pointer (&r->blocks, g_array_unref);
}

static gboolean
has_block (const RawLoop *r,
           uint32_t       b)
{
  uint32_t lo = 0, hi = r->blocks->len;

  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2, v = u32_at (r->blocks, mid);

      if (v == b)
        return TRUE;
      if (v < b)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

static int
cmp_u32 (const void *a,
         const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

  return x < y ? -1 : x > y;
}

static int
cmp_loop_size (const void *a,
               const void *b)
{
  const RawLoop *x = a, *y = b;

  if (x->blocks->len != y->blocks->len)
    return x->blocks->len < y->blocks->len ? -1 : 1;
  return cmp_u32 (&x->header, &y->header);
}

/* Reverse postorder from block 0; rpo_num[b] is UNDEF for blocks it does
 * not reach.  Returns the order (transfer full). */
static GArray *
reverse_postorder (const Graph *g,
                   uint32_t    *rpo_num)
{
  g_autofree uint32_t *stack = g_new (uint32_t, g->n + 1);
  g_autofree uint32_t *pos = g_new (uint32_t, g->n + 1);
  g_autofree uint8_t *seen = g_new0 (uint8_t, g->n + 1);
  GArray *post = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  uint32_t sp = 0;

  for (uint32_t b = 0; b < g->n; b++)
    rpo_num[b] = UNDEF;
  if (g->n == 0)
    return post;
  stack[sp] = 0;
  pos[sp++] = u32_at (g->first, 0);
  seen[0] = 1;
  while (sp > 0)
    {
      uint32_t b = stack[sp - 1];

      if (pos[sp - 1] < u32_at (g->first, b + 1))
        {
          uint32_t s = u32_at (g->succ, pos[sp - 1]++);

          if (!seen[s])
            {
              seen[s] = 1;
              stack[sp] = s;
              pos[sp++] = u32_at (g->first, s);
            }
          continue;
        }
      g_array_append_val (post, b);
      sp--;
    }
  /* reverse it in place */
  for (uint32_t i = 0, j = post->len - 1; post->len > 0 && i < j; i++, j--)
    {
      uint32_t t = u32_at (post, i);

      g_array_index (post, uint32_t, i) = u32_at (post, j);
      g_array_index (post, uint32_t, j) = t;
    }
  for (uint32_t i = 0; i < post->len; i++)
    rpo_num[u32_at (post, i)] = i;
  return post;
}

static gboolean
dominates (const uint32_t *idom,
           uint32_t        a,
           uint32_t        b)
{
  for (;;)
    {
      if (b == a)
        return TRUE;
      if (b == 0 || idom[b] == UNDEF || idom[b] == b)
        return FALSE;
      b = idom[b];
    }
}

/* The natural loops of g, innermost first (by size), with parents set */
static GArray *
find_loops (const Graph *g)
{
  g_autofree uint32_t *rpo_num = g_new (uint32_t, g->n + 1);
  g_autofree uint32_t *idom = g_new (uint32_t, g->n + 1);
  g_autofree uint32_t *pred_first = g_new0 (uint32_t, g->n + 2);
  g_autofree uint32_t *pred = NULL;
  g_autofree uint32_t *stamp = g_new0 (uint32_t, g->n + 1);
  g_autofree uint32_t *work = g_new (uint32_t, g->n + 1);
  g_autoptr(GArray) rpo = reverse_postorder (g, rpo_num);
  GArray *loops = g_array_new (FALSE, TRUE, sizeof (RawLoop));
  gboolean changed = TRUE;

  g_array_set_clear_func (loops, raw_loop_clear);
  if (g->n == 0)
    return loops;

  /* predecessors, reachable ones only */
  for (uint32_t b = 0; b < g->n; b++)
    if (rpo_num[b] != UNDEF)
      for (uint32_t e = u32_at (g->first, b); e < u32_at (g->first, b + 1); e++)
        pred_first[u32_at (g->succ, e) + 1]++;
  for (uint32_t b = 0; b < g->n; b++)
    pred_first[b + 1] += pred_first[b];
  pred = g_new (uint32_t, pred_first[g->n] + 1);
  {
    g_autofree uint32_t *fill = g_memdup2 (pred_first, sizeof (uint32_t) * (g->n + 1));

    for (uint32_t b = 0; b < g->n; b++)
      if (rpo_num[b] != UNDEF)
        for (uint32_t e = u32_at (g->first, b); e < u32_at (g->first, b + 1); e++)
          pred[fill[u32_at (g->succ, e)]++] = b;
  }

  /* dominators */
  for (uint32_t b = 0; b < g->n; b++)
    idom[b] = UNDEF;
  idom[0] = 0;
  while (changed)
    {
      changed = FALSE;
      for (uint32_t i = 1; i < rpo->len; i++)
        {
          uint32_t b = u32_at (rpo, i), nd = UNDEF;

          for (uint32_t e = pred_first[b]; e < pred_first[b + 1]; e++)
            {
              uint32_t p = pred[e];

              if (idom[p] == UNDEF)
                continue;
              if (nd == UNDEF)
                {
                  nd = p;
                  continue;
                }
              {
                uint32_t f1 = p, f2 = nd;

                while (f1 != f2)
                  {
                    while (rpo_num[f1] > rpo_num[f2])
                      f1 = idom[f1];
                    while (rpo_num[f2] > rpo_num[f1])
                      f2 = idom[f2];
                  }
                nd = f1;
              }
            }
          if (nd != UNDEF && idom[b] != nd)
            {
              idom[b] = nd;
              changed = TRUE;
            }
        }
    }

  /* back edges, grouped by header */
  for (uint32_t i = 0; i < rpo->len; i++)
    {
      uint32_t u = u32_at (rpo, i);

      for (uint32_t e = u32_at (g->first, u); e < u32_at (g->first, u + 1); e++)
        {
          uint32_t h = u32_at (g->succ, e);
          RawLoop *r = NULL;

          if (!dominates (idom, h, u))
            continue;
          for (uint32_t k = 0; k < loops->len; k++)
            if (g_array_index (loops, RawLoop, k).header == h)
              r = &g_array_index (loops, RawLoop, k);
          if (r == NULL)
            {
              RawLoop fresh = { .header = h, .latch = u, .parent = UNDEF };

              fresh.blocks = g_array_new (FALSE, FALSE, sizeof (uint32_t));
              g_array_append_val (loops, fresh);
              r = &g_array_index (loops, RawLoop, loops->len - 1);
            }
          if (u32_at (g->block_insn, u) >= u32_at (g->block_insn, r->latch))
            r->latch = u;
        }
    }

  /* bodies: what reaches a latch backwards without passing the header */
  for (uint32_t k = 0; k < loops->len; k++)
    {
      RawLoop *r = &g_array_index (loops, RawLoop, k);
      uint32_t n_work = 0, mark = k + 1;

      stamp[r->header] = mark;
      g_array_append_val (r->blocks, r->header);
      /* its latches: the header's predecessors it dominates */
      for (uint32_t e = pred_first[r->header]; e < pred_first[r->header + 1]; e++)
        if (dominates (idom, r->header, pred[e]) && stamp[pred[e]] != mark)
          {
            stamp[pred[e]] = mark;
            g_array_append_val (r->blocks, pred[e]);
            work[n_work++] = pred[e];
          }
      while (n_work > 0)
        {
          uint32_t b = work[--n_work];

          for (uint32_t e = pred_first[b]; e < pred_first[b + 1]; e++)
            if (stamp[pred[e]] != mark)
              {
                stamp[pred[e]] = mark;
                g_array_append_val (r->blocks, pred[e]);
                work[n_work++] = pred[e];
              }
        }
      g_array_sort (r->blocks, cmp_u32);
    }

  /* nesting: the smallest other loop that holds the header */
  g_array_sort (loops, cmp_loop_size);
  for (uint32_t k = 0; k < loops->len; k++)
    {
      RawLoop *r = &g_array_index (loops, RawLoop, k);

      for (uint32_t j = k + 1; j < loops->len; j++)
        if (has_block (&g_array_index (loops, RawLoop, j), r->header))
          {
            r->parent = j;
            break;
          }
    }
  return loops;
}

typedef void (*AddInsnFunc) (KsLoop *loop, uint32_t insn, gconstpointer data);

gboolean
ks_loop_holds (const KsLoopSet *set,
               uint32_t         loop,
               uint32_t         insn)
{
  uint32_t lo = 0, hi = set->n_blocks, l;

  if (set->n_blocks == 0 || insn < set->block_insn[0] || insn >= set->block_insn[set->n_blocks])
    return FALSE;
  while (hi - lo > 1)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (set->block_insn[mid] <= insn)
        lo = mid;
      else
        hi = mid;
    }
  for (l = set->block_loop[lo]; l != KS_LOOP_NONE; l = set->loops[l].parent)
    if (l == loop)
      return TRUE;
  return FALSE;
}

/* Makes the loop set from the raw loops: sorted by first instruction, with
 * each block's innermost loop summed by `add` */
static KsLoopSet *
make_set (const Graph *g,
          GArray      *raw,
          AddInsnFunc  add,
          gconstpointer data)
{
  KsLoopSet *set = g_new0 (KsLoopSet, 1);
  g_autofree uint32_t *innermost = g_new (uint32_t, g->n + 1);
  g_autofree uint32_t *order = g_new (uint32_t, raw->len + 1);
  g_autofree uint32_t *by_first = g_new (uint32_t, raw->len + 1);

  set->n_blocks = g->n;
  set->n_loops = raw->len;
  set->loops = g_new0 (KsLoop, raw->len + 1);
  for (uint32_t b = 0; b < g->n; b++)
    innermost[b] = UNDEF;
  /* innermost first: the first loop to claim a block is its innermost */
  for (uint32_t k = 0; k < raw->len; k++)
    {
      RawLoop *r = &g_array_index (raw, RawLoop, k);

      for (uint32_t i = 0; i < r->blocks->len; i++)
        if (innermost[u32_at (r->blocks, i)] == UNDEF)
          innermost[u32_at (r->blocks, i)] = k;
    }
  /* the order of first instructions: a header comes first in its loop
   * unless ptxas rotated it, so sort by the lowest instruction */
  for (uint32_t k = 0; k < raw->len; k++)
    {
      RawLoop *r = &g_array_index (raw, RawLoop, k);
      KsLoop *l = &set->loops[k];

      l->header = r->header;
      l->first_insn = UNDEF;
      l->match = KS_LOOP_NONE;
      for (uint32_t i = 0; i < r->blocks->len; i++)
        {
          uint32_t b = u32_at (r->blocks, i);

          l->first_insn = MIN (l->first_insn, u32_at (g->block_insn, b));
          l->last_insn = MAX (l->last_insn, u32_at (g->block_insn, b + 1) - 1);
          if (innermost[b] == k)
            for (uint32_t in = u32_at (g->block_insn, b); in < u32_at (g->block_insn, b + 1);
                 in++)
              add (l, in, data);
        }
      l->back_edge = u32_at (g->block_insn, r->latch + 1) - 1;
      by_first[k] = k;
    }
  /* insertion sort of indices by first instruction (loops are few) */
  for (uint32_t i = 1; i < raw->len; i++)
    for (uint32_t j = i; j > 0
         && set->loops[by_first[j - 1]].first_insn > set->loops[by_first[j]].first_insn; j--)
      {
        uint32_t t = by_first[j];

        by_first[j] = by_first[j - 1];
        by_first[j - 1] = t;
      }
  for (uint32_t i = 0; i < raw->len; i++)
    order[by_first[i]] = i;
  set->block_loop = g_new (uint32_t, g->n + 1);
  set->block_insn = g_new (uint32_t, g->n + 1);
  for (uint32_t b = 0; b < g->n; b++)
    set->block_loop[b] = innermost[b] == UNDEF ? KS_LOOP_NONE : order[innermost[b]];
  for (uint32_t b = 0; b <= g->n; b++)
    set->block_insn[b] = u32_at (g->block_insn, b);
  {
    g_autofree KsLoop *sorted = g_new0 (KsLoop, raw->len + 1);

    for (uint32_t k = 0; k < raw->len; k++)
      {
        uint32_t parent = g_array_index (raw, RawLoop, k).parent;

        sorted[order[k]] = set->loops[k];
        sorted[order[k]].parent = parent == UNDEF ? KS_LOOP_NONE : order[parent];
      }
    memcpy (set->loops, sorted, sizeof (KsLoop) * raw->len);
  }
  for (uint32_t k = 0; k < set->n_loops; k++)
    {
      uint32_t d = 1;

      for (uint32_t p = set->loops[k].parent; p != KS_LOOP_NONE; p = set->loops[p].parent)
        d++;
      set->loops[k].depth = d;
    }
  return set;
}

void
ks_loop_set_free (KsLoopSet *set)
{
  if (set == NULL)
    return;
  g_free (set->block_loop);
  g_free (set->block_insn);
  g_free (set->flow);
  g_free (set->target);
  g_free (set->loops);
  g_free (set);
}

/* ---- SASS ---- */

typedef enum
{
  FLOW_NEXT = 0,                /* goes on to the next instruction */
  FLOW_BRANCH,                  /* jumps to its target (and on, when predicated) */
  FLOW_END,                     /* ends the thread (goes on, when predicated) */
  FLOW_INDIRECT,                /* a target from a register */
  FLOW_STACK,                   /* Maxwell/Pascal: a target from the SSY/PBK stack */
} Flow;

/* (KsLoopSet.flow keeps the first three) */
G_STATIC_ASSERT ((int) FLOW_BRANCH == (int) KS_SASS_FLOW_BRANCH
                 && (int) FLOW_END == (int) KS_SASS_FLOW_END);

/* An instruction as a disassembler named it, or as its words say when
 * none did (a cubin read without one, sm_70 to sm_90) */
typedef struct
{
  const KsSassListing *l;
  const KsSassFunction *fn;
  guint sm;
} Ctx;

typedef struct
{
  const char *opcode;           /* NULL: not known */
  const char *modifiers;        /* "" when read from the words */
  const char *predicate;
  char buf[8];
} View;

static void
view_of (const Ctx        *c,
         const KsSassInsn *in,
         View             *v)
{
  if (in->opcode != NULL)
    {
      v->opcode = in->opcode;
      v->modifiers = in->modifiers;
      v->predicate = in->predicate;
      return;
    }
  v->opcode = ks_sass_insn_opcode (c->sm, in);
  v->modifiers = "";
  v->predicate = ks_sass_decode_predicate (c->sm, in, v->buf);
  /* A code the table does not hold: outside 0x940-0x95f, where Volta to
   * Hopper keep their branches, calls, returns and exits, it does not
   * change the flow ("": its work is not known) */
  if (v->opcode == NULL && c->sm >= 70 && c->sm <= 90 && (in->flags & KS_SASS_HAS_WORD0)
      && ((in->words[0] & 0xfff) < 0x940 || (in->words[0] & 0xfff) > 0x95f))
    v->opcode = "";
}

static Flow
sass_flow (const View *in)
{
  const char *op = in->opcode;

  if (strcmp (op, "BRA") == 0 || strcmp (op, "JMP") == 0)
    return FLOW_BRANCH;
  if (strcmp (op, "EXIT") == 0 || strcmp (op, "RET") == 0 || strcmp (op, "KILL") == 0
      || (strcmp (op, "BPT") == 0 && strstr (in->modifiers, "TRAP") != NULL))
    return FLOW_END;
  if (strcmp (op, "BRX") == 0 || strcmp (op, "JMX") == 0 || strcmp (op, "BRXU") == 0
      || strcmp (op, "JMXU") == 0)
    return FLOW_INDIRECT;
  if (strcmp (op, "SYNC") == 0 || strcmp (op, "BRK") == 0 || strcmp (op, "CONT") == 0)
    return FLOW_STACK;
  return FLOW_NEXT;
}

static gboolean
sass_predicated (const View *in)
{
  return in->predicate != NULL && strcmp (in->predicate, "@PT") != 0;
}

static gboolean
sass_never (const View *in)
{
  return in->predicate != NULL && strcmp (in->predicate, "@!PT") == 0;
}

static uint32_t
insn_at_offset (const KsSassListing  *l,
                const KsSassFunction *fn,
                uint64_t              off)
{
  uint32_t lo = fn->first_insn, hi = fn->first_insn + fn->n_insns;

  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (l->insns[mid].offset == off)
        return mid;
      if (l->insns[mid].offset < off)
        lo = mid + 1;
      else
        hi = mid;
    }
  return UNDEF;
}

/* The instruction (listing index) a branch goes to, or UNDEF */
static uint32_t
sass_target (const Ctx        *c,
             const KsSassInsn *in)
{
  const KsSassListing *l = c->l;
  const KsSassFunction *fn = c->fn;
  uint64_t decoded;

  if (in->opcode == NULL)
    return ks_sass_decode_branch_target (c->sm, in, &decoded)
           ? insn_at_offset (l, fn, decoded) : UNDEF;
  for (uint32_t k = in->n_operands; k-- > 0;)
    {
      const char *o = l->operands[in->first_operand + k];

      if (g_str_has_prefix (o, "`("))
        {
          size_t len = strlen (o);

          if (len < 3 || o[len - 1] != ')')
            return UNDEF;
          for (uint32_t j = fn->first_label; j < fn->first_label + fn->n_labels; j++)
            if (strlen (l->labels[j].name) == len - 3
                && strncmp (l->labels[j].name, o + 2, len - 3) == 0)
              /* (a label after the last instruction is no target) */
              return l->labels[j].insn >= fn->first_insn
                     && l->labels[j].insn < fn->first_insn + fn->n_insns
                     ? l->labels[j].insn : UNDEF;
          return UNDEF;
        }
      if (g_str_has_prefix (o, "0x"))
        {
          char *end = NULL;
          guint64 off = g_ascii_strtoull (o + 2, &end, 16);

          if (end == o + 2 || *end != '\0')
            continue;
          return insn_at_offset (l, fn, off);
        }
    }
  return UNDEF;
}

static uint32_t
sass_access_bytes (const char *modifiers)
{
  if (strstr (modifiers, ".128") != NULL)
    return 16;
  if (strstr (modifiers, ".64") != NULL)
    return 8;
  if (strstr (modifiers, ".U8") != NULL || strstr (modifiers, ".S8") != NULL)
    return 1;
  if (strstr (modifiers, ".U16") != NULL || strstr (modifiers, ".S16") != NULL)
    return 2;
  return 4;
}

static void
sass_add_insn (KsLoop       *loop,
               uint32_t      insn,
               gconstpointer data)
{
  const Ctx *c = data;
  const KsSassInsn *raw = &c->l->insns[insn];
  View v, *in = &v;
  const char *op;

  view_of (c, raw, &v);
  op = v.opcode;
  if (sass_never (in))
    return;
  loop->n_insns++;
  if (*op == '\0')
    loop->uncertain = TRUE;
  if (strcmp (op, "FFMA") == 0 || strcmp (op, "FFMA32I") == 0 || strcmp (op, "DFMA") == 0)
    loop->flops += 2;
  else if (strcmp (op, "FADD") == 0 || strcmp (op, "FMUL") == 0 || strcmp (op, "FADD32I") == 0
           || strcmp (op, "FMUL32I") == 0 || strcmp (op, "DADD") == 0
           || strcmp (op, "DMUL") == 0)
    loop->flops += 1;
  else if (strcmp (op, "HFMA2") == 0)
    loop->flops += 4;
  else if (strcmp (op, "HADD2") == 0 || strcmp (op, "HMUL2") == 0)
    loop->flops += 2;
  else if (strcmp (op, "LDS") == 0 || strcmp (op, "STS") == 0 || strcmp (op, "LDG") == 0
           || strcmp (op, "STG") == 0 || strcmp (op, "LD") == 0 || strcmp (op, "ST") == 0)
    {
      uint32_t bytes = raw->opcode != NULL ? sass_access_bytes (in->modifiers)
                                           : ks_sass_decode_access_bytes (c->sm, raw);

      if (bytes == 0)
        loop->uncertain = TRUE;
      else if (op[2] == 'S')
        loop->shared_bytes += bytes;
      else
        loop->global_bytes += bytes;
    }
}

KsLoopSet *
ks_loops_from_sass (const KsSassListing  *l,
                    const KsSassFunction *fn,
                    GError              **error)
{
  Graph g = { 0 };
  g_autofree uint8_t *leader = NULL;
  g_autofree uint32_t *block_of = NULL;
  g_autofree uint32_t *target = NULL;
  g_autofree uint8_t *flow = NULL;
  g_autoptr(GArray) raw = NULL;
  uint32_t n, base;
  Ctx c;
  KsLoopSet *set;

  g_return_val_if_fail (l != NULL && fn != NULL, NULL);
  n = fn->n_insns;
  base = fn->first_insn;
  c.l = l;
  c.fn = fn;
  c.sm = fn->arch ? ks_sass_arch_number (fn->arch) : 0;
  leader = g_new0 (uint8_t, n + 1);
  block_of = g_new (uint32_t, n + 1);
  target = g_new (uint32_t, n + 1);
  flow = g_new0 (uint8_t, n + 1);
  if (n > 0)
    leader[0] = 1;
  for (uint32_t i = 0; i < n; i++)
    {
      const KsSassInsn *in = &l->insns[base + i];
      View v;
      Flow f;

      view_of (&c, in, &v);
      if (v.opcode == NULL)
        {
          g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_PARSE,
                       "%s:%u: the instruction at %04" G_GINT64_MODIFIER "x was not "
                       "disassembled, so where the branches go is not known",
                       fn->name, in->line, in->offset);
          return NULL;
        }
      f = sass_never (&v) ? FLOW_NEXT : sass_flow (&v);
      if (f == FLOW_INDIRECT || f == FLOW_STACK)
        {
          g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_PARSE,
                       "%s:%u: %s at %04" G_GINT64_MODIFIER "x takes its target from %s",
                       fn->name, in->line, v.opcode, in->offset,
                       f == FLOW_INDIRECT ? "a register" : "the reconvergence stack");
          return NULL;
        }
      target[i] = UNDEF;
      if (f == FLOW_BRANCH)
        {
          target[i] = sass_target (&c, in);
          if (target[i] == UNDEF)
            {
              g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_PARSE,
                           "%s:%u: the target of %s at %04" G_GINT64_MODIFIER "x is not an "
                           "instruction of the function", fn->name, in->line, v.opcode,
                           in->offset);
              return NULL;
            }
          leader[target[i] - base] = 1;
        }
      /* bit 2: it may also go on to the next instruction */
      flow[i] = (uint8_t) (f | ((f == FLOW_NEXT || sass_predicated (&v)) ? KS_SASS_FLOW_ON : 0)
                           | (sass_predicated (&v) ? KS_SASS_FLOW_PREDICATED : 0));
      if (f != FLOW_NEXT)
        leader[i + 1] = 1;
    }

  g.first = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g.succ = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g.block_insn = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  for (uint32_t i = 0; i < n; i++)
    {
      if (leader[i])
        {
          uint32_t at = base + i;

          g_array_append_val (g.block_insn, at);
        }
      block_of[i] = g.block_insn->len - 1;
    }
  g.n = g.block_insn->len;
  {
    uint32_t end = base + n;

    g_array_append_val (g.block_insn, end);
  }
  for (uint32_t b = 0; b < g.n; b++)
    {
      uint32_t last = u32_at (g.block_insn, b + 1) - 1 - base, nb = b + 1;

      g_array_append_val (g.first, g.succ->len);
      if ((flow[last] & 3) == FLOW_BRANCH)
        g_array_append_val (g.succ, block_of[target[last] - base]);
      if ((flow[last] & 4) && nb < g.n)
        g_array_append_val (g.succ, nb);
    }
  g_array_append_val (g.first, g.succ->len);

  raw = find_loops (&g);
  set = make_set (&g, raw, sass_add_insn, &c);
  for (uint32_t i = 0; i < n; i++)
    if ((flow[i] & 3) != FLOW_BRANCH)
      target[i] = KS_LOOP_NONE;
  set->flow = g_steal_pointer (&flow);
  set->target = g_steal_pointer (&target);
  for (uint32_t k = 0; k < set->n_loops; k++)
    {
      const KsSassSource *src = ks_sass_insn_source (l, set->loops[k].back_edge);

      set->loops[k].cuda_line = src ? src->line : 0;
    }
  graph_clear (&g);
  return set;
}

uint32_t
ks_sass_branch_target (const KsSassListing  *l,
                       const KsSassFunction *fn,
                       uint32_t              insn)
{
  Ctx c = { l, fn, fn->arch ? ks_sass_arch_number (fn->arch) : 0 };
  uint32_t t = sass_target (&c, &l->insns[insn]);

  return t == UNDEF ? KS_LOOP_NONE : t;
}

/* ---- PTX ---- */

static uint32_t
vec_count (KsPtxVec v)
{
  switch (v)
    {
    case KS_PTX_VEC_V2:
      return 2;
    case KS_PTX_VEC_V4:
      return 4;
    case KS_PTX_VEC_V8:
      return 8;
    default:
      return 1;
    }
}

static void
ptx_add_insn (KsLoop       *loop,
              uint32_t      insn,
              gconstpointer data)
{
  const KsPtxModule *m = data;
  const KsPtxInsn *in = &m->insns[insn];
  KsPtxType t = (KsPtxType) in->types[0];

  loop->n_insns++;
  switch (in->opcode)
    {
    case KS_PTX_OPC_ADD:
    case KS_PTX_OPC_SUB:
    case KS_PTX_OPC_MUL:
    case KS_PTX_OPC_FMA:
    case KS_PTX_OPC_MAD:
      if (ks_ptx_type_is_float (t))
        {
          uint32_t per = in->opcode == KS_PTX_OPC_FMA || in->opcode == KS_PTX_OPC_MAD ? 2 : 1;

          if (t == KS_PTX_TYPE_F16X2 || t == KS_PTX_TYPE_BF16X2)
            per *= 2;
          loop->flops += per;
        }
      break;
    case KS_PTX_OPC_DIV:
    case KS_PTX_OPC_SQRT:
    case KS_PTX_OPC_RCP:
    case KS_PTX_OPC_RSQRT:
    case KS_PTX_OPC_EX2:
    case KS_PTX_OPC_LG2:
    case KS_PTX_OPC_SIN:
    case KS_PTX_OPC_COS:
    case KS_PTX_OPC_TANH:
      /* ptxas expands these into sequences of FFMAs (a div.rn.f32 into
       * a MUFU.RCP and Newton-Raphson steps), or MUFU alone when approximate */
      if (ks_ptx_type_is_float (t))
        loop->expanded = TRUE;
      break;
    case KS_PTX_OPC_LD:
    case KS_PTX_OPC_LDU:
    case KS_PTX_OPC_ST:
      {
        uint32_t bytes = ks_ptx_type_size (t) * vec_count ((KsPtxVec) in->vec);

        if (in->space == KS_PTX_SPACE_SHARED || in->space == KS_PTX_SPACE_SHARED_CLUSTER)
          loop->shared_bytes += bytes;
        else if (in->space == KS_PTX_SPACE_GLOBAL || in->space == KS_PTX_SPACE_NONE)
          loop->global_bytes += bytes;
      }
      break;
    default:
      break;
    }
}

KsLoopSet *
ks_loops_from_ptx (const KsPtxModule *m,
                   uint32_t           function)
{
  const KsPtxFunction *fn;
  Graph g = { 0 };
  g_autoptr(GArray) raw = NULL;
  KsLoopSet *set;

  g_return_val_if_fail (m != NULL && function < m->n_functions, NULL);
  fn = &m->functions[function];
  g.n = fn->n_blocks;
  g.first = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g.succ = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g.block_insn = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  for (uint32_t b = 0; b < g.n; b++)
    {
      const KsPtxBlock *bl = &m->blocks[fn->first_block + b];
      uint32_t at = fn->first_insn + bl->first_insn;

      g_array_append_val (g.first, g.succ->len);
      g_array_append_val (g.block_insn, at);
      for (uint32_t e = 0; e < bl->n_succs; e++)
        g_array_append_val (g.succ, m->edges[bl->first_succ + e]);
    }
  g_array_append_val (g.first, g.succ->len);
  {
    uint32_t end = g.n > 0 ? fn->first_insn + m->blocks[fn->first_block + g.n - 1].first_insn
                             + m->blocks[fn->first_block + g.n - 1].n_insns : fn->first_insn;

    g_array_append_val (g.block_insn, end);
  }

  raw = find_loops (&g);
  set = make_set (&g, raw, ptx_add_insn, m);
  for (uint32_t k = 0; k < set->n_loops; k++)
    {
      uint32_t loc = m->insns[set->loops[k].back_edge].loc;

      set->loops[k].cuda_line = loc != 0 && loc < m->n_locs ? m->locs[loc].line : 0;
    }
  graph_clear (&g);
  return set;
}

/* ---- matching ---- */

/* Whether s does u times p's work, plus t times i's when i is given:
 * global bytes exactly (ptxas neither drops nor duplicates global
 * accesses), floating-point operations exactly unless p's have an
 * expansion of their own, shared bytes within a quarter (ptxas reuses some
 * shared loads across the copies of a body), and none only where none */
static gboolean
does_times (const KsLoop *s,
            const KsLoop *p,
            const KsLoop *i,
            uint64_t      u,
            uint64_t      t)
{
  uint64_t flops = u * (p->flops + (i ? t * i->flops : 0));
  uint64_t global = u * (p->global_bytes + (i ? t * i->global_bytes : 0));
  uint64_t shared = u * (p->shared_bytes + (i ? t * i->shared_bytes : 0));
  gboolean expanded = p->expanded || (i != NULL && i->expanded);

  if (s->uncertain || s->global_bytes != global || (!expanded && s->flops != flops)
      || (shared == 0) != (s->shared_bytes == 0))
    return FALSE;
  return 4 * (uint64_t) s->shared_bytes >= 3 * shared
         && 4 * (uint64_t) s->shared_bytes <= 5 * shared;
}

/* a / b when it is a whole number, else 0 */
static uint64_t
whole (uint64_t a,
       uint64_t b)
{
  return b == 0 || a % b != 0 ? 0 : a / b;
}

/* The whole number of times s does p's work plus t of i's (i NULL: none),
 * read from the first kind of work p (and i) has: global bytes,
 * floating-point operations (not expanded), shared bytes; 0 when none
 * fits.  With i, the result is t for u = 1. */
static uint32_t
times_of (const KsLoop *s,
          const KsLoop *p,
          const KsLoop *i)
{
  const KsLoop *w = i ? i : p;
  uint64_t r;

  if (w->global_bytes > 0)
    r = whole (s->global_bytes - (i && s->global_bytes >= p->global_bytes ? p->global_bytes : 0),
               w->global_bytes);
  else if (w->flops > 0 && !w->expanded)
    r = whole (s->flops - (i && s->flops >= p->flops ? p->flops : 0), w->flops);
  else if (w->shared_bytes > 0)
    r = whole (s->shared_bytes - (i && s->shared_bytes >= p->shared_bytes
                                  ? p->shared_bytes : 0), w->shared_bytes);
  else
    return 0;
  if (r == 0 || r > G_MAXUINT16 || !does_times (s, p, i, i ? 1 : r, i ? r : 0))
    return 0;
  return (uint32_t) r;
}

/* A loop with no work to compare (integer arithmetic only): with both CUDA
 * lines known and the same, the ratio of instructions, rounded */
static uint32_t
times_by_count (const KsLoop *s,
                const KsLoop *p)
{
  if (s->cuda_line == 0 || s->cuda_line != p->cuda_line || s->flops || s->shared_bytes
      || s->global_bytes || p->flops || p->shared_bytes || p->global_bytes || p->n_insns == 0)
    return 0;
  return MAX (1u, (s->n_insns + p->n_insns / 2) / p->n_insns);
}

uint32_t
ks_loops_match (KsLoopSet       *sass,
                const KsLoopSet *ptx)
{
  uint32_t from = 0, matched = 0;
  g_autofree uint8_t *taken = NULL;

  g_return_val_if_fail (sass != NULL && ptx != NULL, 0);
  taken = g_new0 (uint8_t, ptx->n_loops + 1);
  for (uint32_t k = 0; k < sass->n_loops; k++)
    {
      KsLoop *s = &sass->loops[k];
      /* With CUDA lines on both sides the line says where (a loop inlined
       * twice has two PTX loops of one line: the one no SASS loop took
       * first); without, the order does */
      gboolean by_line = s->cuda_line != 0;

      s->match = KS_LOOP_NONE;
      s->inner = KS_LOOP_NONE;
      s->unroll = 0;
      s->inner_trips = 0;
      s->estimated = FALSE;
      for (uint32_t pass = by_line ? 0 : 1; pass < 2 && s->match == KS_LOOP_NONE; pass++)
        for (uint32_t j = by_line ? 0 : from; j < ptx->n_loops; j++)
          {
            const KsLoop *p = &ptx->loops[j];
            uint32_t u;

            if ((by_line && p->cuda_line != s->cuda_line) || (pass == 0 && taken[j]))
              continue;
            u = times_of (s, p, NULL);
            if (u != 0
                && (s->match == KS_LOOP_NONE || s->inner != KS_LOOP_NONE || u < s->unroll))
              {
                /* the fewest PTX iterations: nvcc's own unrolled copy of a
                 * loop before its remainder loop */
                s->unroll = u;
                s->match = j;
                s->inner = KS_LOOP_NONE;
                s->inner_trips = 0;
                continue;
              }
            if (s->match != KS_LOOP_NONE)
              continue;
            /* p with one innermost loop of its own unrolled whole */
            for (uint32_t i = j + 1; i < ptx->n_loops && s->match == KS_LOOP_NONE; i++)
              {
                gboolean innermost = TRUE;
                uint32_t t;

                if (ptx->loops[i].parent != j)
                  continue;
                for (uint32_t c = i + 1; c < ptx->n_loops; c++)
                  innermost &= ptx->loops[c].parent != i;
                if (!innermost || (t = times_of (s, p, &ptx->loops[i])) == 0)
                  continue;
                s->unroll = 1;
                s->match = j;
                s->inner = i;
                s->inner_trips = t;
              }
          }
      for (uint32_t pass = 0; pass < 2 && s->match == KS_LOOP_NONE; pass++)
        for (uint32_t j = 0; s->match == KS_LOOP_NONE && j < ptx->n_loops; j++)
          {
            uint32_t u = pass == 0 && taken[j] ? 0 : times_by_count (s, &ptx->loops[j]);

            if (u != 0)
              {
                s->match = j;
                s->unroll = u;
                s->estimated = TRUE;
              }
          }
      if (s->match != KS_LOOP_NONE)
        {
          from = s->match;
          taken[s->match] = 1;
          matched++;
        }
    }
  return matched;
}
