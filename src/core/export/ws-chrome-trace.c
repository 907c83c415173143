/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trace as Chrome trace events.  Each thread is a track (pid/tid, named
 * by metadata events).  On-CPU spans, waits and preemptions are complete
 * slices ("X") -- they never overlap on one thread, so they nest as the
 * format requires; waits carry their state.  A wake-up is a zero-length
 * slice on the waker's track with a flow (v2: bind_id, flow_out) to the
 * wait it ended (flow_in), so Perfetto draws an arrow from waker to
 * waiter.  CPU samples and markers are instant events.  Scenario instances
 * are async slices ("b"/"e" with an id): they may cross slice boundaries,
 * which async tracks allow.  Times are microseconds with ns precision.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-atomic-file.h"
#include "ws-chrome-trace.h"
#include "ws-error.h"
#include "ws-json-trace.h"

typedef struct {
  WsTrace       *trace;
  WsStackTable  *stacks;
  GOutputStream *out;
  GCancellable  *cancellable;
  GString       *buf;
  GError        *error;
  gboolean       first;
  /* stack id -> its "stack": [...] member, written once: a trace has far
   * fewer distinct stacks than events, and escaping every frame of every
   * event was most of the export's time. */
  GHashTable    *stack_json;
  /* thread -> its wake-up slices' name member, escaped once */
  GHashTable    *wake_names;
} Writer;

static void
free_string (gpointer data)
{
  g_string_free (data, TRUE);
}

/* Numbers by hand, not printf: a big export writes tens of millions of
 * them, and formatting was a fifth of its time.  The bytes are those of
 * "%" G_GINT64_FORMAT, "%03d" and "0x%x". */
static void
append_int (GString *buf,
            gint64   value)
{
  char digits[24];
  guint64 magnitude = value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;
  int at = sizeof digits;

  do
    {
      digits[--at] = (char) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude > 0);
  if (value < 0)
    digits[--at] = '-';
  g_string_append_len (buf, digits + at, sizeof digits - at);
}

/* @whole "." @thousandths as three digits (0 ≤ @thousandths < 1000). */
static void
append_decimal (GString *buf,
                gint64   whole,
                int      thousandths)
{
  char frac[4] = { '.', (char) ('0' + thousandths / 100), (char) ('0' + thousandths / 10 % 10),
                   (char) ('0' + thousandths % 10) };

  append_int (buf, whole);
  g_string_append_len (buf, frac, 4);
}

static void
append_hex (GString *buf,
            guint32  value)
{
  static const char hex[] = "0123456789abcdef";
  char digits[10];
  int at = sizeof digits;

  do
    {
      digits[--at] = hex[value & 0xf];
      value >>= 4;
    }
  while (value > 0);
  digits[--at] = 'x';
  digits[--at] = '0';
  g_string_append_len (buf, digits + at, sizeof digits - at);
}

static void
flush (Writer  *w,
       gboolean force)
{
  if (w->error != NULL || (!force && w->buf->len < 256 * 1024))
    return;
  g_output_stream_write_all (w->out, w->buf->str, w->buf->len, NULL, w->cancellable, &w->error);
  g_string_truncate (w->buf, 0);
}

/* Starts one event object: {"ph": PH, "pid": …, "tid": …, "ts": … */
static void
begin_event (Writer     *w,
             const char *ph,
             guint       thread,
             WsTime      time)
{
  const WsThread *t = ws_trace_get_thread (w->trace, thread);

  g_string_append (w->buf, w->first ? "\n    {" : ",\n    {");
  w->first = FALSE;
  g_string_append (w->buf, "\"ph\": \"");
  g_string_append (w->buf, ph);
  g_string_append (w->buf, "\", \"pid\": ");
  append_int (w->buf, t->pid >= 0 ? t->pid : t->tid);
  g_string_append (w->buf, ", \"tid\": ");
  append_int (w->buf, t->tid);
  g_string_append (w->buf, ", \"ts\": ");
  append_decimal (w->buf, time / 1000, (int) (((time % 1000) + 1000) % 1000));
}

static void
append_member (Writer     *w,
               const char *key,
               const char *value)
{
  g_string_append (w->buf, ", \"");
  g_string_append (w->buf, key);
  g_string_append (w->buf, "\": ");
  ws_json_append_string (w->buf, value);
}

static void
append_duration (Writer *w,
                 WsTime  duration)
{
  duration = MAX (duration, 0);
  g_string_append (w->buf, ", \"dur\": ");
  append_decimal (w->buf, duration / 1000, (int) (duration % 1000));
}

/* "args": {"stack": [leaf first, as perf and Perfetto show stacks], …} */
static void
append_args (Writer        *w,
             const WsEvent *e,
             const char    *extra_key,
             const char    *extra_value)
{
  guint n = 0;
  const WsFrameId *frames = e->stack != WS_STACK_EMPTY
                            ? ws_stack_table_get_stack (w->stacks, e->stack, &n) : NULL;

  g_string_append (w->buf, ", \"args\": {");
  if (extra_key != NULL)
    {
      g_string_append_c (w->buf, '"');
      g_string_append (w->buf, extra_key);
      g_string_append (w->buf, "\": ");
      ws_json_append_string (w->buf, extra_value);
      g_string_append (w->buf, n > 0 ? ", " : "");
    }
  if (n > 0)
    {
      GString *json = g_hash_table_lookup (w->stack_json, GUINT_TO_POINTER (e->stack));

      if (json == NULL)
        {
          json = g_string_new ("\"stack\": [");
          for (guint k = 0; k < n; k++)
            {
              g_autofree char *frame = ws_stack_table_format_frame (w->stacks, frames[n - 1 - k]);
              if (k > 0)
                g_string_append (json, ", ");
              ws_json_append_string (json, frame);
            }
          g_string_append_c (json, ']');
          g_hash_table_insert (w->stack_json, GUINT_TO_POINTER (e->stack), json);
        }
      g_string_append_len (w->buf, json->str, json->len);
    }
  g_string_append_c (w->buf, '}');
}

static void
write_metadata (Writer *w)
{
  for (guint i = 0; i < ws_trace_get_n_threads (w->trace); i++)
    {
      const WsThread *t = ws_trace_get_thread (w->trace, i);
      g_autofree char *name = g_strdup_printf ("%s %d", t->name ? t->name : "?", t->tid);

      begin_event (w, "M", i, 0);
      append_member (w, "name", "thread_name");
      g_string_append (w->buf, ", \"args\": {\"name\": ");
      ws_json_append_string (w->buf, name);
      g_string_append (w->buf, "}}");
    }
  for (guint i = 0; i < ws_trace_get_n_processes (w->trace); i++)
    {
      const WsProcess *p = ws_trace_get_process (w->trace, i);

      if (p->n_threads == 0)
        continue;
      begin_event (w, "M", p->threads[0], 0);
      append_member (w, "name", "process_name");
      g_string_append (w->buf, ", \"args\": {\"name\": ");
      ws_json_append_string (w->buf, p->name ? p->name : "?");
      g_string_append (w->buf, "}}");
    }
}

static void
write_wait (Writer        *w,
            guint          index,
            const WsEvent *e)
{
  char state[2] = { e->state ? e->state : '?', '\0' };
  char name[] = "Waiting (?)";

  name[9] = state[0];
  begin_event (w, "X", e->thread, e->time);
  append_duration (w, ws_event_duration (e));
  append_member (w, "name", name);
  append_member (w, "cat", "wait");
  if (e->peer != WS_NONE && ws_trace_get_event (w->trace, e->peer)->kind == WS_EVENT_UNWAIT)
    {
      g_string_append (w->buf, ", \"bind_id\": \"");
      append_hex (w->buf, e->peer);
      g_string_append (w->buf, "\", \"flow_in\": true");
    }
  append_args (w, e, "state", state);
  g_string_append_c (w->buf, '}');
}

/* The `, "name": "Wake-up → THREAD TID"` member of @target's wake-ups,
 * made once per thread. */
static GString *
wake_name (Writer *w,
           guint   target)
{
  GString *member = g_hash_table_lookup (w->wake_names, GUINT_TO_POINTER (target));

  if (member == NULL)
    {
      const WsThread *t = target != WS_NONE ? ws_trace_get_thread (w->trace, target) : NULL;
      g_autofree char *name = t ? g_strdup_printf ("Wake-up → %s %d", t->name ? t->name : "?", t->tid)
                                : g_strdup ("Wake-up");

      member = g_string_new (", \"name\": ");
      ws_json_append_string (member, name);
      g_hash_table_insert (w->wake_names, GUINT_TO_POINTER (target), member);
    }
  return member;
}

static void
write_wakeup (Writer        *w,
              guint          index,
              const WsEvent *e)
{
  GString *name = wake_name (w, ws_event_target (e));

  begin_event (w, "X", e->thread, e->time);
  append_duration (w, 0);
  g_string_append_len (w->buf, name->str, name->len);
  append_member (w, "cat", "wakeup");
  /* Only a wake-up that ended a wait starts a flow: echoes end none. */
  if (e->peer != WS_NONE)
    {
      g_string_append (w->buf, ", \"bind_id\": \"");
      append_hex (w->buf, index);
      g_string_append (w->buf, "\", \"flow_out\": true");
    }
  append_args (w, e, NULL, NULL);
  g_string_append_c (w->buf, '}');
}

static void
write_event (Writer        *w,
             guint          index,
             const WsEvent *e)
{
  switch (e->kind)
    {
    case WS_EVENT_RUNNING:
      if (e->flags & WS_EVENT_FLAG_SPAN)
        {
          begin_event (w, "X", e->thread, e->time);
          append_duration (w, ws_event_duration (e));
          append_member (w, "name", "Running");
          append_member (w, "cat", "run");
          g_string_append_c (w->buf, '}');
        }
      else
        {
          begin_event (w, "i", e->thread, e->time);
          g_string_append (w->buf, ", \"s\": \"t\"");
          append_member (w, "name", "Sample");
          append_member (w, "cat", "sample");
          append_args (w, e, "event", ws_event_name (e) != WS_NONE ? ws_trace_get_string (w->trace, ws_event_name (e)) : NULL);
          g_string_append_c (w->buf, '}');
        }
      break;
    case WS_EVENT_WAIT:
      write_wait (w, index, e);
      break;
    case WS_EVENT_UNWAIT:
    case WS_EVENT_HW_SERVICE:
      if (e->kind == WS_EVENT_UNWAIT)
        write_wakeup (w, index, e);
      break;
    case WS_EVENT_PREEMPT:
      begin_event (w, "X", e->thread, e->time);
      append_duration (w, ws_event_duration (e));
      append_member (w, "name", "Preempted (R)");
      append_member (w, "cat", "preempt");
      g_string_append_c (w->buf, '}');
      break;
    case WS_EVENT_MARKER:
    default:
      begin_event (w, "i", e->thread, e->time);
      g_string_append (w->buf, ", \"s\": \"t\"");
      append_member (w, "name", ws_event_name (e) != WS_NONE ? ws_trace_get_string (w->trace, ws_event_name (e)) : "marker");
      append_member (w, "cat", "marker");
      g_string_append_c (w->buf, '}');
      break;
    }
}

static void
write_instances (Writer *w)
{
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (w->trace); i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (w->trace, i);
      const char *name = ws_trace_get_string (w->trace, inst->scenario);

      for (guint k = 0; k < 2; k++)
        {
          begin_event (w, k == 0 ? "b" : "e", inst->thread, k == 0 ? inst->t0 : inst->t1);
          append_member (w, "name", name ? name : "scenario");
          append_member (w, "cat", "scenario");
          g_string_append_printf (w->buf, ", \"id\": \"0x%x\"}", i);
        }
    }
}

/**
 * ws_chrome_trace_write:
 *
 * Writes @trace as Chrome trace event JSON to @out.
 *
 * Returns: %FALSE with @error set if writing failed or was cancelled
 */
gboolean
ws_chrome_trace_write (WsTrace       *trace,
                       GOutputStream *out,
                       GCancellable  *cancellable,
                       GError       **error)
{
  Writer w = { trace, NULL, out, cancellable, NULL, NULL, TRUE, NULL, NULL };

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  w.stacks = ws_trace_get_stack_table (trace);
  w.stack_json = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, free_string);
  w.wake_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, free_string);
  w.buf = g_string_sized_new (512 * 1024);
  g_string_append (w.buf, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"producer\": \"waitscope\", \"source\": ");
  ws_json_append_string (w.buf, ws_trace_get_name (trace));
  g_string_append (w.buf, "},\n  \"traceEvents\": [");
  write_metadata (&w);
  for (guint i = 0; i < ws_trace_get_n_events (trace) && w.error == NULL; i++)
    {
      write_event (&w, i, ws_trace_get_event (trace, i));
      flush (&w, FALSE);
    }
  write_instances (&w);
  g_string_append (w.buf, "\n  ]\n}\n");
  flush (&w, TRUE);
  g_string_free (w.buf, TRUE);
  g_hash_table_unref (w.stack_json);
  g_hash_table_unref (w.wake_names);
  if (w.error != NULL)
    {
      g_propagate_error (error, w.error);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_chrome_trace_save:
 * @path: the file to write (replaced atomically)
 *
 * Returns: %FALSE with @error set (a %WS_ERROR naming @path) on failure
 */
gboolean
ws_chrome_trace_save (WsTrace       *trace,
                      const char    *path,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GError) local_error = NULL;

  file = ws_atomic_file_open (path, &local_error);
  if (file == NULL ||
      !ws_chrome_trace_write (trace, ws_atomic_file_get_stream (file), cancellable, &local_error) ||
      !ws_atomic_file_commit (g_steal_pointer (&file), FALSE, &local_error))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return TRUE;
}
