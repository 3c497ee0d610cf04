/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-shipped-sass.h: the SASS that ships beside a kernel, for machines
 * without a CUDA toolkit.
 *
 * build-aux/make-sample-sass.sh compiles each sample's NAME.cu with one
 * toolkit (nvcc -cubin -lineinfo, then nvdisasm -c -g -hex) for every
 * architecture it supports, and writes into the sample's sass/ folder
 * NAME.sm_XX.sass, NAME.sm_XX.ptxas.txt (ptxas -v) and NAME.index.json,
 * which records the SHA-256 of NAME.cu and of the committed NAME.ptx.  A
 * listing is only ever used for the very text it was made from: the CUDA
 * with that hash, or the PTX with that hash (made from that CUDA by
 * regenerate-samples.sh).  An edited kernel has no shipped SASS.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  KS_SHIPPED_SASS_NONE = 0,     /* no NAME.index.json beside the file */
  KS_SHIPPED_SASS_OTHER_CODE,   /* listings of other code: the text was edited */
  KS_SHIPPED_SASS_NO_ARCH,      /* none for this architecture; archs lists those there are */
  KS_SHIPPED_SASS_FOUND,
} KsShippedSassStatus;

typedef struct
{
  KsShippedSassStatus status;
  char *listing_path;           /* FOUND: NAME.sm_XX.sass */
  char *report_path;            /* FOUND: NAME.sm_XX.ptxas.txt, or NULL when there is none */
  char *toolkit;                /* "CUDA 11.8.89" */
  char *compile;                /* "nvcc -cubin -lineinfo -Xptxas -v -arch=ARCH NAME.cu" */
  char *disassemble;            /* "nvdisasm -c -g -hex NAME.ARCH.cubin" */
  GStrv archs;                  /* the architectures with a listing, oldest first */
  char *error;                  /* an index that could not be read, else NULL */
} KsShippedSass;

/* Looks for the listings of `file` (a .cu or .ptx path) whose text is
 * `text` (the text analysed) for `arch` ("sm_86").  Never NULL; status says
 * what was found.
 *
 * Returns: (transfer full) */
KsShippedSass *ks_shipped_sass_find   (const char    *file,
                                       const char    *text,
                                       const char    *arch);
void           ks_shipped_sass_free   (KsShippedSass *shipped);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsShippedSass, ks_shipped_sass_free)

G_END_DECLS
