/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-fatbin.c: reading a CUDA fat binary (ks-fatbin.h). */
#include "ks-fatbin.h"

#include <gio/gio.h>
#include <lz4.h>
#include <string.h>
#include <zstd.h>

#include "ks-file.h"

/* The entries' header, as nvcc 13.0 writes it (offsets from its start) */
enum
{
  ENTRY_KIND = 0,               /* u16 */
  ENTRY_HEADER_SIZE = 4,        /* u32 */
  ENTRY_PAYLOAD_SIZE = 8,       /* u64, padded to 8 */
  ENTRY_COMPRESSED_SIZE = 16,   /* u32: the compressed bytes of the payload */
  ENTRY_VERSION = 24,           /* u32: a PTX entry's ISA, major << 16 | minor */
  ENTRY_ARCH = 28,              /* u32 */
  ENTRY_NAME_OFFSET = 32,       /* u32, from the entry's start; 0: none */
  ENTRY_NAME_SIZE = 36,         /* u32 */
  ENTRY_FLAGS = 40,             /* u32 */
  ENTRY_UNCOMPRESSED_SIZE = 56, /* u64 */
  ENTRY_MIN_HEADER = 64,
};

#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
/* what a payload may grow to: a kernel's cubin or PTX is far smaller */
#define MAX_UNCOMPRESSED ((uint64_t) 1 << 30)

static uint16_t
u16_at (const uint8_t *p)
{
  return (uint16_t) (p[0] | p[1] << 8);
}

static uint32_t
u32_at (const uint8_t *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static uint64_t
u64_at (const uint8_t *p)
{
  return (uint64_t) u32_at (p) | (uint64_t) u32_at (p + 4) << 32;
}

const char *
ks_fatbin_compression_name (KsFatbinCompression compression)
{
  switch (compression)
    {
    case KS_FATBIN_LZ4: return "lz4";
    case KS_FATBIN_ZSTD: return "zstd";
    case KS_FATBIN_UNCOMPRESSED: default: return "none";
    }
}

static void
entry_clear (KsFatbinEntry *e)
{
  g_free (e->name);
  g_free (e->data);
}

void
ks_fatbin_free (KsFatbin *fatbin)
{
  if (fatbin == NULL)
    return;
  for (uint32_t i = 0; i < fatbin->n_entries; i++)
    entry_clear (&fatbin->entries[i]);
  g_free (fatbin->entries);
  g_free (fatbin);
}

/* The payload, uncompressed, into e->data and e->size */
static gboolean
unpack (KsFatbinEntry *e,
        const uint8_t *payload,
        uint64_t       payload_size,
        uint32_t       compressed,
        uint64_t       uncompressed,
        GError       **error)
{
  if (e->compression == KS_FATBIN_UNCOMPRESSED)
    {
      e->data = g_malloc (payload_size + 1);
      memcpy (e->data, payload, payload_size);
      e->data[payload_size] = 0;
      e->size = payload_size;
      return TRUE;
    }
  if (compressed == 0 || compressed > payload_size || uncompressed == 0
      || uncompressed > MAX_UNCOMPRESSED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "offset %" G_GUINT64_FORMAT ": a %s payload of %u bytes in %" G_GUINT64_FORMAT
                   " that would be %" G_GUINT64_FORMAT " bytes", e->offset,
                   ks_fatbin_compression_name (e->compression), compressed, payload_size,
                   uncompressed);
      return FALSE;
    }
  e->data = g_malloc (uncompressed + 1);
  e->data[uncompressed] = 0;
  e->size = uncompressed;
  if (e->compression == KS_FATBIN_LZ4)
    {
      int n = compressed <= (uint32_t) G_MAXINT && uncompressed <= (uint64_t) G_MAXINT
              ? LZ4_decompress_safe ((const char *) payload, (char *) e->data, (int) compressed,
                                     (int) uncompressed) : -1;

      if (n < 0 || (uint64_t) n != uncompressed)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "offset %" G_GUINT64_FORMAT ": its LZ4 block does not give the %"
                       G_GUINT64_FORMAT " bytes its header says", e->offset, uncompressed);
          return FALSE;
        }
    }
  else
    {
      size_t n = ZSTD_decompress (e->data, uncompressed, payload, compressed);

      if (ZSTD_isError (n) || n != uncompressed)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "offset %" G_GUINT64_FORMAT ": its Zstandard frame does not give the %"
                       G_GUINT64_FORMAT " bytes its header says (%s)", e->offset, uncompressed,
                       ZSTD_isError (n) ? ZSTD_getErrorName (n) : "another size");
          return FALSE;
        }
    }
  return TRUE;
}

/* One entry at data + at (at most `end`); its size in *next */
static gboolean
read_entry (const uint8_t *data,
            uint64_t       at,
            uint64_t       end,
            KsFatbinEntry *e,
            uint64_t      *next,
            GError       **error)
{
  const uint8_t *h = data + at;
  uint32_t header_size, flags, name_offset, name_size;
  uint64_t payload_size;

  e->offset = at;
  if (end - at < ENTRY_MIN_HEADER)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "offset %" G_GUINT64_FORMAT ": an entry's header cut short", at);
      return FALSE;
    }
  header_size = u32_at (h + ENTRY_HEADER_SIZE);
  payload_size = u64_at (h + ENTRY_PAYLOAD_SIZE);
  if (header_size < ENTRY_MIN_HEADER || header_size > end - at
      || payload_size > end - at - header_size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "offset %" G_GUINT64_FORMAT ": an entry of %u + %" G_GUINT64_FORMAT
                   " bytes where %" G_GUINT64_FORMAT " are left", at, header_size, payload_size,
                   end - at);
      return FALSE;
    }
  switch (u16_at (h + ENTRY_KIND))
    {
    case KS_FATBIN_PTX: e->kind = KS_FATBIN_PTX; break;
    case KS_FATBIN_ELF: e->kind = KS_FATBIN_ELF; break;
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "offset %" G_GUINT64_FORMAT ": an entry of kind %u (1 is PTX, 2 a cubin)",
                   at, u16_at (h + ENTRY_KIND));
      return FALSE;
    }
  flags = u32_at (h + ENTRY_FLAGS);
  if ((flags & FLAG_LZ4) && (flags & FLAG_ZSTD))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "offset %" G_GUINT64_FORMAT ": flags 0x%x say both LZ4 and Zstandard", at,
                   flags);
      return FALSE;
    }
  e->compression = flags & FLAG_LZ4 ? KS_FATBIN_LZ4
                   : flags & FLAG_ZSTD ? KS_FATBIN_ZSTD : KS_FATBIN_UNCOMPRESSED;
  e->arch = u32_at (h + ENTRY_ARCH);
  if (e->kind == KS_FATBIN_PTX)
    {
      e->ptx_major = u32_at (h + ENTRY_VERSION) >> 16;
      e->ptx_minor = u32_at (h + ENTRY_VERSION) & 0xffff;
    }
  name_offset = u32_at (h + ENTRY_NAME_OFFSET);
  name_size = u32_at (h + ENTRY_NAME_SIZE);
  if (name_offset != 0 && name_offset >= ENTRY_MIN_HEADER && name_offset < header_size
      && name_size <= header_size - name_offset)
    e->name = g_strndup ((const char *) h + name_offset, name_size);
  if (!unpack (e, h + header_size, payload_size, u32_at (h + ENTRY_COMPRESSED_SIZE),
               u64_at (h + ENTRY_UNCOMPRESSED_SIZE), error))
    return FALSE;
  if (e->kind == KS_FATBIN_ELF && (e->size < 4 || memcmp (e->data, "\177ELF", 4) != 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "offset %" G_GUINT64_FORMAT ": a cubin entry that is not an ELF file", at);
      return FALSE;
    }
  if (e->kind == KS_FATBIN_PTX)
    {
      /* the text, without the NULs that pad it */
      const uint8_t *nul = memchr (e->data, 0, e->size);

      if (nul != NULL)
        e->size = (uint64_t) (nul - e->data);
      if (!g_utf8_validate ((const char *) e->data, (gssize) e->size, NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "offset %" G_GUINT64_FORMAT ": a PTX entry that is not text", at);
          return FALSE;
        }
    }
  *next = at + header_size + payload_size;
  return TRUE;
}

KsFatbin *
ks_fatbin_read (const uint8_t  *data,
                size_t          size,
                GError        **error)
{
  g_autoptr(KsFatbin) fb = g_new0 (KsFatbin, 1);
  g_autoptr(GArray) entries = g_array_new (FALSE, TRUE, sizeof (KsFatbinEntry));
  uint64_t at = 0;
  guint n_binaries = 0;

  g_array_set_clear_func (entries, (GDestroyNotify) entry_clear);
  while (at < size)
    {
      uint32_t header_size;
      uint64_t body, end;

      /* each binary starts at an 8-byte boundary; zeros may pad the last */
      if (size - at < 16)
        {
          while (at < size && data[at] == 0)
            at++;
          if (at == size)
            break;
        }
      if (size - at < 16 || u32_at (data + at) != KS_FATBIN_MAGIC)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "offset %" G_GUINT64_FORMAT ": not a CUDA fat binary (its header starts "
                       "with 0x%08X)", at, KS_FATBIN_MAGIC);
          return NULL;
        }
      header_size = u16_at (data + at + 6);
      body = u64_at (data + at + 8);
      if (u16_at (data + at + 4) != 1 || header_size < 16 || header_size > size - at
          || body > size - at - header_size)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "offset %" G_GUINT64_FORMAT ": a fat binary of version %u, with %u + %"
                       G_GUINT64_FORMAT " bytes where %" G_GUINT64_FORMAT " are left", at,
                       u16_at (data + at + 4), header_size, body, (uint64_t) (size - at));
          return NULL;
        }
      end = at + header_size + body;
      at += header_size;
      while (at < end)
        {
          KsFatbinEntry e = { 0 };

          if (!read_entry (data, at, end, &e, &at, error))
            {
              entry_clear (&e);
              return NULL;
            }
          g_array_append_val (entries, e);
        }
      n_binaries++;
      at = (at + 7) & ~(uint64_t) 7;
    }
  if (n_binaries == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no CUDA fat binary in %"
                   G_GSIZE_FORMAT " bytes", size);
      return NULL;
    }
  fb->n_entries = entries->len;
  g_array_set_clear_func (entries, NULL);
  fb->entries = (KsFatbinEntry *) (void *) g_array_free (g_steal_pointer (&entries), FALSE);
  return g_steal_pointer (&fb);
}

#define WRAPPER_MAGIC 0x466243B1u

KsFatbin *
ks_fatbin_read_wrapper (const void  *wrapper,
                        GError     **error)
{
  /* fatbinary_section.h's __fatBinC_Wrapper_t: int magic, int version, a
   * pointer to the data, a pointer we do not need */
  const struct
  {
    int magic;
    int version;
    const unsigned long long *data;
    void *filename_or_fatbins;
  } *w = wrapper;
  const uint8_t *d;

  g_return_val_if_fail (wrapper != NULL, NULL);

  if ((uint32_t) w->magic != WRAPPER_MAGIC)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not a fat binary wrapper "
                   "(magic 0x%08X, not 0x%08X)", (uint32_t) w->magic, WRAPPER_MAGIC);
      return NULL;
    }
  if (w->version != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "a fat binary wrapper of "
                   "version %d: %s", w->version, w->version == 2
                   ? "prelinked fat binaries (relocatable device code, -rdc) are not read yet"
                   : "only version 1 is known");
      return NULL;
    }
  d = (const uint8_t *) w->data;
  if (d == NULL || u32_at (d) != KS_FATBIN_MAGIC)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the wrapper's data is not a "
                   "CUDA fat binary");
      return NULL;
    }
  /* the binary's own header says how far it goes */
  if (u64_at (d + 8) > G_MAXSIZE - 64)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "a fat binary of %"
                   G_GUINT64_FORMAT " bytes", u64_at (d + 8));
      return NULL;
    }
  return ks_fatbin_read (d, (size_t) (u16_at (d + 6) + u64_at (d + 8)), error);
}

/* The .nv_fatbin section of a 64-bit little-endian ELF file: its place in
 * *offset and *size; FALSE with an error when there is none */
static gboolean
elf_fatbin_section (const uint8_t *d,
                    size_t         size,
                    uint64_t      *offset,
                    uint64_t      *length,
                    GError       **error)
{
  uint64_t shoff;
  uint32_t shentsize, shnum, shstrndx;
  const uint8_t *strtab_header;
  uint64_t strtab, strtab_size;

  if (size < 64 || d[4] != 2 || d[5] != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "an ELF file that is not 64-bit little-endian");
      return FALSE;
    }
  shoff = u64_at (d + 0x28);
  shentsize = u16_at (d + 0x3a);
  shnum = u16_at (d + 0x3c);
  shstrndx = u16_at (d + 0x3e);
  if (shentsize < 64 || shoff > size || (uint64_t) shnum * shentsize > size - shoff
      || shstrndx >= shnum)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "its section headers (%u at offset %" G_GUINT64_FORMAT ") do not fit the "
                   "file", shnum, shoff);
      return FALSE;
    }
  strtab_header = d + shoff + (uint64_t) shstrndx * shentsize;
  strtab = u64_at (strtab_header + 0x18);
  strtab_size = u64_at (strtab_header + 0x20);
  if (strtab > size || strtab_size > size - strtab)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "its section names do not fit the file");
      return FALSE;
    }
  for (uint32_t i = 0; i < shnum; i++)
    {
      const uint8_t *s = d + shoff + (uint64_t) i * shentsize;
      uint32_t name = u32_at (s);
      uint64_t off = u64_at (s + 0x18), len = u64_at (s + 0x20);

      if (name < strtab_size && strtab_size - name > strlen (".nv_fatbin")
          && strcmp ((const char *) d + strtab + name, ".nv_fatbin") == 0)
        {
          if (off > size || len > size - off)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "its .nv_fatbin section does not fit the file");
              return FALSE;
            }
          *offset = off;
          *length = len;
          return TRUE;
        }
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "no .nv_fatbin section: no CUDA kernels were compiled into it");
  return FALSE;
}

KsFatbin *
ks_fatbin_read_file (const char  *path,
                     GError     **error)
{
  g_autofree char *contents = NULL;
  gsize size = 0;
  const uint8_t *d;
  uint64_t offset = 0, length;
  KsFatbin *fb;

  if (!ks_file_get_contents (path, &contents, &size, error))
    return NULL;
  d = (const uint8_t *) contents;
  length = size;
  if (size >= 4 && memcmp (d, "\177ELF", 4) == 0
      && !elf_fatbin_section (d, size, &offset, &length, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  fb = ks_fatbin_read (d + offset, length, error);
  if (fb == NULL)
    g_prefix_error (error, "%s: ", path);
  return fb;
}
