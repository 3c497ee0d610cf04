/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-analysis.c: the pipeline from a file (or an editor's text) to
 * everything the views and `analyze` show. */

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ks-analysis.h"
#include "ks-file.h"
#include "ks-format.h"
#include "ks-sass-cubin.h"
#include "ks-sass-json.h"
#include "ks-shipped-sass.h"

#define DEFAULT_CUDA_ARCH "sm_80"

typedef struct
{
  KsAnalysis pub;
  gatomicrefcount ref;
  KsShippedSass *shipped;       /* the SASS shipped beside the kernel, or NULL */
  /* The kernel's part of the module, for ptxas -v and the SASS
   * (kernel_part); freed once both are made */
  gboolean part_made;
  char *part;
  gsize part_len;
  uint32_t part_left_out;
} Analysis;

static const char *const stage_names[KS_ANALYSIS_N_STAGES] = {
  [KS_ANALYSIS_STAGE_COMPILE] = "compile",
  [KS_ANALYSIS_STAGE_PARSE] = "parse",
  [KS_ANALYSIS_STAGE_RESOURCES] = "resources",
  [KS_ANALYSIS_STAGE_SASS] = "sass",
  [KS_ANALYSIS_STAGE_SIMULATE] = "simulate",
  [KS_ANALYSIS_STAGE_TIMING] = "timing",
  [KS_ANALYSIS_STAGE_HINTS] = "hints",
};

const char *
ks_analysis_stage_name (KsAnalysisStage stage)
{
  return stage < KS_ANALYSIS_N_STAGES ? stage_names[stage] : "";
}

void
ks_analysis_request_init (KsAnalysisRequest *request)
{
  g_return_if_fail (request != NULL);
  memset (request, 0, sizeof *request);
  request->simulate = TRUE;
  request->use_toolkit = TRUE;
  request->make_sass = TRUE;
  request->sass_timing = TRUE;
  request->scheduler = KS_SCHEDULER_GTO;
}

KsAnalysis *
ks_analysis_ref (KsAnalysis *analysis)
{
  Analysis *a = (Analysis *) analysis;

  g_return_val_if_fail (a != NULL, NULL);
  g_atomic_ref_count_inc (&a->ref);
  return analysis;
}

void
ks_analysis_unref (KsAnalysis *analysis)
{
  Analysis *a = (Analysis *) analysis;
  KsAnalysis *p = analysis;

  if (a == NULL || !g_atomic_ref_count_dec (&a->ref))
    return;
  g_free (p->error);
  for (uint32_t i = 0; i < p->n_launches; i++)
    ks_sim_launch_report_clear (&p->launches[i]);
  g_free (p->launches);
  g_clear_pointer (&p->diagnostics, g_array_unref);
  g_free (p->path);
  g_free (p->cuda_text);
  g_free (p->ptx_text);
  g_clear_pointer (&p->toolchain, ks_toolchain_free);
  g_clear_pointer (&p->hints, g_ptr_array_unref);
  g_clear_pointer (&p->timing, ks_timing_free);
  g_free (p->timing_error);
  g_clear_pointer (&p->sim, ks_sim_free);
  g_free (p->occupancy_error);
  g_clear_pointer (&p->resources, ks_kernel_resources_free);
  g_clear_pointer (&p->launch, ks_launch_free);
  g_free (p->kernel_name);
  g_clear_pointer (&p->module, ks_ptx_module_free);
  g_clear_pointer (&p->db, ks_gpu_db_free);
  g_free (p->sass_arch);
  g_free (p->sass_text);
  g_clear_pointer (&p->sass, ks_sass_listing_free);
  g_free (p->sass_error);
  g_free (p->sass_how);
  g_strfreev (p->sass_shipped_archs);
  g_clear_pointer (&a->shipped, ks_shipped_sass_free);
  g_free (a->part);
  g_free (p->sass_note);
  g_free (a);
}

typedef struct
{
  KsAnalysisProgressFunc func;
  gpointer user_data;
  KsAnalysisStage stage;
} Progress;

static void
report (Progress        *p,
        KsAnalysisStage  stage,
        double           fraction)
{
  p->stage = stage;
  if (p->func != NULL)
    p->func (stage, fraction, p->user_data);
}

static void
sim_progress (double   fraction,
              gpointer user_data)
{
  Progress *p = user_data;

  report (p, KS_ANALYSIS_STAGE_SIMULATE, fraction);
}

/* The launches of a sequence other than the one analysed: untraced, and
 * each one's report kept */
typedef struct
{
  KsAnalysis *a;
  uint32_t threads;
  const KsAnalysisRequest *request;
} Untraced;

static void
untraced_setup (KsSim    *sim,
                uint32_t  step,
                gpointer  user_data)
{
  Untraced *u = user_data;

  ks_sim_set_trace (sim, FALSE, 0);
  ks_sim_set_threads (sim, u->threads);
  if (u->request->max_seconds > 0)
    ks_sim_set_time_limit (sim, u->request->max_seconds, u->request->max_seconds_note);
}

static void
untraced_done (KsSim    *sim,
               uint32_t  step,
               gpointer  user_data)
{
  Untraced *u = user_data;

  ks_sim_launch_report_fill (&u->a->launches[step], u->a->module, u->a->launch, step, sim);
}

static KsAnalysis *
fail (KsAnalysis *a,
      char       *message)
{
  a->status = KS_ANALYSIS_FAILED;
  g_free (a->error);
  a->error = message;
  return a;
}

/* A failure of the launch: when it was read from a spec file here, its
 * checks against the kernel ("params: ...") are placed in that file as
 * the spec's own messages are.  A launch from the window's editor is not
 * the file's text, so its messages stay as they are. */
static KsAnalysis *
fail_launch (KsAnalysis *a,
             gboolean    from_file,
             GError     *error)
{
  return fail (a, from_file ? ks_launch_place_error (a->launch, error->message)
                            : g_strdup (error->message));
}

static void
add_diagnostic (KsAnalysis          *a,
                const char          *file,
                uint32_t             line,
                uint32_t             column,
                KsDiagnosticSeverity severity,
                const char          *message)
{
  KsDiagnostic d = { g_strdup (file), line, column, severity, g_strdup (message) };

  g_array_append_val (a->diagnostics, d);
}

static KsAnalysisInputKind
input_kind (const KsAnalysisRequest *r)
{
  if (r->kind != KS_ANALYSIS_INPUT_AUTO)
    return r->kind;
  if (r->path != NULL && g_str_has_suffix (r->path, ".json"))
    return KS_ANALYSIS_INPUT_SPEC;
  if (r->path != NULL && (g_str_has_suffix (r->path, ".cu") || g_str_has_suffix (r->path, ".cuh")))
    return KS_ANALYSIS_INPUT_CUDA;
  return KS_ANALYSIS_INPUT_PTX;
}

/* -1: none with that name, -2: several entries and no name */
static int32_t
find_kernel (const KsPtxModule *m,
             const char        *name)
{
  int32_t found = -1;

  for (uint32_t i = 0; i < m->n_functions; i++)
    {
      const KsPtxFunction *f = &m->functions[i];

      if (f->kind != KS_PTX_FUNCTION_ENTRY || !(f->flags & KS_PTX_FUNCTION_HAS_BODY))
        continue;
      if (name != NULL)
        {
          if (ks_ptx_span_equal (m, f->name, name))
            return (int32_t) i;
        }
      else if (found >= 0)
        return -2;
      else
        found = (int32_t) i;
    }
  return found;
}

static gboolean
choose_gpu (KsAnalysis              *a,
            const KsAnalysisRequest *r,
            const char              *target)
{
  g_autoptr(GError) error = NULL;

  a->db = ks_gpu_db_load_default (&error);
  if (a->db == NULL)
    {
      fail (a, g_strdup (error->message));
      return FALSE;
    }
  if (r->gpu != NULL)
    {
      a->gpu = ks_gpu_db_get_gpu (a->db, r->gpu);
      if (a->gpu == NULL)
        {
          fail (a, g_strdup_printf (_("unknown GPU “%s” (the GPU database lists them)"), r->gpu));
          return FALSE;
        }
      a->arch = ks_gpu_db_get_arch (a->db, a->gpu->arch);
    }
  else
    {
      const char *id = r->arch ? r->arch : target ? target : DEFAULT_CUDA_ARCH;
      g_autofree char *plain = g_strdup (id);
      size_t n = strlen (plain);

      /* sm_90a is an sm_90 */
      if (n > 3 && (plain[n - 1] == 'a' || plain[n - 1] == 'f') && g_ascii_isdigit (plain[n - 2]))
        plain[n - 1] = '\0';
      a->arch = ks_gpu_db_get_arch (a->db, plain);
      if (a->arch == NULL && r->arch == NULL)
        a->arch = ks_gpu_db_get_arch (a->db, DEFAULT_CUDA_ARCH);
      if (a->arch == NULL)
        {
          fail (a, g_strdup_printf (_("no architecture %s in the GPU database"), id));
          return FALSE;
        }
      a->gpu = ks_gpu_db_representative_gpu (a->db, a->arch);
    }
  if (a->arch == NULL)
    {
      fail (a, g_strdup_printf (_("GPU %s names an architecture the database lacks"), a->gpu->id));
      return FALSE;
    }
  return TRUE;
}

/* The CUDA -> PTX step, or reading the PTX */
static gboolean
get_ptx (KsAnalysis              *a,
         const KsAnalysisRequest *r,
         KsAnalysisInputKind      kind,
         const char              *source_path,
         const char              *ptx_path,
         GCancellable            *cancellable)
{
  g_autoptr(GError) error = NULL;

  if (kind == KS_ANALYSIS_INPUT_CUDA)
    {
      const char *arch = r->gpu ? a->arch->id : r->arch ? r->arch : DEFAULT_CUDA_ARCH;

      if (r->text != NULL)
        a->cuda_text = g_strdup (r->text);
      else if (!ks_file_get_contents (source_path, &a->cuda_text, NULL, &error))
        {
          fail (a, g_strdup (error->message));
          return FALSE;
        }
      if (!r->use_toolkit || ks_toolchain_get_path (a->toolchain, KS_TOOL_NVCC) == NULL)
        {
          fail (a, g_strdup_printf (_("%s: compiling CUDA needs nvcc, which was not found: "
                                      "install the CUDA toolkit, or open the PTX (nvcc -ptx "
                                      "-lineinfo)"), source_path));
          return FALSE;
        }
      a->ptx_text = ks_toolchain_compile_ptx (a->toolchain, source_path, a->cuda_text, arch,
                                              a->diagnostics, cancellable, &error);
      if (a->ptx_text == NULL)
        {
          fail (a, g_strdup (error->message));
          return FALSE;
        }
      return TRUE;
    }

  if (r->text != NULL && kind == KS_ANALYSIS_INPUT_PTX)
    a->ptx_text = g_strdup (r->text);
  else if (!ks_file_get_contents (ptx_path, &a->ptx_text, NULL, &error))
    {
      fail (a, g_strdup (error->message));
      return FALSE;
    }
  return TRUE;
}

/* The kernel's resources from a `ptxas -v` report file, when the report is
 * for this kernel and architecture; the note says where they came from */
static KsKernelResources *
report_resources (KsAnalysis *a,
                  const char *report,
                  const char *note_place,
                  const char *note)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) all = NULL;
  const KsKernelResources *found;
  gsize len;

  if (!g_file_get_contents (report, &text, &len, NULL))
    return NULL;
  all = ks_resources_parse_ptxas (text, len, NULL);
  found = all ? ks_resources_find (all, a->kernel_name, NULL) : NULL;
  if (found == NULL || found->arch == NULL || !g_str_equal (found->arch, a->arch->id))
    return NULL;
  add_diagnostic (a, note_place, 0, 0, KS_DIAGNOSTIC_NOTE, note);
  return ks_kernel_resources_copy (found);
}

/* The module's text with only the kernel and what it may call
 * (ks_ptx_module_text_for_function): ptxas takes minutes over a module of
 * thousands of kernels, and reports this one the same.  Made once, for
 * the resources and the SASS; NULL when the module cannot be cut or there
 * is nothing to leave out. */
static const char *
kernel_part (KsAnalysis *a,
             gsize      *len,
             uint32_t   *left_out)
{
  Analysis *obj = (Analysis *) a;

  if (!obj->part_made)
    {
      obj->part = ks_ptx_module_text_for_function (a->module, (uint32_t) a->kernel_index,
                                                   &obj->part_len, &obj->part_left_out);
      obj->part_made = TRUE;
    }
  if (len != NULL)
    *len = obj->part_len;
  if (left_out != NULL)
    *left_out = obj->part_left_out;
  return obj->part;
}

/* A `ptxas -v` report kept beside a PTX file (NAME.ptxas.txt, as the
 * samples have), for the analysis without a toolkit */
static KsKernelResources *
report_beside (KsAnalysis *a,
               const char *ptx_path)
{
  g_autofree char *stem = NULL, *report = NULL, *msg = NULL;

  if (ptx_path == NULL || !g_str_has_suffix (ptx_path, ".ptx"))
    return NULL;
  stem = g_strndup (ptx_path, strlen (ptx_path) - 4);
  report = g_strconcat (stem, ".ptxas.txt", NULL);
  msg = g_strdup_printf (_("resources from the ptxas report %s"), report);
  return report_resources (a, report, ptx_path, msg);
}

/* The ptxas -v report of the SASS that ships for this architecture (it is
 * the code of the same CUDA, compiled by the toolkit named in its index) */
static KsKernelResources *
shipped_report (KsAnalysis *a)
{
  const KsShippedSass *shipped = ((Analysis *) a)->shipped;
  g_autofree char *msg = NULL;

  if (shipped == NULL || shipped->status != KS_SHIPPED_SASS_FOUND || shipped->report_path == NULL)
    return NULL;
  /* TRANSLATORS: %s is a file; %s a toolkit, "CUDA 11.8.89" */
  msg = g_strdup_printf (_("resources from the ptxas report %s, which ships with the kernel (%s)"),
                         shipped->report_path, shipped->toolkit ? shipped->toolkit : "?");
  return report_resources (a, shipped->report_path, shipped->report_path, msg);
}

static void
get_resources (KsAnalysis              *a,
               const KsAnalysisRequest *r,
               const char              *ptx_name,
               const char              *ptx_path,
               GCancellable            *cancellable)
{
  if (r->use_toolkit && ks_toolchain_get_path (a->toolchain, KS_TOOL_PTXAS) != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *tmpdir = g_dir_make_tmp ("kernelscope-ptx-XXXXXX", NULL);
      g_autofree char *tmp = tmpdir ? g_build_filename (tmpdir, "kernel.ptx", NULL) : NULL;
      g_autoptr(GPtrArray) all = NULL;
      gsize part_len = 0;
      const char *part = kernel_part (a, &part_len, NULL);

      if (tmp != NULL
          && g_file_set_contents (tmp, part ? part : a->ptx_text, part ? (gssize) part_len : -1,
                                  &error))
        all = ks_toolchain_ptxas_resources (a->toolchain, tmp, a->arch->id, cancellable, &error);
      /* what ptxas refuses in the part it says of the whole module too,
       * unless the part lacks something; then the whole module speaks */
      if (all == NULL && part != NULL && !g_cancellable_is_cancelled (cancellable))
        {
          g_clear_error (&error);
          if (g_file_set_contents (tmp, a->ptx_text, -1, &error))
            all = ks_toolchain_ptxas_resources (a->toolchain, tmp, a->arch->id, cancellable,
                                                &error);
        }
      if (all != NULL)
        {
          const KsKernelResources *found = ks_resources_find (all, a->kernel_name, NULL);

          if (found != NULL)
            a->resources = ks_kernel_resources_copy (found);
        }
      if (a->resources == NULL)
        {
          g_autofree char *msg =
            g_strdup_printf (_("ptxas could not give the resources (%s); they are estimated from "
                               "the PTX"), error ? error->message : _("kernel not in its report"));

          add_diagnostic (a, ptx_name, 0, 0, KS_DIAGNOSTIC_NOTE, msg);
        }
      if (tmp != NULL)
        g_unlink (tmp);
      if (tmpdir != NULL)
        g_rmdir (tmpdir);
    }
  /* the report of the SASS shipped for this architecture, which the SASS
   * pane shows: its registers are those of that code */
  if (a->resources == NULL)
    a->resources = shipped_report (a);
  /* else the PTX as it is on disk may have its ptxas report beside it */
  if (a->resources == NULL && r->text == NULL)
    a->resources = report_beside (a, ptx_path);
  if (a->resources == NULL)
    a->resources = ks_resources_estimate (a->module, (uint32_t) a->kernel_index);
}

static void
get_occupancy (KsAnalysis *a)
{
  g_autoptr(GError) error = NULL;
  KsOccupancyInput in;

  ks_occupancy_input_init (&in);
  in.block_size = a->launch->block[0] * a->launch->block[1] * a->launch->block[2];
  in.registers_per_thread = a->resources->registers;
  in.static_shared_bytes = a->resources->shared_static_bytes;
  in.dynamic_shared_bytes = a->launch->dynamic_shared_bytes;
  in.barriers = a->resources->barriers;
  /* A launch spec cannot say whether the program set
   * cudaFuncAttributeMaxDynamicSharedMemorySize, and a block above 48 KiB
   * runs only with it, so it is taken as set; the result's shared_opt_in
   * says that it was needed, and every summary says so. */
  in.shared_opt_in_set = TRUE;
  a->have_occupancy = ks_occupancy_compute (a->arch, &in, &a->occupancy, &error);
  if (!a->have_occupancy)
    a->occupancy_error = g_strdup (error->message);
  else if (a->launch->cooperative && a->gpu != NULL && a->gpu->sm_count > 0)
    {
      /* every block of a cooperative launch is resident at once */
      uint64_t blocks = (uint64_t) a->launch->grid[0] * a->launch->grid[1] * a->launch->grid[2];
      uint64_t most = (uint64_t) a->occupancy.active_blocks_per_sm * a->gpu->sm_count;

      if (blocks > most)
        a->occupancy_error = g_strdup_printf (_("a cooperative launch of %" G_GUINT64_FORMAT
                                                " blocks, and the %s holds %" G_GUINT64_FORMAT
                                                " at once (%u on each of its %u SMs): on the "
                                                "GPU it fails with "
                                                "cudaErrorCooperativeLaunchTooLarge"),
                                              blocks, a->gpu->name, most,
                                              a->occupancy.active_blocks_per_sm,
                                              a->gpu->sm_count);
    }
}

/* The architecture to make SASS for: the GPU's, with the 'a' or 'f'
 * suffix of the request or the PTX target when the number is the same
 * (sm_90a PTX, with wgmma, assembles for sm_90a only) */
static char *
sass_arch_for (const KsAnalysis        *a,
               const KsAnalysisRequest *r,
               const char              *target)
{
  const char *id = a->arch->id;
  const char *candidates[] = { r->arch, target };
  size_t n = strlen (id);

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      const char *c = candidates[i];

      if (c != NULL && strlen (c) == n + 1 && strncmp (c, id, n) == 0
          && (c[n] == 'a' || c[n] == 'f'))
        return g_strdup (c);
    }
  return g_strdup (id);
}

/* The listing shipped for this architecture, when there is one for the
 * text analysed; whatever is wrong with it is a message */
static gboolean
use_shipped_sass (KsAnalysis *a)
{
  const KsShippedSass *shipped = ((Analysis *) a)->shipped;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  KsSassListing *listing;
  gsize len;

  if (shipped == NULL)
    return FALSE;
  if (shipped->status == KS_SHIPPED_SASS_NO_ARCH)
    {
      a->sass_shipped_archs = g_strdupv (shipped->archs);
      return FALSE;
    }
  if (shipped->status != KS_SHIPPED_SASS_FOUND)
    return FALSE;
  if (!g_file_get_contents (shipped->listing_path, &text, &len, &error))
    {
      add_diagnostic (a, shipped->listing_path, 0, 0, KS_DIAGNOSTIC_WARNING, error->message);
      return FALSE;
    }
  listing = ks_sass_parse (text, len, shipped->listing_path, &error);
  if (listing == NULL)
    {
      add_diagnostic (a, shipped->listing_path, 0, 0, KS_DIAGNOSTIC_WARNING, error->message);
      return FALSE;
    }
  ks_sass_listing_set_arch (listing, a->arch->id);
  g_clear_pointer (&a->sass_text, g_free);
  g_clear_pointer (&a->sass, ks_sass_listing_free);
  g_clear_pointer (&a->sass_error, g_free);
  g_clear_pointer (&a->sass_note, g_free);
  g_free (a->sass_arch);
  a->sass_arch = g_strdup (a->arch->id);
  a->sass_text = g_steal_pointer (&text);
  a->sass = listing;
  a->sass_tool = "nvdisasm";
  a->sass_origin = KS_SASS_ORIGIN_SHIPPED;
  g_free (a->sass_how);
  /* TRANSLATORS: %s: a toolkit ("CUDA 11.8.89"), the commands with ARCH
   * standing for the architecture, and the architecture ("sm_86") */
  a->sass_how = g_strdup_printf (_("The listing that ships with this kernel, made by %s with “%s” "
                                   "and “%s” for %s"),
                                 shipped->toolkit ? shipped->toolkit : _("a CUDA toolkit"),
                                 shipped->compile ? shipped->compile : "nvcc -cubin -lineinfo",
                                 shipped->disassemble ? shipped->disassemble : "nvdisasm -c -g -hex",
                                 a->arch->id);
  return TRUE;
}

/* PTX larger than this (about 40,000 instructions) has its SASS made for
 * the analysed kernel only: ptxas and nvdisasm take minutes over a module
 * of thousands of kernels */
#define SASS_WHOLE_MODULE_BYTES (4u << 20)

/* Without a disassembler but with ptxas, and no listing shipped: the PTX
 * assembled into a cubin, its opcodes read from the words (sm_70 to
 * sm_90, ks-sass-decode.c).  Quiet when it cannot: there is then no SASS,
 * as before. */
static void
decoded_sass (KsAnalysis              *a,
              const KsAnalysisRequest *r,
              const char              *target,
              GCancellable            *cancellable)
{
  g_autofree char *arch = sass_arch_for (a, r, target), *bytes = NULL, *version = NULL;
  g_autoptr(GError) error = NULL;
  KsSassListing *l;
  guint sm = ks_sass_arch_number (arch);
  gsize len = 0;

  if (a->toolchain == NULL || a->ptx_text == NULL || sm < 70 || sm > 90
      || ks_toolchain_get_path (a->toolchain, KS_TOOL_PTXAS) == NULL)
    return;
  bytes = ks_toolchain_assemble (a->toolchain, a->ptx_text, arch, &version, &len, cancellable,
                                 &error);
  if (bytes == NULL)
    return;
  l = ks_sass_cubin_read ((const guint8 *) bytes, len, "kernel.cubin", &error);
  if (l == NULL)
    return;
  ks_sass_cubin_set_note (l, "no disassembler here");
  a->sass = l;
  a->sass_text = g_strdup (ks_sass_cubin_text (l));
  a->sass_tool = "ptxas";
  a->sass_arch = g_steal_pointer (&arch);
  a->sass_origin = KS_SASS_ORIGIN_TOOLKIT;
  a->sass_how = g_strdup_printf (_("Assembled by ptxas %s (-arch=%s); with no disassembler here, "
                                   "the opcodes, predicates and control codes are read from the "
                                   "instruction words: no modifiers or operands"),
                                 version, a->sass_arch);
}

/* SASS of what was analysed: made now when a disassembler is there, else
 * (or when making it failed) the listing shipped for this architecture,
 * else one read from ptxas's cubin (decoded_sass());
 * whatever goes wrong is a message, never a failed analysis */
static void
get_sass (KsAnalysis              *a,
          const KsAnalysisRequest *r,
          Progress                *prog,
          gboolean                 cuda,
          const char              *source_path,
          const char              *target,
          GCancellable            *cancellable)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  const char *part = NULL;
  uint32_t left_out = 0;
  KsTool tool;

  if (!r->make_sass)
    return;
  tool = r->use_toolkit ? ks_toolchain_sass_tool (a->toolchain) : KS_N_TOOLS;
  if (tool == KS_N_TOOLS)
    {
      if (!use_shipped_sass (a) && r->use_toolkit && a->sass_shipped_archs == NULL)
        decoded_sass (a, r, target, cancellable);
      return;
    }
  /* (a stage only when there is something to do) */
  report (prog, KS_ANALYSIS_STAGE_SASS, 0);
  a->sass_tool = ks_tool_name (tool);
  a->sass_arch = sass_arch_for (a, r, target);
  /* A large module is assembled and disassembled for the kernel and what
   * it calls only (ks_ptx_module_text_for_function: the lines keep their
   * numbers, so the PTX and SASS panes stay linked) */
  if (!cuda && a->module->text_len > SASS_WHOLE_MODULE_BYTES
      && (part = kernel_part (a, NULL, &left_out)) != NULL)
    {
      g_autofree char *msg =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "the SASS is made for %s and what it calls: %u other "
                                      "kernel or function of this large module is left out",
                                      "the SASS is made for %s and what it calls: %u other "
                                      "kernels and functions of this large module are left out",
                                      left_out),
                         a->kernel_name, left_out);

      add_diagnostic (a, a->path, 0, 0, KS_DIAGNOSTIC_NOTE, msg);
    }
  a->sass_text = ks_toolchain_make_sass (a->toolchain, cuda ? source_path : NULL,
                                         cuda ? a->cuda_text : part ? part : a->ptx_text, cuda,
                                         a->sass_arch, &tool, &a->sass_note, cancellable, &error);
  if (a->sass_text == NULL)
    {
      a->sass_error = g_strdup (error->message);
      /* the toolkit could not make it (a PTX newer than its ptxas, say):
       * the shipped listing still shows, and the reason is a note */
      if (!g_cancellable_is_cancelled (cancellable) && use_shipped_sass (a))
        {
          g_autofree char *msg = g_strdup_printf (_("the toolkit made no SASS (%s); the listing "
                                                    "that ships with the kernel is shown"),
                                                  error->message);

          add_diagnostic (a, a->path, 0, 0, KS_DIAGNOSTIC_NOTE, msg);
        }
      return;
    }
  a->sass_origin = KS_SASS_ORIGIN_TOOLKIT;
  a->sass_how = g_strdup_printf (_("Made for this kernel by “%s -lineinfo -arch=%s” and “%s”"),
                                 cuda ? "nvcc -cubin" : "ptxas", a->sass_arch,
                                 tool == KS_TOOL_NVDISASM ? "nvdisasm -c -g -hex"
                                 : "cuobjdump -sass");
  name = g_strdup_printf ("%s output for %s", a->sass_tool, a->sass_arch);
  a->sass = ks_sass_parse (a->sass_text, strlen (a->sass_text), name, &error);
  if (a->sass == NULL)
    a->sass_error = g_strdup_printf (_("the listing could not be read: %s"), error->message);
  else
    ks_sass_listing_set_arch (a->sass, a->sass_arch);
}

/* The analysed kernel's function in its SASS (for the SASS's architecture,
 * else any), or NULL */
static const KsSassFunction *
kernel_sass_function (const KsAnalysis *a)
{
  const KsSassFunction *fn;

  if (a->sass == NULL || a->kernel_index < 0)
    return NULL;
  fn = ks_sass_match_function (a->sass, a->kernel_name, a->sass_arch);
  return fn != NULL ? fn : ks_sass_match_function (a->sass, a->kernel_name, NULL);
}

KsAnalysis *
ks_analysis_run (const KsAnalysisRequest *r,
                 GCancellable            *cancellable,
                 KsAnalysisProgressFunc   progress,
                 gpointer                 user_data)
{
  Analysis *obj = g_new0 (Analysis, 1);
  KsAnalysis *a = &obj->pub;
  g_autoptr(KsLaunch) spec = NULL;
  gboolean launch_from_file = FALSE;
  g_autoptr(KsSim) before = NULL;       /* a sequence's launch before the one analysed */
  g_autoptr(GError) error = NULL;
  g_autofree char *source_path = NULL, *ptx_path = NULL, *target = NULL;
  const char *kernel;
  KsAnalysisInputKind kind;
  Progress prog = { progress, user_data, KS_ANALYSIS_STAGE_COMPILE };
  KsHintInput hin;

  g_return_val_if_fail (r != NULL, NULL);

  g_atomic_ref_count_init (&obj->ref);
  a->diagnostics = ks_diagnostic_array_new ();
  a->kernel_index = -1;
  a->path = g_strdup (r->path ? r->path : "untitled");
  a->toolchain = r->use_toolkit ? ks_toolchain_find (r->toolkit_dir) : g_new0 (KsToolchain, 1);
  kind = input_kind (r);
  kernel = r->kernel;

  /* What to compile or read */
  if (kind == KS_ANALYSIS_INPUT_SPEC)
    {
      spec = ks_launch_load (a->path, &error);
      if (spec == NULL)
        return fail (a, g_strdup (error->message));
      if (spec->source_path != NULL)
        {
          kind = KS_ANALYSIS_INPUT_CUDA;
          source_path = g_strdup (spec->source_path);
        }
      else
        {
          kind = KS_ANALYSIS_INPUT_PTX;
          ptx_path = g_strdup (spec->ptx_path);
        }
      if (kernel == NULL)
        kernel = spec->kernel;
      /* the editor's text is the spec's program, not the spec */
    }
  else if (kind == KS_ANALYSIS_INPUT_CUDA)
    source_path = g_strdup (a->path);
  else
    ptx_path = g_strdup (a->path);

  /* A sequence of launches: the kernel of the one analysed */
  {
    const KsLaunch *given = r->launch ? r->launch : spec;

    if (given != NULL && given->n_steps > 1)
      kernel = given->steps[MIN (r->launch_step, given->n_steps - 1)].kernel;
  }

  /* The GPU first: nvcc needs its arch */
  if (r->gpu != NULL && !choose_gpu (a, r, NULL))
    return a;

  report (&prog, KS_ANALYSIS_STAGE_COMPILE, 0);
  if (!get_ptx (a, r, kind, source_path, ptx_path, cancellable))
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          ks_analysis_unref (a);
          return NULL;
        }
      return a;
    }

  report (&prog, KS_ANALYSIS_STAGE_PARSE, 0);
  {
    const char *name = kind == KS_ANALYSIS_INPUT_CUDA ? source_path : ptx_path;
    g_autofree char *ptx_name = kind == KS_ANALYSIS_INPUT_CUDA
                                ? g_strconcat (name, " (PTX)", NULL) : g_strdup (name);

    a->module = ks_ptx_module_parse (g_bytes_new (a->ptx_text, strlen (a->ptx_text)), ptx_name);
    for (uint32_t i = 0; i < a->module->n_diagnostics; i++)
      {
        const KsPtxDiagnostic *d = &a->module->diagnostics[i];

        add_diagnostic (a, ptx_name, d->line, d->column,
                        d->severity == KS_PTX_SEVERITY_ERROR ? KS_DIAGNOSTIC_ERROR
                        : d->severity == KS_PTX_SEVERITY_WARNING ? KS_DIAGNOSTIC_WARNING
                        : KS_DIAGNOSTIC_NOTE, d->message);
      }
    if (a->module->n_errors > 0)
      return fail (a, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: the PTX has %u error",
                                                    "%s: the PTX has %u errors",
                                                    a->module->n_errors),
                                       ptx_name, a->module->n_errors));
  }

  a->kernel_index = find_kernel (a->module, kernel);
  if (a->kernel_index == -2)
    return fail (a, g_strdup_printf (_("the module has %u kernels: choose the one to analyse "
                                        "(Kernel in the launch editor, or --kernel NAME)"),
                                     ks_ptx_module_n_entries (a->module)));
  if (a->kernel_index < 0)
    {
      g_autofree char *name = ks_format_name (kernel, -1);

      return fail (a, kernel ? g_strdup_printf (_("no kernel “%s” in the module"), name)
                   : g_strdup (_("the module has no kernel (.entry)")));
    }
  a->kernel_name = ks_ptx_span_dup (a->module, a->module->functions[a->kernel_index].name);
  if (a->module->n_targets > 0)
    target = ks_ptx_span_dup (a->module, a->module->words[a->module->first_target]);
  if (a->db == NULL && !choose_gpu (a, r, target))
    return a;

  /* The launch: asked for, the spec's, or the default */
  if (r->launch != NULL || spec != NULL)
    {
      /* a private copy: the request's launch may change in the UI */
      launch_from_file = r->launch == NULL;
      a->launch = r->launch ? ks_launch_copy (r->launch) : g_steal_pointer (&spec);
    }
  else
    {
      g_autofree char *json = ks_launch_default_json (a->module, (uint32_t) a->kernel_index,
                                                      a->module->filename);

      a->launch = ks_launch_parse (json, -1, NULL, &error);
      if (a->launch == NULL)
        return fail (a, g_strdup_printf (_("the default launch does not fit this kernel: %s"),
                                         error->message));
      a->launch_is_default = TRUE;
    }

  /* A sequence: the launches before the one analysed run first, without
   * the trace, and a fault among them is the one shown */
  if (a->launch->n_steps > 1)
    {
      Untraced u = { a, MAX (r->sim_threads, 1), r };

      ks_launch_select_step (a->launch, MIN (r->launch_step, a->launch->n_steps - 1));
      a->n_launches = a->launch->n_steps;
      a->launches = g_new0 (KsSimLaunchReport, a->n_launches);
      for (uint32_t k = 0; k < a->n_launches; k++)
        ks_sim_launch_report_fill (&a->launches[k], a->module, a->launch, k, NULL);
      if (r->simulate && a->launch->step > 0)
        {
          report (&prog, KS_ANALYSIS_STAGE_SIMULATE, 0);
          before = ks_sim_run_launches (a->module, a->launch, 0, a->launch->step, NULL,
                                        untraced_setup, untraced_done, &u, cancellable, &error);
          if (before == NULL)
            return fail_launch (a, launch_from_file, error);
          if (ks_sim_get_status (before) == KS_SIM_CANCELLED)
            {
              ks_analysis_unref (a);
              return NULL;
            }
          if (ks_sim_get_status (before) == KS_SIM_FAULTED)
            {
              uint32_t k = 0;

              while (k + 1 < a->n_launches && a->launches[k + 1].run)
                k++;
              ks_launch_select_step (a->launch, k);
              a->kernel_index = find_kernel (a->module, a->launches[k].kernel);
              g_free (a->kernel_name);
              a->kernel_name = g_strdup (a->launches[k].kernel);
            }
        }
    }

  /* The SASS shipped beside the kernel, for this very text */
  {
    gboolean cuda = kind == KS_ANALYSIS_INPUT_CUDA && a->cuda_text != NULL;

    const char *text = cuda ? a->cuda_text : a->ptx_text;

    if (text != NULL)
      obj->shipped = ks_shipped_sass_find (cuda ? source_path : ptx_path, text, a->arch->id);
    if (obj->shipped != NULL && obj->shipped->error != NULL)
      add_diagnostic (a, a->path, 0, 0, KS_DIAGNOSTIC_WARNING, obj->shipped->error);
  }

  report (&prog, KS_ANALYSIS_STAGE_RESOURCES, 0);
  get_resources (a, r, a->module->filename, kind == KS_ANALYSIS_INPUT_PTX ? ptx_path : NULL,
                 cancellable);
  get_occupancy (a);
  if (g_cancellable_is_cancelled (cancellable))
    {
      ks_analysis_unref (a);
      return NULL;
    }

  get_sass (a, r, &prog, kind == KS_ANALYSIS_INPUT_CUDA && a->cuda_text != NULL, source_path,
            target, cancellable);
  g_clear_pointer (&obj->part, g_free);
  if (g_cancellable_is_cancelled (cancellable))
    {
      ks_analysis_unref (a);
      return NULL;
    }

  if (r->simulate)
    {
      KsSimStatus st;

      report (&prog, KS_ANALYSIS_STAGE_SIMULATE, 0);
      if (before != NULL && ks_sim_get_status (before) == KS_SIM_FAULTED)
        {
          /* an earlier launch faulted: it is the one shown */
          a->sim = g_steal_pointer (&before);
          a->status = KS_ANALYSIS_FAULTED;
          goto hints;
        }
      if (a->launch->n_steps > 1)
        a->sim = ks_sim_new_step (a->module, a->launch, a->launch->step, before, &error);
      else
        a->sim = ks_sim_new (a->module, a->launch, &error);
      g_clear_pointer (&before, ks_sim_free);
      if (a->sim == NULL)
        return fail_launch (a, launch_from_file, error);
      if (r->max_trace_events > 0)
        ks_sim_set_trace (a->sim, TRUE, r->max_trace_events);
      /* several threads give the results of one (ks_sim_set_threads) */
      if (r->sim_threads > 1)
        ks_sim_set_threads (a->sim, r->sim_threads);
      if (r->max_seconds > 0)
        ks_sim_set_time_limit (a->sim, r->max_seconds, r->max_seconds_note);
      if (r->sample_blocks > 0)
        {
          /* whole waves of the SM: a multiple of the blocks resident at once */
          uint64_t per = a->have_occupancy ? MAX (a->occupancy.active_blocks_per_sm, 1u) : 1;
          uint64_t n = (r->sample_blocks + per - 1) / per * per;

          ks_sim_set_block_sample (a->sim, a->gpu != NULL && a->gpu->sm_count > 0
                                           ? a->gpu->sm_count : 1, n);
        }
      {
        /* L1 is what the shared-memory carveout leaves of the unified
         * L1/shared array */
        uint32_t l1 = a->arch->l1_shared_kib * 1024;
        uint32_t shared = a->have_occupancy ? a->occupancy.carveout_kib * 1024 : 0;
        double l2 = a->gpu ? a->gpu->l2_mb * 1024 * 1024 : 40.0 * 1024 * 1024;

        l1 = l1 > shared + 16384 ? l1 - shared : 16384;
        ks_sim_set_caches (a->sim, l1, (uint32_t) MIN (l2, 1024.0 * 1024 * 1024));
      }
      ks_sim_set_progress_func (a->sim, sim_progress, &prog);
      st = ks_sim_run (a->sim, 0, cancellable);
      ks_sim_set_progress_func (a->sim, NULL, NULL);
      if (st == KS_SIM_CANCELLED)
        {
          ks_analysis_unref (a);
          return NULL;
        }
      if (st == KS_SIM_FAULTED)
        a->status = KS_ANALYSIS_FAULTED;
      if (a->n_launches > 0)
        {
          Untraced u = { a, MAX (r->sim_threads, 1), r };

          ks_sim_launch_report_fill (&a->launches[a->launch->step], a->module, a->launch,
                                     a->launch->step, a->sim);
          /* the launches after it, so that each one's figures and a later
           * fault show; they start from what it left */
          if (st == KS_SIM_DONE && a->launch->step + 1 < a->n_launches)
            {
              g_autoptr(KsSim) after = ks_sim_run_launches (a->module, a->launch,
                                                            a->launch->step + 1, a->n_launches,
                                                            a->sim, untraced_setup, untraced_done,
                                                            &u, cancellable, &error);

              if (after == NULL)
                return fail_launch (a, launch_from_file, error);
              if (ks_sim_get_status (after) == KS_SIM_CANCELLED)
                {
                  ks_analysis_unref (a);
                  return NULL;
                }
            }
        }

      if (st == KS_SIM_DONE && a->have_occupancy)
        {
          KsTimingOptions opt;

          report (&prog, KS_ANALYSIS_STAGE_TIMING, 0);
          ks_timing_options_init (&opt);
          opt.policy = r->scheduler;
          opt.ptx_as_written = r->ptx_as_written;
          opt.in_order = r->in_order;
          /* the loops the kernel's SASS for this architecture runs are timed
           * from it */
          if (r->sass_timing && g_strcmp0 (a->sass_arch, a->arch->id) == 0
              && (opt.sass_function = kernel_sass_function (a)) != NULL)
            {
              opt.sass = a->sass;
              opt.kernel = (uint32_t) a->kernel_index;
            }
          a->timing = ks_timing_compute (a->module, a->sim, a->arch, a->gpu, &a->occupancy,
                                         &opt, &error);
          if (a->timing == NULL)
            {
              a->timing_error = g_strdup (error->message);
              g_clear_error (&error);
            }
        }
      else if (st == KS_SIM_DONE)
        a->timing_error = g_strdup_printf (_("no timing: %s"), a->occupancy_error);
    }

hints:
  report (&prog, KS_ANALYSIS_STAGE_HINTS, 0);
  memset (&hin, 0, sizeof hin);
  hin.module = a->module;
  hin.sim = a->sim && ks_sim_get_status (a->sim) == KS_SIM_DONE ? a->sim : NULL;
  hin.occupancy = a->have_occupancy ? &a->occupancy : NULL;
  hin.resources = a->resources;
  hin.n_blocks = (uint64_t) a->launch->grid[0] * a->launch->grid[1] * a->launch->grid[2];
  hin.sm_count = a->gpu ? a->gpu->sm_count : 0;
  hin.timing = a->timing;
  a->hints = ks_hints_compute (&hin);
  report (&prog, KS_ANALYSIS_STAGE_HINTS, 1);
  return a;
}

/* JSON */

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_double (JsonBuilder *b,
            const char  *name,
            double       v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, v);
}

static void
add_str (JsonBuilder *b,
         const char  *name,
         const char  *v)
{
  json_builder_set_member_name (b, name);
  if (v != NULL)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
add_dim3 (JsonBuilder    *b,
          const char     *name,
          const uint32_t *v)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < 3; i++)
    json_builder_add_int_value (b, v[i]);
  json_builder_end_array (b);
}

void
ks_hints_add_json (JsonBuilder *b,
                   const char  *member,
                   GPtrArray   *hints)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; hints != NULL && i < hints->len; i++)
    {
      const KsHint *h = hints->pdata[i];

      json_builder_begin_object (b);
      add_str (b, "severity", ks_hint_severity_name (h->severity));
      add_str (b, "category", h->category);
      add_str (b, "message", h->message);
      add_str (b, "detail", h->detail);
      add_str (b, "suggestion", h->suggestion);
      add_int (b, "ptx_line", h->ptx_line);
      add_int (b, "cuda_line", h->cuda_line);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_timing (JsonBuilder    *b,
            const KsTiming *t)
{
  uint64_t total = 0;

  json_builder_begin_object (b);
  add_int (b, "cycles", (gint64) (t->sm_cycles + 0.5));
  add_int (b, "modelled_cycles", t->cycles);
  add_double (b, "waves_per_sm", t->waves_per_sm);
  add_int (b, "blocks_per_sm", t->blocks_per_sm);
  add_int (b, "ctas_modelled", (gint64) t->ctas_modelled);
  add_int (b, "ctas_per_sm", (gint64) t->ctas_per_sm);
  json_builder_set_member_name (b, "extrapolated");
  json_builder_add_boolean_value (b, t->extrapolated);
  add_double (b, "ipc", t->ipc);
  add_int (b, "issued", (gint64) t->issued);
  add_double (b, "warps_active", t->warps_active);
  add_double (b, "issue_active", t->issue_active);
  add_double (b, "dram_throughput", t->dram_throughput);
  add_int (b, "lowered", (gint64) t->lowered);
  add_int (b, "issued_ahead", (gint64) t->issued_ahead);
  /* the loops timed from the SASS (docs/TIMING.md) */
  add_int (b, "sass_issued", (gint64) t->sass_issued);
  add_int (b, "sass_loops", t->sass_loops);
  add_int (b, "sass_loops_not", t->sass_loops_not);
  add_str (b, "sass_reason", t->sass_reason);
  add_int (b, "sass_stretches", (gint64) t->sass_stretches);
  add_int (b, "sass_stretches_not", (gint64) t->sass_stretches_not);
  add_str (b, "sass_stretch_reason", t->sass_stretch_reason);
  add_double (b, "estimated_duration_us", t->estimated_duration_us);
  add_double (b, "model_us", t->model_us);
  add_double (b, "memory_floor_us", t->memory_floor_us);
  add_double (b, "compute_floor_us", t->compute_floor_us);
  add_double (b, "dram_bytes", t->dram_bytes);
  add_double (b, "flops", t->flops);
  add_double (b, "arithmetic_intensity", t->arithmetic_intensity);
  add_str (b, "bound", ks_bound_name (t->bound));
  for (guint i = 0; i < KS_N_STALLS; i++)
    total += t->stall_cycles[i];
  json_builder_set_member_name (b, "stall_breakdown");
  json_builder_begin_object (b);
  for (guint i = 0; i < KS_N_STALLS; i++)
    if (t->stall_cycles[i] > 0)
      add_double (b, ks_stall_reason_name ((KsStallReason) i),
                  total ? (double) t->stall_cycles[i] / (double) total : 0);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "pipe_utilisation");
  json_builder_begin_object (b);
  for (guint i = 0; i < KS_N_PIPES; i++)
    if (t->pipe_busy[i] > 0)
      add_double (b, ks_pipe_name ((KsPipe) i),
                  t->cycles ? (double) t->pipe_busy[i] / ((double) t->cycles * t->sub_partitions) : 0);
  json_builder_end_object (b);
  add_str (b, "note", "a model of the hardware, not a measurement (docs/TIMING.md)");
  json_builder_end_object (b);
}

JsonNode *
ks_analysis_to_json (const KsAnalysis *a)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (a != NULL, NULL);

  json_builder_begin_object (b);
  add_str (b, "status", a->status == KS_ANALYSIS_OK ? "ok"
           : a->status == KS_ANALYSIS_FAULTED ? "fault" : "error");
  if (a->error != NULL)
    add_str (b, "error", a->error);
  add_str (b, "gpu", a->gpu ? a->gpu->id : NULL);
  add_str (b, "arch", a->arch ? a->arch->id : NULL);
  add_str (b, "kernel", a->kernel_name);

  json_builder_set_member_name (b, "launch");
  if (a->launch != NULL)
    {
      json_builder_begin_object (b);
      add_dim3 (b, "grid", a->launch->grid);
      add_dim3 (b, "block", a->launch->block);
      add_int (b, "dynamic_shared_bytes", a->launch->dynamic_shared_bytes);
      json_builder_set_member_name (b, "cooperative");
      json_builder_add_boolean_value (b, a->launch->cooperative);
      json_builder_set_member_name (b, "default");
      json_builder_add_boolean_value (b, a->launch_is_default);
      if (a->n_launches > 0)
        {
          /* a sequence: which launch this is, and what each one did */
          add_int (b, "index", a->launch->step);
          json_builder_set_member_name (b, "launches");
          json_builder_begin_array (b);
          for (uint32_t k = 0; k < a->n_launches; k++)
            {
              const KsSimLaunchReport *l = &a->launches[k];

              json_builder_begin_object (b);
              add_str (b, "kernel", l->kernel);
              add_dim3 (b, "grid", l->grid);
              add_dim3 (b, "block", l->block);
              add_int (b, "dynamic_shared_bytes", l->dynamic_shared_bytes);
              /* "ok", "fault", "stopped" or "not_run" */
              add_str (b, "status", !l->run ? "not_run" : l->status == KS_SIM_DONE ? "ok"
                                    : l->status == KS_SIM_FAULTED ? "fault" : "stopped");
              if (l->run)
                {
                  add_int (b, "warp_instructions", (gint64) l->stats.warp_instructions);
                  add_int (b, "thread_instructions", (gint64) l->stats.thread_instructions);
                }
              if (l->run && l->status == KS_SIM_FAULTED)
                {
                  add_str (b, "fault", l->fault.message);
                  add_dim3 (b, "fault_block", l->fault.block);
                  add_dim3 (b, "fault_thread", l->fault.thread);
                }
              json_builder_end_object (b);
            }
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "resources");
  if (a->resources != NULL)
    {
      const KsKernelResources *res = a->resources;

      json_builder_begin_object (b);
      add_int (b, "registers", res->registers);
      add_int (b, "registers_allocated",
               a->have_occupancy ? a->occupancy.registers_per_warp / 32 : res->registers);
      add_int (b, "shared_static", res->shared_static_bytes);
      add_int (b, "spill_stores", res->spill_store_bytes);
      add_int (b, "spill_loads", res->spill_load_bytes);
      add_int (b, "barriers", res->barriers);
      add_str (b, "source", ks_resources_source_name (res->source));
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "occupancy");
  if (a->have_occupancy)
    {
      const KsOccupancyResult *o = &a->occupancy;

      json_builder_begin_object (b);
      add_int (b, "block_size", a->launch->block[0] * a->launch->block[1] * a->launch->block[2]);
      add_int (b, "active_blocks_per_sm", o->active_blocks_per_sm);
      add_int (b, "active_warps_per_sm", o->active_warps_per_sm);
      add_int (b, "max_warps_per_sm", o->max_warps_per_sm);
      add_double (b, "occupancy", o->occupancy);
      add_str (b, "limiter", ks_occupancy_limiter_name (o->limiter));
      json_builder_set_member_name (b, "shared_opt_in");
      json_builder_add_boolean_value (b, o->shared_opt_in);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  if (a->occupancy_error != NULL)
    add_str (b, "occupancy_error", a->occupancy_error);

  json_builder_set_member_name (b, "simulation");
  if (a->sim != NULL)
    {
      const KsSimStats *st = ks_sim_get_stats (a->sim);
      const KsSimFault *f = ks_sim_get_fault (a->sim);

      json_builder_begin_object (b);
      add_str (b, "status", f ? "fault" : "ok");
      if (f != NULL)
        {
          add_str (b, "fault", f->message);
          add_str (b, "kind", ks_sim_fault_kind_name (f->kind));
          add_int (b, "ptx_line", f->ptx_line);
          add_int (b, "cuda_line", f->cuda_line);
          add_dim3 (b, "block", f->block);
          add_dim3 (b, "thread", f->thread);
        }
      add_int (b, "warp_instructions", (gint64) st->warp_instructions);
      add_int (b, "thread_instructions", (gint64) st->thread_instructions);
      add_int (b, "divergent_branches", (gint64) st->divergent_branches);
      add_int (b, "barriers", (gint64) st->barriers);
      /* 0: every block ran; else the buffers hold those blocks' writes only */
      add_int (b, "sampled_blocks", (gint64) st->sampled_blocks);
      add_double (b, "seconds", st->seconds);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "timing");
  if (a->timing != NULL)
    add_timing (b, a->timing);
  else
    json_builder_add_null_value (b);
  if (a->timing_error != NULL)
    add_str (b, "timing_error", a->timing_error);

  ks_hints_add_json (b, "hints", a->hints);

  /* The sass command's object, or null without a disassembler (or when it
   * failed: sass_error says why) */
  json_builder_set_member_name (b, "sass");
  if (a->sass != NULL)
    {
      g_autoptr(GPtrArray) res = g_ptr_array_new ();

      if (a->resources != NULL)
        g_ptr_array_add (res, a->resources);
      json_builder_begin_object (b);
      ks_sass_listing_add_json (b, a->sass, res);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  add_str (b, "sass_tool", a->sass_tool);
  if (a->sass_arch != NULL)
    add_str (b, "sass_arch", a->sass_arch);
  if (a->sass_error != NULL)
    add_str (b, "sass_error", a->sass_error);
  /* "toolkit": made for this run; "shipped": the listing beside the kernel */
  if (a->sass_origin != KS_SASS_ORIGIN_NONE)
    add_str (b, "sass_origin", a->sass_origin == KS_SASS_ORIGIN_SHIPPED ? "shipped" : "toolkit");
  if (a->sass_how != NULL)
    add_str (b, "sass_how", a->sass_how);
  if (a->sass_shipped_archs != NULL)
    {
      json_builder_set_member_name (b, "sass_shipped_archs");
      json_builder_begin_array (b);
      for (guint i = 0; a->sass_shipped_archs[i] != NULL; i++)
        json_builder_add_string_value (b, a->sass_shipped_archs[i]);
      json_builder_end_array (b);
    }
  if (a->sass_note != NULL)
    add_str (b, "sass_note", a->sass_note);
  /* The kernel's SASS loops and the PTX loops they run */
  if (a->module != NULL)
    {
      const KsSassFunction *fn = kernel_sass_function (a);

      if (fn != NULL)
        {
          json_builder_set_member_name (b, "sass_kernel");
          json_builder_begin_object (b);
          add_str (b, "name", fn->name);
          ks_sass_loops_add_json (b, a->sass, fn, a->module, (uint32_t) a->kernel_index);
          json_builder_end_object (b);
        }
    }

  json_builder_set_member_name (b, "diagnostics");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->diagnostics->len; i++)
    {
      const KsDiagnostic *d = &g_array_index (a->diagnostics, KsDiagnostic, i);

      json_builder_begin_object (b);
      add_str (b, "file", d->file);
      add_int (b, "line", d->line);
      add_int (b, "column", d->column);
      add_str (b, "severity", d->severity == KS_DIAGNOSTIC_ERROR ? "error"
               : d->severity == KS_DIAGNOSTIC_WARNING ? "warning" : "note");
      add_str (b, "message", d->message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
