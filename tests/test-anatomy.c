/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The launch's anatomy (seeds/004, issue 18) against references nobody
 * here wrote:
 *
 * - the seed's vadd<<<4096, 256>>> on an RTX 4090: 6 blocks an SM, 5.33
 *   waves, 12 of 48 warps a scheduler, and its Nsight Compute figures
 *   (warps active 82.77 % of peak, 10.78 us) within the timing tests'
 *   tolerances;
 * - where the SASS reads each parameter: the c[0x0][...] operands of the
 *   sample's listings made by nvdisasm 11.8 (data/samples/01-vector-add/
 *   sass), 0x160 on sm_89 and 0x210 on sm_90;
 * - with ptxas here, the offsets and constant-bank places ptxas records in
 *   a cubin's .nv.info (EIATTR_KPARAM_INFO, EIATTR_PARAM_CBANK) for a
 *   kernel with an aligned struct parameter. */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ks-anatomy.h"
#include "ks-analysis.h"
#include "ks-sass.h"
#include "ks-sass-cubin.h"
#include "ks-toolchain.h"

/* The sample's vector add over n elements in blocks of 256 */
static char *
vadd_spec (const char *ptx,
           guint       blocks,
           guint       n)
{
  return g_strdup_printf ("{\"ptx\": \"%s\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\", "
                          "\"grid\": [%u], \"block\": [256], \"buffers\": {"
                          "\"a\": {\"type\": \"f32\", \"count\": %u},"
                          "\"b\": {\"type\": \"f32\", \"count\": %u},"
                          "\"c\": {\"type\": \"f32\", \"count\": %u}},"
                          "\"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, "
                          "{\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": %u}]}",
                          ptx, blocks, n, n, n, n);
}

static KsAnalysis *
analyse_vadd (const char *gpu,
              guint       blocks)
{
  g_autofree char *ptx = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ks-anatomy-XXXXXX", NULL);
  g_autofree char *spec = g_build_filename (dir, "vadd.json", NULL);
  g_autofree char *text = NULL;
  guint n = blocks * 256;
  KsAnalysisRequest req;
  KsAnalysis *a;

  text = vadd_spec (ptx, blocks, n);
  g_assert_true (g_file_set_contents (spec, text, -1, NULL));
  ks_analysis_request_init (&req);
  req.path = spec;
  req.gpu = gpu;
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_unlink (spec);
  g_rmdir (dir);
  return a;
}

/* The sample carries the seed's measurement (its sample.json, copied
 * beside a spec): shown for vadd<<<4096, 256>>> with n = 1 << 20 on the
 * RTX 4090, not for another n, another GPU or another grid */
static void
test_measured (void)
{
  g_autofree char *ptx = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                "01-vector-add", "vector_add.ptx", NULL);
  g_autofree char *meta = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "01-vector-add", "sample.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ks-anatomy-XXXXXX", NULL);
  g_autofree char *spec = g_build_filename (dir, "vadd.json", NULL);
  g_autofree char *copy = g_build_filename (dir, "sample.json", NULL);
  g_autofree char *contents = NULL;
  const struct { const char *gpu; guint blocks, n; gboolean shown; } cases[] = {
    { "rtx-4090", 4096, 1048576, TRUE },
    { "rtx-4090", 4096, 1000, FALSE },
    { "rtx-3090", 4096, 1048576, FALSE },
    { "rtx-4090", 2048, 1048576, FALSE },
  };

  g_assert_true (g_file_get_contents (meta, &contents, NULL, NULL));
  g_assert_true (g_file_set_contents (copy, contents, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(KsAnalysis) a = NULL;
      g_autoptr(KsAnatomy) an = NULL;
      g_autoptr(JsonNode) root = NULL;
      KsAnalysisRequest req;

      text = vadd_spec (ptx, cases[i].blocks, cases[i].n);
      g_assert_true (g_file_set_contents (spec, text, -1, NULL));
      ks_analysis_request_init (&req);
      req.path = spec;
      req.gpu = cases[i].gpu;
      req.use_toolkit = FALSE;
      a = ks_analysis_run (&req, NULL, NULL, NULL);
      g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
      an = ks_anatomy_new (a, NULL);
      g_assert_nonnull (an);
      root = ks_anatomy_to_json (an);
      if (cases[i].shown)
        {
          JsonObject *m = json_object_get_object_member (json_node_get_object (root),
                                                         "nsight_measured");

          g_assert_nonnull (an->measured.source);
          g_assert_null (an->other.source);
          /* the seed's figures, as the sample carries them */
          g_assert_cmpfloat (an->measured.nsight[KS_ANATOMY_WARPS_ACTIVE], ==, 82.77);
          g_assert_cmpfloat (an->measured.nsight[KS_ANATOMY_DURATION], ==, 10.78);
          g_assert_cmpfloat (json_object_get_double_member (m, "dram__throughput.avg.pct_of_peak"),
                             ==, 79.65);
        }
      else
        {
          g_assert_null (an->measured.source);
          g_assert_nonnull (an->other.source);
          g_assert_false (an->other_is_edited);
          g_assert_true (json_node_is_null (json_object_get_member (json_node_get_object (root),
                                                                    "nsight_measured")));
        }
    }
  g_unlink (spec);
  g_unlink (copy);
  g_rmdir (dir);
}

static void
test_vadd_seed004 (void)
{
  g_autoptr(KsAnalysis) a = analyse_vadd ("rtx-4090", 4096);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsAnatomy) an = ks_anatomy_new (a, &error);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o, *nsight;
  const uint32_t offsets[] = { 0, 8, 16, 24 }, sizes[] = { 8, 8, 8, 4 };

  g_assert_no_error (error);
  /* (const float *a, const float *b, float *c, int n) */
  g_assert_cmpuint (an->n_params, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (an->params[i].offset, ==, offsets[i]);
      g_assert_cmpuint (an->params[i].size, ==, sizes[i]);
      /* nvdisasm's listing reads each at c[0x0][0x160 + offset] */
      g_assert_cmpuint (an->params[i].cbank_offset, ==, 0x160 + offsets[i]);
      g_assert_cmpint (an->params[i].in_sass, ==, 1);
    }
  g_assert_cmpuint (an->param_bytes, ==, 28);
  /* c++filt: vector_add(float const*, float const*, float*, int) */
  g_assert_cmpstr (an->params[0].type, ==, "float const*");
  g_assert_cmpstr (an->params[1].type, ==, "float const*");
  g_assert_cmpstr (an->params[2].type, ==, "float*");
  g_assert_cmpstr (an->params[3].type, ==, "int");
  g_assert_cmpstr (an->sass_arch, ==, "sm_89");
  /* the seed's control codes: the two LDG.E set scoreboard 2 and the FADD
   * waits on it, with a stall of 5 before the STG */
  {
    const KsAnatomyInsn *w;
    guint loads = 0;

    g_assert_cmpuint (an->waiter, !=, KS_ANATOMY_NONE);
    w = &an->insns[an->waiter];
    g_assert_true (g_str_has_prefix (w->text, "FADD "));
    g_assert_cmpstr (w->opcode, ==, "FADD");
    g_assert_cmpuint (an->waiter_barrier, ==, 2);
    g_assert_cmphex (w->control.wait_mask, ==, 1u << 2);
    g_assert_cmpuint (w->control.stall, ==, 5);
    g_assert_cmpuint (an->n_setters, ==, 2);
    for (guint i = 0; i < an->waiter; i++)
      if (g_str_has_prefix (an->insns[i].text, "LDG.E "))
        {
          g_assert_cmpuint (an->insns[i].control.write_barrier, ==, 2);
          loads++;
        }
    g_assert_cmpuint (loads, ==, 2);
  }
  /* the seed: 1536 threads an SM / 256 = 6 blocks, 128 SMs, 4096 / 768 =
   * 5.33 waves, 48 warps over 4 schedulers */
  g_assert_cmpuint (an->blocks_per_sm, ==, 6);
  g_assert_cmpuint (an->sms, ==, 128);
  g_assert_cmpfloat_with_epsilon (an->waves_per_sm, 5.33, 0.01);
  g_assert_cmpuint (an->warps_per_scheduler, ==, 12);
  /* 4096 / 768 = 5.33: five full waves and a tail of 256 blocks, two on
   * each of the 128 SMs */
  g_assert_cmpuint (ks_anatomy_wave_count (an), ==, 6);
  for (guint sm = 0; sm < 128; sm++)
    {
      g_assert_cmpuint (ks_anatomy_wave_blocks (an, 0, sm), ==, 6);
      g_assert_cmpuint (ks_anatomy_wave_blocks (an, 4, sm), ==, 6);
      g_assert_cmpuint (ks_anatomy_wave_blocks (an, 5, sm), ==, 2);
      g_assert_cmpuint (ks_anatomy_wave_blocks (an, 6, sm), ==, 0);
    }
  g_assert_cmpuint (ks_anatomy_wave_blocks (an, 0, 128), ==, 0);
  g_assert_cmpuint (an->max_warps_per_scheduler, ==, 12);
  g_assert_cmpuint (an->blocks, ==, 4096);
  g_assert_cmpuint (an->threads, ==, 1048576);
  /* the seed: registers would allow 16 blocks, threads 6 */
  g_assert_cmpuint (an->blocks_by_threads, ==, 6);
  g_assert_cmpuint (an->blocks_by_registers, >=, 16);
  /* NVIDIA's RTX 4090 figures: 82.6 TFLOPS FP32, 1008 GB/s; the seed's
   * kernel does 1 flop for 12 bytes */
  g_assert_cmpfloat_with_epsilon (an->peak_gflops / 1e3, 82.6, 0.1);
  g_assert_cmpfloat_with_epsilon (an->bandwidth_gbs, 1008, 1);
  g_assert_cmpfloat_with_epsilon (an->global_intensity, 1.0 / 12, 1e-6);
  g_assert_cmpfloat_with_epsilon (an->global_bytes, 12.0 * 1048576, 1);
  /* a warp's 32 consecutive floats are 128 bytes, 4 sectors: two loads and
   * a store for each of the 32768 warps, 4 sectors each, none wasted; each
   * sector is new to L1 (no element is read twice) */
  g_assert_cmpfloat_with_epsilon (an->gmem_requests, 3.0 * 32768, 1);
  g_assert_cmpfloat_with_epsilon (an->gmem_sectors, 4 * an->gmem_requests, 1);
  g_assert_cmpfloat_with_epsilon (an->gmem_ideal_sectors, an->gmem_sectors, 1);
  /* L1 serves none of them: all 12 MiB reach L2 */
  g_assert_cmpfloat_with_epsilon (an->l2_sectors * 32, 12.0 * 1048576, 1);
  /* stage 5's scheduler: the seed's 12 warps a scheduler; one issue a
   * cycle at most (a sub-partition issues one instruction a cycle); each
   * warp's add waits on its loads (the seed's FADD on scoreboard 2: a
   * long scoreboard stall, as Nsight names it) */
  g_assert_cmpuint (an->n_sched_warps, ==, 12);
  {
    g_autoptr(GHashTable) cycles = g_hash_table_new (NULL, NULL);
    guint adds = 0;

    for (uint32_t e = 0; e < an->n_sched_events; e++)
      {
        const KsTimingEvent *ev = &an->sched_events[e];
        g_autofree char *text = ks_ptx_module_line_text (a->module, a->module->insns[ev->insn].line);

        g_assert_true (g_hash_table_add (cycles, GUINT_TO_POINTER (ev->cycle + 1)));
        g_assert_cmpuint (ev->cycle, <, an->sched_cycles);
        g_assert_cmpuint (ev->stall_start, <=, ev->ready);
        g_assert_cmpuint (ev->ready, <=, ev->cycle);
        if (strstr (text, "add.f32") != NULL)
          {
            g_assert_cmpint (ev->stall, ==, KS_STALL_LONG_SCOREBOARD);
            adds++;
          }
      }
    g_assert_cmpuint (adds, ==, 12);
  }
  /* stage 6's warp: block 0's warp 0 loads a[0..31], lane i 4 bytes at
   * a + 4 i: one 128-byte line, its 4 sectors, none in a cache yet */
  g_assert_true (an->have_warp_access);
  g_assert_cmpuint (an->warp_access_block, ==, 0);
  g_assert_cmpuint (an->warp_access_warp, ==, 0);
  g_assert_cmpuint (an->warp_access.mask, ==, 0xffffffffu);
  g_assert_cmpuint (an->warp_access.size, ==, 4);
  g_assert_true (strstr (an->warp_access_text, "ld.global") != NULL);
  for (guint l = 0; l < 32; l++)
    g_assert_cmpuint (an->warp_access.addr[l], ==, an->warp_access.addr[0] + 4 * l);
  g_assert_cmpuint (an->warp_access.addr[0] % 128, ==, 0);
  g_assert_cmpuint (an->warp_access.n_levels, ==, 4);
  for (guint s = 0; s < 4; s++)
    g_assert_cmpuint (an->warp_access.level[s], ==, 3);

  /* The record as QMD 03_00 (open-gpu-doc clc9c0qmd.h): the seed's dump
   * has word 12 = 0x1000 (CTA_RASTER_WIDTH, MW(415:384)) and 256 in word
   * 18 (CTA_THREAD_DIMENSION0, MW(607:592): its upper half); the
   * registers (REGISTER_COUNT_V, MW(656:648)) are ptxas's "Used 12
   * registers", the bank's size (CONSTANT_BUFFER_SIZE_SHIFTED4(0),
   * MW(1087:1075)) its "380 bytes cmem[0]" in 16-byte units, and
   * SASS_VERSION (MW(1663:1656)) 0x89 as the open drivers write it */
  g_assert_cmpstr (an->qmd_version, ==, "03_00");
  g_assert_cmphex (an->qmd_words[12], ==, 0x1000);
  g_assert_cmphex (an->qmd_words[13], ==, 1);
  g_assert_cmphex (an->qmd_words[18] >> 16, ==, 0x100);
  g_assert_cmphex (an->qmd_words[18] >> 4 & 0xf, ==, 3);
  g_assert_cmphex (an->qmd_words[20] >> 8 & 0x1ff, ==, 12);
  g_assert_cmphex (an->qmd_words[20] & 1, ==, 1);
  g_assert_cmphex (an->qmd_words[33] >> 19, ==, (380 + 15) / 16);
  g_assert_cmphex (an->qmd_words[51] >> 24, ==, 0x89);
  /* the addresses are the driver's: not in the words */
  g_assert_cmphex (an->qmd_words[24], ==, 0);
  g_assert_cmphex (an->qmd_words[48], ==, 0);
  for (guint i = 0; i < an->n_qmd_fields; i++)
    if (g_str_has_prefix (an->qmd_fields[i].name, "PROGRAM_ADDRESS"))
      g_assert_false (an->qmd_fields[i].known);

  root = ks_anatomy_to_json (an);
  o = json_node_get_object (root);
  nsight = json_object_get_object_member (o, "nsight");
  g_assert_cmpstr (json_object_get_string_member (nsight, "source"), ==, "model");
  g_assert_cmpint (json_object_get_int_member (nsight, "launch__grid_size"), ==, 4096);
  g_assert_cmpint (json_object_get_int_member (nsight, "launch__block_size"), ==, 256);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (nsight,
                                                                 "launch__waves_per_multiprocessor"),
                                  5.33, 0.01);
  /* the measured 82.77 % and 10.78 us, to the timing tests' tolerances */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (nsight,
                                                                 "sm__warps_active.avg.pct_of_peak"),
                                  82.77, 10);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (nsight,
                                                                 "gpu__time_duration.sum")
                                  / 10.78, 1.0, 0.30);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "stages")), ==, 8);
  g_assert_cmpstr (json_object_get_string_member (o, "limiter"), ==, "warps");
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (o, "qmd"),
                                                 "reconstructed"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "qmd"),
                                               "constant_bank0_bytes"), ==, 0x160 + 28);
}

/* A pushbuffer method header read as clc76f.h lays it out (SEC_OP 31:29,
 * COUNT 28:16, SUBCHANNEL 15:13, ADDRESS 11:0 in words) */
static void
check_header (uint32_t header,
              uint32_t method,
              uint32_t count)
{
  g_assert_cmpuint (header >> 29, ==, 1);               /* NVC76F_DMA_SEC_OP_INC_METHOD */
  g_assert_cmpuint (header >> 16 & 0x1fff, ==, count);
  g_assert_cmpuint (header >> 13 & 7, ==, 1);
  g_assert_cmphex ((header & 0xfff) * 4, ==, method);
}

/* The submission as data: SET_INLINE_QMD_ADDRESS_A (0x0318 in clc6c0.h,
 * clc7c0.h, clc9c0.h and clcbc0.h) with its two words,
 * LOAD_INLINE_QMD_DATA(0) (0x0320) with the 64 words of the record, and a
 * GPFIFO entry of 68 words (LENGTH 30:10, LEVEL 9:9 main); none where the
 * class or the record's layout is not documented (Blackwell's headers
 * have QMD 04_01 and 05_xx only: no 03_00 words are drawn there) */
static void
test_submission (void)
{
  const struct { const char *gpu, *cls; uint32_t id; } cases[] = {
    { "rtx-4090", "ADA_COMPUTE_A", 0xC9C0 }, { "h200", "HOPPER_COMPUTE_A", 0xCBC0 },
    { "rtx-3090", "AMPERE_COMPUTE_B", 0xC7C0 }, { "a100-sxm4-80gb", "AMPERE_COMPUTE_A", 0xC6C0 },
    { "t4", "TURING_COMPUTE_A", 0xC5C0 }, { "v100-sxm2", "VOLTA_COMPUTE_A", 0xC3C0 },
    /* Orin's class is not said; Blackwell's records are not QMD 03_00 */
    { "jetson-agx-orin", NULL, 0 }, { "b200", NULL, 0 }, { "rtx-5090", NULL, 0 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(KsAnalysis) a = analyse_vadd (cases[c].gpu, 4);
      g_autoptr(KsAnatomy) an = ks_anatomy_new (a, NULL);
      g_autoptr(JsonNode) root = ks_anatomy_to_json (an);
      JsonNode *s = json_object_get_member (json_node_get_object (root), "submission");

      g_assert_cmpstr (an->compute_class, ==, cases[c].cls);
      if (g_str_equal (cases[c].gpu, "b200") || g_str_equal (cases[c].gpu, "rtx-5090"))
        g_assert_null (an->qmd_version);
      if (cases[c].cls == NULL)
        {
          g_assert_true (JSON_NODE_HOLDS_NULL (s));
          continue;
        }
      g_assert_cmphex (an->compute_class_id, ==, cases[c].id);
      check_header (an->pushbuffer[0], 0x0318, 2);
      check_header (an->pushbuffer[3], 0x0320, 64);
      for (guint i = 0; i < 64; i++)
        g_assert_cmphex (an->pushbuffer[4 + i], ==, an->qmd_words[i]);
      /* the grid's width in the record's word 12, inline */
      g_assert_cmphex (an->pushbuffer[4 + 12], ==, 4);
      g_assert_cmpuint (an->gp_entry1 >> 10 & 0x1fffff, ==, 68);
      g_assert_cmpuint (an->gp_entry1 >> 9 & 1, ==, 0);
      g_assert_true (json_object_get_boolean_member (json_node_get_object (s), "reconstructed"));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                          json_node_get_object (s), "pushbuffer")), ==, 68);
    }
}

/* QMD 02_03 (Turing, clc5c0qmd.h) and 02_02 (Volta, clc3c0qmd.h): the
 * grid at CTA_RASTER_WIDTH MW(415:384) (word 12) as in 03_00, the version
 * at MW(583:576) (word 18's low byte: major 2, minor 3 or 2),
 * SEMAPHORE_RELEASE_ENABLE0 at MW(138:138) (word 4, bit 10),
 * REGISTER_COUNT_V at MW(656:648), SASS_VERSION at MW(1023:1016) (word
 * 31's top byte, 0x75 or 0x70 as the open drivers write it) */
static void
test_qmd_v02 (void)
{
  const struct { const char *gpu, *version; uint32_t minor, sass; } cases[] = {
    { "t4", "02_03", 3, 0x75 }, { "v100-sxm2", "02_02", 2, 0x70 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(KsAnalysis) a = analyse_vadd (cases[c].gpu, 4);
      g_autoptr(KsAnatomy) an = ks_anatomy_new (a, NULL);

      g_assert_cmpstr (an->qmd_version, ==, cases[c].version);
      g_assert_cmphex (an->qmd_words[12], ==, 4);
      g_assert_cmphex (an->qmd_words[18] & 0xff, ==, 0x20 | cases[c].minor);
      g_assert_cmphex (an->qmd_words[18] >> 16, ==, 256);
      g_assert_cmphex (an->qmd_words[4] >> 10 & 1, ==, 1);
      g_assert_cmpuint (an->qmd_words[20] >> 8 & 0x1ff, ==, an->registers);
      g_assert_cmphex (an->qmd_words[31] >> 24, ==, cases[c].sass);
      /* the 03_00 places of the semaphore and SASS_VERSION are empty */
      g_assert_cmphex (an->qmd_words[51], ==, 0);
      g_assert_cmphex (an->qmd_words[25] >> 23 & 1, ==, 0);
    }
}

static void
test_sm90 (void)
{
  g_autoptr(KsAnalysis) a = analyse_vadd ("h200", 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsAnatomy) an = ks_anatomy_new (a, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (an->arch, ==, "sm_90");
  g_assert_cmpstr (an->sass_arch, ==, "sm_90");
  /* Hopper's class (clcbc0qmd.h) documents 03_00 at the same places */
  g_assert_cmpstr (an->qmd_version, ==, "03_00");
  g_assert_cmphex (an->qmd_words[12], ==, 4);
  /* 4 blocks on 132 SMs: one wave, the first four SMs a block each */
  g_assert_cmpuint (ks_anatomy_wave_count (an), ==, 1);
  g_assert_cmpuint (ks_anatomy_wave_blocks (an, 0, 3), ==, 1);
  g_assert_cmpuint (ks_anatomy_wave_blocks (an, 0, 4), ==, 0);
  g_assert_cmphex (an->qmd_words[51] >> 24, ==, 0x90);
  /* nvdisasm's sm_90 listing: c[0x0][0x210] to c[0x0][0x228] */
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (an->params[i].cbank_offset, ==, 0x210 + 8 * i);
      g_assert_cmpint (an->params[i].in_sass, ==, 1);
    }
}

/* c++filt's signatures split into their arguments */
static void
test_signature_types (void)
{
  static const struct { const char *sig; guint n; const char *want[3]; } cases[] = {
    { "void reduce<256>(float*, float*)", 2, { "float*", "float*" } },
    { "k(std::pair<int, float>, int)", 2, { "std::pair<int, float>", "int" } },
    { "f(void (*)(int, int), int)", 2, { "void (*)(int, int)", "int" } },
    { "g(float (&) [4])", 1, { "float (&) [4]" } },
    { "h()", 0, { NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) t = ks_anatomy_signature_types (cases[i].sig, cases[i].n);

      g_assert_nonnull (t);
      g_assert_cmpuint (g_strv_length (t), ==, cases[i].n);
      for (guint k = 0; k < cases[i].n; k++)
        g_assert_cmpstr (t[k], ==, cases[i].want[k]);
    }
  /* a count that differs, and a name that is not a signature */
  g_assert_null (ks_anatomy_signature_types ("k(int, int)", 3));
  g_assert_null (ks_anatomy_signature_types ("vector_add", 0));
  g_assert_null (ks_anatomy_signature_types (NULL, 0));
}

static void
test_cbank_base (void)
{
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_52"), ==, 0x140);
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_61"), ==, 0x140);
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_70"), ==, 0x160);
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_89"), ==, 0x160);
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_90"), ==, 0x210);
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_120"), ==, 0x210);
  g_assert_cmpuint (ks_anatomy_cbank_base ("sm_35"), ==, KS_ANATOMY_NONE);
  g_assert_cmpuint (ks_anatomy_cbank_base ("bogus"), ==, KS_ANATOMY_NONE);
}

/* ptxas's own records for a struct passed by value between two scalars:
 * a u32 at 0, the 16-aligned 32-byte struct at 16, a u64 at 48 */
static void
test_struct_param_ptxas (void)
{
  static const char ptx[] =
    ".version 7.8\n.target sm_86\n.address_size 64\n"
    ".visible .entry k(\n\t.param .u32 k_a,\n\t.param .align 16 .b8 k_s[32],\n"
    "\t.param .u64 k_p\n)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u32 %r1, [k_a];\n\tld.param.u32 %r2, [k_s+20];\n\tld.param.u64 %rd1, [k_p];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n\tadd.s32 %r3, %r1, %r2;\n"
    "\tst.global.u32 [%rd2], %r3;\n\tret;\n}\n";
  const char *archs[] = { "sm_86", "sm_90" };
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);

  if (tc == NULL || ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("no ptxas here: the offsets are not checked against a cubin's records");
      return;
    }
  for (guint k = 0; k < G_N_ELEMENTS (archs); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *version = NULL, *cubin = NULL, *text = NULL;
      g_autoptr(KsSassListing) listing = NULL;
      g_autoptr(KsAnalysis) a = NULL;
      g_autoptr(KsAnatomy) an = NULL;
      const KsCubinFunction *cf;
      KsAnalysisRequest req;
      gsize len = 0;
      const uint32_t want[] = { 0, 16, 48 };

      text = g_strdup (ptx);
      memcpy (strstr (text, "sm_86"), archs[k], 5);
      cubin = ks_toolchain_assemble (tc, text, archs[k], &version, &len, NULL, &error);
      g_assert_no_error (error);
      listing = ks_sass_cubin_read ((const guint8 *) cubin, len, "k.cubin", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (listing->n_functions, ==, 1);
      cf = &listing->cubin->functions[0];
      g_assert_cmpuint (cf->n_params, ==, 3);

      ks_analysis_request_init (&req);
      req.kind = KS_ANALYSIS_INPUT_PTX;
      req.path = "k.ptx";
      req.text = text;
      req.arch = archs[k];
      req.use_toolkit = FALSE;
      req.simulate = FALSE;
      a = ks_analysis_run (&req, NULL, NULL, NULL);
      an = ks_anatomy_new (a, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (an->n_params, ==, 3);
      g_assert_cmpuint (an->param_bytes, ==, 56);
      for (uint32_t i = 0; i < cf->n_params; i++)
        {
          const KsCubinParam *cp = &listing->cubin->params[cf->first_param + i];

          g_assert_cmpuint (cp->index, <, 3);
          g_assert_cmpuint (an->params[cp->index].offset, ==, cp->offset);
          g_assert_cmpuint (an->params[cp->index].size, ==, cp->size);
          g_assert_cmpuint (an->params[cp->index].offset, ==, want[cp->index]);
          if (cp->cbank_offset != KS_SASS_NONE)
            g_assert_cmpuint (an->params[cp->index].cbank_offset, ==, cp->cbank_offset);
        }
      if (cf->param_cbank_offset != KS_SASS_NONE)
        g_assert_cmpuint (an->cbank_base, ==, cf->param_cbank_offset);
    }
}

/* Every sample's kernel opened as the app opens it without a toolkit (its
 * spec, its PTX): the sample's record of nvcc --keep stands in, and the
 * offsets its host stub notes (cicc's, tests/test-artifacts.c) are the
 * ones the anatomy lays the PTX's .param list out at; an edit of the PTX
 * in the editor drops the record */
static void
test_stub_offsets (void)
{
  g_autofree char *samples = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_autoptr(GDir) d = g_dir_open (samples, 0, NULL);
  const char *name;
  guint n = 0, n_params = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *dir = g_build_filename (samples, name, NULL);
      g_autofree char *meta = g_build_filename (dir, "sample.json", NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *spec = NULL;
      g_autoptr(KsAnalysis) a = NULL;
      g_autoptr(KsAnatomy) an = NULL;
      KsAnalysisRequest req;

      if (!json_parser_load_from_file (parser, meta, NULL))
        continue;
      spec = g_build_filename (dir, json_object_get_string_member (
                                 json_node_get_object (json_parser_get_root (parser)), "spec"),
                               NULL);
      ks_analysis_request_init (&req);
      req.path = spec;
      req.use_toolkit = FALSE;
      req.simulate = FALSE;
      a = ks_analysis_run (&req, NULL, NULL, NULL);
      g_assert_nonnull (a->module);
      an = ks_anatomy_new (a, NULL);
      g_assert_nonnull (an);
      g_assert_nonnull (an->artifacts);
      g_assert_true (an->artifacts->recorded);
      g_test_message ("%s: %s, %u parameters", name, an->kernel, an->n_params);
      for (uint32_t i = 0; i < an->n_params; i++)
        g_assert_cmpuint (an->params[i].stub_offset, ==, an->params[i].offset);
      n_params += an->n_params;
      n++;

      /* the editor's text of the PTX file, with the spec's launch, as the
       * window runs it: unedited, then edited */
      for (guint edit = 0; edit < 2; edit++)
        {
          g_autofree char *ptx = g_strconcat (a->ptx_text, edit ? "\n// edited\n" : "", NULL);
          g_autoptr(KsAnalysis) e = NULL;
          g_autoptr(KsAnatomy) ean = NULL;
          KsAnalysisRequest er;

          ks_analysis_request_init (&er);
          er.path = a->launch->ptx_path;
          er.text = ptx;
          er.kind = KS_ANALYSIS_INPUT_PTX;
          er.launch = a->launch;
          er.use_toolkit = FALSE;
          er.simulate = FALSE;
          e = ks_analysis_run (&er, NULL, NULL, NULL);
          ean = ks_anatomy_new (e, NULL);
          g_assert_nonnull (ean);
          g_assert_true ((ean->artifacts != NULL) == (edit == 0));
          if (ean->n_params > 0)
            g_assert_cmpuint (ean->params[0].stub_offset, ==,
                              edit ? KS_ANATOMY_NONE : an->params[0].offset);
        }
    }
  g_assert_cmpuint (n, >=, 26);
  g_assert_cmpuint (n_params, >=, 60);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anatomy/vadd-seed004", test_vadd_seed004);
  g_test_add_func ("/anatomy/sm90", test_sm90);
  g_test_add_func ("/anatomy/measured", test_measured);
  g_test_add_func ("/anatomy/signature-types", test_signature_types);
  g_test_add_func ("/anatomy/cbank-base", test_cbank_base);
  g_test_add_func ("/anatomy/struct-param-ptxas", test_struct_param_ptxas);
  g_test_add_func ("/anatomy/stub-offsets", test_stub_offsets);
  g_test_add_func ("/anatomy/submission", test_submission);
  g_test_add_func ("/anatomy/qmd-v02", test_qmd_v02);
  return g_test_run ();
}
