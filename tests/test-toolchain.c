/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-toolchain.c: CUDA toolkits as sets (src/core/toolchain/).
 *
 * Discovery is tested on folders of fake toolkits under a root of the
 * test's own (_ks_toolchain_find_local's root stands for /): shell scripts
 * answer --version with the lines NVIDIA's programs print (here, from
 * `ptxas --version` of CUDA 11.8.89 and 13.0.88 and `nvdisasm --version`
 * of 11.8.86), Debian's /usr/bin/nvcc is the package's two-line wrapper,
 * and dpkg's list of the package says where its programs are.  The PTX ISA
 * versions expected are NVIDIA's table ("PTX Release History" in the PTX
 * ISA), not ours.  The live tests need Debian's nvidia-cuda-toolkit (11.8:
 * /usr/bin/nvdisasm) and skip without it: they compile a sample, make and
 * read its SASS, and link it to CUDA and PTX lines. */

/* symlink() under -std=c11 */
#define _GNU_SOURCE

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ks-test-files.h"
#include "ks-analysis.h"
#include "ks-resources.h"
#include "ks-sass.h"
#include "ks-toolchain.h"
#include "ks-toolchain-private.h"

#define PTXAS_11_8 "ptxas: NVIDIA (R) Ptx optimizing assembler\n" \
                   "Copyright (c) 2005-2022 NVIDIA Corporation\n" \
                   "Built on Wed_Sep_21_10:31:59_PDT_2022\n" \
                   "Cuda compilation tools, release 11.8, V11.8.89\n" \
                   "Build cuda_11.8.r11.8/compiler.31833905_0\n"
#define NVDISASM_11_8 "nvdisasm: NVIDIA (R) CUDA disassembler\n" \
                      "Copyright (c) 2005-2022 NVIDIA Corporation\n" \
                      "Built on Thu_Aug_25_15:25:37_PDT_2022\n" \
                      "Cuda compilation tools, release 11.8, V11.8.86\n" \
                      "Build cuda_11.8.r11.8/compiler.31734395_0\n"
#define PTXAS_13_0 "ptxas: NVIDIA (R) Ptx optimizing assembler\n" \
                   "Copyright (c) 2005-2025 NVIDIA Corporation\n" \
                   "Built on Wed_Aug_20_01:55:12_PM_PDT_2025\n" \
                   "Cuda compilation tools, release 13.0, V13.0.88\n" \
                   "Build cuda_13.0.r13.0/compiler.36424714_0\n"
#define PTXAS_12_4 "ptxas: NVIDIA (R) Ptx optimizing assembler\n" \
                   "Cuda compilation tools, release 12.4, V12.4.131\n"
#define NVDISASM_12_4 "nvdisasm: NVIDIA (R) CUDA disassembler\n" \
                      "Cuda compilation tools, release 12.4, V12.4.127\n"

typedef struct
{
  char *root;
  char *old_path, *old_home, *old_cpath;
} Fixture;

static void
restore_env (const char *name,
             const char *value)
{
  if (value != NULL)
    g_setenv (name, value, TRUE);
  else
    g_unsetenv (name);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->old_path = g_strdup (g_getenv ("PATH"));
  f->old_home = g_strdup (g_getenv ("CUDA_HOME"));
  f->old_cpath = g_strdup (g_getenv ("CUDA_PATH"));
  f->root = g_dir_make_tmp ("ks-test-toolkits-XXXXXX", NULL);
  g_assert_nonnull (f->root);
  g_unsetenv ("CUDA_HOME");
  g_unsetenv ("CUDA_PATH");
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  restore_env ("PATH", f->old_path);
  restore_env ("CUDA_HOME", f->old_home);
  restore_env ("CUDA_PATH", f->old_cpath);
  ks_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->old_path);
  g_free (f->old_home);
  g_free (f->old_cpath);
}

/* ROOT/REL/NAME, a script that prints `version` for --version (nothing
 * when NULL) and otherwise `body` (a line of shell, or exits 0) */
static char *
tool (const Fixture *f,
      const char    *rel,
      const char    *name,
      const char    *version,
      const char    *body)
{
  g_autofree char *dir = g_build_filename (f->root, rel, NULL);
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *quoted = g_shell_quote (version != NULL ? version : "");
  g_autofree char *script = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  script = g_strdup_printf ("#!/bin/sh\n"
                            "if [ \"$1\" = --version ]; then printf '%%s' %s; exit 0; fi\n"
                            "%s\n", quoted, body != NULL ? body : "exit 0");
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static char *
under (const Fixture *f,
       const char    *rel)
{
  return g_build_filename (f->root, rel, NULL);
}

/* No toolkit's programs come from two folders, except Debian's nvcc */
static void
assert_sets (const KsToolchain *tc)
{
  for (guint i = 0; i < tc->toolkits->len; i++)
    {
      const KsToolkit *kit = g_ptr_array_index (tc->toolkits, i);
      g_autofree char *ptxas_dir = NULL;

      g_assert_nonnull (kit->paths[KS_TOOL_PTXAS] != NULL ? kit->paths[KS_TOOL_PTXAS]
                                                          : kit->paths[KS_TOOL_NVCC]);
      if (kit->paths[KS_TOOL_PTXAS] == NULL)
        continue;
      ptxas_dir = g_path_get_dirname (kit->paths[KS_TOOL_PTXAS]);
      for (guint t = KS_TOOL_CUOBJDUMP; t < KS_N_TOOLS; t++)
        if (kit->paths[t] != NULL)
          {
            g_autofree char *d = g_path_get_dirname (kit->paths[t]);

            g_assert_cmpstr (d, ==, ptxas_dir);
          }
    }
}

static void
test_parse_version (void)
{
  guint major = 99, minor = 99;
  g_autofree char *v = NULL, *w = NULL;

  g_assert_true (ks_toolchain_parse_version (PTXAS_11_8, &major, &minor, &v));
  g_assert_cmpuint (major, ==, 11);
  g_assert_cmpuint (minor, ==, 8);
  g_assert_cmpstr (v, ==, "11.8.89");
  g_assert_true (ks_toolchain_parse_version (NVDISASM_11_8, &major, &minor, &w));
  g_assert_cmpstr (w, ==, "11.8.86");
  g_assert_true (ks_toolchain_parse_version (PTXAS_13_0, &major, &minor, NULL));
  g_assert_cmpuint (major, ==, 13);
  g_assert_cmpuint (minor, ==, 0);
  g_assert_false (ks_toolchain_parse_version ("ptxas: no version here\n", NULL, NULL, NULL));
  g_assert_false (ks_toolchain_parse_version ("release x.y", NULL, NULL, NULL));
}

/* This machine's case: CUDA 13.0 with nvcc and ptxas only, first on PATH,
 * and Debian's 11.8 (/usr/bin, with the real nvcc in the package's own
 * folder).  PTX is compiled with 13.0; SASS is made with 11.8 alone. */
static void
test_find_two_toolkits (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *nvcc13 = tool (f, "usr/local/cuda-13.0/bin", "nvcc", PTXAS_13_0, NULL);
  g_autofree char *ptxas13 = tool (f, "usr/local/cuda-13.0/bin", "ptxas", PTXAS_13_0, NULL);
  g_autofree char *deb_real_nvcc = tool (f, "usr/lib/nvidia-cuda-toolkit/bin", "nvcc",
                                         PTXAS_11_8, NULL);
  g_autofree char *deb_nvcc = tool (f, "usr/bin", "nvcc", PTXAS_11_8, NULL);
  g_autofree char *deb_ptxas = tool (f, "usr/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *deb_cuobjdump = tool (f, "usr/bin", "cuobjdump", NVDISASM_11_8, NULL);
  g_autofree char *deb_nvdisasm = tool (f, "usr/bin", "nvdisasm", NVDISASM_11_8, NULL);
  g_autofree char *cuda13 = under (f, "usr/local/cuda-13.0/bin");
  g_autofree char *usr_bin = under (f, "usr/bin");
  g_autofree char *path = g_strconcat (cuda13, ":", usr_bin, NULL);
  g_autoptr(KsToolchain) tc = NULL;
  const KsToolkit *first, *second;

  g_setenv ("PATH", path, TRUE);
  tc = _ks_toolchain_find_local (NULL, f->root);
  assert_sets (tc);
  /* /usr/lib/nvidia-cuda-toolkit/bin is the same toolkit as /usr/bin */
  g_assert_cmpuint (tc->toolkits->len, ==, 2);
  first = g_ptr_array_index (tc->toolkits, 0);
  second = g_ptr_array_index (tc->toolkits, 1);
  g_assert_cmpstr (first->paths[KS_TOOL_NVCC], ==, nvcc13);
  g_assert_cmpstr (first->version, ==, "13.0.88");
  g_assert_null (first->paths[KS_TOOL_NVDISASM]);
  g_assert_cmpstr (second->paths[KS_TOOL_NVCC], ==, deb_nvcc);
  g_assert_cmpstr (second->paths[KS_TOOL_PTXAS], ==, deb_ptxas);
  g_assert_cmpstr (second->paths[KS_TOOL_NVDISASM], ==, deb_nvdisasm);
  g_assert_cmpstr (second->paths[KS_TOOL_CUOBJDUMP], ==, deb_cuobjdump);
  g_assert_cmpstr (second->version, ==, "11.8.89");
  /* a patch level apart is still one release */
  g_assert_cmpstr (second->disassembler_version, ==, "11.8.86");

  /* compiling: 13.0 as before, and nothing of 11.8 mixed in */
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, nvcc13);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, ptxas13);
  g_assert_null (ks_toolchain_get_path (tc, KS_TOOL_NVDISASM));
  g_assert_null (ks_toolchain_get_path (tc, KS_TOOL_CUOBJDUMP));
  g_assert_cmpstr (tc->version, ==, "13.0.88");
  /* SASS: 11.8's nvdisasm, and so its ptxas and nvcc */
  g_assert_true (tc->sass == second);
  g_assert_cmpint (ks_toolchain_sass_tool (tc), ==, KS_TOOL_NVDISASM);
}

/* Debian's package folder as the preference: its nvcc, and the programs
 * dpkg's list names; without the list, those in /usr/bin */
static void
test_find_debian_package (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *real_nvcc = tool (f, "usr/lib/nvidia-cuda-toolkit/bin", "nvcc", PTXAS_11_8,
                                     NULL);
  g_autofree char *usr_ptxas = tool (f, "usr/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *usr_nvdisasm = tool (f, "usr/bin", "nvdisasm", NVDISASM_11_8, NULL);
  g_autofree char *opt_ptxas = tool (f, "opt/deb/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *opt_nvdisasm = tool (f, "opt/deb/bin", "nvdisasm", NVDISASM_11_8, NULL);
  g_autofree char *pref = under (f, "usr/lib/nvidia-cuda-toolkit");
  g_autofree char *info = under (f, "var/lib/dpkg/info");
  g_autofree char *list = g_build_filename (info, "nvidia-cuda-toolkit.list", NULL);
  g_autofree char *empty = under (f, "empty");
  KsToolchain *tc;
  const KsToolkit *kit;

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_setenv ("PATH", empty, TRUE);

  /* no list: /usr/bin */
  tc = _ks_toolchain_find_local (pref, f->root);
  assert_sets (tc);
  g_assert_cmpuint (tc->toolkits->len, ==, 1);
  kit = g_ptr_array_index (tc->toolkits, 0);
  g_assert_cmpstr (kit->paths[KS_TOOL_NVCC], ==, real_nvcc);
  g_assert_cmpstr (kit->paths[KS_TOOL_PTXAS], ==, usr_ptxas);
  g_assert_cmpstr (kit->paths[KS_TOOL_NVDISASM], ==, usr_nvdisasm);
  g_assert_null (kit->paths[KS_TOOL_CUOBJDUMP]);
  g_assert_cmpstr (kit->version, ==, "11.8.89");
  g_assert_true (tc->sass == kit);
  ks_toolchain_free (tc);

  /* the package's list (as dpkg -L prints it) says better */
  g_assert_cmpint (g_mkdir_with_parents (info, 0700), ==, 0);
  g_assert_true (g_file_set_contents (list, "/.\n/opt\n/opt/deb\n/opt/deb/bin\n"
                                      "/opt/deb/bin/nvdisasm\n/opt/deb/bin/ptxas\n"
                                      "/usr/share/doc/nvidia-cuda-toolkit/ptxas\n"
                                      "/usr/lib/nvidia-cuda-toolkit/bin/nvcc\n", -1, NULL));
  tc = _ks_toolchain_find_local (NULL, f->root);
  g_assert_cmpuint (tc->toolkits->len, ==, 1);
  kit = g_ptr_array_index (tc->toolkits, 0);
  g_assert_cmpstr (kit->paths[KS_TOOL_NVCC], ==, real_nvcc);
  g_assert_cmpstr (kit->paths[KS_TOOL_PTXAS], ==, opt_ptxas);
  g_assert_cmpstr (kit->paths[KS_TOOL_NVDISASM], ==, opt_nvdisasm);
  ks_toolchain_free (tc);
}

/* Without a disassembler of its own, SASS comes from the newest toolkit
 * that has one; a disassembler of another release than its folder's ptxas
 * is not that toolkit's */
static void
test_find_newest_disassembler (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *a = tool (f, "a/bin", "ptxas", PTXAS_13_0, NULL);
  g_autofree char *b = tool (f, "b/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *b_dis = tool (f, "b/bin", "nvdisasm", NVDISASM_11_8, NULL);
  g_autofree char *c = tool (f, "c/bin", "ptxas", PTXAS_12_4, NULL);
  g_autofree char *c_dis = tool (f, "c/bin", "nvdisasm", NVDISASM_12_4, NULL);
  g_autofree char *d = tool (f, "d/bin", "ptxas", PTXAS_13_0, NULL);
  g_autofree char *d_dis = tool (f, "d/bin", "nvdisasm", NVDISASM_11_8, NULL);
  g_autofree char *path = g_strdup_printf ("%s/a/bin:%s/d/bin:%s/b/bin:%s/c/bin", f->root,
                                            f->root, f->root, f->root);
  g_autoptr(KsToolchain) tc = NULL;
  const KsToolkit *kit_d;

  g_setenv ("PATH", path, TRUE);
  tc = _ks_toolchain_find_local (NULL, f->root);
  assert_sets (tc);
  g_assert_cmpuint (tc->toolkits->len, ==, 4);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, a);
  /* d's nvdisasm is 11.8's, d's ptxas 13.0's: not one toolkit */
  kit_d = g_ptr_array_index (tc->toolkits, 1);
  g_assert_cmpstr (kit_d->paths[KS_TOOL_PTXAS], ==, d);
  g_assert_null (kit_d->paths[KS_TOOL_NVDISASM]);
  g_assert_nonnull (tc->sass);
  g_assert_cmpstr (tc->sass->paths[KS_TOOL_PTXAS], ==, c);
  g_assert_cmpstr (tc->sass->paths[KS_TOOL_NVDISASM], ==, c_dis);
  g_assert_cmpuint (tc->sass->version_minor, ==, 4);
  (void) b;
  (void) b_dis;
  (void) d_dis;
}

/* /usr/local/cuda (a link to a versioned folder) before /usr/local/cuda-X.Y,
 * newest first; the link's target counts once; a folder without ptxas or
 * nvcc is no toolkit */
static void
test_find_usr_local (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *p118 = tool (f, "usr/local/cuda-11.8/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *p124 = tool (f, "usr/local/cuda-12.4/bin", "ptxas", PTXAS_12_4, NULL);
  g_autofree char *p9 = tool (f, "usr/local/cuda-9.2/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *lone = tool (f, "lone/bin", "nvdisasm", NVDISASM_12_4, NULL);
  g_autofree char *link = under (f, "usr/local/cuda");
  g_autofree char *empty = under (f, "empty");
  g_autofree char *lone_dir = under (f, "lone");
  g_autoptr(KsToolchain) tc = NULL;

  g_assert_cmpint (symlink ("cuda-11.8", link), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_setenv ("PATH", empty, TRUE);
  g_setenv ("CUDA_HOME", lone_dir, TRUE);
  tc = _ks_toolchain_find_local (NULL, f->root);
  g_assert_cmpuint (tc->toolkits->len, ==, 3);
  /* through the link: the path as found */
  g_assert_true (g_str_has_suffix (((KsToolkit *) g_ptr_array_index (tc->toolkits, 0))->dir,
                                   "/usr/local/cuda/bin"));
  g_assert_cmpstr (((KsToolkit *) g_ptr_array_index (tc->toolkits, 1))->paths[KS_TOOL_PTXAS], ==,
                   p124);
  g_assert_cmpstr (((KsToolkit *) g_ptr_array_index (tc->toolkits, 2))->paths[KS_TOOL_PTXAS], ==,
                   p9);
  /* no disassembler in any of them: the lone nvdisasm is not borrowed */
  g_assert_null (tc->sass);
  g_assert_cmpint (ks_toolchain_sass_tool (tc), ==, KS_N_TOOLS);
  (void) p118;
  (void) lone;
}

/* An nvcc linked from another folder brings its own toolkit's programs,
 * and that toolkit counts once */
static void
test_find_linked_nvcc (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *nvcc = tool (f, "usr/local/cuda-12.4/bin", "nvcc", PTXAS_12_4, NULL);
  g_autofree char *ptxas = tool (f, "usr/local/cuda-12.4/bin", "ptxas", PTXAS_12_4, NULL);
  g_autofree char *dis = tool (f, "usr/local/cuda-12.4/bin", "nvdisasm", NVDISASM_12_4, NULL);
  g_autofree char *links = under (f, "links");
  g_autofree char *link = g_build_filename (links, "nvcc", NULL);
  g_autoptr(KsToolchain) tc = NULL;

  g_assert_cmpint (g_mkdir_with_parents (links, 0700), ==, 0);
  g_assert_cmpint (symlink (nvcc, link), ==, 0);
  g_setenv ("PATH", links, TRUE);
  tc = _ks_toolchain_find_local (NULL, f->root);
  g_assert_cmpuint (tc->toolkits->len, ==, 1);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, link);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, ptxas);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVDISASM), ==, dis);
  g_assert_cmpstr (tc->version, ==, "12.4.131");
  g_assert_true (tc->sass == g_ptr_array_index (tc->toolkits, 0));
}

/* NVIDIA's PTX ISA release history */
static void
test_ptx_isa_table (void)
{
  static const struct { guint cm, cn, im, in; } rows[] = {
    { 11, 8, 7, 8 }, { 12, 0, 8, 0 }, { 12, 1, 8, 1 }, { 12, 2, 8, 2 }, { 12, 3, 8, 3 },
    { 12, 4, 8, 4 }, { 12, 5, 8, 5 }, { 12, 7, 8, 6 }, { 12, 8, 8, 7 }, { 12, 9, 8, 8 },
    { 13, 0, 9, 0 }, { 10, 2, 6, 5 },
  };
  guint im, in;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_assert_true (ks_toolchain_ptx_isa_for (rows[i].cm, rows[i].cn, &im, &in));
      g_assert_cmpuint (im, ==, rows[i].im);
      g_assert_cmpuint (in, ==, rows[i].in);
    }
  g_assert_false (ks_toolchain_ptx_isa_for (0, 0, &im, &in));
  g_assert_false (ks_toolchain_ptx_isa_for (99, 0, &im, &in));
}

#define PTX_90 "//\n// Generated by NVIDIA NVVM Compiler\n//\n\n.version 9.0\n.target sm_80\n" \
               ".address_size 64\n\n.visible .entry k()\n{\n\tret;\n}\n"

/* When to lower a PTX .version, and what is refused outright */
static void
test_fit_ptx (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *lowered = NULL;
  char *out;

  /* 11.8 knows PTX 7.8: the .version is lowered, nothing else changes */
  out = ks_toolchain_fit_ptx (11, 8, PTX_90, "sm_86", &lowered, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lowered, ==, "PTX .version 9.0 lowered to 7.8");
  g_assert_cmpuint (strlen (out), ==, strlen (PTX_90));
  g_assert_nonnull (strstr (out, "\n.version 7.8\n.target sm_80\n"));
  g_assert_null (strstr (out, "9.0"));
  g_free (out);
  g_clear_pointer (&lowered, g_free);

  /* 13.0 knows it: unchanged */
  out = ks_toolchain_fit_ptx (13, 0, PTX_90, "sm_86", &lowered, &error);
  g_assert_no_error (error);
  g_assert_null (lowered);
  g_assert_cmpstr (out, ==, PTX_90);
  g_free (out);
  /* older PTX: unchanged */
  out = ks_toolchain_fit_ptx (12, 4, ".version 7.0\n.target sm_70\n", "sm_75", &lowered, &error);
  g_assert_cmpstr (out, ==, ".version 7.0\n.target sm_70\n");
  g_assert_null (lowered);
  g_free (out);
  /* a release the table does not have: ptxas judges */
  out = ks_toolchain_fit_ptx (0, 0, PTX_90, "sm_120", &lowered, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, PTX_90);
  g_free (out);

  /* sm_100 came with PTX ISA 8.6: 11.8 cannot, whatever the .version */
  out = ks_toolchain_fit_ptx (11, 8, PTX_90, "sm_100", &lowered, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "CUDA 11.8"));
  g_assert_nonnull (strstr (error->message, "sm_100"));
  g_assert_nonnull (strstr (error->message, ".version 9.0"));
  g_assert_nonnull (strstr (error->message, "8.6"));
  g_clear_error (&error);
  /* and a .target it does not know, for an arch it does */
  out = ks_toolchain_fit_ptx (11, 8, ".version 8.7\n.target sm_120\n", "sm_86", NULL, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, ".target sm_120"));
  g_assert_nonnull (strstr (error->message, "11.8"));
  g_clear_error (&error);
  /* sm_90a needs PTX 8.0 (CUDA 12.0); sm_90 is 11.8's */
  out = ks_toolchain_fit_ptx (11, 8, ".version 7.8\n.target sm_90a\n", "sm_90a", NULL, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "CUDA 12.0"));
  g_clear_error (&error);
  out = ks_toolchain_fit_ptx (11, 8, ".version 7.8\n.target sm_90\n", "sm_90", NULL, &error);
  g_assert_no_error (error);
  g_free (out);
  /* CUDA 13 makes no code for Volta */
  out = ks_toolchain_fit_ptx (13, 0, ".version 9.0\n.target sm_70\n", "sm_70", NULL, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "13.0"));
  g_clear_error (&error);
  /* a .version in a comment is not the directive */
  out = ks_toolchain_fit_ptx (11, 8, "// .version 9.9\n/* .version 9.8\n*/\n.version 8.0\n"
                              ".target sm_75\n", "sm_75", &lowered, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lowered, ==, "PTX .version 8.0 lowered to 7.8");
  g_assert_nonnull (strstr (out, "// .version 9.9\n/* .version 9.8\n*/\n.version 7.8\n"));
  g_free (out);
}

/* Debian's nvcc on a machine with clang-14 and no g++-11: told to use
 * clang-14, nvcc runs again with -ccbin clang-14, and from then on at
 * once; it runs its own toolkit's ptxas (its folder first on PATH) */
static void
test_nvcc_ccbin (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *log = under (f, "nvcc.log");
  g_autofree char *quoted = g_shell_quote (log);
  g_autofree char *body = g_strdup_printf (
    "echo \"$* PATH=${PATH%%%%:*}\" >> %s\n"
    "if [ \"$1\" != -ccbin ] || [ \"$2\" != clang-14 ]; then\n"
    "  echo 'ERROR: No supported gcc/g++ host compiler found, but clang-14 is available.' >&2\n"
    "  echo \"       Use 'nvcc -ccbin clang-14' to use that instead.\" >&2\n"
    "  exit 1\n"
    "fi\n"
    "while [ $# -gt 1 ]; do if [ \"$1\" = -o ]; then echo '.version 7.8' > \"$2\"; fi; shift; done\n",
    quoted);
  g_autofree char *nvcc = tool (f, "usr/lib/nvidia-cuda-toolkit/bin", "nvcc", PTXAS_11_8, body);
  g_autofree char *ptxas = tool (f, "usr/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *usr_bin = under (f, "usr/bin");
  g_autofree char *empty = under (f, "empty");
  g_autofree char *pref = under (f, "usr/lib/nvidia-cuda-toolkit/bin");
  g_autoptr(KsToolchain) tc = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_setenv ("PATH", empty, TRUE);
  tc = _ks_toolchain_find_local (pref, f->root);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, nvcc);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, ptxas);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GArray) diags = ks_diagnostic_array_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *ptx = ks_toolchain_compile_ptx (tc, "k.cu", "__global__ void k () {}\n",
                                                       "sm_86", diags, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (ptx, ==, ".version 7.8\n");
    }
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  /* refused once, then -ccbin clang-14 twice */
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[0], "-ptx "));
  g_assert_true (g_str_has_prefix (lines[1], "-ccbin clang-14 -ptx "));
  g_assert_true (g_str_has_prefix (lines[2], "-ccbin clang-14 -ptx "));
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *want = g_strconcat ("PATH=", usr_bin, NULL);

      g_assert_true (g_str_has_suffix (lines[i], want));
    }
}

/* No host compiler at all: a message that says which packages give one */
static void
test_nvcc_no_host_compiler (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *nvcc = tool (f, "kit/bin", "nvcc", PTXAS_11_8,
                                "echo 'ERROR: No supported gcc/g++ host compiler found.' >&2\n"
                                "echo \"       Use 'nvcc -ccbin <compiler>' to specify a host "
                                "compiler.\" >&2\nexit 1");
  g_autofree char *ptxas = tool (f, "kit/bin", "ptxas", PTXAS_11_8, NULL);
  g_autofree char *kit = under (f, "kit");
  g_autofree char *empty = under (f, "empty");
  g_autoptr(KsToolchain) tc = NULL;
  g_autoptr(GArray) diags = ks_diagnostic_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *ptx = NULL;

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_setenv ("PATH", empty, TRUE);
  tc = _ks_toolchain_find_local (kit, f->root);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_NVCC), ==, nvcc);
  ptx = ks_toolchain_compile_ptx (tc, "k.cu", "__global__ void k () {}\n", "sm_86", diags, NULL,
                                  &error);
  g_assert_null (ptx);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "CUDA 11.8"));
  g_assert_nonnull (strstr (error->message, "host compiler"));
  g_assert_nonnull (strstr (error->message, "g++-11"));
  g_assert_nonnull (strstr (error->message, "clang-14"));
  (void) ptxas;
}

/* A toolkit of one stand-in ptxas (its script's body), alone on PATH,
 * and a kernel for it in *ptx */
static KsToolchain *
ptxas_only_kit (Fixture     *f,
                const char  *body,
                char       **ptx)
{
  g_autofree char *ptxas = tool (f, "kit/bin", "ptxas", PTXAS_13_0, body);
  g_autofree char *kit = under (f, "kit");
  g_autofree char *empty = under (f, "empty");
  KsToolchain *tc;

  *ptx = g_build_filename (f->root, "k.ptx", NULL);
  g_assert_true (g_file_set_contents (*ptx, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                      ".visible .entry k () { ret; }\n", -1, NULL));
  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_setenv ("PATH", empty, TRUE);
  tc = _ks_toolchain_find_local (kit, f->root);
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, ptxas);
  return tc;
}

/* A tool runs with its data capped at half the machine's memory (from
 * sysconf here, not from the code under test): ptxas on a hostile module
 * otherwise grows without bound (24 GB for a kernel of 1M labels).  The
 * stand-in ptxas reports the cap it was given (`ulimit -d`, KiB) in the
 * line ptxas prints when it runs out, and the error says what happened. */
static void
test_tool_memory_cap (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *ptx = NULL;
  g_autoptr(KsToolchain) tc = ptxas_only_kit (f, "echo \"ptxas fatal   : Memory allocation "
                                              "failure (cap=$(ulimit -d))\" >&2\nexit 255", &ptx);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = NULL;
  uint64_t half = (uint64_t) sysconf (_SC_PHYS_PAGES) / 2 * (uint64_t) sysconf (_SC_PAGE_SIZE);
  const char *cap;
  guint64 cap_kib;

  res = ks_toolchain_ptxas_resources (tc, ptx, "sm_80", NULL, &error);
  g_assert_null (res);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "ptxas ran out of memory"));
  cap = strstr (error->message, "cap=");
  g_assert_nonnull (cap);
  g_assert_false (g_str_has_prefix (cap, "cap=unlimited"));
  cap_kib = g_ascii_strtoull (cap + 4, NULL, 10);
  g_assert_cmpuint (cap_kib, >, 0);
  g_assert_cmpuint (cap_kib * 1024, <=, half);
  g_assert_cmpuint (cap_kib * 1024, ==, ks_toolchain_memory_limit () / 1024 * 1024);
}

/* Each tool runs with its CPU time capped: a stand-in ptxas that never
 * ends is stopped by the kernel (SIGXCPU at KS_TOOL_CPU_SECONDS) and the
 * error names the tool and the limit; nvcc, whose ptxas was stopped,
 * reports it by the signal's description and the shell's status. */
static void
test_tool_cpu_cap (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *ptx = NULL;
  g_autoptr(KsToolchain) tc = ptxas_only_kit (f, "while :; do :; done", &ptx);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) res = NULL;
  gint64 started;
  const char *const nvcc_argv[] = { "/bin/sh", "-c", "echo 'sh: 1: CPU time limit exceeded' >&2; "
                                    "exit 152", NULL };
  int status = 0;
  g_autofree char *out = NULL, *err = NULL;

  g_setenv ("KS_TOOL_CPU_SECONDS", "1", TRUE);
  g_assert_cmpuint (ks_toolchain_cpu_limit (), ==, 1);
  started = g_get_monotonic_time ();
  res = ks_toolchain_ptxas_resources (tc, ptx, "sm_80", NULL, &error);
  g_assert_null (res);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_cmpstr (error->message, ==, "ptxas was stopped after 1 s of CPU time, the most a "
                   "CUDA tool may use here (KS_TOOL_CPU_SECONDS sets it)");
  /* one second of CPU, whatever the machine's load: well under a minute */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 60 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* nvcc's way of saying it: a program it ran was stopped */
  g_assert_false (_ks_toolchain_run (tc, nvcc_argv, NULL, NULL, &status, &out, &err, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_true (g_str_has_prefix (error->message, "sh was stopped after 1 s of CPU time"));
  g_clear_error (&error);

  /* a number or nothing: anything else is the default, with a warning */
  g_setenv ("KS_TOOL_CPU_SECONDS", "", TRUE);
  g_assert_cmpuint (ks_toolchain_cpu_limit (), ==, 120);
  g_unsetenv ("KS_TOOL_CPU_SECONDS");
  g_assert_cmpuint (ks_toolchain_cpu_limit (), ==, 120);
}

/* --- live, with Debian's toolkit --- */

static gboolean
have_debian_toolkit (void)
{
  if (!g_file_test ("/usr/bin/nvdisasm", G_FILE_TEST_IS_EXECUTABLE)
      || !g_file_test ("/usr/bin/ptxas", G_FILE_TEST_IS_EXECUTABLE)
      || !g_file_test ("/usr/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("Debian's nvidia-cuda-toolkit (/usr/bin/nvdisasm, ptxas, nvcc) is not "
                   "installed: the live SASS path is not tested");
      return FALSE;
    }
  return TRUE;
}

static char *
sample (const char *dir,
        const char *file)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", dir, file, NULL);
}

/* The 1-based line of the PTX that holds `what` first */
static uint32_t
ptx_line_of (const char *ptx,
             const char *what)
{
  const char *at = strstr (ptx, what);
  uint32_t line = 1;

  g_assert_nonnull (at);
  for (const char *p = ptx; p < at; p++)
    line += *p == '\n';
  return line;
}

/* Every instruction has its control code; the global loads set a write
 * scoreboard, and the add that uses the loaded values waits on it: what a
 * Volta+ load must do, whoever decodes it */
static void
assert_controls (const KsSassListing  *l,
                 const KsSassFunction *fn)
{
  guint n_ldg = 0, n_waits = 0;

  for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
    {
      const KsSassInsn *in = &l->insns[i];

      g_assert_true (in->flags & KS_SASS_HAS_CONTROL);
      g_assert_true (in->flags & KS_SASS_HAS_WORD1);
      if (g_str_equal (in->opcode, "LDG"))
        {
          g_assert_cmpuint (in->control.write_barrier, !=, KS_SASS_NO_BARRIER);
          n_ldg++;
        }
      if (g_str_equal (in->opcode, "FADD") && in->control.wait_mask != 0)
        n_waits++;
    }
  g_assert_cmpuint (n_ldg, ==, 2);
  g_assert_cmpuint (n_waits, >=, 1);
}

/* vector_add.cu for sm_75, sm_86 and sm_90: compiled (PTX with the first
 * toolkit), made into SASS by Debian's toolkit alone, read, linked to the
 * CUDA line of c[i] = a[i] + b[i] and to the PTX's loads */
static void
test_live_cuda (gconstpointer data)
{
  const char *arch = data;
  g_autofree char *cu = sample ("01-vector-add", "vector_add.cu");
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(GArray) on_line = NULL, on_ptx = NULL;
  const KsSassFunction *fn;
  KsAnalysisRequest req;

  if (!have_debian_toolkit ())
    return;
  ks_analysis_request_init (&req);
  req.path = cu;
  req.arch = arch;
  req.simulate = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_nonnull (a->toolchain->sass);
  g_assert_null (a->sass_error);
  g_assert_cmpstr (a->sass_tool, ==, "nvdisasm");
  g_assert_cmpstr (a->sass_arch, ==, arch);
  g_assert_nonnull (a->sass);
  g_assert_nonnull (a->sass_note);
  g_assert_nonnull (strstr (a->sass_note, "nvcc, ptxas and nvdisasm"));
  /* the cubin was made for that architecture: nvdisasm says so */
  fn = ks_sass_match_function (a->sass, "_Z10vector_addPKfS0_Pfi", NULL);
  g_assert_nonnull (fn);
  g_assert_cmpstr (fn->arch, ==, arch);
  assert_controls (a->sass, fn);

  on_line = ks_sass_insns_for_line (a->sass, fn, "vector_add.cu", 10, FALSE);
  g_assert_cmpuint (on_line->len, >=, 3);
  on_ptx = ks_sass_insns_for_ptx_line (a->sass, fn, a->module,
                                       ptx_line_of (a->ptx_text, "ld.global.f32"));
  g_assert_cmpuint (on_ptx->len, ==, on_line->len);
  for (guint i = 0; i < on_line->len; i++)
    g_assert_cmpuint (g_array_index (on_ptx, guint32, i), ==, g_array_index (on_line, guint32, i));
  /* the loads are on that line */
  {
    guint n_ldg = 0;

    for (guint i = 0; i < on_line->len; i++)
      n_ldg += g_str_equal (a->sass->insns[g_array_index (on_line, guint32, i)].opcode, "LDG");
    g_assert_cmpuint (n_ldg, ==, 2);
  }
}

/* The committed vector_add.ptx is .version 9.0 (CUDA 13.0): 11.8's ptxas
 * assembles it lowered to 7.8 (its instructions are old), and says so */
static void
test_live_ptx_lowered (void)
{
  g_autofree char *ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autofree char *text = NULL;
  g_autoptr(KsAnalysis) a = NULL;
  g_autoptr(JsonNode) root = NULL;
  const KsSassFunction *fn;
  KsAnalysisRequest req;

  if (!have_debian_toolkit ())
    return;
  g_assert_true (g_file_get_contents (ptx, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\n.version 9.0\n"));
  ks_analysis_request_init (&req);
  req.path = ptx;
  req.arch = "sm_86";
  req.simulate = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_nonnull (a->toolchain->sass);
  if (a->toolchain->sass->version_major != 11 || a->toolchain->sass->version_minor != 8)
    {
      g_test_skip ("SASS is not made with CUDA 11.8 here: no .version to lower");
      return;
    }
  g_assert_null (a->sass_error);
  g_assert_nonnull (a->sass);
  g_assert_true (g_str_has_prefix (a->sass_note, "Assembled with ptxas 11.8 (PTX .version 9.0 "
                                   "lowered to 7.8) and disassembled with nvdisasm 11.8."));
  fn = ks_sass_match_function (a->sass, "_Z10vector_addPKfS0_Pfi", NULL);
  g_assert_nonnull (fn);
  g_assert_cmpstr (fn->arch, ==, "sm_86");
  assert_controls (a->sass, fn);
  root = ks_analysis_to_json (a);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "sass_note"), ==,
                   a->sass_note);
}

/* With Debian's toolkit as the only one (the preference /usr/bin), ptxas -v
 * of the committed .version 9.0 PTX: 11.8's ptxas alone refuses it
 * ("Unsupported .version 9.0; current version is '7.8'"); lowered, it
 * reports what /usr/bin/ptxas -v -arch=sm_86 printed for a copy whose
 * .version was changed to 7.8 by hand: "Used 12 registers, 380 bytes
 * cmem[0]" */
static void
test_live_ptxas_v_lowered (void)
{
  g_autofree char *ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autoptr(KsToolchain) tc = NULL;
  g_autoptr(GPtrArray) res = NULL;
  g_autoptr(GError) error = NULL;
  const KsKernelResources *k;

  if (!have_debian_toolkit ())
    return;
  tc = _ks_toolchain_find_local ("/usr/bin", "");
  g_assert_cmpstr (ks_toolchain_get_path (tc, KS_TOOL_PTXAS), ==, "/usr/bin/ptxas");
  if (tc->version_major != 11 || tc->version_minor != 8)
    {
      g_test_skip ("Debian's toolkit here is not CUDA 11.8");
      return;
    }
  res = ks_toolchain_ptxas_resources (tc, ptx, "sm_86", NULL, &error);
  g_assert_no_error (error);
  k = ks_resources_find (res, "_Z10vector_addPKfS0_Pfi", NULL);
  g_assert_nonnull (k);
  g_assert_cmpuint (k->registers, ==, 12);
}

/* Debian's toolkit alone (the preference /usr/bin, as on a student's
 * machine): its nvcc compiles the CUDA (run with -ccbin clang-14 where only
 * clang-14 is there, and its own ptxas), to PTX of 11.8's ISA, 7.8; its
 * ptxas gives the registers; the same toolkit makes the SASS */
static void
test_live_debian_only (void)
{
  g_autofree char *cu = sample ("01-vector-add", "vector_add.cu");
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  if (!have_debian_toolkit ())
    return;
  ks_analysis_request_init (&req);
  req.path = cu;
  req.arch = "sm_86";
  req.toolkit_dir = "/usr/bin";
  req.simulate = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  if (a->toolchain->version_major != 11 || a->toolchain->version_minor != 8)
    {
      g_test_skip ("Debian's toolkit here is not CUDA 11.8");
      return;
    }
  if (a->status != KS_ANALYSIS_OK)
    g_test_message ("%s", a->error);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  g_assert_cmpstr (ks_toolchain_get_path (a->toolchain, KS_TOOL_NVCC), ==, "/usr/bin/nvcc");
  g_assert_nonnull (strstr (a->ptx_text, "\n.version 7.8\n"));
  g_assert_cmpint (a->resources->source, ==, KS_RESOURCES_SOURCE_PTXAS);
  g_assert_true (a->toolchain->sass == g_ptr_array_index (a->toolchain->toolkits, 0));
  g_assert_null (a->sass_error);
  g_assert_nonnull (a->sass);
  g_assert_cmpstr (a->sass_note, ==, "Made by the nvcc, ptxas and nvdisasm of CUDA 11.8.");
}

/* sm_100 is past 11.8: a message naming both, no SASS, the analysis fine */
static void
test_live_too_new_arch (void)
{
  g_autofree char *ptx = sample ("01-vector-add", "vector_add.ptx");
  g_autoptr(KsAnalysis) a = NULL;
  KsAnalysisRequest req;

  if (!have_debian_toolkit ())
    return;
  ks_analysis_request_init (&req);
  req.path = ptx;
  req.arch = "sm_100";
  req.simulate = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  if (a->toolchain->sass == NULL || a->toolchain->sass->version_major != 11)
    {
      g_test_skip ("SASS is not made with CUDA 11 here");
      return;
    }
  g_assert_null (a->sass);
  g_assert_nonnull (a->sass_error);
  g_assert_nonnull (strstr (a->sass_error, "CUDA 11.8"));
  g_assert_nonnull (strstr (a->sass_error, "sm_100"));
  g_assert_nonnull (strstr (a->sass_error, ".version 9.0"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/toolchain/version/parse", test_parse_version);
  g_test_add ("/toolchain/find/two-toolkits", Fixture, NULL, setup, test_find_two_toolkits,
              teardown);
  g_test_add ("/toolchain/find/debian-package", Fixture, NULL, setup, test_find_debian_package,
              teardown);
  g_test_add ("/toolchain/find/newest-disassembler", Fixture, NULL, setup,
              test_find_newest_disassembler, teardown);
  g_test_add ("/toolchain/find/usr-local", Fixture, NULL, setup, test_find_usr_local, teardown);
  g_test_add ("/toolchain/find/linked-nvcc", Fixture, NULL, setup, test_find_linked_nvcc,
              teardown);
  g_test_add_func ("/toolchain/ptx/isa-table", test_ptx_isa_table);
  g_test_add_func ("/toolchain/ptx/fit", test_fit_ptx);
  g_test_add ("/toolchain/nvcc/ccbin", Fixture, NULL, setup, test_nvcc_ccbin, teardown);
  g_test_add ("/toolchain/nvcc/no-host-compiler", Fixture, NULL, setup,
              test_nvcc_no_host_compiler, teardown);
  g_test_add ("/toolchain/run/cpu-cap", Fixture, NULL, setup, test_tool_cpu_cap, teardown);
  g_test_add ("/toolchain/run/memory-cap", Fixture, NULL, setup, test_tool_memory_cap,
              teardown);
  g_test_add_data_func ("/toolchain/live/cuda/sm_75", "sm_75", test_live_cuda);
  g_test_add_data_func ("/toolchain/live/cuda/sm_86", "sm_86", test_live_cuda);
  g_test_add_data_func ("/toolchain/live/cuda/sm_90", "sm_90", test_live_cuda);
  g_test_add_func ("/toolchain/live/ptx-lowered", test_live_ptx_lowered);
  g_test_add_func ("/toolchain/live/too-new-arch", test_live_too_new_arch);
  g_test_add_func ("/toolchain/live/ptxas-v-lowered", test_live_ptxas_v_lowered);
  g_test_add_func ("/toolchain/live/debian-only", test_live_debian_only);
  return g_test_run ();
}
