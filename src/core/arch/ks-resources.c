/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-resources.c: kernel resources from ptxas -v, cuobjdump
 * --dump-resource-usage, or an estimate from the PTX.
 *
 * The listings are read by hand rather than with PCRE2: each line is a list
 * of "NUMBER words" figures in no fixed order, which a split on commas reads
 * more plainly than one pattern per permutation would.
 */

#include <string.h>

#include "ks-resources.h"

G_DEFINE_QUARK (ks-resources-error-quark, ks_resources_error)

KsKernelResources *
ks_kernel_resources_new (const char        *name,
                         const char        *arch,
                         KsResourcesSource  source)
{
  KsKernelResources *res = g_new0 (KsKernelResources, 1);

  res->name = g_strdup (name);
  res->arch = g_strdup (arch);
  res->source = source;
  return res;
}

KsKernelResources *
ks_kernel_resources_copy (const KsKernelResources *res)
{
  KsKernelResources *copy;

  g_return_val_if_fail (res != NULL, NULL);

  copy = g_memdup2 (res, sizeof *res);
  copy->name = g_strdup (res->name);
  copy->arch = g_strdup (res->arch);
  return copy;
}

void
ks_kernel_resources_free (KsKernelResources *res)
{
  if (res == NULL)
    return;
  g_free (res->name);
  g_free (res->arch);
  g_free (res);
}

const char *
ks_resources_source_name (KsResourcesSource source)
{
  switch (source)
    {
    case KS_RESOURCES_SOURCE_PTXAS:
      return "ptxas";
    case KS_RESOURCES_SOURCE_RESOURCE_USAGE:
      return "resource-usage";
    case KS_RESOURCES_SOURCE_ESTIMATE:
      return "estimate";
    default:
      return "unknown";
    }
}

const KsKernelResources *
ks_resources_find (GPtrArray  *resources,
                   const char *name,
                   const char *arch)
{
  g_return_val_if_fail (resources != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < resources->len; i++)
    {
      const KsKernelResources *res = g_ptr_array_index (resources, i);

      if (g_strcmp0 (res->name, name) == 0
          && (arch == NULL || g_strcmp0 (res->arch, arch) == 0))
        return res;
    }
  return NULL;
}

/* ---------------------------------------------------------------- Lines */

static GPtrArray *
new_array (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ks_kernel_resources_free);
}

typedef struct
{
  const char *p, *end;
  uint32_t number;              /* of the line last returned, 1-based */
} LineReader;

/* The next line without its terminator, as a NUL-terminated copy (the
 * input is a counted buffer, and the field readers below want strings). */
static char *
next_line (LineReader *r)
{
  const char *start, *eol;
  size_t n;

  if (r->p >= r->end)
    return NULL;
  start = r->p;
  eol = memchr (start, '\n', r->end - start);
  if (eol == NULL)
    eol = r->end;
  r->p = eol < r->end ? eol + 1 : r->end;
  n = eol - start;
  if (n > 0 && start[n - 1] == '\r')
    n--;
  r->number++;
  return g_strndup (start, n);
}

static const char *
skip_space (const char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

/* An unsigned decimal at *s that fits 32 bits; advances *s past it */
static gboolean
read_u32 (const char **s,
          uint32_t    *out)
{
  const char *p = *s;
  uint64_t v = 0;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    {
      v = v * 10 + (uint64_t) (*p - '0');
      if (v > G_MAXUINT32)
        return FALSE;
      p++;
    }
  *out = (uint32_t) v;
  *s = p;
  return TRUE;
}

/* "N" or ptxas's old "N+M" (static + system part) */
static gboolean
read_sum (const char **s,
          uint32_t    *out)
{
  uint32_t a, b;

  if (!read_u32 (s, &a))
    return FALSE;
  if (**s == '+')
    {
      (*s)++;
      if (!read_u32 (s, &b) || (uint64_t) a + b > G_MAXUINT32)
        return FALSE;
      a += b;
    }
  *out = a;
  return TRUE;
}

static gboolean
parse_error (GError   **error,
             uint32_t   line,
             const char *fmt,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
parse_error (GError   **error,
             uint32_t   line,
             const char *fmt,
             ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, fmt);
  msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_set_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_PARSE, "line %u: %s", line, msg);
  return FALSE;
}

/* ---------------------------------------------------------------- ptxas -v */

typedef struct
{
  GPtrArray *out;
  KsKernelResources *current;   /* where "Used ..." and stack lines go */
  char *arch;                   /* of the last "Compiling entry function" */
  guint segment_start;          /* first record of this ptxas run (after its gmem line) */
  GString *tool_errors;
} PtxasState;

static KsKernelResources *
ptxas_add (PtxasState *st,
           const char *name,
           const char *arch,
           gboolean    is_entry,
           uint32_t    line)
{
  KsKernelResources *res = ks_kernel_resources_new (name, arch, KS_RESOURCES_SOURCE_PTXAS);

  res->is_entry = is_entry;
  res->line = line;
  g_ptr_array_add (st->out, res);
  return res;
}

/* One "N bytes smem" / "used N barriers" / ... figure of a "Used" or stack
 * line.  Unknown "N bytes WORDS" figures are accepted and dropped: new
 * ptxas versions have added figures before (barriers in 12.x, cumulative
 * stack size), and a resource we do not model must not make the whole
 * listing unreadable.  The stack line has had the same three figures for
 * years and is read strictly. */
static gboolean
ptxas_figure (KsKernelResources *res,
              const char        *field,
              gboolean           strict,
              uint32_t           line,
              GError           **error)
{
  const char *s = skip_space (field);
  uint32_t n;

  if (g_str_has_prefix (s, "Used "))
    s = skip_space (s + 5);
  if (g_str_has_prefix (s, "used "))
    {
      s = skip_space (s + 5);
      if (!read_u32 (&s, &n) || strcmp (s, " barriers") != 0)
        return parse_error (error, line, "cannot read the figure “%s”", field);
      res->barriers = n;
      res->fields |= KS_RESOURCES_HAS_BARRIERS;
      return TRUE;
    }

  if (!read_sum (&s, &n))
    return parse_error (error, line, "cannot read the figure “%s”", field);

  if (strcmp (s, " registers") == 0)
    {
      res->registers = n;
      res->fields |= KS_RESOURCES_HAS_REGISTERS;
    }
  else if (strcmp (s, " bytes smem") == 0)
    res->shared_static_bytes = n;
  else if (strcmp (s, " bytes lmem") == 0)
    res->local_bytes = MAX (res->local_bytes, n);
  else if (strcmp (s, " bytes stack frame") == 0)
    {
      res->local_bytes = n;
      res->fields |= KS_RESOURCES_HAS_STACK;
    }
  else if (strcmp (s, " bytes spill stores") == 0)
    res->spill_store_bytes = n;
  else if (strcmp (s, " bytes spill loads") == 0)
    res->spill_load_bytes = n;
  else if (strcmp (s, " bytes cumulative stack size") == 0)
    {
      res->cumulative_stack_bytes = n;
      res->fields |= KS_RESOURCES_HAS_CUMULATIVE_STACK;
    }
  else if (g_str_has_prefix (s, " bytes cmem["))
    {
      uint32_t bank;

      s += strlen (" bytes cmem[");
      if (!read_u32 (&s, &bank) || strcmp (s, "]") != 0)
        return parse_error (error, line, "cannot read the figure “%s”", field);
      if (bank >= KS_RESOURCES_N_CONSTANT_BANKS)
        return parse_error (error, line, "constant bank %u out of range in “%s”", bank, field);
      res->constant_bytes[bank] = n;
    }
  else if (strcmp (s, " textures") == 0 || strcmp (s, " samplers") == 0
           || strcmp (s, " surfaces") == 0)
    ;
  else if (!strict && g_str_has_prefix (s, " bytes ") && g_ascii_isalpha (s[7]))
    ;
  else
    return parse_error (error, line, "cannot read the figure “%s”", field);

  return TRUE;
}

static gboolean
ptxas_figures (KsKernelResources *res,
               const char        *list,
               gboolean           strict,
               uint32_t           line,
               GError           **error)
{
  g_auto(GStrv) fields = g_strsplit (list, ",", -1);

  for (guint i = 0; fields[i] != NULL; i++)
    {
      g_strstrip (fields[i]);
      if (!ptxas_figure (res, fields[i], strict, line, error))
        return FALSE;
    }
  return TRUE;
}

/* "Compiling entry function 'NAME' for 'ARCH'".  The name is found from the
 * last "' for '", as a demangled name may hold quotes ('x' template
 * arguments) but never that sequence with the arch after it. */
static gboolean
ptxas_compiling (PtxasState *st,
                 const char *rest,
                 gboolean    is_entry,
                 uint32_t    line,
                 GError    **error)
{
  g_autofree char *name = NULL;
  g_autofree char *arch = NULL;
  const char *sep = NULL, *q;
  size_t len = strlen (rest);

  if (len < 2 || rest[0] != '\'' || rest[len - 1] != '\'')
    return parse_error (error, line, "expected 'NAME' for 'ARCH' after “Compiling”");
  for (q = strstr (rest, "' for '"); q != NULL; q = strstr (q + 1, "' for '"))
    sep = q;
  if (sep == NULL || sep == rest)
    return parse_error (error, line, "expected 'NAME' for 'ARCH' after “Compiling”");

  /* The closing quote may be the one that opens the arch: "'k' for '" */
  if (sep + 7 >= rest + len - 1)
    return parse_error (error, line, "no architecture after “for”");
  name = g_strndup (rest + 1, sep - rest - 1);
  arch = g_strndup (sep + 7, rest + len - 1 - (sep + 7));

  /* Device functions that came before this kernel in the same ptxas run
   * (older versions and -c print them first) were compiled for it too. */
  for (guint i = st->segment_start; i < st->out->len; i++)
    {
      KsKernelResources *res = g_ptr_array_index (st->out, i);

      if (res->arch == NULL)
        res->arch = g_strdup (arch);
    }

  g_free (st->arch);
  st->arch = g_strdup (arch);
  st->current = ptxas_add (st, name, arch, is_entry, line);
  return TRUE;
}

static gboolean
ptxas_info (PtxasState *st,
            const char *msg,
            uint32_t    line,
            GError    **error)
{
  if (g_str_has_prefix (msg, "Compiling entry function "))
    return ptxas_compiling (st, msg + strlen ("Compiling entry function "), TRUE, line, error);
  if (g_str_has_prefix (msg, "Compiling function "))
    return ptxas_compiling (st, msg + strlen ("Compiling function "), FALSE, line, error);

  if (g_str_has_prefix (msg, "Function properties for "))
    {
      const char *name = skip_space (msg + strlen ("Function properties for "));

      if (*name == '\0')
        return parse_error (error, line, "no function name after “Function properties for”");
      /* For a kernel this follows its "Compiling" line; a device function
       * has no such line and gets a record of its own. */
      if (st->current == NULL || strcmp (st->current->name, name) != 0
          || (st->current->fields & KS_RESOURCES_HAS_STACK) != 0)
        st->current = ptxas_add (st, name, st->arch, FALSE, line);
      return TRUE;
    }

  if (g_str_has_prefix (msg, "Used "))
    {
      if (st->current == NULL)
        return parse_error (error, line, "resource figures before any function");
      return ptxas_figures (st->current, msg, FALSE, line, error);
    }

  /* "N bytes gmem[, N bytes cmem[K]...]" opens each ptxas run (module-scope
   * data, not any one function's) */
  if (g_ascii_isdigit (*msg) && strstr (msg, " bytes gmem") != NULL)
    {
      g_autoptr(KsKernelResources) scratch = ks_kernel_resources_new ("", NULL, 0);
      uint32_t n;
      const char *s = msg;

      if (!read_u32 (&s, &n) || !g_str_has_prefix (s, " bytes gmem"))
        return parse_error (error, line, "cannot read “%s”", msg);
      s += strlen (" bytes gmem");
      if (*s == ',' && !ptxas_figures (scratch, s + 1, FALSE, line, error))
        return FALSE;
      if (*s != ',' && *s != '\0')
        return parse_error (error, line, "cannot read “%s”", msg);

      st->current = NULL;
      st->segment_start = st->out->len;
      g_clear_pointer (&st->arch, g_free);
      return TRUE;
    }

  /* "Compile time = ...", "Overriding maximum register limit ...", and
   * whatever a later ptxas says */
  return TRUE;
}

static gboolean
ptxas_line (PtxasState *st,
            const char *text,
            uint32_t    line,
            GError    **error)
{
  const char *colon, *kind_end, *kind;
  g_autofree char *severity = NULL;

  if (!g_str_has_prefix (text, "ptxas"))
    {
      const char *s = skip_space (text);

      /* The indented stack line after "Function properties for" */
      if (s != text && g_ascii_isdigit (*s) && strstr (s, " stack frame") != NULL)
        {
          if (st->current == NULL)
            return parse_error (error, line, "stack figures before any function");
          /* Unchanged since CUDA 4: read strictly */
          if (!ptxas_figures (st->current, s, TRUE, line, error))
            return FALSE;
          st->current->fields |= KS_RESOURCES_HAS_STACK;
        }
      /* Anything else is nvcc's or the host compiler's */
      return TRUE;
    }

  /* "ptxas info    : MSG", "ptxas FILE, line N; error   : MSG" */
  colon = strstr (text, " : ");
  if (colon == NULL)
    return TRUE;
  kind_end = colon;
  while (kind_end > text && kind_end[-1] == ' ')
    kind_end--;
  kind = kind_end;
  while (kind > text && kind[-1] != ' ' && kind[-1] != ';')
    kind--;
  severity = g_strndup (kind, kind_end - kind);

  if (strcmp (severity, "info") == 0)
    return ptxas_info (st, skip_space (colon + 3), line, error);
  if (strcmp (severity, "error") == 0 || strcmp (severity, "fatal") == 0)
    {
      const char *msg = skip_space (colon + 3);
      const char *place = skip_space (text + strlen ("ptxas"));
      const char *comma = NULL;

      if (st->tool_errors->len > 0)
        g_string_append_c (st->tool_errors, '\n');

      /* "ptxas FILE, line N; error   : MSG" becomes "FILE:N: error: MSG",
       * the form our own messages (and editors) use */
      for (const char *q = strstr (place, ", line "); q != NULL && q < kind;
           q = strstr (q + 1, ", line "))
        comma = q;
      if (comma != NULL)
        {
          const char *num = comma + strlen (", line ");
          uint32_t n;

          if (read_u32 (&num, &n) && *num == ';')
            {
              g_string_append_printf (st->tool_errors, "%.*s:%u: %s: %s",
                                      (int) (comma - place), place, n, severity, msg);
              return TRUE;
            }
        }
      g_string_append_printf (st->tool_errors, "ptxas %s: %s", severity, msg);
    }
  /* warnings repeat what the info lines say (spills) or concern options */
  return TRUE;
}

GPtrArray *
ks_resources_parse_ptxas (const char  *text,
                          gsize        len,
                          GError     **error)
{
  g_autoptr(GPtrArray) out = new_array ();
  g_autoptr(GString) tool_errors = g_string_new (NULL);
  PtxasState st = { out, NULL, NULL, 0, tool_errors };
  LineReader r = { text, text + len, 0 };
  gboolean ok = TRUE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  while (ok && (line = next_line (&r)) != NULL)
    {
      ok = ptxas_line (&st, line, r.number, error);
      g_free (line);
    }
  g_free (st.arch);
  if (!ok)
    return NULL;

  if (tool_errors->len > 0)
    {
      g_set_error (error, KS_RESOURCES_ERROR, KS_RESOURCES_ERROR_TOOL,
                   "ptxas reported errors:\n%s", tool_errors->str);
      return NULL;
    }

  return g_steal_pointer (&out);
}

/* ---------------------------------------------------- cuobjdump resources */

/* "KEY:N" or "KEY[K]:N" figures line, as opposed to a header line */
static gboolean
is_figures_line (const char *s)
{
  if (!g_ascii_isupper (*s))
    return FALSE;
  while (g_ascii_isupper (*s) || g_ascii_isdigit (*s) || *s == '_' || *s == '[' || *s == ']')
    s++;
  return *s == ':';
}

static gboolean
usage_figures (KsKernelResources *res,
               const char        *s,
               uint32_t           line,
               GError           **error)
{
  g_auto(GStrv) tokens = g_strsplit_set (s, " \t", -1);

  for (guint i = 0; tokens[i] != NULL; i++)
    {
      const char *tok = tokens[i], *colon, *v;
      g_autofree char *key = NULL;
      uint32_t n, bank;

      if (*tok == '\0')
        continue;
      colon = strchr (tok, ':');
      if (colon == NULL || colon == tok)
        return parse_error (error, line, "expected KEY:VALUE, found “%s”", tok);
      v = colon + 1;
      if (!read_u32 (&v, &n) || *v != '\0')
        return parse_error (error, line, "expected a number after “%.*s:” in “%s”",
                            (int) (colon - tok), tok, tok);
      key = g_strndup (tok, colon - tok);

      if (strcmp (key, "REG") == 0)
        {
          res->registers = n;
          res->fields |= KS_RESOURCES_HAS_REGISTERS;
        }
      else if (strcmp (key, "STACK") == 0)
        {
          res->local_bytes += n;
          res->fields |= KS_RESOURCES_HAS_STACK;
        }
      else if (strcmp (key, "LOCAL") == 0)
        res->local_bytes += n;
      else if (strcmp (key, "SHARED") == 0)
        res->shared_static_bytes = n;
      else if (g_str_has_prefix (key, "CONSTANT["))
        {
          const char *b = key + strlen ("CONSTANT[");

          if (!read_u32 (&b, &bank) || strcmp (b, "]") != 0)
            return parse_error (error, line, "cannot read the constant bank in “%s”", tok);
          if (bank >= KS_RESOURCES_N_CONSTANT_BANKS)
            return parse_error (error, line, "constant bank %u out of range in “%s”",
                                bank, tok);
          res->constant_bytes[bank] = n;
        }
      /* TEXTURE, SURFACE, SAMPLER, GLOBAL and any newer key: not modelled */
    }
  return TRUE;
}

GPtrArray *
ks_resources_parse_resource_usage (const char  *text,
                                   gsize        len,
                                   GError     **error)
{
  g_autoptr(GPtrArray) out = new_array ();
  g_autoptr(KsKernelResources) common = ks_kernel_resources_new ("", NULL, 0);
  g_autofree char *arch = NULL;
  KsKernelResources *current = NULL;
  LineReader r = { text, text + len, 0 };
  char *raw;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  while ((raw = next_line (&r)) != NULL)
    {
      g_autofree char *line = raw;
      const char *s = skip_space (line);

      if (g_str_has_prefix (s, "Fatbin "))
        {
          g_clear_pointer (&arch, g_free);
          current = NULL;
        }
      else if (g_str_has_prefix (s, "arch = "))
        {
          g_free (arch);
          arch = g_strstrip (g_strdup (s + strlen ("arch = ")));
        }
      else if (g_str_has_prefix (s, "Function "))
        {
          g_autofree char *name = g_strstrip (g_strdup (s + strlen ("Function ")));
          size_t n = strlen (name);

          if (n < 2 || name[n - 1] != ':')
            {
              parse_error (error, r.number, "expected “Function NAME:”");
              return NULL;
            }
          name[n - 1] = '\0';
          current = ks_kernel_resources_new (name, arch, KS_RESOURCES_SOURCE_RESOURCE_USAGE);
          current->line = r.number;
          /* cuobjdump lists only what was compiled into the binary; it does
           * not say which are kernels */
          current->is_entry = FALSE;
          g_ptr_array_add (out, current);
        }
      else if (g_str_has_prefix (s, "Common:") || g_str_has_prefix (s, "Resource usage:"))
        current = NULL;
      else if (is_figures_line (s))
        {
          if (!usage_figures (current != NULL ? current : common, s, r.number, error))
            return NULL;
        }
    }

  return g_steal_pointer (&out);
}

/* ---------------------------------------------------------------- Estimate */

static uint32_t
align_up (uint64_t v,
          uint32_t a)
{
  if (a <= 1)
    return (uint32_t) MIN (v, G_MAXUINT32);
  return (uint32_t) MIN ((v + a - 1) / a * a, G_MAXUINT32);
}

static uint32_t
var_element_size (const KsPtxVar *var)
{
  return ks_ptx_type_size (var->type) * MAX (var->vec, 1);
}

static uint64_t
var_size (const KsPtxVar *var)
{
  if (var->flags & KS_PTX_VAR_UNSIZED)
    return 0;
  return var->n_elements * var_element_size (var);
}

static uint32_t
var_align (const KsPtxVar *var)
{
  return var->align != 0 ? var->align : MAX (var_element_size (var), 1);
}

static gboolean
is_named_barrier (const KsPtxInsn *in)
{
  return (in->opcode == KS_PTX_OPC_BAR || in->opcode == KS_PTX_OPC_BARRIER)
         && (in->flags & KS_PTX_FLAG_WARP) == 0
         && in->scope != KS_PTX_SCOPE_CLUSTER;
}

/* The number of named barriers an instruction needs: its highest id + 1,
 * 16 when the id is a register; 0 when it is not a named barrier */
static int32_t
barriers_used (const KsPtxModule *m,
               const KsPtxInsn   *in)
{
  const KsPtxOperand *ops = ks_ptx_insn_operands (m, in);
  /* bar.red has its destination first */
  uint32_t idx = (in->flags & KS_PTX_FLAG_RED) ? 1 : 0;

  if (!is_named_barrier (in))
    return 0;
  if (idx < in->n_operands && ops[idx].kind == KS_PTX_OPERAND_IMM_INT)
    return (int32_t) MIN (ops[idx].a, 15) + 1;
  return 16;
}

/* Frame of a set of variables laid out in declaration order */
static uint32_t
layout_vars (const KsPtxModule *m,
             const guint8      *take)
{
  uint64_t off = 0;

  for (uint32_t v = 0; v < m->n_vars; v++)
    if (take[v])
      {
        off = align_up (off, var_align (&m->vars[v]));
        off += var_size (&m->vars[v]);
      }
  return (uint32_t) MIN (off, G_MAXUINT32);
}

/* -- Liveness -- */

typedef struct
{
  const KsPtxModule *m;
  const KsPtxFunction *fn;
  uint32_t n_slots;
  uint32_t words;               /* 64-bit words per set */
  uint8_t *units;               /* 32-bit registers per slot */
  GArray *uses, *defs;          /* uint32_t slots of the current instruction */
} Live;

static inline gboolean
bit_get (const uint64_t *set, uint32_t i)
{
  return (set[i >> 6] >> (i & 63)) & 1;
}

static inline void
bit_set (uint64_t *set, uint32_t i)
{
  set[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
}

static inline void
bit_clear (uint64_t *set, uint32_t i)
{
  set[i >> 6] &= ~(G_GUINT64_CONSTANT (1) << (i & 63));
}

static void
insn_regs (Live            *l,
           const KsPtxInsn *in)
{
  KsPtxRegRefs refs;

  g_array_set_size (l->uses, 0);
  g_array_set_size (l->defs, 0);
  ks_ptx_insn_reg_refs (l->m, in, &refs);
  /* registers only: predicates take no register */
  for (uint32_t i = 0; i < refs.n_defs; i++)
    if (!(refs.defs[i] & KS_PTX_REF_PRED) && refs.defs[i] < l->n_slots)
      g_array_append_val (l->defs, refs.defs[i]);
  for (uint32_t i = 0; i < refs.n_uses; i++)
    if (!(refs.uses[i] & KS_PTX_REF_PRED) && refs.uses[i] < l->n_slots)
      g_array_append_val (l->uses, refs.uses[i]);
}

static uint32_t
max_pressure (Live *l)
{
  const KsPtxModule *m = l->m;
  const KsPtxFunction *fn = l->fn;
  const KsPtxBlock *blocks = m->blocks + fn->first_block;
  const KsPtxInsn *insns = ks_ptx_function_insns (m, fn);
  uint32_t nb = fn->n_blocks, w = l->words, best = 0;
  g_autofree uint64_t *gen = g_new0 (uint64_t, (size_t) nb * w);
  g_autofree uint64_t *kill = g_new0 (uint64_t, (size_t) nb * w);
  g_autofree uint64_t *in = g_new0 (uint64_t, (size_t) nb * w);
  g_autofree uint64_t *out = g_new0 (uint64_t, (size_t) nb * w);
  g_autofree uint64_t *live = g_new0 (uint64_t, w);
  gboolean changed;

  /* gen: read before any unconditional write in the block; kill: written
   * unconditionally.  Walked backwards, so a later read is overridden by an
   * earlier write. */
  for (uint32_t b = 0; b < nb; b++)
    {
      uint64_t *g = gen + (size_t) b * w, *k = kill + (size_t) b * w;

      for (uint32_t j = blocks[b].n_insns; j-- > 0;)
        {
          const KsPtxInsn *ins = &insns[blocks[b].first_insn + j];

          insn_regs (l, ins);
          if (ins->pred == KS_PTX_NONE)
            for (guint d = 0; d < l->defs->len; d++)
              {
                uint32_t s = g_array_index (l->defs, uint32_t, d);

                bit_set (k, s);
                bit_clear (g, s);
              }
          for (guint u = 0; u < l->uses->len; u++)
            bit_set (g, g_array_index (l->uses, uint32_t, u));
        }
    }

  do
    {
      changed = FALSE;
      for (uint32_t b = nb; b-- > 0;)
        {
          uint64_t *o = out + (size_t) b * w, *i = in + (size_t) b * w;
          const uint64_t *g = gen + (size_t) b * w, *k = kill + (size_t) b * w;

          for (uint32_t e = 0; e < blocks[b].n_succs; e++)
            {
              uint32_t s = m->edges[blocks[b].first_succ + e];

              if (s < nb)
                for (uint32_t x = 0; x < w; x++)
                  o[x] |= in[(size_t) s * w + x];
            }
          for (uint32_t x = 0; x < w; x++)
            {
              uint64_t v = g[x] | (o[x] & ~k[x]);

              if (v != i[x])
                {
                  i[x] = v;
                  changed = TRUE;
                }
            }
        }
    }
  while (changed);

  for (uint32_t b = 0; b < nb; b++)
    {
      uint32_t count = 0;

      /* (a kernel without registers has no words: g_new0 gave NULL) */
      if (w > 0)
        memcpy (live, out + (size_t) b * w, w * sizeof (uint64_t));
      for (uint32_t s = 0; s < l->n_slots; s++)
        if (bit_get (live, s))
          count += l->units[s];
      best = MAX (best, count);

      for (uint32_t j = blocks[b].n_insns; j-- > 0;)
        {
          const KsPtxInsn *ins = &insns[blocks[b].first_insn + j];
          uint32_t at = count;

          insn_regs (l, ins);
          /* A result needs a register at its instruction even when nothing
           * reads it afterwards */
          for (guint d = 0; d < l->defs->len; d++)
            {
              uint32_t s = g_array_index (l->defs, uint32_t, d);

              if (!bit_get (live, s))
                at += l->units[s];
            }
          best = MAX (best, at);

          if (ins->pred == KS_PTX_NONE)
            for (guint d = 0; d < l->defs->len; d++)
              {
                uint32_t s = g_array_index (l->defs, uint32_t, d);

                if (bit_get (live, s))
                  {
                    bit_clear (live, s);
                    count -= l->units[s];
                  }
              }
          for (guint u = 0; u < l->uses->len; u++)
            {
              uint32_t s = g_array_index (l->uses, uint32_t, u);

              if (!bit_get (live, s))
                {
                  bit_set (live, s);
                  count += l->units[s];
                }
            }
          best = MAX (best, count);
        }
    }

  return best;
}

static uint32_t
estimate_registers (const KsPtxModule   *m,
                    const KsPtxFunction *fn)
{
  g_autoptr(GArray) uses = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autoptr(GArray) defs = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autofree uint8_t *units = NULL;
  Live l = { m, fn, fn->n_reg_slots, (fn->n_reg_slots + 63) / 64, NULL, uses, defs };
  uint32_t live;

  if (fn->n_blocks == 0 || fn->first_block + fn->n_blocks > m->n_blocks)
    return 8;

  units = g_new0 (uint8_t, MAX (fn->n_reg_slots, 1));
  for (uint32_t s = 0; s < fn->n_reg_slots; s++)
    {
      uint32_t size = 4;

      if (fn->first_slot_type + s < m->n_slot_types)
        size = ks_ptx_type_size (m->slot_types[fn->first_slot_type + s]);
      units[s] = (uint8_t) MAX (1, (size + 3) / 4);
    }
  l.units = units;

  live = max_pressure (&l) + 2;

  /* A function that makes a real call follows the ABI: ptxas gives every
   * caller at least 24 registers (seen with CUDA 13 on sm_80 and sm_90) */
  for (uint32_t i = 0; i < fn->n_insns && fn->first_insn + i < m->n_insns; i++)
    if (m->insns[fn->first_insn + i].opcode == KS_PTX_OPC_CALL)
      {
        live = MAX (live, 24);
        break;
      }

  return CLAMP (live, 8, 255);
}

KsKernelResources *
ks_resources_estimate (const KsPtxModule *m,
                       uint32_t           function_index)
{
  const KsPtxFunction *fn;
  g_autofree char *name = NULL;
  g_autofree char *arch = NULL;
  g_autofree guint8 *take = NULL;
  KsKernelResources *res;
  KsPtxReach r;
  int32_t barriers = 0;
  uint32_t sm;

  g_return_val_if_fail (m != NULL, NULL);

  if (function_index >= m->n_functions)
    return NULL;
  fn = &m->functions[function_index];
  if ((fn->flags & KS_PTX_FUNCTION_HAS_BODY) == 0)
    return NULL;

  name = ks_ptx_span_dup (m, fn->name);
  sm = ks_ptx_module_target_sm (m);
  if (m->n_targets > 0 && m->first_target < m->n_words)
    arch = ks_ptx_span_dup (m, m->words[m->first_target]);
  res = ks_kernel_resources_new (name, arch, KS_RESOURCES_SOURCE_ESTIMATE);
  res->is_entry = fn->kind == KS_PTX_FUNCTION_ENTRY;

  /* Everything the function and its callees name */
  ks_ptx_module_reach (m, function_index, 0, &r);
  for (uint32_t f = 0; f < m->n_functions; f++)
    {
      const KsPtxFunction *rf = &m->functions[f];

      if (!r.functions[f] || rf->first_insn + rf->n_insns > m->n_insns)
        continue;
      for (uint32_t i = 0; i < rf->n_insns; i++)
        barriers = MAX (barriers, barriers_used (m, &m->insns[rf->first_insn + i]));
    }

  take = g_new0 (guint8, MAX (m->n_vars, 1));
  for (uint32_t v = 0; v < m->n_vars; v++)
    take[v] = r.vars[v] && m->vars[v].space == KS_PTX_SPACE_SHARED
              && (m->vars[v].flags & (KS_PTX_VAR_PARAM | KS_PTX_VAR_RETURN)) == 0;
  res->shared_static_bytes = layout_vars (m, take);

  /* The frame: the function's own depots, whether or not it names them
   * (nvcc takes their address once, through %SPL), plus module-scope
   * .local it names */
  for (uint32_t v = 0; v < m->n_vars; v++)
    take[v] = m->vars[v].space == KS_PTX_SPACE_LOCAL
              && (m->vars[v].flags & (KS_PTX_VAR_PARAM | KS_PTX_VAR_RETURN)) == 0
              && (m->vars[v].function == function_index
                  || (m->vars[v].function == KS_PTX_NONE && r.vars[v]));
  res->local_bytes = layout_vars (m, take);

  res->barriers = (uint32_t) barriers;
  res->fields |= KS_RESOURCES_HAS_BARRIERS | KS_RESOURCES_HAS_REGISTERS;
  res->registers = estimate_registers (m, fn);

  /* Kernel parameters sit in bank 0 after 0x160 bytes of driver data on
   * sm_70 to sm_89 (ptxas -v shows 352 + their size); sm_90 and later keep
   * them elsewhere and ptxas shows no cmem[0]. */
  if (res->is_entry && sm >= 50 && sm < 90)
    {
      uint64_t off = 0;

      for (uint32_t p = 0; p < fn->n_params && fn->first_param + p < m->n_vars; p++)
        {
          const KsPtxVar *var = &m->vars[fn->first_param + p];

          off = align_up (off, var_align (var));
          off += var_size (var);
        }
      res->constant_bytes[0] = (uint32_t) MIN (0x160 + off, G_MAXUINT32);
    }

  ks_ptx_reach_clear (&r);
  return res;
}
