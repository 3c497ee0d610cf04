/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fake-libcuda.c: a stand-in for the CUDA driver, for the tests of the
 * GPU runner (src/core/probe/ks-cuda.c) on machines without a GPU.  It is
 * loaded through $KS_LIBCUDA exactly as libcuda.so.1 would be, and
 * implements the entry points the runner resolves with the driver API's
 * ABI.  It runs nothing: "device memory" is host memory, and a launch of a
 * kernel named "probe" writes a chosen clock64 delta into every entry of
 * its second parameter's buffer (the probes' cycles, one int64 a thread)
 * and chosen bytes at the start of its first (the stored result), so that
 * a test knows every figure the runner must compute from them.
 *
 *   KS_FAKE_CUDA_NAME         the device's name (default "NVIDIA H200")
 *   KS_FAKE_CUDA_CC           compute capability "MAJOR.MINOR" (default 9.0)
 *   KS_FAKE_CUDA_SMS          multiprocessors (default 132)
 *   KS_FAKE_CUDA_DEVICES      how many (default 1)
 *   KS_FAKE_CUDA_CYCLES       "a,b,c,...": the delta of the module's n-th
 *                             launch is the (n mod count)-th, for a module
 *                             whose PTX holds KS_FAKE_CUDA_TARGET
 *                             (default "fma.rn.f32")
 *   KS_FAKE_CUDA_OTHER_CYCLES the delta for the other modules (the controls)
 *   KS_FAKE_CUDA_OUT          hex bytes written at the first buffer's start
 *   KS_FAKE_CUDA_OUTS         "hex,hex,...": the n-th module holding the
 *                             target writes the n-th instead (counted
 *                             from when the variable last changed)
 *   KS_FAKE_CUDA_JIT_ERROR    a module load fails with this as the JIT's log
 *   KS_FAKE_CUDA_LOG          a file each module load and launch is noted in
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__ ((visibility ("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum
{
  SUCCESS = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  INVALID_DEVICE = 101,
  INVALID_PTX = 218,
  NOT_FOUND = 500,
};

typedef struct _Module Module;

typedef struct
{
  Module *module;
  char name[128];
} Function;

struct _Module
{
  char *ptx;
  unsigned launches;
  int is_target;
  unsigned target_index;        /* among the modules holding the target */
  Function function;            /* the one a test gets */
};

/* the driver API's entry points, as cuda.h declares them */
EXPORT CUresult cuInit (unsigned flags);
EXPORT CUresult cuDriverGetVersion (int *v);
EXPORT CUresult cuDeviceGetCount (int *n);
EXPORT CUresult cuDeviceGet (CUdevice *d, int ordinal);
EXPORT CUresult cuDeviceGetName (char *name, int len, CUdevice d);
EXPORT CUresult cuDeviceGetAttribute (int *v, int attribute, CUdevice d);
EXPORT CUresult cuDevicePrimaryCtxRetain (void **ctx, CUdevice d);
EXPORT CUresult cuDevicePrimaryCtxRelease_v2 (CUdevice d);
EXPORT CUresult cuCtxSetCurrent (void *ctx);
EXPORT CUresult cuCtxSynchronize (void);
EXPORT CUresult cuModuleLoadDataEx (void **module, const void *image, unsigned n, int *options,
                                    void **values);
EXPORT CUresult cuModuleUnload (void *module);
EXPORT CUresult cuModuleGetFunction (void **function, void *module, const char *name);
EXPORT CUresult cuFuncSetAttribute (void *f, int a, int v);
EXPORT CUresult cuMemAlloc_v2 (CUdeviceptr *p, size_t size);
EXPORT CUresult cuMemFree_v2 (CUdeviceptr p);
EXPORT CUresult cuMemcpyHtoD_v2 (CUdeviceptr dst, const void *src, size_t size);
EXPORT CUresult cuMemcpyDtoH_v2 (void *dst, CUdeviceptr src, size_t size);
EXPORT CUresult cuLaunchKernel (void *function, unsigned gx, unsigned gy, unsigned gz,
                                unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                void *stream, void **params, void **extra);
EXPORT CUresult cuGetErrorName (CUresult rc, const char **name);
EXPORT CUresult cuGetErrorString (CUresult rc, const char **text);

static int context_tag;
static unsigned target_loads;
static char outs_seen[4096];

static const char *
env (const char *name,
     const char *fallback)
{
  const char *v = getenv (name);

  return v && *v ? v : fallback;
}

static void __attribute__ ((format (printf, 1, 2)))
note (const char *fmt,
      ...)
{
  const char *path = getenv ("KS_FAKE_CUDA_LOG");
  va_list ap;
  FILE *f;

  if (path == NULL || (f = fopen (path, "a")) == NULL)
    return;
  va_start (ap, fmt);
  vfprintf (f, fmt, ap);
  va_end (ap);
  fclose (f);
}

EXPORT CUresult cuInit (unsigned flags) { (void) flags; return SUCCESS; }

EXPORT CUresult
cuDriverGetVersion (int *v)
{
  *v = 13000;
  return SUCCESS;
}

EXPORT CUresult
cuDeviceGetCount (int *n)
{
  *n = atoi (env ("KS_FAKE_CUDA_DEVICES", "1"));
  return SUCCESS;
}

EXPORT CUresult
cuDeviceGet (CUdevice *d,
             int       ordinal)
{
  if (ordinal < 0 || ordinal >= atoi (env ("KS_FAKE_CUDA_DEVICES", "1")))
    return INVALID_DEVICE;
  *d = ordinal;
  return SUCCESS;
}

EXPORT CUresult
cuDeviceGetName (char    *name,
                 int      len,
                 CUdevice d)
{
  (void) d;
  snprintf (name, (size_t) len, "%s", env ("KS_FAKE_CUDA_NAME", "NVIDIA H200"));
  return SUCCESS;
}

EXPORT CUresult
cuDeviceGetAttribute (int     *v,
                      int      attribute,
                      CUdevice d)
{
  int major = 9, minor = 0;

  (void) d;
  sscanf (env ("KS_FAKE_CUDA_CC", "9.0"), "%d.%d", &major, &minor);
  switch (attribute)
    {
    case 13: *v = 1980000; return SUCCESS;      /* clock, kHz */
    case 16: *v = atoi (env ("KS_FAKE_CUDA_SMS", "132")); return SUCCESS;
    case 75: *v = major; return SUCCESS;
    case 76: *v = minor; return SUCCESS;
    default: return INVALID_VALUE;
    }
}

EXPORT CUresult
cuDevicePrimaryCtxRetain (void   **ctx,
                          CUdevice d)
{
  (void) d;
  *ctx = &context_tag;
  return SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2 (CUdevice d) { (void) d; return SUCCESS; }
EXPORT CUresult cuCtxSetCurrent (void *ctx) { return ctx == &context_tag ? SUCCESS : INVALID_VALUE; }
EXPORT CUresult cuCtxSynchronize (void) { return SUCCESS; }

EXPORT CUresult
cuModuleLoadDataEx (void      **module,
                    const void *image,
                    unsigned    n,
                    int        *options,
                    void      **values)
{
  const char *error = getenv ("KS_FAKE_CUDA_JIT_ERROR");
  const char *ptx = image;
  const char *target = strstr (ptx, ".target ");
  Module *m;

  if (error != NULL)
    {
      char *log = NULL;
      size_t size = 0;

      for (unsigned i = 0; i < n; i++)
        if (options[i] == 5)
          log = values[i];
        else if (options[i] == 6)
          size = (size_t) (uintptr_t) values[i];
      if (log != NULL && size > 0)
        snprintf (log, size, "%s", error);
      return INVALID_PTX;
    }
  if (strstr (ptx, ".entry") == NULL)
    return INVALID_PTX;
  m = calloc (1, sizeof *m);
  m->ptx = strdup (ptx);
  m->is_target = strstr (ptx, env ("KS_FAKE_CUDA_TARGET", "fma.rn.f32")) != NULL;
  if (m->is_target)
    {
      const char *outs = env ("KS_FAKE_CUDA_OUTS", "");

      if (strcmp (outs, outs_seen) != 0)
        {
          snprintf (outs_seen, sizeof outs_seen, "%s", outs);
          target_loads = 0;
        }
      m->target_index = target_loads++;
    }
  {
    char arch[32] = "";

    if (target != NULL)
      sscanf (target, ".target %31s", arch);
    note ("load %s\n", arch);
  }
  *module = m;
  return SUCCESS;
}

EXPORT CUresult
cuModuleUnload (void *module)
{
  Module *m = module;

  free (m->ptx);
  free (m);
  return SUCCESS;
}

EXPORT CUresult
cuModuleGetFunction (void      **function,
                     void       *module,
                     const char *name)
{
  Module *m = module;
  char entry[160];
  Function *f = &m->function;

  snprintf (entry, sizeof entry, ".entry %s(", name);
  if (strstr (m->ptx, entry) == NULL)
    return NOT_FOUND;
  f->module = m;
  snprintf (f->name, sizeof f->name, "%s", name);
  *function = f;
  return SUCCESS;
}

EXPORT CUresult cuFuncSetAttribute (void *f, int a, int v) { (void) f; (void) a; (void) v; return SUCCESS; }

/* device memory: host memory with its size in front */
EXPORT CUresult
cuMemAlloc_v2 (CUdeviceptr *p,
               size_t       size)
{
  uint64_t *block = calloc (1, size + 16);

  if (block == NULL)
    return OUT_OF_MEMORY;
  block[0] = size;
  *p = (CUdeviceptr) (uintptr_t) (block + 2);
  return SUCCESS;
}

EXPORT CUresult
cuMemFree_v2 (CUdeviceptr p)
{
  free ((uint64_t *) (uintptr_t) p - 2);
  return SUCCESS;
}

EXPORT CUresult
cuMemcpyHtoD_v2 (CUdeviceptr dst,
                 const void *src,
                 size_t      size)
{
  memcpy ((void *) (uintptr_t) dst, src, size);
  return SUCCESS;
}

EXPORT CUresult
cuMemcpyDtoH_v2 (void       *dst,
                 CUdeviceptr src,
                 size_t      size)
{
  memcpy (dst, (const void *) (uintptr_t) src, size);
  return SUCCESS;
}

static int64_t
delta_of (const Module *m,
          unsigned      launch)
{
  const char *list = m->is_target ? env ("KS_FAKE_CUDA_CYCLES", "1000")
                                  : env ("KS_FAKE_CUDA_OTHER_CYCLES", "100");
  unsigned count = 1, k;
  const char *p = list;

  for (const char *c = list; *c; c++)
    count += *c == ',';
  k = launch % count;
  while (k-- > 0)
    p = strchr (p, ',') + 1;
  return strtoll (p, NULL, 10);
}

EXPORT CUresult
cuLaunchKernel (void      *function,
                unsigned   gx,
                unsigned   gy,
                unsigned   gz,
                unsigned   bx,
                unsigned   by,
                unsigned   bz,
                unsigned   shared,
                void      *stream,
                void     **params,
                void     **extra)
{
  Function *f = function;
  Module *m = f->module;

  (void) gy; (void) gz; (void) by; (void) bz; (void) shared; (void) stream; (void) extra;
  note ("launch %s grid %u block %u run %u\n", f->name, gx, bx, m->launches);
  if (strcmp (f->name, "probe") == 0 && params != NULL)
    {
      uint8_t *out = (uint8_t *) (uintptr_t) *(CUdeviceptr *) params[0];
      int64_t *cycles = (int64_t *) (uintptr_t) *(CUdeviceptr *) params[1];
      uint64_t size = ((uint64_t *) cycles)[-2];
      int64_t delta = delta_of (m, m->launches);
      const char *hex = getenv ("KS_FAKE_CUDA_OUT");
      const char *outs = getenv ("KS_FAKE_CUDA_OUTS");

      /* the module's entry of the list */
      if (outs != NULL && m->is_target)
        {
          hex = outs;
          for (unsigned k = 0; k < m->target_index && hex != NULL; k++)
            {
              hex = strchr (hex, ',');
              hex = hex ? hex + 1 : NULL;
            }
        }
      for (uint64_t i = 0; i < size / 8; i++)
        cycles[i] = delta;
      for (unsigned i = 0; hex && hex[2 * i] && hex[2 * i] != ',' && hex[2 * i + 1]; i++)
        {
          unsigned byte;

          sscanf (hex + 2 * i, "%2x", &byte);
          out[i] = (uint8_t) byte;
        }
    }
  m->launches++;
  return SUCCESS;
}

EXPORT CUresult
cuGetErrorName (CUresult     rc,
                const char **name)
{
  *name = rc == INVALID_PTX ? "CUDA_ERROR_INVALID_PTX" : rc == NOT_FOUND ? "CUDA_ERROR_NOT_FOUND"
          : "CUDA_ERROR_UNKNOWN";
  return SUCCESS;
}

EXPORT CUresult
cuGetErrorString (CUresult     rc,
                  const char **text)
{
  *text = rc == INVALID_PTX ? "a PTX JIT compilation failed" : "fake";
  return SUCCESS;
}
