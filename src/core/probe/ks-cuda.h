/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda.h: a real NVIDIA GPU through the CUDA driver, loaded at run time.
 *
 * KernelScope never links libcuda: ks_cuda_open() dlopens libcuda.so.1 (or
 * the file $KS_LIBCUDA names) and resolves the few driver entry points it
 * uses by their ABI names (cuMemAlloc_v2, ...), so the same binary runs on
 * a machine with no driver, where it says so.  A kernel is loaded from its
 * PTX (the driver compiles it for the device, the JIT's log kept for an
 * error), its launch spec's buffers are allocated and filled as the
 * simulator fills them, and each launch copies them in again, runs, waits
 * and lets the caller read any buffer back.
 *
 * What a launch spec can hold and this runner cannot (textures, surfaces,
 * module variables, a sequence of launches) is refused with a message,
 * never run half. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-launch.h"

G_BEGIN_DECLS

typedef struct _KsCuda KsCuda;
typedef struct _KsCudaKernel KsCudaKernel;

typedef struct
{
  int ordinal;
  char name[256];               /* "NVIDIA H200" */
  int major, minor;             /* compute capability */
  int sms;                      /* multiprocessors */
  int clock_khz;                /* the driver's "typical" SM clock */
  int driver_version;           /* 13000 for 13.0 */
} KsCudaDevice;

/* Loads the driver and initialises it; NULL with error when there is no
 * driver, it fails to start, or it sees no GPU */
KsCuda          *ks_cuda_open             (GError               **error);
void             ks_cuda_close            (KsCuda                *cuda);
/* The file loaded ("libcuda.so.1") */
const char      *ks_cuda_library          (const KsCuda          *cuda);
int              ks_cuda_device_count     (const KsCuda          *cuda);
gboolean         ks_cuda_device           (KsCuda                *cuda,
                                           int                    ordinal,
                                           KsCudaDevice          *device,
                                           GError               **error);
/* "sm_90" */
char            *ks_cuda_device_arch      (const KsCudaDevice    *device);

/* Loads @ptx on the device and prepares @launch's kernel, buffers and
 * parameters (the launch's first step); NULL with error, the JIT's log
 * included, when it cannot */
KsCudaKernel    *ks_cuda_kernel_new       (KsCuda                *cuda,
                                           int                    ordinal,
                                           const char            *ptx,
                                           const KsLaunch        *launch,
                                           GError               **error);
/* Copies the buffers' first contents in, launches once and waits for it */
gboolean         ks_cuda_kernel_launch    (KsCudaKernel          *kernel,
                                           GError               **error);
/* The buffer's bytes after the last launch (owned by the kernel, valid
 * until the next call); NULL with error */
const uint8_t   *ks_cuda_kernel_read      (KsCudaKernel          *kernel,
                                           guint                  buffer,
                                           size_t                *size,
                                           GError               **error);
void             ks_cuda_kernel_free      (KsCudaKernel          *kernel);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCuda, ks_cuda_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCudaKernel, ks_cuda_kernel_free)

G_END_DECLS
