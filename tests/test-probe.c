/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Probe Lab (seeds/002) on the model, against the figures it must
 * reproduce, each from its source:
 *
 * - the seed's accumulator sweep on an RTX 3060 (sm_86): 1 -> 4.00, 2 ->
 *   2.02, 4 -> 1.03, 8 -> 1.01, 16 -> 1.02 cycles per FFMA, within 15 %;
 * - the dependent FFMA latency of 4 cycles on V100 (Jia et al. 2018,
 *   arXiv:1804.06826) and A100 (Abdelkhalik et al. 2022, arXiv:2208.11174),
 *   as the slope of the instruction-count sweep;
 * - gcd(s, 32) passes for a warp reading shared words s apart (CUDA C++
 *   Programming Guide, "Shared Memory": 32 banks of 32 bits);
 * - the pointer chase's L1 and L2 steps on V100: 28 and 193 cycles (Jia et
 *   al. 2018, memory latencies), and DRAM slower than L2;
 * - with ptxas here, its -v output: no spills, and more registers for 16
 *   accumulators than for 1. */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ks-gpu-db.h"
#include "ks-probe.h"
#include "ks-toolchain.h"

static KsProbeResult *
run (const char *name,
     const char *gpu,
     gboolean    toolkit)
{
  g_autoptr(GError) error = NULL;
  KsProbeOptions opt;
  KsProbeResult *r;

  ks_probe_options_init (&opt);
  opt.gpu = gpu;
  opt.use_toolkit = toolkit;
  r = ks_probe_run (ks_probe_find (name), &opt, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_true (r->verified);
  g_assert_cmpstr (r->ran_on, ==, "model");
  g_assert_nonnull (strstr (r->conclusion, "model"));
  return r;
}

static const KsProbePoint *
point (const KsProbeResult *r,
       guint                i)
{
  g_assert_cmpuint (i, <, r->points->len);
  return &g_array_index (r->points, KsProbePoint, i);
}

static void
test_templates (void)
{
  const char *names[] = { "accumulators", "chain-length", "warp-count", "register-pressure",
                          "mixed-pipe", "shared-stride", "pointer-chase" };
  guint n;
  const KsProbeTemplate *const *t = ks_probe_templates (&n);

  g_assert_cmpuint (n, >=, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const KsProbeTemplate *f = ks_probe_find (names[i]);

      g_assert_nonnull (f);
      g_assert_cmpstr (ks_probe_template_name (f), ==, names[i]);
      g_assert_nonnull (ks_probe_template_variable (f));
    }
  g_assert_true (t[0] == ks_probe_find ("accumulators"));
  g_assert_null (ks_probe_find ("ffma"));
  /* the names the chains had when they timed FFMA alone */
  g_assert_true (ks_probe_find ("ffma-accumulators") == ks_probe_find ("accumulators"));
  g_assert_true (ks_probe_find ("ffma-count") == ks_probe_find ("chain-length"));
}

static void
test_accumulators (void)
{
  /* seeds/002 section 14, measured on an RTX 3060 (sm_86) */
  const double seed[] = { 4.00, 2.02, 1.03, 1.01, 1.02 };
  g_autoptr(KsProbeResult) r = run ("accumulators", "rtx-3090", FALSE);

  g_assert_cmpstr (r->arch, ==, "sm_86");
  g_assert_cmpuint (r->points->len, ==, G_N_ELEMENTS (seed));
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      const KsProbePoint *p = point (r, i);

      g_test_message ("%g accumulators: %.3f cycles per FFMA (seed %.2f)", p->x,
                      p->cycles_per_instruction, seed[i]);
      g_assert_cmpuint (p->instructions, ==, 32768);
      g_assert_cmpfloat (fabs (p->cycles_per_instruction - seed[i]) / seed[i], <=, 0.15);
      /* the simulator computed the kernel: acc = acc * b + b from tid 0 */
      g_assert_true (isfinite (p->checksum) && p->checksum > 0);
    }
}

static void
test_ffma_latency (void)
{
  const char *gpus[] = { "v100-sxm2", "a100-sxm4-80gb" };

  for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
    {
      g_autoptr(KsProbeResult) r = run ("chain-length", gpus[g], FALSE);

      g_assert_true (r->have_fit);
      g_test_message ("%s: T(N) = %.4f N + %.1f, R^2 %.6f", gpus[g], r->slope, r->intercept,
                      r->r2);
      g_assert_cmpfloat (fabs (r->slope - 4.0) / 4.0, <=, 0.02);
      g_assert_cmpfloat (r->r2, >=, 0.9999);
      /* the sweep's counts are what was timed */
      g_assert_cmpuint (point (r, 0)->instructions, ==, (uint64_t) point (r, 0)->x);
    }
}

/* The chains of every instruction against the CUDA C++ Programming Guide's
 * throughput table ("Arithmetic Instructions": results per clock per SM),
 * the FP32 and integer latencies against Jia et al. 2018 (Volta: 4
 * cycles), and each instruction's dependent latency against the figure the
 * model was given for its class (data/gpus.json), which the probe must
 * recover through the simulator and the timing model. */
static void
test_instructions (void)
{
  static const struct
  {
    const char *gpu, *op, *sass;
    double results_per_clock;   /* per SM, the Programming Guide's table */
    double results_per_insn;    /* results of one lane's instruction */
    const char *latency_class;  /* data/gpus.json "latencies" */
    double published_latency;   /* 0: none published; the class's figure is checked */
  } cases[] = {
    /* compute capability 7.x column */
    { "v100-sxm2", "ffma", "FFMA", 64, 1, "ffma", 4 },
    { "v100-sxm2", "fadd", "FADD", 64, 1, "ffma", 4 },
    { "v100-sxm2", "iadd3", "IADD3", 64, 1, "iadd3", 4 },
    { "v100-sxm2", "imad", "IMAD", 64, 1, "imad", 0 },
    { "v100-sxm2", "mufu", "MUFU.RSQ", 16, 1, "mufu", 0 },
    { "v100-sxm2", "dfma", "DFMA", 32, 1, "dfma", 0 },
    { "v100-sxm2", "hfma2", "HFMA2", 128, 2, "ffma", 0 },
    { "v100-sxm2", "shfl", "SHFL.BFLY", 32, 1, "lds", 0 },
    /* compute capability 8.6 column */
    { "rtx-3090", "ffma", "FFMA", 128, 1, "ffma", 0 },
    { "rtx-3090", "iadd3", "IADD3", 64, 1, "iadd3", 0 },
    { "rtx-3090", "imad", "IMAD", 64, 1, "imad", 0 },
    { "rtx-3090", "mufu", "MUFU.RSQ", 16, 1, "mufu", 0 },
    { "rtx-3090", "dfma", "DFMA", 2, 1, "dfma", 0 },
    { "rtx-3090", "shfl", "SHFL.BFLY", 32, 1, "lds", 0 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  guint n;
  const char *const *names = ks_probe_instructions (&n);

  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpstr (names[0], ==, "ffma");
  g_assert_null (names[n]);
  /* each name is an instruction the probes know */
  for (guint i = 0; i < n; i++)
    g_assert_nonnull (ks_probe_instruction_sass (names[i]));
  g_assert_true (ks_probe_template_takes_instruction (ks_probe_find ("accumulators")));
  g_assert_true (ks_probe_template_takes_instruction (ks_probe_find ("warp-count")));
  g_assert_false (ks_probe_template_takes_instruction (ks_probe_find ("shared-stride")));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const KsGpuInfo *g = ks_gpu_db_get_gpu (db, cases[i].gpu);
      const KsArchInfo *arch = ks_gpu_db_get_arch (db, g->arch);
      KsProbeOptions opt;
      g_autoptr(KsProbeResult) r = NULL;
      const KsProbePoint *dep, *ind;
      /* a warp's instruction on one of the SM's partitions, at the table's rate */
      double issue = 32.0 / (cases[i].results_per_clock / cases[i].results_per_insn
                             / arch->sub_partitions);
      double latency = cases[i].published_latency;
      g_autofree char *title = NULL;

      if (latency == 0)
        for (guint k = 0; k < KS_N_LATENCIES; k++)
          if (g_strcmp0 (ks_latency_class_name ((KsLatencyClass) k), cases[i].latency_class) == 0)
            latency = arch->latencies[k].latency;
      g_assert_cmpfloat (latency, >, 0);
      ks_probe_options_init (&opt);
      opt.gpu = cases[i].gpu;
      opt.instruction = cases[i].op;
      r = ks_probe_run (ks_probe_find ("accumulators"), &opt, &error);
      g_assert_no_error (error);
      g_assert_true (r->verified);
      g_assert_cmpstr (r->instruction, ==, cases[i].op);
      g_assert_cmpstr (ks_probe_instruction_sass (cases[i].op), ==, cases[i].sass);
      title = ks_probe_title (r->tmpl, r->instruction);
      g_assert_nonnull (strstr (title, cases[i].sass));
      g_assert_nonnull (strstr (r->conclusion, cases[i].sass));
      dep = point (r, 0);
      ind = point (r, r->points->len - 1);
      g_test_message ("%s %s: dependent %.3f cycles (latency %g), 16 accumulators %.3f "
                      "(table: %.2f)", cases[i].gpu, cases[i].sass, dep->cycles_per_instruction,
                      latency, ind->cycles_per_instruction, issue);
      g_assert_cmpuint (dep->instructions, ==, 32768);
      g_assert_true (isfinite (dep->checksum));
      /* one accumulator: the latency, or the pipe's rate where that is slower */
      g_assert_cmpfloat (fabs (dep->cycles_per_instruction - MAX (latency, issue))
                         / MAX (latency, issue), <=, 0.05);
      /* sixteen: as fast as the pipe accepts them (the loop's own counter
       * and branch cost a few percent) */
      g_assert_cmpfloat (fabs (ind->cycles_per_instruction - issue) / issue, <=, 0.08);
    }

  /* the templates that time no instruction of a chain refuse one */
  {
    KsProbeOptions opt;
    KsProbeResult *r;

    ks_probe_options_init (&opt);
    opt.instruction = "dfma";
    r = ks_probe_run (ks_probe_find ("shared-stride"), &opt, &error);
    g_assert_null (r);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    opt.instruction = "fmul";
    r = ks_probe_run (ks_probe_find ("accumulators"), &opt, &error);
    g_assert_null (r);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "fmul"));
  }
}

/* FFMA and IADD3 mixed in one warp, every instruction independent: the
 * cycles per instruction follow from the partitions' lanes in the
 * architecture whitepapers, a warp issuing one instruction a cycle in
 * order.  Volta and Turing: 16 FP32 and 16 INT32 lanes, separate (an FFMA
 * or an IADD3 every 2 cycles, both at once): 2, 1.5, 1, 1.5, 2 from 0 to 100 %
 * IADD3.  GA10x: 16 FP32 and 16 FP32/INT32 lanes (an FFMA a cycle alone,
 * an IADD3 every 2 on the shared half while the FFMAs take the other):
 * 1, 1, 1, 1.5, 2. */
static void
test_mixed_pipe (void)
{
  static const struct
  {
    const char *gpu;
    double want[5];
  } cases[] = {
    { "v100-sxm2", { 2, 1.5, 1, 1.5, 2 } },
    { "t4", { 2, 1.5, 1, 1.5, 2 } },
    { "rtx-3090", { 1, 1, 1, 1.5, 2 } },
  };

  for (guint g = 0; g < G_N_ELEMENTS (cases); g++)
    {
      g_autoptr(KsProbeResult) r = run ("mixed-pipe", cases[g].gpu, FALSE);

      g_assert_null (r->instruction);
      g_assert_cmpuint (r->points->len, ==, 5);
      for (guint i = 0; i < 5; i++)
        {
          const KsProbePoint *p = point (r, i);

          g_test_message ("%s, %g %% IADD3: %.3f cycles per instruction, %.3f less the empty "
                          "loop (whitepaper lanes: %g)", cases[g].gpu, p->x,
                          p->cycles_per_instruction, p->corrected, cases[g].want[i]);
          g_assert_cmpuint (p->instructions, ==, 32768);
          /* less the loop's own counter, compare and branch, which take
           * the integer pipe too */
          g_assert_cmpfloat (fabs (p->corrected - cases[g].want[i]) / cases[g].want[i], <=, 0.08);
        }
      /* half and half beats one unit shared by both */
      g_assert_nonnull (strstr (r->conclusion, "separate pipes"));
    }
}

static guint
gcd (guint a,
     guint b)
{
  while (b)
    {
      guint t = a % b;

      a = b;
      b = t;
    }
  return a;
}

static void
test_shared_stride (void)
{
  g_autoptr(KsProbeResult) r = run ("shared-stride", "a100-sxm4-80gb", FALSE);
  double prev = 0;

  for (guint i = 0; i < r->points->len; i++)
    {
      const KsProbePoint *p = point (r, i);
      guint want = gcd ((guint) p->x, 32);

      g_test_message ("stride %g: %.2f passes, %.2f cycles a load", p->x, p->ways,
                      p->cycles_per_instruction);
      g_assert_cmpfloat (p->ways, ==, (double) want);
      g_assert_cmpfloat (p->cycles_per_instruction, >=, prev * 0.99);
      prev = p->cycles_per_instruction;
    }
  /* 32-way: a pass a cycle at best */
  g_assert_cmpfloat (point (r, r->points->len - 1)->cycles_per_instruction, >=, 32.0 * 0.95);
}

static void
test_pointer_chase (void)
{
  g_autoptr(KsProbeResult) r = run ("pointer-chase", "v100-sxm2", FALSE);
  const KsProbePoint *l1 = point (r, 0), *l2 = point (r, 2), *dram = point (r, r->points->len - 1);

  for (guint i = 0; i < r->points->len; i++)
    g_test_message ("%g bytes: %.1f cycles a load", point (r, i)->x,
                    point (r, i)->cycles_per_instruction);
  g_assert_cmpfloat (fabs (l1->cycles_per_instruction - 28) / 28, <=, 0.15);
  g_assert_cmpfloat (fabs (l2->cycles_per_instruction - 193) / 193, <=, 0.15);
  g_assert_cmpfloat (dram->cycles_per_instruction, >, 1.5 * l2->cycles_per_instruction);
  /* the chase came back where the kernel's own arithmetic says: after
   * 2 passes over n elements, at element 0 (the checksum is its offset) */
  g_assert_cmpfloat (l1->checksum, ==, 0);
  /* a line through latency steps would be a figure without a meaning */
  g_assert_false (r->have_fit);
}

static void
test_ptxas (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  g_autoptr(KsProbeResult) r = NULL;
  const KsProbeCheck *spills = NULL;

  if (tc == NULL || ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("no ptxas here: the probes' registers and spills are not checked");
      return;
    }
  r = run ("accumulators", "a100-sxm4-80gb", TRUE);
  for (guint i = 0; i < r->checks->len; i++)
    {
      const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      if (strstr (c->item, "spills") != NULL)
        spills = c;
    }
  g_assert_nonnull (spills);
  g_test_message ("%s: %s", spills->item, spills->detail);
  g_assert_true (spills->checked && spills->pass);
  g_assert_cmpint (point (r, 0)->registers, >, 0);
  g_assert_cmpint (point (r, 4)->registers, >, point (r, 0)->registers);
  g_assert_cmpint (point (r, 4)->spill_stores, ==, 0);
}

static const char *file_of (const KsProbeResult *r, const char *name);

static const KsProbeCheck *
find_check (const KsProbeResult *r,
            const char          *item)
{
  for (guint i = 0; i < r->checks->len; i++)
    {
      const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      if (g_str_equal (c->item, item))
        return c;
    }
  g_error ("no check '%s'", item);
  return NULL;
}

/* The SASS checks where ptxas is the only tool (CUDA 13 has no
 * disassembler here): the probe assembled into a cubin and its opcodes read
 * from the words.  The FFMA chain has its 128 FFMA a loop body between the
 * two reads of SR_CLOCKLO, on sm_80 and sm_90; the shared-stride probe its
 * 32 LDS a body (ptxas loaded the same address once for the whole loop
 * before its loads were volatile); each line the target check names in the
 * SASS shown is one of the target. */
static void
test_sass_from_cubin (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  const struct
  {
    const char *name, *gpu, *opcode;
    guint want;
  } cases[] = {
    { "accumulators", "a100-sxm4-80gb", "FFMA", 128 },
    { "accumulators", "h100-sxm", "FFMA", 128 },
    { "shared-stride", "rtx-3090", "LDS", 32 },
  };

  if (tc == NULL || ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("no ptxas here: the probes' SASS is not made");
      return;
    }
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(KsProbeResult) r = run (cases[k].name, cases[k].gpu, TRUE);
      const KsProbeCheck *target = find_check (r, "SASS target opcode");
      const KsProbeCheck *local = find_check (r, "SASS: no local memory, timer read twice");
      g_auto(GStrv) lines = NULL;
      guint n = 0;

      g_test_message ("%s on %s: %s", cases[k].name, cases[k].gpu, target->detail);
      g_assert_true (target->checked && target->pass);
      g_assert_true (local->checked && local->pass);
      g_assert_nonnull (strstr (local->detail, "0 LDL/STL"));
      g_assert_nonnull (r->sass);
      n = (guint) g_ascii_strtoull (target->detail, NULL, 10);
      g_assert_cmpuint (n, >=, cases[k].want);
      lines = g_strsplit (r->sass, "\n", -1);
      if (ks_toolchain_sass_tool (tc) == KS_N_TOOLS)
        {
          /* from the cubin: every line named is one of the target */
          g_assert_nonnull (strstr (target->detail, "cubin's words"));
          g_assert_cmpuint (target->sass_lines->len, ==, n);
          for (guint i = 0; i < target->sass_lines->len; i++)
            {
              guint line = g_array_index (target->sass_lines, guint32, i);

              g_assert_cmpuint (line, <=, g_strv_length (lines));
              g_assert_nonnull (strstr (lines[line - 1], cases[k].opcode));
            }
          g_assert_nonnull (file_of (r, "binary/probe_1_sass_from_cubin.txt"));
        }
    }
}

static void
test_folder (void)
{
  g_autoptr(KsProbeResult) r = run ("chain-length", "rtx-3090", FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-probe-XXXXXX", &error);
  g_autofree char *raw = NULL, *meta = NULL, *concl = NULL, *p = NULL;
  const char *files[] = { "metadata.json", "build_command.txt", "run_command.txt",
                          "environment/kernelscope.txt", "conclusion.md",
                          "runtime/runtime_raw.csv", "runtime/instructions_sweep.csv",
                          "binary/probe_1024.cu", "binary/probe_1024.ptx",
                          "binary/probe_1024.json" };

  g_assert_no_error (error);
  g_assert_true (ks_probe_write_folder (r, dir, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *f = g_build_filename (dir, files[i], NULL);

      if (!g_file_test (f, G_FILE_TEST_IS_REGULAR))
        g_error ("the experiment folder lacks %s", files[i]);
    }
  p = g_build_filename (dir, "runtime", "runtime_raw.csv", NULL);
  g_assert_true (g_file_get_contents (p, &raw, NULL, NULL));
  /* seeds/002 section 11's columns */
  g_assert_true (g_str_has_prefix (raw, "run,kernel,total_instructions,total_cycles,"
                                        "cycles_per_instruction,checksum\n"));
  g_free (p);
  p = g_build_filename (dir, "conclusion.md", NULL);
  g_assert_true (g_file_get_contents (p, &concl, NULL, NULL));
  g_assert_nonnull (strstr (concl, "evidence: model"));
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (cmd), ==, 0);
  }
}

static const char *
file_of (const KsProbeResult *r,
         const char          *name)
{
  for (guint i = 0; i + 1 < r->files->len; i += 2)
    if (g_strcmp0 (g_ptr_array_index (r->files, i), name) == 0)
      return g_ptr_array_index (r->files, i + 1);
  g_error ("no file %s", name);
  return NULL;
}

static char *
replace_once (const char *text,
              const char *what,
              const char *with)
{
  const char *p = strstr (text, what);

  g_assert_nonnull (p);
  return g_strdup_printf ("%.*s%s%s", (int) (p - text), text, with, p + strlen (what));
}

/* A probe spoiled as seeds/002 section 8 warns: each change must fail the
 * item that is about it, and the conclusion must then say so */
static void
test_verification_fails (void)
{
  g_autoptr(KsProbeResult) r = run ("chain-length", "rtx-3090", FALSE);
  const KsProbeTemplate *t = ks_probe_find ("chain-length");
  const char *ptx = file_of (r, "binary/probe_1024.ptx");
  const struct
  {
    const char *what, *with, *item;
  } spoil[] = {
    /* a load in the timed loop (a spill would be one) */
    { "$L_timed:\n", "$L_timed:\n\tld.global.f32 %f3, [%rd1];\n",
      "no other memory access in the timed region" },
    /* one FFMA writing another register: the chain is broken */
    { "\tfma.rn.f32 %f8, %f8, %f2, %f2;\n", "\tfma.rn.f32 %f9, %f8, %f2, %f2;\n",
      "dependency chain" },
    /* one FFMA fewer per body */
    { "\tfma.rn.f32 %f8, %f8, %f2, %f2;\n", "", "target instruction" },
    /* a conversion in the timed loop */
    { "$L_timed:\n", "$L_timed:\n\tcvt.rn.f32.u32 %f3, %r1;\n",
      "no conversion in the timed region" },
    /* the result stored before the second clock read */
    { "\tmov.u64 %rd11, %clock64;\n", "\tst.global.f32 [%rd1], %f8;\n\tmov.u64 %rd11, %clock64;\n",
      "no other memory access in the timed region" },
    /* a third timer read */
    { "\tsub.s64 %rd12", "\tmov.u64 %rd13, %clock64;\n\tsub.s64 %rd12", "timer" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProbeResult) clean = ks_probe_verify_ptx (t, NULL, 1024, ptx, &error);

  g_assert_no_error (error);
  g_assert_true (clean->verified);
  for (guint i = 0; i < G_N_ELEMENTS (spoil); i++)
    {
      g_autofree char *bad = replace_once (ptx, spoil[i].what, spoil[i].with);
      g_autoptr(KsProbeResult) v = ks_probe_verify_ptx (t, NULL, 1024, bad, &error);
      gboolean failed = FALSE;

      g_assert_no_error (error);
      g_assert_false (v->verified);
      for (guint k = 0; k < v->checks->len; k++)
        {
          const KsProbeCheck *c = g_ptr_array_index (v->checks, k);

          if (g_strcmp0 (c->item, spoil[i].item) == 0 && c->checked && !c->pass)
            failed = TRUE;
        }
      if (!failed)
        g_error ("spoil %u: '%s' did not fail", i, spoil[i].item);
      g_assert_nonnull (strstr (v->conclusion, "failed verification"));
      g_assert_nonnull (strstr (v->conclusion, spoil[i].item));
    }
}

/* A probe edited by hand runs: the seed's accumulator probe with a
 * quarter of its loop's trips issues exactly that many FFMA (64 trips of
 * 128), still at the dependent latency the seed measured on sm_86 (4.00
 * cycles; 15 %, the issue's margin); a spoiled edit runs but concludes
 * nothing; an edit without the target, one that does not parse and a
 * value the template has not are refused with their reason. */
static void
test_run_edit (void)
{
  g_autoptr(KsProbeResult) r = run ("accumulators", "rtx-3090", FALSE);
  const KsProbeTemplate *t = ks_probe_find ("accumulators");
  const char *ptx = file_of (r, "binary/probe_1.ptx");
  g_autofree char *quarter = replace_once (ptx, "%r50, 256;", "%r50, 64;");
  g_autofree char *spoiled = replace_once (quarter, "$L_timed:\n",
                                           "$L_timed:\n\tld.global.f32 %f3, [%rd1];\n");
  g_autofree char *no_target = g_strdup (ptx);
  g_autofree char *broken = replace_once (ptx, "\tfma.rn.f32 %f8, %f8, %f2, %f2;\n",
                                          "\tfma.rn.f32 %f8, %f8 %f2, %f2;\n");
  g_autoptr(GError) error = NULL;
  KsProbeOptions opt;
  guint fma_line = 0;

  ks_probe_options_init (&opt);
  opt.use_toolkit = FALSE;
  {
    g_autoptr(KsProbeResult) e = ks_probe_run_ptx (t, &opt, 1, quarter, &error);
    const KsProbePoint *p;

    g_assert_no_error (error);
    g_assert_true (e->edited);
    g_assert_true (e->verified);
    g_assert_cmpstr (e->ran_on, ==, "model");
    g_assert_cmpuint (e->points->len, ==, 1);
    p = point (e, 0);
    g_assert_cmpuint (p->instructions, ==, 64 * 128);
    g_assert_cmpfloat (fabs (p->cycles_per_instruction / 4.00 - 1), <=, 0.15);
    g_assert_true (isnan (p->corrected));
    g_assert_nonnull (strstr (e->conclusion, "edited"));
    g_assert_cmpstr (file_of (e, "binary/probe_1.ptx"), ==, quarter);
  }
  {
    g_autoptr(KsProbeResult) e = ks_probe_run_ptx (t, &opt, 1, spoiled, &error);

    g_assert_no_error (error);
    g_assert_false (e->verified);
    g_assert_cmpuint (e->points->len, ==, 1);
    g_assert_nonnull (strstr (e->conclusion, "failed verification"));
  }
  /* every FFMA of the body gone */
  for (char *f; (f = strstr (no_target, "\tfma.rn.f32")) != NULL;)
    memcpy (f, "\t// ", 4);
  g_assert_null (ks_probe_run_ptx (t, &opt, 1, no_target, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "times nothing"));
  g_clear_error (&error);
  /* the first FFMA's line, where the missing comma is */
  for (const char *c = ptx; c < strstr (ptx, "\tfma.rn.f32"); c++)
    fma_line += *c == '\n';
  g_assert_null (ks_probe_run_ptx (t, &opt, 1, broken, &error));
  g_assert_nonnull (error);
  {
    g_autofree char *place = g_strdup_printf ("probe_1.ptx:%u:", fma_line + 1);

    if (!g_str_has_prefix (error->message, place))
      g_error ("'%s' does not start with %s", error->message, place);
  }
  g_clear_error (&error);
  g_assert_null (ks_probe_run_ptx (t, &opt, 3, ptx, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* The line of the n-th (0-based) occurrence of what in text, 1-based */
static guint
line_of (const char *text,
         const char *what,
         guint       n)
{
  const char *at = text;
  guint line = 1;

  for (guint i = 0; i <= n; i++)
    {
      at = strstr (i ? at + 1 : at, what);
      g_assert_nonnull (at);
    }
  for (const char *c = text; c < at; c++)
    line += *c == '\n';
  return line;
}

/* A saved folder reads back as it was written, a probe edited by hand
 * with it; a broken metadata.json is refused at the member's line */
static void
test_load (void)
{
  g_autoptr(KsProbeResult) r = run ("chain-length", "rtx-3090", FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-probe-XXXXXX", &error);
  g_autofree char *meta_path = NULL, *meta = NULL, *bad = NULL, *place = NULL;
  g_autoptr(KsProbeResult) back = NULL;

  g_assert_no_error (error);
  g_assert_true (ks_probe_write_folder (r, dir, &error));
  back = ks_probe_result_load (dir, &error);
  g_assert_no_error (error);
  g_assert_true (back->tmpl == r->tmpl);
  g_assert_cmpstr (back->instruction, ==, "ffma");
  g_assert_cmpstr (back->gpu, ==, "rtx-3090");
  g_assert_cmpstr (back->arch, ==, "sm_86");
  g_assert_nonnull (back->saved_date);
  g_assert_false (back->edited);
  g_assert_true (back->verified);
  g_assert_cmpuint (back->checks->len, ==, r->checks->len);
  g_assert_cmpuint (back->points->len, ==, r->points->len);
  for (guint i = 0; i < r->points->len; i++)
    {
      g_assert_cmpfloat (point (back, i)->x, ==, point (r, i)->x);
      g_assert_cmpuint (point (back, i)->instructions, ==, point (r, i)->instructions);
      g_assert_cmpuint (point (back, i)->total_cycles, ==, point (r, i)->total_cycles);
      g_assert_cmpfloat_with_epsilon (point (back, i)->cycles_per_instruction,
                                      point (r, i)->cycles_per_instruction, 1e-9);
    }
  g_assert_true (back->have_fit);
  g_assert_cmpfloat_with_epsilon (back->slope, r->slope, 1e-9);
  g_assert_cmpstr (back->conclusion, ==, r->conclusion);

  /* the second point's x a string: refused where it is */
  meta_path = g_build_filename (dir, "metadata.json", NULL);
  g_assert_true (g_file_get_contents (meta_path, &meta, NULL, NULL));
  {
    const char *x = strstr (strstr (strstr (meta, "\"points\""), "\"x\"") + 1, "\"x\"");
    const char *end = strchr (x, ',');

    bad = g_strdup_printf ("%.*s\"x\" : \"4096\"%s", (int) (x - meta), meta, end);
  }
  g_assert_true (g_file_set_contents (meta_path, bad, -1, NULL));
  g_clear_pointer (&back, ks_probe_result_free);
  g_assert_null (ks_probe_result_load (dir, &error));
  g_assert_nonnull (error);
  place = g_strdup_printf ("%s:%u:", meta_path, line_of (bad, "\"x\"", 1));
  if (!g_str_has_prefix (error->message, place) || !strstr (error->message, "points[1].x"))
    g_error ("'%s' is not at %s", error->message, place);
  g_clear_error (&error);

  /* an edited probe's folder */
  {
    const KsProbeTemplate *t = ks_probe_find ("accumulators");
    g_autoptr(KsProbeResult) a = run ("accumulators", "rtx-3090", FALSE);
    g_autofree char *quarter = replace_once (file_of (a, "binary/probe_2.ptx"), "%r50, 256;",
                                             "%r50, 64;");
    g_autoptr(KsProbeResult) e = ks_probe_run_ptx (t, NULL, 2, quarter, &error);
    g_autoptr(KsProbeResult) eb = NULL;
    g_autofree char *run_cmd = NULL, *p = NULL;

    g_assert_no_error (error);
    g_assert_true (ks_probe_write_folder (e, dir, &error));
    eb = ks_probe_result_load (dir, &error);
    g_assert_no_error (error);
    g_assert_true (eb->edited);
    g_assert_cmpfloat (eb->shown_x, ==, 2);
    g_assert_cmpuint (eb->points->len, ==, 1);
    p = g_build_filename (dir, "run_command.txt", NULL);
    g_assert_true (g_file_get_contents (p, &run_cmd, NULL, NULL));
    g_assert_nonnull (strstr (run_cmd, "--ptx binary/probe_2.ptx --x 2"));
  }
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (cmd), ==, 0);
  }
  g_assert_null (ks_probe_result_load ("/nonexistent/experiment", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* Warps hide latency: with one dependent FFMA chain a warp, the SM's
 * cycles per FFMA fall as warps are added until every scheduler issues
 * every cycle.  The CUDA C++ Programming Guide ("Multiprocessor Level"):
 * with a latency of about 4 cycles and four schedulers issuing one
 * instruction a cycle, 16 warps (4L) hide it; on sm_86 each scheduler's
 * 32 FP32 lanes take an FFMA a cycle, so 0.25 cycles per FFMA.  On V100
 * (Volta whitepaper: 16 FP32 lanes a partition) an FFMA takes its pipe two
 * cycles, so 8 warps saturate it at 0.5. */
static void
test_warp_count (void)
{
  const struct
  {
    const char *gpu;
    double saturated_at, cycles;
  } cases[] = {
    { "rtx-3090", 16, 0.25 },
    { "v100-sxm2", 8, 0.5 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(KsProbeResult) r = run ("warp-count", cases[c].gpu, FALSE);
      double best = INFINITY;
      guint sat = 0;

      for (guint i = 0; i < r->points->len; i++)
        {
          const KsProbePoint *p = point (r, i);

          g_test_message ("%s, %g warps: %.3f cycles per FFMA of the SM", cases[c].gpu, p->x,
                          p->cycles_per_instruction);
          /* the FFMAs issued while every warp was in its loop: all of
           * them but a warp's first and last few */
          g_assert_cmpuint (p->instructions, <=, 4096 * (guint64) p->x);
          g_assert_cmpuint (p->instructions, >=, 4055 * (guint64) p->x);
          best = MIN (best, p->cycles_per_instruction);
        }
      /* one warp: the latency, 4 cycles (the FFMA figures above) */
      g_assert_cmpfloat (fabs (point (r, 0)->cycles_per_instruction - 4) / 4, <=, 0.05);
      for (guint i = r->points->len; i-- > 0;)
        if (point (r, i)->cycles_per_instruction <= best * 1.10)
          sat = i;
      g_assert_cmpfloat (point (r, sat)->x, ==, cases[c].saturated_at);
      g_assert_cmpfloat (fabs (best - cases[c].cycles) / cases[c].cycles, <=, 0.10);
      /* up to the saturation, each doubling halves the cycles */
      for (guint i = 1; point (r, i)->x <= cases[c].saturated_at / 2; i++)
        g_assert_cmpfloat (fabs (point (r, i)->cycles_per_instruction * 2
                                 - point (r, i - 1)->cycles_per_instruction),
                           <=, 0.05 * point (r, i - 1)->cycles_per_instruction);
      g_assert_nonnull (strstr (r->conclusion, "warps"));
    }

  /* Shuffles: 32 results a clock per SM on every architecture (the Guide's
   * throughput table), one warp's shuffle a clock: 32 warps, 8 a scheduler,
   * hide a latency of 23 cycles behind the unit's 4 a shuffle */
  {
    KsProbeOptions opt;
    g_autoptr(GError) error = NULL;
    g_autoptr(KsProbeResult) r = NULL;

    ks_probe_options_init (&opt);
    opt.gpu = "a100-sxm4-80gb";
    opt.instruction = "shfl";
    r = ks_probe_run (ks_probe_find ("warp-count"), &opt, &error);
    g_assert_no_error (error);
    g_test_message ("A100, 32 warps: %.3f cycles per SHFL of the SM",
                    point (r, r->points->len - 1)->cycles_per_instruction);
    g_assert_cmpfloat (point (r, r->points->len - 1)->x, ==, 32);
    g_assert_cmpfloat (fabs (point (r, r->points->len - 1)->cycles_per_instruction - 1), <=, 0.05);
  }
}

/* The warps an SM holds with registers a thread, in 128-thread blocks, by
 * the CUDA occupancy calculator's register rule (cuda_occupancy.h,
 * cudaOccMaxBlocksPerSMRegsLimit): a warp's registers are allocated in
 * units of 256, and each of the SM's four sub-partitions holds 16384 of
 * them (65536 an SM, 7.x to 9.0); then the SM's warp and block limits. */
static guint
warps_by_registers (guint registers,
                    guint max_warps,
                    guint max_blocks)
{
  guint per_warp = (32 * registers + 255) / 256 * 256;
  guint warps = 4 * (16384 / per_warp);

  return MIN (MIN (warps, max_warps) / 4, max_blocks) * 4;
}

/* Register pressure: with one dependent FFMA chain a warp (4 cycles, Jia
 * et al. 2018; seeds/002) and every scheduler issuing at most one FFMA a
 * cycle on sm_86 (the Guide: 128 results a clock an SM), the SM takes
 * max(4 / W, 0.25) cycles per FFMA with W warps resident; on V100 (16
 * FP32 lanes a partition, the Volta whitepaper) max(4 / W, 0.5), so that
 * the 8 warps of 255 registers still saturate it. */
static void
test_register_pressure (void)
{
  const struct
  {
    const char *gpu;
    guint max_warps, max_blocks;
    double rate;
  } cases[] = {
    { "rtx-3090", 48, 16, 0.25 },
    { "v100-sxm2", 64, 32, 0.5 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(KsProbeResult) r = run ("register-pressure", cases[c].gpu, FALSE);
      const KsProbePoint *first_slow = NULL;
      gboolean held = FALSE;

      g_assert_null (r->instruction);
      for (guint i = 0; i < r->points->len; i++)
        {
          const KsProbePoint *p = point (r, i);
          double want;

          g_test_message ("%s, %g values: %d registers, %d warps, %.3f cycles per FFMA of the SM",
                          cases[c].gpu, p->x, p->registers, p->resident_warps,
                          p->cycles_per_instruction);
          /* the values are held in registers, the more the more */
          g_assert_cmpint (p->registers, >=, (int) p->x);
          if (i > 0)
            g_assert_cmpint (p->registers, >, point (r, i - 1)->registers);
          g_assert_cmpint (p->resident_warps, ==,
                           (int) warps_by_registers ((guint) p->registers, cases[c].max_warps,
                                                     cases[c].max_blocks));
          want = MAX (4.0 / p->resident_warps, cases[c].rate);
          g_assert_cmpfloat (fabs (p->cycles_per_instruction - want) / want, <=, 0.05);
          if (first_slow == NULL && 4.0 / p->resident_warps > cases[c].rate * 1.10)
            first_slow = p;
        }
      /* the conclusion names the transition where the warps stop hiding
       * the latency, or none */
      if (first_slow != NULL)
        {
          g_autofree char *from = g_strdup_printf ("From %d registers a thread on, the SM held %d "
                                                   "warps", first_slow->registers,
                                                   first_slow->resident_warps);

          g_assert_nonnull (strstr (r->conclusion, from));
        }
      else
        g_assert_nonnull (strstr (r->conclusion, "Every point was within 10 %"));
      g_assert_true ((first_slow != NULL) == (g_strcmp0 (cases[c].gpu, "rtx-3090") == 0));
      for (guint i = 0; i < r->checks->len; i++)
        {
          const KsProbeCheck *k = g_ptr_array_index (r->checks, i);

          if (g_strcmp0 (k->item, "values held across the loop") == 0)
            held = k->checked && k->pass && strstr (k->detail, "224 values") != NULL;
        }
      g_assert_true (held);
    }

  /* a value not used after the timer is not held: the check fails */
  {
    g_autoptr(KsProbeResult) r = run ("register-pressure", "rtx-3090", FALSE);
    const KsProbeTemplate *t = ks_probe_find ("register-pressure");
    g_autofree char *bad = replace_once (file_of (r, "binary/probe_224.ptx"),
                                         "\tadd.u32 %r9, %r9, %k223;\n", "");
    g_autoptr(GError) error = NULL;
    g_autoptr(KsProbeResult) v = ks_probe_verify_ptx (t, NULL, 224, bad, &error);

    g_assert_no_error (error);
    g_assert_false (v->verified);
    g_assert_nonnull (strstr (v->conclusion, "values held across the loop"));
  }

  /* ptxas holds them too, without spilling, and its count decides the
   * warps */
  {
    g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
    g_autoptr(KsProbeResult) r = NULL;

    if (tc == NULL || ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
      {
        g_test_message ("no ptxas here: the register-pressure probes' registers are estimates");
        return;
      }
    r = run ("register-pressure", "rtx-3090", TRUE);
    for (guint i = 0; i < r->points->len; i++)
      {
        const KsProbePoint *p = point (r, i);

        g_test_message ("ptxas, %g values: %d registers, %d warps", p->x, p->registers,
                        p->resident_warps);
        g_assert_cmpint (p->registers, >=, (int) p->x);
        g_assert_cmpint (p->spill_loads, ==, 0);
        g_assert_cmpint (p->spill_stores, ==, 0);
        g_assert_cmpint (p->resident_warps, ==,
                         (int) warps_by_registers ((guint) p->registers, 48, 16));
      }
  }
}

/* The lines of text (1-based) holding token, from line first to line last */
static GArray *
text_lines (const char *text,
            const char *token,
            guint32     first,
            guint32     last)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; lines[i] != NULL; i++)
    if (i + 1 >= first && i + 1 <= last && strstr (lines[i], token) != NULL)
      {
        guint32 line = i + 1;

        g_array_append_val (out, line);
      }
  return out;
}

static const KsProbeCheck *
check_of (const KsProbeResult *r,
          const char          *item)
{
  for (guint i = 0; i < r->checks->len; i++)
    {
      const KsProbeCheck *c = g_ptr_array_index (r->checks, i);

      if (g_str_equal (c->item, item))
        return c;
    }
  g_error ("no check '%s'", item);
  return NULL;
}

static void
assert_same_lines (const GArray *got,
                   const GArray *want,
                   const char   *what)
{
  g_test_message ("%s: %u lines, want %u", what, got->len, want->len);
  g_assert_cmpuint (got->len, ==, want->len);
  g_assert_cmpuint (want->len, >, 0);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpuint (g_array_index (got, guint32, i), ==, g_array_index (want, guint32, i));
}

/* Each check names the probe's lines it is about, so the lab can show them:
 * the lines are found here by reading the PTX text the result carries */
static void
test_check_lines (void)
{
  g_autoptr(KsProbeResult) r = run ("accumulators", "rtx-3090", FALSE);
  g_autoptr(GArray) clocks = NULL, fmas = NULL, branches = NULL, stores = NULL;
  guint32 t0, t1;

  g_assert_nonnull (r->ptx);
  g_assert_nonnull (r->cuda);
  g_assert_nonnull (strstr (r->cuda, "clock64()"));
  /* (the first line, a comment, names %clock64 too) */
  clocks = text_lines (r->ptx, ", %clock64;", 1, G_MAXUINT32);
  g_assert_cmpuint (clocks->len, ==, 2);
  t0 = g_array_index (clocks, guint32, 0);
  t1 = g_array_index (clocks, guint32, 1);
  assert_same_lines (check_of (r, "timer")->lines, clocks, "timer");
  fmas = text_lines (r->ptx, "fma.rn.f32", t0, t1);
  assert_same_lines (check_of (r, "target instruction")->lines, fmas, "target");
  assert_same_lines (check_of (r, "dependency chain")->lines, fmas, "chain");
  branches = text_lines (r->ptx, "bra", t0, t1);
  assert_same_lines (check_of (r, "loop structure")->lines, branches, "loop");
  stores = text_lines (r->ptx, "st.global", t1, G_MAXUINT32);
  assert_same_lines (check_of (r, "result stored after the timer")->lines, stores, "stores");
  g_assert_cmpuint (check_of (r, "no conversion in the timed region")->lines->len, ==, 0);

  /* a conversion put into the loop: the failed check points at it */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *bad = replace_once (r->ptx, "$L_timed:\n",
                                         "$L_timed:\n\tcvt.rn.f32.u32 %f3, %r1;\n");
    g_autoptr(KsProbeResult) v = ks_probe_verify_ptx (r->tmpl, NULL, 1, bad, &error);
    g_autoptr(GArray) cvt = text_lines (bad, "cvt.rn.f32.u32 %f3, %r1;", 1, G_MAXUINT32);
    const KsProbeCheck *c;

    g_assert_no_error (error);
    c = check_of (v, "no conversion in the timed region");
    g_assert_false (c->pass);
    assert_same_lines (c->lines, cvt, "cvt");
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/probe/templates", test_templates);
  g_test_add_func ("/probe/ffma-accumulators", test_accumulators);
  g_test_add_func ("/probe/ffma-latency", test_ffma_latency);
  g_test_add_func ("/probe/shared-stride", test_shared_stride);
  g_test_add_func ("/probe/pointer-chase", test_pointer_chase);
  g_test_add_func ("/probe/ptxas", test_ptxas);
  g_test_add_func ("/probe/folder", test_folder);
  g_test_add_func ("/probe/sass-from-cubin", test_sass_from_cubin);
  g_test_add_func ("/probe/run-edit", test_run_edit);
  g_test_add_func ("/probe/load", test_load);
  g_test_add_func ("/probe/verification-fails", test_verification_fails);
  g_test_add_func ("/probe/check-lines", test_check_lines);
  g_test_add_func ("/probe/warp-count", test_warp_count);
  g_test_add_func ("/probe/instructions", test_instructions);
  g_test_add_func ("/probe/mixed-pipe", test_mixed_pipe);
  g_test_add_func ("/probe/register-pressure", test_register_pressure);
  return g_test_run ();
}
