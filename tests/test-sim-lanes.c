/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lane recorder: warp 1 of a block, each instruction with the lanes on
 * its path, the lanes whose guard held, and its registers' lane values,
 * against what the kernel computes lane by lane (written here in C). */

#include <string.h>

#include "ks-sim-lanes.h"

static const char ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry k()\n{\n"
  "  .reg .b32 %r<5>;\n  .reg .pred %p<2>;\n"
  "  mov.u32 %r1, %tid.x;\n"                 /* step 0 */
  "  and.b32 %r2, %r1, 1;\n"                 /* step 1 */
  "  setp.eq.u32 %p1, %r2, 1;\n"             /* step 2 */
  "  @%p1 add.u32 %r3, %r1, 100;\n"          /* step 3: odd lanes */
  "  @%p1 bra DONE;\n"                       /* step 4 */
  "  mul.lo.u32 %r4, %r1, 3;\n"              /* step 5: even lanes only */
  "DONE:\n  ret;\n}\n";

static const KsLaneValue *
value (const KsLaneTrace *t,
       const KsLaneStep  *s,
       const KsPtxModule *m,
       const char        *name,
       gboolean           written)
{
  for (uint32_t i = 0; i < s->n_values; i++)
    {
      const KsLaneValue *v = &t->values[s->first_value + i];
      g_autofree char *n = ks_lane_value_name (m, v);

      if (v->written == written && g_str_equal (n, name))
        return v;
    }
  g_error ("no %s %s", written ? "write of" : "read of", name);
}

static void
test_warp1 (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (ptx, sizeof ptx - 1);
  g_autoptr(KsPtxModule) m = ks_ptx_module_parse (bytes, "lanes.ptx");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsLaunch) l = ks_launch_parse ("{\"ptx\": \"lanes.ptx\", \"grid\": [2], \"block\": [64],"
                                           " \"params\": []}", -1, NULL, &error);
  g_autoptr(KsLaneTrace) t = NULL;
  const KsLaneValue *v;

  g_assert_cmpuint (m->n_errors, ==, 0);
  g_assert_no_error (error);
  t = ks_lane_trace_record (m, l, 1, 1, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->cta, ==, 1);
  g_assert_false (t->truncated);
  g_assert_cmpuint (t->n_steps, ==, 7);

  /* mov: every lane, writes tid.x = 32 + lane */
  g_assert_cmpuint (t->steps[0].active, ==, 0xffffffffu);
  v = value (t, &t->steps[0], m, "%r1", TRUE);
  for (guint lane = 0; lane < 32; lane++)
    g_assert_cmpuint (v->lanes[lane], ==, 32 + lane);
  /* setp writes the parity */
  v = value (t, &t->steps[2], m, "%p1", TRUE);
  for (guint lane = 0; lane < 32; lane++)
    g_assert_cmpuint (v->lanes[lane], ==, lane & 1);
  /* the guarded add runs on the odd lanes, reading %r1 and %p1 */
  g_assert_cmpuint (t->steps[3].executed, ==, 0xaaaaaaaau);
  v = value (t, &t->steps[3], m, "%r1", FALSE);
  g_assert_cmpuint (v->lanes[7], ==, 39);
  v = value (t, &t->steps[3], m, "%r3", TRUE);
  for (guint lane = 1; lane < 32; lane += 2)
    g_assert_cmpuint (v->lanes[lane], ==, 32 + lane + 100);
  /* after the branch only the even lanes are on the path of the mul */
  g_assert_cmpuint (t->steps[5].active, ==, 0x55555555u);
  v = value (t, &t->steps[5], m, "%r4", TRUE);
  for (guint lane = 0; lane < 32; lane += 2)
    g_assert_cmpuint (v->lanes[lane], ==, 3 * (32 + lane));
  /* and everyone returns together */
  g_assert_cmpuint (t->steps[6].active, ==, 0xffffffffu);

  /* a limit */
  g_clear_pointer (&t, ks_lane_trace_free);
  t = ks_lane_trace_record (m, l, 0, 0, 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->n_steps, ==, 3);
  g_assert_true (t->truncated);

  /* a block or warp the launch does not have */
  g_assert_null (ks_lane_trace_record (m, l, 2, 0, 0, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (ks_lane_trace_record (m, l, 0, 2, 0, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/lanes/warp1", test_warp1);
  return g_test_run ();
}
