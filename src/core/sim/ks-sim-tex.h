/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sim-tex.h: textures and surfaces.
 *
 * What the texture unit does, as pure functions of a launch's description
 * of an array (KsLaunchTexture) and an instruction's coordinates: the
 * handles a kernel holds, coordinate normalization, the address modes, point
 * and linear filtering with the 9-bit weights of the CUDA Programming
 * Guide's "Texture Fetching" appendix, read modes, tld4's footprint, cubemap
 * faces, and surface addressing with its boundary modes.  The executor
 * (ks-sim-exec.c) reads the operands and writes the results; docs/SIMULATOR.md
 * says what is exact and what is a choice where CUDA leaves room.
 *
 * Arrays are stored in their launch buffer row-major, x fastest, then y, z
 * and layer: texel (x, y, z, layer) is at byte
 * (((layer * depth + z) * height + y) * width + x) * texel_size.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

#include "ks-launch.h"
#include "ks-ptx.h"

G_BEGIN_DECLS

/* ---- handles ----------------------------------------------------------------------------- */

typedef enum
{
  KS_TEX_TEXTURE = 1,
  KS_TEX_SURFACE = 2,
} KsTexKind;

/* The 64-bit handle a kernel receives for texture or surface @index: a tag
 * in the top 16 bits, the kind, a check word and the index, so that any
 * other value (a pointer, a handle plus a small offset, an index) is
 * recognised as forged. */
uint64_t       ks_tex_handle             (KsTexKind        kind,
                                          uint32_t         index);
/* FALSE when @handle was not made by ks_tex_handle(). */
gboolean       ks_tex_handle_decode      (uint64_t         handle,
                                          KsTexKind       *kind,
                                          uint32_t        *index);

/* ---- instruction forms ------------------------------------------------------------------- */

typedef enum
{
  KS_TEX_GEOM_NONE = 0,
  KS_TEX_GEOM_1D,
  KS_TEX_GEOM_2D,
  KS_TEX_GEOM_3D,
  KS_TEX_GEOM_A1D,
  KS_TEX_GEOM_A2D,
  KS_TEX_GEOM_CUBE,
  KS_TEX_GEOM_ACUBE,
  KS_TEX_GEOM_2DMS,
  KS_TEX_GEOM_A2DMS,
} KsTexGeom;

typedef enum
{
  KS_SURF_TRAP = 0,             /* out of range faults (the default) */
  KS_SURF_CLAMP,                /* out of range reads and writes the nearest element */
  KS_SURF_ZERO,                 /* out of range reads zero, writes are dropped */
} KsSurfClamp;

typedef enum
{
  KS_TEX_QUERY_NONE = 0,
  KS_TEX_QUERY_WIDTH,
  KS_TEX_QUERY_HEIGHT,
  KS_TEX_QUERY_DEPTH,
  KS_TEX_QUERY_CHANNEL_DATA_TYPE,
  KS_TEX_QUERY_CHANNEL_ORDER,
  KS_TEX_QUERY_NORMALIZED_COORDS,
  KS_TEX_QUERY_ARRAY_SIZE,
  KS_TEX_QUERY_NUM_MIPMAP_LEVELS,
  KS_TEX_QUERY_NUM_SAMPLES,
  KS_TEX_QUERY_FORCE_UNNORMALIZED_COORDS,
  KS_TEX_QUERY_FILTER_MODE,
  KS_TEX_QUERY_ADDR_MODE_0,
  KS_TEX_QUERY_ADDR_MODE_1,
  KS_TEX_QUERY_ADDR_MODE_2,
  KS_TEX_QUERY_MEMORY_LAYOUT,
} KsTexQuery;

typedef enum
{
  KS_TEX_LOD_NONE = 0,
  KS_TEX_LOD_BASE,              /* tex.base */
  KS_TEX_LOD_LEVEL,             /* tex.level, txq.level: a level-of-detail operand */
  KS_TEX_LOD_GRAD,              /* tex.grad: two gradient operands */
} KsTexLod;

/* The modifier words of a texture or surface instruction, decoded once */
typedef struct
{
  uint8_t geom;                 /* KsTexGeom */
  uint8_t clamp;                /* KsSurfClamp */
  uint8_t query;                /* KsTexQuery (txq, suq) */
  uint8_t comp;                 /* tld4: the component, 0-3 (r, g, b, a) */
  uint8_t lod;                  /* KsTexLod */
  uint8_t formatted;            /* sust.p, sured.p */
  uint16_t bad_word;            /* 1 + the index of a word not understood, 0 = none */
} KsTexForm;

void           ks_tex_form_decode        (const KsPtxModule *module,
                                          const KsPtxInsn   *insn,
                                          KsTexForm         *form);
const char    *ks_tex_geom_name          (KsTexGeom         geom);

/* ---- fetching ---------------------------------------------------------------------------- */

/* The bytes from one row of @d to the next, and the bytes its texels
 * span from its first (the "offset" into its buffer not counted) */
uint64_t       ks_tex_row_pitch          (const KsLaunchTexture *d);
uint64_t       ks_tex_array_bytes        (const KsLaunchTexture *d);

/* An array as an instruction sees it: @data is its first texel (its
 * buffer's bytes plus its "offset") */
typedef struct
{
  const KsLaunchTexture *desc;
  const uint8_t *data;          /* its texels, in its buffer's simulated memory */
} KsTexObject;

/* The coordinate operand of tex and tld4 */
typedef struct
{
  KsTexGeom geom;
  gboolean int_coords;          /* .s32 coordinates: texel indices */
  uint32_t c[3];                /* x, y, z (s, t, r for cubemaps) as bits: f32 or s32 */
  uint32_t layer;               /* the array index of a1d, a2d and acube */
  int32_t offset[3];            /* the texel offsets of operand e, or zeros */
} KsTexCoords;

#define KS_TEX_MAX_TEXELS 8

/* What a fetch returns: four 32-bit results as the texture unit produces
 * them (f32 bits for float formats and normalized reads, 32-bit integers
 * for integer formats read as elements), and the texels it read. */
typedef struct
{
  uint32_t v[4];
  uint32_t n_texels;
  uint64_t texels[KS_TEX_MAX_TEXELS];   /* byte offsets into the array; border texels left out */
  /* The footprint, for the memory view's texture diagram: every texel the
   * fetch read (x fastest; tld4 in its own order), border ones included */
  uint32_t n_corners;           /* 1 (point, integer coordinates), 2, 4 or 8 (linear), 4 (tld4) */
  uint32_t dims;                /* the coordinates the footprint spans: 1 to 3 */
  uint32_t border;              /* bit k: corner k lies outside the array (the border colour) */
  uint32_t layer;               /* the layer read (cubemaps: cube * 6 + face) */
  gboolean linear;              /* weights apply */
  double u[3];                  /* the coordinates in texels, after normalization and offsets */
  int64_t base[3];              /* the footprint's first texel, before the address modes */
  uint32_t alpha[3];            /* linear: the upper texel's 9-bit weight along each
                                 * coordinate, in 256ths (0 to 256) */
  int64_t corner[KS_TEX_MAX_TEXELS][3]; /* each texel after the address modes (border: before) */
} KsTexFetch;

/* Whether the array's results are floats (else 32-bit integers) */
gboolean       ks_tex_returns_float      (const KsLaunchTexture *desc);

/* tex: FALSE (and nothing fetched) for a cubemap geometry on an array that
 * is not a cubemap, and for multisample geometries. */
gboolean       ks_tex_sample             (const KsTexObject *tex,
                                          const KsTexCoords *coords,
                                          KsTexFetch        *out);
/* tld4: component @comp of the four texels of the bilinear footprint,
 * counter-clockwise from the lower left: (i0, j1), (i1, j1), (i1, j0),
 * (i0, j0).  FALSE as for ks_tex_sample and for 1D and 3D geometries. */
gboolean       ks_tex_gather             (const KsTexObject *tex,
                                          const KsTexCoords *coords,
                                          uint32_t           comp,
                                          KsTexFetch        *out);

/* txq and suq */
uint32_t       ks_tex_query              (const KsLaunchTexture *desc,
                                          KsTexQuery             query);

/* ---- surfaces ---------------------------------------------------------------------------- */

typedef enum
{
  KS_SURF_OK = 0,
  KS_SURF_OUT_OF_RANGE,         /* .trap and .zero: outside the array */
  KS_SURF_MISALIGNED,           /* x is not a multiple of the access size */
} KsSurfResult;

/* The byte offset in the array of an suld/sust/sured access of @size bytes
 * (the array's texel size) at x (bytes), y and z (elements) and @layer,
 * for geometry @geom; coordinates the geometry does not have are 0.
 * With KS_SURF_CLAMP, coordinates out of range are clamped to the edge. */
KsSurfResult   ks_surf_address           (const KsLaunchTexture *desc,
                                          KsTexGeom              geom,
                                          const int32_t          xyz[3],
                                          uint32_t               layer,
                                          uint32_t               size,
                                          KsSurfClamp            clamp,
                                          uint64_t              *offset);

G_END_DECLS
