/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of ks-sim-memory: bank wavefronts, sectors, the cache model.
 *
 * Expected values are worked out by hand in the comments, from the CUDA C++
 * Programming Guide's shared-memory figures for compute capability 5.x
 * (Figure "Strided Shared Memory Accesses": strides of 1, 2 and 3 words;
 * "Irregular Shared Memory Accesses": a permutation, a partial broadcast and
 * a full broadcast) and its coalescing rules (32-byte sectors, 128-byte
 * lines).  The cache is checked on hand-worked sequences and against a naive
 * list-based LRU written here.
 */

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "ks-sim-memory.h"

#define ALL 0xffffffffu

static void
fill_linear (uint64_t addr[32], uint64_t base, uint64_t stride)
{
  for (guint i = 0; i < 32; i++)
    addr[i] = base + i * stride;
}

/* ---- shared memory --------------------------------------------------------- */

static void
test_smem_stride1 (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* Figure, left: lane i reads word i, bank i.  No conflict. */
  fill_linear (a, 0, 4);
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.n_phases, ==, 1);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmpuint (r.ideal_wavefronts, ==, 1);
  g_assert_cmpuint (r.extra_wavefronts, ==, 0);
  g_assert_cmpuint (r.conflict_degree, ==, 1);
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (r.bank_words[i], ==, 1);
      g_assert_cmpuint (r.lane_wavefront[i], ==, 0);
      g_assert_cmphex (r.lane_banks[i], ==, 1u << i);
    }

  /* The same, as a store. */
  r = ks_smem_analyze (a, 4, ALL, TRUE);
  g_assert_cmpuint (r.wavefronts, ==, 1);

  /* A base that is not bank 0 only rotates the banks. */
  fill_linear (a, 4096 + 4 * 7, 4);
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmphex (r.lane_banks[0], ==, 1u << 7);
  g_assert_cmphex (r.lane_banks[25], ==, 1u << 0);
}

static void
test_smem_stride2 (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* Figure, middle: lane i reads word 2i, bank 2i mod 32.  Lanes i and
   * i + 16 hit bank 2i with words 2i and 2i + 32: a two-way conflict. */
  fill_linear (a, 0, 8);
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  g_assert_cmpuint (r.extra_wavefronts, ==, 1);
  g_assert_cmpuint (r.conflict_degree, ==, 2);
  for (guint b = 0; b < 32; b++)
    g_assert_cmpuint (r.bank_words[b], ==, b % 2 == 0 ? 2 : 0);
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (r.lane_wavefront[i], ==, i < 16 ? 0 : 1);
      g_assert_cmphex (r.lane_banks[i], ==, 1u << ((2 * i) % 32));
    }
}

static void
test_smem_stride3 (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* Figure, right: bank 3i mod 32; 3 and 32 are coprime, so 32 banks. */
  fill_linear (a, 0, 12);
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmpuint (r.conflict_degree, ==, 1);
  for (guint b = 0; b < 32; b++)
    g_assert_cmpuint (r.bank_words[b], ==, 1);
}

static void
test_smem_stride32 (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* Stride of 32 words: every lane in bank 0, 32 distinct words. */
  fill_linear (a, 0, 128);
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 32);
  g_assert_cmpuint (r.extra_wavefronts, ==, 31);
  g_assert_cmpuint (r.conflict_degree, ==, 32);
  g_assert_cmpuint (r.bank_words[0], ==, 32);
  g_assert_cmpuint (r.bank_words[1], ==, 0);
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (r.lane_wavefront[i], ==, i);
      g_assert_cmphex (r.lane_banks[i], ==, 1);
    }

  /* Only four lanes active: four passes; the others are marked inactive. */
  r = ks_smem_analyze (a, 4, 0x0000000fu, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 4);
  g_assert_cmpuint (r.extra_wavefronts, ==, 3);
  g_assert_cmpuint (r.lane_wavefront[4], ==, KS_MEM_LANE_NONE);
  g_assert_cmphex (r.lane_banks[4], ==, 0);

  /* No lane active: nothing happens. */
  r = ks_smem_analyze (a, 4, 0, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 0);
  g_assert_cmpuint (r.ideal_wavefronts, ==, 0);
  g_assert_cmpuint (r.conflict_degree, ==, 0);
}

static void
test_smem_permutation (void)
{
  /* Figure "Irregular", left: a permutation of the 32 banks. */
  static const guint perm[32] = {
    17, 3, 29, 0, 8, 21, 12, 31, 5, 26, 1, 14, 19, 9, 24, 6,
    30, 2, 11, 27, 16, 7, 22, 13, 4, 28, 10, 18, 25, 15, 20, 23,
  };
  uint64_t a[32];
  KsSmemAnalysis r;

  for (guint i = 0; i < 32; i++)
    a[i] = 1024 + 4 * perm[i];
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  for (guint i = 0; i < 32; i++)
    g_assert_cmphex (r.lane_banks[i], ==, 1u << perm[i]);
}

static void
test_smem_broadcast (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* Figure "Irregular", middle: threads 3, 4, 6, 7 and 9 read the same word
   * of bank 5 (lane 5 reads it too); every other lane its own bank.  Bank 5
   * serves one distinct word: conflict-free. */
  for (guint i = 0; i < 32; i++)
    a[i] = 4 * i;
  a[3] = a[4] = a[6] = a[7] = a[9] = 4 * 5;
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmpuint (r.bank_words[5], ==, 1);
  g_assert_cmpuint (r.bank_words[3], ==, 0);

  /* Figure "Irregular", right: every lane reads one word. */
  for (guint i = 0; i < 32; i++)
    a[i] = 4 * 77;
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmpuint (r.bank_words[77 % 32], ==, 1);

  /* Stores to one word: one write, not a conflict. */
  r = ks_smem_analyze (a, 4, ALL, TRUE);
  g_assert_cmpuint (r.wavefronts, ==, 1);

  /* Multicast of two words of the same bank (16 lanes each): the bank must
   * deliver two distinct words, a two-way conflict however many lanes
   * share each. */
  for (guint i = 0; i < 32; i++)
    a[i] = i < 16 ? 0 : 128;
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  g_assert_cmpuint (r.conflict_degree, ==, 2);

  /* Different bytes of the same word: no conflict. */
  for (guint i = 0; i < 32; i++)
    a[i] = 64 + i % 4;
  r = ks_smem_analyze (a, 1, ALL, TRUE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
}

static void
test_smem_subword (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* char loads, consecutive: lanes 4k..4k+3 share word k; 8 words, 8 banks. */
  fill_linear (a, 0, 1);
  r = ks_smem_analyze (a, 1, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmpuint (r.bank_words[7], ==, 1);
  g_assert_cmpuint (r.bank_words[8], ==, 0);

  /* short loads, consecutive: 16 words. */
  fill_linear (a, 0, 2);
  r = ks_smem_analyze (a, 2, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmphex (r.lane_banks[31], ==, 1u << 15);

  /* Misaligned (PTX faults on these; the analysis must still answer): a
   * float at byte 2 of each word covers words i and i + 1, so banks i and
   * i + 1 each serve two distinct words: 2 wavefronts. */
  fill_linear (a, 2, 4);
  r = ks_smem_analyze (a, 4, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  g_assert_cmphex (r.lane_banks[31], ==, 0x80000001u);
  /* A float4 at byte 2: five words per lane. */
  fill_linear (a, 2, 16);
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmphex (r.lane_banks[0], ==, 0x1fu);
  g_assert_cmpuint (r.wavefronts, ==, 8);
  /* At the top of the address space: no wrap-around trouble. */
  for (guint i = 0; i < 32; i++)
    a[i] = G_MAXUINT64 - 1;
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 2);

  /* short loads with a stride of 64 shorts (128 bytes): one bank, 32 words. */
  fill_linear (a, 2, 128);
  r = ks_smem_analyze (a, 2, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 32);
}

static void
test_smem_tile_column (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* __shared__ float tile[32][32]; lane i reads tile[i][c]: address
   * (32 i + c) * 4, bank c for every lane, 32 distinct words. */
  for (guint c = 0; c < 32; c += 5)
    {
      for (guint i = 0; i < 32; i++)
        a[i] = (32 * i + c) * 4;
      r = ks_smem_analyze (a, 4, ALL, FALSE);
      g_assert_cmpuint (r.wavefronts, ==, 32);
      g_assert_cmpuint (r.conflict_degree, ==, 32);
      g_assert_cmpuint (r.bank_words[c], ==, 32);

      /* Padded to tile[32][33]: bank (33 i + c) mod 32 = (i + c) mod 32. */
      for (guint i = 0; i < 32; i++)
        a[i] = (33 * i + c) * 4;
      r = ks_smem_analyze (a, 4, ALL, FALSE);
      g_assert_cmpuint (r.wavefronts, ==, 1);
      for (guint i = 0; i < 32; i++)
        g_assert_cmphex (r.lane_banks[i], ==, 1u << ((i + c) % 32));
    }
}

static void
test_smem_64bit (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* double, consecutive: each half-warp reads 32 consecutive words, one per
   * bank; two phases, conflict-free.  The two halves together would need
   * two words of each bank, so they cannot be packed. */
  fill_linear (a, 0, 8);
  r = ks_smem_analyze (a, 8, ALL, FALSE);
  g_assert_cmpuint (r.n_phases, ==, 2);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  g_assert_cmpuint (r.ideal_wavefronts, ==, 2);
  g_assert_cmpuint (r.extra_wavefronts, ==, 0);
  g_assert_cmpuint (r.conflict_degree, ==, 1);
  g_assert_false (r.merged);
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (r.lane_wavefront[i], ==, i < 16 ? 0 : 1);
      g_assert_cmphex (r.lane_banks[i], ==, 3u << ((2 * i) % 32));
    }

  /* double, stride 2 (16 bytes): in a half-warp lane i covers words 4i and
   * 4i + 1, banks 4i, 4i + 1 mod 32; lanes i and i + 8 collide with
   * different words: two-way per phase, 4 wavefronts, 2 extra. */
  fill_linear (a, 0, 16);
  r = ks_smem_analyze (a, 8, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 4);
  g_assert_cmpuint (r.extra_wavefronts, ==, 2);
  g_assert_cmpuint (r.conflict_degree, ==, 2);
  g_assert_cmpuint (r.lane_wavefront[0], ==, 0);
  g_assert_cmpuint (r.lane_wavefront[8], ==, 1);
  g_assert_cmpuint (r.lane_wavefront[16], ==, 2);
  g_assert_cmpuint (r.lane_wavefront[31], ==, 3);

  /* One half-warp only: one phase, one wavefront. */
  fill_linear (a, 0, 8);
  r = ks_smem_analyze (a, 8, 0xffff0000u, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_cmpuint (r.lane_wavefront[16], ==, 0);

  /* Every lane reads the same double.  By the guide's phases: 2 wavefronts;
   * packed (estimate, see ks-sim-memory.h): 1 for a load.  A store keeps
   * the two phases. */
  for (guint i = 0; i < 32; i++)
    a[i] = 256;
  r = ks_smem_analyze (a, 8, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
  g_assert_true (r.merged);
  g_assert_cmpuint (r.extra_wavefronts, ==, 0);
  r = ks_smem_analyze (a, 8, ALL, TRUE);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  g_assert_false (r.merged);

  /* The second half-warp reads what the first reads: packed to 1. */
  for (guint i = 0; i < 32; i++)
    a[i] = 8 * (i % 16);
  r = ks_smem_analyze (a, 8, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 1);
}

static void
test_smem_128bit (void)
{
  uint64_t a[32];
  KsSmemAnalysis r;

  /* float4, consecutive: each quarter-warp covers 128 bytes, all 32 banks
   * once; four phases, conflict-free (Nsight Compute: 4 wavefronts is the
   * ideal for LDS.128). */
  fill_linear (a, 0, 16);
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmpuint (r.n_phases, ==, 4);
  g_assert_cmpuint (r.wavefronts, ==, 4);
  g_assert_cmpuint (r.ideal_wavefronts, ==, 4);
  g_assert_cmpuint (r.extra_wavefronts, ==, 0);
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (r.lane_wavefront[i], ==, i / 8);
      g_assert_cmphex (r.lane_banks[i], ==, 0xfu << ((4 * i) % 32));
    }

  /* float4, stride 32 bytes: lanes i and i + 4 of a quarter-warp share banks
   * 8i..8i+3 mod 32 with different words: two-way, 8 wavefronts. */
  fill_linear (a, 0, 32);
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 8);
  g_assert_cmpuint (r.extra_wavefronts, ==, 4);
  g_assert_cmpuint (r.conflict_degree, ==, 2);

  /* Lane pairs share an address (T2k == T2k+1): a quarter-warp needs 64
   * bytes, and quarter-warps 0 + 1 (and 2 + 3) fit one 128-byte pass
   * together: 2 wavefronts (estimate; NVIDIA forum: LDS.128 "from 4 to
   * 2"). */
  for (guint i = 0; i < 32; i++)
    a[i] = 16 * (i / 2);
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  g_assert_true (r.merged);
  g_assert_cmpuint (r.lane_wavefront[15], ==, 0);
  g_assert_cmpuint (r.lane_wavefront[16], ==, 1);

  /* Uniform float4: 2 as well (same source), 4 for a store. */
  for (guint i = 0; i < 32; i++)
    a[i] = 512;
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 2);
  r = ks_smem_analyze (a, 16, ALL, TRUE);
  g_assert_cmpuint (r.wavefronts, ==, 4);

  /* A 32x32 float tile read as float4 down a column (lane i: row i, same
   * four columns): every lane hits banks 4..7; a quarter-warp brings 8 rows,
   * so 8 distinct words per bank, 8 passes per phase, 32 wavefronts. */
  for (guint i = 0; i < 32; i++)
    a[i] = 32 * 4 * i + 16;
  r = ks_smem_analyze (a, 16, ALL, FALSE);
  g_assert_cmpuint (r.wavefronts, ==, 32);
  g_assert_cmpuint (r.conflict_degree, ==, 8);
  g_assert_cmpuint (r.bank_words[4], ==, 8);
}

/* Naive reference: the max over banks of distinct words among the lanes of
 * lane_mask, by comparing every pair. */
static guint
naive_degree (const uint64_t a[32], guint size, uint32_t lane_mask)
{
  uint64_t words[32 * 5];
  guint n = 0, best = 0;

  for (guint i = 0; i < 32; i++)
    if (lane_mask & (1u << i))
      for (uint64_t w = a[i] / 4; w <= (a[i] + size - 1) / 4; w++)
        {
          gboolean seen = FALSE;

          for (guint j = 0; j < n; j++)
            seen |= words[j] == w;
          if (!seen)
            words[n++] = w;
        }
  for (guint b = 0; b < 32; b++)
    {
      guint c = 0;

      for (guint j = 0; j < n; j++)
        c += words[j] % 32 == b;
      best = MAX (best, c);
    }
  return best;
}

static void
test_smem_random (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (7);
  static const guint sizes[] = { 1, 2, 4, 8, 16 };

  for (guint iter = 0; iter < 20000; iter++)
    {
      guint size = sizes[g_rand_int_range (rng, 0, 5)];
      guint phases = size <= 4 ? 1 : size / 4;
      guint per = 32 / phases;
      uint32_t mask = g_rand_int_range (rng, 0, 4) == 0 ? g_rand_int (rng) : ALL;
      gboolean store = g_rand_boolean (rng);
      /* A small window, so that lanes share words and banks. */
      guint64 window = 64u << g_rand_int_range (rng, 0, 6);
      uint64_t a[32];
      KsSmemAnalysis r;
      guint want = 0, want_ideal = 0, worst = 0;

      /* aligned, or (a tenth of the time) at any byte, crossing words */
      gboolean any_byte = g_rand_int_range (rng, 0, 10) == 0;

      /* or (a third of the time) in the patterns of real kernels, which
       * are mostly conflict-free: lane i at element (i / group) * stride
       * + (i % group) of a row, so whole rows, broadcasts (stride 0,
       * group 1), strides and partial broadcasts */
      gboolean pattern = g_rand_int_range (rng, 0, 3) == 0;
      guint group = 1u << g_rand_int_range (rng, 0, 6);
      guint stride = g_rand_int_range (rng, 0, 5) * (g_rand_boolean (rng) ? 1 : group);
      guint64 base = (guint64) g_rand_int_range (rng, 0, 64) * size;

      for (guint i = 0; i < 32; i++)
        if (pattern)
          a[i] = base + (uint64_t) ((i / group) * stride + i % group) * size;
        else
          a[i] = any_byte ? (uint64_t) g_rand_int_range (rng, 0, (gint32) window)
                          : (uint64_t) g_rand_int_range (rng, 0, (gint32) (window / size)) * size;
      r = ks_smem_analyze (a, size, mask, store);

      for (guint p = 0; p < phases; p++)
        {
          uint32_t pm = mask & (per == 32 ? ALL : ((1u << per) - 1) << (p * per));
          guint d = naive_degree (a, size, pm);

          worst = MAX (worst, d);
          if (!store && phases > 1 && p % 2 == 0)
            {
              uint32_t qm = mask & (((1u << per) - 1) << ((p + 1) * per));
              guint dq = naive_degree (a, size, qm);

              worst = MAX (worst, dq);
              if (d == 1 && dq == 1 && naive_degree (a, size, pm | qm) == 1)
                {
                  want += 1;
                  want_ideal += 1;
                }
              else
                {
                  want += d + dq;
                  want_ideal += (d > 0) + (dq > 0);
                }
              p++;
              continue;
            }
          want += d;
          want_ideal += d > 0;
        }
      g_assert_cmpuint (r.wavefronts, ==, want);
      g_assert_cmpuint (r.ideal_wavefronts, ==, want_ideal);
      g_assert_cmpuint (r.conflict_degree, ==, worst);
      /* the counts alone, as the simulator takes them for every access
       * (a shortcut for conflict-free requests of whole warps) */
      {
        uint32_t wf, ideal, degree;

        ks_smem_cost (a, size, mask, store, &wf, &ideal, &degree);
        g_assert_cmpuint (wf, ==, want);
        g_assert_cmpuint (ideal, ==, want_ideal);
        g_assert_cmpuint (degree, ==, worst);
      }
      for (guint i = 0; i < 32; i++)
        {
          if (mask & (1u << i))
            g_assert_cmpuint (r.lane_wavefront[i], <, r.wavefronts);
          else
            g_assert_cmpuint (r.lane_wavefront[i], ==, KS_MEM_LANE_NONE);
        }
    }
}

/* ---- global memory ----------------------------------------------------------- */

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

/* Sorts and removes duplicates; returns the new length */
static guint
unique_u64 (uint64_t *v,
            guint     n)
{
  guint k = 0;

  qsort (v, n, sizeof *v, compare_u64);
  for (guint i = 0; i < n; i++)
    if (k == 0 || v[k - 1] != v[i])
      v[k++] = v[i];
  return k;
}

/* The ideal sectors from every byte the lanes touch, duplicates included
 * (sorted): a sector with a byte two lanes read is a broadcast's and
 * counts whole; the bytes of the other sectors count packed, 32 a sector */
static guint
ideal_of_bytes (const uint64_t *sorted,
                guint           n)
{
  guint broadcast = 0, single = 0;

  for (guint i = 0; i < n;)
    {
      uint64_t sector = sorted[i] & ~(uint64_t) 31;
      guint j = i, distinct = 0;
      gboolean shared = FALSE;

      for (; j < n && (sorted[j] & ~(uint64_t) 31) == sector; j++)
        {
          if (j > i && sorted[j] == sorted[j - 1])
            shared = TRUE;
          else
            distinct++;
        }
      if (shared)
        broadcast++;
      else
        single += distinct;
      i = j;
    }
  return broadcast + (single + 31) / 32;
}

/* ks_gmem_cost against a naive count of every byte the lanes touch:
 * coalesced, strided, shuffled, broadcast and unaligned requests, whole
 * warps and partial ones */
static void
test_gmem_cost_random (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (11);
  static const guint sizes[] = { 1, 2, 4, 8, 16 };

  for (guint iter = 0; iter < 20000; iter++)
    {
      guint size = sizes[g_rand_int_range (rng, 0, 5)];
      uint32_t mask = g_rand_int_range (rng, 0, 4) == 0 ? g_rand_int (rng) : ALL;
      guint pattern = (guint) g_rand_int_range (rng, 0, 4);
      uint64_t base = G_GUINT64_CONSTANT (0x7f0000000000) + (uint64_t) g_rand_int_range (rng, 0, 4096) * size;
      guint stride = (guint) g_rand_int_range (rng, 0, 5) * size;
      uint64_t a[32], bytes[32 * 16], sectors[32 * 16], lines[32 * 16];
      guint nb = 0, lanes = 0, ideal;
      KsGmemCost c;

      for (guint i = 0; i < 32; i++)
        switch (pattern)
          {
          case 0: a[i] = base + (uint64_t) i * stride; break;           /* in order */
          case 1: a[i] = base + (uint64_t) (31 - i) * stride; break;    /* reversed */
          case 2: a[i] = base + (uint64_t) g_rand_int_range (rng, 0, 64) * size; break;
          default: a[i] = base + (uint64_t) g_rand_int_range (rng, 0, 256); break;   /* any byte */
          }
      for (guint i = 0; i < 32; i++)
        if (mask & (1u << i))
          {
            for (guint k = 0; k < size; k++)
              bytes[nb++] = a[i] + k;
            lanes++;
          }
      qsort (bytes, nb, sizeof *bytes, compare_u64);
      ideal = ideal_of_bytes (bytes, nb);
      nb = unique_u64 (bytes, nb);
      for (guint i = 0; i < nb; i++)
        {
          sectors[i] = bytes[i] & ~(uint64_t) 31;
          lines[i] = bytes[i] & ~(uint64_t) 127;
        }

      ks_gmem_cost (a, size, mask, &c);
      g_assert_cmpuint (c.n_sectors, ==, unique_u64 (sectors, nb));
      g_assert_cmpmem (c.sectors, c.n_sectors * sizeof (uint64_t), sectors, c.n_sectors * sizeof (uint64_t));
      g_assert_cmpuint (c.n_lines, ==, unique_u64 (lines, nb));
      g_assert_cmpuint (c.ideal_sectors, ==, ideal);
      g_assert_cmpuint (c.requested_bytes, ==, lanes * size);
      g_assert_cmpuint (c.unique_bytes, ==, nb);
      /* ks_gmem_analyze, the view's count, agrees */
      g_assert_cmpuint (ks_gmem_analyze (a, size, mask).ideal_sectors, ==, ideal);
    }
}

static void
test_gmem_coalesced (void)
{
  uint64_t a[32];
  KsGmemAnalysis r;

  /* float, consecutive, 256-byte aligned: bytes [0, 128) of one line. */
  fill_linear (a, 0x10000, 4);
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.requested_bytes, ==, 128);
  g_assert_cmpuint (r.unique_bytes, ==, 128);
  g_assert_cmpuint (r.n_sectors, ==, 4);
  g_assert_cmpuint (r.n_lines, ==, 1);
  g_assert_cmpuint (r.transferred_bytes, ==, 128);
  g_assert_cmpuint (r.ideal_sectors, ==, 4);
  g_assert_cmpfloat (r.efficiency, ==, 1.0);
  g_assert_cmphex (r.lines[0], ==, 0x10000);
  for (guint s = 0; s < 4; s++)
    {
      g_assert_cmphex (r.sectors[s], ==, 0x10000 + 32 * s);
      g_assert_cmphex (r.sector_bytes[s], ==, 0xffffffffu);
    }
  for (guint i = 0; i < 32; i++)
    {
      g_assert_cmpuint (r.lane_sector[i], ==, i / 8);
      g_assert_cmpuint (r.lane_n_sectors[i], ==, 1);
    }

  /* Lanes in reverse order touch the same sectors. */
  for (guint i = 0; i < 32; i++)
    a[i] = 0x10000 + 4 * (31 - i);
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 4);
  g_assert_cmpuint (r.lane_sector[0], ==, 3);
}

static void
test_gmem_stride2 (void)
{
  uint64_t a[32];
  KsGmemAnalysis r;

  /* float, stride 2: bytes spread over [0, 256): 8 sectors, 2 lines, half of
   * each sector used. */
  fill_linear (a, 0, 8);
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 8);
  g_assert_cmpuint (r.n_lines, ==, 2);
  g_assert_cmpuint (r.transferred_bytes, ==, 256);
  g_assert_cmpuint (r.ideal_sectors, ==, 4);
  g_assert_cmpfloat (r.efficiency, ==, 0.5);
  g_assert_cmphex (r.sector_bytes[0], ==, 0x0f0f0f0fu);

  /* Stride of 32 floats: one sector per lane, 12.5 %. */
  fill_linear (a, 0, 128);
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 32);
  g_assert_cmpuint (r.n_lines, ==, 32);
  g_assert_cmpfloat (r.efficiency, ==, 0.125);
}

static void
test_gmem_misaligned (void)
{
  uint64_t a[32];
  KsGmemAnalysis r;

  /* float, consecutive from byte 4: bytes [4, 132), sectors 0..4 (five),
   * lines 0 and 1; 128 / 160 = 80 %. */
  fill_linear (a, 4, 4);
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 5);
  g_assert_cmpuint (r.n_lines, ==, 2);
  g_assert_cmpuint (r.ideal_sectors, ==, 4);
  g_assert_cmpfloat (r.efficiency, ==, 0.8);
  g_assert_cmphex (r.sector_bytes[0], ==, 0xfffffff0u);
  g_assert_cmphex (r.sector_bytes[4], ==, 0x0000000fu);
  g_assert_cmpuint (r.lane_sector[31], ==, 4);

  /* float4 from byte 8: bytes [8, 520); lane 1 covers [24, 40) and so
   * sectors 0 and 1.  17 sectors, lines 0..4. */
  fill_linear (a, 8, 16);
  r = ks_gmem_analyze (a, 16, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 17);
  g_assert_cmpuint (r.n_lines, ==, 5);
  g_assert_cmpuint (r.lane_sector[0], ==, 0);
  g_assert_cmpuint (r.lane_n_sectors[0], ==, 1);
  g_assert_cmpuint (r.lane_sector[1], ==, 0);
  g_assert_cmpuint (r.lane_n_sectors[1], ==, 2);
  g_assert_cmpuint (r.lane_sector[31], ==, 15);
  g_assert_cmpuint (r.lane_n_sectors[31], ==, 2);
  g_assert_cmphex (r.sectors[16], ==, 512);
}

static void
test_gmem_gather (void)
{
  /* float gather, table at 0.  Sector = idx / 8, line = idx / 32:
   *   sector 0   (idx 0..7):     3 0 3 7 5 2 6 1 4  -> 8 distinct, 3 twice
   *   sector 5   (idx 40..47):   41 47 42 46 40 43 44 -> 7 (no 45)
   *   sector 17  (136..143):     137 139 143 138 136 -> 5
   *   sector 18  (144..151):     150 144 145 151 -> 4
   *   sector 100 (800..807):     800 805 801 802 803 -> 5
   *   sector 101 (808..815):     808 815 -> 2
   * 6 sectors in lines 0, 1, 4, 25; 31 distinct floats = 124 bytes, so the
   * ideal is ceil (124 / 32) = 4 sectors; 128 / 192 requested. */
  static const guint idx[32] = {
    3, 41, 137, 800, 0, 47, 150, 3, 805, 144, 42, 7, 139, 801, 46, 5,
    40, 808, 2, 143, 145, 6, 1, 43, 802, 138, 44, 151, 4, 803, 136, 815,
  };
  static const uint64_t sectors[6] = { 0, 160, 544, 576, 3200, 3232 };
  static const uint64_t lines[4] = { 0, 128, 512, 3200 };
  uint64_t a[32];
  KsGmemAnalysis r;

  for (guint i = 0; i < 32; i++)
    a[i] = 4 * idx[i];
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 6);
  g_assert_cmpuint (r.n_lines, ==, 4);
  for (guint s = 0; s < 6; s++)
    g_assert_cmphex (r.sectors[s], ==, sectors[s]);
  for (guint l = 0; l < 4; l++)
    g_assert_cmphex (r.lines[l], ==, lines[l]);
  g_assert_cmpuint (r.requested_bytes, ==, 128);
  g_assert_cmpuint (r.unique_bytes, ==, 124);
  g_assert_cmpuint (r.ideal_sectors, ==, 4);
  g_assert_cmpuint (r.transferred_bytes, ==, 192);
  g_assert_cmpfloat_with_epsilon (r.efficiency, 128.0 / 192.0, 1e-12);
  g_assert_cmphex (r.sector_bytes[0], ==, 0xffffffffu);
  g_assert_cmphex (r.sector_bytes[1], ==, 0xff0fffffu);   /* idx 45: bytes 20..23 */
  g_assert_cmphex (r.sector_bytes[5], ==, 0xf000000fu);   /* idx 808, 815 */
  g_assert_cmpuint (r.lane_sector[0], ==, 0);
  g_assert_cmpuint (r.lane_sector[1], ==, 1);
  g_assert_cmpuint (r.lane_sector[2], ==, 2);
  g_assert_cmpuint (r.lane_sector[3], ==, 4);
  g_assert_cmpuint (r.lane_sector[6], ==, 3);
  g_assert_cmpuint (r.lane_sector[31], ==, 5);

  /* Every lane the same float: one sector, 4 unique bytes, 400 %. */
  for (guint i = 0; i < 32; i++)
    a[i] = 100;
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 1);
  g_assert_cmphex (r.sectors[0], ==, 96);
  g_assert_cmpuint (r.unique_bytes, ==, 4);
  g_assert_cmpuint (r.ideal_sectors, ==, 1);
  g_assert_cmpfloat (r.efficiency, ==, 4.0);

  /* Sample 21's load of A[row * n + k], n = 64: lanes 0-15 are one row of
   * the 16 x 16 block and lanes 16-31 the next, so two floats 64 x 4 = 256
   * bytes apart, each broadcast to 16 lanes.  Two sectors, and no access to
   * these two values could move fewer: ideal 2, 8 of the 64 bytes used. */
  for (guint i = 0; i < 32; i++)
    a[i] = 0x40000 + (i < 16 ? 0 : 256);
  r = ks_gmem_analyze (a, 4, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 2);
  g_assert_cmpuint (r.n_lines, ==, 2);
  g_assert_cmpuint (r.unique_bytes, ==, 8);
  g_assert_cmpuint (r.transferred_bytes, ==, 64);
  g_assert_cmpuint (r.ideal_sectors, ==, 2);
  {
    KsGmemCost c;

    ks_gmem_cost (a, 4, ALL, &c);
    g_assert_cmpuint (c.ideal_sectors, ==, 2);
    g_assert_cmpuint (c.unique_bytes, ==, 8);
  }
}

static void
test_gmem_wide (void)
{
  uint64_t a[32];
  KsGmemAnalysis r;

  /* double, consecutive: 256 bytes, 8 sectors, 2 lines, 100 %. */
  fill_linear (a, 0x20000, 8);
  r = ks_gmem_analyze (a, 8, ALL);
  g_assert_cmpuint (r.requested_bytes, ==, 256);
  g_assert_cmpuint (r.n_sectors, ==, 8);
  g_assert_cmpuint (r.n_lines, ==, 2);
  g_assert_cmpuint (r.ideal_sectors, ==, 8);
  g_assert_cmpfloat (r.efficiency, ==, 1.0);
  g_assert_cmpuint (r.lane_sector[5], ==, 1);

  /* float4, consecutive: 512 bytes, 16 sectors, 4 lines, 100 %. */
  fill_linear (a, 0x20000, 16);
  r = ks_gmem_analyze (a, 16, ALL);
  g_assert_cmpuint (r.requested_bytes, ==, 512);
  g_assert_cmpuint (r.n_sectors, ==, 16);
  g_assert_cmpuint (r.n_lines, ==, 4);
  g_assert_cmpuint (r.ideal_sectors, ==, 16);
  g_assert_cmpfloat (r.efficiency, ==, 1.0);
  g_assert_cmpuint (r.lane_sector[5], ==, 2);

  /* bytes, consecutive: 32 bytes, one sector. */
  fill_linear (a, 0x20000, 1);
  r = ks_gmem_analyze (a, 1, ALL);
  g_assert_cmpuint (r.n_sectors, ==, 1);
  g_assert_cmpfloat (r.efficiency, ==, 1.0);
}

static void
test_gmem_inactive (void)
{
  uint64_t a[32];
  KsGmemAnalysis r;

  fill_linear (a, 0, 4);
  /* Lanes 0..15: 64 bytes, sectors 0 and 1. */
  r = ks_gmem_analyze (a, 4, 0x0000ffffu);
  g_assert_cmpuint (r.requested_bytes, ==, 64);
  g_assert_cmpuint (r.n_sectors, ==, 2);
  g_assert_cmpuint (r.n_lines, ==, 1);
  g_assert_cmpfloat (r.efficiency, ==, 1.0);
  g_assert_cmpuint (r.lane_sector[16], ==, KS_MEM_LANE_NONE);
  g_assert_cmpuint (r.lane_n_sectors[16], ==, 0);

  /* Lanes 0..7 and 24..31: sectors 0 and 3. */
  r = ks_gmem_analyze (a, 4, 0xff0000ffu);
  g_assert_cmpuint (r.n_sectors, ==, 2);
  g_assert_cmphex (r.sectors[1], ==, 96);
  g_assert_cmpuint (r.lane_sector[24], ==, 1);

  /* Inactive lanes' addresses are never looked at. */
  for (guint i = 1; i < 32; i++)
    a[i] = G_MAXUINT64 - 3;
  r = ks_gmem_analyze (a, 4, 1);
  g_assert_cmpuint (r.n_sectors, ==, 1);

  /* A float4 in the last 8 bytes of the address space wraps to sector 0;
   * whatever the hardware would do, the analysis stays in bounds. */
  r = ks_gmem_analyze (a, 16, 2);
  g_assert_cmpuint (r.n_sectors, ==, 2);
  g_assert_cmphex (r.sectors[0], ==, 0);
  g_assert_cmpuint (r.lane_sector[1], ==, 1);
  g_assert_cmpuint (r.lane_n_sectors[1], ==, 2);

  r = ks_gmem_analyze (a, 4, 0);
  g_assert_cmpuint (r.n_sectors, ==, 0);
  g_assert_cmpuint (r.requested_bytes, ==, 0);
  g_assert_cmpfloat (r.efficiency, ==, 0.0);
}

/* ---- cache: hand-worked --------------------------------------------------------- */

static void
test_cache_lru (void)
{
  /* 512 bytes, 128-byte lines, 2 ways: 2 sets; line n -> set n % 2, so byte
   * addresses 0, 256 and 512 (lines 0, 2, 4) share set 0. */
  g_autoptr(KsCache) c = ks_cache_new (512, 128, 32, 2);
  const KsCacheStats *st = ks_cache_get_stats (c);

  g_assert_cmpuint (ks_cache_get_n_sets (c), ==, 2);
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpint (ks_cache_access (c, 4, FALSE), ==, KS_CACHE_HIT);
  /* Same line, next sector: the tag hits, the sector is fetched alone. */
  g_assert_cmpint (ks_cache_access (c, 32, FALSE), ==, KS_CACHE_SECTOR_MISS);
  g_assert_cmpint (ks_cache_access (c, 63, FALSE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 96, FALSE), ==, KS_CACHE_SECTOR_MISS);
  /* Fill the second way of set 0. */
  g_assert_cmpint (ks_cache_access (c, 256, FALSE), ==, KS_CACHE_LINE_MISS);
  /* Set 1 is independent. */
  g_assert_cmpint (ks_cache_access (c, 128, FALSE), ==, KS_CACHE_LINE_MISS);
  /* Touch line 0: line 2 becomes the LRU of set 0. */
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_HIT);
  g_assert_cmpuint (st->evictions, ==, 0);
  /* Line 4 evicts line 2. */
  g_assert_cmpint (ks_cache_access (c, 512, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpuint (st->evictions, ==, 1);
  g_assert_cmpint (ks_cache_access (c, 32, FALSE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 256, FALSE), ==, KS_CACHE_LINE_MISS);
  /* That evicted line 4 (LRU after line 0 was touched again). */
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 512, FALSE), ==, KS_CACHE_LINE_MISS);
  /* The new line 4 holds only the sector that missed. */
  g_assert_cmpint (ks_cache_access (c, 512 + 32, FALSE), ==, KS_CACHE_SECTOR_MISS);
  g_assert_cmpint (ks_cache_access (c, 128, FALSE), ==, KS_CACHE_HIT);

  g_assert_cmpuint (st->load_hits, ==, 6);
  g_assert_cmpuint (st->load_sector_misses, ==, 3);
  g_assert_cmpuint (st->load_line_misses, ==, 6);
  g_assert_cmpuint (st->evictions, ==, 3);
  g_assert_cmpuint (st->writebacks, ==, 0);

  ks_cache_reset (c);
  g_assert_cmpuint (st->load_hits, ==, 0);
  g_assert_cmpuint (st->evictions, ==, 0);
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_LINE_MISS);
}

static void
test_cache_write_back (void)
{
  g_autoptr(KsCache) c = ks_cache_new (512, 128, 32, 2);
  const KsCacheStats *st = ks_cache_get_stats (c);

  g_assert_cmpint (ks_cache_get_write_policy (c), ==, KS_CACHE_WRITE_BACK);
  /* A store miss allocates and dirties its sector. */
  g_assert_cmpint (ks_cache_access (c, 0, TRUE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 64, TRUE), ==, KS_CACHE_SECTOR_MISS);
  g_assert_cmpint (ks_cache_access (c, 64, TRUE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 96, FALSE), ==, KS_CACHE_SECTOR_MISS);
  /* Lines 2 and 4 push line 0 (two dirty sectors) out. */
  g_assert_cmpint (ks_cache_access (c, 256, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpint (ks_cache_access (c, 512, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpuint (st->evictions, ==, 1);
  g_assert_cmpuint (st->writebacks, ==, 2);
  g_assert_cmpuint (st->store_line_misses, ==, 1);
  g_assert_cmpuint (st->store_sector_misses, ==, 1);
  g_assert_cmpuint (st->store_hits, ==, 1);
  g_assert_cmpuint (st->write_throughs, ==, 0);
}

static void
test_cache_write_through (void)
{
  g_autoptr(KsCache) c = ks_cache_new (512, 128, 32, 2);
  const KsCacheStats *st = ks_cache_get_stats (c);

  ks_cache_set_write_policy (c, KS_CACHE_WRITE_THROUGH);
  /* No write-allocate: a store miss leaves the cache as it was. */
  g_assert_cmpint (ks_cache_access (c, 0, TRUE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpint (ks_cache_access (c, 0, TRUE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 32, TRUE), ==, KS_CACHE_SECTOR_MISS);
  g_assert_cmpint (ks_cache_access (c, 32, FALSE), ==, KS_CACHE_SECTOR_MISS);
  /* Line 0 is now the LRU ... */
  g_assert_cmpint (ks_cache_access (c, 256, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpint (ks_cache_access (c, 256, TRUE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 512, FALSE), ==, KS_CACHE_LINE_MISS);
  /* ... so line 4 replaced it, and nothing is ever written back. */
  g_assert_cmpint (ks_cache_access (c, 256, FALSE), ==, KS_CACHE_HIT);
  g_assert_cmpint (ks_cache_access (c, 0, FALSE), ==, KS_CACHE_LINE_MISS);
  g_assert_cmpuint (st->write_throughs, ==, 4);
  g_assert_cmpuint (st->writebacks, ==, 0);
  g_assert_cmpuint (st->store_hits, ==, 2);
  g_assert_cmpuint (st->store_line_misses, ==, 1);
  g_assert_cmpuint (st->store_sector_misses, ==, 1);
  g_assert_cmpuint (st->evictions, ==, 2);
}

/* ---- cache: against a naive reference ------------------------------------------ */

typedef struct
{
  uint64_t line;
  uint32_t valid;
  uint32_t dirty;
} RefLine;

typedef struct
{
  guint n_sets, ways, line_bytes, sector_bytes;
  bool write_back;
  GQueue *sets;                 /* per set, most recently used first */
  KsCacheStats st;
} RefCache;

static void
ref_init (RefCache *r, guint size, guint line, guint sector, guint ways, bool write_back)
{
  memset (r, 0, sizeof *r);
  r->n_sets = size / (line * ways);
  r->ways = ways;
  r->line_bytes = line;
  r->sector_bytes = sector;
  r->write_back = write_back;
  r->sets = g_new0 (GQueue, r->n_sets);
}

static void
ref_clear (RefCache *r)
{
  for (guint s = 0; s < r->n_sets; s++)
    g_queue_clear_full (&r->sets[s], g_free);
  g_free (r->sets);
}

static KsCacheResult
ref_access (RefCache *r, uint64_t addr, bool is_store)
{
  uint64_t line = addr / r->line_bytes;
  uint32_t bit = 1u << ((addr % r->line_bytes) / r->sector_bytes);
  GQueue *q = &r->sets[line % r->n_sets];
  RefLine *l;

  if (is_store && !r->write_back)
    r->st.write_throughs++;

  for (GList *it = q->head; it != NULL; it = it->next)
    {
      l = it->data;
      if (l->line != line)
        continue;
      if (l->valid & bit)
        {
          if (is_store)
            r->st.store_hits++;
          else
            r->st.load_hits++;
          if (is_store && r->write_back)
            l->dirty |= bit;
          g_queue_unlink (q, it);
          g_queue_push_head_link (q, it);
          return KS_CACHE_HIT;
        }
      if (is_store)
        {
          r->st.store_sector_misses++;
          if (!r->write_back)
            return KS_CACHE_SECTOR_MISS;
          l->dirty |= bit;
        }
      else
        r->st.load_sector_misses++;
      l->valid |= bit;
      g_queue_unlink (q, it);
      g_queue_push_head_link (q, it);
      return KS_CACHE_SECTOR_MISS;
    }

  if (is_store)
    {
      r->st.store_line_misses++;
      if (!r->write_back)
        return KS_CACHE_LINE_MISS;
    }
  else
    r->st.load_line_misses++;

  if (q->length == r->ways)
    {
      l = g_queue_pop_tail (q);
      r->st.evictions++;
      r->st.writebacks += (guint) __builtin_popcount (l->dirty);
      g_free (l);
    }
  l = g_new0 (RefLine, 1);
  l->line = line;
  l->valid = bit;
  l->dirty = is_store ? bit : 0;
  g_queue_push_head (q, l);
  return KS_CACHE_LINE_MISS;
}

static void
check_random (guint size, guint line, guint sector, guint ways, bool write_back,
              guint64 span, guint32 seed)
{
  g_autoptr(KsCache) c = ks_cache_new (size, line, sector, ways);
  g_autoptr(GRand) rng = g_rand_new_with_seed (seed);
  const KsCacheStats *st;
  RefCache ref;
  uint64_t addr = 0;
  guint i;

  g_assert_nonnull (c);
  ks_cache_set_write_policy (c, write_back ? KS_CACHE_WRITE_BACK : KS_CACHE_WRITE_THROUGH);
  ref_init (&ref, size, line, sector, ways, write_back);

  for (i = 0; i < 100000; i++)
    {
      bool store = g_rand_int_range (rng, 0, 4) == 0;
      KsCacheResult got, want;

      /* Mostly a small hot region (so that there are hits), sometimes far;
       * and runs of sectors after each other, as a warp's request makes
       * them (the same line again, then the next) */
      if (i > 0 && g_rand_int_range (rng, 0, 3) == 0)
        addr += sector;
      else if (g_rand_int_range (rng, 0, 8) == 0)
        addr = ((uint64_t) g_rand_int (rng) << 16) ^ g_rand_int (rng);
      else
        addr = (uint64_t) g_rand_double_range (rng, 0, (double) span);
      got = ks_cache_access (c, addr, store);
      want = ref_access (&ref, addr, store);
      if (got != want)
        g_error ("access %u (addr 0x%" G_GINT64_MODIFIER "x, %s): got %d, want %d",
                 i, addr, store ? "store" : "load", got, want);
    }

  st = ks_cache_get_stats (c);
  g_assert_cmpuint (st->load_hits, ==, ref.st.load_hits);
  g_assert_cmpuint (st->load_sector_misses, ==, ref.st.load_sector_misses);
  g_assert_cmpuint (st->load_line_misses, ==, ref.st.load_line_misses);
  g_assert_cmpuint (st->store_hits, ==, ref.st.store_hits);
  g_assert_cmpuint (st->store_sector_misses, ==, ref.st.store_sector_misses);
  g_assert_cmpuint (st->store_line_misses, ==, ref.st.store_line_misses);
  g_assert_cmpuint (st->evictions, ==, ref.st.evictions);
  g_assert_cmpuint (st->writebacks, ==, ref.st.writebacks);
  g_assert_cmpuint (st->write_throughs, ==, ref.st.write_throughs);
  /* The workload must exercise every outcome to mean anything. */
  g_assert_cmpuint (st->load_hits, >, 0);
  g_assert_cmpuint (st->load_sector_misses, >, 0);
  g_assert_cmpuint (st->evictions, >, 0);
  ref_clear (&ref);
}

static void
test_cache_random (void)
{
  /* 16 KiB, 4 ways, 32 sets. */
  check_random (16384, 128, 32, 4, TRUE, 64 * 1024, 1);
  check_random (16384, 128, 32, 4, FALSE, 64 * 1024, 2);
  /* 3 sets: the modulo (not mask) set index. */
  check_random (3 * 128 * 2, 128, 32, 2, TRUE, 4096, 3);
  /* Direct-mapped, and fully associative. */
  check_random (4096, 128, 32, 1, TRUE, 16384, 4);
  check_random (8 * 128, 128, 32, 8, FALSE, 4096, 5);
  /* An L2-like shape: 16 ways, 20 sets, 32 sectors of 4 bytes per line. */
  check_random (20 * 16 * 128, 128, 4, 16, TRUE, 128 * 1024, 6);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sim/memory/gmem/cost-random", test_gmem_cost_random);
  g_test_add_func ("/sim/memory/smem/stride-1", test_smem_stride1);
  g_test_add_func ("/sim/memory/smem/stride-2", test_smem_stride2);
  g_test_add_func ("/sim/memory/smem/stride-3", test_smem_stride3);
  g_test_add_func ("/sim/memory/smem/stride-32", test_smem_stride32);
  g_test_add_func ("/sim/memory/smem/permutation", test_smem_permutation);
  g_test_add_func ("/sim/memory/smem/broadcast", test_smem_broadcast);
  g_test_add_func ("/sim/memory/smem/sub-word", test_smem_subword);
  g_test_add_func ("/sim/memory/smem/tile-column", test_smem_tile_column);
  g_test_add_func ("/sim/memory/smem/64-bit", test_smem_64bit);
  g_test_add_func ("/sim/memory/smem/128-bit", test_smem_128bit);
  g_test_add_func ("/sim/memory/smem/random", test_smem_random);
  g_test_add_func ("/sim/memory/gmem/coalesced", test_gmem_coalesced);
  g_test_add_func ("/sim/memory/gmem/stride-2", test_gmem_stride2);
  g_test_add_func ("/sim/memory/gmem/misaligned", test_gmem_misaligned);
  g_test_add_func ("/sim/memory/gmem/gather", test_gmem_gather);
  g_test_add_func ("/sim/memory/gmem/wide", test_gmem_wide);
  g_test_add_func ("/sim/memory/gmem/inactive", test_gmem_inactive);
  g_test_add_func ("/sim/memory/cache/lru", test_cache_lru);
  g_test_add_func ("/sim/memory/cache/write-back", test_cache_write_back);
  g_test_add_func ("/sim/memory/cache/write-through", test_cache_write_through);
  g_test_add_func ("/sim/memory/cache/random", test_cache_random);

  return g_test_run ();
}
