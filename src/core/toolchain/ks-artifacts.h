/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-artifacts.h: what `nvcc --keep` leaves of a kernel's compilation
 * (seeds/004's first stage): the preprocessed sources, the host code with
 * its launch stubs, the PTX, the cubin, the fat binary, and which of
 * nvcc's programs (cicc, ptxas, fatbinary, cudafe++, the host compiler)
 * wrote each one, read from the commands `nvcc -v` prints.
 *
 * Without a toolkit a sample's record stands in:
 * data/samples/NN/keep/NAME.keep.json, made by
 * build-aux/make-sample-keep.sh (the toolkit, the command, nvcc's steps,
 * the files with their sizes and the small ones' texts), used while the
 * CUDA is the one it was made of. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ks-toolchain.h"

G_BEGIN_DECLS

/* The text of an artifact is kept up to this size (the preprocessed
 * sources are about a megabyte each: listed, not kept) */
#define KS_ARTIFACT_MAX_TEXT (256 * 1024)

typedef struct
{
  char *name;                   /* "vector_add.cudafe1.stub.c" */
  uint64_t size;                /* bytes */
  char *tool;                   /* the program that wrote it ("cicc"); NULL when no step names
                                 * it as its output */
  char *text;                   /* its contents, for a text file of at most
                                 * KS_ARTIFACT_MAX_TEXT bytes; else NULL */
  int step;                     /* the index in steps of the one that wrote it; -1: none */
} KsArtifact;

typedef struct
{
  char *toolkit;                /* "CUDA 13.0.88" */
  char *arch;                   /* "sm_89" */
  char *command;                /* "nvcc --keep -c -lineinfo -arch=sm_89 vector_add.cu" */
  GPtrArray *steps;             /* (element-type utf8) the programs nvcc ran, in order, as
                                 * `nvcc -v` prints them ("ptxas -arch=sm_89 ...") */
  KsArtifact *items;            /* in the order the steps wrote them */
  uint32_t n_items;
  gboolean recorded;            /* a sample's record, not made here */
} KsArtifacts;

/* Compiles the CUDA (text, or the file at path when text is NULL; path
 * names it, and its folder is on the include path) as `nvcc --keep -v -c
 * -lineinfo -arch=ARCH` does, with the compiling toolkit, in a private
 * temporary folder that is then removed: the files it left, their makers
 * and the small texts.  NULL with G_IO_ERROR_NOT_FOUND without nvcc (or a
 * host compiler), G_IO_ERROR_FAILED with nvcc's messages when it fails.
 * Blocks: call it from a worker thread. */
KsArtifacts *ks_artifacts_make  (const KsToolchain *tc,
                                 const char        *path,
                                 const char        *text,
                                 const char        *arch,
                                 GCancellable      *cancellable,
                                 GError           **error);
/* Where a sample's record of NAME.cu is: FOLDER/keep/NAME.keep.json
 * (transfer full) */
char        *ks_artifacts_record_path (const char  *folder,
                                       const char  *cuda_name);
/* A sample's record, used only while `cuda` is the text it was made of.
 * NULL with G_IO_ERROR_NOT_FOUND when there is no record,
 * G_IO_ERROR_INVALID_DATA when it is of another text or cannot be read
 * (the message says which). */
KsArtifacts *ks_artifacts_load  (const char        *record,
                                 const char        *cuda,
                                 GError           **error);
void         ks_artifacts_free  (KsArtifacts       *artifacts);

/* The maker of each file from `nvcc -v`'s output (its "#$ " lines): the
 * last step that names it as an output (-o, --create, --embedded-fatbin,
 * --gen_c_file_name, --stub_file_name, --gen_device_file_name, and
 * --module_id_file_name with --gen_module_id_file); adds the steps to
 * artifacts->steps and sets the tool of each item it names */
void         ks_artifacts_read_steps (KsArtifacts *artifacts,
                                      const char  *nvcc_v);
/* The artifact whose name ends with suffix (".cudafe1.stub.c"), or NULL */
const KsArtifact *ks_artifacts_find (const KsArtifacts *artifacts,
                                     const char        *suffix);

/* What the launch stub of `kernel` (its mangled name) notes of each
 * argument in a .cudafe1.stub.c: the offset in the argument buffer beside
 * each __cudaSetupArg(Simple)(__parN, OFFSET) of
 * __device_stub_KERNEL.  Returns how many (up to max), or -1 when the
 * stub has no such function. */
int          ks_artifacts_stub_offsets (const char *stub,
                                        const char *kernel,
                                        uint32_t   *offsets,
                                        uint32_t    max);

/* What a file of the compilation is, by its name's ending: a key of
 * docs/ANATOMY.md's list ("ptx", "cubin", "stub", ...) or NULL */
const char  *ks_artifact_kind   (const char *name);

/* {"toolkit", "arch", "command", "recorded", "steps", "files": [{"name",
 * "kind", "size", "tool"}]} */
JsonNode    *ks_artifacts_to_json (const KsArtifacts *artifacts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsArtifacts, ks_artifacts_free)

G_END_DECLS
