/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ptx-parser.c: a recursive-descent parser from PTX text to KsPtxModule.
 *
 * One pass over the tokens decodes every instruction into its final form.
 * Names are resolved as they are met when they are already known
 * (registers, parameters, variables, functions); the rest (labels, which
 * are mostly forward references, and functions or variables declared later)
 * are recorded as fixups and resolved at the end of the function or of the
 * module.  On a syntax error the parser reports it and skips to the next `;`
 * or `}` at the same brace depth, so one bad line costs one message. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks-ptx-lexer-impl.h"
#include "ks-ptx-private.h"
#include "ks-ptx-tables.h"

#define MAX_DIAGNOSTICS 1000
#define MAX_TOP_OPERANDS 64
#define MAX_ELEMENTS 1024
#define MAX_REG_SLOTS (1u << 24)
#define MAX_INIT_DEPTH 32
/* The newest PTX ISA is 9.0 (CUDA 13.0): a .version past 9.x is warned of */
#define KS_PTX_NEWEST_MAJOR 9u

/* ---- growable arrays ------------------------------------------------------ */

void
ks_ptx_grow (void     **data,
             uint32_t  *cap,
             size_t     elem_size)
{
  uint32_t n = *cap < 16 ? 16 : *cap;

  if (n > G_MAXUINT32 / 2)
    g_error ("PTX module too large");
  n *= 2;
  *data = g_realloc_n (*data, n, elem_size);
  *cap = n;
}

/* ---- name maps: span -> uint32 ---------------------------------------------- */

typedef struct
{
  uint32_t hash;
  uint32_t off;
  uint32_t len;                 /* 0 = empty slot */
  uint32_t value;               /* KS_PTX_NONE = removed */
} NameSlot;

typedef struct
{
  NameSlot *slots;
  uint32_t mask;
  uint32_t used;
} NameMap;

static void
name_map_clear (NameMap *map)
{
  g_clear_pointer (&map->slots, g_free);
  map->mask = 0;
  map->used = 0;
}

static NameSlot *
name_map_find (const NameMap *map,
               const char    *text,
               uint32_t       off,
               uint32_t       len,
               uint32_t       hash)
{
  if (map->slots == NULL)
    return NULL;
  for (uint32_t i = hash;; i++)
    {
      NameSlot *s = &map->slots[i & map->mask];

      if (s->len == 0)
        return NULL;
      if (s->hash == hash && s->len == len && memcmp (text + s->off, text + off, len) == 0)
        return s;
    }
}

static inline uint32_t
name_map_get (const NameMap *map,
              const char    *text,
              uint32_t       off,
              uint32_t       len,
              uint32_t       hash)
{
  NameSlot *s = name_map_find (map, text, off, len, hash);

  return s ? s->value : KS_PTX_NONE;
}

/* Sets the value of a name; returns the previous value (KS_PTX_NONE if none). */
static uint32_t
name_map_set (NameMap    *map,
              const char *text,
              uint32_t    off,
              uint32_t    len,
              uint32_t    hash,
              uint32_t    value)
{
  NameSlot *s;
  uint32_t old;

  s = name_map_find (map, text, off, len, hash);
  if (s != NULL)
    {
      old = s->value;
      s->value = value;
      return old;
    }

  if (map->slots == NULL || (map->used + 1) * 4 > (map->mask + 1) * 3)
    {
      uint32_t n = map->slots ? (map->mask + 1) * 2 : 64;
      NameSlot *slots = g_new0 (NameSlot, n);

      for (uint32_t i = 0; map->slots && i <= map->mask; i++)
        {
          NameSlot *o = &map->slots[i];

          if (o->len == 0)
            continue;
          for (uint32_t j = o->hash;; j++)
            if (slots[j & (n - 1)].len == 0)
              {
                slots[j & (n - 1)] = *o;
                break;
              }
        }
      g_free (map->slots);
      map->slots = slots;
      map->mask = n - 1;
    }

  for (uint32_t i = hash;; i++)
    {
      s = &map->slots[i & map->mask];
      if (s->len == 0)
        break;
    }
  s->hash = hash;
  s->off = off;
  s->len = len;
  s->value = value;
  map->used++;
  return KS_PTX_NONE;
}

/* ---- parser state ------------------------------------------------------------ */

typedef struct
{
  NameMap *map;
  uint32_t off, len, hash;
  uint32_t old;
} Undo;

typedef enum
{
  FIX_OPERAND,                  /* operands[index] is a NAME or an ADDRESS on a name */
  FIX_INIT,                     /* inits[index] is a NAME */
  FIX_BRANCHTARGET,             /* target_entries[index] names a label */
} FixKind;

typedef struct
{
  uint32_t kind;
  uint32_t index;
  uint32_t off, len;
  uint32_t line, column;
} Fixup;

typedef struct
{
  uint32_t line, column;
  uint32_t off, len;
} OperandPos;

/* A .loc's place, the key of the inlined call sites: all three numbers
 * whole (a key that cut the file number to 16 bits chained an inlined
 * .loc to another file's site in a module of more than 65,536 files), and
 * hashed by mixing, not g_int64_hash's fold of high into low bits, under
 * which the sites of a large module fell into a few chains and the parse
 * of a 300 MB module ran at 21 MB/s */
typedef struct
{
  uint32_t file, line, column;
} SiteKey;

static guint
site_hash (gconstpointer key)
{
  const SiteKey *k = key;
  uint64_t h = ((uint64_t) k->file << 32 | k->line) ^ ((uint64_t) k->column * 0x9e3779b97f4a7c15u);

  /* splitmix64's finaliser */
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
  return (guint) (h ^ (h >> 31));
}

static gboolean
site_equal (gconstpointer a,
            gconstpointer b)
{
  const SiteKey *x = a, *y = b;

  return x->file == y->file && x->line == y->line && x->column == y->column;
}

typedef struct
{
  KsPtxModule *m;
  const char *text;
  KsPtxLexer lex;
  KsPtxToken tok;
  KsPtxToken ahead;
  gboolean has_ahead;
  uint32_t prev_end;

  uint32_t cap_functions, cap_vars, cap_insns, cap_operands, cap_imm64, cap_inits;
  uint32_t cap_reg_decls, cap_slot_types, cap_locs, cap_files, cap_extras, cap_words;
  uint32_t cap_target_lists, cap_target_entries, cap_diagnostics;

  /* Module scope */
  NameMap gvars, gfuncs;
  GArray *module_fixups;        /* Fixup */

  /* Function scope */
  uint32_t fn;                  /* current function, or KS_PTX_NONE */
  NameMap regs, ranges, lvars, labels, ltargets, lprotos;
  GArray *undo;                 /* Undo */
  GArray *scope_marks;          /* uint32_t: undo length at each '{' */
  GArray *fn_fixups;            /* Fixup */
  uint32_t loc;                 /* current .loc */
  GHashTable *inline_sites;     /* (file, line, col) -> loc index of an inlined .loc */

  /* One instruction's operands while it is being parsed */
  KsPtxOperand top[MAX_TOP_OPERANDS];
  uint32_t n_top;
  KsPtxOperand elems[MAX_ELEMENTS];
  uint32_t n_elems;
  Fixup op_fixups[MAX_TOP_OPERANDS + MAX_ELEMENTS];
  uint32_t n_op_fixups;
  /* Where each register operand is written, for the type check's messages
   * (set for registers and predicates only) */
  OperandPos top_pos[MAX_TOP_OPERANDS];
  OperandPos elem_pos[MAX_ELEMENTS];

  uint32_t n_dropped_diagnostics;
  /* the first .target's SM number (sm_90, compute_90a: 90), 0 for none */
  uint32_t target_sm;
  /* where the last group parse_group read ends, after its } or ) */
  uint32_t group_end;
} Parser;

#define PUSH(P, name) KS_PTX_PUSH ((P)->m->name, (P)->m->n_##name, (P)->cap_##name)

/* ---- diagnostics --------------------------------------------------------------- */

static void G_GNUC_PRINTF (5, 6)
diag (Parser     *p,
      uint32_t    line,
      uint32_t    column,
      KsPtxSeverity severity,
      const char *fmt,
      ...)
{
  KsPtxDiagnostic *d;
  va_list args;

  if (severity == KS_PTX_SEVERITY_ERROR)
    p->m->n_errors++;
  else if (severity == KS_PTX_SEVERITY_WARNING)
    p->m->n_warnings++;

  if (p->m->n_diagnostics >= MAX_DIAGNOSTICS)
    {
      p->n_dropped_diagnostics++;
      return;
    }

  d = PUSH (p, diagnostics);
  d->line = line;
  d->column = column;
  d->severity = severity;
  va_start (args, fmt);
  d->message = g_strdup_vprintf (fmt, args);
  va_end (args);
}

/* A short, printable description of a token for messages. */
static char *
describe (Parser           *p,
          const KsPtxToken *t)
{
  GString *s;

  switch (t->kind)
    {
    case KS_PTX_TOK_EOF:
      return g_strdup ("end of file");
    case KS_PTX_TOK_ERROR:
      if (t->error == KS_PTX_LEX_BAD_BYTES)
        return g_strdup ("bytes that are not PTX text");
      break;
    default:
      break;
    }

  s = g_string_new ("'");
  for (uint32_t i = 0; i < t->len && i < 40; i++)
    {
      unsigned char c = (unsigned char) p->text[t->offset + i];

      if (c >= ' ' && c < 0x7f)
        g_string_append_c (s, (char) c);
      else
        g_string_append_printf (s, "\\x%02x", c);
    }
  if (t->len > 40)
    g_string_append (s, "...");
  g_string_append_c (s, '\'');
  return g_string_free (s, FALSE);
}

/* ---- tokens ---------------------------------------------------------------------- */

static void
advance (Parser *p)
{
  p->prev_end = p->tok.offset + p->tok.len;
  if (p->has_ahead)
    {
      p->tok = p->ahead;
      p->has_ahead = FALSE;
    }
  else
    ks_ptx_lexer_next_inline (&p->lex, &p->tok);

  /* Lexical errors are reported once, here, and then look like any
   * unexpected token to the grammar. */
  if (G_UNLIKELY (p->tok.kind == KS_PTX_TOK_ERROR))
    diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "%s",
          ks_ptx_lex_error_message (p->tok.error));
}

static const KsPtxToken *
peek (Parser *p)
{
  if (!p->has_ahead)
    {
      ks_ptx_lexer_next_inline (&p->lex, &p->ahead);
      p->has_ahead = TRUE;
    }
  return &p->ahead;
}

static inline gboolean
is_punct (const KsPtxToken *t,
          char              c)
{
  return t->kind == KS_PTX_TOK_PUNCT && t->punct == c;
}

static inline gboolean
tok_is (Parser     *p,
        const char *word)
{
  size_t len = strlen (word);

  return p->tok.len == len && memcmp (p->text + p->tok.offset, word, len) == 0;
}

static uint32_t
directive_of (Parser           *p,
              const KsPtxToken *t)
{
  uint64_t v;

  if (t->kind != KS_PTX_TOK_DOTWORD)
    return KS_PTX_DIR_NONE;
  if (ks_ptx_lookup_word_hashed (p->text + t->offset + 1, t->len - 1, t->hash,
                                 KS_PTX_WORD_DIRECTIVE, &v))
    return (uint32_t) v;
  return KS_PTX_DIR_NONE;
}

static KsPtxType
type_of (Parser           *p,
         const KsPtxToken *t)
{
  uint64_t v;

  if (t->kind != KS_PTX_TOK_DOTWORD)
    return KS_PTX_TYPE_NONE;
  if (ks_ptx_lookup_word_hashed (p->text + t->offset + 1, t->len - 1, t->hash,
                                 KS_PTX_WORD_TYPE, &v))
    return (KsPtxType) v;
  return KS_PTX_TYPE_NONE;
}

static void
error_expected (Parser     *p,
                const char *what)
{
  g_autofree char *found = describe (p, &p->tok);

  if (p->tok.kind == KS_PTX_TOK_ERROR)
    return;                     /* already reported by advance() */
  diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
        "expected %s, found %s", what, found);
}

static gboolean
expect_punct (Parser     *p,
              char        c,
              const char *what)
{
  if (is_punct (&p->tok, c))
    {
      advance (p);
      return TRUE;
    }
  error_expected (p, what);
  return FALSE;
}

/* Skips to just after the next ';' at this brace depth, or to a '}' that
 * closes it (left for the caller), or to the end. */
static void
recover (Parser *p)
{
  uint32_t depth = 0;

  while (p->tok.kind != KS_PTX_TOK_EOF)
    {
      if (is_punct (&p->tok, '{'))
        depth++;
      else if (is_punct (&p->tok, '}'))
        {
          if (depth == 0)
            return;
          depth--;
        }
      else if (is_punct (&p->tok, ';') && depth == 0)
        {
          advance (p);
          return;
        }
      /* Lexical errors while skipping would repeat what is already said. */
      p->prev_end = p->tok.offset + p->tok.len;
      if (p->has_ahead)
        {
          p->tok = p->ahead;
          p->has_ahead = FALSE;
        }
      else
        ks_ptx_lexer_next_inline (&p->lex, &p->tok);
    }
}

static gboolean
expect_semicolon (Parser     *p,
                  const char *after)
{
  if (is_punct (&p->tok, ';'))
    {
      advance (p);
      return TRUE;
    }
  {
    g_autofree char *what = g_strdup_printf ("';' after %s", after);

    error_expected (p, what);
  }
  recover (p);
  return FALSE;
}

static gboolean
parse_uint (Parser     *p,
            uint64_t   *out,
            const char *what)
{
  if (p->tok.kind == KS_PTX_TOK_INT)
    {
      *out = p->tok.value;
      advance (p);
      return TRUE;
    }
  error_expected (p, what);
  return FALSE;
}

static gboolean
parse_u32 (Parser     *p,
           uint32_t   *out,
           const char *what)
{
  uint64_t v;
  uint32_t line = p->tok.line, col = p->tok.column;

  if (!parse_uint (p, &v, what))
    return FALSE;
  if (v > G_MAXUINT32)
    {
      diag (p, line, col, KS_PTX_SEVERITY_ERROR, "%s is too large", what);
      return FALSE;
    }
  *out = (uint32_t) v;
  return TRUE;
}

static KsPtxSpan
tok_span (const KsPtxToken *t)
{
  KsPtxSpan s = { t->offset, t->len };
  return s;
}

/* ---- scopes -------------------------------------------------------------------------- */

static void
scope_declare (Parser        *p,
               NameMap       *map,
               const KsPtxToken *name,
               uint32_t       value)
{
  uint32_t hash = ks_ptx_hash_bytes (p->text + name->offset, name->len);
  Undo u = { map, name->offset, name->len, hash, 0 };

  u.old = name_map_set (map, p->text, name->offset, name->len, hash, value);
  if (p->scope_marks->len > 0)
    g_array_append_val (p->undo, u);
}

static void
scope_push (Parser *p)
{
  uint32_t mark = p->undo->len;

  g_array_append_val (p->scope_marks, mark);
}

static void
scope_pop (Parser *p)
{
  uint32_t mark;

  if (p->scope_marks->len == 0)
    return;
  mark = g_array_index (p->scope_marks, uint32_t, p->scope_marks->len - 1);
  g_array_set_size (p->scope_marks, p->scope_marks->len - 1);
  while (p->undo->len > mark)
    {
      Undo *u = &g_array_index (p->undo, Undo, p->undo->len - 1);

      name_map_set (u->map, p->text, u->off, u->len, u->hash, u->old);
      g_array_set_size (p->undo, p->undo->len - 1);
    }
}

/* ---- names ----------------------------------------------------------------------------- */

/* Finds a register by name: a plain .reg name, or NAME<digits> within a
 * %NAME<N> range.  Returns the declaration index or KS_PTX_NONE, and the
 * index within a range in *index. */
static uint32_t
find_register (Parser           *p,
               const KsPtxToken *t,
               uint32_t         *index)
{
  const char *s = p->text + t->offset;
  uint32_t d, n = t->prefix_len, len = t->len;
  uint64_t v = 0;

  *index = 0;
  if (p->regs.used > 0)
    {
      d = name_map_get (&p->regs, p->text, t->offset, len, t->hash);
      if (d != KS_PTX_NONE)
        return d;
    }

  /* %r12: the range %r, register 12 (no leading zeros, as in %r<N>) */
  if (n == 0 || n == len || len - n > 10 || (len - n > 1 && s[n] == '0'))
    return KS_PTX_NONE;
  d = name_map_get (&p->ranges, p->text, t->offset, n, t->prefix_hash);
  if (d == KS_PTX_NONE)
    return KS_PTX_NONE;
  for (uint32_t i = n; i < len; i++)
    v = v * 10 + (uint32_t) (s[i] - '0');
  if (v >= p->m->reg_decls[d].count)
    return KS_PTX_NONE;
  *index = (uint32_t) v;
  return d;
}

static gboolean
find_sreg (Parser       *p,
           uint32_t      off,
           uint32_t      len,
           uint32_t      hash,
           KsPtxOperand *op)
{
  const char *s = p->text + off;
  uint64_t v;

  if (len < 2 || s[0] != '%')
    return FALSE;
  if (ks_ptx_lookup_word_hashed (s, len, hash, KS_PTX_WORD_SREG, &v))
    {
      op->kind = KS_PTX_OPERAND_SREG;
      op->a = (uint32_t) v;
      op->aux = KS_PTX_NO_COMPONENT;
      return TRUE;
    }

  /* %envreg0-31, %pm0-7, %pm0_64-%pm7_64 */
  if (len > 7 && memcmp (s, "%envreg", 7) == 0)
    {
      uint32_t idx = 0;

      for (uint32_t i = 7; i < len; i++)
        {
          if (s[i] < '0' || s[i] > '9' || idx > 100)
            return FALSE;
          idx = idx * 10 + (uint32_t) (s[i] - '0');
        }
      if (idx > 31)
        return FALSE;
      op->kind = KS_PTX_OPERAND_SREG;
      op->a = KS_PTX_SREG_ENVREG;
      op->b = idx;
      op->aux = KS_PTX_NO_COMPONENT;
      return TRUE;
    }
  if (len >= 4 && memcmp (s, "%pm", 3) == 0 && s[3] >= '0' && s[3] <= '7')
    {
      if (len == 4 || (len == 7 && memcmp (s + 4, "_64", 3) == 0))
        {
          op->kind = KS_PTX_OPERAND_SREG;
          op->a = len == 4 ? KS_PTX_SREG_PM : KS_PTX_SREG_PM64;
          op->b = (uint32_t) (s[3] - '0');
          op->aux = KS_PTX_NO_COMPONENT;
          return TRUE;
        }
    }
  return FALSE;
}

static int
component_of (const char *s,
              uint32_t    len)
{
  if (len != 2 || s[0] != '.')
    return -1;
  switch (s[1])
    {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

/* A video instruction's operand selector (".b0" and the like, with its
 * dot): KS_PTX_SEL_B0..KS_PTX_SEL_H1 for one byte or half-word, the digits
 * of the SIMD forms' selectors and masks (.b3210, .h10, .b20) as
 * ks-ptx.h describes them, 0 for none. */
static uint32_t
video_selector (const char *s,
                uint32_t    len)
{
  uint32_t sel;

  if (len == 3 && s[1] == 'b' && s[2] >= '0' && s[2] <= '3')
    return KS_PTX_SEL_B0 + (uint32_t) (s[2] - '0');
  if (len == 3 && s[1] == 'h' && (s[2] == '0' || s[2] == '1'))
    return KS_PTX_SEL_H0 + (uint32_t) (s[2] - '0');
  if (len < 3 || len > 6 || (s[1] != 'b' && s[1] != 'h'))
    return 0;
  sel = (s[1] == 'b' ? KS_PTX_SEL_BYTES : KS_PTX_SEL_HALVES) | (len - 2) << 12;
  for (uint32_t i = 2; i < len; i++)
    {
      if (s[i] < '0' || s[i] > '7')
        return 0;
      sel |= (uint32_t) (s[i] - '0') << (3 * (len - 1 - i));
    }
  return sel;
}

/* Resolves an identifier used as an operand.  Unknown names become NAME
 * operands with a fixup. */
static void
resolve_operand_name (Parser           *p,
                      const KsPtxToken *t,
                      KsPtxOperand     *op,
                      Fixup            *fix,
                      gboolean         *needs_fix)
{
  uint32_t idx, d;
  const char *s = p->text + t->offset;

  *needs_fix = FALSE;
  op->aux = KS_PTX_NO_COMPONENT;

  if (t->len == 1 && s[0] == '_')
    {
      op->kind = KS_PTX_OPERAND_SINK;
      return;
    }

  d = find_register (p, t, &idx);
  if (d != KS_PTX_NONE)
    {
      const KsPtxRegDecl *rd = &p->m->reg_decls[d];

      op->kind = rd->type == KS_PTX_TYPE_PRED ? KS_PTX_OPERAND_PRED : KS_PTX_OPERAND_REG;
      op->a = rd->first_slot + idx * rd->vec;
      return;
    }

  if (find_sreg (p, t->offset, t->len, t->hash, op))
    return;

  /* The ISA's one predefined constant ("Predefined Identifiers"): nvcc
   * lowers warpSize to it. */
  if (t->len == 7 && memcmp (s, "WARP_SZ", 7) == 0)
    {
      op->kind = KS_PTX_OPERAND_IMM_INT;
      op->a = 32;
      op->b = 0;
      return;
    }

  idx = name_map_get (&p->lvars, p->text, t->offset, t->len, t->hash);
  if (idx == KS_PTX_NONE)
    idx = name_map_get (&p->gvars, p->text, t->offset, t->len, t->hash);
  if (idx != KS_PTX_NONE)
    {
      op->kind = KS_PTX_OPERAND_VAR;
      op->a = idx;
      return;
    }

  idx = name_map_get (&p->lprotos, p->text, t->offset, t->len, t->hash);
  if (idx == KS_PTX_NONE)
    idx = name_map_get (&p->gfuncs, p->text, t->offset, t->len, t->hash);
  if (idx != KS_PTX_NONE)
    {
      op->kind = KS_PTX_OPERAND_FUNC;
      op->a = idx;
      return;
    }

  op->kind = KS_PTX_OPERAND_NAME;
  op->a = t->offset;
  op->b = t->len;
  fix->kind = FIX_OPERAND;
  fix->off = t->offset;
  fix->len = t->len;
  fix->line = t->line;
  fix->column = t->column;
  *needs_fix = TRUE;
}

/* ---- operands ----------------------------------------------------------------------------- */

static uint64_t
f64_bits (double d)
{
  uint64_t u;

  memcpy (&u, &d, sizeof u);
  return u;
}

static double
parse_float_text (Parser           *p,
                  const KsPtxToken *t)
{
  char buf[128];
  uint32_t n = MIN (t->len, sizeof buf - 1);

  memcpy (buf, p->text + t->offset, n);
  buf[n] = '\0';
  return g_ascii_strtod (buf, NULL);
}

static void
set_u64 (KsPtxOperand *op,
         uint64_t      v)
{
  op->a = (uint32_t) v;
  op->b = (uint32_t) (v >> 32);
}

/* Parses an immediate (the current token is a number or '-').  Returns
 * FALSE with a message if it is not one. */
static gboolean
parse_immediate (Parser       *p,
                 KsPtxOperand *op)
{
  gboolean neg = FALSE;

  if (is_punct (&p->tok, '-'))
    {
      neg = TRUE;
      advance (p);
    }

  switch (p->tok.kind)
    {
    case KS_PTX_TOK_INT:
      op->kind = KS_PTX_OPERAND_IMM_INT;
      set_u64 (op, neg ? (uint64_t) 0 - p->tok.value : p->tok.value);
      break;
    case KS_PTX_TOK_FLOAT:
      op->kind = KS_PTX_OPERAND_IMM_F64;
      set_u64 (op, f64_bits (neg ? -parse_float_text (p, &p->tok) : parse_float_text (p, &p->tok)));
      break;
    case KS_PTX_TOK_F32_BITS:
      op->kind = KS_PTX_OPERAND_IMM_F32;
      op->a = (uint32_t) p->tok.value ^ (neg ? 0x80000000u : 0);
      break;
    case KS_PTX_TOK_F64_BITS:
      op->kind = KS_PTX_OPERAND_IMM_F64;
      set_u64 (op, p->tok.value ^ (neg ? G_GUINT64_CONSTANT (0x8000000000000000) : 0));
      break;
    default:
      error_expected (p, "a number");
      return FALSE;
    }
  advance (p);
  return TRUE;
}

static void
set_offset (Parser       *p,
            KsPtxOperand *op,
            int64_t       off)
{
  if (off >= G_MININT32 && off <= G_MAXINT32)
    op->b = (uint32_t) (int32_t) off;
  else
    {
      int64_t *slot = PUSH (p, imm64);

      *slot = off;
      op->flags |= KS_PTX_OPERAND_BIG_OFFSET;
      op->b = p->m->n_imm64 - 1;
    }
}

/* Records a pending fixup for an operand that will be stored at `where`
 * (an index into p->top when top, else into p->elems). */
static void
note_fixup (Parser   *p,
            Fixup    *fix,
            gboolean  top,
            uint32_t  where)
{
  if (p->n_op_fixups >= G_N_ELEMENTS (p->op_fixups))
    return;
  fix->index = top ? where : where | 0x80000000u;
  p->op_fixups[p->n_op_fixups++] = *fix;
}

static gboolean parse_operand (Parser *p, KsPtxOperand *op, gboolean top, uint32_t where, int depth);

static inline OperandPos *
operand_pos (Parser   *p,
             gboolean  top,
             uint32_t  where)
{
  return top ? &p->top_pos[where] : &p->elem_pos[where];
}

static inline void
note_pos (Parser           *p,
          gboolean          top,
          uint32_t          where,
          const KsPtxToken *t)
{
  OperandPos *pos = operand_pos (p, top, where);

  pos->line = t->line;
  pos->column = t->column;
  pos->off = t->offset;
  pos->len = t->len;
}

/* [reg], [reg+imm], [reg+-imm], [reg-imm], [name], [name+imm], [imm], or a
 * bracketed list [a, b, {c, d}] (texture and surface operands). */
static gboolean
parse_bracket (Parser       *p,
               KsPtxOperand *op,
               gboolean      top,
               uint32_t      where,
               int           depth)
{
  KsPtxToken first;

  advance (p);                  /* [ */
  first = p->tok;

  if (p->tok.kind == KS_PTX_TOK_INT || is_punct (&p->tok, '-'))
    {
      KsPtxOperand imm = { 0 };
      uint32_t line = p->tok.line, col = p->tok.column;

      if (!parse_immediate (p, &imm))
        return FALSE;
      if (imm.kind != KS_PTX_OPERAND_IMM_INT)
        {
          diag (p, line, col, KS_PTX_SEVERITY_ERROR, "an address must be an integer");
          return FALSE;
        }
      op->kind = KS_PTX_OPERAND_ADDRESS;
      op->aux = KS_PTX_ADDRESS_IMM;
      set_offset (p, op, (int64_t) ks_ptx_operand_u64 (&imm));
      return expect_punct (p, ']', "']'");
    }

  if (p->tok.kind != KS_PTX_TOK_IDENT)
    {
      error_expected (p, "a register, a name or an address in '[ ]'");
      return FALSE;
    }

  /* A bracketed list: [tex, {coords}] */
  if (peek (p)->kind == KS_PTX_TOK_PUNCT && peek (p)->punct == ',')
    {
      uint32_t first_elem = p->n_elems, count = 0;

      if (depth > 0)
        {
          error_expected (p, "a simple operand");
          return FALSE;
        }
      for (;;)
        {
          KsPtxOperand *e;

          if (p->n_elems >= MAX_ELEMENTS)
            {
              diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "too many operands");
              return FALSE;
            }
          e = &p->elems[p->n_elems];
          memset (e, 0, sizeof *e);
          p->n_elems++;
          if (!parse_operand (p, e, FALSE, p->n_elems - 1, depth + 1))
            return FALSE;
          count++;
          if (is_punct (&p->tok, ','))
            {
              advance (p);
              continue;
            }
          break;
        }
      op->kind = KS_PTX_OPERAND_LIST;
      op->flags |= KS_PTX_OPERAND_BRACKETS;
      op->a = first_elem;
      op->aux = (uint16_t) count;
      return expect_punct (p, ']', "']' or ','");
    }

  {
    KsPtxOperand base = { 0 };
    Fixup fix = { 0 };
    gboolean needs_fix;
    int64_t off = 0;

    resolve_operand_name (p, &first, &base, &fix, &needs_fix);
    advance (p);

    op->kind = KS_PTX_OPERAND_ADDRESS;
    switch (base.kind)
      {
      case KS_PTX_OPERAND_REG:
        op->aux = KS_PTX_ADDRESS_REG;
        op->a = base.a;
        break;
      case KS_PTX_OPERAND_VAR:
        op->aux = KS_PTX_ADDRESS_VAR;
        op->a = base.a;
        break;
      case KS_PTX_OPERAND_FUNC:
        op->aux = KS_PTX_ADDRESS_FUNC;
        op->a = base.a;
        break;
      case KS_PTX_OPERAND_NAME:
        op->aux = KS_PTX_ADDRESS_NAME;
        op->a = base.a;
        note_fixup (p, &fix, top, where);
        break;
      default:
        {
          g_autofree char *what = describe (p, &first);

          diag (p, first.line, first.column, KS_PTX_SEVERITY_ERROR,
                "%s cannot be used as an address", what);
          return FALSE;
        }
      }

    if (is_punct (&p->tok, '+') || is_punct (&p->tok, '-'))
      {
        gboolean minus = is_punct (&p->tok, '-');
        KsPtxOperand imm = { 0 };

        advance (p);
        if (!parse_immediate (p, &imm))
          return FALSE;
        if (imm.kind != KS_PTX_OPERAND_IMM_INT)
          {
            diag (p, first.line, first.column, KS_PTX_SEVERITY_ERROR,
                  "an address offset must be an integer");
            return FALSE;
          }
        off = (int64_t) ks_ptx_operand_u64 (&imm);
        if (minus)
          off = (int64_t) ((uint64_t) 0 - (uint64_t) off);
      }
    set_offset (p, op, off);
    return expect_punct (p, ']', "'+', '-' or ']'");
  }
}

/* A vector named whole becomes the group of its n elements, each at the
 * whole's place: a vector register (.reg .v2 .u32 v: {v.x, v.y}, in
 * consecutive slots) or a vector special register ({%tid.x, %tid.y,
 * %tid.z, %tid.w}).  FALSE after reporting when there is no room. */
static gboolean
expand_to_elements (Parser       *p,
                    KsPtxOperand *op,
                    uint32_t      n,
                    OperandPos    at)
{
  KsPtxOperand whole = *op;

  if (p->n_elems + n > MAX_ELEMENTS)
    {
      diag (p, at.line, at.column, KS_PTX_SEVERITY_ERROR, "too many operands");
      return FALSE;
    }
  memset (op, 0, sizeof *op);
  op->kind = KS_PTX_OPERAND_VECTOR;
  op->a = p->n_elems;
  op->aux = (uint16_t) n;
  for (uint32_t k = 0; k < n; k++)
    {
      KsPtxOperand *e = &p->elems[p->n_elems];

      p->elem_pos[p->n_elems++] = at;
      memset (e, 0, sizeof *e);
      e->kind = whole.kind;
      e->flags = whole.flags;
      e->a = whole.kind == KS_PTX_OPERAND_REG ? whole.a + k : whole.a;
      e->b = whole.b;
      e->aux = k < 4 ? (uint16_t) k : KS_PTX_NO_COMPONENT;
    }
  return TRUE;
}

/* Parses { a, b, ... } or ( a, b, ... ) into elements. */
static gboolean
parse_group (Parser       *p,
             KsPtxOperand *op,
             char          close,
             int           depth)
{
  uint32_t first_elem = p->n_elems, count = 0;

  advance (p);                  /* { or ( */
  if (depth > 1)
    {
      error_expected (p, "a simple operand");
      return FALSE;
    }
  while (!is_punct (&p->tok, close))
    {
      KsPtxOperand *e;

      if (p->n_elems >= MAX_ELEMENTS)
        {
          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "too many operands");
          return FALSE;
        }
      e = &p->elems[p->n_elems];
      memset (e, 0, sizeof *e);
      p->n_elems++;
      if (!parse_operand (p, e, FALSE, p->n_elems - 1, depth + 1))
        return FALSE;
      count++;
      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      if (!is_punct (&p->tok, close))
        {
          error_expected (p, close == '}' ? "',' or '}'" : "',' or ')'");
          return FALSE;
        }
    }
  p->group_end = p->tok.offset + p->tok.len;
  advance (p);
  op->kind = close == '}' ? KS_PTX_OPERAND_VECTOR : KS_PTX_OPERAND_LIST;
  op->a = first_elem;
  op->aux = (uint16_t) count;
  return TRUE;
}

/* After a top-level operand, `|q`: setp's second destination, or the
 * predicate of tex and tld4's d|p.  @op becomes a two-element VECTOR
 * (KS_PTX_OPERAND_PIPE) of what it was and q. */
static gboolean
parse_pipe (Parser       *p,
            KsPtxOperand *op,
            uint32_t      where,
            int           depth)
{
  KsPtxOperand *e;

  if (p->n_elems + 2 > MAX_ELEMENTS)
    return FALSE;
  e = &p->elems[p->n_elems];
  *e = *op;
  p->elem_pos[p->n_elems] = p->top_pos[where];
  p->n_elems++;
  advance (p);
  e = &p->elems[p->n_elems];
  memset (e, 0, sizeof *e);
  p->n_elems++;
  if (!parse_operand (p, e, FALSE, p->n_elems - 1, depth + 1))
    return FALSE;
  memset (op, 0, sizeof *op);
  op->kind = KS_PTX_OPERAND_VECTOR;
  op->flags = KS_PTX_OPERAND_PIPE;
  op->a = p->n_elems - 2;
  op->aux = 2;
  return TRUE;
}

static gboolean
parse_operand (Parser       *p,
               KsPtxOperand *op,
               gboolean      top,
               uint32_t      where,
               int           depth)
{
  if (is_punct (&p->tok, '{'))
    {
      KsPtxToken open = p->tok;

      if (!parse_group (p, op, '}', depth))
        return FALSE;
      /* messages about the group quote it whole: '{%r1, %r2}' */
      note_pos (p, top, where, &open);
      operand_pos (p, top, where)->len = p->group_end - open.offset;
      /* tex.3d.v4.s32.s32 {r1, r2, r3, r4}|p, [...] */
      if (top && is_punct (&p->tok, '|'))
        return parse_pipe (p, op, where, depth);
      return TRUE;
    }
  if (is_punct (&p->tok, '('))
    return parse_group (p, op, ')', depth);
  if (is_punct (&p->tok, '['))
    return parse_bracket (p, op, top, where, depth);

  if (is_punct (&p->tok, '!'))
    {
      advance (p);
      if (!parse_operand (p, op, top, where, depth))
        return FALSE;
      if (op->kind != KS_PTX_OPERAND_PRED && op->kind != KS_PTX_OPERAND_NAME)
        {
          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                "'!' applies to predicates only");
          return FALSE;
        }
      op->flags |= KS_PTX_OPERAND_NOT;
      return TRUE;
    }

  if (is_punct (&p->tok, '-'))
    {
      const KsPtxToken *next = peek (p);

      if (next->kind == KS_PTX_TOK_IDENT)
        {
          advance (p);
          if (!parse_operand (p, op, top, where, depth))
            return FALSE;
          op->flags |= KS_PTX_OPERAND_NEGATED;
          return TRUE;
        }
      /* the immediate's place, its sign included, for the type check */
      note_pos (p, top, where, &p->tok);
      operand_pos (p, top, where)->len = next->offset + next->len - p->tok.offset;
      return parse_immediate (p, op);
    }

  if (p->tok.kind == KS_PTX_TOK_INT || p->tok.kind == KS_PTX_TOK_FLOAT
      || p->tok.kind == KS_PTX_TOK_F32_BITS || p->tok.kind == KS_PTX_TOK_F64_BITS)
    {
      note_pos (p, top, where, &p->tok);
      return parse_immediate (p, op);
    }

  if (p->tok.kind == KS_PTX_TOK_IDENT)
    {
      KsPtxToken name = p->tok;
      Fixup fix = { 0 };
      gboolean needs_fix;

      resolve_operand_name (p, &name, op, &fix, &needs_fix);
      note_pos (p, top, where, &name);
      advance (p);

      /* %tid.x, %v1.y */
      if (p->tok.kind == KS_PTX_TOK_DOTWORD && !p->tok.space_before)
        {
          int c = component_of (p->text + p->tok.offset, p->tok.len);
          uint32_t sel = video_selector (p->text + p->tok.offset, p->tok.len);

          if (c < 0 && sel != 0 && op->kind == KS_PTX_OPERAND_REG)
            op->b = sel;        /* r1.b0, r2.h1, r3.b3210: a video instruction's selector */
          else if (c < 0 || (op->kind != KS_PTX_OPERAND_SREG && op->kind != KS_PTX_OPERAND_REG))
            {
              error_expected (p, "an operand component .x, .y, .z or .w");
              return FALSE;
            }
          else if (op->kind == KS_PTX_OPERAND_REG)
            {
              /* an element of a vector register: one of its slots */
              uint32_t idx, d = find_register (p, &name, &idx);
              uint32_t vec = d != KS_PTX_NONE ? p->m->reg_decls[d].vec : 1;

              if (d != KS_PTX_NONE && (uint32_t) c >= vec)
                {
                  g_autofree char *what = describe (p, &name);

                  diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                        "%s has no element %.*s: %s", what, (int) p->tok.len,
                        p->text + p->tok.offset,
                        vec > 1 ? "its vector has fewer elements" : "it is not a vector register");
                  return FALSE;
                }
              op->aux = (uint16_t) c;
              if (d != KS_PTX_NONE)
                op->a += (uint32_t) c;
            }
          else
            op->aux = (uint16_t) c;
          /* messages quote the operand with its element: '%tid.x' */
          operand_pos (p, top, where)->len = p->tok.offset + p->tok.len - name.offset;
          advance (p);
        }
      else if (op->kind == KS_PTX_OPERAND_REG)
        {
          /* A vector register named whole (.reg .v2 .u32 v; ld.v2.u32 v, [a])
           * stands for the group of its elements, {v.x, v.y}. */
          uint32_t idx, d = find_register (p, &name, &idx);
          uint32_t vec = d != KS_PTX_NONE ? p->m->reg_decls[d].vec : 1;

          if (vec > 1 && !expand_to_elements (p, op, vec, *operand_pos (p, top, where)))
            return FALSE;
        }

      /* reg+imm as a value (st.u64 [x], temp + 1; mov.u32 r, s + -2):
       * ptxas adds the immediate to the register.  Stored as an address
       * operand on the register, which reads as their sum. */
      if (op->kind == KS_PTX_OPERAND_REG && is_punct (&p->tok, '+'))
        {
          KsPtxOperand imm = { 0 };
          uint32_t slot = op->a;
          uint8_t flags = op->flags;

          advance (p);
          if (!parse_immediate (p, &imm))
            return FALSE;
          if (imm.kind != KS_PTX_OPERAND_IMM_INT)
            {
              diag (p, name.line, name.column, KS_PTX_SEVERITY_ERROR,
                    "only an integer can be added to a register");
              return FALSE;
            }
          if (flags & KS_PTX_OPERAND_NEGATED)
            {
              diag (p, name.line, name.column, KS_PTX_SEVERITY_ERROR,
                    "a negated register cannot be offset");
              return FALSE;
            }
          memset (op, 0, sizeof *op);
          op->kind = KS_PTX_OPERAND_ADDRESS;
          op->aux = KS_PTX_ADDRESS_REG;
          op->a = slot;
          set_offset (p, op, (int64_t) ks_ptx_operand_u64 (&imm));
          return TRUE;
        }

      /* name+imm: an address without brackets (mov.u64 %rd1, array+8) */
      if (op->kind != KS_PTX_OPERAND_REG && op->kind != KS_PTX_OPERAND_PRED
          && op->kind != KS_PTX_OPERAND_SREG && is_punct (&p->tok, '+'))
        {
          KsPtxOperand imm = { 0 };
          uint32_t base = op->a;
          uint8_t kind = op->kind;

          advance (p);
          if (!parse_immediate (p, &imm) || imm.kind != KS_PTX_OPERAND_IMM_INT)
            return FALSE;
          op->kind = KS_PTX_OPERAND_ADDRESS;
          op->aux = kind == KS_PTX_OPERAND_VAR ? KS_PTX_ADDRESS_VAR
                    : kind == KS_PTX_OPERAND_FUNC ? KS_PTX_ADDRESS_FUNC : KS_PTX_ADDRESS_NAME;
          op->a = base;
          set_offset (p, op, (int64_t) ks_ptx_operand_u64 (&imm));
          if (kind != KS_PTX_OPERAND_VAR && kind != KS_PTX_OPERAND_FUNC && !needs_fix)
            {
              diag (p, name.line, name.column, KS_PTX_SEVERITY_ERROR,
                    "only a variable or a function can be offset");
              return FALSE;
            }
        }

      if (needs_fix)
        note_fixup (p, &fix, top, where);

      /* setp's p|q */
      if (top && is_punct (&p->tok, '|'))
        {
          /* move a pending fixup of this operand to its element */
          if (needs_fix && p->n_op_fixups > 0 && p->n_elems + 2 <= MAX_ELEMENTS)
            p->op_fixups[p->n_op_fixups - 1].index = p->n_elems | 0x80000000u;
          return parse_pipe (p, op, where, depth);
        }
      return TRUE;
    }

  error_expected (p, "an operand");
  return FALSE;
}

/* ---- instructions ---------------------------------------------------------------------------- */

static gboolean
is_compare_opcode (uint32_t opc)
{
  return opc == KS_PTX_OPC_SETP || opc == KS_PTX_OPC_SET || opc == KS_PTX_OPC_VSET
         || opc == KS_PTX_OPC_VSET2 || opc == KS_PTX_OPC_VSET4;
}

static gboolean
parse_shape (const char *s,
             uint32_t    len,
             uint16_t    mnk[3])
{
  uint32_t i = 0;
  static const char letters[3] = { 'm', 'n', 'k' };

  mnk[0] = mnk[1] = mnk[2] = 0;
  for (int part = 0; part < 3 && i < len; part++)
    {
      uint32_t v = 0, start;

      if (s[i] != letters[part])
        return FALSE;
      i++;
      start = i;
      while (i < len && s[i] >= '0' && s[i] <= '9' && v < 10000)
        v = v * 10 + (uint32_t) (s[i++] - '0');
      if (i == start)
        return FALSE;
      mnk[part] = (uint16_t) v;
    }
  return i == len && mnk[1] != 0;
}

static KsPtxExtra *
insn_extra (Parser    *p,
            KsPtxInsn *insn)
{
  if (insn->extra == 0)
    {
      if (p->m->n_extras == 0)
        PUSH (p, extras);       /* index 0 means "none" */
      PUSH (p, extras);
      insn->extra = p->m->n_extras - 1;
    }
  return &p->m->extras[insn->extra];
}

static void
decode_modifier (Parser           *p,
                 KsPtxInsn        *insn,
                 uint32_t         *n_types,
                 const KsPtxToken *t)
{
  const char *w = p->text + t->offset + 1;
  uint32_t len = t->len - 1;
  uint64_t v;
  uint16_t mnk[3];
  uint32_t cat;

  if (len == 2 && (w[0] == 'l' || w[0] == 'h') && (w[1] == 'o' || w[1] == 'i' || w[1] == 's')
      && is_compare_opcode (insn->opcode))
    {
      insn->cmp = w[0] == 'l' ? (w[1] == 'o' ? KS_PTX_CMP_LO : KS_PTX_CMP_LS)
                              : (w[1] == 'i' ? KS_PTX_CMP_HI : KS_PTX_CMP_HS);
      return;
    }
  if (ks_ptx_lookup_modifier (w, len, t->hash, &cat, &v))
    {
      switch (cat)
        {
        case KS_PTX_WORD_TYPE:
          if (*n_types < 4)
            insn->types[(*n_types)++] = (uint8_t) v;
          return;
        case KS_PTX_WORD_FLAG: insn->flags |= v; return;
        case KS_PTX_WORD_SPACE: insn->space = (uint8_t) v; return;
        case KS_PTX_WORD_CMP: insn->cmp = (uint8_t) v; return;
        case KS_PTX_WORD_OP: insn->op = (uint8_t) v; return;
        case KS_PTX_WORD_ROUND: insn->round = (uint8_t) v; return;
        case KS_PTX_WORD_VEC: insn->vec = (uint8_t) v; return;
        case KS_PTX_WORD_CACHE: insn->cache = (uint8_t) v; return;
        case KS_PTX_WORD_SEM: insn->sem = (uint8_t) v; return;
        case KS_PTX_WORD_SCOPE: insn->scope = (uint8_t) v; return;
        default: break;
        }
    }
  if (parse_shape (w, len, mnk))
    {
      KsPtxExtra *x = insn_extra (p, insn);

      x->shape_m = mnk[0];
      x->shape_n = mnk[1];
      x->shape_k = mnk[2];
    }
  else
    {
      KsPtxExtra *x = insn_extra (p, insn);
      KsPtxSpan *word;

      /* Undecoded words of one instruction are contiguous in words[] */
      if (x->n_words == 0)
        x->first_word = p->m->n_words;
      word = PUSH (p, words);
      word->offset = t->offset + 1;
      word->len = len;
      x->n_words++;
      insn->flags |= KS_PTX_FLAG_UNDECODED;
    }
}

/* ---- operand types ---------------------------------------------------------------------------- */

/* The operand type check of "Operand Type Information" in the PTX ISA, as
 * ptxas applies it (each rule below was tried on ptxas 13.0, which answers
 * "Arguments mismatch for instruction" to a break of any of them):
 *
 *  - A .b type agrees with any type of its size but .pred; .u and .s agree
 *    with each other and with .b; a float type agrees only with itself and
 *    with .b.  A .pred register is a value of no other type, and only a
 *    .pred register is a predicate.
 *  - Sizes match exactly, except that ld, ldu, st and cvt take a wider
 *    register for their data ("Operand Size Exceeding Instruction-Type
 *    Size"): any wider one for a .b, .u or .s type, only a wider .b one for
 *    a float type (ld.u8 into a .b32 register, st.f32 of a .b64 one).
 *  - The .wide forms of mul and mad write (and mad adds) twice the size;
 *    a shift amount is a 32-bit integer whatever the type.
 *
 * Immediates, by the same ptxas:
 *
 *  - a float type takes no integer literal (add.f32 d, a, 1), and the
 *    half types (.f16, .bf16 and their pairs) no literal at all;
 *  - a .u or .s type takes no floating-point literal (0f, 0d or decimal);
 *  - a .b type takes a floating-point literal of its own size only: 0f...
 *    for .b32, 0d... or a decimal one (a double) for .b64.
 *
 * Register, predicate and immediate operands are checked; special
 * registers, addresses and vector groups (mov.b64 d, {a, b}) stay as they
 * were.  Instructions not in the table are not checked. */

enum
{
  CLS_NONE = 0,                 /* not checked */
  CLS_B,
  CLS_I,                        /* .u and .s */
  CLS_F,
  CLS_P,
};

static const uint8_t type_class[KS_PTX_N_TYPES] = {
  [KS_PTX_TYPE_B8] = CLS_B, [KS_PTX_TYPE_B16] = CLS_B,
  [KS_PTX_TYPE_B32] = CLS_B, [KS_PTX_TYPE_B64] = CLS_B,
  [KS_PTX_TYPE_U8] = CLS_I, [KS_PTX_TYPE_U16] = CLS_I,
  [KS_PTX_TYPE_U32] = CLS_I, [KS_PTX_TYPE_U64] = CLS_I,
  [KS_PTX_TYPE_S8] = CLS_I, [KS_PTX_TYPE_S16] = CLS_I,
  [KS_PTX_TYPE_S32] = CLS_I, [KS_PTX_TYPE_S64] = CLS_I,
  [KS_PTX_TYPE_F16] = CLS_F, [KS_PTX_TYPE_F16X2] = CLS_F,
  [KS_PTX_TYPE_BF16] = CLS_F, [KS_PTX_TYPE_BF16X2] = CLS_F,
  [KS_PTX_TYPE_F32] = CLS_F, [KS_PTX_TYPE_F64] = CLS_F,
  [KS_PTX_TYPE_PRED] = CLS_P,
};

/* What each operand of an instruction must be, one letter an operand:
 *   T  a value of the first type, of its size
 *   S  a value of the second type, of its size (set's sources)
 *   R  a value of the first type, that size or a wider register (ld, st, cvt)
 *   Q  a value of the second type, that size or wider (cvt's source)
 *   W  a value of the first type's kind and twice its size (the .wide forms)
 *   A  a 32-bit integer (a shift amount)
 *   P  a predicate
 *   -  not checked */
static const char *const operand_roles[KS_PTX_N_OPCODES] = {
  [KS_PTX_OPC_ADD] = "TTT", [KS_PTX_OPC_SUB] = "TTT", [KS_PTX_OPC_MUL] = "TTT",
  [KS_PTX_OPC_MAD] = "TTTT", [KS_PTX_OPC_FMA] = "TTTT",
  [KS_PTX_OPC_DIV] = "TTT", [KS_PTX_OPC_REM] = "TTT",
  [KS_PTX_OPC_MIN] = "TTTT", [KS_PTX_OPC_MAX] = "TTTT",
  [KS_PTX_OPC_NEG] = "TT", [KS_PTX_OPC_ABS] = "TT",
  [KS_PTX_OPC_SQRT] = "TT", [KS_PTX_OPC_RCP] = "TT", [KS_PTX_OPC_RSQRT] = "TT",
  [KS_PTX_OPC_SIN] = "TT", [KS_PTX_OPC_COS] = "TT", [KS_PTX_OPC_LG2] = "TT",
  [KS_PTX_OPC_EX2] = "TT",
  [KS_PTX_OPC_AND] = "TTT", [KS_PTX_OPC_OR] = "TTT", [KS_PTX_OPC_XOR] = "TTT",
  [KS_PTX_OPC_NOT] = "TT", [KS_PTX_OPC_CNOT] = "TT",
  [KS_PTX_OPC_SHL] = "TTA", [KS_PTX_OPC_SHR] = "TTA",
  [KS_PTX_OPC_SETP] = "PTTP", [KS_PTX_OPC_SET] = "TSSP", [KS_PTX_OPC_SELP] = "TTTP",
  [KS_PTX_OPC_MOV] = "TT", [KS_PTX_OPC_CVT] = "RQ",
  [KS_PTX_OPC_LD] = "R-", [KS_PTX_OPC_LDU] = "R-", [KS_PTX_OPC_ST] = "-R",
};

/* One type's kind and size as a phrase: "a 64-bit .f64 or .b64 register" */
static void
describe_wanted (char       *buf,
                 size_t      size,
                 uint32_t    cls,
                 KsPtxType   type,
                 uint32_t    bits,
                 gboolean    wider)
{
  const char *more = wider ? " or wider" : "";

  switch (cls)
    {
    case CLS_F:
      if (wider)
        g_snprintf (buf, size, "a .%s register or a .b register of %u bits or more",
                    ks_ptx_type_name (type), bits);
      else
        g_snprintf (buf, size, "a .%s or .b%u register", ks_ptx_type_name (type), bits);
      break;
    case CLS_I:
      g_snprintf (buf, size, "a %u-bit%s .u, .s or .b register", bits, more);
      break;
    case CLS_P:
      g_snprintf (buf, size, "a predicate");
      break;
    default:
      g_snprintf (buf, size, "a %u-bit%s register", bits, more);
      break;
    }
}

static KsPtxType
role_type (char               role,
           const KsPtxInsn   *insn)
{
  switch (role)
    {
    case 'S': case 'Q': return (KsPtxType) insn->types[1];
    case 'A': return KS_PTX_TYPE_U32;
    case 'P': return KS_PTX_TYPE_PRED;
    default: return (KsPtxType) insn->types[0];
    }
}

static gboolean
is_half_type (KsPtxType type)
{
  return type == KS_PTX_TYPE_F16 || type == KS_PTX_TYPE_F16X2 || type == KS_PTX_TYPE_BF16
         || type == KS_PTX_TYPE_BF16X2;
}

/* An error at an operand of the instruction named opname, in one form:
 * "operand 2 of mov.u32: ..." */
static void G_GNUC_PRINTF (6, 7)
operand_error (Parser           *p,
               const KsPtxToken *opname,
               uint32_t          opname_end,
               uint32_t          index,
               const OperandPos *at,
               const char       *fmt,
               ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, fmt);
  what = g_strdup_vprintf (fmt, args);
  va_end (args);
  diag (p, at->line, at->column, KS_PTX_SEVERITY_ERROR, "operand %u of %.*s: %s", index + 1,
        (int) (opname_end - opname->offset), p->text + opname->offset, what);
}

/* Checks one immediate operand against what its role wants (see above).
 * Returns FALSE after reporting a mismatch. */
static gboolean
check_immediate (Parser             *p,
                 const KsPtxToken   *opname,
                 uint32_t            opname_end,
                 uint32_t            index,
                 const KsPtxOperand *op,
                 const OperandPos   *pos,
                 char                role,
                 const KsPtxInsn    *insn)
{
  KsPtxType want = role_type (role, insn);
  uint32_t cls = want < KS_PTX_N_TYPES ? type_class[want] : CLS_NONE;
  gboolean is_float = op->kind != KS_PTX_OPERAND_IMM_INT;
  uint32_t bits = ks_ptx_type_size (want) * 8 * (role == 'W' ? 2 : 1);
  const char *why = NULL;
  char wanted[96];

  if (cls == CLS_NONE || cls == CLS_P)
    return TRUE;
  if (is_half_type (want))
    why = "takes no immediate: give a register (mov.b16 or mov.b32 of its bits)";
  else if (cls == CLS_F && !is_float)
    why = "takes no integer literal: write it as a floating-point one (1.0, 0f3F800000)";
  else if (cls == CLS_I && is_float)
    why = "takes no floating-point literal";
  else if (cls == CLS_B && is_float && bits != (op->kind == KS_PTX_OPERAND_IMM_F32 ? 32u : 64u))
    {
      g_snprintf (wanted, sizeof wanted, "takes an integer or a %u-bit floating-point literal "
                  "(%s), not a %u-bit one", bits, bits == 32 ? "0f..." : "0d... or decimal",
                  op->kind == KS_PTX_OPERAND_IMM_F32 ? 32u : 64u);
      why = bits == 32 || bits == 64 ? wanted : "takes no floating-point literal";
    }
  if (why == NULL)
    return TRUE;
  operand_error (p, opname, opname_end, index, pos, "'%.*s': .%s %s", (int) pos->len,
                 p->text + pos->off, ks_ptx_type_name (want), why);
  return FALSE;
}

/* Checks one register or predicate operand against what its role wants.
 * Returns FALSE after reporting a mismatch. */
static gboolean
check_operand_type (Parser             *p,
                    const KsPtxToken   *opname,
                    uint32_t            opname_end,
                    uint32_t            index,
                    const KsPtxOperand *op,
                    const OperandPos   *pos,
                    char                role,
                    const KsPtxInsn    *insn)
{
  const KsPtxFunction *f = &p->m->functions[p->fn];
  KsPtxType want, have;
  uint32_t want_cls, have_cls, want_size, have_size;
  gboolean wider = role == 'R' || role == 'Q';
  gboolean ok;
  char wanted[96];

  if (op->kind == KS_PTX_OPERAND_IMM_INT || op->kind == KS_PTX_OPERAND_IMM_F32
      || op->kind == KS_PTX_OPERAND_IMM_F64)
    return check_immediate (p, opname, opname_end, index, op, pos, role, insn);
  if (op->kind != KS_PTX_OPERAND_REG && op->kind != KS_PTX_OPERAND_PRED)
    return TRUE;

  want = role_type (role, insn);
  want_cls = want < KS_PTX_N_TYPES ? type_class[want] : CLS_NONE;
  if (want_cls == CLS_NONE)
    return TRUE;
  want_size = ks_ptx_type_size (want) * (role == 'W' ? 2 : 1);

  if (op->kind == KS_PTX_OPERAND_PRED)
    {
      have = KS_PTX_TYPE_PRED;
      ok = want_cls == CLS_P;
    }
  else
    {
      if (f->first_slot_type + op->a >= p->m->n_slot_types)
        return TRUE;
      have = (KsPtxType) p->m->slot_types[f->first_slot_type + op->a];
      have_cls = have < KS_PTX_N_TYPES ? type_class[have] : CLS_NONE;
      have_size = ks_ptx_type_size (have);
      if (have_cls == CLS_NONE)
        return TRUE;
      if (want_cls == CLS_P)
        ok = FALSE;
      else if (want_cls == CLS_F && have_cls == CLS_F)
        ok = role == 'W' ? have_size == want_size : have == want;
      else if ((want_cls == CLS_F && have_cls == CLS_I) || (want_cls == CLS_I && have_cls == CLS_F))
        ok = FALSE;
      else if (wider && !(want_cls == CLS_F && have_cls != CLS_B))
        ok = have_size >= want_size;
      else
        ok = have_size == want_size;
    }
  if (ok)
    return TRUE;

  describe_wanted (wanted, sizeof wanted, role == 'A' ? CLS_I : want_cls, want, want_size * 8,
                   wider && want_cls != CLS_P);
  operand_error (p, opname, opname_end, index, pos, "'%.*s' is a .%s register, not %s",
                 (int) pos->len, p->text + pos->off, ks_ptx_type_name (have), wanted);
  return FALSE;
}

/* Special registers, as ptxas 13.0 checks them (docs/PTX.md lists the
 * cases compared):
 *
 *  - they are read by mov and by cvt between integer types only, and
 *    never written; inside a vector group ({%tid.x, %tid.y}) any
 *    instruction may read them;
 *  - the four of PTX 1.0 that are vectors (%tid, %ntid, %ctaid, %nctaid)
 *    and those of clusters are .v4.u32: one element (.x .y .z .w, or
 *    .r .g .b .a) is read by a scalar mov or cvt, the whole by mov.v4;
 *    the others have no elements;
 *  - mov's type is a .u, .s or .b of the register's size (a .pred for
 *    %is_explicit_cluster): 64 bits for %clock64, %globaltimer,
 *    %pm0_64..%pm7_64 and %current_graph_exec, 32 for the rest; 16 bits
 *    too for the elements of the four of PTX 1.0, and any of 16, 32 and 64
 *    for %gridid (32 bits wide before PTX 3.0). */
static uint32_t
sreg_bits (KsPtxSreg sreg)
{
  switch (sreg)
    {
    case KS_PTX_SREG_CLOCK64: case KS_PTX_SREG_GLOBALTIMER: case KS_PTX_SREG_PM64:
    case KS_PTX_SREG_CURRENT_GRAPH_EXEC: case KS_PTX_SREG_GRIDID:
      return 64;
    case KS_PTX_SREG_IS_EXPLICIT_CLUSTER:
      return 1;
    default:
      return 32;
    }
}

static gboolean
sreg_is_vector (KsPtxSreg sreg)
{
  switch (sreg)
    {
    case KS_PTX_SREG_TID: case KS_PTX_SREG_NTID: case KS_PTX_SREG_CTAID: case KS_PTX_SREG_NCTAID:
    case KS_PTX_SREG_CLUSTERID: case KS_PTX_SREG_NCLUSTERID: case KS_PTX_SREG_CLUSTER_CTAID:
    case KS_PTX_SREG_CLUSTER_NCTAID:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The PTX ISA version (major * 10 + minor) and SM a special register
 * needs, as ptxas 13.0 says ("Feature '%clusterid' requires .target sm_90
 * or higher"); 0 for none */
static void
sreg_needs (KsPtxSreg  sreg,
            uint32_t   index,
            uint32_t  *version,
            uint32_t  *sm)
{
  *version = 0;
  *sm = 0;
  switch (sreg)
    {
    case KS_PTX_SREG_AGGR_SMEM_SIZE:
      *version = 81, *sm = 90;
      break;
    case KS_PTX_SREG_CURRENT_GRAPH_EXEC:
      *version = 80;
      break;
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN: case KS_PTX_SREG_RESERVED_SMEM_OFFSET_END:
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_CAP: case KS_PTX_SREG_RESERVED_SMEM_OFFSET_0:
    case KS_PTX_SREG_RESERVED_SMEM_OFFSET_1:
      *version = 76, *sm = 80;
      break;
    case KS_PTX_SREG_DYNAMIC_SMEM_SIZE: case KS_PTX_SREG_TOTAL_SMEM_SIZE:
      *version = 41;
      break;
    case KS_PTX_SREG_CLUSTERID: case KS_PTX_SREG_NCLUSTERID: case KS_PTX_SREG_CLUSTER_CTAID:
    case KS_PTX_SREG_CLUSTER_NCTAID: case KS_PTX_SREG_CLUSTER_CTARANK:
    case KS_PTX_SREG_CLUSTER_NCTARANK: case KS_PTX_SREG_IS_EXPLICIT_CLUSTER:
      *version = 78, *sm = 90;
      break;
    case KS_PTX_SREG_GLOBALTIMER: case KS_PTX_SREG_GLOBALTIMER_LO: case KS_PTX_SREG_GLOBALTIMER_HI:
      *version = 31;
      break;
    case KS_PTX_SREG_CLOCK_HI:
      *version = 50;
      break;
    case KS_PTX_SREG_PM64:
      *version = 40;
      break;
    case KS_PTX_SREG_PM:
      *version = index >= 4 ? 30 : 0;
      break;
    default:
      break;
    }
}

/* %tid, %ntid, %ctaid and %nctaid: 16-bit in PTX 1.x, still read so */
static gboolean
sreg_is_ptx1_vector (KsPtxSreg sreg)
{
  return sreg == KS_PTX_SREG_TID || sreg == KS_PTX_SREG_NTID || sreg == KS_PTX_SREG_CTAID
         || sreg == KS_PTX_SREG_NCTAID;
}

/* Whether mov may read sreg with a type of this many bits */
static gboolean
sreg_mov_size_ok (KsPtxSreg sreg,
                  uint32_t  bits)
{
  if (sreg == KS_PTX_SREG_GRIDID)
    return bits == 16 || bits == 32 || bits == 64;
  if (sreg_is_ptx1_vector (sreg) && bits == 16)
    return TRUE;
  return bits == sreg_bits (sreg);
}

/* Checks the special registers among an instruction's operands (the
 * rules above), and expands a whole one that mov.v4 reads.  FALSE after
 * reporting. */
static gboolean
check_special_registers (Parser           *p,
                         const KsPtxInsn  *insn,
                         const KsPtxToken *opname,
                         uint32_t          opname_end)
{
  for (uint32_t i = 0; i < p->n_top; i++)
    {
      const KsPtxOperand *op = &p->top[i];
      const OperandPos *pos = &p->top_pos[i];
      KsPtxSreg sreg = (KsPtxSreg) op->a;
      gboolean whole = op->aux == KS_PTX_NO_COMPONENT;
      gboolean is_mov = insn->opcode == KS_PTX_OPC_MOV, is_cvt = insn->opcode == KS_PTX_OPC_CVT;
      KsPtxType type = (KsPtxType) insn->types[0];
      uint32_t cls = type < KS_PTX_N_TYPES ? type_class[type] : CLS_NONE;
      uint32_t bits = ks_ptx_type_size (type) * 8;
      uint32_t need_version, need_sm;
      uint32_t have_version = p->m->version_major * 10 + MIN (p->m->version_minor, 9u);
      const char *why = NULL;
      char buf[160];

      if (op->kind != KS_PTX_OPERAND_SREG)
        continue;
      sreg_needs (sreg, op->b, &need_version, &need_sm);
      if (need_version != 0 && p->m->version_major != 0 && have_version < need_version)
        {
          g_snprintf (buf, sizeof buf, "needs PTX ISA .version %u.%u or later, and the module is "
                      ".version %u.%u", need_version / 10, need_version % 10,
                      p->m->version_major, p->m->version_minor);
          why = buf;
        }
      else if (need_sm != 0 && p->target_sm != 0 && p->target_sm < need_sm)
        {
          g_snprintf (buf, sizeof buf, "needs .target sm_%u or later, and the module's is sm_%u",
                      need_sm, p->target_sm);
          why = buf;
        }
      else if (i == 0 && (is_mov || is_cvt))
        why = "is a special register, which is read only: it cannot be written";
      else if (!is_mov && !is_cvt)
        why = "is a special register, which only mov and cvt read: move it to a register with "
              "mov first";
      else if (sreg_is_vector (sreg) && whole && !(is_mov && insn->vec == KS_PTX_VEC_V4))
        why = "is a .v4.u32 vector: read one element (.x, .y, .z or .w), or all four with "
              "mov.v4";
      else if (!sreg_is_vector (sreg) && !whole)
        why = "has no elements: it is a scalar register";
      else if (is_cvt)
        {
          KsPtxType from = (KsPtxType) insn->types[1];

          if (cls != CLS_I || from >= KS_PTX_N_TYPES || type_class[from] != CLS_I)
            why = "is a special register, which cvt reads only between integer types";
        }
      else if (sreg == KS_PTX_SREG_IS_EXPLICIT_CLUSTER ? cls != CLS_P
               : cls != CLS_I && cls != CLS_B)
        why = sreg == KS_PTX_SREG_IS_EXPLICIT_CLUSTER
              ? "is a predicate: mov.pred reads it"
              : "is an integer special register: mov reads it as .u, .s or .b";
      else if (cls != CLS_P && !sreg_mov_size_ok (sreg, bits))
        {
          g_snprintf (buf, sizeof buf, "is a %u-bit special register: mov reads it with a "
                      "%u-bit type%s, not .%s", sreg_bits (sreg), sreg_bits (sreg),
                      sreg_is_ptx1_vector (sreg) ? " (or 16-bit)" : "", ks_ptx_type_name (type));
          why = buf;
        }
      if (why == NULL)
        {
          if (sreg_is_vector (sreg) && whole && !expand_to_elements (p, &p->top[i], 4, *pos))
            return FALSE;
          continue;
        }
      operand_error (p, opname, opname_end, i, pos, "'%.*s' %s", (int) pos->len,
                     p->text + pos->off, why);
      return FALSE;
    }
  return TRUE;
}

/* The bits of a register element of a vector group, 0 for anything else
 * (a sink, an immediate, a special register) */
static uint32_t
element_bits (Parser             *p,
              const KsPtxOperand *e)
{
  const KsPtxFunction *f = &p->m->functions[p->fn];
  KsPtxType t;

  if (e->kind != KS_PTX_OPERAND_REG || f->first_slot_type + e->a >= p->m->n_slot_types)
    return 0;
  t = (KsPtxType) p->m->slot_types[f->first_slot_type + e->a];
  return t < KS_PTX_N_TYPES && type_class[t] != CLS_NONE && type_class[t] != CLS_P
         ? ks_ptx_type_size (t) * 8 : 0;
}

/* Vector groups of mov, ld, ldu and st, as ptxas 13.0 checks them:
 *  - ld.vN, st.vN and mov.vN take groups of exactly N ("Argument vector
 *    size mismatch");
 *  - the registers of one group are all of one size ("Incompatible
 *    elements of vector expression");
 *  - a packing or unpacking mov (mov.b64 d, {a, b}; mov.b32 {h, l}, s) is
 *    of a .b type, its group of 2 or 4 elements that together make the
 *    type's size, and no sink among what it reads but for mov.b32's
 *    halves ("Illegal vector size",
 *    "Arguments mismatch", "Sink '_' not allowed as a source operand").
 * mma's fragments are check_mma_fragments's, texture coordinates
 * check_tex_coordinates's; other instructions' groups are not checked. */
static gboolean
check_vector_groups (Parser           *p,
                     const KsPtxInsn  *insn,
                     const KsPtxToken *opname,
                     uint32_t          opname_end)
{
  uint32_t vec = insn->vec == KS_PTX_VEC_V2 ? 2 : insn->vec == KS_PTX_VEC_V4 ? 4
                 : insn->vec == KS_PTX_VEC_V8 ? 8 : 0;
  KsPtxType type = (KsPtxType) insn->types[0];
  uint32_t type_bits = ks_ptx_type_size (type) * 8;
  gboolean packing = insn->opcode == KS_PTX_OPC_MOV && insn->vec == KS_PTX_VEC_NONE;

  if (insn->opcode != KS_PTX_OPC_MOV && insn->opcode != KS_PTX_OPC_LD
      && insn->opcode != KS_PTX_OPC_LDU && insn->opcode != KS_PTX_OPC_ST)
    return TRUE;
  for (uint32_t i = 0; i < p->n_top; i++)
    {
      const KsPtxOperand *op = &p->top[i];
      const OperandPos *pos = &p->top_pos[i];
      uint32_t n = op->aux, bits = 0;
      char why[160];

      if (op->kind != KS_PTX_OPERAND_VECTOR || op->a + n > p->n_elems)
        continue;
      why[0] = '\0';
      if (vec != 0 && n != vec)
        g_snprintf (why, sizeof why, "is a group of %u, and .v%u takes %u", n, vec, vec);
      else if (packing && n != 2 && n != 4)
        g_snprintf (why, sizeof why, "is a group of %u: a packing mov takes 2 or 4", n);
      else if (packing && (type >= KS_PTX_N_TYPES || type_class[type] != CLS_B))
        g_snprintf (why, sizeof why, "is a group: mov packs and unpacks with a .b type "
                    "(.b16, .b32, .b64), not .%s", ks_ptx_type_name (type));
      if (why[0] != '\0')
        {
          operand_error (p, opname, opname_end, i, pos, "'%.*s' %s", (int) pos->len,
                         p->text + pos->off, why);
          return FALSE;
        }
      for (uint32_t k = 0; k < n; k++)
        {
          const KsPtxOperand *e = &p->elems[op->a + k];
          const OperandPos *epos = &p->elem_pos[op->a + k];
          uint32_t b = element_bits (p, e);

          /* (ptxas takes a sink among the halves mov.b32 reads) */
          if (packing && i > 0 && e->kind == KS_PTX_OPERAND_SINK && type_bits != 32)
            g_snprintf (why, sizeof why, "'_' is read here: only a destination may be a sink");
          else if (b != 0 && bits != 0 && b != bits)
            g_snprintf (why, sizeof why, "'%.*s' is a %u-bit register, and the group's are "
                        "%u-bit", (int) epos->len, p->text + epos->off, b, bits);
          else if (b != 0 && packing && b * n != type_bits)
            g_snprintf (why, sizeof why, "%u registers of %u bits make %u, not the %u of .%s",
                        n, b, b * n, type_bits, ks_ptx_type_name (type));
          if (why[0] != '\0')
            {
              operand_error (p, opname, opname_end, i, epos, "%s", why);
              return FALSE;
            }
          if (bits == 0)
            bits = b;
        }
    }
  return TRUE;
}

/* The registers a thread holds of mma.sync's fragments, from the PTX ISA's
 * "Matrix fragments for mma.mMnNkK" sections: A, B, and C or D with a
 * 32-bit (or .f64) accumulator; an .f16 accumulator packs two a register.
 * Checked against ptxas 13.0 (184 wrong counts refused, 25 right ones
 * taken). */
typedef struct
{
  uint8_t cls, m, n;
  uint16_t k;
  uint8_t a, b, c;
} MmaFragments;

enum { MMA_F16, MMA_BF16, MMA_TF32, MMA_F64, MMA_I8, MMA_FP8, MMA_I4, MMA_B1, MMA_OTHER };

static const MmaFragments mma_fragments[] = {
  { MMA_F16, 8, 8, 4, 2, 2, 8 },
  { MMA_F16, 16, 8, 8, 2, 1, 4 },
  { MMA_F16, 16, 8, 16, 4, 2, 4 },
  { MMA_BF16, 16, 8, 8, 2, 1, 4 },
  { MMA_BF16, 16, 8, 16, 4, 2, 4 },
  { MMA_TF32, 16, 8, 4, 2, 1, 4 },
  { MMA_TF32, 16, 8, 8, 4, 2, 4 },
  { MMA_F64, 8, 8, 4, 1, 1, 2 },
  { MMA_F64, 16, 8, 4, 2, 1, 4 },
  { MMA_F64, 16, 8, 8, 4, 2, 4 },
  { MMA_F64, 16, 8, 16, 8, 4, 4 },
  { MMA_I8, 8, 8, 16, 1, 1, 2 },
  { MMA_I8, 16, 8, 16, 2, 1, 4 },
  { MMA_I8, 16, 8, 32, 4, 2, 4 },
  { MMA_FP8, 16, 8, 32, 4, 2, 4 },
  { MMA_I4, 8, 8, 32, 1, 1, 2 },
  { MMA_I4, 16, 8, 32, 2, 1, 4 },
  { MMA_I4, 16, 8, 64, 4, 2, 4 },
  { MMA_B1, 8, 8, 128, 1, 1, 2 },
  { MMA_B1, 16, 8, 128, 2, 1, 4 },
  { MMA_B1, 16, 8, 256, 4, 2, 4 },
};

static int
mma_class (KsPtxType t)
{
  switch (t)
    {
    case KS_PTX_TYPE_F16: return MMA_F16;
    case KS_PTX_TYPE_BF16: return MMA_BF16;
    case KS_PTX_TYPE_TF32: return MMA_TF32;
    case KS_PTX_TYPE_F64: return MMA_F64;
    case KS_PTX_TYPE_S8: case KS_PTX_TYPE_U8: return MMA_I8;
    case KS_PTX_TYPE_E4M3: case KS_PTX_TYPE_E5M2: return MMA_FP8;
    case KS_PTX_TYPE_S4: case KS_PTX_TYPE_U4: return MMA_I4;
    case KS_PTX_TYPE_B1: return MMA_B1;
    default: return MMA_OTHER;
    }
}

/* mma.sync's four groups against their fragments ("Argument vector size
 * mismatch", "Illegal vector size", "Arguments mismatch" from ptxas).  A
 * shape or type this table does not list is left to the simulator, which
 * says what it does not support. */
static gboolean
check_mma_fragments (Parser           *p,
                     const KsPtxInsn  *insn,
                     const KsPtxToken *opname,
                     uint32_t          opname_end)
{
  static const char *const names[4] = { "D", "A", "B", "C" };
  const KsPtxExtra *x;
  const MmaFragments *f = NULL;
  int cls;

  if (insn->opcode != KS_PTX_OPC_MMA || insn->extra == 0 || insn->extra >= p->m->n_extras
      || p->n_top != 4)
    return TRUE;
  x = &p->m->extras[insn->extra];
  cls = mma_class ((KsPtxType) insn->types[1]);
  if (cls != mma_class ((KsPtxType) insn->types[2]))
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (mma_fragments); i++)
    if (mma_fragments[i].cls == cls && mma_fragments[i].m == x->shape_m
        && mma_fragments[i].n == x->shape_n && mma_fragments[i].k == x->shape_k)
      {
        f = &mma_fragments[i];
        break;
      }
  if (f == NULL)
    return TRUE;

  for (uint32_t i = 0; i < 4; i++)
    {
      const KsPtxOperand *op = &p->top[i];
      const OperandPos *pos = &p->top_pos[i];
      KsPtxType t = (KsPtxType) insn->types[i];
      uint32_t want = i == 1 ? f->a : i == 2 ? f->b
                      : t == KS_PTX_TYPE_F16 ? f->c / 2u : f->c;

      if (op->kind != KS_PTX_OPERAND_VECTOR)
        {
          operand_error (p, opname, opname_end, i, pos, "'%.*s': the %s fragment of "
                         "mma.m%un%uk%u is a group in braces of %u register%s",
                         (int) pos->len, p->text + pos->off, names[i], f->m, f->n, f->k, want,
                         want == 1 ? "" : "s");
          return FALSE;
        }
      if (op->aux != want)
        {
          operand_error (p, opname, opname_end, i, pos, "'%.*s' is a group of %u: the %s "
                         "fragment of mma.m%un%uk%u%s%s is %u register%s a thread",
                         (int) pos->len, p->text + pos->off, (uint32_t) op->aux, names[i], f->m,
                         f->n, f->k,
                         i == 0 || i == 3 ? " with ." : "",
                         i == 0 || i == 3 ? ks_ptx_type_name (t) : "", want,
                         want == 1 ? "" : "s");
          return FALSE;
        }
    }
  return TRUE;
}

/* The coordinates of tex and tld4 ([tex, {x, y}] or [tex, sampler, {...}]),
 * as ptxas 13.0 checks them (tests/ptx/tex-coordinates.txt, made with it):
 *  - a group of 3 is refused whatever the geometry ("Illegal vector
 *    size: 3");
 *  - each geometry takes the groups below ("Operand vector size doesn't
 *    match geometry"): 1d 1, 2 or 4; 2d 2 or 4; a1d 2 or 4; 3d, a2d, cube,
 *    acube, 2dms and a2dms 4;
 *  - one register without braces, which ptxas takes for 1d, 2d, 3d and
 *    cube and crashes on for the others, is refused for the others;
 *  - cube and acube take .f32 coordinates only ("Floating-point
 *    coordinates required"), 2dms and a2dms .s32 ("Integer coordinates
 *    require .s32");
 *  - a layered geometry's array index, the group's first register, is a
 *    32-bit integer one ("Array index ... Expecting type .u32");
 *  - tld4 gathers from 2d, a2d, cube and acube only, with .f32
 *    coordinates ("Illegal modifier", "Unexpected instruction types").
 * The simulator runs the groups the PTX ISA gives (1d 1, 2d 2, the others
 * 4) and refuses the others ptxas takes, whose meaning it does not know. */
static const struct
{
  const char *geom;
  uint8_t sizes;                /* bit n: a group of n */
  gboolean scalar;
} tex_coordinates[] = {
  { "1d", 1u << 1 | 1u << 2 | 1u << 4, TRUE }, { "2d", 1u << 2 | 1u << 4, TRUE },
  { "3d", 1u << 4, TRUE }, { "a1d", 1u << 2 | 1u << 4, FALSE }, { "a2d", 1u << 4, FALSE },
  { "cube", 1u << 4, TRUE }, { "acube", 1u << 4, FALSE }, { "2dms", 1u << 4, FALSE },
  { "a2dms", 1u << 4, FALSE },
};

static gboolean
check_tex_coordinates (Parser           *p,
                       const KsPtxInsn  *insn,
                       const KsPtxToken *opname,
                       uint32_t          opname_end)
{
  const KsPtxExtra *x;
  int g = -1;

  if ((insn->opcode != KS_PTX_OPC_TEX && insn->opcode != KS_PTX_OPC_TLD4) || insn->extra == 0
      || insn->extra >= p->m->n_extras)
    return TRUE;
  x = &p->m->extras[insn->extra];
  for (uint32_t w = 0; w < x->n_words && g < 0; w++)
    {
      KsPtxSpan span = p->m->words[x->first_word + w];

      for (guint k = 0; k < G_N_ELEMENTS (tex_coordinates); k++)
        if (span.len == strlen (tex_coordinates[k].geom)
            && memcmp (p->text + span.offset, tex_coordinates[k].geom, span.len) == 0)
          g = (int) k;
    }
  if (g < 0)
    return TRUE;
  if (insn->opcode == KS_PTX_OPC_TLD4)
    {
      const char *geom = tex_coordinates[g].geom;

      if (strcmp (geom, "2d") != 0 && strcmp (geom, "a2d") != 0 && strcmp (geom, "cube") != 0
          && strcmp (geom, "acube") != 0)
        {
          diag (p, opname->line, opname->column, KS_PTX_SEVERITY_ERROR,
                "tld4.%s: tld4 gathers from .2d, .a2d, .cube and .acube textures only", geom);
          return FALSE;
        }
      if ((KsPtxType) insn->types[1] != KS_PTX_TYPE_F32)
        {
          diag (p, opname->line, opname->column, KS_PTX_SEVERITY_ERROR,
                "tld4's coordinates are .f32, not .%s",
                ks_ptx_type_name ((KsPtxType) insn->types[1]));
          return FALSE;
        }
    }

  for (uint32_t i = 0; i < p->n_top; i++)
    {
      const KsPtxOperand *list = &p->top[i], *c;
      const OperandPos *pos;
      const char *geom = tex_coordinates[g].geom;
      uint32_t n;

      if (list->kind != KS_PTX_OPERAND_LIST || list->aux < 2 || list->a + list->aux > p->n_elems)
        continue;
      c = &p->elems[list->a + list->aux - 1];
      pos = &p->elem_pos[list->a + list->aux - 1];
      n = c->kind == KS_PTX_OPERAND_VECTOR ? c->aux : 0;
      if (n == 3 || n > 4)
        {
          operand_error (p, opname, opname_end, i, pos, "a group of %u coordinates: ptxas "
                         "takes groups of 1, 2 or 4 (\"Illegal vector size\")", n);
          return FALSE;
        }
      if (n == 0 && !tex_coordinates[g].scalar)
        {
          operand_error (p, opname, opname_end, i, pos, "the coordinates of a .%s texture "
                         "are a group in braces of %s", geom,
                         tex_coordinates[g].sizes & (1u << 2) ? "2 or 4" : "4");
          return FALSE;
        }
      if (n != 0 && !(tex_coordinates[g].sizes & (1u << n)))
        {
          const uint8_t s = tex_coordinates[g].sizes;

          operand_error (p, opname, opname_end, i, pos, "a group of %u coordinate%s: a .%s "
                         "texture takes %s", n, n == 1 ? "" : "s", geom,
                         s & (1u << 1) ? "1, 2 or 4" : s & (1u << 2) ? "2 or 4" : "4");
          return FALSE;
        }
      if ((strcmp (geom, "cube") == 0 || strcmp (geom, "acube") == 0)
          && (KsPtxType) insn->types[1] != KS_PTX_TYPE_F32)
        {
          operand_error (p, opname, opname_end, i, pos, "the coordinates of a .%s texture are "
                         ".f32, not .%s", geom, ks_ptx_type_name ((KsPtxType) insn->types[1]));
          return FALSE;
        }
      if (strstr (geom, "ms") != NULL && (KsPtxType) insn->types[1] != KS_PTX_TYPE_S32)
        {
          operand_error (p, opname, opname_end, i, pos, "the coordinates of a .%s texture "
                         "(a sample index and texel indices) are .s32, not .%s", geom,
                         ks_ptx_type_name ((KsPtxType) insn->types[1]));
          return FALSE;
        }
      if (geom[0] == 'a' && n >= 1 && p->elems[c->a].kind == KS_PTX_OPERAND_REG
          && p->fn != KS_PTX_NONE)
        {
          const KsPtxFunction *f = &p->m->functions[p->fn];
          uint32_t slot = f->first_slot_type + p->elems[c->a].a;
          KsPtxType t = slot < p->m->n_slot_types ? (KsPtxType) p->m->slot_types[slot]
                                                  : KS_PTX_TYPE_NONE;

          if (t != KS_PTX_TYPE_NONE && t < KS_PTX_N_TYPES
              && (type_class[t] == CLS_F || ks_ptx_type_size (t) != 4))
            {
              operand_error (p, opname, opname_end, i, pos, "the array index of a .%s texture, "
                             "the group's first register, is a 32-bit integer, not .%s", geom,
                             ks_ptx_type_name (t));
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* The operand type check of one parsed instruction, on p->top and
 * p->elems before they are committed.  Returns FALSE after reporting. */
static gboolean
check_operand_types (Parser           *p,
                     const KsPtxInsn  *insn,
                     const KsPtxToken *opname,
                     uint32_t          opname_end)
{
  const char *roles = insn->opcode < KS_PTX_N_OPCODES ? operand_roles[insn->opcode] : NULL;

  if (!check_special_registers (p, insn, opname, opname_end)
      || !check_mma_fragments (p, insn, opname, opname_end)
      || !check_tex_coordinates (p, insn, opname, opname_end))
    return FALSE;
  if (roles == NULL || p->fn == KS_PTX_NONE)
    return TRUE;
  /* cvt's packing forms (cvt.rn.f16x2.f32 d, a, b) have other rules */
  if (insn->opcode == KS_PTX_OPC_CVT && p->n_top != 2)
    return TRUE;

  for (uint32_t i = 0; i < p->n_top && roles[i] != '\0'; i++)
    {
      const KsPtxOperand *op = &p->top[i];
      char role = roles[i];

      if (role == '-')
        continue;
      if ((insn->flags & KS_PTX_FLAG_WIDE) && (i == 0 || (i == 3 && insn->opcode == KS_PTX_OPC_MAD)))
        role = 'W';

      if (op->kind == KS_PTX_OPERAND_VECTOR)
        {
          /* ld.v4, st.v4 and mov.v4 data, setp's p|q, each element as the
           * role says; a packing mov's (mov.b64 d, {a, b}) are of a part
           * of the type (check_vector_groups) */
          if (insn->opcode == KS_PTX_OPC_MOV && insn->vec == KS_PTX_VEC_NONE)
            continue;
          for (uint32_t k = 0; k < op->aux && op->a + k < p->n_elems; k++)
            if (!check_operand_type (p, opname, opname_end, i, &p->elems[op->a + k],
                                     &p->elem_pos[op->a + k], role, insn))
              return FALSE;
          continue;
        }
      if (!check_operand_type (p, opname, opname_end, i, op, &p->top_pos[i], role, insn))
        return FALSE;
    }
  /* (after each element's own check, whose message is the more precise) */
  return check_vector_groups (p, insn, opname, opname_end);
}

static void
parse_instruction (Parser *p)
{
  KsPtxInsn insn = { 0 };
  KsPtxToken opname;
  uint32_t n_types = 0, opname_end;
  uint64_t v;

  insn.pred = KS_PTX_NONE;
  insn.line = p->tok.line;
  insn.loc = p->loc;

  if (is_punct (&p->tok, '@'))
    {
      KsPtxOperand op = { 0 };
      Fixup fix = { 0 };
      gboolean needs_fix;

      advance (p);
      if (is_punct (&p->tok, '!'))
        {
          insn.pred_not = 1;
          advance (p);
        }
      if (p->tok.kind != KS_PTX_TOK_IDENT)
        {
          error_expected (p, "a predicate register after '@'");
          recover (p);
          return;
        }
      resolve_operand_name (p, &p->tok, &op, &fix, &needs_fix);
      if (op.kind != KS_PTX_OPERAND_PRED)
        {
          g_autofree char *what = describe (p, &p->tok);

          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                "%s is not a declared predicate register", what);
          recover (p);
          return;
        }
      insn.pred = op.a;
      advance (p);
    }

  if (p->tok.kind != KS_PTX_TOK_IDENT)
    {
      error_expected (p, "an instruction");
      recover (p);
      return;
    }

  opname = p->tok;
  if (ks_ptx_lookup_word_hashed (p->text + opname.offset, opname.len, opname.hash,
                                 KS_PTX_WORD_OPCODE, &v))
    insn.opcode = (uint16_t) v;
  else
    {
      g_autofree char *what = describe (p, &opname);

      insn.opcode = KS_PTX_OPC_UNKNOWN;
      insn_extra (p, &insn)->opcode_name = tok_span (&opname);
      diag (p, opname.line, opname.column, KS_PTX_SEVERITY_WARNING,
            "unknown instruction %s", what);
    }
  advance (p);

  while (p->tok.kind == KS_PTX_TOK_DOTWORD && !p->tok.space_before)
    {
      decode_modifier (p, &insn, &n_types, &p->tok);
      advance (p);
    }
  opname_end = p->prev_end;

  p->n_top = 0;
  p->n_elems = 0;
  p->n_op_fixups = 0;
  if (is_punct (&p->tok, '}') || p->tok.kind == KS_PTX_TOK_EOF)
    {
      expect_semicolon (p, "an instruction");
      return;
    }
  if (!is_punct (&p->tok, ';'))
    {
      for (;;)
        {
          KsPtxOperand *op;

          if (p->n_top >= MAX_TOP_OPERANDS)
            {
              diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "too many operands");
              recover (p);
              return;
            }
          op = &p->top[p->n_top];
          memset (op, 0, sizeof *op);
          p->n_top++;
          if (!parse_operand (p, op, TRUE, p->n_top - 1, 0))
            {
              recover (p);
              return;
            }
          if (is_punct (&p->tok, ','))
            {
              advance (p);
              continue;
            }
          break;
        }
      if (!is_punct (&p->tok, ';'))
        {
          error_expected (p, "',' or ';' after an operand");
          recover (p);
          return;
        }
    }
  if (!expect_semicolon (p, "an instruction"))
    return;

  /* Part selectors (r1.b0) belong to the video instructions */
  if (insn.opcode < KS_PTX_OPC_VABSDIFF || insn.opcode > KS_PTX_OPC_VSUB4
      || insn.opcode == KS_PTX_OPC_VOTE)
    for (uint32_t i = 0; i < p->n_top; i++)
      if (p->top[i].kind == KS_PTX_OPERAND_REG && p->top[i].b != KS_PTX_SEL_NONE)
        {
          diag (p, opname.line, opname.column, KS_PTX_SEVERITY_ERROR,
                "operand %u: a part selector such as .b0 or .h1 applies to video instructions "
                "(vadd, vshr, ...) only", i + 1);
          return;
        }

  if (!check_operand_types (p, &insn, &opname, opname_end))
    return;

  /* Commit: top-level operands, then the elements they refer to. */
  insn.first_operand = p->m->n_operands;
  insn.n_operands = (uint8_t) p->n_top;
  {
    uint32_t elem_base = insn.first_operand + p->n_top;

    for (uint32_t i = 0; i < p->n_top + p->n_elems; i++)
      {
        KsPtxOperand *dst = PUSH (p, operands);

        *dst = i < p->n_top ? p->top[i] : p->elems[i - p->n_top];
        if ((dst->kind == KS_PTX_OPERAND_VECTOR || dst->kind == KS_PTX_OPERAND_LIST))
          dst->a += elem_base;
      }
    for (uint32_t i = 0; i < p->n_op_fixups; i++)
      {
        Fixup f = p->op_fixups[i];

        f.index = (f.index & 0x80000000u) ? elem_base + (f.index & 0x7fffffffu)
                                          : insn.first_operand + f.index;
        g_array_append_val (p->fn_fixups, f);
      }
  }

  *PUSH (p, insns) = insn;
}

/* ---- declarations ------------------------------------------------------------------------------ */

typedef struct
{
  uint8_t space;
  uint8_t type;
  uint8_t vec;
  uint8_t ptr_space;
  uint32_t align, ptr_align;
  gboolean ptr;
  uint32_t var_flags;           /* KS_PTX_VAR_MANAGED, KS_PTX_VAR_UNIFIED */
  uint32_t attr_line, attr_column; /* where .attribute is */
} DeclAttrs;

static gboolean
space_of_directive (uint32_t  dir,
                    uint8_t  *space)
{
  switch (dir)
    {
    case KS_PTX_DIR_GLOBAL: *space = KS_PTX_SPACE_GLOBAL; return TRUE;
    case KS_PTX_DIR_CONST: *space = KS_PTX_SPACE_CONST; return TRUE;
    case KS_PTX_DIR_SHARED: *space = KS_PTX_SPACE_SHARED; return TRUE;
    case KS_PTX_DIR_LOCAL: *space = KS_PTX_SPACE_LOCAL; return TRUE;
    case KS_PTX_DIR_PARAM: *space = KS_PTX_SPACE_PARAM; return TRUE;
    case KS_PTX_DIR_REG: *space = KS_PTX_SPACE_REG; return TRUE;
    case KS_PTX_DIR_TEX: *space = KS_PTX_SPACE_TEX; return TRUE;
    case KS_PTX_DIR_SURF: *space = KS_PTX_SPACE_SURF; return TRUE;
    case KS_PTX_DIR_SREG: *space = KS_PTX_SPACE_SREG; return TRUE;
    default: return FALSE;
    }
}

/* .attribute(.managed) or .attribute(.unified(UUID1, UUID2)), the
 * directive itself read: the variable attributes of the PTX ISA */
static gboolean
parse_var_attribute (Parser    *p,
                     DeclAttrs *a)
{
  if (!expect_punct (p, '(', "'('"))
    return FALSE;
  for (;;)
    {
      if (tok_is (p, ".managed"))
        {
          a->var_flags |= KS_PTX_VAR_MANAGED;
          advance (p);
        }
      else if (tok_is (p, ".unified"))
        {
          uint64_t uuid;

          a->var_flags |= KS_PTX_VAR_UNIFIED;
          advance (p);
          if (!expect_punct (p, '(', "'('") || !parse_uint (p, &uuid, "a UUID")
              || !expect_punct (p, ',', "','") || !parse_uint (p, &uuid, "a UUID")
              || !expect_punct (p, ')', "')'"))
            return FALSE;
        }
      else
        {
          error_expected (p, "a variable attribute, .managed or .unified");
          return FALSE;
        }
      if (!is_punct (&p->tok, ','))
        break;
      advance (p);
    }
  return expect_punct (p, ')', "')'");
}

/* After the state space: [.align N] [.vN] [.ptr [.space] [.align N]]
 * [.attribute(...)] .type, in any order; for .param the .ptr attributes may
 * follow the type. */
static gboolean
parse_decl_attrs (Parser    *p,
                  DeclAttrs *a)
{
  gboolean have_type = FALSE;

  a->vec = 1;
  for (;;)
    {
      uint32_t dir = directive_of (p, &p->tok);
      KsPtxType t = type_of (p, &p->tok);

      if (t != KS_PTX_TYPE_NONE)
        {
          if (have_type)
            break;
          a->type = (uint8_t) t;
          have_type = TRUE;
          advance (p);
          continue;
        }
      switch (dir)
        {
        case KS_PTX_DIR_ALIGN:
          advance (p);
          if (!parse_u32 (p, a->ptr ? &a->ptr_align : &a->align, "an alignment"))
            return FALSE;
          continue;
        case KS_PTX_DIR_V2: a->vec = 2; advance (p); continue;
        case KS_PTX_DIR_V4: a->vec = 4; advance (p); continue;
        case KS_PTX_DIR_V8: a->vec = 8; advance (p); continue;
        case KS_PTX_DIR_PTR:
          a->ptr = TRUE;
          advance (p);
          continue;
        case KS_PTX_DIR_ATTRIBUTE:
          a->attr_line = p->tok.line;
          a->attr_column = p->tok.column;
          advance (p);
          if (!parse_var_attribute (p, a))
            return FALSE;
          continue;
        case KS_PTX_DIR_TEXREF:
          a->type = KS_PTX_TYPE_TEXREF; have_type = TRUE; advance (p); continue;
        case KS_PTX_DIR_SAMPLERREF:
          a->type = KS_PTX_TYPE_SAMPLERREF; have_type = TRUE; advance (p); continue;
        case KS_PTX_DIR_SURFREF:
          a->type = KS_PTX_TYPE_SURFREF; have_type = TRUE; advance (p); continue;
        case KS_PTX_DIR_GLOBAL: case KS_PTX_DIR_SHARED: case KS_PTX_DIR_CONST:
        case KS_PTX_DIR_LOCAL:
          if (a->ptr)
            {
              space_of_directive (dir, &a->ptr_space);
              advance (p);
              continue;
            }
          break;
        default:
          break;
        }
      break;
    }
  if (!have_type)
    {
      error_expected (p, "a type such as .b32 or .f32");
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_dims (Parser  *p,
            KsPtxVar *var)
{
  uint64_t n = 1;

  while (is_punct (&p->tok, '['))
    {
      uint32_t d = 0;

      advance (p);
      if (is_punct (&p->tok, ']'))
        var->flags |= KS_PTX_VAR_UNSIZED;
      else if (!parse_u32 (p, &d, "an array size"))
        return FALSE;
      if (!expect_punct (p, ']', "']'"))
        return FALSE;
      if (var->n_dims < G_N_ELEMENTS (var->dims))
        var->dims[var->n_dims++] = d;
      else
        {
          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "too many array dimensions");
          return FALSE;
        }
      if (d != 0 && n > G_MAXUINT64 / d)
        {
          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "array too large");
          return FALSE;
        }
      n *= d ? d : 1;
    }
  var->n_elements = (var->flags & KS_PTX_VAR_UNSIZED) ? 0 : n;
  return TRUE;
}

static gboolean
parse_init_scalar (Parser *p)
{
  KsPtxInit *in;

  /* .samplerref fields: { addr_mode_0 = clamp_to_edge, filter_mode = linear } */
  if (p->tok.kind == KS_PTX_TOK_IDENT && is_punct (peek (p), '='))
    {
      in = PUSH (p, inits);
      in->kind = KS_PTX_INIT_FIELD;
      in->index = p->tok.offset;
      in->value = p->tok.len;
      advance (p);
      advance (p);
      if (p->tok.kind == KS_PTX_TOK_IDENT)
        {
          in = PUSH (p, inits);
          in->kind = KS_PTX_INIT_WORD;
          in->index = p->tok.offset;
          in->value = p->tok.len;
          advance (p);
          return TRUE;
        }
      return parse_init_scalar (p);
    }

  if (p->tok.kind == KS_PTX_TOK_IDENT)
    {
      gboolean generic = tok_is (p, "generic") && is_punct (peek (p), '(');
      KsPtxToken name;
      uint32_t idx;
      Fixup fix = { 0 };

      if (generic)
        {
          advance (p);
          advance (p);
          if (p->tok.kind != KS_PTX_TOK_IDENT)
            {
              error_expected (p, "a variable name in generic( )");
              return FALSE;
            }
        }
      name = p->tok;
      advance (p);
      if (generic && !expect_punct (p, ')', "')'"))
        return FALSE;

      in = PUSH (p, inits);
      idx = name_map_get (&p->gvars, p->text, name.offset, name.len,
                          ks_ptx_hash_bytes (p->text + name.offset, name.len));
      if (idx != KS_PTX_NONE)
        {
          in->kind = generic ? KS_PTX_INIT_GENERIC_VAR : KS_PTX_INIT_VAR;
          in->index = idx;
        }
      else if (!generic && (idx = name_map_get (&p->gfuncs, p->text, name.offset, name.len,
                                                ks_ptx_hash_bytes (p->text + name.offset,
                                                                   name.len))) != KS_PTX_NONE)
        {
          in->kind = KS_PTX_INIT_FUNC;
          in->index = idx;
        }
      else
        {
          in->kind = KS_PTX_INIT_NAME;
          in->index = generic;
          fix.kind = FIX_INIT;
          fix.index = p->m->n_inits - 1;
          fix.off = name.offset;
          fix.len = name.len;
          fix.line = name.line;
          fix.column = name.column;
          g_array_append_val (p->module_fixups, fix);
        }
      if (is_punct (&p->tok, '+'))
        {
          uint64_t off;

          advance (p);
          if (!parse_uint (p, &off, "an offset"))
            return FALSE;
          p->m->inits[p->m->n_inits - 1].value = off;
        }
      return TRUE;
    }

  {
    KsPtxOperand imm = { 0 };

    if (!parse_immediate (p, &imm))
      return FALSE;
    in = PUSH (p, inits);
    in->value = ks_ptx_operand_u64 (&imm);
    in->kind = imm.kind == KS_PTX_OPERAND_IMM_INT ? KS_PTX_INIT_INT
               : imm.kind == KS_PTX_OPERAND_IMM_F32 ? KS_PTX_INIT_F32 : KS_PTX_INIT_F64;
    if (imm.kind == KS_PTX_OPERAND_IMM_F32)
      in->value = imm.a;
  }
  return TRUE;
}

/* An initializer: a scalar or nested { ... } lists, flattened in order.
 * Nesting is bounded, so hostile input cannot exhaust the stack. */
static gboolean
parse_init (Parser *p,
            int     depth)
{
  if (!is_punct (&p->tok, '{'))
    return parse_init_scalar (p);
  if (depth >= MAX_INIT_DEPTH)
    {
      diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "initializer nested too deeply");
      return FALSE;
    }
  advance (p);
  while (!is_punct (&p->tok, '}'))
    {
      if (!parse_init (p, depth + 1))
        return FALSE;
      if (is_punct (&p->tok, ','))
        advance (p);
      else if (!is_punct (&p->tok, '}'))
        {
          error_expected (p, "',' or '}' in an initializer");
          return FALSE;
        }
    }
  advance (p);
  return TRUE;
}

static uint32_t
add_var (Parser           *p,
         const DeclAttrs  *a,
         const KsPtxToken *name,
         uint8_t           linkage,
         uint32_t          flags)
{
  KsPtxVar *v = PUSH (p, vars);

  v->name = tok_span (name);
  v->space = a->space;
  v->type = a->type;
  v->vec = a->vec;
  v->linkage = linkage;
  v->flags = flags | (a->ptr ? KS_PTX_VAR_PTR : 0) | a->var_flags;
  v->align = a->align;
  v->function = p->fn;
  v->n_elements = 1;
  v->ptr_space = a->ptr_space;
  v->ptr_align = a->ptr_align;
  v->line = name->line;
  return p->m->n_vars - 1;
}

static void
declare_registers (Parser          *p,
                   const DeclAttrs *a)
{
  for (;;)
    {
      KsPtxToken name = p->tok;
      KsPtxRegDecl *rd;
      uint32_t count = 1, slots;
      gboolean range = FALSE;
      uint32_t fn_slots;

      if (name.kind != KS_PTX_TOK_IDENT)
        {
          error_expected (p, "a register name");
          recover (p);
          return;
        }
      advance (p);
      if (is_punct (&p->tok, '<'))
        {
          advance (p);
          if (!parse_u32 (p, &count, "a register count") || !expect_punct (p, '>', "'>'"))
            {
              recover (p);
              return;
            }
          range = TRUE;
        }

      fn_slots = a->type == KS_PTX_TYPE_PRED ? p->m->functions[p->fn].n_pred_slots
                                             : p->m->functions[p->fn].n_reg_slots;
      slots = count * (uint32_t) a->vec;
      if (count > MAX_REG_SLOTS || slots > MAX_REG_SLOTS - fn_slots)
        {
          diag (p, name.line, name.column, KS_PTX_SEVERITY_ERROR,
                "too many registers (at most %u in a function)", MAX_REG_SLOTS);
          recover (p);
          return;
        }

      rd = PUSH (p, reg_decls);
      rd->name = tok_span (&name);
      rd->type = a->type;
      rd->vec = a->vec;
      rd->count = count;
      rd->line = name.line;
      rd->first_slot = fn_slots;
      if (a->type == KS_PTX_TYPE_PRED)
        p->m->functions[p->fn].n_pred_slots += slots;
      else
        {
          p->m->functions[p->fn].n_reg_slots += slots;
          for (uint32_t i = 0; i < slots; i++)
            *PUSH (p, slot_types) = a->type;
        }
      p->m->functions[p->fn].n_reg_decls++;
      scope_declare (p, range ? &p->ranges : &p->regs, &name, p->m->n_reg_decls - 1);

      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      expect_semicolon (p, "a register declaration");
      return;
    }
}

/* A variable declaration after its state-space directive and linkage:
 * attributes, then one or more names with dimensions and initializers. */
static void
parse_var_decl (Parser  *p,
                uint8_t  space,
                uint8_t  linkage)
{
  DeclAttrs a = { 0 };

  a.space = space;
  if (!parse_decl_attrs (p, &a))
    {
      recover (p);
      return;
    }
  if (a.var_flags != 0 && (space != KS_PTX_SPACE_GLOBAL || p->fn != KS_PTX_NONE))
    {
      /* (what ptxas says too: the attributes are for module-scope globals) */
      diag (p, a.attr_line, a.attr_column, KS_PTX_SEVERITY_ERROR,
            ".attribute applies only to .global variables at module scope");
      recover (p);
      return;
    }

  if (space == KS_PTX_SPACE_REG)
    {
      if (p->fn == KS_PTX_NONE)
        {
          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                "registers can only be declared inside a function");
          recover (p);
          return;
        }
      declare_registers (p, &a);
      return;
    }

  for (;;)
    {
      KsPtxToken name = p->tok;
      uint32_t vi, first_init;
      KsPtxVar *v;

      if (name.kind != KS_PTX_TOK_IDENT)
        {
          error_expected (p, "a variable name");
          recover (p);
          return;
        }
      advance (p);
      vi = add_var (p, &a, &name, linkage, 0);
      if (!parse_dims (p, &p->m->vars[vi]))
        {
          recover (p);
          return;
        }
      if (is_punct (&p->tok, '='))
        {
          advance (p);
          first_init = p->m->n_inits;
          if (!parse_init (p, 0))
            {
              recover (p);
              return;
            }
          v = &p->m->vars[vi];
          v->first_init = first_init;
          v->n_init = p->m->n_inits - first_init;
          if ((v->flags & KS_PTX_VAR_UNSIZED) && v->vec > 0)
            v->n_elements = (v->n_init + v->vec - 1) / v->vec;
        }

      if (p->fn == KS_PTX_NONE)
        {
          uint32_t hash = ks_ptx_hash_bytes (p->text + name.offset, name.len);
          uint32_t old = name_map_get (&p->gvars, p->text, name.offset, name.len, hash);

          if (old != KS_PTX_NONE && p->m->vars[old].linkage != KS_PTX_LINKAGE_EXTERN
              && linkage != KS_PTX_LINKAGE_EXTERN)
            {
              g_autofree char *what = describe (p, &name);

              diag (p, name.line, name.column, KS_PTX_SEVERITY_ERROR,
                    "%s is already defined at line %u", what, p->m->vars[old].line);
            }
          name_map_set (&p->gvars, p->text, name.offset, name.len, hash, vi);
        }
      else
        scope_declare (p, &p->lvars, &name, vi);

      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      expect_semicolon (p, "a variable declaration");
      return;
    }
}

/* ---- directives inside and around functions ------------------------------------------------------ */

static void
parse_loc (Parser *p)
{
  uint32_t file = 0, line = 0, col = 0;
  KsPtxLoc *loc;
  uint32_t idx;

  advance (p);
  if (!parse_u32 (p, &file, "a file number") || !parse_u32 (p, &line, "a line number"))
    {
      recover (p);
      return;
    }
  if (p->tok.kind == KS_PTX_TOK_INT)
    parse_u32 (p, &col, "a column");

  if (p->m->n_locs == 0)
    PUSH (p, locs);             /* index 0 means "none" */
  loc = PUSH (p, locs);
  idx = p->m->n_locs - 1;
  loc->file = file;
  loc->line = line;
  loc->column = col;

  while (is_punct (&p->tok, ','))
    {
      advance (p);
      if (tok_is (p, "function_name"))
        {
          advance (p);
          if (p->tok.kind != KS_PTX_TOK_IDENT)
            {
              error_expected (p, "a label after function_name");
              recover (p);
              return;
            }
          p->m->locs[idx].function_name = tok_span (&p->tok);
          advance (p);
          if (is_punct (&p->tok, '+'))
            {
              uint64_t ignored;

              advance (p);
              parse_uint (p, &ignored, "an offset");
            }
        }
      else if (tok_is (p, "inlined_at"))
        {
          uint32_t f2 = 0, l2 = 0, c2 = 0;
          SiteKey key;
          gpointer site;
          KsPtxLoc *at;

          advance (p);
          if (!parse_u32 (p, &f2, "a file number") || !parse_u32 (p, &l2, "a line number"))
            {
              recover (p);
              return;
            }
          if (p->tok.kind == KS_PTX_TOK_INT)
            parse_u32 (p, &c2, "a column");

          /* The call site is itself inlined when an earlier .loc at that
           * place was: chain to it. */
          key = (SiteKey) { f2, l2, c2 };
          site = g_hash_table_lookup (p->inline_sites, &key);
          if (site != NULL)
            p->m->locs[idx].inlined_at = GPOINTER_TO_UINT (site);
          else
            {
              at = PUSH (p, locs);
              at->file = f2;
              at->line = l2;
              at->column = c2;
              p->m->locs[idx].inlined_at = p->m->n_locs - 1;
            }
        }
      else
        {
          error_expected (p, "function_name or inlined_at");
          recover (p);
          return;
        }
    }

  if (p->m->locs[idx].inlined_at != 0)
    {
      SiteKey *key = g_new (SiteKey, 1);
      const KsPtxLoc *l = &p->m->locs[idx];

      *key = (SiteKey) { l->file, l->line, l->column };
      g_hash_table_insert (p->inline_sites, key, GUINT_TO_POINTER (idx));
    }
  p->loc = idx;

  /* .loc has no terminating ';' */
  if (is_punct (&p->tok, ';'))
    advance (p);
}

static void
parse_pragma (Parser   *p,
              uint32_t *first,
              uint32_t *n)
{
  advance (p);
  for (;;)
    {
      KsPtxSpan *w;

      if (p->tok.kind != KS_PTX_TOK_STRING)
        {
          error_expected (p, "a string after .pragma");
          recover (p);
          return;
        }
      if (*n == 0)
        *first = p->m->n_words;
      w = PUSH (p, words);
      w->offset = p->tok.offset + 1;
      w->len = p->tok.len - 2;
      (*n)++;
      advance (p);
      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      break;
    }
  expect_semicolon (p, ".pragma");
}

static gboolean
parse_dims3 (Parser   *p,
             uint32_t  out[3])
{
  for (int i = 0; i < 3; i++)
    {
      if (!parse_u32 (p, &out[i], "a dimension"))
        return FALSE;
      if (!is_punct (&p->tok, ','))
        return TRUE;
      if (i < 2)
        advance (p);
    }
  return TRUE;
}

/* Performance-tuning directives between a function's signature and body.
 * Returns FALSE when the current token is not one. */
static gboolean
parse_perf_directive (Parser        *p,
                      KsPtxFunction *f)
{
  uint32_t dir = directive_of (p, &p->tok);
  gboolean ok = TRUE;

  switch (dir)
    {
    case KS_PTX_DIR_MAXNTID:
      advance (p);
      ok = parse_dims3 (p, f->maxntid);
      break;
    case KS_PTX_DIR_REQNTID:
      advance (p);
      ok = parse_dims3 (p, f->reqntid);
      break;
    case KS_PTX_DIR_REQNCTAPERCLUSTER:
      advance (p);
      ok = parse_dims3 (p, f->reqnctapercluster);
      break;
    case KS_PTX_DIR_MINNCTAPERSM:
    case KS_PTX_DIR_MAXNCTAPERSM:
      advance (p);
      ok = parse_u32 (p, &f->minnctapersm, "a block count");
      break;
    case KS_PTX_DIR_MAXNREG:
      advance (p);
      ok = parse_u32 (p, &f->maxnreg, "a register count");
      break;
    case KS_PTX_DIR_MAXCLUSTERRANK:
      advance (p);
      ok = parse_u32 (p, &f->maxclusterrank, "a cluster rank");
      break;
    case KS_PTX_DIR_EXPLICITCLUSTER:
      advance (p);
      f->flags |= KS_PTX_FUNCTION_EXPLICITCLUSTER;
      break;
    case KS_PTX_DIR_NORETURN:
      advance (p);
      f->flags |= KS_PTX_FUNCTION_NORETURN;
      break;
    case KS_PTX_DIR_ABI_PRESERVE:
    case KS_PTX_DIR_ABI_PRESERVE_CONTROL:
      {
        uint32_t ignored;

        advance (p);
        ok = parse_u32 (p, &ignored, "a register count");
      }
      break;
    case KS_PTX_DIR_PRAGMA:
      parse_pragma (p, &f->first_pragma, &f->n_pragmas);
      break;
    default:
      return FALSE;
    }
  if (!ok)
    recover (p);
  return TRUE;
}

/* ( .param .b32 a, .reg .u32 b, ... ) into vars owned by function fn. */
static gboolean
parse_param_list (Parser   *p,
                  uint32_t  fn,
                  uint32_t *first,
                  uint32_t *n,
                  uint32_t  flags)
{
  uint32_t saved_fn = p->fn;

  advance (p);                  /* ( */
  *first = p->m->n_vars;
  *n = 0;
  p->fn = fn;
  while (!is_punct (&p->tok, ')'))
    {
      uint32_t dir = directive_of (p, &p->tok);
      DeclAttrs a = { 0 };
      KsPtxToken name;
      uint32_t vi;

      if (dir != KS_PTX_DIR_PARAM && dir != KS_PTX_DIR_REG)
        {
          error_expected (p, ".param or .reg");
          p->fn = saved_fn;
          return FALSE;
        }
      space_of_directive (dir, &a.space);
      advance (p);
      if (!parse_decl_attrs (p, &a))
        {
          p->fn = saved_fn;
          return FALSE;
        }
      name = p->tok;
      if (name.kind != KS_PTX_TOK_IDENT)
        {
          error_expected (p, "a parameter name");
          p->fn = saved_fn;
          return FALSE;
        }
      advance (p);
      vi = add_var (p, &a, &name, KS_PTX_LINKAGE_NONE,
                    flags | (dir == KS_PTX_DIR_REG ? KS_PTX_VAR_REG_PARAM : 0));
      (*n)++;
      if (!parse_dims (p, &p->m->vars[vi]))
        {
          p->fn = saved_fn;
          return FALSE;
        }
      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      if (!is_punct (&p->tok, ')'))
        {
          error_expected (p, "',' or ')' in a parameter list");
          p->fn = saved_fn;
          return FALSE;
        }
    }
  advance (p);
  p->fn = saved_fn;
  return TRUE;
}

static void
parse_target_list (Parser           *p,
                   const KsPtxToken *label,
                   gboolean          calltargets)
{
  KsPtxTargetList *tl = PUSH (p, target_lists);
  uint32_t tli = p->m->n_target_lists - 1;

  tl->name = tok_span (label);
  tl->function = p->fn;
  tl->is_calltargets = calltargets;
  tl->first = p->m->n_target_entries;
  advance (p);                  /* the directive */
  for (;;)
    {
      uint32_t *entry;

      if (p->tok.kind != KS_PTX_TOK_IDENT)
        {
          error_expected (p, calltargets ? "a function name" : "a label");
          recover (p);
          break;
        }
      entry = PUSH (p, target_entries);
      p->m->target_lists[tli].n++;
      if (calltargets)
        {
          *entry = name_map_get (&p->gfuncs, p->text, p->tok.offset, p->tok.len,
                                 ks_ptx_hash_bytes (p->text + p->tok.offset, p->tok.len));
          if (*entry == KS_PTX_NONE)
            {
              g_autofree char *what = describe (p, &p->tok);

              diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                    "%s is not a declared function", what);
            }
        }
      else
        {
          Fixup fix = { FIX_BRANCHTARGET, p->m->n_target_entries - 1,
                        p->tok.offset, p->tok.len, p->tok.line, p->tok.column };

          *entry = KS_PTX_NONE;
          g_array_append_val (p->fn_fixups, fix);
        }
      advance (p);
      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      expect_semicolon (p, "a target list");
      break;
    }
  name_map_set (&p->ltargets, p->text, label->offset, label->len,
                ks_ptx_hash_bytes (p->text + label->offset, label->len), tli);
}

static void
parse_callprototype (Parser           *p,
                     const KsPtxToken *label)
{
  KsPtxFunction *f = PUSH (p, functions);
  uint32_t fi = p->m->n_functions - 1;

  f->name = tok_span (label);
  f->kind = KS_PTX_FUNCTION_PROTOTYPE;
  f->line = label->line;
  f->first_param = f->first_ret = p->m->n_vars;
  advance (p);                  /* .callprototype */

  if (is_punct (&p->tok, '('))
    {
      uint32_t first, n;

      if (!parse_param_list (p, fi, &first, &n, KS_PTX_VAR_RETURN))
        {
          recover (p);
          return;
        }
      p->m->functions[fi].first_ret = first;
      p->m->functions[fi].n_rets = n;
    }
  if (p->tok.kind != KS_PTX_TOK_IDENT)
    {
      error_expected (p, "'_' as the prototype's name");
      recover (p);
      return;
    }
  advance (p);
  if (is_punct (&p->tok, '('))
    {
      uint32_t first, n;

      if (!parse_param_list (p, fi, &first, &n, KS_PTX_VAR_PARAM))
        {
          recover (p);
          return;
        }
      p->m->functions[fi].first_param = first;
      p->m->functions[fi].n_params = n;
    }
  while (parse_perf_directive (p, &p->m->functions[fi]))
    ;
  expect_semicolon (p, ".callprototype");
  name_map_set (&p->lprotos, p->text, label->offset, label->len,
                ks_ptx_hash_bytes (p->text + label->offset, label->len), fi);
}

/* Resolves the names a function body left open: labels, target lists,
 * prototypes; what is still unknown waits for the end of the module. */
static void
resolve_function_fixups (Parser *p)
{
  for (uint32_t i = 0; i < p->fn_fixups->len; i++)
    {
      Fixup *fx = &g_array_index (p->fn_fixups, Fixup, i);
      uint32_t hash = ks_ptx_hash_bytes (p->text + fx->off, fx->len);
      uint32_t v;

      if (fx->kind == FIX_BRANCHTARGET)
        {
          v = name_map_get (&p->labels, p->text, fx->off, fx->len, hash);
          if (v == KS_PTX_NONE)
            diag (p, fx->line, fx->column, KS_PTX_SEVERITY_ERROR, "undefined label '%.*s'",
                  (int) MIN (fx->len, 80), p->text + fx->off);
          p->m->target_entries[fx->index] = v;
          continue;
        }

      {
        KsPtxOperand *op = &p->m->operands[fx->index];
        gboolean address = op->kind == KS_PTX_OPERAND_ADDRESS;

        if (!address && (v = name_map_get (&p->labels, p->text, fx->off, fx->len, hash)) != KS_PTX_NONE)
          {
            op->kind = KS_PTX_OPERAND_LABEL;
            op->a = v;
            op->b = 0;
            op->aux = 0;
            continue;
          }
        if (!address && (v = name_map_get (&p->ltargets, p->text, fx->off, fx->len, hash)) != KS_PTX_NONE)
          {
            op->kind = KS_PTX_OPERAND_TARGETS;
            op->a = v;
            op->b = 0;
            op->aux = 0;
            continue;
          }
        if (!address && (v = name_map_get (&p->lprotos, p->text, fx->off, fx->len, hash)) != KS_PTX_NONE)
          {
            op->kind = KS_PTX_OPERAND_FUNC;
            op->a = v;
            op->b = 0;
            op->aux = 0;
            continue;
          }
        g_array_append_val (p->module_fixups, *fx);
      }
    }
  g_array_set_size (p->fn_fixups, 0);
}

static void
parse_label (Parser *p)
{
  KsPtxToken label = p->tok;
  uint32_t dir;

  advance (p);                  /* name */
  advance (p);                  /* : */
  dir = directive_of (p, &p->tok);
  if (dir == KS_PTX_DIR_CALLPROTOTYPE)
    {
      parse_callprototype (p, &label);
      return;
    }
  if (dir == KS_PTX_DIR_BRANCHTARGETS || dir == KS_PTX_DIR_CALLTARGETS)
    {
      parse_target_list (p, &label, dir == KS_PTX_DIR_CALLTARGETS);
      return;
    }

  {
    uint32_t hash = ks_ptx_hash_bytes (p->text + label.offset, label.len);
    uint32_t pc = p->m->n_insns - p->m->functions[p->fn].first_insn;

    if (name_map_get (&p->labels, p->text, label.offset, label.len, hash) != KS_PTX_NONE)
      {
        g_autofree char *what = describe (p, &label);

        diag (p, label.line, label.column, KS_PTX_SEVERITY_ERROR, "label %s is defined twice", what);
        return;
      }
    name_map_set (&p->labels, p->text, label.offset, label.len, hash, pc);
  }
}

static void
reset_function_scope (Parser *p)
{
  name_map_clear (&p->regs);
  name_map_clear (&p->ranges);
  name_map_clear (&p->lvars);
  name_map_clear (&p->labels);
  name_map_clear (&p->ltargets);
  name_map_clear (&p->lprotos);
  g_array_set_size (p->undo, 0);
  g_array_set_size (p->scope_marks, 0);
  g_array_set_size (p->fn_fixups, 0);
}

/* The body from '{' to its matching '}'.  Nested scopes are counted, not
 * recursed into. */
static void
parse_body (Parser *p)
{
  KsPtxFunction *f = &p->m->functions[p->fn];

  f->first_insn = p->m->n_insns;
  f->first_reg_decl = p->m->n_reg_decls;
  f->first_slot_type = p->m->n_slot_types;
  f->flags |= KS_PTX_FUNCTION_HAS_BODY;

  advance (p);                  /* { */
  scope_push (p);

  /* Parameters are visible in the body */
  for (uint32_t i = 0; i < f->n_params + f->n_rets; i++)
    {
      uint32_t vi = i < f->n_params ? f->first_param + i : f->first_ret + (i - f->n_params);
      const KsPtxVar *v = &p->m->vars[vi];
      KsPtxToken name = { 0 };

      name.offset = v->name.offset;
      name.len = v->name.len;
      if (v->flags & KS_PTX_VAR_REG_PARAM)
        {
          /* A .reg parameter is a register of the function */
          KsPtxRegDecl *rd = PUSH (p, reg_decls);

          rd->name = v->name;
          rd->type = v->type;
          rd->vec = v->vec;
          rd->count = 1;
          rd->line = v->line;
          if (v->type == KS_PTX_TYPE_PRED)
            rd->first_slot = p->m->functions[p->fn].n_pred_slots++;
          else
            {
              rd->first_slot = p->m->functions[p->fn].n_reg_slots;
              p->m->functions[p->fn].n_reg_slots += v->vec;
              for (uint32_t k = 0; k < v->vec; k++)
                *PUSH (p, slot_types) = v->type;
            }
          p->m->functions[p->fn].n_reg_decls++;
          scope_declare (p, &p->regs, &name, p->m->n_reg_decls - 1);
        }
      else
        scope_declare (p, &p->lvars, &name, vi);
    }

  while (p->tok.kind != KS_PTX_TOK_EOF)
    {
      const KsPtxToken *t = &p->tok;

      if (is_punct (t, '}'))
        {
          KsPtxSpan *def = &p->m->functions[p->fn].definition;
          uint32_t end = t->offset + t->len;

          scope_pop (p);
          advance (p);
          if (p->scope_marks->len == 0)
            {
              if (end > def->offset)
                def->len = end - def->offset;
              break;
            }
          continue;
        }
      if (is_punct (t, '{'))
        {
          scope_push (p);
          advance (p);
          continue;
        }
      if (t->kind == KS_PTX_TOK_DOTWORD)
        {
          uint32_t dir = directive_of (p, t);
          uint8_t space;

          if (dir == KS_PTX_DIR_LOC)
            parse_loc (p);
          else if (dir == KS_PTX_DIR_PRAGMA)
            parse_pragma (p, &p->m->functions[p->fn].first_pragma,
                          &p->m->functions[p->fn].n_pragmas);
          else if (space_of_directive (dir, &space))
            {
              advance (p);
              parse_var_decl (p, space, KS_PTX_LINKAGE_NONE);
            }
          else if (parse_perf_directive (p, &p->m->functions[p->fn]))
            ;
          else
            {
              g_autofree char *what = describe (p, t);

              diag (p, t->line, t->column, KS_PTX_SEVERITY_ERROR,
                    "unexpected directive %s in a function body", what);
              advance (p);
              recover (p);
            }
          continue;
        }
      if (t->kind == KS_PTX_TOK_IDENT && is_punct (peek (p), ':'))
        {
          parse_label (p);
          continue;
        }
      if (t->kind == KS_PTX_TOK_IDENT || is_punct (t, '@'))
        {
          parse_instruction (p);
          continue;
        }

      error_expected (p, "an instruction, a label or a declaration");
      if (!is_punct (&p->tok, '}'))
        {
          advance (p);
          recover (p);
        }
    }

  f = &p->m->functions[p->fn];
  if (p->scope_marks->len != 0)
    {
      diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
            "end of file inside the body of '%.*s' (missing '}')",
            (int) MIN (f->name.len, 200), p->text + f->name.offset);
    }
  f->n_insns = p->m->n_insns - f->first_insn;
  f->n_reg_decls = p->m->n_reg_decls - f->first_reg_decl;
  f->end_line = p->tok.line;
  resolve_function_fixups (p);
}

/* .entry NAME (params) perf* { body } | ;
 * .func [(rets)] NAME [(params)] [.noreturn] perf* { body } | ; */
/* Whether the current token begins a module-level statement: a linkage,
 * .entry, .func, a module variable or another module directive. */
static gboolean
starts_module_statement (Parser *p)
{
  uint32_t dir = directive_of (p, &p->tok);
  uint8_t space;

  switch (dir)
    {
    case KS_PTX_DIR_VISIBLE: case KS_PTX_DIR_EXTERN: case KS_PTX_DIR_WEAK:
    case KS_PTX_DIR_COMMON: case KS_PTX_DIR_ENTRY: case KS_PTX_DIR_FUNC:
    case KS_PTX_DIR_VERSION: case KS_PTX_DIR_TARGET: case KS_PTX_DIR_ADDRESS_SIZE:
    case KS_PTX_DIR_FILE: case KS_PTX_DIR_SECTION: case KS_PTX_DIR_PRAGMA:
    case KS_PTX_DIR_ALIAS:
      return TRUE;
    default:
      return space_of_directive (dir, &space) && space != KS_PTX_SPACE_REG
             && space != KS_PTX_SPACE_PARAM && space != KS_PTX_SPACE_SREG;
    }
}

/* CUDA refuses a kernel whose parameters are over its limit, and the
 * simulator lays them out in one bank: a 4 GiB array must be refused here,
 * before anything is allocated for it.  The sum saturates, as arrays may
 * have up to 2^64 elements. */
static void
check_kernel_param_bytes (Parser           *p,
                          const KsPtxToken *name,
                          uint32_t          first,
                          uint32_t          n)
{
  uint64_t total = 0;

  for (uint32_t i = 0; i < n; i++)
    {
      const KsPtxVar *v = &p->m->vars[first + i];
      uint64_t esize = (uint64_t) ks_ptx_type_size (v->type) * (v->vec ? v->vec : 1);
      uint64_t align = v->align ? v->align : esize;
      uint64_t size;

      if (esize != 0 && v->n_elements > G_MAXUINT64 / esize)
        size = G_MAXUINT64;
      else
        size = esize * v->n_elements;
      if (align > 1 && total <= G_MAXUINT64 - align)
        total = (total + align - 1) / align * align;
      total = size > G_MAXUINT64 - total ? G_MAXUINT64 : total + size;
    }
  if (total > KS_PTX_MAX_KERNEL_PARAM_BYTES)
    {
      g_autofree char *what = describe (p, name);

      diag (p, name->line, name->column, KS_PTX_SEVERITY_ERROR,
            "the parameters of kernel %s take %" G_GUINT64_FORMAT " bytes, over CUDA's limit "
            "of %u bytes (4096 before CUDA 12.1 or on GPUs before Volta)",
            what, total, KS_PTX_MAX_KERNEL_PARAM_BYTES);
    }
}

/* A declaration without a body, of text [start, end): the function keeps
 * the span of its only one (ks_ptx_module_text_for_function leaves it
 * out with the definition) */
static void
note_declaration (KsPtxFunction *f,
                  uint32_t       start,
                  uint32_t       end)
{
  if (f->flags & KS_PTX_FUNCTION_DECLARED)
    f->declaration.len = 0;
  else
    {
      f->declaration.offset = start;
      f->declaration.len = end > start ? end - start : 0;
    }
  f->flags |= KS_PTX_FUNCTION_DECLARED;
}

static void
parse_function (Parser   *p,
                uint8_t   linkage,
                uint32_t  start)
{
  gboolean entry = directive_of (p, &p->tok) == KS_PTX_DIR_ENTRY;
  KsPtxToken name;
  uint32_t fi, hash, existing;
  uint32_t first_ret = p->m->n_vars, n_rets = 0;
  uint32_t vars_mark = p->m->n_vars;

  advance (p);

  fi = p->m->n_functions;
  PUSH (p, functions);
  p->m->functions[fi].kind = entry ? KS_PTX_FUNCTION_ENTRY : KS_PTX_FUNCTION_FUNC;
  p->m->functions[fi].linkage = linkage;
  p->m->functions[fi].line = p->tok.line;
  p->m->functions[fi].definition.offset = start;

  if (!entry && is_punct (&p->tok, '('))
    {
      if (!parse_param_list (p, fi, &first_ret, &n_rets, KS_PTX_VAR_RETURN))
        {
          recover (p);
          return;
        }
    }
  if (p->tok.kind != KS_PTX_TOK_IDENT)
    {
      error_expected (p, entry ? "a kernel name after .entry" : "a function name after .func");
      recover (p);
      return;
    }
  name = p->tok;
  advance (p);

  p->m->functions[fi].name = tok_span (&name);
  p->m->functions[fi].first_ret = first_ret;
  p->m->functions[fi].n_rets = n_rets;
  p->m->functions[fi].first_param = p->m->n_vars;
  if (is_punct (&p->tok, '('))
    {
      uint32_t first, n;

      if (!parse_param_list (p, fi, &first, &n, KS_PTX_VAR_PARAM))
        {
          recover (p);
          return;
        }
      p->m->functions[fi].first_param = first;
      p->m->functions[fi].n_params = n;
      if (entry)
        check_kernel_param_bytes (p, &name, first, n);
    }

  while (parse_perf_directive (p, &p->m->functions[fi]))
    ;

  /* A later declaration or the definition of a declared function is merged
   * into the first entry, so every reference agrees on one index. */
  hash = ks_ptx_hash_bytes (p->text + name.offset, name.len);
  existing = name_map_get (&p->gfuncs, p->text, name.offset, name.len, hash);
  if (existing != KS_PTX_NONE)
    {
      KsPtxFunction *old = &p->m->functions[existing];
      gboolean body = is_punct (&p->tok, '{');

      if (body && (old->flags & KS_PTX_FUNCTION_HAS_BODY))
        {
          g_autofree char *what = describe (p, &name);

          diag (p, name.line, name.column, KS_PTX_SEVERITY_ERROR,
                "function %s is already defined at line %u", what, old->line);
        }
      else if (fi == p->m->n_functions - 1)
        {
          if (body)
            {
              KsPtxFunction def = p->m->functions[fi];

              def.flags |= old->flags & (KS_PTX_FUNCTION_NORETURN | KS_PTX_FUNCTION_DECLARED);
              def.declaration = old->declaration;
              if (!body)
                def.line = old->line;
              *old = def;
              for (uint32_t i = 0; i < def.n_params; i++)
                p->m->vars[def.first_param + i].function = existing;
              for (uint32_t i = 0; i < def.n_rets; i++)
                p->m->vars[def.first_ret + i].function = existing;
            }
          else
            p->m->n_vars = vars_mark;   /* a repeated declaration adds nothing */
          p->m->n_functions--;
          fi = existing;
        }
    }
  else
    name_map_set (&p->gfuncs, p->text, name.offset, name.len, hash, fi);

  if (is_punct (&p->tok, ';'))
    {
      note_declaration (&p->m->functions[fi], start, p->tok.offset + 1);
      advance (p);
      return;
    }
  /* Old PTX (ISA 1.x-3.x, nvopencc) ends a declaration without ';' when the
   * next module-level directive follows; ptxas accepts it. */
  if (p->tok.kind == KS_PTX_TOK_EOF || starts_module_statement (p))
    {
      note_declaration (&p->m->functions[fi], start, start);
      return;
    }
  if (!is_punct (&p->tok, '{'))
    {
      error_expected (p, "'{' or ';' after the function's signature");
      recover (p);
      return;
    }

  p->fn = fi;
  reset_function_scope (p);
  p->loc = 0;
  parse_body (p);
  p->fn = KS_PTX_NONE;
  p->loc = 0;
  reset_function_scope (p);
}

static void
skip_section (Parser *p)
{
  advance (p);                  /* .section */
  /* -lineinfo's .debug_str holds the names of inlined functions as bytes;
   * the others (-G) name functions and their labels */
  if (!(p->tok.kind == KS_PTX_TOK_DOTWORD && p->tok.len == 10
        && memcmp (p->text + p->tok.offset, ".debug_str", 10) == 0))
    p->m->n_sections++;
  while (p->tok.kind != KS_PTX_TOK_EOF && !is_punct (&p->tok, '{') && !is_punct (&p->tok, ';'))
    advance (p);
  if (!is_punct (&p->tok, '{'))
    {
      expect_semicolon (p, ".section");
      return;
    }
  /* Debug sections are data for the debugger; skip them whole, without
   * making tokens of what is inside. */
  g_assert (!p->has_ahead);
  if (!ks_ptx_lexer_skip_block (&p->lex))
    {
      diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
            "end of file inside .section (missing '}')");
      p->tok.kind = KS_PTX_TOK_EOF;
      return;
    }
  p->prev_end = (uint32_t) p->lex.pos;
  ks_ptx_lexer_next_inline (&p->lex, &p->tok);
  if (G_UNLIKELY (p->tok.kind == KS_PTX_TOK_ERROR))
    diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR, "%s",
          ks_ptx_lex_error_message (p->tok.error));
}

static void
parse_version (Parser *p)
{
  advance (p);
  if (p->tok.kind == KS_PTX_TOK_FLOAT || p->tok.kind == KS_PTX_TOK_INT)
    {
      const char *s = p->text + p->tok.offset;
      uint32_t i = 0, major = 0, minor = 0;

      while (i < p->tok.len && s[i] >= '0' && s[i] <= '9' && major < 1000)
        major = major * 10 + (uint32_t) (s[i++] - '0');
      if (i < p->tok.len && s[i] == '.')
        i++;
      while (i < p->tok.len && s[i] >= '0' && s[i] <= '9' && minor < 1000)
        minor = minor * 10 + (uint32_t) (s[i++] - '0');
      if (i != p->tok.len)
        {
          error_expected (p, "a version such as 8.0");
          recover (p);
          return;
        }
      p->m->version_major = major;
      p->m->version_minor = minor;
      /* Read on: it may be a newer ISA whose new forms this parser does
       * not know, which is then said where they are */
      if (major == 0 || major > KS_PTX_NEWEST_MAJOR)
        diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_WARNING,
              ".version %.*s is not a PTX ISA version this parser knows (1.0 to %u.x): the "
              "file is read as the newest", (int) MIN (p->tok.len, 64u), s, KS_PTX_NEWEST_MAJOR);
      advance (p);
    }
  else
    {
      error_expected (p, "a version such as 8.0");
      recover (p);
    }
}

/* The SM numbers of NVIDIA's architectures, sm_10 to sm_121 */
static const uint16_t known_sms[] = {
  10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 88,
  89, 90, 100, 101, 103, 110, 120, 121,
};

/* Whether a .target word is one of PTX's: sm_NN or compute_NN (with an
 * a or f suffix) of a known architecture, or a target option */
static gboolean
known_target (const char *s,
              uint32_t    len,
              uint32_t   *sm_out)
{
  static const char *const options[] = {
    "texmode_unified", "texmode_independent", "debug", "map_f64_to_f32",
  };
  uint32_t i, sm = 0;

  for (i = 0; i < G_N_ELEMENTS (options); i++)
    if (strlen (options[i]) == len && memcmp (options[i], s, len) == 0)
      return TRUE;
  if (len > 3 && memcmp (s, "sm_", 3) == 0)
    i = 3;
  else if (len > 8 && memcmp (s, "compute_", 8) == 0)
    i = 8;
  else
    return FALSE;
  for (; i < len && s[i] >= '0' && s[i] <= '9' && sm < 100000; i++)
    sm = sm * 10 + (uint32_t) (s[i] - '0');
  if (i < len && (s[i] == 'a' || s[i] == 'f'))
    i++;
  if (i != len)
    return FALSE;
  for (i = 0; i < G_N_ELEMENTS (known_sms); i++)
    if (known_sms[i] == sm)
      {
        *sm_out = sm;
        return TRUE;
      }
  return FALSE;
}

static void
parse_target (Parser *p)
{
  advance (p);
  for (;;)
    {
      KsPtxSpan *w;
      uint32_t sm = 0;

      if (p->tok.kind != KS_PTX_TOK_IDENT)
        {
          error_expected (p, "a target such as sm_80");
          recover (p);
          return;
        }
      if (p->m->n_targets == 0)
        p->m->first_target = p->m->n_words;
      w = PUSH (p, words);
      *w = tok_span (&p->tok);
      p->m->n_targets++;
      if (!known_target (p->text + p->tok.offset, p->tok.len, &sm))
        diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_WARNING,
              ".target %.*s is not an architecture or target option this parser knows "
              "(sm_10 to sm_121, texmode_unified, texmode_independent, debug, map_f64_to_f32)",
              (int) MIN (p->tok.len, 64u), p->text + p->tok.offset);
      else if (sm != 0 && p->target_sm == 0)
        p->target_sm = sm;
      advance (p);
      if (is_punct (&p->tok, ','))
        {
          advance (p);
          continue;
        }
      break;
    }
}

static void
parse_file (Parser *p)
{
  KsPtxFile *f;
  uint32_t number;

  advance (p);
  if (!parse_u32 (p, &number, "a file number"))
    {
      recover (p);
      return;
    }
  if (p->tok.kind != KS_PTX_TOK_STRING)
    {
      error_expected (p, "a file name in quotes");
      recover (p);
      return;
    }
  f = PUSH (p, files);
  f->number = number;
  f->path.offset = p->tok.offset + 1;
  f->path.len = p->tok.len - 2;
  f->line = p->tok.line;
  advance (p);
  if (is_punct (&p->tok, ','))
    {
      advance (p);
      if (!parse_uint (p, &p->m->files[p->m->n_files - 1].timestamp, "a timestamp"))
        {
          recover (p);
          return;
        }
      if (is_punct (&p->tok, ','))
        {
          advance (p);
          if (!parse_uint (p, &p->m->files[p->m->n_files - 1].size, "a file size"))
            {
              recover (p);
              return;
            }
        }
    }
  if (is_punct (&p->tok, ';'))
    advance (p);
}

static void
parse_module (Parser *p)
{
  advance (p);
  while (p->tok.kind != KS_PTX_TOK_EOF)
    {
      uint32_t dir = directive_of (p, &p->tok);
      uint8_t linkage = KS_PTX_LINKAGE_NONE;
      uint8_t space;
      uint32_t start;

      switch (dir)
        {
        case KS_PTX_DIR_VERSION:
          parse_version (p);
          continue;
        case KS_PTX_DIR_TARGET:
          parse_target (p);
          continue;
        case KS_PTX_DIR_ADDRESS_SIZE:
          advance (p);
          if (!parse_u32 (p, &p->m->address_size, "32 or 64"))
            recover (p);
          else if (p->m->address_size != 32 && p->m->address_size != 64)
            diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                  ".address_size must be 32 or 64");
          continue;
        case KS_PTX_DIR_FILE:
          parse_file (p);
          continue;
        case KS_PTX_DIR_LOC:
          parse_loc (p);
          continue;
        case KS_PTX_DIR_SECTION:
          skip_section (p);
          continue;
        case KS_PTX_DIR_PRAGMA:
          {
            uint32_t first = 0, n = 0;

            parse_pragma (p, &first, &n);
          }
          continue;
        case KS_PTX_DIR_ALIAS:
          p->m->n_aliases++;
          advance (p);
          recover (p);
          continue;
        default:
          break;
        }

      /* [linkage] (.entry | .func | variable) */
      start = p->tok.offset;
      while (dir == KS_PTX_DIR_VISIBLE || dir == KS_PTX_DIR_EXTERN || dir == KS_PTX_DIR_WEAK
             || dir == KS_PTX_DIR_COMMON)
        {
          linkage = dir == KS_PTX_DIR_VISIBLE ? KS_PTX_LINKAGE_VISIBLE
                    : dir == KS_PTX_DIR_EXTERN ? KS_PTX_LINKAGE_EXTERN
                    : dir == KS_PTX_DIR_WEAK ? KS_PTX_LINKAGE_WEAK : KS_PTX_LINKAGE_COMMON;
          advance (p);
          dir = directive_of (p, &p->tok);
        }
      if (dir == KS_PTX_DIR_ENTRY || dir == KS_PTX_DIR_FUNC)
        {
          parse_function (p, linkage, start);
          continue;
        }
      if (space_of_directive (dir, &space) && space != KS_PTX_SPACE_REG
          && space != KS_PTX_SPACE_PARAM && space != KS_PTX_SPACE_SREG)
        {
          advance (p);
          parse_var_decl (p, space, linkage);
          continue;
        }

      if (is_punct (&p->tok, '}'))
        {
          diag (p, p->tok.line, p->tok.column, KS_PTX_SEVERITY_ERROR,
                "'}' without a matching '{'");
          advance (p);
          continue;
        }
      error_expected (p, "a directive such as .version, .target, .entry, .func or .global");
      advance (p);
      recover (p);
    }
}

static void
resolve_module_fixups (Parser *p)
{
  for (uint32_t i = 0; i < p->module_fixups->len; i++)
    {
      Fixup *fx = &g_array_index (p->module_fixups, Fixup, i);
      uint32_t hash = ks_ptx_hash_bytes (p->text + fx->off, fx->len);
      uint32_t var = name_map_get (&p->gvars, p->text, fx->off, fx->len, hash);
      uint32_t fn = name_map_get (&p->gfuncs, p->text, fx->off, fx->len, hash);

      if (fx->kind == FIX_INIT)
        {
          KsPtxInit *in = &p->m->inits[fx->index];
          gboolean generic = in->index != 0;

          if (var != KS_PTX_NONE)
            {
              in->kind = generic ? KS_PTX_INIT_GENERIC_VAR : KS_PTX_INIT_VAR;
              in->index = var;
              continue;
            }
          if (fn != KS_PTX_NONE && !generic)
            {
              in->kind = KS_PTX_INIT_FUNC;
              in->index = fn;
              continue;
            }
        }
      else
        {
          KsPtxOperand *op = &p->m->operands[fx->index];

          if (op->kind == KS_PTX_OPERAND_ADDRESS)
            {
              if (var != KS_PTX_NONE || fn != KS_PTX_NONE)
                {
                  op->aux = var != KS_PTX_NONE ? KS_PTX_ADDRESS_VAR : KS_PTX_ADDRESS_FUNC;
                  op->a = var != KS_PTX_NONE ? var : fn;
                  continue;
                }
            }
          else if (var != KS_PTX_NONE || fn != KS_PTX_NONE)
            {
              op->kind = var != KS_PTX_NONE ? KS_PTX_OPERAND_VAR : KS_PTX_OPERAND_FUNC;
              op->a = var != KS_PTX_NONE ? var : fn;
              op->b = 0;
              continue;
            }
        }

      if (fx->len > 0 && p->text[fx->off] == '%')
        diag (p, fx->line, fx->column, KS_PTX_SEVERITY_ERROR, "undeclared register '%.*s'",
              (int) MIN (fx->len, 80), p->text + fx->off);
      else
        diag (p, fx->line, fx->column, KS_PTX_SEVERITY_ERROR, "undefined name '%.*s'",
              (int) MIN (fx->len, 80), p->text + fx->off);
    }
}

static int
compare_diagnostics (gconstpointer a,
                     gconstpointer b)
{
  const KsPtxDiagnostic *x = a, *y = b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->column != y->column)
    return x->column < y->column ? -1 : 1;
  return 0;
}

KsPtxModule *
ks_ptx_module_parse (GBytes     *source,
                     const char *filename)
{
  Parser parser = { 0 };
  Parser *p = &parser;
  KsPtxModule *m = g_new0 (KsPtxModule, 1);
  gsize len = 0;

  g_return_val_if_fail (source != NULL, m);

  m->filename = g_strdup (filename ? filename : "<input>");
  m->source = g_bytes_ref (source);
  m->text = g_bytes_get_data (source, &len);
  m->text_len = len;
  m->address_size = 64;
  if (m->text == NULL)
    m->text = "";

  p->m = m;
  p->text = m->text;
  p->fn = KS_PTX_NONE;
  p->undo = g_array_new (FALSE, FALSE, sizeof (Undo));
  p->scope_marks = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  p->fn_fixups = g_array_new (FALSE, FALSE, sizeof (Fixup));
  p->module_fixups = g_array_new (FALSE, FALSE, sizeof (Fixup));
  p->inline_sites = g_hash_table_new_full (site_hash, site_equal, g_free, NULL);

  if (len >= G_MAXUINT32)
    {
      diag (p, 1, 1, KS_PTX_SEVERITY_ERROR, "file too large (at most 4 GiB)");
      len = 0;
    }
  ks_ptx_lexer_init (&p->lex, m->text, len);
  parse_module (p);
  m->n_lines = p->lex.line;

  resolve_module_fixups (p);

  /* Every array exists, even empty, so that `array + index` is always
   * defined for consumers. */
#define ENSURE(name) if (m->name == NULL) m->name = g_malloc0 (sizeof *m->name)
  ENSURE (functions); ENSURE (vars); ENSURE (insns); ENSURE (operands); ENSURE (imm64);
  ENSURE (inits); ENSURE (reg_decls); ENSURE (slot_types); ENSURE (locs); ENSURE (files);
  ENSURE (extras); ENSURE (words); ENSURE (target_lists); ENSURE (target_entries);
  ENSURE (diagnostics);
#undef ENSURE
  ks_ptx_cfg_build_all (m);

  if (m->n_diagnostics > 1)
    qsort (m->diagnostics, m->n_diagnostics, sizeof *m->diagnostics, compare_diagnostics);
  if (p->n_dropped_diagnostics > 0)
    {
      KsPtxDiagnostic *d = PUSH (p, diagnostics);

      d->line = p->lex.line;
      d->column = 1;
      d->severity = KS_PTX_SEVERITY_NOTE;
      d->message = g_strdup_printf ("%u more problems not shown", p->n_dropped_diagnostics);
    }

  name_map_clear (&p->gvars);
  name_map_clear (&p->gfuncs);
  reset_function_scope (p);
  g_array_unref (p->undo);
  g_array_unref (p->scope_marks);
  g_array_unref (p->fn_fixups);
  g_array_unref (p->module_fixups);
  g_hash_table_unref (p->inline_sites);
  return m;
}
