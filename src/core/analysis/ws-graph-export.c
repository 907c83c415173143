/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * JSON and Graphviz DOT for wait graphs, ready trees, critical paths and
 * inspector findings: what `waitscope-cli` prints and what reports embed.
 * The JSON keeps raw indices and nanoseconds (scripts compute with them)
 * next to names (people read them).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-cause-chain.h"
#include "ws-graph-export.h"
#include "ws-json-text.h"
#include "ws-wake-words.h"

static void
add_thread (JsonBuilder *b,
            WsTrace     *trace,
            const char  *prefix,
            guint32      thread)
{
  g_autofree char *tid_key = g_strconcat (prefix, "tid", NULL);
  g_autofree char *name_key = g_strconcat (prefix, "thread", NULL);
  const WsThread *t;

  if (thread == WS_NONE || thread >= ws_trace_get_n_threads (trace))
    return;
  t = ws_trace_get_thread (trace, thread);
  json_builder_set_member_name (b, tid_key);
  json_builder_add_int_value (b, t->tid);
  json_builder_set_member_name (b, name_key);
  json_builder_add_string_value (b, t->name);
}

/* Stacks are written once, in a top-level "stacks" object keyed by stack
 * id, and nodes refer to them by id: a 10,000-node graph has a few
 * hundred distinct stacks, and inlining them made the JSON 40 times
 * bigger and slower. */
static void
add_stack_ref (JsonBuilder *b,
               GHashTable  *used,
               const char  *key,
               WsStackId    stack)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, stack);
  g_hash_table_add (used, GUINT_TO_POINTER (stack));
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

static void
add_stacks (JsonBuilder *b,
            WsTrace     *trace,
            GHashTable  *used)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  g_autoptr(GArray) ids = g_array_sized_new (FALSE, FALSE, sizeof (guint), g_hash_table_size (used));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, used);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint id = GPOINTER_TO_UINT (key);
      g_array_append_val (ids, id);
    }
  g_array_sort (ids, compare_ids);
  json_builder_set_member_name (b, "stacks");
  json_builder_begin_object (b);
  for (guint k = 0; k < ids->len; k++)
    {
      WsStackId stack = g_array_index (ids, guint, k);
      g_autofree char *key = g_strdup_printf ("%u", stack);
      const WsFrameId *frames;
      guint n = 0;

      json_builder_set_member_name (b, key);
      json_builder_begin_array (b);
      /* Leaf first, as perf prints stacks and as every CLI output does. */
      frames = ws_stack_table_get_stack (table, stack, &n);
      for (guint i = n; i > 0; i--)
        {
          g_autofree char *s = ws_stack_table_format_frame (table, frames[i - 1]);
          json_builder_add_string_value (b, s);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

static void
add_int (JsonBuilder *b,
         const char  *key,
         gint64       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, value);
}

static void
add_double (JsonBuilder *b,
            const char  *key,
            double       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_double_value (b, value);
}

static void
add_string (JsonBuilder *b,
            const char  *key,
            const char  *value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, value);
}

static void
add_bool (JsonBuilder *b,
          const char  *key,
          gboolean     value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, value);
}

static void
add_symptom (JsonBuilder     *b,
             WsTrace         *trace,
             const WsSymptom *symptom)
{
  json_builder_set_member_name (b, "symptom");
  json_builder_begin_object (b);
  add_thread (b, trace, "", symptom->thread);
  add_int (b, "t0", symptom->t0);
  add_int (b, "t1", symptom->t1);
  add_double (b, "duration_ms", (symptom->t1 - symptom->t0) / 1e6);
  json_builder_end_object (b);
}

static void
add_index_array (JsonBuilder *b,
                 const char  *key,
                 GArray      *values)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < values->len; i++)
    json_builder_add_int_value (b, g_array_index (values, guint32, i));
  json_builder_end_array (b);
}

/* ------------------------------------------------------------------ */
/* Records as tables of fields                                          */

/*
 * Every kind of record the JSON holds (a wait-graph node, a ready-tree
 * node, a chain, a critical-path segment, a finding) is written from one
 * table of fields: the table gives the keys and their order, and each
 * entry's writer knows where the value comes from and when it is left out.
 * A new field is one row here (and a word in ws-graph-export.h's summary
 * of the shapes, which follows these tables' order).
 */
typedef struct {
  JsonBuilder    *b;
  WsTrace        *trace;
  GHashTable     *used;        /* stack ids referred to, for "stacks" */
  gpointer        source;      /* the graph, tree or path */
  const gboolean *anomalous;   /* ready tree: nodes on the anomalous chain */
} Out;

typedef void (*FieldWriter) (Out          *o,
                             const char   *key,
                             gconstpointer record,
                             guint         index);

typedef struct {
  const char  *key;      /* a thread's fields: the prefix of "tid" and "thread" */
  FieldWriter  write;
} Field;

static void
add_record (Out          *o,
            const Field  *fields,
            guint         n_fields,
            gconstpointer record,
            guint         index)
{
  json_builder_begin_object (o->b);
  for (guint f = 0; f < n_fields; f++)
    fields[f].write (o, fields[f].key, record, index);
  json_builder_end_object (o->b);
}

static void
add_index_or_null (JsonBuilder *b,
                   const char  *key,
                   guint32      value)
{
  json_builder_set_member_name (b, key);
  if (value != WS_NONE)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* One line per field: FIELD (writer name, record type, statement using
 * o, key, r (the record) and i (its index)). */
#define FIELD(name, Type, ...)                                                  \
  static void                                                                   \
  name (Out *o, const char *key, gconstpointer record, guint i)                 \
  {                                                                             \
    G_GNUC_UNUSED const Type *r = record;                                       \
    (void) i;                                                                   \
    __VA_ARGS__;                                                                \
  }

/* Wait-graph nodes. */
FIELD (wn_id,           WsWaitNode, add_int (o->b, key, i))
FIELD (wn_kind,         WsWaitNode, add_string (o->b, key, ws_wait_node_kind_to_string (r->kind)))
FIELD (wn_event,        WsWaitNode, add_index_or_null (o->b, key, r->event))
FIELD (wn_thread,       WsWaitNode, add_thread (o->b, o->trace, key, r->thread))
FIELD (wn_time,         WsWaitNode, add_int (o->b, key, r->time))
FIELD (wn_duration,     WsWaitNode, add_int (o->b, key, r->duration))
FIELD (wn_duration_ms,  WsWaitNode, add_double (o->b, key, r->duration / 1e6))
FIELD (wn_generation,   WsWaitNode, add_int (o->b, key, r->generation))
FIELD (wn_symptom,      WsWaitNode, if (r->flags & WS_WAIT_NODE_FLAG_SYMPTOM) add_bool (o->b, key, TRUE))
FIELD (wn_sample,       WsWaitNode, if (r->kind == WS_WAIT_NODE_RUN)
                                      add_bool (o->b, key, (r->flags & WS_WAIT_NODE_FLAG_SAMPLE) != 0))
FIELD (wn_wake,         WsWaitNode, if (r->kind == WS_WAIT_NODE_WAIT)
                                      add_string (o->b, key, ws_wake_kind_to_string (r->wake)))
FIELD (wn_lock,         WsWaitNode, if (r->kind == WS_WAIT_NODE_WAIT)
                                      add_bool (o->b, key, (r->flags & WS_WAIT_NODE_FLAG_LOCK) != 0))
FIELD (wn_readier,      WsWaitNode, if (r->kind == WS_WAIT_NODE_WAIT)
                                      add_thread (o->b, o->trace, key, r->readier_thread))
FIELD (wn_stack,        WsWaitNode, add_stack_ref (o->b, o->used, key, r->stack))
FIELD (wn_unwait_stack, WsWaitNode, if (r->kind == WS_WAIT_NODE_WAIT)
                                      add_stack_ref (o->b, o->used, key, r->unwait_stack))

static const Field wait_node_fields[] = {
  { "id", wn_id }, { "kind", wn_kind }, { "event", wn_event }, { "", wn_thread },
  { "time", wn_time }, { "duration", wn_duration }, { "duration_ms", wn_duration_ms },
  { "generation", wn_generation }, { "symptom", wn_symptom }, { "sample", wn_sample },
  { "wake", wn_wake }, { "lock", wn_lock }, { "readier_", wn_readier },
  { "stack", wn_stack }, { "unwait_stack", wn_unwait_stack },
};

FIELD (we_from, WsWaitEdge, add_int (o->b, key, r->from))
FIELD (we_to,   WsWaitEdge, add_int (o->b, key, r->to))

static const Field wait_edge_fields[] = {
  { "from", we_from }, { "to", we_to },
};

/* What ended a ready-tree node's wait in the glossary's words (as `why`
 * and the critical path say it), or null when a thread did. */
static const char *
ready_node_ended (WsTrace           *trace,
                  const WsReadyNode *r)
{
  const WsEvent *e = ws_trace_get_event (trace, r->event);
  WsWakeWord word;

  if (e->flags & WS_EVENT_FLAG_UNFINISHED)
    return NULL;
  if (!ws_wake_word_for_kind (r->wake, (e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) ? 'D' : e->state, &word))
    return NULL;
  return ws_wake_word_phrase (word);
}

static void
add_ended (JsonBuilder       *b,
           const char        *key,
           WsTrace           *trace,
           const WsReadyNode *r)
{
  const char *ended = ready_node_ended (trace, r);

  json_builder_set_member_name (b, key);
  if (ended != NULL)
    json_builder_add_string_value (b, ended);
  else
    json_builder_add_null_value (b);
}

/* Ready-tree nodes. */
FIELD (rn_id,           WsReadyNode, add_int (o->b, key, i))
FIELD (rn_parent,       WsReadyNode, add_index_or_null (o->b, key, r->parent))
FIELD (rn_depth,        WsReadyNode, add_int (o->b, key, r->depth))
FIELD (rn_event,        WsReadyNode, add_int (o->b, key, r->event))
FIELD (rn_thread,       WsReadyNode, add_thread (o->b, o->trace, key, r->thread))
FIELD (rn_time,         WsReadyNode, add_int (o->b, key, r->time))
FIELD (rn_duration,     WsReadyNode, add_int (o->b, key, r->duration))
FIELD (rn_duration_ms,  WsReadyNode, add_double (o->b, key, r->duration / 1e6))
FIELD (rn_wake,         WsReadyNode, add_string (o->b, key, ws_wake_kind_to_string (r->wake)))
FIELD (rn_stop,         WsReadyNode, add_string (o->b, key, ws_ready_stop_to_string (r->stop)))
FIELD (rn_ended,        WsReadyNode, add_ended (o->b, key, o->trace, r))
FIELD (rn_lock_related, WsReadyNode, add_bool (o->b, key, r->lock_related))
FIELD (rn_readier,      WsReadyNode, add_thread (o->b, o->trace, key, r->readier_thread))
FIELD (rn_anomalous,    WsReadyNode, add_bool (o->b, key, o->anomalous[i]))
FIELD (rn_stack,        WsReadyNode, add_stack_ref (o->b, o->used, key, r->stack))
FIELD (rn_unwait_stack, WsReadyNode, add_stack_ref (o->b, o->used, key, r->unwait_stack))

static const Field ready_node_fields[] = {
  { "id", rn_id }, { "parent", rn_parent }, { "depth", rn_depth }, { "event", rn_event },
  { "", rn_thread }, { "time", rn_time }, { "duration", rn_duration },
  { "duration_ms", rn_duration_ms }, { "wake", rn_wake }, { "stop", rn_stop }, { "ended", rn_ended },
  { "lock_related", rn_lock_related }, { "readier_", rn_readier }, { "anomalous", rn_anomalous },
  { "stack", rn_stack }, { "unwait_stack", rn_unwait_stack },
};

/* Chains: the record is the chain's WsChainMetrics, @i the chain. */
static void
chain_nodes (Out          *o,
             const char   *key,
             gconstpointer record,
             guint         i)
{
  g_autofree guint32 *nodes = NULL;
  guint n = 0;

  nodes = ws_ready_tree_get_chain (o->source, i, &n);
  json_builder_set_member_name (o->b, key);
  json_builder_begin_array (o->b);
  for (guint k = 0; k < n; k++)
    json_builder_add_int_value (o->b, nodes[k]);
  json_builder_end_array (o->b);
}

FIELD (ch_leaf,    WsChainMetrics, add_int (o->b, key, ws_ready_tree_get_chain_leaf (o->source, i)))
FIELD (ch_count,   WsChainMetrics, add_int (o->b, key, r->count))
FIELD (ch_total,   WsChainMetrics, add_int (o->b, key, r->total))
FIELD (ch_max,     WsChainMetrics, add_int (o->b, key, r->max))
FIELD (ch_average, WsChainMetrics, add_double (o->b, key, r->average))
FIELD (ch_median,  WsChainMetrics, add_double (o->b, key, r->median))

static const Field chain_fields[] = {
  { "leaf", ch_leaf }, { "nodes", chain_nodes }, { "count", ch_count }, { "total", ch_total },
  { "max", ch_max }, { "average", ch_average }, { "median", ch_median },
};

/* Critical-path segments. */
FIELD (cs_thread,       WsCriticalSegment, add_thread (o->b, o->trace, key, r->thread))
FIELD (cs_start,        WsCriticalSegment, add_int (o->b, key, r->start))
FIELD (cs_end,          WsCriticalSegment, add_int (o->b, key, r->end))
FIELD (cs_duration_ms,  WsCriticalSegment, add_double (o->b, key, (r->end - r->start) / 1e6))
FIELD (cs_state,        WsCriticalSegment, add_string (o->b, key, ws_critical_state_to_string (r->state)))
FIELD (cs_label,        WsCriticalSegment, add_string (o->b, key, ws_critical_path_segment_label (o->source, i)))
FIELD (cs_depth,        WsCriticalSegment, add_int (o->b, key, r->depth))
FIELD (cs_event,        WsCriticalSegment, if (r->event != WS_NONE) add_int (o->b, key, r->event))
FIELD (cs_on_behalf_of, WsCriticalSegment, if (r->on_behalf_of != WS_NONE) add_int (o->b, key, r->on_behalf_of))

static const Field segment_fields[] = {
  { "", cs_thread }, { "start", cs_start }, { "end", cs_end }, { "duration_ms", cs_duration_ms },
  { "state", cs_state }, { "label", cs_label }, { "depth", cs_depth }, { "event", cs_event }, { "on_behalf_of", cs_on_behalf_of },
};

/* Inspector findings. */
static void
finding_processes (Out          *o,
                   const char   *key,
                   gconstpointer record,
                   guint         i)
{
  const WsFinding *f = record;

  json_builder_set_member_name (o->b, key);
  json_builder_begin_array (o->b);
  for (guint p = 0; p < f->processes->len; p++)
    {
      const WsProcess *proc = ws_trace_get_process (o->trace, g_array_index (f->processes, guint32, p));
      json_builder_begin_object (o->b);
      add_int (o->b, "pid", proc->pid);
      add_string (o->b, "name", proc->name);
      json_builder_end_object (o->b);
    }
  json_builder_end_array (o->b);
}

static void
finding_threads (Out          *o,
                 const char   *key,
                 gconstpointer record,
                 guint         i)
{
  const WsFinding *f = record;

  json_builder_set_member_name (o->b, key);
  json_builder_begin_array (o->b);
  for (guint t = 0; t < f->threads->len; t++)
    {
      json_builder_begin_object (o->b);
      add_thread (o->b, o->trace, "", g_array_index (f->threads, guint32, t));
      json_builder_end_object (o->b);
    }
  json_builder_end_array (o->b);
}

FIELD (fi_kind,     WsFinding, add_string (o->b, key, ws_finding_kind_to_string (r->kind)))
FIELD (fi_severity, WsFinding, add_string (o->b, key, ws_severity_to_string (r->severity)))
FIELD (fi_message,  WsFinding, add_string (o->b, key, r->message))
FIELD (fi_count,    WsFinding, add_int (o->b, key, r->count))
FIELD (fi_cost,     WsFinding, add_int (o->b, key, r->cost))
FIELD (fi_cost_ms,  WsFinding, add_double (o->b, key, r->cost / 1e6))
FIELD (fi_events,   WsFinding, add_index_array (o->b, key, r->events))

static const Field finding_fields[] = {
  { "kind", fi_kind }, { "severity", fi_severity }, { "message", fi_message },
  { "count", fi_count }, { "cost", fi_cost }, { "cost_ms", fi_cost_ms },
  { "processes", finding_processes }, { "threads", finding_threads }, { "events", fi_events },
};

#undef FIELD

/**
 * ws_graph_export_wait_graph_json:
 *
 * Returns: (transfer full): the graph as JSON (see the header)
 */
JsonNode *
ws_graph_export_wait_graph_json (WsWaitGraph *graph)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GHashTable) used = g_hash_table_new (g_direct_hash, g_direct_equal);
  WsTrace *trace;
  guint n_nodes, n_edges;
  Out o;

  g_return_val_if_fail (WS_IS_WAIT_GRAPH (graph), NULL);

  trace = ws_wait_graph_get_trace (graph);
  n_nodes = ws_wait_graph_get_n_nodes (graph);
  n_edges = ws_wait_graph_get_n_edges (graph);
  o = (Out) { .b = b, .trace = trace, .used = used, .source = graph };

  json_builder_begin_object (b);
  add_string (b, "trace", ws_trace_get_name (trace));
  add_symptom (b, trace, ws_wait_graph_get_symptom (graph));
  add_int (b, "n_nodes", n_nodes);
  add_int (b, "n_edges", n_edges);
  add_int (b, "n_threads", ws_wait_graph_get_n_threads (graph));
  add_int (b, "n_generations", ws_wait_graph_get_n_generations (graph));

  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_nodes; i++)
    add_record (&o, wait_node_fields, G_N_ELEMENTS (wait_node_fields), ws_wait_graph_get_node (graph, i), i);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "edges");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_edges; i++)
    add_record (&o, wait_edge_fields, G_N_ELEMENTS (wait_edge_fields), ws_wait_graph_get_edge (graph, i), i);
  json_builder_end_array (b);
  add_stacks (b, trace, used);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}

/* A DOT double-quoted string body: escape quotes and backslashes. */
static void
append_dot_escaped (GString    *out,
                    const char *s)
{
  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (out, '\\');
      if (*s == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *s);
    }
}

/* Human units for labels: hand-built traces have ns, real ones ms. */
static char *
format_duration (WsTime ns)
{
  if (ns < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  if (ns < 1000000000)
    return g_strdup_printf ("%.3f ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

static char *
thread_label (WsTrace *trace,
              guint32  thread)
{
  const WsThread *t;

  if (thread == WS_NONE || thread >= ws_trace_get_n_threads (trace))
    return g_strdup ("?");
  t = ws_trace_get_thread (trace, thread);
  return g_strdup_printf ("%s (%d)", t->name, t->tid);
}

/* The frame that says what a wait is about, for a one-line label: the
 * innermost lock-related frame (futex_wait, io_schedule, ProcSleep…), else
 * the innermost frame that is not the scheduler itself. */
static const char *
telling_function (WsTrace   *trace,
                  WsStackId  stack)
{
  static const char * const boring[] = { "__schedule", "schedule", "[unknown]", NULL };
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();
  WsStackTable *table = ws_trace_get_stack_table (trace);
  const WsFrameId *frames;
  const char *fallback = NULL;
  guint n = 0;

  if (stack == WS_STACK_EMPTY)
    return NULL;
  frames = ws_stack_table_get_stack (table, stack, &n);
  for (guint i = n; i > 0; i--)
    {
      const char *function = ws_stack_table_get_frame (table, frames[i - 1])->function;

      if (ws_frame_classifier_match (classifier, WS_FRAME_CATEGORY_LOCK, function))
        return function;
      if (fallback == NULL && !g_strv_contains (boring, function))
        fallback = function;
    }
  return fallback;
}

/**
 * ws_graph_export_wait_graph_dot:
 *
 * Returns: (transfer full): Graphviz DOT text; waits dashed, the symptom
 *   thread's nodes bold, hardware/unknown readiers as grey ellipses
 */
char *
ws_graph_export_wait_graph_dot (WsWaitGraph *graph)
{
  GString *out;
  WsTrace *trace;
  guint n_nodes, n_edges;

  g_return_val_if_fail (WS_IS_WAIT_GRAPH (graph), NULL);

  trace = ws_wait_graph_get_trace (graph);
  n_nodes = ws_wait_graph_get_n_nodes (graph);
  n_edges = ws_wait_graph_get_n_edges (graph);

  out = g_string_new ("digraph wait_graph {\n"
                      "  rankdir=LR;\n"
                      "  node [shape=box, fontname=\"Sans\", fontsize=10];\n");
  for (guint i = 0; i < n_nodes; i++)
    {
      const WsWaitNode *n = ws_wait_graph_get_node (graph, i);
      g_autofree char *who = thread_label (trace, n->thread);
      g_autofree char *label = NULL;
      g_autofree char *d = format_duration (n->duration);
      const char *style;

      switch (n->kind)
        {
        case WS_WAIT_NODE_RUN:
          label = g_strdup_printf ("%s\nrun %s", who, d);
          style = "solid";
          break;
        case WS_WAIT_NODE_WAIT:
          {
            const char *leaf = telling_function (trace, n->stack);
            label = g_strdup_printf ("%s\nwait %s%s%s%s", who, d,
                                     leaf ? "\n" : "", leaf ? leaf : "",
                                     n->flags & WS_WAIT_NODE_FLAG_LOCK ? "\n[lock]" : "");
            style = "dashed";
          }
          break;
        case WS_WAIT_NODE_HW_SERVICE:
          label = g_strdup (ws_wake_word_phrase (WS_WAKE_WORD_INTERRUPT));
          style = "filled";
          break;
        case WS_WAIT_NODE_UNKNOWN_READIER:
        default:
          label = g_strdup (ws_wake_word_phrase (WS_WAKE_WORD_UNKNOWN));
          style = "filled";
          break;
        }

      g_string_append_printf (out, "  n%u [label=\"", i);
      append_dot_escaped (out, label);
      g_string_append_printf (out, "\", style=\"%s%s\"%s];\n", style,
                              n->flags & WS_WAIT_NODE_FLAG_SYMPTOM ? ",bold" : "",
                              n->kind >= WS_WAIT_NODE_HW_SERVICE ? ", shape=ellipse, fillcolor=grey85" : "");
    }
  for (guint i = 0; i < n_edges; i++)
    {
      const WsWaitEdge *e = ws_wait_graph_get_edge (graph, i);
      g_string_append_printf (out, "  n%u -> n%u;\n", e->from, e->to);
    }
  g_string_append (out, "}\n");

  return g_string_free (out, FALSE);
}

static gboolean *
anomalous_nodes (WsReadyTree   *tree,
                 WsChainMetric  metric,
                 guint         *chain)
{
  gboolean *on = g_new0 (gboolean, MAX (ws_ready_tree_get_n_nodes (tree), 1));
  g_autofree guint32 *nodes = NULL;
  guint n = 0;

  *chain = ws_ready_tree_anomalous_chain (tree, metric);
  if (*chain == WS_NONE)
    return on;
  nodes = ws_ready_tree_get_chain (tree, *chain, &n);
  for (guint i = 0; i < n; i++)
    on[nodes[i]] = TRUE;
  return on;
}

/**
 * ws_graph_export_ready_tree_json:
 * @metric: the chain metric that picks the anomalous chain
 *
 * Returns: (transfer full): the tree as JSON (see the header)
 */
JsonNode *
ws_graph_export_ready_tree_json (WsReadyTree   *tree,
                                 WsChainMetric  metric)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GHashTable) used = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree gboolean *anomalous = NULL;
  WsTrace *trace;
  guint chain, n_nodes, n_chains;
  Out o;

  g_return_val_if_fail (WS_IS_READY_TREE (tree), NULL);
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);

  trace = ws_ready_tree_get_trace (tree);
  n_nodes = ws_ready_tree_get_n_nodes (tree);
  n_chains = ws_ready_tree_get_n_chains (tree);
  anomalous = anomalous_nodes (tree, metric, &chain);
  o = (Out) { .b = b, .trace = trace, .used = used, .source = tree, .anomalous = anomalous };

  json_builder_begin_object (b);
  add_string (b, "trace", ws_trace_get_name (trace));
  add_string (b, "metric", ws_chain_metric_to_string (metric));
  add_index_or_null (b, "anomalous_chain", chain);
  add_int (b, "n_nodes", n_nodes);
  add_int (b, "max_depth", ws_ready_tree_get_max_depth (tree));

  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_nodes; i++)
    add_record (&o, ready_node_fields, G_N_ELEMENTS (ready_node_fields), ws_ready_tree_get_node (tree, i), i);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "chains");
  json_builder_begin_array (b);
  for (guint c = 0; c < n_chains; c++)
    {
      WsChainMetrics m;

      ws_ready_tree_get_chain_metrics (tree, c, &m);
      add_record (&o, chain_fields, G_N_ELEMENTS (chain_fields), &m, c);
    }
  json_builder_end_array (b);
  add_stacks (b, trace, used);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}

/**
 * ws_graph_export_ready_tree_dot:
 *
 * Returns: (transfer full): Graphviz DOT text: parent → child ("was
 *   delayed by"), the anomalous chain in red, each leaf's stop reason, and
 *   for leaves whose readier ran, the readier as a plain box
 */
char *
ws_graph_export_ready_tree_dot (WsReadyTree   *tree,
                                WsChainMetric  metric)
{
  g_autofree gboolean *anomalous = NULL;
  GString *out;
  WsTrace *trace;
  guint chain, n_nodes;

  g_return_val_if_fail (WS_IS_READY_TREE (tree), NULL);
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);

  trace = ws_ready_tree_get_trace (tree);
  n_nodes = ws_ready_tree_get_n_nodes (tree);
  anomalous = anomalous_nodes (tree, metric, &chain);

  out = g_string_new ("digraph ready_tree {\n"
                      "  rankdir=LR;\n"
                      "  node [shape=box, style=dashed, fontname=\"Sans\", fontsize=10];\n");
  for (guint i = 0; i < n_nodes; i++)
    {
      const WsReadyNode *n = ws_ready_tree_get_node (tree, i);
      g_autofree char *who = thread_label (trace, n->thread);
      const char *leaf = telling_function (trace, n->stack);
      g_autofree char *d = format_duration (n->duration);
      const char *ended = ready_node_ended (trace, n);
      /* a leaf no thread woke says what ended it in the glossary's words */
      const char *stop = ended != NULL ? ended : n->stop != WS_READY_STOP_NONE ? ws_ready_stop_to_string (n->stop) : NULL;
      g_autofree char *label = g_strdup_printf ("%s\nwait %s%s%s%s%s", who, d,
                                                leaf ? "\n" : "", leaf ? leaf : "",
                                                stop ? "\n" : "", stop ? stop : "");

      g_string_append_printf (out, "  n%u [label=\"", i);
      append_dot_escaped (out, label);
      g_string_append_printf (out, "\"%s];\n", anomalous[i] ? ", color=red, fontcolor=red, penwidth=2" : "");
      if (n->parent != WS_NONE)
        g_string_append_printf (out, "  n%u -> n%u%s;\n", n->parent, i,
                                anomalous[i] && anomalous[n->parent] ? " [color=red, penwidth=2]" : "");
      if (n->stop == WS_READY_STOP_READIER_RAN && n->readier_thread != WS_NONE)
        {
          g_autofree char *readier = thread_label (trace, n->readier_thread);
          g_autofree char *rlabel = g_strdup_printf (_("%s\nran and readied it"), readier);

          g_string_append_printf (out, "  r%u [style=solid, label=\"", i);
          append_dot_escaped (out, rlabel);
          g_string_append_printf (out, "\"%s];\n  n%u -> r%u%s;\n",
                                  anomalous[i] ? ", color=red, fontcolor=red" : "", i, i,
                                  anomalous[i] ? " [color=red, penwidth=2]" : "");
        }
    }
  g_string_append (out, "}\n");

  return g_string_free (out, FALSE);
}

/**
 * ws_graph_export_critical_path_json:
 *
 * Returns: (transfer full): the path as JSON (see the header)
 */
JsonNode *
ws_graph_export_critical_path_json (WsCriticalPath *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  WsTrace *trace;
  guint n;
  Out o;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), NULL);

  trace = ws_critical_path_get_trace (path);
  n = ws_critical_path_get_n_segments (path);
  o = (Out) { .b = b, .trace = trace, .source = path };

  json_builder_begin_object (b);
  add_string (b, "trace", ws_trace_get_name (trace));
  add_symptom (b, trace, ws_critical_path_get_symptom (path));
  add_int (b, "n_segments", n);

  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *s = ws_critical_path_get_segment (path, i);

      add_record (&o, segment_fields, G_N_ELEMENTS (segment_fields), s, i);
      if (!g_hash_table_contains (seen, GUINT_TO_POINTER (s->thread)))
        {
          g_hash_table_add (seen, GUINT_TO_POINTER (s->thread));
          g_array_append_val (threads, s->thread);
        }
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "by_thread");
  json_builder_begin_array (b);
  for (guint i = 0; i < threads->len; i++)
    {
      guint32 t = g_array_index (threads, guint32, i);
      WsTime time = ws_critical_path_get_thread_time (path, t);

      json_builder_begin_object (b);
      add_thread (b, trace, "", t);
      add_int (b, "time", time);
      add_double (b, "time_ms", time / 1e6);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "by_state");
  json_builder_begin_object (b);
  for (guint s = 0; s < WS_N_CRITICAL_STATES; s++)
    add_int (b, ws_critical_state_to_string (s), ws_critical_path_get_state_time (path, s));
  json_builder_end_object (b);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}

/**
 * ws_graph_export_critical_path_dot:
 *
 * Returns: (transfer full): the segments as a left-to-right chain, one
 *   cluster-free node per segment, jumps to readiers drawn in blue
 */
char *
ws_graph_export_critical_path_dot (WsCriticalPath *path)
{
  GString *out;
  WsTrace *trace;
  guint n;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), NULL);

  trace = ws_critical_path_get_trace (path);
  n = ws_critical_path_get_n_segments (path);

  out = g_string_new ("digraph critical_path {\n"
                      "  rankdir=LR;\n"
                      "  node [shape=box, fontname=\"Sans\", fontsize=10];\n");
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *s = ws_critical_path_get_segment (path, i);
      g_autofree char *who = thread_label (trace, s->thread);
      g_autofree char *d = format_duration (s->end - s->start);
      g_autofree char *label = g_strdup_printf ("%s\n%s %s", who,
                                                ws_critical_state_to_string (s->state), d);

      g_string_append_printf (out, "  s%u [label=\"", i);
      append_dot_escaped (out, label);
      g_string_append_printf (out, "\", style=\"%s\"];\n",
                              s->state == WS_CRITICAL_RUNNING ? "solid" : "dashed");
      if (i > 0)
        {
          const WsCriticalSegment *prev = ws_critical_path_get_segment (path, i - 1);
          g_string_append_printf (out, "  s%u -> s%u%s;\n", i - 1, i,
                                  prev->thread != s->thread ? " [color=blue]" : "");
        }
    }
  g_string_append (out, "}\n");

  return g_string_free (out, FALSE);
}

/**
 * ws_graph_export_findings_json:
 * @findings: (element-type WsFinding): inspector findings
 *
 * Returns: (transfer full): a JSON array
 */
JsonNode *
ws_graph_export_findings_json (WsTrace   *trace,
                               GPtrArray *findings)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  Out o;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (findings != NULL, NULL);

  o = (Out) { .b = b, .trace = trace };
  json_builder_begin_array (b);
  for (guint i = 0; i < findings->len; i++)
    add_record (&o, finding_fields, G_N_ELEMENTS (finding_fields), g_ptr_array_index (findings, i), i);
  json_builder_end_array (b);

  return json_builder_get_root (b);
}

/**
 * ws_graph_export_json_to_string:
 *
 * Returns: (transfer full): pretty-printed JSON text ending with a newline
 */
char *
ws_graph_export_json_to_string (JsonNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);

  return ws_json_text_from_node (node);
}
