/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-elf.c: the .text.<function> sections of a cubin, read from the
 * ELF64 section header table by hand (a cubin is a little-endian ELF64 with
 * one .text section per function; nothing else is needed to find its code,
 * so there is no libelf).  Every offset and size is checked against the
 * file before it is used. */

#include <string.h>

#include "ks-sass.h"

static uint64_t
rd (const guint8 *p,
    guint         n)
{
  uint64_t v = 0;

  for (guint i = 0; i < n; i++)
    v |= (uint64_t) p[i] << (8 * i);
  return v;
}

static gboolean
elf_fail (GError    **error,
          const char *message)
{
  g_set_error_literal (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF, message);
  return FALSE;
}

/* [off, off + size) lies inside a buffer of len bytes */
static gboolean
in_bounds (uint64_t off,
           uint64_t size,
           gsize    len)
{
  return off <= len && size <= len - off;
}

gboolean
ks_sass_elf_text_section (const guint8  *data,
                          gsize          len,
                          const char    *function,
                          const guint8 **out,
                          gsize         *out_len,
                          GError       **error)
{
  uint64_t shoff, shentsize, shnum, shstrndx, str_off, str_size;
  const guint8 *strsh;
  g_autofree char *want = NULL;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (function != NULL && out != NULL && out_len != NULL, FALSE);

  if (len < 64 || memcmp (data, "\177ELF", 4) != 0)
    return elf_fail (error, "not an ELF file");
  if (data[4] != 2 || data[5] != 1)
    return elf_fail (error, "not a 64-bit little-endian ELF (cubins are)");
  shoff = rd (data + 0x28, 8);
  shentsize = rd (data + 0x3a, 2);
  shnum = rd (data + 0x3c, 2);
  shstrndx = rd (data + 0x3e, 2);
  if (shentsize < 64 || shnum == 0 || shstrndx >= shnum
      || shnum > G_MAXSIZE / shentsize || !in_bounds (shoff, shnum * shentsize, len))
    return elf_fail (error, "the ELF's section header table is not inside the file");

  strsh = data + shoff + shstrndx * shentsize;
  str_off = rd (strsh + 24, 8);
  str_size = rd (strsh + 32, 8);
  if (!in_bounds (str_off, str_size, len))
    return elf_fail (error, "the ELF's section name table is not inside the file");

  want = g_strconcat (".text.", function, NULL);
  for (uint64_t i = 0; i < shnum; i++)
    {
      const guint8 *sh = data + shoff + i * shentsize;
      uint64_t name = rd (sh, 4), type = rd (sh + 4, 4);
      uint64_t off = rd (sh + 24, 8), size = rd (sh + 32, 8);
      const char *s;
      gsize max, n = 0;

      if (name >= str_size)
        continue;
      s = (const char *) data + str_off + name;
      max = (gsize) (str_size - name);
      while (n < max && s[n] != '\0')
        n++;
      if (n == max || strcmp (s, want) != 0)
        continue;
      if (type == 8)            /* SHT_NOBITS */
        return elf_fail (error, "the function's .text section has no bytes in the file");
      if (!in_bounds (off, size, len))
        return elf_fail (error, "the function's .text section is not inside the file");
      *out = data + off;
      *out_len = (gsize) size;
      return TRUE;
    }
  g_set_error (error, KS_SASS_ERROR, KS_SASS_ERROR_ELF, "no section %s in the ELF", want);
  return FALSE;
}
