/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-sass.c: a libFuzzer target for the SASS listing reader, the pane's
 * layout of a listing and the demangler.
 *
 * Any bytes must give either a listing whose ranges all lie inside its
 * arrays, or an error whose message names a line ("fuzz.sass:N: ..."); the
 * demangler must return NULL or a string for any name.  Violations abort,
 * so the fuzzer reports them. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KS_FUZZ_LOOPS
#include "ks-fuzz-check.h"
#include "ks-sass.h"
#include "ks-timing.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  KsSassListing *l;

  if (size > (1u << 20))
    return 0;

  /* The pane's layout keeps every line, and reads as the listing does */
  if (memchr (data, '\0', size) == NULL)
    {
      char *shown = ks_sass_display_text ((const char *) data, (gssize) size);
      size_t lines = 0, shown_lines = 0;
      KsSassListing *a, *b;

      for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
      for (const char *p = shown; *p; p++)
        shown_lines += *p == '\n';
      CHECK (lines == shown_lines);
      a = ks_sass_parse ((const char *) data, size, "fuzz.sass", NULL);
      b = a != NULL ? ks_sass_parse (shown, strlen (shown), "fuzz.sass", NULL) : NULL;
      CHECK (a == NULL || (b != NULL && a->n_insns == b->n_insns));
      if (a != NULL)
        ks_sass_listing_free (a);
      if (b != NULL)
        ks_sass_listing_free (b);
      g_free (shown);
    }

  l = ks_sass_parse ((const char *) data, size, "fuzz.sass", &error);
  if (l == NULL)
    {
      CHECK (error != NULL);
      CHECK (g_str_has_prefix (error->message, "fuzz.sass:"));
      g_error_free (error);
    }
  else
    {
      CHECK (error == NULL);
      CHECK (l->n_insns > 0);
      for (uint32_t f = 0; f < l->n_functions; f++)
        {
          const KsSassFunction *fn = &l->functions[f];
          char *d = ks_sass_demangle (fn->name);

          CHECK (fn->first_insn + (uint64_t) fn->n_insns <= l->n_insns);
          CHECK (fn->first_label + (uint64_t) fn->n_labels <= l->n_labels);
          g_free (d);
        }
      for (uint32_t i = 0; i < l->n_insns; i++)
        {
          const KsSassInsn *in = &l->insns[i];

          /* an instruction nvdisasm printed only the words of has no
           * opcode, no operands and no pipe */
          CHECK (in->modifiers != NULL);
          CHECK (in->opcode != NULL || (in->n_operands == 0 && in->pipe == KS_N_PIPES));
          CHECK (in->first_operand + (uint64_t) in->n_operands <= l->n_operands);
          CHECK (in->source == KS_SASS_NONE || in->source < l->n_sources);
          CHECK (in->control.write_barrier <= 7 && in->control.read_barrier <= 7);
          CHECK (in->control.wait_mask < 64 && in->control.stall < 16 && in->control.reuse < 16);
        }
      for (uint32_t k = 0; k < l->n_labels; k++)
        CHECK (l->labels[k].insn <= l->n_insns);
      ks_fuzz_check_loops (l);
      ks_sass_listing_free (l);
    }

  /* The demangler on the raw bytes, as a name */
  if (size < 4096)
    {
      char *name = g_strndup ((const char *) data, size);
      char *z = g_strconcat ("_Z", name, NULL);

      g_free (ks_sass_demangle (name));
      g_free (ks_sass_demangle (z));
      g_free (z);
      g_free (name);
    }
  return 0;
}
