/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-memory.c: bank wavefronts, sectors and a sectored LRU cache.
 *
 * The rules and their sources are in ks-sim-memory.h.  Everything below works
 * on small fixed arrays: a request has at most 32 lanes, each touching at
 * most five 32-bit words (a misaligned 16-byte access) and two sectors.
 */

#include <string.h>

#include "ks-sim-memory.h"

/* Without the popcnt instruction (the x86-64 baseline), __builtin_popcount
 * is a call into libgcc */
static inline uint32_t
popcount32 (uint32_t x)
{
#ifdef __POPCNT__
  return (uint32_t) __builtin_popcount (x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (x * 0x01010101u) >> 24;
#endif
}

/* ---- shared memory --------------------------------------------------------- */

/* Distinct words of one group of lanes, in a small open-addressing hash table
 * so that a request with many lanes in one bank stays linear.  A group
 * touches at most 64 words: 32 lanes x 2 (a misaligned 4-byte access),
 * 16 x 3 or 8 x 5.  The occupied bits are the only state to clear. */
#define WORD_SLOTS 128

typedef struct
{
  uint64_t used[WORD_SLOTS / 64];
  uint64_t word[WORD_SLOTS];
  uint8_t ord[WORD_SLOTS];        /* pass within the group that serves it */
  uint8_t count[KS_SMEM_BANKS];   /* distinct words per bank so far */
  uint64_t last[KS_SMEM_BANKS];   /* the latest new word of each bank */
} WordSet;

static inline void
word_set_init (WordSet *s)
{
  memset (s->used, 0, sizeof s->used);
  memset (s->count, 0, sizeof s->count);
}

/* The pass in which word w is served, adding it if new.  Passes are handed
 * out per bank in the order words are first seen, i.e. in lane order. */
static inline uint32_t
word_set_add (WordSet *s, uint64_t w)
{
  uint32_t i = (uint32_t) ((w * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 57);

  for (;;)
    {
      if (!(s->used[i / 64] & ((uint64_t) 1 << (i % 64))))
        {
          uint32_t bank = (uint32_t) (w % KS_SMEM_BANKS);

          s->used[i / 64] |= (uint64_t) 1 << (i % 64);
          s->word[i] = w;
          s->ord[i] = s->count[bank]++;
          s->last[bank] = w;
          return s->ord[i];
        }
      if (s->word[i] == w)
        return s->ord[i];
      i = (i + 1) % WORD_SLOTS;
    }
}

/* The 32-bit words an access covers: 1 when aligned, up to 5 for a
 * misaligned 16-byte one (PTX requires alignment, but the analysis must not
 * care).  Counted rather than bounded by an end address, which could wrap. */
static inline uint32_t
lane_n_words (uint64_t a, uint32_t size)
{
  return (uint32_t) ((a % KS_SMEM_BANK_BYTES + size + KS_SMEM_BANK_BYTES - 1) / KS_SMEM_BANK_BYTES);
}

/* Costs the lanes of group_mask as one set of passes.  Fills each lane's
 * pass (relative to the group), the group's per-bank word counts and, for
 * banks with one word, that word; returns the number of passes (0 for an
 * empty group). */
static uint32_t
cost_group (const uint64_t  addr[KS_MEM_WARP_SIZE],
            uint32_t        size,
            uint32_t        group_mask,
            uint8_t         lane_pass[KS_MEM_WARP_SIZE],
            uint8_t         bank_words[KS_SMEM_BANKS],
            uint64_t        bank_word[KS_SMEM_BANKS])
{
  WordSet s;
  uint32_t degree = 0;
  uint32_t m;

  word_set_init (&s);
  for (m = group_mask; m != 0; m &= m - 1)
    {
      uint32_t lane = (uint32_t) __builtin_ctz (m);
      uint64_t first = addr[lane] / KS_SMEM_BANK_BYTES;
      uint32_t n = lane_n_words (addr[lane], size);
      uint32_t pass = 0;
      uint32_t k;

      for (k = 0; k < n; k++)
        pass = MAX (pass, word_set_add (&s, first + k));
      lane_pass[lane] = (uint8_t) pass;
    }
  for (m = 0; m < KS_SMEM_BANKS; m++)
    {
      bank_words[m] = s.count[m];
      bank_word[m] = s.last[m];
      degree = MAX (degree, s.count[m]);
    }
  return degree;
}

KsSmemAnalysis
ks_smem_analyze (const uint64_t addr[KS_MEM_WARP_SIZE],
                 uint32_t       size,
                 uint32_t       mask,
                 bool           is_store)
{
  KsSmemAnalysis r;
  uint8_t lane_pass[KS_MEM_WARP_SIZE];
  uint8_t phase_banks[4][KS_SMEM_BANKS];
  uint64_t phase_word[4][KS_SMEM_BANKS];
  uint32_t phase_degree[4];
  uint32_t phase_mask[4];
  uint32_t lanes_per_phase;
  uint32_t p, lane, b;

  memset (&r, 0, sizeof r);
  memset (r.lane_wavefront, KS_MEM_LANE_NONE, sizeof r.lane_wavefront);
  r.active_mask = mask;
  r.size = size;

  g_return_val_if_fail (addr != NULL, r);
  g_return_val_if_fail (size == 1 || size == 2 || size == 4 || size == 8 || size == 16, r);

  /* Phases: the whole warp up to 32 bits, half-warps for 64 bits, quarter
   * warps for 128 bits (Programming Guide, CC 2.x/3.x text; see the header). */
  r.n_phases = size <= 4 ? 1 : size / 4;
  lanes_per_phase = KS_MEM_WARP_SIZE / r.n_phases;

  for (p = 0; p < r.n_phases; p++)
    {
      uint32_t group = lanes_per_phase == 32 ? 0xffffffffu
                       : ((1u << lanes_per_phase) - 1) << (p * lanes_per_phase);

      phase_mask[p] = mask & group;
      phase_degree[p] = cost_group (addr, size, phase_mask[p], lane_pass,
                                    phase_banks[p], phase_word[p]);
    }

  for (lane = 0; lane < KS_MEM_WARP_SIZE; lane++)
    if (mask & (1u << lane))
      {
        uint64_t first = addr[lane] / KS_SMEM_BANK_BYTES;
        uint32_t n = lane_n_words (addr[lane], size);
        uint32_t k;

        for (k = 0; k < n; k++)
          r.lane_banks[lane] |= 1u << ((first + k) % KS_SMEM_BANKS);
      }

  for (p = 0; p < r.n_phases; p++)
    {
      for (b = 0; b < KS_SMEM_BANKS; b++)
        r.bank_words[b] = MAX (r.bank_words[b], phase_banks[p][b]);
      r.conflict_degree = MAX (r.conflict_degree, phase_degree[p]);
    }

  /* Walk the phases in order, handing out wavefront numbers.  ESTIMATE (see
   * the header): for loads, a pair of adjacent phases (0+1, 2+3) whose
   * union needs a single pass is served in one wavefront.  Both being
   * conflict-free, the union is iff no bank holds a different word in each. */
  for (p = 0; p < r.n_phases; p++)
    {
      uint32_t base = r.wavefronts;
      uint32_t m;

      if (!is_store && r.n_phases > 1 && p % 2 == 0
          && phase_degree[p] == 1 && phase_degree[p + 1] == 1)
        {
          uint32_t both = phase_mask[p] | phase_mask[p + 1];
          bool fits = true;

          for (b = 0; b < KS_SMEM_BANKS && fits; b++)
            fits = !(phase_banks[p][b] && phase_banks[p + 1][b]
                     && phase_word[p][b] != phase_word[p + 1][b]);
          if (fits)
            {
              for (m = both; m != 0; m &= m - 1)
                r.lane_wavefront[__builtin_ctz (m)] = (uint8_t) base;
              r.wavefronts++;
              r.ideal_wavefronts++;
              r.merged = true;
              p++;
              continue;
            }
        }

      if (phase_degree[p] == 0)
        continue;
      for (m = phase_mask[p]; m != 0; m &= m - 1)
        {
          lane = (uint32_t) __builtin_ctz (m);
          r.lane_wavefront[lane] = (uint8_t) (base + lane_pass[lane]);
        }
      r.wavefronts += phase_degree[p];
      r.ideal_wavefronts++;
    }

  r.extra_wavefronts = r.wavefronts - r.ideal_wavefronts;
  return r;
}

/* ks_smem_cost's shortcut for 64- and 128-bit requests (LDS.64, LDS.128)
 * whose lanes are aligned to their size and whose phases are each
 * conflict-free: the wavefronts ks_smem_analyze gives them (one a phase
 * that has lanes, one for a pair of load phases whose union still finds
 * one word a bank), without its per-lane passes.  FALSE for any other
 * request, which ks_smem_analyze then costs. */
static bool
smem_cost_wide (const uint64_t addr[KS_MEM_WARP_SIZE],
                uint32_t       size,
                uint32_t       mask,
                bool           is_store,
                uint32_t      *wavefronts)
{
  /* An aligned lane's words are one chunk of SIZE bytes in consecutive
   * banks, so a phase is conflict-free when each of the 32 / (SIZE / 4)
   * chunk positions across the banks holds one chunk */
  uint32_t n_phases = size / KS_SMEM_BANK_BYTES, per = KS_MEM_WARP_SIZE / n_phases;
  uint32_t n_slots = KS_SMEM_BANKS / (size / KS_SMEM_BANK_BYTES);
  uint64_t slot[4][KS_SMEM_BANKS / 2];
  uint32_t present[4] = { 0, 0, 0, 0 };
  uint32_t wf = 0, p, m;

  for (p = 0; p < n_phases; p++)
    {
      uint32_t pm = (mask >> (p * per)) & ((1u << per) - 1);
      const uint64_t *pa = addr + p * per;
      uint64_t misaligned = 0, differ = 0;

      /* each position gets its lanes' chunks; then every lane must find
       * its own there */
      for (m = pm; m != 0; m &= m - 1)
        {
          uint64_t a = pa[__builtin_ctz (m)], c = a / size;

          misaligned |= a % size;
          slot[p][c % n_slots] = c;
          present[p] |= 1u << (c % n_slots);
        }
      for (m = pm; m != 0; m &= m - 1)
        {
          uint64_t c = pa[__builtin_ctz (m)] / size;

          differ |= slot[p][c % n_slots] ^ c;
        }
      if ((misaligned | differ) != 0)
        return false;
    }

  for (p = 0; p < n_phases; p++)
    {
      if (!is_store && p % 2 == 0 && present[p] != 0 && present[p + 1] != 0)
        {
          bool fits = true;

          for (m = present[p] & present[p + 1]; m != 0 && fits; m &= m - 1)
            fits = slot[p][__builtin_ctz (m)] == slot[p + 1][__builtin_ctz (m)];
          if (fits)
            {
              wf++;
              p++;
              continue;
            }
        }
      wf += present[p] != 0;
    }
  *wavefronts = wf;
  return true;
}

void
ks_smem_cost (const uint64_t addr[KS_MEM_WARP_SIZE],
              uint32_t       size,
              uint32_t       mask,
              bool           is_store,
              uint32_t      *wavefronts,
              uint32_t      *ideal_wavefronts,
              uint32_t      *conflict_degree)
{
  if (mask == 0xffffffffu && size <= KS_SMEM_BANK_BYTES)
    {
      /* One phase, each lane within one word: conflict-free, one wavefront,
       * unless a bank is asked for two different words.  Without a branch
       * per lane: each bank's slot is written with its lanes' words, then
       * every lane must find its own word there. */
      uint64_t slot[KS_SMEM_BANKS];
      uint64_t room = KS_SMEM_BANK_BYTES - size, over = 0, differ = 0;
      uint32_t l;

      for (l = 0; l < KS_MEM_WARP_SIZE; l++)
        {
          uint64_t w = addr[l] / KS_SMEM_BANK_BYTES;

          over |= room - addr[l] % KS_SMEM_BANK_BYTES;
          slot[w % KS_SMEM_BANKS] = w;
        }
      for (l = 0; l < KS_MEM_WARP_SIZE; l++)
        {
          uint64_t w = addr[l] / KS_SMEM_BANK_BYTES;

          differ |= slot[w % KS_SMEM_BANKS] ^ w;
        }
      if ((over >> 63) == 0 && differ == 0)
        {
          *wavefronts = *ideal_wavefronts = *conflict_degree = 1;
          return;
        }
    }
  else if (mask != 0 && size <= KS_SMEM_BANK_BYTES)
    {
      /* the same for the lanes of a partial warp, lane by lane */
      uint64_t word[KS_SMEM_BANKS];
      uint32_t seen = 0, m;

      for (m = mask; m != 0; m &= m - 1)
        {
          uint64_t a = addr[__builtin_ctz (m)];
          uint64_t w = a / KS_SMEM_BANK_BYTES;
          uint32_t bank = (uint32_t) (w % KS_SMEM_BANKS);

          if (a % KS_SMEM_BANK_BYTES + size > KS_SMEM_BANK_BYTES)
            break;
          if (!(seen & (1u << bank)))
            {
              seen |= 1u << bank;
              word[bank] = w;
            }
          else if (word[bank] != w)
            break;
        }
      if (m == 0)
        {
          *wavefronts = *ideal_wavefronts = *conflict_degree = 1;
          return;
        }
    }

  else if ((size == 8 || size == 16) && mask != 0
           && smem_cost_wide (addr, size, mask, is_store, wavefronts))
    {
      *ideal_wavefronts = *wavefronts;
      *conflict_degree = 1;
      return;
    }

  {
    KsSmemAnalysis r = ks_smem_analyze (addr, size, mask, is_store);

    *wavefronts = r.wavefronts;
    *ideal_wavefronts = r.ideal_wavefronts;
    *conflict_degree = r.conflict_degree;
  }
}

/* ---- global memory ----------------------------------------------------------- */

/* Insert v into the sorted array a[0..*n) unless present.  Requests are
 * mostly in address order, so the scan from the end is short. */
static void
sorted_insert (uint64_t *a, uint32_t *n, uint64_t v)
{
  uint32_t i = *n;

  while (i > 0 && a[i - 1] > v)
    i--;
  if (i > 0 && a[i - 1] == v)
    return;
  memmove (a + i + 1, a + i, (*n - i) * sizeof *a);
  a[i] = v;
  (*n)++;
}

static uint32_t
sorted_find (const uint64_t *a, uint32_t n, uint64_t v)
{
  uint32_t lo = 0, hi = n;

  while (lo < hi)
    {
      uint32_t mid = (lo + hi) / 2;

      if (a[mid] < v)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_assert (lo < n && a[lo] == v);
  return lo;
}

KsGmemAnalysis
ks_gmem_analyze (const uint64_t addr[KS_MEM_WARP_SIZE],
                 uint32_t       size,
                 uint32_t       mask)
{
  KsGmemAnalysis r;
  /* bytes of each sector that an earlier lane read too */
  uint32_t shared[KS_GMEM_MAX_SECTORS] = { 0 };
  uint32_t last_s = 0, broadcast = 0, single = 0;
  uint32_t m, i;

  memset (&r, 0, sizeof r);
  memset (r.lane_sector, KS_MEM_LANE_NONE, sizeof r.lane_sector);
  r.active_mask = mask;
  r.size = size;

  g_return_val_if_fail (addr != NULL, r);
  g_return_val_if_fail (size == 1 || size == 2 || size == 4 || size == 8 || size == 16, r);

  for (m = mask; m != 0; m &= m - 1)
    {
      uint32_t lane = (uint32_t) __builtin_ctz (m);
      uint64_t first = addr[lane] & ~(uint64_t) (KS_GMEM_SECTOR_BYTES - 1);

      sorted_insert (r.sectors, &r.n_sectors, first);
      /* size <= 16 < 32: at most one more sector, the next one (which wraps
       * to 0 past the top of the address space; the lookup below copes). */
      if (addr[lane] % KS_GMEM_SECTOR_BYTES + size > KS_GMEM_SECTOR_BYTES)
        sorted_insert (r.sectors, &r.n_sectors, first + KS_GMEM_SECTOR_BYTES);
      r.requested_bytes += size;
    }

  for (m = mask; m != 0; m &= m - 1)
    {
      uint32_t lane = (uint32_t) __builtin_ctz (m);
      uint64_t a = addr[lane];
      uint64_t first = a & ~(uint64_t) (KS_GMEM_SECTOR_BYTES - 1);
      uint32_t done = 0;
      uint32_t s;

      /* Neighbouring lanes mostly share a sector: try the last one first. */
      if (r.sectors[last_s] == first)
        s = last_s;
      else
        s = last_s = sorted_find (r.sectors, r.n_sectors, first);

      r.lane_sector[lane] = (uint8_t) s;
      r.lane_n_sectors[lane] = 1;
      while (done < size)
        {
          uint32_t off = (uint32_t) ((a + done) % KS_GMEM_SECTOR_BYTES);
          uint32_t n = MIN (size - done, KS_GMEM_SECTOR_BYTES - off);
          /* n <= 16 bytes, so the shift never reaches 32. */
          uint32_t bits = ((1u << n) - 1) << off;

          if (done > 0)
            {
              s = sorted_find (r.sectors, r.n_sectors, first + KS_GMEM_SECTOR_BYTES);
              r.lane_n_sectors[lane] = 2;
            }
          shared[s] |= r.sector_bytes[s] & bits;
          r.sector_bytes[s] |= bits;
          done += n;
        }
    }

  for (i = 0; i < r.n_sectors; i++)
    {
      uint64_t line = r.sectors[i] & ~(uint64_t) (KS_GMEM_LINE_BYTES - 1);

      /* Sectors are sorted, so equal lines are adjacent. */
      if (r.n_lines == 0 || r.lines[r.n_lines - 1] != line)
        r.lines[r.n_lines++] = line;
      r.unique_bytes += popcount32 (r.sector_bytes[i]);
      if (shared[i] != 0)
        broadcast++;
      else
        single += popcount32 (r.sector_bytes[i]);
    }

  r.transferred_bytes = r.n_sectors * KS_GMEM_SECTOR_BYTES;
  r.ideal_sectors = broadcast + (single + KS_GMEM_SECTOR_BYTES - 1) / KS_GMEM_SECTOR_BYTES;
  r.efficiency = r.transferred_bytes ? (double) r.requested_bytes / r.transferred_bytes : 0.0;
  return r;
}

void
ks_gmem_cost (const uint64_t addr[KS_MEM_WARP_SIZE],
              uint32_t       size,
              uint32_t       mask,
              KsGmemCost    *cost)
{
  uint32_t bytes[KS_GMEM_MAX_SECTORS], shared[KS_GMEM_MAX_SECTORS];
  uint32_t n = 0, unique = 0, lanes = 0, broadcast = 0, single = 0;
  uint64_t prev = 0;
  uint32_t m;

  /* The commonest request of all: a whole warp reading or writing one run
   * of bytes, lane after lane, each lane aligned to its size.  No byte is
   * shared and no lane crosses a sector, so the counts follow from where
   * the run starts and ends (a compare the compiler vectorises). */
  if (mask == 0xffffffffu && (size == 1 || size == 2 || size == 4 || size == 8 || size == 16)
      && addr[0] % size == 0)
    {
      uint64_t a0 = addr[0], differ = 0;

      for (uint32_t l = 0; l < KS_MEM_WARP_SIZE; l++)
        differ |= addr[l] ^ (a0 + (uint64_t) l * size);
      if (differ == 0)
        {
          uint64_t last = a0 + KS_MEM_WARP_SIZE * size - 1;
          uint64_t first_sector = a0 & ~(uint64_t) (KS_GMEM_SECTOR_BYTES - 1);

          cost->n_sectors = (uint32_t) ((last - first_sector) / KS_GMEM_SECTOR_BYTES + 1);
          for (uint32_t i = 0; i < cost->n_sectors; i++)
            cost->sectors[i] = first_sector + (uint64_t) i * KS_GMEM_SECTOR_BYTES;
          cost->n_lines = (uint32_t) (last / KS_GMEM_LINE_BYTES - a0 / KS_GMEM_LINE_BYTES + 1);
          cost->requested_bytes = cost->unique_bytes = KS_MEM_WARP_SIZE * size;
          /* as ks_gmem_analyze counts it: every byte one lane's */
          cost->ideal_sectors = (KS_MEM_WARP_SIZE * size + KS_GMEM_SECTOR_BYTES - 1)
                                / KS_GMEM_SECTOR_BYTES;
          return;
        }
    }

  if (mask != 0 && (size == 1 || size == 2 || size == 4 || size == 8 || size == 16))
    {
      for (m = mask; m != 0; m &= m - 1)
        {
          uint64_t a = addr[__builtin_ctz (m)];
          uint32_t off = (uint32_t) (a % KS_GMEM_SECTOR_BYTES);

          if (a < prev || off + size > KS_GMEM_SECTOR_BYTES)
            break;
          prev = a;
          if (n == 0 || cost->sectors[n - 1] != a - off)
            {
              cost->sectors[n] = a - off;
              shared[n] = 0;
              bytes[n++] = 0;
            }
          shared[n - 1] |= bytes[n - 1] & (((1u << size) - 1) << off);
          bytes[n - 1] |= ((1u << size) - 1) << off;
          lanes++;
        }
      if (m == 0)
        {
          /* sectors in address order, as ks_gmem_analyze sorts them */
          cost->n_sectors = n;
          cost->n_lines = 0;
          for (uint32_t i = 0; i < n; i++)
            {
              uint64_t line = cost->sectors[i] & ~(uint64_t) (KS_GMEM_LINE_BYTES - 1);

              if (i == 0 || line != (cost->sectors[i - 1] & ~(uint64_t) (KS_GMEM_LINE_BYTES - 1)))
                cost->n_lines++;
              unique += popcount32 (bytes[i]);
              if (shared[i] != 0)
                broadcast++;
              else
                single += popcount32 (bytes[i]);
            }
          /* as ks_gmem_analyze counts it */
          cost->ideal_sectors = broadcast
                                + (single + KS_GMEM_SECTOR_BYTES - 1) / KS_GMEM_SECTOR_BYTES;
          cost->requested_bytes = lanes * size;
          cost->unique_bytes = unique;
          return;
        }
    }

  {
    KsGmemAnalysis r = ks_gmem_analyze (addr, size, mask);

    cost->n_sectors = r.n_sectors;
    cost->n_lines = r.n_lines;
    cost->ideal_sectors = r.ideal_sectors;
    cost->requested_bytes = r.requested_bytes;
    cost->unique_bytes = r.unique_bytes;
    memcpy (cost->sectors, r.sectors, r.n_sectors * sizeof *r.sectors);
  }
}

/* ---- cache model -------------------------------------------------------------- */

#define NO_TAG G_MAXUINT64

struct _KsCache
{
  uint32_t size_bytes;
  uint32_t line_bytes;
  uint32_t sector_bytes;
  uint32_t ways;
  uint32_t n_sets;
  uint32_t set_mask;            /* n_sets - 1 when a power of two, else 0 */
  uint32_t line_shift;
  uint32_t sector_shift;
  KsCacheWritePolicy policy;
  uint64_t clock;               /* LRU time stamps */
  size_t last;                  /* the entry of the last line looked up */

  /* n_sets * ways entries each, way-major within a set. */
  uint64_t *tag;                /* line address (addr >> line_shift) or NO_TAG */
  uint64_t *stamp;              /* last use */
  uint32_t *valid;              /* sectors present, one bit each */
  uint32_t *dirty;              /* sectors written and not yet written back */

  KsCacheStats stats;
};

KsCache *
ks_cache_new (uint32_t size_bytes,
              uint32_t line_bytes,
              uint32_t sector_bytes,
              uint32_t ways)
{
  KsCache *c;
  size_t n;

  g_return_val_if_fail (line_bytes > 0 && (line_bytes & (line_bytes - 1)) == 0, NULL);
  g_return_val_if_fail (sector_bytes > 0 && (sector_bytes & (sector_bytes - 1)) == 0, NULL);
  g_return_val_if_fail (sector_bytes <= line_bytes && line_bytes / sector_bytes <= 32, NULL);
  g_return_val_if_fail (ways > 0, NULL);
  g_return_val_if_fail (size_bytes > 0 && size_bytes % ((uint64_t) line_bytes * ways) == 0, NULL);

  c = g_new0 (KsCache, 1);
  c->size_bytes = size_bytes;
  c->line_bytes = line_bytes;
  c->sector_bytes = sector_bytes;
  c->ways = ways;
  c->n_sets = size_bytes / (line_bytes * ways);
  c->set_mask = (c->n_sets & (c->n_sets - 1)) == 0 ? c->n_sets - 1 : 0;
  c->line_shift = (uint32_t) __builtin_ctz (line_bytes);
  c->sector_shift = (uint32_t) __builtin_ctz (sector_bytes);
  c->policy = KS_CACHE_WRITE_BACK;

  n = (size_t) c->n_sets * ways;
  c->tag = g_new (uint64_t, n);
  c->stamp = g_new (uint64_t, n);
  c->valid = g_new (uint32_t, n);
  c->dirty = g_new (uint32_t, n);
  ks_cache_reset (c);
  return c;
}

void
ks_cache_free (KsCache *cache)
{
  if (cache == NULL)
    return;
  g_free (cache->tag);
  g_free (cache->stamp);
  g_free (cache->valid);
  g_free (cache->dirty);
  g_free (cache);
}

void
ks_cache_set_write_policy (KsCache            *cache,
                           KsCacheWritePolicy  policy)
{
  g_return_if_fail (cache != NULL);
  g_return_if_fail (policy == KS_CACHE_WRITE_BACK || policy == KS_CACHE_WRITE_THROUGH);

  cache->policy = policy;
}

KsCacheWritePolicy
ks_cache_get_write_policy (const KsCache *cache)
{
  g_return_val_if_fail (cache != NULL, KS_CACHE_WRITE_BACK);

  return cache->policy;
}

void
ks_cache_reset (KsCache *cache)
{
  size_t i, n;

  g_return_if_fail (cache != NULL);

  n = (size_t) cache->n_sets * cache->ways;
  for (i = 0; i < n; i++)
    cache->tag[i] = NO_TAG;
  memset (cache->stamp, 0, n * sizeof *cache->stamp);
  memset (cache->valid, 0, n * sizeof *cache->valid);
  memset (cache->dirty, 0, n * sizeof *cache->dirty);
  memset (&cache->stats, 0, sizeof cache->stats);
  cache->clock = 0;
}

const KsCacheStats *
ks_cache_get_stats (const KsCache *cache)
{
  g_return_val_if_fail (cache != NULL, NULL);

  return &cache->stats;
}

uint32_t
ks_cache_get_n_sets (const KsCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);

  return cache->n_sets;
}

KsCacheResult
ks_cache_access (KsCache  *cache,
                 uint64_t  addr,
                 bool      is_store)
{
  uint64_t line = addr >> cache->line_shift;
  uint32_t sectors_per_line = cache->line_bytes >> cache->sector_shift;
  uint32_t bit = 1u << ((addr >> cache->sector_shift) & (sectors_per_line - 1));
  uint32_t set = cache->set_mask ? (uint32_t) (line & cache->set_mask)
                                 : (uint32_t) (line % cache->n_sets);
  size_t base = (size_t) set * cache->ways;
  bool write_back = cache->policy == KS_CACHE_WRITE_BACK;
  size_t victim = base, hit = SIZE_MAX;
  uint32_t w;

  cache->clock++;
  if (is_store && !write_back)
    cache->stats.write_throughs++;

  /* A request's sectors mostly share lines: the entry of the last line
   * looked up is tried first (a line is in one way of its set only, so
   * this finds what the search would) */
  if (cache->tag[cache->last] == line)
    hit = cache->last;
  else
    for (w = 0; w < cache->ways; w++)
      {
        size_t i = base + w;

        if (cache->tag[i] == line)
          {
            hit = i;
            break;
          }
        /* Invalid ways first, then the least recently used. */
        if (cache->tag[victim] != NO_TAG
            && (cache->tag[i] == NO_TAG || cache->stamp[i] < cache->stamp[victim]))
          victim = i;
      }

  if (hit != SIZE_MAX)
    {
      KsCacheResult res = (cache->valid[hit] & bit) ? KS_CACHE_HIT : KS_CACHE_SECTOR_MISS;

      cache->last = hit;
      if (is_store)
        {
          if (res == KS_CACHE_HIT)
            cache->stats.store_hits++;
          else
            cache->stats.store_sector_misses++;
          if (write_back)
            {
              cache->valid[hit] |= bit;
              cache->dirty[hit] |= bit;
            }
          else if (res != KS_CACHE_HIT)
            /* No write-allocate: the sector stays absent, and a store
             * does not count as a use of the line. */
            return res;
        }
      else
        {
          if (res == KS_CACHE_HIT)
            cache->stats.load_hits++;
          else
            cache->stats.load_sector_misses++;
          cache->valid[hit] |= bit;
        }
      cache->stamp[hit] = cache->clock;
      return res;
    }

  if (is_store)
    {
      cache->stats.store_line_misses++;
      if (!write_back)
        return KS_CACHE_LINE_MISS;
    }
  else
    cache->stats.load_line_misses++;

  if (cache->tag[victim] != NO_TAG)
    {
      cache->stats.evictions++;
      cache->stats.writebacks += popcount32 (cache->dirty[victim]);
    }
  cache->tag[victim] = line;
  cache->last = victim;
  cache->valid[victim] = bit;
  cache->dirty[victim] = is_store ? bit : 0;
  cache->stamp[victim] = cache->clock;
  return KS_CACHE_LINE_MISS;
}
