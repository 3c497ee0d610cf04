/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-record: what the CUDA runtime stand-in (src/cudart) costs beyond
 * the simulation itself, as docs/PERFORMANCE.md records it.
 *
 *   meson compile -C _build bench-record && _build/bench/bench-record
 *
 * It loads the build's libcudart.so.13 as a program would, registers the
 * committed fat binary of tests/fixtures/fatbin (nvcc 13's vector_add), and
 * prints:
 *   - cudaMemcpy's throughput, host to device and back (256 MiB);
 *   - the time of one launch of vector_add over 3 x 1 MiB, with 0, 64 and
 *     256 MiB of other live allocations, beside the same launch run in the
 *     simulator directly (ks_sim, same threads, the trace on): the
 *     difference is the stand-in's overhead (each launch copies every live
 *     allocation in and out, and runs the timing model). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-sim.h"
#include "ks-test-cudart.h"


static double
now (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

int
main (void)
{
  const char *lib = KS_BUILD_ROOT "/src/cudart/libcudart.so.13";
  const char *fatbin = KS_SOURCE_ROOT "/tests/fixtures/fatbin/vector_add.sm_89.size.fatbin";
  const char *ptx = KS_SOURCE_ROOT "/tests/fixtures/fatbin/vector_add.sm_89.ptx";
  const int n = 256 * 1024;               /* 1 MiB of floats */
  const size_t big = (size_t) 256 << 20;
  g_autofree float *host = NULL;
  float *da, *db, *dc, *ballast[2] = { NULL, NULL };
  void *dbig;
  int count = n;
  void *args[4] = { &da, &db, &dc, &count };
  KsTestDim3 grid = { (unsigned) n / 256, 1, 1 }, block = { 256, 1, 1 };
  KsTestCudart t;
  double t0, sim_s = 0;
  const int runs = 5;

  if (!ks_test_cudart_load (&t, lib, fatbin, "rtx-4090"))
    {
      fprintf (stderr, "%s\n", t.error);
      return 1;
    }

  /* copies */
  host = g_malloc (big);
  memset (host, 1, big);
  t.malloc_ (&dbig, big);
  t0 = now ();
  for (int r = 0; r < runs; r++)
    t.memcpy_ (dbig, host, big, 1);
  printf ("cudaMemcpy host to device, 256 MiB: %.2f GB/s\n", runs * (double) big / (now () - t0) / 1e9);
  t0 = now ();
  for (int r = 0; r < runs; r++)
    t.memcpy_ (host, dbig, big, 2);
  printf ("cudaMemcpy device to host, 256 MiB: %.2f GB/s\n", runs * (double) big / (now () - t0) / 1e9);
  t.free_ (dbig);

  /* the simulation alone */
  {
    g_autofree char *spec = g_strdup_printf (
      "{\"ptx\": \"%s\", \"kernel\": \"_Z10vector_addPKfS0_Pfi\", \"grid\": [%d], \"block\": [256],"
      " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"min\": 0, \"max\": 1}}},"
      "  \"b\": {\"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"min\": 0, \"max\": 1}}},"
      "  \"c\": {\"type\": \"f32\", \"count\": %d}},"
      " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": %d}]}",
      ptx, n / 256, n, n, n, n);
    g_autoptr(GError) error = NULL;
    g_autoptr(KsPtxModule) m = ks_ptx_module_parse_file (ptx, &error);
    KsLaunch *l = ks_launch_parse (spec, -1, NULL, &error);

    if (m == NULL || l == NULL)
      {
        fprintf (stderr, "%s\n", error->message);
        return 1;
      }
    for (int r = 0; r < runs; r++)
      {
        KsSim *sim = ks_sim_new (m, l, &error);

        t0 = now ();
        ks_sim_set_threads (sim, 0);
        ks_sim_run (sim, 0, NULL);
        sim_s += now () - t0;
        ks_sim_free (sim);
      }
    sim_s /= runs;
    ks_launch_free (l);
  }
  printf ("vector_add<<<%d, 256>>> in the simulator alone: %.1f ms\n", n / 256, sim_s * 1e3);

  t.malloc_ ((void **) &da, n * sizeof (float));
  t.malloc_ ((void **) &db, n * sizeof (float));
  t.malloc_ ((void **) &dc, n * sizeof (float));
  t.memcpy_ (da, host, n * sizeof (float), 1);
  t.memcpy_ (db, host, n * sizeof (float), 1);
  for (int extra = 0; extra < 3; extra++)
    {
      size_t mib = extra == 0 ? 0 : extra == 1 ? 64 : 256;
      double per;

      if (mib > 0)
        {
          if (ballast[0] != NULL)
            t.free_ (ballast[0]);
          t.malloc_ ((void **) &ballast[0], mib << 20);
        }
      t0 = now ();
      for (int r = 0; r < runs; r++)
        t.launch (t.kernel, grid, block, args, 0, NULL);
      per = (now () - t0) / runs;
      printf ("  through the stand-in, %3zu MiB of other allocations live: %.1f ms a launch "
              "(%.1f ms beyond the simulation)\n", mib, per * 1e3, (per - sim_s) * 1e3);
    }
  return 0;
}
