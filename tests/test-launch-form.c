/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the launch editor's model (src/app/ks-launch-form.c), without a
 * display: every sample's spec read into a form and written back parses to
 * the same KsLaunch field by field, buffer bytes included; values the user
 * types reach the launch as the C compiler rounds them (0.1 as a float,
 * 2^64 - 1, hex); mistakes are refused with the field they are in; the
 * parameters follow the kernel's .param list. */

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-launch-form.h"

static char *
data_path (const char *first,
           ...)
{
  va_list args;
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  const char *p;

  g_ptr_array_add (parts, (char *) g_test_get_dir (G_TEST_DIST));
  g_ptr_array_add (parts, (char *) "..");
  g_ptr_array_add (parts, (char *) "data");
  va_start (args, first);
  for (p = first; p != NULL; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (char *) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

static void
assert_params_equal (const KsLaunchParam *pa,
                     uint32_t             na,
                     const KsLaunchParam *pb,
                     uint32_t             nb)
{
  g_assert_cmpuint (na, ==, nb);
  for (uint32_t i = 0; i < na; i++)
    {
      g_assert_cmpint (pa[i].is_buffer, ==, pb[i].is_buffer);
      g_assert_cmpint (pa[i].handle, ==, pb[i].handle);
      if (pa[i].handle != KS_LAUNCH_HANDLE_NONE)
        g_assert_cmpuint (pa[i].object, ==, pb[i].object);
      else if (pa[i].is_buffer)
        {
          g_assert_cmpuint (pa[i].buffer, ==, pb[i].buffer);
          g_assert_cmpint (pa[i].offset, ==, pb[i].offset);
        }
      else if (pa[i].bytes != NULL)
        {
          g_assert_cmpmem (pa[i].bytes, pa[i].n_bytes, pb[i].bytes,
                           pb[i].n_bytes);
          g_assert_cmpmem (pa[i].relocs, sizeof (KsLaunchReloc) * pa[i].n_relocs,
                           pb[i].relocs, sizeof (KsLaunchReloc) * pb[i].n_relocs);
        }
      else
        {
          g_assert_cmpint (pa[i].type, ==, pb[i].type);
          g_assert_cmphex (pa[i].bits, ==, pb[i].bits);
        }
    }
}

/* Field by field: what a run would see */
static void
assert_launch_equal (const KsLaunch *a,
                     const KsLaunch *b)
{
  g_assert_cmpstr (a->ptx_path, ==, b->ptx_path);
  g_assert_cmpstr (a->source_path, ==, b->source_path);
  g_assert_cmpstr (a->kernel, ==, b->kernel);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (a->grid[i], ==, b->grid[i]);
      g_assert_cmpuint (a->block[i], ==, b->block[i]);
    }
  g_assert_cmpuint (a->dynamic_shared_bytes, ==, b->dynamic_shared_bytes);
  g_assert_cmpint (a->cooperative, ==, b->cooperative);
  g_assert_cmpuint (a->n_buffers, ==, b->n_buffers);
  for (uint32_t i = 0; i < a->n_buffers; i++)
    {
      g_assert_cmpstr (a->buffers[i].name, ==, b->buffers[i].name);
      g_assert_cmpint (a->buffers[i].type, ==, b->buffers[i].type);
      g_assert_cmpuint (a->buffers[i].count, ==, b->buffers[i].count);
      g_assert_cmpuint (a->buffers[i].size, ==, b->buffers[i].size);
      {
        g_autofree uint8_t *da = ks_launch_buffer_dup (&a->buffers[i]);
        g_autofree uint8_t *db = ks_launch_buffer_dup (&b->buffers[i]);

        g_assert_cmpmem (da, a->buffers[i].size, db, b->buffers[i].size);
      }
    }
  assert_params_equal (a->params, a->n_params, b->params, b->n_params);
  g_assert_cmpuint (a->n_outputs, ==, b->n_outputs);
  for (uint32_t i = 0; i < a->n_outputs; i++)
    g_assert_cmpuint (a->outputs[i], ==, b->outputs[i]);
  /* textures and surfaces, kept as the spec has them */
  g_assert_cmpuint (a->n_textures, ==, b->n_textures);
  g_assert_cmpuint (a->n_surfaces, ==, b->n_surfaces);
  for (uint32_t k = 0; k < a->n_textures + a->n_surfaces; k++)
    {
      const KsLaunchTexture *ta = k < a->n_textures ? &a->textures[k]
                                                     : &a->surfaces[k - a->n_textures];
      const KsLaunchTexture *tb = k < a->n_textures ? &b->textures[k]
                                                     : &b->surfaces[k - a->n_textures];

      g_assert_cmpstr (ta->name, ==, tb->name);
      g_assert_cmpuint (ta->buffer, ==, tb->buffer);
      g_assert_cmpint (ta->format, ==, tb->format);
      g_assert_cmpuint (ta->channels, ==, tb->channels);
      g_assert_cmpuint (ta->dims, ==, tb->dims);
      g_assert_cmpuint (ta->width, ==, tb->width);
      g_assert_cmpuint (ta->height, ==, tb->height);
      g_assert_cmpuint (ta->depth, ==, tb->depth);
      g_assert_cmpuint (ta->layers, ==, tb->layers);
      g_assert_cmpint (ta->filter, ==, tb->filter);
      for (guint d = 0; d < 3; d++)
        g_assert_cmpint (ta->address[d], ==, tb->address[d]);
      g_assert_cmpint (ta->normalized_coords, ==, tb->normalized_coords);
      g_assert_cmpint (ta->normalized_float, ==, tb->normalized_float);
      g_assert_cmpmem (ta->border, sizeof ta->border, tb->border, sizeof tb->border);
    }
  /* symbols, kept as the spec has them */
  g_assert_cmpuint (a->n_symbols, ==, b->n_symbols);
  for (uint32_t i = 0; i < a->n_symbols; i++)
    {
      g_assert_cmpstr (a->symbols[i].name, ==, b->symbols[i].name);
      g_assert_cmpint (a->symbols[i].type, ==, b->symbols[i].type);
      g_assert_cmpmem (a->symbols[i].data, a->symbols[i].size, b->symbols[i].data,
                       b->symbols[i].size);
    }
  g_assert_cmpuint (a->n_output_symbols, ==, b->n_output_symbols);
  for (uint32_t i = 0; i < a->n_output_symbols; i++)
    g_assert_cmpstr (a->output_symbols[i], ==, b->output_symbols[i]);
  g_assert_cmpuint (a->n_steps, ==, b->n_steps);
  g_assert_cmpuint (a->step, ==, b->step);
  for (uint32_t k = 0; k < a->n_steps; k++)
    {
      const KsLaunchStep *sa = &a->steps[k], *sb = &b->steps[k];

      g_assert_cmpstr (sa->kernel, ==, sb->kernel);
      g_assert_cmpmem (sa->grid, sizeof sa->grid, sb->grid, sizeof sb->grid);
      g_assert_cmpmem (sa->block, sizeof sa->block, sb->block, sizeof sb->block);
      g_assert_cmpuint (sa->dynamic_shared_bytes, ==, sb->dynamic_shared_bytes);
      g_assert_cmpint (sa->cooperative, ==, sb->cooperative);
      assert_params_equal (sa->params, sa->n_params, sb->params, sb->n_params);
    }
  g_assert_cmpuint (a->n_bindings, ==, b->n_bindings);
  for (uint32_t i = 0; i < a->n_bindings; i++)
    {
      g_assert_cmpstr (a->bindings[i].var, ==, b->bindings[i].var);
      g_assert_cmpint (a->bindings[i].surface, ==, b->bindings[i].surface);
      g_assert_cmpuint (a->bindings[i].index, ==, b->bindings[i].index);
    }
}

/* Every sample's spec: file -> form -> JSON -> launch is the file's launch,
 * and writing the form read back from that JSON gives the same text */
static void
test_round_trip_samples (void)
{
  g_autofree char *dir = data_path ("samples", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      g_autoptr(GDir) sd = g_dir_open (sub, 0, NULL);
      const char *file;

      while (sd != NULL && (file = g_dir_read_name (sd)) != NULL)
        {
          g_autofree char *path = g_build_filename (sub, file, NULL);
          g_autofree char *text = NULL, *json = NULL, *json2 = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(KsLaunch) want = NULL, got = NULL;
          g_autoptr(KsLaunchForm) form = NULL, form2 = NULL;

          if (!g_str_has_suffix (file, ".json") || strcmp (file, "sample.json") == 0)
            continue;
          want = ks_launch_load (path, &error);
          g_assert_no_error (error);
          g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
          form = ks_launch_form_from_json (text, -1, &error);
          g_assert_no_error (error);
          got = ks_launch_form_parse (form, path, &error);
          g_assert_no_error (error);
          assert_launch_equal (want, got);
          json = ks_launch_form_to_json (form);
          form2 = ks_launch_form_from_json (json, -1, &error);
          g_assert_no_error (error);
          json2 = ks_launch_form_to_json (form2);
          g_assert_cmpstr (json, ==, json2);
          n++;
        }
    }
  /* the course has 25 kernels, each with a spec */
  g_test_message ("%u specs", n);
  g_assert_cmpuint (n, >=, 25);
}

static KsLaunchForm *
form_of (const char *json)
{
  g_autoptr(GError) error = NULL;
  KsLaunchForm *form = ks_launch_form_from_json (json, -1, &error);

  g_assert_no_error (error);
  return form;
}

static KsLaunchFormBuffer *
buffer_at (KsLaunchForm *form,
           guint         i)
{
  return g_ptr_array_index (form->buffers, i);
}

static KsLaunchFormParam *
param_at (KsLaunchForm *form,
          guint         i)
{
  return g_ptr_array_index (form->params, i);
}

static void
set_text (char      **field,
          const char *text)
{
  g_free (*field);
  *field = g_strdup (text);
}

/* What the user types reaches the launch as C rounds it */
static void
test_values (void)
{
  g_autoptr(KsLaunchForm) form = form_of (
    "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"x\": {\"type\": \"f32\", \"data\": [1]}},"
    " \"params\": [{\"type\": \"u64\", \"value\": 18446744073709551615},"
    " {\"type\": \"b16\", \"value\": 0}],"
    " \"outputs\": [\"x\"]}");
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  const float want[] = { 0.1f, 1e30f, -2.5f, 3.0f, 0.333333343f };
  float got[G_N_ELEMENTS (want)];
  guint16 h;

  /* the integer past int64 came through as its digits, not as -1 */
  g_assert_cmpstr (param_at (form, 0)->value, ==, "18446744073709551615");
  g_assert_cmpstr (form->grid[1], ==, "1");
  set_text (&buffer_at (form, 0)->data, "0.1, 1e30 -2.5,3.0  0.333333343");
  set_text (&param_at (form, 1)->value, "0xbeef");
  ks_launch_form_add_buffer (form, "3");
  set_text (&buffer_at (form, 1)->type, "f16");
  buffer_at (form, 1)->init = KS_LAUNCH_FORM_RANGE;
  set_text (&buffer_at (form, 1)->start, "0.1");
  set_text (&buffer_at (form, 1)->step, "0.5");

  launch = ks_launch_form_parse (form, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (launch->buffers[0].count, ==, G_N_ELEMENTS (want));
  g_assert_true (ks_launch_materialize (launch));
  memcpy (got, launch->buffers[0].data, sizeof got);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpmem (&got[i], 4, &want[i], 4);
  g_assert_cmphex (launch->params[0].bits, ==, G_MAXUINT64);
  g_assert_cmphex (launch->params[1].bits, ==, 0xbeef);
  /* f16 of 0.1 = 0x2e66 (IEEE binary16, round to nearest), of 0.6 = 0x38cd */
  memcpy (&h, launch->buffers[1].data, 2);
  g_assert_cmphex (h, ==, 0x2e66);
  memcpy (&h, launch->buffers[1].data + 2, 2);
  g_assert_cmphex (h, ==, 0x38cd);

  /* JSON numbers where they print as typed, strings where they would not */
  json = ks_launch_form_to_json (form);
  g_assert_nonnull (strstr (json, "-2.5,"));
  g_assert_nonnull (strstr (json, "\"0.1\""));
  g_assert_nonnull (strstr (json, "\"1e30\""));
  g_assert_nonnull (strstr (json, "\"0xbeef\""));
  g_assert_nonnull (strstr (json, "\"18446744073709551615\""));
  g_assert_null (strstr (json, "0.10000000000000001"));
}

static void
assert_refused (KsLaunchForm *form,
                const char   *field)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = ks_launch_form_parse (form, "/some/where/spec.json", &error);
  g_autofree char *prefix = g_strconcat (field, ": ", NULL);

  g_assert_null (launch);
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("expected a message about %s, got: %s", field, error->message);
}

static KsLaunchForm *
vector_add_form (void)
{
  g_autofree char *path = data_path ("samples", "01-vector-add", "vector_add.json", NULL);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return form_of (text);
}

/* Mistakes name their field, as a mistake in a file does */
static void
test_messages (void)
{
  g_autoptr(KsLaunchForm) form = vector_add_form ();
  g_autoptr(KsLaunchForm) good = ks_launch_form_copy (form);
  g_autoptr(KsLaunch) launch = NULL;

  /* a block of 1024 x 2 threads: over the 1024 a block may have */
  set_text (&form->block[0], "1024");
  set_text (&form->block[1], "2");
  assert_refused (form, "block");
  set_text (&form->block[1], "1");
  launch = ks_launch_form_parse (form, NULL, NULL);
  g_assert_nonnull (launch);
  g_assert_cmpuint (launch->block[0], ==, 1024);

  set_text (&form->grid[2], "0");
  assert_refused (form, "grid[2]");
  set_text (&form->grid[2], "two");
  assert_refused (form, "grid[2]");
  set_text (&form->grid[2], "1");

  set_text (&buffer_at (form, 0)->count, "-1");
  assert_refused (form, "buffers.a.count");
  set_text (&buffer_at (form, 0)->count, "1000");
  set_text (&buffer_at (form, 0)->max, "");
  assert_refused (form, "buffers.a.init.random.max");
  set_text (&buffer_at (form, 0)->max, "-5");
  assert_refused (form, "buffers.a.init.random");
  set_text (&buffer_at (form, 0)->max, "1");

  set_text (&buffer_at (form, 1)->name, "a");
  assert_refused (form, "buffers.a");
  set_text (&buffer_at (form, 1)->name, "");
  assert_refused (form, "buffers[\"\"]");

  /* A rename carries the parameter that passes the buffer along */
  set_text (&buffer_at (form, 1)->name, "my b");
  g_clear_pointer (&launch, ks_launch_free);
  launch = ks_launch_form_parse (form, NULL, NULL);
  g_assert_nonnull (launch);
  g_assert_cmpstr (launch->buffers[1].name, ==, "my b");
  g_assert_true (launch->params[1].is_buffer);
  g_assert_cmpuint (launch->params[1].buffer, ==, 1);

  /* vector_add's n is an s32: 1.5 is no s32 */
  set_text (&param_at (form, 3)->value, "1.5");
  assert_refused (form, "params[3].value");
  set_text (&param_at (form, 3)->value, "1000");

  /* Removing a buffer leaves its parameter without one, and says so;
   * the outputs lose it (c is output 0, at index 2) */
  g_assert_true (ks_launch_form_is_output (form, 2));
  ks_launch_form_remove_buffer (form, 0);
  g_assert_true (ks_launch_form_is_output (form, 1));
  g_assert_cmpint (param_at (form, 2)->buffer, ==, 1);
  assert_refused (form, "params[0].buffer");

  /* Nothing here touched the copy taken before */
  g_clear_pointer (&launch, ks_launch_free);
  launch = ks_launch_form_parse (good, NULL, NULL);
  g_assert_nonnull (launch);
  g_assert_cmpuint (launch->n_buffers, ==, 3);
  g_assert_cmpuint (launch->block[0], ==, 256);
}

static KsPtxModule *
vector_add_module (void)
{
  g_autofree char *path = data_path ("samples", "01-vector-add", "vector_add.ptx", NULL);
  g_autoptr(GError) error = NULL;
  KsPtxModule *module = ks_ptx_module_parse_file (path, &error);

  g_assert_no_error (error);
  return module;
}

static void
assert_kernel_refused (KsLaunchForm      *form,
                       const KsPtxModule *module,
                       const char        *field)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = g_strconcat (field, ": ", NULL);

  g_assert_false (ks_launch_form_check_kernel (form, module, &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("expected a message about %s, got: %s", field, error->message);
}

/* The parameters against the kernel's .param list: vector_add.ptx declares
 * .param .u64 x3 (the pointers) and .param .u32 (n) */
static void
test_kernel (void)
{
  g_autoptr(KsLaunchForm) form = vector_add_form ();
  KsPtxModule *module = vector_add_module ();
  g_autoptr(GError) error = NULL;
  g_autofree char *ptx = NULL;
  g_autofree char *path = data_path ("samples", "01-vector-add", "vector_add.ptx", NULL);

  g_assert_true (g_file_get_contents (path, &ptx, NULL, NULL));
  g_assert_nonnull (strstr (ptx, ".param .u64 _Z10vector_addPKfS0_Pfi_param_2,"));
  g_assert_nonnull (strstr (ptx, ".param .u32 _Z10vector_addPKfS0_Pfi_param_3"));

  g_assert_true (ks_launch_form_check_kernel (form, module, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ks_launch_form_find_kernel (form, module), >=, 0);

  /* a buffer for the 32-bit n */
  param_at (form, 3)->is_buffer = TRUE;
  param_at (form, 3)->buffer = 0;
  assert_kernel_refused (form, module, "params[3]");
  /* a 64-bit value for it */
  param_at (form, 3)->is_buffer = FALSE;
  set_text (&param_at (form, 3)->type, "u64");
  assert_kernel_refused (form, module, "params[3].type");
  set_text (&param_at (form, 3)->type, "f32");
  g_assert_true (ks_launch_form_check_kernel (form, module, NULL));
  /* a texture's 64-bit handle for it */
  param_at (form, 3)->handle = KS_LAUNCH_FORM_TEXTURE;
  assert_kernel_refused (form, module, "params[3]");
  param_at (form, 3)->handle = KS_LAUNCH_FORM_NO_HANDLE;

  /* one parameter short */
  g_ptr_array_set_size (form->params, 3);
  assert_kernel_refused (form, module, "params");
  /* fitted to the .param list: the fourth is a value of its type */
  ks_launch_form_fit_params (form, module, (uint32_t) ks_launch_form_find_kernel (form, module));
  g_assert_cmpuint (form->params->len, ==, 4);
  g_assert_false (param_at (form, 3)->is_buffer);
  g_assert_cmpstr (param_at (form, 3)->type, ==, "u32");
  g_assert_true (ks_launch_form_check_kernel (form, module, NULL));

  /* from nothing: three pointers get the three buffers in turn */
  g_ptr_array_set_size (form->params, 0);
  ks_launch_form_fit_params (form, module, (uint32_t) ks_launch_form_find_kernel (form, module));
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (param_at (form, i)->is_buffer);
      g_assert_cmpint (param_at (form, i)->buffer, ==, (int) i);
    }

  /* a kernel the PTX does not have */
  set_text (&form->kernel, "no_such_kernel");
  assert_kernel_refused (form, module, "kernel");
  g_clear_pointer (&form->kernel, g_free);
  /* left out: the module's only kernel */
  g_assert_true (ks_launch_form_check_kernel (form, module, NULL));
  ks_ptx_module_free (module);
}

/* The default launch (a kernel without a spec) reads into a form that
 * gives the same launch */
static void
test_default (void)
{
  KsPtxModule *module = vector_add_module ();
  g_autofree char *json = ks_launch_default_json (module, 0, "vector_add.ptx");
  g_autoptr(KsLaunch) want = ks_launch_parse (json, -1, NULL, NULL);
  g_autoptr(KsLaunchForm) form = form_of (json);
  g_autoptr(KsLaunch) got = ks_launch_form_parse (form, NULL, NULL);

  g_assert_nonnull (want);
  g_assert_nonnull (got);
  assert_launch_equal (want, got);
  g_assert_cmpuint (ks_launch_form_block_threads (form), ==, 256);
  g_assert_cmpuint (ks_launch_form_grid_blocks (form), ==, 4);
  g_assert_true (ks_launch_form_check_kernel (form, module, NULL));
  ks_ptx_module_free (module);
}

/* A buffer added in the editor, then written to a file and read back with
 * ks_launch_load(), the way a saved spec is read */
static void
test_saved_file (void)
{
  g_autoptr(KsLaunchForm) form = vector_add_form ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("ks-launch-form-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "vector_add.json", NULL);
  g_autofree char *json = NULL;
  g_autofree char *ptx = g_build_filename (tmp, "vector_add.ptx", NULL);
  guint i = ks_launch_form_add_buffer (form, "4");
  const uint8_t hex[] = { 0x01, 0x00, 0xff, 0x7f };
  KsLaunchFormBuffer *b = buffer_at (form, i);

  b->init = KS_LAUNCH_FORM_HEX;
  set_text (&b->type, "");
  set_text (&b->hex, "01 00 ff 7f");
  ks_launch_form_set_output (form, i, TRUE);
  set_text (&form->block[0], "512");
  set_text (&form->dynamic_shared, "1024");
  json = ks_launch_form_to_json (form);
  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  launch = ks_launch_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (launch->ptx_path, ==, ptx);
  g_assert_cmpuint (launch->block[0], ==, 512);
  g_assert_cmpuint (launch->dynamic_shared_bytes, ==, 1024);
  g_assert_cmpuint (launch->n_buffers, ==, 4);
  g_assert_cmpstr (launch->buffers[3].name, ==, "buf0");
  g_assert_cmpint (launch->buffers[3].type, ==, KS_PTX_TYPE_B8);
  g_assert_cmpmem (launch->buffers[3].data, launch->buffers[3].size, hex, sizeof hex);
  g_assert_cmpuint (launch->n_outputs, ==, 2);
  g_assert_cmpuint (launch->outputs[1], ==, 3);
  g_unlink (path);
  g_rmdir (tmp);
}

/* Textures and surfaces are kept as written: a renamed buffer carries
 * them, a handle goes only to a 64-bit parameter, and bindings survive */
static void
test_textures (void)
{
  g_autoptr(KsLaunchForm) form = form_of (
    "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"img\": {\"type\": \"f32\", \"count\": 16}},"
    " \"textures\": {\"t\": {\"buffer\": \"img\", \"format\": {\"type\": \"f32\"},"
    "   \"width\": 4, \"height\": 4, \"filter\": \"linear\", \"border\": [0.1, 2]}},"
    " \"surfaces\": {\"s\": {\"buffer\": \"img\", \"format\": {\"type\": \"f32\"},"
    "   \"width\": 16}},"
    " \"bindings\": {\"tref\": {\"texture\": \"t\"}},"
    " \"params\": [{\"texture\": \"t\"}, {\"surface\": \"s\"}]}");
  g_autoptr(KsLaunchForm) copy = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(GPtrArray) textures = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  g_assert_cmpint (param_at (form, 0)->handle, ==, KS_LAUNCH_FORM_TEXTURE);
  g_assert_cmpstr (param_at (form, 0)->object, ==, "t");
  g_assert_cmpint (param_at (form, 1)->handle, ==, KS_LAUNCH_FORM_SURFACE);
  textures = ks_launch_form_list_objects (form, FALSE);
  g_assert_cmpuint (textures->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (textures, 0), ==, "t");

  /* a copy is a copy: renaming in one leaves the other */
  copy = ks_launch_form_copy (form);
  ks_launch_form_rename_buffer (form, 0, "pixels");
  launch = ks_launch_form_parse (form, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (launch->buffers[0].name, ==, "pixels");
  g_assert_cmpuint (launch->n_textures, ==, 1);
  g_assert_cmpuint (launch->textures[0].buffer, ==, 0);
  g_assert_cmpint (launch->textures[0].filter, ==, KS_LAUNCH_TEX_LINEAR);
  g_assert_cmpfloat (launch->textures[0].border[0], ==, 0.1);
  g_assert_cmpuint (launch->n_surfaces, ==, 1);
  g_assert_cmpuint (launch->surfaces[0].width, ==, 16);
  g_assert_cmpuint (launch->n_bindings, ==, 1);
  g_assert_cmpstr (launch->bindings[0].var, ==, "tref");
  g_assert_cmpint (launch->params[0].handle, ==, KS_LAUNCH_HANDLE_TEXTURE);
  g_assert_cmpint (launch->params[1].handle, ==, KS_LAUNCH_HANDLE_SURFACE);
  g_clear_pointer (&launch, ks_launch_free);
  json = ks_launch_form_to_json (copy);
  g_assert_nonnull (strstr (json, "\"buffer\" : \"img\""));
  g_assert_null (strstr (json, "pixels"));

  /* without the buffer it is made of, a texture is refused by name */
  ks_launch_form_remove_buffer (form, 0);
  assert_refused (form, "textures.t.buffer");
}

/* What the form does not edit (symbols, a struct by value) comes back
 * as written, a pointer's offset too */
static void
test_host_forms (void)
{
  static const char spec[] =
    "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 16}},"
    " \"symbols\": {\"c_f\": {\"type\": \"f32\", \"data\": [0.5, 2]}, \"g_n\": {\"data\": [7]}},"
    " \"params\": [{\"buffer\": \"a\", \"offset\": 8},"
    "              {\"fields\": [{\"type\": \"u8\", \"value\": 1}, {\"buffer\": \"a\", \"offset\": 4}]},"
    "              {\"bytes_hex\": \"0102\"}],"
    " \"outputs\": [\"a\"], \"output_symbols\": [\"g_n\"]}";
  g_autoptr(KsLaunchForm) form = form_of (spec);
  g_autoptr(KsLaunchForm) copy = NULL;
  g_autoptr(KsLaunch) direct = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(GError) error = NULL;

  direct = ks_launch_parse (spec, -1, "/some/where/spec.json", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (param_at (form, 0)->offset, ==, "8");
  g_assert_nonnull (param_at (form, 1)->kept);
  g_assert_nonnull (param_at (form, 2)->kept);
  copy = ks_launch_form_copy (form);
  launch = ks_launch_form_parse (copy, "/some/where/spec.json", &error);
  g_assert_no_error (error);
  assert_launch_equal (direct, launch);
  g_assert_cmpint (launch->params[0].offset, ==, 8);
  g_assert_cmpuint (launch->params[1].n_bytes, ==, 16);
  g_assert_cmpuint (launch->n_symbols, ==, 2);
  g_assert_cmpuint (launch->n_output_symbols, ==, 1);
}


/* Long arrays of values, which the reader takes from the text rather than
 * json-glib's tree (issue 16), reach the form, and from the form a launch,
 * as json-glib reads them: the launch read straight from the spec is the
 * reference, and the same spec with a comment in each array, which the
 * lift leaves to json-glib, goes the other way; a symbol's values, kept as
 * written, are kept whole.  A data field that long is written back as its
 * text, not through json-glib's builder. */
static void
test_lifted (void)
{
  char *forms[2] = { NULL, NULL }, *data[2] = { NULL, NULL };

  for (guint which = 0; which < 2; which++)
    {
      const char *open = which ? "[/**/ " : "[";
      g_autoptr(GString) s = g_string_new (NULL);
      g_autoptr(KsLaunchForm) form = NULL;
      g_autoptr(KsLaunch) direct = NULL, launch = NULL;
      g_autoptr(GError) error = NULL;

      g_string_printf (s, "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32],\n"
                       " \"buffers\": {\"a\": {\"type\": \"f32\", \"data\": %s", open);
      for (guint i = 0; i < 500; i++)
        g_string_append_printf (s, "%s%s", i ? ",\n " : "",
                                (const char *[]) { "0.1", "1e30", "-2", "\"inf\"",
                                                   "18446744073709551615" }[i % 5]);
      g_string_append_printf (s, "]}},\n \"symbols\": {\"c\": {\"type\": \"u32\", \"data\": %s", open);
      for (guint i = 0; i < 300; i++)
        g_string_append_printf (s, "%s%u", i ? ", " : "", i * 11);
      g_string_append (s, "]}},\n \"params\": [{\"buffer\": \"a\"}], \"outputs\": [\"a\"]}");

      form = form_of (s->str);
      data[which] = g_strdup (buffer_at (form, 0)->data);
      forms[which] = ks_launch_form_to_json (form);
      direct = ks_launch_parse (s->str, -1, "/some/where/spec.json", &error);
      g_assert_no_error (error);
      launch = ks_launch_form_parse (form, "/some/where/spec.json", &error);
      g_assert_no_error (error);
      assert_launch_equal (direct, launch);
    }
  /* the values as written when read from the text; each as json-glib
   * reads it, printed back, when read from its tree */
  g_assert_true (g_str_has_prefix (data[0], "0.1, 1e30, -2, inf, 18446744073709551615, 0.1"));
  g_assert_true (g_str_has_prefix (data[1], "0.1, 1e+30, -2, inf, 18446744073709551615, 0.1"));
  for (guint which = 0; which < 2; which++)
    g_assert_nonnull (strstr (forms[which], "3289"));   /* the symbol's last value, 299 * 11 */
  for (guint which = 0; which < 2; which++)
    {
      g_free (forms[which]);
      g_free (data[which]);
    }
}

/* A spec of several launches: the form edits one of them and keeps the
 * others, and writes every launch back; a buffer removed or renamed
 * follows into every launch's parameters; a mistake in one launch is
 * named by its place */
static void
test_launches (void)
{
  static const char spec[] =
    "{\"ptx\": \"k.ptx\","
    " \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": 3000},"
    "             \"partial\": {\"type\": \"f32\", \"count\": 12},"
    "             \"out\": {\"type\": \"f32\", \"count\": 1}},"
    " \"outputs\": [\"out\"],"
    " \"launches\": ["
    "  {\"kernel\": \"partial_sums\", \"grid\": [12], \"block\": [256], \"dynamic_shared_bytes\": 1024,"
    "   \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"partial\"}, {\"type\": \"u32\", \"value\": 3000}]},"
    "  {\"kernel\": \"final_sum\", \"grid\": [1], \"block\": [32], \"dynamic_shared_bytes\": 128,"
    "   \"cooperative\": true,"
    "   \"params\": [{\"fields\": [{\"type\": \"u32\", \"value\": 0}, {\"type\": \"u32\", \"value\": 12},"
    "                            {\"buffer\": \"partial\"}]}, {\"buffer\": \"out\"}]},"
    "  {\"kernel\": \"scale\", \"grid\": [1], \"block\": [1],"
    "   \"params\": [{\"buffer\": \"out\"}, {\"type\": \"f32\", \"value\": 0.5}]}]}";
  const char *where = "/some/where/spec.json";
  g_autoptr(KsLaunchForm) form = form_of (spec);
  g_autoptr(KsLaunchForm) again = NULL, copy = NULL;
  g_autoptr(KsLaunch) direct = NULL, launch = NULL, edited = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *json2 = NULL;

  direct = ks_launch_parse (spec, -1, where, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (direct->n_steps, ==, 3);

  /* read: the first launch in the form's fields, the others kept */
  g_assert_nonnull (form->launches);
  g_assert_cmpuint (form->launches->len, ==, 3);
  g_assert_cmpuint (form->step, ==, 0);
  g_assert_cmpstr (form->kernel, ==, "partial_sums");
  g_assert_cmpstr (form->grid[0], ==, "12");
  g_assert_cmpuint (form->params->len, ==, 3);
  launch = ks_launch_form_parse (form, where, &error);
  g_assert_no_error (error);
  assert_launch_equal (direct, launch);

  /* written back whole, the same text again */
  json = ks_launch_form_to_json (form);
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root;

    g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    /* each launch's fields are its own, none at the top */
    g_assert_false (json_object_has_member (root, "params"));
    g_assert_false (json_object_has_member (root, "grid"));
    g_assert_false (json_object_has_member (root, "kernel"));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "launches")), ==, 3);
  }
  again = form_of (json);
  json2 = ks_launch_form_to_json (again);
  g_assert_cmpstr (json, ==, json2);
  g_clear_pointer (&launch, ks_launch_free);
  launch = ks_launch_parse (json, -1, where, &error);
  g_assert_no_error (error);
  assert_launch_equal (direct, launch);

  /* the second launch: edited, the others untouched, and the launch
   * parsed from the form holds it at its top level */
  ks_launch_form_select_launch (form, 1);
  g_assert_cmpuint (form->step, ==, 1);
  g_assert_cmpstr (form->kernel, ==, "final_sum");
  g_assert_cmpstr (form->block[0], ==, "32");
  g_assert_cmpuint (form->params->len, ==, 2);
  set_text (&form->block[0], "64");
  set_text (&form->dynamic_shared, "256");
  copy = ks_launch_form_copy (form);
  edited = ks_launch_form_parse (copy, where, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (edited->n_steps, ==, 3);
  g_assert_cmpuint (edited->step, ==, 1);
  g_assert_cmpstr (edited->kernel, ==, "final_sum");
  g_assert_cmpuint (edited->block[0], ==, 64);
  g_assert_cmpuint (edited->steps[1].block[0], ==, 64);
  g_assert_cmpuint (edited->steps[1].dynamic_shared_bytes, ==, 256);
  /* kept through the edit, the others' too */
  g_assert_true (edited->steps[1].cooperative);
  g_assert_true (edited->cooperative);
  g_assert_false (edited->steps[0].cooperative);
  for (uint32_t k = 0; k < 3; k += 2)
    {
      g_assert_cmpstr (edited->steps[k].kernel, ==, direct->steps[k].kernel);
      g_assert_cmpmem (edited->steps[k].block, sizeof edited->steps[k].block,
                       direct->steps[k].block, sizeof direct->steps[k].block);
      assert_params_equal (edited->steps[k].params, edited->steps[k].n_params,
                           direct->steps[k].params, direct->steps[k].n_params);
    }
  /* a "cooperative" that is not true or false is not the form's to keep */
  {
    g_autoptr(GError) bad = NULL;

    g_assert_null (ks_launch_form_from_json ("{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1],"
                                             " \"cooperative\": \"yes\"}", -1, &bad));
    g_assert_error (bad, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
    g_assert_cmpstr (bad->message, ==, "cooperative: expected true or false");
  }

  /* and back to the first: the edit stays the second launch's */
  ks_launch_form_select_launch (form, 0);
  g_assert_cmpstr (form->kernel, ==, "partial_sums");
  g_assert_cmpstr (((KsLaunchFormLaunch *) g_ptr_array_index (form->launches, 1))->block[0], ==,
                   "64");

  /* a buffer renamed: every launch passes it by its new name */
  ks_launch_form_rename_buffer (form, 2, "result");
  g_clear_pointer (&json, g_free);
  json = ks_launch_form_to_json (form);
  g_assert_null (strstr (json, "\"out\""));
  g_clear_pointer (&launch, ks_launch_free);
  launch = ks_launch_form_parse (form, where, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (launch->steps[2].params[0].buffer, ==, 2);
  g_assert_cmpuint (launch->steps[1].params[1].buffer, ==, 2);

  /* removed: the launch that passed it is refused by its place */
  ks_launch_form_remove_buffer (form, 2);
  assert_refused (form, "launches[1].params[1].buffer");

  /* a mistake read is named by its launch */
  {
    g_autoptr(KsLaunchForm) bad = ks_launch_form_from_json (
      "{\"ptx\": \"k.ptx\", \"launches\": [{\"grid\": [1], \"block\": [1]}, {\"grid\": 3}]}",
      -1, &error);

    g_assert_null (bad);
    g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
    g_assert_true (g_str_has_prefix (error->message, "launches[1].grid: "));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/launch-form/round-trip/samples", test_round_trip_samples);
  g_test_add_func ("/launch-form/values", test_values);
  g_test_add_func ("/launch-form/messages", test_messages);
  g_test_add_func ("/launch-form/kernel", test_kernel);
  g_test_add_func ("/launch-form/default", test_default);
  g_test_add_func ("/launch-form/saved-file", test_saved_file);
  g_test_add_func ("/launch-form/textures", test_textures);
  g_test_add_func ("/launch-form/host-forms", test_host_forms);
  g_test_add_func ("/launch-form/launches", test_launches);
  g_test_add_func ("/launch-form/lifted", test_lifted);
  return g_test_run ();
}
