/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-artifacts.c: a libFuzzer target for what the anatomy reads of
 * nvcc --keep (ks-artifacts.h): the steps `nvcc -v` prints, a launch stub's
 * argument offsets, and a sample's record.
 *
 * Any bytes must give offsets within the array asked for, makers only for
 * files a step names with a step that exists, and a record that loads
 * whole or not at all.  Violations abort, so the fuzzer reports them. */

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-fuzz-check.h"
#include "ks-artifacts.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check_offsets (const char *text,
               const char *kernel)
{
  uint32_t offsets[9];
  int n;

  offsets[8] = 0xdeadbeef;
  n = ks_artifacts_stub_offsets (text, kernel, offsets, 8);
  CHECK (n >= -1 && n <= 8);
  CHECK (offsets[8] == 0xdeadbeef);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char *const names[] = {
    "k.cpp1.ii", "k.cpp4.ii", "k.cudafe1.cpp", "k.cudafe1.stub.c", "k.module_id", "k.ptx",
    "k.sm_89.cubin", "k.fatbin", "k.fatbin.c", "k.o",
  };
  g_autofree char *text = NULL;
  KsArtifacts *k;
  char word[33] = "";

  if (size > (1u << 20))
    return 0;
  text = g_strndup ((const char *) data, size);

  /* a stub: the kernels of the fixtures, and the input's first word */
  check_offsets (text, "cfun");
  check_offsets (text, "_Z10vector_addPKfS0_Pfi");
  sscanf (text, "%32s", word);
  if (*word != '\0')
    check_offsets (text, word);

  /* nvcc -v's steps over the files --keep leaves */
  k = g_new0 (KsArtifacts, 1);
  k->steps = g_ptr_array_new_with_free_func (g_free);
  k->n_items = G_N_ELEMENTS (names);
  k->items = g_new0 (KsArtifact, k->n_items);
  for (uint32_t i = 0; i < k->n_items; i++)
    {
      k->items[i].name = g_strdup (names[i]);
      k->items[i].step = -1;
    }
  ks_artifacts_read_steps (k, text);
  for (uint32_t i = 0; i < k->n_items; i++)
    {
      CHECK ((k->items[i].tool != NULL) == (k->items[i].step >= 0));
      CHECK (k->items[i].step < (int) k->steps->len);
    }
  ks_artifacts_free (k);

  /* a record */
  if (size > 0 && data[0] == '{')
    {
      g_autofree char *path = NULL;
      int fd = g_file_open_tmp ("fuzz-XXXXXX.keep.json", &path, NULL);
      GError *error = NULL;

      if (fd >= 0)
        {
          close (fd);
          if (g_file_set_contents (path, text, -1, NULL))
            {
              k = ks_artifacts_load (path, "__global__ void k () {}\n", &error);
              CHECK ((k == NULL) != (error == NULL));
              CHECK (k == NULL || k->recorded);
              for (uint32_t i = 0; k != NULL && i < k->n_items; i++)
                CHECK (k->items[i].name != NULL);
              ks_artifacts_free (k);
              g_clear_error (&error);
            }
          g_unlink (path);
        }
    }
  return 0;
}
