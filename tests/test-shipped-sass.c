/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SASS that ships with the samples (data/samples/NN-name/sass/, made by
 * build-aux/make-sample-sass.sh with Debian's CUDA 11.8 toolkit).
 *
 * Each sample's listings are checked against what they must be, from
 * sources other than our reader: the index's SHA-256 against the files as
 * they are (a sample edited without remaking its SASS fails here); the
 * architectures against those of data/gpus.json that CUDA 11.8 compiles
 * for (NVIDIA's list: sm_70 to sm_90, sm_87 included); each listing's
 * architecture against the cubin's ELF header flags that nvdisasm printed;
 * the line records against the sample's .cu; the registers the SASS names
 * against the count in the ptxas -v report of the same compilation (read
 * here with a regular expression, not the app's parser); and the line
 * linking against the PTX, which another compiler (CUDA 13) made: a CUDA
 * line whose PTX stores to global or shared memory, or waits at a barrier,
 * must have that kind of SASS instruction among those linked to it.  Then
 * the analysis: without a toolkit, a sample shows the shipped SASS of the
 * GPU's architecture with that architecture's registers, names the
 * architectures there are for a GPU without one, and shows none for an
 * edited kernel.  With Debian's CUDA 11.8 installed, the script remakes
 * two samples' listings byte for byte. */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ks-analysis.h"
#include "ks-ptx.h"
#include "ks-sass.h"
#include "ks-shipped-sass.h"

/* What CUDA 11.8's nvcc --list-gpu-code gives, of data/gpus.json's */
static const char *const cuda_11_8_archs[] = {
  "sm_70", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
};

static char *
samples_folder (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
}

static GPtrArray *
load_index (void)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *path = g_build_filename (folder, "index.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  JsonArray *samples;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  samples = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "samples");
  for (guint i = 0; i < json_array_get_length (samples); i++)
    g_ptr_array_add (dirs, g_strdup (json_array_get_string_element (samples, i)));
  return dirs;
}

/* The sample's NAME (of NAME.cu) */
static char *
sample_name (const char *dir)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *path = g_build_filename (folder, dir, NULL);
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".cu"))
      return g_strndup (name, strlen (name) - 3);
  g_error ("%s has no .cu", dir);
}

static char *
read_file (const char *dir,
           const char *name)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *path = g_build_filename (folder, dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static char *
sha256_of (const char *dir,
           const char *name)
{
  g_autofree char *text = read_file (dir, name);

  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

/* The highest register Rn an instruction of fn names (RZ is not one) */
static int
highest_register (const KsSassListing  *l,
                  const KsSassFunction *fn)
{
  g_autoptr(GRegex) re = g_regex_new ("(?<![A-Z_.])R([0-9]+)", 0, 0, NULL);
  int high = -1;

  for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
    {
      const KsSassInsn *in = &l->insns[i];

      for (uint32_t k = 0; k < in->n_operands; k++)
        {
          g_autoptr(GMatchInfo) m = NULL;

          g_regex_match (re, l->operands[in->first_operand + k], 0, &m);
          while (g_match_info_matches (m))
            {
              g_autofree char *n = g_match_info_fetch (m, 1);

              high = MAX (high, atoi (n));
              g_match_info_next (m, NULL);
            }
        }
    }
  return high;
}

/* "Used N registers" of the kernel's ptxas -v report */
static int
report_registers (const char *report)
{
  g_autoptr(GRegex) re = g_regex_new ("Used ([0-9]+) registers", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *n = NULL;

  g_assert_true (g_regex_match (re, report, 0, &m));
  n = g_match_info_fetch (m, 1);
  return atoi (n);
}

/* Whether an instruction of fn on CUDA line `line` has an opcode of `ops` */
static gboolean
line_has (const KsSassListing  *l,
          const KsSassFunction *fn,
          const char           *cu,
          uint32_t              line,
          const char *const    *ops)
{
  g_autoptr(GArray) at = ks_sass_insns_for_line (l, fn, cu, line, TRUE);

  for (guint i = 0; i < at->len; i++)
    {
      const char *op = l->insns[g_array_index (at, guint32, i)].opcode;

      for (guint k = 0; ops[k] != NULL; k++)
        if (g_strcmp0 (op, ops[k]) == 0)
          return TRUE;
    }
  return FALSE;
}

/* The line linking joins two compilers' line records: a CUDA line whose
 * PTX waits at a barrier has a BAR linked to it (a barrier is not moved
 * across lines), and of the lines whose PTX stores to global or shared
 * memory, at least one has the store linked to it (ptxas may sink the
 * stores of both sides of a branch into one after it, at another line,
 * as CUDA 11.8 does with 05-divergence's by_lane[i]).  Returns the lines
 * checked. */
static guint
check_links (const char           *dir,
             const char           *arch,
             const KsPtxModule    *module,
             const KsSassListing  *l,
             const KsSassFunction *fn,
             const char           *cu)
{
  static const char *const global_stores[] = { "STG", "ST", "RED", "ATOM", "ATOMG", NULL };
  static const char *const shared_stores[] = { "STS", "ATOMS", NULL };
  static const char *const barriers[] = { "BAR", NULL };
  static const char *const *const want[] = { global_stores, shared_stores, barriers };
  static const char *const what[] = { "st.global", "st.shared", "bar" };
  g_autoptr(GHashTable) done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint lines[3] = { 0 }, linked[3] = { 0 };

  for (uint32_t i = 0; i < module->n_insns; i++)
    {
      const KsPtxInsn *in = &module->insns[i];
      const KsPtxFile *file;
      g_autofree char *key = NULL, *path = NULL;
      uint32_t file_number, line;
      int k;

      if (in->opcode == KS_PTX_OPC_ST && in->space == KS_PTX_SPACE_GLOBAL)
        k = 0;
      else if (in->opcode == KS_PTX_OPC_ST && in->space == KS_PTX_SPACE_SHARED)
        k = 1;
      else if (in->opcode == KS_PTX_OPC_BAR || in->opcode == KS_PTX_OPC_BARRIER)
        k = 2;
      else
        continue;
      if (!ks_ptx_insn_source (module, in, &file_number, &line))
        continue;
      file = ks_ptx_module_find_file (module, file_number);
      path = file ? ks_ptx_span_dup (module, file->path) : NULL;
      if (path == NULL || !g_str_has_suffix (path, cu))
        continue;
      key = g_strdup_printf ("%d:%u", k, line);
      if (g_hash_table_contains (done, key))
        continue;
      g_hash_table_add (done, g_steal_pointer (&key));
      lines[k]++;
      if (line_has (l, fn, cu, line, want[k]))
        linked[k]++;
      else if (k == 2)
        g_error ("%s %s: CUDA line %u has a bar in the PTX but no BAR in the SASS linked to it",
                 dir, arch, line);
    }
  for (guint k = 0; k < 2; k++)
    if (lines[k] > 0 && linked[k] == 0)
      g_error ("%s %s: %u CUDA lines have a %s in the PTX, none a %s in the SASS linked to it",
               dir, arch, lines[k], what[k], want[k][0]);
  return lines[0] + lines[1] + lines[2];
}

static void
test_listings (gconstpointer data)
{
  const char *dir = data;
  g_autofree char *name = sample_name (dir);
  g_autofree char *index_name = g_strdup_printf ("sass/%s.index.json", name);
  g_autofree char *index_text = read_file (dir, index_name);
  g_autofree char *cu_name = g_strconcat (name, ".cu", NULL);
  g_autofree char *ptx_name = g_strconcat (name, ".ptx", NULL);
  g_autofree char *cu_sha = sha256_of (dir, cu_name);
  g_autofree char *ptx_sha = sha256_of (dir, ptx_name);
  g_autofree char *cu_text = read_file (dir, cu_name);
  g_autofree char *ptx_text = read_file (dir, ptx_name);
  g_auto(GStrv) cu_lines = g_strsplit (cu_text, "\n", -1);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) module = NULL;
  g_autofree char *kernel = NULL;
  JsonObject *o;
  JsonArray *archs;
  guint links = 0;

  json_parser_load_from_data (parser, index_text, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "cuda"), ==, cu_name);
  g_assert_cmpstr (json_object_get_string_member (o, "ptx"), ==, ptx_name);
  if (g_strcmp0 (json_object_get_string_member (o, "cuda_sha256"), cu_sha) != 0
      || g_strcmp0 (json_object_get_string_member (o, "ptx_sha256"), ptx_sha) != 0)
    g_error ("%s: %s or %s changed since its SASS was made: run build-aux/make-sample-sass.sh",
             dir, cu_name, ptx_name);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (o, "toolkit"), "CUDA 11.8"));

  module = ks_ptx_module_parse (g_bytes_new (ptx_text, strlen (ptx_text)), ptx_name);
  g_assert_cmpuint (module->n_errors, ==, 0);
  for (uint32_t f = 0; f < module->n_functions; f++)
    if (module->functions[f].kind == KS_PTX_FUNCTION_ENTRY)
      kernel = ks_ptx_span_dup (module, module->functions[f].name);
  g_assert_nonnull (kernel);

  archs = json_object_get_array_member (o, "archs");
  g_assert_cmpuint (json_array_get_length (archs), ==, G_N_ELEMENTS (cuda_11_8_archs));
  for (guint a = 0; a < G_N_ELEMENTS (cuda_11_8_archs); a++)
    {
      const char *arch = cuda_11_8_archs[a];
      g_autofree char *sass_name = g_strdup_printf ("sass/%s.%s.sass", name, arch);
      g_autofree char *report_name = g_strdup_printf ("sass/%s.%s.ptxas.txt", name, arch);
      g_autofree char *sass = read_file (dir, sass_name);
      g_autofree char *report = read_file (dir, report_name);
      g_autofree char *flags = g_strdup_printf ("EF_CUDA_SM%s ", arch + 3);
      g_autoptr(KsSassListing) l = NULL;
      const KsSassFunction *fn;
      int used;

      g_assert_cmpstr (json_array_get_string_element (archs, a), ==, arch);
      l = ks_sass_parse (sass, strlen (sass), sass_name, &error);
      g_assert_no_error (error);
      g_assert_cmpint (l->format, ==, KS_SASS_FORMAT_NVDISASM);
      /* the architecture nvdisasm read from the cubin's header flags */
      g_assert_nonnull (strstr (sass, flags));
      fn = ks_sass_match_function (l, kernel, NULL);
      g_assert_nonnull (fn);
      g_assert_cmpstr (fn->arch, ==, arch);
      g_assert_cmpuint (fn->n_insns, >, 4);
      for (uint32_t i = fn->first_insn; i < fn->first_insn + fn->n_insns; i++)
        {
          const KsSassInsn *in = &l->insns[i];
          const KsSassSource *src = ks_sass_insn_source (l, i);

          g_assert_true (in->flags & KS_SASS_HAS_CONTROL);
          /* every line record names the sample's own file, without the
           * folder it was compiled in, at one of its lines; a header's
           * code (a shuffle's) was inlined at one (nvdisasm -gi) */
          g_assert_nonnull (src);
          while (!g_str_equal (src->file, cu_name) && src->caller != KS_SASS_NONE)
            src = &l->sources[src->caller];
          g_assert_cmpstr (src->file, ==, cu_name);
          g_assert_cmpuint (src->line, >=, 1);
          g_assert_cmpuint (src->line, <=, g_strv_length (cu_lines));
        }
      /* the registers it names fit in what ptxas reported */
      used = report_registers (report);
      g_assert_cmpint (highest_register (l, fn), <, used);
      g_assert_nonnull (strstr (report, arch));
      links += check_links (dir, arch, module, l, fn, cu_name);
    }
  g_test_message ("%s: %u stores and barriers linked", dir, links);
}

/* 22-matmul-tiled as the window shows it without a toolkit */
static KsAnalysis *
analyze (const char *gpu,
         const char *text)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *path = NULL;
  KsAnalysisRequest req;
  KsAnalysis *a;

  ks_analysis_request_init (&req);
  if (text != NULL)
    {
      path = g_build_filename (folder, "22-matmul-tiled", "matmul_tiled.ptx", NULL);
      req.kind = KS_ANALYSIS_INPUT_PTX;
      req.text = text;
    }
  else
    path = g_build_filename (folder, "22-matmul-tiled", "matmul_tiled.json", NULL);
  req.path = path;
  req.gpu = gpu;
  req.use_toolkit = FALSE;
  req.simulate = FALSE;
  a = ks_analysis_run (&req, NULL, NULL, NULL);
  g_assert_nonnull (a);
  g_assert_cmpint (a->status, ==, KS_ANALYSIS_OK);
  return a;
}

static void
test_analysis (void)
{
  g_autofree char *report = read_file ("22-matmul-tiled", "sass/matmul_tiled.sm_86.ptxas.txt");
  g_autofree char *ptx = read_file ("22-matmul-tiled", "matmul_tiled.ptx");
  g_autofree char *edited = g_strconcat (ptx, "// edited\n", NULL);
  g_autoptr(KsAnalysis) a10 = analyze ("a10", NULL);
  g_autoptr(KsAnalysis) b200 = NULL;
  g_autoptr(KsAnalysis) changed = NULL;
  g_autoptr(KsAnalysis) same = NULL;

  /* sm_86: its listing, and its registers */
  g_assert_cmpint (a10->sass_origin, ==, KS_SASS_ORIGIN_SHIPPED);
  g_assert_cmpstr (a10->sass_arch, ==, "sm_86");
  g_assert_nonnull (a10->sass);
  g_assert_nonnull (ks_sass_match_function (a10->sass, a10->kernel_name, "sm_86"));
  g_assert_null (a10->sass_error);
  g_assert_nonnull (strstr (a10->sass_how, "CUDA 11.8"));
  g_assert_cmpint (a10->resources->source, ==, KS_RESOURCES_SOURCE_PTXAS);
  g_assert_cmpuint (a10->resources->registers, ==, report_registers (report));

  /* sm_100: none, and the ones there are */
  b200 = analyze ("b200", NULL);
  g_assert_cmpint (b200->sass_origin, ==, KS_SASS_ORIGIN_NONE);
  g_assert_null (b200->sass);
  g_assert_nonnull (b200->sass_shipped_archs);
  g_assert_cmpuint (g_strv_length (b200->sass_shipped_archs), ==, G_N_ELEMENTS (cuda_11_8_archs));
  for (guint i = 0; i < G_N_ELEMENTS (cuda_11_8_archs); i++)
    g_assert_cmpstr (b200->sass_shipped_archs[i], ==, cuda_11_8_archs[i]);
  g_assert_cmpint (b200->resources->source, ==, KS_RESOURCES_SOURCE_ESTIMATE);

  /* the pane's text, unedited, is the file's: its SASS; edited, none */
  same = analyze ("a10", ptx);
  g_assert_cmpint (same->sass_origin, ==, KS_SASS_ORIGIN_SHIPPED);
  changed = analyze ("a10", edited);
  g_assert_cmpint (changed->sass_origin, ==, KS_SASS_ORIGIN_NONE);
  g_assert_null (changed->sass);
  g_assert_null (changed->sass_shipped_archs);
}

/* The lookup itself: other code, a name that is not the index's, and an
 * architecture name that would leave the folder are not listings */
static void
test_find (void)
{
  g_autofree char *folder = samples_folder ();
  g_autofree char *cu = g_build_filename (folder, "01-vector-add", "vector_add.cu", NULL);
  g_autofree char *text = read_file ("01-vector-add", "vector_add.cu");
  g_autoptr(KsShippedSass) found = ks_shipped_sass_find (cu, text, "sm_75");
  g_autoptr(KsShippedSass) other = ks_shipped_sass_find (cu, "__global__ void k () {}", "sm_75");
  g_autoptr(KsShippedSass) climb = ks_shipped_sass_find (cu, text, "../../sm_75");
  g_autofree char *renamed = g_build_filename (folder, "01-vector-add", "other.cu", NULL);
  g_autoptr(KsShippedSass) none = ks_shipped_sass_find (renamed, text, "sm_75");

  g_assert_cmpint (found->status, ==, KS_SHIPPED_SASS_FOUND);
  g_assert_true (g_str_has_suffix (found->listing_path, "vector_add.sm_75.sass"));
  g_assert_true (g_str_has_suffix (found->report_path, "vector_add.sm_75.ptxas.txt"));
  g_assert_cmpint (other->status, ==, KS_SHIPPED_SASS_OTHER_CODE);
  g_assert_cmpint (climb->status, ==, KS_SHIPPED_SASS_NO_ARCH);
  g_assert_cmpint (none->status, ==, KS_SHIPPED_SASS_NONE);
}

/* With Debian's CUDA 11.8 (the toolkit the listings name), the script
 * makes the same files again */
static void
test_regenerate (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "..", "build-aux",
                                                   "make-sample-sass.sh", NULL);
  g_autofree char *version = NULL, *tmp = NULL, *err = NULL;
  const char *samples[] = { "01-vector-add", "11-transpose-tiled" };
  const char *archs[] = { "sm_75", "sm_90" };
  const char *argv[] = { "bash", script, NULL, NULL };
  const char *vargv[] = { "/usr/bin/nvdisasm", "--version", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) vargv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &version, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL) || strstr (version, "release 11.8") == NULL)
    {
      g_test_skip ("Debian's CUDA 11.8 toolkit (nvidia-cuda-toolkit, /usr/bin/nvdisasm) is not "
                   "installed: the committed listings were still checked by /shipped-sass/");
      return;
    }
  tmp = g_dir_make_tmp ("ks-sample-sass-XXXXXX", &error);
  g_assert_no_error (error);
  argv[2] = tmp;
  envp = g_environ_setenv (g_get_environ (), "SAMPLES", "01-vector-add,11-transpose-tiled", TRUE);
  envp = g_environ_setenv (envp, "ARCHS", "sm_75 sm_90", TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("make-sample-sass.sh failed:\n%s", err);
  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autofree char *name = sample_name (samples[s]);

      for (guint k = 0; k < G_N_ELEMENTS (archs); k++)
        for (guint kind = 0; kind < 2; kind++)
          {
            g_autofree char *file = g_strdup_printf ("sass/%s.%s.%s", name, archs[k],
                                                     kind ? "ptxas.txt" : "sass");
            g_autofree char *committed = read_file (samples[s], file);
            g_autofree char *path = g_build_filename (tmp, samples[s], file, NULL);
            g_autofree char *fresh = NULL;

            g_file_get_contents (path, &fresh, NULL, &error);
            g_assert_no_error (error);
            if (strcmp (committed, fresh) != 0)
              g_error ("%s/%s: make-sample-sass.sh now makes another listing (in %s)",
                       samples[s], file, tmp);
            g_unlink (path);
          }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) dirs = NULL;

  g_test_init (&argc, &argv, NULL);
  dirs = load_index ();
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/shipped-sass/listings/%s", (char *) dirs->pdata[i]);

      g_test_add_data_func (path, dirs->pdata[i], test_listings);
    }
  g_test_add_func ("/shipped-sass/analysis", test_analysis);
  g_test_add_func ("/shipped-sass/find", test_find);
  g_test_add_func ("/shipped-sass/regenerate", test_regenerate);
  return g_test_run ();
}
