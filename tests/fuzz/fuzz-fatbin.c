/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-fatbin.c: a libFuzzer target for the fat binary reader
 * (ks-fatbin.h): any bytes give entries whose payloads lie in memory it
 * owns (a PTX entry's text ends with a NUL), or an error; never both,
 * never neither.  Violations abort, so the fuzzer reports them. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-fuzz-check.h"
#include "ks-fatbin.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  KsFatbin *fb;

  if (size > (1u << 20))
    return 0;
  fb = ks_fatbin_read (data, size, &error);
  CHECK ((fb == NULL) != (error == NULL));
  for (uint32_t i = 0; fb != NULL && i < fb->n_entries; i++)
    {
      const KsFatbinEntry *e = &fb->entries[i];
      volatile uint8_t sum = 0;

      CHECK (e->kind == KS_FATBIN_PTX || e->kind == KS_FATBIN_ELF);
      CHECK (e->data != NULL);
      CHECK (e->data[e->size] == 0 || e->kind == KS_FATBIN_ELF);
      CHECK (e->offset < size);
      for (uint64_t k = 0; k < e->size; k++)
        sum ^= e->data[k];
      (void) sum;
    }
  ks_fatbin_free (fb);
  g_clear_error (&error);
  return 0;
}
