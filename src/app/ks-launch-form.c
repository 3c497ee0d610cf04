/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch-form.c: a launch spec as text fields, to and from JSON. */

#include "ks-launch-form.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ks-json.h"

static const char *const init_names[KS_LAUNCH_FORM_N_INITS] = {
  "zero", "random", "range", "data", "bytes_hex",
};

const char *
ks_launch_form_init_name (KsLaunchFormInit init)
{
  return init < KS_LAUNCH_FORM_N_INITS ? init_names[init] : "zero";
}

/* ---------------------------------------------------------------------- */
/* Life */

static void
buffer_free (gpointer data)
{
  KsLaunchFormBuffer *b = data;

  g_free (b->name);
  g_free (b->type);
  g_free (b->count);
  g_free (b->seed);
  g_free (b->min);
  g_free (b->max);
  g_free (b->start);
  g_free (b->step);
  g_free (b->data);
  g_free (b->hex);
  g_free (b);
}

static KsLaunchFormBuffer *
buffer_new (const char *name)
{
  KsLaunchFormBuffer *b = g_new0 (KsLaunchFormBuffer, 1);

  b->name = g_strdup (name);
  b->type = g_strdup ("f32");
  b->count = g_strdup ("");
  b->seed = g_strdup ("1");
  b->min = g_strdup ("-1");
  b->max = g_strdup ("1");
  b->start = g_strdup ("0");
  b->step = g_strdup ("1");
  b->data = g_strdup ("");
  b->hex = g_strdup ("");
  return b;
}

static KsLaunchFormBuffer *
buffer_copy (const KsLaunchFormBuffer *b)
{
  KsLaunchFormBuffer *c = g_new0 (KsLaunchFormBuffer, 1);

  c->name = g_strdup (b->name);
  c->type = g_strdup (b->type);
  c->count = g_strdup (b->count);
  c->init = b->init;
  c->seed = g_strdup (b->seed);
  c->min = g_strdup (b->min);
  c->max = g_strdup (b->max);
  c->start = g_strdup (b->start);
  c->step = g_strdup (b->step);
  c->data = g_strdup (b->data);
  c->hex = g_strdup (b->hex);
  return c;
}

static void
param_free (gpointer data)
{
  KsLaunchFormParam *p = data;

  g_free (p->buffer_name);
  g_free (p->type);
  g_free (p->value);
  g_free (p->object);
  g_free (p->offset);
  g_clear_pointer (&p->kept, json_node_unref);
  g_free (p);
}

static KsLaunchFormParam *
param_new (void)
{
  KsLaunchFormParam *p = g_new0 (KsLaunchFormParam, 1);

  p->buffer = -1;
  p->buffer_name = g_strdup ("");
  p->type = g_strdup ("u32");
  p->value = g_strdup ("0");
  p->object = g_strdup ("");
  return p;
}

static JsonNode *copy_kept (JsonNode *node);

static KsLaunchFormParam *
param_copy (const KsLaunchFormParam *p)
{
  KsLaunchFormParam *c = g_new0 (KsLaunchFormParam, 1);

  c->is_buffer = p->is_buffer;
  c->buffer = p->buffer;
  c->buffer_name = g_strdup (p->buffer_name);
  c->type = g_strdup (p->type);
  c->value = g_strdup (p->value);
  c->handle = p->handle;
  c->object = g_strdup (p->object);
  c->offset = g_strdup (p->offset);
  c->kept = p->kept ? copy_kept (p->kept) : NULL;
  return c;
}

/* A deep copy of a member kept as the spec has it (json-glib's copy shares
 * the objects, which a parser made immutable).  Integers past int64, which
 * the reader took as marked strings, become strings of their digits, which
 * the core reads as the numbers they are. */
static JsonNode *
copy_kept (JsonNode *node)
{
  JsonNode *copy;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
      && json_node_get_string (node)[0] == KS_LAUNCH_BIG_MARK)
    {
      /* the core reads the digits as a string too */
      copy = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (copy, json_node_get_string (node) + 1);
      return copy;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_object_new ();
      g_autoptr(GList) names = json_object_get_members (json_node_get_object (node));

      for (GList *l = names; l != NULL; l = l->next)
        json_object_set_member (o, l->data,
                                copy_kept (json_object_get_member (json_node_get_object (node),
                                                                l->data)));
      copy = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (copy, o);
      return copy;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_array_new ();
      JsonArray *from = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (from); i++)
        json_array_add_element (a, copy_kept (json_array_get_element (from, i)));
      copy = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (copy, a);
      return copy;
    }
  return json_node_copy (node);
}

static void
launch_free (gpointer data)
{
  KsLaunchFormLaunch *l = data;

  g_free (l->kernel);
  for (guint i = 0; i < 3; i++)
    {
      g_free (l->grid[i]);
      g_free (l->block[i]);
    }
  g_free (l->dynamic_shared);
  g_ptr_array_unref (l->params);
  g_free (l);
}

static KsLaunchFormLaunch *
launch_new (void)
{
  KsLaunchFormLaunch *l = g_new0 (KsLaunchFormLaunch, 1);

  for (guint i = 0; i < 3; i++)
    {
      l->grid[i] = g_strdup ("1");
      l->block[i] = g_strdup ("1");
    }
  l->dynamic_shared = g_strdup ("");
  l->params = g_ptr_array_new_with_free_func (param_free);
  return l;
}

static KsLaunchFormLaunch *
launch_copy (const KsLaunchFormLaunch *l)
{
  KsLaunchFormLaunch *c = launch_new ();

  c->kernel = g_strdup (l->kernel);
  for (guint i = 0; i < 3; i++)
    {
      g_free (c->grid[i]);
      g_free (c->block[i]);
      c->grid[i] = g_strdup (l->grid[i]);
      c->block[i] = g_strdup (l->block[i]);
    }
  g_free (c->dynamic_shared);
  c->dynamic_shared = g_strdup (l->dynamic_shared);
  c->cooperative = l->cooperative;
  for (guint i = 0; i < l->params->len; i++)
    g_ptr_array_add (c->params, param_copy (g_ptr_array_index (l->params, i)));
  return c;
}

/* The form's launch fields and @l's trade places */
static void
launch_swap (KsLaunchForm       *form,
             KsLaunchFormLaunch *l)
{
  char *t;
  GPtrArray *params;
  gboolean coop;

  t = form->kernel, form->kernel = l->kernel, l->kernel = t;
  for (guint i = 0; i < 3; i++)
    {
      t = form->grid[i], form->grid[i] = l->grid[i], l->grid[i] = t;
      t = form->block[i], form->block[i] = l->block[i], l->block[i] = t;
    }
  t = form->dynamic_shared, form->dynamic_shared = l->dynamic_shared, l->dynamic_shared = t;
  coop = form->cooperative, form->cooperative = l->cooperative, l->cooperative = coop;
  params = form->params, form->params = l->params, l->params = params;
}

void
ks_launch_form_select_launch (KsLaunchForm *form,
                              guint         step)
{
  g_return_if_fail (form != NULL);
  g_return_if_fail (form->launches == NULL || step < form->launches->len);

  if (form->launches == NULL || step == form->step)
    return;
  launch_swap (form, g_ptr_array_index (form->launches, form->step));
  launch_swap (form, g_ptr_array_index (form->launches, step));
  form->step = step;
}

KsLaunchForm *
ks_launch_form_new (void)
{
  KsLaunchForm *form = g_new0 (KsLaunchForm, 1);

  form->kernel_file = g_strdup ("");
  for (guint i = 0; i < 3; i++)
    {
      form->grid[i] = g_strdup ("1");
      form->block[i] = g_strdup ("1");
    }
  form->dynamic_shared = g_strdup ("0");
  form->buffers = g_ptr_array_new_with_free_func (buffer_free);
  form->params = g_ptr_array_new_with_free_func (param_free);
  form->outputs = g_array_new (FALSE, FALSE, sizeof (int));
  return form;
}

KsLaunchForm *
ks_launch_form_copy (const KsLaunchForm *form)
{
  KsLaunchForm *c;

  g_return_val_if_fail (form != NULL, NULL);

  c = ks_launch_form_new ();
  c->use_source = form->use_source;
  g_free (c->kernel_file);
  c->kernel_file = g_strdup (form->kernel_file);
  c->kernel = g_strdup (form->kernel);
  for (guint i = 0; i < 3; i++)
    {
      g_free (c->grid[i]);
      g_free (c->block[i]);
      c->grid[i] = g_strdup (form->grid[i]);
      c->block[i] = g_strdup (form->block[i]);
    }
  g_free (c->dynamic_shared);
  c->dynamic_shared = g_strdup (form->dynamic_shared);
  c->cooperative = form->cooperative;
  for (guint i = 0; i < form->buffers->len; i++)
    g_ptr_array_add (c->buffers, buffer_copy (g_ptr_array_index (form->buffers, i)));
  for (guint i = 0; i < form->params->len; i++)
    g_ptr_array_add (c->params, param_copy (g_ptr_array_index (form->params, i)));
  g_array_append_vals (c->outputs, form->outputs->data, form->outputs->len);
  c->textures = form->textures ? copy_kept (form->textures) : NULL;
  c->surfaces = form->surfaces ? copy_kept (form->surfaces) : NULL;
  c->bindings = form->bindings ? copy_kept (form->bindings) : NULL;
  c->symbols = form->symbols ? copy_kept (form->symbols) : NULL;
  c->output_symbols = form->output_symbols ? copy_kept (form->output_symbols) : NULL;
  if (form->launches != NULL)
    {
      c->launches = g_ptr_array_new_with_free_func (launch_free);
      for (guint i = 0; i < form->launches->len; i++)
        g_ptr_array_add (c->launches, launch_copy (g_ptr_array_index (form->launches, i)));
      c->step = form->step;
    }
  return c;
}

void
ks_launch_form_free (KsLaunchForm *form)
{
  if (form == NULL)
    return;
  g_free (form->kernel_file);
  g_free (form->kernel);
  for (guint i = 0; i < 3; i++)
    {
      g_free (form->grid[i]);
      g_free (form->block[i]);
    }
  g_free (form->dynamic_shared);
  g_ptr_array_unref (form->buffers);
  g_ptr_array_unref (form->params);
  g_array_unref (form->outputs);
  g_clear_pointer (&form->textures, json_node_unref);
  g_clear_pointer (&form->surfaces, json_node_unref);
  g_clear_pointer (&form->bindings, json_node_unref);
  g_clear_pointer (&form->symbols, json_node_unref);
  g_clear_pointer (&form->output_symbols, json_node_unref);
  g_clear_pointer (&form->launches, g_ptr_array_unref);
  g_free (form);
}

/* ---------------------------------------------------------------------- */
/* Reading */

static gboolean G_GNUC_PRINTF (3, 4)
shape_error (GError    **error,
             const char *path,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID, "%s: %s", path, message);
  return FALSE;
}

/* The shortest text that reads back as @d */
static char *
double_text (double d)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (d))
    return g_strdup ("nan");
  if (isinf (d))
    return g_strdup (d < 0 ? "-inf" : "inf");
  for (int digits = 1; digits <= 17; digits++)
    {
      g_autofree char *format = g_strdup_printf ("%%.%dg", digits);

      g_ascii_formatd (buf, sizeof buf, format, d);
      if (g_ascii_strtod (buf, NULL) == d)
        break;
    }
  return g_strdup (buf);
}

/* What a spec is read from: the tree json-glib made, and the long arrays
 * of values it did not see (ks_json_lift_new()) in the text as written */
typedef struct
{
  KsJsonLift *lift;
  const char *text;
} Reader;

/* A kept member as the spec has it, its lifted arrays filled */
static JsonNode *
read_kept (const Reader *r,
           JsonNode     *node)
{
  g_autoptr(JsonNode) whole = ks_launch_unlift (r->lift, r->text, node);

  return copy_kept (whole);
}

/* A value as the user would type it */
static char *
node_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_INT64)
        return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
      if (type == G_TYPE_DOUBLE)
        return double_text (json_node_get_double (node));
      if (type == G_TYPE_STRING)
        {
          const char *s = json_node_get_string (node);

          return g_strdup (s[0] == KS_LAUNCH_BIG_MARK ? s + 1 : s);
        }
    }
  /* Anything else is wrong, and is kept as written so the message can
   * point at it */
  return json_to_string (node, FALSE);
}

static char *
member_text (JsonObject *o,
             const char *name,
             const char *fallback)
{
  JsonNode *node = o ? json_object_get_member (o, name) : NULL;

  return node ? node_text (node) : g_strdup (fallback);
}

/* "cooperative": true or false; anything else is not the form's to keep */
static gboolean
read_cooperative (JsonObject  *o,
                  const char  *prefix,
                  gboolean    *out,
                  GError     **error)
{
  JsonNode *node = json_object_get_member (o, "cooperative");

  *out = FALSE;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_autofree char *path = g_strconcat (prefix, "cooperative", NULL);

      return shape_error (error, path, "expected true or false");
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
read_dims (JsonObject  *root,
           const char  *prefix,
           const char  *name,
           char        *out[3],
           GError     **error)
{
  JsonNode *node = json_object_get_member (root, name);
  JsonArray *array;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *path = g_strconcat (prefix, name, NULL);

      return shape_error (error, path, "expected an array of 1 to 3 positive integers");
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < 3; i++)
    {
      g_free (out[i]);
      out[i] = i < json_array_get_length (array) ? node_text (json_array_get_element (array, i))
                                                  : g_strdup ("1");
    }
  return TRUE;
}

static gboolean
read_buffer (const Reader       *r,
             KsLaunchFormBuffer *b,
             JsonNode           *node,
             GError            **error)
{
  g_autofree char *path = ks_launch_form_buffer_path (b->name, NULL);
  JsonObject *o;
  JsonNode *m;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return shape_error (error, path, "expected an object");
  o = json_node_get_object (node);
  g_free (b->type);
  b->type = member_text (o, "type", "");
  g_free (b->count);
  b->count = member_text (o, "count", "");
  if ((m = json_object_get_member (o, "data")) != NULL)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      JsonArray *array;
      const KsJsonLifted *lifted;

      if (!JSON_NODE_HOLDS_ARRAY (m))
        return shape_error (error, path, "'data' is not an array");
      array = json_node_get_array (m);
      if ((lifted = ks_json_lift_find (r->lift, array)) != NULL)
        {
          const char *token;
          gsize pos = 0, token_len;

          /* As written (a string without its quotes): millions of values
           * are not each read and printed again */
          g_string_set_size (s, 0);
          while (ks_json_lifted_next (r->text, lifted, &pos, &token, &token_len))
            {
              if (s->len > 0)
                g_string_append (s, ", ");
              if (token[0] == '"')
                g_string_append_len (s, token + 1, (gssize) token_len - 2);
              else
                g_string_append_len (s, token, (gssize) token_len);
            }
        }
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *t = node_text (json_array_get_element (array, i));

          g_string_append_printf (s, "%s%s", i ? ", " : "", t);
        }
      b->init = KS_LAUNCH_FORM_DATA;
      g_free (b->data);
      b->data = g_string_free (g_steal_pointer (&s), FALSE);
    }
  else if (json_object_get_member (o, "bytes_hex") != NULL)
    {
      b->init = KS_LAUNCH_FORM_HEX;
      g_free (b->hex);
      b->hex = member_text (o, "bytes_hex", "");
    }
  else if ((m = json_object_get_member (o, "init")) != NULL)
    {
      JsonObject *init, *sub;

      if (!JSON_NODE_HOLDS_OBJECT (m))
        return shape_error (error, path, "'init' is not an object");
      init = json_node_get_object (m);
      if ((m = json_object_get_member (init, "random")) != NULL && JSON_NODE_HOLDS_OBJECT (m))
        {
          sub = json_node_get_object (m);
          b->init = KS_LAUNCH_FORM_RANDOM;
          g_free (b->seed);
          g_free (b->min);
          g_free (b->max);
          b->seed = member_text (sub, "seed", "");
          b->min = member_text (sub, "min", "");
          b->max = member_text (sub, "max", "");
        }
      else if ((m = json_object_get_member (init, "range")) != NULL && JSON_NODE_HOLDS_OBJECT (m))
        {
          sub = json_node_get_object (m);
          b->init = KS_LAUNCH_FORM_RANGE;
          g_free (b->start);
          g_free (b->step);
          b->start = member_text (sub, "start", "");
          b->step = member_text (sub, "step", "");
        }
      else
        return shape_error (error, path, "'init' holds neither 'random' nor 'range'");
    }
  else
    b->init = KS_LAUNCH_FORM_ZERO;
  return TRUE;
}

static int
find_buffer (const KsLaunchForm *form,
             const char         *name)
{
  for (guint i = 0; i < form->buffers->len; i++)
    if (g_strcmp0 (((KsLaunchFormBuffer *) g_ptr_array_index (form->buffers, i))->name, name) == 0)
      return (int) i;
  return -1;
}

/* A launch's "params" (@m), at @path, into @into */
static gboolean
read_params (const Reader *r,
             KsLaunchForm *form,
             JsonNode     *m,
             const char   *path,
             GPtrArray    *into,
             GError      **error)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (m))
    return shape_error (error, path, "expected an array");
  array = json_node_get_array (m);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);
      KsLaunchFormParam *p = param_new ();
      JsonObject *po;

      g_ptr_array_add (into, p);
      if (!JSON_NODE_HOLDS_OBJECT (e))
        {
          g_autofree char *epath = g_strdup_printf ("%s[%u]", path, i);

          return shape_error (error, epath, "expected an object");
        }
      po = json_node_get_object (e);
      if (json_object_get_member (po, "texture") != NULL
          || json_object_get_member (po, "surface") != NULL)
        {
          gboolean surface = json_object_get_member (po, "texture") == NULL;

          p->handle = surface ? KS_LAUNCH_FORM_SURFACE : KS_LAUNCH_FORM_TEXTURE;
          g_free (p->object);
          p->object = member_text (po, surface ? "surface" : "texture", "");
        }
      else if (json_object_get_member (po, "bytes_hex") != NULL
               || json_object_get_member (po, "fields") != NULL)
        p->kept = read_kept (r, e);
      else if (json_object_get_member (po, "buffer") != NULL)
        {
          p->is_buffer = TRUE;
          g_free (p->buffer_name);
          p->buffer_name = member_text (po, "buffer", "");
          p->buffer = find_buffer (form, p->buffer_name);
          if (json_object_get_member (po, "offset") != NULL)
            p->offset = member_text (po, "offset", "");
        }
      else
        {
          g_free (p->type);
          g_free (p->value);
          p->type = member_text (po, "type", "");
          p->value = member_text (po, "value", "");
        }
    }
  return TRUE;
}

static gboolean
read_root (const Reader *r,
           KsLaunchForm *form,
           JsonNode     *root,
           GError      **error)
{
  JsonObject *o;
  JsonNode *m;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                           "expected a JSON object at the top level");
      return FALSE;
    }
  o = json_node_get_object (root);
  form->use_source = json_object_get_member (o, "ptx") == NULL
                     && json_object_get_member (o, "source") != NULL;
  g_free (form->kernel_file);
  form->kernel_file = member_text (o, form->use_source ? "source" : "ptx", "");
  if (json_object_get_member (o, "kernel") != NULL)
    form->kernel = member_text (o, "kernel", "");
  if (!read_dims (o, "", "grid", form->grid, error)
      || !read_dims (o, "", "block", form->block, error))
    return FALSE;
  g_free (form->dynamic_shared);
  form->dynamic_shared = member_text (o, "dynamic_shared_bytes", "");
  if (!read_cooperative (o, "", &form->cooperative, error))
    return FALSE;

  if ((m = json_object_get_member (o, "buffers")) != NULL)
    {
      g_autoptr(GList) names = NULL;
      JsonObject *buffers;

      if (!JSON_NODE_HOLDS_OBJECT (m))
        return shape_error (error, "buffers", "expected an object");
      buffers = json_node_get_object (m);
      names = json_object_get_members (buffers);
      for (GList *l = names; l != NULL; l = l->next)
        {
          KsLaunchFormBuffer *b = buffer_new (l->data);

          g_ptr_array_add (form->buffers, b);
          if (!read_buffer (r, b, json_object_get_member (buffers, l->data), error))
            return FALSE;
        }
    }

  /* kept as written */
  if ((m = json_object_get_member (o, "textures")) != NULL)
    form->textures = read_kept (r, m);
  if ((m = json_object_get_member (o, "surfaces")) != NULL)
    form->surfaces = read_kept (r, m);
  if ((m = json_object_get_member (o, "bindings")) != NULL)
    form->bindings = read_kept (r, m);
  if ((m = json_object_get_member (o, "symbols")) != NULL)
    form->symbols = read_kept (r, m);
  if ((m = json_object_get_member (o, "output_symbols")) != NULL)
    form->output_symbols = read_kept (r, m);

  if ((m = json_object_get_member (o, "params")) != NULL
      && !read_params (r, form, m, "params", form->params, error))
    return FALSE;

  /* a sequence: each launch's own fields, the first in the form's */
  if ((m = json_object_get_member (o, "launches")) != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (m) || json_array_get_length (json_node_get_array (m)) == 0)
        return shape_error (error, "launches", "expected an array of launches");
      array = json_node_get_array (m);
      form->launches = g_ptr_array_new_with_free_func (launch_free);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *e = json_array_get_element (array, i);
          KsLaunchFormLaunch *l = launch_new ();
          g_autofree char *prefix = g_strdup_printf ("launches[%u].", i);
          g_autofree char *ppath = g_strconcat (prefix, "params", NULL);
          JsonObject *lo;
          JsonNode *pm;

          g_ptr_array_add (form->launches, l);
          if (!JSON_NODE_HOLDS_OBJECT (e))
            {
              g_autofree char *path = g_strdup_printf ("launches[%u]", i);

              return shape_error (error, path, "expected an object");
            }
          lo = json_node_get_object (e);
          if (json_object_get_member (lo, "kernel") != NULL)
            l->kernel = member_text (lo, "kernel", "");
          if (!read_dims (lo, prefix, "grid", l->grid, error)
              || !read_dims (lo, prefix, "block", l->block, error))
            return FALSE;
          g_free (l->dynamic_shared);
          l->dynamic_shared = member_text (lo, "dynamic_shared_bytes", "");
          if (!read_cooperative (lo, prefix, &l->cooperative, error))
            return FALSE;
          if ((pm = json_object_get_member (lo, "params")) != NULL
              && !read_params (r, form, pm, ppath, l->params, error))
            return FALSE;
        }
      form->step = 0;
      launch_swap (form, g_ptr_array_index (form->launches, 0));
    }

  if ((m = json_object_get_member (o, "outputs")) != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (m))
        return shape_error (error, "outputs", "expected an array");
      array = json_node_get_array (m);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *e = json_array_get_element (array, i);
          const char *name = JSON_NODE_HOLDS_VALUE (e)
                             && json_node_get_value_type (e) == G_TYPE_STRING
                             ? json_node_get_string (e) : NULL;
          int index = name ? find_buffer (form, name) : -1;

          if (index < 0)
            {
              g_autofree char *path = g_strdup_printf ("outputs[%u]", i);

              return shape_error (error, path, "names no buffer of the spec");
            }
          ks_launch_form_set_output (form, (guint) index, TRUE);
        }
    }
  return TRUE;
}

KsLaunchForm *
ks_launch_form_from_json (const char *json,
                          gssize      length,
                          GError    **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(KsLaunchForm) form = ks_launch_form_new ();
  g_autoptr(KsJsonLift) lift = NULL;
  size_t len;
  Reader r;

  g_return_val_if_fail (json != NULL, NULL);

  len = length < 0 ? strlen (json) : (size_t) length;
  /* As ks_launch_parse() reads it: the long arrays of values from the text */
  parser = ks_launch_load_json (json, len, (gpointer *) &lift, NULL, NULL, error);
  if (parser == NULL)
    return NULL;
  r.lift = lift;
  r.text = json;
  if (!read_root (&r, form, json_parser_get_root (parser), error))
    return NULL;
  return g_steal_pointer (&form);
}

/* ---------------------------------------------------------------------- */
/* Writing */

static gboolean
is_decimal_integer (const char *t)
{
  const char *p = t + (t[0] == '-');

  if (*p == '\0')
    return FALSE;
  /* JSON has no leading zeros or '+' */
  if (p[0] == '0' && p[1] != '\0')
    return FALSE;
  for (; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* JSON's grammar for a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
is_json_number (const char *t)
{
  const char *p = t + (t[0] == '-');

  if (p[0] == '0')
    p++;
  else if (g_ascii_isdigit (p[0]))
    while (g_ascii_isdigit (*p))
      p++;
  else
    return FALSE;
  if (*p == '.')
    {
      if (!g_ascii_isdigit (*++p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (*p == 'e' || *p == 'E')
    {
      p++;
      if (*p == '+' || *p == '-')
        p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  return *p == '\0';
}

/* json-glib prints a double with "%.17g" (and appends ".0" where that has
 * no point, which makes 1e+30.0 of 1e30): a double goes out as a number
 * only when that prints what was typed, give or take trailing zeros. */
static gboolean
prints_back (double d)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (d))
    return FALSE;
  g_ascii_formatd (a, sizeof a, "%.17g", d);
  g_ascii_formatd (b, sizeof b, "%.15g", d);
  return strcmp (a, b) == 0 && strpbrk (a, "eE") == NULL;
}

/* A field's text as a JSON value: see ks_launch_form_to_json() */
static void
add_value (JsonBuilder *b,
           const char  *text)
{
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (is_decimal_integer (t))
    {
      gint64 v;

      if (g_ascii_string_to_signed (t, 10, G_MININT64, G_MAXINT64, &v, NULL))
        {
          json_builder_add_int_value (b, v);
          return;
        }
    }
  else if (is_json_number (t))
    {
      double d = g_ascii_strtod (t, NULL);

      if (prints_back (d))
        {
          if (d == floor (d) && fabs (d) < 9007199254740992.0)
            json_builder_add_int_value (b, (gint64) d);
          else
            json_builder_add_double_value (b, d);
          return;
        }
    }
  json_builder_add_string_value (b, t);
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; p && *p; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;
  return TRUE;
}

/* Adds "name": value unless the text is empty */
static void
add_member (JsonBuilder *b,
            const char  *name,
            const char  *text)
{
  if (is_blank (text))
    return;
  json_builder_set_member_name (b, name);
  add_value (b, text);
}

static void
add_dims (JsonBuilder *b,
          const char  *name,
          char *const  dims[3])
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < 3; i++)
    add_value (b, dims[i]);
  json_builder_end_array (b);
}

/* The values of a buffer's data field, separated by commas and spaces.
 * (Not g_regex_split: GLib 2.74's checks the whole text at each match,
 * hours for a spec's 50 MB.)  Returns: past the next value, or NULL */
static const char *
next_word (const char  *p,
           const char **start)
{
  while (*p == ',' || g_ascii_isspace (*p))
    p++;
  if (*p == '\0')
    return NULL;
  for (*start = p; *p != '\0' && *p != ',' && !g_ascii_isspace (*p); p++)
    ;
  return p;
}

/* A data field of this many values or more is written as its text (a
 * number as typed, anything else as a string), not through json-glib's
 * builder, which takes a node and a printf per value */
#define SPLICE_MIN_VALUES KS_LAUNCH_LIFT_MIN_ELEMENTS
#define SPLICE_MARK "\002ks-data "

static void
append_data (GString    *out,
             const char *text)
{
  g_autoptr(GString) word = g_string_new (NULL);
  const char *p = text, *start;
  gboolean first = TRUE;

  g_string_append_c (out, '[');
  while ((p = next_word (p, &start)) != NULL)
    {
      g_string_append (out, first ? "\n      " : ",\n      ");
      first = FALSE;
      g_string_overwrite_len (word, 0, start, p - start);
      g_string_truncate (word, (gsize) (p - start));
      if (is_json_number (word->str))
        {
          g_string_append_len (out, word->str, (gssize) word->len);
          continue;
        }
      g_string_append_c (out, '"');
      for (const char *c = word->str; *c != '\0'; c++)
        if (*c == '"' || *c == '\\')
          g_string_append_printf (out, "\\%c", *c);
        else if ((guchar) *c < 0x20)
          g_string_append_printf (out, "\\u%04x", (guint) (guchar) *c);
        else
          g_string_append_c (out, *c);
      g_string_append_c (out, '"');
    }
  g_string_append (out, "\n    ]");
}

static void
add_data (JsonBuilder *b,
          const char  *text,
          GPtrArray   *spliced)
{
  g_autoptr(GString) word = g_string_new (NULL);
  const char *p = text != NULL ? text : "", *start;
  guint n = 0;

  json_builder_set_member_name (b, "data");
  for (const char *q = p; n < SPLICE_MIN_VALUES && (q = next_word (q, &start)) != NULL; )
    n++;
  if (n >= SPLICE_MIN_VALUES)
    {
      /* a mark, which ks_launch_form_to_json() replaces with the values */
      g_autofree char *mark = g_strdup_printf (SPLICE_MARK "%u", spliced->len);

      json_builder_add_string_value (b, mark);
      g_ptr_array_add (spliced, (gpointer) p);
      return;
    }
  json_builder_begin_array (b);
  while ((p = next_word (p, &start)) != NULL)
    {
      g_string_overwrite_len (word, 0, start, p - start);
      g_string_truncate (word, (gsize) (p - start));
      add_value (b, word->str);
    }
  json_builder_end_array (b);
}

static void
add_buffer (JsonBuilder              *b,
            const KsLaunchFormBuffer *buf,
            GPtrArray                *spliced)
{
  json_builder_set_member_name (b, buf->name);
  json_builder_begin_object (b);
  if (!is_blank (buf->type))
    {
      g_autofree char *type = g_strstrip (g_strdup (buf->type));

      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, type);
    }
  add_member (b, "count", buf->count);
  switch (buf->init)
    {
    case KS_LAUNCH_FORM_RANDOM:
      json_builder_set_member_name (b, "init");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "random");
      json_builder_begin_object (b);
      add_member (b, "seed", buf->seed);
      add_member (b, "min", buf->min);
      add_member (b, "max", buf->max);
      json_builder_end_object (b);
      json_builder_end_object (b);
      break;
    case KS_LAUNCH_FORM_RANGE:
      json_builder_set_member_name (b, "init");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "range");
      json_builder_begin_object (b);
      add_member (b, "start", buf->start);
      add_member (b, "step", buf->step);
      json_builder_end_object (b);
      json_builder_end_object (b);
      break;
    case KS_LAUNCH_FORM_DATA:
      add_data (b, buf->data, spliced);
      break;
    case KS_LAUNCH_FORM_HEX:
      {
        /* Blanks between byte pairs are for reading */
        g_autoptr(GString) hex = g_string_new (NULL);

        for (const char *p = buf->hex; *p; p++)
          if (!g_ascii_isspace (*p))
            g_string_append_c (hex, *p);
        json_builder_set_member_name (b, "bytes_hex");
        json_builder_add_string_value (b, hex->str);
      }
      break;
    case KS_LAUNCH_FORM_ZERO:
    case KS_LAUNCH_FORM_N_INITS:
    default:
      break;
    }
  json_builder_end_object (b);
}

static void
add_kept (JsonBuilder *b,
          const char  *name,
          JsonNode    *node)
{
  if (node == NULL)
    return;
  json_builder_set_member_name (b, name);
  json_builder_add_value (b, copy_kept (node));
}

static const char *
param_buffer_name (const KsLaunchForm      *form,
                   const KsLaunchFormParam *p)
{
  if (p->buffer >= 0 && (guint) p->buffer < form->buffers->len)
    return ((KsLaunchFormBuffer *) g_ptr_array_index (form->buffers, p->buffer))->name;
  return p->buffer_name ? p->buffer_name : "";
}

static void
add_params (JsonBuilder        *b,
            const KsLaunchForm *form,
            GPtrArray          *params)
{
  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (guint i = 0; i < params->len; i++)
    {
      const KsLaunchFormParam *p = g_ptr_array_index (params, i);

      if (p->kept != NULL)
        {
          json_builder_add_value (b, copy_kept (p->kept));
          continue;
        }
      json_builder_begin_object (b);
      if (p->handle != KS_LAUNCH_FORM_NO_HANDLE)
        {
          json_builder_set_member_name (b, p->handle == KS_LAUNCH_FORM_SURFACE ? "surface"
                                                                               : "texture");
          json_builder_add_string_value (b, p->object);
        }
      else if (p->is_buffer)
        {
          json_builder_set_member_name (b, "buffer");
          json_builder_add_string_value (b, param_buffer_name (form, p));
          if (p->offset != NULL)
            {
              json_builder_set_member_name (b, "offset");
              add_value (b, p->offset);
            }
        }
      else
        {
          g_autofree char *type = g_strstrip (g_strdup (p->type));

          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, type);
          json_builder_set_member_name (b, "value");
          add_value (b, p->value);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* A launch's fields, "kernel" to "params" */
static void
add_launch (JsonBuilder        *b,
            const KsLaunchForm *form,
            const char         *kernel,
            char *const         grid[3],
            char *const         block[3],
            const char         *dynamic_shared,
            gboolean            cooperative,
            GPtrArray          *params)
{
  if (kernel != NULL)
    {
      json_builder_set_member_name (b, "kernel");
      json_builder_add_string_value (b, kernel);
    }
  add_dims (b, "grid", grid);
  add_dims (b, "block", block);
  add_member (b, "dynamic_shared_bytes", dynamic_shared);
  if (cooperative)
    {
      json_builder_set_member_name (b, "cooperative");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (params != NULL)
    add_params (b, form, params);
}

char *
ks_launch_form_to_json (const KsLaunchForm *form)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) spliced = g_ptr_array_new ();
  g_autofree char *text = NULL;
  GString *out;
  const char *from;

  g_return_val_if_fail (form != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, form->use_source ? "source" : "ptx");
  json_builder_add_string_value (b, form->kernel_file);
  /* (of a sequence, each launch has its own) */
  if (form->launches == NULL)
    add_launch (b, form, form->kernel, form->grid, form->block, form->dynamic_shared,
                form->cooperative, NULL);

  json_builder_set_member_name (b, "buffers");
  json_builder_begin_object (b);
  for (guint i = 0; i < form->buffers->len; i++)
    add_buffer (b, g_ptr_array_index (form->buffers, i), spliced);
  json_builder_end_object (b);
  add_kept (b, "textures", form->textures);
  add_kept (b, "surfaces", form->surfaces);
  add_kept (b, "bindings", form->bindings);
  add_kept (b, "symbols", form->symbols);

  if (form->launches == NULL)
    add_params (b, form, form->params);
  else
    {
      /* a sequence: each launch, the form's own in its place */
      json_builder_set_member_name (b, "launches");
      json_builder_begin_array (b);
      for (guint k = 0; k < form->launches->len; k++)
        {
          const KsLaunchFormLaunch *l = g_ptr_array_index (form->launches, k);

          json_builder_begin_object (b);
          if (k == form->step)
            add_launch (b, form, form->kernel, form->grid, form->block, form->dynamic_shared,
                        form->cooperative, form->params);
          else
            add_launch (b, form, l->kernel, l->grid, l->block, l->dynamic_shared,
                        l->cooperative, l->params);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }

  json_builder_set_member_name (b, "outputs");
  json_builder_begin_array (b);
  for (guint i = 0; i < form->outputs->len; i++)
    {
      int index = g_array_index (form->outputs, int, i);

      json_builder_add_string_value (b, ((KsLaunchFormBuffer *) g_ptr_array_index (form->buffers,
                                                                                  index))->name);
    }
  json_builder_end_array (b);
  add_kept (b, "output_symbols", form->output_symbols);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);

  /* The long data fields in place of their marks, in the order written */
  out = g_string_sized_new (strlen (text) + 1);
  from = text;
  for (guint i = 0; i < spliced->len; i++)
    {
      g_autofree char *mark = g_strdup_printf (SPLICE_MARK "%u", i);
      g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), mark);
      g_autofree char *written = json_to_string (node, FALSE);
      const char *at = strstr (from, written);

      if (at == NULL)
        break;                  /* (not reached: each mark is written once) */
      g_string_append_len (out, from, at - from);
      append_data (out, g_ptr_array_index (spliced, i));
      from = at + strlen (written);
    }
  g_string_append (out, from);
  /* A file ends with a newline */
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

KsLaunch *
ks_launch_form_parse (const KsLaunchForm *form,
                      const char         *spec_path,
                      GError            **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *json = NULL;
  KsLaunch *launch;

  g_return_val_if_fail (form != NULL, NULL);

  /* JSON keeps one member of a name: two buffers of a name would quietly
   * become one */
  for (guint i = 0; i < form->buffers->len; i++)
    {
      const KsLaunchFormBuffer *b = g_ptr_array_index (form->buffers, i);
      g_autofree char *path = ks_launch_form_buffer_path (b->name, NULL);

      if (b->name[0] == '\0')
        {
          g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                       "%s: a buffer needs a name", path);
          return NULL;
        }
      for (guint j = 0; j < i; j++)
        if (strcmp (((KsLaunchFormBuffer *) g_ptr_array_index (form->buffers, j))->name,
                    b->name) == 0)
          {
            g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                         "%s: a second buffer of this name", path);
            return NULL;
          }
    }

  json = ks_launch_form_to_json (form);
  launch = ks_launch_parse (json, -1, spec_path, &local);
  if (launch != NULL && launch->n_steps > 1 && form->launches != NULL
      && form->step < launch->n_steps)
    ks_launch_select_step (launch, form->step);
  if (launch == NULL)
    {
      const char *message = local->message;
      size_t n = spec_path ? strlen (spec_path) : 0;

      /* The form is not a file: the message starts at the field, without
       * the place in the text made of the form ("SPEC:LINE:COL: ") */
      if (n > 0 && strncmp (message, spec_path, n) == 0 && message[n] == ':')
        {
          const char *p = message + n + 1;

          p += strspn (p, "0123456789:");
          if (*p == ' ')
            message = p + 1;
        }
      g_set_error_literal (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID, message);
    }
  return launch;
}

/* ---------------------------------------------------------------------- */
/* The kernel */

static gboolean
is_entry (const KsPtxModule *module,
          uint32_t           function)
{
  return module->functions[function].kind == KS_PTX_FUNCTION_ENTRY;
}

int
ks_launch_form_find_kernel (const KsLaunchForm *form,
                            const KsPtxModule  *module)
{
  int found = -1;
  guint n = 0;

  g_return_val_if_fail (form != NULL, -1);
  g_return_val_if_fail (module != NULL, -1);

  for (uint32_t i = 0; i < module->n_functions; i++)
    {
      if (!is_entry (module, i))
        continue;
      if (form->kernel != NULL)
        {
          if (ks_ptx_span_equal (module, module->functions[i].name, form->kernel))
            return (int) i;
        }
      else if (n++ == 0)
        found = (int) i;
    }
  return form->kernel == NULL && n == 1 ? found : -1;
}

static uint64_t
param_size (const KsPtxVar *v)
{
  /* as the simulator lays out the parameter bank */
  return (uint64_t) ks_ptx_type_size (v->type) * (v->vec ? v->vec : 1) * v->n_elements;
}

gboolean
ks_launch_form_check_kernel (const KsLaunchForm *form,
                             const KsPtxModule  *module,
                             GError            **error)
{
  const KsPtxFunction *f;
  g_autofree char *name = NULL;
  int index;

  g_return_val_if_fail (form != NULL, FALSE);
  g_return_val_if_fail (module != NULL, FALSE);

  index = ks_launch_form_find_kernel (form, module);
  if (index < 0)
    {
      guint n = ks_ptx_module_n_entries (module);

      if (form->kernel != NULL)
        g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                     "kernel: the PTX has no kernel named '%s'", form->kernel);
      else if (n == 0)
        g_set_error_literal (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                             "kernel: the PTX has no kernel (.entry)");
      else
        g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                     "kernel: the PTX has %u kernels: name the one to run", n);
      return FALSE;
    }
  f = &module->functions[index];
  name = ks_ptx_span_dup (module, f->name);
  if (form->params->len != f->n_params)
    {
      g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                   "params: kernel %s takes %u parameters, the launch gives %u",
                   name, f->n_params, form->params->len);
      return FALSE;
    }
  for (guint i = 0; i < f->n_params && f->first_param + i < module->n_vars; i++)
    {
      const KsPtxVar *v = &module->vars[f->first_param + i];
      const KsLaunchFormParam *p = g_ptr_array_index (form->params, i);
      uint64_t size = param_size (v);
      g_autofree char *vtype = v->n_elements == 1 && (v->vec ? v->vec : 1) == 1
                               ? g_strdup_printf (".%s", ks_ptx_type_name (v->type))
                               : g_strdup_printf (".%s[%" G_GUINT64_FORMAT "]",
                                                  ks_ptx_type_name (v->type),
                                                  v->n_elements * (v->vec ? v->vec : 1));

      if (p->kept != NULL)
        ;                       /* a struct: its size is the simulator's to check */
      else if (p->handle != KS_LAUNCH_FORM_NO_HANDLE)
        {
          if (size != 8)
            {
              g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                           "params[%u]: a %s handle (8 bytes) is passed to parameter %u, %s (%"
                           G_GUINT64_FORMAT " bytes)", i,
                           p->handle == KS_LAUNCH_FORM_SURFACE ? "surface" : "texture", i, vtype,
                           size);
              return FALSE;
            }
        }
      else if (p->is_buffer)
        {
          if (size != 8 && !(size == 4 && module->address_size == 32))
            {
              g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                           "params[%u]: a buffer is passed, but parameter %u is %s (%"
                           G_GUINT64_FORMAT " bytes), not a pointer: give it a value",
                           i, i, vtype, size);
              return FALSE;
            }
        }
      else
        {
          g_autofree char *type = g_strstrip (g_strdup (p->type));
          KsPtxType t = ks_ptx_type_from_name (type, strlen (type));

          /* An unknown type is ks_launch_parse()'s to name */
          if (t != KS_PTX_TYPE_NONE && t != KS_PTX_TYPE_PRED && ks_ptx_type_size (t) != size)
            {
              g_set_error (error, KS_LAUNCH_ERROR, KS_LAUNCH_ERROR_INVALID,
                           "params[%u].type: a %s (%u bytes) is passed to parameter %u, %s (%"
                           G_GUINT64_FORMAT " bytes)",
                           i, type, ks_ptx_type_size (t), i, vtype, size);
              return FALSE;
            }
        }
    }
  return TRUE;
}

void
ks_launch_form_fit_params (KsLaunchForm      *form,
                           const KsPtxModule *module,
                           uint32_t           function)
{
  const KsPtxFunction *f;

  g_return_if_fail (form != NULL);
  g_return_if_fail (module != NULL);
  g_return_if_fail (function < module->n_functions);

  f = &module->functions[function];
  if (form->params->len > f->n_params)
    g_ptr_array_set_size (form->params, f->n_params);
  for (guint i = form->params->len; i < f->n_params; i++)
    {
      const KsPtxVar *v = f->first_param + i < module->n_vars ? &module->vars[f->first_param + i]
                                                               : NULL;
      KsLaunchFormParam *p = param_new ();
      uint64_t size = v ? param_size (v) : 0;

      if (size == (module->address_size == 32 ? 4 : 8))
        {
          /* the first buffer no parameter passes yet */
          for (guint k = 0; k < form->buffers->len && !p->is_buffer; k++)
            {
              gboolean used = FALSE;

              for (guint j = 0; j < form->params->len; j++)
                {
                  const KsLaunchFormParam *q = g_ptr_array_index (form->params, j);

                  used |= q->is_buffer && q->buffer == (int) k;
                }
              if (!used)
                {
                  p->is_buffer = TRUE;
                  p->buffer = (int) k;
                }
            }
        }
      if (!p->is_buffer && v != NULL && v->n_elements == 1
          && v->type != KS_PTX_TYPE_NONE && v->type != KS_PTX_TYPE_PRED)
        {
          g_free (p->type);
          p->type = g_strdup (ks_ptx_type_name (v->type));
        }
      g_ptr_array_add (form->params, p);
    }
}

/* ---------------------------------------------------------------------- */
/* Buffers */

guint
ks_launch_form_add_buffer (KsLaunchForm *form,
                           const char   *count)
{
  g_autofree char *name = NULL;
  KsLaunchFormBuffer *b;

  g_return_val_if_fail (form != NULL, 0);

  for (guint i = 0; name == NULL || find_buffer (form, name) >= 0; i++)
    {
      g_free (name);
      name = g_strdup_printf ("buf%u", i);
    }
  b = buffer_new (name);
  g_free (b->count);
  b->count = g_strdup (count ? count : "1");
  g_ptr_array_add (form->buffers, b);
  return form->buffers->len - 1;
}

/* A buffer leaves: the parameters that passed it keep its name */
static void
params_forget_buffer (KsLaunchForm *form,
                      GPtrArray    *params,
                      guint         index)
{
  for (guint i = 0; i < params->len; i++)
    {
      KsLaunchFormParam *p = g_ptr_array_index (params, i);

      if (p->buffer == (int) index)
        {
          g_free (p->buffer_name);
          p->buffer_name = g_strdup (((KsLaunchFormBuffer *) g_ptr_array_index (form->buffers,
                                                                                index))->name);
          p->buffer = -1;
        }
      else if (p->buffer > (int) index)
        p->buffer--;
    }
}

void
ks_launch_form_remove_buffer (KsLaunchForm *form,
                              guint         index)
{
  g_return_if_fail (form != NULL);
  g_return_if_fail (index < form->buffers->len);

  params_forget_buffer (form, form->params, index);
  for (guint k = 0; form->launches != NULL && k < form->launches->len; k++)
    if (k != form->step)
      params_forget_buffer (form, ((KsLaunchFormLaunch *) g_ptr_array_index (form->launches,
                                                                             k))->params, index);
  for (guint i = form->outputs->len; i-- > 0;)
    {
      int *o = &g_array_index (form->outputs, int, i);

      if (*o == (int) index)
        g_array_remove_index (form->outputs, i);
      else if (*o > (int) index)
        (*o)--;
    }
  g_ptr_array_remove_index (form->buffers, index);
}

void
ks_launch_form_rename_buffer (KsLaunchForm *form,
                              guint         index,
                              const char   *name)
{
  KsLaunchFormBuffer *b;
  JsonNode *kept[] = { form ? form->textures : NULL, form ? form->surfaces : NULL };

  g_return_if_fail (form != NULL);
  g_return_if_fail (index < form->buffers->len);
  g_return_if_fail (name != NULL);

  b = g_ptr_array_index (form->buffers, index);
  for (guint k = 0; k < G_N_ELEMENTS (kept); k++)
    {
      g_autoptr(GList) names = NULL;
      JsonObject *o;

      if (kept[k] == NULL || !JSON_NODE_HOLDS_OBJECT (kept[k]))
        continue;
      o = json_node_get_object (kept[k]);
      names = json_object_get_members (o);
      for (GList *l = names; l != NULL; l = l->next)
        {
          JsonNode *t = json_object_get_member (o, l->data), *buf;
          JsonObject *to;

          if (!JSON_NODE_HOLDS_OBJECT (t))
            continue;
          to = json_node_get_object (t);
          buf = json_object_get_member (to, "buffer");
          if (buf != NULL && JSON_NODE_HOLDS_VALUE (buf)
              && json_node_get_value_type (buf) == G_TYPE_STRING
              && g_strcmp0 (json_node_get_string (buf), b->name) == 0)
            json_object_set_string_member (to, "buffer", name);
        }
    }
  g_free (b->name);
  b->name = g_strdup (name);
}

GPtrArray *
ks_launch_form_list_objects (const KsLaunchForm *form,
                             gboolean            surfaces)
{
  GPtrArray *names = g_ptr_array_new ();
  JsonNode *node;

  g_return_val_if_fail (form != NULL, names);

  node = surfaces ? form->surfaces : form->textures;
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      GList *members = json_object_get_members (json_node_get_object (node));

      for (GList *l = members; l != NULL; l = l->next)
        g_ptr_array_add (names, l->data);
      g_list_free (members);
    }
  return names;
}

gboolean
ks_launch_form_is_output (const KsLaunchForm *form,
                          guint               buffer)
{
  g_return_val_if_fail (form != NULL, FALSE);

  for (guint i = 0; i < form->outputs->len; i++)
    if (g_array_index (form->outputs, int, i) == (int) buffer)
      return TRUE;
  return FALSE;
}

void
ks_launch_form_set_output (KsLaunchForm *form,
                           guint         buffer,
                           gboolean      output)
{
  int index = (int) buffer;

  g_return_if_fail (form != NULL);
  g_return_if_fail (buffer < form->buffers->len);

  if (output == ks_launch_form_is_output (form, buffer))
    return;
  if (output)
    g_array_append_val (form->outputs, index);
  else
    for (guint i = 0; i < form->outputs->len; i++)
      if (g_array_index (form->outputs, int, i) == index)
        {
          g_array_remove_index (form->outputs, i);
          break;
        }
}

/* As ks-launch.c's member_path() */
char *
ks_launch_form_buffer_path (const char *name,
                            const char *member)
{
  gboolean plain = name[0] != '\0';
  g_autofree char *base = NULL;

  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
      plain = FALSE;
  if (plain)
    base = g_strconcat ("buffers.", name, NULL);
  else
    {
      g_autofree char *escaped = g_strescape (name, NULL);

      base = g_strdup_printf ("buffers[\"%s\"]", escaped);
    }
  return member ? g_strconcat (base, ".", member, NULL) : g_steal_pointer (&base);
}

static guint64
product (char *const dims[3])
{
  guint64 n = 1;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *t = g_strstrip (g_strdup (dims[i]));
      guint64 v;

      if (!g_ascii_string_to_unsigned (t, 10, 1, G_MAXUINT32, &v, NULL))
        return 0;
      n *= v;
    }
  return n;
}

guint64
ks_launch_form_block_threads (const KsLaunchForm *form)
{
  g_return_val_if_fail (form != NULL, 0);
  return product (form->block);
}

guint64
ks_launch_form_grid_blocks (const KsLaunchForm *form)
{
  g_return_val_if_fail (form != NULL, 0);
  return product (form->grid);
}
