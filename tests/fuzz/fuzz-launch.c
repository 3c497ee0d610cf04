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

#include "ks-fuzz-check.h"
#include "ks-json.h"
#include "ks-launch.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* The long arrays of values the reader takes from the text give the bytes
 * json-glib's tree gives: with a comment after each '[' the lift leaves
 * the arrays to json-glib */
static void
check_lifted (const char     *text,
              size_t          size,
              const KsLaunch *l)
{
  KsJsonLift *lift = ks_json_lift_new (text, size, KS_LAUNCH_LIFT_MIN_ELEMENTS);
  const KsJsonLifted *arrays;
  GString *plain;
  GError *error = NULL;
  KsLaunch *p;
  size_t from = 0;
  guint n;

  if (lift == NULL)
    return;
  arrays = ks_json_lift_arrays (lift, &n);
  plain = g_string_sized_new (size + 4 * n);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_len (plain, text + from, (gssize) (arrays[i].open + 1 - from));
      g_string_append (plain, "/**/");
      from = arrays[i].open + 1;
    }
  g_string_append_len (plain, text + from, (gssize) (size - from));
  ks_json_lift_free (lift);

  p = ks_launch_parse (plain->str, (gssize) plain->len, "fuzz.json", &error);
  if (p == NULL)
    fprintf (stderr, "fuzz-launch: read as a tree: %s\n", error->message);
  CHECK (p != NULL);
  CHECK (p->n_buffers == l->n_buffers);
  for (uint32_t i = 0; i < l->n_buffers; i++)
    {
      CHECK (p->buffers[i].size == l->buffers[i].size);
      CHECK ((p->buffers[i].data == NULL) == (l->buffers[i].data == NULL));
      CHECK (l->buffers[i].data == NULL
             || memcmp (p->buffers[i].data, l->buffers[i].data, l->buffers[i].size) == 0);
    }
  ks_launch_free (p);
  g_string_free (plain, TRUE);
}

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
      /* bytes, or the recipe the simulator makes them by */
      CHECK (b->fill.kind <= KS_LAUNCH_FILL_RANDOM);
      CHECK ((b->fill.kind == KS_LAUNCH_FILL_BYTES) == (b->data != NULL) || b->size == 0);
      CHECK (ks_launch_find_buffer (l, b->name) == (int) i);
      /* every byte is readable */
      if (b->data != NULL)
        for (size_t k = 0; k < b->size; k += 4096)
          (void) *(volatile uint8_t *) &b->data[k];
    }
  for (uint32_t k = 0; k < 2; k++)
    for (uint32_t i = 0; i < (k ? l->n_surfaces : l->n_textures); i++)
      {
        const KsLaunchTexture *t = k ? &l->surfaces[i] : &l->textures[i];
        uint64_t texels = (uint64_t) t->width * t->height * t->depth * t->layers;

        CHECK (t->name != NULL);
        CHECK ((k ? ks_launch_find_surface (l, t->name) : ks_launch_find_texture (l, t->name)) == (int) i);
        CHECK (t->buffer < l->n_buffers);
        CHECK (t->channels == 1 || t->channels == 2 || t->channels == 4);
        CHECK (t->texel_size == t->channels * ks_ptx_type_size (t->format));
        CHECK (t->dims >= 1 && t->dims <= 3);
        CHECK (t->width >= 1 && t->height >= 1 && t->depth >= 1 && t->layers >= 1);
        CHECK (t->layered || t->layers == 1 || t->cubemap);
        CHECK (!t->cubemap || (t->width == t->height && t->layers % 6 == 0 && !k));
        /* the array fits in its buffer */
        CHECK (texels * t->texel_size <= l->buffers[t->buffer].size);
        CHECK (t->filter != KS_LAUNCH_TEX_LINEAR || t->format == KS_PTX_TYPE_F32
               || t->format == KS_PTX_TYPE_F16 || t->normalized_float);
        for (int d = 0; d < 3; d++)
          CHECK (t->normalized_coords || (t->address[d] != KS_LAUNCH_TEX_WRAP
                                          && t->address[d] != KS_LAUNCH_TEX_MIRROR));
      }
  for (uint32_t i = 0; i < l->n_bindings; i++)
    {
      CHECK (l->bindings[i].var != NULL);
      CHECK (l->bindings[i].index < (l->bindings[i].surface ? l->n_surfaces : l->n_textures));
    }
  for (uint32_t i = 0; i < l->n_params; i++)
    if (l->params[i].handle == KS_LAUNCH_HANDLE_TEXTURE)
      CHECK (l->params[i].object < l->n_textures);
    else if (l->params[i].handle == KS_LAUNCH_HANDLE_SURFACE)
      CHECK (l->params[i].object < l->n_surfaces);
    else if (l->params[i].is_buffer)
      CHECK (l->params[i].buffer < l->n_buffers);
    else
      CHECK (ks_ptx_type_size (l->params[i].type) > 0);
  for (uint32_t i = 0; i < l->n_outputs; i++)
    CHECK (l->outputs[i] < l->n_buffers);
  check_lifted ((const char *) data, size, l);
  ks_launch_free (l);
  return 0;
}
