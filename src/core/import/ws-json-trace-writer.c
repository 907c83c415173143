/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Writing a trace in the JSON trace format, streamed: one frame, stack,
 * thread or event per line.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-json-private.h"
#include "ws-trace-summary.h"

typedef struct {
  GOutputStream *out;
  GCancellable  *cancellable;
  GString       *buf;
  GError        *error;
} Writer;

static gboolean
writer_flush (Writer *w)
{
  if (w->error == NULL && w->buf->len > 0)
    g_output_stream_write_all (w->out, w->buf->str, w->buf->len, NULL, w->cancellable, &w->error);
  g_string_truncate (w->buf, 0);
  return w->error == NULL;
}

static inline gboolean
writer_maybe_flush (Writer *w)
{
  if (w->buf->len >= READ_CHUNK)
    return writer_flush (w);
  return w->error == NULL;
}

/* A JSON string literal.  Invalid UTF-8 (a damaged symbol table) cannot be
 * written as JSON; it is replaced by U+FFFD as g_utf8_make_valid() does. */
/**
 * ws_json_append_string:
 * @buf: where to append
 * @str: (nullable): the string (invalid UTF-8 is repaired)
 *
 * Appends @str as a JSON string literal, or null.
 */
void
ws_json_append_string (GString    *buf,
                       const char *str)
{
  g_autofree char *valid = NULL;

  if (str == NULL)
    {
      g_string_append (buf, "null");
      return;
    }
  if (!g_utf8_validate (str, -1, NULL))
    str = valid = g_utf8_make_valid (str, -1);

  g_string_append_c (buf, '"');
  for (const guchar *p = (const guchar *) str; *p; p++)
    {
      const guchar *run = p;

      /* Most names need no escape: copy them a run at a time. */
      while (*p >= 0x20 && *p != '"' && *p != '\\')
        p++;
      if (p > run)
        g_string_append_len (buf, (const char *) run, p - run);
      if (*p == '\0')
        break;
      switch (*p)
        {
        case '"':  g_string_append (buf, "\\\""); break;
        case '\\': g_string_append (buf, "\\\\"); break;
        case '\n': g_string_append (buf, "\\n"); break;
        case '\r': g_string_append (buf, "\\r"); break;
        case '\t': g_string_append (buf, "\\t"); break;
        case '\b': g_string_append (buf, "\\b"); break;
        case '\f': g_string_append (buf, "\\f"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (buf, "\\u%04x", *p);
          else
            g_string_append_c (buf, *p);
        }
    }
  g_string_append_c (buf, '"');
}

static void
append_member_string (GString    *buf,
                      const char *key,
                      const char *value)
{
  g_string_append_printf (buf, ", \"%s\": ", key);
  ws_json_append_string (buf, value);
}

static void
write_event (Writer        *w,
             WsTrace       *trace,
             guint          index,
             const WsEvent *e,
             const guint32 *stack_ids,
             const guint32 *lives,
             gboolean       explicit_null_peer)
{
  GString *b = w->buf;
  guint n_threads = ws_trace_get_n_threads (trace);
  guint32 target = ws_event_target (e), latency = ws_trace_wait_ready_latency (trace, index);

  g_string_append (b, "    {\"kind\": ");
  ws_json_append_string (b, ws_event_kind_to_string (e->kind));
  g_string_append_printf (b, ", \"t\": %" G_GINT64_FORMAT, e->time);
  if (ws_event_duration (e) != 0)
    g_string_append_printf (b, ", \"dur\": %" G_GINT64_FORMAT, ws_event_duration (e));
  g_string_append_printf (b, ", \"tid\": %d, \"cpu\": %u",
                          ws_trace_get_thread (trace, e->thread)->tid, e->cpu);
  if (lives[e->thread] != 0)
    g_string_append_printf (b, ", \"life\": %u", lives[e->thread]);
  if (e->stack != WS_STACK_EMPTY)
    g_string_append_printf (b, ", \"stack\": %u", stack_ids[e->stack]);
  if (e->state != '\0')
    {
      char state[2] = { e->state, '\0' };
      append_member_string (b, "state", state);
    }
  if (ws_event_peer (e) != WS_NONE)
    g_string_append_printf (b, ", \"peer\": %u", ws_event_peer (e));
  else if (explicit_null_peer)
    g_string_append (b, ", \"peer\": null");
  if (e->kind == WS_EVENT_MARKER || e->kind == WS_EVENT_RUNNING)
    {
      if (ws_event_name (e) != WS_NONE)
        append_member_string (b, "name", ws_trace_get_string (trace, ws_event_name (e)));
    }
  else if (target != WS_NONE && target < n_threads)
    {
      g_string_append_printf (b, ", \"target\": %d", ws_trace_get_thread (trace, target)->tid);
      if (lives[target] != 0)
        g_string_append_printf (b, ", \"target_life\": %u", lives[target]);
    }
  if (latency != WS_LATENCY_UNKNOWN)
    g_string_append_printf (b, ", \"latency\": %u", latency);
  if (e->flags != 0)
    {
      gboolean first = TRUE;

      g_string_append (b, ", \"flags\": [");
      for (guint bit = 0; bit < WS_EVENT_N_FLAG_BITS; bit++)
        {
          if (!(e->flags & (1u << bit)))
            continue;
          if (!first)
            g_string_append (b, ", ");
          first = FALSE;
          ws_json_append_string (b, ws_event_flag_name (bit));
        }
      g_string_append_c (b, ']');
    }
  g_string_append_c (b, '}');
}

/* Which stacks and frames the trace uses, numbered densely, and which
 * unwaits a wait points to (for the explicit "peer": null, see resolve()). */
typedef struct {
  WsTrace       *trace;
  WsStackTable  *stacks;
  guint32       *stack_ids;
  guint32       *frame_ids;
  guint8        *pointed;
  guint32       *lives;   /* per thread: how many earlier threads had its tid */
  guint          n_table_stacks;
  guint          n_table_frames;
  guint          n_stacks;
  guint          n_frames;
} Numbering;

static void
numbering_init (Numbering *nb,
                WsTrace   *trace)
{
  const WsEvent *events = ws_trace_get_events (trace);
  guint n_events = ws_trace_get_n_events (trace);

  memset (nb, 0, sizeof *nb);
  nb->trace = trace;
  nb->stacks = ws_trace_get_stack_table (trace);
  nb->n_table_stacks = ws_stack_table_get_n_stacks (nb->stacks);
  nb->n_table_frames = ws_stack_table_get_n_frames (nb->stacks);
  nb->stack_ids = g_new (guint32, MAX (nb->n_table_stacks, 1));
  nb->frame_ids = g_new (guint32, MAX (nb->n_table_frames, 1));
  nb->pointed = g_new0 (guint8, MAX (n_events, 1));
  memset (nb->stack_ids, 0xff, sizeof (guint32) * MAX (nb->n_table_stacks, 1));
  memset (nb->frame_ids, 0xff, sizeof (guint32) * MAX (nb->n_table_frames, 1));
  nb->stack_ids[WS_STACK_EMPTY] = 0;
  for (guint i = 0; i < n_events; i++)
    {
      if (events[i].stack < nb->n_table_stacks)
        nb->stack_ids[events[i].stack] = 0;
      if (events[i].kind == WS_EVENT_WAIT && events[i].peer < n_events)
        nb->pointed[events[i].peer] = 1;
    }
  for (guint s = 0; s < nb->n_table_stacks; s++)
    if (nb->stack_ids[s] != G_MAXUINT32)
      {
        guint n;
        const WsFrameId *f = ws_stack_table_get_stack (nb->stacks, s, &n);

        nb->stack_ids[s] = nb->n_stacks++;
        for (guint k = 0; k < n; k++)
          nb->frame_ids[f[k]] = 0;
      }
  for (guint f = 0; f < nb->n_table_frames; f++)
    if (nb->frame_ids[f] != G_MAXUINT32)
      nb->frame_ids[f] = nb->n_frames++;

  /* A tid the system gave to a new thread after the first ended. */
  {
    g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
    guint n_threads = ws_trace_get_n_threads (trace);

    nb->lives = g_new (guint32, MAX (n_threads, 1));
    for (guint t = 0; t < n_threads; t++)
      {
        gpointer key = GINT_TO_POINTER (ws_trace_get_thread (trace, t)->tid);

        nb->lives[t] = GPOINTER_TO_UINT (g_hash_table_lookup (seen, key));
        g_hash_table_insert (seen, key, GUINT_TO_POINTER (nb->lives[t] + 1));
      }
  }
}

static void
numbering_clear (Numbering *nb)
{
  g_free (nb->stack_ids);
  g_free (nb->frame_ids);
  g_free (nb->pointed);
  g_free (nb->lives);
}

static void
write_frames_and_stacks (Writer          *w,
                         const Numbering *nb)
{
  g_string_append (w->buf, ",\n  \"frames\": [");
  for (guint f = 0, k = 0; f < nb->n_table_frames && w->error == NULL; f++)
    {
      const WsFrame *frame;

      if (nb->frame_ids[f] == G_MAXUINT32)
        continue;
      frame = ws_stack_table_get_frame (nb->stacks, f);
      g_string_append (w->buf, k++ ? ",\n    {\"function\": " : "\n    {\"function\": ");
      ws_json_append_string (w->buf, frame->function);
      append_member_string (w->buf, "module", frame->module);
      g_string_append_c (w->buf, '}');
      writer_maybe_flush (w);
    }
  g_string_append (w->buf, nb->n_frames ? "\n  ],\n  \"stacks\": [" : "],\n  \"stacks\": [");

  for (guint s = 0, k = 0; s < nb->n_table_stacks && w->error == NULL; s++)
    {
      const WsFrameId *f;
      guint n;

      if (nb->stack_ids[s] == G_MAXUINT32)
        continue;
      f = ws_stack_table_get_stack (nb->stacks, s, &n);
      g_string_append (w->buf, k++ ? ",\n    [" : "\n    [");
      for (guint j = 0; j < n; j++)
        g_string_append_printf (w->buf, j ? ", %u" : "%u", nb->frame_ids[f[j]]);
      g_string_append_c (w->buf, ']');
      writer_maybe_flush (w);
    }
  g_string_append (w->buf, "\n  ]");
}

static void
write_processes_and_threads (Writer          *w,
                             const Numbering *nb)
{
  WsTrace *trace = nb->trace;

  g_string_append (w->buf, ",\n  \"processes\": [");
  for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
    {
      const WsProcess *process = ws_trace_get_process (trace, p);

      g_string_append_printf (w->buf, "%s\n    {\"pid\": %d", p ? "," : "", process->pid);
      if (process->name != NULL)
        append_member_string (w->buf, "name", process->name);
      g_string_append_c (w->buf, '}');
      writer_maybe_flush (w);
    }

  g_string_append (w->buf, ws_trace_get_n_processes (trace) ? "\n  ],\n  \"threads\": [" : "],\n  \"threads\": [");
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);

      g_string_append_printf (w->buf, "%s\n    {\"tid\": %d, \"pid\": %d", t ? "," : "",
                              thread->tid, thread->pid);
      if (nb->lives[t] != 0)
        g_string_append_printf (w->buf, ", \"life\": %u", nb->lives[t]);
      if (thread->name != NULL)
        append_member_string (w->buf, "name", thread->name);
      g_string_append_c (w->buf, '}');
      writer_maybe_flush (w);
    }
  g_string_append (w->buf, ws_trace_get_n_threads (trace) ? "\n  ]" : "]");
}

static void
write_events (Writer          *w,
              const Numbering *nb)
{
  const WsEvent *events = ws_trace_get_events (nb->trace);
  guint n_events = ws_trace_get_n_events (nb->trace);

  g_string_append (w->buf, ",\n  \"events\": [");
  for (guint i = 0; i < n_events && w->error == NULL; i++)
    {
      const WsEvent *e = &events[i];
      gboolean explicit_null = nb->pointed[i] && ws_event_peer (e) == WS_NONE
                               && (e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE);

      g_string_append (w->buf, i ? ",\n" : "\n");
      write_event (w, nb->trace, i, e, nb->stack_ids, nb->lives, explicit_null);
      if ((i & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (w->cancellable, &w->error))
        break;
      writer_maybe_flush (w);
    }
  g_string_append (w->buf, n_events ? "\n  ]" : "]");
}

static void
write_instances (Writer          *w,
                 const Numbering *nb)
{
  WsTrace *trace = nb->trace;

  g_string_append (w->buf, ",\n  \"scenario_instances\": [");
  for (guint k = 0; k < ws_trace_get_n_scenario_instances (trace); k++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);

      g_string_append (w->buf, k ? ",\n    {\"scenario\": " : "\n    {\"scenario\": ");
      ws_json_append_string (w->buf, ws_trace_get_string (trace, inst->scenario));
      g_string_append_printf (w->buf, ", \"tid\": %d, \"t0\": %" G_GINT64_FORMAT ", \"t1\": %" G_GINT64_FORMAT,
                              ws_trace_get_thread (trace, inst->thread)->tid, inst->t0, inst->t1);
      if (nb->lives[inst->thread] != 0)
        g_string_append_printf (w->buf, ", \"life\": %u", nb->lives[inst->thread]);
      if (inst->begin_event != WS_NONE)
        g_string_append_printf (w->buf, ", \"begin\": %u", inst->begin_event);
      if (inst->end_event != WS_NONE)
        g_string_append_printf (w->buf, ", \"end\": %u", inst->end_event);
      g_string_append_c (w->buf, '}');
      writer_maybe_flush (w);
    }
  g_string_append (w->buf, ws_trace_get_n_scenario_instances (trace) ? "\n  ]\n}\n" : "]\n}\n");
}

/**
 * ws_json_trace_write_stream:
 *
 * Writes @trace as a Waitscope JSON trace, one frame, stack, thread or
 * event per line.  Only the frames and stacks the trace uses are written
 * (a stack table may be shared by many traces), renumbered densely in the
 * order of their ids in the table.
 */
gboolean
ws_json_trace_write_stream (WsTrace       *trace,
                            GOutputStream *stream,
                            GCancellable  *cancellable,
                            GError       **error)
{
  Writer w = { .out = stream, .cancellable = cancellable };
  Numbering nb;
  gboolean ok;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  numbering_init (&nb, trace);
  w.buf = g_string_sized_new (2 * READ_CHUNK);
  g_string_append_printf (w.buf, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"name\": ",
                          WS_JSON_TRACE_FORMAT, WS_JSON_TRACE_VERSION);
  ws_json_append_string (w.buf, ws_trace_get_name (trace));
  write_frames_and_stacks (&w, &nb);
  write_processes_and_threads (&w, &nb);
  write_events (&w, &nb);
  write_instances (&w, &nb);
  writer_flush (&w);
  g_string_free (w.buf, TRUE);
  numbering_clear (&nb);

  ok = w.error == NULL;
  if (!ok)
    g_propagate_error (error, w.error);
  return ok;
}

/**
 * ws_json_trace_save:
 * @path: where to write; a name ending in ".gz" is gzip-compressed
 *
 * Writes through a temporary file renamed into place at the end, so a
 * failed or cancelled save never leaves a half-written trace behind (nor
 * destroys the file it would have replaced).
 */
gboolean
ws_json_trace_save (WsTrace       *trace,
                    const char    *path,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GOutputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((file = ws_atomic_file_open (path, &local_error)) == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }

  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
      stream = g_converter_output_stream_new (ws_atomic_file_get_stream (file), G_CONVERTER (gzip));
    }
  else
    stream = g_object_ref (ws_atomic_file_get_stream (file));

  /* On failure the temporary file goes (with @file); whatever was at
   * @path stays. */
  if (!ws_json_trace_write_stream (trace, stream, cancellable, &local_error)
      || !g_output_stream_close (stream, cancellable, &local_error))
    {
      if (local_error->domain == WS_ERROR)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s: %s", path, _("cancelled"));
      else
        g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }
  if (!ws_atomic_file_commit (g_steal_pointer (&file), FALSE, &local_error))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

