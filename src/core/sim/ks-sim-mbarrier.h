/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-mbarrier.h: the mbarrier object's state machine (PTX ISA,
 * "Parallel Synchronization and Communication Instructions: mbarrier").
 *
 * Pure functions over a KsMbarrier; the executor loads it from and stores
 * it to the object's 64 bits of shared memory.  The ISA leaves those bits
 * opaque; this simulator lays them out as
 *   bits  0-19  pending arrival count
 *   bits 20-39  expected arrival count
 *   bits 40-61  tx-count, two's complement
 *   bit  63     the current phase's parity
 * and the opaque state that mbarrier.arrive returns is the object's 64 bits
 * before the arrival, so that mbarrier.test_wait can compare its phase and
 * mbarrier.pending_count read its pending count.
 *
 * A phase completes when its pending arrival count and its tx-count are
 * both zero: the phase advances, the pending count is reset to the
 * expected count and the tx-count to zero.  Only the phase's parity is
 * kept, as on hardware, so a wait can only tell the current phase from the
 * one before it ("valid only for the current incomplete phase ... and the
 * immediately preceding phase").
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

G_BEGIN_DECLS

/* The ISA's limits: counts 1 to 2^20 - 1, tx-count -(2^20 - 1) to 2^20 - 1 */
#define KS_MBAR_MAX_COUNT ((1u << 20) - 1)
#define KS_MBAR_MAX_TX ((1 << 20) - 1)

typedef struct
{
  uint32_t phase;               /* parity: 0 or 1 */
  uint32_t pending;
  uint32_t expected;
  int32_t tx;
} KsMbarrier;

/* What a misuse was; the ISA leaves each of these undefined. */
typedef enum
{
  KS_MBAR_OK = 0,
  KS_MBAR_BAD_COUNT,            /* a count of 0 or above 2^20 - 1 */
  KS_MBAR_OVER_ARRIVAL,         /* more arrivals than the phase has pending */
  KS_MBAR_TX_RANGE,             /* the tx-count leaves its range */
  KS_MBAR_COMPLETES,            /* .noComplete, but the arrival completes the phase */
} KsMbarError;

uint64_t    ks_mbar_pack         (const KsMbarrier *m);
void        ks_mbar_unpack       (uint64_t          bits,
                                  KsMbarrier       *m);
const char *ks_mbar_error_string (KsMbarError       error);

/* mbarrier.init: phase 0, count expected and pending, tx-count 0 */
KsMbarError ks_mbar_init         (KsMbarrier       *m,
                                  uint32_t          count);
/* An arrive-on operation with count; with drop (arrive_drop) the expected
 * count of this and later phases is first lowered by count.  Checks before
 * it changes anything, so *m is unchanged when it fails. */
KsMbarError ks_mbar_arrive       (KsMbarrier       *m,
                                  uint32_t          count,
                                  bool              drop,
                                  bool              no_complete);
/* expect-tx and complete-tx operations: the tx-count rises or falls by
 * bytes; a complete-tx may complete the phase. */
KsMbarError ks_mbar_expect_tx    (KsMbarrier       *m,
                                  uint32_t          bytes);
KsMbarError ks_mbar_complete_tx  (KsMbarrier       *m,
                                  uint32_t          bytes);
/* test_wait / try_wait: whether the phase a state returned by arrive was
 * taken in has completed, or (.parity) the phase of that parity. */
bool        ks_mbar_test_state   (const KsMbarrier *m,
                                  uint64_t          state);
bool        ks_mbar_test_parity  (const KsMbarrier *m,
                                  uint32_t          parity);
/* mbarrier.pending_count of a state */
uint32_t    ks_mbar_state_pending (uint64_t         state);

G_END_DECLS
