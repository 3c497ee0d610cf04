/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-occupancy.c: `kernelscope-cli occupancy`, the occupancy calculator
 * from the command line.  Exit status as for every command: 0 success,
 * 1 a configuration that cannot launch or a broken GPU database, 2 usage.
 * A block above the default 48 KiB of shared memory launches only with
 * cudaFuncAttributeMaxDynamicSharedMemorySize (--opt-in); without it the
 * command fails and says what the opt-in would give. */

#include "ks-cli-occupancy.h"
#include "ks-cli.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "ks-format.h"
#include "ks-gpu-db.h"
#include "ks-occupancy.h"

static int
occ_fail (gboolean    json,
          int         status,
          const char *message)
{
  return ks_cli_fail ("occupancy", json, status, message);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* A limit that does not apply is null rather than a huge number. */
static void
add_limit (JsonBuilder *b,
           const char  *name,
           uint32_t     value)
{
  json_builder_set_member_name (b, name);
  if (value == KS_OCCUPANCY_UNLIMITED)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, value);
}

static void
add_curve (JsonBuilder            *b,
           const char             *name,
           const KsOccupancyPoint *points,
           uint32_t                n)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < n; i++)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, points[i].x);
      json_builder_add_int_value (b, points[i].active_warps_per_sm);
      json_builder_add_double_value (b, points[i].occupancy);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

static gboolean
in_range (gint64 v,
          gint64 lo,
          gint64 hi)
{
  return v >= lo && v <= hi;
}

int
ks_cli_occupancy (int    argc,
                  char **argv)
{
  g_autofree char *arch_name = NULL;
  g_autofree char *gpu_name = NULL;
  gboolean json = FALSE, curves = FALSE, opt_in = FALSE;
  gint64 block_size = G_MININT64, regs = G_MININT64, smem_static = 0, smem_dynamic = 0, carveout = -1, barriers = 0;
  const GOptionEntry entries[] = {
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_name, "Compute capability (sm_86, 8.6)", "SM" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, "A named GPU (rtx-3090); sets the arch", "ID" },
    { "block-size", 0, 0, G_OPTION_ARG_INT64, &block_size, "Threads per block", "N" },
    { "regs", 0, 0, G_OPTION_ARG_INT64, &regs, "Registers per thread", "R" },
    { "smem-static", 0, 0, G_OPTION_ARG_INT64, &smem_static, "Static shared memory per block", "B" },
    { "smem-dynamic", 0, 0, G_OPTION_ARG_INT64, &smem_dynamic, "Dynamic shared memory per block", "B" },
    { "carveout", 0, 0, G_OPTION_ARG_INT64, &carveout,
      "Preferred shared memory carveout, percent (default: the driver's choice)", "PCT" },
    { "barriers", 0, 0, G_OPTION_ARG_INT64, &barriers, "Named barriers per block (ptxas: \"Used N barriers\")", "N" },
    { "opt-in", 0, 0, G_OPTION_ARG_NONE, &opt_in,
      "The kernel sets cudaFuncAttributeMaxDynamicSharedMemorySize to its dynamic shared memory "
      "(needed above 48 KiB per block)", NULL },
    { "curves", 0, 0, G_OPTION_ARG_NONE, &curves, "Add occupancy curves to the JSON", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the result as one JSON object", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("- active blocks and warps per SM, occupancy and what limits it");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGpuDb) db = NULL;
  const KsArchInfo *arch;
  const KsGpuInfo *gpu = NULL;
  KsOccupancyInput in;
  KsOccupancyResult r;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return occ_fail (json, KS_CLI_EXIT_USAGE, error->message);
  if (argc != 1)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "unexpected argument");
  if (arch_name == NULL && gpu_name == NULL)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "give --arch sm_XX or --gpu ID");
  if (block_size == G_MININT64 || regs == G_MININT64)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "give --block-size N and --regs R");
  /* Large values are valid usage that the GPU refuses (exit 1 naming the
   * limit), so they are clamped rather than refused here; only what no
   * launch could express is a usage error. */
  if (block_size < 1)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "--block-size must be a positive number of threads");
  if (regs < 0)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "--regs must be 0 or more");
  if (smem_static < 0 || smem_dynamic < 0)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "--smem-static and --smem-dynamic must be 0 or more bytes");
  block_size = MIN (block_size, G_MAXUINT32);
  regs = MIN (regs, G_MAXUINT32);
  smem_static = MIN (smem_static, G_MAXUINT32);
  smem_dynamic = MIN (smem_dynamic, G_MAXUINT32);
  if (carveout != -1 && !in_range (carveout, 0, 100))
    return occ_fail (json, KS_CLI_EXIT_USAGE, "--carveout must be a percentage from 0 to 100");
  if (barriers < 0)
    return occ_fail (json, KS_CLI_EXIT_USAGE, "--barriers must be 0 or more");
  barriers = MIN (barriers, G_MAXUINT32);

  db = ks_gpu_db_load_default (&error);
  if (db == NULL)
    return occ_fail (json, KS_CLI_EXIT_BAD_INPUT, error->message);

  if (gpu_name != NULL)
    {
      gpu = ks_gpu_db_get_gpu (db, gpu_name);
      if (gpu == NULL)
        {
          g_autofree char *msg = g_strdup_printf ("unknown GPU \"%s\"", gpu_name);

          return occ_fail (json, KS_CLI_EXIT_USAGE, msg);
        }
    }
  arch = ks_gpu_db_get_arch (db, arch_name != NULL ? arch_name : gpu->arch);
  if (arch == NULL)
    {
      g_autoptr(GString) msg = g_string_new (NULL);

      g_string_printf (msg, "unknown architecture \"%s\" (known:", arch_name);
      for (guint i = 0; i < db->n_archs; i++)
        g_string_append_printf (msg, " %s", db->archs[i].id);
      g_string_append (msg, ")");
      return occ_fail (json, KS_CLI_EXIT_USAGE, msg->str);
    }
  if (gpu != NULL && arch_name != NULL && g_strcmp0 (gpu->arch, arch->id) != 0)
    {
      g_autofree char *msg = g_strdup_printf ("--gpu %s is a %s, not a %s", gpu->id, gpu->arch, arch->id);

      return occ_fail (json, KS_CLI_EXIT_USAGE, msg);
    }
  if (gpu == NULL)
    gpu = ks_gpu_db_representative_gpu (db, arch);

  ks_occupancy_input_init (&in);
  in.block_size = (uint32_t) block_size;
  in.registers_per_thread = (uint32_t) regs;
  in.static_shared_bytes = (uint32_t) smem_static;
  in.dynamic_shared_bytes = (uint32_t) smem_dynamic;
  in.carveout_percent = (int32_t) carveout;
  in.barriers = (uint32_t) barriers;
  in.shared_opt_in_set = opt_in;

  if (!ks_occupancy_compute (arch, &in, &r, &error))
    {
      g_autofree char *msg = g_strdup_printf ("cannot launch: %s", error->message);

      if (json && g_error_matches (error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_OPT_IN))
        {
          /* the error, and what the launch gives with the opt-in (r holds it) */
          g_autoptr(JsonBuilder) b = json_builder_new ();
          g_autoptr(JsonNode) root = NULL;

          g_printerr ("kernelscope-cli occupancy: %s\n", msg);
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, msg);
          json_builder_set_member_name (b, "shared_opt_in");
          json_builder_add_boolean_value (b, TRUE);
          json_builder_set_member_name (b, "opt_in_attribute");
          json_builder_add_string_value (b, "cudaFuncAttributeMaxDynamicSharedMemorySize");
          add_int (b, "max_dynamic_shared_bytes", in.dynamic_shared_bytes);
          json_builder_set_member_name (b, "with_opt_in");
          json_builder_begin_object (b);
          add_int (b, "active_blocks_per_sm", r.active_blocks_per_sm);
          add_int (b, "active_warps_per_sm", r.active_warps_per_sm);
          add_int (b, "max_warps_per_sm", r.max_warps_per_sm);
          json_builder_set_member_name (b, "occupancy");
          json_builder_add_double_value (b, r.occupancy);
          json_builder_set_member_name (b, "limiter");
          json_builder_add_string_value (b, ks_occupancy_limiter_name (r.limiter));
          json_builder_end_object (b);
          json_builder_end_object (b);
          root = json_builder_get_root (b);
          ks_cli_print_json (root);
          return KS_CLI_EXIT_BAD_INPUT;
        }
      return occ_fail (json, KS_CLI_EXIT_BAD_INPUT, msg);
    }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "arch");
      json_builder_add_string_value (b, arch->id);
      json_builder_set_member_name (b, "gpu");
      json_builder_add_string_value (b, gpu->id);
      add_int (b, "block_size", in.block_size);
      add_int (b, "registers_per_thread", in.registers_per_thread);
      add_int (b, "shared_bytes_per_block", r.shared_bytes_per_block);
      add_int (b, "active_blocks_per_sm", r.active_blocks_per_sm);
      add_int (b, "active_warps_per_sm", r.active_warps_per_sm);
      add_int (b, "max_warps_per_sm", r.max_warps_per_sm);
      json_builder_set_member_name (b, "occupancy");
      json_builder_add_double_value (b, r.occupancy);
      json_builder_set_member_name (b, "limiter");
      json_builder_add_string_value (b, ks_occupancy_limiter_name (r.limiter));
      json_builder_set_member_name (b, "limiters");
      json_builder_begin_array (b);
      for (guint bit = KS_OCCUPANCY_LIMIT_WARPS; bit <= KS_OCCUPANCY_LIMIT_BARRIERS; bit <<= 1)
        if (r.limiters & bit)
          json_builder_add_string_value (b, ks_occupancy_limiter_name (bit));
      json_builder_end_array (b);
      json_builder_set_member_name (b, "blocks_limit");
      json_builder_begin_object (b);
      add_limit (b, "warps", r.blocks_by_warps);
      add_limit (b, "registers", r.blocks_by_registers);
      add_limit (b, "shared_memory", r.blocks_by_shared_memory);
      add_limit (b, "blocks", r.blocks_by_blocks);
      add_limit (b, "barriers", r.blocks_by_barriers);
      json_builder_end_object (b);
      add_int (b, "warps_per_block", r.warps_per_block);
      add_int (b, "registers_per_warp_allocated", r.registers_per_warp);
      add_int (b, "registers_per_block_allocated", r.registers_per_block);
      add_int (b, "shared_bytes_per_block_allocated", r.shared_allocated_per_block);
      json_builder_set_member_name (b, "shared_opt_in");
      json_builder_add_boolean_value (b, r.shared_opt_in);
      json_builder_set_member_name (b, "shared_opt_in_set");
      json_builder_add_boolean_value (b, in.shared_opt_in_set);
      add_int (b, "carveout_kib", r.carveout_kib);
      if (curves)
        {
          g_autoptr(KsOccupancyCurves) c = ks_occupancy_curves_new (arch, &in);

          /* Each point is [x, active warps per SM, occupancy]. */
          json_builder_set_member_name (b, "curves");
          json_builder_begin_object (b);
          add_curve (b, "block_size", c->block_size, c->n_block_size);
          add_curve (b, "registers_per_thread", c->registers, c->n_registers);
          add_curve (b, "shared_bytes_per_block", c->shared_memory, c->n_shared_memory);
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
      {
        g_autoptr(JsonNode) root = json_builder_get_root (b);

        ks_cli_print_json (root);
      }
    }
  else
    {
      g_autofree char *pct = ks_format_figure (100.0 * r.occupancy);

      g_print ("%s (%s, as on %s): %u threads, %u registers, %u bytes of shared memory per block\n",
               arch->id, arch->name, gpu->name, in.block_size, in.registers_per_thread,
               r.shared_bytes_per_block);
      g_print ("%u blocks per SM, %u of %u warps: occupancy %s %%, limited by %s\n",
               r.active_blocks_per_sm, r.active_warps_per_sm, r.max_warps_per_sm, pct,
               ks_occupancy_limiter_label (r.limiter));
      g_print ("allocated per block: %u warps, %u registers, %u bytes of shared memory%s; "
               "carveout %u KiB\n",
               r.warps_per_block, r.registers_per_block, r.shared_allocated_per_block,
               r.shared_opt_in ? " (with cudaFuncAttributeMaxDynamicSharedMemorySize)" : "",
               r.carveout_kib);
    }
  return KS_CLI_EXIT_OK;
}
