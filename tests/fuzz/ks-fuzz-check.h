/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-fuzz-check.h: a fuzz target's invariant, which aborts (a finding) with
 * the file and line when it does not hold. */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond) \
  do { if (!(cond)) { fprintf (stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); abort (); } } \
  while (0)

#ifdef KS_FUZZ_LOOPS
#include "ks-sass-loops.h"

/* The loops of every function of a listing (ks-sass-loops.h): an error
 * with a message, or loops whose instructions and parents lie inside */
static inline void
ks_fuzz_check_loops (const KsSassListing *l)
{
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      GError *error = NULL;
      KsLoopSet *set = ks_loops_from_sass (l, fn, &error);

      if (set == NULL)
        {
          CHECK (error != NULL && error->message != NULL);
          g_error_free (error);
          continue;
        }
      CHECK (error == NULL);
      for (uint32_t b = 0; b < set->n_blocks; b++)
        CHECK (set->block_insn[b] < set->block_insn[b + 1]
               && (set->block_loop[b] == KS_LOOP_NONE || set->block_loop[b] < set->n_loops));
      for (uint32_t k = 0; k < set->n_loops; k++)
        {
          const KsLoop *lp = &set->loops[k];

          CHECK (lp->first_insn >= fn->first_insn && lp->last_insn < fn->first_insn + fn->n_insns);
          CHECK (lp->first_insn <= lp->back_edge && lp->back_edge <= lp->last_insn);
          CHECK (lp->parent == KS_LOOP_NONE || (lp->parent < set->n_loops && lp->parent != k));
          CHECK (lp->depth >= 1 && lp->n_insns <= fn->n_insns);
          CHECK (ks_loop_holds (set, k, lp->back_edge));
        }
      /* the flow the timing model walks: a branch's target is in the
       * function, and only a branch has one */
      for (uint32_t i = 0; i < fn->n_insns; i++)
        {
          uint8_t flow = set->flow[i];

          CHECK ((flow & KS_SASS_FLOW_KIND) != KS_SASS_FLOW_KIND);
          if ((flow & KS_SASS_FLOW_KIND) == KS_SASS_FLOW_BRANCH)
            CHECK (set->target[i] >= fn->first_insn
                   && set->target[i] < fn->first_insn + fn->n_insns);
          else
            CHECK (set->target[i] == KS_LOOP_NONE);
          if ((flow & KS_SASS_FLOW_KIND) == KS_SASS_FLOW_NEXT)
            CHECK (flow & KS_SASS_FLOW_ON);
        }
      ks_loop_set_free (set);
    }
}
#endif
