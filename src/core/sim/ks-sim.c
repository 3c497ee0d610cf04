/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim.c: the functional SIMT engine.
 *
 * CTAs run one after another; within a CTA, warps run round-robin in bursts
 * until they reach a barrier or exit.  A warp executes one instruction for
 * all its active lanes at once: registers are stored per warp as 32 lane
 * values per slot, predicates as 32-bit lane masks, and divergence is mask
 * arithmetic on a SIMT stack that reconverges at the immediate
 * post-dominator of the branch (as pre-Volta hardware and GPGPU-Sim do). */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-format.h"
#include "ks-sim-exec.h"
#include "ks-sim-fast.h"
#include "ks-sim-mbarrier.h"
#include "ks-sim-memory.h"
#include "ks-sim-private.h"
#include "ks-sass.h"

G_DEFINE_QUARK (ks-sim-error-quark, ks_sim_error)

#define BURST 256
/* The most shared memory any GPU gives one block (sm_90, sm_100) */
#define KS_SIM_MAX_SHARED (228u * 1024u)

const char *
ks_sim_fault_kind_name (KsSimFaultKind kind)
{
  switch (kind)
    {
    case KS_SIM_FAULT_OUT_OF_BOUNDS: return "out_of_bounds";
    case KS_SIM_FAULT_MISALIGNED: return "misaligned";
    case KS_SIM_FAULT_DEADLOCK: return "deadlock";
    case KS_SIM_FAULT_TRAP: return "trap";
    case KS_SIM_FAULT_STEP_LIMIT: return "step_limit";
    case KS_SIM_FAULT_UNSUPPORTED: return "unsupported";
    case KS_SIM_FAULT_STACK_OVERFLOW: return "stack_overflow";
    case KS_SIM_FAULT_TEXTURE: return "texture";
    case KS_SIM_FAULT_TIME_LIMIT: return "time_limit";
    case KS_SIM_FAULT_NONE:
    default: return "none";
    }
}

/* ---- faults ------------------------------------------------------------------------ */

void
ks_sim_fault (KsSim            *sim,
              KsSimWarp        *w,
              int               lane,
              const KsPtxInsn  *insn,
              KsSimFaultKind    kind,
              gboolean          has_address,
              uint64_t          address,
              const char       *fmt,
              ...)
{
  KsSimFault *f = &sim->fault;
  va_list args;

  if (sim->status == KS_SIM_FAULTED)
    return;
  sim->status = KS_SIM_FAULTED;
  f->kind = kind;
  va_start (args, fmt);
  f->message = g_strdup_vprintf (fmt, args);
  va_end (args);
  f->has_address = has_address;
  f->address = address;
  memcpy (f->block, sim->cta.ctaid, sizeof f->block);

  if (w != NULL)
    {
      uint32_t t = w->first_thread + (uint32_t) (lane < 0 ? 0 : lane);
      const uint32_t *bd = sim->launch->block;

      f->thread[0] = t % bd[0];
      f->thread[1] = (t / bd[0]) % bd[1];
      f->thread[2] = t / (bd[0] * bd[1]);
    }
  if (insn != NULL)
    {
      uint32_t file, line;

      f->ptx_line = insn->line;
      if (ks_ptx_insn_source (sim->module, insn, &file, &line))
        {
          const KsPtxFile *pf = ks_ptx_module_find_file (sim->module, file);

          f->cuda_line = line;
          f->cuda_file = pf ? ks_ptx_span_dup (sim->module, pf->path) : g_strdup_printf ("#%u", file);
        }
    }
}

static void async_reset (KsSim *sim);

/* ---- the functions a launch runs --------------------------------------------------- */

/* Per function, whether a launch of entry may run it
 * (ks_ptx_module_reach, with the functions variables' initializers name).
 * A call through a register is taken to reach any function: then all
 * are.  Those that cannot run keep their per-instruction tables untouched
 * (a module of thousands of kernels runs one), and nothing depends on
 * this for correctness: an instruction without its fast form runs in the
 * general executor. */
static uint8_t *
reachable_functions (const KsPtxModule *m,
                     uint32_t           entry)
{
  KsPtxReach reach;
  uint8_t *runs;

  ks_ptx_module_reach (m, entry, KS_PTX_REACH_INITIALIZERS, &reach);
  runs = g_steal_pointer (&reach.functions);
  if (reach.indirect)
    memset (runs, 1, MAX (m->n_functions, 1));
  ks_ptx_reach_clear (&reach);
  return runs;
}

gboolean
ks_sim_may_run_function (const KsSim *sim,
                         uint32_t     function)
{
  g_return_val_if_fail (sim != NULL, FALSE);
  return function < sim->module->n_functions && sim->runs_fn[function];
}

/* ---- memory ------------------------------------------------------------------------- */

/* An allocation of @size bytes whose values are @data (transfer full, at
 * least @size bytes), or zeroed ones when @data is NULL */
static KsSimAlloc *
add_alloc_taking (KsSim    *sim,
                  uint64_t  size,
                  uint64_t  align,
                  uint8_t  *data)
{
  KsSimAlloc *a;
  uint64_t base = KS_SIM_GLOBAL_BASE;

  if (sim->n_allocs > 0)
    {
      const KsSimAlloc *last = &sim->allocs[sim->n_allocs - 1];

      base = last->base + last->size + KS_SIM_ALLOC_GUARD;
    }
  if (align < 256)
    align = 256;
  base = (base + align - 1) & ~(align - 1);

  sim->allocs = g_renew (KsSimAlloc, sim->allocs, sim->n_allocs + 1);
  a = &sim->allocs[sim->n_allocs++];
  memset (a, 0, sizeof *a);
  a->base = base;
  a->size = size;
  a->data = data != NULL ? data : g_malloc0 (size ? size : 1);
  a->buffer = -1;
  a->var = KS_PTX_NONE;
  return a;
}

static KsSimAlloc *
add_alloc (KsSim    *sim,
           uint64_t  size,
           uint64_t  align)
{
  return add_alloc_taking (sim, size, align, NULL);
}

/* The allocation holding [addr, addr + size), or NULL. */
static KsSimAlloc *
find_alloc (KsSim    *sim,
            uint64_t  addr,
            uint64_t  size)
{
  KsSimAlloc *a;
  uint32_t lo = 0, hi = sim->n_allocs;

  if (sim->last_alloc < sim->n_allocs)
    {
      a = &sim->allocs[sim->last_alloc];
      if (addr >= a->base && addr - a->base + size <= a->size)
        return a;
    }
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      a = &sim->allocs[mid];
      if (addr < a->base)
        hi = mid;
      else if (addr >= a->base + a->size)
        lo = mid + 1;
      else
        {
          if (addr - a->base + size > a->size)
            return NULL;
          sim->last_alloc = mid;
          return a;
        }
    }
  return NULL;
}

static char *
n_bytes (uint64_t n)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", n, n == 1 ? "byte" : "bytes");
}

/* "buffer 'a'", "variable 'table'" */
static char *
alloc_name (KsSim            *sim,
            const KsSimAlloc *a)
{
  if (a->buffer >= 0 && sim->launch != NULL && (uint32_t) a->buffer < sim->launch->n_buffers)
    return g_strdup_printf ("buffer '%s'", sim->launch->buffers[a->buffer].name);
  if (a->var != KS_PTX_NONE)
    {
      g_autofree char *name = ks_ptx_span_dup (sim->module, sim->module->vars[a->var].name);

      return g_strdup_printf ("%s variable '%s'",
                              sim->module->vars[a->var].space == KS_PTX_SPACE_CONST
                                ? "constant" : "global", name);
    }
  if (a->workspace)
    return g_strdup ("the cooperative launch's grid workspace");
  return g_strdup_printf ("the allocation at 0x%" G_GINT64_MODIFIER "x", a->base);
}

/* Where [addr, addr + size), in no allocation, is: the nearest allocation
 * and how far, as compute-sanitizer says it ("12 bytes past the end of
 * buffer 'a' (4096 bytes)", "256 bytes before buffer 'J' (64 bytes)"); the
 * distance is from the allocation's end to the access's first byte, or
 * from the access's first byte to the allocation. */
static char *
describe_outside (KsSim    *sim,
                  uint64_t  addr,
                  uint64_t  size)
{
  const KsSimAlloc *prev = NULL, *next = NULL, *near;
  uint32_t lo = 0, hi = sim->n_allocs;
  g_autofree char *name = NULL;
  g_autofree char *what = NULL;
  g_autofree char *total = NULL;
  uint64_t end, d;

  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (sim->allocs[mid].base <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  prev = lo > 0 ? &sim->allocs[lo - 1] : NULL;
  next = lo < sim->n_allocs ? &sim->allocs[lo] : NULL;
  if (prev == NULL && next == NULL)
    return g_strdup ("outside every allocation (there are none)");

  /* begins inside, ends outside */
  if (prev != NULL && addr - prev->base < prev->size)
    {
      name = alloc_name (sim, prev);
      what = n_bytes (addr + size - (prev->base + prev->size));
      total = n_bytes (prev->size);
      return g_strdup_printf ("its last %s are past the end of %s (%s)", what, name, total);
    }

  end = prev != NULL ? prev->base + prev->size : 0;
  if (next == NULL || (prev != NULL && addr - end <= next->base - addr))
    near = prev, d = addr - end;
  else
    near = next, d = next->base - addr;
  name = alloc_name (sim, near);
  if (d > G_GUINT64_CONSTANT (1) << 32)
    return g_strdup_printf ("outside every allocation (the nearest, %s, is more than 4 GiB away)",
                            name);
  what = n_bytes (d);
  total = n_bytes (near->size);
  return g_strdup_printf (near == prev ? "%s past the end of %s (%s)" : "%s before %s (%s)",
                          what, name, total);
}

const KsSimAlloc *
ks_sim_find_alloc (KsSim    *sim,
                   uint64_t  addr)
{
  return find_alloc (sim, addr, 1);
}

static const char *
space_label (KsPtxSpace space)
{
  switch (space)
    {
    case KS_PTX_SPACE_GLOBAL: return "global";
    case KS_PTX_SPACE_SHARED: case KS_PTX_SPACE_SHARED_CLUSTER: return "shared";
    case KS_PTX_SPACE_LOCAL: return "local";
    case KS_PTX_SPACE_CONST: return "constant";
    case KS_PTX_SPACE_PARAM: return "parameter";
    default: return "generic";
    }
}

/* Resolves an address in `space` for one lane to host memory.  Returns NULL
 * after raising a fault. */
uint8_t *
ks_sim_resolve (KsSim           *sim,
                KsSimWarp       *w,
                int              lane,
                const KsPtxInsn *insn,
                KsPtxSpace       space,
                uint64_t         addr,
                uint32_t         size,
                gboolean         store)
{
  if (size > 1 && (addr & (size - 1)) != 0)
    {
      ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_MISALIGNED, TRUE, addr,
                    "misaligned %u-byte %s access at 0x%" G_GINT64_MODIFIER "x",
                    size, space_label (space), addr);
      return NULL;
    }

  if (space == KS_PTX_SPACE_NONE)
    {
      if (addr >= KS_SIM_SHARED_WINDOW && addr < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE)
        space = KS_PTX_SPACE_SHARED, addr -= KS_SIM_SHARED_WINDOW;
      else if (addr >= KS_SIM_LOCAL_WINDOW && addr < KS_SIM_LOCAL_WINDOW + KS_SIM_WINDOW_SIZE)
        space = KS_PTX_SPACE_LOCAL, addr -= KS_SIM_LOCAL_WINDOW;
      else if (addr >= KS_SIM_PARAM_WINDOW && addr < KS_SIM_PARAM_WINDOW + KS_SIM_WINDOW_SIZE)
        space = KS_PTX_SPACE_PARAM, addr -= KS_SIM_PARAM_WINDOW;
      else
        space = KS_PTX_SPACE_GLOBAL;
    }

  switch (space)
    {
    case KS_PTX_SPACE_GLOBAL:
    case KS_PTX_SPACE_CONST:
      {
        KsSimAlloc *a = find_alloc (sim, addr, size);

        if (a == NULL)
          {
            g_autofree char *where = describe_outside (sim, addr, size);

            ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                          "invalid %s %s of size %u at 0x%" G_GINT64_MODIFIER "x: %s",
                          space_label (space), store ? "write" : "read", size, addr, where);
            return NULL;
          }
        if (store && a->readonly)
          {
            ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                          "write of size %u to read-only memory at 0x%" G_GINT64_MODIFIER "x",
                          size, addr);
            return NULL;
          }
        return a->data + (addr - a->base);
      }
    case KS_PTX_SPACE_SHARED:
    case KS_PTX_SPACE_SHARED_CLUSTER:
      if (sim->reserved_smem > 0 && addr >= KS_SIM_RESERVED_SMEM_BASE
          && addr + size <= KS_SIM_RESERVED_SMEM_BASE + sim->reserved_smem)
        return sim->cta.shared + sim->cta.shared_size + (addr - KS_SIM_RESERVED_SMEM_BASE);
      if (addr + size > sim->cta.shared_size || addr + size < addr)
        {
          ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                        "invalid shared %s of size %u at offset 0x%" G_GINT64_MODIFIER "x: "
                        "the block has %u bytes of shared memory",
                        store ? "write" : "read", size, addr, sim->cta.shared_size);
          return NULL;
        }
      return sim->cta.shared + addr;
    case KS_PTX_SPACE_LOCAL:
      if (addr + size > w->local_top || addr + size < addr)
        {
          ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                        "invalid local %s of size %u at offset 0x%" G_GINT64_MODIFIER "x: "
                        "the thread's stack holds %u bytes",
                        store ? "write" : "read", size, addr, w->local_top);
          return NULL;
        }
      return w->local + (size_t) lane * w->local_cap + addr;
    case KS_PTX_SPACE_PARAM:
      /* Kernel parameters: the bank, read-only */
      if (store || addr + size > sim->param_bank_size)
        {
          ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_OUT_OF_BOUNDS, TRUE, addr,
                        "invalid parameter %s of size %u at offset 0x%" G_GINT64_MODIFIER "x",
                        store ? "write" : "read", size, addr);
          return NULL;
        }
      return sim->param_bank + addr;
    default:
      ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_UNSUPPORTED, TRUE, addr,
                    "memory access in the %s state space is not supported",
                    ks_ptx_space_name (space));
      return NULL;
    }
}

/* ---- layout ---------------------------------------------------------------------------- */

static uint64_t
var_size (const KsPtxVar *v)
{
  uint64_t n = v->n_elements ? v->n_elements : 0;

  return (uint64_t) ks_ptx_type_size (v->type) * (v->vec ? v->vec : 1) * n;
}

static uint32_t
var_align (const KsPtxVar *v)
{
  uint32_t a = v->align ? v->align : ks_ptx_type_size (v->type) * (v->vec ? v->vec : 1);

  return a ? a : 1;
}

static uint64_t
align_up (uint64_t x,
          uint64_t a)
{
  return a > 1 ? (x + a - 1) / a * a : x;
}

static void
write_init (KsSim          *sim,
            const KsPtxVar *v,
            uint8_t        *dst,
            uint64_t        capacity)
{
  const KsPtxModule *m = sim->module;
  uint32_t esize = ks_ptx_type_size (v->type);
  uint64_t off = 0;

  for (uint32_t i = 0; i < v->n_init && off + esize <= capacity; i++)
    {
      const KsPtxInit *in = &m->inits[v->first_init + i];
      uint64_t bits = in->value;

      switch (in->kind)
        {
        case KS_PTX_INIT_INT:
          if (v->type == KS_PTX_TYPE_F32)
            bits = ks_f32_to_bits ((float) (int64_t) in->value);
          else if (v->type == KS_PTX_TYPE_F64)
            bits = ks_f64_to_bits ((double) (int64_t) in->value);
          break;
        case KS_PTX_INIT_F32:
          if (v->type == KS_PTX_TYPE_F64)
            bits = ks_f64_to_bits ((double) ks_f32_from_bits ((uint32_t) in->value));
          break;
        case KS_PTX_INIT_F64:
          if (esize == 4)
            bits = ks_f32_to_bits ((float) ks_f64_from_bits (in->value));
          break;
        case KS_PTX_INIT_VAR:
        case KS_PTX_INIT_GENERIC_VAR:
          {
            const KsPtxVar *t = &m->vars[in->index];

            bits = sim->var_addr[in->index] + in->value;
            if (in->kind == KS_PTX_INIT_GENERIC_VAR && t->space == KS_PTX_SPACE_SHARED)
              bits += KS_SIM_SHARED_WINDOW;
          }
          break;
        case KS_PTX_INIT_FUNC:
          bits = KS_SIM_FUNC_WINDOW + in->index + in->value;
          break;
        default:
          continue;             /* sampler fields and unresolved names */
        }
      memcpy (dst + off, &bits, MIN (esize, 8));
      off += esize;
    }
}

static uint32_t find_symbol (const KsPtxModule *m,
                             const char        *name);

/* For each module variable, the launch buffer that is its storage (a
 * buffer's "variable"), or KS_PTX_NONE; NULL when a buffer names no
 * variable with storage */
static uint32_t *
bound_buffers (KsSim   *sim,
               GError **error)
{
  const KsPtxModule *m = sim->module;
  const KsLaunch *l = sim->launch;
  uint32_t *bound = g_new (uint32_t, MAX (m->n_vars, 1));

  for (uint32_t i = 0; i < m->n_vars; i++)
    bound[i] = KS_PTX_NONE;
  for (uint32_t b = 0; b < l->n_buffers; b++)
    {
      const char *name = l->buffers[b].variable;
      uint32_t var;

      if (name == NULL)
        continue;
      var = find_symbol (m, name);
      if (var == KS_PTX_NONE
          || (m->vars[var].linkage == KS_PTX_LINKAGE_EXTERN && var_size (&m->vars[var]) == 0))
        {
          g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                       "%sbuffers.%s.variable: %s has no .global or .const variable named %s "
                       "with storage (give its name as the PTX writes it)", sim->where,
                       l->buffers[b].name, m->filename, name);
          g_free (bound);
          return NULL;
        }
      if (l->buffers[b].size < var_size (&m->vars[var]))
        {
          g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                       "%sbuffers.%s.variable: the buffer has %zu bytes, and %s (line %u) "
                       "has %" G_GUINT64_FORMAT, sim->where, l->buffers[b].name,
                       l->buffers[b].size, name, m->vars[var].line, var_size (&m->vars[var]));
          g_free (bound);
          return NULL;
        }
      bound[var] = b;
    }
  return bound;
}

/* Gives every variable its address: globals and constants get allocations
 * with their initializers (or are the launch buffer the spec binds to
 * them); shared variables offsets in the CTA's shared memory; parameters
 * and locals offsets in their function's frame. */
static gboolean
layout_module (KsSim   *sim,
               GError **error)
{
  const KsPtxModule *m = sim->module;
  g_autofree uint32_t *bound = bound_buffers (sim, error);
  uint64_t shared = 0;

  if (bound == NULL)
    return FALSE;
  sim->var_addr = g_new0 (uint64_t, m->n_vars ? m->n_vars : 1);
  sim->layouts = g_new0 (KsSimFnLayout, m->n_functions ? m->n_functions : 1);

  for (uint32_t i = 0; i < m->n_vars; i++)
    {
      const KsPtxVar *v = &m->vars[i];
      uint64_t size = var_size (v);

      switch (v->space)
        {
        case KS_PTX_SPACE_GLOBAL:
        case KS_PTX_SPACE_CONST:
          {
            KsSimAlloc *a;

            if (v->linkage == KS_PTX_LINKAGE_EXTERN && size == 0)
              break;
            if (bound[i] != KS_PTX_NONE)
              {
                a = &sim->allocs[sim->buffer_alloc[bound[i]]];
                a->var = i;
                a->readonly = v->space == KS_PTX_SPACE_CONST;
                sim->var_addr[i] = a->base;
                break;
              }
            if (size > (G_GUINT64_CONSTANT (1) << 32))
              {
                g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                             "variable at line %u is too large to simulate", v->line);
                return FALSE;
              }
            a = add_alloc (sim, size, var_align (v));
            a->var = i;
            a->readonly = v->space == KS_PTX_SPACE_CONST;
            sim->var_addr[i] = a->base;
          }
          break;
        case KS_PTX_SPACE_SHARED:
          if (v->flags & KS_PTX_VAR_UNSIZED)
            break;              /* dynamic shared memory: placed after the static part */
          shared = align_up (shared, var_align (v));
          sim->var_addr[i] = shared;
          shared += size;
          break;
        case KS_PTX_SPACE_PARAM:
          if (v->function == sim->entry && (v->flags & KS_PTX_VAR_PARAM))
            break;              /* the parameter bank, below */
          if (v->function != KS_PTX_NONE)
            {
              KsSimFnLayout *l = &sim->layouts[v->function];

              l->param_size = (uint32_t) align_up (l->param_size, var_align (v));
              sim->var_addr[i] = l->param_size;
              l->param_size += (uint32_t) size;
            }
          break;
        case KS_PTX_SPACE_LOCAL:
          if (v->function != KS_PTX_NONE)
            {
              KsSimFnLayout *l = &sim->layouts[v->function];
              uint64_t end;

              l->local_size = (uint32_t) align_up (l->local_size, var_align (v));
              sim->var_addr[i] = l->local_size;
              /* A frame past the limit is a fault when pushed (the size
               * is in its message), so it only must not wrap here */
              end = MIN ((uint64_t) l->local_size + size, G_MAXUINT32 - 1024u);
              l->local_size = (uint32_t) end;
            }
          break;
        default:
          break;
        }
    }

  /* Initializers may point at any variable, so they come after addresses
   * (a variable that is a launch buffer has the buffer's contents) */
  for (uint32_t i = 0; i < sim->n_allocs; i++)
    {
      KsSimAlloc *a = &sim->allocs[i];

      if (a->var != KS_PTX_NONE && a->buffer < 0)
        write_init (sim, &m->vars[a->var], a->data, a->size);
    }

  shared = align_up (shared, 16);
  for (uint32_t i = 0; i < m->n_vars; i++)
    if (m->vars[i].space == KS_PTX_SPACE_SHARED && (m->vars[i].flags & KS_PTX_VAR_UNSIZED))
      sim->var_addr[i] = shared;
  /* The static part alone over the limit is the declarations' fault, not
   * the launch's: name the largest one (and keep the sum from wrapping) */
  if (shared > KS_SIM_MAX_SHARED)
    {
      const KsPtxVar *big = NULL;
      g_autofree char *name = NULL;

      for (uint32_t i = 0; i < m->n_vars; i++)
        if (m->vars[i].space == KS_PTX_SPACE_SHARED && !(m->vars[i].flags & KS_PTX_VAR_UNSIZED)
            && (big == NULL || var_size (&m->vars[i]) > var_size (big)))
          big = &m->vars[i];
      g_assert (big != NULL);
      name = ks_ptx_span_dup (m, big->name);
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "the static .shared variable '%s' (line %u) is %" G_GUINT64_FORMAT " bytes: "
                   "the block's static shared memory, %" G_GUINT64_FORMAT " bytes, is more than "
                   "any GPU has (228 KiB)", name, big->line, var_size (big), shared);
      return FALSE;
    }
  sim->static_shared = (uint32_t) shared;
  return TRUE;
}

/* The kernel's parameters in the bank, checked against the launch */
static gboolean
layout_params (KsSim   *sim,
               GError **error)
{
  const KsPtxModule *m = sim->module;
  const KsPtxFunction *f = &m->functions[sim->entry];
  const KsLaunch *l = sim->launch;
  uint64_t off = 0;
  g_autofree char *kname = ks_ptx_span_dup (m, f->name);

  if (l->n_params != f->n_params)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "%sparams: kernel %s takes %u parameters, the launch gives %u",
                   sim->where, kname, f->n_params, l->n_params);
      return FALSE;
    }
  for (uint32_t i = 0; i < f->n_params; i++)
    {
      const KsPtxVar *v = &m->vars[f->first_param + i];

      off = align_up (off, var_align (v));
      sim->var_addr[f->first_param + i] = off;
      off += var_size (v);
      /* the parser refuses this; a module built otherwise must not make
       * the bank allocate gigabytes */
      if (off > KS_PTX_MAX_KERNEL_PARAM_BYTES)
        {
          g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                       "%sthe parameters of kernel %s are over CUDA's limit of %u bytes",
                       sim->where, kname, KS_PTX_MAX_KERNEL_PARAM_BYTES);
          return FALSE;
        }
    }
  sim->param_bank_size = (uint32_t) off;
  sim->param_bank = g_malloc0 (off ? off : 1);

  for (uint32_t i = 0; i < f->n_params; i++)
    {
      const KsPtxVar *v = &m->vars[f->first_param + i];
      const KsLaunchParam *p = &l->params[i];
      uint64_t size = var_size (v);
      uint64_t bits;

      if (p->handle != KS_LAUNCH_HANDLE_NONE)
        {
          gboolean surface = p->handle == KS_LAUNCH_HANDLE_SURFACE;

          if (size != 8)
            {
              g_autofree char *pname = ks_ptx_span_dup (m, v->name);

              g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                           "%sparams[%u]: a %s handle (8 bytes) is passed to parameter %s of %"
                           G_GUINT64_FORMAT " bytes", sim->where, i, surface ? "surface" : "texture",
                           pname, size);
              return FALSE;
            }
          bits = ks_tex_handle (surface ? KS_TEX_SURFACE : KS_TEX_TEXTURE, p->object);
        }
      else if (p->is_buffer)
        {
          if (size != 8 && !(size == 4 && m->address_size == 32))
            {
              g_autofree char *pname = ks_ptx_span_dup (m, v->name);

              g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                           "%sparams[%u]: a buffer is passed, but parameter %s is %" G_GUINT64_FORMAT
                           " bytes, not a pointer", sim->where, i, pname, size);
              return FALSE;
            }
          /* bounds stay those of the buffer's allocation */
          bits = sim->allocs[sim->buffer_alloc[p->buffer]].base + (uint64_t) p->offset;
        }
      else if (p->bytes != NULL)
        {
          uint8_t *dst = sim->param_bank + sim->var_addr[f->first_param + i];

          if (p->n_bytes != size)
            {
              g_autofree char *pname = ks_ptx_span_dup (m, v->name);

              g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                           "%sparams[%u]: the struct given is %u bytes, but parameter %s is %"
                           G_GUINT64_FORMAT " bytes", sim->where, i, p->n_bytes, pname, size);
              return FALSE;
            }
          if (p->n_relocs > 0 && m->address_size == 32)
            {
              g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                           "%sparams[%u]: a struct's buffer fields are 64-bit pointers, and this "
                           "module's addresses are 32 bits: give its bytes instead",
                           sim->where, i);
              return FALSE;
            }
          memcpy (dst, p->bytes, p->n_bytes);
          for (uint32_t k = 0; k < p->n_relocs; k++)
            {
              const KsLaunchReloc *r = &p->relocs[k];
              uint64_t addr = sim->allocs[sim->buffer_alloc[r->buffer]].base + (uint64_t) r->offset;

              memcpy (dst + r->at, &addr, 8);
            }
          continue;
        }
      else
        {
          if (ks_ptx_type_size (p->type) != size)
            {
              g_autofree char *pname = ks_ptx_span_dup (m, v->name);

              g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                           "%sparams[%u]: a %s (%u bytes) is passed to parameter %s of %"
                           G_GUINT64_FORMAT " bytes", sim->where,
                           i, ks_ptx_type_name (p->type), ks_ptx_type_size (p->type), pname, size);
              return FALSE;
            }
          bits = p->bits;
        }
      memcpy (sim->param_bank + sim->var_addr[f->first_param + i], &bits, MIN (size, 8));
    }
  return TRUE;
}

/* ---- warps and CTAs ------------------------------------------------------------------------- */

void
ks_sim_frame_release (KsSim      *sim,
                      KsSimWarp  *w,
                      KsSimFrame *f)
{
  if (f->fn == sim->entry && w->spare_regs == NULL)
    {
      w->spare_regs = f->regs;
      w->spare_preds = f->preds;
      w->spare_params = f->params;
    }
  else
    {
      g_free (f->regs);
      g_free (f->preds);
      g_free (f->params);
    }
  f->regs = NULL;
  f->preds = NULL;
  f->params = NULL;
}

/* Empties a warp for its next block.  Its arrays stay allocated: the SIMT
 * stack, the frames, local memory (push_frame zeroes what a frame uses)
 * and the kernel frame's registers. */
static void
warp_reset (KsSim     *sim,
            KsSimWarp *w)
{
  KsSimWarp keep = *w;

  for (uint32_t i = 0; i < w->n_frames; i++)
    ks_sim_frame_release (sim, w, &w->frames[i]);
  keep.spare_regs = w->spare_regs;
  keep.spare_preds = w->spare_preds;
  keep.spare_params = w->spare_params;
  memset (w, 0, sizeof *w);
  w->simt = keep.simt;
  w->cap_simt = keep.cap_simt;
  w->frames = keep.frames;
  w->cap_frames = keep.cap_frames;
  w->local = keep.local;
  w->local_cap = keep.local_cap;
  w->spare_regs = keep.spare_regs;
  w->spare_preds = keep.spare_preds;
  w->spare_params = keep.spare_params;
}

void
ks_sim_warp_free (KsSim     *sim,
                  KsSimWarp *w)
{
  warp_reset (sim, w);
  g_free (w->frames);
  g_free (w->simt);
  g_free (w->local);
  g_free (w->spare_regs);
  g_free (w->spare_preds);
  g_free (w->spare_params);
  memset (w, 0, sizeof *w);
}

void
ks_sim_simt_push (KsSimWarp *w,
                  uint32_t   pc,
                  uint32_t   rpc,
                  uint32_t   mask)
{
  KsSimtEntry *e;

  if (w->n_simt == w->cap_simt)
    {
      w->cap_simt = w->cap_simt ? w->cap_simt * 2 : 16;
      w->simt = g_renew (KsSimtEntry, w->simt, w->cap_simt);
    }
  e = &w->simt[w->n_simt++];
  e->pc = pc;
  e->rpc = rpc;
  e->mask = mask;
}

gboolean
ks_sim_grow_local (KsSimWarp *w,
                   uint32_t   base,
                   uint32_t   size)
{
  if ((uint64_t) base + size > KS_SIM_LOCAL_LIMIT)
    return FALSE;
  if (base + size > w->local_cap)
    {
      uint32_t cap = MAX (w->local_cap * 2, (uint32_t) align_up (base + size, 256));
      uint8_t *local = g_malloc0 ((size_t) cap * KS_WARP_SIZE);

      /* lanes are laid out one after another: copy each lane's stack */
      for (uint32_t lane = 0; lane < KS_WARP_SIZE && w->local_top > 0; lane++)
        memcpy (local + (size_t) lane * cap, w->local + (size_t) lane * w->local_cap, w->local_top);
      g_free (w->local);
      w->local = local;
      w->local_cap = cap;
    }
  else if (size > 0)
    for (uint32_t lane = 0; lane < KS_WARP_SIZE; lane++)
      memset (w->local + (size_t) lane * w->local_cap + base, 0, size);
  w->local_top = base + size;
  return TRUE;
}

/* Pushes a frame for function fn, with its locals on the warp's stack.
 * Returns FALSE when the stack would overflow; ks_sim_frame_fault() says
 * why, and every caller must, since the warp then has no frame to run. */
gboolean
ks_sim_push_frame (KsSim     *sim,
                   KsSimWarp *w,
                   uint32_t   fn,
                   uint32_t   call_pc,
                   uint32_t   mask)
{
  const KsPtxFunction *f = &sim->module->functions[fn];
  const KsSimFnLayout *l = &sim->layouts[fn];
  KsSimFrame *fr;
  uint32_t base = (uint32_t) align_up (w->local_top, 16);

  if (w->n_frames >= KS_SIM_MAX_FRAMES || !ks_sim_grow_local (w, base, l->local_size))
    return FALSE;

  if (w->n_frames == w->cap_frames)
    {
      w->cap_frames = w->cap_frames ? w->cap_frames * 2 : 4;
      w->frames = g_renew (KsSimFrame, w->frames, w->cap_frames);
    }
  fr = &w->frames[w->n_frames++];
  memset (fr, 0, sizeof *fr);
  fr->fn = fn;
  if (fn == sim->entry && w->spare_regs != NULL)
    {
      fr->regs = w->spare_regs;
      fr->preds = w->spare_preds;
      fr->params = w->spare_params;
      w->spare_regs = NULL;
      w->spare_preds = NULL;
      w->spare_params = NULL;
      memset (fr->regs, 0, (size_t) MAX (f->n_reg_slots, 1) * KS_WARP_SIZE * sizeof (uint64_t));
      memset (fr->preds, 0, MAX (f->n_pred_slots, 1) * sizeof (uint32_t));
      memset (fr->params, 0, (size_t) MAX (l->param_size, 1) * KS_WARP_SIZE);
    }
  else
    {
      fr->regs = g_new0 (uint64_t, (size_t) MAX (f->n_reg_slots, 1) * KS_WARP_SIZE);
      fr->preds = g_new0 (uint32_t, MAX (f->n_pred_slots, 1));
      fr->params = g_malloc0 ((size_t) MAX (l->param_size, 1) * KS_WARP_SIZE);
    }
  fr->local_base = base;
  fr->simt_base = w->n_simt;
  fr->call_pc = call_pc;
  fr->call_mask = mask;
  ks_sim_simt_push (w, 0, KS_PTX_NONE, mask);
  return TRUE;
}

/* Whether block `linear` goes into the trace: every block the trace can
 * name, at the sample's stride, until block 0 alone filled it.  A worker
 * of a parallel run takes the larger of its own stride and the run's: the
 * run's only grows as the blocks before this one are put in order, and its
 * own grows only when the blocks it holds alone fill the trace, which they
 * would fill on one thread too, with the blocks before them.  So it traces
 * every block a run on one thread keeps, and maybe some that the blocks
 * before will push out when it is put in order. */
static void
trace_start_cta (KsSim    *sim,
                 uint64_t  linear)
{
  if (sim->block != NULL)
    {
      const KsSim *run = sim->shared->run;
      uint64_t stride = __atomic_load_n (&run->stats.trace_stride, __ATOMIC_RELAXED);

      sim->block->cta_steps[linear - sim->block->cta] = sim->stats.warp_instructions;
      sim->stats.trace_stride = MAX (sim->stats.trace_stride, stride);
      if (__atomic_load_n (&run->trace_cut, __ATOMIC_RELAXED))
        sim->trace_cut = TRUE;
    }
  sim->trace_cta = sim->trace_enabled && linear < sim->trace_ctas && !sim->trace_cut
                   && (linear & (sim->stats.trace_stride - 1)) == 0;
}

gboolean
ks_sim_trace_full (KsSim *sim)
{
  uint64_t cta = sim->cta_linear;

  if (cta == 0)
    {
      /* block 0 alone filled the trace: it keeps its first events, and no
       * block joins it */
      __atomic_store_n (&sim->trace_cut, TRUE, __ATOMIC_RELAXED);
      sim->trace_cta = FALSE;
      return FALSE;
    }
  /* On one thread the halving drops at least the block one stride before
   * this one; a worker may hold this block alone and halve until it leaves */
  do
    ks_sim_trace_halve (sim, cta);
  while ((cta & (sim->stats.trace_stride - 1)) == 0 && sim->n_trace >= sim->max_trace);
  if ((cta & (sim->stats.trace_stride - 1)) == 0)
    return TRUE;
  sim->trace_cta = FALSE;
  return FALSE;
}

void
ks_sim_trace_halve (KsSim    *sim,
                    uint64_t  running)
{
  uint64_t stride = sim->stats.trace_stride * 2;
  uint64_t out = 0, mem_in = 0, mem_out = 0, whole = 0;
  uint32_t wpc = MAX (sim->warps_per_cta, 1), lo = 1, hi = 0;
  GArray *requests = sim->block != NULL ? sim->block->requests : NULL;
  guint ri = 0;
  gboolean keep = FALSE;

  /* workers read the run's stride */
  __atomic_store_n (&sim->stats.trace_stride, stride, __ATOMIC_RELAXED);
  /* each block's events are together, in block order */
  for (uint64_t i = 0; i < sim->n_trace; i++)
    {
      KsTraceEvent e = sim->trace[i];

      if (e.warp < lo || e.warp >= hi)
        {
          uint64_t cta = e.warp / wpc;

          lo = (uint32_t) (cta * wpc);
          hi = lo + wpc;
          keep = (cta & (stride - 1)) == 0;
          whole += keep && cta != running;
        }
      if (e.flags & KS_TRACE_MEMORY)
        {
          /* a worker's requests for the caches name their records, in
           * the records' order */
          if (requests != NULL)
            {
              KsSimCacheRequest *r = (KsSimCacheRequest *) (void *) requests->data;

              while (ri < requests->len && (r[ri].trace_mem == G_MAXUINT64 || r[ri].trace_mem < mem_in))
                ri++;
              if (ri < requests->len && r[ri].trace_mem == mem_in)
                r[ri++].trace_mem = keep ? mem_out : G_MAXUINT64;
            }
          if (keep)
            sim->trace_mem[mem_out++] = sim->trace_mem[mem_in];
          mem_in++;
        }
      if (keep)
        sim->trace[out++] = e;
    }
  sim->stats.trace_dropped += sim->n_trace - out;
  sim->stats.trace_events = out;
  sim->stats.trace_blocks = whole;
  sim->n_trace = out;
  sim->n_trace_mem = mem_out;
}

static void
start_cta (KsSim    *sim,
           uint64_t  linear)
{
  KsSimCta *c = &sim->cta;
  const uint32_t *g = sim->launch->grid;

  c->ctaid[0] = (uint32_t) (linear % g[0]);
  c->ctaid[1] = (uint32_t) ((linear / g[0]) % g[1]);
  c->ctaid[2] = (uint32_t) (linear / ((uint64_t) g[0] * g[1]));
  if (c->shared == NULL)
    {
      c->shared = g_malloc0 (MAX (sim->shared_size + sim->reserved_smem, 1));
      c->mbar_valid = g_malloc0 (sim->shared_size / 64 + 1);
    }
  else
    {
      memset (c->shared, 0, sim->shared_size + sim->reserved_smem);
      memset (c->mbar_valid, 0, sim->shared_size / 64 + 1);
    }
  c->shared_size = sim->shared_size;
  if (c->warps == NULL)
    c->warps = g_new0 (KsSimWarp, sim->warps_per_cta);
  c->n_warps = sim->warps_per_cta;
  c->n_done = 0;
  memset (c->arrived, 0, sizeof c->arrived);
  /* a new block: no thread has touched its shared memory yet, and no
   * copy is in flight */
  sim->epoch++;
  async_reset (sim);

  for (uint32_t i = 0; i < c->n_warps; i++)
    {
      KsSimWarp *w = &c->warps[i];
      uint32_t first = i * KS_WARP_SIZE;
      uint32_t n = MIN (KS_WARP_SIZE, sim->threads_per_cta - first);

      warp_reset (sim, w);
      w->index = i;
      w->steps = 0;
      w->first_thread = first;
      w->live = n == 32 ? KS_FULL_MASK : (1u << n) - 1;
      w->state = KS_WARP_RUNNING;
      w->mbar_seen = G_MAXUINT64;
      if (!ks_sim_push_frame (sim, w, sim->entry, KS_PTX_NONE, w->live))
        {
          /* No warp of the block can start: none runs (the run loop stops
           * on the fault before it reaches them) */
          ks_sim_frame_fault (sim, w, 0, NULL, sim->entry);
          for (uint32_t j = i; j < c->n_warps; j++)
            c->warps[j].state = KS_WARP_DONE;
          c->n_done = c->n_warps;
          break;
        }
    }
  sim->current_warp = 0;
  sim->cta_active = TRUE;
  trace_start_cta (sim, linear);
  ks_sim_spin_reset (sim);
}

/* The fault of a ks_sim_push_frame() that failed: too many nested calls,
 * or a frame whose locals do not fit in a thread's local memory (all of
 * it for a kernel of over 512 KiB, which ptxas also refuses) */
void
ks_sim_frame_fault (KsSim           *sim,
                    KsSimWarp       *w,
                    int              lane,
                    const KsPtxInsn *insn,
                    uint32_t         fn)
{
  const KsPtxFunction *f = &sim->module->functions[fn];
  g_autofree char *name = ks_format_name (sim->module->text + f->name.offset, f->name.len);
  uint32_t size = sim->layouts[fn].local_size;

  if (w->n_frames >= KS_SIM_MAX_FRAMES)
    ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_STACK_OVERFLOW, FALSE, 0,
                  "call stack overflow: %u nested calls (unbounded recursion?)",
                  KS_SIM_MAX_FRAMES);
  else if (w->n_frames == 0 || (uint64_t) size > KS_SIM_LOCAL_LIMIT)
    ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_STACK_OVERFLOW, FALSE, 0,
                  "%s needs %u bytes of local memory per thread; a thread has at most %u "
                  "(%u KiB, as on the GPU)", name, size, KS_SIM_LOCAL_LIMIT,
                  KS_SIM_LOCAL_LIMIT / 1024);
  else
    ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_STACK_OVERFLOW, FALSE, 0,
                  "call stack overflow: calling %s (%u bytes of local memory per thread) at "
                  "depth %u passes the %u bytes (%u KiB) a thread has (unbounded recursion?)",
                  name, size, w->n_frames, KS_SIM_LOCAL_LIMIT, KS_SIM_LOCAL_LIMIT / 1024);
  /* With no instruction, the kernel's own line */
  if (insn == NULL && sim->fault.ptx_line == 0)
    sim->fault.ptx_line = f->line;
}

static void
finish_cta (KsSim *sim)
{
  for (uint32_t i = 0; i < sim->cta.n_warps; i++)
    warp_reset (sim, &sim->cta.warps[i]);
  sim->cta_active = FALSE;
  sim->resume = FALSE;
  if (sim->trace_cta)
    sim->stats.trace_blocks++;
}

/* ---- cooperative launches ----------------------------------------------------------------- */

/* A cooperative launch (cudaLaunchCooperativeKernel; "cooperative": true)
 * has every block of its grid resident at once, so a block may wait for
 * the others.  Cooperative groups' grid.sync() does: one thread of each
 * block adds to a counter in the driver's workspace, which %envreg1 and
 * %envreg2 point at, and spins until the last block's add flips the
 * counter's top bit.  Such a launch runs its blocks side by side: one
 * round-robin pass of a block's warps, then the next block's, in the
 * order of their linear index, each block's own state waiting in coop[]
 * between its turns.  The blocks see each other's writes a pass at a
 * time, where the GPU runs them truly at once: a kernel that is right on
 * the GPU whatever the order of its blocks is right here. */

static void
swap_bytes (void   *a,
            void   *b,
            size_t  n)
{
  uint8_t t[sizeof (KsSimCta)];

  g_assert (n <= sizeof t);
  memcpy (t, a, n);
  memcpy (a, b, n);
  memcpy (b, t, n);
}

#define COOP_SWAP(field) \
  G_STMT_START { \
    G_STATIC_ASSERT (sizeof sim->field == sizeof b->field); \
    swap_bytes (&sim->field, &b->field, sizeof sim->field); \
  } G_STMT_END

static void
coop_swap (KsSim          *sim,
           KsSimCoopBlock *b)
{
  COOP_SWAP (cta);
  COOP_SWAP (cta_linear);
  COOP_SWAP (current_warp);
  COOP_SWAP (cta_active);
  COOP_SWAP (smem_access);
  COOP_SWAP (epoch);
  COOP_SWAP (write_epoch);
  COOP_SWAP (read_log);
  COOP_SWAP (n_read_log);
  COOP_SWAP (read_log_epoch);
  COOP_SWAP (async_copies);
  COOP_SWAP (async_commits);
  COOP_SWAP (spin_start);
  COOP_SWAP (spin_hash);
  COOP_SWAP (spin_writes);
  COOP_SWAP (spin_suspect);
  COOP_SWAP (spin_power);
  COOP_SWAP (spin_lambda);
  COOP_SWAP (spin_pass);
}

/* Frees the running block's own memory (of a block that finished, or at
 * the end), leaving zeros */
static void
coop_release (KsSim *sim)
{
  KsSimCta *c = &sim->cta;

  if (c->warps != NULL)
    for (uint32_t i = 0; i < sim->warps_per_cta; i++)
      ks_sim_warp_free (sim, &c->warps[i]);
  g_free (c->warps);
  g_free (c->shared);
  g_free (c->mbar_valid);
  memset (c, 0, sizeof *c);
  sim->cta_active = FALSE;
  g_clear_pointer (&sim->smem_access, g_free);
  g_clear_pointer (&sim->read_log, g_free);
  sim->n_read_log = 0;
  g_clear_pointer (&sim->async_copies, g_array_unref);
  g_clear_pointer (&sim->async_commits, g_free);
}

static void
coop_free (KsSim *sim)
{
  if (sim->coop == NULL)
    return;
  /* the running block's, then each parked one's (what each swap leaves
   * in the slot is the zeros of the one released before) */
  coop_release (sim);
  for (uint64_t i = 0; i < sim->n_ctas; i++)
    {
      coop_swap (sim, &sim->coop[i]);
      coop_release (sim);
    }
  g_clear_pointer (&sim->coop, g_free);
  g_clear_pointer (&sim->coop_order, g_free);
}

/* Before the first block: every block waits for its first turn.  The
 * trace, whose blocks follow one another, is not kept (ks_timing_compute
 * does not time such a launch) */
static void
coop_setup (KsSim *sim)
{
  sim->coop = g_new0 (KsSimCoopBlock, sim->n_ctas);
  sim->coop_order = g_new (uint64_t, sim->n_ctas);
  for (uint64_t i = 0; i < sim->n_ctas; i++)
    sim->coop_order[i] = i;
  sim->coop_live = sim->n_ctas;
  sim->coop_pos = 0;
  sim->coop_cur = G_MAXUINT64;
  sim->coop_finished = 0;
  sim->trace_enabled = FALSE;
}

/* Makes the block at coop_pos the running one, starting it on its first
 * turn (a block that never ran brings zeros: not active) */
static void
coop_enter (KsSim *sim)
{
  uint64_t i = sim->coop_order[sim->coop_pos];

  if (sim->coop_cur == i)
    return;
  if (sim->coop_cur != G_MAXUINT64)
    coop_swap (sim, &sim->coop[sim->coop_cur]);
  coop_swap (sim, &sim->coop[i]);
  sim->coop_cur = i;
  if (!sim->cta_active)
    {
      sim->cta_linear = i;
      start_cta (sim, i);
      sim->next_cta++;
    }
}

/* The running block finished: it leaves the turns */
static void
coop_finish (KsSim *sim)
{
  coop_release (sim);
  sim->coop_cur = G_MAXUINT64;
  memmove (&sim->coop_order[sim->coop_pos], &sim->coop_order[sim->coop_pos + 1],
           (sim->coop_live - sim->coop_pos - 1) * sizeof *sim->coop_order);
  sim->coop_live--;
  sim->coop_finished++;
  if (sim->coop_pos >= sim->coop_live)
    sim->coop_pos = 0;
}

/* Whether every block but the running one repeats its state with no write
 * since @writes (ks-sim-spin.c): then none can ever move */
gboolean
ks_sim_coop_all_repeat (const KsSim *sim,
                        uint64_t     writes)
{
  for (uint64_t k = 0; k < sim->coop_live; k++)
    {
      uint64_t i = sim->coop_order[k];

      if (i != sim->coop_cur && sim->coop[i].spin_suspect != writes + 1)
        return FALSE;
    }
  return TRUE;
}

/* Barriers.  When no warp can run, every barrier whose waiting threads
 * (plus those that passed it with bar.arrive) reach its count completes;
 * the count is all threads that have not exited unless the instruction gave
 * one, as on Volta and later.  A barrier given a thread count counts warps
 * ("marks warps' arrival at barrier", the count a multiple of the warp
 * size): a warp arrives as 32 threads even when some of its lanes exited or
 * never existed (the last warp of a block of 40).  If none can complete, no
 * warp can ever move again: a deadlock. */
static void
release_barrier (KsSim    *sim,
                 uint32_t  b)
{
  KsSimCta *c = &sim->cta;
  uint32_t popc = 0, all = 1, any = 0;

  for (uint32_t i = 0; i < c->n_warps; i++)
    {
      KsSimWarp *w = &c->warps[i];

      if (w->state != KS_WARP_AT_BARRIER || w->barrier != b || w->red_op == KS_PTX_OP_NONE)
        continue;
      popc += w->red_value;
      all &= w->red_value != 0;
      any |= w->red_value != 0;
    }
  for (uint32_t i = 0; i < c->n_warps; i++)
    {
      KsSimWarp *w = &c->warps[i];
      KsSimFrame *f;

      if (w->state != KS_WARP_AT_BARRIER || w->barrier != b)
        continue;
      w->state = KS_WARP_RUNNING;
      w->pending_flags |= KS_TRACE_RELEASE;
      if (w->red_op == KS_PTX_OP_NONE)
        continue;
      /* bar.red: every thread gets the block-wide result */
      f = &w->frames[w->n_frames - 1];
      if (w->red_dst_pred)
        {
          uint32_t v = w->red_op == KS_PTX_OP_AND ? all : any;

          f->preds[w->red_dst] = (f->preds[w->red_dst] & ~w->live) | (v ? w->live : 0);
        }
      else
        for (uint32_t lane = 0; lane < KS_WARP_SIZE; lane++)
          if (w->live & (1u << lane))
            f->regs[(size_t) w->red_dst * KS_WARP_SIZE + lane] =
              w->red_op == KS_PTX_OP_POPC ? popc : w->red_op == KS_PTX_OP_AND ? all : any;
      w->red_op = KS_PTX_OP_NONE;
    }
  c->arrived[b] = 0;
  sim->stats.barriers++;
  sim->epoch++;
}

/* No warp can run, and a warp polls an mbarrier that no one is left to
 * change: it would poll forever. */
static void
mbarrier_deadlock (KsSim     *sim,
                   KsSimWarp *w)
{
  KsSimCta *c = &sim->cta;
  const KsSimtEntry *top = &w->simt[w->n_simt - 1];
  uint64_t bits = 0;
  KsMbarrier m;
  uint32_t others = 0;
  /* Lanes of the same warp on another path of a divergent branch cannot
   * run before the waiting path reconverges */
  uint32_t parked = ks_sim_warp_parked (w);
  g_autofree char *why = NULL;

  for (uint32_t i = 0; i < c->n_warps; i++)
    if (c->warps[i].state == KS_WARP_AT_MBARRIER)
      others++;
  if (parked != 0)
    why = g_strdup_printf ("; lanes 0x%08x of the same warp wait to reconverge, and if they are "
                           "the ones to arrive, the wait can only end with Volta's independent "
                           "thread scheduling, which this simulator does not model", parked);
  if (w->mbar_addr + 8 <= c->shared_size)
    memcpy (&bits, c->shared + w->mbar_addr, 8);
  ks_mbar_unpack (bits, &m);
  ks_sim_fault (sim, w, top->mask ? __builtin_ctz (top->mask) : 0,
                &sim->module->insns[w->mbar_insn], KS_SIM_FAULT_DEADLOCK, TRUE, w->mbar_addr,
                "deadlock: warp %u waits for a phase of the mbarrier at shared offset 0x%x "
                "(phase parity %u, %u of %u arrivals and a tx-count of %d pending), and no "
                "other warp can complete it (%u warp%s wait%s on mbarriers, the others have "
                "exited or wait at a barrier)%s",
                w->index, w->mbar_addr, m.phase, m.pending, m.expected, m.tx,
                others, others == 1 ? "" : "s", others == 1 ? "s" : "", why ? why : "");
}

static gboolean
try_release_barrier (KsSim *sim)
{
  KsSimCta *c = &sim->cta;
  uint32_t waiting[KS_SIM_N_BARRIERS] = { 0 }, count[KS_SIM_N_BARRIERS] = { 0 };
  uint32_t waiting_warps[KS_SIM_N_BARRIERS] = { 0 };
  uint32_t live_threads = 0, stuck = KS_PTX_NONE;
  gboolean any = FALSE, released = FALSE;
  KsSimWarp *mbar_waiter = NULL;

  for (uint32_t i = 0; i < c->n_warps; i++)
    {
      KsSimWarp *w = &c->warps[i];

      if (w->state == KS_WARP_RUNNING)
        return TRUE;
      if (w->state == KS_WARP_AT_BARRIER)
        {
          waiting[w->barrier] += (uint32_t) __builtin_popcount (w->live);
          waiting_warps[w->barrier]++;
          if (w->barrier_count != 0)
            count[w->barrier] = w->barrier_count;
          any = TRUE;
        }
      if (w->state == KS_WARP_AT_MBARRIER && mbar_waiter == NULL)
        mbar_waiter = w;
      live_threads += (uint32_t) __builtin_popcount (w->live);
    }
  if (!any)
    {
      if (mbar_waiter == NULL)
        return TRUE;
      mbarrier_deadlock (sim, mbar_waiter);
      return FALSE;
    }

  for (uint32_t b = 0; b < KS_SIM_N_BARRIERS; b++)
    {
      uint32_t expected = count[b] ? count[b] : live_threads;

      if (count[b])
        waiting[b] = waiting_warps[b] * KS_WARP_SIZE;
      if (waiting_warps[b] == 0)
        continue;
      if (waiting[b] + c->arrived[b] >= expected)
        {
          release_barrier (sim, b);
          released = TRUE;
        }
      else if (stuck == KS_PTX_NONE)
        stuck = b;
    }
  if (released)
    return TRUE;
  if (mbar_waiter != NULL)
    {
      mbarrier_deadlock (sim, mbar_waiter);
      return FALSE;
    }

  {
    uint32_t expected = count[stuck] ? count[stuck] : live_threads;
    KsSimWarp *first = NULL;
    GString *others = g_string_new (NULL);
    uint32_t n_others = 0;

    for (uint32_t i = 0; i < c->n_warps && first == NULL; i++)
      if (c->warps[i].state == KS_WARP_AT_BARRIER && c->warps[i].barrier == stuck)
        first = &c->warps[i];
    /* (a barrier is stuck only with a warp at it; a build without link-time
     * optimisation cannot see that) */
    if (first == NULL)
      first = &c->warps[0];
    /* where the other warps wait, so that both places can be found */
    for (uint32_t i = 0; i < c->n_warps; i++)
      {
        const KsSimWarp *w = &c->warps[i];

        if (w->state != KS_WARP_AT_BARRIER || w->barrier == stuck || n_others++ >= 4)
          continue;
        g_string_append_printf (others, "%swarp %u waits at barrier %u (PTX line %u)",
                                others->len ? ", " : "; ", w->index, w->barrier,
                                sim->module->insns[w->barrier_insn].line);
      }
    ks_sim_fault (sim, first, first && first->live ? __builtin_ctz (first->live) : 0,
                  &sim->module->insns[first->barrier_insn], KS_SIM_FAULT_DEADLOCK, FALSE, 0,
                  "deadlock: barrier %u expects %u threads, %u wait at it%s, "
                  "and no other warp can arrive (warp %u waits here%s)",
                  stuck, expected, waiting[stuck] + c->arrived[stuck],
                  c->arrived[stuck] ? " or passed it" : "", first->index, others->str);
    g_string_free (others, TRUE);
  }
  return FALSE;
}

/* ---- textures and surfaces --------------------------------------------------------------- */

/* The launch's tables of textures and surfaces, the handles of the module
 * variables it binds, and the modifiers of the module's texture and surface
 * instructions, decoded once. */
static gboolean
setup_textures (KsSim   *sim,
                GError **error)
{
  const KsLaunch *l = sim->launch;
  const KsPtxModule *m = sim->module;

  sim->textures = g_new0 (KsSimArray, MAX (l->n_textures, 1));
  sim->surfaces = g_new0 (KsSimArray, MAX (l->n_surfaces, 1));
  for (uint32_t k = 0; k < 2; k++)
    {
      const KsLaunchTexture *descs = k ? l->surfaces : l->textures;
      KsSimArray *out = k ? sim->surfaces : sim->textures;

      for (uint32_t i = 0; i < (k ? l->n_surfaces : l->n_textures); i++)
        {
          const KsSimAlloc *a;

          out[i].desc = &descs[i];
          if (descs[i].destroyed)
            continue;
          a = &sim->allocs[sim->buffer_alloc[descs[i].buffer]];
          out[i].data = a->data + descs[i].offset;
          out[i].base = a->base + descs[i].offset;
        }
    }

  sim->var_handle = g_new0 (uint64_t, MAX (m->n_vars, 1));
  for (uint32_t b = 0; b < l->n_bindings; b++)
    {
      const KsLaunchBinding *bd = &l->bindings[b];
      const char *want = bd->surface ? "surfref" : "texref";
      uint32_t found = KS_PTX_NONE;

      for (uint32_t i = 0; i < m->n_vars && found == KS_PTX_NONE; i++)
        {
          const KsPtxVar *v = &m->vars[i];

          if (v->function == KS_PTX_NONE && ks_ptx_span_equal (m, v->name, bd->var))
            found = i;
        }
      if (found == KS_PTX_NONE)
        {
          g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                       "bindings.%s: the module has no .%s variable named %s",
                       bd->var, want, bd->var);
          return FALSE;
        }
      {
        const KsPtxVar *v = &m->vars[found];
        gboolean is_tex = v->type == KS_PTX_TYPE_TEXREF || v->space == KS_PTX_SPACE_TEX;
        gboolean is_surf = v->type == KS_PTX_TYPE_SURFREF || v->space == KS_PTX_SPACE_SURF;

        if (bd->surface ? !is_surf : !is_tex)
          {
            g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                         "bindings.%s: %s (line %u) is not a .%s variable%s", bd->var, bd->var,
                         v->line, want,
                         is_tex ? " (a texture: bind it with {\"texture\": NAME})"
                         : is_surf ? " (a surface: bind it with {\"surface\": NAME})" : "");
            return FALSE;
          }
        sim->var_handle[found] = ks_tex_handle (bd->surface ? KS_TEX_SURFACE : KS_TEX_TEXTURE,
                                                bd->index);
      }
    }

  for (uint32_t i = 0; i < m->n_insns; i++)
    switch (m->insns[i].opcode)
      {
      case KS_PTX_OPC_TEX: case KS_PTX_OPC_TLD4: case KS_PTX_OPC_TXQ: case KS_PTX_OPC_SULD:
      case KS_PTX_OPC_SUST: case KS_PTX_OPC_SURED: case KS_PTX_OPC_SUQ:
        if (sim->tex_forms == NULL)
          sim->tex_forms = g_new0 (KsTexForm, m->n_insns);
        ks_tex_form_decode (m, &m->insns[i], &sim->tex_forms[i]);
        break;
      default:
        break;
      }
  return TRUE;
}

/* ---- symbols: module variables the host fills and reads ---------------------------------------- */

/* The module-scope .global or .const variable named @name as written in
 * the PTX, else one whose demangled name it is (a __device__ variable in a
 * namespace: "ns::table" for _ZN2ns5tableE); KS_PTX_NONE when none or,
 * demangled, more than one is. */
static uint32_t
find_symbol (const KsPtxModule *m,
             const char        *name)
{
  uint32_t found = KS_PTX_NONE, n_found = 0;

  for (uint32_t i = 0; i < m->n_vars; i++)
    {
      const KsPtxVar *v = &m->vars[i];

      if (v->function == KS_PTX_NONE
          && (v->space == KS_PTX_SPACE_GLOBAL || v->space == KS_PTX_SPACE_CONST)
          && ks_ptx_span_equal (m, v->name, name))
        return i;
    }
  for (uint32_t i = 0; i < m->n_vars; i++)
    {
      const KsPtxVar *v = &m->vars[i];
      g_autofree char *mangled = NULL, *demangled = NULL;

      if (v->function != KS_PTX_NONE
          || (v->space != KS_PTX_SPACE_GLOBAL && v->space != KS_PTX_SPACE_CONST))
        continue;
      mangled = ks_ptx_span_dup (m, v->name);
      if (!g_str_has_prefix (mangled, "_Z"))
        continue;
      demangled = ks_sass_demangle (mangled);
      if (demangled != NULL && strcmp (demangled, name) == 0)
        found = i, n_found++;
    }
  return n_found == 1 ? found : KS_PTX_NONE;
}

/* The allocation of module variable @var, or NULL (an extern without
 * storage) */
static KsSimAlloc *
var_alloc (KsSim    *sim,
           uint32_t  var,
           uint32_t *index)
{
  for (uint32_t i = 0; i < sim->n_allocs; i++)
    if (sim->allocs[i].var == var)
      {
        if (index)
          *index = i;
        return &sim->allocs[i];
      }
  return NULL;
}

static gboolean
symbol_var (KsSim       *sim,
            const char  *field,
            const char  *name,
            uint32_t    *var,
            KsSimAlloc **alloc,
            uint32_t    *alloc_index,
            GError     **error)
{
  const KsPtxModule *m = sim->module;

  *var = find_symbol (m, name);
  if (*var == KS_PTX_NONE)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "%s: %s has no .global or .const variable named %s "
                   "(give its name as the PTX writes it)", field, m->filename, name);
      return FALSE;
    }
  *alloc = var_alloc (sim, *var, alloc_index);
  if (*alloc == NULL)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "%s: %s (line %u) is an .extern variable without storage in this module",
                   field, name, m->vars[*var].line);
      return FALSE;
    }
  return TRUE;
}

/* What the host copies to the module's variables before the first launch */
static gboolean
fill_symbols (KsSim   *sim,
              GError **error)
{
  const KsPtxModule *m = sim->module;
  const KsLaunch *l = sim->launch;

  for (uint32_t i = 0; i < l->n_symbols; i++)
    {
      const KsLaunchSymbol *sym = &l->symbols[i];
      g_autofree char *field = g_strdup_printf ("symbols.%s", sym->name);
      g_autofree uint8_t *data = NULL;
      const KsPtxVar *v;
      KsSimAlloc *a;
      uint32_t var;
      size_t size;

      if (!symbol_var (sim, field, sym->name, &var, &a, NULL, error))
        return FALSE;
      v = &m->vars[var];
      if (!ks_launch_symbol_fill (l, i, (KsPtxType) v->type, a->size, &data, &size, NULL, error))
        {
          if (error != NULL && *error != NULL)
            (*error)->domain = KS_SIM_ERROR, (*error)->code = KS_SIM_ERROR_BAD_LAUNCH;
          return FALSE;
        }
      if (size > a->size)
        {
          g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                       "%s: %zu bytes given, more than the %" G_GUINT64_FORMAT " bytes of "
                       "variable %s (line %u)", field, size, a->size, sym->name, v->line);
          return FALSE;
        }
      memcpy (a->data, data, size);
    }
  return TRUE;
}

/* Finds the variables of "output_symbols" and the type each is read as:
 * the type "symbols" gives it, else its own */
static gboolean
find_output_symbols (KsSim   *sim,
                     GError **error)
{
  const KsPtxModule *m = sim->module;
  const KsLaunch *l = sim->launch;

  sim->out_sym_alloc = g_new0 (uint32_t, MAX (l->n_output_symbols, 1));
  sim->out_sym_type = g_new0 (uint8_t, MAX (l->n_output_symbols, 1));
  for (uint32_t i = 0; i < l->n_output_symbols; i++)
    {
      g_autofree char *field = g_strdup_printf ("output_symbols[%u]", i);
      KsPtxType type;
      KsSimAlloc *a;
      uint32_t var;

      if (!symbol_var (sim, field, l->output_symbols[i], &var, &a, &sim->out_sym_alloc[i], error))
        return FALSE;
      type = (KsPtxType) m->vars[var].type;
      for (uint32_t k = 0; k < l->n_symbols; k++)
        if (strcmp (l->symbols[k].name, l->output_symbols[i]) == 0
            && l->symbols[k].type != KS_PTX_TYPE_NONE)
          type = l->symbols[k].type;
      if (ks_ptx_type_size (type) == 0 || ks_ptx_type_size (type) > 8
          || a->size % ks_ptx_type_size (type) != 0)
        type = KS_PTX_TYPE_B8;
      sim->out_sym_type[i] = (uint8_t) type;
    }
  return TRUE;
}

const uint8_t *
ks_sim_get_output_symbol (const KsSim *sim,
                          uint32_t     index,
                          KsPtxType   *type,
                          uint64_t    *count,
                          size_t      *size)
{
  const KsSimAlloc *a;

  g_return_val_if_fail (index < sim->launch->n_output_symbols, NULL);
  a = &sim->allocs[sim->out_sym_alloc[index]];
  if (type)
    *type = (KsPtxType) sim->out_sym_type[index];
  if (count)
    *count = a->size / ks_ptx_type_size ((KsPtxType) sim->out_sym_type[index]);
  if (size)
    *size = a->size;
  return a->data;
}

/* ---- the public API ----------------------------------------------------------------------------- */

/* @take, when given, is @prev, which the caller is about to free: its
 * memory moves into the new simulation instead of being copied */
static KsSim *
sim_new (const KsPtxModule *module,
         const KsLaunch    *spec,
         uint32_t           step,
         const KsSim       *prev,
         KsSim             *take,
         GError           **error)
{
  g_autoptr(KsSim) sim = NULL;
  g_autofree char *where = spec->n_steps > 1 ? g_strdup_printf ("launches[%u].", step)
                                             : g_strdup ("");
  uint32_t entry = KS_PTX_NONE, n_entries = 0;
  KsLaunch view = *spec;
  const KsLaunch *launch = &view;

  if (spec->n_steps > 0)
    {
      const KsLaunchStep *st = &spec->steps[step];

      view.kernel = st->kernel;
      memcpy (view.grid, st->grid, sizeof view.grid);
      memcpy (view.block, st->block, sizeof view.block);
      view.dynamic_shared_bytes = st->dynamic_shared_bytes;
      view.cooperative = st->cooperative;
      view.params = st->params;
      view.n_params = st->n_params;
    }

  if (module->n_errors > 0)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_MODULE_HAS_ERRORS,
                   g_dngettext (GETTEXT_PACKAGE, "%s has %u error; fix it before running it",
                                "%s has %u errors; fix them before running it", module->n_errors),
                   module->filename, module->n_errors);
      return NULL;
    }

  for (uint32_t i = 0; i < module->n_functions; i++)
    {
      const KsPtxFunction *f = &module->functions[i];

      if (f->kind != KS_PTX_FUNCTION_ENTRY || !(f->flags & KS_PTX_FUNCTION_HAS_BODY))
        continue;
      n_entries++;
      if (launch->kernel == NULL || ks_ptx_span_equal (module, f->name, launch->kernel))
        entry = i;
    }
  if (launch->kernel == NULL && n_entries != 1)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_NO_KERNEL,
                   "%skernel: %s has %u kernels; the launch must name one", where,
                   module->filename, n_entries);
      return NULL;
    }
  if (entry == KS_PTX_NONE)
    {
      g_autofree char *name = ks_format_name (launch->kernel, -1);

      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_NO_KERNEL,
                   "%skernel: %s has no kernel named %s", where, module->filename, name);
      return NULL;
    }

  sim = g_new0 (KsSim, 1);
  sim->module = module;
  sim->view = view;
  sim->launch = launch = &sim->view;
  sim->where = g_steal_pointer (&where);
  sim->entry = entry;
  sim->step_limit = G_GUINT64_CONSTANT (2000000000);
  sim->printf_out = g_string_new (NULL);
  sim->threads_per_cta = launch->block[0] * launch->block[1] * launch->block[2];
  sim->warps_per_cta = (sim->threads_per_cta + KS_WARP_SIZE - 1) / KS_WARP_SIZE;
  sim->n_ctas = (uint64_t) launch->grid[0] * launch->grid[1] * launch->grid[2];
  if (launch->cooperative && sim->n_ctas * sim->threads_per_cta > KS_SIM_COOP_MAX_THREADS)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "%scooperative: a cooperative launch has all its blocks resident at once, "
                   "and %" G_GUINT64_FORMAT " blocks of %u threads are %" G_GUINT64_FORMAT
                   " threads; the simulator holds at most %u at once (more than any GPU of "
                   "data/gpus.json)", sim->where, sim->n_ctas, sim->threads_per_cta,
                   sim->n_ctas * sim->threads_per_cta, KS_SIM_COOP_MAX_THREADS);
      return NULL;
    }

  {
    const KsPtxFunction *f = &module->functions[entry];

    for (int d = 0; d < 3; d++)
      if (f->reqntid[d] != 0 && f->reqntid[d] != launch->block[d])
        {
          g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                       "%sblock: the kernel requires a block of %u x %u x %u threads (.reqntid)",
                       sim->where, f->reqntid[0], MAX (f->reqntid[1], 1), MAX (f->reqntid[2], 1));
          return NULL;
        }
    if (f->maxntid[0] != 0
        && sim->threads_per_cta > f->maxntid[0] * MAX (f->maxntid[1], 1) * MAX (f->maxntid[2], 1))
      {
        g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                     "%sblock: %u threads, more than the kernel's .maxntid allows",
                     sim->where, sim->threads_per_cta);
        return NULL;
      }
  }

  /* Launch buffers first, so their addresses do not depend on the module */
  sim->buffer_alloc = g_new0 (uint32_t, MAX (launch->n_buffers, 1));
  for (uint32_t i = 0; i < launch->n_buffers; i++)
    {
      /* the array is the caller's (view is a shallow copy of spec) */
      KsLaunchBuffer *b = &spec->buffers[i];
      KsSimAlloc *a;

      if (take != NULL && i < take->n_allocs && take->allocs[i].buffer == (int32_t) i)
        a = add_alloc_taking (sim, b->size, 256, g_steal_pointer (&take->allocs[i].data));
      else if (spec->take_buffers && prev == NULL && b->data != NULL)
        {
          a = add_alloc_taking (sim, b->size, 256, b->data);
          b->data = NULL;
        }
      else
        {
          /* (zeroed: a buffer of zeros stays the kernel's zero pages
           * until the kernel writes it) */
          a = add_alloc (sim, b->size, 256);
          if (prev == NULL)
            ks_launch_buffer_fill (b, a->data, TRUE);
        }
      /* a buffer the spec placed ("address"): ks_launch_parse checked that
       * the spec's buffers do not overlap and come in address order, so
       * the allocations stay sorted */
      if (b->address != 0)
        a->base = b->address;
      a->buffer = (int32_t) i;
      sim->buffer_alloc[i] = sim->n_allocs - 1;
    }
  if (!layout_module (sim, error))
    return NULL;
  /* The special registers the module reads, in one pass: %clock and
   * %globaltimer count the warp-instructions run so far, those of the
   * blocks before included, so such a kernel runs on one thread; a module
   * that reads %envreg can look for grid.sync()'s workspace, an allocation
   * after the module's, in every launch of the module, so that a sequence
   * of launches lays memory out alike */
  {
    gboolean reads_envreg = FALSE;

    for (uint32_t i = 0; i < module->n_operands; i++)
      if (module->operands[i].kind == KS_PTX_OPERAND_SREG)
        {
          reads_envreg |= module->operands[i].a == KS_PTX_SREG_ENVREG;
          sim->reads_clock |= ks_ptx_sreg_is_timer ((KsPtxSreg) module->operands[i].a);
        }
    if (reads_envreg)
      {
        KsSimAlloc *a = add_alloc (sim, KS_SIM_WORKSPACE_SIZE, 256);

        a->workspace = TRUE;
        sim->coop_workspace = a->base;
      }
  }
  if (prev != NULL)
    {
      /* the same module and spec lay memory out the same way: the next
       * launch sees the buffers and variables as the last one left them */
      g_assert (prev->module == module && prev->n_allocs == sim->n_allocs);
      for (uint32_t i = 0; i < sim->n_allocs; i++)
        {
          g_assert (prev->allocs[i].size == sim->allocs[i].size);
          if (take == NULL)
            memcpy (sim->allocs[i].data, prev->allocs[i].data, sim->allocs[i].size);
          else if (take->allocs[i].data != NULL)
            {
              /* (the buffers' moved above) */
              g_free (sim->allocs[i].data);
              sim->allocs[i].data = g_steal_pointer (&take->allocs[i].data);
            }
        }
    }
  else if (!fill_symbols (sim, error))
    return NULL;
  /* each cooperative launch has a workspace of its own, its counter 0 */
  if (sim->coop_workspace != 0)
    memset (find_alloc (sim, sim->coop_workspace, KS_SIM_WORKSPACE_SIZE)->data, 0,
            KS_SIM_WORKSPACE_SIZE);
  if (!find_output_symbols (sim, error) || !layout_params (sim, error)
      || !setup_textures (sim, error))
    return NULL;

  /* Which block each instruction is in: a branch reconverges at its
   * block's immediate post-dominator.  (Of the functions the launch may
   * run: in a module of thousands of kernels, the others' per-instruction
   * tables stay untouched zero pages.) */
  sim->runs_fn = reachable_functions (module, entry);
  sim->insn_block = g_new0 (uint32_t, MAX (module->n_insns, 1));
  for (uint32_t i = 0; i < module->n_functions; i++)
    {
      const KsPtxFunction *f = &module->functions[i];

      if (!(f->flags & KS_PTX_FUNCTION_HAS_BODY) || !sim->runs_fn[i])
        continue;
      for (uint32_t b = 0; b < f->n_blocks; b++)
        {
          const KsPtxBlock *bl = &module->blocks[f->first_block + b];

          for (uint32_t k = 0; k < bl->n_insns; k++)
            sim->insn_block[f->first_insn + bl->first_insn + k] = b;
        }
    }

  ks_sim_fast_decode (sim);
  sim->insn_stats = g_new0 (KsSimInsnStats, MAX (module->n_insns, 1));
  sim->trace_enabled = TRUE;
  sim->max_trace = 16u << 20;
  sim->stats.trace_stride = 1;
  /* the blocks whose events can name their warps and instructions */
  sim->trace_ctas = module->n_insns < KS_TRACE_MAX_INSNS
                    ? MIN (sim->n_ctas, KS_TRACE_MAX_WARPS / MAX (sim->warps_per_cta, 1)) : 0;
  sim->last_event = G_MAXUINT64;
  sim->n_threads = 1;
  sim->cta_stride = 1;
  sim->cta_end = G_MAXUINT64;
  sim->l1_bytes = 128u << 10;
  sim->l2_bytes = 40u << 20;
  sim->access_samples = 16;
  sim->no_fast = g_getenv ("KS_SIM_NO_FAST") != NULL;

  if (ks_ptx_module_target_sm (module) >= 80)
    sim->reserved_smem = KS_SIM_RESERVED_SMEM_SIZE;
  /* In 64 bits: a dynamic size near 4 GiB must not wrap to a small sum */
  if ((uint64_t) sim->static_shared + launch->dynamic_shared_bytes > KS_SIM_MAX_SHARED)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "%sdynamic_shared_bytes: the block would need %" G_GUINT64_FORMAT " bytes of "
                   "shared memory (%u static, %u dynamic), more than any GPU has (228 KiB)",
                   sim->where, (uint64_t) sim->static_shared + launch->dynamic_shared_bytes,
                   sim->static_shared, launch->dynamic_shared_bytes);
      return NULL;
    }
  sim->shared_size = sim->static_shared + launch->dynamic_shared_bytes;

  return g_steal_pointer (&sim);
}

KsSim *
ks_sim_new (const KsPtxModule *module,
            const KsLaunch    *launch,
            GError           **error)
{
  g_return_val_if_fail (module != NULL && launch != NULL, NULL);

  if (launch->n_steps > 1)
    {
      g_set_error (error, KS_SIM_ERROR, KS_SIM_ERROR_BAD_LAUNCH,
                   "launches: the spec has %u kernel launches, and this runs one at a time; "
                   "'kernelscope-cli run' runs them all", launch->n_steps);
      return NULL;
    }
  return sim_new (module, launch, 0, NULL, NULL, error);
}

KsSim *
ks_sim_new_step (const KsPtxModule *module,
                 const KsLaunch    *launch,
                 uint32_t           step,
                 const KsSim       *prev,
                 GError           **error)
{
  g_return_val_if_fail (module != NULL && launch != NULL, NULL);
  g_return_val_if_fail (step < MAX (launch->n_steps, 1), NULL);
  g_return_val_if_fail ((step == 0) == (prev == NULL), NULL);
  g_return_val_if_fail (prev == NULL || (prev->module == module && prev->view.buffers == launch->buffers), NULL);

  return sim_new (module, launch, step, prev, NULL, error);
}

KsSim *
ks_sim_new_step_taking (const KsPtxModule *module,
                        const KsLaunch    *launch,
                        uint32_t           step,
                        KsSim             *prev,
                        GError           **error)
{
  g_assert (step > 0 && prev != NULL && prev->module == module);

  return sim_new (module, launch, step, prev, prev, error);
}

void
ks_sim_free (KsSim *sim)
{
  if (sim == NULL)
    return;
  coop_free (sim);
  if (sim->cta.warps != NULL)
    {
      for (uint32_t i = 0; i < sim->warps_per_cta; i++)
        ks_sim_warp_free (sim, &sim->cta.warps[i]);
      g_free (sim->cta.warps);
    }
  g_free (sim->cta.shared);
  g_free (sim->cta.mbar_valid);
  ks_lowering_free (sim->lowering);
  for (uint32_t i = 0; i < sim->n_allocs; i++)
    g_free (sim->allocs[i].data);
  g_free (sim->allocs);
  g_free (sim->buffer_alloc);
  g_free (sim->out_sym_alloc);
  g_free (sim->out_sym_type);
  g_free (sim->where);
  g_free (sim->var_addr);
  g_free (sim->insn_block);
  g_free (sim->runs_fn);
  g_free (sim->textures);
  g_free (sim->surfaces);
  g_free (sim->var_handle);
  g_free (sim->tex_forms);
  g_free (sim->fast);
  g_free (sim->fast_imm);
  g_free (sim->insn_stats);
  g_clear_pointer (&sim->l1, ks_cache_free);
  g_clear_pointer (&sim->l2, ks_cache_free);
  g_free (sim->smem_access);
  g_free (sim->read_log);
  g_clear_pointer (&sim->async_copies, g_array_unref);
  g_free (sim->async_commits);
  g_free (sim->hazards);
  g_clear_pointer (&sim->accesses, g_hash_table_unref);
  g_clear_pointer (&sim->tex_accesses, g_hash_table_unref);
  g_clear_pointer (&sim->access_full, g_free);
  g_free (sim->trace);
  g_free (sim->trace_mem);
  g_free (sim->layouts);
  g_free (sim->param_bank);
  g_free (sim->fault.message);
  g_free (sim->fault.cuda_file);
  g_free (sim->time_limit_note);
  if (sim->printf_out)
    g_string_free (sim->printf_out, TRUE);
  g_free (sim);
}

void
ks_sim_set_step_limit (KsSim    *sim,
                       uint64_t  limit)
{
  sim->step_limit = limit ? limit : G_MAXUINT64;
}

void
ks_sim_set_time_limit (KsSim      *sim,
                       double      seconds,
                       const char *note)
{
  g_return_if_fail (sim != NULL);
  g_return_if_fail (sim->shared == NULL);

  sim->time_limit = seconds > 0 ? seconds : 0;
  g_free (sim->time_limit_note);
  sim->time_limit_note = g_strdup (note);
}

/* The time limit, at the warp that ran last */
static void
time_limit_fault (KsSim     *sim,
                  KsSimWarp *w)
{
  const KsPtxInsn *insn = w->n_frames > 0 ? ks_sim_warp_insn (sim, w) : NULL;
  int lane = w->n_simt > 0 && w->simt[w->n_simt - 1].mask != 0
             ? __builtin_ctz (w->simt[w->n_simt - 1].mask) : 0;

  ks_sim_fault (sim, w, lane, insn, KS_SIM_FAULT_TIME_LIMIT, FALSE, 0,
                "stopped after %g s of simulation (%s): the kernel may not terminate",
                sim->time_limit, sim->time_limit_note ? sim->time_limit_note : "the time limit");
}

/* The step limit.  When the warp that reached it is diverged, with lanes
 * parked waiting to reconverge, the likely cause is a loop that waits for
 * those lanes: it ends on Volta's independent thread scheduling, not on a
 * SIMT stack.  Say so. */
static void
step_limit_fault (KsSim     *sim,
                  KsSimWarp *w)
{
  const KsSimtEntry *top = &w->simt[w->n_simt - 1];
  const KsPtxInsn *insn = ks_sim_warp_insn (sim, w);
  uint32_t parked = ks_sim_warp_parked (w);

  if (parked != 0)
    ks_sim_fault (sim, w, __builtin_ctz (top->mask ? top->mask : 1), insn, KS_SIM_FAULT_STEP_LIMIT,
                  FALSE, 0,
                  "stopped after %" G_GUINT64_FORMAT " warp-instructions: lanes 0x%08x of warp %u "
                  "still loop while lanes 0x%08x of the same warp wait to reconverge. If the loop "
                  "waits for them (an intra-warp spin lock), it can only finish with Volta's "
                  "independent thread scheduling, which this simulator does not model",
                  sim->step_limit, top->mask, w->index, parked);
  else
    ks_sim_fault (sim, w, __builtin_ctz (top->mask ? top->mask : 1), insn, KS_SIM_FAULT_STEP_LIMIT,
                  FALSE, 0,
                  "stopped after %" G_GUINT64_FORMAT " warp-instructions (the step limit): the "
                  "kernel may not terminate", sim->step_limit);
}

static void
report_progress (KsSim    *sim,
                 gboolean  block_done)
{
  double fraction;

  if (sim->progress == NULL
      || (!block_done && sim->stats.warp_instructions - sim->progress_at < 65536))
    return;
  sim->progress_at = sim->stats.warp_instructions;
  if (sim->coop != NULL)
    fraction = (double) sim->coop_finished / MAX (sim->n_ctas, 1);
  else
    fraction = sim->n_ctas ? (double) (sim->next_cta - (sim->cta_active ? 1 : 0)) / sim->n_ctas
                           : 1.0;
  sim->progress (fraction, sim->progress_data);
}

void
ks_sim_set_progress_func (KsSim             *sim,
                          KsSimProgressFunc  func,
                          gpointer           user_data)
{
  sim->progress = func;
  sim->progress_data = user_data;
}

void
ks_sim_set_threads (KsSim    *sim,
                    uint32_t  n_threads)
{
  sim->n_threads = n_threads ? n_threads : (uint32_t) g_get_num_processors ();
}

/* Before the last step of a run's budget: what it is about to execute */
static void
record_last_step (KsSim     *sim,
                  KsSimWarp *w)
{
  const KsSimFrame *f = &w->frames[w->n_frames - 1];
  const KsSimtEntry *top = &w->simt[w->n_simt - 1];
  const KsPtxFunction *fn = &sim->module->functions[f->fn];
  KsSimStep *s = &sim->last_step;

  s->index = sim->stats.warp_instructions;
  s->cta = sim->cta_linear;
  memcpy (s->block, sim->cta.ctaid, sizeof s->block);
  s->warp = w->index;
  s->warp_step = w->steps;
  s->active = top->mask;
  s->executed = top->mask;
  if (top->pc < fn->n_insns)
    {
      const KsPtxInsn *in = &sim->module->insns[fn->first_insn + top->pc];

      s->insn = fn->first_insn + top->pc;
      if (in->pred != KS_PTX_NONE)
        s->executed &= in->pred_not ? ~f->preds[in->pred] : f->preds[in->pred];
    }
  else
    s->insn = KS_PTX_NONE;
  sim->have_last_step = TRUE;
}

gboolean
ks_sim_get_last_step (const KsSim *sim,
                      KsSimStep   *step)
{
  g_return_val_if_fail (sim != NULL && step != NULL, FALSE);
  if (!sim->have_last_step)
    return FALSE;
  *step = sim->last_step;
  return TRUE;
}

KsSimStatus
ks_sim_run (KsSim        *sim,
            uint64_t      max_steps,
            GCancellable *cancellable)
{
  gint64 start = g_get_monotonic_time ();
  uint64_t budget = max_steps ? max_steps : G_MAXUINT64;
  uint64_t done = 0;

  /* What is left of the time limit, from now; a worker of a parallel run
   * keeps the run's deadline */
  if (sim->shared == NULL)
    sim->deadline = sim->time_limit > 0
                    ? start + MAX ((gint64) ((sim->time_limit - sim->stats.seconds) * G_USEC_PER_SEC), 1)
                    : 0;

  /* What ptxas makes of the module costs the trace's memory records
   * (gpu_access_cost); a run without the trace does not need it, and the
   * workers of a parallel run share the one built here */
  if (sim->launch->cooperative && sim->coop == NULL && sim->status == KS_SIM_READY
      && sim->shared == NULL)
    coop_setup (sim);
  if (sim->trace_enabled && sim->lowering == NULL && sim->shared == NULL)
    sim->lowering = ks_lower_module (sim->module);

  /* A run of the whole launch on several threads (ks-sim-parallel.c).  A
   * kernel that reads the clock, which counts the warp-instructions of the
   * blocks before, and the lane recorder, which follows one warp, run on
   * this thread. */
  if (max_steps == 0 && sim->n_threads > 1 && sim->shared == NULL && sim->step_hook == NULL
      && !sim->reads_clock && sim->status == KS_SIM_READY && sim->next_cta == 0
      && !sim->cta_active && sim->n_ctas > 1 && sim->stats.sampled_blocks == 0
      && sim->coop == NULL)
    {
      ks_sim_run_parallel (sim, cancellable);
      sim->stats.seconds += (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
      return sim->status;
    }

  sim->have_last_step = FALSE;
  while (sim->status == KS_SIM_READY && done < budget)
    {
      KsSimCta *c = &sim->cta;
      gboolean progressed = FALSE;
      uint32_t k0 = 0, n0 = 0;

      if (!sim->cta_active)
        {
          /* a worker of a parallel run also stops past a block that faulted:
           * nothing after it is kept */
          if (sim->coop != NULL
              ? sim->coop_live == 0
              : sim->next_cta >= sim->n_ctas || sim->next_cta >= sim->cta_end
                || (sim->shared != NULL
                    && sim->next_cta > __atomic_load_n (&sim->shared->stop_cta,
                                                        __ATOMIC_RELAXED)))
            {
              sim->status = KS_SIM_DONE;
              break;
            }
          if (cancellable && g_cancellable_is_cancelled (cancellable))
            {
              sim->status = KS_SIM_CANCELLED;
              break;
            }
          if (sim->coop != NULL)
            coop_enter (sim);
          else
            {
              sim->cta_linear = sim->next_cta;
              start_cta (sim, sim->next_cta);
              sim->next_cta += sim->cta_stride;
            }
        }

      /* The pass the last run's budget stopped: it had progressed */
      if (sim->resume)
        {
          k0 = sim->resume_k;
          n0 = sim->resume_n;
          progressed = TRUE;
          sim->resume = FALSE;
        }
      else if (sim->shared != NULL
               && sim->cta_linear > __atomic_load_n (&sim->shared->stop_cta, __ATOMIC_RELAXED))
        {
          /* a worker whose block comes after one that faulted: nothing of
           * it is kept, and it may never end (it may wait for that one) */
          sim->status = KS_SIM_CANCELLED;
          break;
        }
      else
        ks_sim_spin_check (sim);
      if (sim->status != KS_SIM_READY)
        break;
      /* Round-robin over the CTA's warps, a burst each */
      for (uint32_t k = k0; k < c->n_warps && sim->status == KS_SIM_READY && done < budget; k++)
        {
          uint32_t wi = (sim->current_warp + k) % c->n_warps;
          KsSimWarp *w = &c->warps[wi];
          uint32_t n = k == k0 ? n0 : 0;

          /* Something changed an mbarrier since this warp last polled one */
          if (w->state == KS_WARP_AT_MBARRIER && w->mbar_seen != c->mbar_version)
            w->state = KS_WARP_RUNNING;
          if (w->state != KS_WARP_RUNNING)
            continue;
          while (w->state == KS_WARP_RUNNING && n < BURST && done < budget
                 && sim->status == KS_SIM_READY)
            {
              uint32_t ran = 1;

              if (G_UNLIKELY (sim->step_hook != NULL) || G_UNLIKELY (done + 1 == budget))
                {
                  if (done + 1 == budget)
                    record_last_step (sim, w);
                  if (sim->step_hook != NULL)
                    sim->step_hook (sim, w, FALSE, sim->step_hook_data);
                  ks_sim_step (sim, w);
                  if (sim->step_hook != NULL)
                    sim->step_hook (sim, w, TRUE, sim->step_hook_data);
                }
              else
                {
                  /* as many steps as one-by-one stepping would run here
                   * before the burst, the step limit or the budget ends
                   * (whose last step is recorded first, above) */
                  uint64_t room = MIN ((uint64_t) (BURST - n), budget - done - 1);
                  uint64_t steps = sim->steps_before + sim->stats.warp_instructions;

                  if (steps < sim->step_limit)
                    room = MIN (room, sim->step_limit - steps);
                  else
                    room = 1;
                  ran = ks_sim_steps (sim, w, (uint32_t) room);
                }
              n += ran;
              done += ran;
              if (sim->steps_before + sim->stats.warp_instructions >= sim->step_limit
                  && sim->status == KS_SIM_READY)
                step_limit_fault (sim, w);
            }
          if (w->state == KS_WARP_DONE)
            c->n_done++;
          if (n > 0)
            progressed = TRUE;
          if (n >= BURST)
            {
              sim->current_warp = (wi + 1) % c->n_warps;
              break;
            }
          if (done >= budget && sim->status == KS_SIM_READY)
            {
              sim->resume = TRUE;
              sim->resume_k = k;
              sim->resume_n = n;
              break;
            }
        }
      if (sim->status != KS_SIM_READY)
        break;
      /* The clock, every 64 K warp-instructions or so: a pass runs at most
       * a burst of each warp */
      if (G_UNLIKELY (sim->deadline != 0)
          && sim->stats.warp_instructions - sim->clock_read_at >= 65536)
        {
          sim->clock_read_at = sim->stats.warp_instructions;
          if (g_get_monotonic_time () >= sim->deadline)
            {
              time_limit_fault (sim, &c->warps[sim->current_warp]);
              break;
            }
        }

      if (c->n_done == c->n_warps)
        {
          finish_cta (sim);
          if (sim->coop != NULL)
            coop_finish (sim);
          report_progress (sim, TRUE);
          continue;
        }
      report_progress (sim, FALSE);
      if (!progressed && !try_release_barrier (sim))
        break;
      /* a cooperative launch: the next block's turn, once this pass is
       * whole */
      if (sim->coop != NULL && !sim->resume && sim->coop_live > 1)
        {
          sim->coop_pos = (sim->coop_pos + 1) % sim->coop_live;
          coop_enter (sim);
        }
      if (cancellable && g_cancellable_is_cancelled (cancellable))
        {
          sim->status = KS_SIM_CANCELLED;
          break;
        }
    }

  sim->stats.seconds += (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  return sim->status;
}

KsSimStatus
ks_sim_get_status (const KsSim *sim)
{
  return sim->status;
}

const KsSimFault *
ks_sim_get_fault (const KsSim *sim)
{
  return sim->status == KS_SIM_FAULTED ? &sim->fault : NULL;
}

const KsSimStats *
ks_sim_get_stats (const KsSim *sim)
{
  return &sim->stats;
}

const char *
ks_sim_get_printf (const KsSim *sim)
{
  return sim->printf_out->str;
}

const uint8_t *
ks_sim_get_buffer (const KsSim *sim,
                   uint32_t     index,
                   size_t      *size)
{
  const KsSimAlloc *a;

  g_return_val_if_fail (index < sim->launch->n_buffers, NULL);
  a = &sim->allocs[sim->buffer_alloc[index]];
  if (size)
    *size = a->size;
  return a->data;
}

uint8_t *
ks_sim_take_buffer (KsSim  *sim,
                    uint32_t index,
                    size_t *size)
{
  KsSimAlloc *a;
  uint8_t *data;

  g_return_val_if_fail (index < sim->launch->n_buffers, NULL);
  a = &sim->allocs[sim->buffer_alloc[index]];
  if (size)
    *size = a->size;
  data = g_steal_pointer (&a->data);
  /* what stays is a buffer of no bytes, which nothing can reach */
  a->size = 0;
  return data;
}

void
ks_sim_set_trace (KsSim    *sim,
                  gboolean  enabled,
                  uint64_t  max_events)
{
  sim->trace_enabled = enabled;
  if (max_events > 0)
    sim->max_trace = max_events;
}

const KsTraceEvent *
ks_sim_get_trace (const KsSim *sim,
                  uint64_t    *n_events)
{
  *n_events = sim->n_trace;
  return sim->trace;
}

const KsSimInsnStats *
ks_sim_get_insn_stats (const KsSim *sim)
{
  return sim->insn_stats;
}

uint32_t
ks_sim_get_warps_per_cta (const KsSim *sim)
{
  return sim->warps_per_cta;
}

const KsLaunch *
ks_sim_get_launch (const KsSim *sim)
{
  return sim->launch;
}

void
ks_sim_set_access_samples (KsSim    *sim,
                           uint32_t  per_instruction)
{
  sim->access_samples = per_instruction;
}

const KsMemAccess *
ks_sim_get_accesses (const KsSim *sim,
                     uint32_t     insn,
                     uint32_t    *n_accesses)
{
  GArray *a = sim->accesses ? g_hash_table_lookup (sim->accesses, GUINT_TO_POINTER (insn)) : NULL;

  *n_accesses = a ? a->len : 0;
  return a ? (const KsMemAccess *) (void *) a->data : NULL;
}

const KsTexAccess *
ks_sim_get_tex_accesses (const KsSim *sim,
                         uint32_t     insn,
                         uint32_t    *n_accesses)
{
  GArray *a = sim->tex_accesses ? g_hash_table_lookup (sim->tex_accesses, GUINT_TO_POINTER (insn))
                                : NULL;

  *n_accesses = a ? a->len : 0;
  return a ? (const KsTexAccess *) (void *) a->data : NULL;
}

/* The run's array of texture details of insn */
GArray *
ks_sim_tex_samples (KsSim    *sim,
                    uint32_t  insn)
{
  GArray *a;

  if (sim->tex_accesses == NULL)
    sim->tex_accesses = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  a = g_hash_table_lookup (sim->tex_accesses, GUINT_TO_POINTER (insn));
  if (a == NULL)
    {
      a = g_array_new (FALSE, FALSE, sizeof (KsTexAccess));
      g_hash_table_insert (sim->tex_accesses, GUINT_TO_POINTER (insn), a);
    }
  return a;
}

/* A worker's sample: taken while the instruction's quota is not filled
 * by the blocks already put in order, up to the quota within the block;
 * which of them are kept is decided in block order (ks-sim-parallel.c).
 * Returns the sample, or NULL. */
static KsMemAccess *
block_sample (KsSim    *sim,
              uint32_t  insn,
              uint32_t *index)
{
  KsSimBlock *b = sim->block;
  KsSimBlockSample *bs;

  /* the run's own array: set by the thread that puts blocks in order */
  if (__atomic_load_n (&sim->access_full[insn], __ATOMIC_RELAXED))
    return NULL;
  if (sim->block_samples == NULL)
    sim->block_samples = g_new0 (uint32_t, MAX (sim->module->n_insns, 1));
  if (sim->block_samples[insn] >= sim->access_samples)
    return NULL;
  sim->block_samples[insn]++;
  if (b->samples == NULL)
    b->samples = g_array_new (FALSE, TRUE, sizeof (KsSimBlockSample));
  *index = b->samples->len;
  g_array_set_size (b->samples, b->samples->len + 1);
  bs = &g_array_index (b->samples, KsSimBlockSample, b->samples->len - 1);
  bs->insn = insn;
  return &bs->access;
}

/* A new sample of an execution of `insn`, or NULL when it has enough;
 * in a worker of a parallel run, *index is where it is in the block's */
static KsMemAccess *
sample_access (KsSim           *sim,
               const KsSimWarp *w,
               uint32_t         insn,
               KsPtxSpace       space,
               const uint64_t   addr[32],
               uint32_t         size,
               uint32_t         mask,
               gboolean         store,
               uint32_t        *index)
{
  GArray *a;
  KsMemAccess *m;

  *index = G_MAXUINT32;
  if (sim->access_samples == 0)
    return NULL;
  if (sim->block != NULL)
    {
      m = block_sample (sim, insn, index);
      if (m == NULL)
        return NULL;
    }
  else
    {
      /* most executions come after an instruction's samples are taken: one
       * byte says so before any hashing */
      if (sim->access_full != NULL && sim->access_full[insn])
        return NULL;
      if (sim->accesses == NULL)
        {
          sim->accesses = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
          sim->access_full = g_new0 (uint8_t, MAX (sim->module->n_insns, 1));
        }
      a = g_hash_table_lookup (sim->accesses, GUINT_TO_POINTER (insn));
      if (a == NULL)
        {
          a = g_array_new (FALSE, TRUE, sizeof (KsMemAccess));
          g_hash_table_insert (sim->accesses, GUINT_TO_POINTER (insn), a);
        }
      if (a->len >= sim->access_samples)
        {
          sim->access_full[insn] = 1;
          return NULL;
        }
      g_array_set_size (a, a->len + 1);
      m = &g_array_index (a, KsMemAccess, a->len - 1);
    }
  m->warp = (uint32_t) (sim->cta_linear * sim->warps_per_cta + w->index);
  m->mask = mask;
  m->space = (uint8_t) space;
  m->size = (uint8_t) size;
  m->store = (uint8_t) !!store;
  memcpy (m->addr, addr, sizeof m->addr);
  return m;
}

/* A sample of a texture fetch: the access with each lane's first texel
 * (addrs holds the lanes' texels one lane after another), and the lanes'
 * footprints beside it.  Its sectors' levels are not kept: a fetch can
 * touch more than level[] holds. */
static void
sample_texture (KsSim             *sim,
                const KsSimWarp   *w,
                uint32_t           insn,
                const uint64_t    *addrs,
                uint32_t           texel_size,
                uint32_t           mask,
                const KsTexAccess *tex)
{
  uint64_t first[32] = { 0 };
  uint32_t index, at = 0;
  KsMemAccess *m;
  KsTexAccess *kept;

  if (sim->access_samples == 0)
    return;
  for (uint32_t l = 0; l < 32; l++)
    if (mask & (1u << l))
      {
        /* border texels are not read from memory: a lane may have none */
        first[l] = tex->lane[l].n_texels > ks_popcount32 (tex->lane[l].border) ? addrs[at] : 0;
        at += tex->lane[l].n_texels - ks_popcount32 (tex->lane[l].border);
      }
  m = sample_access (sim, w, insn, KS_PTX_SPACE_TEX, first, texel_size, mask, FALSE, &index);
  if (m == NULL)
    return;
  if (sim->block != NULL)
    {
      KsSimBlock *b = sim->block;

      if (b->tex_samples == NULL)
        b->tex_samples = g_array_new (FALSE, FALSE, sizeof (KsTexAccess));
      g_array_append_vals (b->tex_samples, tex, 1);
      g_array_index (b->samples, KsSimBlockSample, index).tex = b->tex_samples->len;
      kept = &g_array_index (b->tex_samples, KsTexAccess, b->tex_samples->len - 1);
    }
  else
    {
      GArray *a = ks_sim_tex_samples (sim, insn);

      g_array_append_vals (a, tex, 1);
      kept = &g_array_index (a, KsTexAccess, a->len - 1);
    }
  /* the executor fills in only the lanes that fetched */
  for (uint32_t l = 0; l < 32; l++)
    if (!(mask & (1u << l)))
      memset (&kept->lane[l], 0, sizeof kept->lane[l]);
}

void
ks_sim_set_caches (KsSim    *sim,
                   uint32_t  l1_bytes,
                   uint32_t  l2_bytes)
{
  sim->l1_bytes = l1_bytes;
  sim->l2_bytes = l2_bytes;
  g_clear_pointer (&sim->l1, ks_cache_free);
  g_clear_pointer (&sim->l2, ks_cache_free);
}

static G_GNUC_NO_INLINE void
note_hazard (KsSim        *sim,
             KsHazardKind  kind,
             uint32_t      first_insn,
             uint32_t      second_insn,
             uint32_t      address,
             uint32_t      first_thread,
             uint32_t      second_thread)
{
  KsSimHazard *h;
  KsSimHazard *list = sim->hazards;
  uint32_t n = sim->n_hazards;

  /* A worker of a parallel run keeps every pair its block found: which of
   * them fit in the limit depends on the blocks before it */
  if (sim->block != NULL)
    {
      if (sim->block->hazards == NULL)
        sim->block->hazards = g_array_new (FALSE, TRUE, sizeof (KsSimHazard));
      list = (KsSimHazard *) (void *) sim->block->hazards->data;
      n = sim->block->hazards->len;
    }
  for (uint32_t i = 0; i < n; i++)
    {
      h = &list[i];
      if (h->kind == kind && h->first_insn == first_insn && h->second_insn == second_insn)
        {
          h->count++;
          return;
        }
    }
  if (sim->block != NULL)
    {
      g_array_set_size (sim->block->hazards, n + 1);
      h = &g_array_index (sim->block->hazards, KsSimHazard, n);
    }
  else
    {
      if (sim->n_hazards >= KS_SIM_MAX_HAZARDS)
        return;
      if (sim->hazards == NULL)
        sim->hazards = g_new0 (KsSimHazard, KS_SIM_MAX_HAZARDS);
      h = &sim->hazards[sim->n_hazards++];
    }
  h->kind = kind;
  h->first_insn = first_insn;
  h->second_insn = second_insn;
  h->address = address;
  memcpy (h->block, sim->cta.ctaid, sizeof h->block);
  h->first_thread = first_thread;
  h->second_thread = second_thread;
  h->count = 1;
}

/* The race check of one word that thread (linear + 1) reads or writes */
static inline void
check_word (KsSim           *sim,
            KsSimWordAccess *wa,
            uint32_t         epoch,
            uint32_t         thread,
            uint32_t         insn,
            uint32_t         offset,
            gboolean         store)
{
  /* a cp.async to the word has not been waited for: whoever touches it,
   * the copy's own thread included, may see it land before or after */
  if (G_UNLIKELY (wa->async_writer))
    note_hazard (sim, store ? KS_HAZARD_WAW : KS_HAZARD_RAW, wa->async_insn, insn, offset,
                 wa->async_writer - 1, thread - 1);
  else if (G_UNLIKELY (wa->write_epoch == epoch && wa->writer && wa->writer != thread))
    note_hazard (sim, store ? KS_HAZARD_WAW : KS_HAZARD_RAW, wa->write_insn, insn, offset,
                 wa->writer - 1, thread - 1);
  if (store)
    {
      if (G_UNLIKELY (wa->read_epoch == epoch && wa->reader && wa->reader != thread))
        note_hazard (sim, KS_HAZARD_WAR, wa->read_insn, insn, offset, wa->reader - 1, thread - 1);
      wa->writer = thread;
      wa->write_epoch = epoch;
      wa->write_insn = insn;
    }
  else
    {
      wa->reader = thread;
      wa->read_epoch = epoch;
      wa->read_insn = insn;
    }
}

/* Racecheck for one warp-level shared access: a word touched by two
 * threads in one barrier interval, one of them writing, is a hazard.
 * Out of line, so that its loop keeps its values in registers. */
static G_GNUC_NO_INLINE void
check_races_now (KsSim          *sim,
                 uint32_t        first_thread,
                 uint32_t        insn,
                 const uint64_t  addr[32],
                 uint32_t        size,
                 uint32_t        mask,
                 gboolean        store)
{
  uint32_t n_words = sim->shared_size / 4;
  uint32_t epoch = sim->epoch;
  uint64_t last_word = n_words - 1, room = (uint64_t) 4 - size, over = 0;
  KsSimWordAccess *words;

  if (n_words == 0)
    return;
  if (sim->smem_access == NULL)
    sim->smem_access = g_new0 (KsSimWordAccess, n_words);
  words = sim->smem_access;     /* note_hazard changes neither the words nor the epoch */

  /* Most accesses: every lane within one word of shared memory (idle
   * lanes' addresses are 0, or out of range and so go the long way).
   * Tested without a comparison per lane, as in ks-sim-fast.c: a word
   * past the last, or bytes past the word's end, make a difference wrap
   * to a number with its top bit set. */
  for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
    over |= (last_word - addr[l] / 4) | (room - (addr[l] & 3));
  if ((over >> 63) == 0)
    {
      /* A whole warp's load, the commonest: every lane is noted as its
       * word's reader in one pass without branches, and the checks, which
       * read only what writers left, are taken again the long way if any
       * lane may have raced (noting the same readers again) */
      if (!store && mask == KS_FULL_MASK)
        {
          uint32_t racy = 0;

          for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
            {
              KsSimWordAccess *wa = &words[addr[l] / 4];
              uint32_t thread = first_thread + l;

              racy |= wa->async_writer
                      | ((wa->write_epoch == epoch) & (wa->writer != 0) & (wa->writer != thread));
              wa->reader = thread;
              wa->read_epoch = epoch;
              wa->read_insn = insn;
            }
          if (G_LIKELY (racy == 0))
            return;
        }
      if (store)
        LANES (mask, lane)
          check_word (sim, &words[addr[lane] / 4], epoch, first_thread + lane, insn,
                      (uint32_t) (addr[lane] & ~(uint64_t) 3), TRUE);
      else
        LANES (mask, lane)
          check_word (sim, &words[addr[lane] / 4], epoch, first_thread + lane, insn,
                      (uint32_t) (addr[lane] & ~(uint64_t) 3), FALSE);
      return;
    }

  LANES (mask, lane)
    {
      uint64_t a = addr[lane];

      /* the words the lane covers, up to the end of shared memory (an
       * address that wraps covers none) */
      for (uint64_t x = a & ~(uint64_t) 3; x < a + size && x / 4 < n_words; x += 4)
        check_word (sim, &words[x / 4], epoch, first_thread + lane, insn, (uint32_t) x, store);
    }
}

/* The loads of this barrier interval still in the log are noted as their
 * words' readers, in the order they ran (KsSimReadLog) */
static void
flush_reads (KsSim *sim)
{
  if (sim->read_log_epoch == sim->epoch)
    for (uint32_t i = 0; i < sim->n_read_log; i++)
      {
        const KsSimReadLog *r = &sim->read_log[i];

        check_races_now (sim, r->first_thread, r->insn, r->addr, r->size, r->mask, FALSE);
      }
  sim->n_read_log = 0;
}

/* Shared memory is about to be written outside check_races (a cp.async,
 * or its completion): the loads before it are noted first, and the loads
 * after it checked at once */
static void
shared_written (KsSim *sim)
{
  flush_reads (sim);
  sim->write_epoch = sim->epoch + 1;
}

/* Racecheck for one warp-level shared access.  A load in a barrier
 * interval with no write so far goes to the log (KsSimReadLog). */
static void
check_races (KsSim           *sim,
             const KsSimWarp *w,
             uint32_t         insn,
             const uint64_t   addr[32],
             uint32_t         size,
             uint32_t         mask,
             gboolean         store)
{
  uint32_t first_thread = w->first_thread + 1;

  if (!store && sim->write_epoch != sim->epoch + 1
      && (sim->async_copies == NULL || sim->async_copies->len == 0))
    {
      KsSimReadLog *r;

      if (sim->read_log_epoch != sim->epoch)
        {
          sim->read_log_epoch = sim->epoch;
          sim->n_read_log = 0;
        }
      else if (sim->n_read_log == KS_SIM_READ_LOG)
        flush_reads (sim);
      if (sim->read_log == NULL)
        sim->read_log = g_new (KsSimReadLog, KS_SIM_READ_LOG);
      r = &sim->read_log[sim->n_read_log++];
      memcpy (r->addr, addr, sizeof r->addr);
      r->first_thread = first_thread;
      r->insn = insn;
      r->size = size;
      r->mask = mask;
      return;
    }
  flush_reads (sim);
  if (store)
    sim->write_epoch = sim->epoch + 1;
  check_races_now (sim, first_thread, insn, addr, size, mask, store);
}

/* ---- cp.async in the race check ---------------------------------------------------------- */

static KsSimWordAccess *
async_words (KsSim *sim)
{
  if (sim->shared_size / 4 == 0)
    return NULL;
  if (sim->smem_access == NULL)
    sim->smem_access = g_new0 (KsSimWordAccess, sim->shared_size / 4);
  return sim->smem_access;
}

/* A new block: forget the copies of the last one (a kernel may end
 * without waiting) */
static void
async_reset (KsSim *sim)
{
  KsSimWordAccess *words = sim->smem_access;

  if (sim->async_copies == NULL || sim->async_copies->len == 0)
    return;
  for (guint i = 0; i < sim->async_copies->len && words != NULL; i++)
    {
      const KsSimAsyncCopy *ac = &g_array_index (sim->async_copies, KsSimAsyncCopy, i);

      for (uint32_t x = ac->offset / 4; x < (ac->offset + ac->size + 3) / 4; x++)
        words[x].async_writer = 0;
    }
  g_array_set_size (sim->async_copies, 0);
  if (sim->async_commits != NULL)
    memset (sim->async_commits, 0, sizeof (uint32_t) * sim->threads_per_cta);
}

/**
 * ks_sim_async_copy:
 *
 * The copy goes in flight.  Against what the block's other threads did
 * since the last barrier it is a write (WAR, WAW); against another copy
 * still in flight to the same bytes it is a WAW, whichever thread made it.
 */
void
ks_sim_async_copy (KsSim           *sim,
                   const KsSimWarp *w,
                   uint32_t         lane,
                   uint32_t         insn,
                   uint64_t         offset,
                   uint32_t         size)
{
  KsSimWordAccess *words = async_words (sim);
  uint32_t thread = w->first_thread + lane + 1;
  KsSimAsyncCopy ac;

  shared_written (sim);
  if (words == NULL || offset + size > sim->shared_size)
    return;
  for (uint64_t x = offset & ~(uint64_t) 3; x < offset + size; x += 4)
    {
      KsSimWordAccess *wa = &words[x / 4];

      if (wa->async_writer)
        note_hazard (sim, KS_HAZARD_WAW, wa->async_insn, insn, (uint32_t) x, wa->async_writer - 1,
                     thread - 1);
      else if (wa->write_epoch == sim->epoch && wa->writer && wa->writer != thread)
        note_hazard (sim, KS_HAZARD_WAW, wa->write_insn, insn, (uint32_t) x, wa->writer - 1,
                     thread - 1);
      if (wa->read_epoch == sim->epoch && wa->reader && wa->reader != thread)
        note_hazard (sim, KS_HAZARD_WAR, wa->read_insn, insn, (uint32_t) x, wa->reader - 1,
                     thread - 1);
      wa->async_writer = thread;
      wa->async_insn = insn;
    }
  if (sim->async_copies == NULL)
    sim->async_copies = g_array_new (FALSE, FALSE, sizeof (KsSimAsyncCopy));
  if (sim->async_commits == NULL)
    sim->async_commits = g_new0 (uint32_t, sim->threads_per_cta);
  ac.thread = thread;
  ac.group = sim->async_commits[thread - 1];
  ac.insn = insn;
  ac.offset = (uint32_t) offset;
  ac.size = size;
  g_array_append_val (sim->async_copies, ac);
}

void
ks_sim_async_commit (KsSim           *sim,
                     const KsSimWarp *w,
                     uint32_t         lane)
{
  if (sim->async_commits == NULL)
    sim->async_commits = g_new0 (uint32_t, sim->threads_per_cta);
  sim->async_commits[w->first_thread + lane]++;
}

/**
 * ks_sim_async_wait:
 *
 * The thread's copies that the wait covers land: each becomes the
 * thread's write in the current barrier interval, so that another thread
 * reading it before the next barrier is a RAW.
 */
void
ks_sim_async_wait (KsSim           *sim,
                   const KsSimWarp *w,
                   uint32_t         lane,
                   uint32_t         keep_groups,
                   gboolean         all)
{
  KsSimWordAccess *words = sim->smem_access;
  uint32_t thread = w->first_thread + lane + 1;
  uint32_t commits;
  guint kept = 0;

  if (sim->async_copies == NULL || sim->async_commits == NULL)
    return;
  shared_written (sim);
  commits = sim->async_commits[thread - 1];
  for (guint i = 0; i < sim->async_copies->len; i++)
    {
      KsSimAsyncCopy ac = g_array_index (sim->async_copies, KsSimAsyncCopy, i);

      /* groups 0 .. commits - 1 are committed; the keep_groups most
       * recent of them, and the copies not committed, stay in flight */
      if (ac.thread != thread
          || (!all && (ac.group >= commits || commits - ac.group <= keep_groups)))
        {
          g_array_index (sim->async_copies, KsSimAsyncCopy, kept++) = ac;
          continue;
        }
      for (uint64_t x = ac.offset & ~(uint32_t) 3; words != NULL && x < (uint64_t) ac.offset + ac.size;
           x += 4)
        {
          KsSimWordAccess *wa = &words[x / 4];

          if (wa->async_writer == thread && wa->async_insn == ac.insn)
            wa->async_writer = 0;
          wa->writer = thread;
          wa->write_epoch = sim->epoch;
          wa->write_insn = ac.insn;
        }
    }
  g_array_set_size (sim->async_copies, kept);
}

const KsSimHazard *
ks_sim_get_hazards (const KsSim *sim,
                    uint32_t    *n_hazards)
{
  *n_hazards = sim->n_hazards;
  return sim->hazards;
}

const char *
ks_sim_hazard_kind_name (KsHazardKind kind)
{
  switch (kind)
    {
    case KS_HAZARD_RAW: return "read-after-write";
    case KS_HAZARD_WAR: return "write-after-read";
    case KS_HAZARD_WAW: return "write-after-write";
    default: return "hazard";
    }
}

/* The side-table record of the current trace event, or NULL.  An event
 * has one record at most, as a reader finds them by counting the events
 * with KS_TRACE_MEMORY: no instruction makes two analysed accesses, and
 * were one to, its first would keep the record. */
static KsTraceMemory *
trace_memory (KsSim             *sim,
              KsTraceMemoryKind  kind,
              gboolean           store)
{
  KsTraceEvent *ev;
  KsTraceMemory *tm;

  if (sim->last_event == G_MAXUINT64)
    return NULL;
  ev = &sim->trace[sim->last_event];
  if (ev->flags & KS_TRACE_MEMORY)
    return NULL;
  ev->flags |= KS_TRACE_MEMORY;
  if (sim->n_trace_mem == sim->cap_trace_mem)
    {
      sim->cap_trace_mem = MAX (sim->cap_trace_mem * 2, 1024);
      sim->trace_mem = g_renew (KsTraceMemory, sim->trace_mem, sim->cap_trace_mem);
    }
  tm = &sim->trace_mem[sim->n_trace_mem++];
  *tm = (KsTraceMemory) { .kind = kind, .store = store != FALSE };
  return tm;
}

void
ks_sim_set_block_sample (KsSim    *sim,
                         uint64_t  stride,
                         uint64_t  count)
{
  g_return_if_fail (sim != NULL && stride > 0 && count > 0);
  g_return_if_fail (sim->status == KS_SIM_READY && sim->next_cta == 0 && !sim->cta_active);

  /* a cooperative launch's blocks may wait for one another: all run */
  if (sim->launch->cooperative)
    return;
  if (stride >= sim->n_ctas || count >= (sim->n_ctas + stride - 1) / stride)
    count = (sim->n_ctas + stride - 1) / stride;
  if (stride == 1 && count >= sim->n_ctas)
    return;                     /* the whole grid */
  sim->cta_stride = stride;
  sim->cta_end = stride * (count - 1) + 1;
  sim->stats.sampled_blocks = count;
  sim->stats.sample_stride = stride;
}

const struct _KsLowering *
ks_sim_get_lowering (const KsSim *sim)
{
  return sim->lowering;
}

const KsTraceMemory *
ks_sim_get_trace_memory (const KsSim *sim,
                         uint64_t    *n_records)
{
  *n_records = sim->n_trace_mem;
  return sim->trace_mem;
}

static void
ensure_caches (KsSim *sim)
{
  if (sim->l1 == NULL)
    {
      sim->l1 = ks_cache_new (sim->l1_bytes, 128, 32, 4);
      ks_cache_set_write_policy (sim->l1, KS_CACHE_WRITE_THROUGH);
      sim->l2 = ks_cache_new (sim->l2_bytes, 128, 32, 16);
    }
}

/* The sectors of one request through the caches: loads look in L1, then
 * L2; stores write through L1 to L2.  Counts go to the four counters, the
 * trace record and the sample when there are. */
static void
through_caches (KsSim          *sim,
                const uint64_t *sectors,
                uint32_t        n_sectors,
                gboolean        store,
                KsTraceMemory  *tm,
                KsMemAccess    *sample,
                uint64_t       *l1_hits,
                uint64_t       *l1_misses,
                uint64_t       *l2_hits,
                uint64_t       *l2_misses)
{
  ensure_caches (sim);
  for (uint32_t i = 0; i < n_sectors; i++)
    {
      KsCacheResult h1 = ks_cache_access (sim->l1, sectors[i], store);

      if (sample != NULL)
        sample->level[i] = store ? KS_MEM_LEVEL_STORE : h1 == KS_CACHE_HIT ? KS_MEM_LEVEL_L1
                           : KS_MEM_LEVEL_L2;
      if (!store && h1 == KS_CACHE_HIT)
        {
          (*l1_hits)++;
          if (tm)
            tm->l1_hits = MIN (tm->l1_hits + 1u, KS_TRACE_MEMORY_MAX_SECTORS);
          continue;
        }
      if (!store)
        (*l1_misses)++;
      {
        /* L2 writes back: a store goes to DRAM only when its dirty sector
         * is evicted, which the access that evicts it pays for (a kernel's
         * output that fits in L2 is not written to DRAM while it runs:
         * seeds/004's vadd measures 8.4 MB of DRAM reads and no writes) */
        uint64_t written = ks_cache_get_stats (sim->l2)->writebacks;
        gboolean hit = ks_cache_access (sim->l2, sectors[i], store) == KS_CACHE_HIT;
        uint32_t dram = (uint32_t) (ks_cache_get_stats (sim->l2)->writebacks - written);

        if (hit || store)
          {
            /* a store that misses is written into L2 all the same */
            if (hit)
              (*l2_hits)++;
            else
              (*l2_misses)++;
            if (tm)
              tm->l2_hits = MIN (tm->l2_hits + 1u, KS_TRACE_MEMORY_MAX_SECTORS);
          }
        else
          {
            (*l2_misses)++;
            dram++;
            if (sample != NULL)
              sample->level[i] = KS_MEM_LEVEL_DRAM;
          }
        if (tm && dram > 0)
          tm->dram = MIN (tm->dram + dram, KS_TRACE_MEMORY_MAX_SECTORS);
      }
    }
}

void
ks_sim_cache_sectors (KsSim          *sim,
                      uint32_t        insn,
                      const uint64_t *sectors,
                      uint32_t        n_sectors,
                      gboolean        store,
                      gboolean        texture,
                      KsTraceMemory  *tm,
                      KsMemAccess    *sample)
{
  KsSimInsnStats *st = &sim->insn_stats[insn];
  uint64_t l2_hits = 0, l2_misses = 0;

  if (texture)
    through_caches (sim, sectors, n_sectors, store, tm, sample, &st->tex_l1_hits,
                    &st->tex_l1_misses, &l2_hits, &l2_misses);
  else
    through_caches (sim, sectors, n_sectors, store, tm, sample, &st->l1_hits, &st->l1_misses,
                    &st->l2_hits, &st->l2_misses);
}

/* A worker of a parallel run keeps a request for the caches, whose turn
 * comes in block order (ks-sim-parallel.c) */
static void
defer_request (KsSim          *sim,
               uint32_t        insn,
               const uint64_t *sectors,
               uint32_t        n_sectors,
               gboolean        store,
               gboolean        texture,
               KsTraceMemory  *tm,
               uint32_t        sample)
{
  KsSimBlock *b = sim->block;
  KsSimCacheRequest req;

  if (b->requests == NULL)
    {
      b->requests = g_array_new (FALSE, FALSE, sizeof (KsSimCacheRequest));
      b->sectors = g_array_new (FALSE, FALSE, sizeof (uint64_t));
    }
  memset (&req, 0, sizeof req);
  req.insn = insn;
  req.store = store;
  req.texture = texture;
  req.first_sector = b->sectors->len;
  req.n_sectors = n_sectors;
  req.trace_mem = tm != NULL ? (uint64_t) (tm - sim->trace_mem) : G_MAXUINT64;
  req.sample = sample;
  g_array_append_vals (b->sectors, sectors, n_sectors);
  g_array_append_val (b->requests, req);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

void
ks_sim_record_texture (KsSim           *sim,
                       const KsSimWarp *w,
                       uint32_t         insn,
                       gboolean         surface,
                       const uint64_t  *addrs,
                       uint32_t         n_addrs,
                       uint32_t         texel_size,
                       uint32_t         texels,
                       gboolean         store,
                       uint32_t         mask,
                       const KsTexAccess *tex)
{
  KsSimInsnStats *st = &sim->insn_stats[insn];
  uint64_t sectors[KS_WARP_SIZE * KS_TEX_MAX_TEXELS * 2];
  uint32_t n_sectors = 0, n_lines = 0;
  uint64_t last_line = G_MAXUINT64;
  KsTraceMemory *tm;

  if (!sim->trace_enabled)
    return;
  if (surface)
    st->surf_requests++;
  else
    {
      st->tex_requests++;
      st->tex_fetches += texels;
    }
  /* a texel lies in one sector, or two when it is 16 bytes at an odd
   * 16-byte place (never: arrays and texels are aligned) */
  for (uint32_t i = 0; i < n_addrs && n_sectors + 2 <= G_N_ELEMENTS (sectors); i++)
    {
      uint64_t first = addrs[i] & ~(uint64_t) 31, last = (addrs[i] + texel_size - 1) & ~(uint64_t) 31;

      sectors[n_sectors++] = first;
      if (last != first)
        sectors[n_sectors++] = last;
    }
  qsort (sectors, n_sectors, sizeof sectors[0], compare_u64);
  {
    uint32_t unique = 0;

    for (uint32_t i = 0; i < n_sectors; i++)
      if (unique == 0 || sectors[unique - 1] != sectors[i])
        sectors[unique++] = sectors[i];
    n_sectors = unique;
  }
  for (uint32_t i = 0; i < n_sectors; i++)
    if ((sectors[i] & ~(uint64_t) 127) != last_line)
      {
        last_line = sectors[i] & ~(uint64_t) 127;
        n_lines++;
      }
  st->tex_sectors += n_sectors;
  tm = trace_memory (sim, surface ? KS_TRACE_MEM_SURFACE : KS_TRACE_MEM_TEXTURE, store);
  if (tm != NULL)
    tm->wavefronts = MIN (n_lines, 255u);
  if (tex != NULL && mask != 0)
    sample_texture (sim, w, insn, addrs, texel_size, mask, tex);
  if (sim->block != NULL)
    defer_request (sim, insn, sectors, n_sectors, store, TRUE, tm, G_MAXUINT32);
  else
    ks_sim_cache_sectors (sim, insn, sectors, n_sectors, store, TRUE, tm, NULL);
}

/* Whether the memo holds this access's pattern: the same lanes, width and
 * direction, every lane at the same distance from the first and the first
 * at the same place within 16 bytes */
static inline gboolean
smem_memo_hit (const KsSimSmemMemo *mo,
               uint32_t             insn,
               const uint64_t       a[32],
               uint32_t             size,
               uint32_t             mask,
               gboolean             store,
               uint64_t             first)
{
  uint32_t differ = 0;

  if (mo->insn != insn + 1 || mo->mask != mask || mo->size != size || mo->store != (store != 0)
      || mo->first_lo != (first & 15))
    return FALSE;
  /* shared addresses are below 4 GiB, so 32-bit differences are exact;
   * a whole warp's compare is a loop the compiler vectorises */
  if (mask == KS_FULL_MASK)
    for (uint32_t l = 0; l < KS_WARP_SIZE; l++)
      differ |= mo->delta[l] ^ (uint32_t) (a[l] - first);
  else
    LANES (mask, l)
      differ |= mo->delta[l] ^ (uint32_t) (a[l] - first);
  return differ == 0;
}

/* The passes of the access the GPU makes for this PTX access, as the
 * trace records them for the timing model: a vector access ptxas merges
 * it into (ks-lower.h) is costed at its leader, as one access of the
 * merged width, and at 0 at its other parts.  A leader whose lanes turn
 * out not to be aligned for the merged width keeps its own cost. */
static uint32_t
gpu_access_cost (KsSim          *sim,
                 uint32_t        insn,
                 const uint64_t  a[32],
                 uint32_t        size,
                 uint32_t        mask,
                 gboolean        store,
                 gboolean        shared,
                 uint32_t        own)
{
  const KsLowerInsn *li;
  uint64_t v[32];
  uint32_t bytes;

  if (sim->lowering == NULL || insn >= sim->lowering->n_insns)
    return own;
  li = &sim->lowering->insns[insn];
  if (li->kind == KS_LOWER_VECTOR_PART)
    return 0;
  bytes = size * li->width;
  if (li->width <= 1 || bytes > 16)
    return own;
  memcpy (v, a, sizeof v);
  LANES (mask, l)
    {
      v[l] -= li->skew;
      if (v[l] % bytes != 0)
        return own;
    }
  if (shared)
    {
      uint32_t wavefronts, ideal, degree;

      ks_smem_cost (v, bytes, mask, store, &wavefronts, &ideal, &degree);
      return wavefronts;
    }
  else
    {
      KsGmemCost r;

      ks_gmem_cost (v, bytes, mask, &r);
      return r.n_lines;
    }
}

void
ks_sim_record_memory (KsSim           *sim,
                      const KsSimWarp *w,
                      uint32_t         insn,
                      KsPtxSpace      space,
                      const uint64_t  addr[32],
                      uint32_t        size,
                      uint32_t        mask,
                      gboolean        store,
                      gboolean        atomic)
{
  KsSimInsnStats *st = &sim->insn_stats[insn];
  uint64_t a[32];
  uint32_t first;

  if (!sim->trace_enabled || mask == 0 || size == 0 || size > 16)
    return;
  first = (uint32_t) __builtin_ctz (mask);
  memcpy (a, addr, sizeof a);
  if (space == KS_PTX_SPACE_NONE)
    {
      /* generic: the window of the first lane says which memory it is */
      if (a[first] >= KS_SIM_SHARED_WINDOW && a[first] < KS_SIM_SHARED_WINDOW + KS_SIM_WINDOW_SIZE)
        {
          space = KS_PTX_SPACE_SHARED;
          for (int l = 0; l < 32; l++)
            a[l] -= KS_SIM_SHARED_WINDOW;
        }
      else if (a[first] >= KS_SIM_GLOBAL_BASE)
        space = KS_PTX_SPACE_GLOBAL;
      else
        return;                 /* local and parameter memory are not analysed */
    }

  if (space == KS_PTX_SPACE_SHARED || space == KS_PTX_SPACE_SHARED_CLUSTER)
    {
      KsTraceMemory *tm = trace_memory (sim, KS_TRACE_MEM_SHARED, store);
      KsSimSmemMemo *mo = &sim->smem_memo[insn % KS_SIM_SMEM_MEMO];
      uint64_t first_addr = a[first];
      uint32_t sample_index, wavefronts, ideal, degree;

      /* The bank costs, of this access and of the one ptxas merges it
       * into, through the memo of the instruction's last pattern */
      if (!smem_memo_hit (mo, insn, a, size, mask, store, first_addr))
        {
          ks_smem_cost (a, size, mask, store, &mo->wavefronts, &mo->ideal, &mo->degree);
          mo->insn = insn + 1;
          mo->mask = mask;
          mo->size = (uint8_t) size;
          mo->store = store != 0;
          mo->first_lo = (uint8_t) (first_addr & 15);
          mo->gpu_valid = FALSE;
          LANES (mask, l)
            mo->delta[l] = (uint32_t) (a[l] - first_addr);
        }
      wavefronts = mo->wavefronts;
      ideal = mo->ideal;
      degree = mo->degree;
      if (tm != NULL && !mo->gpu_valid)
        {
          mo->gpu_wavefronts = gpu_access_cost (sim, insn, a, size, mask, store, TRUE, wavefronts);
          mo->gpu_valid = TRUE;
        }
      sample_access (sim, w, insn, KS_PTX_SPACE_SHARED, a, size, mask, store, &sample_index);
      if (!atomic)
        check_races (sim, w, insn, a, size, mask, store);
      if (tm != NULL)
        tm->wavefronts = MIN (mo->gpu_wavefronts, 255u);
      st->smem_requests++;
      st->smem_wavefronts += wavefronts;
      st->smem_ideal_wavefronts += ideal;
      st->smem_worst_degree = MAX (st->smem_worst_degree, degree);
      return;
    }
  if (space != KS_PTX_SPACE_GLOBAL && space != KS_PTX_SPACE_CONST)
    return;

  {
    KsGmemCost r;
    KsTraceMemory *tm;
    uint32_t sample_index;
    KsMemAccess *sample;

    G_STATIC_ASSERT (KS_GMEM_MAX_SECTORS <= G_N_ELEMENTS (sample->level));
    /* a global request's record never saturates */
    G_STATIC_ASSERT (KS_GMEM_MAX_SECTORS <= KS_TRACE_MEMORY_MAX_SECTORS);
    ks_gmem_cost (a, size, mask, &r);
    tm = trace_memory (sim, KS_TRACE_MEM_GLOBAL, store);
    sample = sample_access (sim, w, insn, KS_PTX_SPACE_GLOBAL, a, size, mask, store, &sample_index);
    if (sample != NULL)
      sample->n_levels = (uint8_t) r.n_sectors;
    st->gmem_requests++;
    st->gmem_sectors += r.n_sectors;
    st->gmem_ideal_sectors += r.ideal_sectors;
    st->gmem_lines += r.n_lines;
    st->gmem_requested_bytes += r.requested_bytes;
    st->gmem_used_bytes += r.unique_bytes;
    if (tm != NULL)
      tm->wavefronts = MIN (gpu_access_cost (sim, insn, a, size, mask, store, FALSE, r.n_lines),
                            255u);
    /* the caches are the run's: in a worker, their turn comes in block order */
    if (sim->block != NULL)
      defer_request (sim, insn, r.sectors, r.n_sectors, store, FALSE, tm, sample_index);
    else
      ks_sim_cache_sectors (sim, insn, r.sectors, r.n_sectors, store, FALSE, tm, sample);
  }
}
