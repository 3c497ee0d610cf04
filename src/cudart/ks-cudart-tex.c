/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cudart-tex.c: CUDA arrays, texture objects and surface objects in the
 * stand-in (docs/RECORD.md).
 *
 * An array is an allocation of the stand-in holding its texels row-major
 * (x fastest, then y, then z or the layer), which is how a launch's
 * texture or surface takes one; the cudaArray_t the program holds is that
 * allocation's device address.  A texture or surface object is an index
 * into the stand-in's table of objects, handed out as the simulator's own
 * handle for that index (ks_tex_handle), so that a handle the program
 * passes, or keeps in device memory, names the same object in every
 * launch: each launch describes all the objects ever made, in order, the
 * destroyed ones (or those whose memory was freed) marked so that a kernel
 * that still uses one faults.
 *
 * What the simulator cannot sample as CUDA would (sRGB, anisotropy, views,
 * mipmaps) is refused when the object is made, with a message; never
 * sampled differently. */
#include "ks-cudart-private.h"

#include <string.h>

#include "ks-sim-tex.h"

typedef struct
{
  gboolean destroyed;
  gboolean is_array;            /* addr is an array's storage; else the program's pointer */
  uint64_t addr;
  uint64_t bytes;               /* what it spans from addr */
  KsLaunchTexture desc;         /* all but its name, buffer and offset */
} TexObject;

static GArray *objects[2];      /* TexObject: textures, surfaces */

static GArray *
table (gboolean surface)
{
  if (objects[surface] == NULL)
    objects[surface] = g_array_new (FALSE, TRUE, sizeof (TexObject));
  return objects[surface];
}

/* ---- channel formats ---------------------------------------------------------------------- */

CUDART_API struct cudaChannelFormatDesc
cudaCreateChannelDesc (int                         x,
                       int                         y,
                       int                         z,
                       int                         w,
                       enum cudaChannelFormatKind  f)
{
  struct cudaChannelFormatDesc d = { x, y, z, w, f };

  return d;
}

/* The texel format of @d, as the simulator's textures have them: 1, 2 or
 * 4 channels of one 8-, 16- or 32-bit integer or 16- or 32-bit float */
static gboolean
channel_format (const struct cudaChannelFormatDesc *d,
                KsPtxType                          *format,
                uint32_t                           *channels,
                const char                         *what)
{
  const int bits[4] = { d->x, d->y, d->z, d->w };
  uint32_t n = 0;
  KsPtxType t = KS_PTX_TYPE_NONE;

  for (uint32_t k = 0; k < 4; k++)
    if (bits[k] != 0)
      {
        if (k != n || bits[k] != bits[0])
          n = 5;
        n++;
      }
  switch (d->f)
    {
    case cudaChannelFormatKindSigned:
      t = bits[0] == 8 ? KS_PTX_TYPE_S8 : bits[0] == 16 ? KS_PTX_TYPE_S16
          : bits[0] == 32 ? KS_PTX_TYPE_S32 : KS_PTX_TYPE_NONE;
      break;
    case cudaChannelFormatKindUnsigned:
      t = bits[0] == 8 ? KS_PTX_TYPE_U8 : bits[0] == 16 ? KS_PTX_TYPE_U16
          : bits[0] == 32 ? KS_PTX_TYPE_U32 : KS_PTX_TYPE_NONE;
      break;
    case cudaChannelFormatKindFloat:
      t = bits[0] == 16 ? KS_PTX_TYPE_F16 : bits[0] == 32 ? KS_PTX_TYPE_F32 : KS_PTX_TYPE_NONE;
      break;
    default:
      break;
    }
  if ((n != 1 && n != 2 && n != 4) || t == KS_PTX_TYPE_NONE)
    {
      ks_cudart_note ("%s: the channel format {%d, %d, %d, %d, kind %d} is not one KernelScope's "
                      "simulator samples: 1, 2 or 4 equal channels of 8-, 16- or 32-bit "
                      "integers or 16- or 32-bit floats (cudaErrorInvalidChannelDescriptor)",
                      what, d->x, d->y, d->z, d->w, (int) d->f);
      return FALSE;
    }
  *format = t;
  *channels = n;
  return TRUE;
}

/* ---- arrays ------------------------------------------------------------------------------- */

static KsCudartAlloc *
find_array (const void *handle)
{
  KsCudartAlloc *a = ks_cudart_find_alloc ((uint64_t) (uintptr_t) handle, 0);

  return a != NULL && a->array != NULL && a->addr == (uint64_t) (uintptr_t) handle ? a : NULL;
}

static uint64_t
array_rows (const KsCudartArray *arr)
{
  return (uint64_t) arr->height * arr->depth * arr->layers;
}

/* cudaMalloc3DArray's reading of an extent: height 0 is 1D and depth 0
 * 2D; with cudaArrayLayered depth is the number of layers; a cubemap has
 * 6 square faces (6 x n layers when layered) */
static cudaError_t
make_array (cudaArray_t                        *out,
            const struct cudaChannelFormatDesc *desc,
            struct cudaExtent                   e,
            unsigned int                        flags,
            const char                         *what)
{
  KsCudartArray *arr;
  uint64_t addr = 0, size;
  cudaError_t err;

  if (out == NULL || desc == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  arr = g_new0 (KsCudartArray, 1);
  arr->desc = *desc;
  arr->flags = flags;
  if (!channel_format (desc, &arr->format, &arr->channels, what))
    {
      g_free (arr);
      return ks_cudart_return (cudaErrorInvalidChannelDescriptor);
    }
  arr->texel_size = arr->channels * ks_ptx_type_size (arr->format);
  arr->layered = (flags & cudaArrayLayered) != 0;
  arr->cubemap = (flags & cudaArrayCubemap) != 0;
  arr->width = (uint32_t) MIN (e.width, G_MAXUINT32);
  arr->height = e.height ? (uint32_t) MIN (e.height, G_MAXUINT32) : 1;
  arr->depth = 1;
  arr->layers = 1;
  arr->dims = e.height ? 2 : 1;
  if (arr->layered || arr->cubemap)
    arr->layers = (uint32_t) MIN (MAX (e.depth, 1), G_MAXUINT32);
  else if (e.depth != 0)
    {
      arr->depth = (uint32_t) MIN (e.depth, G_MAXUINT32);
      arr->dims = 3;
    }
  if ((flags & ~(unsigned) (cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap
                            | cudaArrayTextureGather)) != 0
      || e.width == 0 || e.width > KS_LAUNCH_TEX_MAX_WIDTH || e.height > KS_LAUNCH_TEX_MAX_HEIGHT
      || (e.depth != 0 && e.height == 0 && !arr->layered)
      || arr->depth > KS_LAUNCH_TEX_MAX_DEPTH || arr->layers > KS_LAUNCH_TEX_MAX_LAYERS * 6
      || (arr->cubemap && (arr->width != arr->height || arr->dims != 2
                           || (arr->layered ? arr->layers % 6 : arr->layers != 6)))
      || (arr->layered && !arr->cubemap && arr->layers > KS_LAUNCH_TEX_MAX_LAYERS))
    {
      ks_cudart_note ("%s: an array of extent (%zu, %zu, %zu) with flags 0x%x is not one CUDA "
                      "makes (or not one KernelScope's simulator holds: at most %u x %u x %u, "
                      "%u layers; a cubemap's faces are square, 6 of them a cubemap) "
                      "(cudaErrorInvalidValue)", what, e.width, e.height, e.depth, flags,
                      KS_LAUNCH_TEX_MAX_WIDTH, KS_LAUNCH_TEX_MAX_HEIGHT, KS_LAUNCH_TEX_MAX_DEPTH,
                      KS_LAUNCH_TEX_MAX_LAYERS);
      g_free (arr);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  size = array_rows (arr) * arr->width * arr->texel_size;
  err = ks_cudart_new_alloc (&addr, size, arr, what);
  if (err != cudaSuccess)
    return ks_cudart_return (err);
  *out = (cudaArray_t) (uintptr_t) addr;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMallocArray (cudaArray_t                        *array,
                 const struct cudaChannelFormatDesc *desc,
                 size_t                              width,
                 size_t                              height,
                 unsigned int                        flags)
{
  struct cudaExtent e = { width, height, 0 };

  if (flags & (cudaArrayLayered | cudaArrayCubemap))
    {
      ks_cudart_note ("cudaMallocArray: layered and cubemap arrays are made with "
                      "cudaMalloc3DArray (cudaErrorInvalidValue)");
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  LOCKED (make_array (array, desc, e, flags, "cudaMallocArray"));
}

CUDART_API cudaError_t
cudaMalloc3DArray (cudaArray_t                        *array,
                   const struct cudaChannelFormatDesc *desc,
                   struct cudaExtent                   extent,
                   unsigned int                        flags)
{
  LOCKED (make_array (array, desc, extent, flags, "cudaMalloc3DArray"));
}

static cudaError_t
free_array (cudaArray_t array)
{
  KsCudartAlloc *a;

  if (array == NULL)
    return cudaSuccess;
  a = find_array (array);
  if (a == NULL)
    {
      ks_cudart_note ("cudaFreeArray: %p is not an array the program holds "
                      "(cudaErrorInvalidValue)", (void *) array);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  ks_cudart_free_at (a->addr);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaFreeArray (cudaArray_t array)
{
  LOCKED (free_array (array));
}

static cudaError_t
array_info (struct cudaChannelFormatDesc *desc,
            struct cudaExtent            *extent,
            unsigned int                 *flags,
            cudaArray_const_t             array)
{
  const KsCudartAlloc *a = find_array (array);
  const KsCudartArray *arr;

  if (a == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  arr = a->array;
  if (desc != NULL)
    *desc = arr->desc;
  if (extent != NULL)
    {
      extent->width = arr->width;
      extent->height = arr->dims >= 2 ? arr->height : 0;
      extent->depth = arr->dims == 3 ? arr->depth
                      : arr->layered || arr->cubemap ? arr->layers : 0;
    }
  if (flags != NULL)
    *flags = arr->flags;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaArrayGetInfo (struct cudaChannelFormatDesc *desc,
                  struct cudaExtent            *extent,
                  unsigned int                 *flags,
                  cudaArray_t                   array)
{
  LOCKED (array_info (desc, extent, flags, array));
}

CUDART_API cudaError_t
cudaGetChannelDesc (struct cudaChannelFormatDesc *desc,
                    cudaArray_const_t             array)
{
  LOCKED (array_info (desc, NULL, NULL, array));
}

/* ---- copies to and from arrays ------------------------------------------------------------ */

/* One side of a copy: rows of bytes @pitch apart, slices @slice apart,
 * @data its first byte */
typedef struct
{
  uint8_t *data;
  size_t pitch, slice;
  gboolean device;
} Side;

/* The array's side of a copy of a box of @w bytes x @h rows x @d slices
 * from byte @x of row @y of slice @z; FALSE (with a note) when it is not
 * an array or the box runs out of it */
static gboolean
array_side (const void *handle,
            size_t      x,
            size_t      y,
            size_t      z,
            size_t      w,
            size_t      h,
            size_t      d,
            Side       *s,
            const char *what)
{
  KsCudartAlloc *a = find_array (handle);
  const KsCudartArray *arr;
  size_t row, slices;

  if (a == NULL)
    {
      ks_cudart_note ("%s: %p is not an array the program holds (cudaErrorInvalidValue)",
                      what, handle);
      return FALSE;
    }
  arr = a->array;
  row = (size_t) arr->width * arr->texel_size;
  slices = arr->dims == 3 ? arr->depth : arr->layers;
  if (x > row || w > row - x || y > arr->height || h > arr->height - y || z > slices
      || d > slices - z)
    {
      ks_cudart_note ("%s: %zu bytes x %zu rows x %zu slices at byte %zu, row %zu, slice %zu run "
                      "out of the array (rows of %zu bytes, %u rows, %zu slices) "
                      "(cudaErrorInvalidValue)", what, w, h, d, x, y, z, row, arr->height,
                      slices);
      return FALSE;
    }
  s->pitch = row;
  s->slice = row * arr->height;
  s->data = a->data + z * s->slice + y * s->pitch + x;
  s->device = TRUE;
  return TRUE;
}

/* Memory the program points at, as one side of such a copy */
static gboolean
pointer_side (const void *ptr,
              size_t      pitch,
              size_t      slice,
              size_t      w,
              size_t      h,
              size_t      d,
              Side       *s,
              const char *what)
{
  size_t span;

  if (pitch < w && h > 1)
    {
      ks_cudart_note ("%s: a pitch of %zu bytes for rows of %zu (cudaErrorInvalidPitchValue)",
                      what, pitch, w);
      return FALSE;
    }
  span = (d - 1) * slice + (h - 1) * pitch + w;
  s->data = ks_cudart_locate (ptr, span, &s->device, what);
  s->pitch = pitch;
  s->slice = slice;
  return s->data != NULL;
}

static cudaError_t
copy_box (const Side *dst,
          const Side *src,
          size_t      w,
          size_t      h,
          size_t      d,
          int         kind,
          const char *what)
{
  cudaError_t e = ks_cudart_kind_check (kind, dst->device, src->device, what);

  if (e != cudaSuccess)
    return ks_cudart_return (e);
  for (size_t k = 0; k < d; k++)
    for (size_t r = 0; r < h; r++)
      memmove (dst->data + k * dst->slice + r * dst->pitch,
               src->data + k * src->slice + r * src->pitch, w);
  return cudaSuccess;
}

static cudaError_t
copy_2d_array (void       *dst_ptr,
               size_t      dpitch,
               const void *dst_array,
               size_t      dx,
               size_t      dy,
               const void *src_ptr,
               size_t      spitch,
               const void *src_array,
               size_t      sx,
               size_t      sy,
               size_t      width,
               size_t      height,
               int         kind,
               const char *what)
{
  Side dst, src;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (!(dst_array != NULL ? array_side (dst_array, dx, dy, 0, width, height, 1, &dst, what)
                          : pointer_side (dst_ptr, dpitch, 0, width, height, 1, &dst, what))
      || !(src_array != NULL ? array_side (src_array, sx, sy, 0, width, height, 1, &src, what)
                             : pointer_side (src_ptr, spitch, 0, width, height, 1, &src, what)))
    return ks_cudart_return (cudaErrorInvalidValue);
  return copy_box (&dst, &src, width, height, 1, kind, what);
}

CUDART_API cudaError_t
cudaMemcpy2DToArray (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                     size_t spitch, size_t width, size_t height, int kind)
{
  LOCKED (copy_2d_array (NULL, 0, dst, wOffset, hOffset, src, spitch, NULL, 0, 0, width, height,
                         kind, "cudaMemcpy2DToArray"));
}

CUDART_API cudaError_t
cudaMemcpy2DToArrayAsync (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                          size_t spitch, size_t width, size_t height, int kind,
                          cudaStream_t stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpy2DToArrayAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (copy_2d_array (NULL, 0, dst, wOffset, hOffset, src, spitch, NULL, 0, 0, width, height,
                         kind, "cudaMemcpy2DToArrayAsync"));
}

CUDART_API cudaError_t
cudaMemcpy2DFromArray (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                       size_t hOffset, size_t width, size_t height, int kind)
{
  LOCKED (copy_2d_array (dst, dpitch, NULL, 0, 0, NULL, 0, src, wOffset, hOffset, width, height,
                         kind, "cudaMemcpy2DFromArray"));
}

CUDART_API cudaError_t
cudaMemcpy2DFromArrayAsync (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                            size_t hOffset, size_t width, size_t height, int kind,
                            cudaStream_t stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpy2DFromArrayAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (copy_2d_array (dst, dpitch, NULL, 0, 0, NULL, 0, src, wOffset, hOffset, width, height,
                         kind, "cudaMemcpy2DFromArrayAsync"));
}

/* cudaMemcpyToArray and cudaMemcpyFromArray (deprecated, still used): @count
 * bytes from byte @x of row @y on, row after row */
static cudaError_t
copy_linear_array (void       *ptr,
                   const void *array,
                   size_t      x,
                   size_t      y,
                   size_t      count,
                   int         kind,
                   gboolean    to_array,
                   const char *what)
{
  KsCudartAlloc *a = find_array (array);
  gboolean device;
  cudaError_t e;
  uint8_t *p;
  size_t at;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (a == NULL)
    {
      ks_cudart_note ("%s: %p is not an array the program holds (cudaErrorInvalidValue)",
                      what, array);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  at = y * (size_t) a->array->width * a->array->texel_size + x;
  if (y > a->size || at > a->size || count > a->size - at)
    {
      ks_cudart_note ("%s: %zu bytes from byte %zu of row %zu run out of the array's %"
                      G_GUINT64_FORMAT " (cudaErrorInvalidValue)", what, count, x, y, a->size);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  if (count == 0)
    return cudaSuccess;
  p = ks_cudart_locate (ptr, count, &device, what);
  if (p == NULL)
    return ks_cudart_return (cudaErrorInvalidValue);
  if ((e = ks_cudart_kind_check (kind, to_array || device, !to_array || device, what))
      != cudaSuccess)
    return ks_cudart_return (e);
  if (to_array)
    memmove (a->data + at, p, count);
  else
    memmove (p, a->data + at, count);
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaMemcpyToArray (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                   size_t count, int kind)
{
  LOCKED (copy_linear_array ((void *) src, dst, wOffset, hOffset, count, kind, TRUE,
                             "cudaMemcpyToArray"));
}

CUDART_API cudaError_t
cudaMemcpyToArrayAsync (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                        size_t count, int kind, cudaStream_t stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpyToArrayAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (copy_linear_array ((void *) src, dst, wOffset, hOffset, count, kind, TRUE,
                             "cudaMemcpyToArrayAsync"));
}

CUDART_API cudaError_t
cudaMemcpyFromArray (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                     size_t count, int kind)
{
  LOCKED (copy_linear_array (dst, src, wOffset, hOffset, count, kind, FALSE,
                             "cudaMemcpyFromArray"));
}

CUDART_API cudaError_t
cudaMemcpyFromArrayAsync (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                          size_t count, int kind, cudaStream_t stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpyFromArrayAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (copy_linear_array (dst, src, wOffset, hOffset, count, kind, FALSE,
                             "cudaMemcpyFromArrayAsync"));
}

/* cudaMemcpy3D: the extent and an array's position are in its elements
 * when either side is an array, else in bytes */
cudaError_t
ks_cudart_copy_3d (const struct cudaMemcpy3DParms *p,
                   const char                     *what)
{
  const KsCudartAlloc *sa, *da;
  size_t elem = 1, w, h, d;
  Side dst, src;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (p == NULL || (p->srcArray != NULL) == (p->srcPtr.ptr != NULL)
      || (p->dstArray != NULL) == (p->dstPtr.ptr != NULL))
    {
      ks_cudart_note ("%s: give each side an array or a pointer, not both or neither "
                      "(cudaErrorInvalidValue)", what);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  sa = p->srcArray != NULL ? find_array (p->srcArray) : NULL;
  da = p->dstArray != NULL ? find_array (p->dstArray) : NULL;
  if (sa != NULL && da != NULL && sa->array->texel_size != da->array->texel_size)
    {
      ks_cudart_note ("%s: the arrays' elements differ in size (cudaErrorInvalidValue)", what);
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  if (sa != NULL)
    elem = sa->array->texel_size;
  else if (da != NULL)
    elem = da->array->texel_size;
  w = p->extent.width * elem;
  h = p->extent.height;
  d = p->extent.depth;
  if (w == 0 || h == 0 || d == 0)
    return cudaSuccess;
  if (!(p->dstArray != NULL
        ? array_side (p->dstArray, p->dstPos.x * elem, p->dstPos.y, p->dstPos.z, w, h, d, &dst,
                      what)
        : pointer_side ((uint8_t *) p->dstPtr.ptr + p->dstPos.z * p->dstPtr.pitch
                        * p->dstPtr.ysize + p->dstPos.y * p->dstPtr.pitch + p->dstPos.x,
                        p->dstPtr.pitch, p->dstPtr.pitch * p->dstPtr.ysize, w, h, d, &dst, what))
      || !(p->srcArray != NULL
           ? array_side (p->srcArray, p->srcPos.x * elem, p->srcPos.y, p->srcPos.z, w, h, d,
                         &src, what)
           : pointer_side ((const uint8_t *) p->srcPtr.ptr + p->srcPos.z * p->srcPtr.pitch
                           * p->srcPtr.ysize + p->srcPos.y * p->srcPtr.pitch + p->srcPos.x,
                           p->srcPtr.pitch, p->srcPtr.pitch * p->srcPtr.ysize, w, h, d, &src,
                           what)))
    return ks_cudart_return (cudaErrorInvalidValue);
  return copy_box (&dst, &src, w, h, d, p->kind, what);
}

CUDART_API cudaError_t
cudaMemcpy3D (const struct cudaMemcpy3DParms *p)
{
  LOCKED (ks_cudart_copy_3d (p, "cudaMemcpy3D"));
}

CUDART_API cudaError_t
cudaMemcpy3DAsync (const struct cudaMemcpy3DParms *p,
                   cudaStream_t                    stream)
{
  if (ks_cudart_refuse_in_capture (stream, "cudaMemcpy3DAsync") != cudaSuccess)
    return cudaErrorStreamCaptureUnsupported;
  LOCKED (ks_cudart_copy_3d (p, "cudaMemcpy3DAsync"));
}

/* ---- texture and surface objects ---------------------------------------------------------- */

/* The object's memory from a resource description: an array's, or the
 * program's linear or pitched device memory */
static gboolean
resource (const struct cudaResourceDesc *r,
          gboolean                       surface,
          TexObject                     *o,
          const char                    *what)
{
  const struct cudaDeviceProp *props = ks_cudart_props ();
  KsLaunchTexture *t = &o->desc;

  if (r->flags != 0)
    {
      ks_cudart_note ("%s: cudaResourceDesc.flags must be 0 (cudaErrorInvalidValue)", what);
      return FALSE;
    }
  if (r->resType == cudaResourceTypeArray)
    {
      const KsCudartAlloc *a = find_array (r->res.array.array);
      const KsCudartArray *arr;

      if (a == NULL)
        {
          ks_cudart_note ("%s: %p is not an array the program holds (cudaErrorInvalidValue)",
                          what, (void *) r->res.array.array);
          return FALSE;
        }
      arr = a->array;
      if (surface && !(arr->flags & cudaArraySurfaceLoadStore))
        {
          ks_cudart_note ("%s: a surface needs an array made with cudaArraySurfaceLoadStore "
                          "(cudaErrorInvalidValue)", what);
          return FALSE;
        }
      o->is_array = TRUE;
      o->addr = a->addr;
      o->bytes = a->size;
      t->format = arr->format;
      t->channels = arr->channels;
      t->dims = arr->dims;
      t->width = arr->width;
      t->height = arr->height;
      t->depth = arr->depth;
      t->layers = arr->layers;
      t->layered = arr->layered;
      t->cubemap = arr->cubemap;
    }
  else if (!surface && (r->resType == cudaResourceTypeLinear
                        || r->resType == cudaResourceTypePitch2D))
    {
      gboolean linear = r->resType == cudaResourceTypeLinear;
      const void *ptr = linear ? r->res.linear.devPtr : r->res.pitch2D.devPtr;
      uint64_t addr = (uint64_t) (uintptr_t) ptr;
      const KsCudartAlloc *a;

      if (!channel_format (linear ? &r->res.linear.desc : &r->res.pitch2D.desc, &t->format,
                           &t->channels, what))
        return FALSE;
      t->texel_size = t->channels * ks_ptx_type_size (t->format);
      o->addr = addr;
      t->layers = t->depth = t->height = 1;
      if (linear)
        {
          uint64_t texels = r->res.linear.sizeInBytes / t->texel_size;

          /* (the 1D linear-memory limit of compute capability 8.x and later) */
          if (texels == 0 || texels > KS_LAUNCH_TEX_MAX_LINEAR)
            {
              ks_cudart_note ("%s: %zu bytes of linear memory make %" G_GUINT64_FORMAT
                              " texels: 1 to 2^28 (cudaErrorInvalidValue)", what,
                              r->res.linear.sizeInBytes, texels);
              return FALSE;
            }
          t->dims = 1;
          t->width = (uint32_t) texels;
          o->bytes = texels * t->texel_size;
        }
      else
        {
          if (r->res.pitch2D.width == 0 || r->res.pitch2D.width > KS_LAUNCH_TEX_MAX_WIDTH
              || r->res.pitch2D.height == 0 || r->res.pitch2D.height > KS_LAUNCH_TEX_MAX_HEIGHT
              || r->res.pitch2D.pitchInBytes % props->texturePitchAlignment != 0
              || r->res.pitch2D.pitchInBytes < r->res.pitch2D.width * t->texel_size
              || r->res.pitch2D.pitchInBytes > G_MAXUINT32)
            {
              ks_cudart_note ("%s: %zu x %zu texels of %u bytes with a pitch of %zu bytes: the "
                              "pitch must hold a row and be a multiple of %zu "
                              "(cudaErrorInvalidValue)", what, r->res.pitch2D.width,
                              r->res.pitch2D.height, t->texel_size,
                              r->res.pitch2D.pitchInBytes, props->texturePitchAlignment);
              return FALSE;
            }
          t->dims = 2;
          t->width = (uint32_t) r->res.pitch2D.width;
          t->height = (uint32_t) r->res.pitch2D.height;
          t->pitch = (uint32_t) r->res.pitch2D.pitchInBytes;
          o->bytes = (t->height - 1) * (uint64_t) t->pitch + (uint64_t) t->width * t->texel_size;
        }
      a = ks_cudart_find_alloc (addr, o->bytes);
      if (addr % props->textureAlignment != 0 || a == NULL || a->host_visible)
        {
          ks_cudart_note ("%s: %p is not %" G_GUINT64_FORMAT " bytes of device memory from "
                          "cudaMalloc aligned to %zu bytes (cudaErrorInvalidValue)", what, ptr,
                          o->bytes, props->textureAlignment);
          return FALSE;
        }
    }
  else
    {
      ks_cudart_note ("%s: a %s resource is not supported (only arrays%s)", what,
                      r->resType == cudaResourceTypeMipmappedArray ? "mipmapped array"
                      : "resource of this type", surface ? "" : ", linear and pitched memory");
      return FALSE;
    }
  t->texel_size = t->channels * ks_ptx_type_size (t->format);
  return TRUE;
}

/* A texture's sampling from a cudaTextureDesc.  CUDA turns wrap and
 * mirror into clamp for unnormalized coordinates; linear memory is read
 * with tex1Dfetch, which filters and wraps nothing and reads zero out of
 * range */
static cudaError_t
sampler (const struct cudaTextureDesc  *d,
         const struct cudaResourceDesc *r,
         KsLaunchTexture               *t,
         const char                    *what)
{
  static const KsLaunchTexAddress modes[] = {
    [cudaAddressModeWrap] = KS_LAUNCH_TEX_WRAP, [cudaAddressModeClamp] = KS_LAUNCH_TEX_CLAMP,
    [cudaAddressModeMirror] = KS_LAUNCH_TEX_MIRROR, [cudaAddressModeBorder] = KS_LAUNCH_TEX_BORDER,
  };
  gboolean small_int = t->format == KS_PTX_TYPE_U8 || t->format == KS_PTX_TYPE_S8
                       || t->format == KS_PTX_TYPE_U16 || t->format == KS_PTX_TYPE_S16;

  if (d->sRGB || d->maxAnisotropy > 1)
    {
      ks_cudart_note ("%s: %s, which KernelScope's simulator does not sample "
                      "(cudaErrorNotSupported)", what,
                      d->sRGB ? "sRGB conversion" : "anisotropic filtering");
      return cudaErrorNotSupported;
    }
  t->normalized_float = d->readMode == 1;
  if (t->normalized_float && !small_int)
    {
      ks_cudart_note ("%s: cudaReadModeNormalizedFloat reads 8- and 16-bit integer formats "
                      "only (cudaErrorInvalidValue)", what);
      return cudaErrorInvalidValue;
    }
  if (r->resType == cudaResourceTypeLinear)
    {
      t->filter = KS_LAUNCH_TEX_POINT;
      t->normalized_coords = FALSE;
      for (int k = 0; k < 3; k++)
        t->address[k] = KS_LAUNCH_TEX_BORDER;
      memset (t->border, 0, sizeof t->border);
      return cudaSuccess;
    }
  t->filter = d->filterMode == 1 ? KS_LAUNCH_TEX_LINEAR : KS_LAUNCH_TEX_POINT;
  if (t->filter == KS_LAUNCH_TEX_LINEAR && !ks_tex_returns_float (t))
    {
      ks_cudart_note ("%s: linear filtering of values read as integers (filter it as "
                      "cudaReadModeNormalizedFloat or a float format) (cudaErrorInvalidValue)",
                      what);
      return cudaErrorInvalidValue;
    }
  t->normalized_coords = d->normalizedCoords != 0;
  for (int k = 0; k < 3; k++)
    {
      int m = d->addressMode[k];

      if (m < 0 || m > cudaAddressModeBorder)
        {
          ks_cudart_note ("%s: address mode %d (cudaErrorInvalidValue)", what, m);
          return cudaErrorInvalidValue;
        }
      t->address[k] = modes[m];
      if (!t->normalized_coords
          && (t->address[k] == KS_LAUNCH_TEX_WRAP || t->address[k] == KS_LAUNCH_TEX_MIRROR))
        t->address[k] = KS_LAUNCH_TEX_CLAMP;
    }
  for (int k = 0; k < 4; k++)
    {
      t->border[k] = d->borderColor[k];
      if (!ks_tex_returns_float (t) && t->border[k] != (double) (int64_t) t->border[k])
        {
          ks_cudart_note ("%s: border color %g for values read as integers "
                          "(cudaErrorNotSupported)", what, t->border[k]);
          return cudaErrorNotSupported;
        }
    }
  return cudaSuccess;
}

static cudaError_t
create_object (unsigned long long            *out,
               const struct cudaResourceDesc *r,
               const struct cudaTextureDesc  *d,
               const void                    *view,
               gboolean                       surface)
{
  const char *what = surface ? "cudaCreateSurfaceObject" : "cudaCreateTextureObject";
  GArray *objs = table (surface);
  TexObject o = { 0 };
  cudaError_t err;

  if (ks_cudart_sticky () != cudaSuccess)
    return ks_cudart_sticky ();
  if (out == NULL || r == NULL || (!surface && d == NULL))
    return ks_cudart_return (cudaErrorInvalidValue);
  if (view != NULL)
    {
      ks_cudart_note ("%s: resource views are not supported (cudaErrorNotSupported)", what);
      return ks_cudart_return (cudaErrorNotSupported);
    }
  if (!resource (r, surface, &o, what))
    return ks_cudart_return (cudaErrorInvalidValue);
  if (!surface && (err = sampler (d, r, &o.desc, what)) != cudaSuccess)
    return ks_cudart_return (err);
  if (objs->len >= KS_LAUNCH_MAX_TEXTURES)
    {
      ks_cudart_note ("%s: KernelScope's simulator holds %u %s objects in all, destroyed ones "
                      "included (cudaErrorMemoryAllocation)", what, KS_LAUNCH_MAX_TEXTURES,
                      surface ? "surface" : "texture");
      return ks_cudart_return (cudaErrorMemoryAllocation);
    }
  g_array_append_val (objs, o);
  *out = ks_tex_handle (surface ? KS_TEX_SURFACE : KS_TEX_TEXTURE, objs->len - 1);
  return cudaSuccess;
}

static cudaError_t
destroy_object (unsigned long long handle,
                gboolean           surface)
{
  GArray *objs = table (surface);
  KsTexKind kind;
  uint32_t index;

  if (handle == 0)
    return cudaSuccess;
  if (!ks_tex_handle_decode (handle, &kind, &index) || (kind == KS_TEX_SURFACE) != surface
      || index >= objs->len || g_array_index (objs, TexObject, index).destroyed)
    {
      ks_cudart_note ("%s: 0x%llx is not a %s object the program holds (cudaErrorInvalidValue)",
                      surface ? "cudaDestroySurfaceObject" : "cudaDestroyTextureObject", handle,
                      surface ? "surface" : "texture");
      return ks_cudart_return (cudaErrorInvalidValue);
    }
  g_array_index (objs, TexObject, index).destroyed = TRUE;
  return cudaSuccess;
}

CUDART_API cudaError_t
cudaCreateTextureObject (cudaTextureObject_t           *tex,
                         const struct cudaResourceDesc *res,
                         const struct cudaTextureDesc  *desc,
                         const void                    *view)
{
  LOCKED (create_object (tex, res, desc, view, FALSE));
}

CUDART_API cudaError_t
cudaDestroyTextureObject (cudaTextureObject_t tex)
{
  LOCKED (destroy_object (tex, FALSE));
}

CUDART_API cudaError_t
cudaCreateSurfaceObject (cudaSurfaceObject_t           *surf,
                         const struct cudaResourceDesc *res)
{
  LOCKED (create_object (surf, res, NULL, NULL, TRUE));
}

CUDART_API cudaError_t
cudaDestroySurfaceObject (cudaSurfaceObject_t surf)
{
  LOCKED (destroy_object (surf, TRUE));
}

/* ---- launches ----------------------------------------------------------------------------- */

void
ks_cudart_tex_describe (KsLaunch *launch)
{
  GArray *allocs = ks_cudart_allocs ();

  for (int s = 0; s < 2; s++)
    {
      GArray *objs = table (s);
      KsLaunchTexture *out = g_new0 (KsLaunchTexture, MAX (objs->len, 1));

      for (guint i = 0; i < objs->len; i++)
        {
          const TexObject *o = &g_array_index (objs, TexObject, i);
          const KsCudartAlloc *a = o->destroyed ? NULL : ks_cudart_find_alloc (o->addr, o->bytes);

          /* (an array freed, or the memory under a linear texture) */
          if (a != NULL && (o->is_array ? a->array == NULL || a->addr != o->addr
                                        : a->array != NULL || a->host_visible))
            a = NULL;
          if (a == NULL)
            {
              out[i].destroyed = TRUE;
              out[i].buffer = G_MAXUINT32;
            }
          else
            {
              out[i] = o->desc;
              out[i].buffer = (uint32_t) (a - &g_array_index (allocs, KsCudartAlloc, 0));
              out[i].offset = o->addr - a->addr;
            }
          out[i].name = g_strdup_printf (s ? "surf%u" : "tex%u", i);
        }
      if (s)
        {
          launch->surfaces = out;
          launch->n_surfaces = objs->len;
        }
      else
        {
          launch->textures = out;
          launch->n_textures = objs->len;
        }
    }
}

int
ks_cudart_tex_param (uint64_t  bits,
                     uint32_t *index)
{
  KsTexKind kind;

  if (!ks_tex_handle_decode (bits, &kind, index)
      || *index >= table (kind == KS_TEX_SURFACE)->len)
    return KS_LAUNCH_HANDLE_NONE;
  return kind == KS_TEX_SURFACE ? KS_LAUNCH_HANDLE_SURFACE : KS_LAUNCH_HANDLE_TEXTURE;
}
