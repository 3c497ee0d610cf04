/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-anatomy.c: a launch's anatomy from a finished analysis (ks-anatomy.h). */
#include "ks-anatomy.h"

#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks-gpu-db.h"
#include "ks-lower.h"
#include "ks-occupancy.h"
#include "ks-ptx.h"
#include "ks-sass.h"
#include "ks-sass-cubin.h"
#include "ks-sim.h"
#include "ks-sim-memory.h"
#include "ks-timing.h"

G_STATIC_ASSERT (KS_OCCUPANCY_UNLIMITED == KS_ANATOMY_NONE);

static const struct
{
  const char *name;
  gboolean integral;            /* a count: an integer in the JSON */
} metrics[KS_ANATOMY_N_METRICS] = {
  [KS_ANATOMY_GRID_SIZE] = { "launch__grid_size", TRUE },
  [KS_ANATOMY_BLOCK_SIZE] = { "launch__block_size", TRUE },
  [KS_ANATOMY_REGISTERS] = { "launch__registers_per_thread", TRUE },
  [KS_ANATOMY_WAVES] = { "launch__waves_per_multiprocessor", FALSE },
  [KS_ANATOMY_WARPS_ACTIVE] = { "sm__warps_active.avg.pct_of_peak", FALSE },
  [KS_ANATOMY_ISSUE_ACTIVE] = { "smsp__issue_active.avg.pct_of_peak", FALSE },
  [KS_ANATOMY_DRAM_THROUGHPUT] = { "dram__throughput.avg.pct_of_peak", FALSE },
  [KS_ANATOMY_DURATION] = { "gpu__time_duration.sum", FALSE },
};

const char *
ks_anatomy_metric_name (KsAnatomyMetric metric)
{
  g_return_val_if_fail (metric < KS_ANATOMY_N_METRICS, NULL);
  return metrics[metric].name;
}

double
ks_anatomy_model_metric (const KsAnatomy *an,
                         KsAnatomyMetric  metric)
{
  switch (metric)
    {
    case KS_ANATOMY_GRID_SIZE: return (double) an->blocks;
    case KS_ANATOMY_BLOCK_SIZE: return (double) an->block[0] * an->block[1] * an->block[2];
    case KS_ANATOMY_REGISTERS: return an->registers;
    case KS_ANATOMY_WAVES: return an->waves_per_sm;
    case KS_ANATOMY_WARPS_ACTIVE: return 100 * an->warps_active;
    case KS_ANATOMY_ISSUE_ACTIVE: return 100 * an->issue_active;
    case KS_ANATOMY_DRAM_THROUGHPUT: return 100 * an->dram_throughput;
    case KS_ANATOMY_DURATION: return an->duration_us;
    case KS_ANATOMY_N_METRICS: default: break;
    }
  g_return_val_if_reached (NAN);
}

/* The metrics under their names; the counts as integers, and none of those
 * `m` leaves NAN */
static void
add_metrics (JsonBuilder  *b,
             const double *m)
{
  for (guint i = 0; i < KS_ANATOMY_N_METRICS; i++)
    if (!isnan (m[i]))
      {
        json_builder_set_member_name (b, metrics[i].name);
        if (metrics[i].integral)
          json_builder_add_int_value (b, (gint64) m[i]);
        else
          json_builder_add_double_value (b, m[i]);
      }
}

static void
measured_clear (KsAnatomyMeasured *m)
{
  g_clear_pointer (&m->source, g_free);
  g_clear_pointer (&m->gpu, g_free);
}

static double
metric (JsonObject *o,
        const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) != G_TYPE_STRING
         ? json_node_get_double (n) : NAN;
}

static void
uint3 (JsonObject *o,
       const char *name,
       uint32_t   *v)
{
  JsonArray *a = json_object_has_member (o, name) ? json_object_get_array_member (o, name)
                                                   : NULL;

  for (guint i = 0; i < 3; i++)
    v[i] = a != NULL && i < json_array_get_length (a)
           ? (uint32_t) json_array_get_int_element (a, i) : 1;
}

/* Whether the analysis ran the launch's PTX file as it is on disk */
static gboolean
ptx_unedited (const KsAnalysis *a)
{
  g_autofree char *ptx = NULL;

  return a->launch != NULL && a->launch->ptx_path != NULL && a->ptx_text != NULL
         && g_file_get_contents (a->launch->ptx_path, &ptx, NULL, NULL)
         && g_str_equal (ptx, a->ptx_text);
}

/* The CUDA file whose kernel the analysis ran, unedited: the file of the
 * folder `dir` whose text is the analysed CUDA, or, for a PTX file
 * analysed as it is on disk, the CUDA file of the same name beside it;
 * NULL when the kernel is not a sample's or was edited.  text: (out)
 * (optional) its contents */
static char *
sample_cuda (const KsAnalysis *a,
             const char       *dir,
             char            **text)
{
  if (a->cuda_text != NULL)
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".cu"))
          {
            g_autofree char *path = g_build_filename (dir, name, NULL);
            g_autofree char *cu = NULL;

            if (g_file_get_contents (path, &cu, NULL, NULL) && g_str_equal (cu, a->cuda_text))
              {
                if (text != NULL)
                  *text = g_steal_pointer (&cu);
                return g_steal_pointer (&path);
              }
          }
    }
  else if (ptx_unedited (a))
    {
      /* beside the PTX file, wherever the spec is */
      g_autofree char *base = g_path_get_basename (a->launch->ptx_path);
      g_autofree char *folder = g_path_get_dirname (a->launch->ptx_path);
      g_autofree char *stem = g_str_has_suffix (base, ".ptx")
                              ? g_strndup (base, strlen (base) - 4) : g_strdup (base);
      g_autofree char *cu = g_strconcat (stem, ".cu", NULL);
      g_autofree char *path = g_build_filename (folder, cu, NULL);

      if (text == NULL ? g_file_test (path, G_FILE_TEST_EXISTS)
                       : g_file_get_contents (path, text, NULL, NULL))
        return g_steal_pointer (&path);
    }
  return NULL;
}

/* Whether the analysis ran the sample's own kernel: its CUDA or its PTX as
 * the files in the sample's folder have them, not an edit */
static gboolean
sample_kernel_unedited (const KsAnalysis *a,
                        const char       *dir)
{
  g_autofree char *path = NULL;

  /* the PTX as its file has it, whether or not a CUDA file is beside it
   * (a PTX-only sample) */
  if (a->cuda_text == NULL)
    return ptx_unedited (a);
  path = sample_cuda (a, dir, NULL);
  return path != NULL;
}

/* The sample's record of nvcc --keep (ks-artifacts.h), for its unedited
 * kernel */
static KsArtifacts *
sample_artifacts (const KsAnalysis *a)
{
  const char *from = a->launch && a->launch->spec_path ? a->launch->spec_path : a->path;
  g_autofree char *dir = NULL, *text = NULL, *cuda = NULL, *record = NULL;

  if (from == NULL)
    return NULL;
  dir = g_path_get_dirname (from);
  cuda = sample_cuda (a, dir, &text);
  if (cuda == NULL)
    return NULL;
  g_free (dir);
  dir = g_path_get_dirname (cuda);
  record = ks_artifacts_record_path (dir, cuda);
  return ks_artifacts_load (record, text, NULL);
}

/* The entry's "params": null for a buffer, an integer for a scalar of the
 * launch that must have that value (vadd's n) */
static gboolean
params_match (JsonObject     *e,
              const KsLaunch *l)
{
  JsonArray *p = json_object_has_member (e, "params") ? json_object_get_array_member (e, "params")
                                                      : NULL;

  for (guint i = 0; p != NULL && i < json_array_get_length (p); i++)
    {
      JsonNode *n = json_array_get_element (p, i);

      if (JSON_NODE_HOLDS_NULL (n))
        continue;
      if (l == NULL || i >= l->n_params || l->params[i].is_buffer
          || l->params[i].bits != (uint64_t) json_node_get_int (n))
        return FALSE;
    }
  return TRUE;
}

/* A sample's "measured" entries (the sample.json beside a spec): the one
 * of this launch on this GPU, else the first, as the other */
static void
load_measured (KsAnatomy        *an,
               const KsAnalysis *a)
{
  g_autofree char *dir = NULL, *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonArray *entries;

  /* the spec the launch was read from (the window analyses its PTX or
   * CUDA, with the launch); the command line's path is the spec */
  const char *spec = a->launch && a->launch->spec_path ? a->launch->spec_path : a->path;

  if (spec == NULL || !g_str_has_suffix (spec, ".json"))
    return;
  dir = g_path_get_dirname (spec);
  path = g_build_filename (dir, "sample.json", NULL);
  if (!json_parser_load_from_file (parser, path, NULL)
      || !JSON_NODE_HOLDS_OBJECT (root = json_parser_get_root (parser))
      || !json_object_has_member (json_node_get_object (root), "measured"))
    return;
  entries = json_object_get_array_member (json_node_get_object (root), "measured");
  for (guint i = 0; entries != NULL && i < json_array_get_length (entries); i++)
    {
      JsonNode *en = json_array_get_element (entries, i);
      JsonObject *e = JSON_NODE_HOLDS_OBJECT (en) ? json_node_get_object (en) : NULL;
      JsonObject *nsight;
      KsAnatomyMeasured m = { 0 };
      gboolean here;

      if (e == NULL || !json_object_has_member (e, "source") || !json_object_has_member (e, "gpu"))
        continue;
      nsight = json_object_has_member (e, "nsight") ? json_object_get_object_member (e, "nsight")
                                                    : NULL;
      m.source = g_strdup (json_object_get_string_member (e, "source"));
      m.gpu = g_strdup (json_object_get_string_member (e, "gpu"));
      uint3 (e, "grid", m.grid);
      uint3 (e, "block", m.block);
      for (guint k = 0; k < KS_ANATOMY_N_METRICS; k++)
        m.nsight[k] = metric (nsight, metrics[k].name);
      here = g_strcmp0 (m.gpu, an->gpu) == 0 && memcmp (m.grid, an->grid, sizeof m.grid) == 0
             && memcmp (m.block, an->block, sizeof m.block) == 0 && params_match (e, a->launch);
      if (here && an->measured.source == NULL && sample_kernel_unedited (a, dir))
        an->measured = m;
      else if (an->other.source == NULL)
        {
          an->other = m;
          an->other_is_edited = here;
        }
      else
        measured_clear (&m);
    }
  /* the other is for a launch not shown: none when this one is */
  if (an->measured.source != NULL)
    measured_clear (&an->other);
}

/* The first sub-partition's warps of the blocks launched first (the
 * model's warps are in launch order), and their issues over the window:
 * up to the last of them retiring, at most KS_ANATOMY_SCHEDULER_CYCLES */
static void
fill_scheduler (KsAnatomy      *an,
                const KsTiming *t)
{
  uint32_t first = G_MAXUINT32, end = 0, n = 0;
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (KsTimingEvent));

  for (uint32_t w = 0; w < t->n_warps; w++)
    first = MIN (first, t->warps[w].start_cycle);
  for (uint32_t w = 0; w < t->n_warps; w++)
    if (t->warps[w].sub_partition == 0 && t->warps[w].start_cycle == first)
      {
        end = MAX (end, t->warps[w].end_cycle);
        n++;
      }
  if (n == 0)
    return;
  an->sched_cycles = MIN (end - first + 1, KS_ANATOMY_SCHEDULER_CYCLES);
  an->sched_warps = g_new0 (KsAnatomySchedWarp, n);
  for (uint32_t w = 0; w < t->n_warps; w++)
    {
      const KsTimingWarp *tw = &t->warps[w];
      KsAnatomySchedWarp *sw;

      if (tw->sub_partition != 0 || tw->start_cycle != first)
        continue;
      sw = &an->sched_warps[an->n_sched_warps++];
      sw->cta = tw->cta;
      sw->warp_in_cta = tw->warp_in_cta;
      sw->start_cycle = tw->start_cycle - first;
      sw->end_cycle = tw->end_cycle - first;
      sw->first_event = events->len;
      for (uint64_t e = tw->first_event; e < tw->first_event + tw->n_events; e++)
        {
          KsTimingEvent ev = t->events[e];

          /* the issues: not what ptxas folds into another */
          if (ev.lowered != KS_LOWER_ISSUE)
            continue;
          if (ev.cycle - first >= an->sched_cycles || events->len >= KS_ANATOMY_SCHEDULER_EVENTS)
            break;
          ev.cycle -= first;
          ev.ready -= first;
          ev.stall_start = ev.stall_start > first ? ev.stall_start - first : 0;
          g_array_append_val (events, ev);
        }
      sw->n_events = events->len - sw->first_event;
    }
  an->n_sched_events = events->len;
  an->sched_events = (KsTimingEvent *) (void *) g_array_free (g_steal_pointer (&events), FALSE);
}

static void
fill_insns (KsAnatomy            *an,
            const KsSassListing  *listing,
            const KsSassFunction *fn)
{
  if (fn == NULL || fn->n_insns == 0)
    return;
  an->n_insns_total = fn->n_insns;
  an->n_insns = MIN (fn->n_insns, KS_ANATOMY_MAX_INSNS);
  an->insns = g_new0 (KsAnatomyInsn, an->n_insns);
  for (uint32_t i = 0; i < an->n_insns; i++)
    {
      const KsSassInsn *in = &listing->insns[fn->first_insn + i];
      KsAnatomyInsn *o = &an->insns[i];
      GString *s = g_string_new (NULL);

      ks_sass_insn_append_text (s, listing, in, "?");
      o->offset = in->offset;
      o->text = g_string_free (s, FALSE);
      o->opcode = in->opcode ? g_strconcat (in->opcode, in->modifiers, NULL) : g_strdup ("?");
      o->control = in->control;
      o->has_control = (in->flags & KS_SASS_HAS_CONTROL) != 0;
    }
  /* a wait on a scoreboard that instructions before it set: the first
   * that waits on a load (the seed's FADD on its two LDGs), else the
   * first of any */
  for (uint32_t i = 0; i < an->n_insns; i++)
    {
      const KsAnatomyInsn *w = &an->insns[i];

      if (!w->has_control || w->control.wait_mask == 0)
        continue;
      for (uint32_t b = 0; b < 6; b++)
        {
          uint32_t setters = 0;
          gboolean load = FALSE;

          if (!(w->control.wait_mask & (1u << b)))
            continue;
          /* back to the last wait on it: those before were waited for */
          for (uint32_t k = i; k-- > 0 && !(an->insns[k].control.wait_mask & (1u << b));)
            if (an->insns[k].has_control && an->insns[k].control.write_barrier == b)
              {
                setters++;
                load |= g_str_has_prefix (an->insns[k].opcode, "LD");
              }
          if (setters > 0 && (an->waiter == KS_ANATOMY_NONE || load))
            {
              an->waiter = i;
              an->waiter_barrier = b;
              an->n_setters = setters;
              if (load)
                return;
            }
        }
    }
}

static void
add_limit (JsonBuilder *b,
           const char  *name,
           uint32_t     blocks)
{
  json_builder_set_member_name (b, name);
  if (blocks != KS_ANATOMY_NONE)
    json_builder_add_int_value (b, blocks);
  else
    json_builder_add_null_value (b);
}

uint32_t
ks_anatomy_cbank_base (const char *arch)
{
  unsigned sm = 0;

  if (arch == NULL || sscanf (arch, "sm_%u", &sm) != 1 || sm < 50)
    return KS_ANATOMY_NONE;
  /* where ptxas puts a kernel's first parameter in constant bank 0 (the
   * listings' c[0x0][...] operands: data/samples/ and shared/fixtures/) */
  return sm < 70 ? 0x140 : sm < 90 ? 0x160 : 0x210;
}

char **
ks_anatomy_signature_types (const char *signature,
                            uint32_t    n)
{
  g_autoptr(GPtrArray) types = g_ptr_array_new_with_free_func (g_free);
  size_t len = signature ? strlen (signature) : 0;
  const char *open = NULL, *start;
  int depth = 0;

  if (len < 2 || signature[len - 1] != ')')
    return NULL;
  for (const char *s = signature + len - 1; s >= signature; s--)
    {
      depth += *s == ')' || *s == '>' ? 1 : *s == '(' || *s == '<' ? -1 : 0;
      if (depth == 0)
        {
          open = s;
          break;
        }
    }
  if (open == NULL)
    return NULL;
  start = open + 1;
  depth = 0;
  for (const char *s = start; s < signature + len; s++)
    {
      if (*s == '(' || *s == '<' || *s == '[')
        depth++;
      else if ((*s == ')' || *s == '>' || *s == ']') && depth > 0)
        depth--;
      else if ((*s == ',' && depth == 0) || s == signature + len - 1)
        {
          g_autofree char *t = g_strndup (start, s - start);

          g_ptr_array_add (types, g_strdup (g_strstrip (t)));
          start = s + 1;
        }
    }
  /* "k()" has no arguments; "k(void)" neither */
  if (types->len == 1 && (*(char *) types->pdata[0] == '\0'
                          || g_str_equal (types->pdata[0], "void")))
    g_ptr_array_set_size (types, 0);
  if (types->len != n)
    return NULL;
  g_ptr_array_add (types, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&types), FALSE);
}

/* Whether the listing reads c[0x0][offset] (any size of read) */
static int
read_in_sass (const char *sass,
              uint32_t    offset)
{
  g_autofree char *operand = NULL;

  if (sass == NULL || offset == KS_ANATOMY_NONE)
    return -1;
  operand = g_strdup_printf ("c[0x0][0x%x]", offset);
  return strstr (sass, operand) != NULL;
}

/* The QMD's fields a launch fills, at their documented places: version
 * 03_00 (open-gpu-doc classes/compute/clc6c0qmd.h, clc7c0qmd.h,
 * clc9c0qmd.h, clcbc0qmd.h: the Ampere, Ada and Hopper compute classes),
 * and versions 02_02 (Volta, clc3c0qmd.h) and 02_03 (Turing,
 * clc5c0qmd.h), whose fields lie at the same places but for the release
 * semaphore's, the local memory's, the barriers' and SASS_VERSION.  The
 * values are the launch's; the addresses and the semaphore's payload are
 * the driver's. */
typedef enum
{
  QMD_GRID_X, QMD_GRID_Y, QMD_GRID_Z, QMD_SHARED, QMD_VERSION_MINOR, QMD_VERSION_MAJOR,
  QMD_BLOCK_X, QMD_BLOCK_Y, QMD_BLOCK_Z, QMD_CBANK0_VALID, QMD_REGISTERS, QMD_LOCAL,
  QMD_BARRIERS, QMD_UNKNOWN, QMD_ONE, QMD_CBANK0_SIZE, QMD_SASS_VERSION,
} QmdValue;

typedef struct
{
  const char *name;
  uint16_t hi, lo;
  QmdValue value;
} QmdPlace;

static const QmdPlace qmd_v03_00[] = {
  { "CTA_RASTER_WIDTH", 415, 384, QMD_GRID_X },
  { "CTA_RASTER_HEIGHT", 431, 416, QMD_GRID_Y },
  { "CTA_RASTER_DEPTH", 463, 448, QMD_GRID_Z },
  { "SHARED_MEMORY_SIZE", 561, 544, QMD_SHARED },
  { "QMD_VERSION", 579, 576, QMD_VERSION_MINOR },
  { "QMD_MAJOR_VERSION", 583, 580, QMD_VERSION_MAJOR },
  { "CTA_THREAD_DIMENSION0", 607, 592, QMD_BLOCK_X },
  { "CTA_THREAD_DIMENSION1", 623, 608, QMD_BLOCK_Y },
  { "CTA_THREAD_DIMENSION2", 639, 624, QMD_BLOCK_Z },
  { "CONSTANT_BUFFER_VALID(0)", 640, 640, QMD_CBANK0_VALID },
  { "REGISTER_COUNT_V", 656, 648, QMD_REGISTERS },
  { "SHADER_LOCAL_MEMORY_LOW_SIZE", 759, 736, QMD_LOCAL },
  { "BARRIER_COUNT", 767, 763, QMD_BARRIERS },
  { "RELEASE0_ADDRESS_LOWER", 799, 768, QMD_UNKNOWN },
  { "RELEASE0_ADDRESS_UPPER", 807, 800, QMD_UNKNOWN },
  { "RELEASE0_ENABLE", 823, 823, QMD_ONE },
  { "RELEASE0_PAYLOAD_LOWER", 863, 832, QMD_UNKNOWN },
  { "CONSTANT_BUFFER_ADDR_LOWER(0)", 1055, 1024, QMD_UNKNOWN },
  { "CONSTANT_BUFFER_ADDR_UPPER(0)", 1072, 1056, QMD_UNKNOWN },
  { "CONSTANT_BUFFER_SIZE_SHIFTED4(0)", 1087, 1075, QMD_CBANK0_SIZE },
  { "PROGRAM_ADDRESS_LOWER", 1567, 1536, QMD_UNKNOWN },
  { "PROGRAM_ADDRESS_UPPER", 1584, 1568, QMD_UNKNOWN },
  { "SASS_VERSION", 1663, 1656, QMD_SASS_VERSION },
};

static const QmdPlace qmd_v02[] = {
  { "SEMAPHORE_RELEASE_ENABLE0", 138, 138, QMD_ONE },
  { "CTA_RASTER_WIDTH", 415, 384, QMD_GRID_X },
  { "CTA_RASTER_HEIGHT", 431, 416, QMD_GRID_Y },
  { "CTA_RASTER_DEPTH", 463, 448, QMD_GRID_Z },
  { "SHARED_MEMORY_SIZE", 561, 544, QMD_SHARED },
  { "QMD_VERSION", 579, 576, QMD_VERSION_MINOR },
  { "QMD_MAJOR_VERSION", 583, 580, QMD_VERSION_MAJOR },
  { "CTA_THREAD_DIMENSION0", 607, 592, QMD_BLOCK_X },
  { "CTA_THREAD_DIMENSION1", 623, 608, QMD_BLOCK_Y },
  { "CTA_THREAD_DIMENSION2", 639, 624, QMD_BLOCK_Z },
  { "CONSTANT_BUFFER_VALID(0)", 640, 640, QMD_CBANK0_VALID },
  { "REGISTER_COUNT_V", 656, 648, QMD_REGISTERS },
  { "RELEASE0_ADDRESS_LOWER", 767, 736, QMD_UNKNOWN },
  { "RELEASE0_ADDRESS_UPPER", 775, 768, QMD_UNKNOWN },
  { "RELEASE0_PAYLOAD", 831, 800, QMD_UNKNOWN },
  { "SHADER_LOCAL_MEMORY_LOW_SIZE", 951, 928, QMD_LOCAL },
  { "BARRIER_COUNT", 959, 955, QMD_BARRIERS },
  { "SASS_VERSION", 1023, 1016, QMD_SASS_VERSION },
  { "CONSTANT_BUFFER_ADDR_LOWER(0)", 1055, 1024, QMD_UNKNOWN },
  { "CONSTANT_BUFFER_ADDR_UPPER(0)", 1072, 1056, QMD_UNKNOWN },
  { "CONSTANT_BUFFER_SIZE_SHIFTED4(0)", 1087, 1075, QMD_CBANK0_SIZE },
  { "PROGRAM_ADDRESS_LOWER", 1567, 1536, QMD_UNKNOWN },
  { "PROGRAM_ADDRESS_UPPER", 1584, 1568, QMD_UNKNOWN },
};

static void
fill_qmd (KsAnatomy *an)
{
  unsigned sm = 0, major = 0, minor = 0;
  const QmdPlace *places;

  /* 03_00 is in the Ampere, Ada and Hopper classes' headers, 02_02 in
   * Volta's, 02_03 in Turing's; Blackwell's (clcdc0qmd.h, clcec0qmd.h)
   * have only 04_01 and 05_xx, laid out otherwise */
  if (sscanf (an->arch, "sm_%u", &sm) != 1 || sm < 70 || sm >= 100)
    return;
  if (sm >= 80)
    {
      an->qmd_version = "03_00";
      an->qmd_documented_in = "NVIDIA open-gpu-doc, classes/compute/clc9c0qmd.h (and clc6c0qmd.h, "
                              "clc7c0qmd.h, clcbc0qmd.h)";
      places = qmd_v03_00;
      an->n_qmd_fields = G_N_ELEMENTS (qmd_v03_00);
    }
  else
    {
      an->qmd_version = sm >= 75 ? "02_03" : "02_02";
      an->qmd_documented_in = sm >= 75 ? "NVIDIA open-gpu-doc, classes/compute/clc5c0qmd.h"
                                       : "NVIDIA open-gpu-doc, classes/compute/clc3c0qmd.h";
      places = qmd_v02;
      an->n_qmd_fields = G_N_ELEMENTS (qmd_v02);
    }
  sscanf (an->qmd_version, "%u_%u", &major, &minor);
  an->qmd_fields = g_new0 (KsAnatomyQmdField, an->n_qmd_fields);
  for (uint32_t i = 0; i < an->n_qmd_fields; i++)
    {
      KsAnatomyQmdField *f = &an->qmd_fields[i];
      uint64_t v = 0;

      f->name = places[i].name;
      f->hi = places[i].hi;
      f->lo = places[i].lo;
      f->known = TRUE;
      switch (places[i].value)
        {
        case QMD_GRID_X: case QMD_GRID_Y: case QMD_GRID_Z:
          v = an->grid[places[i].value - QMD_GRID_X];
          break;
        case QMD_BLOCK_X: case QMD_BLOCK_Y: case QMD_BLOCK_Z:
          v = an->block[places[i].value - QMD_BLOCK_X];
          break;
        case QMD_SHARED: v = an->shared_bytes; break;
        case QMD_VERSION_MINOR: v = minor; break;
        case QMD_VERSION_MAJOR: v = major; break;
        case QMD_CBANK0_VALID: case QMD_ONE: v = 1; break;
        case QMD_REGISTERS: v = an->registers; break;
        case QMD_LOCAL: v = an->local_bytes; break;
        case QMD_BARRIERS: v = an->barriers; break;
        case QMD_CBANK0_SIZE:
          f->known = an->cbank_base != KS_ANATOMY_NONE;
          v = f->known ? (an->cbank_base + an->param_bytes + 15) / 16 : 0;
          break;
        /* sm_89 is 0x89: the major and minor version as hex digits */
        case QMD_SASS_VERSION: v = (sm / 10) << 4 | sm % 10; break;
        case QMD_UNKNOWN: default: f->known = FALSE; break;
        }
      f->value = v;
      if (!f->known)
        continue;
      /* into the words: a field may cross a word's edge */
      for (uint32_t bit = f->lo; bit <= f->hi; bit++)
        if (v >> (bit - f->lo) & 1)
          an->qmd_words[bit / 32] |= 1u << (bit % 32);
    }
}

uint32_t
ks_anatomy_pb_header (uint32_t method,
                      uint32_t count,
                      uint32_t subchannel)
{
  return 1u << 29 | (count & 0x1fff) << 16 | (subchannel & 7) << 13 | (method >> 2 & 0xfff);
}

/* The compute class's methods (open-gpu-doc classes/compute/clc3c0.h,
 * clc5c0.h, clc6c0.h, clc7c0.h, clc9c0.h and clcbc0.h: the same offsets
 * in all six) */
#define SET_INLINE_QMD_ADDRESS_A 0x0318
#define LOAD_INLINE_QMD_DATA_0 0x0320

/* The pushbuffer segment, for the architectures whose compute class NVIDIA
 * documents; after the QMD's words (fill_qmd) */
static void
fill_submission (KsAnatomy *an)
{
  unsigned sm = 0;

  if (an->qmd_version == NULL || sscanf (an->arch, "sm_%u", &sm) != 1)
    return;
  /* GV100; TU10x; GA100; GA10x; AD10x; GH100 (Orin's sm_87: its class
   * is not said) */
  switch (sm)
    {
    case 70: an->compute_class = "VOLTA_COMPUTE_A"; an->compute_class_id = 0xC3C0; break;
    case 75: an->compute_class = "TURING_COMPUTE_A"; an->compute_class_id = 0xC5C0; break;
    case 80: an->compute_class = "AMPERE_COMPUTE_A"; an->compute_class_id = 0xC6C0; break;
    case 86: an->compute_class = "AMPERE_COMPUTE_B"; an->compute_class_id = 0xC7C0; break;
    case 89: an->compute_class = "ADA_COMPUTE_A"; an->compute_class_id = 0xC9C0; break;
    case 90: an->compute_class = "HOPPER_COMPUTE_A"; an->compute_class_id = 0xCBC0; break;
    default: return;
    }
  /* the QMD's address (A: its upper bits, B: its lower, both >> 8): the
   * driver's; then the record itself */
  an->pushbuffer[0] = ks_anatomy_pb_header (SET_INLINE_QMD_ADDRESS_A, 2,
                                            KS_ANATOMY_PB_SUBCHANNEL);
  an->pushbuffer[3] = ks_anatomy_pb_header (LOAD_INLINE_QMD_DATA_0, KS_ANATOMY_QMD_WORDS,
                                            KS_ANATOMY_PB_SUBCHANNEL);
  memcpy (an->pushbuffer + 4, an->qmd_words, sizeof an->qmd_words);
  /* NVC76F_GP_ENTRY1_LENGTH 30:10, LEVEL 9:9 = MAIN (0) */
  an->gp_entry1 = (uint32_t) KS_ANATOMY_PB_WORDS << 10;
}

KsAnatomy *
ks_anatomy_new (const KsAnalysis *a,
                GError          **error)
{
  g_autoptr(KsAnatomy) an = NULL;
  const KsPtxModule *m = a->module;
  const KsPtxFunction *f;
  const KsLaunch *l = a->launch;
  g_auto(GStrv) types = NULL;
  uint32_t at = 0;

  if (m == NULL || a->kernel_index < 0 || l == NULL || a->arch == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "no kernel to show the launch of%s%s",
                   a->error ? ": " : "", a->error ? a->error : "");
      return NULL;
    }
  f = &m->functions[a->kernel_index];
  an = g_new0 (KsAnatomy, 1);
  an->kernel = g_strdup (a->kernel_name);
  an->arch = g_strdup (a->arch->id);
  an->gpu = g_strdup (a->gpu ? a->gpu->id : NULL);
  an->gpu_name = g_strdup (a->gpu ? a->gpu->name : NULL);

  /* 2. the argument buffer: each parameter at the next multiple of its
   * alignment (.align N, else its element's size), as the ABI lays out
   * a kernel's .param space */
  an->cbank_base = ks_anatomy_cbank_base (an->arch);
  an->sass_arch = a->sass_text ? a->sass_arch : NULL;
  an->params = g_new0 (KsAnatomyParam, MAX (f->n_params, 1));
  an->n_params = f->n_params;
  {
    g_autofree char *signature = ks_sass_demangle (an->kernel);

    types = ks_anatomy_signature_types (signature, f->n_params);
  }
  for (uint32_t i = 0; i < f->n_params; i++)
    {
      const KsPtxVar *v = &m->vars[f->first_param + i];
      KsAnatomyParam *p = &an->params[i];
      uint32_t element = ks_ptx_type_size ((KsPtxType) v->type) * MAX (v->vec, 1);

      p->name = ks_ptx_span_dup (m, v->name);
      p->type = types ? g_strdup (types[i]) : NULL;
      p->size = (uint32_t) (element * MAX (v->n_elements, 1));
      p->align = v->align ? v->align : MAX (element, 1);
      p->offset = (at + p->align - 1) / p->align * p->align;
      at = p->offset + p->size;
      p->cbank_offset = an->cbank_base == KS_ANATOMY_NONE ? KS_ANATOMY_NONE
                        : an->cbank_base + p->offset;
      p->stub_offset = KS_ANATOMY_NONE;
      /* a listing of the same architecture only: another's bank differs */
      p->in_sass = a->sass_arch && g_strcmp0 (a->sass_arch, an->arch) == 0
                   ? read_in_sass (a->sass_text, p->cbank_offset) : -1;
    }
  an->param_bytes = at;

  /* a cubin's .nv.info records where ptxas put each one: they win */
  if (a->sass != NULL && a->sass->cubin != NULL && a->sass->cubin->functions != NULL
      && g_strcmp0 (a->sass->cubin->arch, an->arch) == 0)
    {
      const KsSassFunction *sf = ks_sass_find_function (a->sass, a->kernel_name, NULL);
      const KsSassCubin *c = a->sass->cubin;

      if (sf != NULL)
        {
          const KsCubinFunction *cf = &c->functions[sf - a->sass->functions];

          for (uint32_t k = 0; k < cf->n_params; k++)
            {
              const KsCubinParam *cp = &c->params[cf->first_param + k];

              if (cp->index < an->n_params && cp->cbank_offset != KS_SASS_NONE)
                {
                  an->params[cp->index].offset = cp->offset;
                  an->params[cp->index].cbank_offset = cp->cbank_offset;
                  an->params_from_cubin = TRUE;
                }
            }
          if (cf->param_cbank_offset != KS_SASS_NONE)
            an->cbank_base = cf->param_cbank_offset;
        }
    }

  /* 6. one warp's first global load */
  if (a->sim != NULL)
    for (uint32_t i = f->first_insn; i < f->first_insn + f->n_insns && !an->have_warp_access;
         i++)
      {
        uint32_t n = 0;
        const KsMemAccess *acc = ks_sim_get_accesses (a->sim, i, &n);
        uint32_t wpc = MAX (ks_sim_get_warps_per_cta (a->sim), 1);

        if (n == 0 || acc[0].space != KS_PTX_SPACE_GLOBAL || acc[0].store)
          continue;
        an->have_warp_access = TRUE;
        an->warp_access = acc[0];
        an->warp_access_line = m->insns[i].line;
        an->warp_access_text = ks_ptx_module_line_text (m, m->insns[i].line);
        an->warp_access_block = acc[0].warp / wpc;
        an->warp_access_warp = acc[0].warp % wpc;
      }

  /* 1. a sample's record of nvcc --keep stands in until one is made */
  ks_anatomy_set_artifacts (an, sample_artifacts (a));

  /* 5. the control codes, from this architecture's listing */
  an->waiter = an->waiter_barrier = KS_ANATOMY_NONE;
  if (a->sass != NULL && g_strcmp0 (a->sass_arch, an->arch) == 0)
    fill_insns (an, a->sass, ks_sass_find_function (a->sass, a->kernel_name, NULL));

  /* 3. the launch record's fields */
  memcpy (an->grid, l->grid, sizeof an->grid);
  memcpy (an->block, l->block, sizeof an->block);
  an->blocks = (uint64_t) l->grid[0] * l->grid[1] * l->grid[2];
  an->threads = an->blocks * l->block[0] * l->block[1] * l->block[2];
  an->registers = a->resources ? a->resources->registers : 0;
  an->local_bytes = a->resources ? a->resources->local_bytes : 0;
  an->barriers = a->resources ? a->resources->barriers : 0;

  /* 4. distribution */
  an->sms = a->gpu ? a->gpu->sm_count : 0;
  an->schedulers = a->arch->sub_partitions;
  an->max_threads_per_sm = a->arch->max_threads_per_sm;
  an->registers_per_sm = a->arch->registers_per_sm;
  an->max_blocks_per_sm = a->arch->max_blocks_per_sm;
  if (a->gpu != NULL)
    {
      an->peak_gflops = 2.0 * a->arch->fp32_lanes * a->arch->sub_partitions * a->gpu->sm_count
                        * a->gpu->boost_clock_mhz / 1e3;
      an->bandwidth_gbs = a->gpu->memory_bandwidth_gbs;
    }
  if (a->have_occupancy)
    {
      const KsOccupancyResult *o = &a->occupancy;

      an->have_occupancy = TRUE;
      an->shared_bytes = o->shared_bytes_per_block;
      an->blocks_per_sm = o->active_blocks_per_sm;
      an->limiter = ks_occupancy_limiter_name (o->limiter);
      an->limiter_id = (int) o->limiter;
      an->warps_per_sm = o->active_warps_per_sm;
      an->max_warps_per_sm = o->max_warps_per_sm;
      /* (KS_OCCUPANCY_UNLIMITED is KS_ANATOMY_NONE) */
      an->blocks_by_threads = o->blocks_by_warps;
      an->blocks_by_registers = o->blocks_by_registers;
      an->blocks_by_shared = o->blocks_by_shared_memory;
      an->blocks_by_blocks = o->blocks_by_blocks;
      an->warps_per_block = o->warps_per_block;
      an->registers_per_block = o->registers_per_block;
      an->shared_allocated_per_block = o->shared_allocated_per_block;
      an->shared_per_sm = o->shared_pool_bytes;
      if (an->schedulers > 0)
        {
          an->warps_per_scheduler = (an->warps_per_sm + an->schedulers - 1) / an->schedulers;
          an->max_warps_per_scheduler = an->max_warps_per_sm / an->schedulers;
        }
      if (an->blocks_per_sm > 0 && an->sms > 0)
        an->waves_per_sm = (double) an->blocks / ((double) an->blocks_per_sm * an->sms);
    }

  fill_qmd (an);
  fill_submission (an);
  load_measured (an, a);

  /* 5. scheduler 0's warps and issues */
  if (a->timing != NULL)
    fill_scheduler (an, a->timing);

  /* 7. the model's figures */
  if (a->timing != NULL)
    {
      const KsTiming *t = a->timing;

      an->have_timing = TRUE;
      an->warps_active = t->warps_active;
      an->issue_active = t->issue_active;
      an->dram_throughput = t->dram_throughput;
      an->duration_us = t->estimated_duration_us;
      an->dram_bytes = t->dram_bytes;
      an->flops = t->flops;
      an->arithmetic_intensity = t->arithmetic_intensity;
      if (t->estimated_duration_us > 0)
        an->achieved_gflops = t->flops / (t->estimated_duration_us * 1e3);
      if (a->sim != NULL)
        {
          const KsSimStats *s = ks_sim_get_stats (a->sim);
          const KsSimInsnStats *st = ks_sim_get_insn_stats (a->sim);
          /* a run of a sample of blocks: the grid's bytes are theirs scaled */
          double scale = s->sampled_blocks > 0 ? (double) an->blocks / s->sampled_blocks : 1;
          uint64_t bytes = 0, req = 0, sec = 0, ideal = 0, l1_hits = 0, l2 = 0;

          /* every function's: a callee's loads are the kernel's */
          for (uint32_t k = 0; st != NULL && k < m->n_insns; k++)
            {
              bytes += st[k].gmem_requested_bytes;
              req += st[k].gmem_requests;
              sec += st[k].gmem_sectors;
              ideal += st[k].gmem_ideal_sectors;
              l1_hits += st[k].l1_hits;
              l2 += st[k].l2_misses;
            }
          an->global_bytes = (double) bytes * scale;
          an->gmem_requests = (double) req * scale;
          an->gmem_sectors = (double) sec * scale;
          an->gmem_ideal_sectors = (double) ideal * scale;
          /* the loads' sectors are L1's hits and misses: what L1 does not
           * serve goes on to L2 */
          an->l2_sectors = (double) (sec - MIN (l1_hits, sec)) * scale;
          an->l2_miss_sectors = (double) l2 * scale;
          an->global_intensity = an->global_bytes > 0 ? t->flops / an->global_bytes : 0;
        }
      if (t->waves_per_sm > 0)
        an->waves_per_sm = t->waves_per_sm;
    }
  return g_steal_pointer (&an);
}

void
ks_anatomy_set_artifacts (KsAnatomy   *an,
                          KsArtifacts *artifacts)
{
  const KsArtifact *stub;
  g_autofree uint32_t *offsets = NULL;
  int n = -1;

  g_return_if_fail (an != NULL);
  g_clear_pointer (&an->artifacts, ks_artifacts_free);
  an->artifacts = artifacts;
  stub = ks_artifacts_find (artifacts, ".cudafe1.stub.c");
  offsets = g_new (uint32_t, MAX (an->n_params, 1));
  for (uint32_t i = 0; i < an->n_params; i++)
    offsets[i] = KS_ANATOMY_NONE;
  if (stub != NULL && stub->text != NULL)
    n = ks_artifacts_stub_offsets (stub->text, an->kernel, offsets, an->n_params);
  for (uint32_t i = 0; i < an->n_params; i++)
    an->params[i].stub_offset = (int) i < n ? offsets[i] : KS_ANATOMY_NONE;
}

uint32_t
ks_anatomy_wave_count (const KsAnatomy *an)
{
  uint64_t per_wave = (uint64_t) an->blocks_per_sm * an->sms;

  if (per_wave == 0)
    return 0;
  return (uint32_t) ((an->blocks + per_wave - 1) / per_wave);
}

uint32_t
ks_anatomy_wave_blocks (const KsAnatomy *an,
                        uint32_t         wave,
                        uint32_t         sm)
{
  uint64_t per_wave = (uint64_t) an->blocks_per_sm * an->sms, left;

  if (per_wave == 0 || sm >= an->sms || (uint64_t) wave * per_wave >= an->blocks)
    return 0;
  left = MIN (an->blocks - (uint64_t) wave * per_wave, per_wave);
  return (uint32_t) (left / an->sms + (sm < left % an->sms ? 1 : 0));
}

void
ks_anatomy_free (KsAnatomy *an)
{
  if (an == NULL)
    return;
  for (uint32_t i = 0; an->params && i < an->n_params; i++)
    {
      g_free (an->params[i].name);
      g_free (an->params[i].type);
    }
  g_free (an->params);
  g_free (an->sched_warps);
  g_free (an->sched_events);
  g_free (an->warp_access_text);
  ks_artifacts_free (an->artifacts);
  g_free (an->qmd_fields);
  measured_clear (&an->measured);
  measured_clear (&an->other);
  for (uint32_t i = 0; an->insns && i < an->n_insns; i++)
    {
      g_free (an->insns[i].text);
      g_free (an->insns[i].opcode);
    }
  g_free (an->insns);
  g_free (an->kernel);
  g_free (an->gpu);
  g_free (an->gpu_name);
  g_free (an->arch);
  g_free (an);
}

static void
add_uint3 (JsonBuilder    *b,
           const char     *name,
           const uint32_t *v)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (int i = 0; i < 3; i++)
    json_builder_add_int_value (b, v[i]);
  json_builder_end_array (b);
}

static void
add_stage (JsonBuilder *b,
           int          number,
           const char  *name,
           char        *summary)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "stage");
  json_builder_add_int_value (b, number);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "summary");
  json_builder_add_string_value (b, summary);
  json_builder_end_object (b);
  g_free (summary);
}

JsonNode *
ks_anatomy_to_json (const KsAnatomy *an)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *first = NULL, *files = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, an->kernel);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, an->gpu);
  json_builder_set_member_name (b, "arch");
  json_builder_add_string_value (b, an->arch);

  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < an->n_params; i++)
    {
      const KsAnatomyParam *p = &an->params[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, p->name);
      json_builder_set_member_name (b, "type");
      if (p->type != NULL)
        json_builder_add_string_value (b, p->type);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, p->offset);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, p->size);
      json_builder_set_member_name (b, "align");
      json_builder_add_int_value (b, p->align);
      json_builder_set_member_name (b, "cbank_offset");
      if (p->cbank_offset != KS_ANATOMY_NONE)
        json_builder_add_int_value (b, p->cbank_offset);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "in_sass");
      if (p->in_sass >= 0)
        json_builder_add_boolean_value (b, p->in_sass);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "stub_offset");
      if (p->stub_offset != KS_ANATOMY_NONE)
        json_builder_add_int_value (b, p->stub_offset);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "param_bytes");
  json_builder_add_int_value (b, an->param_bytes);
  json_builder_set_member_name (b, "params_from");
  json_builder_add_string_value (b, an->params_from_cubin ? "cubin" : "ptx");

  /* the record's fields for this launch: reconstructed, not a layout */
  json_builder_set_member_name (b, "qmd");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "reconstructed");
  json_builder_add_boolean_value (b, TRUE);
  add_uint3 (b, "grid", an->grid);
  add_uint3 (b, "block", an->block);
  json_builder_set_member_name (b, "registers_per_thread");
  json_builder_add_int_value (b, an->registers);
  json_builder_set_member_name (b, "shared_memory_bytes");
  json_builder_add_int_value (b, an->shared_bytes);
  json_builder_set_member_name (b, "constant_bank0_bytes");
  if (an->cbank_base != KS_ANATOMY_NONE)
    json_builder_add_int_value (b, an->cbank_base + an->param_bytes);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "program");
  json_builder_add_string_value (b, an->kernel);
  /* the documented layout, where there is one: the 64 words with the
   * launch's fields in them, and each field's place */
  json_builder_set_member_name (b, "version");
  if (an->qmd_version != NULL)
    json_builder_add_string_value (b, an->qmd_version);
  else
    json_builder_add_null_value (b);
  if (an->qmd_version != NULL)
    {
      json_builder_set_member_name (b, "documented_in");
      json_builder_add_string_value (b, an->qmd_documented_in);
      json_builder_set_member_name (b, "words");
      json_builder_begin_array (b);
      for (uint32_t w = 0; w < KS_ANATOMY_QMD_WORDS; w++)
        json_builder_add_int_value (b, an->qmd_words[w]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "fields");
      json_builder_begin_array (b);
      for (uint32_t i = 0; i < an->n_qmd_fields; i++)
        {
          const KsAnatomyQmdField *f = &an->qmd_fields[i];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, f->name);
          json_builder_set_member_name (b, "word");
          json_builder_add_int_value (b, f->lo / 32);
          json_builder_set_member_name (b, "hi");
          json_builder_add_int_value (b, f->hi);
          json_builder_set_member_name (b, "lo");
          json_builder_add_int_value (b, f->lo);
          json_builder_set_member_name (b, "value");
          if (f->known)
            json_builder_add_int_value (b, (gint64) f->value);
          else
            json_builder_add_null_value (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  /* the SASS's control codes (CuAssembler's notation as text too) */
  json_builder_set_member_name (b, "control_codes");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "instructions");
  json_builder_begin_array (b);
  for (uint32_t i = 0; i < an->n_insns; i++)
    {
      const KsAnatomyInsn *in = &an->insns[i];
      char code[KS_SASS_CONTROL_TEXT_SIZE];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, (gint64) in->offset);
      json_builder_set_member_name (b, "text");
      json_builder_add_string_value (b, in->text);
      if (in->has_control)
        {
          json_builder_set_member_name (b, "control");
          json_builder_add_string_value (b, ks_sass_control_to_string (&in->control, code));
          json_builder_set_member_name (b, "stall");
          json_builder_add_int_value (b, in->control.stall);
          json_builder_set_member_name (b, "yield");
          json_builder_add_boolean_value (b, in->control.yield);
          add_limit (b, "sets_on_write", in->control.write_barrier == KS_SASS_NO_BARRIER
                                         ? KS_ANATOMY_NONE : in->control.write_barrier);
          add_limit (b, "sets_on_read", in->control.read_barrier == KS_SASS_NO_BARRIER
                                        ? KS_ANATOMY_NONE : in->control.read_barrier);
          json_builder_set_member_name (b, "waits_on");
          json_builder_begin_array (b);
          for (int k = 0; k < 6; k++)
            if (in->control.wait_mask & (1u << k))
              json_builder_add_int_value (b, k);
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "instructions_in_kernel");
  json_builder_add_int_value (b, an->n_insns_total);
  add_limit (b, "first_wait", an->waiter);
  add_limit (b, "first_wait_scoreboard", an->waiter_barrier);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "blocks_per_sm");
  json_builder_add_int_value (b, an->blocks_per_sm);
  json_builder_set_member_name (b, "limiter");
  if (an->limiter)
    json_builder_add_string_value (b, an->limiter);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "sms");
  json_builder_add_int_value (b, an->sms);
  json_builder_set_member_name (b, "waves_per_sm");
  json_builder_add_double_value (b, an->waves_per_sm);
  json_builder_set_member_name (b, "warps_per_scheduler");
  json_builder_add_int_value (b, an->warps_per_scheduler);
  json_builder_set_member_name (b, "max_warps_per_scheduler");
  json_builder_add_int_value (b, an->max_warps_per_scheduler);
  /* what each resource allows: null where it does not limit */
  json_builder_set_member_name (b, "blocks_per_sm_by");
  json_builder_begin_object (b);
  add_limit (b, "threads", an->blocks_by_threads);
  add_limit (b, "registers", an->blocks_by_registers);
  add_limit (b, "shared_memory", an->blocks_by_shared);
  add_limit (b, "blocks", an->blocks_by_blocks);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "roofline");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "peak_gflops");
  json_builder_add_double_value (b, an->peak_gflops);
  json_builder_set_member_name (b, "bandwidth_gbs");
  json_builder_add_double_value (b, an->bandwidth_gbs);
  json_builder_set_member_name (b, "arithmetic_intensity");
  json_builder_add_double_value (b, an->global_intensity);
  json_builder_set_member_name (b, "dram_arithmetic_intensity");
  json_builder_add_double_value (b, an->arithmetic_intensity);
  json_builder_set_member_name (b, "achieved_gflops");
  json_builder_add_double_value (b, an->achieved_gflops);
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, "model");
  json_builder_end_object (b);
  /* the caches' path, from the simulator's counts and its cache model */
  json_builder_set_member_name (b, "memory_path");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "requests");
  json_builder_add_double_value (b, an->gmem_requests);
  json_builder_set_member_name (b, "bytes_requested");
  json_builder_add_double_value (b, an->global_bytes);
  json_builder_set_member_name (b, "sectors");
  json_builder_add_double_value (b, an->gmem_sectors);
  json_builder_set_member_name (b, "ideal_sectors");
  json_builder_add_double_value (b, an->gmem_ideal_sectors);
  json_builder_set_member_name (b, "l2_sectors");
  json_builder_add_double_value (b, an->l2_sectors);
  json_builder_set_member_name (b, "l2_miss_sectors");
  json_builder_add_double_value (b, an->l2_miss_sectors);
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, "model");
  json_builder_end_object (b);

  /* the submission: the pushbuffer segment, its GPFIFO entry, the doorbell */
  json_builder_set_member_name (b, "submission");
  if (an->compute_class != NULL)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "reconstructed");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_set_member_name (b, "class");
      json_builder_add_string_value (b, an->compute_class);
      json_builder_set_member_name (b, "class_id");
      json_builder_add_int_value (b, an->compute_class_id);
      json_builder_set_member_name (b, "subchannel");
      json_builder_add_int_value (b, KS_ANATOMY_PB_SUBCHANNEL);
      json_builder_set_member_name (b, "pushbuffer");
      json_builder_begin_array (b);
      for (guint i = 0; i < KS_ANATOMY_PB_WORDS; i++)
        if (i == 1 || i == 2)
          json_builder_add_null_value (b);
        else
          json_builder_add_int_value (b, an->pushbuffer[i]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "gpfifo_entry");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "length");
      json_builder_add_int_value (b, KS_ANATOMY_PB_WORDS);
      json_builder_set_member_name (b, "level");
      json_builder_add_string_value (b, "main");
      json_builder_set_member_name (b, "address");
      json_builder_add_null_value (b);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "gp_put");
      json_builder_add_string_value (b, "USERD + 0x8c");
      json_builder_set_member_name (b, "doorbell");
      json_builder_add_string_value (b, "NV_USERMODE_NOTIFY_CHANNEL_PENDING (0x00810090)");
      json_builder_set_member_name (b, "documented_in");
      json_builder_add_string_value (b, "open-gpu-doc: classes/compute/clc6c0.h, clc7c0.h, "
                                        "clc9c0.h, clcbc0.h; classes/host/clc76f.h; "
                                        "manuals/turing/tu104/dev_usermode.ref.txt");
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  /* scheduler 0's warps in the model: issues and the cycles they waited */
  json_builder_set_member_name (b, "scheduler");
  if (an->n_sched_warps > 0)
    {
      uint64_t waited[KS_N_STALLS] = { 0 };

      for (uint32_t e = 0; e < an->n_sched_events; e++)
        {
          const KsTimingEvent *ev = &an->sched_events[e];

          if (ev->stall < KS_N_STALLS && ev->ready > ev->stall_start)
            waited[ev->stall] += ev->ready - ev->stall_start;
          if (ev->cycle > ev->ready)
            waited[KS_STALL_NOT_SELECTED] += ev->cycle - ev->ready;
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "sub_partition");
      json_builder_add_int_value (b, 0);
      json_builder_set_member_name (b, "warps");
      json_builder_add_int_value (b, an->n_sched_warps);
      json_builder_set_member_name (b, "cycles");
      json_builder_add_int_value (b, an->sched_cycles);
      json_builder_set_member_name (b, "issues");
      json_builder_add_int_value (b, an->n_sched_events);
      json_builder_set_member_name (b, "waited");
      json_builder_begin_object (b);
      for (guint r = 1; r < KS_N_STALLS; r++)
        if (waited[r] > 0)
          {
            json_builder_set_member_name (b, ks_stall_reason_name ((KsStallReason) r));
            json_builder_add_int_value (b, (gint64) waited[r]);
          }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, "model");
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  /* one warp's first global load: its lanes, sectors and lines */
  json_builder_set_member_name (b, "warp_request");
  if (an->have_warp_access)
    {
      const KsMemAccess *w = &an->warp_access;
      KsGmemAnalysis g = ks_gmem_analyze (w->addr, w->size, w->mask);
      static const char *const levels[] = { "?", "l1", "l2", "dram", "store" };

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ptx_line");
      json_builder_add_int_value (b, an->warp_access_line);
      json_builder_set_member_name (b, "instruction");
      json_builder_add_string_value (b, an->warp_access_text);
      json_builder_set_member_name (b, "block");
      json_builder_add_int_value (b, an->warp_access_block);
      json_builder_set_member_name (b, "warp");
      json_builder_add_int_value (b, an->warp_access_warp);
      json_builder_set_member_name (b, "lanes");
      json_builder_add_int_value (b, __builtin_popcount (w->mask));
      json_builder_set_member_name (b, "bytes_a_lane");
      json_builder_add_int_value (b, w->size);
      json_builder_set_member_name (b, "sectors");
      json_builder_begin_array (b);
      for (uint32_t s = 0; s < g.n_sectors; s++)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "address");
          json_builder_add_int_value (b, (gint64) g.sectors[s]);
          json_builder_set_member_name (b, "from");
          json_builder_add_string_value (b, s < w->n_levels && w->level[s] < G_N_ELEMENTS (levels)
                                            ? levels[w->level[s]] : "?");
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "ideal_sectors");
      json_builder_add_int_value (b, g.ideal_sectors);
      json_builder_set_member_name (b, "lines");
      json_builder_add_int_value (b, g.n_lines);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  /* Nsight Compute's metric names, its units; the model's values */
  json_builder_set_member_name (b, "nsight");
  if (an->have_timing)
    {
      double model[KS_ANATOMY_N_METRICS];

      for (guint k = 0; k < KS_ANATOMY_N_METRICS; k++)
        model[k] = ks_anatomy_model_metric (an, (KsAnatomyMetric) k);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, "model");
      add_metrics (b, model);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  /* a sample's measurement of this launch, beside the model's */
  json_builder_set_member_name (b, "nsight_measured");
  if (an->measured.source != NULL)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, an->measured.source);
      add_metrics (b, an->measured.nsight);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "artifacts");
  if (an->artifacts != NULL)
    {
      json_builder_add_value (b, ks_artifacts_to_json (an->artifacts));
      files = g_strdup_printf ("; nvcc --keep leaves %u file%s%s", an->artifacts->n_items,
                               an->artifacts->n_items == 1 ? "" : "s",
                               an->artifacts->recorded ? " (the sample's record)" : "");
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "stages");
  json_builder_begin_array (b);
  add_stage (b, 1, "compile", g_strdup_printf ("%s: PTX, the virtual ISA, made for %s; SASS, "
                                               "%s's machine code, %s%s", an->kernel,
                                               an->arch, an->arch, an->sass_arch
                                               ? "read from its listing"
                                               : "not made here (no listing or toolkit)",
                                               files ? files : ""));
  if (an->n_params > 0 && an->cbank_base != KS_ANATOMY_NONE)
    first = g_strdup_printf ("c[0x0][0x%x] to c[0x0][0x%x]", an->cbank_base,
                             an->cbank_base + an->param_bytes - 1);
  add_stage (b, 2, "arguments", g_strdup_printf ("%u parameter%s, %u bytes, packed by the host "
                                                 "stub and read by the SASS from constant bank "
                                                 "0%s%s", an->n_params,
                                                 an->n_params == 1 ? "" : "s", an->param_bytes,
                                                 first ? " at " : "", first ? first : ""));
  add_stage (b, 3, "submission", g_strdup_printf ("cuLaunchKernel writes a launch record (QMD): "
                                                  "grid %ux%ux%u, block %ux%ux%u, %u registers "
                                                  "a thread, %u bytes of shared memory a block",
                                                  an->grid[0], an->grid[1], an->grid[2],
                                                  an->block[0], an->block[1], an->block[2],
                                                  an->registers, an->shared_bytes));
  add_stage (b, 4, "distribution",
             an->have_occupancy
             ? g_strdup_printf ("%u block%s an SM (limited by %s) on %u SMs: %" G_GUINT64_FORMAT
                                " blocks in %.3g waves", an->blocks_per_sm,
                                an->blocks_per_sm == 1 ? "" : "s", an->limiter, an->sms,
                                an->blocks, an->waves_per_sm)
             : g_strdup ("the configuration cannot launch"));
  {
    g_autofree char *wait = NULL;

    if (an->waiter != KS_ANATOMY_NONE)
      {
        wait = g_strdup_printf ("; %s at %04llx waits on scoreboard %u, set by %u "
                                "instruction%s before it", an->insns[an->waiter].opcode,
                                (unsigned long long) an->insns[an->waiter].offset,
                                an->waiter_barrier, an->n_setters, an->n_setters == 1 ? "" : "s");
      }
    add_stage (b, 5, "issue", g_strdup_printf ("%u warps an SM, %u of %u slots on each of its %u "
                                               "schedulers%s", an->warps_per_sm,
                                               an->warps_per_scheduler,
                                               an->max_warps_per_scheduler, an->schedulers,
                                               wait ? wait : ""));
  }
  add_stage (b, 6, "memory",
             an->have_timing
             ? g_strdup_printf ("%.0f bytes from DRAM, %.3g flops: %.3g flops a byte (model)",
                                an->dram_bytes, an->flops, an->arithmetic_intensity)
             : g_strdup ("not timed"));
  add_stage (b, 7, "figures",
             an->have_timing
             ? g_strdup_printf ("the model: warps active %.2f %% of peak, issue active %.2f %%, "
                                "DRAM throughput %.2f %%, %.2f us", 100 * an->warps_active,
                                100 * an->issue_active, 100 * an->dram_throughput,
                                an->duration_us)
             : g_strdup ("not timed"));
  add_stage (b, 8, "completion",
             an->have_timing
             ? g_strdup_printf ("the last block retires after %.2f us (model); the completion "
                                "semaphore releases and the results can be copied back",
                                an->duration_us)
             : g_strdup ("the last block retires; the completion semaphore releases"));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
