/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda.c: the CUDA driver through dlopen (ks-cuda.h).
 *
 * The types and constants below are the driver API's ABI as cuda.h
 * documents it (CUresult, CUdevice are int; a device pointer is 64 bits;
 * the attribute and JIT option numbers), declared here so that nothing of
 * the toolkit is needed to build. */
#include "ks-cuda.h"

#include <dlfcn.h>
#include <gio/gio.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

enum
{
  CUDA_SUCCESS = 0,
  ATTR_CLOCK_RATE = 13,
  ATTR_MULTIPROCESSOR_COUNT = 16,
  ATTR_CC_MAJOR = 75,
  ATTR_CC_MINOR = 76,
  JIT_INFO_LOG_BUFFER = 3,
  JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  JIT_ERROR_LOG_BUFFER = 5,
  JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

#define JIT_LOG_BYTES 8192

/* Every entry point used, with the symbol each is under */
#define KS_CUDA_ENTRY_POINTS(X) \
  X (cuInit, "cuInit", CUresult, (unsigned)) \
  X (cuDriverGetVersion, "cuDriverGetVersion", CUresult, (int *)) \
  X (cuDeviceGetCount, "cuDeviceGetCount", CUresult, (int *)) \
  X (cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice *, int)) \
  X (cuDeviceGetName, "cuDeviceGetName", CUresult, (char *, int, CUdevice)) \
  X (cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult, (int *, int, CUdevice)) \
  X (cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult, (CUcontext *, CUdevice)) \
  X (cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult, (CUdevice)) \
  X (cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext)) \
  X (cuCtxSynchronize, "cuCtxSynchronize", CUresult, (void)) \
  X (cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult, \
     (CUmodule *, const void *, unsigned, int *, void **)) \
  X (cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule)) \
  X (cuModuleGetFunction, "cuModuleGetFunction", CUresult, (CUfunction *, CUmodule, const char *)) \
  X (cuFuncSetAttribute, "cuFuncSetAttribute", CUresult, (CUfunction, int, int)) \
  X (cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t)) \
  X (cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr)) \
  X (cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult, (CUdeviceptr, const void *, size_t)) \
  X (cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult, (void *, CUdeviceptr, size_t)) \
  X (cuLaunchKernel, "cuLaunchKernel", CUresult, \
     (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, \
      CUstream, void **, void **)) \
  X (cuGetErrorName, "cuGetErrorName", CUresult, (CUresult, const char **)) \
  X (cuGetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **))

struct _KsCuda
{
  void *handle;
  char *library;
  int devices;
#define KS_CUDA_FIELD(field, symbol, ret, args) ret (*field) args;
  KS_CUDA_ENTRY_POINTS (KS_CUDA_FIELD)
#undef KS_CUDA_FIELD
};

struct _KsCudaKernel
{
  KsCuda *cuda;
  CUdevice device;
  CUcontext context;
  CUmodule module;
  CUfunction function;
  const KsLaunch *launch;
  CUdeviceptr *memory;          /* one per buffer */
  uint8_t **first;              /* each buffer's first contents */
  uint8_t *read;                /* the last buffer read back */
  uint8_t **values;             /* each parameter's bytes */
  void **params;                /* cuLaunchKernel's array: pointers to values */
};

/* "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)" */
static char *
describe (const KsCuda *cuda,
          CUresult      rc)
{
  const char *name = NULL, *text = NULL;

  if (cuda->cuGetErrorName (rc, &name) != CUDA_SUCCESS)
    name = NULL;
  if (cuda->cuGetErrorString (rc, &text) != CUDA_SUCCESS)
    text = NULL;
  return g_strdup_printf ("%s%s%s%s", name ? name : "CUDA error", text ? " (" : "",
                          text ? text : "", text ? ")" : "");
}

static gboolean
check (const KsCuda *cuda,
       CUresult      rc,
       const char   *what,
       GError      **error)
{
  g_autofree char *text = NULL;

  if (rc == CUDA_SUCCESS)
    return TRUE;
  text = describe (cuda, rc);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the CUDA driver could not %s: %s (%d)",
               what, text, rc);
  return FALSE;
}

KsCuda *
ks_cuda_open (GError **error)
{
  const char *path = g_getenv ("KS_LIBCUDA");
  g_autoptr(KsCuda) cuda = g_new0 (KsCuda, 1);

  if (path == NULL || *path == '\0')
    path = "libcuda.so.1";
  cuda->library = g_strdup (path);
  /* never unloaded: the driver keeps threads and exit handlers of its own
   * that must outlive a dlclose() */
  cuda->handle = dlopen (path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (cuda->handle == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no NVIDIA GPU driver here: %s could not be loaded (%s)", path, dlerror ());
      return NULL;
    }
#define KS_CUDA_RESOLVE(field, symbol, ret, args) \
  *(void **) (&cuda->field) = dlsym (cuda->handle, symbol); \
  if (cuda->field == NULL) \
    { \
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, \
                   "the CUDA driver %s has no %s: it is older than CUDA 11", path, symbol); \
      return NULL; \
    }
  KS_CUDA_ENTRY_POINTS (KS_CUDA_RESOLVE)
#undef KS_CUDA_RESOLVE
  if (!check (cuda, cuda->cuInit (0), "start", error)
      || !check (cuda, cuda->cuDeviceGetCount (&cuda->devices), "count the GPUs", error))
    return NULL;
  if (cuda->devices <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "the CUDA driver (%s) sees no GPU", path);
      return NULL;
    }
  return g_steal_pointer (&cuda);
}

void
ks_cuda_close (KsCuda *cuda)
{
  if (cuda == NULL)
    return;
  if (cuda->handle)
    dlclose (cuda->handle);
  g_free (cuda->library);
  g_free (cuda);
}

const char *
ks_cuda_library (const KsCuda *cuda)
{
  return cuda->library;
}

int
ks_cuda_device_count (const KsCuda *cuda)
{
  return cuda->devices;
}

gboolean
ks_cuda_device (KsCuda       *cuda,
                int           ordinal,
                KsCudaDevice *d,
                GError      **error)
{
  CUdevice dev;

  memset (d, 0, sizeof *d);
  if (ordinal < 0 || ordinal >= cuda->devices)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "there is no GPU %d: the driver sees %d (0 to %d)", ordinal, cuda->devices,
                   cuda->devices - 1);
      return FALSE;
    }
  d->ordinal = ordinal;
  if (!check (cuda, cuda->cuDeviceGet (&dev, ordinal), "open the GPU", error)
      || !check (cuda, cuda->cuDeviceGetName (d->name, sizeof d->name - 1, dev),
                 "name the GPU", error)
      || !check (cuda, cuda->cuDeviceGetAttribute (&d->major, ATTR_CC_MAJOR, dev),
                 "read the GPU's compute capability", error)
      || !check (cuda, cuda->cuDeviceGetAttribute (&d->minor, ATTR_CC_MINOR, dev),
                 "read the GPU's compute capability", error)
      || !check (cuda, cuda->cuDeviceGetAttribute (&d->sms, ATTR_MULTIPROCESSOR_COUNT, dev),
                 "count the GPU's multiprocessors", error)
      || !check (cuda, cuda->cuDeviceGetAttribute (&d->clock_khz, ATTR_CLOCK_RATE, dev),
                 "read the GPU's clock", error)
      || !check (cuda, cuda->cuDriverGetVersion (&d->driver_version),
                 "give its version", error))
    return FALSE;
  d->name[sizeof d->name - 1] = '\0';
  return TRUE;
}

char *
ks_cuda_device_arch (const KsCudaDevice *d)
{
  return g_strdup_printf ("sm_%d%d", d->major, d->minor);
}

/* What the runner cannot give a kernel: refused before anything runs */
static gboolean
supported (const KsLaunch *l,
           GError        **error)
{
  const char *what = l->n_steps > 1 ? "a sequence of launches"
                     : l->n_textures || l->n_surfaces || l->n_bindings ? "textures or surfaces"
                     : l->n_symbols ? "module variables set by the host" : NULL;

  for (uint32_t i = 0; what == NULL && i < l->n_params; i++)
    if (l->params[i].handle != KS_LAUNCH_HANDLE_NONE)
      what = "texture or surface handles";
  if (what == NULL)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "the GPU runner does not give a kernel %s yet; the model runs it", what);
  return FALSE;
}

KsCudaKernel *
ks_cuda_kernel_new (KsCuda         *cuda,
                    int             ordinal,
                    const char     *ptx,
                    const KsLaunch *launch,
                    GError        **error)
{
  g_autoptr(KsCudaKernel) k = NULL;
  char log[JIT_LOG_BYTES] = "";
  int options[] = { JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
  void *values[] = { log, (void *) (uintptr_t) (sizeof log - 1) };
  CUresult rc;

  if (!supported (launch, error))
    return NULL;
  if (ordinal < 0 || ordinal >= cuda->devices)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "there is no GPU %d: the driver sees %d", ordinal, cuda->devices);
      return NULL;
    }
  k = g_new0 (KsCudaKernel, 1);
  k->cuda = cuda;
  k->launch = launch;
  k->device = -1;
  if (!check (cuda, cuda->cuDeviceGet (&k->device, ordinal), "open the GPU", error))
    return NULL;
  if (!check (cuda, cuda->cuDevicePrimaryCtxRetain (&k->context, k->device),
              "make a context on the GPU", error))
    {
      k->context = NULL;
      return NULL;
    }
  if (!check (cuda, cuda->cuCtxSetCurrent (k->context), "use the GPU's context", error))
    return NULL;
  rc = cuda->cuModuleLoadDataEx (&k->module, ptx, G_N_ELEMENTS (options), options, values);
  if (rc != CUDA_SUCCESS)
    {
      g_autofree char *text = describe (cuda, rc);

      k->module = NULL;
      log[sizeof log - 1] = '\0';
      g_strchomp (log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the CUDA driver could not compile the PTX for the GPU: %s%s%s", text,
                   *log ? ":\n" : "", log);
      return NULL;
    }
  if (launch->kernel == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "the launch names no kernel to run on the GPU");
      return NULL;
    }
  rc = cuda->cuModuleGetFunction (&k->function, k->module, launch->kernel);
  if (!check (cuda, rc, "find the kernel", error))
    {
      g_prefix_error (error, "%s: ", launch->kernel);
      return NULL;
    }
  if (launch->dynamic_shared_bytes > 48 * 1024
      && !check (cuda, cuda->cuFuncSetAttribute (k->function, FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                 (int) launch->dynamic_shared_bytes),
                 "give the kernel its dynamic shared memory", error))
    return NULL;

  k->memory = g_new0 (CUdeviceptr, MAX (launch->n_buffers, 1));
  k->first = g_new0 (uint8_t *, MAX (launch->n_buffers, 1));
  for (uint32_t i = 0; i < launch->n_buffers; i++)
    {
      const KsLaunchBuffer *b = &launch->buffers[i];

      k->first[i] = ks_launch_buffer_dup (b);
      if (k->first[i] == NULL && b->size > 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "buffer '%s' (%" G_GSIZE_FORMAT " bytes) could not be allocated",
                       b->name, b->size);
          return NULL;
        }
      if (!check (cuda, cuda->cuMemAlloc (&k->memory[i], MAX (b->size, 1)),
                  "allocate a buffer on the GPU", error))
        {
          k->memory[i] = 0;
          g_prefix_error (error, "buffer '%s' (%" G_GSIZE_FORMAT " bytes): ", b->name, b->size);
          return NULL;
        }
    }

  k->values = g_new0 (uint8_t *, MAX (launch->n_params, 1));
  k->params = g_new0 (void *, MAX (launch->n_params, 1));
  for (uint32_t i = 0; i < launch->n_params; i++)
    {
      const KsLaunchParam *p = &launch->params[i];

      if (p->is_buffer)
        {
          uint64_t address = k->memory[p->buffer] + (uint64_t) p->offset;

          k->values[i] = g_memdup2 (&address, sizeof address);
        }
      else if (p->bytes != NULL)
        {
          k->values[i] = g_memdup2 (p->bytes, MAX (p->n_bytes, 1));
          for (uint32_t r = 0; r < p->n_relocs; r++)
            {
              uint64_t address = k->memory[p->relocs[r].buffer] + (uint64_t) p->relocs[r].offset;

              memcpy (k->values[i] + p->relocs[r].at, &address, sizeof address);
            }
        }
      else
        /* the scalar's bits in its low bytes: the driver reads the size of
         * the kernel's parameter from them, little-endian */
        k->values[i] = g_memdup2 (&p->bits, sizeof p->bits);
      k->params[i] = k->values[i];
    }
  return g_steal_pointer (&k);
}

gboolean
ks_cuda_kernel_launch (KsCudaKernel *k,
                       GError      **error)
{
  KsCuda *cuda = k->cuda;
  const KsLaunch *l = k->launch;

  if (!check (cuda, cuda->cuCtxSetCurrent (k->context), "use the GPU's context", error))
    return FALSE;
  for (uint32_t i = 0; i < l->n_buffers; i++)
    if (l->buffers[i].size > 0
        && !check (cuda, cuda->cuMemcpyHtoD (k->memory[i], k->first[i], l->buffers[i].size),
                   "copy a buffer to the GPU", error))
      return FALSE;
  if (!check (cuda, cuda->cuLaunchKernel (k->function, l->grid[0], l->grid[1], l->grid[2],
                                           l->block[0], l->block[1], l->block[2],
                                           l->dynamic_shared_bytes, NULL, k->params, NULL),
              "launch the kernel", error))
    return FALSE;
  /* a fault in the kernel shows here */
  return check (cuda, cuda->cuCtxSynchronize (), "run the kernel to its end", error);
}

const uint8_t *
ks_cuda_kernel_read (KsCudaKernel *k,
                     guint         buffer,
                     size_t       *size,
                     GError      **error)
{
  KsCuda *cuda = k->cuda;
  const KsLaunchBuffer *b;

  if (buffer >= k->launch->n_buffers)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the launch has no buffer %u",
                   buffer);
      return NULL;
    }
  b = &k->launch->buffers[buffer];
  g_free (k->read);
  k->read = g_try_malloc (MAX (b->size, 1));
  if (k->read == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no memory to read buffer '%s' back",
                   b->name);
      return NULL;
    }
  if (!check (cuda, cuda->cuCtxSetCurrent (k->context), "use the GPU's context", error)
      || (b->size > 0 && !check (cuda, cuda->cuMemcpyDtoH (k->read, k->memory[buffer], b->size),
                                 "copy a buffer back from the GPU", error)))
    return NULL;
  *size = b->size;
  return k->read;
}

void
ks_cuda_kernel_free (KsCudaKernel *k)
{
  KsCuda *cuda;

  if (k == NULL)
    return;
  cuda = k->cuda;
  if (k->context)
    cuda->cuCtxSetCurrent (k->context);
  for (uint32_t i = 0; k->memory && i < k->launch->n_buffers; i++)
    if (k->memory[i])
      cuda->cuMemFree (k->memory[i]);
  for (uint32_t i = 0; k->first && i < k->launch->n_buffers; i++)
    g_free (k->first[i]);
  for (uint32_t i = 0; k->values && i < k->launch->n_params; i++)
    g_free (k->values[i]);
  if (k->module)
    cuda->cuModuleUnload (k->module);
  if (k->context)
    cuda->cuDevicePrimaryCtxRelease (k->device);
  g_free (k->memory);
  g_free (k->first);
  g_free (k->values);
  g_free (k->params);
  g_free (k->read);
  g_free (k);
}
