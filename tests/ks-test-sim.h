/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-sim.h: running PTX in the simulator's tests (test-sim.c,
 * test-sim-sm90.c). */
#pragma once

#include <string.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"

typedef struct
{
  KsPtxModule *module;
  KsLaunch *launch;
  KsSim *sim;
} Run;

static inline void
run_clear (Run *r)
{
  g_clear_pointer (&r->sim, ks_sim_free);
  g_clear_pointer (&r->launch, ks_launch_free);
  g_clear_pointer (&r->module, ks_ptx_module_free);
}

/* PTX text that must parse without errors (its diagnostics are printed) */
static inline KsPtxModule *
text_module (const char *text)
{
  g_autoptr(GBytes) b = g_bytes_new (text, strlen (text));
  KsPtxModule *m = ks_ptx_module_parse (b, "test.ptx");

  for (uint32_t i = 0; i < m->n_diagnostics; i++)
    g_test_message ("%u:%u: %s", m->diagnostics[i].line, m->diagnostics[i].column,
                    m->diagnostics[i].message);
  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

/* tests/ptx/DIR/ARCH/NAME (ARCH NULL: tests/ptx/DIR/NAME), which must
 * parse without errors */
static inline KsPtxModule *
test_ptx_file (const char *dir,
               const char *arch,
               const char *name)
{
  g_autofree char *path = arch != NULL
                          ? g_test_build_filename (G_TEST_DIST, "ptx", dir, arch, name, NULL)
                          : g_test_build_filename (G_TEST_DIST, "ptx", dir, name, NULL);
  g_autoptr(GError) error = NULL;
  KsPtxModule *m = ks_ptx_module_parse_file (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_errors, ==, 0);
  return m;
}

static inline char *
hex_of (const void *data,
        size_t      size)
{
  GString *s = g_string_sized_new (size * 2);
  const uint8_t *p = data;

  for (size_t i = 0; i < size; i++)
    g_string_append_printf (s, "%02x", p[i]);
  return g_string_free (s, FALSE);
}

/* The current contents of launch buffer `name` */
static inline const void *
buffer (Run        *r,
        const char *name)
{
  int i = ks_launch_find_buffer (r->launch, name);

  g_assert_cmpint (i, >=, 0);
  return ks_sim_get_buffer (r->sim, (uint32_t) i, NULL);
}

static inline void
assert_done (Run *r)
{
  const KsSimFault *f = ks_sim_get_fault (r->sim);

  if (f != NULL)
    g_error ("fault: %s at PTX line %u", f->message, f->ptx_line);
  g_assert_cmpint (ks_sim_get_status (r->sim), ==, KS_SIM_DONE);
}
