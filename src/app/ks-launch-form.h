/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch-form.h: a launch spec as the launch editor edits it.
 *
 * Plain C, no GTK, so the tests check it without a display.  A KsLaunch
 * (ks-launch.h) is what a spec means, with its buffers filled in; it no
 * longer knows that a buffer was "random with seed 1" or that a value was
 * written 0x10.  The form keeps the spec as it is written: every number as
 * the text the user typed, buffer contents by kind, parameters and outputs
 * by buffer index (so renaming a buffer carries them along).  It is read
 * from a spec's JSON, written back as JSON with json-glib in a stable field
 * order, and checked by ks_launch_parse() itself, so a message about the
 * form names the field as a message about a file would
 * ("buffers.a.count: must be at least 1"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "ks-launch.h"
#include "ks-ptx.h"

G_BEGIN_DECLS

typedef enum
{
  KS_LAUNCH_FORM_ZERO,          /* none of init, data, bytes_hex */
  KS_LAUNCH_FORM_RANDOM,        /* init.random: seed, min, max */
  KS_LAUNCH_FORM_RANGE,         /* init.range: start, step */
  KS_LAUNCH_FORM_DATA,          /* data: the values */
  KS_LAUNCH_FORM_HEX,           /* bytes_hex */
  KS_LAUNCH_FORM_N_INITS
} KsLaunchFormInit;

/* Text fields are never NULL; an empty one is left out of the JSON (and
 * ks_launch_parse() then says "missing" where the field is needed). */
typedef struct
{
  char *name;
  char *type;                   /* "f32"; "" for bytes_hex without a type (b8) */
  char *count;
  KsLaunchFormInit init;
  char *seed, *min, *max;       /* random */
  char *start, *step;           /* range */
  char *data;                   /* values separated by commas or blanks */
  char *hex;                    /* bytes_hex */
} KsLaunchFormBuffer;

typedef enum
{
  KS_LAUNCH_FORM_NO_HANDLE,
  KS_LAUNCH_FORM_TEXTURE,       /* {"texture": object} */
  KS_LAUNCH_FORM_SURFACE,       /* {"surface": object} */
} KsLaunchFormHandle;

typedef struct
{
  gboolean is_buffer;
  int buffer;                   /* index into buffers, or -1: a name that is no buffer's */
  char *buffer_name;            /* that name, when buffer is -1 */
  char *type;                   /* a scalar's type */
  char *value;                  /* and its value */
  KsLaunchFormHandle handle;    /* a texture's or surface's handle (not a buffer) */
  char *object;                 /* its name */
  char *offset;                 /* a buffer's "offset" as written, or NULL */
  JsonNode *kept;               /* a struct by value ("bytes_hex" or "fields"), not
                                 * edited in the form: kept and written back as the
                                 * spec has it; NULL otherwise */
} KsLaunchFormParam;

/* A launch of a spec's "launches" */
typedef struct
{
  char *kernel;                 /* NULL: left out */
  char *grid[3];
  char *block[3];
  char *dynamic_shared;
  gboolean cooperative;         /* "cooperative": true (kept, not edited) */
  GPtrArray *params;            /* KsLaunchFormParam */
} KsLaunchFormLaunch;

typedef struct
{
  gboolean use_source;          /* "source" (CUDA) rather than "ptx" */
  char *kernel_file;            /* as written: relative to the spec's folder */
  char *kernel;                 /* NULL: left out (a module with one kernel) */
  char *grid[3];
  char *block[3];
  char *dynamic_shared;
  gboolean cooperative;         /* "cooperative": true (kept, not edited) */
  GPtrArray *buffers;           /* KsLaunchFormBuffer, in the spec's order */
  GPtrArray *params;            /* KsLaunchFormParam */
  GArray *outputs;              /* int: buffer indices, in order */
  /* Textures, surfaces and bindings (ks-launch.h) are not edited in the
   * form: kept as the spec has them and written back, their "buffer"
   * names following a buffer's rename.  NULL when the spec has none. */
  JsonNode *textures;
  JsonNode *surfaces;
  JsonNode *bindings;
  /* Likewise "symbols" and "output_symbols" (module variables) */
  JsonNode *symbols;
  JsonNode *output_symbols;
  /* A spec of several "launches": each of them, in order, and the one the
   * fields above (kernel, grid, block, dynamic_shared, params) edit, whose
   * entry here stands for nothing (ks_launch_form_select_launch moves a
   * launch in and out).  NULL for a spec of one launch. */
  GPtrArray *launches;          /* KsLaunchFormLaunch */
  guint step;
} KsLaunchForm;

KsLaunchForm       *ks_launch_form_new            (void);
KsLaunchForm       *ks_launch_form_copy           (const KsLaunchForm *form);
void                ks_launch_form_free           (KsLaunchForm       *form);

/* Reads a spec's JSON (as ks_launch_parse() reads it, integers past
 * int64 included).  Only the shape is checked here: a spec that reads
 * may still be refused by ks_launch_form_parse().  Of a spec of several
 * "launches" the form edits the first (ks_launch_form_select_launch
 * chooses another) and keeps the others.
 * Returns: (transfer full): the form, or NULL with @error set */
KsLaunchForm       *ks_launch_form_from_json      (const char         *json,
                                                   gssize              length,
                                                   GError            **error);
/* The spec as JSON, pretty-printed; fields in the order of DESIGN.md
 * ("ptx" or "source", "kernel", "grid", "block", "dynamic_shared_bytes",
 * "buffers", "textures", "surfaces", "bindings", "symbols", "params",
 * "outputs", "output_symbols"; for a sequence, "launches" in place of
 * "params", each with its "kernel" to "params", and none of them above),
 * buffers in the form's order.  A field's
 * text becomes a JSON integer when it is a decimal integer that fits
 * int64, a JSON number when it is a decimal number that prints back the
 * same, else a string holding the text (hex, "inf", integers past int64,
 * 0.1, mistakes), which ks_launch_parse() reads or refuses by the field.
 * Returns: (transfer full) */
char               *ks_launch_form_to_json        (const KsLaunchForm *form);
/* Checks the form as ks_launch_parse() checks a spec read from @spec_path
 * (relative paths start from its folder; may be NULL), with the buffer
 * names checked first (JSON would keep only one of two buffers of the same
 * name).  Messages name the field, without the spec's path in front.  Of
 * a sequence, the launch's top level holds the launch the form edits
 * (ks_launch_select_step).
 * Returns: (transfer full): the launch, or NULL with @error set */
KsLaunch           *ks_launch_form_parse          (const KsLaunchForm *form,
                                                   const char         *spec_path,
                                                   GError            **error);

/* Of a spec of several launches: makes the form's kernel, grid, block,
 * dynamic_shared and params launch @step's, the ones it held kept as that
 * launch's.  Nothing happens for a spec of one launch. */
void                ks_launch_form_select_launch  (KsLaunchForm       *form,
                                                   guint               step);

/* The kernel the form names in @module (an .entry), or -1 */
int                 ks_launch_form_find_kernel    (const KsLaunchForm *form,
                                                   const KsPtxModule  *module);
/* Checks the form against the kernel it names in @module: the kernel
 * exists (and is named when there are several), and the parameters match
 * the kernel's .param list in number, a buffer goes to a pointer-sized
 * parameter, a texture or surface handle to a 64-bit one, and a value has
 * the parameter's size -- what the simulator
 * would refuse at the start of a run, said before it. */
gboolean            ks_launch_form_check_kernel   (const KsLaunchForm *form,
                                                   const KsPtxModule  *module,
                                                   GError            **error);
/* Makes the parameter list follow the .param list of @function: a
 * parameter the form already has for a position is kept, a new one is a
 * buffer not yet passed when the parameter is pointer-sized, else a value
 * 0 of the parameter's type; any past the end go. */
void                ks_launch_form_fit_params     (KsLaunchForm       *form,
                                                   const KsPtxModule  *module,
                                                   uint32_t            function);

/* Adds a zero-filled f32 buffer of @count with a name no other buffer has
 * ("buf0", "buf1", ...); returns its index. */
guint               ks_launch_form_add_buffer     (KsLaunchForm       *form,
                                                   const char         *count);
/* Removes buffer @index: it leaves the outputs; a parameter that passed
 * it keeps its name (and is refused until it is given another) */
void                ks_launch_form_remove_buffer  (KsLaunchForm       *form,
                                                   guint               index);
/* Renames buffer @index; the textures and surfaces made of it follow */
void                ks_launch_form_rename_buffer  (KsLaunchForm       *form,
                                                   guint               index,
                                                   const char         *name);
/* The names of the spec's textures (@surfaces: its surfaces), in order.
 * Returns: (transfer container): the names belong to the form */
GPtrArray          *ks_launch_form_list_objects   (const KsLaunchForm *form,
                                                   gboolean            surfaces);
gboolean            ks_launch_form_is_output      (const KsLaunchForm *form,
                                                   guint               buffer);
void                ks_launch_form_set_output     (KsLaunchForm       *form,
                                                   guint               buffer,
                                                   gboolean            output);

/* The path ks_launch_parse() names a buffer's field by: "buffers.a.count",
 * or buffers["my buf"].count for names that are not plain words; @member
 * may be NULL for the buffer itself.  (transfer full) */
char               *ks_launch_form_buffer_path    (const char         *name,
                                                   const char         *member);
/* Threads of the block, or 0 while a dimension is not a positive integer */
guint64             ks_launch_form_block_threads  (const KsLaunchForm *form);
/* Blocks of the grid, likewise */
guint64             ks_launch_form_grid_blocks    (const KsLaunchForm *form);

const char         *ks_launch_form_init_name      (KsLaunchFormInit    init);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLaunchForm, ks_launch_form_free)

G_END_DECLS
