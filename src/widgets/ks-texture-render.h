/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-texture-render.h: one sampled texture fetch (tex, tld4), drawn with
 * Cairo.
 *
 * The texture as a grid of texels (the whole of a small one; around the
 * footprints, with a margin, in a large one), each with its value; every
 * texel a lane read carries a bar in that lane's colour (split among the
 * lanes that read it); each lane's sample point is a dot in its colour; the
 * focus lane's footprint is outlined and, when the texture filters
 * linearly, its 9-bit weights are written in its texels.  Texels outside
 * the array (the footprint of a coordinate near the edge) are drawn hatched,
 * so clamp and wrap show where the texels really came from.  Beside the
 * grid, the lanes with their coordinates and the value each fetched, and a
 * legend.  3D fetches draw the two slices of the focus lane's footprint
 * side by side. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-launch.h"
#include "ks-memory-render.h"
#include "ks-sim.h"

G_BEGIN_DECLS

typedef struct
{
  const KsMemAccess *access;    /* its mask and warp */
  const KsTexAccess *tex;       /* the lanes' footprints */
  const KsLaunchTexture *desc;  /* the texture the focus lane read, or NULL */
  const uint8_t *data;          /* its texels (the buffer), or NULL: no values */
  size_t size;                  /* bytes of data */
  int focus;                    /* the lane whose footprint is outlined; -1: the first
                                 * of those that read the most distinct texels */
} KsTextureScene;

void      ks_texture_render        (cairo_t              *cr,
                                    const KsTextureScene *scene,
                                    const char           *title,
                                    const KsMemoryStyle  *style,
                                    double                width,
                                    double                height);

/* The lane outlined: scene->focus, or the first lane whose footprint has
 * the most distinct texels (at an edge a clamp folds them together) */
int       ks_texture_focus_lane    (const KsTextureScene *scene);

/* Where texel (x, y, z) is drawn; FALSE when it is not in the picture */
gboolean  ks_texture_texel_box     (const KsTextureScene *scene,
                                    const KsMemoryStyle  *style,
                                    double                width,
                                    double                height,
                                    int32_t               x,
                                    int32_t               y,
                                    int32_t               z,
                                    double               *bx,
                                    double               *by,
                                    double               *bw,
                                    double               *bh);
/* The centre of @lane's piece of the bar of texel (x, y, z): FALSE when
 * the lane did not read it or it is not in the picture */
gboolean  ks_texture_lane_mark     (const KsTextureScene *scene,
                                    const KsMemoryStyle  *style,
                                    double                width,
                                    double                height,
                                    uint32_t              lane,
                                    int32_t               x,
                                    int32_t               y,
                                    int32_t               z,
                                    double               *cx,
                                    double               *cy);
/* The colour of a lane (a test looks for it) */
void      ks_texture_lane_rgb      (uint32_t              lane,
                                    double               *r,
                                    double               *g,
                                    double               *b);
/* What is under (x, y), for a tooltip: a texel (its value, the lanes that
 * read it with their weights) or a lane of the list; NULL for nothing.
 * (transfer full) */
char     *ks_texture_describe_at   (const KsTextureScene *scene,
                                    const KsMemoryStyle  *style,
                                    double                width,
                                    double                height,
                                    double                x,
                                    double                y);
/* The lane of the list row or sample point under (x, y), or -1 */
int       ks_texture_lane_at       (const KsTextureScene *scene,
                                    const KsMemoryStyle  *style,
                                    double                width,
                                    double                height,
                                    double                x,
                                    double                y);
/* A text summary of the picture, for accessibility. (transfer full) */
char     *ks_texture_summary       (const KsTextureScene *scene);

G_END_DECLS
