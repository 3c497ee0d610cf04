/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a launch spec can say of the host code around a kernel, run in the
 * simulator and checked against C references or values worked out by
 * hand: module variables set and read back (cudaMemcpyToSymbol and
 * cudaMemcpyFromSymbol), pointers into the middle of a buffer, structs
 * passed by value, and several launches over the same buffers. */

#include <math.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"
#include "ks-test-sim.h"

/* out[i] = (in[i] * c_filter[i % 3]) * ns::scale + c_bias for i < n, and
 * g_counter counts the threads that wrote, as nvcc writes these variables:
 * an array as .b8 bytes, scalars with their type, a namespace's mangled */
static const char symbols_ptx[] =
  ".version 7.0\n"
  ".target sm_80\n"
  ".address_size 64\n"
  ".const .align 4 .b8 c_filter[12];\n"
  ".const .align 4 .f32 c_bias;\n"
  ".global .align 4 .u32 g_counter;\n"
  ".global .align 4 .u32 _ZN2ns5scaleE = 1;\n"
  ".visible .entry k(\n"
  "  .param .u64 k_param_0,\n"
  "  .param .u64 k_param_1,\n"
  "  .param .u32 k_param_2\n"
  ")\n"
  "{\n"
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<8>;\n"
  "  .reg .f32 %f<8>;\n"
  "  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [k_param_0];\n"
  "  ld.param.u64 %rd2, [k_param_1];\n"
  "  ld.param.u32 %r1, [k_param_2];\n"
  "  mov.u32 %r2, %tid.x;\n"
  "  setp.ge.u32 %p1, %r2, %r1;\n"
  "  @%p1 bra DONE;\n"
  "  cvta.to.global.u64 %rd3, %rd1;\n"
  "  cvta.to.global.u64 %rd4, %rd2;\n"
  "  mul.wide.u32 %rd5, %r2, 4;\n"
  "  add.s64 %rd6, %rd3, %rd5;\n"
  "  ld.global.f32 %f1, [%rd6];\n"
  "  rem.u32 %r3, %r2, 3;\n"
  "  mul.wide.u32 %rd7, %r3, 4;\n"
  "  mov.u64 %rd8, c_filter;\n"
  "  add.s64 %rd9, %rd8, %rd7;\n"
  "  ld.const.f32 %f2, [%rd9];\n"
  "  ld.const.f32 %f3, [c_bias];\n"
  "  ld.global.u32 %r4, [_ZN2ns5scaleE];\n"
  "  cvt.rn.f32.u32 %f4, %r4;\n"
  "  mul.rn.f32 %f5, %f1, %f2;\n"
  "  fma.rn.f32 %f6, %f5, %f4, %f3;\n"
  "  add.s64 %rd10, %rd4, %rd5;\n"
  "  st.global.f32 [%rd10], %f6;\n"
  "  atom.global.add.u32 %r5, [g_counter], 1;\n"
  "DONE:\n"
  "  ret;\n"
  "}\n";

static KsLaunch *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  KsLaunch *launch = ks_launch_parse (json, -1, NULL, &error);

  g_assert_no_error (error);
  return launch;
}

static void
symbols_reference (const float *in,
                   float       *out,
                   guint        n,
                   const float  filter[3],
                   float        scale,
                   float        bias)
{
  for (guint i = 0; i < n; i++)
    {
      volatile float t = in[i] * filter[i % 3];

      out[i] = fmaf (t, scale, bias);
    }
}

static void
test_symbols (void)
{
  static const float in[8] = { 1.5f, -2.0f, 3.25f, 4.0f, -0.5f, 6.0f, 7.75f, 100.0f };
  static const float filter[3] = { 0.25f, -1.0f, 3.0f };
  float expect[8];
  Run r = { 0 };
  g_autoptr(GError) error = NULL;
  KsPtxType type;
  uint64_t count;
  size_t size;
  const uint8_t *p;
  uint32_t counter;
  float got;

  /* 7 of 8 threads write; the filter given as f32 over the .b8 array, the
   * bias in the variable's own type, ns::scale by its C++ name */
  r.module = text_module (symbols_ptx);
  r.launch = parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [8],"
                    " \"buffers\": {\"in\": {\"type\": \"f32\", \"data\": [1.5, -2, 3.25, 4, -0.5, 6, 7.75, 100]},"
                    "               \"out\": {\"type\": \"f32\", \"count\": 8}},"
                    " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 7}],"
                    " \"symbols\": {\"c_filter\": {\"type\": \"f32\", \"data\": [0.25, -1, 3]},"
                    "               \"c_bias\": {\"data\": [0.5]},"
                    "               \"ns::scale\": {\"data\": [3]},"
                    "               \"g_counter\": {\"init\": {\"range\": {\"start\": 100}}}},"
                    " \"output_symbols\": [\"g_counter\", \"c_filter\", \"_ZN2ns5scaleE\"]}");
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  symbols_reference (in, expect, 7, filter, 3.0f, 0.5f);
  for (guint i = 0; i < 7; i++)
    {
      memcpy (&got, (const uint8_t *) buffer (&r, "out") + 4 * i, 4);
      g_assert_cmpfloat (got, ==, expect[i]);
    }
  memcpy (&got, (const uint8_t *) buffer (&r, "out") + 4 * 7, 4);
  g_assert_cmpfloat (got, ==, 0.0f);

  /* 100 to start with, 7 threads added one */
  p = ks_sim_get_output_symbol (r.sim, 0, &type, &count, &size);
  g_assert_cmpint (type, ==, KS_PTX_TYPE_U32);
  g_assert_cmpuint (count, ==, 1);
  memcpy (&counter, p, 4);
  g_assert_cmpuint (counter, ==, 107);
  /* read as the type "symbols" gave it */
  p = ks_sim_get_output_symbol (r.sim, 1, &type, &count, &size);
  g_assert_cmpint (type, ==, KS_PTX_TYPE_F32);
  g_assert_cmpuint (count, ==, 3);
  g_assert_cmpmem (p, 12, filter, 12);
  p = ks_sim_get_output_symbol (r.sim, 2, &type, &count, NULL);
  memcpy (&counter, p, 4);
  g_assert_cmpuint (counter, ==, 3);
  run_clear (&r);

  /* Variables "symbols" leaves out keep their initializers (zero, 1); one
   * given as bytes reads back in its own type */
  r.module = text_module (symbols_ptx);
  r.launch = parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [4],"
                    " \"buffers\": {\"in\": {\"type\": \"f32\", \"data\": [1.5, -2, 3.25, 4]},"
                    "               \"out\": {\"type\": \"f32\", \"count\": 4}},"
                    " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 4}],"
                    " \"symbols\": {\"c_filter\": {\"bytes_hex\": \"0000803f\"},"
                    "               \"g_counter\": {\"bytes_hex\": \"05000000\"}},"
                    " \"output_symbols\": [\"g_counter\"]}");
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  /* c_filter = {1, 0, 0}: out = in * filter * 1 + 0 */
  {
    static const float filter1[3] = { 1, 0, 0 };

    symbols_reference (in, expect, 4, filter1, 1.0f, 0.0f);
    g_assert_cmpmem (buffer (&r, "out"), 16, expect, 16);
  }
  memcpy (&counter, ks_sim_get_output_symbol (r.sim, 0, &type, NULL, NULL), 4);
  g_assert_cmpint (type, ==, KS_PTX_TYPE_U32);
  g_assert_cmpuint (counter, ==, 5 + 4);
  run_clear (&r);
}

static void
assert_sim_error (const char *ptx,
                  const char *json,
                  const char *message)
{
  g_autoptr(KsPtxModule) module = text_module (ptx);
  g_autoptr(KsLaunch) launch = parse (json);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSim) sim = ks_sim_new (module, launch, &error);

  g_assert_null (sim);
  g_assert_nonnull (error);
  if (!g_str_has_prefix (error->message, message))
    g_error ("expected a message starting with\n  %s\ngot\n  %s", message, error->message);
}

#define SYMBOLS_SPEC(SYM) \
  "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [4]," \
  " \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": 4}, \"out\": {\"type\": \"f32\", \"count\": 4}}," \
  " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 4}]," SYM "}"

static void
test_symbol_errors (void)
{
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"symbols\": {\"c_nope\": {\"type\": \"u32\", \"data\": [1]}}"),
                    "symbols.c_nope: test.ptx has no .global or .const variable named c_nope");
  /* 4 floats into 12 bytes */
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"symbols\": {\"c_filter\": {\"type\": \"f32\", \"data\": [1, 2, 3, 4]}}"),
                    "symbols.c_filter: 16 bytes given, more than the 12 bytes of variable c_filter");
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"symbols\": {\"c_bias\": {\"data\": [1, 2]}}"),
                    "symbols.c_bias: 8 bytes given, more than the 4 bytes");
  /* the variable's type is .b8: a float is refused, not truncated */
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"symbols\": {\"c_filter\": {\"data\": [0.5]}}"),
                    "symbols.c_filter.data[0]: ");
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"symbols\": {\"g_counter\": {\"data\": [-1]}}"),
                    "symbols.g_counter.data[0]: ");
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"output_symbols\": [\"c_filter\", \"nope\"]"),
                    "output_symbols[1]: test.ptx has no .global or .const variable named nope");
  /* a kernel's parameter is not a symbol */
  assert_sim_error (symbols_ptx, SYMBOLS_SPEC ("\"symbols\": {\"k_param_0\": {\"type\": \"u64\", \"data\": [1]}}"),
                    "symbols.k_param_0: test.ptx has no .global or .const variable named k_param_0");
}

#define BOUND_SPEC(BUF) \
  "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [4]," \
  " \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": 4}, \"out\": {\"type\": \"f32\", \"count\": 4}," \
  BUF "}, \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 4}]}"

/* A buffer that is a variable's storage ("variable"): the kernel's
 * accesses to the variable are the buffer's, its initializer is not
 * written (ns::scale holds 3, not its initializer 1), and it keeps what
 * the kernel wrote (a recorded program's cudaGetSymbolAddress and
 * __managed__ variables) */
static void
test_bound_variables (void)
{
  static const float in[8] = { 1.5f, -2.0f, 3.25f, 4.0f, -0.5f, 6.0f, 7.75f, 100.0f };
  static const float filter[3] = { 0.25f, -1.0f, 3.0f };
  float expect[8];
  Run r = { 0 };
  g_autoptr(GError) error = NULL;
  uint32_t u;

  r.module = text_module (symbols_ptx);
  r.launch = parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [8],"
                    " \"buffers\": {\"in\": {\"type\": \"f32\", \"data\": [1.5, -2, 3.25, 4, -0.5, 6, 7.75, 100]},"
                    "               \"out\": {\"type\": \"f32\", \"count\": 8},"
                    "               \"filt\": {\"type\": \"f32\", \"data\": [0.25, -1, 3], \"variable\": \"c_filter\"},"
                    "               \"bias\": {\"type\": \"f32\", \"data\": [0.5], \"variable\": \"c_bias\"},"
                    "               \"scale\": {\"type\": \"u32\", \"data\": [3], \"variable\": \"ns::scale\"},"
                    "               \"cnt\": {\"type\": \"u32\", \"data\": [100], \"variable\": \"g_counter\"}},"
                    " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 7}],"
                    " \"outputs\": [\"out\", \"cnt\"]}");
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  symbols_reference (in, expect, 7, filter, 3.0f, 0.5f);
  g_assert_cmpmem (buffer (&r, "out"), 28, expect, 28);
  memcpy (&u, buffer (&r, "cnt"), 4);
  g_assert_cmpuint (u, ==, 107);
  memcpy (&u, buffer (&r, "scale"), 4);
  g_assert_cmpuint (u, ==, 3);
  run_clear (&r);

  assert_sim_error (symbols_ptx,
                    BOUND_SPEC ("\"v\": {\"type\": \"u32\", \"count\": 1, \"variable\": \"nope\"}"),
                    "buffers.v.variable: test.ptx has no .global or .const variable named nope");
  /* 8 bytes for the 12 of c_filter */
  assert_sim_error (symbols_ptx,
                    BOUND_SPEC ("\"v\": {\"type\": \"f32\", \"count\": 2, \"variable\": \"c_filter\"}"),
                    "buffers.v.variable: the buffer has 8 bytes, and c_filter (line 4) has 12");
  /* a kernel's parameter has no storage to be */
  assert_sim_error (symbols_ptx,
                    BOUND_SPEC ("\"v\": {\"type\": \"u64\", \"count\": 1, \"variable\": \"k_param_0\"}"),
                    "buffers.v.variable: test.ptx has no .global or .const variable named k_param_0");
}

/* out[i] = in[i] for i < n (nvcc's copy loop, one thread each) */
static const char copy_ptx[] =
  ".version 7.0\n"
  ".target sm_80\n"
  ".address_size 64\n"
  ".visible .entry copy(\n"
  "  .param .u64 copy_param_0,\n"
  "  .param .u64 copy_param_1,\n"
  "  .param .u32 copy_param_2\n"
  ")\n"
  "{\n"
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [copy_param_0];\n"
  "  ld.param.u64 %rd2, [copy_param_1];\n"
  "  ld.param.u32 %r1, [copy_param_2];\n"
  "  mov.u32 %r2, %tid.x;\n"
  "  setp.ge.u32 %p1, %r2, %r1;\n"
  "  @%p1 bra DONE;\n"
  "  mul.wide.u32 %rd3, %r2, 4;\n"
  "  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.u32 %r3, [%rd4];\n"
  "  add.s64 %rd5, %rd2, %rd3;\n"
  "  st.global.u32 [%rd5], %r3;\n"
  "DONE:\n"
  "  ret;\n"
  "}\n";

static void
test_pointer_offset (void)
{
  Run r = { 0 };
  g_autoptr(GError) error = NULL;
  const uint32_t *out;
  const KsSimFault *f;

  /* kernel(d_a + 4, d_out + 2, 5): out[2..6] = a[4..8] */
  r.module = text_module (copy_ptx);
  r.launch = parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                    " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 10, \"init\": {\"range\": {\"start\": 10}}},"
                    "               \"out\": {\"type\": \"u32\", \"count\": 8}},"
                    " \"params\": [{\"buffer\": \"a\", \"offset\": 16}, {\"buffer\": \"out\", \"offset\": 8},"
                    "              {\"type\": \"u32\", \"value\": 5}]}");
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  out = buffer (&r, "out");
  {
    static const uint32_t expect[8] = { 0, 0, 14, 15, 16, 17, 18, 0 };

    g_assert_cmpmem (out, 32, expect, 32);
  }
  run_clear (&r);

  /* Relative to a + 16 bytes, 7 elements run past a's 40 bytes: the
   * seventh read (a + 40) faults against a's own bounds */
  r.module = text_module (copy_ptx);
  r.launch = parse ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                    " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 10}, \"out\": {\"type\": \"u32\", \"count\": 32}},"
                    " \"params\": [{\"buffer\": \"a\", \"offset\": 16}, {\"buffer\": \"out\"},"
                    "              {\"type\": \"u32\", \"value\": 7}]}");
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_OUT_OF_BOUNDS);
  g_assert_cmpuint (f->thread[0], ==, 6);
  g_assert_true (f->has_address);
  /* a is the first allocation: its base, plus its 40 bytes */
  g_assert_cmphex (f->address, ==, G_GUINT64_CONSTANT (0x7f0000000000) + 40);
  run_clear (&r);
}

/* struct S { unsigned a; float b; float *out; } passed by value, as nvcc
 * writes it: out[tid] = (float) (a + tid) * b */
static const char struct_ptx[] =
  ".version 7.0\n"
  ".target sm_80\n"
  ".address_size 64\n"
  ".visible .entry _Z1k1S(\n"
  "  .param .align 8 .b8 _Z1k1S_param_0[16]\n"
  ")\n"
  "{\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .f32 %f<4>;\n"
  "  .reg .b64 %rd<6>;\n"
  "  ld.param.u32 %r1, [_Z1k1S_param_0];\n"
  "  ld.param.f32 %f1, [_Z1k1S_param_0+4];\n"
  "  ld.param.u64 %rd1, [_Z1k1S_param_0+8];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r2, %tid.x;\n"
  "  add.s32 %r3, %r1, %r2;\n"
  "  cvt.rn.f32.u32 %f2, %r3;\n"
  "  mul.rn.f32 %f3, %f2, %f1;\n"
  "  mul.wide.u32 %rd3, %r2, 4;\n"
  "  add.s64 %rd4, %rd2, %rd3;\n"
  "  st.global.f32 [%rd4], %f3;\n"
  "  ret;\n"
  "}\n";

static void
test_struct_by_value (void)
{
  static const char *const params[] = {
    "{\"fields\": [{\"type\": \"u32\", \"value\": 5}, {\"type\": \"f32\", \"value\": 2.5},"
    " {\"buffer\": \"out\"}]}",
    /* the same struct, its pointer field filled in by the buffer's address
     * (0x7f0000000000, the first allocation) */
    "{\"bytes_hex\": \"0500000000002040" "00000000007f0000\"}",
  };

  for (guint k = 0; k < G_N_ELEMENTS (params); k++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [8],"
        " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 8}},"
        " \"params\": [%s]}", params[k]);
      Run r = { 0 };
      g_autoptr(GError) error = NULL;

      r.module = text_module (struct_ptx);
      r.launch = parse (json);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      ks_sim_run (r.sim, 0, NULL);
      assert_done (&r);
      for (guint i = 0; i < 8; i++)
        {
          float got;

          memcpy (&got, (const uint8_t *) buffer (&r, "out") + 4 * i, 4);
          g_assert_cmpfloat (got, ==, (float) (5 + i) * 2.5f);
        }
      run_clear (&r);
    }

  assert_sim_error (struct_ptx,
                    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [8],"
                    " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 8}},"
                    " \"params\": [{\"fields\": [{\"type\": \"u32\", \"value\": 5}, {\"buffer\": \"out\"},"
                    "                            {\"type\": \"u32\", \"value\": 1}]}]}",
                    "params[0]: the struct given is 24 bytes, but parameter _Z1k1S_param_0 is 16 bytes");
  assert_sim_error (struct_ptx,
                    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [8],"
                    " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 8}},"
                    " \"params\": [{\"fields\": [{\"type\": \"u32\", \"value\": 5}, {\"type\": \"f32\", \"value\": 1},"
                    "                            {\"type\": \"u32\", \"value\": 5}]}]}",
                    "params[0]: the struct given is 12 bytes, but parameter _Z1k1S_param_0 is 16 bytes");
  /* a scalar for a struct */
  assert_sim_error (struct_ptx,
                    "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [8],"
                    " \"buffers\": {\"out\": {\"type\": \"f32\", \"count\": 8}},"
                    " \"params\": [{\"type\": \"u64\", \"value\": 5}]}",
                    "params[0]: a u64 (8 bytes) is passed to parameter _Z1k1S_param_0 of 16 bytes");
}

static KsPtxModule *
reduce_module (void)
{
  return test_ptx_file ("sim", "sm_80", "reduce_two_pass.ptx");
}

/* Runs every launch of @launch; the last one's simulation, or the
 * faulted one's, with its index in @step */
static KsSim *
run_launches (const KsPtxModule *module,
              const KsLaunch    *launch,
              uint32_t          *step)
{
  KsSim *prev = NULL;

  for (uint32_t i = 0; i < MAX (launch->n_steps, 1); i++)
    {
      g_autoptr(GError) error = NULL;
      KsSim *sim = ks_sim_new_step (module, launch, i, prev, &error);

      g_assert_no_error (error);
      g_clear_pointer (&prev, ks_sim_free);
      prev = sim;
      *step = i;
      if (ks_sim_run (sim, 0, NULL) != KS_SIM_DONE)
        break;
    }
  return prev;
}

static void
test_launches_reduction (void)
{
  enum { N = 10000, BLOCK = 256, BLOCKS = (N + BLOCK - 1) / BLOCK };
  g_autoptr(KsPtxModule) module = reduce_module ();
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) data = g_string_new (NULL);
  g_autofree char *json = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);
  float in[N], got;
  double sum = 0;
  uint32_t step = 0;

  /* whole numbers, so that the sum is exact in any order */
  for (guint i = 0; i < N; i++)
    {
      in[i] = (float) g_rand_int_range (rand, -1000, 1001);
      sum += in[i];
      g_string_append_printf (data, "%s%.0f", i ? ", " : "", in[i]);
    }
  json = g_strdup_printf (
    "{\"ptx\": \"x.ptx\","
    " \"buffers\": {\"in\": {\"type\": \"f32\", \"data\": [%s]},"
    "               \"partial\": {\"type\": \"f32\", \"count\": %d},"
    "               \"out\": {\"type\": \"f32\", \"count\": 1}},"
    " \"launches\": ["
    "  {\"kernel\": \"_Z12partial_sumsPKfPfj\", \"grid\": [%d], \"block\": [%d],"
    "   \"dynamic_shared_bytes\": %d,"
    "   \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"partial\"}, {\"type\": \"u32\", \"value\": %d}]},"
    "  {\"kernel\": \"_Z9final_sum4SpanPf\", \"grid\": [1], \"block\": [64],"
    "   \"dynamic_shared_bytes\": 256,"
    "   \"params\": [{\"fields\": [{\"type\": \"u32\", \"value\": 0}, {\"type\": \"u32\", \"value\": %d},"
    "                            {\"buffer\": \"partial\"}]},"
    "              {\"buffer\": \"out\"}]}],"
    " \"outputs\": [\"out\"]}",
    data->str, BLOCKS, BLOCKS, BLOCK, BLOCK * 4, N, BLOCKS);
  launch = ks_launch_parse (json, -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (launch->n_steps, ==, 2);

  /* ks_sim_new runs one launch: it refuses the spec rather than run the first */
  sim = ks_sim_new (module, launch, &error);
  g_assert_null (sim);
  g_assert_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH);
  g_assert_true (g_str_has_prefix (error->message, "launches: the spec has 2 kernel launches"));
  g_clear_error (&error);

  sim = run_launches (module, launch, &step);
  g_assert_cmpuint (step, ==, 1);
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
  memcpy (&got, ks_sim_get_buffer (sim, 2, NULL), 4);
  g_assert_cmpfloat (got, ==, (float) sum);
  /* the partial sums the first launch left, each block's part in C */
  for (guint b = 0; b < BLOCKS; b++)
    {
      double part = 0;

      for (guint i = b * BLOCK; i < MIN (N, (b + 1) * BLOCK); i++)
        part += in[i];
      memcpy (&got, ks_sim_get_buffer (sim, 1, NULL) + 4 * b, 4);
      g_assert_cmpfloat (got, ==, (float) part);
    }
}

static void
test_launches_carry_symbols (void)
{
  g_autoptr(KsPtxModule) module = text_module (symbols_ptx);
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(GError) error = NULL;
  uint32_t step = 0, counter;
  float got;

  /* the second launch reads what the first wrote (out as its in) and the
   * counter goes on from the first launch's 3: symbols are written once */
  launch = ks_launch_parse (
    "{\"ptx\": \"x.ptx\","
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"data\": [1, 2, 4]}, \"b\": {\"type\": \"f32\", \"count\": 3}},"
    " \"symbols\": {\"c_filter\": {\"type\": \"f32\", \"data\": [2, 2, 2]}, \"g_counter\": {\"data\": [10]}},"
    " \"output_symbols\": [\"g_counter\"],"
    " \"launches\": ["
    "  {\"grid\": [1], \"block\": [3], \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"type\": \"u32\", \"value\": 3}]},"
    "  {\"grid\": [1], \"block\": [3], \"params\": [{\"buffer\": \"b\"}, {\"buffer\": \"a\"}, {\"type\": \"u32\", \"value\": 2}]}]}",
    -1, NULL, &error);
  g_assert_no_error (error);
  sim = run_launches (module, launch, &step);
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
  /* a[0..1] = a * 2 * 2, a[2] as given */
  memcpy (&got, ks_sim_get_buffer (sim, 0, NULL), 4);
  g_assert_cmpfloat (got, ==, 4.0f);
  memcpy (&got, ks_sim_get_buffer (sim, 0, NULL) + 4, 4);
  g_assert_cmpfloat (got, ==, 8.0f);
  memcpy (&got, ks_sim_get_buffer (sim, 0, NULL) + 8, 4);
  g_assert_cmpfloat (got, ==, 4.0f);
  memcpy (&counter, ks_sim_get_output_symbol (sim, 0, NULL, NULL, NULL), 4);
  g_assert_cmpuint (counter, ==, 15);
}

static void
test_launches_errors (void)
{
  g_autoptr(KsPtxModule) module = reduce_module ();
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(KsSim) first = NULL;
  g_autoptr(KsSim) second = NULL;
  g_autoptr(GError) error = NULL;

  /* the second launch's params are checked against its own kernel */
  launch = ks_launch_parse (
    "{\"ptx\": \"x.ptx\","
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": 4}},"
    " \"launches\": ["
    "  {\"kernel\": \"_Z12partial_sumsPKfPfj\", \"grid\": [1], \"block\": [4], \"dynamic_shared_bytes\": 16,"
    "   \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"a\"}, {\"type\": \"u32\", \"value\": 4}]},"
    "  {\"kernel\": \"_Z9final_sum4SpanPf\", \"grid\": [1], \"block\": [4],"
    "   \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"a\"}]}]}",
    -1, NULL, &error);
  g_assert_no_error (error);
  first = ks_sim_new_step (module, launch, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (first, 0, NULL), ==, KS_SIM_DONE);
  second = ks_sim_new_step (module, launch, 1, first, &error);
  g_assert_null (second);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==,
                   "launches[1].params[0]: a buffer is passed, but parameter "
                   "_Z9final_sum4SpanPf_param_0 is 16 bytes, not a pointer");
}

/* grid_sync.cu's kernels (cooperative groups' grid.sync()) */
static KsPtxModule *
grid_sync_module (void)
{
  return test_ptx_file ("sim", "sm_80", "grid_sync.ptx");
}

/* Each phase reads what other blocks wrote in the one before, so a block
 * that went on before the others had written would read zeros */
static void
test_cooperative_grid_sync (void)
{
  enum { GRID = 6, BLOCK = 96, N = GRID * BLOCK };
  g_autofree uint32_t *a = g_new (uint32_t, N);
  g_autofree int32_t *b = g_new (int32_t, N);
  int32_t out[GRID];
  int64_t total = 0, got;
  const KsSimFault *f;
  g_autoptr(GError) error = NULL;
  Run r = { 0 };

  /* the kernel's three phases, in C */
  for (uint32_t i = 0; i < N; i++)
    a[i] = i * i + 1;
  for (uint32_t i = 0; i < N; i++)
    b[i] = (int32_t) (a[(i + BLOCK) % N] - a[i]);
  for (uint32_t k = 0; k < GRID; k++)
    {
      out[k] = 0;
      for (uint32_t t = 0; t < BLOCK; t++)
        out[k] += b[k * BLOCK + t];
      total += out[k];
    }

  r.module = grid_sync_module ();
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z11grid_phasesPjPiS0_Px\","
                              " \"grid\": [6], \"block\": [96], \"cooperative\": true,"
                              " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 576},"
                              "   \"b\": {\"type\": \"s32\", \"count\": 576},"
                              "   \"out\": {\"type\": \"s32\", \"count\": 6},"
                              "   \"total\": {\"type\": \"s64\", \"count\": 1}},"
                              " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"},"
                              "   {\"buffer\": \"out\"}, {\"buffer\": \"total\"}]}",
                              -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (r.launch->cooperative);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);
  g_assert_cmpmem (buffer (&r, "a"), N * 4, a, N * 4);
  g_assert_cmpmem (buffer (&r, "b"), N * 4, b, N * 4);
  g_assert_cmpmem (buffer (&r, "out"), sizeof out, out, sizeof out);
  memcpy (&got, buffer (&r, "total"), 8);
  g_assert_cmpint (got, ==, total);
  g_clear_pointer (&r.sim, ks_sim_free);

  /* one instruction at a time, as the window steps it: the same results */
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  while (ks_sim_run (r.sim, 1 + g_test_rand_int_range (0, 300), NULL) == KS_SIM_READY)
    ;
  assert_done (&r);
  g_assert_cmpmem (buffer (&r, "b"), N * 4, b, N * 4);
  memcpy (&got, buffer (&r, "total"), 8);
  g_assert_cmpint (got, ==, total);
  g_clear_pointer (&r.sim, ks_sim_free);

  /* launched otherwise, the kernel finds no workspace and traps, as on
   * the GPU, and the message says what to do */
  r.launch->cooperative = FALSE;
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_TRAP);
  g_assert_nonnull (strstr (f->message, "cudaLaunchCooperativeKernel"));
  run_clear (&r);
}

/* A grid.sync() that block 0 never reaches: the other blocks wait for
 * ever, which the spin check finds once every block repeats */
static void
test_cooperative_deadlock (void)
{
  g_autoptr(GError) error = NULL;
  const KsSimFault *f;
  Run r = { 0 };

  r.module = grid_sync_module ();
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z17grid_sync_skippedPi\","
                              " \"grid\": [4], \"block\": [64], \"cooperative\": true,"
                              " \"buffers\": {\"out\": {\"type\": \"s32\", \"count\": 4}},"
                              " \"params\": [{\"buffer\": \"out\"}]}", -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_DEADLOCK);
  g_assert_nonnull (strstr (f->message, "every other block of the cooperative launch"));
  g_assert_cmpuint (f->block[0], !=, 0);
  run_clear (&r);

  /* more threads than any GPU holds at once */
  r.module = grid_sync_module ();
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"kernel\": \"_Z17grid_sync_skippedPi\","
                              " \"grid\": [1024], \"block\": [1024], \"cooperative\": true,"
                              " \"buffers\": {\"out\": {\"type\": \"s32\", \"count\": 1024}},"
                              " \"params\": [{\"buffer\": \"out\"}]}", -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (ks_sim_new (r.module, r.launch, &error));
  g_assert_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH);
  g_assert_true (g_str_has_prefix (error->message, "cooperative: a cooperative launch has all "
                                   "its blocks resident at once"));
  run_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/host/symbols", test_symbols);
  g_test_add_func ("/sim/host/symbol-errors", test_symbol_errors);
  g_test_add_func ("/sim/host/bound-variables", test_bound_variables);
  g_test_add_func ("/sim/host/pointer-offset", test_pointer_offset);
  g_test_add_func ("/sim/host/struct-by-value", test_struct_by_value);
  g_test_add_func ("/sim/host/launches/two-pass-reduction", test_launches_reduction);
  g_test_add_func ("/sim/host/launches/carry-symbols", test_launches_carry_symbols);
  g_test_add_func ("/sim/host/launches/errors", test_launches_errors);
  g_test_add_func ("/sim/host/cooperative/grid-sync", test_cooperative_grid_sync);
  g_test_add_func ("/sim/host/cooperative/deadlock", test_cooperative_deadlock);
  return g_test_run ();
}
