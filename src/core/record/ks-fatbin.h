/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-fatbin.h: reading a CUDA fat binary (issue 19's first step: the
 * kernels a program registers come from the fat binary nvcc embeds in it).
 *
 * A fat binary, as nvcc's fatbinary writes it (`nvcc -fatbin`, the
 * `.nv_fatbin` section of a host object or program, the
 * `__fatBinC_Wrapper_t`'s data of fatbinary_section.h), is a 16-byte
 * header (magic 0xBA55ED50, version 1, header size, size of what follows)
 * and entries, each a header (kind: 1 PTX, 2 ELF cubin; its size; the
 * payload's size; the architecture; flags; the uncompressed size) and its
 * payload.  Since CUDA 12.8 the payloads may be compressed: flag 0x2000 an
 * LZ4 block (`--compress-mode=speed`), 0x8000 a Zstandard frame (`size`,
 * and the default for PTX); Debian's liblz4 and libzstd undo them.
 * NVIDIA does not document the entries' layout: the places here were read
 * from nvcc 13.0's output and are checked against the PTX and cubins the
 * same nvcc writes (tests/test-fatbin.c).  Anything else is refused with a
 * message that names the offset. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define KS_FATBIN_MAGIC 0xBA55ED50u

typedef enum
{
  KS_FATBIN_PTX = 1,
  KS_FATBIN_ELF = 2,
} KsFatbinKind;

typedef enum
{
  KS_FATBIN_UNCOMPRESSED = 0,
  KS_FATBIN_LZ4,
  KS_FATBIN_ZSTD,
} KsFatbinCompression;

typedef struct
{
  KsFatbinKind kind;
  uint32_t arch;                /* 89 for sm_89 (compute_89 for PTX) */
  uint32_t ptx_major, ptx_minor;        /* a PTX entry's ISA version (9.0); 0 for ELF */
  KsFatbinCompression compression;
  uint64_t offset;              /* of the entry's header in the data read */
  char *name;                   /* the source file nvcc names, or NULL */
  uint8_t *data;                /* the payload, uncompressed; a PTX entry's ends with a NUL */
  uint64_t size;                /* its bytes (a PTX entry's without the NULs after it) */
} KsFatbinEntry;

typedef struct
{
  KsFatbinEntry *entries;
  uint32_t n_entries;
} KsFatbin;

/* Reads every fat binary in data (several may follow each other, as in a
 * program's .nv_fatbin section, each at an 8-byte boundary): NULL with an
 * error naming the offset for anything not as described above */
KsFatbin   *ks_fatbin_read        (const uint8_t  *data,
                                   size_t          size,
                                   GError        **error);
/* The fat binaries of an ELF host object or program (its .nv_fatbin
 * section), or a fat binary file itself */
KsFatbin   *ks_fatbin_read_file   (const char     *path,
                                   GError        **error);
/* What a program registers at start-up (__cudaRegisterFatBinary's
 * argument): a __fatBinC_Wrapper_t of fatbinary_section.h (magic
 * 0x466243B1, version 1 or 2, a pointer to the fat binary).  The fat
 * binary is read as far as its own header says, no further.  NULL with an
 * error for another magic or version (version 2, prelinked for relocatable
 * device code, is refused with a message that says so). */
KsFatbin   *ks_fatbin_read_wrapper (const void    *wrapper,
                                    GError       **error);
void        ks_fatbin_free        (KsFatbin       *fatbin);
const char *ks_fatbin_compression_name (KsFatbinCompression compression);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsFatbin, ks_fatbin_free)

G_END_DECLS
