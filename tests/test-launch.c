/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of launch specs: every field of a good one, the bytes its buffers
 * start with, and a message naming the field for each kind of bad one. */

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ks-json.h"
#include "ks-launch.h"

static KsLaunch *
parse_ok (const char *json)
{
  g_autoptr(GError) error = NULL;
  KsLaunch *launch = ks_launch_parse (json, -1, "/specs/dir/spec.json", &error);

  g_assert_no_error (error);
  g_assert_nonnull (launch);
  /* the tests read every buffer's bytes: zeros, ranges and random values
   * are made here, as the simulator makes them (test_buffer_recipes) */
  g_assert_true (ks_launch_materialize (launch));
  return launch;
}

static const KsLaunchBuffer *
buffer (const KsLaunch *launch,
        const char     *name)
{
  int i = ks_launch_find_buffer (launch, name);

  g_assert_cmpint (i, >=, 0);
  return &launch->buffers[i];
}

static uint64_t
element (const KsLaunchBuffer *b,
         uint64_t              i)
{
  uint32_t size = ks_ptx_type_size (b->type);
  uint64_t v = 0;

  g_assert_cmpuint (i, <, b->count);
  for (uint32_t k = 0; k < size; k++)
    v |= (uint64_t) b->data[i * size + k] << (8 * k);
  return v;
}

static uint32_t
f32_bits (float f)
{
  uint32_t u;

  memcpy (&u, &f, sizeof u);
  return u;
}

static float
f32_value (uint32_t u)
{
  float f;

  memcpy (&f, &u, sizeof f);
  return f;
}

static uint64_t
f64_bits (double d)
{
  uint64_t u;

  memcpy (&u, &d, sizeof u);
  return u;
}

static void
test_full (void)
{
  static const char json[] =
    "{\n"
    "  \"ptx\": \"kernels/kernel.ptx\",\n"
    "  \"kernel\": \"vadd\",\n"
    "  \"grid\": [4096, 2], \"block\": [256], \"dynamic_shared_bytes\": 1024,\n"
    "  \"buffers\": {\n"
    "    \"a\":   {\"type\": \"f32\", \"count\": 1000, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},\n"
    "    \"idx\": {\"type\": \"s32\", \"count\": 4, \"init\": {\"range\": {\"start\": -2, \"step\": 3}}},\n"
    "    \"raw\": {\"bytes_hex\": \"0100000000000000ABcd\"},\n"
    "    \"lit\": {\"type\": \".u32\", \"data\": [1, 2, 4294967295]},\n"
    "    \"pad\": {\"type\": \"s8\", \"count\": 5, \"data\": [-1, -128, 127]},\n"
    "    \"fr\":  {\"type\": \"f32\", \"count\": 3, \"init\": {\"range\": {\"start\": 0.5, \"step\": -0.25}}},\n"
    "    \"dr\":  {\"type\": \"f64\", \"count\": 2, \"init\": {\"range\": {\"start\": 0.1, \"step\": 0.2}}},\n"
    "    \"down\": {\"type\": \"u8\", \"count\": 3, \"init\": {\"range\": {\"start\": 255, \"step\": -100}}},\n"
    "    \"h\":   {\"type\": \"f16\", \"data\": [1.0, 0.1, 65504, 65520, 5.96e-8, -2, \"inf\", \"-inf\"]},\n"
    "    \"bf\":  {\"type\": \"bf16\", \"data\": [1.0, 3.14159, -0.0]},\n"
    "    \"big\": {\"type\": \"u64\", \"data\": [\"0xffffffffffffffff\", 18446744073709551615, \"42\", 9223372036854775808]},\n"
    "    \"sb\":  {\"type\": \"s64\", \"data\": [-9223372036854775808, \"-0x10\", 9223372036854775807]},\n"
    "    \"bits\": {\"type\": \"b16\", \"data\": [-1, 65535, \"0x1234\"]},\n"
    "    \"hx32\": {\"type\": \"u32\", \"bytes_hex\": \"7856341200000080\", \"count\": 3},\n"
    "    \"c\":   {\"type\": \"f32\", \"count\": 1048576}\n"
    "  },\n"
    "  \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"c\"}, {\"buffer\": \"a\"},\n"
    "             {\"type\": \"u32\", \"value\": 1048576}, {\"type\": \"f32\", \"value\": 1.5},\n"
    "             {\"type\": \"s8\", \"value\": -2}, {\"type\": \"f16\", \"value\": 0.1},\n"
    "             {\"type\": \"u64\", \"value\": \"0xfedcba9876543210\"}, {\"type\": \"f64\", \"value\": -0.5}],\n"
    "  \"outputs\": [\"c\", \"lit\"]\n"
    "}\n";
  static const char *const order[] = {
    "a", "idx", "raw", "lit", "pad", "fr", "dr", "down", "h", "bf", "big", "sb", "bits", "hx32", "c",
  };
  g_autoptr(KsLaunch) launch = parse_ok (json);
  const KsLaunchBuffer *b;

  g_assert_cmpstr (launch->spec_path, ==, "/specs/dir/spec.json");
  g_assert_cmpstr (launch->ptx_path, ==, "/specs/dir/kernels/kernel.ptx");
  g_assert_null (launch->source_path);
  g_assert_cmpstr (launch->kernel, ==, "vadd");
  g_assert_cmpuint (launch->grid[0], ==, 4096);
  g_assert_cmpuint (launch->grid[1], ==, 2);
  g_assert_cmpuint (launch->grid[2], ==, 1);
  g_assert_cmpuint (launch->block[0], ==, 256);
  g_assert_cmpuint (launch->block[1], ==, 1);
  g_assert_cmpuint (launch->block[2], ==, 1);
  g_assert_cmpuint (launch->dynamic_shared_bytes, ==, 1024);

  g_assert_cmpuint (launch->n_buffers, ==, G_N_ELEMENTS (order));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_assert_cmpstr (launch->buffers[i].name, ==, order[i]);
      g_assert_cmpuint (launch->buffers[i].size, ==,
                        launch->buffers[i].count * ks_ptx_type_size (launch->buffers[i].type));
    }
  g_assert_cmpint (ks_launch_find_buffer (launch, "nope"), ==, -1);

  b = buffer (launch, "a");
  g_assert_cmpint (b->type, ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (b->count, ==, 1000);
  g_assert_cmpuint (b->size, ==, 4000);

  b = buffer (launch, "idx");
  g_assert_cmpint (b->type, ==, KS_PTX_TYPE_S32);
  {
    static const uint8_t want[] = {
      0xfe, 0xff, 0xff, 0xff, 0x01, 0, 0, 0, 0x04, 0, 0, 0, 0x07, 0, 0, 0,
    };
    g_assert_cmpmem (b->data, b->size, want, sizeof want);
  }

  b = buffer (launch, "raw");
  g_assert_cmpint (b->type, ==, KS_PTX_TYPE_B8);
  g_assert_cmpuint (b->count, ==, 10);
  {
    static const uint8_t want[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0xab, 0xcd };
    g_assert_cmpmem (b->data, b->size, want, sizeof want);
  }

  b = buffer (launch, "lit");
  g_assert_cmpint (b->type, ==, KS_PTX_TYPE_U32);
  {
    static const uint8_t want[] = { 1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
    g_assert_cmpmem (b->data, b->size, want, sizeof want);
  }

  b = buffer (launch, "pad");
  {
    static const uint8_t want[] = { 0xff, 0x80, 0x7f, 0, 0 };
    g_assert_cmpmem (b->data, b->size, want, sizeof want);
  }

  b = buffer (launch, "fr");
  g_assert_cmpuint (element (b, 0), ==, f32_bits (0.5f));
  g_assert_cmpuint (element (b, 1), ==, f32_bits (0.25f));
  g_assert_cmpuint (element (b, 2), ==, f32_bits (0.0f));

  b = buffer (launch, "dr");
  g_assert_cmpuint (element (b, 0), ==, f64_bits (0.1));
  g_assert_cmpuint (element (b, 1), ==, f64_bits (0.1 + 1.0 * 0.2));

  b = buffer (launch, "down");
  {
    static const uint8_t want[] = { 255, 155, 55 };
    g_assert_cmpmem (b->data, b->size, want, sizeof want);
  }

  b = buffer (launch, "h");
  g_assert_cmpint (b->type, ==, KS_PTX_TYPE_F16);
  g_assert_cmpuint (element (b, 0), ==, 0x3c00);
  g_assert_cmpuint (element (b, 1), ==, 0x2e66);
  g_assert_cmpuint (element (b, 2), ==, 0x7bff);
  g_assert_cmpuint (element (b, 3), ==, 0x7c00);
  g_assert_cmpuint (element (b, 4), ==, 0x0001);
  g_assert_cmpuint (element (b, 5), ==, 0xc000);
  g_assert_cmpuint (element (b, 6), ==, 0x7c00);
  g_assert_cmpuint (element (b, 7), ==, 0xfc00);

  b = buffer (launch, "bf");
  g_assert_cmpuint (element (b, 0), ==, 0x3f80);
  g_assert_cmpuint (element (b, 1), ==, 0x4049);
  g_assert_cmpuint (element (b, 2), ==, 0x8000);

  b = buffer (launch, "big");
  g_assert_cmpuint (element (b, 0), ==, G_MAXUINT64);
  g_assert_cmpuint (element (b, 1), ==, G_MAXUINT64);
  g_assert_cmpuint (element (b, 2), ==, 42);
  g_assert_cmpuint (element (b, 3), ==, G_GUINT64_CONSTANT (1) << 63);

  b = buffer (launch, "sb");
  g_assert_cmpuint (element (b, 0), ==, G_GUINT64_CONSTANT (1) << 63);
  g_assert_cmpuint (element (b, 1), ==, (uint64_t) -16);
  g_assert_cmpuint (element (b, 2), ==, (uint64_t) G_MAXINT64);

  b = buffer (launch, "bits");
  g_assert_cmpuint (element (b, 0), ==, 0xffff);
  g_assert_cmpuint (element (b, 1), ==, 0xffff);
  g_assert_cmpuint (element (b, 2), ==, 0x1234);

  b = buffer (launch, "hx32");
  g_assert_cmpint (b->type, ==, KS_PTX_TYPE_U32);
  g_assert_cmpuint (b->count, ==, 3);
  g_assert_cmpuint (element (b, 0), ==, 0x12345678);
  g_assert_cmpuint (element (b, 1), ==, 0x80000000);
  g_assert_cmpuint (element (b, 2), ==, 0);

  b = buffer (launch, "c");
  g_assert_cmpuint (b->size, ==, 4 * 1048576);
  for (size_t i = 0; i < b->size; i++)
    if (b->data[i] != 0)
      g_assert_not_reached ();

  g_assert_cmpuint (launch->n_params, ==, 9);
  g_assert_true (launch->params[0].is_buffer);
  g_assert_cmpuint (launch->params[0].buffer, ==, 0);
  g_assert_true (launch->params[1].is_buffer);
  g_assert_cmpuint (launch->params[1].buffer, ==, ks_launch_find_buffer (launch, "c"));
  g_assert_true (launch->params[2].is_buffer);
  g_assert_cmpuint (launch->params[2].buffer, ==, 0);
  g_assert_false (launch->params[3].is_buffer);
  g_assert_cmpint (launch->params[3].type, ==, KS_PTX_TYPE_U32);
  g_assert_cmpuint (launch->params[3].bits, ==, 1048576);
  g_assert_cmpint (launch->params[4].type, ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (launch->params[4].bits, ==, 0x3fc00000);
  g_assert_cmpint (launch->params[5].type, ==, KS_PTX_TYPE_S8);
  g_assert_cmpuint (launch->params[5].bits & 0xff, ==, 0xfe);
  g_assert_cmpint (launch->params[6].type, ==, KS_PTX_TYPE_F16);
  g_assert_cmpuint (launch->params[6].bits, ==, 0x2e66);
  g_assert_cmpuint (launch->params[7].bits, ==, G_GUINT64_CONSTANT (0xfedcba9876543210));
  g_assert_cmpuint (launch->params[8].bits, ==, f64_bits (-0.5));

  g_assert_cmpuint (launch->n_outputs, ==, 2);
  g_assert_cmpuint (launch->outputs[0], ==, ks_launch_find_buffer (launch, "c"));
  g_assert_cmpuint (launch->outputs[1], ==, ks_launch_find_buffer (launch, "lit"));
}

static void
test_minimal (void)
{
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *want = g_build_filename (cwd, "k.cu", NULL);

  launch = ks_launch_parse ("{\"source\": \"k.cu\", \"grid\": [1], \"block\": [32, 2, 2]}", -1,
                            NULL, &error);
  g_assert_no_error (error);
  g_assert_null (launch->spec_path);
  g_assert_null (launch->ptx_path);
  g_assert_cmpstr (launch->source_path, ==, want);
  g_assert_null (launch->kernel);
  g_assert_cmpuint (launch->block[2], ==, 2);
  g_assert_cmpuint (launch->dynamic_shared_bytes, ==, 0);
  g_assert_cmpuint (launch->n_buffers, ==, 0);
  g_assert_cmpuint (launch->n_params, ==, 0);
  g_assert_cmpuint (launch->n_outputs, ==, 0);
}

static void
test_f16_conversion (void)
{
  static const struct { double value; uint16_t f16, bf16; } cases[] = {
    { 1.0, 0x3c00, 0x3f80 },
    { 0.1, 0x2e66, 0x3dcd },
    { 65504, 0x7bff, 0x4780 },
    { 65519.99, 0x7bff, 0x4780 },
    { 65520, 0x7c00, 0x4780 },
    { 5.96e-8, 0x0001, 0x3380 },
    { 2.98e-8, 0x0000, 0x3300 },       /* under half the least subnormal */
    { 2.99e-8, 0x0001, 0x3300 },       /* over it */
    { 6.097555160522461e-05, 0x03ff, 0x3880 },  /* the greatest subnormal */
    { 6.103515625e-05, 0x0400, 0x3880 },        /* the least normal */
    { 2049, 0x6800, 0x4500 },          /* ties go to even */
    { 2051, 0x6802, 0x4500 },
    { -3.14159, 0xc248, 0xc049 },
    { 1e300, 0x7c00, 0x7f80 },
    { -1e-300, 0x8000, 0x8000 },
    { 3.3895313892515355e38, 0x7c00, 0x7f7f },  /* bf16's greatest finite */
    { 3.40e38, 0x7c00, 0x7f80 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%g", cases[i].value);
      g_assert_cmphex (ks_launch_f16_from_double (cases[i].value), ==, cases[i].f16);
      g_assert_cmphex (ks_launch_bf16_from_double (cases[i].value), ==, cases[i].bf16);
    }
  /* NaN becomes the canonical NaN, as cvt.rn.f16.f64 makes it on the GPU */
  g_assert_cmphex (ks_launch_f16_from_double (NAN), ==, 0x7fff);
  g_assert_cmphex (ks_launch_bf16_from_double (-NAN), ==, 0x7fff);
  g_assert_cmpfloat (ks_launch_f16_to_double (0x0001), ==, ldexp (1, -24));
  g_assert_cmpfloat (ks_launch_f16_to_double (0xc000), ==, -2.0);
  g_assert_cmpfloat (ks_launch_bf16_to_double (0x4049), ==, 3.140625);
  g_assert_true (isnan (ks_launch_f16_to_double (0x7e00)));
}

/* The generator as ks-launch.h documents it, written again here */
static uint64_t
reference_random (uint64_t seed,
                  uint64_t i)
{
  uint64_t z = seed + (i + 1) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static KsLaunch *
random_spec (const char *type,
             const char *seed,
             const char *min,
             const char *max,
             guint       count)
{
  g_autofree char *json = g_strdup_printf (
    "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1], \"buffers\": {\"r\": "
    "{\"type\": \"%s\", \"count\": %u, \"init\": {\"random\": {%s%s%s\"min\": %s, \"max\": %s}}}}}",
    type, count, seed ? "\"seed\": " : "", seed ? seed : "", seed ? ", " : "", min, max);

  return parse_ok (json);
}

/* Zeros, ranges and random values stay recipes until the simulator
 * allocates the buffer: a launch of gigabytes is not filled twice (once
 * here, once in the simulator's memory), nor copied when the window hands
 * a copy to its run.  The bytes they make are the spec's (a range by its
 * formula; zeros). */
static void
test_buffer_recipes (void)
{
  static const char json[] =
    "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1], \"buffers\": {"
    " \"zeros\": {\"type\": \"u32\", \"count\": 805306368},"
    " \"r\": {\"type\": \"f32\", \"count\": 1000, \"init\": {\"range\": {\"start\": 2, \"step\": 0.25}}},"
    " \"ri\": {\"type\": \"s16\", \"count\": 5, \"init\": {\"range\": {\"start\": 7, \"step\": -3}}},"
    " \"noise\": {\"type\": \"u8\", \"count\": 64, \"init\": {\"random\": {\"seed\": 1, \"min\": 0, \"max\": 255}}},"
    " \"d\": {\"type\": \"u32\", \"data\": [5, 6]}}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(KsLaunch) copy = NULL;
  const KsLaunchBuffer *zeros, *r, *ri, *noise, *d;
  g_autofree uint8_t *rb = NULL, *rib = NULL, *nb = NULL, *db = NULL;
  static const int16_t want_ri[] = { 7, 4, 1, -2, -5 };

  /* (buffers may take half the machine's memory together) */
  if ((uint64_t) sysconf (_SC_PHYS_PAGES) * (uint64_t) sysconf (_SC_PAGE_SIZE) / 2
      < (G_GUINT64_CONSTANT (3) << 30) + 4096)
    {
      g_test_skip ("less than 6 GiB of memory: a 3 GiB buffer is refused here");
      return;
    }
  launch = ks_launch_parse (json, -1, "/specs/spec.json", &error);
  g_assert_no_error (error);
  zeros = buffer (launch, "zeros");
  r = buffer (launch, "r");
  ri = buffer (launch, "ri");
  noise = buffer (launch, "noise");
  d = buffer (launch, "d");
  /* 3 GiB of zeros: a size, no memory (test-launch-recipes-4gib runs this
   * in 4 GiB of address space, where the bytes and their copy would not
   * fit) */
  g_assert_cmpuint (zeros->size, ==, G_GUINT64_CONSTANT (3) << 30);
  g_assert_null (zeros->data);
  g_assert_cmpint (zeros->fill.kind, ==, KS_LAUNCH_FILL_ZERO);
  g_assert_null (r->data);
  g_assert_cmpint (r->fill.kind, ==, KS_LAUNCH_FILL_RANGE);
  g_assert_cmpint (noise->fill.kind, ==, KS_LAUNCH_FILL_RANDOM);
  g_assert_nonnull (d->data);
  g_assert_cmpint (d->fill.kind, ==, KS_LAUNCH_FILL_BYTES);
  copy = ks_launch_copy (launch);
  g_assert_null (copy->buffers[0].data);
  g_assert_cmpint (copy->buffers[0].fill.kind, ==, KS_LAUNCH_FILL_ZERO);

  rb = ks_launch_buffer_dup (r);
  for (uint32_t i = 0; i < 1000; i++)
    {
      float v;

      memcpy (&v, rb + 4 * i, 4);
      g_assert_cmpfloat (v, ==, 2.0f + 0.25f * (float) i);
    }
  rib = ks_launch_buffer_dup (ri);
  g_assert_cmpmem (rib, ri->size, want_ri, sizeof want_ri);
  /* the copy's recipe makes the same bytes */
  nb = ks_launch_buffer_dup (noise);
  {
    g_autofree uint8_t *nc = ks_launch_buffer_dup (&copy->buffers[3]);

    g_assert_cmpmem (nb, 64, nc, 64);
  }
  db = ks_launch_buffer_dup (d);
  g_assert_cmpuint (db[0], ==, 5);
  g_assert_cmpuint (db[4], ==, 6);
}

static void
test_random (void)
{
  g_autoptr(KsLaunch) a = random_spec ("f32", "7", "-1", "1", 10000);
  g_autoptr(KsLaunch) b = random_spec ("f32", "7", "-1", "1", 10000);
  g_autoptr(KsLaunch) c = random_spec ("f32", "8", "-1", "1", 10000);
  g_autoptr(KsLaunch) ints = random_spec ("s16", "\"0xffffffffffffffff\"", "-3", "5", 10000);
  g_autoptr(KsLaunch) full = random_spec ("u64", NULL, "0", "\"0xffffffffffffffff\"", 100);
  g_autoptr(KsLaunch) half = random_spec ("f16", "3", "0.1", "0.2", 10000);
  g_autoptr(KsLaunch) narrow = random_spec ("f32", "3", "1", "1.0000001", 1000);
  const KsLaunchBuffer *r;
  gboolean seen[9] = { FALSE, };
  double lo = 1, hi = -1;

  g_assert_cmpmem (a->buffers[0].data, a->buffers[0].size, b->buffers[0].data, b->buffers[0].size);
  g_assert_true (memcmp (a->buffers[0].data, c->buffers[0].data, a->buffers[0].size) != 0);

  r = &a->buffers[0];
  for (uint64_t i = 0; i < r->count; i++)
    {
      float v = f32_value ((uint32_t) element (r, i));
      double u = (double) (reference_random (7, i) >> 11) * 0x1.0p-53;

      g_assert_cmpfloat (v, >=, -1.0f);
      g_assert_cmpfloat (v, <, 1.0f);
      g_assert_cmpuint (element (r, i), ==, f32_bits ((float) (-1.0 + 2.0 * u)));
      lo = MIN (lo, v);
      hi = MAX (hi, v);
    }
  /* Spread over the whole range */
  g_assert_cmpfloat (lo, <, -0.99);
  g_assert_cmpfloat (hi, >, 0.99);

  r = &ints->buffers[0];
  for (uint64_t i = 0; i < r->count; i++)
    {
      int16_t v = (int16_t) element (r, i);

      g_assert_cmpint (v, >=, -3);
      g_assert_cmpint (v, <=, 5);
      g_assert_cmpint (v, ==, -3 + (int) (reference_random (G_MAXUINT64, i) % 9));
      seen[v + 3] = TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (seen); i++)
    g_assert_true (seen[i]);

  r = &full->buffers[0];
  for (uint64_t i = 0; i < r->count; i++)
    g_assert_cmpuint (element (r, i), ==, reference_random (0, i));

  /* f16 cannot hold 0.1 or 0.2: the rounded ends are pulled inside */
  r = &half->buffers[0];
  for (uint64_t i = 0; i < r->count; i++)
    {
      double v = ks_launch_f16_to_double ((uint16_t) element (r, i));

      g_assert_cmpfloat (v, >=, 0.1);
      g_assert_cmpfloat (v, <, 0.2);
    }

  /* Only 1.0f lies in [1, 1.0000001) */
  r = &narrow->buffers[0];
  for (uint64_t i = 0; i < r->count; i++)
    g_assert_cmpuint (element (r, i), ==, f32_bits (1.0f));
}

static void
test_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-launch-XXXXXX", &error);
  g_autofree char *path = NULL, *bad = NULL, *want = NULL;

  g_assert_no_error (error);
  path = g_build_filename (dir, "spec.json", NULL);
  bad = g_build_filename (dir, "bad.json", NULL);
  want = g_build_filename (dir, "k.ptx", NULL);
  g_assert_true (g_file_set_contents (path, "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1]}",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{\"ptx\": \"k.ptx\", \"grid\": [0], \"block\": [1]}",
                                      -1, NULL));

  launch = ks_launch_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (launch->spec_path, ==, path);
  g_assert_cmpstr (launch->ptx_path, ==, want);

  g_assert_null (ks_launch_load (bad, &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, bad));
  g_assert_nonnull (strstr (error->message, ": grid[0]: must be positive"));
  g_clear_error (&error);

  g_assert_null (ks_launch_load ("/nonexistent/spec.json", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);

  g_unlink (path);
  g_unlink (bad);
  g_rmdir (dir);
}

#define HEAD "\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32]"

typedef struct
{
  const char *json;
  const char *message;          /* what the error must contain, after "spec.json: " */
} BadSpec;

static const BadSpec bad_specs[] = {
  /* the document */
  { "{" HEAD ", 18446744073709551615: 1}", "spec.json:1:" },
  { "{\"ptx\": \"k.ptx\",\n  \"grid\": [1],\n  \"block\": ]}", "spec.json:3:12: " },
  { "[1, 2]", "expected a JSON object at the top level, got an array" },
  { "", "expected a JSON object at the top level, got nothing" },
  { "{" HEAD ", \"bufers\": {}}", "bufers: unknown key" },
  { "{" HEAD ", \"cooperative\": 1}", "cooperative: expected true or false, got" },
  { "{\"ptx\": \"k.ptx\", \"launches\": [{\"grid\": [1], \"block\": [1], \"cooperative\": \"yes\"}]}",
    "launches[0].cooperative: expected true or false" },
  { "{\"ptx\": \"k.ptx\", \"cooperative\": true, \"launches\": [{\"grid\": [1], \"block\": [1]}]}",
    "cooperative: give it in each of \"launches\", not at the top level" },
  { "{" HEAD ", \"kernel\": \"a\", \"kernel\": \"b\"}", "kernel: given twice" },
  /* a buffer that is a variable's storage */
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1, \"variable\": 3}}}",
    "buffers.a.variable: must be the name of a .global or .const variable" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1, \"variable\": \"\"}}}",
    "buffers.a.variable: must be the name" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1, \"variable\": \"v\"},"
    " \"b\": {\"type\": \"u32\", \"count\": 1, \"variable\": \"v\"}}}",
    "buffers.b.variable: buffer 'a' is already the storage of v" },
  /* ptx, source, kernel */
  { "{\"grid\": [1], \"block\": [1]}", "ptx: missing" },
  { "{" HEAD ", \"source\": \"k.cu\"}", "source: give either 'ptx' or 'source', not both" },
  { "{\"ptx\": 3, \"grid\": [1], \"block\": [1]}", "ptx: expected a string, got a number" },
  { "{" HEAD ", \"kernel\": \"\"}", "kernel: must not be empty" },
  /* grid, block, dynamic shared memory */
  { "{\"ptx\": \"k.ptx\", \"block\": [1]}", "grid: missing" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [1, 1, 1, 1], \"block\": [1]}", "grid: expected 1 to 3 dimensions" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [], \"block\": [1]}", "grid: expected 1 to 3 dimensions, got 0" },
  { "{\"ptx\": \"k.ptx\", \"grid\": 4, \"block\": [1]}", "grid: expected an array, got a number" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [1, 0], \"block\": [1]}", "grid[1]: must be positive" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [1, 65536], \"block\": [1]}", "grid[1]: 65536 is over the limit of 65535" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [2147483648], \"block\": [1]}", "grid[0]: 2147483648 is over the limit" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [1.5], \"block\": [1]}", "grid[0]: expected an integer, got 1.5" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [\"4\"], \"block\": [1]}", "grid[0]: expected an integer, got a string" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32, 32, 2]}", "block: 32 x 32 x 2 is 2048 threads" },
  { "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1, 1, 65]}", "block[2]: 65 is over the limit of 64" },
  { "{" HEAD ", \"dynamic_shared_bytes\": -1}", "dynamic_shared_bytes: must be in 0.." },
  /* buffers */
  { "{" HEAD ", \"buffers\": []}", "buffers: expected an object, got an array" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 1}, \"a\": {\"type\": \"u8\", \"count\": 1}}}",
    "buffers.a: a second buffer of this name" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"count\": 4}}}", "buffers.a.type: missing" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f33\", \"count\": 4}}}", "buffers.a.type: unknown type 'f33'" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f16x2\", \"count\": 4}}}", "buffers.a.type: type 'f16x2' cannot be used here" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"cout\": 4}}}", "buffers.a.cout: unknown key" },
  { "{" HEAD ", \"buffers\": {\"a b\": {\"type\": \"u8\"}}}", "buffers[\"a b\"].count: missing" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 0}}}", "buffers.a.count: must be at least 1" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 2, \"data\": [1, 2, 3]}}}",
    "buffers.a.count: 2 is less than the 3 values given in 'data'" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"data\": []}}}", "buffers.a.data: empty" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"data\": [1, 256]}}}",
    "buffers.a.data[1]: 256 is out of range for u8 (0..255)" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"s8\", \"data\": [-129]}}}",
    "buffers.a.data[0]: -129 is out of range for s8 (-128..127)" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"data\": [1, -1]}}}",
    "buffers.a.data[1]: -1 is out of range for u32" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"data\": [true]}}}",
    "buffers.a.data[0]: expected an integer, got a boolean" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"data\": [\"12a\"]}}}",
    "buffers.a.data[0]: '12a' is not an integer" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u64\", \"data\": [\"0x10000000000000000\"]}}}",
    "buffers.a.data[0]: 0x10000000000000000 does not fit in 64 bits" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u64\", \"data\": [18446744073709551616]}}}",
    "buffers.a.data[0]: 18446744073709551616 does not fit in 64 bits" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"s64\", \"data\": [9223372036854775808]}}}",
    "buffers.a.data[0]: 9223372036854775808 is out of range for s64" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"data\": [\"one\"]}}}",
    "buffers.a.data[0]: expected a number (or \"inf\", \"-inf\", \"nan\"), got 'one'" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"data\": [null]}}}",
    "buffers.a.data[0]: expected a number, got null" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"bytes_hex\": \"010\"}}}", "buffers.a.bytes_hex: odd number of hex digits" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"bytes_hex\": \"01zz\"}}}",
    "buffers.a.bytes_hex: 'z' at offset 2 is not a hex digit" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u32\", \"bytes_hex\": \"010203\"}}}",
    "buffers.a.bytes_hex: 3 bytes is not a whole number of u32 elements" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"data\": [1], \"bytes_hex\": \"01\"}}}",
    "buffers.a: give only one of 'init', 'data', 'bytes_hex' and 'bytes_file'" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 1073741825}}}",
    "buffers.a.count: 1073741825 f32 elements are over the 4 GiB a buffer may hold" },
  /* init */
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"rand\": {}}}}}",
    "buffers.a.init.rand: unknown key" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {}}}}",
    "buffers.a.init: expected exactly one of" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"random\": {\"min\": \"x\", \"max\": 1}}}}}",
    "buffers.a.init.random.min: expected a number" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"random\": {\"max\": 1}}}}}",
    "buffers.a.init.random.min: missing" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"random\": {\"min\": 1, \"max\": 1}}}}}",
    "buffers.a.init.random: min (1) must be less than max (1)" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"random\": {\"min\": 0, \"max\": \"inf\"}}}}}",
    "buffers.a.init.random.max: must be finite" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"f16\", \"count\": 4, \"init\": {\"random\": {\"min\": 0.1, \"max\": 0.10001}}}}}",
    "buffers.a.init.random: no f16 value lies in" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 4, \"init\": {\"random\": {\"min\": 0, \"max\": 256}}}}}",
    "buffers.a.init.random.max: 256 is out of range for u8" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 4, \"init\": {\"random\": {\"min\": 5, \"max\": 4}}}}}",
    "buffers.a.init.random: min (5) is greater than max (4)" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 4, \"init\": {\"random\": {\"seed\": -1, \"min\": 0, \"max\": 1}}}}}",
    "buffers.a.init.random.seed: must not be negative" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 4, \"init\": {\"random\": {\"min\": 0, \"max\": 1, \"sede\": 1}}}}}",
    "buffers.a.init.random.sede: unknown key" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 300, \"init\": {\"range\": {\"start\": 0, \"step\": 1}}}}}",
    "buffers.a.init.range: element 299 would be 299, out of range for u8" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"s32\", \"count\": 3, \"init\": {\"range\": {\"start\": 0, \"step\": -9223372036854775808}}}}}",
    "buffers.a.init.range: element 2 would be beyond 64 bits" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 3, \"init\": {\"range\": {\"start\": -1, \"step\": 1}}}}}",
    "buffers.a.init.range.start: -1 is out of range for u8" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"s32\", \"count\": 3, \"init\": {\"range\": {\"start\": 0.5}}}}}",
    "buffers.a.init.range.start: expected an integer, got 0.5" },
  /* params */
  { "{" HEAD ", \"params\": {}}", "params: expected an array, got an object" },
  { "{" HEAD ", \"params\": [7]}", "params[0]: expected an object, got a number" },
  { "{" HEAD ", \"params\": [{\"buffer\": \"nope\"}]}", "params[0].buffer: no buffer named 'nope'" },
  { "{" HEAD ", \"buffers\": {\"a\": {\"type\": \"u8\", \"count\": 1}}, \"params\": [{\"buffer\": \"a\", \"type\": \"u32\"}]}",
    "params[0].type: unknown key (expected 'buffer', 'offset')" },
  { "{" HEAD ", \"params\": [{\"type\": \"u32\", \"value\": 1}, {\"type\": \"u32\", \"vaule\": 1}]}",
    "params[1].vaule: unknown key" },
  { "{" HEAD ", \"params\": [{\"type\": \"u32\", \"value\": 1}, {\"value\": 1}]}",
    "params[1]: expected {\"buffer\": NAME}, {\"type\": T, \"value\": V}, {\"bytes_hex\": HEX} or {\"fields\": [...]}" },
  { "{" HEAD ", \"params\": [{\"type\": \"u32\", \"value\": 1}, {\"type\": \"u32\", \"value\": 1}, {\"type\": \"f33\", \"value\": 1}]}",
    "params[2].type: unknown type 'f33'" },
  { "{" HEAD ", \"params\": [{\"type\": \"u32\"}]}", "params[0].value: missing" },
  { "{" HEAD ", \"params\": [{\"type\": \"u16\", \"value\": 70000}]}",
    "params[0].value: 70000 is out of range for u16 (0..65535)" },
  /* textures, surfaces and bindings */
#define TEXBUF ", \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 64}, \"b\": {\"type\": \"u8\", \"count\": 64}}"
#define TEX(fields) "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, " fields "}}}"
#define TEXR(rest) "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 8}}, " rest "}"
#define TEXB(fields) "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"b\", \"format\": {\"type\": \"u8\"}, " fields "}}}"
  { "{" HEAD ", \"textures\": []}", "textures: expected an object, got an array" },
  { "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"format\": {\"type\": \"f32\"}, \"width\": 4}}}",
    "textures.t.buffer: missing" },
  { "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"z\", \"format\": {\"type\": \"f32\"}, \"width\": 4}}}",
    "textures.t.buffer: no buffer named 'z'" },
  { "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"a\", \"width\": 4}}}",
    "textures.t.format: missing" },
  { "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"f64\"}, \"width\": 4}}}",
    "textures.t.format.type: a texel holds u8, s8, u16, s16, u32, s32, f16 or f32, not f64" },
  { "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"u8\", \"channels\": 3}, \"width\": 4}}}",
    "textures.t.format.channels: must be 1, 2 or 4" },
  { "{" HEAD TEXBUF ", \"textures\": {\"t\": {\"buffer\": \"a\", \"format\": {\"type\": \"u8\", \"chanels\": 2}, \"width\": 4}}}",
    "textures.t.format.chanels: unknown key" },
  { TEX ("\"height\": 4"), "textures.t.width: missing" },
  { TEX ("\"width\": 0"), "textures.t.width: must be positive" },
  { TEX ("\"width\": 4, \"height\": 70000"), "textures.t.height: 70000 is over the limit of 65536" },
  { TEX ("\"width\": 4, \"depth\": 2"), "textures.t.depth: a 3D array needs a height too" },
  { TEX ("\"width\": 2, \"height\": 2, \"depth\": 2, \"layers\": 2"),
    "textures.t.layers: a 3D array cannot be layered" },
  { TEX ("\"width\": 2, \"height\": 4, \"cubemap\": true"), "textures.t.cubemap: a cubemap has square faces" },
  { TEX ("\"width\": 2, \"height\": 2, \"layers\": 7, \"cubemap\": true"),
    "textures.t.layers: a cubemap array has 6 layers per cubemap, not 7" },
  { TEX ("\"width\": 2, \"height\": 2, \"cubemap\": 1"), "textures.t.cubemap: expected true or false, got a number" },
  { TEX ("\"width\": 8, \"height\": 9"),
    "textures.t.buffer: buffer 'a' has 256 bytes; the array needs 288 (72 texels of 4 bytes)" },
  { TEX ("\"width\": 8, \"filter\": \"bilinear\""),
    "textures.t.filter: unknown value 'bilinear' (expected 'point', 'linear')" },
  { TEXB ("\"width\": 8, \"filter\": \"linear\""),
    "textures.t.filter: 'linear' filtering needs a float format" },
  { TEX ("\"width\": 8, \"read_mode\": \"normalized_float\""),
    "textures.t.read_mode: 'normalized_float' needs an 8- or 16-bit integer format, not f32" },
  { TEX ("\"width\": 8, \"address\": \"wrap\""),
    "textures.t.address: 'wrap' needs \"normalized_coords\": true" },
  { TEX ("\"width\": 4, \"height\": 4, \"normalized_coords\": true, \"address\": [\"wrap\", \"mirrr\"]"),
    "textures.t.address[1]: unknown value 'mirrr'" },
  { TEX ("\"width\": 4, \"height\": 4, \"address\": [\"clamp\", \"mirror\"]"),
    "textures.t.address[1]: 'mirror' needs \"normalized_coords\": true" },
  { TEX ("\"width\": 8, \"address\": []"), "textures.t.address: expected 1 to 3 modes" },
  { TEX ("\"width\": 8, \"normalized_coords\": \"yes\""),
    "textures.t.normalized_coords: expected true or false, got a string" },
  { TEXB ("\"width\": 8, \"border\": [1, 2.5]"),
    "textures.t.border[1]: an integer texture read as elements has integer border values" },
  { TEX ("\"width\": 8, \"border\": [1, 2, 3, 4, 5]"), "textures.t.border: expected 1 to 4 values" },
  { TEX ("\"width\": 8, \"border\": [\"inf\"]"), "textures.t.border[0]: must be finite" },
  { TEX ("\"width\": 8, \"border\": [0, 1e39]"), "textures.t.border[1]: 1e+39 is outside the f32 range" },
  { TEX ("\"width\": 8, \"sampler\": {}"), "textures.t.sampler: unknown key" },
  { "{" HEAD TEXBUF ", \"surfaces\": {\"s\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 8, \"filter\": \"point\"}}}",
    "surfaces.s.filter: unknown key" },
  { "{" HEAD TEXBUF ", \"surfaces\": {\"s\": {\"buffer\": \"a\", \"format\": {\"type\": \"f32\"}, \"width\": 8, \"cubemap\": true}}}",
    "surfaces.s.cubemap: unknown key" },
  { "{" HEAD TEXBUF ", \"params\": [{\"texture\": \"t\"}]}", "params[0].texture: no texture named 't'" },
  { TEXR ("\"params\": [{\"texture\": \"t\", \"buffer\": \"a\"}]"),
    "params[0].buffer: unknown key (expected 'texture')" },
  { TEXR ("\"params\": [{\"surface\": \"t\"}]"),
    "params[0].surface: no surface named 't'" },
  { TEXR ("\"bindings\": {\"tex_a\": \"t\"}"),
    "bindings.tex_a: expected an object, got a string" },
  { TEXR ("\"bindings\": {\"tex_a\": {}}"),
    "bindings.tex_a: expected {\"texture\": NAME} or {\"surface\": NAME}" },
  { TEXR ("\"bindings\": {\"tex_a\": {\"texture\": \"u\"}}"),
    "bindings.tex_a.texture: no texture named 'u'" },
  /* pointers into a buffer */
#define BUF_A ", \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 4}}"
  { "{" HEAD BUF_A ", \"params\": [{\"buffer\": \"a\", \"offset\": -4}]}",
    "params[0].offset: -4 bytes points before buffer 'a' (an offset is counted in bytes from its start: 0 to 16)" },
  { "{" HEAD BUF_A ", \"params\": [{\"buffer\": \"a\", \"offset\": 17}]}",
    "params[0].offset: 17 bytes points past the end of buffer 'a' (16 bytes)" },
  { "{" HEAD BUF_A ", \"params\": [{\"buffer\": \"a\", \"offset\": 1.5}]}", "params[0].offset: " },
  { "{" HEAD BUF_A ", \"params\": [{\"buffer\": \"a\", \"ofset\": 4}]}",
    "params[0].ofset: unknown key (expected 'buffer', 'offset')" },
  /* structs by value */
  { "{" HEAD ", \"params\": [{\"bytes_hex\": \"0g\"}]}", "params[0].bytes_hex: 'g' at offset 1 is not a hex digit" },
  { "{" HEAD ", \"params\": [{\"bytes_hex\": \"\"}]}", "params[0].bytes_hex: empty" },
  { "{" HEAD ", \"params\": [{\"bytes_hex\": \"00\", \"fields\": []}]}", "params[0].fields: unknown key (expected 'bytes_hex')" },
  { "{" HEAD ", \"params\": [{\"fields\": []}]}", "params[0].fields: empty (give the struct's fields)" },
  { "{" HEAD ", \"params\": [{\"fields\": [{\"type\": \"u8\", \"value\": 256}]}]}", "params[0].fields[0].value: " },
  { "{" HEAD ", \"params\": [{\"fields\": [{\"type\": \"u8\", \"value\": 1}, {\"value\": 1}]}]}",
    "params[0].fields[1]: expected {\"type\": T, \"value\": V} or {\"buffer\": NAME}" },
  { "{" HEAD ", \"params\": [{\"fields\": [{\"buffer\": \"zz\"}]}]}", "params[0].fields[0].buffer: no buffer named 'zz'" },
  { "{" HEAD BUF_A ", \"params\": [{\"fields\": [{\"buffer\": \"a\", \"offset\": 20}]}]}",
    "params[0].fields[0].offset: 20 bytes points past the end of buffer 'a'" },
  /* symbols */
  { "{" HEAD ", \"symbols\": []}", "symbols: expected an object, got an array" },
  { "{" HEAD ", \"symbols\": {\"c\": 1}}", "symbols.c: expected an object, got a number" },
  { "{" HEAD ", \"symbols\": {\"\": {}}}", "symbols[\"\"]: name the module's .global or .const variable" },
  { "{" HEAD ", \"symbols\": {\"c\": {\"typ\": \"u32\"}}}", "symbols.c.typ: unknown key" },
  { "{" HEAD ", \"symbols\": {\"c\": {\"type\": \"u32\", \"data\": [1.5]}}}", "symbols.c.data[0]: " },
  { "{" HEAD ", \"symbols\": {\"c\": {\"type\": \"u33\", \"data\": [1]}}}", "symbols.c.type: unknown type 'u33'" },
  { "{" HEAD ", \"symbols\": {\"c\": {\"bytes_hex\": \"abc\"}}}", "symbols.c.bytes_hex: odd number of hex digits" },
  { "{" HEAD ", \"symbols\": {\"c\": {\"data\": [1], \"init\": {}}}}", "symbols.c: give only one of" },
  { "{" HEAD ", \"output_symbols\": \"c\"}", "output_symbols: expected an array, got a string" },
  { "{" HEAD ", \"output_symbols\": [\"c\", \"c\"]}", "output_symbols[1]: 'c' is listed twice" },
  { "{" HEAD ", \"output_symbols\": [\"\"]}", "output_symbols[0]: must not be empty" },
  /* launches */
#define LAUNCH "{\"grid\": [1], \"block\": [32]}"
  { "{\"ptx\": \"k.ptx\", \"launches\": []}", "launches: empty (give at least one launch)" },
  { "{\"ptx\": \"k.ptx\", \"launches\": {}}", "launches: expected an array, got an object" },
  { "{" HEAD ", \"launches\": [" LAUNCH "]}", "grid: give it in each of \"launches\", not at the top level" },
  { "{\"ptx\": \"k.ptx\", \"kernel\": \"k\", \"launches\": [" LAUNCH "]}",
    "kernel: give it in each of \"launches\", not at the top level" },
  { "{\"ptx\": \"k.ptx\", \"params\": [], \"launches\": [" LAUNCH "]}",
    "params: give it in each of \"launches\", not at the top level" },
  { "{\"ptx\": \"k.ptx\", \"launches\": [" LAUNCH ", {\"grid\": [1]}]}",
    "launches[1].block: missing" },
  { "{\"ptx\": \"k.ptx\", \"launches\": [" LAUNCH ", {\"grid\": [1], \"block\": [64, 32]}]}",
    "launches[1].block: 64 x 32 x 1 is 2048 threads" },
  { "{\"ptx\": \"k.ptx\", \"launches\": [" LAUNCH ", {\"grid\": [1], \"block\": [1], \"dynamic_shared_bytes\": -1}]}",
    "launches[1].dynamic_shared_bytes: " },
  { "{\"ptx\": \"k.ptx\", \"launches\": [" LAUNCH ", {\"grid\": [1], \"block\": [1], \"outputs\": []}]}",
    "launches[1].outputs: unknown key" },
  { "{\"ptx\": \"k.ptx\", \"launches\": [" LAUNCH ", {\"grid\": [1], \"block\": [1], \"params\": [{\"buffer\": \"q\"}]}]}",
    "launches[1].params[0].buffer: no buffer named 'q'" },
  { "{\"ptx\": \"k.ptx\", \"launches\": [" LAUNCH ", {\"grid\": [1], \"block\": [1], \"kernel\": 3}]}",
    "launches[1].kernel: expected a string, got a number" },
  /* outputs */
  { "{" HEAD ", \"outputs\": \"c\"}", "outputs: expected an array, got a string" },
  { "{" HEAD ", \"outputs\": [\"c\"]}", "outputs[0]: no buffer named 'c'" },
  { "{" HEAD ", \"buffers\": {\"c\": {\"type\": \"u8\", \"count\": 1}}, \"outputs\": [\"c\", \"c\"]}",
    "outputs[1]: 'c' is listed twice" },
};

/* Textures, surfaces, their handles as parameters and bindings: every
 * field as read, the defaults, and a deep copy */
static void
test_textures (void)
{
  static const char json[] =
    "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [32],\n"
    " \"buffers\": {\"img\": {\"type\": \"u8\", \"count\": 4096}, \"vol\": {\"type\": \"f32\", \"count\": 512},\n"
    "             \"out\": {\"type\": \"f32\", \"count\": 16}},\n"
    " \"textures\": {\n"
    "   \"pic\": {\"buffer\": \"img\", \"format\": {\"type\": \"u8\", \"channels\": 4}, \"width\": 16,\n"
    "           \"height\": 8, \"layers\": 8, \"filter\": \"linear\", \"normalized_coords\": true,\n"
    "           \"address\": [\"wrap\", \"border\"], \"read_mode\": \"normalized_float\",\n"
    "           \"border\": [0.5, 0.25]},\n"
    "   \"v\": {\"buffer\": \"vol\", \"format\": {\"type\": \"f32\"}, \"width\": 8, \"height\": 8, \"depth\": 8},\n"
    "   \"sky\": {\"buffer\": \"vol\", \"format\": {\"type\": \"f16\", \"channels\": 2}, \"width\": 4,\n"
    "           \"height\": 4, \"cubemap\": true, \"address\": \"border\"}},\n"
    " \"surfaces\": {\"o\": {\"buffer\": \"out\", \"format\": {\"type\": \"s32\"}, \"width\": 16}},\n"
    " \"bindings\": {\"tex_a\": {\"texture\": \"v\"}, \"surf_a\": {\"surface\": \"o\"}},\n"
    " \"params\": [{\"texture\": \"sky\"}, {\"surface\": \"o\"}, {\"buffer\": \"out\"}]}\n";
  g_autoptr(KsLaunch) launch = parse_ok (json);
  g_autoptr(KsLaunch) copy = NULL;
  const KsLaunchTexture *t;

  g_assert_cmpuint (launch->n_textures, ==, 3);
  g_assert_cmpuint (launch->n_surfaces, ==, 1);
  g_assert_cmpint (ks_launch_find_texture (launch, "v"), ==, 1);
  g_assert_cmpint (ks_launch_find_texture (launch, "o"), ==, -1);
  g_assert_cmpint (ks_launch_find_surface (launch, "o"), ==, 0);

  t = &launch->textures[0];
  g_assert_cmpstr (t->name, ==, "pic");
  g_assert_cmpuint (t->buffer, ==, 0);
  g_assert_cmpint (t->format, ==, KS_PTX_TYPE_U8);
  g_assert_cmpuint (t->channels, ==, 4);
  g_assert_cmpuint (t->texel_size, ==, 4);
  g_assert_cmpuint (t->dims, ==, 2);
  g_assert_cmpuint (t->width, ==, 16);
  g_assert_cmpuint (t->height, ==, 8);
  g_assert_cmpuint (t->depth, ==, 1);
  g_assert_cmpuint (t->layers, ==, 8);
  g_assert_true (t->layered);
  g_assert_false (t->cubemap);
  g_assert_cmpint (t->filter, ==, KS_LAUNCH_TEX_LINEAR);
  g_assert_true (t->normalized_coords);
  g_assert_true (t->normalized_float);
  /* the dimensions not given repeat the last mode */
  g_assert_cmpint (t->address[0], ==, KS_LAUNCH_TEX_WRAP);
  g_assert_cmpint (t->address[1], ==, KS_LAUNCH_TEX_BORDER);
  g_assert_cmpint (t->address[2], ==, KS_LAUNCH_TEX_BORDER);
  g_assert_cmpfloat (t->border[0], ==, 0.5);
  g_assert_cmpfloat (t->border[1], ==, 0.25);
  g_assert_cmpfloat (t->border[2], ==, 0);
  g_assert_cmpfloat (t->border[3], ==, 0);

  /* defaults: point, clamp, unnormalized, element */
  t = &launch->textures[1];
  g_assert_cmpuint (t->dims, ==, 3);
  g_assert_cmpuint (t->depth, ==, 8);
  g_assert_cmpuint (t->layers, ==, 1);
  g_assert_false (t->layered);
  g_assert_cmpint (t->filter, ==, KS_LAUNCH_TEX_POINT);
  g_assert_cmpint (t->address[0], ==, KS_LAUNCH_TEX_CLAMP);
  g_assert_false (t->normalized_coords);
  g_assert_false (t->normalized_float);

  t = &launch->textures[2];
  g_assert_true (t->cubemap);
  g_assert_cmpuint (t->layers, ==, 6);
  g_assert_cmpuint (t->texel_size, ==, 4);
  g_assert_cmpint (t->address[1], ==, KS_LAUNCH_TEX_BORDER);

  g_assert_cmpuint (launch->surfaces[0].texel_size, ==, 4);
  g_assert_cmpuint (launch->surfaces[0].dims, ==, 1);

  g_assert_cmpuint (launch->n_bindings, ==, 2);
  g_assert_cmpstr (launch->bindings[0].var, ==, "tex_a");
  g_assert_false (launch->bindings[0].surface);
  g_assert_cmpuint (launch->bindings[0].index, ==, 1);
  g_assert_true (launch->bindings[1].surface);

  g_assert_cmpuint (launch->n_params, ==, 3);
  g_assert_cmpint (launch->params[0].handle, ==, KS_LAUNCH_HANDLE_TEXTURE);
  g_assert_cmpuint (launch->params[0].object, ==, 2);
  g_assert_false (launch->params[0].is_buffer);
  g_assert_cmpint (launch->params[1].handle, ==, KS_LAUNCH_HANDLE_SURFACE);
  g_assert_cmpuint (launch->params[1].object, ==, 0);
  g_assert_cmpint (launch->params[2].handle, ==, KS_LAUNCH_HANDLE_NONE);
  g_assert_true (launch->params[2].is_buffer);

  copy = ks_launch_copy (launch);
  g_clear_pointer (&launch, ks_launch_free);
  g_assert_cmpuint (copy->n_textures, ==, 3);
  g_assert_cmpstr (copy->textures[2].name, ==, "sky");
  g_assert_cmpstr (copy->surfaces[0].name, ==, "o");
  g_assert_cmpstr (copy->bindings[1].var, ==, "surf_a");
  g_assert_cmpfloat (copy->textures[0].border[1], ==, 0.25);
}

/* Host code's side of a launch: pointers into buffers, structs laid out
 * as a C compiler lays them out (offsets worked out by hand), symbols and
 * several launches */
static void
test_host_forms (void)
{
  g_autoptr(KsLaunch) launch = parse_ok (
    "{\"ptx\": \"k.ptx\","
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4}, \"b\": {\"type\": \"u8\", \"count\": 3}},"
    " \"symbols\": {\"c_f\": {\"type\": \"f32\", \"data\": [0.5]}, \"g_n\": {\"data\": [3]},"
    "               \"g_r\": {\"type\": \"u16\", \"init\": {\"range\": {\"start\": 1}}}},"
    " \"output_symbols\": [\"g_n\", \"c_f\"],"
    " \"launches\": ["
    "  {\"kernel\": \"k1\", \"grid\": [2], \"block\": [64], \"dynamic_shared_bytes\": 8,"
    "   \"params\": [{\"buffer\": \"a\", \"offset\": 16}, {\"buffer\": \"b\", \"offset\": 0},"
    "               {\"fields\": [{\"type\": \"u8\", \"value\": 7}, {\"type\": \"u32\", \"value\": 258},"
    "                           {\"type\": \"b16\", \"value\": -1}, {\"type\": \"f64\", \"value\": 1},"
    "                           {\"buffer\": \"b\", \"offset\": 2}, {\"type\": \"u8\", \"value\": 9}]}]},"
    "  {\"grid\": [1], \"block\": [32], \"params\": [{\"bytes_hex\": \"0102ff\"}]}]}");
  const KsLaunchParam *p;
  /* u8 at 0, u32 at 4, b16 at 8, f64 at 16, pointer at 24, u8 at 32;
   * 40 bytes in all (a multiple of 8) */
  static const uint8_t expect[40] = {
    7, 0, 0, 0, 2, 1, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0,
    9, 0, 0, 0, 0, 0, 0, 0,
  };

  g_assert_cmpuint (launch->n_steps, ==, 2);
  /* the first launch stands at the top for readers of one launch */
  g_assert_cmpstr (launch->kernel, ==, "k1");
  g_assert_cmpuint (launch->grid[0], ==, 2);
  g_assert_cmpuint (launch->block[0], ==, 64);
  g_assert_cmpuint (launch->dynamic_shared_bytes, ==, 8);
  g_assert_cmpuint (launch->n_params, ==, 3);
  g_assert_null (launch->steps[1].kernel);
  g_assert_cmpuint (launch->steps[1].grid[0], ==, 1);
  g_assert_cmpuint (launch->steps[1].block[0], ==, 32);

  p = &launch->steps[0].params[0];
  g_assert_true (p->is_buffer);
  g_assert_cmpint (p->offset, ==, 16);
  p = &launch->steps[0].params[2];
  g_assert_cmpuint (p->n_bytes, ==, 40);
  g_assert_cmpmem (p->bytes, p->n_bytes, expect, sizeof expect);
  g_assert_cmpuint (p->n_relocs, ==, 1);
  g_assert_cmpuint (p->relocs[0].at, ==, 24);
  g_assert_cmpuint (p->relocs[0].buffer, ==, 1);
  g_assert_cmpint (p->relocs[0].offset, ==, 2);
  p = &launch->steps[1].params[0];
  g_assert_cmpuint (p->n_bytes, ==, 3);
  g_assert_cmpmem (p->bytes, 3, "\x01\x02\xff", 3);

  /* a typed symbol is read now, one in the variable's type later */
  g_assert_cmpuint (launch->n_symbols, ==, 3);
  g_assert_cmpstr (launch->symbols[0].name, ==, "c_f");
  g_assert_cmpint (launch->symbols[0].type, ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (launch->symbols[0].size, ==, 4);
  g_assert_cmpuint (element (&(KsLaunchBuffer) { .type = KS_PTX_TYPE_F32, .count = 1,
                                                 .data = launch->symbols[0].data }, 0),
                    ==, f32_bits (0.5f));
  g_assert_null (launch->symbols[1].data);
  g_assert_null (launch->symbols[2].data);
  g_assert_cmpuint (launch->n_output_symbols, ==, 2);
  g_assert_cmpstr (launch->output_symbols[1], ==, "c_f");

  {
    g_autoptr(GError) error = NULL;
    g_autofree uint8_t *data = NULL;
    KsPtxType type;
    size_t size;

    /* g_n as the variable's u32 */
    g_assert_true (ks_launch_symbol_fill (launch, 1, KS_PTX_TYPE_U32, 4, &data, &size, &type, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (size, ==, 4);
    g_assert_cmpint (type, ==, KS_PTX_TYPE_U32);
    g_assert_cmpmem (data, 4, "\x03\0\0\0", 4);
    g_clear_pointer (&data, g_free);
    /* g_r: u16 over a 6-byte variable, 1 2 3 */
    g_assert_true (ks_launch_symbol_fill (launch, 2, KS_PTX_TYPE_B8, 6, &data, &size, &type, &error));
    g_assert_cmpuint (size, ==, 6);
    g_assert_cmpmem (data, 6, "\x01\0\x02\0\x03\0", 6);
    g_clear_pointer (&data, g_free);
    /* g_n as an s8: 3 fits; as a pred it cannot be filled */
    g_assert_false (ks_launch_symbol_fill (launch, 1, KS_PTX_TYPE_PRED, 1, &data, &size, &type, &error));
    g_assert_cmpstr (error->message, ==, "/specs/dir/spec.json: symbols.g_n.type: missing, and the variable's type pred "
                     "cannot be filled: give one");
  }

  /* a deep copy keeps it all */
  {
    g_autoptr(KsLaunch) c = ks_launch_copy (launch);

    g_assert_cmpuint (c->n_steps, ==, 2);
    g_assert_true (c->steps[0].params[2].bytes != launch->steps[0].params[2].bytes);
    g_assert_cmpmem (c->steps[0].params[2].bytes, 40, expect, 40);
    g_assert_cmpuint (c->steps[0].params[2].relocs[0].at, ==, 24);
    g_assert_cmpmem (c->params[2].bytes, 40, expect, 40);
    g_assert_cmpstr (c->symbols[2].name, ==, "g_r");
    g_assert_cmpstr (c->output_symbols[0], ==, "g_n");
  }
}

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_specs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsLaunch) launch = NULL;
      gboolean syntax = g_str_has_prefix (bad_specs[i].message, "spec.json:");

      g_test_message ("%s", bad_specs[i].json);
      launch = ks_launch_parse (bad_specs[i].json, -1, "spec.json", &error);
      g_assert_null (launch);
      g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
      g_test_message ("-> %s", error->message);
      g_assert_true (g_str_has_prefix (error->message, "spec.json:"));
      (void) syntax;
      if (strstr (error->message, bad_specs[i].message) == NULL)
        g_error ("'%s' does not contain '%s'", error->message, bad_specs[i].message);

      /* The same failure without a GError to fill */
      g_assert_null (ks_launch_parse (bad_specs[i].json, -1, "spec.json", NULL));
    }
}

static void
test_messages (void)
{
  g_autoptr(GError) error = NULL;

  /* Without a spec path the location leads */
  g_assert_null (ks_launch_parse ("{\"ptx\": \"k\", \"grid\": [1], \"block\": [0]}", -1, NULL, &error));
  g_assert_cmpstr (error->message, ==, "block[0]: must be positive");
  g_clear_error (&error);

  g_assert_null (ks_launch_parse ("{\n  \"ptx\": \"k\",\n  \"grid\": ]\n}", -1, NULL, &error));
  g_assert_true (g_str_has_prefix (error->message, "3:11: Parse error: "));
  g_clear_error (&error);

  /* A big literal earlier on the line must not shift the column: the
   * message is that of a small literal of the same width. */
  {
    g_autoptr(GError) small = NULL;
    g_auto(GStrv) where = NULL;
    g_autofree char *place = NULL;

    g_assert_null (ks_launch_parse ("{\"a\": [18446744073709551615 }", -1, "s.json", &error));
    g_assert_null (ks_launch_parse ("{\"a\": [00000000000000000001 }", -1, "s.json", &small));
    where = g_strsplit (small->message, ":", 4);

    g_assert_cmpuint (g_strv_length (where), ==, 4);
    where[3][0] = '\0';
    place = g_strjoinv (":", where);
    g_assert_true (g_str_has_prefix (error->message, place));
    g_assert_cmpstr (where[1], ==, "1");
    g_clear_error (&error);
  }

  /* A field's message is placed at the field, as json-glib places its
   * own: the line and byte column of its key (of the element, in an
   * array), counted by hand in this text.  A missing member is placed at
   * the object that lacks it; a message about the spec as a whole has no
   * place. */
  {
    static const char text[] =
      "{\n"                                                         /* 1 */
      "  \"ptx\": \"k.ptx\", /* not \"grid\": [0] */\n"             /* 2 */
      "  \"grid\": [1,\n"                                           /* 3 */
      "           /* [0] */ 0],\n"                                  /* 4 */
      "  \"block\": [32],\n"                                        /* 5 */
      "  \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": 4},\n"   /* 6 */
      "              \"a b\": {\"type\": \"f32\", \"count\": -1}}\n"   /* 7 */
      "}\n";
    static const struct { const char *path; guint line, column; } where[] = {
      { "grid[1]", 4, 22 },
      { "grid", 3, 3 },
      { "buffers[\"a b\"].count", 7, 38 },
      { "buffers.x.type", 6, 21 },
      { "buffers.x.init", 6, 15 },           /* missing: placed at x */
      { "grid.x", 3, 3 },                   /* an array has no keys: at grid */
      { "buffers[\"a b\"]", 7, 15 },
    };

    g_assert_null (ks_launch_parse (text, -1, "s.json", &error));
    g_assert_cmpstr (error->message, ==, "s.json:4:22: grid[1]: must be positive");
    g_clear_error (&error);
    for (guint i = 0; i < G_N_ELEMENTS (where); i++)
      {
        guint line = 0, column = 0;

        g_test_message ("%s", where[i].path);
        g_assert_true (ks_json_locate (text, strlen (text), where[i].path, &line, &column));
        g_assert_cmpuint (line, ==, where[i].line);
        g_assert_cmpuint (column, ==, where[i].column);
      }
    g_assert_false (ks_json_locate (text, strlen (text), "nothing.here", NULL, NULL));
    {
      g_autofree char *whole = ks_launch_place ("s.json", text, strlen (text), NULL, "too big");
      g_autofree char *lost = ks_launch_place ("s.json", text, strlen (text), "z", "unknown");

      g_assert_cmpstr (whole, ==, "s.json: too big");
      g_assert_cmpstr (lost, ==, "s.json: z: unknown");
    }
  }

  /* An explicit length ends the text */
  g_assert_null (ks_launch_parse ("{\"ptx\": \"k\", \"grid\": [1], \"block\": [1]} garbage", 38, "s.json", &error));
  g_assert_true (g_str_has_prefix (error->message, "s.json:1:"));
  g_clear_error (&error);
  {
    static const char text[] = "{\"ptx\": \"k\", \"grid\": [1], \"block\": [1]} garbage";
    g_autoptr(KsLaunch) launch = ks_launch_parse (text, strchr (text, '}') - text + 1, "s.json", &error);

    g_assert_no_error (error);
    g_assert_nonnull (launch);
  }
}

/* A spec nested 100,000 levels deep would exhaust the stack in json-glib's
 * recursive parser: it is refused before, at the bracket that went one
 * level too deep, and brackets in strings and comments do not count */
/* A spec over 64 MiB is refused before it is parsed (issue 16: a 100 MB
 * spec of values took 1 GB as a JSON tree): a sparse file by its size
 * before it is read, the same text in memory by its length */

/* Long arrays of values are read from the text, not json-glib's tree
 * (issue 16: a spec's tree took ten times its text).  json-glib is the
 * reference: the same spec with a comment in each array, which the lift
 * leaves to json-glib, gives the same bytes for every spelling of a
 * value, and the same message for a wrong one. */
static const struct
{
  const char *type;
  const char *const spellings[20];
} lift_cases[] = {
  { "f32", { "1", "-2", "0", "-0", "0.5", "-1.25e3", "1E-3", "2.5e+2", "3.4028235e38", "1e39",
             "123456789012345678901234", "\"inf\"", "\"-inf\"", "\"nan\"", "\"0.1\"", "1e-45",
             "-9223372036854775808", "18446744073709551615", "0.1", NULL } },
  { "f64", { "0.1", "-0.0", "1.7976931348623157e308", "4.9e-324", "3", "-7e-7", "\"1e30\"",
             "9007199254740993", "-123456789012345678901", NULL } },
  { "f16", { "0.1", "65504", "65520", "-1e-8", "6e-8", "1", "\"-inf\"", NULL } },
  { "s64", { "0", "-1", "9223372036854775807", "-9223372036854775808", "\"0x7fffffffffffffff\"",
             "\"-5\"", "1e3", "2.0", "-0", NULL } },
  { "u64", { "18446744073709551615", "9223372036854775808", "0", "\"0xffffffffffffffff\"",
             "12345678901234567890", "1.5e19", "\"18446744073709551615\"", NULL } },
  { "u8", { "255", "0", "\"0x7f\"", "1e2", "\"200\"", NULL } },
};

/* A spec of the cases, each buffer N values long, one per line; each
 * array opened with OPEN */
static char *
lift_spec (guint       n,
           const char *open,
           const char *symbol_open)
{
  GString *s = g_string_new ("{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1],\n\"buffers\": {");

  for (guint c = 0; c < G_N_ELEMENTS (lift_cases); c++)
    {
      guint k = 0;

      while (lift_cases[c].spellings[k] != NULL)
        k++;
      g_string_append_printf (s, "%s\n\"%s\": {\"type\": \"%s\", \"data\": %s\n", c ? "," : "",
                              lift_cases[c].type, lift_cases[c].type, open);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (s, "  %s%s\n", lift_cases[c].spellings[(i + c) % k],
                                i + 1 < n ? "," : "");
      g_string_append (s, "]}");
    }
  g_string_append_printf (s, "},\n\"symbols\": {\"table\": {\"type\": \"s32\", \"data\": %s", symbol_open);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%d", i ? ", " : "", (int) i * 3 - 100);
  g_string_append (s, "]}}}");
  return g_string_free (s, FALSE);
}

static void
test_lifted_values (void)
{
  const guint n = 300;
  g_autofree char *lifted = lift_spec (n, "[", "[");
  g_autofree char *tree = lift_spec (n, "[ /* read by json-glib */", "[/**/");
  g_autoptr(KsLaunch) a = NULL, b = NULL;

  /* The lift takes all seven arrays of the one spec and none of the other */
  {
    g_autoptr(KsJsonLift) lift = ks_json_lift_new (lifted, strlen (lifted), 256);
    g_autoptr(KsJsonLift) none = ks_json_lift_new (tree, strlen (tree), 256);
    g_autoptr(KsJsonLift) short_ = ks_json_lift_new (lifted, strlen (lifted), n + 1);
    const char *text;
    gsize len;
    guint lines = 0;

    g_assert_nonnull (lift);
    g_assert_null (none);
    g_assert_null (short_);
    text = ks_json_lift_text (lift, &len);
    g_assert_cmpuint (len, ==, strlen (lifted));
    /* blanked, with every newline where it was */
    for (gsize i = 0; i < len; i++)
      {
        g_assert_true (text[i] == lifted[i] || (text[i] == ' ' && lifted[i] != '\n'));
        lines += text[i] == '\n';
      }
    g_assert_cmpuint (lines, ==, G_N_ELEMENTS (lift_cases) * (n + 2) + 2);
    g_assert_null (strstr (text, "18446744073709551615"));
  }

  a = parse_ok (lifted);
  b = parse_ok (tree);
  g_assert_cmpuint (a->n_buffers, ==, G_N_ELEMENTS (lift_cases));
  for (guint c = 0; c < G_N_ELEMENTS (lift_cases); c++)
    {
      const KsLaunchBuffer *x = buffer (a, lift_cases[c].type), *y = buffer (b, lift_cases[c].type);

      g_assert_cmpuint (x->count, ==, n);
      g_assert_cmpuint (y->count, ==, n);
      g_assert_cmpmem (x->data, x->size, y->data, y->size);
    }
  /* and against values worked out by hand */
  g_assert_cmphex (element (buffer (a, "f32"), 4), ==, f32_bits (0.5f));        /* 0.5 */
  g_assert_cmphex (element (buffer (a, "f32"), 6), ==, f32_bits (1e-3f));       /* 1E-3 */
  g_assert_cmphex (element (buffer (a, "f32"), 9), ==, f32_bits (INFINITY));    /* 1e39 */
  g_assert_cmphex (element (buffer (a, "u64"), 3), ==, G_MAXUINT64);
  g_assert_cmphex (element (buffer (a, "s64"), 0), ==, (guint64) G_MININT64);
  g_assert_cmphex (element (buffer (a, "u8"), 0), ==, 255);
  g_assert_cmphex (element (buffer (a, "u8"), 2), ==, 0x7f);

  /* A symbol's values are read when the module is known, after the text
   * is gone: they are kept */
  for (guint which = 0; which < 2; which++)
    {
      KsLaunch *l = which ? b : a;
      g_autoptr(GError) error = NULL;
      g_autofree uint8_t *data = NULL;
      size_t size = 0;
      KsPtxType type;
      int32_t v;

      g_assert_true (ks_launch_symbol_fill (l, 0, KS_PTX_TYPE_S32, 4 * n, &data, &size, &type,
                                            &error));
      g_assert_no_error (error);
      g_assert_cmpuint (size, ==, 4 * n);
      memcpy (&v, data + 4 * 299, 4);
      g_assert_cmpint (v, ==, 299 * 3 - 100);
    }
}

/* A wrong value in a lifted array: the same message, at the same place,
 * as json-glib's tree gives */
static void
test_lifted_errors (void)
{
  const char *const bad[] = { "1.5", "\"x\"", "256", "-1", "1e3" };

  for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      char *messages[2] = { NULL, NULL };

      for (guint which = 0; which < 2; which++)
        {
          g_autoptr(GString) s = g_string_new ("{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1],\n"
                                               "\"buffers\": {\"a\": {\"type\": \"u8\", \"data\": ");
          g_autoptr(GError) error = NULL;

          g_string_append (s, which ? "[/**/\n" : "[\n");
          for (guint i = 0; i < 400; i++)
            g_string_append_printf (s, "  %s%s\n", i == 333 ? bad[k] : "7", i < 399 ? "," : "");
          g_string_append (s, "]}}}");
          g_assert_null (ks_launch_parse (s->str, -1, "spec.json", &error));
          g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
          messages[which] = g_strdup (error->message);
        }
      g_test_message ("%s", messages[0]);
      g_assert_cmpstr (messages[0], ==, messages[1]);
      g_assert_true (g_str_has_prefix (messages[0], "spec.json:336:3: buffers.a.data[333]: "));
      g_free (messages[0]);
      g_free (messages[1]);
    }

  /* A syntax error after a lifted array is placed where json-glib places
   * it in the text as written */
  {
    char *messages[2] = { NULL, NULL };

    for (guint which = 0; which < 2; which++)
      {
        g_autoptr(GString) s = g_string_new ("{\"ptx\": \"k.ptx\", \"grid\": [1],\n\"buffers\": "
                                             "{\"a\": {\"type\": \"u8\", \"data\": [");
        g_autoptr(GError) error = NULL;

        g_string_append (s, which ? "/**/\n" : "\n");
        for (guint i = 0; i < 300; i++)
          g_string_append_printf (s, "%u%s", i % 10, i % 20 == 19 ? ",\n" : ", ");
        g_string_append (s, "1]}},\n  \"block\": [1] ]}");
        g_assert_null (ks_launch_parse (s->str, -1, "spec.json", &error));
        messages[which] = g_strdup (error->message);
      }
    g_test_message ("%s", messages[0]);
    g_assert_cmpstr (messages[0], ==, messages[1]);
    g_assert_true (g_str_has_prefix (messages[0], "spec.json:19:"));
    g_free (messages[0]);
    g_free (messages[1]);
  }
}

static void
test_spec_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-launch-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.json", NULL);
  g_autofree char *want = NULL, *hundred = NULL;
  gsize size = KS_LAUNCH_MAX_SPEC_BYTES + 1;
  g_autofree char *text = g_malloc (size + 1);
  int fd;

  fd = g_open (path, O_WRONLY | O_CREAT, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 100 << 20), ==, 0);
  close (fd);
  g_assert_null (ks_launch_load (path, &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  /* (g_format_size puts a no-break space before the unit) */
  hundred = g_format_size_full ((guint64) 100 << 20, G_FORMAT_SIZE_IEC_UNITS);
  want = g_strdup_printf ("%s: %s of JSON, over the 64 MiB a launch spec may be; give a large "
                          "buffer an \"init\" (random or range) rather than its values", path,
                          hundred);
  g_assert_cmpstr (error->message, ==, want);
  g_clear_error (&error);

  /* in memory: refused by its length, before the parser sees the spaces */
  memset (text, ' ', size);
  text[0] = '{';
  text[size - 1] = '}';
  text[size] = '\0';
  g_assert_null (ks_launch_parse (text, (gssize) size, "spec.json", &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "spec.json: 64.0"));
  g_assert_nonnull (strstr (error->message, "MiB of JSON, over the 64 MiB a launch spec may be"));

  g_unlink (path);
  g_rmdir (dir);
}

/* The buffers together are refused past half of the computer's memory (at
 * most 16 GiB), at the first one past it, before any is filled (issue 16):
 * 4 GiB buffers, one more than fit */
static void
test_buffer_total (void)
{
  const guint64 gib4 = G_GUINT64_CONSTANT (4) << 30;
  guint64 limit = MIN ((guint64) sysconf (_SC_PHYS_PAGES) / 2 * (guint64) sysconf (_SC_PAGE_SIZE),
                       G_GUINT64_CONSTANT (16) << 30);
  guint n = (guint) (limit / gib4) + 1;
  g_autoptr(GString) json = g_string_new ("{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1], "
                                          "\"buffers\": {");
  g_autoptr(GError) error = NULL;
  g_autofree char *size = g_format_size_full (n * gib4, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *most = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *want = NULL;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, "%s\"%c\": {\"type\": \"u8\", \"count\": 4294967296}",
                            i ? ", " : "", 'a' + i);
  g_string_append (json, "}}");
  g_assert_null (ks_launch_parse (json->str, -1, "spec.json", &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  {
    /* placed at the last buffer's key, on the one line */
    g_autofree char *key = g_strdup_printf ("\"%c\":", 'a' + n - 1);
    const char *at = strstr (json->str, key);

    g_assert_nonnull (at);
    want = g_strdup_printf ("spec.json:1:%u: buffers.%c: the buffers up to this one take %s, over "
                            "the %s all may hold (half of this computer's memory, at most 16 GiB)",
                            (guint) (at - json->str) + 1, 'a' + n - 1, size, most);
  }
  g_assert_cmpstr (error->message, ==, want);
}

static void
test_deep_nesting (void)
{
  g_autoptr(GString) text = g_string_new ("{\"ptx\": \"k.ptx\",\n \"x\": ");
  g_autoptr(GError) error = NULL;
  g_autofree char *want = NULL;

  /* (arrays: json-glib recurses into each before it finds anything wrong) */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (text, '[');
  g_assert_null (ks_launch_parse (text->str, (gssize) text->len, "deep.json", &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  /* The outer object is level 1, so the 64th bracket of the run is the 65th */
  want = g_strdup_printf ("deep.json:2:%u: arrays and objects nested more than 64 deep",
                          (guint) strlen (" \"x\": ") + 64);
  g_assert_cmpstr (error->message, ==, want);
  g_clear_error (&error);

  /* 64 levels are within the bound: what is refused is the field */
  g_string_assign (text, "{\"ptx\": \"k.ptx\", \"grid\": [1], \"block\": [1], \"x\": ");
  for (guint i = 0; i < 63; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < 63; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "}");
  g_assert_null (ks_launch_parse (text->str, -1, "s.json", &error));
  g_assert_null (strstr (error->message, "nested"));
  g_clear_error (&error);

  /* Brackets inside strings and comments are not nesting */
  g_string_assign (text, "{\"ptx\": \"k.ptx\", \"kernel\": \"");
  for (guint i = 0; i < 100; i++)
    g_string_append (text, "[{\\\"");
  g_string_append (text, "\", /* [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ */\n"
                         "\"grid\": [1], \"block\": [1]}");
  {
    g_autoptr(KsLaunch) launch = ks_launch_parse (text->str, -1, "s.json", &error);

    g_assert_no_error (error);
    g_assert_nonnull (launch);
  }
}

/* A NUL in a string (JSON's \u0000) is refused with its place: json-glib
 * hands back the string cut at it, so "k.ptx\u0000.json" ran k.ptx
 * (issue 16).  An escaped backslash before u0000 is no NUL. */
static void
test_nul_in_string (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (ks_launch_parse ("{\"grid\": [1], \"block\": [1],\n \"ptx\": \"k.ptx\\u0000.json\"}", -1,
                                  "s.json", &error));
  g_assert_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "s.json:2:15: \\u0000 (a NUL character) in a string: no path, "
                                       "name or value here can hold one");
  g_clear_error (&error);

  {
    g_autoptr(KsLaunch) launch = ks_launch_parse ("{\"grid\": [1], \"block\": [1], "
                                                  "\"ptx\": \"a\\\\u0000.ptx\"}", -1, "s.json", &error);

    g_assert_no_error (error);
    g_assert_true (g_str_has_suffix (launch->ptx_path, "a\\u0000.ptx"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/launch/parse/full-spec", test_full);
  g_test_add_func ("/launch/parse/minimal-spec", test_minimal);
  g_test_add_func ("/launch/parse/load-file", test_load);
  g_test_add_func ("/launch/values/f16-bf16-rounding", test_f16_conversion);
  g_test_add_func ("/launch/values/random-deterministic-in-range", test_random);
  g_test_add_func ("/launch/values/buffer-recipes", test_buffer_recipes);
  g_test_add_func ("/launch/parse/textures-surfaces", test_textures);
  g_test_add_func ("/launch/parse/host-forms", test_host_forms);
  g_test_add_func ("/launch/errors/name-the-field", test_errors);
  g_test_add_func ("/launch/errors/locations", test_messages);
  g_test_add_func ("/launch/errors/deep-nesting", test_deep_nesting);
  g_test_add_func ("/launch/errors/buffer-total", test_buffer_total);
  g_test_add_func ("/launch/errors/spec-size", test_spec_size);
  g_test_add_func ("/launch/errors/nul-in-string", test_nul_in_string);
  g_test_add_func ("/launch/lifted/values", test_lifted_values);
  g_test_add_func ("/launch/lifted/errors", test_lifted_errors);

  return g_test_run ();
}
