/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-standin.h: a stand-in nvdisasm for the tests of live SASS
 * (test-analysis.c, test-cli.c, test-app.c).
 *
 * What these tests check is the plumbing, honestly: the machines they run
 * on have nvcc and ptxas but no nvdisasm or cuobjdump, so NVIDIA's
 * disassembler is not run.  The stand-in is a shell script the test writes
 * into a temporary folder that goes first on the toolchain's search path
 * (the toolkit folder of the request or of the settings, or PATH).  It
 * checks that it was called as `nvdisasm -c -g -hex FILE` and that FILE is
 * a real cubin (a 64-bit little-endian ELF whose e_machine is 190,
 * EM_CUDA), keeps a copy of FILE and of its arguments for the test to look
 * at, and prints a real nvdisasm listing from tests/fixtures/sass instead
 * of disassembling FILE.  What the tests then see (the listing's functions,
 * its linked lines, the cubin's architecture in its ELF header) is real;
 * that the listing is the disassembly of that cubin is not.
 *
 * The toolchain uses one toolkit's programs together, never nvdisasm from
 * one folder and ptxas from another, so the folder is a whole toolkit:
 * beside the stand-in, nvcc and ptxas are scripts that run the real ones
 * of one installed toolkit (the folder of the first ptxas on PATH, else
 * /usr/local/cuda/bin), as Debian's /usr/bin/nvcc runs its real nvcc. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

typedef struct
{
  char *dir;                    /* the folder to put first on the toolchain's path */
  char *args_log;               /* the stand-in's arguments, one a line */
  char *cubin_copy;             /* the last cubin it was given */
} StandIn;

/* nvcc and ptxas in dir that run those of one real toolkit, when there is
 * one with both */
static inline void
standin_wrap_toolkit (const char *dir)
{
  g_autofree char *ptxas = g_find_program_in_path ("ptxas");
  g_autofree char *real_dir = ptxas != NULL ? g_path_get_dirname (ptxas)
                                            : g_strdup ("/usr/local/cuda/bin");
  const char *const tools[] = { "nvcc", "ptxas" };

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *real = g_build_filename (real_dir, tools[i], NULL);

      if (!g_file_test (real, G_FILE_TEST_IS_EXECUTABLE))
        return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *real = g_build_filename (real_dir, tools[i], NULL);
      g_autofree char *quoted = g_shell_quote (real);
      g_autofree char *script = g_strdup_printf ("#!/bin/sh\nexec %s \"$@\"\n", quoted);
      g_autofree char *path = g_build_filename (dir, tools[i], NULL);

      g_assert_true (g_file_set_contents (path, script, -1, NULL));
      g_assert_cmpint (g_chmod (path, 0755), ==, 0);
    }
}

/* A stand-in that prints the fixture `listing` (a file of tests/fixtures/sass),
 * or with broken, one that fails as a real tool could. */
static inline StandIn *
standin_new (const char *listing,
             gboolean    broken)
{
  StandIn *s = g_new0 (StandIn, 1);
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "fixtures", "sass", listing, NULL);
  g_autofree char *quoted = g_shell_quote (fixture);
  g_autofree char *script = NULL, *path = NULL;
  g_autoptr(GError) error = NULL;

  s->dir = g_dir_make_tmp ("ks-test-nvdisasm-XXXXXX", &error);
  g_assert_no_error (error);
  s->args_log = g_build_filename (s->dir, "args.log", NULL);
  s->cubin_copy = g_build_filename (s->dir, "last.cubin", NULL);
  path = g_build_filename (s->dir, "nvdisasm", NULL);
  if (broken)
    script = g_strdup ("#!/bin/sh\n"
                       "# nvdisasm stand-in of KernelScope's tests: fails on purpose\n"
                       "echo \"nvdisasm stand-in: refusing on purpose\" >&2\n"
                       "exit 1\n");
  else
    script = g_strdup_printf (
      "#!/bin/sh\n"
      "# nvdisasm stand-in of KernelScope's tests (tests/ks-test-standin.h)\n"
      "dir=$(dirname \"$0\")\n"
      "# the toolchain asks each toolkit's version: a stand-in has none\n"
      "[ \"$1\" = --version ] && { echo 'nvdisasm stand-in: no version' >&2; exit 1; }\n"
      "printf '%%s\\n' \"$@\" > \"$dir/args.log\"\n"
      "if [ $# -ne 4 ] || [ \"$1\" != -c ] || [ \"$2\" != -g ] || [ \"$3\" != -hex ]; then\n"
      "  echo \"nvdisasm stand-in: unexpected arguments: $*\" >&2; exit 2\n"
      "fi\n"
      "[ -f \"$4\" ] || { echo \"nvdisasm stand-in: no file $4\" >&2; exit 2; }\n"
      "ident=$(od -An -tx1 -N6 \"$4\" | tr -d ' \\n')\n"
      "[ \"$ident\" = 7f454c460201 ] || { echo \"nvdisasm stand-in: not an ELF64 LE: $4\" >&2; exit 3; }\n"
      "machine=$(od -An -tu1 -j18 -N2 \"$4\" | tr -d ' \\n')\n"
      "[ \"$machine\" = 1900 ] || { echo \"nvdisasm stand-in: not a cubin: $4\" >&2; exit 3; }\n"
      "cp \"$4\" \"$dir/last.cubin\"\n"
      "cat %s\n", quoted);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  standin_wrap_toolkit (s->dir);
  return s;
}

static inline void
standin_free (StandIn *s)
{
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (s == NULL)
    return;
  d = g_dir_open (s->dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (s->dir, name, NULL);

      g_unlink (p);
    }
  g_rmdir (s->dir);
  g_free (s->dir);
  g_free (s->args_log);
  g_free (s->cubin_copy);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StandIn, standin_free)

/* The arguments the stand-in was last called with, one a line */
static inline char **
standin_args (const StandIn *s)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (s->args_log, &text, NULL, NULL))
    return g_new0 (char *, 1);
  g_strchomp (text);
  return g_strsplit (text, "\n", -1);
}

/* The SM number a cubin's ELF header names, read here from the bytes: in
 * e_flags (offset 48), the low byte under CUDA's ELF ABI version 1
 * (e_ident[EI_ABIVERSION] = 7) and bits 8-15 under version 2 (8, what nvcc
 * 13 writes), as LLVM's llvm/BinaryFormat/ELF.h lays out EF_CUDA_SM;
 * 0 when it is not a CUDA ELF. */
static inline guint
cubin_sm (const char *path)
{
  g_autofree guint8 *data = NULL;
  gsize len = 0;
  guint32 flags;

  if (!g_file_get_contents (path, (char **) &data, &len, NULL) || len < 64
      || memcmp (data, "\177ELF\002\001", 6) != 0 || (data[18] | data[19] << 8) != 190)
    return 0;
  flags = (guint32) data[48] | (guint32) data[49] << 8 | (guint32) data[50] << 16
          | (guint32) data[51] << 24;
  return data[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
}
