/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-cubin.c: a libFuzzer target for the cubin reader (users open cubins
 * they download).
 *
 * Any bytes must give either a listing whose ranges all lie inside its
 * arrays and whose text places every instruction on its line, or an error
 * that names the file ("fuzz.cubin: error: ..."); ks_sass_elf_text_section
 * must stay inside the buffer.  Violations abort, so the fuzzer reports
 * them; ASan catches any read outside the input. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KS_FUZZ_LOOPS
#include "ks-fuzz-check.h"
#include "ks-sass-cubin.h"
#include "ks-timing.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check_listing (const KsSassListing *l)
{
  const KsSassCubin *c = l->cubin;
  const char *text = ks_sass_cubin_text (l);
  uint32_t lines = 1;

  CHECK (l->format == KS_SASS_FORMAT_CUBIN && c != NULL && text != NULL);
  CHECK (l->n_functions > 0);
  for (const char *p = text; *p; p++)
    lines += *p == '\n';
  for (uint32_t f = 0; f < l->n_functions; f++)
    {
      const KsSassFunction *fn = &l->functions[f];
      const KsCubinFunction *cf = &c->functions[f];

      CHECK (fn->first_insn + (uint64_t) fn->n_insns <= l->n_insns);
      CHECK (cf->first_param + (uint64_t) cf->n_params <= c->n_params);
      CHECK (cf->text_section < c->n_sections);
      CHECK (fn->line >= 1 && fn->line <= lines);
    }
  for (uint32_t i = 0; i < l->n_insns; i++)
    {
      const KsSassInsn *in = &l->insns[i];

      CHECK (in->opcode == NULL && in->modifiers != NULL && in->n_operands == 0);
      CHECK (in->pipe == KS_N_PIPES);
      CHECK (in->flags & KS_SASS_HAS_CONTROL);
      CHECK (in->line >= 1 && in->line <= lines);
      CHECK (i == 0 || in->line > l->insns[i - 1].line);
    }
  for (uint32_t k = 0; k < c->n_attrs; k++)
    {
      gsize n;
      const KsCubinAttr *a = &c->attrs[k];

      CHECK (a->function == KS_SASS_NONE || a->function < l->n_functions);
      CHECK (a->section < c->n_sections);
      ks_cubin_attr_data (c, a, &n);
      CHECK (a->format != KS_CUBIN_EIFMT_SVAL || n == a->value);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  KsSassListing *l;
  /* a copy of exactly size bytes, so that ASan sees any read past them */
  guint8 *copy;

  if (size > (1u << 22))
    return 0;
  copy = g_malloc (size ? size : 1);
  memcpy (copy, data, size);

  l = ks_sass_cubin_read (copy, size, "fuzz.cubin", &error);
  if (l == NULL)
    {
      CHECK (error != NULL);
      CHECK (g_str_has_prefix (error->message, "fuzz.cubin: error: "));
      g_error_free (error);
    }
  else
    {
      CHECK (error == NULL);
      check_listing (l);
      for (uint32_t f = 0; f < l->n_functions && f < 4; f++)
        {
          const guint8 *text;
          gsize len;

          if (ks_sass_elf_text_section (copy, size, l->functions[f].name, &text, &len, NULL))
            CHECK (text >= copy && (gsize) (text - copy) + len <= size);
        }
      /* a note remakes the text: still consistent */
      ks_sass_cubin_set_note (l, "fuzz");
      check_listing (l);
      /* branch targets and widths from the words */
      ks_fuzz_check_loops (l);
      ks_sass_listing_free (l);
    }
  g_free (copy);
  return 0;
}
