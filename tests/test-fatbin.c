/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading CUDA fat binaries (ks-fatbin.h) against what the same nvcc wrote
 * beside them (tests/fixtures/fatbin, CUDA 13.0.88, sample 1 for sm_89):
 *
 * - uncompressed, with the PTX as an LZ4 block (--compress-mode=speed) and
 *   with both payloads as Zstandard frames (size): the cubin is
 *   `nvcc -cubin`'s byte for byte, the PTX is `nvcc -ptx`'s as fatbinary
 *   keeps it (comments dropped, runs of spaces made one, the lines kept),
 *   and it parses to the same kernel with the same instructions;
 * - a host object's .nv_fatbin section (`nvcc -c`);
 * - every cut of a fat binary, a wrong magic, an unknown kind and a
 *   damaged frame: refused with the offset, never a crash. */

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ks-fatbin.h"
#include "ks-ptx.h"

static GBytes *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "fatbin", name, NULL);
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* nvcc's PTX as fatbinary stores it: each line without its // comment,
 * its spaces and tabs made one space, none at either end */
static char *
as_stored (const char *ptx)
{
  g_auto(GStrv) lines = g_strsplit (ptx, "\n", -1);
  GString *s = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *c = strstr (lines[i], "//");
      gboolean space = FALSE;
      gsize start = s->len;

      if (c != NULL)
        *c = '\0';
      for (const char *p = lines[i]; *p != '\0'; p++)
        if (*p == ' ' || *p == '\t')
          space = TRUE;
        else
          {
            if (space && s->len > start)
              g_string_append_c (s, ' ');
            space = FALSE;
            g_string_append_c (s, *p);
          }
      if (lines[i + 1] != NULL)
        g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
check_vadd (const KsFatbin      *fb,
            KsFatbinCompression  ptx_compression,
            KsFatbinCompression  elf_compression)
{
  g_autoptr(GBytes) cubin = fixture ("vector_add.sm_89.cubin");
  g_autoptr(GBytes) ptx = fixture ("vector_add.sm_89.ptx");
  g_autofree char *ptx_text = g_strndup (g_bytes_get_data (ptx, NULL), g_bytes_get_size (ptx));
  g_autofree char *stored = as_stored (ptx_text);
  const KsFatbinEntry *elf = NULL, *text = NULL;

  g_assert_cmpuint (fb->n_entries, ==, 2);
  for (uint32_t i = 0; i < fb->n_entries; i++)
    {
      if (fb->entries[i].kind == KS_FATBIN_ELF)
        elf = &fb->entries[i];
      else
        text = &fb->entries[i];
    }
  g_assert_nonnull (elf);
  g_assert_nonnull (text);
  g_assert_cmpuint (elf->arch, ==, 89);
  g_assert_cmpint (elf->compression, ==, elf_compression);
  g_assert_cmpmem (elf->data, elf->size, g_bytes_get_data (cubin, NULL),
                   g_bytes_get_size (cubin));
  g_assert_cmpuint (text->arch, ==, 89);
  g_assert_cmpuint (text->ptx_major, ==, 9);
  g_assert_cmpuint (text->ptx_minor, ==, 0);
  g_assert_cmpint (text->compression, ==, ptx_compression);
  g_assert_cmpstr ((const char *) text->data, ==, stored);
  {
    g_autoptr(GBytes) src = g_bytes_new (text->data, text->size);
    KsPtxModule *ours = ks_ptx_module_parse (src, "fatbin.ptx");
    KsPtxModule *nvccs = ks_ptx_module_parse (ptx, "vector_add.sm_89.ptx");
    const KsPtxFunction *a = ks_ptx_module_find_function (ours, "_Z10vector_addPKfS0_Pfi");
    const KsPtxFunction *b = ks_ptx_module_find_function (nvccs, "_Z10vector_addPKfS0_Pfi");

    g_assert_false (ks_ptx_module_has_errors (ours));
    g_assert_nonnull (a);
    g_assert_nonnull (b);
    g_assert_cmpuint (a->n_insns, ==, b->n_insns);
    g_assert_cmpuint (a->n_params, ==, 4);
    ks_ptx_module_free (ours);
    ks_ptx_module_free (nvccs);
  }
}

static void
test_compressions (void)
{
  const struct { const char *file; KsFatbinCompression ptx, elf; } cases[] = {
    { "vector_add.sm_89.none.fatbin", KS_FATBIN_UNCOMPRESSED, KS_FATBIN_UNCOMPRESSED },
    { "vector_add.sm_89.speed.fatbin", KS_FATBIN_LZ4, KS_FATBIN_UNCOMPRESSED },
    { "vector_add.sm_89.size.fatbin", KS_FATBIN_ZSTD, KS_FATBIN_ZSTD },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) data = fixture (cases[i].file);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsFatbin) fb = ks_fatbin_read (g_bytes_get_data (data, NULL),
                                               g_bytes_get_size (data), &error);

      g_test_message ("%s", cases[i].file);
      g_assert_no_error (error);
      check_vadd (fb, cases[i].ptx, cases[i].elf);
    }
}

/* nvcc -c: the host object carries the fat binary in .nv_fatbin (the
 * default compression: the PTX as a Zstandard frame) */
static void
test_object (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "fatbin",
                                                 "vector_add.o", NULL);
  g_autofree char *cubin = g_test_build_filename (G_TEST_DIST, "fixtures", "fatbin",
                                                  "vector_add.sm_89.cubin", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsFatbin) fb = ks_fatbin_read_file (path, &error);

  g_assert_no_error (error);
  check_vadd (fb, KS_FATBIN_ZSTD, KS_FATBIN_UNCOMPRESSED);
  /* a cubin is an ELF file without the section */
  g_assert_null (ks_fatbin_read_file (cubin, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, ".nv_fatbin"));
}

/* What a program hands __cudaRegisterFatBinary: fatbinary_section.h's
 * wrapper (magic 0x466243B1, version 1) around the fat binary */
static void
test_wrapper (void)
{
  g_autoptr(GBytes) bytes = fixture ("vector_add.sm_89.size.fatbin");
  g_autofree uint64_t *data = g_malloc (g_bytes_get_size (bytes) + 8);
  struct { int magic, version; const unsigned long long *data; void *other; } w;
  g_autoptr(GError) error = NULL;
  KsFatbin *fb;

  memcpy (data, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  w.magic = 0x466243B1;
  w.version = 1;
  w.data = (const unsigned long long *) data;
  w.other = NULL;
  fb = ks_fatbin_read_wrapper (&w, &error);
  g_assert_no_error (error);
  check_vadd (fb, KS_FATBIN_ZSTD, KS_FATBIN_ZSTD);
  ks_fatbin_free (fb);
  w.version = 2;
  g_assert_null (ks_fatbin_read_wrapper (&w, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "prelinked"));
  g_clear_error (&error);
  w.version = 1;
  w.magic = 0x12345678;
  g_assert_null (ks_fatbin_read_wrapper (&w, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* A whole program: with nvcc here, one built from a kernel and a main()
 * carries the kernel's PTX in its .nv_fatbin section */
static void
test_program (void)
{
  g_autofree char *nvcc = g_find_program_in_path ("nvcc");
  g_autofree char *dir = NULL, *src = NULL, *exe = NULL, *err = NULL;
  const char *text = "__global__ void twice (float *p) { p[threadIdx.x] *= 2; }\n"
                     "int main (void) { twice<<<1, 32>>> (0); return 0; }\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsFatbin) fb = NULL;
  int status = 0;
  gboolean found = FALSE;

  if (nvcc == NULL || g_getenv ("KS_NO_TOOLKIT") != NULL)
    {
      g_test_skip ("no nvcc on PATH: no program is built");
      return;
    }
  dir = g_dir_make_tmp ("ks-fatbin-XXXXXX", NULL);
  src = g_build_filename (dir, "twice.cu", NULL);
  exe = g_build_filename (dir, "twice", NULL);
  g_assert_true (g_file_set_contents (src, text, -1, NULL));
  {
    const char *argv[] = { nvcc, "-arch=sm_86", "-o", exe, src, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                       &err, &status, NULL) || status != 0)
      {
        g_test_skip_printf ("nvcc could not build a program here: %s", err ? err : "");
        return;
      }
  }
  fb = ks_fatbin_read_file (exe, &error);
  g_assert_no_error (error);
  for (uint32_t i = 0; i < fb->n_entries; i++)
    if (fb->entries[i].kind == KS_FATBIN_PTX && fb->entries[i].arch == 86)
      found = strstr ((const char *) fb->entries[i].data, ".entry _Z5twicePf") != NULL;
  g_assert_true (found);
  g_unlink (exe);
  g_unlink (src);
  g_rmdir (dir);
}

static void
test_damage (void)
{
  const char *const files[] = {
    "vector_add.sm_89.none.fatbin", "vector_add.sm_89.speed.fatbin", "vector_add.sm_89.size.fatbin",
  };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr(GBytes) bytes = fixture (files[f]);
      gsize size = g_bytes_get_size (bytes);
      g_autofree uint8_t *d = g_memdup2 (g_bytes_get_data (bytes, NULL), size);

      /* every cut but at the end of the padding */
      for (gsize cut = 0; cut < size; cut++)
        {
          g_autoptr(GError) error = NULL;
          KsFatbin *fb = ks_fatbin_read (d, cut, &error);

          if (fb != NULL)
            {
              /* only the zeros that pad the last entry may go */
              for (gsize k = cut; k < size; k++)
                g_assert_cmpuint (d[k], ==, 0);
              ks_fatbin_free (fb);
              continue;
            }
          g_assert_nonnull (error);
          g_assert_true (cut == 0 || strstr (error->message, "offset") != NULL
                         || strstr (error->message, "no CUDA fat binary") != NULL);
        }
      /* a wrong magic; an entry of a kind not known */
      {
        g_autoptr(GError) error = NULL;

        d[0] ^= 1;
        g_assert_null (ks_fatbin_read (d, size, &error));
        g_assert_nonnull (strstr (error->message, "offset 0"));
        d[0] ^= 1;
        g_clear_error (&error);
        d[16] = 3;
        g_assert_null (ks_fatbin_read (d, size, &error));
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
        d[16] = 2;
      }
      /* a damaged compressed payload: the PTX entry's last bytes */
      if (f > 0)
        {
          g_autoptr(GError) error = NULL;

          for (gsize k = size - 64; k < size - 8; k++)
            d[k] ^= 0x5a;
          g_assert_null (ks_fatbin_read (d, size, &error));
          g_assert_nonnull (error);
          g_test_message ("%s damaged: %s", files[f], error->message);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fatbin/compressions", test_compressions);
  g_test_add_func ("/fatbin/object", test_object);
  g_test_add_func ("/fatbin/damage", test_damage);
  g_test_add_func ("/fatbin/wrapper", test_wrapper);
  g_test_add_func ("/fatbin/program", test_program);
  return g_test_run ();
}
