/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The inspector of the macOS dependency-graph draft, for wait graphs:
 * a wait graph is only as good as its links.  Over-connections (a daemon or
 * a heartbeat thread joining work of unrelated processes, or an interrupt
 * blamed on the thread it interrupted) make the graph too big; waits whose
 * wake-up was never recorded make it too small.  Both are reported, never
 * silently "fixed".
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-inspector.h"

G_DEFINE_BOXED_TYPE (WsFinding, ws_finding, ws_finding_copy, ws_finding_free)

static WsFinding *
finding_new (WsFindingKind kind,
             WsSeverity    severity)
{
  WsFinding *f = g_new0 (WsFinding, 1);

  f->kind = kind;
  f->severity = severity;
  f->processes = g_array_new (FALSE, FALSE, sizeof (guint32));
  f->threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  f->events = g_array_new (FALSE, FALSE, sizeof (guint32));
  return f;
}

static GArray *
copy_array (GArray *a)
{
  GArray *b = g_array_sized_new (FALSE, FALSE, sizeof (guint32), a->len);
  g_array_append_vals (b, a->data, a->len);
  return b;
}

WsFinding *
ws_finding_copy (const WsFinding *finding)
{
  WsFinding *f;

  g_return_val_if_fail (finding != NULL, NULL);

  f = g_new0 (WsFinding, 1);
  *f = *finding;
  f->message = g_strdup (finding->message);
  f->processes = copy_array (finding->processes);
  f->threads = copy_array (finding->threads);
  f->events = copy_array (finding->events);
  return f;
}

void
ws_finding_free (WsFinding *finding)
{
  if (finding == NULL)
    return;
  g_free (finding->message);
  g_array_unref (finding->processes);
  g_array_unref (finding->threads);
  g_array_unref (finding->events);
  g_free (finding);
}

void
ws_inspector_options_init (WsInspectorOptions *options)
{
  g_return_if_fail (options != NULL);

  options->classifier = NULL;
  options->top_n = 10;
  options->under_warning_ratio = 0.10;
}

/* Union-find over small integer ids. */
static guint
uf_find (guint *parent,
         guint  x)
{
  while (parent[x] != x)
    {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
  return x;
}

static void
uf_union (guint *parent,
          guint  a,
          guint  b)
{
  a = uf_find (parent, a);
  b = uf_find (parent, b);
  if (a != b)
    parent[MAX (a, b)] = MIN (a, b);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static void
sort_unique (GArray *a)
{
  guint j = 0;

  g_array_sort (a, compare_u32);
  for (guint i = 0; i < a->len; i++)
    if (j == 0 || g_array_index (a, guint32, i) != g_array_index (a, guint32, j - 1))
      g_array_index (a, guint32, j++) = g_array_index (a, guint32, i);
  g_array_set_size (a, j);
}

static char *
describe_thread (WsTrace *trace,
                 guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  return g_strdup_printf ("%s (%d)", t->name, t->tid);
}

static char *
describe_process (WsTrace *trace,
                  guint    process)
{
  const WsProcess *p = ws_trace_get_process (trace, process);
  return g_strdup_printf ("%s (%d)", p->name ? p->name : "?", p->pid);
}

static WsTime
sum_wait_costs (WsTrace *trace,
                GArray  *waits)
{
  WsTime total = 0;

  for (guint i = 0; i < waits->len; i++)
    total += MAX (ws_event_duration (ws_trace_get_event (trace, g_array_index (waits, guint32, i))), 0);
  return total;
}

static int
compare_findings (gconstpointer a,
                  gconstpointer b)
{
  const WsFinding *x = *(const WsFinding * const *) a;
  const WsFinding *y = *(const WsFinding * const *) b;

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return 0;
}

/* Hash-table keys are small integers: sort them for a stable output order. */
static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  guint x = GPOINTER_TO_UINT (a), y = GPOINTER_TO_UINT (b);
  return x < y ? -1 : x > y;
}

static int
compare_wait_longest_first (gconstpointer a,
                            gconstpointer b,
                            gpointer      user_data)
{
  WsTrace *trace = user_data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  WsTime dx = ws_event_duration (ws_trace_get_event (trace, x));
  WsTime dy = ws_event_duration (ws_trace_get_event (trace, y));

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* One UNDER_CONNECTION finding for @unknown (WAIT events, any order). */
static WsFinding *
under_connection (WsTrace                  *trace,
                  GArray                   *unknown,
                  WsTime                    total_wait,
                  const WsInspectorOptions *options)
{
  WsFinding *f;
  WsTime cost;
  g_autofree char *ms = NULL;

  if (unknown->len == 0)
    return NULL;

  cost = sum_wait_costs (trace, unknown);
  f = finding_new (WS_FINDING_UNDER_CONNECTION,
                   total_wait > 0 && (double) cost >= options->under_warning_ratio * (double) total_wait
                   ? WS_SEVERITY_WARNING : WS_SEVERITY_INFO);
  f->count = unknown->len;
  f->cost = cost;

  g_array_sort_with_data (unknown, compare_wait_longest_first, trace);
  g_array_append_vals (f->events, unknown->data, MIN (unknown->len, options->top_n));
  for (guint i = 0; i < f->events->len; i++)
    {
      guint32 thread = ws_trace_get_event (trace, g_array_index (f->events, guint32, i))->thread;
      g_array_append_val (f->threads, thread);
    }
  sort_unique (f->threads);

  ms = cost >= 10000000000 ? g_strdup_printf ("%.3f s", cost / 1e9) : g_strdup_printf ("%.3f ms", cost / 1e6);
  f->message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u wait (%s, %.1f %% of the wait time) has no recorded readier: a link is missing",
                                             "%u waits (%s, %.1f %% of the wait time) have no recorded readier: links are missing",
                                             unknown->len),
                                unknown->len, ms,
                                total_wait > 0 ? 100.0 * cost / total_wait : 0.0);
  return f;
}

/* INTERRUPT_READIER findings, one per interrupted thread, for @waits. */
static void
interrupt_readiers (WsTrace   *trace,
                    GArray    *waits,
                    GPtrArray *out)
{
  g_autoptr(GHashTable) by_thread = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                           (GDestroyNotify) g_array_unref);
  g_autoptr(GList) keys = NULL;

  for (guint i = 0; i < waits->len; i++)
    {
      guint32 w = g_array_index (waits, guint32, i);
      guint32 readier = ws_trace_get_event (trace, ws_trace_get_event (trace, w)->peer)->thread;
      GArray *list = g_hash_table_lookup (by_thread, GUINT_TO_POINTER (readier));

      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (by_thread, GUINT_TO_POINTER (readier), list);
        }
      g_array_append_val (list, w);
    }

  keys = g_hash_table_get_keys (by_thread);
  keys = g_list_sort (keys, compare_keys);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      guint32 thread = GPOINTER_TO_UINT (l->data);
      GArray *list = g_hash_table_lookup (by_thread, l->data);
      WsFinding *f = finding_new (WS_FINDING_INTERRUPT_READIER, WS_SEVERITY_WARNING);
      g_autofree char *who = describe_thread (trace, thread);

      g_array_append_val (f->threads, thread);
      g_array_append_vals (f->events, list->data, list->len);
      sort_unique (f->events);
      f->count = f->events->len;
      f->cost = sum_wait_costs (trace, f->events);
      f->message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%u wake-up recorded in thread %s came from timer or interrupt context: that thread is not its readier",
                                                 "%u wake-ups recorded in thread %s came from timer or interrupt context: that thread is not their readier",
                                                 f->count),
                                    f->count, who);
      g_ptr_array_add (out, f);
    }
}

static gboolean
is_interrupt_in_thread_context (WsTrace *trace,
                                guint    wait,
                                guint8   wake)
{
  const WsEvent *w = ws_trace_get_event (trace, wait);

  return (wake == WS_WAKE_TIMER || wake == WS_WAKE_INTERRUPT) &&
         w->peer != WS_NONE && ws_trace_get_event (trace, w->peer)->kind == WS_EVENT_UNWAIT;
}

/* The wait graph's threads, grouped for the over-connection check.
 * Entities: processes 0..n_processes-1 (an ordinary thread stands for its
 * process), then one per noise (daemon or heartbeat) thread. */
typedef struct {
  WsTrace           *trace;
  WsFrameClassifier *classifier;
  guint              n_threads;
  guint              n_processes;
  guint             *groups;      /* union-find: related non-noise entities */
  guint             *noise_sets;  /* union-find: connected noise threads */
  guint8            *noise;       /* per thread: 0 unknown, 1 no, 2 yes */
  guint8            *present;     /* per thread: appears in the graph */
  GArray            *bridges;     /* (noise thread, group entity, wait event) triples */
} Connections;

static void
connections_init (Connections       *c,
                  WsTrace           *trace,
                  WsFrameClassifier *classifier)
{
  guint n_ids;

  c->trace = trace;
  c->classifier = classifier;
  c->n_threads = ws_trace_get_n_threads (trace);
  c->n_processes = ws_trace_get_n_processes (trace);
  n_ids = c->n_processes + c->n_threads;
  c->groups = g_new (guint, MAX (n_ids, 1));
  c->noise_sets = g_new (guint, MAX (n_ids, 1));
  for (guint i = 0; i < n_ids; i++)
    c->groups[i] = c->noise_sets[i] = i;
  c->noise = g_new0 (guint8, MAX (c->n_threads, 1));
  c->present = g_new0 (guint8, MAX (c->n_threads, 1));
  c->bridges = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
connections_clear (Connections *c)
{
  g_free (c->groups);
  g_free (c->noise_sets);
  g_free (c->noise);
  g_free (c->present);
  g_array_unref (c->bridges);
}

/* Classified once per thread, on first use. */
static gboolean
is_noise (Connections *c,
          guint        th)
{
  if (c->noise[th] == 0)
    {
      guint process = ws_trace_get_thread (c->trace, th)->process;
      gboolean noise = ws_frame_classifier_is_heartbeat_thread (c->classifier, c->trace, th) ||
                       ws_frame_classifier_is_daemon_process (c->classifier, c->trace, process);
      c->noise[th] = noise ? 2 : 1;
    }
  return c->noise[th] == 2;
}

static guint
entity (Connections *c,
        guint        th)
{
  return is_noise (c, th) ? c->n_processes + th : ws_trace_get_thread (c->trace, th)->process;
}

/* Marks the threads present, adds up the wait cost in @total_wait and
 * sorts out the waits with no readier and those blamed on an interrupted
 * thread.  FALSE once @loop is cancelled. */
static gboolean
scan_waits (Connections      *c,
            const WsWaitNode *nodes,
            guint             n_nodes,
            GArray           *unknown,
            GArray           *interrupted,
            WsTime           *total_wait,
            WsProgressLoop   *loop,
            GError          **error)
{
  *total_wait = 0;
  for (guint i = 0; i < n_nodes; i++)
    {
      const WsWaitNode *n = &nodes[i];

      if (!ws_progress_loop_step (loop, (double) i / n_nodes, error))
        return FALSE;
      if (n->kind == WS_WAIT_NODE_RUN || n->kind == WS_WAIT_NODE_WAIT)
        c->present[n->thread] = 1;
      if (n->kind != WS_WAIT_NODE_WAIT)
        continue;
      *total_wait += n->duration;
      if (n->wake == WS_WAKE_UNKNOWN)
        g_array_append_val (unknown, n->event);
      else if (is_interrupt_in_thread_context (c->trace, n->event, n->wake))
        g_array_append_val (interrupted, n->event);
    }
  return TRUE;
}

/* Edges between ordinary threads join their groups, edges between noise
 * threads their noise sets; an edge between the two is a bridge. */
static gboolean
connect_edges (Connections      *c,
               WsWaitGraph      *graph,
               const WsWaitNode *nodes,
               WsProgressLoop   *loop,
               GError          **error)
{
  guint n_edges = ws_wait_graph_get_n_edges (graph);

  for (guint e = 0; e < n_edges; e++)
    {
      const WsWaitEdge *edge = ws_wait_graph_get_edge (graph, e);
      const WsWaitNode *from = &nodes[edge->from];
      const WsWaitNode *to = &nodes[edge->to];
      gboolean from_noise, to_noise;

      if (!ws_progress_loop_step (loop, (double) e / n_edges, error))
        return FALSE;
      /* Hardware and unknown readiers connect nothing. */
      if (to->kind != WS_WAIT_NODE_RUN && to->kind != WS_WAIT_NODE_WAIT)
        continue;

      from_noise = is_noise (c, from->thread);
      to_noise = is_noise (c, to->thread);
      if (!from_noise && !to_noise)
        uf_union (c->groups, entity (c, from->thread), entity (c, to->thread));
      else if (from_noise && to_noise)
        uf_union (c->noise_sets, entity (c, from->thread), entity (c, to->thread));
      else
        {
          guint32 triple[3] = {
            from_noise ? from->thread : to->thread,
            from_noise ? entity (c, to->thread) : entity (c, from->thread),
            from->event,
          };
          g_array_append_vals (c->bridges, triple, 3);
        }
    }
  return TRUE;
}

/* Bridges by the noise set of their noise thread: set -> GArray of triples. */
static GHashTable *
bridges_by_noise_set (Connections *c)
{
  GHashTable *by_set = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                              (GDestroyNotify) g_array_unref);

  for (guint b = 0; b < c->bridges->len; b += 3)
    {
      guint32 *triple = &g_array_index (c->bridges, guint32, b);
      guint set = uf_find (c->noise_sets, c->n_processes + triple[0]);
      GArray *list = g_hash_table_lookup (by_set, GUINT_TO_POINTER (set));

      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (by_set, GUINT_TO_POINTER (set), list);
        }
      g_array_append_vals (list, triple, 3);
    }
  return by_set;
}

static gboolean
contains_u32 (GArray  *a,
              guint32  value)
{
  for (guint i = 0; i < a->len; i++)
    if (g_array_index (a, guint32, i) == value)
      return TRUE;
  return FALSE;
}

/* The processes of the joined groups that appear in the graph, and the
 * noise threads of set @set that do. */
static void
fill_over_connection (Connections *c,
                      WsFinding   *f,
                      GArray      *group_roots,
                      guint        set)
{
  for (guint th = 0; th < c->n_threads; th++)
    {
      guint32 process;

      if (!c->present[th] || is_noise (c, th))
        continue;
      process = ws_trace_get_thread (c->trace, th)->process;
      if (contains_u32 (group_roots, uf_find (c->groups, process)))
        g_array_append_val (f->processes, process);
    }
  sort_unique (f->processes);
  for (guint th = 0; th < c->n_threads; th++)
    if (c->present[th] && is_noise (c, th) && uf_find (c->noise_sets, c->n_processes + th) == set)
      g_array_append_val (f->threads, th);
}

static char *
over_connection_message (WsTrace   *trace,
                         WsFinding *f)
{
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(GString) via = g_string_new (NULL);

  for (guint p = 0; p < f->processes->len; p++)
    {
      g_autofree char *s = describe_process (trace, g_array_index (f->processes, guint32, p));
      g_string_append_printf (joined, "%s%s", p ? ", " : "", s);
    }
  for (guint t = 0; t < f->threads->len; t++)
    {
      g_autofree char *s = describe_thread (trace, g_array_index (f->threads, guint32, t));
      g_string_append_printf (via, "%s%s", t ? ", " : "", s);
    }
  return g_strdup_printf (_("Unrelated processes %s are joined only through daemon or heartbeat threads %s: suspicious over-connection"),
                          joined->str, via->str);
}

/* The finding for one connected set of noise threads, or NULL when its
 * bridges touch fewer than two groups. */
static WsFinding *
over_connection (Connections *c,
                 guint        set,
                 GArray      *list)
{
  g_autoptr(GArray) group_roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  WsFinding *f;

  for (guint b = 0; b < list->len; b += 3)
    {
      guint32 root = uf_find (c->groups, g_array_index (list, guint32, b + 1));
      g_array_append_val (group_roots, root);
    }
  sort_unique (group_roots);
  if (group_roots->len < 2)
    return NULL;

  f = finding_new (WS_FINDING_OVER_CONNECTION, WS_SEVERITY_WARNING);
  fill_over_connection (c, f, group_roots, set);
  for (guint b = 0; b < list->len; b += 3)
    g_array_append_val (f->events, g_array_index (list, guint32, b + 2));
  sort_unique (f->events);
  f->count = f->events->len;
  f->cost = sum_wait_costs (c->trace, f->events);
  f->message = over_connection_message (c->trace, f);
  return f;
}

/* One finding per connected set of noise threads touching >= 2 groups. */
static void
over_connections (Connections *c,
                  GPtrArray   *findings)
{
  g_autoptr(GHashTable) by_set = bridges_by_noise_set (c);
  g_autoptr(GList) keys = g_list_sort (g_hash_table_get_keys (by_set), compare_keys);

  for (GList *l = keys; l != NULL; l = l->next)
    {
      WsFinding *f = over_connection (c, GPOINTER_TO_UINT (l->data), g_hash_table_lookup (by_set, l->data));
      if (f != NULL)
        g_ptr_array_add (findings, f);
    }
}

/**
 * ws_inspect_wait_graph:
 *
 * See the header.
 */
GPtrArray *
ws_inspect_wait_graph (WsWaitGraph              *graph,
                       const WsInspectorOptions *options)
{
  return ws_inspect_wait_graph_full (graph, options, NULL, NULL, NULL, NULL);
}

/* The graph's nodes, then its edges: both walks check @cancellable. */
static gboolean
connect_graph (Connections      *c,
               WsWaitGraph      *graph,
               GArray           *unknown,
               GArray           *interrupted,
               WsTime           *total_wait,
               GCancellable     *cancellable,
               WsProgressFunc    progress,
               gpointer          progress_data,
               GError          **error)
{
  const WsWaitNode *nodes = ws_wait_graph_get_nodes (graph);
  WsProgressLoop loop;

  ws_progress_loop_init (&loop, cancellable, progress, progress_data, 0.5, 0.7, _("Inspecting the wait graph"));
  if (!scan_waits (c, nodes, ws_wait_graph_get_n_nodes (graph), unknown, interrupted, total_wait, &loop, error))
    return FALSE;
  ws_progress_loop_init (&loop, cancellable, progress, progress_data, 0.7, 0.95, _("Inspecting the wait graph"));
  return connect_edges (c, graph, nodes, &loop, error);
}

/**
 * ws_inspect_wait_graph_full:
 * @cancellable: (nullable): checked as the nodes and edges are walked
 * @progress: (nullable): told of the share walked (between 0.5 and 0.95
 *   of the run: the graph was built in the first half)
 *
 * As ws_inspect_wait_graph(), cancellable: %NULL with
 * %G_IO_ERROR_CANCELLED once @cancellable is cancelled.
 */
GPtrArray *
ws_inspect_wait_graph_full (WsWaitGraph              *graph,
                            const WsInspectorOptions *options,
                            GCancellable             *cancellable,
                            WsProgressFunc            progress,
                            gpointer                  progress_data,
                            GError                  **error)
{
  WsInspectorOptions defaults;
  WsFrameClassifier *classifier;
  g_autoptr(GPtrArray) findings = NULL;
  g_autoptr(GArray) unknown = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) interrupted = g_array_new (FALSE, FALSE, sizeof (guint32));
  Connections c;
  WsFinding *under;
  WsTime total_wait;
  gboolean done;

  g_return_val_if_fail (WS_IS_WAIT_GRAPH (graph), NULL);

  if (options == NULL)
    {
      ws_inspector_options_init (&defaults);
      options = &defaults;
    }
  classifier = options->classifier ? options->classifier : ws_frame_classifier_get_default ();

  findings = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  connections_init (&c, ws_wait_graph_get_trace (graph), classifier);
  done = connect_graph (&c, graph, unknown, interrupted, &total_wait, cancellable, progress, progress_data, error);
  if (done)
    over_connections (&c, findings);
  connections_clear (&c);
  if (!done)
    return NULL;

  interrupt_readiers (c.trace, interrupted, findings);
  under = under_connection (c.trace, unknown, total_wait, options);
  if (under != NULL)
    g_ptr_array_add (findings, under);

  g_ptr_array_sort (findings, compare_findings);
  return g_steal_pointer (&findings);
}

/**
 * ws_inspect_trace:
 *
 * See the header.
 */
GPtrArray *
ws_inspect_trace (WsTrace                  *trace,
                  const WsInspectorOptions *options)
{
  return ws_inspect_trace_full (trace, options, NULL, NULL, NULL, NULL);
}

/**
 * ws_inspect_trace_full:
 * @cancellable: (nullable): checked as the waits are classified
 * @progress: (nullable): told of the share of the events classified
 *   (between 0 and 0.95 of the run)
 *
 * As ws_inspect_trace(), cancellable: %NULL with %G_IO_ERROR_CANCELLED
 * once @cancellable is cancelled.
 */
GPtrArray *
ws_inspect_trace_full (WsTrace                  *trace,
                       const WsInspectorOptions *options,
                       GCancellable             *cancellable,
                       WsProgressFunc            progress,
                       gpointer                  progress_data,
                       GError                  **error)
{
  WsInspectorOptions defaults;
  WsFrameClassifier *classifier;
  g_autoptr(GPtrArray) findings = NULL;
  const WsEvent *events;
  guint n;
  g_autoptr(GArray) unknown = NULL;
  g_autoptr(GArray) interrupted = NULL;
  WsTime total_wait = 0;
  WsProgressLoop loop;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (options == NULL)
    {
      ws_inspector_options_init (&defaults);
      options = &defaults;
    }
  classifier = options->classifier ? options->classifier : ws_frame_classifier_get_default ();

  findings = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  events = ws_trace_get_events (trace);
  n = ws_trace_get_n_events (trace);
  unknown = g_array_new (FALSE, FALSE, sizeof (guint32));
  interrupted = g_array_new (FALSE, FALSE, sizeof (guint32));

  ws_progress_loop_init (&loop, cancellable, progress, progress_data, 0.0, 0.95, _("Inspecting every wait of the trace"));
  for (guint32 i = 0; i < n; i++)
    {
      WsWakeKind wake;

      if (!ws_progress_loop_step (&loop, (double) i / n, error))
        return NULL;
      if (events[i].kind != WS_EVENT_WAIT)
        continue;
      total_wait += MAX (ws_event_duration (&events[i]), 0);
      wake = ws_frame_classifier_classify_wake (classifier, trace, i, NULL);
      if (wake == WS_WAKE_UNKNOWN)
        g_array_append_val (unknown, i);
      else if (is_interrupt_in_thread_context (trace, i, wake))
        g_array_append_val (interrupted, i);
    }

  interrupt_readiers (trace, interrupted, findings);
  {
    WsFinding *f = under_connection (trace, unknown, total_wait, options);
    if (f != NULL)
      g_ptr_array_add (findings, f);
  }

  g_ptr_array_sort (findings, compare_findings);
  return g_steal_pointer (&findings);
}

const char *
ws_finding_kind_to_string (WsFindingKind kind)
{
  switch (kind)
    {
    case WS_FINDING_OVER_CONNECTION:   return "over-connection";
    case WS_FINDING_INTERRUPT_READIER: return "interrupt-readier";
    case WS_FINDING_UNDER_CONNECTION:  return "under-connection";
    default:                           return NULL;
    }
}

const char *
ws_severity_to_string (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_INFO:    return "info";
    case WS_SEVERITY_WARNING: return "warning";
    case WS_SEVERITY_ERROR:   return "error";
    default:                  return NULL;
    }
}
