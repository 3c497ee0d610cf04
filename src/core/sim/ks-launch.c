/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch.c: reading, checking and materializing a launch spec. */

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "ks-file.h"
#include "ks-json.h"
#include "ks-launch.h"
#include "ks-sim-math.h"
#include "ks-sim-tex.h"

#define GIB               (G_GUINT64_CONSTANT (1) << 30)
#define MAX_BUFFER_BYTES  (4 * GIB)
#define MAX_TOTAL_BYTES   (16 * GIB)

#define BIG_MARK KS_LAUNCH_BIG_MARK

G_DEFINE_QUARK (ks-launch-error-quark, ks_launch_error)

typedef enum
{
  KIND_UINT,
  KIND_SINT,
  KIND_BITS,
  KIND_FLOAT,
} Kind;

/* Any integer in [-2^63, 2^64 - 1], which no C integer type holds alone */
typedef struct
{
  gboolean neg;
  uint64_t mag;
} IntVal;

typedef enum
{
  INIT_ZERO,
  INIT_DATA,
  INIT_HEX,
  INIT_FILE,
  INIT_RANGE,
  INIT_RANDOM,
} InitKind;

typedef struct
{
  char *path;                   /* "buffers.a", for messages */
  KsPtxType type;
  Kind kind;
  uint32_t esize;
  uint64_t count;
  InitKind init;
  JsonArray *data;              /* borrowed from the parser's tree */
  const KsJsonLifted *lifted;   /* or the values are in the text, there */
  const char *hex;
  uint64_t seed;
  IntVal ia, ib;                /* min and max, or start and step: integer types */
  double fa, fb;                /* likewise for float types */
  KsPtxType default_type;       /* symbols: the variable's type when "type" is not given */
  uint64_t default_bytes;       /* and its size, for the count when none is given */
  GBytes *file;                 /* "bytes_file": the file's bytes */
  gboolean is_buffer;           /* a launch buffer, which may have an "address" */
  uint64_t address;
} BufSpec;

typedef struct
{
  const char *spec_path;
  GError **error;               /* NULL for a quiet attempt */
  const char *text;             /* the spec as written, to place messages in */
  gsize text_len;
  KsJsonLift *lift;             /* the long arrays of values json-glib did not see */

  /* json-glib keeps the last of duplicate keys without a word, so the
   * members each object was given are counted as they are parsed. */
  GHashTable *member_counts;
  JsonObject *dup_object;
  char *dup_name;
  guint dup_line, dup_col;
} Ctx;

char *
ks_launch_place (const char *spec_path,
                 const char *text,
                 gsize       text_len,
                 const char *path,
                 const char *message)
{
  guint line = 0, column = 0;

  g_return_val_if_fail (message != NULL, NULL);

  if (spec_path != NULL && path != NULL && text != NULL
      && ks_json_locate (text, text_len, path, &line, &column))
    return g_strdup_printf ("%s:%u:%u: %s: %s", spec_path, line, column, path, message);
  return g_strdup_printf ("%s%s%s%s%s", spec_path ? spec_path : "", spec_path ? ": " : "",
                          path ? path : "", path ? ": " : "", message);
}

char *
ks_launch_place_error (const KsLaunch *launch,
                       const char     *message)
{
  g_autofree char *path = NULL, *text = NULL;
  const char *colon;
  gsize len = 0;

  g_return_val_if_fail (launch != NULL, NULL);
  g_return_val_if_fail (message != NULL, NULL);

  if (launch->spec_path == NULL)
    return g_strdup (message);
  /* "params[2]: ..." names a field; anything else the spec as a whole */
  colon = strstr (message, ": ");
  if (colon != NULL && colon > message)
    {
      const char *p = message;

      while (p < colon && (g_ascii_isalnum (*p) || strchr ("_-.[]\"", *p) != NULL))
        p++;
      if (p == colon)
        path = g_strndup (message, (gsize) (colon - message));
    }
  if (path != NULL && g_file_get_contents (launch->spec_path, &text, &len, NULL)
      && len <= KS_LAUNCH_MAX_SPEC_BYTES)
    return ks_launch_place (launch->spec_path, text, len, path, colon + 2);
  return g_strdup_printf ("%s: %s", launch->spec_path, message);
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (Ctx        *ctx,
      const char *path,
      const char *format,
      ...)
{
  g_autofree char *message = NULL, *placed = NULL;
  va_list args;

  if (ctx->error == NULL || *ctx->error != NULL)
    return FALSE;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  placed = ks_launch_place (ctx->spec_path, ctx->text, ctx->text_len, path, message);
  g_set_error_literal (ctx->error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID, placed);
  return FALSE;
}

static gboolean
is_plain_key (const char *key)
{
  if (*key == '\0')
    return FALSE;
  for (const char *p = key; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

static char *
member_path (const char *parent,
             const char *key)
{
  g_autofree char *escaped = NULL;

  if (is_plain_key (key))
    return parent ? g_strconcat (parent, ".", key, NULL) : g_strdup (key);
  escaped = g_strescape (key, NULL);
  return g_strdup_printf ("%s[\"%s\"]", parent ? parent : "", escaped);
}

static char *
index_path (const char *parent,
            guint       index)
{
  return g_strdup_printf ("%s[%u]", parent, index);
}

static gboolean
is_big (JsonNode *node)
{
  const char *s;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  s = json_node_get_string (node);
  return s != NULL && s[0] == BIG_MARK;
}

static const char *
node_kind (JsonNode *node)
{
  GType type;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      break;
    }
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || is_big (node))
    return "a number";
  if (type == G_TYPE_BOOLEAN)
    return "a boolean";
  return "a string";
}

static gboolean
get_string (Ctx         *ctx,
            JsonNode    *node,
            const char  *path,
            const char **out)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING
      || is_big (node))
    return fail (ctx, path, "expected a string, got %s", node_kind (node));
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_name (Ctx         *ctx,
          JsonNode    *node,
          const char  *path,
          const char **out)
{
  if (!get_string (ctx, node, path, out))
    return FALSE;
  if (**out == '\0')
    return fail (ctx, path, "must not be empty");
  return TRUE;
}

static gboolean
get_object (Ctx         *ctx,
            JsonNode    *node,
            const char  *path,
            JsonObject **out)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (ctx, path, "expected an object, got %s", node_kind (node));
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
get_array (Ctx        *ctx,
           JsonNode   *node,
           const char *path,
           JsonArray **out)
{
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (ctx, path, "expected an array, got %s", node_kind (node));
  *out = json_node_get_array (node);
  return TRUE;
}

/* Refuses keys not in @allowed (NULL-terminated), and keys given twice. */
static gboolean
check_keys (Ctx               *ctx,
            JsonObject        *object,
            const char        *path,
            const char *const *allowed)
{
  g_autoptr(GList) members = json_object_get_members (object);

  if (object == ctx->dup_object)
    {
      g_autofree char *where = member_path (path, ctx->dup_name);
      return fail (ctx, where, "given twice (again on line %u)", ctx->dup_line);
    }

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;

      if (!g_strv_contains (allowed, key))
        {
          g_autofree char *where = member_path (path, key);
          g_autofree char *list = g_strjoinv ("', '", (char **) allowed);
          return fail (ctx, where, "unknown key (expected '%s')", list);
        }
    }
  return TRUE;
}

/* 0: ok, 1: not an integer, 2: outside [-2^63, 2^64 - 1] */
static int
parse_int_text (const char *text,
                IntVal     *out)
{
  const char *p = text;
  gboolean neg = FALSE;
  guint base = 10;
  char *end;
  guint64 v;

  if (*p == '-' || *p == '+')
    neg = *p++ == '-';
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      base = 16;
      p += 2;
    }
  /* strtoull would take spaces and a second sign */
  if (base == 16 ? !g_ascii_isxdigit (*p) : !g_ascii_isdigit (*p))
    return 1;
  errno = 0;
  v = g_ascii_strtoull (p, &end, base);
  if (*end != '\0')
    return 1;
  if (errno == ERANGE || (neg && v > (G_GUINT64_CONSTANT (1) << 63)))
    return 2;
  out->neg = neg && v != 0;
  out->mag = v;
  return 0;
}

/* An integer from a JSON number, or from a string when @strings_ok */
static gboolean
get_int (Ctx        *ctx,
         JsonNode   *node,
         const char *path,
         gboolean    strings_ok,
         IntVal     *out)
{
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  if (type == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);

      out->neg = v < 0;
      out->mag = v < 0 ? 0 - (uint64_t) v : (uint64_t) v;
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (!isfinite (d) || d != floor (d))
        return fail (ctx, path, "expected an integer, got %g", d);
      if (d >= 18446744073709551616.0 || d < -9223372036854775808.0)
        return fail (ctx, path, "%g does not fit in 64 bits", d);
      out->neg = d < 0;
      out->mag = (uint64_t) fabs (d);
      return TRUE;
    }
  if (type == G_TYPE_STRING && (strings_ok || is_big (node)))
    {
      const char *s = json_node_get_string (node);
      const char *text = s[0] == BIG_MARK ? s + 1 : s;

      switch (parse_int_text (text, out))
        {
        case 0:
          return TRUE;
        case 2:
          return fail (ctx, path, "%s does not fit in 64 bits", text);
        default:
          return fail (ctx, path, "'%s' is not an integer (decimal, or hex with 0x)", text);
        }
    }
  return fail (ctx, path, "expected an integer, got %s", node_kind (node));
}

/* A number written as a string ("0.1", "1e30"), which a writer may use
 * where a JSON number would not print back as written */
static gboolean
number_text (const char *s,
             double     *out)
{
  char *end;

  if (!(g_ascii_isdigit (s[0]) || ((s[0] == '-' || s[0] == '+' || s[0] == '.') && s[1] != '\0')))
    return FALSE;
  *out = g_ascii_strtod (s, &end);
  return *end == '\0' && end != s;
}

static gboolean
get_double (Ctx        *ctx,
            JsonNode   *node,
            const char *path,
            double     *out)
{
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  if (type == G_TYPE_INT64)
    {
      *out = (double) json_node_get_int (node);
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  if (type == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);

      if (s[0] == BIG_MARK)
        {
          IntVal v;

          if (strchr (s, 'x') == NULL && strchr (s, 'X') == NULL)
            {
              *out = g_ascii_strtod (s + 1, NULL);
              return TRUE;
            }
          if (parse_int_text (s + 1, &v) != 0)
            return fail (ctx, path, "%s does not fit in 64 bits", s + 1);
          *out = v.neg ? -(double) v.mag : (double) v.mag;
          return TRUE;
        }
      /* JSON has no spelling for these */
      if (g_ascii_strcasecmp (s, "inf") == 0 || g_ascii_strcasecmp (s, "+inf") == 0)
        *out = INFINITY;
      else if (g_ascii_strcasecmp (s, "-inf") == 0)
        *out = -INFINITY;
      else if (g_ascii_strcasecmp (s, "nan") == 0)
        *out = NAN;
      else if (!number_text (s, out))
        return fail (ctx, path, "expected a number (or \"inf\", \"-inf\", \"nan\"), got '%s'", s);
      return TRUE;
    }
  return fail (ctx, path, "expected a number, got %s", node_kind (node));
}

static gboolean
get_finite (Ctx        *ctx,
            JsonNode   *node,
            const char *path,
            double     *out)
{
  if (!get_double (ctx, node, path, out))
    return FALSE;
  if (!isfinite (*out))
    return fail (ctx, path, "must be finite");
  return TRUE;
}

static gboolean
type_kind (KsPtxType type,
           Kind     *kind)
{
  switch (type)
    {
    case KS_PTX_TYPE_B8: case KS_PTX_TYPE_B16: case KS_PTX_TYPE_B32: case KS_PTX_TYPE_B64:
      *kind = KIND_BITS;
      return TRUE;
    case KS_PTX_TYPE_U8: case KS_PTX_TYPE_U16: case KS_PTX_TYPE_U32: case KS_PTX_TYPE_U64:
      *kind = KIND_UINT;
      return TRUE;
    case KS_PTX_TYPE_S8: case KS_PTX_TYPE_S16: case KS_PTX_TYPE_S32: case KS_PTX_TYPE_S64:
      *kind = KIND_SINT;
      return TRUE;
    case KS_PTX_TYPE_F16: case KS_PTX_TYPE_BF16: case KS_PTX_TYPE_F32: case KS_PTX_TYPE_F64:
      *kind = KIND_FLOAT;
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
get_type (Ctx        *ctx,
          JsonNode   *node,
          const char *path,
          KsPtxType  *type,
          Kind       *kind)
{
  const char *name;

  if (!get_string (ctx, node, path, &name))
    return FALSE;
  *type = ks_ptx_type_from_name (name, strlen (name));
  if (*type == KS_PTX_TYPE_NONE)
    return fail (ctx, path, "unknown type '%s'", name);
  if (!type_kind (*type, kind))
    return fail (ctx, path, "type '%s' cannot be used here "
                 "(b8-b64, u8-u64, s8-s64, f16, bf16, f32 or f64)", name);
  return TRUE;
}

static int
int_cmp (IntVal a,
         IntVal b)
{
  if (a.neg != b.neg)
    return a.neg ? -1 : 1;
  if (a.mag == b.mag)
    return 0;
  return (a.mag < b.mag) != a.neg ? -1 : 1;
}

static char *
int_to_string (IntVal v)
{
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT, v.neg ? "-" : "", v.mag);
}

static uint64_t
type_mask (uint32_t esize)
{
  return esize >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (8 * esize)) - 1;
}

static void
int_limits (Kind      kind,
            uint32_t  esize,
            IntVal   *lo,
            IntVal   *hi)
{
  uint64_t mask = type_mask (esize);

  lo->neg = kind != KIND_UINT;
  lo->mag = kind == KIND_UINT ? 0 : (mask >> 1) + 1;
  hi->neg = FALSE;
  hi->mag = kind == KIND_SINT ? mask >> 1 : mask;
}

/* The two's complement bits of @v as an element of @type */
static gboolean
int_bits (Ctx        *ctx,
          const char *path,
          IntVal      v,
          KsPtxType   type,
          Kind        kind,
          uint64_t   *bits)
{
  uint32_t esize = ks_ptx_type_size (type);
  IntVal lo, hi;

  int_limits (kind, esize, &lo, &hi);
  if (int_cmp (v, lo) < 0 || int_cmp (v, hi) > 0)
    {
      g_autofree char *s = NULL, *slo = NULL, *shi = NULL;

      if (ctx->error == NULL)
        return FALSE;
      s = int_to_string (v);
      slo = int_to_string (lo);
      shi = int_to_string (hi);
      return fail (ctx, path, "%s is out of range for %s (%s..%s)",
                   s, ks_ptx_type_name (type), slo, shi);
    }
  *bits = (v.neg ? 0 - v.mag : v.mag) & type_mask (esize);
  return TRUE;
}

/* a + b * k, or FALSE when it leaves [-2^64, 2^64) (then it is out of
 * every type's range anyway) */
static gboolean
int_add_mul (IntVal    a,
             IntVal    b,
             uint64_t  k,
             IntVal   *out)
{
  IntVal p;

  if (!g_uint64_checked_mul (&p.mag, b.mag, k))
    return FALSE;
  p.neg = b.neg && p.mag != 0;
  if (a.neg == p.neg)
    {
      out->neg = a.neg;
      return g_uint64_checked_add (&out->mag, a.mag, p.mag);
    }
  if (a.mag >= p.mag)
    *out = (IntVal) { a.neg && a.mag != p.mag, a.mag - p.mag };
  else
    *out = (IntVal) { p.neg, p.mag - a.mag };
  return TRUE;
}

/* Half-precision values go through the simulator's own conversions, so a
 * launch spec's 0.1 becomes the same bits as cvt.rn.f16.f64 makes. */
static uint64_t
cvt_double (KsPtxType dst,
            KsPtxType src,
            uint64_t  bits)
{
  return ks_cvt (dst, src, bits, KS_PTX_ROUND_RN, 0);
}

uint16_t
ks_launch_f16_from_double (double value)
{
  return (uint16_t) cvt_double (KS_PTX_TYPE_F16, KS_PTX_TYPE_F64, ks_f64_to_bits (value));
}

uint16_t
ks_launch_bf16_from_double (double value)
{
  return (uint16_t) cvt_double (KS_PTX_TYPE_BF16, KS_PTX_TYPE_F64, ks_f64_to_bits (value));
}

double
ks_launch_f16_to_double (uint16_t bits)
{
  return ks_f64_from_bits (cvt_double (KS_PTX_TYPE_F64, KS_PTX_TYPE_F16, bits));
}

double
ks_launch_bf16_to_double (uint16_t bits)
{
  return ks_f64_from_bits (cvt_double (KS_PTX_TYPE_F64, KS_PTX_TYPE_BF16, bits));
}

static uint64_t
float_bits (KsPtxType type,
            double    value)
{
  switch (type)
    {
    case KS_PTX_TYPE_F16:
      return ks_launch_f16_from_double (value);
    case KS_PTX_TYPE_BF16:
      return ks_launch_bf16_from_double (value);
    case KS_PTX_TYPE_F32:
      {
        float f;
        uint32_t u;

        /* Out-of-range conversion is undefined in C; round as IEEE does:
         * past the midpoint between FLT_MAX and 2^128 it is infinity. */
        if (isfinite (value) && fabs (value) > FLT_MAX)
          f = fabs (value) >= 0x1.ffffffp+127 ? INFINITY : FLT_MAX;
        else
          f = (float) fabs (value);
        if (signbit (value))
          f = -f;
        memcpy (&u, &f, sizeof u);
        return u;
      }
    case KS_PTX_TYPE_F64:
    default:
      {
        uint64_t u;

        memcpy (&u, &value, sizeof u);
        return u;
      }
    }
}

static double
float_value (KsPtxType type,
             uint64_t  bits)
{
  switch (type)
    {
    case KS_PTX_TYPE_F16:
      return ks_launch_f16_to_double ((uint16_t) bits);
    case KS_PTX_TYPE_BF16:
      return ks_launch_bf16_to_double ((uint16_t) bits);
    case KS_PTX_TYPE_F32:
      {
        uint32_t u = (uint32_t) bits;
        float f;

        memcpy (&f, &u, sizeof f);
        return f;
      }
    case KS_PTX_TYPE_F64:
    default:
      {
        double d;

        memcpy (&d, &bits, sizeof d);
        return d;
      }
    }
}

/* The neighbouring value of an IEEE format @esize bytes wide */
static uint64_t
float_step (uint64_t bits,
            uint32_t esize,
            gboolean up)
{
  uint64_t sign = G_GUINT64_CONSTANT (1) << (8 * esize - 1);
  gboolean neg = (bits & sign) != 0;

  if ((bits & ~sign) == 0)
    return up ? 1 : sign | 1;
  return neg == up ? bits - 1 : bits + 1;
}

static gboolean
value_bits (Ctx        *ctx,
            JsonNode   *node,
            const char *path,
            KsPtxType   type,
            Kind        kind,
            uint64_t   *bits)
{
  if (kind == KIND_FLOAT)
    {
      double d;

      if (!get_double (ctx, node, path, &d))
        return FALSE;
      *bits = float_bits (type, d);
      return TRUE;
    }
  else
    {
      IntVal v;

      return get_int (ctx, node, path, TRUE, &v) && int_bits (ctx, path, v, type, kind, bits);
    }
}

static inline void
store (uint8_t  *dst,
       uint32_t  esize,
       uint64_t  bits)
{
  for (uint32_t k = 0; k < esize; k++)
    dst[k] = (uint8_t) (bits >> (8 * k));
}

static inline uint64_t
splitmix64 (uint64_t seed,
            uint64_t index)
{
  uint64_t z = seed + (index + 1) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static int
hex_digit (char c)
{
  return g_ascii_xdigit_value (c);
}

static gboolean
parse_init (Ctx        *ctx,
            JsonNode   *node,
            BufSpec    *b)
{
  static const char *const init_keys[] = { "random", "range", NULL };
  static const char *const random_keys[] = { "seed", "min", "max", NULL };
  static const char *const range_keys[] = { "start", "step", NULL };
  g_autofree char *path = member_path (b->path, "init");
  g_autofree char *sub = NULL;
  JsonObject *init = NULL, *o = NULL;
  const char *which;
  JsonNode *a, *z;

  if (!get_object (ctx, node, path, &init) || !check_keys (ctx, init, path, init_keys))
    return FALSE;
  if (json_object_get_size (init) != 1)
    return fail (ctx, path, "expected exactly one of {\"random\": {...}} or {\"range\": {...}}");
  which = json_object_has_member (init, "random") ? "random" : "range";
  sub = member_path (path, which);
  if (!get_object (ctx, json_object_get_member (init, which), sub, &o))
    return FALSE;

  if (strcmp (which, "random") == 0)
    {
      g_autofree char *pmin = member_path (sub, "min");
      g_autofree char *pmax = member_path (sub, "max");
      JsonNode *seed;

      if (!check_keys (ctx, o, sub, random_keys))
        return FALSE;
      b->init = INIT_RANDOM;
      if ((seed = json_object_get_member (o, "seed")) != NULL)
        {
          g_autofree char *pseed = member_path (sub, "seed");
          IntVal s;

          if (!get_int (ctx, seed, pseed, TRUE, &s))
            return FALSE;
          if (s.neg)
            return fail (ctx, pseed, "must not be negative");
          b->seed = s.mag;
        }
      if ((a = json_object_get_member (o, "min")) == NULL)
        return fail (ctx, pmin, "missing");
      if ((z = json_object_get_member (o, "max")) == NULL)
        return fail (ctx, pmax, "missing");

      if (b->kind == KIND_FLOAT)
        {
          uint64_t lo;

          if (!get_finite (ctx, a, pmin, &b->fa) || !get_finite (ctx, z, pmax, &b->fb))
            return FALSE;
          if (!(b->fa < b->fb))
            return fail (ctx, sub, "min (%g) must be less than max (%g)", b->fa, b->fb);
          if (!isfinite (b->fb - b->fa))
            return fail (ctx, sub, "max - min does not fit in a double");
          lo = float_bits (b->type, b->fa);
          if (float_value (b->type, lo) < b->fa)
            lo = float_step (lo, b->esize, TRUE);
          if (!(float_value (b->type, lo) < b->fb))
            return fail (ctx, sub, "no %s value lies in [%g, %g)",
                         ks_ptx_type_name (b->type), b->fa, b->fb);
        }
      else
        {
          uint64_t unused;

          if (!get_int (ctx, a, pmin, TRUE, &b->ia)
              || !int_bits (ctx, pmin, b->ia, b->type, b->kind, &unused)
              || !get_int (ctx, z, pmax, TRUE, &b->ib)
              || !int_bits (ctx, pmax, b->ib, b->type, b->kind, &unused))
            return FALSE;
          if (int_cmp (b->ia, b->ib) > 0)
            {
              g_autofree char *smin = int_to_string (b->ia), *smax = int_to_string (b->ib);
              return fail (ctx, sub, "min (%s) is greater than max (%s)", smin, smax);
            }
        }
    }
  else
    {
      g_autofree char *pstart = member_path (sub, "start");
      g_autofree char *pstep = member_path (sub, "step");

      if (!check_keys (ctx, o, sub, range_keys))
        return FALSE;
      b->init = INIT_RANGE;
      a = json_object_get_member (o, "start");
      z = json_object_get_member (o, "step");
      if (b->kind == KIND_FLOAT)
        {
          b->fa = 0;
          b->fb = 1;
          if ((a && !get_finite (ctx, a, pstart, &b->fa))
              || (z && !get_finite (ctx, z, pstep, &b->fb)))
            return FALSE;
        }
      else
        {
          uint64_t unused;

          b->ia = (IntVal) { FALSE, 0 };
          b->ib = (IntVal) { FALSE, 1 };
          if ((a && !get_int (ctx, a, pstart, TRUE, &b->ia))
              || !int_bits (ctx, pstart, b->ia, b->type, b->kind, &unused)
              || (z && !get_int (ctx, z, pstep, TRUE, &b->ib)))
            return FALSE;
        }
    }
  return TRUE;
}

static char *resolve_path (const char *spec_path,
                           const char *path);

/* A buffer's "variable": a name no other buffer of the launch gives
 * (the simulator finds the variable, knowing the module) */
static gboolean
parse_buffer_variable (Ctx        *ctx,
                       KsLaunch   *launch,
                       uint32_t    index,
                       JsonNode   *node,
                       BufSpec    *b)
{
  g_autofree char *path = member_path (b->path, "variable");
  JsonNode *n = json_object_get_member (json_node_get_object (node), "variable");
  const char *name;

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING
      || *(name = json_node_get_string (n)) == '\0')
    return fail (ctx, path, "must be the name of a .global or .const variable of the module");
  for (uint32_t i = 0; i < index; i++)
    if (launch->buffers[i].variable != NULL && strcmp (launch->buffers[i].variable, name) == 0)
      return fail (ctx, path, "buffer '%s' is already the storage of %s",
                   launch->buffers[i].name, name);
  launch->buffers[index].variable = g_strdup (name);
  return TRUE;
}

/* Reads everything about a buffer but its values, which materialize()
 * checks as it writes them. */
static gboolean
parse_buffer (Ctx        *ctx,
              const char *name,
              JsonNode   *node,
              BufSpec    *b)
{
  static const char *const keys[] = { "type", "count", "init", "data", "bytes_hex",
                                      "bytes_file", NULL };
  static const char *const buffer_keys[] = { "type", "count", "init", "data", "bytes_hex",
                                             "bytes_file", "address", "variable", NULL };
  g_autofree char *ptype = NULL, *pcount = NULL, *pdata = NULL, *phex = NULL, *pfile = NULL;
  JsonObject *o = NULL;
  JsonNode *n_type, *n_count, *n_init, *n_data, *n_hex, *n_file, *n_address;
  uint64_t given = 0;           /* values written in data or bytes_hex */
  gboolean has_count = FALSE;

  if (!get_object (ctx, node, b->path, &o)
      || !check_keys (ctx, o, b->path, b->is_buffer ? buffer_keys : keys))
    return FALSE;
  ptype = member_path (b->path, "type");
  pcount = member_path (b->path, "count");
  pdata = member_path (b->path, "data");
  phex = member_path (b->path, "bytes_hex");
  pfile = member_path (b->path, "bytes_file");
  n_type = json_object_get_member (o, "type");
  n_count = json_object_get_member (o, "count");
  n_init = json_object_get_member (o, "init");
  n_data = json_object_get_member (o, "data");
  n_hex = json_object_get_member (o, "bytes_hex");
  n_file = json_object_get_member (o, "bytes_file");
  n_address = json_object_get_member (o, "address");

  if ((n_init != NULL) + (n_data != NULL) + (n_hex != NULL) + (n_file != NULL) > 1)
    return fail (ctx, b->path, "give only one of 'init', 'data', 'bytes_hex' and 'bytes_file'");

  if (n_address != NULL)
    {
      g_autofree char *paddr = member_path (b->path, "address");
      IntVal a;

      if (!get_int (ctx, n_address, paddr, TRUE, &a))
        return FALSE;
      /* (16: what malloc gives the host memory a program registers, and
       * the widest access) */
      if (a.neg || a.mag < KS_LAUNCH_MIN_ADDRESS || a.mag % 16 != 0
          || a.mag >= G_GUINT64_CONSTANT (1) << 56)
        return fail (ctx, paddr, "must be a multiple of 16 from 0x%" G_GINT64_MODIFIER "x "
                     "below 2^56 (the simulator keeps its own windows below it)",
                     KS_LAUNCH_MIN_ADDRESS);
      b->address = a.mag;
    }

  if (n_type != NULL)
    {
      if (!get_type (ctx, n_type, ptype, &b->type, &b->kind))
        return FALSE;
    }
  else if (n_hex != NULL || n_file != NULL)
    {
      b->type = KS_PTX_TYPE_B8;
      b->kind = KIND_BITS;
    }
  else if (b->default_type != KS_PTX_TYPE_NONE)
    {
      b->type = b->default_type;
      if (!type_kind (b->type, &b->kind))
        return fail (ctx, ptype, "missing, and the variable's type %s cannot be filled: give one",
                     ks_ptx_type_name (b->type));
    }
  else
    return fail (ctx, ptype, "missing");
  b->esize = ks_ptx_type_size (b->type);

  if (n_count != NULL)
    {
      IntVal c;

      if (!get_int (ctx, n_count, pcount, FALSE, &c))
        return FALSE;
      if (c.neg || c.mag == 0)
        return fail (ctx, pcount, "must be at least 1");
      b->count = c.mag;
      has_count = TRUE;
    }

  if (n_data != NULL)
    {
      if (!get_array (ctx, n_data, pdata, &b->data))
        return FALSE;
      b->init = INIT_DATA;
      b->lifted = ks_json_lift_find (ctx->lift, b->data);
      given = b->lifted != NULL ? b->lifted->n_elements : json_array_get_length (b->data);
      if (given == 0 && !has_count)
        return fail (ctx, pdata, "empty (give values, or a count for zeros)");
    }
  else if (n_hex != NULL)
    {
      size_t len;

      if (!get_string (ctx, n_hex, phex, &b->hex))
        return FALSE;
      len = strlen (b->hex);
      for (size_t i = 0; i < len; i++)
        if (hex_digit (b->hex[i]) < 0)
          return fail (ctx, phex, "'%c' at offset %zu is not a hex digit", b->hex[i], i);
      if (len % 2 != 0)
        return fail (ctx, phex, "odd number of hex digits (%zu)", len);
      if ((len / 2) % b->esize != 0)
        return fail (ctx, phex, "%zu bytes is not a whole number of %s elements",
                     len / 2, ks_ptx_type_name (b->type));
      b->init = INIT_HEX;
      given = len / 2 / b->esize;
      if (given == 0 && !has_count)
        return fail (ctx, phex, "empty (give bytes, or a count for zeros)");
    }
  else if (n_file != NULL)
    {
      g_autoptr(GError) local = NULL;
      g_autofree char *path = NULL, *contents = NULL;
      const char *file_name;
      gsize len = 0;

      if (!get_string (ctx, n_file, pfile, &file_name))
        return FALSE;
      path = resolve_path (ctx->spec_path, file_name);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        return fail (ctx, pfile, "%s is a folder", path);
      if (!g_file_get_contents (path, &contents, &len, &local))
        return fail (ctx, pfile, "%s", local->message);
      if (len % b->esize != 0)
        return fail (ctx, pfile, "%s: %zu bytes is not a whole number of %s elements",
                     path, (size_t) len, ks_ptx_type_name (b->type));
      b->file = g_bytes_new_take (g_steal_pointer (&contents), len);
      b->init = INIT_FILE;
      given = len / b->esize;
      if (given == 0 && !has_count)
        return fail (ctx, pfile, "%s is empty (give bytes, or a count for zeros)", path);
    }
  else if (n_init != NULL)
    {
      if (!parse_init (ctx, n_init, b))
        return FALSE;
    }

  if (!has_count)
    {
      if (b->init == INIT_DATA || b->init == INIT_HEX || b->init == INIT_FILE)
        b->count = given;
      else if (b->default_bytes >= b->esize)
        b->count = b->default_bytes / b->esize;
      else
        return fail (ctx, pcount, "missing");
    }
  else if (b->count < given)
    return fail (ctx, pcount, "%" G_GUINT64_FORMAT " is less than the %" G_GUINT64_FORMAT
                 " values given in '%s'", b->count, given,
                 n_data ? "data" : n_hex ? "bytes_hex" : "bytes_file");

  if (b->count > MAX_BUFFER_BYTES / b->esize)
    return fail (ctx, pcount,
                 "%" G_GUINT64_FORMAT " %s elements are over the 4 GiB a buffer may hold",
                 b->count, ks_ptx_type_name (b->type));

  if (b->init == INIT_RANGE && b->kind != KIND_FLOAT)
    {
      g_autofree char *prange = g_strconcat (b->path, ".init.range", NULL);
      IntVal last, lo, hi;
      gboolean fits = int_add_mul (b->ia, b->ib, b->count - 1, &last);

      /* The values go one way, so the first (checked) and the last bound them */
      int_limits (b->kind, b->esize, &lo, &hi);
      if (!fits || int_cmp (last, lo) < 0 || int_cmp (last, hi) > 0)
        {
          g_autofree char *s = fits ? int_to_string (last) : g_strdup ("beyond 64 bits");

          return fail (ctx, prange,
                       "element %" G_GUINT64_FORMAT " would be %s, out of range for %s",
                       b->count - 1, s, ks_ptx_type_name (b->type));
        }
    }
  return TRUE;
}

/* The recipe of a buffer made of zeros, a range or random values */
static void
fill_of (const BufSpec *b,
         KsLaunchFill  *f)
{
  memset (f, 0, sizeof *f);
  f->kind = b->init == INIT_RANGE ? KS_LAUNCH_FILL_RANGE
            : b->init == INIT_RANDOM ? KS_LAUNCH_FILL_RANDOM
            : b->init == INIT_ZERO ? KS_LAUNCH_FILL_ZERO : KS_LAUNCH_FILL_BYTES;
  f->is_float = b->kind == KIND_FLOAT;
  f->seed = b->seed;
  f->ia = b->ia.neg ? 0 - b->ia.mag : b->ia.mag;
  f->ib = b->ib.neg ? 0 - b->ib.mag : b->ib.mag;
  f->fa = b->fa;
  f->fb = b->fb;
}

/* count elements of type made as f says, at data */
static void
generate (const KsLaunchFill *f,
          KsPtxType           type,
          uint64_t            count,
          uint8_t            *data)
{
  uint32_t esize = ks_ptx_type_size (type);

  switch (f->kind)
    {
    case KS_LAUNCH_FILL_ZERO:
      memset (data, 0, count * esize);
      break;

    case KS_LAUNCH_FILL_RANGE:
      if (f->is_float)
        for (uint64_t i = 0; i < count; i++)
          store (data + i * esize, esize, float_bits (type, f->fa + (double) i * f->fb));
      else
        /* Every element is in range (parse_buffer checked the last one), so
         * arithmetic modulo 2^64 gives their bits. */
        for (uint64_t i = 0; i < count; i++)
          store (data + i * esize, esize, f->ia + i * f->ib);
      break;

    case KS_LAUNCH_FILL_RANDOM:
      if (f->is_float)
        for (uint64_t i = 0; i < count; i++)
          {
            double u = (double) (splitmix64 (f->seed, i) >> 11) * 0x1.0p-53;
            uint64_t bits = float_bits (type, f->fa + (f->fb - f->fa) * u);
            double x = float_value (type, bits);

            if (x >= f->fb)
              bits = float_step (bits, esize, FALSE);
            else if (x < f->fa)
              bits = float_step (bits, esize, TRUE);
            store (data + i * esize, esize, bits);
          }
      else
        {
          uint64_t span = f->ib - f->ia + 1;    /* 0: all 2^64 values */

          for (uint64_t i = 0; i < count; i++)
            {
              uint64_t z = splitmix64 (f->seed, i);

              store (data + i * esize, esize, span == 0 ? z : f->ia + z % span);
            }
        }
      break;

    default:
      g_assert_not_reached ();
    }
}

void
ks_launch_buffer_fill (const KsLaunchBuffer *b,
                       uint8_t              *dest,
                       gboolean              dest_zeroed)
{
  g_return_if_fail (b != NULL && (dest != NULL || b->size == 0));

  if (b->size == 0)
    return;
  if (b->fill.kind == KS_LAUNCH_FILL_BYTES)
    memcpy (dest, b->data, b->size);
  else if (b->fill.kind != KS_LAUNCH_FILL_ZERO || !dest_zeroed)
    generate (&b->fill, b->type, b->count, dest);
}

uint8_t *
ks_launch_buffer_dup (const KsLaunchBuffer *b)
{
  uint8_t *data = g_try_malloc0 (MAX (b->size, 1));

  if (data != NULL)
    ks_launch_buffer_fill (b, data, TRUE);
  return data;
}

gboolean
ks_launch_materialize (KsLaunch *launch)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (launch != NULL, FALSE);
  for (uint32_t i = 0; i < launch->n_buffers; i++)
    {
      KsLaunchBuffer *b = &launch->buffers[i];
      uint8_t *data;

      if (b->fill.kind == KS_LAUNCH_FILL_BYTES)
        continue;
      if ((data = ks_launch_buffer_dup (b)) == NULL)
        {
          ok = FALSE;
          continue;
        }
      b->data = data;
      memset (&b->fill, 0, sizeof b->fill);
    }
  return ok;
}

gpointer
ks_launch_lifted_value (gpointer    scratch,
                        const char *token,
                        size_t      len)
{
  JsonNode *node = scratch;
  char buf[KS_JSON_LIFT_MAX_TOKEN + 2];
  IntVal v;

  g_assert (len <= KS_JSON_LIFT_MAX_TOKEN);
  if (token[0] == '"')
    {
      memcpy (buf, token + 1, len - 2);
      buf[len - 2] = '\0';
      json_node_set_string (node, buf);
      return node;
    }
  buf[0] = BIG_MARK;
  memcpy (buf + 1, token, len);
  buf[len + 1] = '\0';
  if (memchr (token, '.', len) != NULL || memchr (token, 'e', len) != NULL
      || memchr (token, 'E', len) != NULL)
    json_node_set_double (node, g_ascii_strtod (buf + 1, NULL));
  else if (parse_int_text (buf + 1, &v) == 0 && v.mag <= (uint64_t) G_MAXINT64 + v.neg)
    json_node_set_int (node, v.neg ? -(gint64) (v.mag - 1) - 1 : (gint64) v.mag);
  else
    json_node_set_string (node, buf);
  return node;
}

/* A lifted array as json-glib would have read it, for a node kept past
 * the parse */
static JsonArray *
lifted_array (const char         *text,
              const KsJsonLifted *lifted)
{
  JsonArray *array = json_array_sized_new ((guint) lifted->n_elements);
  const char *token;
  gsize pos = 0, token_len;

  while (ks_json_lifted_next (text, lifted, &pos, &token, &token_len))
    json_array_add_element (array, ks_launch_lifted_value (json_node_new (JSON_NODE_VALUE),
                                                           token, token_len));
  return array;
}

static gboolean
materialize_into (Ctx            *ctx,
                  const BufSpec  *b,
                  KsLaunchBuffer *out)
{
  uint8_t *data;

  out->size = (size_t) (b->count * b->esize);
  out->data = data = g_try_malloc0 (out->size);
  if (data == NULL)
    {
      g_autofree char *size = g_format_size_full (out->size, G_FORMAT_SIZE_IEC_UNITS);
      return fail (ctx, b->path, "cannot allocate %s", size);
    }

  switch (b->init)
    {
    case INIT_ZERO:
      break;

    case INIT_DATA:
      {
        Ctx quiet = *ctx;
        guint n = b->lifted != NULL ? (guint) b->lifted->n_elements
                                    : json_array_get_length (b->data);
        g_autoptr(JsonNode) scratch = b->lifted != NULL ? json_node_new (JSON_NODE_VALUE) : NULL;
        gsize pos = 0;

        /* Paths are only built for the value that is wrong */
        quiet.error = NULL;
        for (guint i = 0; i < n; i++)
          {
            JsonNode *node;
            uint64_t bits;

            if (b->lifted != NULL)
              {
                const char *token;
                gsize token_len;

                if (!ks_json_lifted_next (ctx->text, b->lifted, &pos, &token, &token_len))
                  g_assert_not_reached ();
                node = ks_launch_lifted_value (scratch, token, token_len);
              }
            else
              node = json_array_get_element (b->data, i);
            if (!value_bits (&quiet, node, NULL, b->type, b->kind, &bits))
              {
                g_autofree char *pdata = member_path (b->path, "data");
                g_autofree char *path = index_path (pdata, i);
                return value_bits (ctx, node, path, b->type, b->kind, &bits);
              }
            store (data + (size_t) i * b->esize, b->esize, bits);
          }
      }
      break;

    case INIT_HEX:
      for (size_t i = 0; b->hex[2 * i] != '\0'; i++)
        data[i] = (uint8_t) (hex_digit (b->hex[2 * i]) << 4 | hex_digit (b->hex[2 * i + 1]));
      break;

    case INIT_FILE:
      {
        gsize len;
        const void *bytes = g_bytes_get_data (b->file, &len);

        if (len > 0)
          memcpy (data, bytes, len);
      }
      break;

    case INIT_RANGE:
    case INIT_RANDOM:
      {
        KsLaunchFill f;

        fill_of (b, &f);
        generate (&f, b->type, b->count, data);
      }
      break;

    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* Fills out->data (and size) as b says; on a refused value, out->data is
 * freed and NULL, so callers own nothing after a failure. */
static gboolean
materialize (Ctx            *ctx,
             const BufSpec  *b,
             KsLaunchBuffer *out)
{
  if (materialize_into (ctx, b, out))
    return TRUE;
  g_clear_pointer (&out->data, g_free);
  out->size = 0;
  return FALSE;
}

/* A launch buffer as b says: its bytes for "data" and "bytes_hex", the
 * recipe for the others (made when the simulator allocates it) */
static gboolean
describe (Ctx            *ctx,
          const BufSpec  *b,
          KsLaunchBuffer *out)
{
  out->address = b->address;
  if (b->init == INIT_DATA || b->init == INIT_HEX || b->init == INIT_FILE)
    {
      memset (&out->fill, 0, sizeof out->fill);
      return materialize (ctx, b, out);
    }
  out->size = (size_t) (b->count * b->esize);
  out->data = NULL;
  fill_of (b, &out->fill);
  return TRUE;
}

static gboolean
parse_dims (Ctx            *ctx,
            JsonObject     *root,
            const char     *prefix,
            const char     *name,
            const uint32_t  limits[3],
            uint32_t        out[3])
{
  JsonNode *node = json_object_get_member (root, name);
  g_autofree char *key = member_path (prefix, name);
  JsonArray *array = NULL;
  guint n;

  out[0] = out[1] = out[2] = 1;
  if (node == NULL)
    return fail (ctx, key, "missing (an array of 1 to 3 positive integers)");
  if (!get_array (ctx, node, key, &array))
    return FALSE;
  n = json_array_get_length (array);
  if (n < 1 || n > 3)
    return fail (ctx, key, "expected 1 to 3 dimensions, got %u", n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = index_path (key, i);
      IntVal v;

      if (!get_int (ctx, json_array_get_element (array, i), path, FALSE, &v))
        return FALSE;
      if (v.neg || v.mag == 0)
        return fail (ctx, path, "must be positive");
      if (v.mag > limits[i])
        return fail (ctx, path, "%" G_GUINT64_FORMAT " is over the limit of %u",
                     v.mag, limits[i]);
      out[i] = (uint32_t) v.mag;
    }
  return TRUE;
}

static char *
resolve_path (const char *spec_path,
              const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *abs_dir = NULL;

  if (spec_path == NULL)
    return g_canonicalize_filename (path, NULL);
  dir = g_path_get_dirname (spec_path);
  /* g_canonicalize_filename wants an absolute base */
  abs_dir = g_canonicalize_filename (dir, NULL);
  return g_canonicalize_filename (path, abs_dir);
}

/* ---- textures and surfaces ------------------------------------------------------------ */

static gboolean
get_bool (Ctx        *ctx,
          JsonNode   *node,
          const char *path,
          gboolean   *out)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fail (ctx, path, "expected true or false, got %s", node_kind (node));
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* One of @names (NULL-terminated): its index */
static gboolean
get_choice (Ctx               *ctx,
            JsonNode          *node,
            const char        *path,
            const char *const *names,
            guint             *out)
{
  const char *s;

  if (!get_string (ctx, node, path, &s))
    return FALSE;
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (s, names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  {
    g_autofree char *list = g_strjoinv ("', '", (char **) names);
    return fail (ctx, path, "unknown value '%s' (expected '%s')", s, list);
  }
}

/* An optional positive dimension of at most @limit */
static gboolean
get_extent (Ctx        *ctx,
            JsonObject *o,
            const char *parent,
            const char *key,
            uint32_t    limit,
            uint32_t   *out,
            gboolean   *given)
{
  g_autofree char *path = member_path (parent, key);
  JsonNode *n = json_object_get_member (o, key);
  IntVal v;

  *out = 1;
  *given = n != NULL;
  if (n == NULL)
    return TRUE;
  if (!get_int (ctx, n, path, FALSE, &v))
    return FALSE;
  if (v.neg || v.mag == 0)
    return fail (ctx, path, "must be positive");
  if (v.mag > limit)
    return fail (ctx, path, "%" G_GUINT64_FORMAT " is over the limit of %u", v.mag, limit);
  *out = (uint32_t) v.mag;
  return TRUE;
}

static gboolean
parse_format (Ctx             *ctx,
              JsonNode        *node,
              const char      *path,
              KsLaunchTexture *t)
{
  static const char *const keys[] = { "type", "channels", NULL };
  g_autofree char *ptype = member_path (path, "type");
  g_autofree char *pchan = member_path (path, "channels");
  JsonObject *o = NULL;
  JsonNode *n;
  Kind kind;

  if (!get_object (ctx, node, path, &o) || !check_keys (ctx, o, path, keys))
    return FALSE;
  if ((n = json_object_get_member (o, "type")) == NULL)
    return fail (ctx, ptype, "missing");
  if (!get_type (ctx, n, ptype, &t->format, &kind))
    return FALSE;
  switch (t->format)
    {
    case KS_PTX_TYPE_U8: case KS_PTX_TYPE_S8: case KS_PTX_TYPE_U16: case KS_PTX_TYPE_S16:
    case KS_PTX_TYPE_U32: case KS_PTX_TYPE_S32: case KS_PTX_TYPE_F16: case KS_PTX_TYPE_F32:
      break;
    default:
      return fail (ctx, ptype, "a texel holds u8, s8, u16, s16, u32, s32, f16 or f32, not %s",
                   ks_ptx_type_name (t->format));
    }
  t->channels = 1;
  if ((n = json_object_get_member (o, "channels")) != NULL)
    {
      IntVal v;

      if (!get_int (ctx, n, pchan, FALSE, &v))
        return FALSE;
      if (v.neg || (v.mag != 1 && v.mag != 2 && v.mag != 4))
        return fail (ctx, pchan, "must be 1, 2 or 4 (CUDA arrays have no 3-channel formats)");
      t->channels = (uint32_t) v.mag;
    }
  t->texel_size = t->channels * ks_ptx_type_size (t->format);
  return TRUE;
}

/* The sampler fields of a texture: filter, address, normalized_coords,
 * read_mode and border, checked against its format as CUDA checks them. */
static gboolean
parse_sampler (Ctx             *ctx,
               JsonObject      *o,
               const char      *path,
               KsLaunchTexture *t)
{
  static const char *const filters[] = { "point", "linear", NULL };
  static const char *const addresses[] = { "clamp", "wrap", "mirror", "border", NULL };
  static const char *const read_modes[] = { "element", "normalized_float", NULL };
  gboolean small_int = t->format == KS_PTX_TYPE_U8 || t->format == KS_PTX_TYPE_S8
                       || t->format == KS_PTX_TYPE_U16 || t->format == KS_PTX_TYPE_S16;
  gboolean float_format = t->format == KS_PTX_TYPE_F16 || t->format == KS_PTX_TYPE_F32;
  JsonNode *n;
  guint v;

  if ((n = json_object_get_member (o, "normalized_coords")) != NULL)
    {
      g_autofree char *pn = member_path (path, "normalized_coords");

      if (!get_bool (ctx, n, pn, &t->normalized_coords))
        return FALSE;
    }
  if ((n = json_object_get_member (o, "read_mode")) != NULL)
    {
      g_autofree char *pr = member_path (path, "read_mode");

      if (!get_choice (ctx, n, pr, read_modes, &v))
        return FALSE;
      t->normalized_float = v == 1;
      if (t->normalized_float && !small_int)
        return fail (ctx, pr, "'normalized_float' needs an 8- or 16-bit integer format, not %s",
                     ks_ptx_type_name (t->format));
    }
  if ((n = json_object_get_member (o, "filter")) != NULL)
    {
      g_autofree char *pf = member_path (path, "filter");

      if (!get_choice (ctx, n, pf, filters, &v))
        return FALSE;
      t->filter = (KsLaunchTexFilter) v;
      if (t->filter == KS_LAUNCH_TEX_LINEAR && !float_format && !t->normalized_float)
        return fail (ctx, pf, "'linear' filtering needs a float format (f16, f32) or "
                     "read_mode 'normalized_float'");
    }
  if ((n = json_object_get_member (o, "address")) != NULL)
    {
      g_autofree char *pa = member_path (path, "address");
      guint count = 1;

      if (JSON_NODE_HOLDS_ARRAY (n))
        {
          JsonArray *a = json_node_get_array (n);

          count = json_array_get_length (a);
          if (count < 1 || count > 3)
            return fail (ctx, pa, "expected 1 to 3 modes (one per dimension), got %u", count);
          for (guint i = 0; i < count; i++)
            {
              g_autofree char *pe = index_path (pa, i);

              if (!get_choice (ctx, json_array_get_element (a, i), pe, addresses, &v))
                return FALSE;
              t->address[i] = (KsLaunchTexAddress) v;
              if ((v == KS_LAUNCH_TEX_WRAP || v == KS_LAUNCH_TEX_MIRROR) && !t->normalized_coords)
                return fail (ctx, pe, "'%s' needs \"normalized_coords\": true, as in CUDA",
                             addresses[v]);
            }
        }
      else
        {
          if (!get_choice (ctx, n, pa, addresses, &v))
            return FALSE;
          t->address[0] = (KsLaunchTexAddress) v;
          if ((v == KS_LAUNCH_TEX_WRAP || v == KS_LAUNCH_TEX_MIRROR) && !t->normalized_coords)
            return fail (ctx, pa, "'%s' needs \"normalized_coords\": true, as in CUDA",
                         addresses[v]);
        }
      /* the dimensions not given repeat the last mode */
      for (guint i = count; i < 3; i++)
        t->address[i] = t->address[count - 1];
    }
  if ((n = json_object_get_member (o, "border")) != NULL)
    {
      g_autofree char *pb = member_path (path, "border");
      gboolean ints = !float_format && !t->normalized_float;
      JsonArray *a = NULL;
      guint count;

      if (!get_array (ctx, n, pb, &a))
        return FALSE;
      count = json_array_get_length (a);
      if (count < 1 || count > 4)
        return fail (ctx, pb, "expected 1 to 4 values (one per channel), got %u", count);
      for (guint i = 0; i < count; i++)
        {
          g_autofree char *pe = index_path (pb, i);
          double d;

          if (!get_finite (ctx, json_array_get_element (a, i), pe, &d))
            return FALSE;
          if (ints && (d != floor (d) || d < -2147483648.0 || d > 4294967295.0))
            return fail (ctx, pe, "an integer texture read as elements has integer border "
                         "values (32 bits), not %g", d);
          if (!ints && fabs (d) > FLT_MAX)
            return fail (ctx, pe, "%g is outside the f32 range", d);
          t->border[i] = d;
        }
    }
  return TRUE;
}

/* "offset" and "pitch": where the texels are in the buffer */
static gboolean
get_placement (Ctx             *ctx,
               JsonObject      *o,
               const char      *path,
               KsLaunchTexture *t)
{
  JsonNode *n;
  IntVal v;

  if ((n = json_object_get_member (o, "offset")) != NULL)
    {
      g_autofree char *p = member_path (path, "offset");

      if (!get_int (ctx, n, p, TRUE, &v))
        return FALSE;
      if (v.neg || v.mag % t->texel_size != 0 || v.mag > G_GUINT64_CONSTANT (1) << 40)
        return fail (ctx, p, "must be a multiple of the texel size, %u bytes, from 0",
                     t->texel_size);
      t->offset = v.mag;
    }
  if ((n = json_object_get_member (o, "pitch")) != NULL)
    {
      g_autofree char *p = member_path (path, "pitch");

      if (!get_int (ctx, n, p, TRUE, &v))
        return FALSE;
      if (v.neg || v.mag < (uint64_t) t->width * t->texel_size || v.mag % t->texel_size != 0
          || v.mag > G_MAXUINT32)
        return fail (ctx, p, "must be a multiple of the texel size (%u bytes) of at least a "
                     "row's %" G_GUINT64_FORMAT " bytes", t->texel_size,
                     (uint64_t) t->width * t->texel_size);
      t->pitch = (uint32_t) v.mag;
    }
  return TRUE;
}

static gboolean
parse_texture (Ctx             *ctx,
               const char      *path,
               JsonNode        *node,
               gboolean         surface,
               KsLaunch        *launch,
               KsLaunchTexture *t)
{
  static const char *const texture_keys[] = {
    "buffer", "format", "width", "height", "depth", "layers", "cubemap", "filter", "address",
    "normalized_coords", "read_mode", "border", "offset", "pitch", "destroyed", NULL
  };
  static const char *const surface_keys[] = {
    "buffer", "format", "width", "height", "depth", "layers", "offset", "pitch", "destroyed",
    NULL
  };
  static const char *const destroyed_keys[] = { "destroyed", NULL };
  /* CUDA's limits for compute capability 8.x */
  g_autofree char *pbuf = member_path (path, "buffer");
  g_autofree char *pwidth = member_path (path, "width");
  JsonObject *o = NULL;
  JsonNode *n;
  gboolean has_width, has_height, has_depth;
  const KsLaunchBuffer *b;
  uint64_t rows, bytes, have;
  const char *name;
  int index;

  if (!get_object (ctx, node, path, &o)
      || !check_keys (ctx, o, path, surface ? surface_keys : texture_keys))
    return FALSE;

  if ((n = json_object_get_member (o, "destroyed")) != NULL)
    {
      g_autofree char *pd = member_path (path, "destroyed");

      if (!get_bool (ctx, n, pd, &t->destroyed))
        return FALSE;
      if (t->destroyed)
        {
          t->buffer = G_MAXUINT32;
          return check_keys (ctx, o, path, destroyed_keys);
        }
    }

  if ((n = json_object_get_member (o, "buffer")) == NULL)
    return fail (ctx, pbuf, "missing (the buffer that holds the array)");
  if (!get_name (ctx, n, pbuf, &name))
    return FALSE;
  if ((index = ks_launch_find_buffer (launch, name)) < 0)
    return fail (ctx, pbuf, "no buffer named '%s'", name);
  t->buffer = (uint32_t) index;

  if ((n = json_object_get_member (o, "format")) == NULL)
    {
      g_autofree char *pformat = member_path (path, "format");
      return fail (ctx, pformat, "missing (e.g. {\"type\": \"f32\", \"channels\": 1})");
    }
  {
    g_autofree char *pformat = member_path (path, "format");

    if (!parse_format (ctx, n, pformat, t))
      return FALSE;
  }

  /* (a 1D texture may be linear memory, which is wider than an array's
   * row) */
  if (!get_extent (ctx, o, path, "width", KS_LAUNCH_TEX_MAX_LINEAR, &t->width, &has_width)
      || !get_extent (ctx, o, path, "height", KS_LAUNCH_TEX_MAX_HEIGHT, &t->height, &has_height)
      || !get_extent (ctx, o, path, "depth", KS_LAUNCH_TEX_MAX_DEPTH, &t->depth, &has_depth)
      || !get_extent (ctx, o, path, "layers", KS_LAUNCH_TEX_MAX_LAYERS * 6, &t->layers,
                      &t->layered))
    return FALSE;
  if (!has_width)
    return fail (ctx, pwidth, "missing");
  if (has_depth && !has_height)
    {
      g_autofree char *p = member_path (path, "depth");
      return fail (ctx, p, "a 3D array needs a height too");
    }
  if (has_depth && t->layered)
    {
      g_autofree char *p = member_path (path, "layers");
      return fail (ctx, p, "a 3D array cannot be layered (layered arrays are 1D or 2D)");
    }
  t->dims = 1 + (has_height ? 1 : 0) + (has_depth ? 1 : 0);
  if ((t->dims > 1 || t->layered || surface) && t->width > KS_LAUNCH_TEX_MAX_WIDTH)
    return fail (ctx, pwidth, "must be at most %u (only a 1D texture, which may be linear "
                 "memory, can be wider)", KS_LAUNCH_TEX_MAX_WIDTH);

  if (!surface && (n = json_object_get_member (o, "cubemap")) != NULL)
    {
      g_autofree char *pcube = member_path (path, "cubemap");

      if (!get_bool (ctx, n, pcube, &t->cubemap))
        return FALSE;
      if (t->cubemap)
        {
          if (!has_height || t->height != t->width || has_depth)
            return fail (ctx, pcube, "a cubemap has square faces: give width and an equal "
                         "height, and no depth");
          if (!t->layered)
            t->layers = 6;
          else if (t->layers % 6 != 0)
            {
              g_autofree char *p = member_path (path, "layers");
              return fail (ctx, p, "a cubemap array has 6 layers per cubemap, not %u", t->layers);
            }
        }
    }

  if (!get_placement (ctx, o, path, t))
    return FALSE;
  b = &launch->buffers[t->buffer];
  rows = (uint64_t) t->height * t->depth * t->layers;
  bytes = t->offset + ks_tex_array_bytes (t);
  have = b->count * ks_ptx_type_size (b->type);
  if (have < bytes && (t->pitch != 0 || t->offset != 0))
    return fail (ctx, pbuf, "buffer '%s' has %" G_GUINT64_FORMAT " bytes; the array needs %"
                 G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " rows of %u texels of %u bytes, "
                 "at offset %" G_GUINT64_FORMAT ", pitch %u)", name, have, bytes, rows,
                 t->width, t->texel_size, t->offset, t->pitch);
  if (have < bytes)
    return fail (ctx, pbuf, "buffer '%s' has %" G_GUINT64_FORMAT " bytes; the array needs %"
                 G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " texels of %u bytes)",
                 name, have, bytes, rows * t->width, t->texel_size);

  if (!surface && !parse_sampler (ctx, o, path, t))
    return FALSE;
  return TRUE;
}

static void
texture_clear (KsLaunchTexture *t)
{
  g_free (t->name);
}

static gboolean
parse_textures (Ctx        *ctx,
                JsonNode   *node,
                gboolean    surface,
                KsLaunch   *launch)
{
  const char *what = surface ? "surfaces" : "textures";
  g_autoptr(GList) names = NULL;
  KsLaunchTexture **out = surface ? &launch->surfaces : &launch->textures;
  uint32_t *n_out = surface ? &launch->n_surfaces : &launch->n_textures;
  JsonObject *o = NULL;

  if (!get_object (ctx, node, what, &o))
    return FALSE;
  if (o == ctx->dup_object)
    {
      g_autofree char *where = member_path (what, ctx->dup_name);
      return fail (ctx, where, "a second %s of this name (line %u)",
                   surface ? "surface" : "texture", ctx->dup_line);
    }
  names = json_object_get_members (o);
  if (g_list_length (names) > KS_LAUNCH_MAX_TEXTURES)
    return fail (ctx, what, "at most %u are allowed", KS_LAUNCH_MAX_TEXTURES);
  *out = g_new0 (KsLaunchTexture, MAX (g_list_length (names), 1));
  for (GList *l = names; l != NULL; l = l->next)
    {
      KsLaunchTexture *t = &(*out)[*n_out];
      g_autofree char *path = member_path (what, l->data);

      if (*(const char *) l->data == '\0')
        return fail (ctx, path, "a %s needs a name", surface ? "surface" : "texture");
      t->name = g_strdup (l->data);
      (*n_out)++;
      if (!parse_texture (ctx, path, json_object_get_member (o, l->data), surface, launch, t))
        return FALSE;
    }
  return TRUE;
}

/* {"texture": NAME} or {"surface": NAME} (params and bindings) */
static gboolean
parse_object_ref (Ctx                *ctx,
                  JsonObject         *o,
                  const char         *path,
                  const KsLaunch     *launch,
                  KsLaunchHandleKind *kind,
                  uint32_t           *index)
{
  static const char *const texture_keys[] = { "texture", NULL };
  static const char *const surface_keys[] = { "surface", NULL };
  gboolean surface = json_object_has_member (o, "surface");
  const char *key = surface ? "surface" : "texture";
  g_autofree char *pname = member_path (path, key);
  const char *name;
  int i;

  if (!check_keys (ctx, o, path, surface ? surface_keys : texture_keys)
      || !get_name (ctx, json_object_get_member (o, key), pname, &name))
    return FALSE;
  i = surface ? ks_launch_find_surface (launch, name) : ks_launch_find_texture (launch, name);
  if (i < 0)
    return fail (ctx, pname, "no %s named '%s' (in \"%ss\")", key, name, key);
  *kind = surface ? KS_LAUNCH_HANDLE_SURFACE : KS_LAUNCH_HANDLE_TEXTURE;
  *index = (uint32_t) i;
  return TRUE;
}

static gboolean
parse_bindings (Ctx        *ctx,
                JsonNode   *node,
                KsLaunch   *launch)
{
  g_autoptr(GList) names = NULL;
  JsonObject *o = NULL;

  if (!get_object (ctx, node, "bindings", &o))
    return FALSE;
  if (o == ctx->dup_object)
    {
      g_autofree char *where = member_path ("bindings", ctx->dup_name);
      return fail (ctx, where, "given twice (again on line %u)", ctx->dup_line);
    }
  names = json_object_get_members (o);
  launch->bindings = g_new0 (KsLaunchBinding, MAX (g_list_length (names), 1));
  for (GList *l = names; l != NULL; l = l->next)
    {
      g_autofree char *path = member_path ("bindings", l->data);
      KsLaunchBinding *bd = &launch->bindings[launch->n_bindings];
      JsonObject *ref = NULL;
      KsLaunchHandleKind kind;

      if (*(const char *) l->data == '\0')
        return fail (ctx, path, "name the .texref or .surfref variable");
      if (!get_object (ctx, json_object_get_member (o, l->data), path, &ref))
        return FALSE;
      if (!json_object_has_member (ref, "texture") && !json_object_has_member (ref, "surface"))
        return fail (ctx, path, "expected {\"texture\": NAME} or {\"surface\": NAME}");
      if (!parse_object_ref (ctx, ref, path, launch, &kind, &bd->index))
        return FALSE;
      bd->var = g_strdup (l->data);
      bd->surface = kind == KS_LAUNCH_HANDLE_SURFACE;
      launch->n_bindings++;
    }
  return TRUE;
}

/* The largest struct passed by value (the PTX parameter space of sm_70
 * and later is 32764 bytes for all the parameters) */
#define MAX_STRUCT_BYTES 32764u

/* {"buffer": NAME, "offset": BYTES}: the buffer's address plus an offset
 * that keeps the pointer in the buffer (0 to its size, the end included,
 * as in C) */
static gboolean
parse_buffer_ref (Ctx            *ctx,
                  JsonObject     *o,
                  const char     *path,
                  const KsLaunch *launch,
                  uint32_t       *buffer,
                  int64_t        *offset)
{
  static const char *const buffer_keys[] = { "buffer", "offset", NULL };
  g_autofree char *pbuf = member_path (path, "buffer");
  const KsLaunchBuffer *b;
  const char *name;
  uint64_t size;
  JsonNode *m;
  int index;

  if (!check_keys (ctx, o, path, buffer_keys)
      || !get_name (ctx, json_object_get_member (o, "buffer"), pbuf, &name))
    return FALSE;
  if ((index = ks_launch_find_buffer (launch, name)) < 0)
    return fail (ctx, pbuf, "no buffer named '%s'", name);
  *buffer = (uint32_t) index;
  *offset = 0;
  b = &launch->buffers[index];
  size = b->count * ks_ptx_type_size (b->type);
  if ((m = json_object_get_member (o, "offset")) != NULL)
    {
      g_autofree char *poff = member_path (path, "offset");
      g_autofree char *s = NULL;
      IntVal v;

      if (!get_int (ctx, m, poff, TRUE, &v))
        return FALSE;
      s = int_to_string (v);
      if (v.neg && v.mag != 0)
        return fail (ctx, poff, "%s bytes points before buffer '%s' (an offset is counted in "
                     "bytes from its start: 0 to %" G_GUINT64_FORMAT ")", s, name, size);
      if (v.mag > size)
        return fail (ctx, poff, "%s bytes points past the end of buffer '%s' (%" G_GUINT64_FORMAT
                     " bytes)", s, name, size);
      *offset = (int64_t) v.mag;
    }
  return TRUE;
}

/* A struct passed by value: {"bytes_hex": "..."} or {"fields": [...]},
 * each field {"type": T, "value": V} or {"buffer": B, "offset": N} (a
 * 64-bit pointer), laid out as a C compiler does: each at a multiple of
 * its size, the whole rounded up to a multiple of the largest. */
static gboolean
parse_struct (Ctx            *ctx,
              JsonObject     *o,
              const char     *path,
              const KsLaunch *launch,
              KsLaunchParam  *p)
{
  static const char *const hex_keys[] = { "bytes_hex", NULL };
  static const char *const fields_keys[] = { "fields", NULL };
  static const char *const scalar_keys[] = { "type", "value", NULL };
  JsonNode *m;

  if ((m = json_object_get_member (o, "bytes_hex")) != NULL)
    {
      g_autofree char *phex = member_path (path, "bytes_hex");
      const char *hex;
      size_t len;

      if (!check_keys (ctx, o, path, hex_keys) || !get_string (ctx, m, phex, &hex))
        return FALSE;
      len = strlen (hex);
      for (size_t i = 0; i < len; i++)
        if (hex_digit (hex[i]) < 0)
          return fail (ctx, phex, "'%c' at offset %zu is not a hex digit", hex[i], i);
      if (len % 2 != 0)
        return fail (ctx, phex, "odd number of hex digits (%zu)", len);
      if (len == 0)
        return fail (ctx, phex, "empty (give the struct's bytes)");
      if (len / 2 > MAX_STRUCT_BYTES)
        return fail (ctx, phex, "%zu bytes, more than the %u a kernel's parameters may hold",
                     len / 2, MAX_STRUCT_BYTES);
      p->n_bytes = (uint32_t) (len / 2);
      p->bytes = g_malloc0 (p->n_bytes);
      for (size_t i = 0; i < p->n_bytes; i++)
        p->bytes[i] = (uint8_t) (hex_digit (hex[2 * i]) << 4 | hex_digit (hex[2 * i + 1]));
      return TRUE;
    }
  else
    {
      g_autofree char *pfields = member_path (path, "fields");
      g_autoptr(GByteArray) bytes = g_byte_array_new ();
      g_autoptr(GArray) relocs = g_array_new (FALSE, TRUE, sizeof (KsLaunchReloc));
      JsonArray *fields = NULL;
      uint32_t max_align = 1;
      guint n;

      if (!check_keys (ctx, o, path, fields_keys)
          || !get_array (ctx, json_object_get_member (o, "fields"), pfields, &fields))
        return FALSE;
      n = json_array_get_length (fields);
      if (n == 0)
        return fail (ctx, pfields, "empty (give the struct's fields)");
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *pf = index_path (pfields, i);
          JsonObject *f = NULL;
          uint32_t size, at;
          uint64_t bits = 0;

          if (!get_object (ctx, json_array_get_element (fields, i), pf, &f))
            return FALSE;
          if (json_object_has_member (f, "buffer"))
            {
              KsLaunchReloc r = { 0 };

              if (!parse_buffer_ref (ctx, f, pf, launch, &r.buffer, &r.offset))
                return FALSE;
              size = 8;
              r.at = (uint32_t) ((bytes->len + size - 1) / size * size);
              g_array_append_val (relocs, r);
            }
          else
            {
              g_autofree char *ptype = member_path (pf, "type");
              g_autofree char *pvalue = member_path (pf, "value");
              KsPtxType type;
              Kind kind;

              if (!check_keys (ctx, f, pf, scalar_keys))
                return FALSE;
              if ((m = json_object_get_member (f, "type")) == NULL)
                return fail (ctx, pf, "expected {\"type\": T, \"value\": V} or {\"buffer\": NAME}");
              if (!get_type (ctx, m, ptype, &type, &kind))
                return FALSE;
              if ((m = json_object_get_member (f, "value")) == NULL)
                return fail (ctx, pvalue, "missing");
              if (!value_bits (ctx, m, pvalue, type, kind, &bits))
                return FALSE;
              size = ks_ptx_type_size (type);
            }
          at = (uint32_t) ((bytes->len + size - 1) / size * size);
          if (at + size > MAX_STRUCT_BYTES)
            return fail (ctx, pf, "the struct grows past the %u bytes a kernel's parameters "
                         "may hold", MAX_STRUCT_BYTES);
          {
            guint old = bytes->len;

            g_byte_array_set_size (bytes, at + size);
            memset (bytes->data + old, 0, at + size - old);
          }
          store (bytes->data + at, size, bits);
          max_align = MAX (max_align, size);
        }
      {
        uint32_t end = (bytes->len + max_align - 1) / max_align * max_align;
        guint old = bytes->len;

        g_byte_array_set_size (bytes, end);
        memset (bytes->data + old, 0, end - old);
      }
      p->n_bytes = bytes->len;
      p->bytes = g_byte_array_free (g_steal_pointer (&bytes), FALSE);
      p->n_relocs = relocs->len;
      p->relocs = (KsLaunchReloc *) (void *) g_array_free (g_steal_pointer (&relocs), FALSE);
      return TRUE;
    }
}

static void
params_free (KsLaunchParam *params,
             uint32_t       n)
{
  for (uint32_t i = 0; i < n; i++)
    {
      g_free (params[i].bytes);
      g_free (params[i].relocs);
    }
  g_free (params);
}

static KsLaunchParam *
params_copy (const KsLaunchParam *params,
             uint32_t             n)
{
  KsLaunchParam *c = g_new0 (KsLaunchParam, MAX (n, 1));

  for (uint32_t i = 0; i < n; i++)
    {
      c[i] = params[i];
      c[i].bytes = g_memdup2 (params[i].bytes, params[i].n_bytes);
      c[i].relocs = g_memdup2 (params[i].relocs, sizeof (KsLaunchReloc) * params[i].n_relocs);
    }
  return c;
}

static gboolean
parse_params (Ctx             *ctx,
              JsonNode        *node,
              const char      *where,
              const KsLaunch  *launch,
              KsLaunchParam  **out,
              uint32_t        *n_out)
{
  static const char *const scalar_keys[] = { "type", "value", NULL };
  JsonArray *array = NULL;
  guint n;

  if (!get_array (ctx, node, where, &array))
    return FALSE;
  n = json_array_get_length (array);
  *out = g_new0 (KsLaunchParam, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = index_path (where, i);
      KsLaunchParam *p = &(*out)[i];
      JsonObject *o = NULL;
      JsonNode *m;

      if (!get_object (ctx, json_array_get_element (array, i), path, &o))
        return FALSE;
      if (json_object_has_member (o, "texture") || json_object_has_member (o, "surface"))
        {
          if (!parse_object_ref (ctx, o, path, launch, &p->handle, &p->object))
            return FALSE;
        }
      else if (json_object_has_member (o, "buffer"))
        {
          if (!parse_buffer_ref (ctx, o, path, launch, &p->buffer, &p->offset))
            return FALSE;
          p->is_buffer = TRUE;
        }
      else if (json_object_has_member (o, "bytes_hex") || json_object_has_member (o, "fields"))
        {
          /* counted first, so that a failure frees what was made */
          (*n_out)++;
          if (!parse_struct (ctx, o, path, launch, p))
            return FALSE;
          continue;
        }
      else
        {
          g_autofree char *ptype = member_path (path, "type");
          g_autofree char *pvalue = member_path (path, "value");
          Kind kind;

          if (!check_keys (ctx, o, path, scalar_keys))
            return FALSE;
          if ((m = json_object_get_member (o, "type")) == NULL)
            return fail (ctx, path, "expected {\"buffer\": NAME}, {\"type\": T, \"value\": V}, "
                         "{\"bytes_hex\": HEX} or {\"fields\": [...]} "
                         "(or {\"texture\": NAME}, {\"surface\": NAME})");
          if (!get_type (ctx, m, ptype, &p->type, &kind))
            return FALSE;
          if ((m = json_object_get_member (o, "value")) == NULL)
            return fail (ctx, pvalue, "missing");
          if (!value_bits (ctx, m, pvalue, p->type, kind, &p->bits))
            return FALSE;
        }
      (*n_out)++;
    }
  return TRUE;
}

static gboolean
parse_outputs (Ctx        *ctx,
               JsonNode   *node,
               KsLaunch   *launch)
{
  JsonArray *array = NULL;
  guint n;

  if (!get_array (ctx, node, "outputs", &array))
    return FALSE;
  n = json_array_get_length (array);
  launch->outputs = g_new0 (uint32_t, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = index_path ("outputs", i);
      const char *name;
      int index;

      if (!get_name (ctx, json_array_get_element (array, i), path, &name))
        return FALSE;
      if ((index = ks_launch_find_buffer (launch, name)) < 0)
        return fail (ctx, path, "no buffer named '%s'", name);
      for (guint j = 0; j < launch->n_outputs; j++)
        if (launch->outputs[j] == (uint32_t) index)
          return fail (ctx, path, "'%s' is listed twice", name);
      launch->outputs[launch->n_outputs++] = (uint32_t) index;
    }
  return TRUE;
}

/* "output_symbols": [NAME, ...] */
static gboolean
parse_output_symbols (Ctx        *ctx,
                      JsonNode   *node,
                      KsLaunch   *launch)
{
  JsonArray *array = NULL;
  guint n;

  if (!get_array (ctx, node, "output_symbols", &array))
    return FALSE;
  n = json_array_get_length (array);
  launch->output_symbols = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = index_path ("output_symbols", i);
      const char *name;

      if (!get_name (ctx, json_array_get_element (array, i), path, &name))
        return FALSE;
      if (g_strv_contains ((const char *const *) launch->output_symbols, name))
        return fail (ctx, path, "'%s' is listed twice", name);
      launch->output_symbols[launch->n_output_symbols++] = g_strdup (name);
    }
  return TRUE;
}

static void
clear_spec (gpointer data)
{
  BufSpec *b = data;

  g_free (b->path);
  g_clear_pointer (&b->file, g_bytes_unref);
}

/* kernel, grid, block and dynamic_shared_bytes of the spec (@prefix NULL)
 * or of one of its "launches" */
static gboolean
parse_launch_fields (Ctx        *ctx,
                     JsonObject *o,
                     const char *prefix,
                     char      **kernel,
                     uint32_t    grid[3],
                     uint32_t    block[3],
                     uint32_t   *dynamic_shared_bytes,
                     gboolean   *cooperative)
{
  static const uint32_t grid_limits[3] = { G_MAXINT32, 65535, 65535 };
  static const uint32_t block_limits[3] = { 1024, 1024, 64 };
  g_autofree char *pkernel = member_path (prefix, "kernel");
  g_autofree char *pblock = member_path (prefix, "block");
  g_autofree char *pdyn = member_path (prefix, "dynamic_shared_bytes");
  g_autofree char *pcoop = member_path (prefix, "cooperative");
  uint64_t threads;
  const char *s;
  JsonNode *m;

  if ((m = json_object_get_member (o, "kernel")) != NULL)
    {
      if (!get_name (ctx, m, pkernel, &s))
        return FALSE;
      *kernel = g_strdup (s);
    }

  if (!parse_dims (ctx, o, prefix, "grid", grid_limits, grid)
      || !parse_dims (ctx, o, prefix, "block", block_limits, block))
    return FALSE;
  threads = (uint64_t) block[0] * block[1] * block[2];
  if (threads > 1024)
    return fail (ctx, pblock,
                 "%u x %u x %u is %" G_GUINT64_FORMAT " threads; a block has at most 1024",
                 block[0], block[1], block[2], threads);

  if ((m = json_object_get_member (o, "dynamic_shared_bytes")) != NULL)
    {
      IntVal v;

      if (!get_int (ctx, m, pdyn, FALSE, &v))
        return FALSE;
      if (v.neg || v.mag > G_MAXUINT32)
        return fail (ctx, pdyn, "must be in 0..%u", G_MAXUINT32);
      *dynamic_shared_bytes = (uint32_t) v.mag;
    }
  if ((m = json_object_get_member (o, "cooperative")) != NULL
      && !get_bool (ctx, m, pcoop, cooperative))
    return FALSE;
  return TRUE;
}

/* "launches": [{kernel, grid, block, dynamic_shared_bytes, params}, ...] */
static gboolean
parse_steps (Ctx        *ctx,
             JsonNode   *node,
             KsLaunch   *launch)
{
  static const char *const keys[] = {
    "kernel", "grid", "block", "dynamic_shared_bytes", "cooperative", "params", NULL
  };
  JsonArray *array = NULL;
  guint n;

  if (!get_array (ctx, node, "launches", &array))
    return FALSE;
  n = json_array_get_length (array);
  if (n == 0)
    return fail (ctx, "launches", "empty (give at least one launch)");
  launch->steps = g_new0 (KsLaunchStep, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = index_path ("launches", i);
      g_autofree char *pparams = member_path (path, "params");
      KsLaunchStep *st = &launch->steps[i];
      JsonObject *o = NULL;
      JsonNode *m;

      launch->n_steps = i + 1;
      if (!get_object (ctx, json_array_get_element (array, i), path, &o)
          || !check_keys (ctx, o, path, keys)
          || !parse_launch_fields (ctx, o, path, &st->kernel, st->grid, st->block,
                                   &st->dynamic_shared_bytes, &st->cooperative))
        return FALSE;
      if ((m = json_object_get_member (o, "params")) != NULL
          && !parse_params (ctx, m, pparams, launch, &st->params, &st->n_params))
        return FALSE;
    }

  /* Readers that know one launch see the first */
  launch->kernel = g_strdup (launch->steps[0].kernel);
  memcpy (launch->grid, launch->steps[0].grid, sizeof launch->grid);
  memcpy (launch->block, launch->steps[0].block, sizeof launch->block);
  launch->dynamic_shared_bytes = launch->steps[0].dynamic_shared_bytes;
  launch->cooperative = launch->steps[0].cooperative;
  launch->params = params_copy (launch->steps[0].params, launch->steps[0].n_params);
  launch->n_params = launch->steps[0].n_params;
  return TRUE;
}

/* The buffers are checked against this before any is filled: a spec
 * that would push the machine into swap is refused instead.  The
 * simulator holds them once more only for a sequence's launch and the
 * next (kernelscope-cli run moves them). */
static uint64_t
max_total_bytes (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGE_SIZE);
  uint64_t half;

  if (pages <= 0 || page_size <= 0)
    return MAX_TOTAL_BYTES;
  half = (uint64_t) pages / 2 * (uint64_t) page_size;
  return MIN (half, MAX_TOTAL_BYTES);
}

static gboolean
parse_buffers (Ctx        *ctx,
               JsonNode   *m,
               KsLaunch   *launch,
               GArray     *specs)
{
  g_autoptr(GList) names = NULL;
  JsonObject *buffers = NULL;
  uint64_t total = 0;
  uint64_t max_total = max_total_bytes ();
  guint i = 0;

  if (!get_object (ctx, m, "buffers", &buffers))
    return FALSE;
  if (buffers == ctx->dup_object)
    {
      g_autofree char *where = member_path ("buffers", ctx->dup_name);
      return fail (ctx, where, "a second buffer of this name (line %u)", ctx->dup_line);
    }
  names = json_object_get_members (buffers);
  g_array_set_size (specs, g_list_length (names));
  launch->buffers = g_new0 (KsLaunchBuffer, MAX (specs->len, 1));
  for (GList *l = names; l != NULL; l = l->next, i++)
    {
      BufSpec *b = &g_array_index (specs, BufSpec, i);
      const char *name = l->data;

      b->path = member_path ("buffers", name);
      b->is_buffer = TRUE;
      if (*name == '\0')
        return fail (ctx, b->path, "a buffer needs a name");
      launch->buffers[i].name = g_strdup (name);
      launch->n_buffers = i + 1;
      if (!parse_buffer (ctx, name, json_object_get_member (buffers, name), b)
          || !parse_buffer_variable (ctx, launch, i, json_object_get_member (buffers, name), b))
        return FALSE;
      launch->buffers[i].type = b->type;
      launch->buffers[i].count = b->count;
      total += b->count * b->esize;
      if (total > max_total)
        {
          g_autofree char *size = g_format_size_full (total, G_FORMAT_SIZE_IEC_UNITS);
          g_autofree char *limit = g_format_size_full (max_total, G_FORMAT_SIZE_IEC_UNITS);

          return fail (ctx, b->path,
                       "the buffers up to this one take %s, over the %s all may hold "
                       "(half of this computer's memory, at most 16 GiB)", size, limit);
        }
      /* placed buffers: all or none, in order, apart (the simulator's
       * memory is sorted by address) */
      if (i > 0)
        {
          const BufSpec *prev = &g_array_index (specs, BufSpec, i - 1);

          if ((prev->address != 0) != (b->address != 0))
            return fail (ctx, b->path, "give every buffer an 'address', or none");
          if (b->address != 0 && b->address < prev->address + prev->count * prev->esize)
            return fail (ctx, b->path, "'address' 0x%" G_GINT64_MODIFIER "x is inside the "
                         "buffer before it, or below it (placed buffers are listed in "
                         "ascending order)", b->address);
        }
    }
  return TRUE;
}

gpointer
ks_launch_unlift (gpointer    lift_,
                  const char *text,
                  gpointer    node_)
{
  KsJsonLift *lift = lift_;
  JsonNode *node = node_;

  if (lift == NULL)
    return json_node_ref (node);
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node), *copy;
      const KsJsonLifted *lifted = ks_json_lift_find (lift, array);
      JsonNode *out;

      if (lifted != NULL)
        copy = lifted_array (text, lifted);
      else
        {
          guint n = json_array_get_length (array);

          copy = json_array_sized_new (n);
          for (guint i = 0; i < n; i++)
            json_array_add_element (copy, ks_launch_unlift (lift, text,
                                                            json_array_get_element (array, i)));
        }
      out = json_node_init_array (json_node_alloc (), copy);
      json_array_unref (copy);
      return out;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node), *copy = json_object_new ();
      g_autoptr(GList) names = json_object_get_members (o);
      JsonNode *out;

      for (GList *l = names; l != NULL; l = l->next)
        json_object_set_member (copy, l->data,
                                ks_launch_unlift (lift, text, json_object_get_member (o, l->data)));
      out = json_node_init_object (json_node_alloc (), copy);
      json_object_unref (copy);
      return out;
    }
  return json_node_copy (node);
}

/* "symbols": {NAME: {like a buffer, "type" defaulting to the variable's}} */
static gboolean
parse_symbols (Ctx        *ctx,
               JsonNode   *m,
               KsLaunch   *launch,
               GArray     *specs)
{
  static const char *const keys[] = { "type", "count", "init", "data", "bytes_hex",
                                      "bytes_file", NULL };
  g_autoptr(GList) names = NULL;
  JsonObject *symbols = NULL;
  guint i = 0;

  if (!get_object (ctx, m, "symbols", &symbols))
    return FALSE;
  if (symbols == ctx->dup_object)
    {
      g_autofree char *where = member_path ("symbols", ctx->dup_name);
      return fail (ctx, where, "given twice (again on line %u)", ctx->dup_line);
    }
  names = json_object_get_members (symbols);
  g_array_set_size (specs, g_list_length (names));
  launch->symbols = g_new0 (KsLaunchSymbol, MAX (specs->len, 1));
  for (GList *l = names; l != NULL; l = l->next, i++)
    {
      BufSpec *b = &g_array_index (specs, BufSpec, i);
      KsLaunchSymbol *sym = &launch->symbols[i];
      const char *name = l->data;
      JsonNode *node = json_object_get_member (symbols, name);
      JsonObject *o = NULL;

      b->path = member_path ("symbols", name);
      if (*name == '\0')
        return fail (ctx, b->path, "name the module's .global or .const variable");
      sym->name = g_strdup (name);
      launch->n_symbols = i + 1;
      if (!get_object (ctx, node, b->path, &o) || !check_keys (ctx, o, b->path, keys))
        return FALSE;
      /* read again once the module is known, after the text is gone */
      sym->spec = ks_launch_unlift (ctx->lift, ctx->text, node);
      /* the type to read it back as: one given, else the variable's */
      if (json_object_has_member (o, "type"))
        {
          g_autofree char *ptype = member_path (b->path, "type");
          Kind kind;

          if (!get_type (ctx, json_object_get_member (o, "type"), ptype, &sym->type, &kind))
            return FALSE;
        }
      if (json_object_has_member (o, "bytes_hex") || json_object_has_member (o, "bytes_file")
          || (json_object_has_member (o, "type")
              && (json_object_has_member (o, "count") || json_object_has_member (o, "data"))))
        {
          /* read now, materialized with the buffers */
          if (!parse_buffer (ctx, name, node, b))
            return FALSE;
        }
      else if (json_object_has_member (o, "init") + json_object_has_member (o, "data") > 1)
        return fail (ctx, b->path, "give only one of 'init', 'data', 'bytes_hex' and 'bytes_file'");
      else
        b->count = 0;           /* the variable's type or size: ks_launch_symbol_fill() */
    }
  return TRUE;
}

static gboolean
parse_root (Ctx        *ctx,
            JsonNode   *root,
            KsLaunch   *launch)
{
  static const char *const keys[] = {
    "ptx", "source", "kernel", "grid", "block", "dynamic_shared_bytes", "cooperative",
    "buffers", "params", "outputs", "textures", "surfaces", "bindings",
    "symbols", "output_symbols", "launches", NULL
  };
  static const char *const per_launch[] = {
    "kernel", "grid", "block", "dynamic_shared_bytes", "cooperative", "params", NULL
  };
  g_autoptr(GArray) specs = NULL;
  g_autoptr(GArray) symbol_specs = NULL;
  JsonObject *o = NULL;
  JsonNode *m, *n_ptx, *n_source, *n_launches;
  const char *s;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *what = g_strdup (root ? node_kind (root) : "nothing");
      return fail (ctx, NULL, "expected a JSON object at the top level, got %s", what);
    }
  o = json_node_get_object (root);
  if (!check_keys (ctx, o, NULL, keys))
    return FALSE;

  n_ptx = json_object_get_member (o, "ptx");
  n_source = json_object_get_member (o, "source");
  if (n_ptx != NULL && n_source != NULL)
    return fail (ctx, "source", "give either 'ptx' or 'source', not both");
  if (n_ptx == NULL && n_source == NULL)
    return fail (ctx, "ptx", "missing (give 'ptx' or 'source')");
  if (!get_name (ctx, n_ptx ? n_ptx : n_source, n_ptx ? "ptx" : "source", &s))
    return FALSE;
  if (n_ptx)
    launch->ptx_path = resolve_path (ctx->spec_path, s);
  else
    launch->source_path = resolve_path (ctx->spec_path, s);

  n_launches = json_object_get_member (o, "launches");
  if (n_launches != NULL)
    {
      for (guint i = 0; per_launch[i] != NULL; i++)
        if (json_object_has_member (o, per_launch[i]))
          return fail (ctx, per_launch[i], "give it in each of \"launches\", not at the top level");
    }
  else if (!parse_launch_fields (ctx, o, NULL, &launch->kernel, launch->grid, launch->block,
                                 &launch->dynamic_shared_bytes, &launch->cooperative))
    return FALSE;

  specs = g_array_new (FALSE, TRUE, sizeof (BufSpec));
  g_array_set_clear_func (specs, clear_spec);
  symbol_specs = g_array_new (FALSE, TRUE, sizeof (BufSpec));
  g_array_set_clear_func (symbol_specs, clear_spec);
  if ((m = json_object_get_member (o, "buffers")) != NULL
      && !parse_buffers (ctx, m, launch, specs))
    return FALSE;

  if ((m = json_object_get_member (o, "textures")) != NULL
      && !parse_textures (ctx, m, FALSE, launch))
    return FALSE;
  if ((m = json_object_get_member (o, "surfaces")) != NULL
      && !parse_textures (ctx, m, TRUE, launch))
    return FALSE;
  if ((m = json_object_get_member (o, "bindings")) != NULL && !parse_bindings (ctx, m, launch))
    return FALSE;
  if (n_launches != NULL)
    {
      if (!parse_steps (ctx, n_launches, launch))
        return FALSE;
    }
  else if ((m = json_object_get_member (o, "params")) != NULL
           && !parse_params (ctx, m, "params", launch, &launch->params, &launch->n_params))
    return FALSE;
  if ((m = json_object_get_member (o, "outputs")) != NULL && !parse_outputs (ctx, m, launch))
    return FALSE;
  if ((m = json_object_get_member (o, "symbols")) != NULL
      && !parse_symbols (ctx, m, launch, symbol_specs))
    return FALSE;
  if ((m = json_object_get_member (o, "output_symbols")) != NULL
      && !parse_output_symbols (ctx, m, launch))
    return FALSE;

  /* Last, so a mistake anywhere costs no time filling megabytes */
  for (guint i = 0; i < specs->len; i++)
    if (!describe (ctx, &g_array_index (specs, BufSpec, i), &launch->buffers[i]))
      return FALSE;
  for (guint i = 0; i < symbol_specs->len; i++)
    {
      const BufSpec *b = &g_array_index (symbol_specs, BufSpec, i);
      KsLaunchBuffer tmp = { 0 };

      if (b->count == 0)
        continue;
      if (!materialize (ctx, b, &tmp))
        return FALSE;
      launch->symbols[i].data = tmp.data;
      launch->symbols[i].size = tmp.size;
    }

  return TRUE;
}

gboolean
ks_launch_symbol_fill (const KsLaunch *launch,
                       uint32_t        index,
                       KsPtxType       type,
                       uint64_t        var_size,
                       uint8_t       **data,
                       size_t         *size,
                       KsPtxType      *used_type,
                       GError        **error)
{
  const KsLaunchSymbol *sym;
  Ctx ctx = { 0 };
  BufSpec b = { 0 };
  KsLaunchBuffer tmp = { 0 };
  gboolean ok;

  g_return_val_if_fail (launch != NULL && index < launch->n_symbols, FALSE);
  sym = &launch->symbols[index];
  if (sym->data != NULL)
    {
      *data = g_memdup2 (sym->data, sym->size);
      *size = sym->size;
      if (used_type)
        *used_type = sym->type != KS_PTX_TYPE_NONE ? sym->type : KS_PTX_TYPE_B8;
      return TRUE;
    }
  ctx.spec_path = launch->spec_path;
  ctx.error = error;
  b.path = member_path ("symbols", sym->name);
  b.default_type = type;
  b.default_bytes = var_size;
  ok = parse_buffer (&ctx, sym->name, sym->spec, &b) && materialize (&ctx, &b, &tmp);
  g_free (b.path);
  g_clear_pointer (&b.file, g_bytes_unref);
  if (!ok)
    return FALSE;
  *data = tmp.data;
  *size = tmp.size;
  if (used_type)
    *used_type = b.type;
  return TRUE;
}

/* json-glib 1.6 silently wraps integer literals outside int64 (2^64 - 1
 * reads as -1).  Those are rewritten as marked strings, which the value
 * readers take as the numbers they are. */
char *
ks_launch_mark_big_integers (const char *text,
                             size_t      len)
{
  GString *out = NULL;
  size_t i = 0, copied = 0;

  while (i < len)
    {
      char c = text[i];

      /* json-glib also takes single-quoted strings */
      if (c == '"' || c == '\'')
        {
          for (i++; i < len && text[i] != c; i++)
            if (text[i] == '\\')
              i++;
          i++;
          continue;
        }
      if ((c == '-' || g_ascii_isdigit (c))
          && (i == 0 || !(g_ascii_isalnum (text[i - 1]) || text[i - 1] == '_'
                          || text[i - 1] == '.')))
        {
          size_t start = i, next;
          gboolean hex = FALSE;

          if (c == '-')
            i++;
          if (i + 1 < len && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X'))
            {
              hex = TRUE;
              for (i += 2; i < len && g_ascii_isxdigit (text[i]); i++)
                ;
            }
          else
            for (; i < len && g_ascii_isdigit (text[i]); i++)
              ;

          if (i < len && (g_ascii_isalnum (text[i]) || text[i] == '.' || text[i] == '_'))
            {
              /* A float such as 1.5e+300, or not a number at all */
              while (i < len && (g_ascii_isalnum (text[i]) || strchr ("+-._", text[i]) != NULL))
                i++;
              continue;
            }
          for (next = i; next < len && g_ascii_isspace (text[next]); next++)
            ;
          /* Not in a key's place, where a string would hide a syntax error */
          if (i - start >= (hex ? 17 : 19) && (next == len || text[next] != ':'))
            {
              g_autofree char *token = g_strndup (text + start, i - start);
              IntVal v;
              int r = parse_int_text (token, &v);

              if (r == 2 || (r == 0 && v.mag > (uint64_t) G_MAXINT64 + v.neg))
                {
                  if (out == NULL)
                    out = g_string_sized_new (len + 64);
                  g_string_append_len (out, text + copied, start - copied);
                  g_string_append (out, "\"\\u0001");
                  g_string_append (out, token);
                  g_string_append_c (out, '"');
                  copied = i;
                }
            }
          continue;
        }
      i++;
    }

  if (out == NULL)
    return NULL;
  g_string_append_len (out, text + copied, len - copied);
  return g_string_free (out, FALSE);
}

static void
object_member_cb (JsonParser *parser,
                  JsonObject *object,
                  const char *name,
                  gpointer    user_data)
{
  Ctx *ctx = user_data;
  guint seen;

  if (ctx->dup_object != NULL)
    return;
  seen = GPOINTER_TO_UINT (g_hash_table_lookup (ctx->member_counts, object)) + 1;
  g_hash_table_insert (ctx->member_counts, object, GUINT_TO_POINTER (seen));
  /* The member is already in the object: a key given twice leaves it one short */
  if (seen > json_object_get_size (object))
    {
      ctx->dup_object = object;
      ctx->dup_name = g_strdup (name);
      ctx->dup_line = json_parser_get_current_line (parser);
      ctx->dup_col = json_parser_get_current_pos (parser);
    }
}

static void
set_syntax_error (Ctx    *ctx,
                  GError *parse_error)
{
  const char *message = parse_error->message;

  /* json-glib says "<data>:LINE:COL: ..." when it reads from memory */
  if (g_str_has_prefix (message, "<data>:"))
    g_set_error (ctx->error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID, "%s%s",
                 ctx->spec_path ? ctx->spec_path : "",
                 message + (ctx->spec_path ? strlen ("<data>") : strlen ("<data>:")));
  else
    fail (ctx, NULL, "%s", message);
}

static gboolean
spec_too_large (Ctx      *ctx,
                uint64_t  size)
{
  g_autofree char *given = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);

  return fail (ctx, NULL, "%s of JSON, over the %u MiB a launch spec may be; give a large "
               "buffer an \"init\" (random or range) rather than its values",
               given, KS_LAUNCH_MAX_SPEC_BYTES >> 20);
}

/* Each parser ks_launch_load_json() makes for ks_launch_parse() counts
 * the members of each object afresh */
static void
setup_parser (gpointer parser,
              gpointer user_data)
{
  Ctx *ctx = user_data;

  g_hash_table_remove_all (ctx->member_counts);
  g_clear_pointer (&ctx->dup_name, g_free);
  ctx->dup_object = NULL;
  g_signal_connect (parser, "object-member", G_CALLBACK (object_member_cb), ctx);
}

gpointer
ks_launch_load_json (const char  *json,
                     size_t       len,
                     gpointer    *lift_out,
                     void       (*setup) (gpointer parser, gpointer user_data),
                     gpointer     user_data,
                     GError     **error)
{
  /* The long arrays of values are read from the text (json-glib's tree
   * would take ten times its size); should json-glib not see them where
   * the scan did, the text as written is loaded instead */
  g_autoptr(KsJsonLift) lift = ks_json_lift_new (json, len, KS_LAUNCH_LIFT_MIN_ELEMENTS);

  for (;;)
    {
      const char *text = lift != NULL ? ks_json_lift_text (lift, NULL) : json;
      g_autofree char *marked = ks_launch_mark_big_integers (text, len);
      g_autoptr(JsonParser) parser = json_parser_new_immutable ();
      g_autoptr(GError) syntax = NULL;

      if (setup != NULL)
        setup (parser, user_data);
      if (lift != NULL)
        ks_json_lift_watch (lift, parser);
      if (!ks_json_load_data (parser, marked ? marked : text, marked ? -1 : (gssize) len, NULL,
                              &syntax))
        {
          /* Columns are those of the text as written, which the lift keeps
           * and the marks do not */
          if (marked != NULL)
            {
              g_autoptr(JsonParser) plain = json_parser_new_immutable ();

              g_clear_error (&syntax);
              if (ks_json_load_data (plain, text, (gssize) len, NULL, &syntax))
                g_set_error_literal (&syntax, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                                     "invalid JSON");
            }
          g_propagate_error (error, g_steal_pointer (&syntax));
          return NULL;
        }
      if (lift == NULL || ks_json_lift_matched (lift))
        {
          *lift_out = g_steal_pointer (&lift);
          return g_steal_pointer (&parser);
        }
      g_clear_pointer (&lift, ks_json_lift_free);
    }
}

KsLaunch *
ks_launch_parse (const char  *json,
                 gssize       length,
                 const char  *spec_path,
                 GError     **error)
{
  g_autoptr(KsLaunch) launch = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(KsJsonLift) lift = NULL;
  g_autoptr(GError) syntax = NULL;
  size_t len;
  Ctx ctx = { 0 };
  gboolean ok;

  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Without an error to fill, failures are still detected: keep a local one */
  ctx.error = error ? error : &parse_error;
  ctx.spec_path = spec_path;
  ctx.text = json;
  counts = g_hash_table_new (NULL, NULL);
  ctx.member_counts = counts;

  len = length < 0 ? strlen (json) : (size_t) length;
  ctx.text_len = len;
  if (len > KS_LAUNCH_MAX_SPEC_BYTES)
    {
      spec_too_large (&ctx, len);
      return NULL;
    }
  parser = ks_launch_load_json (json, len, (gpointer *) &lift, setup_parser, &ctx, &syntax);
  if (parser == NULL)
    {
      g_clear_pointer (&ctx.dup_name, g_free);
      set_syntax_error (&ctx, syntax);
      return NULL;
    }
  ctx.lift = lift;

  launch = g_new0 (KsLaunch, 1);
  launch->spec_path = g_strdup (spec_path);
  ok = parse_root (&ctx, json_parser_get_root (parser), launch);
  if (ok && ctx.dup_object != NULL)
    ok = fail (&ctx, NULL, "line %u: key '%s' given twice", ctx.dup_line, ctx.dup_name);
  g_free (ctx.dup_name);
  if (!ok)
    return NULL;
  return g_steal_pointer (&launch);
}

KsLaunch *
ks_launch_load (const char  *path,
                GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  /* a regular file by its size, before reading it (a pipe is read, up to
   * KS_FILE_STREAM_MAX, and refused by ks_launch_parse) */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode)
      && (uint64_t) st.st_size > KS_LAUNCH_MAX_SPEC_BYTES)
    {
      Ctx ctx = { 0 };

      ctx.error = error;
      ctx.spec_path = path;
      spec_too_large (&ctx, (uint64_t) st.st_size);
      return NULL;
    }
  if (!ks_file_get_contents (path, &contents, &length, error))
    return NULL;
  return ks_launch_parse (contents, (gssize) length, path, error);
}

void
ks_launch_free (KsLaunch *launch)
{
  if (launch == NULL)
    return;
  for (uint32_t i = 0; i < launch->n_buffers; i++)
    {
      g_free (launch->buffers[i].name);
      g_free (launch->buffers[i].data);
      g_free (launch->buffers[i].variable);
    }
  g_free (launch->buffers);
  for (uint32_t i = 0; i < launch->n_textures; i++)
    texture_clear (&launch->textures[i]);
  g_free (launch->textures);
  for (uint32_t i = 0; i < launch->n_surfaces; i++)
    texture_clear (&launch->surfaces[i]);
  g_free (launch->surfaces);
  for (uint32_t i = 0; i < launch->n_bindings; i++)
    g_free (launch->bindings[i].var);
  g_free (launch->bindings);
  params_free (launch->params, launch->n_params);
  g_free (launch->outputs);
  for (uint32_t i = 0; i < launch->n_symbols; i++)
    {
      g_free (launch->symbols[i].name);
      g_free (launch->symbols[i].data);
      if (launch->symbols[i].spec != NULL)
        json_node_unref (launch->symbols[i].spec);
    }
  g_free (launch->symbols);
  g_strfreev (launch->output_symbols);
  for (uint32_t i = 0; i < launch->n_steps; i++)
    {
      g_free (launch->steps[i].kernel);
      params_free (launch->steps[i].params, launch->steps[i].n_params);
    }
  g_free (launch->steps);
  g_free (launch->spec_path);
  g_free (launch->ptx_path);
  g_free (launch->source_path);
  g_free (launch->kernel);
  g_free (launch);
}

KsLaunch *
ks_launch_copy (const KsLaunch *l)
{
  KsLaunch *c;

  g_return_val_if_fail (l != NULL, NULL);

  c = g_new0 (KsLaunch, 1);
  *c = *l;
  c->spec_path = g_strdup (l->spec_path);
  c->ptx_path = g_strdup (l->ptx_path);
  c->source_path = g_strdup (l->source_path);
  c->kernel = g_strdup (l->kernel);
  c->buffers = g_new0 (KsLaunchBuffer, MAX (l->n_buffers, 1));
  for (uint32_t i = 0; i < l->n_buffers; i++)
    {
      c->buffers[i] = l->buffers[i];
      c->buffers[i].name = g_strdup (l->buffers[i].name);
      c->buffers[i].variable = g_strdup (l->buffers[i].variable);
      /* (a buffer made by a recipe has no bytes to copy) */
      c->buffers[i].data = l->buffers[i].data != NULL
                           ? g_memdup2 (l->buffers[i].data, l->buffers[i].size) : NULL;
    }
  c->textures = g_new0 (KsLaunchTexture, MAX (l->n_textures, 1));
  for (uint32_t i = 0; i < l->n_textures; i++)
    {
      c->textures[i] = l->textures[i];
      c->textures[i].name = g_strdup (l->textures[i].name);
    }
  c->surfaces = g_new0 (KsLaunchTexture, MAX (l->n_surfaces, 1));
  for (uint32_t i = 0; i < l->n_surfaces; i++)
    {
      c->surfaces[i] = l->surfaces[i];
      c->surfaces[i].name = g_strdup (l->surfaces[i].name);
    }
  c->bindings = g_new0 (KsLaunchBinding, MAX (l->n_bindings, 1));
  for (uint32_t i = 0; i < l->n_bindings; i++)
    {
      c->bindings[i] = l->bindings[i];
      c->bindings[i].var = g_strdup (l->bindings[i].var);
    }
  c->params = params_copy (l->params, l->n_params);
  c->outputs = g_memdup2 (l->outputs, sizeof (uint32_t) * l->n_outputs);
  c->symbols = g_new0 (KsLaunchSymbol, MAX (l->n_symbols, 1));
  for (uint32_t i = 0; i < l->n_symbols; i++)
    {
      c->symbols[i] = l->symbols[i];
      c->symbols[i].name = g_strdup (l->symbols[i].name);
      c->symbols[i].data = g_memdup2 (l->symbols[i].data, l->symbols[i].size);
      if (l->symbols[i].spec != NULL)
        c->symbols[i].spec = json_node_ref (l->symbols[i].spec);
    }
  c->output_symbols = g_strdupv (l->output_symbols);
  c->steps = l->n_steps ? g_new0 (KsLaunchStep, l->n_steps) : NULL;
  for (uint32_t i = 0; i < l->n_steps; i++)
    {
      c->steps[i] = l->steps[i];
      c->steps[i].kernel = g_strdup (l->steps[i].kernel);
      c->steps[i].params = params_copy (l->steps[i].params, l->steps[i].n_params);
    }
  return c;
}

void
ks_launch_select_step (KsLaunch *launch,
                       uint32_t  step)
{
  const KsLaunchStep *st;

  g_return_if_fail (launch != NULL);
  g_return_if_fail (step < MAX (launch->n_steps, 1));

  if (launch->n_steps == 0)
    return;
  st = &launch->steps[step];
  g_free (launch->kernel);
  launch->kernel = g_strdup (st->kernel);
  memcpy (launch->grid, st->grid, sizeof launch->grid);
  memcpy (launch->block, st->block, sizeof launch->block);
  launch->dynamic_shared_bytes = st->dynamic_shared_bytes;
  launch->cooperative = st->cooperative;
  params_free (launch->params, launch->n_params);
  launch->params = params_copy (st->params, st->n_params);
  launch->n_params = st->n_params;
  launch->step = step;
}

int
ks_launch_find_buffer (const KsLaunch *launch,
                       const char     *name)
{
  g_return_val_if_fail (launch != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (uint32_t i = 0; i < launch->n_buffers; i++)
    if (launch->buffers[i].name != NULL && strcmp (launch->buffers[i].name, name) == 0)
      return (int) i;
  return -1;
}

static int
find_object (const KsLaunchTexture *objects,
             uint32_t               n,
             const char            *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (objects[i].name != NULL && strcmp (objects[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
ks_launch_find_texture (const KsLaunch *launch,
                        const char     *name)
{
  g_return_val_if_fail (launch != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  return find_object (launch->textures, launch->n_textures, name);
}

int
ks_launch_find_surface (const KsLaunch *launch,
                        const char     *name)
{
  g_return_val_if_fail (launch != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  return find_object (launch->surfaces, launch->n_surfaces, name);
}

char *
ks_launch_default_json (const KsPtxModule *module,
                        uint32_t           function,
                        const char        *ptx_path)
{
  const KsPtxFunction *f;
  const uint32_t *dims;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *name = NULL;
  uint32_t block[3] = { 256, 1, 1 };
  const uint32_t grid = 4;
  uint64_t threads;

  g_return_val_if_fail (module != NULL, NULL);
  g_return_val_if_fail (function < module->n_functions, NULL);

  f = &module->functions[function];
  dims = f->reqntid[0] ? f->reqntid : f->maxntid[0] ? f->maxntid : NULL;
  if (dims != NULL)
    for (guint i = 0; i < 3; i++)
      block[i] = MAX (dims[i], 1);
  threads = (uint64_t) grid * block[0] * block[1] * block[2];
  name = ks_ptx_span_dup (module, f->name);

  json_builder_begin_object (b);
  if (ptx_path != NULL)
    {
      json_builder_set_member_name (b, "ptx");
      json_builder_add_string_value (b, ptx_path);
    }
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "grid");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, grid);
  json_builder_add_int_value (b, 1);
  json_builder_add_int_value (b, 1);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "block");
  json_builder_begin_array (b);
  for (guint i = 0; i < 3; i++)
    json_builder_add_int_value (b, block[i]);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "buffers");
  json_builder_begin_object (b);
  for (uint32_t p = 0; p < f->n_params && f->first_param + p < module->n_vars; p++)
    {
      const KsPtxVar *v = &module->vars[f->first_param + p];
      g_autofree char *bn = g_strdup_printf ("p%u", p);

      if (ks_ptx_type_size (v->type) != 8 || v->n_elements != 1)
        continue;
      json_builder_set_member_name (b, bn);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "f32");
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, (gint64) (threads * 4));
      json_builder_set_member_name (b, "init");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "random");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "seed");
      json_builder_add_int_value (b, p + 1);
      json_builder_set_member_name (b, "min");
      json_builder_add_int_value (b, -1);
      json_builder_set_member_name (b, "max");
      json_builder_add_int_value (b, 1);
      json_builder_end_object (b);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (uint32_t p = 0; p < f->n_params && f->first_param + p < module->n_vars; p++)
    {
      const KsPtxVar *v = &module->vars[f->first_param + p];
      KsPtxType t = v->type;
      g_autofree char *bn = g_strdup_printf ("p%u", p);

      json_builder_begin_object (b);
      if (ks_ptx_type_size (t) == 8 && v->n_elements == 1)
        {
          json_builder_set_member_name (b, "buffer");
          json_builder_add_string_value (b, bn);
        }
      else if (v->n_elements != 1 || t == KS_PTX_TYPE_NONE || t == KS_PTX_TYPE_PRED)
        {
          /* an aggregate (.b8 name[16]): zeros */
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, "b8");
          json_builder_set_member_name (b, "value");
          json_builder_add_int_value (b, 0);
        }
      else
        {
          gboolean is_float = t == KS_PTX_TYPE_F32 || t == KS_PTX_TYPE_F64
                              || t == KS_PTX_TYPE_F16 || t == KS_PTX_TYPE_BF16;
          gboolean is_int32 = t == KS_PTX_TYPE_U32 || t == KS_PTX_TYPE_S32 || t == KS_PTX_TYPE_B32;

          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, ks_ptx_type_name (t));
          json_builder_set_member_name (b, "value");
          if (is_float)
            json_builder_add_double_value (b, 1.0);
          else
            json_builder_add_int_value (b, is_int32 ? (gint64) MIN (threads, G_MAXINT32) : 0);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}
