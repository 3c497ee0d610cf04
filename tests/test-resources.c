/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of kernel resources: ptxas -v and cuobjdump --dump-resource-usage
 * listings, the estimate from PTX, and running ptxas.
 *
 * The expected figures of the fixtures were copied by hand from the fixture
 * text (tests/fixtures/, see SOURCES.md there), not from the parser's output.
 */

#include <glib/gstdio.h>
#include <string.h>

#include "ks-resources.h"
#include "ks-toolchain.h"

static char *
read_fixture (const char *name,
              gsize      *len)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

/* ------------------------------------------------------------ ptxas -v */

typedef struct
{
  const char *name;
  uint32_t registers;
  uint32_t smem;
  uint32_t cmem0;
} SgemmKernel;

/* 13_sgemm_cuda_ptxas_v.sm_86.txt, in file order.  Every kernel has
 * "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" and no
 * "used N barriers" (a ptxas before CUDA 12). */
static const SgemmKernel sgemm_kernels[] = {
  { "kernel(unsigned int*, unsigned int*, int)", 10, 0, 372 },
  { "tensorMatMul(__half*, __half*, __half*)", 22, 0, 376 },
  { "void mysgemm_v7<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)", 124, 16384, 400 },
  { "void mysgemm_v6<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)", 103, 8192, 400 },
  { "void mysgemm_v5<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)", 126, 8192, 400 },
  { "void mysgemm_v4<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)", 126, 8192, 400 },
  { "void mysgemm_v3<64, 64, 8, 8>(int, int, int, float, float*, float*, float, float*)", 56, 4096, 400 },
  { "void sgemmVectorize<64, 64, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)", 102, 4096, 400 },
  { "void sgemmVectorize<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*)", 102, 8192, 400 },
  { "void sgemm2DWarpTiling<64, 64, 8, 8, 8>(int, int, int, float, float const*, float const*, float, float*)", 128, 4096, 400 },
  { "void sgemm2DWarpTiling<128, 128, 8, 8, 8>(int, int, int, float, float const*, float const*, float, float*)", 128, 8192, 400 },
  { "void sgemm1DWarpTiling<64, 64, 8, 8>(int, int, int, float, float const*, float const*, float, float*)", 48, 4096, 400 },
  { "void sgemm_shared_mem_block<32>(int, int, int, float, float const*, float const*, float, float*)", 37, 8192, 400 },
  { "void sgemm_global_mem_coalesce<32u>(int, int, int, float, float const*, float const*, float, float*)", 40, 0, 400 },
  { "sgemm_naive(int, int, int, float, float const*, float const*, float, float*)", 36, 0, 400 },
};

static void
test_ptxas_sgemm_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autofree char *text = NULL;
  gsize len;

  text = read_fixture ("13_sgemm_cuda_ptxas_v.sm_86.txt", &len);
  res = ks_resources_parse_ptxas (text, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, G_N_ELEMENTS (sgemm_kernels));

  for (guint i = 0; i < G_N_ELEMENTS (sgemm_kernels); i++)
    {
      const SgemmKernel *want = &sgemm_kernels[i];
      const KsKernelResources *r = g_ptr_array_index (res, i);

      g_assert_cmpstr (r->name, ==, want->name);
      g_assert_cmpstr (r->arch, ==, "sm_86");
      g_assert_cmpint (r->source, ==, KS_RESOURCES_SOURCE_PTXAS);
      g_assert_true (r->is_entry);
      g_assert_cmpuint (r->registers, ==, want->registers);
      g_assert_cmpuint (r->shared_static_bytes, ==, want->smem);
      g_assert_cmpuint (r->constant_bytes[0], ==, want->cmem0);
      for (guint b = 1; b < KS_RESOURCES_N_CONSTANT_BANKS; b++)
        g_assert_cmpuint (r->constant_bytes[b], ==, 0);
      g_assert_cmpuint (r->local_bytes, ==, 0);
      g_assert_cmpuint (r->spill_store_bytes, ==, 0);
      g_assert_cmpuint (r->spill_load_bytes, ==, 0);
      g_assert_cmpuint (r->fields, ==, KS_RESOURCES_HAS_REGISTERS | KS_RESOURCES_HAS_STACK);
      g_assert_true (ks_resources_find (res, want->name, "sm_86") == r);
    }
  g_assert_null (ks_resources_find (res, "sgemm_naive", NULL));
}

/* What ptxas 13.0 prints for tests/ptx/corpus/sm_80/07_recursion.ptx and
 * 09_local_array.ptx (ptxas -v -arch=sm_80 --warn-on-spills), joined: the
 * barriers figure, device functions with only a stack line, spills,
 * cumulative stack size, "Compile time", warnings. */
static const char ptxas13_output[] =
  "ptxas warning : Registers are spilled to local memory in function '_Z3fibi', 20 bytes spill stores, 20 bytes spill loads\n"
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function '_Z16recursion_kernelPyPiPKiiS0_' for 'sm_80'\n"
  "ptxas info    : Function properties for _Z16recursion_kernelPyPiPKiiS0_\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 28 registers, used 0 barriers, 392 bytes cmem[0]\n"
  "ptxas info    : Compile time = 17.289 ms\n"
  "ptxas info    : Function properties for _Z3fibi\n"
  "    24 bytes stack frame, 20 bytes spill stores, 20 bytes spill loads\n"
  "ptxas info    : 107 bytes gmem, 77 bytes cmem[3], 88 bytes cmem[4]\n"
  "ptxas info    : Compiling entry function '_Z7permutePKfPfPKii' for 'sm_80'\n"
  "ptxas info    : Function properties for _Z7permutePKfPfPKii\n"
  "    128 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 32 registers, used 1 barriers, 1024 bytes smem, 128 bytes cumulative stack size, 380 bytes cmem[0], 4 bytes cmem[2]\n"
  "ptxas info    : Compile time = 14.879 ms\n";

static void
test_ptxas_cuda13 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = NULL;
  const KsKernelResources *r;

  res = ks_resources_parse_ptxas (ptxas13_output, strlen (ptxas13_output), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 3);

  r = g_ptr_array_index (res, 0);
  g_assert_cmpstr (r->name, ==, "_Z16recursion_kernelPyPiPKiiS0_");
  g_assert_cmpstr (r->arch, ==, "sm_80");
  g_assert_true (r->is_entry);
  g_assert_cmpuint (r->registers, ==, 28);
  g_assert_cmpuint (r->barriers, ==, 0);
  g_assert_cmpuint (r->constant_bytes[0], ==, 392);
  g_assert_cmpuint (r->line, ==, 3);
  g_assert_cmpuint (r->fields, ==, KS_RESOURCES_HAS_REGISTERS | KS_RESOURCES_HAS_STACK
                                   | KS_RESOURCES_HAS_BARRIERS);

  /* A device function: figures of its frame, no registers of its own */
  r = g_ptr_array_index (res, 1);
  g_assert_cmpstr (r->name, ==, "_Z3fibi");
  g_assert_cmpstr (r->arch, ==, "sm_80");
  g_assert_false (r->is_entry);
  g_assert_cmpuint (r->fields, ==, KS_RESOURCES_HAS_STACK);
  g_assert_cmpuint (r->local_bytes, ==, 24);
  g_assert_cmpuint (r->spill_store_bytes, ==, 20);
  g_assert_cmpuint (r->spill_load_bytes, ==, 20);

  r = g_ptr_array_index (res, 2);
  g_assert_cmpstr (r->name, ==, "_Z7permutePKfPfPKii");
  g_assert_cmpuint (r->registers, ==, 32);
  g_assert_cmpuint (r->barriers, ==, 1);
  g_assert_cmpuint (r->shared_static_bytes, ==, 1024);
  g_assert_cmpuint (r->local_bytes, ==, 128);
  g_assert_cmpuint (r->cumulative_stack_bytes, ==, 128);
  g_assert_cmpuint (r->constant_bytes[0], ==, 380);
  g_assert_cmpuint (r->constant_bytes[2], ==, 4);
  /* module-scope cmem[3] of the gmem line belongs to no function */
  g_assert_cmpuint (r->constant_bytes[3], ==, 0);
  g_assert_true (r->fields & KS_RESOURCES_HAS_CUMULATIVE_STACK);
}

/* ptxas -c (and older versions) print device functions before the kernel
 * they were compiled with; figures in any order; Fermi-era "N+M" sums;
 * nvcc's own lines in between; CRLF line ends; no final newline. */
static void
test_ptxas_variants (void)
{
  static const char text[] =
    "kernel.cu(12): warning #177-D: variable \"x\" was declared but never referenced\r\n"
    "ptxas info    : 0 bytes gmem\r\n"
    "ptxas info    : Function properties for _Z6helperi\r\n"
    "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\r\n"
    "ptxas info    : Compiling entry function 'void k<'a'>(char)' for 'sm_90a'\r\n"
    "ptxas info    : Function properties for void k<'a'>(char)\r\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\r\n"
    "ptxas info    : Used 8 registers, 2 textures, 16+0 bytes smem, used 2 barriers, 40 bytes lmem\r\n"
    "ptxas info    : Overriding maximum register limit 256 for 'k' with  24 of maxrregcount option\r\n"
    "ptxas info    : Compiling entry function 'old' for 'sm_52'\r\n"
    "ptxas info    : Used 12 registers, 336 bytes cmem[0], 8 bytes cmem[2]";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = ks_resources_parse_ptxas (text, strlen (text), &error);
  const KsKernelResources *r;

  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 3);

  r = g_ptr_array_index (res, 0);
  g_assert_cmpstr (r->name, ==, "_Z6helperi");
  g_assert_cmpstr (r->arch, ==, "sm_90a");
  g_assert_cmpuint (r->local_bytes, ==, 8);
  g_assert_cmpuint (r->spill_store_bytes, ==, 4);

  r = g_ptr_array_index (res, 1);
  g_assert_cmpstr (r->name, ==, "void k<'a'>(char)");
  g_assert_cmpstr (r->arch, ==, "sm_90a");
  g_assert_cmpuint (r->registers, ==, 8);
  g_assert_cmpuint (r->shared_static_bytes, ==, 16);
  g_assert_cmpuint (r->barriers, ==, 2);
  g_assert_cmpuint (r->local_bytes, ==, 40);

  /* No "Function properties" line at all */
  r = g_ptr_array_index (res, 2);
  g_assert_cmpstr (r->name, ==, "old");
  g_assert_cmpstr (r->arch, ==, "sm_52");
  g_assert_cmpuint (r->registers, ==, 12);
  g_assert_cmpuint (r->constant_bytes[2], ==, 8);
  g_assert_cmpuint (r->fields, ==, KS_RESOURCES_HAS_REGISTERS);
}

typedef struct
{
  const char *path;
  const char *text;
  const char *message_start;
} Malformed;

static const Malformed malformed[] = {
  { "/resources/ptxas/malformed/registers",
    "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
    "ptxas info    : Used ten registers, 372 bytes cmem[0]\n",
    "line 2: cannot read the figure “Used ten registers”" },
  { "/resources/ptxas/malformed/no-function",
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Used 10 registers\n",
    "line 2: resource figures before any function" },
  { "/resources/ptxas/malformed/stack-line",
    "ptxas info    : Function properties for f\n"
    "\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill lods\n",
    "line 3: cannot read the figure “0 bytes spill lods”" },
  { "/resources/ptxas/malformed/cmem-bank",
    "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
    "ptxas info    : Used 10 registers, 372 bytes cmem[99]\n",
    "line 2: constant bank 99" },
  { "/resources/ptxas/malformed/compiling",
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function k for sm_80\n",
    "line 3: expected 'NAME' for 'ARCH'" },
  { "/resources/ptxas/malformed/no-arch",
    "ptxas info    : Compiling entry function 'k' for '\n",
    "line 1: no architecture after “for”" },
  { "/resources/ptxas/malformed/overflow",
    "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
    "ptxas info    : Used 99999999999 registers\n",
    "line 2: cannot read the figure" },
  { "/resources/ptxas/malformed/gmem",
    "ptxas info    : 12 bytes gmem; 3\n",
    "line 1: cannot read" },
};

static void
test_ptxas_malformed (gconstpointer data)
{
  const Malformed *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = ks_resources_parse_ptxas (c->text, strlen (c->text), &error);

  g_assert_null (res);
  g_assert_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_PARSE);
  if (!g_str_has_prefix (error->message, c->message_start))
    g_error ("message “%s” does not start with “%s”", error->message, c->message_start);
}

/* ptxas 13.0's error lines, as it prints them for a PTX file with two bad
 * instructions, become FILE:LINE messages */
static void
test_ptxas_tool_errors (void)
{
  static const char text[] =
    "ptxas /tmp/bad.ptx, line 7; error   : Arguments mismatch for instruction 'mov'\n"
    "ptxas /tmp/bad.ptx, line 8; error   : Unknown symbol '%r9'\n"
    "ptxas fatal   : Ptx assembly aborted due to errors\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = ks_resources_parse_ptxas (text, strlen (text), &error);

  g_assert_null (res);
  g_assert_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_TOOL);
  g_assert_nonnull (strstr (error->message,
                            "/tmp/bad.ptx:7: error: Arguments mismatch for instruction 'mov'\n"
                            "/tmp/bad.ptx:8: error: Unknown symbol '%r9'\n"
                            "ptxas fatal: Ptx assembly aborted due to errors"));
}

static void
test_ptxas_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = ks_resources_parse_ptxas ("", 0, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 0);
}

/* ------------------------------------------------- cuobjdump resource usage */

static void
test_resource_usage_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autofree char *text = NULL;
  const KsKernelResources *r;
  gsize len;

  /* "Function _Z11my_copysignPd:" then "REG:9 STACK:0 SHARED:0 LOCAL:0
   * CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0"; the "arch = sm_70"
   * further down belongs to the PTX section, not to this ELF one */
  text = read_fixture ("12_celeritas_copysign.sm_70.dump-resource-usage.txt", &len);
  res = ks_resources_parse_resource_usage (text, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 1);

  r = g_ptr_array_index (res, 0);
  g_assert_cmpstr (r->name, ==, "_Z11my_copysignPd");
  g_assert_null (r->arch);
  g_assert_cmpint (r->source, ==, KS_RESOURCES_SOURCE_RESOURCE_USAGE);
  g_assert_cmpuint (r->registers, ==, 9);
  g_assert_cmpuint (r->local_bytes, ==, 0);
  g_assert_cmpuint (r->shared_static_bytes, ==, 0);
  g_assert_cmpuint (r->constant_bytes[0], ==, 360);
  g_assert_cmpuint (r->line, ==, 4);
  g_assert_cmpuint (r->fields, ==, KS_RESOURCES_HAS_REGISTERS | KS_RESOURCES_HAS_STACK);
  g_assert_cmpstr (ks_resources_source_name (r->source), ==, "resource-usage");
}

static void
test_resource_usage_fatbin (void)
{
  static const char text[] =
    "\n"
    "Fatbin elf code:\n"
    "================\n"
    "arch = sm_86\n"
    "code version = [1,7]\n"
    "host = linux\n"
    "compile_size = 64bit\n"
    "\n"
    "Resource usage:\n"
    " Common:\n"
    "  GLOBAL:0 CONSTANT[3]:77\n"
    " Function _Z1kPf:\n"
    "  REG:40 STACK:16 SHARED:4096 LOCAL:8 CONSTANT[0]:368 CONSTANT[2]:12 TEXTURE:0 SURFACE:0 SAMPLER:0 NEWKEY:3\n"
    " Function _Z1gv:\n"
    "  REG:8 STACK:0 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
    "\n"
    "Fatbin elf code:\n"
    "================\n"
    "arch = sm_90\n"
    "\n"
    "Resource usage:\n"
    " Function _Z1kPf:\n"
    "  REG:38 STACK:0 SHARED:4096 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = ks_resources_parse_resource_usage (text, strlen (text), &error);
  const KsKernelResources *r;

  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 3);

  r = ks_resources_find (res, "_Z1kPf", "sm_86");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->registers, ==, 40);
  g_assert_cmpuint (r->local_bytes, ==, 24);
  g_assert_cmpuint (r->shared_static_bytes, ==, 4096);
  g_assert_cmpuint (r->constant_bytes[0], ==, 368);
  g_assert_cmpuint (r->constant_bytes[2], ==, 12);
  g_assert_cmpuint (r->constant_bytes[3], ==, 0);

  r = ks_resources_find (res, "_Z1kPf", "sm_90");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->registers, ==, 38);
  g_assert_cmpstr (((KsKernelResources *) g_ptr_array_index (res, 1))->arch, ==, "sm_86");
}

static void
test_resource_usage_malformed (void)
{
  static const char bad_value[] =
    "Resource usage:\n"
    " Function k:\n"
    "  REG:9 STACK:x SHARED:0\n";
  static const char bad_function[] =
    "Resource usage:\n"
    " Common:\n"
    "  GLOBAL:0\n"
    " Function k\n";
  static const char bad_bank[] =
    " Function k:\n"
    "  REG:9 CONSTANT[x]:4\n";
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  g_assert_null (ks_resources_parse_resource_usage (bad_value, strlen (bad_value), &e1));
  g_assert_error (e1, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (e1->message, "line 3: expected a number after “STACK:”"));

  g_assert_null (ks_resources_parse_resource_usage (bad_function, strlen (bad_function), &e2));
  g_assert_error (e2, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (e2->message, "line 4: expected “Function NAME:”"));

  g_assert_null (ks_resources_parse_resource_usage (bad_bank, strlen (bad_bank), &e3));
  g_assert_error (e3, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (e3->message, "line 2: cannot read the constant bank"));
}

/* ---------------------------------------------------------------- Estimate */

/* Shared layout (declaration order, each at its alignment), for k:
 *   tile  module scope, .align 16, 100 bytes    ->   0 .. 100
 *   hs    helper's, .align 8, 24 bytes          -> 104 .. 128 (reached by the call)
 *   ks    k's own, .align 4, 10 bytes           -> 128 .. 138
 * unused (never named) and dyn (extern, dynamic) take nothing: 138 bytes.
 * Barriers: bar.sync 1, barrier.sync 0, helper's bar.sync 3 -> ids 0..3, 4;
 * bar.warp.sync and barrier.cluster are not named barriers. */
static const char estimate_ptx[] =
  ".version 8.0\n"
  ".target sm_80\n"
  ".address_size 64\n"
  "\n"
  ".shared .align 16 .b8 tile[100];\n"
  ".shared .align 4 .b8 unused[4096];\n"
  ".extern .shared .align 16 .b8 dyn[];\n"
  "\n"
  ".visible .func helper()\n"
  "{\n"
  "  .reg .b32 %r<2>;\n"
  "  .shared .align 8 .b8 hs[24];\n"
  "  mov.u32 %r1, hs;\n"
  "  st.shared.u32 [%r1], %r1;\n"
  "  bar.sync 3;\n"
  "  ret;\n"
  "}\n"
  "\n"
  ".visible .entry k(.param .u64 k_p, .param .u32 k_n)\n"
  "{\n"
  "  .reg .b32 %r<4>;\n"
  "  .reg .b64 %rd<2>;\n"
  "  .shared .align 4 .b8 ks[10];\n"
  "  .local .align 8 .b8 __local_depot0[40];\n"
  "  mov.u32 %r1, ks;\n"
  "  mov.u32 %r2, tile;\n"
  "  st.shared.u32 [%r1], %r2;\n"
  "  bar.sync 1;\n"
  "  barrier.sync 0;\n"
  "  bar.warp.sync -1;\n"
  "  call helper, ();\n"
  "  ret;\n"
  "}\n"
  "\n"
  /* Eight loads live at once in 32-bit registers, plus a 64-bit address:
   * 10 registers of pressure, + 2 reserved = 12 */
  ".visible .entry sum8(.param .u64 sum8_p)\n"
  "{\n"
  "  .reg .f32 %f<16>;\n"
  "  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [sum8_p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  ld.global.f32 %f1, [%rd2];\n"
  "  ld.global.f32 %f2, [%rd2+4];\n"
  "  ld.global.f32 %f3, [%rd2+8];\n"
  "  ld.global.f32 %f4, [%rd2+12];\n"
  "  ld.global.f32 %f5, [%rd2+16];\n"
  "  ld.global.f32 %f6, [%rd2+20];\n"
  "  ld.global.f32 %f7, [%rd2+24];\n"
  "  ld.global.f32 %f8, [%rd2+28];\n"
  "  add.f32 %f9, %f1, %f2;\n"
  "  add.f32 %f10, %f3, %f4;\n"
  "  add.f32 %f11, %f5, %f6;\n"
  "  add.f32 %f12, %f7, %f8;\n"
  "  add.f32 %f13, %f9, %f10;\n"
  "  add.f32 %f14, %f11, %f12;\n"
  "  add.f32 %f15, %f13, %f14;\n"
  "  st.global.f32 [%rd2], %f15;\n"
  "  ret;\n"
  "}\n"
  "\n"
  /* A value made before a loop and read after it is live all through the
   * loop: %rd1 (2) + %f1..%f4 (4) + %r1, %r2 (2) = 8, + 2 = 10.  The
   * predicated write of %f4 does not end its life, so it stays live from
   * the top. */
  ".visible .entry loop(.param .u64 loop_p, .param .u32 loop_n)\n"
  "{\n"
  "  .reg .pred %p<2>;\n"
  "  .reg .b32 %r<3>;\n"
  "  .reg .f32 %f<6>;\n"
  "  .reg .b64 %rd<2>;\n"
  "  ld.param.u64 %rd1, [loop_p];\n"
  "  ld.param.u32 %r2, [loop_n];\n"
  "  mov.u32 %r1, 0;\n"
  "  mov.f32 %f1, 0f3F800000;\n"
  "  mov.f32 %f2, 0f40000000;\n"
  "  mov.f32 %f3, 0f40400000;\n"
  "$L_top:\n"
  "  add.f32 %f1, %f1, %f2;\n"
  "  add.u32 %r1, %r1, 1;\n"
  "  setp.lt.u32 %p1, %r1, %r2;\n"
  "  @%p1 mov.f32 %f4, %f1;\n"
  "  @%p1 bra $L_top;\n"
  "  add.f32 %f5, %f3, %f4;\n"
  "  st.global.f32 [%rd1], %f5;\n"
  "  ret;\n"
  "}\n";

static KsPtxModule *
parse_text (const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (bytes, "estimate.ptx");

  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    if (m->diagnostics[i].severity == KS_PTX_SEVERITY_ERROR)
      g_error ("estimate.ptx:%u: %s", m->diagnostics[i].line, m->diagnostics[i].message);
  return m;
}

static uint32_t
function_index (const KsPtxModule *m,
                const char        *name)
{
  const KsPtxFunction *fn = ks_ptx_module_find_function (m, name);

  g_assert_nonnull (fn);
  return (uint32_t) (fn - m->functions);
}

static void
test_estimate_shared_barriers (void)
{
  g_autoptr(KsPtxModule) m = parse_text (estimate_ptx);
  g_autoptr(KsKernelResources) r = ks_resources_estimate (m, function_index (m, "k"));

  g_assert_nonnull (r);
  g_assert_cmpstr (r->name, ==, "k");
  g_assert_cmpstr (r->arch, ==, "sm_80");
  g_assert_cmpint (r->source, ==, KS_RESOURCES_SOURCE_ESTIMATE);
  g_assert_cmpstr (ks_resources_source_name (r->source), ==, "estimate");
  g_assert_true (r->is_entry);
  g_assert_cmpuint (r->shared_static_bytes, ==, 138);
  g_assert_cmpuint (r->barriers, ==, 4);
  g_assert_cmpuint (r->local_bytes, ==, 40);
  /* 0x160 + 8 + 4 */
  g_assert_cmpuint (r->constant_bytes[0], ==, 364);
  g_assert_cmpuint (r->spill_store_bytes, ==, 0);
  g_assert_false (r->fields & KS_RESOURCES_HAS_STACK);
  /* k calls helper: the ABI floor of 24 */
  g_assert_cmpuint (r->registers, ==, 24);
}

static void
test_estimate_helper (void)
{
  g_autoptr(KsPtxModule) m = parse_text (estimate_ptx);
  g_autoptr(KsKernelResources) r = ks_resources_estimate (m, function_index (m, "helper"));

  g_assert_nonnull (r);
  g_assert_false (r->is_entry);
  g_assert_cmpuint (r->shared_static_bytes, ==, 24);
  g_assert_cmpuint (r->barriers, ==, 4);
  g_assert_cmpuint (r->constant_bytes[0], ==, 0);
  g_assert_cmpuint (r->registers, ==, 8);

  g_assert_null (ks_resources_estimate (m, m->n_functions));
}

static void
test_estimate_registers (void)
{
  g_autoptr(KsPtxModule) m = parse_text (estimate_ptx);
  g_autoptr(KsKernelResources) sum8 = ks_resources_estimate (m, function_index (m, "sum8"));
  g_autoptr(KsKernelResources) loop = ks_resources_estimate (m, function_index (m, "loop"));

  /* The documented heuristic, exactly */
  g_assert_cmpuint (sum8->registers, ==, 12);
  g_assert_cmpuint (sum8->shared_static_bytes, ==, 0);
  g_assert_cmpuint (sum8->barriers, ==, 0);
  g_assert_cmpuint (loop->registers, ==, 10);
  /* and always inside what ptxas can report */
  g_assert_cmpuint (sum8->registers, >=, 8);
  g_assert_cmpuint (loop->registers, <=, 255);
}

/* ---------------------------------------------------------------- ptxas */

static void
test_ptxas_run_reduce (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "ptx", "corpus", "sm_80",
                                                 "03_reduce_shared.ptx", NULL);
  g_autoptr(KsPtxModule) m = NULL;
  g_autoptr(KsKernelResources) est = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autoptr(GError) error = NULL;
  const char *name = "_Z17reduce_sum_sharedPKfPfi";
  const KsKernelResources *real;

  if (ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("ptxas not found (PATH, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda/bin)");
      return;
    }
  g_test_message ("ptxas %s at %s", tc->version ? tc->version : "(unknown version)",
                  ks_toolchain_get_path (tc, KS_TOOL_PTXAS));

  res = ks_toolchain_ptxas_resources (tc, path, "sm_80", NULL, &error);
  g_assert_no_error (error);
  real = ks_resources_find (res, name, "sm_80");
  g_assert_nonnull (real);

  m = ks_ptx_module_parse_file (path, &error);
  g_assert_no_error (error);
  est = ks_resources_estimate (m, function_index (m, name));

  g_test_message ("registers: ptxas %u, estimate %u", real->registers, est->registers);
  g_assert_cmpuint (real->shared_static_bytes, ==, 1024);
  g_assert_cmpuint (est->shared_static_bytes, ==, real->shared_static_bytes);
  g_assert_true (real->fields & KS_RESOURCES_HAS_BARRIERS);
  g_assert_cmpuint (est->barriers, ==, real->barriers);
  g_assert_cmpuint (est->constant_bytes[0], ==, real->constant_bytes[0]);
  g_assert_cmpuint (est->registers, <=, 2 * real->registers);
  g_assert_cmpuint (2 * est->registers, >=, real->registers);
}

/* A module of three kernels: `a` calls `helper`, `b` and `c` call
 * nothing; `pick` is named only by the initializer of a table of function
 * pointers, which every kernel's part keeps.  Written by hand, so what
 * each kernel reaches is known without the code under test. */
static const char cut_ptx[] =
  ".version 8.0\n"                                                        /* 1 */
  ".target sm_80\n"
  ".address_size 64\n"
  ".func (.param .b32 r) helper (.param .b32 x);\n"
  ".func (.param .b32 r) pick (.param .b32 x)\n"                          /* 5 */
  "{\n  .reg .b32 %r<2>;\n  ld.param.b32 %r1, [x];\n  st.param.b32 [r], %r1;\n  ret;\n}\n"
  ".global .align 8 .u64 table[1] = {pick};\n"                            /* 12 */
  ".visible .entry b (.param .u64 p)\n"                                   /* 13 */
  "{\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], 7;\n  ret;\n}\n"
  ".visible .entry a (.param .u64 p) { .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"  /* 20 */
  "  ld.param.u64 %rd1, [p];\n  ld.global.u32 %r1, [%rd1];\n"
  "  { .param .b32 x0; .param .b32 r0; st.param.b32 [x0], %r1;\n"
  "    call.uni (r0), helper, (x0); ld.param.b32 %r2, [r0]; }\n"
  "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n"                             /* 24-26 */
  ".func (.param .b32 r) helper (.param .b32 x)\n"                        /* 27: the definition */
  "{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [x];\n  add.s32 %r2, %r1, 1;\n"
  "  st.param.b32 [r], %r2;\n  ret;\n}\n"
  "  .visible .entry c () { ret; } // c\n";                                /* 35 */

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
    n++;
  return n;
}

static gboolean
has_body (const KsPtxModule *m,
          const char        *name)
{
  const KsPtxFunction *fn = ks_ptx_module_find_function (m, name);

  return fn != NULL && (fn->flags & KS_PTX_FUNCTION_HAS_BODY) != 0;
}

static void
test_one_kernel_text (void)
{
  g_autoptr(KsPtxModule) m = parse_text (cut_ptx);
  struct { const char *root; gboolean a, b, c, helper, pick; uint32_t blanked; } cases[] = {
    { "a", TRUE, FALSE, FALSE, TRUE, TRUE, 2 },
    { "b", FALSE, TRUE, FALSE, FALSE, TRUE, 3 },
    { "c", FALSE, FALSE, TRUE, FALSE, TRUE, 3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = 0;
      uint32_t blanked = 0;
      g_autofree char *text = ks_ptx_module_text_for_function (m, function_index (m, cases[i].root),
                                                               &len, &blanked);
      g_autoptr(KsPtxModule) part = NULL;

      g_assert_nonnull (text);
      g_assert_cmpuint (len, ==, strlen (text));
      g_assert_cmpuint (blanked, ==, cases[i].blanked);
      /* every line keeps its number: the same count of lines, and the
       * kernel's own first line is where it was */
      g_assert_cmpuint (count_lines (text), ==, count_lines (cut_ptx));
      part = parse_text (text);
      g_assert_cmpuint (has_body (part, "a"), ==, cases[i].a);
      g_assert_cmpuint (has_body (part, "b"), ==, cases[i].b);
      g_assert_cmpuint (has_body (part, "c"), ==, cases[i].c);
      g_assert_cmpuint (has_body (part, "helper"), ==, cases[i].helper);
      g_assert_cmpuint (has_body (part, "pick"), ==, cases[i].pick);
      /* helper's declaration goes with its definition (ptxas wants every
       * declared function defined); the table stays */
      g_assert_cmpuint (ks_ptx_module_find_function (part, "helper") != NULL, ==, cases[i].helper);
      g_assert_nonnull (strstr (text, ".global .align 8 .u64 table[1] = {pick};"));
      g_assert_cmpuint (ks_ptx_module_find_function (part, cases[i].root)->line, ==,
                        ks_ptx_module_find_function (m, cases[i].root)->line);
    }

  /* c is the last text of the module: the comment after it stays */
  {
    g_autofree char *text = ks_ptx_module_text_for_function (m, function_index (m, "a"), NULL, NULL);

    g_assert_true (g_str_has_suffix (text, "\n   // c\n"));
  }
  /* nothing to leave out: a module of one kernel */
  {
    g_autoptr(KsPtxModule) one =
      parse_text (".version 8.0\n.target sm_80\n.address_size 64\n.entry k () { ret; }\n");
    gsize len = 1;

    g_assert_null (ks_ptx_module_text_for_function (one, 0, &len, NULL));
    g_assert_cmpuint (len, ==, 0);
  }
  /* DWARF sections name functions from outside them: not cut */
  {
    g_autofree char *with_dwarf =
      g_strconcat (cut_ptx, ".section .debug_info { .b64 a }\n", NULL);
    g_autoptr(KsPtxModule) dw = parse_text (with_dwarf);

    g_assert_cmpuint (dw->n_sections, ==, 1);
    g_assert_null (ks_ptx_module_text_for_function (dw, function_index (dw, "b"), NULL, NULL));
  }
}

/* The same resources for each kernel whether ptxas assembles the whole
 * module or only the kernel's part of it: ptxas itself is the reference,
 * over the corpus's modules of several kernels (device functions,
 * function pointers, extern and rdc code among them) */
static void
test_ptxas_one_kernel (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "ptx", "corpus", "sm_80", NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(GError) error = NULL;
  const char *file;
  guint n_kernels = 0, n_cut = 0;

  if (ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("ptxas not found (PATH, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda/bin)");
      return;
    }
  tmpdir = g_dir_make_tmp ("ks-test-cut-XXXXXX", &error);
  g_assert_no_error (error);
  d = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autoptr(KsPtxModule) m = NULL;
      g_autoptr(GPtrArray) whole = NULL;

      if (!g_str_has_suffix (file, ".ptx"))
        continue;
      m = ks_ptx_module_parse_file (path, &error);
      g_assert_no_error (error);
      if (ks_ptx_module_has_errors (m) || ks_ptx_module_n_entries (m) < 2)
        continue;
      whole = ks_toolchain_ptxas_resources (tc, path, "sm_80", NULL, &error);
      /* (dynamic parallelism's module is assembled with -c only) */
      if (whole == NULL)
        {
          g_test_message ("%s: %s", file, error->message);
          g_clear_error (&error);
          continue;
        }

      for (uint32_t f = 0; f < m->n_functions; f++)
        {
          g_autofree char *name = NULL, *text = NULL, *part_path = NULL;
          g_autoptr(GPtrArray) part = NULL;
          const KsKernelResources *w, *p;
          gsize len = 0;

          if (m->functions[f].kind != KS_PTX_FUNCTION_ENTRY
              || (m->functions[f].flags & KS_PTX_FUNCTION_HAS_BODY) == 0)
            continue;
          n_kernels++;
          text = ks_ptx_module_text_for_function (m, f, &len, NULL);
          if (text == NULL)
            continue;
          n_cut++;
          name = ks_ptx_span_dup (m, m->functions[f].name);
          part_path = g_build_filename (tmpdir, "part.ptx", NULL);
          g_file_set_contents (part_path, text, (gssize) len, &error);
          g_assert_no_error (error);
          part = ks_toolchain_ptxas_resources (tc, part_path, "sm_80", NULL, &error);
          g_assert_no_error (error);
          g_unlink (part_path);

          w = ks_resources_find (whole, name, "sm_80");
          p = ks_resources_find (part, name, "sm_80");
          g_assert_nonnull (w);
          g_assert_nonnull (p);
          g_test_message ("%s %s: %u registers", file, name, p->registers);
          g_assert_cmpuint (p->registers, ==, w->registers);
          g_assert_cmpuint (p->shared_static_bytes, ==, w->shared_static_bytes);
          g_assert_cmpuint (p->local_bytes, ==, w->local_bytes);
          g_assert_cmpuint (p->cumulative_stack_bytes, ==, w->cumulative_stack_bytes);
          g_assert_cmpuint (p->spill_store_bytes, ==, w->spill_store_bytes);
          g_assert_cmpuint (p->spill_load_bytes, ==, w->spill_load_bytes);
          g_assert_cmpuint (p->barriers, ==, w->barriers);
          g_assert_cmpmem (p->constant_bytes, sizeof p->constant_bytes,
                           w->constant_bytes, sizeof w->constant_bytes);
          /* and the other kernels were left out */
          g_assert_cmpuint (part->len, <, whole->len);
        }
    }
  g_rmdir (tmpdir);
  g_test_message ("%u kernels, %u assembled alone", n_kernels, n_cut);
  g_assert_cmpuint (n_cut, >=, 50);
}

static void
test_ptxas_run_error (void)
{
  static const char bad[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %foo;\n  ret;\n}\n";
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *want = NULL;

  if (ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("ptxas not found");
      return;
    }

  dir = g_dir_make_tmp ("test-resources-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "bad.ptx", NULL);
  g_file_set_contents (path, bad, -1, &error);
  g_assert_no_error (error);

  res = ks_toolchain_ptxas_resources (tc, path, "sm_80", NULL, &error);
  g_assert_null (res);
  g_assert_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_TOOL);
  want = g_strdup_printf ("%s:7: error: ", path);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, want));

  g_clear_error (&error);
  res = ks_toolchain_ptxas_resources (tc, path, "-o/tmp/x", NULL, &error);
  g_assert_null (res);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

  g_unlink (path);
  g_rmdir (dir);
}

/* A stand-in ptxas that reports its arguments and working directory as a
 * kernel name, to check the command line and the private directory without
 * the toolkit. */
static void
test_toolchain_fake (void)
{
  static const char script[] =
    "#!/bin/sh\n"
    "if [ \"$1\" = --version ]; then\n"
    "  echo 'ptxas: NVIDIA (R) Ptx optimizing assembler'\n"
    "  echo 'Cuda compilation tools, release 12.4, V12.4.131'\n"
    "  exit 0\n"
    "fi\n"
    "echo \"ptxas info    : Compiling entry function '$*|$PWD|$TMPDIR' for 'sm_75'\" >&2\n"
    "echo 'ptxas info    : Used 7 registers, used 0 barriers' >&2\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsToolchain) tc = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-resources-XXXXXX", &error);
  g_autofree char *fake = NULL;
  g_autofree char *args = NULL;
  g_auto(GStrv) parts = NULL;
  const KsKernelResources *r;

  g_assert_no_error (error);
  fake = g_build_filename (dir, "ptxas", NULL);
  g_file_set_contents (fake, script, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (fake, 0755), ==, 0);

  tc = ks_toolchain_find (dir);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, fake);
  g_assert_cmpstr (tc->version, ==, "12.4.131");
  g_assert_cmpuint (tc->version_major, ==, 12);
  g_assert_cmpuint (tc->version_minor, ==, 4);

  res = ks_toolchain_ptxas_resources (tc, "relative/k.ptx", "sm_75", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (res->len, ==, 1);
  r = g_ptr_array_index (res, 0);
  g_assert_cmpuint (r->registers, ==, 7);

  parts = g_strsplit (r->name, "|", 3);
  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  {
    g_autofree char *cwd = g_get_current_dir ();
    g_autofree char *abs = g_build_filename (cwd, "relative", "k.ptx", NULL);

    args = g_strdup_printf ("-v -arch=sm_75 -o /dev/null %s", abs);
  }
  g_assert_cmpstr (parts[0], ==, args);
  g_assert_nonnull (strstr (parts[1], "kernelscope-ptxas-"));
  g_assert_cmpstr (parts[1], ==, parts[2]);
  /* the private directory is gone afterwards */
  g_assert_false (g_file_test (parts[1], G_FILE_TEST_EXISTS));

  g_unlink (fake);
  g_rmdir (dir);
}

static void
test_toolchain_version (void)
{
  g_autofree char *v = NULL;
  guint major = 0, minor = 0;

  g_assert_true (ks_toolchain_parse_version ("ptxas: NVIDIA (R) Ptx optimizing assembler\n"
                                             "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                                             "Built on Wed_Aug_20_01:55:12_PM_PDT_2025\n"
                                             "Cuda compilation tools, release 13.0, V13.0.88\n"
                                             "Build cuda_13.0.r13.0/compiler.36424714_0\n",
                                             &major, &minor, &v));
  g_assert_cmpuint (major, ==, 13);
  g_assert_cmpuint (minor, ==, 0);
  g_assert_cmpstr (v, ==, "13.0.88");
  g_assert_false (ks_toolchain_parse_version ("no version here", NULL, NULL, NULL));
  g_assert_cmpstr (ks_tool_name (KS_TOOL_NVDISASM), ==, "nvdisasm");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/resources/ptxas/sgemm-fixture", test_ptxas_sgemm_fixture);
  g_test_add_func ("/resources/ptxas/cuda13-device-functions-spills", test_ptxas_cuda13);
  g_test_add_func ("/resources/ptxas/variants", test_ptxas_variants);
  for (guint i = 0; i < G_N_ELEMENTS (malformed); i++)
    g_test_add_data_func (malformed[i].path, &malformed[i], test_ptxas_malformed);
  g_test_add_func ("/resources/ptxas/tool-errors-file-line", test_ptxas_tool_errors);
  g_test_add_func ("/resources/ptxas/empty", test_ptxas_empty);
  g_test_add_func ("/resources/resource-usage/fixture", test_resource_usage_fixture);
  g_test_add_func ("/resources/resource-usage/fatbin-two-archs", test_resource_usage_fatbin);
  g_test_add_func ("/resources/resource-usage/malformed", test_resource_usage_malformed);
  g_test_add_func ("/resources/estimate/shared-barriers-local", test_estimate_shared_barriers);
  g_test_add_func ("/resources/estimate/device-function", test_estimate_helper);
  g_test_add_func ("/resources/estimate/registers-liveness", test_estimate_registers);
  g_test_add_func ("/resources/toolchain/version", test_toolchain_version);
  g_test_add_func ("/resources/toolchain/fake-ptxas-argv-tmpdir", test_toolchain_fake);
  g_test_add_func ("/resources/toolchain/ptxas-reduce-shared-vs-estimate", test_ptxas_run_reduce);
  g_test_add_func ("/resources/toolchain/ptxas-errors", test_ptxas_run_error);
  g_test_add_func ("/resources/toolchain/ptxas-one-kernel", test_ptxas_one_kernel);
  g_test_add_func ("/resources/one-kernel-text", test_one_kernel_text);

  return g_test_run ();
}
