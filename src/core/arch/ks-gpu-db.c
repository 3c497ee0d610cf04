/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gpu-db.c: loading, merging and validating data/gpus.json.
 *
 * The fields of an arch and of a GPU are described once, in tables of
 * (name, group, kind, offset); parsing, validation and the lookup of each
 * figure's source all walk those tables, so adding a field is one line here
 * and one in the header. */

#include "ks-gpu-db.h"
#include "ks-json.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (ks-gpu-db-error-quark, ks_gpu_db_error)

typedef enum
{
  KIND_IDENTITY_STRING,         /* needs no source */
  KIND_COMPUTE_CAPABILITY,      /* "8.6" -> compute_major, compute_minor */
  KIND_POSITIVE,                /* uint32_t > 0 */
  KIND_UNSIGNED,                /* uint32_t >= 0 */
  KIND_LANES,                   /* double >= 0 */
  KIND_POSITIVE_NUMBER,         /* double > 0 */
  KIND_KIB_LIST,                /* ascending uint32_t list */
  KIND_GRANULARITY,             /* "warp" | "block" */
} FieldKind;

typedef struct
{
  const char *name;
  const char *group;            /* NULL for identity fields, which need no source */
  FieldKind kind;
  size_t offset;
} Field;

#define ARCH(f) offsetof (KsArchInfo, f)
#define GPU(f) offsetof (KsGpuInfo, f)

static const Field arch_fields[] = {
  { "name", NULL, KIND_IDENTITY_STRING, ARCH (name) },
  { "compute_capability", NULL, KIND_COMPUTE_CAPABILITY, 0 },
  { "representative_gpu", NULL, KIND_IDENTITY_STRING, ARCH (representative_gpu) },
  { "warp_size", "limits", KIND_POSITIVE, ARCH (warp_size) },
  { "max_threads_per_block", "limits", KIND_POSITIVE, ARCH (max_threads_per_block) },
  { "max_threads_per_sm", "limits", KIND_POSITIVE, ARCH (max_threads_per_sm) },
  { "max_warps_per_sm", "limits", KIND_POSITIVE, ARCH (max_warps_per_sm) },
  { "max_blocks_per_sm", "limits", KIND_POSITIVE, ARCH (max_blocks_per_sm) },
  { "registers_per_sm", "limits", KIND_POSITIVE, ARCH (registers_per_sm) },
  { "max_registers_per_block", "limits", KIND_POSITIVE, ARCH (max_registers_per_block) },
  { "max_registers_per_thread", "limits", KIND_POSITIVE, ARCH (max_registers_per_thread) },
  { "shared_per_sm_bytes", "limits", KIND_POSITIVE, ARCH (shared_per_sm_bytes) },
  { "shared_carveout_kib", "limits", KIND_KIB_LIST, 0 },
  { "shared_per_block_bytes", "limits", KIND_POSITIVE, ARCH (shared_per_block_bytes) },
  { "shared_per_block_optin_bytes", "limits", KIND_POSITIVE, ARCH (shared_per_block_optin_bytes) },
  { "barriers_per_block", "limits", KIND_POSITIVE, ARCH (barriers_per_block) },
  { "l1_shared_kib", "limits", KIND_POSITIVE, ARCH (l1_shared_kib) },
  { "register_allocation_unit", "allocation", KIND_POSITIVE, ARCH (register_allocation_unit) },
  { "register_allocation_granularity", "allocation", KIND_GRANULARITY, 0 },
  { "warp_allocation_granularity", "allocation", KIND_POSITIVE, ARCH (warp_allocation_granularity) },
  { "sub_partitions", "allocation", KIND_POSITIVE, ARCH (sub_partitions) },
  { "shared_reserved_per_block_bytes", "allocation", KIND_UNSIGNED, ARCH (shared_reserved_per_block_bytes) },
  { "shared_allocation_unit_bytes", "allocation", KIND_POSITIVE, ARCH (shared_allocation_unit_bytes) },
  { "barriers_per_sm", "allocation", KIND_POSITIVE, ARCH (barriers_per_sm) },
  { "l1_line_bytes", "memory", KIND_POSITIVE, ARCH (l1_line_bytes) },
  { "l1_sector_bytes", "memory", KIND_POSITIVE, ARCH (l1_sector_bytes) },
  { "l2_line_bytes", "memory", KIND_POSITIVE, ARCH (l2_line_bytes) },
  { "l2_sector_bytes", "memory", KIND_POSITIVE, ARCH (l2_sector_bytes) },
  { "fp32_lanes", "pipes", KIND_LANES, ARCH (fp32_lanes) },
  { "int32_lanes", "pipes", KIND_LANES, ARCH (int32_lanes) },
  { "fp64_lanes", "pipes", KIND_LANES, ARCH (fp64_lanes) },
  { "sfu_lanes", "pipes", KIND_LANES, ARCH (sfu_lanes) },
  { "lsu_lanes", "pipes", KIND_LANES, ARCH (lsu_lanes) },
  { "tensor_cores", "pipes", KIND_LANES, ARCH (tensor_cores) },
};

static const char *const arch_groups[] = { "limits", "allocation", "memory", "pipes", "default" };

static const Field gpu_fields[] = {
  { "name", NULL, KIND_IDENTITY_STRING, GPU (name) },
  { "arch", NULL, KIND_IDENTITY_STRING, GPU (arch) },
  { "sm_count", "spec", KIND_POSITIVE, GPU (sm_count) },
  { "boost_clock_mhz", "spec", KIND_POSITIVE, GPU (boost_clock_mhz) },
  { "memory_bandwidth_gbs", "spec", KIND_POSITIVE_NUMBER, GPU (memory_bandwidth_gbs) },
  { "memory_gb", "spec", KIND_POSITIVE_NUMBER, GPU (memory_gb) },
  { "l2_mb", "spec", KIND_POSITIVE_NUMBER, GPU (l2_mb) },
};

static const char *const gpu_groups[] = { "spec", "default" };

static const char *const latency_names[KS_N_LATENCIES] = {
  [KS_LATENCY_FFMA] = "ffma",
  [KS_LATENCY_IADD3] = "iadd3",
  [KS_LATENCY_IMAD] = "imad",
  [KS_LATENCY_DFMA] = "dfma",
  [KS_LATENCY_MUFU] = "mufu",
  [KS_LATENCY_LDS] = "lds",
  [KS_LATENCY_L1_HIT] = "l1_hit",
  [KS_LATENCY_L2_HIT] = "l2_hit",
  [KS_LATENCY_DRAM] = "dram",
};

const char *
ks_latency_class_name (KsLatencyClass klass)
{
  g_return_val_if_fail (klass < KS_N_LATENCIES, NULL);
  return latency_names[klass];
}

typedef struct
{
  const char *origin;
  GError **error;
} Ctx;

G_GNUC_PRINTF (3, 4)
static gboolean
fail (Ctx        *ctx,
      const char *path,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (ctx->error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID, "%s%s%s: %s",
               ctx->origin ? ctx->origin : "", ctx->origin ? ": " : "", path, message);
  return FALSE;
}

/* Reads an integer member; JSON numbers written with a fraction or an
 * exponent arrive as doubles and are refused, so "64.5" cannot become 64. */
static gboolean
read_uint (Ctx        *ctx,
           JsonNode   *node,
           const char *path,
           gboolean    positive,
           uint32_t   *out)
{
  gint64 v;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (ctx, path, positive ? "expected a positive integer" : "expected an integer >= 0");
  v = json_node_get_int (node);
  if (v < (positive ? 1 : 0) || v > G_MAXUINT32)
    return fail (ctx, path, positive ? "expected a positive integer" : "expected an integer >= 0");
  *out = (uint32_t) v;
  return TRUE;
}

static gboolean
read_number (Ctx        *ctx,
             JsonNode   *node,
             const char *path,
             gboolean    positive,
             double     *out)
{
  double v;

  if (!JSON_NODE_HOLDS_VALUE (node)
      || (json_node_get_value_type (node) != G_TYPE_INT64
          && json_node_get_value_type (node) != G_TYPE_DOUBLE))
    return fail (ctx, path, positive ? "expected a positive number" : "expected a number >= 0");
  v = json_node_get_double (node);
  if (!(positive ? v > 0 : v >= 0) || v > 1e12)
    return fail (ctx, path, positive ? "expected a positive number" : "expected a number >= 0");
  *out = v;
  return TRUE;
}

static gboolean
read_string (Ctx         *ctx,
             JsonNode    *node,
             const char  *path,
             const char **out)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING
      || json_node_get_string (node)[0] == '\0')
    return fail (ctx, path, "expected a non-empty string");
  *out = json_node_get_string (node);
  return TRUE;
}

static JsonObject *
read_object (Ctx        *ctx,
             JsonNode   *node,
             const char *path)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (ctx, path, "expected an object");
      return NULL;
    }
  return json_node_get_object (node);
}

static gboolean
is_comment (const char *member)
{
  return member[0] == '$';
}

static gboolean
name_in (const char        *name,
         const char *const *names,
         size_t             n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
field_known (const Field *fields,
             size_t       n_fields,
             const char  *name)
{
  for (size_t i = 0; i < n_fields; i++)
    if (strcmp (fields[i].name, name) == 0)
      return TRUE;
  return FALSE;
}

/* Fills sources[i] for every field that has a group: the field's own entry,
 * else its group's, else "default". */
static gboolean
read_sources (Ctx               *ctx,
              JsonObject        *object,
              const char        *path,
              const Field       *fields,
              size_t             n_fields,
              const char *const *groups,
              size_t             n_groups,
              char            ***out)
{
  g_autofree char *spath = g_strdup_printf ("%s.sources", path);
  g_autoptr(GList) members = NULL;
  JsonObject *sources;
  char **result;

  sources = read_object (ctx, json_object_get_member (object, "sources"), spath);
  if (sources == NULL)
    return FALSE;

  members = json_object_get_members (sources);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *member = l->data;
      g_autofree char *mpath = g_strdup_printf ("%s.%s", spath, member);
      const char *s;

      if (is_comment (member))
        continue;
      if (!field_known (fields, n_fields, member) && !name_in (member, groups, n_groups))
        return fail (ctx, mpath, "not a field or group name");
      if (!read_string (ctx, json_object_get_member (sources, member), mpath, &s))
        return FALSE;
    }

  result = g_new0 (char *, n_fields + 1);
  for (size_t i = 0; i < n_fields; i++)
    {
      const char *keys[3] = { fields[i].name, fields[i].group, "default" };

      if (fields[i].group == NULL)
        continue;
      for (size_t k = 0; k < G_N_ELEMENTS (keys) && result[i] == NULL; k++)
        if (json_object_has_member (sources, keys[k]))
          result[i] = g_strdup (json_object_get_string_member (sources, keys[k]));
      if (result[i] == NULL)
        {
          /* n_fields + 1 slots, NULL-terminated only at the end, so free by count */
          for (size_t j = 0; j < i; j++)
            g_free (result[j]);
          g_free (result);
          return fail (ctx, spath, "no source for \"%s\" (give one for the field, its group \"%s\" "
                       "or \"default\")", fields[i].name, fields[i].group);
        }
    }
  *out = result;
  return TRUE;
}

static void
free_sources (char   **sources,
              size_t   n)
{
  if (sources == NULL)
    return;
  for (size_t i = 0; i < n; i++)
    g_free (sources[i]);
  g_free (sources);
}

static gboolean
check_unknown_members (Ctx         *ctx,
                       JsonObject  *object,
                       const char  *path,
                       const Field *fields,
                       size_t       n_fields,
                       gboolean     is_arch)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *member = l->data;

      if (is_comment (member) || strcmp (member, "sources") == 0
          || (is_arch && strcmp (member, "latencies") == 0)
          || field_known (fields, n_fields, member))
        continue;
      {
        g_autofree char *mpath = g_strdup_printf ("%s.%s", path, member);

        return fail (ctx, mpath, "unknown field");
      }
    }
  return TRUE;
}

static gboolean
read_compute_capability (Ctx        *ctx,
                         JsonNode   *node,
                         const char *path,
                         KsArchInfo *arch)
{
  const char *s;
  char *end;
  unsigned long major, minor;

  if (!read_string (ctx, node, path, &s))
    return FALSE;
  if (!g_ascii_isdigit (s[0]))
    return fail (ctx, path, "expected \"MAJOR.MINOR\"");
  major = strtoul (s, &end, 10);
  if (*end != '.' || !g_ascii_isdigit (end[1]))
    return fail (ctx, path, "expected \"MAJOR.MINOR\"");
  minor = strtoul (end + 1, &end, 10);
  if (*end != '\0' || major == 0 || major > 99 || minor > 9)
    return fail (ctx, path, "expected \"MAJOR.MINOR\"");
  arch->compute_major = (uint32_t) major;
  arch->compute_minor = (uint32_t) minor;
  return TRUE;
}

static gboolean
read_kib_list (Ctx        *ctx,
               JsonNode   *node,
               const char *path,
               KsArchInfo *arch)
{
  JsonArray *array;
  uint32_t n;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (ctx, path, "expected an array of sizes in KiB");
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n == 0 || n > 64)
    return fail (ctx, path, "expected 1 to 64 sizes in KiB");
  arch->shared_carveout_kib = g_new0 (uint32_t, n);
  arch->n_shared_carveouts = n;
  for (uint32_t i = 0; i < n; i++)
    {
      g_autofree char *ipath = g_strdup_printf ("%s[%u]", path, i);

      if (!read_uint (ctx, json_array_get_element (array, i), ipath, FALSE,
                      &arch->shared_carveout_kib[i]))
        return FALSE;
      if (arch->shared_carveout_kib[i] > G_MAXUINT32 / 1024)
        return fail (ctx, ipath, "too large");
      if (i > 0 && arch->shared_carveout_kib[i] <= arch->shared_carveout_kib[i - 1])
        return fail (ctx, ipath, "the carveout steps must be in ascending order");
    }
  return TRUE;
}

/* Reads every field of the table into the struct at base. */
static gboolean
read_fields (Ctx         *ctx,
             JsonObject  *object,
             const char  *path,
             const Field *fields,
             size_t       n_fields,
             void        *base)
{
  for (size_t i = 0; i < n_fields; i++)
    {
      const Field *f = &fields[i];
      g_autofree char *fpath = g_strdup_printf ("%s.%s", path, f->name);
      JsonNode *node = json_object_get_member (object, f->name);
      void *p = (char *) base + f->offset;
      const char *s;

      if (node == NULL)
        return fail (ctx, fpath, "missing");

      switch (f->kind)
        {
        case KIND_IDENTITY_STRING:
          if (!read_string (ctx, node, fpath, &s))
            return FALSE;
          *(char **) p = g_strdup (s);
          break;
        case KIND_COMPUTE_CAPABILITY:
          if (!read_compute_capability (ctx, node, fpath, base))
            return FALSE;
          break;
        case KIND_POSITIVE:
        case KIND_UNSIGNED:
          if (!read_uint (ctx, node, fpath, f->kind == KIND_POSITIVE, p))
            return FALSE;
          break;
        case KIND_LANES:
        case KIND_POSITIVE_NUMBER:
          if (!read_number (ctx, node, fpath, f->kind == KIND_POSITIVE_NUMBER, p))
            return FALSE;
          break;
        case KIND_KIB_LIST:
          if (!read_kib_list (ctx, node, fpath, base))
            return FALSE;
          break;
        case KIND_GRANULARITY:
          if (!read_string (ctx, node, fpath, &s))
            return FALSE;
          if (strcmp (s, "warp") == 0)
            ((KsArchInfo *) base)->register_allocation_granularity = KS_REG_GRANULARITY_WARP;
          else if (strcmp (s, "block") == 0)
            ((KsArchInfo *) base)->register_allocation_granularity = KS_REG_GRANULARITY_BLOCK;
          else
            return fail (ctx, fpath, "expected \"warp\" or \"block\"");
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return TRUE;
}

static gboolean
read_latencies (Ctx        *ctx,
                JsonObject *object,
                const char *path,
                KsArchInfo *arch)
{
  g_autofree char *lpath = g_strdup_printf ("%s.latencies", path);
  g_autoptr(GList) members = NULL;
  JsonObject *lat = read_object (ctx, json_object_get_member (object, "latencies"), lpath);

  if (lat == NULL)
    return FALSE;

  members = json_object_get_members (lat);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *member = l->data;
      gboolean known = FALSE;

      for (guint k = 0; k < KS_N_LATENCIES; k++)
        known |= strcmp (member, latency_names[k]) == 0;
      if (!known && !is_comment (member))
        {
          g_autofree char *mpath = g_strdup_printf ("%s.%s", lpath, member);

          return fail (ctx, mpath, "unknown instruction class");
        }
    }

  for (guint k = 0; k < KS_N_LATENCIES; k++)
    {
      g_autofree char *kpath = g_strdup_printf ("%s.%s", lpath, latency_names[k]);
      g_autofree char *p_lat = g_strdup_printf ("%s.latency", kpath);
      g_autofree char *p_issue = g_strdup_printf ("%s.issue", kpath);
      g_autofree char *p_source = g_strdup_printf ("%s.source", kpath);
      JsonObject *entry;
      const char *source;
      JsonNode *node;

      if (!json_object_has_member (lat, latency_names[k]))
        return fail (ctx, kpath, "missing");
      entry = read_object (ctx, json_object_get_member (lat, latency_names[k]), kpath);
      if (entry == NULL)
        return FALSE;
      if ((node = json_object_get_member (entry, "latency")) == NULL)
        return fail (ctx, p_lat, "missing");
      if (!read_uint (ctx, node, p_lat, TRUE, &arch->latencies[k].latency))
        return FALSE;
      if ((node = json_object_get_member (entry, "issue")) == NULL)
        return fail (ctx, p_issue, "missing");
      if (!read_number (ctx, node, p_issue, FALSE, &arch->latencies[k].issue))
        return FALSE;
      if ((node = json_object_get_member (entry, "source")) == NULL)
        return fail (ctx, p_source, "missing");
      if (!read_string (ctx, node, p_source, &source))
        return FALSE;
      arch->latencies[k].source = g_strdup (source);
    }
  return TRUE;
}

static void
arch_info_clear (KsArchInfo *arch)
{
  g_free (arch->id);
  g_free (arch->name);
  g_free (arch->representative_gpu);
  g_free (arch->shared_carveout_kib);
  for (guint k = 0; k < KS_N_LATENCIES; k++)
    g_free (arch->latencies[k].source);
  free_sources (arch->sources, G_N_ELEMENTS (arch_fields));
}

static void
gpu_info_clear (KsGpuInfo *gpu)
{
  g_free (gpu->id);
  g_free (gpu->name);
  g_free (gpu->arch);
  free_sources (gpu->sources, G_N_ELEMENTS (gpu_fields));
}

/* The relations between fields that the occupancy rules rely on. */
static gboolean
check_arch (Ctx              *ctx,
            const char       *path,
            const KsArchInfo *a)
{
  g_autofree char *p = NULL;
  uint32_t last = a->shared_carveout_kib[a->n_shared_carveouts - 1];

#define FIELD_PATH(f) (g_free (p), p = g_strdup_printf ("%s.%s", path, f))
  if ((uint64_t) a->max_warps_per_sm * a->warp_size != a->max_threads_per_sm)
    return fail (ctx, FIELD_PATH ("max_threads_per_sm"), "must equal max_warps_per_sm * warp_size");
  if (a->max_threads_per_block > a->max_threads_per_sm)
    return fail (ctx, FIELD_PATH ("max_threads_per_block"), "must not exceed max_threads_per_sm");
  if (a->max_registers_per_block > a->registers_per_sm)
    return fail (ctx, FIELD_PATH ("max_registers_per_block"), "must not exceed registers_per_sm");
  if (a->registers_per_sm % a->sub_partitions != 0)
    return fail (ctx, FIELD_PATH ("sub_partitions"), "must divide registers_per_sm");
  if ((uint64_t) last * 1024 != a->shared_per_sm_bytes)
    return fail (ctx, FIELD_PATH ("shared_carveout_kib"),
                 "the largest step must equal shared_per_sm_bytes / 1024");
  if (a->shared_per_block_bytes > a->shared_per_block_optin_bytes)
    return fail (ctx, FIELD_PATH ("shared_per_block_bytes"),
                 "must not exceed shared_per_block_optin_bytes");
  if ((uint64_t) a->shared_per_block_optin_bytes + a->shared_reserved_per_block_bytes
      > a->shared_per_sm_bytes)
    return fail (ctx, FIELD_PATH ("shared_per_block_optin_bytes"),
                 "with shared_reserved_per_block_bytes must fit in shared_per_sm_bytes");
  if (a->max_registers_per_thread > 1024)
    return fail (ctx, FIELD_PATH ("max_registers_per_thread"), "must be at most 1024");
  if (a->warp_size > 1024)
    return fail (ctx, FIELD_PATH ("warp_size"), "must be at most 1024");
  if (a->register_allocation_unit > a->registers_per_sm)
    return fail (ctx, FIELD_PATH ("register_allocation_unit"), "must not exceed registers_per_sm");
#undef FIELD_PATH
  return TRUE;
}

static gboolean
valid_arch_id (const char *id)
{
  if (!g_str_has_prefix (id, "sm_") || !g_ascii_isdigit (id[3]))
    return FALSE;
  for (const char *c = id + 3; *c; c++)
    if (!g_ascii_isdigit (*c))
      return FALSE;
  return TRUE;
}

static int
compare_arch (const void *a,
              const void *b)
{
  const KsArchInfo *x = a, *y = b;

  if (x->compute_major != y->compute_major)
    return x->compute_major < y->compute_major ? -1 : 1;
  if (x->compute_minor != y->compute_minor)
    return x->compute_minor < y->compute_minor ? -1 : 1;
  return strcmp (x->id, y->id);
}

static int
compare_gpu (const void *a,
             const void *b)
{
  return strcmp (((const KsGpuInfo *) a)->id, ((const KsGpuInfo *) b)->id);
}

static KsGpuDb *
db_from_tree (JsonNode    *root,
              const char  *origin,
              GError     **error)
{
  g_autoptr(KsGpuDb) db = g_new0 (KsGpuDb, 1);
  Ctx ctx = { origin, error };
  g_autoptr(GList) arch_keys = NULL;
  g_autoptr(GList) gpu_keys = NULL;
  g_autoptr(GList) top = NULL;
  JsonObject *obj, *archs, *gpus;
  guint n;

  db->origin = g_strdup (origin);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (&ctx, "(root)", "expected an object with \"archs\" and \"gpus\"");
      return NULL;
    }
  obj = json_node_get_object (root);
  top = json_object_get_members (obj);
  for (GList *l = top; l != NULL; l = l->next)
    if (!is_comment (l->data) && strcmp (l->data, "archs") != 0 && strcmp (l->data, "gpus") != 0
        && strcmp (l->data, "version") != 0)
      {
        fail (&ctx, l->data, "unknown field");
        return NULL;
      }
  if ((archs = read_object (&ctx, json_object_get_member (obj, "archs"), "archs")) == NULL)
    return NULL;
  if ((gpus = read_object (&ctx, json_object_get_member (obj, "gpus"), "gpus")) == NULL)
    return NULL;

  arch_keys = json_object_get_members (archs);
  for (GList *l = arch_keys; l != NULL; l = l->next)
    if (is_comment (l->data))
      l->data = NULL;
  n = g_list_length (arch_keys);
  db->archs = g_new0 (KsArchInfo, n);
  for (GList *l = arch_keys; l != NULL; l = l->next)
    {
      const char *key = l->data;
      g_autofree char *path = NULL;
      KsArchInfo *a;
      JsonObject *o;

      if (key == NULL)
        continue;
      path = g_strdup_printf ("archs.%s", key);
      if (!valid_arch_id (key))
        {
          fail (&ctx, path, "an architecture's key must look like \"sm_86\"");
          return NULL;
        }
      if ((o = read_object (&ctx, json_object_get_member (archs, key), path)) == NULL)
        return NULL;
      a = &db->archs[db->n_archs++];
      a->id = g_strdup (key);
      if (!check_unknown_members (&ctx, o, path, arch_fields, G_N_ELEMENTS (arch_fields), TRUE)
          || !read_fields (&ctx, o, path, arch_fields, G_N_ELEMENTS (arch_fields), a)
          || !read_latencies (&ctx, o, path, a)
          || !read_sources (&ctx, o, path, arch_fields, G_N_ELEMENTS (arch_fields),
                            arch_groups, G_N_ELEMENTS (arch_groups), &a->sources)
          || !check_arch (&ctx, path, a))
        return NULL;
    }

  gpu_keys = json_object_get_members (gpus);
  n = g_list_length (gpu_keys);
  db->gpus = g_new0 (KsGpuInfo, n);
  for (GList *l = gpu_keys; l != NULL; l = l->next)
    {
      const char *key = l->data;
      g_autofree char *path = NULL;
      g_autofree char *apath = NULL;
      KsGpuInfo *g;
      JsonObject *o;

      if (is_comment (key))
        continue;
      path = g_strdup_printf ("gpus.%s", key);
      if ((o = read_object (&ctx, json_object_get_member (gpus, key), path)) == NULL)
        return NULL;
      g = &db->gpus[db->n_gpus++];
      g->id = g_strdup (key);
      if (!check_unknown_members (&ctx, o, path, gpu_fields, G_N_ELEMENTS (gpu_fields), FALSE)
          || !read_fields (&ctx, o, path, gpu_fields, G_N_ELEMENTS (gpu_fields), g)
          || !read_sources (&ctx, o, path, gpu_fields, G_N_ELEMENTS (gpu_fields),
                            gpu_groups, G_N_ELEMENTS (gpu_groups), &g->sources))
        return NULL;
      apath = g_strdup_printf ("%s.arch", path);
      if (!json_object_has_member (archs, g->arch) || is_comment (g->arch))
        {
          fail (&ctx, apath, "unknown architecture \"%s\"", g->arch);
          return NULL;
        }
    }

  qsort (db->archs, db->n_archs, sizeof *db->archs, compare_arch);
  qsort (db->gpus, db->n_gpus, sizeof *db->gpus, compare_gpu);

  for (guint i = 0; i < db->n_archs; i++)
    {
      const KsArchInfo *a = &db->archs[i];
      const KsGpuInfo *g = ks_gpu_db_get_gpu (db, a->representative_gpu);
      g_autofree char *path = g_strdup_printf ("archs.%s.representative_gpu", a->id);

      if (g == NULL)
        {
          fail (&ctx, path, "unknown GPU \"%s\"", a->representative_gpu);
          return NULL;
        }
      if (strcmp (g->arch, a->id) != 0)
        {
          fail (&ctx, path, "GPU \"%s\" is a %s, not a %s", g->id, g->arch, a->id);
          return NULL;
        }
    }

  return g_steal_pointer (&db);
}

static JsonNode *
parse_text (const char  *data,
            gssize       length,
            const char  *origin,
            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;

  if (!ks_json_load_data (parser, data, length, NULL, &local))
    {
      /* json-glib names in-memory data "<data>"; say which file it was */
      const char *msg = local->message;

      if (g_str_has_prefix (msg, "<data>"))
        msg += strlen ("<data>");
      else if (msg[0] != ':')
        {
          g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX, "%s: %s",
                       origin ? origin : "gpus.json", msg);
          return NULL;
        }
      g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX, "%s%s",
                   origin ? origin : "gpus.json", msg);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_SYNTAX, "%s: empty file",
                   origin ? origin : "gpus.json");
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

/* Merges over into base by key: objects member by member, anything else
 * (numbers, strings, arrays) replaced whole. */
static void
merge_objects (JsonObject *base,
               JsonObject *over)
{
  g_autoptr(GList) members = json_object_get_members (over);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *member = l->data;
      JsonNode *o = json_object_get_member (over, member);
      JsonNode *b = json_object_get_member (base, member);

      if (b != NULL && JSON_NODE_HOLDS_OBJECT (b) && JSON_NODE_HOLDS_OBJECT (o))
        merge_objects (json_node_get_object (b), json_node_get_object (o));
      else
        json_object_set_member (base, member, json_node_copy (o));
    }
}

KsGpuDb *
ks_gpu_db_load_data (const char  *data,
                     gssize       length,
                     const char  *origin,
                     GError     **error)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((root = parse_text (data, length, origin, error)) == NULL)
    return NULL;
  return db_from_tree (root, origin, error);
}

/**
 * ks_gpu_db_load_files:
 * @paths: (array zero-terminated=1): files, each merged over the ones before
 *
 * Returns: (transfer full): the database, or %NULL with @error set
 */
KsGpuDb *
ks_gpu_db_load_files (const char *const  *paths,
                      GError            **error)
{
  g_autoptr(JsonNode) merged = NULL;
  g_autoptr(GString) origin = g_string_new (NULL);

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *display = g_filename_display_name (paths[i]);
      g_autoptr(GError) local = NULL;
      g_autoptr(JsonNode) node = NULL;
      gsize len;

      if (!g_file_get_contents (paths[i], &text, &len, &local))
        {
          g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_NOT_FOUND, "%s", local->message);
          return NULL;
        }
      if ((node = parse_text (text, (gssize) len, display, error)) == NULL)
        return NULL;
      g_string_append_printf (origin, "%s%s", i ? " + " : "", display);
      if (merged == NULL)
        merged = g_steal_pointer (&node);
      else if (JSON_NODE_HOLDS_OBJECT (merged) && JSON_NODE_HOLDS_OBJECT (node))
        merge_objects (json_node_get_object (merged), json_node_get_object (node));
      else
        {
          g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID,
                       "%s: (root): expected an object", display);
          return NULL;
        }
    }
  return db_from_tree (merged, origin->str, error);
}

/**
 * ks_gpu_db_find_builtin:
 *
 * The built-in gpus.json: $KS_DATA_DIR/gpus.json when KS_DATA_DIR is set
 * (tests, and running from a build tree), else the installed
 * $datadir/kernelscope/gpus.json, else data/gpus.json in the source tree
 * the binary was built from.
 *
 * Returns: (transfer full) (nullable): a path, or %NULL when none exists
 */
char *
ks_gpu_db_find_builtin (void)
{
  const char *env = g_getenv ("KS_DATA_DIR");
  const char *dirs[] = {
#ifdef KS_PKGDATADIR
    KS_PKGDATADIR,
#endif
#ifdef KS_SOURCE_DATADIR
    KS_SOURCE_DATADIR,
#endif
    NULL
  };

  /* An explicit directory wins even when the file is missing, so the error
   * names the place the user asked for rather than some other copy. */
  if (env != NULL && env[0] != '\0')
    return g_build_filename (env, "gpus.json", NULL);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "gpus.json", NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  return NULL;
}

/**
 * ks_gpu_db_user_file:
 *
 * Returns: (transfer full): $XDG_CONFIG_HOME/kernelscope/gpus.json, whether
 *   or not it exists
 */
char *
ks_gpu_db_user_file (void)
{
  return g_build_filename (g_get_user_config_dir (), "kernelscope", "gpus.json", NULL);
}

/**
 * ks_gpu_db_load_default:
 *
 * Returns: (transfer full): the built-in database with the user's file
 *   merged over it, or %NULL with @error set
 */
KsGpuDb *
ks_gpu_db_load_default (GError **error)
{
  g_autofree char *builtin = ks_gpu_db_find_builtin ();
  g_autofree char *user = ks_gpu_db_user_file ();
  const char *paths[3] = { builtin, NULL, NULL };

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (builtin == NULL)
    {
      g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_NOT_FOUND,
                   "the built-in GPU database (gpus.json) was not found; "
                   "set KS_DATA_DIR to the folder that holds it");
      return NULL;
    }
  if (g_file_test (user, G_FILE_TEST_IS_REGULAR))
    paths[1] = user;
  return ks_gpu_db_load_files (paths, error);
}

/* The object member @name of @o, made when missing; NULL when it is there
 * and not an object */
static JsonObject *
object_member (JsonObject *o,
               const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL)
    {
      json_object_set_object_member (o, name, json_object_new ());
      n = json_object_get_member (o, name);
    }
  return JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/**
 * ks_gpu_db_set_user_latency:
 *
 * Writes one latency into the user's file (ks_gpu_db_user_file(): made if
 * missing, its other members kept): archs.@arch.latencies.@klass's
 * "latency" and "source", merged over the built-in entry as every user
 * override is.  The file is written only when the database loads with it.
 *
 * Returns: the file's path (g_free), or %NULL with @error set
 */
char *
ks_gpu_db_set_user_latency (const char     *arch,
                            KsLatencyClass  klass,
                            guint           latency,
                            const char     *source,
                            GError        **error)
{
  g_autofree char *path = ks_gpu_db_user_file ();
  g_autofree char *builtin = ks_gpu_db_find_builtin ();
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = NULL, *temp = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) gen = NULL;
  g_autoptr(KsGpuDb) db = NULL;
  JsonObject *o, *entry;
  gsize len = 0;

  g_return_val_if_fail (arch != NULL && klass < KS_N_LATENCIES && source != NULL, NULL);
  if (builtin == NULL)
    {
      g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_NOT_FOUND,
                   "the built-in GPU database (gpus.json) was not found");
      return NULL;
    }
  if (g_file_get_contents (path, &text, &len, NULL))
    {
      root = parse_text (text, (gssize) len, display, error);
      if (root == NULL)
        return NULL;
    }
  else
    root = json_node_init_object (json_node_alloc (), json_object_new ());
  if (!JSON_NODE_HOLDS_OBJECT (root)
      || (o = object_member (json_node_get_object (root), "archs")) == NULL
      || (o = object_member (o, arch)) == NULL
      || (o = object_member (o, "latencies")) == NULL
      || (entry = object_member (o, latency_names[klass])) == NULL)
    {
      g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID,
                   "%s: archs.%s.latencies.%s is not where an object can go", display, arch,
                   latency_names[klass]);
      return NULL;
    }
  json_object_set_int_member (entry, "latency", latency);
  json_object_set_string_member (entry, "source", source);

  gen = json_generator_new ();
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  g_free (text);
  text = json_generator_to_data (gen, NULL);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", dir,
                   g_strerror (errno));
      return NULL;
    }
  /* the database must load with it before it replaces the file */
  temp = g_strconcat (path, ".new", NULL);
  if (!g_file_set_contents (temp, text, -1, error))
    return NULL;
  {
    const char *paths[] = { builtin, temp, NULL };

    db = ks_gpu_db_load_files (paths, error);
  }
  if (db == NULL || ks_gpu_db_get_arch (db, arch) == NULL)
    {
      if (db != NULL)
        g_set_error (error, KS_GPU_DB_ERROR, KS_GPU_DB_ERROR_INVALID,
                     "the GPU database has no architecture %s", arch);
      g_unlink (temp);
      return NULL;
    }
  if (g_rename (temp, path) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", display,
                   g_strerror (errno));
      g_unlink (temp);
      return NULL;
    }
  return g_steal_pointer (&path);
}

void
ks_gpu_db_free (KsGpuDb *db)
{
  if (db == NULL)
    return;
  for (guint i = 0; i < db->n_archs; i++)
    arch_info_clear (&db->archs[i]);
  for (guint i = 0; i < db->n_gpus; i++)
    gpu_info_clear (&db->gpus[i]);
  g_free (db->archs);
  g_free (db->gpus);
  g_free (db->origin);
  g_free (db);
}

/**
 * ks_gpu_db_get_arch:
 * @arch: "sm_86", "sm_90a", "compute_86", "86" or "8.6"
 *
 * Returns: (transfer none) (nullable): the arch
 */
const KsArchInfo *
ks_gpu_db_get_arch (const KsGpuDb *db,
                    const char    *arch)
{
  g_autofree char *digits = NULL;
  const char *s;
  size_t len;

  g_return_val_if_fail (db != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);

  s = arch;
  if (g_str_has_prefix (s, "sm_"))
    s += 3;
  else if (g_str_has_prefix (s, "compute_"))
    s += 8;

  if (strchr (s, '.') != NULL)
    {
      for (guint i = 0; i < db->n_archs; i++)
        {
          g_autofree char *cc = g_strdup_printf ("%u.%u", db->archs[i].compute_major,
                                                 db->archs[i].compute_minor);

          if (strcmp (cc, s) == 0)
            return &db->archs[i];
        }
      return NULL;
    }

  /* Arch-specific and family variants (sm_90a, sm_100f) share the base's resources. */
  digits = g_strdup (s);
  len = strlen (digits);
  if (len > 1 && (digits[len - 1] == 'a' || digits[len - 1] == 'f'))
    digits[len - 1] = '\0';
  for (guint i = 0; i < db->n_archs; i++)
    if (strcmp (db->archs[i].id + 3, digits) == 0)
      return &db->archs[i];
  return NULL;
}

const KsGpuInfo *
ks_gpu_db_get_gpu (const KsGpuDb *db,
                   const char    *id)
{
  g_return_val_if_fail (db != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < db->n_gpus; i++)
    if (db->gpus[i].id != NULL && g_ascii_strcasecmp (db->gpus[i].id, id) == 0)
      return &db->gpus[i];
  return NULL;
}

const KsGpuInfo *
ks_gpu_db_representative_gpu (const KsGpuDb    *db,
                              const KsArchInfo *arch)
{
  g_return_val_if_fail (db != NULL, NULL);
  g_return_val_if_fail (arch != NULL, NULL);

  return ks_gpu_db_get_gpu (db, arch->representative_gpu);
}

static const char *
lookup_source (char *const *sources,
               const Field *fields,
               size_t       n_fields,
               const char  *field)
{
  for (size_t i = 0; i < n_fields; i++)
    if (strcmp (fields[i].name, field) == 0)
      return sources[i];
  return NULL;
}

/**
 * ks_arch_info_source:
 * @field: a field's JSON name ("max_warps_per_sm") or "latencies.ffma"
 *
 * Returns: (transfer none) (nullable): where the figure comes from
 */
const char *
ks_arch_info_source (const KsArchInfo *arch,
                     const char       *field)
{
  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (field != NULL, NULL);

  if (g_str_has_prefix (field, "latencies."))
    {
      for (guint k = 0; k < KS_N_LATENCIES; k++)
        if (strcmp (field + strlen ("latencies."), latency_names[k]) == 0)
          return arch->latencies[k].source;
      return NULL;
    }
  return lookup_source (arch->sources, arch_fields, G_N_ELEMENTS (arch_fields), field);
}

const char *
ks_gpu_info_source (const KsGpuInfo *gpu,
                    const char      *field)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  g_return_val_if_fail (field != NULL, NULL);

  return lookup_source (gpu->sources, gpu_fields, G_N_ELEMENTS (gpu_fields), field);
}
