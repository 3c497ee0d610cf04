/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cudart-private.h: what the stand-in's files share (docs/RECORD.md).
 *
 * The stand-in is the CUDA runtime library a program built with
 * `nvcc -cudart shared` loads (libcudart.so.13), put in its place by
 * `kernelscope-cli record`.  Device memory is host memory the stand-in
 * keeps, at device addresses it hands out; each launch runs in the
 * simulator over every live allocation, placed at those same addresses,
 * so pointers the program keeps in device memory stay right. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-cudart-abi.h"
#include "ks-fatbin.h"
#include "ks-gpu-db.h"
#include "ks-launch.h"
#include "ks-ptx.h"

/* Where device allocations start: above the simulator's windows
 * (KS_LAUNCH_MIN_ADDRESS) and below where Linux maps shared libraries */
#define KS_CUDART_DEVICE_BASE G_GUINT64_CONSTANT (0x0000700000000000)
#define KS_CUDART_GUARD 4096u

typedef struct ks_cudart_module KsCudartModule;

/* A module variable (__device__, __constant__, __managed__).  Its storage
 * is an allocation of its own at @addr, which each launch of its module
 * binds to the PTX variable (a launch buffer's "variable"), so that the
 * address cudaGetSymbolAddress gives and the variable are one memory. */
typedef struct
{
  char *name;                   /* as the PTX writes it */
  uint64_t size;
  gboolean constant;
  gboolean managed;             /* __managed__: host-visible, the program's pointer set */
  uint64_t addr;                /* its allocation; 0 when it could not be made */
  gboolean loaded;              /* the allocation holds its contents (the PTX's initializer
                                 * is read when first needed) */
  KsCudartModule *module;
  const void *host;             /* the program's shadow variable */
  gboolean absent;              /* registered, but not in the PTX (ptxas or cicc dropped it):
                                 * only the host's copy exists */
} KsCudartVar;

/* A CUDA array: its texels in its allocation, row-major, x fastest, then
 * y, then z or the layer (what a launch's texture or surface takes) */
typedef struct
{
  struct cudaChannelFormatDesc desc;
  KsPtxType format;             /* of one channel */
  uint32_t channels, texel_size;
  uint32_t dims;                /* 1, 2 or 3 */
  uint32_t width, height, depth;  /* 1 where not given */
  uint32_t layers;              /* 1 when not layered; 6 (x n) for cubemaps */
  gboolean layered, cubemap;
  unsigned int flags;           /* cudaArray* */
} KsCudartArray;

typedef struct
{
  uint64_t addr, size;
  uint8_t *data;                /* the contents; for host-visible memory, addr itself */
  gboolean host_visible;        /* cudaMallocManaged, cudaMallocHost: mapped at addr */
  uint64_t mapped;              /* bytes mapped at addr (host-visible) */
  gboolean registered;          /* the program's own memory (cudaHostRegister) */
  uint32_t id;                  /* the n-th allocation of the program: its buffer's name */
  KsCudartVar *var;             /* the module variable it is the storage of, or NULL */
  KsCudartArray *array;         /* the CUDA array it is the storage of, or NULL */
} KsCudartAlloc;

struct ks_cudart_module
{
  void *handle_slot;            /* the program keeps &handle_slot as its handle */
  uint32_t index;
  char *error;                  /* why it cannot run, when it cannot */
  char *ptx;                    /* the chosen PTX entry's text */
  size_t ptx_len;
  char *source_name;            /* the file nvcc named in the fat binary */
  uint32_t ptx_arch;
  KsPtxModule *module;          /* parsed when first needed */
  uint8_t *cubin;               /* the fat binary's cubin for the GPU's architecture, or NULL */
  size_t cubin_len;
  GPtrArray *vars;              /* KsCudartVar */
  const char *record_path;      /* modules/module-N.ptx in the recording */
};

typedef struct ks_cudart_kernel
{
  KsCudartModule *module;
  const void *host_fun;
  char *name;                   /* the PTX name */
  int max_dynamic_shared;       /* cudaFuncAttributeMaxDynamicSharedMemorySize */
  gboolean estimate_said;       /* the note that its registers are an estimate was given */
} KsCudartKernel;

/* What the library exports: the runtime's own names */
#define CUDART_API __attribute__ ((visibility ("default")))

/* Calls into the runtime are serialized by one lock (recursive: a call may
 * make another) */
void             ks_cudart_lock            (void);
void             ks_cudart_unlock          (void);
/* Returns what @call returns, run under the lock */
#define LOCKED(call) \
  G_STMT_START { cudaError_t e_; ks_cudart_lock (); e_ = (call); ks_cudart_unlock (); \
                 return e_; } G_STMT_END
/* The error a call returns, remembered as the last error when it is one */
cudaError_t      ks_cudart_return          (cudaError_t     err);
/* A fault of a kernel leaves the context unusable, as on the hardware:
 * every later call returns it */
cudaError_t      ks_cudart_sticky          (void);
void             ks_cudart_set_sticky      (cudaError_t     err);
/* Prints "kernelscope: MESSAGE" on stderr */
void             ks_cudart_note            (const char     *format,
                                            ...) G_GNUC_PRINTF (1, 2);
/* Says once that @function is not implemented; returns cudaErrorNotSupported */
cudaError_t      ks_cudart_not_supported   (const char     *function);

/* Allocations */
KsCudartAlloc   *ks_cudart_find_alloc      (uint64_t        addr,
                                            uint64_t        size);
GArray          *ks_cudart_allocs          (void);
/* Its buffer's name in a launch: mN for the program's N-th allocation, a
 * variable's storage by the variable's name (NAME.moduleN after the
 * first module) */
char            *ks_cudart_alloc_name      (const KsCudartAlloc *a);
/* A device allocation of @size bytes (not 0), the storage of @array
 * (taken) when it is not NULL; the error, not yet returned, and a note
 * when it cannot be made */
cudaError_t      ks_cudart_new_alloc       (uint64_t       *addr,
                                            size_t          size,
                                            KsCudartArray  *array,
                                            const char     *what);
/* Frees the allocation at @addr, which must exist */
void             ks_cudart_free_at         (uint64_t        addr);
/* Where @n bytes at @ptr are: device memory the stand-in keeps (*device
 * TRUE), or the program's own memory.  NULL (and a note) for a range that
 * starts in an allocation and runs past it. */
uint8_t         *ks_cudart_locate          (const void     *ptr,
                                            size_t          n,
                                            gboolean       *device,
                                            const char     *what);
/* Whether a copy of @kind may go between such memory: cudaSuccess, or
 * (with a note, not yet returned) cudaErrorInvalidMemcpyDirection for a
 * kind that is none, cudaErrorInvalidValue for one the memory is not */
cudaError_t      ks_cudart_kind_check      (int             kind,
                                            gboolean        dst_device,
                                            gboolean        src_device,
                                            const char     *what);

/* Streams and events.  Work runs in order at the call; a stream in a
 * capture (cudaStreamBeginCapture, or joined to one through an event)
 * adds its work to the capture's graph instead (ks-cudart-graph.c). */
struct ks_cudart_stream
{
  struct ks_cudart_graph *capture;  /* the graph it captures into, or NULL */
  gboolean capture_origin;      /* where the capture began (and must end) */
  gboolean nonblocking;         /* cudaStreamNonBlocking: no implicit order with stream 0 */
};

struct ks_cudart_event
{
  gboolean recorded;
  double us;                    /* the model clock when recorded */
  struct ks_cudart_graph *capture;  /* recorded in a capture: it joins streams to it */
};

/* Whether @stream is one the program created (not the legacy or
 * per-thread default stream) */
gboolean         ks_cudart_is_stream       (cudaStream_t    stream);
/* The graph @stream captures into, or NULL */
struct ks_cudart_graph *ks_cudart_capturing (cudaStream_t   stream);
/* Work for the legacy default stream (@stream 0 or cudaStreamLegacy; a
 * synchronous copy or memset) while a blocking stream captures: the
 * legacy stream would wait for work that is not running, so CUDA refuses
 * it with cudaErrorStreamCaptureImplicit and invalidates those captures.
 * cudaSuccess when there is no such capture.  Called locked. */
cudaError_t      ks_cudart_legacy_in_capture (cudaStream_t  stream,
                                              const char   *function);
/* Work given to a capturing stream, added to its graph: a kernel launch
 * (its arguments copied), a copy of @height rows of @width bytes, a
 * memset */
cudaError_t      ks_cudart_capture_launch  (cudaStream_t    stream,
                                            KsCudartKernel *kernel,
                                            dim3            grid,
                                            dim3            block,
                                            void          **args,
                                            size_t          shared);
cudaError_t      ks_cudart_capture_copy    (cudaStream_t    stream,
                                            void           *dst,
                                            const void     *src,
                                            size_t          width,
                                            size_t          height,
                                            size_t          dpitch,
                                            size_t          spitch,
                                            int             kind);
cudaError_t      ks_cudart_capture_set     (cudaStream_t    stream,
                                            void           *dst,
                                            int             value,
                                            size_t          count);
/* cudaSuccess, or, when @stream is capturing, cudaErrorStreamCaptureUnsupported
 * for @function (which the stand-in does not capture) with a note: the
 * capture is then invalid, as CUDA's is after an error */
cudaError_t      ks_cudart_refuse_in_capture (cudaStream_t  stream,
                                              const char   *function);
/* A copy the way cudaMemcpy3D takes it (ks-cudart-tex.c) */
cudaError_t      ks_cudart_copy_3d         (const struct cudaMemcpy3DParms *p,
                                            const char     *what);
/* A kernel's argument values as its PTX declares them: one block of
 * bytes, and the pointers into it a launch takes; FALSE, with *message,
 * when the module cannot be read */
gboolean         ks_cudart_copy_args       (KsCudartKernel *kernel,
                                            void          **args,
                                            uint8_t       **bytes,
                                            size_t         *len,
                                            void         ***argv,
                                            char          **message);
/* The program's streams and events, as they are made and destroyed */
void             ks_cudart_graph_track     (gpointer        object,
                                            gboolean        event,
                                            gboolean        live);

/* Textures and surfaces (ks-cudart-tex.c): the launch's tables of every
 * object the program made, in the order of their handles, the destroyed
 * ones (and those whose memory is gone) marked so */
void             ks_cudart_tex_describe    (KsLaunch       *launch);
/* The handle a kernel parameter's @bits hold: KS_LAUNCH_HANDLE_NONE, or
 * its kind and *index */
int              ks_cudart_tex_param       (uint64_t        bits,
                                            uint32_t       *index);

/* Makes @var's storage (device memory, or host-visible memory for a
 * __managed__ variable); FALSE, with a note, when it cannot be made */
gboolean         ks_cudart_alloc_var       (KsCudartVar    *var);
/* The bytes of @var's storage, its contents loaded; NULL, with a note,
 * when they cannot be */
uint8_t         *ks_cudart_var_bytes       (KsCudartVar    *var);

/* The simulated GPU, from the GPU database read once */
const struct cudaDeviceProp *ks_cudart_props (void);
const KsGpuInfo *ks_cudart_gpu             (void);
const KsArchInfo *ks_cudart_arch           (void);

/* Launching a registered kernel */
cudaError_t      ks_cudart_launch          (KsCudartKernel *kernel,
                                            dim3            grid,
                                            dim3            block,
                                            void          **args,
                                            size_t          shared,
                                            gboolean        cooperative);
KsCudartKernel  *ks_cudart_find_kernel     (const void     *fun);
/* A module variable by the program's shadow address (or, for a
 * __managed__ one, by its storage's address) */
KsCudartVar     *ks_cudart_find_var        (const void     *symbol);
/* Makes @var's storage hold its contents: its PTX initializer, read once,
 * before the program or a kernel first reads or writes it */
gboolean         ks_cudart_var_contents    (KsCudartVar    *var);
/* The model time of the launches so far, in microseconds */
double           ks_cudart_model_clock     (void);
/* Writes the recording's last launches.json and closes it */
void             ks_cudart_finish          (void);

/* A kernel's registers, static shared memory and barriers: ptxas's, from
 * the program's cubin for the GPU's architecture when it carries one
 * (*exact TRUE), else KernelScope's estimate from the PTX.  FALSE when the
 * module cannot be read. */
gboolean         ks_cudart_kernel_resources (KsCudartKernel *kernel,
                                             uint32_t       *registers,
                                             uint32_t       *static_shared,
                                             uint32_t       *barriers,
                                             gboolean       *exact);
