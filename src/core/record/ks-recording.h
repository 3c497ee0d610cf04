/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-recording.h: the folder `kernelscope-cli record` writes (docs/RECORD.md).
 *
 *   DIR/launches.json        {"version": 1, "program": [ARGV...], "gpu": ID,
 *                             "launches": [{"index", "kernel", "grid", "block",
 *                             "dynamic_shared_bytes", "cooperative", "spec", "fault", "model_us",
 *                             "after": {BUFFER: BLOB}}, ...],
 *                             "not_saved": N, "not_saved_reason": TEXT}
 *   DIR/launch-NNNN.json     one launch spec each (docs/DESIGN.md's format), which
 *                            `kernelscope-cli run` re-runs
 *   DIR/modules/module-N.ptx the PTX each launch's spec names
 *   DIR/blobs/SHA256.bin     buffer contents, each kept once however many
 *                            launches hold them
 *
 * The writer is plain C over GLib and json-glib: the runtime stand-in
 * (src/cudart) uses it inside the recorded program. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct _KsRecording KsRecording;

/* Makes @dir (and its modules/ and blobs/) and starts its launches.json;
 * a launches.json already there is replaced.  NULL with @error set when
 * the folder cannot be written. */
KsRecording *ks_recording_new         (const char          *dir,
                                       const char *const   *argv,
                                       const char          *gpu_id,
                                       GError             **error);
/* Writes module @index's PTX once; returns its path relative to the
 * folder ("modules/module-0.ptx"), owned by the recording. */
const char  *ks_recording_add_module  (KsRecording         *rec,
                                       uint32_t             index,
                                       const char          *ptx,
                                       size_t               length,
                                       GError             **error);
/* Writes @length bytes as @name (relative to the folder, in an existing
 * subfolder) */
gboolean     ks_recording_add_file    (KsRecording         *rec,
                                       const char          *name,
                                       const uint8_t       *data,
                                       size_t               length,
                                       GError             **error);
/* Keeps @size bytes as a blob; returns its path relative to the folder
 * (transfer full), or NULL with @error set.  The same bytes give the same
 * blob, written once. */
char        *ks_recording_add_blob    (KsRecording         *rec,
                                       const uint8_t       *data,
                                       size_t               size,
                                       GError             **error);
/* Bytes of blobs written so far */
uint64_t     ks_recording_blob_bytes  (const KsRecording   *rec);
/* Writes launch spec @spec_json as launch-NNNN.json (NNNN = @index) and
 * appends @entry (a JSON object's text, without "spec", which this adds)
 * to launches.json.  Returns FALSE with @error set when a file cannot be
 * written. */
gboolean     ks_recording_add_launch  (KsRecording         *rec,
                                       uint32_t             index,
                                       const char          *spec_json,
                                       const char          *entry_json,
                                       GError             **error);
/* A launch that ran but is not saved (--only, --launches, the budget) */
void         ks_recording_skip_launch (KsRecording         *rec,
                                       const char          *reason);
/* Writes launches.json as it stands */
gboolean     ks_recording_flush       (KsRecording         *rec,
                                       GError             **error);
const char  *ks_recording_dir         (const KsRecording   *rec);
void         ks_recording_free        (KsRecording         *rec);

/* "launch-0007.json" */
char        *ks_recording_spec_name   (uint32_t             index);

G_END_DECLS
