/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-mining-item.h"

struct _WsMiningItem
{
  GObject           parent_instance;

  WsMiningItemKind  kind;
  guint             index;
  guint             rank;
  guint             cluster;
  char             *label;
  char             *tooltip;
  gint64            total_cost;
  guint             n_streams;
  guint64           n_events;
  GListStore       *children;
  gboolean          signature;
  gint64            discriminative;   /* mean cost per slow trace − per fast trace */
};

G_DEFINE_FINAL_TYPE (WsMiningItem, ws_mining_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RANK,
  PROP_LABEL,
  PROP_TOTAL_COST,
  PROP_N_STREAMS,
  PROP_N_EVENTS,
  PROP_AVERAGE_COST,
  PROP_SIGNATURE,
  PROP_DISCRIMINATIVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ws_mining_item_finalize (GObject *object)
{
  WsMiningItem *self = WS_MINING_ITEM (object);

  g_free (self->label);
  g_free (self->tooltip);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (ws_mining_item_parent_class)->finalize (object);
}

static void
ws_mining_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WsMiningItem *self = WS_MINING_ITEM (object);

  switch (prop_id)
    {
    case PROP_RANK:
      g_value_set_uint (value, self->rank);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_TOTAL_COST:
      g_value_set_int64 (value, self->total_cost);
      break;
    case PROP_N_STREAMS:
      g_value_set_uint (value, self->n_streams);
      break;
    case PROP_N_EVENTS:
      g_value_set_uint64 (value, self->n_events);
      break;
    case PROP_AVERAGE_COST:
      g_value_set_double (value, ws_mining_item_get_average_cost (self));
      break;
    case PROP_SIGNATURE:
      g_value_set_boolean (value, self->signature);
      break;
    case PROP_DISCRIMINATIVE:
      g_value_set_int64 (value, self->discriminative);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_mining_item_class_init (WsMiningItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_mining_item_finalize;
  object_class->get_property = ws_mining_item_get_property;

  properties[PROP_RANK] =
    g_param_spec_uint ("rank", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TOTAL_COST] =
    g_param_spec_int64 ("total-cost", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_STREAMS] =
    g_param_spec_uint ("n-streams", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_EVENTS] =
    g_param_spec_uint64 ("n-events", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_AVERAGE_COST] =
    g_param_spec_double ("average-cost", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SIGNATURE] =
    g_param_spec_boolean ("signature", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Set once, before the row is shown: what the "Slow − fast" column
   * shows and sorts by. */
  properties[PROP_DISCRIMINATIVE] =
    g_param_spec_int64 ("discriminative", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_mining_item_init (WsMiningItem *self)
{
}

/**
 * ws_mining_item_new:
 * @index: the cluster's index in its #WsClusterSet, or the pattern's in
 *   its #WsPatternSet
 * @rank: 1-based position in the ranking the panel was built with
 * @tooltip: (nullable): the whole pattern, one frame a line
 */
WsMiningItem *
ws_mining_item_new (WsMiningItemKind  kind,
                    guint             index,
                    guint             rank,
                    const char       *label,
                    const char       *tooltip,
                    gint64            total_cost,
                    guint             n_streams,
                    guint64           n_events)
{
  WsMiningItem *self = g_object_new (WS_TYPE_MINING_ITEM, NULL);

  self->kind = kind;
  self->index = index;
  self->rank = rank;
  self->cluster = kind == WS_MINING_ITEM_CLUSTER ? index : G_MAXUINT;
  self->label = g_strdup (label);
  self->tooltip = g_strdup (tooltip);
  self->total_cost = total_cost;
  self->n_streams = n_streams;
  self->n_events = n_events;
  if (kind == WS_MINING_ITEM_CLUSTER)
    self->children = g_list_store_new (WS_TYPE_MINING_ITEM);
  return self;
}

WsMiningItemKind
ws_mining_item_get_kind (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), WS_MINING_ITEM_PATTERN);
  return self->kind;
}

guint
ws_mining_item_get_index (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->index;
}

guint
ws_mining_item_get_rank (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->rank;
}

const char *
ws_mining_item_get_label (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), NULL);
  return self->label;
}

const char *
ws_mining_item_get_tooltip (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), NULL);
  return self->tooltip;
}

gint64
ws_mining_item_get_total_cost (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->total_cost;
}

guint
ws_mining_item_get_n_streams (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->n_streams;
}

guint64
ws_mining_item_get_n_events (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->n_events;
}

/* Cost_average = Cost_total / Num_event (ns). */
double
ws_mining_item_get_average_cost (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->n_events ? (double) self->total_cost / (double) self->n_events : 0;
}

/* The cluster a pattern row belongs to (a cluster row: its own index). */
guint
ws_mining_item_get_cluster (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), G_MAXUINT);
  return self->cluster;
}

void
ws_mining_item_set_cluster (WsMiningItem *self,
                            guint         cluster)
{
  g_return_if_fail (WS_IS_MINING_ITEM (self));
  self->cluster = cluster;
}

/**
 * ws_mining_item_get_children:
 * Returns: (transfer none) (nullable): a cluster's patterns, %NULL for a
 *   pattern
 */
GListModel *
ws_mining_item_get_children (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), NULL);
  return self->children ? G_LIST_MODEL (self->children) : NULL;
}

void
ws_mining_item_add_child (WsMiningItem *self,
                          WsMiningItem *child)
{
  g_return_if_fail (WS_IS_MINING_ITEM (self));
  g_return_if_fail (self->children != NULL);
  g_return_if_fail (WS_IS_MINING_ITEM (child));

  child->cluster = self->index;
  g_list_store_append (self->children, child);
}

/* Whether the analyst marked (part of) this cluster as a signature. */
gboolean
ws_mining_item_get_signature (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), FALSE);
  return self->signature;
}

void
ws_mining_item_set_signature (WsMiningItem *self,
                              gboolean      signature)
{
  g_return_if_fail (WS_IS_MINING_ITEM (self));

  signature = !!signature;
  if (self->signature == signature)
    return;
  self->signature = signature;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNATURE]);
}

/* The row's discriminative score (ns), given by the run (#WsPattern and
 * #WsCluster carry it) when the traces mined had slow and fast classes. */
gint64
ws_mining_item_get_discriminative (WsMiningItem *self)
{
  g_return_val_if_fail (WS_IS_MINING_ITEM (self), 0);
  return self->discriminative;
}

void
ws_mining_item_set_discriminative (WsMiningItem *self,
                                   gint64        score)
{
  g_return_if_fail (WS_IS_MINING_ITEM (self));
  if (self->discriminative == score)
    return;
  self->discriminative = score;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISCRIMINATIVE]);
}
