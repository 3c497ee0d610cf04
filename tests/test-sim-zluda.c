/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulator against hardware: ZLUDA's PTX tests (tests/ptx/zluda/,
 * README.md there), each run the way ZLUDA runs it on an NVIDIA GPU (one
 * block of 1 or 64 threads, 1024 bytes of dynamic shared memory, an input
 * and an output pointer) and its output compared byte for byte with the
 * value ZLUDA's test asserts for the GPU.
 *
 * A case may also be refused with a clear message (a parse error or a
 * fault that says what is not supported), but only when it is in the
 * `unsupported` table below with the reason; a refusal of any other case,
 * and any wrong result, fails.  A case in the table that now passes fails
 * too, so that the table stays true. */

#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

typedef struct
{
  char *name;
  guint threads;
  char *input_hex;              /* NULL: the test has no input */
  char *output_hex;
  char *output_type;
} Case;

/* Cases KernelScope refuses, and why.  Each must be refused, not passed
 * and never answered wrongly.  Both go out of bounds on the GPU too, where
 * nothing notices: the simulator stops with a fault that names the
 * thread and the address, which is what it should do. */
static const struct
{
  const char *name;
  const char *why;
} unsupported[] = {
  { "ldmatrix", "threads 32-63 read values_g[tid + 32], past its 64 elements" },
  { "mma_m16n8k16_f32_bf16_bf16_f32_2x",
    "64 threads store 32 bytes each into the 1024-byte output" },
  { NULL, NULL },
};

static const char *
unsupported_reason (const char *name)
{
  for (guint i = 0; unsupported[i].name != NULL; i++)
    if (strcmp (unsupported[i].name, name) == 0)
      return unsupported[i].why;
  return NULL;
}

static char *
zeros_hex (gsize n_bytes)
{
  char *s = g_malloc (n_bytes * 2 + 1);

  memset (s, '0', n_bytes * 2);
  s[n_bytes * 2] = '\0';
  return s;
}

static gsize
element_size (const char *type)
{
  return g_str_has_suffix (type, "8") ? 1 : g_str_has_suffix (type, "16") ? 2
         : g_str_has_suffix (type, "64") ? 8 : 4;
}

static char *
hex_of (const uint8_t *p,
        gsize          n)
{
  GString *s = g_string_sized_new (n * 2);

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", p[i]);
  return g_string_free (s, FALSE);
}

/* Runs one case.  Returns NULL when the output is right; otherwise what
 * happened, and *refused says whether it was a clear refusal (a parse
 * error or a fault) rather than a wrong result. */
static char *
run_case (const Case *c,
          gboolean   *refused)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "ptx", "zluda", c->name, NULL);
  g_autofree char *ptx_path = g_strconcat (path, ".ptx", NULL);
  g_autofree char *out_zero = zeros_hex (strlen (c->output_hex) / 2);
  g_autofree char *spec = NULL, *got = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) launch = NULL;
  KsPtxModule *m;
  KsSim *sim;
  char *result = NULL;
  const KsSimFault *f;
  const uint8_t *out;
  gsize out_size = 0;
  int out_index;

  *refused = TRUE;
  m = ks_ptx_module_parse_file (ptx_path, &error);
  g_assert_no_error (error);
  if (m->n_errors > 0)
    {
      for (uint32_t i = 0; i < m->n_diagnostics; i++)
        if (m->diagnostics[i].severity == KS_PTX_SEVERITY_ERROR)
          {
            result = g_strdup_printf ("%s.ptx:%u:%u: %s", c->name, m->diagnostics[i].line,
                                      m->diagnostics[i].column, m->diagnostics[i].message);
            break;
          }
      ks_ptx_module_free (m);
      return result;
    }

  if (c->input_hex != NULL)
    spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"%s\", \"grid\": [1],"
                            " \"block\": [%u], \"dynamic_shared_bytes\": 1024,"
                            " \"buffers\": {\"in\": {\"bytes_hex\": \"%s\"},"
                            " \"out\": {\"bytes_hex\": \"%s\"}},"
                            " \"params\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}]}",
                            c->name, c->threads, c->input_hex, out_zero);
  else
    {
      /* ZLUDA passes the output twice; the driver reads as many arguments
       * as the kernel has, and these kernels have one or two. */
      const KsPtxFunction *fn = ks_ptx_module_find_function (m, c->name);

      g_assert_nonnull (fn);
      spec = g_strdup_printf ("{\"ptx\": \"x.ptx\", \"kernel\": \"%s\", \"grid\": [1],"
                              " \"block\": [%u], \"dynamic_shared_bytes\": 1024,"
                              " \"buffers\": {\"out\": {\"bytes_hex\": \"%s\"}},"
                              " \"params\": [{\"buffer\": \"out\"}%s]}",
                              c->name, c->threads, out_zero,
                              fn->n_params > 1 ? ", {\"buffer\": \"out\"}" : "");
    }
  launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (m, launch, &error);
  if (sim == NULL)
    {
      result = g_strdup_printf ("%s: %s", c->name, error->message);
      ks_ptx_module_free (m);
      return result;
    }
  ks_sim_run (sim, 0, NULL);
  f = ks_sim_get_fault (sim);
  if (f != NULL)
    result = g_strdup_printf ("%s.ptx:%u: %s", c->name, f->ptx_line, f->message);
  else
    {
      out_index = ks_launch_find_buffer (launch, "out");
      out = ks_sim_get_buffer (sim, (uint32_t) out_index, &out_size);
      got = hex_of (out, out_size);
      if (strcmp (got, c->output_hex) != 0)
        {
          gsize size = element_size (c->output_type), n = strlen (got) / 2 / size;
          gsize first = n, differ = 0;

          for (gsize i = 0; i < n; i++)
            if (strncmp (got + i * size * 2, c->output_hex + i * size * 2, size * 2) != 0)
              {
                first = MIN (first, i);
                differ++;
              }
          *refused = FALSE;
          result = g_strdup_printf ("%s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " %s differ;"
                                    " the first, element %" G_GSIZE_FORMAT ", is %.*s, the"
                                    " GPU's %.*s (little-endian bytes)", c->name, differ, n,
                                    c->output_type, first, (int) size * 2, got + first * size * 2,
                                    (int) size * 2, c->output_hex + first * size * 2);
        }
    }
  ks_sim_free (sim);
  ks_ptx_module_free (m);
  return result;
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  const char *why = unsupported_reason (c->name);
  gboolean refused = FALSE;
  g_autofree char *problem = run_case (c, &refused);

  if (why != NULL)
    {
      if (problem == NULL)
        g_test_fail_printf ("%s now gives the GPU's output: take it out of the unsupported table",
                            c->name);
      else if (!refused)
        g_test_fail_printf ("%s, listed as refused (%s), gives a wrong result: %s", c->name, why,
                            problem);
      else
        g_test_message ("refused as expected (%s): %s", why, problem);
      return;
    }
  if (problem != NULL)
    g_test_fail_printf ("%s%s", refused ? "refused: " : "WRONG RESULT: ", problem);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *manifest_path = NULL, *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *cases = g_ptr_array_new ();
  int rc;

  g_test_init (&argc, &argv, NULL);
  manifest_path = g_test_build_filename (G_TEST_DIST, "ptx", "zluda", "MANIFEST.tsv", NULL);
  g_file_get_contents (manifest_path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      Case *c;
      g_autofree char *test_path = NULL;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 5);
      c = g_new0 (Case, 1);
      c->name = g_strdup (f[0]);
      c->threads = (guint) g_ascii_strtoull (f[1], NULL, 10);
      c->input_hex = strcmp (f[2], "-") == 0 ? NULL : g_strdup (f[2]);
      c->output_hex = g_strdup (f[3]);
      c->output_type = g_strdup (f[4]);
      g_ptr_array_add (cases, c);
      test_path = g_strconcat ("/sim/zluda/", c->name, NULL);
      g_test_add_data_func (test_path, c, test_case);
    }
  /* Every unsupported entry names a case of the manifest */
  for (guint i = 0; unsupported[i].name != NULL; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < cases->len; j++)
        found |= strcmp (((Case *) cases->pdata[j])->name, unsupported[i].name) == 0;
      g_assert_true (found);
    }
  rc = g_test_run ();
  for (guint j = 0; j < cases->len; j++)
    {
      Case *c = cases->pdata[j];

      g_free (c->name);
      g_free (c->input_hex);
      g_free (c->output_hex);
      g_free (c->output_type);
      g_free (c);
    }
  g_ptr_array_free (cases, TRUE);
  return rc;
}
