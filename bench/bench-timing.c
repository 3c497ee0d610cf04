/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-timing: the timing model's speed, in trace events (warp-
 * instructions) replayed per second, on the samples at a size given on the
 * command line.  Prints figures for docs/PERFORMANCE.md; not a test.
 *
 *   bench-timing [N]      a tiled N x N matrix multiply (default 256) and a
 *                         vector add of N * N elements, on an RTX 4090 */

#include <stdio.h>
#include <stdlib.h>

#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-timing.h"

static double
now (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

static void
run (const char *name,
     const char *ptx_rel,
     const char *spec,
     uint32_t    regs,
     uint32_t    smem)
{
  g_autofree char *path = g_build_filename (KS_SOURCE_ROOT, ptx_rel, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (path, &error);
  g_autoptr(KsLaunch) l = NULL;
  g_autoptr(KsSim) sim = NULL;
  g_autoptr(KsGpuDb) db = ks_gpu_db_load_default (&error);
  g_autoptr(KsTiming) t = NULL;
  const KsGpuInfo *gpu;
  const KsArchInfo *arch;
  KsOccupancyInput in;
  KsOccupancyResult occ;
  uint64_t n_events;
  double t0, t_sim, t_model;

  if (m == NULL || db == NULL)
    g_error ("%s", error->message);
  l = ks_launch_parse (spec, -1, NULL, &error);
  if (l == NULL)
    g_error ("%s: %s", name, error->message);
  gpu = ks_gpu_db_get_gpu (db, "rtx-4090");
  arch = ks_gpu_db_get_arch (db, gpu->arch);
  sim = ks_sim_new (m, l, &error);
  if (sim == NULL)
    g_error ("%s: %s", name, error->message);
  ks_sim_set_trace (sim, TRUE, 64u << 20);
  t0 = now ();
  if (ks_sim_run (sim, 0, NULL) != KS_SIM_DONE)
    g_error ("%s did not finish", name);
  t_sim = now () - t0;
  ks_sim_get_trace (sim, &n_events);

  ks_occupancy_input_init (&in);
  in.block_size = l->block[0] * l->block[1] * l->block[2];
  in.registers_per_thread = regs;
  in.static_shared_bytes = smem;
  if (!ks_occupancy_compute (arch, &in, &occ, &error))
    g_error ("%s", error->message);
  t0 = now ();
  t = ks_timing_compute (m, sim, arch, gpu, &occ, NULL, &error);
  t_model = now () - t0;
  if (t == NULL)
    g_error ("%s", error->message);
  /* The model reads the whole trace once (work, traffic, the SM's share)
   * and replays the share cycle by cycle */
  printf ("%-13s trace %9" G_GUINT64_FORMAT " events (simulated in %5.2f s); model %6.3f s "
          "= %5.1f M trace events/s; the SM's share: %7" G_GUINT64_FORMAT " events of %"
          G_GUINT64_FORMAT " blocks in %7u cycles%s\n",
          name, n_events, t_sim, t_model, n_events / t_model / 1e6, t->n_events,
          t->ctas_modelled, t->cycles, t->extrapolated ? " (extrapolated)" : "");
}

int
main (int    argc,
      char **argv)
{
  uint32_t n = argc > 1 ? (uint32_t) strtoul (argv[1], NULL, 10) : 256;
  g_autofree char *mm = NULL, *va = NULL;

  if (n < 16 || n % 16 != 0 || n > 4096)
    {
      fprintf (stderr, "usage: bench-timing [N], N a multiple of 16 up to 4096\n");
      return 2;
    }
  mm = g_strdup_printf ("{\"ptx\": \"m.ptx\", \"grid\": [%u, %u, 1], \"block\": [16, 16, 1],"
                        " \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": %u, \"init\": "
                        "{\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},"
                        " \"B\": {\"type\": \"f32\", \"count\": %u, \"init\": "
                        "{\"random\": {\"seed\": 2, \"min\": -1, \"max\": 1}}},"
                        " \"C\": {\"type\": \"f32\", \"count\": %u}},"
                        " \"params\": [{\"buffer\": \"A\"}, {\"buffer\": \"B\"}, {\"buffer\": \"C\"},"
                        " {\"type\": \"s32\", \"value\": %u}]}", n / 16, n / 16, n * n, n * n,
                        n * n, n);
  va = g_strdup_printf ("{\"ptx\": \"v.ptx\", \"grid\": [%u, 1, 1], \"block\": [256, 1, 1],"
                        " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": %u},"
                        " \"b\": {\"type\": \"f32\", \"count\": %u}, \"c\": {\"type\": \"f32\", \"count\": %u}},"
                        " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"},"
                        " {\"type\": \"s32\", \"value\": %u}]}", n * n / 256, n * n, n * n, n * n,
                        n * n);
  printf ("bench-timing: N = %u, RTX 4090 (sm_89), GTO\n", n);
  run ("matmul-tiled", "data/samples/22-matmul-tiled/matmul_tiled.ptx", mm, 37, 2048);
  run ("vector-add", "data/samples/01-vector-add/vector_add.ptx", va, 12, 0);
  return 0;
}
