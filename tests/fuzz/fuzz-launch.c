/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-launch.c: a libFuzzer target for the launch-spec reader.
 *
 * Any bytes must give either a launch whose every field is consistent, or
 * an error with a message; never a crash, a leak or an allocation the spec
 * did not ask for.  Violations abort, so the fuzzer reports them. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-launch.h"

#define CHECK(cond) \
  do { if (!(cond)) { fprintf (stderr, "fuzz-launch: %s:%d: %s\n", __FILE__, __LINE__, #cond); abort (); } } while (0)

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  KsLaunch *l;

  /* Big buffers are what a valid spec may ask for, not what is tested here:
   * numbers of more than five digits (counts up to 99999) are skipped. */
  if (size > 65536)
    return 0;
  for (size_t i = 0, run = 0; i < size; i++)
    {
      run = (data[i] >= '0' && data[i] <= '9') ? run + 1 : 0;
      if (run > 5)
        return 0;
    }

  l = ks_launch_parse ((const char *) data, (gssize) size, "fuzz.json", &error);
  if (l == NULL)
    {
      CHECK (error != NULL);
      CHECK (error->message != NULL && error->message[0] != '\0');
      g_error_free (error);
      return 0;
    }
  CHECK (error == NULL);
  CHECK ((l->ptx_path == NULL) != (l->source_path == NULL));
  for (int d = 0; d < 3; d++)
    CHECK (l->grid[d] >= 1 && l->block[d] >= 1);
  CHECK ((uint64_t) l->block[0] * l->block[1] * l->block[2] <= 1024);
  for (uint32_t i = 0; i < l->n_buffers; i++)
    {
      const KsLaunchBuffer *b = &l->buffers[i];

      CHECK (b->name != NULL);
      CHECK (b->size == b->count * ks_ptx_type_size (b->type));
      CHECK (b->size == 0 || b->data != NULL);
      CHECK (ks_launch_find_buffer (l, b->name) == (int) i);
      /* every byte is readable */
      for (size_t k = 0; k < b->size; k += 4096)
        (void) *(volatile uint8_t *) &b->data[k];
    }
  for (uint32_t i = 0; i < l->n_params; i++)
    if (l->params[i].is_buffer)
      CHECK (l->params[i].buffer < l->n_buffers);
    else
      CHECK (ks_ptx_type_size (l->params[i].type) > 0);
  for (uint32_t i = 0; i < l->n_outputs; i++)
    CHECK (l->outputs[i] < l->n_buffers);
  ks_launch_free (l);
  return 0;
}
