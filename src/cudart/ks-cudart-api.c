/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cudart-api.c: the runtime API a program calls around its launches:
 * errors, the device, memory, symbols, streams and events
 * (ks-cudart-private.h). */
#define _GNU_SOURCE             /* mmap's MAP_ANONYMOUS and MAP_FIXED_NOREPLACE */
#include "ks-cudart-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ks-gpu-db.h"
#include "ks-launch.h"

/* The runtime version the stand-in answers as: CUDA 13.0 (CUDART_VERSION) */
#define KS_CUDART_VERSION 13000

/* ---- errors ---------------------------------------------------------------------------- */

static GRecMutex lock;
static __thread cudaError_t last_error;
static cudaError_t sticky_error;
static GHashTable *said;                /* functions reported as not supported */

void
ks_cudart_lock (void)
{
  g_rec_mutex_lock (&lock);
}

void
ks_cudart_unlock (void)
{
  g_rec_mutex_unlock (&lock);
}

cudaError_t
ks_cudart_return (cudaError_t err)
{
  if (err != cudaSuccess)
    last_error = err;
  return err;
}

cudaError_t
ks_cudart_sticky (void)
{
  return sticky_error;
}

void
ks_cudart_set_sticky (cudaError_t err)
{
  sticky_error = err;
}

void
ks_cudart_note (const char *format,
                ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  fflush (stdout);
  fprintf (stderr, "kernelscope: %s\n", text);
  fflush (stderr);
}

cudaError_t
ks_cudart_not_supported (const char *function)
{
  ks_cudart_lock ();
  if (said == NULL)
    said = g_hash_table_new (g_str_hash, g_str_equal);
  if (!g_hash_table_contains (said, function))
    {
      g_hash_table_add (said, (gpointer) function);
      ks_cudart_note ("%s is not supported by KernelScope's runtime: it returns "
                      "cudaErrorNotSupported (docs/RECORD.md lists what is)", function);
    }
  ks_cudart_unlock ();
  return ks_cudart_return (cudaErrorNotSupported);
}

typedef struct
{
  cudaError_t code;
  const char *name;
  const char *text;
} ErrorInfo;

/* The names and texts of driver_types.h / cudaGetErrorString */
static const ErrorInfo errors[] = {
  { cudaSuccess, "cudaSuccess", "no error" },
  { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
  { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
  { cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error" },
  { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
    "invalid configuration argument" },
  { cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
  { cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
  { cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer" },
  { cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer" },
  { cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
    "invalid copy direction for memcpy" },
  { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
  { cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
  { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
  { cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
    "no kernel image is available for execution on the device" },
  { cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
  { cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found" },
  { cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
  { cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
    "an illegal memory access was encountered" },
  { cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
    "too many resources requested for launch" },
  { cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout",
    "the launch timed out and was terminated" },
  { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
  { cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
    "part or all of the requested memory range is already mapped" },
  { cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
    "pointer does not correspond to a registered memory region" },
  { cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error" },
  { cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction",
    "an illegal instruction was encountered" },
  { cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address" },
  { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
  { cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
    "too many blocks in cooperative launch" },
  { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
  { cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
    "operation not permitted when stream is capturing" },
  { cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
    "operation failed due to a previous error during capture" },
  { cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
    "capture was not ended in the same stream as it began" },
  { cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",
    "operation would make the legacy stream depend on a capturing blocking stream" },
  { cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
    "the graph update was not performed because it included changes which violated "
    "constraints specific to instantiated graph update" },
  { cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

static const ErrorInfo *
error_info (cudaError_t e)
{
  for (size_t i = 0; i < G_N_ELEMENTS (errors); i++)
    if (errors[i].code == e)
      return &errors[i];
  return NULL;
}

CUDART_API const char *
cudaGetErrorString (cudaError_t e)
{
  const ErrorInfo *i = error_info (e);

  return i != NULL ? i->text : "unrecognized error code";
}

CUDART_API const char *
cudaGetErrorName (cudaError_t e)
{
  const ErrorInfo *i = error_info (e);

  return i != NULL ? i->name : "unrecognized error code";
}

CUDART_API cudaError_t
cudaGetLastError (void)
{
  cudaError_t e = sticky_error != cudaSuccess ? sticky_error : last_error;

  last_error = cudaSuccess;
  return e;
}

CUDART_API cudaError_t
cudaPeekAtLastError (void)
{
  return sticky_error != cudaSuccess ? sticky_error : last_error;
}

/* ---- the device -------------------------------------------------------------------------- */

static struct cudaDeviceProp props;
static KsGpuDb *gpu_db;                 /* read once, kept for the program's life */
static const KsGpuInfo *gpu;
static const KsArchInfo *arch;
static uint64_t memory_limit;
static gsize props_ready;
static int current_device;

static void
fill_props (void)
{
  g_autoptr(GError) error = NULL;
  KsGpuDb *db = gpu_db = ks_gpu_db_load_default (&error);
  const char *want = g_getenv ("KS_RECORD_GPU");
  struct cudaDeviceProp *p = &props;

  if (db == NULL)
    {
      ks_cudart_note ("the GPU database cannot be read: %s", error->message);
      _exit (70);
    }
  if (want != NULL && *want != '\0')
    {
      gpu = ks_gpu_db_get_gpu (db, want);
      if (gpu == NULL)
        {
          ks_cudart_note ("no GPU %s in the GPU database (kernelscope-cli gpus lists them)", want);
          _exit (64);
        }
    }
  else
    gpu = ks_gpu_db_representative_gpu (db, ks_gpu_db_get_arch (db, "sm_80"));
  arch = ks_gpu_db_get_arch (db, gpu->arch);

  memset (p, 0, sizeof *p);
  g_strlcpy (p->name, gpu->name, sizeof p->name);
  memcpy (p->uuid.bytes, "KernelScope mdl", 16);
  memory_limit = (uint64_t) (gpu->memory_gb * 1073741824.0);
  p->totalGlobalMem = memory_limit;
  p->sharedMemPerBlock = arch->shared_per_block_bytes;
  p->regsPerBlock = (int) arch->max_registers_per_block;
  p->warpSize = (int) arch->warp_size;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = (int) arch->max_threads_per_block;
  p->maxThreadsDim[0] = 1024; p->maxThreadsDim[1] = 1024; p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647; p->maxGridSize[1] = 65535; p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = (int) arch->compute_major;
  p->minor = (int) arch->compute_minor;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = (int) gpu->sm_count;
  p->canMapHostMemory = 1;
  p->surfaceAlignment = 512;
  p->concurrentKernels = 1;
  p->pciBusID = 1;
  p->asyncEngineCount = 2;
  p->unifiedAddressing = 1;
  p->l2CacheSize = (int) (gpu->l2_mb * 1048576.0);
  p->maxThreadsPerMultiProcessor = (int) arch->max_threads_per_sm;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = arch->shared_per_sm_bytes;
  p->regsPerMultiprocessor = (int) arch->registers_per_sm;
  p->managedMemory = 1;
  p->concurrentManagedAccess = 1;
  p->computePreemptionSupported = 1;
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = arch->shared_per_block_optin_bytes;
  p->maxBlocksPerMultiProcessor = (int) arch->max_blocks_per_sm;
  p->reservedSharedMemPerBlock = arch->shared_reserved_per_block_bytes;
  p->clusterLaunch = arch->compute_major >= 9;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
}

const struct cudaDeviceProp *
ks_cudart_props (void)
{
  if (g_once_init_enter (&props_ready))
    {
      fill_props ();
      g_once_init_leave (&props_ready, 1);
    }
  return &props;
}

const KsGpuInfo *
ks_cudart_gpu (void)
{
  ks_cudart_props ();
  return gpu;
}

const KsArchInfo *
ks_cudart_arch (void)
{
  ks_cudart_props ();
  return arch;
}

CUDART_API cudaError_t
cudaGetDeviceCount (int *count)
{
  if (count == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGetDevice (int *device)
{
  if (device == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *device = current_device;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaSetDevice (int device)
{
  if (device != 0)
    return ks_cudart_return (cudaErrorInvalidDevice);
  current_device = device;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaInitDevice (int device, unsigned int device_flags, unsigned int flags)
{
  (void) device_flags; (void) flags;
  return cudaSetDevice (device);
}

CUDART_API cudaError_t
cudaSetDeviceFlags (unsigned int flags)
{
  (void) flags;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGetDeviceFlags (unsigned int *flags)
{
  if (flags == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *flags = 0;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGetDeviceProperties (struct cudaDeviceProp *prop,
                         int                    device)
{
  if (prop == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (device != 0)
    return ks_cudart_return (cudaErrorInvalidDevice);
  *prop = *ks_cudart_props ();
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaChooseDevice (int                         *device,
                  const struct cudaDeviceProp *prop)
{
  (void) prop;
  if (device == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaDeviceGetAttribute (int *value,
                        int  attr,
                        int  device)
{
  const struct cudaDeviceProp *p = ks_cudart_props ();
  int v;

  if (value == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (device != 0)
    return ks_cudart_return (cudaErrorInvalidDevice);
  switch (attr)
    {
    case cudaDevAttrMaxThreadsPerBlock: v = p->maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p->maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p->maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p->maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p->maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p->maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p->maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int) p->sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int) p->totalConstMem; break;
    case cudaDevAttrWarpSize: v = p->warpSize; break;
    case cudaDevAttrMaxPitch: v = (int) p->memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: v = p->regsPerBlock; break;
    case cudaDevAttrTextureAlignment: v = (int) p->textureAlignment; break;
    case cudaDevAttrMultiProcessorCount: v = p->multiProcessorCount; break;
    case cudaDevAttrIntegrated: v = p->integrated; break;
    case cudaDevAttrCanMapHostMemory: v = p->canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: v = p->concurrentKernels; break;
    case cudaDevAttrEccEnabled: v = p->ECCEnabled; break;
    case cudaDevAttrL2CacheSize: v = p->l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p->maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p->asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: v = p->unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: v = p->major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p->minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int) p->sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p->regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p->managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: v = p->concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: v = p->cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int) p->sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p->maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = (int) p->reservedSharedMemPerBlock; break;
    case cudaDevAttrGpuOverlap: v = 1; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrComputeMode: v = 0; break;      /* cudaComputeModeDefault */
    case cudaDevAttrPciBusId: v = p->pciBusID; break;
    case cudaDevAttrPciDeviceId: v = p->pciDeviceID; break;
    case cudaDevAttrPciDomainId: v = p->pciDomainID; break;
    case cudaDevAttrTccDriver: v = 0; break;
    case cudaDevAttrStreamPrioritiesSupported: v = 1; break;
    case cudaDevAttrGlobalL1CacheSupported: v = 1; break;
    case cudaDevAttrLocalL1CacheSupported: v = 1; break;
    case cudaDevAttrIsMultiGpuBoard: v = 0; break;
    case cudaDevAttrComputePreemptionSupported: v = 1; break;
    case cudaDevAttrHostNativeAtomicSupported: v = 0; break;
    case cudaDevAttrPageableMemoryAccess: v = 0; break;
    case cudaDevAttrClockRate: v = (int) gpu->boost_clock_mhz * 1000; break;  /* kHz */
    default:
      {
        g_autofree char *what = g_strdup_printf ("cudaDeviceGetAttribute (attribute %d)", attr);

        ks_cudart_note ("%s: not known to the GPU database; it returns cudaErrorInvalidValue",
                        what);
        return ks_cudart_return (cudaErrorInvalidValue);
      }
    }
  *value = v;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaDriverGetVersion (int *version)
{
  if (version == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *version = KS_CUDART_VERSION;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaRuntimeGetVersion (int *version)
{
  if (version == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *version = KS_CUDART_VERSION;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaDeviceSynchronize (void)
{
  /* every call runs to its end before it returns */
  return sticky_error;
}

CUDART_API cudaError_t
cudaDeviceReset (void)
{
  ks_cudart_lock ();
  ks_cudart_finish ();
  ks_cudart_unlock ();
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaDeviceSetCacheConfig (int config)
{
  (void) config;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaFuncSetCacheConfig (const void *func, int config)
{
  (void) func; (void) config;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaDeviceSetLimit (int limit, size_t value)
{
  (void) limit; (void) value;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaProfilerStart (void)
{
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaProfilerStop (void)
{
  return cudaSuccess;
}

/* ---- memory ------------------------------------------------------------------------------ */

static GArray *allocs;                  /* KsCudartAlloc, by address */
static uint64_t next_addr = KS_CUDART_DEVICE_BASE;
static uint64_t allocated;
static uint32_t next_id;
static uint32_t next_array_id;

GArray *
ks_cudart_allocs (void)
{
  if (allocs == NULL)
    allocs = g_array_new (FALSE, TRUE, sizeof (KsCudartAlloc));
  return allocs;
}

/* The allocation holding [addr, addr + size]; a pointer one past the end
 * counts as in it when @size is 0 (as C allows) */
KsCudartAlloc *
ks_cudart_find_alloc (uint64_t addr,
                      uint64_t size)
{
  GArray *a = ks_cudart_allocs ();
  guint lo = 0, hi = a->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      KsCudartAlloc *m = &g_array_index (a, KsCudartAlloc, mid);

      if (addr < m->addr)
        hi = mid;
      else if (addr > m->addr + m->size)
        lo = mid + 1;
      else
        return (size == 0 || addr + size <= m->addr + m->size) && addr - m->addr <= m->size
               ? m : NULL;
    }
  return NULL;
}

/* Keeps the table in address order (registered host memory lies
 * elsewhere than the stand-in's own range) */
static void
insert_alloc (const KsCudartAlloc *a)
{
  GArray *all = ks_cudart_allocs ();
  guint i = all->len;

  while (i > 0 && g_array_index (all, KsCudartAlloc, i - 1).addr > a->addr)
    i--;
  g_array_insert_val (all, i, *a);
}

/* A new allocation of @size bytes (not 0) at the next device address,
 * the storage of @var when it is not NULL; the error, not yet returned
 * (ks_cudart_return), and a note when it cannot be made */
static cudaError_t
new_alloc (uint64_t      *addr,
           size_t         size,
           gboolean       host_visible,
           KsCudartVar   *var,
           KsCudartArray *array,
           const char    *what)
{
  KsCudartAlloc a = { 0 };
  uint64_t page = (uint64_t) sysconf (_SC_PAGESIZE);

  ks_cudart_props ();
  if (!host_visible && size > memory_limit - MIN (allocated, memory_limit))
    {
      g_autofree char *want = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *has = g_format_size_full (memory_limit - MIN (allocated, memory_limit),
                                                 G_FORMAT_SIZE_IEC_UNITS);

      ks_cudart_note ("%s of %s: the %s has %s left (cudaErrorMemoryAllocation)", what, want,
                      props.name, has);
      return cudaErrorMemoryAllocation;
    }
  /* 4 GiB is what a launch buffer of the simulator may hold */
  if (size > (G_GUINT64_CONSTANT (4) << 30))
    {
      ks_cudart_note ("%s of %zu bytes: KernelScope's simulator holds at most 4 GiB in one "
                      "allocation (cudaErrorMemoryAllocation)", what, size);
      return cudaErrorMemoryAllocation;
    }
  a.addr = next_addr;
  a.size = size;
  /* (a variable's storage is named after it: the program's allocations
   * keep their numbers) */
  a.id = var != NULL ? 0 : array != NULL ? next_array_id : next_id;
  a.var = var;
  a.array = array;
  a.host_visible = host_visible;
  if (host_visible)
    {
      void *p;

      a.mapped = (size + page - 1) / page * page;
      p = mmap ((void *) (uintptr_t) a.addr, a.mapped, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (p == MAP_FAILED || p != (void *) (uintptr_t) a.addr)
        {
          if (p != MAP_FAILED)
            munmap (p, a.mapped);
          ks_cudart_note ("%s of %zu bytes: the address 0x%" G_GINT64_MODIFIER "x cannot be "
                          "mapped (%s)", what, size, a.addr, g_strerror (errno));
          return cudaErrorMemoryAllocation;
        }
      a.data = p;
    }
  else
    {
      a.data = g_try_malloc0 (size);
      if (a.data == NULL)
        {
          ks_cudart_note ("%s of %zu bytes: this computer's memory ran out", what, size);
          return cudaErrorMemoryAllocation;
        }
      allocated += size;
    }
  if (array != NULL)
    next_array_id++;
  else if (var == NULL)
    next_id++;
  next_addr = (a.addr + MAX (a.mapped, size) + KS_CUDART_GUARD + page - 1) / page * page;
  insert_alloc (&a);
  *addr = a.addr;
  return cudaSuccess;
}

static cudaError_t
alloc (void     **ptr,
       size_t     size,
       gboolean   host_visible,
       const char *what)
{
  uint64_t addr = 0;
  cudaError_t e;

  if (ptr == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (size == 0)
    {
      *ptr = NULL;
      return cudaSuccess;
    }
  e = new_alloc (&addr, size, host_visible, NULL, NULL, what);
  if (e != cudaSuccess)
    return ks_cudart_return (e);
  *ptr = (void *) (uintptr_t) addr;
  return cudaSuccess;
}

char *
ks_cudart_alloc_name (const KsCudartAlloc *a)
{
  if (a->array != NULL)
    return g_strdup_printf ("array%u", a->id);
  if (a->var == NULL)
    return g_strdup_printf ("m%u", a->id);
  if (a->var->module->index == 0)
    return g_strdup (a->var->name);
  return g_strdup_printf ("%s.module%u", a->var->name, a->var->module->index);
}

gboolean
ks_cudart_alloc_var (KsCudartVar *var)
{
  g_autofree char *what = g_strdup_printf ("the %s variable %s",
                                           var->managed ? "__managed__" : "module", var->name);

  return new_alloc (&var->addr, MAX (var->size, 1), var->managed, var, NULL, what)
         == cudaSuccess;
}

cudaError_t
ks_cudart_new_alloc (uint64_t      *addr,
                     size_t         size,
                     KsCudartArray *array,
                     const char    *what)
{
  cudaError_t e = new_alloc (addr, size, FALSE, NULL, array, what);

  if (e != cudaSuccess)
    g_free (array);
  return e;
}

void
ks_cudart_free_at (uint64_t addr)
{
  GArray *all = ks_cudart_allocs ();

  for (guint i = 0; i < all->len; i++)
    {
      KsCudartAlloc *m = &g_array_index (all, KsCudartAlloc, i);

      if (m->addr != addr)
        continue;
      g_assert (!m->host_visible && !m->registered && m->var == NULL);
      g_free (m->data);
      g_free (m->array);
      allocated -= m->size;
      g_array_remove_index (all, i);
      return;
    }
  g_assert_not_reached ();
}

uint8_t *
ks_cudart_var_bytes (KsCudartVar *var)
{
  KsCudartAlloc *a;

  if (var->addr == 0 || !ks_cudart_var_contents (var))
    return NULL;
  a = ks_cudart_find_alloc (var->addr, 0);
  g_assert (a != NULL && a->var == var);
  return a->data;
}

static cudaError_t
free_alloc (void     *ptr,
            gboolean  host_visible)
{
  GArray *a = ks_cudart_allocs ();

  if (ptr == NULL)
    return cudaSuccess;
  for (guint i = 0; i < a->len; i++)
    {
      KsCudartAlloc *m = &g_array_index (a, KsCudartAlloc, i);

      if (m->addr != (uint64_t) (uintptr_t) ptr)
        continue;
      if ((m->host_visible != host_visible && !m->host_visible) || m->registered
          || m->var != NULL || m->array != NULL)
        break;
      if (m->host_visible)
        munmap (m->data, m->mapped);
      else
        {
          g_free (m->data);
          allocated -= m->size;
        }
      g_array_remove_index (a, i);
      return cudaSuccess;
    }
  return ks_cudart_return (host_visible ? cudaErrorInvalidHostPointer
                                        : cudaErrorInvalidDevicePointer);
}

CUDART_API cudaError_t
cudaMalloc (void   **ptr,
            size_t   size)
{
  LOCKED (alloc (ptr, size, FALSE, "cudaMalloc"));
}

CUDART_API cudaError_t
cudaMallocManaged (void         **ptr,
                   size_t         size,
                   unsigned int   flags)
{
  (void) flags;
  LOCKED (alloc (ptr, size, TRUE, "cudaMallocManaged"));
}

CUDART_API cudaError_t
cudaMallocHost (void   **ptr,
                size_t   size)
{
  LOCKED (alloc (ptr, size, TRUE, "cudaMallocHost"));
}

CUDART_API cudaError_t
cudaHostAlloc (void         **ptr,
               size_t         size,
               unsigned int   flags)
{
  (void) flags;
  LOCKED (alloc (ptr, size, TRUE, "cudaHostAlloc"));
}

CUDART_API cudaError_t
cudaMallocPitch (void   **ptr,
                 size_t  *pitch,
                 size_t   width,
                 size_t   height)
{
  size_t p = (width + 511) / 512 * 512;

  if (pitch == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *pitch = p;
  LOCKED (alloc (ptr, p * height, FALSE, "cudaMallocPitch"));
}

CUDART_API cudaError_t
cudaFree (void *ptr)
{
  LOCKED (free_alloc (ptr, FALSE));
}

CUDART_API cudaError_t
cudaFreeHost (void *ptr)
{
  LOCKED (free_alloc (ptr, TRUE));
}

/* cudaHostRegister: the program's own memory, which kernels then reach at
 * its host address (unified addressing), as cudaHostGetDevicePointer says */
static cudaError_t
host_register (void   *ptr,
               size_t  size)
{
  uint64_t p = (uint64_t) (uintptr_t) ptr;
  GArray *all = ks_cudart_allocs ();
  KsCudartAlloc a = { 0 };

  if (ptr == NULL || size == 0)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (p < KS_LAUNCH_MIN_ADDRESS || p % 16 != 0 || p + size < p)
    {
      ks_cudart_note ("cudaHostRegister: %p: KernelScope's simulator places memory at 16-byte "
                      "aligned addresses from 0x%" G_GINT64_MODIFIER "x (cudaErrorNotSupported)",
                      ptr, KS_LAUNCH_MIN_ADDRESS);
      return ks_cudart_return (cudaErrorNotSupported);
    }
  for (guint i = 0; i < all->len; i++)
    {
      const KsCudartAlloc *m = &g_array_index (all, KsCudartAlloc, i);

      if (p < m->addr + m->size + KS_CUDART_GUARD && m->addr < p + size + KS_CUDART_GUARD)
        return ks_cudart_return (m->registered ? cudaErrorHostMemoryAlreadyRegistered
                                               : cudaErrorInvalidValue);
    }
  a.addr = p;
  a.size = size;
  a.data = ptr;
  a.host_visible = TRUE;
  a.registered = TRUE;
  a.id = next_id++;
  insert_alloc (&a);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaHostRegister (void         *ptr,
                  size_t        size,
                  unsigned int  flags)
{
  (void) flags;
  LOCKED (host_register (ptr, size));
}

static cudaError_t
host_unregister (void *ptr)
{
  GArray *all = ks_cudart_allocs ();

  for (guint i = 0; i < all->len; i++)
    if (g_array_index (all, KsCudartAlloc, i).registered
        && g_array_index (all, KsCudartAlloc, i).addr == (uint64_t) (uintptr_t) ptr)
      {
        g_array_remove_index (all, i);
        return cudaSuccess;
      }
  return ks_cudart_return (cudaErrorHostMemoryNotRegistered);
}

CUDART_API cudaError_t
cudaHostUnregister (void *ptr)
{
  LOCKED (host_unregister (ptr));
}

static cudaError_t
host_device_pointer (void **device,
                     void  *host)
{
  KsCudartAlloc *a = ks_cudart_find_alloc ((uint64_t) (uintptr_t) host, 0);

  if (device == NULL || a == NULL || !a->host_visible)
    return ks_cudart_return (cudaErrorInvalidValue);
  /* unified addressing: the same address on both sides */
  *device = host;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaHostGetDevicePointer (void         **device,
                          void          *host,
                          unsigned int   flags)
{
  (void) flags;
  LOCKED (host_device_pointer (device, host));
}

CUDART_API cudaError_t
cudaMemGetInfo (size_t *free_bytes,
                size_t *total)
{
  ks_cudart_props ();
  if (free_bytes != NULL)
    *free_bytes = memory_limit - MIN (allocated, memory_limit);
  if (total != NULL)
    *total = memory_limit;
  return cudaSuccess;
}

/* Where @n bytes at @ptr are: device memory the stand-in keeps, or the
 * program's own memory.  NULL (and a note) for a range that starts in an
 * allocation and runs past it. */
uint8_t *
ks_cudart_locate (const void *ptr,
                  size_t      n,
                  gboolean   *device,
                  const char *what)
{
  uint64_t p = (uint64_t) (uintptr_t) ptr;
  KsCudartAlloc *a = ks_cudart_find_alloc (p, 0);

  if (a == NULL)
    {
      *device = FALSE;
      return (uint8_t *) ptr;
    }
  if (a->var != NULL && !ks_cudart_var_contents (a->var))
    return NULL;
  *device = !a->host_visible;
  if (p + n > a->addr + a->size)
    {
      g_autofree char *name = ks_cudart_alloc_name (a);

      ks_cudart_note ("%s: %zu bytes at 0x%" G_GINT64_MODIFIER "x run %" G_GUINT64_FORMAT
                      " bytes past the end of the allocation %s (%" G_GUINT64_FORMAT " bytes "
                      "at 0x%" G_GINT64_MODIFIER "x)", what, n, p, p + n - (a->addr + a->size),
                      name, a->size, a->addr);
      return NULL;
    }
  return a->data + (p - a->addr);
}

cudaError_t
ks_cudart_kind_check (int         kind,
                      gboolean    dst_device,
                      gboolean    src_device,
                      const char *what)
{
  gboolean ok;

  switch (kind)
    {
    case cudaMemcpyHostToHost: ok = !dst_device && !src_device; break;
    case cudaMemcpyHostToDevice: ok = dst_device && !src_device; break;
    case cudaMemcpyDeviceToHost: ok = !dst_device && src_device; break;
    case cudaMemcpyDeviceToDevice: ok = dst_device && src_device; break;
    case cudaMemcpyDefault: ok = TRUE; break;
    default:
      ks_cudart_note ("%s: %d is not a cudaMemcpyKind (cudaErrorInvalidMemcpyDirection)", what,
                      kind);
      return cudaErrorInvalidMemcpyDirection;
    }
  if (ok)
    return cudaSuccess;
  ks_cudart_note ("%s: the destination is %s memory and the source %s memory, which "
                  "kind %d does not say (cudaErrorInvalidValue)", what,
                  dst_device ? "device" : "host", src_device ? "device" : "host", kind);
  return cudaErrorInvalidValue;
}

static cudaError_t
copy (void       *dst,
      const void *src,
      size_t      n,
      int         kind,
      const char *what)
{
  gboolean dd, sd;
  uint8_t *d, *s;
  cudaError_t e;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (n == 0)
    return cudaSuccess;
  d = ks_cudart_locate (dst, n, &dd, what);
  s = ks_cudart_locate (src, n, &sd, what);
  if (d == NULL || s == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if ((e = ks_cudart_kind_check (kind, dd, sd, what)) != cudaSuccess)
    return ks_cudart_return (e);
  memmove (d, s, n);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemcpy (void       *dst,
            const void *src,
            size_t      count,
            int         kind)
{
  LOCKED (ks_cudart_legacy_in_capture (NULL, "cudaMemcpy") != cudaSuccess
          ? cudaErrorStreamCaptureImplicit
          : copy (dst, src, count, kind, "cudaMemcpy"));
}

CUDART_API cudaError_t
cudaMemcpyAsync (void         *dst,
                 const void   *src,
                 size_t        count,
                 int           kind,
                 cudaStream_t  stream)
{
  LOCKED (ks_cudart_legacy_in_capture (stream, "cudaMemcpyAsync") != cudaSuccess
          ? cudaErrorStreamCaptureImplicit
          : ks_cudart_capturing (stream) != NULL
          ? ks_cudart_capture_copy (stream, dst, src, count, 1, count, count, kind)
          : copy (dst, src, count, kind, "cudaMemcpyAsync"));
}

static cudaError_t
copy_2d (void       *dst,
         size_t      dpitch,
         const void *src,
         size_t      spitch,
         size_t      width,
         size_t      height,
         int         kind)
{
  if (width > dpitch || width > spitch)
    return ks_cudart_return (cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; r++)
    {
      cudaError_t e = copy ((uint8_t *) dst + r * dpitch, (const uint8_t *) src + r * spitch,
                            width, kind, "cudaMemcpy2D");

      if (e != cudaSuccess)
        return e;
    }
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemcpy2D (void *dst, size_t dpitch, const void *src, size_t spitch,
              size_t width, size_t height, int kind)
{
  LOCKED (ks_cudart_legacy_in_capture (NULL, "cudaMemcpy2D") != cudaSuccess
          ? cudaErrorStreamCaptureImplicit
          : copy_2d (dst, dpitch, src, spitch, width, height, kind));
}

CUDART_API cudaError_t
cudaMemcpy2DAsync (void *dst, size_t dpitch, const void *src, size_t spitch,
                   size_t width, size_t height, int kind, cudaStream_t stream)
{
  LOCKED (ks_cudart_legacy_in_capture (stream, "cudaMemcpy2DAsync") != cudaSuccess
          ? cudaErrorStreamCaptureImplicit
          : ks_cudart_capturing (stream) != NULL
          ? ks_cudart_capture_copy (stream, dst, src, width, height, dpitch, spitch, kind)
          : copy_2d (dst, dpitch, src, spitch, width, height, kind));
}

static cudaError_t
set (void       *dst,
     int         value,
     size_t      n,
     const char *what)
{
  gboolean device;
  uint8_t *d;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (n == 0)
    return cudaSuccess;
  d = ks_cudart_locate (dst, n, &device, what);
  if (d == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (ks_cudart_find_alloc ((uint64_t) (uintptr_t) dst, 0) == NULL)
    {
      ks_cudart_note ("%s: %p is not device memory (cudaErrorInvalidValue)", what, dst);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  memset (d, value, n);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemset (void *dst, int value, size_t count)
{
  LOCKED (ks_cudart_legacy_in_capture (NULL, "cudaMemset") != cudaSuccess
          ? cudaErrorStreamCaptureImplicit
          : set (dst, value, count, "cudaMemset"));
}

CUDART_API cudaError_t
cudaMemsetAsync (void *dst, int value, size_t count, cudaStream_t stream)
{
  LOCKED (ks_cudart_legacy_in_capture (stream, "cudaMemsetAsync") != cudaSuccess
          ? cudaErrorStreamCaptureImplicit
          : ks_cudart_capturing (stream) != NULL
          ? ks_cudart_capture_set (stream, dst, value, count)
          : set (dst, value, count, "cudaMemsetAsync"));
}

static cudaError_t
set_2d (void *dst, size_t pitch, int value, size_t width, size_t height)
{
  if (width > pitch)
    return ks_cudart_return (cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; r++)
    {
      cudaError_t e = set ((uint8_t *) dst + r * pitch, value, width, "cudaMemset2D");

      if (e != cudaSuccess)
        return e;
    }
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemset2D (void *dst, size_t pitch, int value, size_t width, size_t height)
{
  LOCKED (set_2d (dst, pitch, value, width, height));
}

CUDART_API cudaError_t
cudaMemPrefetchAsync (const void *ptr, size_t count, int location, unsigned int flags,
                      cudaStream_t stream)
{
  (void) ptr; (void) count; (void) location; (void) flags; (void) stream;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemAdvise (const void *ptr, size_t count, int advice, int location)
{
  (void) ptr; (void) count; (void) advice; (void) location;
  return cudaSuccess;
}

/* ---- symbols ----------------------------------------------------------------------------- */

static cudaError_t
symbol_copy (const void *symbol,
             void       *host,
             size_t      count,
             size_t      offset,
             int         kind,
             gboolean    to_symbol,
             const char *what)
{
  KsCudartVar *v;
  gboolean device;
  uint8_t *p, *bytes;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  v = ks_cudart_find_var (symbol);
  if (v == NULL)
    {
      ks_cudart_note ("%s: %p is not a __device__ or __constant__ variable the program "
                      "registered (cudaErrorInvalidSymbol)", what, symbol);
      return ks_cudart_return (cudaErrorInvalidSymbol);
    }
  if (offset > v->size || count > v->size - offset)
    {
      ks_cudart_note ("%s: %zu bytes at offset %zu of %s, which has %" G_GUINT64_FORMAT
                      " (cudaErrorInvalidValue)", what, count, offset, v->name, v->size);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  if (count == 0)
    return cudaSuccess;
  p = ks_cudart_locate (host, count, &device, what);
  if (p == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if ((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) && device)
    {
      ks_cudart_note ("%s: %p is device memory, which kind %d does not say", what, host, kind);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  if ((bytes = ks_cudart_var_bytes (v)) == NULL)
    return ks_cudart_return (cudaErrorInvalidSymbol);
  if (to_symbol)
    memmove (bytes + offset, p, count);
  else
    memmove (p, bytes + offset, count);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemcpyToSymbol (const void *symbol, const void *src, size_t count, size_t offset, int kind)
{
  LOCKED (symbol_copy (symbol, (void *) src, count, offset, kind, TRUE, "cudaMemcpyToSymbol"));
}

CUDART_API cudaError_t
cudaMemcpyFromSymbol (void *dst, const void *symbol, size_t count, size_t offset, int kind)
{
  LOCKED (symbol_copy (symbol, dst, count, offset, kind, FALSE, "cudaMemcpyFromSymbol"));
}

CUDART_API cudaError_t
cudaMemcpyToSymbolAsync (const void *symbol, const void *src, size_t count, size_t offset,
                         int kind, cudaStream_t stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpyToSymbolAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (symbol_copy (symbol, (void *) src, count, offset, kind, TRUE,
                       "cudaMemcpyToSymbolAsync"));
}

CUDART_API cudaError_t
cudaMemcpyFromSymbolAsync (void *dst, const void *symbol, size_t count, size_t offset,
                           int kind, cudaStream_t stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpyFromSymbolAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (symbol_copy (symbol, dst, count, offset, kind, FALSE, "cudaMemcpyFromSymbolAsync"));
}

CUDART_API cudaError_t
cudaGetSymbolSize (size_t *size, const void *symbol)
{
  KsCudartVar *v;

  ks_cudart_lock ();
  v = ks_cudart_find_var (symbol);
  ks_cudart_unlock ();
  if (v == NULL || size == NULL)
    return ks_cudart_return (cudaErrorInvalidSymbol);
  *size = v->size;
  return cudaSuccess;
}

/* The variable's own storage, which its module's kernels use: a pointer
 * to it reaches the variable, as on the GPU */
static cudaError_t
symbol_address (void       **ptr,
                const void  *symbol)
{
  KsCudartVar *v;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  v = ks_cudart_find_var (symbol);
  if (v == NULL || ptr == NULL)
    {
      ks_cudart_note ("cudaGetSymbolAddress: %p is not a __device__, __constant__ or "
                      "__managed__ variable the program registered (cudaErrorInvalidSymbol)",
                      symbol);
      return ks_cudart_return (cudaErrorInvalidSymbol);
    }
  if (ks_cudart_var_bytes (v) == NULL)
    return ks_cudart_return (cudaErrorInvalidSymbol);
  *ptr = (void *) (uintptr_t) v->addr;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGetSymbolAddress (void       **ptr,
                      const void  *symbol)
{
  LOCKED (symbol_address (ptr, symbol));
}

/* ---- streams and events -------------------------------------------------------------------- */

CUDART_API cudaError_t
cudaStreamCreate (cudaStream_t *stream)
{
  if (stream == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *stream = g_new0 (struct ks_cudart_stream, 1);
  ks_cudart_lock ();
  ks_cudart_graph_track (*stream, FALSE, TRUE);
  ks_cudart_unlock ();
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaStreamCreateWithFlags (cudaStream_t *stream, unsigned int flags)
{
  cudaError_t e = cudaStreamCreate (stream);

  /* (driver_types.h: cudaStreamNonBlocking is 0x01) */
  if (e == cudaSuccess)
    (*stream)->nonblocking = (flags & 0x01) != 0;
  return e;
}

CUDART_API cudaError_t
cudaStreamCreateWithPriority (cudaStream_t *stream, unsigned int flags, int priority)
{
  (void) priority;
  return cudaStreamCreateWithFlags (stream, flags);
}

CUDART_API cudaError_t
cudaStreamDestroy (cudaStream_t stream)
{
  ks_cudart_lock ();
  ks_cudart_graph_track (stream, FALSE, FALSE);
  ks_cudart_unlock ();
  g_free (stream);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaStreamSynchronize (cudaStream_t stream)
{
  (void) stream;
  return sticky_error;
}

CUDART_API cudaError_t
cudaStreamQuery (cudaStream_t stream)
{
  (void) stream;
  return sticky_error;
}

CUDART_API cudaError_t
cudaStreamWaitEvent (cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
  (void) flags;
  if (event == NULL)
    return ks_cudart_return (cudaErrorInvalidResourceHandle);
  /* (an event recorded in a capture brings the stream into it) */
  ks_cudart_lock ();
  if (event->capture != NULL && ks_cudart_is_stream (stream))
    stream->capture = event->capture;
  ks_cudart_unlock ();
  return sticky_error;
}

CUDART_API cudaError_t
cudaEventCreate (cudaEvent_t *event)
{
  if (event == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *event = g_new0 (struct ks_cudart_event, 1);
  ks_cudart_lock ();
  ks_cudart_graph_track (*event, TRUE, TRUE);
  ks_cudart_unlock ();
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaEventCreateWithFlags (cudaEvent_t *event, unsigned int flags)
{
  (void) flags;
  return cudaEventCreate (event);
}

CUDART_API cudaError_t
cudaEventDestroy (cudaEvent_t event)
{
  ks_cudart_lock ();
  ks_cudart_graph_track (event, TRUE, FALSE);
  ks_cudart_unlock ();
  g_free (event);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaEventRecord (cudaEvent_t event, cudaStream_t stream)
{
  (void) stream;
  if (event == NULL)
    return ks_cudart_return (cudaErrorInvalidResourceHandle);
  ks_cudart_lock ();
  /* in a capture the event only joins streams (cudaStreamWaitEvent) */
  event->capture = ks_cudart_capturing (stream);
  if (event->capture == NULL)
    {
      event->recorded = TRUE;
      event->us = ks_cudart_model_clock ();
    }
  ks_cudart_unlock ();
  return sticky_error;
}

CUDART_API cudaError_t
cudaEventRecordWithFlags (cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
  (void) flags;
  return cudaEventRecord (event, stream);
}

CUDART_API cudaError_t
cudaEventSynchronize (cudaEvent_t event)
{
  (void) event;
  return sticky_error;
}

CUDART_API cudaError_t
cudaEventQuery (cudaEvent_t event)
{
  (void) event;
  return sticky_error;
}

CUDART_API cudaError_t
cudaEventElapsedTime (float       *ms,
                      cudaEvent_t  start,
                      cudaEvent_t  end)
{
  if (ms == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (start == NULL || end == NULL)
    return ks_cudart_return (cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded)
    return ks_cudart_return (cudaErrorInvalidResourceHandle);
  /* the model's time of the kernels between them (copies take none) */
  *ms = (float) ((end->us - start->us) / 1000.0);
  return sticky_error;
}

/* ---- the end ------------------------------------------------------------------------------- */

static void __attribute__ ((destructor))
ks_cudart_fini (void)
{
  ks_cudart_lock ();
  ks_cudart_finish ();
  ks_cudart_unlock ();
}
