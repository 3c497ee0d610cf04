/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-json.h: the one way every reader of the app's JSON loads it, with a
 * bound on nesting that json-glib's recursive parser does not have. */
#pragma once

#include <json-glib/json-glib.h>

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

G_END_DECLS
