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
 * Limits: the spec's text at most 64 MiB (KS_LAUNCH_MAX_SPEC_BYTES; arrays
 * of KS_LAUNCH_LIFT_MIN_ELEMENTS values or more are read from the text,
 * the rest through json-glib's tree at about 10x its text); one buffer at most 4 GiB, all of them
 * at most half of physical memory and at most 16 GiB; grid at most
 * (2^31-1, 65535, 65535); block at most (1024, 1024, 64) and 1024
 * threads.
 *
 * Textures and surfaces (what the host sets up as CUDA arrays and texture
 * or surface objects):
 *
 *   "textures": {NAME: {"buffer": B, "format": {"type": T, "channels": C},
 *                       "width": W, "height": H, "depth": D, "layers": L,
 *                       "cubemap": BOOL, "filter": "point" | "linear",
 *                       "address": MODE or [MODE, ...], "normalized_coords": BOOL,
 *                       "read_mode": "element" | "normalized_float",
 *                       "border": [R, G, B, A]}}
 *   "surfaces": {NAME: {"buffer": B, "format": {...}, "width": W, "height": H,
 *                       "depth": D, "layers": L}}
 *
 * T is u8, s8, u16, s16, u32, s32, f16 or f32 and C 1, 2 or 4 (default 1).
 * Leaving out height (depth) makes a 1D (2D) array; layers makes it layered
 * (1D or 2D, not 3D); a cubemap has width == height, 6 faces (layers, when
 * given, a multiple of 6 for an array of cubemaps).  The buffer holds the
 * texels in row-major order, layer by layer (x fastest), and must have at
 * least width x height x depth x layers texels.  MODE is clamp (default),
 * wrap, mirror or border, one for all dimensions or one per dimension; wrap
 * and mirror need normalized coordinates, as in CUDA.  "linear" filtering
 * needs a float format or read_mode "normalized_float", which needs an 8- or
 * 16-bit integer format.  "border" (1 to 4 numbers, default zeros) is the
 * value a "border" address mode returns, in the result's type (integers for
 * integer formats read as elements).
 *
 * "offset": BYTES places the array that far into its buffer (a multiple of
 * the texel size), and "pitch": BYTES gives the distance from one row to
 * the next (at least width x texel size, a multiple of it; default that
 * product): a texture over a pitched or linear allocation.  {"destroyed":
 * true}, alone, is an object the program destroyed before the launch: its
 * handle still names it (handles are the objects' indices), and a kernel
 * that uses it faults.
 *
 * A parameter {"texture": NAME} or {"surface": NAME} passes the object's
 * 64-bit handle; "bindings": {VAR: {"texture": NAME}} binds a module's
 * .texref (or, with "surface", .surfref) variable VAR to it.
 *
 * What host code does around a launch:
 *
 *   {"buffer": B, "offset": N} passes B's address plus N bytes
 *   (kernel(d_b + k, ...)); N is 0 to B's size (its end included, as in
 *   C), so a negative N, before the buffer, is refused.  The simulator
 *   checks accesses through it against B's own bounds.
 *
 *   {"bytes_hex": "..."} passes a struct by value as its bytes, and
 *   {"fields": [F, ...]} as C lays out its members: each F is
 *   {"type": T, "value": V} or {"buffer": B, "offset": N} (a 64-bit
 *   pointer, written by the simulator), at the next multiple of its size,
 *   the whole rounded up to a multiple of the largest; at most 32764 bytes.
 *   The simulator checks the size against the parameter's (.param .align A
 *   .b8 NAME[SIZE]).
 *
 *   "bytes_file": "PATH" gives the bytes as a file's (relative to the
 *   spec's folder), as "bytes_hex" does: what a recording (docs/RECORD.md)
 *   writes, the contents of a program's memory.
 *
 *   "address": "0x7000000000000" places a buffer at that device address,
 *   so that pointers kept in memory by a recorded program stay right: every
 *   buffer gets one or none does, 16-byte aligned, at or above
 *   KS_LAUNCH_MIN_ADDRESS (the simulator keeps its windows below), in
 *   ascending order without overlapping.
 *
 *   "variable": "VAR" makes the buffer the storage of the module's .global
 *   or .const variable VAR (found as "symbols" finds one): the kernel's
 *   accesses to VAR are accesses to the buffer, at its address, so a
 *   pointer to the variable that a program took (cudaGetSymbolAddress, a
 *   __managed__ variable) and the variable are one memory.  The buffer's
 *   bytes are the variable's contents: its PTX initializer is not written.
 *   The buffer must hold the variable; one buffer a variable.
 *
 *   "symbols": {VAR: CONTENTS} fills a module-scope .global or .const
 *   variable before the first launch (cudaMemcpyToSymbol).  CONTENTS are a
 *   buffer's ("type", "count", "data", "bytes_hex", "init"), "type"
 *   defaulting to the variable's and the count, for an "init", to the
 *   variable's size; such contents are materialized by the simulator
 *   (ks_launch_symbol_fill), which also finds VAR (the name as the PTX
 *   writes it, or the demangled name of one mangled variable) and refuses
 *   an unknown name or more bytes than the variable has.
 *   "output_symbols": [VAR, ...] names variables to read back after the
 *   run, as outputs.
 *
 *   "cooperative": true makes the launch cudaLaunchCooperativeKernel's:
 *   every block of the grid is resident at once, so a block may wait for
 *   the others (cooperative groups' grid.sync(), which finds its barrier
 *   through %envreg1 and %envreg2).  The simulator then runs the blocks
 *   side by side, a round-robin pass of each in turn.
 *
 *   "launches": [{"kernel", "grid", "block", "dynamic_shared_bytes",
 *   "cooperative", "params"}, ...] is a sequence of launches over the same buffers and
 *   variables, each seeing what the last one wrote; the top level then
 *   gives none of those five fields.  KsLaunch's own kernel, grid, block,
 *   dynamic_shared_bytes and params are the first launch's, for readers of
 *   one launch (or launch `step`'s, after ks_launch_select_step());
 *   ks_sim_new() refuses a spec of several, ks_sim_new_step() runs each,
 *   and ks_sim_run_launches() runs them in turn.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ks-ptx.h"

G_BEGIN_DECLS

/* How a buffer's first contents are made.  Those of "data" and
 * "bytes_hex" are kept as bytes (the spec's text bounds them); zeros, a
 * range and random values as the recipe, so that the simulator writes them
 * straight into its own memory and a buffer of gigabytes is in memory
 * once, not twice. */
typedef enum
{
  KS_LAUNCH_FILL_BYTES = 0,     /* KsLaunchBuffer.data holds them */
  KS_LAUNCH_FILL_ZERO,
  KS_LAUNCH_FILL_RANGE,         /* start + i * step */
  KS_LAUNCH_FILL_RANDOM,        /* uniform in [min, max) (floats) or [min, max] (integers) */
} KsLaunchFillKind;

typedef struct
{
  uint8_t kind;                 /* KsLaunchFillKind */
  uint8_t is_float;
  uint64_t seed;
  uint64_t ia, ib;              /* integers: start and step, or min and max (two's complement) */
  double fa, fb;                /* floats: likewise */
} KsLaunchFill;

typedef struct
{
  char *name;
  KsPtxType type;               /* element type; KS_PTX_TYPE_B8 for "bytes_hex" buffers */
  uint64_t count;               /* elements */
  uint8_t *data;                /* count * ks_ptx_type_size (type) bytes, little-endian, for
                                 * fill.kind BYTES; NULL otherwise (ks_launch_buffer_fill) */
  size_t size;                  /* bytes */
  KsLaunchFill fill;
  uint64_t address;             /* where the simulator places it ("address"); 0: it chooses */
  char *variable;               /* "variable": the module variable (.global or .const) whose
                                 * storage this buffer is, or NULL */
} KsLaunchBuffer;

/* Textures (and surfaces) a launch may describe: handles keep the index in
 * 16 bits */
#define KS_LAUNCH_MAX_TEXTURES 4096u

/* The extents an array may have (CUDA's limits for compute capability 8.x
 * and later): a row of an array; a 1D texture over linear memory; height,
 * depth, and the layers of a layered array (6 times that for cubemaps) */
#define KS_LAUNCH_TEX_MAX_WIDTH 131072u
#define KS_LAUNCH_TEX_MAX_LINEAR (1u << 28)
#define KS_LAUNCH_TEX_MAX_HEIGHT 65536u
#define KS_LAUNCH_TEX_MAX_DEPTH 16384u
#define KS_LAUNCH_TEX_MAX_LAYERS 2048u

typedef enum
{
  KS_LAUNCH_TEX_POINT = 0,
  KS_LAUNCH_TEX_LINEAR,
} KsLaunchTexFilter;

typedef enum
{
  KS_LAUNCH_TEX_CLAMP = 0,
  KS_LAUNCH_TEX_WRAP,
  KS_LAUNCH_TEX_MIRROR,
  KS_LAUNCH_TEX_BORDER,
} KsLaunchTexAddress;

/* A texture or a surface: an array in a launch buffer, and for textures how
 * it is sampled.  Dimensions not given are 1; dims says how many of width,
 * height and depth were given. */
typedef struct
{
  char *name;
  uint32_t buffer;              /* index into buffers */
  KsPtxType format;             /* U8, S8, U16, S16, U32, S32, F16 or F32 */
  uint32_t channels;            /* 1, 2 or 4 */
  uint32_t texel_size;          /* bytes: channels x the format's size */
  uint32_t dims;                /* 1, 2 or 3 */
  uint32_t width, height, depth;
  uint32_t layers;              /* 1 when not layered */
  gboolean layered;
  gboolean cubemap;             /* layers = 6 x the number of cubemaps */
  /* textures only */
  KsLaunchTexFilter filter;
  KsLaunchTexAddress address[3];
  gboolean normalized_coords;
  gboolean normalized_float;    /* read_mode "normalized_float" */
  double border[4];
  /* where in its buffer ("offset", bytes) and the bytes from one row to
   * the next ("pitch"; width x texel_size when 0): a texture over linear
   * or pitched memory (cudaResourceTypeLinear, cudaResourceTypePitch2D) */
  uint64_t offset;
  uint32_t pitch;
  /* "destroyed": the object was destroyed (or its memory freed) before
   * the launch; a kernel that uses its handle faults.  Nothing else of it
   * is set; buffer is G_MAXUINT32. */
  gboolean destroyed;
} KsLaunchTexture;

/* A module's .texref or .surfref variable bound to a texture or surface */
typedef struct
{
  char *var;
  gboolean surface;
  uint32_t index;               /* into textures, or surfaces */
} KsLaunchBinding;

typedef enum
{
  KS_LAUNCH_HANDLE_NONE = 0,
  KS_LAUNCH_HANDLE_TEXTURE,
  KS_LAUNCH_HANDLE_SURFACE,
} KsLaunchHandleKind;

/* A buffer's address written into a struct passed by value */
typedef struct
{
  uint32_t at;                  /* byte offset in the struct (8 bytes are written) */
  uint32_t buffer;              /* index into buffers */
  int64_t offset;               /* bytes added to the buffer's address */
} KsLaunchReloc;

typedef struct
{
  gboolean is_buffer;
  uint32_t buffer;              /* index into buffers when is_buffer */
  int64_t offset;               /* is_buffer: bytes added to the buffer's address, in
                                 * 0..size (checked by ks_launch_parse) */
  KsPtxType type;               /* scalar type otherwise */
  uint64_t bits;                /* the scalar's bits in the low bytes, zero-extended
                                 * (f32 as its IEEE bits, f16 and bf16 as their 16 bits) */
  KsLaunchHandleKind handle;    /* a texture or surface handle: object is its index */
  uint32_t object;
  uint8_t *bytes;               /* a struct passed by value ("bytes_hex" or "fields"),
                                 * n_bytes long, when not NULL */
  uint32_t n_bytes;
  KsLaunchReloc *relocs;        /* its pointer fields, filled in by the simulator */
  uint32_t n_relocs;
} KsLaunchParam;

/* A module variable (.global or .const) the host fills before the run
 * (cudaMemcpyToSymbol).  With a "type" (or "bytes_hex") its bytes are read
 * with the spec; without one the variable's own type is used, so the bytes
 * are made by ks_launch_symbol_fill() when the module is known. */
typedef struct
{
  char *name;                   /* the variable's name as written in the PTX */
  KsPtxType type;               /* the "type" given; KS_PTX_TYPE_NONE: none (bytes_hex
                                 * without one, or the variable's type) */
  uint8_t *data;                /* NULL until the type is known */
  size_t size;
  gpointer spec;                /* (JsonNode) the spec, for ks_launch_symbol_fill() */
} KsLaunchSymbol;

/* One kernel launch of a spec's "launches" */
typedef struct
{
  char *kernel;                 /* NULL when omitted */
  uint32_t grid[3], block[3];
  uint32_t dynamic_shared_bytes;
  gboolean cooperative;         /* cudaLaunchCooperativeKernel: every block resident at once */
  KsLaunchParam *params;
  uint32_t n_params;
} KsLaunchStep;

typedef struct
{
  char *spec_path;              /* the file it was read from, or NULL */
  char *ptx_path;               /* absolute, resolved against the spec's folder;
                                 * NULL when "source" is given */
  char *source_path;            /* likewise for "source" */
  char *kernel;                 /* NULL when omitted */
  uint32_t grid[3], block[3];
  uint32_t dynamic_shared_bytes;
  gboolean cooperative;         /* "cooperative": true */
  KsLaunchBuffer *buffers;      /* in the order written in the spec */
  uint32_t n_buffers;
  KsLaunchParam *params;
  uint32_t n_params;
  uint32_t *outputs;            /* buffer indices */
  uint32_t n_outputs;
  KsLaunchTexture *textures;    /* in the order written in the spec */
  uint32_t n_textures;
  KsLaunchTexture *surfaces;
  uint32_t n_surfaces;
  KsLaunchBinding *bindings;
  uint32_t n_bindings;
  KsLaunchSymbol *symbols;      /* in the order written in the spec */
  uint32_t n_symbols;
  char **output_symbols;        /* variable names, NULL-terminated */
  uint32_t n_output_symbols;
  /* "launches": the kernel, grid, block, dynamic_shared_bytes and params
   * above are those of steps[0]; 0 steps for a spec of one launch */
  KsLaunchStep *steps;
  uint32_t n_steps;
  /* which of "launches" the top level holds (ks_launch_select_step); 0
   * after parsing */
  uint32_t step;
  /* set by an owner that runs the launch once (kernelscope-cli run, an
   * analysis's own copy): the first simulation made from it takes the
   * buffers' values instead of copying them, so a buffer is in memory
   * once, not twice; their data is NULL after, and a later simulation
   * would see zeros */
  gboolean take_buffers;
} KsLaunch;

/* A spec's text is read whole: its long arrays of values from the text (a
 * copy of it, and the buffers' bytes), the rest into json-glib's tree of
 * about ten times its size; so it is refused past this before parsing, and
 * a large buffer is given an "init" rather than its values */
#define KS_LAUNCH_MAX_SPEC_BYTES (64u << 20)

/* The lowest "address" a buffer may be given: the simulator's shared,
 * local, parameter and function windows lie below (ks-sim-private.h) */
#define KS_LAUNCH_MIN_ADDRESS G_GUINT64_CONSTANT (0x0000500000000000)

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
/* A message about the field @path (NULL: the spec as a whole) of the spec
 * @text, which is at @spec_path, in the one form every spec message has:
 * "SPEC:LINE:COL: PATH: MESSAGE" where the field is in the text, else
 * "SPEC: PATH: MESSAGE" (each part left out when NULL). */
char          *ks_launch_place                (const char    *spec_path,
                                               const char    *text,
                                               gsize          text_len,
                                               const char    *path,
                                               const char    *message);
/* The same for a message that starts with a field ("params[1]: ..."),
 * such as the simulator's checks of a launch against its kernel give:
 * placed in the spec file @launch was read from, which is read again. */
char          *ks_launch_place_error          (const KsLaunch *launch,
                                               const char    *message);
/* Reads @path and parses it as ks_launch_parse() does. */
KsLaunch      *ks_launch_load                 (const char    *path,
                                               GError       **error);
void           ks_launch_free                 (KsLaunch      *launch);
/* A deep copy, buffers included */
KsLaunch      *ks_launch_copy                 (const KsLaunch *launch);
/* Makes the top level of a spec of several launches hold launch @step's
 * kernel, grid, block, dynamic_shared_bytes and params, for readers of one
 * launch (the occupancy, the hints, the window's views), and records
 * @step in launch->step.  Nothing changes for a spec of one launch (@step
 * must be 0). */
void           ks_launch_select_step          (KsLaunch       *launch,
                                               uint32_t        step);

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

/* Arrays of at least this many values are read from the spec's text, not
 * json-glib's tree (ks_json_lift_new() in ks-json.h); for other readers. */
#define KS_LAUNCH_LIFT_MIN_ELEMENTS 256

/* Loads @json (@length bytes) into a new JsonParser as ks_launch_parse()
 * does: arrays of KS_LAUNCH_LIFT_MIN_ELEMENTS values or more lifted (set
 * in @lift, a KsJsonLift, or NULL when none were), integers past int64
 * marked, nesting bounded.  @setup, when not NULL, is called on each
 * parser made before it loads.  Errors are json-glib's, "<data>:LINE:COL:
 * ..." with the line and column of the text as written.
 * Returns: (transfer full): the parser, or NULL */
gpointer       ks_launch_load_json            (const char    *json,
                                               size_t         length,
                                               gpointer      *lift,
                                               void         (*setup) (gpointer parser,
                                                                      gpointer user_data),
                                               gpointer       user_data,
                                               GError       **error);

/* Sets @scratch (a JsonNode of type JSON_NODE_VALUE) to the node json-glib, behind
 * ks_launch_mark_big_integers(), makes of @token, a value of a lifted
 * array (@length bytes, at most KS_JSON_LIFT_MAX_TOKEN).
 * Returns: @scratch */
gpointer       ks_launch_lifted_value         (gpointer       scratch,
                                               const char    *token,
                                               size_t         length);

/* A deep copy of @node (a JsonNode of the tree json-glib made from
 * @lift's text) with each lifted array filled from @text, the text as
 * written; a new reference to @node when @lift (a KsJsonLift) is NULL.
 * Returns: (transfer full) */
gpointer       ks_launch_unlift               (gpointer       lift,
                                               const char    *text,
                                               gpointer       node);

/* The bytes of symbol @index for a variable of @type and @var_size bytes:
 * the spec's "type" when it gives one, else @type; as many elements as
 * fill @var_size when the spec gives neither data nor a count.  Errors
 * name the field ("symbols.NAME.data[2]: ...").
 * Returns: TRUE with @data (transfer full), @size and @used_type set, or
 * FALSE. */
gboolean       ks_launch_symbol_fill          (const KsLaunch *launch,
                                               uint32_t        index,
                                               KsPtxType       type,
                                               uint64_t        var_size,
                                               uint8_t       **data,
                                               size_t         *size,
                                               KsPtxType      *used_type,
                                               GError        **error);

/* The index of buffer @name, or -1 when there is none. */
int            ks_launch_find_buffer          (const KsLaunch *launch,
                                               const char     *name);

/* The index of texture (surface) @name, or -1 when there is none. */
int            ks_launch_find_texture         (const KsLaunch *launch,
                                               const char     *name);
int            ks_launch_find_surface         (const KsLaunch *launch,
                                               const char     *name);

/* The conversions used for f16 and bf16 elements: round to nearest even,
 * subnormals kept, overflow to infinity, NaN to a quiet NaN of the same
 * sign.  Exported so the simulator and the tests round the same way. */
uint16_t       ks_launch_f16_from_double      (double         value);
uint16_t       ks_launch_bf16_from_double     (double         value);
double         ks_launch_f16_to_double        (uint16_t       bits);
double         ks_launch_bf16_to_double       (uint16_t       bits);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLaunch, ks_launch_free)

/* Writes the buffer's first contents (b->size bytes) to dest; with
 * dest_zeroed, a buffer of zeros writes nothing (so that memory the
 * kernel gives as zero pages stays untouched until used). */
void            ks_launch_buffer_fill       (const KsLaunchBuffer *b,
                                             uint8_t              *dest,
                                             gboolean              dest_zeroed);
/* The buffer's first contents in new memory (g_free), NULL if it cannot
 * be allocated */
uint8_t        *ks_launch_buffer_dup        (const KsLaunchBuffer *b);
/* Makes every buffer's bytes (data, fill.kind BYTES), for a reader of
 * them all; FALSE if one cannot be allocated (the others are made) */
gboolean        ks_launch_materialize       (KsLaunch             *launch);

G_END_DECLS
