/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-cudart.h: the CUDA runtime stand-in (src/cudart) loaded into a
 * test or a benchmark as a program loads it, with the committed fat binary
 * of tests/fixtures/fatbin (nvcc 13's vector_add for sm_89) registered as
 * nvcc's start-up code registers it. */
#pragma once

#include <dlfcn.h>
#include <glib.h>
#include <string.h>

typedef struct { unsigned x, y, z; } KsTestDim3;

typedef struct
{
  void *handle;                 /* dlopen's */
  const void *kernel;           /* vector_add's host function, for cudaLaunchKernel */
  int (*malloc_) (void **, size_t);
  int (*free_) (void *);
  int (*memcpy_) (void *, const void *, size_t, int);
  int (*launch) (const void *, KsTestDim3, KsTestDim3, void **, size_t, void *);
  int (*last_error) (void);
  const char *(*error_string) (int);
  char *error;                  /* why it could not be loaded, or NULL */
} KsTestCudart;

/* Loads @lib for the GPU @gpu (KS_RECORD_GPU) without a recording and
 * registers @fatbin's vector_add.  FALSE with t->error set when it cannot. */
static inline gboolean
ks_test_cudart_load (KsTestCudart *t,
                     const char   *lib,
                     const char   *fatbin,
                     const char   *gpu)
{
  static const char host_fun = 0;       /* the address a program registers for its stub */
  static struct { int magic, version; const unsigned long long *data; void *other; } wrapper;
  void **(*register_fatbin) (void *);
  void (*register_function) (void **, const char *, char *, const char *, int, void *, void *,
                             void *, void *, int *);
  g_autofree char *contents = NULL;
  uint64_t *aligned;
  gsize len = 0;

  memset (t, 0, sizeof *t);
  g_setenv ("KS_RECORD_GPU", gpu, TRUE);
  g_unsetenv ("KS_RECORD_DIR");
  if ((t->handle = dlopen (lib, RTLD_NOW | RTLD_LOCAL)) == NULL)
    {
      t->error = g_strdup (dlerror ());
      return FALSE;
    }
  if (!g_file_get_contents (fatbin, &contents, &len, NULL))
    {
      t->error = g_strdup_printf ("%s cannot be read", fatbin);
      return FALSE;
    }
  /* (the program's, which lives as long as it does) */
  aligned = g_malloc (len + 8);
  memcpy (aligned, contents, len);
  wrapper.magic = 0x466243B1;
  wrapper.version = 1;
  wrapper.data = (const unsigned long long *) aligned;
  wrapper.other = NULL;
  register_fatbin = (void **(*) (void *)) dlsym (t->handle, "__cudaRegisterFatBinary");
  register_function = (void (*) (void **, const char *, char *, const char *, int, void *,
                                 void *, void *, void *, int *))
                      dlsym (t->handle, "__cudaRegisterFunction");
  register_function (register_fatbin (&wrapper), &host_fun, NULL, "_Z10vector_addPKfS0_Pfi", -1,
                     NULL, NULL, NULL, NULL, NULL);
  t->kernel = &host_fun;
  t->malloc_ = (int (*) (void **, size_t)) dlsym (t->handle, "cudaMalloc");
  t->free_ = (int (*) (void *)) dlsym (t->handle, "cudaFree");
  t->memcpy_ = (int (*) (void *, const void *, size_t, int)) dlsym (t->handle, "cudaMemcpy");
  t->launch = (int (*) (const void *, KsTestDim3, KsTestDim3, void **, size_t, void *))
              dlsym (t->handle, "cudaLaunchKernel");
  t->last_error = (int (*) (void)) dlsym (t->handle, "cudaGetLastError");
  t->error_string = (const char *(*) (int)) dlsym (t->handle, "cudaGetErrorString");
  return TRUE;
}
