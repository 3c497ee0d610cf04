/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sass-demangle.c: a small Itanium C++ ABI demangler for kernel names,
 * so that SASS functions (mangled in listings) meet the names ptxas -v and
 * the CUDA source use.  It covers what kernels are usually called (see
 * ks-sass.h for the list) and answers NULL for the rest rather than guess;
 * the output follows c++filt ("float const*", "void f<128>(int)").
 *
 * Substitutions follow the ABI's order: each prefix of a nested name, each
 * template name before its arguments, each template parameter use and each
 * non-builtin type (a qualified type as one candidate) is added once, in
 * the order it ends; the function's own name is not. */

#include <string.h>

#include "ks-sass.h"

#define MAX_DEPTH 64

typedef struct
{
  const char *s;
  GPtrArray *subs;              /* char *, the substitution candidates */
  GPtrArray *targs;             /* char *, the function template's arguments */
  gboolean ok;
  int depth;
} Dm;

static char *dm_type (Dm *d);

static char
peek (Dm *d)
{
  return *d->s;
}

static gboolean
eat (Dm   *d,
     char  c)
{
  if (*d->s != c)
    return FALSE;
  d->s++;
  return TRUE;
}

static char *
bad (Dm *d)
{
  d->ok = FALSE;
  return NULL;
}

static void
add_sub (Dm         *d,
         const char *s)
{
  g_ptr_array_add (d->subs, g_strdup (s));
}

/* <length> <identifier> */
static char *
source_name (Dm *d)
{
  guint64 n = 0;

  if (!g_ascii_isdigit (peek (d)))
    return bad (d);
  while (g_ascii_isdigit (peek (d)))
    {
      n = n * 10 + (guint64) (*d->s++ - '0');
      if (n > 4096)
        return bad (d);
    }
  for (guint64 i = 0; i < n; i++)
    if (d->s[i] == '\0')
      return bad (d);
  d->s += n;
  /* GCC's name for anonymous namespaces */
  if (n >= 10 && strncmp (d->s - n, "_GLOBAL__N", 10) == 0)
    return g_strdup ("(anonymous namespace)");
  return g_strndup (d->s - n, n);
}

/* S_ = 0, S0_ = 1, S1_ = 2 ... (base 36); St is std:: */
static char *
substitution (Dm *d)
{
  guint64 i = 0;

  if (!eat (d, 'S'))
    return bad (d);
  if (eat (d, '_'))
    i = 0;
  else if (g_ascii_isdigit (peek (d)) || g_ascii_isupper (peek (d)))
    {
      guint64 v = 0;

      while (g_ascii_isdigit (peek (d)) || g_ascii_isupper (peek (d)))
        {
          char c = *d->s++;

          v = v * 36 + (guint64) (g_ascii_isdigit (c) ? c - '0' : c - 'A' + 10);
          if (v > 100000)
            return bad (d);
        }
      if (!eat (d, '_'))
        return bad (d);
      i = v + 1;
    }
  else
    return bad (d);               /* Sa, Ss, ...: the std abbreviations are not handled */
  if (i >= d->subs->len)
    return bad (d);
  return g_strdup (g_ptr_array_index (d->subs, i));
}

/* T_ = 0, T0_ = 1 ... */
static char *
template_param (Dm *d)
{
  guint64 i = 0;

  if (!eat (d, 'T'))
    return bad (d);
  if (!eat (d, '_'))
    {
      if (!g_ascii_isdigit (peek (d)))
        return bad (d);
      while (g_ascii_isdigit (peek (d)))
        {
          i = i * 10 + (guint64) (*d->s++ - '0');
          if (i > 10000)
            return bad (d);
        }
      if (!eat (d, '_'))
        return bad (d);
      i++;
    }
  if (d->targs == NULL || i >= d->targs->len)
    return bad (d);
  return g_strdup (g_ptr_array_index (d->targs, i));
}

/* L <type> <number> E */
static char *
literal (Dm *d)
{
  char t;
  const char *start;
  gboolean neg;
  g_autofree char *num = NULL;
  static const struct { char c; const char *before, *after; } kinds[] = {
    { 'i', "", "" }, { 'j', "", "u" }, { 'l', "", "l" }, { 'm', "", "ul" }, { 'x', "", "ll" },
    { 'y', "", "ull" }, { 's', "(short)", "" }, { 't', "(unsigned short)", "" },
    { 'c', "(char)", "" }, { 'a', "(signed char)", "" }, { 'h', "(unsigned char)", "" },
  };

  if (!eat (d, 'L'))
    return bad (d);
  t = *d->s++;
  if (t == '\0')
    return bad (d);
  neg = eat (d, 'n');
  start = d->s;
  while (g_ascii_isdigit (peek (d)))
    d->s++;
  if (d->s == start || !eat (d, 'E'))
    return bad (d);
  num = g_strdup_printf ("%s%.*s", neg ? "-" : "", (int) (d->s - 1 - start), start);
  if (t == 'b')
    return g_strdup (strcmp (num, "0") == 0 ? "false" : "true");
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (kinds[i].c == t)
      return g_strconcat (kinds[i].before, num, kinds[i].after, NULL);
  return bad (d);
}

/* I <arg>+ E -> "<a, b>"; args_out gets the arguments themselves */
static char *
template_args (Dm         *d,
               GPtrArray **args_out)
{
  g_autoptr(GString) out = g_string_new ("<");
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);

  if (!eat (d, 'I'))
    return bad (d);
  while (d->ok && !eat (d, 'E'))
    {
      char *a;

      if (peek (d) == '\0')
        return bad (d);
      a = peek (d) == 'L' ? literal (d) : dm_type (d);
      if (a == NULL)
        return bad (d);
      if (args->len > 0)
        g_string_append (out, ", ");
      g_string_append (out, a);
      g_ptr_array_add (args, a);
    }
  if (!d->ok || args->len == 0)
    return bad (d);
  /* c++filt keeps nested closers apart */
  if (out->str[out->len - 1] == '>')
    g_string_append_c (out, ' ');
  g_string_append_c (out, '>');
  if (args_out != NULL)
    *args_out = g_steal_pointer (&args);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A name; *is_template says whether it ends in template arguments.  The
 * whole name is not added as a candidate: a type adds it, a function not.
 * cv gets the qualifiers of a member function (N K ... E). */
static char *
dm_name (Dm          *d,
         gboolean     function_name,
         gboolean    *is_template,
         const char **cv)
{
  g_autofree char *prefix = NULL;
  gboolean pending = FALSE;

  *is_template = FALSE;
  if (cv != NULL)
    *cv = "";
  if (eat (d, 'N'))
    {
      if (peek (d) == 'K' && cv != NULL)
        *cv = " const";
      while (peek (d) == 'K' || peek (d) == 'V' || peek (d) == 'r')
        d->s++;
      while (d->ok && !eat (d, 'E'))
        {
          char c = peek (d);

          if (c == '\0')
            return bad (d);
          if (pending)
            add_sub (d, prefix);
          pending = TRUE;
          *is_template = FALSE;
          if (c == 'I' && prefix != NULL)
            {
              g_autoptr(GPtrArray) args = NULL;
              g_autofree char *ta = template_args (d, &args);
              char *p;

              if (ta == NULL)
                return bad (d);
              p = g_strconcat (prefix, ta, NULL);
              g_free (prefix);
              prefix = p;
              *is_template = TRUE;
              if (function_name)
                {
                  g_clear_pointer (&d->targs, g_ptr_array_unref);
                  d->targs = g_steal_pointer (&args);
                }
            }
          else if (c == 'S' && prefix == NULL)
            {
              if (d->s[1] == 't')
                {
                  d->s += 2;
                  prefix = g_strdup ("std");
                  pending = FALSE;
                  continue;
                }
              prefix = substitution (d);
              pending = FALSE;
            }
          else if (g_ascii_isdigit (c))
            {
              g_autofree char *n = source_name (d);
              char *p;

              if (n == NULL)
                return bad (d);
              p = prefix != NULL ? g_strconcat (prefix, "::", n, NULL) : g_strdup (n);
              g_free (prefix);
              prefix = p;
            }
          else
            return bad (d);     /* constructors, operators, local names ... */
        }
      if (!d->ok || prefix == NULL)
        return bad (d);
      return g_steal_pointer (&prefix);
    }

  if (peek (d) == 'S' && d->s[1] == 't')
    {
      g_autofree char *n = NULL;

      d->s += 2;
      n = source_name (d);
      if (n == NULL)
        return bad (d);
      prefix = g_strconcat ("std::", n, NULL);
    }
  else if (peek (d) == 'S')
    {
      prefix = substitution (d);
      if (prefix == NULL)
        return bad (d);
      if (peek (d) != 'I')
        return g_steal_pointer (&prefix);
    }
  else if (g_ascii_isdigit (peek (d)))
    {
      prefix = source_name (d);
      if (prefix == NULL)
        return bad (d);
    }
  else
    return bad (d);

  if (peek (d) == 'I')
    {
      g_autoptr(GPtrArray) args = NULL;
      g_autofree char *ta = NULL;

      add_sub (d, prefix);      /* the template name is a candidate */
      ta = template_args (d, &args);
      if (ta == NULL)
        return bad (d);
      *is_template = TRUE;
      if (function_name)
        {
          g_clear_pointer (&d->targs, g_ptr_array_unref);
          d->targs = g_steal_pointer (&args);
        }
      return g_strconcat (prefix, ta, NULL);
    }
  return g_steal_pointer (&prefix);
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

static char *
dm_type_inner (Dm *d)
{
  char c = peek (d);
  const char *b = builtin (c);
  char *t, *r;

  if (b != NULL)
    {
      d->s++;
      return g_strdup (b);
    }
  switch (c)
    {
    case 'D':
      if (d->s[1] == 'h')
        {
          d->s += 2;
          return g_strdup ("half");
        }
      if (d->s[1] == 'n')
        {
          d->s += 2;
          return g_strdup ("decltype(nullptr)");
        }
      if (strncmp (d->s, "DF16_", 5) == 0)
        {
          d->s += 5;
          return g_strdup ("_Float16");
        }
      return bad (d);
    case 'P': case 'R': case 'O':
      d->s++;
      t = dm_type (d);
      if (t == NULL)
        return NULL;
      r = g_strconcat (t, c == 'P' ? "*" : c == 'R' ? "&" : "&&", NULL);
      g_free (t);
      add_sub (d, r);
      return r;
    case 'K': case 'V': case 'r':
      {
        gboolean k = FALSE, v = FALSE, rs = FALSE;

        while (peek (d) == 'K' || peek (d) == 'V' || peek (d) == 'r')
          {
            char q = *d->s++;

            k |= q == 'K';
            v |= q == 'V';
            rs |= q == 'r';
          }
        t = dm_type (d);
        if (t == NULL)
          return NULL;
        r = g_strconcat (t, k ? " const" : "", v ? " volatile" : "", rs ? " restrict" : "", NULL);
        g_free (t);
        add_sub (d, r);
        return r;
      }
    case 'T':
      t = template_param (d);
      if (t == NULL)
        return NULL;
      add_sub (d, t);
      return t;
    case 'S':
      if (d->s[1] != 't')
        {
          t = substitution (d);
          if (t == NULL || peek (d) != 'I')
            return t;
          {
            g_autofree char *ta = template_args (d, NULL);

            if (ta == NULL)
              {
                g_free (t);
                return bad (d);
              }
            r = g_strconcat (t, ta, NULL);
            g_free (t);
            add_sub (d, r);
            return r;
          }
        }
      G_GNUC_FALLTHROUGH;
    case 'N':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        gboolean is_template;

        t = dm_name (d, FALSE, &is_template, NULL);
        if (t == NULL)
          return NULL;
        add_sub (d, t);
        return t;
      }
    default:
      return bad (d);           /* arrays, function types, member pointers ... */
    }
}

static char *
dm_type (Dm *d)
{
  char *t;

  if (++d->depth > MAX_DEPTH)
    return bad (d);
  t = dm_type_inner (d);
  d->depth--;
  if (t == NULL)
    d->ok = FALSE;
  return t;
}

char *
ks_sass_demangle (const char *mangled)
{
  Dm d = { 0 };
  g_autofree char *name = NULL;
  g_autofree char *ret = NULL;
  g_autoptr(GString) params = g_string_new (NULL);
  const char *cv = "";
  gboolean is_template;
  char *result = NULL;

  if (mangled == NULL || !g_str_has_prefix (mangled, "_Z"))
    return NULL;
  d.s = mangled + 2;
  d.ok = TRUE;
  d.subs = g_ptr_array_new_with_free_func (g_free);

  name = dm_name (&d, TRUE, &is_template, &cv);
  if (name != NULL && peek (&d) == '\0')
    result = g_strdup (name);   /* a variable */
  else if (name != NULL)
    {
      if (is_template)
        ret = dm_type (&d);
      /* ".isra.0"-style clone suffixes end the parameters */
      while (d.ok && peek (&d) != '\0' && peek (&d) != '.')
        {
          g_autofree char *t = dm_type (&d);

          if (t == NULL)
            break;
          if (strcmp (t, "void") == 0 && params->len == 0 && (peek (&d) == '\0' || peek (&d) == '.'))
            break;
          if (params->len > 0)
            g_string_append (params, ", ");
          g_string_append (params, t);
        }
      if (d.ok && (!is_template || ret != NULL))
        result = g_strdup_printf ("%s%s%s(%s)%s", ret != NULL ? ret : "", ret != NULL ? " " : "",
                                  name, params->str, cv);
    }
  if (!d.ok)
    g_clear_pointer (&result, g_free);
  g_ptr_array_unref (d.subs);
  g_clear_pointer (&d.targs, g_ptr_array_unref);
  return result;
}
