/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-impact.h"
#include "ws-signatures.h"
#include "ws-wait-graph.h"

typedef struct {
  WsSignatures *sigs;
  GHashTable   *distinct;   /* WsTrace* -> GHashTable of event + 1 */
} Meter;

static void
impact_clear (gpointer data)
{
  g_free (((WsImpact *) data)->component);
}

static gboolean
node_holds (Meter *m, WsTrace *trace, const WsWaitNode *v)
{
  return v->kind != WS_WAIT_NODE_UNKNOWN_READIER
      && ws_signatures_stack_is_relevant (m->sigs, trace, v->stack);
}

static void
count_distinct (Meter *m, WsImpact *out, WsTrace *trace, const WsWaitNode *v)
{
  GHashTable *seen = g_hash_table_lookup (m->distinct, trace);

  if (seen == NULL)
    {
      seen = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_hash_table_insert (m->distinct, trace, seen);
    }
  if (g_hash_table_add (seen, GUINT_TO_POINTER (v->event + 1)))
    {
      out->d_waitdist += v->duration;
      out->n_distinct_waits++;
    }
}

/* D_scn, D_wait (breadth-first, top-level), D_run of one wait graph. */
static void
measure (Meter *m, WsImpact *out, WsWaitGraph *graph)
{
  WsTrace *trace = ws_wait_graph_get_trace (graph);
  const WsWaitNode *nodes = ws_wait_graph_get_nodes (graph);
  guint n = ws_wait_graph_get_n_nodes (graph);
  g_autofree guint8 *seen = g_new0 (guint8, MAX (n, 1));
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; i < n; i++)
    {
      if (nodes[i].flags & WS_WAIT_NODE_FLAG_SYMPTOM)
        {
          out->d_scn += nodes[i].duration;
          seen[i] = 1;
          g_array_append_val (queue, i);
        }
      if (nodes[i].kind == WS_WAIT_NODE_RUN && node_holds (m, trace, &nodes[i]))
        out->d_run += nodes[i].duration;
    }

  for (guint q = 0; q < queue->len; q++)
    {
      guint32 i = g_array_index (queue, guint32, q), n_out = 0;
      const WsWaitEdge *edges;

      if (nodes[i].kind != WS_WAIT_NODE_WAIT)
        continue;
      if (node_holds (m, trace, &nodes[i]))
        {
          out->d_wait += nodes[i].duration;
          out->n_waits++;
          count_distinct (m, out, trace, &nodes[i]);
          continue;
        }
      edges = ws_wait_graph_get_out_edges (graph, i, &n_out);
      for (guint e = 0; e < n_out; e++)
        if (!seen[edges[e].to])
          {
            seen[edges[e].to] = 1;
            g_array_append_val (queue, edges[e].to);
          }
    }
  out->n_instances++;
}

static void
derive (WsImpact *out)
{
  double scn = (double) out->d_scn;

  out->ia_run = scn > 0 ? out->d_run / scn : 0;
  out->ia_wait = scn > 0 ? out->d_wait / scn : 0;
  out->ia_opt = scn > 0 ? (out->d_wait - out->d_waitdist) / scn : 0;
  out->wait_ratio = out->d_waitdist > 0 ? (double) out->d_wait / out->d_waitdist : 0;
}

/**
 * ws_impact_run:
 *
 * See the header.
 */
GArray *
ws_impact_run (WsInstanceSet          *instances,
               const WsImpactSettings *settings,
               GCancellable           *cancellable,
               WsProgressFunc          progress,
               gpointer                progress_data,
               GError                **error)
{
  g_autoptr(GArray) result = NULL;
  g_autofree Meter *meters = NULL;
  guint n_comp = 0, n, step;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (instances), NULL);
  g_return_val_if_fail (settings != NULL && settings->components != NULL, NULL);

  n_comp = g_strv_length ((GStrv) settings->components);
  result = g_array_new (FALSE, TRUE, sizeof (WsImpact));
  g_array_set_clear_func (result, impact_clear);
  meters = g_new0 (Meter, MAX (n_comp, 1));
  g_array_set_size (result, n_comp);
  for (guint c = 0; c < n_comp; c++)
    {
      g_array_index (result, WsImpact, c).component = g_strdup (settings->components[c]);
      meters[c].distinct = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                  (GDestroyNotify) g_hash_table_unref);
      if (error == NULL || *error == NULL)
        meters[c].sigs = ws_signatures_new (settings->components[c], FALSE, error);
    }

  n = ws_instance_set_get_n (instances);
  step = MAX (n / 100, 1);
  for (guint i = 0; i < n && (error == NULL || *error == NULL); i++)
    {
      const WsInstanceRef *ref = ws_instance_set_get (instances, i);
      g_autoptr(WsWaitGraph) graph = NULL;
      WsSymptom symptom;

      for (guint c = 0; c < n_comp; c++)
        if (meters[c].sigs == NULL)
          goto out;   /* a bad regex: @error says which */
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      symptom = ref->span;
      graph = ws_wait_graph_build (ref->trace, &symptom, settings->classifier, cancellable, error);
      if (graph == NULL)
        break;
      for (guint c = 0; c < n_comp; c++)
        measure (&meters[c], &g_array_index (result, WsImpact, c), graph);
      if (progress != NULL && i % step == 0)
        progress ((double) i / n, _("Measuring impact"), progress_data);
    }

out:
  for (guint c = 0; c < n_comp; c++)
    {
      derive (&g_array_index (result, WsImpact, c));
      g_clear_object (&meters[c].sigs);
      g_hash_table_unref (meters[c].distinct);
    }
  if (error != NULL && *error != NULL)
    return NULL;
  return g_steal_pointer (&result);
}
