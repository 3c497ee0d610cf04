/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch.h: a launch spec (docs/DESIGN.md, "Launch spec (JSON)"), parsed,
 * validated and with its buffers materialized.
 *
 * Everything that can be wrong with a spec is found here, so the simulator
 * can trust a KsLaunch.  Errors name the field with a JSON-path-like
 * location ("buffers.a.init.random.min: expected a number"), prefixed with
 * the spec's path when known; a JSON syntax error gives the line and column
 * instead ("spec.json:3:8: Parse error: ...").
 *
 * Values.  Integer values are JSON numbers (integral, within the element
 * type's range) or strings in decimal or hex ("0xffffffffffffffff", "-12"),
 * so 64-bit values need not pass through a double.  Integer literals too
 * big for JSON's int64 are read exactly as well.  The b types take either
 * a signed or an unsigned value (-128..255 for b8) and store its two's
 * complement bits.  Float values are JSON numbers, or the strings "inf",
 * "-inf" and "nan"; they are rounded from double to the element type to
 * nearest even (f16 and bf16 with subnormals; overflow gives infinity).
 * A float value may also be a string holding a decimal number ("0.1"),
 * which is how the launch editor writes one that a JSON number would not
 * print back as typed.
 *
 * Buffer contents, for element i of a buffer with `count` elements:
 *
 *   zero-filled when none of init, data, bytes_hex is given;
 *
 *   "data": [v0, v1, ...] gives the first values; count defaults to their
 *   number, and any elements past them are zero;
 *
 *   "bytes_hex": "0100..." gives the bytes (type b8 unless "type" is given,
 *   in which case the length must be a multiple of its size);
 *
 *   "init": {"range": {"start": S, "step": D}}: S + i * D, exactly for
 *   integer types (every element must be in range), computed in double and
 *   then rounded for float types;
 *
 *   "init": {"random": {"seed": SEED, "min": MIN, "max": MAX}} ("seed"
 *   defaults to 0), from splitmix64:
 *
 *     z  = SEED + (i + 1) * 0x9e3779b97f4a7c15         (mod 2^64)
 *     z  = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9        (mod 2^64)
 *     z  = (z ^ (z >> 27)) * 0x94d049bb133111eb        (mod 2^64)
 *     z  =  z ^ (z >> 31)
 *
 *   (the i-th output of the splitmix64 stream seeded with SEED, so any
 *   element can be computed on its own).  Integer types: MIN <= MAX, and
 *   the element is MIN + z % (MAX - MIN + 1), or z itself when that range
 *   covers all 2^64 values; the modulo makes it very slightly uneven when
 *   the range is not a power of two, which does not matter for test data
 *   and keeps it easy to reproduce.  Float types: MIN < MAX, both finite;
 *   u = (z >> 11) * 2^-53 is in [0, 1), v = MIN + (MAX - MIN) * u in
 *   double, rounded to the type to nearest even; if the rounded value is
 *   >= MAX it is replaced by the next value of the type below it, and if
 *   it is < MIN by the next value above it, so every element lies in
 *   [MIN, MAX).  A spec where no value of the type lies in [MIN, MAX) is
 *   refused.
 *
 * Limits: one buffer at most 4 GiB, all of them at most 16 GiB; grid at
 * most (2^31-1, 65535, 65535); block at most (1024, 1024, 64) and 1024
 * threads.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

typedef struct
{
  char *name;
  KsPtxType type;               /* element type; KS_PTX_TYPE_B8 for "bytes_hex" buffers */
  uint64_t count;               /* elements */
  uint8_t *data;                /* count * ks_ptx_type_size (type) bytes, little-endian */
  size_t size;                  /* bytes */
} KsLaunchBuffer;

typedef struct
{
  gboolean is_buffer;
  uint32_t buffer;              /* index into buffers when is_buffer */
  KsPtxType type;               /* scalar type otherwise */
  uint64_t bits;                /* the scalar's bits in the low bytes, zero-extended
                                 * (f32 as its IEEE bits, f16 and bf16 as their 16 bits) */
} KsLaunchParam;

typedef struct
{
  char *spec_path;              /* the file it was read from, or NULL */
  char *ptx_path;               /* absolute, resolved against the spec's folder;
                                 * NULL when "source" is given */
  char *source_path;            /* likewise for "source" */
  char *kernel;                 /* NULL when omitted */
  uint32_t grid[3], block[3];
  uint32_t dynamic_shared_bytes;
  KsLaunchBuffer *buffers;      /* in the order written in the spec */
  uint32_t n_buffers;
  KsLaunchParam *params;
  uint32_t n_params;
  uint32_t *outputs;            /* buffer indices */
  uint32_t n_outputs;
} KsLaunch;

#define KS_LAUNCH_ERROR (ks_launch_error_quark ())

typedef enum
{
  KS_LAUNCH_ERROR_INVALID,
} KsLaunchError;

GQuark         ks_launch_error_quark          (void);

/* Parses and validates @json (@length bytes, or NUL-terminated when -1) and
 * materializes its buffers.  @spec_path, when given, is where it was read
 * from: relative paths in it are resolved against its folder (else the
 * current directory) and messages start with it.
 * Returns: (transfer full): the launch, or NULL with @error set. */
KsLaunch      *ks_launch_parse                (const char    *json,
                                               gssize         length,
                                               const char    *spec_path,
                                               GError       **error);
/* Reads @path and parses it as ks_launch_parse() does. */
KsLaunch      *ks_launch_load                 (const char    *path,
                                               GError       **error);
void           ks_launch_free                 (KsLaunch      *launch);
/* A deep copy, buffers included */
KsLaunch      *ks_launch_copy                 (const KsLaunch *launch);

/* The launch used for a kernel that has no spec (README.md, "A kernel
 * without a launch spec"): blocks of the kernel's .reqntid or .maxntid, else
 * 256 threads; a grid of 4 blocks; every 64-bit parameter is a pointer to
 * its own buffer of 4 f32 per thread of the grid, random in [-1, 1) with
 * seed = the parameter's number + 1; 32-bit integer parameters are the
 * number of threads in the grid; float parameters are 1.0; any other
 * parameter is 0.  As JSON, so the user can save it and edit it. */
char          *ks_launch_default_json         (const KsPtxModule *module,
                                               uint32_t       function,
                                               const char    *ptx_path);

/* json-glib 1.6 wraps integer literals outside int64 (2^64 - 1 reads as
 * -1).  This rewrites each such literal of @json (@length bytes) as a
 * string whose first byte is KS_LAUNCH_BIG_MARK followed by the literal,
 * as ks_launch_parse() reads them; for other readers of a spec.
 * Returns: (transfer full): the new text, or NULL when there are none */
#define KS_LAUNCH_BIG_MARK '\001'
char          *ks_launch_mark_big_integers    (const char    *json,
                                               size_t         length);

/* The index of buffer @name, or -1 when there is none. */
int            ks_launch_find_buffer          (const KsLaunch *launch,
                                               const char     *name);

/* The conversions used for f16 and bf16 elements: round to nearest even,
 * subnormals kept, overflow to infinity, NaN to a quiet NaN of the same
 * sign.  Exported so the simulator and the tests round the same way. */
uint16_t       ks_launch_f16_from_double      (double         value);
uint16_t       ks_launch_bf16_from_double     (double         value);
double         ks_launch_f16_to_double        (uint16_t       bits);
double         ks_launch_bf16_to_double       (uint16_t       bits);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLaunch, ks_launch_free)

G_END_DECLS
