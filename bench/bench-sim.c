/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-sim: the simulator's speed in thread-instructions per second on
 * three kernels, each beside a plain C loop doing the same work, timed in
 * the same run.  Prints figures for docs/PERFORMANCE.md; not a test.
 *
 *   bench-sim [SCALE [CASE [MODE]]]
 *                         SCALE 1 (default): vadd of 4M elements, a 512 x 512
 *                         tiled matrix multiply, a shared-memory reduction of
 *                         4M floats; SCALE 2 halves the sizes, and so on.
 *                         CASE (vadd, matmul or reduce) runs that kernel alone,
 *                         and MODE one configuration of it: off (trace off, one
 *                         thread), on (trace on, one thread), offN or onN (N
 *                         threads); for profilers such as callgrind. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

static double
now (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

typedef struct
{
  const char *name;
  const char *ptx;              /* relative to the source root */
  char *spec;
  double c_seconds;
} Case;

static KsPtxModule *
load_module (const char *rel)
{
  g_autofree char *path = g_build_filename (KS_SOURCE_ROOT, rel, NULL);
  g_autoptr(GError) error = NULL;
  KsPtxModule *m = ks_ptx_module_parse_file (path, &error);

  if (m == NULL || m->n_errors > 0)
    g_error ("cannot load %s: %s", path, error ? error->message : "parse errors");
  return m;
}

/* Runs a launch, with the trace on or off, on some threads, and prints the
 * figures */
static void
run_case (Case     *c,
          gboolean  trace,
          uint32_t  threads)
{
  g_autoptr(KsPtxModule) m = load_module (c->ptx);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_parse (c->spec, -1, NULL, &error);
  g_autoptr(KsSim) sim = NULL;
  const KsSimStats *st;
  double t0, t;

  if (l == NULL)
    g_error ("%s: %s", c->name, error->message);
  sim = ks_sim_new (m, l, &error);
  if (sim == NULL)
    g_error ("%s: %s", c->name, error->message);
  ks_sim_set_trace (sim, trace, 0);
  ks_sim_set_threads (sim, threads);
  t0 = now ();
  if (ks_sim_run (sim, 0, NULL) != KS_SIM_DONE)
    g_error ("%s: %s", c->name, ks_sim_get_fault (sim) ? ks_sim_get_fault (sim)->message : "?");
  t = now () - t0;
  st = ks_sim_get_stats (sim);
  printf ("  %-28s trace %-3s threads %u %7.3f s  %8.1f M thread-instr  %6.1f M/s  "
          "plain C %.4f s  ratio %.0fx  (%.1f M events, %.1f M dropped)\n",
          c->name, trace ? "on" : "off", threads, t, st->thread_instructions / 1e6,
          st->thread_instructions / t / 1e6, c->c_seconds,
          c->c_seconds > 0 ? t / c->c_seconds : 0.0,
          st->trace_events / 1e6, st->trace_dropped / 1e6);
}

/* The plain C versions, kept from being optimised away by a checksum */
static volatile double sink;

static double
c_vadd (size_t n)
{
  float *a = g_new (float, n), *b = g_new (float, n), *c = g_new (float, n);
  double t0, t;

  for (size_t i = 0; i < n; i++)
    a[i] = (float) i, b[i] = (float) (2 * i + 1);
  t0 = now ();
  for (size_t i = 0; i < n; i++)
    c[i] = a[i] + b[i];
  t = now () - t0;
  sink = c[n / 2];
  g_free (a), g_free (b), g_free (c);
  return t;
}

static double
c_matmul (int n)
{
  float *a = g_new (float, (size_t) n * n), *b = g_new (float, (size_t) n * n);
  float *c = g_new (float, (size_t) n * n);
  double t0, t;

  for (int i = 0; i < n * n; i++)
    a[i] = (float) (i % 7) - 3.0f, b[i] = (float) (i % 5) - 2.0f;
  t0 = now ();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      {
        float s = 0.0f;

        for (int k = 0; k < n; k++)
          s = fmaf (a[i * n + k], b[k * n + j], s);
        c[i * n + j] = s;
      }
  t = now () - t0;
  sink = c[n];
  g_free (a), g_free (b), g_free (c);
  return t;
}

static double
c_reduce (size_t n)
{
  float *in = g_new (float, n);
  double t0, t, s = 0;

  for (size_t i = 0; i < n; i++)
    in[i] = (float) (i % 13);
  t0 = now ();
  for (size_t i = 0; i < n; i++)
    s += in[i];
  t = now () - t0;
  sink = s;
  g_free (in);
  return t;
}

/* Whether to time the plain C version of a case: not when the case is not
 * run, nor under a profiler (one MODE) */
static gboolean
wanted (const char *only,
        const char *mode,
        const char *name)
{
  return mode == NULL && (only == NULL || g_str_has_prefix (name, only));
}

int
main (int   argc,
      char *argv[])
{
  int scale = argc > 1 ? MAX (1, atoi (argv[1])) : 1;
  const char *only = argc > 2 ? argv[2] : NULL;
  const char *mode = argc > 3 ? argv[3] : NULL;
  size_t nv = (size_t) (4u << 20) / (size_t) scale;
  int nm = 512 / scale;
  size_t nr = (size_t) (4u << 20) / (size_t) scale;
  Case cases[3];

  nm -= nm % 16;
  cases[0].name = "vadd";
  cases[0].ptx = "data/samples/01-vector-add/vector_add.ptx";
  cases[0].spec = g_strdup_printf (
    "{\"ptx\": \"x.ptx\", \"grid\": [%zu], \"block\": [256],"
    " \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": %zu, \"init\": {\"range\": {\"start\": 0, \"step\": 1}}},"
    " \"b\": {\"type\": \"f32\", \"count\": %zu, \"init\": {\"range\": {\"start\": 1, \"step\": 2}}},"
    " \"c\": {\"type\": \"f32\", \"count\": %zu}},"
    " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"type\": \"s32\", \"value\": %zu}]}",
    (nv + 255) / 256, nv, nv, nv, nv);
  cases[0].c_seconds = wanted (only, mode, cases[0].name) ? c_vadd (nv) : 0;

  cases[1].name = "matmul (16x16 tiles)";
  cases[1].ptx = "data/samples/22-matmul-tiled/matmul_tiled.ptx";
  cases[1].spec = g_strdup_printf (
    "{\"ptx\": \"x.ptx\", \"grid\": [%d, %d], \"block\": [16, 16],"
    " \"buffers\": {\"A\": {\"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},"
    " \"B\": {\"type\": \"f32\", \"count\": %d, \"init\": {\"random\": {\"seed\": 2, \"min\": -1, \"max\": 1}}},"
    " \"C\": {\"type\": \"f32\", \"count\": %d}},"
    " \"params\": [{\"buffer\": \"A\"}, {\"buffer\": \"B\"}, {\"buffer\": \"C\"}, {\"type\": \"s32\", \"value\": %d}]}",
    nm / 16, nm / 16, nm * nm, nm * nm, nm * nm, nm);
  cases[1].c_seconds = wanted (only, mode, cases[1].name) ? c_matmul (nm) : 0;

  cases[2].name = "reduce (shared memory tree)";
  cases[2].ptx = "tests/ptx/corpus/sm_80/03_reduce_shared.ptx";
  cases[2].spec = g_strdup_printf (
    "{\"ptx\": \"x.ptx\", \"grid\": [%zu], \"block\": [256],"
    " \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": %zu, \"init\": {\"range\": {\"start\": 0, \"step\": 1}}},"
    " \"out\": {\"type\": \"f32\", \"count\": %zu}},"
    " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"type\": \"s32\", \"value\": %zu}]}",
    nr / 512, nr, nr / 512, nr);
  cases[2].c_seconds = wanted (only, mode, cases[2].name) ? c_reduce (nr) : 0;

  printf ("bench-sim: vadd %zu elements, matmul %d x %d, reduce %zu floats%s\n",
          nv, nm, nm, nr, g_getenv ("KS_SIM_NO_FAST") ? " (general executor only)" : "");
  for (int i = 0; i < 3; i++)
    {
      if (only != NULL && !g_str_has_prefix (cases[i].name, only))
        {
          g_free (cases[i].spec);
          continue;
        }
      if (mode != NULL)
        {
          gboolean trace = g_str_has_prefix (mode, "on");
          int threads = atoi (mode + (trace ? 2 : 3));

          run_case (&cases[i], trace, (uint32_t) MAX (threads, 1));
          g_free (cases[i].spec);
          continue;
        }
      run_case (&cases[i], FALSE, 1);
      if (g_get_num_processors () > 1)
        run_case (&cases[i], FALSE, (uint32_t) g_get_num_processors ());
      run_case (&cases[i], TRUE, 1);
      if (g_get_num_processors () > 1)
        run_case (&cases[i], TRUE, (uint32_t) g_get_num_processors ());
      g_free (cases[i].spec);
    }
  return 0;
}
