/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-demangle.c: an Itanium C++ ABI demangler for kernel names, so
 * that SASS functions (mangled in listings) meet the names ptxas -v and the
 * CUDA source use, and are shown as a reader knows them.
 *
 * Two passes, as the ABI's references require.  The parser builds a tree of
 * the mangled name; substitutions (S_, S0_ ...) point at earlier subtrees
 * and template parameters (T_, T0_ ...) stay parameters until printing, so a
 * pack expansion (Dp) can print its pattern once per element of the pack,
 * as CUB's and Thrust's kernels need ("kernel_arg<float*>, kernel_arg<int>").
 * The printer follows c++filt (GNU libiberty) to the character: "float
 * const*", "void (*)(int)", "int (*) [4]", "f<int>(int)::{lambda()#1}",
 * "(cub::SortOrder)0", "A<B<int> >".
 *
 * What is covered: nested and local names, templates with type, literal,
 * pack and simple expression arguments (unary and binary operators,
 * sizeof, addresses of functions and variables), substitutions and std::'s
 * abbreviations (spelled out in full, as c++filt does), builtin and vendor
 * types, pointers, references (collapsed as C++ does), qualifiers,
 * function, array, vector and member pointer types, pack expansions,
 * constructors, destructors, operators, conversion operators, lambdas and
 * unnamed types, ABI tags, clone suffixes.  Not covered (NULL): decltype,
 * casts, calls and the other expression forms; special names (vtables,
 * typeinfo, guard variables, thunks); fixed-point and other rare types;
 * names over 1024 characters, which c++filt refuses too.  Checked against
 * c++filt on every name of tests/fixtures/demangle.tsv and, when c++filt is
 * on the machine, live.
 *
 * Everything is bounded: recursion depth, and the length of what is
 * printed (substitutions can double a name at every step). */

#include <string.h>

#include "ks-sass.h"

#define MAX_DEPTH 128
#define MAX_OUTPUT 65536

typedef enum
{
  N_NAME,                       /* s */
  N_QUAL,                       /* a::b */
  N_TEMPLATE,                   /* a<list> */
  N_BUILTIN,                    /* s */
  N_QUALS,                      /* a with num = Q_* */
  N_PTR,                        /* a* */
  N_REF,                        /* a& */
  N_RREF,                       /* a&& */
  N_FUNC_TYPE,                  /* a (list) with flags = Q_* | F_REF* */
  N_ARRAY,                      /* a [s] or a [b] */
  N_PTRMEM,                     /* b a::* */
  N_TPARAM,                     /* num */
  N_EXPANSION,                  /* a... */
  N_PACK,                       /* list */
  N_LITERAL,                    /* (a)s; flags 1 = negative */
  N_EXTERNAL,                   /* a: L_Z encoding E */
  N_UNARY,                      /* s(a) */
  N_BINARY,                     /* (a)s(b) */
  N_SIZEOF_TYPE,                /* sizeof (a) */
  N_LOCAL,                      /* a::b, a an encoding */
  N_ENCODING,                   /* a (list) with b the return type or NULL */
  N_LAMBDA,                     /* {lambda(list)#num} */
  N_UNNAMED,                    /* {unnamed type#num} */
  N_CTOR,                       /* s */
  N_DTOR,                       /* ~s */
  N_OPERATOR,                   /* operator s */
  N_CONVERSION,                 /* operator a */
  N_ABI_TAG,                    /* a[abi:s] */
  N_VECTOR,                     /* a __vector(s) */
  N_STRING,                     /* string literal */
  N_CLONE,                      /* a [clone s] */
} Kind;

enum
{
  Q_CONST = 1 << 0,
  Q_VOLATILE = 1 << 1,
  Q_RESTRICT = 1 << 2,
  F_REF = 1 << 3,
  F_RREF = 1 << 4,
};

typedef struct Node Node;
struct Node
{
  Kind kind;
  char *s;
  Node *a, *b;
  GPtrArray *list;              /* Node * (borrowed; the Dm owns every node) */
  guint num;
  guint flags;
};

typedef struct
{
  const char *p;
  GPtrArray *nodes;             /* owns every Node */
  GPtrArray *subs;              /* Node *, the substitution candidates */
  Node *last_name;              /* the source name a constructor is named after */
  int depth;
  gboolean ok;
} Dm;

static Node *dm_type (Dm *d);
static Node *dm_encoding (Dm *d, gboolean local);
static Node *dm_expression (Dm *d);

static void
node_free (gpointer p)
{
  Node *n = p;

  g_free (n->s);
  if (n->list != NULL)
    g_ptr_array_unref (n->list);
  g_free (n);
}

static Node *
node (Dm   *d,
      Kind  kind,
      Node *a,
      Node *b)
{
  Node *n = g_new0 (Node, 1);

  n->kind = kind;
  n->a = a;
  n->b = b;
  g_ptr_array_add (d->nodes, n);
  return n;
}

static Node *
node_s (Dm         *d,
        Kind        kind,
        const char *s,
        gssize      len)
{
  Node *n = node (d, kind, NULL, NULL);

  n->s = len < 0 ? g_strdup (s) : g_strndup (s, (gsize) len);
  return n;
}

static Node *
bad (Dm *d)
{
  d->ok = FALSE;
  return NULL;
}

static char
peek (Dm *d)
{
  return *d->p;
}

static char
peek2 (Dm *d)
{
  return d->p[0] != '\0' ? d->p[1] : '\0';
}

static gboolean
eat (Dm   *d,
     char  c)
{
  if (*d->p != c || c == '\0')
    return FALSE;
  d->p++;
  return TRUE;
}

static void
add_sub (Dm   *d,
         Node *n)
{
  if (n != NULL && d->subs->len < 100000)
    g_ptr_array_add (d->subs, n);
}

/* A decimal number; FALSE past 10^6 or without digits */
static gboolean
number (Dm    *d,
        guint *out)
{
  guint64 v = 0;

  if (!g_ascii_isdigit (peek (d)))
    return FALSE;
  while (g_ascii_isdigit (peek (d)))
    {
      v = v * 10 + (guint64) (*d->p++ - '0');
      if (v > 1000000)
        return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

/* [<number>] _ : absent = 0, n = n + 1 (the ABI's <seq-id>-like counts) */
static gboolean
opt_number_underscore (Dm    *d,
                       guint *out)
{
  guint v = 0;

  if (eat (d, '_'))
    {
      *out = 0;
      return TRUE;
    }
  if (!number (d, &v) || !eat (d, '_'))
    return FALSE;
  *out = v + 1;
  return TRUE;
}

/* <source-name> ::= <length> <identifier> */
static Node *
source_name (Dm *d)
{
  const char *id;
  guint n;

  if (!number (d, &n) || n == 0)
    return bad (d);
  for (guint i = 0; i < n; i++)
    if (d->p[i] == '\0')
      return bad (d);
  d->p += n;
  /* GCC's name for anonymous namespaces */
  id = d->p - n;
  if (n >= 10 && strncmp (id, "_GLOBAL_", 8) == 0
      && (id[8] == '.' || id[8] == '_' || id[8] == '$') && id[9] == 'N')
    d->last_name = node_s (d, N_NAME, "(anonymous namespace)", -1);
  else
    d->last_name = node_s (d, N_NAME, d->p - n, n);
  return d->last_name;
}

/* <abi-tags>: B <source-name>, any number of them */
static Node *
abi_tags (Dm   *d,
          Node *n)
{
  Node *last_name = d->last_name;

  while (n != NULL && peek (d) == 'B')
    {
      Node *tag;

      d->p++;
      tag = source_name (d);
      if (tag == NULL)
        return NULL;
      n = node (d, N_ABI_TAG, n, NULL);
      n->s = g_strdup (tag->s);
    }
  /* a tag is no name a constructor takes */
  d->last_name = last_name;
  return n;
}

static const struct
{
  char code[3];
  const char *text;
  int arity;                    /* in expressions: 1 unary, 2 binary, 0 not an operator there */
} operators[] = {
  { "nw", "new", 0 }, { "na", "new[]", 0 }, { "dl", "delete", 0 }, { "da", "delete[]", 0 },
  { "ps", "+", 1 }, { "ng", "-", 1 }, { "ad", "&", 1 }, { "de", "*", 1 }, { "co", "~", 1 },
  { "pl", "+", 2 }, { "mi", "-", 2 }, { "ml", "*", 2 }, { "dv", "/", 2 }, { "rm", "%", 2 },
  { "an", "&", 2 }, { "or", "|", 2 }, { "eo", "^", 2 }, { "aS", "=", 0 }, { "pL", "+=", 0 },
  { "mI", "-=", 0 }, { "mL", "*=", 0 }, { "dV", "/=", 0 }, { "rM", "%=", 0 }, { "aN", "&=", 0 },
  { "oR", "|=", 0 }, { "eO", "^=", 0 }, { "ls", "<<", 2 }, { "rs", ">>", 2 }, { "lS", "<<=", 0 },
  { "rS", ">>=", 0 }, { "eq", "==", 2 }, { "ne", "!=", 2 }, { "lt", "<", 2 }, { "gt", ">", 2 },
  { "le", "<=", 2 }, { "ge", ">=", 2 }, { "ss", "<=>", 2 }, { "nt", "!", 1 }, { "aa", "&&", 2 },
  { "oo", "||", 2 }, { "pp", "++", 0 }, { "mm", "--", 0 }, { "cm", ",", 2 }, { "pm", "->*", 0 },
  { "pt", "->", 0 }, { "cl", "()", 0 }, { "ix", "[]", 0 }, { "qu", "?", 0 },
};

/* <operator-name>; a conversion operator (cv <type>) is its own node */
static Node *
operator_name (Dm *d)
{
  if (peek (d) == 'c' && peek2 (d) == 'v')
    {
      Node *t;

      d->p += 2;
      t = dm_type (d);
      return t != NULL ? node (d, N_CONVERSION, t, NULL) : NULL;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (operators); i++)
    if (peek (d) == operators[i].code[0] && peek2 (d) == operators[i].code[1])
      {
        Node *n;

        d->p += 2;
        n = node (d, N_OPERATOR, NULL, NULL);
        /* c++filt: "operator new", "operator+" */
        n->s = g_strconcat (g_ascii_isalpha (operators[i].text[0]) ? "operator " : "operator",
                            operators[i].text, NULL);
        return n;
      }
  return bad (d);
}

/* <element>* E: appends the elements before the E, which it eats, to
 * list.  FALSE, for the caller to answer NULL, when the name ends first (a
 * bad name) or an element is not one. */
static gboolean
elements_until_e (Dm         *d,
                  GPtrArray  *list,
                  Node     *(*element) (Dm *d))
{
  while (d->ok && !eat (d, 'E'))
    {
      Node *e;

      if (peek (d) == '\0')
        {
          bad (d);
          return FALSE;
        }
      e = element (d);
      if (e == NULL)
        return FALSE;
      g_ptr_array_add (list, e);
    }
  return TRUE;
}

/* A parameter list of just "v" is an empty one */
static void
drop_void (GPtrArray *list)
{
  if (list->len == 1 && ((Node *) list->pdata[0])->kind == N_BUILTIN
      && strcmp (((Node *) list->pdata[0])->s, "void") == 0)
    g_ptr_array_set_size (list, 0);
}

/* Ul <lambda-sig> E [<number>] _ : the parameter types, "v" for none */
static Node *
lambda (Dm *d)
{
  Node *n = node (d, N_LAMBDA, NULL, NULL);

  n->list = g_ptr_array_new ();
  if (!elements_until_e (d, n->list, dm_type))
    return NULL;
  drop_void (n->list);
  if (!opt_number_underscore (d, &n->num))
    return bad (d);
  return n;
}

/* <unqualified-name> */
static Node *
unqualified_name (Dm *d)
{
  char c = peek (d);
  Node *n;

  /* internal linkage (a static function): nothing to print */
  if (c == 'L' && g_ascii_isdigit (peek2 (d)))
    {
      d->p++;
      c = peek (d);
    }
  if (g_ascii_isdigit (c))
    n = source_name (d);
  else if (g_ascii_islower (c))
    n = operator_name (d);
  else if (c == 'C' && (g_ascii_isdigit (peek2 (d)) || peek2 (d) == 'I'))
    {
      /* c++filt names it after the last source name read, which is the
       * class's unless template arguments came between (they restore it) */
      Node *name = d->last_name;

      d->p += 2;
      if (d->p[-1] == 'I')      /* inheriting constructor: CI1 <type> */
        {
          if (!g_ascii_isdigit (peek (d)))
            return bad (d);
          d->p++;
          if (dm_type (d) == NULL)
            return NULL;
        }
      if (name == NULL)
        return bad (d);
      n = node_s (d, N_CTOR, name->s, -1);
    }
  else if (c == 'D' && g_ascii_isdigit (peek2 (d)))
    {
      Node *name = d->last_name;

      d->p += 2;
      if (name == NULL)
        return bad (d);
      n = node_s (d, N_DTOR, name->s, -1);
    }
  else if (c == 'U' && peek2 (d) == 'l')
    {
      d->p += 2;
      n = lambda (d);
    }
  else if (c == 'U' && peek2 (d) == 't')
    {
      d->p += 2;
      n = node (d, N_UNNAMED, NULL, NULL);
      if (!opt_number_underscore (d, &n->num))
        return bad (d);
    }
  else
    return bad (d);
  return abi_tags (d, n);
}

/* <substitution>: S_, S<seq-id>_ (base 36) and std::'s abbreviations.
 * c++filt spells the abbreviations out in full ("std::string" is
 * "std::basic_string<char, std::char_traits<char>, std::allocator<char> >")
 * and names a constructor after the class they end with. */
static Node *
substitution (Dm *d)
{
  static const struct { char c; const char *text, *last; } std_subs[] = {
    { 't', "std", NULL },
    { 'a', "std::allocator", "allocator" },
    { 'b', "std::basic_string", "basic_string" },
    { 's', "std::basic_string<char, std::char_traits<char>, std::allocator<char> >", "basic_string" },
    { 'i', "std::basic_istream<char, std::char_traits<char> >", "basic_istream" },
    { 'o', "std::basic_ostream<char, std::char_traits<char> >", "basic_ostream" },
    { 'd', "std::basic_iostream<char, std::char_traits<char> >", "basic_iostream" },
  };
  guint64 i = 0;

  if (!eat (d, 'S'))
    return bad (d);
  for (gsize k = 0; k < G_N_ELEMENTS (std_subs); k++)
    if (peek (d) == std_subs[k].c)
      {
        d->p++;
        if (std_subs[k].last != NULL)
          d->last_name = node_s (d, N_NAME, std_subs[k].last, -1);
        return node_s (d, N_NAME, std_subs[k].text, -1);
      }
  if (!eat (d, '_'))
    {
      guint64 v = 0;

      if (!g_ascii_isdigit (peek (d)) && !g_ascii_isupper (peek (d)))
        return bad (d);
      while (g_ascii_isdigit (peek (d)) || g_ascii_isupper (peek (d)))
        {
          char c = *d->p++;

          v = v * 36 + (guint64) (g_ascii_isdigit (c) ? c - '0' : c - 'A' + 10);
          if (v > 1000000)
            return bad (d);
        }
      if (!eat (d, '_'))
        return bad (d);
      i = v + 1;
    }
  if (i >= d->subs->len)
    return bad (d);
  return g_ptr_array_index (d->subs, i);
}

/* T_ = 0, T0_ = 1 ... */
static Node *
template_param (Dm *d)
{
  Node *n;

  if (!eat (d, 'T'))
    return bad (d);
  n = node (d, N_TPARAM, NULL, NULL);
  if (!opt_number_underscore (d, &n->num))
    return bad (d);
  return n;
}

/* L <type> <value> E, L _Z <encoding> E */
static Node *
literal (Dm *d)
{
  Node *n, *t;
  const char *start;

  if (!eat (d, 'L'))
    return bad (d);
  if (peek (d) == '_' && peek2 (d) == 'Z')
    {
      Node *e;

      d->p += 2;
      e = dm_encoding (d, TRUE);
      if (e == NULL || !eat (d, 'E'))
        return bad (d);
      return node (d, N_EXTERNAL, e, NULL);
    }
  t = dm_type (d);
  if (t == NULL)
    return NULL;
  n = node (d, N_LITERAL, t, NULL);
  if (eat (d, 'n'))
    n->flags = 1;
  start = d->p;
  /* integers; floating-point values are the lower-case hex digits of their
   * representation (upper case E ends the literal) */
  while (g_ascii_isdigit (peek (d)) || (peek (d) >= 'a' && peek (d) <= 'f'))
    d->p++;
  if (!eat (d, 'E'))
    return bad (d);
  n->s = g_strndup (start, (gsize) (d->p - 1 - start));
  return n;
}

/* <template-arg> */
static Node *
template_arg (Dm *d)
{
  switch (peek (d))
    {
    case 'X':
      {
        Node *e;

        d->p++;
        e = dm_expression (d);
        if (e == NULL || !eat (d, 'E'))
          return bad (d);
        return e;
      }
    case 'L':
      return literal (d);
    case 'J':
      {
        Node *n = node (d, N_PACK, NULL, NULL);

        d->p++;
        n->list = g_ptr_array_new ();
        if (!elements_until_e (d, n->list, template_arg))
          return NULL;
        return d->ok ? n : NULL;
      }
    default:
      return dm_type (d);
    }
}

/* I <template-arg>+ E, as an N_PACK holding the arguments */
static Node *
template_args (Dm *d)
{
  Node *n, *last_name = d->last_name;

  if (!eat (d, 'I'))
    return bad (d);
  if (++d->depth > MAX_DEPTH)
    return bad (d);
  n = node (d, N_PACK, NULL, NULL);
  n->list = g_ptr_array_new ();
  if (!elements_until_e (d, n->list, template_arg))
    return bad (d);
  d->depth--;
  d->last_name = last_name;
  return d->ok ? n : NULL;
}

/* <expression>, the forms template arguments of kernels use */
static Node *
dm_expression (Dm *d)
{
  Node *n = NULL;

  if (++d->depth > MAX_DEPTH)
    return bad (d);
  if (peek (d) == 'T')
    n = template_param (d);
  else if (peek (d) == 'L')
    n = literal (d);
  else if (peek (d) == 's' && peek2 (d) == 't')
    {
      Node *t;

      d->p += 2;
      t = dm_type (d);
      n = t != NULL ? node (d, N_SIZEOF_TYPE, t, NULL) : NULL;
    }
  else if (peek (d) == 's' && peek2 (d) == 'z')
    {
      Node *e;

      d->p += 2;
      e = dm_expression (d);
      if (e != NULL)
        {
          n = node (d, N_UNARY, e, NULL);
          n->s = g_strdup ("sizeof ");
        }
    }
  else
    {
      for (gsize i = 0; i < G_N_ELEMENTS (operators) && n == NULL; i++)
        if (operators[i].arity > 0 && peek (d) == operators[i].code[0]
            && peek2 (d) == operators[i].code[1])
          {
            Node *x, *y = NULL;

            d->p += 2;
            x = dm_expression (d);
            if (x != NULL && operators[i].arity == 2)
              y = dm_expression (d);
            if (x == NULL || (operators[i].arity == 2 && y == NULL))
              return bad (d);
            n = node (d, operators[i].arity == 2 ? N_BINARY : N_UNARY, x, y);
            n->s = g_strdup (operators[i].text);
          }
      if (n == NULL)
        return bad (d);         /* calls, casts, decltype ...: not handled */
    }
  d->depth--;
  return d->ok ? n : NULL;
}

/* N [<CV>] [<ref>] <prefix> <unqualified-name> E, and the template prefix
 * forms.  Each prefix that more follows is a substitution candidate; the
 * whole name is not (a type adds it, a function name never). */
static Node *
nested_name (Dm    *d,
             guint *cv)
{
  Node *ret = NULL;

  if (!eat (d, 'N'))
    return bad (d);
  *cv = 0;
  while (peek (d) == 'r' || peek (d) == 'V' || peek (d) == 'K')
    {
      char q = *d->p++;

      *cv |= q == 'r' ? Q_RESTRICT : q == 'V' ? Q_VOLATILE : Q_CONST;
    }
  if (eat (d, 'R'))
    *cv |= F_REF;
  else if (eat (d, 'O'))
    *cv |= F_RREF;

  for (;;)
    {
      char c = peek (d);
      Node *part;
      gboolean was_sub = FALSE;

      if (c == '\0')
        return bad (d);
      if (c == 'E')
        {
          d->p++;
          return ret != NULL ? ret : bad (d);
        }
      if (c == 'I')
        {
          Node *args;

          if (ret == NULL)
            return bad (d);
          args = template_args (d);
          if (args == NULL)
            return NULL;
          ret = node (d, N_TEMPLATE, ret, args);
        }
      else
        {
          if (c == 'S')
            {
              part = substitution (d);
              was_sub = TRUE;
            }
          else if (c == 'T')
            part = template_param (d);
          else
            part = unqualified_name (d);
          if (part == NULL)
            return NULL;
          ret = ret != NULL ? node (d, N_QUAL, ret, part) : part;
        }
      if (!was_sub && peek (d) != 'E')
        add_sub (d, ret);
    }
}

/* Z <encoding> E <entity name> [<discriminator>], Z <encoding> E s; cv
 * gets the qualifiers of a member function of a local class or lambda */
static Node *
local_name (Dm    *d,
            guint *cv)
{
  Node *enc, *entity;

  if (!eat (d, 'Z'))
    return bad (d);
  enc = dm_encoding (d, TRUE);
  if (enc == NULL || !eat (d, 'E'))
    return bad (d);
  if (eat (d, 's'))
    entity = node_s (d, N_STRING, "string literal", -1);
  else
    {
      if (peek (d) == 'N')
        entity = nested_name (d, cv);
      else
        entity = unqualified_name (d);
      if (entity == NULL)
        return NULL;
    }
  /* the discriminator, _N or __N_, is not printed */
  if (peek (d) == '_')
    {
      guint dummy;

      d->p++;
      if (eat (d, '_'))
        {
          if (!number (d, &dummy) || !eat (d, '_'))
            return bad (d);
        }
      else if (!number (d, &dummy))
        return bad (d);
    }
  return node (d, N_LOCAL, enc, entity);
}

/* <name>; cv gets a member function's qualifiers */
static Node *
dm_name (Dm    *d,
         guint *cv)
{
  Node *n;

  *cv = 0;
  switch (peek (d))
    {
    case 'N':
      return nested_name (d, cv);
    case 'Z':
      return local_name (d, cv);
    case 'S':
      if (peek2 (d) == 't')
        {
          Node *u;

          d->p += 2;
          u = unqualified_name (d);
          if (u == NULL)
            return NULL;
          n = node (d, N_QUAL, node_s (d, N_NAME, "std", -1), u);
        }
      else
        {
          /* a substitution here is a template name followed by arguments */
          n = substitution (d);
          if (n == NULL)
            return NULL;
          if (peek (d) != 'I')
            return bad (d);
          {
            Node *args = template_args (d);

            return args != NULL ? node (d, N_TEMPLATE, n, args) : NULL;
          }
        }
      break;
    default:
      n = unqualified_name (d);
      if (n == NULL)
        return NULL;
      break;
    }
  if (peek (d) == 'I')
    {
      Node *args;

      add_sub (d, n);           /* the template name is a candidate */
      args = template_args (d);
      if (args == NULL)
        return NULL;
      n = node (d, N_TEMPLATE, n, args);
    }
  return n;
}

static const char *
builtin (char c)
{
  switch (c)
    {
    case 'v': return "void";
    case 'w': return "wchar_t";
    case 'b': return "bool";
    case 'c': return "char";
    case 'a': return "signed char";
    case 'h': return "unsigned char";
    case 's': return "short";
    case 't': return "unsigned short";
    case 'i': return "int";
    case 'j': return "unsigned int";
    case 'l': return "long";
    case 'm': return "unsigned long";
    case 'x': return "long long";
    case 'y': return "unsigned long long";
    case 'n': return "__int128";
    case 'o': return "unsigned __int128";
    case 'f': return "float";
    case 'd': return "double";
    case 'e': return "long double";
    case 'g': return "__float128";
    case 'z': return "...";
    default: return NULL;
    }
}

/* D-prefixed builtins */
static const char *
builtin_d (Dm *d)
{
  static const struct { const char *code, *name; } ds[] = {
    { "Dh", "half" }, { "Dn", "decltype(nullptr)" }, { "Ds", "char16_t" }, { "Di", "char32_t" },
    { "Du", "char8_t" }, { "Da", "auto" }, { "Dc", "decltype(auto)" }, { "Df", "decimal32" },
    { "Dd", "decimal64" }, { "De", "decimal128" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (ds); i++)
    if (strncmp (d->p, ds[i].code, 2) == 0)
      {
        d->p += 2;
        return ds[i].name;
      }
  /* DF <bits> _ : _Float16, _Float32 ...; DF16b: bfloat16 */
  if (peek (d) == 'D' && peek2 (d) == 'F' && g_ascii_isdigit (d->p[2]))
    {
      static char names[][16] = { "_Float16", "_Float32", "_Float64", "_Float128", "std::bfloat16_t" };
      guint bits;

      d->p += 2;
      if (!number (d, &bits))
        return NULL;
      if (bits == 16 && eat (d, 'b'))
        return names[4];
      if (!eat (d, '_'))
        return NULL;
      switch (bits)
        {
        case 16: return names[0];
        case 32: return names[1];
        case 64: return names[2];
        case 128: return names[3];
        default: return NULL;
        }
    }
  return NULL;
}

/* F [Y] <return type> <parameter types> [<ref-qualifier>] E */
static Node *
function_type (Dm *d)
{
  Node *n, *ret;

  if (!eat (d, 'F'))
    return bad (d);
  eat (d, 'Y');
  ret = dm_type (d);
  if (ret == NULL)
    return NULL;
  n = node (d, N_FUNC_TYPE, ret, NULL);
  n->list = g_ptr_array_new ();
  while (d->ok)
    {
      Node *t;

      if (peek (d) == 'E')
        break;
      if ((peek (d) == 'R' || peek (d) == 'O') && peek2 (d) == 'E')
        {
          n->flags |= *d->p++ == 'R' ? F_REF : F_RREF;
          break;
        }
      if (peek (d) == '\0')
        return bad (d);
      t = dm_type (d);
      if (t == NULL)
        return NULL;
      g_ptr_array_add (n->list, t);
    }
  if (!eat (d, 'E'))
    return bad (d);
  drop_void (n->list);
  return n;
}

static Node *
dm_type_inner (Dm *d)
{
  char c = peek (d);
  const char *b = builtin (c);
  Node *t, *r;

  if (b != NULL)
    {
      d->p++;
      return node_s (d, N_BUILTIN, b, -1);
    }
  switch (c)
    {
    case 'D':
      if (peek2 (d) == 'p')
        {
          d->p += 2;
          t = dm_type (d);
          if (t == NULL)
            return NULL;
          r = node (d, N_EXPANSION, t, NULL);
          add_sub (d, r);
          return r;
        }
      if (peek2 (d) == 'v')
        {
          guint n;

          d->p += 2;
          if (!number (d, &n) || !eat (d, '_'))
            return bad (d);
          t = dm_type (d);
          if (t == NULL)
            return NULL;
          r = node (d, N_VECTOR, t, NULL);
          r->s = g_strdup_printf ("%u", n);
          add_sub (d, r);
          return r;
        }
      b = builtin_d (d);
      return b != NULL ? node_s (d, N_BUILTIN, b, -1) : bad (d);
    case 'u':
      d->p++;
      t = source_name (d);
      if (t == NULL)
        return NULL;
      add_sub (d, t);
      return t;
    case 'P': case 'R': case 'O':
      d->p++;
      t = dm_type (d);
      if (t == NULL)
        return NULL;
      r = node (d, c == 'P' ? N_PTR : c == 'R' ? N_REF : N_RREF, t, NULL);
      add_sub (d, r);
      return r;
    case 'K': case 'V': case 'r':
      {
        guint q = 0;

        while (peek (d) == 'K' || peek (d) == 'V' || peek (d) == 'r')
          {
            char x = *d->p++;

            q |= x == 'r' ? Q_RESTRICT : x == 'V' ? Q_VOLATILE : Q_CONST;
          }
        /* qualifiers of a function type are its `this`'s: the function
         * type without them is no substitution candidate */
        t = peek (d) == 'F' ? function_type (d) : dm_type (d);
        if (t == NULL)
          return NULL;
        if (t->kind == N_FUNC_TYPE)
          {
            /* the qualifiers of a member function's type: "(A::*)(int) const" */
            r = node (d, N_FUNC_TYPE, t->a, NULL);
            r->list = g_ptr_array_ref (t->list);
            r->flags = t->flags | q;
          }
        else
          {
            r = node (d, N_QUALS, t, NULL);
            r->num = q;
          }
        add_sub (d, r);
        return r;
      }
    case 'F':
      t = function_type (d);
      if (t == NULL)
        return NULL;
      add_sub (d, t);
      return t;
    case 'A':
      {
        Node *dim = NULL;
        const char *start;

        d->p++;
        start = d->p;
        if (g_ascii_isdigit (peek (d)))
          {
            while (g_ascii_isdigit (peek (d)))
              d->p++;
          }
        else if (peek (d) != '_')
          {
            dim = dm_expression (d);
            if (dim == NULL)
              return NULL;
          }
        r = node (d, N_ARRAY, NULL, dim);
        if (dim == NULL)
          r->s = g_strndup (start, (gsize) (d->p - start));
        if (!eat (d, '_'))
          return bad (d);
        r->a = dm_type (d);
        if (r->a == NULL)
          return NULL;
        add_sub (d, r);
        return r;
      }
    case 'M':
      {
        Node *cls, *mem;

        d->p++;
        cls = dm_type (d);
        if (cls == NULL)
          return NULL;
        mem = dm_type (d);
        if (mem == NULL)
          return NULL;
        r = node (d, N_PTRMEM, mem, cls);
        add_sub (d, r);
        return r;
      }
    case 'T':
      t = template_param (d);
      if (t == NULL)
        return NULL;
      add_sub (d, t);
      if (peek (d) == 'I')
        {
          Node *args = template_args (d);

          if (args == NULL)
            return NULL;
          t = node (d, N_TEMPLATE, t, args);
          add_sub (d, t);
        }
      return t;
    case 'S':
      if (g_ascii_isdigit (peek2 (d)) || peek2 (d) == '_' || g_ascii_isupper (peek2 (d)))
        {
          t = substitution (d);
          if (t == NULL || peek (d) != 'I')
            return t;
          {
            Node *args = template_args (d);

            if (args == NULL)
              return NULL;
            r = node (d, N_TEMPLATE, t, args);
            add_sub (d, r);
            return r;
          }
        }
      if (peek2 (d) != 't')
        {
          /* Sa, Ss ...: a whole type, no new candidate unless arguments follow */
          t = substitution (d);
          if (t == NULL || peek (d) != 'I')
            return t;
          {
            Node *args = template_args (d);

            if (args == NULL)
              return NULL;
            r = node (d, N_TEMPLATE, t, args);
            add_sub (d, r);
            return r;
          }
        }
      G_GNUC_FALLTHROUGH;
    case 'N': case 'Z':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        guint cv;

        t = dm_name (d, &cv);
        if (t == NULL)
          return NULL;
        add_sub (d, t);
        return t;
      }
    default:
      return bad (d);
    }
}

static Node *
dm_type (Dm *d)
{
  Node *t;

  if (++d->depth > MAX_DEPTH)
    return bad (d);
  t = dm_type_inner (d);
  d->depth--;
  if (t == NULL)
    d->ok = FALSE;
  return t;
}

/* The template whose arguments T_ means inside an encoding: the name's
 * last component */
static Node *
name_template (Node *n)
{
  while (n != NULL)
    switch (n->kind)
      {
      case N_QUAL:
        n = n->b;
        break;
      case N_LOCAL:
        n = n->b;
        break;
      case N_ABI_TAG:
        n = n->a;
        break;
      case N_TEMPLATE:
        return n;
      default:
        return NULL;
      }
  return NULL;
}

/* Whether the name's last component is a constructor, destructor or
 * conversion operator: those have no return type even as templates */
static gboolean
name_has_no_return (Node *n)
{
  while (n != NULL)
    switch (n->kind)
      {
      case N_QUAL:
      case N_LOCAL:
        n = n->b;
        break;
      case N_ABI_TAG:
      case N_TEMPLATE:
        n = n->a;
        break;
      case N_CTOR:
      case N_DTOR:
      case N_CONVERSION:
        return TRUE;
      default:
        return FALSE;
      }
  return FALSE;
}

/* <encoding>: a name, then for a function its (return and) parameter
 * types.  local: inside Z ... E, where the parameters end at 'E' */
static Node *
dm_encoding (Dm       *d,
             gboolean  local)
{
  Node *name, *enc;
  guint cv;

  if (++d->depth > MAX_DEPTH)
    return bad (d);
  name = dm_name (d, &cv);
  if (name == NULL)
    return NULL;
  if (peek (d) == '\0' || peek (d) == '.' || (local && peek (d) == 'E'))
    {
      d->depth--;
      return name;              /* a variable */
    }
  enc = node (d, N_ENCODING, name, NULL);
  enc->flags = cv;
  enc->list = g_ptr_array_new ();
  if (name_template (name) != NULL && !name_has_no_return (name))
    {
      enc->b = dm_type (d);
      if (enc->b == NULL)
        return NULL;
    }
  while (d->ok && peek (d) != '\0' && peek (d) != '.' && !(local && peek (d) == 'E'))
    {
      Node *t = dm_type (d);

      if (t == NULL)
        return NULL;
      g_ptr_array_add (enc->list, t);
    }
  if (enc->list->len == 1 && ((Node *) enc->list->pdata[0])->kind == N_BUILTIN
      && strcmp (((Node *) enc->list->pdata[0])->s, "void") == 0)
    g_ptr_array_set_size (enc->list, 0);
  d->depth--;
  return d->ok ? enc : NULL;
}

/* Printing.  Types are printed the way C++ declarators nest, as GNU
 * libiberty (c++filt) does: a pointer, reference, qualifier, array or
 * function type is pushed as a modifier while the type it applies to is
 * printed, and the innermost function or array type that meets the
 * pending modifiers prints them inside its parentheses: "int (*) [4]",
 * "void* (*)(int)", "int (*f())(long)".  The spacing rules are c++filt's,
 * which decides on the last character printed. */

typedef struct Scope Scope;
struct Scope
{
  Scope *next;
  Node *args;                   /* N_PACK of the arguments T_ means */
};

typedef struct Mod Mod;
struct Mod
{
  Mod *next;
  Node *node;
  gboolean printed;
  gboolean is_name;             /* an encoding's name, not a type modifier */
  Scope *scopes;                /* the template arguments in force when pushed */
};

typedef struct
{
  GString *out;
  Scope *scopes;
  Mod *mods;
  char last;                    /* the last character appended, kept when a
                                 * ", " is taken back, as c++filt keeps it */
  int pack_index;               /* the element a pack expansion prints now, or -1 */
  int lambda_arg;               /* inside a lambda's signature T_ is "auto:N" */
  gboolean ok;
  int depth;
} Pr;

static void pr (Pr *p, Node *n);
static void pr_encoding (Pr *p, Node *n, gboolean with_return);

static char
last_char (Pr *p)
{
  return p->last;
}

static void
put (Pr         *p,
     const char *s)
{
  if (s[0] == '\0')
    return;
  g_string_append (p->out, s);
  p->last = p->out->str[p->out->len - 1];
  if (p->out->len > MAX_OUTPUT)
    p->ok = FALSE;
}

static void
put_c (Pr   *p,
       char  c)
{
  g_string_append_c (p->out, c);
  p->last = c;
}

static void
put_num (Pr         *p,
         const char *before,
         guint       num,
         const char *after)
{
  char buf[16];

  g_snprintf (buf, sizeof buf, "%u", num);
  put (p, before);
  put (p, buf);
  put (p, after);
}

static const char *
qual_text (guint q)
{
  static const char *const texts[] = {
    "", " const", " volatile", " const volatile", " restrict", " const restrict",
    " volatile restrict", " const volatile restrict",
  };

  return texts[q & 7];
}

static const char *
ref_text (guint flags)
{
  return flags & F_REF ? " &" : flags & F_RREF ? " &&" : "";
}

/* The argument T_ (index) stands for in the innermost template, the
 * element pack_index of it when it is a pack */
static Node *
resolve (Pr   *p,
         guint index)
{
  Node *a;

  if (p->scopes == NULL || index >= p->scopes->args->list->len)
    return NULL;
  a = g_ptr_array_index (p->scopes->args->list, index);
  if (a->kind == N_PACK && p->pack_index >= 0)
    a = (guint) p->pack_index < a->list->len ? g_ptr_array_index (a->list, p->pack_index) : NULL;
  return a;
}

/* The pack a pack expansion's pattern refers to: the first template
 * parameter in it that stands for an argument pack */
static Node *
find_pack (Pr   *p,
           Node *n,
           int   depth)
{
  Node *r;

  if (n == NULL || depth > MAX_DEPTH * 4)
    return NULL;
  switch (n->kind)
    {
    case N_TPARAM:
      if (p->scopes == NULL || n->num >= p->scopes->args->list->len)
        return NULL;
      r = g_ptr_array_index (p->scopes->args->list, n->num);
      return r->kind == N_PACK ? r : NULL;
    case N_EXPANSION:
    case N_LAMBDA:
    case N_NAME:
    case N_BUILTIN:
    case N_UNNAMED:
    case N_CTOR:
    case N_DTOR:
    case N_OPERATOR:
    case N_STRING:
      return NULL;
    default:
      break;
    }
  if ((r = find_pack (p, n->a, depth + 1)) != NULL || (r = find_pack (p, n->b, depth + 1)) != NULL)
    return r;
  for (guint i = 0; n->list != NULL && i < n->list->len; i++)
    if ((r = find_pack (p, g_ptr_array_index (n->list, i), depth + 1)) != NULL)
      return r;
  return NULL;
}

/* A list of types or arguments: "int, float*".  Empty packs print
 * nothing; c++filt takes back the ", " before them only when nothing at
 * all follows it ("f<, int>", "g(int, , long)", "h<int>") */
static void
pr_list (Pr        *p,
         GPtrArray *list)
{
  g_autofree gsize *marks = NULL;

  if (list == NULL || list->len == 0)
    return;
  marks = g_new (gsize, list->len);
  for (guint i = 0; i < list->len && p->ok; i++)
    {
      if (i > 0)
        put (p, ", ");
      marks[i] = p->out->len;
      pr (p, g_ptr_array_index (list, i));
    }
  for (guint i = list->len - 1; i > 0 && p->ok && p->out->len == marks[i]; i--)
    g_string_truncate (p->out, marks[i] - 2);
}

/* An operand in an expression, in parentheses unless it is a name */
static void
pr_subexpr (Pr   *p,
            Node *n)
{
  gboolean simple = n->kind == N_NAME || n->kind == N_QUAL;

  if (!simple)
    put_c (p, '(');
  pr (p, n);
  if (!simple)
    put_c (p, ')');
}

static void pr_mod_list (Pr *p, Mod *mods);

/* A modifier that nothing printed inside a declarator */
static void
pr_mod (Pr   *p,
        Mod  *m)
{
  Node *n = m->node;

  if (m->is_name)
    {
      pr (p, n);
      return;
    }
  switch (n->kind)
    {
    case N_PTR:
      put_c (p, '*');
      break;
    case N_REF:
      put_c (p, '&');
      break;
    case N_RREF:
      put (p, "&&");
      break;
    case N_QUALS:
      put (p, qual_text (n->num));
      break;
    case N_PTRMEM:
      if (last_char (p) != '(')
        put_c (p, ' ');
      pr (p, n->b);
      put (p, "::*");
      break;
    case N_VECTOR:
      put (p, " __vector(");
      put (p, n->s);
      put_c (p, ')');
      break;
    default:
      pr (p, n);
      break;
    }
}

/* A function type after its return type: the pending modifiers in
 * parentheses, then the parameters and the qualifiers */
static void
pr_function_type (Pr   *p,
                  Node *fn,
                  Mod  *mods)
{
  gboolean need_paren = FALSE, need_space = FALSE;
  Mod *hold;

  for (Mod *m = mods; m != NULL && !m->printed && !need_paren; m = m->next)
    if (!m->is_name)
      switch (m->node->kind)
        {
        case N_PTR:
        case N_REF:
        case N_RREF:
          need_paren = TRUE;
          break;
        case N_QUALS:
        case N_PTRMEM:
          need_paren = need_space = TRUE;
          break;
        default:
          break;
        }
  if (need_paren)
    {
      if (!need_space && last_char (p) != '(' && last_char (p) != '*')
        need_space = TRUE;
      if (need_space && last_char (p) != ' ')
        put_c (p, ' ');
      put_c (p, '(');
    }
  hold = p->mods;
  p->mods = NULL;
  pr_mod_list (p, mods);
  if (need_paren)
    put_c (p, ')');
  put_c (p, '(');
  pr_list (p, fn->list);
  put_c (p, ')');
  put (p, qual_text (fn->flags));
  put (p, ref_text (fn->flags));
  p->mods = hold;
}

static void
pr_dimension (Pr   *p,
              Node *arr)
{
  put_c (p, '[');
  if (arr->b != NULL)
    pr (p, arr->b);
  else
    put (p, arr->s);
  put_c (p, ']');
}

/* An array type after its element type */
static void
pr_array_type (Pr   *p,
               Node *arr,
               Mod  *mods)
{
  gboolean need_space = TRUE;

  if (mods != NULL)
    {
      gboolean need_paren = FALSE;

      for (Mod *m = mods; m != NULL; m = m->next)
        if (!m->printed)
          {
            if (!m->is_name && m->node->kind == N_ARRAY)
              need_space = FALSE;
            else
              need_paren = need_space = TRUE;
            break;
          }
      if (need_paren)
        put (p, " (");
      pr_mod_list (p, mods);
      if (need_paren)
        put_c (p, ')');
    }
  if (need_space)
    put_c (p, ' ');
  pr_dimension (p, arr);
}

/* The pending modifiers, innermost first; a function or array type among
 * them prints the rest inside itself */
static void
pr_mod_list (Pr  *p,
             Mod *mods)
{
  Scope *hold;

  for (; mods != NULL && p->ok; mods = mods->next)
    {
      if (mods->printed)
        continue;
      mods->printed = TRUE;
      hold = p->scopes;
      p->scopes = mods->scopes;
      if (!mods->is_name && mods->node->kind == N_FUNC_TYPE)
        {
          pr_function_type (p, mods->node, mods->next);
          p->scopes = hold;
          return;
        }
      if (!mods->is_name && mods->node->kind == N_ARRAY)
        {
          pr_array_type (p, mods->node, mods->next);
          p->scopes = hold;
          return;
        }
      if (mods->is_name && mods->node->kind == N_LOCAL)
        {
          Mod *held = p->mods;

          p->mods = NULL;
          if (mods->node->a->kind == N_ENCODING)
            pr_encoding (p, mods->node->a, FALSE);
          else
            pr (p, mods->node->a);
          p->mods = held;
          put (p, "::");
          pr (p, mods->node->b);
          p->scopes = hold;
          return;
        }
      pr_mod (p, mods);
      p->scopes = hold;
    }
}

/* Prints inner with n pending as a modifier, then n itself unless a
 * function or array type printed it */
static void
pr_modifier (Pr   *p,
             Node *n,
             Node *inner)
{
  Mod m = { p->mods, n, FALSE, FALSE, p->scopes };

  p->mods = &m;
  pr (p, inner);
  if (!m.printed)
    pr_mod (p, &m);
  p->mods = m.next;
}

/* A literal as c++filt prints it: 5, 5u, 5l, 5ul, 5ll, 5ull, true,
 * (short)5, (Enum)3, (float)[3f800000] */
static void
pr_literal (Pr   *p,
            Node *n)
{
  static const struct { const char *type, *suffix; } plain[] = {
    { "int", "" }, { "unsigned int", "u" }, { "long", "l" }, { "unsigned long", "ul" },
    { "long long", "ll" }, { "unsigned long long", "ull" },
  };
  gboolean is_float = FALSE;

  if (n->a->kind == N_BUILTIN)
    {
      const char *t = n->a->s;

      for (gsize i = 0; i < G_N_ELEMENTS (plain); i++)
        if (strcmp (t, plain[i].type) == 0)
          {
            if (n->flags & 1)
              put_c (p, '-');
            put (p, n->s);
            put (p, plain[i].suffix);
            return;
          }
      if (strcmp (t, "bool") == 0 && !(n->flags & 1))
        {
          if (strcmp (n->s, "0") == 0)
            {
              put (p, "false");
              return;
            }
          if (strcmp (n->s, "1") == 0)
            {
              put (p, "true");
              return;
            }
        }
      is_float = strcmp (t, "float") == 0 || strcmp (t, "double") == 0
                 || strcmp (t, "long double") == 0 || strcmp (t, "__float128") == 0;
    }
  put_c (p, '(');
  pr (p, n->a);
  put_c (p, ')');
  if (n->flags & 1)
    put_c (p, '-');
  if (is_float)
    put_c (p, '[');
  put (p, n->s);
  if (is_float)
    put_c (p, ']');
}

/* The template an encoding's T_ refer to: its name's, a local name's
 * entity's */
static Node *
encoding_template (Node *name)
{
  if (name->kind == N_LOCAL)
    name = name->b;
  return name->kind == N_TEMPLATE ? name : NULL;
}

/* An encoding: [return type] name(parameters) qualifiers, the name
 * passed down as the innermost modifier so that a return type that is a
 * function pointer wraps around it: "void (*f())(int)" */
static void
pr_encoding (Pr       *p,
             Node     *n,
             gboolean  with_return)
{
  Node *tmpl;
  Mod *hold = p->mods;
  Mod name = { NULL, NULL, FALSE, TRUE, NULL };
  Scope scope;

  if (n->kind != N_ENCODING)
    {
      pr (p, n);                /* a variable */
      return;
    }
  name.node = n->a;
  name.scopes = p->scopes;
  p->mods = &name;
  tmpl = encoding_template (n->a);
  if (tmpl != NULL)
    {
      scope.next = p->scopes;
      scope.args = tmpl->b;
      p->scopes = &scope;
    }
  if (with_return && n->b != NULL)
    {
      Mod fn = { p->mods, n, FALSE, FALSE, p->scopes };

      /* the function itself is a modifier while its return type prints */
      p->mods = &fn;
      pr (p, n->b);
      p->mods = fn.next;
      if (!fn.printed)
        {
          put_c (p, ' ');
          pr_function_type (p, n, p->mods);
        }
    }
  else
    pr_function_type (p, n, p->mods);
  if (tmpl != NULL)
    p->scopes = scope.next;
  if (!name.printed)
    {
      put_c (p, ' ');
      pr (p, n->a);
    }
  p->mods = hold;
}

static void
pr_inner (Pr   *p,
          Node *n)
{
  switch (n->kind)
    {
    case N_NAME:
    case N_BUILTIN:
    case N_STRING:
    case N_OPERATOR:
    case N_CTOR:
      put (p, n->s);
      break;
    case N_DTOR:
      put_c (p, '~');
      put (p, n->s);
      break;
    case N_QUAL:
      pr (p, n->a);
      put (p, "::");
      pr (p, n->b);
      break;
    case N_LOCAL:
      if (n->a->kind == N_ENCODING)
        pr_encoding (p, n->a, FALSE);
      else
        pr (p, n->a);
      put (p, "::");
      pr (p, n->b);
      break;
    case N_TEMPLATE:
      {
        Mod *hold = p->mods;

        /* the arguments are names of their own: no modifier enters them */
        p->mods = NULL;
        pr (p, n->a);
        if (last_char (p) == '<')
          put_c (p, ' ');
        put_c (p, '<');
        pr_list (p, n->b->list);
        if (last_char (p) == '>')
          put_c (p, ' ');
        put_c (p, '>');
        p->mods = hold;
      }
      break;
    case N_PACK:
      pr_list (p, n->list);
      break;
    case N_TPARAM:
      if (p->lambda_arg > 0)
        put_num (p, "auto:", n->num + 1, "");
      else
        {
          Node *a = resolve (p, n->num);
          Scope *hold = p->scopes;

          if (a == NULL)
            {
              p->ok = FALSE;
              return;
            }
          /* the argument may itself name a parameter of the template
           * outside */
          p->scopes = hold->next;
          pr (p, a);
          p->scopes = hold;
        }
      break;
    case N_QUALS:
      /* arrays pass their qualifiers down to the element type; print
       * them once */
      for (Mod *m = p->mods; m != NULL; m = m->next)
        if (!m->printed)
          {
            if (m->is_name || m->node->kind != N_QUALS)
              break;
            if (m->node->num == n->num)
              {
                pr (p, n->a);
                return;
              }
          }
      pr_modifier (p, n, n->a);
      break;
    case N_REF:
    case N_RREF:
      {
        /* reference collapsing: T& with T = int&& is int& */
        Node *sub = n->a, *inner = NULL;

        if (p->lambda_arg == 0 && sub->kind == N_TPARAM)
          {
            sub = resolve (p, sub->num);
            if (sub == NULL)
              {
                p->ok = FALSE;
                return;
              }
          }
        if (sub->kind == N_REF || sub->kind == n->kind)
          n = sub;
        else if (sub->kind == N_RREF)
          inner = sub->a;
        pr_modifier (p, n, inner != NULL ? inner : n->a);
      }
      break;
    case N_PTR:
      pr_modifier (p, n, n->a);
      break;
    case N_PTRMEM:
    case N_VECTOR:
      pr_modifier (p, n, n->a);
      break;
    case N_FUNC_TYPE:
      {
        Mod fn = { p->mods, n, FALSE, FALSE, p->scopes };

        p->mods = &fn;
        pr (p, n->a);
        p->mods = fn.next;
        if (fn.printed)
          return;
        put_c (p, ' ');
        pr_function_type (p, n, p->mods);
      }
      break;
    case N_ARRAY:
      {
        Mod *hold = p->mods;
        Mod arr = { hold, n, FALSE, FALSE, p->scopes };
        Mod quals[3];
        guint k = 0;

        /* qualifiers of the array are the elements' */
        p->mods = &arr;
        for (Mod *m = hold; m != NULL && !m->is_name && m->node->kind == N_QUALS; m = m->next)
          if (!m->printed)
            {
              if (k >= G_N_ELEMENTS (quals))
                {
                  p->ok = FALSE;
                  return;
                }
              quals[k] = *m;
              quals[k].next = p->mods;
              p->mods = &quals[k];
              m->printed = TRUE;
              k++;
            }
        pr (p, n->a);
        p->mods = hold;
        if (arr.printed)
          return;
        while (k > 0)
          pr_mod (p, &quals[--k]);
        pr_array_type (p, n, p->mods);
      }
      break;
    case N_EXPANSION:
      {
        Node *pack = find_pack (p, n->a, 0);

        if (pack == NULL)
          {
            pr_subexpr (p, n->a);
            put (p, "...");
            return;
          }
        /* like c++filt, the index stays at the last element afterwards */
        for (guint i = 0; i < pack->list->len && p->ok; i++)
          {
            p->pack_index = (int) i;
            pr (p, n->a);
            if (i + 1 < pack->list->len)
              put (p, ", ");
          }
      }
      break;
    case N_LITERAL:
      pr_literal (p, n);
      break;
    case N_EXTERNAL:
      pr_encoding (p, n->a, TRUE);
      break;
    case N_UNARY:
      {
        Node *operand = n->a;

        put (p, n->s);
        /* &A::f: a qualified function's address without its parameters */
        if (strcmp (n->s, "&") == 0 && operand->kind == N_EXTERNAL
            && operand->a->kind == N_ENCODING && operand->a->a->kind == N_QUAL)
          {
            pr (p, operand->a->a);
            return;
          }
        if (operand->kind == N_EXTERNAL && operand->a->kind != N_ENCODING)
          operand = operand->a;
        pr_subexpr (p, operand);
      }
      break;
    case N_BINARY:
      {
        gboolean gt = strcmp (n->s, ">") == 0;

        /* "(a)>(b)" would close the template argument list */
        if (gt)
          put_c (p, '(');
        pr_subexpr (p, n->a);
        put (p, n->s);
        pr_subexpr (p, n->b);
        if (gt)
          put_c (p, ')');
      }
      break;
    case N_SIZEOF_TYPE:
      put (p, "sizeof (");
      pr (p, n->a);
      put_c (p, ')');
      break;
    case N_ENCODING:
      pr_encoding (p, n, TRUE);
      break;
    case N_LAMBDA:
      put (p, "{lambda(");
      p->lambda_arg++;
      pr_list (p, n->list);
      p->lambda_arg--;
      put_num (p, ")#", n->num + 1, "}");
      break;
    case N_UNNAMED:
      put_num (p, "{unnamed type#", n->num + 1, "}");
      break;
    case N_CONVERSION:
      put (p, "operator ");
      pr (p, n->a);
      break;
    case N_ABI_TAG:
      pr (p, n->a);
      put (p, "[abi:");
      put (p, n->s);
      put_c (p, ']');
      break;
    case N_CLONE:
      pr (p, n->a);
      put (p, " [clone ");
      put (p, n->s);
      put_c (p, ']');
      break;
    default:
      p->ok = FALSE;
      break;
    }
}

static void
pr (Pr   *p,
    Node *n)
{
  if (!p->ok || n == NULL || ++p->depth > MAX_DEPTH * 4)
    {
      p->ok = FALSE;
      return;
    }
  pr_inner (p, n);
  p->depth--;
}

/* c++filt's clone suffixes: ".isra.0", ".constprop.1", ".cold", each its
 * own "[clone ...]" */
static Node *
clone_suffixes (Dm   *d,
                Node *enc)
{
  while (d->ok && peek (d) == '.'
         && (g_ascii_islower (peek2 (d)) || g_ascii_isdigit (peek2 (d)) || peek2 (d) == '_'))
    {
      const char *start = d->p;
      Node *c;

      d->p += 2;
      while (g_ascii_islower (peek (d)) || g_ascii_isdigit (peek (d)) || peek (d) == '_')
        d->p++;
      while (peek (d) == '.' && g_ascii_isdigit (peek2 (d)))
        {
          d->p += 2;
          while (g_ascii_isdigit (peek (d)))
            d->p++;
        }
      c = node (d, N_CLONE, enc, NULL);
      c->s = g_strndup (start, (gsize) (d->p - start));
      enc = c;
    }
  return enc;
}

char *
ks_sass_demangle (const char *mangled)
{
  Dm d = { 0 };
  Node *enc;
  char *result = NULL;

  /* c++filt gives up on names over 1024 characters (libiberty's stack
   * guard); so does this, rather than answer where it would not */
  if (mangled == NULL || !g_str_has_prefix (mangled, "_Z") || strlen (mangled) > 1024)
    return NULL;
  d.p = mangled + 2;
  d.ok = TRUE;
  d.nodes = g_ptr_array_new_with_free_func (node_free);
  d.subs = g_ptr_array_new ();

  enc = dm_encoding (&d, FALSE);
  if (enc != NULL && d.ok)
    enc = clone_suffixes (&d, enc);
  if (enc != NULL && d.ok && peek (&d) == '\0')
    {
      Pr p = { 0 };

      p.out = g_string_new (NULL);
      p.pack_index = -1;
      p.ok = TRUE;
      pr (&p, enc);
      if (p.ok)
        result = g_string_free (p.out, FALSE);
      else
        g_string_free (p.out, TRUE);
    }
  g_ptr_array_unref (d.subs);
  g_ptr_array_unref (d.nodes);
  return result;
}

char *
ks_sass_demangle_name (const char *name)
{
  char *d = ks_sass_demangle (name);
  char *paren;

  if (d == NULL)
    return g_strdup (name);
  if ((paren = strchr (d, '(')) != NULL)
    *paren = '\0';
  return d;
}
