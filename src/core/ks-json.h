/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-json.h: the one way every reader of the app's JSON loads it, with a
 * bound on nesting that json-glib's recursive parser does not have. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Arrays and objects nested deeper than this are refused before the text
 * reaches json-glib, whose parser recurses once per level and exhausts the
 * stack at some tens of thousands.  A launch spec needs five, gpus.json four. */
#define KS_JSON_MAX_DEPTH 64

typedef enum
{
  KS_JSON_OK = 0,
  KS_JSON_TOO_DEEP,             /* an array or object nested deeper than the bound */
  KS_JSON_NUL,                  /* a string holds \u0000, which a C string would cut short */
} KsJsonProblem;

/* What ks_json_load_data() refuses before json-glib reads the text: arrays
 * and objects nested deeper than MAX_DEPTH, and a \u0000 escape in a string
 * (json-glib would hand back the string cut at it: a path "k.ptx\u0000x"
 * would silently open k.ptx).  With the 1-based line and byte column (as
 * json-glib counts them) of the bracket that went one level too deep or of
 * the escape.  Strings and comments are skipped as json-glib skips them. */
KsJsonProblem ks_json_check (const char *data,
                             gsize       length,
                             guint       max_depth,
                             guint      *line,
                             guint      *column);

/* json_parser_load_from_data() behind the depth check.  Errors are in
 * JSON_PARSER_ERROR and read "ORIGIN:LINE:COL: message" as json-glib's own,
 * with "<data>" for ORIGIN when it is NULL, so a caller that rewrites
 * json-glib's messages handles both. */
/* name: [x, y, z] (a grid or a block) */
void     ks_json_add_dim3  (JsonBuilder    *b,
                            const char     *name,
                            const uint32_t  v[3]);

gboolean ks_json_load_data (JsonParser  *parser,
                            const char  *data,
                            gssize       length,
                            const char  *origin,
                            GError     **error);

/* Reads PATH whole and loads it as ks_json_load_data() does, its messages
 * starting "PATH:LINE:COL: " as json_parser_load_from_file()'s do. */
gboolean ks_json_load_file (JsonParser  *parser,
                            const char  *path,
                            GError     **error);

/* Where the member a path names ("buffers.a.count", "launches[1].grid[0]",
 * "buffers[\"a b\"]", as the launch spec's messages write them) starts in
 * the JSON text (its key in an object, the element in an array): the
 * 1-based line and byte column, as json-glib counts them.  A path that goes on past the text (a member that is missing)
 * gives the deepest part found.  FALSE when not even the first step is
 * there, or the text is not what the path says.  Linear, and it does not
 * recurse, so it needs no nesting bound. */
gboolean ks_json_locate    (const char  *data,
                            gsize        length,
                            const char  *path,
                            guint       *line,
                            guint       *column);

/* ------------------------------------------------------------------ lifting
 *
 * json-glib keeps every value as its own node: about 100 bytes for a
 * number written in 5 to 10, so a launch spec's 50 MB of buffer values
 * would take half a gigabyte as a tree.  A lift takes the large flat
 * arrays of plain values (numbers as JSON writes them, strings without
 * escapes) out of the text json-glib reads: it hands json-glib a copy in
 * which each such array is empty, its values blanked to spaces with the
 * newlines kept (so every line and column json-glib reports is the
 * text's), and the reader takes the values from the text as written.
 *
 *   KsJsonLift *lift = ks_json_lift_new (text, len, 256);
 *   ks_json_lift_watch (lift, parser);    before loading ks_json_lift_text ()
 *   ks_json_lift_matched (lift)           after: each lifted array was seen
 *   ks_json_lift_find (lift, array)       the lifted array an empty one is
 *
 * An array is lifted when it has at least MIN_ELEMENTS elements, each a
 * number in JSON's own grammar or a "string" of printable characters
 * without a backslash, at most 64 bytes each, separated by commas and
 * spaces, tabs and newlines only (no comments).  Anything else is left to
 * json-glib.  ks_json_lift_new() returns NULL when there is nothing to
 * lift; when ks_json_lift_matched() is FALSE (json-glib saw the arrays
 * elsewhere than the scan did), the caller loads the text as written. */

typedef struct
{
  gsize open, close;            /* offsets of the '[' and the ']' in the text */
  guint line, column;           /* of the ']', 1-based, as json-glib counts */
  guint64 n_elements;
} KsJsonLifted;

typedef struct _KsJsonLift KsJsonLift;

#define KS_JSON_LIFT_MAX_TOKEN 64

KsJsonLift         *ks_json_lift_new     (const char        *data,
                                          gsize              length,
                                          guint              min_elements);
const char         *ks_json_lift_text    (KsJsonLift        *lift,
                                          gsize             *length);
void                ks_json_lift_watch   (KsJsonLift        *lift,
                                          JsonParser        *parser);
gboolean            ks_json_lift_matched (KsJsonLift        *lift);
const KsJsonLifted *ks_json_lift_find    (KsJsonLift        *lift,
                                          JsonArray         *array);
void                ks_json_lift_free    (KsJsonLift        *lift);
/* Every array lifted, in the order of the text */
const KsJsonLifted *ks_json_lift_arrays  (KsJsonLift        *lift,
                                          guint             *n_arrays);

/* The elements of a lifted array, in order, from the text it was lifted
 * from: start with *pos = 0; each call gives the next element's text (a
 * string with its quotes) and FALSE after the last. */
gboolean            ks_json_lifted_next  (const char         *data,
                                          const KsJsonLifted *lifted,
                                          gsize              *pos,
                                          const char        **token,
                                          gsize              *token_length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsJsonLift, ks_json_lift_free)

/* An object's member when it is a string (an array), else NULL; o may be
 * NULL */
const char         *ks_json_member_string (JsonObject *o,
                                           const char *name);
JsonArray          *ks_json_member_array  (JsonObject *o,
                                           const char *name);

G_END_DECLS
