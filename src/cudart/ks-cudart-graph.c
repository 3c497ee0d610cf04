/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cudart-graph.c: CUDA graphs in the stand-in (docs/RECORD.md): graphs
 * built node by node, graphs captured from streams, and their launches,
 * and host functions on a stream.
 *
 * The stand-in runs work in order at the call, so a graph is a list of
 * nodes in an order its dependencies allow: a node's dependencies must
 * already be in the graph when it is added (which the API's own order
 * gives), and the list runs front to back.  A stream in a capture adds its
 * work (kernel launches with their arguments copied, copies, memsets, host
 * functions) to the graph instead of running it; a stream that waits on an
 * event recorded in a capture joins it, as CUDA's fork and join do.  Work
 * the stand-in does not capture is refused with
 * cudaErrorStreamCaptureUnsupported, and the capture is then invalid: it
 * never runs out of order. */
#include "ks-cudart-private.h"

#include <string.h>

typedef enum
{
  NODE_EMPTY,
  NODE_KERNEL,
  NODE_COPY,
  NODE_SET,
  NODE_HOST,
} NodeKind;

struct ks_cudart_graph_node
{
  NodeKind kind;
  struct ks_cudart_graph *graph;
  KsCudartKernel *kernel;
  dim3 grid, block;
  size_t shared;
  uint8_t *arg_bytes;           /* the arguments' values, copied when added */
  size_t arg_len;
  void **argv;                  /* pointers into arg_bytes, NULL-terminated */
  struct cudaMemcpy3DParms copy;
  struct cudaMemsetParams set;
  struct cudaHostNodeParams host;
};

struct ks_cudart_graph
{
  GPtrArray *nodes;             /* struct ks_cudart_graph_node, in the order they run */
  gboolean invalidated;         /* a capture that met work it could not take */
};

struct ks_cudart_graph_exec
{
  struct ks_cudart_graph *graph;  /* a copy of the graph instantiated */
  /* the graph it was instantiated from and the last one an update took
   * parameters from: the graphs whose nodes name its own, by their place
   * (compared, never read: the program may have destroyed them) */
  const struct ks_cudart_graph *origin, *updated_from;
};

static void
node_free (gpointer data)
{
  struct ks_cudart_graph_node *n = data;

  g_free (n->arg_bytes);
  g_free (n->argv);
  g_free (n);
}

static struct ks_cudart_graph *
graph_new (void)
{
  struct ks_cudart_graph *g = g_new0 (struct ks_cudart_graph, 1);

  g->nodes = g_ptr_array_new_with_free_func (node_free);
  return g;
}

static void
graph_free (struct ks_cudart_graph *g)
{
  if (g == NULL)
    return;
  g_ptr_array_unref (g->nodes);
  g_free (g);
}

static struct ks_cudart_graph *
graph_copy (const struct ks_cudart_graph *g)
{
  struct ks_cudart_graph *c = graph_new ();

  for (guint i = 0; i < g->nodes->len; i++)
    {
      const struct ks_cudart_graph_node *n = g_ptr_array_index (g->nodes, i);
      struct ks_cudart_graph_node *m = g_memdup2 (n, sizeof *n);

      m->graph = c;
      if (n->kind == NODE_KERNEL)
        {
          guint count = 0;

          while (n->argv[count] != NULL)
            count++;
          m->arg_bytes = g_memdup2 (n->arg_bytes, MAX (n->arg_len, 1));
          m->argv = g_new0 (void *, count + 1);
          for (guint k = 0; k < count; k++)
            m->argv[k] = m->arg_bytes + ((uint8_t *) n->argv[k] - n->arg_bytes);
        }
      g_ptr_array_add (c->nodes, m);
    }
  return c;
}

/* ---- streams in a capture ----------------------------------------------------------------- */

static GHashTable *live_streams;        /* the program's streams */
static GHashTable *live_events;         /* and events */

gboolean
ks_cudart_is_stream (cudaStream_t stream)
{
  /* (0, cudaStreamLegacy and cudaStreamPerThread are the default streams) */
  return (uintptr_t) stream > 2 && live_streams != NULL
         && g_hash_table_contains (live_streams, stream);
}

struct ks_cudart_graph *
ks_cudart_capturing (cudaStream_t stream)
{
  return ks_cudart_is_stream (stream) ? stream->capture : NULL;
}

void
ks_cudart_graph_track (gpointer object,
                       gboolean event,
                       gboolean live)
{
  GHashTable **set = event ? &live_events : &live_streams;

  if (*set == NULL)
    *set = g_hash_table_new (NULL, NULL);
  if (live)
    g_hash_table_add (*set, object);
  else
    g_hash_table_remove (*set, object);
}

cudaError_t
ks_cudart_legacy_in_capture (cudaStream_t  stream,
                             const char   *function)
{
  GHashTableIter it;
  gpointer key;
  guint n = 0;

  if ((uintptr_t) stream > 1 || live_streams == NULL)
    return cudaSuccess;
  g_hash_table_iter_init (&it, live_streams);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      struct ks_cudart_stream *s = key;

      if (s->capture != NULL && !s->nonblocking)
        {
          s->capture->invalidated = TRUE;
          n++;
        }
    }
  if (n == 0)
    return cudaSuccess;
  ks_cudart_note ("%s on the legacy default stream while a blocking stream captures: it would "
                  "wait for the captured work, which does not run; the capture is invalid "
                  "(cudaErrorStreamCaptureImplicit). Give the work to a stream, or capture in "
                  "a stream made with cudaStreamNonBlocking", function);
  return ks_cudart_return (cudaErrorStreamCaptureImplicit);
}

cudaError_t
ks_cudart_refuse_in_capture (cudaStream_t  stream,
                             const char   *function)
{
  struct ks_cudart_graph *g;

  ks_cudart_lock ();
  g = ks_cudart_capturing (stream);
  if (g != NULL)
    {
      g->invalidated = TRUE;
      ks_cudart_note ("%s in a stream capture: KernelScope's runtime does not capture it; the "
                      "capture is invalid (cudaErrorStreamCaptureUnsupported)", function);
    }
  ks_cudart_unlock ();
  return g != NULL ? ks_cudart_return (cudaErrorStreamCaptureUnsupported) : cudaSuccess;
}

static struct ks_cudart_graph_node *
add_node (struct ks_cudart_graph *g,
          NodeKind                kind)
{
  struct ks_cudart_graph_node *n = g_new0 (struct ks_cudart_graph_node, 1);

  n->kind = kind;
  n->graph = g;
  g_ptr_array_add (g->nodes, n);
  return n;
}

/* Makes @n a launch of @k with copies of @args (its old ones freed) */
static cudaError_t
kernel_fill (struct ks_cudart_graph_node  *n,
             KsCudartKernel               *k,
             dim3                          grid,
             dim3                          block,
             void                        **args,
             size_t                        shared,
             const char                   *what)
{
  g_autofree char *message = NULL;
  uint8_t *bytes = NULL;
  void **argv = NULL;
  size_t len = 0;

  if (!ks_cudart_copy_args (k, args, &bytes, &len, &argv, &message))
    {
      ks_cudart_note ("%s: %s cannot be launched: %s", what, k->name, message);
      return cudaErrorInvalidDeviceFunction;
    }
  g_free (n->arg_bytes);
  g_free (n->argv);
  n->kernel = k;
  n->grid = grid;
  n->block = block;
  n->shared = shared;
  n->arg_bytes = bytes;
  n->arg_len = len;
  n->argv = argv;
  return cudaSuccess;
}

static cudaError_t
kernel_node (struct ks_cudart_graph        *g,
             KsCudartKernel                *k,
             dim3                           grid,
             dim3                           block,
             void                         **args,
             size_t                         shared,
             struct ks_cudart_graph_node  **out,
             const char                    *what)
{
  struct ks_cudart_graph_node scratch = { .kind = NODE_KERNEL };
  cudaError_t e = kernel_fill (&scratch, k, grid, block, args, shared, what);
  struct ks_cudart_graph_node *n;

  if (e != cudaSuccess)
    return e;
  n = add_node (g, NODE_KERNEL);
  scratch.graph = n->graph;
  *n = scratch;
  if (out != NULL)
    *out = n;
  return cudaSuccess;
}

cudaError_t
ks_cudart_capture_launch (cudaStream_t    stream,
                          KsCudartKernel *kernel,
                          dim3            grid,
                          dim3            block,
                          void          **args,
                          size_t          shared)
{
  cudaError_t e = kernel_node (stream->capture, kernel, grid, block, args, shared, NULL,
                               "a launch in a stream capture");

  if (e != cudaSuccess)
    stream->capture->invalidated = TRUE;
  return e == cudaSuccess ? cudaSuccess : ks_cudart_return (e);
}

cudaError_t
ks_cudart_capture_copy (cudaStream_t  stream,
                        void         *dst,
                        const void   *src,
                        size_t        width,
                        size_t        height,
                        size_t        dpitch,
                        size_t        spitch,
                        int           kind)
{
  struct ks_cudart_graph_node *n = add_node (stream->capture, NODE_COPY);

  n->copy.srcPtr.ptr = (void *) src;
  n->copy.srcPtr.pitch = spitch;
  n->copy.srcPtr.xsize = width;
  n->copy.srcPtr.ysize = height;
  n->copy.dstPtr.ptr = dst;
  n->copy.dstPtr.pitch = dpitch;
  n->copy.dstPtr.xsize = width;
  n->copy.dstPtr.ysize = height;
  n->copy.extent.width = width;
  n->copy.extent.height = height;
  n->copy.extent.depth = 1;
  n->copy.kind = kind;
  return cudaSuccess;
}

cudaError_t
ks_cudart_capture_set (cudaStream_t  stream,
                       void         *dst,
                       int           value,
                       size_t        count)
{
  struct ks_cudart_graph_node *n = add_node (stream->capture, NODE_SET);

  n->set.dst = dst;
  n->set.pitch = count;
  n->set.value = (unsigned int) value;
  n->set.elementSize = 1;
  n->set.width = count;
  n->set.height = 1;
  return cudaSuccess;
}

static cudaError_t
begin_capture (cudaStream_t stream)
{
  if (!ks_cudart_is_stream (stream))
    {
      ks_cudart_note ("cudaStreamBeginCapture: the default stream cannot be captured; capture "
                      "a stream from cudaStreamCreate (cudaErrorStreamCaptureUnsupported)");
      return ks_cudart_return (cudaErrorStreamCaptureUnsupported);
    }
  if (stream->capture != NULL)
    return ks_cudart_return (cudaErrorIllegalState);
  stream->capture = graph_new ();
  stream->capture_origin = TRUE;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaStreamBeginCapture (cudaStream_t stream,
                        int          mode)
{
  (void) mode;
  LOCKED (begin_capture (stream));
}

static cudaError_t
end_capture (cudaStream_t  stream,
             cudaGraph_t  *graph)
{
  struct ks_cudart_graph *g;
  GHashTableIter it;
  gpointer key;

  if (graph == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (!ks_cudart_is_stream (stream) || stream->capture == NULL)
    return ks_cudart_return (cudaErrorIllegalState);
  if (!stream->capture_origin)
    return ks_cudart_return (cudaErrorStreamCaptureUnmatched);
  g = stream->capture;
  /* the capture ends in every stream it joined, and its events */
  g_hash_table_iter_init (&it, live_streams);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (((cudaStream_t) key)->capture == g)
      {
        ((cudaStream_t) key)->capture = NULL;
        ((cudaStream_t) key)->capture_origin = FALSE;
      }
  if (live_events != NULL)
    {
      g_hash_table_iter_init (&it, live_events);
      while (g_hash_table_iter_next (&it, &key, NULL))
        if (((cudaEvent_t) key)->capture == g)
          ((cudaEvent_t) key)->capture = NULL;
    }
  if (g->invalidated)
    {
      graph_free (g);
      *graph = NULL;
      return ks_cudart_return (cudaErrorStreamCaptureInvalidated);
    }
  *graph = g;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaStreamEndCapture (cudaStream_t  stream,
                      cudaGraph_t  *graph)
{
  LOCKED (end_capture (stream, graph));
}

static cudaError_t
is_capturing (cudaStream_t  stream,
              int          *status)
{
  struct ks_cudart_graph *g = ks_cudart_capturing (stream);

  if (status == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *status = g == NULL ? cudaStreamCaptureStatusNone
            : g->invalidated ? cudaStreamCaptureStatusInvalidated
            : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaStreamIsCapturing (cudaStream_t  stream,
                       int          *status)
{
  LOCKED (is_capturing (stream, status));
}

/* ---- host functions ----------------------------------------------------------------------- */

CUDART_API cudaError_t
cudaLaunchHostFunc (cudaStream_t  stream,
                    cudaHostFn_t  fn,
                    void         *data)
{
  struct ks_cudart_graph *g;

  if (fn == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  ks_cudart_lock ();
  g = ks_cudart_capturing (stream);
  if (g != NULL)
    {
      struct ks_cudart_graph_node *n = add_node (g, NODE_HOST);

      n->host.fn = fn;
      n->host.userData = data;
    }
  ks_cudart_unlock ();
  if (g != NULL)
    return cudaSuccess;
  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  /* the stream's work so far is done: the function runs now */
  fn (data);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaStreamAddCallback (cudaStream_t  stream,
                       void        (*callback) (cudaStream_t, cudaError_t, void *),
                       void         *data,
                       unsigned int  flags)
{
  (void) flags;
  if (callback == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (ks_cudart_refuse_in_capture (stream, "cudaStreamAddCallback") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  callback (stream, ks_cudart_sticky (), data);
  return cudaSuccess;
}

/* ---- graphs made node by node ------------------------------------------------------------- */

CUDART_API cudaError_t
cudaGraphCreate (cudaGraph_t  *graph,
                 unsigned int  flags)
{
  if (graph == NULL || flags != 0)
    return ks_cudart_return (cudaErrorInvalidValue);
  *graph = graph_new ();
  return cudaSuccess;
}

/* A node's dependencies must be nodes of its graph already there: then
 * the order nodes are added in is one that respects them */
static gboolean
deps_ok (cudaGraph_t            graph,
         const cudaGraphNode_t *deps,
         size_t                 n,
         const char            *what)
{
  if (graph == NULL || (n > 0 && deps == NULL))
    return FALSE;
  for (size_t i = 0; i < n; i++)
    if (deps[i] == NULL || deps[i]->graph != graph)
      {
        ks_cudart_note ("%s: dependency %zu is not a node of the graph (cudaErrorInvalidValue)",
                        what, i);
        return FALSE;
      }
  return TRUE;
}

/* The kernel of @p, which gives its arguments as kernelParams */
static cudaError_t
kernel_params_kernel (const struct cudaKernelNodeParams  *p,
                      const char                         *what,
                      KsCudartKernel                    **k)
{
  if (p == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (p->extra != NULL)
    {
      ks_cudart_note ("%s: arguments given as 'extra' are not supported; give kernelParams "
                      "(cudaErrorNotSupported)", what);
      return ks_cudart_return (cudaErrorNotSupported);
    }
  *k = ks_cudart_find_kernel (p->func);
  return *k != NULL ? cudaSuccess : ks_cudart_return (cudaErrorInvalidDeviceFunction);
}

static cudaError_t
add_kernel_node (cudaGraphNode_t                   *node,
                 cudaGraph_t                        graph,
                 const cudaGraphNode_t             *deps,
                 size_t                             n_deps,
                 const struct cudaKernelNodeParams *p)
{
  const char *what = "cudaGraphAddKernelNode";
  KsCudartKernel *k;
  cudaError_t e;

  if (node == NULL || !deps_ok (graph, deps, n_deps, what))
    return ks_cudart_return (cudaErrorInvalidValue);
  if ((e = kernel_params_kernel (p, what, &k)) != cudaSuccess)
    return e;
  e = kernel_node (graph, k, p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes, node,
                   what);
  return e == cudaSuccess ? cudaSuccess : ks_cudart_return (e);
}

CUDART_API cudaError_t
cudaGraphAddKernelNode (cudaGraphNode_t                   *node,
                        cudaGraph_t                        graph,
                        const cudaGraphNode_t             *deps,
                        size_t                             n_deps,
                        const struct cudaKernelNodeParams *params)
{
  LOCKED (add_kernel_node (node, graph, deps, n_deps, params));
}

/* Checks @params for a node of @n's kind (a copy, memset or host node)
 * and sets them: node creation and cudaGraphExec*NodeSetParams share it */
static cudaError_t
set_other (struct ks_cudart_graph_node *n,
           const void                  *params,
           const char                  *what)
{
  if (n == NULL || (n->kind != NODE_EMPTY && params == NULL))
    return ks_cudart_return (cudaErrorInvalidValue);
  if (n->kind == NODE_COPY)
    n->copy = *(const struct cudaMemcpy3DParms *) params;
  else if (n->kind == NODE_SET)
    {
      const struct cudaMemsetParams *s = params;

      if (s->elementSize != 1 && s->elementSize != 2 && s->elementSize != 4)
        {
          ks_cudart_note ("%s: an element of %u bytes: 1, 2 or 4 (cudaErrorInvalidValue)", what,
                          s->elementSize);
          return ks_cudart_return (cudaErrorInvalidValue);
        }
      n->set = *s;
    }
  else if (n->kind == NODE_HOST)
    {
      if (((const struct cudaHostNodeParams *) params)->fn == NULL)
        return ks_cudart_return (cudaErrorInvalidValue);
      n->host = *(const struct cudaHostNodeParams *) params;
    }
  return cudaSuccess;
}

static cudaError_t
add_other_node (cudaGraphNode_t       *node,
                cudaGraph_t            graph,
                const cudaGraphNode_t *deps,
                size_t                 n_deps,
                NodeKind               kind,
                const void            *params,
                const char            *what)
{
  struct ks_cudart_graph_node scratch = { .kind = kind }, *n;
  cudaError_t e;

  if (node == NULL || !deps_ok (graph, deps, n_deps, what))
    return ks_cudart_return (cudaErrorInvalidValue);
  /* (checked before the node is added: a refused node is not in the graph) */
  if ((e = set_other (&scratch, params, what)) != cudaSuccess)
    return e;
  n = add_node (graph, kind);
  scratch.graph = n->graph;
  *n = scratch;
  *node = n;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGraphAddMemcpyNode (cudaGraphNode_t                *node,
                        cudaGraph_t                     graph,
                        const cudaGraphNode_t          *deps,
                        size_t                          n_deps,
                        const struct cudaMemcpy3DParms *params)
{
  LOCKED (add_other_node (node, graph, deps, n_deps, NODE_COPY, params,
                          "cudaGraphAddMemcpyNode"));
}

CUDART_API cudaError_t
cudaGraphAddMemsetNode (cudaGraphNode_t               *node,
                        cudaGraph_t                    graph,
                        const cudaGraphNode_t         *deps,
                        size_t                         n_deps,
                        const struct cudaMemsetParams *params)
{
  LOCKED (add_other_node (node, graph, deps, n_deps, NODE_SET, params,
                          "cudaGraphAddMemsetNode"));
}

CUDART_API cudaError_t
cudaGraphAddHostNode (cudaGraphNode_t                  *node,
                      cudaGraph_t                       graph,
                      const cudaGraphNode_t            *deps,
                      size_t                            n_deps,
                      const struct cudaHostNodeParams  *params)
{
  LOCKED (add_other_node (node, graph, deps, n_deps, NODE_HOST, params,
                          "cudaGraphAddHostNode"));
}

CUDART_API cudaError_t
cudaGraphAddEmptyNode (cudaGraphNode_t       *node,
                       cudaGraph_t            graph,
                       const cudaGraphNode_t *deps,
                       size_t                 n_deps)
{
  LOCKED (add_other_node (node, graph, deps, n_deps, NODE_EMPTY, NULL,
                          "cudaGraphAddEmptyNode"));
}

/* An edge from a node to one added after it keeps the order; one to an
 * earlier node would need the nodes reordered, which the stand-in does
 * not do */
static cudaError_t
add_dependencies (cudaGraph_t            graph,
                  const cudaGraphNode_t *from,
                  const cudaGraphNode_t *to,
                  size_t                 n)
{
  if (graph == NULL || (n > 0 && (from == NULL || to == NULL)))
    return ks_cudart_return (cudaErrorInvalidValue);
  for (size_t i = 0; i < n; i++)
    {
      guint a, b;

      if (from[i] == NULL || to[i] == NULL || from[i]->graph != graph || to[i]->graph != graph
          || !g_ptr_array_find (graph->nodes, from[i], &a)
          || !g_ptr_array_find (graph->nodes, to[i], &b))
        return ks_cudart_return (cudaErrorInvalidValue);
      if (a >= b)
        {
          ks_cudart_note ("cudaGraphAddDependencies: an edge to a node added before the node it "
                          "depends on: KernelScope's runtime runs a graph's nodes in the order "
                          "they were added (cudaErrorNotSupported)");
          return ks_cudart_return (cudaErrorNotSupported);
        }
    }
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGraphAddDependencies (cudaGraph_t            graph,
                          const cudaGraphNode_t *from,
                          const cudaGraphNode_t *to,
                          size_t                 n)
{
  LOCKED (add_dependencies (graph, from, to, n));
}

static cudaError_t
get_nodes (cudaGraph_t      graph,
           cudaGraphNode_t *nodes,
           size_t          *n)
{
  if (graph == NULL || n == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (nodes != NULL)
    for (size_t i = 0; i < *n; i++)
      nodes[i] = i < graph->nodes->len ? g_ptr_array_index (graph->nodes, i) : NULL;
  if (nodes == NULL || *n > graph->nodes->len)
    *n = graph->nodes->len;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGraphGetNodes (cudaGraph_t      graph,
                   cudaGraphNode_t *nodes,
                   size_t          *n)
{
  LOCKED (get_nodes (graph, nodes, n));
}

CUDART_API cudaError_t
cudaGraphClone (cudaGraph_t *clone,
                cudaGraph_t  original)
{
  if (clone == NULL || original == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  ks_cudart_lock ();
  *clone = graph_copy (original);
  ks_cudart_unlock ();
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGraphDestroy (cudaGraph_t graph)
{
  ks_cudart_lock ();
  graph_free (graph);
  ks_cudart_unlock ();
  return cudaSuccess;
}

/* ---- executable graphs -------------------------------------------------------------------- */

static cudaError_t
instantiate (cudaGraphExec_t *exec,
             cudaGraph_t      graph)
{
  if (exec == NULL || graph == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  *exec = g_new0 (struct ks_cudart_graph_exec, 1);
  (*exec)->graph = graph_copy (graph);
  (*exec)->origin = graph;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaGraphInstantiate (cudaGraphExec_t    *exec,
                      cudaGraph_t         graph,
                      unsigned long long  flags)
{
  (void) flags;
  LOCKED (instantiate (exec, graph));
}

CUDART_API cudaError_t
cudaGraphInstantiateWithFlags (cudaGraphExec_t    *exec,
                               cudaGraph_t         graph,
                               unsigned long long  flags)
{
  (void) flags;
  LOCKED (instantiate (exec, graph));
}

CUDART_API cudaError_t
cudaGraphExecDestroy (cudaGraphExec_t exec)
{
  if (exec == NULL)
    return cudaSuccess;
  ks_cudart_lock ();
  graph_free (exec->graph);
  g_free (exec);
  ks_cudart_unlock ();
  return cudaSuccess;
}

/* ---- changing a graph's or an executable graph's nodes ------------------------------------ */

static cudaError_t
set_kernel (struct ks_cudart_graph_node        *n,
            const struct cudaKernelNodeParams  *p,
            const char                         *what)
{
  KsCudartKernel *k;
  cudaError_t e;

  if (n == NULL || n->kind != NODE_KERNEL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if ((e = kernel_params_kernel (p, what, &k)) != cudaSuccess)
    return e;
  e = kernel_fill (n, k, p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes, what);
  return e == cudaSuccess ? cudaSuccess : ks_cudart_return (e);
}

CUDART_API cudaError_t
cudaGraphKernelNodeSetParams (cudaGraphNode_t                    node,
                              const struct cudaKernelNodeParams *params)
{
  LOCKED (set_kernel (node, params, "cudaGraphKernelNodeSetParams"));
}

/* The node of @exec that @node, of the graph @exec was instantiated from
 * or last updated from, stands for: the one at its place, of its kind */
static struct ks_cudart_graph_node *
exec_node (cudaGraphExec_t  exec,
           cudaGraphNode_t  node,
           NodeKind         kind,
           const char      *what)
{
  struct ks_cudart_graph_node *m;
  guint i;

  if (exec == NULL || node == NULL)
    return NULL;
  if ((node->graph != exec->origin && node->graph != exec->updated_from)
      || !g_ptr_array_find (node->graph->nodes, node, &i) || i >= exec->graph->nodes->len)
    {
      ks_cudart_note ("%s: the node is not one of the graph the executable graph was made from "
                      "(cudaErrorInvalidValue)", what);
      return NULL;
    }
  m = g_ptr_array_index (exec->graph->nodes, i);
  return m->kind == kind ? m : NULL;
}

CUDART_API cudaError_t
cudaGraphExecKernelNodeSetParams (cudaGraphExec_t                    exec,
                                  cudaGraphNode_t                    node,
                                  const struct cudaKernelNodeParams *params)
{
  const char *what = "cudaGraphExecKernelNodeSetParams";

  LOCKED (set_kernel (exec_node (exec, node, NODE_KERNEL, what), params, what));
}

CUDART_API cudaError_t
cudaGraphExecMemcpyNodeSetParams (cudaGraphExec_t                 exec,
                                  cudaGraphNode_t                 node,
                                  const struct cudaMemcpy3DParms *params)
{
  const char *what = "cudaGraphExecMemcpyNodeSetParams";

  LOCKED (set_other (exec_node (exec, node, NODE_COPY, what), params, what));
}

CUDART_API cudaError_t
cudaGraphExecMemsetNodeSetParams (cudaGraphExec_t                exec,
                                  cudaGraphNode_t                node,
                                  const struct cudaMemsetParams *params)
{
  const char *what = "cudaGraphExecMemsetNodeSetParams";

  LOCKED (set_other (exec_node (exec, node, NODE_SET, what), params, what));
}

CUDART_API cudaError_t
cudaGraphExecHostNodeSetParams (cudaGraphExec_t                   exec,
                                cudaGraphNode_t                   node,
                                const struct cudaHostNodeParams  *params)
{
  const char *what = "cudaGraphExecHostNodeSetParams";

  LOCKED (set_other (exec_node (exec, node, NODE_HOST, what), params, what));
}

/* The nodes of @graph paired with @exec's by their place: the same count
 * and kinds.  The edges are not compared (the runtime keeps none; it runs
 * nodes in the order they were added), so an update whose edges alone
 * differ is applied where CUDA refuses it; either way the next launch
 * runs the new graph's nodes in their order. */
static cudaError_t
exec_update (cudaGraphExec_t                 exec,
             cudaGraph_t                     graph,
             cudaGraphExecUpdateResultInfo  *info)
{
  cudaGraphExecUpdateResultInfo r = { cudaGraphExecUpdateSuccess, NULL, NULL };
  cudaError_t e = cudaSuccess;

  if (exec == NULL || graph == NULL)
    {
      r.result = cudaGraphExecUpdateError;
      e = ks_cudart_return (cudaErrorInvalidValue);
    }
  else if (graph->nodes->len != exec->graph->nodes->len)
    r.result = cudaGraphExecUpdateErrorTopologyChanged;
  else
    for (guint i = 0; i < graph->nodes->len && r.result == cudaGraphExecUpdateSuccess; i++)
      {
        struct ks_cudart_graph_node *n = g_ptr_array_index (graph->nodes, i);
        const struct ks_cudart_graph_node *m = g_ptr_array_index (exec->graph->nodes, i);

        if (n->kind != m->kind)
          {
            r.result = cudaGraphExecUpdateErrorNodeTypeChanged;
            r.errorNode = n;
          }
      }
  if (e == cudaSuccess && r.result != cudaGraphExecUpdateSuccess)
    {
      ks_cudart_note ("cudaGraphExecUpdate: the graph's nodes %s (cudaErrorGraphExecUpdateFailure)",
                      r.result == cudaGraphExecUpdateErrorTopologyChanged
                        ? "are not as many as the executable graph's"
                        : "are not of the executable graph's kinds, in the same order");
      e = ks_cudart_return (cudaErrorGraphExecUpdateFailure);
    }
  else if (e == cudaSuccess)
    {
      graph_free (exec->graph);
      exec->graph = graph_copy (graph);
      exec->updated_from = graph;
    }
  if (info != NULL)
    *info = r;
  return e;
}

CUDART_API cudaError_t
cudaGraphExecUpdate (cudaGraphExec_t                 exec,
                     cudaGraph_t                     graph,
                     cudaGraphExecUpdateResultInfo  *info)
{
  LOCKED (exec_update (exec, graph, info));
}

CUDART_API cudaError_t
cudaGraphUpload (cudaGraphExec_t exec,
                 cudaStream_t    stream)
{
  (void) stream;
  return exec == NULL ? ks_cudart_return (cudaErrorInvalidValue) : cudaSuccess;
}

/* A memset node: @height rows of @width elements of 1, 2 or 4 bytes */
static cudaError_t
run_set (const struct cudaMemsetParams *s)
{
  for (size_t r = 0; r < s->height; r++)
    {
      gboolean device;
      uint8_t *row = ks_cudart_locate ((uint8_t *) s->dst + r * s->pitch,
                                       s->width * s->elementSize, &device, "a memset node");

      if (row == NULL)
        return ks_cudart_return (cudaErrorInvalidValue);
      for (size_t i = 0; i < s->width; i++)
        memcpy (row + i * s->elementSize, &s->value, s->elementSize);
    }
  return cudaSuccess;
}

static cudaError_t
graph_launch (cudaGraphExec_t exec,
              cudaStream_t    stream)
{
  cudaError_t e = cudaSuccess;

  if (exec == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  /* (the lock is recursive) */
  if (ks_cudart_capturing (stream) != NULL)
    return ks_cudart_refuse_in_capture (stream, "cudaGraphLaunch");
  for (guint i = 0; i < exec->graph->nodes->len && e == cudaSuccess; i++)
    {
      const struct ks_cudart_graph_node *n = g_ptr_array_index (exec->graph->nodes, i);

      switch (n->kind)
        {
        case NODE_KERNEL:
          e = ks_cudart_launch (n->kernel, n->grid, n->block, n->argv, n->shared, FALSE);
          break;
        case NODE_COPY:
          e = ks_cudart_copy_3d (&n->copy, "a copy node of cudaGraphLaunch");
          break;
        case NODE_SET:
          e = run_set (&n->set);
          break;
        case NODE_HOST:
          /* (host functions make no CUDA calls, and run outside the lock) */
          ks_cudart_unlock ();
          n->host.fn (n->host.userData);
          ks_cudart_lock ();
          break;
        case NODE_EMPTY:
          break;
        }
    }
  return e;
}

CUDART_API cudaError_t
cudaGraphLaunch (cudaGraphExec_t exec,
                 cudaStream_t    stream)
{
  LOCKED (graph_launch (exec, stream));
}
