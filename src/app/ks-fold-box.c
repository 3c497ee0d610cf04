/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-fold-box.c: a horizontal row whose minimum width is only what must
 * stay, so the window can be narrow; at allocation it folds the children
 * that do not fit, highest priority first, with gtk_widget_set_child_visible
 * (which, unlike hiding, asks for no new layout), and says so from an idle
 * so its owner can offer the folded controls elsewhere (the primary menu). */

#include "ks-fold-box.h"

#define SPACING 6

typedef struct
{
  GtkWidget *widget;
  guint priority;
  gboolean folded;
} Entry;

struct _KsFoldBox
{
  GtkWidget parent_instance;

  GArray *entries;              /* Entry, in row order */
  GtkWidget *overflow;
  gboolean folding;
  guint notify_idle;
};

enum
{
  PROP_0,
  PROP_FOLDING,
  N_PROPS
};

enum
{
  FOLDED_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void ks_fold_box_buildable_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KsFoldBox, ks_fold_box, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE,
                                                      ks_fold_box_buildable_init))

static GtkBuildableIface *parent_buildable;

GtkWidget *
ks_fold_box_new (void)
{
  return g_object_new (KS_TYPE_FOLD_BOX, NULL);
}

static Entry *
entry_at (KsFoldBox *self,
          guint      i)
{
  return &g_array_index (self->entries, Entry, i);
}

static gboolean
shown (GtkWidget *widget)
{
  return widget != NULL && gtk_widget_get_visible (widget);
}

static gboolean
has_foldable (KsFoldBox *self)
{
  for (guint i = 0; i < self->entries->len; i++)
    if (entry_at (self, i)->priority > 0 && shown (entry_at (self, i)->widget))
      return TRUE;
  return FALSE;
}

static void
ks_fold_box_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  KsFoldBox *self = KS_FOLD_BOX (widget);
  int min = 0, nat = 0, n_min = 0, n_nat = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = entry_at (self, i);
      int cmin, cnat;

      if (!shown (e->widget))
        continue;
      gtk_widget_measure (e->widget, orientation, -1, &cmin, &cnat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_VERTICAL)
        {
          min = MAX (min, cmin);
          nat = MAX (nat, cnat);
          continue;
        }
      nat += cnat;
      n_nat++;
      if (e->priority == 0)
        {
          min += cmin;
          n_min++;
        }
    }
  if (shown (self->overflow) && has_foldable (self))
    {
      int cmin, cnat;

      gtk_widget_measure (self->overflow, orientation, -1, &cmin, &cnat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_VERTICAL)
        {
          min = MAX (min, cmin);
          nat = MAX (nat, cnat);
        }
      else
        {
          min += cmin;
          n_min++;
        }
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      min += SPACING * MAX (n_min - 1, 0);
      nat += SPACING * MAX (n_nat - 1, 0);
    }
  *minimum = min;
  *natural = MAX (nat, min);
  *minimum_baseline = *natural_baseline = -1;
}

/* The width the row needs with the folds so far, at natural widths */
static int
needed_width (KsFoldBox *self,
              gboolean   use_min)
{
  int need = 0, n = 0;
  gboolean any_folded = FALSE;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = entry_at (self, i);
      int cmin, cnat;

      if (!shown (e->widget))
        continue;
      if (e->folded)
        {
          any_folded = TRUE;
          continue;
        }
      gtk_widget_measure (e->widget, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &cnat, NULL, NULL);
      need += use_min ? cmin : cnat;
      n++;
    }
  if (any_folded && shown (self->overflow))
    {
      int cmin, cnat;

      gtk_widget_measure (self->overflow, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &cnat,
                          NULL, NULL);
      need += use_min ? cmin : cnat;
      n++;
    }
  return need + SPACING * MAX (n - 1, 0);
}

/* The next child to fold: the highest priority, the last among equals */
static Entry *
next_to_fold (KsFoldBox *self)
{
  Entry *best = NULL;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = entry_at (self, i);

      if (e->priority == 0 || e->folded || !shown (e->widget))
        continue;
      if (best == NULL || e->priority >= best->priority)
        best = e;
    }
  return best;
}

static gboolean
notify_idle_cb (gpointer data)
{
  KsFoldBox *self = KS_FOLD_BOX (data);

  self->notify_idle = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDING]);
  g_signal_emit (self, signals[FOLDED_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void
place (GtkWidget *child,
       int       *x,
       int        width,
       int        height)
{
  gtk_widget_size_allocate (child, &(GtkAllocation) { *x, 0, width, height }, -1);
  *x += width + SPACING;
}

static void
ks_fold_box_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  KsFoldBox *self = KS_FOLD_BOX (widget);
  g_autofree gboolean *was = g_new0 (gboolean, self->entries->len + 1);
  gboolean any_folded = FALSE, changed = FALSE;
  int need, slack, shrink_room = 0, x = 0;
  Entry *e;

  for (guint i = 0; i < self->entries->len; i++)
    {
      was[i] = entry_at (self, i)->folded;
      entry_at (self, i)->folded = FALSE;
    }
  while (needed_width (self, FALSE) > width && (e = next_to_fold (self)) != NULL)
    e->folded = TRUE;
  need = needed_width (self, FALSE);
  slack = width - need;         /* < 0: shrink toward the minimums */
  for (guint i = 0; i < self->entries->len; i++)
    {
      int cmin, cnat;

      e = entry_at (self, i);
      if (!shown (e->widget) || e->folded)
        continue;
      gtk_widget_measure (e->widget, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &cnat, NULL, NULL);
      shrink_room += cnat - cmin;
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      int cmin, cnat, w;

      e = entry_at (self, i);
      any_folded |= e->folded && shown (e->widget);
      changed |= e->folded != was[i];
      gtk_widget_set_child_visible (e->widget, !e->folded);
      if (!shown (e->widget) || e->folded)
        continue;
      gtk_widget_measure (e->widget, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &cnat, NULL, NULL);
      w = cnat;
      if (slack < 0 && shrink_room > 0)
        w = cnat - (int) ((gint64) (cnat - cmin) * -slack / shrink_room);
      place (e->widget, &x, MAX (w, cmin), height);
    }
  if (self->overflow != NULL)
    {
      gtk_widget_set_child_visible (self->overflow, any_folded);
      if (any_folded && shown (self->overflow))
        {
          int cmin, cnat;

          gtk_widget_measure (self->overflow, GTK_ORIENTATION_HORIZONTAL, -1, &cmin, &cnat,
                              NULL, NULL);
          place (self->overflow, &x, MAX (cmin, MIN (cnat, width - x)), height);
        }
    }
  if (any_folded != self->folding)
    {
      self->folding = any_folded;
      changed = TRUE;
    }
  if (changed && self->notify_idle == 0)
    self->notify_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, notify_idle_cb, self, NULL);
}

static GtkSizeRequestMode
ks_fold_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

void
ks_fold_box_append (KsFoldBox *self,
                    GtkWidget *child,
                    guint      priority)
{
  Entry e = { child, priority, FALSE };

  g_return_if_fail (KS_IS_FOLD_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child));
  g_return_if_fail (gtk_widget_get_parent (child) == NULL);

  if (self->overflow != NULL)
    gtk_widget_insert_before (child, GTK_WIDGET (self), self->overflow);
  else
    gtk_widget_set_parent (child, GTK_WIDGET (self));
  g_array_append_val (self->entries, e);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ks_fold_box_set_overflow (KsFoldBox *self,
                          GtkWidget *child)
{
  g_return_if_fail (KS_IS_FOLD_BOX (self));
  g_return_if_fail (child == NULL || GTK_IS_WIDGET (child));

  g_clear_pointer (&self->overflow, gtk_widget_unparent);
  if (child != NULL)
    {
      self->overflow = child;
      gtk_widget_set_parent (child, GTK_WIDGET (self));
      gtk_widget_set_child_visible (child, FALSE);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
ks_fold_box_is_folded (KsFoldBox *self,
                       GtkWidget *child)
{
  g_return_val_if_fail (KS_IS_FOLD_BOX (self), FALSE);

  for (guint i = 0; i < self->entries->len; i++)
    if (entry_at (self, i)->widget == child)
      return entry_at (self, i)->folded;
  return FALSE;
}

gboolean
ks_fold_box_get_folding (KsFoldBox *self)
{
  g_return_val_if_fail (KS_IS_FOLD_BOX (self), FALSE);
  return self->folding;
}

static void
ks_fold_box_buildable_add_child (GtkBuildable *buildable,
                                 GtkBuilder   *builder,
                                 GObject      *child,
                                 const char   *type)
{
  KsFoldBox *self = KS_FOLD_BOX (buildable);

  if (!GTK_IS_WIDGET (child))
    {
      parent_buildable->add_child (buildable, builder, child, type);
      return;
    }
  if (g_strcmp0 (type, "overflow") == 0)
    ks_fold_box_set_overflow (self, GTK_WIDGET (child));
  else if (type != NULL && g_str_has_prefix (type, "fold-"))
    ks_fold_box_append (self, GTK_WIDGET (child), (guint) g_ascii_strtoull (type + 5, NULL, 10));
  else
    ks_fold_box_append (self, GTK_WIDGET (child), 0);
}

static void
ks_fold_box_buildable_init (GtkBuildableIface *iface)
{
  parent_buildable = g_type_interface_peek_parent (iface);
  iface->add_child = ks_fold_box_buildable_add_child;
}

static void
ks_fold_box_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KsFoldBox *self = KS_FOLD_BOX (object);

  switch (prop_id)
    {
    case PROP_FOLDING:
      g_value_set_boolean (value, self->folding);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_fold_box_dispose (GObject *object)
{
  KsFoldBox *self = KS_FOLD_BOX (object);
  GtkWidget *child;

  g_clear_handle_id (&self->notify_idle, g_source_remove);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->overflow = NULL;
  g_array_set_size (self->entries, 0);
  G_OBJECT_CLASS (ks_fold_box_parent_class)->dispose (object);
}

static void
ks_fold_box_finalize (GObject *object)
{
  KsFoldBox *self = KS_FOLD_BOX (object);

  g_array_unref (self->entries);
  G_OBJECT_CLASS (ks_fold_box_parent_class)->finalize (object);
}

static void
ks_fold_box_class_init (KsFoldBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ks_fold_box_get_property;
  object_class->dispose = ks_fold_box_dispose;
  object_class->finalize = ks_fold_box_finalize;
  widget_class->measure = ks_fold_box_measure;
  widget_class->size_allocate = ks_fold_box_size_allocate;
  widget_class->get_request_mode = ks_fold_box_get_request_mode;

  properties[PROP_FOLDING] =
    g_param_spec_boolean ("folding", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* After an allocation that folded or unfolded a child, from an idle */
  signals[FOLDED_CHANGED] = g_signal_new ("folded-changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "ks-fold-box");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ks_fold_box_init (KsFoldBox *self)
{
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
}
