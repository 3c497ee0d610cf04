/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The occupancy calculator against the CUDA toolkit's own: cuda_occupancy.h
 * is a header-only host C++ header (no libcudart), the code the runtime's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor agrees with.  This test
 * compiles a small program against it, feeds it a grid of configurations
 * (each architecture of data/gpus.json x block sizes x registers x static and
 * dynamic shared memory x carveouts x barriers, with and without
 * cudaFuncAttributeMaxDynamicSharedMemorySize) and compares its active
 * blocks per SM, per-resource limits and allocations with
 * ks_occupancy_compute's.
 *
 * The device properties the header takes as input (threads, registers and
 * shared memory per block and per SM, the opt-in and the reservation) come
 * from gpus.json; everything the header knows by itself (blocks per SM,
 * allocation granularities, sub-partitions, carveout steps, barrier rules)
 * is checked here.
 *
 * The toolkit is looked for at $CUDA_HOME, /usr/local/cuda and beside nvcc
 * on PATH; without it, or without a C++ compiler, the test is skipped.
 */

/* realpath() under -std=c11 */
#define _GNU_SOURCE

#include <glib/gstdio.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-gpu-db.h"
#include "ks-occupancy.h"

static KsGpuDb *db;

/* Reads lines of 18 numbers (the device, then the launch) and prints, for
 * each, the header's status, active blocks, its limits by warps, registers,
 * shared memory, blocks and barriers, and the shared memory and registers it
 * allocates per block. */
static const char program[] =
  "#include <stdio.h>\n"
  "#include <cuda_occupancy.h>\n"
  "int main (void)\n"
  "{\n"
  "  long v[18];\n"
  "  for (;;)\n"
  "    {\n"
  "      for (int i = 0; i < 18; i++)\n"
  "        if (scanf (\"%ld\", &v[i]) != 1)\n"
  "          return 0;\n"
  "      cudaOccDeviceProp p;\n"
  "      p.computeMajor = (int) v[0];\n"
  "      p.computeMinor = (int) v[1];\n"
  "      p.maxThreadsPerBlock = (int) v[2];\n"
  "      p.maxThreadsPerMultiprocessor = (int) v[3];\n"
  "      p.regsPerBlock = (int) v[4];\n"
  "      p.regsPerMultiprocessor = (int) v[5];\n"
  "      p.warpSize = (int) v[6];\n"
  "      p.sharedMemPerBlock = (size_t) v[7];\n"
  "      p.sharedMemPerMultiprocessor = (size_t) v[8];\n"
  "      p.numSms = 1;\n"
  "      p.sharedMemPerBlockOptin = (size_t) v[9];\n"
  "      p.reservedSharedMemPerBlock = (size_t) v[10];\n"
  "      cudaOccFuncAttributes a;\n"
  "      a.maxThreadsPerBlock = (int) v[2];\n"
  "      a.numRegs = (int) v[12];\n"
  "      a.sharedSizeBytes = (size_t) v[13];\n"
  "      a.partitionedGCConfig = PARTITIONED_GC_OFF;\n"
  "      /* cudaFuncSetAttribute (k, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic) */\n"
  "      a.shmemLimitConfig = v[17] ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;\n"
  "      a.maxDynamicSharedSizeBytes = v[17] ? (size_t) v[14] : 0;\n"
  "      a.numBlockBarriers = (int) v[16];\n"
  "      a.virtualResourceCount = 0;\n"
  "      cudaOccDeviceState s;\n"
  "      s.carveoutConfig = (int) v[15];\n"
  "      cudaOccResult r;\n"
  "      memset (&r, 0, sizeof r);\n"
  "      int e = cudaOccMaxActiveBlocksPerMultiprocessor (&r, &p, &a, &s, (int) v[11], (size_t) v[14]);\n"
  "      printf (\"%d %d %d %d %d %d %d %lu %d\\n\", e, r.activeBlocksPerMultiprocessor,\n"
  "              r.blockLimitWarps, r.blockLimitRegs, r.blockLimitSharedMem, r.blockLimitBlocks,\n"
  "              r.blockLimitBarriers, (unsigned long) r.allocatedSharedMemPerBlock,\n"
  "              r.allocatedRegistersPerBlock);\n"
  "    }\n"
  "}\n";

/* The toolkit's include folder holding cuda_occupancy.h, or NULL */
static char *
find_header_dir (void)
{
  const char *home = g_getenv ("CUDA_HOME");
  g_autofree char *nvcc = g_find_program_in_path ("nvcc");
  g_autofree char *from_nvcc = NULL;
  const char *candidates[3] = { NULL, "/usr/local/cuda", NULL };

  if (home != NULL && *home != '\0')
    candidates[0] = home;
  if (nvcc != NULL)
    {
      /* .../bin/nvcc -> ..., through a link such as /usr/bin/nvcc */
      char *real = realpath (nvcc, NULL);
      g_autofree char *bin = g_path_get_dirname (real != NULL ? real : nvcc);

      free (real);
      from_nvcc = g_path_get_dirname (bin);
      candidates[2] = from_nvcc;
    }
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *dir = NULL;
      g_autofree char *header = NULL;

      if (candidates[i] == NULL)
        continue;
      dir = g_build_filename (candidates[i], "include", NULL);
      header = g_build_filename (dir, "cuda_occupancy.h", NULL);
      if (g_file_test (header, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&dir);
    }
  return NULL;
}

typedef struct
{
  const KsArchInfo *arch;
  KsOccupancyInput in;
} Config;

static const uint32_t block_sizes[] = { 32, 64, 96, 100, 128, 192, 256, 288, 384, 512, 640, 768, 1024 };
static const uint32_t registers[] = { 0, 1, 16, 24, 32, 33, 40, 41, 48, 56, 64, 65, 72, 96, 128, 130, 168, 200, 255 };
/* static, dynamic: none, the reservation's rounding, the 48196 +
 * 4096, both sides of 48 KiB, the opt-in maxima of the architectures and
 * one byte past them */
static const uint32_t shared[][2] = {
  { 0, 0 }, { 1, 0 }, { 8192, 0 }, { 12300, 0 }, { 20480, 0 }, { 48196, 0 }, { 49152, 0 },
  { 48196, 4096 }, { 0, 49152 }, { 0, 49153 }, { 16384, 49153 }, { 0, 50176 }, { 4096, 65536 },
  { 0, 65536 }, { 0, 65537 }, { 0, 98304 }, { 0, 98305 }, { 0, 101376 }, { 0, 101377 },
  { 0, 102400 }, { 32768, 100000 }, { 0, 166912 }, { 0, 166913 }, { 0, 232448 }, { 0, 232449 },
};
static const int32_t carveouts[] = { KS_OCCUPANCY_CARVEOUT_DEFAULT, 0, 10, 25, 50, 70, 100 };
static const uint32_t barriers[] = { 0, 1, 2, 3, 16 };

static GArray *
make_grid (void)
{
  GArray *grid = g_array_new (FALSE, FALSE, sizeof (Config));

  for (guint ai = 0; ai < db->n_archs; ai++)
    for (guint bi = 0; bi < G_N_ELEMENTS (block_sizes); bi++)
      for (guint ri = 0; ri < G_N_ELEMENTS (registers); ri++)
        for (guint si = 0; si < G_N_ELEMENTS (shared); si++)
          for (guint ci = 0; ci < G_N_ELEMENTS (carveouts); ci++)
            for (guint ni = 0; ni < G_N_ELEMENTS (barriers); ni++)
              for (int opt_in = 0; opt_in < 2; opt_in++)
                {
                  Config c;

                  /* carveouts, and barriers, each on one register count:
                   * they act on shared memory and blocks only */
                  if ((ci != 0 || ni != 0) && registers[ri] != 32)
                    continue;
                  if (ci != 0 && ni != 0)
                    continue;
                  c.arch = &db->archs[ai];
                  ks_occupancy_input_init (&c.in);
                  c.in.block_size = block_sizes[bi];
                  c.in.registers_per_thread = registers[ri];
                  c.in.static_shared_bytes = shared[si][0];
                  c.in.dynamic_shared_bytes = shared[si][1];
                  c.in.carveout_percent = carveouts[ci];
                  c.in.barriers = barriers[ni];
                  c.in.shared_opt_in_set = opt_in;
                  g_array_append_val (grid, c);
                }
  return grid;
}

static char *
describe (const Config *c)
{
  return g_strdup_printf ("%s, %u threads, %u registers, %u static + %u dynamic shared, "
                          "carveout %d, %u barriers, opt-in %s", c->arch->id, c->in.block_size,
                          c->in.registers_per_thread, c->in.static_shared_bytes,
                          c->in.dynamic_shared_bytes, c->in.carveout_percent, c->in.barriers,
                          c->in.shared_opt_in_set ? "set" : "not set");
}

/* INT_MAX in the header is "does not limit" */
static uint32_t
limit_of (long v)
{
  return v == INT_MAX ? KS_OCCUPANCY_UNLIMITED : (uint32_t) v;
}

/* g_strsplit (s, "\n") in one pass: its strstr is quadratic under
 * AddressSanitizer, whose interceptor measures the rest of the string on
 * every call (minutes for the header's 170,000 lines). */
static char **
split_lines (char *s)
{
  GPtrArray *a = g_ptr_array_new ();

  for (;;)
    {
      char *nl = strchr (s, '\n');

      if (nl == NULL)
        {
          g_ptr_array_add (a, g_strdup (s));
          break;
        }
      g_ptr_array_add (a, g_strndup (s, (gsize) (nl - s)));
      s = nl + 1;
    }
  g_ptr_array_add (a, NULL);
  return (char **) g_ptr_array_free (a, FALSE);
}

static void
test_against_header (void)
{
  g_autofree char *inc = find_header_dir ();
  g_autofree char *cxx = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *src = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *inc_flag = NULL;
  g_autofree char *input_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) grid = NULL;
  g_autoptr(GString) input = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  guint mismatches = 0, zero = 0, opt_in_errors = 0;
  int status;

  if (inc == NULL)
    {
      g_test_skip ("cuda_occupancy.h not found ($CUDA_HOME/include, /usr/local/cuda/include, "
                   "or beside nvcc on PATH): no toolkit to compare with");
      return;
    }
  cxx = g_find_program_in_path ("g++");
  if (cxx == NULL)
    cxx = g_find_program_in_path ("c++");
  if (cxx == NULL)
    {
      g_test_skip ("no C++ compiler (g++ or c++) to compile cuda_occupancy.h with");
      return;
    }
  g_test_message ("cuda_occupancy.h from %s, compiled with %s", inc, cxx);

  tmp = g_dir_make_tmp ("ks-occupancy-XXXXXX", &error);
  g_assert_no_error (error);
  src = g_build_filename (tmp, "occ.cc", NULL);
  exe = g_build_filename (tmp, "occ", NULL);
  input_path = g_build_filename (tmp, "input.txt", NULL);
  g_assert_true (g_file_set_contents (src, program, -1, &error));
  g_assert_no_error (error);

  /* host code only, and no CUDA library: the header must be enough */
  inc_flag = g_strdup_printf ("-I%s", inc);
  {
    const char *argv[] = { cxx, "-std=c++11", "-O1", inc_flag, src, "-o", exe, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                  &error);
    g_assert_no_error (error);
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("compiling against cuda_occupancy.h failed:\n%s%s", out, err);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }

  grid = make_grid ();
  for (guint i = 0; i < grid->len; i++)
    {
      const Config *c = &g_array_index (grid, Config, i);
      const KsArchInfo *a = c->arch;

      g_string_append_printf (input, "%u %u %u %u %u %u %u %u %u %u %u  %u %u %u %u %d %u %d\n",
                              a->compute_major, a->compute_minor, a->max_threads_per_block,
                              a->max_threads_per_sm, a->max_registers_per_block,
                              a->registers_per_sm, a->warp_size, a->shared_per_block_bytes,
                              a->shared_per_sm_bytes, a->shared_per_block_optin_bytes,
                              a->shared_reserved_per_block_bytes, c->in.block_size,
                              c->in.registers_per_thread, c->in.static_shared_bytes,
                              c->in.dynamic_shared_bytes, c->in.carveout_percent,
                              c->in.barriers, c->in.shared_opt_in_set ? 1 : 0);
    }
  g_assert_true (g_file_set_contents (input_path, input->str, (gssize) input->len, &error));
  g_assert_no_error (error);

  {
    g_autofree char *cmd = NULL;
    g_autofree char *q_exe = g_shell_quote (exe);
    g_autofree char *q_in = g_shell_quote (input_path);
    const char *argv[] = { "/bin/sh", "-c", NULL, NULL };

    cmd = g_strdup_printf ("%s < %s", q_exe, q_in);
    argv[2] = cmd;
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                  &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }

  lines = split_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, grid->len + 1);
  for (guint i = 0; i < grid->len; i++)
    {
      const Config *c = &g_array_index (grid, Config, i);
      long h[9];
      unsigned long alloc_shared;
      g_autoptr(GError) our_error = NULL;
      KsOccupancyResult r;
      gboolean ok, same;
      uint32_t ours;

      g_assert_cmpint (sscanf (lines[i], "%ld %ld %ld %ld %ld %ld %ld %lu %ld", &h[0], &h[1],
                               &h[2], &h[3], &h[4], &h[5], &h[6], &alloc_shared, &h[8]), ==, 9);
      if (h[0] != 0)
        {
          g_autofree char *what = describe (c);

          g_error ("cuda_occupancy.h refused %s: error %ld", what, h[0]);
        }

      memset (&r, 0, sizeof r);
      ok = ks_occupancy_compute (c->arch, &c->in, &r, &our_error);
      ours = ok ? r.active_blocks_per_sm : 0;
      if (!ok && g_error_matches (our_error, KS_OCCUPANCY_ERROR, KS_OCCUPANCY_ERROR_SHARED_OPT_IN))
        opt_in_errors++;
      if (h[1] == 0)
        zero++;

      same = ours == (uint32_t) h[1];
      if (same && ok)
        {
          /* the figures behind the result: each limit, the allocations */
          same = r.blocks_by_warps == limit_of (h[2])
                 && r.blocks_by_registers == limit_of (h[3])
                 && r.blocks_by_shared_memory == limit_of (h[4])
                 && r.blocks_by_blocks == limit_of (h[5])
                 && r.shared_allocated_per_block == alloc_shared
                 && r.registers_per_block == (uint32_t) h[8];
          /* the header applies barriers from 9.0 only; before, ours never
           * bind (16 x the block limit) */
          if (c->arch->compute_major >= 9 && c->in.barriers > 0)
            same = same && r.blocks_by_barriers == limit_of (h[6]);
          else
            same = same && r.blocks_by_barriers >= r.blocks_by_blocks;
        }
      if (!same)
        {
          g_autofree char *what = describe (c);

          if (mismatches++ < 20)
            g_test_message ("%s: cuda_occupancy.h %ld blocks (limits: warps %ld, registers %ld, "
                            "shared %ld, blocks %ld, barriers %ld; allocated %lu shared, %ld "
                            "registers), KernelScope %u%s%s", what, h[1], h[2], h[3], h[4], h[5],
                            h[6], alloc_shared, h[8], ours, ok ? "" : ": ",
                            ok ? "" : our_error->message);
        }
    }
  g_test_message ("%u configurations compared, %u of them 0 blocks in the header (%u needing "
                  "the opt-in); %u differ", grid->len, zero, opt_in_errors, mismatches);
  g_assert_cmpuint (mismatches, ==, 0);

  g_unlink (src);
  g_unlink (exe);
  g_unlink (input_path);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *builtin = NULL;
  const char *paths[2] = { NULL, NULL };
  int ret;

  g_test_init (&argc, &argv, NULL);

  /* the built-in file alone, as test-occupancy does */
  builtin = ks_gpu_db_find_builtin ();
  g_assert_nonnull (builtin);
  paths[0] = builtin;
  db = ks_gpu_db_load_files (paths, &error);
  g_assert_no_error (error);

  g_test_add_func ("/arch/occupancy/cuda-occupancy-h", test_against_header);

  ret = g_test_run ();
  ks_gpu_db_free (db);
  return ret;
}
