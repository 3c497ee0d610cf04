/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sim-kernels.c: whole kernels that check one part of the PTX ISA's
 * execution model each, against a C reference written here from the ISA's
 * text or against what the ISA and the CUDA Programming Guide state:
 * cvt.pack, the generic address windows (isspacep), the special registers,
 * barriers with ids and thread counts, printf's conversions, atomics in
 * shared memory, brx.idx and the control instructions that stop a kernel. */

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"
#include "ks-test-sim.h"

#define PTX_HEADER(target) ".version 8.1\n.target " target "\n.address_size 64\n"

/* Runs `ptx` (which must parse) with the launch `spec` to its end. */
static KsSimStatus
run_ptx (Run        *r,
         const char *ptx,
         const char *spec)
{
  g_autoptr(GError) error = NULL;

  r->module = text_module (ptx);
  r->launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r->sim = ks_sim_new (r->module, r->launch, &error);
  g_assert_no_error (error);
  return ks_sim_run (r->sim, 0, NULL);
}

/* ---- cvt.pack -------------------------------------------------------------------------- */

/* The ISA's semantics of cvt.pack.sat: a and b clamped to the convert type
 * of `bits` bits, b in bits [0, bits), a in [bits, 2 bits), and with c the
 * bits above from the low bits of c. */
static uint32_t
ref_cvt_pack (int32_t  a,
              int32_t  b,
              uint32_t c,
              int      bits,
              gboolean is_signed)
{
  int64_t lo = is_signed ? -(INT64_C (1) << (bits - 1)) : 0;
  int64_t hi = is_signed ? (INT64_C (1) << (bits - 1)) - 1 : (INT64_C (1) << bits) - 1;
  uint64_t field = (UINT64_C (1) << bits) - 1;
  int64_t ta = a < lo ? lo : a > hi ? hi : a;
  int64_t tb = b < lo ? lo : b > hi ? hi : b;
  uint64_t d = ((uint64_t) tb & field) | (((uint64_t) ta & field) << bits);

  if (bits < 16)
    d |= (uint64_t) c << (2 * bits);
  return (uint32_t) d;
}

static const struct
{
  const char *type;
  int bits;
  gboolean is_signed;
} pack_forms[] = {
  { "u16", 16, FALSE }, { "s16", 16, TRUE }, { "u8", 8, FALSE }, { "s8", 8, TRUE },
  { "u4", 4, FALSE }, { "s4", 4, TRUE }, { "u2", 2, FALSE }, { "s2", 2, TRUE },
};

static void
test_cvt_pack (void)
{
  enum { N = 256 };
  static const int32_t special[] = {
    0, 1, -1, 2, -2, 3, -3, 7, 8, -8, -9, 15, 16, 127, 128, -128, -129, 255, 256,
    32767, 32768, -32768, -32769, 65535, 65536, G_MAXINT32, G_MININT32,
  };
  Run r = { 0 };
  uint32_t in[N * 3];
  const uint32_t *out;
  GString *ptx = g_string_new (PTX_HEADER ("sm_90"));
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autofree char *hin = NULL, *spec = NULL;

  for (guint i = 0; i < N; i++)
    for (guint k = 0; k < 3; k++)
      in[i * 3 + k] = (i + k) % 3 == 0 && k < 2
                      ? (uint32_t) special[g_rand_int_range (rand, 0, G_N_ELEMENTS (special))]
                      : (i % 5 == 1 && k < 2 ? (uint32_t) g_rand_int_range (rand, -300, 300)
                                             : g_rand_int (rand));

  g_string_append (ptx,
                   ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n"
                   "  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n"
                   "  ld.param.u64 %rd1, [k_in];\n  ld.param.u64 %rd2, [k_out];\n"
                   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
                   "  mad.lo.u32 %r1, %r2, 64, %r1;\n"
                   "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd3, %rd1, %rd3;\n"
                   "  ld.global.u32 %r3, [%rd3];\n  ld.global.u32 %r4, [%rd3+4];\n"
                   "  ld.global.u32 %r5, [%rd3+8];\n"
                   "  mul.wide.u32 %rd4, %r1, 32;\n  add.s64 %rd4, %rd2, %rd4;\n");
  for (guint f = 0; f < G_N_ELEMENTS (pack_forms); f++)
    {
      if (pack_forms[f].bits == 16)
        g_string_append_printf (ptx, "  cvt.pack.sat.%s.s32 %%r6, %%r3, %%r4;\n", pack_forms[f].type);
      else
        g_string_append_printf (ptx, "  cvt.pack.sat.%s.s32.b32 %%r6, %%r3, %%r4, %%r5;\n",
                                pack_forms[f].type);
      g_string_append_printf (ptx, "  st.global.u32 [%%rd4+%u], %%r6;\n", f * 4);
    }
  g_string_append (ptx, "  ret;\n}\n");

  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d], \"block\": [64],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}",
                          N / 64, hin, N * 8);
  run_ptx (&r, ptx->str, spec);
  g_string_free (ptx, TRUE);
  assert_done (&r);
  out = buffer (&r, "out");
  for (guint i = 0; i < N; i++)
    for (guint f = 0; f < G_N_ELEMENTS (pack_forms); f++)
      {
        uint32_t want = ref_cvt_pack ((int32_t) in[i * 3], (int32_t) in[i * 3 + 1], in[i * 3 + 2],
                                      pack_forms[f].bits, pack_forms[f].is_signed);

        if (out[i * 8 + f] != want)
          g_error ("cvt.pack.sat.%s (%d, %d, 0x%08x): 0x%08x, want 0x%08x", pack_forms[f].type,
                   (int32_t) in[i * 3], (int32_t) in[i * 3 + 1], in[i * 3 + 2], out[i * 8 + f], want);
      }
  /* A hand-worked case, so the reference itself is checked: u8 of (5, -7)
   * with c = 0x12345678 is c's low half above 5 and 0 */
  g_assert_cmphex (ref_cvt_pack (5, -7, 0x12345678, 8, FALSE), ==, 0x56780500);
  g_assert_cmphex (ref_cvt_pack (-300, 70000, 0, 16, TRUE), ==, 0xfed47fff);
  run_clear (&r);
}

/* ---- generic addressing ------------------------------------------------------------- */

/* isspacep of a generic address of each window: the ISA's windows are
 * disjoint except that "isspacep.global returns 1 for Kernel Function
 * Parameters as .param window is contained within the .global window". */
static void
test_isspacep (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_90")
    ".const .align 4 .b32 cvar[4] = {1, 2, 3, 4};\n"
    ".global .align 4 .b32 gvar[4];\n"
    ".visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
    "  .shared .align 4 .b32 svar[32];\n  .local .align 4 .b32 lvar[4];\n"
    "  ld.param.u64 %rd1, [k_out];\n"
    "  cvta.to.global.u64 %rd9, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd2, cvar;\n  cvta.const.u64 %rd2, %rd2;\n"
    "  mov.u64 %rd3, gvar;\n  cvta.global.u64 %rd3, %rd3;\n"
    "  mov.u64 %rd4, svar;\n  cvta.shared.u64 %rd4, %rd4;\n"
    "  mov.u64 %rd5, lvar;\n  cvta.local.u64 %rd5, %rd5;\n"
    "  mov.u64 %rd6, k_n;\n  cvta.param.u64 %rd6, %rd6;\n"
    "  mov.u64 %rd7, %rd1;\n"                       /* a launch buffer */
    /* thread t tests address t: 0 const, 1 global var, 2 shared, 3 local,
     * 4 parameter, 5 launch buffer */
    "  setp.eq.u32 %p1, %r1, 0;\n  selp.b64 %rd8, %rd2, %rd7, %p1;\n"
    "  setp.eq.u32 %p1, %r1, 1;\n  selp.b64 %rd8, %rd3, %rd8, %p1;\n"
    "  setp.eq.u32 %p1, %r1, 2;\n  selp.b64 %rd8, %rd4, %rd8, %p1;\n"
    "  setp.eq.u32 %p1, %r1, 3;\n  selp.b64 %rd8, %rd5, %rd8, %p1;\n"
    "  setp.eq.u32 %p1, %r1, 4;\n  selp.b64 %rd8, %rd6, %rd8, %p1;\n"
    "  isspacep.global %p2, %rd8;\n"
    "  isspacep.const %p3, %rd8;\n"
    "  isspacep.shared %p4, %rd8;\n"
    "  isspacep.shared::cluster %p5, %rd8;\n"
    "  isspacep.local %p6, %rd8;\n"
    "  isspacep.param::entry %p7, %rd8;\n"
    "  selp.u32 %r2, 1, 0, %p2;\n"
    "  selp.u32 %r3, 2, 0, %p3;\n  or.b32 %r2, %r2, %r3;\n"
    "  selp.u32 %r3, 4, 0, %p4;\n  or.b32 %r2, %r2, %r3;\n"
    "  selp.u32 %r3, 8, 0, %p5;\n  or.b32 %r2, %r2, %r3;\n"
    "  selp.u32 %r3, 16, 0, %p6;\n  or.b32 %r2, %r2, %r3;\n"
    "  selp.u32 %r3, 32, 0, %p7;\n  or.b32 %r2, %r2, %r3;\n"
    /* and a generic load through the address reads what the window holds */
    "  st.shared.u32 [svar], 77;\n  st.local.u32 [lvar], 88;\n  st.global.u32 [gvar], 99;\n"
    "  ld.u32 %r4, [%rd8];\n"
    "  mul.wide.u32 %rd10, %r1, 8;\n  add.s64 %rd10, %rd9, %rd10;\n"
    "  st.global.v2.u32 [%rd10], {%r2, %r4};\n"
    "  ret;\n}\n";
  /* global 1, const 2, shared 4, shared::cluster 8, local 16, param 32 */
  static const uint32_t want[6] = { 2, 1, 4 | 8, 16, 32 | 1, 1 };
  static const uint32_t want_value[6] = { 1, 99, 77, 88, 12345, 0 };
  Run r = { 0 };
  const uint32_t *out;

  run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [6],"
                    " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 12}},"
                    " \"params\": [{\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 12345}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  for (guint t = 0; t < 6; t++)
    {
      g_assert_cmpuint (out[t * 2], ==, want[t]);
      /* thread 5 reads its own buffer, still zero: the warp's load comes
       * before its store */
      g_assert_cmpuint (out[t * 2 + 1], ==, want_value[t]);
    }
  run_clear (&r);
}

/* ---- special registers --------------------------------------------------------------- */

/* Every special register the simulator gives a value, read by every thread
 * of a 3-D launch whose blocks do not fill their last warp */
static const char *const sreg_names[] = {
  "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
  "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
  "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
  "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge",
  "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size",
  "%clusterid.x", "%clusterid.y", "%clusterid.z", "%nclusterid.x", "%nclusterid.y",
  "%nclusterid.z", "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_nctaid.x",
  "%cluster_nctaid.z", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
  "%reserved_smem_offset_begin", "%reserved_smem_offset_cap",
  /* the timers last: 64-bit ones through cvt, then the 32-bit halves */
  "%clock", "%clock_hi", "%globaltimer_lo", "%globaltimer_hi",
};
enum { N_SREG = G_N_ELEMENTS (sreg_names), N_SREG_OUT = N_SREG + 4 };

/* Whether a target has the special register: ptxas refuses the cluster
 * ones and %aggr_smem_size before sm_90, the reserved region's before
 * sm_80 */
static gboolean
sreg_available (const char *name,
                uint32_t    sm)
{
  if (g_str_has_prefix (name, "%cluster") || g_str_has_prefix (name, "%ncluster")
      || g_str_equal (name, "%is_explicit_cluster") || g_str_equal (name, "%aggr_smem_size"))
    return sm >= 90;
  if (g_str_has_prefix (name, "%reserved_smem"))
    return sm >= 80;
  return TRUE;
}

static void
run_sregs (const char *target,
           uint32_t    want_total_smem,
           uint32_t    want_reserved)
{
  enum { BX = 20, BY = 3, BZ = 2, GX = 2, GY = 1, GZ = 3, DYN = 100 };
  enum { THREADS = BX * BY * BZ, WARPS = (THREADS + 31) / 32, N_THREADS = THREADS * GX * GY * GZ };
  GString *ptx = g_string_new (NULL);
  Run r = { 0 };
  const uint32_t *out;
  g_autofree char *spec = NULL;
  uint32_t sm = (uint32_t) g_ascii_strtoull (target + 3, NULL, 10);

  g_string_append_printf (ptx, ".version 8.1\n.target %s\n.address_size 64\n", target);
  g_string_append (ptx, ".extern .shared .align 16 .b8 dyn[];\n"
                        ".visible .entry k(.param .u64 k_out)\n{\n"
                        "  .reg .b32 %r<100>;\n  .reg .b64 %rd<10>;\n  .reg .pred %p<2>;\n"
                        "  .shared .align 4 .b8 stat[200];\n"
                        "  mov.u64 %rd5, %globaltimer;\n  mov.u64 %rd6, %clock64;\n");
  for (guint i = 0; i < N_SREG; i++)
    if (!sreg_available (sreg_names[i], sm))
      g_string_append_printf (ptx, "  mov.u32 %%r%u, 0;\n", i + 1);
    else if (g_str_equal (sreg_names[i], "%is_explicit_cluster"))
      /* a predicate, read by mov.pred */
      g_string_append_printf (ptx, "  mov.pred %%p1, %s;\n  selp.u32 %%r%u, 1, 0, %%p1;\n",
                              sreg_names[i], i + 1);
    else
      g_string_append_printf (ptx, "  mov.u32 %%r%u, %s;\n", i + 1, sreg_names[i]);
  g_string_append_printf (ptx,
                          "  mov.u64 %%rd7, %%clock64;\n"
                          "  cvt.u32.u64 %%r%u, %%rd5;\n  shr.u64 %%rd5, %%rd5, 32;\n"
                          "  cvt.u32.u64 %%r%u, %%rd5;\n"
                          "  cvt.u32.u64 %%r%u, %%rd6;\n  cvt.u32.u64 %%r%u, %%rd7;\n",
                          N_SREG + 1, N_SREG + 2, N_SREG + 3, N_SREG + 4);
  /* linear thread index over the grid: ((bz * GY + by) * GX + bx) block */
  g_string_append_printf (ptx,
                          "  mad.lo.u32 %%r90, %%r9, %%r11, %%r8;\n"     /* ctaid.z * nctaid.y + ctaid.y */
                          "  mad.lo.u32 %%r90, %%r90, %%r10, %%r7;\n"    /* * nctaid.x + ctaid.x */
                          "  mul.lo.u32 %%r91, %%r4, %%r5;\n  mul.lo.u32 %%r91, %%r91, %%r6;\n"
                          "  mad.lo.u32 %%r92, %%r3, %%r5, %%r2;\n"
                          "  mad.lo.u32 %%r92, %%r92, %%r4, %%r1;\n"
                          "  mad.lo.u32 %%r90, %%r90, %%r91, %%r92;\n"
                          "  mul.wide.u32 %%rd1, %%r90, %u;\n"
                          "  ld.param.u64 %%rd2, [k_out];\n  add.s64 %%rd2, %%rd2, %%rd1;\n",
                          N_SREG_OUT * 4);
  for (guint i = 0; i < N_SREG_OUT; i++)
    g_string_append_printf (ptx, "  st.global.u32 [%%rd2+%u], %%r%u;\n", i * 4, i + 1);
  g_string_append (ptx, "  st.shared.u32 [stat], %r1;\n  st.shared.u32 [dyn], %r1;\n  ret;\n}\n");

  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d, %d, %d], \"block\": [%d, %d, %d],"
                          " \"dynamic_shared_bytes\": %d,"
                          " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"out\"}]}",
                          GX, GY, GZ, BX, BY, BZ, DYN, N_THREADS * N_SREG_OUT);
  run_ptx (&r, ptx->str, spec);
  g_string_free (ptx, TRUE);
  assert_done (&r);
  out = buffer (&r, "out");

  for (uint32_t bz = 0; bz < GZ; bz++)
    for (uint32_t by = 0; by < GY; by++)
      for (uint32_t bx = 0; bx < GX; bx++)
        for (uint32_t t = 0; t < THREADS; t++)
          {
            uint32_t block = (bz * GY + by) * GX + bx;
            const uint32_t *o = out + ((size_t) block * THREADS + t) * N_SREG_OUT;
            uint32_t lane = t % 32, warp = t / 32;
            uint32_t want[N_SREG] = {
              t % BX, t / BX % BY, t / (BX * BY), BX, BY, BZ,
              bx, by, bz, GX, GY, GZ,
              lane, warp, WARPS, 0, 1,
              /* the lane masks as the ISA defines them */
              1u << lane, (1u << lane) - 1, lane == 31 ? ~0u : (2u << lane) - 1,
              lane == 31 ? 0 : ~((2u << lane) - 1), ~((1u << lane) - 1),
              /* %aggr_smem_size adds the region reserved for system
               * software (PTX ISA 10.31) */
              DYN, want_total_smem, want_total_smem + want_reserved,
              /* a cluster is one block: cluster ids are block ids */
              bx, by, bz, GX, GY, GZ, 0, 0, 1, 1, 0, 1, 0,
              /* where the region begins is not documented (checked
               * below); its size is */
              o[N_SREG - 6], want_reserved,
            };

            for (guint i = 0; i < N_SREG - 4; i++)
              if (sreg_available (sreg_names[i], sm) && o[i] != want[i])
                g_error ("%s: thread %u of block (%u,%u,%u): %u, want %u", sreg_names[i], t,
                         bx, by, bz, o[i], want[i]);
            /* %warpid < %nwarpid, %smid < %nsmid, as the ISA promises */
            g_assert_cmpuint (o[13], <, o[14]);
            g_assert_cmpuint (o[15], <, o[16]);
            /* the reserved region does not overlap the block's own
             * shared memory (300 bytes); none before sm_80 */
            if (want_reserved > 0)
              g_assert_cmpuint (o[N_SREG - 6], >=, 300);
            /* the timers: the 32-bit halves of %globaltimer agree with the
             * 64-bit value read a few instructions before, and %clock64
             * does not go back */
            g_assert_cmpuint (o[N_SREG - 1], ==, o[N_SREG + 1]);      /* _hi */
            g_assert_cmpuint (o[N_SREG - 2], >=, o[N_SREG]);          /* _lo */
            g_assert_cmpuint (o[N_SREG - 2] - o[N_SREG], <, 1000);
            g_assert_cmpuint (o[N_SREG + 3], >=, o[N_SREG + 2]);
            g_assert_cmpuint (o[N_SREG - 4], >=, o[N_SREG + 2]);      /* %clock */
          }
  run_clear (&r);
}

static void
test_special_registers (void)
{
  /* 200 bytes of static and 100 of dynamic shared memory: 384 in units of
   * 128 bytes (sm_8x and later), 512 in units of 256 (sm_3x to sm_7x);
   * sm_80 and later reserve 1 KiB more per block for system software (the
   * device property reservedSharedMemPerBlock, 1 KiB on those GPUs per
   * the CUDA Programming Guide's table of compute capabilities) */
  run_sregs ("sm_90", 384, 1024);
  run_sregs ("sm_70", 512, 0);
}

/* ---- barriers ------------------------------------------------------------------------ */

/* A barrier given a thread count counts warps, the warp size each ("marks
 * warps' arrival at barrier"; the count is a multiple of the warp size):
 * in a block of 40 threads, bar.sync 1, 64 completes when both warps
 * arrive, though the second has 8 threads.  Each thread then reads what
 * its neighbour (tid ^ 1) wrote before the barrier. */
static void
test_barrier_partial_warp (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_80")
    ".visible .entry k(.param .u64 k_out)\n{\n"
    "  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 s[64];\n"
    "  ld.param.u64 %rd1, [k_out];\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n  mov.u32 %r3, s;\n"
    "  add.u32 %r4, %r3, %r2;\n  mul.lo.u32 %r5, %r1, 7;\n  st.shared.u32 [%r4], %r5;\n"
    "  bar.sync 1, 64;\n"
    "  xor.b32 %r6, %r1, 1;\n  shl.b32 %r6, %r6, 2;\n  add.u32 %r6, %r3, %r6;\n"
    "  ld.shared.u32 %r7, [%r6];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd2, %rd1, %rd2;\n  st.global.u32 [%rd2], %r7;\n"
    "  ret;\n}\n";
  Run r = { 0 };
  const uint32_t *out;

  run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [40],"
                    " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 40}},"
                    " \"params\": [{\"buffer\": \"out\"}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 40; t++)
    g_assert_cmpuint (out[t], ==, (t ^ 1) * 7);
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->barriers, ==, 1);
  run_clear (&r);
}

/* Named barriers with ids and counts, in a block of 4 warps:
 * - warps 0 and 1 consume what warp 2 produces: they bar.sync 3, 96 and
 *   warp 2 passes bar.arrive 3, 96 after writing, then exits;
 * - warps 0 and 1 alone reduce a predicate over their 64 threads with
 *   bar.red.popc 5, 64 and bar.red.or 6, 64, while warp 3 waits on
 *   barrier 7 with a count of 32: itself. */
static void
test_barrier_named (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_80")
    ".visible .entry k(.param .u64 k_out)\n{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 s[32];\n"
    "  ld.param.u64 %rd1, [k_out];\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  and.b32 %r3, %r1, 31;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  mov.u32 %r4, s;\n  shl.b32 %r5, %r3, 2;\n  add.u32 %r4, %r4, %r5;\n"
    "  setp.eq.u32 %p1, %r2, 2;\n  @%p1 bra $PRODUCER;\n"
    "  setp.eq.u32 %p1, %r2, 3;\n  @%p1 bra $ALONE;\n"
    /* consumers */
    "  bar.sync 3, 96;\n"
    "  ld.shared.u32 %r6, [%r4];\n"
    "  rem.u32 %r7, %r1, 5;\n  setp.eq.u32 %p2, %r7, 0;\n"     /* tid % 5 == 0 */
    "  bar.red.popc.u32 %r8, 5, 64, %p2;\n"
    "  setp.eq.u32 %p3, %r1, 33;\n"
    "  bar.red.or.pred %p4, 6, 64, %p3;\n"
    "  selp.u32 %r9, 1, 0, %p4;\n"
    "  st.global.v2.u32 [%rd2], {%r6, %r8};\n  st.global.u32 [%rd2+8], %r9;\n"
    "  ret;\n"
    "$PRODUCER:\n"
    "  mul.lo.u32 %r6, %r3, %r3;\n  add.u32 %r6, %r6, 1000;\n  st.shared.u32 [%r4], %r6;\n"
    "  bar.arrive 3, 96;\n"
    "  ret;\n"
    "$ALONE:\n"
    "  bar.sync 7, 32;\n"
    "  st.global.u32 [%rd2], 4242;\n"
    "  ret;\n}\n";
  Run r = { 0 };
  const uint32_t *out;
  uint32_t popc = 0;

  for (uint32_t t = 0; t < 64; t++)
    popc += t % 5 == 0;
  run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [128],"
                    " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 512}},"
                    " \"params\": [{\"buffer\": \"out\"}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 64; t++)
    {
      g_assert_cmpuint (out[t * 4], ==, (t % 32) * (t % 32) + 1000);
      g_assert_cmpuint (out[t * 4 + 1], ==, popc);
      g_assert_cmpuint (out[t * 4 + 2], ==, 1);
    }
  for (uint32_t t = 96; t < 128; t++)
    g_assert_cmpuint (out[t * 4], ==, 4242);
  run_clear (&r);
}

/* A barrier no one else can complete is a deadlock fault at the barrier
 * instruction, with its CUDA line, never a hang; the message says where
 * the other warps wait. */
static void
test_barrier_deadlock_lines (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_80")                                      /* lines 1-3 */
    ".file 1 \"k.cu\"\n"                                      /* 4 */
    ".visible .entry k(.param .u64 k_out)\n{\n"               /* 5, 6 */
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"               /* 7, 8 */
    "  mov.u32 %r1, %tid.x;\n"                                /* 9 */
    "  setp.lt.u32 %p1, %r1, 32;\n"                           /* 10 */
    "  @%p1 bra $A;\n"                                        /* 11 */
    "  .loc 1 20 3\n"                                         /* 12 */
    "  bar.sync 2;\n"                                         /* 13: warp 1 */
    "  ret;\n"                                                /* 14 */
    "$A:\n"                                                   /* 15 */
    "  .loc 1 17 3\n"                                         /* 16 */
    "  bar.sync 1;\n"                                         /* 17: warp 0 */
    "  ret;\n}\n";
  static const char more[] =
    PTX_HEADER ("sm_80")
    ".file 1 \"k.cu\"\n"
    ".visible .entry k(.param .u64 k_out)\n{\n"               /* 5, 6 */
    "  .loc 1 9 5\n"                                          /* 7 */
    "  bar.sync 0, 128;\n"                                    /* 8 */
    "  ret;\n}\n";
  const char *spec = "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64],"
                     " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 4}},"
                     " \"params\": [{\"buffer\": \"out\"}]}";
  Run r = { 0 };
  const KsSimFault *f;

  g_assert_cmpint (run_ptx (&r, ptx, spec), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_test_message ("%s", f->message);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_DEADLOCK);
  g_assert_cmpuint (f->ptx_line, ==, 17);
  g_assert_cmpstr (f->cuda_file, ==, "k.cu");
  g_assert_cmpuint (f->cuda_line, ==, 17);
  g_assert_nonnull (strstr (f->message, "barrier 1"));
  g_assert_nonnull (strstr (f->message, "warp 1 waits at barrier 2 (PTX line 13)"));
  run_clear (&r);

  /* 128 threads expected of a block of 64 */
  g_assert_cmpint (run_ptx (&r, more, spec), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_test_message ("%s", f->message);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_DEADLOCK);
  g_assert_cmpuint (f->ptx_line, ==, 8);
  g_assert_cmpuint (f->cuda_line, ==, 9);
  g_assert_nonnull (strstr (f->message, "expects 128 threads, 64 wait"));
  run_clear (&r);
}

/* ---- printf ---------------------------------------------------------------------------- */

/* tests/ptx/sim/printf.cu through nvcc: six printf calls with every
 * conversion, size, flag, width ('*' too) and precision, in two threads.
 * On a GPU the host's C library formats the output from the arguments the
 * kernel packed, so the reference is this C library's printf of the same
 * calls: the simulator must unpack every argument at the right offset and
 * width. */
static char *
ref_printf_thread (int         t,
                   int         i,
                   long long   l,
                   float       f,
                   const char *str,
                   const void *ptr)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%d %i %u %x %X %o %c|%s|\n", i, -i, (unsigned) i, i, i, i, 'A' + t, str);
  g_string_append_printf (s, "%f %e %E %g %G %a %A\n", f, f, f * 1e10f, f, f * 1e-7f, f, f);
  g_string_append_printf (s, "%ld %lld %lu %llx %hd %hhd %hu %hhx\n", (long) l, l, (unsigned long) l,
                          (unsigned long long) l, (short) i, (signed char) i, (unsigned short) i,
                          (unsigned char) i);
  g_string_append_printf (s, "[%5d] [%-5d] [%05d] [%+d] [% d] [%.3f] [%10.4f] [%-10.2e] [%#x] [%#o] [%#g]\n",
                          i, i, i, i, i, f, f, f, i, i, f);
  g_string_append_printf (s, "[%*d] [%-*d] [%.*f] [%*.*e] [%*s]\n", 7, i, -6, i, 2, f, 12, 3, f, 4 + t, str);
  g_string_append_printf (s, "[%10s] [%-10s] [%.2s] [%.0s] [%s] [%p] [%%] [%5c]\n", str, str, str, str,
                          "(null)", ptr, 'a' + t);
  return g_string_free (s, FALSE);
}

static void
test_printf_formats (void)
{
  static const int iv[2] = { -1234567, 300 };
  static const long long lv[2] = { -1234567890123LL, 0xdeadbeefcafeLL };
  static const float fv[2] = { 3.14159f, -0.0078125f };
  static const char str[] = "hello";
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "ptx", "sim", "sm_80", "printf.ptx", NULL);
  g_autofree char *hi = hex_of (iv, sizeof iv), *hl = hex_of (lv, sizeof lv);
  g_autofree char *hf = hex_of (fv, sizeof fv), *hs = hex_of (str, sizeof str);
  g_autofree char *spec = NULL;
  g_autoptr(GString) want = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  Run r = { 0 };

  r.module = ks_ptx_module_parse_file (path, &error);
  g_assert_no_error (error);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [2],"
                          " \"buffers\": {\"i\": {\"bytes_hex\": \"%s\"}, \"l\": {\"bytes_hex\": \"%s\"},"
                          " \"f\": {\"bytes_hex\": \"%s\"}, \"s\": {\"bytes_hex\": \"%s\"}},"
                          " \"params\": [{\"buffer\": \"i\"}, {\"buffer\": \"l\"}, {\"buffer\": \"f\"},"
                          " {\"buffer\": \"s\"}, {\"type\": \"u64\", \"value\": 0},"
                          " {\"type\": \"u64\", \"value\": 305441741}]}", hi, hl, hf, hs);
  r.launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_run (r.sim, 0, NULL);
  assert_done (&r);

  /* each call prints lane 0's line, then lane 1's */
  {
    g_autofree char *t0 = ref_printf_thread (0, iv[0], lv[0], fv[0], str, GSIZE_TO_POINTER (305441741));
    g_autofree char *t1 = ref_printf_thread (1, iv[1], lv[1], fv[1], str, GSIZE_TO_POINTER (305441741));
    g_auto(GStrv) l0 = g_strsplit (t0, "\n", -1);
    g_auto(GStrv) l1 = g_strsplit (t1, "\n", -1);

    g_assert_cmpuint (g_strv_length (l0), ==, 7);
    for (guint k = 0; k < 6; k++)
      g_string_append_printf (want, "%s\n%s\n", l0[k], l1[k]);
    g_assert_cmpstr (ks_sim_get_printf (r.sim), ==, want->str);
  }
  run_clear (&r);
}

/* ---- atomics in shared memory -------------------------------------------------------------- */

typedef enum
{
  AT_ADD, AT_MIN, AT_MAX, AT_INC, AT_DEC, AT_AND, AT_OR, AT_XOR, AT_EXCH, AT_CAS,
} AtomOp;

typedef enum
{
  AK_U, AK_S, AK_F32, AK_F64, AK_F16, AK_F16X2, AK_BF16, AK_BF16X2,
} AtomKind;

static const struct
{
  const char *form;             /* after atom.shared. / red.shared. */
  AtomOp op;
  AtomKind kind;
  int bits;
  gboolean red;                 /* red: no result */
  gboolean generic;             /* through a generic address of shared memory */
  gboolean global;              /* in global memory instead */
} shared_atoms[] = {
  { "add.u32", AT_ADD, AK_U, 32 }, { "add.s32", AT_ADD, AK_S, 32 }, { "add.u64", AT_ADD, AK_U, 64 },
  { "min.u32", AT_MIN, AK_U, 32 }, { "min.s32", AT_MIN, AK_S, 32 }, { "min.u64", AT_MIN, AK_U, 64 },
  { "min.s64", AT_MIN, AK_S, 64 }, { "max.u32", AT_MAX, AK_U, 32 }, { "max.s32", AT_MAX, AK_S, 32 },
  { "max.u64", AT_MAX, AK_U, 64 }, { "max.s64", AT_MAX, AK_S, 64 },
  { "inc.u32", AT_INC, AK_U, 32 }, { "dec.u32", AT_DEC, AK_U, 32 },
  { "and.b32", AT_AND, AK_U, 32 }, { "or.b32", AT_OR, AK_U, 32 }, { "xor.b32", AT_XOR, AK_U, 32 },
  { "and.b64", AT_AND, AK_U, 64 }, { "or.b64", AT_OR, AK_U, 64 }, { "xor.b64", AT_XOR, AK_U, 64 },
  { "exch.b32", AT_EXCH, AK_U, 32 }, { "exch.b64", AT_EXCH, AK_U, 64 },
  { "cas.b16", AT_CAS, AK_U, 16 }, { "cas.b32", AT_CAS, AK_U, 32 }, { "cas.b64", AT_CAS, AK_U, 64 },
  { "add.f32", AT_ADD, AK_F32, 32 }, { "add.f64", AT_ADD, AK_F64, 64 },
  { "add.noftz.f16", AT_ADD, AK_F16, 16 }, { "add.noftz.f16x2", AT_ADD, AK_F16X2, 32 },
  { "add.noftz.bf16", AT_ADD, AK_BF16, 16 }, { "add.noftz.bf16x2", AT_ADD, AK_BF16X2, 32 },
  { "add.u32", AT_ADD, AK_U, 32, TRUE }, { "min.s32", AT_MIN, AK_S, 32, TRUE },
  { "max.u64", AT_MAX, AK_U, 64, TRUE }, { "inc.u32", AT_INC, AK_U, 32, TRUE },
  { "dec.u32", AT_DEC, AK_U, 32, TRUE }, { "xor.b64", AT_XOR, AK_U, 64, TRUE },
  { "add.f32", AT_ADD, AK_F32, 32, TRUE }, { "add.noftz.f16x2", AT_ADD, AK_F16X2, 32, TRUE },
  { "add.u32", AT_ADD, AK_U, 32, FALSE, TRUE }, { "cas.b32", AT_CAS, AK_U, 32, FALSE, TRUE },
  { "inc.u32", AT_INC, AK_U, 32, TRUE, TRUE },
  /* the half-precision forms in global memory, which the ISA table of
   * test-sim-isa does not have */
  { "add.noftz.f16", AT_ADD, AK_F16, 16, FALSE, FALSE, TRUE },
  { "add.noftz.f16x2", AT_ADD, AK_F16X2, 32, FALSE, FALSE, TRUE },
  { "add.noftz.bf16", AT_ADD, AK_BF16, 16, FALSE, FALSE, TRUE },
  { "add.noftz.bf16x2", AT_ADD, AK_BF16X2, 32, TRUE, FALSE, TRUE },
  { "cas.b16", AT_CAS, AK_U, 16, FALSE, FALSE, TRUE },
  { "dec.u32", AT_DEC, AK_U, 32, FALSE, FALSE, TRUE },
};

static uint16_t
f16_of (double x)
{
  _Float16 h = (_Float16) x;    /* the compiler's correctly rounded conversion */
  uint16_t u;

  memcpy (&u, &h, 2);
  return u;
}

static double
of_f16 (uint16_t u)
{
  _Float16 h;

  memcpy (&h, &u, 2);
  return (double) h;
}

/* bf16 of a normal double, rounded to nearest even on its 8-bit significand */
static uint16_t
bf16_of (double x)
{
  int e;
  double m = frexp (x, &e);
  float f = (float) ldexp (nearbyint (ldexp (m, 8)), e - 8);
  uint32_t u;

  memcpy (&u, &f, 4);
  return (uint16_t) (u >> 16);
}

static double
of_bf16 (uint16_t u)
{
  uint32_t v = (uint32_t) u << 16;
  float f;

  memcpy (&f, &v, 4);
  return f;
}

/* The ISA's definition of each operation: the new value of the memory
 * word from the old one and the operands b (and c for cas) */
static uint64_t
ref_atom (AtomOp   op,
          AtomKind kind,
          int      bits,
          uint64_t old,
          uint64_t b,
          uint64_t c)
{
  uint64_t m = bits == 64 ? ~UINT64_C (0) : (UINT64_C (1) << bits) - 1;
  int64_t so = bits == 64 ? (int64_t) old : (int64_t) (int32_t) (uint32_t) old;
  int64_t sb = bits == 64 ? (int64_t) b : (int64_t) (int32_t) (uint32_t) b;

  old &= m;
  b &= m;
  switch (op)
    {
    case AT_ADD:
      switch (kind)
        {
        case AK_F32:
          {
            float x, y, z;
            uint32_t u0 = (uint32_t) old, u1 = (uint32_t) b, r;

            memcpy (&x, &u0, 4);
            memcpy (&y, &u1, 4);
            z = x + y;
            memcpy (&r, &z, 4);
            return r;
          }
        case AK_F64:
          {
            double x, y, z;
            uint64_t r;

            memcpy (&x, &old, 8);
            memcpy (&y, &b, 8);
            z = x + y;
            memcpy (&r, &z, 8);
            return r;
          }
        case AK_F16:
          return f16_of (of_f16 ((uint16_t) old) + of_f16 ((uint16_t) b));
        case AK_F16X2:
          return f16_of (of_f16 ((uint16_t) old) + of_f16 ((uint16_t) b))
                 | (uint64_t) f16_of (of_f16 ((uint16_t) (old >> 16)) + of_f16 ((uint16_t) (b >> 16))) << 16;
        case AK_BF16:
          return bf16_of (of_bf16 ((uint16_t) old) + of_bf16 ((uint16_t) b));
        case AK_BF16X2:
          return bf16_of (of_bf16 ((uint16_t) old) + of_bf16 ((uint16_t) b))
                 | (uint64_t) bf16_of (of_bf16 ((uint16_t) (old >> 16)) + of_bf16 ((uint16_t) (b >> 16))) << 16;
        default:
          return (old + b) & m;
        }
    case AT_MIN:
      return kind == AK_S ? (uint64_t) MIN (so, sb) & m : MIN (old, b);
    case AT_MAX:
      return kind == AK_S ? (uint64_t) MAX (so, sb) & m : MAX (old, b);
    case AT_INC: return old >= b ? 0 : old + 1;
    case AT_DEC: return old == 0 || old > b ? b : old - 1;
    case AT_AND: return old & b;
    case AT_OR: return old | b;
    case AT_XOR: return old ^ b;
    case AT_EXCH: return b;
    case AT_CAS: return old == b ? c & m : old;
    default: g_assert_not_reached ();
    }
}

/* A value of the operation's kind: small for inc, dec and cas (so that
 * wrapping and matches happen), floats in a range without subnormals. */
static uint64_t
atom_value (GRand   *rand,
            AtomOp   op,
            AtomKind kind,
            int      bits)
{
  double x = g_rand_double_range (rand, -500.0, 500.0);

  switch (kind)
    {
    case AK_F32:
      {
        float f = (float) x;
        uint32_t u;

        memcpy (&u, &f, 4);
        return u;
      }
    case AK_F64:
      {
        uint64_t u;

        memcpy (&u, &x, 8);
        return u;
      }
    case AK_F16: return f16_of (x / 8);
    case AK_F16X2: return f16_of (x / 8) | (uint64_t) f16_of (g_rand_double_range (rand, -60, 60)) << 16;
    case AK_BF16: return bf16_of (x);
    case AK_BF16X2: return bf16_of (x) | (uint64_t) bf16_of (g_rand_double_range (rand, -1e4, 1e4)) << 16;
    default:
      if (op == AT_INC || op == AT_DEC || op == AT_CAS)
        return (uint64_t) g_rand_int_range (rand, 0, 6);
      {
        uint64_t v = (uint64_t) g_rand_int (rand) << 32 | g_rand_int (rand);

        return bits == 64 ? v : bits == 32 ? v & 0xffffffffu : v & 0xffffu;
      }
    }
}

/* 4 blocks of one warp; lane l of a block works on word l % 4 of the
 * block's shared memory (or of its part of a global buffer), 8 lanes a
 * word, applied lowest lane first (the order the simulator documents; any
 * order is one hardware may pick). */
static void
run_shared_atom (guint form)
{
  enum { BLOCKS = 4, WORDS = 4 };
  const char *f = shared_atoms[form].form;
  AtomOp op = shared_atoms[form].op;
  AtomKind kind = shared_atoms[form].kind;
  int bits = shared_atoms[form].bits;
  gboolean red = shared_atoms[form].red, generic = shared_atoms[form].generic;
  gboolean global = shared_atoms[form].global;
  const char *space = global ? ".global" : generic ? "" : ".shared";
  const char *addr = global ? "%rd4" : generic ? "%rd7" : "%r5";
  const char *rt = bits == 64 ? "b64" : bits == 32 ? "b32" : "b16";
  const char *rg = bits == 64 ? "%vd" : bits == 32 ? "%vr" : "%vh";
  uint64_t in[BLOCKS * 32 * 2], init[BLOCKS * WORDS];
  g_autoptr(GRand) rand = g_rand_new_with_seed (100 + form);
  g_autoptr(GString) ptx = g_string_new (PTX_HEADER ("sm_90"));
  g_autofree char *hin = NULL, *hinit = NULL, *spec = NULL;
  const uint64_t *out;
  Run r = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    in[i] = atom_value (rand, op, kind, bits);
  for (guint i = 0; i < G_N_ELEMENTS (init); i++)
    init[i] = atom_value (rand, op, kind, bits);

  g_string_append_printf (ptx,
    ".visible .entry k(.param .u64 k_in, .param .u64 k_init, .param .u64 k_out)\n{\n"
    "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<16>;\n"
    "  .reg .b16 %%vh<4>;\n  .reg .b32 %%vr<4>;\n  .reg .b64 %%vd<4>;\n"
    "  .shared .align 8 .b64 words[%d];\n"
    "  ld.param.u64 %%rd1, [k_in];\n  ld.param.u64 %%rd2, [k_init];\n  ld.param.u64 %%rd3, [k_out];\n"
    "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, %%ctaid.x;\n"
    "  mad.lo.u32 %%r3, %%r2, 32, %%r1;\n"                       /* global thread */
    "  and.b32 %%r4, %%r1, 3;\n"                                 /* word */
    "  mov.u32 %%r5, words;\n  mad.lo.u32 %%r5, %%r4, 8, %%r5;\n"   /* its address */
    "  setp.lt.u32 %%p1, %%r1, 4;\n"
    "  mad.lo.u32 %%r6, %%r2, 4, %%r4;\n  mul.wide.u32 %%rd4, %%r6, 8;\n  add.s64 %%rd4, %%rd2, %%rd4;\n"
    "  ld.global.%s %s1, [%%rd4];\n  @%%p1 st.shared.%s [%%r5], %s1;\n"
    "  bar.sync 0;\n"
    "  mul.wide.u32 %%rd5, %%r3, 16;\n  add.s64 %%rd6, %%rd1, %%rd5;\n"
    "  ld.global.%s %s2, [%%rd6];\n  ld.global.%s %s3, [%%rd6+8];\n"
    "  mov.%s %s0, 0;\n"
    "  cvt.u64.u32 %%rd7, %%r5;\n  cvta.shared.u64 %%rd7, %%rd7;\n",
    WORDS, rt, rg, rt, rg, rt, rg, rt, rg, rt, rg);
  if (red)
    g_string_append_printf (ptx, "  red%s.%s [%s], %s2;\n", space, f, addr, rg);
  else
    g_string_append_printf (ptx, "  atom%s.%s %s0, [%s], %s2%s%s%s;\n", space, f, rg, addr, rg,
                            op == AT_CAS ? ", " : "", op == AT_CAS ? rg : "", op == AT_CAS ? "3" : "");
  g_string_append_printf (ptx,
    "  bar.sync 0;\n"
    "  add.s64 %%rd8, %%rd3, %%rd5;\n  st.global.%s [%%rd8], %s0;\n"
    "  ld%s.%s %s1, [%s];\n  @%%p1 st.global.%s [%%rd8+8], %s1;\n"
    "  ret;\n}\n", rt, rg, global ? ".global" : ".shared", rt, rg, global ? "%rd4" : "%r5", rt, rg);

  hin = hex_of (in, sizeof in);
  /* words of 16 bits are stored as the low bytes of 8-byte slots */
  hinit = hex_of (init, sizeof init);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d], \"block\": [32],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"}, \"init\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u64\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"init\"}, {\"buffer\": \"out\"}]}",
                          BLOCKS, hin, hinit, BLOCKS * 32 * 2);
  run_ptx (&r, ptx->str, spec);
  assert_done (&r);
  out = buffer (&r, "out");

  for (guint blk = 0; blk < BLOCKS; blk++)
    {
      uint64_t mem[WORDS];
      uint64_t m = bits == 64 ? ~UINT64_C (0) : (UINT64_C (1) << bits) - 1;

      for (guint w = 0; w < WORDS; w++)
        mem[w] = init[blk * WORDS + w] & m;
      for (guint lane = 0; lane < 32; lane++)
        {
          guint t = blk * 32 + lane, w = lane % WORDS;
          uint64_t old = mem[w];

          mem[w] = ref_atom (op, kind, bits, old, in[t * 2], in[t * 2 + 1]);
          if (!red && (out[t * 2] & m) != old)
            g_error ("atom.%s, block %u lane %u: returned 0x%" G_GINT64_MODIFIER "x, want 0x%"
                     G_GINT64_MODIFIER "x", f, blk, lane, out[t * 2] & m, old);
        }
      for (guint w = 0; w < WORDS; w++)
        if ((out[(blk * 32 + w) * 2 + 1] & m) != mem[w])
          g_error ("%s.%s, block %u word %u: 0x%" G_GINT64_MODIFIER "x, want 0x%" G_GINT64_MODIFIER "x",
                   red ? "red" : "atom", f, blk, w, out[(blk * 32 + w) * 2 + 1] & m, mem[w]);
    }
  run_clear (&r);
}

static void
test_shared_atomics (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shared_atoms); i++)
    {
      g_test_message ("%s%s.%s", shared_atoms[i].red ? "red" : "atom",
                      shared_atoms[i].global ? ".global" : shared_atoms[i].generic ? "" : ".shared",
                      shared_atoms[i].form);
      run_shared_atom (i);
    }
}

/* min and max of two floats as the min and max instructions define them:
 * a NaN gives the other operand, -0 is below +0 (the inputs here have no
 * NaN) */
static double
ref_minmax (gboolean mx, double a, double b)
{
  if (a == b)
    return (signbit (a) != mx) ? a : b;
  return (a < b) != mx ? a : b;
}

/* The vector forms (sm_90) and float min/max, in global memory: 4 blocks
 * of one warp, lane l on the 16-byte word l % 4 of its block, each element
 * of a vector its own atomic operation, lanes lowest first */
static void
test_vector_atomics (void)
{
  static const struct { const char *form; int vec; AtomKind kind; AtomOp op; gboolean red; } forms[] = {
    { "add.v2.f32", 2, AK_F32, AT_ADD }, { "add.v4.f32", 4, AK_F32, AT_ADD },
    { "add.v4.f32", 4, AK_F32, AT_ADD, TRUE },
    { "add.noftz.v8.f16", 8, AK_F16, AT_ADD }, { "max.noftz.v4.bf16", 4, AK_BF16, AT_MAX },
    { "min.noftz.v2.f16x2", 2, AK_F16X2, AT_MIN, TRUE }, { "max.noftz.v4.bf16x2", 4, AK_BF16X2, AT_MAX },
    { "max.f32", 1, AK_F32, AT_MAX }, { "min.f32", 1, AK_F32, AT_MIN, TRUE }, { "min.f64", 1, AK_F64, AT_MIN },
  };

  for (guint fi = 0; fi < G_N_ELEMENTS (forms); fi++)
    {
      enum { BLOCKS = 4, WORDS = 4 };
      int vec = forms[fi].vec, esize = forms[fi].kind == AK_F64 ? 8
                                       : (forms[fi].kind == AK_F16 || forms[fi].kind == AK_BF16) ? 2 : 4;
      const char *rt = esize == 8 ? "b64" : esize == 4 ? "b32" : "b16";
      const char *rg = esize == 8 ? "%vd" : esize == 4 ? "%vr" : "%vh";
      uint8_t in[BLOCKS * 32 * 16], init[BLOCKS * WORDS * 16], mem[BLOCKS * WORDS * 16];
      g_autoptr(GRand) rand = g_rand_new_with_seed (200 + fi);
      g_autoptr(GString) ptx = g_string_new (PTX_HEADER ("sm_90"));
      g_autoptr(GString) bv = g_string_new (NULL), dv = g_string_new (NULL);
      g_autofree char *hin = NULL, *hinit = NULL, *spec = NULL;
      const uint8_t *out, *words;
      Run r = { 0 };

      g_test_message ("%s.global.%s", forms[fi].red ? "red" : "atom", forms[fi].form);
      for (guint i = 0; i < sizeof in; i += esize)
        {
          uint64_t v = atom_value (rand, forms[fi].op, forms[fi].kind, esize * 8);

          memcpy (in + i, &v, esize);
        }
      for (guint i = 0; i < sizeof init; i += esize)
        {
          uint64_t v = atom_value (rand, forms[fi].op, forms[fi].kind, esize * 8);

          memcpy (init + i, &v, esize);
        }
      for (int i = 0; i < vec; i++)
        {
          g_string_append_printf (bv, "%s%s%d", i ? ", " : "", rg, i);
          g_string_append_printf (dv, "%s%s%d", i ? ", " : "", rg, 8 + i);
        }
      g_string_append_printf (ptx,
        ".visible .entry k(.param .u64 k_in, .param .u64 k_words, .param .u64 k_out)\n{\n"
        "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<12>;\n"
        "  .reg .b16 %%vh<16>;\n  .reg .b32 %%vr<16>;\n  .reg .b64 %%vd<16>;\n"
        "  ld.param.u64 %%rd1, [k_in];\n  ld.param.u64 %%rd2, [k_words];\n  ld.param.u64 %%rd3, [k_out];\n"
        "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, %%ctaid.x;\n  mad.lo.u32 %%r3, %%r2, 32, %%r1;\n"
        "  and.b32 %%r4, %%r1, 3;\n  mad.lo.u32 %%r5, %%r2, 4, %%r4;\n"
        "  mul.wide.u32 %%rd4, %%r5, 16;\n  add.s64 %%rd4, %%rd2, %%rd4;\n"    /* the lane's word */
        "  mul.wide.u32 %%rd5, %%r3, 16;\n  add.s64 %%rd6, %%rd1, %%rd5;\n  add.s64 %%rd7, %%rd3, %%rd5;\n");
      for (int i = 0; i < vec; i++)
        g_string_append_printf (ptx, "  ld.global.%s %s%d, [%%rd6+%d];\n  mov.%s %s%d, 0;\n",
                                rt, rg, i, i * esize, rt, rg, 8 + i);
      if (forms[fi].red)
        g_string_append_printf (ptx, "  red.global.%s [%%rd4], %s%s%s;\n", forms[fi].form,
                                vec > 1 ? "{" : "", bv->str, vec > 1 ? "}" : "");
      else
        g_string_append_printf (ptx, "  atom.global.%s %s%s%s, [%%rd4], %s%s%s;\n", forms[fi].form,
                                vec > 1 ? "{" : "", dv->str, vec > 1 ? "}" : "",
                                vec > 1 ? "{" : "", bv->str, vec > 1 ? "}" : "");
      for (int i = 0; i < vec; i++)
        g_string_append_printf (ptx, "  st.global.%s [%%rd7+%d], %s%d;\n", rt, i * esize, rg, 8 + i);
      g_string_append (ptx, "  ret;\n}\n");

      hin = hex_of (in, sizeof in);
      hinit = hex_of (init, sizeof init);
      spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d], \"block\": [32],"
                              " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"}, \"words\": {\"bytes_hex\": \"%s\"},"
                              " \"out\": {\"type\": \"u8\", \"count\": %d}},"
                              " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"words\"}, {\"buffer\": \"out\"}]}",
                              BLOCKS, hin, hinit, (int) sizeof in);
      run_ptx (&r, ptx->str, spec);
      assert_done (&r);
      out = buffer (&r, "out");
      words = buffer (&r, "words");

      memcpy (mem, init, sizeof mem);
      for (guint t = 0; t < BLOCKS * 32; t++)
        {
          uint8_t *w = mem + ((t / 32) * WORDS + t % WORDS) * 16;

          for (int i = 0; i < vec; i++)
            {
              uint64_t old = 0, b = 0, nv;

              memcpy (&old, w + i * esize, esize);
              memcpy (&b, in + t * 16 + i * esize, esize);
              if (forms[fi].op == AT_ADD)
                nv = ref_atom (AT_ADD, forms[fi].kind, esize * 8, old, b, 0);
              else
                {
                  gboolean mx = forms[fi].op == AT_MAX;

                  switch (forms[fi].kind)
                    {
                    case AK_F32:
                      {
                        float x, y, z;
                        uint32_t u0 = (uint32_t) old, u1 = (uint32_t) b, rr;

                        memcpy (&x, &u0, 4);
                        memcpy (&y, &u1, 4);
                        z = (float) ref_minmax (mx, x, y);
                        memcpy (&rr, &z, 4);
                        nv = rr;
                      }
                      break;
                    case AK_F64:
                      {
                        double x, y, z;

                        memcpy (&x, &old, 8);
                        memcpy (&y, &b, 8);
                        z = ref_minmax (mx, x, y);
                        memcpy (&nv, &z, 8);
                      }
                      break;
                    case AK_F16:
                      nv = f16_of (ref_minmax (mx, of_f16 ((uint16_t) old), of_f16 ((uint16_t) b)));
                      break;
                    case AK_BF16:
                      nv = bf16_of (ref_minmax (mx, of_bf16 ((uint16_t) old), of_bf16 ((uint16_t) b)));
                      break;
                    case AK_F16X2:
                      nv = f16_of (ref_minmax (mx, of_f16 ((uint16_t) old), of_f16 ((uint16_t) b)))
                           | (uint64_t) f16_of (ref_minmax (mx, of_f16 ((uint16_t) (old >> 16)),
                                                            of_f16 ((uint16_t) (b >> 16)))) << 16;
                      break;
                    default:
                      nv = bf16_of (ref_minmax (mx, of_bf16 ((uint16_t) old), of_bf16 ((uint16_t) b)))
                           | (uint64_t) bf16_of (ref_minmax (mx, of_bf16 ((uint16_t) (old >> 16)),
                                                             of_bf16 ((uint16_t) (b >> 16)))) << 16;
                      break;
                    }
                }
              if (!forms[fi].red && memcmp (out + t * 16 + i * esize, &old, esize) != 0)
                g_error ("atom.global.%s thread %u element %d: the old value is wrong", forms[fi].form, t, i);
              memcpy (w + i * esize, &nv, esize);
            }
        }
      for (guint i = 0; i < sizeof mem; i++)
        if (words[i] != mem[i])
          g_error ("%s.global.%s: byte %u of the words is 0x%02x, want 0x%02x",
                   forms[fi].red ? "red" : "atom", forms[fi].form, i, words[i], mem[i]);
      run_clear (&r);
    }
}

/* ---- control ----------------------------------------------------------------------------- */

/* A switch through brx.idx: lane t goes to case t % 5, each case records
 * the warp's active mask (the lanes of its case), and after the join
 * every lane is back; then bar.warp.sync and nanosleep, which must not
 * change anything, and an early exit of lanes 20 and up, after which the
 * active mask is the lanes left. */
static void
test_brx_switch (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_80")
    ".visible .entry k(.param .u64 k_out)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [k_out];\n"
    "  mov.u32 %r1, %tid.x;\n  rem.u32 %r2, %r1, 5;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  $L_ts: .branchtargets $C0, $C1, $C2, $C3, $C4;\n"
    "  brx.idx %r2, $L_ts;\n"
    "$C3:\n  mov.u32 %r3, 103;\n  activemask.b32 %r4;\n  bra.uni $JOIN;\n"
    "$C1:\n  mov.u32 %r3, 101;\n  activemask.b32 %r4;\n  bra.uni $JOIN;\n"
    "$C0:\n  mov.u32 %r3, 100;\n  activemask.b32 %r4;\n  bra.uni $JOIN;\n"
    "$C2:\n  mov.u32 %r3, 102;\n  activemask.b32 %r4;\n  bra.uni $JOIN;\n"
    "$C4:\n  mov.u32 %r3, 104;\n  activemask.b32 %r4;\n"
    "$JOIN:\n  activemask.b32 %r5;\n"
    "  bar.warp.sync -1;\n  nanosleep.u32 1000;\n"
    "  st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r5};\n"
    "  setp.ge.u32 %p1, %r1, 20;\n  @%p1 exit;\n"
    "  activemask.b32 %r6;\n  st.global.u32 [%rd2+12], %r6;\n"
    "  ret;\n}\n";
  Run r = { 0 };
  const uint32_t *out;
  const KsSimInsnStats *st;
  uint32_t brx = 0;

  run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                    " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 128}},"
                    " \"params\": [{\"buffer\": \"out\"}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 32; t++)
    {
      uint32_t mask = 0;

      for (uint32_t l = 0; l < 32; l++)
        if (l % 5 == t % 5)
          mask |= 1u << l;
      g_assert_cmpuint (out[t * 4], ==, 100 + t % 5);
      g_assert_cmphex (out[t * 4 + 1], ==, mask);
      g_assert_cmphex (out[t * 4 + 2], ==, 0xffffffffu);
      g_assert_cmphex (out[t * 4 + 3], ==, t < 20 ? 0x000fffffu : 0xffffffffu);
    }
  /* the brx.idx split the warp once */
  for (uint32_t i = 0; i < r.module->n_insns; i++)
    if (r.module->insns[i].opcode == KS_PTX_OPC_BRX)
      brx = i;
  st = ks_sim_get_insn_stats (r.sim);
  g_assert_cmpuint (st[brx].divergent, ==, 1);
  g_assert_cmpuint (st[brx].thread_executions, ==, 32);
  run_clear (&r);
}

/* Recursion through a .func with parameters and a return value works to
 * any depth the stack allows, and unbounded recursion is a
 * stack_overflow fault at the call, never a crash; brkpt and an index
 * past a brx.idx table stop the kernel with a fault at their line. */
static void
test_calls_and_faults (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_80")                                                  /* 1-3 */
    ".func (.param .b32 r) sum (.param .b32 n)\n{\n"                      /* 4, 5 */
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n"                           /* 6, 7 */
    "  .local .align 4 .b8 pad[64];\n"                                    /* 8 */
    "  ld.param.b32 %r1, [n];\n"                                          /* 9 */
    "  setp.eq.u32 %p1, %r1, 0;\n"                                        /* 10 */
    "  @%p1 bra $ZERO;\n"                                                 /* 11 */
    "  sub.u32 %r2, %r1, 1;\n"                                            /* 12 */
    "  st.local.u32 [pad], %r1;\n"                                        /* 13 */
    "  { .param .b32 a; .param .b32 b;\n"                                 /* 14 */
    "    st.param.b32 [a], %r2;\n"                                        /* 15 */
    "    call (b), sum, (a);\n"                                           /* 16 */
    "    ld.param.b32 %r3, [b]; }\n"                                      /* 17 */
    "  ld.local.u32 %r4, [pad];\n"                                        /* 18 */
    "  add.u32 %r5, %r3, %r4;\n"                                          /* 19 */
    "  st.param.b32 [r], %r5;\n  ret;\n"                                  /* 20, 21 */
    "$ZERO:\n  st.param.b32 [r], 0;\n  ret;\n}\n"                         /* 22-25 */
    ".visible .entry k(.param .u64 k_out, .param .u32 k_n, .param .u32 k_mode)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [k_out];\n  ld.param.u32 %r1, [k_n];\n  ld.param.u32 %r7, [k_mode];\n"
    "  mov.u32 %r2, %tid.x;\n  add.u32 %r3, %r1, %r2;\n"
    "  setp.eq.u32 %p1, %r7, 1;\n  @%p1 brkpt;\n"                        /* 36, 37 */
    "  setp.eq.u32 %p2, %r7, 2;\n"
    "  @!%p2 bra $CALL;\n"
    "  $L_t: .branchtargets $CALL, $CALL;\n"
    "  brx.idx %r2, $L_t;\n"                                              /* 41 */
    "$CALL:\n"
    "  { .param .b32 a; .param .b32 b;\n"
    "    st.param.b32 [a], %r3;\n"
    "    call (b), sum, (a);\n"                                           /* 45 */
    "    ld.param.b32 %r4, [b]; }\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd2, %rd1, %rd2;\n  st.global.u32 [%rd2], %r4;\n"
    "  ret;\n}\n";
  Run r = { 0 };
  const KsSimFault *f;
  const uint32_t *out;
  g_autofree char *ok = NULL, *deep = NULL, *bp = NULL, *brx = NULL;
#define CALLS_SPEC "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [4]," \
                   " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 4}}," \
                   " \"params\": [{\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": %u}," \
                   " {\"type\": \"u32\", \"value\": %u}]}"

  /* 300 levels deep: sum of 1..n */
  ok = g_strdup_printf (CALLS_SPEC, 300, 0);
  run_ptx (&r, ptx, ok);
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 4; t++)
    g_assert_cmpuint (out[t], ==, (300 + t) * (301 + t) / 2);
  run_clear (&r);

  /* a million levels: past the stack */
  deep = g_strdup_printf (CALLS_SPEC, 1000000, 0);
  g_assert_cmpint (run_ptx (&r, ptx, deep), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_STACK_OVERFLOW);
  g_assert_cmpuint (f->ptx_line, ==, 16);
  run_clear (&r);

  bp = g_strdup_printf (CALLS_SPEC, 3, 1);
  g_assert_cmpint (run_ptx (&r, ptx, bp), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_TRAP);
  g_assert_cmpuint (f->ptx_line, ==, 37);
  g_assert_nonnull (strstr (f->message, "brkpt"));
  run_clear (&r);

  /* lanes 2 and 3 index past the two targets */
  brx = g_strdup_printf (CALLS_SPEC, 3, 2);
  g_assert_cmpint (run_ptx (&r, ptx, brx), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_OUT_OF_BOUNDS);
  g_assert_cmpuint (f->ptx_line, ==, 41);
  g_assert_cmpuint (f->thread[0], ==, 2);
  run_clear (&r);
#undef CALLS_SPEC
}

/* ---- wmma ------------------------------------------------------------------------------ */

typedef enum { WT_F16, WT_BF16, WT_S8, WT_U8, WT_TF32, WT_F64, WT_F32, WT_S32 } WmmaT;

static const struct
{
  const char *kernel;
  int m, n, k;
  WmmaT ab, c;
  gboolean a_row, b_row, d_row;
  int lda, ldb;                 /* as tests/ptx/sim/wmma.cu passes them */
} wmma_kernels[] = {
  { "_Z6h_32x8PK6__halfS1_S1_PS_", 32, 8, 16, WT_F16, WT_F16, TRUE, FALSE, TRUE, 24, 24 },
  { "_Z6h_8x32PK6__halfS1_PKfPf", 8, 32, 16, WT_F16, WT_F32, FALSE, TRUE, FALSE, 16, 40 },
  { "_Z7bf_32x8PK13__nv_bfloat16S1_PKfPf", 32, 8, 16, WT_BF16, WT_F32, TRUE, FALSE, TRUE, 24, 24 },
  { "_Z7bf_8x32PK13__nv_bfloat16S1_PKfPf", 8, 32, 16, WT_BF16, WT_F32, TRUE, TRUE, FALSE, 24, 40 },
  { "_Z8s8_16x16PKaS0_PKiPi", 16, 16, 16, WT_S8, WT_S32, TRUE, FALSE, TRUE, 24, 24 },
  { "_Z7u8_32x8PKhS0_PKiPi", 32, 8, 16, WT_U8, WT_S32, FALSE, FALSE, TRUE, 40, 24 },
  { "_Z7s8_8x32PKaS0_PKiPi", 8, 32, 16, WT_S8, WT_S32, TRUE, TRUE, FALSE, 24, 40 },
  { "_Z7f64_8x8PKdS0_S0_Pd", 8, 8, 4, WT_F64, WT_F64, TRUE, FALSE, TRUE, 12, 12 },
  { "_Z10tf32_16x16PKfS0_S0_Pf", 16, 16, 8, WT_TF32, WT_F32, TRUE, FALSE, TRUE, 16, 16 },
};

static int
wmma_size (WmmaT t)
{
  switch (t)
    {
    case WT_F16: case WT_BF16: return 2;
    case WT_S8: case WT_U8: return 1;
    case WT_F64: return 8;
    default: return 4;
    }
}

static const char *
wmma_json_type (WmmaT t)
{
  static const char *const names[] = { "f16", "bf16", "s8", "u8", "f32", "f64", "f32", "s32" };

  return names[t];
}

/* A random element, as bits, and its exact value */
static uint64_t
wmma_random (GRand *rand, WmmaT t, double *value)
{
  double x = g_rand_double_range (rand, -4.0, 4.0);
  uint64_t u = 0;

  switch (t)
    {
    case WT_F16: u = f16_of (x); *value = of_f16 ((uint16_t) u); break;
    case WT_BF16: u = bf16_of (x); *value = of_bf16 ((uint16_t) u); break;
    case WT_S8: *value = (int8_t) (u = (uint8_t) g_rand_int (rand)); break;
    case WT_U8: *value = (u = (uint8_t) g_rand_int (rand)); break;
    case WT_F64: memcpy (&u, &x, 8); *value = x; break;
    case WT_S32: *value = (int32_t) (u = g_rand_int (rand)); break;
    default:
      {
        float f = (float) x;
        uint32_t b;

        memcpy (&b, &f, 4);
        u = b;
        *value = f;
      }
    }
  return u;
}

/* cvt.rna.tf32.f32 of a finite float: 10 fraction bits, ties away */
static float
tf32_of (float f)
{
  uint32_t u;

  memcpy (&u, &f, 4);
  u = (u + 0x1000u) & 0xffffe000u;
  memcpy (&f, &u, 4);
  return f;
}

/* D = A x B + C through every wmma form nvcc emits: the reference
 * accumulates in k order, in f32 with one fused multiply-add at a time for
 * the 16-bit and tf32 inputs (the simulator's documented choice; the
 * products are exact), in f64 for f64, exactly for the integers; an f16 D
 * is the f32 sum rounded once. */
static void
test_wmma_shapes (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "ptx", "sim", "sm_80", "wmma.ptx", NULL);

  for (guint kk = 0; kk < G_N_ELEMENTS (wmma_kernels); kk++)
    {
      int m = wmma_kernels[kk].m, n = wmma_kernels[kk].n, k = wmma_kernels[kk].k;
      WmmaT ab = wmma_kernels[kk].ab, ct = wmma_kernels[kk].c;
      int lda = wmma_kernels[kk].lda, ldb = wmma_kernels[kk].ldb;
      gboolean a_row = wmma_kernels[kk].a_row, b_row = wmma_kernels[kk].b_row;
      gboolean d_row = wmma_kernels[kk].d_row;
      int na = lda * (a_row ? m : k), nb = ldb * (b_row ? k : n), sab = wmma_size (ab), sc = wmma_size (ct);
      g_autofree uint8_t *ha = g_malloc0 ((size_t) na * sab), *hb = g_malloc0 ((size_t) nb * sab);
      g_autofree uint8_t *hc = g_malloc0 ((size_t) m * n * sc);
      g_autofree double *va = g_new0 (double, m * k), *vb = g_new0 (double, k * n), *vc = g_new0 (double, m * n);
      g_autofree char *xa = NULL, *xb = NULL, *xc = NULL, *spec = NULL;
      g_autoptr(GRand) rand = g_rand_new_with_seed (kk + 1);
      g_autoptr(GError) error = NULL;
      const uint8_t *d;
      Run r = { 0 };

      g_test_message ("%s", wmma_kernels[kk].kernel);
      for (int i = 0; i < m; i++)
        for (int j = 0; j < k; j++)
          {
            uint64_t u = wmma_random (rand, ab, &va[i * k + j]);

            memcpy (ha + (size_t) (a_row ? i * lda + j : j * lda + i) * sab, &u, sab);
          }
      for (int i = 0; i < k; i++)
        for (int j = 0; j < n; j++)
          {
            uint64_t u = wmma_random (rand, ab, &vb[i * n + j]);

            memcpy (hb + (size_t) (b_row ? i * ldb + j : j * ldb + i) * sab, &u, sab);
          }
      for (int i = 0; i < m * n; i++)
        {
          uint64_t u = wmma_random (rand, ct, &vc[i]);

          memcpy (hc + (size_t) i * sc, &u, sc);
        }
      xa = hex_of (ha, (size_t) na * sab);
      xb = hex_of (hb, (size_t) nb * sab);
      xc = hex_of (hc, (size_t) m * n * sc);
      spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"%s\", \"grid\": [1], \"block\": [32],"
                              " \"buffers\": {\"a\": {\"bytes_hex\": \"%s\"}, \"b\": {\"bytes_hex\": \"%s\"},"
                              " \"c\": {\"bytes_hex\": \"%s\"}, \"d\": {\"type\": \"%s\", \"count\": %d}},"
                              " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                              " {\"buffer\": \"d\"}]}", wmma_kernels[kk].kernel, xa, xb, xc,
                              wmma_json_type (ct), m * n);
      r.module = ks_ptx_module_parse_file (path, &error);
      g_assert_no_error (error);
      r.launch = ks_launch_parse (spec, -1, NULL, &error);
      g_assert_no_error (error);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      ks_sim_run (r.sim, 0, NULL);
      assert_done (&r);
      d = buffer (&r, "d");

      for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
          {
            size_t at = (size_t) (d_row ? i * n + j : j * m + i) * sc;
            uint64_t got = 0, want;

            memcpy (&got, d + at, sc);
            if (ct == WT_S32)
              {
                int64_t acc = (int64_t) vc[i * n + j];

                for (int x = 0; x < k; x++)
                  acc += (int64_t) va[i * k + x] * (int64_t) vb[x * n + j];
                want = (uint32_t) acc;
              }
            else if (ct == WT_F64)
              {
                double acc = vc[i * n + j];

                for (int x = 0; x < k; x++)
                  acc = fma (va[i * k + x], vb[x * n + j], acc);
                memcpy (&want, &acc, 8);
              }
            else
              {
                float acc = (float) vc[i * n + j];
                uint32_t bits;

                for (int x = 0; x < k; x++)
                  {
                    float fa = (float) va[i * k + x], fb = (float) vb[x * n + j];

                    if (ab == WT_TF32)
                      fa = tf32_of (fa), fb = tf32_of (fb);
                    acc = fmaf (fa, fb, acc);
                  }
                memcpy (&bits, &acc, 4);
                want = ct == WT_F16 ? f16_of (acc) : bits;
              }
            if (got != want)
              g_error ("%s: D[%d][%d] = 0x%" G_GINT64_MODIFIER "x, want 0x%" G_GINT64_MODIFIER "x",
                       wmma_kernels[kk].kernel, i, j, got, want);
          }
      run_clear (&r);
    }
}

/* ---- half precision comparisons and approximations ----------------------------------------- */

static double
half_val (gboolean bf, uint16_t u, gboolean ftz)
{
  if (ftz && (u & 0x7fffu) < (bf ? 0x0080u : 0x0400u))
    u &= 0x8000u;
  return bf ? of_bf16 (u) : of_f16 (u);
}

/* The ISA's comparisons: ordered ones false on a NaN, unordered ones true */
static gboolean
ref_cmp (const char *op, double a, double b)
{
  gboolean un = isnan (a) || isnan (b);

  if (strcmp (op, "eq") == 0) return !un && a == b;
  if (strcmp (op, "ne") == 0) return !un && a != b;
  if (strcmp (op, "lt") == 0) return !un && a < b;
  if (strcmp (op, "le") == 0) return !un && a <= b;
  if (strcmp (op, "gt") == 0) return !un && a > b;
  if (strcmp (op, "ge") == 0) return !un && a >= b;
  if (strcmp (op, "equ") == 0) return un || a == b;
  if (strcmp (op, "neu") == 0) return un || a != b;
  if (strcmp (op, "ltu") == 0) return un || a < b;
  if (strcmp (op, "leu") == 0) return un || a <= b;
  if (strcmp (op, "gtu") == 0) return un || a > b;
  if (strcmp (op, "geu") == 0) return un || a >= b;
  if (strcmp (op, "num") == 0) return !un;
  if (strcmp (op, "nan") == 0) return un;
  g_assert_not_reached ();
}

/* Each lane takes two 32-bit words a and b (pairs of halves) and a
 * predicate c, and runs setp and set on f16, bf16 and their pairs with
 * every comparison, and setp.ftz.f32 on a and b as floats; the reference
 * is the ISA's semantics on the values the bits stand for. */
static void
test_half_compare (void)
{
  static const char *const ops[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu",
                                     "gtu", "geu", "num", "nan" };
  static const uint16_t special_f16[] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x7c00,
                                          0xfc00, 0x7e00, 0x7bff, 0x03ff };
  static const uint16_t special_bf16[] = { 0x0000, 0x8000, 0x3f80, 0xbf80, 0x0001, 0x8001, 0x7f80,
                                           0xff80, 0x7fc0, 0x7f7f, 0x007f };
  enum { N = 256, N_OUT = 14 * 6 + 2 };
  uint32_t in[N * 3];
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(GString) ptx = g_string_new (PTX_HEADER ("sm_90"));
  g_autofree char *hin = NULL, *spec = NULL;
  const uint32_t *out;
  Run r = { 0 };

  for (guint i = 0; i < N; i++)
    for (guint k = 0; k < 2; k++)
      {
        uint16_t h[2];

        for (guint j = 0; j < 2; j++)
          {
            gboolean bf = (i / 64) % 2 == 1;
            const uint16_t *sp = bf ? special_bf16 : special_f16;

            h[j] = g_rand_boolean (rand) ? sp[g_rand_int_range (rand, 0, G_N_ELEMENTS (special_f16))]
                                         : (uint16_t) g_rand_int (rand);
            /* equal operands now and then */
            if (k == 1 && g_rand_int_range (rand, 0, 4) == 0)
              h[j] = (uint16_t) (in[i * 3] >> (16 * j));
          }
        in[i * 3 + k] = h[0] | (uint32_t) h[1] << 16;
        in[i * 3 + 2] = g_rand_int_range (rand, 0, 2);
      }

  g_string_append (ptx, ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n"
                        "  .reg .pred %p<8>;\n  .reg .b16 %h<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
                        "  .reg .f32 %f<3>;\n"
                        "  ld.param.u64 %rd1, [k_in];\n  ld.param.u64 %rd2, [k_out];\n"
                        "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r1, %r2, 64, %r1;\n"
                        "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd3, %rd1, %rd3;\n"
                        "  ld.global.u32 %r3, [%rd3];\n  ld.global.u32 %r4, [%rd3+4];\n"
                        "  ld.global.u32 %r5, [%rd3+8];\n  setp.ne.u32 %p1, %r5, 0;\n"
                        "  mov.b32 {%h1, %h2}, %r3;\n  mov.b32 {%h3, %h2}, %r4;\n"
                        "  mov.b32 %f1, %r3;\n  mov.b32 %f2, %r4;\n");
  g_string_append_printf (ptx, "  mul.wide.u32 %%rd4, %%r1, %d;\n  add.s64 %%rd4, %%rd2, %%rd4;\n", N_OUT * 4);
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      /* setp.f16, setp.bf16 with and; setp.f16x2 p|q with or; set.u32.f16,
       * set.f16x2.f16x2, set.s32.bf16x2 with xor */
      g_string_append_printf (ptx,
        "  setp.%s.f16 %%p2, %%h1, %%h3;\n  selp.u32 %%r6, 1, 0, %%p2;\n"
        "  setp.%s.and.bf16 %%p2, %%h1, %%h3, %%p1;\n  selp.u32 %%r7, 2, 0, %%p2;\n  or.b32 %%r6, %%r6, %%r7;\n"
        "  setp.%s.or.f16x2 %%p2|%%p3, %%r3, %%r4, !%%p1;\n  selp.u32 %%r7, 4, 0, %%p2;\n  or.b32 %%r6, %%r6, %%r7;\n"
        "  selp.u32 %%r7, 8, 0, %%p3;\n  or.b32 %%r6, %%r6, %%r7;\n"
        "  setp.%s.bf16x2 %%p2|%%p3, %%r3, %%r4;\n  selp.u32 %%r7, 16, 0, %%p2;\n  or.b32 %%r6, %%r6, %%r7;\n"
        "  selp.u32 %%r7, 32, 0, %%p3;\n  or.b32 %%r6, %%r6, %%r7;\n"
        "  st.global.u32 [%%rd4+%u], %%r6;\n"
        "  set.%s.u32.f16 %%r8, %%h1, %%h3;\n  st.global.u32 [%%rd4+%u], %%r8;\n"
        "  set.%s.f16x2.f16x2 %%r8, %%r3, %%r4;\n  st.global.u32 [%%rd4+%u], %%r8;\n"
        "  set.%s.xor.s32.bf16x2 %%r8, %%r3, %%r4, %%p1;\n  st.global.u32 [%%rd4+%u], %%r8;\n"
        "  set.%s.bf16.bf16 %%h2, %%h1, %%h3;\n  cvt.u32.u16 %%r8, %%h2;\n  st.global.u32 [%%rd4+%u], %%r8;\n"
        "  setp.%s.ftz.f32 %%p2, %%f1, %%f2;\n  selp.u32 %%r8, 1, 0, %%p2;\n  st.global.u32 [%%rd4+%u], %%r8;\n",
        ops[i], ops[i], ops[i], ops[i], (i * 6) * 4,
        ops[i], (i * 6 + 1) * 4, ops[i], (i * 6 + 2) * 4, ops[i], (i * 6 + 3) * 4,
        ops[i], (i * 6 + 4) * 4, ops[i], (i * 6 + 5) * 4);
    }
  g_string_append (ptx, "  ret;\n}\n");
  hin = hex_of (in, sizeof in);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d], \"block\": [64],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u32\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}", N / 64, hin, N * N_OUT);
  run_ptx (&r, ptx->str, spec);
  assert_done (&r);
  out = buffer (&r, "out");

  for (guint t = 0; t < N; t++)
    {
      uint32_t a = in[t * 3], b = in[t * 3 + 1];
      gboolean c = in[t * 3 + 2] != 0;
      float fa, fb;

      memcpy (&fa, &a, 4);
      memcpy (&fb, &b, 4);
      if (fpclassify (fa) == FP_SUBNORMAL)
        fa = copysignf (0.0f, fa);
      if (fpclassify (fb) == FP_SUBNORMAL)
        fb = copysignf (0.0f, fb);
      for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
        {
          const char *op = ops[i];
          gboolean f16lo = ref_cmp (op, half_val (FALSE, a, FALSE), half_val (FALSE, b, FALSE));
          gboolean f16hi = ref_cmp (op, half_val (FALSE, a >> 16, FALSE), half_val (FALSE, b >> 16, FALSE));
          gboolean bflo = ref_cmp (op, half_val (TRUE, a, FALSE), half_val (TRUE, b, FALSE));
          gboolean bfhi = ref_cmp (op, half_val (TRUE, a >> 16, FALSE), half_val (TRUE, b >> 16, FALSE));
          uint32_t want[6] = {
            (uint32_t) f16lo | (uint32_t) (bflo && c) << 1 | (uint32_t) (f16lo || !c) << 2
            | (uint32_t) (f16hi || !c) << 3 | (uint32_t) bflo << 4 | (uint32_t) bfhi << 5,
            f16lo ? 0xffffffffu : 0,
            (f16lo ? 0x3c00u : 0) | (f16hi ? 0x3c00u : 0) << 16,
            ((bflo != c) ? 0xffffu : 0) | ((bfhi != c) ? 0xffffu : 0) << 16,
            bflo ? 0x3f80u : 0,
            ref_cmp (op, fa, fb),
          };
          const uint32_t *got = out + (size_t) t * N_OUT + i * 6;

          for (guint k = 0; k < 6; k++)
            if (got[k] != want[k])
              g_error ("%s, form %u, thread %u (a 0x%08x, b 0x%08x, c %d): 0x%x, want 0x%x",
                       op, k, t, a, b, c, got[k], want[k]);
        }
    }
  run_clear (&r);
}

/* The exact value rounded once to the format (to nearest even); with
 * .ftz, subnormal results are zeros */
static uint16_t
round_half (gboolean bf, double v, gboolean ftz)
{
  if (isnan (v))
    return 0x7fffu;
  if (!bf)
    return f16_of (v);
  if (fabs (v) < 0x1p-126)
    {
      /* bf16 subnormals are multiples of 2^-133 */
      uint16_t q = ftz ? 0 : (uint16_t) nearbyint (ldexp (fabs (v), 133));

      return (signbit (v) ? 0x8000u : 0) | q;
    }
  if (fabs (v) >= 0x1.ffp127)   /* past the largest bf16 and half its ulp */
    return signbit (v) ? 0xff80u : 0x7f80u;
  return bf16_of (v);
}

/* ex2.approx and tanh.approx of f16 (ex2.approx.f16, tanh.approx.f16),
 * bf16 (ex2.approx.ftz.bf16, tanh.approx.bf16) and their pairs, on every
 * 16-bit pattern: within one unit in the last place of the exact value
 * (tighter than the ISA's bounds: 2^-9.9 and 2^-10.987 relative for f16),
 * NaN for NaN; a pair is the scalar form on each half. */
static void
test_half_approx (void)
{
  static const struct { const char *insn; gboolean bf, tanh_fn, ftz; } forms[] = {
    { "ex2.approx.f16", FALSE, FALSE, FALSE }, { "ex2.approx.ftz.bf16", TRUE, FALSE, TRUE },
    { "tanh.approx.f16", FALSE, TRUE, FALSE }, { "tanh.approx.bf16", TRUE, TRUE, FALSE },
  };
  enum { N = 65536 };
  g_autofree uint16_t *in = g_new (uint16_t, N);
  g_autofree char *hin = NULL, *spec = NULL;
  g_autoptr(GString) ptx = g_string_new (PTX_HEADER ("sm_90"));
  const uint16_t *out;
  Run r = { 0 };

  for (guint i = 0; i < N; i++)
    in[i] = (uint16_t) i;
  g_string_append (ptx, ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n"
                        "  .reg .b16 %h<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
                        "  ld.param.u64 %rd1, [k_in];\n  ld.param.u64 %rd2, [k_out];\n"
                        "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r1, %r2, 256, %r1;\n"
                        "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd3, %rd1, %rd3;\n"  /* two inputs a thread */
                        "  ld.global.u32 %r3, [%rd3];\n  mov.b32 {%h1, %h2}, %r3;\n"
                        "  mul.wide.u32 %rd4, %r1, 24;\n  add.s64 %rd4, %rd2, %rd4;\n");
  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      /* the scalar form on the first input, the pair form on both */
      g_autofree char *pair = g_strdup_printf ("%sx2", forms[f].insn);

      g_string_append_printf (ptx, "  %s %%h3, %%h1;\n  st.global.u16 [%%rd4+%u], %%h3;\n"
                                   "  %s %%r4, %%r3;\n  st.global.u32 [%%rd4+%u], %%r4;\n",
                              forms[f].insn, f * 2, pair, 8 + f * 4);
    }
  g_string_append (ptx, "  ret;\n}\n");

  hin = hex_of (in, (size_t) N * 2);
  spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"grid\": [%d], \"block\": [256],"
                          " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                          " \"out\": {\"type\": \"u16\", \"count\": %d}},"
                          " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}", N / 2 / 256, hin, N / 2 * 12);
  run_ptx (&r, ptx->str, spec);
  assert_done (&r);
  out = buffer (&r, "out");

  for (guint t = 0; t < N / 2; t++)
    for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
      {
        gboolean bf = forms[f].bf;
        const uint16_t *o = out + (size_t) t * 12;
        uint16_t got[3] = { o[f], o[4 + f * 2], o[4 + f * 2 + 1] };
        uint16_t x[3] = { in[t * 2], in[t * 2], in[t * 2 + 1] };

        for (guint k = 0; k < 3; k++)
          {
            double a = half_val (bf, x[k], forms[f].ftz);
            double v = forms[f].tanh_fn ? tanh (a) : exp2 (a);
            uint16_t want = round_half (bf, v, forms[f].ftz);
            gboolean nan = (got[k] & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u);

            if (isnan (v) ? !nan
                : nan || ((got[k] ^ want) & 0x8000u && (got[k] | want) & 0x7fffu)
                  || ABS ((int) (got[k] & 0x7fffu) - (int) (want & 0x7fffu)) > 1)
              g_error ("%s%s of 0x%04x: 0x%04x, want 0x%04x", forms[f].insn, k ? "x2" : "", x[k],
                       got[k], want);
          }
        /* the pair's low half is the scalar form's result */
        g_assert_cmphex (got[1], ==, got[0]);
      }
  run_clear (&r);
}

/* ---- the stack and cache hints ------------------------------------------------------------ */

/* alloca as nvcc emits it for alloca() in device code: each thread asks
 * for (n + tid % 4) words, 16-byte aligned, writes t * i into word i
 * through a generic address and sums them back; three times, with the
 * stack pointer saved before and restored after each, which must leave
 * it where it was.  createpolicy, applypriority and discard are cache
 * hints that change nothing, as griddepcontrol and setmaxnreg do in a
 * simulator of one grid without a register limit; discard of a line that
 * is not 128-byte aligned faults. */
static void
test_alloca_and_hints (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_90")
    ".visible .entry k(.param .u64 k_out, .param .u32 k_n, .param .u32 k_bad)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<20>;\n"
    "  ld.param.u64 %rd1, [k_out];\n  ld.param.u32 %r1, [k_n];\n  ld.param.u32 %r12, [k_bad];\n"
    "  cvta.to.global.u64 %rd19, %rd1;\n"
    "  mov.u32 %r2, %tid.x;\n  and.b32 %r3, %r2, 3;\n  add.u32 %r3, %r3, %r1;\n"   /* words */
    "  mov.u32 %r10, 0;\n  mov.u32 %r11, 0;\n"
    "  stacksave.u64 %rd2;\n"
    "  mov.u32 %r4, 0;\n"
    "$ROUND:\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n"
    "  alloca.u64 %rd4, %rd3, 16;\n"
    "  cvt.u32.u64 %r5, %rd4;\n  and.b32 %r5, %r5, 15;\n  or.b32 %r11, %r11, %r5;\n"    /* alignment */
    "  cvta.local.u64 %rd5, %rd4;\n"
    "  mov.u32 %r6, 0;\n"
    "$FILL:\n"
    "  mul.lo.u32 %r7, %r6, %r2;\n  add.u32 %r7, %r7, %r4;\n"
    "  mul.wide.u32 %rd6, %r6, 4;\n  add.s64 %rd7, %rd5, %rd6;\n  st.u32 [%rd7], %r7;\n"
    "  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, %r3;\n  @%p1 bra $FILL;\n"
    "  mov.u32 %r6, 0;\n"
    "$SUM:\n"
    "  mul.wide.u32 %rd6, %r6, 4;\n  add.s64 %rd7, %rd4, %rd6;\n  ld.local.u32 %r7, [%rd7];\n"
    "  add.u32 %r10, %r10, %r7;\n"
    "  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, %r3;\n  @%p1 bra $SUM;\n"
    "  stackrestore.u64 %rd2;\n"
    "  stacksave.u64 %rd8;\n  setp.ne.u64 %p2, %rd8, %rd2;\n  selp.u32 %r5, 100, 0, %p2;\n"
    "  or.b32 %r11, %r11, %r5;\n"
    "  add.u32 %r4, %r4, 1;\n  setp.lt.u32 %p1, %r4, 3;\n  @%p1 bra $ROUND;\n"
    "  createpolicy.fractional.L2::evict_last.b64 %rd9, 1.0;\n"
    "  ld.global.L2::cache_hint.u32 %r13, [%rd19], %rd9;\n"
    "  applypriority.global.L2::evict_normal [%rd19], 128;\n"
    "  cvt.u64.u32 %rd10, %r12;\n  add.s64 %rd11, %rd19, %rd10;\n"
    "  discard.global.L2 [%rd11], 128;\n"
    "  griddepcontrol.wait;\n  griddepcontrol.launch_dependents;\n"
    "  setmaxnreg.inc.sync.aligned.u32 64;\n"
    "  mul.wide.u32 %rd12, %r2, 8;\n  add.s64 %rd12, %rd19, %rd12;\n"
    "  st.global.v2.u32 [%rd12], {%r10, %r11};\n"
    "  ret;\n}\n";
  Run r = { 0 };
  const uint32_t *out;
  const KsSimFault *f;

  run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [128],"
                    " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 256}},"
                    " \"params\": [{\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 5},"
                    " {\"type\": \"u32\", \"value\": 128}]}");
  assert_done (&r);
  out = buffer (&r, "out");
  for (uint32_t t = 0; t < 128; t++)
    {
      uint32_t words = 5 + t % 4, sum = 0;

      for (uint32_t round = 0; round < 3; round++)
        for (uint32_t i = 0; i < words; i++)
          sum += i * t + round;
      g_assert_cmpuint (out[t * 2], ==, sum);
      g_assert_cmpuint (out[t * 2 + 1], ==, 0);   /* aligned; the pointer restored */
    }
  run_clear (&r);

  g_assert_cmpint (run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [32],"
                                     " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 64}},"
                                     " \"params\": [{\"buffer\": \"out\"}, {\"type\": \"u32\", \"value\": 5},"
                                     " {\"type\": \"u32\", \"value\": 4}]}"), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_MISALIGNED);
  run_clear (&r);
}

/* ---- the engine's API ----------------------------------------------------------------- */

static void
cancel_on_progress (double   fraction,
                    gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

/* A run cancelled through its GCancellable from the progress callback
 * (as the window's Stop does from another thread) stops early with
 * KS_SIM_CANCELLED, having run part of the launch: 64 blocks of a loop of
 * 20000 iterations, about 100 M warp-instructions in all. */
static void
test_cancel_midway (void)
{
  static const char ptx[] =
    PTX_HEADER ("sm_80")
    ".visible .entry k(.param .u64 k_out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n"
    "$L:\n  add.u32 %r2, %r2, %r1;\n  add.u32 %r1, %r1, 1;\n"
    "  setp.lt.u32 %p1, %r1, 20000;\n  @%p1 bra $L;\n"
    "  ld.param.u64 %rd1, [k_out];\n  mov.u32 %r3, %ctaid.x;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n  add.s64 %rd2, %rd1, %rd2;\n  st.global.u32 [%rd2], %r2;\n"
    "  ret;\n}\n";
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Run r = { 0 };
  const uint32_t *out;
  uint32_t done = 0;

  r.module = text_module (ptx);
  r.launch = ks_launch_parse ("{\"ptx\": \"x.ptx\", \"grid\": [64], \"block\": [32],"
                              " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 64}},"
                              " \"params\": [{\"buffer\": \"out\"}]}", -1, NULL, &error);
  g_assert_no_error (error);
  r.sim = ks_sim_new (r.module, r.launch, &error);
  g_assert_no_error (error);
  ks_sim_set_trace (r.sim, FALSE, 0);
  ks_sim_set_progress_func (r.sim, cancel_on_progress, cancel);
  g_assert_cmpint (ks_sim_run (r.sim, 0, cancel), ==, KS_SIM_CANCELLED);
  g_assert_cmpint (ks_sim_get_status (r.sim), ==, KS_SIM_CANCELLED);
  g_assert_cmpuint (ks_sim_get_stats (r.sim)->warp_instructions, <, 64 * 80000 / 2);
  g_assert_null (ks_sim_get_fault (r.sim));
  out = buffer (&r, "out");
  for (uint32_t b = 0; b < 64; b++)
    if (out[b] != 0)
      {
        /* a block that finished has the sum of 0..19999 (mod 2^32) */
        g_assert_cmpuint (out[b], ==, (uint32_t) (19999ull * 20000 / 2));
        done++;
      }
  g_assert_cmpuint (done, <, 64);
  run_clear (&r);
}

/* ---- the launch ------------------------------------------------------------------------- */

/* Scalar parameters of every type reach the kernel with their bits, as
 * the spec's values give them (the f16 and bf16 ones rounded to nearest),
 * and a buffer passed twice is the same memory through both parameters */
static void
test_params (void)
{
  static const char *const types[] = { "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
                                       "f16", "bf16", "f32", "f64", "b8", "b16", "b32", "b64" };
  static const char *const values[] = { "200", "-100", "60000", "-30000", "4000000000", "-2000000000",
                                        "\"0xfedcba9876543210\"", "-5000000000", "1.5", "-2.75",
                                        "3.25", "-0.1", "171", "\"0xbeef\"", "\"0xdeadbeef\"",
                                        "\"0x0123456789abcdef\"" };
  double m1 = -0.1;
  uint64_t bits_m1;
  const uint64_t want[] = {
    200, (uint8_t) -100, 60000, (uint16_t) -30000, 4000000000u, (uint32_t) -2000000000,
    G_GUINT64_CONSTANT (0xfedcba9876543210), (uint64_t) G_GINT64_CONSTANT (-5000000000),
    0x3e00, 0xc030, 0x40500000, 0, 171, 0xbeef, 0xdeadbeef, G_GUINT64_CONSTANT (0x0123456789abcdef),
  };
  g_autoptr(GString) ptx = g_string_new (PTX_HEADER ("sm_80"));
  g_autoptr(GString) spec = g_string_new ("{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1],"
                                          " \"buffers\": {\"out\": {\"type\": \"u64\", \"count\": 20}},"
                                          " \"params\": [{\"buffer\": \"out\"}, {\"buffer\": \"out\"}");
  const uint64_t *out;
  Run r = { 0 };

  memcpy (&bits_m1, &m1, 8);
  g_string_append (ptx, ".visible .entry k(.param .u64 k_out, .param .u64 k_alias");
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      gboolean half = strcmp (types[i], "f16") == 0 || strcmp (types[i], "bf16") == 0;

      g_string_append_printf (ptx, ", .param .%s k_%u", half ? "b16" : types[i], i);
      g_string_append_printf (spec, ", {\"type\": \"%s\", \"value\": %s}", types[i], values[i]);
    }
  g_string_append (spec, "]}");
  g_string_append (ptx, ")\n{\n  .reg .b64 %rd<40>;\n  .reg .b32 %r<4>;\n  .reg .b16 %h<4>;\n"
                        "  .reg .f32 %f<2>;\n  .reg .f64 %fd<2>;\n"
                        "  ld.param.u64 %rd1, [k_out];\n  ld.param.u64 %rd2, [k_alias];\n");
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const char *t = types[i];
      int size = strchr (t, '8') ? 1 : strstr (t, "16") ? 2 : strstr (t, "32") ? 4 : 8;

      /* each through a register of its own width, zero-extended into 64 bits */
      if (size == 8)
        g_string_append_printf (ptx, "  ld.param.b64 %%rd%u, [k_%u];\n", 10 + i, i);
      else if (strcmp (t, "f32") == 0)
        g_string_append_printf (ptx, "  ld.param.f32 %%f1, [k_%u];\n  mov.b32 %%r1, %%f1;\n"
                                     "  cvt.u64.u32 %%rd%u, %%r1;\n", i, 10 + i);
      else if (size == 4)
        g_string_append_printf (ptx, "  ld.param.b32 %%r1, [k_%u];\n  cvt.u64.u32 %%rd%u, %%r1;\n", i, 10 + i);
      else if (size == 2)
        g_string_append_printf (ptx, "  ld.param.b16 %%h1, [k_%u];\n  cvt.u64.u16 %%rd%u, %%h1;\n", i, 10 + i);
      else
        g_string_append_printf (ptx, "  ld.param.u8 %%h1, [k_%u];\n  cvt.u64.u16 %%rd%u, %%h1;\n", i, 10 + i);
      g_string_append_printf (ptx, "  st.global.u64 [%%rd1+%u], %%rd%u;\n", i * 8, 10 + i);
    }
  /* the alias: written through one pointer, read through the other */
  g_string_append (ptx, "  st.global.u64 [%rd2+144], 777;\n  ld.global.u64 %rd3, [%rd1+144];\n"
                        "  st.global.u64 [%rd1+152], %rd3;\n  sub.s64 %rd4, %rd2, %rd1;\n"
                        "  st.global.u64 [%rd1+136], %rd4;\n  ret;\n}\n");
  run_ptx (&r, ptx->str, spec->str);
  assert_done (&r);
  out = buffer (&r, "out");
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    g_assert_cmphex (out[i], ==, strcmp (types[i], "f64") == 0 ? bits_m1 : want[i]);
  g_assert_cmpuint (out[17], ==, 0);            /* the same address */
  g_assert_cmpuint (out[19], ==, 777);
  run_clear (&r);
}

/* ---- the race check ---------------------------------------------------------------------- */

/* The hazards compute-sanitizer's racecheck defines, between two threads
 * of a block touching one shared word with no barrier between them: a read
 * then a write (WAR), two writes (WAW, also two lanes of one store), and a
 * write then a read in the same warp without __syncwarp (a race on Volta
 * and later); atomics are not hazards. */
static void
test_race_kinds (void)
{
  static const struct { const char *body; int kind; uint32_t first, second, t1, t2; } cases[] = {
    { "  @!%p1 ld.shared.u32 %r2, [flag];\n  setp.ne.u32 %p1, %r1, 40;\n"
      "  @!%p1 st.shared.u32 [flag], 9;\n", KS_HAZARD_WAR, 11, 13, 0, 40 },
    { "  @!%p1 st.shared.u32 [flag], 7;\n  setp.ne.u32 %p1, %r1, 40;\n"
      "  @!%p1 st.shared.u32 [flag], 9;\n", KS_HAZARD_WAW, 11, 13, 0, 40 },
    { "  @!%p1 st.shared.u32 [flag], 7;\n  setp.ne.u32 %p1, %r1, 5;\n"
      "  @!%p1 ld.shared.u32 %r2, [flag];\n", KS_HAZARD_RAW, 11, 13, 0, 5 },
    { "  setp.lt.u32 %p1, %r1, 2;\n  @%p1 st.shared.u32 [flag], %r1;\n", KS_HAZARD_WAW, 12, 12, 0, 1 },
    { "  atom.shared.add.u32 %r2, [flag], 1;\n  red.shared.add.u32 [flag], 1;\n"
      "  ld.shared.u32 %r2, [flag+4];\n", -1, 0, 0, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *ptx = g_strdup_printf (PTX_HEADER ("sm_80")                 /* 1-3 */
                                              ".visible .entry k()\n{\n"           /* 4, 5 */
                                              "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n"
                                              "  .shared .align 4 .b32 flag[2];\n" /* 8 */
                                              "  mov.u32 %%r1, %%tid.x;\n"         /* 9 */
                                              "  setp.ne.u32 %%p1, %%r1, 0;\n"     /* 10 */
                                              "%s  ret;\n}\n", cases[i].body);
      const KsSimHazard *h;
      uint32_t n;
      Run r = { 0 };

      run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [64], \"params\": []}");
      assert_done (&r);
      h = ks_sim_get_hazards (r.sim, &n);
      if (cases[i].kind < 0)
        g_assert_cmpuint (n, ==, 0);
      else
        {
          g_assert_cmpuint (n, ==, 1);
          g_assert_cmpint (h[0].kind, ==, cases[i].kind);
          g_assert_cmpuint (r.module->insns[h[0].first_insn].line, ==, cases[i].first);
          g_assert_cmpuint (r.module->insns[h[0].second_insn].line, ==, cases[i].second);
          g_assert_cmpuint (h[0].first_thread, ==, cases[i].t1);
          g_assert_cmpuint (h[0].second_thread, ==, cases[i].t2);
          g_assert_cmpuint (h[0].address, ==, 0);
        }
      run_clear (&r);
    }
}

/* An access whose address is not a multiple of its whole size (a vector's
 * too) is a misaligned fault, in every state space, naming the address */
static void
test_misaligned (void)
{
  static const struct { const char *insn; uint32_t size; const char *space; uint64_t addr; } cases[] = {
    { "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+8];", 16, "global", G_GUINT64_CONSTANT (8) },
    { "ld.global.v8.f32 {%f1, %f2, %f3, %f4, %f1, %f2, %f3, %f4}, [%rd1+16];", 32, "global", 16 },
    { "ld.shared.v2.u32 {%r2, %r3}, [s+4];", 8, "shared", 4 },
    { "st.local.u64 [l+4], %rd1;", 8, "local", 4 },
    { "ld.u16 %h1, [%rd1+1];", 2, "generic", 1 },
    { "atom.global.add.u64 %rd2, [%rd1+4], 1;", 8, "global", 4 },
    { "ld.global.b128 %q1, [%rd1+8];", 16, "global", 8 },
    { "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];", 0, NULL, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *ptx = g_strdup_printf (".version 8.8\n.target sm_100\n.address_size 64\n"
                                              ".visible .entry k(.param .u64 out)\n{\n"
                                              "  .reg .b32 %%r<5>;\n  .reg .f32 %%f<5>;\n  .reg .b16 %%h<2>;\n"
                                              "  .reg .b64 %%rd<4>;\n  .reg .b128 %%q<2>;\n"
                                              "  .shared .align 16 .b8 s[64];\n  .local .align 16 .b8 l[64];\n"
                                              "  ld.param.u64 %%rd1, [out];\n  %s\n  ret;\n}\n", cases[i].insn);
      g_autofree char *what = NULL;
      Run r = { 0 };
      const KsSimFault *f;
      KsSimStatus st = run_ptx (&r, ptx, "{\"ptx\": \"x.ptx\", \"grid\": [1], \"block\": [1],"
                                         " \"buffers\": {\"o\": {\"type\": \"u32\", \"count\": 64}},"
                                         " \"params\": [{\"buffer\": \"o\"}]}");

      if (cases[i].space == NULL)
        {
          assert_done (&r);
          run_clear (&r);
          continue;
        }
      g_assert_cmpint (st, ==, KS_SIM_FAULTED);
      f = ks_sim_get_fault (r.sim);
      g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_MISALIGNED);
      g_assert_cmpuint (f->ptx_line, ==, 14);   /* the instruction's line */
      g_assert_true (f->has_address);
      /* global addresses are the buffer's plus the offset */
      g_assert_cmphex (f->address & 0xffff, ==, cases[i].addr);
      what = g_strdup_printf ("misaligned %u-byte %s access", cases[i].size, cases[i].space);
      g_assert_nonnull (strstr (f->message, what));
      run_clear (&r);
    }
}

/* A frame of more local memory than a thread has (512 KiB, ptxas's own
 * bound): the kernel's own faults at its first block and thread, a callee's
 * at its call, with the frame's size and the limit, on one thread and on
 * several; one within the bound runs (issue 16: the failed push was
 * ignored and the fast path crashed on a warp without a frame) */
static void
test_large_local_frame (void)
{
  static const char big[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry big(.param .u64 out)\n"                                /* 4 */
    "{\n  .local .align 4 .b8 lv[%u];\n"
    "  .reg .b32 %%r<3>;\n  .reg .b64 %%rd<4>;\n"
    "  mov.u32 %%r1, %%tid.x;\n"
    "  st.local.u32 [lv+%u], %%r1;\n"
    "  ld.local.u32 %%r2, [lv+%u];\n"
    "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
    "  st.global.u32 [%%rd3], %%r2;\n  ret;\n}\n";
  static const char callee[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".func f()\n{\n  .local .align 4 .b8 lv[1048576];\n  st.local.u32 [lv], 1;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  call f, ();\n"                                                     /* 12 */
    "  ret;\n}\n";
  const char *spec = "{\"ptx\": \"x.ptx\", \"grid\": [3], \"block\": [64],"
                     " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 64}},"
                     " \"params\": [{\"buffer\": \"out\"}]}";
  g_autofree char *huge = g_strdup_printf (big, 1048576u, 1048572u, 1048572u);
  g_autofree char *fits = g_strdup_printf (big, 65536u, 65532u, 65532u);
  const KsSimFault *f;
  Run r = { 0 };

  for (uint32_t threads = 1; threads <= 2; threads++)
    {
      g_autoptr(GError) error = NULL;

      r.module = text_module (huge);
      r.launch = ks_launch_parse (spec, -1, NULL, &error);
      g_assert_no_error (error);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      ks_sim_set_threads (r.sim, threads);
      g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
      f = ks_sim_get_fault (r.sim);
      g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_STACK_OVERFLOW);
      g_assert_cmpstr (f->message, ==, "big needs 1048576 bytes of local memory per thread; "
                                        "a thread has at most 524288 (512 KiB, as on the GPU)");
      g_assert_cmpuint (f->block[0], ==, 0);
      g_assert_cmpuint (f->thread[0], ==, 0);
      g_assert_cmpuint (f->ptx_line, ==, 4);
      run_clear (&r);
    }

  g_assert_cmpint (run_ptx (&r, callee, spec), ==, KS_SIM_FAULTED);
  f = ks_sim_get_fault (r.sim);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_STACK_OVERFLOW);
  g_assert_cmpuint (f->ptx_line, ==, 12);
  g_assert_nonnull (strstr (f->message, "f needs 1048576 bytes"));
  run_clear (&r);

  g_assert_cmpint (run_ptx (&r, fits, spec), ==, KS_SIM_DONE);
  for (uint32_t t = 0; t < 64; t++)
    g_assert_cmpuint (((const uint32_t *) buffer (&r, "out"))[t], ==, t);
  run_clear (&r);
}

/* The time limit: a loop that never ends stops after the seconds given
 * (read from the clock every 64 K warp-instructions, not per instruction),
 * at the loop's instruction, with where the budget came from; on one
 * thread and on several; a kernel that ends within it is not touched
 * (issue 16: only the step limit stopped it, 36-160 s later) */
static void
test_time_limit (void)
{
  static const char loop[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry spin(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n  mov.u32 %r1, 0;\n"
    "$L:\n  add.u32 %r1, %r1, 1;\n"                                          /* 9 */
    "  bra $L;\n}\n";                                                       /* 10 */
  const char *spec = "{\"ptx\": \"x.ptx\", \"grid\": [4], \"block\": [64],"
                     " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 1}},"
                     " \"params\": [{\"buffer\": \"out\"}]}";
  Run r = { 0 };

  for (uint32_t threads = 1; threads <= 2; threads++)
    {
      g_autoptr(GError) error = NULL;
      const KsSimFault *f;
      gint64 start;
      double took;

      r.module = text_module (loop);
      r.launch = ks_launch_parse (spec, -1, NULL, &error);
      g_assert_no_error (error);
      r.sim = ks_sim_new (r.module, r.launch, &error);
      g_assert_no_error (error);
      ks_sim_set_threads (r.sim, threads);
      ks_sim_set_time_limit (r.sim, 0.25, threads == 1 ? NULL : "--max-seconds 0.25");
      start = g_get_monotonic_time ();
      g_assert_cmpint (ks_sim_run (r.sim, 0, NULL), ==, KS_SIM_FAULTED);
      took = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
      g_test_message ("%u thread(s): stopped after %.3f s", threads, took);
      g_assert_cmpfloat (took, >=, 0.25);
      g_assert_cmpfloat (took, <, 5);
      f = ks_sim_get_fault (r.sim);
      g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_TIME_LIMIT);
      g_assert_cmpstr (ks_sim_fault_kind_name (f->kind), ==, "time_limit");
      g_assert_cmpstr (f->message, ==, threads == 1
                       ? "stopped after 0.25 s of simulation (the time limit): the kernel may not terminate"
                       : "stopped after 0.25 s of simulation (--max-seconds 0.25): the kernel may not "
                         "terminate");
      g_assert_true (f->ptx_line == 9 || f->ptx_line == 10);
      run_clear (&r);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/kernels/cvt-pack", test_cvt_pack);
  g_test_add_func ("/sim/kernels/isspacep", test_isspacep);
  g_test_add_func ("/sim/kernels/special-registers", test_special_registers);
  g_test_add_func ("/sim/kernels/barrier/partial-warp", test_barrier_partial_warp);
  g_test_add_func ("/sim/kernels/barrier/named", test_barrier_named);
  g_test_add_func ("/sim/kernels/barrier/deadlock-lines", test_barrier_deadlock_lines);
  g_test_add_func ("/sim/kernels/printf/formats", test_printf_formats);
  g_test_add_func ("/sim/kernels/atomics/every-op", test_shared_atomics);
  g_test_add_func ("/sim/kernels/atomics/vector-and-float-min-max", test_vector_atomics);
  g_test_add_func ("/sim/kernels/control/brx-switch", test_brx_switch);
  g_test_add_func ("/sim/kernels/control/calls-and-faults", test_calls_and_faults);
  g_test_add_func ("/sim/kernels/wmma/every-shape", test_wmma_shapes);
  g_test_add_func ("/sim/kernels/half/compare", test_half_compare);
  g_test_add_func ("/sim/kernels/half/approx", test_half_approx);
  g_test_add_func ("/sim/kernels/control/alloca-and-hints", test_alloca_and_hints);
  g_test_add_func ("/sim/kernels/api/cancel-midway", test_cancel_midway);
  g_test_add_func ("/sim/kernels/launch/params", test_params);
  g_test_add_func ("/sim/kernels/race-check/kinds", test_race_kinds);
  g_test_add_func ("/sim/kernels/faults/misaligned", test_misaligned);
  g_test_add_func ("/sim/kernels/faults/large-local-frame", test_large_local_frame);
  g_test_add_func ("/sim/kernels/faults/time-limit", test_time_limit);
  return g_test_run ();
}
