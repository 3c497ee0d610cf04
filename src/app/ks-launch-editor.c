/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch-editor.c: the launch editor (ks-launch-editor.h).
 *
 * Every widget writes its field of the form as it changes; a check follows
 * a short pause.  The check against the kernel (parameters and their
 * sizes) is a loop over the .param list and runs at once; the check of the
 * spec itself is ks_launch_parse(), which fills the buffers and may take a
 * while for large ones, so it runs in a thread, one at a time: a change
 * while one runs starts the next when it ends, so memory never holds more
 * than two launches. */

#include "ks-launch-editor.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-a11y.h"
#include "ks-sass.h"

/* How long typing pauses before the form is checked */
#define CHECK_DELAY_MS 150

typedef enum
{
  FIELD_NAME,
  FIELD_TYPE,
  FIELD_COUNT,
  FIELD_INIT,
  FIELD_SEED,
  FIELD_MIN,
  FIELD_MAX,
  FIELD_START,
  FIELD_STEP,
  FIELD_DATA,
  FIELD_HEX,
  FIELD_OUTPUT,
  FIELD_PARAM_KIND,
  FIELD_PARAM_VALUE,
  FIELD_PARAM_TYPE,
} Field;

/* The element types, in the order the type lists show them */
static const char *const types[] = {
  "f32", "f64", "f16", "bf16", "s32", "u32", "s64", "u64", "s16", "u16", "s8", "u8",
  "b8", "b16", "b32", "b64", NULL
};

typedef struct
{
  GtkWidget *name, *type, *count, *init, *stack;
  GtkWidget *seed, *min, *max, *start, *step, *data, *hex;
  GtkWidget *output, *remove;
} BufferRow;

typedef struct
{
  GtkWidget *kind, *value, *type;
} ParamRow;

struct _KsLaunchEditor
{
  GtkBox parent_instance;

  /* Template widgets */
  GtkScrolledWindow *scroller;
  GtkDropDown *kernel_dropdown;
  GtkLabel *kernel_label;
  GtkEntry *grid_x, *grid_y, *grid_z;
  GtkEntry *block_x, *block_y, *block_z;
  GtkEntry *shared_entry;
  GtkLabel *grid_info;
  GtkLabel *block_info;
  GtkLabel *shared_info;
  GtkButton *add_buffer_button;
  GtkGrid *buffers_grid;
  GtkLabel *objects_label;
  GtkGrid *params_grid;
  GtkWidget *message_box;
  GtkLabel *message_label;
  GtkLabel *status_label;
  GtkButton *reset_button;
  GtkButton *apply_button;

  /* Owned references */
  KsLaunchForm *form;           /* as edited */
  KsLaunchForm *applied;        /* as loaded or last applied */
  char *applied_json;
  KsPtxModule *module;          /* NULL: parameters not checked against a kernel */
  GArray *kernels;              /* uint32_t: the module's .entry functions, as listed */
  char *spec_path;
  GArray *buffer_rows;          /* BufferRow */
  GArray *param_rows;           /* ParamRow */
  GHashTable *fields;           /* field path -> widget (borrowed) */
  GPtrArray *marked;            /* widgets marked as wrong (borrowed) */
  KsLaunch *launch;             /* the checked launch of the form, NULL until checked */
  char *message;

  guint check_id;               /* the pause before a check */
  guint serial;                 /* of the form's state: bumped by every change */
  guint running_serial;         /* of the check in the thread; 0: none runs */
  gboolean recheck;             /* changed while a check ran */
  gboolean filling;             /* widgets are being set from the form */
  gboolean dirty;
};

G_DEFINE_FINAL_TYPE (KsLaunchEditor, ks_launch_editor, GTK_TYPE_BOX)

enum {
  SIGNAL_APPLY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void schedule_check (KsLaunchEditor *self);
static void fill_params (KsLaunchEditor *self);

/* ---------------------------------------------------------------------- */
/* Small helpers */

static void
set_entry_text (GtkEntry   *entry,
                const char *text)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
}

static void
replace (char      **field,
         const char *text)
{
  if (g_strcmp0 (*field, text) == 0)
    return;
  g_free (*field);
  *field = g_strdup (text);
}

static guint
type_index (const char *type)
{
  for (guint i = 0; types[i] != NULL; i++)
    if (g_strcmp0 (types[i], type) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static KsLaunchFormBuffer *
form_buffer (KsLaunchEditor *self,
             guint           i)
{
  return g_ptr_array_index (self->form->buffers, i);
}

static KsLaunchFormParam *
form_param (KsLaunchEditor *self,
            guint           i)
{
  return g_ptr_array_index (self->form->params, i);
}

static void
tag (GtkWidget *widget,
     Field      field,
     guint      row)
{
  g_object_set_data (G_OBJECT (widget), "ks-field", GUINT_TO_POINTER (field));
  g_object_set_data (G_OBJECT (widget), "ks-row", GUINT_TO_POINTER (row));
}

static void
untag (GtkWidget *widget,
       Field     *field,
       guint     *row)
{
  *field = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "ks-field"));
  *row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "ks-row"));
}

static void
remove_children (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption-heading");
  return label;
}

static GtkWidget *
small_entry (int chars)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_width_chars (GTK_EDITABLE (entry), chars);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (entry), chars + 2);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  return entry;
}

static GtkWidget *
type_dropdown (void)
{
  return gtk_drop_down_new_from_strings (types);
}

/* ---------------------------------------------------------------------- */
/* Which widget edits which field, for marking what a message names */

static void
register_field (KsLaunchEditor *self,
                char           *path,
                GtkWidget      *widget)
{
  g_hash_table_replace (self->fields, path, widget);
}

static void
register_fields (KsLaunchEditor *self)
{
  GtkEntry *grid[3] = { self->grid_x, self->grid_y, self->grid_z };
  GtkEntry *block[3] = { self->block_x, self->block_y, self->block_z };

  g_hash_table_remove_all (self->fields);
  register_field (self, g_strdup ("kernel"), GTK_WIDGET (self->kernel_dropdown));
  for (guint i = 0; i < 3; i++)
    {
      register_field (self, g_strdup_printf ("grid[%u]", i), GTK_WIDGET (grid[i]));
      register_field (self, g_strdup_printf ("block[%u]", i), GTK_WIDGET (block[i]));
    }
  register_field (self, g_strdup ("dynamic_shared_bytes"), GTK_WIDGET (self->shared_entry));
  for (guint i = 0; i < self->buffer_rows->len && i < self->form->buffers->len; i++)
    {
      BufferRow *r = &g_array_index (self->buffer_rows, BufferRow, i);
      const char *name = form_buffer (self, i)->name;
      static const struct { const char *member; gsize offset; } members[] = {
        { NULL, G_STRUCT_OFFSET (BufferRow, name) },
        { "type", G_STRUCT_OFFSET (BufferRow, type) },
        { "count", G_STRUCT_OFFSET (BufferRow, count) },
        { "init", G_STRUCT_OFFSET (BufferRow, init) },
        { "init.random.seed", G_STRUCT_OFFSET (BufferRow, seed) },
        { "init.random.min", G_STRUCT_OFFSET (BufferRow, min) },
        { "init.random.max", G_STRUCT_OFFSET (BufferRow, max) },
        { "init.range.start", G_STRUCT_OFFSET (BufferRow, start) },
        { "init.range.step", G_STRUCT_OFFSET (BufferRow, step) },
        { "data", G_STRUCT_OFFSET (BufferRow, data) },
        { "bytes_hex", G_STRUCT_OFFSET (BufferRow, hex) },
        /* not a field of the spec: its name in "outputs" */
        { "output", G_STRUCT_OFFSET (BufferRow, output) },
      };

      for (guint k = 0; k < G_N_ELEMENTS (members); k++)
        register_field (self, ks_launch_form_buffer_path (name, members[k].member),
                        G_STRUCT_MEMBER (GtkWidget *, r, members[k].offset));
    }
  for (guint i = 0; i < self->form->outputs->len; i++)
    {
      int b = g_array_index (self->form->outputs, int, i);

      if (b >= 0 && (guint) b < self->buffer_rows->len)
        register_field (self, g_strdup_printf ("outputs[%u]", i),
                        g_array_index (self->buffer_rows, BufferRow, b).output);
    }
  for (guint i = 0; i < self->param_rows->len; i++)
    {
      const ParamRow *r = &g_array_index (self->param_rows, ParamRow, i);

      register_field (self, g_strdup_printf ("params[%u]", i), r->kind);
      register_field (self, g_strdup_printf ("params[%u].buffer", i), r->kind);
      register_field (self, g_strdup_printf ("params[%u].value", i), r->value);
      register_field (self, g_strdup_printf ("params[%u].type", i), r->type);
    }
}

static void
unmark (KsLaunchEditor *self)
{
  for (guint i = 0; i < self->marked->len; i++)
    gtk_widget_remove_css_class (g_ptr_array_index (self->marked, i), "error");
  g_ptr_array_set_size (self->marked, 0);
}

static void
mark (KsLaunchEditor *self,
      GtkWidget      *widget)
{
  gtk_widget_add_css_class (widget, "error");
  g_ptr_array_add (self->marked, widget);
}

/* Marks the fields a message names: "block: ..." marks the three block
 * entries, "buffers.a.init.random: ..." the contents of buffer a (the
 * longest known field the path starts with) */
static void
mark_fields (KsLaunchEditor *self,
             const char     *message)
{
  const char *colon = strstr (message, ": ");
  g_autofree char *path = colon ? g_strndup (message, (gsize) (colon - message)) : NULL;
  GHashTableIter iter;
  gpointer key, value;
  GtkWidget *best = NULL;
  gsize best_len = 0;
  gboolean any = FALSE;

  if (path == NULL)
    return;
  /* of a sequence, the launch the form edits: its fields are the form's */
  if (self->form != NULL && self->form->launches != NULL)
    {
      g_autofree char *prefix = g_strdup_printf ("launches[%u].", self->form->step);

      if (g_str_has_prefix (path, prefix))
        memmove (path, path + strlen (prefix), strlen (path) - strlen (prefix) + 1);
    }
  g_hash_table_iter_init (&iter, self->fields);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *k = key;
      gsize n = strlen (k), p = strlen (path);

      if (n >= p && strncmp (k, path, p) == 0 && (k[p] == '\0' || k[p] == '[' || k[p] == '.')
          && gtk_widget_get_visible (value))
        {
          /* the field, or every field within it */
          if (k[p] == '\0' || strcmp (path, "block") == 0 || strcmp (path, "grid") == 0)
            {
              mark (self, value);
              any = TRUE;
            }
        }
      else if (n < p && strncmp (k, path, n) == 0 && (path[n] == '.' || path[n] == '[')
               && n > best_len)
        {
          best = value;
          best_len = n;
        }
    }
  if (!any && best != NULL)
    mark (self, best);
}

/* ---------------------------------------------------------------------- */
/* State: dirty, checking, the message, the buttons */

static void
update_buttons (KsLaunchEditor *self)
{
  gboolean busy = ks_launch_editor_is_busy (self);

  if (self->apply_button == NULL)
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply_button),
                            self->dirty && !busy && self->launch != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->reset_button), self->dirty);
  if (busy)
    gtk_label_set_text (self->status_label, _("Checking…"));
  else if (self->message != NULL)
    gtk_label_set_text (self->status_label, "");
  else if (self->dirty)
    gtk_label_set_text (self->status_label, _("Not applied yet"));
  else
    gtk_label_set_text (self->status_label, "");
}

static void
set_message (KsLaunchEditor *self,
             const char     *message)
{
  unmark (self);
  replace (&self->message, message);
  gtk_widget_set_visible (self->message_box, message != NULL);
  if (message != NULL)
    {
      gtk_label_set_text (self->message_label, message);
      mark_fields (self, message);
    }
}

static void
update_info (KsLaunchEditor *self)
{
  guint64 threads = ks_launch_form_block_threads (self->form);
  guint64 blocks = ks_launch_form_grid_blocks (self->form);

  /* (numbers as strings: xgettext cannot read G_GUINT64_FORMAT) */
  if (threads > 0)
    {
      guint64 warps = (threads + 31) / 32;
      g_autofree char *t = g_strdup_printf ("%" G_GUINT64_FORMAT, threads);
      g_autofree char *w = g_strdup_printf ("%" G_GUINT64_FORMAT, warps);
      g_autofree char *tt = g_strdup_printf (ngettext ("%s thread", "%s threads",
                                                       (gulong) MIN (threads, G_MAXULONG)), t);
      g_autofree char *ww = g_strdup_printf (ngettext ("%s warp", "%s warps",
                                                       (gulong) MIN (warps, G_MAXULONG)), w);
      g_autofree char *text = g_strdup_printf ("%s · %s", tt, ww);

      gtk_label_set_text (self->block_info, text);
    }
  else
    gtk_label_set_text (self->block_info, "");
  if (blocks > 0)
    {
      g_autofree char *b = g_strdup_printf ("%" G_GUINT64_FORMAT, blocks);
      g_autofree char *bb = g_strdup_printf (ngettext ("%s block", "%s blocks",
                                                       (gulong) MIN (blocks, G_MAXULONG)), b);
      g_autofree char *all = g_strdup_printf ("%" G_GUINT64_FORMAT, blocks * threads);
      g_autofree char *text = threads ? g_strdup_printf (_("%s · %s threads in all"), bb, all)
                                      : g_strdup (bb);

      gtk_label_set_text (self->grid_info, text);
    }
  else
    gtk_label_set_text (self->grid_info, "");
  gtk_label_set_text (self->shared_info, _("bytes per block"));
}

typedef struct
{
  KsLaunchForm *form;
  char *spec_path;
} CheckData;

static void
check_data_free (CheckData *data)
{
  ks_launch_form_free (data->form);
  g_free (data->spec_path);
  g_free (data);
}

static void
check_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  CheckData *data = task_data;
  GError *error = NULL;
  KsLaunch *launch = ks_launch_form_parse (data->form, data->spec_path, &error);

  if (launch == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, launch, (GDestroyNotify) ks_launch_free);
}

static void start_check (KsLaunchEditor *self);

static void
check_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  KsLaunchEditor *self = KS_LAUNCH_EDITOR (object);
  guint serial = GPOINTER_TO_UINT (user_data);
  g_autoptr(GError) error = NULL;
  KsLaunch *launch = g_task_propagate_pointer (G_TASK (result), &error);

  self->running_serial = 0;
  /* The editor went while the check ran */
  if (self->message_box == NULL)
    {
      g_clear_pointer (&launch, ks_launch_free);
      return;
    }
  if (serial == self->serial)
    {
      g_clear_pointer (&self->launch, ks_launch_free);
      self->launch = launch;
      set_message (self, launch ? NULL : error->message);
    }
  else
    g_clear_pointer (&launch, ks_launch_free);
  /* Changed meanwhile: check the form as it is now */
  if (self->recheck && self->check_id == 0)
    start_check (self);
  update_buttons (self);
}

static void
start_check (KsLaunchEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;
  CheckData *data;

  self->recheck = FALSE;
  /* The kernel's .param list first: it is quick, and a run would stop on
   * it before anything else */
  if (self->module != NULL && !ks_launch_form_check_kernel (self->form, self->module, &error))
    {
      g_clear_pointer (&self->launch, ks_launch_free);
      set_message (self, error->message);
      update_buttons (self);
      return;
    }
  if (self->running_serial != 0)
    {
      self->recheck = TRUE;
      return;
    }
  data = g_new0 (CheckData, 1);
  data->form = ks_launch_form_copy (self->form);
  data->spec_path = g_strdup (self->spec_path);
  self->running_serial = self->serial;
  task = g_task_new (self, NULL, check_done_cb, GUINT_TO_POINTER (self->serial));
  g_task_set_source_tag (task, start_check);
  g_task_set_task_data (task, data, (GDestroyNotify) check_data_free);
  g_task_run_in_thread (task, check_worker);
}

static gboolean
check_timeout_cb (gpointer data)
{
  KsLaunchEditor *self = KS_LAUNCH_EDITOR (data);

  self->check_id = 0;
  start_check (self);
  update_buttons (self);
  return G_SOURCE_REMOVE;
}

/* After every change of the form */
static void
schedule_check (KsLaunchEditor *self)
{
  g_autofree char *json = ks_launch_form_to_json (self->form);

  self->serial++;
  self->dirty = g_strcmp0 (json, self->applied_json) != 0;
  g_clear_pointer (&self->launch, ks_launch_free);
  g_clear_handle_id (&self->check_id, g_source_remove);
  self->check_id = g_timeout_add (CHECK_DELAY_MS, check_timeout_cb, self);
  update_info (self);
  update_buttons (self);
}

/* ---------------------------------------------------------------------- */
/* Buffers */

static void fill_buffers (KsLaunchEditor *self);

static void
show_init (const BufferRow  *r,
           KsLaunchFormInit  init)
{
  gtk_stack_set_visible_child_name (GTK_STACK (r->stack), ks_launch_form_init_name (init));
}

/* What a parameter's list offers: the buffers, the textures, the surfaces
 * (the spec's, kept as written), then a value */
static GtkStringList *
param_choices (KsLaunchEditor *self)
{
  GtkStringList *list = gtk_string_list_new (NULL);
  g_autoptr(GPtrArray) textures = ks_launch_form_list_objects (self->form, FALSE);
  g_autoptr(GPtrArray) surfaces = ks_launch_form_list_objects (self->form, TRUE);

  for (guint k = 0; k < self->form->buffers->len; k++)
    gtk_string_list_append (list, form_buffer (self, k)->name);
  for (guint k = 0; k < textures->len + surfaces->len; k++)
    {
      gboolean surface = k >= textures->len;
      const char *name = g_ptr_array_index (surface ? surfaces : textures,
                                            surface ? k - textures->len : k);
      g_autofree char *label = g_strdup_printf (surface ? _("surface %s") : _("texture %s"), name);

      gtk_string_list_append (list, label);
    }
  gtk_string_list_append (list, _("Value"));
  return list;
}

/* The position of what @p passes in param_choices() */
static guint
param_choice (KsLaunchEditor          *self,
              const KsLaunchFormParam *p)
{
  g_autoptr(GPtrArray) textures = ks_launch_form_list_objects (self->form, FALSE);
  g_autoptr(GPtrArray) surfaces = ks_launch_form_list_objects (self->form, TRUE);
  guint nb = self->form->buffers->len, nt = textures->len, ns = surfaces->len;

  if (p->handle != KS_LAUNCH_FORM_NO_HANDLE)
    {
      GPtrArray *names = p->handle == KS_LAUNCH_FORM_SURFACE ? surfaces : textures;

      for (guint k = 0; k < names->len; k++)
        if (g_strcmp0 (g_ptr_array_index (names, k), p->object) == 0)
          return nb + (p->handle == KS_LAUNCH_FORM_SURFACE ? nt : 0) + k;
      return GTK_INVALID_LIST_POSITION;
    }
  if (p->is_buffer)
    return p->buffer >= 0 ? (guint) p->buffer : GTK_INVALID_LIST_POSITION;
  return nb + nt + ns;
}

/* Makes @p pass choice @selected of param_choices() */
static void
set_param_choice (KsLaunchEditor    *self,
                  KsLaunchFormParam *p,
                  guint              selected)
{
  g_autoptr(GPtrArray) textures = ks_launch_form_list_objects (self->form, FALSE);
  g_autoptr(GPtrArray) surfaces = ks_launch_form_list_objects (self->form, TRUE);
  guint nb = self->form->buffers->len, nt = textures->len, ns = surfaces->len;

  p->is_buffer = selected < nb;
  p->handle = KS_LAUNCH_FORM_NO_HANDLE;
  if (p->is_buffer)
    p->buffer = (int) selected;
  else if (selected < nb + nt + ns)
    {
      gboolean surface = selected >= nb + nt;

      p->handle = surface ? KS_LAUNCH_FORM_SURFACE : KS_LAUNCH_FORM_TEXTURE;
      g_free (p->object);
      p->object = g_strdup (g_ptr_array_index (surface ? surfaces : textures,
                                               selected - nb - (surface ? nt : 0)));
    }
}

/* The names the parameters' lists offer changed */
static void
refresh_param_choices (KsLaunchEditor *self)
{
  for (guint i = 0; i < self->param_rows->len; i++)
    {
      const ParamRow *r = &g_array_index (self->param_rows, ParamRow, i);
      const KsLaunchFormParam *p = form_param (self, i);
      g_autoptr(GtkStringList) choices = param_choices (self);

      self->filling = TRUE;
      gtk_drop_down_set_model (GTK_DROP_DOWN (r->kind), G_LIST_MODEL (choices));
      gtk_drop_down_set_selected (GTK_DROP_DOWN (r->kind), param_choice (self, p));
      self->filling = FALSE;
    }
}

static void
entry_changed_cb (KsLaunchEditor *self,
                  GtkEditable    *editable)
{
  const char *text = gtk_editable_get_text (editable);
  Field field;
  guint row;
  char **target = NULL;

  if (self->filling)
    return;
  untag (GTK_WIDGET (editable), &field, &row);
  if (field >= FIELD_PARAM_KIND)
    {
      if (row >= self->form->params->len)
        return;
      if (field == FIELD_PARAM_VALUE)
        target = &form_param (self, row)->value;
    }
  else
    {
      KsLaunchFormBuffer *b;

      if (row >= self->form->buffers->len)
        return;
      b = form_buffer (self, row);
      switch (field)
        {
        case FIELD_NAME: target = &b->name; break;
        case FIELD_COUNT: target = &b->count; break;
        case FIELD_SEED: target = &b->seed; break;
        case FIELD_MIN: target = &b->min; break;
        case FIELD_MAX: target = &b->max; break;
        case FIELD_START: target = &b->start; break;
        case FIELD_STEP: target = &b->step; break;
        case FIELD_DATA: target = &b->data; break;
        case FIELD_HEX: target = &b->hex; break;
        case FIELD_TYPE: case FIELD_INIT: case FIELD_OUTPUT:
        case FIELD_PARAM_KIND: case FIELD_PARAM_VALUE: case FIELD_PARAM_TYPE:
        default:
          break;
        }
    }
  if (target == NULL)
    return;
  if (field == FIELD_NAME)
    ks_launch_form_rename_buffer (self->form, row, text);
  else
    replace (target, text);
  if (field == FIELD_NAME)
    {
      /* The parameters pass buffers by index: their lists show the new name */
      refresh_param_choices (self);
      register_fields (self);
    }
  schedule_check (self);
}

static void
dropdown_changed_cb (KsLaunchEditor *self,
                     GParamSpec     *pspec,
                     GtkDropDown    *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  Field field;
  guint row;

  if (self->filling || selected == GTK_INVALID_LIST_POSITION)
    return;
  untag (GTK_WIDGET (dropdown), &field, &row);
  switch (field)
    {
    case FIELD_TYPE:
      if (row < self->form->buffers->len)
        replace (&form_buffer (self, row)->type, types[selected]);
      break;
    case FIELD_INIT:
      if (row < self->form->buffers->len)
        {
          form_buffer (self, row)->init = (KsLaunchFormInit) selected;
          show_init (&g_array_index (self->buffer_rows, BufferRow, row), selected);
        }
      break;
    case FIELD_PARAM_KIND:
      if (row < self->form->params->len)
        {
          KsLaunchFormParam *p = form_param (self, row);
          const ParamRow *r = &g_array_index (self->param_rows, ParamRow, row);
          gboolean value;

          set_param_choice (self, p, selected);
          value = !p->is_buffer && p->handle == KS_LAUNCH_FORM_NO_HANDLE;
          gtk_widget_set_visible (r->value, value);
          gtk_widget_set_visible (r->type, value);
        }
      break;
    case FIELD_PARAM_TYPE:
      if (row < self->form->params->len)
        replace (&form_param (self, row)->type, types[selected]);
      break;
    case FIELD_NAME: case FIELD_COUNT: case FIELD_SEED: case FIELD_MIN: case FIELD_MAX:
    case FIELD_START: case FIELD_STEP: case FIELD_DATA: case FIELD_HEX: case FIELD_OUTPUT:
    case FIELD_PARAM_VALUE:
    default:
      return;
    }
  schedule_check (self);
}

static void
output_toggled_cb (KsLaunchEditor *self,
                   GtkCheckButton *check)
{
  Field field;
  guint row;

  if (self->filling)
    return;
  untag (GTK_WIDGET (check), &field, &row);
  if (row >= self->form->buffers->len)
    return;
  ks_launch_form_set_output (self->form, row, gtk_check_button_get_active (check));
  register_fields (self);
  schedule_check (self);
}

static void
remove_clicked_cb (KsLaunchEditor *self,
                   GtkButton      *button)
{
  Field field;
  guint row;

  untag (GTK_WIDGET (button), &field, &row);
  if (row >= self->form->buffers->len)
    return;
  ks_launch_form_remove_buffer (self->form, row);
  fill_buffers (self);
  fill_params (self);
  schedule_check (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->add_buffer_button));
}

static void
add_buffer_cb (KsLaunchEditor *self,
               GtkButton      *button)
{
  guint64 threads = ks_launch_form_block_threads (self->form)
                    * ks_launch_form_grid_blocks (self->form);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, MAX (threads, 1));
  guint i = ks_launch_form_add_buffer (self->form, count);

  fill_buffers (self);
  /* The parameters' lists offer it */
  fill_params (self);
  schedule_check (self);
  gtk_widget_grab_focus (g_array_index (self->buffer_rows, BufferRow, i).name);
}

static GtkWidget *
labelled (GtkWidget  *box,
          const char *label,
          GtkWidget  *entry)
{
  GtkWidget *l = gtk_label_new (label);

  gtk_widget_add_css_class (l, "dim-label");
  gtk_box_append (GTK_BOX (box), l);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  return entry;
}

static GtkWidget *
buffer_entry (KsLaunchEditor *self,
              Field           field,
              guint           row,
              int             chars,
              const char     *text)
{
  GtkWidget *entry = small_entry (chars);

  set_entry_text (GTK_ENTRY (entry), text);
  tag (entry, field, row);
  g_signal_connect_object (entry, "changed", G_CALLBACK (entry_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return entry;
}

/* Textures and surfaces are the spec file's to edit: the form says which
 * there are, and passes their handles */
static void
fill_objects (KsLaunchEditor *self)
{
  g_autoptr(GPtrArray) textures = ks_launch_form_list_objects (self->form, FALSE);
  g_autoptr(GPtrArray) surfaces = ks_launch_form_list_objects (self->form, TRUE);
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint k = 0; k < textures->len + surfaces->len; k++)
    {
      gboolean surface = k >= textures->len;
      const char *name = g_ptr_array_index (surface ? surfaces : textures,
                                            surface ? k - textures->len : k);

      g_string_append_printf (s, "%s%s", s->len ? ", " : "", name);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->objects_label), s->len > 0);
  if (s->len > 0)
    {
      g_autofree char *text = g_strdup_printf (_("Textures and surfaces: %s. They are kept as "
                                                 "the spec file has them; edit them there."),
                                               s->str);

      gtk_label_set_text (self->objects_label, text);
    }
}

static void
fill_buffers (KsLaunchEditor *self)
{
  static const char *const init_labels[] = {
    N_("Zeros"), N_("Random"), N_("Range"), N_("Values"), N_("Hex bytes"), NULL
  };
  const char *translated[G_N_ELEMENTS (init_labels)];
  static const char *const headings[] = {
    N_("Name"), N_("Type"), N_("Count"), N_("Contents"), "", N_("Output")
  };

  for (guint i = 0; i < G_N_ELEMENTS (init_labels); i++)
    translated[i] = init_labels[i] ? _(init_labels[i]) : NULL;
  self->filling = TRUE;
  remove_children (self->buffers_grid);
  g_array_set_size (self->buffer_rows, 0);
  if (self->form->buffers->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("No buffers: the kernel gets only values"));

      gtk_widget_add_css_class (none, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_grid_attach (self->buffers_grid, none, 0, 0, 1, 1);
    }
  else
    for (guint c = 0; c < G_N_ELEMENTS (headings); c++)
      gtk_grid_attach (self->buffers_grid, heading (headings[c][0] ? _(headings[c]) : ""), (int) c,
                       0, 1, 1);

  for (guint i = 0; i < self->form->buffers->len; i++)
    {
      const KsLaunchFormBuffer *b = form_buffer (self, i);
      BufferRow r = { 0 };
      GtkWidget *box;
      int y = (int) i + 1;
      guint t;

      r.name = buffer_entry (self, FIELD_NAME, i, 8, b->name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.name), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Buffer name"), -1);
      r.type = type_dropdown ();
      tag (r.type, FIELD_TYPE, i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.type), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Element type"), -1);
      t = type_index (b->type[0] ? b->type : "b8");
      gtk_drop_down_set_selected (GTK_DROP_DOWN (r.type), t);
      g_signal_connect_object (r.type, "notify::selected", G_CALLBACK (dropdown_changed_cb), self,
                               G_CONNECT_SWAPPED);
      r.count = buffer_entry (self, FIELD_COUNT, i, 9, b->count);
      gtk_widget_set_tooltip_text (r.count, _("Elements; left empty, as many as the values give"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.count), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Elements"), -1);
      r.init = gtk_drop_down_new_from_strings (translated);
      tag (r.init, FIELD_INIT, i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.init), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Initial values"), -1);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (r.init), b->init);
      g_signal_connect_object (r.init, "notify::selected", G_CALLBACK (dropdown_changed_cb), self,
                               G_CONNECT_SWAPPED);

      r.stack = gtk_stack_new ();
      gtk_stack_set_hhomogeneous (GTK_STACK (r.stack), TRUE);
      gtk_stack_add_named (GTK_STACK (r.stack), gtk_label_new (NULL), "zero");
      box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      r.seed = labelled (box, _("seed"), buffer_entry (self, FIELD_SEED, i, 4, b->seed));
      r.min = labelled (box, _("min"), buffer_entry (self, FIELD_MIN, i, 5, b->min));
      r.max = labelled (box, _("max"), buffer_entry (self, FIELD_MAX, i, 5, b->max));
      gtk_stack_add_named (GTK_STACK (r.stack), box, "random");
      box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      r.start = labelled (box, _("start"), buffer_entry (self, FIELD_START, i, 6, b->start));
      r.step = labelled (box, _("step"), buffer_entry (self, FIELD_STEP, i, 6, b->step));
      gtk_stack_add_named (GTK_STACK (r.stack), box, "range");
      r.data = buffer_entry (self, FIELD_DATA, i, 20, b->data);
      gtk_entry_set_placeholder_text (GTK_ENTRY (r.data), _("1, 2, 3"));
      gtk_widget_set_tooltip_text (r.data, _("The first values, separated by commas or spaces; "
                                             "hex (0x…), inf and nan are taken too"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.data), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Values"), -1);
      gtk_stack_add_named (GTK_STACK (r.stack), r.data, "data");
      r.hex = buffer_entry (self, FIELD_HEX, i, 20, b->hex);
      gtk_entry_set_placeholder_text (GTK_ENTRY (r.hex), _("01 00 ff 7f"));
      gtk_widget_set_tooltip_text (r.hex, _("The bytes in hex, in memory order"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.hex), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Bytes in hex"), -1);
      gtk_stack_add_named (GTK_STACK (r.stack), r.hex, "bytes_hex");
      show_init (&r, b->init);

      r.output = gtk_check_button_new ();
      gtk_widget_set_halign (r.output, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (r.output, _("Show its values after the run"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.output), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Output"), -1);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (r.output),
                                   ks_launch_form_is_output (self->form, i));
      tag (r.output, FIELD_OUTPUT, i);
      g_signal_connect_object (r.output, "toggled", G_CALLBACK (output_toggled_cb), self,
                               G_CONNECT_SWAPPED);
      r.remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
      gtk_widget_add_css_class (r.remove, "flat");
      gtk_widget_set_tooltip_text (r.remove, _("Remove the buffer"));
      tag (r.remove, FIELD_NAME, i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Remove the buffer"), -1);
      g_signal_connect_object (r.remove, "clicked", G_CALLBACK (remove_clicked_cb), self,
                               G_CONNECT_SWAPPED);

      gtk_grid_attach (self->buffers_grid, r.name, 0, y, 1, 1);
      gtk_grid_attach (self->buffers_grid, r.type, 1, y, 1, 1);
      gtk_grid_attach (self->buffers_grid, r.count, 2, y, 1, 1);
      gtk_grid_attach (self->buffers_grid, r.init, 3, y, 1, 1);
      gtk_grid_attach (self->buffers_grid, r.stack, 4, y, 1, 1);
      gtk_grid_attach (self->buffers_grid, r.output, 5, y, 1, 1);
      gtk_grid_attach (self->buffers_grid, r.remove, 6, y, 1, 1);
      g_array_append_val (self->buffer_rows, r);
    }
  self->filling = FALSE;
  register_fields (self);
  fill_objects (self);
  ks_a11y_name_drop_down_buttons (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------- */
/* Parameters */

/* The types of a demangled signature's parameters ("float const*" ...),
 * or NULL when they cannot be told apart */
static GStrv
signature_params (const char *demangled)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  size_t len = demangled ? strlen (demangled) : 0;
  int depth = 0;
  size_t open = 0, start;

  if (len < 2 || demangled[len - 1] != ')')
    return NULL;
  /* the '(' that matches the last ')' */
  for (size_t i = len; i-- > 0;)
    {
      if (demangled[i] == ')')
        depth++;
      else if (demangled[i] == '(' && --depth == 0)
        {
          open = i;
          break;
        }
    }
  if (depth != 0)
    return NULL;
  start = open + 1;
  for (size_t i = start; i < len; i++)
    {
      char c = demangled[i];

      if (c == '(' || c == '<' || c == '[')
        depth++;
      else if ((c == ')' || c == '>' || c == ']') && depth > 0)
        depth--;
      else if ((c == ',' && depth == 0) || (c == ')' && depth == 0 && i == len - 1))
        {
          g_autofree char *arg = g_strstrip (g_strndup (demangled + start, i - start));

          if (arg[0] != '\0' && strcmp (arg, "void") != 0)
            g_strv_builder_add (b, arg);
          start = i + 1;
        }
    }
  return g_strv_builder_end (b);
}

static void
fill_params (KsLaunchEditor *self)
{
  static const char *const headings[] = {
    "#", N_("Parameter"), N_("Passes"), N_("Value"), N_("Type")
  };
  const KsPtxFunction *f = NULL;
  g_auto(GStrv) sig = NULL;
  g_autofree char *kname = NULL;
  int fi = self->module ? ks_launch_form_find_kernel (self->form, self->module) : -1;

  if (fi >= 0)
    {
      g_autofree char *demangled = NULL;

      f = &self->module->functions[fi];
      kname = ks_ptx_span_dup (self->module, f->name);
      demangled = ks_sass_demangle (kname);
      sig = signature_params (demangled);
      if (sig != NULL && g_strv_length (sig) != f->n_params)
        g_clear_pointer (&sig, g_strfreev);
    }

  self->filling = TRUE;
  remove_children (self->params_grid);
  g_array_set_size (self->param_rows, 0);
  if (self->form->params->len == 0)
    {
      GtkWidget *none = gtk_label_new (f ? _("The kernel takes no parameters")
                                         : _("No parameters"));

      gtk_widget_add_css_class (none, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_grid_attach (self->params_grid, none, 0, 0, 1, 1);
    }
  else
    for (guint c = 0; c < G_N_ELEMENTS (headings); c++)
      gtk_grid_attach (self->params_grid, heading (c ? _(headings[c]) : headings[c]), (int) c, 0,
                       1, 1);

  for (guint i = 0; i < self->form->params->len; i++)
    {
      const KsLaunchFormParam *p = form_param (self, i);
      ParamRow r = { 0 };
      g_autofree char *index = g_strdup_printf ("%u", i);
      g_autofree char *desc = NULL, *ptx = NULL;
      GtkWidget *index_label = gtk_label_new (index), *desc_label;
      g_autoptr(GtkStringList) choices = param_choices (self);
      gboolean value = !p->is_buffer && p->handle == KS_LAUNCH_FORM_NO_HANDLE;
      int y = (int) i + 1;

      if (f != NULL && f->first_param + i < self->module->n_vars)
        {
          const KsPtxVar *v = &self->module->vars[f->first_param + i];
          g_autofree char *vname = ks_ptx_span_dup (self->module, v->name);
          const char *shortname = g_str_has_prefix (vname, kname) && vname[strlen (kname)] == '_'
                                  ? vname + strlen (kname) + 1 : vname;

          ptx = v->n_elements == 1 ? g_strdup_printf (".%s", ks_ptx_type_name (v->type))
                                   : g_strdup_printf (".%s[%" G_GUINT64_FORMAT "]",
                                                      ks_ptx_type_name (v->type), v->n_elements);
          desc = sig ? g_strdup_printf ("%s  %s", sig[i], ptx)
                     : g_strdup_printf ("%s  %s", shortname, ptx);
        }
      desc_label = gtk_label_new (desc ? desc : "");
      gtk_label_set_xalign (GTK_LABEL (desc_label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (desc_label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (desc_label), 28);
      gtk_widget_add_css_class (desc_label, "ks-launch-param");
      if (desc != NULL)
        gtk_widget_set_tooltip_text (desc_label, desc);
      gtk_widget_add_css_class (index_label, "dim-label");

      r.kind = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (choices)), NULL);
      gtk_widget_set_tooltip_text (r.kind, _("A buffer (its address), a texture or surface (its "
                                             "handle), or a value"));
      gtk_drop_down_set_selected (GTK_DROP_DOWN (r.kind), param_choice (self, p));
      tag (r.kind, FIELD_PARAM_KIND, i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.kind), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Parameter kind"), -1);
      g_signal_connect_object (r.kind, "notify::selected", G_CALLBACK (dropdown_changed_cb), self,
                               G_CONNECT_SWAPPED);
      r.value = small_entry (12);
      set_entry_text (GTK_ENTRY (r.value), p->value);
      tag (r.value, FIELD_PARAM_VALUE, i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.value), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Value"), -1);
      g_signal_connect_object (r.value, "changed", G_CALLBACK (entry_changed_cb), self,
                               G_CONNECT_SWAPPED);
      r.type = type_dropdown ();
      gtk_drop_down_set_selected (GTK_DROP_DOWN (r.type), type_index (p->type));
      tag (r.type, FIELD_PARAM_TYPE, i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (r.type), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Parameter type"), -1);
      g_signal_connect_object (r.type, "notify::selected", G_CALLBACK (dropdown_changed_cb), self,
                               G_CONNECT_SWAPPED);
      gtk_widget_set_visible (r.value, value);
      gtk_widget_set_visible (r.type, value);
      if (p->kept != NULL)
        {
          /* a struct by value is kept as the spec writes it: not edited here */
          gtk_widget_set_sensitive (r.kind, FALSE);
          gtk_widget_set_visible (r.value, FALSE);
          gtk_widget_set_visible (r.type, FALSE);
          gtk_widget_set_tooltip_text (r.kind, _("A struct passed by value, kept as the spec's "
                                                 "file gives it: edit it there"));
        }

      gtk_grid_attach (self->params_grid, index_label, 0, y, 1, 1);
      gtk_grid_attach (self->params_grid, desc_label, 1, y, 1, 1);
      gtk_grid_attach (self->params_grid, r.kind, 2, y, 1, 1);
      gtk_grid_attach (self->params_grid, r.value, 3, y, 1, 1);
      gtk_grid_attach (self->params_grid, r.type, 4, y, 1, 1);
      g_array_append_val (self->param_rows, r);
    }
  self->filling = FALSE;
  register_fields (self);
  ks_a11y_name_drop_down_buttons (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------- */
/* The kernel and the launch's dimensions */

static void
kernel_changed_cb (KsLaunchEditor *self,
                   GParamSpec     *pspec,
                   GtkDropDown    *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  uint32_t function;

  if (self->filling || self->module == NULL || selected >= self->kernels->len)
    return;
  function = g_array_index (self->kernels, uint32_t, selected);
  g_free (self->form->kernel);
  self->form->kernel = ks_ptx_span_dup (self->module, self->module->functions[function].name);
  ks_launch_form_fit_params (self->form, self->module, function);
  fill_params (self);
  schedule_check (self);
}

static void
fill_kernels (KsLaunchEditor *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint selected = GTK_INVALID_LIST_POSITION;
  int current = self->module ? ks_launch_form_find_kernel (self->form, self->module) : -1;

  g_array_set_size (self->kernels, 0);
  for (uint32_t i = 0; self->module != NULL && i < self->module->n_functions; i++)
    {
      g_autofree char *name = NULL, *demangled = NULL;

      if (self->module->functions[i].kind != KS_PTX_FUNCTION_ENTRY)
        continue;
      name = ks_ptx_span_dup (self->module, self->module->functions[i].name);
      demangled = ks_sass_demangle (name);
      if ((int) i == current)
        selected = self->kernels->len;
      g_array_append_val (self->kernels, i);
      gtk_string_list_append (names, demangled ? demangled : name);
    }
  self->filling = TRUE;
  gtk_drop_down_set_model (self->kernel_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->kernel_dropdown, selected);
  self->filling = FALSE;
  /* One kernel: its name, not a choice */
  gtk_widget_set_visible (GTK_WIDGET (self->kernel_dropdown), self->kernels->len > 1);
  gtk_widget_set_visible (GTK_WIDGET (self->kernel_label), self->kernels->len <= 1);
  if (self->kernels->len <= 1)
    {
      g_autofree char *demangled = self->form->kernel ? ks_sass_demangle (self->form->kernel)
                                                      : NULL;
      const char *shown = demangled ? demangled : self->form->kernel;

      if (shown == NULL && self->kernels->len == 1)
        {
          uint32_t only = g_array_index (self->kernels, uint32_t, 0);
          g_autofree char *name = ks_ptx_span_dup (self->module,
                                                   self->module->functions[only].name);

          demangled = ks_sass_demangle (name);
          gtk_label_set_text (self->kernel_label, demangled ? demangled : name);
        }
      else
        gtk_label_set_text (self->kernel_label, shown ? shown : _("the module’s only kernel"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->kernel_label), self->form->kernel);
    }
  ks_a11y_name_drop_down_buttons (GTK_WIDGET (self));
}

static void
dim_changed_cb (KsLaunchEditor *self,
                GtkEditable    *editable)
{
  GtkEntry *grid[3] = { self->grid_x, self->grid_y, self->grid_z };
  GtkEntry *block[3] = { self->block_x, self->block_y, self->block_z };

  if (self->filling)
    return;
  for (guint i = 0; i < 3; i++)
    {
      if (GTK_EDITABLE (grid[i]) == editable)
        replace (&self->form->grid[i], gtk_editable_get_text (editable));
      if (GTK_EDITABLE (block[i]) == editable)
        replace (&self->form->block[i], gtk_editable_get_text (editable));
    }
  if (GTK_EDITABLE (self->shared_entry) == editable)
    replace (&self->form->dynamic_shared, gtk_editable_get_text (editable));
  schedule_check (self);
}

static void
fill (KsLaunchEditor *self)
{
  GtkEntry *grid[3] = { self->grid_x, self->grid_y, self->grid_z };
  GtkEntry *block[3] = { self->block_x, self->block_y, self->block_z };

  self->filling = TRUE;
  for (guint i = 0; i < 3; i++)
    {
      set_entry_text (grid[i], self->form->grid[i]);
      set_entry_text (block[i], self->form->block[i]);
    }
  set_entry_text (self->shared_entry, self->form->dynamic_shared);
  self->filling = FALSE;
  fill_kernels (self);
  fill_buffers (self);
  fill_params (self);
}

/* ---------------------------------------------------------------------- */
/* Public */

/* Fits the form's parameters to the kernel it names, where the module has it */
static void
fit_params (KsLaunchEditor *self,
            KsLaunchForm   *form)
{
  int fi;

  if (self->module == NULL || form == NULL)
    return;
  fi = ks_launch_form_find_kernel (form, self->module);
  if (fi >= 0)
    ks_launch_form_fit_params (form, self->module, (uint32_t) fi);
}

void
ks_launch_editor_load (KsLaunchEditor     *self,
                       const KsLaunchForm *form,
                       KsPtxModule        *module,
                       const char         *spec_path)
{
  g_return_if_fail (KS_IS_LAUNCH_EDITOR (self));
  g_return_if_fail (form != NULL);

  g_clear_pointer (&self->form, ks_launch_form_free);
  g_clear_pointer (&self->applied, ks_launch_form_free);
  g_clear_pointer (&self->module, ks_ptx_module_free);
  self->form = ks_launch_form_copy (form);
  self->module = module;
  replace (&self->spec_path, spec_path);
  /* The parameters follow the kernel's .param list */
  fit_params (self, self->form);
  /* Reset comes back to the fitted form; a fitted list that differs from
   * the spec's is a change to apply */
  self->applied = ks_launch_form_copy (self->form);
  g_free (self->applied_json);
  self->applied_json = ks_launch_form_to_json (form);
  set_message (self, NULL);
  fill (self);
  schedule_check (self);
}

void
ks_launch_editor_select_launch (KsLaunchEditor *self,
                                guint           step)
{
  g_return_if_fail (KS_IS_LAUNCH_EDITOR (self));

  if (self->form == NULL || self->form->launches == NULL || step >= self->form->launches->len
      || step == self->form->step)
    return;
  /* What was edited stays, in the launch it was edited in; what Reset
   * comes back to follows to the same launch */
  ks_launch_form_select_launch (self->form, step);
  fit_params (self, self->form);
  if (self->applied != NULL && self->applied->launches != NULL
      && step < self->applied->launches->len)
    {
      ks_launch_form_select_launch (self->applied, step);
      fit_params (self, self->applied);
    }
  set_message (self, NULL);
  fill (self);
  schedule_check (self);
}

const KsLaunchForm *
ks_launch_editor_get_form (KsLaunchEditor *self)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), NULL);
  return self->form;
}

gboolean
ks_launch_editor_is_dirty (KsLaunchEditor *self)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), FALSE);
  return self->dirty;
}

gboolean
ks_launch_editor_is_busy (KsLaunchEditor *self)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), FALSE);
  return self->check_id != 0 || self->running_serial != 0 || self->recheck;
}

const char *
ks_launch_editor_get_message (KsLaunchEditor *self)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), NULL);
  return self->message;
}

KsLaunch *
ks_launch_editor_take_launch (KsLaunchEditor *self)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), NULL);
  return g_steal_pointer (&self->launch);
}

gboolean
ks_launch_editor_apply (KsLaunchEditor *self)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), FALSE);

  if (self->launch == NULL || ks_launch_editor_is_busy (self) || self->form == NULL)
    return FALSE;
  g_signal_emit (self, signals[SIGNAL_APPLY], 0);
  g_clear_pointer (&self->applied, ks_launch_form_free);
  self->applied = ks_launch_form_copy (self->form);
  g_free (self->applied_json);
  self->applied_json = ks_launch_form_to_json (self->applied);
  self->dirty = FALSE;
  update_buttons (self);
  return TRUE;
}

GtkWidget *
ks_launch_editor_get_field (KsLaunchEditor *self,
                            const char     *path)
{
  g_return_val_if_fail (KS_IS_LAUNCH_EDITOR (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  return g_hash_table_lookup (self->fields, path);
}

void
ks_launch_editor_set_max_size (KsLaunchEditor *self,
                               int             width,
                               int             height)
{
  g_return_if_fail (KS_IS_LAUNCH_EDITOR (self));
  gtk_scrolled_window_set_max_content_width (self->scroller, MAX (width, 200));
  gtk_scrolled_window_set_max_content_height (self->scroller, MAX (height, 120));
}

/* Enter in a field applies, as in a dialog, when the form is good */
static void
map_cb (KsLaunchEditor *self)
{
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_POPOVER);

  if (popover != NULL)
    gtk_popover_set_default_widget (GTK_POPOVER (popover), GTK_WIDGET (self->apply_button));
}

static void
apply_clicked_cb (KsLaunchEditor *self,
                  GtkButton      *button)
{
  ks_launch_editor_apply (self);
}

static void
reset_clicked_cb (KsLaunchEditor *self,
                  GtkButton      *button)
{
  g_autoptr(KsLaunchForm) applied = ks_launch_form_copy (self->applied);

  g_clear_pointer (&self->form, ks_launch_form_free);
  self->form = g_steal_pointer (&applied);
  fill (self);
  schedule_check (self);
}

/* ---------------------------------------------------------------------- */

static void
ks_launch_editor_dispose (GObject *object)
{
  KsLaunchEditor *self = KS_LAUNCH_EDITOR (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  /* A check still in its thread holds a reference to the editor */
  gtk_widget_dispose_template (GTK_WIDGET (self), KS_TYPE_LAUNCH_EDITOR);
  G_OBJECT_CLASS (ks_launch_editor_parent_class)->dispose (object);
}

static void
ks_launch_editor_finalize (GObject *object)
{
  KsLaunchEditor *self = KS_LAUNCH_EDITOR (object);

  g_clear_pointer (&self->form, ks_launch_form_free);
  g_clear_pointer (&self->applied, ks_launch_form_free);
  g_clear_pointer (&self->applied_json, g_free);
  g_clear_pointer (&self->module, ks_ptx_module_free);
  g_clear_pointer (&self->kernels, g_array_unref);
  g_clear_pointer (&self->spec_path, g_free);
  g_clear_pointer (&self->buffer_rows, g_array_unref);
  g_clear_pointer (&self->param_rows, g_array_unref);
  g_clear_pointer (&self->fields, g_hash_table_unref);
  g_clear_pointer (&self->marked, g_ptr_array_unref);
  g_clear_pointer (&self->launch, ks_launch_free);
  g_clear_pointer (&self->message, g_free);
  G_OBJECT_CLASS (ks_launch_editor_parent_class)->finalize (object);
}

static void
ks_launch_editor_class_init (KsLaunchEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_launch_editor_dispose;
  object_class->finalize = ks_launch_editor_finalize;

  /* Apply was pressed on a good form: take the launch and the form now */
  signals[SIGNAL_APPLY] = g_signal_new ("apply", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/kernelscope/KernelScope/ks-launch-editor.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, KsLaunchEditor, name)
  BIND (scroller);
  BIND (kernel_dropdown);
  BIND (kernel_label);
  BIND (grid_x);
  BIND (grid_y);
  BIND (grid_z);
  BIND (block_x);
  BIND (block_y);
  BIND (block_z);
  BIND (shared_entry);
  BIND (grid_info);
  BIND (block_info);
  BIND (shared_info);
  BIND (add_buffer_button);
  BIND (buffers_grid);
  BIND (objects_label);
  BIND (params_grid);
  BIND (message_box);
  BIND (message_label);
  BIND (status_label);
  BIND (reset_button);
  BIND (apply_button);
#undef BIND
}

static void
ks_launch_editor_init (KsLaunchEditor *self)
{
  GtkEntry *dims[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->form = ks_launch_form_new ();
  self->applied = ks_launch_form_new ();
  self->applied_json = ks_launch_form_to_json (self->applied);
  self->kernels = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  self->buffer_rows = g_array_new (FALSE, TRUE, sizeof (BufferRow));
  self->param_rows = g_array_new (FALSE, TRUE, sizeof (ParamRow));
  self->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->marked = g_ptr_array_new ();

  dims[0] = self->grid_x;
  dims[1] = self->grid_y;
  dims[2] = self->grid_z;
  dims[3] = self->block_x;
  dims[4] = self->block_y;
  dims[5] = self->block_z;
  dims[6] = self->shared_entry;
  for (guint i = 0; i < G_N_ELEMENTS (dims); i++)
    g_signal_connect_object (dims[i], "changed", G_CALLBACK (dim_changed_cb), self,
                             G_CONNECT_SWAPPED);
  g_signal_connect_object (self->kernel_dropdown, "notify::selected",
                           G_CALLBACK (kernel_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->add_buffer_button, "clicked", G_CALLBACK (add_buffer_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->apply_button, "clicked", G_CALLBACK (apply_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reset_button, "clicked", G_CALLBACK (reset_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);
  fill (self);
  update_info (self);
  update_buttons (self);
}

GtkWidget *
ks_launch_editor_new (void)
{
  return g_object_new (KS_TYPE_LAUNCH_EDITOR, NULL);
}
