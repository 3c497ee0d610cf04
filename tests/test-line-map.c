/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of what the window's panes link and list, without a display: the
 * CUDA <-> PTX line map against the .loc directives of real nvcc output,
 * read here by a few lines of C of their own (an instruction line belongs
 * to the CUDA line of the last `.loc` before it when that is in the CUDA
 * file, or else to the line of the CUDA file it was inlined at, following
 * `inlined_at F L C` back to the `.loc F L C` written before), and the
 * sample library's folders. */

#include <glib/gstdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ks-line-map.h"
#include "ks-samples.h"

/* expected[cuda line] = the PTX lines (ascending), from the text alone */
typedef struct
{
  GHashTable *by_cuda;          /* cuda line -> GArray of uint32_t */
  uint32_t n_ptx_lines;
  uint32_t *cuda_of_ptx;        /* [n_ptx_lines + 1] */
} Expected;

static void
expected_clear (Expected *e)
{
  g_hash_table_unref (e->by_cuda);
  g_free (e->cuda_of_ptx);
}

/* An instruction starts on this line: not a directive, comment, brace or
 * label (nor `proto : .callprototype ...`, a declaration).  Inline asm
 * may open a scope on the instruction's line: `{ cvt.rn.f16x2.f32 ...; }`. */
static gboolean
starts_instruction (const char *t)
{
  const char *p;

  if (t[0] == '{')
    t += 1 + strspn (t + 1, " \t");
  p = t;
  if (t[0] == '\0' || t[0] == '.' || t[0] == '/' || t[0] == '{' || t[0] == '}' || t[0] == ')')
    return FALSE;
  while (g_ascii_isalnum (*p) || *p == '_' || *p == '$' || *p == '%')
    p++;
  while (*p == ' ' || *p == '\t')
    p++;
  return *p != ':';
}

/* The .file number whose path ends in cuda_basename */
static uint32_t
file_number (char      **lines,
             const char *cuda_basename)
{
  for (guint i = 0; lines[i]; i++)
    {
      const char *t = lines[i] + strspn (lines[i], " \t");
      unsigned n;
      char path[1024];

      if (sscanf (t, ".file %u \"%1023[^\"]\"", &n, path) == 2
          && g_str_has_suffix (path, cuda_basename))
        return n;
    }
  return 0;
}

static Expected
expected_from_text (const char *ptx_text,
                    const char *cuda_basename)
{
  Expected e;
  g_auto(GStrv) lines = g_strsplit (ptx_text, "\n", -1);
  uint32_t file = file_number (lines, cuda_basename), current = 0;
  gboolean in_statement = FALSE;        /* an instruction spread over lines */
  /* "F L C" of each .loc seen -> the line of the CUDA file it stands for */
  g_autoptr(GHashTable) resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  e.by_cuda = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  e.n_ptx_lines = g_strv_length (lines);
  e.cuda_of_ptx = g_new0 (uint32_t, e.n_ptx_lines + 1);
  g_assert_cmpuint (file, >, 0);

  for (guint i = 0; lines[i]; i++)
    {
      const char *t = lines[i] + strspn (lines[i], " \t");
      unsigned f, l;

      if (in_statement)
        {
          in_statement = strchr (t, ';') == NULL;
          continue;
        }
      if (g_str_has_prefix (t, ".loc") && g_ascii_isspace (t[4]))
        {
          unsigned col = 0, fi, li, ci;
          const char *at = strstr (t, "inlined_at");

          g_assert_cmpint (sscanf (t, ".loc %u %u %u", &f, &l, &col), >=, 2);
          if (f == file)
            current = l;
          else if (at != NULL)
            {
              g_autofree char *key = NULL;

              g_assert_cmpint (sscanf (at, "inlined_at %u %u %u", &fi, &li, &ci), ==, 3);
              key = g_strdup_printf ("%u %u %u", fi, li, ci);
              current = GPOINTER_TO_UINT (g_hash_table_lookup (resolved, key));
            }
          else
            current = 0;
          /* what a later inlined_at naming this location resolves to */
          g_hash_table_insert (resolved, g_strdup_printf ("%u %u %u", f, l, col),
                               GUINT_TO_POINTER (current));
        }
      else if (g_str_has_prefix (t, ".visible") || g_str_has_prefix (t, ".entry")
               || g_str_has_prefix (t, ".func") || g_str_has_prefix (t, ".weak"))
        current = 0;
      else if (starts_instruction (t))
        {
          GArray *a = g_hash_table_lookup (e.by_cuda, GUINT_TO_POINTER (current));
          uint32_t ptx_line = i + 1;

          /* A statement may run over several lines, as call does */
          in_statement = strchr (t, ';') == NULL;
          if (current == 0)
            continue;
          if (a == NULL)
            {
              a = g_array_new (FALSE, FALSE, sizeof (uint32_t));
              g_hash_table_insert (e.by_cuda, GUINT_TO_POINTER (current), a);
            }
          g_array_append_val (a, ptx_line);
          e.cuda_of_ptx[ptx_line] = current;
        }
    }
  return e;
}

static void
check_file (const char *ptx_path,
            const char *cuda_basename)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) module = NULL;
  g_autoptr(KsLineMap) map = NULL;
  Expected e;
  GHashTableIter iter;
  gpointer key, value;
  const uint32_t *cuda_lines;
  uint32_t n_cuda = 0;

  g_file_get_contents (ptx_path, &text, NULL, &error);
  g_assert_no_error (error);
  module = ks_ptx_module_parse_file (ptx_path, &error);
  g_assert_no_error (error);
  map = ks_line_map_new (module, cuda_basename);
  e = expected_from_text (text, cuda_basename);

  /* CUDA -> PTX, for every CUDA line the text maps */
  g_hash_table_iter_init (&iter, e.by_cuda);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *want = value;
      uint32_t n = 0;
      const uint32_t *got = ks_line_map_ptx_lines (map, GPOINTER_TO_UINT (key), &n);

      if (n != want->len)
        {
          g_test_message ("%s: CUDA line %u", ptx_path, GPOINTER_TO_UINT (key));
          for (guint i = 0; i < want->len; i++)
            g_test_message ("  want %u", g_array_index (want, uint32_t, i));
          for (guint i = 0; i < n; i++)
            g_test_message ("  got %u", got[i]);
        }
      g_assert_cmpuint (n, ==, want->len);
      for (guint i = 0; i < want->len; i++)
        g_assert_cmpuint (got[i], ==, g_array_index (want, uint32_t, i));
      g_assert_cmpuint (ks_line_map_colour (map, GPOINTER_TO_UINT (key)), <, KS_LINE_MAP_N_COLOURS);
    }
  /* ... and nothing else */
  cuda_lines = ks_line_map_cuda_lines (map, &n_cuda);
  g_assert_cmpuint (n_cuda, ==, g_hash_table_size (e.by_cuda));
  for (uint32_t i = 0; i < n_cuda; i++)
    g_assert_true (g_hash_table_contains (e.by_cuda, GUINT_TO_POINTER (cuda_lines[i])));

  /* PTX -> CUDA, for every line of the file and past its end */
  for (uint32_t p = 0; p <= e.n_ptx_lines + 2; p++)
    g_assert_cmpuint (ks_line_map_cuda_line (map, p), ==, p <= e.n_ptx_lines ? e.cuda_of_ptx[p] : 0);

  /* Neighbouring mapped lines never share a colour */
  for (uint32_t i = 1; i < n_cuda; i++)
    g_assert_cmpuint (ks_line_map_colour (map, cuda_lines[i]), !=,
                      ks_line_map_colour (map, cuda_lines[i - 1]));
  expected_clear (&e);
}

static void
test_vector_add (void)
{
  g_autofree char *ptx = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                "01-vector-add", "vector_add.ptx", NULL);
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse_file (ptx, NULL);
  g_autoptr(KsLineMap) map = ks_line_map_new (module, "vector_add.cu");
  uint32_t n = 0;
  const uint32_t *lines;

  check_file (ptx, "vector_add.cu");

  /* Read off vector_add.ptx by eye: `c[i] = a[i] + b[i];` (CUDA line 10)
   * is the address arithmetic, both loads, the add and the store */
  lines = ks_line_map_ptx_lines (map, 10, &n);
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpuint (lines[0], ==, 45);          /* mul.wide.s32 %rd5, %r1, 4 */
  g_assert_cmpuint (lines[2], ==, 50);          /* add.s64 %rd8, %rd7, %rd5 */
  g_assert_cmpuint (lines[7], ==, 58);          /* st.global.f32 [%rd10], %f3 */
  g_assert_cmpuint (ks_line_map_cuda_line (map, 39), ==, 9);    /* setp.ge.s32 */
  g_assert_cmpuint (ks_line_map_cuda_line (map, 38), ==, 0);    /* .loc itself */
  g_assert_cmpuint (ks_line_map_cuda_line (map, 48), ==, 8);    /* cvta.to.global */
  g_assert_null (ks_line_map_ptx_lines (map, 1, &n));           /* a comment */
  g_assert_cmpuint (n, ==, 0);
}

static void
test_corpus (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "ptx", "corpus", "sm_80", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *base = NULL, *cu = NULL;

      if (!g_str_has_suffix (name, ".ptx"))
        continue;
      base = g_strndup (name, strlen (name) - 4);
      cu = g_strconcat (base, ".cu", NULL);
      check_file (path, cu);
      n++;
    }
  g_assert_cmpuint (n, >=, 30);
}

static void
test_module_without_locs (void)
{
  const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k()\n{\n\tret;\n}\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, strlen (ptx));
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse (bytes, "k.ptx");
  g_autoptr(KsLineMap) map = ks_line_map_new (module, NULL);
  uint32_t n = 1;

  g_assert_cmpuint (ks_line_map_get_file (map), ==, 0);
  g_assert_cmpuint (ks_line_map_cuda_line (map, 6), ==, 0);
  ks_line_map_cuda_lines (map, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (ks_line_map_colour (map, 1), ==, KS_LINE_MAP_NO_COLOUR);
}

static void
test_palette (void)
{
  /* Okabe and Ito (2008), in their order, black left out */
  static const char *const okabe_ito[] = {
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
  };

  g_assert_cmpuint (KS_LINE_MAP_N_COLOURS, ==, G_N_ELEMENTS (okabe_ito));
  for (guint i = 0; i < G_N_ELEMENTS (okabe_ito); i++)
    g_assert_cmpstr (ks_line_map_palette (i), ==, okabe_ito[i]);
}

/* SASS listing lines map to the CUDA line of the `//## File "F", line N`
 * record before them, read here from the listing's text */
static void
test_sass (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "sass",
                                                 "10_celeritas_min.sm_70.nvdisasm_lineinfo.s", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(KsSassListing) listing = NULL;
  g_autoptr(GHashTable) want = g_hash_table_new_full (NULL, NULL, NULL,
                                                      (GDestroyNotify) g_array_unref);
  const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k()\n{\n\tret;\n}\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, strlen (ptx));
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse (bytes, "k.ptx");
  g_autoptr(KsLineMap) map = ks_line_map_new (module, NULL);
  GHashTableIter iter;
  gpointer key, value;
  uint32_t current = 0, n_instructions = 0;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *rec = strstr (lines[i], "//## File \"");
      const char *t = lines[i] + strspn (lines[i], " \t");
      unsigned n;

      if (rec != NULL)
        {
          const char *comma = strstr (rec, "\", line ");

          g_assert_nonnull (comma);
          g_assert_cmpint (sscanf (comma, "\", line %u", &n), ==, 1);
          current = strstr (rec, "/min.cu\"") != NULL ? n : 0;
        }
      else if (g_str_has_prefix (t, "/*") && g_ascii_isxdigit (t[2]) && strchr (t, ';'))
        {
          GArray *a;
          uint32_t line = i + 1;

          n_instructions++;
          if (current == 0)
            continue;
          a = g_hash_table_lookup (want, GUINT_TO_POINTER (current));
          if (a == NULL)
            {
              a = g_array_new (FALSE, FALSE, sizeof (uint32_t));
              g_hash_table_insert (want, GUINT_TO_POINTER (current), a);
            }
          g_array_append_val (a, line);
        }
    }
  g_assert_cmpuint (g_hash_table_size (want), >=, 3);

  listing = ks_sass_parse (text, strlen (text), "min.s", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listing->n_insns, ==, n_instructions);
  ks_line_map_set_sass (map, listing, "min.cu");
  g_hash_table_iter_init (&iter, want);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *a = value;
      uint32_t n = 0;
      const uint32_t *got = ks_line_map_sass_lines (map, GPOINTER_TO_UINT (key), &n);

      g_assert_cmpuint (n, ==, a->len);
      for (guint i = 0; i < a->len; i++)
        {
          g_assert_cmpuint (got[i], ==, g_array_index (a, uint32_t, i));
          g_assert_cmpuint (ks_line_map_cuda_line_of_sass (map, got[i]), ==,
                            GPOINTER_TO_UINT (key));
        }
    }
  /* another file's listing links nothing */
  ks_line_map_set_sass (map, listing, "other.cu");
  g_assert_cmpuint (ks_line_map_cuda_line_of_sass (map, 15), ==, 0);
}

/* Every sample's PTX against its .cu, as the corpus */
static void
test_samples_ptx (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      g_autoptr(GDir) sd = g_dir_open (sub, 0, NULL);
      const char *f;

      if (sd == NULL)
        continue;
      while ((f = g_dir_read_name (sd)) != NULL)
        {
          g_autofree char *path = g_build_filename (sub, f, NULL);
          g_autofree char *base = NULL, *cu = NULL;

          if (!g_str_has_suffix (f, ".ptx"))
            continue;
          base = g_strndup (f, strlen (f) - 4);
          cu = g_strconcat (base, ".cu", NULL);
          check_file (path, cu);
          n++;
        }
    }
  g_assert_cmpuint (n, >=, 20);
}

/* The upscaling sample's tex is written in texture_indirect_functions.h
 * (line 145, inlined at its line 152, inlined at texture_upscale.cu:30):
 * the texture fetch `tex2D<float>(image, u, v)` of the sample's line 30.
 * Read off texture_upscale.ptx: the tex is PTX line 64. */
static void
test_inlined_header (void)
{
  g_autofree char *ptx = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                "26-texture-upscale", "texture_upscale.ptx", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse_file (ptx, &error);
  g_autoptr(KsLineMap) map = NULL;
  const KsPtxInsn *tex = NULL;
  const KsPtxFile *pf;
  uint32_t file = 0, line = 0, n = 0;
  const uint32_t *lines;
  gboolean found = FALSE;

  g_assert_no_error (error);
  map = ks_line_map_new (module, "texture_upscale.cu");
  g_assert_cmpuint (ks_line_map_cuda_line (map, 64), ==, 30);
  lines = ks_line_map_ptx_lines (map, 30, &n);
  for (uint32_t i = 0; i < n; i++)
    found |= lines[i] == 64;
  g_assert_true (found);

  /* the same line for statistics, hints and faults */
  for (uint32_t i = 0; i < module->n_insns; i++)
    if (module->insns[i].line == 64)
      tex = &module->insns[i];
  g_assert_nonnull (tex);
  g_assert_true (ks_ptx_insn_source (module, tex, &file, &line));
  pf = ks_ptx_module_find_file (module, file);
  g_assert_nonnull (pf);
  g_assert_true (ks_ptx_span_equal (module, pf->path, "texture_upscale.cu"));
  g_assert_cmpuint (line, ==, 30);
  /* where it is written, for who asks for the header */
  for (uint32_t i = 0; i < module->n_files; i++)
    if (module->files[i].number != file)
      {
        g_assert_true (ks_ptx_insn_source_in_file (module, tex, module->files[i].number, &line));
        g_assert_cmpuint (line, ==, 145);
      }
}

/* nvdisasm -gi: SASS of a header's line inlined into the shown file links
 * to the line it was inlined at */
static void
test_sass_inlined (void)
{
  static const char text[] =
    "\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
    "\t.section\t.text.k,\"ax\",@progbits\n"
    "k:\n"
    "\t//## File \"/inc/texture_indirect_functions.h\", line 145 inlined at \"/src/k.cu\", line 30\n"
    "        /*0000*/                   MOV R1, c[0x0][0x28] ;  /* 0x00000a0000017a02 */\n"
    "                                                           /* 0x000fe40000000f00 */\n"
    "\t//## File \"/src/k.cu\", line 31\n"
    "        /*0010*/                   EXIT ;                  /* 0x000000000000794d */\n"
    "                                                           /* 0x000fea0003800000 */\n";
  const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k()\n{\n\tret;\n}\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, strlen (ptx));
  g_autoptr(KsPtxModule) module = ks_ptx_module_parse (bytes, "k.ptx");
  g_autoptr(KsLineMap) map = ks_line_map_new (module, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSassListing) listing = ks_sass_parse (text, strlen (text), "k.s", &error);
  uint32_t n = 0;
  const uint32_t *got;

  g_assert_no_error (error);
  ks_line_map_set_sass (map, listing, "k.cu");
  g_assert_cmpuint (ks_line_map_cuda_line_of_sass (map, 5), ==, 30);   /* the MOV */
  g_assert_cmpuint (ks_line_map_cuda_line_of_sass (map, 8), ==, 31);   /* the EXIT */
  got = ks_line_map_sass_lines (map, 30, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (got[0], ==, 5);
  g_assert_null (ks_line_map_sass_lines (map, 145, &n));
}

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
test_samples_library (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_autoptr(GPtrArray) samples = ks_samples_list (dir);
  const KsSample *first;

  g_assert_cmpuint (samples->len, >=, 2);
  first = g_ptr_array_index (samples, 0);
  g_assert_cmpstr (first->id, ==, "01-vector-add");
  g_assert_true (g_str_has_suffix (first->cuda_path, "01-vector-add/vector_add.cu"));
  g_assert_true (g_str_has_suffix (first->ptx_path, "01-vector-add/vector_add.ptx"));
  g_assert_true (g_str_has_suffix (first->spec_path, "01-vector-add/vector_add.json"));
  g_assert_nonnull (first->title);
  /* in the order of index.json, which lists every folder */
  {
    g_autofree char *index = g_build_filename (dir, "index.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonArray *list;

    json_parser_load_from_file (parser, index, &error);
    g_assert_no_error (error);
    list = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "samples");
    g_assert_cmpuint (json_array_get_length (list), ==, samples->len);
    for (guint i = 0; i < samples->len; i++)
      g_assert_cmpstr (((KsSample *) samples->pdata[i])->id, ==,
                       json_array_get_string_element (list, i));
  }
  /* sample.json's title and summary */
  {
    g_autofree char *meta = g_build_filename (dir, "01-vector-add", "sample.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *o;

    g_assert_true (json_parser_load_from_file (parser, meta, NULL));
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (first->title, ==, json_object_get_string_member (o, "title"));
    g_assert_cmpstr (first->description, ==, json_object_get_string_member (o, "summary"));
  }
  /* The browser's search: a sample answers a word of its title, summary,
   * tags or folder, whatever the case, each word of several, in any order.
   * What should match is found here in each sample.json's text. */
  {
    const char *queries[] = { "bank", "SHARED", "warp divergence", "coalesc", "texture",
                              "spill", "occupancy", "scan", "ballot", "zzz-none" };
    guint matched_any = 0;

    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      for (guint i = 0; i < samples->len; i++)
        {
          const KsSample *sample = samples->pdata[i];
          g_autofree char *meta = g_build_filename (sample->dir, "sample.json", NULL);
          g_autoptr(JsonParser) parser = json_parser_new ();
          g_autoptr(GString) text = g_string_new (sample->id);
          g_auto(GStrv) words = g_strsplit (queries[q], " ", -1);
          JsonObject *o;
          JsonArray *tags;
          gboolean want = TRUE;

          g_assert_true (json_parser_load_from_file (parser, meta, NULL));
          o = json_node_get_object (json_parser_get_root (parser));
          g_string_append_printf (text, "\n%s\n%s", json_object_get_string_member (o, "title"),
                                  json_object_get_string_member (o, "summary"));
          tags = json_object_get_array_member (o, "tags");
          g_assert_cmpuint (g_strv_length (sample->tags), ==, json_array_get_length (tags));
          for (guint t = 0; t < json_array_get_length (tags); t++)
            {
              g_assert_cmpstr (sample->tags[t], ==, json_array_get_string_element (tags, t));
              g_string_append_printf (text, "\n%s", json_array_get_string_element (tags, t));
            }
          {
            g_autofree char *lower = g_ascii_strdown (text->str, -1);

            for (guint w = 0; words[w] != NULL; w++)
              {
                g_autofree char *word = g_ascii_strdown (words[w], -1);

                want = want && strstr (lower, word) != NULL;
              }
          }
          g_assert_cmpint (ks_sample_matches (sample, queries[q]), ==, want);
          matched_any += want;
        }
    /* the queries are not all misses */
    g_assert_cmpuint (matched_any, >, 10);
    /* nothing typed: everything */
    g_assert_true (ks_sample_matches (first, ""));
    g_assert_true (ks_sample_matches (first, "  "));
    g_assert_true (ks_sample_matches (first, "01-VECTOR"));
    g_assert_false (ks_sample_matches (first, "vector zzz"));
  }
}

static void
test_samples_metadata (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("ks-samples-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (tmp, "01-first-one", NULL);
  g_autofree char *b = g_build_filename (tmp, "02-with-title", NULL);
  g_autofree char *c = g_build_filename (tmp, "03-empty", NULL);
  g_autofree char *d = g_build_filename (tmp, "04-bad-metadata", NULL);
  g_autoptr(GPtrArray) samples = NULL;
  const KsSample *s;

  g_assert_cmpint (g_mkdir (a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (b, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (c, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (d, 0700), ==, 0);
  write_file (a, "k.cu", "__global__ void k() {}\n");
  write_file (b, "k.ptx", ".version 8.0\n");
  write_file (b, "k.json", "{}");
  write_file (b, "k2.json", "{}");
  write_file (b, "sample.json", "{\"title\": \"Saxpy\", \"summary\": \"y = a x + y\", "
                                "\"spec\": \"k2.json\"}");
  write_file (d, "k.cu", "\n");
  write_file (d, "sample.json", "{ not json");

  samples = ks_samples_list (tmp);
  /* the empty folder is left out */
  g_assert_cmpuint (samples->len, ==, 3);
  s = samples->pdata[0];
  g_assert_cmpstr (s->title, ==, "First one");
  g_assert_null (s->description);
  g_assert_nonnull (s->tags);
  g_assert_null (s->tags[0]);
  g_assert_null (s->ptx_path);
  s = samples->pdata[1];
  g_assert_cmpstr (s->title, ==, "Saxpy");
  g_assert_cmpstr (s->description, ==, "y = a x + y");
  /* the spec sample.json names, not the first by name */
  g_assert_true (g_str_has_suffix (s->spec_path, "/k2.json"));
  /* sample.json is never taken for the launch spec */
  s = samples->pdata[2];
  g_assert_null (s->spec_path);
  g_assert_cmpstr (s->title, ==, "Bad metadata");

  /* index.json orders them; folders it does not list come after */
  write_file (tmp, "index.json", "{\"format\": 1, \"samples\": [\"04-bad-metadata\", "
                                 "\"02-with-title\", \"99-missing\"]}");
  g_clear_pointer (&samples, g_ptr_array_unref);
  samples = ks_samples_list (tmp);
  g_assert_cmpuint (samples->len, ==, 3);
  g_assert_cmpstr (((KsSample *) samples->pdata[0])->id, ==, "04-bad-metadata");
  g_assert_cmpstr (((KsSample *) samples->pdata[1])->id, ==, "02-with-title");
  g_assert_cmpstr (((KsSample *) samples->pdata[2])->id, ==, "01-first-one");

  /* no such folder: an empty list */
  g_ptr_array_unref (ks_samples_list ("/nonexistent/ks-samples"));
}

/* Whether CUDA line `line` of cu_name has instructions in the PTX text,
 * its own or inlined there (expected_from_text, above) */
static gboolean
cuda_line_has_ptx (const char *ptx_text,
                   const char *cu_name,
                   guint       line)
{
  Expected e = expected_from_text (ptx_text, cu_name);
  gboolean has;

  has = g_hash_table_contains (e.by_cuda, GUINT_TO_POINTER (line));
  expected_clear (&e);
  return has;
}

/* The course's numbers, levels and focuses, as each folder and sample.json
 * (read here) give them: every focus valid, its line one with PTX, its view
 * a results page; a search by number or level finds exactly those */
static void
test_samples_course (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_autoptr(GPtrArray) samples = ks_samples_list (dir);
  guint with_focus = 0;

  g_assert_cmpuint (samples->len, >=, 20);
  for (guint i = 0; i < samples->len; i++)
    {
      const KsSample *s = samples->pdata[i];
      g_autofree char *meta = g_build_filename (s->dir, "sample.json", NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o, *focus;
      guint level_count = 0;
      g_autofree char *by_number = g_strdup_printf ("%u", (guint) g_ascii_strtoull (s->id, NULL, 10));
      g_autofree char *padded = g_strndup (s->id, 2);
      g_autofree char *by_level = NULL, *by_level_joined = NULL;

      g_assert_true (json_parser_load_from_file (parser, meta, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpuint (s->number, ==, g_ascii_strtoull (s->id, NULL, 10));
      g_assert_cmpuint (s->number, >, 0);
      g_assert_cmpuint (s->level, ==, json_object_get_int_member (o, "level"));
      g_assert_null (s->focus_error);
      focus = json_object_has_member (o, "focus") ? json_object_get_object_member (o, "focus") : NULL;
      if (focus != NULL)
        {
          with_focus++;
          if (json_object_has_member (focus, "line"))
            {
              g_autofree char *ptx = NULL;
              g_autofree char *cu = g_path_get_basename (s->cuda_path);

              g_assert_cmpuint (s->focus_line, ==, json_object_get_int_member (focus, "line"));
              g_assert_true (g_file_get_contents (s->ptx_path, &ptx, NULL, NULL));
              if (!cuda_line_has_ptx (ptx, cu, s->focus_line))
                g_error ("%s: the focus line %u has no PTX instruction", s->id, s->focus_line);
            }
          if (json_object_has_member (focus, "view"))
            g_assert_cmpstr (s->focus_view, ==, json_object_get_string_member (focus, "view"));
        }
      else
        {
          g_assert_cmpuint (s->focus_line, ==, 0);
          g_assert_null (s->focus_view);
        }
      /* "12" and "012"-less "05": that sample and no other */
      for (guint k = 0; k < samples->len; k++)
        {
          const KsSample *other = samples->pdata[k];

          g_assert_cmpint (ks_sample_matches (other, by_number), ==, k == i);
          g_assert_cmpint (ks_sample_matches (other, padded), ==, k == i);
        }
      /* "level N" and "levelN": the samples of that level */
      by_level = g_strdup_printf ("level %u", s->level);
      by_level_joined = g_strdup_printf ("Level%u", s->level);
      for (guint k = 0; k < samples->len; k++)
        {
          const KsSample *other = samples->pdata[k];
          g_autofree char *other_meta = g_build_filename (other->dir, "sample.json", NULL);
          g_autoptr(JsonParser) p = json_parser_new ();
          gboolean same;

          g_assert_true (json_parser_load_from_file (p, other_meta, NULL));
          same = json_object_get_int_member (json_node_get_object (json_parser_get_root (p)),
                                             "level") == (gint64) s->level;
          level_count += same;
          g_assert_cmpint (ks_sample_matches (other, by_level), ==, same);
          g_assert_cmpint (ks_sample_matches (other, by_level_joined), ==, same);
        }
      g_assert_cmpuint (level_count, >, 0);
      /* the sample of a file in its folder, also by a path with ".." */
      {
        g_autofree char *base = g_path_get_basename (s->dir);
        g_autofree char *roundabout = g_build_filename (s->dir, "..", base, "x.cu", NULL);

        g_assert_true (ks_samples_find_for_file (samples, s->spec_path) == s);
        g_assert_true (ks_samples_find_for_file (samples, roundabout) == s);
      }
    }
  g_assert_cmpuint (with_focus, >, 0);
  g_assert_null (ks_samples_find_for_file (samples, "/nonexistent/k.cu"));
  g_assert_null (ks_samples_find_for_file (samples, NULL));
  /* words and numbers together: sample 12 is about bank conflicts */
  for (guint i = 0; i < samples->len; i++)
    {
      const KsSample *s = samples->pdata[i];

      if (s->number == 12)
        {
          g_assert_true (ks_sample_matches (s, "12 transpose"));
          g_assert_false (ks_sample_matches (s, "12 zzz"));
          g_assert_false (ks_sample_matches (s, "13"));
        }
    }
}

/* A focus with a wrong field is set aside whole, with a message naming the
 * file and the field; a good one is read */
static void
test_samples_focus (void)
{
  const struct { const char *focus; const char *says; } cases[] = {
    { "{\"line\": 2, \"view\": \"lanes\", \"step\": 7}", NULL },
    { "{\"view\": \"memory\"}", NULL },
    { "[3]", "must be an object" },
    { "{\"line\": 0}", "\"line\" must be a line number" },
    { "{\"line\": 2.5}", "\"line\" must be a line number" },
    { "{\"line\": \"2\"}", "\"line\" must be a line number" },
    { "{\"line\": 4}", "past the end of k.cu (3 lines)" },
    { "{\"view\": \"memroy\"}", "\"view\" must be one of timeline, memory" },
    { "{\"step\": -1}", "\"step\" must be a step number" },
    { "{\"line\": 2, \"lien\": 3}", "unknown field \"lien\"" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *tmp = g_dir_make_tmp ("ks-focus-XXXXXX", NULL);
      g_autofree char *folder = g_build_filename (tmp, "07-one", NULL);
      g_autofree char *json = g_strdup_printf ("{\"title\": \"One\", \"level\": 2, \"focus\": %s}",
                                               cases[c].focus);
      g_autoptr(GPtrArray) samples = NULL;
      const KsSample *s;

      g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
      write_file (folder, "k.cu", "// one\n__global__ void k() {\n}\n");
      write_file (folder, "sample.json", json);
      samples = ks_samples_list (tmp);
      g_assert_cmpuint (samples->len, ==, 1);
      s = samples->pdata[0];
      g_assert_cmpuint (s->number, ==, 7);
      g_assert_cmpuint (s->level, ==, 2);
      if (cases[c].says == NULL)
        {
          g_assert_null (s->focus_error);
          continue;
        }
      g_test_message ("%s: %s", cases[c].focus, s->focus_error);
      g_assert_nonnull (s->focus_error);
      g_assert_nonnull (strstr (s->focus_error, "sample.json"));
      g_assert_nonnull (strstr (s->focus_error, cases[c].says));
      /* set aside: the sample opens on its top hint */
      g_assert_cmpuint (s->focus_line, ==, 0);
      g_assert_null (s->focus_view);
      g_assert_cmpuint (s->focus_step, ==, 0);
    }
  /* the good one, read */
  {
    g_autofree char *tmp = g_dir_make_tmp ("ks-focus-XXXXXX", NULL);
    g_autofree char *folder = g_build_filename (tmp, "3-x", NULL);
    g_autoptr(GPtrArray) samples = NULL;
    const KsSample *s;

    g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
    write_file (folder, "k.cu", "a\nb\nc\n");
    write_file (folder, "sample.json", "{\"focus\": {\"line\": 2, \"view\": \"lanes\", \"step\": 7}}");
    samples = ks_samples_list (tmp);
    s = samples->pdata[0];
    g_assert_cmpuint (s->number, ==, 3);
    g_assert_cmpuint (s->level, ==, 0);
    g_assert_cmpuint (s->focus_line, ==, 2);
    g_assert_cmpstr (s->focus_view, ==, "lanes");
    g_assert_cmpuint (s->focus_step, ==, 7);
  }
}

/* A program in the build tree (this test is one) reads the source tree's
 * data before an installed copy, which may be an older version's */
static void
test_uninstalled_data (void)
{
  g_autofree char *old = g_strdup (g_getenv ("KS_DATA_DIR"));
  g_autofree char *found = NULL, *want = NULL, *canon_found = NULL, *canon_want = NULL;

  g_assert_true (ks_running_uninstalled ());
  g_unsetenv ("KS_DATA_DIR");
  found = ks_data_find_dir ("samples");
  want = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", NULL);
  g_assert_nonnull (found);
  canon_found = g_canonicalize_filename (found, NULL);
  canon_want = g_canonicalize_filename (want, NULL);
  g_assert_cmpstr (canon_found, ==, canon_want);
  if (old != NULL)
    g_setenv ("KS_DATA_DIR", old, TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/line-map/vector-add", test_vector_add);
  g_test_add_func ("/app/line-map/corpus", test_corpus);
  g_test_add_func ("/app/line-map/no-locations", test_module_without_locs);
  g_test_add_func ("/app/line-map/palette", test_palette);
  g_test_add_func ("/app/line-map/sass", test_sass);
  g_test_add_func ("/app/line-map/samples", test_samples_ptx);
  g_test_add_func ("/app/line-map/inlined-header", test_inlined_header);
  g_test_add_func ("/app/line-map/sass-inlined", test_sass_inlined);
  g_test_add_func ("/app/samples/library", test_samples_library);
  g_test_add_func ("/app/samples/metadata", test_samples_metadata);
  g_test_add_func ("/app/samples/course", test_samples_course);
  g_test_add_func ("/app/samples/focus", test_samples_focus);
  g_test_add_func ("/app/samples/uninstalled-data", test_uninstalled_data);
  return g_test_run ();
}
