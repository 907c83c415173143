/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Filling an SQLite database with one trace (docs/sql.md).
 *
 * Speed is what makes `waitscope-cli query` usable on a big trace: the
 * whole load is one transaction in a database in memory with no journal
 * and no syncs (export-sqlite writes its bytes out once complete, so
 * nothing ever needs recovering); the events, waits, samples and stack
 * frames are copied by one INSERT … SELECT each from a virtual table over
 * the model (ws-trace-db-rows.c) rather than a bind-step-reset per row;
 * every table is filled in its primary key order (appends to the
 * B-tree), and no other index is built.  tests/bench/bench-sql-load.c measures it.
 *
 * Ids are the model's own indices, so a `waits.event_id` is the number
 * `waitscope-cli readytree --event` and the JSON trace format take.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-error.h"
#include "ws-trace-db.h"
#include "ws-trace-db-rows.h"

static const char schema[] =
  "CREATE TABLE trace_info ("
  "  key TEXT PRIMARY KEY,"
  "  value) WITHOUT ROWID;"
  "CREATE TABLE processes ("
  "  id INTEGER PRIMARY KEY,"
  "  pid INTEGER,"
  "  parent_pid INTEGER,"
  "  name TEXT);"
  "CREATE TABLE threads ("
  "  id INTEGER PRIMARY KEY,"
  "  tid INTEGER NOT NULL,"
  "  pid INTEGER,"
  "  process_id INTEGER REFERENCES processes (id),"
  "  name TEXT,"
  "  first_seen INTEGER,"
  "  last_seen INTEGER,"
  "  exit_time INTEGER);"
  "CREATE TABLE frames ("
  "  id INTEGER PRIMARY KEY,"
  "  function TEXT NOT NULL,"
  "  module TEXT NOT NULL);"
  "CREATE TABLE stacks ("
  "  id INTEGER PRIMARY KEY,"
  "  depth INTEGER NOT NULL,"
  "  leaf_frame_id INTEGER REFERENCES frames (id),"
  "  leaf_function TEXT);"
  "CREATE TABLE stack_frames ("
  "  stack_id INTEGER NOT NULL REFERENCES stacks (id),"
  "  position INTEGER NOT NULL,"
  "  frame_id INTEGER NOT NULL REFERENCES frames (id),"
  "  PRIMARY KEY (stack_id, position)) WITHOUT ROWID;"
  "CREATE TABLE events ("
  "  id INTEGER PRIMARY KEY,"
  "  kind TEXT NOT NULL,"
  "  time INTEGER NOT NULL,"
  "  duration INTEGER NOT NULL,"
  "  thread_id INTEGER NOT NULL REFERENCES threads (id),"
  "  cpu INTEGER NOT NULL,"
  "  stack_id INTEGER NOT NULL REFERENCES stacks (id),"
  "  peer_id INTEGER REFERENCES events (id),"
  "  target_thread_id INTEGER REFERENCES threads (id),"
  "  name TEXT,"
  "  state TEXT,"
  "  ready_latency INTEGER,"
  "  flags INTEGER NOT NULL);"
  "CREATE TABLE waits ("
  "  event_id INTEGER PRIMARY KEY REFERENCES events (id),"
  "  thread_id INTEGER NOT NULL REFERENCES threads (id),"
  "  time INTEGER NOT NULL,"
  "  cost INTEGER NOT NULL,"
  "  end_time INTEGER NOT NULL,"
  "  state TEXT,"
  "  uninterruptible INTEGER NOT NULL,"
  "  unfinished INTEGER NOT NULL,"
  "  ready_latency INTEGER,"
  "  readier_kind TEXT NOT NULL,"
  "  readier_thread_id INTEGER REFERENCES threads (id),"
  "  unwait_event_id INTEGER REFERENCES events (id),"
  "  waiting_stack_id INTEGER NOT NULL REFERENCES stacks (id),"
  "  unwait_stack_id INTEGER REFERENCES stacks (id));"
  "CREATE TABLE samples ("
  "  event_id INTEGER PRIMARY KEY REFERENCES events (id),"
  "  thread_id INTEGER NOT NULL REFERENCES threads (id),"
  "  time INTEGER NOT NULL,"
  "  period INTEGER NOT NULL,"
  "  cpu INTEGER NOT NULL,"
  "  stack_id INTEGER NOT NULL REFERENCES stacks (id),"
  "  event_name TEXT);"
  "CREATE TABLE wait_chain_links ("
  "  wait_id INTEGER NOT NULL REFERENCES waits (event_id),"
  "  readier_wait_id INTEGER NOT NULL REFERENCES waits (event_id),"
  "  PRIMARY KEY (wait_id, readier_wait_id)) WITHOUT ROWID;"
  "CREATE TABLE instances ("
  "  id INTEGER PRIMARY KEY,"
  "  scenario TEXT NOT NULL,"
  "  thread_id INTEGER NOT NULL REFERENCES threads (id),"
  "  t0 INTEGER NOT NULL,"
  "  t1 INTEGER NOT NULL,"
  "  duration INTEGER NOT NULL,"
  "  begin_event_id INTEGER REFERENCES events (id),"
  "  end_event_id INTEGER REFERENCES events (id));";

/* No index beyond the primary keys: building one on waits (thread, time)
 * cost a tenth of the load, and SQLite makes an automatic index for a
 * query that joins on it (every example of docs/sql.md runs in well under
 * a second on pg-tpcb without); an exported database can have its own. */
static const char views[] =
  /* The ready tree's first level (docs/algorithms.md), from the links the
   * load computed with the model's own index: each wait with each wait of
   * its readier that overlaps it before the wake-up.  A wait whose readier
   * had none (P ran all along, the lock holder) or that no thread readied
   * has one row with NULL readier_wait_id. */
  "CREATE VIEW wait_chain AS"
  "  SELECT w.event_id AS wait_id, w.thread_id, w.time, w.cost, w.end_time,"
  "         w.readier_kind, w.readier_thread_id,"
  "         r.event_id AS readier_wait_id, r.time AS readier_wait_time,"
  "         r.cost AS readier_wait_cost, r.state AS readier_wait_state,"
  "         r.readier_kind AS readier_wait_readier_kind,"
  "         r.readier_thread_id AS readier_wait_readier_thread_id,"
  "         MIN (r.end_time, w.end_time) - MAX (r.time, w.time) AS overlap"
  "  FROM waits AS w"
  "  LEFT JOIN wait_chain_links AS k ON k.wait_id = w.event_id"
  "  LEFT JOIN waits AS r ON r.event_id = k.readier_wait_id;"
  /* What a timeline row shows at each instant (docs/timeline.md), in the
   * legend's states: running (exact spans; samples are not spans), ready
   * (preempted, or woken and not yet on a CPU: the ready latency), and a
   * wait as sleeping (S), disk (D) or other. */
  "CREATE VIEW thread_state_spans AS"
  "  SELECT thread_id, 'running' AS state, time AS start, time + MAX (duration, 0) AS end, id AS event_id"
  "    FROM events WHERE kind = 'running' AND (flags & 1) != 0"
  "  UNION ALL"
  "  SELECT thread_id, 'ready', time, time + MAX (duration, 0), id FROM events WHERE kind = 'preempt'"
  "  UNION ALL"
  "  SELECT thread_id,"
  "         CASE WHEN uninterruptible OR state = 'D' THEN 'disk'"
  "              WHEN state = 'S' THEN 'sleeping' ELSE 'other' END,"
  "         time, end_time, event_id FROM waits"
  "  UNION ALL"
  "  SELECT thread_id, 'ready', end_time, end_time + ready_latency, event_id"
  "    FROM waits WHERE ready_latency > 0;";

static const char * const readier_kinds[] = { "thread", "hardware", "unknown", "unfinished" };

/* Each scheduler letter as a static string, so a row copies nothing. */
static char state_letters[256][2];

typedef struct {
  sqlite3       *db;
  WsTrace       *trace;
  const WsEvent *events;
  guint          n_events;
  const char    *kind_names[WS_N_EVENT_KINDS];
  gboolean       cancelled;
  GCancellable  *cancellable;
  WsProgressFunc progress;
  gpointer       progress_data;
  guint          done;      /* stacks written, for the cancel check */
} Loader;

static gboolean
sql_error (sqlite3     *db,
           GError     **error,
           const char  *what)
{
  /* Translators: "%s" is a step ("writing the events"), then SQLite's message */
  g_set_error (error, WS_ERROR, WS_ERROR_IO, _("SQLite failed %s: %s"), what, sqlite3_errmsg (db));
  return FALSE;
}

static sqlite3_stmt *
prepare (Loader      *l,
         const char  *sql,
         GError     **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v3 (l->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    {
      sql_error (l->db, error, _("preparing a statement"));
      return NULL;
    }
  return stmt;
}

/* Steps an INSERT and makes it ready for the next row. */
static gboolean
insert (Loader       *l,
        sqlite3_stmt *stmt,
        GError      **error)
{
  int rc = sqlite3_step (stmt);

  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    return sql_error (l->db, error, _("writing a row"));
  return TRUE;
}

static void
bind_text (sqlite3_stmt *stmt,
           int           column,
           const char   *text)
{
  if (text == NULL)
    sqlite3_bind_null (stmt, column);
  else
    sqlite3_bind_text (stmt, column, text, -1, SQLITE_STATIC);
}

static void
bind_index (sqlite3_stmt *stmt,
            int           column,
            guint32       index)
{
  if (index == WS_NONE)
    sqlite3_bind_null (stmt, column);
  else
    sqlite3_bind_int64 (stmt, column, index);
}

/* Every 64 K stacks: the cancel check (progress is reported along the
 * events, by far the longest part). */
static gboolean
step_progress (Loader  *l,
               GError **error)
{
  if ((++l->done & 0xffff) != 0)
    return TRUE;
  return !g_cancellable_set_error_if_cancelled (l->cancellable, error);
}

static gboolean
fill_info (Loader  *l,
           GError **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  /* Text rows first, then numbers. */
  const char *texts[][2] = {
    { "name", ws_trace_get_name (l->trace) },
    { "path", ws_trace_get_path (l->trace) },
    { "record_command", ws_trace_get_record_command (l->trace) },
    { "time_unit", "ns" },
    { "stack_order", "caller-first" },
  };
  const struct { const char *key; gint64 value; } numbers[] = {
    { "start", ws_trace_get_start_time (l->trace) },
    { "end", ws_trace_get_end_time (l->trace) },
    { "schema_version", WS_TRACE_DB_SCHEMA_VERSION },
  };

  if ((stmt = prepare (l, "INSERT INTO trace_info VALUES (?, ?)", error)) == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      bind_text (stmt, 1, texts[i][0]);
      bind_text (stmt, 2, texts[i][1]);
      if (!insert (l, stmt, error))
        return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      bind_text (stmt, 1, numbers[i].key);
      sqlite3_bind_int64 (stmt, 2, numbers[i].value);
      if (!insert (l, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static void
bind_pid (sqlite3_stmt *stmt,
          int           column,
          gint32        pid)
{
  /* -1: never recorded */
  if (pid < 0)
    sqlite3_bind_null (stmt, column);
  else
    sqlite3_bind_int64 (stmt, column, pid);
}

static gboolean
fill_processes_and_threads (Loader  *l,
                            GError **error)
{
  g_autoptr(sqlite3_stmt) process = NULL;
  g_autoptr(sqlite3_stmt) thread = NULL;

  if ((process = prepare (l, "INSERT INTO processes VALUES (?, ?, ?, ?)", error)) == NULL ||
      (thread = prepare (l, "INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?, ?)", error)) == NULL)
    return FALSE;

  for (guint i = 0; i < ws_trace_get_n_processes (l->trace); i++)
    {
      const WsProcess *p = ws_trace_get_process (l->trace, i);

      sqlite3_bind_int64 (process, 1, i);
      bind_pid (process, 2, p->pid);
      bind_pid (process, 3, ws_trace_get_process_parent (l->trace, i));
      bind_text (process, 4, p->name);
      if (!insert (l, process, error))
        return FALSE;
    }
  for (guint i = 0; i < ws_trace_get_n_threads (l->trace); i++)
    {
      const WsThread *t = ws_trace_get_thread (l->trace, i);
      WsTime exit_time = ws_trace_get_thread_exit_time (l->trace, i);

      sqlite3_bind_int64 (thread, 1, i);
      sqlite3_bind_int64 (thread, 2, t->tid);
      bind_pid (thread, 3, t->pid);
      bind_index (thread, 4, t->process);
      bind_text (thread, 5, t->name);
      sqlite3_bind_int64 (thread, 6, t->first_seen);
      sqlite3_bind_int64 (thread, 7, t->last_seen);
      if (exit_time < 0)   /* the trace does not say it ended */
        sqlite3_bind_null (thread, 8);
      else
        sqlite3_bind_int64 (thread, 8, exit_time);
      if (!insert (l, thread, error))
        return FALSE;
    }
  return TRUE;
}

/* stack_frames rows: (stack, position) pairs, caller first as everywhere
 * in Waitscope (position 0 is the outermost frame, depth - 1 the leaf). */
typedef struct {
  WsStackTable *table;
  GArray       *pairs;   /* guint32 stack, guint32 position */
} StackFrames;

static void
stack_frame_column (gpointer         data,
                    guint            row,
                    int              column,
                    sqlite3_context *ctx)
{
  StackFrames *sf = data;
  guint32 stack = g_array_index (sf->pairs, guint32, 2 * row);
  guint32 position = g_array_index (sf->pairs, guint32, 2 * row + 1);
  guint n = 0;

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, stack); break;
    case 1: sqlite3_result_int64 (ctx, position); break;
    default: sqlite3_result_int64 (ctx, ws_stack_table_get_stack (sf->table, stack, &n)[position]); break;
    }
}

static gboolean
fill_frames_and_stacks (Loader  *l,
                        GError **error)
{
  WsStackTable *table = ws_trace_get_stack_table (l->trace);
  g_autoptr(sqlite3_stmt) frame = NULL;
  g_autoptr(sqlite3_stmt) stack = NULL;
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint32));
  StackFrames sf = { table, pairs };
  WsTraceDbRows rows = { "CREATE TABLE x (stack_id, position, frame_id)", 0, NULL, stack_frame_column, &sf };

  if ((frame = prepare (l, "INSERT INTO frames VALUES (?, ?, ?)", error)) == NULL ||
      (stack = prepare (l, "INSERT INTO stacks VALUES (?, ?, ?, ?)", error)) == NULL)
    return FALSE;

  for (guint i = 0; i < ws_stack_table_get_n_frames (table); i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, i);

      sqlite3_bind_int64 (frame, 1, i);
      bind_text (frame, 2, f->function);
      bind_text (frame, 3, f->module);
      if (!insert (l, frame, error))
        return FALSE;
    }
  for (guint32 s = 0; s < ws_stack_table_get_n_stacks (table); s++)
    {
      guint n = 0;
      const WsFrameId *frames = ws_stack_table_get_stack (table, s, &n);

      sqlite3_bind_int64 (stack, 1, s);
      sqlite3_bind_int64 (stack, 2, n);
      if (n > 0)
        {
          sqlite3_bind_int64 (stack, 3, frames[n - 1]);
          bind_text (stack, 4, ws_stack_table_get_frame (table, frames[n - 1])->function);
        }
      else
        {
          sqlite3_bind_null (stack, 3);
          sqlite3_bind_null (stack, 4);
        }
      if (!insert (l, stack, error))
        return FALSE;
      for (guint32 k = 0; k < n; k++)
        {
          g_array_append_val (pairs, s);
          g_array_append_val (pairs, k);
        }
      if (!step_progress (l, error))
        return FALSE;
    }
  rows.n_rows = pairs->len / 2;
  if (!ws_trace_db_copy_rows (l->db, "stack_frames", &rows))
    return sql_error (l->db, error, _("writing the stacks"));
  return TRUE;
}

/* NULL for the model's "none" */
static void
result_index (sqlite3_context *ctx,
              guint32          index)
{
  if (index == WS_NONE)
    sqlite3_result_null (ctx);
  else
    sqlite3_result_int64 (ctx, index);
}

static void
result_state (sqlite3_context *ctx,
              char             state)
{
  guchar c = (guchar) state;

  if (c == 0)
    {
      sqlite3_result_null (ctx);
      return;
    }
  state_letters[c][0] = (char) c;   /* the same byte each time: a benign race */
  sqlite3_result_text (ctx, state_letters[c], 1, SQLITE_STATIC);
}

static const char *
event_name (WsTrace       *trace,
            const WsEvent *e)
{
  if (ws_event_name (e) != WS_NONE)
    return ws_trace_get_string (trace, ws_event_name (e));
  return NULL;
}

static void
result_text (sqlite3_context *ctx,
             const char      *text)
{
  if (text == NULL)
    sqlite3_result_null (ctx);
  else
    sqlite3_result_text (ctx, text, -1, SQLITE_STATIC);
}

/* The columns of `events`, in the order of the schema. */
static void
event_column (gpointer         data,
              guint            row,
              int              column,
              sqlite3_context *ctx)
{
  Loader *l = data;
  const WsEvent *e = &l->events[row];

  switch (column)
    {
    case 0:
      /* Events are numbered 0, 1, 2…: after the first, SQLite's own next
       * rowid (the largest + 1) is the index, and finding it costs no
       * B-tree search per row. */
      if (row == 0)
        sqlite3_result_int64 (ctx, row);
      else
        sqlite3_result_null (ctx);
      break;
    case 1: sqlite3_result_text (ctx, l->kind_names[e->kind], -1, SQLITE_STATIC); break;
    case 2: sqlite3_result_int64 (ctx, e->time); break;
    case 3: sqlite3_result_int64 (ctx, ws_event_duration (e)); break;
    case 4: sqlite3_result_int64 (ctx, e->thread); break;
    case 5: sqlite3_result_int (ctx, e->cpu); break;
    case 6: sqlite3_result_int64 (ctx, e->stack); break;
    case 7: result_index (ctx, ws_event_peer (e)); break;
    case 8: result_index (ctx, ws_event_target (e)); break;
    case 9: result_text (ctx, event_name (l->trace, e)); break;
    case 10: result_state (ctx, (e->kind == WS_EVENT_WAIT || e->kind == WS_EVENT_PREEMPT) ? e->state : '\0'); break;
    case 11: result_index (ctx, ws_trace_wait_ready_latency (l->trace, row)); break;
    default: sqlite3_result_int (ctx, e->flags); break;
    }
}

/* Every event: the cancel check and the progress report ride on the
 * scan that copies them (a cancelled scan keeps no more rows). */
static gboolean
every_event (gpointer data,
             guint    row)
{
  Loader *l = data;

  if ((row & 0xffff) == 0 && row > 0)
    {
      if (g_cancellable_is_cancelled (l->cancellable))
        l->cancelled = TRUE;
      ws_progress_report (l->progress, l->progress_data, 0.9 * row / MAX (l->n_events, 1), _("Writing the database"));
    }
  return !l->cancelled;
}

static gboolean
is_wait (gpointer data,
         guint    row)
{
  Loader *l = data;

  return l->events[row].kind == WS_EVENT_WAIT;
}

/* The columns of `waits`.  The readier kinds are those of `waitscope-cli
 * info`: a wait still open when the recording stopped is "unfinished",
 * not a lost wake-up. */
static void
wait_column (gpointer         data,
             guint            row,
             int              column,
             sqlite3_context *ctx)
{
  Loader *l = data;
  const WsEvent *e = &l->events[row];
  guint readier_thread = WS_NONE;
  guint kind = 2;

  if (column == 9 || column == 10)
    switch (ws_trace_wait_readier (l->trace, row, &readier_thread))
      {
      case WS_READIER_THREAD: kind = 0; break;
      case WS_READIER_HARDWARE: kind = 1; break;
      case WS_READIER_UNKNOWN:
      default: kind = (e->flags & WS_EVENT_FLAG_UNFINISHED) ? 3 : 2; break;
      }

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, row); break;
    case 1: sqlite3_result_int64 (ctx, e->thread); break;
    case 2: sqlite3_result_int64 (ctx, e->time); break;
    case 3: sqlite3_result_int64 (ctx, ws_event_duration (e)); break;
    case 4: sqlite3_result_int64 (ctx, e->time + MAX (ws_event_duration (e), 0)); break;
    case 5: result_state (ctx, e->state); break;
    case 6: sqlite3_result_int (ctx, (e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) != 0); break;
    case 7: sqlite3_result_int (ctx, (e->flags & WS_EVENT_FLAG_UNFINISHED) != 0); break;
    case 8: result_index (ctx, ws_trace_wait_ready_latency (l->trace, row)); break;
    case 9: sqlite3_result_text (ctx, readier_kinds[kind], -1, SQLITE_STATIC); break;
    case 10: result_index (ctx, kind == 0 ? readier_thread : WS_NONE); break;
    case 11: result_index (ctx, e->peer); break;
    case 12: sqlite3_result_int64 (ctx, e->stack); break;
    default: result_index (ctx, e->peer != WS_NONE ? l->events[e->peer].stack : WS_NONE); break;
    }
}

static gboolean
is_sample (gpointer data,
           guint    row)
{
  Loader *l = data;

  return l->events[row].kind == WS_EVENT_RUNNING && !(l->events[row].flags & WS_EVENT_FLAG_SPAN);
}

static void
sample_column (gpointer         data,
               guint            row,
               int              column,
               sqlite3_context *ctx)
{
  Loader *l = data;
  const WsEvent *e = &l->events[row];

  switch (column)
    {
    case 0: sqlite3_result_int64 (ctx, row); break;
    case 1: sqlite3_result_int64 (ctx, e->thread); break;
    case 2: sqlite3_result_int64 (ctx, e->time); break;
    case 3: sqlite3_result_int64 (ctx, ws_event_duration (e)); break;
    case 4: sqlite3_result_int (ctx, e->cpu); break;
    case 5: sqlite3_result_int64 (ctx, e->stack); break;
    default: result_text (ctx, event_name (l->trace, e)); break;
    }
}

static gboolean
fill_events (Loader  *l,
             GError **error)
{
  const WsTraceDbRows tables[] = {
    { "CREATE TABLE x (id, kind, time, duration, thread_id, cpu, stack_id, peer_id, target_thread_id,"
      " name, state, ready_latency, flags)", l->n_events, every_event, event_column, l },
    { "CREATE TABLE x (event_id, thread_id, time, cost, end_time, state, uninterruptible, unfinished,"
      " ready_latency, readier_kind, readier_thread_id, unwait_event_id, waiting_stack_id, unwait_stack_id)",
      l->n_events, is_wait, wait_column, l },
    { "CREATE TABLE x (event_id, thread_id, time, period, cpu, stack_id, event_name)",
      l->n_events, is_sample, sample_column, l },
  };
  const char *names[] = { "events", "waits", "samples" };

  for (guint k = 0; k < WS_N_EVENT_KINDS; k++)
    l->kind_names[k] = ws_event_kind_to_string (k);
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      if (!ws_trace_db_copy_rows (l->db, names[t], &tables[t]))
        return sql_error (l->db, error, _("writing the events"));
      if (l->cancelled)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
          return FALSE;
        }
    }
  return TRUE;
}

/* wait_chain_links: for each wait readied by a thread P, P's waits that
 * overlap it before the wake-up (start before its end, end after its
 * start) -- the children the ready tree gives a wait, found the way the
 * ready tree finds them: walking back from the wake-up over P's waits
 * while the prefix maximum of their ends says one may still overlap. */
static void
link_column (gpointer         data,
             guint            row,
             int              column,
             sqlite3_context *ctx)
{
  GArray *pairs = data;

  sqlite3_result_int64 (ctx, g_array_index (pairs, guint32, 2 * row + column));
}

static gboolean
fill_wait_chain_links (Loader  *l,
                       GError **error)
{
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));
  WsTraceDbRows rows = { "CREATE TABLE x (wait_id, readier_wait_id)", 0, NULL, link_column, pairs };

  for (guint32 i = 0; i < l->n_events; i++)
    {
      const WsEvent *w = &l->events[i];
      WsTime start, end;
      const WsThread *p;
      const WsTime *pm;
      guint readier;
      guint k;

      if (w->kind != WS_EVENT_WAIT || ws_trace_wait_readier (l->trace, i, &readier) != WS_READIER_THREAD)
        continue;
      if ((i & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (l->cancellable, error))
        return FALSE;
      start = w->time;
      end = w->time + MAX (ws_event_duration (w), 0);
      p = ws_trace_get_thread (l->trace, readier);
      pm = ws_trace_thread_end_prefix_max (l->trace, readier, WS_END_INDEX_WAITS);
      g_array_set_size (found, 0);
      for (k = ws_trace_thread_lower_bound (l->trace, readier, end); k > 0 && pm[k - 1] > start; k--)
        {
          const WsEvent *r = &l->events[p->events[k - 1]];

          if (r->kind == WS_EVENT_WAIT && r->time < end && r->time + MAX (ws_event_duration (r), 0) > start)
            g_array_append_val (found, p->events[k - 1]);
        }
      /* found backwards: append in event order, the table's key order */
      for (guint f = found->len; f > 0; f--)
        {
          g_array_append_val (pairs, i);
          g_array_append_val (pairs, g_array_index (found, guint32, f - 1));
        }
    }
  rows.n_rows = pairs->len / 2;
  if (!ws_trace_db_copy_rows (l->db, "wait_chain_links", &rows))
    return sql_error (l->db, error, _("writing the wait chains"));
  return TRUE;
}

static gboolean
fill_instances (Loader  *l,
                GError **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if ((stmt = prepare (l, "INSERT INTO instances VALUES (?, ?, ?, ?, ?, ?, ?, ?)", error)) == NULL)
    return FALSE;
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (l->trace); i++)
    {
      const WsScenarioInstance *s = ws_trace_get_scenario_instance (l->trace, i);

      sqlite3_bind_int64 (stmt, 1, i);
      bind_text (stmt, 2, ws_trace_get_string (l->trace, s->scenario));
      sqlite3_bind_int64 (stmt, 3, s->thread);
      sqlite3_bind_int64 (stmt, 4, s->t0);
      sqlite3_bind_int64 (stmt, 5, s->t1);
      sqlite3_bind_int64 (stmt, 6, s->t1 - s->t0);
      bind_index (stmt, 7, s->begin_event);
      bind_index (stmt, 8, s->end_event);
      if (!insert (l, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      const char  *what,
      GError     **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return sql_error (db, error, what);
  return TRUE;
}

/**
 * ws_trace_db_fill:
 * @db: an open, empty database (a file or ":memory:")
 *
 * Creates the schema of docs/sql.md in @db and writes @trace into it, in
 * one transaction.  Sets the connection's pragmas for a bulk load (no
 * journal, no syncs): give it a database nobody else has open.
 *
 * Returns: %FALSE with @error set (%G_IO_ERROR_CANCELLED when cancelled)
 */
gboolean
ws_trace_db_fill (WsTrace        *trace,
                  sqlite3        *db,
                  GCancellable   *cancellable,
                  WsProgressFunc  progress,
                  gpointer        progress_data,
                  GError        **error)
{
  g_autofree char *version = NULL;
  Loader l = {
    .db = db, .trace = trace, .cancellable = cancellable,
    .progress = progress, .progress_data = progress_data,
  };

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (db != NULL, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  l.events = ws_trace_get_events (trace);
  l.n_events = ws_trace_get_n_events (trace);
  ws_progress_report (progress, progress_data, 0.0, _("Writing the database"));
  version = g_strdup_printf ("PRAGMA user_version = %d", WS_TRACE_DB_SCHEMA_VERSION);
  if (!exec (db, "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                 "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;",
             _("setting up the database"), error) ||
      !exec (db, "BEGIN", _("starting the transaction"), error))
    return FALSE;

  if (!exec (db, schema, _("creating the tables"), error) ||
      !exec (db, version, _("creating the tables"), error) ||
      !fill_info (&l, error) ||
      !fill_processes_and_threads (&l, error) ||
      !fill_frames_and_stacks (&l, error) ||
      !fill_events (&l, error) ||
      !fill_wait_chain_links (&l, error) ||
      !fill_instances (&l, error) ||
      !exec (db, views, _("creating the views"), error) ||
      !exec (db, "COMMIT", _("committing the transaction"), error))
    {
      sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  ws_progress_report (progress, progress_data, 1.0, _("Writing the database"));
  return TRUE;
}

/**
 * ws_trace_db_save:
 * @path: the database file to write (replaced atomically)
 *
 * Writes @trace as a new SQLite database at @path.  The database is built
 * in memory and its bytes written through a #WsAtomicFile, so a failed or
 * cancelled export leaves what @path held before, or nothing, and SQLite
 * never opens a file by a name someone else could swap.
 *
 * Returns: %FALSE with @error set (naming @path) on failure
 */
gboolean
ws_trace_db_save (WsTrace        *trace,
                  const char     *path,
                  GCancellable   *cancellable,
                  WsProgressFunc  progress,
                  gpointer        progress_data,
                  GError        **error)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  sqlite3 *db = NULL;
  unsigned char *bytes = NULL;
  sqlite3_int64 size = 0;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if ((file = ws_atomic_file_open (path, &local_error)) == NULL)
    goto failed;
  /* NOMUTEX: one thread uses the connection; the mutexes cost 7 % of a load */
  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      sql_error (db, &local_error, _("opening the database"));
      goto failed;
    }
  if (!ws_trace_db_fill (trace, db, cancellable, progress, progress_data, &local_error))
    goto failed;
  if ((bytes = sqlite3_serialize (db, "main", &size, 0)) == NULL)
    {
      sql_error (db, &local_error, _("writing the database"));
      goto failed;
    }
  g_clear_pointer (&db, sqlite3_close_v2);
  if (!ws_atomic_file_write (file, bytes, size, &local_error) ||
      !ws_atomic_file_commit (g_steal_pointer (&file), FALSE, &local_error))
    goto failed;
  sqlite3_free (bytes);
  return TRUE;

failed:
  sqlite3_free (bytes);
  g_clear_pointer (&db, sqlite3_close_v2);
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
  return FALSE;
}
