/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sim-video.c: the PTX video instructions in the simulator.
 *
 * Every form is run as a kernel over N_LANES threads, each with its own a,
 * b and c, and each lane's d is compared with a reference written here from
 * the PTX ISA's pseudo-code (9.7.18 "Video Instructions": partSelectSignExtend,
 * optSaturate, optSecOp and optMerge of the scalar instructions, vmad's
 * 128-bit semantics, extractAndSignExt and the merge or accumulate of the
 * SIMD ones), not with the simulator's code.  The inputs: the first lanes
 * cross a list of edge values for a and b, the others are random words
 * (from a fixed seed) whose bytes lean towards 0, 1, 0x7f, 0x80, 0xff and
 * small shift counts.  A handful of values worked out by hand from the
 * ISA's text check the reference itself.
 *
 * The simulator refuses, with an `unsupported` fault, the values where the
 * ISA allows two results (ks-sim-video.c lists them); the reference says
 * which those are, the sweeps leave them out, and /sim/video/refused
 * checks that they and the forms ptxas refuses do fault.  When ptxas is
 * found, /sim/video/ptxas checks that it accepts every kernel the sweeps
 * run. */

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ks-launch.h"
#include "ks-ptx.h"
#include "ks-sim.h"
#include "ks-toolchain.h"

#define N_LANES 1024
#define MAX_REPORT 6

/* ---- forms ------------------------------------------------------------------------------- */

typedef struct
{
  const char *opc;              /* vadd, vset2, vmad ... */
  char types[16];               /* .s32.u32.u32 (vset: .atype.btype) */
  char mods[24];                /* what follows the types: .sat.add, .lt.max, .clamp, .po.shr7 */
  char dsel[8], asel[8], bsel[8];
  gboolean neg_a, neg_b, neg_c; /* vmad */
  int n_ops;                    /* 3 or 4 */
  const char *a_lit, *b_lit;    /* a or b written as this literal */
} Form;

static char *
form_text (const Form *f)
{
  g_autofree char *a = f->a_lit ? g_strdup (f->a_lit)
                                : g_strdup_printf ("%s%%a%s", f->neg_a ? "-" : "", f->asel);
  g_autofree char *b = f->b_lit ? g_strdup (f->b_lit)
                                : g_strdup_printf ("%s%%b%s", f->neg_b ? "-" : "", f->bsel);

  return g_strdup_printf ("%s%s%s %%d%s, %s, %s%s%s;", f->opc, f->types, f->mods, f->dsel, a, b,
                          f->n_ops == 4 ? (f->neg_c ? ", -" : ", ") : "",
                          f->n_ops == 4 ? "%c" : "");
}

/* ---- the reference --------------------------------------------------------------------------
 * Decoded from the form's text, independently of the parser. */

enum { R_ADD, R_SUB, R_ABSDIFF, R_MIN, R_MAX, R_AVRG, R_SHL, R_SHR, R_MAD, R_SET };

typedef struct
{
  int op, n;                    /* n: 1 scalar, 2 half-words, 4 bytes */
  gboolean ds, as, bs, sat, wrap, po;
  int scale;                    /* vmad: 0, 7, 15 */
  char secop;                   /* 0, '+', 'm' (min), 'M' (max) */
  char cmp[3];
  const char *dsel, *asel, *bsel;
  gboolean na, nb, nc;
  gboolean a_lit, b_lit;
  uint32_t a_val, b_val;
} Ref;

static gboolean
has_mod (const Form *f,
         const char *m)
{
  size_t n = strlen (m);

  for (const char *p = strstr (f->mods, m); p != NULL; p = strstr (p + 1, m))
    if (p[n] == '\0' || p[n] == '.')
      return TRUE;
  return FALSE;
}

static void
ref_decode (const Form *f,
            Ref        *r)
{
  static const struct { const char *name; int op; } ops[] = {
    { "vadd", R_ADD }, { "vsub", R_SUB }, { "vabsdiff", R_ABSDIFF }, { "vmin", R_MIN },
    { "vmax", R_MAX }, { "vavrg", R_AVRG }, { "vshl", R_SHL }, { "vshr", R_SHR },
    { "vmad", R_MAD }, { "vset", R_SET },
  };
  static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
  size_t len = strlen (f->opc);
  const char *t = f->types;

  memset (r, 0, sizeof *r);
  r->n = f->opc[len - 1] == '2' ? 2 : f->opc[len - 1] == '4' ? 4 : 1;
  r->op = -1;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strncmp (f->opc, ops[i].name, len - (r->n > 1)) == 0
        && strlen (ops[i].name) == len - (r->n > 1))
      r->op = ops[i].op;
  g_assert_cmpint (r->op, >=, 0);
  /* .dtype.atype.btype, or vset's .atype.btype */
  if (r->op != R_SET)
    {
      r->ds = t[1] == 's';
      t += 4;
    }
  r->as = t[1] == 's';
  r->bs = t[5] == 's';
  r->sat = has_mod (f, ".sat");
  r->wrap = has_mod (f, ".wrap");
  r->po = has_mod (f, ".po");
  r->scale = has_mod (f, ".shr7") ? 7 : has_mod (f, ".shr15") ? 15 : 0;
  r->secop = has_mod (f, ".add") ? '+' : has_mod (f, ".min") ? 'm' : has_mod (f, ".max") ? 'M' : 0;
  for (guint i = 0; i < G_N_ELEMENTS (cmps); i++)
    {
      g_autofree char *m = g_strconcat (".", cmps[i], NULL);

      if (has_mod (f, m))
        strcpy (r->cmp, cmps[i]);
    }
  r->dsel = f->dsel;
  r->asel = f->asel;
  r->bsel = f->bsel;
  r->na = f->neg_a;
  r->nb = f->neg_b;
  r->nc = f->neg_c;
  r->a_lit = f->a_lit != NULL;
  r->b_lit = f->b_lit != NULL;
  if (r->a_lit)
    r->a_val = (uint32_t) strtoll (f->a_lit, NULL, 0);
  if (r->b_lit)
    r->b_val = (uint32_t) strtoll (f->b_lit, NULL, 0);
}

/* Two's complement of the low `bits` bits of v */
static int64_t
signed_bits (uint64_t v,
             int      bits)
{
  v &= ((uint64_t) 1 << bits) - 1;
  return (v >> (bits - 1)) & 1 ? (int64_t) v - ((int64_t) 1 << bits) : (int64_t) v;
}

/* partSelectSignExtend (x, type, sel): sel is "", ".b0".."b3", ".h0", ".h1" */
static int64_t
part_select_sign_extend (uint32_t    x,
                         gboolean    is_signed,
                         const char *sel)
{
  int width = 32, pos = 0;
  uint64_t v;

  if (sel[0] != '\0')
    {
      width = sel[1] == 'b' ? 8 : 16;
      pos = (sel[2] - '0') * width;
    }
  v = ((uint64_t) x >> pos) & (((uint64_t) 1 << width) - 1);
  return is_signed ? signed_bits (v, width) : (int64_t) v;
}

static __int128
clamp128 (__int128 v,
          __int128 max,
          __int128 min)
{
  return v > max ? max : v < min ? min : v;
}

/* optSaturate (tmp, sat, sign, dsel) */
static int64_t
opt_saturate (int64_t     tmp,
              gboolean    sat,
              gboolean    sign,
              const char *dsel)
{
  int bits = dsel[0] == '\0' ? 32 : dsel[1] == 'b' ? 8 : 16;

  if (!sat)
    return tmp;
  if (sign)
    return (int64_t) clamp128 (tmp, ((int64_t) 1 << (bits - 1)) - 1, -((int64_t) 1 << (bits - 1)));
  return (int64_t) clamp128 (tmp, ((int64_t) 1 << bits) - 1, 0);
}

/* optMerge (dsel, tmp, c) */
static uint32_t
opt_merge (const char *dsel,
           int64_t     tmp,
           uint32_t    c)
{
  uint32_t t = (uint32_t) tmp;

  if (strcmp (dsel, ".h0") == 0) return (t & 0xffff) | (0xffff0000 & c);
  if (strcmp (dsel, ".h1") == 0) return ((t & 0xffff) << 16) | (0x0000ffff & c);
  if (strcmp (dsel, ".b0") == 0) return (t & 0xff) | (0xffffff00 & c);
  if (strcmp (dsel, ".b1") == 0) return ((t & 0xff) << 8) | (0xffff00ff & c);
  if (strcmp (dsel, ".b2") == 0) return ((t & 0xff) << 16) | (0xff00ffff & c);
  if (strcmp (dsel, ".b3") == 0) return ((t & 0xff) << 24) | (0x00ffffff & c);
  return t;
}

static gboolean
compare (const char *cmp,
         int64_t     a,
         int64_t     b)
{
  if (strcmp (cmp, "eq") == 0) return a == b;
  if (strcmp (cmp, "ne") == 0) return a != b;
  if (strcmp (cmp, "lt") == 0) return a < b;
  if (strcmp (cmp, "le") == 0) return a <= b;
  if (strcmp (cmp, "gt") == 0) return a > b;
  g_assert_cmpstr (cmp, ==, "ge");
  return a >= b;
}

/* The ISA's ">> 1" of a signed value: floor (s / 2) */
static int64_t
half_floor (int64_t s)
{
  return s >= 0 ? s / 2 : -((-s + 1) / 2);
}

/* Arithmetic right shift of a 128-bit value, written as floor division */
static __int128
shift_floor (__int128 v,
             int      s)
{
  __int128 p = (__int128) 1 << s;

  return v >= 0 ? v / p : -((-v + p - 1) / p);
}

static gboolean
ref_vmad (const Ref *r,
          uint32_t   a,
          uint32_t   b,
          uint32_t   c,
          uint32_t  *d)
{
  int64_t ta = part_select_sign_extend (a, r->as, r->asel);
  int64_t tb = part_select_sign_extend (b, r->bs, r->bsel);
  gboolean signed_final = r->as || r->bs || (r->na ^ r->nb) || r->nc;
  __int128 tmp = (__int128) ta * (__int128) tb, c128, result;
  int lsb = 0;

  /* The pseudo-code extends c by the final result's sign, the prose by the
   * product's: they disagree on an unsigned product minus a c with bit 31
   * set, which only .sat and the scales can show */
  if (!(r->as || r->bs || (r->na ^ r->nb)) && r->nc && (c >> 31) && (r->sat || r->scale))
    return FALSE;
  if (r->po)
    lsb = 1;
  else if (r->na ^ r->nb)
    {
      tmp = ~tmp;
      lsb = 1;
    }
  else if (r->nc)
    {
      c = ~c;
      lsb = 1;
    }
  c128 = signed_final ? (__int128) signed_bits (c, 32) : (__int128) c;
  tmp = tmp + c128 + lsb;
  result = tmp;
  if (r->scale)
    {
      /* (tmp >> n) & 0xffffffffffffffff, "sign-extended if the final result
       * is signed, and zero-extended otherwise" */
      uint64_t low = (uint64_t) shift_floor (tmp, r->scale);

      result = signed_final ? (__int128) (int64_t) low : (__int128) low;
    }
  if (r->sat)
    result = signed_final ? clamp128 (result, G_MAXINT32, G_MININT32)
                          : clamp128 (result, G_MAXUINT32, 0);
  *d = (uint32_t) result;
  return TRUE;
}

/* extractAndSignExt_2/_4 (a, b, sel, type): element i of the result is
 * element digit[i] of {b, a}, digits written from element n-1 down to 0 */
static void
extract_and_sign_ext (uint32_t    a,
                      uint32_t    b,
                      const char *sel,
                      gboolean    is_b,
                      gboolean    is_signed,
                      int         n,
                      int64_t     v[4])
{
  static const char *const defaults[2][2] = { { "10", "32" }, { "3210", "7654" } };
  const char *digits = sel[0] != '\0' ? sel + 2 : defaults[n == 4][is_b];
  int w = 32 / n;
  uint64_t ba = (uint64_t) b << 32 | a;

  g_assert_cmpint ((int) strlen (digits), ==, n);
  for (int i = 0; i < n; i++)
    {
      int e = digits[n - 1 - i] - '0';
      uint64_t x = (ba >> (e * w)) & (((uint64_t) 1 << w) - 1);

      v[i] = is_signed ? signed_bits (x, w) : (int64_t) x;
    }
}

static uint32_t
ref_simd (const Ref *r,
          uint32_t   a,
          uint32_t   b,
          uint32_t   c)
{
  int64_t va[4], vb[4], t[4];
  gboolean mask[4] = { FALSE, FALSE, FALSE, FALSE };
  int w = 32 / r->n;
  uint32_t emask = (uint32_t) (((uint64_t) 1 << w) - 1), d;

  extract_and_sign_ext (a, b, r->asel, FALSE, r->as, r->n, va);
  extract_and_sign_ext (a, b, r->bsel, TRUE, r->bs, r->n, vb);
  for (int i = 0; i < r->n; i++)
    {
      switch (r->op)
        {
        case R_ADD: t[i] = va[i] + vb[i]; break;
        case R_SUB: t[i] = va[i] - vb[i]; break;
        case R_AVRG:
          t[i] = va[i] + vb[i] >= 0 ? half_floor (va[i] + vb[i] + 1) : half_floor (va[i] + vb[i]);
          break;
        case R_ABSDIFF: t[i] = va[i] > vb[i] ? va[i] - vb[i] : vb[i] - va[i]; break;
        case R_MIN: t[i] = va[i] < vb[i] ? va[i] : vb[i]; break;
        case R_MAX: t[i] = va[i] > vb[i] ? va[i] : vb[i]; break;
        case R_SET: t[i] = compare (r->cmp, va[i], vb[i]) ? 1 : 0; break;
        default: g_assert_not_reached ();
        }
      if (r->sat)
        t[i] = r->ds ? (int64_t) clamp128 (t[i], (1 << (w - 1)) - 1, -(1 << (w - 1)))
                     : (int64_t) clamp128 (t[i], emask, 0);
    }
  /* extractMaskBits (.mask): the digits of d's mask, all when none */
  if (r->dsel[0] == '\0')
    for (int i = 0; i < r->n; i++)
      mask[i] = TRUE;
  else
    for (const char *p = r->dsel + 2; *p != '\0'; p++)
      mask[*p - '0'] = TRUE;
  if (r->secop == '+')
    {
      d = c;
      for (int i = 0; i < r->n; i++)
        d += mask[i] ? (uint32_t) t[i] : 0;
    }
  else
    {
      d = 0;
      for (int i = 0; i < r->n; i++)
        d |= mask[i] ? ((uint32_t) t[i] & emask) << (i * w) : c & (emask << (i * w));
    }
  return d;
}

/* d for inputs a, b, c; FALSE where the simulator is to refuse the values
 * because the ISA allows two results */
static gboolean
ref_eval (const Ref *r,
          uint32_t   a,
          uint32_t   b,
          uint32_t   c,
          uint32_t  *d)
{
  __int128 wide;
  int64_t ta, tb, tmp, c33;

  if (r->a_lit)
    a = r->a_val;
  if (r->b_lit)
    b = r->b_val;
  if (r->n > 1)
    {
      *d = ref_simd (r, a, b, c);
      return TRUE;
    }
  if (r->op == R_MAD)
    return ref_vmad (r, a, b, c, d);

  ta = part_select_sign_extend (a, r->as, r->asel);
  /* the shifts read b as .u32 */
  tb = part_select_sign_extend (b, r->op == R_SHL || r->op == R_SHR ? FALSE : r->bs, r->bsel);
  switch (r->op)
    {
    case R_ADD: wide = ta + tb; break;
    case R_SUB: wide = ta - tb; break;
    case R_ABSDIFF: wide = ta > tb ? ta - tb : tb - ta; break;
    case R_MIN: wide = ta < tb ? ta : tb; break;
    case R_MAX: wide = ta > tb ? ta : tb; break;
    case R_SET: wide = compare (r->cmp, ta, tb) ? 1 : 0; break;
    case R_SHL: case R_SHR:
      if (!r->wrap && tb > 32)
        tb = 32;
      if (r->wrap)
        tb &= 0x1f;
      wide = r->op == R_SHL ? (__int128) ta * ((__int128) 1 << tb) : shift_floor (ta, (int) tb);
      break;
    default: g_assert_not_reached ();
    }
  /* Every result is an .s34 but vshl's, which may not fit: then only its
   * low 32 bits are defined */
  if (wide < -((__int128) 1 << 33) || wide >= ((__int128) 1 << 33))
    {
      if (r->sat || r->secop == 'm' || r->secop == 'M')
        return FALSE;
      *d = (uint32_t) (uint64_t) wide + (r->secop == '+' ? c : 0);
      if (r->dsel[0] != '\0')
        *d = opt_merge (r->dsel, (int64_t) (uint64_t) wide, c);
      return TRUE;
    }
  tmp = (int64_t) wide;
  tmp = opt_saturate (tmp, r->sat, r->ds, r->dsel);
  /* optSecOp works on .s33 values; c's sign is d's type (vset: unsigned) */
  c33 = r->ds ? signed_bits (c, 32) : (int64_t) c;
  switch (r->secop)
    {
    case '+': tmp = tmp + c33; break;
    case 'm': case 'M':
      if (tmp < -((int64_t) 1 << 32) || tmp >= ((int64_t) 1 << 32))
        return FALSE;
      tmp = r->secop == 'm' ? (tmp < c33 ? tmp : c33) : (tmp > c33 ? tmp : c33);
      break;
    default: break;
    }
  *d = r->dsel[0] != '\0' ? opt_merge (r->dsel, tmp, c) : (uint32_t) tmp;
  return TRUE;
}

/* ---- running forms in the simulator ------------------------------------------------------ */

static char *
hex_words (const uint32_t *v,
           guint           n)
{
  GString *s = g_string_sized_new (n * 8);

  for (guint i = 0; i < n; i++)
    for (int k = 0; k < 4; k++)
      g_string_append_printf (s, "%02x", (v[i] >> (8 * k)) & 0xff);
  return g_string_free (s, FALSE);
}

/* One kernel running insns[0..n-1] in turn on the thread's a, b and c,
 * instruction k's d stored at d[k * n_lanes + thread] */
static char *
kernel_text (const char        *entry,
             const char *const *insns,
             guint              n,
             guint              n_lanes)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s,
                          ".version 8.0\n.target sm_80\n.address_size 64\n\n"
                          ".visible .entry %s (.param .u64 pa, .param .u64 pb, .param .u64 pc,"
                          " .param .u64 pd)\n{\n"
                          "  .reg .b32 %%a, %%b, %%c, %%d, %%i;\n"
                          "  .reg .b64 %%p<5>, %%off;\n"
                          "  ld.param.u64 %%p1, [pa];\n  ld.param.u64 %%p2, [pb];\n"
                          "  ld.param.u64 %%p3, [pc];\n  ld.param.u64 %%p4, [pd];\n"
                          "  mov.u32 %%i, %%tid.x;\n  mul.wide.u32 %%off, %%i, 4;\n"
                          "  add.s64 %%p1, %%p1, %%off;\n  add.s64 %%p2, %%p2, %%off;\n"
                          "  add.s64 %%p3, %%p3, %%off;\n  add.s64 %%p4, %%p4, %%off;\n"
                          "  ld.global.u32 %%a, [%%p1];\n  ld.global.u32 %%b, [%%p2];\n"
                          "  ld.global.u32 %%c, [%%p3];\n", entry);
  for (guint k = 0; k < n; k++)
    /* d's old value must not show through a merge */
    g_string_append_printf (s, "  mov.u32 %%d, 0xdeadbeef;\n  %s\n"
                            "  st.global.u32 [%%p4+%u], %%d;\n", insns[k], k * n_lanes * 4);
  g_string_append (s, "  ret;\n}\n");
  return g_string_free (s, FALSE);
}

typedef struct
{
  gboolean parsed;
  gboolean unsupported;         /* an `unsupported` fault */
  char *message;                /* the parser's error or the fault's message */
  uint32_t *d;                  /* n_forms * n_lanes words */
} Outcome;

static void
outcome_clear (Outcome *o)
{
  g_clear_pointer (&o->message, g_free);
  g_clear_pointer (&o->d, g_free);
}

/* Runs insns on n_lanes threads: the outcome says whether it parsed, how
 * it stopped, and holds d.  Any fault other than `unsupported` fails. */
static void
run_insns (const char *const *insns,
           guint              n,
           const uint32_t    *a,
           const uint32_t    *b,
           const uint32_t    *c,
           guint              n_lanes,
           Outcome           *o)
{
  g_autofree char *ptx = kernel_text ("k", insns, n, n_lanes);
  g_autofree char *ha = hex_words (a, n_lanes), *hb = hex_words (b, n_lanes);
  g_autofree char *hc = hex_words (c, n_lanes), *spec = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (ptx, strlen (ptx));
  g_autoptr(GError) error = NULL;
  KsPtxModule *module = ks_ptx_module_parse (bytes, "video.ptx");
  KsLaunch *launch = NULL;
  KsSim *sim = NULL;
  const KsSimFault *fault;

  memset (o, 0, sizeof *o);
  if (module->n_errors > 0)
    {
      o->message = g_strdup (module->diagnostics[0].message);
      goto out;
    }
  o->parsed = TRUE;
  spec = g_strdup_printf ("{\"ptx\": \"video.ptx\", \"kernel\": \"k\", \"grid\": [1],"
                          " \"block\": [%u], \"buffers\": {\"a\": {\"bytes_hex\": \"%s\"},"
                          " \"b\": {\"bytes_hex\": \"%s\"}, \"c\": {\"bytes_hex\": \"%s\"},"
                          " \"d\": {\"type\": \"u32\", \"count\": %u}},"
                          " \"params\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"},"
                          " {\"buffer\": \"c\"}, {\"buffer\": \"d\"}]}",
                          n_lanes, ha, hb, hc, n * n_lanes);
  launch = ks_launch_parse (spec, -1, NULL, &error);
  g_assert_no_error (error);
  sim = ks_sim_new (module, launch, &error);
  g_assert_no_error (error);
  ks_sim_run (sim, 0, NULL);
  fault = ks_sim_get_fault (sim);
  if (fault != NULL)
    {
      if (fault->kind != KS_SIM_FAULT_UNSUPPORTED)
        g_error ("fault %s: %s at PTX line %u\n%s", ks_sim_fault_kind_name (fault->kind),
                 fault->message, fault->ptx_line, ptx);
      o->unsupported = TRUE;
      o->message = g_strdup (fault->message);
      goto out;
    }
  g_assert_cmpint (ks_sim_get_status (sim), ==, KS_SIM_DONE);
  o->d = g_memdup2 (ks_sim_get_buffer (sim, (uint32_t) ks_launch_find_buffer (launch, "d"), NULL),
                    (gsize) n * n_lanes * 4);

out:
  g_clear_pointer (&sim, ks_sim_free);
  g_clear_pointer (&launch, ks_launch_free);
  g_clear_pointer (&module, ks_ptx_module_free);
}

/* ---- inputs ------------------------------------------------------------------------------ */

static const uint32_t edges[] = {
  0x00000000, 0x00000001, 0x0000007f, 0x00000080, 0x000000ff, 0x00007fff, 0x00008000,
  0x0000ffff, 0x7fffffff, 0x80000000, 0xffffffff, 0x00000020, 0x00000021, 0xfffffffe,
  0x7f7f7f7f, 0x80808080, 0x7fff8000, 0x80007fff, 0x01ff0101, 0xff01ff7f, 0x00ff00ff,
  0xff00ff00, 0x7f80ff01, 0x0180fe7f,
};

/* A word whose bytes are often boundary values or small shift counts */
static uint32_t
random_word (GRand *rand)
{
  static const uint8_t bytes[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff };
  uint32_t w = 0;

  switch (g_rand_int_range (rand, 0, 8))
    {
    case 0: case 1: return g_rand_int (rand);
    case 2: return (uint32_t) g_rand_int_range (rand, -40, 40);
    default: break;
    }
  for (int k = 0; k < 4; k++)
    {
      uint32_t v;

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0: v = bytes[g_rand_int_range (rand, 0, G_N_ELEMENTS (bytes))]; break;
        case 1: v = (uint32_t) g_rand_int_range (rand, 0, 40); break;
        default: v = g_rand_int (rand) & 0xff; break;
        }
      w |= v << (8 * k);
    }
  return w;
}

typedef struct
{
  uint32_t a[N_LANES], b[N_LANES], c[N_LANES];
} Inputs;

/* Lanes crossing the edge values for a and b, the rest random; lanes
 * where a form's values are ambiguous (ref_eval FALSE) get other random
 * values */
static void
make_inputs (Inputs     *in,
             const Ref  *refs,
             guint       n,
             GRand      *rand)
{
  guint ne = G_N_ELEMENTS (edges);

  for (guint lane = 0; lane < N_LANES; lane++)
    {
      for (int tries = 0;; tries++)
        {
          gboolean ok = TRUE;
          uint32_t d;

          if (tries == 0 && lane < ne * ne)
            {
              in->a[lane] = edges[lane / ne];
              in->b[lane] = edges[lane % ne];
              in->c[lane] = lane % 3 == 0 ? edges[(lane * 7) % ne] : random_word (rand);
            }
          else
            {
              in->a[lane] = random_word (rand);
              in->b[lane] = random_word (rand);
              in->c[lane] = random_word (rand);
            }
          for (guint k = 0; k < n && ok; k++)
            ok = ref_eval (&refs[k], in->a[lane], in->b[lane], in->c[lane], &d);
          if (ok)
            break;
          g_assert_cmpint (tries, <, 100000);
        }
    }
}

/* ---- the sweeps ------------------------------------------------------------------------- */

typedef struct
{
  char *name;
  GArray *forms;                /* Form */
} Group;

static GPtrArray *groups;       /* Group, every kernel of the sweeps */
static guint64 n_compared;

static void
group_free (gpointer data)
{
  Group *g = data;

  g_free (g->name);
  g_array_unref (g->forms);
  g_free (g);
}

static Group *
group_new (const char *fmt,
           ...) G_GNUC_PRINTF (1, 2);

static Group *
group_new (const char *fmt,
           ...)
{
  Group *g = g_new0 (Group, 1);
  va_list ap;

  va_start (ap, fmt);
  g->name = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g->forms = g_array_new (FALSE, TRUE, sizeof (Form));
  g_ptr_array_add (groups, g);
  return g;
}

static Form *
group_add (Group      *g,
           const char *opc,
           const char *types,
           const char *mods,
           const char *dsel,
           const char *asel,
           const char *bsel,
           int         n_ops)
{
  Form f = { 0 };

  f.opc = opc;
  g_strlcpy (f.types, types, sizeof f.types);
  g_strlcpy (f.mods, mods, sizeof f.mods);
  g_strlcpy (f.dsel, dsel, sizeof f.dsel);
  g_strlcpy (f.asel, asel, sizeof f.asel);
  g_strlcpy (f.bsel, bsel, sizeof f.bsel);
  f.n_ops = n_ops;
  g_array_append_val (g->forms, f);
  return &g_array_index (g->forms, Form, g->forms->len - 1);
}

static const char *const types3[] = {
  ".u32.u32.u32", ".u32.u32.s32", ".u32.s32.u32", ".u32.s32.s32",
  ".s32.u32.u32", ".s32.u32.s32", ".s32.s32.u32", ".s32.s32.s32",
};
static const char *const types2[] = { ".u32.u32", ".u32.s32", ".s32.u32", ".s32.s32" };
static const char *const parts[] = { "", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1" };

typedef struct
{
  const char *mods, *dsel;
  int n_ops;
} Mode;

/* How a group's name tells a merge, or a c that nothing reads */
static const char *
mode_suffix (const Mode *m)
{
  static char buf[16];

  if (m->dsel[0] != '\0')
    g_snprintf (buf, sizeof buf, " d%s", m->dsel);
  else
    g_strlcpy (buf, m->n_ops == 4 && m->mods[0] == '\0' ? " c unread" : "", sizeof buf);
  return buf;
}

static void
build_scalar (void)
{
  static const char *const arith[] = { "vadd", "vsub", "vabsdiff", "vmin", "vmax" };
  /* secondary operation or merge: mods, dsel, operands */
  static const Mode modes[] = {
    { "", "", 3 }, { ".sat", "", 3 }, { ".add", "", 4 }, { ".min", "", 4 }, { ".max", "", 4 },
    { ".sat.add", "", 4 }, { ".sat.min", "", 4 }, { ".sat.max", "", 4 }, { "", "", 4 },
    { "", ".b0", 4 }, { "", ".b1", 4 }, { "", ".b2", 4 }, { "", ".b3", 4 },
    { "", ".h0", 4 }, { "", ".h1", 4 }, { ".sat", ".b0", 4 }, { ".sat", ".b1", 4 },
    { ".sat", ".b2", 4 }, { ".sat", ".b3", 4 }, { ".sat", ".h0", 4 }, { ".sat", ".h1", 4 },
  };
  static const char *const cmps[] = { ".eq", ".ne", ".lt", ".le", ".gt", ".ge" };

  for (guint o = 0; o < G_N_ELEMENTS (arith); o++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      {
        Group *g = group_new ("%s%s%s", arith[o], modes[m].mods, mode_suffix (&modes[m]));

        for (guint t = 0; t < G_N_ELEMENTS (types3); t++)
          group_add (g, arith[o], types3[t], modes[m].mods, modes[m].dsel,
                     parts[(t + m + o) % G_N_ELEMENTS (parts)],
                     parts[(t * 3 + m * 2 + o + 1) % G_N_ELEMENTS (parts)], modes[m].n_ops);
      }

  /* vshl, vshr: .dtype.atype.u32 and a shift mode */
  for (guint o = 0; o < 2; o++)
    for (guint w = 0; w < 2; w++)
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          const char *opc = o == 0 ? "vshl" : "vshr";
          g_autofree char *mods = g_strconcat (w == 0 ? ".clamp" : ".wrap", modes[m].mods, NULL);
          /* vshl's values are often refused where more than its low 32 bits
           * matter: one kernel per form, so that the inputs can avoid them */
          gboolean alone = o == 0 && (strstr (mods, ".sat") || strstr (mods, ".m"));
          Group *g = NULL;

          for (guint t = 0; t < G_N_ELEMENTS (types3); t += 2)
            {
              if (g == NULL || alone)
                g = group_new ("%s%s%s%s%s", opc, mods, mode_suffix (&modes[m]),
                               alone ? " " : "", alone ? types3[t] : "");
              group_add (g, opc, types3[t], mods, modes[m].dsel,
                       parts[(t + m + w) % G_N_ELEMENTS (parts)],
                         parts[(t * 3 + m * 2 + w + 1) % G_N_ELEMENTS (parts)], modes[m].n_ops);
            }
        }

  /* vset: .atype.btype.cmp, no .sat */
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      Group *g;

      if (strstr (modes[m].mods, ".sat") != NULL)
        continue;
      g = group_new ("vset%s%s", modes[m].mods, mode_suffix (&modes[m]));
      for (guint t = 0; t < G_N_ELEMENTS (types2); t++)
        for (guint k = 0; k < G_N_ELEMENTS (cmps); k++)
          {
            g_autofree char *mods = g_strconcat (cmps[k], modes[m].mods, NULL);

            group_add (g, "vset", types2[t], mods, modes[m].dsel,
                       parts[(t + k + m) % G_N_ELEMENTS (parts)],
                       parts[(t * 2 + k * 3 + m + 1) % G_N_ELEMENTS (parts)], modes[m].n_ops);
          }
    }

  /* Literal operands */
  {
    Group *g = group_new ("literal operands");
    static const char *const lits[] = { "5", "-5", "0x80", "0xffffffff", "33", "0" };

    for (guint o = 0; o < G_N_ELEMENTS (arith); o++)
      for (guint t = 0; t < G_N_ELEMENTS (types3); t += 3)
        {
          Form *f = group_add (g, arith[o], types3[t], o % 2 ? ".sat" : "", "", parts[t % 7], "",
                               3);

          f->b_lit = lits[(o + t) % G_N_ELEMENTS (lits)];
          f = group_add (g, arith[o], types3[t], ".add", "", "", parts[(t + 2) % 7], 4);
          f->a_lit = lits[(o + t + 3) % G_N_ELEMENTS (lits)];
        }
    group_add (g, "vshr", ".s32.s32.u32", ".clamp", "", ".h1", "", 3)->b_lit = "33";
    group_add (g, "vshl", ".u32.u32.u32", ".wrap", "", "", "", 3)->b_lit = "35";
    group_add (g, "vset", ".s32.u32", ".lt", "", "", "", 3)->b_lit = "0x80000000";
  }
}

static void
build_vmad (void)
{
  static const char *const mods[] = {
    "", ".sat", ".shr7", ".shr15", ".sat.shr7", ".sat.shr15", ".po", ".po.sat", ".po.sat.shr15",
    ".po.shr7",
  };
  /* negated a, b, c */
  static const gboolean negs[][3] = {
    { FALSE, FALSE, FALSE }, { TRUE, FALSE, FALSE }, { FALSE, TRUE, FALSE },
    { TRUE, TRUE, FALSE }, { FALSE, FALSE, TRUE },
  };

  for (guint m = 0; m < G_N_ELEMENTS (mods); m++)
    for (guint n = 0; n < G_N_ELEMENTS (negs); n++)
      {
        gboolean po = strstr (mods[m], ".po") != NULL;
        gboolean any_neg = negs[n][0] || negs[n][1] || negs[n][2];
        /* The (u32 * u32) - c kernels lose the lanes with bit 31 of c set
         * to the ambiguity: the other types go in a kernel of their own */
        for (int uu = 0; uu < 2; uu++)
          {
            Group *g;

            if (po && any_neg)
              continue;
            g = group_new ("vmad%s%s%s%s%s", mods[m], negs[n][0] ? " -a" : "",
                           negs[n][1] ? " -b" : "", negs[n][2] ? " -c" : "",
                           uu ? " (u32 * u32)" : "");
            for (guint t = 0; t < G_N_ELEMENTS (types3); t++)
              {
                Form *f;

                if ((strncmp (types3[t] + 4, ".u32.u32", 8) == 0) != uu)
                  continue;
                f = group_add (g, "vmad", types3[t], mods[m], "",
                               parts[(t + m + n) % G_N_ELEMENTS (parts)],
                               parts[(t * 3 + m * 2 + n + 1) % G_N_ELEMENTS (parts)], 4);
                f->neg_a = negs[n][0];
                f->neg_b = negs[n][1];
                f->neg_c = negs[n][2];
              }
          }
      }
}

static void
build_simd (void)
{
  static const char *const ops[] = { "vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax" };
  static const char *const masks2[] = { "", ".h0", ".h1", ".h10" };
  static const char *const masks4[] = {
    "", ".b0", ".b1", ".b10", ".b2", ".b20", ".b21", ".b210", ".b3", ".b30", ".b31", ".b310",
    ".b32", ".b320", ".b321", ".b3210",
  };
  static const char *const sels2[] = {
    "", ".h10", ".h32", ".h00", ".h33", ".h21", ".h03", ".h12", ".h31", ".h20",
  };
  static const char *const sels4[] = {
    "", ".b3210", ".b7654", ".b0000", ".b7777", ".b0123", ".b4567", ".b7531", ".b6420",
    ".b1357", ".b3300", ".b5274",
  };
  static const char *const modes[] = { "", ".sat", ".add" };
  static const char *const cmps[] = { ".eq", ".ne", ".lt", ".le", ".gt", ".ge" };

  for (int n = 2; n <= 4; n += 2)
    {
      const char *const *masks = n == 2 ? masks2 : masks4;
      const char *const *sels = n == 2 ? sels2 : sels4;
      guint n_masks = n == 2 ? G_N_ELEMENTS (masks2) : G_N_ELEMENTS (masks4);
      guint n_sels = n == 2 ? G_N_ELEMENTS (sels2) : G_N_ELEMENTS (sels4);

      for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
        for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
          {
            g_autofree char *name = g_strdup_printf ("%s%d", ops[o], n);
            const char *opc = g_intern_string (name);
            Group *g = group_new ("%s%s", opc, modes[m]);

            for (guint t = 0; t < G_N_ELEMENTS (types3); t++)
              for (guint k = 0; k < 4; k++)
                group_add (g, opc, types3[t], modes[m],
                           masks[(t * 4 + k + m) % n_masks], sels[(t + k * 3 + o) % n_sels],
                           sels[(t * 2 + k + m + o + 1) % n_sels], 4);
          }
      for (guint m = 0; m < 2; m++)
        {
          const char *opc = n == 2 ? "vset2" : "vset4";
          Group *g = group_new ("%s%s", opc, m ? " .add" : "");

          for (guint t = 0; t < G_N_ELEMENTS (types2); t++)
            for (guint k = 0; k < G_N_ELEMENTS (cmps); k++)
              for (guint j = 0; j < 2; j++)
                {
                  g_autofree char *mods = g_strconcat (cmps[k], m ? ".add" : "", NULL);

                  group_add (g, opc, types2[t], mods, masks[(t * 6 + k * 2 + j + m) % n_masks],
                             sels[(t + k + j * 5) % n_sels], sels[(t * 3 + k + j + 1) % n_sels], 4);
                }
        }
    }
}

static void
test_group (gconstpointer data)
{
  const Group *g = data;
  const Form *forms = (const Form *) (gpointer) g->forms->data;
  guint n = g->forms->len, bad = 0;
  g_autofree Ref *refs = g_new0 (Ref, n);
  g_autofree Inputs *in = g_new0 (Inputs, 1);
  GRand *rand = g_rand_new_with_seed (g_str_hash (g->name));
  g_autoptr(GPtrArray) insns = g_ptr_array_new_with_free_func (g_free);
  Outcome o;

  for (guint k = 0; k < n; k++)
    ref_decode (&forms[k], &refs[k]);
  make_inputs (in, refs, n, rand);
  g_rand_free (rand);

  for (guint k = 0; k < n; k++)
    g_ptr_array_add (insns, form_text (&forms[k]));
  run_insns ((const char *const *) insns->pdata, n, in->a, in->b, in->c, N_LANES, &o);
  if (!o.parsed || o.unsupported)
    {
      g_autofree char *ptx = kernel_text ("k", (const char *const *) insns->pdata, n, N_LANES);

      g_test_fail_printf ("%s: %s: %s\n%s", g->name, o.parsed ? "unsupported" : "parse error",
                          o.message, ptx);
      outcome_clear (&o);
      return;
    }
  for (guint k = 0; k < n; k++)
    for (guint lane = 0; lane < N_LANES; lane++)
      {
        uint32_t exp, act = o.d[k * N_LANES + lane];

        g_assert_true (ref_eval (&refs[k], in->a[lane], in->b[lane], in->c[lane], &exp));
        if (exp == act)
          continue;
        if (bad++ < MAX_REPORT)
          g_test_message ("%s  a=0x%08x b=0x%08x c=0x%08x: expected 0x%08x, got 0x%08x",
                          (const char *) insns->pdata[k], in->a[lane], in->b[lane], in->c[lane],
                          exp, act);
      }
  n_compared += (guint64) n * N_LANES;
  g_test_message ("%s: %u forms x %d lanes compared", g->name, n, N_LANES);
  if (bad > 0)
    g_test_fail_printf ("%s: %u results differ from the reference", g->name, bad);
  outcome_clear (&o);
}

/* ---- values worked out by hand ---------------------------------------------------------- */

typedef struct
{
  const char *insn;             /* with %d, %a, %b, %c */
  uint32_t a, b, c, d;
  const char *why;
} Literal;

static const Literal literals[] = {
  /* bytes of a 7f ff 01 ff, of b 01 01 ff 01 (byte 0 first): sums 0x80,
   * 0x100, 0x100, 0x100, the last three clamped to 0xff */
  { "vadd4.u32.u32.u32.sat %d, %a, %b, %c;", 0xff01ff7f, 0x01ff0101, 0, 0xffffff80,
    "unsigned bytes saturate at 0xff" },
  /* signed: 127 + 1 = 128 -> 127, -1 + 1, 1 + -1, -1 + 1 */
  { "vadd4.s32.s32.s32.sat %d, %a, %b, %c;", 0xff01ff7f, 0x01ff0101, 0, 0x0000007f,
    "signed bytes saturate at 127" },
  { "vadd4.u32.u32.u32 %d, %a, %b, %c;", 0xff01ff7f, 0x01ff0101, 0, 0x00000080,
    "without .sat each byte keeps its low 8 bits" },
  /* 4 - 2, 3 - 2, 2 - 2, 1 - 2 = -1 -> 0 */
  { "vsub4.u32.u32.u32.sat %d, %a, %b, %c;", 0x01020304, 0x02020202, 0, 0x00000102,
    "unsigned bytes saturate at 0" },
  /* |4-1| + |3-2| + |2-3| + |1-4| = 8, plus c = 100 */
  { "vabsdiff4.u32.u32.u32.add %d, %a, %b, %c;", 0x01020304, 0x04030201, 100, 108,
    "the accumulate sums the four differences into c" },
  /* (255 + 1 + 1) >> 1 = 128, (0 + 255 + 1) >> 1 = 128, (0 + 0 + 1) >> 1 = 0,
   * (1 + 2 + 1) >> 1 = 2 */
  { "vavrg4.u32.u32.u32 %d, %a, %b, %c;", 0x010000ff, 0x0200ff01, 0, 0x02008080,
    "the average rounds up" },
  /* -1 + -2 = -3, negative: -3 >> 1 = -2 = 0xfe; 0 + 0 = 0 -> (0 + 1) >> 1 = 0;
   * 1 + 2 = 3 -> 2 */
  { "vavrg4.s32.s32.s32 %d, %a, %b, %c;", 0x000100ff, 0x000200fe, 0, 0x000200fe,
    "the signed average of a negative sum rounds down" },
  /* 4 < 1 no, 3 < 2 no, 2 < 3 yes, 1 < 4 yes: 2, plus c = 10 */
  { "vset4.u32.u32.lt.add %d, %a, %b, %c;", 0x01020304, 0x04030201, 10, 12,
    "vset4.add counts the true comparisons into c" },
  /* bytes of a 1, -1, -128, 0 against b 0, 0, 1, 0: only 1 > 0 */
  { "vset4.s32.s32.gt %d, %a, %b, %c;", 0x0080ff01, 0x00010000, 0xaaaaaaaa, 0x00000001,
    "signed byte comparisons, all four bytes written" },
  { "vset4.s32.s32.gt %d.b20, %a, %b, %c;", 0x0080ff01, 0x00010000, 0xaaaaaaaa, 0xaa00aa01,
    "the mask .b20 writes bytes 2 and 0, the others come from c" },
  /* -32768 + -32768 -> -32768; 32767 + 1 -> 32767 */
  { "vadd2.s32.s32.s32.sat %d, %a, %b, %c;", 0x7fff8000, 0x00018000, 0, 0x7fff8000,
    "signed half-words saturate" },
  /* a.h23: element 1 is half-word 2 of {b, a} (b's low half, 0x40), element
   * 0 half-word 3 (0x30); b.h01: element 1 is a's low half (2), element 0
   * a's high half (1) */
  { "vadd2.u32.u32.u32 %d, %a.h23, %b.h01, %c;", 0x00010002, 0x00300040, 0, 0x00420031,
    "the selectors pick half-words of {b, a}" },
  /* min (5, 3) + min (-1, 2) = 3 - 1 = 2 */
  { "vmin2.s32.s32.s32.add %d, %a, %b, %c;", 0xffff0005, 0x00020003, 0, 2,
    "the accumulate adds signed results" },
  { "vadd2.u32.u32.u32 %d.h1, %a, %b, %c;", 0x00010002, 0x00100020, 0x12345678, 0x00115678,
    "the mask .h1 writes the high half-word, the low one comes from c" },
  /* 0xff + 2 = 0x101 -> .sat to a byte: 0xff, into byte 1 of c */
  { "vadd.u32.u32.u32.sat %d.b1, %a, %b, %c;", 0x000000ff, 0x00000002, 0x11223344, 0x1122ff44,
    "a merge saturates to the size of the part" },
  /* a.b0 = 0x80 = -128, b = 0x7fffffff: far below -32768 -> 0x8000 into h1 */
  { "vsub.s32.s32.s32.sat %d.h1, %a.b0, %b, %c;", 0x00000080, 0x7fffffff, 0x12345678, 0x80005678,
    "a signed merge into a half-word saturates at -32768" },
  { "vadd.u32.u32.u32 %d.h0, %a, %b, %c;", 0x0001ffff, 0x00000003, 0xabcd0000, 0xabcd0002,
    "a merge without .sat keeps the low bits" },
  /* 0x8000 * 0x8000 = 2^30, >> 15 = 2^15 */
  { "vmad.u32.u32.u32.shr15 %d, %a.h0, %b.h0, %c;", 0x00008000, 0x00008000, 0, 0x00008000,
    ".shr15 scales the sum" },
  { "vmad.s32.s32.s32.sat %d, %a, %b, %c;", 0x7fffffff, 2, 0, 0x7fffffff,
    "vmad saturates to the signed 32-bit range" },
  /* 3 * 5 - 20 = -5 */
  { "vmad.s32.u32.u32.sat %d, %a, %b, -%c;", 3, 5, 20, 0xfffffffb,
    "a negated c makes the result signed" },
  { "vmad.u32.u32.u32.po %d, %a, %b, %c;", 3, 5, 7, 23, ".po adds one" },
  { "vmad.s32.u32.u32 %d, -%a, %b, %c;", 0x10, 0x10, 0, 0xffffff00, "-a negates the product" },
  /* 0xffff * 0xffff = 0xfffe0001 + 0xffff = 0xffff0000; unsigned, no clamp */
  { "vmad.u32.u32.u32.sat %d, %a.h1, %b.h0, %c;", 0xffff0000, 0x0000ffff, 0xffff, 0xffff0000,
    "an unsigned vmad below 2^32 is not clamped" },
  { "vset.u32.u32.lt.add %d, %a, %b, %c;", 1, 2, 41, 42, "vset.add adds 1 to c" },
  { "vset.s32.u32.lt %d, %a, %b;", 0xffffffff, 0, 0, 1, "-1 (s32) < 0 (u32)" },
  { "vset.u32.u32.lt %d, %a, %b;", 0xffffffff, 0, 0, 0, "0xffffffff (u32) > 0" },
  /* 1 << 32 = 2^32, clamped to 0xffffffff */
  { "vshl.u32.u32.u32.clamp.sat %d, %a, %b;", 1, 40, 0, 0xffffffff,
    ".clamp makes a shift of 40 one of 32, and .sat clamps 2^32" },
  /* 33 & 31 = 1: -2^31 >> 1 */
  { "vshr.s32.s32.u32.wrap %d, %a, %b;", 0x80000000, 33, 0, 0xc0000000,
    ".wrap takes the count modulo 32, and a signed a shifts arithmetically" },
  /* -3 is below c = 0 as an s33: .max gives 0 */
  { "vsub.u32.u32.u32.max %d, %a, %b, %c;", 1, 4, 0, 0,
    ".max compares the 33-bit result with c" },
  { "vmax.s32.s32.s32.min %d, %a, %b, %c;", 0xfffffff0, 0xfffffff8, 0xfffffff9, 0xfffffff8,
    "secondary .min of signed values" },
};

static void
literal_forms (const Literal *l,
               Form          *f)
{
  /* The literal's text is one form: hand it to the reference through a Form */
  g_auto(GStrv) words = g_strsplit_set (l->insn, " ,;", -1);
  char *dot = strchr (words[0], '.');
  const char *dsel;
  guint n_ops = 0;

  memset (f, 0, sizeof *f);
  {
    g_autofree char *opc = g_strndup (words[0], (gsize) (dot - words[0]));

    f->opc = g_intern_string (opc);
  }
  {
    /* types: the first two or three words after the opcode */
    g_auto(GStrv) mods = g_strsplit (dot + 1, ".", -1);
    guint nt = strncmp (f->opc, "vset", 4) == 0 ? 2 : 3;

    for (guint i = 0; mods[i] != NULL; i++)
      {
        char *s = i < nt ? f->types : f->mods;
        gsize size = i < nt ? sizeof f->types : sizeof f->mods;

        g_strlcat (s, ".", size);
        g_strlcat (s, mods[i], size);
      }
  }
  for (guint i = 1; words[i] != NULL; i++)
    {
      const char *w = words[i];
      gboolean neg = w[0] == '-';
      const char *sel;

      if (w[0] == '\0')
        continue;
      w += neg;
      sel = strchr (w, '.');
      dsel = sel ? sel : "";
      switch (w[1])
        {
        case 'd': g_strlcpy (f->dsel, dsel, sizeof f->dsel); break;
        case 'a': g_strlcpy (f->asel, dsel, sizeof f->asel); f->neg_a = neg; break;
        case 'b': g_strlcpy (f->bsel, dsel, sizeof f->bsel); f->neg_b = neg; break;
        case 'c': f->neg_c = neg; break;
        default: g_assert_not_reached ();
        }
      n_ops++;
    }
  f->n_ops = (int) n_ops;
}

static void
test_literals (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      const Literal *l = &literals[i];
      Form f;
      Ref r;
      uint32_t ref_d;
      Outcome o;
      g_autofree char *text = NULL;

      literal_forms (l, &f);
      text = form_text (&f);
      g_assert_cmpstr (text, ==, l->insn);
      ref_decode (&f, &r);
      g_assert_true (ref_eval (&r, l->a, l->b, l->c, &ref_d));
      if (ref_d != l->d)
        g_test_fail_printf ("the reference gives 0x%08x for %s (0x%08x, 0x%08x, 0x%08x), by hand "
                            "0x%08x: %s", ref_d, l->insn, l->a, l->b, l->c, l->d, l->why);
      run_insns (&l->insn, 1, &l->a, &l->b, &l->c, 1, &o);
      if (!o.parsed || o.unsupported)
        g_test_fail_printf ("%s: %s", l->insn, o.message);
      else if (o.d[0] != l->d)
        g_test_fail_printf ("%s (0x%08x, 0x%08x, 0x%08x) gives 0x%08x, by hand 0x%08x: %s",
                            l->insn, l->a, l->b, l->c, o.d[0], l->d, l->why);
      outcome_clear (&o);
    }
}

/* ---- refusals ---------------------------------------------------------------------------- */

typedef struct
{
  const char *insn;
  uint32_t a, b, c;
  const char *why;              /* a word of the fault's message */
} Refusal;

static const Refusal refusals[] = {
  /* Values the ISA leaves open */
  { "vadd.u32.u32.u32.min %d, %a, %b, %c;", 0xffffffff, 0xffffffff, 5, "33 bits" },
  { "vshl.u32.u32.u32.clamp.sat %d, %a, %b;", 4, 32, 0, "34 bits" },
  { "vshl.s32.s32.u32.wrap.max %d, %a, %b, %c;", 0x40000000, 8, 0, "33 bits" },
  { "vmad.u32.u32.u32.sat %d, %a, %b, -%c;", 1, 1, 0x80000000, "bit 31 of c" },
  { "vmad.s32.u32.u32.shr7 %d, %a, %b, -%c;", 1, 1, 0xffffffff, "bit 31 of c" },
  { "vmad.u32.u32.u32.sat %d, %a, %b, -5;", 1, 1, 0, "negative literal" },
  /* Forms ptxas refuses (the parser takes them) */
  { "vadd2.s32.s32.u32.sat.add %d, %a, %b, %c;", 0, 0, 0, ".sat and .add" },
  { "vadd2.u32.u32.u32.min %d, %a, %b, %c;", 0, 0, 0, "secondary operation" },
  { "vadd4.u32.u32.u32 %d.b02, %a, %b, %c;", 0, 0, 0, "mask" },
  { "vadd4.u32.u32.u32 %d.h0, %a, %b, %c;", 0, 0, 0, "mask" },
  { "vadd4.u32.u32.u32 %d, %a.b10, %b, %c;", 0, 0, 0, "selector" },
  { "vadd4.u32.u32.u32 %d, %a.b0, %b, %c;", 0, 0, 0, "selector" },
  { "vavrg2.u32.u32.u32 %d, %a.h3, %b, %c;", 0, 0, 0, "selector" },
  { "vadd2.u32.u32.u32 %d, %a.h30, %b.b3210, %c;", 0, 0, 0, "selector" },
  { "vadd2.u32.u32.u32 %d.h01, %a, %b, %c;", 0, 0, 0, "mask" },
  { "vadd4.u32.u32.u32 %d, %a, 7, %c;", 0, 0, 0, "register" },
  { "vadd4.u32.u32.u32 %d, %a, %b;", 0, 0, 0, "four operands" },
  { "vset4.u32.u32.ne.max %d, %a, %b, %c;", 0, 0, 0, "secondary operation" },
  { "vset2.u32.u32.lt.sat %d, %a, %b, %c;", 0, 0, 0, ".sat" },
  { "vset.u32.u32.lt.sat %d, %a, %b;", 0, 0, 0, ".sat" },
  { "vset.u32.u32.lo %d, %a, %b;", 0, 0, 0, "comparison" },
  { "vset.u32.u32.u32.lt %d, %a, %b;", 0, 0, 0, ".atype.btype" },
  { "vadd.u32.u32.u32 %d.b0, %a, %b;", 0, 0, 0, "no c" },
  { "vadd.u32.u32.u32.add %d.b0, %a, %b, %c;", 0, 0, 0, "merge" },
  { "vadd.u32.u32.u32 %d, %a.b3210, %b;", 0, 0, 0, "SIMD selector" },
  { "vadd.u32.u32.u32 %d, %a, %b, %c.b1;", 0, 0, 0, "selector on c" },
  { "vadd.u32.u32.u32 %d, -%a, %b;", 0, 0, 0, "negated" },
  { "vadd.b32.u32.u32 %d, %a, %b;", 0, 0, 0, ".u32 or .s32" },
  { "vadd.u32.u32.u32.clamp %d, %a, %b;", 0, 0, 0, "shift mode" },
  { "vshl.u32.u32.u32 %d, %a, %b;", 0, 0, 0, ".clamp" },
  { "vshl.u32.u32.s32.clamp %d, %a, %b;", 0, 0, 0, "shift count" },
  { "vmad.u32.u32.u32 %d, %a, %b;", 0, 0, 0, "four operands" },
  { "vmad.u32.u32.u32.add %d, %a, %b, %c;", 0, 0, 0, "secondary operation" },
  { "vmad.u32.u32.u32 %d.b0, %a, %b, %c;", 0, 0, 0, "selector on d" },
  { "vmad.u32.u32.u32 %d, %a, %b, %c.h1;", 0, 0, 0, "selector on c" },
  { "vmad.s32.u32.u32 %d, -%a, %b, -%c;", 0, 0, 0, "both" },
  { "vmad.u32.u32.u32.po %d, -%a, %b, %c;", 0, 0, 0, ".po" },
  { "vmad.u32.u32.u32.shr7.shr15 %d, %a, %b, %c;", 0, 0, 0, ".shr7" },
  { "vmad.u32.u32.u32.shr9 %d, %a, %b, %c;", 0, 0, 0, "modifier" },
};

static void
test_refused (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      const Refusal *x = &refusals[i];
      Outcome o;

      run_insns (&x->insn, 1, &x->a, &x->b, &x->c, 1, &o);
      if (o.parsed && !o.unsupported)
        g_test_fail_printf ("%s (0x%08x, 0x%08x, 0x%08x) ran, giving 0x%08x: it must fault",
                            x->insn, x->a, x->b, x->c, o.d[0]);
      else if (o.unsupported && strstr (o.message, x->why) == NULL)
        g_test_fail_printf ("%s: the fault \"%s\" does not say \"%s\"", x->insn, o.message,
                            x->why);
      g_test_message ("%s: %s: %s", x->insn, o.parsed ? "unsupported" : "parse error", o.message);
      outcome_clear (&o);
    }
}

/* ---- ptxas ------------------------------------------------------------------------------- */

/* Every kernel of the sweeps and of the literal values, as one module */
static void
test_ptxas (void)
{
  g_autoptr(KsToolchain) tc = ks_toolchain_find (NULL);
  g_autoptr(GString) module = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL, *path = NULL, *out = NULL, *err = NULL;
  const char *ptxas = tc ? ks_toolchain_get_path (tc, KS_TOOL_PTXAS) : NULL;
  const char *argv[] = { ptxas, "-arch=sm_80", NULL, "-o", NULL, NULL };
  int status = 0;

  if (ptxas == NULL)
    {
      g_test_skip ("ptxas not found (PATH, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda/bin)");
      return;
    }
  for (guint i = 0; i < groups->len; i++)
    {
      const Group *g = g_ptr_array_index (groups, i);
      g_autoptr(GPtrArray) insns = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *entry = g_strdup_printf ("k%u", i);
      g_autofree char *text = NULL;

      for (guint k = 0; k < g->forms->len; k++)
        g_ptr_array_add (insns, form_text (&g_array_index (g->forms, Form, k)));
      text = kernel_text (entry, (const char *const *) insns->pdata, insns->len, N_LANES);
      /* one header for the module */
      g_string_append (module, i == 0 ? text : strstr (text, ".visible"));
    }
  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      g_autofree char *entry = g_strdup_printf ("l%u", i);
      g_autofree char *text = kernel_text (entry, &literals[i].insn, 1, 1);

      g_string_append (module, strstr (text, ".visible"));
    }
  dir = g_dir_make_tmp ("test-sim-video-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "video.ptx", NULL);
  out = g_build_filename (dir, "video.cubin", NULL);
  g_file_set_contents (path, module->str, (gssize) module->len, &error);
  g_assert_no_error (error);
  argv[2] = path;
  argv[4] = out;
  g_clear_pointer (&err, g_free);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_fail_printf ("ptxas refuses the kernels (%s, kept):\n%s", path, err);
      return;
    }
  g_remove (out);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  groups = g_ptr_array_new_with_free_func (group_free);
  build_scalar ();
  build_vmad ();
  build_simd ();
  g_test_add_func ("/sim/video/literals", test_literals);
  g_test_add_func ("/sim/video/refused", test_refused);
  for (guint i = 0; i < groups->len; i++)
    {
      const Group *g = g_ptr_array_index (groups, i);
      g_autofree char *path = g_strdup_printf ("/sim/video/sweep/%s", g->name);

      g_strdelimit (path + strlen ("/sim/video/sweep/"), " /", '_');
      g_test_add_data_func (path, g, test_group);
    }
  g_test_add_func ("/sim/video/ptxas", test_ptxas);
  ret = g_test_run ();
  if (n_compared > 0)
    g_print ("# %" G_GUINT64_FORMAT " results compared in %u kernels\n", n_compared, groups->len);
  g_ptr_array_unref (groups);
  return ret;
}
