/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-samples.h: the sample library (data/samples/), and where the app's
 * data folders are.
 *
 * Each sample is a folder holding NAME.cu, NAME.ptx and the launch spec
 * NAME.json, and optionally sample.json with a "title", a "summary", a
 * "level", the "spec" and the "focus" its lesson opens on (docs/SAMPLES.md);
 * data/samples/index.json gives the course order.  Plain GLib, no GTK, so
 * the tests can read the library. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *id;                     /* the folder's name, "01-vector-add" */
  char *dir;
  char *title;                  /* from sample.json, else made from the folder's name */
  char *description;            /* sample.json's "summary", else NULL */
  char **tags;                  /* sample.json's "tags" (never NULL, maybe empty) */
  char *cuda_path;              /* NULL where the file is missing */
  char *ptx_path;
  char *spec_path;
  guint number;                 /* the folder's leading number, 12 for "12-transpose-padded"; 0: none */
  guint level;                  /* sample.json's "level" (1-5); 0: not given */
  /* sample.json's "focus": what the window shows after the first run */
  guint focus_line;             /* a line of the CUDA file; 0: the top hint's */
  char *focus_view;             /* a results page ("memory", "lanes", ...); NULL: not chosen */
  guint focus_step;             /* 1-based step of the Lanes view; 0: its first split */
  char *focus_error;            /* why "focus" was set aside (named field and file); NULL: fine */
  /* sample.json's "compare": the samples (folder names) it is taught
   * against, in order (never NULL, maybe empty) */
  char **partners;
} KsSample;

/* The results pages a focus may name, NULL-terminated */
extern const char *const ks_sample_focus_views[];

void        ks_sample_free        (KsSample   *sample);
/* What to analyse of a sample without nvcc: its launch spec, else its PTX,
 * else its CUDA.  Returns: (transfer none) */
const char *ks_sample_analysis_path (const KsSample *sample);

/* The samples in samples_dir, in the order of its index.json, then the
 * ones it does not list by folder name; folders without a .cu, .ptx or
 * launch spec are left out.
 * Returns: (transfer full) (element-type KsSample): never NULL */
GPtrArray  *ks_samples_list       (const char *samples_dir);

/* Whether the sample answers a search: every word of query (split at
 * white space, compared case-insensitively) is part of its title, its
 * summary, one of its tags or its folder's name; a word of digits alone is
 * the sample's number ("12", "05"), and "level N" (or "levelN") its level.
 * An empty query matches every sample. */
gboolean    ks_sample_matches     (const KsSample *sample,
                                   const char     *query);

/* The sample in folder `dir` (its parent is the library), or NULL when
 * it has no .cu, .ptx or launch spec.  Returns: (transfer full) */
KsSample   *ks_sample_open        (const char *dir);
/* Sample `id` of `samples` and those its "compare" names, in the order of
 * `samples` (the course's), each read anew from its folder, for a window
 * that keeps them; *index is id's place.  Empty when there is no `id`.
 * Returns: (transfer full) (element-type KsSample) */
GPtrArray  *ks_samples_group      (GPtrArray  *samples,
                                   const char *id,
                                   guint      *index);
/* The sample of `samples` whose id is `id`, or NULL */
const KsSample *ks_samples_find   (GPtrArray  *samples,
                                   const char *id);
/* The sample of `samples` whose folder holds the file at `path`, or NULL */
const KsSample *ks_samples_find_for_file (GPtrArray  *samples,
                                          const char *path);

/* The folder `name` of the app's data: $KS_DATA_DIR/name when KS_DATA_DIR
 * is set, else the installed copy, else the source tree's data/ (running
 * from a build tree); NULL when none exists.
 * Returns: (transfer full) (nullable) */
/* Whether this program runs from its build tree (it then prefers the
 * build's and the source tree's data, schema and catalogues to installed
 * ones, which may be an older version's) */
gboolean    ks_running_uninstalled  (void);
char       *ks_data_find_dir      (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsSample, ks_sample_free)

G_END_DECLS
