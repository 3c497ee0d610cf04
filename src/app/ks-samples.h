/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-samples.h: the sample library (data/samples/), and where the app's
 * data folders are.
 *
 * Each sample is a folder holding NAME.cu, NAME.ptx and the launch spec
 * NAME.json, and optionally sample.json with a "title", a "summary" and
 * the "spec" (docs/SAMPLES.md); data/samples/index.json gives the course
 * order.  Plain GLib, no GTK, so the tests can read the library. */
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
} KsSample;

void        ks_sample_free        (KsSample   *sample);

/* The samples in samples_dir, in the order of its index.json, then the
 * ones it does not list by folder name; folders without a .cu, .ptx or
 * launch spec are left out.
 * Returns: (transfer full) (element-type KsSample): never NULL */
GPtrArray  *ks_samples_list       (const char *samples_dir);

/* Whether the sample answers a search: every word of query (split at
 * white space, compared case-insensitively) is part of its title, its
 * summary, one of its tags or its folder's name.  An empty query matches
 * every sample. */
gboolean    ks_sample_matches     (const KsSample *sample,
                                   const char     *query);

/* The folder `name` of the app's data: $KS_DATA_DIR/name when KS_DATA_DIR
 * is set, else the installed copy, else the source tree's data/ (running
 * from a build tree); NULL when none exists.
 * Returns: (transfer full) (nullable) */
char       *ks_data_find_dir      (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsSample, ks_sample_free)

G_END_DECLS
