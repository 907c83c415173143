/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SQL over a trace (docs/sql.md): the ten example queries of the doc,
 * read from the doc itself so that the doc cannot drift from what runs,
 * each checked on the shared traces against an answer that does not go
 * through SQL: the CLI's own JSON (`info`, `scenarios`, `readytree`) or a
 * tally computed here from the trace model.  Then the tables' row counts,
 * thread_state_spans against the timeline's own per-thread totals,
 * and what `export-sqlite` and `query` promise: an atomic write, a clear
 * error for a bad statement, no writing through a query, valid UTF-8
 * JSON whatever the bytes.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-scenario-rules.h"
#include "ws-timeline-lod.h"
#include "ws-trace-db.h"
#include "ws-trace-loader.h"

#define N_EXAMPLES 10

typedef struct {
  const char *file;
  WsTrace    *trace;
  sqlite3    *db;
  gint32      tid;      /* :tid: the thread of the trace's longest wait readied by a thread */
  WsTime      from, to; /* :from, :to: the middle third of the trace */
} Shared;

static Shared shared[] = {
  { "py-locks.perf.txt.gz" },
  { "pg-tpcb.perf.txt.gz" },
};

static char *examples[N_EXAMPLES + 1];  /* 1-based, as the doc numbers them */

/* The ```sql blocks under "### N." headings of docs/sql.md. */
static void
read_examples (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "..", "docs", "sql.md", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  guint current = 0;
  GString *block = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (block != NULL)
        {
          if (g_str_has_prefix (line, "```"))
            {
              g_assert_null (examples[current]);
              examples[current] = g_string_free (block, FALSE);
              block = NULL;
            }
          else
            g_string_append_printf (block, "%s\n", line);
        }
      else if (g_str_has_prefix (line, "### "))
        {
          g_autofree char *number = g_strndup (line + 4, strspn (line + 4, "0123456789"));
          guint64 n = 0;

          g_ascii_string_to_unsigned (number, 10, 1, N_EXAMPLES, &n, NULL);
          current = n;
        }
      else if (g_str_has_prefix (line, "```sql"))
        {
          g_assert_cmpuint (current, >, 0);
          block = g_string_new (NULL);
        }
    }
  for (guint n = 1; n <= N_EXAMPLES; n++)
    g_assert_nonnull (examples[n]);
}

/* Rows as "v|v|v" strings, the common form of both sides. */
static GPtrArray *
query_rows (Shared             *s,
            const char         *sql,
            const char * const *params)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  JsonArray *array;

  ws_trace_db_query (s->db, sql, params, WS_TRACE_DB_JSON, out, &error);
  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (out->str, out->len, NULL));
  root = json_from_string (out->str, &error);
  g_assert_no_error (error);
  array = json_object_get_array_member (json_node_get_object (root), "rows");
  for (guint r = 0; r < json_array_get_length (array); r++)
    {
      JsonArray *row = json_array_get_array_element (array, r);
      GString *line = g_string_new (NULL);

      for (guint c = 0; c < json_array_get_length (row); c++)
        {
          JsonNode *v = json_array_get_element (row, c);

          if (c > 0)
            g_string_append_c (line, '|');
          if (JSON_NODE_HOLDS_NULL (v))
            g_string_append (line, "NULL");
          else if (json_node_get_value_type (v) == G_TYPE_INT64)
            g_string_append_printf (line, "%" G_GINT64_FORMAT, json_node_get_int (v));
          else if (json_node_get_value_type (v) == G_TYPE_STRING)
            g_string_append (line, json_node_get_string (v));
          else
            g_string_append_printf (line, "%g", json_node_get_double (v));
        }
      g_ptr_array_add (rows, g_string_free (line, FALSE));
    }
  return rows;
}

static void
assert_rows_equal (GPtrArray  *got,
                   GPtrArray  *expected,
                   const char *what)
{
  g_test_message ("%s: %u rows", what, expected->len);
  for (guint i = 0; i < MIN (got->len, expected->len); i++)
    if (g_strcmp0 (got->pdata[i], expected->pdata[i]) != 0)
      g_error ("%s, row %u: SQL gave “%s”, the oracle “%s”", what, i, (char *) got->pdata[i],
               (char *) expected->pdata[i]);
  g_assert_cmpuint (got->len, ==, expected->len);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static const char *
or_null (const char *s)
{
  return s != NULL ? s : "NULL";
}

static char *
pid_text (gint32 pid)
{
  return pid >= 0 ? g_strdup_printf ("%d", pid) : g_strdup ("NULL");
}

static WsTime
wait_end (const WsEvent *e)
{
  return e->time + MAX (ws_event_duration (e), 0);
}

static const char *
leaf_function (WsTrace  *trace,
               WsStackId stack)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  guint n = 0;
  const WsFrameId *frames = ws_stack_table_get_stack (table, stack, &n);

  return n > 0 ? ws_stack_table_get_frame (table, frames[n - 1])->function : NULL;
}

static JsonNode *
cli_json (const char * const *args)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root;
  int status = ws_test_run_cli (args, &out, NULL);

  g_assert_cmpint (status, ==, 0);
  root = json_from_string (out, &error);
  g_assert_no_error (error);
  return root;
}

/* ---- the oracles, one per example ---- */

typedef struct { guint key; gint64 count; WsTime sum; WsTime max; guint32 extra; guint key2; } Tally;

static GArray *
tally_new (void)
{
  return g_array_new (FALSE, TRUE, sizeof (Tally));
}

static Tally *
tally_get (GArray *tallies,
           guint   key,
           guint   key2)
{
  for (guint i = 0; i < tallies->len; i++)
    {
      Tally *t = &g_array_index (tallies, Tally, i);
      if (t->key == key && t->key2 == key2)
        return t;
    }
  g_array_set_size (tallies, tallies->len + 1);
  g_array_index (tallies, Tally, tallies->len - 1).key = key;
  g_array_index (tallies, Tally, tallies->len - 1).key2 = key2;
  return &g_array_index (tallies, Tally, tallies->len - 1);
}

/* SQLite sorts NULL first: an index WS_NONE sorts before every other. */
static int
compare_index (guint a,
               guint b)
{
  if (a == b)
    return 0;
  if (a == WS_NONE || b == WS_NONE)
    return a == WS_NONE ? -1 : 1;
  return a < b ? -1 : 1;
}

static GPtrArray *
oracle_who_woke (Shared *s)
{
  g_autoptr(GArray) tallies = tally_new ();
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ws_trace_get_n_events (s->trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (s->trace, i);
      guint readier = WS_NONE;
      Tally *t;

      if (e->kind != WS_EVENT_WAIT || ws_trace_get_thread (s->trace, e->thread)->tid != s->tid ||
          ws_trace_wait_readier (s->trace, i, &readier) != WS_READIER_THREAD)
        continue;
      t = tally_get (tallies, readier, 0);
      t->count++;
      t->sum += ws_event_duration (e);
    }
  /* waits DESC, cost DESC, readier_tid */
  for (guint a = 0; a < tallies->len; a++)
    for (guint b = a + 1; b < tallies->len; b++)
      {
        Tally *x = &g_array_index (tallies, Tally, a), *y = &g_array_index (tallies, Tally, b);
        gint32 tx = ws_trace_get_thread (s->trace, x->key)->tid, ty = ws_trace_get_thread (s->trace, y->key)->tid;

        if (y->count > x->count || (y->count == x->count && (y->sum > x->sum || (y->sum == x->sum && ty < tx))))
          {
            Tally tmp = *x; *x = *y; *y = tmp;
          }
      }
  for (guint i = 0; i < tallies->len; i++)
    {
      Tally *t = &g_array_index (tallies, Tally, i);
      const WsThread *r = ws_trace_get_thread (s->trace, t->key);

      g_ptr_array_add (rows, g_strdup_printf ("%d|%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT,
                                              r->tid, or_null (r->name), t->count, t->sum));
    }
  g_assert_cmpuint (rows->len, >, 0);
  return rows;
}

static JsonArray *
info_threads (JsonNode *info)
{
  JsonObject *trace = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (info), "traces"), 0);
  return json_object_get_array_member (trace, "threads");
}

static GPtrArray *
oracle_info_waits (Shared *s)
{
  g_autofree char *path = ws_cli_test_data_path (s->file);
  const char *args[] = { "info", path, "--json", NULL };
  g_autoptr(JsonNode) info = cli_json (args);
  JsonArray *threads = info_threads (info);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  /* info lists threads by wait total, then thread order: the query's order */
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *t = json_array_get_object_element (threads, i);

      g_ptr_array_add (rows, g_strdup_printf ("%" G_GINT64_FORMAT "|%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT
                                              "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT,
                                              json_object_get_int_member (t, "tid"),
                                              json_object_get_string_member (t, "name"),
                                              json_object_get_int_member (t, "waits"),
                                              json_object_get_int_member (t, "wait_total"),
                                              json_object_get_int_member (t, "waits_readier_unknown"),
                                              json_object_get_int_member (t, "waits_readier_hardware")));
    }
  return rows;
}

static GPtrArray *
oracle_info_runs (Shared *s)
{
  g_autofree char *path = ws_cli_test_data_path (s->file);
  const char *args[] = { "info", path, "--json", NULL };
  g_autoptr(JsonNode) info = cli_json (args);
  JsonArray *threads = info_threads (info);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *t = json_array_get_object_element (threads, i);

      g_ptr_array_add (rows, g_strdup_printf ("%" G_GINT64_FORMAT "|%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT
                                              "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT,
                                              json_object_get_int_member (t, "tid"),
                                              json_object_get_string_member (t, "name"),
                                              json_object_get_int_member (t, "run_total"),
                                              json_object_get_int_member (t, "samples"),
                                              json_object_get_int_member (t, "sampled_run_total"),
                                              json_object_get_int_member (t, "preempt_total")));
    }
  /* info orders by wait total: compare as sets (the query's own order,
   * run time first, is checked apart) */
  g_ptr_array_sort (rows, compare_strings);
  return rows;
}

static void
add_clipped (Tally  *t,
             WsTime  start,
             WsTime  end,
             WsTime  from,
             WsTime  to)
{
  if (start < to && end > from)
    {
      t->sum += MIN (end, to) - MAX (start, from);
      t->count++;
    }
}

static GPtrArray *
oracle_ready_by_process (Shared *s)
{
  g_autoptr(GArray) tallies = tally_new ();
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ws_trace_get_n_events (s->trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (s->trace, i);
      guint process = ws_trace_get_thread (s->trace, e->thread)->process;

      /* ready: preempted, or woken and not yet back on a CPU */
      if (e->kind == WS_EVENT_PREEMPT)
        add_clipped (tally_get (tallies, process, 0), e->time, wait_end (e), s->from, s->to);
      else if (e->kind == WS_EVENT_WAIT && ws_trace_wait_ready_latency (s->trace, i) != WS_LATENCY_UNKNOWN
               && ws_trace_wait_ready_latency (s->trace, i) > 0)
        add_clipped (tally_get (tallies, process, 0), wait_end (e), wait_end (e) + ws_trace_wait_ready_latency (s->trace, i),
                     s->from, s->to);
    }
  for (guint a = 0; a < tallies->len; a++)
    for (guint b = a + 1; b < tallies->len; b++)
      {
        Tally *x = &g_array_index (tallies, Tally, a), *y = &g_array_index (tallies, Tally, b);

        if (y->sum > x->sum || (y->sum == x->sum && compare_index (y->key, x->key) < 0))
          {
            Tally tmp = *x; *x = *y; *y = tmp;
          }
      }
  for (guint i = 0; i < tallies->len; i++)
    {
      Tally *t = &g_array_index (tallies, Tally, i);
      const WsProcess *p = t->key != WS_NONE ? ws_trace_get_process (s->trace, t->key) : NULL;
      g_autofree char *pid = pid_text (p != NULL ? p->pid : -1);

      if (t->count == 0)
        continue;
      g_ptr_array_add (rows, g_strdup_printf ("%s|%s|%" G_GINT64_FORMAT, pid, or_null (p ? p->name : NULL), t->sum));
    }
  g_assert_cmpuint (rows->len, >, 0);
  return rows;
}

static GPtrArray *
oracle_longest_per_stack (Shared *s)
{
  g_autoptr(GArray) tallies = tally_new ();
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < ws_trace_get_n_events (s->trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (s->trace, i);
      gpointer found;
      Tally *t;

      if (e->kind != WS_EVENT_WAIT)
        continue;
      if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (e->stack), NULL, &found))
        {
          found = GUINT_TO_POINTER (tallies->len);
          g_hash_table_insert (index, GUINT_TO_POINTER (e->stack), found);
          g_array_set_size (tallies, tallies->len + 1);
          g_array_index (tallies, Tally, tallies->len - 1).key = e->stack;
          g_array_index (tallies, Tally, tallies->len - 1).max = G_MININT64;
        }
      t = &g_array_index (tallies, Tally, GPOINTER_TO_UINT (found));
      t->count++;
      t->sum += ws_event_duration (e);
      t->max = MAX (t->max, ws_event_duration (e));
    }
  for (guint k = 0; k < 10 && k < tallies->len; k++)
    {
      guint best = k;

      for (guint i = k + 1; i < tallies->len; i++)
        {
          Tally *x = &g_array_index (tallies, Tally, best), *y = &g_array_index (tallies, Tally, i);
          if (y->max > x->max || (y->max == x->max && y->key < x->key))
            best = i;
        }
      {
        Tally tmp = g_array_index (tallies, Tally, k);
        Tally *t;

        g_array_index (tallies, Tally, k) = g_array_index (tallies, Tally, best);
        g_array_index (tallies, Tally, best) = tmp;
        t = &g_array_index (tallies, Tally, k);
        /* the longest wait's id is checked apart: any wait of the stack
         * that long is right */
        g_ptr_array_add (rows, g_strdup_printf ("%u|%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|*|%" G_GINT64_FORMAT,
                                                t->key, or_null (leaf_function (s->trace, t->key)),
                                                t->count, t->max, t->sum));
      }
    }
  return rows;
}

static GPtrArray *
oracle_top_waits (Shared *s)
{
  g_autofree char *path = ws_cli_test_data_path (s->file);
  const char *args[] = { "info", path, "--json", "--top", "10", NULL };
  g_autoptr(JsonNode) info = cli_json (args);
  JsonObject *trace = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (info), "traces"), 0);
  JsonArray *top = json_object_get_array_member (trace, "top_waits");
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  g_assert_cmpuint (json_array_get_length (top), ==, 10);
  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      JsonObject *w = json_array_get_object_element (top, i);
      JsonObject *readier = json_object_get_object_member (w, "readier");
      guint event = json_object_get_int_member (w, "event");
      const WsEvent *e = ws_trace_get_event (s->trace, event);
      g_autofree char *latency = json_object_get_null_member (w, "ready_latency") ? g_strdup ("NULL")
        : g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (w, "ready_latency"));
      g_autofree char *readier_tid = json_object_has_member (readier, "tid")
        ? g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (readier, "tid")) : g_strdup ("NULL");

      g_ptr_array_add (rows, g_strdup_printf ("%u|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%s|%s|%s|%s|%s",
                                              event, json_object_get_int_member (w, "tid"),
                                              json_object_get_int_member (w, "cost"), latency,
                                              json_object_get_string_member (readier, "kind"), readier_tid,
                                              or_null (leaf_function (s->trace, e->stack)),
                                              e->peer != WS_NONE
                                                ? or_null (leaf_function (s->trace, ws_trace_get_event (s->trace, e->peer)->stack))
                                                : "NULL"));
    }
  return rows;
}

/* The root wait of `readytree --tid` for the trace's :tid, as :event. */
static guint chain_event;

static GPtrArray *
oracle_chain (Shared *s)
{
  g_autofree char *path = ws_cli_test_data_path (s->file);
  g_autofree char *tid = g_strdup_printf ("%d", s->tid);
  const char *args[] = { "readytree", path, "--tid", tid, "--format", "json", NULL };
  g_autoptr(JsonNode) tree = cli_json (args);
  JsonArray *nodes = json_object_get_array_member (json_node_get_object (tree), "nodes");
  JsonObject *root = json_array_get_object_element (nodes, 0);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  /* A root the ready tree expanded: its children are the whole answer. */
  g_assert_cmpstr (json_object_get_string_member (root, "stop"), ==, "none");
  chain_event = json_object_get_int_member (root, "event");
  for (guint i = 1; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      guint event;
      const WsEvent *e;
      const WsEvent *w = ws_trace_get_event (s->trace, chain_event);
      g_autofree char *its_readier = NULL;

      if (json_object_get_null_member (n, "parent") || json_object_get_int_member (n, "parent") != 0)
        continue;
      event = json_object_get_int_member (n, "event");
      e = ws_trace_get_event (s->trace, event);
      its_readier = json_object_has_member (n, "readier_tid") && !json_object_get_null_member (n, "readier_tid")
        ? g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (n, "readier_tid")) : g_strdup ("NULL");
      g_ptr_array_add (rows, g_strdup_printf ("%u|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|*|%s",
                                              event, json_object_get_int_member (n, "tid"),
                                              json_object_get_int_member (n, "duration"),
                                              MIN (wait_end (e), wait_end (w)) - MAX (e->time, w->time),
                                              its_readier));
    }
  g_assert_cmpuint (rows->len, >, 0);
  return rows;
}

static GPtrArray *
oracle_slowest_instances (Shared *s)
{
  g_autofree char *path = ws_cli_test_data_path (s->file);
  const char *args[] = { "scenarios", path, "--json", NULL };
  g_autoptr(JsonNode) root = cli_json (args);
  JsonObject *trace = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "traces"), 0);
  JsonArray *instances = json_object_get_array_member (trace, "instances");
  guint n = json_array_get_length (instances);
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint a = 0; a < n && a < 10; a++)
    for (guint b = a + 1; b < n; b++)
      {
        gint64 da = json_object_get_int_member (json_array_get_object_element (instances, order[a]), "duration");
        gint64 db = json_object_get_int_member (json_array_get_object_element (instances, order[b]), "duration");

        if (db > da || (db == da && order[b] < order[a]))
          {
            guint tmp = order[a]; order[a] = order[b]; order[b] = tmp;
          }
      }
  for (guint k = 0; k < n && k < 10; k++)
    {
      JsonObject *inst = json_array_get_object_element (instances, order[k]);
      WsTime t0 = json_object_get_int_member (inst, "t0"), t1 = json_object_get_int_member (inst, "t1");
      const WsScenarioInstance *model = ws_trace_get_scenario_instance (s->trace, order[k]);
      const WsThread *thread = ws_trace_get_thread (s->trace, model->thread);
      WsTime waiting = 0;

      g_assert_cmpint (model->t0, ==, t0);
      for (guint j = 0; j < thread->n_events; j++)
        {
          const WsEvent *e = ws_trace_get_event (s->trace, thread->events[j]);

          if (e->kind == WS_EVENT_WAIT && e->time < t1 && wait_end (e) > t0)
            waiting += MIN (wait_end (e), t1) - MAX (e->time, t0);
        }
      g_ptr_array_add (rows, g_strdup_printf ("%u|%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT,
                                              order[k], json_object_get_string_member (inst, "scenario"),
                                              json_object_get_int_member (inst, "tid"), t0,
                                              json_object_get_int_member (inst, "duration"), waiting));
    }
  return rows;
}

static GPtrArray *
oracle_wakeups (Shared *s)
{
  g_autoptr(GArray) tallies = tally_new ();
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ws_trace_get_n_events (s->trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (s->trace, i);

      if (e->kind != WS_EVENT_UNWAIT || (e->flags & WS_EVENT_FLAG_ECHO) || ws_event_target (e) == WS_NONE)
        continue;
      tally_get (tallies, ws_trace_get_thread (s->trace, e->thread)->process,
                 ws_trace_get_thread (s->trace, ws_event_target (e))->process)->count++;
    }
  for (guint k = 0; k < 10 && k < tallies->len; k++)
    {
      guint best = k;

      for (guint i = k + 1; i < tallies->len; i++)
        {
          Tally *x = &g_array_index (tallies, Tally, best), *y = &g_array_index (tallies, Tally, i);
          int c = compare_index (y->key, x->key);

          if (y->count > x->count || (y->count == x->count && (c < 0 || (c == 0 && compare_index (y->key2, x->key2) < 0))))
            best = i;
        }
      {
        Tally tmp = g_array_index (tallies, Tally, k);
        Tally *t;
        const WsProcess *waker, *woken;

        g_array_index (tallies, Tally, k) = g_array_index (tallies, Tally, best);
        g_array_index (tallies, Tally, best) = tmp;
        t = &g_array_index (tallies, Tally, k);
        waker = t->key != WS_NONE ? ws_trace_get_process (s->trace, t->key) : NULL;
        woken = t->key2 != WS_NONE ? ws_trace_get_process (s->trace, t->key2) : NULL;
        g_ptr_array_add (rows, g_strdup_printf ("%s|%s|%" G_GINT64_FORMAT, or_null (waker ? waker->name : NULL),
                                                or_null (woken ? woken->name : NULL), t->count));
      }
    }
  g_assert_cmpuint (rows->len, >, 0);
  return rows;
}

static GPtrArray *
oracle_samples_by_leaf (Shared *s)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) periods = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ws_trace_get_n_events (s->trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (s->trace, i);
      const char *leaf;

      if (e->kind != WS_EVENT_RUNNING || (e->flags & WS_EVENT_FLAG_SPAN) || e->stack == WS_STACK_EMPTY)
        continue;
      leaf = leaf_function (s->trace, e->stack);
      if (!g_hash_table_contains (counts, leaf))
        g_ptr_array_add (names, (gpointer) leaf);
      g_hash_table_insert (counts, (gpointer) leaf,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, leaf)) + 1));
      g_hash_table_insert (periods, (gpointer) leaf,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (periods, leaf)) + ws_event_duration (e)));
    }
  for (guint k = 0; k < 10 && k < names->len; k++)
    {
      guint best = k;

      for (guint i = k + 1; i < names->len; i++)
        {
          gsize cb = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, names->pdata[best]));
          gsize ci = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, names->pdata[i]));

          if (ci > cb || (ci == cb && strcmp (names->pdata[i], names->pdata[best]) < 0))
            best = i;
        }
      {
        gpointer tmp = names->pdata[k];

        names->pdata[k] = names->pdata[best];
        names->pdata[best] = tmp;
      }
      g_ptr_array_add (rows, g_strdup_printf ("%s|%" G_GSIZE_FORMAT "|%" G_GSIZE_FORMAT, (char *) names->pdata[k],
                                              GPOINTER_TO_SIZE (g_hash_table_lookup (counts, names->pdata[k])),
                                              GPOINTER_TO_SIZE (g_hash_table_lookup (periods, names->pdata[k]))));
    }
  return rows;
}

/* Replaces column @column of each row by "*" (a value checked apart). */
static void
mask_column (GPtrArray *rows,
             guint      column)
{
  for (guint r = 0; r < rows->len; r++)
    {
      g_auto(GStrv) parts = g_strsplit (rows->pdata[r], "|", -1);

      g_assert_cmpuint (g_strv_length (parts), >, column);
      g_free (parts[column]);
      parts[column] = g_strdup ("*");
      g_free (rows->pdata[r]);
      rows->pdata[r] = g_strjoinv ("|", parts);
    }
}

/* ---- fixtures ---- */

static Shared *
get_shared (guint i)
{
  Shared *s = &shared[i];
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;

  if (s->trace != NULL)
    return s;
  path = ws_cli_test_data_path (s->file);
  rules = ws_scenario_rules_new_default ();
  s->trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  s->db = ws_trace_db_open_query (s->trace, NULL, &error);
  g_assert_no_error (error);

  /* :tid: the user thread woken by other threads most often (a lock's
   * victim); pid 0 and kernel threads (no pid of their own) left out */
  {
    g_autofree guint *woken = g_new0 (guint, ws_trace_get_n_threads (s->trace));
    guint best = 0;

    for (guint k = 0; k < ws_trace_get_n_events (s->trace); k++)
      {
        const WsEvent *e = ws_trace_get_event (s->trace, k);
        guint readier;

        if (e->kind == WS_EVENT_WAIT && ws_trace_wait_readier (s->trace, k, &readier) == WS_READIER_THREAD &&
            ws_trace_get_thread (s->trace, readier)->pid > 0)
          woken[e->thread]++;
      }
    for (guint t = 0; t < ws_trace_get_n_threads (s->trace); t++)
      if (woken[t] > woken[best] && ws_trace_get_thread (s->trace, t)->pid > 0 &&
          ws_trace_get_thread (s->trace, t)->name[0] != 'k')
        best = t;
    s->tid = ws_trace_get_thread (s->trace, best)->tid;
    g_test_message ("%s: :tid = %d (%s)", s->file, s->tid, ws_trace_get_thread (s->trace, best)->name);
  }
  {
    WsTime start = ws_trace_get_start_time (s->trace), end = ws_trace_get_end_time (s->trace);

    s->from = start + (end - start) / 3;
    s->to = start + 2 * (end - start) / 3;
  }
  return s;
}

static void
test_example (gconstpointer data)
{
  guint n = GPOINTER_TO_UINT (data) % 100;
  Shared *s = get_shared (GPOINTER_TO_UINT (data) / 100);
  g_autofree char *tid = g_strdup_printf ("tid=%d", s->tid);
  g_autofree char *from = g_strdup_printf ("from=%" G_GINT64_FORMAT, s->from);
  g_autofree char *to = g_strdup_printf ("to=%" G_GINT64_FORMAT, s->to);
  g_autofree char *event = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) got = NULL;
  g_autofree char *what = g_strdup_printf ("example %u on %s", n, s->file);

  if (examples[1] == NULL)
    read_examples ();

  switch (n)
    {
    case 1:
      expected = oracle_who_woke (s);
      got = query_rows (s, examples[n], (const char *[]) { tid, NULL });
      break;
    case 2:
      expected = oracle_info_waits (s);
      got = query_rows (s, examples[n], NULL);
      break;
    case 3:
      expected = oracle_info_runs (s);
      got = query_rows (s, examples[n], NULL);
      for (guint i = 1; i < got->len; i++)   /* run time first */
        {
          g_auto(GStrv) a = g_strsplit (got->pdata[i - 1], "|", -1);
          g_auto(GStrv) b = g_strsplit (got->pdata[i], "|", -1);
          g_assert_cmpint (g_ascii_strtoll (a[2], NULL, 10), >=, g_ascii_strtoll (b[2], NULL, 10));
        }
      g_ptr_array_sort (got, compare_strings);
      break;
    case 4:
      expected = oracle_ready_by_process (s);
      got = query_rows (s, examples[n], (const char *[]) { from, to, NULL });
      break;
    case 5:
      expected = oracle_longest_per_stack (s);
      got = query_rows (s, examples[n], NULL);
      for (guint i = 0; i < got->len; i++)   /* the longest wait: of that stack, that long */
        {
          g_auto(GStrv) v = g_strsplit (got->pdata[i], "|", -1);
          const WsEvent *e = ws_trace_get_event (s->trace, g_ascii_strtoull (v[4], NULL, 10));

          g_assert_cmpint (e->kind, ==, WS_EVENT_WAIT);
          g_assert_cmpuint (e->stack, ==, g_ascii_strtoull (v[0], NULL, 10));
          g_assert_cmpint (ws_event_duration (e), ==, g_ascii_strtoll (v[3], NULL, 10));
        }
      mask_column (got, 4);
      break;
    case 6:
      expected = oracle_top_waits (s);
      got = query_rows (s, examples[n], NULL);
      break;
    case 7:
      expected = oracle_chain (s);
      event = g_strdup_printf ("event=%u", chain_event);
      got = query_rows (s, examples[n], (const char *[]) { event, NULL });
      mask_column (got, 4);   /* the readier wait's readier kind: the tree says it in other words */
      break;
    case 8:
      expected = oracle_slowest_instances (s);
      got = query_rows (s, examples[n], NULL);
      break;
    case 9:
      expected = oracle_wakeups (s);
      got = query_rows (s, examples[n], NULL);
      break;
    case 10:
      expected = oracle_samples_by_leaf (s);
      got = query_rows (s, examples[n], NULL);
      break;
    default:
      g_assert_not_reached ();
    }
  assert_rows_equal (got, expected, what);
}

static gint64
count (Shared     *s,
       const char *sql)
{
  g_autoptr(GPtrArray) rows = query_rows (s, sql, NULL);

  g_assert_cmpuint (rows->len, ==, 1);
  return g_ascii_strtoll (rows->pdata[0], NULL, 10);
}

/* Every table holds every row of the model it mirrors. */
static void
test_row_counts (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shared); i++)
    {
      Shared *s = get_shared (i);
      WsStackTable *stacks = ws_trace_get_stack_table (s->trace);
      guint n_frames = 0, n_samples = 0;

      for (guint k = 0; k < ws_stack_table_get_n_stacks (stacks); k++)
        {
          guint depth = 0;
          ws_stack_table_get_stack (stacks, k, &depth);
          n_frames += depth;
        }
      for (guint k = 0; k < ws_trace_get_n_events (s->trace); k++)
        {
          const WsEvent *e = ws_trace_get_event (s->trace, k);
          n_samples += e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN);
        }
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM events"), ==, ws_trace_get_n_events (s->trace));
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM waits"), ==, ws_trace_count_kind (s->trace, WS_EVENT_WAIT));
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM samples"), ==, n_samples);
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM threads"), ==, ws_trace_get_n_threads (s->trace));
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM processes"), ==, ws_trace_get_n_processes (s->trace));
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM stacks"), ==, ws_stack_table_get_n_stacks (stacks));
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM frames"), ==, ws_stack_table_get_n_frames (stacks));
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM stack_frames"), ==, n_frames);
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM instances"), ==, ws_trace_get_n_scenario_instances (s->trace));
      /* each wait is in thread_state_spans once as itself */
      g_assert_cmpint (count (s, "SELECT COUNT(*) FROM thread_state_spans WHERE state NOT IN ('running', 'ready')"),
                       ==, ws_trace_count_kind (s->trace, WS_EVENT_WAIT));
    }
}

/* thread_state_spans adds up, thread by thread and state by state, to the
 * totals the timeline's thread table shows (WsTimelineLod's statistics,
 * computed by the renderer from the events, not through SQL). */
static void
test_thread_state_spans (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shared); i++)
    {
      Shared *s = get_shared (i);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (s->trace, NULL, &error);
      g_autoptr(GPtrArray) got = NULL;
      g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);

      g_assert_no_error (error);
      got = query_rows (s, "SELECT t.id,"
                           " COALESCE(SUM(CASE s.state WHEN 'running' THEN s.end - s.start END), 0),"
                           " COALESCE(SUM(CASE s.state WHEN 'ready' THEN s.end - s.start END), 0),"
                           " COALESCE(SUM(CASE s.state WHEN 'sleeping' THEN s.end - s.start END), 0),"
                           " COALESCE(SUM(CASE s.state WHEN 'disk' THEN s.end - s.start END), 0),"
                           " COALESCE(SUM(CASE s.state WHEN 'other' THEN s.end - s.start END), 0)"
                           " FROM threads AS t LEFT JOIN thread_state_spans AS s ON s.thread_id = t.id"
                           " GROUP BY t.id ORDER BY t.id", NULL);
      for (guint t = 0; t < ws_trace_get_n_threads (s->trace); t++)
        {
          const WsThreadStats *st = ws_timeline_lod_get_stats (lod, t);

          g_ptr_array_add (expected, g_strdup_printf ("%u|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT
                                                      "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT,
                                                      t, st->run, st->ready, st->wait[0], st->wait[1], st->wait[2]));
        }
      assert_rows_equal (got, expected, s->file);
    }
}

/* A cancelled export leaves the file as it was and nothing beside it;
 * progress only grows, from 0 to 1 when it completes. */
static void
progress_cb (double      fraction,
             const char *message,
             gpointer    data)
{
  double *last = data;

  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
test_save_cancelled (void)
{
  Shared *s = get_shared (1);
  g_autofree char *dir = g_dir_make_tmp ("ws-sql-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "old.db", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *after = NULL;
  double last = 0.0;
  GDir *listing;
  guint n_files = 0;

  g_assert_true (g_file_set_contents (path, "what was there", -1, NULL));
  g_cancellable_cancel (cancellable);
  g_assert_false (ws_trace_db_save (s->trace, path, cancellable, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, "what was there");

  g_assert_true (ws_trace_db_save (s->trace, path, NULL, progress_cb, &last, NULL));
  g_assert_cmpfloat (last, ==, 1.0);

  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_dir_close (listing);
  g_assert_cmpuint (n_files, ==, 1);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- the CLI ---- */

static char *
trace_path (void)
{
  return ws_cli_test_data_path ("py-locks.perf.txt.gz");
}

static void
test_cli_export (void)
{
  g_autofree char *trace = trace_path ();
  g_autofree char *dir = g_dir_make_tmp ("ws-sql-XXXXXX", NULL);
  g_autofree char *db_path = g_build_filename (dir, "py-locks.db", NULL);
  g_autofree char *bad_path = g_build_filename (dir, "bad.perf.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "x.db", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize before_len = 0, after_len = 0;
  g_auto(WsCliRun) run = { 0 };
  g_auto(WsCliRun) bad = { 0 };
  g_auto(WsCliRun) nowhere = { 0 };
  g_auto(WsCliRun) onto_dir = { 0 };
  g_autofree char *subdir = g_build_filename (dir, "existing-dir", NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  GDir *listing;
  guint n_files = 0;

  ws_cli_run (&run, "export-sqlite", trace, "-o", db_path, NULL);
  g_assert_cmpint (run.status, ==, 0);

  /* an ordinary SQLite file, the documented schema version, every event */
  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT (SELECT user_version FROM pragma_user_version), "
                                           "(SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM wait_chain)",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, WS_TRACE_DB_SCHEMA_VERSION);
  g_assert_cmpint (sqlite3_column_int (stmt, 1), ==, 11551);
  g_assert_cmpint (sqlite3_column_int (stmt, 2), >=, 2385);
  sqlite3_finalize (stmt);
  sqlite3_close_v2 (db);

  /* a failed export leaves the existing database as it was, and no
   * temporary file beside it */
  g_file_get_contents (db_path, &before, &before_len, NULL);
  g_file_set_contents (bad_path, "this is not a trace\n", -1, NULL);
  ws_cli_run (&bad, "export-sqlite", bad_path, "-o", db_path, NULL);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_nonnull (strstr (bad.err, "bad.perf.txt"));
  g_file_get_contents (db_path, &after, &after_len, NULL);
  g_assert_cmpmem (before, before_len, after, after_len);

  ws_cli_run (&nowhere, "export-sqlite", trace, "-o", missing, NULL);
  g_assert_cmpint (nowhere.status, ==, 1);
  g_assert_nonnull (strstr (nowhere.err, "no-such-dir"));

  /* written completely, then refused at the rename: nothing left behind */
  g_assert_cmpint (g_mkdir (subdir, 0700), ==, 0);
  ws_cli_run (&onto_dir, "export-sqlite", trace, "-o", subdir, NULL);
  g_assert_cmpint (onto_dir.status, ==, 1);
  g_assert_true (g_file_test (subdir, G_FILE_TEST_IS_DIR));

  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_dir_close (listing);
  g_assert_cmpuint (n_files, ==, 3);   /* the database, the bad trace, the directory */

  g_rmdir (subdir);
  g_unlink (db_path);
  g_unlink (bad_path);
  g_rmdir (dir);
}

static void
test_cli_query (void)
{
  g_autofree char *trace = trace_path ();
  g_auto(WsCliRun) json = { 0 };
  g_auto(WsCliRun) csv = { 0 };
  g_auto(WsCliRun) text = { 0 };
  g_auto(WsCliRun) bad = { 0 };
  g_auto(WsCliRun) missing = { 0 };
  g_auto(WsCliRun) columns = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  ws_cli_run (&json, "query", trace, "SELECT tid, name FROM threads WHERE tid = :tid", "--param", "tid=11587", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  root = json_from_string (json.out, &error);
  g_assert_no_error (error);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (object, "columns"), 1), ==, "name");
  g_assert_cmpstr (json_array_get_string_element (
                     json_array_get_array_element (json_object_get_array_member (object, "rows"), 0), 1), ==, "pylk-w2");

  ws_cli_run (&csv, "query", trace, "SELECT 'a,b' AS x, 'say \"hi\"' AS y, NULL AS z", "--csv", NULL);
  g_assert_cmpint (csv.status, ==, 0);
  g_assert_cmpstr (csv.out, ==, "x,y,z\r\n\"a,b\",\"say \"\"hi\"\"\",\r\n");

  ws_cli_run (&text, "query", trace, "SELECT COUNT(*) AS waits FROM waits", NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_cmpstr (text.out, ==, "waits\n2385\n");

  /* SQLite's own message, exit 1 */
  ws_cli_run (&bad, "query", trace, "SELECT tidd FROM threads", NULL);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_nonnull (strstr (bad.err, "no such column: tidd"));

  /* the schema itself can be read */
  ws_cli_run (&columns, "query", trace, "SELECT name FROM sqlite_master WHERE name = 'wait_chain'", NULL);
  g_assert_cmpint (columns.status, ==, 0);
  g_assert_cmpstr (columns.out, ==, "name\nwait_chain\n");

  ws_cli_run (&missing, "query", trace, "SELECT :tid", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, ":tid"));
}

/* Whatever is pasted, the query only reads: no file is made, nothing
 * in the database changes. */
static void
test_cli_query_cannot_write (void)
{
  g_autofree char *trace = trace_path ();
  g_autofree char *dir = g_dir_make_tmp ("ws-sql-XXXXXX", NULL);
  g_autofree char *victim = g_build_filename (dir, "victim.db", NULL);
  g_autofree char *attach = g_strdup_printf ("ATTACH DATABASE '%s' AS x", victim);
  g_autofree char *vacuum = g_strdup_printf ("VACUUM INTO '%s'", victim);
  g_autofree char *cte_attach = g_strdup_printf ("SELECT 1; ATTACH '%s' AS x", victim);
  const char *statements[] = {
    attach, vacuum, cte_attach,
    "INSERT INTO threads (id, tid) VALUES (100000, 1)",
    "DELETE FROM waits",
    "CREATE TABLE t (x)",
    "DROP VIEW wait_chain",
    "PRAGMA writable_schema = 1",
    "PRAGMA journal_mode = WAL",
    "PRAGMA user_version = 7",
    "SELECT * FROM pragma_journal_mode('wal')",
    "SELECT * FROM pragma_table_info('waits')",
    "SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6')",
    "WITH x AS (SELECT 1) INSERT INTO frames (id, function, module) SELECT 99999, 'a', 'b' FROM x",
  };

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      g_auto(WsCliRun) run = { 0 };

      ws_cli_run (&run, "query", trace, statements[i], NULL);
      g_test_message ("%s → %d %s", statements[i], run.status, run.err);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_true (g_str_has_prefix (run.err, "waitscope-cli: "));
      g_assert_false (g_file_test (victim, G_FILE_TEST_EXISTS));
    }
  g_rmdir (dir);
}

/* --json is valid UTF-8 JSON whatever bytes come out of SQLite: invalid
 * sequences, a NUL, a blob, an infinity. */
static void
test_cli_query_json_bytes (void)
{
  g_autofree char *trace = trace_path ();
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *row;

  ws_cli_run (&run, "query", trace,
              "SELECT CAST(x'41ff42' AS TEXT) AS bad, x'00ff' AS blob, char(0) || 'z' AS nul, 9e999 AS inf, "
              "CAST(x'ff' AS TEXT) AS \"col\xff\"", "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_utf8_validate (run.out, -1, NULL));
  root = json_from_string (run.out, &error);
  g_assert_no_error (error);
  row = json_array_get_array_element (json_object_get_array_member (json_node_get_object (root), "rows"), 0);
  g_assert_cmpstr (json_array_get_string_element (row, 0), ==, "A\xef\xbf\xbd" "B");
  g_assert_cmpstr (json_array_get_string_element (row, 1), ==, "x'00ff'");
  g_assert_true (JSON_NODE_HOLDS_NULL (json_array_get_element (row, 3)));

  /* a trace whose thread and function names are not UTF-8 (the folded
   * sample of test-hostile-formats) */
  {
    g_autofree char *dir = g_dir_make_tmp ("ws-sql-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "bad.folded", NULL);
    g_auto(WsCliRun) names = { 0 };
    g_autoptr(JsonNode) parsed = NULL;

    g_assert_true (g_file_set_contents (path, "-\xff\x13" "5;main;worker 8\n" "ok\xc3-12/13;main;wait\xe9 2\n", -1, NULL));
    ws_cli_run (&names, "query", path, "SELECT t.name, f.function FROM threads t, frames f", "--json", NULL);
    g_assert_cmpint (names.status, ==, 0);
    g_assert_true (g_utf8_validate (names.out, -1, NULL));
    parsed = json_from_string (names.out, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (parsed), "rows")), >, 0);
    g_unlink (path);
    g_rmdir (dir);
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  for (guint t = 0; t < G_N_ELEMENTS (shared); t++)
    for (guint n = 1; n <= N_EXAMPLES; n++)
      {
        g_autofree char *name = g_strdup_printf ("/sql/example-%02u/%.*s", n,
                                                 (int) strcspn (shared[t].file, "."), shared[t].file);
        g_test_add_data_func (name, GUINT_TO_POINTER (t * 100 + n), test_example);
      }
  g_test_add_func ("/sql/row-counts", test_row_counts);
  g_test_add_func ("/sql/thread-state-spans", test_thread_state_spans);
  g_test_add_func ("/sql/save-cancelled", test_save_cancelled);
  g_test_add_func ("/sql/cli/export", test_cli_export);
  g_test_add_func ("/sql/cli/query", test_cli_query);
  g_test_add_func ("/sql/cli/query-cannot-write", test_cli_query_cannot_write);
  g_test_add_func ("/sql/cli/query-json-bytes", test_cli_query_json_bytes);
  status = g_test_run ();

  for (guint t = 0; t < G_N_ELEMENTS (shared); t++)
    {
      g_clear_pointer (&shared[t].db, sqlite3_close_v2);
      g_clear_object (&shared[t].trace);
    }
  for (guint n = 0; n <= N_EXAMPLES; n++)
    g_clear_pointer (&examples[n], g_free);
  return status;
}
