/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-analyze.c: `kernelscope-cli analyze`, the pipeline in one command.
 *
 * A launch spec runs everything: parse, resources (ptxas -v when the
 * toolkit is there, else the estimate from the PTX), occupancy on the
 * chosen GPU, simulation and hints.  A PTX file alone gets the static part
 * only: resources, occupancy for the block size the kernel declares
 * (.reqntid or .maxntid, else 256), and the hints those allow.  The timing
 * model is not written yet: "timing" is null. */

#include "ks-cli-analyze.h"
#include "ks-cli.h"

#include <stdio.h>
#include <string.h>

#include "ks-gpu-db.h"
#include "ks-hints.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-resources.h"
#include "ks-sim.h"
#include "ks-toolchain.h"

#define DEFAULT_BLOCK_SIZE 256

static int
fail (gboolean    json,
      int         status,
      const char *message)
{
  return ks_cli_fail ("analyze", json, status, message);
}

/* The kernel: the one named, or the module's only one */
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
      if (name != NULL ? ks_ptx_span_equal (m, f->name, name) : found < 0)
        found = (int32_t) i;
      else if (name == NULL)
        return -2;              /* several: the caller must name one */
    }
  return found;
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_str (JsonBuilder *b,
         const char  *name,
         const char  *v)
{
  json_builder_set_member_name (b, name);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

int
ks_cli_analyze (int    argc,
                char **argv)
{
  gboolean json = FALSE;
  g_autofree char *arch_opt = NULL, *gpu_opt = NULL, *kernel_opt = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the analysis as one JSON object", NULL },
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_opt, "Analyse for this architecture", "sm_XX" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_opt, "Analyse for this GPU (see data/gpus.json)", "ID" },
    { "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_opt, "The kernel of a PTX file with several", "NAME" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("SPEC.json|FILE.ptx - resources, occupancy, simulation and hints");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(KsPtxModule) module = NULL;
  g_autoptr(KsGpuDb) db = NULL;
  g_autoptr(KsToolchain) tc = NULL;
  g_autoptr(KsKernelResources) res = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(GPtrArray) hints = NULL;
  g_autoptr(JsonBuilder) b = NULL;
  g_autoptr(JsonNode) root = NULL;
  const KsArchInfo *arch = NULL;
  const KsGpuInfo *gpu = NULL;
  const char *ptx_path, *kernel_name;
  g_autofree char *name = NULL, *arch_id = NULL;
  KsOccupancyInput oin;
  KsOccupancyResult occ;
  gboolean have_occ;
  int32_t ki;
  uint64_t n_blocks = 0;
  uint32_t block_size = DEFAULT_BLOCK_SIZE;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 2)
    return fail (json, KS_CLI_EXIT_USAGE, "expected one launch spec or PTX file");
  if (arch_opt && gpu_opt)
    return fail (json, KS_CLI_EXIT_USAGE, "give --arch or --gpu, not both");

  if (g_str_has_suffix (argv[1], ".json"))
    {
      launch = ks_launch_load (argv[1], &error);
      if (launch == NULL)
        return fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
      if (launch->ptx_path == NULL)
        return fail (json, KS_CLI_EXIT_BAD_INPUT,
                     "compiling a \"source\" needs the CUDA toolchain support, which this version "
                     "does not have yet: give the launch a \"ptx\" file");
      ptx_path = launch->ptx_path;
      kernel_name = launch->kernel ? launch->kernel : kernel_opt;
    }
  else if (g_str_has_suffix (argv[1], ".cu"))
    return fail (json, KS_CLI_EXIT_BAD_INPUT,
                 "compiling CUDA is not supported by this version yet: compile it with "
                 "nvcc -ptx -lineinfo and analyse the PTX");
  else
    {
      ptx_path = argv[1];
      kernel_name = kernel_opt;
    }

  module = ks_ptx_module_parse_file (ptx_path, &error);
  if (module == NULL)
    return fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  for (uint32_t i = 0; i < module->n_diagnostics; i++)
    g_printerr ("%s:%u:%u: %s: %s\n", ptx_path, module->diagnostics[i].line,
                module->diagnostics[i].column,
                module->diagnostics[i].severity == KS_PTX_SEVERITY_ERROR ? "error" : "warning",
                module->diagnostics[i].message);
  if (module->n_errors > 0)
    return fail (json, KS_CLI_EXIT_BAD_INPUT, "the PTX has errors");
  ki = find_kernel (module, kernel_name);
  if (ki == -2)
    return fail (json, KS_CLI_EXIT_USAGE, "the module has several kernels: name one with --kernel");
  if (ki < 0)
    return fail (json, KS_CLI_EXIT_BAD_INPUT, "no such kernel in the module");
  name = ks_ptx_span_dup (module, module->functions[ki].name);

  /* The GPU: asked for, or the representative one of the PTX's target */
  db = ks_gpu_db_load_default (&error);
  if (db == NULL)
    return fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
  if (gpu_opt)
    {
      gpu = ks_gpu_db_get_gpu (db, gpu_opt);
      if (gpu == NULL)
        return fail (json, KS_CLI_EXIT_USAGE, "unknown GPU (see data/gpus.json)");
      arch = ks_gpu_db_get_arch (db, gpu->arch);
    }
  else
    {
      arch_id = arch_opt ? g_strdup (arch_opt)
                : module->n_targets ? ks_ptx_span_dup (module, module->words[module->first_target])
                : g_strdup ("sm_80");
      arch = ks_gpu_db_get_arch (db, arch_id);
      if (arch == NULL)
        {
          g_autofree char *msg = g_strdup_printf ("no architecture %s in the GPU database", arch_id);

          return fail (json, KS_CLI_EXIT_USAGE, msg);
        }
      gpu = ks_gpu_db_representative_gpu (db, arch);
    }

  /* Resources: ptxas when it is there, else the estimate */
  tc = ks_toolchain_find (NULL);
  if (ks_toolchain_get_path (tc, KS_TOOL_PTXAS) != NULL)
    {
      g_autoptr(GPtrArray) all = ks_toolchain_ptxas_resources (tc, ptx_path, arch->id, NULL, &error);
      const KsKernelResources *found = all ? ks_resources_find (all, name, NULL) : NULL;

      if (found != NULL)
        res = ks_kernel_resources_copy (found);
      else
        {
          g_printerr ("kernelscope-cli analyze: ptxas could not give the resources (%s); "
                      "estimating them from the PTX\n", error ? error->message : "kernel not found");
          g_clear_error (&error);
        }
    }
  if (res == NULL)
    res = ks_resources_estimate (module, (uint32_t) ki);

  if (launch != NULL)
    {
      block_size = launch->block[0] * launch->block[1] * launch->block[2];
      n_blocks = (uint64_t) launch->grid[0] * launch->grid[1] * launch->grid[2];
    }
  else
    {
      const KsPtxFunction *f = &module->functions[ki];
      const uint32_t *d = f->reqntid[0] ? f->reqntid : f->maxntid[0] ? f->maxntid : NULL;

      if (d != NULL)
        block_size = d[0] * MAX (d[1], 1) * MAX (d[2], 1);
    }
  ks_occupancy_input_init (&oin);
  oin.block_size = block_size;
  oin.registers_per_thread = res->registers;
  oin.static_shared_bytes = res->shared_static_bytes;
  oin.dynamic_shared_bytes = launch ? launch->dynamic_shared_bytes : 0;
  oin.barriers = res->barriers;
  have_occ = ks_occupancy_compute (arch, &oin, &occ, &error);
  if (!have_occ)
    {
      g_printerr ("kernelscope-cli analyze: %s\n", error->message);
      g_clear_error (&error);
    }

  if (launch != NULL)
    {
      sim = ks_sim_new (module, launch, &error);
      if (sim == NULL)
        return fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);
      ks_sim_run (sim, 0, NULL);
    }

  {
    KsHintInput hin = { module, sim, have_occ ? &occ : NULL, res, n_blocks,
                        gpu ? gpu->sm_count : 0 };

    hints = ks_hints_compute (&hin);
  }

  if (!json)
    {
      g_print ("%s on %s (%s)\n", name, gpu ? gpu->name : arch->id, arch->id);
      g_print ("  resources (%s): %u registers, %u bytes of shared memory, %u spilled\n",
               ks_resources_source_name (res->source), res->registers, res->shared_static_bytes,
               res->spill_store_bytes);
      if (have_occ)
        g_print ("  occupancy: %u threads a block, %u blocks and %u of %u warps per SM (%.0f %%), "
                 "limited by %s\n", block_size, occ.active_blocks_per_sm, occ.active_warps_per_sm,
                 occ.max_warps_per_sm, occ.occupancy * 100, ks_occupancy_limiter_name (occ.limiter));
      if (sim != NULL)
        g_print ("  simulation: %s, %" G_GUINT64_FORMAT " warp-instructions\n",
                 ks_sim_get_fault (sim) ? ks_sim_get_fault (sim)->message : "done",
                 ks_sim_get_stats (sim)->warp_instructions);
      for (guint i = 0; i < hints->len; i++)
        {
          const KsHint *h = hints->pdata[i];

          if (h->ptx_line)
            g_print ("  %s: PTX line %u: %s\n    %s\n", ks_hint_severity_name (h->severity),
                     h->ptx_line, h->message, h->suggestion);
          else
            g_print ("  %s: %s\n    %s\n", ks_hint_severity_name (h->severity), h->message,
                     h->suggestion);
        }
      return sim && ks_sim_get_fault (sim) ? KS_CLI_EXIT_FAULT : KS_CLI_EXIT_OK;
    }

  b = json_builder_new ();
  json_builder_begin_object (b);
  add_str (b, "gpu", gpu ? gpu->id : NULL);
  add_str (b, "arch", arch->id);
  add_str (b, "kernel", name);

  json_builder_set_member_name (b, "launch");
  if (launch != NULL)
    {
      json_builder_begin_object (b);
      ks_cli_add_dim3 (b, "grid", launch->grid);
      ks_cli_add_dim3 (b, "block", launch->block);
      add_int (b, "dynamic_shared_bytes", launch->dynamic_shared_bytes);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "resources");
  json_builder_begin_object (b);
  add_int (b, "registers", res->registers);
  add_int (b, "registers_allocated", have_occ ? occ.registers_per_warp / 32 : res->registers);
  add_int (b, "shared_static", res->shared_static_bytes);
  add_int (b, "spill_stores", res->spill_store_bytes);
  add_int (b, "spill_loads", res->spill_load_bytes);
  add_int (b, "barriers", res->barriers);
  add_str (b, "source", ks_resources_source_name (res->source));
  json_builder_end_object (b);

  json_builder_set_member_name (b, "occupancy");
  if (have_occ)
    {
      json_builder_begin_object (b);
      add_int (b, "block_size", block_size);
      add_int (b, "active_blocks_per_sm", occ.active_blocks_per_sm);
      add_int (b, "active_warps_per_sm", occ.active_warps_per_sm);
      add_int (b, "max_warps_per_sm", occ.max_warps_per_sm);
      json_builder_set_member_name (b, "occupancy");
      json_builder_add_double_value (b, occ.occupancy);
      add_str (b, "limiter", ks_occupancy_limiter_name (occ.limiter));
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "simulation");
  if (sim != NULL)
    {
      const KsSimStats *st = ks_sim_get_stats (sim);
      const KsSimFault *f = ks_sim_get_fault (sim);

      json_builder_begin_object (b);
      add_str (b, "status", f ? "fault" : "ok");
      if (f)
        add_str (b, "fault", f->message);
      add_int (b, "warp_instructions", (gint64) st->warp_instructions);
      add_int (b, "thread_instructions", (gint64) st->thread_instructions);
      add_int (b, "divergent_branches", (gint64) st->divergent_branches);
      add_int (b, "barriers", (gint64) st->barriers);
      json_builder_set_member_name (b, "seconds");
      json_builder_add_double_value (b, st->seconds);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  /* the cycle model is issue 4's next part */
  json_builder_set_member_name (b, "timing");
  json_builder_add_null_value (b);
  ks_cli_add_hints (b, hints);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  ks_cli_print_json (root);
  return sim && ks_sim_get_fault (sim) ? KS_CLI_EXIT_FAULT : KS_CLI_EXIT_OK;
}
