/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pipeline API the window and `analyze` share: stages in order, an
 * editor's text over the file, failures with their places, faults, and
 * cancellation. */

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-analysis.h"
#include "ks-test-standin.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

static char *
sample (const char *dir,
        const char *file)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", dir, file, NULL);
}

static void
record_stage (KsAnalysisStage stage,
              double          fraction,
              gpointer        user_data)
{
  GArray *stages = user_data;
  int s = (int) stage;

  g_assert_cmpfloat (fraction, >=, 0.0);
  g_assert_cmpfloat (fraction, <=, 1.0);
  if (stages->len == 0 || g_array_index (stages, int, stages->len - 1) != s)
    g_array_append_val (stages, s);
}

/* The vector-add sample's spec: every stage runs, in order, and the results
 * agree with the spec (4 blocks of 256 threads, c = a + b) */
static void
test_spec (void)
{
  g_autofree char *spec = sample ("01-vector-add", "vector_add.json");
  g_autoptr(GArray) stages = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;
  const uint8_t *ab, *bb, *cb;
  size_t size;

  ks_analysis_request_init (&req);
  req.path = spec;
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, record_stage, stages);
  g_assert_nonnull (a);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_null (a->error);
  g_assert_cmpstr (a->kernel_name, ==, "_Z10vector_addPKfS0_Pfi");
  g_assert_false (a->launch_is_default);
  g_assert_cmpuint (a->launch->grid[0], ==, 4);
  g_assert_cmpstr (a->arch->id, ==, "sm_80");
  /* without a toolkit, the ptxas report kept beside the sample's PTX:
   * "Used 12 registers" */
  g_assert_cmpint (a->resources->source, ==, KS_RESOURCES_SOURCE_PTXAS);
  g_assert_cmpuint (a->resources->registers, ==, 12);
  g_assert_true (a->have_occupancy);
  g_assert_nonnull (a->timing);
  g_assert_nonnull (a->hints);

  /* PARSE, RESOURCES, SIMULATE, TIMING, HINTS after COMPILE (reading);
   * no SASS stage without a toolkit */
  {
    static const KsAnalysisStage want[] = {
      KS_ANALYSIS_STAGE_COMPILE, KS_ANALYSIS_STAGE_PARSE, KS_ANALYSIS_STAGE_RESOURCES,
      KS_ANALYSIS_STAGE_SIMULATE, KS_ANALYSIS_STAGE_TIMING, KS_ANALYSIS_STAGE_HINTS,
    };

    g_assert_cmpuint (stages->len, ==, G_N_ELEMENTS (want));
    for (guint i = 0; i < stages->len; i++)
      g_assert_cmpint (g_array_index (stages, int, i), ==, (int) want[i]);
  }

  /* the results: c[i] = a[i] + b[i] in f32 */
  ab = ks_sim_get_buffer (a->sim, 0, &size);
  bb = ks_sim_get_buffer (a->sim, 1, NULL);
  cb = ks_sim_get_buffer (a->sim, 2, NULL);
  g_assert_cmpuint (size, ==, 1000 * 4);
  for (guint i = 0; i < 1000; i++)
    {
      float x, y, z;

      memcpy (&x, ab + 4 * i, 4);
      memcpy (&y, bb + 4 * i, 4);
      memcpy (&z, cb + 4 * i, 4);
      g_assert_cmpfloat (z, ==, x + y);
    }
}

/* An edited PTX text is not what the report beside the file (nor the
 * shipped SASS's) describes: the resources are estimated */
static void
test_edited_text_estimates (void)
{
  g_autofree char *ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autofree char *text = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  g_autofree char *edited = NULL;

  g_assert_true (g_file_get_contents (ptx, &text, NULL, NULL));
  edited = g_strconcat (text, "// edited\n", NULL);
  ks_analysis_request_init (&req);
  req.path = ptx;
  req.text = edited;
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpint (a->resources->source, ==, KS_RESOURCES_SOURCE_ESTIMATE);
  g_assert_null (a->sass);
}

/* The loop of matmul_tiled timed from its shipped sm_86 SASS (nvdisasm
 * 11.8, with control codes): the loop runs from .L_x_1 at 0x150 to its back
 * edge at 0x500, 60 instructions; n = 64 and TILE = 16 make 4 iterations a
 * warp, and the busiest of the RTX 3090's 82 SMs runs block 0 alone, 8
 * warps of 32: 8 x 4 x 60 SASS warp-instructions in the loop.  Around it,
 * each warp runs the 21 instructions from 0x000 to 0x140 (the `@!P1 BRA`
 * at 0x0d0 that skips the loop not taken) and the 6 from 0x510 to the
 * EXIT at 0x560 (every thread has an element, so the `@P0 EXIT` at 0x510
 * lets it on to the STG): 8 x (21 + 4 x 60 + 6), and nothing from the PTX.
 * Without SASS timing none, and the PTX's own loop is timed instead. */
static void
test_sass_timing (void)
{
  g_autofree char *spec = sample ("22-matmul-tiled", "matmul_tiled.json");
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(KsAnalysis) b = NULL;
  KsAnalysisRequest req;

  ks_analysis_request_init (&req);
  req.path = spec;
  req.gpu = "rtx-3090";
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpstr (a->sass_arch, ==, "sm_86");
  g_assert_nonnull (a->timing);
  g_assert_cmpuint (a->timing->n_warps, ==, 8);
  g_assert_cmpuint (a->timing->sass_loops, ==, 1);
  g_assert_cmpuint (a->timing->sass_loops_not, ==, 0);
  g_assert_null (a->timing->sass_reason);
  g_assert_null (a->timing->sass_stretch_reason);
  g_assert_cmpuint (a->timing->sass_stretches, ==, 8 * 2);
  g_assert_cmpuint (a->timing->sass_issued, ==, 8 * (21 + 4 * 60 + 6));
  g_assert_cmpuint (a->timing->issued, ==, a->timing->sass_issued);
  /* every event shows a PTX instruction of the kernel */
  for (uint64_t i = 0; i < a->timing->n_events; i++)
    {
      const KsPtxFunction *fn = &a->module->functions[a->kernel_index];

      g_assert_cmpuint (a->timing->events[i].insn, >=, fn->first_insn);
      g_assert_cmpuint (a->timing->events[i].insn, <, fn->first_insn + fn->n_insns);
    }

  req.sass_timing = FALSE;
  b = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (b->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpuint (b->timing->sass_issued, ==, 0);
  g_assert_cmpuint (b->timing->sass_loops, ==, 0);
  /* the PTX loop's 4 x 75 instructions, less what the lowering folds,
   * against the SASS's 4 x 60 */
  g_assert_cmpuint (b->timing->issued, >, a->timing->issued);
}

/* A kernel without loops, timed from its SASS whole: the sample's sm_86
 * listing (CUDA 11.8, nvdisasm) runs 16 instructions from 0000 to the
 * EXIT at 00f0 when a lane has an element, and 6 to the `@P0 EXIT` at 0050
 * when none has.  One block of 256 threads and n = 100: warps 0
 * to 3 have elements (warp 3 four of them), warps 4 to 7 none: 4 x 16 +
 * 4 x 6 SASS warp-instructions, and nothing from the PTX. */
static void
test_sass_stretches (void)
{
  g_autofree char *spec = sample ("01-vector-add", "vector_add.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_load (spec, &error);
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;
  const KsPtxModule *m;

  g_assert_no_error (error);
  l->grid[0] = 1;
  g_assert_cmpuint (l->n_params, ==, 4);
  l->params[3].bits = 100;
  ks_analysis_request_init (&req);
  req.path = spec;
  req.launch = l;
  req.gpu = "rtx-3090";
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpstr (a->sass_arch, ==, "sm_86");
  g_assert_nonnull (a->timing);
  g_assert_cmpuint (a->timing->n_warps, ==, 8);
  g_assert_cmpuint (a->timing->sass_loops, ==, 0);
  g_assert_null (a->timing->sass_stretch_reason);
  g_assert_cmpuint (a->timing->sass_stretches, ==, 8);
  g_assert_cmpuint (a->timing->sass_stretches_not, ==, 0);
  g_assert_cmpuint (a->timing->sass_issued, ==, 4 * 16 + 4 * 6);
  g_assert_cmpuint (a->timing->issued, ==, a->timing->sass_issued);
  m = a->module;
  for (uint32_t w = 0; w < 8; w++)
    {
      const KsTimingWarp *tw = &a->timing->warps[w];
      const KsTimingEvent *last = &a->timing->events[tw->first_event + tw->n_events - 1];
      const KsPtxInsn *in = &m->insns[last->insn];

      g_assert_cmpuint (tw->n_events, ==, tw->warp_in_cta < 4 ? 16 : 6);
      /* the listing's instructions in its order, from 0000 on: the
       * events name them */
      for (uint64_t k = 0; k < tw->n_events; k++)
        {
          const KsTimingEvent *e = &a->timing->events[tw->first_event + k];

          g_assert_cmpuint (e->sass, !=, 0);
          g_assert_cmpuint (a->sass->insns[e->sass - 1].offset, ==, 0x10 * k);
        }
      g_assert_cmpstr (a->sass->insns[last->sass - 1].opcode, ==, "EXIT");
      /* each warp's last instruction, an EXIT, is shown at a PTX
       * instruction of its CUDA line: 11 (the closing brace), or 9 (the if) */
      g_assert_cmpuint (in->loc, <, m->n_locs);
      g_assert_cmpuint (m->locs[in->loc].line, ==, tw->warp_in_cta < 4 ? 11 : 9);
    }
}

/* An editor's text wins over the file; an error in it comes back with its
 * line and column, and nothing else runs */
static void
test_text_with_error (void)
{
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;
  const KsDiagnostic *d;

  ks_analysis_request_init (&req);
  req.path = "/nonexistent/edited.ptx";
  req.text = HEADER ".visible .entry k()\n{\n  mov.u32 %r1, 1;\n  ret;\n}\n";
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_FAILED);
  g_assert_nonnull (strstr (a->error, "1 error"));
  g_assert_nonnull (a->module);
  g_assert_null (a->sim);
  g_assert_cmpuint (a->diagnostics->len, >=, 1);
  d = &g_array_index (a->diagnostics, KsDiagnostic, 0);
  g_assert_cmpint (d->severity, ==, KS_DIAGNOSTIC_ERROR);
  /* %r1 is not declared: line 6, column 11 */
  g_assert_cmpuint (d->line, ==, 6);
  g_assert_cmpuint (d->column, ==, 11);
  g_assert_cmpstr (d->file, ==, "/nonexistent/edited.ptx");
}

/* A kernel that reads outside its buffer: FAULTED, the fault names the
 * block and thread, and the stages before it stay */
static void
test_fault (void)
{
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;
  const KsSimFault *f;

  ks_analysis_request_init (&req);
  req.path = "oob.ptx";
  req.text = HEADER ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<3>;\n"
             "  .reg .b32 %r<3>;\n  ld.param.u64 %rd1, [p];\n"
             "  ld.global.u32 %r1, [%rd1+1048576];\n  ret;\n}\n";
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_FAULTED);
  g_assert_nonnull (a->sim);
  f = ks_sim_get_fault (a->sim);
  g_assert_nonnull (f);
  g_assert_cmpint (f->kind, ==, KS_SIM_FAULT_OUT_OF_BOUNDS);
  g_assert_cmpuint (f->ptx_line, ==, 9);
  g_assert_true (a->have_occupancy);
  g_assert_null (a->timing);
}

static void
cancel_on_simulate (KsAnalysisStage stage,
                    double          fraction,
                    gpointer        user_data)
{
  if (stage == KS_ANALYSIS_STAGE_SIMULATE)
    g_cancellable_cancel (user_data);
}

/* Cancelled while simulating: NULL */
static void
test_cancel (void)
{
  g_autofree char *spec = sample ("22-matmul-tiled", "matmul_tiled.json");
  g_autoptr(GCancellable) c = g_cancellable_new ();
  KsAnalysisRequest req;

  ks_analysis_request_init (&req);
  req.path = spec;
  req.use_toolkit = FALSE;
  g_assert_null (ks_analysis_run (&req, c, cancel_on_simulate, c));
}

/* A process that is gone, or a zombie waiting for init to reap it */
static gboolean
process_gone (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *paren;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  paren = strrchr (stat, ')');
  return paren != NULL && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

static int
read_pid (const char *path)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  return atoi (text);
}

typedef struct
{
  KsAnalysisRequest req;
  GCancellable *cancellable;
  KsAnalysis *result;
} CompileRun;

static gpointer
compile_thread (gpointer data)
{
  CompileRun *run = data;

  run->result = ks_analysis_run (&run->req, run->cancellable, NULL, NULL);
  return NULL;
}

/* Cancelling a run while nvcc compiles ends the compile, and all of it: the
 * compiler's own children too (a real nvcc runs cicc and ptxas under it),
 * not only the process the run started.  The stand-in nvcc starts a child
 * that would sleep a minute and waits for it. */
static void
test_cancel_compile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-test-slow-nvcc-XXXXXX", NULL);
  g_autofree char *nvcc = g_build_filename (dir, "nvcc", NULL);
  g_autofree char *cu = g_build_filename (dir, "k.cu", NULL);
  g_autofree char *child_pid = g_build_filename (dir, "child.pid", NULL);
  g_autofree char *nvcc_pid = g_build_filename (dir, "nvcc.pid", NULL);
  CompileRun run = { 0 };
  GThread *thread;
  gint64 start;
  int child = 0, parent = 0;

  g_assert_true (g_file_set_contents (nvcc,
    "#!/bin/sh\n"
    "# a slow nvcc stand-in of KernelScope's tests: a child that takes a minute\n"
    "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n"
    "dir=$(dirname \"$0\")\n"
    "sleep 60 &\n"
    "echo $$ > \"$dir/nvcc.pid.tmp\"; mv \"$dir/nvcc.pid.tmp\" \"$dir/nvcc.pid\"\n"
    "echo $! > \"$dir/child.pid.tmp\"; mv \"$dir/child.pid.tmp\" \"$dir/child.pid\"\n"
    "wait\n", -1, NULL));
  g_assert_cmpint (g_chmod (nvcc, 0755), ==, 0);
  g_assert_true (g_file_set_contents (cu, "__global__ void k(float *x) { x[0] = 1; }\n", -1, NULL));

  ks_analysis_request_init (&run.req);
  run.req.path = cu;
  run.req.toolkit_dir = dir;
  run.cancellable = g_cancellable_new ();
  start = g_get_monotonic_time ();
  thread = g_thread_new ("compile", compile_thread, &run);
  while ((child = read_pid (child_pid)) == 0 && g_get_monotonic_time () - start < 20 * G_USEC_PER_SEC)
    g_usleep (20000);
  g_assert_cmpint (child, >, 0);
  parent = read_pid (nvcc_pid);
  g_assert_cmpint (parent, >, 0);
  g_assert_false (process_gone (child));

  g_cancellable_cancel (run.cancellable);
  g_thread_join (thread);
  /* at once, not after the child's minute */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 15 * G_USEC_PER_SEC);
  g_assert_null (run.result);
  g_assert_true (process_gone (parent));
  /* the compiler's child goes with it (it may take the kernel a moment) */
  for (guint i = 0; i < 100 && !process_gone (child); i++)
    g_usleep (20000);
  g_assert_true (process_gone (child));

  g_object_unref (run.cancellable);
  g_unlink (nvcc);
  g_unlink (cu);
  g_unlink (child_pid);
  g_unlink (nvcc_pid);
  g_rmdir (dir);
}

/* A stand-in tool named name in dir (made if needed) */
static char *
fake_tool (const char *dir,
           const char *name)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "#!/bin/sh\nexit 0\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static void
restore_env (const char *name,
             const char *value)
{
  if (value != NULL)
    g_setenv (name, value, TRUE);
  else
    g_unsetenv (name);
}

/* Where the toolkit is looked for, in order (issue 5): the preferred
 * folder (the toolkit-path setting, itself or its bin/), PATH,
 * $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin */
static void
test_toolchain_search_order (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("ks-test-toolkits-XXXXXX", NULL);
  g_autofree char *pref = g_build_filename (tmp, "pref", NULL);
  g_autofree char *pref_bin = g_build_filename (tmp, "pref-bin", "bin", NULL);
  g_autofree char *pref_top = g_build_filename (tmp, "pref-bin", NULL);
  g_autofree char *on_path = g_build_filename (tmp, "path", NULL);
  g_autofree char *home = g_build_filename (tmp, "home", NULL);
  g_autofree char *home_bin = g_build_filename (home, "bin", NULL);
  g_autofree char *cpath = g_build_filename (tmp, "cpath", NULL);
  g_autofree char *cpath_bin = g_build_filename (cpath, "bin", NULL);
  g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *old_home = g_strdup (g_getenv ("CUDA_HOME"));
  g_autofree char *old_cpath = g_strdup (g_getenv ("CUDA_PATH"));
  g_autofree char *n_pref = fake_tool (pref, "nvcc");
  g_autofree char *n_pref_bin = fake_tool (pref_bin, "nvcc");
  g_autofree char *n_path = fake_tool (on_path, "nvcc");
  g_autofree char *n_home = fake_tool (home_bin, "nvcc");
  g_autofree char *n_cpath = fake_tool (cpath_bin, "nvdisasm");
  g_autofree char *n_cpath2 = fake_tool (cpath_bin, "nvcc");
  /* CUDA_PATH's is a release newer than any installed: SASS's, whatever
   * else the machine has */
  const char *newest = "#!/bin/sh\necho 'Cuda compilation tools, release 99.9, V99.9.1'\n";
  KsToolchain *tc;

  g_assert_true (g_file_set_contents (n_cpath, newest, -1, NULL));
  g_assert_true (g_file_set_contents (n_cpath2, newest, -1, NULL));
  g_assert_cmpint (g_chmod (n_cpath, 0755), ==, 0);
  g_assert_cmpint (g_chmod (n_cpath2, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_setenv ("PATH", on_path, TRUE);
  g_setenv ("CUDA_HOME", home, TRUE);
  g_setenv ("CUDA_PATH", cpath, TRUE);

  /* the preference first, as a folder of tools or a toolkit with bin/ */
  tc = ks_toolchain_find (pref);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, n_pref);
  ks_toolchain_free (tc);
  tc = ks_toolchain_find (pref_top);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, n_pref_bin);
  /* a tool the preference lacks is not borrowed from another toolkit (issue
   * 14: one toolkit's programs together); SASS is made by the toolkit that
   * has a disassembler, CUDA_PATH's here, with its own nvcc */
  g_assert_null (ks_toolchain_get_path (tc, KS_TOOL_NVDISASM));
  g_assert_nonnull (tc->sass);
  g_assert_cmpstr (tc->sass->paths[KS_TOOL_NVDISASM], ==, n_cpath);
  g_assert_cmpstr (tc->sass->paths[KS_TOOL_NVCC], ==, n_cpath2);
  ks_toolchain_free (tc);
  /* then PATH */
  tc = ks_toolchain_find (NULL);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, n_path);
  ks_toolchain_free (tc);
  /* then $CUDA_HOME/bin */
  g_setenv ("PATH", empty, TRUE);
  tc = ks_toolchain_find (NULL);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, n_home);
  ks_toolchain_free (tc);
  /* then $CUDA_PATH/bin */
  g_unsetenv ("CUDA_HOME");
  tc = ks_toolchain_find (NULL);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, n_cpath2);
  ks_toolchain_free (tc);
  /* then /usr/local/cuda/bin, Debian's package, or nothing */
  g_unsetenv ("CUDA_PATH");
  tc = ks_toolchain_find (NULL);
  if (g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    g_assert_true (g_str_has_suffix (ks_toolchain_get_path (tc, KS_TOOL_NVCC), "/bin/nvcc"));
  else if (g_file_test ("/usr/lib/nvidia-cuda-toolkit/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==,
                     "/usr/lib/nvidia-cuda-toolkit/bin/nvcc");
  else
    g_assert_null (ks_toolchain_get_path (tc, KS_TOOL_NVCC));
  if (ks_toolchain_get_path (tc, KS_TOOL_NVCC) != NULL)
    g_assert_false (g_str_has_prefix (ks_toolchain_get_path (tc, KS_TOOL_NVCC), tmp));
  ks_toolchain_free (tc);

  restore_env ("PATH", old_path);
  restore_env ("CUDA_HOME", old_home);
  restore_env ("CUDA_PATH", old_cpath);
  {
    const char *files[] = { n_pref, n_pref_bin, n_path, n_home, n_cpath, n_cpath2 };
    const char *dirs[] = { pref, pref_bin, pref_top, on_path, home_bin, home, cpath_bin, cpath, empty, tmp };

    for (guint i = 0; i < G_N_ELEMENTS (files); i++)
      g_unlink (files[i]);
    for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
      g_rmdir (dirs[i]);
  }
}

/* A launch from the UI replaces the spec's; the analysis keeps its own copy */
static void
test_launch_override (void)
{
  g_autofree char *spec = sample ("01-vector-add", "vector_add.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_load (spec, &error);
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  g_assert_no_error (error);
  l->grid[0] = 2;
  ks_analysis_request_init (&req);
  req.path = spec;
  req.launch = l;
  req.gpu = "rtx-3090";
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_clear_pointer (&l, ks_launch_free);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpuint (a->launch->grid[0], ==, 2);
  g_assert_cmpstr (a->gpu->id, ==, "rtx-3090");
  g_assert_cmpstr (a->arch->id, ==, "sm_86");
  /* 2 blocks of 256 threads: 512 of the 1000 elements, 16 warps */
  g_assert_cmpuint (ks_sim_get_stats (a->sim)->warp_instructions % 16, ==, 0);
  {
    g_autoptr(JsonNode) j = ks_analysis_to_json (a);
    JsonObject *o = json_node_get_object (j);

    g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "rtx-3090");
    g_assert_true (json_object_has_member (json_object_get_object_member (o, "timing"),
                                           "stall_breakdown"));
  }
}

/* CUDA through nvcc, when it is there */
static void
test_cuda (void)
{
  g_autofree char *cu = sample ("01-vector-add", "vector_add.cu");
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  KsAnalysisRequest req;

  if (ks_toolchain_get_path (tc, KS_TOOL_NVCC) == NULL)
    {
      g_test_skip ("nvcc is not installed: compiling CUDA is not tested");
      return;
    }
  ks_analysis_request_init (&req);
  req.path = cu;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_nonnull (a->cuda_text);
  g_assert_nonnull (strstr (a->ptx_text, ".loc"));
  g_assert_true (a->launch_is_default);
  g_assert_cmpint (a->resources->source, ==, KS_RESOURCES_SOURCE_PTXAS);
}

static gboolean
have_nvcc (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);

  if (ks_toolchain_get_path (tc, KS_TOOL_NVCC) == NULL || ks_toolchain_get_path (tc, KS_TOOL_PTXAS) == NULL)
    {
      g_test_skip ("nvcc and ptxas are not installed: making SASS is not tested");
      return FALSE;
    }
  return TRUE;
}

/* The JSON member "sass" of the analysis (NULL when null) */
static JsonObject *
sass_member (const KsAnalysis *a,
             JsonNode        **root)
{
  JsonNode *member;

  *root = ks_analysis_to_json (a);
  member = json_object_get_member (json_node_get_object (*root), "sass");
  g_assert_nonnull (member);
  return JSON_NODE_HOLDS_NULL (member) ? NULL : json_node_get_object (member);
}

/* Live SASS of a CUDA file (ks-test-standin.h: this tests the plumbing,
 * with a stand-in for nvdisasm).  The CUDA is celeritas' min.cu, whose real
 * nvdisasm listing (10) the stand-in prints: nvcc makes a real cubin for
 * the GPU's architecture, the stand-in gets `-c -g -hex` and that cubin,
 * and the analysis reads its listing, whose line records name min.cu. */
static void
test_live_sass_cuda (void)
{
  g_autoptr(StandIn) nvdisasm = NULL;
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "fixtures", "sass", "11_celeritas_min.cu", NULL);
  g_autofree char *text = NULL, *cu = NULL;
  g_auto(GStrv) args = NULL;
  static const struct { const char *gpu, *arch; guint sm; } cases[] = {
    { "rtx-4090", NULL, 89 },   /* the GPU's architecture */
    { NULL, "sm_75", 75 },      /* or the one asked for */
  };

  if (!have_nvcc ())
    return;
  nvdisasm = standin_new ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s", FALSE);
  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  cu = g_build_filename (nvdisasm->dir, "min.cu", NULL);
  g_assert_true (g_file_set_contents (cu, text, -1, NULL));

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(KsAnalysis) a = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *want_arch = NULL;
      const KsSassFunction *f;
      JsonObject *sass;
      uint32_t n_min = 0;

      {
        KsAnalysisRequest req;

        ks_analysis_request_init (&req);
        req.path = cu;
        req.gpu = cases[c].gpu;
        req.arch = cases[c].arch;
        req.toolkit_dir = nvdisasm->dir;
        req.simulate = FALSE;
        a = ks_analysis_run (&req, NULL, NULL, NULL);
      }
      g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
      g_assert_nonnull (a->cuda_text);
      g_assert_cmpstr (a->sass_tool, ==, "nvdisasm");
      g_assert_null (a->sass_error);
      want_arch = g_strdup_printf ("sm_%u", cases[c].sm);
      g_assert_cmpstr (a->sass_arch, ==, want_arch);
      g_assert_cmpstr (a->sass_arch, ==, a->arch->id);

      /* the stand-in was given -c -g -hex and a cubin for that architecture */
      args = standin_args (nvdisasm);
      g_assert_cmpuint (g_strv_length (args), ==, 4);
      g_assert_cmpstr (args[0], ==, "-c");
      g_assert_cmpstr (args[1], ==, "-g");
      g_assert_cmpstr (args[2], ==, "-hex");
      g_assert_true (g_str_has_suffix (args[3], ".cubin"));
      g_clear_pointer (&args, g_strfreev);
      g_assert_cmpuint (cubin_sm (nvdisasm->cubin_copy), ==, cases[c].sm);

      /* the listing read: listing 10's two functions and its line records */
      g_assert_nonnull (a->sass);
      g_assert_cmpuint (a->sass->n_functions, ==, 2);
      f = ks_sass_match_function (a->sass, "_Z8call_minPdPKd", NULL);
      g_assert_nonnull (f);
      g_assert_cmpuint (f->n_insns, ==, 72);
      for (uint32_t i = 0; i < a->sass->n_insns; i++)
        {
          const KsSassSource *s = ks_sass_insn_source (a->sass, i);

          if (s != NULL && g_str_has_suffix (s->file, "/min.cu"))
            n_min++;
        }
      g_assert_cmpuint (n_min, >, 0);

      /* and in the JSON, in the sass command's form */
      sass = sass_member (a, &root);
      g_assert_nonnull (sass);
      g_assert_cmpstr (json_object_get_string_member (sass, "format"), ==, "nvdisasm");
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (sass, "functions")), ==, 2);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "sass_tool"), ==,
                       "nvdisasm");
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "sass_arch"), ==,
                       want_arch);
      g_unlink (nvdisasm->cubin_copy);
    }
}

/* Live SASS of a PTX file: ptxas makes the cubin (the same stand-in) */
static void
test_live_sass_ptx (void)
{
  g_autoptr(StandIn) nvdisasm = NULL;
  g_autofree char *ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  if (!have_nvcc ())
    return;
  nvdisasm = standin_new ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s", FALSE);
  ks_analysis_request_init (&req);
  req.path = ptx;
  req.toolkit_dir = nvdisasm->dir;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_null (a->cuda_text);
  /* vector_add.ptx says .target sm_80 */
  g_assert_cmpstr (a->sass_arch, ==, "sm_80");
  g_assert_cmpuint (cubin_sm (nvdisasm->cubin_copy), ==, 80);
  g_assert_nonnull (a->sass);
  g_assert_cmpuint (a->sass->n_functions, ==, 2);
  /* the rest of the analysis ran as ever */
  g_assert_nonnull (a->sim);
  g_assert_nonnull (a->timing);
}

static gboolean
has_bytes (const char *data,
           gsize       len,
           const char *what)
{
  gsize n = strlen (what);

  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (data + i, what, n) == 0)
      return TRUE;
  return FALSE;
}

/* A module of more than 4 MiB is assembled for the kernel analysed and
 * what it calls only: the cubin that real ptxas made for the disassembler
 * holds `small` and not the 5 MB kernel beside it */
static void
test_live_sass_large_module (void)
{
  g_autoptr(StandIn) nvdisasm = NULL;
  g_autoptr(GString) text = g_string_new (".version 8.0\n.target sm_80\n.address_size 64\n"
                                          ".visible .entry small (.param .u64 p)\n{\n"
                                          "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n"
                                          "  cvta.to.global.u64 %rd1, %rd1;\n"
                                          "  st.global.u32 [%rd1], 1;\n  ret;\n}\n"
                                          ".visible .entry big_padding (.param .u64 p)\n{\n"
                                          "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n");
  g_autofree char *ptx = NULL, *cubin = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;
  gsize cubin_len = 0;
  gboolean noted = FALSE;

  if (!have_nvcc ())
    return;
  while (text->len < (5u << 20))
    g_string_append (text, "  add.u32 %r1, %r1, 1;\n");
  g_string_append (text, "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd1, %rd1;\n"
                         "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n");
  nvdisasm = standin_new ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s", FALSE);
  ptx = g_build_filename (nvdisasm->dir, "two.ptx", NULL);
  g_assert_true (g_file_set_contents (ptx, text->str, (gssize) text->len, NULL));

  ks_analysis_request_init (&req);
  req.path = ptx;
  req.kernel = "small";
  req.toolkit_dir = nvdisasm->dir;
  req.simulate = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_unlink (ptx);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpint (a->resources->source, ==, KS_RESOURCES_SOURCE_PTXAS);
  g_assert_cmpstr (a->sass_tool, ==, "nvdisasm");
  for (guint i = 0; i < a->diagnostics->len; i++)
    noted |= strstr (g_array_index (a->diagnostics, KsDiagnostic, i).message,
                     "1 other kernel or function of this large module is left out") != NULL;
  g_assert_true (noted);
  g_assert_true (g_file_get_contents (nvdisasm->cubin_copy, &cubin, &cubin_len, NULL));
  g_assert_true (has_bytes (cubin, cubin_len, ".text.small"));
  g_assert_false (has_bytes (cubin, cubin_len, "big_padding"));
}

/* A disassembler that fails is a message, never a failed analysis; a
 * sample then shows the listing that ships with it */
static void
test_live_sass_fails_calmly (void)
{
  g_autoptr(StandIn) nvdisasm = NULL;
  g_autofree char *sample_ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autofree char *text = NULL, *tmp = NULL, *ptx = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(KsAnalysis) shipped = NULL;
  g_autoptr(JsonNode) root = NULL;
  KsAnalysisRequest req;
  gboolean noted = FALSE;

  if (!have_nvcc ())
    return;
  nvdisasm = standin_new (NULL, TRUE);
  ks_analysis_request_init (&req);
  req.path = sample_ptx;
  req.toolkit_dir = nvdisasm->dir;
  shipped = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (shipped->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpint (shipped->sass_origin, ==, KS_SASS_ORIGIN_SHIPPED);
  g_assert_nonnull (shipped->sass);
  g_assert_null (shipped->sass_error);
  for (guint i = 0; i < shipped->diagnostics->len; i++)
    noted |= strstr (g_array_index (shipped->diagnostics, KsDiagnostic, i).message,
                     "refusing on purpose") != NULL;
  g_assert_true (noted);

  /* the same kernel away from its shipped SASS */
  g_assert_true (g_file_get_contents (sample_ptx, &text, NULL, NULL));
  tmp = g_dir_make_tmp ("ks-test-fails-XXXXXX", NULL);
  ptx = g_build_filename (tmp, "vector_add.ptx", NULL);
  g_assert_true (g_file_set_contents (ptx, text, -1, NULL));
  req.path = ptx;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_unlink (ptx);
  g_rmdir (tmp);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_null (a->error);
  g_assert_cmpstr (a->sass_tool, ==, "nvdisasm");
  g_assert_null (a->sass_text);
  g_assert_null (a->sass);
  g_assert_nonnull (a->sass_error);
  g_assert_nonnull (strstr (a->sass_error, "nvdisasm failed"));
  g_assert_nonnull (strstr (a->sass_error, "refusing on purpose"));
  g_assert_nonnull (a->timing);
  g_assert_null (sass_member (a, &root));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "sass_error"), ==,
                   a->sass_error);
}

/* Told not to make SASS, none and no message: "sass" is null and there is
 * no "sass_error"; without a toolkit, a sample's shipped listing, and the
 * toolkit's disassembler is never run */
static void
test_no_sass (void)
{
  g_autofree char *ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autoptr(StandIn) nvdisasm = standin_new ("10_celeritas_min.sm_70.nvdisasm_lineinfo.s", FALSE);
  KsAnalysisRequest req;

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(KsAnalysis) a = NULL;
      g_autoptr(JsonNode) root = NULL;

      ks_analysis_request_init (&req);
      req.path = ptx;
      req.toolkit_dir = nvdisasm->dir;
      if (k == 0)
        req.use_toolkit = FALSE;
      else
        req.make_sass = FALSE;
      a = ks_analysis_run (&req, NULL, NULL, NULL);
      g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
      g_assert_null (a->sass_error);
      g_assert_false (g_file_test (nvdisasm->args_log, G_FILE_TEST_EXISTS));
      if (k == 0)
        {
          g_autoptr(JsonNode) json = ks_analysis_to_json (a);

          g_assert_false (json_object_has_member (json_node_get_object (json), "sass_error"));
          g_assert_cmpint (a->sass_origin, ==, KS_SASS_ORIGIN_SHIPPED);
          g_assert_cmpstr (a->sass_tool, ==, "nvdisasm");
          g_assert_nonnull (a->sass);
          continue;
        }
      g_assert_null (a->sass_tool);
      g_assert_null (a->sass);
      g_assert_null (sass_member (a, &root));
      g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (root),
                                                                   "sass_tool")));
      g_assert_false (json_object_has_member (json_node_get_object (root), "sass_error"));
      /* the stand-in was never called */
      g_assert_false (g_file_test (nvdisasm->args_log, G_FILE_TEST_EXISTS));
    }
}

/* The sampled executions of memory instructions: vector_add's load of a[i]
 * by warp 0 touches a[0..31], 4 sectors fetched from DRAM the first time;
 * the store to c[i] is a store; 32 warps ran each, 16 are kept */
static void
test_access_samples (void)
{
  g_autofree char *spec = sample ("01-vector-add", "vector_add.json");
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;
  gboolean saw_load = FALSE, saw_store = FALSE;

  ks_analysis_request_init (&req);
  req.path = spec;
  req.use_toolkit = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  for (uint32_t i = 0; i < a->module->n_insns; i++)
    {
      const KsPtxInsn *in = &a->module->insns[i];
      uint32_t n;
      const KsMemAccess *m = ks_sim_get_accesses (a->sim, i, &n);

      if (in->opcode != KS_PTX_OPC_LD && in->opcode != KS_PTX_OPC_ST)
        {
          g_assert_cmpuint (n, ==, 0);
          continue;
        }
      if (in->space == KS_PTX_SPACE_PARAM)
        continue;
      /* 1000 elements in blocks of 256: 32 warps, the last 24 lanes short */
      g_assert_cmpuint (n, ==, 16);
      g_assert_cmpuint (m[0].warp, ==, 0);
      g_assert_cmpuint (m[0].mask, ==, 0xffffffffu);
      g_assert_cmpuint (m[0].size, ==, 4);
      for (guint l = 1; l < 32; l++)
        g_assert_cmpuint (m[0].addr[l], ==, m[0].addr[0] + 4 * l);
      g_assert_cmpuint (m[0].addr[0] % 128, ==, 0);
      g_assert_cmpuint (m[0].n_levels, ==, 4);
      for (guint k = 0; k < 4; k++)
        g_assert_cmpuint (m[0].level[k], ==, in->opcode == KS_PTX_OPC_ST ? KS_MEM_LEVEL_STORE
                                                                          : KS_MEM_LEVEL_DRAM);
      saw_load |= in->opcode == KS_PTX_OPC_LD;
      saw_store |= in->opcode == KS_PTX_OPC_ST;
    }
  g_assert_true (saw_load && saw_store);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/spec", test_spec);
  g_test_add_func ("/analysis/text-with-error", test_text_with_error);
  g_test_add_func ("/analysis/edited-text-estimates", test_edited_text_estimates);
  g_test_add_func ("/analysis/fault", test_fault);
  g_test_add_func ("/analysis/cancel", test_cancel);
  g_test_add_func ("/analysis/cancel-compile", test_cancel_compile);
  g_test_add_func ("/analysis/toolchain-search-order", test_toolchain_search_order);
  g_test_add_func ("/analysis/launch-override", test_launch_override);
  g_test_add_func ("/analysis/cuda", test_cuda);
  g_test_add_func ("/analysis/access-samples", test_access_samples);
  g_test_add_func ("/analysis/sass/live-cuda", test_live_sass_cuda);
  g_test_add_func ("/analysis/sass/live-ptx", test_live_sass_ptx);
  g_test_add_func ("/analysis/sass/fails-calmly", test_live_sass_fails_calmly);
  g_test_add_func ("/analysis/sass/large-module", test_live_sass_large_module);
  g_test_add_func ("/analysis/sass/none", test_no_sass);
  g_test_add_func ("/analysis/sass/timing", test_sass_timing);
  g_test_add_func ("/analysis/sass/stretches", test_sass_stretches);
  return g_test_run ();
}
