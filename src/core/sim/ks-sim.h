/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim.h: the functional SIMT simulator.
 *
 * A KsSim runs one kernel launch of a parsed module on the CPU, warp by
 * warp, and computes its real results in simulated memory.  It is plain C
 * and holds no GObjects; the app drives it from a GTask and may stop it at
 * any instruction boundary and go on later (ks_sim_run with a step budget). */
#pragma once

#include <gio/gio.h>
#include <stdint.h>

#include "ks-launch.h"
#include "ks-ptx.h"

G_BEGIN_DECLS

typedef struct _KsSim KsSim;

typedef enum
{
  KS_SIM_READY = 0,             /* created, or stopped with work left */
  KS_SIM_DONE,                  /* every thread exited */
  KS_SIM_FAULTED,               /* stopped by a fault; see ks_sim_get_fault() */
  KS_SIM_CANCELLED,
} KsSimStatus;

typedef enum
{
  KS_SIM_FAULT_NONE = 0,
  KS_SIM_FAULT_OUT_OF_BOUNDS,
  KS_SIM_FAULT_MISALIGNED,
  KS_SIM_FAULT_DEADLOCK,
  KS_SIM_FAULT_TRAP,
  KS_SIM_FAULT_STEP_LIMIT,
  KS_SIM_FAULT_UNSUPPORTED,
  KS_SIM_FAULT_STACK_OVERFLOW,
} KsSimFaultKind;

typedef struct
{
  KsSimFaultKind kind;
  char *message;
  uint32_t ptx_line;            /* 0 when not at an instruction */
  char *cuda_file;              /* NULL when unknown */
  uint32_t cuda_line;
  uint32_t block[3];
  uint32_t thread[3];
  uint64_t address;             /* for memory faults */
  gboolean has_address;
} KsSimFault;

typedef struct
{
  uint64_t warp_instructions;   /* warp-instructions issued (predicated-off lanes included) */
  uint64_t thread_instructions; /* lanes that executed them */
  double seconds;               /* wall time spent in ks_sim_run */
} KsSimStats;

#define KS_SIM_ERROR (ks_sim_error_quark ())
GQuark ks_sim_error_quark (void);

typedef enum
{
  KS_SIM_ERROR_NO_KERNEL,
  KS_SIM_ERROR_BAD_LAUNCH,
  KS_SIM_ERROR_MODULE_HAS_ERRORS,
} KsSimError;

/* Creates a simulation of `launch` on `module`, which must outlive it.
 * Checks the launch against the kernel (parameter count, types and sizes,
 * shared memory) and returns NULL with an error that says what is wrong. */
KsSim              *ks_sim_new          (const KsPtxModule *module,
                                         const KsLaunch    *launch,
                                         GError           **error);
void                ks_sim_free         (KsSim             *sim);

/* Runs until the kernel ends, faults, is cancelled, or `max_steps`
 * warp-instructions have been executed in this call (0 = no limit). */
KsSimStatus         ks_sim_run          (KsSim             *sim,
                                         uint64_t           max_steps,
                                         GCancellable      *cancellable);
/* After this many warp-instructions in total the run faults with
 * KS_SIM_FAULT_STEP_LIMIT (0 = no limit, the default is 1e10). */
void                ks_sim_set_step_limit (KsSim           *sim,
                                           uint64_t         limit);

KsSimStatus         ks_sim_get_status   (const KsSim       *sim);
const KsSimFault   *ks_sim_get_fault    (const KsSim       *sim);
const KsSimStats   *ks_sim_get_stats    (const KsSim       *sim);
/* The text the kernel printed with printf, in the order it was printed. */
const char         *ks_sim_get_printf   (const KsSim       *sim);
/* The current contents of launch buffer `index`. */
const uint8_t      *ks_sim_get_buffer   (const KsSim       *sim,
                                         uint32_t           index,
                                         size_t            *size);
const char         *ks_sim_fault_kind_name (KsSimFaultKind  kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsSim, ks_sim_free)

G_END_DECLS
