/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cudart-launch.c: registration of a program's kernels and variables,
 * and each launch run in the simulator on the program's memory, with its
 * recording (ks-cudart-private.h). */
#include "ks-cudart-private.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "ks-gpu-db.h"
#include "ks-json.h"
#include "ks-launch.h"
#include "ks-occupancy.h"
#include "ks-recording.h"
#include "ks-resources.h"
#include "ks-sass.h"
#include "ks-sass-cubin.h"
#include "ks-sim.h"
#include "ks-timing.h"

/* ---- state --------------------------------------------------------------------------- */

typedef struct
{
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
} CallConfig;

static GPtrArray *modules;              /* KsCudartModule */
static GHashTable *kernels_by_host;     /* host function -> KsCudartKernel */
static GHashTable *kernels;             /* the set of KsCudartKernel, for cudaKernel_t */
static GHashTable *vars_by_host;        /* shadow variable -> KsCudartVar */
static GArray *config_stack;            /* CallConfig */
static uint32_t n_launches;
static double model_clock_us;
static gboolean timing_note_said;

/* the recording */
static KsRecording *recording;
static gboolean recording_tried;
static char **record_only;              /* kernel names, or NULL: all */
static GArray *record_ranges;           /* pairs of launch indices [first, last], or NULL */
static uint64_t record_budget;          /* bytes of blobs; 0: no limit */

static void
ensure_tables (void)
{
  if (modules != NULL)
    return;
  modules = g_ptr_array_new ();
  kernels_by_host = g_hash_table_new (NULL, NULL);
  kernels = g_hash_table_new (NULL, NULL);
  vars_by_host = g_hash_table_new (NULL, NULL);
  config_stack = g_array_new (FALSE, TRUE, sizeof (CallConfig));
}

double
ks_cudart_model_clock (void)
{
  return model_clock_us;
}

/* ---- registration (host_runtime.h) ----------------------------------------------------- */

/* The PTX entry to run: the newest one the GPU can run (a GPU compiles
 * PTX of its own architecture or an older one, never a newer one); NULL
 * with *oldest set when there are only newer ones */
static const KsFatbinEntry *
choose_ptx (const KsFatbin       *fb,
            uint32_t              gpu_arch,
            const KsFatbinEntry **oldest)
{
  const KsFatbinEntry *best = NULL;

  *oldest = NULL;
  for (uint32_t i = 0; i < fb->n_entries; i++)
    {
      const KsFatbinEntry *e = &fb->entries[i];

      if (e->kind != KS_FATBIN_PTX)
        continue;
      if (*oldest == NULL || e->arch < (*oldest)->arch)
        *oldest = e;
      if (e->arch <= gpu_arch && (best == NULL || e->arch > best->arch))
        best = e;
    }
  return best;
}

CUDART_API void **
__cudaRegisterFatBinary (void *fat_cubin)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsFatbin) fb = NULL;
  KsCudartModule *m;
  const KsFatbinEntry *e = NULL, *oldest = NULL;
  uint32_t gpu_arch;

  ks_cudart_lock ();
  ensure_tables ();
  m = g_new0 (KsCudartModule, 1);
  m->index = modules->len;
  m->vars = g_ptr_array_new ();
  g_ptr_array_add (modules, m);

  gpu_arch = (uint32_t) (ks_cudart_props ()->major * 10 + ks_cudart_props ()->minor);
  fb = ks_fatbin_read_wrapper (fat_cubin, &error);
  if (fb != NULL)
    e = choose_ptx (fb, gpu_arch, &oldest);
  if (fb == NULL)
    m->error = g_strdup_printf ("its fat binary cannot be read: %s", error->message);
  else if (e == NULL && oldest != NULL)
    m->error = g_strdup_printf ("its PTX is for compute_%u, newer than the %s's sm_%u, which "
                                "cannot compile it (as on the GPU: "
                                "cudaErrorNoKernelImageForDevice): choose a GPU of sm_%u or "
                                "later with --gpu, or build for an older architecture",
                                oldest->arch, ks_cudart_props ()->name, gpu_arch, oldest->arch);
  else if (e == NULL)
    m->error = g_strdup ("its fat binary holds no PTX, only machine code, which KernelScope "
                         "does not run: build it with -arch=sm_XX (which keeps compute_XX's "
                         "PTX) or add -gencode arch=compute_XX,code=compute_XX");
  else
    {
      m->ptx = g_strndup ((const char *) e->data, e->size);
      m->ptx_len = strlen (m->ptx);
      m->ptx_arch = e->arch;
      m->source_name = g_strdup (e->name);
      for (uint32_t i = 0; i < fb->n_entries; i++)
        if (fb->entries[i].kind == KS_FATBIN_ELF && fb->entries[i].arch == gpu_arch)
          {
            m->cubin = g_memdup2 (fb->entries[i].data, fb->entries[i].size);
            m->cubin_len = fb->entries[i].size;
          }
    }
  ks_cudart_unlock ();
  return &m->handle_slot;
}

static KsCudartModule *
module_of (void **handle)
{
  return (KsCudartModule *) (void *) ((char *) handle - offsetof (KsCudartModule, handle_slot));
}

CUDART_API void
__cudaRegisterFatBinaryEnd (void **handle)
{
  (void) handle;
}

CUDART_API void
__cudaUnregisterFatBinary (void **handle)
{
  /* The program is ending: the recording is written whole */
  (void) handle;
  ks_cudart_lock ();
  if (recording != NULL)
    ks_recording_flush (recording, NULL);
  ks_cudart_unlock ();
}

/* What a program calls before its first use of a __managed__ variable on
 * the host: the variables' initial contents, from the PTX */
CUDART_API char
__cudaInitModule (void **handle)
{
  KsCudartModule *m = module_of (handle);
  char ok = 1;

  ks_cudart_lock ();
  for (guint i = 0; i < m->vars->len; i++)
    {
      KsCudartVar *v = g_ptr_array_index (m->vars, i);

      if (v->managed && ks_cudart_var_bytes (v) == NULL)
        ok = 0;
    }
  ks_cudart_unlock ();
  return ok;
}

CUDART_API void
__cudaRegisterFunction (void       **handle,
                        const char  *host_fun,
                        char        *device_fun,
                        const char  *device_name,
                        int          thread_limit,
                        void        *tid,
                        void        *bid,
                        dim3        *block_dim,
                        dim3        *grid_dim,
                        int         *warp_size)
{
  KsCudartKernel *k = g_new0 (KsCudartKernel, 1);

  (void) device_fun; (void) thread_limit; (void) tid; (void) bid;
  (void) block_dim; (void) grid_dim; (void) warp_size;
  ks_cudart_lock ();
  ensure_tables ();
  k->module = module_of (handle);
  k->host_fun = host_fun;
  k->name = g_strdup (device_name);
  g_hash_table_insert (kernels_by_host, (gpointer) host_fun, k);
  g_hash_table_add (kernels, k);
  ks_cudart_unlock ();
}

static KsCudartVar *
register_var (KsCudartModule *m,
              const void     *host,
              const char     *name,
              size_t          size,
              gboolean        constant,
              gboolean        managed)
{
  KsCudartVar *v = g_new0 (KsCudartVar, 1);

  ensure_tables ();
  v->name = g_strdup (name);
  v->size = size;
  v->constant = constant;
  v->managed = managed;
  v->module = m;
  v->host = host;
  /* (without storage it is refused where it is used) */
  ks_cudart_alloc_var (v);
  g_ptr_array_add (m->vars, v);
  g_hash_table_insert (vars_by_host, (gpointer) host, v);
  return v;
}

CUDART_API void
__cudaRegisterVar (void       **handle,
                   char        *host_var,
                   char        *device_address,
                   const char  *device_name,
                   int          ext,
                   size_t       size,
                   int          constant,
                   int          global)
{
  (void) device_address; (void) ext; (void) global;
  ks_cudart_lock ();
  register_var (module_of (handle), host_var, device_name, size, constant != 0, FALSE);
  ks_cudart_unlock ();
}

/* A __managed__ variable: the program reaches it on the host through the
 * pointer at @host_var_ptr, which is set to its storage, mapped at the
 * device address that kernels use */
CUDART_API void
__cudaRegisterManagedVar (void       **handle,
                          void       **host_var_ptr,
                          char        *device_address,
                          const char  *device_name,
                          int          ext,
                          size_t       size,
                          int          constant,
                          int          global)
{
  KsCudartVar *v;

  (void) device_address; (void) ext; (void) global;
  ks_cudart_lock ();
  v = register_var (module_of (handle), host_var_ptr, device_name, size, constant != 0, TRUE);
  if (v->addr != 0)
    {
      *host_var_ptr = (void *) (uintptr_t) v->addr;
      g_hash_table_insert (vars_by_host, *host_var_ptr, v);
    }
  ks_cudart_unlock ();
}

CUDART_API unsigned
__cudaPushCallConfiguration (dim3          grid,
                             dim3          block,
                             size_t        shared,
                             cudaStream_t  stream)
{
  CallConfig c = { grid, block, shared, stream };

  ks_cudart_lock ();
  ensure_tables ();
  g_array_append_val (config_stack, c);
  ks_cudart_unlock ();
  return 0;
}

CUDART_API cudaError_t
__cudaPopCallConfiguration (dim3         *grid,
                            dim3         *block,
                            size_t       *shared,
                            void         *stream)
{
  CallConfig c;

  ks_cudart_lock ();
  ensure_tables ();
  if (config_stack->len == 0)
    {
      ks_cudart_unlock ();
      return cudaErrorInvalidConfiguration;
    }
  c = g_array_index (config_stack, CallConfig, config_stack->len - 1);
  g_array_set_size (config_stack, config_stack->len - 1);
  ks_cudart_unlock ();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *(cudaStream_t *) stream = c.stream;
  return cudaSuccess;
}

KsCudartKernel *
ks_cudart_find_kernel (const void *fun)
{
  KsCudartKernel *k;

  ensure_tables ();
  k = g_hash_table_lookup (kernels_by_host, fun);
  if (k == NULL && g_hash_table_contains (kernels, fun))
    k = (KsCudartKernel *) fun;
  return k;
}

KsCudartVar *
ks_cudart_find_var (const void *symbol)
{
  ensure_tables ();
  return g_hash_table_lookup (vars_by_host, symbol);
}

CUDART_API cudaError_t
__cudaGetKernel (cudaKernel_t *kernel,
                 const void   *fun)
{
  KsCudartKernel *k;

  ks_cudart_lock ();
  k = ks_cudart_find_kernel (fun);
  ks_cudart_unlock ();
  if (k == NULL)
    return ks_cudart_return (cudaErrorInvalidDeviceFunction);
  *kernel = k;
  return cudaSuccess;
}

/* ---- modules ---------------------------------------------------------------------------- */

static gboolean
module_ready (KsCudartModule *m)
{
  /* (a module that did not parse keeps its error) */
  if (m->error != NULL)
    return FALSE;
  if (m->module != NULL)
    return TRUE;
  m->module = ks_ptx_module_parse (g_bytes_new_static (m->ptx, m->ptx_len),
                                   m->source_name != NULL ? m->source_name : "module.ptx");
  if (ks_ptx_module_has_errors (m->module))
    {
      const KsPtxDiagnostic *d = NULL;

      for (uint32_t i = 0; i < m->module->n_diagnostics; i++)
        if (m->module->diagnostics[i].severity == KS_PTX_SEVERITY_ERROR)
          {
            d = &m->module->diagnostics[i];
            break;
          }
      m->error = g_strdup_printf ("its PTX (compute_%u) does not parse: line %u:%u: %s",
                                  m->ptx_arch, d ? d->line : 0, d ? d->column : 0,
                                  d ? d->message : "error");
      return FALSE;
    }
  /* A variable the program registers that the PTX does not declare (one
   * no kernel uses may be dropped) lives on the host side only */
  for (guint i = 0; i < m->vars->len; i++)
    {
      KsCudartVar *v = g_ptr_array_index (m->vars, i);
      gboolean found = FALSE;

      for (uint32_t k = 0; k < m->module->n_vars && !found; k++)
        found = m->module->vars[k].function == KS_PTX_NONE
                && ks_ptx_span_equal (m->module, m->module->vars[k].name, v->name);
      v->absent = !found;
    }
  return TRUE;
}

static uint32_t
type_bytes (const KsPtxVar *v)
{
  return (uint32_t) (ks_ptx_type_size ((KsPtxType) v->type) * MAX (v->vec, 1) * v->n_elements);
}

gboolean
ks_cudart_kernel_resources (KsCudartKernel *k,
                            uint32_t       *registers,
                            uint32_t       *static_shared,
                            uint32_t       *barriers,
                            gboolean       *exact)
{
  KsCudartModule *m = k->module;
  const KsPtxFunction *f;
  g_autoptr(KsKernelResources) res = NULL;

  if (m->cubin != NULL)
    {
      g_autoptr(KsSassListing) listing = ks_sass_cubin_read (m->cubin, m->cubin_len, "cubin",
                                                             NULL);

      for (uint32_t i = 0; listing != NULL && i < listing->n_functions; i++)
        if (g_strcmp0 (listing->functions[i].name, k->name) == 0)
          {
            const KsCubinFunction *cf = &listing->cubin->functions[i];

            *registers = cf->registers;
            *static_shared = (uint32_t) cf->shared_bytes;
            *barriers = cf->barriers;
            *exact = TRUE;
            return TRUE;
          }
    }
  if (!module_ready (m) || (f = ks_ptx_module_find_function (m->module, k->name)) == NULL)
    return FALSE;
  res = ks_resources_estimate (m->module, (uint32_t) (f - m->module->functions));
  if (res == NULL)
    return FALSE;
  *registers = res->registers;
  *static_shared = res->shared_static_bytes;
  *barriers = res->barriers;
  *exact = FALSE;
  return TRUE;
}

gboolean
ks_cudart_copy_args (KsCudartKernel *k,
                     void          **args,
                     uint8_t       **bytes,
                     size_t         *len,
                     void         ***argv,
                     char          **message)
{
  const KsPtxFunction *f;
  size_t total = 0, at = 0;

  if (!module_ready (k->module))
    {
      *message = g_strdup (k->module->error);
      return FALSE;
    }
  f = ks_ptx_module_find_function (k->module->module, k->name);
  if (f == NULL)
    {
      *message = g_strdup_printf ("its PTX has no kernel %s", k->name);
      return FALSE;
    }
  for (uint32_t p = 0; p < f->n_params; p++)
    total += (type_bytes (&k->module->module->vars[f->first_param + p]) + 15) / 16 * 16;
  *bytes = g_malloc0 (MAX (total, 1));
  *len = total;
  *argv = g_new0 (void *, f->n_params + 1);
  for (uint32_t p = 0; p < f->n_params; p++)
    {
      uint32_t size = type_bytes (&k->module->module->vars[f->first_param + p]);

      memcpy (*bytes + at, args[p], size);
      (*argv)[p] = *bytes + at;
      at += (size + 15) / 16 * 16;
    }
  return TRUE;
}

/* ---- a launch as the simulator takes it ------------------------------------------------- */

typedef struct
{
  KsLaunch launch;
  uint32_t function;            /* in the module */
} Built;

static void
built_clear (Built *b)
{
  KsLaunch *l = &b->launch;

  for (uint32_t i = 0; i < l->n_buffers; i++)
    {
      g_free (l->buffers[i].name);
      g_free (l->buffers[i].data);
      g_free (l->buffers[i].variable);
    }
  g_free (l->buffers);
  for (uint32_t i = 0; i < l->n_params; i++)
    g_free (l->params[i].bytes);
  g_free (l->params);
  for (uint32_t i = 0; i < l->n_textures; i++)
    g_free (l->textures[i].name);
  g_free (l->textures);
  for (uint32_t i = 0; i < l->n_surfaces; i++)
    g_free (l->surfaces[i].name);
  g_free (l->surfaces);
  g_strfreev (l->output_symbols);
  g_free (l->kernel);
}

/* The program's buffers that the kernel's parameters point at, in the
 * element type its loads and stores give them (ks_ptx_param_pointee_types):
 * one the parameters disagree on, or that does not hold whole elements
 * from where they point, stays bytes */
static void
type_buffers (const KsPtxModule   *module,
              const KsPtxFunction *f,
              KsLaunch            *l)
{
  g_autofree KsPtxType *pointee = g_new0 (KsPtxType, MAX (f->n_params, 1));
  g_autofree KsPtxType *type = g_new0 (KsPtxType, MAX (l->n_buffers, 1));
  g_autofree gboolean *mixed = g_new0 (gboolean, MAX (l->n_buffers, 1));

  ks_ptx_param_pointee_types (module, f, pointee);
  for (uint32_t p = 0; p < l->n_params; p++)
    {
      const KsLaunchParam *lp = &l->params[p];
      uint32_t size = ks_ptx_type_size (pointee[p]);

      if (!lp->is_buffer || l->buffers[lp->buffer].variable != NULL)
        continue;
      if (size == 0 || lp->offset % size != 0 || l->buffers[lp->buffer].size % size != 0
          || (type[lp->buffer] != KS_PTX_TYPE_NONE && type[lp->buffer] != pointee[p]))
        mixed[lp->buffer] = TRUE;
      else
        type[lp->buffer] = pointee[p];
    }
  for (uint32_t b = 0; b < l->n_buffers; b++)
    if (type[b] != KS_PTX_TYPE_NONE && !mixed[b])
      {
        l->buffers[b].type = type[b];
        l->buffers[b].count = l->buffers[b].size / ks_ptx_type_size (type[b]);
      }
}

/* The type the PTX declares module variable @name with, or .b8 */
static KsPtxType
var_type (const KsPtxModule *module,
          const char        *name)
{
  for (uint32_t k = 0; k < module->n_vars; k++)
    if (module->vars[k].function == KS_PTX_NONE
        && ks_ptx_span_equal (module, module->vars[k].name, name))
      return (KsPtxType) module->vars[k].type;
  return KS_PTX_TYPE_B8;
}

/* Every live allocation, placed where the program sees it; the kernel's
 * parameters from the program's argument values; the module's variables
 * in their storage (or, @initial, a launch that only lays the module out,
 * with its parameters zeros and its variables their PTX initializers, all
 * read back as "output_symbols") */
static gboolean
build_launch (KsCudartModule  *m,
              const char      *kernel,
              dim3             grid,
              dim3             block,
              uint32_t         shared,
              void           **args,
              gboolean         initial,
              Built           *out,
              char           **message)
{
  KsLaunch *l = &out->launch;
  GArray *allocs = ks_cudart_allocs ();
  const KsPtxFunction *f = ks_ptx_module_find_function (m->module, kernel);
  uint32_t n_out = 0;

  memset (out, 0, sizeof *out);
  if (f == NULL || f->kind != KS_PTX_FUNCTION_ENTRY)
    {
      *message = g_strdup_printf ("its PTX has no kernel %s", kernel);
      return FALSE;
    }
  out->function = (uint32_t) (f - m->module->functions);
  l->kernel = g_strdup (kernel);
  l->grid[0] = grid.x; l->grid[1] = grid.y; l->grid[2] = grid.z;
  l->block[0] = block.x; l->block[1] = block.y; l->block[2] = block.z;
  l->dynamic_shared_bytes = shared;

  l->buffers = g_new0 (KsLaunchBuffer, MAX (allocs->len, 1));
  l->n_buffers = allocs->len;
  for (guint i = 0; i < allocs->len; i++)
    {
      const KsCudartAlloc *a = &g_array_index (allocs, KsCudartAlloc, i);
      KsLaunchBuffer *b = &l->buffers[i];

      b->name = ks_cudart_alloc_name (a);
      b->type = KS_PTX_TYPE_B8;
      b->count = a->size;
      if (!initial && a->var != NULL && a->var->module == m && !a->var->absent)
        {
          /* (in the variable's type when the PTX gives one: nvcc writes
           * scalars with theirs, arrays as .b8 bytes) */
          KsPtxType t = var_type (m->module, a->var->name);
          uint32_t ts = ks_ptx_type_size (t);

          b->variable = g_strdup (a->var->name);
          if (ts > 1 && ts <= 8 && a->size % ts == 0)
            {
              b->type = t;
              b->count = a->size / ts;
            }
        }
      b->size = a->size;
      b->address = a->addr;
      /* zeros until the launch is known to start (hand_over) */
      b->fill.kind = KS_LAUNCH_FILL_ZERO;
      b->data = NULL;
    }

  l->params = g_new0 (KsLaunchParam, MAX (f->n_params, 1));
  l->n_params = f->n_params;
  for (uint32_t p = 0; p < f->n_params; p++)
    {
      const KsPtxVar *v = &m->module->vars[f->first_param + p];
      KsLaunchParam *lp = &l->params[p];
      uint32_t size = type_bytes (v);
      const uint8_t *src = initial ? NULL : args[p];

      if (v->n_elements == 1 && v->vec <= 1 && size <= 8 && size > 0)
        {
          uint64_t bits = 0;
          const KsCudartAlloc *a;

          if (src != NULL)
            memcpy (&bits, src, size);
          lp->type = (KsPtxType) v->type;
          lp->bits = bits;
          if (size == 8 && bits != 0 && (a = ks_cudart_find_alloc (bits, 0)) != NULL)
            {
              lp->is_buffer = TRUE;
              lp->buffer = (uint32_t) (a - &g_array_index (allocs, KsCudartAlloc, 0));
              lp->offset = (int64_t) (bits - a->addr);
            }
          else if (size == 8 && !initial)
            lp->handle = (KsLaunchHandleKind) ks_cudart_tex_param (bits, &lp->object);
        }
      else
        {
          /* a struct or array by value: its bytes, pointers included (the
           * buffers are where the program put them) */
          lp->bytes = src != NULL ? g_memdup2 (src, size) : g_malloc0 (MAX (size, 1));
          lp->n_bytes = size;
        }
    }

  if (!initial)
    {
      ks_cudart_tex_describe (l);
      type_buffers (m->module, f, l);
      return TRUE;
    }
  l->output_symbols = g_new0 (char *, m->vars->len + 1);
  for (guint i = 0; i < m->vars->len; i++)
    {
      KsCudartVar *v = g_ptr_array_index (m->vars, i);

      if (!v->absent)
        l->output_symbols[n_out++] = g_strdup (v->name);
    }
  l->n_output_symbols = n_out;
  return TRUE;
}

/* The module's variables not loaded yet, as @sim laid them out
 * ("output_symbols" in the module's order, the absent ones zeros) */
static void
load_vars (KsCudartModule *m,
           const KsSim    *sim)
{
  uint32_t out = 0;

  for (guint i = 0; i < m->vars->len; i++)
    {
      KsCudartVar *v = g_ptr_array_index (m->vars, i);
      KsCudartAlloc *a = v->addr != 0 ? ks_cudart_find_alloc (v->addr, 0) : NULL;
      size_t size = 0;
      const uint8_t *data;

      if (v->absent)
        {
          v->loaded = TRUE;
          continue;
        }
      data = ks_sim_get_output_symbol (sim, out++, NULL, NULL, &size);
      if (v->loaded || a == NULL)
        continue;
      memcpy (a->data, data, MIN (size, v->size));
      v->loaded = TRUE;
    }
}

gboolean
ks_cudart_var_contents (KsCudartVar *var)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  const KsPtxFunction *entry = NULL;
  g_autofree char *name = NULL;
  KsCudartModule *m = var->module;
  dim3 one = { 1, 1, 1 };
  Built built;
  KsSim *sim;

  if (var->loaded)
    return TRUE;
  if (var->addr == 0)
    {
      ks_cudart_note ("variable %s has no storage: it could not be allocated", var->name);
      return FALSE;
    }
  if (!module_ready (m))
    {
      ks_cudart_note ("variable %s cannot be read: %s", var->name, m->error);
      return FALSE;
    }
  /* The initial values are what the simulator lays out: a simulation of
   * any kernel of the module, not run, holds them */
  for (uint32_t i = 0; i < m->module->n_functions && entry == NULL; i++)
    if (m->module->functions[i].kind == KS_PTX_FUNCTION_ENTRY)
      entry = &m->module->functions[i];
  if (entry == NULL)
    {
      /* (no kernel uses it: zeros) */
      var->loaded = TRUE;
      return TRUE;
    }
  name = ks_ptx_span_dup (m->module, entry->name);
  if (!build_launch (m, name, one, one, 0, NULL, TRUE, &built, &message))
    {
      ks_cudart_note ("variable %s: %s", var->name, message);
      return FALSE;
    }
  sim = ks_sim_new (m->module, &built.launch, &error);
  if (sim == NULL)
    {
      ks_cudart_note ("variable %s: %s", var->name, error->message);
      built_clear (&built);
      return FALSE;
    }
  load_vars (m, sim);
  ks_sim_free (sim);
  built_clear (&built);
  return TRUE;
}

/* ---- the recording ---------------------------------------------------------------------- */

static void
read_cmdline (GPtrArray *argv)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents ("/proc/self/cmdline", &text, &len, NULL))
    return;
  for (gsize i = 0; i < len; i += strlen (text + i) + 1)
    g_ptr_array_add (argv, g_strdup (text + i));
}

static void
recording_start (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  const char *dir = g_getenv ("KS_RECORD_DIR");
  const char *only = g_getenv ("KS_RECORD_ONLY");
  const char *ranges = g_getenv ("KS_RECORD_LAUNCHES");
  const char *budget = g_getenv ("KS_RECORD_MAX_BYTES");

  recording_tried = TRUE;
  if (dir == NULL || *dir == '\0')
    return;
  read_cmdline (argv);
  g_ptr_array_add (argv, NULL);
  recording = ks_recording_new (dir, (const char *const *) argv->pdata, ks_cudart_gpu ()->id,
                                &error);
  if (recording == NULL)
    {
      ks_cudart_note ("nothing is recorded: %s", error->message);
      return;
    }
  if (only != NULL && *only != '\0')
    record_only = g_strsplit (only, ",", -1);
  if (ranges != NULL && *ranges != '\0')
    {
      g_auto(GStrv) parts = g_strsplit (ranges, ",", -1);

      record_ranges = g_array_new (FALSE, FALSE, sizeof (uint64_t));
      for (guint i = 0; parts[i] != NULL; i++)
        {
          uint64_t lo = 0, hi = 0;
          char *end = NULL;

          lo = g_ascii_strtoull (parts[i], &end, 10);
          hi = lo;
          if (end != NULL && *end == '-')
            hi = g_ascii_strtoull (end + 1, NULL, 10);
          g_array_append_val (record_ranges, lo);
          g_array_append_val (record_ranges, hi);
        }
    }
  if (budget != NULL)
    record_budget = g_ascii_strtoull (budget, NULL, 10);
}

static gboolean
name_matches (const char *ptx_name,
              const char *pattern)
{
  g_autofree char *demangled = NULL;
  size_t n;

  if (strcmp (ptx_name, pattern) == 0)
    return TRUE;
  demangled = ks_sass_demangle (ptx_name);
  if (demangled == NULL)
    return FALSE;
  n = strlen (pattern);
  /* "vadd" matches "vadd(float const*, ...)" and "ns::vadd<float>(...)" */
  return strcmp (demangled, pattern) == 0
         || (strncmp (demangled, pattern, n) == 0 && (demangled[n] == '(' || demangled[n] == '<'));
}

/* Whether launch @index of @kernel is to be saved; @why says why not */
static gboolean
record_wanted (uint32_t     index,
               const char  *kernel,
               const char **why)
{
  if (!recording_tried)
    recording_start ();
  if (recording == NULL)
    return FALSE;
  if (record_only != NULL)
    {
      gboolean hit = FALSE;

      for (guint i = 0; record_only[i] != NULL && !hit; i++)
        hit = name_matches (kernel, record_only[i]);
      if (!hit)
        {
          *why = "--only";
          return FALSE;
        }
    }
  if (record_ranges != NULL)
    {
      gboolean hit = FALSE;

      for (guint i = 0; i + 1 < record_ranges->len && !hit; i += 2)
        hit = index >= g_array_index (record_ranges, uint64_t, i)
              && index <= g_array_index (record_ranges, uint64_t, i + 1);
      if (!hit)
        {
          *why = "--launches";
          return FALSE;
        }
    }
  if (record_budget > 0 && ks_recording_blob_bytes (recording) >= record_budget)
    {
      *why = "--max-bytes: the recording's budget was spent";
      return FALSE;
    }
  return TRUE;
}


static char *
hex_of (const uint8_t *data,
        size_t         n)
{
  static const char digits[] = "0123456789abcdef";
  char *s = g_malloc (2 * n + 1);

  for (size_t i = 0; i < n; i++)
    {
      s[2 * i] = digits[data[i] >> 4];
      s[2 * i + 1] = digits[data[i] & 15];
    }
  s[2 * n] = '\0';
  return s;
}

static gboolean
all_zero (const uint8_t *data,
          size_t         n)
{
  for (size_t i = 0; i < n; i++)
    if (data[i] != 0)
      return FALSE;
  return TRUE;
}

static char *
json_text (JsonBuilder *b,
           gboolean     pretty)
{
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);
  return json_generator_to_data (gen, NULL);
}

/* "textures" or "surfaces": every object the program made, in the order
 * of their handles */
static void
textures_json (JsonBuilder    *b,
               const KsLaunch *l,
               gboolean        surface)
{
  static const char *const modes[] = { "clamp", "wrap", "mirror", "border" };
  const KsLaunchTexture *ts = surface ? l->surfaces : l->textures;
  uint32_t n = surface ? l->n_surfaces : l->n_textures;

  if (n == 0)
    return;
  json_builder_set_member_name (b, surface ? "surfaces" : "textures");
  json_builder_begin_object (b);
  for (uint32_t i = 0; i < n; i++)
    {
      const KsLaunchTexture *t = &ts[i];

      json_builder_set_member_name (b, t->name);
      json_builder_begin_object (b);
      if (t->destroyed)
        {
          json_builder_set_member_name (b, "destroyed");
          json_builder_add_boolean_value (b, TRUE);
          json_builder_end_object (b);
          continue;
        }
      json_builder_set_member_name (b, "buffer");
      json_builder_add_string_value (b, l->buffers[t->buffer].name);
      json_builder_set_member_name (b, "format");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, ks_ptx_type_name (t->format));
      json_builder_set_member_name (b, "channels");
      json_builder_add_int_value (b, t->channels);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "width");
      json_builder_add_int_value (b, t->width);
      if (t->dims >= 2)
        {
          json_builder_set_member_name (b, "height");
          json_builder_add_int_value (b, t->height);
        }
      if (t->dims == 3)
        {
          json_builder_set_member_name (b, "depth");
          json_builder_add_int_value (b, t->depth);
        }
      if (t->layered)
        {
          json_builder_set_member_name (b, "layers");
          json_builder_add_int_value (b, t->layers);
        }
      if (t->offset != 0)
        {
          json_builder_set_member_name (b, "offset");
          json_builder_add_int_value (b, (gint64) t->offset);
        }
      if (t->pitch != 0)
        {
          json_builder_set_member_name (b, "pitch");
          json_builder_add_int_value (b, t->pitch);
        }
      if (!surface)
        {
          if (t->cubemap)
            {
              json_builder_set_member_name (b, "cubemap");
              json_builder_add_boolean_value (b, TRUE);
            }
          json_builder_set_member_name (b, "filter");
          json_builder_add_string_value (b, t->filter == KS_LAUNCH_TEX_LINEAR ? "linear"
                                                                               : "point");
          json_builder_set_member_name (b, "address");
          json_builder_begin_array (b);
          for (uint32_t k = 0; k < MAX (t->dims, 1); k++)
            json_builder_add_string_value (b, modes[t->address[k]]);
          json_builder_end_array (b);
          json_builder_set_member_name (b, "normalized_coords");
          json_builder_add_boolean_value (b, t->normalized_coords);
          json_builder_set_member_name (b, "read_mode");
          json_builder_add_string_value (b, t->normalized_float ? "normalized_float"
                                                                : "element");
          json_builder_set_member_name (b, "border");
          json_builder_begin_array (b);
          for (uint32_t k = 0; k < 4; k++)
            json_builder_add_double_value (b, t->border[k]);
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

/* The spec of the launch as it started (the buffers before it), its
 * outputs the buffers it changed (@changed) */
static char *
spec_json (KsCudartModule     *m,
           const Built        *built,
           char *const        *before,
           const gboolean     *changed)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const KsLaunch *l = &built->launch;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "ptx");
  json_builder_add_string_value (b, m->record_path);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, l->kernel);
  ks_json_add_dim3 (b, "grid", l->grid);
  ks_json_add_dim3 (b, "block", l->block);
  json_builder_set_member_name (b, "dynamic_shared_bytes");
  json_builder_add_int_value (b, l->dynamic_shared_bytes);
  if (l->cooperative)
    {
      json_builder_set_member_name (b, "cooperative");
      json_builder_add_boolean_value (b, TRUE);
    }

  json_builder_set_member_name (b, "buffers");
  json_builder_begin_object (b);
  for (uint32_t i = 0; i < l->n_buffers; i++)
    {
      const KsLaunchBuffer *buf = &l->buffers[i];
      g_autofree char *addr = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", buf->address);

      json_builder_set_member_name (b, buf->name);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, ks_ptx_type_name (buf->type));
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, (gint64) buf->count);
      json_builder_set_member_name (b, "address");
      json_builder_add_string_value (b, addr);
      if (buf->variable != NULL)
        {
          json_builder_set_member_name (b, "variable");
          json_builder_add_string_value (b, buf->variable);
        }
      if (before[i] != NULL)
        {
          json_builder_set_member_name (b, "bytes_file");
          json_builder_add_string_value (b, before[i]);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  textures_json (b, l, FALSE);
  textures_json (b, l, TRUE);

  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < l->n_params; i++)
    {
      const KsLaunchParam *p = &l->params[i];

      json_builder_begin_object (b);
      if (p->handle != KS_LAUNCH_HANDLE_NONE)
        {
          gboolean surface = p->handle == KS_LAUNCH_HANDLE_SURFACE;

          json_builder_set_member_name (b, surface ? "surface" : "texture");
          json_builder_add_string_value (b, (surface ? l->surfaces
                                                     : l->textures)[p->object].name);
        }
      else if (p->is_buffer)
        {
          json_builder_set_member_name (b, "buffer");
          json_builder_add_string_value (b, l->buffers[p->buffer].name);
          if (p->offset != 0)
            {
              json_builder_set_member_name (b, "offset");
              json_builder_add_int_value (b, p->offset);
            }
        }
      else if (p->bytes != NULL)
        {
          g_autofree char *hex = hex_of (p->bytes, p->n_bytes);

          json_builder_set_member_name (b, "bytes_hex");
          json_builder_add_string_value (b, hex);
        }
      else
        {
          const char *tn = ks_ptx_type_name (p->type);
          uint32_t size = ks_ptx_type_size (p->type);
          g_autofree char *v = NULL, *bits = NULL;

          if (tn[0] == 's')
            {
              /* sign-extended from its size */
              int64_t s = (int64_t) (p->bits << (64 - 8 * size)) >> (64 - 8 * size);

              v = g_strdup_printf ("%" G_GINT64_FORMAT, s);
            }
          else if (tn[0] == 'u')
            v = g_strdup_printf ("%" G_GUINT64_FORMAT, p->bits);
          else
            {
              /* floats (and b types) as the bits the program passed,
               * exactly: a b type of the size takes them */
              v = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", p->bits);
              tn = bits = g_strdup_printf ("b%u", 8 * size);
            }
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, tn);
          json_builder_set_member_name (b, "value");
          json_builder_add_string_value (b, v);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "outputs");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < l->n_buffers; i++)
    if (changed[i])
      json_builder_add_string_value (b, l->buffers[i].name);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_text (b, TRUE);
}

/* ---- launching ---------------------------------------------------------------------------- */

static cudaError_t kernel_blocks_per_sm (KsCudartKernel *k, int block_size, size_t shared,
                                         int *blocks);

static cudaError_t
fault_error (const KsSimFault *f)
{
  switch (f->kind)
    {
    case KS_SIM_FAULT_OUT_OF_BOUNDS: return cudaErrorIllegalAddress;
    case KS_SIM_FAULT_MISALIGNED: return cudaErrorMisalignedAddress;
    case KS_SIM_FAULT_TRAP:
      return f->message != NULL && strstr (f->message, "assert") != NULL
             ? cudaErrorAssert : cudaErrorLaunchFailure;
    case KS_SIM_FAULT_DEADLOCK:
    case KS_SIM_FAULT_STEP_LIMIT:
    case KS_SIM_FAULT_TIME_LIMIT: return cudaErrorLaunchTimeout;
    case KS_SIM_FAULT_STACK_OVERFLOW: return cudaErrorHardwareStackError;
    case KS_SIM_FAULT_UNSUPPORTED: return cudaErrorNotSupported;
    default: return cudaErrorLaunchFailure;
    }
}

static const char *
error_name (cudaError_t e)
{
  switch (e)
    {
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorHardwareStackError: return "cudaErrorHardwareStackError";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    default: return "cudaErrorLaunchFailure";
    }
}

/* The model's duration of a finished launch, in microseconds, or a
 * negative number when the model cannot give one */
static double
model_duration (KsCudartKernel *k,
                const Built    *built,
                KsSim          *sim)
{
  g_autoptr(GError) error = NULL;
  KsCudartModule *m = k->module;
  uint32_t registers, static_shared, barriers;
  gboolean exact;
  KsOccupancyInput in;
  KsOccupancyResult occ;
  KsTimingOptions opt;
  KsTiming *t;
  double us;

  if (!ks_cudart_kernel_resources (k, &registers, &static_shared, &barriers, &exact))
    return -1;
  ks_occupancy_input_init (&in);
  in.block_size = built->launch.block[0] * built->launch.block[1] * built->launch.block[2];
  in.registers_per_thread = registers;
  in.static_shared_bytes = static_shared;
  in.dynamic_shared_bytes = built->launch.dynamic_shared_bytes;
  in.barriers = barriers;
  in.shared_opt_in_set = TRUE;
  if (!ks_occupancy_compute (ks_cudart_arch (), &in, &occ, NULL))
    return -1;
  ks_timing_options_init (&opt);
  t = ks_timing_compute (m->module, sim, ks_cudart_arch (), ks_cudart_gpu (), &occ, &opt,
                         &error);
  if (t == NULL)
    {
      if (!timing_note_said)
        ks_cudart_note ("no model time for %s: %s (events count it as 0)",
                        built->launch.kernel, error->message);
      timing_note_said = TRUE;
      return -1;
    }
  us = t->estimated_duration_us;
  ks_timing_free (t);
  return us;
}


/* The blobs of every allocation as the launch finds it (NULL for one of
 * zeros), before its memory goes to the simulator; NULL when the
 * recording cannot be written (it stops, with a note) */
static char **
record_before (void)
{
  g_autoptr(GError) error = NULL;
  GArray *allocs = ks_cudart_allocs ();
  char **before = g_new0 (char *, allocs->len + 1);

  for (guint i = 0; i < allocs->len; i++)
    {
      const KsCudartAlloc *a = &g_array_index (allocs, KsCudartAlloc, i);

      if (all_zero (a->data, a->size))
        continue;
      before[i] = ks_recording_add_blob (recording, a->data, a->size, &error);
      if (before[i] == NULL)
        {
          ks_cudart_note ("the recording stops: %s", error->message);
          ks_recording_free (g_steal_pointer (&recording));
          for (guint k = 0; k < i; k++)
            g_free (before[k]);
          g_free (before);
          return NULL;
        }
    }
  return before;
}

static void
record_launch (KsCudartModule *m,
               uint32_t        index,
               const Built    *built,
               char          **before,
               gboolean        ran,
               cudaError_t     result,
               const char     *fault_text,
               double          model_us)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree gboolean *changed = g_new0 (gboolean, MAX (built->launch.n_buffers, 1));
  g_autofree char *spec = NULL, *entry = NULL;
  GArray *allocs = ks_cudart_allocs ();

  if (m->record_path == NULL)
    {
      m->record_path = ks_recording_add_module (recording, m->index, m->ptx, m->ptx_len, &error);
      if (m->record_path == NULL)
        goto fail;
      if (m->cubin != NULL)
        {
          /* ptxas's machine code for the GPU, which the window's SASS
           * pane opens (Open a Listing) */
          g_autofree char *name = g_strdup_printf ("modules/module-%u.sm_%d%d.cubin", m->index,
                                                   ks_cudart_props ()->major,
                                                   ks_cudart_props ()->minor);

          if (!ks_recording_add_file (recording, name, m->cubin, m->cubin_len, &error))
            goto fail;
        }
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "index");
  json_builder_add_int_value (b, index);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, built->launch.kernel);
  ks_json_add_dim3 (b, "grid", built->launch.grid);
  ks_json_add_dim3 (b, "block", built->launch.block);
  json_builder_set_member_name (b, "dynamic_shared_bytes");
  json_builder_add_int_value (b, built->launch.dynamic_shared_bytes);
  json_builder_set_member_name (b, "cooperative");
  json_builder_add_boolean_value (b, built->launch.cooperative);
  json_builder_set_member_name (b, "fault");
  if (fault_text != NULL)
    json_builder_add_string_value (b, fault_text);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "error");
  json_builder_add_int_value (b, result);
  json_builder_set_member_name (b, "model_us");
  if (model_us >= 0)
    json_builder_add_double_value (b, model_us);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "after");
  json_builder_begin_object (b);
  for (uint32_t i = 0; ran && i < built->launch.n_buffers; i++)
    {
      const KsCudartAlloc *a = &g_array_index (allocs, KsCudartAlloc, i);
      g_autofree char *blob = NULL;

      /* same bytes, same blob: a buffer changed when its blob did */
      if (!all_zero (a->data, a->size))
        {
          blob = ks_recording_add_blob (recording, a->data, a->size, &error);
          if (blob == NULL)
            goto fail;
        }
      changed[i] = g_strcmp0 (blob, before[i]) != 0;
      if (changed[i])
        {
          g_autofree char *zeros = NULL;

          if (blob == NULL)
            {
              /* (a buffer the launch zeroed has a blob of its zeros) */
              zeros = ks_recording_add_blob (recording, a->data, a->size, &error);
              if (zeros == NULL)
                goto fail;
            }
          json_builder_set_member_name (b, built->launch.buffers[i].name);
          json_builder_add_string_value (b, blob != NULL ? blob : zeros);
        }
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  spec = spec_json (m, built, before, changed);
  entry = json_text (b, FALSE);
  if (ks_recording_add_launch (recording, index, spec, entry, &error))
    return;

fail:
  ks_cudart_note ("the recording stops: %s", error->message);
  ks_recording_free (g_steal_pointer (&recording));
}

cudaError_t
ks_cudart_launch (KsCudartKernel *k,
                  dim3            grid,
                  dim3            block,
                  void          **args,
                  size_t          shared,
                  gboolean        cooperative)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL, *name = ks_sass_demangle_name (k->name);
  g_autofree char *fault_text = NULL;
  const struct cudaDeviceProp *props = ks_cudart_props ();
  KsCudartModule *m = k->module;
  uint32_t index = n_launches++;
  const char *why = NULL;
  char **before = NULL;
  gboolean save;
  GArray *allocs;
  Built built;
  KsSim *sim;
  KsSimStatus status;
  cudaError_t result = cudaSuccess;
  double model_us = -1;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (block.x == 0 || block.y == 0 || block.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0
      || (uint64_t) block.x * block.y * block.z > (uint64_t) props->maxThreadsPerBlock
      || block.x > 1024 || block.y > 1024 || block.z > 64
      || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    {
      ks_cudart_note ("%s<<<(%u,%u,%u), (%u,%u,%u)>>> (launch %u): invalid configuration "
                      "argument (cudaErrorInvalidConfiguration)", name, grid.x, grid.y, grid.z,
                      block.x, block.y, block.z, index);
      return ks_cudart_return (cudaErrorInvalidConfiguration);
    }
  if (shared > (size_t) MAX (props->sharedMemPerBlock, (size_t) k->max_dynamic_shared)
      || shared > props->sharedMemPerBlockOptin)
    {
      ks_cudart_note ("%s (launch %u): %zu bytes of dynamic shared memory: more than the %zu a "
                      "block may have without cudaFuncSetAttribute "
                      "(cudaFuncAttributeMaxDynamicSharedMemorySize), at most %zu with it",
                      name, index, shared, props->sharedMemPerBlock,
                      props->sharedMemPerBlockOptin);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  if (!module_ready (m))
    {
      ks_cudart_note ("%s (launch %u) cannot run: %s", name, index, m->error);
      return ks_cudart_return (cudaErrorNoKernelImageForDevice);
    }
  for (guint i = 0; i < m->vars->len; i++)
    {
      KsCudartVar *v = g_ptr_array_index (m->vars, i);

      if (!ks_cudart_var_contents (v))
        {
          ks_cudart_note ("%s (launch %u) cannot run without its variable %s", name, index,
                          v->name);
          return ks_cudart_return (cudaErrorInvalidValue);
        }
    }
  if (!build_launch (m, k->name, grid, block, (uint32_t) shared, args, FALSE, &built, &message))
    {
      ks_cudart_note ("%s (launch %u) cannot run: %s", name, index, message);
      return ks_cudart_return (cudaErrorInvalidDeviceFunction);
    }
  /* every block of a cooperative launch is resident at once: no more
   * than the GPU's SMs hold (cudaOccupancyMaxActiveBlocksPerMultiprocessor
   * times the SMs, as the samples size their grids) */
  built.launch.cooperative = cooperative;
  if (cooperative)
    {
      int per_sm = 0;
      uint64_t blocks = (uint64_t) grid.x * grid.y * grid.z;

      if (kernel_blocks_per_sm (k, (int) (block.x * block.y * block.z), shared, &per_sm)
          != cudaSuccess)
        {
          built_clear (&built);
          return ks_cudart_return (cudaErrorInvalidDeviceFunction);
        }
      if (blocks > (uint64_t) per_sm * (uint64_t) props->multiProcessorCount)
        {
          ks_cudart_note ("%s (launch %u): a cooperative launch of %" G_GUINT64_FORMAT " blocks, "
                          "and the %s holds %d of them at once (%d on each of its %d SMs): "
                          "cudaErrorCooperativeLaunchTooLarge", name, index, blocks, props->name,
                          per_sm * props->multiProcessorCount, per_sm,
                          props->multiProcessorCount);
          built_clear (&built);
          return ks_cudart_return (cudaErrorCooperativeLaunchTooLarge);
        }
    }

  /* A dry start, the buffers zeros (pages the kernel of this computer
   * gives on first touch): whatever keeps the launch from starting is
   * found before the program's memory is handed over */
  sim = ks_sim_new (m->module, &built.launch, &error);
  if (sim == NULL)
    {
      ks_cudart_note ("%s (launch %u) cannot run: %s", name, index, error->message);
      built_clear (&built);
      return ks_cudart_return (g_error_matches (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH)
                               ? cudaErrorInvalidConfiguration : cudaErrorInvalidValue);
    }
  ks_sim_free (sim);

  save = record_wanted (index, k->name, &why);
  if (save)
    {
      before = record_before ();
      save = before != NULL;
    }

  /* The memory moves into the simulation without a copy (a host-visible
   * allocation, mapped where the program reads it, is copied) */
  allocs = ks_cudart_allocs ();
  for (guint i = 0; i < allocs->len; i++)
    {
      KsCudartAlloc *a = &g_array_index (allocs, KsCudartAlloc, i);
      KsLaunchBuffer *b = &built.launch.buffers[i];

      b->fill.kind = KS_LAUNCH_FILL_BYTES;
      b->data = a->host_visible ? g_memdup2 (a->data, a->size) : g_steal_pointer (&a->data);
    }
  built.launch.take_buffers = TRUE;
  sim = ks_sim_new (m->module, &built.launch, &error);
  if (sim == NULL)
    {
      /* (the dry start says it cannot happen) */
      ks_cudart_note ("%s (launch %u): internal error: the launch that could start cannot: %s; "
                      "the device memory is lost", name, index, error->message);
      for (guint i = 0; i < allocs->len; i++)
        {
          KsCudartAlloc *a = &g_array_index (allocs, KsCudartAlloc, i);

          if (!a->host_visible && a->data == NULL)
            a->data = g_malloc0 (MAX (a->size, 1));
        }
      built_clear (&built);
      if (before != NULL)
        g_strfreev (before);
      ks_cudart_set_sticky (cudaErrorUnknown);
      return ks_cudart_return (cudaErrorUnknown);
    }
  ks_sim_set_threads (sim, 0);
  status = ks_sim_run (sim, 0, NULL);

  {
    const char *out = ks_sim_get_printf (sim);

    if (out != NULL && *out != '\0')
      {
        fputs (out, stdout);
        fflush (stdout);
      }
  }

  /* The memory as the kernel left it: the program's from now on */
  for (guint i = 0; i < allocs->len; i++)
    {
      KsCudartAlloc *a = &g_array_index (allocs, KsCudartAlloc, i);
      size_t size = 0;
      uint8_t *data = ks_sim_take_buffer (sim, i, &size);

      g_assert (size == a->size);
      if (a->host_visible)
        {
          memcpy (a->data, data, size);
          g_free (data);
        }
      else
        a->data = data;
    }

  if (status == KS_SIM_DONE)
    {
      model_us = model_duration (k, &built, sim);
      if (model_us > 0)
        model_clock_us += model_us;
    }
  else
    {
      const KsSimFault *f = ks_sim_get_fault (sim);
      g_autoptr(GString) s = g_string_new (NULL);

      result = status == KS_SIM_FAULTED ? fault_error (f) : cudaErrorLaunchFailure;
      g_string_printf (s, "%s", f->message != NULL ? f->message : "the kernel stopped");
      if (status == KS_SIM_FAULTED && f->kind != KS_SIM_FAULT_UNSUPPORTED)
        g_string_append_printf (s, " (block [%u,%u,%u], thread [%u,%u,%u])",
                                f->block[0], f->block[1], f->block[2],
                                f->thread[0], f->thread[1], f->thread[2]);
      if (f->cuda_file != NULL)
        g_string_append_printf (s, " at %s:%u", f->cuda_file, f->cuda_line);
      else if (f->ptx_line > 0)
        g_string_append_printf (s, " at PTX line %u", f->ptx_line);
      fault_text = g_strdup (s->str);
      ks_cudart_note ("%s<<<(%u,%u,%u), (%u,%u,%u)>>> (launch %u) faulted: %s; the program "
                      "gets %s (%d)", name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                      index, fault_text, error_name (result), result);
      ks_cudart_set_sticky (result);
    }

  if (save && recording != NULL)
    record_launch (m, index, &built, before, TRUE, result, fault_text, model_us);
  else if (recording != NULL)
    ks_recording_skip_launch (recording, why);
  if (before != NULL)
    g_strfreev (before);

  ks_sim_free (sim);
  built_clear (&built);
  return result == cudaSuccess ? cudaSuccess : ks_cudart_return (result);
}

CUDART_API cudaError_t
__cudaLaunchKernel (cudaKernel_t  kernel,
                    dim3          grid,
                    dim3          block,
                    void        **args,
                    size_t        shared,
                    cudaStream_t  stream)
{
  cudaError_t e;

  ks_cudart_lock ();
  if (!g_hash_table_contains (kernels, kernel))
    e = ks_cudart_return (cudaErrorInvalidDeviceFunction);
  else if (ks_cudart_legacy_in_capture (stream, "a kernel launch") != cudaSuccess)
    e = cudaErrorStreamCaptureImplicit;
  else if (ks_cudart_capturing (stream) != NULL)
    e = ks_cudart_capture_launch (stream, kernel, grid, block, args, shared);
  else
    e = ks_cudart_launch (kernel, grid, block, args, shared, FALSE);
  ks_cudart_unlock ();
  return e;
}

CUDART_API cudaError_t
__cudaLaunchKernel_ptsz (cudaKernel_t  kernel,
                         dim3          grid,
                         dim3          block,
                         void        **args,
                         size_t        shared,
                         cudaStream_t  stream)
{
  /* (stream 0 is the thread's own default stream: cudaStreamPerThread) */
  return __cudaLaunchKernel (kernel, grid, block, args, shared,
                             stream != NULL ? stream : (cudaStream_t) (uintptr_t) 2);
}

static cudaError_t
launch_by_function (const void   *func,
                    dim3          grid,
                    dim3          block,
                    void        **args,
                    size_t        shared,
                    cudaStream_t  stream,
                    gboolean      cooperative)
{
  KsCudartKernel *k;
  cudaError_t e;

  if (cooperative
      && ks_cudart_refuse_in_capture (stream, "cudaLaunchCooperativeKernel") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  ks_cudart_lock ();
  k = ks_cudart_find_kernel (func);
  if (k == NULL)
    e = ks_cudart_return (cudaErrorInvalidDeviceFunction);
  else if (ks_cudart_legacy_in_capture (stream, "a kernel launch") != cudaSuccess)
    e = cudaErrorStreamCaptureImplicit;
  else if (ks_cudart_capturing (stream) != NULL)
    e = ks_cudart_capture_launch (stream, k, grid, block, args, shared);
  else
    e = ks_cudart_launch (k, grid, block, args, shared, cooperative);
  ks_cudart_unlock ();
  return e;
}

CUDART_API cudaError_t
cudaLaunchKernel (const void   *func,
                  dim3          grid,
                  dim3          block,
                  void        **args,
                  size_t        shared,
                  cudaStream_t  stream)
{
  return launch_by_function (func, grid, block, args, shared, stream, FALSE);
}

CUDART_API cudaError_t
cudaLaunchCooperativeKernel (const void   *func,
                             dim3          grid,
                             dim3          block,
                             void        **args,
                             size_t        shared,
                             cudaStream_t  stream)
{
  /* a kernel that synchronizes the grid is refused (ks_cudart_launch) */
  return launch_by_function (func, grid, block, args, shared, stream, TRUE);
}

CUDART_API cudaError_t
cudaFuncSetAttribute (const void *func,
                      int         attr,
                      int         value)
{
  KsCudartKernel *k;

  ks_cudart_lock ();
  k = ks_cudart_find_kernel (func);
  if (k != NULL && attr == KS_CUDA_FUNC_ATTR_MAX_DYNAMIC_SHARED)
    k->max_dynamic_shared = value;
  ks_cudart_unlock ();
  if (k == NULL)
    return ks_cudart_return (cudaErrorInvalidDeviceFunction);
  if (attr == KS_CUDA_FUNC_ATTR_MAX_DYNAMIC_SHARED
      && (value < 0 || (size_t) value > ks_cudart_props ()->sharedMemPerBlockOptin))
    return ks_cudart_return (cudaErrorInvalidValue);
  return cudaSuccess;
}

static cudaError_t
occupancy (int        *blocks,
           const void *func,
           int         block_size,
           size_t      shared)
{
  KsCudartKernel *k;

  if (blocks == NULL || block_size <= 0)
    return ks_cudart_return (cudaErrorInvalidValue);
  k = ks_cudart_find_kernel (func);
  if (k == NULL)
    return ks_cudart_return (cudaErrorInvalidDeviceFunction);
  return kernel_blocks_per_sm (k, block_size, shared, blocks);
}

/* The blocks of @k that an SM holds at once (the occupancy calculator's) */
static cudaError_t
kernel_blocks_per_sm (KsCudartKernel *k,
                      int             block_size,
                      size_t          shared,
                      int            *blocks)
{
  g_autoptr(GError) error = NULL;
  uint32_t registers, static_shared, barriers;
  gboolean exact;
  KsOccupancyInput in;
  KsOccupancyResult r;

  if (!ks_cudart_kernel_resources (k, &registers, &static_shared, &barriers, &exact))
    {
      ks_cudart_note ("cudaOccupancyMaxActiveBlocksPerMultiprocessor: %s's module cannot be "
                      "read: %s", k->name, k->module->error ? k->module->error : "");
      return ks_cudart_return (cudaErrorInvalidDeviceFunction);
    }
  if (!exact && !k->estimate_said)
    ks_cudart_note ("cudaOccupancyMaxActiveBlocksPerMultiprocessor: %s: the program carries no "
                    "cubin for sm_%d%d, so its registers (%u) are KernelScope's estimate from "
                    "the PTX", k->name, ks_cudart_props ()->major, ks_cudart_props ()->minor,
                    registers);
  k->estimate_said |= !exact;
  ks_occupancy_input_init (&in);
  in.block_size = (uint32_t) block_size;
  in.registers_per_thread = registers;
  in.static_shared_bytes = static_shared;
  in.dynamic_shared_bytes = (uint32_t) shared;
  in.barriers = barriers;
  in.shared_opt_in_set = (size_t) k->max_dynamic_shared >= shared;
  if (!ks_occupancy_compute (ks_cudart_arch (), &in, &r, &error))
    {
      *blocks = 0;
      return cudaSuccess;
    }
  *blocks = (int) r.active_blocks_per_sm;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor (int        *blocks,
                                               const void *func,
                                               int         block_size,
                                               size_t      shared)
{
  cudaError_t e;

  ks_cudart_lock ();
  e = occupancy (blocks, func, block_size, shared);
  ks_cudart_unlock ();
  return e;
}

CUDART_API cudaError_t
cudaFuncGetAttributes (struct cudaFuncAttributes *attr,
                       const void                *func)
{
  const struct cudaDeviceProp *p = ks_cudart_props ();
  KsCudartKernel *k;
  uint32_t registers = 0, static_shared = 0, barriers = 0, threads;
  gboolean exact = FALSE, ok;
  const KsPtxFunction *f = NULL;

  if (attr == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  ks_cudart_lock ();
  k = ks_cudart_find_kernel (func);
  ok = k != NULL && ks_cudart_kernel_resources (k, &registers, &static_shared, &barriers, &exact)
       && module_ready (k->module);
  if (ok)
    f = ks_ptx_module_find_function (k->module->module, k->name);
  ks_cudart_unlock ();
  if (!ok)
    return ks_cudart_return (cudaErrorInvalidDeviceFunction);
  if (!exact && !k->estimate_said)
    ks_cudart_note ("cudaFuncGetAttributes: %s: the program carries no cubin for sm_%d%d, so "
                    "numRegs (%u) is KernelScope's estimate from the PTX", k->name, p->major,
                    p->minor, registers);
  k->estimate_said |= !exact;
  /* the most threads a block can have with these registers: whole warps,
   * each warp's registers allocated in 256s (every architecture since
   * Maxwell), within the block's register file */
  threads = (uint32_t) p->maxThreadsPerBlock;
  if (registers > 0)
    {
      uint32_t per_warp = (registers * 32 + 255) / 256 * 256;

      threads = MIN (threads, (uint32_t) p->regsPerBlock / per_warp * 32);
    }
  if (f != NULL && f->maxntid[0] != 0)
    threads = MIN (threads, f->maxntid[0] * MAX (f->maxntid[1], 1) * MAX (f->maxntid[2], 1));
  memset (attr, 0, sizeof *attr);
  attr->sharedSizeBytes = static_shared;
  attr->maxThreadsPerBlock = (int) threads;
  attr->numRegs = (int) registers;
  attr->ptxVersion = (int) k->module->ptx_arch;
  attr->binaryVersion = exact ? p->major * 10 + p->minor : (int) k->module->ptx_arch;
  attr->maxDynamicSharedSizeBytes = k->max_dynamic_shared > 0
                                    ? k->max_dynamic_shared
                                    : (int) (p->sharedMemPerBlock - MIN (static_shared,
                                                                         p->sharedMemPerBlock));
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags (int          *blocks,
                                                        const void   *func,
                                                        int           block_size,
                                                        size_t        shared,
                                                        unsigned int  flags)
{
  (void) flags;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor (blocks, func, block_size, shared);
}

void
ks_cudart_finish (void)
{
  if (recording != NULL)
    {
      ks_recording_flush (recording, NULL);
      ks_recording_free (g_steal_pointer (&recording));
    }
}
