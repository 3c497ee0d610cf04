/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-mbarrier.c: the mbarrier object's phases, arrivals and tx-count. */

#include "ks-sim-mbarrier.h"

#define COUNT_MASK ((1u << 20) - 1)
#define TX_BITS 22

uint64_t
ks_mbar_pack (const KsMbarrier *m)
{
  uint64_t tx = (uint64_t) (int64_t) m->tx & ((G_GUINT64_CONSTANT (1) << TX_BITS) - 1);

  return (uint64_t) (m->pending & COUNT_MASK) | (uint64_t) (m->expected & COUNT_MASK) << 20
         | tx << 40 | (uint64_t) (m->phase & 1) << 63;
}

void
ks_mbar_unpack (uint64_t    bits,
                KsMbarrier *m)
{
  uint32_t tx = (uint32_t) (bits >> 40) & ((1u << TX_BITS) - 1);

  m->pending = (uint32_t) bits & COUNT_MASK;
  m->expected = (uint32_t) (bits >> 20) & COUNT_MASK;
  /* sign-extend the 22-bit field */
  m->tx = (int32_t) (tx ^ (1u << (TX_BITS - 1))) - (1 << (TX_BITS - 1));
  m->phase = (uint32_t) (bits >> 63);
}

const char *
ks_mbar_error_string (KsMbarError error)
{
  switch (error)
    {
    case KS_MBAR_BAD_COUNT: return "a count outside 1 to 2^20 - 1";
    case KS_MBAR_OVER_ARRIVAL: return "more arrivals than the current phase has pending";
    case KS_MBAR_TX_RANGE: return "a tx-count outside -(2^20 - 1) to 2^20 - 1";
    case KS_MBAR_COMPLETES: return "a .noComplete arrival that completes the phase";
    case KS_MBAR_OK:
    default: return "no error";
    }
}

static void
settle (KsMbarrier *m)
{
  if (m->pending == 0 && m->tx == 0)
    {
      m->phase ^= 1;
      m->pending = m->expected;
    }
}

KsMbarError
ks_mbar_init (KsMbarrier *m,
              uint32_t    count)
{
  if (count == 0 || count > KS_MBAR_MAX_COUNT)
    return KS_MBAR_BAD_COUNT;
  m->phase = 0;
  m->pending = m->expected = count;
  m->tx = 0;
  return KS_MBAR_OK;
}

KsMbarError
ks_mbar_arrive (KsMbarrier *m,
                uint32_t    count,
                bool        drop,
                bool        no_complete)
{
  if (count == 0 || count > KS_MBAR_MAX_COUNT)
    return KS_MBAR_BAD_COUNT;
  if (count > m->pending || (drop && count > m->expected))
    return KS_MBAR_OVER_ARRIVAL;
  if (no_complete && count == m->pending && m->tx == 0)
    return KS_MBAR_COMPLETES;
  if (drop)
    m->expected -= count;
  m->pending -= count;
  settle (m);
  return KS_MBAR_OK;
}

static KsMbarError
add_tx (KsMbarrier *m,
        int64_t     delta)
{
  int64_t tx = (int64_t) m->tx + delta;

  if (tx > KS_MBAR_MAX_TX || tx < -KS_MBAR_MAX_TX)
    return KS_MBAR_TX_RANGE;
  m->tx = (int32_t) tx;
  settle (m);
  return KS_MBAR_OK;
}

KsMbarError
ks_mbar_expect_tx (KsMbarrier *m,
                   uint32_t    bytes)
{
  return add_tx (m, bytes);
}

KsMbarError
ks_mbar_complete_tx (KsMbarrier *m,
                     uint32_t    bytes)
{
  return add_tx (m, -(int64_t) bytes);
}

bool
ks_mbar_test_state (const KsMbarrier *m,
                    uint64_t          state)
{
  return (uint32_t) (state >> 63) != m->phase;
}

bool
ks_mbar_test_parity (const KsMbarrier *m,
                     uint32_t          parity)
{
  return (parity & 1) != m->phase;
}

uint32_t
ks_mbar_state_pending (uint64_t state)
{
  return (uint32_t) state & COUNT_MASK;
}
